//! The Routstr leg: OpenAI-compatible providers found on Nostr, paid per request with Cashu via `X-Cashu`.
//!
//! Reached only after local Ollama and Claude, and only with a non-zero allowance. Every request carries
//! `max_tokens = ROUTSTR_MAX_TOKENS` (without it a provider reserves for the model's whole window). The token
//! comes from `Payments::auto_pay_token` — never built here — and every outcome of routstr.md §2/§7 ends in
//! exactly one ledger verdict: change settled, token reclaimed, refund taken, or kept in flight for reconcile.

pub mod discovery;
pub(crate) mod probe;
mod told;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use reqwest::header::HeaderValue;
use serde_json::Value;

pub use probe::{ModelPrice, ProbedProvider, short_key};
pub(crate) use told::{Told, Verdict};

use super::format::openai as wire;
use super::{BackendError, BackendId, ChatRequest, Cost, Turn};
use crate::backends::routstr::discovery::{Discovered, Discovery, DiscoveryReport, Refusal};
use crate::budget::{PaymentPolicy, stop_message};
use crate::egress::Origin;
use crate::faults;
use crate::i18n::{self, Locale};
use crate::net::guard::{AddressPolicy, Guard};
use crate::net::{self, ClientSpec, OutboundClient, TlsPolicy};
use crate::pay::refund::RefundAnswer;
use crate::pay::{CASHU_HEADER, NotPaid, PayError, PayTo, Payment, Payments};

/// The completion cap sent on every Routstr request; the reservation is priced for it.
pub const ROUTSTR_MAX_TOKENS: u32 = 1024;
/// The SDK's safety margin over the provider's own reservation formula.
const PRICE_MARGIN: f64 = 1.4;
/// The most a provider's 402 may ask, as a multiple of the estimate from its advertised price. Beyond it the
/// provider broke its advertisement: it is not paid, and it is skipped for the probe cache's lifetime.
pub const MAX_REPRICE_FACTOR: u64 = 2;
/// A price estimate above this many sats for one request is absurd, whatever the advertisement says.
const MAX_PRICE_SATS: u64 = 10_000_000;
const MAX_REPLY_BYTES: usize = 4 * 1024 * 1024;
const NAME: &str = "routstr";

#[derive(Debug, Clone)]
pub struct RoutstrConfig {
    /// The model asked for, as providers advertise it (with or without a `vendor/` prefix).
    pub model: String,
    /// Only a test configuration allows private endpoints.
    pub address_policy: AddressPolicy,
    /// The Tor SOCKS5 proxy; when set, onion endpoints are preferred and reached through it.
    pub tor_socks: Option<std::net::SocketAddr>,
    pub request_timeout: Duration,
    /// How often and how long to wait on a 425 from the refund endpoint before leaving the token for reconcile.
    pub refund_attempts: u32,
    pub refund_wait: Duration,
    /// How long a provider's `/v1/info` + `/v1/models` answer is reused.
    pub probe_ttl: Duration,
}

impl Default for RoutstrConfig {
    fn default() -> Self {
        Self {
            model: "gpt-4o-mini".into(),
            address_policy: AddressPolicy::PublicOnly,
            tor_socks: None,
            request_timeout: Duration::from_secs(120),
            refund_attempts: 3,
            refund_wait: Duration::from_secs(5),
            probe_ttl: Duration::from_secs(10 * 60),
        }
    }
}

/// The third leg.
pub struct Routstr {
    config: RoutstrConfig,
    discovery: Arc<Discovery>,
    payments: Arc<Payments>,
    http: OutboundClient,
    tor_http: Option<OutboundClient>,
    probes: probe::ProbeCache,
    /// The provider chosen by the last `check`, keyed by its label in `BackendId`, for the `send` that follows.
    chosen: Mutex<HashMap<String, ProbedProvider>>,
}

impl std::fmt::Debug for Routstr {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Routstr").field("model", &self.config.model).finish_non_exhaustive()
    }
}

