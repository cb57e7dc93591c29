//! Language-model backends: the `Backend` trait, the normalized turn every wire format becomes, and its errors.
//!
//! One file per backend (`ollama.rs`, `claude.rs`, later `routstr.rs`); wire translation lives in `format/`.
//! The loop never sees a wire type: only [`ChatRequest`] in and [`Turn`] out.

pub mod builtin;
pub mod chain;
pub mod claude;
pub mod format;
pub mod ollama;
pub mod registry;
pub mod routstr;
pub mod stream;

use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::i18n::{self, FluentValue, Locale};

/// Which leg answered, shown to the owner with every answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum BackendId {
    /// Local Ollama, with the model that answered.
    Local {
        model: String,
    },
    Claude {
        model: String,
    },
    Routstr {
        provider: String,
        model: String,
    },
    /// The small model built into AIUI, run on this machine.
    Builtin {
        model: String,
    },
}

impl BackendId {
    /// A short label for a badge, in English: "local qwen2.5:7b", "Claude (claude-sonnet-4-5)",
    /// "Routstr provider (model)", "built-in (SmolLM2-135M)".
    pub fn label(&self) -> String {
        self.label_in(Locale::En)
    }

    /// [`BackendId::label`] in `locale` (the pages write the same `chat-backend-*` messages from this as data).
    pub fn label_in(&self, locale: Locale) -> String {
        let (key, args): (&str, Vec<(&str, FluentValue<'_>)>) = match self {
            Self::Local { model } => ("chat-backend-local", vec![("model", model.as_str().into())]),
            Self::Claude { model } => ("chat-backend-claude", vec![("model", model.as_str().into())]),
            Self::Routstr { provider, model } => {
                ("chat-backend-routstr", vec![("provider", provider.as_str().into()), ("model", model.as_str().into())])
            }
            Self::Builtin { model } => ("chat-backend-builtin", vec![("model", model.as_str().into())]),
        };
        i18n::text(locale, key, &args)
    }

    /// Cloud legs are screened by the egress screen before anything is sent.
    pub fn is_cloud(&self) -> bool {
        !matches!(self, Self::Local { .. } | Self::Builtin { .. })
    }
}

/// A tool the model may call, as offered to it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ToolDef {
    pub name: String,
    pub description: String,
    /// A JSON Schema object for the arguments.
    pub parameters: Value,
}

/// A tool call the model made. Every call has an id (assigned by the adapter when the wire gives none), and the
/// result message echoes it in each format's own field.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolCall {
    pub id: String,
    pub name: String,
    /// The parsed arguments, or why they could not be parsed. A malformed argument string is the model's
    /// mistake, reported back to it as a tool error; it is never replaced with `{}`.
    pub arguments: Result<Value, MalformedArguments>,
}

/// Arguments that arrived as something other than a JSON object.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
#[error("the arguments are not a JSON object: {reason}")]
pub struct MalformedArguments {
    pub reason: String,
    /// What the model sent, kept so the conversation history can echo it back as it was.
    pub raw: String,
}

/// One message of the normalized conversation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "role", rename_all = "snake_case")]
pub enum Message {
    /// The owner's words.
    User { text: String },
    /// What the model said, with the tool calls it made.
    Assistant { text: String, tool_calls: Vec<ToolCall> },
    /// The result of one tool call, tied to it by `call_id`.
    ToolResult { call_id: String, name: String, content: String, is_error: bool },
}

/// What the loop asks of a backend for one step.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ChatRequest {
    pub system: String,
    pub messages: Vec<Message>,
    pub tools: Vec<ToolDef>,
    pub max_tokens: u32,
}

/// Receives each visible text piece of a streamed answer, in order, as it arrives. Called on the task that reads
/// the stream, so it must return quickly (hand the piece to a channel).
pub type OnDelta<'a> = &'a (dyn Fn(&str) + Send + Sync);

/// Token counts as the backend reported them. `input_tokens` excludes the prompt-cache tokens, which Anthropic
/// reports (and prices) apart.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Usage {
    pub input_tokens: u64,
    pub output_tokens: u64,
    /// Tokens written to the prompt cache (Anthropic's `cache_creation_input_tokens`).
    #[serde(default)]
    pub cache_write_tokens: u64,
    /// Tokens read from the prompt cache (Anthropic's `cache_read_input_tokens`).
    #[serde(default)]
    pub cache_read_tokens: u64,
}

/// What one answer cost, in the unit of the allowance that paid for it. Sats and dollars are never converted into
/// each other.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "unit", rename_all = "snake_case")]
pub enum Cost {
    /// A leg on this machine (Ollama, the built-in model).
    #[default]
    Free,
    /// Claude: its priced `usage`, in millionths of a US dollar, from Claude's USD allowance.
    Usd { micros: u64 },
    /// Routstr: what left the wallet and did not come back, fees included, from the sats allowance.
    Sats { sats: u64 },
}

/// What one stored answer used and cost: the leg's token counts and the price in its allowance's unit.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct StepCost {
    pub usage: Usage,
    pub cost: Cost,
}

