//! The discovery report: what each relay did and what became of each event, for the owner to read.
//!
//! Discovery fills in the relays and the announcement rules; the probe and the provider choice add their own
//! refusals. Shown short by `aiui-cli providers`, the trusted settings and the no-backend message, in full with
//! `--verbose`.

use std::fmt;

use serde::Serialize;

use super::ReviewMode;
use super::announcement::Rejected;

/// What one relay did with discovery's REQ.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "outcome", rename_all = "kebab-case")]
pub enum RelayOutcome {
    /// It sent everything it had and said so (EOSE).
    Answered,
    /// No connection: refused, unresolvable, TLS, or the attempt timed out. Costs only the attempt.
    Refused { reason: String },
    /// It accepted the connection and then sent no EOSE within the subscription timeout.
    TimedOut { after_secs: u64 },
    /// It closed the subscription (`CLOSED`) with this reason, e.g. `auth-required: …`.
    Closed { reason: String },
    /// The connection ended before EOSE.
    Dropped { reason: String },
}

impl fmt::Display for RelayOutcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Answered => write!(f, "answered (EOSE)"),
            Self::Refused { reason } => write!(f, "could not connect: {reason}"),
            Self::TimedOut { after_secs } => {
                write!(f, "connected, then sent no end-of-events within {after_secs} s (timed out)")
            }
            Self::Closed { reason } => write!(f, "closed the subscription: \"{reason}\""),
            Self::Dropped { reason } => write!(f, "connected, then stopped before the end of events: {reason}"),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RelayReport {
    pub url: String,
    pub outcome: RelayOutcome,
    /// How long the relay took to reach its outcome.
    pub millis: u64,
    /// Events it served (before any check).
    pub events: usize,
    /// What the relay said in NOTICE messages, e.g. why it refused to answer.
    pub notices: Vec<String>,
}

/// Why a provider announcement is not used.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "refusal", rename_all = "kebab-case")]
pub enum Refusal {
    /// It broke a rule of routstr.md §1 (kind, signature, date, tags, size).
    Invalid { rule: Rejected },
    /// A newer announcement from the same key with the same first `d` replaces it.
    Replaced { by: String },
    /// Only reviewed providers are allowed, and the reviewer has not labelled this one positively.
    Unreviewed,
    /// The reviewer labelled it negatively.
    ReviewedNegatively,
    /// No endpoint passed the address guard (an unresolvable host, a loopback or private address, an onion
    /// address without Tor).
    BadEndpoint { reason: String },
    /// Its `/v1/info` or `/v1/models` did not answer or did not parse.
    ProbeFailed { reason: String },
    /// It asked for more than its advertised price allows, so it is skipped for a while.
    BrokePrice { minutes: u64 },
    /// It does not serve the model asked for (or lists no model with a sats price).
    NoModel { model: String },
    /// None of its mints is one the owner accepts.
    NoCommonMint,
    /// Its price for one request is more than what is left of the allowance.
    Unaffordable { price_sats: u64, remaining_sats: u64 },
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Invalid { rule } => write!(f, "{rule}"),
            Self::Replaced { by } => write!(f, "replaced by the newer announcement {}", short(by)),
            Self::Unreviewed => write!(f, "not reviewed, and only reviewed providers are allowed"),
            Self::ReviewedNegatively => write!(f, "the reviewer labelled it negatively"),
            Self::BadEndpoint { reason } => write!(f, "no usable endpoint: {reason}"),
            Self::ProbeFailed { reason } => write!(f, "it did not answer its probe: {reason}"),
            Self::BrokePrice { minutes } => write!(
                f,
                "it asked for more than its advertised price allows, so it is skipped for {minutes} more minute{}",
                if *minutes == 1 { "" } else { "s" }
            ),
            Self::NoModel { model } => write!(f, "it does not serve `{model}` with a sats price"),
            Self::NoCommonMint => write!(f, "none of its mints is one you accept"),
            Self::Unaffordable { price_sats, remaining_sats } => {
                write!(f, "a request costs up to {price_sats} sats and {remaining_sats} sats of the allowance remain")
            }
        }
    }
}

