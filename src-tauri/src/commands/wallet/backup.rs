//! The wallet's backup and restore in the trusted window. The words go to the window only when it asks (after the
//! owner asked and confirmed there), with QR codes of the mint list and of the whole backup; nothing here logs them
//! or keeps them once the answer is sent. Restore is for an empty wallet only, and the shell then uses the restored
//! wallet everywhere (this window and the agent's chain).

use std::sync::Arc;

use aiui_core::Secret;
use aiui_core::i18n::{self, Locale};
use aiui_core::pay::{Wallet, WalletBackup};
use aiui_core::secrets::SecretName;
use tauri::{Runtime, State, Webview};

use super::{WalletDesk, open, pay_error, qr_error, view, wallet_options};
use crate::Shell;
use crate::commands::{CommandError, require_trusted};
use crate::ipc::{BackupView, QrView, RestoreView, WalletView};

/// The backup words and the mints the wallet used. The window shows them only after the owner asked twice.
#[tauri::command]
pub async fn trusted_wallet_backup<R: Runtime>(
    webview: Webview<R>,
    shell: State<'_, Shell>,
) -> Result<BackupView, CommandError> {
    require_trusted(&webview)?;
    let locale = shell.locale();
    let wallet = open(&shell, false)
        .await?
        .ok_or_else(|| CommandError::said("no_wallet", locale, "error-no-wallet-to-back-up", &[]))?;
    let secrets = shell.secrets.clone();
    // The words are read from the keyring synchronously (a D-Bus round trip).
    let backup = tokio::task::spawn_blocking(move || {
        tokio::runtime::Handle::current().block_on(async move { wallet.backup(&secrets).await })
    })
    .await
    .map_err(|e| CommandError::new("internal", e.to_string()))?
    .map_err(|e| pay_error(e, locale))?;
    let backup_qr = QrView::encode_exact(backup.as_text().expose()).map_err(|e| qr_error(e, locale))?;
    let mints_qr = match backup.mints.is_empty() {
        true => None,
        false => Some(QrView::encode_exact(&backup.mints.join("\n")).map_err(|e| qr_error(e, locale))?),
    };
    Ok(BackupView { words: backup.words, mints: backup.mints, mints_qr, backup_qr })
}

/// "I wrote them down": the reminder stops.
#[tauri::command]
pub async fn trusted_wallet_confirm_backup<R: Runtime>(
    webview: Webview<R>,
    shell: State<'_, Shell>,
) -> Result<WalletView, CommandError> {
    require_trusted(&webview)?;
    let locale = shell.locale();
    let wallet = open(&shell, false)
        .await?
        .ok_or_else(|| CommandError::said("no_wallet", locale, "error-no-wallet-to-back-up", &[]))?;
    WalletDesk::of(&webview).payments(&shell, &wallet).confirm_backup().map_err(|e| pay_error(e, locale))?;
    view(&webview, &shell, Some(&wallet)).await
}

/// Restores the wallet from a pasted backup (the words line, then one mint per line) into this data dir, which must
/// hold no ecash. Words the keyring already holds for another wallet are replaced only with `replace_other_words`.
#[tauri::command]
pub async fn trusted_wallet_restore<R: Runtime>(
    webview: Webview<R>,
    shell: State<'_, Shell>,
    text: String,
    replace_other_words: bool,
) -> Result<RestoreView, CommandError> {
    require_trusted(&webview)?;
    let locale = shell.locale();
    let text = Secret::new(text);
    let backup = WalletBackup::parse(text.expose()).map_err(|e| CommandError::new("invalid", sentence(e, locale)))?;
    drop(text);
    if backup.mints.is_empty() {
        return Err(CommandError::said("invalid", locale, "error-restore-no-mints", &[]));
    }
    // The chain is rebuilt onto the restored wallet: no turn may be paying from the old one meanwhile.
    let _turn = shell.begin_turn().ok_or_else(|| CommandError::said("busy", locale, "error-busy-restore", &[]))?;
    let mut slot = shell.wallet.lock().await;
    if let Some(current) = slot.as_ref() {
        let total = current.total_balance().await.map_err(|e| pay_error(e, locale))?;
        if total > 0 {
            return Err(CommandError::said("not_empty", locale, "error-restore-not-empty", &[("sats", total.into())]));
        }
    }
    let dir = shell.data.0.clone();
    let secrets = shell.secrets.clone();
    let options = wallet_options(&shell);
    // The keyring is read and written synchronously (D-Bus round trips); the mints are asked in between.
    let restored = tokio::task::spawn_blocking(move || {
        tokio::runtime::Handle::current().block_on(async move {
            let no_wallet_here = !dir.join("wallet.sqlite3").exists();
            let stored =
                secrets.get(SecretName::WalletSeed).map_err(|e| CommandError::new("keyring", e.to_string()))?;
            if no_wallet_here
                && !replace_other_words
                && stored.is_some_and(|stored| stored.expose() != backup.words.expose())
            {
                return Err(CommandError::said("other_words", locale, "error-restore-other-words", &[]));
            }
            Wallet::restore(&dir, &secrets, &backup.words, &backup.mints, options, replace_other_words)
                .await
                .map_err(|e| pay_error(e, locale))
        })
    })
    .await
    .map_err(|e| CommandError::new("internal", e.to_string()))??;
    let (wallet, found) = restored;
    let wallet = Arc::new(wallet);
    *slot = Some(wallet.clone());
    drop(slot);
    WalletDesk::of(&webview).forget();
    let mut total = 0;
    let found: Vec<String> = found
        .iter()
        .map(|mint| {
            total += mint.unspent_sats;
            let mut args = vec![("mint", mint.mint.as_str().into()), ("sats", mint.unspent_sats.into())];
            match mint.pending_sats {
                0 => i18n::text(locale, "wallet-restored-mint", &args),
                pending => {
                    args.push(("pending", pending.into()));
                    i18n::text(locale, "wallet-restored-mint-pending", &args)
                }
            }
        })
        .collect();
    let mut message = i18n::text(locale, "wallet-restored", &[("sats", total.into())]);
    if let Err(e) = shell.rebuild().await {
        message.push_str(&i18n::text(locale, "wallet-restored-not-rebuilt", &[("error", format!("{e:#}").into())]));
    }
    Ok(RestoreView { found, message, wallet: view(&webview, &shell, Some(&wallet)).await? })
}

fn sentence(e: aiui_core::pay::PayError, locale: Locale) -> String {
    super::sentence(&e.text(locale))
}
