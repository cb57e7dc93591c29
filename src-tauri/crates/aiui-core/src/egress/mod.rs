//! The egress screen: what runs on the exact body of a cloud request before it leaves the machine.
//!
//! Two rules, from DESIGN.md ("Egress screen"):
//! - **G-B1, secrets never leave.** Every kind in the node's secrets inventory ([`inventory::INVENTORY`]: seeds
//!   in every list and language, private keys in every encoding, wallet connection strings, ecash, node
//!   credentials, config passwords, service keys), and the exact values the app knows ([`KnownSecret`]). In anything but the owner's own words they become
//!   `[redacted:<kind>]`; an owner message that holds one is not sent at all ([`Blocked`]).
//! - **G-B2, minimal identity.** Onion hostnames and LAN addresses become stable placeholders (`[onion-1]`,
//!   `[lan-ip-1]`, `[lan-host-1]`) for every origin. Public IPs, loopback and chain data stay as they are.
//!
//! Only cloud legs are screened; the local leg is not. The screen never logs a value, only kinds and counts.
//!
//! The corpus in `fixtures/egress/` measures the screen: every inventory entry has samples there, every secret
//! line must be caught and no benign line (the secrets' public cousins, prose in several languages, logs and
//! configs) may change. `cargo test -p aiui-core egress -- --nocapture` prints the measured numbers, one line
//! from each corpus test.

mod identity;
pub mod inventory;
mod labelled;
mod mnemonic;
mod request;
#[cfg(test)]
mod request_tests;
mod screens;
mod secrets;
#[cfg(test)]
mod tests;

use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt;
use std::ops::Range;
use std::sync::{Arc, Mutex};

use serde_json::Value;

use crate::Secret;
use crate::i18n::{self, Locale};
use identity::Placeholders;
pub use screens::Screens;
use secrets::{Known, Notes, Reading};

/// Where a piece of text in the outbound body came from. Only the owner's own words are blocked rather than
/// redacted: anything else (a tool result, an earlier reply, the system prompt) is not the owner's to retype.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Origin {
    /// What the owner typed this turn or earlier: blocked if it holds a secret.
    Owner,
    /// Output of a tool (node RPC, logs, files): redacted.
    ToolResult,
    /// An earlier model reply: redacted.
    Assistant,
    /// The system prompt and anything else the app writes: redacted.
    System,
}

/// A value the app knows is secret (the node password, an API key), caught wherever it appears literally,
/// JSON-escaped (once or twice, or ASCII-only as Python writes it) or percent-encoded. `Debug` never prints the
/// value.
#[derive(Debug, Clone)]
pub struct KnownSecret {
    /// Names the value in `[redacted:known:<label>]` and in the owner's explanation, e.g. `node-password`.
    pub label: String,
    /// Matched exactly, case included. A short value redacts every place it occurs, wanted or not.
    pub value: Secret<String>,
}

impl KnownSecret {
    /// `KnownSecret::new("node-password", password)` takes a `String`, a `&str` or a `Secret<String>`.
    pub fn new(label: impl Into<String>, value: impl Into<Secret<String>>) -> Self {
        Self { label: label.into(), value: value.into() }
    }
}

/// The outcome of screening one text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Screened {
    /// Fit to send: `text` is the input with secrets redacted and placeholders applied (often unchanged).
    Clean { text: String, report: Report },
    /// Owner text that holds a secret: send nothing and end the turn with [`Blocked::message`].
    Blocked(Blocked),
}

/// An owner message held back because it contains a secret. A designed stop, not a failure: the turn ends and
/// [`Blocked::text`] is shown to the owner.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct Blocked {
    /// The kinds found (e.g. `["bip39"]`), sorted, never the values.
    pub kinds: Vec<String>,
    /// A plain-language explanation for the owner, in English: what kind of secret, that nothing was sent, what
    /// to do.
    pub message: String,
}

impl Blocked {
    fn new(kinds: impl IntoIterator<Item = String>) -> Self {
        let mut kinds: Vec<String> = kinds.into_iter().collect();
        kinds.sort();
        kinds.dedup();
        let mut blocked = Self { kinds, message: String::new() };
        blocked.message = blocked.text(Locale::En);
        blocked
    }