/// One backend answer, normalized.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Turn {
    pub text: String,
    pub tool_calls: Vec<ToolCall>,
    pub usage: Usage,
    /// What this step cost and from which allowance.
    pub cost: Cost,
    pub backend: BackendId,
    /// What the owner should hear about this step besides the answer (e.g. the allowance's 80% notice).
    pub notices: Vec<String>,
    /// Replies the owner can send with one tap when the leg asks which of a few things was meant; host-written.
    pub choices: Vec<String>,
}

/// Why a backend step failed. The loop branches on these: `Unavailable` hands the same step to the next leg.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum BackendError {
    /// Not reachable or not usable now (refused, timeout, 5xx, overloaded, no tool-capable model, no key).
    #[error("{backend} is unavailable: {reason}")]
    Unavailable { backend: String, reason: String },
    /// The credentials were refused.
    #[error("{backend} refused the credentials: {reason}")]
    Auth { backend: String, reason: String },
    #[error("{backend} is rate limiting requests")]
    RateLimited { backend: String, retry_after: Option<Duration> },
    /// A paid leg wants payment it did not get.
    #[error("{backend} wants payment: {reason}")]
    PaymentRequired { backend: String, reason: String },
    /// The conversation no longer fits the model's context window.
    #[error("the conversation is too long for {backend}")]
    ContextTooLong { backend: String },
    /// The allowance cannot pay for this step. A designed stop: no retry, no other provider, no other price.
    #[error("{message}")]
    BudgetStop { message: String },
    /// The allowance would cover it, but the wallet or its mint could not pay (a mint that is down, too little
    /// ecash, no common mint). Also a designed stop: nothing was spent, and no other leg is tried with the money.
    #[error("{message}")]
    PaymentFailed { message: String },
    /// This leg's own allowance cannot cover the request's worst case, so it was not sent. The step goes on to the
    /// next leg, which either costs nothing or pays from an allowance of its own.
    #[error("{message}")]
    OverAllowance { backend: String, message: String },
    /// The backend answered something that is not its wire format.
    #[error("{backend} answered something unexpected: {detail}")]
    Protocol { backend: String, detail: String },
    /// A streamed answer stopped mid-way after some of its text was already shown: `partial` is that text. Not
    /// handed to the next leg, which would answer again from the start beside what the owner already read.
    #[error("{backend}'s answer was cut off mid-way: {reason}")]
    CutOff { backend: String, reason: String, partial: String },
}

impl BackendError {
    /// Whether the next leg should get the same step: the failure is this leg's, not the request's.
    pub fn falls_through(&self) -> bool {
        matches!(
            self,
            Self::Unavailable { .. } | Self::Auth { .. } | Self::RateLimited { .. } | Self::OverAllowance { .. }
        )
    }
}

/// A language-model leg.
#[allow(async_fn_in_trait)]
pub trait Backend: Send + Sync {
    /// A short name for logs and errors ("ollama", "claude").
    fn name(&self) -> &str;

    /// Whether this leg can take a tool turn now. Cheap when cached. Never errors: an unusable leg says why in
    /// `Err(reason)`, which the selector reports if every leg is unusable.
    fn check(&self) -> impl Future<Output = Result<(), String>> + Send;

    /// One step of the conversation.
    ///
    /// Errors: `Unavailable`, `Auth` and `RateLimited` mean "try the next leg"; `Protocol` and `ContextTooLong`
    /// end the turn with a message.
    fn chat(&self, request: &ChatRequest) -> impl Future<Output = Result<Turn, BackendError>> + Send;
}

#[cfg(test)]
mod tests {
    use super::*;

    fn every_leg() -> [BackendId; 4] {
        [
            BackendId::Local { model: "qwen2.5:7b".into() },
            BackendId::Claude { model: "claude-sonnet-4-5".into() },
            BackendId::Routstr { provider: "https://p.example".into(), model: "gpt-4o-mini".into() },
            BackendId::Builtin { model: "SmolLM2-135M".into() },
        ]
    }

    /// The terminal, the audit log and the stored conversations keep the English labels byte for byte.
    #[test]
    fn the_english_label_is_unchanged() {
        let labels: Vec<String> = every_leg().iter().map(BackendId::label).collect();
        assert_eq!(
            labels,
            [
                "local qwen2.5:7b",
                "Claude (claude-sonnet-4-5)",
                "Routstr https://p.example (gpt-4o-mini)",
                "built-in (SmolLM2-135M)"
            ]
        );
    }

    #[test]
    fn the_label_is_in_the_owners_language_and_keeps_the_names() {
        let german = every_leg()[0].label_in(Locale::De);
        assert_eq!(german, "lokal qwen2.5:7b");
        assert_eq!(every_leg()[3].label_in(Locale::Es), "integrado (SmolLM2-135M)");
        for leg in every_leg() {
            let pseudo = leg.label_in(Locale::Pseudo);
            assert_ne!(pseudo, leg.label(), "{leg:?} bypasses the catalogue");
            let model = match &leg {
                BackendId::Local { model }
                | BackendId::Claude { model }
                | BackendId::Routstr { model, .. }
                | BackendId::Builtin { model } => model,
            };
            // A model's name is data: never accented, never translated.
            assert!(pseudo.contains(model.as_str()), "{pseudo}");
        }
    }
}
