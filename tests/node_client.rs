//! The node client against the devnode over real loopback HTTP(S): auth, CSRF, expiry, limits, states, pinning.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use aiui_core::Secret;
use aiui_core::net::Fingerprint;
use aiui_core::node::{self, Credentials, NodeClient, NodeConfig, NodeError, NodeMethod};
use archy_devnode::Faults;
use axum::response::IntoResponse;
use serde_json::json;

use crate::support::{self, PASSWORD, client_for, credentials, start, wait_for_state};

fn count(calls: &[String], method: &str) -> usize {
    calls.iter().filter(|m| *m == method).count()
}

#[tokio::test]
async fn login_then_read_the_node() {
    let t = start(|_| {}).await;
    let client = client_for(&t.node, credentials(PASSWORD));
    client.login().await.expect("login");
    let packages = client.list_packages().await.expect("package.list");
    assert!(packages.iter().any(|p| p.id == "lnd"), "lnd is in the catalogue: {packages:?}");
    let info = client.bitcoin_info().await.expect("bitcoin.getinfo");
    let headers = info.headers.expect("the devnode sends its header height");
    assert!(info.blocks <= headers && headers > 0);
    let logs = client.container_logs("electrs", 50).await.expect("container-logs");
    assert!(!logs.is_empty() && logs.len() <= 50);
    assert!(logs.iter().any(|l| l.contains("137")), "electrs's logs explain its crash: {logs:#?}");
    assert!(!client.list_mints().await.expect("list-mints").is_empty());
    client.system_stats().await.expect("system.stats");
    client.lnd_info().await.expect("lnd.getinfo");
    client.container_status("lnd").await.expect("container-status");
}

#[tokio::test]
async fn totp_login_uses_a_real_rfc6238_code() {
    let t = start(|c| c.totp_secret = Some(support::TOTP_SECRET.into())).await;
    let with_code = Credentials { password: Secret::from(PASSWORD), totp: Some(support::totp_prompt()) };
    let client = client_for(&t.node, with_code);
    client.login().await.expect("password + TOTP login");
    client.list_packages().await.expect("an authenticated call after TOTP");
    assert_eq!(count(&t.node.calls(), "auth.login.totp"), 1);

    let wrong_code =
        Credentials { password: Secret::from(PASSWORD), totp: Some(Arc::new(|| Some(Secret::from("000000")))) };
    let err = client_for(&t.node, wrong_code).login().await.expect_err("a wrong code is refused");
    assert!(matches!(err, NodeError::AuthFailed { .. }), "{err:?}");

    let err = client_for(&t.node, credentials(PASSWORD)).login().await.expect_err("no code, no session");
    assert!(err.to_string().contains("TOTP"), "{err}");
}

#[tokio::test]
async fn wrong_password_is_a_clear_error_and_is_not_retried() {
    let t = start(|_| {}).await;
    let client = client_for(&t.node, credentials("not the password"));
    let err = client.list_packages().await.expect_err("wrong password");
    assert!(matches!(err, NodeError::AuthFailed { .. }), "{err:?}");
    assert!(err.to_string().contains("wrong password"), "{err}");
    assert_eq!(t.node.calls(), ["auth.login"], "exactly one login attempt, nothing else");
}

#[tokio::test]
async fn the_devnode_enforces_csrf_with_403() {
    let t = start(|_| {}).await;
    let http = raw_client();
    let rpc = format!("{}rpc/v1", t.node.url());
    let login =
        http.post(&rpc).json(&json!({"method":"auth.login","params":{"password":PASSWORD}})).send().await.unwrap();
    assert_eq!(login.status(), 200);
    let cookies: Vec<String> = login
        .headers()
        .get_all("set-cookie")
        .iter()
        .map(|v| v.to_str().unwrap().split(';').next().unwrap().to_owned())
        .collect();
    let csrf = cookies.iter().find_map(|c| c.strip_prefix("csrf_token=")).expect("a readable csrf cookie").to_owned();
    let cookie_header = cookies.join("; ");
    let list = json!({"method":"package.list","params":{}});

    let no_header = http.post(&rpc).header("cookie", &cookie_header).json(&list).send().await.unwrap();
    assert_eq!(no_header.status(), 403, "a call without X-CSRF-Token");
    let wrong = http
        .post(&rpc)
        .header("cookie", &cookie_header)
        .header("X-CSRF-Token", "forged")
        .json(&list)
        .send()
        .await
        .unwrap();
    assert_eq!(wrong.status(), 403, "a call with a wrong X-CSRF-Token");
    let right =
        http.post(&rpc).header("cookie", &cookie_header).header("X-CSRF-Token", csrf).json(&list).send().await.unwrap();
    assert_eq!(right.status(), 200);
    let no_session = http.post(&rpc).json(&list).send().await.unwrap();
    assert_eq!(no_session.status(), 401, "no session at all");
}

