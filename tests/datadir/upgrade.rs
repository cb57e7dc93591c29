//! Each fixture in fixtures/datadir/ opened by this build as the CLI opens a data dir (`datadir::open`, then each
//! part): migrated forward once, showing the same conversations, balance, spend, audit entries and passphrases; a
//! second open writes nothing; a dir marked by a newer AIUI is refused and left byte for byte as it was.
//!
//! The wallet's seed goes into an in-memory `Secrets`: no keyring is reliably there in-process (the CLI's test,
//! aiui-cli/tests/datadir.rs, puts it in a real one).

use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::sync::{Arc, Barrier};

use aiui_core::budget::BudgetStore;
use aiui_core::datadir::{self, DataDirError, FORMAT, Opened};
use aiui_core::gate::AuditLog;
use aiui_core::paths::DataDir;
use aiui_core::pay::{Payments, Wallet};
use aiui_core::secrets::{SecretName, Secrets};
use aiui_core::store::{ConversationId, Store};
use aiui_web::passphrase::{Kind, StoredHash};
use serde_json::{Value, json};

use super::{
    APPROVAL_PASSPHRASE, LAN_PASSPHRASE, assert_unchanged, copy_fixture, described, expected, fixture_seed, snapshot,
};
use crate::support::paid::test_wallet_options;

/// Every version that left a fixture; each must open.
const VERSIONS: &[&str] = &["0.1.0"];

#[tokio::test]
async fn every_earlier_data_dir_opens_migrated_and_shows_the_same() {
    for version in VERSIONS {
        let tmp = tempfile::tempdir().unwrap();
        let dir = copy_fixture(version, tmp.path());
        // 0.1.0 wrote no marker: its format is 1.
        let format = std::fs::read(datadir::marker_path(&dir))
            .map(|text| serde_json::from_slice::<Value>(&text).unwrap()["format"].as_u64().unwrap() as u32)
            .unwrap_or(1);
        let info = datadir::open(&dir).unwrap_or_else(|e| panic!("{version}: {e}"));
        let written_by = (*version).to_owned();
        let want = if format == FORMAT {
            Opened::Current { written_by }
        } else {
            Opened::Migrated { from_format: format, written_by }
        };
        assert_eq!(info.opened, want, "{version}");
        let marker: Value = serde_json::from_slice(&std::fs::read(datadir::marker_path(&dir)).unwrap()).unwrap();
        assert_eq!(marker, json!({ "format": FORMAT, "written_by": datadir::VERSION }));

        // Opened again: the marker alone says it is done, and nothing is written.
        let before = snapshot(&dir);
        let again = datadir::open(&dir).unwrap();
        assert_eq!(again.opened, Opened::Current { written_by: datadir::VERSION.into() });
        assert_unchanged(&before, &snapshot(&dir), &format!("{version}: a second datadir::open wrote something"));
        shows_what_it_held(version, &again.data()).await;
        // And once more after every part was opened and used: still the same.
        assert_eq!(datadir::open(&dir).unwrap().opened, Opened::Current { written_by: datadir::VERSION.into() });
        shows_what_it_held(version, &again.data()).await;
        assert_private(&dir);
    }
}

/// Opens each part of `data` the way the shells do and checks it against the fixture's EXPECTED.json.
async fn shows_what_it_held(version: &str, data: &DataDir) {
    let want = expected(version);
    let dir = data.0.as_path();

    let store = Store::open(&data.conversations()).unwrap();
    let list = store.list_conversations().unwrap();
    let wanted = want["conversations"].as_array().unwrap();
    assert_eq!(list.len(), wanted.len(), "{version}: {list:?}");
    for (summary, want) in list.iter().zip(wanted) {
        assert_eq!(summary.id.0, want["id"], "{version}: the list's order");
        assert_eq!(summary.title, want["title"]);
        assert_eq!(summary.message_count, want["message_count"].as_u64().unwrap());
        let loaded = store.load(&ConversationId(summary.id.0.clone())).unwrap();
        assert_eq!(loaded.entries.len() as u64, want["entries"].as_u64().unwrap(), "{version}: {}", summary.title);
        let messages: Vec<Value> = loaded.messages().iter().map(described).collect();
        assert_eq!(Value::from(messages), want["messages"], "{version}: {}", summary.title);
    }
    drop(store);
    tool_calls_are_in_the_stores_own_shape(&data.conversations(), want["conversations"].as_array().unwrap());

    let budget = Arc::new(BudgetStore::open(&aiui_core::backends::registry::budget_path(dir)).unwrap());
    let report = budget.get();
    assert_eq!(report.allowance_sats, want["allowance_sats"].as_u64().unwrap(), "{version}: {report:?}");
    assert_eq!(report.spent_sats, want["period_spent_sats"].as_u64().unwrap(), "{version}: {report:?}");
    assert_eq!(report.reserved_sats, 0);
    assert_eq!(json!(report.accepted_mints), want["accepted_mints"]);

    // The fixture's mint is long gone: the wallet opens and counts from cdk's own database.
    let secrets = Secrets::in_memory();
    secrets.set(SecretName::WalletSeed, &fixture_seed(version)).unwrap();
    let wallet = Wallet::open_with(dir, &secrets, test_wallet_options()).await.unwrap();
    assert_eq!(wallet.total_balance().await.unwrap(), want["wallet_balance_sats"].as_u64().unwrap(), "{version}");
    let payments = Payments::new(Arc::new(wallet), budget);
    let sums = payments.conservation().await.unwrap();
    assert!(sums.holds(), "{version}: {sums:?}");
    assert_eq!(sums.received_total, want["received_total_sats"].as_u64().unwrap(), "{version}: {sums:?}");
    assert_eq!(sums.settled_spend, want["settled_spend_sats"].as_u64().unwrap(), "{version}: {sums:?}");
    assert_eq!(sums.fees, want["fees_sats"].as_u64().unwrap(), "{version}: {sums:?}");
    assert_eq!(sums.in_flight, 0, "{version}: {sums:?}");
    drop(payments);

    // The gate appends to the log it finds; the entries are read as every audit reader reads them.
    drop(AuditLog::open(&data.audit_log()).unwrap());
    let audit: Vec<Value> = std::fs::read_to_string(data.audit_log())
        .unwrap()
        .lines()
        .map(|line| {
            let line: Value = serde_json::from_str(line).unwrap();
            json!({ "event": line["event"], "id": line["id"] })
        })
        .collect();
    assert_eq!(Value::from(audit), want["audit"], "{version}");

    for (kind, passphrase) in [(Kind::Lan, LAN_PASSPHRASE), (Kind::Approval, APPROVAL_PASSPHRASE)] {
        let hash = StoredHash::load(dir, kind).unwrap().unwrap_or_else(|| panic!("{version}: no {}", kind.label()));
        assert!(hash.verify(passphrase), "{version}: the {} no longer verifies", kind.label());
        assert!(!hash.verify("not the fixture passphrase"), "{version}");
    }
}

