//! `aiui-cli serve`: the assistant as a LAN web service (crate `aiui-web`), with the same agent `chat` builds. The
//! chat origin is for LAN users (LAN passphrase); the trusted origin, on its own port, is where the owner approves
//! (approval passphrase or TOTP). `set-password`, `set-approval-password` and `set-approval-totp` set them; `pair`
//! checks the node and writes what the packaged unit (deploy/aiui.service) needs to reach it.

use std::io::IsTerminal;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::{Arc, RwLock};
use std::time::Duration;

use aiui_core::Secret;
use aiui_core::net::Fingerprint;
use aiui_core::node::{Credentials, NodeClient, NodeConfig};
use aiui_web::passphrase::{self, Kind};
use anyhow::{Context, bail};

use crate::chat::{Assembled, AssistantArgs};
use crate::l10n::{self, t};

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
    /// The ui/ directory to serve (default: the source tree's ui/ when run from a build, else the package's
    /// /usr/share/aiui/ui).
    #[arg(long, value_name = "DIR", env = "AIUI_UI_DIR", default_value_os_t = default_ui_dir())]
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
    /// The language of the LAN pages, the answers and the confirmations: en, de or es. Default: the pages follow
    /// each browser's own (its Accept-Language), the answers and confirmations the environment's (LANG).
    #[arg(long, value_name = "TAG", env = "AIUI_LAN_LANGUAGE", value_parser = parse_language)]
    pub language: Option<aiui_core::i18n::Locale>,
}

fn parse_language(tag: &str) -> Result<aiui_core::i18n::Locale, String> {
    aiui_core::i18n::Locale::from_tag(tag).ok_or_else(|| t("cli-serve-no-language", &[("tag", tag.into())]))
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
    /// Pair the installed service (aiui.service) with its node: check the certificate and the node password (read
    /// from the terminal without echo, or one line on stdin), then write node.env and node-password (0600) into
    /// /etc/aiui. Run as root; run again to change the node or its password.
    Pair(PairArgs),
}

#[derive(Debug, clap::Args)]
pub struct PairArgs {
    /// The node's https address as the service reaches it, e.g. https://127.0.0.1/
    #[arg(long, value_name = "URL")]
    pub node: url::Url,
    /// The SHA-256 fingerprint of the node's certificate that you accept. Without it, pair shows the fingerprint
    /// the node presents and asks you to confirm it.
    #[arg(long, value_name = "SHA256")]
    pub fingerprint: Option<Fingerprint>,
    /// Where the service's configuration is kept.
    #[arg(long, value_name = "DIR", default_value = ETC_DIR)]
    pub etc_dir: PathBuf,
    /// The service's data dir, only read to say which set-up steps remain.
    #[arg(long, value_name = "DIR", default_value = SERVICE_DATA_DIR)]
    pub data_dir: PathBuf,
}

/// The packaged service's configuration and data dirs (deploy/aiui.service).
const ETC_DIR: &str = "/etc/aiui";
const SERVICE_DATA_DIR: &str = "/var/lib/aiui";
/// Written by `pair`, read by the unit as an EnvironmentFile; aiui.env (a conffile the owner edits) stays theirs.
pub const NODE_ENV_FILE: &str = "node.env";
/// The node password, handed to the service by `LoadCredential=` only.
pub const NODE_PASSWORD_FILE: &str = "node-password";
/// Where the package installs ui/ (deploy/aiui.service sets AIUI_UI_DIR to it too).
const PACKAGED_UI_DIR: &str = "/usr/share/aiui/ui";

/// The source tree's ui/ for a binary run from its build (it is compiled in only as a path), else the package's:
/// an installed binary never points into the machine it was built on.
fn default_ui_dir() -> PathBuf {
    let tree = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../../../ui"));
    if tree.join("index.html").is_file() { tree.to_path_buf() } else { PathBuf::from(PACKAGED_UI_DIR) }
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
        /// A session's id, as `serve sessions` lists it.
        #[arg(value_name = "ID", required_unless_present = "all")]
        ids: Vec<String>,
        /// End every session.
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
            println!("{}", t("cli-totp-add", &[]));
            println!("{}", url.expose());
            Ok(())
        }
        (Some(Action::Sessions(sessions)), _) => sessions_command(sessions).await,
        (Some(Action::Pair(pair_args)), _) => pair(pair_args).await,
        (None, serve) => serve_until_stopped(serve).await,
    }
}

