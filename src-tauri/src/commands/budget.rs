//! The allowance and the Routstr options, set in the trusted window. Writing either rebuilds the agent's chain
//! (so the paid leg appears or goes without a restart) while holding the turn slot, so no turn is paying from the
//! budget being replaced. The chat window only reads the allowance, through `chat::allowance_get`.

use aiui_core::budget::{BudgetError, BudgetUpdate, Period};
use tauri::{Runtime, State, Webview};

use super::settings::{settings_view, update_config};
use super::{CommandError, require_trusted};
use crate::Shell;
use crate::ipc::SettingsView;

/// Sets the allowance (sats per period, 0 turns paid help off), its renewal period and the accepted mints.
#[tauri::command]
pub async fn trusted_set_allowance<R: Runtime>(
    webview: Webview<R>,
    shell: State<'_, Shell>,
    allowance_sats: u64,
    period: String,
    accepted_mints: Vec<String>,
) -> Result<SettingsView, CommandError> {
    require_trusted(&webview)?;
    let period: Period = period.parse().map_err(|e: String| CommandError::new("invalid", e))?;
    let accepted_mints: Vec<String> =
        accepted_mints.into_iter().map(|m| m.trim().to_owned()).filter(|m| !m.is_empty()).collect();
    let _slot = shell.begin_turn().ok_or_else(busy)?;
    shell
        .budget()
        .set(BudgetUpdate {
            allowance_sats: Some(allowance_sats),
            period: Some(period),
            accepted_mints: Some(accepted_mints),
        })
        .map_err(|e| match e {
            BudgetError::Invalid(message) => CommandError::new("invalid", message),
            other => CommandError::new("budget", other.to_string()),
        })?;
    rebuild(&shell).await?;
    Ok(settings_view(&shell).await)
}

/// "Reviewed providers only", the reviewer's key and the Tor SOCKS address, kept in the config file (nothing
/// secret: a reviewer key is public). An empty or missing reviewer clears it.
#[tauri::command]
pub async fn trusted_set_routstr<R: Runtime>(
    webview: Webview<R>,
    shell: State<'_, Shell>,
    reviewed_only: bool,
    tor_socks: Option<String>,
    reviewer: Option<String>,
) -> Result<SettingsView, CommandError> {
    require_trusted(&webview)?;
    let reviewer = match reviewer.as_deref().map(str::trim).filter(|r| !r.is_empty()) {
        None => None,
        Some(key) => {
            aiui_core::pay::discovery::parse_reviewer(key).map_err(|reason| {
                CommandError::new("invalid", format!("The reviewer key is an npub… or 64 hex characters: {reason}."))
            })?;
            Some(key.to_owned())
        }
    };
    let tor_socks = match tor_socks.as_deref().map(str::trim).filter(|t| !t.is_empty()) {
        None => None,
        Some(text) => Some(text.parse::<std::net::SocketAddr>().map_err(|_| {
            CommandError::new("invalid", "The Tor SOCKS address is an IP address and a port, e.g. 127.0.0.1:9050.")
        })?),
    };
    let _slot = shell.begin_turn().ok_or_else(busy)?;
    update_config(&shell, |file| {
        file.routstr.reviewed_only = reviewed_only;
        file.routstr.tor_socks = tor_socks;
        file.routstr.reviewer = reviewer;
    })?;
    rebuild(&shell).await?;
    Ok(settings_view(&shell).await)
}

fn busy() -> CommandError {
    CommandError::new("busy", "The assistant is answering; change this when it has finished.")
}

async fn rebuild(shell: &Shell) -> Result<(), CommandError> {
    shell.rebuild().await.map_err(|e| {
        CommandError::new("backends", format!("Saved, but the assistant's backends could not be rebuilt: {e:#}"))
    })
}
