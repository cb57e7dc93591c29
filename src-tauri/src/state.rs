//! The shell's state: one gate, one store, one operator config and one allowance for the process, and the agent
//! for the paired node. The agent's chain comes from `aiui_core::backends::registry::build_chain`, the one place
//! chains are built; it is rebuilt when the owner pairs again or changes the allowance or the Routstr options in
//! the trusted window, so the paid leg appears without a restart.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, RwLock};
use std::time::{Duration, Instant};

use aiui_core::Secret;
use aiui_core::agent::{Agent, OperatorConfig};
use aiui_core::backends::builtin::BuiltinConfig;
use aiui_core::backends::claude::ClaudeConfig;
use aiui_core::backends::ollama::OllamaConfig;
use aiui_core::backends::registry::{LegSettings, Reuse, budget_path, build_chain};
use aiui_core::backends::routstr::RoutstrConfig;
use aiui_core::backends::routstr::discovery::{Discovery, DiscoveryConfig, DiscoveryReport, ReviewMode};
use aiui_core::budget::{BudgetStore, ClaudeAllowance};
use aiui_core::egress::KnownSecret;
use aiui_core::gate::{AuditLog, Gate};
use aiui_core::net::Fingerprint;
use aiui_core::node::{Credentials, NodeClient, NodeConfig};
use aiui_core::paths::{DataDir, default_data_dir};
use aiui_core::pay::Wallet;
use aiui_core::secrets::{SecretName, Secrets};
use aiui_core::store::Store;
use anyhow::Context;

use crate::cli::Cli;
use crate::config::{PairedNode, ShellConfig};
use crate::demo::DemoNode;
use crate::lan_approvals::{self, LanApprovals};

/// How long the owner has to answer a confirmation.
pub const CONFIRM_TTL: Duration = Duration::from_secs(120);

/// How the app was started.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Mode {
    pub demo: bool,
    pub kiosk: bool,
}

/// Where the legs are, so the chain can be rebuilt when the node changes.
#[derive(Debug, Clone)]
pub struct LegOptions {
    pub ollama: url::Url,
    pub ollama_model: Option<String>,
    pub claude_url: url::Url,
    /// The data dir the built-in model's file is looked up from (`aiui_llama::model_dirs`: $AIUI_MODEL_DIR, its
    /// models/, the default data dir's, the package's); the base one, so the demo shares it.
    pub model_data_dir: Option<PathBuf>,
}

impl Default for LegOptions {
    fn default() -> Self {
        Self {
            ollama: OllamaConfig::default().url,
            ollama_model: None,
            claude_url: ClaudeConfig::default().base_url,
            model_data_dir: None,
        }
    }
}

/// The node the agent talks to, as the windows may know it (no secret).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NodeInfo {
    pub url: String,
    pub fingerprint: Option<String>,
    pub demo: bool,
}

/// How often open payments are reconciled in the background (the first run is at start-up).
const RECONCILE_EVERY: std::time::Duration = std::time::Duration::from_secs(10 * 60);

/// What the agent is rebuilt from when the allowance or the Routstr options change.
struct NodeLink {
    client: Arc<NodeClient>,
    known: Vec<KnownSecret>,
}

/// Everything the commands share.
/// How many of the newest money notices a (re)built shell shows; all of them stay in the ledger.
const RECENT_MONEY_NOTICES: usize = 20;

