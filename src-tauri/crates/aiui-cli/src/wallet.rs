//! `aiui-cli wallet …`: the owner's view of the assistant's Cashu wallet: balance, funding, withdrawing to
//! Lightning, tokens for other wallets, reconcile, notices, backup and restore.
//!
//! The seed lives in the OS keyring; tokens, invoices and backup words are read from standard input, never from
//! arguments (which show in `ps` and shell history).

use std::io::{BufRead, IsTerminal, Read, Write};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use aiui_core::budget::BudgetStore;
use aiui_core::net::guard::AddressPolicy;
use aiui_core::pay::{
    OutflowKind, PaymentState, Payments, TakenBack, Wallet, WalletBackup, WalletOptions, WithdrawalOutcome,
};
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
    /// Withdraw to Lightning: pay a BOLT11 invoice read from standard input, after showing what it costs.
    PayInvoice {
        /// The mint to pay from (default: the one holding the most).
        #[arg(long, value_name = "URL")]
        mint: Option<String>,
        /// Withdraw everything at the mint, after its fees (the invoice must name no amount).
        #[arg(long)]
        everything: bool,
        /// Pay without asking (needed when standard input is not a terminal).
        #[arg(long)]
        yes: bool,
    },
    /// Make a token for another wallet, shown once with a QR code.
    Send {
        /// The mint it comes from.
        #[arg(long, value_name = "URL")]
        mint: String,
        /// What the other wallet receives, in sats.
        #[arg(long, value_name = "SATS")]
        amount: u64,
    },
    /// Take back a token sent out that nobody has claimed yet.
    TakeBack {
        /// The id shown by `wallet sent`.
        id: String,
    },
    /// Withdrawals and tokens sent out, newest first, with their state.
    Sent,
    /// Show the backup words (24) and the mints (only on a terminal, after you confirm).
    Backup {
        /// Print even when standard output is not a terminal (e.g. into a file you then keep safe).
        #[arg(long)]
        force: bool,
    },
    /// Restore the wallet from its backup words (read from standard input, with the mint lines of the backup) into
    /// a data dir that holds no ecash.
    Restore {
        /// A mint to restore from, besides those read with the words.
        #[arg(long = "mint", value_name = "URL")]
        mints: Vec<String>,
        /// Replace other words the keyring holds (write them down first: they may guard sats).
        #[arg(long)]
        replace_other_words: bool,
    },
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
    match &args.command {
        Command::Restore { mints, replace_other_words } => {
            return restore(&dir, &secrets, mints, *replace_other_words, options).await;
        }
        Command::Backup { .. } if !dir.join("wallet.sqlite3").exists() => {
            bail!("there is no wallet in {} yet: nothing to back up", dir.display());
        }
        _ => {}
    }
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
            println!("{:>10} sats  in flight (payments, withdrawals and tokens not settled yet)", sums.in_flight);
            println!(
                "{:>10} sats  spent, {} sats in mint fees, {} sats received in all",
                sums.settled_spend, sums.fees, sums.received_total
            );
            println!("{:>10} sats  withdrawn or sent, {} sats in their fees", sums.withdrawn, sums.withdrawal_fees);
            let accepted = payments.budget().get().accepted_mints;
            for (mint, sats) in &balances {
                let listed = accepted
                    .iter()
                    .any(|m| aiui_core::budget::normalize_mint_url(m) == aiui_core::budget::normalize_mint_url(mint));
                if !listed && *sats > 0 {
                    println!(
                        "! {mint} is not among the accepted mints: its {sats} sats are not spent on providers, and can be withdrawn"
                    );
                }
            }
            if let Some(reminder) = payments.backup_reminder().await {
                println!("! {reminder}");
            }
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
        Command::PayInvoice { mint, everything, yes } => {
            let invoice = read_stdin_secret("a Lightning invoice (lnbc…)")?;
            let quote = payments.quote_withdrawal(&invoice, mint.as_deref(), everything).await?;
            println!("Withdraw {} sats from {}", quote.amount_sats, quote.mint);
            println!(
                "  the mint's fee reserve: up to {} sats (what it does not use comes back)",
                quote.fee_reserve_sats
            );
            println!("  the mint's input fee:   {} sats", quote.input_fee_sats);
            println!("  the most it can cost:   {} sats", quote.most_it_costs_sats);
            if !yes && !confirm("Pay this invoice?")? {
                bail!("not paid: nothing left the wallet");
            }
            let done = payments.withdraw(&quote).await?;
            match done.outcome {
                WithdrawalOutcome::Paid { amount_sats, fee_sats } => {
                    println!("Paid {amount_sats} sats (fee {fee_sats} sats). Withdrawal {}.", done.id)
                }
                WithdrawalOutcome::Pending => println!(
                    "The mint is still paying (withdrawal {}). It stays in flight; `aiui-cli wallet reconcile` settles \
                     it, paid or failed.",
                    done.id
                ),
            }
        }
        Command::Send { mint, amount } => {
            let sent = payments.send_token(&mint, amount).await?;
            println!("A token of {} sats from {} (shown once: copy it now):\n", sent.amount_sats, sent.mint);
            println!("{}\n", sent.token.expose());
            if std::io::stdout().is_terminal() {
                print_qr(sent.token.expose());
            }
            println!(
                "Its id is {}: `aiui-cli wallet take-back {}` takes it back while nobody has claimed it.",
                sent.id, sent.id
            );
        }
        Command::TakeBack { id } => match payments.take_back(&id).await? {
            TakenBack::Returned { credited_sats } => {
                println!("Taken back: {credited_sats} sats are in the wallet again.")
            }
            TakenBack::Claimed { sats } => {
                println!("Too late: the other wallet had claimed it; its {sats} sats count as sent.")
            }
        },
        Command::Sent => {
            let rows = payments.outflows(200)?;
            if rows.is_empty() {
                println!("Nothing withdrawn or sent yet.");
            }
            for row in rows {
                let what = match row.kind {
                    OutflowKind::Withdrawal => "withdrawal",
                    OutflowKind::Token => "token",
                    OutflowKind::KeysetSwap => "keyset move",
                };
                let state = match row.state {
                    PaymentState::Pending | PaymentState::InFlight if row.kind == OutflowKind::Token => {
                        "out, not claimed yet".to_owned()
                    }
                    PaymentState::Pending | PaymentState::InFlight => "in flight".to_owned(),
                    _ => row.outcome.clone().unwrap_or_else(|| row.state.as_str().to_owned()),
                };
                // A withdrawal shows what its invoice receives, not the proofs that went to the mint for it.
                let sats = match (row.kind, row.state) {
                    (OutflowKind::Withdrawal, PaymentState::Settled) => row.withdrawn_sats,
                    (OutflowKind::Withdrawal, _) if row.target_sats > 0 => row.target_sats,
                    _ => row.amount_sats,
                };
                let fee = if row.fees_sats > 0 { format!(" (fee {} sats)", row.fees_sats) } else { String::new() };
                println!(
                    "{}  {}  {what:<10} {sats:>8} sats  {state}{fee}  {}",
                    row.id,
                    aiui_core::format_time_ms(row.created_ms),
                    row.mint
                );
            }
        }
        Command::Backup { force } => {
            if !std::io::stdout().is_terminal() && !force {
                bail!(
                    "the backup words are shown only on a terminal (standard output is not one); add --force to print \
                     them anyway, e.g. into a file you keep safe"
                );
            }
            let interactive = std::io::stdin().is_terminal() && std::io::stdout().is_terminal();
            if interactive && !confirm("Show the wallet's backup words? Anyone who sees them can take its sats.")? {
                bail!("not shown");
            }
            let backup = wallet.backup(&secrets).await?;
            print_backup(&backup, interactive);
            if interactive && confirm("Did you write down the words and the mints?")? {
                payments.confirm_backup()?;
                println!("Backup confirmed.");
            }
        }
        Command::Restore { .. } => unreachable!("handled before the wallet is opened"),
        Command::Notices => {
            let notices = payments.notices_after(0)?;
            if notices.is_empty() {
                println!("No money notices.");
            }
            let locale = aiui_core::i18n::Locale::from_env();
            for notice in notices {
                println!("{:>9} ago  {}", age(aiui_core::now_ms() - notice.at_ms), notice.text_in(locale));
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

/// `wallet restore`: the words (and the backup's mint lines) from standard input, the rest from the arguments.
async fn restore(
    dir: &std::path::Path,
    secrets: &Secrets,
    mints: &[String],
    replace_other_words: bool,
    options: WalletOptions,
) -> anyhow::Result<()> {
    let mut text = String::new();
    if std::io::stdin().is_terminal() {
        eprintln!("Type or paste the backup words, then the mint lines of the backup; end with an empty line:");
        for line in std::io::stdin().lock().lines() {
            let line = line.context("reading the backup words from standard input")?;
            if line.trim().is_empty() && !text.trim().is_empty() {
                break;
            }
            text.push_str(&line);
            text.push('\n');
        }
    } else {
        // A file (what `wallet backup --force` printed, say): all of it.
        std::io::stdin().read_to_string(&mut text).context("reading the backup words from standard input")?;
    }
    let text = aiui_core::Secret::new(text);
    let mut backup = WalletBackup::parse(text.expose())?;
    backup.mints.extend(mints.iter().cloned());
    let (_wallet, found) =
        Wallet::restore(dir, secrets, &backup.words, &backup.mints, options, replace_other_words).await?;
    let mut total = 0;
    for mint in &found {
        total += mint.unspent_sats;
        print!("{:>10} sats  {}", mint.unspent_sats, mint.mint);
        if mint.pending_sats > 0 {
            print!("  (and {} sats being spent at the mint)", mint.pending_sats);
        }
        println!();
    }
    println!("{total:>10} sats  restored; the words are in the keyring again");
    Ok(())
}

/// A secret string (a token, an invoice) from standard input: one paste, trimmed.
fn read_stdin_secret(what: &str) -> anyhow::Result<String> {
    let mut text = String::new();
    if std::io::stdin().is_terminal() {
        eprintln!("Paste {what}, then press Enter:");
        std::io::stdin().lock().read_line(&mut text).context("reading standard input")?;
    } else {
        std::io::stdin().read_to_string(&mut text).context("reading standard input")?;
    }
    if text.trim().is_empty() {
        bail!("nothing on standard input: paste {what}, e.g. `aiui-cli wallet pay-invoice < invoice.txt`");
    }
    Ok(text.trim().to_owned())
}

/// Asks on the terminal; anything but yes is no. Without a terminal the answer is no (use `--yes`).
fn confirm(question: &str) -> anyhow::Result<bool> {
    let mut tty = match std::fs::OpenOptions::new().read(true).write(true).open("/dev/tty") {
        Ok(tty) => tty,
        Err(_) => bail!("{question} There is no terminal to ask on: run again with --yes, or on a terminal"),
    };
    write!(tty, "{question} [y/N] ")?;
    tty.flush()?;
    let mut answer = String::new();
    std::io::BufReader::new(&tty).read_line(&mut answer)?;
    Ok(matches!(answer.trim().to_lowercase().as_str(), "y" | "yes"))
}

fn print_backup(backup: &WalletBackup, terminal: bool) {
    println!("The wallet's backup words (keep them offline; anyone who has them can take the sats):\n");
    for (n, word) in backup.words.expose().split_whitespace().enumerate() {
        println!("  {:>2}. {word}", n + 1);
    }
    println!("\nThe mints it has used (a restore asks each of them):");
    for mint in &backup.mints {
        println!("  {mint}");
    }
    if terminal && !backup.mints.is_empty() {
        println!("\nThe mints as a QR code:");
        print_qr(&backup.mints.join("\n"));
    }
}

fn print_qr(text: &str) {
    match qrcode::QrCode::new(text.as_bytes()) {
        Ok(code) => println!("{}", code.render::<qrcode::render::unicode::Dense1x2>().quiet_zone(true).build()),
        Err(e) => eprintln!("(no QR code: {e})"),
    }
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
