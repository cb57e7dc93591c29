//! The local leg: Ollama's `/api/chat`, with a briefly cached liveness and tool-capability check.

use std::sync::Mutex;
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use url::Url;

use super::format::ollama as wire;
use super::stream::{self, Failed, Fault, StreamFault};
use super::{BackendError, BackendId, ChatRequest, OnDelta, Turn};
use crate::egress::Origin;
use crate::net::{self, ClientSpec, OutboundClient, TlsPolicy};

const NAME: &str = "ollama";
/// Replies larger than this are refused: a local model's turn is a few kilobytes.
const MAX_REPLY_BYTES: usize = 8 * 1024 * 1024;

/// Where the local Ollama is and which model to prefer.
#[derive(Debug, Clone)]
pub struct OllamaConfig {
    pub url: Url,
    /// The model to use; without one, the first installed model that supports tools.
    pub model: Option<String>,
    /// How long a liveness answer is trusted. A dead Ollama then costs one connect timeout per this period.
    pub liveness_ttl: Duration,
    pub connect_timeout: Duration,
    pub request_timeout: Duration,
    /// A streamed answer that sends nothing for this long has stalled (the total `request_timeout` still holds).
    pub idle_timeout: Duration,
}

impl Default for OllamaConfig {
    fn default() -> Self {
        Self {
            url: Url::parse("http://127.0.0.1:11434/").expect("a literal URL"),
            model: None,
            liveness_ttl: Duration::from_secs(15),
            connect_timeout: Duration::from_secs(1),
            request_timeout: Duration::from_secs(180),
            idle_timeout: Duration::from_secs(60),
        }
    }
}

/// The local leg.
#[derive(Debug)]
pub struct Ollama {
    config: OllamaConfig,
    probe: OutboundClient,
    chat: OutboundClient,
    liveness: Mutex<Option<(Instant, Result<String, String>)>>,
}

impl Ollama {
    pub fn new(config: OllamaConfig) -> Result<Self, net::ClientBuildError> {
        let probe = net::client(&ClientSpec {
            tls: TlsPolicy::PublicRoots,
            connect_timeout: config.connect_timeout,
            request_timeout: config.connect_timeout * 3,
        })?;
        let chat = net::client(&ClientSpec {
            tls: TlsPolicy::PublicRoots,
            connect_timeout: config.connect_timeout,
            request_timeout: config.request_timeout,
        })?;
        Ok(Self { config, probe, chat, liveness: Mutex::new(None) })
    }

    /// A local leg that is not on this machine is screened like a cloud leg: the body crosses a network.
    pub fn is_cloud(&self) -> bool {
        !is_loopback(&self.config.url)
    }

    /// The model that will answer, or why this leg cannot take a tool turn. Cached for `liveness_ttl`.
    pub async fn check(&self) -> Result<BackendId, String> {
        if let Some((at, cached)) = self.cached()
            && at.elapsed() < self.config.liveness_ttl
        {
            return cached.map(|model| BackendId::Local { model });
        }
        let result = self.probe_models().await;
        *self.liveness.lock().unwrap_or_else(|p| p.into_inner()) = Some((Instant::now(), result.clone()));
        result.map(|model| BackendId::Local { model })
    }

    fn cached(&self) -> Option<(Instant, Result<String, String>)> {
        self.liveness.lock().unwrap_or_else(|p| p.into_inner()).clone()
    }

    /// Forgets the cached liveness after a failure mid-turn, so the next turn does not trust a dead leg, and
    /// remembers it as down for the TTL.
    fn mark_down(&self, reason: &str) {
        *self.liveness.lock().unwrap_or_else(|p| p.into_inner()) = Some((Instant::now(), Err(reason.to_owned())));
    }

    async fn probe_models(&self) -> Result<String, String> {
        let tags = self.get_json("api/tags", None).await?;
        let names = wire::model_names(&tags);
        if names.is_empty() {
            return Err(
                "Ollama has no models; run `ollama pull qwen2.5:7b` (or another model with tool support)".into()
            );
        }
        let candidates: Vec<&String> = match &self.config.model {
            Some(wanted) => match names.iter().find(|n| *n == wanted || n.split(':').next() == Some(wanted)) {
                Some(found) => vec![found],
                None => return Err(format!("the configured model `{wanted}` is not installed in Ollama")),
            },
            None => names.iter().collect(),
        };
        for name in candidates {
            let show = self.get_json("api/show", Some(json!({ "model": name }))).await?;
            if wire::has_tools_capability(&show) {
                return Ok(name.clone());
            }
        }
        Err("no installed Ollama model supports tools; pull one that does, e.g. `ollama pull qwen2.5:7b`".into())
    }

    async fn get_json(&self, path: &str, post: Option<Value>) -> Result<Value, String> {
        let url = self.config.url.join(path).map_err(|e| e.to_string())?;
        let request = match post {
            Some(body) => self.probe.http.post(url).json(&body),
            None => self.probe.http.get(url),
        };
        let response =
            request.send().await.map_err(|e| format!("Ollama at {} is not answering ({e})", self.config.url))?;
        if !response.status().is_success() {
            return Err(format!("Ollama answered {path} with HTTP {}", response.status()));
        }
        let body = net::read_capped(response, MAX_REPLY_BYTES).await.map_err(|e| e.to_string())?;
        serde_json::from_slice(&body).map_err(|e| format!("Ollama's {path} reply is not JSON ({e})"))
    }

