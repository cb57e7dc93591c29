//! `aiui-cli screen` on secrets known by their label (egress/labelled.rs): the first corpus sample of each such
//! inventory entry loses its secret and keeps its label, the owner's own words holding one are blocked, and the
//! labels' public neighbours go through unchanged.

use std::io::Write;
use std::process::{Command, Output, Stdio};

use aiui_core::egress::inventory;

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
    child.stdin.take().expect("stdin is piped").write_all(stdin.as_bytes()).expect("aiui-cli reads stdin");
    child.wait_with_output().expect("aiui-cli finishes")
}

fn unescape(field: &str) -> String {
    let mut out = String::new();
    let mut chars = field.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some(other) => out.push(other),
            None => out.push('\\'),
        }
    }
    out
}

/// The first sample of `id` in the secret corpus: (secret, text).
fn first_sample(id: &str) -> (String, String) {
    let path = format!("{}/../../../fixtures/egress/secrets.txt", env!("CARGO_MANIFEST_DIR"));
    let corpus = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("corpus {path} is missing: {e}"));
    corpus
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| l.splitn(3, '\t').map(unescape).collect::<Vec<_>>())
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
