//! Bench: what the loop itself costs, each figure beside its baseline from the same run. Prints a table.
//!
//! Run: `cargo bench -p aiui-tests --bench loop` (or `scripts/bench`). Every part is real and in-process: the
//! devnode, loopback wire servers in the exact Anthropic format, the cdk mint, the Nostr relay and the Routstr
//! provider from `tests/support`. Read the ratios; absolute times on a shared machine are noise-prone.

#![allow(clippy::print_stdout)] // A bench's table is its output.

#[path = "../support/mod.rs"]
#[allow(dead_code, unused_imports)]
mod support;

use std::time::{Duration, Instant};

use aiui_core::agent::{HISTORY_WINDOW, OperatorConfig, TurnOutcome};
use aiui_core::backends::chain::{Chain, Leg, TurnContext};
use aiui_core::backends::{ChatRequest, Message};
use aiui_core::budget::PaymentPolicy;
use aiui_core::store::ConversationId;
use aiui_core::tools::Registry;
use serde_json::{Value, json};

use support::assistant::{API_KEY, Harness, claude_leg, harness_with, ollama_leg};
use support::paid::{openai, paid};
use support::wire;

fn claude_text(text: &str) -> Value {
    json!({"id": "msg_bench", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5-20250929",
        "content": [{"type": "text", "text": text}], "stop_reason": "end_turn",
        "usage": {"input_tokens": 10, "output_tokens": 3}})
}

/// A Claude wire server that answers `n` times with a short text.
async fn claude_server(n: usize) -> wire::WireServer {
    wire::anthropic_replies((0..n).map(|_| (200, claude_text("All apps are running."))).collect()).await
}

struct Stats {
    p50: Duration,
    p99: Duration,
}

