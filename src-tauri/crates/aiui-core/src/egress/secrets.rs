//! G-B1 detectors: where the secret shapes a node holds sit in a text, as byte ranges with a kind.

use std::ops::Range;
use std::sync::LazyLock;

use regex::Regex;

use super::mnemonic;
use crate::Secret;

/// One secret found in a text: the bytes to redact and the kind to name in their place.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Finding {
    pub range: Range<usize>,
    pub kind: String,
}

/// A secret shape. `group` is the capture to redact, so context such as `rpcpassword=` stays readable.
struct Shape {
    kind: &'static str,
    re: Regex,
    group: usize,
    accept: fn(&str) -> bool,
}

fn any(_: &str) -> bool {
    true
}

/// A WIF key is random base58, so it mixes digits, upper and lower case; identifiers and hex of the same
/// length almost never do.
fn mixed_base58(s: &str) -> bool {
    let body = &s[1..];
    body.bytes().any(|b| b.is_ascii_digit())
        && body.bytes().any(|b| b.is_ascii_lowercase())
        && body.bytes().any(|b| b.is_ascii_uppercase())
}

const B58: &str = "[1-9A-HJ-NP-Za-km-z]";

fn shape(kind: &'static str, pattern: &str, group: usize, accept: fn(&str) -> bool) -> Shape {
    let pattern = pattern.replace("B58", B58);
    Shape { kind, re: Regex::new(&pattern).unwrap(), group, accept }
}

