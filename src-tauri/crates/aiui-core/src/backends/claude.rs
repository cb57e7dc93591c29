//! The Claude leg: Anthropic's Messages API, with the API key read from the OS keyring.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use reqwest::header::{CONTENT_TYPE, HeaderValue, RETRY_AFTER};
use serde_json::Value;
use url::Url;

use super::format::anthropic as wire;
use super::stream::{self, Failed, Fault, StreamFault};
use super::{BackendError, BackendId, ChatRequest, OnDelta, Turn};
use crate::egress::Origin;
use crate::net::{self, ClientSpec, OutboundClient, TlsPolicy};
use crate::secrets::{SecretName, Secrets};

const NAME: &str = "claude";
const API_VERSION: &str = "2023-06-01";
const MAX_REPLY_BYTES: usize = 8 * 1024 * 1024;

#[derive(Debug, Clone)]
pub struct ClaudeConfig {
    /// `https://api.anthropic.com/`; tests point it at a loopback wire server.
    pub base_url: Url,
    pub model: String,
    /// After an overload, rate limit or 5xx, the leg is skipped for this long (or the server's `retry-after`).
    pub down_for: Duration,
    pub request_timeout: Duration,
    /// A streamed answer that sends nothing for this long has stalled (the total `request_timeout` still holds).
    pub idle_timeout: Duration,
}

impl Default for ClaudeConfig {
    fn default() -> Self {
        Self {
            base_url: Url::parse("https://api.anthropic.com/").expect("a literal URL"),
            model: "claude-sonnet-4-5".into(),
            down_for: Duration::from_secs(30),
            request_timeout: Duration::from_secs(120),
            idle_timeout: Duration::from_secs(60),
        }
    }
}

#[derive(Debug)]
pub struct Claude {
    config: ClaudeConfig,
    secrets: Arc<Secrets>,
    http: OutboundClient,
    down_until: Mutex<Option<(Instant, String)>>,
}

impl Claude {
    pub fn new(config: ClaudeConfig, secrets: Arc<Secrets>) -> Result<Self, net::ClientBuildError> {
        let http = net::client(&ClientSpec {
            tls: TlsPolicy::PublicRoots,
            connect_timeout: Duration::from_secs(5),
            request_timeout: config.request_timeout,
        })?;
        Ok(Self { config, secrets, http, down_until: Mutex::new(None) })
    }

    /// Usable when a key is in the keyring and the leg is not marked down.
    pub async fn check(&self) -> Result<BackendId, String> {
        if let Some((until, reason)) = self.down_until.lock().unwrap_or_else(|p| p.into_inner()).clone()
            && Instant::now() < until
        {
            return Err(format!("Claude is skipped for now: {reason}"));
        }
        match self.key().await {
            Ok(Some(_)) => Ok(BackendId::Claude { model: self.config.model.clone() }),
            Ok(None) => Err("no Claude API key is set; add one in the trusted settings window".into()),
            Err(e) => Err(e),
        }
    }

    async fn key(&self) -> Result<Option<crate::Secret<String>>, String> {
        let secrets = self.secrets.clone();
        tokio::task::spawn_blocking(move || secrets.get(SecretName::AnthropicApiKey))
            .await
            .map_err(|e| e.to_string())?
            .map_err(|e| e.to_string())
    }

    fn mark_down(&self, for_: Duration, reason: &str) {
        *self.down_until.lock().unwrap_or_else(|p| p.into_inner()) = Some((Instant::now() + for_, reason.to_owned()));
    }

    pub fn request_body(&self, request: &ChatRequest) -> Value {
        wire::request(request, &self.config.model)
    }

    pub fn origin_of(body: &Value, pointer: &str) -> Origin {
        wire::origin_of(body, pointer)
    }

    pub async fn send(&self, body: Value) -> Result<Turn, BackendError> {
        let response = self.post(&body).await?;
        if response.status() != reqwest::StatusCode::OK {
            return Err(self.refusal(response).await);
        }
        self.whole(response).await
    }

    async fn whole(&self, response: reqwest::Response) -> Result<Turn, BackendError> {
        let bytes = net::read_capped(response, MAX_REPLY_BYTES).await.map_err(|e| unavailable(e.to_string()))?;
        let reply: Value = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
        wire::response(&reply, &self.config.model)
            .map_err(|detail| BackendError::Protocol { backend: NAME.into(), detail })
    }

