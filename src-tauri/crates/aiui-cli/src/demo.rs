//! `aiui-cli demo`: a simulated node on loopback (HTTPS, generated password), paired automatically, then doctor.

use std::net::SocketAddr;

use aiui_core::Secret;
use aiui_core::node::{Credentials, NodeConfig};
use anyhow::Context;
use archy_devnode::DevNodeConfig;
use rand_password::generate;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Stop after the checks instead of keeping the demo node running.
    #[arg(long)]
    pub once: bool,
}

pub async fn run(args: Args) -> anyhow::Result<()> {
    let data_dir = tempfile::Builder::new().prefix("aiui-demo-node-").tempdir().context("creating the demo node's data dir")?;
    let password = generate();
    let mut config = DevNodeConfig::new(password.expose().clone(), data_dir.path());
    config.tls = true;
    let node = archy_devnode::spawn(config, SocketAddr::from(([127, 0, 0, 1], 0))).await.context("starting the demo node")?;
    let pin = node
        .fingerprint()
        .context("the demo node serves TLS but reported no fingerprint")?
        .parse()
        .context("the demo node's fingerprint")?;
    let url: url::Url = node.url().parse().context("the demo node's address")?;
    println!("Demo node (simulated) at {url}\n");
    let result = super::doctor::report(
        NodeConfig::new(url.clone()).with_pin(pin),
        Credentials { password: Secret::new(password.expose().clone()), totp: None },
    )
    .await;
    if result.is_ok() && !args.once {
        println!("\nThe demo node keeps running until Ctrl-C. From another terminal:");
        println!("  AIUI_NODE_PASSWORD=<the password below> cargo run -p aiui-cli -- doctor --node {url} --fingerprint {pin}");
        println!("  password: {}", password.expose());
        tokio::signal::ctrl_c().await.context("waiting for Ctrl-C")?;
    }
    node.shutdown().await;
    result
}

mod rand_password {
    //! A throwaway password for the demo node; it is printed because the demo is for trying things out.

    use aiui_core::Secret;

    pub fn generate() -> Secret<String> {
        let alphabet: Vec<char> = "abcdefghjkmnpqrstuvwxyz23456789".chars().collect();
        let mut out = String::new();
        for i in 0..16 {
            if i > 0 && i % 4 == 0 {
                out.push('-');
            }
            out.push(alphabet[rand::random_range(0..alphabet.len())]);
        }
        Secret::new(out)
    }
}
