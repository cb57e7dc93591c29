//! The Anthropic Messages wire: `tool_use` blocks out, `tool_result` blocks (in a user message) back.

use serde_json::{Value, json};

use super::{history_arguments, object_arguments};
use crate::backends::{BackendId, ChatRequest, Message, ToolCall, Turn, Usage};
use crate::egress::Origin;

pub fn request(req: &ChatRequest, model: &str) -> Value {
    // The API wants user and assistant turns to alternate, so consecutive user-side blocks (tool results, then
    // perhaps the owner's next words) are merged into one user message.
    let mut messages: Vec<Value> = Vec::new();
    for message in &req.messages {
        let (role, blocks) = match message {
            Message::User { text } => ("user", vec![json!({"type": "text", "text": text})]),
            Message::Assistant { text, tool_calls } => {
                let mut blocks = Vec::new();
                if !text.is_empty() {
                    blocks.push(json!({"type": "text", "text": text}));
                }
                for c in tool_calls {
                    blocks.push(json!({"type": "tool_use", "id": c.id, "name": c.name, "input": history_arguments(&c.arguments)}));
                }
                ("assistant", blocks)
            }
            Message::ToolResult { call_id, content, is_error, .. } => (
                "user",
                vec![json!({"type": "tool_result", "tool_use_id": call_id, "content": content, "is_error": is_error})],
            ),
        };
        match messages.last_mut() {
            Some(last) if last["role"] == role => {
                if let Some(content) = last["content"].as_array_mut() {
                    content.extend(blocks);
                }
            }
            _ => messages.push(json!({"role": role, "content": blocks})),
        }
    }
    let tools: Vec<Value> = req
        .tools
        .iter()
        .map(|t| json!({"name": t.name, "description": t.description, "input_schema": t.parameters}))
        .collect();
    json!({"model": model, "max_tokens": req.max_tokens, "system": req.system, "messages": messages, "tools": tools})
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
    let usage = Usage {
        input_tokens: body.pointer("/usage/input_tokens").and_then(Value::as_u64).unwrap_or(0),
        output_tokens: body.pointer("/usage/output_tokens").and_then(Value::as_u64).unwrap_or(0),
    };
    Ok(Turn {
        text,
        tool_calls,
        usage,
        notices: Vec::new(),
        choices: Vec::new(),
        backend: BackendId::Claude { model: model.to_owned() },
    })
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
