//! G-B1 detectors for secrets known by their label rather than their shape: backup and recovery codes, 2FA setup
//! keys, API keys by their header or query name, labelled pairing phrases, SeedQR digits, seed tables in columns.
//!
//! A backup code (`8f3k-2j9d`), an authenticator key (`JBSW Y3DP EHPK 3PXP`) or ten list words look like any
//! other short code or words; only what they are called says they are secret. So each detector here starts from
//! a label (`Backup codes:`, `Secret key:`, `X-Goog-Api-Key:`, `pairing phrase:`), followed by a separator (a
//! colon, `=`, `is`, a line break), and then reads the value with rules strict enough that the label's usual
//! neighbours (`Backup codes: 10 remaining`, `2FA: on`, `API key id: 42`, `recovery email: ...`) stay.
//!
//! Two shapes need no label, because chance does not make them: a run of exactly 48 or 96 digits whose 4-digit
//! groups are BIP-39 word indexes with a valid checksum (Standard SeedQR), and a seed laid out as a table of two
//! or more columns, whose reading order interleaves the phrase so the run finder in `mnemonic.rs` may not join it.
//!
//! Cost: the screen runs on every cloud request. One regex over all labels (a lazy DFA, built once) finds the
//! places to look, a byte loop finds digit runs of 48 and more, and a byte test per line skips every line that
//! cannot be a table row; word lookups only run near a label or inside a block of row-shaped lines.

use std::collections::HashMap;
use std::ops::Range;
use std::sync::LazyLock;

#[cfg(test)]
use aho_corasick::AhoCorasick;
use regex::{Regex, RegexBuilder};
use sha2::{Digest, Sha256};
use unicode_normalization::UnicodeNormalization;

use super::secrets::Finding;

/// The fewest list words a labelled word list holds (Lightning Node Connect's pairing phrase has ten). Fewer
/// list words after `seed:` are prose more often than a secret.
const MIN_LABELLED_WORDS: usize = 5;

/// The fewest words a seed table holds: the shortest BIP-39 phrase.
const MIN_TABLE_WORDS: usize = 12;

/// BIP-39 phrase lengths.
const BIP39_LENGTHS: [usize; 5] = [12, 15, 18, 21, 24];

/// What a label introduces, from the label's capture group.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Label {
    /// `SeedQR`, `seed qr`, `CompactSeedQR`: digits, hex or bits of a seed.
    SeedQr,
    /// `backup codes`, `recovery codes`, `recovery key`: account recovery codes.
    Codes,
    /// `2FA setup key`, `authenticator key`, `TOTP secret`, `secret key`: a base32 TOTP seed.
    Totp,
    /// `pairing phrase`: a word list that pairs an app with the node (Lightning Node Connect).
    Pairing,
    /// `recovery phrase`, `seed words`, `mnemonic`, in several languages: a seed of any length.
    SeedWords,
    /// `X-Goog-Api-Key`, `API key`, `access token`: an API credential by its name.
    Api,
    /// `?key=`, `&sig=`, `&appid=`: a credential by its URL query name.
    Query,
}

/// Every label, one alternation so the text is scanned once. ASCII-only case folding and word boundaries keep the
/// regex small and on its fast DFA; the non-ASCII labels have no `\b`, because an ASCII boundary never sits
/// before a Han or kana character. Names are matched from their secret-naming core (`Api-Key` in
/// `X-Goog-Api-Key`, `PAIRING_PHRASE` in `LNC_PAIRING_PHRASE`): a pattern for the whole name would start a match
/// at every word and cost the DFA its speed. The order matters where labels share a start (`seed qr` before
/// `seed`). Names already caught by `secrets.rs` (`api_key=`, `X-Api-Key:` at a line start) may match here too:
/// both name the value `password`, so the merge keeps one.
static LABELS: LazyLock<Regex> = LazyLock::new(|| {
    let bounded = [
        r"(?:compact[ _-]?)?seed[ _-]?qr(?:[ _-]?(?:digits|data|string|payload|code|bits|hex|binary))?",
        r"(?:backup|recovery|emergency|scratch)[ _-]?(?:verification[ _-]?)?(?:codes?|keys?)|one[ -]time[ _-]?(?:backup[ _-]?)?codes",
        r"(?:2fa|mfa|totp)(?:[ _-]?(?:app|setup|manual|entry|auth))*(?:[ _-]?(?:secret|key|seed|code)s?)?|(?:otp|two[ -]factor|authenticator)(?:[ _-]?(?:app|setup|manual|entry|auth))*[ _-]?(?:secret|key|seed|code)s?|(?:setup|manual[ _-]?entry|secret)[ _-]?key",
        r"(?:recovery|seed|backup|secret|wallet|mnemonic|passphrase)[ _-]?(?:phrase|words)|mnemonic|seed|semilla|frase[ _-]de[ _-]recuperaci(?:o|ó)n|frase[ _-]di[ _-]recupero|frase[ _-]de[ _-]recupera(?:c|ç)(?:a|ã)o|(?:phrase|mots)[ _-]de[ _-]r(?:e|é)cup(?:e|é)ration",
    ];
    let unbounded = [
        r"pairing[ _-]?(?:phrase|words|secret)",
        r"(?:api|auth|access|app|application|client|subscription|license|licence|service|developer|account|integration|personal|project|bot|session|master)[ _-]?(?:key|token)|x-[a-z0-9-]*(?:token|secret|auth|signature|apikey|key)",
    ];
    let pattern = format!(
        r"(?i-u:\b(?:{})|{}|[?&](?:key|auth|sig|signature|x-amz-signature|appid|subscription-key)=)|(?:助记词|助記詞|ニーモニック|복구 문구)",
        bounded.join("|"),
        unbounded.join("|"),
    );
    RegexBuilder::new(&pattern).dfa_size_limit(16 << 20).build().expect("the labels compile")
});

