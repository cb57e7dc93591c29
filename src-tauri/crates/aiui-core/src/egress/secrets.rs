//! G-B1 detectors: where the secret shapes a node holds sit in a text, as byte ranges with a kind.

use std::ops::Range;
use std::sync::LazyLock;

use regex::{Regex, RegexSet, RegexSetBuilder};

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

/// Word boundaries are ASCII ones: a Unicode `\b` makes the regex engine leave its fast DFA on any non-ASCII
/// text, and every shape here is ASCII anyway.
fn shape(kind: &'static str, pattern: &str, group: usize, accept: fn(&str) -> bool) -> Shape {
    let pattern = pattern.replace("B58", B58).replace(r"\b", r"(?-u:\b)");
    Shape { kind, re: Regex::new(&pattern).unwrap(), group, accept }
}

/// Words that name a secret value in a config file, an environment or a URL query: `password=`, `DB_PASS:`,
/// `"client_secret":`, `X-Api-Key:`. A key only has to end in one (`POSTGRES_PASSWORD`, `nostr_secret`), and
/// must end there (`password_file=` names a path, `max_tokens=` a number).
const SECRET_KEY_NAMES: &str = r"(?:pass(?:word|wd|phrase)?|secret|token|api[_-]?key|apikey|(?:access|private|secret|encryption|auth|hmac|master|signing|admin|in)[_-]?key|privkey|credentials?)";

/// A value in a config line that is a placeholder, a switch or an already redacted secret, not a secret.
fn config_value(value: &str) -> bool {
    const NOT_SECRETS: [&str; 14] = [
        "true",
        "false",
        "null",
        "none",
        "nil",
        "yes",
        "no",
        "on",
        "off",
        "required",
        "optional",
        "empty",
        "undefined",
        "disabled",
    ];
    value.chars().count() >= 3
        && !value.starts_with(['[', '$', '<', '%', '{', '*'])
        && !NOT_SECRETS.iter().any(|n| value.eq_ignore_ascii_case(n))
}

/// Not text the screen wrote itself: a second screening must find nothing in `[redacted:...]`.
fn not_redacted(value: &str) -> bool {
    !value.starts_with("[redacted:")
}

fn has_digit(value: &str) -> bool {
    value.bytes().any(|b| b.is_ascii_digit())
}

