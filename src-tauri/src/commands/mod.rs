//! The IPC commands, one file per window or domain, and the one handler that registers them.
//!
//! `chat` is the main window's (send, read, ask for the trusted window). `trusted`, `settings`, `budget` and
//! `wallet` are the trusted window's; `language` gives each window its words and the trusted one the owner's pick.
//! Each trusted command calls [`require_trusted`] first, so a capability that wrongly granted one to another window
//! still fails closed.

pub mod budget;
pub mod chat;
pub mod language;
pub mod names;
pub mod settings;
pub mod trusted;
pub mod wallet;

use aiui_core::i18n::{self, FluentValue, Locale};
use serde::Serialize;
use tauri::{Manager, Runtime, Webview};

use crate::{Shell, TRUSTED};

/// A command's failure, as the windows receive it: a stable `code` to branch on and a sentence for the owner, in
/// their language.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, thiserror::Error)]
#[error("{message} ({code})")]
pub struct CommandError {
    pub code: &'static str,
    pub message: String,
}

impl CommandError {
    pub fn new(code: &'static str, message: impl Into<String>) -> Self {
        Self { code, message: message.into() }
    }

    /// A failure in the owner's words: message `key` of the catalogues (`errors.ftl`) in `locale`.
    pub fn said(code: &'static str, locale: Locale, key: &str, args: &[(&str, FluentValue<'_>)]) -> Self {
        Self::new(code, i18n::text(locale, key, args))
    }
}

/// The language the owner reads the host in, from the window's app (the system's before the shell exists).
pub fn locale_of<R: Runtime>(webview: &Webview<R>) -> Locale {
    webview.try_state::<Shell>().map(|shell| shell.locale()).unwrap_or_else(Locale::from_env)
}

/// Refuses unless the calling webview, and the window that holds it, are the trusted window.
pub fn require_trusted<R: Runtime>(webview: &Webview<R>) -> Result<(), CommandError> {
    if webview.label() == TRUSTED && webview.window().label() == TRUSTED {
        Ok(())
    } else {
        tracing::warn!(caller = webview.label(), "refused a trusted command from another window");
        Err(CommandError::said("not_trusted", locale_of(webview), "error-not-trusted", &[]))
    }
}

/// Whether `command` is in the one list.
pub fn is_listed(command: &str) -> bool {
    names::MAIN_COMMANDS.contains(&command) || names::TRUSTED_COMMANDS.contains(&command)
}

/// The invoke handler: the generated one, behind a check that the command is in [`names`]. A command added to
/// the handler but not to the list (and so not to the app manifest, and not ACL-checked) is refused.
pub fn handler<R: Runtime>() -> impl Fn(tauri::ipc::Invoke<R>) -> bool + Send + Sync + 'static {
    let generated = generated::<R>();
    move |invoke| {
        let command = invoke.message.command().to_owned();
        if !is_listed(&command) {
            tracing::warn!(command, "refused a command that is not in the command list");
            let locale = locale_of(&invoke.message.webview());
            let args = [("command", command.as_str().into())];
            invoke.resolver.reject(CommandError::said("unknown_command", locale, "error-unknown-command", &args));
            return true;
        }
        generated(invoke)
    }
}

fn generated<R: Runtime>() -> impl Fn(tauri::ipc::Invoke<R>) -> bool + Send + Sync + 'static {
    tauri::generate_handler![
        chat::app_info,
        chat::conversations_list,
        chat::conversation_load,
        chat::chat_send,
        chat::chat_stop,
        chat::node_packages,
        chat::chat_suggestions,
        chat::request_trusted_window,
        chat::allowance_get,
        language::ui_text,
        language::trusted_ui_text,
        language::trusted_set_locale,
        trusted::trusted_pending,
        trusted::trusted_decide,
        trusted::trusted_hide,
        settings::trusted_settings,
        settings::trusted_set_api_key,
        settings::trusted_clear_api_key,
        settings::trusted_fetch_fingerprint,
        settings::trusted_pair_node,
        settings::trusted_set_grant,
        settings::trusted_set_builtin,
        budget::trusted_set_allowance,
        budget::trusted_set_routstr,
        budget::trusted_set_claude_allowance,
        budget::trusted_set_claude_price,
        wallet::trusted_wallet,
        wallet::trusted_wallet_receive,
        wallet::trusted_wallet_invoice,
        wallet::trusted_wallet_check,
        wallet::outflows::trusted_wallet_quote_withdrawal,
        wallet::outflows::trusted_wallet_withdraw,
        wallet::outflows::trusted_wallet_quote_send,
        wallet::outflows::trusted_wallet_send,
        wallet::outflows::trusted_wallet_take_back,
        wallet::outflows::trusted_wallet_reconcile,
        wallet::backup::trusted_wallet_backup,
        wallet::backup::trusted_wallet_confirm_backup,
        wallet::backup::trusted_wallet_restore,
    ]
}
