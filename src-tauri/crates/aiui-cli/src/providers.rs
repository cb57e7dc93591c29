//! `aiui-cli providers`: the Routstr providers discovered on Nostr, with endpoints, mints and prices.

use aiui_core::backends::routstr::discovery::{Discovery, DiscoveryConfig, ReviewMode, parse_reviewer};
use aiui_core::backends::routstr::{Listing, ModelPrice, ROUTSTR_MAX_TOKENS, RoutstrConfig, discover_and_probe};

use crate::l10n::{self, decimal, t};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Show only providers serving this model, with its price.
    #[arg(long, value_name = "MODEL")]
    pub model: Option<String>,
    /// Show every relay's notices and every event the relays served, with why it was used or refused.
    #[arg(long, short)]
    pub verbose: bool,
    #[command(flatten)]
    pub discovery: DiscoveryArgs,
}

/// Where and how Routstr providers are discovered: shared by `chat` and `providers`.
#[derive(Debug, clap::Args)]
pub struct DiscoveryArgs {
    /// A Nostr relay to discover Routstr providers on; repeat for several (default: the Routstr SDK's relays).
    #[arg(long = "relay", value_name = "URL")]
    pub relays: Vec<String>,
    /// Use providers nobody reviewed (default: only reviewed providers).
    #[arg(long)]
    pub any_provider: bool,
    /// The reviewer whose kind-38425 labels decide which providers count as reviewed (npub or hex public key).
    #[arg(long, value_name = "NPUB", value_parser = reviewer_key)]
    pub reviewer: Option<String>,
    /// A Tor SOCKS5 proxy; relays and onion providers are then reached through it.
    #[arg(long, value_name = "ADDR")]
    pub tor: Option<std::net::SocketAddr>,
}

impl DiscoveryArgs {
    pub fn config(&self) -> DiscoveryConfig {
        let mut config = DiscoveryConfig { socks_proxy: self.tor, ..DiscoveryConfig::default() };
        if !self.relays.is_empty() {
            config.relays = self.relays.clone();
        }
        if self.any_provider {
            config.review_mode = ReviewMode::Any;
        }
        config.reviewer.clone_from(&self.reviewer);
        config
    }
}

/// Refuses a reviewer key that is neither an npub nor hex when the command line is read, not later.
fn reviewer_key(key: &str) -> Result<String, String> {
    parse_reviewer(key).map(|_| key.trim().to_owned())
}

/// Sats for one request's completion at the cap every AIUI request carries, before the prompt's share.
fn completion_cap_sats(price: &ModelPrice) -> f64 {
    f64::from(ROUTSTR_MAX_TOKENS) * price.completion
}

pub async fn run(args: Args) -> anyhow::Result<()> {
    let discovery = Discovery::new(args.discovery.config());
    let routstr = RoutstrConfig { tor_socks: args.discovery.tor, ..RoutstrConfig::default() };
    let Listing { providers, mut report } = discover_and_probe(&discovery, &routstr).await?;
    let mut shown = 0;
    for p in &providers {
        let models: Vec<(&String, &ModelPrice)> = match &args.model {
            Some(m) => p.price_for(m).map(|price| (m, price)).into_iter().collect(),
            None => p.models.iter().collect(),
        };
        if let (Some(model), true) = (&args.model, models.is_empty()) {
            report.refuse(
                &p.pubkey,
                &p.d,
                aiui_core::backends::routstr::discovery::Refusal::NoModel { model: model.clone() },
            );
            continue;
        }
        shown += 1;
        println!("{}", p.label());
        for endpoint in &p.endpoints {
            println!("{}", t("cli-providers-endpoint", &[("endpoint", endpoint.to_string().into())]));
        }
        for mint in &p.mints {
            println!("{}", t("cli-providers-mint", &[("mint", mint.to_string().into())]));
        }
        for (model, price) in models {
            let args = [
                ("model", model.as_str().into()),
                ("cap", decimal(completion_cap_sats(price).ceil(), 0).into()),
                ("tokens", ROUTSTR_MAX_TOKENS.into()),
                ("prompt", decimal(price.prompt * 1000.0 / 3.0, 2).into()),
            ];
            println!("{}", t("cli-providers-model", &args));
        }
    }
    if shown == 0 {
        match &args.model {
            Some(model) => println!("{}", t("cli-providers-none-serving", &[("model", model.as_str().into())])),
            None => println!("{}", t("cli-providers-none", &[])),
        }
    }
    println!();
    println!("{}", t("cli-providers-discovery", &[]));
    for line in report.lines(args.verbose, l10n::locale()) {
        println!("  {line}");
    }
    Ok(())
}
