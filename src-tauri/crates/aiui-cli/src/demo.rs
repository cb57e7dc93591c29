//! `aiui-cli demo`: a simulated node on loopback (HTTPS, generated password), paired automatically, then doctor.

use std::net::SocketAddr;

use aiui_core::Secret;
use aiui_core::net::Fingerprint;
use aiui_core::node::{Credentials, NodeConfig};
use anyhow::Context;
use archy_devnode::{DevNodeConfig, RunningDevNode};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Stop after the checks instead of keeping the demo node running.
    #[arg(long)]
    pub once: bool,
}

/// A running demo node and what pairing with it takes. Its data dir lives as long as this value.
pub struct DemoNode {
    pub node: RunningDevNode,
    pub password: String,
    pub pin: Fingerprint,
    _data: tempfile::TempDir,
}

/// Starts a simulated node on 127.0.0.1 with TLS and a fresh password, in a throwaway data dir.
pub async fn start_node() -> anyhow::Result<DemoNode> {
    let data =
        tempfile::Builder::new().prefix("aiui-demo-node-").tempdir().context("creating the demo node's data dir")?;
    let password = generate_password();
    let mut config = DevNodeConfig::new(password.clone(), data.path());
    config.tls = true;
    let node =
        archy_devnode::spawn(config, SocketAddr::from(([127, 0, 0, 1], 0))).await.context("starting the demo node")?;
    let pin = node
        .fingerprint()
        .context("the demo node serves TLS but reported no fingerprint")?
        .parse()
        .context("the demo node's fingerprint")?;
    Ok(DemoNode { node, password, pin, _data: data })
}

pub async fn run(args: Args) -> anyhow::Result<()> {
    let demo = start_node().await?;
    let url: url::Url = demo.node.url().parse().context("the demo node's address")?;
    println!("Demo node (simulated) at {url}\n");
    let result = super::doctor::report(
        NodeConfig::new(url.clone()).with_pin(demo.pin),
        Credentials { password: Secret::new(demo.password.clone()), totp: None },
    )
    .await;
    if result.is_ok() && !args.once {
        println!("\nThe demo node keeps running until Ctrl-C. From another terminal, check it with doctor:");
        println!(
            "  AIUI_NODE_PASSWORD='{}' cargo run -p aiui-cli -- doctor --node {url} --fingerprint {}",
            demo.password, demo.pin
        );
        println!("or chat with the assistant about a demo node of its own: cargo run -p aiui-cli -- chat --demo");
        tokio::signal::ctrl_c().await.context("waiting for Ctrl-C")?;
    }
    demo.node.shutdown().await;
    result
}

/// A throwaway password for the demo node. It is printed, because the demo is for trying things out.
fn generate_password() -> String {
    let alphabet: Vec<char> = "abcdefghjkmnpqrstuvwxyz23456789".chars().collect();
    let mut out = String::new();
    for i in 0..16 {
        if i > 0 && i % 4 == 0 {
            out.push('-');
        }
        out.push(alphabet[rand::random_range(0..alphabet.len())]);
    }
    out
}
