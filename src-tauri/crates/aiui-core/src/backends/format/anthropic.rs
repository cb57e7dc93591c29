//! The Anthropic Messages wire: `tool_use` blocks out, `tool_result` blocks (in a user message) back.

use std::collections::BTreeMap;

use serde_json::{Value, json};

use super::{history_arguments, object, object_arguments, string_arguments};
use crate::backends::stream::StreamFault;
use crate::backends::{BackendId, ChatRequest, Cost, Message, ToolCall, Turn, Usage};
use crate::egress::Origin;

pub fn request(req: &ChatRequest, model: &str) -> Value {
    // The API wants user and assistant turns to alternate, so consecutive user-side blocks (tool results, then
    // perhaps the owner's next words) are merged into one user message.
    // Built from the values themselves: `json!` would copy each string through serde's serializer, and a long
    // conversation's window is built every step.
    let text_block = |text: &str| object([("type", Value::from("text")), ("text", Value::from(text))]);
    let mut messages: Vec<Value> = Vec::new();
    for message in &req.messages {
        let (role, blocks) = match message {
            Message::User { text } => ("user", vec![text_block(text)]),
            Message::Assistant { text, tool_calls } => {
                let mut blocks = Vec::new();
                if !text.is_empty() {
                    blocks.push(text_block(text));
                }
                for c in tool_calls {
                    let input = history_arguments(&c.arguments);
                    blocks.push(object([
                        ("type", Value::from("tool_use")),
                        ("id", Value::from(c.id.as_str())),
                        ("name", Value::from(c.name.as_str())),
                        ("input", input),
                    ]));
                }
                ("assistant", blocks)
            }
            Message::ToolResult { call_id, content, is_error, .. } => (
                "user",
                vec![object([
                    ("type", Value::from("tool_result")),
                    ("tool_use_id", Value::from(call_id.as_str())),
                    ("content", Value::from(content.as_str())),
                    ("is_error", Value::Bool(*is_error)),
                ])],
            ),
        };
        match messages.last_mut() {
            Some(last) if last["role"] == role => {
                if let Some(content) = last["content"].as_array_mut() {
                    content.extend(blocks);
                }
            }
            _ => messages.push(object([("role", Value::from(role)), ("content", Value::Array(blocks))])),
        }
    }
    let tools: Vec<Value> = req
        .tools
        .iter()
        .map(|t| {
            object([
                ("name", json!(t.name)),
                ("description", json!(t.description)),
                ("input_schema", t.parameters.clone()),
            ])
        })
        .collect();
    object([
        ("model", json!(model)),
        ("max_tokens", json!(req.max_tokens)),
        ("system", json!(req.system)),
        ("messages", Value::Array(messages)),
        ("tools", Value::Array(tools)),
    ])
}

pub fn response(body: &Value, model: &str) -> Result<Turn, String> {
    let content = body.get("content").and_then(Value::as_array).ok_or("no `content` array in the reply")?;
    let mut text = String::new();
    let mut tool_calls = Vec::new();
    for block in content {
        match block.get("type").and_then(Value::as_str) {
            Some("text") => text.push_str(block.get("text").and_then(Value::as_str).unwrap_or_default()),
            Some("tool_use") => {
                let id = block.get("id").and_then(Value::as_str).ok_or("a tool_use block without an id")?;
                let name = block.get("name").and_then(Value::as_str).ok_or("a tool_use block without a name")?;
                let arguments = object_arguments(block.get("input").unwrap_or(&Value::Null));
                tool_calls.push(ToolCall { id: id.to_owned(), name: name.to_owned(), arguments });
            }
            // Thinking and other block types carry nothing the loop uses.
            _ => {}
        }
    }
    let mut usage = Usage::default();
    read_usage(&mut usage, body.get("usage"));
    Ok(turn(text, tool_calls, usage, model))
}

