//! The authenticated client for an Archipelago node's RPC: login (with TOTP), CSRF, one re-login, pinning.
//!
//! The wire contract is `../shared/specs/archipelago-rpc.md`; every [assumed] name and shape is in
//! [`adapter`]. Nothing here logs a parameter, a cookie or a header value: only method names, statuses and
//! timings.

pub mod adapter;
pub mod contract;
mod cookies;
mod error;
pub mod shape;

use std::sync::Arc;
use std::time::{Duration, Instant};

use reqwest::StatusCode;
use reqwest::header::{COOKIE, HeaderValue, RETRY_AFTER};
use serde::de::DeserializeOwned;
use serde_json::{Map, Value, json};
use tokio::sync::Mutex;
use url::Url;

pub use adapter::{
    BitcoinInfo, Confidence, ContainerStatus, Effect, Health, LndInfo, METHODS, MethodSpec, Mint, NodeMethod, Package,
    PackageState, ResultShape, SystemStats,
};
pub use error::NodeError;
pub use shape::Drift;

use self::adapter::{AUTH_LOGIN, AUTH_LOGIN_TOTP, AUTH_LOGOUT, CSRF_HEADER};
use self::cookies::SessionCookies;
use crate::Secret;
use crate::net::{self, ClientSpec, Fingerprint, OutboundClient, TlsPolicy};

/// The largest RPC answer we read. Logs are the biggest thing the node sends; 4 MiB is thousands of lines.
const MAX_RESPONSE_BYTES: usize = 4 * 1024 * 1024;

/// Asks the owner for a current TOTP code when the node wants one. `None` means the owner gave none.
pub type TotpPrompt = Arc<dyn Fn() -> Option<Secret<String>> + Send + Sync>;

/// What the client logs in with. The node has one owner password and no username.
#[derive(Clone)]
pub struct Credentials {
    pub password: Secret<String>,
    /// Called for each login that the node answers with `totp_required`, including the one re-login after a
    /// session expires.
    pub totp: Option<TotpPrompt>,
}

impl std::fmt::Debug for Credentials {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Credentials").field("password", &self.password).field("totp", &self.totp.is_some()).finish()
    }
}

/// Where the node is and how to trust it.
#[derive(Debug, Clone)]
pub struct NodeConfig {
    /// The node's base URL, e.g. `https://archipelago.local`.
    pub url: Url,
    /// The owner-accepted fingerprint of the node's certificate. Required for `https` URLs: a self-signed node
    /// certificate is trusted only by pin, never by "accept any".
    pub pin: Option<Fingerprint>,
    pub connect_timeout: Duration,
    pub request_timeout: Duration,
}

impl NodeConfig {
    pub fn new(url: Url) -> Self {
        Self { url, pin: None, connect_timeout: Duration::from_secs(5), request_timeout: Duration::from_secs(20) }
    }

    pub fn with_pin(mut self, pin: Fingerprint) -> Self {
        self.pin = Some(pin);
        self
    }
}

/// The session state, behind one lock so that concurrent calls that all see an expired session cause one
/// re-login, not one each.
#[derive(Debug, Default)]
struct Session {
    cookies: SessionCookies,
    /// Bumped on every successful login; a call that failed on generation N re-logs in only if it is still N.
    generation: u64,
    logged_in: bool,
}

/// An authenticated connection to one node. Cheap to share behind an `Arc`; calls may run concurrently.
pub struct NodeClient {
    outbound: OutboundClient,
    config: NodeConfig,
    rpc_url: Url,
    credentials: Credentials,
    session: Mutex<Session>,
}

impl std::fmt::Debug for NodeClient {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NodeClient").field("url", &self.config.url.as_str()).finish_non_exhaustive()
    }
}

