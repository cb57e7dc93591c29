//! The trusted window's confirmation commands. Each checks the caller's label before anything else; a decision
//! names the request's id *and* the hash of the arguments the owner was shown, and the gate in the core refuses a
//! stale or different one. In kiosk mode the list also holds the LAN service's requests (route `lan`), whose
//! decisions go back to that service's gate over its socket (`lan_approvals.rs`).

use aiui_core::gate::{DecideError, Decision, Verdict};
use aiui_core::i18n::Locale;
use serde::Deserialize;
use tauri::{AppHandle, Runtime, State, Webview};

use super::{CommandError, require_trusted};
use crate::Shell;
use crate::ipc::PendingView;
use crate::lan_approvals::LanError;
use crate::windows::APPROVE_DELAY;

/// The confirmations waiting for the owner, this app's and the LAN service's, oldest first.
#[tauri::command]
pub fn trusted_pending<R: Runtime>(
    webview: Webview<R>,
    shell: State<'_, Shell>,
) -> Result<Vec<PendingView>, CommandError> {
    require_trusted(&webview)?;
    let mut list: Vec<PendingView> = shell.gate.pending().into_iter().map(PendingView::from).collect();
    if let Some(lan) = &shell.lan {
        list.extend(lan.pending());
        list.sort_by_key(|r| r.created_at_ms);
    }
    Ok(list)
}

/// The owner's answer, as the trusted window sends it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Answer {
    Approve,
    Deny,
}

/// Answers one pending confirmation: this app's gate decides its own, the LAN service's gate a LAN request.
/// Returns the verdict (`allowed` or `denied`).
#[tauri::command]
pub async fn trusted_decide<R: Runtime>(
    webview: Webview<R>,
    shell: State<'_, Shell>,
    id: String,
    arguments_hash: String,
    answer: Answer,
) -> Result<&'static str, CommandError> {
    require_trusted(&webview)?;
    let locale = shell.locale();
    let decision = match answer {
        Answer::Approve => {
            // The window's own delay is the owner's protection against a click meant for something else; this
            // is the same rule where a script cannot skip it.
            let shown = *shell.trusted_shown_at.lock().unwrap_or_else(|p| p.into_inner());
            if shown.is_none_or(|at| at.elapsed() < APPROVE_DELAY) {
                return Err(CommandError::said("too_soon", locale, "error-too-soon", &[]));
            }
            Decision::AllowOnce
        }
        Answer::Deny => Decision::Deny,
    };
    let local = shell.gate.pending().iter().any(|r| r.id == id);
    if let Some(lan) = shell.lan.as_ref().filter(|_| !local) {
        return match lan.decide(&id, &arguments_hash, decision).await {
            Ok(verdict) => verdict_text(verdict, locale),
            Err(e) => Err(lan_refusal(e, locale)),
        };
    }
    match shell.gate.decide(&id, &arguments_hash, decision) {
        Ok(verdict) => verdict_text(verdict, locale),
        Err(DecideError::Expired) => verdict_text(Verdict::Expired, locale),
        Err(DecideError::Unknown) => Err(CommandError::said("unknown", locale, "error-confirmation-unknown", &[])),
        Err(DecideError::Mismatch) => Err(CommandError::said("mismatch", locale, "error-confirmation-changed", &[])),
        Err(DecideError::Audit(e)) => {
            Err(CommandError::said("audit", locale, "error-confirmation-audit", &[("error", e.to_string().into())]))
        }
    }
}

fn verdict_text(verdict: Verdict, locale: Locale) -> Result<&'static str, CommandError> {
    match verdict {
        Verdict::Allowed => Ok("allowed"),
        Verdict::Denied => Ok("denied"),
        Verdict::Expired => Err(CommandError::said("expired", locale, "error-confirmation-expired", &[])),
    }
}

/// A LAN decision that brought no verdict, under the codes the window acts on (`too_soon` starts the delay over).
/// The service's own refusal is shown in its words.
fn lan_refusal(e: LanError, locale: Locale) -> CommandError {
    let code = match &e {
        _ if e.is_too_soon() => "too_soon",
        LanError::Unreachable(_) => "lan_unreachable",
        LanError::NoAnswer(_) => "lan_no_answer",
        LanError::Busy => "busy",
        LanError::Refused { .. } => "lan_refused",
    };
    CommandError::new(code, e.text(locale))
}

/// Hides the trusted window (after a decision, or when the owner closes the settings).
#[tauri::command]
pub fn trusted_hide<R: Runtime>(webview: Webview<R>, app: AppHandle<R>) -> Result<(), CommandError> {
    require_trusted(&webview)?;
    crate::windows::hide_trusted(&app).map_err(|e| CommandError::new("window", e.to_string()))
}
