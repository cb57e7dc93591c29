//! Taking sats out of the wallet in the trusted window: withdraw to a Lightning invoice, and a token for another
//! wallet. Each is two calls: the first asks the mint (or checks the balance), writes what the owner approves and
//! keeps it under a random id; the second approves that id, once. Also taking back a token nobody has claimed, and
//! "Check" (`reconcile`), which settles pending withdrawals and claimed tokens.

use std::time::Duration;

use aiui_core::pay::{TakenBack, Withdrawal, WithdrawalOutcome, clean_invoice};
use tauri::{Runtime, State, Webview};

use super::{APPROVAL_TTL_S, Approval, WalletDesk, no_wallet, now_s, open, pay_error, qr_error, short, timed, view};
use crate::Shell;
use crate::commands::{CommandError, require_trusted};
use crate::ipc::{ApprovalView, QrView, SentTokenView, WalletDoneView};

/// How long the window waits for a withdrawal's payment before it answers "still paying" (the payment goes on).
const WITHDRAW_ANSWER: Duration = Duration::from_secs(10);

/// Asks the mint what paying `invoice` costs (from `mint`, or the mint holding the most; with `everything`, the
/// whole balance there after fees, for an invoice without an amount). Nothing is paid: the window shows the
/// host-written summary and approves it with [`trusted_wallet_withdraw`].
#[tauri::command]
pub async fn trusted_wallet_quote_withdrawal<R: Runtime>(
    webview: Webview<R>,
    shell: State<'_, Shell>,
    invoice: String,
    mint: Option<String>,
    everything: bool,
) -> Result<ApprovalView, CommandError> {
    require_trusted(&webview)?;
    let invoice = clean_invoice(&invoice).map_err(pay_error)?;
    let wallet = open(&shell, false).await?.ok_or_else(no_wallet)?;
    let mint = mint.map(|m| m.trim().to_owned()).filter(|m| !m.is_empty());
    let desk = WalletDesk::of(&webview);
    let payments = desk.payments(&shell, &wallet);
    let quote = timed(payments.quote_withdrawal(&invoice, mint.as_deref(), everything)).await?;
    let now = now_s();
    let expires_at_s =
        if quote.expires_at_s > now { quote.expires_at_s.min(now + APPROVAL_TTL_S) } else { now + APPROVAL_TTL_S };
    let summary = format!("Pay {} sats to this Lightning invoice from {}.", quote.amount_sats, quote.mint);
    let details = vec![
        format!("Invoice: {}", short(&quote.invoice)),
        format!("The invoice receives: {} sats", quote.amount_sats),
        format!("Lightning fee reserve: up to {} sats (what the mint does not use comes back)", quote.fee_reserve_sats),
        format!("The mint's input fee: {} sats", quote.input_fee_sats),
        format!("The most it takes from the wallet: {} sats", quote.most_it_costs_sats),
    ];
    let action = format!("Withdraw {} sats", quote.amount_sats);
    let id = desk.hold(Approval::Withdrawal(quote), expires_at_s);
    Ok(ApprovalView { id, kind: "withdrawal", summary, details, action, expires_at_s })
}

/// Pays the withdrawal the owner approved under `id` (once). If the mint's cost grew past the approved quote,
/// nothing is paid. A payment the mint is still making stays in flight, listed, until a check settles it.
#[tauri::command]
pub async fn trusted_wallet_withdraw<R: Runtime>(
    webview: Webview<R>,
    shell: State<'_, Shell>,
    id: String,
) -> Result<WalletDoneView, CommandError> {
    require_trusted(&webview)?;
    let desk = WalletDesk::of(&webview);
    let Approval::Withdrawal(quote) = desk.take(&id)? else {
        return Err(CommandError::new("unknown_approval", "That approval is not a withdrawal; nothing was sent."));
    };
    let wallet = open(&shell, false).await?.ok_or_else(no_wallet)?;
    let payments = desk.payments(&shell, &wallet);
    let still_paying = format!(
        "The mint is still paying the invoice of {} sats. The withdrawal stays in flight until the payment ends; \
         Check settles it, paid or failed.",
        quote.amount_sats
    );
    // The melt runs in its own task, never cut off (a melt stopped half-way would be left for reconcile instead of
    // answered). A payment that takes longer than the window waits for (a hold invoice, a slow route) goes on there,
    // and its row in the ledger, written before any proof left, lists it as in flight meanwhile.
    let mut paying = tokio::spawn(async move { payments.withdraw(&quote).await });
    let message = match tokio::time::timeout(WITHDRAW_ANSWER, &mut paying).await {
        Err(_) => still_paying,
        Ok(joined) => match joined.map_err(|e| CommandError::new("internal", e.to_string()))?.map_err(pay_error)? {
            Withdrawal { outcome: WithdrawalOutcome::Paid { amount_sats, fee_sats }, .. } => {
                format!("Paid: {amount_sats} sats reached the invoice; the Lightning fee was {fee_sats} sats.")
            }
            Withdrawal { outcome: WithdrawalOutcome::Pending, .. } => still_paying,
        },
    };
    Ok(WalletDoneView { message, notices: Vec::new(), wallet: view(&webview, &shell, Some(&wallet)).await? })
}

