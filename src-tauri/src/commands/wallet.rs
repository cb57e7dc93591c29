//! The assistant's Cashu wallet in the trusted window: balance per mint (accepted by the allowance or not), what is
//! in flight, receive a pasted token, and a Lightning invoice (with its QR code) to fund it. Taking sats out
//! (withdraw to Lightning, a token for another wallet) is `outflows.rs`; backup and restore are `backup.rs`.
//!
//! The wallet is opened on first use and only created when the owner funds or restores it, so looking at the
//! settings never makes a seed. What the owner approves before sats leave is written here, from the mint's quote,
//! and kept here under a random id ([`WalletDesk`]): the window approves an id and never sends an amount back.

pub mod backup;
pub mod outflows;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use aiui_core::budget::normalize_mint_url;
use aiui_core::i18n::Locale;
use aiui_core::pay::{Outflow, OutflowKind, PayError, PaymentState, Payments, Wallet, WalletOptions, WithdrawalQuote};
use tauri::{Manager, Runtime, State, Webview};

use super::{CommandError, require_trusted};
use crate::Shell;
use crate::ipc::{BalanceView, InvoiceView, OutflowView, QrView, WalletView};

/// How long one call to a mint may take before the window gets an answer.
const MINT_TIMEOUT: Duration = Duration::from_secs(20);
/// How long "Check payment" waits for the invoice to be paid; the window asks again.
const PAYMENT_WAIT: Duration = Duration::from_secs(3);
/// The largest single funding invoice, against a slip of the keyboard.
const MAX_INVOICE_SATS: u64 = 1_000_000;
/// How many ended withdrawals and tokens the section lists under the open ones.
const RECENT_ENDED: usize = 5;
/// How far back the ledger is read for the list (open ones older than this many rows are still found by reconcile).
const OUTFLOWS_READ: usize = 200;

#[tauri::command]
pub async fn trusted_wallet<R: Runtime>(
    webview: Webview<R>,
    shell: State<'_, Shell>,
) -> Result<WalletView, CommandError> {
    require_trusted(&webview)?;
    let wallet = open(&shell, false).await?;
    view(&webview, &shell, wallet.as_ref()).await
}

/// Receives a pasted Cashu token into the wallet. Returns the credited sats and the new balances.
#[tauri::command]
pub async fn trusted_wallet_receive<R: Runtime>(
    webview: Webview<R>,
    shell: State<'_, Shell>,
    token: String,
) -> Result<(u64, WalletView), CommandError> {
    require_trusted(&webview)?;
    let locale = shell.locale();
    let token = token.trim().to_owned();
    if !token.starts_with("cashu") {
        return Err(CommandError::said("invalid", locale, "error-paste-token", &[]));
    }
    let wallet = open(&shell, true).await?.ok_or_else(|| not_opened(locale))?;
    let sats = to_the_end(wallet.receive(&token), locale).await?;
    Ok((sats, view(&webview, &shell, Some(&wallet)).await?))
}

/// Asks `mint` for a Lightning invoice of `amount_sats`; the window shows it with its QR code.
#[tauri::command]
pub async fn trusted_wallet_invoice<R: Runtime>(
    webview: Webview<R>,
    shell: State<'_, Shell>,
    mint: String,
    amount_sats: u64,
) -> Result<InvoiceView, CommandError> {
    require_trusted(&webview)?;
    let locale = shell.locale();
    if amount_sats == 0 || amount_sats > MAX_INVOICE_SATS {
        return Err(CommandError::said("invalid", locale, "error-invoice-amount", &[("max", MAX_INVOICE_SATS.into())]));
    }
    let mint = mint.trim().to_owned();
    if !(mint.starts_with("https://") || mint.starts_with("http://")) {
        return Err(CommandError::said("invalid", locale, "error-mint-https", &[]));
    }
    let wallet = open(&shell, true).await?.ok_or_else(|| not_opened(locale))?;
    // The owner typed this mint in the trusted window: it is theirs, even on their own network.
    wallet.trust_owner_mints(std::slice::from_ref(&mint));
    let invoice = timed(wallet.mint_invoice(&mint, amount_sats), locale).await?;
    let qr = QrView::encode(&invoice.bolt11).map_err(|e| qr_error(e, locale))?;
    Ok(InvoiceView {
        bolt11: invoice.bolt11,
        quote_id: invoice.quote_id,
        mint: invoice.mint,
        amount_sats: invoice.amount_sats,
        qr,
    })
}