/// What a matched label introduces, read from its words: cheaper than asking the regex for capture groups at
/// every match, and labels are frequent in the logs and docs a node prints.
fn label_of(label: &str) -> Label {
    let lower = label.to_ascii_lowercase();
    let starts = |heads: &[&str]| heads.iter().any(|h| lower.starts_with(h));
    if starts(&["?", "&"]) {
        Label::Query
    } else if lower.contains("qr") {
        Label::SeedQr
    } else if starts(&["backup", "recovery", "emergency", "scratch", "one"])
        && (lower.contains("code") || lower.ends_with("key") || lower.ends_with("keys"))
    {
        Label::Codes
    } else if starts(&["pairing"]) {
        Label::Pairing
    } else if starts(&["x-"]) {
        Label::Api
    } else if starts(&["2fa", "mfa", "totp", "otp", "two", "authenticator", "setup", "manual"])
        || (starts(&["secret"]) && lower.ends_with("key"))
    {
        Label::Totp
    } else if lower.ends_with("key") || lower.ends_with("token") {
        Label::Api
    } else {
        Label::SeedWords
    }
}

/// Finds every labelled secret in `text`, whose anchor words sit at `anchors` (found by the screen's trigger pass,
/// in order and none overlapping the one before).
pub(super) fn find(text: &str, anchors: &[Range<usize>], out: &mut Vec<Finding>) {
    find_labelled(text, anchors, out);
    find_seedqr_digits(text, out);
    find_tables(text, out);
}

/// Whether `text` holds what the finders look closer at: a label's anchor word, a run of 48 digits, or a line
/// shaped like a table row. The corpus test counts the benign lines that pass near one.
#[cfg(test)]
pub(super) fn near_a_label(text: &str) -> bool {
    ANCHORS.is_match(text)
        || text.as_bytes().split(|b| !b.is_ascii_digit()).any(|run| run.len() >= 48)
        || text.lines().any(|line| may_be_row(line.as_bytes()))
}

fn push(out: &mut Vec<Finding>, range: Range<usize>, kind: &str) {
    out.push(Finding { range, kind: kind.to_owned() });
}

/// The anchor words in an automaton of their own: the reference the screen's shared trigger pass is held to.
#[cfg(test)]
static ANCHORS: LazyLock<AhoCorasick> = LazyLock::new(|| {
    AhoCorasick::builder()
        .ascii_case_insensitive(true)
        .kind(Some(aho_corasick::AhoCorasickKind::DFA))
        .build(ANCHOR_WORDS)
        .expect("the anchors compile")
});

/// Where the anchor words sit in `text`, found without the screen's trigger pass.
#[cfg(test)]
pub(super) fn anchors_alone(text: &str) -> Vec<Range<usize>> {
    ANCHORS.find_iter(text).map(|hit| hit.range()).collect()
}

/// A word every label holds (`key` in `X-Goog-Api-Key`, `code` in `backup codes`, `phrase` in `pairing phrase`),
/// matched ASCII-case-insensitively by the screen's one trigger automaton (`secrets.rs`), which hands the hits to
/// [`find_labelled`]'s windows. Frequent words that only some labels hold (`auth`, `word`, `password`) are left
/// out: the labels they would add are rare, and they would open a window every few lines. Only the bytes around a
/// hit are given to [`LABELS`]: the automaton skips text several times faster than the label regex's DFA can read
/// it.
pub(super) const ANCHOR_WORDS: &[&str] = &[
    "key",
    "token",
    "secret",
    "code",
    "phrase",
    "words",
    "qr",
    "seed",
    "mnemonic",
    "semilla",
    "recup",
    "récup",
    "2fa",
    "mfa",
    "totp",
    "auth=",
    "signature",
    "sig=",
    "appid",
    "助记词",
    "助記詞",
    "ニーモニック",
    "복구",
];

