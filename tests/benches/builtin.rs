//! Bench: the built-in leg with the real model: load time, the RSS the leg adds, time from a request to the chosen
//! action (p50/p99 over the phrasing table), and tokens per second, beside the baseline from the same run: the same
//! engine scoring the longer continuations the leg used before issue 28 (requests alternate between the two, so
//! both see the same machine). Prints a table.
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
use aiui_core::backends::builtin::{IntentScorer, decide, scoring_prompt};
use aiui_core::i18n::Locale;
use aiui_core::node::Package;
use aiui_llama::SmolLm;

const ROUNDS: usize = 1;

/// The goal for request → chosen action at the median (issue 28), with the default threads on two cores.
const GOAL_P50: Duration = Duration::from_millis(500);

/// The continuations scored before issue 28, in `Intent::ALL` order: the baseline.
const BASELINE_CONTINUATIONS: [&str; 13] = [
    " see which apps are installed and running.",
    " check whether one app is running.",
    " read the log output of an app.",
    " start an app.",
    " stop an app.",
    " restart an app.",
    " install a new app.",
    " uninstall an app.",
    " know how far the Bitcoin blockchain has synced.",
    " see the Lightning channels and peers.",
    " see the CPU, memory, disk and temperature.",
    " list the Cashu mints.",
    " chat about something else.",
];

/// One scorer's figures over the table.
#[derive(Default)]
struct Run {
    times: Vec<Duration>,
    tokens: usize,
    busy: Duration,
}

impl Run {
    async fn one(&mut self, model: &SmolLm, request: &str, packages: &[Package]) {
        let start = Instant::now();
        let scores = model.score_timed(&model_input(request, packages)).await.expect("a scoring");
        let _decision = decide(Locale::En, request, &scores.calibrated, true, packages);
        self.times.push(start.elapsed());
        self.tokens += scores.tokens_decoded;
        self.busy += scores.elapsed;
    }
}

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
    let mut baseline_prompt = scoring_prompt();
    assert_eq!(baseline_prompt.candidates.len(), BASELINE_CONTINUATIONS.len(), "one baseline wording per intent");
    baseline_prompt.candidates = BASELINE_CONTINUATIONS.iter().map(|c| (*c).to_owned()).collect();
    let baseline = SmolLm::in_dir(&dir).with_prompt(baseline_prompt);
    let packages = demo_packages();
    let before = rss_kib();
    let report = model.load().await.expect("the model loads");
    let after_load = rss_kib();
    baseline.load().await.expect("the baseline loads");
    let (mut shipped, mut old) = (Run::default(), Run::default());
    for _ in 0..ROUNDS {
        for (n, (request, _)) in table::TABLE.iter().enumerate() {
            // Alternating which goes first, so neither always runs on a cache the other warmed.
            if n % 2 == 0 {
                shipped.one(&model, request, &packages).await;
                old.one(&baseline, request, &packages).await;
            } else {
                old.one(&baseline, request, &packages).await;
                shipped.one(&model, request, &packages).await;
            }
        }
    }
    assert!(model.score("restart lnd").await.is_ok());
    shipped.times.sort();
    old.times.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    let per_request = |run: &Run| run.tokens as f64 / run.times.len() as f64;
    let rate = |run: &Run| run.tokens as f64 / run.busy.as_secs_f64();
    println!(
        "built-in leg (SmolLM2-135M, {} scoring thread(s) of {} cores; AIUI_MODEL_THREADS sets it), {} requests each",
        aiui_llama::default_threads(),
        std::thread::available_parallelism().map_or(0, |n| n.get()),
        shipped.times.len()
    );
    println!("  model load (file → prefix of {} tokens cached): {:>8.1?}", report.prefix_tokens, report.load);
    println!(
        "  RSS added by the leg (load, one model):          {:>8.1} MB",
        (after_load.saturating_sub(before)) as f64 / 1024.0
    );
    println!("  {:<40} {:>10} {:>10} {:>8}", "", "shipped", "baseline", "ratio");
    let p50 = (percentile(&shipped.times, 0.50), percentile(&old.times, 0.50));
    let p99 = (percentile(&shipped.times, 0.99), percentile(&old.times, 0.99));
    println!(
        "  {:<40} {:>8.0}ms {:>8.0}ms {:>7.2}x   goal <= {} ms: {}",
        "request → chosen action, p50",
        ms(p50.0),
        ms(p50.1),
        ms(p50.0) / ms(p50.1),
        GOAL_P50.as_millis(),
        if p50.0 <= GOAL_P50 { "met" } else { "MISSED" }
    );
    println!(
        "  {:<40} {:>8.0}ms {:>8.0}ms {:>7.2}x",
        "request → chosen action, p99",
        ms(p99.0),
        ms(p99.1),
        ms(p99.0) / ms(p99.1)
    );
    println!(
        "  {:<40} {:>10.1} {:>10.1} {:>7.2}x",
        "tokens decoded per request",
        per_request(&shipped),
        per_request(&old),
        per_request(&shipped) / per_request(&old)
    );
    println!("  {:<40} {:>10.0} {:>10.0}", "tokens decoded per second", rate(&shipped), rate(&old));
    println!("  (accuracy of the shipped prompt: `cargo test -p aiui-tests --test integration builtin::` prints it)");
}