/// What a request will be priced at, from a provider's `sats_pricing` (sats per token) and the body's text; `None`
/// when the advertised price makes no sense (not finite, negative, or an absurd total). The mint's fee for the
/// provider to redeem is not in it: the wallet adds it to the token's face value (`include_fee`).
pub fn estimate_price_sats(price: &ModelPrice, text_chars: usize) -> Option<u64> {
    let prompt_tokens = text_chars as f64 / 3.0;
    let sats = prompt_tokens * price.prompt + f64::from(ROUTSTR_MAX_TOKENS) * price.completion;
    // `max` would turn NaN into 1 and hide a negative price: both are refused first.
    if !sats.is_finite() || sats < 0.0 || price.prompt < 0.0 || price.completion < 0.0 {
        return None;
    }
    let with_margin = (sats * PRICE_MARGIN).ceil().max(1.0);
    // `as` saturates; checking the float first keeps 1e300 or NaN from becoming u64::MAX.
    (with_margin.is_finite() && with_margin <= MAX_PRICE_SATS as f64).then_some(with_margin as u64)
}

/// Picks the cheapest provider that serves `model`, shares a mint with us, and whose price `remaining` covers.
/// With Tor up, providers with an onion endpoint come first. `None` when no provider is affordable.
pub fn select_provider<'p>(
    providers: &'p [ProbedProvider],
    model: &str,
    accepted_mints: &[String],
    remaining_sats: u64,
    text_chars: usize,
    tor_up: bool,
) -> Option<(&'p ProbedProvider, u64)> {
    let accepted: Vec<String> = accepted_mints.iter().filter_map(|m| crate::budget::normalize_mint_url(m)).collect();
    providers
        .iter()
        .filter(|p| p.mints.iter().filter_map(|m| crate::budget::normalize_mint_url(m)).any(|m| accepted.contains(&m)))
        .filter(|p| !tor_up || p.onion_endpoint().is_some() || p.clearnet_endpoint().is_some())
        .filter(|p| tor_up || p.clearnet_endpoint().is_some())
        .filter_map(|p| {
            p.price_for(model).and_then(|price| estimate_price_sats(price, text_chars)).map(|sats| (p, sats))
        })
        .filter(|(_, price)| *price <= remaining_sats)
        .min_by_key(|(p, price)| (tor_up && p.onion_endpoint().is_none(), *price))
}

/// The characters of message text in a request: what providers price the prompt by (routstr.md §7).
pub fn text_chars(request: &ChatRequest) -> usize {
    use super::Message;
    request.system.chars().count()
        + request
            .messages
            .iter()
            .map(|m| match m {
                Message::User { text } => text.chars().count(),
                Message::Assistant { text, .. } => text.chars().count(),
                Message::ToolResult { content, .. } => content.chars().count(),
            })
            .sum::<usize>()
}

/// What `aiui-cli providers` shows: the providers that answered their probe, and the discovery report.
#[derive(Debug, Clone)]
pub struct Listing {
    pub providers: Vec<ProbedProvider>,
    pub report: DiscoveryReport,
}

/// Discovers and probes providers without paying anyone: what `aiui-cli providers` lists.
pub async fn discover_and_probe(
    discovery: &Discovery,
    config: &RoutstrConfig,
) -> Result<Listing, net::ClientBuildError> {
    let spec = ClientSpec {
        tls: TlsPolicy::PublicRoots,
        connect_timeout: Duration::from_secs(10),
        request_timeout: Duration::from_secs(20),
    };
    let guard = Guard::new(config.address_policy);
    let http = net::guarded_client(&spec, &guard)?;
    let tor = match config.tor_socks {
        Some(proxy) => Some(net::client_via_socks(&spec, proxy)?),
        None => None,
    };
    let Discovered { announcements, mut report } = discovery.discover().await;
    let cache = probe::ProbeCache::new(config.probe_ttl, guard);
    let providers = cache.probe_all(&announcements, &http, tor.as_ref(), tor.is_some(), &mut report).await;
    discovery.record(report.clone());
    Ok(Listing { providers, report })
}

