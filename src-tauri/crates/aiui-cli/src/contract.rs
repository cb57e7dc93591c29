//! `aiui-cli doctor --contract`: every read method of the adapter table called on the node, and how its answer
//! compares with the shape AIUI assumes. The output is what an owner sends to correct `node/adapter.rs`.

use aiui_core::egress::KnownSecret;
use aiui_core::node::contract::{self, MethodReport, Outcome};
use aiui_core::node::{Confidence, Credentials, Drift, NodeClient, NodeConfig};
use anyhow::{Context, bail};

use crate::l10n::t;

pub async fn run(config: NodeConfig, credentials: Credentials, app: Option<&str>) -> anyhow::Result<()> {
    let known = vec![KnownSecret::new("node-password", credentials.password.clone())];
    let client = NodeClient::new(config, credentials)?;
    println!("{}", t("cli-doctor-node", &[("url", client.url().to_string().into())]));
    client.login().await.with_context(|| t("cli-logging-in", &[]))?;
    println!("{}", t("cli-doctor-login-ok", &[]));
    println!("{}", t("cli-contract-intro", &[]));
    let reports = contract::check(&client, app, known).await;
    client.logout().await.with_context(|| t("cli-logging-out", &[]))?;
    for report in &reports {
        print!("{}", render(report));
    }
    let count = |f: fn(&Outcome) -> bool| reports.iter().filter(|r| f(&r.outcome)).count();
    let exact = count(|o| matches!(o, Outcome::Read { drift, .. } if drift.is_exact()));
    let drifted = count(|o| matches!(o, Outcome::Read { drift, .. } if !drift.is_exact()));
    let unreadable = count(|o| matches!(o, Outcome::Unreadable { .. }));
    let silent = count(|o| matches!(o, Outcome::NoAnswer(_) | Outcome::NotCalled(_)));
    println!();
    let summary = [
        ("exact", exact.into()),
        ("drifted", drifted.into()),
        ("unreadable", unreadable.into()),
        ("silent", silent.into()),
    ];
    println!("{}", t("cli-contract-summary", &summary));
    println!("{}", t("cli-contract-send", &[]));
    if unreadable + silent > 0 {
        let failed = [("failed", (unreadable + silent).into()), ("total", reports.len().into())];
        bail!("{}", t("cli-contract-failed", &failed));
    }
    Ok(())
}

fn render(report: &MethodReport) -> String {
    let confidence = match report.confidence {
        Confidence::Documented => t("cli-contract-documented", &[]),
        Confidence::NameOnly => t("cli-contract-name-only", &[]),
        Confidence::Assumed => t("cli-contract-assumed", &[]),
    };
    let app = report.app.as_deref().map(|a| t("cli-contract-app", &[("app", a.into())])).unwrap_or_default();
    let mut out = format!("\n{} [{confidence}]{app}\n", report.rpc_name);
    let mut line = |key: &str, args: &[(&str, aiui_core::i18n::FluentValue<'_>)]| {
        out.push_str(&t(key, args));
        out.push('\n');
    };
    match &report.outcome {
        Outcome::NotCalled(why) => line("cli-contract-not-called", &[("why", why.to_string().into())]),
        Outcome::NoAnswer(why) => line("cli-contract-no-answer", &[("why", why.to_string().into())]),
        Outcome::Unreadable { reason, sample } => {
            line("cli-contract-answered", &[]);
            line("cli-contract-unreadable", &[("reason", reason.to_string().into())]);
            line("cli-contract-sample", &[("sample", sample.to_string().into())]);
        }
        Outcome::Read { drift, sample } => {
            line("cli-contract-answered", &[]);
            let entries = if drift.entries == 1 {
                String::new()
            } else {
                t("cli-contract-entries", &[("count", drift.entries.into())])
            };
            let verdict = match (drift.is_exact(), drift.never_seen.is_empty()) {
                (true, true) => "cli-contract-matches",
                (true, false) => "cli-contract-matches-partly",
                (false, _) => "cli-contract-drift",
            };
            line("cli-contract-shape", &[("verdict", t(verdict, &[]).into()), ("entries", entries.into())]);
            out.push_str(&drift_lines(drift));
            out.push_str(&t("cli-contract-sample", &[("sample", sample.to_string().into())]));
            out.push('\n');
        }
    }
    out
}

fn drift_lines(drift: &Drift) -> String {
    let separator = t("cli-list-separator", &[]);
    let counted = |map: &std::collections::BTreeMap<String, usize>| -> String {
        let parts: Vec<String> = map
            .iter()
            .map(|(k, n)| {
                if drift.entries > 1 {
                    let args = [("field", k.as_str().into()), ("n", (*n).into()), ("total", drift.entries.into())];
                    t("cli-contract-field", &args)
                } else {
                    k.clone()
                }
            })
            .collect();
        parts.join(&separator)
    };
    let mut out = String::new();
    let mut line = |key: &str, fields: String| {
        if !fields.is_empty() {
            out.push_str(&t(key, &[("fields", fields.into())]));
            out.push('\n');
        }
    };
    line("cli-contract-missing", counted(&drift.missing));
    line("cli-contract-not-sent", drift.never_seen.join(&separator));
    line("cli-contract-extra", counted(&drift.extra));
    line("cli-contract-renamed", counted(&drift.renamed));
    line("cli-contract-retyped", counted(&drift.retyped));
    // The reasons a sample was skipped are the checker's own sentences, kept apart by semicolons.
    line("cli-contract-skipped", drift.skipped.join("; "));
    out
}
