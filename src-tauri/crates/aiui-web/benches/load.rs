//! `cargo bench -p aiui-web --bench load`: 20 LAN sessions on loopback, each running turns back to back against a
//! replaying backend for 60 s (AIUI_BENCH_SECONDS and AIUI_BENCH_SESSIONS change that). Prints the time from a
//! turn's start (the POST) to its first event (p50/p99/max) and the turns done; fails if any event was lost
//! (a turn without its answer or its `done`, a gap in the event ids) or delivered to another session (the
//! replaying backend echoes each turn's own words, so a stray answer shows).

// A bench's table is its output.
#![allow(clippy::print_stdout)]

#[path = "../tests/support/mod.rs"]
mod support;

use std::time::{Duration, Instant};

use aiui_web::LoginLimits;
use serde_json::{Value, json};
use support::{Browser, Harness, Replies, harness};

#[derive(Default)]
struct Tally {
    first_event: Vec<Duration>,
    turns: usize,
    lost: Vec<String>,
    misdelivered: Vec<String>,
}

fn env_or(name: &str, default: u64) -> u64 {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

fn main() {
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().expect("a runtime");
    runtime.block_on(bench());
}

async fn bench() {
    let seconds = env_or("AIUI_BENCH_SECONDS", 60);
    let sessions = env_or("AIUI_BENCH_SESSIONS", 20) as usize;
    let limits = LoginLimits { per_address: 1000, overall: 1000, window: Duration::from_secs(60) };
    let h = std::sync::Arc::new(harness(Replies::Echo, limits).await);
    let mut browsers = Vec::new();
    for _ in 0..sessions {
        browsers.push(h.sign_in(false).await);
    }
    let deadline = Instant::now() + Duration::from_secs(seconds);
    let tasks: Vec<_> = browsers
        .into_iter()
        .enumerate()
        .map(|(i, browser)| {
            let h = h.clone();
            tokio::spawn(async move { session(&h, i, &browser, deadline).await })
        })
        .collect();
    let mut all = Tally::default();
    for task in tasks {
        let tally = task.await.expect("a session task");
        all.first_event.extend(tally.first_event);
        all.turns += tally.turns;
        all.lost.extend(tally.lost);
        all.misdelivered.extend(tally.misdelivered);
    }
    all.first_event.sort();
    let pick = |q: f64| {
        let v = &all.first_event;
        if v.is_empty() { Duration::ZERO } else { v[((v.len() - 1) as f64 * q).round() as usize] }
    };
    let ms = |d: Duration| format!("{:.1} ms", d.as_secs_f64() * 1000.0);
    println!("LAN service load: {sessions} sessions on loopback, {seconds} s, replaying backend (echo)");
    println!("{:<34} {:>12}", "measure", "value");
    println!("{:<34} {:>12}", "turns done", all.turns);
    println!("{:<34} {:>12.1}", "turns per second", all.turns as f64 / seconds as f64);
    println!("{:<34} {:>12}", "turn start -> first event, p50", ms(pick(0.50)));
    println!("{:<34} {:>12}", "turn start -> first event, p99", ms(pick(0.99)));
    println!("{:<34} {:>12}", "turn start -> first event, max", ms(pick(1.0)));
    println!("{:<34} {:>12}", "turns with a lost event", all.lost.len());
    println!("{:<34} {:>12}", "events for another session", all.misdelivered.len());
    assert!(all.turns >= sessions, "every session finished at least one turn");
    assert!(all.lost.is_empty(), "lost events: {:?}", &all.lost[..all.lost.len().min(5)]);
    assert!(all.misdelivered.is_empty(), "misdelivered: {:?}", &all.misdelivered[..all.misdelivered.len().min(5)]);
}

async fn session(h: &Harness, index: usize, browser: &Browser, deadline: Instant) -> Tally {
    let mut tally = Tally::default();
    let mut conversation: Option<String> = None;
    let mut n = 0;
    while Instant::now() < deadline {
        n += 1;
        let text = format!("session {index} turn {n} {}", rand_suffix());
        let started = Instant::now();
        let (status, answer) =
            h.invoke(browser, "chat_send", json!({ "conversation": conversation, "text": text })).await;
        assert_eq!(status, 200, "chat_send: {answer}");
        conversation = answer["conversation"].as_str().map(str::to_owned);
        let turn = answer["turn"].as_str().expect("a turn id").to_owned();
        let (first, events) = read_events(h, browser, &turn, started).await;
        tally.turns += 1;
        if let Some(first) = first {
            tally.first_event.push(first);
        }
        let ids_contiguous = events.iter().enumerate().all(|(i, (id, _))| *id == i);
        let kinds: Vec<&str> = events.iter().filter_map(|(_, e)| e["event"].as_str()).collect();
        let texts: Vec<&str> = events.iter().filter_map(|(_, e)| e["text"].as_str()).collect();
        if !ids_contiguous || kinds.last() != Some(&"done") || texts.is_empty() {
            tally.lost.push(format!("{text}: {kinds:?}"));
        }
        if texts.iter().any(|t| *t != format!("echo: {text}")) {
            tally.misdelivered.push(format!("{text}: got {texts:?}"));
        }
    }
    tally
}

fn rand_suffix() -> String {
    format!("{:08x}", rand::random::<u32>())
}

/// Reads a turn's SSE stream to its end; returns the time from `started` to the first event and every (id, event).
async fn read_events(
    h: &Harness,
    browser: &Browser,
    turn: &str,
    started: Instant,
) -> (Option<Duration>, Vec<(usize, Value)>) {
    let mut response = h
        .http
        .get(format!("{}api/turns/{turn}/events", browser.base))
        .header("cookie", &browser.cookie)
        .send()
        .await
        .expect("the events stream");
    assert_eq!(response.status(), 200);
    let (mut buffer, mut events, mut first) = (String::new(), Vec::new(), None);
    loop {
        let chunk = tokio::time::timeout(Duration::from_secs(30), response.chunk()).await;
        let Ok(Ok(Some(chunk))) = chunk else { break };
        buffer.push_str(&String::from_utf8_lossy(&chunk));
        while let Some(end) = buffer.find("\n\n") {
            let block: String = buffer.drain(..end + 2).collect();
            let (mut id, mut data) = (None, None);
            for line in block.lines() {
                if let Some(v) = line.strip_prefix("id: ").or_else(|| line.strip_prefix("id:")) {
                    id = v.trim().parse::<usize>().ok();
                }
                if let Some(v) = line.strip_prefix("data: ").or_else(|| line.strip_prefix("data:")) {
                    data = serde_json::from_str::<Value>(v).ok();
                }
            }
            if let (Some(id), Some(data)) = (id, data) {
                first.get_or_insert_with(|| started.elapsed());
                events.push((id, data));
            }
        }
    }
    (first, events)
}
