//! One REQ to one relay over nostr-sdk's websocket transport, and exactly what the relay did with it.
//!
//! Discovery reads relays itself instead of through nostr-sdk's pool, because the pool hides what happened: it
//! folds every relay into one event set, waits the full timeout on a refused relay when its reconnect races the
//! REQ, turns `CLOSED` into an empty result, does not re-check the filter, and logs a bad event's full JSON at
//! ERROR level. Here a relay ends in exactly one [`RelayOutcome`], a refused connection costs only the attempt,
//! and every event reaches discovery's own checks unfiltered.

use std::time::{Duration, Instant};

use async_wsocket::futures_util::{SinkExt, StreamExt};
use async_wsocket::{ConnectionMode, Message, WebSocket};
use nostr_sdk::prelude::{ClientMessage, Event, Filter, JsonUtil, RelayMessage, SubscriptionId};
use url::Url;

use super::report::{RelayOutcome, RelayReport};

/// A relay that streams more than this before EOSE is cut off: discovery reads at most a few hundred events.
const MAX_EVENTS_PER_RELAY: usize = 2_000;
/// Notices kept per relay (a relay explaining itself is useful; one flooding the log is not).
const MAX_NOTICES: usize = 3;

/// What one relay answered: its report and the events it served, none of them checked yet.
pub(super) struct RelayAnswer {
    pub report: RelayReport,
    pub events: Vec<Event>,
}

/// Connects (bounded by `connect_timeout`), sends one REQ with `filters`, and reads until EOSE, `CLOSED`, the end
/// of the connection, or `timeout` after the connection was accepted.
pub(super) async fn query(
    relay: &str,
    filters: &[Filter],
    mode: &ConnectionMode,
    connect_timeout: Duration,
    timeout: Duration,
) -> RelayAnswer {
    let started = Instant::now();
    let mut notices = Vec::new();
    let mut events = Vec::new();
    let outcome = match Url::parse(relay) {
        Ok(url) if matches!(url.scheme(), "ws" | "wss") => {
            read(&url, filters, mode, connect_timeout, timeout, &mut events, &mut notices).await
        }
        Ok(_) | Err(_) => RelayOutcome::Refused { reason: "not a ws:// or wss:// relay address".into() },
    };
    let report = RelayReport {
        url: relay.to_owned(),
        outcome,
        millis: started.elapsed().as_millis().try_into().unwrap_or(u64::MAX),
        events: events.len(),
        notices,
    };
    tracing::debug!(relay = %report.url, outcome = %report.outcome, millis = report.millis, "discovery relay answered");
    RelayAnswer { report, events }
}

async fn read(
    url: &Url,
    filters: &[Filter],
    mode: &ConnectionMode,
    connect_timeout: Duration,
    timeout: Duration,
    events: &mut Vec<Event>,
    notices: &mut Vec<String>,
) -> RelayOutcome {
    let mut socket = match WebSocket::connect(url, mode, connect_timeout).await {
        Ok(socket) => socket,
        Err(e) => return RelayOutcome::Refused { reason: connect_error(&e) },
    };
    let id = SubscriptionId::generate();
    let req = ClientMessage::req(id.clone(), filters.to_vec()).as_json();
    if let Err(e) = socket.send(Message::Text(req)).await {
        return RelayOutcome::Dropped { reason: format!("the REQ could not be sent: {e}") };
    }
    let deadline = tokio::time::Instant::now() + timeout;
    let outcome = loop {
        let message = match tokio::time::timeout_at(deadline, socket.next()).await {
            Err(_) => break RelayOutcome::TimedOut { after_secs: timeout.as_secs() },
            Ok(None) => break RelayOutcome::Dropped { reason: "the relay closed the connection".into() },
            Ok(Some(Err(e))) => break RelayOutcome::Dropped { reason: e.to_string() },
            Ok(Some(Ok(message))) => message,
        };
        let text = match message {
            Message::Text(text) => text,
            Message::Close(frame) => {
                let reason = frame.map(|f| f.reason).filter(|r| !r.is_empty());
                break RelayOutcome::Dropped {
                    reason: reason.map_or("the relay closed the connection".into(), |r| format!("closed: {r}")),
                };
            }
            _ => continue,
        };
        match RelayMessage::from_json(&text) {
            Ok(RelayMessage::Event { subscription_id, event }) if *subscription_id == id => {
                if events.len() >= MAX_EVENTS_PER_RELAY {
                    break RelayOutcome::Dropped {
                        reason: format!("it sent more than {MAX_EVENTS_PER_RELAY} events; the rest were not read"),
                    };
                }
                events.push(event.into_owned());
            }
            Ok(RelayMessage::EndOfStoredEvents(subscription_id)) if *subscription_id == id => {
                break RelayOutcome::Answered;
            }
            Ok(RelayMessage::Closed { subscription_id, message }) if *subscription_id == id => {
                break RelayOutcome::Closed { reason: message.into_owned() };
            }
            Ok(RelayMessage::Notice(message)) => keep_notice(notices, message.chars().take(200).collect()),
            Ok(RelayMessage::Auth { .. }) => {
                keep_notice(notices, "it asked to authenticate (NIP-42); AIUI does not sign in to relays".into())
            }
            Ok(_) => {}
            Err(e) => tracing::debug!(relay = %url, error = %e, "unreadable relay message skipped"),
        }
    };
    // Closing politely must not hold up the answer: a silent relay may not read it either.
    tokio::spawn(async move {
        let _ = tokio::time::timeout(Duration::from_secs(2), async {
            let _ = socket.send(Message::Text(ClientMessage::close(id).as_json())).await;
            let _ = socket.close().await;
        })
        .await;
    });
    outcome
}

fn keep_notice(notices: &mut Vec<String>, notice: String) {
    if notices.len() < MAX_NOTICES && !notices.contains(&notice) {
        notices.push(notice);
    }
}

/// The transport's error, without the repetition its nested errors carry.
fn connect_error(error: &async_wsocket::Error) -> String {
    let text = error.to_string();
    if text.contains("Connection refused") {
        "the connection was refused".into()
    } else if matches!(error, async_wsocket::Error::Timeout) {
        "the connection attempt timed out".into()
    } else {
        text
    }
}
