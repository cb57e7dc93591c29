//! `cargo bench -p aiui-web --bench stream_sse`: the LAN SSE path's delay for a streamed answer. A local model on
//! loopback streams pieces stamped with the moment each was written; LAN sessions read their turn's events and
//! take each `text_delta`'s age on arrival (same process, same clock): the whole path from the backend's write,
//! through the loop and the turn log, to the page's event stream. One session, then 20 at once, in one run.

// A bench's table is its output.
#![allow(clippy::print_stdout)]

#[path = "../tests/support/mod.rs"]
mod support;

mod lan;

use std::sync::Arc;
use std::time::Duration;

use aiui_web::LoginLimits;
use serde_json::{Value, json};
use support::{LAN, Replies, clock, harness_with};

/// Runs `turns` turns on each of `sessions` sessions at once; returns every piece's age on arrival.
async fn ages(sessions: usize, turns: usize) -> Vec<Duration> {
    let limits = LoginLimits { per_address: 1000, overall: usize::MAX, window: Duration::from_secs(60) };
    let replies = Replies::Stamped { pieces: 20, every: Duration::from_millis(5) };
    let h = Arc::new(harness_with(replies, limits, false, |config| config.trust_proxy = true).await);
    let mut tasks = Vec::new();
    for i in 0..sessions {
        let h = h.clone();
        tasks.push(tokio::spawn(async move {
            let address = Some(lan::lan_address(1, i));
            // Twenty at once exceed the two passphrase checks that run at a time: a refused one tries again.
            let mut tries = 0;
            let browser = loop {
                match lan::sign_in(&h.http, &h.chat, &h.chat_origin, LAN, address).await {
                    Ok(browser) => break browser,
                    Err(e) if e.contains("429") && tries < 100 => {
                        tries += 1;
                        tokio::time::sleep(Duration::from_millis(50)).await;
                    }
                    Err(e) => panic!("a LAN session: {e}"),
                }
            };
            let mut ages = Vec::new();
            for n in 0..turns {
                let args = json!({ "conversation": null, "text": format!("session {i} turn {n}") });
                let (status, started) = lan::invoke(&h.http, &browser, "chat_send", args).await.expect("an answer");
                assert_eq!(status, 200, "{started}");
                let turn = started["turn"].as_str().unwrap().to_owned();
                ages.extend(read_ages(&h.http, &browser, &turn).await);
            }
            ages
        }));
    }
    let mut all = Vec::new();
    for task in tasks {
        all.extend(task.await.expect("a session"));
    }
    all.sort();
    all
}

/// Reads a turn's events to its end, taking each `text_delta`'s age (its stamp against [`clock`]) on arrival.
async fn read_ages(http: &reqwest::Client, browser: &support::Browser, turn: &str) -> Vec<Duration> {
    let mut response = http
        .get(format!("{}api/turns/{turn}/events", browser.base))
        .header("cookie", &browser.cookie)
        .send()
        .await
        .expect("the event stream");
    let (mut buffer, mut ages) = (String::new(), Vec::new());
    while let Some(chunk) = response.chunk().await.expect("the events") {
        let now = clock().elapsed();
        buffer.push_str(&String::from_utf8_lossy(&chunk));
        while let Some(end) = buffer.find("\n\n") {
            let block: String = buffer.drain(..end + 2).collect();
            let Some(data) = block.lines().find_map(|l| l.strip_prefix("data:")) else { continue };
            let Ok(event) = serde_json::from_str::<Value>(data.trim()) else { continue };
            if event["event"] != "text_delta" {
                continue;
            }
            // A delta may carry several pieces when they arrived together: each is aged.
            for stamp in event["text"].as_str().unwrap_or_default().split_whitespace() {
                if let Some(micros) = stamp.strip_prefix('t').and_then(|t| t.parse::<u64>().ok()) {
                    ages.push(now.saturating_sub(Duration::from_micros(micros)));
                }
            }
        }
    }
    ages
}

#[tokio::main(flavor = "multi_thread")]
async fn main() {
    let turns = lan::env_or("AIUI_BENCH_TURNS", 8) as usize;
    let sessions = lan::env_or("AIUI_BENCH_SESSIONS", 20) as usize;
    let one = ages(1, turns).await;
    let many = ages(sessions, turns).await;
    let pick = |all: &[Duration], q: f64| lan::quantile(all, q);
    println!(
        "LAN SSE path: a piece's age from the backend's write to the page's event stream ({turns} turns each, 20 pieces a turn)"
    );
    println!("{:<28} {:>8} {:>10} {:>10} {:>10}", "", "pieces", "p50", "p99", "max");
    for (name, all) in [("1 session".to_owned(), &one), (format!("{sessions} sessions at once"), &many)] {
        println!(
            "{:<28} {:>8} {:>10} {:>10} {:>10}",
            name,
            all.len(),
            lan::ms(pick(all, 0.5)),
            lan::ms(pick(all, 0.99)),
            lan::ms(pick(all, 1.0))
        );
    }
    let added = pick(&many, 0.99).saturating_sub(pick(&one, 0.99));
    println!("{:<28} {:>8} {:>10} {:>10}", "added by the load, p99", "", "", lan::ms(added));
    assert_eq!(one.len(), turns * 20, "every piece of every turn arrived");
    assert_eq!(many.len(), sessions * turns * 20, "every piece of every turn arrived");
}
