//! `aiui --demo`: a simulated node on loopback (HTTPS, generated password, throwaway data dir), paired by pinning
//! the fingerprint it reports.

use std::net::SocketAddr;

use aiui_core::net::Fingerprint;
use anyhow::Context;
use archy_devnode::{DevNodeConfig, RunningDevNode};

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

/// A throwaway password for the demo node; it never leaves this process.
fn generate_password() -> String {
    let alphabet: Vec<char> = "abcdefghjkmnpqrstuvwxyz23456789".chars().collect();
    (0..20).map(|_| alphabet[rand::random_range(0..alphabet.len())]).collect()
}
