//! `cargo bench -p aiui-web --bench flood`: the LAN service under attack, on loopback, server and attackers in this
//! one process. First, bursts of 30 and then 100 simultaneous wrong sign-ins on the trusted origin: the process's
//! RSS before, at its peak and after, and how many were hashed (401) or refused at once (429). Then the owner's
//! approvals on the trusted origin (LAN turns open the confirmations; the owner sees them in `trusted_pending` and
//! approves with the passphrase), in three conditions one after the other: idle, beside 20 LAN chat sessions, and
//! beside those plus a flood of half-open connections to both origins. AIUI_BENCH_SECONDS (per condition, 20),
//! AIUI_BENCH_SESSIONS (20), AIUI_BENCH_ASKERS (4), AIUI_BENCH_FLOOD_CHAT (400), AIUI_BENCH_FLOOD_TRUSTED (200) and
//! AIUI_BENCH_HEADER_TIMEOUT_MS (2000, no less) change that. Fails if an approval failed or timed out, a chat event
//! was lost or went to another session, a sign-in of a burst got anything but 401 or 429, or a burst's peak RSS grew
//! by more than eight passphrase checks' worth.

// A bench's table is its output.
#![allow(clippy::print_stdout)]

#[path = "../tests/support/mod.rs"]
mod support;

mod lan;

use std::collections::HashSet;
use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
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
use aiui_core::gate::{AuditLog, Gate};
use aiui_core::node::{Credentials, NodeClient, NodeConfig};
use aiui_core::secrets::Secrets;
use aiui_core::store::Store;
use aiui_web::passphrase::{self, Kind};
use aiui_web::{APPROVE_DELAY, Assistant, LoginLimits, WebConfig};
use lan::{Tally, env_or, ms, quantile};
use serde_json::{Value, json};
use support::{APPROVAL, Browser, LAN, NODE_PASSWORD, fixture};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// The words that make the replaying backend propose `package_restart` (an act: the owner must approve it).
const ASK: &str = "restart lnd";
/// How often the owner's poll asks for what is pending. The trusted page polls every second; the bench polls far
/// more often so that "visible" measures the service, not the poll.
const POLL: Duration = Duration::from_millis(20);
/// The owner's requests get no answer within this: a timed-out approval.
const OWNER_TIMEOUT: Duration = Duration::from_secs(10);
/// The owner's approving connection, idle this long, sends a request: well inside the header-read timeout, which
/// also closes a connection idle between requests.
const KEEP_ALIVE: Duration = Duration::from_millis(500);
/// An argon2id check's memory (passphrase.rs: m = 19 MiB); lib.rs runs one at a time, one more waiting.
const CHECK_KIB: u64 = 19 * 1024;
/// The LAN sessions (each its own address) one asker takes turns with: an asker asks about once a second, and
/// the service lets a session start 10 turns a minute.
const ASKER_POOL: usize = 8;
/// A refused flooder waits this long before it connects again: a tight connect loop on two shared cores would
/// measure this bench's own attackers more than the service.
const REFUSED_RETRY: Duration = Duration::from_millis(100);

fn main() {
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().expect("a runtime");
    runtime.block_on(bench());
}