    /// The explanation in `locale`; [`Blocked::message`] is its English.
    pub fn text(&self, locale: Locale) -> String {
        let what: Vec<String> = self.kinds.iter().map(|kind| describe(locale, kind)).collect();
        i18n::text(locale, "egress-blocked", &[("what", join_words(locale, &what).into())])
    }
}

/// What the screen changed, for a summary line. Holds kinds and counts, never values.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Report {
    /// Redactions per kind, sorted by kind.
    pub redactions: Vec<(String, usize)>,
    /// How many onion hostnames and LAN addresses were replaced by placeholders.
    pub placeholders: usize,
}

impl Report {
    /// Adds another text's or a later pass's counts to these.
    fn absorb(&mut self, more: Report) {
        self.placeholders += more.placeholders;
        if more.redactions.is_empty() {
            return;
        }
        for (kind, n) in more.redactions {
            match self.redactions.iter_mut().find(|(k, _)| *k == kind) {
                Some((_, count)) => *count += n,
                None => self.redactions.push((kind, n)),
            }
        }
        self.redactions.sort();
    }

    /// True when the screen changed nothing.
    pub fn is_clean(&self) -> bool {
        self.redactions.is_empty() && self.placeholders == 0
    }

    /// The counts in `locale`: "3 redacted (bip39 1, xprv 2), 0 placeholders". The kinds keep their short names,
    /// which the redaction markers in the screened text carry too.
    pub fn text(&self, locale: Locale) -> String {
        let total: usize = self.redactions.iter().map(|(_, n)| n).sum();
        let mut args = vec![("redacted", total.into()), ("placeholders", self.placeholders.into())];
        if total == 0 {
            return i18n::text(locale, "egress-report", &args);
        }
        let kinds: Vec<String> = self.redactions.iter().map(|(k, n)| format!("{k} {n}")).collect();
        args.push(("kinds", kinds.join(", ").into()));
        i18n::text(locale, "egress-report-kinds", &args)
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let total: usize = self.redactions.iter().map(|(_, n)| n).sum();
        write!(f, "{total} redacted")?;
        if total > 0 {
            let parts: Vec<String> = self.redactions.iter().map(|(k, n)| format!("{k} {n}")).collect();
            write!(f, " ({})", parts.join(", "))?;
        }
        write!(f, ", {} placeholders", self.placeholders)
    }
}

/// The screen for one conversation: the known secrets and the placeholder table, so a LAN address keeps the
/// same placeholder from one request to the next. `Debug` prints counts only.
///
/// A turn sends the conversation's history again, so a screen remembers what it made of each text and screens
/// only what is new. Texts it found nothing in are remembered once for every screen made with
/// [`Screen::for_another_conversation`] (they share the known secrets, the only other input); texts it changed
/// are remembered per conversation, since their placeholders are that conversation's. [`Screen::screen_request`]
/// also remembers each message of its latest request whole, so an earlier message costs a lookup, not a walk.
pub struct Screen {
    known: Arc<[Known]>,
    placeholders: Placeholders,
    clean: Arc<Mutex<CleanTexts>>,
    changed: ChangedTexts,
    remembered: request::Remembered,
    /// The last whole pass's notes; kept (up to [`KEPT_NOTES`] of each) to spare each pass two allocations.
    notes: Notes,
}

impl fmt::Debug for Screen {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Screen")
            .field("known", &self.known.len())
            .field("placeholders", &self.placeholders.len())
            .finish()
    }
}

/// The memories' hash: every text is hashed once per screening, and SipHash cost more than some detectors. Seeded
/// per process like std's, so a tool result cannot be made to collide on purpose.
type MemoHasher = foldhash::fast::RandomState;

/// Texts a screen found nothing in: no secret, no known value, no address. Such a text screens to itself in any
/// conversation and from any origin. Bounded: past [`CleanTexts::LIMIT`] bytes it starts over.
#[derive(Default)]
struct CleanTexts {
    texts: HashSet<Box<str>, MemoHasher>,
    bytes: usize,
}

