//! Taking sats out of the wallet in the trusted window: withdraw to a Lightning invoice, and a token for another
//! wallet. Each is two calls: the first asks the mint (or checks the balance), writes what the owner approves and
//! keeps it under a random id; the second approves that id, once. Also taking back a token nobody has claimed, and
//! "Check" (`reconcile`), which settles pending withdrawals and claimed tokens.

use std::time::Duration;

use aiui_core::i18n::{Locale, text};
use aiui_core::pay::{TakenBack, Withdrawal, WithdrawalOutcome, WithdrawalQuote, clean_invoice};
use tauri::{Runtime, State, Webview};

use super::{
    APPROVAL_TTL_S, Approval, WalletDesk, no_wallet, now_s, open, pay_error, qr_error, short, to_the_end, view,
};
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
    let locale = shell.locale();
    let invoice = clean_invoice(&invoice).map_err(|e| pay_error(e, locale))?;
    let wallet = open(&shell, false).await?.ok_or_else(|| no_wallet(locale))?;
    let mint = mint.map(|m| m.trim().to_owned()).filter(|m| !m.is_empty());
    let desk = WalletDesk::of(&webview);
    let payments = desk.payments(&shell, &wallet);
    let quote = to_the_end(payments.quote_withdrawal(&invoice, mint.as_deref(), everything), locale).await?;
    let now = now_s();
    let expires_at_s =
        if quote.expires_at_s > now { quote.expires_at_s.min(now + APPROVAL_TTL_S) } else { now + APPROVAL_TTL_S };
    let (summary, details, action) = withdrawal_approval(&quote, locale);
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
    let locale = shell.locale();
    let desk = WalletDesk::of(&webview);
    let Approval::Withdrawal(quote) = desk.take(&id, locale)? else {
        return Err(CommandError::said("unknown_approval", locale, "error-not-a-withdrawal", &[]));
    };
    let wallet = open(&shell, false).await?.ok_or_else(|| no_wallet(locale))?;
    let payments = desk.payments(&shell, &wallet);
    let still_paying = text(locale, "wallet-withdraw-still-paying", &[("amount", quote.amount_sats.into())]);
    // The melt runs in its own task, never cut off (a melt stopped half-way would be left for reconcile instead of
    // answered). A payment that takes longer than the window waits for (a hold invoice, a slow route) goes on there,
    // and its row in the ledger, written before any proof left, lists it as in flight meanwhile.
    let mut paying = tokio::spawn(async move { payments.withdraw(&quote).await });
    let message = match tokio::time::timeout(WITHDRAW_ANSWER, &mut paying).await {
        Err(_) => still_paying,
        Ok(joined) => {
            match joined.map_err(|e| CommandError::new("internal", e.to_string()))?.map_err(|e| pay_error(e, locale))? {
                Withdrawal { outcome: WithdrawalOutcome::Paid { amount_sats, fee_sats }, .. } => {
                    text(locale, "wallet-withdraw-paid", &[("amount", amount_sats.into()), ("fee", fee_sats.into())])
                }
                Withdrawal { outcome: WithdrawalOutcome::Pending, .. } => still_paying,
            }
        }
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
    let locale = shell.locale();
    if amount_sats == 0 {
        return Err(CommandError::said("invalid", locale, "error-token-too-small", &[]));
    }
    let wallet = open(&shell, false).await?.ok_or_else(|| no_wallet(locale))?;
    let wanted = aiui_core::budget::normalize_mint_url(&mint);
    let balances = wallet.balances().await.map_err(|e| pay_error(e, locale))?;
    let Some((mint, held)) =
        balances.into_iter().find(|(m, _)| wanted.is_some() && aiui_core::budget::normalize_mint_url(m) == wanted)
    else {
        return Err(CommandError::said("invalid", locale, "error-token-pick-mint", &[]));
    };
    if held < amount_sats {
        let args = [("mint", mint.as_str().into()), ("held", held.into()), ("amount", amount_sats.into())];
        return Err(CommandError::said("insufficient", locale, "error-token-over-held", &args));
    }
    let (summary, details, action) = token_approval(&mint, amount_sats, locale);
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
    let locale = shell.locale();
    let desk = WalletDesk::of(&webview);
    let Approval::Token { mint, amount_sats } = desk.take(&id, locale)? else {
        return Err(CommandError::said("unknown_approval", locale, "error-not-a-token", &[]));
    };
    let wallet = open(&shell, false).await?.ok_or_else(|| no_wallet(locale))?;
    let payments = desk.payments(&shell, &wallet);
    // No timeout of ours: a send cut off half-way would leave a token nobody was shown.
    let sent = payments.send_token(&mint, amount_sats).await.map_err(|e| pay_error(e, locale))?;
    // The token exists and is recorded: it is shown whatever happens next (a QR code that cannot be drawn is left
    // out, the text stays).
    let qr = QrView::encode_exact(sent.token.expose()).map_err(|e| qr_error(e, locale)).ok();
    let kept = match sent.fee_sats {
        0 => String::new(),
        fee => text(locale, "wallet-token-kept", &[("fee", fee.into())]),
    };
    let args = [("amount", sent.amount_sats.into()), ("mint", sent.mint.as_str().into()), ("kept", kept.into())];
    let message = text(locale, "wallet-token-made", &args);
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
    let locale = shell.locale();
    let wallet = open(&shell, false).await?.ok_or_else(|| no_wallet(locale))?;
    let payments = WalletDesk::of(&webview).payments(&shell, &wallet);
    let message = match payments.take_back(&id).await.map_err(|e| pay_error(e, locale))? {
        TakenBack::Returned { credited_sats } => text(locale, "wallet-taken-back", &[("sats", credited_sats.into())]),
        TakenBack::Claimed { sats } => text(locale, "wallet-too-late", &[("sats", sats.into())]),
        TakenBack::ClaimedInPart { claimed_sats, credited_sats } => text(
            locale,
            "wallet-taken-back-in-part",
            &[("claimed", claimed_sats.into()), ("sats", credited_sats.into())],
        ),
        TakenBack::ClaimedRestTooSmall { claimed_sats, rest_sats } => text(
            locale,
            "wallet-taken-back-rest-too-small",
            &[("claimed", claimed_sats.into()), ("rest", rest_sats.into())],
        ),
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
    let locale = shell.locale();
    let wallet = open(&shell, false).await?.ok_or_else(|| no_wallet(locale))?;
    let payments = WalletDesk::of(&webview).payments(&shell, &wallet);
    let report = payments.reconcile().await.map_err(|e| pay_error(e, locale))?;
    let wallet = view(&webview, &shell, Some(&wallet)).await?;
    let message = if report.reconciling_elsewhere {
        text(locale, "wallet-check-elsewhere", &[])
    } else {
        let mut parts = vec![match report.outflows_settled {
            0 => text(locale, "wallet-checked", &[]),
            n => text(locale, "wallet-checked-ended", &[("count", n.into())]),
        }];
        // Counted from the list, which also holds a withdrawal whose payment this app is still waiting for (the check
        // leaves that one to the call that made it).
        let open = wallet.outflows.iter().filter(|row| row.open).count();
        if open > 0 {
            parts.push(text(locale, "wallet-still-in-flight", &[("count", open.into())]));
        }
        if report.minted_sats > 0 {
            parts.push(text(locale, "wallet-minted", &[("sats", report.minted_sats.into())]));
        }
        if report.unreachable > 0 {
            parts.push(text(locale, "wallet-not-checked", &[("count", report.unreachable.into())]));
        }
        parts.join(" ")
    };
    Ok(WalletDoneView { message, notices: report.notices, wallet })
}

/// What the owner approves for a withdrawal, in `locale`: the summary, the figures, and the Approve button's words.
fn withdrawal_approval(quote: &WithdrawalQuote, locale: Locale) -> (String, Vec<String>, String) {
    let summary = text(
        locale,
        "wallet-withdraw-summary",
        &[("amount", quote.amount_sats.into()), ("mint", quote.mint.as_str().into())],
    );
    let details = vec![
        text(locale, "wallet-withdraw-invoice", &[("invoice", short(&quote.invoice).into())]),
        text(locale, "wallet-withdraw-receives", &[("amount", quote.amount_sats.into())]),
        text(locale, "wallet-withdraw-reserve", &[("reserve", quote.fee_reserve_sats.into())]),
        text(locale, "wallet-withdraw-input-fee", &[("fee", quote.input_fee_sats.into())]),
        text(locale, "wallet-withdraw-most", &[("most", quote.most_it_costs_sats.into())]),
    ];
    let action = text(locale, "wallet-withdraw-action", &[("amount", quote.amount_sats.into())]);
    (summary, details, action)
}

/// What the owner approves for a token made for another wallet, in `locale`.
fn token_approval(mint: &str, amount_sats: u64, locale: Locale) -> (String, Vec<String>, String) {
    let summary = text(locale, "wallet-token-summary", &[("amount", amount_sats.into()), ("mint", mint.into())]);
    let details = ["wallet-token-whoever", "wallet-token-fee", "wallet-token-once"]
        .into_iter()
        .map(|key| text(locale, key, &[]))
        .collect();
    let action = text(locale, "wallet-token-action", &[("amount", amount_sats.into())]);
    (summary, details, action)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn quote() -> WithdrawalQuote {
        WithdrawalQuote {
            quote_id: "q1".into(),
            mint: "https://mint.example".into(),
            invoice: "lnbc5u1pjexampleexampleexampleexampleexample".into(),
            amount_sats: 500,
            fee_reserve_sats: 10,
            input_fee_sats: 1,
            most_it_costs_sats: 511,
            expires_at_s: 0,
        }
    }

    /// What the owner approves before sats leave reads as it did in English, and in the owner's language otherwise,
    /// with every figure in it.
    #[test]
    fn a_withdrawal_and_a_token_are_approved_in_the_owners_language() {
        let (summary, details, action) = withdrawal_approval(&quote(), Locale::En);
        assert_eq!(summary, "Pay 500 sats to this Lightning invoice from https://mint.example.");
        assert_eq!(
            details,
            [
                "Invoice: lnbc5u1pjexampleexam…eexample",
                "The invoice receives: 500 sats",
                "Lightning fee reserve: up to 10 sats (what the mint does not use comes back)",
                "The mint's input fee: 1 sats",
                "The most it takes from the wallet: 511 sats",
            ]
        );
        assert_eq!(action, "Withdraw 500 sats");
        let (summary, details, action) = withdrawal_approval(&quote(), Locale::De);
        assert_eq!(summary, "500 Sats an diese Lightning-Rechnung zahlen, von https://mint.example.");
        assert_eq!(details[4], "Höchstens aus der Wallet: 511 Sats");
        assert_eq!(action, "500 Sats auszahlen");
        let (summary, _, action) = withdrawal_approval(&quote(), Locale::Es);
        assert_eq!(summary, "Pagar 500 sats a esta factura Lightning desde https://mint.example.");
        assert_eq!(action, "Retirar 500 sats");

        let (summary, details, action) = token_approval("https://mint.example", 200, Locale::En);
        assert_eq!(summary, "Make a Cashu token worth 200 sats from https://mint.example, for another wallet.");
        assert_eq!(details[0], "Whoever has the token can claim its sats: give it only to the wallet it is for.");
        assert_eq!(action, "Make a token of 200 sats");
        let (summary, details, action) = token_approval("https://mint.example", 200, Locale::Es);
        assert_eq!(summary, "Crear un token Cashu de 200 sats desde https://mint.example, para otra cartera.");
        assert_eq!(details.len(), 3);
        assert_eq!(action, "Crear un token de 200 sats");
        for locale in [Locale::De, Locale::Es] {
            let (_, english, _) = token_approval("https://mint.example", 200, Locale::En);
            let (_, theirs, _) = token_approval("https://mint.example", 200, locale);
            assert!(theirs.iter().zip(&english).all(|(a, b)| a != b), "{locale}: {theirs:?}");
        }
    }
}