async fn bench() {
    let seconds = Duration::from_secs(env_or("AIUI_BENCH_SECONDS", 20));
    let sessions = env_or("AIUI_BENCH_SESSIONS", 20) as usize;
    let askers = env_or("AIUI_BENCH_ASKERS", 4) as usize;
    let flood = (env_or("AIUI_BENCH_FLOOD_CHAT", 400) as usize, env_or("AIUI_BENCH_FLOOD_TRUSTED", 200) as usize);
    // Not below 2 s: the owner's approving connection sits idle up to 1.5 s (its keep-alive, then the approve
    // delay), and a timeout shorter than that would cut the owner off, not the flood.
    let header_timeout = Duration::from_millis(env_or("AIUI_BENCH_HEADER_TIMEOUT_MS", 2000).max(2000));
    let svc = Service::start(header_timeout).await;

    let bursts = [30, 100];
    let mut rows = Vec::new();
    for n in bursts {
        rows.push(sign_in_burst(&svc, n).await);
    }
    print_bursts(&rows);

    let lan_http = client(Duration::from_secs(30));
    let lan_session = |address| lan::sign_in(&lan_http, &svc.chat, &svc.chat_origin, LAN, Some(address));
    // Fresh sessions for each loaded condition: the turn limit counts a session's turns over a minute.
    let mut chatters = Vec::new();
    for c in 0..2 {
        let mut these = Vec::new();
        for i in 0..sessions {
            these.push(lan_session(lan::lan_address(0, c * sessions + i)).await.expect("a LAN session"));
        }
        chatters.push(these);
    }
    let mut pools = Vec::new();
    for a in 0..askers {
        let mut pool = Vec::new();
        for j in 0..ASKER_POOL {
            pool.push(lan_session(lan::lan_address(1, a * ASKER_POOL + j)).await.expect("an asker's session"));
        }
        pools.push(pool);
    }
    let owner = Owner::open(&svc).await;
    let mut chatters = chatters.into_iter();
    let conditions = [
        ("idle".to_owned(), Vec::new(), (0, 0)),
        (format!("{sessions} chat sessions"), chatters.next().unwrap_or_default(), (0, 0)),
        (format!("{sessions} sessions + flood"), chatters.next().unwrap_or_default(), flood),
    ];
    let mut outcomes = Vec::new();
    for (phase, (name, chatters, flood)) in conditions.into_iter().enumerate() {
        owner.phase.store(phase, Ordering::Relaxed);
        let here = Condition { name, chatters, flood, seconds, header_timeout };
        outcomes.push(condition(&svc, &lan_http, &pools, here).await);
    }
    let approvals = owner.close().await;
    print_approvals(&outcomes, &approvals, seconds, askers, header_timeout, flood);

    let mut failed = Vec::new();
    for row in &rows {
        if row.statuses.other > 0 || row.statuses.unauthorized + row.statuses.limited != row.n {
            failed.push(format!("burst of {}: answers other than 401/429: {:?}", row.n, row.statuses));
        }
        if row.peak_kib.saturating_sub(row.before_kib) > 8 * CHECK_KIB {
            failed.push(format!("burst of {}: peak RSS grew by more than eight checks' worth", row.n));
        }
    }
    for (outcome, approvals) in outcomes.iter().zip(&approvals) {
        for (what, list) in [
            ("approval", &approvals.failed),
            ("asker", &outcome.asked.failed),
            ("lost event", &outcome.load.lost),
            ("misdelivered event", &outcome.load.misdelivered),
        ] {
            failed.extend(list.iter().take(5).map(|e| format!("{}: {what}: {e}", outcome.name)));
        }
        if approvals.decide.is_empty() {
            failed.push(format!("{}: no approval at all", outcome.name));
        }
    }
    assert!(failed.is_empty(), "the service did not hold:\n{}", failed.join("\n"));
}

fn client(request_timeout: Duration) -> reqwest::Client {
    let spec = aiui_core::net::ClientSpec { request_timeout, ..aiui_core::net::ClientSpec::default() };
    aiui_core::net::client(&spec).expect("an HTTP client").http
}

/// The LAN service with a backend that proposes a restart when asked to and echoes anything else. The support
/// module's harness takes a fixed `Replies`, and the echo sessions and the askers share one backend here.
struct Service {
    chat: String,
    trusted: String,
    chat_origin: String,
    trusted_origin: String,
    chat_addr: SocketAddr,
    trusted_addr: SocketAddr,
    _node: archy_devnode::RunningDevNode,
    _dirs: (tempfile::TempDir, tempfile::TempDir),
    _running: aiui_web::Running,
}

