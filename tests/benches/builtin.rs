//! Bench: the built-in leg with the real model: load time, the RSS the leg adds, time from a request to the chosen
//! action (p50/p99 over the phrasing table), and tokens per second. Prints a table.
//!
//! Run: `cargo bench -p aiui-tests --bench builtin` (after `bash scripts/setup` fetched the model). The time to
//! the chosen action is the scoring plus the decision, with the package list already read (one loopback RPC).

#![allow(clippy::print_stdout)] // A bench's table is its output.

#[path = "../builtin/table.rs"]
#[allow(dead_code, reason = "the bench reads only the phrasings")]
mod table;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use aiui_core::backends::builtin::apps::model_input;
use aiui_core::backends::builtin::{IntentScorer, decide};
use aiui_core::node::Package;
use aiui_llama::SmolLm;

const ROUNDS: usize = 1;

fn rss_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}

fn demo_packages() -> Vec<Package> {
    let apps = [
        ("bitcoin-knots", "Bitcoin Knots"),
        ("lnd", "LND"),
        ("electrs", "Electrs"),
        ("mempool", "Mempool"),
        ("btcpay", "BTCPay Server"),
        ("nostr-rs-relay", "Nostr Relay"),
        ("fedimint", "Fedimint Guardian"),
        ("tailscale", "Tailscale"),
        ("nextcloud", "Nextcloud"),
    ];
    apps.iter()
        .map(|(id, title)| {
            serde_json::from_value(serde_json::json!({"id": id, "title": title, "version": "1", "state": "running"}))
                .expect("a package")
        })
        .collect()
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let index = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[index]
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let dir = std::env::var_os("AIUI_MODEL_DIR").map(PathBuf::from).unwrap_or_else(|| {
        aiui_core::paths::default_data_dir().expect("a data dir (set HOME or AIUI_MODEL_DIR)").join("models")
    });
    let model = SmolLm::in_dir(&dir);
    if let Err(reason) = model.ready() {
        panic!("the bench needs the built-in model: {reason}");
    }
    let packages = demo_packages();
    let before = rss_kib();
    let report = model.load().await.expect("the model loads");
    let (mut times, mut tokens, mut busy) = (Vec::new(), 0usize, Duration::ZERO);
    for _ in 0..ROUNDS {
        for (request, _) in table::TABLE {
            let start = Instant::now();
            let scores = model.score_timed(&model_input(request, &packages)).await.expect("a scoring");
            let _decision = decide(request, &scores.calibrated, true, &packages);
            times.push(start.elapsed());
            tokens += scores.tokens_decoded;
            busy += scores.elapsed;
        }
    }
    let after = rss_kib();
    assert!(model.score("restart lnd").await.is_ok());
    times.sort();
    println!(
        "built-in leg (SmolLM2-135M, {} scoring thread(s) of {} cores; AIUI_MODEL_THREADS sets it)",
        aiui_llama::default_threads(),
        std::thread::available_parallelism().map_or(0, |n| n.get())
    );
    println!("  model load (file → prefix of {} tokens cached): {:>8.1?}", report.prefix_tokens, report.load);
    println!(
        "  RSS added by the leg (load + {} scorings):    {:>8.1} MB",
        times.len(),
        (after.saturating_sub(before)) as f64 / 1024.0
    );
    println!("  request → chosen action, p50:                  {:>8.1?}", percentile(&times, 0.50));
    println!("  request → chosen action, p99:                  {:>8.1?}", percentile(&times, 0.99));
    println!("  tokens decoded per second (request + 13 candidates): {:>6.0}", tokens as f64 / busy.as_secs_f64());
}