/// How far a label reaches before its anchor word (`frase de recuperación`, `compact seed qr`) and after it
/// (`seed qr digits`, `2FA setup secret`).
const BEFORE_ANCHOR: usize = 28;
const AFTER_ANCHOR: usize = 12;

fn floor_boundary(text: &str, mut at: usize) -> usize {
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

fn ceil_boundary(text: &str, mut at: usize) -> usize {
    at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at += 1;
    }
    at
}

fn find_labelled(text: &str, anchors: &[Range<usize>], out: &mut Vec<Finding>) {
    let mut window: Option<Range<usize>> = None;
    for hit in anchors {
        let start = floor_boundary(text, hit.start.saturating_sub(BEFORE_ANCHOR));
        let end = ceil_boundary(text, hit.end + AFTER_ANCHOR);
        match &mut window {
            Some(w) if start <= w.end => w.end = end,
            _ => {
                if let Some(w) = window.replace(start..end) {
                    labels_in(text, w, out);
                }
            }
        }
    }
    if let Some(w) = window {
        labels_in(text, w, out);
    }
}

/// The labels in `window` of `text`, and the secrets after them.
fn labels_in(text: &str, window: Range<usize>, out: &mut Vec<Finding>) {
    let bytes = text.as_bytes();
    for found in LABELS.find_iter(&text[window.clone()]) {
        let whole = (window.start + found.start())..(window.start + found.end());
        // The window's edge looks like a word boundary to the regex; in the text it may be mid-word.
        let glued = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
        if found.start() == 0 && whole.start > 0 && glued(bytes[whole.start - 1]) && glued(bytes[whole.start]) {
            continue;
        }
        // A kind the screen wrote (`[redacted:totp-key]`) is not a label: a second screening finds nothing new.
        if text[..whole.start].ends_with("[redacted:") {
            continue;
        }
        let whole_text = &text[whole.clone()];
        let label = label_of(whole_text);
        if label == Label::Query {
            if let Some(value) = credential_value(text, whole.end, 16) {
                push(out, value, "password");
            }
            continue;
        }
        // Part of a longer name (`api_key_id`, `seeds`, `recovery_codes_count`) is another name.
        if text[whole.end..].chars().next().is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '-') {
            continue;
        }
        let newline_ok = !matches!(label, Label::Api | Label::Totp);
        let Some(start) = after_separator(text, whole.end, newline_ok) else { continue };
        match label {
            Label::SeedQr => {
                if let Some(range) = seedqr_value(text, start) {
                    push(out, range, "seedqr");
                }
            }
            Label::Codes => {
                if let Some(range) = codes(text, start) {
                    push(out, range, "backup-code");
                }
            }
            Label::Totp => {
                if let Some(range) = base32_key(text, start) {
                    push(out, range, "totp-key");
                } else if whole_text.to_ascii_lowercase().starts_with("secret") {
                    if let Some(range) = hex_key(text, start) {
                        push(out, range, "hex-key");
                    } else if let Some(range) = credential_value(text, start, 12) {
                        push(out, range, "password");
                    }
                }
            }
            Label::Pairing => {
                if let Some(range) = word_list(text, start) {
                    push(out, range, "pairing-phrase");
                }
            }
            Label::SeedWords => {
                if let Some(range) = word_list(text, start) {
                    push(out, range, "bip39");
                }
            }
            Label::Api => {
                if let Some(range) = credential_value(text, start, 12) {
                    push(out, range, "password");
                }
            }
            Label::Query => {}
        }
    }
}

/// Where the value after a label starts: past closing quotes, a short aside in brackets (`Secret key (base32):`)
/// and a separator (`:`, `=`, `=>`, `is`, `are`, or with `newline_ok` a line break). `None` when no separator
/// follows: `recovery phrase is important` has one, `keep the TOTP secret off the cloud` has none.
fn after_separator(text: &str, end: usize, newline_ok: bool) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut at = end;
    let skip = |at: &mut usize, set: &[u8]| {
        while *at < bytes.len() && set.contains(&bytes[*at]) {
            *at += 1;
        }
    };
    skip(&mut at, b"\"'`\\*");
    skip(&mut at, b" \t");
    if bytes.get(at) == Some(&b'(')
        && let Some(close) = text[at..].find(')').filter(|&c| c <= 40 && !text[at..at + c].contains('\n'))
    {
        at += close + 1;
        skip(&mut at, b" \t");
    }
    let rest = &text[at..];
    let after = if rest.starts_with("=>") || rest.starts_with("->") {
        at + 2
    } else if rest.starts_with([':', '=']) {
        at + 1
    } else if rest.starts_with('：') {
        at + '：'.len_utf8()
    } else if rest.get(..3).is_some_and(|w| w.eq_ignore_ascii_case("is ") || w.eq_ignore_ascii_case("is\n")) {
        at + 2
    } else if rest.get(..4).is_some_and(|w| w.eq_ignore_ascii_case("are ")) {
        at + 3
    } else if newline_ok && (rest.starts_with('\n') || rest.starts_with("\\n")) {
        at
    } else {
        return None;
    };
    let mut at = after;
    loop {
        let before = at;
        skip(&mut at, b" \t\"'`*");
        if newline_ok {
            skip(&mut at, b"\r\n");
            if text[at..].starts_with("\\n") {
                at += 2;
            }
        }
        if at == before {
            break;
        }
    }
    Some(at)
}

