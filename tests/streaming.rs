//! The Ollama and Claude legs' streamed answers over real loopback HTTP: recorded streams served in small chunks
//! with delays (one byte at a time included), an error event, a stream gone silent, a cut connection, and
//! failures before the first chunk, each against what the non-streamed `send` gives.

use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use aiui_core::Secret;
use aiui_core::backends::claude::{Claude, ClaudeConfig};
use aiui_core::backends::format::{anthropic, ollama};
use aiui_core::backends::ollama::{Ollama, OllamaConfig};
use aiui_core::backends::{BackendError, BackendId, ChatRequest, Message, Turn};
use aiui_core::i18n::Locale;
use aiui_core::secrets::{SecretName, Secrets};
use axum::Json;
use axum::body::{Body, Bytes};
use axum::http::{StatusCode, header};
use axum::response::IntoResponse;
use axum::routing::post;
use futures_util::{Stream, StreamExt};
use serde_json::{Value, json};

use crate::support::wire::{self, fixture};

const OLLAMA_MODEL: &str = "qwen2.5:7b";
const NDJSON: &str = "application/x-ndjson";
const SSE: &str = "text/event-stream";

fn raw_fixture(path: &str) -> Vec<u8> {
    let full = concat!(env!("CARGO_MANIFEST_DIR"), "/../fixtures/").to_owned() + path;
    std::fs::read(&full).unwrap_or_else(|e| panic!("fixture {full}: {e}"))
}

/// What a server does after its chunks.
#[derive(Clone, Copy)]
enum Then {
    End,
    /// Keeps the connection open and sends nothing more.
    Silence,
    /// Drops the connection without ending the body.
    Break,
}

/// A streamed reply: `chunks`, `delay` apart, then `then`.
#[derive(Clone)]
struct Plan {
    chunks: Vec<Vec<u8>>,
    delay: Duration,
    then: Then,
}

impl Plan {
    /// `body` in pieces of `size` bytes.
    fn pieces(body: &[u8], size: usize, delay: Duration) -> Self {
        Self { chunks: body.chunks(size).map(<[u8]>::to_vec).collect(), delay, then: Then::End }
    }
}

/// A server for one chat endpoint. `last_sent` turns true as the last chunk is handed to the connection, so a
/// delta seen while it is false arrived before the end.
struct Served {
    url: String,
    received: Arc<Mutex<Vec<Value>>>,
    last_sent: Arc<AtomicBool>,
}

type ByteStream = Pin<Box<dyn Stream<Item = Result<Bytes, std::io::Error>> + Send>>;

fn body_of(plan: Plan, last_sent: Arc<AtomicBool>) -> Body {
    let count = plan.chunks.len();
    let delay = plan.delay;
    let chunks = futures_util::stream::iter(plan.chunks.into_iter().enumerate()).then(move |(i, chunk)| {
        let last_sent = last_sent.clone();
        async move {
            tokio::time::sleep(delay).await;
            if i + 1 == count {
                last_sent.store(true, Ordering::SeqCst);
            }
            Ok::<_, std::io::Error>(Bytes::from(chunk))
        }
    });
    let tail: ByteStream = match plan.then {
        Then::End => Box::pin(futures_util::stream::empty()),
        Then::Silence => Box::pin(futures_util::stream::pending()),
        Then::Break => Box::pin(futures_util::stream::once(async {
            tokio::time::sleep(Duration::from_millis(20)).await;
            Err(std::io::Error::other("the test server cuts the connection"))
        })),
    };
    let stream: ByteStream = Box::pin(chunks.chain(tail));
    Body::from_stream(stream)
}

async fn listen(router: axum::Router) -> String {
    let listener = tokio::net::TcpListener::bind(SocketAddr::from(([127, 0, 0, 1], 0))).await.unwrap();
    let url = format!("http://{}/", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, router).await });
    url
}