impl CleanTexts {
    /// Far more than a conversation's window of history; a long-lived app screening many conversations starts
    /// over rather than growing.
    const LIMIT: usize = 16 << 20;

    fn insert(&mut self, text: &str) {
        if self.bytes + text.len() > Self::LIMIT {
            self.texts.clear();
            self.bytes = 0;
        }
        if text.len() <= Self::LIMIT && self.texts.insert(text.into()) {
            self.bytes += text.len();
        }
    }
}

/// What one conversation's screen made of the texts it changed (redactions, placeholders), by origin. Bounded
/// like [`CleanTexts`], per conversation. A blocked owner text is not kept: the owner's secret stays in memory no
/// longer than the screening, and such a text is not re-sent anyway.
#[derive(Default)]
struct ChangedTexts {
    outcomes: HashMap<Box<str>, Vec<(Origin, Screened)>, MemoHasher>,
    bytes: usize,
}

impl ChangedTexts {
    const LIMIT: usize = 2 << 20;

    fn insert(&mut self, origin: Origin, text: &str, outcome: &Screened) {
        let Screened::Clean { text: sent, .. } = outcome else { return };
        let size = text.len() + sent.len();
        if self.bytes + size > Self::LIMIT {
            self.outcomes.clear();
            self.bytes = 0;
        }
        if size <= Self::LIMIT {
            self.outcomes.entry(text.into()).or_default().push((origin, outcome.clone()));
            self.bytes += size;
        }
    }
}

impl Screen {
    /// A screen that also catches `known` values. An empty value is ignored: it would match everywhere.
    pub fn new(known: Vec<KnownSecret>) -> Self {
        let known = known.iter().filter_map(|k| Known::new(&k.label, k.value.expose())).collect();
        Self {
            known,
            placeholders: Placeholders::default(),
            clean: Arc::default(),
            changed: ChangedTexts::default(),
            remembered: request::Remembered::default(),
            notes: Notes::default(),
        }
    }

    /// A screen for another conversation: the same known secrets, and the texts already found clean, with a
    /// placeholder table of its own.
    pub fn for_another_conversation(&self) -> Self {
        Self {
            known: self.known.clone(),
            placeholders: Placeholders::default(),
            clean: self.clean.clone(),
            changed: ChangedTexts::default(),
            remembered: request::Remembered::default(),
            notes: Notes::default(),
        }
    }

    /// The bytes this conversation's memory of screened texts and request elements holds, roughly (the texts
    /// found clean are shared, and counted by nobody's screen). Below [`Screen::MEMORY_LIMIT`].
    pub fn memory_bytes(&self) -> usize {
        self.changed.bytes + self.remembered.bytes() + self.placeholders.len() * 64
    }

    /// What one conversation's screen remembers at most, besides its placeholder table.
    pub const MEMORY_LIMIT: usize = ChangedTexts::LIMIT + request::Remembered::LIMIT;

    /// Screens one piece of text. Owner text that holds a G-B1 secret is [`Screened::Blocked`]; text of any other
    /// origin has its secrets redacted. G-B2 placeholders apply to every origin.
    ///
    /// Screening runs to a fixpoint: a secret glued to another (a WIF key right before an xprv) or to an address
    /// (a LAN IP right before `rpcauth=`) only shows its edge once its neighbour was redacted or replaced, so the
    /// text is screened again until a pass changes nothing. Screening a screened text changes nothing more.
    ///
    /// A text screened before is answered from memory, with the same text and report as the first time.
    pub fn screen_text(&mut self, text: &str, origin: Origin) -> Screened {
        self.screen_text_asking(text, &mut LazyOrigin::known(origin))
            .unwrap_or_else(|| Screened::Clean { text: text.to_owned(), report: Report::default() })
    }

