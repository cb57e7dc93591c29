//! The capability probe: a provider is used only after its `/v1/info` and `/v1/models` parse. Cached.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use serde::Deserialize;
use url::Url;

use crate::net::guard::{self, AddressPolicy};
use crate::net::{self, OutboundClient};
use crate::pay::discovery::{Announcement, DiscoveryReport, Refusal};

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
    /// How the owner sees it: its name, or the start of its key.
    pub fn label(&self) -> String {
        if self.name.trim().is_empty() {
            format!("provider {}", &self.pubkey[..self.pubkey.len().min(12)])
        } else {
            self.name.clone()
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
struct Info {
    #[serde(default)]
    name: String,
    #[serde(default)]
    mints: Vec<String>,
}

#[derive(Debug, Deserialize)]
struct Models {
    data: Vec<ModelEntry>,
}

#[derive(Debug, Deserialize)]
struct ModelEntry {
    id: String,
    #[serde(default)]
    sats_pricing: Option<SatsPricing>,
    #[serde(default)]
    enabled: Option<bool>,
}

#[derive(Debug, Deserialize)]
struct SatsPricing {
    prompt: f64,
    completion: f64,
}

/// A probe's answer: the provider, or why it is not used (kept, so a cached failure still explains itself).
type ProbeResult = Result<ProbedProvider, Refusal>;

/// Probe results per provider key, with their age.
pub(super) struct ProbeCache {
    ttl: Duration,
    policy: AddressPolicy,
    entries: Mutex<HashMap<String, (Instant, ProbeResult)>>,
}

impl ProbeCache {
    pub(super) fn new(ttl: Duration, policy: AddressPolicy) -> Self {
        Self { ttl, policy, entries: Mutex::new(HashMap::new()) }
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
            match guard::check_endpoint(endpoint, self.policy, tor_up).await {
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
        let prices: HashMap<String, ModelPrice> = models
            .data
            .into_iter()
            .filter(|m| m.enabled != Some(false))
            .filter_map(|m| {
                let p = m.sats_pricing?;
                (p.prompt.is_finite() && p.completion.is_finite() && p.prompt >= 0.0 && p.completion >= 0.0)
                    .then_some((m.id, ModelPrice { prompt: p.prompt, completion: p.completion }))
            })
            .collect();
        if prices.is_empty() {
            return Err(Refusal::NoModel { model: "any model".into() });
        }
        let mints = if info.mints.is_empty() { draft.mints.clone() } else { info.mints };
        let name = if info.name.trim().is_empty() { draft.name.clone() } else { info.name.chars().take(80).collect() };
        Ok(ProbedProvider { name, mints, models: prices, ..draft })
    }
}

async fn get_json<T: serde::de::DeserializeOwned>(
    client: &OutboundClient,
    base: &Url,
    path: &str,
) -> Result<T, String> {
    let url = base.join(path).map_err(|e| e.to_string())?;
    let response = client.http.get(url).send().await.map_err(|e| format!("{path}: {e}"))?;
    if !response.status().is_success() {
        return Err(format!("{path} answered HTTP {}", response.status()));
    }
    let body = net::read_capped(response, MAX_PROBE_BYTES).await.map_err(|e| format!("{path}: {e}"))?;
    serde_json::from_slice(&body).map_err(|e| format!("{path} did not parse: {e}"))
}
