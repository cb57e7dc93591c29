//! A throwaway demo node: loopback, HTTPS, a generated password, a temporary data dir. What `aiui --demo` and
//! `aiui-cli demo` start, so that both pair with the same kind of node.

use std::net::SocketAddr;

use anyhow::Context;
use rand::Rng;

use crate::{DevNodeConfig, RunningDevNode};

/// A running demo node and what pairing with it takes. Its data dir lives as long as this value.
pub struct DemoNode {
    pub node: RunningDevNode,
    pub password: String,
    /// The SHA-256 fingerprint of its self-signed certificate, to pin.
    pub fingerprint: String,
    _data: tempfile::TempDir,
}

impl std::fmt::Debug for DemoNode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DemoNode").field("url", &self.node.url()).finish_non_exhaustive()
    }
}

/// Starts a demo node on 127.0.0.1 with TLS and a fresh password, in a throwaway data dir.
pub async fn start_demo() -> anyhow::Result<DemoNode> {
    let data =
        tempfile::Builder::new().prefix("aiui-demo-node-").tempdir().context("creating the demo node's data dir")?;
    let password = generate_password();
    let mut config = DevNodeConfig::new(password.clone(), data.path());
    config.tls = true;
    let node = crate::spawn(config, SocketAddr::from(([127, 0, 0, 1], 0))).await.context("starting the demo node")?;
    let fingerprint = node.fingerprint().context("the demo node serves TLS but reported no fingerprint")?;
    Ok(DemoNode { node, password, fingerprint, _data: data })
}

/// A password that is easy to read and type, e.g. `k7mq-x2pd-9hvt-ra4e` (about 80 bits).
pub fn generate_password() -> String {
    // No 0/o or 1/l, so it survives being read aloud or copied by hand.
    const ALPHABET: &[u8] = b"abcdefghijkmnpqrstuvwxyz23456789";
    let mut rng = rand::rng();
    (0..4)
        .map(|_| (0..4).map(|_| char::from(ALPHABET[rng.random_range(0..ALPHABET.len())])).collect::<String>())
        .collect::<Vec<_>>()
        .join("-")
}