    /// [`Screen::screen_text`] for a text whose origin is worked out only if it matters: when the text holds
    /// something. Most texts hold nothing, and finding a string's origin in a body costs a walk of its pointer.
    /// `None` when the text holds nothing and goes out as it is, which most do: no copy is made of it then.
    fn screen_text_asking(&mut self, text: &str, origin: &mut LazyOrigin<'_>) -> Option<Screened> {
        if self.clean.lock().unwrap_or_else(|p| p.into_inner()).texts.contains(text) {
            return None;
        }
        // The placeholders in a remembered outcome are still this table's: a number, once given, stays.
        if let Some(outcomes) = self.changed.outcomes.get(text) {
            let origin = origin.get();
            if let Some((_, outcome)) = outcomes.iter().find(|(o, _)| *o == origin) {
                return Some(outcome.clone());
            }
        }
        let Some(outcome) = self.screen_to_fixpoint(text, origin) else {
            self.clean.lock().unwrap_or_else(|p| p.into_inner()).insert(text);
            return None;
        };
        self.changed.insert(origin.get(), text, &outcome);
        Some(outcome)
    }

    /// `None` when the first pass finds nothing.
    fn screen_to_fixpoint(&mut self, text: &str, origin: &mut LazyOrigin<'_>) -> Option<Screened> {
        self.screen_passes(text, origin, true)
    }

    /// [`Screen::screen_to_fixpoint`]; with `carry` false every pass reads the whole text (the tests' reference).
    fn screen_passes(&mut self, text: &str, origin: &mut LazyOrigin<'_>, carry: bool) -> Option<Screened> {
        const MAX_PASSES: usize = 8;
        // A pass that changed nothing would change nothing again: most texts are screened once.
        let (first, carried) = self.screen_once(text, origin, None)?;
        let mut carried = carried.filter(|_| carry);
        let (mut text, mut report) = match first {
            Screened::Clean { text, report } => (text, report),
            blocked => return Some(blocked),
        };
        for _ in 1..MAX_PASSES {
            match self.screen_once(&text, origin, carried.take().as_ref()).map(|(screened, _)| screened) {
                None => break,
                Some(Screened::Clean { text: again, report: more }) => {
                    if again == text {
                        break;
                    }
                    report.absorb(more);
                    text = again;
                }
                Some(blocked) => return Some(blocked),
            }
        }
        Some(Screened::Clean { text, report })
    }

    /// One pass: find secret shapes and known values, redact them (or block owner text), then apply placeholders.
    /// `None` when it finds nothing to change. A pass after one that read the whole text reads seed phrases and
    /// trigger words only near that pass's redactions, from what it [`Carried`].
    fn screen_once(
        &mut self,
        text: &str,
        origin: &mut LazyOrigin<'_>,
        after: Option<&Carried>,
    ) -> Option<(Screened, Option<Carried>)> {
        let mut findings = Vec::new();
        let mut notes = std::mem::take(&mut self.notes);
        notes.restarts.clear();
        notes.triggers.clear();
        let reading = match after {
            Some(carried) => Reading::Near { changes: &carried.changes, notes: &carried.notes },
            None => Reading::Whole(&mut notes),
        };
        secrets::find_shapes(text, reading, &mut findings);
        for known in self.known.iter() {
            known.find(text, &mut findings);
        }
        let findings = secrets::merge(findings);
        // A pass that carried notes replaced no address in the text it made, which is this text: with no secret
        // found either, placeholders would find nothing again.
        if findings.is_empty() && after.is_some() {
            self.notes = notes;
            return None;
        }
        let carried = (after.is_none() && !findings.is_empty()).then(|| {
            let edits: Vec<(Range<usize>, usize)> =
                findings.iter().map(|f| (f.range.clone(), secrets::redaction_len(&f.kind))).collect();
            let (notes, changes) = notes.carry(&edits);
            Carried { notes, changes }
        });
        // A huge text's notes are not kept for the life of the conversation.
        if notes.restarts.capacity() <= KEPT_NOTES && notes.triggers.capacity() <= KEPT_NOTES {
            self.notes = notes;
        }
        if !findings.is_empty() && origin.get() == Origin::Owner {
            let blocked = Blocked::new(findings.into_iter().map(|f| f.kind));
            tracing::debug!(kinds = ?blocked.kinds, "egress: owner text holds a secret; blocked");
            return Some((Screened::Blocked(blocked), None));
        }
        let mut counts: BTreeMap<String, usize> = BTreeMap::new();
        for f in &findings {
            *counts.entry(f.kind.clone()).or_default() += 1;
        }
        let redacted = if findings.is_empty() { None } else { Some(secrets::redact(text, &findings)) };
        // Only redactions are carried: the placeholders' places are not tracked, so after them the next pass
        // reads the whole text.
        let (text, placeholders, carried) = match self.placeholders.apply(redacted.as_deref().unwrap_or(text)) {
            Some((replaced, placeholders)) => (replaced, placeholders, None),
            None => (redacted?, 0, carried),
        };
        let report = Report { redactions: counts.into_iter().collect(), placeholders };
        tracing::debug!(origin = ?origin.get(), %report, "egress: screened");
        Some((Screened::Clean { text, report }, carried))
    }

