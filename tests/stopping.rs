//! A turn that streams, and the owner's Stop, end to end over real loopback HTTP and the devnode: the text grows
//! in `TextDelta`s; Stop keeps what was written (stored marked stopped), drops the request, and nothing the model
//! proposed after the stop reaches the node; a confirmation waiting is withdrawn; a leg cut off mid-answer keeps
//! its text and no other leg is asked in that turn.

use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use aiui_core::agent::{Event, Stop, StopReason, TurnOutcome};
use aiui_core::backends::Message;
use aiui_core::backends::chain::Chain;
use aiui_core::gate::Requester;
use axum::Json;
use axum::body::{Body, Bytes};
use axum::http::header;
use axum::response::IntoResponse;
use axum::routing::{get, post};
use futures_util::StreamExt;
use serde_json::{Value, json};

use crate::support::assistant::{Harness, Legs, claude_leg, harness, harness_with, ollama_leg};
use crate::support::wire::{self, fixture};

/// What the slow Ollama does after its words.
#[derive(Clone, Copy, PartialEq)]
enum After {
    /// Proposes restarting lnd (a tool call in the last chunk), then ends.
    ToolCall,
    /// Ends the answer there.
    Done,
    /// Cuts the connection without ending the answer.
    Cut,
}

/// An Ollama with one tool-capable model whose `/api/chat` streams `words` NDJSON chunks, `every` apart, then
/// `after`. Counts the chat requests it got.
async fn slow_ollama(words: usize, every: Duration, after: After) -> (String, Arc<AtomicUsize>) {
    let asked = Arc::new(AtomicUsize::new(0));
    let counter = asked.clone();
    let router = axum::Router::new()
        .route("/api/tags", get(|| async { Json(fixture("ollama/tags.json")) }))
        .route("/api/show", post(|| async { Json(fixture("ollama/show_tools.json")) }))
        .route(
            "/api/chat",
            post(move |Json(_): Json<Value>| {
                counter.fetch_add(1, Ordering::SeqCst);
                async move {
                    let lines = (0..words).map(move |n| {
                        let piece = json!({"model": "qwen2.5:7b", "message": {"role": "assistant", "content": format!("word{n} ")}, "done": false});
                        Ok::<_, std::io::Error>(Bytes::from(format!("{piece}\n")))
                    });
                    let paced = futures_util::stream::iter(lines).then(move |line| async move {
                        tokio::time::sleep(every).await;
                        line
                    });
                    let tail: std::pin::Pin<Box<dyn futures_util::Stream<Item = Result<Bytes, std::io::Error>> + Send>> =
                        match after {
                            After::ToolCall => {
                                let call = json!({"model": "qwen2.5:7b", "message": {"role": "assistant", "content": "", "tool_calls": [{"function": {"name": "package_restart", "arguments": {"id": "lnd"}}}]}, "done": false});
                                let done = json!({"model": "qwen2.5:7b", "message": {"role": "assistant", "content": ""}, "done": true, "prompt_eval_count": 10, "eval_count": 40});
                                Box::pin(futures_util::stream::iter([Ok(Bytes::from(format!("{call}\n{done}\n")))]))
                            }
                            After::Done => {
                                let done = json!({"model": "qwen2.5:7b", "message": {"role": "assistant", "content": ""}, "done": true, "prompt_eval_count": 10, "eval_count": 12});
                                Box::pin(futures_util::stream::iter([Ok(Bytes::from(format!("{done}\n")))]))
                            }
                            After::Cut => Box::pin(futures_util::stream::once(async {
                                // After the last piece has gone out: an error at once would cut it off too.
                                tokio::time::sleep(Duration::from_millis(100)).await;
                                Err(std::io::Error::other("the test server cuts the connection"))
                            })),
                        };
                    ([(header::CONTENT_TYPE, "application/x-ndjson")], Body::from_stream(paced.chain(tail))).into_response()
                }
            }),
        );
    let listener = tokio::net::TcpListener::bind(SocketAddr::from(([127, 0, 0, 1], 0))).await.unwrap();
    let url = format!("http://{}/", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, router).await });
    (url, asked)
}

/// Runs a turn that `stop` may end; `on_event` sees each event as it comes (and may stop the turn).
async fn run(h: &Harness, stop: &Stop, mut on_event: impl FnMut(&Event)) -> (Vec<Event>, TurnOutcome) {
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
    let (agent, conversation, turn_stop) = (h.agent.clone(), h.conversation.clone(), stop.clone());
    let turn = tokio::spawn(async move {
        agent.turn_stoppable(&conversation, "what is running?", &tx, &Requester::ThisDesktop, &turn_stop).await
    });
    let mut events = Vec::new();
    while let Some(event) = rx.recv().await {
        on_event(&event);
        events.push(event);
    }
    (events, turn.await.unwrap().unwrap())
}

fn deltas(events: &[Event]) -> Vec<String> {
    events
        .iter()
        .filter_map(|e| if let Event::TextDelta { text, .. } = e { Some(text.clone()) } else { None })
        .collect()
}

fn stored_answer(h: &Harness) -> String {
    let messages = h.agent.store.recent_messages(&h.conversation, 50).unwrap();
    messages
        .iter()
        .rev()
        .find_map(|m| if let Message::Assistant { text, .. } = m { Some(text.clone()) } else { None })
        .expect("an assistant message was stored")
}

