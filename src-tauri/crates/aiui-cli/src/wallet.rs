//! `aiui-cli wallet balance|receive|invoice|reconcile`: the owner's view of the assistant's Cashu wallet.
//!
//! The seed lives in the OS keyring; tokens are read from standard input, never from arguments (which show in `ps`
//! and shell history).

use std::io::{Read, Write};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use aiui_core::budget::BudgetStore;
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
    /// refund endpoint for spent ones (writing them off after every try), mint paid invoices.
    Reconcile,
}

pub async fn run(args: Args) -> anyhow::Result<()> {
    let dir = crate::data_dir(args.data_dir)?;
    let secrets = Secrets::keyring_service(&args.keyring_service);
    let budget = Arc::new(BudgetStore::open(&aiui_core::backends::registry::budget_path(&dir))?);
    let options =
        WalletOptions { tor_socks: args.tor, owner_mints: budget.get().accepted_mints, ..WalletOptions::default() };
    let wallet = Arc::new(Wallet::open_with(&dir, &secrets, options).await.context("opening the wallet")?);
    let payments = Payments::new(wallet.clone(), budget);
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
                println!("! a token returned by {} was kept aside, not received: {reason}", entry.provider);
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
            for notice in &report.notices {
                println!("! {notice}");
            }
        }
    }
    Ok(())
}