    /// Screens a whole JSON request body in place: every string in it, object keys included. `origin_of` gets
    /// each string's RFC 6901 JSON pointer (`/messages/3/content/0/text`; a key has the pointer of its value)
    /// and says whose words it holds; the caller knows the wire format.
    ///
    /// Returns `Err(Blocked)` when any owner string holds a secret. The body is then partly screened and must
    /// not be sent.
    pub fn screen_body(&mut self, body: &mut Value, origin_of: &dyn Fn(&str) -> Origin) -> Result<Report, Blocked> {
        let mut walk = Walk {
            screen: self,
            origins: Origins::ByPointer(origin_of),
            report: Report::default(),
            blocked: Vec::new(),
        };
        let mut path = String::new();
        walk.value(body, &mut path);
        let Walk { report, blocked, .. } = walk;
        if blocked.is_empty() { Ok(report) } else { Err(Blocked::new(blocked)) }
    }

    /// Puts back the values behind the placeholders this screen issued, for text coming back from the cloud
    /// (a tool call that names `[lan-ip-1]` must reach the real address). Redacted secrets cannot come back.
    pub fn reveal(&self, text: &str) -> String {
        self.placeholders.reveal(text)
    }
}

/// How many restarts' and trigger words' room a screen keeps between passes: those of a text of a few hundred KB.
const KEPT_NOTES: usize = 4096;

/// What a pass that read the whole text leaves the next one: its notes (where the seed-word scan restarts, where
/// the trigger words sit), carried past the pass's redactions, and where those redactions sit in the text it
/// made. A pass that also replaced addresses leaves nothing: it does not track their places.
struct Carried {
    notes: Notes,
    changes: Vec<Range<usize>>,
}

struct Walk<'a> {
    screen: &'a mut Screen,
    origins: Origins<'a>,
    report: Report,
    blocked: Vec<String>,
}

/// Where a [`Walk`] learns each string's origin.
enum Origins<'a> {
    /// Asked of the caller by the string's JSON pointer.
    ByPointer(&'a dyn Fn(&str) -> Origin),
    /// Read before the walk, one per string in walk order (see [`request::origins_in`]): the caller's function
    /// reads the body, which the walk rewrites.
    Listed(std::vec::IntoIter<Origin>),
}

impl<'a> Origins<'a> {
    /// The origin of the string at `path`, asked of the caller only when the screen needs it. A listed one is
    /// taken now, so the list stays in step with the walk.
    fn of<'p>(&mut self, path: &'p str) -> LazyOrigin<'p>
    where
        'a: 'p,
    {
        match self {
            Self::ByPointer(origin_of) => LazyOrigin { known: None, path, origin_of: Some(*origin_of) },
            // Never short, since both walks visit the same strings; were it short, the strictest origin.
            Self::Listed(listed) => LazyOrigin::known(listed.next().unwrap_or(Origin::Owner)),
        }
    }
}

/// A string's origin, known already or asked of the caller's function on first need.
struct LazyOrigin<'p> {
    known: Option<Origin>,
    path: &'p str,
    origin_of: Option<&'p dyn Fn(&str) -> Origin>,
}