pub struct Shell {
    pub mode: Mode,
    pub data: DataDir,
    pub secrets: Arc<Secrets>,
    pub gate: Arc<Gate>,
    pub store: Arc<Store>,
    pub config: Arc<RwLock<OperatorConfig>>,
    legs: LegOptions,
    agent: RwLock<Option<Arc<Agent>>>,
    link: RwLock<Option<NodeLink>>,
    node: RwLock<Option<NodeInfo>>,
    /// The allowance, opened once. The agent pays from this very instance (the store keeps its state in memory,
    /// so two instances over one file would disagree); every chain build reuses it.
    budget: RwLock<Arc<BudgetStore>>,
    /// Claude's USD allowance, opened once for the same reason.
    claude_allowance: Arc<ClaudeAllowance>,
    /// What the last chain build said the owner should know (e.g. paid help is off: no wallet).
    notices: Arc<RwLock<Vec<String>>>,
    /// Settles open payments in the background (refunds, write-offs) while a paid leg exists; replaced on rebuild.
    reconciler: Mutex<Option<tokio::task::JoinHandle<()>>>,
    /// The paid leg's discovery, for its report in the trusted settings (none while the allowance is zero).
    discovery: RwLock<Option<Arc<Discovery>>>,
    /// The paid leg's `Payments` (none while the allowance is zero): the wallet section uses this very one, so a
    /// withdrawal and a paid turn choose their proofs one at a time (`Payments::choosing`).
    chain_payments: RwLock<Option<Arc<aiui_core::pay::Payments>>>,
    /// The shell's one wallet: opened on first use by the trusted window or by a chain build with an allowance,
    /// and shared by both. Held while a chain is built, so a wallet seed is never created twice.
    pub(crate) wallet: tokio::sync::Mutex<Option<Arc<Wallet>>>,
    /// Why there is no agent, for the chat window's panel.
    unpaired_reason: RwLock<Unpaired>,
    demo: Mutex<Option<DemoNode>>,
    busy: Arc<AtomicBool>,
    /// The running turn's Stop (the last one started; a finished turn's Stop does nothing).
    current_stop: Mutex<Option<aiui_core::agent::Stop>>,
    /// When the trusted window was last put in front of the owner; an approval sooner than
    /// [`crate::windows::APPROVE_DELAY`] after it is refused.
    pub(crate) trusted_shown_at: Mutex<Option<Instant>>,
    /// Whether this app made the trusted window (it is made at start, and again if it is gone), held while it is
    /// being made so that two callers never race to build it.
    pub(crate) trusted_made: Mutex<bool>,
    /// The LAN service's requests, approved on this kiosk: only with `--kiosk` and a known socket.
    pub lan: Option<Arc<LanApprovals>>,
}

impl std::fmt::Debug for Shell {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Shell").field("mode", &self.mode).field("data", &self.data).finish_non_exhaustive()
    }
}

/// Builds the shell from the command line: the demo node, or the paired node from the config file.
pub async fn start(cli: &Cli) -> anyhow::Result<Shell> {
    let base = match &cli.data_dir {
        Some(dir) => dir.clone(),
        None => default_data_dir().context("no data dir: set AIUI_DATA_DIR or pass --data-dir")?,
    };
    // The demo keeps its conversations and audit log apart, so they never mix with a real node's.
    // The model is shared by the demo and the real node's data: one 100 MB file per machine.
    let model_data_dir = base.clone();
    let dir: PathBuf = if cli.demo { base.join("demo") } else { base };
    let mode = Mode { demo: cli.demo, kiosk: cli.kiosk };
    let legs = LegOptions {
        ollama: cli.ollama.clone(),
        ollama_model: cli.ollama_model.clone(),
        claude_url: cli.claude_url.clone(),
        model_data_dir: Some(model_data_dir),
    };
    let shell = Shell::open(mode, DataDir(dir), Arc::new(Secrets::os_keyring()), legs)?;
    if cli.demo {
        let demo = crate::demo::start_node().await?;
        let pin = crate::demo::pin(&demo)?;
        let url: url::Url = demo.node.url().parse().context("the demo node's address")?;
        let info = NodeInfo { url: url.to_string(), fingerprint: Some(pin.to_string()), demo: true };
        let client = NodeClient::new(
            NodeConfig::new(url).with_pin(pin),
            Credentials { password: Secret::new(demo.password.clone()), totp: None },
        )?;
        let password = demo.password.clone();
        *shell.demo.lock().unwrap_or_else(|p| p.into_inner()) = Some(demo);
        shell.connect(client, info, password).await?;
    } else {
        shell.connect_paired().await;
    }
    Ok(shell)
}

impl Shell {
    /// Opens the data dir (conversations, audit log, config) without a node.
    pub fn open(mode: Mode, data: DataDir, secrets: Arc<Secrets>, legs: LegOptions) -> anyhow::Result<Self> {
        // Before anything else in it is opened: a dir a newer AIUI wrote is refused unchanged, an older one migrated.
        aiui_core::datadir::open(&data.0)?;
        let file = ShellConfig::load(&data.0)?;
        let gate = Arc::new(Gate::new(AuditLog::open(&data.audit_log())?, CONFIRM_TTL));
        let store = Arc::new(Store::open(&data.conversations())?);
        let mut operator = OperatorConfig::default();
        operator.grants.disabled = file.disabled_tools.clone();
        operator.locale = file.locale();
        let budget = Arc::new(BudgetStore::open(&budget_path(&data.0))?);
        let claude_allowance = Arc::new(ClaudeAllowance::open(&data.0)?);
        let lan = if mode.kiosk {
            lan_approvals::socket_path(
                std::env::var_os(lan_approvals::SOCKET_ENV),
                file.lan_approvals_socket.as_deref(),
                std::path::Path::exists,
            )
        } else {
            None
        };
        let lan = lan.map(|(socket, source)| Arc::new(LanApprovals::new(socket, source)));
        Ok(Self {
            mode,
            data,
            secrets,
            gate,
            store,
            config: Arc::new(RwLock::new(operator)),
            legs,
            agent: RwLock::new(None),
            link: RwLock::new(None),
            node: RwLock::new(None),
            budget: RwLock::new(budget),
            claude_allowance,
            notices: Arc::new(RwLock::new(Vec::new())),
            reconciler: Mutex::new(None),
            discovery: RwLock::new(None),
            chain_payments: RwLock::new(None),
            wallet: tokio::sync::Mutex::new(None),
            unpaired_reason: RwLock::new(Unpaired::NotYet),
            demo: Mutex::new(None),
            busy: Arc::new(AtomicBool::new(false)),
            current_stop: Mutex::new(None),
            trusted_shown_at: Mutex::new(None),
            trusted_made: Mutex::new(false),
            lan,
        })
    }

