//! AIUI's core: the node client today; the loop, backends, budget, pay, tools, gate and egress screen as they land.
//!
//! This crate knows nothing of how it is shown: no tauri, no HTTP server. The Tauri shell, the CLI and the LAN
//! server are thin adapters over it (see ARCHITECTURE.md).

pub mod egress;
pub mod net;
pub mod node;
pub mod secret;

pub use secret::Secret;
