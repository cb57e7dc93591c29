//! The discovery report: what each relay did and what became of each event, for the owner to read.
//!
//! Discovery fills in the relays and the announcement rules; the probe and the provider choice add their own
//! refusals. Shown short by `aiui-cli providers`, the trusted settings and the no-backend message, in full with
//! `--verbose`.

use std::fmt;

use serde::Serialize;

use super::announcement::{MAX_CONTENT_BYTES, Rejected};
use super::{PROVIDER_KIND, ReviewMode};
use crate::i18n::{self, FluentValue, Locale};

fn t(locale: Locale, key: &str, args: &[(&str, FluentValue<'_>)]) -> String {
    i18n::text(locale, key, args)
}

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

impl RelayOutcome {
    pub fn text(&self, locale: Locale) -> String {
        match self {
            Self::Answered => t(locale, "discovery-relay-answered", &[]),
            Self::Refused { reason } => t(locale, "discovery-relay-refused", &[("reason", reason.as_str().into())]),
            Self::TimedOut { after_secs } => t(locale, "discovery-relay-timed-out", &[("secs", (*after_secs).into())]),
            Self::Closed { reason } => t(locale, "discovery-relay-closed", &[("reason", reason.as_str().into())]),
            Self::Dropped { reason } => t(locale, "discovery-relay-dropped", &[("reason", reason.as_str().into())]),
        }
    }
}

impl fmt::Display for RelayOutcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text(Locale::En))
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

impl Refusal {
    pub fn text(&self, locale: Locale) -> String {
        match self {
            Self::Invalid { rule } => rule_text(rule, locale),
            Self::Replaced { by } => t(locale, "discovery-why-replaced", &[("by", short(by).into())]),
            Self::Unreviewed => t(locale, "discovery-why-unreviewed", &[]),
            Self::ReviewedNegatively => t(locale, "discovery-why-negative", &[]),
            Self::BadEndpoint { reason } => {
                t(locale, "discovery-why-bad-endpoint", &[("reason", reason.as_str().into())])
            }
            Self::ProbeFailed { reason } => {
                t(locale, "discovery-why-probe-failed", &[("reason", reason.as_str().into())])
            }
            Self::BrokePrice { minutes } => t(locale, "discovery-why-broke-price", &[("minutes", (*minutes).into())]),
            Self::NoModel { model } => t(locale, "discovery-why-no-model", &[("model", model.as_str().into())]),
            Self::NoCommonMint => t(locale, "discovery-why-no-common-mint", &[]),
            Self::Unaffordable { price_sats, remaining_sats } => t(
                locale,
                "discovery-why-unaffordable",
                &[("price", (*price_sats).into()), ("remaining", (*remaining_sats).into())],
            ),
        }
    }

    /// The catalogue's few words for counting refusals in the short report.
    fn kind(&self) -> &'static str {
        match self {
            Self::Invalid { rule: Rejected::WrongKind(_) } => "discovery-kind-wrong-kind",
            Self::Invalid { rule: Rejected::FutureDated(_) } => "discovery-kind-future",
            Self::Invalid { rule: Rejected::BadSignature } => "discovery-kind-bad-signature",
            Self::Invalid { .. } => "discovery-kind-malformed",
            Self::Replaced { .. } => "discovery-kind-replaced",
            Self::Unreviewed => "discovery-kind-unreviewed",
            Self::ReviewedNegatively => "discovery-kind-negative",
            Self::BadEndpoint { .. } => "discovery-kind-bad-endpoint",
            Self::ProbeFailed { .. } => "discovery-kind-no-answer",
            Self::BrokePrice { .. } => "discovery-kind-broke-price",
            Self::NoModel { .. } => "discovery-kind-no-model",
            Self::NoCommonMint => "discovery-kind-no-common-mint",
            Self::Unaffordable { .. } => "discovery-kind-unaffordable",
        }
    }
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text(Locale::En))
    }
}

