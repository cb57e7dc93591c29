//! The gate: every `act`/`act-high` tool call waits here for the owner's decision on a trusted surface.
//!
//! The request the owner sees is written by the host (summary, method, validated arguments), never by the model.
//! Decisions are keyed by a random id *and* the hash of the arguments shown, so a decision for a stale or
//! different request is refused. No decision before the expiry means no.

pub mod audit;
pub mod remote;

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use tokio::sync::{broadcast, oneshot};

pub use audit::{AuditError, AuditLog};

use crate::backends::BackendId;
use crate::tools::ToolClass;

/// What the trusted window shows. Everything here is host-made.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ConfirmRequest {
    pub id: String,
    pub tool: String,
    pub rpc_method: String,
    /// The arguments after schema validation: exactly what runs.
    pub arguments: Value,
    /// SHA-256 of tool, method and arguments; the decision must name it.
    pub arguments_hash: String,
    /// Written by the host from the arguments and node state, e.g. "Stop app `lnd` (running; btcpay depends on it)".
    pub summary: String,
    pub class: ToolClass,
    /// Which backend proposed it.
    pub backend: BackendId,
    /// Who asked for the turn that proposed it, as the host knows it (never from the page or the model).
    #[serde(default)]
    pub requester: Requester,
    pub created_at_ms: i64,
    pub expires_at_ms: i64,
}

/// Where the turn behind a confirmation came from, as the host that ran it knows: the owner deciding on the kiosk
/// or the trusted origin sees whether it was them or somebody on the LAN.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Requester {
    /// The desktop app's chat window on this computer.
    #[default]
    ThisDesktop,
    /// The node's own touchscreen (`aiui --kiosk`).
    Kiosk,
    /// `aiui-cli chat` in a terminal.
    Terminal,
    /// A LAN user of the chat origin: the address they signed in from, when, and the session's short id (the one
    /// `aiui-cli serve sessions` lists and revokes).
    Lan { address: String, signed_in_at_ms: i64, session: String },
}

impl Requester {
    /// The words the confirmation shows, e.g. "a LAN session from 192.168.1.20 (signed in 14:02, session 3f9a1c)".
    pub fn label(&self) -> String {
        match self {
            Self::ThisDesktop => "this desktop".into(),
            Self::Kiosk => "the node's own screen (kiosk)".into(),
            Self::Terminal => "a terminal on this machine (aiui-cli chat)".into(),
            Self::Lan { address, signed_in_at_ms, session } => {
                let at = crate::format_time_ms(*signed_in_at_ms);
                format!("a LAN session from {address} (signed in {at}, session {session})")
            }
        }
    }

    pub fn is_lan(&self) -> bool {
        matches!(self, Self::Lan { .. })
    }
}

/// The owner's answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Decision {
    AllowOnce,
    Deny,
}

/// How a request ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    Allowed,
    Denied,
    Expired,
}

/// Why a decision was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DecideError {
    #[error("there is no pending request with that id (it was already decided, expired, or never existed)")]
    Unknown,
    #[error("that request has expired")]
    Expired,
    #[error("the decision is for different arguments than the pending request; nothing was decided")]
    Mismatch,
    #[error(transparent)]
    Audit(#[from] AuditErrorText),
}

/// An audit failure, as text, so `DecideError` stays comparable in tests.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct AuditErrorText(pub String);

/// What a tool call needs confirmed, before the gate adds id, hash and expiry.
#[derive(Debug, Clone)]
pub struct Proposal {
    pub tool: String,
    pub rpc_method: String,
    pub arguments: Value,
    pub summary: String,
    pub class: ToolClass,
    pub backend: BackendId,
    pub requester: Requester,
}

struct Pending {
    request: ConfirmRequest,
    answer: oneshot::Sender<Verdict>,
    /// The order requests were opened in: two opened in the same millisecond still list oldest first.
    order: u64,
}

/// The pending confirmations of one process. Shells subscribe to hear of new ones.
pub struct Gate {
    pending: Mutex<HashMap<String, Pending>>,
    opened: std::sync::atomic::AtomicU64,
    audit: AuditLog,
    ttl: Duration,
    announce: broadcast::Sender<ConfirmRequest>,
}

impl std::fmt::Debug for Gate {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Gate").field("audit", &self.audit.path()).field("ttl", &self.ttl).finish_non_exhaustive()
    }
}

/// A request waiting for its verdict.
#[derive(Debug)]
pub struct Waiter {
    pub request: ConfirmRequest,
    answer: oneshot::Receiver<Verdict>,
}

