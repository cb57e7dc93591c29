//! Tolerance of a drifting node: every fixture shape in `fixtures/node/` read by the adapter, the whole loop against
//! a devnode serving minimal shapes, and a node whose answers are beyond repair.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use aiui_core::agent::{Event, NodeMints, TurnOutcome};
use aiui_core::backends::Message;
use aiui_core::backends::chain::Chain;
use aiui_core::budget::{BudgetStore, BudgetUpdate, Period};
use aiui_core::egress::KnownSecret;
use aiui_core::gate::Decision;
use aiui_core::node::contract::{self, Outcome};
use aiui_core::node::{METHODS, NodeMethod, PackageState, ResultShape, parse_answer};
use aiui_core::store::EntryKind;
use aiui_core::tools::Surface;
use archy_devnode::Shapes;
use serde_json::Value;

use crate::support::assistant::{Harness, harness_full, ollama_leg};
use crate::support::{PASSWORD, client_for, credentials, start, wire};

fn fixture_dir(rpc_name: &str) -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../fixtures/node")).join(rpc_name)
}

/// Reads one fixture the way a live answer is read, and checks what the owner's card would carry.
#[track_caller]
fn check(method: NodeMethod, name: &str, fixture: &Value) {
    let rpc = method.spec().rpc_name;
    let answer = &fixture["answer"];
    match (parse_answer(method, answer), fixture.get("expect")) {
        (Ok(read), Some(expect)) => {
            let got = serde_json::to_value(&read.value).unwrap();
            assert_eq!(&got, expect, "{rpc}/{name}: what the owner sees");
            let skipped = fixture.get("skipped").and_then(Value::as_u64).unwrap_or(0) as usize;
            assert_eq!(read.drift.skipped.len(), skipped, "{rpc}/{name}: skipped entries {:?}", read.drift.skipped);
            if name == "devnode" {
                assert!(read.drift.is_exact(), "{rpc}/{name}: the devnode's shape is the adapter's: {:?}", read.drift);
            } else if name == "extra-renamed" || name == "strings" {
                assert!(!read.drift.is_exact(), "{rpc}/{name}: a drifted shape is reported as drift");
            }
        }
        (Err(e), None) => {
            let want = fixture["error"].as_str().expect("a fixture has `expect` or `error`");
            let message = e.to_string();
            assert!(message.contains(want), "{rpc}/{name}: {message:?} should say {want:?}");
            assert!(message.contains(rpc), "{rpc}/{name}: the failure names the method: {message}");
        }
        (Ok(read), None) => panic!("{rpc}/{name}: should have failed, read {:?}", read.value),
        (Err(e), Some(_)) => panic!("{rpc}/{name}: should have been read: {e}"),
    }
}

#[test]
fn every_read_method_reads_every_fixture_shape() {
    let mut read_methods = 0;
    let mut total = 0;
    for spec in METHODS.iter().filter(|s| matches!(s.result, ResultShape::Read(_))) {
        read_methods += 1;
        let dir = fixture_dir(spec.rpc_name);
        let mut names: Vec<String> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| {
                panic!("fixtures/node/{} is missing ({e}): every read method needs shapes", spec.rpc_name)
            })
            .map(|entry| entry.unwrap().file_name().to_string_lossy().trim_end_matches(".json").to_owned())
            .collect();
        names.sort();
        for required in ["devnode", "minimal", "extra-renamed"] {
            assert!(names.iter().any(|n| n == required), "{}: no {required}.json", spec.rpc_name);
        }
        assert!(names.iter().any(|n| n.starts_with("broken")), "{}: no broken shape", spec.rpc_name);
        for name in &names {
            check(spec.method, name, &wire::fixture(&format!("node/{}/{name}.json", spec.rpc_name)));
            total += 1;
        }
    }
    assert_eq!(read_methods, 7);
    assert!(total >= 35, "{total} shapes");
}

