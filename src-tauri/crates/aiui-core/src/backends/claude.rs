//! The Claude leg: Anthropic's Messages API, with the API key read from the OS keyring, paid from Claude's USD
//! allowance.
//!
//! Before each request its worst case (an upper bound on the screened body's input tokens, each at the dearest input
//! price, plus `max_tokens` at the output price) is reserved in the allowance shared by every process; a request that
//! does not fit is not sent. The answer's `usage`, priced from the table, settles the reservation; a `usage` above the
//! reservation is counted in full (Anthropic bills it either way; the allowance then refuses the next request),
//! reported, and kept among Claude's money notices. A request refused by Anthropic, or never received, is released; one
//! whose outcome is unknown (cut off, timed out, dropped by the owner's Stop) is counted at its worst case, since it
//! may have been billed.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use reqwest::header::{CONTENT_TYPE, HeaderValue, RETRY_AFTER};
use serde_json::Value;
use url::Url;

use super::chain::Passed;
use super::format::anthropic as wire;
use super::stream::{self, Failed, Fault, StreamFault};
use super::{BackendError, BackendId, ChatRequest, Cost, OnDelta, Turn};
use crate::budget::{ClaudeAllowance, ClaudeNotice, ClaudePolicy, Reservation, pass_over_message};
use crate::egress::Origin;
use crate::i18n::{self, Locale};
use crate::net::{self, ClientSpec, OutboundClient, TlsPolicy};
use crate::pricing::{ModelPrice, Prices, format_usd_in};
use crate::secrets::{SecretName, Secrets};

const NAME: &str = "claude";
const API_VERSION: &str = "2023-06-01";
const MAX_REPLY_BYTES: usize = 8 * 1024 * 1024;
/// Tokens Anthropic adds to a request's input beyond the body (the tool-use system prompt is a few hundred): part of
/// the worst case, with room to spare.
const HIDDEN_INPUT_TOKENS: u64 = 2_000;

/// What Claude is paid from and priced by.
#[derive(Debug, Clone)]
pub struct ClaudeSpend {
    pub allowance: Arc<ClaudeAllowance>,
    pub prices: Prices,
}

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
    down_until: Mutex<Option<(Instant, Down)>>,
    spend: ClaudeSpend,
}

/// Whether a failed request may have been billed, which decides what its reservation comes to.
enum Billed {
    /// Anthropic refused it with an error status, or it never left this machine: nothing was billed.
    No,
    /// Sent, and no `usage` came back whole: it may have been billed up to its worst case.
    Maybe,
}

/// A reservation in flight. Dropped without [`Claude::settle`] (the owner's Stop drops the request), it counts at
/// its worst case: the request may have been billed.
struct Held<'a> {
    allowance: &'a ClaudeAllowance,
    reservation: Option<Reservation>,
}

impl Drop for Held<'_> {
    fn drop(&mut self) {
        if let Some(reservation) = self.reservation.take() {
            let amount = reservation.amount_sats();
            tracing::info!(usd_micros = amount, "claude: a request ended without its usage; counted at its worst case");
            let _ = self.allowance.settle(reservation, amount);
        }
    }
}

/// Why Claude is skipped until a time: kept as what happened, and said in the language of the turn that reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Down {
    RateLimited,
    /// Anthropic failed (`0`: its error and words, "overloaded_error (HTTP 529): Overloaded").
    Failing(String),
}

impl Claude {
    pub fn new(config: ClaudeConfig, secrets: Arc<Secrets>, spend: ClaudeSpend) -> Result<Self, net::ClientBuildError> {
        let http = net::client(&ClientSpec {
            tls: TlsPolicy::PublicRoots,
            connect_timeout: Duration::from_secs(5),
            request_timeout: config.request_timeout,
        })?;
        Ok(Self { config, secrets, http, down_until: Mutex::new(None), spend })
    }

    /// The USD allowance this leg pays from.
    pub fn allowance(&self) -> &ClaudeAllowance {
        &self.spend.allowance
    }

