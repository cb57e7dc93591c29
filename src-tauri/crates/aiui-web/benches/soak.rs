//! `cargo bench -p aiui-web --bench soak`: memory over a long life. The LAN service runs in its own process (this
//! bench binary started again as the service, built as `aiui-cli serve` builds it: a Claude leg over its USD
//! allowance, a dead Ollama, no built-in model) and is driven over loopback: 1 000 turns in one conversation, then
//! 200 conversations of 3 turns, each its own sign-in from its own LAN address. Every turn the scripted Claude
//! calls `package_logs` and the devnode returns 20 fresh log lines; every 10th turn one of them holds a secret, so
//! the egress screen works on every request. Prints the PSS of the service's process tree (from
//! /proc/<pid>/smaps_rollup; the driver, the Claude server and the devnode are in this process, outside it) at
//! the start, every 100 turns, every 50 conversations and at the end, beside the goals: growth <= 40 MB, and flat
//! over the last half. AIUI_SOAK_TURNS and AIUI_SOAK_CONVERSATIONS shorten it.

// A bench's table is its output.
#![allow(clippy::print_stdout)]

#[path = "../tests/support/mod.rs"]
mod support;

mod lan;

use std::io::{BufRead, BufReader, Read};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, RwLock};
use std::time::{Duration, Instant};

use aiui_core::Secret;
use aiui_core::agent::{Agent, OperatorConfig};
use aiui_core::backends::builtin::BuiltinConfig;
use aiui_core::backends::claude::ClaudeConfig;
use aiui_core::backends::ollama::OllamaConfig;
use aiui_core::backends::registry::{LegSettings, Reuse, build_chain};
use aiui_core::backends::routstr::RoutstrConfig;
use aiui_core::backends::routstr::discovery::DiscoveryConfig;
use aiui_core::budget::{ClaudeAllowance, ClaudeUpdate, Period};
use aiui_core::egress::KnownSecret;
use aiui_core::gate::{AuditLog, Gate};
use aiui_core::node::{Credentials, NodeClient, NodeConfig};
use aiui_core::secrets::{SecretName, Secrets};
use aiui_core::store::Store;
use aiui_web::passphrase::{self, Kind};
use aiui_web::{Assistant, LoginLimits, TurnLimits, WebConfig};
use serde_json::{Value, json};
use support::{Browser, LAN, NODE_PASSWORD};

/// Set in the environment of the copy of this binary that is the service.
const SERVICE: &str = "AIUI_SOAK_SERVICE";
const APPROVAL: &str = "soak-approval-passphrase-8910";
const API_KEY: &str = "sk-ant-soak-0123456789abcdef0123456789abcdef";
/// The BIP-32 test vector 1 master key and the NIP-19 example private key: shapes the screen must catch.
const XPRV: &str =
    "xprv9s21ZrQH143K3QTDL4LXw2F7HEK3wJUD2nW2nRk4stbPy6cq3jPPqjiChkVvvNKmPGJxWUtg6LnF5kejMRNNU3TGtRBeJgk33yuGBxrMPHi";
const NSEC: &str = "nsec1vl029mgpspedva04g90vltkh6fvh240zqtv9k0t9af8935ke9laqsnlfe5";
/// Log lines the node returns per turn (all new each turn, so the screen's memo meets new text every time).
const LINES_PER_TURN: usize = 20;
const TURNS_PER_CONVERSATION: usize = 3;
const GOAL_GROWTH_MB: f64 = 40.0;
/// Flat over the last half: at most this much, or this share of the whole growth, whichever is larger.
const FLAT_MB: f64 = 5.0;
const FLAT_SHARE: f64 = 0.10;

fn main() {
    if std::env::var_os(SERVICE).is_some() {
        service();
        return;
    }
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().expect("a runtime");
    runtime.block_on(bench());
}

// ---- the service: this binary again, in its own process ----