fn set_passphrase(set: SetArgs, kind: Kind) -> anyhow::Result<()> {
    let dir = crate::data_dir(set.data_dir)?;
    aiui_core::paths::ensure_private_dir(&dir)?;
    // The catalogue's selector: each kind is its own sentence, since a language may inflect the words around it.
    let which = ("kind", if kind == Kind::Lan { "lan" } else { "approval" }.into());
    let passphrase = if std::io::stdin().is_terminal() {
        let prompt = |key: &str| format!("{} ", t(key, std::slice::from_ref(&which)));
        let first =
            rpassword::prompt_password(prompt("cli-passphrase-new")).with_context(|| t("cli-reading-terminal", &[]))?;
        let again = rpassword::prompt_password(prompt("cli-passphrase-again"))
            .with_context(|| t("cli-reading-terminal", &[]))?;
        if first != again {
            bail!("{}", t("cli-passphrase-differ", &[]));
        }
        Secret::new(first)
    } else {
        let mut line = String::new();
        std::io::stdin().read_line(&mut line).with_context(|| t("cli-reading-stdin-short", &[]))?;
        Secret::new(line.trim_end_matches(['\r', '\n']).to_owned())
    };
    passphrase::set(&dir, kind, &passphrase)?;
    let file = ("file", kind.file(&dir).display().to_string().into());
    println!("{}", t("cli-passphrase-set", &[which, file]));
    println!("{}", t("cli-passphrase-live", &[]));
    if kind == Kind::Lan && passphrase::StoredHash::load(&dir, Kind::Approval)?.is_none() {
        println!("{}", t("cli-passphrase-approval-too", &[]));
    }
    Ok(())
}

/// `serve pair`: trust the node's certificate (given, or shown and confirmed), check the password by logging in,
/// and only then write both files, so a failed pairing leaves the service's configuration as it was.
async fn pair(args: PairArgs) -> anyhow::Result<()> {
    if args.node.scheme() != "https" {
        bail!("{}", t("cli-pair-not-https", &[("url", args.node.as_str().into())]));
    }
    let pin = match args.fingerprint {
        Some(pin) => pin,
        None => crate::doctor::confirm_first_use(&args.node).await.with_context(|| t("cli-nothing-written", &[]))?,
    };
    let password = read_node_password()?;
    let config = NodeConfig::new(args.node.clone()).with_pin(pin);
    // The service logs in unattended, so a login that needs a TOTP code is refused here rather than at its start.
    let client = NodeClient::new(config, Credentials { password: Secret::new(password.expose().clone()), totp: None })?;
    client.login().await.with_context(|| t("cli-pair-login", &[]))?;
    let _ = client.logout().await;

    std::fs::create_dir_all(&args.etc_dir)
        .with_context(|| t("cli-creating", &[("path", args.etc_dir.display().to_string().into())]))?;
    let env_file = args.etc_dir.join(NODE_ENV_FILE);
    let password_file = args.etc_dir.join(NODE_PASSWORD_FILE);
    // The password first: a node.env without its password would pair the unit with nothing to log in with.
    passphrase::write_private(&password_file, password.expose().as_bytes())?;
    let env = format!(
        "# Written by `aiui-cli serve pair`; run it again to change the node. Not secret (the password is in {}).\n\
         AIUI_NODE_URL={}\nAIUI_NODE_FINGERPRINT={pin}\n",
        password_file.display(),
        args.node
    );
    passphrase::write_private(&env_file, env.as_bytes())?;
    println!("{}", t("cli-pair-paired", &[("url", args.node.as_str().into()), ("pin", pin.to_string().into())]));
    let wrote =
        [("env", env_file.display().to_string().into()), ("password", password_file.display().to_string().into())];
    println!("{}", t("cli-pair-wrote", &wrote));
    let remaining = remaining_steps(&args.data_dir);
    if remaining.is_empty() {
        println!("{}", t("cli-pair-start", &[]));
    } else {
        println!("{}", t("cli-pair-remaining", &[]));
        for step in remaining {
            println!("  {step}");
        }
        println!("  systemctl start aiui");
    }
    Ok(())
}

/// The node password, never an argument: from the terminal without echo, or one line on stdin.
fn read_node_password() -> anyhow::Result<Secret<String>> {
    let password = if std::io::stdin().is_terminal() {
        rpassword::prompt_password(format!("{} ", t("cli-password-prompt", &[])))
            .with_context(|| t("cli-reading-terminal", &[]))?
    } else {
        let mut line = String::new();
        std::io::stdin().read_line(&mut line).with_context(|| t("cli-reading-stdin-short", &[]))?;
        line.trim_end_matches(['\r', '\n']).to_owned()
    };
    if password.is_empty() {
        bail!("{}", t("cli-pair-no-password", &[]));
    }
    Ok(Secret::new(password))
}