    /// Connects to the node in the config file, with its password from the keyring. A failure leaves the shell
    /// unpaired with a reason the chat window shows.
    pub async fn connect_paired(&self) {
        let file = match ShellConfig::load(&self.data.0) {
            Ok(file) => file,
            Err(e) => return self.set_unpaired(Unpaired::Config(e.to_string())),
        };
        let Some(paired) = file.node else { return };
        let secrets = self.secrets.clone();
        let password = tokio::task::spawn_blocking(move || secrets.get(SecretName::NodePassword)).await;
        let password = match password {
            Ok(Ok(Some(password))) => password,
            Ok(Ok(None)) => {
                return self.set_unpaired(Unpaired::NoPassword { url: paired.url });
            }
            Ok(Err(e)) => return self.set_unpaired(Unpaired::PasswordUnreadable(e.to_string())),
            Err(e) => return self.set_unpaired(Unpaired::PasswordUnreadable(e.to_string())),
        };
        match client_for(&paired, password.clone()) {
            Ok(client) => {
                let info = NodeInfo { url: paired.url.clone(), fingerprint: paired.fingerprint.clone(), demo: false };
                if let Err(e) = self.connect(client, info, password.expose().clone()).await {
                    self.set_unpaired(Unpaired::Connect(format!("{e:#}")));
                }
            }
            Err(e) => self.set_unpaired(Unpaired::Unusable { url: paired.url, error: e.to_string() }),
        }
    }

    /// Makes `client` the node the assistant works on, with a chain built from the current settings.
    pub async fn connect(&self, client: NodeClient, info: NodeInfo, password: String) -> anyhow::Result<()> {
        let link = NodeLink { client: Arc::new(client), known: vec![KnownSecret::new("node-password", password)] };
        let agent = self.build_agent(&link).await?;
        *self.link.write().unwrap_or_else(|p| p.into_inner()) = Some(link);
        *self.agent.write().unwrap_or_else(|p| p.into_inner()) = Some(Arc::new(agent));
        *self.node.write().unwrap_or_else(|p| p.into_inner()) = Some(info);
        Ok(())
    }

    /// Builds the chain again for the same node, after the allowance or the Routstr options changed. Callers hold
    /// the turn slot, so no turn pays from the budget instance being replaced. Without a node, nothing to do.
    pub async fn rebuild(&self) -> anyhow::Result<()> {
        let link = {
            let guard = self.link.read().unwrap_or_else(|p| p.into_inner());
            guard.as_ref().map(|l| NodeLink { client: l.client.clone(), known: l.known.clone() })
        };
        let Some(link) = link else { return Ok(()) };
        let agent = self.build_agent(&link).await?;
        *self.agent.write().unwrap_or_else(|p| p.into_inner()) = Some(Arc::new(agent));
        Ok(())
    }

