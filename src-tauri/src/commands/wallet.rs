//! The assistant's Cashu wallet in the trusted window: balance per mint, receive a pasted token, and a Lightning
//! invoice (with its QR code) to fund it. The wallet is opened on first use and only created when the owner funds
//! it, so looking at the settings never makes a seed.

use std::sync::Arc;
use std::time::Duration;

use aiui_core::pay::{PayError, Wallet, WalletOptions};
use tauri::{Runtime, State, Webview};

use super::{CommandError, require_trusted};
use crate::Shell;
use crate::ipc::{BalanceView, InvoiceView, QrView, WalletView};

/// How long one call to a mint may take before the window gets an answer.
const MINT_TIMEOUT: Duration = Duration::from_secs(20);
/// How long "Check payment" waits for the invoice to be paid; the window asks again.
const PAYMENT_WAIT: Duration = Duration::from_secs(3);
/// The largest single funding invoice, against a slip of the keyboard.
const MAX_INVOICE_SATS: u64 = 1_000_000;

#[tauri::command]
pub async fn trusted_wallet<R: Runtime>(
    webview: Webview<R>,
    shell: State<'_, Shell>,
) -> Result<WalletView, CommandError> {
    require_trusted(&webview)?;
    let wallet = open(&shell, false).await?;
    view(wallet.as_deref()).await
}

/// Receives a pasted Cashu token into the wallet. Returns the credited sats and the new balances.
#[tauri::command]
pub async fn trusted_wallet_receive<R: Runtime>(
    webview: Webview<R>,
    shell: State<'_, Shell>,
    token: String,
) -> Result<(u64, WalletView), CommandError> {
    require_trusted(&webview)?;
    let token = token.trim().to_owned();
    if !token.starts_with("cashu") {
        return Err(CommandError::new("invalid", "Paste a Cashu token (it starts with cashuA or cashuB)."));
    }
    let wallet = open(&shell, true).await?.ok_or_else(not_opened)?;
    let sats = timed(wallet.receive(&token)).await?;
    Ok((sats, view(Some(&wallet)).await?))
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
    if amount_sats == 0 || amount_sats > MAX_INVOICE_SATS {
        return Err(CommandError::new("invalid", format!("Choose an amount from 1 to {MAX_INVOICE_SATS} sats.")));
    }
    let mint = mint.trim().to_owned();
    if !(mint.starts_with("https://") || mint.starts_with("http://")) {
        return Err(CommandError::new("invalid", "The mint's address starts with https://."));
    }
    let wallet = open(&shell, true).await?.ok_or_else(not_opened)?;
    // The owner typed this mint in the trusted window: it is theirs, even on their own network.
    wallet.trust_owner_mints(std::slice::from_ref(&mint));
    let invoice = timed(wallet.mint_invoice(&mint, amount_sats)).await?;
    let qr = QrView::encode(&invoice.bolt11)
        .map_err(|e| CommandError::new("qr", format!("The invoice could not be drawn as a QR code: {e}")))?;
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
    let wallet = open(&shell, true).await?.ok_or_else(not_opened)?;
    // No timeout of ours around it: `wait_minted` bounds only the wait for the payment, so a paid invoice's minting is
    // never cut off half-way (and never reported as "not paid").
    let minted = match wallet.wait_minted(&mint, &quote_id, PAYMENT_WAIT).await {
        Err(PayError::Timeout) => {
            return Err(CommandError::new("unpaid", "Not paid yet. Pay the invoice, then check again."));
        }
        result => result.map_err(pay_error)?,
    };
    Ok((minted, view(Some(&wallet)).await?))
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
    // The owner's Tor proxy carries mint traffic too, and the allowance's mints are the owner's own list.
    let tor_socks = crate::config::ShellConfig::load(&dir).map(|f| f.routstr.tor_socks).unwrap_or_default();
    let options =
        WalletOptions { tor_socks, owner_mints: shell.budget().get().accepted_mints, ..WalletOptions::default() };
    // The seed is read from the keyring synchronously (a D-Bus round trip).
    let wallet = tokio::task::spawn_blocking(move || {
        tokio::runtime::Handle::current().block_on(Wallet::open_with(&dir, &secrets, options))
    })
    .await
    .map_err(|e| CommandError::new("internal", e.to_string()))?
    .map_err(|e| CommandError::new("wallet", format!("The wallet could not be opened: {e}")))?;
    let wallet = Arc::new(wallet);
    *slot = Some(wallet.clone());
    Ok(Some(wallet))
}

async fn view(wallet: Option<&Wallet>) -> Result<WalletView, CommandError> {
    let Some(wallet) = wallet else { return Ok(WalletView { opened: false, balances: Vec::new(), total_sats: 0 }) };
    let balances: Vec<BalanceView> = wallet
        .balances()
        .await
        .map_err(pay_error)?
        .into_iter()
        .map(|(mint, sats)| BalanceView { mint, sats })
        .collect();
    let total_sats = balances.iter().map(|b| b.sats).sum();
    Ok(WalletView { opened: true, balances, total_sats })
}

async fn timed<T>(call: impl Future<Output = Result<T, PayError>>) -> Result<T, CommandError> {
    tokio::time::timeout(MINT_TIMEOUT, call)
        .await
        .map_err(|_| CommandError::new("timeout", "The mint did not answer in time; nothing changed."))?
        .map_err(pay_error)
}

fn pay_error(e: PayError) -> CommandError {
    let code = match e {
        PayError::InvalidToken(_) | PayError::InvalidMint(_) => "invalid",
        PayError::AlreadySpent => "spent",
        PayError::MintUnreachable { .. } | PayError::Timeout => "unreachable",
        _ => "wallet",
    };
    CommandError::new(code, e.to_string())
}

fn not_opened() -> CommandError {
    CommandError::new("wallet", "The wallet could not be opened.")
}