impl<'p> LazyOrigin<'p> {
    fn known(origin: Origin) -> Self {
        Self { known: Some(origin), path: "", origin_of: None }
    }

    fn get(&mut self) -> Origin {
        let (path, origin_of) = (self.path, self.origin_of);
        // Without a function to ask, the strictest origin; `known` always has one then.
        *self.known.get_or_insert_with(|| origin_of.map_or(Origin::Owner, |origin_of| origin_of(path)))
    }
}

impl Walk<'_> {
    fn value(&mut self, value: &mut Value, path: &mut String) {
        match value {
            Value::String(s) => {
                if let Some(screened) = self.string(s, path) {
                    *s = screened;
                }
            }
            Value::Array(items) => {
                for (i, item) in items.iter_mut().enumerate() {
                    let len = path.len();
                    push_index(path, i);
                    self.value(item, path);
                    path.truncate(len);
                }
            }
            Value::Object(map) => {
                // A key is screened after its value, as [`request::origins_in`] lists them. Keys rarely change, so
                // the map is rebuilt only when one did: rebuilding every object cost more than screening its keys.
                let mut renamed: Vec<(String, String)> = Vec::new();
                for (key, item) in map.iter_mut() {
                    let len = path.len();
                    push_key(path, key);
                    self.value(item, path);
                    if let Some(screened) = self.string(key, path) {
                        renamed.push((key.clone(), screened));
                    }
                    path.truncate(len);
                }
                if !renamed.is_empty() {
                    // In the map's own order, as they were found; a screened key that equals a later one is
                    // overwritten by it, as an insert in that order does.
                    let mut renamed = renamed.into_iter().peekable();
                    for (key, item) in std::mem::take(map) {
                        let key = match renamed.next_if(|(old, _)| *old == key) {
                            Some((_, screened)) => screened,
                            None => key,
                        };
                        map.insert(key, item);
                    }
                }
            }
            Value::Null | Value::Bool(_) | Value::Number(_) => {}
        }
    }

    /// The screened text when it differs from `text`; `None` when it goes out unchanged or is blocked.
    fn string(&mut self, text: &str, path: &str) -> Option<String> {
        let mut origin = self.origins.of(path);
        match self.screen.screen_text_asking(text, &mut origin)? {
            Screened::Clean { text, report } => {
                self.report.absorb(report);
                Some(text)
            }
            Screened::Blocked(blocked) => {
                self.blocked.extend(blocked.kinds);
                None
            }
        }
    }
}

/// Appends `/<index>` to a JSON pointer. Written digit by digit: the formatting machinery cost more than the walk's
/// own steps, for a path that is rarely read.
fn push_index(path: &mut String, index: usize) {
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    let mut rest = index;
    loop {
        at -= 1;
        digits[at] = b'0' + (rest % 10) as u8;
        rest /= 10;
        if rest == 0 {
            break;
        }
    }
    path.push('/');
    path.extend(digits[at..].iter().map(|&d| char::from(d)));
}

/// Appends `/<key>` to a JSON pointer, escaped as RFC 6901 says.
fn push_key(path: &mut String, key: &str) {
    path.push('/');
    if memchr::memchr2(b'~', b'/', key.as_bytes()).is_some() {
        path.push_str(&key.replace('~', "~0").replace('/', "~1"));
    } else {
        path.push_str(key);
    }
}

/// A kind in the owner's words (in English, [`inventory::describe`]'s).
fn describe(locale: Locale, kind: &str) -> String {
    if inventory::describe(kind).is_some() {
        return i18n::text(locale, &format!("egress-kind-{kind}"), &[]);
    }
    match kind.strip_prefix("known:") {
        Some(label) => i18n::text(locale, "egress-kind-known", &[("label", label.into())]),
        None => i18n::text(locale, "egress-kind-other", &[("kind", kind.into())]),
    }
}

/// "a", "a and b", "a, b and c", in `locale`.
fn join_words(locale: Locale, items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{}{}{last}", init.join(", "), i18n::text(locale, "egress-and", &[])),
    }
}