fn stats(mut times: Vec<Duration>) -> Stats {
    times.sort();
    let n = times.len();
    Stats { p50: times[n / 2], p99: times[(n * 99 / 100).min(n - 1)] }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

async fn answered(h: &Harness, text: &str) -> Duration {
    let start = Instant::now();
    let (_, outcome) = h.turn(text, None).await;
    let took = start.elapsed();
    assert!(matches!(outcome, TurnOutcome::Answered { .. }), "the turn was answered: {outcome:?}");
    took
}

/// Times `rounds` turns of a fresh harness on `chain`; returns the first (cold) turn and the rest.
async fn turns(chain: Chain, rounds: usize) -> (Duration, Vec<Duration>, Harness) {
    let h = harness_with(chain, Duration::from_secs(30)).await;
    let cold = answered(&h, "Is everything running?").await;
    let mut warm = Vec::with_capacity(rounds);
    for _ in 0..rounds {
        warm.push(answered(&h, "Is everything running?").await);
    }
    (cold, warm, h)
}

/// The backend call alone: the Claude leg's send over loopback of the body a turn in a new conversation sends
/// (the same system prompt, tools, limit and one owner message), built once, as the loop makes it.
async fn backend_alone(rounds: usize) -> Vec<Duration> {
    let server = claude_server(rounds + 1).await;
    let leg = claude_leg(&server.url, Some(API_KEY));
    // The leg's own allowance, as a turn's snapshot of it: with none, Claude is passed over.
    let Leg::Claude(claude) = &leg else { unreachable!("claude_leg makes a Claude leg") };
    let claude = claude.allowance().policy();
    let context = TurnContext { policy: PaymentPolicy::nothing(), claude, node: None, locale: Default::default() };
    let config = OperatorConfig::default();
    let request = ChatRequest {
        system: config.system_prompt.clone(),
        messages: vec![Message::User { text: QUESTION.into() }],
        tools: Registry::node_tools().defs(&config.grants),
        max_tokens: config.max_tokens,
    };
    let id = leg.check(&request, &context).await.expect("the Claude leg is usable");
    let body = leg.request_body(&id, &request);
    leg.send(&id, body.clone(), &context).await.expect("a warm-up answer");
    let mut times = Vec::with_capacity(rounds);
    for _ in 0..rounds {
        let body = body.clone();
        let start = Instant::now();
        leg.send(&id, body, &context).await.expect("an answer");
        times.push(start.elapsed());
    }
    times
}

const QUESTION: &str = "Is everything running?";

/// One turn in `conversation`, timed from the call to the answer (events are read after).
async fn answered_in(h: &Harness, conversation: &ConversationId) -> Duration {
    let (events, _) = tokio::sync::mpsc::unbounded_channel();
    let start = Instant::now();
    let outcome = h.agent.turn(conversation, QUESTION, &events).await.expect("the turn ran");
    let took = start.elapsed();
    assert!(matches!(outcome, TurnOutcome::Answered { .. }), "the turn was answered: {outcome:?}");
    took
}

/// Each timed turn opens a new conversation, so the turn sends the same body as the baseline: a turn in a long
/// conversation sends its history too, which is the store section's question, not this one's.
async fn overhead() {
    const ROUNDS: usize = 300;
    let backend = stats(backend_alone(ROUNDS).await);
    let server = claude_server(ROUNDS + 1).await;
    let h = harness_with(Chain::new(vec![claude_leg(&server.url, Some(API_KEY))]), Duration::from_secs(30)).await;
    answered(&h, QUESTION).await;
    let mut warm = Vec::with_capacity(ROUNDS);
    for _ in 0..ROUNDS {
        let conversation = h.agent.store.create_conversation("bench").expect("a conversation");
        warm.push(answered_in(&h, &conversation).await);
    }
    let turn = stats(warm);
    println!("loop overhead per turn ({ROUNDS} turns, each the first of a new conversation; Claude leg on a loopback");
    println!("wire server, so screening runs; the baseline sends the same body over the same loopback)");
    println!("{:<40} {:>10} {:>10}", "", "p50 ms", "p99 ms");
    println!("{:<40} {:>10.3} {:>10.3}", "backend call alone (send over loopback)", ms(backend.p50), ms(backend.p99));
    println!("{:<40} {:>10.3} {:>10.3}", "whole turn", ms(turn.p50), ms(turn.p99));
    let (o50, o99) = (turn.p50.saturating_sub(backend.p50), turn.p99.saturating_sub(backend.p99));
    let verdict = |ok: bool| if ok { "met" } else { "MISSED" };
    println!(
        "{:<40} {:>10.3} {:>10.3}   goal <= 1 / <= 5 ms: {} / {}",
        "overhead (turn - backend)",
        ms(o50),
        ms(o99),
        verdict(o50 <= Duration::from_millis(1)),
        verdict(o99 <= Duration::from_millis(5))
    );
    println!();
}

async fn fallthrough() {
    const ROUNDS: usize = 50;
    println!("fallthrough past a dead local leg to Claude ({ROUNDS} warm turns each)");
    println!(
        "{:<28} {:>10} {:>14} {:>14} {:>16}",
        "local leg", "cold ms", "warm p50 ms", "warm p99 ms", "warm extra ms"
    );
    let server = claude_server(ROUNDS + 1).await;
    let (cold, warm, _h) = turns(Chain::new(vec![claude_leg(&server.url, Some(API_KEY))]), ROUNDS).await;
    let none = stats(warm);
    println!("{:<28} {:>10.2} {:>14.3} {:>14.3} {:>16}", "none", ms(cold), ms(none.p50), ms(none.p99), "-");
    let (hole, _) = wire::black_hole().await;
    for (name, url) in [("refused", wire::refused()), ("hung (accepts, silent)", hole)] {
        let server = claude_server(ROUNDS + 1).await;
        let chain = Chain::new(vec![ollama_leg(&url), claude_leg(&server.url, Some(API_KEY))]);
        let (cold, warm, _h) = turns(chain, ROUNDS).await;
        let warm = stats(warm);
        let extra = warm.p50.saturating_sub(none.p50);
        let met = if extra <= Duration::from_millis(5) { "met" } else { "MISSED" };
        println!(
            "{name:<28} {:>10.2} {:>14.3} {:>14.3} {:>10.3} (goal <= 5: {met})",
            ms(cold),
            ms(warm.p50),
            ms(warm.p99),
            ms(extra)
        );
    }
    println!();
}

/// AIUI's mint requests per path between two snapshots of [`support::mint::TestMint::aiui_requests_by_path`].
fn path_delta(before: &[(String, usize)], after: &[(String, usize)]) -> Vec<(String, usize)> {
    after
        .iter()
        .map(|(path, n)| (path.clone(), n - before.iter().find(|(p, _)| p == path).map_or(0, |(_, b)| *b)))
        .filter(|(_, n)| *n > 0)
        .collect()
}

fn show_paths(paths: &[(String, usize)], per: usize) -> String {
    let shown: Vec<String> =
        paths.iter().map(|(path, n)| format!("{path} {}", trim_float(*n as f64 / per as f64))).collect();
    if shown.is_empty() { "none".into() } else { shown.join(", ") }
}

fn trim_float(x: f64) -> String {
    if x.fract() == 0.0 { format!("{x:.0}") } else { format!("{x:.1}") }
}

/// Discovery and payment on the Routstr leg: relay REQs counted at the relay, AIUI's requests counted at the mint
/// per path (the test provider's own requests to redeem and make change are left out).
async fn paid_turns() {
    const ROUNDS: usize = 10;
    let replies = (0..=ROUNDS).map(|_| openai("answer_plain.json")).collect();
    let p = paid(100_000, replies).await;
    let (relay0, mint0, paths0) = (p.relay.queries(), p.mint.aiui_requests(), p.mint.aiui_requests_by_path());
    let cold = answered(&p.h, "Is everything running?").await;
    let (relay1, mint1, paths1) = (p.relay.queries(), p.mint.aiui_requests(), p.mint.aiui_requests_by_path());
    let mut warm = Vec::with_capacity(ROUNDS);
    for _ in 0..ROUNDS {
        warm.push(answered(&p.h, "Is everything running?").await);
    }
    let (relay2, mint2, paths2) = (p.relay.queries(), p.mint.aiui_requests(), p.mint.aiui_requests_by_path());
    p.assert_ceiling_and_conservation().await;
    let warm = stats(warm);

    let server = claude_server(ROUNDS + 1).await;
    let (_, unpaid, _h) = turns(Chain::new(vec![claude_leg(&server.url, Some(API_KEY))]), ROUNDS).await;
    let unpaid = stats(unpaid);

    let relay_warm = relay2 - relay1;
    let mint_warm = (mint2 - mint1) as f64 / ROUNDS as f64;
    println!("the paid (Routstr) leg: cold = first turn (discovery, probe), warm = the next {ROUNDS}");
    println!("{:<40} {:>10} {:>14} {:>16}", "", "p50 ms", "relay REQs", "mint requests");
    println!("{:<40} {:>10.2} {:>14} {:>16}", "cold paid turn", ms(cold), relay1 - relay0, mint1 - mint0);
    println!(
        "{:<40} {:>10.2} {:>14} {:>16.1}   goal 0 REQs: {}; <= 2 mint/request: {}",
        "warm paid turn (per turn)",
        ms(warm.p50),
        relay_warm,
        mint_warm,
        if relay_warm == 0 { "met" } else { "MISSED" },
        if mint_warm <= 2.0 { "met" } else { "MISSED" }
    );
    println!("{:<40} {:>10.2} {:>14} {:>16}", "unpaid turn (Claude leg), baseline", ms(unpaid.p50), "-", "-");
    println!("{:<40} {:>9.1}x", "paid / unpaid", warm.p50.as_secs_f64() / unpaid.p50.as_secs_f64());
    println!("  AIUI's mint requests by path, cold turn: {}", show_paths(&path_delta(&paths0, &paths1), 1));
    println!("  AIUI's mint requests by path, per warm turn: {}", show_paths(&path_delta(&paths1, &paths2), ROUNDS));
    println!();
}

/// A Messages server that reads each request whole and answers it without parsing it. Anthropic's parse of a
/// longer body is Anthropic's cost; the wire server parses every body into a tree and keeps it, which in this one
/// process on two cores costs as much again as the loop's own work on a 200-message window.
async fn reading_claude_server() -> String {
    let reply = claude_text("All apps are running.");
    let router = axum::Router::new().route(
        "/v1/messages",
        axum::routing::post(move |body: axum::body::Bytes| {
            let reply = reply.clone();
            async move {
                assert!(body.starts_with(b"{"), "a JSON body came");
                axum::Json(reply)
            }
        }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, router).await });
    url
}

