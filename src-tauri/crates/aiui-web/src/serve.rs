//! Serving one origin's listener with bounds an attacker on the LAN cannot stretch: a connection must send a
//! request's headers (or its next request) within a timeout, and each origin holds at most so many connections at
//! once, refusing the rest at accept. The trusted origin has its own listener and its own count.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::extract::ConnectInfo;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;

/// How long a connection may take to send a request's headers, or wait idle for its next request.
pub(crate) const HEADER_READ_TIMEOUT: Duration = Duration::from_secs(10);
/// Connections per origin (chat, trusted): far below the unit's `LimitNOFILE`, so both fit with room to spare.
pub(crate) const MAX_CONNECTIONS: (usize, usize) = (512, 128);

/// Accepts on `listener` until the task is aborted, each connection served by hyper with the header-read timeout,
/// at most `cap` at a time.
pub(crate) async fn bounded(
    listener: tokio::net::TcpListener,
    app: Router,
    cap: usize,
    header_read_timeout: Duration,
    origin: &'static str,
) {
    let open = Arc::new(tokio::sync::Semaphore::new(cap));
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
        let Ok(permit) = open.clone().try_acquire_owned() else {
            tracing::warn!(origin, %peer, cap, "a connection refused: this origin holds as many as it may");
            drop(stream);
            continue;
        };
        let service = TowerToHyperService::new(app.clone().layer(axum::Extension(ConnectInfo::<SocketAddr>(peer))));
        tokio::spawn(async move {
            let _permit = permit;
            let connection = hyper::server::conn::http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(header_read_timeout)
                .serve_connection(TokioIo::new(stream), service)
                .with_upgrades();
            if let Err(e) = connection.await {
                tracing::debug!(origin, %peer, error = %e, "a connection ended");
            }
        });
    }
}
