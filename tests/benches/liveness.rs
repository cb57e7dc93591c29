//! Bench: what a dead local leg costs per turn, first and once its verdict is cached. Prints a table.
//!
//! Run: `cargo bench -p aiui-tests --bench liveness`. Compare the rows with each other (one run, one machine),
//! not with a fixed number: the machines are shared and noisy.

#![allow(clippy::print_stdout)] // A bench's table is its output.

use std::sync::Arc;
use std::time::{Duration, Instant};

use aiui_core::Secret;
use aiui_core::backends::ChatRequest;
use aiui_core::backends::chain::{Chain, Leg, TurnContext};
use aiui_core::backends::claude::{Claude, ClaudeConfig, ClaudeSpend};
use aiui_core::backends::ollama::{Ollama, OllamaConfig};
use aiui_core::budget::{ClaudeAllowance, ClaudeUpdate, PaymentPolicy};
use aiui_core::pricing::Prices;
use aiui_core::secrets::{SecretName, Secrets};

const ROUNDS: usize = 200;

fn chain(ollama_url: &str) -> Chain {
    let secrets = Secrets::in_memory();
    secrets.set(SecretName::AnthropicApiKey, &Secret::from("sk-ant-bench")).expect("an in-memory secret");
    // An allowance in a folder of its own: Claude is selectable only with one. Nothing is sent, so nothing is spent.
    let dir = tempfile::tempdir().expect("a temporary dir").keep();
    let allowance = ClaudeAllowance::open(&dir).expect("the allowance opens");
    allowance.set(ClaudeUpdate { allowance_usd_micros: Some(1_000_000), period: None }).expect("it is set");
    let spend = ClaudeSpend { allowance: Arc::new(allowance), prices: Prices::shipped() };
    let claude = Claude::new(ClaudeConfig::default(), Arc::new(secrets), spend).expect("a client");
    let ollama = Ollama::new(OllamaConfig {
        url: ollama_url.parse().expect("a URL"),
        connect_timeout: Duration::from_secs(1),
        ..OllamaConfig::default()
    })
    .expect("a client");
    Chain::new(vec![Leg::Local(ollama), Leg::Claude(claude)])
}

async fn row(name: &str, url: &str) {
    let chain = chain(url);
    let request = ChatRequest { system: String::new(), messages: Vec::new(), tools: Vec::new(), max_tokens: 1 };
    let context = TurnContext {
        policy: PaymentPolicy::nothing(),
        claude: chain.claude_policy(),
        node: None,
        locale: Default::default(),
    };
    let start = Instant::now();
    chain.select(0, &request, &context).await.expect("Claude is selectable");
    let first = start.elapsed();
    let mut cached = Vec::with_capacity(ROUNDS);
    for _ in 0..ROUNDS {
        let start = Instant::now();
        chain.select(0, &request, &context).await.expect("Claude is selectable");
        cached.push(start.elapsed());
    }
    cached.sort();
    let median = cached[ROUNDS / 2];
    let p99 = cached[ROUNDS * 99 / 100];
    println!(
        "{name:<22} {:>12.1} {:>14.3} {:>12.3} {:>10.0}x",
        first.as_secs_f64() * 1e3,
        median.as_secs_f64() * 1e3,
        p99.as_secs_f64() * 1e3,
        first.as_secs_f64() / median.as_secs_f64().max(1e-9)
    );
}

#[tokio::main]
async fn main() {
    let refused = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("a port");
        let url = format!("http://{}/", listener.local_addr().expect("an address"));
        drop(listener);
        url
    };
    let hole = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("a port");
    let hole_url = format!("http://{}/", hole.local_addr().expect("an address"));
    tokio::spawn(async move {
        let mut held = Vec::new();
        while let Ok((socket, _)) = hole.accept().await {
            held.push(socket);
        }
    });
    println!("selecting a leg when the local one is dead ({ROUNDS} cached rounds)");
    println!("{:<22} {:>12} {:>14} {:>12} {:>11}", "dead Ollama", "first ms", "cached p50 ms", "cached p99", "ratio");
    row("connection refused", &refused).await;
    row("hung (accepts, silent)", &hole_url).await;
}