impl Gate {
    pub fn new(audit: AuditLog, ttl: Duration) -> Self {
        let (announce, _) = broadcast::channel(16);
        Self { pending: Mutex::new(HashMap::new()), opened: std::sync::atomic::AtomicU64::new(0), audit, ttl, announce }
    }

    pub fn audit(&self) -> &AuditLog {
        &self.audit
    }

    /// New requests, as they are opened: the trusted window listens here.
    pub fn subscribe(&self) -> broadcast::Receiver<ConfirmRequest> {
        self.announce.subscribe()
    }

    /// The requests waiting for a decision, oldest first.
    pub fn pending(&self) -> Vec<ConfirmRequest> {
        let mut list: Vec<(u64, ConfirmRequest)> = self.lock().values().map(|p| (p.order, p.request.clone())).collect();
        list.sort_by_key(|(order, _)| *order);
        list.into_iter().map(|(_, request)| request).collect()
    }

    /// Opens a request. It is on the audit log before anyone can see it; if it cannot be recorded, it is not
    /// opened.
    pub fn open(&self, proposal: Proposal) -> Result<Waiter, AuditError> {
        let now = crate::now_ms();
        let request = ConfirmRequest {
            id: format!("{:032x}", rand::random::<u128>()),
            arguments_hash: arguments_hash(&proposal.tool, &proposal.rpc_method, &proposal.arguments),
            tool: proposal.tool,
            rpc_method: proposal.rpc_method,
            arguments: proposal.arguments,
            summary: proposal.summary,
            class: proposal.class,
            backend: proposal.backend,
            requester: proposal.requester,
            created_at_ms: now,
            expires_at_ms: now + self.ttl.as_millis() as i64,
        };
        self.audit.requested(&request)?;
        let (answer, receiver) = oneshot::channel();
        let order = self.opened.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        self.lock().insert(request.id.clone(), Pending { request: request.clone(), answer, order });
        // Nobody listening is fine: the request is still listed by `pending()`.
        let _ = self.announce.send(request.clone());
        Ok(Waiter { request, answer: receiver })
    }

    /// Answers a pending request. `arguments_hash` must be the one the owner was shown.
    pub fn decide(&self, id: &str, arguments_hash: &str, decision: Decision) -> Result<Verdict, DecideError> {
        let mut pending = self.lock();
        let entry = pending.get(id).ok_or(DecideError::Unknown)?;
        if entry.request.arguments_hash != arguments_hash {
            tracing::warn!(id, "refused a decision whose arguments hash does not match");
            return Err(DecideError::Mismatch);
        }
        let expired = crate::now_ms() >= entry.request.expires_at_ms;
        let verdict = match (expired, decision) {
            (true, _) => Verdict::Expired,
            (false, Decision::AllowOnce) => Verdict::Allowed,
            (false, Decision::Deny) => Verdict::Denied,
        };
        // The decision is recorded before it takes effect; if it cannot be, the request stays pending.
        self.audit.decided(id, verdict).map_err(|e| AuditErrorText(e.to_string()))?;
        let Some(entry) = pending.remove(id) else { return Err(DecideError::Unknown) };
        let _ = entry.answer.send(verdict);
        if verdict == Verdict::Expired { Err(DecideError::Expired) } else { Ok(verdict) }
    }

    /// Takes a pending request back undecided (its turn was stopped): no surface lists it any more, and a decision
    /// for it is `Unknown`. Returns whether it was still pending.
    pub fn withdraw(&self, id: &str) -> bool {
        let removed = self.lock().remove(id).is_some();
        if removed && let Err(e) = self.audit.withdrawn(id) {
            tracing::error!(error = %e, "a withdrawn request could not be recorded in the audit log");
        }
        removed
    }

    /// Waits for the owner. At the expiry the request is withdrawn and the verdict is `Expired`.
    pub async fn wait(&self, waiter: Waiter) -> Verdict {
        let Waiter { request, answer } = waiter;
        let left = (request.expires_at_ms - crate::now_ms()).max(0) as u64;
        match tokio::time::timeout(Duration::from_millis(left), answer).await {
            Ok(Ok(verdict)) => verdict,
            // Timed out, or the sender was dropped without an answer: both mean no.
            Ok(Err(_)) | Err(_) => {
                if self.lock().remove(&request.id).is_some() {
                    let _ = self.audit.decided(&request.id, Verdict::Expired);
                }
                Verdict::Expired
            }
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Pending>> {
        self.pending.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// The hash a decision must name: what will run, not how it was described.
pub fn arguments_hash(tool: &str, rpc_method: &str, arguments: &Value) -> String {
    let canonical = json!({ "tool": tool, "rpc_method": rpc_method, "arguments": arguments }).to_string();
    hex::encode(Sha256::digest(canonical.as_bytes()))
}

#[cfg(test)]
mod tests;