fn node_restarted(h: &Harness) -> bool {
    h.node.node.requests().iter().any(|(method, _)| method.contains("restart"))
}

#[tokio::test(flavor = "multi_thread")]
async fn the_answer_grows_as_it_is_written_and_the_final_text_is_the_whole_of_it() {
    let (url, _) = slow_ollama(12, Duration::from_millis(20), After::Done).await;
    let h = harness(Legs { ollama: Some(url), claude: None }).await;
    let (events, outcome) = run(&h, &Stop::new(), |_| {}).await;
    assert!(matches!(outcome, TurnOutcome::Answered { .. }), "{outcome:?}");
    assert!(deltas(&events).len() >= 12, "one delta per piece at least: {:?}", deltas(&events));
    let text = events.iter().find_map(|e| if let Event::Text { text, .. } = e { Some(text.clone()) } else { None });
    assert_eq!(deltas(&events).concat(), text.clone().unwrap(), "the deltas add up to the answer");
    assert_eq!(stored_answer(&h), text.unwrap());
}

#[tokio::test(flavor = "multi_thread")]
async fn stop_mid_answer_keeps_what_was_written_marked_and_nothing_proposed_after_it_runs() {
    let (url, asked) = slow_ollama(40, Duration::from_millis(100), After::ToolCall).await;
    let h = harness(Legs { ollama: Some(url), claude: None }).await;
    let stop = Stop::new();
    let mut seen = 0;
    let (events, outcome) = run(&h, &stop, |event| {
        if matches!(event, Event::TextDelta { .. }) {
            seen += 1;
            if seen == 3 {
                stop.stop();
            }
        }
    })
    .await;
    assert!(matches!(outcome, TurnOutcome::Stopped { reason: StopReason::Stopped, .. }), "{outcome:?}");
    let shown = deltas(&events);
    assert!((3..10).contains(&shown.len()), "the text grew, then stopped: {shown:?}");
    let stored = stored_answer(&h);
    assert!(stored.starts_with(&shown.concat().trim_end().to_owned()), "{stored}");
    assert!(stored.ends_with("[Stopped by you here.]"), "{stored}");
    assert!(!stored.contains("word20"), "the rest was never read: {stored}");
    // The tool call the stream would have ended with never reached the node, even after the stream's end.
    tokio::time::sleep(Duration::from_secs(4)).await;
    assert!(!node_restarted(&h), "a tool call after the stop reached the node");
    assert_eq!(asked.load(Ordering::SeqCst), 1);
    assert!(h.agent.gate.pending().is_empty());
}

#[tokio::test(flavor = "multi_thread")]
async fn stop_while_a_confirmation_waits_withdraws_it_from_every_trusted_surface() {
    let ollama =
        wire::ollama(true, vec!["ollama/chat_call_restart_lnd.json", "ollama/chat_answer_restarted.json"]).await;
    let h = harness_with(Chain::new(vec![ollama_leg(&ollama.url)]), Duration::from_secs(30)).await;
    let stop = Stop::new();
    let pending = Arc::new(Mutex::new(None));
    let (events, outcome) = run(&h, &stop, |event| {
        if let Event::AwaitingConfirmation { request } = event {
            *pending.lock().unwrap() = Some(request.clone());
            stop.stop();
        }
    })
    .await;
    assert!(matches!(outcome, TurnOutcome::Stopped { reason: StopReason::Stopped, .. }), "{outcome:?}");
    let request = pending.lock().unwrap().clone().expect("a confirmation was opened");
    assert!(h.agent.gate.pending().is_empty(), "withdrawn");
    let late = h.agent.gate.decide(&request.id, &request.arguments_hash, aiui_core::gate::Decision::AllowOnce);
    assert!(late.is_err(), "an approval after the stop approves nothing: {late:?}");
    assert!(!node_restarted(&h));
    assert!(h.audit_lines().iter().any(|l| l["event"] == "withdrawn" && l["id"] == request.id.as_str()));
    assert!(events.iter().any(|e| matches!(e, Event::Stopped { reason: StopReason::Stopped, .. })));
}

#[tokio::test(flavor = "multi_thread")]
async fn a_leg_cut_off_mid_answer_keeps_its_text_and_no_other_leg_is_asked_in_that_turn() {
    let (url, _) = slow_ollama(5, Duration::from_millis(20), After::Cut).await;
    let claude = wire::anthropic(vec![(200, "anthropic/answer_packages.json")]).await;
    let h = harness_with(
        Chain::new(vec![ollama_leg(&url), claude_leg(&claude.url, Some(crate::support::assistant::API_KEY))]),
        Duration::from_secs(30),
    )
    .await;
    let (events, outcome) = run(&h, &Stop::new(), |_| {}).await;
    let TurnOutcome::Stopped { reason: StopReason::CutOff, message } = &outcome else { panic!("{outcome:?}") };
    assert!(message.contains("stopped in the middle of its answer") && message.contains("Ask again"), "{message}");
    assert!(claude.script.received().is_empty(), "Claude was asked in the same turn");
    let stored = stored_answer(&h);
    assert!(
        stored.starts_with("word0 word1 word2 word3 word4")
            && stored.ends_with("[Cut off: the backend stopped answering here.]"),
        "{stored}"
    );
    assert_eq!(deltas(&events).concat(), "word0 word1 word2 word3 word4 ");
}
