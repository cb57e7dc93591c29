//! The LAN service's test harness, shared by tests/server.rs and benches/load.rs: a devnode, a replaying Ollama,
//! the agent `build_chain` builds, both origins, and a minimal browser (cookie, CSRF token, Origin).
#![allow(dead_code)]

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
use aiui_core::backends::routstr::discovery::DiscoveryConfig;
use aiui_core::gate::{AuditLog, Gate};
use aiui_core::i18n::Locale;
use aiui_core::node::{Credentials, NodeClient, NodeConfig};
use aiui_core::secrets::Secrets;
use aiui_core::store::Store;
use aiui_web::passphrase::{self, Kind};
use aiui_web::{Assistant, LoginLimits, WebConfig};
use serde_json::{Value, json};

pub const NODE_PASSWORD: &str = "web-test-node-password";
pub const LAN: &str = "lan-passphrase-0123";
pub const APPROVAL: &str = "approval-passphrase-4567";

pub fn fixture(name: &str) -> Value {
    let path = format!("{}/../../../fixtures/ollama/{name}", env!("CARGO_MANIFEST_DIR"));
    serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap()
}

/// What the replaying Ollama answers on `/api/chat`.
pub enum Replies {
    /// These recorded replies, in order.
    Script(Vec<Value>),
    /// `chat_answer_plain.json` with its text replaced by "echo: <the last user message>", every time: each turn's
    /// answer names the turn, so an event delivered to the wrong session shows.
    Echo,
    /// A streamed answer (NDJSON) of `pieces` pieces, `every` apart, each piece the microseconds since
    /// [`clock`] at the moment it is written (`t123 `): a reader in this process knows each piece's age.
    Stamped { pieces: usize, every: Duration },
}

/// The process's clock for [`Replies::Stamped`].
pub fn clock() -> std::time::Instant {
    static START: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
    *START.get_or_init(std::time::Instant::now)
}

/// A minimal Ollama that offers one tool-capable model and replays on `/api/chat`.
pub async fn replay_ollama(replies: Replies) -> String {
    use axum::routing::{get, post};
    let (tags, show) = (fixture("tags.json"), fixture("show_tools.json"));
    let plain = fixture("chat_answer_plain.json");
    let chat = match replies {
        Replies::Stamped { pieces, every } => Err((pieces, every)),
        Replies::Script(replies) => {
            let replies = Arc::new(Mutex::new(VecDeque::from(replies)));
            Ok(post(move || async move { axum::Json(replies.lock().unwrap().pop_front().unwrap_or_default()) }))
        }
        Replies::Echo => Ok(post(move |axum::Json(body): axum::Json<Value>| async move {
            let last = body["messages"]
                .as_array()
                .and_then(|m| m.iter().rev().find(|m| m["role"] == "user"))
                .and_then(|m| m["content"].as_str())
                .unwrap_or_default()
                .to_owned();
            let mut reply = plain.clone();
            reply["message"]["content"] = json!(format!("echo: {last}"));
            axum::Json(reply)
        })),
    };
    let chat = match chat {
        Ok(chat) => chat,
        Err((pieces, every)) => post(move || async move {
            use futures_util::StreamExt;
            let lines = futures_util::stream::iter(0..=pieces).then(move |n| async move {
                tokio::time::sleep(every).await;
                let line = if n == pieces {
                    json!({"model": "qwen2.5:7b", "message": {"role": "assistant", "content": ""}, "done": true})
                } else {
                    let t = clock().elapsed().as_micros();
                    json!({"model": "qwen2.5:7b", "message": {"role": "assistant", "content": format!("t{t} ")}, "done": false})
                };
                Ok::<_, std::io::Error>(axum::body::Bytes::from(format!("{line}\n")))
            });
            ([("content-type", "application/x-ndjson")], axum::body::Body::from_stream(lines))
        }),
    };
    let app = axum::Router::new()
        .route("/api/tags", get(move || async move { axum::Json(tags) }))
        .route("/api/show", post(move || async move { axum::Json(show) }))
        .route("/api/chat", chat);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await });
    url
}

pub struct Harness {
    pub chat: String,
    pub trusted: String,
    pub chat_origin: String,
    pub trusted_origin: String,
    pub http: reqwest::Client,
    /// The approval TOTP, when the harness set one.
    pub totp: Option<totp_rs::TOTP>,
    /// The service's data dir (passphrase files, the session list).
    pub data_dir: std::path::PathBuf,
    _node: archy_devnode::RunningDevNode,
    _dirs: (tempfile::TempDir, tempfile::TempDir),
    _running: aiui_web::Running,
}

