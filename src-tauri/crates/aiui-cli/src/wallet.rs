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

use crate::l10n::{self, t};

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
            bail!("{}", t("cli-wallet-nothing-to-back-up", &[("dir", dir.display().to_string().into())]));
        }
        _ => {}
    }
    let wallet =
        Arc::new(Wallet::open_with(&dir, &secrets, options).await.with_context(|| t("cli-wallet-opening", &[]))?);
    let tor = args.tor.or_else(|| app_tor_proxy(&dir));
    // Refund endpoints are reached as the app reaches them: public addresses only, through the owner's Tor proxy.
    let payments = Payments::new(wallet.clone(), budget).with_refund_access(AddressPolicy::PublicOnly, tor);
    match args.command {
        Command::Balance => {
            let balances = wallet.balances().await?;
            if balances.is_empty() {
                println!("{}", t("cli-wallet-no-mints", &[]));
            }
            for (mint, sats) in &balances {
                println!(
                    "{}",
                    t("cli-wallet-at-mint", &[("sats", column(sats).into()), ("mint", mint.as_str().into())])
                );
            }
            let sums = payments.conservation().await?;
            println!("{}", t("cli-wallet-total", &[("sats", column(sums.wallet_balance).into())]));
            println!("{}", t("cli-wallet-in-flight", &[("sats", column(sums.in_flight).into())]));
            let spent = [
                ("sats", column(sums.settled_spend).into()),
                ("fees", sums.fees.into()),
                ("received", sums.received_total.into()),
            ];
            println!("{}", t("cli-wallet-spent", &spent));
            let withdrawn = [("sats", column(sums.withdrawn).into()), ("fees", sums.withdrawal_fees.into())];
            println!("{}", t("cli-wallet-withdrawn", &withdrawn));
            let accepted = payments.budget().get().accepted_mints;
            for (mint, sats) in &balances {
                let listed = accepted
                    .iter()
                    .any(|m| aiui_core::budget::normalize_mint_url(m) == aiui_core::budget::normalize_mint_url(mint));
                if !listed && *sats > 0 {
                    println!(
                        "{}",
                        t("cli-wallet-not-accepted", &[("mint", mint.as_str().into()), ("sats", (*sats).into())])
                    );
                }
            }
            if let Some(reminder) = payments.backup_reminder().await {
                println!("! {reminder}");
            }
            for entry in payments.set_aside_tokens()? {
                let reason = entry.set_aside_reason.clone().unwrap_or_else(|| t("cli-wallet-did-not-count", &[]));
                let args = [("provider", entry.provider.as_str().into()), ("reason", reason.into())];
                println!("{}", t("cli-wallet-kept-aside", &args));
            }
            if !sums.holds() {
                eprintln!("{}", t("cli-wallet-ledger-off", &[]));
            }
        }
        Command::Receive => {
            let mut token = String::new();
            std::io::stdin().read_to_string(&mut token).with_context(|| t("cli-wallet-reading-token", &[]))?;
            if token.trim().is_empty() {
                bail!("{}", t("cli-wallet-no-token", &[]));
            }
            let sats = wallet.receive(token.trim()).await?;
            println!("{}", t("cli-wallet-received", &[("sats", sats.into())]));
        }
        Command::Invoice { mint, amount, wait } => {
            // The owner named this mint on the command line: it is theirs, even on their own network.
            wallet.trust_owner_mints(std::slice::from_ref(&mint));
            let invoice = wallet.mint_invoice(&mint, amount).await?;
            println!("{}", invoice.bolt11);
            std::io::stdout().flush()?;
            if wait == 0 {
                eprintln!("{}", t("cli-wallet-pay-then-reconcile", &[]));
                return Ok(());
            }
            eprintln!("{}", t("cli-wallet-waiting", &[("secs", wait.into())]));
            let minted = wallet.wait_minted(&invoice.mint, &invoice.quote_id, Duration::from_secs(wait)).await?;
            println!("{}", t("cli-wallet-minted", &[("sats", minted.into()), ("mint", invoice.mint.as_str().into())]));
        }
        Command::Reconcile => {
            let report = payments.reconcile().await?;
            let count = |key: &str, n: usize| t(key, &[("count", n.into())]);
            println!("{}", count("cli-reconcile-checked", report.checked));
            let reclaimed = [("count", report.reclaimed.into()), ("sats", report.reclaimed_sats.into())];
            println!("{}", t("cli-reconcile-reclaimed", &reclaimed));
            println!("{}", count("cli-reconcile-returned", report.returned_received));
            println!("{}", count("cli-reconcile-refunded", report.refunded));
            println!("{}", count("cli-reconcile-waiting", report.waiting));
            println!("{}", count("cli-reconcile-written-off", report.written_off));
            println!("{}", count("cli-reconcile-unreachable", report.unreachable));
            println!("{}", count("cli-reconcile-live", report.skipped_live));
            let settled = [("settled", report.settled_late.into()), ("released", report.released_reservations.into())];
            println!("{}", t("cli-reconcile-settled", &settled));
            println!("{}", t("cli-reconcile-minted", &[("sats", report.minted_sats.into())]));
            if report.reconciling_elsewhere {
                println!("{}", t("cli-reconcile-elsewhere", &[]));
            }
            for notice in &report.notices {
                println!("! {notice}");
            }
        }
        Command::PayInvoice { mint, everything, yes } => {
            let invoice = read_stdin_secret(&t("cli-withdraw-invoice", &[]))?;
            let quote = payments.quote_withdrawal(&invoice, mint.as_deref(), everything).await?;
            let what = [("sats", quote.amount_sats.into()), ("mint", quote.mint.as_str().into())];
            println!("{}", t("cli-withdraw", &what));
            println!("{}", t("cli-withdraw-fee-reserve", &[("sats", quote.fee_reserve_sats.into())]));
            println!("{}", t("cli-withdraw-input-fee", &[("sats", quote.input_fee_sats.into())]));
            println!("{}", t("cli-withdraw-most", &[("sats", quote.most_it_costs_sats.into())]));
            if !yes && !confirm(&t("cli-withdraw-question", &[]))? {
                bail!("{}", t("cli-withdraw-not-paid", &[]));
            }
            let done = payments.withdraw(&quote).await?;
            let id = ("id", done.id.to_string().into());
            match done.outcome {
                WithdrawalOutcome::Paid { amount_sats, fee_sats } => println!(
                    "{}",
                    t("cli-withdraw-paid", &[("sats", amount_sats.into()), ("fee", fee_sats.into()), id])
                ),
                WithdrawalOutcome::Pending => println!("{}", t("cli-withdraw-pending", &[id])),
            }
        }
        Command::Send { mint, amount } => {
            let sent = payments.send_token(&mint, amount).await?;
            let what = [("sats", sent.amount_sats.into()), ("mint", sent.mint.as_str().into())];
            println!("{}", t("cli-send-token", &what));
            println!();
            println!("{}\n", sent.token.expose());
            if std::io::stdout().is_terminal() {
                print_qr(sent.token.expose());
            }
            println!("{}", t("cli-send-take-back", &[("id", sent.id.to_string().into())]));
        }
        Command::TakeBack { id } => match payments.take_back(&id).await? {
            TakenBack::Returned { credited_sats } => {
                println!("{}", t("cli-take-back-returned", &[("sats", credited_sats.into())]))
            }
            TakenBack::Claimed { sats } => println!("{}", t("cli-take-back-claimed", &[("sats", sats.into())])),
            TakenBack::ClaimedInPart { claimed_sats, credited_sats } => println!(
                "{}",
                t("cli-take-back-in-part", &[("claimed", claimed_sats.into()), ("sats", credited_sats.into())])
            ),
            TakenBack::ClaimedRestTooSmall { claimed_sats, rest_sats } => println!(
                "{}",
                t("cli-take-back-rest-too-small", &[("claimed", claimed_sats.into()), ("rest", rest_sats.into())])
            ),
        },
        Command::Sent => {
            let rows = payments.outflows(200)?;
            if rows.is_empty() {
                println!("{}", t("cli-sent-none", &[]));
            }
            for row in rows {
                let what = match row.kind {
                    OutflowKind::Withdrawal => t("cli-sent-withdrawal", &[]),
                    OutflowKind::Token => t("cli-sent-token", &[]),
                    OutflowKind::KeysetSwap => t("cli-sent-keyset-move", &[]),
                };
                let state = match row.state {
                    PaymentState::Pending | PaymentState::InFlight if row.kind == OutflowKind::Token => {
                        t("cli-sent-unclaimed", &[])
                    }
                    PaymentState::Pending | PaymentState::InFlight => t("cli-sent-in-flight", &[]),
                    _ => row.state_in(l10n::locale()),
                };
                // A withdrawal shows what its invoice receives, not the proofs that went to the mint for it.
                let sats = match (row.kind, row.state) {
                    (OutflowKind::Withdrawal, PaymentState::Settled) => row.withdrawn_sats,
                    (OutflowKind::Withdrawal, _) if row.target_sats > 0 => row.target_sats,
                    _ => row.amount_sats,
                };
                let fee = if row.fees_sats > 0 {
                    t("cli-sent-fee", &[("sats", row.fees_sats.into())])
                } else {
                    String::new()
                };
                let args = [
                    ("id", row.id.to_string().into()),
                    ("time", aiui_core::format_time_ms_in(row.created_ms, l10n::locale()).into()),
                    ("what", format!("{what:<10}").into()),
                    ("sats", format!("{sats:>8}").into()),
                    ("state", state.into()),
                    ("fee", fee.into()),
                    ("mint", row.mint.as_str().into()),
                ];
                println!("{}", t("cli-sent-row", &args));
            }
        }
        Command::Backup { force } => {
            if !std::io::stdout().is_terminal() && !force {
                bail!("{}", t("cli-backup-terminal-only", &[]));
            }
            let interactive = std::io::stdin().is_terminal() && std::io::stdout().is_terminal();
            if interactive && !confirm(&t("cli-backup-question", &[]))? {
                bail!("{}", t("cli-backup-not-shown", &[]));
            }
            let backup = wallet.backup(&secrets).await?;
            print_backup(&backup, interactive);
            if interactive && confirm(&t("cli-backup-written-down", &[]))? {
                payments.confirm_backup()?;
                println!("{}", t("cli-backup-confirmed", &[]));
            }
        }
        Command::Restore { .. } => unreachable!("handled before the wallet is opened"),
        Command::Notices => {
            let notices = payments.notices_after(0)?;
            if notices.is_empty() {
                println!("{}", t("cli-notices-none", &[]));
            }
            for notice in notices {
                let ago = t("cli-notice-ago", &[("age", age(aiui_core::now_ms() - notice.at_ms).into())]);
                println!("{ago:>13}  {}", notice.text_in(l10n::locale()));
            }
        }
        Command::SetAside { action } => match action.unwrap_or(SetAsideAction::List) {
            SetAsideAction::List => {
                let entries = payments.set_aside_tokens()?;
                if entries.is_empty() {
                    println!("{}", t("cli-set-aside-none", &[]));
                }
                for entry in entries {
                    let reason = entry.set_aside_reason.clone().unwrap_or_else(|| t("cli-wallet-did-not-count", &[]));
                    let args = [
                        ("id", entry.id.to_string().into()),
                        ("provider", entry.provider.as_str().into()),
                        ("reason", reason.into()),
                    ];
                    println!("{}", t("cli-set-aside-row", &args));
                }
            }
            SetAsideAction::Receive { payment, yes } => {
                if !yes {
                    bail!("{}", t("cli-set-aside-needs-yes", &[]));
                }
                let (mint, sats) = payments.receive_set_aside(&payment).await?;
                println!(
                    "{}",
                    t("cli-set-aside-received", &[("sats", sats.into()), ("mint", mint.to_string().into())])
                );
            }
            SetAsideAction::Discard { payment } => match payments.discard_set_aside(&payment).await? {
                // An earlier receive of it had taken it into the wallet: counted, not dropped.
                Some(sats) => println!("{}", t("cli-set-aside-was-received", &[("sats", sats.into())])),
                None => println!("{}", t("cli-set-aside-discarded", &[("payment", payment.as_str().into())])),
            },
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
        eprintln!("{}", t("cli-restore-prompt", &[]));
        for line in std::io::stdin().lock().lines() {
            let line = line.with_context(|| t("cli-restore-reading", &[]))?;
            if line.trim().is_empty() && !text.trim().is_empty() {
                break;
            }
            text.push_str(&line);
            text.push('\n');
        }
    } else {
        // A file (what `wallet backup --force` printed, say): all of it.
        std::io::stdin().read_to_string(&mut text).with_context(|| t("cli-restore-reading", &[]))?;
    }
    let text = aiui_core::Secret::new(text);
    let mut backup = WalletBackup::parse(text.expose())?;
    backup.mints.extend(mints.iter().cloned());
    let (_wallet, found) =
        Wallet::restore(dir, secrets, &backup.words, &backup.mints, options, replace_other_words).await?;
    let mut total = 0;
    for mint in &found {
        total += mint.unspent_sats;
        let at_mint = [("sats", column(mint.unspent_sats).into()), ("mint", mint.mint.as_str().into())];
        print!("{}", t("cli-wallet-at-mint", &at_mint));
        if mint.pending_sats > 0 {
            print!("{}", t("cli-restore-pending", &[("sats", mint.pending_sats.into())]));
        }
        println!();
    }
    println!("{}", t("cli-restore-total", &[("sats", column(total).into())]));
    Ok(())
}