/// Builds the assistant as `aiui-cli serve` does (`assemble`: `build_chain`, the gate and its audit log, the
/// store, the node password as a known secret) and serves both origins; prints the chat origin's address, then
/// runs until its stdin closes (the driver ended, or died).
fn service() {
    let arg = |name: &str| std::env::var(name).unwrap_or_else(|_| panic!("the soak service needs {name}"));
    let data = PathBuf::from(arg("AIUI_SOAK_DATA"));
    let (node_url, claude_url) = (arg("AIUI_SOAK_NODE"), arg("AIUI_SOAK_CLAUDE"));
    std::thread::spawn(|| {
        let _ = std::io::stdin().read_to_end(&mut Vec::new());
        std::process::exit(0);
    });
    let runtime = tokio::runtime::Runtime::new().expect("a runtime");
    runtime.block_on(async move {
        let secrets = Secrets::in_memory();
        secrets.set(SecretName::AnthropicApiKey, &Secret::from(API_KEY)).expect("the API key is kept");
        let settings = LegSettings {
            // Nothing listens on the discard port: the local leg is down, as on a node without Ollama.
            ollama: OllamaConfig { url: "http://127.0.0.1:9/".parse().expect("a URL"), ..OllamaConfig::default() },
            claude: ClaudeConfig { base_url: claude_url.parse().expect("the Claude URL"), ..ClaudeConfig::default() },
            routstr: RoutstrConfig::default(),
            discovery: DiscoveryConfig::default(),
            builtin: BuiltinConfig { enabled: false, scorer: None, lexical: true },
            ..LegSettings::default()
        };
        let built = build_chain(&settings, Arc::new(secrets), &data, Reuse::default()).await.expect("the chain");
        let node = NodeClient::new(
            NodeConfig::new(node_url.parse().expect("the node URL")),
            Credentials { password: Secret::new(NODE_PASSWORD.to_owned()), totp: None },
        )
        .expect("a node client");
        let gate = Arc::new(Gate::new(
            AuditLog::open(&data.join("audit.jsonl")).expect("the audit log"),
            Duration::from_secs(120),
        ));
        let store = Arc::new(Store::open(&data.join("conversations.sqlite")).expect("the store"));
        let known = vec![KnownSecret::new("node-password", NODE_PASSWORD)];
        let config = Arc::new(RwLock::new(OperatorConfig::default()));
        let budget = built.budget.clone();
        let agent = Agent::new(Arc::new(node), built.chain, gate, store, config, known).with_budget(built.budget);
        let ui = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../ui");
        let mut config = WebConfig::new(data.clone(), ui);
        config.chat_addr = "127.0.0.1:0".parse().expect("an address");
        config.trusted_addr = "127.0.0.1:0".parse().expect("an address");
        config.base_path = "/aiui/".into();
        config.trust_proxy = true;
        // The one thing not as shipped: 1 000 turns in one session would take 100 minutes at ten a minute.
        let many = LoginLimits { per_address: 1_000_000, overall: usize::MAX, window: Duration::from_secs(60) };
        config.turn_limits = TurnLimits { per_session: many, per_address: many };
        let assistant = Assistant {
            agent: Arc::new(agent),
            budget,
            notices: Arc::new(RwLock::new(built.notices)),
            node_url,
            demo: false,
        };
        let running = aiui_web::start(config, assistant).await.expect("the LAN service");
        println!("chat {}", running.chat_addr);
        let _ = running.wait().await;
    });
}

/// The service's process, ended when the bench ends (closing its stdin ends it; killing it is the fallback).
struct ServiceProcess {
    child: Child,
    chat_addr: SocketAddr,
}

impl ServiceProcess {
    fn start(data: &Path, node_url: &str, claude_url: &str) -> Self {
        let exe = std::env::current_exe().expect("this bench's own path");
        let mut child = Command::new(exe)
            .env(SERVICE, "1")
            .env("AIUI_SOAK_DATA", data)
            .env("AIUI_SOAK_NODE", node_url)
            .env("AIUI_SOAK_CLAUDE", claude_url)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("the service process");
        let stdout = child.stdout.take().expect("the service's stdout");
        let mut line = String::new();
        BufReader::new(stdout).read_line(&mut line).expect("the service's first line");
        let chat_addr = line.trim().strip_prefix("chat ").and_then(|a| a.parse().ok());
        let Some(chat_addr) = chat_addr else { panic!("the service did not start: {line:?}") };
        Self { child, chat_addr }
    }
}

