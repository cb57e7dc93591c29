//! The egress corpus through the built `aiui-cli screen`, as an owner would check it: every kind of the secrets
//! inventory redacted in a tool result and blocked in the owner's own words, every benign line sent unchanged.

use std::collections::BTreeMap;
use std::io::Write;
use std::process::{Command, Output, Stdio};

use aiui_core::egress::inventory;
use serde_json::{Value, json};

fn screen(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_aiui-cli"))
        .arg("screen")
        .args(args)
        .env_remove("AIUI_NODE_PASSWORD")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("aiui-cli runs");
    child.stdin.take().unwrap().write_all(stdin.as_bytes()).unwrap();
    child.wait_with_output().unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The lines of a corpus file, comments and blank lines dropped, escapes (`\n`, `\t`, `\\`) decoded per field.
fn corpus(name: &str) -> Vec<Vec<String>> {
    let path = format!("{}/../../../fixtures/egress/{name}", env!("CARGO_MANIFEST_DIR"));
    let file = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("corpus {path} is missing: {e}"));
    let unescape = |field: &str| {
        let mut out = String::new();
        let mut chars = field.chars();
        while let Some(c) = chars.next() {
            match (c, c == '\\') {
                (_, true) => match chars.next() {
                    Some('n') => out.push('\n'),
                    Some('t') => out.push('\t'),
                    Some(other) => out.push(other),
                    None => out.push('\\'),
                },
                (c, false) => out.push(c),
            }
        }
        out
    };
    file.lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| l.split('\t').map(unescape).collect())
        .collect()
}

/// An Anthropic Messages body whose user turns carry `texts`, as tool results or as the owner's own words.
fn body(texts: &[&str], as_tool_results: bool) -> String {
    let messages: Vec<Value> = texts
        .iter()
        .enumerate()
        .map(|(i, t)| {
            let block = if as_tool_results {
                json!({ "type": "tool_result", "tool_use_id": format!("toolu_{i}"), "content": t })
            } else {
                json!({ "type": "text", "text": t })
            };
            json!({ "role": "user", "content": [block] })
        })
        .collect();
    json!({ "model": "m", "system": "s", "messages": messages }).to_string()
}

#[test]
fn screen_catches_every_inventory_kind_and_leaves_benign_lines_alone() {
    // Known values come from the app (AIUI_NODE_PASSWORD holds one); the shapes are what this test is about.
    let secrets: Vec<(String, String, String)> = corpus("secrets.txt")
        .into_iter()
        .filter(|f| !f[0].starts_with("known:"))
        .map(|f| (f[0].clone(), f[1].clone(), f[2].clone()))
        .collect();
    let kind_of = |id: &str| inventory::find(id).unwrap_or_else(|| panic!("{id} is not in the inventory")).kind;

    // Every sample as a tool result, in one request body: each comes back redacted under its kind.
    let texts: Vec<&str> = secrets.iter().map(|(_, _, t)| t.as_str()).collect();
    let out = screen(&[], &body(&texts, true));
    assert!(out.status.success(), "{}", text(&out.stderr));
    let sent: Value = serde_json::from_slice(&out.stdout).expect("the screened body is JSON");
    let mut missed = Vec::new();
    for (i, (id, secret, _)) in secrets.iter().enumerate() {
        let got = sent["messages"][i]["content"][0]["content"].as_str().unwrap_or_default();
        if got.contains(secret.as_str()) || !got.contains(&format!("[redacted:{}]", kind_of(id))) {
            missed.push(format!("{id}: {got}"));
        }
    }

    // One owner message per inventory entry: each is refused, naming the kind.
    let mut first: BTreeMap<&str, &str> = BTreeMap::new();
    for (id, _, t) in &secrets {
        first.entry(id.as_str()).or_insert(t.as_str());
    }
    for (id, t) in &first {
        let out = screen(&[], t);
        let stderr = text(&out.stderr);
        if out.status.success() || !out.stdout.is_empty() || !stderr.contains(kind_of(id)) {
            missed.push(format!("{id} not blocked as owner text: {stderr}"));
        }
    }
    let without: Vec<&str> = inventory::INVENTORY.iter().map(|e| e.id).filter(|id| !first.contains_key(id)).collect();

    // Every benign line as the owner's own words (the strictest origin), in one body: sent, and unchanged.
    let benign: Vec<String> = corpus("benign.txt").into_iter().map(|f| f.join("\t")).collect();
    let texts: Vec<&str> = benign.iter().map(String::as_str).collect();
    let out = screen(&[], &body(&texts, false));
    assert!(out.status.success(), "benign text was blocked: {}", text(&out.stderr));
    let sent: Value = serde_json::from_slice(&out.stdout).unwrap();
    let changed: Vec<String> = benign
        .iter()
        .enumerate()
        .filter(|(i, line)| sent["messages"][*i]["content"][0]["text"].as_str() != Some(line.as_str()))
        .map(|(_, line)| line.clone())
        .collect();

    let checks = secrets.len() + first.len();
    eprintln!(
        "aiui-cli screen: {} inventory kinds, {}/{} checks passed ({} samples redacted as tool results, {} kinds \
         blocked as owner text), {}/{} benign lines unchanged",
        first.len(),
        checks - missed.len(),
        checks,
        secrets.len(),
        first.len(),
        benign.len() - changed.len(),
        benign.len()
    );
    assert!(without.is_empty(), "inventory entries without a corpus sample: {without:?}");
    assert!(missed.is_empty(), "{} missed:\n{}", missed.len(), missed.join("\n"));
    assert!(changed.is_empty(), "{} benign lines changed:\n{}", changed.len(), changed.join("\n"));
}