/// Serves `plan` as a 200 with `content_type` on `path`, to every request.
async fn stream_server(path: &'static str, content_type: &'static str, plan: Plan) -> Served {
    let received = Arc::new(Mutex::new(Vec::new()));
    let last_sent = Arc::new(AtomicBool::new(false));
    let (seen, sent) = (received.clone(), last_sent.clone());
    let router = axum::Router::new().route(
        path,
        post(move |Json(body): Json<Value>| {
            let (seen, sent, plan) = (seen.clone(), sent.clone(), plan.clone());
            async move {
                seen.lock().unwrap().push(body);
                ([(header::CONTENT_TYPE, content_type)], body_of(plan, sent)).into_response()
            }
        }),
    );
    Served { url: listen(router).await, received, last_sent }
}

/// Answers every request on `path` with `status` and `body`, as an API failing before it streams.
async fn failing_server(path: &'static str, status: u16, body: Value) -> String {
    let router = axum::Router::new().route(
        path,
        post(move || {
            let body = body.clone();
            async move { (StatusCode::from_u16(status).unwrap(), Json(body)).into_response() }
        }),
    );
    listen(router).await
}

/// Accepts connections, reads the request and closes without a word.
async fn closing_server() -> String {
    let listener = tokio::net::TcpListener::bind(SocketAddr::from(([127, 0, 0, 1], 0))).await.unwrap();
    let url = format!("http://{}/", listener.local_addr().unwrap());
    tokio::spawn(async move {
        while let Ok((mut socket, _)) = listener.accept().await {
            tokio::spawn(async move {
                let mut buffer = [0u8; 4096];
                let _ = tokio::io::AsyncReadExt::read(&mut socket, &mut buffer).await;
            });
        }
    });
    url
}

fn request() -> ChatRequest {
    ChatRequest {
        system: "You help the owner of a node.".into(),
        messages: vec![Message::User { text: "what is running?".into() }],
        tools: vec![],
        max_tokens: 512,
    }
}

fn ollama_leg(url: &str, idle: Duration) -> Ollama {
    Ollama::new(OllamaConfig {
        url: url.parse().unwrap(),
        connect_timeout: Duration::from_millis(500),
        idle_timeout: idle,
        ..OllamaConfig::default()
    })
    .unwrap()
}

fn claude_leg(url: &str, idle: Duration) -> Claude {
    let secrets = Secrets::in_memory();
    secrets.set(SecretName::AnthropicApiKey, &Secret::from("sk-ant-api03-streaming-test")).unwrap();
    Claude::new(
        ClaudeConfig { base_url: url.parse().unwrap(), idle_timeout: idle, ..ClaudeConfig::default() },
        Arc::new(secrets),
        crate::support::assistant::claude_spend(crate::support::assistant::AMPLE_USD_MICROS),
    )
    .unwrap()
}

/// Which leg a test streams from.
#[derive(Clone, Copy, Debug)]
enum Leg {
    Ollama,
    Claude,
}

impl Leg {
    fn path(self) -> &'static str {
        match self {
            Self::Ollama => "/api/chat",
            Self::Claude => "/v1/messages",
        }
    }

    fn content_type(self) -> &'static str {
        match self {
            Self::Ollama => NDJSON,
            Self::Claude => SSE,
        }
    }

    /// `send_streaming`, with every delta and whether the server had sent its last chunk when it arrived.
    async fn stream(self, url: &str, idle: Duration, last_sent: Option<Arc<AtomicBool>>) -> Streamed {
        let deltas = Mutex::new(Vec::new());
        let on_delta = |delta: &str| {
            let at_end = last_sent.as_ref().is_some_and(|flag| flag.load(Ordering::SeqCst));
            deltas.lock().unwrap().push((delta.to_owned(), at_end));
        };
        let started = Instant::now();
        let result = match self {
            Self::Ollama => {
                let leg = ollama_leg(url, idle);
                let id = BackendId::Local { model: OLLAMA_MODEL.into() };
                leg.send_streaming(&id, leg.request_body(&id, &request()), &on_delta).await
            }
            Self::Claude => {
                let leg = claude_leg(url, idle);
                leg.send_streaming(leg.request_body(&request()), &leg.allowance().policy(), Locale::En, &on_delta).await
            }
        };
        Streamed { result, deltas: deltas.into_inner().unwrap(), took: started.elapsed() }
    }

    /// The non-streamed `send` against the same server, for comparison.
    async fn send(self, url: &str) -> Result<Turn, BackendError> {
        match self {
            Self::Ollama => {
                let leg = ollama_leg(url, Duration::from_secs(60));
                let id = BackendId::Local { model: OLLAMA_MODEL.into() };
                leg.send(&id, leg.request_body(&id, &request())).await
            }
            Self::Claude => {
                let leg = claude_leg(url, Duration::from_secs(60));
                leg.send(leg.request_body(&request()), &leg.allowance().policy(), Locale::En).await
            }
        }
    }

    fn twin(self, path: &str) -> Turn {
        match self {
            Self::Ollama => ollama::response(&fixture(path), OLLAMA_MODEL).unwrap(),
            Self::Claude => anthropic::response(&fixture(path), &ClaudeConfig::default().model).unwrap(),
        }
    }
}

