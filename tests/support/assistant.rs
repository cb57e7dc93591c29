//! An assistant wired to a devnode and to wire servers, with helpers to run a turn and answer its confirmations.

use std::sync::{Arc, RwLock};
use std::time::Duration;

use aiui_core::Secret;
use aiui_core::agent::{Agent, Event, OperatorConfig, TurnOutcome};
use aiui_core::backends::chain::{Chain, Leg};
use aiui_core::backends::claude::{Claude, ClaudeConfig, ClaudeSpend};
use aiui_core::backends::ollama::{Ollama, OllamaConfig};
use aiui_core::budget::{ClaudeAllowance, ClaudeUpdate, Period};
use aiui_core::egress::KnownSecret;
use aiui_core::gate::{AuditLog, Decision, Gate};
use aiui_core::i18n::Locale;
use aiui_core::pricing::Prices;
use aiui_core::secrets::{SecretName, Secrets};
use aiui_core::store::{ConversationId, Store};
use tempfile::TempDir;

use super::{PASSWORD, TestNode, client_for, credentials, start};

/// The API key the Claude wire server expects.
pub const API_KEY: &str = "sk-ant-api03-test-key-for-the-wire-server-000000000000";

pub struct Harness {
    pub agent: Arc<Agent>,
    pub node: TestNode,
    pub data: TempDir,
    pub conversation: ConversationId,
}

/// Which legs exist, and where they point.
pub struct Legs {
    pub ollama: Option<String>,
    pub claude: Option<String>,
}

pub fn ollama_leg(url: &str) -> Leg {
    Leg::Local(
        Ollama::new(OllamaConfig {
            url: url.parse().unwrap(),
            connect_timeout: Duration::from_millis(200),
            ..OllamaConfig::default()
        })
        .unwrap(),
    )
}

/// The USD allowance the Claude tests that are not about money run with: far more than any test spends.
pub const AMPLE_USD_MICROS: u64 = 100_000_000;

/// A Claude allowance of `usd_micros` in a data dir of its own (kept for the test process's life), priced from the
/// shipped table.
pub fn claude_spend(usd_micros: u64) -> ClaudeSpend {
    let dir = tempfile::tempdir().unwrap().keep();
    let allowance = ClaudeAllowance::open(&dir).unwrap();
    allowance.set(ClaudeUpdate { allowance_usd_micros: Some(usd_micros), period: Some(Period::Never) }).unwrap();
    ClaudeSpend { allowance: Arc::new(allowance), prices: Prices::shipped() }
}

pub fn claude_leg(url: &str, key: Option<&str>) -> Leg {
    claude_leg_paid_from(url, key, claude_spend(AMPLE_USD_MICROS))
}

/// A Claude leg paying from `spend`.
pub fn claude_leg_paid_from(url: &str, key: Option<&str>, spend: ClaudeSpend) -> Leg {
    let secrets = Secrets::in_memory();
    if let Some(key) = key {
        secrets.set(SecretName::AnthropicApiKey, &Secret::from(key)).unwrap();
    }
    let config = ClaudeConfig { base_url: url.parse().unwrap(), ..ClaudeConfig::default() };
    Leg::Claude(Claude::new(config, Arc::new(secrets), spend).unwrap())
}

pub async fn harness(legs: Legs) -> Harness {
    let mut chain = Vec::new();
    if let Some(url) = &legs.ollama {
        chain.push(ollama_leg(url));
    }
    if let Some(url) = &legs.claude {
        chain.push(claude_leg(url, Some(API_KEY)));
    }
    harness_with(Chain::new(chain), Duration::from_secs(30)).await
}

pub async fn harness_with(chain: Chain, confirm_ttl: Duration) -> Harness {
    harness_full(chain, confirm_ttl, None, |_| {}).await
}

/// A harness with an allowance, and a devnode set up by `tweak` (e.g. to list the test mint).
pub async fn harness_full(
    chain: Chain,
    confirm_ttl: Duration,
    budget: Option<Arc<aiui_core::budget::BudgetStore>>,
    tweak: impl FnOnce(&mut archy_devnode::DevNodeConfig),
) -> Harness {
    let node = start(tweak).await;
    let data = tempfile::tempdir().unwrap();
    let client = Arc::new(client_for(&node.node, credentials(PASSWORD)));
    let gate = Arc::new(Gate::new(AuditLog::open(&data.path().join("audit.jsonl")).unwrap(), confirm_ttl));
    let store = Arc::new(Store::open(&data.path().join("conversations.sqlite3")).unwrap());
    let conversation = store.create_conversation("test").unwrap();
    let known = vec![KnownSecret::new("node-password", PASSWORD), KnownSecret::new("anthropic-api-key", API_KEY)];
    // English whatever this machine's LANG: the tests read the host's words.
    let config = Arc::new(RwLock::new(OperatorConfig { locale: Locale::En, ..OperatorConfig::default() }));
    let mut agent = Agent::new(client, chain, gate, store, config, known);
    if let Some(budget) = budget {
        agent = agent.with_budget(budget);
    }
    let agent = Arc::new(agent);
    Harness { agent, node, data, conversation }
}

impl Harness {
    /// Runs a turn; any confirmation it asks for is answered with `decision` (None: never answered).
    pub async fn turn(&self, text: &str, decision: Option<Decision>) -> (Vec<Event>, TurnOutcome) {
        let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
        let agent = self.agent.clone();
        let (conversation, text) = (self.conversation.clone(), text.to_owned());
        let turn = tokio::spawn(async move { agent.turn(&conversation, &text, &tx).await });
        let mut events = Vec::new();
        while let Some(event) = rx.recv().await {
            if let (Event::AwaitingConfirmation { request }, Some(decision)) = (&event, decision) {
                self.agent
                    .gate
                    .decide(&request.id, &request.arguments_hash, decision)
                    .expect("the decision is accepted");
            }
            events.push(event);
        }
        let outcome = turn.await.expect("the turn task").expect("the turn");
        (events, outcome)
    }

    pub fn audit_lines(&self) -> Vec<serde_json::Value> {
        let text = std::fs::read_to_string(self.data.path().join("audit.jsonl")).unwrap_or_default();
        text.lines().map(|l| serde_json::from_str(l).unwrap()).collect()
    }
}