impl Routstr {
    pub fn new(
        config: RoutstrConfig,
        discovery: Arc<Discovery>,
        payments: Arc<Payments>,
    ) -> Result<Self, net::ClientBuildError> {
        let spec = ClientSpec {
            tls: TlsPolicy::PublicRoots,
            connect_timeout: Duration::from_secs(10),
            request_timeout: config.request_timeout,
        };
        // Provider endpoints come from Nostr events: names are resolved once, by the guard, for the check and the
        // connection alike.
        let guard = Guard::new(config.address_policy);
        let http = net::guarded_client(&spec, &guard)?;
        let tor_http = match config.tor_socks {
            Some(proxy) => Some(net::client_via_socks(&spec, proxy)?),
            None => None,
        };
        let probes = probe::ProbeCache::new(config.probe_ttl, guard);
        Ok(Self { config, discovery, payments, http, tor_http, probes, chosen: Mutex::new(HashMap::new()) })
    }

    /// Usable when the allowance is non-zero and a discovered, reachable provider serves the model at a price the
    /// allowance covers. A zero allowance is never even a candidate: nothing is discovered or probed for it. The
    /// reason it is not usable is in English: [`Routstr::check_in`] says it in the owner's language.
    pub async fn check(&self, request: &ChatRequest, policy: &PaymentPolicy) -> Result<BackendId, String> {
        self.check_in(request, policy, Locale::En).await
    }

    /// [`Routstr::check`], with the reason it is not usable in `locale`: the owner reads it in the no-backend
    /// message.
    pub async fn check_in(
        &self,
        request: &ChatRequest,
        policy: &PaymentPolicy,
        locale: Locale,
    ) -> Result<BackendId, String> {
        // A zero allowance is not a candidate at all: no relay, no provider, no wallet is touched for it. A used-up
        // allowance is: the step then stops with the allowance message, which is what the owner needs to hear.
        if policy.allowance_sats == 0 || policy.accepted_mints.is_empty() {
            return Err(i18n::text(locale, "routstr-off", &[]));
        }
        let Discovered { announcements, mut report } = self.discovery.discover().await;
        if announcements.is_empty() {
            return Err(i18n::text(locale, "routstr-none-on-relays", &[("why", report.why_none_in(locale).into())]));
        }
        let tor_up = self.tor_http.is_some();
        let probed = self
            .probes
            .probe_all(&announcements, self.client(false), self.tor_http.as_ref(), tor_up, &mut report)
            .await;
        let chars = text_chars(request);
        let (model, mints) = (&self.config.model, &policy.accepted_mints);
        let affordable = select_provider(&probed, model, mints, policy.remaining_sats, chars, tor_up);
        // Nothing affordable but something suitable: select the cheapest anyway, so that paying for it fails in
        // `auto_pay_token` (without touching the wallet) and the turn ends with the allowance message.
        let chosen = affordable.or_else(|| select_provider(&probed, model, mints, u64::MAX, chars, tor_up));
        for p in &probed {
            let why = p.unsuitable(model, mints, tor_up).or_else(|| {
                let price = p.price_for(model).and_then(|price| estimate_price_sats(price, chars))?;
                (price > policy.remaining_sats)
                    .then_some(Refusal::Unaffordable { price_sats: price, remaining_sats: policy.remaining_sats })
            });
            if let Some(why) = why {
                report.refuse(&p.pubkey, &p.d, why);
            }
        }
        self.discovery.record(report.clone());
        let Some((provider, price)) = chosen else {
            let args = [("model", model.as_str().into()), ("why", report.why_none_in(locale).into())];
            return Err(i18n::text(locale, "routstr-none-for-model", &args));
        };
        tracing::debug!(provider = %provider.label(), price, "routstr provider selected");
        let id = BackendId::Routstr { provider: provider.label(), model: self.config.model.clone() };
        self.chosen.lock().unwrap_or_else(|p| p.into_inner()).insert(provider.label(), provider.clone());
        Ok(id)
    }

