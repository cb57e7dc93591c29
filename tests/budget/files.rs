//! Another local user must not read the owner's ecash, ledger, budget, conversations or audit log: the data dir is
//! 0700 and every file in it 0600, checked after a real paid turn wrote all of them.

use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use crate::support::paid::{openai, paid};

fn walk(dir: &Path, found: &mut Vec<(String, u32, bool)>) {
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let meta = entry.metadata().unwrap();
        let name = entry.path().display().to_string();
        found.push((name, meta.permissions().mode() & 0o777, meta.is_dir()));
        if meta.is_dir() {
            walk(&entry.path(), found);
        }
    }
}

#[tokio::test]
async fn the_data_dir_is_0700_and_every_file_in_it_0600() {
    let p = paid(500, vec![openai("answer_plain.json")]).await;
    let (_, outcome) = p.h.turn("hello", None).await;
    assert!(matches!(outcome, aiui_core::agent::TurnOutcome::Answered { .. }), "{outcome:?}");
    p.payments.reconcile().await.unwrap();
    let dir = p.payments.wallet().data_dir().to_owned();
    let mode = std::fs::metadata(&dir).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o700, "the data dir");
    let mut found = Vec::new();
    walk(&dir, &mut found);
    let names: Vec<&str> = found.iter().map(|(n, _, _)| n.rsplit('/').next().unwrap()).collect();
    let expected_files = [
        "wallet.sqlite3",
        "ledger.sqlite3",
        "budget.json",
        "budget.lock",
        "sessions",
        "wallet-operations.lock",
        "reconcile.lock",
    ];
    for expected in expected_files {
        assert!(names.contains(&expected), "{expected} is among the checked files: {names:?}");
    }
    for (name, mode, is_dir) in &found {
        let want = if *is_dir { 0o700 } else { 0o600 };
        assert_eq!(*mode, want, "{name} is {mode:o}");
    }
}