/// Connects to `url` without trusting it, and returns the fingerprint of the certificate it presents, for the
/// owner to compare and accept (trust on first use is the caller's decision). Sends nothing but a TLS handshake
/// and a `GET /health`.
pub async fn fetch_fingerprint(url: &Url, timeout: Duration) -> Result<Fingerprint, NodeError> {
    if url.scheme() != "https" {
        return Err(NodeError::Protocol {
            method: "tls".into(),
            detail: format!("{url} is not an https address, so it has no certificate to pin"),
        });
    }
    let spec = ClientSpec { tls: TlsPolicy::RecordOnly, connect_timeout: timeout, request_timeout: timeout };
    let outbound = build_client(&spec)?;
    let health = url.join("health").map_err(|e| bad_url(url, e))?;
    let result = outbound.http.get(health).send().await;
    match (outbound.presented.get(), result) {
        (Some(fingerprint), _) => Ok(fingerprint),
        (None, Err(e)) => Err(unreachable(url, &e)),
        (None, Ok(_)) => {
            Err(NodeError::Protocol { method: "tls".into(), detail: "no certificate was presented".into() })
        }
    }
}

impl NodeClient {
    /// Builds the client. It does not log in until the first call, or [`NodeClient::login`].
    pub fn new(config: NodeConfig, credentials: Credentials) -> Result<Self, NodeError> {
        let tls = match (config.url.scheme(), config.pin) {
            ("https", Some(pin)) => TlsPolicy::Pinned(pin),
            ("https", None) => {
                return Err(NodeError::Protocol {
                    method: "tls".into(),
                    detail: "an https node needs a pinned certificate fingerprint; fetch it, show it to the owner, \
                             and pair with the one they accept"
                        .into(),
                });
            }
            ("http", _) => TlsPolicy::PublicRoots,
            (other, _) => {
                return Err(NodeError::Protocol {
                    method: "url".into(),
                    detail: format!("unsupported scheme {other:?}; use http:// or https://"),
                });
            }
        };
        let spec = ClientSpec { tls, connect_timeout: config.connect_timeout, request_timeout: config.request_timeout };
        let outbound = build_client(&spec)?;
        let rpc_url = config.url.join("rpc/v1").map_err(|e| bad_url(&config.url, e))?;
        Ok(Self { outbound, config, rpc_url, credentials, session: Mutex::new(Session::default()) })
    }

    pub fn url(&self) -> &Url {
        &self.config.url
    }

