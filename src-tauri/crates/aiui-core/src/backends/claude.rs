//! The Claude leg: Anthropic's Messages API, with the API key read from the OS keyring.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use reqwest::header::{HeaderValue, RETRY_AFTER};
use serde_json::Value;
use url::Url;

use super::format::anthropic as wire;
use super::{BackendError, BackendId, ChatRequest, Turn};
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
}

impl Default for ClaudeConfig {
    fn default() -> Self {
        Self {
            base_url: Url::parse("https://api.anthropic.com/").expect("a literal URL"),
            model: "claude-sonnet-4-5".into(),
            down_for: Duration::from_secs(30),
            request_timeout: Duration::from_secs(120),
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
        let unavailable = |reason: String| BackendError::Unavailable { backend: NAME.into(), reason };
        let key = self.key().await.map_err(unavailable)?.ok_or_else(|| unavailable("no API key".into()))?;
        let mut key_header = HeaderValue::from_str(key.expose()).map_err(|_| BackendError::Auth {
            backend: NAME.into(),
            reason: "the stored API key is not valid text".into(),
        })?;
        key_header.set_sensitive(true);
        let url = self.config.base_url.join("v1/messages").map_err(|e| unavailable(e.to_string()))?;
        let response = self
            .http
            .http
            .post(url)
            .header("x-api-key", key_header)
            .header("anthropic-version", API_VERSION)
            .json(&body)
            .send()
            .await
            .map_err(|e| unavailable(format!("Anthropic's API could not be reached ({e})")))?;
        let status = response.status().as_u16();
        let retry_after = response
            .headers()
            .get(RETRY_AFTER)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.parse::<u64>().ok())
            .map(Duration::from_secs);
        let bytes = net::read_capped(response, MAX_REPLY_BYTES).await.map_err(|e| unavailable(e.to_string()))?;
        let reply: Value = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
        if status == 200 {
            return wire::response(&reply, &self.config.model)
                .map_err(|detail| BackendError::Protocol { backend: NAME.into(), detail });
        }
        let (kind, message) = wire::error(&reply).unwrap_or_else(|| ("error".into(), format!("HTTP {status}")));
        Err(match status {
            401 | 403 => BackendError::Auth { backend: NAME.into(), reason: message },
            429 => {
                self.mark_down(retry_after.unwrap_or(self.config.down_for), "rate limited");
                BackendError::RateLimited { backend: NAME.into(), retry_after }
            }
            400 if message.contains("prompt is too long") => BackendError::ContextTooLong { backend: NAME.into() },
            500.. => {
                let reason = format!("{kind} (HTTP {status}): {message}");
                self.mark_down(retry_after.unwrap_or(self.config.down_for), &reason);
                unavailable(reason)
            }
            _ => BackendError::Protocol { backend: NAME.into(), detail: format!("{kind} (HTTP {status}): {message}") },
        })
    }
}
