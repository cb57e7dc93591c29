//! `aiui-cli chat`: the assistant loop in a terminal. Confirmations are asked here, default No.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::{Arc, RwLock};
use std::time::Duration;

use aiui_core::agent::{Agent, Event, OperatorConfig, StopReason};
use aiui_core::backends::builtin::BuiltinConfig;
use aiui_core::backends::chain::ENABLE_A_LEG;
use aiui_core::backends::claude::ClaudeConfig;
use aiui_core::backends::ollama::OllamaConfig;
use aiui_core::backends::registry::{LegSettings, Reuse, build_chain};
use aiui_core::backends::routstr::RoutstrConfig;
use aiui_core::egress::KnownSecret;
use aiui_core::gate::{AuditLog, Decision, Gate};
use aiui_core::net::Fingerprint;
use aiui_core::node::{Credentials, NodeClient, NodeConfig};
use aiui_core::paths::DataDir;
use aiui_core::secrets::Secrets;
use aiui_core::store::{ConversationId, Store};
use aiui_core::view::SpendView;
use anyhow::{Context, bail};

use crate::l10n::{self, t};
use crate::render;

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    pub assistant: AssistantArgs,
    /// Resume this conversation instead of starting a new one.
    #[arg(long, value_name = "ID")]
    pub conversation: Option<String>,
}

/// What the assistant is built from: the node, the legs and the data dir. Shared by `chat` and `serve`.
#[derive(Debug, clap::Args)]
pub struct AssistantArgs {
    /// The node's address. Omit it with --demo.
    #[arg(long, value_name = "URL", required_unless_present = "demo")]
    pub node: Option<url::Url>,
    /// The accepted SHA-256 fingerprint of the node's certificate (https).
    #[arg(long, value_name = "SHA256")]
    pub fingerprint: Option<Fingerprint>,
    /// Chat with a simulated node started on this machine instead of a real one.
    #[arg(long, conflicts_with = "node")]
    pub demo: bool,
    /// Where the local Ollama listens.
    #[arg(long, value_name = "URL", default_value = "http://127.0.0.1:11434/")]
    pub ollama: url::Url,
    /// The Ollama model to use (default: the first installed one that supports tools).
    #[arg(long, value_name = "MODEL")]
    pub ollama_model: Option<String>,
    /// The Anthropic API base URL (the key itself comes from the OS keyring).
    #[arg(long, value_name = "URL", default_value = "https://api.anthropic.com/")]
    pub claude_url: url::Url,
    /// The model to ask Routstr providers for, when the allowance is above zero (`aiui-cli budget set`).
    #[arg(long, value_name = "MODEL", default_value = "gpt-4o-mini")]
    pub routstr_model: String,
    #[command(flatten)]
    pub discovery: crate::providers::DiscoveryArgs,
    /// Where conversations and the audit log are kept (default: $AIUI_DATA_DIR or ~/.local/share/aiui).
    #[arg(long, value_name = "DIR")]
    pub data_dir: Option<PathBuf>,
    /// Never answer with the built-in small model (SmolLM2-135M), the last leg. Its file is looked for in
    /// $AIUI_MODEL_DIR, else the data dir's models/ (`bash scripts/setup` puts it there).
    #[arg(long)]
    pub no_builtin: bool,
}

/// The assistant as every shell on the command line builds it: the node client, the chain (the one
/// `build_chain`), the gate with its audit log, the store, the budget, and the payments to reconcile.
pub struct Assembled {
    pub agent: Arc<Agent>,
    pub budget: Arc<aiui_core::budget::BudgetStore>,
    pub payments: Option<Arc<aiui_core::pay::Payments>>,
    pub notices: Vec<String>,
    pub node_url: String,
    pub demo: Option<crate::demo::DemoNode>,
}

/// How long the owner has to answer a confirmation (as in the desktop app).
pub const CONFIRM_TTL: Duration = Duration::from_secs(120);

