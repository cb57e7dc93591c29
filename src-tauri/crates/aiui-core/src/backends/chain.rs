//! The D-04 chain: local Ollama, then Claude, then Routstr, then the built-in model. The selector walks it in order.

use std::sync::Arc;

use serde_json::Value;

use super::builtin::Builtin;
use super::claude::Claude;
use super::ollama::Ollama;
use super::routstr::Routstr;
use super::{BackendError, BackendId, ChatRequest, OnDelta, Turn};
use crate::budget::{ClaudePolicy, PaymentPolicy};
use crate::egress::Origin;
use crate::i18n::{self, Locale};
use crate::node::NodeClient;

/// One leg of the chain. An enum rather than a trait object: the legs are a closed, ordered set, and each
/// leg is one variant and one arm in each match below.
#[derive(Debug)]
pub enum Leg {
    Local(Ollama),
    Claude(Claude),
    /// Paid per request from the allowance; never considered when the turn's policy affords nothing.
    Routstr(Box<Routstr>),
    /// The small local model, last: used only when no other leg answers.
    Builtin(Builtin),
}

/// What a turn fixed at its start and every step reads: the allowances' policies, from operator config only.
#[derive(Debug, Clone)]
pub struct TurnContext {
    /// The sats allowance, for Routstr.
    pub policy: PaymentPolicy,
    /// Claude's USD allowance.
    pub claude: ClaudePolicy,
    /// The node, for the built-in leg, which resolves app names against the node's own package list.
    pub node: Option<Arc<NodeClient>>,
    /// The owner's language for the turn, from the operator config: the built-in leg's words are the host's.
    pub locale: Locale,
}

/// Why a leg was passed over for a step, and whether the owner hears it even when another leg answers (Claude's
/// allowance is used up: the owner should know why the answer came from elsewhere).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Passed {
    pub reason: String,
    pub tell_owner: bool,
}

impl Passed {
    /// Said only when no leg answers (no key, not running).
    pub fn quietly(reason: impl Into<String>) -> Self {
        Self { reason: reason.into(), tell_owner: false }
    }

    /// Said in the turn whichever leg answers.
    pub fn telling(reason: impl Into<String>) -> Self {
        Self { reason: reason.into(), tell_owner: true }
    }
}