/// A broken announcement rule, as the owner reads it (the `Rejected` error's own words are for the log).
fn rule_text(rule: &Rejected, locale: Locale) -> String {
    match rule {
        Rejected::WrongKind(kind) => {
            t(locale, "discovery-rule-wrong-kind", &[("kind", (*kind).into()), ("expected", PROVIDER_KIND.into())])
        }
        Rejected::BadSignature => t(locale, "discovery-rule-bad-signature", &[]),
        Rejected::NoEndpoint => t(locale, "discovery-rule-no-endpoint", &[]),
        Rejected::FutureDated(secs) => t(locale, "discovery-rule-future-dated", &[("secs", (*secs).into())]),
        Rejected::Oversized(bytes) => {
            t(locale, "discovery-rule-oversized", &[("bytes", (*bytes).into()), ("cap", MAX_CONTENT_BYTES.into())])
        }
        Rejected::NoIdentifier => t(locale, "discovery-rule-no-identifier", &[]),
        Rejected::BadEndpoints => t(locale, "discovery-rule-bad-endpoints", &[]),
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
    pub fn review_hint(&self, locale: Locale) -> Option<String> {
        let unreviewed = self.refused_count(|r| *r == Refusal::Unreviewed);
        if unreviewed == 0 || self.used().next().is_some() {
            return None;
        }
        let who = match &self.reviewer {
            ReviewerStatus::NotSet => t(locale, "discovery-hint-who-none", &[]),
            ReviewerStatus::Invalid { reason } => {
                t(locale, "discovery-hint-who-invalid", &[("reason", reason.as_str().into())])
            }
            ReviewerStatus::Set { npub } => t(locale, "discovery-hint-who-set", &[("npub", short(npub).into())]),
        };
        Some(t(locale, "discovery-hint", &[("who", who.into()), ("count", unreviewed.into())]))
    }

    /// One sentence on why nothing is usable, in English: [`DiscoveryReport::why_none_in`] for the logs.
    pub fn why_none(&self) -> String {
        self.why_none_in(Locale::En)
    }

    /// One sentence on why nothing is usable, in `locale`: for the no-backend message the owner reads.
    pub fn why_none_in(&self, locale: Locale) -> String {
        let mut parts: Vec<String> =
            self.relays.iter().filter(|r| r.outcome != RelayOutcome::Answered).map(|r| relay_line(r, locale)).collect();
        if self.events.is_empty() {
            if self.any_relay_answered() {
                parts.push(t(locale, "discovery-none-found", &[]));
            } else {
                parts.push(t(locale, "discovery-none-no-relay", &[]));
            }
        } else {
            parts.push(self.event_counts(locale));
            // The reasons themselves, for the few that are not merely an older copy.
            let refused = self.events.iter().filter_map(|e| match &e.verdict {
                Verdict::Refused { why: Refusal::Replaced { .. } } | Verdict::Used => None,
                Verdict::Refused { why } => Some(t(
                    locale,
                    "discovery-none-refused",
                    &[("who", who(e, locale).into()), ("why", why.text(locale).into())],
                )),
            });
            parts.extend(refused.take(3));
        }
        let reasons = parts.join(&t(locale, "discovery-none-separator", &[]));
        match self.review_hint(locale) {
            Some(hint) => t(locale, "discovery-none-with-hint", &[("reasons", reasons.into()), ("hint", hint.into())]),
            None => reasons,
        }
    }

    /// "3 events found: 1 used, 2 refused (1 unreviewed, 1 dated in the future)".
    pub fn event_counts(&self, locale: Locale) -> String {
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
        let events = t(locale, "discovery-events", &[("count", self.events.len().into()), ("used", used.into())]);
        if refused == 0 {
            return events;
        }
        let list: Vec<String> = kinds
            .iter()
            .map(|(k, n)| t(locale, "discovery-count", &[("n", (*n).into()), ("kind", t(locale, k, &[]).into())]))
            .collect();
        let kinds = list.join(&t(locale, "discovery-separator", &[]));
        t(
            locale,
            "discovery-events-refused",
            &[("events", events.into()), ("refused", refused.into()), ("kinds", kinds.into())],
        )
    }

    /// The report as lines of text in `locale`: per relay, the counts, and with `verbose` one line per event and
    /// notice.
    pub fn lines(&self, verbose: bool, locale: Locale) -> Vec<String> {
        let mut lines: Vec<String> = self
            .relays
            .iter()
            .map(|r| t(locale, "discovery-relay", &[("line", relay_line(r, locale).into())]))
            .collect();
        if verbose {
            for relay in &self.relays {
                for notice in &relay.notices {
                    let args = [("url", relay.url.as_str().into()), ("notice", notice.as_str().into())];
                    lines.push(t(locale, "discovery-relay-notice", &args));
                }
            }
        }
        lines.push(self.event_counts(locale));
        for event in &self.events {
            let show = verbose || !matches!(&event.verdict, Verdict::Refused { why: Refusal::Replaced { .. } });
            if !show {
                continue;
            }
            let what = match &event.verdict {
                Verdict::Used => t(locale, "discovery-used", &[]),
                Verdict::Refused { why } => t(locale, "discovery-refused", &[("why", why.text(locale).into())]),
            };
            let named = !event.name.is_empty();
            let mut args: Vec<(&str, FluentValue<'_>)> =
                vec![("what", what.into()), ("name", event.name.as_str().into())];
            let key = if verbose {
                let d = event.d.as_deref().map(|d| format!(" d={d}")).unwrap_or_default();
                args.extend([
                    ("id", event.id.as_str().into()),
                    ("kind", event.kind.into()),
                    ("pubkey", event.pubkey.as_str().into()),
                    ("d", d.into()),
                    ("at", event.created_at.to_string().into()),
                ]);
                if named { "discovery-event-verbose-named" } else { "discovery-event-verbose" }
            } else {
                args.extend([("id", short(&event.id).into()), ("key", short(&event.pubkey).into())]);
                if named { "discovery-event-named" } else { "discovery-event" }
            };
            lines.push(t(locale, key, &args));
        }
        match &self.reviewer {
            ReviewerStatus::Set { npub } => lines.push(t(
                locale,
                "discovery-reviewer",
                &[("npub", npub.as_str().into()), ("reviews", self.reviews.into())],
            )),
            ReviewerStatus::Invalid { reason } => {
                lines.push(t(locale, "discovery-reviewer-unusable", &[("reason", reason.as_str().into())]))
            }
            ReviewerStatus::NotSet if self.review_mode == ReviewMode::ReviewedOnly => {
                lines.push(t(locale, "discovery-reviewer-none", &[]))
            }
            ReviewerStatus::NotSet => {}
        }
        if let Some(hint) = self.review_hint(locale) {
            lines.push(hint);
        }
        lines
    }
}

impl fmt::Display for DiscoveryReport {
    /// The short report, one item per line, in English (the logs', and the CLI's).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.lines(false, Locale::En).join("\n"))
    }
}

fn relay_line(relay: &RelayReport, locale: Locale) -> String {
    let mut args: Vec<(&str, FluentValue<'_>)> = vec![
        ("url", relay.url.as_str().into()),
        ("outcome", relay.outcome.text(locale).into()),
        ("ms", relay.millis.into()),
    ];
    match relay.notices.first() {
        Some(notice) if relay.outcome != RelayOutcome::Answered => {
            args.push(("notice", notice.as_str().into()));
            t(locale, "discovery-relay-line-said", &args)
        }
        _ => t(locale, "discovery-relay-line", &args),
    }
}

/// An event as the owner can tell it apart: its announced name, or the start of its key.
fn who(event: &EventReport, locale: Locale) -> String {
    if event.name.is_empty() {
        t(locale, "discovery-none-who-key", &[("key", short(&event.pubkey).into())])
    } else {
        t(locale, "discovery-none-who-named", &[("name", event.name.as_str().into())])
    }
}

fn short(id: &str) -> String {
    id.chars().take(12).collect()
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;

    fn relay(url: &str, outcome: RelayOutcome, notices: &[&str]) -> RelayReport {
        RelayReport {
            url: url.into(),
            outcome,
            millis: 12,
            events: 1,
            notices: notices.iter().map(|n| (*n).into()).collect(),
        }
    }

    fn event(n: u8, name: &str, verdict: Verdict) -> EventReport {
        EventReport {
            id: format!("{n:02}eeeeeeeeeeeeeeeeeee"),
            pubkey: format!("{n:02}kkkkkkkkkkkkkkkkkkk"),
            kind: 38421,
            d: Some("main".into()),
            name: name.into(),
            created_at: 1_700_000_000,
            verdict,
        }
    }

    /// Every relay outcome and every refusal, one announcement used; and one where only unreviewed ones were found.
    fn reports() -> [DiscoveryReport; 2] {
        let refused = |why| Verdict::Refused { why };
        let every = DiscoveryReport {
            relays: vec![
                relay("wss://a.example", RelayOutcome::Answered, &[]),
                relay(
                    "wss://b.example",
                    RelayOutcome::Closed { reason: "auth-required: AUTH".into() },
                    &["AUTH first"],
                ),
                relay("wss://c.example", RelayOutcome::Refused { reason: "ECONNREFUSED".into() }, &[]),
                relay("wss://d.example", RelayOutcome::TimedOut { after_secs: 1 }, &[]),
                relay("wss://e.example", RelayOutcome::Dropped { reason: "ECONNRESET".into() }, &[]),
            ],
            events: vec![
                event(1, "Provider One", Verdict::Used),
                event(2, "", refused(Refusal::Invalid { rule: Rejected::WrongKind(1) })),
                event(3, "", refused(Refusal::Invalid { rule: Rejected::FutureDated(3600) })),
                event(4, "", refused(Refusal::Invalid { rule: Rejected::BadSignature })),
                event(5, "", refused(Refusal::Invalid { rule: Rejected::NoEndpoint })),
                event(6, "", refused(Refusal::Invalid { rule: Rejected::Oversized(70_000) })),
                event(7, "", refused(Refusal::Invalid { rule: Rejected::NoIdentifier })),
                event(8, "", refused(Refusal::Invalid { rule: Rejected::BadEndpoints })),
                event(9, "Provider One", refused(Refusal::Replaced { by: "01eeeeeeeeeeeeeeeeeee".into() })),
                event(10, "", refused(Refusal::Unreviewed)),
                event(11, "", refused(Refusal::ReviewedNegatively)),
                event(12, "", refused(Refusal::BadEndpoint { reason: "ENOTFOUND".into() })),
                event(13, "", refused(Refusal::ProbeFailed { reason: "HTTP 502".into() })),
                event(14, "", refused(Refusal::BrokePrice { minutes: 1 })),
                event(15, "", refused(Refusal::BrokePrice { minutes: 15 })),
                event(16, "", refused(Refusal::NoModel { model: "gpt-x".into() })),
                event(17, "", refused(Refusal::NoCommonMint)),
                event(18, "", refused(Refusal::Unaffordable { price_sats: 30, remaining_sats: 5 })),
            ],
            review_mode: ReviewMode::ReviewedOnly,
            reviewer: ReviewerStatus::Set { npub: "npub1reviewerxxxxxxxxxxx".into() },
            reviews: 2,
        };
        let unreviewed = DiscoveryReport {
            relays: vec![relay("wss://a.example", RelayOutcome::Answered, &[])],
            events: vec![event(1, "", refused(Refusal::Unreviewed)), event(2, "", refused(Refusal::Unreviewed))],
            review_mode: ReviewMode::ReviewedOnly,
            reviewer: ReviewerStatus::NotSet,
            reviews: 0,
        };
        [every, unreviewed]
    }

    fn words(text: &str) -> BTreeSet<&str> {
        text.split(|c: char| !c.is_ascii_alphabetic()).filter(|w| w.len() >= 4).collect()
    }

    #[test]
    fn the_report_reads_as_before_in_english() {
        let [every, unreviewed] = reports();
        let lines = every.lines(false, Locale::En);
        assert_eq!(lines[0], "relay wss://a.example: answered (EOSE) (12 ms)");
        assert_eq!(
            lines[1],
            "relay wss://b.example: closed the subscription: \"auth-required: AUTH\" (12 ms) (it said: AUTH first)"
        );
        assert_eq!(
            lines[3],
            "relay wss://d.example: connected, then sent no end-of-events within 1 s (timed out) (12 ms)"
        );
        assert_eq!(
            lines[5],
            "18 events found: 1 used, 17 refused (1 wrong kind, 1 dated in the future, 1 bad signature, 4 malformed, \
             1 replaced by a newer one, 1 unreviewed, 1 labelled negatively, 1 bad endpoint, 1 did not answer, 2 broke \
             its price, 1 no such model, 1 no common mint, 1 unaffordable)"
        );
        assert_eq!(lines[6], "  \"Provider One\" (event 01eeeeeeeeee, key 01kkkkkkkkkk): used");
        assert_eq!(
            lines[7],
            "  (event 02eeeeeeeeee, key 02kkkkkkkkkk): refused: it is kind 1, not a provider announcement (kind 38421)"
        );
        assert!(lines.iter().all(|l| !l.contains("09eeeeeeeeee")), "the short report leaves out replaced copies");
        assert!(lines.contains(&"  (event 14eeeeeeeeee, key 14kkkkkkkkkk): refused: it asked for more than its advertised price allows, so it is skipped for 1 more minute".to_owned()));
        assert_eq!(lines.last().unwrap(), "reviewer npub1reviewerxxxxxxxxxxx: 2 review(s) read");
        let hint = unreviewed.lines(false, Locale::En).pop().unwrap();
        assert_eq!(
            hint,
            "Only reviewed providers are allowed, and no reviewer key is set, so 2 providers found on Nostr were not \
             used. Set a reviewer key (npub or hex) in the trusted settings under \"Routstr providers\" (aiui-cli: \
             --reviewer), or allow unreviewed providers by unticking \"Reviewed providers only\" (aiui-cli: \
             --any-provider)."
        );
        assert_eq!(every.to_string(), lines.join("\n"), "the log's and the CLI's report is the English one");
        let verbose = every.lines(true, Locale::En);
        assert!(verbose.contains(&"  wss://b.example said: AUTH first".to_owned()), "{verbose:#?}");
        assert!(verbose.contains(&"  event 01eeeeeeeeeeeeeeeeeee kind 38421 by 01kkkkkkkkkkkkkkkkkkk d=main at 1700000000: \"Provider One\" used".to_owned()), "{verbose:#?}");
    }

    #[test]
    fn every_line_of_the_report_is_translated_and_passes_the_pseudo_locale() {
        // The relays', the events' and the reviewer's own words, the CLI's flags, and the loanwords Spanish keeps
        // (sats, mint, bytes, http).
        let data = words(
            "wss example auth required AUTH first ECONNREFUSED ECONNRESET ENOTFOUND HTTP Provider eeeeeeeeee \
             kkkkkkkkkk eeeeeeeeeeeeeeeeeee kkkkkkkkkkkkkkkkkkk main npub reviewerxxxxxxxxxxx EOSE Nostr Routstr aiui \
             reviewer provider gpt sats mint mints bytes http",
        );
        let mut problems = Vec::new();
        for report in reports() {
            for verbose in [false, true] {
                let en = report.lines(verbose, Locale::En);
                for locale in [Locale::De, Locale::Es, Locale::Pseudo] {
                    let theirs = report.lines(verbose, locale);
                    assert_eq!(theirs.len(), en.len());
                    for (mine, english) in theirs.iter().zip(&en) {
                        let kept: Vec<_> =
                            words(mine).intersection(&words(english)).filter(|w| !data.contains(*w)).copied().collect();
                        if !kept.is_empty() {
                            problems.push(format!("{locale}: {kept:?} in {mine:?}"));
                        }
                    }
                }
            }
        }
        assert!(problems.is_empty(), "{}", problems.join("\n"));
    }

    #[test]
    fn why_none_reads_as_before_in_english_and_in_the_owners_language_otherwise() {
        let [every, unreviewed] = reports();
        let english = every.why_none();
        assert!(english.starts_with(
            "wss://b.example: closed the subscription: \"auth-required: AUTH\" (12 ms) (it said: AUTH first); "
        ));
        assert!(
            english.contains("; key 02kkkkkkkkkk: it is kind 1, not a provider announcement (kind 38421); "),
            "{english}"
        );
        assert_eq!(english, every.why_none_in(Locale::En));
        let german = every.why_none_in(Locale::De);
        assert!(german.contains("; Schlüssel 02kkkkkkkkkk: "), "{german}");
        assert!(!german.contains("closed the subscription") && !german.contains("key 02"), "{german}");
        let hint = unreviewed.why_none_in(Locale::Es);
        assert!(hint.contains(". Solo se permiten proveedores revisados, y "), "{hint}");
        assert!(!hint.contains("events found") && !hint.contains("Only reviewed"), "{hint}");
        let nothing = DiscoveryReport { events: Vec::new(), ..unreviewed };
        assert_eq!(nothing.why_none(), "no provider announcement was found");
        assert_eq!(nothing.why_none_in(Locale::De), "es wurde keine Anbieter-Ankündigung gefunden");
        let pseudo = every.why_none_in(Locale::Pseudo);
        let english_words = words(&english);
        let data = words("wss example auth required AUTH first ECONNREFUSED ECONNRESET kkkkkkkkkk Provider");
        let kept: Vec<_> =
            words(&pseudo).intersection(&english_words).filter(|w| !data.contains(*w)).copied().collect();
        assert!(kept.is_empty(), "{kept:?} in {pseudo}");
    }
}
