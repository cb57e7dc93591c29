//! `archy-devnode`: runs a simulated Archipelago node until Ctrl-C.

use std::io::IsTerminal as _;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use anyhow::Context as _;
use archy_devnode::{DevNodeConfig, Faults, MintConfig, RunningDevNode};
use clap::Parser;
use tracing_subscriber::EnvFilter;

/// A simulated Archipelago Bitcoin node that speaks the real node's RPC (`POST /rpc/v1`, `GET /health`), with
/// its login, TOTP, CSRF and rate limit. Package states persist in the data directory.
///
/// Logs go to stderr; set RUST_LOG (e.g. RUST_LOG=debug) to change how much.
#[derive(Parser)]
#[command(name = "archy-devnode", version)]
struct Args {
    /// Address to listen on. Use 0.0.0.0:5678 to let other machines on the LAN reach it.
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1:5678")]
    listen: SocketAddr,

    /// Directory for state.json and the TLS certificate; created if missing.
    #[arg(long, value_name = "DIR", default_value = "./.archy-devnode")]
    data_dir: PathBuf,

    /// The owner password. A value given on the command line is visible to other users in `ps`; prefer the
    /// environment variable. With neither, a random password is generated and printed at start.
    #[arg(long, value_name = "PW", env = "ARCHY_DEVNODE_PASSWORD", hide_env_values = true)]
    password: Option<String>,

    /// Base32 TOTP secret (as shown by authenticator apps). When set, a login needs the password and then a
    /// 6-digit code (`auth.login.totp`). Prefer the environment variable, for the same reason as the password.
    #[arg(long, value_name = "BASE32", env = "ARCHY_DEVNODE_TOTP_SECRET", hide_env_values = true)]
    totp_secret: Option<String>,

    /// Serve HTTPS with a self-signed certificate, made on first start and kept in the data directory so its
    /// fingerprint stays the same across restarts. Cookies are then marked Secure.
    #[arg(long)]
    tls: bool,

    /// How long a session lasts after login, in seconds.
    #[arg(long, value_name = "SECS", default_value_t = 12 * 60 * 60)]
    session_ttl_secs: u64,

    /// How long an app stays starting, stopping, restarting, installing or removing, in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = 1500)]
    transition_ms: u64,

    /// Failed logins allowed per client IP in any 60-second window before logins answer 429; 0 turns it off.
    #[arg(long, value_name = "N", default_value_t = 5)]
    login_failures_per_minute: u32,

    /// A Cashu mint URL for `streaming.list-mints` (unit sat, trusted). Repeat for several; replaces the
    /// two demo mints.
    #[arg(long = "mint", value_name = "URL")]
    mints: Vec<String>,

    /// Fault injection: latency added to every RPC answer, in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = 0)]
    latency_ms: u64,

    /// Fault injection: the share (0 to 1) of authenticated calls that answer 500, in a fixed pattern
    /// (0.5 fails every second call).
    #[arg(long, value_name = "SHARE", default_value_t = 0.0, value_parser = parse_share)]
    error_share: f64,

    /// The shape read methods answer in: `full` (every field), `minimal` (only what a client cannot do without,
    /// as a real node might) or `broken` (answers no client can read; actions still happen but answer
    /// `{"queued": true}`).
    #[arg(long, value_name = "SET", default_value = "full")]
    shapes: archy_devnode::Shapes,
}

fn parse_share(s: &str) -> Result<f64, String> {
    let share: f64 = s.parse().map_err(|_| format!("{s:?} is not a number"))?;
    if (0.0..=1.0).contains(&share) { Ok(share) } else { Err(format!("{share} is not between 0 and 1")) }
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    tracing_subscriber::fmt()
        .with_env_filter(EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info")))
        .with_writer(std::io::stderr)
        .with_ansi(std::io::stderr().is_terminal())
        .init();

    let generated = args.password.is_none();
    let password = args.password.clone().unwrap_or_else(archy_devnode::demo::generate_password);
    let mut config = DevNodeConfig::new(password.clone(), args.data_dir.clone());
    config.totp_secret = args.totp_secret.clone();
    config.tls = args.tls;
    config.session_ttl = Duration::from_secs(args.session_ttl_secs);
    config.transition = Duration::from_millis(args.transition_ms);
    config.login_failures_per_minute = args.login_failures_per_minute;
    if !args.mints.is_empty() {
        config.mints =
            args.mints.iter().map(|url| MintConfig { url: url.clone(), unit: "sat".into(), trusted: true }).collect();
    }
    config.faults = Faults { latency: Duration::from_millis(args.latency_ms), error_share: args.error_share };
    config.shapes = args.shapes;

    let node = archy_devnode::spawn(config, args.listen).await.context("archy-devnode could not start")?;
    print_banner(&node, &args, generated.then_some(password.as_str()));

    wait_for_stop_signal().await?;
    tracing::info!("stopping");
    node.shutdown().await;
    Ok(())
}

#[allow(clippy::print_stdout)] // The banner is this binary's output, meant for the person who started it.
fn print_banner(node: &RunningDevNode, args: &Args, generated_password: Option<&str>) {
    println!("archy-devnode {}: a simulated Archipelago node", env!("CARGO_PKG_VERSION"));
    println!("  listening on  {}", node.url());
    match generated_password {
        Some(pw) => {
            println!("  password      {pw}   (generated for this run; set ARCHY_DEVNODE_PASSWORD to choose one)")
        }
        None => println!("  password      the password you set"),
    }
    if args.shapes != archy_devnode::Shapes::Full {
        println!("  shapes        {:?}: read methods answer in drifted shapes", args.shapes);
    }
    if args.totp_secret.is_some() {
        println!("  TOTP          on: after the password, send a 6-digit code from the secret you set");
    }
    if let Some(fp) = node.fingerprint() {
        println!("  TLS           self-signed, SHA-256 fingerprint:");
        println!("                {fp}");
    }
    println!("  data          {}", args.data_dir.display());
    println!();
    println!("Log in with POST {}rpc/v1 {{\"method\":\"auth.login\",\"params\":{{\"password\":\"…\"}}}},", node.url());
    println!("then send the cookies back and echo the csrf_token cookie in an X-CSRF-Token header.");
    println!("Ctrl-C stops the node; app states persist in the data directory.");
}

async fn wait_for_stop_signal() -> anyhow::Result<()> {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        let mut term = signal(SignalKind::terminate()).context("could not listen for SIGTERM")?;
        tokio::select! {
            result = tokio::signal::ctrl_c() => result.context("could not listen for Ctrl-C")?,
            _ = term.recv() => {}
        }
    }
    #[cfg(not(unix))]
    tokio::signal::ctrl_c().await.context("could not listen for Ctrl-C")?;
    Ok(())
}
