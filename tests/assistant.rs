//! The assistant loop end to end: wire servers replaying Ollama and Anthropic fixtures, the devnode as the node.

use std::sync::atomic::Ordering;
use std::time::Duration;

use aiui_core::agent::{DENIED_RESULT, Event, StopReason, TurnOutcome};
use aiui_core::backends::chain::Chain;
use aiui_core::gate::Decision;
use aiui_core::tools::{Registry, Surface, ToolClass};
use serde_json::{Value, json};

use crate::support::assistant::{API_KEY, Legs, claude_leg, harness, harness_with, ollama_leg};
use crate::support::wire;

fn surfaces(events: &[Event]) -> Vec<&Surface> {
    events.iter().filter_map(|e| if let Event::Surface { surface, .. } = e { Some(surface) } else { None }).collect()
}

fn count(calls: &[String], method: &str) -> usize {
    calls.iter().filter(|m| *m == method).count()
}

#[tokio::test]
async fn a_read_question_is_answered_with_a_package_list_surface() {
    let ollama =
        wire::ollama(true, vec!["ollama/chat_call_package_list.json", "ollama/chat_answer_packages.json"]).await;
    let h = harness(Legs { ollama: Some(ollama.url.clone()), claude: None }).await;
    let (events, outcome) = h.turn("what is running?", None).await;
    let TurnOutcome::Answered { backend, text } = outcome else { panic!("{outcome:?}") };
    assert_eq!(backend.label(), "local qwen2.5:7b");
    assert!(text.contains("electrs"));
    let cards = surfaces(&events);
    assert!(
        matches!(cards.as_slice(), [Surface::PackageList { packages }] if packages.iter().any(|p| p.id == "lnd")),
        "{cards:?}"
    );
    assert!(matches!(events.last(), Some(Event::Done { .. })));
    // The tool result went back under the tool's name, Ollama's way of tying result to call.
    let second = &ollama.script.received()[1];
    let tool_msg = second["messages"].as_array().unwrap().iter().find(|m| m["role"] == "tool").expect("a tool message");
    assert_eq!(tool_msg["tool_name"], "package_list");
    assert!(tool_msg["content"].as_str().unwrap().contains("bitcoin-knots"));
}

#[tokio::test]
async fn restart_lnd_waits_on_the_gate_and_runs_only_after_approval() {
    let ollama =
        wire::ollama(true, vec!["ollama/chat_call_restart_lnd.json", "ollama/chat_answer_restarted.json"]).await;
    let h = harness(Legs { ollama: Some(ollama.url.clone()), claude: None }).await;
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
    let agent = h.agent.clone();
    let conversation = h.conversation.clone();
    let turn = tokio::spawn(async move { agent.turn(&conversation, "restart lnd", &tx).await });
    let request = loop {
        match rx.recv().await.expect("events until the confirmation") {
            Event::AwaitingConfirmation { request } => break request,
            _ => continue,
        }
    };
    assert_eq!(request.summary, "Restart app `lnd` (running; btcpay depends on it)");
    assert_eq!((request.tool.as_str(), request.rpc_method.as_str()), ("package_restart", "package.restart"));
    assert_eq!(request.arguments, json!({"id": "lnd"}));
    assert_eq!(request.class, ToolClass::Act);
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert_eq!(count(&h.node.node.calls(), "package.restart"), 0, "nothing runs before the owner answers");
    h.agent.gate.decide(&request.id, &request.arguments_hash, Decision::AllowOnce).unwrap();
    let outcome = turn.await.unwrap().unwrap();
    assert!(matches!(outcome, TurnOutcome::Answered { .. }), "{outcome:?}");
    assert_eq!(count(&h.node.node.calls(), "package.restart"), 1);
    let receipt = rx.recv().await;
    assert!(matches!(receipt, Some(Event::Surface { surface: Surface::ActionReceipt { .. }, .. })), "{receipt:?}");
    let audit = h.audit_lines();
    let events: Vec<&str> = audit.iter().map(|l| l["event"].as_str().unwrap()).collect();
    assert_eq!(events, ["requested", "decided", "result"]);
    assert!(audit.iter().all(|l| l["id"] == request.id.as_str()), "every line names the request: {audit:#?}");
    assert_eq!(audit[1]["verdict"], "allowed");
    assert_eq!(audit[2]["ok"], true);
}

#[tokio::test]
async fn restart_lnd_denied_never_calls_the_rpc_and_the_model_gets_the_stop_result() {
    let ollama = wire::ollama(true, vec!["ollama/chat_call_restart_lnd.json", "ollama/chat_answer_plain.json"]).await;
    let h = harness(Legs { ollama: Some(ollama.url.clone()), claude: None }).await;
    let (events, outcome) = h.turn("restart lnd", Some(Decision::Deny)).await;
    let TurnOutcome::Stopped { reason: StopReason::Denied, message } = outcome else { panic!("{outcome:?}") };
    assert_eq!(message, "You declined: Restart app `lnd` (running; btcpay depends on it). Nothing was changed.");
    assert!(matches!(events.last(), Some(Event::Stopped { reason: StopReason::Denied, .. })));
    assert_eq!(count(&h.node.node.calls(), "package.restart"), 0);
    assert_eq!(ollama.script.received().len(), 1, "the turn ended; the model was not asked again");
    // The next turn carries the fixed denial result to the model.
    h.turn("ok", None).await;
    let next = &ollama.script.received()[1];
    let denial = next["messages"].as_array().unwrap().iter().find(|m| m["role"] == "tool").expect("the tool result");
    assert_eq!(denial["content"], DENIED_RESULT);
    let verdicts: Vec<Value> = h.audit_lines().iter().map(|l| l["verdict"].clone()).collect();
    assert!(verdicts.contains(&json!("denied")));
}

