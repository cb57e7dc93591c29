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

use serde::Serialize;
use tauri::{Runtime, Webview};

use crate::TRUSTED;

/// A command's failure, as the windows receive it: a stable `code` to branch on and a sentence for the owner.
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
}

/// Refuses unless the calling webview, and the window that holds it, are the trusted window.
pub fn require_trusted<R: Runtime>(webview: &Webview<R>) -> Result<(), CommandError> {
    if webview.label() == TRUSTED && webview.window().label() == TRUSTED {
        Ok(())
    } else {
        tracing::warn!(caller = webview.label(), "refused a trusted command from another window");
        Err(CommandError::new("not_trusted", "This can only be done in AIUI's trusted window."))
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
            invoke.resolver.reject(CommandError::new("unknown_command", format!("There is no command `{command}`.")));
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