// Secrets known by their label (egress/labelled.rs): the first sample of each such entry loses its secret and
// keeps its label, the owner's own words holding one are blocked, and the labels' public neighbours pass.

/// The inventory entries labelled.rs catches.
const LABELLED: [&str; 9] = [
    "backup-codes",
    "recovery-codes",
    "totp-setup-key",
    "api-key-by-name",
    "pairing-phrase",
    "labelled-seed-words",
    "seedqr-standard",
    "seedqr-compact",
    "seed-table-columns",
];

/// The first sample of `id` in the secret corpus: (secret, text).
fn first_sample(id: &str) -> (String, String) {
    corpus("secrets.txt")
        .into_iter()
        .find(|f| f.len() == 3 && f[0] == id)
        .map(|f| (f[1].clone(), f[2].clone()))
        .unwrap_or_else(|| panic!("secrets.txt has no sample of {id}"))
}

#[test]
fn screen_redacts_each_labelled_kind_and_keeps_the_label() {
    for id in LABELLED {
        let kind = inventory::find(id).unwrap_or_else(|| panic!("{id} is not in the inventory")).kind;
        let (secret, text) = first_sample(id);
        let label = &text[..text.find(&secret).expect("the text holds its secret")];

        let out = screen(&["--as-tool-result"], &text);
        let sent = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{id}: a tool result is never blocked: {}", String::from_utf8_lossy(&out.stderr));
        assert!(!sent.contains(&secret), "{id}: the secret was sent: {sent}");
        assert!(sent.starts_with(label), "{id}: the label {label:?} was not kept: {sent}");
        assert!(sent.contains(&format!("[redacted:{kind}]")), "{id}: no [redacted:{kind}] in {sent}");

        let owner = screen(&[], &text);
        let why = String::from_utf8_lossy(&owner.stderr);
        assert!(!owner.status.success() && owner.stdout.is_empty(), "{id}: the owner's message was not blocked");
        assert!(why.contains("BLOCKED") && why.contains(kind) && !why.contains(&secret), "{id}: {why}");
    }
}

#[test]
fn screen_leaves_the_labels_public_neighbours_alone() {
    let neighbours = [
        "Backup codes: 10 remaining, generated 2024-05-01",
        "2FA: on",
        "API key id: 4821",
        "Secret key: stored in the keyring, never shown here",
        "pairing phrase: shown once in Lightning Terminal",
        "hash 000000000000000000000000000000000000000000000000",
        "Shopping list\n1. milk      7. coffee\n2. eggs      8. sugar\n3. bread     9. flour\n4. butter   10. rice\n\
         5. cheese   11. pasta\n6. apples   12. juice",
    ];
    for text in neighbours {
        for args in [&["--as-tool-result"][..], &[]] {
            let out = screen(args, text);
            assert!(out.status.success(), "{text:?} {args:?}: {}", String::from_utf8_lossy(&out.stderr));
            assert_eq!(String::from_utf8_lossy(&out.stdout), text, "{args:?}");
        }
    }
}