/// Reads a `usage` object into `into`. The counts are cumulative: a later event's count replaces an earlier one, and
/// a count an event leaves out keeps its earlier value (`message_delta` often carries only `output_tokens`).
fn read_usage(into: &mut Usage, usage: Option<&Value>) {
    let Some(usage) = usage else { return };
    let count = |field: &str| usage.get(field).and_then(Value::as_u64);
    if let Some(n) = count("input_tokens") {
        into.input_tokens = n;
    }
    if let Some(n) = count("output_tokens") {
        into.output_tokens = n;
    }
    if let Some(n) = count("cache_creation_input_tokens") {
        into.cache_write_tokens = n;
    }
    if let Some(n) = count("cache_read_input_tokens") {
        into.cache_read_tokens = n;
    }
}

fn turn(text: String, tool_calls: Vec<ToolCall>, usage: Usage, model: &str) -> Turn {
    Turn {
        text,
        tool_calls,
        usage,
        // Priced by the Claude leg, which holds the price table and the allowance.
        cost: Cost::Free,
        notices: Vec::new(),
        choices: Vec::new(),
        backend: BackendId::Claude { model: model.to_owned() },
    }
}

/// Builds the same [`Turn`] as [`response`] from a streamed Messages reply (`"stream": true`), one server-sent
/// event at a time. A tool call enters the turn only at its block's `content_block_stop`, its `partial_json`
/// pieces parsed then, once.
#[derive(Debug, Default)]
pub struct StreamAssembler {
    /// Blocks started and not yet stopped, by index.
    open: BTreeMap<u64, Block>,
    /// Finished tool calls by block index, so they come out in the order of the content, as in [`response`].
    tool_calls: BTreeMap<u64, ToolCall>,
    text: String,
    usage: Usage,
    stopped: bool,
    /// A content block (text, a tool call, thinking) has begun: the model has produced output.
    output_started: bool,
}

#[derive(Debug)]
enum Block {
    Text,
    ToolUse {
        id: String,
        name: String,
        json: String,
    },
    /// Thinking and other block types: their deltas carry nothing the loop uses.
    Other,
}

impl StreamAssembler {
    /// Whether any content block began, visible or not (a tool call's input and thinking are output tokens too).
    pub fn output_started(&self) -> bool {
        self.output_started
    }

