//! G-B1 detectors: where the secret shapes a node holds sit in a text, as byte ranges with a kind.

use std::ops::Range;
use std::sync::LazyLock;

use aho_corasick::{AhoCorasick, AhoCorasickKind};
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
    gate: Gate,
    /// Every match is a whole run of ASCII word bytes (`\b` on both sides) made of the gate's run class, at most
    /// this many bytes long, so the shape is searched only in the word runs that hold such a run and are no
    /// longer ([`word_runs_holding`]); a WIF key has no literal to look for, and hex hashes and other keys open its
    /// gate in most node logs.
    whole_words: Option<usize>,
    /// The shape is a label, up to some chars of anything, then a run of the gate's class (`macaroon: 0201...`),
    /// and is searched without its regex ([`find_run_after_label`]). Its regex's lazy DFA gives up on the window's
    /// counted chars and the run's counted bytes, and falls back to a slower engine: on the bench's body with a
    /// secret in every result, the two such shapes cost more than all other shapes together.
    run_after_label: Option<RunAfterLabel>,
}

/// A shape `(?is)<label>.{0,<window>}?\b(<run>{<min>,}<end>)`, with the run's class and length the gate's; the group
/// is the run and its end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct RunAfterLabel {
    label: &'static str,
    window: usize,
    end: RunEnd,
}

/// What closes a [`RunAfterLabel`]'s run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum RunEnd {
    /// `\b`: the run must end at a word boundary.
    Boundary,
    /// `={0,2}`: up to two `=` of padding, which the group takes.
    Padding,
}

/// What a text must hold for a shape to match in it, checked before the shape's own search: a shape runs only on
/// texts that have one of its `words` (compared ASCII-case-insensitively) and, when it names one, a run of at
/// least that many bytes of a class. Every match of the shape contains both, so skipping a text that lacks them
/// changes nothing; `find_shapes_unfiltered` (tests) checks that over the corpus.
#[derive(Clone, Copy)]
struct Gate {
    words: &'static [&'static str],
    run: Option<(Class, usize)>,
    /// Whether the word found at `start..end` of `text` can be part of a match, for shapes whose words are
    /// common in prose (`key`, `pass`, `://`): what must surround the word in any match.
    around: Option<fn(text: &str, start: usize, end: usize) -> bool>,
}

/// Byte classes of the long random runs shapes look for; one pass over a text measures the longest run of each.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Class {
    /// `[0-9A-Fa-f]`.
    Hex,
    /// Bitcoin's base58 alphabet.
    Base58,
    /// `[A-Za-z0-9+/_-]`: base64 in both alphabets, without padding.
    Base64,
}

const fn words(words: &'static [&'static str]) -> Gate {
    Gate { words, run: None, around: None }
}

const fn run(class: Class, min: usize) -> Gate {
    Gate { words: &[], run: Some((class, min)), around: None }
}

const fn words_and_run(words: &'static [&'static str], class: Class, min: usize) -> Gate {
    Gate { words, run: Some((class, min)), around: None }
}

const fn words_around(words: &'static [&'static str], around: fn(&str, usize, usize) -> bool) -> Gate {
    Gate { words, run: None, around: Some(around) }
}

/// Where the secret key name whose word ends at `end` may end: [`SECRET_KEY_NAMES`] extends only `pass` and
/// `credential` past their word.
fn key_name_ends(text: &str, start: usize, end: usize) -> impl Iterator<Item = usize> + '_ {
    let word = &text.as_bytes()[start..end];
    let suffixes: &[&str] = if word.eq_ignore_ascii_case(b"pass") {
        &["", "word", "wd", "phrase"]
    } else if word.eq_ignore_ascii_case(b"credential") {
        &["", "s"]
    } else {
        &[""]
    };
    suffixes.iter().filter_map(move |suffix| {
        let after = end + suffix.len();
        let found = text.as_bytes().get(end..after)?;
        found.eq_ignore_ascii_case(suffix.as_bytes()).then_some(after)
    })
}

/// The char at `at` after `\\?["']?\s*`, as the config shapes skip between a key name and its `=` or `:`.
fn after_key_separator(text: &str, mut at: usize) -> Option<char> {
    let bytes = text.as_bytes();
    if bytes.get(at) == Some(&b'\\') {
        at += 1;
    }
    if matches!(bytes.get(at), Some(b'"' | b'\'')) {
        at += 1;
    }
    text.get(at..)?.chars().find(|c| !c.is_whitespace())
}

/// `key=value` and `"key": value`: the key name is followed by `=` or `:`.
fn key_then_separator(text: &str, start: usize, end: usize) -> bool {
    key_name_ends(text, start, end).any(|at| matches!(after_key_separator(text, at), Some('=' | ':')))
}

/// `--password value`: the key name is followed by `=` or whitespace, and its word opens with `-` after
/// whitespace. A non-ASCII char on the way may be a Unicode word or space char: the shape runs.
fn flag_then_value(text: &str, start: usize, end: usize) -> bool {
    let bytes = text.as_bytes();
    let value_follows = key_name_ends(text, start, end)
        .any(|at| text.get(at..).and_then(|rest| rest.chars().next()).is_some_and(|c| c == '=' || c.is_whitespace()));
    if !value_follows {
        return false;
    }
    let mut first = start;
    while first > 0 && (bytes[first - 1].is_ascii_alphanumeric() || matches!(bytes[first - 1], b'_' | b'-')) {
        first -= 1;
    }
    let Some(before) = first.checked_sub(1).map(|at| bytes[at]) else { return false };
    !before.is_ascii() || ((before.is_ascii_whitespace() || before == b'\x0b') && bytes[first] == b'-')
}