    fn client(&self, onion: bool) -> &OutboundClient {
        match (&self.tor_http, onion) {
            (Some(tor), true) => tor,
            _ => &self.http,
        }
    }

    /// The body for this leg: OpenAI-shaped, non-streaming, with `max_tokens` forced to the cap.
    pub fn request_body(&self, request: &ChatRequest) -> Value {
        let mut body = wire::request(request, &self.config.model);
        body["max_tokens"] = Value::from(ROUTSTR_MAX_TOKENS);
        body["stream"] = Value::Bool(false);
        body
    }

    pub fn origin_of(body: &Value, pointer: &str) -> Origin {
        wire::origin_of(body, pointer)
    }

    /// Pays for and sends one step. A payment that cannot be made ends the turn (`BudgetStop`): no retry, no other
    /// provider. The provider's own 402 may re-price once, only after the first token was taken back, and only up
    /// to `MAX_REPRICE_FACTOR` times the estimate from its advertised price.
    pub async fn send(
        &self,
        id: &BackendId,
        body: Value,
        policy: &PaymentPolicy,
        locale: Locale,
    ) -> Result<Turn, BackendError> {
        let BackendId::Routstr { provider: label, .. } = id else {
            return Err(protocol("the Routstr leg was asked to answer for another backend"));
        };
        let provider = self
            .chosen
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .get(label)
            .cloned()
            .ok_or_else(|| protocol("no provider was selected for this step"))?;
        let advertised =
            provider.price_for(&self.config.model).ok_or_else(|| protocol("the provider no longer lists the model"))?;
        let estimate = estimate_price_sats(advertised, body_text_chars(&body))
            .ok_or_else(|| protocol("the provider's advertised price makes no sense"))?;
        let price = self.probes.learned_price(&provider, estimate);
        let mut notices = Vec::new();
        let mut outcome = self.pay_and_post(&provider, &body, policy, price, locale, &mut notices).await?;
        if let Exchange::PaymentRequired { required_sats, reclaimed } = outcome {
            match reclaimed {
                Reclaimed::Yes => {}
                // The provider redeemed the token and still asked for more: paying again could pay twice.
                Reclaimed::RedeemedByProvider => {
                    return Err(self.finish(
                        notices,
                        BackendError::Unavailable {
                            backend: NAME.into(),
                            reason: Told::AskedMoreAfterRedeeming { provider: &provider.label() }.text(locale),
                        },
                    ));
                }
                // Not paid again while the first token is still out; the owner was told why (the notice).
                Reclaimed::NotYet { told } => {
                    notices.retain(|notice| *notice != told);
                    return Err(self.finish(notices, BackendError::Unavailable { backend: NAME.into(), reason: told }));
                }
            }
            let bound = estimate.saturating_mul(MAX_REPRICE_FACTOR);
            if required_sats > bound {
                self.probes.mark_broken(&provider);
                return Err(self.finish(
                    notices,
                    BackendError::Unavailable {
                        backend: NAME.into(),
                        reason: Told::AskedTooMuch {
                            provider: &provider.label(),
                            required: required_sats,
                            factor: MAX_REPRICE_FACTOR,
                            estimate,
                            skipped_minutes: self.probes.ttl().as_secs().div_ceil(60),
                        }
                        .text(locale),
                    },
                ));
            }
            self.probes.learn_price(&provider, estimate, required_sats);
            tracing::info!(provider = %provider.label(), required_sats, "provider asked for more; retrying once");
            outcome =
                self.pay_and_post(&provider, &body, policy, required_sats.max(price), locale, &mut notices).await?;
            if let Exchange::PaymentRequired { .. } = outcome {
                return Err(self.finish(
                    notices,
                    BackendError::PaymentRequired { backend: NAME.into(), reason: Told::RefusedTwice.text(locale) },
                ));
            }
        }
        let Exchange::Answer { reply, spent_sats } = outcome else { unreachable!("handled above") };
        let mut turn = wire::response(&reply, id.clone()).map_err(|e| protocol(&e))?;
        turn.cost = Cost::Sats { sats: spent_sats };
        if let Some(notice) = self.payments.budget().take_notice_in(self.payments.locale()) {
            self.payments.keep_notices(std::slice::from_ref(&notice));
            notices.push(notice);
        }
        turn.notices = notices;
        Ok(turn)
    }

