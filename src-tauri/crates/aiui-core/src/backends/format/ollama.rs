//! The Ollama `/api/chat` wire: arguments are JSON objects, and older versions give tool calls no id.

use serde_json::{Value, json};

use super::{history_arguments, new_call_id, object_arguments};
use crate::backends::{BackendId, ChatRequest, Message, ToolCall, Turn, Usage};

pub fn request(req: &ChatRequest, model: &str) -> Value {
    let mut messages = vec![json!({"role": "system", "content": req.system})];
    for message in &req.messages {
        messages.push(match message {
            Message::User { text } => json!({"role": "user", "content": text}),
            Message::Assistant { text, tool_calls } => {
                let calls: Vec<Value> = tool_calls
                    .iter()
                    .map(|c| json!({"function": {"name": c.name, "arguments": history_arguments(&c.arguments)}}))
                    .collect();
                json!({"role": "assistant", "content": text, "tool_calls": calls})
            }
            Message::ToolResult { name, content, .. } => json!({"role": "tool", "content": content, "tool_name": name}),
        });
    }
    let tools: Vec<Value> = req
        .tools
        .iter()
        .map(|t| json!({"type": "function", "function": {"name": t.name, "description": t.description, "parameters": t.parameters}}))
        .collect();
    json!({
        "model": model,
        "messages": messages,
        "tools": tools,
        "stream": false,
        "options": {"num_predict": req.max_tokens},
    })
}

pub fn response(body: &Value, model: &str) -> Result<Turn, String> {
    let message = body.get("message").ok_or("no `message` in the reply")?;
    let text = message.get("content").and_then(Value::as_str).unwrap_or_default().to_owned();
    let mut tool_calls = Vec::new();
    for call in message.get("tool_calls").and_then(Value::as_array).into_iter().flatten() {
        let function = call.get("function").ok_or("a tool call without `function`")?;
        let name = function.get("name").and_then(Value::as_str).ok_or("a tool call without a name")?;
        let id = call.get("id").and_then(Value::as_str).map_or_else(new_call_id, str::to_owned);
        let arguments = object_arguments(function.get("arguments").unwrap_or(&Value::Null));
        tool_calls.push(ToolCall { id, name: name.to_owned(), arguments });
    }
    let usage = Usage {
        input_tokens: body.get("prompt_eval_count").and_then(Value::as_u64).unwrap_or(0),
        output_tokens: body.get("eval_count").and_then(Value::as_u64).unwrap_or(0),
    };
    Ok(Turn {
        text,
        tool_calls,
        usage,
        notices: Vec::new(),
        choices: Vec::new(),
        backend: BackendId::Local { model: model.to_owned() },
    })
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
}
