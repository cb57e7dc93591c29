//! Tests of [`Screen::screen_request`]: what leaves is what [`Screen::screen_body`] would send, byte for byte,
//! while only new elements are screened; and a remembered outcome never stands in for a text that changed.

use serde_json::{Value, json};

use super::*;
use crate::backends::format::{anthropic, openai};
use crate::backends::{ChatRequest, Message, ToolCall};
use crate::tools::{Grants, Registry};

const XPRV: &str =
    "xprv9tAruaTSUcXaNzTSxGtNUNq5y7wpcputBdFQYQG4xB4KShX8Vu3C2Hq88MPbUXmsQZRPoAdHR1hT9YGLdAZ6avGw3v4iVgA2TMBuBAMh9hF";
const ONION: &str = "qwb5pdkhx6pygpan2rlykei4iiaannkksumnlmytbx2kjqevtavetwt6.onion";
const SEED_12: &str = "wish vital sail recipe throw smart arrive knee afford insane river license";
const PASSWORD: &str = "hunter2-archy";

fn screen() -> Screen {
    Screen::new(vec![KnownSecret::new("node-password", PASSWORD)])
}

/// One wire format: how the loop builds a body and reads its origins.
struct Wire {
    name: &'static str,
    request: fn(&ChatRequest, &str) -> Value,
    origin_of: fn(&Value, &str) -> Origin,
}

const WIRES: [Wire; 2] = [
    Wire { name: "anthropic", request: anthropic::request, origin_of: anthropic::origin_of },
    Wire { name: "openai", request: openai::request, origin_of: openai::origin_of },
];

/// The `i`th exchange of a conversation: the owner asks, the model calls a tool, the tool answers, the model
/// answers. Addresses, onions, a known secret and a secret shape turn up in some of them, each at most once.
fn exchange(i: usize) -> Vec<Message> {
    let address = format!("192.168.1.{}", 10 + i % 7);
    let call = ToolCall { id: format!("call_{i}"), name: "package_logs".into(), arguments: Ok(json!({"app": "lnd"})) };
    let result = match i % 5 {
        0 => format!("lnd listening on {address}:9735, peer {ONION}"),
        1 => format!("rpcpassword={PASSWORD}\nrpcport=8332"),
        2 => format!("wallet key {XPRV} loaded"),
        3 => "all good, 12 channels open".to_owned(),
        _ => format!("bitcoind at {address} synced to block {}", 900_000 + i),
    };
    vec![
        Message::User { text: format!("Question {i}: how is lnd at {address} doing?") },
        Message::Assistant { text: String::new(), tool_calls: vec![call] },
        Message::ToolResult {
            call_id: format!("call_{i}"),
            name: "package_logs".into(),
            content: result,
            is_error: false,
        },
        Message::Assistant { text: format!("Answer {i}: lnd at {address} is running."), tool_calls: vec![] },
    ]
}

fn request(messages: &[Message]) -> ChatRequest {
    ChatRequest {
        system: "You are the assistant of a Bitcoin node.".into(),
        messages: messages.to_vec(),
        tools: Registry::node_tools().defs(&Grants::default()),
        max_tokens: 1024,
    }
}

/// `screen_body` as the loop called it before `screen_request`: origins read from a copy of the body as built.
fn screened_whole(screen: &mut Screen, wire: &Wire, mut body: Value) -> (Result<Report, Blocked>, String) {
    let as_built = body.clone();
    let outcome = screen.screen_body(&mut body, &|pointer| (wire.origin_of)(&as_built, pointer));
    (outcome, body.to_string())
}

fn screened_request(screen: &mut Screen, wire: &Wire, mut body: Value) -> (Result<Report, Blocked>, String) {
    let outcome = screen.screen_request(&mut body, &wire.origin_of);
    (outcome, body.to_string())
}