pub async fn harness(replies: Replies, limits: LoginLimits) -> Harness {
    harness_with(replies, limits, false, |_| {}).await
}

/// [`harness`], with an approval TOTP besides the approval passphrase when `totp`, and the service's config
/// changed by `tune`.
pub async fn harness_with(replies: Replies, limits: LoginLimits, totp: bool, tune: fn(&mut WebConfig)) -> Harness {
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
        ..LegSettings::default()
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
        // English whatever this machine's LANG: the tests read the host's words.
        Arc::new(RwLock::new(OperatorConfig { locale: Locale::En, ..OperatorConfig::default() })),
        Vec::new(),
    )
    .with_budget(built.budget);
    passphrase::set(data.path(), Kind::Lan, &Secret::new(LAN.to_owned())).unwrap();
    passphrase::set(data.path(), Kind::Approval, &Secret::new(APPROVAL.to_owned())).unwrap();
    let totp = totp.then(|| {
        passphrase::new_totp(data.path()).unwrap();
        passphrase::load_totp(data.path()).unwrap().unwrap()
    });
    let ui = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../ui");
    let mut config = WebConfig::new(data.path().to_owned(), ui);
    config.chat_addr = "127.0.0.1:0".parse().unwrap();
    config.trusted_addr = "127.0.0.1:0".parse().unwrap();
    config.base_path = "/aiui/".into();
    config.limits = limits;
    tune(&mut config);
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
        totp,
        data_dir: data.path().to_owned(),
        _node: node,
        _dirs: (node_dir, data),
        _running: running,
    }
}

/// A signed-in browser, as far as the server can tell: its cookie, its CSRF token and the Origin it sends.
#[derive(Clone)]
pub struct Browser {
    pub base: String,
    pub origin: String,
    pub cookie: String,
    pub csrf: String,
}

impl Harness {
    pub async fn login(&self, base: &str, origin: &str, passphrase: &str) -> reqwest::Response {
        self.http
            .post(format!("{base}api/login"))
            .header("origin", origin)
            .json(&json!({ "passphrase": passphrase }))
            .send()
            .await
            .unwrap()
    }

    pub async fn sign_in(&self, trusted: bool) -> Browser {
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

    pub async fn invoke(&self, browser: &Browser, command: &str, args: Value) -> (u16, Value) {
        self.post(browser, &format!("api/invoke/{command}"), args).await
    }

    /// POSTs `body` as JSON to `path` under the browser's base, with its cookie, CSRF token and Origin.
    pub async fn post(&self, browser: &Browser, path: &str, body: Value) -> (u16, Value) {
        self.post_in(browser, None, path, body).await
    }

    /// [`Self::post`] from a browser that asks for `language` (`Accept-Language`), if any.
    pub async fn post_in(&self, browser: &Browser, language: Option<&str>, path: &str, body: Value) -> (u16, Value) {
        let mut request = self
            .http
            .post(format!("{}{path}", browser.base))
            .header("origin", &browser.origin)
            .header("cookie", &browser.cookie)
            .header("x-csrf-token", &browser.csrf);
        if let Some(language) = language {
            request = request.header("accept-language", language);
        }
        let response = request.json(&body).send().await.unwrap();
        (response.status().as_u16(), response.json().await.unwrap_or(Value::Null))
    }

    /// Starts a turn that proposes restarting lnd (with the fixtures `chat_call_restart_lnd.json` first in the
    /// script) and waits until its confirmation is pending; returns the turn id.
    pub async fn awaiting_restart(&self, chat: &Browser) -> String {
        let (status, started) =
            self.invoke(chat, "chat_send", json!({ "conversation": null, "text": "restart lnd" })).await;
        assert_eq!(status, 200, "{started}");
        let turn = started["turn"].as_str().unwrap().to_owned();
        self.events(chat, &turn, "awaiting_confirmation").await;
        turn
    }

    /// The first pending confirmation as the owner's trusted session sees it: (id, arguments hash, whole view).
    pub async fn first_pending(&self, owner: &Browser) -> (String, String, Value) {
        let (status, pending) = self.invoke(owner, "trusted_pending", json!({})).await;
        assert_eq!(status, 200, "{pending}");
        let first = pending[0].clone();
        (first["id"].as_str().unwrap().to_owned(), first["arguments_hash"].as_str().unwrap().to_owned(), first)
    }

    /// Reads a turn's Server-Sent Events until `until` appears in the text (or the stream ends).
    pub async fn events(&self, browser: &Browser, turn: &str, until: &str) -> String {
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