    /// `GET /health`, unauthenticated.
    pub async fn health(&self) -> Result<Health, NodeError> {
        let url = self.config.url.join("health").map_err(|e| bad_url(&self.config.url, e))?;
        let response = self.outbound.http.get(url).send().await.map_err(|e| self.transport_error(&e))?;
        let status = response.status().as_u16();
        let body = self.read_body("health", response).await?;
        let body = serde_json::from_slice(&body)
            .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(&body).into_owned()));
        Ok(Health { status, body })
    }

    /// Logs in now (with the TOTP step if the node asks for it). A failure is returned as it is and never
    /// retried: the node rate-limits logins.
    pub async fn login(&self) -> Result<(), NodeError> {
        let mut session = self.session.lock().await;
        self.login_locked(&mut session).await
    }

    /// Ends the session on the node and forgets it here.
    pub async fn logout(&self) -> Result<(), NodeError> {
        let mut session = self.session.lock().await;
        if session.logged_in {
            let result = self.send(AUTH_LOGOUT, &json!({}), &mut session).await;
            session.logged_in = false;
            session.cookies = SessionCookies::default();
            result.map_err(|e| e.into_node(AUTH_LOGOUT))?;
        }
        Ok(())
    }

    /// Calls a node method with raw params. On 401/403 it logs in again **once** and retries the call **once**;
    /// a second refusal is `AuthFailed`.
    pub async fn call(&self, method: &str, params: Value) -> Result<Value, NodeError> {
        let generation = {
            let mut session = self.session.lock().await;
            if !session.logged_in {
                self.login_locked(&mut session).await?;
            }
            session.generation
        };
        match self.authed(method, &params).await {
            Err(Refused::Auth(status)) => {
                tracing::info!(method, status, "node refused the session; logging in again once");
                {
                    let mut session = self.session.lock().await;
                    // Another call may already have logged in again; then its fresh session is ours too.
                    if session.generation == generation {
                        session.logged_in = false;
                        self.login_locked(&mut session).await?;
                    }
                }
                match self.authed(method, &params).await {
                    Ok(value) => Ok(value),
                    Err(Refused::Auth(status)) => Err(NodeError::AuthFailed {
                        reason: format!(
                            "the node refused `{method}` (HTTP {status}) even after a fresh login; \
                             check that this account may use it"
                        ),
                    }),
                    Err(Refused::Other(e)) => Err(e),
                }
            }
            Err(Refused::Other(e)) => Err(e),
            Ok(value) => Ok(value),
        }
    }

    /// Calls a read method from the adapter table and reads its answer leniently (see [`parse_answer`]).
    pub(crate) async fn read_typed<T: DeserializeOwned>(
        &self,
        method: NodeMethod,
        app: Option<&str>,
        extra: Map<String, Value>,
    ) -> Result<Read<T>, NodeError> {
        let value = self.call(method.spec().rpc_name, method.params(app, extra)).await?;
        parse_canonical(method, &value)
    }

    async fn read_as<T: DeserializeOwned>(
        &self,
        method: NodeMethod,
        app: Option<&str>,
        extra: Map<String, Value>,
    ) -> Result<T, NodeError> {
        self.read_typed(method, app, extra).await.map(|read| read.value)
    }

    pub async fn list_packages(&self) -> Result<Vec<Package>, NodeError> {
        let reply: adapter::PackageListReply = self.read_as(NodeMethod::PackageList, None, Map::new()).await?;
        Ok(reply.packages)
    }

    pub async fn container_status(&self, app: &str) -> Result<ContainerStatus, NodeError> {
        self.read_as(NodeMethod::ContainerStatus, Some(app), Map::new()).await
    }

    /// The last `lines` log lines of an app, oldest first.
    pub async fn container_logs(&self, app: &str, lines: u32) -> Result<Vec<String>, NodeError> {
        let extra = Map::from_iter([("lines".to_owned(), json!(lines))]);
        let reply: adapter::LogsReply = self.read_as(NodeMethod::ContainerLogs, Some(app), extra).await?;
        Ok(reply.logs)
    }

    /// Starts, stops, restarts, installs or uninstalls an app. The caller (the gate) has already had it approved.
    pub async fn package_action(&self, method: NodeMethod, app: &str) -> Result<(), NodeError> {
        self.act(method, app, Map::new()).await
    }

    /// An action with extra params (an install's version). Only an answer of `{"ok": true}` is success: anything
    /// else is an error that says to check the app.
    pub async fn act(&self, method: NodeMethod, app: &str, extra: Map<String, Value>) -> Result<(), NodeError> {
        let spec = method.spec();
        if !matches!(spec.result, ResultShape::Ack) || spec.app_param.is_none() {
            return Err(protocol(spec.rpc_name, "not a package action"));
        }
        let answer = self.call(spec.rpc_name, method.params(Some(app), extra)).await?;
        check_ack(spec.rpc_name, &answer)
    }

    pub async fn bitcoin_info(&self) -> Result<BitcoinInfo, NodeError> {
        self.read_as(NodeMethod::BitcoinInfo, None, Map::new()).await
    }

    pub async fn lnd_info(&self) -> Result<LndInfo, NodeError> {
        self.read_as(NodeMethod::LndInfo, None, Map::new()).await
    }

    pub async fn system_stats(&self) -> Result<SystemStats, NodeError> {
        self.read_as(NodeMethod::SystemStats, None, Map::new()).await
    }

    pub async fn list_mints(&self) -> Result<Vec<Mint>, NodeError> {
        let reply: adapter::MintListReply = self.read_as(NodeMethod::ListMints, None, Map::new()).await?;
        Ok(reply.mints)
    }

    async fn login_locked(&self, session: &mut Session) -> Result<(), NodeError> {
        session.cookies = SessionCookies::default();
        session.logged_in = false;
        let params = json!({ "password": self.credentials.password.expose() });
        let reply: adapter::LoginReply = self.login_step(AUTH_LOGIN, &params, session).await?;
        if reply.totp_required {
            let prompt = self.credentials.totp.as_ref().ok_or_else(|| NodeError::AuthFailed {
                reason: "the node asks for a TOTP code and none can be given here".into(),
            })?;
            let code = prompt().ok_or_else(|| NodeError::AuthFailed { reason: "no TOTP code was given".into() })?;
            let params = json!({ "code": code.expose().trim() });
            let _: Value = self.login_step(AUTH_LOGIN_TOTP, &params, session).await?;
        }
        if session.cookies.session.is_none() {
            let detail = if session.cookies.any_secure() || self.config.url.scheme() == "http" {
                "the node set no session cookie usable over plain http; connect over https"
            } else {
                "the node accepted the login but set no session cookie"
            };
            return Err(NodeError::Protocol { method: AUTH_LOGIN.into(), detail: detail.into() });
        }
        if self.config.url.scheme() == "http" && session.cookies.any_secure() {
            return Err(NodeError::Protocol {
                method: AUTH_LOGIN.into(),
                detail: "the node marks its cookies Secure, so they cannot travel over plain http; use https".into(),
            });
        }
        session.logged_in = true;
        session.generation += 1;
        tracing::info!(node = %self.config.url, "logged in to the node");
        Ok(())
    }

    async fn login_step<T: DeserializeOwned>(
        &self,
        method: &str,
        params: &Value,
        session: &mut Session,
    ) -> Result<T, NodeError> {
        match self.send(method, params, session).await {
            Ok(value) => serde_json::from_value(value)
                .map_err(|e| NodeError::Protocol { method: method.into(), detail: e.to_string() }),
            Err(SendError::Status { status: status @ 400..=428 | status @ 430..=499, message, .. }) => {
                tracing::info!(method, status, "the node refused the login");
                Err(NodeError::AuthFailed { reason: message })
            }
            Err(other) => Err(other.into_node(method)),
        }
    }

    /// One authenticated call with the current session, without any retry.
    async fn authed(&self, method: &str, params: &Value) -> Result<Value, Refused> {
        // The session is cloned out so the lock is not held across the network call.
        let mut snapshot = {
            let session = self.session.lock().await;
            Session { cookies: session.cookies.clone(), generation: session.generation, logged_in: true }
        };
        match self.send(method, params, &mut snapshot).await {
            Ok(value) => Ok(value),
            Err(SendError::Status { status: status @ (401 | 403), .. }) => Err(Refused::Auth(status)),
            Err(other) => Err(Refused::Other(other.into_node(method))),
        }
    }

    /// Posts `{method, params}` with the session's cookie and CSRF header, and reads `{result}` or
    /// `{error:{message}}`. Cookies the node sets are absorbed into `session`.
    async fn send(&self, method: &str, params: &Value, session: &mut Session) -> Result<Value, SendError> {
        let started = Instant::now();
        let over_https = self.config.url.scheme() == "https";
        let mut request =
            self.outbound.http.post(self.rpc_url.clone()).json(&json!({ "method": method, "params": params }));
        if let Some(cookie) = session.cookies.header(over_https) {
            let mut value = HeaderValue::from_str(cookie.expose())
                .map_err(|_| SendError::Node(protocol(method, "the node set a cookie that cannot be sent back")))?;
            value.set_sensitive(true);
            request = request.header(COOKIE, value);
        }
        if let Some(csrf) = session.cookies.csrf.as_ref() {
            let mut value = HeaderValue::from_str(csrf.value.expose())
                .map_err(|_| SendError::Node(protocol(method, "the node set a CSRF token that cannot be sent back")))?;
            value.set_sensitive(true);
            request = request.header(CSRF_HEADER, value);
        }
        let response = request.send().await.map_err(|e| SendError::Node(self.transport_error(&e)))?;
        let status = response.status();
        session.cookies.absorb(response.headers());
        let retry_after = response
            .headers()
            .get(RETRY_AFTER)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.trim().parse::<u64>().ok())
            .map(Duration::from_secs);
        let body = self.read_body(method, response).await.map_err(SendError::Node)?;
        tracing::debug!(
            method,
            status = status.as_u16(),
            elapsed_ms = started.elapsed().as_millis() as u64,
            "node rpc"
        );
        let envelope = Envelope::read(&body);
        if !status.is_success() {
            let parsed = serde_json::from_slice::<Value>(&body).ok();
            let message = parsed.as_ref().and_then(error_message).unwrap_or_else(|| describe_status(status, &body));
            return Err(SendError::Status { status: status.as_u16(), message, retry_after });
        }
        match envelope {
            Envelope::Result(v) => Ok(v),
            Envelope::Error(message) => Err(SendError::Status { status: status.as_u16(), message, retry_after: None }),
            Envelope::Neither => Err(SendError::Node(protocol(method, "the answer has neither `result` nor `error`"))),
            Envelope::NotJson => Err(SendError::Node(protocol(method, "the answer is not JSON"))),
        }
    }

    async fn read_body(&self, method: &str, response: reqwest::Response) -> Result<Vec<u8>, NodeError> {
        net::read_capped(response, MAX_RESPONSE_BYTES).await.map_err(|e| match e {
            net::BodyError::TooLarge { .. } => protocol(method, &e.to_string()),
            net::BodyError::Read(inner) => self.transport_error(&inner),
        })
    }

    /// A transport failure, told apart into a pin mismatch (our refusal) or an unreachable node.
    fn transport_error(&self, error: &reqwest::Error) -> NodeError {
        if let (Some(expected), Some(presented)) = (self.config.pin, self.outbound.presented.get())
            && expected != presented
        {
            return NodeError::CertificateMismatch { expected, presented };
        }
        unreachable(&self.config.url, error)
    }
}