/// A secret string (a token, an invoice) from standard input: one paste, trimmed.
fn read_stdin_secret(what: &str) -> anyhow::Result<String> {
    let mut text = String::new();
    if std::io::stdin().is_terminal() {
        eprintln!("{}", t("cli-paste", &[("what", what.into())]));
        std::io::stdin().lock().read_line(&mut text).with_context(|| t("cli-reading-stdin", &[]))?;
    } else {
        std::io::stdin().read_to_string(&mut text).with_context(|| t("cli-reading-stdin", &[]))?;
    }
    if text.trim().is_empty() {
        bail!("{}", t("cli-stdin-empty", &[("what", what.into())]));
    }
    Ok(text.trim().to_owned())
}

/// Asks on the terminal; anything but yes is no. Without a terminal the answer is no (use `--yes`).
fn confirm(question: &str) -> anyhow::Result<bool> {
    let mut tty = match std::fs::OpenOptions::new().read(true).write(true).open("/dev/tty") {
        Ok(tty) => tty,
        Err(_) => bail!("{}", t("cli-no-terminal-to-ask", &[("question", question.into())])),
    };
    write!(tty, "{}", l10n::yes_no_prompt(question))?;
    tty.flush()?;
    let mut answer = String::new();
    std::io::BufReader::new(&tty).read_line(&mut answer)?;
    Ok(l10n::is_yes(&answer))
}

