//! The chat origin: LAN users sign in with the LAN passphrase and chat, each session with its own conversations.
//! It runs the same commands as the desktop chat window (over `POST api/invoke/<command>`, a turn's events over
//! Server-Sent Events), and nothing of the trusted window: no confirmation's id or hash ever reaches it.

use std::net::SocketAddr;
use std::sync::{Arc, RwLock};

use aiui_core::gate::Requester;
use aiui_core::store::ConversationId;
use aiui_core::view::{ChatEvent, ConversationDetail, ConversationView, NodeView, PackageView};
use axum::extract::{ConnectInfo, Path, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::auth::{self, AllowedHosts, RateLimiter, Session, Sessions};
use crate::origin::{Origin, Rules};
use crate::passphrase::StoredHash;
use crate::turns::{TurnLog, Turns};
use crate::{ApiError, Shared, blocking, files};

/// The longest title taken from a first message (as in the desktop app).
const TITLE_CHARS: usize = 60;
/// The longest message accepted.
const MAX_MESSAGE_CHARS: usize = 8000;

pub(crate) const COOKIE: &str = "aiui_lan";

/// Event streams one session may hold open at once, and one turn: a page needs one; a reconnect briefly two.
const STREAMS_PER_SESSION: usize = 4;
const STREAMS_PER_TURN: usize = 2;

pub(crate) struct ChatOrigin {
    shared: Arc<Shared>,
    pub(crate) rules: Rules,
    /// The LAN passphrase's hash; the control loop replaces it when its file changes.
    pub(crate) lan: RwLock<StoredHash>,
    turns: Turns,
    turns_per_session: RateLimiter<String>,
    turns_per_address: RateLimiter,
    trusted_port: u16,
}

impl Origin for ChatOrigin {
    fn rules(&self) -> &Rules {
        &self.rules
    }
    fn shared(&self) -> &Shared {
        &self.shared
    }
}

type St = State<Arc<ChatOrigin>>;

pub(crate) fn origin(shared: Arc<Shared>, lan: StoredHash, trusted_port: u16) -> Arc<ChatOrigin> {
    let config = &shared.config;
    let rules = Rules {
        name: "chat",
        sessions: Sessions::new("chat", COOKIE, config, auth::CHAT_LIFETIME),
        limiter: RateLimiter::new(config.limits),
        hosts: AllowedHosts::new(&config.chat_hosts),
        page: "index.html",
        allows: files::chat_allows,
    };
    let turn_limits = config.turn_limits;
    Arc::new(ChatOrigin {
        shared,
        rules,
        lan: RwLock::new(lan),
        turns: Turns::default(),
        turns_per_session: RateLimiter::new(turn_limits.per_session),
        turns_per_address: RateLimiter::new(turn_limits.per_address),
        trusted_port,
    })
}

pub(crate) fn router(origin: Arc<ChatOrigin>) -> Router {
    let base = origin.shared.config.base_path.clone();
    let api = Router::new()
        .route(&format!("{base}api/login"), post(login))
        .route(&format!("{base}api/invoke/{{command}}"), post(invoke))
        .route(&format!("{base}api/turns/{{turn}}/events"), get(events));
    crate::origin::router(origin, api)
}

#[derive(Deserialize)]
struct Login {
    passphrase: String,
}

async fn login(
    State(origin): St,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    Json(body): Json<Login>,
) -> Result<Response, ApiError> {
    let addr = origin.rules.sign_in_address(&origin.shared, peer, &headers)?;
    let lan = origin.lan.read().unwrap_or_else(|p| p.into_inner()).clone();
    if !origin.shared.verify(&lan, &body.passphrase).await? {
        tracing::warn!(%addr, "a wrong LAN passphrase");
        return Err(ApiError::said(StatusCode::UNAUTHORIZED, "wrong_passphrase", "error-wrong-lan-passphrase", &[]));
    }
    origin.rules.sign_in(addr)
}

fn arg<T: serde::de::DeserializeOwned>(args: &Value, name: &str) -> Result<T, ApiError> {
    serde_json::from_value(args.get(name).cloned().unwrap_or(Value::Null))
        .map_err(|e| ApiError::new(StatusCode::BAD_REQUEST, "bad_arguments", format!("`{name}`: {e}")))
}

async fn invoke(
    State(origin): St,
    Path(command): Path<String>,
    headers: HeaderMap,
    body: axum::body::Bytes,
) -> Result<Response, ApiError> {
    let (key, session) = origin.rules.guard(&origin.shared, &headers, true)?;
    let args: Value = if body.is_empty() {
        json!({})
    } else {
        serde_json::from_slice(&body)
            .map_err(|e| ApiError::new(StatusCode::BAD_REQUEST, "bad_arguments", e.to_string()))?
    };
    let assistant = &origin.shared.assistant;
    let answer = match command.as_str() {
        "app_info" => json!({
            "version": env!("CARGO_PKG_VERSION"),
            "demo": assistant.demo,
            "kiosk": false,
            "lan": true,
            "approver": match origin.shared.config.lan_approver {
                crate::LanApprover::Trusted => "trusted",
                crate::LanApprover::Kiosk => "kiosk",
                crate::LanApprover::Both => "both",
            },
            "unpaired": null,
            "node": NodeView { url: assistant.node_url.clone(), demo: assistant.demo },
        }),
        "conversations_list" => {
            let store = assistant.agent.store.clone();
            let list = blocking(move || store.list_conversations()).await?;
            let mine = session.state.lock().unwrap_or_else(|p| p.into_inner()).conversations.clone();
            let views: Vec<ConversationView> =
                list.into_iter().filter(|c| mine.contains(&c.id.0)).map(ConversationView::from).collect();
            json!(views)
        }
        "conversation_load" => {
            let id: String = arg(&args, "id")?;
            owned(&session, &id)?;
            let store = assistant.agent.store.clone();
            let conversation = blocking(move || store.load(&ConversationId(id))).await?;
            json!(ConversationDetail::from(conversation))
        }
        "chat_send" => start_turn(&origin, key, &session, &args).await?,
        // Stops this session's own turn only; what was written stays, marked stopped.
        "chat_stop" => {
            let stop = session.state.lock().unwrap_or_else(|p| p.into_inner()).turn_stop.clone();
            json!(stop.map(|stop| stop.stop()).is_some())
        }
        "node_packages" => {
            let packages = assistant
                .agent
                .node
                .list_packages()
                .await
                .map_err(|e| ApiError::new(StatusCode::BAD_GATEWAY, "node", e.to_string()))?;
            json!(packages.into_iter().map(PackageView::from).collect::<Vec<_>>())
        }
        "chat_suggestions" => {
            let locale = origin.shared.page_locale(&headers);
            json!(
                aiui_core::suggest::suggested_questions(&assistant.agent.node, locale)
                    .await
                    .map_err(|e| { ApiError::new(StatusCode::BAD_GATEWAY, "node", e.to_string()) })?
            )
        }
        "allowance_get" => json!(assistant.meter()),
        "request_trusted_window" => json!({ "url": trusted_url(&origin, &headers) }),
        other if other.starts_with("trusted_") => {
            return Err(ApiError::said(StatusCode::FORBIDDEN, "not_trusted", "error-not-trusted-lan", &[]));
        }
        other => {
            let args = [("command", other.into())];
            return Err(ApiError::said(StatusCode::NOT_FOUND, "unknown_command", "error-unknown-command", &args));
        }
    };
    Ok(Json(answer).into_response())
}

fn owned(session: &Session, id: &str) -> Result<(), ApiError> {
    if session.state.lock().unwrap_or_else(|p| p.into_inner()).conversations.contains(id) {
        Ok(())
    } else {
        Err(ApiError::said(StatusCode::NOT_FOUND, "unknown_conversation", "error-unknown-conversation", &[]))
    }
}

/// Where the chat page links for confirmations, from configuration: `--trusted-url`, else the first
/// `--trusted-host`, else this (checked) host name on the trusted port.
fn trusted_url(origin: &ChatOrigin, headers: &HeaderMap) -> String {
    let config = &origin.shared.config;
    if let Some(url) = &config.trusted_url {
        return url.clone();
    }
    let scheme = if config.secure_cookies { "https" } else { "http" };
    if let Some(name) = config.trusted_hosts.first() {
        return format!("{scheme}://{name}{}", config.base_path);
    }
    let host = headers.get(header::HOST).and_then(|v| v.to_str().ok()).unwrap_or("127.0.0.1");
    let name = match host.rsplit_once(':') {
        Some((name, port)) if port.chars().all(|c| c.is_ascii_digit()) => name,
        _ => host,
    };
    format!("{scheme}://{name}:{}{}", origin.trusted_port, config.base_path)
}

/// Starts a turn; its events are read from `api/turns/<turn>/events`. One turn at a time per session.
async fn start_turn(
    origin: &Arc<ChatOrigin>,
    key: String,
    session: &Arc<Session>,
    args: &Value,
) -> Result<Value, ApiError> {
    let text: String = arg(args, "text")?;
    let text = text.trim().to_owned();
    if text.is_empty() {
        return Err(ApiError::said(StatusCode::BAD_REQUEST, "empty", "error-empty-message", &[]));
    }
    if text.chars().count() > MAX_MESSAGE_CHARS {
        return Err(ApiError::said(StatusCode::BAD_REQUEST, "too_long", "error-message-too-long", &[]));
    }
    let conversation: Option<String> = arg(args, "conversation")?;
    if let Some(id) = &conversation {
        owned(session, id)?;
    }
    let limited = |wait: std::time::Duration| {
        tracing::warn!(address = %session.address, session = %session.short_id, "LAN turns rate limited");
        ApiError {
            message: format!(
                "That is a lot of messages at once. Wait {} seconds, then ask again.",
                wait.as_secs().max(1)
            ),
            ..ApiError::rate_limited(wait)
        }
    };
    origin.turns_per_session.admit_key(session.short_id.clone()).map_err(limited)?;
    origin.turns_per_address.admit(session.address).map_err(limited)?;
    {
        let mut state = session.state.lock().unwrap_or_else(|p| p.into_inner());
        if state.turn_running {
            return Err(ApiError::said(StatusCode::CONFLICT, "busy", "error-busy-answering", &[]));
        }
        state.turn_running = true;
        state.turn_stop = Some(aiui_core::agent::Stop::new());
    }
    let agent = origin.shared.assistant.agent.clone();
    let id = match conversation {
        Some(id) => ConversationId(id),
        None => {
            let title: String = text.chars().take(TITLE_CHARS).collect();
            let store = agent.store.clone();
            match blocking(move || store.create_conversation(&title)).await {
                Ok(id) => id,
                Err(e) => {
                    session.state.lock().unwrap_or_else(|p| p.into_inner()).turn_running = false;
                    return Err(e);
                }
            }
        }
    };
    session.state.lock().unwrap_or_else(|p| p.into_inner()).conversations.insert(id.0.clone());
    let turn_id = auth::random_token();
    let log = Arc::new(TurnLog::new(key));
    origin.turns.insert(turn_id.clone(), log.clone());
    let session = session.clone();
    let conversation = id.0.clone();
    // Written here, from what the sign-in recorded: the owner's confirmation says who asked.
    let requester = Requester::Lan {
        address: session.address.to_string(),
        signed_in_at_ms: session.signed_in_at_ms,
        session: session.short_id.clone(),
    };
    let stop = session.state.lock().unwrap_or_else(|p| p.into_inner()).turn_stop.clone().unwrap_or_default();
    tokio::spawn(async move {
        let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
        let turn = {
            let (agent, id) = (agent.clone(), id.clone());
            tokio::spawn(async move { agent.turn_stoppable(&id, &text, &tx, &requester, &stop).await })
        };
        while let Some(event) = rx.recv().await {
            log.push(for_the_chat_origin(ChatEvent::from(event)));
        }
        let failure = match turn.await {
            Ok(Ok(_)) => None,
            Ok(Err(e)) => Some(e.to_string()),
            Err(e) => Some(e.to_string()),
        };
        if let Some(message) = failure {
            tracing::error!(%message, "a turn failed");
            log.push(ChatEvent::Failed { message });
        }
        {
            let mut state = session.state.lock().unwrap_or_else(|p| p.into_inner());
            state.turn_running = false;
            state.turn_stop = None;
        }
        log.finish();
    });
    Ok(json!({ "conversation": conversation, "turn": turn_id }))
}

/// What of an event the chat origin may see: a receipt's request id is the trusted side's (the chat origin never
/// holds a confirmation's id or hash), so it is taken out.
fn for_the_chat_origin(event: ChatEvent) -> ChatEvent {
    match event {
        ChatEvent::Surface { mut surface } => {
            if let Some(fields) = surface.as_object_mut() {
                fields.remove("request_id");
            }
            ChatEvent::Surface { surface }
        }
        other => other,
    }
}

/// A turn's events as Server-Sent Events, from the start or after `Last-Event-ID`; only to the session that
/// started the turn, and only so many streams at once per session and per turn.
async fn events(State(origin): St, Path(turn): Path<String>, headers: HeaderMap) -> Result<Response, ApiError> {
    // An EventSource sends no CSRF token (a GET changes nothing): the session's cookie is the check.
    let (key, session) = origin.rules.sessions.find(&headers)?;
    let log = origin.turns.get(&turn).filter(|log| auth::same_token(&log.owner, &key));
    let Some(log) = log else {
        return Err(ApiError::said(StatusCode::NOT_FOUND, "unknown_turn", "error-unknown-turn", &[]));
    };
    let start = headers
        .get("last-event-id")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<usize>().ok())
        // An id no turn reaches (usize::MAX from a hostile client) asks for nothing more, not for an overflow.
        .map_or(0, |last| last.saturating_add(1));
    let Some(slot) = StreamSlot::take(session, log.clone()) else {
        tracing::warn!(turn = %&turn[..turn.len().min(8)], "refused an event stream: as many are open as allowed");
        return Err(ApiError {
            message: "This page has too many event streams open. Close other tabs of this chat and reload.".into(),
            ..ApiError::rate_limited(std::time::Duration::from_secs(5))
        });
    };
    use futures_util::StreamExt;
    let stream = crate::turns::stream(log, start).map(move |(index, event)| {
        // The slot lives as long as the stream: dropping the connection frees it.
        let _slot = &slot;
        Event::default().id(index.to_string()).json_data(&event).map_err(|e| std::io::Error::other(e.to_string()))
    });
    Ok(Sse::new(stream).keep_alive(KeepAlive::default()).into_response())
}