impl Service {
    async fn start(header_read_timeout: Duration) -> Self {
        let node_dir = tempfile::tempdir().unwrap();
        let node = archy_devnode::spawn(
            archy_devnode::DevNodeConfig::new(NODE_PASSWORD, node_dir.path()),
            SocketAddr::from(([127, 0, 0, 1], 0)),
        )
        .await
        .unwrap();
        let data = tempfile::tempdir().unwrap();
        let settings = LegSettings {
            ollama: OllamaConfig { url: backend().await.parse().unwrap(), ..OllamaConfig::default() },
            claude: ClaudeConfig { base_url: "http://127.0.0.1:9/".parse().unwrap(), ..ClaudeConfig::default() },
            routstr: RoutstrConfig::default(),
            discovery: DiscoveryConfig::default(),
            builtin: BuiltinConfig { enabled: false, scorer: None, lexical: false },
            ..LegSettings::default()
        };
        let built =
            build_chain(&settings, Arc::new(Secrets::in_memory()), data.path(), Reuse::default()).await.unwrap();
        let client = NodeClient::new(
            NodeConfig::new(node.url().parse().unwrap()),
            Credentials { password: Secret::new(NODE_PASSWORD.to_owned()), totp: None },
        )
        .unwrap();
        let audit = AuditLog::open(&data.path().join("audit.jsonl")).unwrap();
        let gate = Arc::new(Gate::new(audit, Duration::from_secs(60)));
        let store = Arc::new(Store::open(&data.path().join("conversations.sqlite")).unwrap());
        let agent = Agent::new(
            Arc::new(client),
            built.chain,
            gate,
            store,
            Arc::new(RwLock::new(OperatorConfig::default())),
            Vec::new(),
        )
        .with_budget(built.budget.clone());
        passphrase::set(data.path(), Kind::Lan, &Secret::new(LAN.to_owned())).unwrap();
        passphrase::set(data.path(), Kind::Approval, &Secret::new(APPROVAL.to_owned())).unwrap();
        let ui = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../ui");
        let mut config = WebConfig::new(data.path().to_owned(), ui);
        config.chat_addr = "127.0.0.1:0".parse().unwrap();
        config.trusted_addr = "127.0.0.1:0".parse().unwrap();
        config.base_path = "/aiui/".into();
        // Every refusal in the bursts is then the hashing cap's, not the per-address limit's.
        config.limits = LoginLimits { per_address: 100_000, overall: usize::MAX, window: Duration::from_secs(60) };
        // Shorter than the service's 10 s so that the flood churns several times per condition; the caps stay the
        // service's own.
        config.header_read_timeout = header_read_timeout;
        // As behind the node's nginx: each LAN browser signs in as its own address (X-Real-IP).
        config.trust_proxy = true;
        let assistant = Assistant {
            agent: Arc::new(agent),
            budget: built.budget,
            notices: Arc::new(RwLock::new(Vec::new())),
            node_url: node.url(),
            demo: false,
        };
        let running = aiui_web::start(config, assistant).await.unwrap();
        let (chat_addr, trusted_addr) = (running.chat_addr, running.trusted_addr);
        Self {
            chat: format!("http://{chat_addr}/aiui/"),
            trusted: format!("http://{trusted_addr}/aiui/"),
            chat_origin: format!("http://{chat_addr}"),
            trusted_origin: format!("http://{trusted_addr}"),
            chat_addr,
            trusted_addr,
            _node: node,
            _dirs: (node_dir, data),
            _running: running,
        }
    }
}

/// A replaying Ollama: after a tool result the recorded "restarting" answer; to [`ASK`] the recorded
/// `package_restart` call; to anything else "echo: <the words>" (load.rs's check for misdelivered events).
async fn backend() -> String {
    use axum::routing::{get, post};
    let (tags, show) = (fixture("tags.json"), fixture("show_tools.json"));
    let (plain, call, restarted) = (
        fixture("chat_answer_plain.json"),
        fixture("chat_call_restart_lnd.json"),
        fixture("chat_answer_restarted.json"),
    );
    let chat = post(move |axum::Json(body): axum::Json<Value>| async move {
        let last = body["messages"].as_array().and_then(|m| m.last()).cloned().unwrap_or_default();
        let words = last["content"].as_str().unwrap_or_default();
        axum::Json(if last["role"] == "tool" {
            restarted
        } else if words.starts_with(ASK) {
            call
        } else {
            let mut reply = plain;
            reply["message"]["content"] = json!(format!("echo: {words}"));
            reply
        })
    });
    let app = axum::Router::new()
        .route("/api/tags", get(move || async move { axum::Json(tags) }))
        .route("/api/show", post(move || async move { axum::Json(show) }))
        .route("/api/chat", chat);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await });
    url
}

fn status_kib(field: &str) -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|line| line.strip_prefix(field)?.strip_prefix(':'))
        .and_then(|rest| rest.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}

#[derive(Debug, Default)]
struct Statuses {
    unauthorized: usize,
    limited: usize,
    other: usize,
}

struct BurstRow {
    n: usize,
    statuses: Statuses,
    took: Duration,
    before_kib: u64,
    peak_kib: u64,
    hwm_kib: u64,
    after_kib: u64,
}