/// Checks whether the invoice was paid and, if so, mints the ecash. `unpaid` means ask again later.
#[tauri::command]
pub async fn trusted_wallet_check<R: Runtime>(
    webview: Webview<R>,
    shell: State<'_, Shell>,
    mint: String,
    quote_id: String,
) -> Result<(u64, WalletView), CommandError> {
    require_trusted(&webview)?;
    let locale = shell.locale();
    let wallet = open(&shell, true).await?.ok_or_else(|| not_opened(locale))?;
    // No timeout of ours around it: `wait_minted` bounds only the wait for the payment, so a paid invoice's minting is
    // never cut off half-way (and never reported as "not paid").
    let minted = match wallet.wait_minted(&mint, &quote_id, PAYMENT_WAIT).await {
        Err(PayError::Timeout) => {
            return Err(CommandError::said("unpaid", locale, "error-not-paid-yet", &[]));
        }
        result => result.map_err(|e| pay_error(e, locale))?,
    };
    Ok((minted, view(&webview, &shell, Some(&wallet)).await?))
}

/// What the owner was shown and may approve, kept until it is approved, replaced or lapses.
#[derive(Debug, Clone)]
enum Approval {
    Withdrawal(WithdrawalQuote),
    Token { mint: String, amount_sats: u64 },
}

/// The wallet section's own state: one `Payments` over the shell's wallet (so this window's sends choose their
/// proofs one at a time), and the approvals on screen. It lives beside the [`Shell`] as Tauri state, made on the
/// first wallet command, so the shell's construction stays as it is.
#[derive(Default)]
pub struct WalletDesk {
    payments: Mutex<Option<Arc<Payments>>>,
    approvals: Mutex<HashMap<String, (Approval, u64)>>,
}

/// At most this many approvals wait at once; a new one drops the oldest.
const MAX_APPROVALS: usize = 8;
/// How long an approval stays valid (a withdrawal's also ends with the mint's quote).
const APPROVAL_TTL_S: u64 = 5 * 60;

impl WalletDesk {
    /// The desk of this app (made the first time it is needed).
    fn of<R: Runtime>(webview: &Webview<R>) -> State<'_, WalletDesk> {
        let app = webview.app_handle();
        // `manage` keeps the first instance when two commands race here.
        app.manage(WalletDesk::default());
        app.state::<WalletDesk>()
    }

    /// The paid leg's own `Payments` when it pays from `wallet` (so proofs are chosen one operation at a time in
    /// this process); otherwise one over `wallet` with the shell's one budget store, made again when the wallet was
    /// replaced (a restore).
    fn payments(&self, shell: &Shell, wallet: &Arc<Wallet>) -> Arc<Payments> {
        let payments = self.shared_payments(shell, wallet);
        // The owner may have picked another language since it was made: what it tells from now on is in that one.
        payments.set_locale(shell.locale());
        payments
    }

    fn shared_payments(&self, shell: &Shell, wallet: &Arc<Wallet>) -> Arc<Payments> {
        if let Some(chain) = shell.chain_payments()
            && std::ptr::eq(chain.wallet(), Arc::as_ptr(wallet))
        {
            return chain;
        }
        let mut slot = self.payments.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(payments) = slot.as_ref()
            && std::ptr::eq(payments.wallet(), Arc::as_ptr(wallet))
        {
            return payments.clone();
        }
        // Reconcile may ask a provider's refund endpoint: it is reached as the paid leg reaches it.
        let payments = match shell.leg_settings() {
            Ok(settings) => Payments::new(wallet.clone(), shell.budget())
                .with_refund_access(settings.routstr.address_policy, settings.routstr.tor_socks),
            Err(_) => Payments::new(wallet.clone(), shell.budget()),
        };
        let payments = Arc::new(payments);
        *slot = Some(payments.clone());
        payments
    }

    /// Keeps `approval` under a new random id until `expires_at_s`; returns the id.
    fn hold(&self, approval: Approval, expires_at_s: u64) -> String {
        // 128 random bits (the store's generator for ids nobody may guess).
        let id = aiui_core::store::ConversationId::random().0;
        let mut approvals = self.approvals.lock().unwrap_or_else(|p| p.into_inner());
        let now = now_s();
        approvals.retain(|_, (_, expires)| *expires > now);
        while approvals.len() >= MAX_APPROVALS {
            let oldest = approvals.iter().min_by_key(|(_, (_, expires))| *expires).map(|(id, _)| id.clone());
            let Some(oldest) = oldest else { break };
            approvals.remove(&oldest);
        }
        approvals.insert(id.clone(), (approval, expires_at_s));
        id
    }

    /// Takes the approval `id` out (it is used once), if it is still valid; why not is said in `locale`.
    fn take(&self, id: &str, locale: Locale) -> Result<Approval, CommandError> {
        let taken = self.approvals.lock().unwrap_or_else(|p| p.into_inner()).remove(id);
        match taken {
            Some((approval, expires)) if expires > now_s() => Ok(approval),
            Some(_) => Err(CommandError::said("expired", locale, "error-approval-lapsed", &[])),
            None => Err(CommandError::said("unknown_approval", locale, "error-approval-unknown", &[])),
        }
    }

    /// Drops every approval (the wallet was replaced).
    fn forget(&self) {
        self.approvals.lock().unwrap_or_else(|p| p.into_inner()).clear();
        *self.payments.lock().unwrap_or_else(|p| p.into_inner()) = None;
    }
}