    async fn build_agent(&self, link: &NodeLink) -> anyhow::Result<Agent> {
        let settings = self.leg_settings()?;
        let built = {
            // One wallet and one budget store for the whole shell: the chain shares the settings window's.
            let mut wallet = self.wallet.lock().await;
            let reuse = Reuse {
                budget: Some(self.budget()),
                claude_allowance: Some(self.claude_allowance()),
                wallet: wallet.clone(),
            };
            let built = build_chain(&settings, self.secrets.clone(), &self.data.0, reuse)
                .await
                .context("building the backends")?;
            if built.wallet.is_some() {
                wallet.clone_from(&built.wallet);
            }
            built
        };
        for notice in &built.notices {
            tracing::warn!(%notice, "chain");
        }
        // The chain's own notices are made anew; the money notices (write-offs, refused change) live in the ledger,
        // so a rebuild shows them again rather than losing what the background reconcile had added.
        let mut shown = built.notices;
        // Claude's money notices (a dead process's request counted at its worst case, usage above a reservation) are
        // kept beside its allowance for the same reason.
        for notice in built.claude_allowance.recent_notices(RECENT_MONEY_NOTICES) {
            let text = notice.text(self.locale());
            if !shown.contains(&text) {
                shown.push(text);
            }
        }
        if let Some(payments) = &built.payments {
            match payments.recent_notices(RECENT_MONEY_NOTICES) {
                Ok(money) => {
                    let locale = self.locale();
                    for notice in money {
                        let text = notice.text_in(locale);
                        if !shown.contains(&text) {
                            shown.push(text);
                        }
                    }
                }
                Err(e) => tracing::warn!(error = %e, "the money notices could not be read"),
            }
        }
        *self.notices.write().unwrap_or_else(|p| p.into_inner()) = shown;
        let reconciler = built.payments.as_ref().map(|payments| {
            let notices = self.notices.clone();
            payments.reconcile_in_background(RECONCILE_EVERY, move |told| {
                notices.write().unwrap_or_else(|p| p.into_inner()).extend(told);
            })
        });
        if let Some(previous) =
            std::mem::replace(&mut *self.reconciler.lock().unwrap_or_else(|p| p.into_inner()), reconciler)
        {
            previous.abort();
        }
        *self.discovery.write().unwrap_or_else(|p| p.into_inner()) = built.discovery;
        *self.chain_payments.write().unwrap_or_else(|p| p.into_inner()) = built.payments.clone();
        Ok(Agent::new(
            link.client.clone(),
            built.chain,
            self.gate.clone(),
            self.store.clone(),
            self.config.clone(),
            link.known.clone(),
        )
        .with_budget(built.budget))
    }

    /// The legs from the command line and the Routstr options from the config file.
    pub fn leg_settings(&self) -> anyhow::Result<LegSettings> {
        let config = ShellConfig::load(&self.data.0)?;
        let locale = config.locale();
        let options = config.routstr;
        let discovery = DiscoveryConfig {
            socks_proxy: options.tor_socks,
            review_mode: if options.reviewed_only { ReviewMode::ReviewedOnly } else { ReviewMode::Any },
            reviewer: options.reviewer,
            ..DiscoveryConfig::default()
        };
        Ok(LegSettings {
            ollama: OllamaConfig {
                url: self.legs.ollama.clone(),
                model: self.legs.ollama_model.clone(),
                ..OllamaConfig::default()
            },
            claude: ClaudeConfig { base_url: self.legs.claude_url.clone(), ..ClaudeConfig::default() },
            routstr: RoutstrConfig { tor_socks: options.tor_socks, ..RoutstrConfig::default() },
            discovery,
            builtin: BuiltinConfig {
                enabled: !config.builtin_model_off,
                scorer: self
                    .legs
                    .model_data_dir
                    .as_deref()
                    .map(|dir| aiui_llama::SmolLm::shared_for_data_dir(dir) as _),
                lexical: true,
            },
            locale,
        })
    }

    /// Why the built-in model cannot answer even when switched on (not in this build, model file missing, CPU), in
    /// the owner's language; `None` when it can.
    pub fn builtin_unavailable(&self) -> Option<String> {
        use aiui_core::backends::builtin::IntentScorer;
        let locale = self.locale();
        match self.legs.model_data_dir.as_deref() {
            None => Some(aiui_core::i18n::text(locale, "builtin-not-built", &[])),
            Some(dir) => aiui_llama::SmolLm::shared_for_data_dir(dir).ready_in(locale).err(),
        }
    }

    /// The paid leg's `Payments`, when there is a paid leg.
    pub(crate) fn chain_payments(&self) -> Option<Arc<aiui_core::pay::Payments>> {
        self.chain_payments.read().unwrap_or_else(|p| p.into_inner()).clone()
    }

    /// The allowance the agent pays from.
    pub fn budget(&self) -> Arc<BudgetStore> {
        self.budget.read().unwrap_or_else(|p| p.into_inner()).clone()
    }

    /// Claude's USD allowance, which the agent's Claude leg pays from.
    pub fn claude_allowance(&self) -> Arc<ClaudeAllowance> {
        self.claude_allowance.clone()
    }