/// `n` wrong sign-ins on the trusted origin at once, each on its own connection, with the RSS sampled every 2 ms.
async fn sign_in_burst(svc: &Service, n: usize) -> BurstRow {
    let http = client(Duration::from_secs(30));
    let before_kib = status_kib("VmRSS");
    // "5" resets VmHWM to the current RSS: the kernel's own peak then covers this burst only, between samples too.
    let _ = std::fs::write("/proc/self/clear_refs", "5");
    let sampling = Arc::new(AtomicBool::new(true));
    let sampler = {
        let sampling = sampling.clone();
        std::thread::spawn(move || {
            let mut peak = 0;
            while sampling.load(Ordering::Relaxed) {
                peak = peak.max(status_kib("VmRSS"));
                std::thread::sleep(Duration::from_millis(2));
            }
            peak
        })
    };
    let start = Arc::new(tokio::sync::Barrier::new(n));
    let started = Instant::now();
    let tries: Vec<_> = (0..n)
        .map(|_| {
            let (http, url, origin, start) =
                (http.clone(), format!("{}api/login", svc.trusted), svc.trusted_origin.clone(), start.clone());
            tokio::spawn(async move {
                start.wait().await;
                let body = json!({ "passphrase": "not-the-approval-passphrase" });
                http.post(url).header("origin", origin).json(&body).send().await.map(|r| r.status().as_u16())
            })
        })
        .collect();
    let mut statuses = Statuses::default();
    for task in tries {
        match task.await.expect("a sign-in task") {
            Ok(401) => statuses.unauthorized += 1,
            Ok(429) => statuses.limited += 1,
            _ => statuses.other += 1,
        }
    }
    let took = started.elapsed();
    sampling.store(false, Ordering::Relaxed);
    let peak_kib = sampler.join().expect("the sampler").max(before_kib);
    let hwm_kib = status_kib("VmHWM");
    tokio::time::sleep(Duration::from_millis(500)).await;
    BurstRow { n, statuses, took, before_kib, peak_kib, hwm_kib, after_kib: status_kib("VmRSS") }
}

fn print_bursts(rows: &[BurstRow]) {
    let mib = |kib: u64| format!("{:.1} MiB", kib as f64 / 1024.0);
    println!("Wrong trusted-origin sign-ins fired at once (argon2id, 19 MiB a check, one at a time, one more waiting)");
    println!(
        "{:>6} {:>5} {:>5} {:>6} {:>10} {:>12} {:>12} {:>12} {:>12} {:>12}",
        "burst", "401", "429", "other", "took", "RSS before", "peak (2 ms)", "VmHWM", "after", "peak-before"
    );
    for r in rows {
        println!(
            "{:>6} {:>5} {:>5} {:>6} {:>10} {:>12} {:>12} {:>12} {:>12} {:>12}",
            r.n,
            r.statuses.unauthorized,
            r.statuses.limited,
            r.statuses.other,
            ms(r.took),
            mib(r.before_kib),
            mib(r.peak_kib),
            mib(r.hwm_kib),
            mib(r.after_kib),
            mib(r.peak_kib.saturating_sub(r.before_kib)),
        );
    }
    println!("(unbounded, 100 checks at once would take {}; the bound checked is 8 checks)\n", mib(100 * CHECK_KIB));
}

#[derive(Default)]
struct Approvals {
    /// The `trusted_decide` POST to its answer.
    decide: Vec<Duration>,
    /// The request's opening (the gate's `created_at_ms`) to the owner's poll answer that first listed it.
    visible: Vec<Duration>,
    failed: Vec<String>,
}

/// A confirmation the owner's poll listed, for the decider.
struct Listed {
    id: String,
    hash: String,
    seen: Instant,
}

/// The owner's trusted page, open for the whole run as a page is: a poll of what is pending and the approvals,
/// each on its own kept-alive connection (a browser's poll does not wait for an approval's answer, and a flood at
/// the trusted origin's cap leaves no room for a new connection). Figures go to the condition `phase` names.
struct Owner {
    phase: Arc<AtomicUsize>,
    done: Arc<AtomicBool>,
    poller: tokio::task::JoinHandle<Vec<Approvals>>,
    decider: tokio::task::JoinHandle<Vec<Approvals>>,
}

/// How many conditions the owner's figures are kept for.
const PHASES: usize = 3;

fn phases() -> Vec<Approvals> {
    (0..PHASES).map(|_| Approvals::default()).collect()
}

