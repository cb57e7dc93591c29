//! End-to-end tests: a real devnode on 127.0.0.1:0, spoken to over HTTP(S) with a raw reqwest client.

use std::net::SocketAddr;
use std::path::Path;
use std::time::Duration;

use reqwest::header::{HeaderMap, SET_COOKIE};
use serde_json::{Value, json};

use crate::{DevNodeConfig, Faults, RunningDevNode, spawn};

const PASSWORD: &str = "correct horse battery staple";
const TOTP_SECRET: &str = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP";

fn any_port() -> SocketAddr {
    SocketAddr::from(([127, 0, 0, 1], 0))
}

fn config(dir: &Path) -> DevNodeConfig {
    let mut config = DevNodeConfig::new(PASSWORD, dir);
    config.transition = Duration::from_millis(50);
    config
}

/// A browser-like caller: keeps the two cookies and echoes the CSRF one in the header.
struct Caller {
    http: reqwest::Client,
    base: String,
    session: Option<String>,
    csrf: Option<String>,
}

struct Answer {
    status: u16,
    body: Value,
    headers: HeaderMap,
}

impl Answer {
    fn message(&self) -> &str {
        self.body["error"]["message"].as_str().unwrap_or("")
    }
}

impl Caller {
    fn new(node: &RunningDevNode) -> Self {
        Self::with_client(node, plain_client())
    }

    fn with_client(node: &RunningDevNode, http: reqwest::Client) -> Self {
        Self { http, base: node.url(), session: None, csrf: None }
    }

    async fn raw(&mut self, body: String) -> Answer {
        let mut request = self.http.post(format!("{}rpc/v1", self.base)).body(body);
        let cookies: Vec<String> = [("archipelago_session", &self.session), ("csrf_token", &self.csrf)]
            .into_iter()
            .filter_map(|(name, v)| v.as_ref().map(|v| format!("{name}={v}")))
            .collect();
        if !cookies.is_empty() {
            request = request.header("cookie", cookies.join("; "));
        }
        if let Some(csrf) = &self.csrf {
            request = request.header("x-csrf-token", csrf);
        }
        let response = request.send().await.expect("the devnode answers");
        let status = response.status().as_u16();
        let headers = response.headers().clone();
        for raw in headers.get_all(SET_COOKIE) {
            let raw = raw.to_str().unwrap();
            let (pair, attrs) = raw.split_once(';').unwrap_or((raw, ""));
            let (name, value) = pair.split_once('=').unwrap();
            let value = (!attrs.contains("Max-Age=0")).then(|| value.to_owned());
            match name {
                "archipelago_session" => self.session = value,
                "csrf_token" => self.csrf = value,
                other => panic!("unexpected cookie {other}"),
            }
        }
        let body = response.json().await.expect("a JSON body");
        Answer { status, body, headers }
    }

    async fn call(&mut self, method: &str, params: Value) -> Answer {
        self.raw(json!({ "method": method, "params": params }).to_string()).await
    }

    async fn login(&mut self) {
        let answer = self.call("auth.login", json!({ "password": PASSWORD })).await;
        assert_eq!((answer.status, &answer.body), (200, &json!({ "result": { "ok": true } })));
    }
}

#[allow(clippy::disallowed_methods)] // A raw test client, deliberately outside aiui-core's outbound door.
fn plain_client() -> reqwest::Client {
    let _ = rustls::crypto::ring::default_provider().install_default();
    reqwest::Client::builder().timeout(Duration::from_secs(10)).build().unwrap()
}

