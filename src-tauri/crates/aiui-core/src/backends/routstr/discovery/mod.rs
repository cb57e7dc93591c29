//! Routstr provider discovery on Nostr: kind-38421 announcements, checked as the untrusted data they are.
//!
//! An announcement yields only endpoints to POST a paid chat request to, and the mints the provider takes. It
//! never changes a grant, a tool, the prompt or the ceiling. The rules (routstr.md §1, `announcement.rs`): the
//! right kind, a valid signature, at least one `u` tag, not dated far in the future, newest per (pubkey, first
//! d), and optionally a positive review from the owner's chosen reviewer. Every relay is asked in parallel
//! (`relay_query.rs`), and what each relay and each event came to is kept in a [`DiscoveryReport`].

mod announcement;
mod relay_query;
mod report;

use std::collections::HashSet;
use std::net::SocketAddr;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use async_wsocket::ConnectionMode;
use nostr_sdk::prelude::{Event, Filter, Kind, PublicKey, Timestamp, ToBech32};
use serde::Serialize;

pub use announcement::{
    Announcement, MAX_CONTENT_BYTES, Rejected, first_d, newest_per_address, parse_announcement, review_verdicts,
};
pub use report::{DiscoveryReport, EventReport, Refusal, RelayOutcome, RelayReport, ReviewerStatus, Verdict};

/// The announcement kind Routstr providers publish (addressable, one `d` tag).
pub const PROVIDER_KIND: u16 = 38421;
/// Review labels signed by a reviewer key.
pub const REVIEW_KIND: u16 = 38425;

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
    /// How long a relay that accepted the connection may take to send its end of events (EOSE).
    pub timeout: Duration,
    /// How long connecting to one relay may take; a refused connection costs less.
    pub connect_timeout: Duration,
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
/// How long connecting to a relay may take (over Tor a circuit takes a few seconds).
pub const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);
/// How long a result from which no relay answered is reused: long enough that a turn's steps do not each wait
/// on dead relays, short enough that a relay coming back is seen soon.
const FAILED_TTL: Duration = Duration::from_secs(30);

impl Default for DiscoveryConfig {
    fn default() -> Self {
        Self {
            relays: DEFAULT_RELAYS.iter().map(|r| (*r).to_owned()).collect(),
            socks_proxy: None,
            timeout: DISCOVERY_TIMEOUT,
            connect_timeout: CONNECT_TIMEOUT,
            ttl: Duration::from_secs(10 * 60),
            reviewer: None,
            review_mode: ReviewMode::ReviewedOnly,
        }
    }
}

/// What one discovery found: the announcements to probe, and the report of how they were found.
#[derive(Debug, Clone)]
pub struct Discovered {
    pub announcements: Vec<Announcement>,
    pub report: DiscoveryReport,
}

/// Discovery with its cached result. No connection outlives a discovery: each one opens its relays, reads, and
/// closes them.
pub struct Discovery {
    config: DiscoveryConfig,
    cache: Mutex<Option<(Instant, Discovered)>>,
    /// The latest report, with the probe's and the provider choice's refusals added, for the trusted settings.
    last_report: Mutex<Option<DiscoveryReport>>,
    /// One discovery at a time: concurrent turns share the result instead of each asking every relay.
    fetching: tokio::sync::Mutex<()>,
}

impl std::fmt::Debug for Discovery {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Discovery").field("relays", &self.config.relays).finish_non_exhaustive()
    }
}

/// Parses a reviewer key given as npub or hex.
pub fn parse_reviewer(key: &str) -> Result<PublicKey, String> {
    PublicKey::parse(key.trim()).map_err(|e| format!("`{}` is not an npub or a hex public key: {e}", key.trim()))
}

impl Discovery {
    pub fn new(config: DiscoveryConfig) -> Self {
        Self { config, cache: Mutex::new(None), last_report: Mutex::new(None), fetching: tokio::sync::Mutex::new(()) }
    }

    /// The usable provider announcements, from the cache when it is fresh. Finding nothing is an empty list.
    pub async fn providers(&self) -> Vec<Announcement> {
        self.discover().await.announcements
    }

    /// The usable announcements and the report of how they were found, from the cache when it is fresh.
    pub async fn discover(&self) -> Discovered {
        let _one_at_a_time = self.fetching.lock().await;
        if let Some(cached) = self.cached() {
            return cached;
        }
        let fresh = self.fetch().await;
        *self.cache.lock().unwrap_or_else(|p| p.into_inner()) = Some((Instant::now(), fresh.clone()));
        self.record(fresh.report.clone());
        fresh
    }

