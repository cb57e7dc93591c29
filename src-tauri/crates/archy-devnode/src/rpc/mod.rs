//! The HTTP surface: `POST /rpc/v1` with `{method, params}`, and `GET /health`.
//!
//! Every answer is `{"result": …}` or `{"error": {"message": …}}` with a meaningful HTTP status, as on the real
//! node. Logs name methods and outcomes only, never params, cookies or headers.

mod login;
mod methods;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Instant, SystemTime};

use axum::body::Bytes;
use axum::extract::{ConnectInfo, State};
use axum::http::header::{RETRY_AFTER, SET_COOKIE};
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde_json::{Map, Value, json};

use crate::auth::Refusal;
use crate::state::{NodeState, lock};

pub(crate) const SESSION_COOKIE: &str = "archipelago_session";
pub(crate) const CSRF_COOKIE: &str = "csrf_token";
const CSRF_HEADER: &str = "x-csrf-token";

pub(crate) fn router(node: Arc<NodeState>) -> Router {
    Router::new().route("/health", get(health)).route("/rpc/v1", post(rpc)).with_state(node)
}

async fn health() -> Json<Value> {
    Json(json!({ "status": "ok", "version": env!("CARGO_PKG_VERSION") }))
}

/// A failed call: its status, its message, and for 429 how long to wait.
#[derive(Debug)]
pub(crate) struct RpcError {
    status: StatusCode,
    message: String,
    retry_after: Option<u64>,
}

impl RpcError {
    pub fn new(status: StatusCode, message: impl Into<String>) -> Self {
        Self { status, message: message.into(), retry_after: None }
    }

    pub fn bad_params(message: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, message)
    }
}

impl IntoResponse for RpcError {
    fn into_response(self) -> Response {
        let mut response = (self.status, Json(json!({ "error": { "message": self.message } }))).into_response();
        if let Some(secs) = self.retry_after {
            response.headers_mut().insert(RETRY_AFTER, HeaderValue::from(secs));
        }
        response
    }
}

/// A successful call: its result and any cookies it sets.
#[derive(Debug)]
pub(crate) struct Reply {
    result: Value,
    cookies: Vec<String>,
}

impl Reply {
    pub fn new(result: Value) -> Self {
        Self { result, cookies: Vec::new() }
    }

    pub fn with_cookies(result: Value, cookies: Vec<String>) -> Self {
        Self { result, cookies }
    }
}

impl IntoResponse for Reply {
    fn into_response(self) -> Response {
        let mut response = Json(json!({ "result": self.result })).into_response();
        for cookie in self.cookies {
            if let Ok(value) = HeaderValue::from_str(&cookie) {
                response.headers_mut().append(SET_COOKIE, value);
            }
        }
        response
    }
}

/// The methods this node answers. Anything else is 404.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Method {
    Login,
    LoginTotp,
    Logout,
    IsOnboardingComplete,
    PackageList,
    PackageStart,
    PackageStop,
    PackageRestart,
    PackageInstall,
    PackageUninstall,
    ContainerLogs,
    ContainerStatus,
    BitcoinInfo,
    LndInfo,
    SystemStats,
    ListMints,
}

const METHODS: &[(&str, Method)] = &[
    ("auth.login", Method::Login),
    ("auth.login.totp", Method::LoginTotp),
    ("auth.logout", Method::Logout),
    ("auth.isOnboardingComplete", Method::IsOnboardingComplete),
    ("package.list", Method::PackageList),
    ("package.start", Method::PackageStart),
    ("package.stop", Method::PackageStop),
    ("package.restart", Method::PackageRestart),
    ("package.install", Method::PackageInstall),
    ("package.uninstall", Method::PackageUninstall),
    ("container-logs", Method::ContainerLogs),
    ("container-status", Method::ContainerStatus),
    ("bitcoin.getinfo", Method::BitcoinInfo),
    ("lnd.getinfo", Method::LndInfo),
    ("system.stats", Method::SystemStats),
    ("streaming.list-mints", Method::ListMints),
];

impl Method {
    fn parse(name: &str) -> Option<Self> {
        METHODS.iter().find(|(n, _)| *n == name).map(|(_, m)| *m)
    }

    pub fn name(self) -> &'static str {
        METHODS.iter().find(|(_, m)| *m == self).map_or("?", |(n, _)| n)
    }
}

