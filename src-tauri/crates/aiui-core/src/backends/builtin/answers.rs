//! Everything the built-in leg says, written by the host in the owner's language: what it understood, short
//! answers built from tool results (the surfaces carry the detail), and what it can do. The small model writes
//! none of it; the words are the catalogues' (`builtin-*` in `locales/`).

use super::intents::Intent;
use super::surface_of;
use crate::i18n::{self, FluentValue, Locale};
use crate::node::PackageState;
use crate::tools::Surface;
use crate::tools::summary::state_words;

/// Said once, with the leg's first answer.
pub fn small_model_notice(locale: Locale) -> String {
    i18n::text(locale, "builtin-notice", &[])
}

/// What the leg can do, for requests outside it. It never guesses an answer to those.
pub fn capabilities(locale: Locale) -> String {
    i18n::text(locale, "builtin-capabilities", &[])
}

/// What the leg understood, said before the tool runs: "Restarting LND: waiting for your approval."
pub fn understood(locale: Locale, intent: Intent, app: Option<&str>) -> String {
    let key = match intent {
        Intent::ListApps => "builtin-understood-list",
        Intent::Status => "builtin-understood-status",
        Intent::Logs => "builtin-understood-logs",
        Intent::Start => "builtin-understood-start",
        Intent::Stop => "builtin-understood-stop",
        Intent::Restart => "builtin-understood-restart",
        Intent::Install => "builtin-understood-install",
        Intent::Uninstall => "builtin-understood-uninstall",
        Intent::BitcoinSync => "builtin-understood-sync",
        Intent::LightningInfo => "builtin-understood-lightning",
        Intent::SystemStats => "builtin-understood-system",
        Intent::Mints => "builtin-understood-mints",
        Intent::Other => return capabilities(locale),
    };
    let app = app.map(str::to_owned).unwrap_or_else(|| i18n::text(locale, "builtin-the-app", &[]));
    i18n::text(locale, key, &[("app", app.into())])
}

/// A short answer from one tool result.
pub fn from_result(locale: Locale, content: &str, is_error: bool) -> String {
    if is_error {
        return i18n::text(locale, "builtin-failed", &[("error", first_line(content, 300).into())]);
    }
    match surface_of(content) {
        Some(surface) => from_surface(locale, &surface),
        None => i18n::text(locale, "builtin-node-answered", &[("answer", first_line(content, 300).into())]),
    }
}

