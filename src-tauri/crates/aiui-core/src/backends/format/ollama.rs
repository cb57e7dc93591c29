//! The Ollama `/api/chat` wire: arguments are JSON objects, and older versions give tool calls no id.

use serde_json::{Value, json};

use super::{function_tools, history_arguments, new_call_id, object, object_arguments};
use crate::backends::stream::StreamFault;
use crate::backends::{BackendId, ChatRequest, Cost, Message, ToolCall, Turn, Usage};

pub fn request(req: &ChatRequest, model: &str) -> Value {
    let mut messages = vec![json!({"role": "system", "content": req.system})];
    for message in &req.messages {
        messages.push(match message {
            Message::User { text } => json!({"role": "user", "content": text}),
            Message::Assistant { text, tool_calls } => {
                let calls: Vec<Value> = tool_calls
                    .iter()
                    .map(|c| {
                        let function =
                            object([("name", json!(c.name)), ("arguments", history_arguments(&c.arguments))]);
                        object([("function", function)])
                    })
                    .collect();
                object([("role", json!("assistant")), ("content", json!(text)), ("tool_calls", Value::Array(calls))])
            }
            Message::ToolResult { name, content, .. } => json!({"role": "tool", "content": content, "tool_name": name}),
        });
    }
    object([
        ("model", json!(model)),
        ("messages", Value::Array(messages)),
        ("tools", function_tools(&req.tools)),
        ("stream", json!(false)),
        ("options", json!({"num_predict": req.max_tokens})),
    ])
}

pub fn response(body: &Value, model: &str) -> Result<Turn, String> {
    let message = body.get("message").ok_or("no `message` in the reply")?;
    let text = message.get("content").and_then(Value::as_str).unwrap_or_default().to_owned();
    let tool_calls = tool_calls(message)?;
    Ok(turn(text, tool_calls, usage(body), model))
}

fn tool_calls(message: &Value) -> Result<Vec<ToolCall>, String> {
    let mut tool_calls = Vec::new();
    for call in message.get("tool_calls").and_then(Value::as_array).into_iter().flatten() {
        let function = call.get("function").ok_or("a tool call without `function`")?;
        let name = function.get("name").and_then(Value::as_str).ok_or("a tool call without a name")?;
        let id = call.get("id").and_then(Value::as_str).map_or_else(new_call_id, str::to_owned);
        let arguments = object_arguments(function.get("arguments").unwrap_or(&Value::Null));
        tool_calls.push(ToolCall { id, name: name.to_owned(), arguments });
    }
    Ok(tool_calls)
}

fn usage(body: &Value) -> Usage {
    Usage {
        input_tokens: body.get("prompt_eval_count").and_then(Value::as_u64).unwrap_or(0),
        output_tokens: body.get("eval_count").and_then(Value::as_u64).unwrap_or(0),
        ..Usage::default()
    }
}

fn turn(text: String, tool_calls: Vec<ToolCall>, usage: Usage, model: &str) -> Turn {
    Turn {
        text,
        tool_calls,
        usage,
        cost: Cost::Free,
        notices: Vec::new(),
        choices: Vec::new(),
        backend: BackendId::Local { model: model.to_owned() },
    }
}

/// Builds the same [`Turn`] as [`response`] from the NDJSON lines of a streamed `/api/chat` (`"stream": true`):
/// text pieces in `message.content`, whole tool calls in `message.tool_calls`, the counts on the `done` line.
#[derive(Debug, Default)]
pub struct StreamAssembler {
    text: String,
    tool_calls: Vec<ToolCall>,
    usage: Usage,
    done: bool,
}

impl StreamAssembler {
    /// Takes one line; returns the visible text it adds.
    pub fn push(&mut self, line: &str) -> Result<Option<String>, StreamFault> {
        let malformed = |detail: String| StreamFault::Malformed(detail);
        let chunk: Value =
            serde_json::from_str(line).map_err(|e| malformed(format!("a streamed line is not JSON ({e})")))?;
        if !chunk.is_object() {
            return Err(malformed("a streamed line is not a JSON object".into()));
        }
        if let Some(error) = chunk.get("error") {
            let message = error.as_str().map_or_else(|| error.to_string(), str::to_owned);
            return Err(StreamFault::Reported { kind: "error".into(), message });
        }
        if self.done {
            return Err(malformed("a chunk came after the final one (`done: true`)".into()));
        }
        let done = chunk.get("done").and_then(Value::as_bool).unwrap_or(false);
        let delta = match chunk.get("message") {
            Some(message) => {
                self.tool_calls.extend(tool_calls(message).map_err(malformed)?);
                message.get("content").and_then(Value::as_str).filter(|t| !t.is_empty()).map(str::to_owned)
            }
            // The last line may carry only the counts; every other line is a piece of the message.
            None if done => None,
            None => return Err(malformed("a streamed chunk without `message`".into())),
        };
        if let Some(delta) = &delta {
            self.text.push_str(delta);
        }
        if done {
            self.usage = usage(&chunk);
            self.done = true;
        }
        Ok(delta)
    }