/// The shapes, most specific first. Lengths are lower bounds rather than exact so that a key cut short by a
/// log line or a terminal still counts: a partial key is still a leak.
static SHAPES: LazyLock<Vec<Shape>> = LazyLock::new(|| {
    vec![
        // Extended private keys: every BIP-32/49/84 and multisig version, mainnet and testnet.
        shape("xprv", r"[xtyzuvYZUV]prvB58{60,}", 0, any),
        shape("nsec", r"(?i)\bnsec1[qpzry9x8gf2tvdw0s3jn54khce6mua7l]{50,}", 0, any),
        shape("cashu", r"\bcashu[AB][A-Za-z0-9_+/=\-]{20,}", 0, any),
        // An LND macaroon starts with the bytes 02 01 03 "lnd" whether it is shown as hex or as base64.
        shape("macaroon", r"(?i)0201036c6e64[0-9a-f]{20,}", 0, any),
        shape("macaroon", r"AgEDbG5k[A-Za-z0-9+/_\-]{20,}={0,2}", 0, any),
        // Other macaroons (loop, pool, tapd) have other locations, so a long hex run named as one counts too.
        shape("macaroon", r"(?is)macaroon.{0,60}?\b([0-9a-f]{100,})\b", 1, any),
        shape("rpcauth", r"(?i)\brpcauth\s*=\s*([^\s\x22']+)", 1, any),
        shape("rpcauth", r#"(?i)rpc[_-]?pass(?:word)?["']?\s*[=:]\s*["']?([^\s"',;}]+)"#, 1, any),
        // A key block cut before its END line is still redacted to the end of the text.
        shape(
            "pem",
            r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----(?s:.*?-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|.*)",
            0,
            any,
        ),
        shape("api-key", r"\bsk-[A-Za-z0-9_\-]{20,}", 0, any),
        shape("otpauth", r#"(?i)otpauth(?:-migration)?://[^\s"'<>]+"#, 0, any),
        shape("onion-key", r"ED25519-V3:[A-Za-z0-9+/]{40,}={0,2}", 0, any),
        // The key file itself: a 32-byte header, then 64 key bytes that a lossy read turns into up to 64 chars.
        shape("onion-key", r"(?s)== ed25519v1-secret: type0 ==.{0,67}", 0, any),
        shape("onion-key", r"PT0gZWQyNTUxOXYxLXNlY3JldDogdHlwZTAgPT0[A-Za-z0-9+/]*={0,2}", 0, any),
        shape("onion-key", r"(?i)3d3d206564323535313976312d7365637265743a207479706530203d3d[0-9a-f]*", 0, any),
        // WIF: 5/9 (uncompressed) take 51 chars, K/L/c (compressed) 52; 9 and c are testnet and regtest.
        shape("wif", r"\b(?:[59]B58{50}|[KLc]B58{51})\b", 0, mixed_base58),
    ]
});

/// Finds every secret shape in `text`, plus BIP-39 phrases. Ranges may overlap; [`merge`] settles them.
pub(super) fn find_shapes(text: &str, out: &mut Vec<Finding>) {
    for shape in SHAPES.iter() {
        for caps in shape.re.captures_iter(text) {
            let Some(m) = caps.get(shape.group) else { continue };
            if (shape.accept)(m.as_str()) {
                out.push(Finding { range: m.range(), kind: shape.kind.to_owned() });
            }
        }
    }
    for range in mnemonic::find(text) {
        out.push(Finding { range, kind: "bip39".to_owned() });
    }
}

/// A value the caller knows is secret, with every form it may take inside a text.
pub(super) struct Known {
    kind: String,
    forms: Vec<Secret<String>>,
}

impl Known {
    /// Returns `None` for an empty value: it would match everywhere and hide nothing.
    pub fn new(label: &str, value: &str) -> Option<Self> {
        if value.trim().is_empty() {
            return None;
        }
        let once = json_escape(value, false);
        let candidates = [
            value.to_owned(),
            once.clone(),
            json_escape(value, true),
            // A JSON document carried as a string inside another JSON document (tool results often are).
            json_escape(&once, false),
            percent_encode(value),
        ];
        let mut forms: Vec<Secret<String>> = Vec::new();
        for form in candidates {
            if !forms.iter().any(|f| f.expose() == &form) {
                forms.push(Secret::new(form));
            }
        }
        Some(Self { kind: format!("known:{label}"), forms })
    }

    pub fn find(&self, text: &str, out: &mut Vec<Finding>) {
        for form in &self.forms {
            for (start, found) in text.match_indices(form.expose().as_str()) {
                out.push(Finding { range: start..start + found.len(), kind: self.kind.clone() });
            }
        }
    }
}

/// The body of a JSON string literal for `value`, as serde_json writes it, or with every non-ASCII char as
/// `\uXXXX` the way Python's `json.dumps` does by default.
fn json_escape(value: &str, ascii: bool) -> String {
    let quoted = serde_json::Value::String(value.to_owned()).to_string();
    let body = &quoted[1..quoted.len() - 1];
    if !ascii {
        return body.to_owned();
    }
    let mut out = String::with_capacity(body.len());
    for c in body.chars() {
        if c.is_ascii() {
            out.push(c);
        } else {
            let mut units = [0u16; 2];
            for unit in c.encode_utf16(&mut units) {
                out.push_str(&format!("\\u{unit:04x}"));
            }
        }
    }
    out
}

/// The value as it appears in a URL (a password in `user:pass@host`, a query parameter).
fn percent_encode(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for b in value.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// Sorts findings and folds overlapping ones into one, keeping the kind of the one that starts first (the
/// longest among those, and a known value before a shape on a tie: it names the secret better).
pub(super) fn merge(mut findings: Vec<Finding>) -> Vec<Finding> {
    findings.sort_by(|a, b| {
        (a.range.start, std::cmp::Reverse(a.range.end), !a.kind.starts_with("known:")).cmp(&(
            b.range.start,
            std::cmp::Reverse(b.range.end),
            !b.kind.starts_with("known:"),
        ))
    });
    let mut merged: Vec<Finding> = Vec::with_capacity(findings.len());
    for f in findings {
        match merged.last_mut() {
            Some(last) if f.range.start < last.range.end => last.range.end = last.range.end.max(f.range.end),
            _ => merged.push(f),
        }
    }
    merged
}

/// `text` with each finding replaced by `[redacted:<kind>]`. `findings` must be merged.
pub(super) fn redact(text: &str, findings: &[Finding]) -> String {
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for f in findings {
        out.push_str(&text[at..f.range.start]);
        out.push_str("[redacted:");
        out.push_str(&f.kind);
        out.push(']');
        at = f.range.end;
    }
    out.push_str(&text[at..]);
    out
}
