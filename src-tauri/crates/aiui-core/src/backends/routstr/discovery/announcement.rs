//! The rules one announcement or review event must pass (routstr.md §1), as pure functions over signed events.

use std::collections::HashMap;
use std::time::Duration;

use nostr_sdk::prelude::{Event, PublicKey, Timestamp};
use serde::Serialize;
use url::Url;

use super::{PROVIDER_KIND, REVIEW_KIND};

/// Events dated further ahead than this are dropped (clock skew is allowed, time travel is not).
const MAX_FUTURE_SKEW: Duration = Duration::from_secs(15 * 60);
/// The largest announcement content we read; real ones are a name and a sentence.
pub const MAX_CONTENT_BYTES: usize = 64 * 1024;

const POSITIVE_LABELS: &[&str] = &["trusted", "verified", "lgtm", "lgtm2"];
const NEGATIVE_LABELS: &[&str] = &["suspicious", "avoid", "blacklisted", "removed"];

/// A provider as its announcement describes it. Nothing here is trusted beyond "where to POST".
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Announcement {
    /// The event's id (hex), so the discovery report can say what became of it.
    pub event_id: String,
    pub pubkey: String,
    /// The first `d` tag: the one relays key addressable events by.
    pub d: String,
    pub name: String,
    pub about: String,
    /// Clearnet endpoints first, then onion ones, as announced.
    pub endpoints: Vec<Url>,
    pub mints: Vec<String>,
    pub version: Option<String>,
    pub created_at: u64,
}

