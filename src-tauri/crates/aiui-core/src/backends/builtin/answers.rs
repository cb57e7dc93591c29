//! Everything the built-in leg says, written by the host: what it understood, short answers built from tool
//! results (the surfaces carry the detail), and what it can do. The small model writes none of it.

use super::intents::Intent;
use super::surface_of;
use crate::node::PackageState;
use crate::tools::Surface;

/// Said once, with the leg's first answer.
pub const SMALL_MODEL_NOTICE: &str = "Answers now come from the built-in small model (SmolLM2-135M), meant for \
    trying AIUI: it can list, check, start, stop, restart, install and uninstall apps and show the node's status, \
    but it cannot hold a conversation. For a real assistant, start Ollama on this machine with a tool-capable model \
    (`ollama pull qwen2.5:7b`) or add a Claude API key and a Claude allowance in the trusted settings window.";

/// What the leg can do, for requests outside it. It never guesses an answer to those.
pub fn capabilities() -> String {
    "I'm the built-in small model (SmolLM2-135M), so I only handle everyday node requests: what is running; an \
     app's status or logs; start, stop, restart, install or uninstall an app (e.g. \"restart LND\"); the Bitcoin \
     sync progress; the Lightning node's channels; CPU, memory and disk; and the accepted Cashu mints. For anything \
     else, start Ollama with a tool-capable model (`ollama pull qwen2.5:7b`) or add a Claude API key and a Claude \
     allowance in the trusted settings window."
        .into()
}

/// What the leg understood, said before the tool runs: "Restarting LND: waiting for your approval."
pub fn understood(intent: Intent, app: Option<&str>) -> String {
    let app = app.unwrap_or("the app");
    match intent {
        Intent::ListApps => "Listing your apps.".into(),
        Intent::Status => format!("Checking {app}'s status."),
        Intent::Logs => format!("Reading {app}'s newest log lines."),
        Intent::Start => format!("Starting {app}: waiting for your approval."),
        Intent::Stop => format!("Stopping {app}: waiting for your approval."),
        Intent::Restart => format!("Restarting {app}: waiting for your approval."),
        Intent::Install => format!("Installing {app}: waiting for your approval."),
        Intent::Uninstall => format!("Uninstalling {app}: waiting for your approval."),
        Intent::BitcoinSync => "Checking the Bitcoin sync progress.".into(),
        Intent::LightningInfo => "Checking the Lightning node.".into(),
        Intent::SystemStats => "Reading the machine's CPU, memory and disk.".into(),
        Intent::Mints => "Listing the accepted Cashu mints.".into(),
        Intent::Other => capabilities(),
    }
}

/// A short answer from one tool result.
pub fn from_result(content: &str, is_error: bool) -> String {
    if is_error {
        return format!("That did not work: {}", first_line(content, 300));
    }
    match surface_of(content) {
        Some(surface) => from_surface(&surface),
        None => format!("The node answered: {}", first_line(content, 300)),
    }
}

fn from_surface(surface: &Surface) -> String {
    match surface {
        Surface::PackageList { packages } => {
            let installed: Vec<_> = packages.iter().filter(|p| p.state != PackageState::NotInstalled).collect();
            let running: Vec<&str> =
                installed.iter().filter(|p| p.state == PackageState::Running).map(|p| p.title.as_str()).collect();
            let others: Vec<String> = installed
                .iter()
                .filter(|p| p.state != PackageState::Running)
                .map(|p| format!("{} ({})", p.title, state_word(&p.state)))
                .collect();
            let mut text = format!("{} of {} installed apps are running: {}.", running.len(), installed.len(), {
                if running.is_empty() { "none".to_owned() } else { running.join(", ") }
            });
            if !others.is_empty() {
                text.push_str(&format!(" Not running: {}.", others.join(", ")));
            }
            text
        }
        Surface::PackageCard { package } => {
            let mut text = format!("{} is {}", package.title, state_word(&package.state));
            if let Some(health) = &package.health {
                text.push_str(&format!(", health: {health}"));
            }
            text.push('.');
            text
        }
        Surface::LogTail { app, lines } => format!("Here are {}'s newest {} log lines.", app, lines.len()),
        Surface::BitcoinSync { info } => {
            // Only what the node sent is said: a figure it left out is not made up.
            let mut text = format!("Bitcoin ({}) is at block {}", info.chain, info.blocks);
            if let Some(headers) = info.headers {
                text.push_str(&format!(" of {headers} headers"));
            }
            if let Some(progress) = info.progress() {
                text.push_str(&format!(", {:.1}% verified", progress * 100.0));
            }
            if info.initialblockdownload == Some(true) {
                text.push_str(", still in initial download");
            }
            text.push('.');
            text
        }
        Surface::LightningInfo { info } => {
            let mut parts = Vec::new();
            if let Some(channels) = info.num_active_channels {
                parts.push(format!("{channels} active channel(s)"));
            }
            if let Some(peers) = info.num_peers {
                parts.push(format!("{peers} peer(s)"));
            }
            match info.synced_to_chain {
                Some(true) => parts.push("synced to the chain".into()),
                Some(false) => parts.push("not yet synced to the chain".into()),
                None => {}
            }
            let name = info.alias.as_deref().map(|a| format!("LND \"{a}\"")).unwrap_or_else(|| "LND".into());
            if parts.is_empty() {
                format!("{name}: the node sent no figures.")
            } else {
                format!("{name}: {}.", parts.join(", "))
            }
        }
        Surface::SystemStats { stats } => {
            let mut parts = Vec::new();
            if let Some(cpu) = stats.cpu_percent {
                parts.push(format!("CPU {cpu:.0}%"));
            }
            if let (Some(used), Some(total)) = (stats.mem_used, stats.mem_total) {
                parts.push(format!("memory {:.1} of {:.1} GB", gb(used), gb(total)));
            }
            if let (Some(used), Some(total)) = (stats.disk_used, stats.disk_total) {
                parts.push(format!("disk {:.0} of {:.0} GB", gb(used), gb(total)));
            }
            if let Some(t) = stats.temperature_c {
                parts.push(format!("{t:.0} °C"));
            }
            if parts.is_empty() { "The node sent no system figures.".into() } else { format!("{}.", parts.join(", ")) }
        }
        Surface::MintList { mints } => match mints.len() {
            0 => "The node accepts no Cashu mints yet.".into(),
            n => format!(
                "The node accepts {n} Cashu mint(s): {}.",
                mints.iter().map(|m| m.url.as_str()).collect::<Vec<_>>().join(", ")
            ),
        },
        Surface::ActionReceipt { app, outcome, tool, .. } => {
            let verb = tool.strip_prefix("package_").unwrap_or(tool);
            format!("Done: {verb} of {app} {outcome}.")
        }
    }
}

fn state_word(state: &PackageState) -> String {
    serde_json::to_value(state).ok().and_then(|v| v.as_str().map(str::to_owned)).unwrap_or_else(|| "unknown".into())
}

fn gb(bytes: u64) -> f64 {
    bytes as f64 / 1e9
}

fn first_line(text: &str, max: usize) -> String {
    let line = text.lines().next().unwrap_or_default();
    line.chars().take(max).collect()
}
