//! Screening a request that re-sends earlier turns: each element of the body's top-level arrays (a message, a
//! tool's schema) is remembered whole with what the screen made of it, so a turn screens only what is new.

use std::collections::HashMap;
use std::hash::{BuildHasher, Hasher};

use serde_json::Value;

use super::{Blocked, MemoHasher, Origin, Origins, Report, Screen, Screened, Walk, push_index, push_key};

/// The elements one conversation's screen sent in its latest request, with what it made of each. An element
/// is found again only by its exact content (and the array it is in), so a message whose text changed by one
/// byte is screened again. One request's worth is kept: the window moves on, and what left it is forgotten.
/// Bounded by [`Remembered::LIMIT`] besides: past it, further elements are screened but not remembered.
#[derive(Default)]
pub(super) struct Remembered {
    by_digest: HashMap<u64, Vec<Element>>,
    /// Keyed afresh for each screen, so nobody who writes a tool result can aim at another element's digest; and a
    /// digest only finds candidates, which are compared whole. The memories' hash, as for texts: SipHash over the
    /// window's elements was nearly half of a turn's screening of them.
    hasher: MemoHasher,
    bytes: usize,
    /// Counts the requests screened; an element not sent in the latest one is forgotten.
    request: u64,
    /// How many elements were put back rather than screened, for the tests.
    hits: u64,
}

struct Element {
    /// The top-level array the element is in (`messages`, `tools`): its strings' origins depend on it.
    array: Box<str>,
    original: Value,
    /// What was sent for it, when that differs from `original`.
    screened: Option<Value>,
    report: Report,
    bytes: usize,
    sent_in: u64,
}

impl Remembered {
    /// Several windows of a long conversation with large tool results.
    pub(super) const LIMIT: usize = 8 << 20;

    /// The bytes held, roughly: strings, keys and the values' own size.
    pub(super) fn bytes(&self) -> usize {
        self.bytes
    }

    #[cfg(test)]
    pub(super) fn hits(&self) -> u64 {
        self.hits
    }

    fn find(&self, array: &str, element: &Value, digest: u64) -> Option<usize> {
        let candidates = self.by_digest.get(&digest)?;
        candidates.iter().position(|e| *e.array == *array && e.original == *element)
    }

    fn insert(&mut self, array: &str, digest: u64, original: Value, sent: &Value, report: Report) {
        // The same element twice in one body (two owner messages that both say "ok") is kept once.
        if self.find(array, &original, digest).is_some() {
            return;
        }
        let screened = (*sent != original).then(|| sent.clone());
        let bytes = weight(&original) + screened.as_ref().map_or(0, weight);
        if self.bytes + bytes > Self::LIMIT {
            return;
        }
        self.bytes += bytes;
        let element = Element { array: array.into(), original, screened, report, bytes, sent_in: self.request };
        self.by_digest.entry(digest).or_default().push(element);
    }

    /// Forgets every element the latest request did not send.
    fn forget_unsent(&mut self) {
        let latest = self.request;
        let mut bytes = 0;
        self.by_digest.retain(|_, elements| {
            elements.retain(|e| e.sent_in == latest);
            bytes += elements.iter().map(|e| e.bytes).sum::<usize>();
            !elements.is_empty()
        });
        self.bytes = bytes;
    }

    fn digest(&self, array: &str, element: &Value) -> u64 {
        let mut hasher = self.hasher.build_hasher();
        hasher.write(array.as_bytes());
        feed(element, &mut hasher);
        hasher.finish()
    }
}

/// What the plan found for one top-level entry of the body.
enum Part {
    /// An array: each element found remembered, or to be screened with these origins.
    Elements(Vec<Planned>),
    /// Anything else, screened string by string with these origins.
    Whole(Vec<Origin>),
}

enum Planned {
    Remembered { digest: u64, slot: usize },
    New { digest: u64, origins: Vec<Origin> },
}

