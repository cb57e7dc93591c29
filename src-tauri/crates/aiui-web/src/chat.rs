//! The chat origin: LAN users sign in with the LAN passphrase and chat, each session with its own conversations.
//! It runs the same commands as the desktop chat window (over `POST api/invoke/<command>`, a turn's events over
//! Server-Sent Events), and nothing of the trusted window: no confirmation's id or hash ever reaches it.

use std::net::SocketAddr;
use std::sync::Arc;

use aiui_core::store::ConversationId;
use aiui_core::view::{AllowanceView, ChatEvent, ConversationDetail, ConversationView, NodeView, PackageView};
use axum::extract::{ConnectInfo, Path, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::auth::{self, RateLimiter, Session, Sessions};
use crate::passphrase::StoredHash;
use crate::turns::{TurnLog, Turns};
use crate::{ApiError, Shared, blocking, files};

/// The longest title taken from a first message (as in the desktop app).
const TITLE_CHARS: usize = 60;
/// The longest message accepted.
const MAX_MESSAGE_CHARS: usize = 8000;

pub(crate) const COOKIE: &str = "aiui_lan";

const CSP: &str = "script-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'";

struct ChatOrigin {
    shared: Arc<Shared>,
    sessions: Sessions,
    limiter: RateLimiter,
    lan: StoredHash,
    turns: Turns,
    trusted_port: u16,
}

type St = State<Arc<ChatOrigin>>;

pub(crate) fn router(shared: Arc<Shared>, lan: StoredHash, trusted_port: u16) -> Router {
    let base = shared.config.base_path.clone();
    let limiter = RateLimiter::new(shared.config.limits);
    let origin = Arc::new(ChatOrigin {
        shared,
        sessions: Sessions::new(COOKIE),
        limiter,
        lan,
        turns: Turns::default(),
        trusted_port,
    });
    let router = Router::new()
        .route(&base, get(page))
        .route(&format!("{base}index.html"), get(page))
        .route(&format!("{base}api/session"), get(session))
        .route(&format!("{base}api/login"), post(login))
        .route(&format!("{base}api/logout"), post(logout))
        .route(&format!("{base}api/invoke/{{command}}"), post(invoke))
        .route(&format!("{base}api/turns/{{turn}}/events"), get(events))
        .route(&format!("{base}{{*path}}"), get(file));
    files::with_bare_base_redirect(router, &base).layer(axum::middleware::map_response(headers)).with_state(origin)
}

async fn headers(mut response: Response) -> Response {
    files::set_security_headers(response.headers_mut(), CSP);
    response
}

impl ChatOrigin {
    /// The caller's session, checked for a call that changes something (origin and CSRF token).
    fn guard(&self, headers: &HeaderMap) -> Result<(String, Arc<Session>), ApiError> {
        self.sessions.checked(headers, self.shared.config.trust_proxy, "chat")
    }
}

async fn page(State(origin): St, headers: HeaderMap) -> Response {
    if origin.sessions.find(&headers).is_none() {
        return Redirect::to("login.html").into_response();
    }
    origin.shared.ui.serve("index.html", files::chat_allows).await
}

async fn file(State(origin): St, Path(path): Path<String>) -> Response {
    origin.shared.ui.serve(&path, files::chat_allows).await
}

async fn session(State(origin): St, headers: HeaderMap) -> Json<Value> {
    match origin.sessions.find(&headers) {
        Some((_, session)) => Json(json!({ "origin": "chat", "signed_in": true, "csrf": session.csrf })),
        None => Json(json!({ "origin": "chat", "signed_in": false })),
    }
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
    let config = &origin.shared.config;
    if !auth::same_origin(&headers, config.trust_proxy) {
        return Err(ApiError::forbidden_origin());
    }
    let addr = auth::client_addr(peer, &headers, config.trust_proxy);
    origin.limiter.admit(addr).map_err(|wait| {
        tracing::warn!(%addr, "LAN sign-in rate limited");
        ApiError::rate_limited(wait)
    })?;
    let ok = origin.shared.verify(&origin.lan, &body.passphrase).await?;
    if !ok {
        tracing::warn!(%addr, "a wrong LAN passphrase");
        return Err(ApiError::new(
            StatusCode::UNAUTHORIZED,
            "wrong_passphrase",
            "That LAN passphrase is not right. Check it with the node's owner and try again.",
        ));
    }
    origin.limiter.succeeded(addr);
    origin.sessions.signed_in(config)
}

async fn logout(State(origin): St, headers: HeaderMap) -> Result<Response, ApiError> {
    origin.guard(&headers)?;
    origin.sessions.signed_out(&headers, &origin.shared.config)
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
    let (key, session) = origin.guard(&headers)?;
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
            json!(aiui_core::suggest::suggested_questions(&assistant.agent.node).await.map_err(|e| ApiError::new(
                StatusCode::BAD_GATEWAY,
                "node",
                e.to_string()
            ))?)
        }
        "allowance_get" => {
            let notices = assistant.notices.read().unwrap_or_else(|p| p.into_inner()).clone();
            let view =
                AllowanceView::new(&assistant.budget.get(), notices).with_node_mints(assistant.agent.node_mints());
            json!(view)
        }
        "request_trusted_window" => json!({ "url": trusted_url(&origin, &headers) }),
        other if other.starts_with("trusted_") => {
            return Err(ApiError::new(
                StatusCode::FORBIDDEN,
                "not_trusted",
                "This can only be done on the trusted origin, where the owner signs in with the approval passphrase.",
            ));
        }
        other => {
            return Err(ApiError::new(
                StatusCode::NOT_FOUND,
                "unknown_command",
                format!("There is no command `{other}`."),
            ));
        }
    };
    Ok(Json(answer).into_response())
}