    /// An error that ends this step, with what the owner must hear about the money folded into its reason.
    fn finish(&self, mut notices: Vec<String>, error: BackendError) -> BackendError {
        if let Some(notice) = self.payments.budget().take_notice_in(self.payments.locale()) {
            self.payments.keep_notices(std::slice::from_ref(&notice));
            notices.push(notice);
        }
        if notices.is_empty() {
            return error;
        }
        let extra = notices.join(" ");
        match error {
            BackendError::Unavailable { backend, reason } => {
                BackendError::Unavailable { backend, reason: format!("{reason}. {extra}") }
            }
            BackendError::PaymentRequired { backend, reason } => {
                BackendError::PaymentRequired { backend, reason: format!("{reason}. {extra}") }
            }
            BackendError::Protocol { backend, detail } => {
                BackendError::Protocol { backend, detail: format!("{detail}. {extra}") }
            }
            other => other,
        }
    }

    /// One paid POST, with every outcome settled in the ledger before this returns.
    async fn pay_and_post(
        &self,
        provider: &ProbedProvider,
        body: &Value,
        policy: &PaymentPolicy,
        price: u64,
        locale: Locale,
        notices: &mut Vec<String>,
    ) -> Result<Exchange, BackendError> {
        let (endpoint, onion) = provider.endpoint(self.tor_http.is_some()).ok_or_else(|| protocol("no endpoint"))?;
        let to = PayTo { label: provider.label(), endpoint: Some(endpoint.to_string()), mints: provider.mints.clone() };
        let payment = match self.payments.pay_token(policy, &to, price).await {
            Ok(payment) => payment,
            Err(not_paid @ NotPaid::Unaffordable) => {
                return Err(BackendError::BudgetStop { message: self.not_paid_message(not_paid, price, locale) });
            }
            Err(not_paid) => {
                return Err(BackendError::PaymentFailed { message: self.not_paid_message(not_paid, price, locale) });
            }
        };
        // A turn cancelled from here on (its future dropped) parks the payment at once for `reconcile`.
        let _parked_if_dropped = self.payments.park_when_dropped(&payment);
        let url = endpoint.join("v1/chat/completions").map_err(|e| protocol(&e.to_string()))?;
        let mut header = HeaderValue::from_str(payment.token.expose()).map_err(|_| protocol("unsendable token"))?;
        header.set_sensitive(true);
        let sent = self.client(onion).http.post(url).header(CASHU_HEADER, header).json(body).send().await;
        let response = match sent {
            Ok(response) => response,
            Err(e) => {
                // We cannot know whether the provider received and redeemed the token: ask the mint.
                let verdict = self.recover(&payment, notices).await;
                let label = provider.label();
                let told = if e.is_timeout() {
                    Told::NoAnswerInTime { provider: &label, after: self.config.request_timeout, verdict }
                } else if e.is_connect() {
                    Told::Unreachable { provider: &label, verdict }
                } else {
                    Told::BrokeOff { provider: &label, error: e.to_string(), verdict }
                };
                return Err(self.finish(
                    std::mem::take(notices),
                    BackendError::Unavailable { backend: NAME.into(), reason: told.text(locale) },
                ));
            }
        };
        faults::hit("after-token-sent");
        let status = response.status().as_u16();
        let request_id = header_text(&response, "x-routstr-request-id");
        if let Some(request_id) = &request_id {
            self.payments.note_request_id(&payment, request_id);
        }
        // The change arrives in a header and must be kept before the body is read: the body may never come.
        let change = header_text(&response, CASHU_HEADER);
        tracing::info!(provider = %provider.label(), status, request_id = request_id.as_deref().unwrap_or("-"), "routstr reply");
        if status == 200 {
            let spent_sats = match self.payments.settle_with_change(&payment, change.as_deref()).await {
                Ok(settlement) => {
                    notices.extend(settlement.warning);
                    settlement.spent_sats
                }
                Err(e) => {
                    tracing::error!(error = %e, "the change could not be received; it stays in the ledger for reconcile");
                    self.payments.keep_in_flight(&payment).await;
                    payment.amount_sats
                }
            };
            let bytes = net::read_capped(response, MAX_REPLY_BYTES).await;
            return match bytes.ok().and_then(|b| serde_json::from_slice::<Value>(&b).ok()) {
                Some(reply) => Ok(Exchange::Answer { reply, spent_sats }),
                None => Err(self.finish(
                    std::mem::take(notices),
                    BackendError::Protocol {
                        backend: NAME.into(),
                        detail: Told::AnswerLost { provider: &provider.label(), change_kept: change.is_some() }
                            .text(locale),
                    },
                )),
            };
        }
        let bytes = net::read_capped(response, 64 * 1024).await.unwrap_or_default();
        let error = serde_json::from_slice::<Value>(&bytes).unwrap_or(Value::Null);
        if status == 402 {
            // Pre-flight: the token should not have been redeemed (routstr.md §7). Take it back before anything else;
            // if that fails, the provider kept it, and it must not be paid again.
            let reclaimed = match self.payments.reclaim(&payment).await {
                Ok(()) => Reclaimed::Yes,
                Err(e @ PayError::AlreadySpent) => {
                    tracing::warn!(error = %e, "a token refused with 402 was redeemed by the provider");
                    let verdict = self.recover(&payment, notices).await;
                    let notice = Told::RedeemedAndRefused { provider: &provider.label(), verdict }.text(locale);
                    // Kept where every surface reads it: folded into an error that falls through, it would be lost.
                    self.payments.keep_notices(std::slice::from_ref(&notice));
                    notices.push(notice);
                    Reclaimed::RedeemedByProvider
                }
                Err(e) => {
                    tracing::warn!(error = %e, "a token refused with 402 could not be taken back yet");
                    self.payments.keep_in_flight(&payment).await;
                    let notice =
                        Told::NotTakenBackYet { provider: &provider.label(), error: e.text(locale) }.text(locale);
                    self.payments.keep_notices(std::slice::from_ref(&notice));
                    notices.push(notice.clone());
                    Reclaimed::NotYet { told: notice }
                }
            };
            let msat = error.pointer("/detail/amount_required_msat").and_then(json_u64).unwrap_or(0);
            return Ok(Exchange::PaymentRequired { required_sats: msat.div_ceil(1000), reclaimed });
        }
        let detail = error_detail(&error, status);
        let refund = error.pointer("/error/refund_token").and_then(Value::as_str).map(str::to_owned).or(change);
        let verdict = match refund {
            Some(token) => match self.payments.take_refund(&payment, &token).await {
                Ok(settlement) if settlement.warning.is_none() => Verdict::Refunded,
                Ok(settlement) => {
                    notices.extend(settlement.warning);
                    Verdict::RefundVoid
                }
                Err(e) => {
                    tracing::warn!(error = %e, "the refund token could not be received");
                    self.recover(&payment, notices).await
                }
            },
            None => self.recover(&payment, notices).await,
        };
        let told = Told::Answered { provider: &provider.label(), detail, verdict };
        Err(self.finish(
            std::mem::take(notices),
            BackendError::Unavailable { backend: NAME.into(), reason: told.text(locale) },
        ))
    }