#[tokio::test]
async fn ollama_refused_falls_through_to_claude() {
    let claude =
        wire::anthropic(vec![(200, "anthropic/call_package_list.json"), (200, "anthropic/answer_packages.json")]).await;
    let h = harness(Legs { ollama: Some(wire::refused()), claude: Some(claude.url.clone()) }).await;
    let (events, outcome) = h.turn("what is running?", None).await;
    let TurnOutcome::Answered { backend, .. } = outcome else { panic!("{outcome:?}") };
    assert!(backend.label().starts_with("Claude"), "{}", backend.label());
    assert_eq!(surfaces(&events).len(), 1);
    let headers = claude.script.last_headers().unwrap();
    assert_eq!(headers["x-api-key"], API_KEY);
    assert_eq!(headers["anthropic-version"], "2023-06-01");
    // The tool_use id is echoed as the tool_result's tool_use_id.
    let second = &claude.script.received()[1];
    let blocks = second["messages"][2]["content"].as_array().unwrap();
    assert_eq!(blocks[0]["type"], "tool_result");
    assert_eq!(blocks[0]["tool_use_id"], "toolu_01A09q90qw90lq917835lq9");
}

#[tokio::test]
async fn ollama_without_a_tool_capable_model_falls_through_to_claude() {
    let ollama = wire::ollama(false, vec![]).await;
    let claude = wire::anthropic(vec![(200, "anthropic/answer_packages.json")]).await;
    let h = harness(Legs { ollama: Some(ollama.url.clone()), claude: Some(claude.url.clone()) }).await;
    let (_, outcome) = h.turn("hello", None).await;
    assert!(matches!(outcome, TurnOutcome::Answered { ref backend, .. } if backend.is_cloud()), "{outcome:?}");
    assert!(ollama.script.received().is_empty(), "no chat request went to a model without tools");
}

#[tokio::test]
async fn both_legs_down_is_a_clear_no_backend_message() {
    let h = harness(Legs { ollama: Some(wire::refused()), claude: Some(wire::refused()) }).await;
    let (events, outcome) = h.turn("hello", None).await;
    let TurnOutcome::Stopped { reason: StopReason::NoBackend, message } = outcome else { panic!("{outcome:?}") };
    assert!(message.contains("No assistant backend is available"), "{message}");
    assert!(message.contains("ollama pull") && message.contains("Claude API key"), "says how to enable one: {message}");
    assert!(matches!(events.last(), Some(Event::Stopped { reason: StopReason::NoBackend, .. })));
}

#[tokio::test]
async fn an_overloaded_claude_mid_turn_hands_the_step_on_and_says_so() {
    let claude = wire::anthropic(vec![(529, "anthropic/error_overloaded.json")]).await;
    let h = harness(Legs { ollama: None, claude: Some(claude.url.clone()) }).await;
    let (_, outcome) = h.turn("hello", None).await;
    let TurnOutcome::Stopped { reason: StopReason::NoBackend, message } = outcome else { panic!("{outcome:?}") };
    assert!(message.contains("overloaded_error"), "{message}");
}

/// A hung Ollama costs its timeout once; the cached verdict makes the next turn skip it without a connection.
#[tokio::test]
async fn a_dead_ollama_is_probed_once_then_cached() {
    let (hole, accepted) = wire::black_hole().await;
    let claude =
        wire::anthropic(vec![(200, "anthropic/answer_packages.json"), (200, "anthropic/answer_packages.json")]).await;
    let chain = Chain::new(vec![ollama_leg(&hole), claude_leg(&claude.url, Some(API_KEY))]);
    let h = harness_with(chain, Duration::from_secs(30)).await;
    h.turn("hello", None).await;
    assert_eq!(accepted.load(Ordering::SeqCst), 1);
    let (_, outcome) = h.turn("again", None).await;
    assert!(matches!(outcome, TurnOutcome::Answered { .. }));
    // The cost in time is a bench's business (`cargo bench -p aiui-tests --bench liveness`); here, the count.
    assert_eq!(accepted.load(Ordering::SeqCst), 1, "the second turn made no connection to the dead Ollama");
}