#[tokio::test]
async fn expired_session_is_renewed_by_one_transparent_login() {
    let t = start(|_| {}).await;
    let client = client_for(&t.node, credentials(PASSWORD));
    client.list_packages().await.expect("first call logs in");
    t.node.expire_sessions();
    client.list_packages().await.expect("the call after expiry succeeds");
    let calls = t.node.calls();
    assert_eq!(count(&calls, "auth.login"), 2, "one login, then exactly one re-login: {calls:?}");
    assert_eq!(count(&calls, "package.list"), 3, "the refused call was retried once: {calls:?}");
}

#[tokio::test]
async fn expired_session_with_a_short_ttl_is_renewed() {
    let t = start(|c| c.session_ttl = Duration::from_millis(300)).await;
    let client = client_for(&t.node, credentials(PASSWORD));
    client.list_packages().await.expect("first call");
    tokio::time::sleep(Duration::from_millis(400)).await;
    client.list_packages().await.expect("after the TTL passed");
    assert_eq!(count(&t.node.calls(), "auth.login"), 2);
}

/// A node whose every authenticated call is refused: the client logs in, retries once, and then gives up with a
/// clear error instead of looping.
#[tokio::test]
async fn a_second_refusal_after_relogin_is_auth_failed_not_a_loop() {
    let logins = Arc::new(AtomicUsize::new(0));
    let calls = Arc::new(AtomicUsize::new(0));
    let (l, c) = (logins.clone(), calls.clone());
    let app = axum::Router::new().route(
        "/rpc/v1",
        axum::routing::post(move |axum::Json(body): axum::Json<serde_json::Value>| {
            let (l, c) = (l.clone(), c.clone());
            async move {
                if body["method"] == "auth.login" {
                    l.fetch_add(1, Ordering::SeqCst);
                    let headers = axum::response::AppendHeaders([
                        ("set-cookie", "archipelago_session=s; HttpOnly"),
                        ("set-cookie", "csrf_token=t"),
                    ]);
                    (headers, axum::Json(json!({"result":{"ok":true}}))).into_response()
                } else {
                    c.fetch_add(1, Ordering::SeqCst);
                    let refusal = axum::Json(json!({"error":{"message":"expired"}}));
                    (axum::http::StatusCode::UNAUTHORIZED, refusal).into_response()
                }
            }
        }),
    );
    let listener = tokio::net::TcpListener::bind(support::loopback()).await.unwrap();
    let url = format!("http://{}/", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await });
    let client = NodeClient::new(NodeConfig::new(url.parse().unwrap()), credentials(PASSWORD)).unwrap();
    let err = client.list_packages().await.expect_err("refused twice");
    assert!(matches!(err, NodeError::AuthFailed { .. }), "{err:?}");
    assert!(err.to_string().contains("even after a fresh login"), "{err}");
    assert_eq!(logins.load(Ordering::SeqCst), 2);
    assert_eq!(calls.load(Ordering::SeqCst), 2);
}

#[tokio::test]
async fn the_login_rate_limit_turns_into_rate_limited() {
    let t = start(|c| c.login_failures_per_minute = 5).await;
    let client = client_for(&t.node, credentials("guess"));
    for attempt in 1..=5 {
        let err = client.login().await.expect_err("wrong password");
        assert!(matches!(err, NodeError::AuthFailed { .. }), "attempt {attempt}: {err:?}");
    }
    let err = client.login().await.expect_err("the sixth attempt is limited");
    let NodeError::RateLimited { retry_after } = err else { panic!("expected RateLimited, got {err:?}") };
    assert!(retry_after.is_some_and(|d| d > Duration::ZERO && d <= Duration::from_secs(60)), "{retry_after:?}");
    // Even the right password is refused while the limit holds: the limit is on the address, not the guess.
    let err = client_for(&t.node, credentials(PASSWORD)).login().await.expect_err("still limited");
    assert!(matches!(err, NodeError::RateLimited { .. }), "{err:?}");
}