struct Streamed {
    result: Result<Turn, BackendError>,
    deltas: Vec<(String, bool)>,
    took: Duration,
}

impl Streamed {
    fn text(&self) -> String {
        self.deltas.iter().map(|(d, _)| d.as_str()).collect()
    }
}

/// Ollama's id-less tool calls get a fresh random id on either path; everything else must be equal.
/// The turn as the wire format alone makes it: the leg's price is its own (the format knows no prices).
fn comparable(mut turn: Turn) -> Turn {
    turn.cost = aiui_core::backends::Cost::Free;
    for call in &mut turn.tool_calls {
        if call.id.starts_with("call_") {
            call.id = "call_(assigned)".into();
        }
    }
    turn
}

/// Serves `stream` as planned and checks the Turn against the non-streamed `twin`, and the deltas.
async fn check_twin(leg: Leg, stream: &str, twin: &str, size: usize, delay: Duration) {
    let body = raw_fixture(stream);
    let served = stream_server(leg.path(), leg.content_type(), Plan::pieces(&body, size, delay)).await;
    let out = leg.stream(&served.url, Duration::from_secs(10), Some(served.last_sent.clone())).await;
    let what = format!("{stream} in {size}-byte chunks");
    let turn = out.result.as_ref().unwrap_or_else(|e| panic!("{what}: {e}"));
    assert_eq!(comparable(turn.clone()), comparable(leg.twin(twin)), "{what}");
    assert_eq!(out.text(), turn.text, "{what}: the deltas, in order, are the text");
    if !turn.text.is_empty() {
        assert!(out.deltas.len() > 1, "{what}: {:?}", out.deltas);
        assert!(!out.deltas[0].1, "{what}: the first delta came before the stream's last chunk");
    }
    let sent = served.received.lock().unwrap().clone();
    assert_eq!(sent.len(), 1);
    assert_eq!(sent[0]["stream"], json!(true), "{what}: send_streaming asks for a stream");
}

async fn check_all_plans(leg: Leg, stream: &str, twin: &str) {
    tokio::join!(
        check_twin(leg, stream, twin, 1, Duration::from_millis(1)),
        check_twin(leg, stream, twin, 7, Duration::from_millis(3)),
        check_twin(leg, stream, twin, 64, Duration::from_millis(10)),
    );
}

#[tokio::test]
async fn ollama_streamed_text_is_the_same_turn_in_any_chunks() {
    check_all_plans(Leg::Ollama, "ollama/stream_text.ndjson", "ollama/chat_answer_packages.json").await;
}

#[tokio::test]
async fn ollama_streamed_tool_call_is_the_same_turn_in_any_chunks() {
    check_all_plans(Leg::Ollama, "ollama/stream_tool_call.ndjson", "ollama/chat_call_restart_lnd.json").await;
}

#[tokio::test]
async fn claude_streamed_text_is_the_same_turn_in_any_chunks() {
    check_all_plans(Leg::Claude, "anthropic/stream_text.sse", "anthropic/answer_packages.json").await;
}

