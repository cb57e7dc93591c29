//! The local leg: Ollama's `/api/chat`, with a briefly cached liveness and tool-capability check.

use std::sync::Mutex;
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use url::Url;

use super::format::ollama as wire;
use super::stream::{self, Failed, Fault, StreamFault};
use super::{BackendError, BackendId, ChatRequest, OnDelta, Turn};
use crate::egress::Origin;
use crate::i18n::{self, Locale};
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
    liveness: Mutex<Option<(Instant, Result<String, Down>)>>,
}

/// Why the local leg cannot take a turn. Kept as what happened, so a reason cached for the liveness period is said
/// in the language of the turn that reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Down {
    /// The probe could not reach Ollama (`error`: the HTTP client's words).
    NotAnswering {
        url: String,
        error: String,
    },
    Refused {
        path: String,
        status: String,
    },
    NotJson {
        path: String,
        error: String,
    },
    NoModels,
    ModelMissing {
        model: String,
    },
    NoToolModel,
    /// A turn's request failed to reach it.
    Stopped {
        error: String,
    },
    /// A turn's request was answered with an HTTP error (`reason`: the status line and Ollama's words).
    Http {
        status: String,
        reason: String,
    },
    /// Ollama reported an error in place of an answer.
    Reported {
        reason: String,
    },
}

impl Down {
    /// The reason as the owner reads it; the technical parts stay as the failing part wrote them.
    pub fn text(&self, locale: Locale) -> String {
        let (key, args): (&str, Vec<(&str, i18n::FluentValue<'_>)>) = match self {
            Self::NotAnswering { url, error } => {
                ("ollama-not-answering", vec![("url", url.as_str().into()), ("error", error.as_str().into())])
            }
            Self::Refused { path, status } => {
                ("ollama-refused", vec![("path", path.as_str().into()), ("status", status.as_str().into())])
            }
            Self::NotJson { path, error } => {
                ("ollama-not-json", vec![("path", path.as_str().into()), ("error", error.as_str().into())])
            }
            Self::NoModels => ("ollama-no-models", Vec::new()),
            Self::ModelMissing { model } => ("ollama-model-missing", vec![("model", model.as_str().into())]),
            Self::NoToolModel => ("ollama-no-tool-model", Vec::new()),
            Self::Stopped { error } => ("ollama-stopped", vec![("error", error.as_str().into())]),
            Self::Http { status, reason } => {
                ("ollama-http", vec![("status", status.as_str().into()), ("reason", reason.as_str().into())])
            }
            Self::Reported { reason } => ("ollama-reported", vec![("reason", reason.as_str().into())]),
        };
        i18n::text(locale, key, &args)
    }

    /// The failure of a turn's request, for the chain (English, as every leg's error is).
    fn unavailable(&self) -> BackendError {
        unavailable(self.text(Locale::En))
    }
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
    pub async fn check(&self) -> Result<BackendId, Down> {
        if let Some((at, cached)) = self.cached()
            && at.elapsed() < self.config.liveness_ttl
        {
            return cached.map(|model| BackendId::Local { model });
        }
        let result = self.probe_models().await;
        *self.liveness.lock().unwrap_or_else(|p| p.into_inner()) = Some((Instant::now(), result.clone()));
        result.map(|model| BackendId::Local { model })
    }

    fn cached(&self) -> Option<(Instant, Result<String, Down>)> {
        self.liveness.lock().unwrap_or_else(|p| p.into_inner()).clone()
    }

    /// Forgets the cached liveness after a failure mid-turn, so the next turn does not trust a dead leg, and
    /// remembers it as down for the TTL.
    fn mark_down(&self, down: &Down) {
        *self.liveness.lock().unwrap_or_else(|p| p.into_inner()) = Some((Instant::now(), Err(down.clone())));
    }

    async fn probe_models(&self) -> Result<String, Down> {
        let tags = self.get_json("api/tags", None).await?;
        let names = wire::model_names(&tags);
        if names.is_empty() {
            return Err(Down::NoModels);
        }
        let candidates: Vec<&String> = match &self.config.model {
            Some(wanted) => match names.iter().find(|n| *n == wanted || n.split(':').next() == Some(wanted)) {
                Some(found) => vec![found],
                None => return Err(Down::ModelMissing { model: wanted.clone() }),
            },
            None => names.iter().collect(),
        };
        for name in candidates {
            let show = self.get_json("api/show", Some(json!({ "model": name }))).await?;
            if wire::has_tools_capability(&show) {
                return Ok(name.clone());
            }
        }
        Err(Down::NoToolModel)
    }

    async fn get_json(&self, path: &str, post: Option<Value>) -> Result<Value, Down> {
        let not_answering = |error: String| Down::NotAnswering { url: self.config.url.to_string(), error };
        let url = self.config.url.join(path).map_err(|e| not_answering(e.to_string()))?;
        let request = match post {
            Some(body) => self.probe.http.post(url).json(&body),
            None => self.probe.http.get(url),
        };
        let response = request.send().await.map_err(|e| not_answering(e.to_string()))?;
        if !response.status().is_success() {
            return Err(Down::Refused { path: path.to_owned(), status: response.status().to_string() });
        }
        let body = net::read_capped(response, MAX_REPLY_BYTES).await.map_err(|e| not_answering(e.to_string()))?;
        serde_json::from_slice(&body).map_err(|e| Down::NotJson { path: path.to_owned(), error: e.to_string() })
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
            let down = Down::Stopped { error: e.to_string() };
            self.mark_down(&down);
            down.unavailable()
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
        let down = Down::Http { status: status.to_string(), reason: text.chars().take(200).collect() };
        self.mark_down(&down);
        down.unavailable()
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
            Fault::Stream(StreamFault::Reported { message, .. }) => {
                let down = Down::Reported { reason: message.clone() };
                self.mark_down(&down);
                down.unavailable()
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
