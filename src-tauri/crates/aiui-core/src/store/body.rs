//! The stored form of a message entry's `body_json`: the store's own types, so the file format is written here and
//! never follows an in-memory type's serde form (0.1.0 stored `backends::Message` itself, and with it a tool call's
//! `Result` as `{"Ok": …}` / `{"Err": …}`).
//!
//! A tool call is stored as `{"id", "name", "input": {"arguments": {…}}}` when its arguments parsed as a JSON
//! object, or `"input": {"refused": {"reason", "raw"}}` when they did not. The old form is still read: schema
//! migration 2 rewrites it, but a 0.1.0 process that had the file open before the upgrade can still append a row.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::backends::{Cost, MalformedArguments, Message, StepCost, ToolCall, Usage};

#[derive(Serialize, Deserialize)]
#[serde(tag = "role", rename_all = "snake_case")]
enum MessageBody {
    User {
        text: String,
    },
    Assistant {
        text: String,
        tool_calls: Vec<ToolCallBody>,
        /// Absent in rows written before answers were priced (0.2.0), and read as unknown, not as free.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        cost: Option<CostBody>,
    },
    ToolResult {
        call_id: String,
        name: String,
        content: String,
        is_error: bool,
    },
}

/// What an answer used and cost. At most one of `usd_micros` and `sats` is present; neither is a leg on this machine.
#[derive(Serialize, Deserialize)]
struct CostBody {
    input_tokens: u64,
    output_tokens: u64,
    #[serde(default)]
    cache_write_tokens: u64,
    #[serde(default)]
    cache_read_tokens: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    usd_micros: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    sats: Option<u64>,
}

impl CostBody {
    fn of(step: &StepCost) -> Self {
        let (usd_micros, sats) = match step.cost {
            Cost::Free => (None, None),
            Cost::Usd { micros } => (Some(micros), None),
            Cost::Sats { sats } => (None, Some(sats)),
        };
        let u = step.usage;
        Self {
            input_tokens: u.input_tokens,
            output_tokens: u.output_tokens,
            cache_write_tokens: u.cache_write_tokens,
            cache_read_tokens: u.cache_read_tokens,
            usd_micros,
            sats,
        }
    }

    fn step(self) -> Result<StepCost, String> {
        let cost = match (self.usd_micros, self.sats) {
            (None, None) => Cost::Free,
            (Some(micros), None) => Cost::Usd { micros },
            (None, Some(sats)) => Cost::Sats { sats },
            (Some(_), Some(_)) => return Err("an answer's cost is in two units".into()),
        };
        let usage = Usage {
            input_tokens: self.input_tokens,
            output_tokens: self.output_tokens,
            cache_write_tokens: self.cache_write_tokens,
            cache_read_tokens: self.cache_read_tokens,
        };
        Ok(StepCost { usage, cost })
    }
}

#[derive(Serialize, Deserialize)]
struct ToolCallBody {
    id: String,
    name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    input: Option<Input>,
    /// The 0.1.0 form, read only; never written.
    #[serde(default, skip_serializing)]
    arguments: Option<OldArguments>,
}

/// What the model sent for a call's arguments, as this store writes it.
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
enum Input {
    /// They parsed as a JSON object (the tool's schema is checked later, not here).
    Arguments(Value),
    /// They did not, and why; `raw` is what the model sent, echoed back to it as it was.
    Refused(Refused),
}

#[derive(Serialize, Deserialize)]
struct Refused {
    reason: String,
    raw: String,
}

/// How 0.1.0 wrote the arguments: serde's form of `Result<Value, MalformedArguments>`.
#[derive(Deserialize)]
enum OldArguments {
    Ok(Value),
    Err(Refused),
}

/// The `body_json` of a message entry; `cost` only for an assistant message.
pub(super) fn encode_message(message: &Message, cost: Option<&StepCost>) -> Result<String, serde_json::Error> {
    let body = match message {
        Message::User { text } => MessageBody::User { text: text.clone() },
        Message::Assistant { text, tool_calls } => MessageBody::Assistant {
            text: text.clone(),
            tool_calls: tool_calls
                .iter()
                .map(|call| ToolCallBody {
                    id: call.id.clone(),
                    name: call.name.clone(),
                    input: Some(match &call.arguments {
                        Ok(value) => Input::Arguments(value.clone()),
                        Err(bad) => Input::Refused(Refused { reason: bad.reason.clone(), raw: bad.raw.clone() }),
                    }),
                    arguments: None,
                })
                .collect(),
            cost: cost.map(CostBody::of),
        },
        Message::ToolResult { call_id, name, content, is_error } => MessageBody::ToolResult {
            call_id: call_id.clone(),
            name: name.clone(),
            content: content.clone(),
            is_error: *is_error,
        },
    };
    serde_json::to_string(&body)
}

/// A message entry's `body_json`, in this version's form or 0.1.0's, with the answer's cost when it was recorded;
/// the error is a reason for the log.
pub(super) fn decode_message(json: &str) -> Result<(Message, Option<StepCost>), String> {
    let body: MessageBody = serde_json::from_str(json).map_err(|e| e.to_string())?;
    Ok(match body {
        MessageBody::User { text } => (Message::User { text }, None),
        MessageBody::Assistant { text, tool_calls, cost } => {
            let tool_calls = tool_calls.into_iter().map(tool_call).collect::<Result<_, _>>()?;
            // A damaged cost is a lost label, never a lost message.
            let cost = cost.and_then(|c| c.step().inspect_err(|e| tracing::warn!(reason = %e, "dropped a cost")).ok());
            (Message::Assistant { text, tool_calls }, cost)
        }
        MessageBody::ToolResult { call_id, name, content, is_error } => {
            (Message::ToolResult { call_id, name, content, is_error }, None)
        }
    })
}

fn tool_call(body: ToolCallBody) -> Result<ToolCall, String> {
    let arguments = match (body.input, body.arguments) {
        (Some(Input::Arguments(value)), None) | (None, Some(OldArguments::Ok(value))) => Ok(value),
        (Some(Input::Refused(bad)), None) | (None, Some(OldArguments::Err(bad))) => {
            Err(MalformedArguments { reason: bad.reason, raw: bad.raw })
        }
        (None, None) => return Err(format!("tool call {:?} has no arguments", body.id)),
        (Some(_), Some(_)) => return Err(format!("tool call {:?} has its arguments twice", body.id)),
    };
    Ok(ToolCall { id: body.id, name: body.name, arguments })
}