#[tokio::test]
async fn claude_streamed_tool_use_is_the_same_turn_in_any_chunks() {
    check_all_plans(Leg::Claude, "anthropic/stream_tool_use.sse", "anthropic/stream_tool_use.json").await;
}

#[tokio::test]
async fn an_error_event_after_text_is_a_cut_off_with_that_text() {
    let body = raw_fixture("anthropic/stream_error.sse");
    let served = stream_server(Leg::Claude.path(), SSE, Plan::pieces(&body, 16, Duration::from_millis(2))).await;
    let out = Leg::Claude.stream(&served.url, Duration::from_secs(10), None).await;
    let Err(BackendError::CutOff { partial, reason, .. }) = &out.result else { panic!("{:?}", out.result) };
    assert_eq!(partial, "Five apps are running; electrs");
    assert_eq!(out.text(), *partial);
    assert!(reason.contains("overloaded_error"), "{reason}");
    assert!(!out.result.as_ref().unwrap_err().falls_through(), "text was shown: the next leg must not answer again");
}

/// The fixture's first two chunks by its own framing: two lines, or the events up to the first two text deltas.
fn first_two_chunks(leg: Leg, body: &[u8]) -> Vec<Vec<u8>> {
    let text = String::from_utf8(body.to_vec()).unwrap();
    let units: Vec<String> = match leg {
        Leg::Ollama => text.split_inclusive('\n').map(str::to_owned).collect(),
        Leg::Claude => text.split_inclusive("\n\n").map(str::to_owned).collect(),
    };
    match leg {
        Leg::Ollama => vec![units[0].clone().into_bytes(), units[1].clone().into_bytes()],
        // message_start, the text block's start, a ping and the first delta; then the second delta.
        Leg::Claude => vec![units[..4].concat().into_bytes(), units[4].clone().into_bytes()],
    }
}

#[tokio::test]
async fn a_stream_gone_silent_after_two_chunks_is_cut_off_after_the_idle_timeout() {
    let idle = Duration::from_millis(400);
    for (leg, fixture, expected) in [
        (Leg::Ollama, "ollama/stream_text.ndjson", "Five apps"),
        (Leg::Claude, "anthropic/stream_text.sse", "Five apps are running; electrs"),
    ] {
        let chunks = first_two_chunks(leg, &raw_fixture(fixture));
        let plan = Plan { chunks, delay: Duration::from_millis(20), then: Then::Silence };
        let served = stream_server(leg.path(), leg.content_type(), plan).await;
        let out = leg.stream(&served.url, idle, None).await;
        let Err(BackendError::CutOff { partial, reason, .. }) = &out.result else {
            panic!("{leg:?}: {:?}", out.result)
        };
        assert_eq!((partial.as_str(), out.text().as_str()), (expected, expected), "{leg:?}");
        assert!(reason.contains("silent"), "{leg:?}: {reason}");
        assert!(out.took >= idle && out.took < idle * 5, "{leg:?}: took {:?}", out.took);
    }
}

#[tokio::test]
async fn a_connection_cut_mid_stream_is_a_cut_off_with_the_text_shown() {
    for (leg, fixture, expected) in [
        (Leg::Ollama, "ollama/stream_text.ndjson", "Five apps"),
        (Leg::Claude, "anthropic/stream_text.sse", "Five apps are running; electrs"),
    ] {
        let chunks = first_two_chunks(leg, &raw_fixture(fixture));
        let plan = Plan { chunks, delay: Duration::from_millis(5), then: Then::Break };
        let served = stream_server(leg.path(), leg.content_type(), plan).await;
        let out = leg.stream(&served.url, Duration::from_secs(10), None).await;
        let Err(BackendError::CutOff { partial, .. }) = &out.result else { panic!("{leg:?}: {:?}", out.result) };
        assert_eq!(partial, expected, "{leg:?}");
        assert!(out.took < Duration::from_secs(5), "{leg:?}: a cut is noticed at once, not at the idle timeout");
    }
}