fn print_backup(backup: &WalletBackup, terminal: bool) {
    println!("{}", t("cli-backup-words", &[]));
    println!();
    for (n, word) in backup.words.expose().split_whitespace().enumerate() {
        println!("  {:>2}. {word}", n + 1);
    }
    println!();
    println!("{}", t("cli-backup-mints", &[]));
    for mint in &backup.mints {
        println!("  {mint}");
    }
    if terminal && !backup.mints.is_empty() {
        println!();
        println!("{}", t("cli-backup-mints-qr", &[]));
        print_qr(&backup.mints.join("\n"));
    }
}

fn print_qr(text: &str) {
    match qrcode::QrCode::new(text.as_bytes()) {
        Ok(code) => println!("{}", code.render::<qrcode::render::unicode::Dense1x2>().quiet_zone(true).build()),
        Err(e) => eprintln!("{}", t("cli-no-qr", &[("error", e.to_string().into())])),
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
    let (key, count) = match secs {
        0..120 => ("cli-age-seconds", secs),
        120..7200 => ("cli-age-minutes", secs / 60),
        7200..172_800 => ("cli-age-hours", secs / 3600),
        _ => ("cli-age-days", secs / 86_400),
    };
    t(key, &[("count", count.into())])
}

/// Sats right-aligned in the balance's column of 10, as the catalogue's lines expect them.
fn column(sats: impl std::fmt::Display) -> String {
    format!("{sats:>10}")
}