/// The length of list punctuation at `at`: whitespace, commas, quotes, brackets, bars, and the JSON escapes
/// `\n`, `\t`, `\r`, `\"`.
fn gap_len(bytes: &[u8], at: usize) -> usize {
    match bytes[at] {
        b' ' | b'\t' | b'\r' | b'\n' | b',' | b';' | b'"' | b'\'' | b'[' | b']' | b'|' => 1,
        b'\\' if matches!(bytes.get(at + 1), Some(b'n' | b't' | b'r' | b'"')) => 2,
        _ => 0,
    }
}

/// A list item's number or bullet at `at` (`1.`, `12)`, `3:`, `-`, `*`), followed by a gap; its length, else 0.
fn item_marker_len(bytes: &[u8], at: usize) -> usize {
    let digits = bytes[at..].iter().take_while(|b| b.is_ascii_digit()).count();
    let len = if (1..=3).contains(&digits) && matches!(bytes.get(at + digits), Some(b'.' | b')' | b':')) {
        digits + 1
    } else if matches!(bytes[at], b'-' | b'*' | b'#') {
        1
    } else {
        return 0;
    };
    if at + len == bytes.len() || gap_len(bytes, at + len) > 0 { len } else { 0 }
}

/// Whether two line breaks (a blank line) lie in `gap`: a list ends there.
fn blank_line(gap: &[u8]) -> bool {
    let breaks = gap.iter().filter(|&&b| b == b'\n').count() + gap.windows(2).filter(|w| w == b"\\n").count();
    breaks >= 2
}

/// Backup or recovery codes after their label: one or more codes separated by list punctuation, on one line or
/// one per line. A code mixes letters and digits (`8f3k-2j9d`), is six digits or more (`1234 5678` as two), or is
/// letter groups (`ABCD-EFGH-IJKL`); `10 remaining`, `enabled`, a date or a version is not one.
fn codes(text: &str, start: usize) -> Option<Range<usize>> {
    let bytes = text.as_bytes();
    let (mut at, mut first, mut last) = (start, None, start);
    let mut gap_start = start;
    while at < bytes.len() && at - start < 4096 {
        let gap = gap_len(bytes, at);
        if gap > 0 {
            at += gap;
            continue;
        }
        let marker = item_marker_len(bytes, at);
        if marker > 0 {
            at += marker;
            continue;
        }
        if first.is_some() && blank_line(&bytes[gap_start..at]) {
            break;
        }
        let mut len = bytes[at..].iter().take_while(|b| b.is_ascii_alphanumeric() || **b == b'-').count();
        // An eight-digit code is often printed as two groups of four (`1234 5678`).
        let digits = |from: usize| bytes[from..].iter().take_while(|b| b.is_ascii_digit()).count();
        if len == 4 && digits(at) == 4 && bytes.get(at + 4) == Some(&b' ') && digits(at + 5) == 4 {
            len = 9;
        }
        if len == 0 || !is_code(&text[at..at + len].replace(' ', "")) {
            break;
        }
        first.get_or_insert(at);
        last = at + len;
        at += len;
        gap_start = at;
        // A code glued to anything but list punctuation (`8f3k2j9d.`) ends the list.
        if at < bytes.len() && gap_len(bytes, at) == 0 {
            break;
        }
    }
    first.map(|first| first..last)
}

fn is_code(token: &str) -> bool {
    if token.starts_with('-') || token.ends_with('-') || token.contains("--") {
        return false;
    }
    let groups: Vec<&str> = token.split('-').collect();
    let chars = token.len() - (groups.len() - 1);
    let digits = token.bytes().filter(u8::is_ascii_digit).count();
    let letters = token.bytes().filter(u8::is_ascii_alphabetic).count();
    // Dates (2024-05-01) and other short numeric groups are not codes.
    let date_like = letters == 0 && groups.len() > 1 && groups.iter().any(|g| g.len() <= 2);
    if chars < 6 || date_like {
        return false;
    }
    let lettered_groups =
        groups.len() >= 2 && groups.iter().all(|g| g.len() >= 4) && !token.bytes().any(|b| b.is_ascii_lowercase());
    (digits > 0 && letters > 0) || letters == 0 || lettered_groups
}