impl Drop for ServiceProcess {
    fn drop(&mut self) {
        drop(self.child.stdin.take());
        let deadline = Instant::now() + Duration::from_secs(5);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

// ---- memory ----

/// `pid` and every process under it (children of each of its threads).
fn process_tree(pid: u32) -> Vec<u32> {
    let mut tree = vec![pid];
    let mut next = 0;
    while next < tree.len() {
        let tasks = std::fs::read_dir(format!("/proc/{}/task", tree[next])).into_iter().flatten().flatten();
        for task in tasks {
            let children = std::fs::read_to_string(task.path().join("children")).unwrap_or_default();
            tree.extend(children.split_whitespace().filter_map(|c| c.parse::<u32>().ok()));
        }
        next += 1;
    }
    tree
}

/// The summed PSS of `pid`'s process tree, in MB (10^6 bytes).
fn tree_pss_mb(pid: u32) -> f64 {
    let kb: u64 = process_tree(pid)
        .iter()
        .filter_map(|p| std::fs::read_to_string(format!("/proc/{p}/smaps_rollup")).ok())
        .filter_map(|rollup| {
            rollup
                .lines()
                .find_map(|l| l.strip_prefix("Pss:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        })
        .sum();
    kb as f64 * 1024.0 / 1e6
}

// ---- the backends, in this process ----

/// What the scripted Claude saw.
#[derive(Default)]
struct Seen {
    requests: AtomicUsize,
    /// Bodies that carried one of the planted secrets: must stay 0.
    leaked: AtomicUsize,
    /// Bodies with a redaction marker: above 0, or the secrets never reached the screen.
    redacted: AtomicUsize,
    largest: AtomicUsize,
}

/// A Claude-format server: a turn's first step calls `package_logs` for lnd, the step after the tool result
/// answers in words. Answers as one JSON reply (the leg takes that from a gateway that ignores `"stream"`).
async fn scripted_claude(seen: Arc<Seen>) -> String {
    use axum::routing::post;
    let router = axum::Router::new().route(
        "/v1/messages",
        post(move |body: axum::body::Bytes| {
            let seen = seen.clone();
            async move {
                let n = seen.requests.fetch_add(1, Ordering::Relaxed);
                seen.largest.fetch_max(body.len(), Ordering::Relaxed);
                let text = String::from_utf8_lossy(&body);
                if [XPRV, NSEC, NODE_PASSWORD].iter().any(|s| text.contains(s)) {
                    seen.leaked.fetch_add(1, Ordering::Relaxed);
                }
                if text.contains("[redacted") {
                    seen.redacted.fetch_add(1, Ordering::Relaxed);
                }
                let body: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
                let after_tool = body["messages"]
                    .as_array()
                    .and_then(|m| m.last())
                    .and_then(|m| m["content"].as_array())
                    .is_some_and(|c| c.iter().any(|b| b["type"] == "tool_result"));
                let content = if after_tool {
                    json!([{"type": "text", "text": format!("lnd looks healthy (answer {n}).")}])
                } else {
                    json!([{"type": "text", "text": "Let me read lnd's log."},
                        {"type": "tool_use", "id": format!("toolu_soak_{n}"), "name": "package_logs",
                            "input": {"id": "lnd", "lines": LINES_PER_TURN}}])
                };
                let stop = if after_tool { "end_turn" } else { "tool_use" };
                axum::Json(json!({"id": format!("msg_soak_{n}"), "type": "message", "role": "assistant",
                    "model": "claude-sonnet-4-5-20250929", "content": content, "stop_reason": stop,
                    "usage": {"input_tokens": 10, "output_tokens": 10}}))
            }
        }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("a port");
    let url = format!("http://{}/", listener.local_addr().expect("its address"));
    tokio::spawn(async move { axum::serve(listener, router).await });
    url
}

/// Appends the `turn`th turn's new lines to lnd's log; every 10th turn one of them holds a secret.
fn plant_log_lines(node: &archy_devnode::RunningDevNode, turn: usize) {
    for i in 0..LINES_PER_TURN {
        let peer = hex::encode(rand::random::<[u8; 32]>());
        let line = if turn.is_multiple_of(10) && i == LINES_PER_TURN / 2 {
            match (turn / 10) % 3 {
                0 => format!("[lnd] {turn:06}.{i:02} restored wallet from {XPRV}"),
                1 => format!("[lnd] {turn:06}.{i:02} nostr admin key {NSEC}"),
                _ => format!("[lnd] {turn:06}.{i:02} debug: login password={NODE_PASSWORD}"),
            }
        } else {
            format!("[lnd] {turn:06}.{i:02} peer 02{peer} updated channel {} fee {} msat", turn * 31 + i, i * 7)
        };
        node.append_log("lnd", &line);
    }
}

// ---- the run ----

/// One turn: starts it, reads its events to `done`; returns the conversation it went to.
async fn turn(
    http: &reqwest::Client,
    browser: &Browser,
    conversation: Option<&str>,
    text: &str,
) -> Result<String, String> {
    let args = json!({ "conversation": conversation, "text": text });
    let (status, answer) = lan::invoke(http, browser, "chat_send", args).await.map_err(|e| e.to_string())?;
    if status != 200 {
        return Err(format!("chat_send answered {status}: {answer}"));
    }
    let conversation = answer["conversation"].as_str().unwrap_or_default().to_owned();
    let turn = answer["turn"].as_str().unwrap_or_default().to_owned();
    let (_, events) = lan::read_events(http, browser, &turn, Instant::now()).await?;
    let kinds: Vec<&str> = events.iter().filter_map(|(_, e)| e["event"].as_str()).collect();
    let answered = events.iter().any(|(_, e)| e["event"] == "text" || e["event"] == "text_delta");
    if kinds.last() != Some(&"done") || !answered {
        return Err(format!("turn {text:?} ended without its answer: {kinds:?}"));
    }
    Ok(conversation)
}

/// Signs in as a LAN user at `address`; the two passphrase checks at a time may refuse a moment.
async fn sign_in(http: &reqwest::Client, base: &str, origin: &str, address: std::net::IpAddr) -> Browser {
    for _ in 0..100 {
        match lan::sign_in(http, base, origin, LAN, Some(address)).await {
            Ok(browser) => return browser,
            Err(e) if e.contains("429") => tokio::time::sleep(Duration::from_millis(50)).await,
            Err(e) => panic!("a LAN sign-in: {e}"),
        }
    }
    panic!("a LAN sign-in was refused 100 times")
}

struct Row {
    label: String,
    turns: usize,
    pss_mb: f64,
    at: Duration,
}

async fn bench() {
    let turns_in_one = lan::env_or("AIUI_SOAK_TURNS", 1000) as usize;
    let conversations = lan::env_or("AIUI_SOAK_CONVERSATIONS", 200) as usize;
    let node_dir = tempfile::tempdir().expect("a temp dir");
    let node = archy_devnode::spawn(
        archy_devnode::DevNodeConfig::new(NODE_PASSWORD, node_dir.path()),
        SocketAddr::from(([127, 0, 0, 1], 0)),
    )
    .await
    .expect("the devnode");
    let seen = Arc::new(Seen::default());
    let claude = scripted_claude(seen.clone()).await;
    let data = tempfile::tempdir().expect("a temp dir");
    passphrase::set(data.path(), Kind::Lan, &Secret::new(LAN.to_owned())).expect("the LAN passphrase");
    passphrase::set(data.path(), Kind::Approval, &Secret::new(APPROVAL.to_owned())).expect("the approval passphrase");
    let allowance = ClaudeAllowance::open(data.path()).expect("Claude's allowance");
    // Ample: each request reserves its worst case (the body's bytes as tokens) and settles at 20 tokens.
    let update = ClaudeUpdate { allowance_usd_micros: Some(1_000_000_000_000), period: Some(Period::Never) };
    allowance.set(update).expect("Claude's allowance is set");
    drop(allowance);
    let service = ServiceProcess::start(data.path(), &node.url(), &claude);
    let pid = service.child.id();
    let base = format!("http://{}/aiui/", service.chat_addr);
    let origin = format!("http://{}", service.chat_addr);
    let http = aiui_core::net::client(&aiui_core::net::ClientSpec::default()).expect("an HTTP client").http;
    let started = Instant::now();
    let mut rows = Vec::new();
    let mut record = |label: String, turns: usize| {
        let row = Row { label, turns, pss_mb: tree_pss_mb(pid), at: started.elapsed() };
        println!("  {:<34} {:>6} turns {:>9.1} MB  {:>6.1} s", row.label, row.turns, row.pss_mb, row.at.as_secs_f64());
        rows.push(row);
    };
    println!("soak: PSS of the LAN service's process tree (pid {pid}), as it goes");
    record("start (serving, nothing done)".into(), 0);
    let mut done = 0;
    let mut failed = Vec::new();
    let owner = sign_in(&http, &base, &origin, lan::lan_address(3, 0)).await;
    let mut conversation: Option<String> = None;
    for n in 1..=turns_in_one {
        done += 1;
        plant_log_lines(&node, done);
        match turn(&http, &owner, conversation.as_deref(), &format!("how is lnd? ({n})")).await {
            Ok(id) => conversation = Some(id),
            Err(e) => failed.push(e),
        }
        if n == 1 || n % 100 == 0 || n == turns_in_one {
            record(format!("one conversation, turn {n}"), done);
        }
    }
    for c in 1..=conversations {
        let browser = sign_in(&http, &base, &origin, lan::lan_address(4, c)).await;
        let mut conversation: Option<String> = None;
        for t in 1..=TURNS_PER_CONVERSATION {
            done += 1;
            plant_log_lines(&node, done);
            match turn(&http, &browser, conversation.as_deref(), &format!("user {c}: is lnd ok? ({t})")).await {
                Ok(id) => conversation = Some(id),
                Err(e) => failed.push(e),
            }
        }
        if c % 50 == 0 || c == conversations {
            record(format!("{c} conversations"), done);
        }
    }
    record("end".into(), done);
    drop(service);
    report(&rows, done, &seen, &failed);
}

fn report(rows: &[Row], done: usize, seen: &Seen, failed: &[String]) {
    let (start, end) = (&rows[0], &rows[rows.len() - 1]);
    // The last half by work done: from the first row at or past half of all turns.
    let mid = rows.iter().find(|r| r.turns * 2 >= done).unwrap_or(end);
    let growth = end.pss_mb - start.pss_mb;
    let last_half = end.pss_mb - mid.pss_mb;
    let flat_limit = FLAT_MB.max(FLAT_SHARE * growth);
    let verdict = |ok: bool| if ok { "met" } else { "MISSED" };
    println!();
    println!(
        "LAN service soak: {done} turns, every 10th turn's tool result holding a secret; PSS of the service's \
         process tree only (driver, Claude server and devnode are the bench's process)"
    );
    println!("{:<36} {:>8} {:>12} {:>10}", "checkpoint", "turns", "PSS", "time");
    for row in rows {
        println!("{:<36} {:>8} {:>9.1} MB {:>8.1} s", row.label, row.turns, row.pss_mb, row.at.as_secs_f64());
    }
    println!(
        "{:<36} {:>8} {:>9.1} MB   goal <= {GOAL_GROWTH_MB:.0} MB: {}",
        "growth (end - start)",
        "",
        growth,
        verdict(growth <= GOAL_GROWTH_MB)
    );
    println!(
        "{:<36} {:>8} {:>9.1} MB   goal <= {flat_limit:.1} MB (the larger of {FLAT_MB:.0} MB and {:.0}% of the growth): {}",
        format!("last half (from {:?})", mid.label),
        "",
        last_half,
        FLAT_SHARE * 100.0,
        verdict(last_half <= flat_limit)
    );
    let requests = seen.requests.load(Ordering::Relaxed);
    println!(
        "Claude requests {requests}, largest body {} kB, with a redaction {}, carrying a planted secret {}",
        seen.largest.load(Ordering::Relaxed) / 1000,
        seen.redacted.load(Ordering::Relaxed),
        seen.leaked.load(Ordering::Relaxed)
    );
    assert!(failed.is_empty(), "{} turns failed, e.g. {:?}", failed.len(), &failed[..failed.len().min(3)]);
    assert_eq!(seen.leaked.load(Ordering::Relaxed), 0, "a planted secret left for the cloud");
    assert!(seen.redacted.load(Ordering::Relaxed) > 0, "no secret ever reached the screen");
}