/// Which server a history turn is sent to.
#[derive(Clone, Copy)]
enum Peer {
    /// The wire server, which parses and keeps every body.
    Parsing,
    /// [`reading_claude_server`]: the loop's own cost.
    Reading,
}

/// A turn at the end of a conversation of `messages` earlier messages.
async fn history(messages: usize, rounds: usize, peer: Peer) -> Stats {
    let (url, _kept) = match peer {
        Peer::Parsing => {
            let server = claude_server(rounds + 1).await;
            (server.url.clone(), Some(server))
        }
        Peer::Reading => (reading_claude_server().await, None),
    };
    let h = harness_with(Chain::new(vec![claude_leg(&url, Some(API_KEY))]), Duration::from_secs(30)).await;
    for i in 0..messages / 2 {
        let user = Message::User { text: format!("Question {i}: how is lnd doing today?") };
        let reply =
            Message::Assistant { text: format!("Answer {i}: lnd is running, 12 channels open."), tool_calls: vec![] };
        h.agent.store.append_message(&h.conversation, &user, None).expect("stored");
        h.agent.store.append_message(&h.conversation, &reply, None).expect("stored");
    }
    let mut times = Vec::with_capacity(rounds);
    for _ in 0..rounds {
        times.push(answered(&h, "Is everything running?").await);
    }
    // What loading the history costs the two ways: the whole conversation (before the window) and the window.
    let (mut whole, mut window) = (Vec::new(), Vec::new());
    for _ in 0..rounds {
        let start = Instant::now();
        let all = h.agent.store.load(&h.conversation).expect("loaded").messages();
        whole.push(start.elapsed());
        let start = Instant::now();
        let recent = h.agent.store.recent_messages(&h.conversation, HISTORY_WINDOW).expect("loaded");
        window.push(start.elapsed());
        assert!(recent.len() <= HISTORY_WINDOW && recent.len() <= all.len());
    }
    let (whole, window) = (stats(whole), stats(window));
    println!(
        "  ({messages} messages: loading all of them {:.2} ms p50, the last {HISTORY_WINDOW} {:.2} ms p50)",
        ms(whole.p50),
        ms(window.p50)
    );
    stats(times)
}

