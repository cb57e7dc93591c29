//! AIUI's core: the node client today; the loop, backends, budget, pay, tools, gate and egress screen as they land.
//!
//! This crate knows nothing of how it is shown: no tauri, no HTTP server. The Tauri shell, the CLI and the LAN
//! server are thin adapters over it (see ARCHITECTURE.md).

pub mod agent;
pub mod backends;
pub mod budget;
pub mod egress;
pub mod faults;
#[cfg(test)]
mod fuzz;
pub mod gate;
pub mod net;
pub mod node;
pub mod paths;
pub mod pay;
pub mod secret;
pub mod secrets;
pub mod store;
pub mod suggest;
pub mod tools;
pub mod view;

pub use secret::Secret;

/// Milliseconds since the Unix epoch, the one timestamp format of the audit log, the store and the gate.
pub fn now_ms() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_millis() as i64).unwrap_or_default()
}
