//! The LAN service over real loopback HTTP: a devnode, a replaying Ollama, the agent `build_chain` builds, and both
//! origins. Sign-in, cookies, the rate limit, Origin/CSRF checks, per-session conversations and turns, and the
//! trusted origin's decision rules (delay, passphrase, hash, single use).

use std::collections::VecDeque;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex, RwLock};
use std::time::Duration;

use aiui_core::Secret;
use aiui_core::agent::{Agent, OperatorConfig};
use aiui_core::backends::builtin::BuiltinConfig;
use aiui_core::backends::claude::ClaudeConfig;
use aiui_core::backends::ollama::OllamaConfig;
use aiui_core::backends::registry::{LegSettings, Reuse, build_chain};
use aiui_core::backends::routstr::RoutstrConfig;
use aiui_core::gate::{AuditLog, Gate};
use aiui_core::node::{Credentials, NodeClient, NodeConfig};
use aiui_core::pay::discovery::DiscoveryConfig;
use aiui_core::secrets::Secrets;
use aiui_core::store::Store;
use aiui_web::passphrase::{self, Kind};
use aiui_web::{Assistant, LoginLimits, WebConfig};
use serde_json::{Value, json};

const NODE_PASSWORD: &str = "web-test-node-password";
const LAN: &str = "lan-passphrase-0123";
const APPROVAL: &str = "approval-passphrase-4567";

fn fixture(name: &str) -> Value {
    let path = format!("{}/../../../fixtures/ollama/{name}", env!("CARGO_MANIFEST_DIR"));
    serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap()
}

/// A minimal Ollama that offers one tool-capable model and replays `replies` on `/api/chat`, in order.
async fn replay_ollama(replies: Vec<Value>) -> String {
    use axum::routing::{get, post};
    let (tags, show) = (fixture("tags.json"), fixture("show_tools.json"));
    let replies = Arc::new(Mutex::new(VecDeque::from(replies)));
    let app = axum::Router::new()
        .route("/api/tags", get(move || async move { axum::Json(tags) }))
        .route("/api/show", post(move || async move { axum::Json(show) }))
        .route(
            "/api/chat",
            post(move || async move { axum::Json(replies.lock().unwrap().pop_front().unwrap_or_default()) }),
        );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await });
    url
}

struct Harness {
    chat: String,
    trusted: String,
    chat_origin: String,
    trusted_origin: String,
    http: reqwest::Client,
    _node: archy_devnode::RunningDevNode,
    _dirs: (tempfile::TempDir, tempfile::TempDir),
    _running: aiui_web::Running,
}

async fn harness(replies: Vec<Value>, limits: LoginLimits) -> Harness {
    let node_dir = tempfile::tempdir().unwrap();
    let node = archy_devnode::spawn(
        archy_devnode::DevNodeConfig::new(NODE_PASSWORD, node_dir.path()),
        SocketAddr::from(([127, 0, 0, 1], 0)),
    )
    .await
    .unwrap();
    let data = tempfile::tempdir().unwrap();
    let ollama = replay_ollama(replies).await;
    let settings = LegSettings {
        ollama: OllamaConfig { url: ollama.parse().unwrap(), ..OllamaConfig::default() },
        claude: ClaudeConfig { base_url: "http://127.0.0.1:9/".parse().unwrap(), ..ClaudeConfig::default() },
        routstr: RoutstrConfig::default(),
        discovery: DiscoveryConfig::default(),
        builtin: BuiltinConfig { enabled: false, scorer: None, lexical: false },
    };
    let built = build_chain(&settings, Arc::new(Secrets::in_memory()), data.path(), Reuse::default()).await.unwrap();
    let client = NodeClient::new(
        NodeConfig::new(node.url().parse().unwrap()),
        Credentials { password: Secret::new(NODE_PASSWORD.to_owned()), totp: None },
    )
    .unwrap();
    let gate = Arc::new(Gate::new(AuditLog::open(&data.path().join("audit.jsonl")).unwrap(), Duration::from_secs(60)));
    let store = Arc::new(Store::open(&data.path().join("conversations.sqlite")).unwrap());
    let budget = built.budget.clone();
    let agent = Agent::new(
        Arc::new(client),
        built.chain,
        gate,
        store,
        Arc::new(RwLock::new(OperatorConfig::default())),
        Vec::new(),
    )
    .with_budget(built.budget);
    passphrase::set(data.path(), Kind::Lan, &Secret::new(LAN.to_owned())).unwrap();
    passphrase::set(data.path(), Kind::Approval, &Secret::new(APPROVAL.to_owned())).unwrap();
    let ui = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../ui");
    let mut config = WebConfig::new(data.path().to_owned(), ui);
    config.chat_addr = "127.0.0.1:0".parse().unwrap();
    config.trusted_addr = "127.0.0.1:0".parse().unwrap();
    config.base_path = "/aiui/".into();
    config.limits = limits;
    let assistant = Assistant {
        agent: Arc::new(agent),
        budget,
        notices: Arc::new(RwLock::new(Vec::new())),
        node_url: node.url(),
        demo: false,
    };
    let running = aiui_web::start(config, assistant).await.unwrap();
    let http = aiui_core::net::client(&aiui_core::net::ClientSpec::default()).unwrap().http;
    Harness {
        chat: format!("http://{}/aiui/", running.chat_addr),
        trusted: format!("http://{}/aiui/", running.trusted_addr),
        chat_origin: format!("http://{}", running.chat_addr),
        trusted_origin: format!("http://{}", running.trusted_addr),
        http,
        _node: node,
        _dirs: (node_dir, data),
        _running: running,
    }
}