#[tokio::test]
async fn every_package_transition_goes_through_its_transitional_state() {
    let t = start(|_| {}).await;
    let client = client_for(&t.node, credentials(PASSWORD));
    let cases = [
        (NodeMethod::PackageStop, "lnd", "stopping", "stopped"),
        (NodeMethod::PackageStart, "lnd", "starting", "running"),
        (NodeMethod::PackageRestart, "lnd", "restarting", "running"),
        (NodeMethod::PackageInstall, "fedimint", "installing", "running"),
        (NodeMethod::PackageStop, "fedimint", "stopping", "stopped"),
        (NodeMethod::PackageUninstall, "fedimint", "removing", "not-installed"),
        (NodeMethod::PackageStart, "electrs", "starting", "running"),
    ];
    for (method, id, during, after) in cases {
        client.package_action(method, id).await.unwrap_or_else(|e| panic!("{method:?} {id}: {e}"));
        assert_eq!(t.node.package_state(id).as_deref(), Some(during), "{method:?} {id} right after the call");
        wait_for_state(&client, id, after).await;
    }
    let electrs = client.list_packages().await.unwrap().into_iter().find(|p| p.id == "electrs").unwrap();
    assert_eq!(electrs.exit_code, None, "a restarted app no longer reports its old crash");

    let err = client.package_action(NodeMethod::PackageStart, "fedimint").await.expect_err("not installed");
    let NodeError::Rpc { message, .. } = &err else { panic!("{err:?}") };
    assert!(message.contains("fedimint") && message.contains("not installed"), "{message}");
    client.package_action(NodeMethod::PackageRestart, "mempool").await.unwrap();
    let err = client.package_action(NodeMethod::PackageStop, "mempool").await.expect_err("mid-transition");
    assert!(err.to_string().contains("mempool"), "{err}");
    let err = client.package_action(NodeMethod::PackageStart, "no-such-app").await.expect_err("unknown app");
    assert!(err.to_string().contains("no-such-app"), "{err}");
}

#[tokio::test]
async fn package_state_and_certificate_survive_a_devnode_restart() {
    let support::TestNode { node, dir } = start(|c| c.tls = true).await;
    let fingerprint = node.fingerprint().expect("a TLS devnode has a fingerprint");
    let client = client_for(&node, credentials(PASSWORD));
    client.package_action(NodeMethod::PackageStop, "mempool").await.unwrap();
    client.package_action(NodeMethod::PackageInstall, "fedimint").await.unwrap();
    // Shut down mid-transition: the restart must resolve both to where they were going.
    node.shutdown().await;

    let mut config = support::fast_config(&dir);
    config.tls = true;
    let node = archy_devnode::spawn(config, support::loopback()).await.expect("restart on the same data dir");
    assert_eq!(node.fingerprint().as_deref(), Some(fingerprint.as_str()), "the certificate is kept");
    let client = client_for(&node, credentials(PASSWORD));
    let packages = client.list_packages().await.unwrap();
    let state = |id: &str| support::state_str(&packages.iter().find(|p| p.id == id).unwrap().state);
    assert_eq!(state("mempool"), "stopped");
    assert_eq!(state("fedimint"), "running");
    assert_eq!(state("lnd"), "running");
}

#[tokio::test]
async fn an_injected_500_is_a_clear_transient_error() {
    let t = start(|_| {}).await;
    let client = client_for(&t.node, credentials(PASSWORD));
    client.login().await.unwrap();
    t.node.set_faults(Faults { error_share: 1.0, ..Faults::default() });
    let err = client.list_packages().await.expect_err("every call fails");
    let NodeError::Rpc { status: 500, ref message, .. } = err else { panic!("{err:?}") };
    assert!(message.contains("injected fault"), "{message}");
    assert!(err.is_transient());
    assert!(err.to_string().contains("package.list"), "the error names the call: {err}");
    t.node.set_faults(Faults::default());
    client.list_packages().await.expect("healthy again");
}

