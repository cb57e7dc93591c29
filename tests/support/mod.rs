//! Shared test parts: a devnode on loopback, a client for it, tracing capture and small wire servers.

pub mod assistant;
pub mod capture;
pub mod claude_paid;
pub mod lightning;
pub mod mint;
pub mod nutshell;
pub mod paid;
pub mod provider;
pub mod python_relay;
pub mod relay;
pub mod socks5;
pub mod stub_relay;
pub mod wire;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use aiui_core::Secret;
use aiui_core::node::{Credentials, NodeClient, NodeConfig, TotpPrompt};
use archy_devnode::{DevNodeConfig, RunningDevNode};
use tempfile::TempDir;

/// The password every test devnode uses. Tests that check for leaks search the logs for it.
pub const PASSWORD: &str = "correct horse battery staple 7";
/// A base32 TOTP secret (RFC 6238 test key, "12345678901234567890").
pub const TOTP_SECRET: &str = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ";

pub fn loopback() -> SocketAddr {
    SocketAddr::from(([127, 0, 0, 1], 0))
}

/// A devnode with fast transitions in its own data dir. The dir lives as long as the returned guard.
pub struct TestNode {
    pub node: RunningDevNode,
    pub dir: TempDir,
}

pub fn fast_config(dir: &TempDir) -> DevNodeConfig {
    let mut config = DevNodeConfig::new(PASSWORD, dir.path());
    config.transition = Duration::from_millis(150);
    config
}

pub async fn start(tweak: impl FnOnce(&mut DevNodeConfig)) -> TestNode {
    let dir = tempfile::tempdir().expect("a temp dir for the devnode");
    let mut config = fast_config(&dir);
    tweak(&mut config);
    let node = archy_devnode::spawn(config, loopback()).await.expect("the devnode starts");
    TestNode { node, dir }
}

/// The current RFC 6238 code for [`TOTP_SECRET`], computed the way an authenticator app would.
pub fn totp_now() -> String {
    let secret = totp_rs::Secret::Encoded(TOTP_SECRET.into()).to_bytes().expect("valid base32");
    totp_rs::TOTP::new(totp_rs::Algorithm::SHA1, 6, 1, 30, secret)
        .expect("a valid TOTP setup")
        .generate_current()
        .expect("the clock is after 1970")
}

pub fn totp_prompt() -> TotpPrompt {
    Arc::new(|| Some(Secret::new(totp_now())))
}

pub fn credentials(password: &str) -> Credentials {
    Credentials { password: Secret::from(password), totp: None }
}

/// A client for `node`, pinned to its certificate when it serves TLS.
pub fn client_for(node: &RunningDevNode, credentials: Credentials) -> NodeClient {
    let mut config = NodeConfig::new(node.url().parse().expect("the devnode's URL parses"));
    if let Some(fp) = node.fingerprint() {
        config = config.with_pin(fp.parse().expect("the devnode's fingerprint parses"));
    }
    NodeClient::new(config, credentials).expect("the client builds")
}

/// Polls until `id` reaches `want` on the node, or fails the test after a few seconds.
pub async fn wait_for_state(client: &NodeClient, id: &str, want: &str) {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(5);
    loop {
        let packages = client.list_packages().await.expect("package.list");
        let state = packages.iter().find(|p| p.id == id).map(|p| state_str(&p.state));
        if state.as_deref() == Some(want) {
            return;
        }
        assert!(tokio::time::Instant::now() < deadline, "{id} never reached {want}; last state {state:?}");
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
}

pub fn state_str(state: &aiui_core::node::PackageState) -> String {
    match serde_json::to_value(state).expect("states serialize") {
        serde_json::Value::String(s) => s,
        other => other.to_string(),
    }
}
