//! What the LAN benches share (load.rs, flood.rs, stream_sse.rs): a browser's calls, the chat sessions that load the service, and
//! the figures. A module, not a bench: cargo takes only `benches/*.rs` and `benches/*/main.rs` as bench targets.
// Each bench uses part of it.
#![allow(dead_code)]

use std::net::IpAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::support::Browser;

pub fn env_or(name: &str, default: u64) -> u64 {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

/// The `q` quantile of `sorted` (nearest rank); zero when there is nothing.
pub fn quantile(sorted: &[Duration], q: f64) -> Duration {
    if sorted.is_empty() { Duration::ZERO } else { sorted[((sorted.len() - 1) as f64 * q).round() as usize] }
}

pub fn ms(d: Duration) -> String {
    format!("{:.1} ms", d.as_secs_f64() * 1000.0)
}

/// Signs in on an origin as its page would, through the node's proxy as the browser at `address` (the service must
/// trust the proxy: `WebConfig::trust_proxy`). The service counts sessions and turns per address, so LAN users are
/// each given their own. The error is the status or the transport's failure, for a bench under attack to count.
pub async fn sign_in(
    http: &reqwest::Client,
    base: &str,
    origin: &str,
    passphrase: &str,
    address: Option<IpAddr>,
) -> Result<Browser, String> {
    let mut request = http.post(format!("{base}api/login")).header("origin", origin);
    if let Some(address) = address {
        request = request.header("x-real-ip", address.to_string());
    }
    let response = request.json(&json!({ "passphrase": passphrase })).send().await.map_err(|e| e.to_string())?;
    if response.status() != 200 {
        return Err(format!("sign-in: {}", response.status()));
    }
    let set_cookie = response.headers().get("set-cookie").and_then(|v| v.to_str().ok()).unwrap_or_default();
    let cookie = set_cookie.split(';').next().unwrap_or_default().to_owned();
    let body: Value = response.json().await.map_err(|e| e.to_string())?;
    let csrf = body["csrf"].as_str().unwrap_or_default().to_owned();
    Ok(Browser { base: base.to_owned(), origin: origin.to_owned(), cookie, csrf })
}

/// The address of the `n`th LAN browser of a kind (`kind` keeps kinds apart): 10.<kind>.x.y.
pub fn lan_address(kind: u8, n: usize) -> IpAddr {
    IpAddr::from([10, kind, (n / 250) as u8, (n % 250) as u8 + 1])
}

/// `api/invoke/<command>` as the page calls it (cookie, CSRF token, Origin). `Err` only when no answer came.
pub async fn invoke(
    http: &reqwest::Client,
    browser: &Browser,
    command: &str,
    args: Value,
) -> Result<(u16, Value), reqwest::Error> {
    let response = http
        .post(format!("{}api/invoke/{command}", browser.base))
        .header("origin", &browser.origin)
        .header("cookie", &browser.cookie)
        .header("x-csrf-token", &browser.csrf)
        .json(&args)
        .send()
        .await?;
    Ok((response.status().as_u16(), response.json().await.unwrap_or(Value::Null)))
}

/// What one chat session saw.
#[derive(Default)]
pub struct Tally {
    pub first_event: Vec<Duration>,
    pub turns: usize,
    /// `chat_send` answered 429: the service's turn limit (per session and per address a minute) holding.
    pub held_back: usize,
    /// A turn without its answer or its `done`, or a gap in its event ids.
    pub lost: Vec<String>,
    /// An answer that was not this turn's echo.
    pub misdelivered: Vec<String>,
    /// Calls that got no answer or a refusal (kept apart from `lost`: under a flood a refused connection is the
    /// attack working, not the service losing an event).
    pub failed: Vec<String>,
}

impl Tally {
    pub fn add(&mut self, other: Tally) {
        self.first_event.extend(other.first_event);
        self.turns += other.turns;
        self.held_back += other.held_back;
        self.lost.extend(other.lost);
        self.misdelivered.extend(other.misdelivered);
        self.failed.extend(other.failed);
    }
}

/// A LAN session running turns back to back until `stop`, against a backend that answers "echo: <the words>". Held
/// back by the turn limit, it asks again a moment later, as a pushy user would, rather than idling for the minute.
pub async fn session(http: &reqwest::Client, index: usize, browser: &Browser, stop: &AtomicBool) -> Tally {
    let mut tally = Tally::default();
    let mut conversation: Option<String> = None;
    let mut n = 0;
    while !stop.load(Ordering::Relaxed) {
        n += 1;
        let text = format!("session {index} turn {n} {:08x}", rand::random::<u32>());
        let started = Instant::now();
        let args = json!({ "conversation": conversation, "text": text });
        let answer = match invoke(http, browser, "chat_send", args).await {
            Ok((200, answer)) => answer,
            Ok((429, _)) => {
                tally.held_back += 1;
                tokio::time::sleep(Duration::from_millis(250)).await;
                continue;
            }
            other => {
                tally.failed.push(format!("{text}: chat_send {other:?}"));
                // A refused connection comes back at once: do not spin on it.
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            }
        };
        conversation = answer["conversation"].as_str().map(str::to_owned);
        let turn = answer["turn"].as_str().unwrap_or_default().to_owned();
        let (first, events) = match read_events(http, browser, &turn, started).await {
            Ok(read) => read,
            Err(e) => {
                tally.failed.push(format!("{text}: events {e}"));
                continue;
            }
        };
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

/// Reads a turn's SSE stream to its end; returns the time from `started` to the first event and every (id, event).
pub async fn read_events(
    http: &reqwest::Client,
    browser: &Browser,
    turn: &str,
    started: Instant,
) -> Result<(Option<Duration>, Vec<(usize, Value)>), String> {
    let mut response = http
        .get(format!("{}api/turns/{turn}/events", browser.base))
        .header("cookie", &browser.cookie)
        .send()
        .await
        .map_err(|e| e.to_string())?;
    if response.status() != 200 {
        return Err(format!("status {}", response.status()));
    }
    let (mut buffer, mut events, mut first) = (String::new(), Vec::new(), None);
    loop {
        // A turn waiting on the owner sends nothing for a while; the gate's own expiry ends it long before this.
        let chunk = tokio::time::timeout(Duration::from_secs(90), response.chunk()).await;
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
    Ok((first, events))
}