impl Leg {
    /// The leg's name in English, for the logs.
    pub fn name(&self) -> &'static str {
        match self {
            Self::Local(_) => "local model (Ollama)",
            Self::Claude(_) => "Claude",
            Self::Routstr(_) => "Routstr",
            Self::Builtin(_) => "built-in model (SmolLM2-135M)",
        }
    }

    /// The leg's name as the owner reads it, in `locale`.
    pub fn name_in(&self, locale: Locale) -> String {
        let key = match self {
            Self::Local(_) => "leg-local",
            Self::Claude(_) => "leg-claude",
            Self::Routstr(_) => "leg-routstr",
            Self::Builtin(_) => "leg-builtin",
        };
        i18n::text(locale, key, &[])
    }

    /// Whether the body leaves this machine, and so must pass the egress screen first.
    pub fn is_cloud(&self) -> bool {
        match self {
            Self::Local(ollama) => ollama.is_cloud(),
            Self::Claude(_) | Self::Routstr(_) => true,
            // The built-in model runs in this process: nothing leaves the machine.
            Self::Builtin(_) => false,
        }
    }

    pub async fn check(&self, request: &ChatRequest, context: &TurnContext) -> Result<BackendId, Passed> {
        match self {
            Self::Local(ollama) => ollama.check().await.map_err(|down| Passed::quietly(down.text(context.locale))),
            Self::Claude(claude) => claude.check(&context.claude, context.locale).await,
            Self::Routstr(routstr) => {
                Box::pin(routstr.check_in(request, &context.policy, context.locale)).await.map_err(Passed::quietly)
            }
            Self::Builtin(builtin) => builtin.check(context.locale).map_err(Passed::quietly),
        }
    }

    /// The exact JSON body this leg would send for `request`.
    pub fn request_body(&self, id: &BackendId, request: &ChatRequest) -> Value {
        match self {
            Self::Local(ollama) => ollama.request_body(id, request),
            Self::Claude(claude) => claude.request_body(request),
            Self::Routstr(routstr) => routstr.request_body(request),
            Self::Builtin(_) => Builtin::request_body(request),
        }
    }

    /// Where a string at `pointer` in this leg's body came from, for the egress screen.
    pub fn origin_of(&self, body: &Value, pointer: &str) -> Origin {
        match self {
            Self::Local(_) => Ollama::origin_of(body, pointer),
            Self::Claude(_) => Claude::origin_of(body, pointer),
            Self::Routstr(_) => Routstr::origin_of(body, pointer),
            // Never screened (not cloud); everything in its body came from the conversation.
            Self::Builtin(_) => Ollama::origin_of(body, pointer),
        }
    }

    pub async fn send(&self, id: &BackendId, body: Value, context: &TurnContext) -> Result<Turn, BackendError> {
        match self {
            Self::Local(ollama) => ollama.send(id, body).await,
            Self::Claude(claude) => claude.send(body, &context.claude, context.locale).await,
            // Boxed: the paid path is a deep future, and it would otherwise inflate every caller's.
            Self::Routstr(routstr) => Box::pin(routstr.send(id, body, &context.policy, context.locale)).await,
            Self::Builtin(builtin) => Box::pin(builtin.send(body, context.node.as_deref(), context.locale)).await,
        }
    }

    /// [`Leg::send`], with the visible text handed to `on_delta` as it is written where the leg streams (Ollama,
    /// Claude). Routstr stays whole (a paid turn that may call a tool is asked for non-streaming, and providers
    /// buffer anyway); the built-in leg's words are the host's, shown whole.
    pub async fn send_streaming(
        &self,
        id: &BackendId,
        body: Value,
        context: &TurnContext,
        on_delta: OnDelta<'_>,
    ) -> Result<Turn, BackendError> {
        match self {
            Self::Local(ollama) => ollama.send_streaming(id, body, on_delta).await,
            Self::Claude(claude) => claude.send_streaming(body, &context.claude, context.locale, on_delta).await,
            Self::Routstr(_) | Self::Builtin(_) => self.send(id, body, context).await,
        }
    }

    /// Whether a request in flight on this leg spends money: such a request is never dropped half-way.
    pub fn is_paid(&self) -> bool {
        matches!(self, Self::Routstr(_))
    }
}

/// The legs in D-04 order.
#[derive(Debug, Default)]
pub struct Chain {
    legs: Vec<Leg>,
}

/// The leg chosen for a step, and why the legs before it were passed over (for the owner, if the step fails).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Selected {
    pub index: usize,
    pub id: BackendId,
    pub skipped: Vec<(String, String)>,
    /// What the owner hears about the legs passed over (see [`Passed::telling`]).
    pub told: Vec<String>,
}

/// How the owner enables a leg, as the windowed shells say it; the last line of [`NoBackend`]'s text, so a shell
/// with other means (a terminal) can say it in its own terms instead.
pub const ENABLE_A_LEG: &str = "To enable one: start Ollama on this machine with a tool-capable model \
    (`ollama pull qwen2.5:7b`), or add a Claude API key and a Claude allowance in the trusted settings window.";

/// No leg can answer. Carries each leg's reason, so the owner learns how to enable one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NoBackend {
    pub reasons: Vec<(String, String)>,
}

impl NoBackend {
    /// What the owner reads, in `locale`: a line, each leg and why it is not available (the legs' own words), and
    /// how to enable one (in English, exactly [`ENABLE_A_LEG`]).
    pub fn text(&self, locale: Locale) -> String {
        let mut text = i18n::text(locale, "stop-no-backend", &[]);
        text.push('\n');
        for (leg, reason) in &self.reasons {
            text.push_str(&format!("- {leg}: {reason}\n"));
        }
        text.push_str(&i18n::text(locale, "stop-enable-a-leg", &[]));
        text
    }
}

