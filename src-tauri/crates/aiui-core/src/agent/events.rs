//! What a turn tells the shells as it goes: the stream every surface (desktop, kiosk, web, terminal) draws from.

use serde::Serialize;
use serde_json::Value;

use crate::backends::{BackendId, StepCost};
use crate::gate::ConfirmRequest;
use crate::tools::Surface;

/// One event of a turn, in order. A turn always ends with exactly one `Stopped` or `Done`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    /// A backend was chosen for the next step.
    BackendChosen { backend: BackendId },
    /// A piece of the model's words as a streaming leg writes them, placeholders already revealed. The `Text`
    /// that follows carries the whole answer, and is what the store keeps.
    TextDelta { text: String, backend: BackendId },
    /// The model's words for the owner.
    Text { text: String, backend: BackendId },
    /// What a step just cost (a leg on this machine: nothing), and what the turn has cost so far. Sent after every
    /// answered step, with or without text.
    Spent { backend: BackendId, step: StepCost, turn: TurnSpend },
    /// One-tap replies to the question just asked (host-written, from the built-in leg's "Did you mean …?").
    /// Sending one is the same as typing it; they are not kept with the conversation.
    Choices { choices: Vec<String> },
    /// The model asked for a tool; `arguments` are as it sent them (validated or not).
    ToolProposed { call_id: String, tool: String, arguments: Value },
    /// An action waits for the owner on the trusted surface.
    AwaitingConfirmation { request: ConfirmRequest },
    /// A card for the owner, made by the host from a tool result.
    Surface { call_id: String, surface: Surface },
    /// Something the owner should know that is not the model's answer (a redaction, a fallthrough).
    Notice { text: String },
    /// The turn ended early by design; `message` is for the owner.
    Stopped { reason: StopReason, message: String },
    /// The turn ended with the model's answer.
    Done { backend: BackendId },
}

/// What a turn's steps have cost so far, each allowance in its own unit (never converted into each other).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct TurnSpend {
    pub usd_micros: u64,
    pub sats: u64,
    /// Steps answered by a leg on this machine, at no cost.
    pub free_steps: u32,
}

impl TurnSpend {
    pub fn add(&mut self, step: &StepCost) {
        match step.cost {
            crate::backends::Cost::Free => self.free_steps += 1,
            crate::backends::Cost::Usd { micros } => self.usd_micros = self.usd_micros.saturating_add(micros),
            crate::backends::Cost::Sats { sats } => self.sats = self.sats.saturating_add(sats),
        }
    }
}

/// Why a turn ended before the model's final answer. These are designed stops, not errors.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum StopReason {
    StepLimit,
    Denied,
    Expired,
    EgressBlocked,
    NoBackend,
    BackendFailed,
    NodeFailed,
    /// The allowance cannot pay for the next paid step.
    BudgetStop,
    /// The wallet or its mint could not pay for the next paid step (the allowance would have).
    PaymentFailed,
    /// The owner pressed Stop: what was written so far is kept, marked stopped.
    Stopped,
    /// The leg failed in the middle of its answer: what it wrote is kept, marked cut off; no other leg is asked
    /// in the same turn.
    CutOff,
}