fn now_s() -> u64 {
    u64::try_from(aiui_core::now_ms() / 1000).unwrap_or_default()
}

/// The shell's wallet, opened once. Without `create`, a wallet that does not exist yet stays unopened.
async fn open(shell: &Shell, create: bool) -> Result<Option<Arc<Wallet>>, CommandError> {
    let mut slot = shell.wallet.lock().await;
    if let Some(wallet) = slot.as_ref() {
        return Ok(Some(wallet.clone()));
    }
    let dir = shell.data.0.clone();
    if !create && !dir.join("wallet.sqlite3").exists() {
        return Ok(None);
    }
    let secrets = shell.secrets.clone();
    let options = wallet_options(shell);
    // The seed is read from the keyring synchronously (a D-Bus round trip).
    let wallet = tokio::task::spawn_blocking(move || {
        tokio::runtime::Handle::current().block_on(Wallet::open_with(&dir, &secrets, options))
    })
    .await
    .map_err(|e| CommandError::new("internal", e.to_string()))?
    .map_err(|e| {
        let args = [("error", e.text(shell.locale()).into())];
        CommandError::said("wallet", shell.locale(), "error-wallet-not-opened-because", &args)
    })?;
    let wallet = Arc::new(wallet);
    *slot = Some(wallet.clone());
    Ok(Some(wallet))
}

/// How the wallet reaches mints: the owner's Tor proxy carries mint traffic too, and the allowance's mints are the
/// owner's own list.
fn wallet_options(shell: &Shell) -> WalletOptions {
    let tor_socks = crate::config::ShellConfig::load(&shell.data.0).map(|f| f.routstr.tor_socks).unwrap_or_default();
    WalletOptions { tor_socks, owner_mints: shell.budget().get().accepted_mints, ..WalletOptions::default() }
}

async fn view<R: Runtime>(
    webview: &Webview<R>,
    shell: &Shell,
    wallet: Option<&Arc<Wallet>>,
) -> Result<WalletView, CommandError> {
    let Some(wallet) = wallet else {
        return Ok(WalletView { restorable: true, ..WalletView::default() });
    };
    let locale = shell.locale();
    let accepted: Vec<Option<String>> =
        shell.budget().get().accepted_mints.iter().map(|m| normalize_mint_url(m)).collect();
    let balances: Vec<BalanceView> = wallet
        .balances()
        .await
        .map_err(|e| pay_error(e, locale))?
        .into_iter()
        .map(|(mint, sats)| {
            let listed = normalize_mint_url(&mint).is_some_and(|m| accepted.contains(&Some(m)));
            BalanceView { mint, sats, accepted: listed }
        })
        .collect();
    let total_sats = balances.iter().map(|b| b.sats).sum();
    let payments = WalletDesk::of(webview).payments(shell, wallet);
    let in_flight_sats = payments.conservation().await.map_err(|e| pay_error(e, locale))?.in_flight;
    let rows = payments.outflows(OUTFLOWS_READ).map_err(|e| pay_error(e, locale))?;
    let (open_rows, closed): (Vec<Outflow>, Vec<Outflow>) =
        rows.into_iter().partition(|row| matches!(row.state, PaymentState::Pending | PaymentState::InFlight));
    let outflows =
        open_rows.iter().chain(closed.iter().take(RECENT_ENDED)).map(|row| outflow_view(row, locale)).collect();
    Ok(WalletView {
        opened: true,
        balances,
        total_sats,
        in_flight_sats,
        outflows,
        backup_reminder: payments.backup_reminder().await,
        backup_confirmed: payments.backup_confirmed(),
        restorable: total_sats == 0 && in_flight_sats == 0,
    })
}