impl Refusal {
    /// A few words for counting refusals in the short report.
    fn kind(&self) -> &'static str {
        match self {
            Self::Invalid { rule: Rejected::WrongKind(_) } => "wrong kind",
            Self::Invalid { rule: Rejected::FutureDated(_) } => "dated in the future",
            Self::Invalid { rule: Rejected::BadSignature } => "bad signature",
            Self::Invalid { .. } => "malformed",
            Self::Replaced { .. } => "replaced by a newer one",
            Self::Unreviewed => "unreviewed",
            Self::ReviewedNegatively => "labelled negatively",
            Self::BadEndpoint { .. } => "bad endpoint",
            Self::ProbeFailed { .. } => "did not answer",
            Self::BrokePrice { .. } => "broke its price",
            Self::NoModel { .. } => "no such model",
            Self::NoCommonMint => "no common mint",
            Self::Unaffordable { .. } => "unaffordable",
        }
    }
}

/// Used, or refused and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "verdict", rename_all = "kebab-case")]
pub enum Verdict {
    Used,
    Refused { why: Refusal },
}

/// One event a relay served, other than the reviewer's reviews.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct EventReport {
    pub id: String,
    pub pubkey: String,
    pub kind: u16,
    /// The first `d` tag, if any.
    pub d: Option<String>,
    /// The announced name, for valid announcements.
    pub name: String,
    pub created_at: u64,
    pub verdict: Verdict,
}

/// The reviewer setting as discovery understood it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "reviewer", rename_all = "kebab-case")]
pub enum ReviewerStatus {
    NotSet,
    Invalid { reason: String },
    Set { npub: String },
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DiscoveryReport {
    pub relays: Vec<RelayReport>,
    pub events: Vec<EventReport>,
    pub review_mode: ReviewMode,
    pub reviewer: ReviewerStatus,
    /// Reviews by the reviewer that were read.
    pub reviews: usize,
}

impl DiscoveryReport {
    /// The events still used after every check so far.
    pub fn used(&self) -> impl Iterator<Item = &EventReport> {
        self.events.iter().filter(|e| e.verdict == Verdict::Used)
    }

    /// Marks the used announcement at (pubkey, d) as refused, by a later stage (probe, provider choice).
    pub fn refuse(&mut self, pubkey: &str, d: &str, why: Refusal) {
        for event in self.events.iter_mut().filter(|e| e.verdict == Verdict::Used) {
            if event.pubkey == pubkey && event.d.as_deref() == Some(d) {
                tracing::info!(event = %event.id, reason = %why, "provider not used");
                event.verdict = Verdict::Refused { why: why.clone() };
            }
        }
    }

    /// Whether at least one relay sent its end of events.
    pub fn any_relay_answered(&self) -> bool {
        self.relays.iter().any(|r| r.outcome == RelayOutcome::Answered)
    }

    fn refused_count(&self, pred: impl Fn(&Refusal) -> bool) -> usize {
        self.events.iter().filter(|e| matches!(&e.verdict, Verdict::Refused { why } if pred(why))).count()
    }

    /// What the owner can change when reviewed-only filtering is what left no provider; `None` otherwise.
    pub fn review_hint(&self) -> Option<String> {
        let unreviewed = self.refused_count(|r| *r == Refusal::Unreviewed);
        if unreviewed == 0 || self.used().next().is_some() {
            return None;
        }
        let who = match &self.reviewer {
            ReviewerStatus::NotSet => "no reviewer key is set".to_owned(),
            ReviewerStatus::Invalid { reason } => format!("the reviewer key is not a valid public key ({reason})"),
            ReviewerStatus::Set { npub } => format!("your reviewer {} has not labelled them", short(npub)),
        };
        Some(format!(
            "Only reviewed providers are allowed, and {who}, so {unreviewed} provider{} found on Nostr {} not used. \
             Set a reviewer key (npub or hex) in the trusted settings under \"Routstr providers\" (aiui-cli: \
             --reviewer), or allow unreviewed providers by unticking \"Reviewed providers only\" (aiui-cli: \
             --any-provider).",
            plural(unreviewed),
            if unreviewed == 1 { "was" } else { "were" },
        ))
    }