    /// What the last chain build said the owner should know.
    pub fn notices(&self) -> Vec<String> {
        self.notices.read().unwrap_or_else(|p| p.into_inner()).clone()
    }

    /// What the paid leg's latest discovery found and refused, if it has run.
    pub fn discovery_report(&self) -> Option<DiscoveryReport> {
        self.discovery.read().unwrap_or_else(|p| p.into_inner()).as_ref()?.last_report()
    }

    fn set_unpaired(&self, reason: Unpaired) {
        tracing::warn!(reason = %reason.text(aiui_core::i18n::Locale::En), "no node");
        *self.unpaired_reason.write().unwrap_or_else(|p| p.into_inner()) = reason;
    }

    pub fn agent(&self) -> Option<Arc<Agent>> {
        self.agent.read().unwrap_or_else(|p| p.into_inner()).clone()
    }

    pub fn node(&self) -> Option<NodeInfo> {
        self.node.read().unwrap_or_else(|p| p.into_inner()).clone()
    }

    /// Why there is no node to talk to, in the owner's language now.
    pub fn unpaired_reason(&self) -> String {
        self.unpaired_reason.read().unwrap_or_else(|p| p.into_inner()).text(self.locale())
    }

    /// The language of the host's text now (the owner's pick, else the system's).
    pub fn locale(&self) -> aiui_core::i18n::Locale {
        self.config.read().unwrap_or_else(|p| p.into_inner()).locale
    }

    /// Takes the one turn slot, with the Stop the chat window's Stop button reaches; `None` while another turn
    /// runs.
    pub fn begin_turn(&self) -> Option<TurnSlot> {
        self.busy.compare_exchange(false, true, Ordering::AcqRel, Ordering::Acquire).ok()?;
        let stop = aiui_core::agent::Stop::new();
        *self.current_stop.lock().unwrap_or_else(|p| p.into_inner()) = Some(stop.clone());
        Some(TurnSlot { busy: self.busy.clone(), stop })
    }

    /// Stops the running turn, if there is one; returns whether there was.
    pub fn stop_turn(&self) -> bool {
        let current = self.current_stop.lock().unwrap_or_else(|p| p.into_inner()).clone();
        current.map(|stop| stop.stop()).is_some()
    }

    /// Stops the demo node, if any, at exit.
    pub fn shutdown(&self) {
        if let Some(demo) = self.demo.lock().unwrap_or_else(|p| p.into_inner()).take() {
            tauri::async_runtime::block_on(demo.node.shutdown());
        }
    }
}

/// Held while a turn runs; frees the slot when dropped.
pub struct TurnSlot {
    busy: Arc<AtomicBool>,
    pub stop: aiui_core::agent::Stop,
}

impl Drop for TurnSlot {
    fn drop(&mut self) {
        self.busy.store(false, Ordering::Release);
    }
}

/// A node client for a paired node: https needs the accepted fingerprint.
pub fn client_for(paired: &PairedNode, password: Secret<String>) -> anyhow::Result<NodeClient> {
    let url: url::Url = paired.url.parse().context("the node address")?;
    let mut config = NodeConfig::new(url);
    if let Some(fingerprint) = &paired.fingerprint {
        let pin: Fingerprint = fingerprint.parse().map_err(|e| anyhow::anyhow!("the accepted fingerprint: {e}"))?;
        config = config.with_pin(pin);
    }
    Ok(NodeClient::new(config, Credentials { password, totp: None })?)
}

/// Why the shell has no node, kept as what happened so it is said in the language the owner reads when asked.
#[derive(Debug, Clone)]
enum Unpaired {
    NotYet,
    /// The config file could not be read (its own words).
    Config(String),
    NoPassword {
        url: String,
    },
    PasswordUnreadable(String),
    /// Connecting failed (the node client's words).
    Connect(String),
    Unusable {
        url: String,
        error: String,
    },
}

impl Unpaired {
    fn text(&self, locale: aiui_core::i18n::Locale) -> String {
        use aiui_core::i18n::text;
        match self {
            Self::NotYet => text(locale, "error-unpaired-not-yet", &[]),
            Self::Config(error) | Self::Connect(error) => error.clone(),
            Self::NoPassword { url } => text(locale, "error-unpaired-no-password", &[("url", url.as_str().into())]),
            Self::PasswordUnreadable(error) => {
                text(locale, "error-unpaired-password", &[("error", error.as_str().into())])
            }
            Self::Unusable { url, error } => text(
                locale,
                "error-unpaired-unusable",
                &[("url", url.as_str().into()), ("error", error.as_str().into())],
            ),
        }
    }
}