#[tokio::test]
async fn arguments_that_fail_the_schema_never_reach_the_gate_or_the_node() {
    let ollama =
        wire::ollama(true, vec!["ollama/chat_call_restart_bad_id.json", "ollama/chat_answer_plain.json"]).await;
    let h = harness(Legs { ollama: Some(ollama.url.clone()), claude: None }).await;
    let (events, outcome) = h.turn("restart lnd", None).await;
    assert!(matches!(outcome, TurnOutcome::Answered { .. }), "{outcome:?}");
    assert!(!events.iter().any(|e| matches!(e, Event::AwaitingConfirmation { .. })));
    assert!(h.audit_lines().is_empty(), "the gate never saw it");
    assert_eq!(count(&h.node.node.calls(), "package.restart"), 0);
    let second = &ollama.script.received()[1];
    let result = second["messages"].as_array().unwrap().iter().find(|m| m["role"] == "tool").unwrap();
    assert!(result["content"].as_str().unwrap().contains("invalid"), "{result}");
}

/// Every tool whose class needs confirmation is gated: the test walks the whole registry, so a new act tool
/// cannot slip through.
#[tokio::test]
async fn every_act_tool_in_the_registry_requires_the_gate() {
    let registry = Registry::node_tools();
    let act_tools: Vec<_> = registry.iter().filter(|t| t.class != ToolClass::Read).collect();
    assert!(act_tools.len() >= 5, "start, stop, restart, install, uninstall");
    for tool in act_tools {
        let reply = json!({"model": "qwen2.5:7b", "done": true, "message": {"role": "assistant", "content": "",
            "tool_calls": [{"function": {"name": tool.name, "arguments": {"id": "fedimint"}}}]}});
        let ollama = wire::ollama_replies(true, vec![reply]).await;
        let h = harness(Legs { ollama: Some(ollama.url.clone()), claude: None }).await;
        let (events, outcome) = h.turn("do it", Some(Decision::Deny)).await;
        assert!(
            events.iter().any(|e| matches!(e, Event::AwaitingConfirmation { request } if request.tool == tool.name)),
            "{}",
            tool.name
        );
        assert!(
            matches!(outcome, TurnOutcome::Stopped { reason: StopReason::Denied, .. }),
            "{}: {outcome:?}",
            tool.name
        );
        let rpc = tool.method.spec().rpc_name;
        assert_eq!(count(&h.node.node.calls(), rpc), 0, "{rpc} ran without approval");
    }
}

#[tokio::test]
async fn an_owner_secret_stops_a_cloud_turn_but_the_local_leg_gets_it_unchanged() {
    let xprv = "xprv9s21ZrQH143K3QTDL4LXw2F7HEK3wJUD2nW2nRk4stbPy6cq3jPPqjiChkVvvNKmPGJxWUtg6LnF5kejMRNNU3TGtRBeJgk33yuGBxrMPHi";
    let text = format!("is this key safe? {xprv}");
    let claude = wire::anthropic(vec![(200, "anthropic/answer_packages.json")]).await;
    let h = harness(Legs { ollama: Some(wire::refused()), claude: Some(claude.url.clone()) }).await;
    let (_, outcome) = h.turn(&text, None).await;
    let TurnOutcome::Stopped { reason: StopReason::EgressBlocked, message } = outcome else { panic!("{outcome:?}") };
    assert!(!message.contains(xprv));
    assert!(claude.script.received().is_empty(), "nothing was sent");
    let stored = h.agent.store.load(&h.conversation).unwrap();
    assert!(stored.messages().iter().all(|m| !format!("{m:?}").contains(xprv)), "the secret was not stored");
    // The stop is in the owner's language.
    h.agent.config.write().unwrap().locale = aiui_core::i18n::Locale::De;
    let (_, outcome) = h.turn(&text, None).await;
    let TurnOutcome::Stopped { reason: StopReason::EgressBlocked, message } = outcome else { panic!("{outcome:?}") };
    assert!(
        message.starts_with("Ihre Nachricht wurde nicht gesendet: Sie enthält einen erweiterten privaten"),
        "{message}"
    );
    assert!(!message.contains(xprv) && claude.script.received().is_empty());

    let ollama = wire::ollama(true, vec!["ollama/chat_answer_plain.json"]).await;
    let local = harness(Legs { ollama: Some(ollama.url.clone()), claude: None }).await;
    local.turn(&text, None).await;
    let sent = &ollama.script.received()[0];
    assert_eq!(sent["messages"][1]["content"], text.as_str(), "the local leg sends unchanged");
}

#[tokio::test]
async fn a_conversation_survives_a_process_restart() {
    let ollama =
        wire::ollama(true, vec!["ollama/chat_call_package_list.json", "ollama/chat_answer_packages.json"]).await;
    let h = harness(Legs { ollama: Some(ollama.url.clone()), claude: None }).await;
    h.turn("what is running?", None).await;
    let path = h.data.path().join("conversations.sqlite3");
    let before = h.agent.store.load(&h.conversation).unwrap();
    drop(h.agent);
    let reopened = aiui_core::store::Store::open(&path).unwrap();
    let listed = reopened.list_conversations().unwrap();
    assert_eq!(listed.len(), 1);
    let after = reopened.load(&listed[0].id).unwrap();
    assert_eq!(after.messages(), before.messages());
    assert_eq!(after.messages().len(), 4, "user, tool call, tool result, answer");
}