/// An LNURL is a bech32-encoded URL; it is bearer money only when that URL is a withdraw request.
fn lnurl_withdraw(lnurl: &str) -> bool {
    const CHARSET: &[u8] = b"qpzry9x8gf2tvdw0s3jn54khce6mua7l";
    let lower = lnurl.to_ascii_lowercase();
    let Some(data) = lower.strip_prefix("lnurl1") else { return false };
    let Some(data) = data.get(..data.len().saturating_sub(6)) else { return false };
    let (mut acc, mut bits, mut url) = (0u32, 0u32, Vec::with_capacity(data.len() * 5 / 8));
    for b in data.bytes() {
        let Some(v) = CHARSET.iter().position(|&c| c == b) else { return false };
        acc = (acc << 5) | v as u32;
        bits += 5;
        if bits >= 8 {
            bits -= 8;
            url.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    String::from_utf8_lossy(&url).to_ascii_lowercase().contains("withdraw")
}

/// The shapes, most specific first. Lengths are lower bounds rather than exact so that a key cut short by a
/// log line or a terminal still counts: a partial key is still a leak. Every entry of the inventory
/// (`inventory.rs`) names the shape that catches it here, or the mnemonic finder.
///
/// `group` is the first capture to try; a pattern with alternative captures (a quoted or a bare value) redacts
/// the first one that took part. The `regex` crate runs in linear time, so no pattern can backtrack.
static SHAPES: LazyLock<Vec<Shape>> = LazyLock::new(|| {
    let keys = SECRET_KEY_NAMES;
    vec![
        // Extended private keys: every BIP-32/49/84 and multisig version, mainnet and testnet.
        shape("xprv", r"[xtyzuvYZUV]prvB58{60,}", 0, any),
        // codex32 (BIP-93): a seed or an hsm_secret share, `ms1` then bech32 data.
        shape("codex32", r"(?i)\bms1[qpzry9x8gf2tvdw0s3jn54khce6mua7l]{44,}", 0, any),
        shape("nsec", r"(?i)\bn(?:sec|cryptsec)1[qpzry9x8gf2tvdw0s3jn54khce6mua7l]{50,}", 0, any),
        shape("nostr-connect", r#"(?i)\b(?:bunker|nostrconnect)://[^\s"'<>]*?[?&]secret=[^\s"'<>]+"#, 0, any),
        shape("nwc", r#"(?i)\bnostr\+?walletconnect:(?://)?[^\s"'<>]+"#, 0, any),
        shape("cashu", r"\bcashu[AB][A-Za-z0-9_+/=%\-]{20,}", 0, any),
        shape(
            "fedimint",
            r#"(?i)(?:reissue|validate|oob[_-]?notes|ecash|notes)\\?["']?\s*[=:]?\s*\\?["']?([A-Za-z0-9+/_\-]{120,}={0,2})"#,
            1,
            any,
        ),
        shape("lnurlw", r#"(?i)\blnurlw://[^\s"'<>]+"#, 0, any),
        shape("lnurlw", r"(?i)\blnurl1[qpzry9x8gf2tvdw0s3jn54khce6mua7l]{20,}", 0, lnurl_withdraw),
        shape("lnbits", r"[?&]usr=([0-9a-f]{32})\b", 1, any),
        shape("lndconnect", r#"(?i)\blndconnect://[^\s"'<>]+"#, 0, any),
        // An LND macaroon starts with the bytes 02 01 03 "lnd" whether it is shown as hex or as base64.
        shape("macaroon", r"(?i)0201036c6e64[0-9a-f]{20,}", 0, any),
        shape("macaroon", r"AgEDbG5k[A-Za-z0-9+/_\-]{20,}={0,2}", 0, any),
        // Other macaroons (loop, pool, tapd) have other locations, so a long run named as one counts too.
        shape("macaroon", r"(?is)macaroon.{0,60}?\b([0-9a-f]{100,})\b", 1, any),
        shape("macaroon", r"(?is)macaroon.{0,60}?\b([A-Za-z0-9+/_\-]{100,}={0,2})", 1, any),
        shape("rune", r#"(?i)rune\\?["']?\s*[=:]\s*\\?["']?([A-Za-z0-9_\-]{40,}={0,2})"#, 1, any),
        shape("rpcauth", r"(?i)\brpcauth\s*=\s*([^\s\x22']+)", 1, not_redacted),
        shape("rpcauth", r#"(?i)rpc[_-]?pass(?:word)?\\?["']?\s*[=:]\s*\\?["']?([^\s"'\\,;}]+)"#, 1, not_redacted),
        shape("rpcauth", r"__cookie__:([0-9a-fA-F]{16,})", 1, any),
        // A key block cut before its END line is still redacted to the end of the text.
        shape(
            "pem",
            r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----(?s:.*?-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|.*)",
            0,
            any,
        ),
        shape("api-key", r"\bsk-[A-Za-z0-9_\-]{20,}", 0, any),
        shape(
            "api-key",
            r"\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{40,}|glpat-[A-Za-z0-9_\-]{20,})",
            0,
            any,
        ),
        shape("api-key", r"\bxox[abposr]-[A-Za-z0-9\-]{10,}", 0, any),
        shape(
            "api-key",
            r"\b(?:AIza[0-9A-Za-z_\-]{35}|(?:AKIA|ASIA)[0-9A-Z]{16}|[rs]k_(?:live|test)_[A-Za-z0-9]{20,}|hf_[A-Za-z0-9]{30,}|gsk_[A-Za-z0-9]{40,}|tskey-[a-z]+-[A-Za-z0-9\-]{10,})",
            0,
            any,
        ),
        // A Telegram bot token: the bot's number, a colon, then 35 characters starting AA.
        shape("api-key", r"\b\d{8,10}:AA[A-Za-z0-9_\-]{33}\b", 0, any),
        shape("token", r"\beyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]*", 0, any),
        shape(
            "token",
            r#"(?i)authorization\\?["']?\s*[:=]\s*\\?["']?(?:(?:bearer|basic|token|digest|macaroon|l402|lsat)\s+)?([A-Za-z0-9._~+/:=\-]{8,})"#,
            1,
            config_value,
        ),
        shape("token", r"(?i)\bbearer\s+([A-Za-z0-9._~+/\-]{20,}=*)", 1, has_digit),
        shape("otpauth", r#"(?i)otpauth(?:-migration)?://[^\s"'<>]+"#, 0, any),
        shape("age-key", r"\bAGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}", 0, any),
        shape("onion-key", r"ED25519-V3:[A-Za-z0-9+/]{40,}={0,2}", 0, any),
        // The key file itself: a 32-byte header, then 64 key bytes that a lossy read turns into up to 64 chars.
        shape("onion-key", r"(?s)== ed25519v1-secret: type0 ==.{0,67}", 0, any),
        shape("onion-key", r"PT0gZWQyNTUxOXYxLXNlY3JldDogdHlwZTAgPT0[A-Za-z0-9+/]*={0,2}", 0, any),
        shape("onion-key", r"(?i)3d3d206564323535313976312d7365637265743a207479706530203d3d[0-9a-f]*", 0, any),
        // A client-authorisation key (`.auth_private`): the onion, then the x25519 private key in base32.
        shape("onion-key", r"(?i)\b[a-z2-7]{56}:descriptor:x25519:([a-z2-7]{52})", 1, any),
        // WIF: 5/9 (uncompressed) take 51 chars, K/L/c (compressed) 52; 9 and c are testnet and regtest.
        shape("wif", r"\b(?:[59]B58{50}|[KLc]B58{51})\b", 0, mixed_base58),
        shape(
            "hex-key",
            r#"(?i)(?:priv(?:ate)?[_-]?key|secret[_-]?key|seckey|privkey|hsm[_-]?secret|master[_-]?key|signing[_-]?key|nostr[_-]?(?:priv|secret|sk))\w*\\?["']?\s*[=:]\s*\\?["']?((?:0x)?[0-9a-fA-F]{64})\b"#,
            1,
            any,
        ),
        // Passwords in URLs (RPC, databases, caches): `scheme://user:password@host`.
        shape("url-password", r#"://[^\s/@:"'<>\[\]]*:([^\s/@"'<>]+)@"#, 1, not_redacted),
        // Commands that take a password as an argument.
        shape(
            "password",
            r#"(?i)\b(?:walletpassphrase(?:change)?|encryptwallet)\s+(?:"([^"\n]+)"|'([^'\n]+)'|([^\s"']+))"#,
            1,
            config_value,
        ),
        shape("password", r#"(?i)\bAUTHENTICATE\s+(?:"([^"\n]+)"|([0-9a-f]{16,}))"#, 1, config_value),
        shape(
            "password",
            &format!(r#"(?i)\s--?[\w\-]*?{keys}(?:=|\s+)(?:"([^"\n]+)"|'([^'\n]+)'|([^\s"'\-][^\s"']*))"#),
            1,
            config_value,
        ),
        // Config lines: `key=value` anywhere (ini, env, URL query), `"key": value` anywhere (JSON, also escaped
        // inside a JSON string), `key: value` at the start of a line (YAML, HTTP headers).
        shape(
            "password",
            &format!(r#"(?i){keys}\\?["']?\s*=\s*(?:"([^"\n]+)"|'([^'\n]+)'|([^\s"'&;,)]+))"#),
            1,
            config_value,
        ),
        shape(
            "password",
            &format!(r#"(?i)["'][\w\-]*{keys}\\?["']?\s*:\s*(?:\\?"([^"\\\n]+)|'([^'\n]+)'|([^\s"',}}\]]+))"#),
            1,
            config_value,
        ),
        shape(
            "password",
            &format!(
                r#"(?im)^[ \t]*(?:-[ \t]+)?(?:export[ \t]+)?[\w.\-]*{keys}[ \t]*:[ \t]*(?:"([^"\n]+)"|'([^'\n]+)'|([^\s"'#,]+))"#
            ),
            1,
            config_value,
        ),
    ]
});

/// Every shape as one set, in [`SHAPES`] order. Its lazy DFA gets room for the states of all shapes at once:
/// with the default cache it rebuilt states on every text and ran slower than the shapes one by one.
static SHAPE_SET: LazyLock<RegexSet> = LazyLock::new(|| {
    RegexSetBuilder::new(SHAPES.iter().map(|s| s.re.as_str()))
        .dfa_size_limit(64 << 20)
        .build()
        .expect("the shapes compile")
});

/// Kinds that name where a value sits rather than what it is; a specific shape over the same bytes names the
/// secret better (`token=cashuA...` is a Cashu token).
fn generic(kind: &str) -> bool {
    matches!(kind, "password" | "token")
}

/// Finds every secret shape in `text`, plus seed phrases. Ranges may overlap; [`merge`] settles them.
pub(super) fn find_shapes(text: &str, out: &mut Vec<Finding>) {
    // One pass of all shapes at once says which to run for their captures: most texts hold none, and running
    // each shape's own search (and its capture buffers) on every string of a body cost more than the rest.
    for shape in SHAPE_SET.matches(text).iter().map(|i| &SHAPES[i]) {
        for caps in shape.re.captures_iter(text) {
            let Some(m) = (shape.group..caps.len()).find_map(|g| caps.get(g)) else { continue };
            if (shape.accept)(m.as_str()) {
                out.push(Finding { range: m.range(), kind: shape.kind.to_owned() });
            }
        }
    }
    for (range, kind) in mnemonic::find(text) {
        out.push(Finding { range, kind: kind.to_owned() });
    }
    super::labelled::find(text, out);
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

/// Sorts findings and folds overlapping ones into one, keeping the kind of the one that starts first (a
/// specific kind before a generic one, then the longest, and a known value before a shape on a tie: it names
/// the secret better).
pub(super) fn merge(mut findings: Vec<Finding>) -> Vec<Finding> {
    findings.sort_by(|a, b| {
        let key = |f: &Finding| {
            (f.range.start, generic(&f.kind), std::cmp::Reverse(f.range.end), !f.kind.starts_with("known:"))
        };
        key(a).cmp(&key(b))
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