impl Owner {
    async fn open(svc: &Service) -> Self {
        let (poll_http, decide_http) = (client(OWNER_TIMEOUT), client(OWNER_TIMEOUT));
        let owner =
            lan::sign_in(&decide_http, &svc.trusted, &svc.trusted_origin, APPROVAL, None).await.expect("the owner");
        let (phase, done) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicBool::new(false)));
        let (listed, due) = tokio::sync::mpsc::unbounded_channel();
        let poller = {
            let (owner, phase, done) = (owner.clone(), phase.clone(), done.clone());
            tokio::spawn(async move { poll(&poll_http, &owner, &phase, &done, listed).await })
        };
        let decider = {
            let phase = phase.clone();
            tokio::spawn(async move { decide(&decide_http, &owner, &phase, due).await })
        };
        Self { phase, done, poller, decider }
    }

    /// Stops polling, lets the decider finish what was listed, and returns each condition's figures.
    async fn close(self) -> Vec<Approvals> {
        self.done.store(true, Ordering::Relaxed);
        let mut all = self.poller.await.expect("the owner's poll");
        for (mine, theirs) in all.iter_mut().zip(self.decider.await.expect("the owner's approvals")) {
            mine.decide = theirs.decide;
            mine.failed.extend(theirs.failed);
            mine.decide.sort();
            mine.visible.sort();
        }
        all
    }
}

async fn poll(
    http: &reqwest::Client,
    owner: &Browser,
    phase: &AtomicUsize,
    done: &AtomicBool,
    listed: tokio::sync::mpsc::UnboundedSender<Listed>,
) -> Vec<Approvals> {
    let mut out = phases();
    let mut seen: HashSet<String> = HashSet::new();
    while !done.load(Ordering::Relaxed) {
        let here = &mut out[phase.load(Ordering::Relaxed).min(PHASES - 1)];
        match lan::invoke(http, owner, "trusted_pending", json!({})).await {
            Ok((200, Value::Array(list))) => {
                // The gate's own clock, so its `created_at_ms` compares.
                let (now_ms, now) = (aiui_core::now_ms(), Instant::now());
                for request in list {
                    let id = request["id"].as_str().unwrap_or_default().to_owned();
                    if !seen.insert(id.clone()) {
                        continue;
                    }
                    let created = request["created_at_ms"].as_i64().unwrap_or(now_ms);
                    here.visible.push(Duration::from_millis(now_ms.saturating_sub(created).max(0) as u64));
                    let hash = request["arguments_hash"].as_str().unwrap_or_default().to_owned();
                    let _ = listed.send(Listed { id, hash, seen: now });
                }
            }
            other => here.failed.push(format!("trusted_pending: {other:?}")),
        }
        tokio::time::sleep(POLL).await;
    }
    out
}

/// Approves each listed request once it has been shown for the approve delay, one after another as one person
/// does; between approvals its connection is kept alive as a page's would be by its other requests.
async fn decide(
    http: &reqwest::Client,
    owner: &Browser,
    phase: &AtomicUsize,
    mut listed: tokio::sync::mpsc::UnboundedReceiver<Listed>,
) -> Vec<Approvals> {
    let mut out = phases();
    loop {
        let next = match tokio::time::timeout(KEEP_ALIVE, listed.recv()).await {
            Ok(Some(next)) => next,
            Ok(None) => break,
            Err(_) => {
                let session = http.get(format!("{}api/session", owner.base)).header("cookie", &owner.cookie);
                let _ = session.send().await;
                continue;
            }
        };
        tokio::time::sleep_until((next.seen + APPROVE_DELAY).into()).await;
        let Listed { id, hash, .. } = next;
        let approve = json!({ "id": id, "argumentsHash": hash, "answer": "approve", "secret": APPROVAL });
        let started = Instant::now();
        let answer = lan::invoke(http, owner, "trusted_decide", approve).await;
        let took = started.elapsed();
        let here = &mut out[phase.load(Ordering::Relaxed).min(PHASES - 1)];
        match answer {
            Ok((200, verdict)) if verdict == "allowed" => here.decide.push(took),
            other => {
                here.failed.push(format!("trusted_decide after {}: {other:?}", ms(took)));
                // Denied, the asker's turn ends now instead of at the gate's expiry.
                let deny = json!({ "id": id, "argumentsHash": hash, "answer": "deny" });
                let _ = lan::invoke(http, owner, "trusted_decide", deny).await;
            }
        }
    }
    out
}

/// What the askers did.
#[derive(Default)]
struct Asked {
    /// Turns that ended approved and answered.
    done: usize,
    /// `chat_send` answered 429 (the turn limit); the asker went on with its pool's next session.
    held_back: usize,
    failed: Vec<String>,
}

