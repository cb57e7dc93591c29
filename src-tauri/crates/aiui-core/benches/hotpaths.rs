//! Bench: aiui-core's hot paths (the egress screen over a 100 KB body, tool argument validation, budget
//! reserve/settle under contention). Prints a table.
//!
//! Run: `cargo bench -p aiui-core --bench hotpaths` (or `scripts/bench` for every table in release mode). The
//! machines are shared and noisy: compare rows of one run with each other, and read absolute rates as a floor.
//! `cargo bench -p aiui-core --bench hotpaths -- egress` (or `validation`, `budget`) prints one table, e.g. under
//! a profiler; callgrind's instruction counts do not depend on the load.

#![allow(clippy::print_stdout)] // A bench's table is its output.

use std::path::Path;
use std::sync::{Arc, Barrier};
use std::time::{Duration, Instant};

use aiui_core::backends::format::anthropic;
use aiui_core::budget::{BudgetStore, BudgetUpdate, Period};
use aiui_core::egress::Screen;
use aiui_core::tools::{Grants, Registry};
use serde_json::{Value, json};

const BODY_BYTES: usize = 100 * 1024;

/// The corpus lines of `fixtures/egress/<name>` with their escapes undone (the format is in the file's header).
fn corpus(name: &str) -> Vec<String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../fixtures/egress").join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines().filter(|l| !l.starts_with('#') && !l.is_empty()).map(unescape).collect()
}

fn unescape(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some(other) => out.push(other),
            None => out.push('\\'),
        }
    }
    out
}

/// An Anthropic Messages body of about `BODY_BYTES`: an owner question, then tool results made of node-admin text
/// (the benign corpus), one secret-bearing text every `secret_every` results (0: none).
fn body(secret_every: usize) -> Value {
    let benign = corpus("benign.txt");
    let secrets: Vec<String> =
        corpus("secrets.txt").iter().filter_map(|l| l.splitn(3, '\t').nth(2).map(unescape)).collect();
    let mut messages = vec![json!({"role": "user", "content": "Why did lnd restart twice last night?"})];
    let mut size = 0;
    let mut i = 0;
    while size < BODY_BYTES {
        let mut chunk = String::new();
        for line in benign.iter().cycle().skip(i * 7).take(12) {
            chunk.push_str(line);
            chunk.push('\n');
        }
        if secret_every > 0 && i % secret_every == 0 {
            chunk.push_str(&secrets[i % secrets.len()]);
        }
        size += chunk.len();
        let id = format!("toolu_{i:04}");
        messages.push(json!({"role": "assistant", "content": [
            {"type": "tool_use", "id": id, "name": "package_logs", "input": {"id": "lnd", "lines": 50}}]}));
        messages.push(json!({"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": id, "content": chunk}]}));
        i += 1;
    }
    json!({"model": "claude-sonnet-4-5", "max_tokens": 1024, "system": "You help the owner of a node.", "messages": messages})
}

/// The screen's own rate: each round a new conversation's screen (nothing remembered) over the whole body. Then
/// the same body again through the screen that saw it, as a turn re-sends its history: only memory lookups.
fn egress_row(name: &str, body: &Value) {
    let bytes = serde_json::to_vec(body).expect("JSON").len();
    let origin_of = |pointer: &str| anthropic::origin_of(body, pointer);
    let rounds = 30;
    let timed = |screen: &mut Screen| {
        let mut copy = body.clone();
        let start = Instant::now();
        let report = std::hint::black_box(screen.screen_body(&mut copy, &origin_of)).expect("no owner secret");
        (start.elapsed(), report)
    };
    let (mut cold, mut again) = (Vec::with_capacity(rounds), Vec::with_capacity(rounds));
    let mut report = None;
    for _ in 0..rounds {
        let mut screen = Screen::new(Vec::new());
        let (took, first) = timed(&mut screen);
        cold.push(took);
        let (took, second) = timed(&mut screen);
        assert_eq!(first, second, "a body screened again gets the same report");
        again.push(took);
        report = Some(first);
    }
    let report = report.expect("30 rounds");
    for (how, mut times) in [("", cold), ("  again, as history", again)] {
        times.sort();
        let p50 = times[rounds / 2];
        let mbs = bytes as f64 / p50.as_secs_f64() / 1e6;
        let row = if how.is_empty() { name.to_owned() } else { how.to_owned() };
        let goal = if how.is_empty() {
            format!("  (goal >= 50: {}; {report})", if mbs >= 50.0 { "met" } else { "MISSED" })
        } else {
            String::new()
        };
        println!(
            "{row:<34} {:>8.1} KB {:>9.2} ms {:>9.2} ms {:>8.1} MB/s{goal}",
            bytes as f64 / 1024.0,
            p50.as_secs_f64() * 1e3,
            times[rounds - 1].as_secs_f64() * 1e3,
            mbs
        );
    }
}