/// Checks that `mint` holds `amount_sats` and writes what the owner approves; [`trusted_wallet_send`] makes it.
#[tauri::command]
pub async fn trusted_wallet_quote_send<R: Runtime>(
    webview: Webview<R>,
    shell: State<'_, Shell>,
    mint: String,
    amount_sats: u64,
) -> Result<ApprovalView, CommandError> {
    require_trusted(&webview)?;
    if amount_sats == 0 {
        return Err(CommandError::new("invalid", "A token is worth at least 1 sat."));
    }
    let wallet = open(&shell, false).await?.ok_or_else(no_wallet)?;
    let wanted = aiui_core::budget::normalize_mint_url(&mint);
    let balances = wallet.balances().await.map_err(pay_error)?;
    let Some((mint, held)) =
        balances.into_iter().find(|(m, _)| wanted.is_some() && aiui_core::budget::normalize_mint_url(m) == wanted)
    else {
        return Err(CommandError::new("invalid", "Choose one of the wallet's mints."));
    };
    if held < amount_sats {
        return Err(CommandError::new(
            "insufficient",
            format!("{mint} holds {held} sats: a token of {amount_sats} sats needs at least that."),
        ));
    }
    let summary = format!("Make a Cashu token worth {amount_sats} sats from {mint}, for another wallet.");
    let details = vec![
        "Whoever has the token can claim its sats: give it only to the wallet it is for.".to_owned(),
        "The mint's fee for making it, if it charges one, is added from the wallet.".to_owned(),
        "It is shown once. Until it is claimed, Take back returns it to this wallet.".to_owned(),
    ];
    let action = format!("Make a token of {amount_sats} sats");
    let desk = WalletDesk::of(&webview);
    let id = desk.hold(Approval::Token { mint, amount_sats }, now_s() + APPROVAL_TTL_S);
    Ok(ApprovalView { id, kind: "token", summary, details, action, expires_at_s: now_s() + APPROVAL_TTL_S })
}

/// Makes the token the owner approved under `id` (once) and returns it, with its QR code, this one time.
#[tauri::command]
pub async fn trusted_wallet_send<R: Runtime>(
    webview: Webview<R>,
    shell: State<'_, Shell>,
    id: String,
) -> Result<SentTokenView, CommandError> {
    require_trusted(&webview)?;
    let desk = WalletDesk::of(&webview);
    let Approval::Token { mint, amount_sats } = desk.take(&id)? else {
        return Err(CommandError::new("unknown_approval", "That approval is not a token; nothing was sent."));
    };
    let wallet = open(&shell, false).await?.ok_or_else(no_wallet)?;
    let payments = desk.payments(&shell, &wallet);
    // No timeout of ours: a send cut off half-way would leave a token nobody was shown.
    let sent = payments.send_token(&mint, amount_sats).await.map_err(pay_error)?;
    // The token exists and is recorded: it is shown whatever happens next (a QR code that cannot be drawn is left
    // out, the text stays).
    let qr = QrView::encode_exact(sent.token.expose()).map_err(qr_error).ok();
    let fee =
        if sent.fee_sats > 0 { format!(" The mint kept {} sats to make it.", sent.fee_sats) } else { String::new() };
    let message = format!(
        "A token of {} sats from {}. Give it to the other wallet now: it is shown only this once.{fee} Until it is \
         claimed, Take back returns it.",
        sent.amount_sats, sent.mint
    );
    Ok(SentTokenView {
        id: sent.id,
        token: sent.token,
        qr,
        message,
        wallet: view(&webview, &shell, Some(&wallet)).await?,
    })
}

/// Takes back the token sent out as `id` (a ledger id from the wallet's list), if nobody has claimed it yet.
#[tauri::command]
pub async fn trusted_wallet_take_back<R: Runtime>(
    webview: Webview<R>,
    shell: State<'_, Shell>,
    id: String,
) -> Result<WalletDoneView, CommandError> {
    require_trusted(&webview)?;
    let wallet = open(&shell, false).await?.ok_or_else(no_wallet)?;
    let payments = WalletDesk::of(&webview).payments(&shell, &wallet);
    let message = match payments.take_back(&id).await.map_err(pay_error)? {
        TakenBack::Returned { credited_sats } => format!("Taken back: {credited_sats} sats are in the wallet again."),
        TakenBack::Claimed { sats } => {
            format!("Too late: the other wallet had claimed it; its {sats} sats count as sent.")
        }
    };
    Ok(WalletDoneView { message, notices: Vec::new(), wallet: view(&webview, &shell, Some(&wallet)).await? })
}

/// "Check": settles what the mints now know (withdrawals paid or failed, tokens claimed, paid invoices, payments
/// to providers) and says what changed.
#[tauri::command]
pub async fn trusted_wallet_reconcile<R: Runtime>(
    webview: Webview<R>,
    shell: State<'_, Shell>,
) -> Result<WalletDoneView, CommandError> {
    require_trusted(&webview)?;
    let wallet = open(&shell, false).await?.ok_or_else(no_wallet)?;
    let payments = WalletDesk::of(&webview).payments(&shell, &wallet);
    let report = payments.reconcile().await.map_err(pay_error)?;
    let wallet = view(&webview, &shell, Some(&wallet)).await?;
    let message = if report.reconciling_elsewhere {
        "Another check of this wallet is running right now (the app's own, or aiui-cli); try again in a moment."
            .to_owned()
    } else {
        let mut parts = vec![match report.outflows_settled {
            0 => "Checked.".to_owned(),
            n => format!("Checked: {n} withdrawal(s) or token(s) ended."),
        }];
        // Counted from the list, which also holds a withdrawal whose payment this app is still waiting for (the check
        // leaves that one to the call that made it).
        let open = wallet.outflows.iter().filter(|row| row.open).count();
        if open > 0 {
            parts.push(format!("{open} still in flight."));
        }
        if report.minted_sats > 0 {
            parts.push(format!("{} sats minted from paid invoices.", report.minted_sats));
        }
        if report.unreachable > 0 {
            parts.push(format!(
                "{} could not be checked (a mint did not answer); they stay recorded.",
                report.unreachable
            ));
        }
        parts.join(" ")
    };
    Ok(WalletDoneView { message, notices: report.notices, wallet })
}