/// A conversation grows by one exchange a turn, its window sliding once it is longer than `window` messages.
/// Each turn's body goes through three screens: the remembering one, one that screens the whole body as before
/// (both kept across turns), and a fresh one over the whole body.
#[test]
fn a_growing_conversation_leaves_byte_for_byte_as_screening_it_whole_would_send_it() {
    const WINDOW: usize = 24;
    for wire in &WIRES {
        let (mut remembering, mut whole) = (screen(), screen());
        let mut history: Vec<Message> = Vec::new();
        for turn in 0..15 {
            history.extend(exchange(turn));
            let window = &history[history.len().saturating_sub(WINDOW)..];
            let body = (wire.request)(&request(window), "model-x");
            let (got, sent) = screened_request(&mut remembering, wire, body.clone());
            let (expected, expected_sent) = screened_whole(&mut whole, wire, body.clone());
            assert_eq!(sent, expected_sent, "{} turn {turn}: the bytes sent", wire.name);
            assert_eq!(got, expected, "{} turn {turn}: the report", wire.name);
            assert!(!sent.contains(XPRV) && !sent.contains(PASSWORD) && !sent.contains("192.168.1."));
            if history.len() <= WINDOW {
                // Numbering is by first appearance, and here every value first appears in the window.
                let (fresh, fresh_sent) = screened_whole(&mut screen(), wire, body);
                assert_eq!(sent, fresh_sent, "{} turn {turn}: a fresh screen sends the same bytes", wire.name);
                assert_eq!(got, fresh, "{} turn {turn}: a fresh screen's report", wire.name);
            }
        }
        assert!(remembering.remembered.hits() > 0, "{}: earlier messages were put back, not screened", wire.name);
    }
}

#[test]
fn earlier_messages_are_put_back_and_only_new_ones_screened() {
    let wire = &WIRES[0];
    let mut screen = screen();
    let mut history = exchange(0);
    screened_request(&mut screen, wire, (wire.request)(&request(&history), "m")).0.unwrap();
    let first = screen.remembered.hits();
    history.extend(exchange(1));
    let body = (wire.request)(&request(&history), "m");
    let elements = body["messages"].as_array().map_or(0, Vec::len) + body["tools"].as_array().map_or(0, Vec::len);
    screened_request(&mut screen, wire, body).0.unwrap();
    // The second exchange's four messages are new; the first's and the tool schemas were sent before.
    let new = 4;
    assert_eq!(screen.remembered.hits() - first, (elements - new) as u64);
}

#[test]
fn an_owner_secret_in_a_new_message_still_blocks() {
    for wire in &WIRES {
        let mut screen = screen();
        let mut history: Vec<Message> = (0..4).flat_map(exchange).collect();
        screened_request(&mut screen, wire, (wire.request)(&request(&history), "m")).0.unwrap();
        history.push(Message::User { text: format!("is this my seed? {SEED_12}") });
        let (outcome, _) = screened_request(&mut screen, wire, (wire.request)(&request(&history), "m"));
        assert_eq!(outcome.unwrap_err().kinds, vec!["bip39".to_owned()], "{}", wire.name);
        // The blocked message is not stored, so the next turn sends the history without it, and it passes.
        history.pop();
        history.push(Message::User { text: "never mind".into() });
        screened_request(&mut screen, wire, (wire.request)(&request(&history), "m")).0.unwrap();
    }
}

#[test]
fn a_message_whose_text_changed_is_screened_again() {
    let wire = &WIRES[0];
    let mut screen = screen();
    let result = |content: &str| Message::ToolResult {
        call_id: "call_1".into(),
        name: "package_logs".into(),
        content: content.into(),
        is_error: false,
    };
    let asked = Message::User { text: "show the logs".into() };
    let call = ToolCall { id: "call_1".into(), name: "package_logs".into(), arguments: Ok(json!({})) };
    let called = Message::Assistant { text: String::new(), tool_calls: vec![call] };
    let clean = vec![asked.clone(), called.clone(), result("all good")];
    let (_, sent) = screened_request(&mut screen, wire, (wire.request)(&request(&clean), "m"));
    assert!(sent.contains("all good"));
    // The same message, one string in it changed: a secret and an address.
    let changed = vec![asked.clone(), called.clone(), result(&format!("all good {XPRV} at 10.1.2.3"))];
    let (_, sent) = screened_request(&mut screen, wire, (wire.request)(&request(&changed), "m"));
    assert!(sent.contains("all good [redacted:xprv] at [lan-ip-1]"), "{sent}");
    assert!(!sent.contains(XPRV));
    // The text that was redacted as a tool result, now in the owner's words: not the tool result's outcome.
    let retyped = vec![asked, called, result("ok"), Message::User { text: format!("all good {XPRV} at 10.1.2.3") }];
    let (outcome, _) = screened_request(&mut screen, wire, (wire.request)(&request(&retyped), "m"));
    assert_eq!(outcome.unwrap_err().kinds, vec!["xprv".to_owned()]);
}