    /// The stop message when no token was built: the allowance, or the wallet, said no. Nothing was spent.
    fn not_paid_message(&self, not_paid: NotPaid, price: u64, locale: Locale) -> String {
        let told = match not_paid {
            NotPaid::Unaffordable => return stop_message(locale, &self.payments.budget().get(), Some(price)),
            NotPaid::NoCommonMint => Told::NoCommonMint,
            NotPaid::Wallet(PayError::InsufficientFunds { .. }) => Told::TooLittleEcash { price },
            NotPaid::Wallet(
                e @ (PayError::MintUnreachable { .. }
                | PayError::Timeout
                | PayError::Mint { .. }
                | PayError::MintUnclear { .. }),
            ) => Told::MintDown { error: e.text(locale) },
            NotPaid::Wallet(e) => Told::NotPaid { error: e.text(locale) },
        };
        told.text(locale)
    }

    /// After an unclear outcome: reclaim the token if the mint says it is unspent; if it was spent, ask the
    /// provider's refund endpoint (honouring 425 a few times); else leave it in flight for `reconcile`, which keeps
    /// asking across runs.
    async fn recover(&self, payment: &Payment, notices: &mut Vec<String>) -> Verdict {
        if self.payments.reclaim(payment).await.is_ok() {
            return Verdict::Unspent;
        }
        let entry_endpoint = self.payments.endpoint_of(payment);
        if let (Some(endpoint), Some(client)) = (entry_endpoint, self.payments.refund_client()) {
            for attempt in 1..=self.config.refund_attempts {
                match client.ask(&endpoint, &payment.token).await {
                    RefundAnswer::Token(token) => match self.payments.take_refund(payment, token.expose()).await {
                        Ok(settlement) => {
                            return match settlement.warning {
                                None if settlement.spent_sats == 0 => Verdict::ProviderRefunded,
                                None => Verdict::ProviderRefundedPart {
                                    spent: settlement.spent_sats,
                                    paid: payment.amount_sats,
                                },
                                Some(warning) => {
                                    notices.push(warning);
                                    Verdict::ProviderRefundVoid
                                }
                            };
                        }
                        Err(e) => {
                            tracing::warn!(error = %e, "the refund could not be received");
                            break;
                        }
                    },
                    RefundAnswer::Pending(wait) if attempt < self.config.refund_attempts => {
                        let wait =
                            if wait.is_zero() { self.config.refund_wait } else { wait.min(Duration::from_secs(30)) };
                        tracing::info!(attempt, wait_ms = wait.as_millis() as u64, "refund pending (425); waiting");
                        tokio::time::sleep(wait).await;
                    }
                    other => {
                        tracing::info!(answer = ?other, "no refund from the provider yet");
                        break;
                    }
                }
            }
        }
        self.payments.keep_in_flight(payment).await;
        Verdict::KeptInLedger
    }
}