/// A base32 TOTP seed: one token of 16 or more base32 letters in one case, or groups of four separated by
/// single spaces or hyphens (`JBSW Y3DP EHPK 3PXP`, `jbsw-y3dp-ehpk-3pxp`), at least four groups.
fn base32_key(text: &str, start: usize) -> Option<Range<usize>> {
    let bytes = text.as_bytes();
    let is_b32 = |b: u8| b.is_ascii_alphabetic() || (b'2'..=b'7').contains(&b);
    let mut groups = Vec::new();
    let mut at = start;
    loop {
        let len = bytes[at..].iter().take_while(|&&b| is_b32(b)).count();
        if len == 0 {
            break;
        }
        groups.push(at..at + len);
        at += len;
        if matches!(bytes.get(at), Some(b' ' | b'-')) && bytes.get(at + 1).is_some_and(|&b| is_b32(b)) {
            at += 1;
        } else {
            break;
        }
    }
    let first = groups.first()?.clone();
    // Padding of an unspaced key.
    let mut end = groups.last()?.end;
    while bytes.get(end) == Some(&b'=') {
        end += 1;
    }
    if bytes.get(end).is_some_and(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'/' | b'+')) {
        return None;
    }
    let value = &text[first.start..end];
    let one_case = !value.bytes().any(|b| b.is_ascii_lowercase()) || !value.bytes().any(|b| b.is_ascii_uppercase());
    let total: usize = groups.iter().map(ExactSizeIterator::len).sum();
    let shape = if groups.len() == 1 {
        (16..=128).contains(&first.len()) && value.bytes().any(|b| b.is_ascii_digit())
    } else {
        let (body, tail) = groups.split_at(groups.len() - 1);
        groups.len() >= 4 && body.iter().all(|g| g.len() == 4) && (1..=4).contains(&tail[0].len())
    };
    (one_case && shape && total >= 16).then_some(first.start..end)
}

/// 64 hex digits, an optional `0x` before them.
fn hex_key(text: &str, start: usize) -> Option<Range<usize>> {
    let bytes = text.as_bytes();
    let start = if text[start..].starts_with("0x") { start + 2 } else { start };
    let len = bytes[start..].iter().take_while(|b| b.is_ascii_hexdigit()).count();
    let bounded = bytes.get(start + len).is_none_or(|b| !b.is_ascii_alphanumeric());
    (len == 64 && bounded).then_some(start..start + len)
}

/// A credential value: `min` or more URL-safe or base64 characters with letters and digits, not a placeholder
/// (`<your key>`, `$API_KEY`, `[redacted:...]`), a word (`stored-in-the-keyring`) or a path.
fn credential_value(text: &str, start: usize, min: usize) -> Option<Range<usize>> {
    let bytes = text.as_bytes();
    let len = bytes[start..].iter().take_while(|&&b| b.is_ascii_alphanumeric() || b"._~+/=%-_".contains(&b)).count();
    let value = &text[start..start + len];
    let value = value.trim_end_matches(['.', ',']);
    let digits = value.bytes().filter(u8::is_ascii_digit).count();
    let letters = value.bytes().filter(u8::is_ascii_alphabetic).count();
    let wordy = value.split(['-', '_', '.']).all(|part| part.bytes().all(|b| b.is_ascii_lowercase()));
    let ok = value.len() >= min
        && value.len() <= 512
        && digits > 0
        && letters > 0
        && !wordy
        && !value.starts_with('/')
        && !value.contains("://");
    ok.then_some(start..start + value.len())
}

/// SeedQR after its label: 48 or 96 digits (groups of four may be spaced) whose groups are word indexes, or
/// Compact SeedQR's entropy as exactly 128 or 256 bits (32 or 64 hex digits, or bits in groups).
fn seedqr_value(text: &str, start: usize) -> Option<Range<usize>> {
    let bytes = text.as_bytes();
    let run = |accept: fn(u8) -> bool| {
        let (mut at, mut count, mut end) = (start, 0, start);
        while at < bytes.len() {
            if accept(bytes[at]) {
                count += 1;
                at += 1;
                end = at;
            } else if matches!(bytes[at], b' ' | b'-') && bytes.get(at + 1).is_some_and(|&b| accept(b)) {
                at += 1;
            } else {
                break;
            }
        }
        let bounded = bytes.get(end).is_none_or(|b| !b.is_ascii_alphanumeric());
        (count, end, bounded)
    };
    let (digits, end, bounded) = run(|b| b.is_ascii_digit());
    if bounded && (digits == 48 || digits == 96) {
        let plain: Vec<u8> = bytes[start..end].iter().copied().filter(u8::is_ascii_digit).collect();
        if word_indexes(&plain).is_some() {
            return Some(start..end);
        }
    }
    if bounded
        && bytes[start..end].iter().all(|b| matches!(b, b'0' | b'1' | b' ' | b'-'))
        && matches!(digits, 128 | 256)
    {
        return Some(start..end);
    }
    let (hex, end, bounded) = run(|b| b.is_ascii_hexdigit());
    (bounded && (hex == 32 || hex == 64)).then_some(start..end)
}