/// A read's value, with what the lenient reader had to forgive (skipped entries are the owner's business).
#[derive(Debug, Clone, PartialEq)]
pub struct Read<T> {
    pub value: T,
    pub drift: Drift,
}

/// A read method's answer, typed. Serializes as the bare value.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[serde(untagged)]
pub enum Answer {
    Packages(Vec<Package>),
    ContainerStatus(ContainerStatus),
    Logs(Vec<String>),
    Bitcoin(BitcoinInfo),
    Lightning(LndInfo),
    System(SystemStats),
    Mints(Vec<Mint>),
}

/// Reads a read method's raw `result` through its shape in the adapter table: drift is forgiven where it is
/// safe, a bad list entry is skipped (and logged), and an answer beyond repair is a `Protocol` error naming the
/// method and what was wrong. Pure, so fixtures can be read exactly as a live answer is.
pub fn parse_answer(method: NodeMethod, value: &Value) -> Result<Read<Answer>, NodeError> {
    fn typed<T: DeserializeOwned>(method: NodeMethod, value: &Value) -> Result<Read<T>, NodeError> {
        parse_canonical(method, value)
    }
    let answer = match method {
        NodeMethod::PackageList => {
            typed::<adapter::PackageListReply>(method, value)?.map(|r| Answer::Packages(r.packages))
        }
        NodeMethod::ContainerStatus => typed(method, value)?.map(Answer::ContainerStatus),
        NodeMethod::ContainerLogs => typed::<adapter::LogsReply>(method, value)?.map(|r| Answer::Logs(r.logs)),
        NodeMethod::BitcoinInfo => typed(method, value)?.map(Answer::Bitcoin),
        NodeMethod::LndInfo => typed(method, value)?.map(Answer::Lightning),
        NodeMethod::SystemStats => typed(method, value)?.map(Answer::System),
        NodeMethod::ListMints => typed::<adapter::MintListReply>(method, value)?.map(|r| Answer::Mints(r.mints)),
        other => return Err(protocol(other.spec().rpc_name, "an action, not a read")),
    };
    Ok(answer)
}

