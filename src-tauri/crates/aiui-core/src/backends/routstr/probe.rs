//! The capability probe: a provider is used only after its `/v1/info` and `/v1/models` parse. Cached.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use serde::Deserialize;
use serde_json::Value;
use url::Url;

use crate::backends::routstr::discovery::{Announcement, DiscoveryReport, Refusal};
use crate::net::guard::Guard;
use crate::net::{self, OutboundClient};

const MAX_PROBE_BYTES: usize = 1024 * 1024;

/// A model's price in sats per token (routstr.md §3: not per million).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ModelPrice {
    pub prompt: f64,
    pub completion: f64,
}

/// A provider that answered its probe.
#[derive(Debug, Clone, PartialEq)]
pub struct ProbedProvider {
    pub pubkey: String,
    /// The announcement's first `d` tag: with the key, its address in the discovery report.
    pub d: String,
    pub name: String,
    pub endpoints: Vec<Url>,
    /// The mints from `/v1/info` (falling back to the announcement's `mint` tags).
    pub mints: Vec<String>,
    pub models: HashMap<String, ModelPrice>,
}

impl ProbedProvider {
    /// How the owner sees it: its self-chosen name with a short form of its key, which an impostor using the same
    /// name cannot copy ("Example AI (npub1abc…wxyz)"), or the short key alone. The name is untrusted: control
    /// characters are dropped and it is cut to 40 characters.
    pub fn label(&self) -> String {
        let key = short_key(&self.pubkey);
        let name: String = self.name.chars().filter(|c| !c.is_control()).take(40).collect();
        match name.trim() {
            "" => format!("provider {key}"),
            name => format!("{name} ({key})"),
        }
    }

    pub fn onion_endpoint(&self) -> Option<&Url> {
        self.endpoints.iter().find(|u| u.host_str().is_some_and(|h| h.ends_with(".onion")))
    }

    pub fn clearnet_endpoint(&self) -> Option<&Url> {
        self.endpoints.iter().find(|u| u.host_str().is_some_and(|h| !h.ends_with(".onion")))
    }

    /// The endpoint to use and whether it is an onion: with Tor, onion first; without, never an onion.
    pub fn endpoint(&self, tor_up: bool) -> Option<(Url, bool)> {
        if tor_up && let Some(onion) = self.onion_endpoint() {
            return Some((with_slash(onion), true));
        }
        self.clearnet_endpoint().map(|u| (with_slash(u), false))
    }

    /// Why this provider cannot serve `model` from one of the owner's `accepted_mints`, if it cannot.
    pub fn unsuitable(&self, model: &str, accepted_mints: &[String], tor_up: bool) -> Option<Refusal> {
        let normalize = |mints: &[String]| -> Vec<String> {
            mints.iter().filter_map(|m| crate::budget::normalize_mint_url(m)).collect()
        };
        let accepted = normalize(accepted_mints);
        if self.price_for(model).is_none() {
            Some(Refusal::NoModel { model: model.to_owned() })
        } else if !normalize(&self.mints).iter().any(|m| accepted.contains(m)) {
            Some(Refusal::NoCommonMint)
        } else if self.endpoint(tor_up).is_none() {
            Some(Refusal::BadEndpoint { reason: "its only endpoints are onion addresses, and Tor is off".into() })
        } else {
            None
        }
    }

    /// The price of `model`, matched by id with or without its `vendor/` prefix.
    pub fn price_for(&self, model: &str) -> Option<&ModelPrice> {
        let bare = |m: &str| m.rsplit('/').next().unwrap_or(m).to_owned();
        self.models.get(model).or_else(|| self.models.iter().find(|(id, _)| bare(id) == bare(model)).map(|(_, p)| p))
    }
}

fn with_slash(url: &Url) -> Url {
    let mut url = url.clone();
    if !url.path().ends_with('/') {
        let path = format!("{}/", url.path());
        url.set_path(&path);
    }
    url
}

#[derive(Debug, Deserialize)]
pub(crate) struct Info {
    #[serde(default)]
    name: String,
    #[serde(default)]
    mints: Vec<String>,
}

#[derive(Debug, Deserialize)]
pub(crate) struct Models {
    data: Vec<Value>,
}

/// One model, read leniently: a model whose price cannot be understood is dropped, never the whole list.
#[derive(Debug, Deserialize)]
struct ModelEntry {
    #[serde(default)]
    id: Value,
    #[serde(default)]
    sats_pricing: Value,
    #[serde(default)]
    enabled: Value,
}

/// The most sats per token any sane price comes to (the dearest real models cost well under 1 sat per token).
const MAX_SATS_PER_TOKEN: f64 = 1_000.0;