/// The BIP-39 word indexes of a Standard SeedQR digit string, when every 4-digit group is one (0000 to 2047).
fn word_indexes(digits: &[u8]) -> Option<Vec<u16>> {
    digits
        .chunks(4)
        .map(|group| {
            let n = group.iter().fold(0u16, |n, d| n * 10 + u16::from(d - b'0'));
            (n <= 2047).then_some(n)
        })
        .collect()
}

/// Unlabelled Standard SeedQR: a run of exactly 48 or 96 digits, not part of a longer number or word, whose
/// groups are word indexes with a valid BIP-39 checksum and not mostly one index. Groups at or under 2047 come
/// by chance one time in five, so twelve of them in a row (about once in 180 million 48-digit runs) and then a
/// checksum (once in 16 more) leave block heights, amounts, phone numbers and hashes alone.
fn find_seedqr_digits(text: &str, out: &mut Vec<Finding>) {
    const SHORTEST: usize = 48;
    let bytes = text.as_bytes();
    // Every run of 48 digits covers one byte in 48: look at those only, and measure the run around a digit.
    let mut probe = SHORTEST - 1;
    while probe < bytes.len() {
        if !bytes[probe].is_ascii_digit() {
            probe += SHORTEST;
            continue;
        }
        let mut start = probe;
        while start > 0 && bytes[start - 1].is_ascii_digit() {
            start -= 1;
        }
        let mut end = probe + 1;
        while end < bytes.len() && bytes[end].is_ascii_digit() {
            end += 1;
        }
        probe = end + SHORTEST;
        let len = end - start;
        if len != 48 && len != 96 {
            continue;
        }
        let glued = |b: Option<&u8>| b.is_some_and(|b| b.is_ascii_alphanumeric() || *b == b'.');
        if glued(start.checked_sub(1).and_then(|i| bytes.get(i))) || glued(bytes.get(end)) {
            continue;
        }
        let Some(indexes) = word_indexes(&bytes[start..end]) else { continue };
        let mut distinct = indexes.clone();
        distinct.sort_unstable();
        distinct.dedup();
        if distinct.len() * 2 > indexes.len() && valid_checksum(&indexes) {
            push(out, start..end, "seedqr");
        }
    }
}

/// Whether `indexes` (12 to 24 word indexes) carry BIP-39's checksum: the first bits of the SHA-256 of the
/// entropy they spell.
fn valid_checksum(indexes: &[u16]) -> bool {
    if !BIP39_LENGTHS.contains(&indexes.len()) {
        return false;
    }
    let mut bytes = [0u8; 33];
    let (mut acc, mut bits, mut at) = (0u32, 0u32, 0);
    for &value in indexes {
        acc = acc << 11 | u32::from(value);
        bits += 11;
        while bits >= 8 {
            bits -= 8;
            bytes[at] = (acc >> bits) as u8;
            at += 1;
            acc &= (1 << bits) - 1;
        }
    }
    if bits > 0 {
        bytes[at] = (acc << (8 - bits)) as u8;
    }
    let checksum_bits = indexes.len() * 11 / 33;
    let entropy = (indexes.len() * 11 - checksum_bits) / 8;
    let hash = Sha256::digest(&bytes[..entropy]);
    hash[0] >> (8 - checksum_bits) == bytes[entropy] >> (8 - checksum_bits)
}

/// One folded word of the BIP-39 lists: the lists that hold it (a bit per `bip39::Language::ALL` entry) and its
/// index in each.
#[derive(Clone, Copy, Default)]
struct Entry {
    lists: u16,
    index: [u16; 10],
}

/// Every folded word of the ten BIP-39 lists, built once on first need.
static LEXICON: LazyLock<HashMap<String, Entry>> = LazyLock::new(|| {
    let mut words: HashMap<String, Entry> = HashMap::new();
    for (i, language) in bip39::Language::ALL.iter().enumerate().take(10) {
        for (index, word) in (0u16..).zip(language.word_list()) {
            let entry = words.entry(fold(word)).or_default();
            entry.lists |= 1 << i;
            entry.index[i] = index;
        }
    }
    words
});

