//! `cargo bench -p aiui-web --bench load`: 20 LAN sessions on loopback, each running turns back to back against a
//! replaying backend for 60 s (AIUI_BENCH_SECONDS and AIUI_BENCH_SESSIONS change that), each as its own LAN address
//! behind the proxy. Prints the time from a turn's start (the POST) to its first event (p50/p99/max), the turns done
//! and the tries the service's turn limit (10 a minute per session) held back; fails if any event was lost
//! (a turn without its answer or its `done`, a gap in the event ids), delivered to another session (the
//! replaying backend echoes each turn's own words, so a stray answer shows) or a call got no answer. The sessions
//! are benches/lan/mod.rs's, shared with flood.rs.

// A bench's table is its output.
#![allow(clippy::print_stdout)]

#[path = "../tests/support/mod.rs"]
mod support;

mod lan;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use aiui_web::LoginLimits;
use lan::{Tally, env_or, ms, quantile};
use support::{LAN, Replies, harness_with};

fn main() {
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().expect("a runtime");
    runtime.block_on(bench());
}

async fn bench() {
    let seconds = env_or("AIUI_BENCH_SECONDS", 60);
    let sessions = env_or("AIUI_BENCH_SESSIONS", 20) as usize;
    let limits = LoginLimits { per_address: 1000, overall: 1000, window: Duration::from_secs(60) };
    // Behind the node's proxy: each session signs in as its own LAN address (the service holds few sessions, and
    // few turns a minute, per address).
    let h = Arc::new(harness_with(Replies::Echo, limits, false, |config| config.trust_proxy = true).await);
    let mut browsers = Vec::new();
    for i in 0..sessions {
        let address = Some(lan::lan_address(0, i));
        browsers.push(lan::sign_in(&h.http, &h.chat, &h.chat_origin, LAN, address).await.expect("a LAN session"));
    }
    let stop = Arc::new(AtomicBool::new(false));
    let tasks: Vec<_> = browsers
        .into_iter()
        .enumerate()
        .map(|(i, browser)| {
            let (h, stop) = (h.clone(), stop.clone());
            tokio::spawn(async move { lan::session(&h.http, i, &browser, &stop).await })
        })
        .collect();
    tokio::time::sleep(Duration::from_secs(seconds)).await;
    stop.store(true, Ordering::Relaxed);
    let mut all = Tally::default();
    for task in tasks {
        all.add(task.await.expect("a session task"));
    }
    all.first_event.sort();
    let pick = |q: f64| quantile(&all.first_event, q);
    println!("LAN service load: {sessions} sessions on loopback, {seconds} s, replaying backend (echo)");
    println!("{:<34} {:>12}", "measure", "value");
    println!("{:<34} {:>12}", "turns done", all.turns);
    println!("{:<34} {:>12.1}", "turns per second", all.turns as f64 / seconds as f64);
    println!("{:<34} {:>12}", "turn start -> first event, p50", ms(pick(0.50)));
    println!("{:<34} {:>12}", "turn start -> first event, p99", ms(pick(0.99)));
    println!("{:<34} {:>12}", "turn start -> first event, max", ms(pick(1.0)));
    println!("{:<34} {:>12}", "held back by the turn limit", all.held_back);
    println!("{:<34} {:>12}", "turns with a lost event", all.lost.len());
    println!("{:<34} {:>12}", "events for another session", all.misdelivered.len());
    println!("{:<34} {:>12}", "calls refused or unanswered", all.failed.len());
    assert!(all.turns >= sessions, "every session finished at least one turn");
    assert!(all.lost.is_empty(), "lost events: {:?}", &all.lost[..all.lost.len().min(5)]);
    assert!(all.misdelivered.is_empty(), "misdelivered: {:?}", &all.misdelivered[..all.misdelivered.len().min(5)]);
    assert!(all.failed.is_empty(), "failed calls: {:?}", &all.failed[..all.failed.len().min(5)]);
}