fn validation_row(registry: &Registry, name: &str, tool: &str, arguments: Value) {
    let grants = Grants::default();
    let arguments = Ok(arguments);
    let rounds = 20_000;
    let start = Instant::now();
    for _ in 0..rounds {
        let _ = std::hint::black_box(registry.validate(tool, &arguments, &grants));
    }
    let per_call = start.elapsed() / rounds;
    println!(
        "{name:<34} {:>10.2} us/call {:>12.0} calls/s",
        per_call.as_secs_f64() * 1e6,
        1.0 / per_call.as_secs_f64()
    );
}

/// `threads` threads, each with its own store on the one file when `stores_per_file` is per thread (as separate
/// processes hold it), or one shared store, each doing `ops` reserve+settle pairs.
fn budget_row(name: &str, threads: usize, separate_stores: bool, ops: usize) {
    let dir = tempfile::tempdir().expect("a temp dir");
    let path = dir.path().join("budget.json");
    let setup = BudgetStore::open(&path).expect("a budget");
    setup
        .set(BudgetUpdate {
            allowance_sats: Some(u64::MAX / 4),
            period: Some(Period::Never),
            accepted_mints: Some(vec!["http://127.0.0.1:3338".into()]),
        })
        .expect("set");
    let policy = setup.payment_policy();
    let shared = Arc::new(setup);
    let barrier = Arc::new(Barrier::new(threads));
    let start = Instant::now();
    let handles: Vec<_> = (0..threads)
        .map(|_| {
            let store = if separate_stores {
                Arc::new(BudgetStore::open(&path).expect("a second store on the file"))
            } else {
                shared.clone()
            };
            let policy = policy.clone();
            let barrier = barrier.clone();
            std::thread::spawn(move || {
                barrier.wait();
                let mut times = Vec::with_capacity(ops);
                for _ in 0..ops {
                    let t = Instant::now();
                    let reservation = store.reserve(&policy, 21).expect("fits");
                    store.settle(reservation, 13);
                    times.push(t.elapsed());
                }
                times
            })
        })
        .collect();
    let mut times: Vec<Duration> = handles.into_iter().flat_map(|h| h.join().expect("a bench thread")).collect();
    let wall = start.elapsed();
    times.sort();
    let report = shared.get();
    let total = threads * ops;
    assert_eq!(report.spent_sats, 13 * total as u64, "every settle counted once");
    assert_eq!(report.reserved_sats, 0, "nothing left reserved");
    println!(
        "{name:<34} {:>8} pairs {:>9.0} pairs/s {:>9.3} ms p50 {:>9.3} ms p99  (spent {} = 13 x {total}: exact)",
        total,
        total as f64 / wall.as_secs_f64(),
        times[total / 2].as_secs_f64() * 1e3,
        times[total * 99 / 100].as_secs_f64() * 1e3,
        report.spent_sats
    );
}

fn main() {
    let sections: [(&str, fn()); 3] =
        [("egress", egress_rows), ("validation", validation_rows), ("budget", budget_rows)];
    let only: Option<String> = std::env::args().skip(1).find(|a| !a.starts_with('-'));
    if let Some(only) = &only
        && !sections.iter().any(|(name, _)| name == only)
    {
        let names: Vec<&str> = sections.iter().map(|(name, _)| *name).collect();
        eprintln!("unknown section {only:?}: name one of {}, or none for all", names.join(", "));
        std::process::exit(2);
    }
    for (name, rows) in sections {
        if only.as_deref().is_none_or(|o| o == name) {
            rows();
        }
    }
}

fn egress_rows() {
    println!("egress screen over a ~100 KB Anthropic body (tool results of node-admin text), 30 rounds, each with a");
    println!("new screen; then the same body through the same screen, as a turn re-sends its history");
    println!("{:<34} {:>11} {:>12} {:>12} {:>13}", "body", "size", "p50", "max", "rate");
    egress_row("benign text only", &body(0));
    egress_row("one secret per 20 tool results", &body(20));
    egress_row("a secret in every tool result", &body(1));
}

fn validation_rows() {
    println!();
    println!("tool argument validation (JSON Schema), 20 000 calls each");
    let registry = Registry::node_tools();
    validation_row(&registry, "package_restart {id} valid", "package_restart", json!({"id": "lnd"}));
    validation_row(&registry, "package_logs {id, lines} valid", "package_logs", json!({"id": "lnd", "lines": 50}));
    validation_row(&registry, "package_restart injected id", "package_restart", json!({"id": "lnd; rm -rf /"}));
    validation_row(&registry, "package_install extra field", "package_install", json!({"id": "x", "force": true}));
}

fn budget_rows() {
    println!();
    println!("budget reserve + settle (file lock, re-read, atomic write per call) under contention");
    budget_row("1 thread, 1 store", 1, false, 400);
    budget_row("4 threads, 1 shared store", 4, false, 200);
    budget_row("2 stores on one file (2 processes)", 2, true, 200);
    budget_row("4 stores on one file", 4, true, 100);
}