    fn cached(&self) -> Option<Discovered> {
        let cache = self.cache.lock().unwrap_or_else(|p| p.into_inner());
        let (at, cached) = cache.as_ref()?;
        let ttl = if cached.report.any_relay_answered() { self.config.ttl } else { self.config.ttl.min(FAILED_TTL) };
        (at.elapsed() < ttl).then(|| cached.clone())
    }

    /// Keeps a report that later stages completed, for [`Discovery::last_report`].
    pub fn record(&self, report: DiscoveryReport) {
        *self.last_report.lock().unwrap_or_else(|p| p.into_inner()) = Some(report);
    }

    /// The latest report, `None` before the first discovery.
    pub fn last_report(&self) -> Option<DiscoveryReport> {
        self.last_report.lock().unwrap_or_else(|p| p.into_inner()).clone()
    }

    async fn fetch(&self) -> Discovered {
        let reviewer = match self.config.reviewer.as_deref().filter(|k| !k.trim().is_empty()) {
            None => Err(ReviewerStatus::NotSet),
            Some(key) => parse_reviewer(key).map_err(|reason| {
                tracing::warn!(%reason, "the configured reviewer key is not usable");
                ReviewerStatus::Invalid { reason }
            }),
        };
        let mut filters = vec![Filter::new().kind(Kind::Custom(PROVIDER_KIND)).limit(100)];
        if let Ok(key) = &reviewer {
            filters.push(Filter::new().kind(Kind::Custom(REVIEW_KIND)).author(*key).limit(500));
        }
        let mode = match self.config.socks_proxy {
            Some(proxy) => ConnectionMode::proxy(proxy),
            None => ConnectionMode::direct(),
        };
        let answers =
            async_wsocket::futures_util::future::join_all(self.config.relays.iter().map(|relay| {
                relay_query::query(relay, &filters, &mode, self.config.connect_timeout, self.config.timeout)
            }))
            .await;

        let mut report = DiscoveryReport {
            relays: Vec::new(),
            events: Vec::new(),
            review_mode: self.config.review_mode,
            reviewer: match &reviewer {
                Ok(key) => ReviewerStatus::Set { npub: key.to_bech32().unwrap_or_else(|_| key.to_hex()) },
                Err(status) => status.clone(),
            },
            reviews: 0,
        };
        let mut seen = HashSet::new();
        let mut served: Vec<Event> = Vec::new();
        for answer in answers {
            report.relays.push(answer.report);
            served.extend(answer.events.into_iter().filter(|e| seen.insert(e.id)));
        }
        served.sort_by(|a, b| b.created_at.cmp(&a.created_at).then(a.id.cmp(&b.id)));

        let now = Timestamp::now();
        let mut valid = Vec::new();
        let mut reviews = Vec::new();
        for event in served {
            if event.kind.as_u16() == REVIEW_KIND {
                reviews.push(event);
                continue;
            }
            let entry = EventReport {
                id: event.id.to_hex(),
                pubkey: event.pubkey.to_hex(),
                kind: event.kind.as_u16(),
                d: first_d(&event),
                name: String::new(),
                created_at: event.created_at.as_secs(),
                verdict: Verdict::Used,
            };
            match parse_announcement(&event, now) {
                Ok(a) => {
                    report.events.push(EventReport { name: a.name.clone(), ..entry });
                    valid.push(a);
                }
                Err(rule) => {
                    tracing::info!(event = %entry.id, reason = %rule, "provider announcement refused");
                    report
                        .events
                        .push(EventReport { verdict: Verdict::Refused { why: Refusal::Invalid { rule } }, ..entry });
                }
            }
        }
        let (newest, replaced) = newest_per_address(valid);
        for (old, by) in replaced {
            refuse_event(&mut report, &old.event_id, Refusal::Replaced { by });
        }
        let verdicts = match &reviewer {
            Ok(key) => {
                report.reviews = reviews.iter().filter(|r| r.pubkey == *key).count();
                review_verdicts(&reviews, key)
            }
            Err(_) => Default::default(),
        };
        let mut announcements = Vec::new();
        for a in newest {
            match (verdicts.get(&a.pubkey), self.config.review_mode) {
                (Some(false), _) => refuse_event(&mut report, &a.event_id, Refusal::ReviewedNegatively),
                (None, ReviewMode::ReviewedOnly) => refuse_event(&mut report, &a.event_id, Refusal::Unreviewed),
                (Some(true), _) | (None, ReviewMode::Any) => announcements.push(a),
            }
        }
        Discovered { announcements, report }
    }
}

fn refuse_event(report: &mut DiscoveryReport, id: &str, why: Refusal) {
    if let Some(event) = report.events.iter_mut().find(|e| e.id == id) {
        tracing::info!(event = %id, reason = %why, "provider announcement not used");
        event.verdict = Verdict::Refused { why };
    }
}