impl ModelEntry {
    /// The model's id and price, when both make sense: finite, non-negative, not absurd. A provider advertising a
    /// price of 1e300, NaN, a negative number or a string gets the model dropped, with a reason in the log.
    fn priced(self) -> Option<(String, ModelPrice)> {
        let id = self.id.as_str()?.trim().to_owned();
        if id.is_empty() || self.enabled == Value::Bool(false) {
            return None;
        }
        let field = |name: &str| self.sats_pricing.get(name).and_then(Value::as_f64);
        let (Some(prompt), Some(completion)) = (field("prompt"), field("completion")) else {
            if !self.sats_pricing.is_null() {
                tracing::info!(model = %id, "model dropped: its sats pricing is not a pair of numbers");
            }
            return None;
        };
        let sane = |p: f64| p.is_finite() && (0.0..=MAX_SATS_PER_TOKEN).contains(&p);
        if !sane(prompt) || !sane(completion) {
            tracing::info!(model = %id, prompt, completion, "model dropped: its price makes no sense");
            return None;
        }
        Some((id, ModelPrice { prompt, completion }))
    }
}

/// A probe's answer: the provider, or why it is not used (kept, so a cached failure still explains itself).
type ProbeResult = Result<ProbedProvider, Refusal>;

/// Probe results per provider key, with their age, and what paying each provider taught.
pub(super) struct ProbeCache {
    ttl: Duration,
    /// Checks each endpoint; the clearnet client that probes and pays resolves names through the same guard.
    guard: Guard,
    entries: Mutex<HashMap<String, (Instant, ProbeResult)>>,
    /// Providers that asked for more than their advertisement allows: skipped until the entry is this old.
    broken: Mutex<HashMap<String, Instant>>,
    /// How much more than our estimate a provider's 402 asked for (a ratio ≤ `MAX_REPRICE_FACTOR`), so later
    /// requests pay its real price at once instead of a 402 round trip (and a mint fee) each time.
    learned: Mutex<HashMap<String, (Instant, f64)>>,
}

fn key_of(provider: &ProbedProvider) -> String {
    format!("{}:{}", provider.pubkey, provider.d)
}

impl ProbeCache {
    pub(super) fn new(ttl: Duration, guard: Guard) -> Self {
        Self {
            ttl,
            guard,
            entries: Mutex::new(HashMap::new()),
            broken: Mutex::new(HashMap::new()),
            learned: Mutex::new(HashMap::new()),
        }
    }

    /// How long a provider that broke its price is skipped (the cache's lifetime).
    pub(super) fn ttl(&self) -> Duration {
        self.ttl
    }

    /// The provider broke its advertised price: skip it for the cache's lifetime.
    pub(super) fn mark_broken(&self, provider: &ProbedProvider) {
        tracing::warn!(provider = %provider.label(), minutes = self.ttl.as_secs().div_ceil(60),
                       "provider broke its advertised price; skipped for a while");
        self.broken.lock().unwrap_or_else(|p| p.into_inner()).insert(key_of(provider), Instant::now());
    }

    /// The minutes left before a provider that broke its price is tried again, if it is being skipped.
    fn broken_for_minutes(&self, key: &str) -> Option<u64> {
        let broken = self.broken.lock().unwrap_or_else(|p| p.into_inner());
        let left = self.ttl.checked_sub(broken.get(key)?.elapsed())?;
        Some(left.as_secs().div_ceil(60).max(1))
    }

    /// Remembers that `required` was asked where `estimate` was offered.
    pub(super) fn learn_price(&self, provider: &ProbedProvider, estimate: u64, required: u64) {
        let ratio = required as f64 / estimate.max(1) as f64;
        if ratio > 1.0 && ratio.is_finite() {
            self.learned.lock().unwrap_or_else(|p| p.into_inner()).insert(key_of(provider), (Instant::now(), ratio));
        }
    }

    /// The estimate adjusted by what the provider's last 402 taught, within `MAX_REPRICE_FACTOR` of the estimate.
    pub(super) fn learned_price(&self, provider: &ProbedProvider, estimate: u64) -> u64 {
        let learned = self.learned.lock().unwrap_or_else(|p| p.into_inner()).get(&key_of(provider)).copied();
        match learned {
            Some((at, ratio)) if at.elapsed() < self.ttl => {
                let cap = estimate.saturating_mul(super::MAX_REPRICE_FACTOR);
                ((estimate as f64 * ratio).ceil() as u64).clamp(estimate, cap)
            }
            _ => estimate,
        }
    }

    /// The providers that answered their probe, probing only those not in the cache. Each one that did not is
    /// marked refused in `report`, with why.
    pub(super) async fn probe_all(
        &self,
        announcements: &[Announcement],
        clearnet: &OutboundClient,
        tor: Option<&OutboundClient>,
        tor_up: bool,
        report: &mut DiscoveryReport,
    ) -> Vec<ProbedProvider> {
        let mut out = Vec::new();
        for a in announcements {
            let key = format!("{}:{}", a.pubkey, a.d);
            if let Some(minutes) = self.broken_for_minutes(&key) {
                report.refuse(&a.pubkey, &a.d, Refusal::BrokePrice { minutes });
                continue;
            }
            let cached = self.entries.lock().unwrap_or_else(|p| p.into_inner()).get(&key).cloned();
            let result = match cached {
                Some((at, result)) if at.elapsed() < self.ttl => result,
                _ => {
                    let result = self.probe(a, clearnet, tor, tor_up).await;
                    self.entries
                        .lock()
                        .unwrap_or_else(|p| p.into_inner())
                        .insert(key, (Instant::now(), result.clone()));
                    result
                }
            };
            match result {
                Ok(provider) => out.push(provider),
                Err(why) => report.refuse(&a.pubkey, &a.d, why),
            }
        }
        out
    }