fn from_surface(locale: Locale, surface: &Surface) -> String {
    let t = |key: &str, args: &[(&str, FluentValue<'_>)]| i18n::text(locale, key, args);
    let join = |parts: &[String]| parts.join(&t("builtin-separator", &[]));
    match surface {
        Surface::PackageList { packages } => {
            let installed: Vec<_> = packages.iter().filter(|p| p.state != PackageState::NotInstalled).collect();
            let running: Vec<String> =
                installed.iter().filter(|p| p.state == PackageState::Running).map(|p| p.title.clone()).collect();
            let others: Vec<String> = installed
                .iter()
                .filter(|p| p.state != PackageState::Running)
                .map(|p| format!("{} ({})", p.title, state_words(locale, &p.state)))
                .collect();
            let names = if running.is_empty() { t("builtin-apps-running-none", &[]) } else { join(&running) };
            let args =
                [("running", running.len().into()), ("installed", installed.len().into()), ("names", names.into())];
            let mut text = t("builtin-apps-running", &args);
            if !others.is_empty() {
                text.push(' ');
                text.push_str(&t("builtin-apps-not-running", &[("apps", join(&others).into())]));
            }
            text
        }
        Surface::PackageCard { package } => {
            let app = ("app", FluentValue::from(package.title.as_str()));
            let state = ("state", FluentValue::from(state_words(locale, &package.state)));
            match &package.health {
                Some(health) => t("builtin-app-state-health", &[app, state, ("health", health.as_str().into())]),
                None => t("builtin-app-state", &[app, state]),
            }
        }
        Surface::LogTail { app, lines } => {
            t("builtin-log-lines", &[("app", app.as_str().into()), ("count", lines.len().into())])
        }
        Surface::BitcoinSync { info } => {
            // Only what the node sent is said: a figure it left out is not made up.
            let mut details = String::new();
            if let Some(headers) = info.headers {
                details.push_str(&t("builtin-sync-headers", &[("headers", headers.into())]));
            }
            if let Some(progress) = info.progress() {
                let percent = i18n::decimal(locale, progress * 100.0, 1);
                details.push_str(&t("builtin-sync-verified", &[("percent", percent.into())]));
            }
            if info.initialblockdownload == Some(true) {
                details.push_str(&t("builtin-sync-initial", &[]));
            }
            let args =
                [("chain", info.chain.as_str().into()), ("blocks", info.blocks.into()), ("details", details.into())];
            t("builtin-sync", &args)
        }
        Surface::LightningInfo { info } => {
            let mut parts = Vec::new();
            if let Some(channels) = info.num_active_channels {
                parts.push(t("builtin-ln-channels", &[("count", channels.into())]));
            }
            if let Some(peers) = info.num_peers {
                parts.push(t("builtin-ln-peers", &[("count", peers.into())]));
            }
            match info.synced_to_chain {
                Some(true) => parts.push(t("builtin-ln-synced", &[])),
                Some(false) => parts.push(t("builtin-ln-not-synced", &[])),
                None => {}
            }
            let node = match info.alias.as_deref() {
                Some(alias) => t("builtin-ln-alias", &[("alias", alias.into())]),
                None => "LND".into(),
            };
            if parts.is_empty() {
                t("builtin-ln-no-figures", &[("node", node.into())])
            } else {
                t("builtin-ln-figures", &[("node", node.into()), ("figures", join(&parts).into())])
            }
        }
        Surface::SystemStats { stats } => {
            let mut parts = Vec::new();
            if let Some(cpu) = stats.cpu_percent {
                parts.push(t("builtin-sys-cpu", &[("percent", i18n::decimal(locale, cpu, 0).into())]));
            }
            if let (Some(used), Some(total)) = (stats.mem_used, stats.mem_total) {
                let args = [
                    ("used", i18n::decimal(locale, gb(used), 1).into()),
                    ("total", i18n::decimal(locale, gb(total), 1).into()),
                ];
                parts.push(t("builtin-sys-memory", &args));
            }
            if let (Some(used), Some(total)) = (stats.disk_used, stats.disk_total) {
                let args = [
                    ("used", i18n::decimal(locale, gb(used), 0).into()),
                    ("total", i18n::decimal(locale, gb(total), 0).into()),
                ];
                parts.push(t("builtin-sys-disk", &args));
            }
            if let Some(degrees) = stats.temperature_c {
                parts.push(t("builtin-sys-temperature", &[("degrees", i18n::decimal(locale, degrees, 0).into())]));
            }
            if parts.is_empty() {
                t("builtin-sys-no-figures", &[])
            } else {
                t("builtin-sys-figures", &[("figures", join(&parts).into())])
            }
        }
        Surface::MintList { mints } => match mints.len() {
            0 => t("builtin-mints-none", &[]),
            n => {
                let urls: Vec<String> = mints.iter().map(|m| m.url.clone()).collect();
                t("builtin-mints", &[("count", n.into()), ("urls", join(&urls).into())])
            }
        },
        Surface::ActionReceipt { app, tool, state, .. } => {
            // The catalogue names the verbs it knows; another tool's verb is shown as the tool spells it.
            let verb = tool.strip_prefix("package_").unwrap_or(tool);
            let mut args = vec![("action", verb.into()), ("app", app.as_str().into())];
            match state {
                Some(state) => {
                    args.push(("state", state_words(locale, state).into()));
                    t("builtin-done-now", &args)
                }
                None => t("builtin-done", &args),
            }
        }
    }
}

fn gb(bytes: u64) -> f64 {
    bytes as f64 / 1e9
}

fn first_line(text: &str, max: usize) -> String {
    let line = text.lines().next().unwrap_or_default();
    line.chars().take(max).collect()
}