    /// Usable when a key is in the keyring, the leg is not marked down, its model has a price, and the turn's
    /// allowance has room. An owner with a key is told when the price or the allowance passes Claude over.
    pub async fn check(&self, policy: &ClaudePolicy, locale: Locale) -> Result<BackendId, Passed> {
        if let Some((until, down)) = self.down_until.lock().unwrap_or_else(|p| p.into_inner()).clone()
            && Instant::now() < until
        {
            return Err(Passed::quietly(match down {
                Down::RateLimited => i18n::text(locale, "claude-skipped-rate-limited", &[]),
                Down::Failing(reason) => i18n::text(locale, "claude-skipped", &[("reason", reason.into())]),
            }));
        }
        match self.key().await {
            Ok(Some(_)) => {}
            Ok(None) => return Err(Passed::quietly(i18n::text(locale, "claude-no-key", &[]))),
            Err(e) => return Err(Passed::quietly(e)),
        }
        self.price(locale).map_err(Passed::telling)?;
        if policy.allowance_usd_micros == 0 || policy.remaining_usd_micros == 0 {
            return Err(Passed::telling(pass_over_message(locale, &self.spend.allowance.get(), None)));
        }
        Ok(BackendId::Claude { model: self.config.model.clone() })
    }

    /// The configured model's price, or why it has none (it is then not used: never priced at $0), in `locale`.
    fn price(&self, locale: Locale) -> Result<ModelPrice, String> {
        let table = self
            .spend
            .prices
            .current()
            .map_err(|e| i18n::text(locale, "claude-no-price-table", &[("error", e.to_string().into())]))?;
        table
            .price_for(&self.config.model)
            .copied()
            .ok_or_else(|| i18n::text(locale, "claude-no-price", &[("model", self.config.model.as_str().into())]))
    }

    /// Reserves the request's worst case, or says why it is not sent.
    fn reserve(
        &self,
        body: &Encoded,
        policy: &ClaudePolicy,
        locale: Locale,
    ) -> Result<(Held<'_>, ModelPrice), BackendError> {
        let price =
            self.price(locale).map_err(|message| BackendError::OverAllowance { backend: NAME.into(), message })?;
        let max_tokens = body.max_tokens.ok_or_else(|| BackendError::Protocol {
            backend: NAME.into(),
            detail: "the request has no max_tokens, so its cost has no bound; it was not sent".into(),
        })?;
        let worst = price.worst_case(input_bound(&body.json), max_tokens);
        let allowance = &*self.spend.allowance;
        match allowance.reserve(policy, worst) {
            Some(reservation) => Ok((Held { allowance, reservation: Some(reservation) }, price)),
            None => Err(BackendError::OverAllowance {
                backend: NAME.into(),
                message: pass_over_message(locale, &allowance.get(), Some(worst)),
            }),
        }
    }

    /// Settles a request's reservation from its outcome, and prices the answer.
    fn settle(
        &self,
        mut held: Held<'_>,
        price: &ModelPrice,
        result: Result<Turn, (BackendError, Billed)>,
        locale: Locale,
    ) -> Result<Turn, BackendError> {
        let reservation = held.reservation.take().expect("settled once");
        let reserved = reservation.amount_sats();
        let allowance = held.allowance;
        match result {
            Ok(mut turn) => {
                let priced = price.cost(&turn.usage);
                if priced > reserved {
                    tracing::warn!(priced, reserved, "claude: usage above the reservation; counted in full");
                    let notice = ClaudeNotice::UsageAbove { priced, reserved };
                    turn.notices.push(notice.text(locale));
                    allowance.keep_notice(&notice);
                }
                let _ = allowance.settle(reservation, priced);
                turn.cost = Cost::Usd { micros: priced };
                turn.notices.extend(allowance.take_notice_in(locale));
                Ok(turn)
            }
            Err((error, Billed::No)) => {
                allowance.release(reservation);
                Err(error)
            }
            Err((error, Billed::Maybe)) => {
                let _ = allowance.settle(reservation, reserved);
                let counted =
                    i18n::text(locale, "claude-maybe-billed", &[("reserved", format_usd_in(locale, reserved).into())]);
                Err(match error {
                    BackendError::Unavailable { backend, reason } => {
                        BackendError::Unavailable { backend, reason: format!("{reason}. {counted}") }
                    }
                    BackendError::CutOff { backend, reason, partial } => {
                        BackendError::CutOff { backend, reason: format!("{reason}. {counted}"), partial }
                    }
                    BackendError::Protocol { backend, detail } => {
                        BackendError::Protocol { backend, detail: format!("{detail}. {counted}") }
                    }
                    other => other,
                })
            }
        }
    }

