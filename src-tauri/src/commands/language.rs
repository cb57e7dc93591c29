//! The owner's language: each window's words from the catalogues (`aiui_core::i18n::page_text`), and the trusted
//! window's setting that picks the language of everything the host writes.

use aiui_core::i18n::{self, Locale, PageText};
use tauri::{AppHandle, Manager, Runtime, State, Webview};

use super::settings::{settings_view, update_config};
use super::{CommandError, require_trusted};
use crate::ipc::SettingsView;
use crate::{MAIN, Shell};

/// The chat window's words, in the language of the host's text.
#[tauri::command]
pub fn ui_text(shell: State<'_, Shell>) -> PageText {
    i18n::page_text(shell.locale())
}

/// The trusted window's words: the same table, asked for under the trusted window's own command list.
#[tauri::command]
pub fn trusted_ui_text<R: Runtime>(webview: Webview<R>, shell: State<'_, Shell>) -> Result<PageText, CommandError> {
    require_trusted(&webview)?;
    Ok(i18n::page_text(shell.locale()))
}

/// Sets the language of the host's text (`None`: the system's). It applies from the next message; the chat
/// window is reloaded to show it, so the change waits for an answer being written to end.
#[tauri::command]
pub async fn trusted_set_locale<R: Runtime>(
    app: AppHandle<R>,
    webview: Webview<R>,
    shell: State<'_, Shell>,
    locale: Option<String>,
) -> Result<SettingsView, CommandError> {
    require_trusted(&webview)?;
    let picked = match locale.as_deref().map(str::trim).filter(|t| !t.is_empty()) {
        None => None,
        Some(tag) => Some(Locale::from_tag(tag).ok_or_else(|| {
            CommandError::said("invalid", shell.locale(), "error-no-language", &[("tag", tag.into())])
        })?),
    };
    let _slot = shell.begin_turn().ok_or_else(|| super::budget::busy(shell.locale()))?;
    update_config(&shell, |file| file.locale = picked.map(|l| l.tag().to_owned()))?;
    let effective = picked.unwrap_or_else(Locale::from_env);
    shell.config.write().unwrap_or_else(|p| p.into_inner()).locale = effective;
    // What the wallet tells from now on (a background write-off, say) is in the new language too.
    if let Some(payments) = shell.chain_payments() {
        payments.set_locale(effective);
    }
    if let Some(chat) = app.get_webview_window(MAIN)
        && let Err(e) = chat.reload()
    {
        tracing::warn!(error = %e, "the chat window could not be reloaded; it shows the new language when next opened");
    }
    Ok(settings_view(&shell).await)
}
