//! `aiui-cli` on a data dir written by AIUI 0.1.0 (fixtures/datadir/0.1.0/): `budget get` and `wallet balance`
//! migrate it and show what it held, with the fixture wallet's seed in a real Secret Service keyring started for
//! the test (gnome-keyring inside `dbus-run-session`, as in tests/operator.rs); and a dir a newer AIUI marked is
//! refused by both, exit code non-zero, the message naming both versions, not a byte changed.

use std::collections::BTreeMap;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use aiui_core::datadir;
use serde_json::{Value, json};

/// The keyring service the fixture's seed goes into: never the owner's `aiui`.
const KEYRING_SERVICE: &str = "aiui-datadir-fixture-test";
/// Set in the child that stores the seed (see `stores_the_fixture_seed_in_the_test_keyring`).
const SEED_CHILD: &str = "AIUI_DATADIR_SEED_CHILD";

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../fixtures/datadir/0.1.0")
}

/// The fixture's data dir in a temp dir, with the modes AIUI gives it (git keeps none).
fn copy_fixture(into: &Path) -> PathBuf {
    let dir = into.join("data");
    std::fs::create_dir(&dir).unwrap();
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o700)).unwrap();
    for entry in std::fs::read_dir(fixture()).unwrap().flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if ["EXPECTED.json", "README.md", "TEST-ONLY-wallet-seed.txt"].contains(&name.as_str()) {
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

fn expected() -> Value {
    serde_json::from_slice(&std::fs::read(fixture().join("EXPECTED.json")).unwrap()).unwrap()
}

fn aiui_cli(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_aiui-cli"))
        .args(args)
        .arg("--data-dir")
        .arg(dir)
        .env("AIUI_KEYRING_SERVICE", KEYRING_SERVICE)
        .stdin(Stdio::null())
        .output()
        .expect("aiui-cli runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Each file's mode and bytes, and each folder's mode.
fn snapshot(dir: &Path) -> BTreeMap<PathBuf, (u32, Option<Vec<u8>>)> {
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

/// The paths whose mode or bytes differ (never the bytes: the wallet's database holds ecash).
fn changed(before: &BTreeMap<PathBuf, (u32, Option<Vec<u8>>)>, dir: &Path) -> Vec<PathBuf> {
    let after = snapshot(dir);
    let mut paths: Vec<PathBuf> = before.keys().chain(after.keys()).cloned().collect();
    paths.sort();
    paths.dedup();
    paths.into_iter().filter(|path| before.get(path) != after.get(path)).collect()
}

#[test]
fn budget_get_migrates_a_0_1_0_data_dir_and_shows_its_spend() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = copy_fixture(tmp.path());
    let want = expected();
    let out = aiui_cli(&dir, &["budget", "get", "--json"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["allowance_sats"], want["allowance_sats"]);
    assert_eq!(report["spent_sats"], want["period_spent_sats"]);
    assert_eq!(report["accepted_mints"], want["accepted_mints"]);
    let marker: Value = serde_json::from_slice(&std::fs::read(datadir::marker_path(&dir)).unwrap()).unwrap();
    assert_eq!(marker, json!({ "format": datadir::FORMAT, "written_by": datadir::VERSION }));
    // The store was brought up to date by the same open: its schema version (the header's user_version, bytes
    // 60..64) is this build's, read before anything else opens it.
    let header = std::fs::read(dir.join("conversations.sqlite3")).unwrap();
    assert_eq!(u32::from_be_bytes(header[60..64].try_into().unwrap()), 2, "the store's schema");
    let store = aiui_core::store::Store::open(&dir.join("conversations.sqlite3")).unwrap();
    let titles: Vec<(String, u64)> =
        store.list_conversations().unwrap().into_iter().map(|c| (c.title, c.message_count)).collect();
    let wanted: Vec<(String, u64)> = want["conversations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| (c["title"].as_str().unwrap().to_owned(), c["message_count"].as_u64().unwrap()))
        .collect();
    assert_eq!(titles, wanted);
}

/// Not a test of its own: run by `wallet_balance_…` inside its D-Bus session, it puts the fixture's seed in the
/// test keyring, as a restore would have.
#[test]
#[ignore = "a step of wallet_balance_of_a_0_1_0_data_dir_is_read_from_its_own_database"]
fn stores_the_fixture_seed_in_the_test_keyring() {
    if std::env::var_os(SEED_CHILD).is_none() {
        return;
    }
    let words = std::fs::read_to_string(fixture().join("TEST-ONLY-wallet-seed.txt")).unwrap();
    let secrets = aiui_core::secrets::Secrets::keyring_service(KEYRING_SERVICE);
    secrets
        .set(aiui_core::secrets::SecretName::WalletSeed, &aiui_core::Secret::new(words.trim().to_owned()))
        .expect("the test keyring takes the seed");
}

#[test]
fn wallet_balance_of_a_0_1_0_data_dir_is_read_from_its_own_database() {
    for tool in ["dbus-run-session", "gnome-keyring-daemon"] {
        let found = Command::new("sh").args(["-c", &format!("command -v {tool}")]).output().unwrap();
        assert!(found.status.success(), "{tool} is missing: install dbus and gnome-keyring (see .ci/run)");
    }
    let tmp = tempfile::tempdir().unwrap();
    let dir = copy_fixture(tmp.path());
    let me = std::env::current_exe().unwrap();
    let cli = env!("CARGO_BIN_EXE_aiui-cli");
    // The fixture's mint ran in-process when it was written and is gone: the balance must not need it.
    let script = format!(
        r#"set -e
export XDG_RUNTIME_DIR=$(mktemp -d); chmod 700 "$XDG_RUNTIME_DIR"
# A fresh keyring in a temp dir: never the user's own login keyring.
export XDG_DATA_HOME="$XDG_RUNTIME_DIR/data"; mkdir -p "$XDG_DATA_HOME"
trap 'rm -rf "$XDG_RUNTIME_DIR"' EXIT
eval "$(printf test | gnome-keyring-daemon --unlock --components=secrets)"
{SEED_CHILD}=1 '{me}' --exact --ignored --quiet stores_the_fixture_seed_in_the_test_keyring >/dev/null
echo '== balance'; AIUI_KEYRING_SERVICE={KEYRING_SERVICE} '{cli}' wallet balance --data-dir '{dir}'
echo '== done'
"#,
        me = me.display(),
        dir = dir.display(),
    );
    let out =
        Command::new("dbus-run-session").args(["--", "bash", "-c", &script]).stdin(Stdio::null()).output().unwrap();
    let stdout = text(&out.stdout);
    assert!(stdout.contains("== done"), "the sequence stopped:\n{stdout}\n{}", text(&out.stderr));
    let balance = stdout.split("== balance\n").nth(1).unwrap().split("\n== done").next().unwrap();
    let want = expected();
    let (balance_sats, spent, received) = (
        want["wallet_balance_sats"].as_u64().unwrap(),
        want["settled_spend_sats"].as_u64().unwrap(),
        want["received_total_sats"].as_u64().unwrap(),
    );
    assert!(balance.contains(&format!("{balance_sats:>10} sats  {}", want["mint"].as_str().unwrap())), "{balance}");
    assert!(balance.contains(&format!("{balance_sats:>10} sats  total")), "{balance}");
    assert!(balance.contains(&format!("{spent:>10} sats  spent, 0 sats in mint fees, {received} sats")), "{balance}");
    assert!(!text(&out.stderr).contains("does not add up"), "{}", text(&out.stderr));
    let words = std::fs::read_to_string(fixture().join("TEST-ONLY-wallet-seed.txt")).unwrap();
    let first_words: String = words.split_whitespace().take(3).collect::<Vec<_>>().join(" ");
    assert!(!stdout.contains(&first_words) && !text(&out.stderr).contains(&first_words), "the seed was printed");
}

#[test]
fn a_data_dir_from_a_newer_aiui_is_refused_by_each_command_untouched() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = copy_fixture(tmp.path());
    let marker = datadir::marker_path(&dir);
    std::fs::write(&marker, json!({ "format": datadir::FORMAT + 1, "written_by": "9.9.9" }).to_string()).unwrap();
    std::fs::set_permissions(&marker, std::fs::Permissions::from_mode(0o600)).unwrap();
    let before = snapshot(&dir);
    for args in [&["budget", "get"][..], &["wallet", "balance"], &["budget", "set", "--allowance", "5"]] {
        let out = aiui_cli(&dir, args);
        let stderr = text(&out.stderr);
        assert!(!out.status.success(), "{args:?} ran on a newer dir: {}", text(&out.stdout));
        assert!(stderr.contains("AIUI 9.9.9") && stderr.contains(&format!("AIUI {}", datadir::VERSION)), "{stderr}");
        assert!(stderr.contains("left exactly as it was"), "{stderr}");
        assert!(out.stdout.is_empty(), "{args:?}: {}", text(&out.stdout));
        assert_eq!(changed(&before, &dir), Vec::<PathBuf>::new(), "{args:?} changed the refused dir");
    }
}
