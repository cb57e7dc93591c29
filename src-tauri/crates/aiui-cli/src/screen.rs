//! `aiui-cli screen`: shows exactly what a cloud leg would receive for some text or a request body, and why.

use std::io::Read;

use aiui_core::backends::format::{anthropic, openai};
use aiui_core::egress::{KnownSecret, Origin, Screen, Screened};
use anyhow::{Context, bail};

use crate::l10n::t;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Screen plain text as a tool result (redacted) instead of as your own message (blocked if it holds a secret).
    #[arg(long)]
    pub as_tool_result: bool,
}

/// The environment variable whose value, if set, is screened as a known secret (the node password).
const PASSWORD_ENV: &str = "AIUI_NODE_PASSWORD";

pub fn run(args: Args) -> anyhow::Result<()> {
    let mut input = String::new();
    std::io::stdin().read_to_string(&mut input).with_context(|| t("cli-reading-stdin", &[]))?;
    let known: Vec<KnownSecret> =
        std::env::var(PASSWORD_ENV).ok().map(|pw| KnownSecret::new("node-password", pw)).into_iter().collect();
    let mut screen = Screen::new(known);

    match serde_json::from_str::<serde_json::Value>(&input) {
        Ok(mut body) if body.get("messages").is_some() => {
            let as_built = body.clone();
            // A Messages body has content blocks or a top-level system; an OpenAI/Ollama body has roles only.
            let anthropic_shape = as_built.get("system").is_some()
                || as_built["messages"].as_array().is_some_and(|m| m.iter().any(|m| m["content"].is_array()));
            let origin_of = |pointer: &str| {
                if anthropic_shape {
                    anthropic::origin_of(&as_built, pointer)
                } else {
                    openai::origin_of(&as_built, pointer)
                }
            };
            match screen.screen_body(&mut body, &origin_of) {
                Ok(report) => {
                    println!("{}", serde_json::to_string_pretty(&body)?);
                    eprintln!();
                    eprintln!("{}", t("cli-screen-report", &[("report", report.text(crate::l10n::locale()).into())]));
                    Ok(())
                }
                Err(blocked) => blocked_said(&blocked),
            }
        }
        _ => {
            let origin = if args.as_tool_result { Origin::ToolResult } else { Origin::Owner };
            match screen.screen_text(&input, origin) {
                Screened::Clean { text, report } => {
                    print!("{text}");
                    eprintln!();
                    eprintln!("{}", t("cli-screen-report", &[("report", report.text(crate::l10n::locale()).into())]));
                    Ok(())
                }
                Screened::Blocked(blocked) => blocked_said(&blocked),
            }
        }
    }
}

/// Says on stderr what was blocked and why, and fails: nothing is printed as sendable.
fn blocked_said(blocked: &aiui_core::egress::Blocked) -> anyhow::Result<()> {
    let args = [("kinds", blocked.kinds.join(", ").into()), ("message", blocked.text(crate::l10n::locale()).into())];
    eprintln!("{}", t("cli-screen-blocked", &args));
    bail!("{}", t("cli-screen-nothing-sent", &[]))
}