#[tokio::test]
async fn a_pin_that_does_not_match_is_refused_before_anything_is_sent() {
    let t = start(|c| c.tls = true).await;
    let url: url::Url = t.node.url().parse().unwrap();
    let real: Fingerprint = t.node.fingerprint().unwrap().parse().unwrap();
    assert_eq!(node::fetch_fingerprint(&url, Duration::from_secs(5)).await.unwrap(), real, "TOFU shows the real one");

    let wrong = Fingerprint::of_der(b"some other certificate");
    let client = NodeClient::new(NodeConfig::new(url.clone()).with_pin(wrong), credentials(PASSWORD)).unwrap();
    let err = client.login().await.expect_err("pin mismatch");
    let NodeError::CertificateMismatch { expected, presented } = err else { panic!("{err:?}") };
    assert_eq!((expected, presented), (wrong, real));
    assert!(t.node.calls().is_empty(), "the password never left: {:?}", t.node.calls());

    let unpinned = NodeClient::new(NodeConfig::new(url), credentials(PASSWORD));
    assert!(unpinned.is_err(), "an https node without a pin is refused at construction");
    client_for(&t.node, credentials(PASSWORD)).login().await.expect("the right pin works");
}

#[tokio::test]
async fn a_dead_node_is_unreachable() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/", listener.local_addr().unwrap());
    drop(listener);
    let client = NodeClient::new(NodeConfig::new(url.parse().unwrap()), credentials(PASSWORD)).unwrap();
    let err = client.list_packages().await.expect_err("nothing listens");
    assert!(matches!(err, NodeError::Unreachable { .. }), "{err:?}");
    assert!(err.is_transient());
}

/// A whole session (TOTP login, reads, an action, expiry and re-login, a fault, logout) with every tracing event
/// captured: no password, TOTP code, session id or CSRF token may appear.
#[tokio::test]
async fn no_secret_reaches_the_logs() {
    let capture = support::capture::global();
    let mark = capture.mark();
    let (secrets, codes) = async {
        let t = start(|c| {
            c.totp_secret = Some(support::TOTP_SECRET.into());
            c.tls = true;
        })
        .await;
        let codes = Arc::new(std::sync::Mutex::new(Vec::new()));
        let seen = codes.clone();
        let prompt: node::TotpPrompt = Arc::new(move || {
            let code = support::totp_now();
            seen.lock().unwrap().push(code.clone());
            Some(Secret::new(code))
        });
        let client = client_for(&t.node, Credentials { password: Secret::from(PASSWORD), totp: Some(prompt) });
        client.list_packages().await.unwrap();
        client.container_logs("lnd", 20).await.unwrap();
        client.package_action(NodeMethod::PackageRestart, "lnd").await.unwrap();
        t.node.expire_sessions();
        client.bitcoin_info().await.unwrap();
        t.node.set_faults(Faults { error_share: 1.0, ..Faults::default() });
        client.system_stats().await.unwrap_err();
        t.node.set_faults(Faults::default());
        client.logout().await.unwrap();
        let _ = client_for(&t.node, credentials("wrong-guess-123")).login().await;
        let secrets = t.node.issued_secrets();
        t.node.shutdown().await;
        (secrets, codes.lock().unwrap().clone())
    }
    .await;
    let logs = capture.since(mark);
    assert!(logs.contains("node rpc"), "the capture saw the client's events:\n{logs}");
    assert!(secrets.len() >= 4, "sessions and CSRF tokens were issued: {}", secrets.len());
    assert_eq!(codes.len(), 2, "two TOTP logins happened");
    for secret in secrets.iter().chain(&codes).map(String::as_str).chain([PASSWORD, "wrong-guess-123"]) {
        assert!(!logs.contains(secret), "a secret of length {} appears in the logs", secret.len());
    }
}

fn raw_client() -> reqwest::Client {
    aiui_core::net::client(&aiui_core::net::ClientSpec::default()).unwrap().http
}
