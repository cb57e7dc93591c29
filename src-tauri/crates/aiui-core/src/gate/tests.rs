//! Gate decisions: only the right id with the right hash, before the expiry, decides.

use std::time::Duration;

use serde_json::json;

use super::*;

fn gate(ttl: Duration) -> (Gate, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let audit = AuditLog::open(&dir.path().join("audit.jsonl")).unwrap();
    (Gate::new(audit, ttl), dir)
}

fn proposal() -> Proposal {
    Proposal {
        tool: "package_restart".into(),
        rpc_method: "package.restart".into(),
        arguments: json!({"id": "lnd"}),
        summary: "Restart app `lnd` (running)".into(),
        class: ToolClass::Act,
        backend: BackendId::Local { model: "m".into() },
        requester: Requester::default(),
    }
}

#[tokio::test]
async fn allow_once_resolves_the_waiter_and_is_audited() {
    let (gate, dir) = gate(Duration::from_secs(30));
    let waiter = gate.open(proposal()).unwrap();
    let (id, hash) = (waiter.request.id.clone(), waiter.request.arguments_hash.clone());
    assert_eq!(gate.pending().len(), 1);
    assert_eq!(gate.decide(&id, &hash, Decision::AllowOnce), Ok(Verdict::Allowed));
    assert_eq!(gate.wait(waiter).await, Verdict::Allowed);
    assert_eq!(gate.decide(&id, &hash, Decision::AllowOnce), Err(DecideError::Unknown), "once means once");
    let log = std::fs::read_to_string(dir.path().join("audit.jsonl")).unwrap();
    let events: Vec<serde_json::Value> = log.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(events.len(), 2);
    assert_eq!((events[0]["event"].as_str(), events[0]["id"].as_str()), (Some("requested"), Some(id.as_str())));
    assert_eq!((events[1]["event"].as_str(), events[1]["verdict"].as_str()), (Some("decided"), Some("allowed")));
}

#[tokio::test]
async fn wrong_hash_unknown_id_and_expiry_are_refused() {
    let (gate, _dir) = gate(Duration::from_millis(50));
    let waiter = gate.open(proposal()).unwrap();
    let id = waiter.request.id.clone();
    let other_hash = arguments_hash("package_restart", "package.restart", &json!({"id": "bitcoin-knots"}));
    assert_eq!(gate.decide(&id, &other_hash, Decision::AllowOnce), Err(DecideError::Mismatch));
    assert_eq!(gate.decide("0000", &waiter.request.arguments_hash, Decision::AllowOnce), Err(DecideError::Unknown));
    assert_eq!(gate.wait(waiter).await, Verdict::Expired, "no answer means no");
    assert!(gate.pending().is_empty());
}

#[tokio::test]
async fn a_decision_after_the_expiry_is_expired_not_allowed() {
    let (gate, _dir) = gate(Duration::from_millis(1));
    let waiter = gate.open(proposal()).unwrap();
    tokio::time::sleep(Duration::from_millis(5)).await;
    let (id, hash) = (waiter.request.id.clone(), waiter.request.arguments_hash.clone());
    assert_eq!(gate.decide(&id, &hash, Decision::AllowOnce), Err(DecideError::Expired));
    assert_eq!(gate.wait(waiter).await, Verdict::Expired);
}

#[tokio::test]
async fn a_withdrawn_request_is_listed_nowhere_and_cannot_be_decided() {
    let (gate, dir) = gate(Duration::from_secs(30));
    let waiter = gate.open(proposal()).unwrap();
    let (id, hash) = (waiter.request.id.clone(), waiter.request.arguments_hash.clone());
    assert!(gate.withdraw(&id));
    assert!(gate.pending().is_empty());
    assert_eq!(gate.decide(&id, &hash, Decision::AllowOnce), Err(DecideError::Unknown));
    assert_eq!(gate.wait(waiter).await, Verdict::Expired, "the waiter hears no yes");
    assert!(!gate.withdraw(&id), "once");
    let audit = std::fs::read_to_string(dir.path().join("audit.jsonl")).unwrap();
    assert!(audit.contains("\"withdrawn\""), "{audit}");
}

#[tokio::test]
async fn requests_opened_in_the_same_millisecond_still_list_oldest_first() {
    let (gate, _dir) = gate(Duration::from_secs(30));
    let opened: Vec<String> = (0..50).map(|_| gate.open(proposal()).unwrap().request.id).collect();
    let listed: Vec<String> = gate.pending().into_iter().map(|r| r.id).collect();
    assert_eq!(listed, opened);
}
