//! The trusted window's operator settings: the Claude API key and the node password go into the OS keyring (and
//! are never sent back, only "set" or "not set"), the pairing's URL and accepted fingerprint and the tool grants
//! go into the config file. Each command checks the caller's label first. The settings view also carries both
//! allowances' meter and Claude's price table, which `budget.rs` edits.

use std::sync::Arc;
use std::time::Duration;

use aiui_core::Secret;
use aiui_core::i18n::Locale;
use aiui_core::secrets::{SecretName, Secrets};
use aiui_core::tools::{Registry, ToolClass};
use tauri::{Runtime, State, Webview};

use super::{CommandError, locale_of, require_trusted};
use crate::Shell;
use crate::config::{PairedNode, ShellConfig};
use crate::ipc::{
    BudgetView, BuildView, BuiltinView, ClaudePricesView, LanguageChoice, LanguageView, NodeSettingsView, RoutstrView,
    SettingsView, ToolGrantView,
};
use crate::state::{NodeInfo, client_for};

/// How long fetching a certificate or a test login may take.
const NODE_TIMEOUT: Duration = Duration::from_secs(10);

#[tauri::command]
pub async fn trusted_settings<R: Runtime>(
    webview: Webview<R>,
    shell: State<'_, Shell>,
) -> Result<SettingsView, CommandError> {
    require_trusted(&webview)?;
    Ok(settings_view(&shell).await)
}

#[tauri::command]
pub async fn trusted_set_api_key<R: Runtime>(
    webview: Webview<R>,
    shell: State<'_, Shell>,
    key: String,
) -> Result<SettingsView, CommandError> {
    require_trusted(&webview)?;
    let locale = shell.locale();
    let key = key.trim().to_owned();
    if key.is_empty() {
        return Err(CommandError::said("invalid", locale, "error-api-key-empty", &[]));
    }
    if key.chars().any(char::is_whitespace) || key.len() > 512 {
        return Err(CommandError::said("invalid", locale, "error-api-key-malformed", &[]));
    }
    keyring(&shell.secrets, move |s| s.set(SecretName::AnthropicApiKey, &Secret::new(key))).await?;
    Ok(settings_view(&shell).await)
}

#[tauri::command]
pub async fn trusted_clear_api_key<R: Runtime>(
    webview: Webview<R>,
    shell: State<'_, Shell>,
) -> Result<SettingsView, CommandError> {
    require_trusted(&webview)?;
    keyring(&shell.secrets, |s| s.delete(SecretName::AnthropicApiKey)).await?;
    Ok(settings_view(&shell).await)
}

/// Connects without trusting and returns the certificate's fingerprint, for the owner to compare with the one
/// their node shows before accepting it.
#[tauri::command]
pub async fn trusted_fetch_fingerprint<R: Runtime>(webview: Webview<R>, url: String) -> Result<String, CommandError> {
    require_trusted(&webview)?;
    let url = parse_node_url(&url, locale_of(&webview))?;
    let fingerprint = aiui_core::node::fetch_fingerprint(&url, NODE_TIMEOUT)
        .await
        .map_err(|e| CommandError::new("node", e.to_string()))?;
    Ok(fingerprint.to_string())
}

