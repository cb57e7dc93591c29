//! A simulated Archipelago node that speaks the real node's RPC contract: the demo default and the tests' node.
//!
//! [`spawn`] serves `POST /rpc/v1` and `GET /health` on a loopback (or LAN) address, with the real node's
//! cookies, CSRF check, TOTP step and login rate limit, a seeded package catalogue whose lifecycle is persisted
//! in `<data_dir>/state.json`, and fault knobs for tests. Nothing it logs carries a password, session id, CSRF
//! token or TOTP code.

mod auth;
mod chain;
mod config;
pub mod demo;
mod faults;
mod packages;
mod ratelimit;
mod rpc;
mod shapes;
mod state;
mod system;
mod time;
mod tls;

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context as _;
use axum_server::Handle;
use axum_server::tls_rustls::RustlsConfig;
use tokio::task::JoinHandle;

pub use crate::config::{DevNodeConfig, Faults, MintConfig};
pub use crate::shapes::Shapes;
use crate::state::{NodeState, lock};

/// How long open connections get to finish when the node shuts down, before they are cut.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(2);

/// Starts a devnode on `bind` (port 0 lets the OS pick) and returns once it accepts connections.
///
/// Fails if the configuration is unusable (empty password, bad TOTP secret), if `state.json` or the TLS files
/// in the data directory are unreadable or corrupt (they are never overwritten), or if `bind` cannot be bound.
pub async fn spawn(config: DevNodeConfig, bind: SocketAddr) -> anyhow::Result<RunningDevNode> {
    let node = Arc::new(NodeState::open(&config)?);
    let identity = if config.tls { Some(tls::load_or_create(&config.data_dir)?) } else { None };
    let fingerprint = identity.as_ref().map(|id| tls::fingerprint(&id.cert));

    let listener = std::net::TcpListener::bind(bind).with_context(|| format!("could not listen on {bind}"))?;
    let addr = listener.local_addr().context("the listener has no local address")?;
    let handle = Handle::<SocketAddr>::new();
    let app = rpc::router(Arc::clone(&node)).into_make_service_with_connect_info::<SocketAddr>();
    let server = match &identity {
        Some(identity) => {
            let tls = RustlsConfig::from_config(tls::server_config(identity)?);
            let server = axum_server::from_tcp_rustls(listener, tls)
                .context("could not serve TLS on the listener")?
                .handle(handle.clone());
            tokio::spawn(server.serve(app))
        }
        None => {
            let server =
                axum_server::from_tcp(listener).context("could not serve on the listener")?.handle(handle.clone());
            tokio::spawn(server.serve(app))
        }
    };
    tracing::info!(%addr, tls = config.tls, data_dir = %config.data_dir.display(), "archy-devnode listening");
    Ok(RunningDevNode { addr, tls: config.tls, fingerprint, node, handle, server: Some(server) })
}

/// A devnode being served. Dropping it stops the server abruptly; [`RunningDevNode::shutdown`] stops it
/// gracefully and waits.
pub struct RunningDevNode {
    addr: SocketAddr,
    tls: bool,
    fingerprint: Option<String>,
    node: Arc<NodeState>,
    handle: Handle<SocketAddr>,
    server: Option<JoinHandle<std::io::Result<()>>>,
}

impl std::fmt::Debug for RunningDevNode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RunningDevNode").field("addr", &self.addr).field("tls", &self.tls).finish_non_exhaustive()
    }
}

impl RunningDevNode {
    /// The address actually bound (the real port when `bind` asked for port 0).
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The base URL with a trailing slash, e.g. `http://127.0.0.1:5678/`. An unspecified bind address
    /// (`0.0.0.0`, `::`) is shown as loopback, which is where a local client can reach it.
    pub fn url(&self) -> String {
        let ip = match self.addr.ip() {
            IpAddr::V4(ip) if ip.is_unspecified() => IpAddr::V4(Ipv4Addr::LOCALHOST),
            IpAddr::V6(ip) if ip.is_unspecified() => IpAddr::V6(Ipv6Addr::LOCALHOST),
            ip => ip,
        };
        let scheme = if self.tls { "https" } else { "http" };
        format!("{scheme}://{}/", SocketAddr::new(ip, self.addr.port()))
    }

    /// The TLS certificate's SHA-256 fingerprint (`AB:CD:…`), when serving TLS.
    pub fn fingerprint(&self) -> Option<String> {
        self.fingerprint.clone()
    }

    /// Replaces the fault knobs; the deterministic failure pattern restarts from its first call.
    pub fn set_faults(&self, faults: Faults) {
        lock(&self.node.faults).set(faults);
    }

    /// Switches the shape every read method answers in, from the next call on.
    pub fn set_shapes(&self, shapes: Shapes) {
        *lock(&self.node.shapes) = shapes;
    }

    /// Makes every current session (pending or full) invalid at once, as if its TTL had passed.
    pub fn expire_sessions(&self) {
        lock(&self.node.sessions).expire_all();
    }

    /// Every session id and CSRF token the node has issued so far (for tests asserting none leaks into logs).
    pub fn issued_secrets(&self) -> Vec<String> {
        lock(&self.node.sessions).issued()
    }

    /// The RPC method names received so far, in order, including `auth.*` (for tests asserting a call was or
    /// was not made). Bodies that were not valid requests are not counted.
    pub fn calls(&self) -> Vec<String> {
        lock(&self.node.calls).clone()
    }

    /// Every RPC call received so far with its params, in order (for tests asserting what reached the node).
    pub fn requests(&self) -> Vec<(String, serde_json::Value)> {
        lock(&self.node.requests).clone()
    }

    /// Appends `line` to the app's log as if the app had printed it (scripted, possibly hostile, node data).
    /// Returns false for an unknown id.
    pub fn append_log(&self, id: &str, line: &str) -> bool {
        lock(&self.node.packages).get_mut(id).map(|p| p.logs.extend([line.to_owned()])).is_ok()
    }

    /// Replaces the title the package list shows for `id` (scripted, possibly hostile, package text). Returns
    /// false for an unknown id.
    pub fn set_title(&self, id: &str, title: &str) -> bool {
        lock(&self.node.packages).get_mut(id).map(|p| p.title_override = Some(title.to_owned())).is_ok()
    }

    /// The current state of one package as the node sees it, e.g. `"running"`; `None` for an unknown id.
    pub fn package_state(&self, id: &str) -> Option<String> {
        lock(&self.node.packages).get(id).ok().map(|p| p.state.as_str().to_owned())
    }

    /// Stops accepting connections, lets open ones finish (briefly), cancels pending package transitions and
    /// waits for all of it. The data directory stays, so a node can be started again on it at once.
    pub async fn shutdown(mut self) {
        self.handle.graceful_shutdown(Some(SHUTDOWN_GRACE));
        if let Some(server) = self.server.take() {
            match server.await {
                Ok(Ok(())) => {}
                Ok(Err(e)) => tracing::warn!(error = %e, "the server stopped with an error"),
                Err(e) => tracing::warn!(error = %e, "the server task failed"),
            }
        }
        self.node.stop_tasks().await;
        tracing::info!(addr = %self.addr, "archy-devnode stopped");
    }
}

impl Drop for RunningDevNode {
    fn drop(&mut self) {
        if self.server.is_some() {
            self.handle.shutdown();
            self.node.abort_tasks();
        }
    }
}