pub async fn assemble(args: &AssistantArgs) -> anyhow::Result<Assembled> {
    let data = DataDir(crate::data_dir(args.data_dir.clone())?);
    let (node_client, password, demo) = connect(args).await?;
    let node_url = match &demo {
        Some(demo) => demo.node.url(),
        None => args.node.as_ref().map(url::Url::to_string).unwrap_or_default(),
    };
    let secrets = Arc::new(Secrets::os_keyring());
    let built = build_chain(&leg_settings(args), secrets, &data.0, Reuse::default()).await?;
    let gate = Arc::new(Gate::new(AuditLog::open(&data.audit_log())?, CONFIRM_TTL));
    let store = Arc::new(Store::open(&data.conversations())?);
    let known = vec![KnownSecret::new("node-password", password)];
    // The answers and confirmations in the language of the CLI's own lines (`serve --language` sets both).
    let config = Arc::new(RwLock::new(OperatorConfig { locale: l10n::locale(), ..OperatorConfig::default() }));
    let budget = built.budget.clone();
    let agent =
        Arc::new(Agent::new(Arc::new(node_client), built.chain, gate, store, config, known).with_budget(built.budget));
    Ok(Assembled { agent, budget, payments: built.payments, notices: built.notices, node_url, demo })
}

pub async fn run(args: Args) -> anyhow::Result<()> {
    let Assembled { agent, notices, demo, .. } = assemble(&args.assistant).await?;
    for notice in &notices {
        println!("{}", t("cli-note", &[("notice", notice.as_str().into())]));
    }
    let conversation = match &args.conversation {
        Some(id) => {
            let id = ConversationId(id.clone());
            let existing = agent.store.load(&id)?;
            let args = [("title", existing.title.as_str().into()), ("count", existing.messages().len().into())];
            println!("{}", t("cli-chat-resuming", &args));
            id
        }
        None => agent.store.create_conversation(&t("cli-chat-title", &[]))?,
    };

    println!("{}", t("cli-chat-started", &[("id", conversation.to_string().into())]));
    let you = t("cli-chat-you", &[]);
    // The one-tap replies of the last answer: typing a choice's number sends that choice.
    let mut choices: Vec<String> = Vec::new();
    let mut no_backend = NoBackendSaid::default();
    let mut lines = Lines::start();
    while let Some(line) = lines.next(&format!("{you} ")).await? {
        match line.trim() {
            "" => continue,
            "/quit" | "/exit" => break,
            "/list" => {
                for c in agent.store.list_conversations()? {
                    let args = [
                        ("id", c.id.to_string().into()),
                        ("title", c.title.as_str().into()),
                        ("count", c.message_count.into()),
                    ];
                    println!("{}", t("cli-chat-list-item", &args));
                }
                continue;
            }
            text => {
                let text = chosen(text, &choices).unwrap_or(text).to_owned();
                if text != line.trim() {
                    println!("{you} {text}");
                }
                choices = turn(&agent, &conversation, &text, &mut lines, &mut no_backend).await?;
            }
        }
    }
    if let Some(demo) = demo {
        demo.node.shutdown().await;
    }
    Ok(())
}

/// The legs as the command line sets them.
pub fn leg_settings(args: &AssistantArgs) -> LegSettings {
    LegSettings {
        ollama: OllamaConfig { url: args.ollama.clone(), model: args.ollama_model.clone(), ..OllamaConfig::default() },
        claude: ClaudeConfig { base_url: args.claude_url.clone(), ..ClaudeConfig::default() },
        routstr: RoutstrConfig {
            model: args.routstr_model.clone(),
            tor_socks: args.discovery.tor,
            ..RoutstrConfig::default()
        },
        discovery: args.discovery.config(),
        builtin: BuiltinConfig {
            enabled: !args.no_builtin && cfg!(feature = "builtin"),
            scorer: scorer(args),
            lexical: true,
        },
        locale: l10n::locale(),
    }
}

#[cfg(feature = "builtin")]
fn scorer(args: &AssistantArgs) -> Option<Arc<dyn aiui_core::backends::builtin::IntentScorer>> {
    args.data_dir
        .clone()
        .or_else(aiui_core::paths::default_data_dir)
        .map(|dir| aiui_llama::SmolLm::shared_for_data_dir(&dir) as _)
}

