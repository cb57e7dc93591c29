//! Wire translation: each backend's JSON in and out of the normalized [`ChatRequest`](super::ChatRequest) and
//! [`Turn`](super::Turn). Pure functions over `serde_json::Value`, so they are tested without a network.

pub mod anthropic;
pub mod ollama;
pub mod openai;

use serde_json::{Value, json};

use super::{MalformedArguments, ToolDef};

/// Arguments that came as a JSON value: only an object is a valid argument set.
pub(crate) fn object_arguments(value: &Value) -> Result<Value, MalformedArguments> {
    match value {
        Value::Object(_) => Ok(value.clone()),
        other => Err(MalformedArguments {
            reason: format!("expected a JSON object, got {}", kind_of(other)),
            raw: other.to_string(),
        }),
    }
}

/// Arguments that came as a JSON-encoded string (the OpenAI wire): parsed exactly once, here.
pub(crate) fn string_arguments(raw: &str) -> Result<Value, MalformedArguments> {
    let malformed = |reason: String| MalformedArguments { reason, raw: raw.to_owned() };
    match serde_json::from_str::<Value>(raw) {
        Ok(Value::Object(map)) => Ok(Value::Object(map)),
        Ok(Value::String(_)) => {
            Err(malformed("the arguments are JSON-encoded twice (a string inside a string)".into()))
        }
        Ok(other) => Err(malformed(format!("expected a JSON object, got {}", kind_of(&other)))),
        Err(e) => Err(malformed(format!("not valid JSON ({e})"))),
    }
}

/// A JSON object of `entries`, their values moved in. `json!` copies each value it is given through serde, which for
/// a request's arrays meant copying every message of the window twice per turn.
pub(crate) fn object<const N: usize>(entries: [(&str, Value); N]) -> Value {
    Value::Object(entries.into_iter().map(|(key, value)| (key.to_owned(), value)).collect())
}

/// The tools as the OpenAI-style wires (OpenAI, Ollama) declare them: `{"type": "function", "function": {...}}`.
pub(crate) fn function_tools(tools: &[ToolDef]) -> Value {
    let declared = tools.iter().map(|t| {
        let function = object([
            ("name", json!(t.name)),
            ("description", json!(t.description)),
            ("parameters", t.parameters.clone()),
        ]);
        object([("type", json!("function")), ("function", function)])
    });
    Value::Array(declared.collect())
}

/// How a model's tool-call arguments are written back into history: as they were sent.
pub(crate) fn history_arguments(arguments: &Result<Value, MalformedArguments>) -> Value {
    match arguments {
        Ok(value) => value.clone(),
        Err(bad) => Value::String(bad.raw.clone()),
    }
}

pub(crate) fn history_arguments_string(arguments: &Result<Value, MalformedArguments>) -> String {
    match arguments {
        Ok(value) => value.to_string(),
        Err(bad) => bad.raw.clone(),
    }
}

fn kind_of(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// A fresh tool-call id for wires that give none (older Ollama). Random, so ids never collide across steps.
pub(crate) fn new_call_id() -> String {
    format!("call_{:016x}", rand::random::<u64>())
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::string_arguments;

    #[track_caller]
    fn check(raw: &str, expect_ok: bool, reason_has: &str) {
        match string_arguments(raw) {
            Ok(v) => assert!(expect_ok, "{raw:?} parsed to {v}"),
            Err(e) => {
                assert!(!expect_ok, "{raw:?} failed: {e}");
                assert!(e.reason.contains(reason_has), "{raw:?}: {}", e.reason);
                assert_eq!(e.raw, raw);
            }
        }
    }

    #[test]
    fn string_arguments_are_parsed_once_and_only_objects_pass() {
        assert_eq!(string_arguments(r#"{"id":"lnd"}"#).unwrap(), json!({"id":"lnd"}));
        check(r#"{"id":"lnd"}"#, true, "");
        check(r#""{\"id\":\"lnd\"}""#, false, "twice");
        check(r#"{"id": "lnd""#, false, "not valid JSON");
        check("", false, "not valid JSON");
        check("[1,2]", false, "an array");
        check("null", false, "null");
        check("42", false, "a number");
    }
}