/// The stored rows, read as bytes: no tool call keeps 0.1.0's `{"Ok": …}` / `{"Err": …}`.
fn tool_calls_are_in_the_stores_own_shape(path: &Path, conversations: &[Value]) {
    let conn = rusqlite::Connection::open(path).unwrap();
    let mut stmt = conn.prepare("SELECT body_json FROM entries WHERE kind = 'message'").unwrap();
    let bodies: Vec<Value> = stmt
        .query_map([], |row| row.get::<_, String>(0))
        .unwrap()
        .map(|body| serde_json::from_str(&body.unwrap()).unwrap())
        .collect();
    let stored: Vec<&Value> = bodies.iter().filter_map(|b| b["tool_calls"].as_array()).flatten().collect();
    let wanted: Vec<&Value> = conversations
        .iter()
        .flat_map(|c| c["messages"].as_array().unwrap())
        .filter_map(|m| m["tool_calls"].as_array())
        .flatten()
        .collect();
    assert_eq!(stored.len(), wanted.len());
    assert!(!stored.is_empty(), "the fixture holds tool calls");
    for (stored, wanted) in stored.iter().zip(wanted) {
        assert_eq!(stored["id"], wanted["id"]);
        assert!(stored.get("arguments").is_none(), "{stored}");
        match (wanted.get("arguments"), wanted.get("refused")) {
            (Some(arguments), None) => assert_eq!(stored["input"], json!({ "arguments": arguments })),
            (None, Some(refused)) => assert_eq!(stored["input"], json!({ "refused": refused })),
            other => panic!("EXPECTED.json: {other:?}"),
        }
    }
}

fn assert_private(dir: &Path) {
    for (path, (mode, bytes)) in snapshot(dir) {
        let want = if bytes.is_some() { 0o600 } else { 0o700 };
        assert_eq!(mode, want, "{} is {mode:o}", path.display());
    }
}

#[test]
fn a_data_dir_from_a_newer_aiui_is_refused_and_left_as_it_was() {
    for version in VERSIONS {
        // Unmigrated underneath: the store still at 0.1.0's schema, so any write would show.
        let tmp = tempfile::tempdir().unwrap();
        let dir = copy_fixture(version, tmp.path());
        let newer = json!({ "format": FORMAT + 1, "written_by": "9.9.9" });
        std::fs::write(datadir::marker_path(&dir), newer.to_string()).unwrap();
        std::fs::set_permissions(datadir::marker_path(&dir), std::fs::Permissions::from_mode(0o600)).unwrap();
        // A mode this build would change, to see that it does not.
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o750)).unwrap();
        let before = snapshot(&dir);
        let error = datadir::open(&dir).unwrap_err();
        assert!(matches!(&error, DataDirError::Newer { format, .. } if *format == FORMAT + 1), "{error:?}");
        let message = error.to_string();
        assert!(message.contains("AIUI 9.9.9") && message.contains(&format!("AIUI {}", datadir::VERSION)), "{message}");
        assert!(
            message.contains(&dir.display().to_string()) && message.contains("left exactly as it was"),
            "{message}"
        );
        assert_unchanged(&before, &snapshot(&dir), &format!("{version}: the refused dir changed"));
    }
}

#[test]
fn two_processes_opening_an_old_dir_at_once_migrate_it_once() {
    // Threads with their own file handles: the upgrade lock is a flock, held per open file, as between processes.
    let tmp = tempfile::tempdir().unwrap();
    let dir = copy_fixture(VERSIONS[0], tmp.path());
    let start = Arc::new(Barrier::new(4));
    let openers: Vec<_> = (0..4)
        .map(|_| {
            let (dir, start) = (dir.clone(), start.clone());
            std::thread::spawn(move || {
                start.wait();
                datadir::open(&dir).unwrap().opened
            })
        })
        .collect();
    let opened: Vec<Opened> = openers.into_iter().map(|t| t.join().unwrap()).collect();
    let migrated = opened.iter().filter(|o| matches!(o, Opened::Migrated { .. })).count();
    assert_eq!(migrated, 1, "one migrates, the others wait for it and find it done: {opened:?}");
    let store = Store::open(&DataDir(dir.clone()).conversations()).unwrap();
    let want = expected(VERSIONS[0]);
    for (summary, want) in store.list_conversations().unwrap().iter().zip(want["conversations"].as_array().unwrap()) {
        let messages: Vec<Value> = store.load(&summary.id).unwrap().messages().iter().map(described).collect();
        assert_eq!(Value::from(messages), want["messages"]);
    }
    assert_private(&dir);
}