    pub fn request_body(&self, id: &BackendId, request: &ChatRequest) -> Value {
        wire::request(request, model_of(id))
    }

    /// Which part of the conversation a string in the body came from, for the egress screen.
    pub fn origin_of(body: &Value, pointer: &str) -> Origin {
        super::format::openai::origin_of(body, pointer)
    }

    pub async fn send(&self, id: &BackendId, body: Value) -> Result<Turn, BackendError> {
        let response = self.post_chat(&body).await?;
        if !response.status().is_success() {
            return Err(self.refusal(response).await);
        }
        let bytes = net::read_capped(response, MAX_REPLY_BYTES).await.map_err(|e| unavailable(e.to_string()))?;
        let reply: Value = serde_json::from_slice(&bytes)
            .map_err(|e| BackendError::Protocol { backend: NAME.into(), detail: format!("not JSON ({e})") })?;
        wire::response(&reply, model_of(id)).map_err(|detail| BackendError::Protocol { backend: NAME.into(), detail })
    }

    /// The same step as [`send`](Self::send), streamed: each piece of text goes to `on_delta` as it arrives, and the
    /// Turn is the one `send` would give. Before any text is shown a failure is `send`'s (the leg falls through);
    /// after, it is [`BackendError::CutOff`] with the text shown.
    pub async fn send_streaming(
        &self,
        id: &BackendId,
        mut body: Value,
        on_delta: OnDelta<'_>,
    ) -> Result<Turn, BackendError> {
        if let Some(body) = body.as_object_mut() {
            body.insert("stream".into(), Value::Bool(true));
        }
        let response = self.post_chat(&body).await?;
        if !response.status().is_success() {
            return Err(self.refusal(response).await);
        }
        let mut assembler = wire::StreamAssembler::default();
        let chunks = stream::body_chunks(response, MAX_REPLY_BYTES, self.config.idle_timeout);
        let shown = stream::read_ndjson(chunks, &mut assembler, on_delta).await;
        let turn = shown.and_then(|partial| {
            assembler
                .finish(model_of(id))
                .map_err(|detail| Failed { fault: Fault::Stream(StreamFault::Malformed(detail)), partial })
        });
        turn.map_err(|failed| self.stream_failure(failed))
    }

    async fn post_chat(&self, body: &Value) -> Result<reqwest::Response, BackendError> {
        let url = self.config.url.join("api/chat").map_err(|e| unavailable(e.to_string()))?;
        self.chat.http.post(url).json(body).send().await.map_err(|e| {
            let reason = format!("Ollama stopped answering ({e})");
            self.mark_down(&reason);
            unavailable(reason)
        })
    }

    /// An HTTP error status: the leg is down for its TTL.
    async fn refusal(&self, response: reqwest::Response) -> BackendError {
        let status = response.status();
        let bytes = match net::read_capped(response, MAX_REPLY_BYTES).await {
            Ok(bytes) => bytes,
            Err(e) => return unavailable(e.to_string()),
        };
        let text = String::from_utf8_lossy(&bytes);
        let reason = format!("HTTP {status}: {}", text.chars().take(200).collect::<String>());
        self.mark_down(&reason);
        unavailable(reason)
    }

    fn stream_failure(&self, failed: Failed) -> BackendError {
        let reason = match &failed.fault {
            Fault::Read(e) => e.to_string(),
            Fault::Stream(StreamFault::Reported { message, .. }) => format!("Ollama reported an error: {message}"),
            Fault::Stream(StreamFault::Malformed(detail)) => detail.clone(),
        };
        if !failed.partial.is_empty() {
            return BackendError::CutOff { backend: NAME.into(), reason, partial: failed.partial };
        }
        match &failed.fault {
            Fault::Read(_) => unavailable(reason),
            // The error an HTTP status would have carried, had Ollama failed before its first line.
            Fault::Stream(StreamFault::Reported { .. }) => {
                self.mark_down(&reason);
                unavailable(reason)
            }
            Fault::Stream(StreamFault::Malformed(_)) => BackendError::Protocol { backend: NAME.into(), detail: reason },
        }
    }
}

fn unavailable(reason: String) -> BackendError {
    BackendError::Unavailable { backend: NAME.into(), reason }
}

fn model_of(id: &BackendId) -> &str {
    match id {
        BackendId::Local { model }
        | BackendId::Claude { model }
        | BackendId::Routstr { model, .. }
        | BackendId::Builtin { model } => model,
    }
}

fn is_loopback(url: &Url) -> bool {
    match url.host() {
        Some(url::Host::Ipv4(ip)) => ip.is_loopback(),
        Some(url::Host::Ipv6(ip)) => ip.is_loopback(),
        Some(url::Host::Domain(d)) => d.eq_ignore_ascii_case("localhost"),
        None => false,
    }
}
