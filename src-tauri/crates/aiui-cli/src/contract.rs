//! `aiui-cli doctor --contract`: every read method of the adapter table called on the node, and how its answer
//! compares with the shape AIUI assumes. The output is what an owner sends to correct `node/adapter.rs`.

use aiui_core::egress::KnownSecret;
use aiui_core::node::contract::{self, MethodReport, Outcome};
use aiui_core::node::{Confidence, Credentials, Drift, NodeClient, NodeConfig};
use anyhow::{Context, bail};

pub async fn run(config: NodeConfig, credentials: Credentials, app: Option<&str>) -> anyhow::Result<()> {
    let known = vec![KnownSecret::new("node-password", credentials.password.clone())];
    let client = NodeClient::new(config, credentials)?;
    println!("Node      {}", client.url());
    client.login().await.context("logging in")?;
    println!("Login     ok");
    println!(
        "Contract  every read method in AIUI's adapter table, called once (reads only: nothing on the node changes)"
    );
    let reports = contract::check(&client, app, known).await;
    client.logout().await.context("logging out")?;
    for report in &reports {
        print!("{}", render(report));
    }
    let count = |f: fn(&Outcome) -> bool| reports.iter().filter(|r| f(&r.outcome)).count();
    let exact = count(|o| matches!(o, Outcome::Read { drift, .. } if drift.is_exact()));
    let drifted = count(|o| matches!(o, Outcome::Read { drift, .. } if !drift.is_exact()));
    let unreadable = count(|o| matches!(o, Outcome::Unreadable { .. }));
    let silent = count(|o| matches!(o, Outcome::NoAnswer(_) | Outcome::NotCalled(_)));
    println!(
        "\nSummary   {exact} match, {drifted} readable with drift, {unreadable} not readable, {silent} did not answer"
    );
    println!(
        "To correct AIUI for this node, send this whole output to its developers (or edit node/adapter.rs). The \
         samples are screened: secrets are redacted and LAN and onion addresses replaced."
    );
    if unreadable + silent > 0 {
        bail!("{} of {} read methods could not be used as AIUI expects", unreadable + silent, reports.len());
    }
    Ok(())
}

fn render(report: &MethodReport) -> String {
    let confidence = match report.confidence {
        Confidence::Documented => "doc",
        Confidence::NameOnly => "name",
        Confidence::Assumed => "assumed",
    };
    let app = report.app.as_deref().map(|a| format!(" (id {a})")).unwrap_or_default();
    let mut out = format!("\n{} [{confidence}]{app}\n", report.rpc_name);
    match &report.outcome {
        Outcome::NotCalled(why) => out.push_str(&format!("  answered  not called: {why}\n")),
        Outcome::NoAnswer(why) => out.push_str(&format!("  answered  no: {why}\n")),
        Outcome::Unreadable { reason, sample } => {
            out.push_str("  answered  yes\n");
            out.push_str(&format!("  shape     NOT READABLE: {reason}\n"));
            out.push_str(&format!("  sample    {sample}\n"));
        }
        Outcome::Read { drift, sample } => {
            out.push_str("  answered  yes\n");
            let entries = if drift.entries == 1 { String::new() } else { format!(" ({} entries)", drift.entries) };
            let verdict = match (drift.is_exact(), drift.never_seen.is_empty()) {
                (true, true) => "matches",
                (true, false) => "matches, without its optional fields",
                (false, _) => "readable, with drift",
            };
            out.push_str(&format!("  shape     {verdict}{entries}\n"));
            out.push_str(&drift_lines(drift));
            out.push_str(&format!("  sample    {sample}\n"));
        }
    }
    out
}

fn drift_lines(drift: &Drift) -> String {
    let counted = |map: &std::collections::BTreeMap<String, usize>| -> String {
        let parts: Vec<String> = map
            .iter()
            .map(|(k, n)| if drift.entries > 1 { format!("{k} (in {n} of {})", drift.entries) } else { k.clone() })
            .collect();
        parts.join(", ")
    };
    let mut out = String::new();
    let mut line = |label: &str, text: String| {
        if !text.is_empty() {
            out.push_str(&format!("  {label:<9} {text}\n"));
        }
    };
    line("missing", counted(&drift.missing));
    line("not sent", drift.never_seen.join(", "));
    line("extra", counted(&drift.extra));
    line("renamed", counted(&drift.renamed));
    line("type", counted(&drift.retyped));
    line("skipped", drift.skipped.join("; "));
    out
}