impl std::fmt::Display for NoBackend {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text(Locale::En))
    }
}

impl Chain {
    pub fn new(legs: Vec<Leg>) -> Self {
        Self { legs }
    }

    pub fn legs(&self) -> &[Leg] {
        &self.legs
    }

    /// Claude's USD allowance as the meter shows it; `None` without a Claude leg.
    pub fn claude_report(&self) -> Option<crate::budget::ClaudeReport> {
        self.legs.iter().find_map(|leg| match leg {
            Leg::Claude(claude) => Some(claude.allowance().get()),
            _ => None,
        })
    }

    /// Claude's USD allowance as a turn starting now may use; nothing without a Claude leg.
    pub fn claude_policy(&self) -> ClaudePolicy {
        self.legs
            .iter()
            .find_map(|leg| match leg {
                Leg::Claude(claude) => Some(claude.allowance().policy()),
                _ => None,
            })
            .unwrap_or_default()
    }

    /// The first usable leg at or after `from`, in order. Each leg's check is cached by the leg itself, so a dead
    /// leg costs its timeout once per liveness period, not once per turn.
    pub async fn select(
        &self,
        from: usize,
        request: &ChatRequest,
        context: &TurnContext,
    ) -> Result<Selected, NoBackend> {
        let mut reasons = Vec::new();
        let mut told = Vec::new();
        for (index, leg) in self.legs.iter().enumerate().skip(from) {
            match leg.check(request, context).await {
                Ok(id) => return Ok(Selected { index, id, skipped: reasons, told }),
                Err(Passed { reason, tell_owner }) => {
                    tracing::debug!(leg = leg.name(), %reason, "leg skipped");
                    if tell_owner {
                        told.push(reason.clone());
                    }
                    reasons.push((leg.name_in(context.locale), reason));
                }
            }
        }
        Err(NoBackend { reasons })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backends::builtin::BuiltinConfig;
    use crate::backends::ollama::OllamaConfig;

    /// A loopback address nothing listens on: bound, then closed.
    fn dead_url() -> url::Url {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        drop(listener);
        url::Url::parse(&format!("http://127.0.0.1:{port}/")).unwrap()
    }

    #[tokio::test]
    async fn why_no_leg_answers_is_said_in_the_turns_language_leg_names_and_cached_reasons_included() {
        let url = dead_url();
        let ollama = Ollama::new(OllamaConfig { url: url.clone(), ..OllamaConfig::default() }).unwrap();
        let builtin = Builtin::new(BuiltinConfig { enabled: false, ..BuiltinConfig::default() });
        let chain = Chain::new(vec![Leg::Local(ollama), Leg::Builtin(builtin)]);
        let request = ChatRequest { system: String::new(), messages: Vec::new(), tools: Vec::new(), max_tokens: 64 };
        let said = |locale| {
            let context =
                TurnContext { policy: PaymentPolicy::nothing(), claude: ClaudePolicy::default(), node: None, locale };
            let chain = &chain;
            let request = &request;
            async move { chain.select(0, request, &context).await.unwrap_err().text(locale) }
        };
        let english = said(Locale::En).await;
        assert!(english.contains(&format!("- local model (Ollama): Ollama at {url} is not answering (")), "{english}");
        assert!(english.contains("- built-in model (SmolLM2-135M): turned off in the settings\n"), "{english}");
        // The second turn reads the dead Ollama from the liveness cache, and says it in its own language.
        let german = said(Locale::De).await;
        assert!(german.starts_with("Gerade ist kein Assistenz-Backend verfügbar.\n"), "{german}");
        assert!(
            german.contains(&format!("- lokales Modell (Ollama): Ollama unter {url} antwortet nicht (")),
            "{german}"
        );
        assert!(
            german.contains("- eingebautes Modell (SmolLM2-135M): in den Einstellungen ausgeschaltet\n"),
            "{german}"
        );
        for english_words in ["is not answering", "local model", "turned off", "built-in model"] {
            assert!(!german.contains(english_words), "{english_words:?} in {german}");
        }
    }
}