async fn wait_for(node: &RunningDevNode, id: &str, state: &str) {
    for _ in 0..200 {
        if node.package_state(id).as_deref() == Some(state) {
            return;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("{id} never became {state}; it is {:?}", node.package_state(id));
}

#[tokio::test]
async fn login_csrf_package_lifecycle_and_restart() {
    let dir = tempfile::tempdir().unwrap();
    let node = spawn(config(dir.path()), any_port()).await.unwrap();
    assert_ne!(node.addr().port(), 0);
    assert!(node.url().starts_with("http://127.0.0.1:") && node.url().ends_with('/'));
    assert!(node.fingerprint().is_none());

    let health = plain_client().get(format!("{}health", node.url())).send().await.unwrap();
    assert_eq!(health.json::<Value>().await.unwrap(), json!({"status": "ok", "version": env!("CARGO_PKG_VERSION")}));

    let mut caller = Caller::new(&node);
    assert_eq!(caller.call("auth.isOnboardingComplete", json!({})).await.body, json!({"result": true}));
    let refused = caller.call("package.list", json!({})).await;
    assert_eq!((refused.status, refused.message()), (401, "not logged in or session expired"));
    let wrong = caller.call("auth.login", json!({ "password": "nope" })).await;
    assert_eq!((wrong.status, wrong.message()), (401, "wrong password"));

    let login = caller.call("auth.login", json!({ "password": PASSWORD })).await;
    let cookies: Vec<&str> = login.headers.get_all(SET_COOKIE).iter().map(|v| v.to_str().unwrap()).collect();
    assert!(cookies.iter().any(|c| c.starts_with("archipelago_session=") && c.contains("HttpOnly")), "{cookies:?}");
    assert!(cookies.iter().any(|c| c.starts_with("csrf_token=") && !c.contains("HttpOnly")), "{cookies:?}");
    assert!(cookies.iter().all(|c| c.contains("SameSite=Strict") && !c.contains("Secure")), "{cookies:?}");
    assert_eq!(caller.session.as_ref().map(String::len), Some(64));

    let csrf = caller.csrf.take();
    let forbidden = caller.call("package.list", json!({})).await;
    assert_eq!((forbidden.status, forbidden.message()), (403, "missing or wrong CSRF token"));
    caller.csrf = csrf;

    let list = caller.call("package.list", json!({})).await;
    let packages = list.body["result"]["packages"].as_array().unwrap();
    assert!(packages.iter().any(|p| p["id"] == "fedimint" && p["state"] == "not-installed"));

    let no_id = caller.call("package.start", json!({})).await;
    assert_eq!((no_id.status, no_id.message()), (400, "`package.start` needs params.id (the app id, e.g. \"lnd\")"));
    let unknown = caller.call("package.start", json!({ "id": "x" })).await;
    assert_eq!((unknown.status, unknown.message()), (404, "no package `x`"));
    let not_installed = caller.call("package.start", json!({ "id": "fedimint" })).await;
    assert_eq!((not_installed.status, not_installed.message()), (409, "`fedimint` is not installed; install it first"));
    let no_method = caller.call("no.such", json!({})).await;
    assert_eq!((no_method.status, no_method.message()), (404, "unknown method `no.such`"));
    let malformed = caller.raw("{nope".into()).await;
    assert_eq!(malformed.status, 400);
    assert!(malformed.message().contains("not valid JSON"), "{}", malformed.message());
    let no_params = caller.raw(r#"{"method":"system.stats"}"#.into()).await;
    assert!(no_params.body["result"]["uptime_s"].as_u64().is_some());

    let restart = caller.call("package.restart", json!({ "id": "lnd" })).await;
    assert_eq!(restart.body, json!({"result": {"ok": true}}));
    assert_eq!(node.package_state("lnd").as_deref(), Some("restarting"));
    let busy = caller.call("package.stop", json!({ "id": "lnd" })).await;
    assert_eq!((busy.status, busy.message()), (409, "`lnd` is restarting; wait until it finishes"));
    wait_for(&node, "lnd", "running").await;
    let lnd = caller.call("lnd.getinfo", json!({})).await.body;
    assert_eq!(lnd["result"]["alias"], "archy-devnode");
    let logs = caller.call("container-logs", json!({ "id": "lnd", "lines": 5 })).await.body;
    let logs = logs["result"]["logs"].as_array().unwrap();
    assert_eq!(logs.len(), 5);
    assert_eq!(logs.last().unwrap(), "[lnd] Started");

    caller.call("package.stop", json!({ "id": "bitcoin-knots" })).await;
    let down = caller.call("bitcoin.getinfo", json!({})).await;
    assert_eq!((down.status, down.message()), (503, "bitcoin-knots is not running"));
    wait_for(&node, "bitcoin-knots", "stopped").await;

    caller.call("package.start", json!({ "id": "electrs" })).await;
    caller.call("package.install", json!({ "id": "fedimint" })).await;
    // Shut down mid-transition: the next start must finish what was begun.
    node.shutdown().await;

    let node = spawn(config(dir.path()), any_port()).await.unwrap();
    assert_eq!(node.package_state("bitcoin-knots").as_deref(), Some("stopped"));
    assert_eq!(node.package_state("electrs").as_deref(), Some("running"));
    assert_eq!(node.package_state("fedimint").as_deref(), Some("running"));
    let mut caller = Caller::new(&node);
    caller.login().await;
    let status = caller.call("container-status", json!({ "id": "electrs" })).await.body;
    assert_eq!(status["result"]["status"], "running");
    assert_eq!(status["result"]["exit_code"], Value::Null);
    assert!(status["result"]["started_at"].as_str().unwrap().ends_with('Z'));
    let logout = caller.call("auth.logout", json!({})).await;
    assert_eq!(logout.body, json!({"result": {"ok": true}}));
    assert!(logout.headers.get_all(SET_COOKIE).iter().all(|c| c.to_str().unwrap().contains("Max-Age=0")));
    node.shutdown().await;
}

#[tokio::test]
async fn totp_second_step_and_the_login_rate_limit() {
    let dir = tempfile::tempdir().unwrap();
    let mut config = config(dir.path());
    config.totp_secret = Some(TOTP_SECRET.into());
    config.login_failures_per_minute = 3;
    let node = spawn(config, any_port()).await.unwrap();
    let mut caller = Caller::new(&node);

    let first = caller.call("auth.login", json!({ "password": PASSWORD })).await;
    assert_eq!(first.body, json!({"result": {"ok": true, "totp_required": true}}));
    let pending = caller.session.clone().unwrap();
    assert!(caller.csrf.is_none(), "no CSRF cookie before the second step");
    assert_eq!(caller.call("package.list", json!({})).await.status, 401, "a pending session is not a login");

    let wrong = caller.call("auth.login.totp", json!({ "code": "000000" })).await;
    assert_eq!((wrong.status, wrong.message()), (401, "wrong TOTP code"));

    let code = totp_rs::TOTP::from_rfc6238(
        totp_rs::Rfc6238::with_defaults(totp_rs::Secret::Encoded(TOTP_SECRET.into()).to_bytes().unwrap()).unwrap(),
    )
    .unwrap()
    .generate_current()
    .unwrap();
    let ok = caller.call("auth.login.totp", json!({ "code": code })).await;
    assert_eq!(ok.body, json!({"result": {"ok": true}}));
    assert_ne!(caller.session.as_deref(), Some(pending.as_str()), "the session id is rotated");
    assert_eq!(caller.call("package.list", json!({})).await.status, 200);

    // The wrong code was one failure; two wrong passwords make three, the limit.
    for _ in 0..2 {
        assert_eq!(caller.call("auth.login", json!({ "password": "nope" })).await.status, 401);
    }
    let limited = caller.call("auth.login", json!({ "password": PASSWORD })).await;
    assert_eq!(limited.status, 429);
    let retry: u64 = limited.headers["retry-after"].to_str().unwrap().parse().unwrap();
    assert!((1..=60).contains(&retry));
    assert_eq!(limited.message(), format!("too many failed logins; try again in {retry} s"));
    assert_eq!(caller.call("auth.login.totp", json!({ "code": code })).await.status, 429);

    assert!(node.calls().starts_with(&["auth.login".to_owned(), "package.list".into(), "auth.login.totp".into()]));
    node.shutdown().await;
}

#[tokio::test]
async fn faults_and_expired_sessions() {
    let dir = tempfile::tempdir().unwrap();
    let node = spawn(config(dir.path()), any_port()).await.unwrap();
    let mut caller = Caller::new(&node);
    caller.login().await;

    node.set_faults(Faults { latency: Duration::ZERO, error_share: 0.5 });
    let mut pattern = String::new();
    for _ in 0..6 {
        let answer = caller.call("streaming.list-mints", json!({})).await;
        pattern.push(if answer.status == 500 { 'x' } else { '.' });
        if answer.status == 500 {
            assert_eq!(answer.message(), "internal error (injected fault)");
        } else {
            assert_eq!(answer.body["result"]["mints"][0]["unit"], "sat");
        }
    }
    assert_eq!(pattern, ".x.x.x");
    node.set_faults(Faults { latency: Duration::from_millis(150), error_share: 1.0 });
    let started = std::time::Instant::now();
    assert_eq!(caller.call("system.stats", json!({})).await.status, 500);
    assert!(started.elapsed() >= Duration::from_millis(150));
    caller.login().await;
    node.set_faults(Faults::default());

    node.expire_sessions();
    let expired = caller.call("package.list", json!({})).await;
    assert_eq!((expired.status, expired.message()), (401, "not logged in or session expired"));

    let secrets = node.issued_secrets();
    assert_eq!(secrets.len(), 4, "two logins, each a session id and a CSRF token");
    assert!(secrets.contains(caller.session.as_ref().unwrap()));
    node.shutdown().await;
}

#[tokio::test]
async fn sessions_expire_after_their_ttl() {
    let dir = tempfile::tempdir().unwrap();
    let mut config = config(dir.path());
    config.session_ttl = Duration::from_millis(100);
    let node = spawn(config, any_port()).await.unwrap();
    let mut caller = Caller::new(&node);
    caller.login().await;
    assert_eq!(caller.call("package.list", json!({})).await.status, 200);
    tokio::time::sleep(Duration::from_millis(150)).await;
    assert_eq!(caller.call("package.list", json!({})).await.status, 401);
    node.shutdown().await;
}

#[tokio::test]
async fn tls_serves_a_stable_self_signed_certificate() {
    let dir = tempfile::tempdir().unwrap();
    let mut config = config(dir.path());
    config.tls = true;
    let node = spawn(config.clone(), any_port()).await.unwrap();
    let fingerprint = node.fingerprint().unwrap();
    assert_eq!(fingerprint.len(), 95);
    assert!(node.url().starts_with("https://127.0.0.1:"));

    let pem = std::fs::read(dir.path().join(crate::tls::CERT_FILE)).unwrap();
    let _ = rustls::crypto::ring::default_provider().install_default();
    #[allow(clippy::disallowed_methods)] // A raw test client that trusts exactly the node's certificate.
    let http = reqwest::Client::builder()
        .tls_certs_only([reqwest::Certificate::from_pem(&pem).unwrap()])
        .tls_info(true)
        .build()
        .unwrap();
    let health = http.get(format!("{}health", node.url())).send().await.unwrap();
    let info = health.extensions().get::<reqwest::tls::TlsInfo>().unwrap();
    let der = info.peer_certificate().unwrap();
    assert_eq!(crate::tls::fingerprint(&der.to_vec().into()), fingerprint);

    let mut caller = Caller::with_client(&node, http);
    let login = caller.call("auth.login", json!({ "password": PASSWORD })).await;
    assert!(login.headers.get_all(SET_COOKIE).iter().all(|c| c.to_str().unwrap().contains("; Secure")));
    assert_eq!(caller.call("package.list", json!({})).await.status, 200);
    node.shutdown().await;

    let again = spawn(config, any_port()).await.unwrap();
    assert_eq!(again.fingerprint(), Some(fingerprint), "the certificate is reused across restarts");
    again.shutdown().await;
}

#[tokio::test]
async fn a_corrupt_state_file_is_named_and_kept() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("state.json");
    std::fs::write(&path, "{ half a file").unwrap();
    let err = spawn(config(dir.path()), any_port()).await.unwrap_err();
    let message = format!("{err:#}");
    assert!(message.contains(&path.display().to_string()), "{message}");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "{ half a file");
    let err = spawn(DevNodeConfig::new("", dir.path()), any_port()).await.unwrap_err();
    assert!(err.to_string().contains("password"), "{err}");
}