    /// Takes one event (`event:` name and `data:`); returns the visible text it adds.
    pub fn push(&mut self, event: &str, data: &str) -> Result<Option<String>, StreamFault> {
        let malformed = |detail: String| StreamFault::Malformed(detail);
        let data: Value = serde_json::from_str(data)
            .map_err(|e| malformed(format!("the data of a `{event}` event is not JSON ({e})")))?;
        let kind = data.get("type").and_then(Value::as_str).unwrap_or(event);
        if self.stopped && kind != "ping" {
            return Err(malformed(format!("a `{kind}` event came after `message_stop`")));
        }
        let index = || {
            data.get("index")
                .and_then(Value::as_u64)
                .ok_or_else(|| malformed(format!("a `{kind}` event without an index")))
        };
        match kind {
            "error" => {
                let (kind, message) = error(&data).unwrap_or_else(|| ("error".into(), String::new()));
                return Err(StreamFault::Reported { kind, message });
            }
            "message_start" => {
                let usage = data.pointer("/message/usage");
                self.read_usage(usage);
            }
            "content_block_start" => {
                self.output_started = true;
                let index = index()?;
                let block = data
                    .get("content_block")
                    .ok_or_else(|| malformed("a block start without `content_block`".into()))?;
                let (block, text) = match block.get("type").and_then(Value::as_str) {
                    Some("text") => (Block::Text, block.get("text").and_then(Value::as_str).unwrap_or_default()),
                    Some("tool_use") => {
                        let id = block
                            .get("id")
                            .and_then(Value::as_str)
                            .ok_or_else(|| malformed("a tool_use block without an id".into()))?;
                        let name = block
                            .get("name")
                            .and_then(Value::as_str)
                            .ok_or_else(|| malformed("a tool_use block without a name".into()))?;
                        (Block::ToolUse { id: id.to_owned(), name: name.to_owned(), json: String::new() }, "")
                    }
                    _ => (Block::Other, ""),
                };
                if self.open.insert(index, block).is_some() || self.tool_calls.contains_key(&index) {
                    return Err(malformed(format!("block {index} started twice")));
                }
                return Ok(self.show(text));
            }
            "content_block_delta" => {
                let index = index()?;
                let delta = data.get("delta").ok_or_else(|| malformed("a block delta without `delta`".into()))?;
                let block = self
                    .open
                    .get_mut(&index)
                    .ok_or_else(|| malformed(format!("a delta for block {index}, which is not open")))?;
                match (delta.get("type").and_then(Value::as_str), block) {
                    (Some("text_delta"), Block::Text) => {
                        let text = delta.get("text").and_then(Value::as_str).unwrap_or_default().to_owned();
                        return Ok(self.show(&text));
                    }
                    (Some("input_json_delta"), Block::ToolUse { json, .. }) => {
                        json.push_str(delta.get("partial_json").and_then(Value::as_str).unwrap_or_default());
                    }
                    (Some(t @ ("text_delta" | "input_json_delta")), _) => {
                        return Err(malformed(format!("a {t} for block {index}, which is another kind of block")));
                    }
                    // Thinking, signature, citations and delta types added later.
                    _ => {}
                }
            }
            "content_block_stop" => {
                let index = index()?;
                match self.open.remove(&index) {
                    Some(Block::ToolUse { id, name, json }) => {
                        // A tool without parameters may get no input pieces at all.
                        let arguments = if json.trim().is_empty() {
                            Ok(Value::Object(Default::default()))
                        } else {
                            string_arguments(&json)
                        };
                        self.tool_calls.insert(index, ToolCall { id, name, arguments });
                    }
                    Some(_) => {}
                    None => return Err(malformed(format!("a stop for block {index}, which is not open"))),
                }
            }
            "message_delta" => self.read_usage(data.get("usage")),
            "message_stop" => {
                if let Some(index) = self.open.keys().next() {
                    return Err(malformed(format!("`message_stop` came while block {index} was still open")));
                }
                self.stopped = true;
            }
            // `ping`, and event types the API adds later.
            _ => {}
        }
        Ok(None)
    }

    fn read_usage(&mut self, usage: Option<&Value>) {
        read_usage(&mut self.usage, usage);
    }

    fn show(&mut self, text: &str) -> Option<String> {
        self.text.push_str(text);
        (!text.is_empty()).then(|| text.to_owned())
    }

    /// Whether `message_stop` has come.
    pub fn is_complete(&self) -> bool {
        self.stopped
    }

    /// The whole answer, or why the stream did not give one.
    pub fn finish(self, model: &str) -> Result<Turn, String> {
        if !self.stopped {
            return Err(match self.open.values().find(|b| matches!(b, Block::ToolUse { .. })) {
                Some(Block::ToolUse { name, .. }) => format!("the stream ended inside the `{name}` tool call"),
                _ => "the stream ended before `message_stop`".into(),
            });
        }
        Ok(turn(self.text, self.tool_calls.into_values().collect(), self.usage, model))
    }
}

/// The HTTP status a non-streamed reply would have had for an `error` event's type, so an error inside a stream
/// is judged as the same error before one would be.
pub fn status_of_error(kind: &str) -> u16 {
    match kind {
        "invalid_request_error" => 400,
        "authentication_error" => 401,
        "billing_error" => 402,
        "permission_error" => 403,
        "not_found_error" => 404,
        "request_too_large" => 413,
        "rate_limit_error" => 429,
        "overloaded_error" => 529,
        // `api_error` and types added later: the server's failure.
        _ => 500,
    }
}

/// The `error.type` and `error.message` of an Anthropic error body, if it is one.
pub fn error(body: &Value) -> Option<(String, String)> {
    let error = body.get("error")?;
    Some((
        error.get("type").and_then(Value::as_str).unwrap_or("error").to_owned(),
        error.get("message").and_then(Value::as_str).unwrap_or_default().to_owned(),
    ))
}