/// The word as the lists are compared: NFKD, lowercase, Latin combining accents dropped (as `mnemonic.rs` does).
fn fold(word: &str) -> String {
    if word.is_ascii() {
        return word.to_ascii_lowercase();
    }
    word.nfkd().filter(|c| !('\u{300}'..='\u{36f}').contains(c)).flat_map(char::to_lowercase).collect()
}

fn lookup(word: &str) -> Option<Entry> {
    LEXICON.get(&fold(word)).copied()
}

fn is_word_char(c: char) -> bool {
    c.is_alphabetic() || ('\u{300}'..='\u{36f}').contains(&c) || c == '\u{3099}' || c == '\u{309a}'
}

/// List punctuation outside ASCII: the ideographic space and the CJK commas.
fn wide_gap(c: char) -> bool {
    c.is_whitespace() || matches!(c, '，' | '、' | '•')
}

/// A word list after its label: at least [`MIN_LABELLED_WORDS`] words of one BIP-39 list joined by list
/// punctuation or item numbers, of any length; it ends at the first word no list shared by the others holds,
/// at a full stop or at a blank line. Mostly repeated words are not a phrase.
fn word_list(text: &str, start: usize) -> Option<Range<usize>> {
    let bytes = text.as_bytes();
    let (mut at, mut lists, mut words) = (start, u16::MAX, Vec::new());
    let mut gap_start = start;
    while at < bytes.len() && words.len() < 64 {
        let gap = gap_len(bytes, at);
        if gap > 0 {
            at += gap;
            continue;
        }
        let marker = item_marker_len(bytes, at);
        if marker > 0 || bytes[at].is_ascii_digit() {
            at += marker.max(1);
            continue;
        }
        let Some(c) = text[at..].chars().next() else { break };
        if wide_gap(c) {
            at += c.len_utf8();
            continue;
        }
        if !is_word_char(c) || blank_line(&bytes[gap_start..at]) {
            break;
        }
        let len: usize = text[at..].chars().take_while(|&c| is_word_char(c)).map(char::len_utf8).sum();
        let word = &text[at..at + len];
        let Some(entry) = lookup(word).filter(|e| e.lists & lists != 0) else { break };
        lists &= entry.lists;
        words.push((at..at + len, fold(word)));
        at += len;
        gap_start = at;
    }
    if words.len() < MIN_LABELLED_WORDS {
        return None;
    }
    let mut distinct: Vec<&str> = words.iter().map(|(_, w)| w.as_str()).collect();
    distinct.sort_unstable();
    distinct.dedup();
    if distinct.len() * 5 < words.len() * 4 {
        return None;
    }
    Some(words[0].0.start..words[words.len() - 1].0.end)
}

/// One line of a possible seed table: its words (byte ranges) and whether each had an item number before it.
struct Row {
    words: Vec<(Range<usize>, Option<u32>)>,
    /// Words sit in columns: a tab, a bar or two spaces between them.
    aligned: bool,
}

/// Byte classes for the quick look at a line: what a table row may hold, and what makes one (a digit before a
/// word, or a tab, a bar or two spaces between columns).
const ROW_BYTE: u8 = 1;
const ROW_MARK: u8 = 2;
static ROW_CLASSES: [u8; 256] = {
    let mut classes = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        let byte = b as u8;
        classes[b] = if byte.is_ascii_alphabetic()
            || byte >= 0x80
            || matches!(byte, b' ' | b'.' | b')' | b':' | b',' | b'-' | b'*' | b'#' | b'\r')
        {
            ROW_BYTE
        } else if byte.is_ascii_digit() || matches!(byte, b'\t' | b'|') {
            ROW_BYTE | ROW_MARK
        } else {
            0
        };
        b += 1;
    }
    classes
};

/// Whether a line may be a table row, by its bytes alone: it ends in a word or a bar (prose ends in a full stop),
/// a column mark (a number, a tab, a bar, two spaces) comes within its first two dozen bytes, and it holds only
/// row bytes. Most lines fail on their first or last byte.
fn may_be_row(line: &[u8]) -> bool {
    let line = line.trim_ascii_end();
    let Some(&last) = line.last() else { return false };
    if !(6..=240).contains(&line.len()) || !(last.is_ascii_alphabetic() || last == b'|' || last >= 0x80) {
        return false;
    }
    let head = &line[..line.len().min(24)];
    let marked =
        head.iter().any(|&b| ROW_CLASSES[usize::from(b)] & ROW_MARK != 0) || head.windows(2).any(|w| w == b"  ");
    marked && line.iter().all(|&b| ROW_CLASSES[usize::from(b)] != 0)
}