/// What one paid POST came to, when it did not fail outright.
enum Exchange {
    Answer {
        reply: Value,
        /// What this payment cost: what left the wallet and did not come back (the token's face value while its
        /// change is still being resolved).
        spent_sats: u64,
    },
    /// A 402; `reclaimed` says what became of the refused token.
    PaymentRequired { required_sats: u64, reclaimed: Reclaimed },
}

/// What became of a token refused with a 402.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Reclaimed {
    /// Back in the wallet.
    Yes,
    /// The mint says the provider redeemed it.
    RedeemedByProvider,
    /// Not back yet (the mint did not answer); `told` is what the owner reads. Only the provider's redemption
    /// blames the provider (review F10).
    NotYet { told: String },
}

/// A number a provider sent as a JSON number or a string of digits.
fn json_u64(v: &Value) -> Option<u64> {
    v.as_u64().or_else(|| v.as_str().and_then(|s| s.trim().parse().ok()))
}

fn header_text(response: &reqwest::Response, name: &str) -> Option<String> {
    response.headers().get(name).and_then(|v| v.to_str().ok()).map(str::to_owned).filter(|s| !s.is_empty())
}

/// The error body's message, read robustly: `error`, then `detail.error`, then `detail` (routstr.md §2).
fn error_detail(body: &Value, status: u16) -> String {
    let error = body.get("error").or_else(|| body.pointer("/detail/error")).or_else(|| body.get("detail"));
    let message = error.and_then(|e| e.get("message").and_then(Value::as_str).or(e.as_str())).unwrap_or("no details");
    let code = error.and_then(|e| e.get("code")).map(|c| c.to_string().trim_matches('"').to_owned());
    match code {
        Some(code) => format!("HTTP {status} ({code}): {message}"),
        None => format!("HTTP {status}: {message}"),
    }
}