    async fn probe(
        &self,
        a: &Announcement,
        clearnet: &OutboundClient,
        tor: Option<&OutboundClient>,
        tor_up: bool,
    ) -> Result<ProbedProvider, Refusal> {
        let mut usable = Vec::new();
        let mut refused = Vec::new();
        for endpoint in &a.endpoints {
            match self.guard.check_http(endpoint, tor_up).await {
                Ok(()) => usable.push(endpoint.clone()),
                Err(why) => {
                    tracing::info!(provider = %a.pubkey, endpoint = %endpoint, %why, "endpoint refused");
                    refused.push(format!("{endpoint}: {why}"));
                }
            }
        }
        let draft = ProbedProvider {
            pubkey: a.pubkey.clone(),
            d: a.d.clone(),
            name: a.name.clone(),
            endpoints: usable,
            mints: a.mints.clone(),
            models: HashMap::new(),
        };
        let Some((base, onion)) = draft.endpoint(tor_up) else {
            let reason = if refused.is_empty() {
                "its only endpoints are onion addresses, and Tor is off".to_owned()
            } else {
                refused.join("; ")
            };
            return Err(Refusal::BadEndpoint { reason });
        };
        let failed = |reason: String| Refusal::ProbeFailed { reason };
        let client = if onion { tor.ok_or_else(|| failed("onion endpoint without Tor".into()))? } else { clearnet };
        let info: Info = get_json(client, &base, "v1/info").await.map_err(failed)?;
        let models: Models = get_json(client, &base, "v1/models").await.map_err(failed)?;
        from_answers(draft, info, models)
    }
}

/// The provider as its `/v1/info` and `/v1/models` answers describe it; models with unusable prices are dropped.
pub(crate) fn from_answers(draft: ProbedProvider, info: Info, models: Models) -> Result<ProbedProvider, Refusal> {
    let prices: HashMap<String, ModelPrice> = models
        .data
        .into_iter()
        .filter_map(|m| serde_json::from_value::<ModelEntry>(m).ok())
        .filter_map(ModelEntry::priced)
        .collect();
    if prices.is_empty() {
        return Err(Refusal::NoModel { model: "any model".into() });
    }
    let mints = if info.mints.is_empty() { draft.mints.clone() } else { info.mints };
    let name = if info.name.trim().is_empty() { draft.name.clone() } else { info.name.chars().take(80).collect() };
    Ok(ProbedProvider { name, mints, models: prices, ..draft })
}

async fn get_json<T: serde::de::DeserializeOwned>(
    client: &OutboundClient,
    base: &Url,
    path: &str,
) -> Result<T, String> {
    let url = base.join(path).map_err(|e| e.to_string())?;
    let response = client.http.get(url).send().await.map_err(|e| format!("{path}: {}", net::describe(&e)))?;
    if !response.status().is_success() {
        return Err(format!("{path} answered HTTP {}", response.status()));
    }
    let body = net::read_capped(response, MAX_PROBE_BYTES).await.map_err(|e| format!("{path}: {e}"))?;
    serde_json::from_slice(&body).map_err(|e| format!("{path} did not parse: {e}"))
}

/// A key as the owner can compare it: the start and end of its npub (the hex key if it is not one).
pub fn short_key(pubkey_hex: &str) -> String {
    use nostr_sdk::prelude::{PublicKey, ToBech32};
    let full = PublicKey::from_hex(pubkey_hex)
        .ok()
        .and_then(|key| key.to_bech32().ok())
        .unwrap_or_else(|| pubkey_hex.chars().filter(char::is_ascii_hexdigit).collect());
    let chars: Vec<char> = full.chars().collect();
    if chars.len() <= 16 {
        return full;
    }
    format!("{}…{}", chars[..10].iter().collect::<String>(), chars[chars.len() - 4..].iter().collect::<String>())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn provider(pubkey: &str, name: &str) -> ProbedProvider {
        ProbedProvider {
            pubkey: pubkey.into(),
            d: "d".into(),
            name: name.into(),
            endpoints: Vec::new(),
            mints: Vec::new(),
            models: HashMap::new(),
        }
    }

    #[test]
    fn an_impostor_with_the_same_name_is_told_apart_by_its_key() {
        let honest = provider(&"a1".repeat(32), "Example AI");
        let impostor = provider(&"b2".repeat(32), "Example AI");
        assert_ne!(honest.label(), impostor.label());
        assert!(honest.label().starts_with("Example AI (npub1") && honest.label().contains('…'), "{}", honest.label());
        let noisy = provider(&"a1".repeat(32), &format!("Evil\u{1b}[2J\n{}", "x".repeat(200)));
        assert!(!noisy.label().chars().any(char::is_control), "{:?}", noisy.label());
        assert!(noisy.label().chars().count() < 70, "{}", noisy.label());
        assert!(provider(&"a1".repeat(32), "  ").label().starts_with("provider npub1"));
    }
}
