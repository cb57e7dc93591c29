//! `aiui-cli doctor`: reach the node, check its certificate, log in, and print a plain summary.

use std::collections::BTreeMap;
use std::io::IsTerminal;
use std::sync::Arc;
use std::time::Duration;

use aiui_core::Secret;
use aiui_core::net::Fingerprint;
use aiui_core::node::{self, Credentials, NodeClient, NodeConfig, PackageState};
use anyhow::{Context, bail};

use crate::l10n::{percent, t};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The node's address, e.g. https://archipelago.local
    #[arg(long, value_name = "URL")]
    pub node: url::Url,
    /// The SHA-256 fingerprint of the node's certificate that you accept (https only). Without it, doctor shows
    /// the fingerprint and asks you to confirm it.
    #[arg(long, value_name = "SHA256")]
    pub fingerprint: Option<Fingerprint>,
    /// Check the node against AIUI's adapter table: call every read method once and report, per method, whether
    /// it answered, whether its shape matched, and which fields were missing, extra, renamed or of another type,
    /// with a redacted sample. Reads only; nothing on the node changes. Send the output to correct the adapter.
    #[arg(long)]
    pub contract: bool,
    /// The app `container-status` and `container-logs` are asked about in `--contract` (default: the first
    /// running app).
    #[arg(long, value_name = "ID", requires = "contract")]
    pub app: Option<String>,
}

/// The environment variables doctor reads secrets from, so they never appear on a command line.
pub const PASSWORD_ENV: &str = "AIUI_NODE_PASSWORD";
pub const TOTP_ENV: &str = "AIUI_NODE_TOTP";

pub async fn run(args: Args) -> anyhow::Result<()> {
    let pin = match (args.node.scheme(), args.fingerprint) {
        ("https", Some(pin)) => Some(pin),
        ("https", None) => Some(confirm_first_use(&args.node).await?),
        _ => {
            println!("{}", t("cli-doctor-plain-http", &[("url", args.node.as_str().into())]));
            None
        }
    };
    let password = read_password()?;
    let credentials = Credentials { password, totp: Some(Arc::new(read_totp)) };
    let config = NodeConfig { pin, ..NodeConfig::new(args.node) };
    if args.contract {
        return crate::contract::run(config, credentials, args.app.as_deref()).await;
    }
    report(config, credentials).await
}

/// Logs in with `config` and prints health, packages, sync and certificate. Shared with `demo`.
pub async fn report(config: NodeConfig, credentials: Credentials) -> anyhow::Result<()> {
    let pin = config.pin;
    let client = NodeClient::new(config, credentials)?;
    println!("{}", t("cli-doctor-node", &[("url", client.url().to_string().into())]));
    if let Some(pin) = pin {
        println!("{}", t("cli-doctor-cert", &[("pin", pin.to_string().into())]));
    }
    let health = client.health().await?;
    let health_args = [("status", health.status.to_string().into()), ("body", health.body.to_string().into())];
    println!("{}", t("cli-doctor-health", &health_args));
    client.login().await.with_context(|| t("cli-logging-in", &[]))?;
    println!("{}", t("cli-doctor-login-ok", &[]));
    let packages = client.list_packages().await.with_context(|| t("cli-doctor-listing-packages", &[]))?;
    let mut by_state: BTreeMap<String, usize> = BTreeMap::new();
    for p in packages.iter().filter(|p| p.state != PackageState::NotInstalled) {
        *by_state.entry(state_name(&p.state)).or_default() += 1;
    }
    let summary: Vec<String> = by_state
        .iter()
        .map(|(state, n)| t("cli-doctor-package-count", &[("count", (*n).into()), ("state", state.as_str().into())]))
        .collect();
    let summary = summary.join(&t("cli-list-separator", &[]));
    println!("{}", t("cli-doctor-packages", &[("summary", summary.into())]));
    for p in &packages {
        match p.exit_code {
            Some(137) => println!("{}", t("cli-doctor-killed", &[("app", p.id.as_str().into())])),
            Some(code) if code != 0 => {
                println!("{}", t("cli-doctor-crashed", &[("app", p.id.as_str().into()), ("code", code.into())]))
            }
            _ => {}
        }
    }
    match client.bitcoin_info().await {
        Ok(info) => {
            let args = [
                ("chain", info.chain.to_string().into()),
                ("blocks", info.blocks.to_string().into()),
                ("headers", info.headers.map_or_else(|| "?".to_owned(), |h| h.to_string()).into()),
                ("progress", info.progress().map_or_else(|| "?".to_owned(), |p| percent(p, 2)).into()),
            ];
            println!("{}", t("cli-doctor-bitcoin", &args));
        }
        Err(e) => println!("{}", t("cli-doctor-bitcoin-unavailable", &[("error", e.to_string().into())])),
    }
    client.logout().await.with_context(|| t("cli-logging-out", &[]))?;
    println!();
    println!("{}", t("cli-doctor-all-passed", &[]));
    Ok(())
}