fn owned(session: &Session, id: &str) -> Result<(), ApiError> {
    if session.state.lock().unwrap_or_else(|p| p.into_inner()).conversations.contains(id) {
        Ok(())
    } else {
        Err(ApiError::new(
            StatusCode::NOT_FOUND,
            "unknown_conversation",
            "There is no such conversation in this session.",
        ))
    }
}

/// Where the chat page links for confirmations: `--trusted-url`, else this host name on the trusted port.
fn trusted_url(origin: &ChatOrigin, headers: &HeaderMap) -> String {
    let config = &origin.shared.config;
    if let Some(url) = &config.trusted_url {
        return url.clone();
    }
    let host = headers.get(header::HOST).and_then(|v| v.to_str().ok()).unwrap_or("127.0.0.1");
    let name = match host.rsplit_once(':') {
        Some((name, port)) if port.chars().all(|c| c.is_ascii_digit()) => name,
        _ => host,
    };
    let scheme = if config.secure_cookies { "https" } else { "http" };
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
        return Err(ApiError::new(StatusCode::BAD_REQUEST, "empty", "Type a message first."));
    }
    if text.chars().count() > MAX_MESSAGE_CHARS {
        return Err(ApiError::new(StatusCode::BAD_REQUEST, "too_long", "That message is too long; shorten it."));
    }
    let conversation: Option<String> = arg(args, "conversation")?;
    if let Some(id) = &conversation {
        owned(session, id)?;
    }
    {
        let mut state = session.state.lock().unwrap_or_else(|p| p.into_inner());
        if state.turn_running {
            return Err(ApiError::new(
                StatusCode::CONFLICT,
                "busy",
                "The assistant is still answering; wait for it to finish.",
            ));
        }
        state.turn_running = true;
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
    tokio::spawn(async move {
        let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
        let turn = {
            let (agent, id) = (agent.clone(), id.clone());
            tokio::spawn(async move { agent.turn(&id, &text, &tx).await })
        };
        while let Some(event) = rx.recv().await {
            log.push(ChatEvent::from(event));
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
        session.state.lock().unwrap_or_else(|p| p.into_inner()).turn_running = false;
        log.finish();
    });
    Ok(json!({ "conversation": conversation, "turn": turn_id }))
}

/// A turn's events as Server-Sent Events, from the start or after `Last-Event-ID`; only to the session that
/// started the turn.
async fn events(State(origin): St, Path(turn): Path<String>, headers: HeaderMap) -> Result<Response, ApiError> {
    // An EventSource sends no CSRF token (a GET changes nothing): the session's cookie is the check.
    let Some((key, _)) = origin.sessions.find(&headers) else { return Err(ApiError::signed_out()) };
    let log = origin.turns.get(&turn).filter(|log| auth::same_token(&log.owner, &key));
    let Some(log) = log else {
        return Err(ApiError::new(StatusCode::NOT_FOUND, "unknown_turn", "There is no such turn in this session."));
    };
    let start = headers
        .get("last-event-id")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<usize>().ok())
        // An id no turn reaches (usize::MAX from a hostile client) asks for nothing more, not for an overflow.
        .map_or(0, |last| last.saturating_add(1));
    use futures_util::StreamExt;
    let stream = crate::turns::stream(log, start).map(|(index, event)| {
        Event::default().id(index.to_string()).json_data(&event).map_err(|e| std::io::Error::other(e.to_string()))
    });
    Ok(Sse::new(stream).keep_alive(KeepAlive::default()).into_response())
}