/// The origin of a string in a Messages body: a `tool_result` block is a tool result, other user blocks are the
/// owner's words, assistant blocks are the model's, and everything else (system prompt, tool schemas) is ours.
pub fn origin_of(body: &Value, pointer: &str) -> Origin {
    let parts: Vec<&str> = pointer.trim_start_matches('/').split('/').collect();
    let ["messages", index, rest @ ..] = parts.as_slice() else { return Origin::System };
    let Some(message) = index.parse::<usize>().ok().and_then(|i| body["messages"].get(i)) else {
        return Origin::System;
    };
    let block_type = match rest {
        ["content", block, ..] => block.parse::<usize>().ok().and_then(|b| message["content"][b]["type"].as_str()),
        _ => None,
    };
    match (message["role"].as_str(), block_type) {
        (Some("user"), Some("tool_result")) => Origin::ToolResult,
        (Some("user"), _) => Origin::Owner,
        (Some("assistant"), _) => Origin::Assistant,
        _ => Origin::System,
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::backends::{Message, ToolCall};

    /// Feeds `(event, data)` pairs; the deltas, then what `finish` makes of it.
    fn assemble(events: &[(&str, Value)]) -> Result<(Vec<String>, Result<Turn, String>), StreamFault> {
        let mut assembler = StreamAssembler::default();
        let mut deltas = Vec::new();
        for (event, data) in events {
            deltas.extend(assembler.push(event, &data.to_string())?);
        }
        Ok((deltas, assembler.finish("claude-x")))
    }

    fn tool_block(index: u64, pieces: &[&str]) -> Vec<(&'static str, Value)> {
        let mut events = vec![(
            "content_block_start",
            json!({"type": "content_block_start", "index": index, "content_block": {"type": "tool_use", "id": "toolu_9", "name": "package_logs", "input": {}}}),
        )];
        for piece in pieces {
            events.push((
                "content_block_delta",
                json!({"type": "content_block_delta", "index": index, "delta": {"type": "input_json_delta", "partial_json": piece}}),
            ));
        }
        events
    }

    fn stop(index: u64) -> (&'static str, Value) {
        ("content_block_stop", json!({"type": "content_block_stop", "index": index}))
    }

    fn message_stop() -> (&'static str, Value) {
        ("message_stop", json!({"type": "message_stop"}))
    }

    #[test]
    fn streamed_tool_input_is_parsed_once_at_its_stop_and_never_made_up() {
        let mut events = tool_block(0, &["{\"id\": ", "\"lnd\""]);
        events.push(stop(0));
        events.push(message_stop());
        let err = assemble(&events).unwrap().1.unwrap().tool_calls[0].arguments.clone().unwrap_err();
        assert!(err.reason.contains("not valid JSON"), "{err:?}");
        assert_eq!(err.raw, "{\"id\": \"lnd\"");
        // A block that never stops is no tool call, even if its pieces parse.
        let mut events = tool_block(0, &["{\"id\": \"lnd\"}"]);
        events.push((
            "message_delta",
            json!({"type": "message_delta", "delta": {"stop_reason": "tool_use"}, "usage": {"output_tokens": 9}}),
        ));
        let finished = assemble(&events).unwrap().1;
        assert!(finished.as_ref().unwrap_err().contains("inside the `package_logs` tool call"), "{finished:?}");
        let mut events = tool_block(0, &["{\"id\": \"lnd\"}"]);
        events.push(message_stop());
        assert!(matches!(assemble(&events), Err(StreamFault::Malformed(d)) if d.contains("still open")));
        // No pieces, or only empty ones: a tool without parameters.
        let mut events = tool_block(3, &[]);
        events.extend([stop(3), message_stop()]);
        assert_eq!(assemble(&events).unwrap().1.unwrap().tool_calls[0].arguments, Ok(json!({})));
    }

    #[test]
    fn unknown_events_and_deltas_are_ignored_and_errors_reported() {
        let events = vec![
            (
                "message_start",
                json!({"type": "message_start", "message": {"usage": {"input_tokens": 7, "output_tokens": 1}}}),
            ),
            (
                "content_block_start",
                json!({"type": "content_block_start", "index": 0, "content_block": {"type": "thinking", "thinking": ""}}),
            ),
            (
                "content_block_delta",
                json!({"type": "content_block_delta", "index": 0, "delta": {"type": "thinking_delta", "thinking": "hm"}}),
            ),
            (
                "content_block_delta",
                json!({"type": "content_block_delta", "index": 0, "delta": {"type": "signature_delta", "signature": "x"}}),
            ),
            stop(0),
            (
                "content_block_start",
                json!({"type": "content_block_start", "index": 1, "content_block": {"type": "text", "text": ""}}),
            ),
            ("future_event", json!({"type": "future_event", "anything": true})),
            (
                "content_block_delta",
                json!({"type": "content_block_delta", "index": 1, "delta": {"type": "future_delta"}}),
            ),
            (
                "content_block_delta",
                json!({"type": "content_block_delta", "index": 1, "delta": {"type": "text_delta", "text": "ok"}}),
            ),
            stop(1),
            (
                "message_delta",
                json!({"type": "message_delta", "delta": {"stop_reason": "end_turn"}, "usage": {"output_tokens": 4}}),
            ),
            message_stop(),
        ];
        let (deltas, turn) = assemble(&events).unwrap();
        let turn = turn.unwrap();
        assert_eq!((deltas, turn.text.as_str()), (vec!["ok".to_owned()], "ok"));
        assert_eq!(turn.usage, Usage { input_tokens: 7, output_tokens: 4, ..Usage::default() });
        let error = ("error", json!({"type": "error", "error": {"type": "rate_limit_error", "message": "slow down"}}));
        let reported = assemble(&[error]).unwrap_err();
        assert_eq!(reported, StreamFault::Reported { kind: "rate_limit_error".into(), message: "slow down".into() });
        assert_eq!(status_of_error("rate_limit_error"), 429);
        assert_eq!(status_of_error("overloaded_error"), 529);
        assert_eq!(status_of_error("an_error_added_later"), 500);
    }

    #[test]
    fn a_stream_out_of_order_is_not_the_wire_format() {
        let text_delta = |index: u64| {
            (
                "content_block_delta",
                json!({"type": "content_block_delta", "index": index, "delta": {"type": "text_delta", "text": "x"}}),
            )
        };
        assert!(matches!(assemble(&[text_delta(0)]), Err(StreamFault::Malformed(d)) if d.contains("not open")));
        let mut events = tool_block(0, &[]);
        events.push(text_delta(0));
        assert!(matches!(assemble(&events), Err(StreamFault::Malformed(d)) if d.contains("another kind")));
        assert!(matches!(assemble(&[stop(2)]), Err(StreamFault::Malformed(_))));
        let finished = assemble(&[("ping", json!({"type": "ping"}))]).unwrap().1;
        assert!(finished.unwrap_err().contains("before `message_stop`"));
        let mut assembler = StreamAssembler::default();
        assert!(matches!(assembler.push("message_start", "{not json"), Err(StreamFault::Malformed(_))));
    }

    #[test]
    fn tool_results_echo_the_id_and_merge_into_one_user_message() {
        let req = ChatRequest {
            system: "s".into(),
            messages: vec![
                Message::User { text: "restart lnd".into() },
                Message::Assistant {
                    text: String::new(),
                    tool_calls: vec![ToolCall {
                        id: "toolu_1".into(),
                        name: "package_restart".into(),
                        arguments: Ok(json!({"id":"lnd"})),
                    }],
                },
                Message::ToolResult {
                    call_id: "toolu_1".into(),
                    name: "package_restart".into(),
                    content: "ok".into(),
                    is_error: false,
                },
                Message::User { text: "thanks".into() },
            ],
            tools: vec![],
            max_tokens: 100,
        };
        let body = request(&req, "claude-x");
        let messages = body["messages"].as_array().unwrap();
        assert_eq!(messages.len(), 3);
        assert_eq!(messages[2]["role"], "user");
        assert_eq!(messages[2]["content"][0]["tool_use_id"], "toolu_1");
        assert_eq!(messages[2]["content"][1]["text"], "thanks");
    }
}