    /// Whether the final line (`done: true`) has come.
    pub fn is_complete(&self) -> bool {
        self.done
    }

    /// The whole answer, or why the stream did not give one.
    pub fn finish(self, model: &str) -> Result<Turn, String> {
        if !self.done {
            return Err("the stream ended before its final chunk (`done: true`)".into());
        }
        Ok(turn(self.text, self.tool_calls, self.usage, model))
    }
}

/// Whether `/api/show` says the model can take tool turns.
pub fn has_tools_capability(show: &Value) -> bool {
    show.get("capabilities").and_then(Value::as_array).is_some_and(|caps| caps.iter().any(|c| c == "tools"))
}

/// Model names from `/api/tags`.
pub fn model_names(tags: &Value) -> Vec<String> {
    tags.get("models")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|m| m.get("name").and_then(Value::as_str).map(str::to_owned))
        .collect()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn assigns_ids_when_ollama_gives_none_and_keeps_them_when_it_does() {
        let body = json!({"message": {"role": "assistant", "content": "", "tool_calls": [
            {"function": {"name": "package_list", "arguments": {}}},
            {"id": "call_x", "function": {"name": "package_logs", "arguments": {"id": "lnd"}}},
            {"function": {"name": "package_logs", "arguments": "lnd"}}
        ]}, "done": true, "prompt_eval_count": 10, "eval_count": 3});
        let turn = response(&body, "qwen2.5:7b").unwrap();
        assert_eq!(turn.tool_calls.len(), 3);
        assert!(turn.tool_calls[0].id.starts_with("call_"));
        assert_eq!(turn.tool_calls[1].id, "call_x");
        assert_ne!(turn.tool_calls[0].id, turn.tool_calls[2].id);
        assert!(turn.tool_calls[2].arguments.is_err(), "a string is not an argument object");
        assert_eq!(turn.usage.input_tokens, 10);
    }

    #[test]
    fn a_streamed_answer_is_the_same_turn_and_its_failures_are_named() {
        let mut assembler = StreamAssembler::default();
        let lines = [
            r#"{"message":{"role":"assistant","content":"Restarting"},"done":false}"#,
            r#"{"message":{"role":"assistant","content":"","thinking":"the owner asked"},"done":false}"#,
            r#"{"message":{"role":"assistant","content":"","tool_calls":[{"id":"call_x","function":{"name":"package_restart","arguments":{"id":"lnd"}}}]},"done":false}"#,
            r#"{"message":{"role":"assistant","content":""},"done":true,"done_reason":"stop","prompt_eval_count":10,"eval_count":3}"#,
        ];
        let deltas: Vec<Option<String>> = lines.iter().map(|l| assembler.push(l).unwrap()).collect();
        assert_eq!(deltas, [Some("Restarting".to_owned()), None, None, None]);
        assert!(assembler.is_complete());
        let turn = assembler.finish("m").unwrap();
        let whole = json!({"message": {"role": "assistant", "content": "Restarting", "tool_calls": [
            {"id": "call_x", "function": {"name": "package_restart", "arguments": {"id": "lnd"}}}
        ]}, "done": true, "prompt_eval_count": 10, "eval_count": 3});
        assert_eq!(turn, response(&whole, "m").unwrap());

        let mut assembler = StreamAssembler::default();
        assert_eq!(
            assembler.push(r#"{"error":"model 'qwen9' not found"}"#),
            Err(StreamFault::Reported { kind: "error".into(), message: "model 'qwen9' not found".into() })
        );
        assert!(matches!(assembler.push("[1]"), Err(StreamFault::Malformed(_))));
        assert!(matches!(assembler.push(r#"{"done":false}"#), Err(StreamFault::Malformed(_))));
        assembler.push(r#"{"message":{"content":"half"},"done":false}"#).unwrap();
        assert!(assembler.finish("m").unwrap_err().contains("done"));
    }
}