/// A line that can be a table row: nothing but item numbers, words and list punctuation, and at least two
/// words. [`may_be_row`] has passed it, so only candidate lines get here.
fn table_row(text: &str, line: Range<usize>) -> Option<Row> {
    let bytes = text.as_bytes();
    let mut row = Row { words: Vec::new(), aligned: false };
    let mut at = line.start;
    let mut number: Option<u32> = None;
    let mut spaces = 0;
    while at < line.end {
        let b = bytes[at];
        if b == b' ' {
            spaces += 1;
            at += 1;
            continue;
        }
        if b == b'\t' || b == b'|' {
            row.aligned |= !row.words.is_empty();
            at += 1;
            spaces = 0;
            continue;
        }
        if spaces >= 2 && !row.words.is_empty() {
            row.aligned = true;
        }
        spaces = 0;
        if b.is_ascii_digit() {
            let len = bytes[at..line.end].iter().take_while(|b| b.is_ascii_digit()).count();
            let n: u32 = text[at..at + len].parse().ok()?;
            at += len;
            if matches!(bytes.get(at), Some(b'.' | b')' | b':')) && at < line.end {
                at += 1;
            }
            number = Some(n);
            continue;
        }
        if matches!(b, b'-' | b'*' | b'#' | b',' | b'\r') {
            at += 1;
            continue;
        }
        let c = text[at..line.end].chars().next()?;
        if !is_word_char(c) {
            return None;
        }
        let len: usize = text[at..line.end].chars().take_while(|&c| is_word_char(c)).map(char::len_utf8).sum();
        if len > 24 {
            return None;
        }
        row.words.push((at..at + len, number.take()));
        at += len;
    }
    (row.words.len() >= 2).then_some(row)
}

/// Seed tables in columns: a block of consecutive lines that each hold two or more words, all of one BIP-39 list,
/// twelve or more in all. Numbered words (`1. abandon    7. ability`) are a table by themselves; unnumbered ones
/// must sit in columns (tabs, bars, runs of spaces) and either count a BIP-39 length, follow a seed label, or
/// carry the checksum read by rows or by columns. The whole block is redacted, numbers included.
fn find_tables(text: &str, out: &mut Vec<Finding>) {
    // A table has two lines at least; most texts a tool returns are one line.
    if !text.contains('\n') {
        return;
    }
    let mut block: Vec<Row> = Vec::new();
    let mut block_start = 0;
    let mut line_start = 0;
    for line in text.split_inclusive('\n') {
        let line_range = line_start..line_start + line.trim_end_matches(['\n', '\r']).len();
        line_start += line.len();
        let row =
            if may_be_row(&text.as_bytes()[line_range.clone()]) { table_row(text, line_range.clone()) } else { None };
        match row {
            Some(row) => {
                if block.is_empty() {
                    block_start = line_range.start;
                }
                block.push(row);
            }
            None => {
                examine_table(text, block_start, &block, out);
                block.clear();
            }
        }
    }
    examine_table(text, block_start, &block, out);
}

fn examine_table(text: &str, block_start: usize, block: &[Row], out: &mut Vec<Finding>) {
    let total: usize = block.iter().map(|r| r.words.len()).sum();
    if block.len() < 2 || total < MIN_TABLE_WORDS {
        return;
    }
    let mut lists = u16::MAX;
    let mut entries = Vec::with_capacity(total);
    for (range, number) in block.iter().flat_map(|r| &r.words) {
        let Some(entry) = lookup(&text[range.clone()]) else { return };
        lists &= entry.lists;
        if lists == 0 {
            return;
        }
        entries.push((entry, *number));
    }
    let mut distinct: Vec<[u16; 10]> = entries.iter().map(|(e, _)| e.index).collect();
    distinct.sort_unstable();
    distinct.dedup();
    if distinct.len() * 4 < total * 3 {
        return;
    }
    let list = lists.trailing_zeros() as usize;
    let numbered = entries.iter().all(|(_, n)| n.is_some());
    let aligned = block.iter().all(|r| r.aligned);
    let accept = numbered || {
        let labelled = {
            let before = text[..block_start].trim_end().to_ascii_lowercase();
            let last_line = before.rsplit('\n').next().unwrap_or("");
            ["seed", "mnemonic", "recovery", "words", "backup"].iter().any(|w| last_line.contains(w))
        };
        let by_rows: Vec<u16> = entries.iter().map(|(e, _)| e.index[list]).collect();
        let width = block[0].words.len();
        let mut by_columns = Vec::new();
        if block.iter().all(|r| r.words.len() == width) {
            for column in 0..width {
                by_columns.extend((0..block.len()).map(|row| by_rows[row * width + column]));
            }
        }
        aligned
            && (labelled || BIP39_LENGTHS.contains(&total) || valid_checksum(&by_rows) || valid_checksum(&by_columns))
    };
    if accept {
        let first = block[0].words[0].0.start;
        let last = block[block.len() - 1].words.last().map_or(first, |(r, _)| r.end);
        push(out, first..last, "bip39");
    }
}