/// The passphrase commands the service still waits for (its unit has a condition on each file), as the owner
/// types them: as the service's user, so the hashes stay readable by it alone.
fn remaining_steps(data_dir: &Path) -> Vec<String> {
    let as_service = if data_dir == Path::new(SERVICE_DATA_DIR) { "sudo -u aiui " } else { "" };
    let dir = data_dir.display();
    let mut steps = Vec::new();
    if !Kind::Lan.file(data_dir).exists() {
        steps.push(format!("{as_service}aiui-cli serve set-password --data-dir {dir}"));
    }
    if !Kind::Approval.file(data_dir).exists() && !passphrase::totp_file(data_dir).exists() {
        steps.push(format!("{as_service}aiui-cli serve set-approval-password --data-dir {dir}"));
    }
    steps
}

/// `serve sessions`: the list the running service keeps in its data dir, or a revocation it carries out within a
/// second (the command waits for it and says what happened).
async fn sessions_command(args: SessionsArgs) -> anyhow::Result<()> {
    let dir = crate::data_dir(args.data_dir)?;
    let Some(list) = aiui_web::control::read_sessions(&dir)? else {
        bail!("{}", t("cli-sessions-no-list", &[("dir", dir.display().to_string().into())]));
    };
    let age_s = (aiui_core::now_ms() - list.written_at_ms) / 1000;
    let stale = age_s > 90;
    match args.action {
        None => {
            if stale {
                println!("{}", t("cli-sessions-old", &[("secs", age_s.into())]));
            }
            if list.sessions.is_empty() {
                println!("{}", t("cli-sessions-nobody", &[]));
            }
            for s in &list.sessions {
                let args = [
                    ("id", s.id.to_string().into()),
                    ("origin", format!("{:<7}", s.origin).into()),
                    ("address", format!("{:<15}", s.address).into()),
                    ("signed_in", aiui_core::format_time_ms_in(s.signed_in_at_ms, l10n::locale()).into()),
                    ("last_active", aiui_core::format_time_ms_in(s.last_active_ms, l10n::locale()).into()),
                ];
                println!("{}", t("cli-sessions-row", &args));
            }
            Ok(())
        }
        Some(SessionsAction::Revoke { ids, all }) => {
            let unknown: Vec<&String> = ids.iter().filter(|id| list.sessions.iter().all(|s| &s.id != *id)).collect();
            if !unknown.is_empty() {
                bail!("{}", t("cli-sessions-unknown", &[("ids", format!("{unknown:?}").into())]));
            }
            if stale {
                bail!("{}", t("cli-sessions-stale", &[("secs", age_s.into())]));
            }
            aiui_web::control::request_revoke(&dir, &aiui_web::control::Revoke { ids: ids.clone(), all })?;
            // The service removes the request once it has ended the sessions.
            let asked = aiui_web::control::revoke_file(&dir);
            for _ in 0..50 {
                if !asked.exists() {
                    if all {
                        println!("{}", t("cli-sessions-ended-all", &[]));
                    } else {
                        println!("{}", t("cli-sessions-ended", &[("count", ids.len().into())]));
                    }
                    return Ok(());
                }
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            let _ = std::fs::remove_file(&asked);
            bail!("{}", t("cli-sessions-not-picked-up", &[]))
        }
    }
}

async fn serve_until_stopped(args: ServeArgs) -> anyhow::Result<()> {
    // `--language` is the language of everything the service says, its start-up notices on this terminal too.
    if let Some(locale) = args.language {
        l10n::choose(locale);
    }
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
    config.locale = args.language;

    let Assembled { agent, budget, payments, notices, node_url, demo } = crate::chat::assemble(&args.assistant).await?;
    // The owner's language for the answers and the confirmations too, not only the pages (default: the
    // environment's, as for every command).
    if let Some(locale) = args.language {
        agent.config.write().unwrap_or_else(|p| p.into_inner()).locale = locale;
        if let Some(payments) = &payments {
            payments.set_locale(locale);
        }
    }
    for notice in &notices {
        println!("{}", t("cli-note", &[("notice", notice.as_str().into())]));
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
    // These two lines stay as they are in every language: scripts and tests read the addresses from them.
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
