//! Routstr provider discovery on Nostr: kind-38421 announcements, checked as the untrusted data they are.
//!
//! An announcement yields only endpoints to POST a paid chat request to, and the mints the provider takes. It
//! never changes a grant, a tool, the prompt or the ceiling. The rules (routstr.md §1): a valid signature, at
//! least one `u` tag, not dated far in the future, newest per (pubkey, d), and optionally a positive review
//! from the owner's chosen reviewer.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use nostr_sdk::prelude::{Client, ClientOptions, Connection, Event, Filter, Kind, PublicKey, RelayLimits, Timestamp};
use serde::Serialize;
use url::Url;

/// The announcement kind Routstr providers publish (addressable, one `d` tag).
pub const PROVIDER_KIND: u16 = 38421;
/// Review labels signed by a reviewer key.
pub const REVIEW_KIND: u16 = 38425;
/// Events dated further ahead than this are dropped (clock skew is allowed, time travel is not).
const MAX_FUTURE_SKEW: Duration = Duration::from_secs(15 * 60);
/// The largest announcement content we read; real ones are a name and a sentence.
pub const MAX_CONTENT_BYTES: usize = 64 * 1024;

const POSITIVE_LABELS: &[&str] = &["trusted", "verified", "lgtm", "lgtm2"];
const NEGATIVE_LABELS: &[&str] = &["suspicious", "avoid", "blacklisted", "removed"];

/// Whether unreviewed providers may be used.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ReviewMode {
    /// Only providers the reviewer labelled positively (the default: fail closed).
    ReviewedOnly,
    /// Any provider not labelled negatively.
    Any,
}

#[derive(Debug, Clone)]
pub struct DiscoveryConfig {
    pub relays: Vec<String>,
    /// A SOCKS5 proxy (Tor) for relay connections.
    pub socks_proxy: Option<SocketAddr>,
    pub timeout: Duration,
    /// How long a discovery result is reused, so a chat turn makes no relay round trip.
    pub ttl: Duration,
    /// The reviewer whose kind-38425 labels count (hex or npub).
    pub reviewer: Option<String>,
    pub review_mode: ReviewMode,
}

/// The relays the Routstr SDK uses by default (routstr.md §1).
pub const DEFAULT_RELAYS: &[&str] = &["wss://relay.damus.io", "wss://nos.lol", "wss://relay.routstr.com"];
/// How long discovery waits for relays before settling for what arrived.
pub const DISCOVERY_TIMEOUT: Duration = Duration::from_secs(6);

impl Default for DiscoveryConfig {
    fn default() -> Self {
        Self {
            relays: DEFAULT_RELAYS.iter().map(|r| (*r).to_owned()).collect(),
            socks_proxy: None,
            timeout: DISCOVERY_TIMEOUT,
            ttl: Duration::from_secs(10 * 60),
            reviewer: None,
            review_mode: ReviewMode::ReviewedOnly,
        }
    }
}

/// A provider as its announcement describes it. Nothing here is trusted beyond "where to POST".
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Announcement {
    pub pubkey: String,
    pub d: String,
    pub name: String,
    pub about: String,
    /// Clearnet endpoints first, then onion ones, as announced.
    pub endpoints: Vec<Url>,
    pub mints: Vec<String>,
    pub version: Option<String>,
    pub created_at: u64,
}

/// Why an event was not used. Logged with the event id, never acted on.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Rejected {
    #[error("the signature does not verify")]
    BadSignature,
    #[error("it has no `u` (endpoint) tag")]
    NoEndpoint,
    #[error("it is dated {0} s in the future")]
    FutureDated(u64),
    #[error("its content is {0} bytes, over the {MAX_CONTENT_BYTES}-byte cap")]
    Oversized(usize),
    #[error("it has no `d` tag")]
    NoIdentifier,
    #[error("no endpoint in it is a usable http(s) URL")]
    BadEndpoints,
}

