//! Serving one origin's listener with bounds an attacker on the LAN cannot stretch: a connection must send a
//! request's headers (or its next request) within a timeout, and each origin holds at most so many connections at
//! once. The trusted origin has its own listener and its own count. When an origin is full, a new connection takes
//! the place of the oldest one that never sent a whole request (a half-open flood's), else of the oldest one of the
//! address group holding the most; only when neither exists is it refused. So a flood cannot keep the owner from
//! opening a connection.

use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use axum::extract::ConnectInfo;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;

/// How long a connection may take to send a request's headers, or wait idle for its next request.
pub(crate) const HEADER_READ_TIMEOUT: Duration = Duration::from_secs(10);
/// Connections per origin (chat, trusted): far below the unit's `LimitNOFILE`, so both fit with room to spare.
pub(crate) const MAX_CONNECTIONS: (usize, usize) = (512, 128);

/// One open connection, as the accept loop weighs it when the origin is full.
struct Open {
    id: u64,
    opened: std::time::Instant,
    group: std::net::IpAddr,
    /// Set when the connection's first request arrived whole.
    served: Arc<AtomicBool>,
    close: Arc<tokio::sync::Notify>,
}

/// The open connections of one origin.
#[derive(Default)]
struct Registry {
    next: u64,
    open: Vec<Open>,
}

impl Registry {
    /// Which connection makes room for one from `group` when the origin is full (see the module's doc).
    fn victim(&self, group: std::net::IpAddr, cap: usize) -> Option<usize> {
        let half_open = self.open.iter().enumerate().filter(|(_, c)| !c.served.load(Ordering::Acquire));
        if let Some((index, _)) = half_open.min_by_key(|(_, c)| c.opened) {
            return Some(index);
        }
        let mut counts: std::collections::HashMap<std::net::IpAddr, usize> = std::collections::HashMap::new();
        for c in &self.open {
            *counts.entry(c.group).or_default() += 1;
        }
        let (busiest, held) = counts.into_iter().max_by_key(|(_, n)| *n)?;
        // A group that holds a fair share keeps it; the newcomer's own group never evicts itself.
        if busiest == group || held <= cap / 4 {
            return None;
        }
        self.open.iter().enumerate().filter(|(_, c)| c.group == busiest).min_by_key(|(_, c)| c.opened).map(|(i, _)| i)
    }
}

/// Accepts on `listener` until the task is aborted, each connection served by hyper with the header-read timeout,
/// at most `cap` at a time.
pub(crate) async fn bounded(
    listener: tokio::net::TcpListener,
    app: Router,
    cap: usize,
    header_read_timeout: Duration,
    origin: &'static str,
) {
    let registry = Arc::new(Mutex::new(Registry::default()));
    loop {
        let (stream, peer) = match listener.accept().await {
            Ok(accepted) => accepted,
            Err(e) => {
                // Out of file descriptors, say: wait a moment rather than spin.
                tracing::warn!(origin, error = %e, "could not accept a connection");
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            }
        };
        // Each streamed piece goes out at once, not held back for the reader's delayed ACK (Nagle, ~40 ms).
        if let Err(e) = stream.set_nodelay(true) {
            tracing::debug!(origin, %peer, error = %e, "TCP_NODELAY could not be set");
        }
        let group = crate::auth::address_group(peer.ip());
        let (id, served, close) = {
            let mut open = registry.lock().unwrap_or_else(|p| p.into_inner());
            if open.open.len() >= cap {
                let Some(index) = open.victim(group, cap) else {
                    tracing::warn!(origin, %peer, cap, "a connection refused: this origin holds as many as it may");
                    drop(stream);
                    continue;
                };
                let victim = open.open.swap_remove(index);
                tracing::debug!(origin, %peer, "this origin is full: its oldest half-open or most crowded connection made room");
                victim.close.notify_one();
            }
            open.next += 1;
            let (id, served, close) =
                (open.next, Arc::new(AtomicBool::new(false)), Arc::new(tokio::sync::Notify::new()));
            let opened = std::time::Instant::now();
            open.open.push(Open { id, opened, group, served: served.clone(), close: close.clone() });
            (id, served, close)
        };
        let seen = served.clone();
        let service =
            TowerToHyperService::new(app.clone().layer(axum::Extension(ConnectInfo::<SocketAddr>(peer))).layer(
                axum::middleware::map_request(move |request: axum::extract::Request| {
                    seen.store(true, Ordering::Release);
                    std::future::ready(request)
                }),
            ));
        let registry = registry.clone();
        tokio::spawn(async move {
            let connection = hyper::server::conn::http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(header_read_timeout)
                .serve_connection(TokioIo::new(stream), service)
                .with_upgrades();
            tokio::select! {
                result = connection => {
                    if let Err(e) = result {
                        tracing::debug!(origin, %peer, error = %e, "a connection ended");
                    }
                }
                () = close.notified() => tracing::debug!(origin, %peer, "a connection closed to make room"),
            }
            registry.lock().unwrap_or_else(|p| p.into_inner()).open.retain(|c| c.id != id);
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn open(registry: &mut Registry, group: [u8; 4], served: bool) {
        registry.next += 1;
        registry.open.push(Open {
            id: registry.next,
            opened: std::time::Instant::now(),
            group: group.into(),
            served: Arc::new(AtomicBool::new(served)),
            close: Arc::new(tokio::sync::Notify::new()),
        });
    }

    #[test]
    fn a_full_origin_gives_way_to_a_half_open_connection_first_then_to_the_most_crowded_address() {
        let mut r = Registry::default();
        for _ in 0..6 {
            open(&mut r, [10, 0, 0, 9], true);
        }
        open(&mut r, [10, 0, 0, 8], false);
        open(&mut r, [10, 0, 0, 7], true);
        assert_eq!(r.victim([10, 0, 0, 1].into(), 8), Some(6), "the half-open one, whoever holds it");
        r.open.remove(6);
        let victim = r.victim([10, 0, 0, 1].into(), 8).unwrap();
        assert_eq!(r.open[victim].group, std::net::IpAddr::from([10, 0, 0, 9]), "the most crowded address");
        assert_eq!(r.victim([10, 0, 0, 9].into(), 8), None, "never the newcomer's own group");
        let mut fair = Registry::default();
        for n in 0..8 {
            open(&mut fair, [10, 0, 0, n], true);
        }
        assert_eq!(fair.victim([10, 0, 0, 99].into(), 8), None, "every address within its share: refused");
    }
}
