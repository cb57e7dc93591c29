//! Surfaces and confirmations as plain-text tables for the terminal.

use aiui_core::gate::ConfirmRequest;
use aiui_core::tools::Surface;

/// Draws a surface as the terminal's version of the UI's card.
pub fn surface(surface: &Surface) -> String {
    match surface {
        Surface::PackageList { packages } => {
            let rows: Vec<[String; 4]> = packages
                .iter()
                .map(|p| {
                    let exit = p.exit_code.filter(|c| *c != 0).map(|c| format!("exit {c}")).unwrap_or_default();
                    [p.id.clone(), word(&p.state), p.version.clone(), exit]
                })
                .collect();
            table(["app", "state", "version", "note"], &rows)
        }
        Surface::PackageCard { package: p } => table(
            ["app", "state", "version", "health"],
            &[[p.id.clone(), word(&p.state), p.version.clone(), p.health.clone().unwrap_or_default()]],
        ),
        Surface::LogTail { app, lines } => {
            let mut out = format!("── last {} log lines of {app} ──\n", lines.len());
            for line in lines {
                out.push_str(line);
                out.push('\n');
            }
            out
        }
        Surface::BitcoinSync { info } => format!(
            "Bitcoin ({}) block {} of {} · {} verified · {}\n",
            info.chain,
            info.blocks,
            known(info.headers),
            info.progress().map_or_else(|| UNKNOWN.to_owned(), |p| format!("{:.2}%", p * 100.0)),
            match info.initialblockdownload {
                Some(true) => "syncing",
                Some(false) => "synced",
                None => "sync state unknown",
            }
        ),
        Surface::LightningInfo { info } => format!(
            "Lightning {} · {} active channels · {} peers · {} at block {}\n",
            info.alias.as_deref().unwrap_or(UNKNOWN),
            known(info.num_active_channels),
            known(info.num_peers),
            match info.synced_to_chain {
                Some(true) => "synced",
                Some(false) => "not synced",
                None => "sync state unknown",
            },
            known(info.block_height)
        ),
        Surface::SystemStats { stats } => format!(
            "CPU {} · memory {} of {} · disk {} of {} · up {}\n",
            stats.cpu_percent.map_or_else(|| UNKNOWN.to_owned(), |c| format!("{c:.0}%")),
            gib(stats.mem_used),
            gib(stats.mem_total),
            gib(stats.disk_used),
            gib(stats.disk_total),
            stats.uptime_s.map_or_else(|| UNKNOWN.to_owned(), |s| format!("{} h", s / 3600))
        ),
        Surface::MintList { mints } => {
            let rows: Vec<[String; 3]> =
                mints.iter().map(|m| [m.url.clone(), m.unit.clone(), trusted(m.trusted).into()]).collect();
            table(["mint", "unit", "trusted"], &rows)
        }
        Surface::ActionReceipt { app, rpc_method, outcome, .. } => format!("✓ {rpc_method} {app}: {outcome}\n"),
    }
}

/// The confirmation as the owner reads it before answering: host summary first, then what exactly runs.
pub fn confirmation(request: &ConfirmRequest) -> String {
    let mut out = format!("\n⚠ Confirm: {}\n", request.summary);
    out.push_str(&format!(
        "  method   {}\n  risk     {:?}\n  proposed {}\n",
        request.rpc_method,
        request.class,
        request.backend.label()
    ));
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
pub fn trusted(flag: Option<bool>) -> &'static str {
    match flag {
        Some(true) => "yes",
        Some(false) => "no",
        None => "not stated",
    }
}

fn gib(bytes: Option<u64>) -> String {
    bytes.map_or_else(|| UNKNOWN.to_owned(), |b| format!("{:.1} GiB", b as f64 / (1u64 << 30) as f64))
}

fn table<const N: usize>(header: [&str; N], rows: &[[String; N]]) -> String {
    let mut widths: [usize; N] = header.map(str::len);
    for row in rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let line = |cells: Vec<&str>| {
        let padded: Vec<String> = cells.iter().zip(widths).map(|(c, w)| format!("{c:<w$}")).collect();
        padded.join("  ").trim_end().to_owned() + "\n"
    };
    let mut out = line(header.to_vec());
    for row in rows {
        out.push_str(&line(row.iter().map(String::as_str).collect()));
    }
    out
}
