//! `aiui-cli serve`: the assistant as a LAN web service (crate `aiui-web`), with the same agent `chat` builds. The
//! chat origin is for LAN users (LAN passphrase); the trusted origin, on its own port, is where the owner approves
//! (approval passphrase or TOTP). `set-password`, `set-approval-password` and `set-approval-totp` set them.

use std::io::IsTerminal;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::{Arc, RwLock};
use std::time::Duration;

use aiui_core::Secret;
use aiui_web::passphrase::{self, Kind};
use anyhow::{Context, bail};

use crate::chat::{Assembled, AssistantArgs};

/// How often open payments are reconciled in the background (the first run is at start-up), as in the desktop app.
const RECONCILE_EVERY: Duration = Duration::from_secs(10 * 60);

#[derive(Debug, clap::Args)]
#[command(args_conflicts_with_subcommands = true)]
pub struct Args {
    #[command(subcommand)]
    pub action: Option<Action>,
    #[command(flatten)]
    pub serve: ServeArgs,
}

#[derive(Debug, clap::Args)]
pub struct ServeArgs {
    #[command(flatten)]
    pub assistant: AssistantArgs,
    /// Where the chat origin listens (LAN users; the node's nginx proxies to it).
    #[arg(long, value_name = "ADDR", default_value = aiui_web::DEFAULT_CHAT_ADDR)]
    pub listen: SocketAddr,
    /// Where the trusted origin listens (the owner's approvals); expose it on its own host name or port.
    #[arg(long, value_name = "ADDR", default_value = aiui_web::DEFAULT_TRUSTED_ADDR)]
    pub trusted_listen: SocketAddr,
    /// The path both origins are served under behind a reverse proxy, e.g. /aiui/.
    #[arg(long, value_name = "PATH", default_value = "/")]
    pub base_path: String,
    /// The trusted origin's address as LAN browsers reach it (for the chat page's link), e.g.
    /// https://node.local:5181/aiui/. Default: the chat page's host name on the trusted port (behind a proxy that
    /// listens on another port than the service, set this).
    #[arg(long, value_name = "URL", env = "AIUI_TRUSTED_URL")]
    pub trusted_url: Option<String>,
    /// The ui/ directory to serve.
    #[arg(long, value_name = "DIR", env = "AIUI_UI_DIR", default_value = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../ui"))]
    pub ui_dir: PathBuf,
    /// Browsers reach the service over https (through the proxy): mark the cookies Secure.
    #[arg(long)]
    pub secure_cookies: bool,
    /// Trust X-Forwarded-For / X-Real-IP / X-Forwarded-Host from a proxy on this machine (the node's nginx).
    #[arg(long)]
    pub trust_proxy: bool,
    /// A host name the chat origin answers to (repeat for more). IP addresses and localhost always work; any other
    /// name gets 421, so a page on a foreign name that DNS points here reaches nothing.
    #[arg(long = "allowed-host", value_name = "NAME")]
    pub allowed_hosts: Vec<String>,
    /// A host name the trusted origin answers to (repeat for more); the first is also where the chat page links
    /// for approvals, unless --trusted-url says otherwise.
    #[arg(long = "trusted-host", value_name = "NAME")]
    pub trusted_hosts: Vec<String>,
    /// Signing in on the trusted origin needs the approval passphrase and a TOTP code, both.
    #[arg(long)]
    pub approval_needs_both: bool,
    /// A Unix socket for the node's kiosk (`aiui --kiosk`) to approve LAN requests on its own screen. Its directory
    /// must exist; the socket is made 0660, so the kiosk's user reaches it through the group.
    #[arg(long, value_name = "PATH")]
    pub kiosk_socket: Option<PathBuf>,
    /// Where LAN requests are approved: trusted (the trusted origin), kiosk (the node's screen; the trusted origin
    /// can then only deny) or both. kiosk and both need --kiosk-socket.
    #[arg(long, value_name = "WHERE", default_value = "trusted")]
    pub lan_approver: aiui_web::LanApprover,
}