fn state_name(state: &PackageState) -> String {
    match serde_json::to_value(state) {
        Ok(serde_json::Value::String(s)) => s,
        _ => format!("{state:?}"),
    }
}

/// Trust on first use: show the fingerprint, and accept it only on an explicit yes from a person at a terminal.
pub(crate) async fn confirm_first_use(url: &url::Url) -> anyhow::Result<Fingerprint> {
    let presented = node::fetch_fingerprint(url, Duration::from_secs(10)).await?;
    println!("{}", t("cli-tofu-presents", &[]));
    println!("  {presented}");
    println!("{}", t("cli-tofu-compare", &[]));
    if !std::io::stdin().is_terminal() {
        bail!("{}", t("cli-tofu-no-terminal", &[("fingerprint", presented.to_string().into())]));
    }
    let answer = prompt_line(&format!("{} ", t("cli-tofu-question", &[])))?;
    if !crate::l10n::is_yes(&answer) {
        bail!("{}", t("cli-tofu-not-trusted", &[]));
    }
    Ok(presented)
}

pub(crate) fn read_password() -> anyhow::Result<Secret<String>> {
    // Under systemd, `LoadCredential=aiui-node-password:<file>` hands it over without the unit holding it.
    if let Some(dir) = std::env::var_os("CREDENTIALS_DIRECTORY") {
        let file = std::path::Path::new(&dir).join("aiui-node-password");
        if file.is_file() {
            let pw = std::fs::read_to_string(&file)
                .with_context(|| t("cli-reading-file", &[("path", file.display().to_string().into())]))?;
            return Ok(Secret::new(pw.trim_end_matches(['\r', '\n']).to_owned()));
        }
    }
    if let Ok(pw) = std::env::var(PASSWORD_ENV) {
        return Ok(Secret::new(pw));
    }
    if !std::io::stdin().is_terminal() {
        bail!("{}", t("cli-no-password", &[("env", PASSWORD_ENV.into())]));
    }
    let pw = rpassword::prompt_password(format!("{} ", t("cli-password-prompt", &[])))
        .with_context(|| t("cli-reading-password", &[]))?;
    Ok(Secret::new(pw))
}

pub(crate) fn read_totp() -> Option<Secret<String>> {
    if let Ok(code) = std::env::var(TOTP_ENV) {
        return Some(Secret::new(code));
    }
    if !std::io::stdin().is_terminal() {
        return None;
    }
    prompt_line(&format!("{} ", t("cli-totp-prompt", &[]))).ok().map(Secret::new)
}

fn prompt_line(prompt: &str) -> anyhow::Result<String> {
    use std::io::Write;
    print!("{prompt}");
    std::io::stdout().flush()?;
    let mut line = String::new();
    std::io::stdin().read_line(&mut line)?;
    Ok(line)
}