async fn store() {
    const ROUNDS: usize = 20;
    let small = history(10, ROUNDS, Peer::Reading).await;
    let large = history(10_000, ROUNDS, Peer::Reading).await;
    let parsed_small = history(10, ROUNDS, Peer::Parsing).await;
    let parsed_large = history(10_000, ROUNDS, Peer::Parsing).await;
    let ratio = large.p50.as_secs_f64() / small.p50.as_secs_f64();
    let parsed_ratio = parsed_large.p50.as_secs_f64() / parsed_small.p50.as_secs_f64();
    println!("a turn by conversation length ({ROUNDS} turns each; the server reads each body, or also parses it)");
    println!("{:<40} {:>10} {:>10} {:>14} {:>14}", "", "p50 ms", "p99 ms", "parsed p50", "parsed p99");
    for (name, reading, parsing) in
        [("10 earlier messages", &small, &parsed_small), ("10 000 earlier messages", &large, &parsed_large)]
    {
        let (r50, r99, p50, p99) = (ms(reading.p50), ms(reading.p99), ms(parsing.p50), ms(parsing.p99));
        println!("{name:<40} {r50:>10.2} {r99:>10.2} {p50:>14.2} {p99:>14.2}");
    }
    // The window is fixed, and earlier turns are remembered screened: nothing but new text should cost the loop.
    println!(
        "{:<40} {:>9.2}x {:>10} {:>13.2}x   goal <= 1.3x (the loop's own): {}",
        "ratio",
        ratio,
        "",
        parsed_ratio,
        if ratio <= 1.3 { "met" } else { "MISSED" }
    );
    println!();
}