#[test]
fn an_element_moved_to_another_array_is_screened_for_its_new_place() {
    let mut screen = screen();
    let origin_of = |_: &Value, pointer: &str| {
        if pointer.starts_with("/owner") { Origin::Owner } else { Origin::ToolResult }
    };
    let mut body = json!({"results": [format!("key {XPRV}")]});
    screen.screen_request(&mut body, &origin_of).unwrap();
    assert_eq!(body["results"][0], "key [redacted:xprv]");
    let mut body = json!({"owner": [format!("key {XPRV}")]});
    assert_eq!(screen.screen_request(&mut body, &origin_of).unwrap_err().kinds, vec!["xprv".to_owned()]);
}

#[test]
fn what_the_latest_request_did_not_send_is_forgotten_and_the_memory_is_capped() {
    let wire = &WIRES[1];
    let mut screen = screen();
    let long: Vec<Message> = (0..30).flat_map(exchange).collect();
    screened_request(&mut screen, wire, (wire.request)(&request(&long), "m")).0.unwrap();
    let held = screen.remembered.bytes();
    screened_request(&mut screen, wire, (wire.request)(&request(&long[long.len() - 4..]), "m")).0.unwrap();
    assert!(screen.remembered.bytes() < held / 4, "{} of {held} bytes kept", screen.remembered.bytes());

    let big = "lnd log line, nothing secret in it\n".repeat(30_000);
    let results: Vec<Value> = (0..12).map(|i| json!(format!("{i} {big}"))).collect();
    let mut body = json!({ "results": results });
    screen.screen_request(&mut body, &|_, _| Origin::ToolResult).unwrap();
    assert!(screen.remembered.bytes() <= request::Remembered::LIMIT);
    assert!(screen.memory_bytes() <= Screen::MEMORY_LIMIT + screen.placeholders.len() * 64);
}

/// An evicted conversation's screen is made again on its next turn, from its window as stored. While the
/// conversation fits in the window, the new one numbers every address as the old one did (by first appearance,
/// and every first appearance is still in the window). Once earlier messages left the window, numbers can
/// differ: harmless, since the store keeps the real values (replies are revealed before they are stored) and
/// each request is screened, and its answer revealed, with one table.
#[test]
fn a_screen_made_again_numbers_as_the_first_while_the_conversation_fits_its_window() {
    let wire = &WIRES[0];
    let mut kept = screen();
    let mut history: Vec<Message> = Vec::new();
    for turn in 0..6 {
        history.extend(exchange(turn));
        let (_, sent) = screened_request(&mut kept, wire, (wire.request)(&request(&history), "m"));
        let mut again = screen();
        let (_, sent_again) = screened_request(&mut again, wire, (wire.request)(&request(&history), "m"));
        assert_eq!(sent, sent_again, "turn {turn}");
        assert_eq!(again.reveal("[lan-ip-2] [onion-1]"), kept.reveal("[lan-ip-2] [onion-1]"));
    }
    // The window moves past exchange 0, where 192.168.1.10 first appeared as [lan-ip-1].
    let window = &history[4..];
    let (_, sent) = screened_request(&mut kept, wire, (wire.request)(&request(window), "m"));
    let mut again = screen();
    let (_, sent_again) = screened_request(&mut again, wire, (wire.request)(&request(window), "m"));
    assert_ne!(sent, sent_again, "the numbers moved");
    for (screen, sent) in [(&kept, &sent), (&again, &sent_again)] {
        let revealed = screen.reveal(sent);
        assert!(revealed.contains("192.168.1.11") && revealed.contains(ONION), "each table reveals its own numbers");
    }
}
