//! `aiui-cli`: AIUI without a window. Each subcommand is a thin adapter over `aiui-core`.

// A command-line tool's output is its interface; printing is the point here, unlike in the libraries.
#![allow(clippy::print_stdout)]

mod budget;
mod chat;
mod contract;
mod demo;
mod doctor;
mod help;
mod l10n;
mod providers;
mod render;
mod screen;
mod serve;
mod wallet;

use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};

#[derive(Debug, Parser)]
#[command(name = "aiui-cli", version = concat!(env!("CARGO_PKG_VERSION"), " (commit ", env!("AIUI_GIT_COMMIT"), ")"), about = "AIUI, the Archipelago node assistant, from the terminal")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Check that AIUI can reach and log in to a node, and summarise its state. With --contract, check every
    /// read method's answer against AIUI's adapter table instead.
    ///
    /// The password is read from AIUI_NODE_PASSWORD or asked for on the terminal; it is never an argument, so it
    /// does not show in `ps`. If the node asks for a TOTP code, it is read from AIUI_NODE_TOTP or asked for.
    Doctor(doctor::Args),
    /// Start a simulated node on this machine and run `doctor` against it: the quickest look at AIUI.
    Demo(demo::Args),
    /// Talk to the assistant about a node in this terminal. Actions are confirmed here, default No.
    Chat(Box<chat::Args>),
    /// Read text (or a JSON request body) on stdin and print exactly what a cloud backend would receive, then
    /// what was redacted or blocked and why. Exits non-zero when it would be blocked.
    Screen(screen::Args),
    /// List the Routstr providers found on Nostr, with endpoints, mints and price per request.
    Providers(providers::Args),
    /// Show or change the assistant's allowance (the operator API; the chat can never change it).
    Budget(budget::Args),
    /// The assistant's Cashu wallet: balance, receive a token, fund by Lightning, reconcile payments in flight.
    Wallet(wallet::Args),
    /// Serve the assistant to the LAN: the chat on one port, approvals (owner only) on a second. Set the
    /// passphrases first: `serve set-password`, `serve set-approval-password`.
    Serve(Box<serve::Args>),
}

fn main() -> ExitCode {
    tracing_subscriber::fmt()
        .with_env_filter(tracing_subscriber::EnvFilter::try_from_env("AIUI_LOG").unwrap_or_else(|_| "warn".into()))
        .with_writer(std::io::stderr)
        .init();
    let matches = help::in_language(Cli::command()).get_matches();
    let cli = Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
    let runtime = match tokio::runtime::Runtime::new() {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("{}", l10n::t("cli-runtime-failed", &[("error", e.to_string().into())]));
            return ExitCode::FAILURE;
        }
    };
    let result = runtime.block_on(async {
        match cli.command {
            Command::Doctor(args) => doctor::run(args).await,
            Command::Demo(args) => demo::run(args).await,
            Command::Chat(args) => chat::run(*args).await,
            Command::Screen(args) => screen::run(args),
            Command::Providers(args) => providers::run(args).await,
            Command::Budget(args) => budget::run(args),
            Command::Wallet(args) => wallet::run(args).await,
            Command::Serve(args) => serve::run(*args).await,
        }
    });
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("\naiui-cli: {}", said(&e));
            ExitCode::FAILURE
        }
    }
}

/// An error and its causes as `{e:#}` writes them, with the wallet's, the prices' and the allowances' own in the
/// owner's language.
fn said(error: &anyhow::Error) -> String {
    let locale = l10n::locale();
    let cause_said = |cause: &(dyn std::error::Error + 'static)| {
        if let Some(e) = cause.downcast_ref::<aiui_core::pay::PayError>() {
            e.text(locale)
        } else if let Some(e) = cause.downcast_ref::<aiui_core::pricing::PriceError>() {
            e.text(locale)
        } else if let Some(e) = cause.downcast_ref::<aiui_core::budget::BudgetError>() {
            e.text(locale)
        } else {
            cause.to_string()
        }
    };
    error.chain().map(cause_said).collect::<Vec<_>>().join(": ")
}