/// A local Ollama on loopback whose every `/api/chat` answer streams 20 NDJSON pieces after 5 ms; it stamps the
/// moment its first piece is handed to the connection (same process, same clock as the reader's).
async fn stamping_ollama() -> (String, std::sync::Arc<std::sync::Mutex<Vec<Instant>>>) {
    use axum::body::{Body, Bytes};
    use futures_util::StreamExt;
    let stamps = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let written = stamps.clone();
    let router = axum::Router::new()
        .route("/api/tags", axum::routing::get(|| async { axum::Json(wire::fixture("ollama/tags.json")) }))
        .route("/api/show", axum::routing::post(|| async { axum::Json(wire::fixture("ollama/show_tools.json")) }))
        .route(
            "/api/chat",
            axum::routing::post(move || {
                let written = written.clone();
                async move {
                    let pieces = futures_util::stream::iter(0..21).then(move |n| {
                        let written = written.clone();
                        async move {
                            tokio::time::sleep(Duration::from_millis(if n == 0 { 5 } else { 1 })).await;
                            let line = if n == 20 {
                                json!({"model": "qwen2.5:7b", "message": {"role": "assistant", "content": ""}, "done": true, "eval_count": 20})
                            } else {
                                json!({"model": "qwen2.5:7b", "message": {"role": "assistant", "content": format!("piece{n} ")}, "done": false})
                            };
                            if n == 0 {
                                written.lock().unwrap().push(Instant::now());
                            }
                            Ok::<_, std::io::Error>(Bytes::from(format!("{line}\n")))
                        }
                    });
                    ([("content-type", "application/x-ndjson")], Body::from_stream(pieces))
                }
            }),
        );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/", listener.local_addr().unwrap());
    // No Nagle: a small piece after the headers would otherwise wait for the reader's delayed ACK (~40 ms), which
    // measures the kernel, not the loop.
    use axum::serve::ListenerExt;
    let listener = listener.tap_io(|tcp| {
        let _ = tcp.set_nodelay(true);
    });
    tokio::spawn(async move { axum::serve(listener, router).await });
    (url, stamps)
}

/// From the backend's first byte to the first `TextDelta` the loop emits, beside the backend's own first byte as
/// a bare HTTP client reads it, in one run.
async fn streaming() {
    let rounds = 200;
    let (url, stamps) = stamping_ollama().await;
    let http = aiui_core::net::client(&aiui_core::net::ClientSpec::default()).unwrap().http;
    let mut bare = Vec::new();
    for _ in 0..rounds {
        let mut response = http.post(format!("{url}api/chat")).json(&json!({})).send().await.unwrap();
        response.chunk().await.unwrap().expect("a first piece");
        let read = Instant::now();
        bare.push(read - *stamps.lock().unwrap().last().unwrap());
        while response.chunk().await.unwrap().is_some() {}
    }
    let h = harness_with(Chain::new(vec![ollama_leg(&url)]), Duration::from_secs(30)).await;
    let mut through_loop = Vec::new();
    for _ in 0..rounds {
        let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
        let (agent, conversation) = (h.agent.clone(), h.agent.store.create_conversation("bench").unwrap());
        let turn = tokio::spawn(async move { agent.turn(&conversation, "what is running?", &tx).await });
        let mut first = None;
        while let Some(event) = rx.recv().await {
            if first.is_none() && matches!(event, aiui_core::agent::Event::TextDelta { .. }) {
                first = Some(Instant::now());
            }
        }
        assert!(matches!(turn.await.unwrap().unwrap(), TurnOutcome::Answered { .. }));
        through_loop.push(first.expect("a delta") - *stamps.lock().unwrap().last().unwrap());
    }
    let (bare, through) = (stats(bare), stats(through_loop));
    let added = through.p99.saturating_sub(bare.p99);
    println!("streaming: backend's first byte to the first visible piece ({rounds} answers each, loopback Ollama)");
    println!("{:<40} {:>10} {:>10}", "", "p50 ms", "p99 ms");
    println!("{:<40} {:>10.3} {:>10.3}", "first byte, bare HTTP client", ms(bare.p50), ms(bare.p99));
    println!("{:<40} {:>10.3} {:>10.3}", "first TextDelta, through the loop", ms(through.p50), ms(through.p99));
    println!(
        "{:<40} {:>10.3}   goal <= 2 ms: {}",
        "added at p99",
        ms(added),
        if added <= Duration::from_millis(2) { "met" } else { "MISSED" }
    );
    println!();
}

/// `cargo bench -p aiui-tests --bench loop -- store paid` runs only the sections named; none named runs all.
#[tokio::main]
async fn main() {
    let named: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with("--")).collect();
    let wanted = |section: &str| named.is_empty() || named.iter().any(|n| n == section);
    if wanted("overhead") {
        overhead().await;
    }
    if wanted("fallthrough") {
        fallthrough().await;
    }
    if wanted("paid") {
        paid_turns().await;
    }
    if wanted("store") {
        store().await;
    }
    if wanted("streaming") {
        streaming().await;
    }
}