/// A build without the built-in model has no scorer; the leg is off.
#[cfg(not(feature = "builtin"))]
fn scorer(_: &AssistantArgs) -> Option<Arc<dyn aiui_core::backends::builtin::IntentScorer>> {
    None
}

/// The choice a bare number picks ("2" → the second), if the last answer offered one.
fn chosen<'a>(line: &str, choices: &'a [String]) -> Option<&'a str> {
    let n: usize = line.parse().ok()?;
    choices.get(n.checked_sub(1)?).map(String::as_str)
}

/// The "no backend" block is said once: the same reasons again get one line, changed reasons the whole block.
#[derive(Debug, Default)]
struct NoBackendSaid {
    last: Option<String>,
}

impl NoBackendSaid {
    /// `message` is the turn's, in `locale`: the windowed shells' way to enable a leg (in English exactly
    /// [`ENABLE_A_LEG`]) names a window this chat doesn't have, so the terminal's own way replaces it.
    fn text(&mut self, message: &str, locale: aiui_core::i18n::Locale) -> String {
        if self.last.as_deref() == Some(message) {
            return t("cli-chat-still-no-backend", &[]);
        }
        self.last = Some(message.to_owned());
        let windowed = aiui_core::i18n::text(locale, "stop-enable-a-leg", &[]);
        debug_assert!(locale != aiui_core::i18n::Locale::En || windowed == ENABLE_A_LEG);
        message.replace(&windowed, &t("cli-chat-enable-a-leg", &[]))
    }
}

/// Runs one turn, printing its events; returns the one-tap choices its answer offered.
async fn turn(
    agent: &Arc<Agent>,
    conversation: &ConversationId,
    text: &str,
    lines: &mut Lines,
    no_backend: &mut NoBackendSaid,
) -> anyhow::Result<Vec<String>> {
    let mut offered = Vec::new();
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
    let stop = aiui_core::agent::Stop::new();
    let task = {
        let (agent, conversation, text, stop) = (agent.clone(), conversation.clone(), text.to_owned(), stop.clone());
        let requester = aiui_core::gate::Requester::Terminal;
        tokio::spawn(async move { agent.turn_stoppable(&conversation, &text, &tx, &requester, &stop).await })
    };
    // What of this step's answer was printed as it was written (its `Text` then adds only what is new, e.g. the
    // mark of a stopped answer).
    let mut streamed = String::new();
    // What the turn has cost so far, said with its end.
    let mut spent = None;
    loop {
        // Ctrl-C stops the turn (the answer so far is kept, marked stopped); the chat goes on.
        let event = tokio::select! {
            event = rx.recv() => event,
            _ = tokio::signal::ctrl_c(), if !stop.is_stopped() => {
                stop.stop();
                continue;
            }
        };
        let Some(event) = event else { break };
        match event {
            Event::BackendChosen { .. } | Event::ToolProposed { .. } => {}
            Event::TextDelta { text, backend } => {
                use std::io::Write;
                if streamed.is_empty() {
                    print!("[{}] ", backend.label_in(l10n::locale()));
                }
                print!("{text}");
                streamed.push_str(&text);
                let _ = std::io::stdout().flush();
            }
            Event::Text { text, backend } => {
                if streamed.is_empty() {
                    println!("[{}] {text}", backend.label_in(l10n::locale()));
                } else {
                    let shown = std::mem::take(&mut streamed);
                    let rest = text.strip_prefix(shown.trim_end()).unwrap_or_default();
                    println!("{}", rest.trim_end());
                }
            }
            Event::Spent { turn, .. } => spent = Some(turn),
            Event::Choices { choices } => {
                for (n, choice) in choices.iter().enumerate() {
                    println!("  {}) {choice}", n + 1);
                }
                println!("{}", t("cli-chat-choose", &[]));
                offered = choices;
            }
            Event::Surface { surface, .. } => print!("{}", render::surface(&surface)),
            Event::Notice { text } => println!("{}", t("cli-chat-notice", &[("notice", text.as_str().into())])),
            Event::AwaitingConfirmation { request } => {
                print!("{}", render::confirmation(&request));
                let Some(answer) = lines.next(&format!("{} ", t("cli-chat-approve", &[]))).await? else {
                    // Ctrl-C (or the end of input) at the question: the turn stops and the request is withdrawn.
                    stop.stop();
                    continue;
                };
                let decision = if l10n::is_yes(&answer) { Decision::AllowOnce } else { Decision::Deny };
                if let Err(e) = agent.gate.decide(&request.id, &request.arguments_hash, decision) {
                    println!("{}", t("cli-chat-not-decided", &[("error", e.to_string().into())]));
                }
            }
            Event::Stopped { reason, message } => {
                if !std::mem::take(&mut streamed).is_empty() {
                    println!();
                }
                let message = if reason == StopReason::NoBackend {
                    let locale = agent.config.read().unwrap_or_else(|p| p.into_inner()).locale;
                    no_backend.text(&message, locale)
                } else {
                    message
                };
                println!("■ {message}");
                if let Some(spent) = spent.take().filter(|s| s.usd_micros > 0 || s.sats > 0) {
                    println!(
                        "{}",
                        t("cli-chat-turn-cost", &[("cost", SpendView::from(spent).label_in(l10n::locale()).into())])
                    );
                }
            }
            Event::Done { backend } => {
                let cost = SpendView::from(spent.take().unwrap_or_default()).label_in(l10n::locale());
                let args = [("backend", backend.label_in(l10n::locale()).into()), ("cost", cost.into())];
                println!("{}", t("cli-chat-done", &args));
            }
        }
    }
    task.await.with_context(|| t("cli-chat-turn-stopped", &[]))??;
    Ok(offered)
}