/// A signed-in browser, as far as the server can tell: its cookie, its CSRF token and the Origin it sends.
#[derive(Clone)]
struct Browser {
    base: String,
    origin: String,
    cookie: String,
    csrf: String,
}

impl Harness {
    async fn login(&self, base: &str, origin: &str, passphrase: &str) -> reqwest::Response {
        self.http
            .post(format!("{base}api/login"))
            .header("origin", origin)
            .json(&json!({ "passphrase": passphrase }))
            .send()
            .await
            .unwrap()
    }

    async fn sign_in(&self, trusted: bool) -> Browser {
        let (base, origin, passphrase) = if trusted {
            (&self.trusted, &self.trusted_origin, APPROVAL)
        } else {
            (&self.chat, &self.chat_origin, LAN)
        };
        let response = self.login(base, origin, passphrase).await;
        assert_eq!(response.status(), 200);
        let set_cookie = response.headers()["set-cookie"].to_str().unwrap().to_owned();
        let cookie = set_cookie.split(';').next().unwrap().to_owned();
        let body: Value = response.json().await.unwrap();
        Browser { base: base.clone(), origin: origin.clone(), cookie, csrf: body["csrf"].as_str().unwrap().to_owned() }
    }

    async fn invoke(&self, browser: &Browser, command: &str, args: Value) -> (u16, Value) {
        let response = self
            .http
            .post(format!("{}api/invoke/{command}", browser.base))
            .header("origin", &browser.origin)
            .header("cookie", &browser.cookie)
            .header("x-csrf-token", &browser.csrf)
            .json(&args)
            .send()
            .await
            .unwrap();
        (response.status().as_u16(), response.json().await.unwrap_or(Value::Null))
    }