/// One open event stream, counted against its session and its turn until it is dropped.
struct StreamSlot {
    session: Arc<Session>,
    log: Arc<TurnLog>,
}

impl StreamSlot {
    fn take(session: Arc<Session>, log: Arc<TurnLog>) -> Option<Self> {
        let mut state = session.state.lock().unwrap_or_else(|p| p.into_inner());
        if state.streams >= STREAMS_PER_SESSION || !log.open_stream(STREAMS_PER_TURN) {
            return None;
        }
        state.streams += 1;
        drop(state);
        Some(Self { session, log })
    }
}

impl Drop for StreamSlot {
    fn drop(&mut self) {
        let mut state = self.session.state.lock().unwrap_or_else(|p| p.into_inner());
        state.streams = state.streams.saturating_sub(1);
        self.log.close_stream();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_session_holds_at_most_four_streams_and_a_turn_two_and_a_dropped_one_frees_its_place() {
        let config = crate::WebConfig::new(std::env::temp_dir(), std::env::temp_dir());
        let sessions = Sessions::new("chat", COOKIE, &config, auth::CHAT_LIFETIME);
        let (_, session) = sessions.create([127, 0, 0, 1].into());
        let turns: Vec<Arc<TurnLog>> = (0..3).map(|_| Arc::new(TurnLog::new(String::new()))).collect();
        let first = StreamSlot::take(session.clone(), turns[0].clone()).expect("one");
        let _second = StreamSlot::take(session.clone(), turns[0].clone()).expect("a reconnect's second");
        assert!(StreamSlot::take(session.clone(), turns[0].clone()).is_none(), "a turn's third");
        let _third = StreamSlot::take(session.clone(), turns[1].clone()).expect("another turn");
        let _fourth = StreamSlot::take(session.clone(), turns[1].clone()).expect("its second");
        assert!(StreamSlot::take(session.clone(), turns[2].clone()).is_none(), "a session's fifth");
        drop(first);
        assert!(StreamSlot::take(session.clone(), turns[2].clone()).is_some(), "the place is free again");
    }
}
