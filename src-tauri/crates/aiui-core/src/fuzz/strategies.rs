//! Input generators for the fuzz targets: arbitrary JSON, structure-aware mutations of corpus seeds, and text
//! built from fragments that look like secrets, addresses and their benign cousins.

use proptest::prelude::*;
use proptest::sample::select;
use serde_json::{Map, Value};

/// Pieces that steer generated text and strings toward the shapes parsers and the screen care about.
const FRAGMENTS: &[&str] = &[
    "xprv9s21ZrQH143K3QTDL4LXw2F7HEK3wJUD2nW2nRk4stbPy6cq3jPPqjiChkVvvNKmPGJxWUtg6LnF5kejMRNNU3TGtRBeJgk33yuGBxrMPHi",
    "xpub661MyMwAqRbcFtXgS5sYJABqqG9YLmC4Q1Rdap9gSE8NqtwybGhePY2gZ29ESFjqJoCu1Rupje8YtGqsefD265TMg7usUDFdp6W1EGMcet8",
    "nsec1vl029mgpspedva04g90vltkh6fvh240zqtv9k0t9af8935ke9laqsnlfe5",
    "npub10elfcs4fr0l0r8af98jlmgdh9c8tcxjvz9qkw038js35mp4dma8qzvjptg",
    "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about",
    "cashuA",
    "cashuB",
    "lnbc10u1p",
    "[redacted:xprv]",
    "[lan-ip-1]",
    "[onion-1]",
    "192.168.1.20",
    "10.0.0.7",
    "fd00::1",
    "http://user:pass@host:8332/",
    "expyuzz4wqqyqhjn76sr4pxdppprfktbgy5hqb7a4jqg5tt37hfdf4yd.onion",
    "-----BEGIN PRIVATE KEY-----",
    "sk-ant-api03-",
    "otpauth://totp/x?secret=JBSWY3DPEHPK3PXP",
    "5HueCGU8rMjxEXxiPuD5BDku4MkFqeZyd4dZ1jvhTVqvbTLvyTJ",
    "0201036c6e640258030a10",
    "rpcauth=alice:",
    " ",
    "\n",
    "=",
    "\u{0}",
    "é",
    "\u{202e}",
];

/// Strings: arbitrary, or a few fragments and arbitrary bits glued together.
pub(crate) fn text() -> impl Strategy<Value = String> {
    let piece =
        prop_oneof![3 => select(FRAGMENTS).prop_map(str::to_owned), 2 => any::<String>(), 1 => "[a-z0-9 :/.@=-]{0,24}"];
    prop_oneof![1 => any::<String>(), 3 => prop::collection::vec(piece, 0..8).prop_map(|parts| parts.concat())]
}

fn scalar() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        any::<f64>().prop_map(|f| serde_json::Number::from_f64(f).map_or(Value::Null, Value::Number)),
        text().prop_map(Value::String),
    ]
}

/// Arbitrary JSON, a few levels deep, with keys drawn partly from the names the wire formats use.
pub(crate) fn json() -> impl Strategy<Value = Value> {
    let key = prop_oneof![
        select(
            &[
                "id",
                "name",
                "content",
                "role",
                "message",
                "messages",
                "choices",
                "tool_calls",
                "function",
                "arguments",
                "input",
                "type",
                "text",
                "data",
                "result",
                "error",
                "mints",
                "sats_pricing",
                "prompt",
                "completion",
                "enabled",
                "token",
                "proofs",
                "amount",
                "secret",
                "C",
                "mint",
                "unit",
                "lines",
                "version",
                "usage",
            ][..]
        )
        .prop_map(str::to_owned),
        "[a-z_]{1,8}",
    ];
    scalar().prop_recursive(4, 48, 6, move |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::vec((key.clone(), inner), 0..6)
                .prop_map(|pairs| Value::Object(pairs.into_iter().collect::<Map<String, Value>>())),
        ]
    })
}

/// Every node of `value`, as JSON pointers (the root is "").
fn pointers(value: &Value, at: String, out: &mut Vec<String>) {
    match value {
        Value::Array(items) => items.iter().enumerate().for_each(|(i, v)| pointers(v, format!("{at}/{i}"), out)),
        Value::Object(map) => {
            map.iter().for_each(|(k, v)| pointers(v, format!("{at}/{}", k.replace('~', "~0").replace('/', "~1")), out))
        }
        _ => {}
    }
    out.push(at);
}

/// One structure-aware mutation of `seed`: a node replaced by arbitrary JSON, removed, or turned into a string.
pub(crate) fn mutate(seed: Value) -> impl Strategy<Value = Value> {
    let mut all = Vec::new();
    pointers(&seed, String::new(), &mut all);
    (select(all), json(), 0..3u8).prop_map(move |(pointer, replacement, op)| {
        let mut value = seed.clone();
        let Some(node) = value.pointer_mut(&pointer) else { return value };
        *node = match op {
            0 => replacement,
            1 => Value::Null,
            _ => Value::String(node.to_string()),
        };
        value
    })
}

/// Arbitrary JSON, or (more often) a mutation of one of the seeds, mutated again half the time.
pub(crate) fn seeded_json(seeds: Vec<Value>) -> impl Strategy<Value = Value> {
    let once = select(seeds).prop_flat_map(mutate);
    let twice = once.clone().prop_flat_map(mutate);
    prop_oneof![1 => json(), 2 => once, 2 => twice]
}

/// The corpus of `target` read as JSON seeds (files that are not JSON are skipped: they are byte seeds).
pub(crate) fn json_seeds(target: &str) -> Vec<Value> {
    super::corpus(target).into_iter().filter_map(|(_, bytes)| serde_json::from_slice(&bytes).ok()).collect()
}