/// Checks one kind-38421 event against the rules, returning the announcement or why it was refused.
pub fn parse_announcement(event: &Event, now: Timestamp) -> Result<Announcement, Rejected> {
    if event.content.len() > MAX_CONTENT_BYTES {
        return Err(Rejected::Oversized(event.content.len()));
    }
    if event.verify().is_err() {
        return Err(Rejected::BadSignature);
    }
    let ahead = event.created_at.as_secs().saturating_sub(now.as_secs());
    if ahead > MAX_FUTURE_SKEW.as_secs() {
        return Err(Rejected::FutureDated(ahead));
    }
    let mut d = None;
    let mut raw_endpoints = Vec::new();
    let mut mints = Vec::new();
    let mut version = None;
    for tag in event.tags.iter() {
        match tag.as_slice() {
            [name, value, ..] if name == "d" => d = Some(value.clone()),
            [name, value, ..] if name == "u" => raw_endpoints.push(value.clone()),
            [name, value, ..] if name == "mint" => mints.push(value.clone()),
            [name, value, ..] if name == "version" => version = Some(value.clone()),
            _ => {}
        }
    }
    let d = d.ok_or(Rejected::NoIdentifier)?;
    if raw_endpoints.is_empty() {
        return Err(Rejected::NoEndpoint);
    }
    let endpoints: Vec<Url> = raw_endpoints
        .iter()
        .filter_map(|u| Url::parse(u).ok())
        .filter(|u| matches!(u.scheme(), "http" | "https") && u.host().is_some())
        .collect();
    if endpoints.is_empty() {
        return Err(Rejected::BadEndpoints);
    }
    // The content is a JSON string holding {"name","about"}; anything else leaves them empty, which is harmless.
    let meta: serde_json::Value = serde_json::from_str(&event.content)
        .ok()
        .and_then(|v: serde_json::Value| match v {
            serde_json::Value::String(inner) => serde_json::from_str(&inner).ok(),
            other => Some(other),
        })
        .unwrap_or_default();
    let text = |key: &str| meta.get(key).and_then(|v| v.as_str()).unwrap_or_default().chars().take(200).collect();
    Ok(Announcement {
        pubkey: event.pubkey.to_hex(),
        d,
        name: text("name"),
        about: text("about"),
        endpoints,
        mints,
        version,
        created_at: event.created_at.as_secs(),
    })
}

/// Keeps the newest announcement per (pubkey, d).
pub fn newest_per_address(announcements: Vec<Announcement>) -> Vec<Announcement> {
    let mut newest: HashMap<(String, String), Announcement> = HashMap::new();
    for a in announcements {
        let key = (a.pubkey.clone(), a.d.clone());
        match newest.get(&key) {
            Some(existing) if existing.created_at >= a.created_at => {}
            _ => {
                newest.insert(key, a);
            }
        }
    }
    let mut list: Vec<Announcement> = newest.into_values().collect();
    list.sort_by(|a, b| (&a.pubkey, &a.d).cmp(&(&b.pubkey, &b.d)));
    list
}

/// The reviewer's verdict per provider pubkey: the newest review wins.
pub fn review_verdicts(reviews: &[Event], reviewer: &PublicKey) -> HashMap<String, bool> {
    let mut newest: HashMap<String, (u64, bool)> = HashMap::new();
    for review in reviews.iter().filter(|r| r.pubkey == *reviewer && r.verify().is_ok()) {
        let mut node = None;
        let mut verdict = None;
        for tag in review.tags.iter() {
            match tag.as_slice() {
                [name, value, ..] if name == "node" => node = Some(value.clone()),
                [name, value, ..] if name == "t" && POSITIVE_LABELS.contains(&value.as_str()) => verdict = Some(true),
                [name, value, ..] if name == "t" && NEGATIVE_LABELS.contains(&value.as_str()) => verdict = Some(false),
                _ => {}
            }
        }
        if let (Some(node), Some(verdict)) = (node, verdict) {
            let at = review.created_at.as_secs();
            if newest.get(&node).is_none_or(|(t, _)| *t < at) {
                newest.insert(node, (at, verdict));
            }
        }
    }
    newest.into_iter().map(|(k, (_, v))| (k, v)).collect()
}

/// The process's one Nostr client and its cached discovery result.
pub struct Discovery {
    config: DiscoveryConfig,
    client: Client,
    cache: Mutex<Option<(Instant, Vec<Announcement>)>>,
    connected: tokio::sync::OnceCell<()>,
}