/// A LAN user asking for restarts back to back until `stop`, taking turns with the sessions of `pool`; each turn
/// waits for the owner.
async fn asker(http: &reqwest::Client, index: usize, pool: &[Browser], stop: &AtomicBool) -> Asked {
    let mut asked = Asked::default();
    let mut n = 0;
    while !stop.load(Ordering::Relaxed) {
        n += 1;
        let browser = &pool[n % pool.len()];
        let text = format!("{ASK} (asker {index}, turn {n})");
        let answer = match lan::invoke(http, browser, "chat_send", json!({ "conversation": null, "text": text })).await
        {
            Ok((200, answer)) => answer,
            Ok((429, _)) => {
                asked.held_back += 1;
                continue;
            }
            other => {
                asked.failed.push(format!("{text}: chat_send {other:?}"));
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            }
        };
        let turn = answer["turn"].as_str().unwrap_or_default();
        match lan::read_events(http, browser, turn, Instant::now()).await {
            Ok((_, events)) => {
                let kinds: Vec<&str> = events.iter().filter_map(|(_, e)| e["event"].as_str()).collect();
                let answered = events.iter().any(|(_, e)| e["text"].as_str().is_some_and(|t| t.contains("restarting")));
                if kinds.contains(&"awaiting_confirmation") && kinds.last() == Some(&"done") && answered {
                    asked.done += 1;
                } else {
                    asked.failed.push(format!("{text}: {kinds:?}"));
                }
            }
            Err(e) => asked.failed.push(format!("{text}: events {e}")),
        }
    }
    asked
}

/// One origin's flood: how many connections were tried, refused (closed by the service well before its header
/// timeout: over the cap, or no connection at all), cut off by the timeout, and open now.
#[derive(Default)]
struct Flood {
    attempted: AtomicUsize,
    refused: AtomicUsize,
    cut_off: AtomicUsize,
    open: AtomicUsize,
}

struct Held(Arc<Flood>);

impl Drop for Held {
    fn drop(&mut self) {
        self.0.open.fetch_sub(1, Ordering::Relaxed);
    }
}

/// Half a request line, and a request line with half its headers: what a slow-loris sends before going quiet.
const PARTIAL: [&[u8]; 2] = [b"GET /aiui/api/sess", b"POST /aiui/api/login HTTP/1.1\r\nHost: lan\r\nX-Slow: "];

/// One attacker's connection to `addr` from `source`, sending `bytes` and then nothing; opened again as soon as the
/// service closes it. Runs until aborted.
async fn flooder(addr: SocketAddr, source: IpAddr, bytes: &'static [u8], count: Arc<Flood>, timeout: Duration) {
    loop {
        count.attempted.fetch_add(1, Ordering::Relaxed);
        let opened = Instant::now();
        let connect = async {
            let socket = tokio::net::TcpSocket::new_v4()?;
            socket.bind(SocketAddr::new(source, 0))?;
            socket.connect(addr).await
        };
        let Ok(Ok(mut stream)) = tokio::time::timeout(Duration::from_secs(5), connect).await else {
            count.refused.fetch_add(1, Ordering::Relaxed);
            tokio::time::sleep(REFUSED_RETRY).await;
            continue;
        };
        count.open.fetch_add(1, Ordering::Relaxed);
        let held = Held(count.clone());
        let _ = stream.write_all(bytes).await;
        let mut buf = [0u8; 512];
        while let Ok(1..) = stream.read(&mut buf).await {}
        drop(held);
        if opened.elapsed() < timeout / 2 {
            count.refused.fetch_add(1, Ordering::Relaxed);
            tokio::time::sleep(REFUSED_RETRY).await;
        } else {
            count.cut_off.fetch_add(1, Ordering::Relaxed);
        }
    }
}

/// A new connection to `addr` that asks for the session page: whether the service answered it (the owner opening
/// the trusted page afresh, rather than on the connection their open page keeps).
async fn fresh_connection_answered(addr: SocketAddr) -> bool {
    let attempt = async {
        let mut stream = tokio::net::TcpStream::connect(addr).await?;
        let request = format!("GET /aiui/api/session HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n");
        stream.write_all(request.as_bytes()).await?;
        let mut answer = Vec::new();
        stream.read_to_end(&mut answer).await?;
        Ok::<_, std::io::Error>(answer.starts_with(b"HTTP/1.1 200"))
    };
    matches!(tokio::time::timeout(Duration::from_secs(5), attempt).await, Ok(Ok(true)))
}

struct FloodFigures {
    flooders: usize,
    attempted: usize,
    refused: usize,
    cut_off: usize,
    /// The median of the open connections sampled every 250 ms.
    open: usize,
}

/// One condition: its name, the chat sessions that load it (none: no load) and its flood (chat, trusted).
struct Condition {
    name: String,
    chatters: Vec<Browser>,
    flood: (usize, usize),
    seconds: Duration,
    header_timeout: Duration,
}

