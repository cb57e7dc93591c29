//! The Claude leg paid from its USD allowance, for the money tests: a leg over a fresh allowance, the worst case it
//! reserves for a body, SSE servers that end, break off or go slow, and the built-in model for a chain's last leg.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::pin::Pin;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use aiui_core::Secret;
use aiui_core::backends::builtin::IntentScorer;
use aiui_core::backends::claude::{Claude, ClaudeConfig, ClaudeSpend};
use aiui_core::backends::{ChatRequest, Message};
use aiui_core::budget::{ClaudeAllowance, ClaudeReport};
use aiui_core::pricing::{ModelPrice, PriceTable};
use aiui_core::secrets::{SecretName, Secrets};
use aiui_llama::SmolLm;
use axum::Json;
use axum::body::{Body, Bytes};
use axum::http::header;
use axum::response::IntoResponse;
use axum::routing::post;
use futures_util::{Stream, StreamExt};
use serde_json::Value;

use super::assistant::{API_KEY, claude_spend};

/// The model every Claude leg here is configured with, as `ClaudeConfig::default()` names it.
pub const MODEL: &str = "claude-sonnet-4-5";
/// The `max_tokens` of [`request`].
pub const MAX_TOKENS: u32 = 1024;

/// A Claude leg with a key, at `url`, paying from a fresh allowance of `usd_micros`; the allowance is returned
/// beside it so a test reads what it spent.
pub fn leg(url: &str, usd_micros: u64) -> (Claude, Arc<ClaudeAllowance>) {
    let spend = claude_spend(usd_micros);
    let allowance = spend.allowance.clone();
    (leg_paid_from(url, spend), allowance)
}

pub fn leg_paid_from(url: &str, spend: ClaudeSpend) -> Claude {
    let secrets = Secrets::in_memory();
    secrets.set(SecretName::AnthropicApiKey, &Secret::from(API_KEY)).unwrap();
    let config = ClaudeConfig { base_url: url.parse().unwrap(), ..ClaudeConfig::default() };
    assert_eq!(config.model, MODEL, "the tests price the default model");
    Claude::new(config, Arc::new(secrets), spend).unwrap()
}

pub fn request() -> ChatRequest {
    ChatRequest {
        system: "You help the owner of a node.".into(),
        messages: vec![Message::User { text: "what is running?".into() }],
        tools: vec![],
        max_tokens: MAX_TOKENS,
    }
}

/// The shipped price of [`MODEL`].
pub fn price() -> ModelPrice {
    *PriceTable::shipped().price_for(MODEL).expect("the shipped table prices the default model")
}

/// What the leg reserves for `body` as it was sent (a streamed body's `"stream": true` is added after reserving,
/// so it is taken out here): one token per byte of the body plus the 2000 Anthropic adds, at the dearest input
/// price, and `max_tokens` at the output price.
pub fn worst_case_of(body: &Value) -> u64 {
    let mut body = body.clone();
    if let Some(object) = body.as_object_mut() {
        object.remove("stream");
    }
    let max_tokens = body["max_tokens"].as_u64().expect("the body has max_tokens");
    let bytes = serde_json::to_vec(&body).unwrap().len() as u64;
    price().worst_case(bytes + 2_000, max_tokens)
}

/// `(spent, reserved, allowance)`.
pub fn sums(report: &ClaudeReport) -> (u64, u64, u64) {
    (report.spent_usd_micros, report.reserved_usd_micros, report.allowance_usd_micros)
}

pub fn raw_fixture(path: &str) -> Vec<u8> {
    let full = concat!(env!("CARGO_MANIFEST_DIR"), "/../fixtures/").to_owned() + path;
    std::fs::read(&full).unwrap_or_else(|e| panic!("fixture {full}: {e}"))
}

/// How a streamed reply ends.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Ending {
    /// Every event of the fixture, then the end of the body.
    Whole,
    /// The first `n` events, then the connection is cut without ending the body.
    CutAfter(usize),
}

/// An SSE server replaying `fixture` event by event, `every` apart, then `ending`; records the request bodies.
pub struct SseServer {
    pub url: String,
    pub received: Arc<Mutex<Vec<Value>>>,
}

type ByteStream = Pin<Box<dyn Stream<Item = Result<Bytes, std::io::Error>> + Send>>;

pub async fn sse(fixture: &str, every: Duration, ending: Ending) -> SseServer {
    let text = String::from_utf8(raw_fixture(fixture)).expect("an SSE fixture is text");
    let mut events: Vec<String> =
        text.split("\n\n").filter(|e| !e.trim().is_empty()).map(|e| format!("{e}\n\n")).collect();
    if let Ending::CutAfter(n) = ending {
        events.truncate(n);
    }
    let received = Arc::new(Mutex::new(Vec::new()));
    let seen = received.clone();
    let router = axum::Router::new().route(
        "/v1/messages",
        post(move |Json(body): Json<Value>| {
            seen.lock().unwrap().push(body);
            let events = events.clone();
            async move {
                let paced = futures_util::stream::iter(events).then(move |event| async move {
                    tokio::time::sleep(every).await;
                    Ok::<_, std::io::Error>(Bytes::from(event))
                });
                let tail: ByteStream = match ending {
                    Ending::Whole => Box::pin(futures_util::stream::empty()),
                    Ending::CutAfter(_) => Box::pin(futures_util::stream::once(async {
                        // After the last event has gone out, or the cut would take it too.
                        tokio::time::sleep(Duration::from_millis(100)).await;
                        Err(std::io::Error::other("the test server cuts the connection"))
                    })),
                };
                let stream: ByteStream = Box::pin(paced.chain(tail));
                ([(header::CONTENT_TYPE, "text/event-stream")], Body::from_stream(stream)).into_response()
            }
        }),
    );
    let listener = tokio::net::TcpListener::bind(SocketAddr::from(([127, 0, 0, 1], 0))).await.unwrap();
    let url = format!("http://{}/", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, router).await });
    SseServer { url, received }
}

/// The real built-in model, loaded once per test process (`tests/builtin` and the chains here share it). A missing model fails the
/// test with what to run; it is never skipped.
pub fn builtin_model() -> Arc<SmolLm> {
    static MODEL: OnceLock<Arc<SmolLm>> = OnceLock::new();
    MODEL
        .get_or_init(|| {
            let dir = std::env::var_os("AIUI_MODEL_DIR").map(PathBuf::from).unwrap_or_else(|| {
                aiui_core::paths::default_data_dir().expect("a data dir (set HOME or AIUI_MODEL_DIR)").join("models")
            });
            let model = SmolLm::in_dir(&dir);
            if let Err(reason) = model.ready() {
                panic!("the built-in model is required by this test and is missing (run scripts/setup): {reason}");
            }
            Arc::new(model)
        })
        .clone()
}
