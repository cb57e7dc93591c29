//! Upgrades keep every file: a data dir written by an earlier AIUI (fixtures/datadir/<version>/) opened by this one.
//!
//! `fixture.rs` writes such a dir with the real parts (ignored; `AIUI_WRITE_DATADIR_FIXTURE=DIR` runs it), so each
//! version can leave its own behind for the ones after it; `upgrade.rs` opens each one.

mod fixture;
mod upgrade;

use std::collections::BTreeMap;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use aiui_core::backends::Message;
use serde_json::{Value, json};

pub type Snapshot = BTreeMap<PathBuf, (u32, Option<Vec<u8>>)>;

/// The fixtures' folder: `fixtures/datadir/`.
pub fn fixtures_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/datadir")
}

/// The file holding a fixture wallet's seed words. A throwaway wallet of a test mint; never a real one.
pub const SEED_FILE: &str = "TEST-ONLY-wallet-seed.txt";
/// What a fixture's test must see, written by the generator from what it observed.
pub const EXPECTED_FILE: &str = "EXPECTED.json";
/// The fixture's own files, beside the data dir's.
const NOT_DATA: [&str; 3] = [SEED_FILE, EXPECTED_FILE, "README.md"];
/// The LAN sign-in passphrase of the fixture's hash file, and the approval passphrase of its sibling.
pub const LAN_PASSPHRASE: &str = "fixture passphrase 0.1.0";
pub const APPROVAL_PASSPHRASE: &str = "fixture approval passphrase 0.1.0";

/// The data dir of fixture `version`, copied into a temp dir with the modes AIUI gives it (git keeps none).
pub fn copy_fixture(version: &str, into: &Path) -> PathBuf {
    let from = fixtures_root().join(version);
    let dir = into.join("data");
    std::fs::create_dir(&dir).unwrap();
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o700)).unwrap();
    for entry in std::fs::read_dir(&from).unwrap_or_else(|e| panic!("{}: {e}", from.display())).flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if NOT_DATA.contains(&name.as_str()) {
            continue;
        }
        assert!(
            !name.ends_with("-wal") && !name.ends_with("-shm"),
            "{name}: something opened the fixture in place; it holds no WAL leftovers (its databases were \
             checkpointed when it was written): delete {name}"
        );
        std::fs::copy(entry.path(), dir.join(&name)).unwrap();
        std::fs::set_permissions(dir.join(&name), std::fs::Permissions::from_mode(0o600)).unwrap();
    }
    dir
}

/// What the fixture `version` says its test must see.
pub fn expected(version: &str) -> Value {
    let path = fixtures_root().join(version).join(EXPECTED_FILE);
    serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The fixture wallet's seed words (a test mint's throwaway wallet).
pub fn fixture_seed(version: &str) -> aiui_core::Secret<String> {
    let words = std::fs::read_to_string(fixtures_root().join(version).join(SEED_FILE)).unwrap();
    aiui_core::Secret::new(words.trim().to_owned())
}

/// Every file and folder under `dir` with its mode and, for a file, its bytes: compared before and after (with
/// [`assert_unchanged`]), it shows that nothing was written, added, removed or made readable to others.
pub fn snapshot(dir: &Path) -> Snapshot {
    let mut found = BTreeMap::new();
    let mut pending = vec![dir.to_owned()];
    while let Some(at) = pending.pop() {
        let meta = std::fs::metadata(&at).unwrap();
        let mode = meta.permissions().mode() & 0o7777;
        if meta.is_dir() {
            found.insert(at.clone(), (mode, None));
            pending.extend(std::fs::read_dir(&at).unwrap().map(|entry| entry.unwrap().path()));
        } else {
            found.insert(at.clone(), (mode, Some(std::fs::read(&at).unwrap())));
        }
    }
    found
}

/// Fails naming each path that changed, never its bytes: the wallet's database holds ecash.
#[track_caller]
pub fn assert_unchanged(before: &Snapshot, after: &Snapshot, what: &str) {
    let changed: Vec<String> = before
        .keys()
        .chain(after.keys())
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .filter_map(|path| {
            let (was, is) = (before.get(path), after.get(path));
            let how = match (was, is) {
                (Some(_), None) => "removed",
                (None, Some(_)) => "added",
                (Some((m1, _)), Some((m2, _))) if m1 != m2 => {
                    return Some(format!("{} mode {m1:o} -> {m2:o}", path.display()));
                }
                (Some((_, b1)), Some((_, b2))) if b1 != b2 => "rewritten",
                _ => return None,
            };
            Some(format!("{} {how}", path.display()))
        })
        .collect();
    assert!(changed.is_empty(), "{what}: {changed:#?}");
}

/// A message as the fixture's test checks it, in words of its own: neither the in-memory type's serde form nor the
/// store's, so neither can change what is expected.
pub fn described(message: &Message) -> Value {
    match message {
        Message::User { text } => json!({ "role": "user", "text": text }),
        Message::Assistant { text, tool_calls } => {
            let calls: Vec<Value> = tool_calls
                .iter()
                .map(|call| match &call.arguments {
                    Ok(arguments) => json!({ "id": call.id, "name": call.name, "arguments": arguments }),
                    Err(bad) => json!({
                        "id": call.id,
                        "name": call.name,
                        "refused": { "reason": bad.reason, "raw": bad.raw },
                    }),
                })
                .collect();
            json!({ "role": "assistant", "text": text, "tool_calls": calls })
        }
        Message::ToolResult { call_id, name, content, is_error } => json!({
            "role": "tool_result", "call_id": call_id, "name": name, "content": content, "is_error": is_error,
        }),
    }
}
