//! AIUI's desktop companion and kiosk: a Tauri shell around `aiui-core` with two windows.
//!
//! The **main** window is the chat. It can send messages, read state and *ask* for the trusted window; nothing
//! more. The **trusted** window shows pending confirmations and the operator settings; every command it calls
//! checks both its capability and, in Rust, the calling window's label. See `commands/names.rs` for the one list
//! of commands and `capabilities/` for who may call which.

mod automation;
mod cli;
pub mod commands;
pub mod config;
mod demo;
pub mod first_paint;
pub mod ipc;
pub mod lan_approvals;
mod rendering;
pub mod state;
pub mod windows;

use std::process::ExitCode;

use clap::Parser;
use tauri::{Builder, Manager, Runtime};

pub use automation::AUTOMATION_ALLOWED;
pub use commands::CommandError;
pub use commands::names::{MAIN_COMMANDS, TRUSTED_COMMANDS};
pub use state::{LegOptions, Mode, Shell};

/// The label of the chat window.
pub const MAIN: &str = "main";
/// The label of the trusted window. Trusted commands refuse any other caller.
pub const TRUSTED: &str = "trusted";

/// Starts the app: refuses WebDriver automation (unless built for the real-window test), reads the command line,
/// connects to the node (or starts the demo node), and runs the windows until the last one closes.
pub fn run() -> ExitCode {
    if let Err(refusal) = automation::refuse_automation(|name| std::env::var_os(name)) {
        eprintln!("aiui: {refusal}");
        return ExitCode::from(2);
    }
    tracing_subscriber::fmt()
        .with_env_filter(tracing_subscriber::EnvFilter::try_from_env("AIUI_LOG").unwrap_or_else(|_| "warn".into()))
        .with_writer(std::io::stderr)
        .init();
    let cli = cli::Cli::parse();
    aiui_core::net::install_crypto_provider();
    let shell = match tauri::async_runtime::block_on(state::start(&cli)) {
        Ok(shell) => shell,
        Err(e) => {
            eprintln!("aiui: {e:#}");
            return ExitCode::FAILURE;
        }
    };
    let app = match app(Builder::default()).manage(shell).build(context()) {
        Ok(app) => app,
        Err(e) => {
            eprintln!("aiui: could not start the windows: {e}");
            return ExitCode::FAILURE;
        }
    };
    app.run(|handle, event| {
        if let tauri::RunEvent::Exit = event {
            handle.state::<Shell>().shutdown();
        }
    });
    ExitCode::SUCCESS
}

/// The context built from the root-level `tauri.conf.json` and the capability files: the real ACL, also in tests.
pub fn context<R: Runtime>() -> tauri::Context<R> {
    tauri::generate_context!("../tauri.conf.json")
}

/// Everything but the state and the runtime: plugins, the command handler and the windows. Tests pass
/// `tauri::test::mock_builder()` and manage their own [`Shell`].
pub fn app<R: Runtime>(builder: Builder<R>) -> Builder<R> {
    builder
        .plugin(tauri_plugin_shell::init())
        .invoke_handler(commands::handler())
        .on_window_event(windows::on_window_event)
        .setup(|app| {
            windows::create(app.handle())?;
            windows::watch_gate(app.handle());
            windows::watch_lan(app.handle());
            automation::bench_confirmation(app.handle());
            Ok(())
        })
}