struct Outcome {
    name: String,
    asked: Asked,
    load: Tally,
    /// Chat, trusted; `None` without a flood.
    flood: Option<[FloodFigures; 2]>,
    /// Fresh connections to the trusted origin: answered, tried.
    fresh: (usize, usize),
}

/// Runs one condition while the owner's page (already open) approves what the askers ask.
async fn condition(svc: &Service, lan_http: &reqwest::Client, pools: &[Vec<Browser>], here: Condition) -> Outcome {
    let Condition { name, chatters, flood: (flood_chat, flood_trusted), seconds, header_timeout } = here;
    let counts = [Arc::new(Flood::default()), Arc::new(Flood::default())];
    let mut flooders = Vec::new();
    for (origin, (addr, many)) in
        [(svc.chat_addr, flood_chat), (svc.trusted_addr, flood_trusted)].into_iter().enumerate()
    {
        for n in 0..many {
            // Many LAN hosts, as 127.0.1.1-50: no one address stands out.
            let source = IpAddr::from([127, 0, 1, (n % 50) as u8 + 1]);
            let count = counts[origin].clone();
            flooders.push(tokio::spawn(flooder(addr, source, PARTIAL[n % 2], count, header_timeout)));
        }
    }
    let stop = Arc::new(AtomicBool::new(false));
    let sampler = {
        let (counts, stop) = (counts.clone(), stop.clone());
        tokio::spawn(async move {
            let mut samples = (Vec::new(), Vec::new());
            while !stop.load(Ordering::Relaxed) {
                samples.0.push(counts[0].open.load(Ordering::Relaxed));
                samples.1.push(counts[1].open.load(Ordering::Relaxed));
                tokio::time::sleep(Duration::from_millis(250)).await;
            }
            samples
        })
    };
    if !flooders.is_empty() {
        // The approvals start inside a flood already at its height.
        tokio::time::sleep(header_timeout).await;
    }
    let chatters: Vec<_> = chatters
        .into_iter()
        .enumerate()
        .map(|(i, browser)| {
            let (http, stop) = (lan_http.clone(), stop.clone());
            tokio::spawn(async move { lan::session(&http, i, &browser, &stop).await })
        })
        .collect();
    let fresh = {
        let (addr, stop) = (svc.trusted_addr, stop.clone());
        tokio::spawn(async move {
            let (mut answered, mut tried) = (0, 0);
            while !stop.load(Ordering::Relaxed) {
                tried += 1;
                answered += usize::from(fresh_connection_answered(addr).await);
                tokio::time::sleep(Duration::from_secs(1)).await;
            }
            (answered, tried)
        })
    };
    let stop_asking = Arc::new(AtomicBool::new(false));
    let askers: Vec<_> = pools
        .iter()
        .enumerate()
        .map(|(i, pool)| {
            let (http, pool, stop) = (lan_http.clone(), pool.clone(), stop_asking.clone());
            tokio::spawn(async move { asker(&http, i, &pool, &stop).await })
        })
        .collect();
    tokio::time::sleep(seconds).await;
    // The askers finish the turns they started, the owner approves those, and only then does the load stop: every
    // approval counted ran inside its condition.
    stop_asking.store(true, Ordering::Relaxed);
    let mut asked = Asked::default();
    for task in askers {
        let one = task.await.expect("an asker");
        asked.done += one.done;
        asked.held_back += one.held_back;
        asked.failed.extend(one.failed);
    }
    stop.store(true, Ordering::Relaxed);
    let mut load = Tally::default();
    for task in chatters {
        load.add(task.await.expect("a chat session"));
    }
    let fresh = fresh.await.expect("the fresh-connection probe");
    let samples = sampler.await.expect("the sampler");
    for task in &flooders {
        task.abort();
    }
    let flood = (flood_chat + flood_trusted > 0).then(|| {
        let median = |v: &[usize]| {
            let mut v = v.to_vec();
            v.sort_unstable();
            v.get(v.len() / 2).copied().unwrap_or(0)
        };
        let figures = |count: &Flood, flooders, open| FloodFigures {
            flooders,
            attempted: count.attempted.load(Ordering::Relaxed),
            refused: count.refused.load(Ordering::Relaxed),
            cut_off: count.cut_off.load(Ordering::Relaxed),
            open,
        };
        [figures(&counts[0], flood_chat, median(&samples.0)), figures(&counts[1], flood_trusted, median(&samples.1))]
    });
    for task in flooders {
        let _ = task.await;
    }
    Outcome { name, asked, load, flood, fresh }
}

