//! `aiui-cli wallet balance|receive|invoice|reconcile|notices|set-aside`: the owner's view of the assistant's Cashu
//! wallet.
//!
//! The seed lives in the OS keyring; tokens are read from standard input, never from arguments (which show in `ps`
//! and shell history).

use std::io::{Read, Write};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use aiui_core::budget::BudgetStore;
use aiui_core::net::guard::AddressPolicy;
use aiui_core::pay::{Payments, Wallet, WalletOptions};
use aiui_core::secrets::{SERVICE, Secrets};
use anyhow::{Context, bail};

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    pub command: Command,
    /// Where AIUI keeps its files (default: $AIUI_DATA_DIR or ~/.local/share/aiui).
    #[arg(long, value_name = "DIR", global = true)]
    pub data_dir: Option<PathBuf>,
    /// The keyring service holding the seed (tests and separate profiles).
    #[arg(long, value_name = "NAME", env = "AIUI_KEYRING_SERVICE", default_value = SERVICE, hide = true, global = true)]
    pub keyring_service: String,
    /// A Tor SOCKS5 proxy (e.g. 127.0.0.1:9050) for every request to a mint.
    #[arg(long, value_name = "HOST:PORT", global = true)]
    pub tor: Option<std::net::SocketAddr>,
}

#[derive(Debug, clap::Subcommand)]
pub enum Command {
    /// The balance at each mint, and what is in flight to providers.
    Balance,
    /// Receive a Cashu token read from standard input.
    Receive,
    /// Get a Lightning invoice from a mint, wait until it is paid, and mint the ecash.
    Invoice {
        /// The mint to fund.
        #[arg(long, value_name = "URL")]
        mint: String,
        /// How many sats.
        #[arg(long, value_name = "SATS")]
        amount: u64,
        /// How long to wait for the payment, in seconds (0: print the invoice and exit; `reconcile` mints it later).
        #[arg(long, value_name = "SECS", default_value_t = 600)]
        wait: u64,
    },
    /// Settle every payment in flight that no running request holds: reclaim unspent tokens, ask the provider's
    /// refund endpoint for spent ones (writing them off after every try), mint paid invoices. Refund endpoints are
    /// reached as the app reaches them: through `--tor` or the app's `routstr.tor_socks` when set.
    Reconcile,
    /// Every money notice kept for the owner (write-offs, returned tokens that did not count), oldest first.
    Notices,
    /// Tokens a provider sent back that did not count and were kept aside, not received.
    SetAside {
        #[command(subcommand)]
        action: Option<SetAsideAction>,
    },
}

#[derive(Debug, clap::Subcommand)]
pub enum SetAsideAction {
    /// List them with their payment ids (the default).
    List,
    /// Receive one after all. This contacts the mint the token names, which the provider may have chosen.
    Receive {
        /// The payment id shown by `set-aside list`.
        payment: String,
        /// Confirms that the mint it names may be contacted.
        #[arg(long)]
        yes: bool,
    },
    /// Drop one for good; nothing changes in the sums.
    Discard {
        /// The payment id shown by `set-aside list`.
        payment: String,
    },
}