#[derive(Debug, clap::Subcommand)]
#[allow(clippy::enum_variant_names, reason = "they are the subcommands set-password, set-approval-password, …")]
pub enum Action {
    /// Set the LAN passphrase LAN users sign in with (read from the terminal, or one line on stdin).
    SetPassword(SetArgs),
    /// Set the owner's approval passphrase, asked for on the trusted origin for every approval.
    SetApprovalPassword(SetArgs),
    /// Make a TOTP secret for approvals (instead of, or besides, the approval passphrase); prints the otpauth:// URL
    /// to add to an authenticator app, once.
    SetApprovalTotp(SetArgs),
    /// List the running service's sessions (both origins), or end some: `sessions revoke <ID>…` or `--all`.
    Sessions(SessionsArgs),
}

#[derive(Debug, clap::Args)]
pub struct SessionsArgs {
    #[command(subcommand)]
    pub action: Option<SessionsAction>,
    /// The data dir the service uses (default: $AIUI_DATA_DIR or ~/.local/share/aiui).
    #[arg(long, value_name = "DIR", global = true)]
    pub data_dir: Option<PathBuf>,
}

#[derive(Debug, clap::Subcommand)]
pub enum SessionsAction {
    /// End the sessions with these ids (as `serve sessions` lists them), or every session with --all.
    Revoke {
        #[arg(value_name = "ID", required_unless_present = "all")]
        ids: Vec<String>,
        #[arg(long, conflicts_with = "ids")]
        all: bool,
    },
}

#[derive(Debug, clap::Args)]
pub struct SetArgs {
    /// The data dir the service uses (default: $AIUI_DATA_DIR or ~/.local/share/aiui).
    #[arg(long, value_name = "DIR")]
    pub data_dir: Option<PathBuf>,
}

pub async fn run(args: Args) -> anyhow::Result<()> {
    match (args.action, args.serve) {
        (Some(Action::SetPassword(set)), _) => set_passphrase(set, Kind::Lan),
        (Some(Action::SetApprovalPassword(set)), _) => set_passphrase(set, Kind::Approval),
        (Some(Action::SetApprovalTotp(set)), _) => {
            let dir = crate::data_dir(set.data_dir)?;
            aiui_core::paths::ensure_private_dir(&dir)?;
            let url = passphrase::new_totp(&dir)?;
            println!("Add this to your authenticator app (it is shown once; anyone with it can approve):");
            println!("{}", url.expose());
            Ok(())
        }
        (Some(Action::Sessions(sessions)), _) => sessions_command(sessions).await,
        (None, serve) => serve_until_stopped(serve).await,
    }
}

fn set_passphrase(set: SetArgs, kind: Kind) -> anyhow::Result<()> {
    let dir = crate::data_dir(set.data_dir)?;
    aiui_core::paths::ensure_private_dir(&dir)?;
    let passphrase = if std::io::stdin().is_terminal() {
        let first = rpassword::prompt_password(format!("New {}: ", kind.label())).context("reading the terminal")?;
        let again =
            rpassword::prompt_password(format!("The {} again: ", kind.label())).context("reading the terminal")?;
        if first != again {
            bail!("the two entries differ; nothing was changed");
        }
        Secret::new(first)
    } else {
        let mut line = String::new();
        std::io::stdin().read_line(&mut line).context("reading stdin")?;
        Secret::new(line.trim_end_matches(['\r', '\n']).to_owned())
    };
    passphrase::set(&dir, kind, &passphrase)?;
    println!("The {} is set (an argon2id hash in {}).", kind.label(), kind.file(&dir).display());
    println!("A running `aiui-cli serve` uses it within a second, and ends the sessions signed in with the old one.");
    if kind == Kind::Lan && passphrase::StoredHash::load(&dir, Kind::Approval)?.is_none() {
        println!("Set the approval passphrase too: aiui-cli serve set-approval-password");
    }
    Ok(())
}