    /// The same step as [`send`](Self::send), streamed: each piece of text goes to `on_delta` as it arrives, and the
    /// Turn is the one `send` would give. Before any text is shown a failure is `send`'s (an `error` event is
    /// judged as the HTTP error it stands for, so the leg falls through as it would); after, it is
    /// [`BackendError::CutOff`] with the text shown.
    pub async fn send_streaming(&self, mut body: Value, on_delta: OnDelta<'_>) -> Result<Turn, BackendError> {
        if let Some(body) = body.as_object_mut() {
            body.insert("stream".into(), Value::Bool(true));
        }
        let response = self.post(&body).await?;
        if response.status() != reqwest::StatusCode::OK {
            return Err(self.refusal(response).await);
        }
        // A gateway that ignores `"stream": true` answers with one JSON reply: the same answer, shown whole.
        let is_json = response.headers().get(CONTENT_TYPE).and_then(|v| v.to_str().ok()).is_some_and(|v| {
            v.split(';').next().is_some_and(|mime| mime.trim().eq_ignore_ascii_case("application/json"))
        });
        if is_json {
            let turn = self.whole(response).await?;
            if !turn.text.is_empty() {
                on_delta(&turn.text);
            }
            return Ok(turn);
        }
        let mut assembler = wire::StreamAssembler::default();
        let chunks = stream::body_chunks(response, MAX_REPLY_BYTES, self.config.idle_timeout);
        let shown = stream::read_sse(chunks, &mut assembler, on_delta).await;
        let turn = shown.and_then(|partial| {
            assembler
                .finish(&self.config.model)
                .map_err(|detail| Failed { fault: Fault::Stream(StreamFault::Malformed(detail)), partial })
        });
        turn.map_err(|failed| self.stream_failure(failed))
    }

    async fn post(&self, body: &Value) -> Result<reqwest::Response, BackendError> {
        let key = self.key().await.map_err(unavailable)?.ok_or_else(|| unavailable("no API key".into()))?;
        let mut key_header = HeaderValue::from_str(key.expose()).map_err(|_| BackendError::Auth {
            backend: NAME.into(),
            reason: "the stored API key is not valid text".into(),
        })?;
        key_header.set_sensitive(true);
        let url = self.config.base_url.join("v1/messages").map_err(|e| unavailable(e.to_string()))?;
        self.http
            .http
            .post(url)
            .header("x-api-key", key_header)
            .header("anthropic-version", API_VERSION)
            .json(body)
            .send()
            .await
            .map_err(|e| unavailable(format!("Anthropic's API could not be reached ({e})")))
    }

    /// A reply with an error status, judged by its status and error body.
    async fn refusal(&self, response: reqwest::Response) -> BackendError {
        let status = response.status().as_u16();
        let retry_after = response
            .headers()
            .get(RETRY_AFTER)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.parse::<u64>().ok())
            .map(Duration::from_secs);
        let bytes = match net::read_capped(response, MAX_REPLY_BYTES).await {
            Ok(bytes) => bytes,
            Err(e) => return unavailable(e.to_string()),
        };
        let reply: Value = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
        let (kind, message) = wire::error(&reply).unwrap_or_else(|| ("error".into(), format!("HTTP {status}")));
        self.judge(status, retry_after, &format!("{kind} (HTTP {status})"), message)
    }

    /// What an error means for the chain; `what` names it for the owner ("overloaded_error (HTTP 529)").
    fn judge(&self, status: u16, retry_after: Option<Duration>, what: &str, message: String) -> BackendError {
        match status {
            401 | 403 => BackendError::Auth { backend: NAME.into(), reason: message },
            429 => {
                self.mark_down(retry_after.unwrap_or(self.config.down_for), "rate limited");
                BackendError::RateLimited { backend: NAME.into(), retry_after }
            }
            400 if message.contains("prompt is too long") => BackendError::ContextTooLong { backend: NAME.into() },
            500.. => {
                let reason = format!("{what}: {message}");
                self.mark_down(retry_after.unwrap_or(self.config.down_for), &reason);
                unavailable(reason)
            }
            _ => BackendError::Protocol { backend: NAME.into(), detail: format!("{what}: {message}") },
        }
    }

    fn stream_failure(&self, failed: Failed) -> BackendError {
        if !failed.partial.is_empty() {
            let reason = match failed.fault {
                Fault::Read(e) => e.to_string(),
                Fault::Stream(StreamFault::Reported { kind, message }) => {
                    format!("Anthropic reported {kind}: {message}")
                }
                Fault::Stream(StreamFault::Malformed(detail)) => detail,
            };
            return BackendError::CutOff { backend: NAME.into(), reason, partial: failed.partial };
        }
        match failed.fault {
            Fault::Read(e) => unavailable(e.to_string()),
            Fault::Stream(StreamFault::Reported { kind, message }) => {
                self.judge(wire::status_of_error(&kind), None, &format!("{kind} (in the stream)"), message)
            }
            Fault::Stream(StreamFault::Malformed(detail)) => BackendError::Protocol { backend: NAME.into(), detail },
        }
    }
}

fn unavailable(reason: String) -> BackendError {
    BackendError::Unavailable { backend: NAME.into(), reason }
}