/// Pairs with a node: logs in once with the given password and accepted fingerprint, and only if that works,
/// stores the password in the keyring and the URL and fingerprint in the config file, and switches to it.
#[tauri::command]
pub async fn trusted_pair_node<R: Runtime>(
    webview: Webview<R>,
    shell: State<'_, Shell>,
    url: String,
    fingerprint: Option<String>,
    password: String,
) -> Result<SettingsView, CommandError> {
    require_trusted(&webview)?;
    let locale = shell.locale();
    if shell.mode.demo {
        return Err(CommandError::said("demo", locale, "error-demo-paired", &[]));
    }
    let url = parse_node_url(&url, locale)?;
    let fingerprint = fingerprint.map(|f| f.trim().to_owned()).filter(|f| !f.is_empty());
    if url.scheme() == "https" && fingerprint.is_none() {
        return Err(CommandError::said("fingerprint", locale, "error-fingerprint-first", &[]));
    }
    if password.is_empty() {
        return Err(CommandError::said("invalid", locale, "error-password-empty", &[]));
    }
    let paired = PairedNode { url: url.to_string(), fingerprint };
    let client = client_for(&paired, Secret::new(password.clone()))
        .map_err(|e| CommandError::new("invalid", format!("{e:#}")))?;
    tokio::time::timeout(NODE_TIMEOUT, client.login())
        .await
        .map_err(|_| CommandError::said("node", locale, "error-login-timeout", &[]))?
        .map_err(|e| CommandError::said("node", locale, "error-login-failed", &[("error", e.to_string().into())]))?;

    let stored = Secret::new(password.clone());
    keyring(&shell.secrets, move |s| s.set(SecretName::NodePassword, &stored)).await?;
    update_config(&shell, |file| file.node = Some(paired.clone()))?;
    let info = NodeInfo { url: paired.url.clone(), fingerprint: paired.fingerprint.clone(), demo: false };
    shell.connect(client, info, password).await.map_err(|e| CommandError::new("internal", format!("{e:#}")))?;
    Ok(settings_view(&shell).await)
}

/// Switches one tool on or off for the assistant. Takes effect at the next turn.
#[tauri::command]
pub async fn trusted_set_grant<R: Runtime>(
    webview: Webview<R>,
    shell: State<'_, Shell>,
    tool: String,
    enabled: bool,
) -> Result<SettingsView, CommandError> {
    require_trusted(&webview)?;
    if Registry::node_tools().get(&tool).is_none() {
        return Err(CommandError::said("invalid", shell.locale(), "error-no-tool", &[("tool", tool.as_str().into())]));
    }
    let disabled = {
        let mut config = shell.config.write().unwrap_or_else(|p| p.into_inner());
        if enabled {
            config.grants.disabled.remove(&tool);
        } else {
            config.grants.disabled.insert(tool);
        }
        config.grants.disabled.clone()
    };
    update_config(&shell, |file| file.disabled_tools = disabled.clone())?;
    Ok(settings_view(&shell).await)
}

/// Turns the built-in small model (the chain's last leg) on or off; the chain is rebuilt so it applies from the
/// next message.
#[tauri::command]
pub async fn trusted_set_builtin<R: Runtime>(
    webview: Webview<R>,
    shell: State<'_, Shell>,
    enabled: bool,
) -> Result<SettingsView, CommandError> {
    require_trusted(&webview)?;
    let locale = shell.locale();
    let _slot = shell.begin_turn().ok_or_else(|| super::budget::busy(locale))?;
    update_config(&shell, |file| file.builtin_model_off = !enabled)?;
    super::budget::rebuild(&shell, locale).await?;
    Ok(settings_view(&shell).await)
}

fn parse_node_url(url: &str, locale: Locale) -> Result<url::Url, CommandError> {
    let url: url::Url = url.trim().parse().map_err(|e: url::ParseError| {
        CommandError::said("invalid", locale, "error-not-an-address", &[("error", e.to_string().into())])
    })?;
    if !matches!(url.scheme(), "http" | "https") {
        return Err(CommandError::said("invalid", locale, "error-node-address-scheme", &[]));
    }
    Ok(url)
}

pub(super) fn update_config(shell: &Shell, change: impl FnOnce(&mut ShellConfig)) -> Result<(), CommandError> {
    let mut file = ShellConfig::load(&shell.data.0).map_err(|e| CommandError::new("config", format!("{e:#}")))?;
    change(&mut file);
    file.save(&shell.data.0).map_err(|e| {
        CommandError::said("config", shell.locale(), "error-settings-not-saved", &[("error", e.to_string().into())])
    })
}