/// `serve sessions`: the list the running service keeps in its data dir, or a revocation it carries out within a
/// second (the command waits for it and says what happened).
async fn sessions_command(args: SessionsArgs) -> anyhow::Result<()> {
    let dir = crate::data_dir(args.data_dir)?;
    let Some(list) = aiui_web::control::read_sessions(&dir)? else {
        bail!("no session list in {}: is `aiui-cli serve` running with this data dir?", dir.display());
    };
    let age_s = (aiui_core::now_ms() - list.written_at_ms) / 1000;
    let stale = age_s > 90;
    match args.action {
        None => {
            if stale {
                println!("note: the list is {age_s} s old; the service may not be running.");
            }
            if list.sessions.is_empty() {
                println!("No one is signed in.");
            }
            for s in &list.sessions {
                println!(
                    "{}  {:<7}  from {:<15}  signed in {}  last active {}",
                    s.id,
                    s.origin,
                    s.address,
                    aiui_core::format_time_ms(s.signed_in_at_ms),
                    aiui_core::format_time_ms(s.last_active_ms)
                );
            }
            Ok(())
        }
        Some(SessionsAction::Revoke { ids, all }) => {
            let unknown: Vec<&String> = ids.iter().filter(|id| list.sessions.iter().all(|s| &s.id != *id)).collect();
            if !unknown.is_empty() {
                bail!("no session with the id {unknown:?} (see `aiui-cli serve sessions`); nothing was ended");
            }
            if stale {
                bail!("the session list is {age_s} s old: the service does not seem to be running; nothing was ended");
            }
            aiui_web::control::request_revoke(&dir, &aiui_web::control::Revoke { ids: ids.clone(), all })?;
            // The service removes the request once it has ended the sessions.
            let asked = aiui_web::control::revoke_file(&dir);
            for _ in 0..50 {
                if !asked.exists() {
                    let what = if all { "Every session".to_owned() } else { format!("{} session(s)", ids.len()) };
                    println!("{what} ended; those browsers must sign in again.");
                    return Ok(());
                }
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            let _ = std::fs::remove_file(&asked);
            bail!(
                "the service did not pick up the request within 5 s (is it running with this data dir?); nothing was ended"
            )
        }
    }
}

async fn serve_until_stopped(args: ServeArgs) -> anyhow::Result<()> {
    let data_dir = crate::data_dir(args.assistant.data_dir.clone())?;
    let mut config = aiui_web::WebConfig::new(data_dir, args.ui_dir.clone());
    config.chat_addr = args.listen;
    config.trusted_addr = args.trusted_listen;
    config.base_path = aiui_web::normalise_base_path(&args.base_path)?;
    config.trusted_url = args.trusted_url.clone();
    config.secure_cookies = args.secure_cookies;
    config.trust_proxy = args.trust_proxy;
    config.chat_hosts = args.allowed_hosts.clone();
    config.trusted_hosts = args.trusted_hosts.clone();
    config.approval_needs_both = args.approval_needs_both;
    config.kiosk_socket = args.kiosk_socket.clone();
    config.lan_approver = args.lan_approver;

    let Assembled { agent, budget, payments, notices, node_url, demo } = crate::chat::assemble(&args.assistant).await?;
    for notice in &notices {
        println!("note: {notice}");
    }
    let notices = Arc::new(RwLock::new(notices));
    // Open payments are settled in the background while the service runs, as in the desktop app.
    let reconciler = payments.as_ref().map(|payments| {
        let notices = notices.clone();
        payments.reconcile_in_background(RECONCILE_EVERY, move |told| {
            notices.write().unwrap_or_else(|p| p.into_inner()).extend(told);
        })
    });
    let assistant = aiui_web::Assistant { agent, budget, notices, node_url, demo: demo.is_some() };
    let base = config.base_path.clone();
    // The trusted origin shows the wallet and withdraws from it (never its words, never a token).
    let running = aiui_web::start_with_payments(config, assistant, payments.clone()).await?;
    println!("chat origin: http://{}{base}", running.chat_addr);
    println!("trusted origin: http://{}{base}", running.trusted_addr);
    use std::io::Write;
    std::io::stdout().flush()?;
    let result = tokio::select! {
        result = running.wait() => result,
        _ = tokio::signal::ctrl_c() => Ok(()),
        _ = terminated() => Ok(()),
    };
    if let Some(task) = reconciler {
        task.abort();
    }
    if let Some(demo) = demo {
        demo.node.shutdown().await;
    }
    result
}

#[cfg(unix)]
async fn terminated() {
    match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
        Ok(mut signal) => {
            signal.recv().await;
        }
        Err(_) => std::future::pending().await,
    }
}

#[cfg(not(unix))]
async fn terminated() {
    std::future::pending().await
}