    /// Reads a turn's Server-Sent Events until `until` appears in the text (or the stream ends).
    async fn events(&self, browser: &Browser, turn: &str, until: &str) -> String {
        let mut response = self
            .http
            .get(format!("{}api/turns/{turn}/events", browser.base))
            .header("cookie", &browser.cookie)
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 200);
        let mut text = String::new();
        let read = async {
            while let Some(chunk) = response.chunk().await.unwrap() {
                text.push_str(&String::from_utf8_lossy(&chunk));
                if text.contains(until) {
                    break;
                }
            }
        };
        tokio::time::timeout(Duration::from_secs(20), read).await.expect("the awaited event");
        text
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn sign_in_sets_a_strict_http_only_cookie_and_the_rate_limit_holds() {
    let limits = LoginLimits { per_address: 3, overall: 100, window: Duration::from_secs(60) };
    let h = harness(Vec::new(), limits).await;
    let no_origin = h.http.post(format!("{}api/login", h.chat)).json(&json!({ "passphrase": LAN })).send().await.unwrap();
    assert_eq!(no_origin.status(), 403, "a sign-in without this origin's Origin header is refused");
    let other = h.login(&h.chat, &h.trusted_origin, LAN).await;
    assert_eq!(other.status(), 403, "a sign-in posted from the other origin is refused");

    let ok = h.login(&h.chat, &h.chat_origin, LAN).await;
    assert_eq!(ok.status(), 200);
    let cookie = ok.headers()["set-cookie"].to_str().unwrap().to_owned();
    assert!(cookie.starts_with("aiui_lan=") && cookie.contains("; Path=/aiui/; HttpOnly; SameSite=Strict"), "{cookie}");
    assert!(!ok.text().await.unwrap().contains(LAN));

    for _ in 0..3 {
        let wrong = h.login(&h.chat, &h.chat_origin, "not-the-passphrase").await;
        assert_eq!(wrong.status(), 401);
        let body: Value = wrong.json().await.unwrap();
        assert_eq!(body["code"], "wrong_passphrase");
        assert!(body["message"].as_str().unwrap().contains("That LAN passphrase is not right"), "{body}");
    }
    let limited = h.login(&h.chat, &h.chat_origin, LAN).await;
    assert_eq!(limited.status(), 429, "the limit holds even for the right passphrase");
    let wait: u64 = limited.headers()["retry-after"].to_str().unwrap().parse().unwrap();
    assert!((1..=60).contains(&wait), "{wait}");
    let body: Value = limited.json().await.unwrap();
    assert!(body["message"].as_str().unwrap().starts_with("Too many sign-in attempts. Wait"), "{body}");
    // The trusted origin counts its own tries: the chat origin's limit does not lock the owner out.
    assert_eq!(h.login(&h.trusted, &h.trusted_origin, APPROVAL).await.status(), 200);
    assert_eq!(h.login(&h.trusted, &h.trusted_origin, LAN).await.status(), 401, "the LAN passphrase is not the owner's");
}

#[tokio::test(flavor = "multi_thread")]
async fn every_call_needs_its_own_origins_session_origin_header_and_csrf_token() {
    let h = harness(Vec::new(), LoginLimits::default()).await;
    let chat = h.sign_in(false).await;
    let trusted = h.sign_in(true).await;
    assert_eq!(h.invoke(&chat, "app_info", json!({})).await.0, 200);

    let signed_out = Browser { cookie: "aiui_lan=0000".into(), ..chat.clone() };
    assert_eq!(h.invoke(&signed_out, "app_info", json!({})).await.0, 401);
    let no_csrf = Browser { csrf: String::new(), ..chat.clone() };
    assert_eq!(h.invoke(&no_csrf, "app_info", json!({})).await.1["code"], "bad_origin");
    let other_csrf = Browser { csrf: trusted.csrf.clone(), ..chat.clone() };
    assert_eq!(h.invoke(&other_csrf, "app_info", json!({})).await.0, 403, "the trusted origin's token is not the chat's");
    let foreign = Browser { origin: h.trusted_origin.clone(), ..chat.clone() };
    assert_eq!(h.invoke(&foreign, "app_info", json!({})).await.0, 403, "a call from another origin");

    // A chat session is nothing on the trusted origin, and trusted commands do not exist on the chat origin.
    let chat_on_trusted = Browser { base: h.trusted.clone(), origin: h.trusted_origin.clone(), ..chat.clone() };
    assert_eq!(h.invoke(&chat_on_trusted, "trusted_pending", json!({})).await.0, 401);
    let (status, body) = h.invoke(&chat, "trusted_decide", json!({})).await;
    assert_eq!((status, body["code"].as_str()), (403, Some("not_trusted")));
    // A decision posted to the trusted origin from the chat origin, with the owner's cookie and token: refused.
    let from_chat = Browser { origin: h.chat_origin.clone(), ..trusted.clone() };
    assert_eq!(h.invoke(&from_chat, "trusted_pending", json!({})).await.1["code"], "bad_origin");

    // The trusted origin's headers: no framing, no CORS, its own CSP.
    let page = h.http.get(&h.trusted).header("cookie", &trusted.cookie).send().await.unwrap();
    let headers = page.headers().clone();
    assert!(headers["content-security-policy"].to_str().unwrap().contains("frame-ancestors 'none'"));
    assert_eq!(headers["x-frame-options"], "DENY");
    assert!(headers.keys().all(|k| !k.as_str().starts_with("access-control-")), "{headers:?}");
    assert!(page.text().await.unwrap().contains("AIUI confirmation and settings"));
    let preflight = h
        .http
        .request(reqwest::Method::OPTIONS, format!("{}api/invoke/trusted_decide", h.trusted))
        .header("origin", &h.chat_origin)
        .header("access-control-request-method", "POST")
        .send()
        .await
        .unwrap();
    assert!(preflight.headers().keys().all(|k| !k.as_str().starts_with("access-control-")));
    // The chat origin does not serve the trusted page, and the trusted origin redirects a stranger to sign-in.
    assert_eq!(h.http.get(format!("{}trusted.html", h.chat)).send().await.unwrap().status(), 404);
    let stranger = h.http.get(&h.trusted).send().await.unwrap();
    assert_eq!((stranger.status().as_u16(), stranger.headers()["location"].to_str().unwrap()), (303, "login.html"));
    assert_eq!(h.http.get(format!("{}../Cargo.toml", h.chat)).send().await.unwrap().status(), 404);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_decision_needs_the_delay_the_passphrase_and_the_hash_and_is_single_use() {
    let replies = vec![fixture("chat_call_restart_lnd.json"), fixture("chat_answer_restarted.json")];
    let h = harness(replies, LoginLimits::default()).await;
    let chat = h.sign_in(false).await;
    let (status, started) = h.invoke(&chat, "chat_send", json!({ "conversation": null, "text": "restart lnd" })).await;
    assert_eq!(status, 200, "{started}");
    let turn = started["turn"].as_str().unwrap().to_owned();
    let seen = h.events(&chat, &turn, "awaiting_confirmation").await;
    assert!(seen.contains("Restart app `lnd`"), "{seen}");
    // Another LAN session cannot read this turn's events.
    let other = h.sign_in(false).await;
    let stolen = h.http.get(format!("{}api/turns/{turn}/events", h.chat)).header("cookie", &other.cookie).send().await;
    assert_eq!(stolen.unwrap().status(), 404);

    let owner = h.sign_in(true).await;
    let (_, pending) = h.invoke(&owner, "trusted_pending", json!({})).await;
    let (id, hash) = (pending[0]["id"].as_str().unwrap(), pending[0]["arguments_hash"].as_str().unwrap());
    assert!(!seen.contains(id) && !seen.contains(hash), "the chat origin never sees the id or hash");
    let decide = |hash: &str, secret: Option<&str>| {
        json!({ "id": id, "argumentsHash": hash, "answer": "approve", "secret": secret })
    };
    let code = |r: (u16, Value)| (r.0, r.1["code"].as_str().unwrap_or_default().to_owned());
    assert_eq!(code(h.invoke(&owner, "trusted_decide", decide(hash, Some(APPROVAL))).await), (409, "too_soon".into()));
    tokio::time::sleep(aiui_web::APPROVE_DELAY).await;
    let other_owner = h.sign_in(true).await;
    assert_eq!(
        code(h.invoke(&other_owner, "trusted_decide", decide(hash, Some(APPROVAL))).await),
        (409, "too_soon".into()),
        "the delay runs from when this session was shown the request"
    );
    assert_eq!(code(h.invoke(&owner, "trusted_decide", decide(hash, None)).await), (403, "secret_required".into()));
    assert_eq!(code(h.invoke(&owner, "trusted_decide", decide(hash, Some(LAN))).await), (403, "wrong_secret".into()));
    let wrong_hash = "0".repeat(64);
    assert_eq!(code(h.invoke(&owner, "trusted_decide", decide(&wrong_hash, Some(APPROVAL))).await), (409, "mismatch".into()));
    let (status, verdict) = h.invoke(&owner, "trusted_decide", decide(hash, Some(APPROVAL))).await;
    assert_eq!((status, verdict), (200, json!("allowed")));
    assert_eq!(code(h.invoke(&owner, "trusted_decide", decide(hash, Some(APPROVAL))).await), (404, "unknown".into()));
    let after = h.events(&chat, &turn, "\"event\":\"done\"").await;
    assert!(after.contains("package.restart lnd") || after.contains("\"surface\""), "{after}");
}

#[tokio::test(flavor = "multi_thread")]
async fn each_session_sees_only_its_own_conversations() {
    let h = harness(vec![fixture("chat_answer_plain.json")], LoginLimits::default()).await;
    let alice = h.sign_in(false).await;
    let bob = h.sign_in(false).await;
    let (_, started) = h.invoke(&alice, "chat_send", json!({ "conversation": null, "text": "hello" })).await;
    let conversation = started["conversation"].as_str().unwrap().to_owned();
    h.events(&alice, started["turn"].as_str().unwrap(), "\"event\":\"done\"").await;
    let (_, mine) = h.invoke(&alice, "conversations_list", json!({})).await;
    assert_eq!(mine.as_array().unwrap().len(), 1);
    let (_, theirs) = h.invoke(&bob, "conversations_list", json!({})).await;
    assert_eq!(theirs, json!([]));
    let (status, _) = h.invoke(&bob, "conversation_load", json!({ "id": conversation })).await;
    assert_eq!(status, 404);
    let (status, _) = h.invoke(&bob, "chat_send", json!({ "conversation": conversation, "text": "mine now" })).await;
    assert_eq!(status, 404, "nor continue it");
}
