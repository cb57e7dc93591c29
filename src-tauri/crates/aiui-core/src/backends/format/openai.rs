//! The OpenAI chat-completions wire (Routstr and any compatible endpoint): arguments are JSON-encoded strings,
//! parsed exactly once, here.

use serde_json::{Value, json};

use super::{function_tools, history_arguments_string, object, object_arguments, string_arguments};
use crate::backends::{BackendId, ChatRequest, Cost, Message, ToolCall, Turn, Usage};
use crate::egress::Origin;

pub fn request(req: &ChatRequest, model: &str) -> Value {
    let mut messages = vec![json!({"role": "system", "content": req.system})];
    for message in &req.messages {
        messages.push(match message {
            Message::User { text } => json!({"role": "user", "content": text}),
            Message::Assistant { text, tool_calls } if tool_calls.is_empty() => {
                json!({"role": "assistant", "content": text})
            }
            Message::Assistant { text, tool_calls } => {
                let calls: Vec<Value> = tool_calls
                    .iter()
                    .map(|c| json!({"id": c.id, "type": "function", "function": {"name": c.name, "arguments": history_arguments_string(&c.arguments)}}))
                    .collect();
                let content = if text.is_empty() { Value::Null } else { json!(text) };
                object([("role", json!("assistant")), ("content", content), ("tool_calls", Value::Array(calls))])
            }
            Message::ToolResult { call_id, content, .. } => json!({"role": "tool", "tool_call_id": call_id, "content": content}),
        });
    }
    object([
        ("model", json!(model)),
        ("messages", Value::Array(messages)),
        ("tools", function_tools(&req.tools)),
        ("max_tokens", json!(req.max_tokens)),
        ("stream", json!(false)),
    ])
}

/// Parses `choices[0].message`. `backend` names the provider that answered.
pub fn response(body: &Value, backend: BackendId) -> Result<Turn, String> {
    let message = body.pointer("/choices/0/message").ok_or("no `choices[0].message` in the reply")?;
    let text = message.get("content").and_then(Value::as_str).unwrap_or_default().to_owned();
    let mut tool_calls = Vec::new();
    for call in message.get("tool_calls").and_then(Value::as_array).into_iter().flatten() {
        let id = call.get("id").and_then(Value::as_str).ok_or("a tool call without an id")?;
        let function = call.get("function").ok_or("a tool call without `function`")?;
        let name = function.get("name").and_then(Value::as_str).ok_or("a tool call without a name")?;
        let arguments = match function.get("arguments") {
            Some(Value::String(raw)) => string_arguments(raw),
            // Some upstreams send an object; accept it as it is rather than re-encoding it.
            Some(other) => object_arguments(other),
            None => object_arguments(&Value::Null),
        };
        tool_calls.push(ToolCall { id: id.to_owned(), name: name.to_owned(), arguments });
    }
    let usage = Usage {
        input_tokens: body.pointer("/usage/prompt_tokens").and_then(Value::as_u64).unwrap_or(0),
        output_tokens: body.pointer("/usage/completion_tokens").and_then(Value::as_u64).unwrap_or(0),
        ..Usage::default()
    };
    Ok(Turn { text, tool_calls, usage, cost: Cost::Free, backend, notices: Vec::new(), choices: Vec::new() })
}

/// The origin of a string in an OpenAI- or Ollama-shaped body, by the role of the message it is in. Anything
/// outside `messages` (model name, tool schemas) is ours.
pub fn origin_of(body: &Value, pointer: &str) -> Origin {
    let mut parts = pointer.trim_start_matches('/').split('/');
    if parts.next() != Some("messages") {
        return Origin::System;
    }
    let role = parts.next().and_then(|i| i.parse::<usize>().ok()).and_then(|i| body["messages"][i]["role"].as_str());
    match role {
        Some("user") => Origin::Owner,
        Some("tool") => Origin::ToolResult,
        Some("assistant") => Origin::Assistant,
        _ => Origin::System,
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn tool_results_echo_the_call_id() {
        let req = ChatRequest {
            system: "s".into(),
            messages: vec![Message::ToolResult {
                call_id: "call_9".into(),
                name: "n".into(),
                content: "c".into(),
                is_error: false,
            }],
            tools: vec![],
            max_tokens: 256,
        };
        let body = request(&req, "m");
        assert_eq!(body["messages"][1]["tool_call_id"], "call_9");
        assert_eq!(body["max_tokens"], 256);
    }

    #[test]
    fn string_arguments_are_parsed_once_at_the_edge() {
        let body = json!({"choices": [{"message": {"content": null, "tool_calls": [
            {"id": "call_1", "type": "function", "function": {"name": "a", "arguments": "{\"id\":\"lnd\"}"}},
            {"id": "call_2", "type": "function", "function": {"name": "a", "arguments": "\"{\\\"id\\\":\\\"lnd\\\"}\""}},
            {"id": "call_3", "type": "function", "function": {"name": "a", "arguments": "{oops"}}
        ]}, "finish_reason": "tool_calls"}]});
        let turn = response(&body, BackendId::Routstr { provider: "p".into(), model: "m".into() }).unwrap();
        assert_eq!(turn.tool_calls[0].arguments, Ok(json!({"id": "lnd"})));
        assert!(turn.tool_calls[1].arguments.as_ref().unwrap_err().reason.contains("twice"));
        assert!(turn.tool_calls[2].arguments.as_ref().unwrap_err().reason.contains("not valid JSON"));
    }
}
