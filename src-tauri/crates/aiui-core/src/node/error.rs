//! `NodeError`: the node client's failures, typed by what the caller does next.

use std::time::Duration;

use crate::net::Fingerprint;

/// What went wrong talking to the node. Each variant is a different next step for the caller (and, through the
/// loop, for the owner); the messages are written to be shown to the owner as they are.
#[derive(Debug, thiserror::Error)]
pub enum NodeError {
    /// No answer: connection refused, DNS, a timeout or a TLS failure other than the pin.
    #[error("the node at {url} could not be reached ({reason}). Check that it is on and that the address is right")]
    Unreachable { url: String, reason: String },

    /// The node's certificate is not the one the owner accepted. Nothing was sent.
    #[error(
        "the node's certificate does not match the pinned one (expected {expected}, got {presented}). \
         Nothing was sent. If you replaced the node's certificate, pair again and accept the new fingerprint"
    )]
    CertificateMismatch { expected: Fingerprint, presented: Fingerprint },

    /// The node refused the credentials, or refused a call even after one fresh login. Never retried.
    #[error("the node refused the login: {reason}")]
    AuthFailed { reason: String },

    /// The node's login rate limit tripped. Wait, then try once by hand.
    #[error("the node is refusing logins for now (too many attempts){}", retry_hint(*.retry_after))]
    RateLimited { retry_after: Option<Duration> },

    /// The node understood the call and answered with an error of its own.
    #[error("the node answered `{method}` with an error: {message}")]
    Rpc { method: String, status: u16, message: String },

    /// The node answered something that is not the RPC contract (wrong shape, oversized, not JSON).
    #[error("the node's answer to `{method}` was not understood: {detail}")]
    Protocol { method: String, detail: String },
}

fn retry_hint(after: Option<Duration>) -> String {
    match after {
        Some(d) => format!("; try again in {} s", d.as_secs().max(1)),
        None => "; wait a minute before trying again".to_owned(),
    }
}

impl NodeError {
    /// True for failures that a later identical call may not repeat (the node was busy or briefly down).
    pub fn is_transient(&self) -> bool {
        match self {
            Self::Unreachable { .. } | Self::RateLimited { .. } => true,
            Self::Rpc { status, .. } => *status >= 500,
            Self::CertificateMismatch { .. } | Self::AuthFailed { .. } | Self::Protocol { .. } => false,
        }
    }
}
