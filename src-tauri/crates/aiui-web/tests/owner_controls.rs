//! The owner's hold on a running service: sessions listed and revoked from another process's files, passphrases
//! that take effect (and end the old sessions) when their file changes, trusted sessions that end however much a
//! tab polls, the passphrase-and-code sign-in, tool switches behind the approval secret, and the kiosk as the
//! only approver.

mod support;

use std::time::Duration;

use aiui_core::Secret;
use aiui_web::LoginLimits;
use aiui_web::control::{self, Revoke};
use aiui_web::passphrase::{self, Kind};
use serde_json::{Value, json};
use support::{APPROVAL, Browser, Harness, LAN, Replies, fixture, harness, harness_with};

/// Waits (up to 3 s, the service looks once a second) until `check` holds.
async fn within_seconds(what: &str, mut check: impl AsyncFnMut() -> bool) {
    for _ in 0..30 {
        if check().await {
            return;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("{what}: not within 3 s");
}

async fn alive(h: &Harness, browser: &Browser, command: &str) -> u16 {
    h.invoke(browser, command, json!({})).await.0
}

#[tokio::test(flavor = "multi_thread")]
async fn the_owner_lists_and_revokes_sessions_and_a_new_passphrase_ends_the_old_ones() {
    let h = harness(Replies::Script(Vec::new()), LoginLimits::default()).await;
    let (first, second, owner) = (h.sign_in(false).await, h.sign_in(false).await, h.sign_in(true).await);
    let mut listed = Vec::new();
    within_seconds("all three sessions listed", async || {
        listed = control::read_sessions(&h.data_dir).unwrap().map(|l| l.sessions).unwrap_or_default();
        listed.len() == 3
    })
    .await;
    let origins: Vec<&str> = listed.iter().map(|s| s.origin.as_str()).collect();
    assert_eq!(origins.iter().filter(|o| **o == "chat").count(), 2, "{listed:?}");
    assert!(listed.iter().all(|s| s.address == "127.0.0.1" && s.id.len() == 12), "{listed:?}");
    // The list holds nothing that signs anyone in.
    let text = std::fs::read_to_string(control::sessions_file(&h.data_dir)).unwrap();
    for browser in [&first, &second, &owner] {
        let token = browser.cookie.split_once('=').unwrap().1;
        assert!(!text.contains(token) && !text.contains(&browser.csrf), "a cookie or CSRF token in the list");
    }

    // Revoking one chat session ends that one only.
    let (_, conversations) = h.invoke(&first, "conversations_list", json!({})).await;
    assert_eq!(conversations, json!([]));
    let listed_first = listed.iter().find(|s| s.origin == "chat").unwrap().id.clone();
    control::request_revoke(&h.data_dir, &Revoke { ids: vec![listed_first], all: false }).unwrap();
    within_seconds("one chat session ended", async || {
        alive(&h, &first, "conversations_list").await == 401 || alive(&h, &second, "conversations_list").await == 401
    })
    .await;
    let still = [alive(&h, &first, "conversations_list").await, alive(&h, &second, "conversations_list").await];
    assert!(still.contains(&200) && still.contains(&401), "exactly one ended: {still:?}");
    assert!(!control::revoke_file(&h.data_dir).exists(), "the request is consumed");
    assert_eq!(alive(&h, &owner, "trusted_pending").await, 200, "the owner's session goes on");

    // A new LAN passphrase is used at once, and the chat sessions signed in with the old one end.
    passphrase::set(&h.data_dir, Kind::Lan, &Secret::new("a-new-lan-passphrase".to_owned())).unwrap();
    within_seconds("the old chat sessions ended", async || {
        alive(&h, &first, "conversations_list").await == 401 && alive(&h, &second, "conversations_list").await == 401
    })
    .await;
    assert_eq!(h.login(&h.chat, &h.chat_origin, LAN).await.status(), 401, "the old passphrase no longer signs in");
    assert_eq!(h.login(&h.chat, &h.chat_origin, "a-new-lan-passphrase").await.status(), 200);
    assert_eq!(alive(&h, &owner, "trusted_pending").await, 200, "the trusted origin is not touched");

    // Every session at once.
    let again = h.sign_in(true).await;
    control::request_revoke(&h.data_dir, &Revoke { ids: Vec::new(), all: true }).unwrap();
    within_seconds("every session ended", async || alive(&h, &again, "trusted_pending").await == 401).await;
    // A new approval passphrase ends the owner's sessions too.
    let owner = h.sign_in(true).await;
    passphrase::set(&h.data_dir, Kind::Approval, &Secret::new("a-new-approval-passphrase".to_owned())).unwrap();
    within_seconds("the owner's session ended", async || alive(&h, &owner, "trusted_pending").await == 401).await;
    assert_eq!(h.login(&h.trusted, &h.trusted_origin, APPROVAL).await.status(), 401);
    assert_eq!(h.login(&h.trusted, &h.trusted_origin, "a-new-approval-passphrase").await.status(), 200);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_trusted_session_ends_at_its_lifetime_however_much_a_tab_polls() {
    let h = harness_with(Replies::Script(Vec::new()), LoginLimits::default(), false, |config| {
        config.trusted_lifetime =
            aiui_web::auth::Lifetime { idle: Duration::from_secs(2), absolute: Duration::from_secs(5) };
    })
    .await;
    // Polling only: the session ends after its idle time.
    let polled = h.sign_in(true).await;
    let started = std::time::Instant::now();
    while alive(&h, &polled, "trusted_pending").await == 200 {
        assert!(started.elapsed() < Duration::from_secs(4), "polling kept the session alive");
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    assert!(started.elapsed() >= Duration::from_millis(1900), "ended before its idle time");
    // Activity (a change, with the secret) keeps it alive past the idle time, but not past the absolute lifetime.
    let active = h.sign_in(true).await;
    let started = std::time::Instant::now();
    let grant = json!({ "tool": "package_restart", "enabled": true, "secret": APPROVAL });
    loop {
        let (status, body) = h.invoke(&active, "trusted_set_grant", grant.clone()).await;
        if status != 200 {
            assert_eq!(status, 401, "{body}");
            break;
        }
        assert!(started.elapsed() < Duration::from_secs(7), "the absolute lifetime did not hold");
        tokio::time::sleep(Duration::from_millis(700)).await;
    }
    let lived = started.elapsed();
    assert!(lived >= Duration::from_millis(4500), "activity did not keep it past its idle time: {lived:?}");
}

#[tokio::test(flavor = "multi_thread")]
async fn with_passphrase_and_code_required_neither_alone_signs_in() {
    let h = harness_with(Replies::Script(Vec::new()), LoginLimits::default(), true, |config| {
        config.approval_needs_both = true;
    })
    .await;
    let totp = h.totp.clone().unwrap();
    let login = async |body: Value| {
        let response = h
            .http
            .post(format!("{}api/login", h.trusted))
            .header("origin", &h.trusted_origin)
            .json(&body)
            .send()
            .await
            .unwrap();
        let status = response.status().as_u16();
        let body: Value = response.json().await.unwrap_or(Value::Null);
        (status, body["code"].as_str().unwrap_or_default().to_owned())
    };
    let code = totp.generate_current().unwrap();
    assert_eq!(login(json!({ "passphrase": code })).await, (401, "wrong_passphrase".into()), "a code alone");
    assert_eq!(
        login(json!({ "passphrase": "not-the-passphrase", "code": code })).await,
        (401, "wrong_passphrase".into())
    );
    // The passphrase alone: told a code is needed, which only someone who knows the passphrase learns.
    assert_eq!(login(json!({ "passphrase": APPROVAL })).await, (401, "code_required".into()));
    assert_eq!(login(json!({ "passphrase": APPROVAL, "code": "000000" })).await.0, 401, "a wrong code");
    assert_eq!(login(json!({ "passphrase": APPROVAL, "code": code })).await.0, 200, "both");
    // Before sign-in, nothing says a second factor exists.
    let session: Value = h.http.get(format!("{}api/session", h.trusted)).send().await.unwrap().json().await.unwrap();
    assert_eq!(session, json!({ "origin": "trusted", "signed_in": false }));
}

#[tokio::test(flavor = "multi_thread")]
async fn a_tool_switch_changes_only_with_the_approval_secret() {
    let h = harness(Replies::Script(Vec::new()), LoginLimits::default()).await;
    let owner = h.sign_in(true).await;
    let enabled = async || {
        let (_, settings) = h.invoke(&owner, "trusted_settings", json!({})).await;
        settings["tools"].as_array().unwrap().iter().find(|t| t["name"] == "package_restart").unwrap()["enabled"]
            .as_bool()
            .unwrap()
    };
    assert!(enabled().await);
    for (args, code) in [
        (json!({ "tool": "package_restart", "enabled": false }), "secret_required"),
        (json!({ "tool": "package_restart", "enabled": false, "secret": "a wrong passphrase" }), "wrong_secret"),
    ] {
        let (status, body) = h.invoke(&owner, "trusted_set_grant", args).await;
        assert_eq!((status, body["code"].as_str()), (403, Some(code)));
        assert!(enabled().await, "nothing changed");
    }
    let args = json!({ "tool": "package_restart", "enabled": false, "secret": APPROVAL });
    assert_eq!(h.invoke(&owner, "trusted_set_grant", args).await.0, 200);
    assert!(!enabled().await);
}

static KIOSK_DIR: std::sync::OnceLock<tempfile::TempDir> = std::sync::OnceLock::new();

#[tokio::test(flavor = "multi_thread")]
async fn with_the_kiosk_as_approver_the_trusted_origin_can_only_deny() {
    KIOSK_DIR.set(tempfile::tempdir().unwrap()).unwrap();
    let replies = vec![fixture("chat_call_restart_lnd.json"), fixture("chat_answer_restarted.json")];
    let h = harness_with(Replies::Script(replies), LoginLimits::default(), false, |config| {
        config.kiosk_socket = Some(KIOSK_DIR.get().unwrap().path().join("kiosk.sock"));
        config.lan_approver = aiui_web::LanApprover::Kiosk;
    })
    .await;
    let owner = h.sign_in(true).await;
    let chat = h.sign_in(false).await;
    let turn = h.awaiting_restart(&chat).await;
    let (id, hash, _) = h.first_pending(&owner).await;
    tokio::time::sleep(aiui_web::APPROVE_DELAY).await;
    let approve = json!({ "id": id, "argumentsHash": hash, "answer": "approve", "secret": APPROVAL });
    let (status, body) = h.invoke(&owner, "trusted_decide", approve).await;
    assert_eq!((status, body["code"].as_str()), (403, Some("approve_on_kiosk")), "{body}");
    let deny = json!({ "id": id, "argumentsHash": hash, "answer": "deny" });
    assert_eq!(h.invoke(&owner, "trusted_decide", deny).await, (200, json!("denied")));
    let events = h.events(&chat, &turn, "\"done\"").await;
    assert!(events.contains("declined"), "{events}");
}