/// A request body taken apart.
#[derive(Debug)]
struct Call {
    method: String,
    params: Map<String, Value>,
}

fn parse_body(body: &[u8]) -> Result<Call, RpcError> {
    let value: Value = serde_json::from_slice(body).map_err(|e| {
        RpcError::bad_params(format!(
            "the request body is not valid JSON ({e}); send {{\"method\": …, \"params\": {{…}}}}"
        ))
    })?;
    let Value::Object(mut object) = value else {
        return Err(RpcError::bad_params("the request body must be a JSON object {\"method\": …, \"params\": {…}}"));
    };
    let Some(Value::String(method)) = object.remove("method") else {
        return Err(RpcError::bad_params("the request body needs a \"method\" string, e.g. \"package.list\""));
    };
    let params = match object.remove("params") {
        None | Some(Value::Null) => Map::new(),
        Some(Value::Object(params)) => params,
        Some(_) => return Err(RpcError::bad_params(format!("params of `{method}` must be a JSON object"))),
    };
    Ok(Call { method, params })
}

async fn rpc(
    State(node): State<Arc<NodeState>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let latency = lock(&node.faults).latency();
    if !latency.is_zero() {
        tokio::time::sleep(latency).await;
    }
    let started = Instant::now();
    let call = match parse_body(&body) {
        Ok(call) => call,
        Err(e) => {
            tracing::debug!(status = e.status.as_u16(), "rpc request refused: malformed body");
            return e.into_response();
        }
    };
    lock(&node.calls).push(call.method.clone());
    lock(&node.requests).push((call.method.clone(), Value::Object(call.params.clone())));
    let method = Method::parse(&call.method);
    let outcome = dispatch(&node, peer, &headers, method, &call);
    // Only known names are logged: an unknown one is caller input and could carry anything.
    let name = method.map_or("(unknown)", Method::name);
    let elapsed_ms = started.elapsed().as_millis() as u64;
    match outcome {
        Ok(reply) => {
            tracing::debug!(method = name, status = 200, elapsed_ms, "rpc");
            reply.into_response()
        }
        Err(e) => {
            tracing::info!(method = name, status = e.status.as_u16(), elapsed_ms, "rpc refused");
            e.into_response()
        }
    }
}

fn dispatch(
    node: &Arc<NodeState>,
    peer: SocketAddr,
    headers: &HeaderMap,
    method: Option<Method>,
    call: &Call,
) -> Result<Reply, RpcError> {
    let params = &call.params;
    match method {
        Some(Method::Login) => return login::login(node, peer.ip(), params),
        Some(Method::LoginTotp) => return login::login_totp(node, peer.ip(), headers, params),
        Some(Method::IsOnboardingComplete) => return Ok(Reply::new(json!(true))),
        _ => {}
    }
    let session = cookie(headers, SESSION_COOKIE);
    let csrf = headers.get(CSRF_HEADER).and_then(|v| v.to_str().ok());
    lock(&node.sessions).authorize(session, csrf, Instant::now()).map_err(|refusal| match refusal {
        Refusal::NotLoggedIn => RpcError::new(StatusCode::UNAUTHORIZED, "not logged in or session expired"),
        Refusal::BadCsrf => RpcError::new(StatusCode::FORBIDDEN, "missing or wrong CSRF token"),
    })?;
    let Some(method) = method else {
        // Echoed to the caller who sent it, never logged; capped so a huge name is not mirrored back whole.
        let shown: String = call.method.chars().take(100).collect();
        return Err(RpcError::new(StatusCode::NOT_FOUND, format!("unknown method `{shown}`")));
    };
    if method == Method::Logout {
        return Ok(login::logout(node, session));
    }
    if lock(&node.faults).next_call_fails() {
        return Err(RpcError::new(StatusCode::INTERNAL_SERVER_ERROR, "internal error (injected fault)"));
    }
    methods::call(node, method, params, SystemTime::now())
}

/// The value of cookie `name` from the request's `Cookie` headers.
pub(crate) fn cookie<'h>(headers: &'h HeaderMap, name: &str) -> Option<&'h str> {
    headers
        .get_all(axum::http::header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(n, _)| *n == name)
        .map(|(_, v)| v.trim())
}

#[cfg(test)]
mod tests;