impl<T> Read<T> {
    fn map<U>(self, f: impl FnOnce(T) -> U) -> Read<U> {
        Read { value: f(self.value), drift: self.drift }
    }
}

fn parse_canonical<T: DeserializeOwned>(method: NodeMethod, value: &Value) -> Result<Read<T>, NodeError> {
    let spec = method.spec();
    let ResultShape::Read(shape) = spec.result else { return Err(protocol(spec.rpc_name, "an action, not a read")) };
    let reading = shape::read(shape, value).map_err(|why| NodeError::Protocol {
        method: spec.rpc_name.to_owned(),
        detail: format!("{why}; the adapter table (node/adapter.rs) may need correcting for this node"),
    })?;
    for reason in &reading.drift.skipped {
        tracing::warn!(method = spec.rpc_name, %reason, "skipped an entry the adapter could not read");
    }
    // The canonical value is built from the shape, so a failure here is a mismatch between the shape and the
    // struct in the adapter table (a test reads every fixture to catch it), not the node's fault.
    let typed = serde_json::from_value(reading.canonical)
        .map_err(|e| protocol(spec.rpc_name, &format!("the adapter's shape and type disagree: {e}")))?;
    Ok(Read { value: typed, drift: reading.drift })
}

/// An action's answer, strictly: `{"ok": true}` is done, `{"ok": false}` is the node saying no, and anything
/// else is not understood and never taken for success.
fn check_ack(method: &str, answer: &Value) -> Result<(), NodeError> {
    match answer.get("ok") {
        Some(Value::Bool(true)) => Ok(()),
        Some(Value::Bool(false)) => Err(NodeError::Rpc {
            method: method.to_owned(),
            status: 200,
            message: answer
                .get("message")
                .or_else(|| answer.get("error"))
                .and_then(Value::as_str)
                .unwrap_or("the node reported that it did not do it")
                .to_owned(),
        }),
        _ => Err(protocol(
            method,
            "it is neither {\"ok\": true} nor {\"ok\": false}, so the action may or may not have happened; \
             check the app's state before trying again",
        )),
    }
}