impl Screen {
    /// [`Screen::screen_body`] for a request body that re-sends earlier turns, with the same outcome byte for byte,
    /// screening only what this screen has not sent before. Each element of an array at the body's top level
    /// (`/messages/3`, `/tools/0`) that the previous request sent unchanged is put back as it was sent then, with
    /// its report; every other string is screened as `screen_body` screens it, in the same order.
    ///
    /// `origin_of` gets the body as built and a string's JSON pointer. For an element of a top-level array it
    /// must depend only on the array's name, the element's own content and the pointer within it, not on the
    /// element's index or its neighbours: a remembered element moves as the window moves. Every wire format's
    /// does, since it reads the message's role and block type.
    pub fn screen_request(
        &mut self,
        body: &mut Value,
        origin_of: &dyn Fn(&Value, &str) -> Origin,
    ) -> Result<Report, Blocked> {
        if !body.is_object() {
            let as_built = body.clone();
            return self.screen_body(body, &|pointer| origin_of(&as_built, pointer));
        }
        self.remembered.request += 1;
        let plan = self.plan(body, origin_of);
        let Value::Object(map) = body else { return Ok(Report::default()) };
        let mut report = Report::default();
        let mut blocked = Vec::new();
        // The same order as `screen_body`'s walk, so new addresses get the same numbers.
        for ((key, mut item), (part, key_origin)) in std::mem::take(map).into_iter().zip(plan) {
            match (part, &mut item) {
                (Part::Elements(planned), Value::Array(elements)) => {
                    for (element, planned) in elements.iter_mut().zip(planned) {
                        let (more, kinds) = self.element(&key, element, planned);
                        report.absorb(more);
                        blocked.extend(kinds);
                    }
                }
                (Part::Whole(origins), item) => {
                    let (more, kinds) = self.walk_listed(item, origins);
                    report.absorb(more);
                    blocked.extend(kinds);
                }
                // The plan read this very body, so an array was planned as one.
                (Part::Elements(_), item) => {
                    let (more, kinds) = self.walk_listed(item, Vec::new());
                    report.absorb(more);
                    blocked.extend(kinds);
                }
            }
            let key = match self.screen_text(&key, key_origin) {
                Screened::Clean { text, report: more } => {
                    report.absorb(more);
                    text
                }
                Screened::Blocked(b) => {
                    blocked.extend(b.kinds);
                    key
                }
            };
            map.insert(key, item);
        }
        self.remembered.forget_unsent();
        if blocked.is_empty() { Ok(report) } else { Err(Blocked::new(blocked)) }
    }

    /// Reads, before anything is rewritten, which elements are remembered and every other string's origin.
    fn plan(&self, body: &Value, origin_of: &dyn Fn(&Value, &str) -> Origin) -> Vec<(Part, Origin)> {
        let Value::Object(map) = body else { return Vec::new() };
        let mut path = String::new();
        map.iter()
            .map(|(key, item)| {
                push_key(&mut path, key);
                let part = match item {
                    Value::Array(elements) => Part::Elements(
                        elements
                            .iter()
                            .enumerate()
                            .map(|(i, element)| {
                                let digest = self.remembered.digest(key, element);
                                if let Some(slot) = self.remembered.find(key, element, digest) {
                                    return Planned::Remembered { digest, slot };
                                }
                                let len = path.len();
                                push_index(&mut path, i);
                                let mut origins = Vec::new();
                                origins_in(body, element, &mut path, origin_of, &mut origins);
                                path.truncate(len);
                                Planned::New { digest, origins }
                            })
                            .collect(),
                    ),
                    item => {
                        let mut origins = Vec::new();
                        origins_in(body, item, &mut path, origin_of, &mut origins);
                        Part::Whole(origins)
                    }
                };
                let key_origin = origin_of(body, &path);
                path.clear();
                (part, key_origin)
            })
            .collect()
    }

