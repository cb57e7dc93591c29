//! The allowances and the Routstr options, set in the trusted window. Writing the sats allowance or the Routstr
//! options rebuilds the agent's chain (so the paid leg appears or goes without a restart) while holding the turn
//! slot, so no turn is paying from the budget being replaced. Claude's USD allowance and its prices need no rebuild:
//! the Claude leg shares the shell's allowance and reads the price table for every request. The chat window only
//! reads the allowances, through `chat::allowance_get`.

use aiui_core::budget::{BudgetError, BudgetUpdate, ClaudeUpdate, Period};
use aiui_core::i18n::Locale;
use aiui_core::pricing::PriceError;
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
    let locale = shell.locale();
    let period: Period = period.parse().map_err(|e: String| CommandError::new("invalid", e))?;
    let accepted_mints: Vec<String> =
        accepted_mints.into_iter().map(|m| m.trim().to_owned()).filter(|m| !m.is_empty()).collect();
    let _slot = shell.begin_turn().ok_or_else(|| busy(locale))?;
    shell
        .budget()
        .set(BudgetUpdate {
            allowance_sats: Some(allowance_sats),
            period: Some(period),
            accepted_mints: Some(accepted_mints),
        })
        .map_err(|e| budget_error(e, locale))?;
    rebuild(&shell, locale).await?;
    Ok(settings_view(&shell).await)
}

/// Sets Claude's allowance: US dollars as the owner typed them ("5", "2.50", "$0.50", "7,50"; 0 turns Claude
/// off), read by the host, and its renewal period.
#[tauri::command]
pub async fn trusted_set_claude_allowance<R: Runtime>(
    webview: Webview<R>,
    shell: State<'_, Shell>,
    allowance_usd: String,
    period: String,
) -> Result<SettingsView, CommandError> {
    require_trusted(&webview)?;
    let locale = shell.locale();
    let micros = aiui_core::pricing::parse_usd(&allowance_usd).map_err(|e| price_error(e, locale))?;
    let period: Period = period.parse().map_err(|e: String| CommandError::new("invalid", e))?;
    // A turn reads its Claude policy when it starts; holding the slot keeps a running turn's reservations and
    // this change apart, as for the sats allowance.
    let _slot = shell.begin_turn().ok_or_else(|| busy(locale))?;
    shell
        .claude_allowance()
        .set(ClaudeUpdate { allowance_usd_micros: Some(micros), period: Some(period) })
        .map_err(|e| budget_error(e, locale))?;
    Ok(settings_view(&shell).await)
}

/// The owner's price for one Claude model, in USD per million tokens (input, output, 5-minute cache write, cache
/// read), each as typed and read by the host. It replaces the shipped price for that model from the next request.
#[tauri::command]
pub async fn trusted_set_claude_price<R: Runtime>(
    webview: Webview<R>,
    shell: State<'_, Shell>,
    model: String,
    input: String,
    output: String,
    cache_write: String,
    cache_read: String,
) -> Result<SettingsView, CommandError> {
    require_trusted(&webview)?;
    let locale = shell.locale();
    let input = per_mtok("input", &input, locale)?;
    let output = per_mtok("output", &output, locale)?;
    let cache_write = per_mtok("cache-write", &cache_write, locale)?;
    let cache_read = per_mtok("cache-read", &cache_read, locale)?;
    let dir = shell.data.0.clone();
    tokio::task::spawn_blocking(move || {
        aiui_core::pricing::set_owner_price(&dir, &model, input, output, cache_write, cache_read)
    })
    .await
    .map_err(|e| CommandError::new("internal", e.to_string()))?
    .map_err(|e| price_error(e, locale))?;
    Ok(settings_view(&shell).await)
}

/// What the owner typed was refused, or the price file could not be read or written, said in `locale`.
fn price_error(e: PriceError, locale: Locale) -> CommandError {
    let code = if matches!(e, PriceError::Invalid(_)) { "invalid" } else { "prices" };
    CommandError::new(code, format!("{}.", capitalised(&e.text(locale))))
}

/// An allowance setting refused (a mint that is not a URL), or the allowance's file could not be written.
fn budget_error(e: BudgetError, locale: Locale) -> CommandError {
    let code = if matches!(e, BudgetError::Invalid(_) | BudgetError::NotAMint(_)) { "invalid" } else { "budget" };
    CommandError::new(code, format!("{}.", capitalised(&e.text(locale))))
}

fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map(|c| c.to_uppercase().chain(chars).collect()).unwrap_or_default()
}

/// A price field as typed ("3", "0.30", "$3.75", "0,30"); the range is `set_owner_price`'s to check. `field` is
/// the column as `error-price-field` names it.
fn per_mtok(field: &str, text: &str, locale: Locale) -> Result<f64, CommandError> {
    aiui_core::pricing::parse_usd_price(text)
        .map_err(|_| CommandError::said("invalid", locale, "error-price-field", &[("field", field.into())]))
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
    let locale = shell.locale();
    let reviewer = match reviewer.as_deref().map(str::trim).filter(|r| !r.is_empty()) {
        None => None,
        Some(key) => {
            aiui_core::backends::routstr::discovery::parse_reviewer(key).map_err(|reason| {
                CommandError::said("invalid", locale, "error-reviewer-key", &[("reason", reason.to_string().into())])
            })?;
            Some(key.to_owned())
        }
    };
    let tor_socks = match tor_socks.as_deref().map(str::trim).filter(|t| !t.is_empty()) {
        None => None,
        Some(text) => Some(
            text.parse::<std::net::SocketAddr>()
                .map_err(|_| CommandError::said("invalid", locale, "error-tor-socks", &[]))?,
        ),
    };
    let _slot = shell.begin_turn().ok_or_else(|| busy(locale))?;
    update_config(&shell, |file| {
        file.routstr.reviewed_only = reviewed_only;
        file.routstr.tor_socks = tor_socks;
        file.routstr.reviewer = reviewer;
    })?;
    rebuild(&shell, locale).await?;
    Ok(settings_view(&shell).await)
}

pub(super) fn busy(locale: Locale) -> CommandError {
    CommandError::said("busy", locale, "error-busy-change", &[])
}

pub(super) async fn rebuild(shell: &Shell, locale: Locale) -> Result<(), CommandError> {
    shell.rebuild().await.map_err(|e| {
        CommandError::said("backends", locale, "error-saved-not-rebuilt", &[("error", format!("{e:#}").into())])
    })
}
