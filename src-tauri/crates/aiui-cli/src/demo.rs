//! `aiui-cli demo`: a simulated node on loopback (HTTPS, generated password), paired automatically, then doctor.

use aiui_core::Secret;
use aiui_core::net::Fingerprint;
use aiui_core::node::{Credentials, NodeConfig};
use anyhow::Context;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Stop after the checks instead of keeping the demo node running.
    #[arg(long)]
    pub once: bool,
}

pub use archy_devnode::demo::{DemoNode, start_demo as start_node};

/// The demo node's certificate fingerprint, to pin.
pub fn pin(demo: &DemoNode) -> anyhow::Result<Fingerprint> {
    demo.fingerprint.parse().context("the demo node's fingerprint")
}

pub async fn run(args: Args) -> anyhow::Result<()> {
    let demo = start_node().await?;
    let pin = pin(&demo)?;
    let url: url::Url = demo.node.url().parse().context("the demo node's address")?;
    println!("Demo node (simulated) at {url}\n");
    let result = super::doctor::report(
        NodeConfig::new(url.clone()).with_pin(pin),
        Credentials { password: Secret::new(demo.password.clone()), totp: None },
    )
    .await;
    if result.is_ok() && !args.once {
        println!("\nThe demo node keeps running until Ctrl-C. From another terminal, check it with doctor:");
        println!(
            "  AIUI_NODE_PASSWORD='{}' cargo run -p aiui-cli -- doctor --node {url} --fingerprint {}",
            demo.password, pin
        );
        println!("or chat with the assistant about a demo node of its own: cargo run -p aiui-cli -- chat --demo");
        tokio::signal::ctrl_c().await.context("waiting for Ctrl-C")?;
    }
    demo.node.shutdown().await;
    result
}