enum SendError {
    Status { status: u16, message: String, retry_after: Option<Duration> },
    Node(NodeError),
}

impl SendError {
    fn into_node(self, method: &str) -> NodeError {
        match self {
            Self::Status { status: 429, retry_after, .. } => NodeError::RateLimited { retry_after },
            Self::Status { status, message, .. } => NodeError::Rpc { method: method.into(), status, message },
            Self::Node(e) => e,
        }
    }
}

enum Refused {
    Auth(u16),
    Other(NodeError),
}

/// An RPC answer body taken apart: `{"result": …}` wins over `{"error": …}`, as the node sends one or the other.
#[derive(Debug, PartialEq)]
pub(crate) enum Envelope {
    Result(Value),
    /// The error's `message`, or the whole error value when it has none.
    Error(String),
    Neither,
    NotJson,
}

impl Envelope {
    pub(crate) fn read(body: &[u8]) -> Self {
        let Ok(mut value) = serde_json::from_slice::<Value>(body) else { return Self::NotJson };
        if value.get("result").is_some() {
            return Self::Result(value["result"].take());
        }
        error_message(&value).map_or(Self::Neither, Self::Error)
    }
}

/// The `error.message` of an answer, or the whole `error` value when it has no message.
fn error_message(value: &Value) -> Option<String> {
    let error = value.get("error")?;
    Some(error.get("message").and_then(Value::as_str).map_or_else(|| error.to_string(), str::to_owned))
}

fn build_client(spec: &ClientSpec) -> Result<OutboundClient, NodeError> {
    net::client(spec).map_err(|e| NodeError::Protocol { method: "tls".into(), detail: e.to_string() })
}

fn protocol(method: &str, detail: &str) -> NodeError {
    NodeError::Protocol { method: method.to_owned(), detail: detail.to_owned() }
}

fn bad_url(url: &Url, e: url::ParseError) -> NodeError {
    NodeError::Protocol { method: "url".into(), detail: format!("{url} cannot be used as a node address: {e}") }
}

fn unreachable(url: &Url, error: &reqwest::Error) -> NodeError {
    let reason = if error.is_timeout() {
        "timed out".to_owned()
    } else if error.is_connect() {
        // The innermost cause says "Connection refused" or names the TLS failure, which the owner can act on.
        let mut source: &dyn std::error::Error = error;
        while let Some(next) = source.source() {
            source = next;
        }
        format!("could not connect: {source}")
    } else {
        error.to_string()
    };
    NodeError::Unreachable { url: url.to_string(), reason }
}

fn describe_status(status: StatusCode, body: &[u8]) -> String {
    let text = String::from_utf8_lossy(body);
    let snippet: String = text.chars().take(200).collect();
    if snippet.trim().is_empty() { format!("HTTP {status}") } else { format!("HTTP {status}: {}", snippet.trim()) }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn an_action_is_done_only_on_ok_true() {
        assert!(check_ack("package.stop", &json!({"ok": true, "job": 4})).is_ok());
        let refused = check_ack("package.stop", &json!({"ok": false, "message": "busy"})).unwrap_err();
        assert!(matches!(refused, NodeError::Rpc { ref message, .. } if message == "busy"), "{refused:?}");
        for answer in [json!({"queued": true}), json!(true), json!({"ok": "yes"}), json!(null)] {
            let e = check_ack("package.stop", &answer).unwrap_err().to_string();
            assert!(e.contains("not understood") && e.contains("check the app's state"), "{answer}: {e}");
        }
    }
}