    async fn key(&self) -> Result<Option<crate::Secret<String>>, String> {
        let secrets = self.secrets.clone();
        tokio::task::spawn_blocking(move || secrets.get(SecretName::AnthropicApiKey))
            .await
            .map_err(|e| e.to_string())?
            .map_err(|e| e.to_string())
    }

    fn mark_down(&self, for_: Duration, down: Down) {
        *self.down_until.lock().unwrap_or_else(|p| p.into_inner()) = Some((Instant::now() + for_, down));
    }

    pub fn request_body(&self, request: &ChatRequest) -> Value {
        wire::request(request, &self.config.model)
    }

    pub fn origin_of(body: &Value, pointer: &str) -> Origin {
        wire::origin_of(body, pointer)
    }

    /// One request, paid from the allowance under `policy`; why it was not sent is said in `locale`.
    pub async fn send(&self, body: Value, policy: &ClaudePolicy, locale: Locale) -> Result<Turn, BackendError> {
        let body = Encoded::of(body)?;
        let (held, price) = self.reserve(&body, policy, locale)?;
        let result = self.send_unpriced(body.json).await;
        self.settle(held, &price, result, locale)
    }

    async fn send_unpriced(&self, json: Vec<u8>) -> Result<Turn, (BackendError, Billed)> {
        let response = self.post(json).await?;
        if response.status() != reqwest::StatusCode::OK {
            return Err((self.refusal(response).await, Billed::No));
        }
        self.whole(response).await.map_err(|e| (e, Billed::Maybe))
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
    pub async fn send_streaming(
        &self,
        body: Value,
        policy: &ClaudePolicy,
        locale: Locale,
        on_delta: OnDelta<'_>,
    ) -> Result<Turn, BackendError> {
        let body = Encoded::of(body)?;
        let (held, price) = self.reserve(&body, policy, locale)?;
        let result = self.stream_unpriced(with_stream_flag(body.json), on_delta).await;
        self.settle(held, &price, result, locale)
    }

    async fn stream_unpriced(&self, json: Vec<u8>, on_delta: OnDelta<'_>) -> Result<Turn, (BackendError, Billed)> {
        let response = self.post(json).await?;
        if response.status() != reqwest::StatusCode::OK {
            return Err((self.refusal(response).await, Billed::No));
        }
        // A gateway that ignores `"stream": true` answers with one JSON reply: the same answer, shown whole.
        let is_json = response.headers().get(CONTENT_TYPE).and_then(|v| v.to_str().ok()).is_some_and(|v| {
            v.split(';').next().is_some_and(|mime| mime.trim().eq_ignore_ascii_case("application/json"))
        });
        if is_json {
            let turn = self.whole(response).await.map_err(|e| (e, Billed::Maybe))?;
            if !turn.text.is_empty() {
                on_delta(&turn.text);
            }
            return Ok(turn);
        }
        let mut assembler = wire::StreamAssembler::default();
        let chunks = stream::body_chunks(response, MAX_REPLY_BYTES, self.config.idle_timeout);
        let shown = stream::read_sse(chunks, &mut assembler, on_delta).await;
        let output_started = assembler.output_started();
        let turn = shown.and_then(|partial| {
            assembler
                .finish(&self.config.model)
                .map_err(|detail| Failed { fault: Fault::Stream(StreamFault::Malformed(detail)), partial })
        });
        turn.map_err(|failed| {
            // An error event before any output is Anthropic's own refusal, which it does not bill. Once a block
            // began, output tokens may be billed whether or not they were text (a tool call's input, thinking), so
            // the worst case is counted (review F11).
            let billed = match &failed.fault {
                Fault::Stream(StreamFault::Reported { .. }) if !output_started => Billed::No,
                _ => Billed::Maybe,
            };
            (self.stream_failure(failed), billed)
        })
    }

    async fn post(&self, json: Vec<u8>) -> Result<reqwest::Response, (BackendError, Billed)> {
        let not_sent = |e: BackendError| (e, Billed::No);
        let key = self.key().await.map_err(unavailable).map_err(not_sent)?;
        let key = key.ok_or_else(|| not_sent(unavailable("no API key".into())))?;
        let mut key_header = HeaderValue::from_str(key.expose()).map_err(|_| {
            not_sent(BackendError::Auth { backend: NAME.into(), reason: "the stored API key is not valid text".into() })
        })?;
        key_header.set_sensitive(true);
        let url = self.config.base_url.join("v1/messages").map_err(|e| not_sent(unavailable(e.to_string())))?;
        self.http
            .http
            .post(url)
            .header("x-api-key", key_header)
            .header("anthropic-version", API_VERSION)
            .header(CONTENT_TYPE, "application/json")
            .body(json)
            .send()
            .await
            .map_err(|e| {
                // A refused connection sent nothing; anything later may have reached Anthropic.
                let billed = if e.is_connect() { Billed::No } else { Billed::Maybe };
                (unavailable(format!("Anthropic's API could not be reached ({e})")), billed)
            })
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
                self.mark_down(retry_after.unwrap_or(self.config.down_for), Down::RateLimited);
                BackendError::RateLimited { backend: NAME.into(), retry_after }
            }
            400 if message.contains("prompt is too long") => BackendError::ContextTooLong { backend: NAME.into() },
            500.. => {
                let reason = format!("{what}: {message}");
                self.mark_down(retry_after.unwrap_or(self.config.down_for), Down::Failing(reason.clone()));
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

/// A request body written out once, as it is sent: its cost is bounded by the same bytes (a long conversation's body
/// cost as much to write as to build), and the tree is let go before the request waits for its answer.
struct Encoded {
    json: Vec<u8>,
    max_tokens: Option<u64>,
}

impl Encoded {
    fn of(body: Value) -> Result<Self, BackendError> {
        let max_tokens = body.get("max_tokens").and_then(Value::as_u64);
        let json = serde_json::to_vec(&body).map_err(|e| BackendError::Protocol {
            backend: NAME.into(),
            detail: format!("the request could not be written as JSON ({e}); it was not sent"),
        })?;
        Ok(Self { json, max_tokens })
    }
}

/// An upper bound on the input tokens of the body written as `json`: a token is at least one byte of the text it
/// stands for, and the JSON around that text only adds bytes; plus what Anthropic adds unseen.
fn input_bound(json: &[u8]) -> u64 {
    (json.len() as u64).saturating_add(HIDDEN_INPUT_TOKENS)
}

/// `json`, an object, with `"stream": true` as its first member: asked for after the cost was bounded on the body
/// without it, so a streamed and a whole request of the same step are counted alike.
fn with_stream_flag(json: Vec<u8>) -> Vec<u8> {
    const FLAG: &[u8] = b"\"stream\":true";
    let Some((b'{', members)) = json.split_first() else { return json };
    let mut flagged = Vec::with_capacity(json.len() + FLAG.len() + 1);
    flagged.push(b'{');
    flagged.extend_from_slice(FLAG);
    if members != b"}" {
        flagged.push(b',');
    }
    flagged.extend_from_slice(members);
    flagged
}

fn unavailable(reason: String) -> BackendError {
    BackendError::Unavailable { backend: NAME.into(), reason }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The allowance's worst case counts every byte the body is sent as: escapes and non-ASCII text included.
    #[test]
    fn the_input_bound_is_the_body_as_sent_and_the_hidden_tokens() {
        let body = serde_json::json!({
            "messages": [{"role": "user", "content": "naïve \"quoted\"\n 日本 \u{1F600}"}],
            "max_tokens": 1024,
        });
        let sent = serde_json::to_string(&body).expect("serializes");
        let encoded = Encoded::of(body.clone()).expect("encodes");
        assert_eq!(encoded.json, sent.as_bytes(), "what is counted is what is sent");
        assert_eq!(encoded.max_tokens, Some(1024));
        assert_eq!(input_bound(&encoded.json), sent.len() as u64 + HIDDEN_INPUT_TOKENS);
        assert!(sent.len() > body.to_string().chars().count(), "bytes, not characters");
    }

    /// The streamed body is the counted one plus the flag, and still one JSON object.
    #[test]
    fn the_stream_flag_joins_the_body_as_a_member() {
        for body in [serde_json::json!({"max_tokens": 8, "messages": []}), serde_json::json!({})] {
            let flagged = with_stream_flag(serde_json::to_vec(&body).expect("serializes"));
            let mut expected = body.clone();
            expected.as_object_mut().expect("an object").insert("stream".into(), Value::Bool(true));
            let read: Value = serde_json::from_slice(&flagged).expect("still JSON");
            assert_eq!(read, expected, "{}", String::from_utf8_lossy(&flagged));
        }
    }
}