impl std::fmt::Debug for Discovery {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Discovery").field("relays", &self.config.relays).finish_non_exhaustive()
    }
}

/// Builds the Nostr client: the only place one is made. The relay pool verifies ids and signatures itself (and
/// logs what it refuses); discovery checks again. The pool's size limits are lifted so that discovery sees, and
/// refuses with its own reason, an oversized announcement.
pub fn nostr_client(config: &DiscoveryConfig) -> Client {
    let mut connection = Connection::new();
    if let Some(proxy) = config.socks_proxy {
        connection = connection.proxy(proxy);
    }
    let opts = ClientOptions::new().connection(connection).relay_limits(RelayLimits::disable());
    Client::builder().opts(opts).build()
}

impl Discovery {
    pub fn new(config: DiscoveryConfig) -> Self {
        let client = nostr_client(&config);
        Self { config, client, cache: Mutex::new(None), connected: tokio::sync::OnceCell::new() }
    }

    /// The usable provider announcements, from the cache when it is fresh. Finding nothing is an empty list.
    pub async fn providers(&self) -> Vec<Announcement> {
        if let Some((at, cached)) = self.cache.lock().unwrap_or_else(|p| p.into_inner()).clone()
            && at.elapsed() < self.config.ttl
        {
            return cached;
        }
        let fresh = self.fetch().await;
        *self.cache.lock().unwrap_or_else(|p| p.into_inner()) = Some((Instant::now(), fresh.clone()));
        fresh
    }

    async fn fetch(&self) -> Vec<Announcement> {
        self.connected
            .get_or_init(|| async {
                for relay in &self.config.relays {
                    if let Err(e) = self.client.add_relay(relay.as_str()).await {
                        tracing::warn!(relay = %relay, error = %e, "discovery relay not usable");
                    }
                }
                self.client.connect().await;
            })
            .await;
        let filter = Filter::new().kind(Kind::Custom(PROVIDER_KIND)).limit(100);
        let events = match self.client.fetch_events(filter, self.config.timeout).await {
            Ok(events) => events,
            Err(e) => {
                tracing::warn!(error = %e, "provider discovery failed; no providers this time");
                return Vec::new();
            }
        };
        let now = Timestamp::now();
        let mut accepted = Vec::new();
        for event in events.into_iter() {
            match parse_announcement(&event, now) {
                Ok(a) => accepted.push(a),
                Err(reason) => tracing::info!(event = %event.id, %reason, "provider announcement ignored"),
            }
        }
        let accepted = newest_per_address(accepted);
        self.apply_reviews(accepted).await
    }

    async fn apply_reviews(&self, announcements: Vec<Announcement>) -> Vec<Announcement> {
        let reviewer = match self.config.reviewer.as_deref().map(PublicKey::parse) {
            Some(Ok(key)) => Some(key),
            Some(Err(e)) => {
                tracing::warn!(error = %e, "the configured reviewer key is not a valid public key");
                None
            }
            None => None,
        };
        let verdicts = match &reviewer {
            Some(key) => {
                let filter = Filter::new().kind(Kind::Custom(REVIEW_KIND)).author(*key).limit(500);
                match self.client.fetch_events(filter, self.config.timeout).await {
                    Ok(events) => review_verdicts(&events.into_iter().collect::<Vec<_>>(), key),
                    Err(e) => {
                        tracing::warn!(error = %e, "provider reviews could not be fetched");
                        HashMap::new()
                    }
                }
            }
            None => HashMap::new(),
        };
        announcements
            .into_iter()
            .filter(|a| match (verdicts.get(&a.pubkey), self.config.review_mode) {
                (Some(false), _) => {
                    tracing::info!(provider = %a.pubkey, "provider ignored: the reviewer labelled it negatively");
                    false
                }
                (Some(true), _) | (None, ReviewMode::Any) => true,
                (None, ReviewMode::ReviewedOnly) => {
                    tracing::info!(provider = %a.pubkey, "provider ignored: not reviewed, and only reviewed providers are allowed");
                    false
                }
            })
            .collect()
    }
}
