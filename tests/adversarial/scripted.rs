//! The scripted model and node of the adversarial suite: reply builders in the Ollama and Anthropic wire formats,
//! harnesses wired to them, and readers of what the far side (devnode, audit log, cloud wire server) saw.

use std::time::Duration;

use aiui_core::agent::{Event, StopReason, TurnOutcome};
use aiui_core::backends::chain::Chain;
use serde_json::{Value, json};

use crate::support::assistant::{API_KEY, Harness, claude_leg, harness_with, ollama_leg};
use crate::support::wire::{self, WireServer};

/// An xprv as a wallet would print it (BIP-32 test vector 1): never to leave for a cloud leg.
pub const XPRV: &str =
    "xprv9s21ZrQH143K3QTDL4LXw2F7HEK3wJUD2nW2nRk4stbPy6cq3jPPqjiChkVvvNKmPGJxWUtg6LnF5kejMRNNU3TGtRBeJgk33yuGBxrMPHi";
/// The NIP-19 example private key.
pub const NSEC: &str = "nsec1vl029mgpspedva04g90vltkh6fvh240zqtv9k0t9af8935ke9laqsnlfe5";

/// An Ollama reply calling each `(tool, arguments)` in one step.
pub fn ollama_calls(calls: &[(&str, Value)]) -> Value {
    let calls: Vec<Value> =
        calls.iter().map(|(name, args)| json!({"function": {"name": name, "arguments": args}})).collect();
    json!({"model": "qwen2.5:7b", "done": true, "done_reason": "stop",
        "message": {"role": "assistant", "content": "", "tool_calls": calls}})
}

pub fn ollama_call(name: &str, arguments: Value) -> Value {
    ollama_calls(&[(name, arguments)])
}

pub fn ollama_text(text: &str) -> Value {
    json!({"model": "qwen2.5:7b", "done": true, "done_reason": "stop", "message": {"role": "assistant", "content": text}})
}

/// An Anthropic reply with `text` and one `tool_use` block.
pub fn claude_call(text: &str, name: &str, input: Value) -> Value {
    json!({"id": "msg_adv", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5-20250929",
        "content": [{"type": "text", "text": text}, {"type": "tool_use", "id": format!("toolu_adv_{name}"),
            "name": name, "input": input}],
        "stop_reason": "tool_use", "usage": {"input_tokens": 10, "output_tokens": 10}})
}

pub fn claude_text(text: &str) -> Value {
    json!({"id": "msg_adv", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5-20250929",
        "content": [{"type": "text", "text": text}], "stop_reason": "end_turn",
        "usage": {"input_tokens": 10, "output_tokens": 10}})
}

/// A harness whose only leg is a scripted local model.
pub async fn local(replies: Vec<Value>) -> (WireServer, Harness) {
    local_with_ttl(replies, Duration::from_secs(30)).await
}

/// The same, with confirmations that expire after `ttl`.
pub async fn local_with_ttl(replies: Vec<Value>, ttl: Duration) -> (WireServer, Harness) {
    let ollama = wire::ollama_replies(true, replies).await;
    let h = harness_with(Chain::new(vec![ollama_leg(&ollama.url)]), ttl).await;
    (ollama, h)
}

/// A harness whose only leg is a scripted Claude.
pub async fn cloud(replies: Vec<Value>) -> (WireServer, Harness) {
    let claude = wire::anthropic_replies(replies.into_iter().map(|r| (200, r)).collect()).await;
    let h = harness_with(Chain::new(vec![claude_leg(&claude.url, Some(API_KEY))]), Duration::from_secs(30)).await;
    (claude, h)
}

/// A local model that runs out of replies mid-turn (HTTP 500), so the rest of the turn goes to Claude with the
/// whole history: what the local leg saw unscreened must be screened on its way to the cloud.
pub async fn local_then_cloud(local: Vec<Value>, cloud: Vec<Value>) -> (WireServer, WireServer, Harness) {
    let ollama = wire::ollama_replies(true, local).await;
    let claude = wire::anthropic_replies(cloud.into_iter().map(|r| (200, r)).collect()).await;
    let chain = Chain::new(vec![ollama_leg(&ollama.url), claude_leg(&claude.url, Some(API_KEY))]);
    let h = harness_with(chain, Duration::from_secs(30)).await;
    (ollama, claude, h)
}

/// How many times the devnode received `method`.
pub fn node_saw(h: &Harness, method: &str) -> usize {
    h.node.node.calls().iter().filter(|m| *m == method).count()
}

/// Whether any request that reached the devnode carried `needle` in its params.
pub fn node_params_hold(h: &Harness, needle: &str) -> bool {
    h.node.node.requests().iter().any(|(_, params)| params.to_string().contains(needle))
}

/// The methods that reached the devnode, without the login and read traffic.
pub fn node_actions(h: &Harness) -> Vec<String> {
    h.node
        .node
        .calls()
        .into_iter()
        .filter(|m| {
            ["package.start", "package.stop", "package.restart", "package.install", "package.uninstall"]
                .contains(&m.as_str())
        })
        .collect()
}

/// The audit log's `event` column.
pub fn audit_events(h: &Harness) -> Vec<String> {
    h.audit_lines().iter().map(|l| l["event"].as_str().unwrap_or_default().to_owned()).collect()
}

/// Every body a wire server received, as one string, for "did this ever leave" checks.
pub fn everything_sent(server: &WireServer) -> String {
    server.script.received().iter().map(Value::to_string).collect::<Vec<_>>().join("\n")
}

/// The tool results the model was sent back in the last request, as text.
pub fn last_tool_results(server: &WireServer) -> String {
    server.script.received().last().map(|b| b["messages"].to_string()).unwrap_or_default()
}

pub fn stopped_by(outcome: &TurnOutcome, want: StopReason) -> bool {
    matches!(outcome, TurnOutcome::Stopped { reason, .. } if *reason == want)
}

pub fn confirmations(events: &[Event]) -> usize {
    events.iter().filter(|e| matches!(e, Event::AwaitingConfirmation { .. })).count()
}