/// `doctor --contract`'s core against the devnode: the full shapes match the adapter exactly, the minimal ones
/// are readable with drift, the broken ones are reported as not readable. Nothing on the node changes.
#[tokio::test]
async fn the_contract_check_reports_drift_per_mode() {
    let node = start(|_| {}).await;
    let client = client_for(&node.node, credentials(PASSWORD));
    let known = || vec![KnownSecret::new("node-password", PASSWORD)];
    let reports = contract::check(&client, None, known()).await;
    assert_eq!(reports.len(), 7);
    for r in &reports {
        assert!(
            matches!(&r.outcome, Outcome::Read { drift, .. } if drift.is_exact()),
            "{}: {:?}",
            r.rpc_name,
            r.outcome
        );
    }
    assert!(reports.iter().any(|r| r.app.as_deref() == Some("bitcoin-knots")), "the first running app is asked about");

    node.node.set_shapes(Shapes::Minimal);
    for r in contract::check(&client, None, known()).await {
        let Outcome::Read { drift, sample } = &r.outcome else { panic!("{}: {:?}", r.rpc_name, r.outcome) };
        if r.rpc_name == "package.list" {
            assert_eq!(drift.missing.keys().collect::<Vec<_>>(), ["title", "version"], "{drift:?}");
            assert_eq!(sample["packages"].as_array().unwrap().len(), 3, "two entries and a count: {sample}");
        }
        if r.rpc_name == "streaming.list-mints" {
            assert_eq!(drift.missing.keys().collect::<Vec<_>>(), ["unit"]);
            assert_eq!(drift.never_seen, ["trusted"]);
        }
    }

    node.node.set_shapes(Shapes::Broken);
    let reports = contract::check(&client, Some("lnd"), known()).await;
    assert!(reports.iter().all(|r| matches!(r.outcome, Outcome::Unreadable { .. })), "{reports:#?}");
    assert!(!format!("{reports:?}").contains(PASSWORD));
    let calls = node.node.calls();
    assert!(calls.iter().all(|m| !m.starts_with("package.") || m == "package.list"), "reads only: {calls:?}");
}

async fn minimal_node_harness(shapes: Shapes, replies: Vec<&str>) -> (Harness, wire::WireServer) {
    let ollama = wire::ollama(true, replies).await;
    let data = tempfile::tempdir().unwrap();
    let budget = Arc::new(BudgetStore::open(&data.path().join("budget.json")).unwrap());
    budget
        .set(BudgetUpdate {
            allowance_sats: Some(1000),
            period: Some(Period::Never),
            accepted_mints: Some(vec!["https://mint.coinos.io".into()]),
        })
        .unwrap();
    let chain = Chain::new(vec![ollama_leg(&ollama.url)]);
    let h = harness_full(chain, Duration::from_secs(30), Some(budget), move |config| config.shapes = shapes).await;
    // The budget file's directory lives as long as the test: leak it, it is a temp dir.
    std::mem::forget(data);
    (h, ollama)
}

fn notices(events: &[Event]) -> Vec<&str> {
    events.iter().filter_map(|e| if let Event::Notice { text } = e { Some(text.as_str()) } else { None }).collect()
}

/// The whole loop against a node that sends only what AIUI cannot do without.
#[tokio::test]
async fn a_turn_against_a_node_with_minimal_shapes_shows_cards_states_and_mints() {
    let replies = vec![
        "ollama/chat_call_package_list.json",
        "ollama/chat_answer_packages.json",
        "ollama/chat_call_restart_lnd.json",
        "ollama/chat_answer_restarted.json",
    ];
    let (h, _ollama) = minimal_node_harness(Shapes::Minimal, replies).await;

    let (events, outcome) = h.turn("what is running?", None).await;
    assert!(matches!(outcome, TurnOutcome::Answered { .. }), "{outcome:?}");
    assert!(notices(&events).is_empty(), "nothing failed: {:?}", notices(&events));
    let cards: Vec<&Surface> = events
        .iter()
        .filter_map(|e| if let Event::Surface { surface, .. } = e { Some(surface) } else { None })
        .collect();
    let [Surface::PackageList { packages }] = cards.as_slice() else { panic!("{cards:?}") };
    let lnd = packages.iter().find(|p| p.id == "lnd").expect("lnd is on the card");
    assert_eq!((lnd.title.as_str(), lnd.version.as_str(), &lnd.state), ("lnd", "unknown", &PackageState::Running));
    assert_eq!(packages.len(), 9, "every app of the devnode");

    // The allowance meter reads what the node's mint list said: the mints, unit defaulted.
    let Some(NodeMints::Listed(mints)) = h.agent.node_mints() else { panic!("{:?}", h.agent.node_mints()) };
    let shown: Vec<(&str, &str)> = mints.iter().map(|m| (m.url.as_str(), m.unit.as_str())).collect();
    assert_eq!(shown, [("https://mint.minibits.cash/Bitcoin", "sat"), ("https://mint.coinos.io", "sat")]);

    let (events, outcome) = h.turn("restart lnd", Some(Decision::AllowOnce)).await;
    assert!(matches!(outcome, TurnOutcome::Answered { .. }), "{outcome:?}");
    let request = events
        .iter()
        .find_map(|e| if let Event::AwaitingConfirmation { request } = e { Some(request) } else { None })
        .expect("a confirmation");
    assert_eq!(request.summary, "Restart app `lnd` (running; btcpay depends on it)");
    assert!(events.iter().any(|e| matches!(e, Event::Surface { surface: Surface::ActionReceipt { .. }, .. })));
}