fn body_text_chars(body: &Value) -> usize {
    body["messages"]
        .as_array()
        .map(|ms| ms.iter().map(|m| m["content"].as_str().map_or(0, |s| s.chars().count())).sum())
        .unwrap_or(0)
}

fn protocol(detail: &str) -> BackendError {
    BackendError::Protocol { backend: NAME.into(), detail: detail.to_owned() }
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::*;

    fn provider(name: &str, endpoints: &[&str], mint: &str, completion: f64) -> ProbedProvider {
        ProbedProvider {
            pubkey: format!("{name:0>64}"),
            d: name.into(),
            name: name.into(),
            endpoints: endpoints.iter().map(|e| url::Url::parse(e).unwrap()).collect(),
            mints: vec![mint.into()],
            models: HashMap::from([("toolbot".to_owned(), ModelPrice { prompt: 0.01, completion })]),
        }
    }

    #[track_caller]
    fn check(providers: &[ProbedProvider], remaining: u64, tor: bool, expect: Option<&str>) {
        let mints = vec!["https://mint.a".to_owned()];
        let chosen =
            select_provider(providers, "vendor/toolbot", &mints, remaining, 900, tor).map(|(p, _)| p.name.clone());
        assert_eq!(chosen.as_deref(), expect);
    }

    #[test]
    fn the_cheapest_affordable_provider_with_a_shared_mint_wins() {
        let onion = "http://abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcd.onion/";
        let providers = [
            provider("cheap-other-mint", &["https://a.example/"], "https://mint.b", 0.01),
            provider("cheap", &["https://b.example/"], "https://mint.a", 0.02),
            provider("dear-onion", &["https://c.example/", onion], "https://mint.a/", 0.05),
            provider("onion-only", &[onion], "https://mint.a", 0.03),
        ];
        check(&providers, 1000, false, Some("cheap"));
        check(&providers, 1000, true, Some("onion-only"));
        check(&providers, 10, false, None);
        // 1024 completion tokens at 0.02 sats, the prompt's share and the margin: within 40 sats, not within 30.
        check(&providers[1..2], 40, false, Some("cheap"));
        check(&providers[1..2], 30, false, None);
    }

    #[test]
    fn absurd_prices_have_no_estimate() {
        for (prompt, completion) in [(0.0, 1e300), (f64::NAN, 0.1), (0.1, f64::INFINITY), (1e12, 0.0), (-1.0, 0.5)] {
            assert_eq!(estimate_price_sats(&ModelPrice { prompt, completion }, 900), None, "{prompt} {completion}");
        }
        assert_eq!(estimate_price_sats(&ModelPrice { prompt: 0.0, completion: 0.0 }, 900), Some(1));
    }

    #[test]
    fn the_price_covers_the_completion_cap_with_a_margin() {
        let price = ModelPrice { prompt: 0.01, completion: 0.05 };
        let estimate = estimate_price_sats(&price, 3000).unwrap();
        let provider_reservation = (3000.0 / 3.0) * 0.01 + f64::from(ROUTSTR_MAX_TOKENS) * 0.05;
        assert!(estimate as f64 >= provider_reservation * 1.4, "{estimate} vs {provider_reservation}");
    }
}