/// The data dir a command works in: `--data-dir`, else `$AIUI_DATA_DIR` or `~/.local/share/aiui`, created if missing
/// and brought up to this version's format; a dir a newer AIUI wrote is refused, untouched.
pub fn data_dir(explicit: Option<std::path::PathBuf>) -> anyhow::Result<std::path::PathBuf> {
    use anyhow::Context;
    let dir = match explicit {
        Some(dir) => dir,
        None => aiui_core::paths::default_data_dir().with_context(|| l10n::t("cli-no-data-dir", &[]))?,
    };
    // The error is the whole message: it names the dir and both versions.
    aiui_core::datadir::open(&dir)?;
    Ok(dir)
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    use super::{Cli, help};

    /// Every help text of `command` and its subcommands, as (message key, text) pairs, in clap's English from the
    /// doc comments.
    fn help_texts(command: &clap::Command, parent: &str, out: &mut Vec<(String, String)>) {
        let message = help::message_of(parent, command.get_name());
        out.push((message.clone(), command.get_about().map(ToString::to_string).unwrap_or_default()));
        if let Some(long) = command.get_long_about() {
            out.push((format!("{message}.long"), long.to_string()));
        }
        for arg in command.get_arguments().filter(|a| help::is_shown(a)) {
            let key = format!("{message}.{}", help::attribute_of(arg.get_id().as_str()));
            out.push((key.clone(), arg.get_help().map(ToString::to_string).unwrap_or_default()));
            if let Some(long) = arg.get_long_help() {
                out.push((format!("{key}-long"), long.to_string()));
            }
        }
        for sub in command.get_subcommands() {
            help_texts(sub, &message, out);
        }
    }

    /// The English catalogue's `--help` is the doc comments' word for word, and every command and argument has
    /// its message: a new argument without one fails here, before its help falls back to English elsewhere.
    #[test]
    fn every_help_text_is_in_the_catalogue_as_the_doc_comments_say_it() {
        let mut texts = Vec::new();
        help_texts(&Cli::command(), "", &mut texts);
        assert!(texts.len() > 50, "{} help texts", texts.len());
        let mut problems = Vec::new();
        for (key, english) in &texts {
            let said = aiui_core::i18n::text(aiui_core::i18n::Locale::En, key, &[]);
            if said != *english {
                problems.push(format!("{key}:\n  doc:     {english:?}\n  catalog: {said:?}"));
            }
        }
        assert!(problems.is_empty(), "{}", problems.join("\n"));
    }

    /// Prints the English `help-*` messages from the doc comments, for cli.ftl: `cargo test -p aiui-cli --bin
    /// aiui-cli -- --ignored --nocapture help_messages`.
    #[test]
    #[ignore = "a generator, run by hand when the arguments change"]
    fn help_messages() {
        let mut texts = Vec::new();
        help_texts(&Cli::command(), "", &mut texts);
        let escape = |text: &str| text.replace('{', "\u{1}").replace('}', "{\"}\"}").replace('\u{1}', "{\"{\"}");
        let mut current = String::new();
        for (key, text) in texts {
            let (message, attribute) = key.split_once('.').map_or((key.as_str(), None), |(m, a)| (m, Some(a)));
            let lines: Vec<String> = escape(&text).lines().map(str::to_owned).collect();
            let indent = if attribute.is_some() { "        " } else { "    " };
            let body = if lines.len() == 1 {
                lines[0].clone()
            } else {
                let rest: Vec<String> =
                    lines.iter().map(|l| if l.is_empty() { String::new() } else { format!("{indent}{l}") }).collect();
                format!("\n{}", rest.join("\n"))
            };
            match attribute {
                None => {
                    current = message.to_owned();
                    println!("{message} = {body}");
                }
                Some(attribute) => {
                    assert_eq!(current, message);
                    println!("    .{attribute} = {body}");
                }
            }
        }
    }
}