pub async fn run(args: Args) -> anyhow::Result<()> {
    let dir = crate::data_dir(args.data_dir)?;
    let secrets = Secrets::keyring_service(&args.keyring_service);
    let budget = Arc::new(BudgetStore::open(&aiui_core::backends::registry::budget_path(&dir))?);
    let options = WalletOptions {
        tor_socks: args.tor.or_else(|| app_tor_proxy(&dir)),
        owner_mints: budget.get().accepted_mints,
        ..WalletOptions::default()
    };
    let wallet = Arc::new(Wallet::open_with(&dir, &secrets, options).await.context("opening the wallet")?);
    let tor = args.tor.or_else(|| app_tor_proxy(&dir));
    // Refund endpoints are reached as the app reaches them: public addresses only, through the owner's Tor proxy.
    let payments = Payments::new(wallet.clone(), budget).with_refund_access(AddressPolicy::PublicOnly, tor);
    match args.command {
        Command::Balance => {
            let balances = wallet.balances().await?;
            if balances.is_empty() {
                println!("No mints yet: fund the wallet with `aiui-cli wallet invoice` or `wallet receive`.");
            }
            for (mint, sats) in &balances {
                println!("{sats:>10} sats  {mint}");
            }
            let sums = payments.conservation().await?;
            println!("{:>10} sats  total", sums.wallet_balance);
            println!("{:>10} sats  in flight to providers", sums.in_flight);
            println!(
                "{:>10} sats  spent, {} sats in mint fees, {} sats received in all",
                sums.settled_spend, sums.fees, sums.received_total
            );
            for entry in payments.set_aside_tokens()? {
                let reason = entry.set_aside_reason.as_deref().unwrap_or("it did not count");
                println!(
                    "! a token returned by {} was kept aside, not received: {reason} (`aiui-cli wallet set-aside`)",
                    entry.provider
                );
            }
            if !sums.holds() {
                eprintln!("warning: the ledger does not add up; run `aiui-cli wallet reconcile`");
            }
        }
        Command::Receive => {
            let mut token = String::new();
            std::io::stdin().read_to_string(&mut token).context("reading the token from standard input")?;
            if token.trim().is_empty() {
                bail!(
                    "no token on standard input: paste a cashuA…/cashuB… token, e.g. `aiui-cli wallet receive < token.txt`"
                );
            }
            let sats = wallet.receive(token.trim()).await?;
            println!("Received {sats} sats.");
        }
        Command::Invoice { mint, amount, wait } => {
            // The owner named this mint on the command line: it is theirs, even on their own network.
            wallet.trust_owner_mints(std::slice::from_ref(&mint));
            let invoice = wallet.mint_invoice(&mint, amount).await?;
            println!("{}", invoice.bolt11);
            std::io::stdout().flush()?;
            if wait == 0 {
                eprintln!("Pay this invoice; `aiui-cli wallet reconcile` mints the ecash once it is paid.");
                return Ok(());
            }
            eprintln!("Waiting up to {wait} s for the invoice to be paid…");
            let minted = wallet.wait_minted(&invoice.mint, &invoice.quote_id, Duration::from_secs(wait)).await?;
            println!("Minted {minted} sats at {}.", invoice.mint);
        }
        Command::Reconcile => {
            let report = payments.reconcile().await?;
            println!("checked {} payment(s) in flight", report.checked);
            println!("reclaimed {} token(s), {} sats", report.reclaimed, report.reclaimed_sats);
            println!("received {} stored change/refund token(s)", report.returned_received);
            println!("{} refunded by the provider's refund endpoint", report.refunded);
            println!("{} spent without change yet: the provider is asked again later", report.waiting);
            println!("{} written off as spent after every try", report.written_off);
            println!("{} could not be checked (mint unreachable), kept", report.unreachable);
            println!("{} belong to a request that is still running, left alone", report.skipped_live);
            println!(
                "{} reservation(s) settled from the ledger, {} released",
                report.settled_late, report.released_reservations
            );
            println!("minted {} sats from paid invoices", report.minted_sats);
            if report.reconciling_elsewhere {
                println!("another AIUI process is reconciling this wallet right now; nothing was done here");
            }
            for notice in &report.notices {
                println!("! {notice}");
            }
        }
        Command::Notices => {
            let notices = payments.notices_after(0)?;
            if notices.is_empty() {
                println!("No money notices.");
            }
            for notice in notices {
                println!("{:>9} ago  {}", age(aiui_core::now_ms() - notice.at_ms), notice.text);
            }
        }
        Command::SetAside { action } => match action.unwrap_or(SetAsideAction::List) {
            SetAsideAction::List => {
                let entries = payments.set_aside_tokens()?;
                if entries.is_empty() {
                    println!("No token is kept aside.");
                }
                for entry in entries {
                    let reason = entry.set_aside_reason.as_deref().unwrap_or("it did not count");
                    println!("{}  from {}: {reason}", entry.id, entry.provider);
                }
            }
            SetAsideAction::Receive { payment, yes } => {
                if !yes {
                    bail!(
                        "receiving a set-aside token contacts the mint it names, which the provider may have chosen; \
                         run again with --yes to receive it"
                    );
                }
                let (mint, sats) = payments.receive_set_aside(&payment).await?;
                println!("Received {sats} sats from {mint}.");
            }
            SetAsideAction::Discard { payment } => {
                payments.discard_set_aside(&payment)?;
                println!("Discarded the token kept aside for payment {payment}.");
            }
        },
    }
    Ok(())
}

/// The Tor proxy the desktop app uses for paid help (`routstr.tor_socks` in `aiui.json` in the data dir), so a
/// reconcile from the terminal reaches mints and refund endpoints the same way. Read leniently: no file, no proxy.
fn app_tor_proxy(dir: &std::path::Path) -> Option<std::net::SocketAddr> {
    let bytes = std::fs::read(dir.join("aiui.json")).ok()?;
    let config: serde_json::Value = serde_json::from_slice(&bytes).ok()?;
    config.pointer("/routstr/tor_socks")?.as_str()?.parse().ok()
}

/// How long ago, in the largest whole unit.
fn age(ms: i64) -> String {
    let secs = (ms / 1000).max(0);
    match secs {
        0..120 => format!("{secs} s"),
        120..7200 => format!("{} min", secs / 60),
        7200..172_800 => format!("{} h", secs / 3600),
        _ => format!("{} days", secs / 86_400),
    }
}