/// A node whose reads cannot be understood: the owner is told, the model gets a tool error, nothing is stored as
/// a success, and an action whose answer is not understood is not reported as done.
#[tokio::test]
async fn a_read_broken_beyond_repair_is_a_notice_and_a_tool_error_never_a_success() {
    let replies = vec![
        "ollama/chat_call_package_list.json",
        "ollama/chat_answer_plain.json",
        "ollama/chat_call_restart_lnd.json",
        "ollama/chat_answer_plain.json",
    ];
    let (h, ollama) = minimal_node_harness(Shapes::Broken, replies).await;

    let (events, outcome) = h.turn("what is running?", None).await;
    assert!(matches!(outcome, TurnOutcome::Answered { .. }), "the model still answers: {outcome:?}");
    let said = notices(&events);
    assert!(
        said.iter().any(|n| n.starts_with("Paid help is off for this turn") && n.contains("streaming.list-mints")),
        "the failed mint list is told in the turn: {said:?}"
    );
    assert!(
        said.iter().any(|n| n.contains("`package.list`") && n.contains("should be a list")),
        "the failed read is told, with the method and what was wrong: {said:?}"
    );
    assert!(!events.iter().any(|e| matches!(e, Event::Surface { .. })), "no card from an unreadable answer");
    let Some(NodeMints::Unreadable(why)) = h.agent.node_mints() else { panic!("{:?}", h.agent.node_mints()) };
    assert!(why.contains("Paid help is off"), "the allowance meter says why: {why}");

    let sent = &ollama.script.received()[1];
    let tool = sent["messages"].as_array().unwrap().iter().find(|m| m["role"] == "tool").expect("a tool result");
    assert!(tool["content"].as_str().unwrap().starts_with("The node answered with an error"), "{tool}");

    let stored = h.agent.store.load(&h.conversation).unwrap();
    assert!(!stored.entries.iter().any(|e| matches!(e.kind, EntryKind::Surface { .. })), "no surface stored");
    let results: Vec<bool> = stored
        .messages()
        .iter()
        .filter_map(|m| if let Message::ToolResult { is_error, .. } = m { Some(*is_error) } else { None })
        .collect();
    assert_eq!(results, [true], "the tool result is stored as an error");
    let stored_notices: Vec<String> = stored
        .entries
        .iter()
        .filter_map(|e| if let EntryKind::Notice { text } = &e.kind { Some(text.clone()) } else { None })
        .collect();
    assert!(stored_notices.iter().any(|n| n.contains("package.list")), "{stored_notices:?}");

    // An action: the summary does not guess a state, and an answer that is not `{ok: true}` is not success.
    let (events, _) = h.turn("restart lnd", Some(Decision::AllowOnce)).await;
    let request = events
        .iter()
        .find_map(|e| if let Event::AwaitingConfirmation { request } = e { Some(request) } else { None })
        .expect("a confirmation");
    assert_eq!(request.summary, "Restart app `lnd` (state unknown: the node's package list could not be read)");
    assert!(!events.iter().any(|e| matches!(e, Event::Surface { .. })), "no receipt");
    let said = notices(&events);
    assert!(said.iter().any(|n| n.contains("package.restart") && n.contains("check the app's state")), "{said:?}");
    let audit = h.audit_lines();
    let result = audit.iter().find(|l| l["event"] == "result").expect("the result is audited");
    assert_eq!(result["ok"], false, "{result}");
}