#[tokio::test]
async fn failures_before_the_first_chunk_are_sends_and_fall_through() {
    let api_error = json!({"type": "error", "error": {"type": "api_error", "message": "Internal server error"}});
    let overloaded = fixture("anthropic/error_overloaded.json");
    for (leg, url) in [
        (Leg::Ollama, failing_server(Leg::Ollama.path(), 500, json!({"error": "llama runner crashed"})).await),
        (Leg::Ollama, closing_server().await),
        (Leg::Claude, failing_server(Leg::Claude.path(), 500, api_error).await),
        (Leg::Claude, failing_server(Leg::Claude.path(), 529, overloaded).await),
        (Leg::Claude, closing_server().await),
    ] {
        let sent = leg.send(&url).await.unwrap_err();
        let out = leg.stream(&url, Duration::from_secs(10), None).await;
        let streamed = out.result.unwrap_err();
        assert_eq!(streamed, sent, "{leg:?} at {url}");
        assert!(streamed.falls_through(), "{leg:?}: {streamed}");
        assert!(out.deltas.is_empty());
    }
}

#[tokio::test]
async fn an_error_as_the_first_chunk_falls_through_like_the_http_error_it_stands_for() {
    let ollama_error =
        b"{\"error\":\"model requires more system memory (9.2 GiB) than is available (3.1 GiB)\"}\n".to_vec();
    let served = stream_server(
        Leg::Ollama.path(),
        NDJSON,
        Plan { chunks: vec![ollama_error], delay: Duration::ZERO, then: Then::End },
    )
    .await;
    let out = Leg::Ollama.stream(&served.url, Duration::from_secs(10), None).await;
    let Err(BackendError::Unavailable { reason, .. }) = &out.result else { panic!("{:?}", out.result) };
    assert!(reason.contains("more system memory"), "{reason}");

    // Anthropic's overloaded error after the 200, before any text: the same as its HTTP 529.
    let body = raw_fixture("anthropic/stream_error.sse");
    let text = String::from_utf8(body).unwrap();
    let events: Vec<&str> = text.split_inclusive("\n\n").collect();
    let error = events.iter().find(|e| e.starts_with("event: error")).unwrap();
    let chunks = vec![events[0].as_bytes().to_vec(), error.as_bytes().to_vec()];
    let served = stream_server(Leg::Claude.path(), SSE, Plan { chunks, delay: Duration::ZERO, then: Then::End }).await;
    let out = Leg::Claude.stream(&served.url, Duration::from_secs(10), None).await;
    let streamed = out.result.unwrap_err();
    let overloaded = failing_server(Leg::Claude.path(), 529, fixture("anthropic/error_overloaded.json")).await;
    let sent = Leg::Claude.send(&overloaded).await.unwrap_err();
    assert!(
        matches!((&streamed, &sent), (BackendError::Unavailable { .. }, BackendError::Unavailable { .. })),
        "{streamed:?} / {sent:?}"
    );
    assert!(streamed.falls_through(), "{streamed}");
    assert!(streamed.to_string().contains("overloaded_error"), "{streamed}");
}

#[tokio::test]
async fn a_server_that_ignores_stream_true_is_read_whole() {
    let claude = wire::anthropic(vec![(200, "anthropic/call_package_list.json")]).await;
    let out = Leg::Claude.stream(&claude.url, Duration::from_secs(10), None).await;
    assert_eq!(out.text(), "Let me check the node's apps.");
    assert_eq!(comparable(out.result.unwrap()), Leg::Claude.twin("anthropic/call_package_list.json"));
    // Ollama's single JSON reply is a one-line stream with `done: true`.
    let ollama = wire::ollama(true, vec!["ollama/chat_answer_packages.json"]).await;
    let out = Leg::Ollama.stream(&ollama.url, Duration::from_secs(10), None).await;
    assert_eq!(out.result.unwrap(), Leg::Ollama.twin("ollama/chat_answer_packages.json"));
    assert_eq!(out.deltas.len(), 1);
}