    /// Puts back a remembered element as it was sent, or screens a new one and remembers it unless it was
    /// blocked. Returns its report and the kinds that blocked it.
    fn element(&mut self, array: &str, element: &mut Value, planned: Planned) -> (Report, Vec<String>) {
        match planned {
            Planned::Remembered { digest, slot } => {
                let request = self.remembered.request;
                let Some(found) = self.remembered.by_digest.get_mut(&digest).and_then(|e| e.get_mut(slot)) else {
                    // Planned from this very table a moment ago; unreachable, and screening again is never wrong.
                    return self.walk_listed(element, Vec::new());
                };
                found.sent_in = request;
                self.remembered.hits += 1;
                // An element that went out as it came is in the body already (`find` compared it whole); only a
                // changed one is put back, rather than copying the whole window every turn.
                if let Some(screened) = &found.screened {
                    *element = screened.clone();
                }
                (found.report.clone(), Vec::new())
            }
            Planned::New { digest, origins } => {
                let original = element.clone();
                let (report, kinds) = self.walk_listed(element, origins);
                if kinds.is_empty() {
                    self.remembered.insert(array, digest, original, element, report.clone());
                }
                (report, kinds)
            }
        }
    }

    fn walk_listed(&mut self, value: &mut Value, origins: Vec<Origin>) -> (Report, Vec<String>) {
        let mut walk = Walk {
            screen: self,
            origins: Origins::Listed(origins.into_iter()),
            report: Report::default(),
            blocked: Vec::new(),
        };
        walk.value(value, &mut String::new());
        (walk.report, walk.blocked)
    }
}

/// Each string's origin in `value` (at `path` in `body`), in the order [`Walk::value`] visits them: an object's
/// value before its key.
pub(super) fn origins_in(
    body: &Value,
    value: &Value,
    path: &mut String,
    origin_of: &dyn Fn(&Value, &str) -> Origin,
    out: &mut Vec<Origin>,
) {
    match value {
        Value::String(_) => out.push(origin_of(body, path)),
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                let len = path.len();
                push_index(path, i);
                origins_in(body, item, path, origin_of, out);
                path.truncate(len);
            }
        }
        Value::Object(map) => {
            for (key, item) in map {
                let len = path.len();
                push_key(path, key);
                origins_in(body, item, path, origin_of, out);
                out.push(origin_of(body, path));
                path.truncate(len);
            }
        }
        Value::Null | Value::Bool(_) | Value::Number(_) => {}
    }
}

/// Feeds a value's whole content to `hasher`, each kind tagged so `["a"]` and `"a"` differ.
fn feed(value: &Value, hasher: &mut impl Hasher) {
    match value {
        Value::Null => hasher.write_u8(0),
        Value::Bool(b) => {
            hasher.write_u8(1);
            hasher.write_u8(u8::from(*b));
        }
        Value::Number(n) => {
            hasher.write_u8(2);
            match (n.as_u64(), n.as_i64()) {
                (Some(u), _) => hasher.write_u64(u),
                (None, Some(i)) => hasher.write_i64(i),
                (None, None) => hasher.write_u64(n.as_f64().map_or(0, f64::to_bits)),
            }
        }
        Value::String(s) => {
            hasher.write_u8(3);
            hasher.write_usize(s.len());
            hasher.write(s.as_bytes());
        }
        Value::Array(items) => {
            hasher.write_u8(4);
            hasher.write_usize(items.len());
            items.iter().for_each(|item| feed(item, hasher));
        }
        Value::Object(map) => {
            hasher.write_u8(5);
            hasher.write_usize(map.len());
            for (key, item) in map {
                hasher.write_usize(key.len());
                hasher.write(key.as_bytes());
                feed(item, hasher);
            }
        }
    }
}

/// Roughly the bytes a value holds: its strings and keys, and each node's own size.
fn weight(value: &Value) -> usize {
    const NODE: usize = std::mem::size_of::<Value>();
    NODE + match value {
        Value::Null | Value::Bool(_) | Value::Number(_) => 0,
        Value::String(s) => s.len(),
        Value::Array(items) => items.iter().map(weight).sum(),
        Value::Object(map) => map.iter().map(|(key, item)| NODE + key.len() + weight(item)).sum(),
    }
}