/// `scheme://user:password@`: after `://`, a user without `/@:`, a colon, a password without `/@`, an `@`.
/// Non-ASCII chars count as allowed, which runs the shape where a Unicode space would have stopped it.
fn url_with_password(text: &str, _start: usize, end: usize) -> bool {
    let rest = &text.as_bytes()[end..];
    let stop = |b: u8, extra: &[u8]| b.is_ascii_whitespace() || b"/@\"'<>".contains(&b) || extra.contains(&b);
    let Some(colon) = rest.iter().position(|&b| stop(b, b":[]\x0b")) else { return false };
    if rest[colon] != b':' {
        return false;
    }
    let password = &rest[colon + 1..];
    let Some(at) = password.iter().position(|&b| stop(b, b"\x0b")) else { return false };
    at > 0 && password[at] == b'@'
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
fn shape(kind: &'static str, pattern: &str, group: usize, accept: fn(&str) -> bool, gate: Gate) -> Shape {
    let pattern = pattern.replace("B58", B58).replace(r"\b", r"(?-u:\b)");
    Shape { kind, re: Regex::new(&pattern).unwrap(), group, accept, gate, whole_words: None, run_after_label: None }
}

/// Words that name a secret value in a config file, an environment or a URL query: `password=`, `DB_PASS:`,
/// `"client_secret":`, `X-Api-Key:`. A key only has to end in one (`POSTGRES_PASSWORD`, `nostr_secret`), and
/// must end there (`password_file=` names a path, `max_tokens=` a number).
const SECRET_KEY_NAMES: &str = r"(?:pass(?:word|wd|phrase)?|secret|token|api[_-]?key|apikey|(?:access|private|secret|encryption|auth|hmac|master|signing|admin|in)[_-]?key|privkey|credentials?)";

/// A word each of [`SECRET_KEY_NAMES`] contains, for the gate of the shapes built on them.
const SECRET_KEY_WORDS: &[&str] = &["pass", "secret", "token", "key", "credential"];

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
        shape("xprv", r"[xtyzuvYZUV]prvB58{60,}", 0, any, words(&["prv"])),
        // codex32 (BIP-93): a seed or an hsm_secret share, `ms1` then bech32 data.
        shape("codex32", r"(?i)\bms1[qpzry9x8gf2tvdw0s3jn54khce6mua7l]{44,}", 0, any, words(&["ms1"])),
        shape(
            "nsec",
            r"(?i)\bn(?:sec|cryptsec)1[qpzry9x8gf2tvdw0s3jn54khce6mua7l]{50,}",
            0,
            any,
            words(&["nsec1", "ncryptsec1"]),
        ),
        shape(
            "nostr-connect",
            r#"(?i)\b(?:bunker|nostrconnect)://[^\s"'<>]*?[?&]secret=[^\s"'<>]+"#,
            0,
            any,
            words(&["secret="]),
        ),
        shape("nwc", r#"(?i)\bnostr\+?walletconnect:(?://)?[^\s"'<>]+"#, 0, any, words(&["walletconnect:"])),
        shape("cashu", r"\bcashu[AB][A-Za-z0-9_+/=%\-]{20,}", 0, any, words(&["cashu"])),
        shape(
            "fedimint",
            r#"(?i)(?:reissue|validate|oob[_-]?notes|ecash|notes)\\?["']?\s*[=:]?\s*\\?["']?([A-Za-z0-9+/_\-]{120,}={0,2})"#,
            1,
            any,
            words_and_run(&["reissue", "validate", "oob", "ecash", "notes"], Class::Base64, 120),
        ),
        shape("lnurlw", r#"(?i)\blnurlw://[^\s"'<>]+"#, 0, any, words(&["lnurlw://"])),
        shape("lnurlw", r"(?i)\blnurl1[qpzry9x8gf2tvdw0s3jn54khce6mua7l]{20,}", 0, lnurl_withdraw, words(&["lnurl1"])),
        shape("lnbits", r"[?&]usr=([0-9a-f]{32})\b", 1, any, words(&["usr="])),
        shape("lndconnect", r#"(?i)\blndconnect://[^\s"'<>]+"#, 0, any, words(&["lndconnect://"])),
        // An LND macaroon starts with the bytes 02 01 03 "lnd" whether it is shown as hex or as base64.
        shape("macaroon", r"(?i)0201036c6e64[0-9a-f]{20,}", 0, any, words(&["0201036c6e64"])),
        shape("macaroon", r"AgEDbG5k[A-Za-z0-9+/_\-]{20,}={0,2}", 0, any, words(&["AgEDbG5k"])),
        // Other macaroons (loop, pool, tapd) have other locations, so a long run named as one counts too.
        Shape {
            run_after_label: Some(RunAfterLabel { label: "macaroon", window: 60, end: RunEnd::Boundary }),
            ..shape(
                "macaroon",
                r"(?is)macaroon.{0,60}?\b([0-9a-f]{100,})\b",
                1,
                any,
                words_and_run(&["macaroon"], Class::Hex, 100),
            )
        },
        Shape {
            run_after_label: Some(RunAfterLabel { label: "macaroon", window: 60, end: RunEnd::Padding }),
            ..shape(
                "macaroon",
                r"(?is)macaroon.{0,60}?\b([A-Za-z0-9+/_\-]{100,}={0,2})",
                1,
                any,
                words_and_run(&["macaroon"], Class::Base64, 100),
            )
        },
        shape(
            "rune",
            r#"(?i)rune\\?["']?\s*[=:]\s*\\?["']?([A-Za-z0-9_\-]{40,}={0,2})"#,
            1,
            any,
            words_and_run(&["rune"], Class::Base64, 40),
        ),
        shape("rpcauth", r"(?i)\brpcauth\s*=\s*([^\s\x22']+)", 1, not_redacted, words(&["rpcauth"])),
        shape(
            "rpcauth",
            r#"(?i)rpc[_-]?pass(?:word)?\\?["']?\s*[=:]\s*\\?["']?([^\s"'\\,;}]+)"#,
            1,
            not_redacted,
            words(&["rpcpass", "rpc_pass", "rpc-pass"]),
        ),
        shape("rpcauth", r"__cookie__:([0-9a-fA-F]{16,})", 1, any, words(&["__cookie__:"])),
        // A key block cut before its END line is still redacted to the end of the text.
        shape(
            "pem",
            r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----(?s:.*?-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|.*)",
            0,
            any,
            words(&["-----BEGIN "]),
        ),
        shape("api-key", r"\bsk-[A-Za-z0-9_\-]{20,}", 0, any, words(&["sk-"])),
        shape(
            "api-key",
            r"\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{40,}|glpat-[A-Za-z0-9_\-]{20,})",
            0,
            any,
            words(&["ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_", "glpat-"]),
        ),
        shape("api-key", r"\bxox[abposr]-[A-Za-z0-9\-]{10,}", 0, any, words(&["xox"])),
        shape(
            "api-key",
            r"\b(?:AIza[0-9A-Za-z_\-]{35}|(?:AKIA|ASIA)[0-9A-Z]{16}|[rs]k_(?:live|test)_[A-Za-z0-9]{20,}|hf_[A-Za-z0-9]{30,}|gsk_[A-Za-z0-9]{40,}|tskey-[a-z]+-[A-Za-z0-9\-]{10,})",
            0,
            any,
            words(&["AIza", "AKIA", "ASIA", "k_live_", "k_test_", "hf_", "gsk_", "tskey-"]),
        ),
        // A Telegram bot token: the bot's number, a colon, then 35 characters starting AA.
        shape("api-key", r"\b\d{8,10}:AA[A-Za-z0-9_\-]{33}\b", 0, any, words(&[":AA"])),
        shape("token", r"\beyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]*", 0, any, words(&["eyJ"])),
        shape(
            "token",
            r#"(?i)authorization\\?["']?\s*[:=]\s*\\?["']?(?:(?:bearer|basic|token|digest|macaroon|l402|lsat)\s+)?([A-Za-z0-9._~+/:=\-]{8,})"#,
            1,
            config_value,
            words(&["authorization"]),
        ),
        shape("token", r"(?i)\bbearer\s+([A-Za-z0-9._~+/\-]{20,}=*)", 1, has_digit, words(&["bearer"])),
        shape("otpauth", r#"(?i)otpauth(?:-migration)?://[^\s"'<>]+"#, 0, any, words(&["otpauth"])),
        shape(
            "age-key",
            r"\bAGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}",
            0,
            any,
            words(&["AGE-SECRET-KEY-1"]),
        ),
        shape("onion-key", r"ED25519-V3:[A-Za-z0-9+/]{40,}={0,2}", 0, any, words(&["ED25519-V3:"])),
        // The key file itself: a 32-byte header, then 64 key bytes that a lossy read turns into up to 64 chars.
        shape(
            "onion-key",
            r"(?s)== ed25519v1-secret: type0 ==.{0,67}",
            0,
            any,
            words(&["== ed25519v1-secret: type0 =="]),
        ),
        shape(
            "onion-key",
            r"PT0gZWQyNTUxOXYxLXNlY3JldDogdHlwZTAgPT0[A-Za-z0-9+/]*={0,2}",
            0,
            any,
            words(&["PT0gZWQyNTUxOXYxLXNlY3JldDogdHlwZTAgPT0"]),
        ),
        shape(
            "onion-key",
            r"(?i)3d3d206564323535313976312d7365637265743a207479706530203d3d[0-9a-f]*",
            0,
            any,
            words(&["3d3d206564323535313976312d7365637265743a207479706530203d3d"]),
        ),
        // A client-authorisation key (`.auth_private`): the onion, then the x25519 private key in base32.
        shape(
            "onion-key",
            r"(?i)\b[a-z2-7]{56}:descriptor:x25519:([a-z2-7]{52})",
            1,
            any,
            words(&[":descriptor:x25519:"]),
        ),
        // WIF: 5/9 (uncompressed) take 51 chars, K/L/c (compressed) 52; 9 and c are testnet and regtest.
        Shape {
            whole_words: Some(52),
            ..shape("wif", r"\b(?:[59]B58{50}|[KLc]B58{51})\b", 0, mixed_base58, run(Class::Base58, 51))
        },
        shape(
            "hex-key",
            r#"(?i)(?:priv(?:ate)?[_-]?key|secret[_-]?key|seckey|privkey|hsm[_-]?secret|master[_-]?key|signing[_-]?key|nostr[_-]?(?:priv|secret|sk))\w*\\?["']?\s*[=:]\s*\\?["']?((?:0x)?[0-9a-fA-F]{64})\b"#,
            1,
            any,
            words_and_run(&["priv", "secret", "seckey", "hsm", "master", "signing", "nostr"], Class::Hex, 64),
        ),
        // Passwords in URLs (RPC, databases, caches): `scheme://user:password@host`.
        shape(
            "url-password",
            r#"://[^\s/@:"'<>\[\]]*:([^\s/@"'<>]+)@"#,
            1,
            not_redacted,
            words_around(&["://"], url_with_password),
        ),
        // Commands that take a password as an argument.
        shape(
            "password",
            r#"(?i)\b(?:walletpassphrase(?:change)?|encryptwallet)\s+(?:"([^"\n]+)"|'([^'\n]+)'|([^\s"']+))"#,
            1,
            config_value,
            words(&["walletpassphrase", "encryptwallet"]),
        ),
        shape(
            "password",
            r#"(?i)\bAUTHENTICATE\s+(?:"([^"\n]+)"|([0-9a-f]{16,}))"#,
            1,
            config_value,
            words(&["authenticate"]),
        ),
        shape(
            "password",
            &format!(r#"(?i)\s--?[\w\-]*?{keys}(?:=|\s+)(?:"([^"\n]+)"|'([^'\n]+)'|([^\s"'\-][^\s"']*))"#),
            1,
            config_value,
            words_around(SECRET_KEY_WORDS, flag_then_value),
        ),
        // Config lines: `key=value` anywhere (ini, env, URL query), `"key": value` anywhere (JSON, also escaped
        // inside a JSON string), `key: value` at the start of a line (YAML, HTTP headers).
        shape(
            "password",
            &format!(r#"(?i){keys}\\?["']?\s*=\s*(?:"([^"\n]+)"|'([^'\n]+)'|([^\s"'&;,)]+))"#),
            1,
            config_value,
            words_around(SECRET_KEY_WORDS, key_then_separator),
        ),
        shape(
            "password",
            &format!(r#"(?i)["'][\w\-]*{keys}\\?["']?\s*:\s*(?:\\?"([^"\\\n]+)|'([^'\n]+)'|([^\s"',}}\]]+))"#),
            1,
            config_value,
            words_around(SECRET_KEY_WORDS, key_then_separator),
        ),
        shape(
            "password",
            &format!(
                r#"(?im)^[ \t]*(?:-[ \t]+)?(?:export[ \t]+)?[\w.\-]*{keys}[ \t]*:[ \t]*(?:"([^"\n]+)"|'([^'\n]+)'|([^\s"'#,]+))"#
            ),
            1,
            config_value,
            words_around(SECRET_KEY_WORDS, key_then_separator),
        ),
    ]
});

/// The words that open a shape's gate and the anchor words of the labelled finders
/// ([`super::labelled::ANCHOR_WORDS`]), all in one automaton, each with the shapes it opens: one pass over a text
/// says which shapes may match there and where labels may sit. Compared ASCII-case-insensitively, which is looser
/// than a case-sensitive shape needs and as loose as a `(?i)` one, but for two letters (see [`UNICODE_FOLDS`]).
struct Triggers {
    automaton: AhoCorasick,
    /// Per word of the automaton, the bit of each shape it opens.
    shapes: Vec<u64>,
    /// Per word of the automaton, whether it is a label's anchor word.
    anchors: Vec<bool>,
    /// The shapes gated by a byte run alone.
    ungated: u64,
}

static TRIGGERS: LazyLock<Triggers> = LazyLock::new(|| {
    assert!(SHAPES.len() <= 64, "a shape's bit must fit the gate's mask");
    let mut words: Vec<&str> = Vec::new();
    let mut shapes: Vec<u64> = Vec::new();
    let mut ungated = 0;
    for (i, shape) in SHAPES.iter().enumerate() {
        if shape.gate.words.is_empty() {
            ungated |= 1 << i;
        }
        for word in shape.gate.words {
            let at = words.iter().position(|w| w.eq_ignore_ascii_case(word)).unwrap_or_else(|| {
                words.push(word);
                shapes.push(0);
                words.len() - 1
            });
            shapes[at] |= 1 << i;
        }
    }
    let mut anchors = vec![false; words.len()];
    for word in super::labelled::ANCHOR_WORDS {
        match words.iter().position(|w| w.eq_ignore_ascii_case(word)) {
            Some(at) => anchors[at] = true,
            None => {
                words.push(word);
                shapes.push(0);
                anchors.push(true);
            }
        }
    }
    let automaton = AhoCorasick::builder()
        .ascii_case_insensitive(true)
        .kind(Some(AhoCorasickKind::DFA))
        .build(&words)
        .expect("the trigger words build");
    Triggers { automaton, shapes, anchors, ungated }
});

/// Under `(?i)` a shape's `k` also matches the Kelvin sign and its `s` the long s, which an ASCII comparison of
/// its trigger words and byte runs cannot see; a text holding either runs every shape.
const UNICODE_FOLDS: [&str; 2] = ["\u{212A}", "\u{17F}"];

impl Class {
    fn contains(self, b: u8) -> bool {
        match self {
            Class::Hex => b.is_ascii_hexdigit(),
            Class::Base58 => b.is_ascii_alphanumeric() && !matches!(b, b'0' | b'O' | b'I' | b'l'),
            Class::Base64 => b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'_' | b'-'),
        }
    }
}

/// Whether `text` holds `min` bytes of `class` in a row. Such a run covers a multiple of `min`, so only the bytes
/// there are looked at, and only a run through one is measured.
fn has_run(text: &str, class: Class, min: usize) -> bool {
    let bytes = text.as_bytes();
    let mut probe = min - 1;
    while probe < bytes.len() {
        if class.contains(bytes[probe]) {
            let first = bytes[..probe].iter().rposition(|&b| !class.contains(b)).map_or(0, |at| at + 1);
            let end = bytes[probe..].iter().position(|&b| !class.contains(b)).map_or(bytes.len(), |at| probe + at);
            if end - first >= min {
                return true;
            }
            probe = end + min;
        } else {
            probe += min;
        }
    }
    false
}

/// One place a trigger word sits in a text: the word's number in [`TRIGGERS`] and its bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Trigger {
    word: usize,
    range: Range<usize>,
}

/// Every place a trigger word sits in `text`, words inside words included, in the automaton's order: by where they
/// end, the longer first.
fn triggers_in(text: &str, out: &mut Vec<Trigger>) {
    let found = TRIGGERS.automaton.find_overlapping_iter(text);
    out.extend(found.map(|m| Trigger { word: m.pattern().as_usize(), range: m.range() }));
}

/// The trigger words of a text that a pass changed only at `changes` (sorted and apart, each a
/// `[redacted:<kind>]`), as [`triggers_in`] finds them, from `carried`: the text's words before the changes that
/// no change touched, moved as [`carry_triggers`] moves them. No trigger word holds a bracket, so every word of
/// the changed text lies inside a redaction, where it is read afresh, or wholly outside every change, where the
/// text before held it too.
fn triggers_after_changes(text: &str, carried: &[Trigger], changes: &[Range<usize>], out: &mut Vec<Trigger>) {
    let mut carried = carried.iter().peekable();
    for change in changes {
        while let Some(before) = carried.next_if(|t| t.range.end <= change.start) {
            out.push(before.clone());
        }
        let first = out.len();
        triggers_in(&text[change.clone()], out);
        for inside in &mut out[first..] {
            inside.range = inside.range.start + change.start..inside.range.end + change.start;
        }
    }
    out.extend(carried.cloned());
}

/// The trigger words of a text, moved to where they sit after `edits` (each a range of the text, sorted and apart,
/// and the length of what replaced it); those an edit touched are dropped.
pub(super) fn carry_triggers(triggers: &[Trigger], edits: &[(Range<usize>, usize)]) -> Vec<Trigger> {
    // How far the text after each edit moved. Words are ordered by where they end, not where they start, so each
    // finds its edits afresh rather than by a cursor.
    let mut shifts = Vec::with_capacity(edits.len());
    let mut shift: isize = 0;
    for (range, len) in edits {
        shift += *len as isize - range.len() as isize;
        shifts.push(shift);
    }
    let mut carried = Vec::with_capacity(triggers.len());
    for trigger in triggers {
        let passed = edits.partition_point(|(range, _)| range.end <= trigger.range.start);
        if edits.get(passed).is_some_and(|(range, _)| range.start < trigger.range.end) {
            continue;
        }
        let shift = passed.checked_sub(1).map_or(0, |last| shifts[last]);
        let moved = |at: usize| at.checked_add_signed(shift).expect("an edit before a word ends before it");
        carried.push(Trigger { word: trigger.word, range: moved(trigger.range.start)..moved(trigger.range.end) });
    }
    carried
}

/// The shapes that may match in `text`, one bit each in [`SHAPES`] order, from the places its trigger words sit,
/// and where its labels' anchor words are, as a search that does not report overlapping matches finds them (in
/// order, none overlapping the one before).
fn open_shapes(text: &str, triggers: &[Trigger], anchors: &mut Vec<Range<usize>>) -> u64 {
    let all = u64::MAX >> (64 - SHAPES.len());
    let words = &*TRIGGERS;
    let mut open = words.ungated;
    for Trigger { word, range } in triggers {
        if words.anchors[*word] && anchors.last().is_none_or(|last| last.end <= range.start) {
            anchors.push(range.clone());
        }
        let mut opens = words.shapes[*word] & !open;
        while opens != 0 {
            let i = opens.trailing_zeros() as usize;
            opens &= opens - 1;
            if SHAPES[i].gate.around.is_none_or(|around| around(text, range.start, range.end)) {
                open |= 1 << i;
            }
        }
    }
    if UNICODE_FOLDS.iter().any(|fold| text.contains(fold)) {
        return all;
    }
    for (i, shape) in SHAPES.iter().enumerate() {
        if let Some((class, min)) = shape.gate.run
            && open & (1 << i) != 0
            && !has_run(text, class, min)
        {
            open &= !(1 << i);
        }
    }
    open
}

/// The runs of ASCII word bytes in `text` that hold at least `min` bytes of `class` in a row, as [`has_run`] finds
/// them: only every `min`-th byte is looked at outside such runs.
fn word_runs_holding(text: &str, class: Class, min: usize) -> Vec<Range<usize>> {
    let bytes = text.as_bytes();
    let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let mut runs = Vec::new();
    let mut probe = min - 1;
    while probe < bytes.len() {
        if !class.contains(bytes[probe]) {
            probe += min;
            continue;
        }
        let first = bytes[..probe].iter().rposition(|&b| !class.contains(b)).map_or(0, |at| at + 1);
        let end = bytes[probe..].iter().position(|&b| !class.contains(b)).map_or(bytes.len(), |at| probe + at);
        if end - first < min {
            probe = end + min;
            continue;
        }
        // A class byte is a word byte, so the word run's end is no class byte and the next run starts past it.
        let start = bytes[..first].iter().rposition(|&b| !word(b)).map_or(0, |at| at + 1);
        let stop = bytes[end..].iter().position(|&b| !word(b)).map_or(bytes.len(), |at| end + at);
        runs.push(start..stop);
        probe = stop + min;
    }
    runs
}

/// The shape's matches in `text`, as [`find_shape_everywhere`] finds them.
fn find_shape(shape: &Shape, text: &str, out: &mut Vec<Finding>) {
    if let Some(run) = shape.run_after_label {
        return find_run_after_label(shape, run, text, out);
    }
    let (Some((class, min)), Some(longest)) = (shape.gate.run, shape.whole_words) else {
        return find_shape_everywhere(shape, text, out);
    };
    // A match is a whole word run, so a longer one holds none.
    for words in word_runs_holding(text, class, min).into_iter().filter(|words| words.len() <= longest) {
        // The text cut after the word run: the byte after it is no word byte, so `\b` holds at the cut as it
        // holds in the whole text, and a match never crosses out of a word run.
        let haystack = &text[..words.end];
        let mut at = words.start;
        while let Some(m) = shape.re.find_at(haystack, at) {
            if (shape.accept)(m.as_str()) {
                out.push(Finding { range: m.range(), kind: shape.kind.to_owned() });
            }
            at = m.end();
        }
    }
}

/// The shape's regex over the whole text.
fn find_shape_everywhere(shape: &Shape, text: &str, out: &mut Vec<Finding>) {
    // A shape that redacts its whole match needs no groups, and resolving them costs a second search per match.
    if shape.group == 0 {
        for m in shape.re.find_iter(text) {
            if (shape.accept)(m.as_str()) {
                out.push(Finding { range: m.range(), kind: shape.kind.to_owned() });
            }
        }
        return;
    }
    find_shape_by_groups(shape, text, out);
}

/// A [`RunAfterLabel`] shape's matches, found as its regex finds them: at each occurrence of the label (ASCII
/// case-insensitively: none of a label's letters has a Unicode fold), the first place within the window where a
/// word boundary opens a long enough run that its end closes; the next search starts after the match.
fn find_run_after_label(shape: &Shape, run: RunAfterLabel, text: &str, out: &mut Vec<Finding>) {
    let Some((class, min)) = shape.gate.run else { return find_shape_everywhere(shape, text, out) };
    // Under `(?i)` the class also holds the Kelvin sign for `k` and the long s for `s` (see [`UNICODE_FOLDS`]).
    let member = |c: char| match c {
        '\u{212A}' => class.contains(b'k'),
        '\u{17F}' => class.contains(b's'),
        c => c.is_ascii() && class.contains(c as u8),
    };
    let bytes = text.as_bytes();
    let word = |at: usize| bytes.get(at).is_some_and(|&b| b.is_ascii_alphanumeric() || b == b'_');
    let boundary = |at: usize| at.checked_sub(1).is_some_and(word) != word(at);
    // The run read last, as (start, end, all ASCII): every start inside it has the same end, so a window
    // with many boundaries inside one run reads it once.
    let mut last_run: Option<(usize, usize, bool)> = None;
    let mut run_end_from = |p: usize| -> (usize, bool) {
        if let Some((start, end, ascii)) = last_run
            && (start..end).contains(&p)
        {
            return (end, ascii);
        }
        let len: usize = text[p..].chars().take_while(|&c| member(c)).map(char::len_utf8).sum();
        let ascii = text[p..p + len].is_ascii();
        last_run = Some((p, p + len, ascii));
        (p + len, ascii)
    };
    let label = run.label.as_bytes();
    let (lower, upper) = (label[0].to_ascii_lowercase(), label[0].to_ascii_uppercase());
    let label_at = |from: usize| {
        memchr::memchr2_iter(lower, upper, &bytes[from..])
            .map(|at| from + at)
            .find(|&at| bytes.get(at..at + label.len()).is_some_and(|w| w.eq_ignore_ascii_case(label)))
    };
    let mut at = 0;
    while let Some(label_start) = label_at(at) {
        let mut p = label_start + label.len();
        let mut matched = None;
        for _ in 0..=run.window {
            if boundary(p) && text[p..].chars().next().is_some_and(member) {
                let (end, ascii) = run_end_from(p);
                // At least `min` chars: bytes count them in an ASCII run; a char of the class is at most 3 bytes.
                let long = if ascii || end - p < min || end - p >= 3 * min {
                    end - p >= min
                } else {
                    text[p..end].chars().count() >= min
                };
                let closed = match run.end {
                    RunEnd::Boundary => boundary(end).then_some(end),
                    RunEnd::Padding => Some(end + bytes[end..].iter().take(2).take_while(|&&b| b == b'=').count()),
                };
                if let (true, Some(end)) = (long, closed) {
                    matched = Some(p..end);
                    break;
                }
            }
            let Some(c) = text[p..].chars().next() else { break };
            p += c.len_utf8();
        }
        match matched {
            Some(group) => {
                at = group.end;
                if (shape.accept)(&text[group.clone()]) {
                    out.push(Finding { range: group, kind: shape.kind.to_owned() });
                }
            }
            None => at = label_start + 1,
        }
    }
}

/// The shape's regex over the whole text, each match's redacted bytes read from its capture groups (group 0 is the
/// whole match): what the shortcuts above are held to.
fn find_shape_by_groups(shape: &Shape, text: &str, out: &mut Vec<Finding>) {
    for caps in shape.re.captures_iter(text) {
        let Some(m) = (shape.group..caps.len()).find_map(|g| caps.get(g)) else { continue };
        if (shape.accept)(m.as_str()) {
            out.push(Finding { range: m.range(), kind: shape.kind.to_owned() });
        }
    }
}

/// Kinds that name where a value sits rather than what it is; a specific shape over the same bytes names the
/// secret better (`token=cashuA...` is a Cashu token).
fn generic(kind: &str) -> bool {
    matches!(kind, "password" | "token")
}

/// What a pass that reads the whole text notes for the next pass, so that one reads again only near the changes:
/// where the seed-word scan restarts and where the trigger words sit.
#[derive(Default)]
pub(super) struct Notes {
    pub restarts: Vec<mnemonic::Restart>,
    pub triggers: Vec<Trigger>,
}

impl Notes {
    /// These notes moved past `edits` (each a range of the text, sorted and apart, and the length of what replaced
    /// it), and the edits' ranges in the edited text.
    pub fn carry(&self, edits: &[(Range<usize>, usize)]) -> (Notes, Vec<Range<usize>>) {
        let (restarts, changes) = mnemonic::carry_restarts(&self.restarts, edits);
        (Notes { restarts, triggers: carry_triggers(&self.triggers, edits) }, changes)
    }
}

/// How a pass reads seed phrases and trigger words.
pub(super) enum Reading<'a> {
    /// The whole text, taking notes ([`mnemonic::find_noting_restarts`], [`triggers_in`]); `notes` must be empty.
    Whole(&'a mut Notes),
    /// Only near the changes of a pass that read the whole text before them, with that pass's notes carried
    /// past them ([`mnemonic::find_near_changes`], [`triggers_after_changes`]).
    Near { changes: &'a [Range<usize>], notes: &'a Notes },
}

/// Finds every secret shape in `text`, plus seed phrases. Ranges may overlap; [`merge`] settles them.
pub(super) fn find_shapes(text: &str, mut reading: Reading<'_>, out: &mut Vec<Finding>) {
    // One pass of the trigger words says which shapes may match: most texts open a few, and running every
    // shape's search (or all of them as one set) on every string of a body cost more than the rest.
    let mut near_triggers = Vec::new();
    let triggers = match &mut reading {
        Reading::Whole(notes) => {
            triggers_in(text, &mut notes.triggers);
            &notes.triggers
        }
        Reading::Near { changes, notes } => {
            triggers_after_changes(text, &notes.triggers, changes, &mut near_triggers);
            &near_triggers
        }
    };
    let mut anchors = Vec::new();
    let open = open_shapes(text, triggers, &mut anchors);
    for (i, shape) in SHAPES.iter().enumerate() {
        if open & (1 << i) != 0 {
            find_shape(shape, text, out);
        }
    }
    let phrases = match reading {
        Reading::Whole(notes) => mnemonic::find_noting_restarts(text, &mut notes.restarts),
        Reading::Near { changes, notes } => mnemonic::find_near_changes(text, changes, &notes.restarts),
    };
    for (range, kind) in phrases {
        out.push(Finding { range, kind: kind.to_owned() });
    }
    super::labelled::find(text, &anchors, out);
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

/// How long `[redacted:<kind>]` is, as [`redact`] writes it.
pub(super) fn redaction_len(kind: &str) -> usize {
    "[redacted:".len() + kind.len() + "]".len()
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

/// [`find_shapes`] without the gates or shortcuts: every shape's regex runs on the whole text and reads its capture
/// groups, and the labels' anchors come from an automaton of their own. The reference the gates, the word-run
/// search, the group-0 search and the shared trigger pass are held to.
#[cfg(test)]
fn find_shapes_unfiltered(text: &str, out: &mut Vec<Finding>) {
    for shape in SHAPES.iter() {
        find_shape_by_groups(shape, text, out);
    }
    for (range, kind) in mnemonic::find(text) {
        out.push(Finding { range, kind: kind.to_owned() });
    }
    super::labelled::find(text, &super::labelled::anchors_alone(text), out);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The lines of a corpus file of `fixtures/egress/`: as written, with their escapes undone, inside a JSON string
    /// (escaped once and twice), and each glued to the next, with and without a space.
    fn texts(name: &str) -> Vec<String> {
        let path = format!("{}/../../../fixtures/egress/{name}", env!("CARGO_MANIFEST_DIR"));
        let file = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("corpus {path} is missing: {e}"));
        let lines: Vec<&str> = file.lines().filter(|l| !l.is_empty() && !l.starts_with('#')).collect();
        let unescaped: Vec<String> =
            lines.iter().map(|l| l.replace("\\n", "\n").replace("\\t", "\t").replace("\\\\", "\\")).collect();
        let json = |s: &str| serde_json::Value::String(s.to_owned()).to_string();
        let mut texts: Vec<String> = lines.iter().map(|l| (*l).to_owned()).chain(unescaped.iter().cloned()).collect();
        texts.extend(unescaped.iter().map(|l| json(l)));
        texts.extend(unescaped.iter().map(|l| json(&json(l))));
        texts.extend(unescaped.windows(2).map(|w| w.concat()));
        texts.extend(unescaped.windows(2).map(|w| w.join(" ")));
        texts
    }

    /// The gates never change a finding: on every corpus line, in every context above, the shapes that pass their
    /// gate find exactly what all shapes find.
    #[test]
    fn gates_never_change_what_is_found() {
        let mut compared = 0;
        let mut differ = Vec::new();
        for text in texts("secrets.txt").into_iter().chain(texts("benign.txt")) {
            let (mut gated, mut all) = (Vec::new(), Vec::new());
            find_shapes(&text, Reading::Whole(&mut Notes::default()), &mut gated);
            find_shapes_unfiltered(&text, &mut all);
            if gated != all {
                differ.push(format!("{text}\n  gated: {gated:?}\n  all:   {all:?}"));
            }
            compared += 1;
        }
        assert!(compared > 2000, "only {compared} texts");
        assert!(differ.is_empty(), "{} of {compared} texts differ:\n{}", differ.len(), differ.join("\n"));
    }

    /// The contexts a gate looks at, each beside a near miss, and the Unicode letters `(?i)` folds to ASCII.
    #[test]
    fn gates_hold_at_their_edges() {
        let cases = [
            "--password hunter2x",
            "a -x-api-key=abcdef",
            "-password value",
            "\u{a0}--token abcdefgh",
            "\"db_pass\\\": \\\"s3cret\"",
            "Password\u{2003}= hunter22",
            "credentials=abc123",
            "passphrase:\tabc123",
            "postgres://user:pa%40ss@db/x",
            "http://archy@127.0.0.1:8332/ and http://a:b@c",
            "PAſſWORD=hunter22",
            "api_\u{212A}ey=abcdefgh",
            "nsec1ſ",
        ];
        for text in cases {
            let (mut gated, mut all) = (Vec::new(), Vec::new());
            find_shapes(text, Reading::Whole(&mut Notes::default()), &mut gated);
            find_shapes_unfiltered(text, &mut all);
            assert_eq!(gated, all, "text: {text}");
        }
    }

    /// The trigger pass hands the labelled finders the anchors their own automaton would find, words that overlap
    /// (`secretoken`, `codeseed`) and words that are also triggers (`key`, `token`) included.
    #[test]
    fn the_trigger_pass_finds_the_anchors_a_search_of_their_own_finds() {
        let edges =
            ["secretoken", "seedqrcode", "KEYKEY key", "api_key=x mnemonic seed", "tokensecretkey", "助记词 seed"];
        let texts = texts("secrets.txt").into_iter().chain(texts("benign.txt")).chain(edges.map(String::from));
        let mut with_anchors = 0;
        for text in texts {
            let (mut triggers, mut shared) = (Vec::new(), Vec::new());
            triggers_in(&text, &mut triggers);
            open_shapes(&text, &triggers, &mut shared);
            assert_eq!(shared, super::super::labelled::anchors_alone(&text), "text: {text}");
            with_anchors += usize::from(!shared.is_empty());
        }
        assert!(with_anchors > 500, "only {with_anchors} texts hold an anchor");
    }

    #[test]
    fn runs_are_found_wherever_they_sit() {
        let run = "a".repeat(51);
        for at in 0..120 {
            let text = format!("{}{run}{}", " ".repeat(at), " ".repeat(at % 7));
            assert!(has_run(&text, Class::Base58, 51), "at {at}");
            assert!(!has_run(&text, Class::Base58, 52), "at {at}");
        }
        assert!(!has_run(&format!("{}0{}", "a".repeat(50), "a".repeat(50)), Class::Base58, 51));
        assert!(has_run("0123456789abcdefABCDEF", Class::Hex, 22));
    }

    /// A whole-word shape searched only inside its word runs finds what its regex finds over the whole text: keys
    /// of every length around 51 and 52, glued to word bytes, non-word bytes and non-ASCII chars, beside hex hashes.
    #[test]
    fn a_whole_word_shape_finds_in_word_runs_what_it_finds_everywhere() {
        use rand::rngs::StdRng;
        use rand::{Rng, SeedableRng};
        const B58_CHARS: &[u8] = b"123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
        let shapes: Vec<&Shape> = SHAPES.iter().filter(|s| s.whole_words.is_some()).collect();
        assert!(!shapes.is_empty());
        // What the word-run search relies on: the whole match is redacted, it is bounded by `\b` on both sides,
        // its class holds only word bytes, and no match is longer than the shape says.
        for shape in &shapes {
            let pattern = shape.re.as_str();
            let longest = regex_syntax::parse(pattern).expect("the shape parses").properties().maximum_len();
            assert_eq!(longest, shape.whole_words, "{pattern}");
            assert!(
                shape.group == 0 && pattern.starts_with(r"(?-u:\b)") && pattern.ends_with(r"(?-u:\b)"),
                "{pattern}"
            );
            assert!(matches!(shape.gate.run, Some((Class::Base58 | Class::Hex, _))), "{pattern}");
        }
        let mut rng = StdRng::seed_from_u64(51);
        let neighbours = [" ", "\n", "\\n", "0", "_", "é", ".", "x", "", "=", "l", "\u{2028}", "-"];
        let (mut compared, mut found) = (0, 0);
        for _ in 0..20_000 {
            let mut text = String::new();
            for _ in 0..rng.random_range(1..5) {
                text.push_str(neighbours[rng.random_range(0..neighbours.len())]);
                let len = [50, 51, 51, 52, 52, 53][rng.random_range(0..6)];
                let mut key: String =
                    (0..len).map(|_| char::from(B58_CHARS[rng.random_range(0..B58_CHARS.len())])).collect();
                if rng.random_bool(0.7) {
                    key.replace_range(..1, ["5", "9", "K", "L", "c"][rng.random_range(0..5)]);
                }
                if rng.random_bool(0.2) {
                    key = (0..64).map(|_| char::from(b"0123456789abcdef"[rng.random_range(0..16)])).collect();
                }
                text.push_str(&key);
                text.push_str(neighbours[rng.random_range(0..neighbours.len())]);
            }
            compared += shapes.len();
            found += found_as_by_groups(&shapes, &text);
        }
        assert!(found > 3000, "the texts must hold keys: {found} in {compared}");
    }

    /// Asserts that the shapes' search finds in `text` what their regexes' capture groups find; returns how many.
    #[track_caller]
    fn found_as_by_groups(shapes: &[&Shape], text: &str) -> usize {
        let mut count = 0;
        for shape in shapes {
            let (mut found, mut by_groups) = (Vec::new(), Vec::new());
            find_shape(shape, text, &mut found);
            find_shape_by_groups(shape, text, &mut by_groups);
            assert_eq!(found, by_groups, "{}: text: {text:?}", shape.re.as_str());
            count += by_groups.len();
        }
        count
    }

    #[test]
    fn a_run_after_a_label_is_found_as_its_regex_finds_it() {
        use rand::rngs::StdRng;
        use rand::{Rng, SeedableRng};
        let shapes: Vec<&Shape> = SHAPES.iter().filter(|s| s.run_after_label.is_some()).collect();
        assert!(!shapes.is_empty());
        // The search is written from the declared form: the regex must have that form. A case-insensitive label
        // (so the class holds the two Unicode folds), the window, the gate's run length, the run's end, group 1.
        for shape in &shapes {
            let (pattern, run) = (shape.re.as_str(), shape.run_after_label.unwrap());
            let Some((_, min)) = shape.gate.run else { panic!("{pattern}: no run in the gate") };
            let (label, window) = (run.label, run.window);
            assert!(pattern.starts_with(&format!(r"(?is){label}.{{0,{window}}}?(?-u:\b)(")), "{pattern}");
            assert!(pattern.contains(&format!("]{{{min},}}")) && shape.group == 1, "{pattern}");
            let end = match run.end {
                RunEnd::Boundary => r"})(?-u:\b)",
                RunEnd::Padding => "}={0,2})",
            };
            assert!(pattern.ends_with(end), "{pattern}");
        }
        let mut rng = StdRng::seed_from_u64(100);
        // Gaps of up to about 80 chars, some of two bytes each, so that windows end before, on and after a run.
        let gaps = [
            " ",
            ":",
            " = ",
            "\n",
            "é",
            "\u{212A}",
            "\u{17F}",
            "/",
            "+",
            "-",
            "_",
            "x",
            "0",
            "\"",
            "=",
            "ab",
            "ééééé",
            "0123456789",
            "macaroon ",
        ];
        let runs: [&[char]; 3] = [
            &['0', '2', '9', 'a', 'f', 'A', 'F'],
            &['A', 'g', 'E', 'D', 'k', 's', 'Z', '0', '9', '+', '/', '_', '-', '\u{212A}', '\u{17F}'],
            &['a', 'b', 'c', 'd', 'e', 'f', '1', '/', 'g', '='],
        ];
        let (mut compared, mut found) = (0, 0);
        for _ in 0..20_000 {
            let mut text = String::new();
            for _ in 0..rng.random_range(1..4) {
                text.push_str(["macaroon", "MACAROON", "Macaroon", "macaroo", ""][rng.random_range(0..5)]);
                for _ in 0..rng.random_range(0..16) {
                    text.push_str(gaps[rng.random_range(0..gaps.len())]);
                }
                let class = runs[rng.random_range(0..runs.len())];
                let len = rng.random_range(90..130);
                text.extend((0..len).map(|_| class[rng.random_range(0..class.len())]));
                text.push_str(["", "=", "==", "===", "x", " ", "é", "_", "g"][rng.random_range(0..9)]);
            }
            compared += shapes.len();
            found += found_as_by_groups(&shapes, &text);
        }
        assert!(found > 5000, "the texts must hold runs after labels: {found} in {compared}");
    }

    /// The trigger words every shape's gate and every label's anchor names, as the automaton holds them.
    fn all_trigger_words() -> Vec<&'static str> {
        let words = SHAPES.iter().flat_map(|shape| shape.gate.words.iter().copied());
        words.chain(super::super::labelled::ANCHOR_WORDS.iter().copied()).collect()
    }

    /// What [`triggers_after_changes`] relies on: a word that touches a redaction lies inside it, since no trigger
    /// word holds one of its brackets.
    #[test]
    fn no_trigger_word_holds_a_bracket() {
        for word in all_trigger_words() {
            assert!(!word.contains(['[', ']']), "{word}");
        }
    }

    /// A pass after redactions finds, from the first pass's trigger words carried past them, the words a scan of
    /// the whole redacted text finds, in its order: words beside a redaction, cut by one, inside one
    /// (`[redacted:hex-private-key]` holds `key`), inside each other (`apikey`, `secretoken`), in any case.
    #[test]
    fn triggers_carried_past_redactions_are_those_a_whole_scan_finds() {
        use rand::rngs::StdRng;
        use rand::{Rng, SeedableRng};
        let words = all_trigger_words();
        let kinds = ["hex-private-key", "recovery-codes", "seed-table-columns", "known:api-key", "password", "xprv"];
        let glue = [" ", "", "=", "_", "\n", "é", "x", "[", "]", ":"];
        let mut rng = StdRng::seed_from_u64(38421);
        let (mut compared, mut moved, mut inside) = (0, 0, 0);
        for _ in 0..5_000 {
            let mut text = String::new();
            for _ in 0..rng.random_range(3..40) {
                let word = words[rng.random_range(0..words.len())];
                let word = match rng.random_range(0..4) {
                    0 => word.to_ascii_uppercase(),
                    1 => word.chars().skip(1).collect(),
                    _ => word.to_owned(),
                };
                text.push_str(&word);
                text.push_str(glue[rng.random_range(0..glue.len())]);
            }
            // Edits at char boundaries, sorted and apart, each a redaction of some kind.
            let bounds: Vec<usize> = (0..=text.len()).filter(|&at| text.is_char_boundary(at)).collect();
            let mut cuts: Vec<usize> =
                (0..rng.random_range(1..5) * 2).map(|_| bounds[rng.random_range(0..bounds.len())]).collect();
            cuts.sort_unstable();
            cuts.dedup();
            let mut edits: Vec<(Range<usize>, String)> = Vec::new();
            for pair in cuts.chunks_exact(2) {
                if pair[0] < pair[1] {
                    let marker = format!("[redacted:{}]", kinds[rng.random_range(0..kinds.len())]);
                    edits.push((pair[0]..pair[1], marker));
                }
            }
            let mut edited = String::new();
            let mut at = 0;
            for (range, marker) in &edits {
                edited.push_str(&text[at..range.start]);
                edited.push_str(marker);
                at = range.end;
            }
            edited.push_str(&text[at..]);

            let mut notes = Notes::default();
            triggers_in(&text, &mut notes.triggers);
            let lengths: Vec<(Range<usize>, usize)> = edits.iter().map(|(r, m)| (r.clone(), m.len())).collect();
            let (carried, changes) = notes.carry(&lengths);
            let mut near = Vec::new();
            triggers_after_changes(&edited, &carried.triggers, &changes, &mut near);
            let mut whole = Vec::new();
            triggers_in(&edited, &mut whole);
            assert_eq!(near, whole, "text: {text:?}\nedited: {edited:?}");
            compared += 1;
            moved +=
                carried.triggers.iter().filter(|t| changes.first().is_some_and(|c| t.range.start >= c.end)).count();
            inside += whole
                .iter()
                .filter(|t| changes.iter().any(|c| c.start <= t.range.start && t.range.end <= c.end))
                .count();
        }
        eprintln!(
            "triggers carried past redactions: {compared} texts, {moved} words moved past one, {inside} inside one"
        );
        assert!(moved > 10_000 && inside > 2_000, "{compared} texts: {moved} words moved, {inside} inside redactions");
    }
}