/// Connects to the node named on the command line, or starts the demo node.
async fn connect(args: &AssistantArgs) -> anyhow::Result<(NodeClient, String, Option<crate::demo::DemoNode>)> {
    if args.demo {
        let demo = crate::demo::start_node().await?;
        let url: url::Url = demo.node.url().parse()?;
        let pin = crate::demo::pin(&demo)?;
        println!("{}", t("cli-demo-at", &[("url", url.as_str().into())]));
        let client = NodeClient::new(
            NodeConfig::new(url).with_pin(pin),
            Credentials { password: aiui_core::Secret::new(demo.password.clone()), totp: None },
        )?;
        let password = demo.password.clone();
        return Ok((client, password, Some(demo)));
    }
    let Some(url) = args.node.clone() else { bail!("{}", t("cli-chat-need-node", &[])) };
    let password = crate::doctor::read_password()?;
    let plain = password.expose().clone();
    let config = NodeConfig { pin: args.fingerprint, ..NodeConfig::new(url) };
    let client = NodeClient::new(config, Credentials { password, totp: Some(Arc::new(crate::doctor::read_totp)) })?;
    client.login().await.with_context(|| t("cli-logging-in-node", &[]))?;
    Ok((client, plain, None))
}

/// The terminal's lines, read by one thread for the whole chat: waiting for a line can then be given up (for
/// Ctrl-C) without a second reader racing the first for the next line.
struct Lines(tokio::sync::mpsc::Receiver<std::io::Result<String>>);

impl Lines {
    fn start() -> Self {
        let (tx, rx) = tokio::sync::mpsc::channel(1);
        std::thread::spawn(move || {
            loop {
                let mut line = String::new();
                let read = std::io::stdin().read_line(&mut line);
                let end = matches!(read, Ok(0) | Err(_));
                if end {
                    // End of input (or a read error, said once): the chat ends.
                    if let Err(e) = read {
                        let _ = tx.blocking_send(Err(e));
                    }
                    return;
                }
                if tx.blocking_send(Ok(line)).is_err() {
                    return;
                }
            }
        });
        Self(rx)
    }

    /// The next line after `prompt` (shown on a terminal); `None` at the end of input or on Ctrl-C.
    async fn next(&mut self, prompt: &str) -> anyhow::Result<Option<String>> {
        use std::io::Write;
        if std::io::stdin().is_terminal() {
            print!("{prompt}");
            std::io::stdout().flush()?;
        }
        tokio::select! {
            line = self.0.recv() => line.transpose().with_context(|| t("cli-reading-terminal", &[])),
            _ = tokio::signal::ctrl_c() => {
                println!();
                Ok(None)
            }
        }
    }
}