/// Why an event is not a usable announcement. Reported with the event id, never acted on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, thiserror::Error)]
#[serde(tag = "reason", content = "detail", rename_all = "kebab-case")]
pub enum Rejected {
    #[error("it is kind {0}, not a provider announcement (kind {PROVIDER_KIND})")]
    WrongKind(u16),
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

/// The first `d` tag's value: relays key addressable events by it (routstr.md §1), so discovery does too.
pub fn first_d(event: &Event) -> Option<String> {
    event.tags.iter().find_map(|tag| match tag.as_slice() {
        [name, value, ..] if name == "d" => Some(value.clone()),
        _ => None,
    })
}

/// Checks one event against the rules, returning the announcement or why it was refused. The kind is checked
/// first: a relay may serve events that do not match the filter, and a `d`/`u`-tagged note of another kind signed
/// by a reviewed key must not pass for that key's announcement.
pub fn parse_announcement(event: &Event, now: Timestamp) -> Result<Announcement, Rejected> {
    if event.kind.as_u16() != PROVIDER_KIND {
        return Err(Rejected::WrongKind(event.kind.as_u16()));
    }
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
    let d = first_d(event).ok_or(Rejected::NoIdentifier)?;
    let mut raw_endpoints = Vec::new();
    let mut mints = Vec::new();
    let mut version = None;
    for tag in event.tags.iter() {
        match tag.as_slice() {
            [name, value, ..] if name == "u" => raw_endpoints.push(value.clone()),
            [name, value, ..] if name == "mint" => mints.push(value.clone()),
            [name, value, ..] if name == "version" && version.is_none() => version = Some(value.clone()),
            _ => {}
        }
    }
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
        event_id: event.id.to_hex(),
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

/// Splits announcements into the newest per (pubkey, first d) and the ones they replace (with the replacing id).
/// Ties on the date keep the lowest event id, the rule relays apply (NIP-01), so every client agrees.
pub fn newest_per_address(announcements: Vec<Announcement>) -> (Vec<Announcement>, Vec<(Announcement, String)>) {
    let mut newest: HashMap<(String, String), Announcement> = HashMap::new();
    let mut replaced = Vec::new();
    for a in announcements {
        let key = (a.pubkey.clone(), a.d.clone());
        match newest.remove(&key) {
            Some(existing) if !supersedes(&a, &existing) => {
                let by = existing.event_id.clone();
                newest.insert(key, existing);
                replaced.push((a, by));
            }
            Some(existing) => {
                replaced.push((existing, a.event_id.clone()));
                newest.insert(key, a);
            }
            None => {
                newest.insert(key, a);
            }
        }
    }
    let mut list: Vec<Announcement> = newest.into_values().collect();
    list.sort_by(|a, b| (&a.pubkey, &a.d).cmp(&(&b.pubkey, &b.d)));
    (list, replaced)
}

fn supersedes(a: &Announcement, b: &Announcement) -> bool {
    a.created_at > b.created_at || (a.created_at == b.created_at && a.event_id < b.event_id)
}

/// The reviewer's verdict per provider pubkey: the newest review wins. Only kind-38425 events signed by the
/// reviewer count, whatever their `d` tag (relays disagree on keeping reviews without one).
pub fn review_verdicts(reviews: &[Event], reviewer: &PublicKey) -> HashMap<String, bool> {
    let mut newest: HashMap<String, (u64, bool)> = HashMap::new();
    let valid = |r: &&Event| r.kind.as_u16() == REVIEW_KIND && r.pubkey == *reviewer && r.verify().is_ok();
    for review in reviews.iter().filter(valid) {
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

#[cfg(test)]
mod tests {
    use nostr_sdk::prelude::{EventBuilder, Keys, Kind, Tag};

    use super::*;

    fn event(keys: &Keys, kind: u16, tags: &[&[&str]], at: u64) -> Event {
        EventBuilder::new(Kind::Custom(kind), "\"{}\"")
            .tags(tags.iter().map(|t| Tag::parse(t.iter().copied()).unwrap()))
            .custom_created_at(Timestamp::from(at))
            .sign_with_keys(keys)
            .unwrap()
    }

    #[test]
    fn another_kind_with_announcement_tags_is_refused_before_anything_else() {
        let keys = Keys::generate();
        let note = event(&keys, 1, &[&["d", "x"], &["u", "https://a.example/"]], 1000);
        assert_eq!(parse_announcement(&note, Timestamp::from(1000)), Err(Rejected::WrongKind(1)));
    }

    #[test]
    fn the_first_d_tag_is_the_address_and_the_newer_event_replaces_the_older() {
        let keys = Keys::generate();
        let two = event(&keys, 38421, &[&["d", "p1"], &["d", "p2"], &["u", "https://old.example/"]], 100);
        let one = event(&keys, 38421, &[&["d", "p1"], &["u", "https://new.example/"]], 200);
        let now = Timestamp::from(300);
        let parsed: Vec<Announcement> = [&two, &one].iter().map(|e| parse_announcement(e, now).unwrap()).collect();
        assert_eq!(parsed[0].d, "p1");
        let (kept, replaced) = newest_per_address(parsed);
        assert_eq!(kept.iter().map(|a| a.event_id.clone()).collect::<Vec<_>>(), [one.id.to_hex()]);
        assert_eq!(replaced.len(), 1);
        assert_eq!((replaced[0].0.event_id.clone(), replaced[0].1.clone()), (two.id.to_hex(), one.id.to_hex()));
    }

    #[test]
    fn a_tie_on_the_date_keeps_the_lowest_id_whatever_the_order() {
        let keys = Keys::generate();
        let a = event(&keys, 38421, &[&["d", "x"], &["u", "https://a.example/"]], 100);
        let b = event(&keys, 38421, &[&["d", "x"], &["u", "https://b.example/"]], 100);
        let now = Timestamp::from(100);
        let lowest = a.id.min(b.id).to_hex();
        for order in [[&a, &b], [&b, &a]] {
            let parsed = order.iter().map(|e| parse_announcement(e, now).unwrap()).collect();
            assert_eq!(newest_per_address(parsed).0[0].event_id, lowest);
        }
    }

    #[test]
    fn only_the_reviewers_own_reviews_of_the_review_kind_count() {
        let (reviewer, other, provider) = (Keys::generate(), Keys::generate(), Keys::generate());
        let node = provider.public_key().to_hex();
        let good = event(&reviewer, 38425, &[&["node", &node], &["t", "trusted"]], 100);
        let wrong_kind = event(&reviewer, 1, &[&["node", &node], &["t", "avoid"]], 200);
        let stranger = event(&other, 38425, &[&["node", &node], &["t", "avoid"]], 300);
        let verdicts = review_verdicts(&[good, wrong_kind, stranger], &reviewer.public_key());
        assert_eq!(verdicts.get(&node), Some(&true));
    }
}