/// Runs a keyring call off the async threads (it is a D-Bus round trip).
pub(super) async fn keyring<T: Send + 'static>(
    secrets: &Arc<Secrets>,
    call: impl FnOnce(&Secrets) -> Result<T, aiui_core::secrets::SecretsError> + Send + 'static,
) -> Result<T, CommandError> {
    let secrets = secrets.clone();
    tokio::task::spawn_blocking(move || call(&secrets))
        .await
        .map_err(|e| CommandError::new("internal", e.to_string()))?
        .map_err(|e| CommandError::new("keyring", e.to_string()))
}

pub(super) async fn settings_view(shell: &Shell) -> SettingsView {
    let api_key = keyring(&shell.secrets, |s| s.get(SecretName::AnthropicApiKey).map(|v| v.is_some())).await;
    let password = keyring(&shell.secrets, |s| s.get(SecretName::NodePassword).map(|v| v.is_some())).await;
    let keyring_error = api_key.as_ref().err().map(|e| e.message.clone());
    let node = shell.node().map(|n| NodeSettingsView {
        url: n.url,
        fingerprint: n.fingerprint,
        // The demo's password is generated and never stored.
        password_set: if n.demo { Some(true) } else { password.as_ref().ok().copied() },
        demo: n.demo,
    });
    let disabled = shell.config.read().unwrap_or_else(|p| p.into_inner()).grants.disabled.clone();
    let tools = Registry::node_tools()
        .iter()
        .map(|t| ToolGrantView {
            name: t.name.to_owned(),
            class: match t.class {
                ToolClass::Read => "read",
                ToolClass::Act => "act",
                ToolClass::ActHigh => "act-high",
            },
            description: t.description.to_owned(),
            enabled: !disabled.contains(t.name),
        })
        .collect();
    let report = shell.budget().get();
    let mints = shell.agent().and_then(|agent| agent.node_mints());
    let budget = BudgetView {
        accepted_mints: report.accepted_mints.clone(),
        allowance: aiui_core::view::meter(&report, &shell.claude_allowance().get(), &shell.store, shell.notices())
            .with_node_mints(mints),
    };
    let claude_prices = match aiui_core::pricing::PriceTable::load(&shell.data.0) {
        Ok(table) => ClaudePricesView::from_table(&table),
        // The shipped prices still show what Claude would cost; the damaged file is named so it can be fixed.
        Err(e) => ClaudePricesView {
            error: Some(e.to_string()),
            ..ClaudePricesView::from_table(&aiui_core::pricing::PriceTable::shipped())
        },
    };
    // A damaged config file is reported by the commands that write it; here the defaults are shown.
    let file = ShellConfig::load(&shell.data.0).unwrap_or_default();
    let options = file.routstr;
    let discovery = shell.discovery_report().map(|report| report.lines(false, shell.locale())).unwrap_or_default();
    let routstr = RoutstrView {
        reviewed_only: options.reviewed_only,
        tor_socks: options.tor_socks.map(|a| a.to_string()),
        reviewer: options.reviewer,
        discovery,
    };
    let builtin = BuiltinView { enabled: !file.builtin_model_off, unavailable: shell.builtin_unavailable() };
    let language = LanguageView {
        picked: file.locale.as_deref().and_then(Locale::from_tag).map(Locale::tag),
        effective: shell.locale().tag(),
        system: Locale::from_env().tag(),
        // The pseudo-locale is a test of the pages, not a language an owner reads; it is set by its tag only.
        choices: [Locale::En, Locale::De, Locale::Es]
            .into_iter()
            .map(|l| LanguageChoice { tag: l.tag(), name: l.endonym() })
            .collect(),
    };
    SettingsView {
        budget,
        routstr,
        builtin,
        claude_prices,
        demo: shell.mode.demo,
        kiosk: shell.mode.kiosk,
        api_key_set: api_key.ok(),
        node,
        tools,
        keyring_error,
        lan_approvals: shell.lan.as_ref().map(|lan| lan.view()),
        language,
        build: BuildView::THIS,
    }
}