    /// One sentence on why nothing is usable: for the no-backend message.
    pub fn why_none(&self) -> String {
        let mut parts: Vec<String> =
            self.relays.iter().filter(|r| r.outcome != RelayOutcome::Answered).map(relay_line).collect();
        if self.events.is_empty() {
            if self.any_relay_answered() {
                parts.push("no provider announcement was found".into());
            } else {
                parts.push("no relay answered, so no provider could be found".into());
            }
        } else {
            parts.push(self.event_counts());
            // The reasons themselves, for the few that are not merely an older copy.
            let refused = self.events.iter().filter_map(|e| match &e.verdict {
                Verdict::Refused { why: Refusal::Replaced { .. } } | Verdict::Used => None,
                Verdict::Refused { why } => Some(format!("{}: {why}", who(e))),
            });
            parts.extend(refused.take(3));
        }
        let mut text = parts.join("; ");
        if let Some(hint) = self.review_hint() {
            text.push_str(". ");
            text.push_str(&hint);
        }
        text
    }

    /// "3 announcements: 1 used, 2 refused (1 unreviewed, 1 dated in the future)".
    pub fn event_counts(&self) -> String {
        let used = self.used().count();
        let mut kinds: Vec<(&'static str, usize)> = Vec::new();
        for event in &self.events {
            if let Verdict::Refused { why } = &event.verdict {
                match kinds.iter_mut().find(|(k, _)| *k == why.kind()) {
                    Some((_, n)) => *n += 1,
                    None => kinds.push((why.kind(), 1)),
                }
            }
        }
        let refused: usize = kinds.iter().map(|(_, n)| n).sum();
        let mut text = format!("{} event{} found: {used} used", self.events.len(), plural(self.events.len()));
        if refused > 0 {
            let list: Vec<String> = kinds.iter().map(|(k, n)| format!("{n} {k}")).collect();
            text.push_str(&format!(", {refused} refused ({})", list.join(", ")));
        }
        text
    }

    /// The report as lines of text: per relay, the counts, and with `verbose` one line per event and notice.
    pub fn lines(&self, verbose: bool) -> Vec<String> {
        let mut lines: Vec<String> = self.relays.iter().map(|r| format!("relay {}", relay_line(r))).collect();
        if verbose {
            for relay in &self.relays {
                for notice in &relay.notices {
                    lines.push(format!("  {} said: {notice}", relay.url));
                }
            }
        }
        lines.push(self.event_counts());
        for event in &self.events {
            let show = verbose || !matches!(&event.verdict, Verdict::Refused { why: Refusal::Replaced { .. } });
            if !show {
                continue;
            }
            let what = match &event.verdict {
                Verdict::Used => "used".to_owned(),
                Verdict::Refused { why } => format!("refused: {why}"),
            };
            let name = if event.name.is_empty() { String::new() } else { format!("\"{}\" ", event.name) };
            if verbose {
                let d = event.d.as_deref().map(|d| format!(" d={d}")).unwrap_or_default();
                lines.push(format!(
                    "  event {} kind {} by {}{d} at {}: {name}{what}",
                    event.id, event.kind, event.pubkey, event.created_at
                ));
            } else {
                lines.push(format!("  {name}(event {}, key {}): {what}", short(&event.id), short(&event.pubkey)));
            }
        }
        match &self.reviewer {
            ReviewerStatus::Set { npub } => lines.push(format!("reviewer {npub}: {} review(s) read", self.reviews)),
            ReviewerStatus::Invalid { reason } => lines.push(format!("the reviewer key is not usable: {reason}")),
            ReviewerStatus::NotSet if self.review_mode == ReviewMode::ReviewedOnly => {
                lines.push("no reviewer key is set, and only reviewed providers are allowed".into())
            }
            ReviewerStatus::NotSet => {}
        }
        if let Some(hint) = self.review_hint() {
            lines.push(hint);
        }
        lines
    }
}

impl fmt::Display for DiscoveryReport {
    /// The short report, one item per line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.lines(false).join("\n"))
    }
}

fn relay_line(relay: &RelayReport) -> String {
    let mut line = format!("{}: {} ({} ms)", relay.url, relay.outcome, relay.millis);
    if relay.outcome != RelayOutcome::Answered
        && let Some(notice) = relay.notices.first()
    {
        line.push_str(&format!(" (it said: {notice})"));
    }
    line
}

/// An event as the owner can tell it apart: its announced name, or the start of its key.
fn who(event: &EventReport) -> String {
    if event.name.is_empty() { format!("key {}", short(&event.pubkey)) } else { format!("\"{}\"", event.name) }
}

fn short(id: &str) -> String {
    id.chars().take(12).collect()
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}