fn outflow_view(row: &Outflow, locale: Locale) -> OutflowView {
    let open = matches!(row.state, PaymentState::Pending | PaymentState::InFlight);
    let kind = match row.kind {
        OutflowKind::Withdrawal => "withdrawal",
        OutflowKind::Token => "token",
        // The mint retires a keyset: the proofs move to its new keys, and only its input fee leaves.
        OutflowKind::KeysetSwap => "keyset-swap",
    };
    OutflowView {
        id: row.id.clone(),
        kind,
        mint: row.mint.clone(),
        // A withdrawal is named by what its invoice receives, not by the proofs that went to the mint for it.
        amount_sats: if row.kind == OutflowKind::Withdrawal && row.target_sats > 0 {
            row.target_sats
        } else {
            row.amount_sats
        },
        open,
        state: row.state_in(locale),
        withdrawn_sats: row.withdrawn_sats,
        fees_sats: row.fees_sats,
        created_ms: row.created_ms,
        invoice: row.invoice.as_deref().map(short),
        can_take_back: open && row.kind == OutflowKind::Token && row.state == PaymentState::InFlight,
    }
}

/// A long text (an invoice) as its start and end, for a list.
fn short(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    if chars.len() <= 32 {
        return text.to_owned();
    }
    let head: String = chars[..20].iter().collect();
    let tail: String = chars[chars.len() - 8..].iter().collect();
    format!("{head}…{tail}")
}

/// A call that moves or holds proofs, run to its end: dropped half-way by a timeout of ours, a receive would leave
/// sats in the wallet that the ledger never counts, and a quote its proofs reserved (review F8, F18). The mint
/// door bounds each request the call makes.
async fn to_the_end<T>(call: impl Future<Output = Result<T, PayError>>, locale: Locale) -> Result<T, CommandError> {
    call.await.map_err(|e| pay_error(e, locale))
}

/// A call that moves nothing yet (an invoice asked for), bounded so the window gets an answer.
async fn timed<T>(call: impl Future<Output = Result<T, PayError>>, locale: Locale) -> Result<T, CommandError> {
    tokio::time::timeout(MINT_TIMEOUT, call)
        .await
        .map_err(|_| CommandError::said("timeout", locale, "error-mint-timeout", &[]))?
        .map_err(|e| pay_error(e, locale))
}

/// A wallet or mint failure, said in `locale` as a sentence, under the code the window acts on.
fn pay_error(e: PayError, locale: Locale) -> CommandError {
    let code = match e {
        PayError::InvalidToken(_) | PayError::InvalidMint(_) | PayError::InvalidInvoice(_) => "invalid",
        PayError::InsufficientFunds { .. } => "insufficient",
        PayError::AlreadySpent => "spent",
        PayError::MintUnreachable { .. } | PayError::Timeout => "unreachable",
        PayError::Unfinished(_) | PayError::MintUnclear { .. } => "unfinished",
        _ => "wallet",
    };
    CommandError::new(code, sentence(&e.text(locale)))
}

/// An owner-readable error as a sentence: capital first letter, full stop.
fn sentence(text: &str) -> String {
    let mut chars = text.chars();
    let mut out: String = chars.next().map(|c| c.to_uppercase().collect()).unwrap_or_default();
    out.push_str(chars.as_str());
    if !out.ends_with(['.', '!', '?']) {
        out.push('.');
    }
    out
}

fn qr_error(e: qrcode::types::QrError, locale: Locale) -> CommandError {
    CommandError::said("qr", locale, "error-qr", &[("error", e.to_string().into())])
}

fn not_opened(locale: Locale) -> CommandError {
    CommandError::said("wallet", locale, "error-wallet-not-opened", &[])
}

fn no_wallet(locale: Locale) -> CommandError {
    CommandError::said("no_wallet", locale, "error-no-wallet", &[])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_error_reads_as_a_sentence_and_an_invoice_is_shortened() {
        assert_eq!(sentence("not enough ecash"), "Not enough ecash.");
        assert_eq!(sentence("Done."), "Done.");
        let invoice = "lnbc5u1pjexampleexampleexampleexampleexample0123abcd";
        let shown = short(invoice);
        assert!(shown.starts_with("lnbc5u1pjexample") && shown.ends_with("0123abcd") && shown.contains('…'));
        assert_eq!(short("lnbc1short"), "lnbc1short");
    }
}