fn print_approvals(
    outcomes: &[Outcome],
    approvals: &[Approvals],
    seconds: Duration,
    askers: usize,
    header_timeout: Duration,
    flood: (usize, usize),
) {
    let caps = WebConfig::new(PathBuf::new(), PathBuf::new()).max_connections;
    println!(
        "The owner's approvals on the trusted origin: {askers} LAN users ask for restarts; the owner's page, open \
         throughout, polls every {} ms and approves each after the {} s delay, on two kept-alive connections; {} s \
         per condition",
        POLL.as_millis(),
        APPROVE_DELAY.as_secs(),
        seconds.as_secs()
    );
    println!(
        "{:<24} {:>9} | {:>9} {:>9} {:>9} | {:>9} {:>9} {:>9} | {:>7} | {:>9} {:>8} {:>6} | {:>6} {:>6}",
        "condition",
        "approvals",
        "decide50",
        "decide99",
        "max",
        "visible50",
        "visible99",
        "max",
        "99/idle",
        "flood try",
        "refused",
        "open",
        "turns",
        "fresh"
    );
    let idle_p99 = approvals.first().map(|a| quantile(&a.decide, 0.99)).unwrap_or_default();
    for (o, a) in outcomes.iter().zip(approvals) {
        let (d, v) = (&a.decide, &a.visible);
        let p99 = quantile(d, 0.99);
        let ratio = if idle_p99.is_zero() { 0.0 } else { p99.as_secs_f64() / idle_p99.as_secs_f64() };
        let (tried, refused, open) = match &o.flood {
            Some(f) => {
                let sum = |g: fn(&FloodFigures) -> usize| f.iter().map(g).sum::<usize>().to_string();
                (sum(|f| f.attempted), sum(|f| f.refused), sum(|f| f.open))
            }
            None => ("-".into(), "-".into(), "-".into()),
        };
        println!(
            "{:<24} {:>9} | {:>9} {:>9} {:>9} | {:>9} {:>9} {:>9} | {:>6.2}x | {:>9} {:>8} {:>6} | {:>6} {:>6}",
            o.name,
            d.len(),
            ms(quantile(d, 0.5)),
            ms(p99),
            ms(quantile(d, 1.0)),
            ms(quantile(v, 0.5)),
            ms(quantile(v, 0.99)),
            ms(quantile(v, 1.0)),
            ratio,
            tried,
            refused,
            open,
            o.load.turns,
            format!("{}/{}", o.fresh.0, o.fresh.1),
        );
    }
    println!(
        "decide: the trusted_decide POST to its answer (an argon2id check inside); visible: the gate opening the \
         request to the owner's poll listing it (ms clock); 99/idle: decide p99 against idle's; turns: the chat \
         sessions' turns done; fresh: new connections to the trusted origin answered/tried, one a second (the flood's \
         open count leaves out the owner's two)"
    );
    for (o, a) in outcomes.iter().zip(approvals) {
        let failures = a.failed.len() + o.asked.failed.len();
        println!(
            "{}: {} restarts asked and answered ({} held back by the turn limit), {} approval failures; chat: {} \
             turns, {} held back by the turn limit, {} lost, {} misdelivered, {} calls refused or unanswered",
            o.name,
            o.asked.done,
            o.asked.held_back,
            failures,
            o.load.turns,
            o.load.held_back,
            o.load.lost.len(),
            o.load.misdelivered.len(),
            o.load.failed.len()
        );
    }
    if let Some(f) = outcomes.iter().find_map(|o| o.flood.as_ref()) {
        println!(
            "\nThe flood: {} + {} half-open connections (half a request line, or a request line and half its headers), \
             header-read timeout {} ms (the service's default is {} s), caps {} chat / {} trusted",
            flood.0,
            flood.1,
            header_timeout.as_millis(),
            WebConfig::new(PathBuf::new(), PathBuf::new()).header_read_timeout.as_secs(),
            caps.0,
            caps.1
        );
        println!(
            "{:<8} {:>9} {:>10} {:>9} {:>10} {:>14}",
            "origin", "flooders", "attempted", "refused", "cut off", "open (median)"
        );
        for (origin, f) in ["chat", "trusted"].iter().zip(f) {
            println!(
                "{:<8} {:>9} {:>10} {:>9} {:>10} {:>14}",
                origin, f.flooders, f.attempted, f.refused, f.cut_off, f.open
            );
        }
    }
}
