//! `aiui-cli demo`: a simulated node on loopback (HTTPS, generated password), paired automatically, then doctor.

use aiui_core::Secret;
use aiui_core::net::Fingerprint;
use aiui_core::node::{Credentials, NodeConfig};
use anyhow::Context;

use crate::l10n::t;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Stop after the checks instead of keeping the demo node running.
    #[arg(long)]
    pub once: bool,
}

pub use archy_devnode::demo::{DemoNode, start_demo as start_node};

/// The demo node's certificate fingerprint, to pin.
pub fn pin(demo: &DemoNode) -> anyhow::Result<Fingerprint> {
    demo.fingerprint.parse().with_context(|| t("cli-demo-fingerprint", &[]))
}

pub async fn run(args: Args) -> anyhow::Result<()> {
    let demo = start_node().await?;
    let pin = pin(&demo)?;
    let url: url::Url = demo.node.url().parse().with_context(|| t("cli-demo-address", &[]))?;
    println!("{}", t("cli-demo-at", &[("url", url.as_str().into())]));
    println!();
    let result = super::doctor::report(
        NodeConfig::new(url.clone()).with_pin(pin),
        Credentials { password: Secret::new(demo.password.clone()), totp: None },
    )
    .await;
    if result.is_ok() && !args.once {
        println!();
        println!("{}", t("cli-demo-keeps-running", &[]));
        println!(
            "  AIUI_NODE_PASSWORD='{}' cargo run -p aiui-cli -- doctor --node {url} --fingerprint {}",
            demo.password, pin
        );
        println!("{}", t("cli-demo-or-chat", &[]));
        tokio::signal::ctrl_c().await.with_context(|| t("cli-waiting-ctrl-c", &[]))?;
    }
    demo.node.shutdown().await;
    result
}
