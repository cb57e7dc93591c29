//! Wire servers that replay recorded fixtures in the exact Ollama and Anthropic formats, and record what they
//! were sent, so tests can check ids, screening and what never arrived.

use std::collections::VecDeque;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use axum::Json;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde_json::Value;

/// Reads `fixtures/<path>` as JSON.
pub fn fixture(path: &str) -> Value {
    let full = concat!(env!("CARGO_MANIFEST_DIR"), "/../fixtures/").to_owned() + path;
    let text = std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("fixture {full}: {e}"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("fixture {full} is not JSON: {e}"))
}

/// What a wire server replays and what it saw.
#[derive(Default)]
pub struct Script {
    replies: Mutex<VecDeque<(u16, Value)>>,
    received: Mutex<Vec<Value>>,
    headers: Mutex<Vec<HeaderMap>>,
}

impl Script {
    /// The request bodies received on the chat endpoint, in order.
    pub fn received(&self) -> Vec<Value> {
        self.received.lock().unwrap().clone()
    }

    pub fn last_headers(&self) -> Option<HeaderMap> {
        self.headers.lock().unwrap().last().cloned()
    }

    fn next(&self, body: Value, headers: HeaderMap) -> Response {
        self.received.lock().unwrap().push(body);
        self.headers.lock().unwrap().push(headers);
        match self.replies.lock().unwrap().pop_front() {
            Some((status, reply)) => (StatusCode::from_u16(status).unwrap(), Json(reply)).into_response(),
            None => (StatusCode::INTERNAL_SERVER_ERROR, "the test script has no more replies").into_response(),
        }
    }
}

pub struct WireServer {
    pub url: String,
    pub script: Arc<Script>,
}

async fn serve(router: axum::Router) -> String {
    let listener = tokio::net::TcpListener::bind(SocketAddr::from(([127, 0, 0, 1], 0))).await.unwrap();
    let url = format!("http://{}/", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, router).await });
    url
}

fn script_of(replies: Vec<(u16, Value)>) -> Arc<Script> {
    Arc::new(Script { replies: Mutex::new(replies.into()), ..Script::default() })
}

/// An Ollama server with one model; `tools` says whether `/api/show` lists the tools capability.
pub async fn ollama(tools: bool, chat_fixtures: Vec<&str>) -> WireServer {
    ollama_replies(tools, chat_fixtures.into_iter().map(fixture).collect()).await
}

/// The same, replaying replies built by the test.
pub async fn ollama_replies(tools: bool, chat_replies: Vec<Value>) -> WireServer {
    let script = script_of(chat_replies.into_iter().map(|r| (200, r)).collect());
    let show = fixture(if tools { "ollama/show_tools.json" } else { "ollama/show_no_tools.json" });
    let router = axum::Router::new()
        .route("/api/tags", get(|| async { Json(fixture("ollama/tags.json")) }))
        .route("/api/version", get(|| async { Json(serde_json::json!({"version": "0.12.3"})) }))
        .route("/api/show", post(move || async move { Json(show) }))
        .route(
            "/api/chat",
            post(|State(s): State<Arc<Script>>, headers: HeaderMap, Json(body): Json<Value>| async move {
                s.next(body, headers)
            }),
        )
        .with_state(script.clone());
    WireServer { url: serve(router).await, script }
}

/// An Anthropic Messages server replaying `(status, fixture)` pairs.
pub async fn anthropic(replies: Vec<(u16, &str)>) -> WireServer {
    anthropic_replies(replies.into_iter().map(|(s, f)| (s, fixture(f))).collect()).await
}

/// The same, replaying `(status, reply)` pairs built by the test.
pub async fn anthropic_replies(replies: Vec<(u16, Value)>) -> WireServer {
    let script = script_of(replies);
    let router = axum::Router::new()
        .route(
            "/v1/messages",
            post(|State(s): State<Arc<Script>>, headers: HeaderMap, Json(body): Json<Value>| async move {
                s.next(body, headers)
            }),
        )
        .with_state(script.clone());
    WireServer { url: serve(router).await, script }
}

/// A port that accepts connections and never answers: a hung Ollama. Counts the connections it accepted.
pub async fn black_hole() -> (String, Arc<AtomicUsize>) {
    let listener = tokio::net::TcpListener::bind(SocketAddr::from(([127, 0, 0, 1], 0))).await.unwrap();
    let url = format!("http://{}/", listener.local_addr().unwrap());
    let accepted = Arc::new(AtomicUsize::new(0));
    let count = accepted.clone();
    tokio::spawn(async move {
        let mut held = Vec::new();
        while let Ok((socket, _)) = listener.accept().await {
            count.fetch_add(1, Ordering::SeqCst);
            held.push(socket);
        }
    });
    (url, accepted)
}

/// An address where nothing listens: connection refused.
pub fn refused() -> String {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/", listener.local_addr().unwrap());
    drop(listener);
    url
}
