//! `aiui --demo`: a simulated node on loopback (HTTPS, generated password, throwaway data dir), paired by pinning
//! the fingerprint it reports. The node itself is `archy_devnode::demo`, shared with `aiui-cli demo`.

use aiui_core::net::Fingerprint;
use anyhow::Context;

pub use archy_devnode::demo::{DemoNode, start_demo as start_node};

/// The demo node's certificate fingerprint, to pin.
pub fn pin(demo: &DemoNode) -> anyhow::Result<Fingerprint> {
    demo.fingerprint.parse().context("the demo node's fingerprint")
}
