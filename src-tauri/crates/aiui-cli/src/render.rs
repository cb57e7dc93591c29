//! Surfaces and confirmations as plain-text tables for the terminal.

use aiui_core::gate::ConfirmRequest;
use aiui_core::tools::Surface;

use crate::l10n::{decimal, percent, t};

/// Draws a surface as the terminal's version of the UI's card.
pub fn surface(surface: &Surface) -> String {
    match surface {
        Surface::PackageList { packages } => {
            let rows: Vec<[String; 4]> = packages
                .iter()
                .map(|p| {
                    let exit = p
                        .exit_code
                        .filter(|c| *c != 0)
                        .map(|c| t("cli-exit-code", &[("code", c.into())]))
                        .unwrap_or_default();
                    [p.id.clone(), word(&p.state), p.version.clone(), exit]
                })
                .collect();
            table(columns(["cli-col-app", "cli-col-state", "cli-col-version", "cli-col-note"]), &rows)
        }
        Surface::PackageCard { package: p } => table(
            columns(["cli-col-app", "cli-col-state", "cli-col-version", "cli-col-health"]),
            &[[p.id.clone(), word(&p.state), p.version.clone(), p.health.clone().unwrap_or_default()]],
        ),
        Surface::LogTail { app, lines } => {
            let mut out = t("cli-log-tail", &[("count", lines.len().into()), ("app", app.as_str().into())]);
            out.push('\n');
            for line in lines {
                out.push_str(line);
                out.push('\n');
            }
            out
        }
        Surface::BitcoinSync { info } => {
            let state = match info.initialblockdownload {
                Some(true) => "cli-sync-syncing",
                Some(false) => "cli-sync-synced",
                None => "cli-sync-unknown",
            };
            let args = [
                ("chain", info.chain.to_string().into()),
                ("blocks", info.blocks.to_string().into()),
                ("headers", known(info.headers).into()),
                ("progress", info.progress().map_or_else(|| UNKNOWN.to_owned(), |p| percent(p, 2)).into()),
                ("state", t(state, &[]).into()),
            ];
            line(t("cli-bitcoin-sync", &args))
        }
        Surface::LightningInfo { info } => {
            let state = match info.synced_to_chain {
                Some(true) => "cli-sync-synced",
                Some(false) => "cli-sync-not-synced",
                None => "cli-sync-unknown",
            };
            let args = [
                ("alias", info.alias.as_deref().unwrap_or(UNKNOWN).to_owned().into()),
                ("channels", known(info.num_active_channels).into()),
                ("peers", known(info.num_peers).into()),
                ("state", t(state, &[]).into()),
                ("height", known(info.block_height).into()),
            ];
            line(t("cli-lightning", &args))
        }
        Surface::SystemStats { stats } => {
            let args = [
                ("cpu", stats.cpu_percent.map_or_else(|| UNKNOWN.to_owned(), |c| percent(c / 100.0, 0)).into()),
                ("memory", gib(stats.mem_used).into()),
                ("memory_total", gib(stats.mem_total).into()),
                ("disk", gib(stats.disk_used).into()),
                ("disk_total", gib(stats.disk_total).into()),
                (
                    "uptime",
                    stats
                        .uptime_s
                        .map_or_else(|| UNKNOWN.to_owned(), |s| t("cli-hours-short", &[("hours", (s / 3600).into())]))
                        .into(),
                ),
            ];
            line(t("cli-system", &args))
        }
        Surface::MintList { mints } => {
            let rows: Vec<[String; 3]> =
                mints.iter().map(|m| [m.url.clone(), m.unit.clone(), trusted(m.trusted)]).collect();
            table(columns(["cli-col-mint", "cli-col-unit", "cli-col-trusted"]), &rows)
        }
        Surface::ActionReceipt { app, rpc_method, outcome, .. } => format!("✓ {rpc_method} {app}: {outcome}\n"),
    }
}

/// The confirmation as the owner reads it before answering: host summary first, then what exactly runs.
pub fn confirmation(request: &ConfirmRequest) -> String {
    let mut out = String::from("\n");
    out.push_str(&line(t("cli-confirm", &[("summary", request.summary.as_str().into())])));
    out.push_str(&line(t("cli-confirm-method", &[("method", request.rpc_method.to_string().into())])));
    // The class's own name (Read, Act, ActHigh): what the adapter table and the audit log call it.
    out.push_str(&line(t("cli-confirm-risk", &[("risk", format!("{:?}", request.class).into())])));
    out.push_str(&line(t(
        "cli-confirm-proposed",
        &[("backend", request.backend.label_in(crate::l10n::locale()).into())],
    )));
    if let Some(args) = request.arguments.as_object() {
        for (key, value) in args {
            out.push_str(&format!("  {key:<8} {value}\n"));
        }
    }
    out
}

fn word<T: serde::Serialize>(value: &T) -> String {
    match serde_json::to_value(value) {
        Ok(serde_json::Value::String(s)) => s,
        Ok(other) => other.to_string(),
        Err(_) => String::new(),
    }
}

/// What the terminal shows for a figure the node did not send.
const UNKNOWN: &str = "?";

fn known<T: std::fmt::Display>(value: Option<T>) -> String {
    value.map_or_else(|| UNKNOWN.to_owned(), |v| v.to_string())
}

/// Whether the node trusts a mint, or that it did not say.
pub fn trusted(flag: Option<bool>) -> String {
    match flag {
        Some(true) => t("cli-trusted-yes", &[]),
        Some(false) => t("cli-trusted-no", &[]),
        None => t("cli-trusted-unknown", &[]),
    }
}

fn gib(bytes: Option<u64>) -> String {
    bytes.map_or_else(
        || UNKNOWN.to_owned(),
        |b| t("cli-gib", &[("value", decimal(b as f64 / (1u64 << 30) as f64, 1).into())]),
    )
}

/// A line of the terminal's output: the text and its newline.
fn line(text: String) -> String {
    text + "\n"
}

/// A table's header, from the catalogue's column names.
fn columns<const N: usize>(keys: [&str; N]) -> [String; N] {
    keys.map(|key| t(key, &[]))
}

fn table<const N: usize>(header: [String; N], rows: &[[String; N]]) -> String {
    // Counted in characters, not bytes: a German or Spanish column name has letters of more than one byte.
    let mut widths: [usize; N] = header.each_ref().map(|h| h.chars().count());
    for row in rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let line = |cells: Vec<&str>| {
        let padded: Vec<String> = cells.iter().zip(widths).map(|(c, w)| format!("{c:<w$}")).collect();
        padded.join("  ").trim_end().to_owned() + "\n"
    };
    let mut out = line(header.iter().map(String::as_str).collect());
    for row in rows {
        out.push_str(&line(row.iter().map(String::as_str).collect()));
    }
    out
}
