//! Writes a fixture data dir with the real parts: a wallet funded at the test mint, a paid turn through the test
//! provider that proposes a malformed tool call and a gated action the owner approves, the audit log, the
//! allowance and its spend, the LAN passphrase hashes, and the wallet's throwaway seed beside them.
//!
//! `AIUI_WRITE_DATADIR_FIXTURE=fixtures/datadir/0.1.0 cargo test -p aiui-tests --test integration \
//!  datadir::fixture -- --ignored`

use std::path::Path;
use std::sync::{Arc, RwLock};
use std::time::Duration;

use aiui_core::agent::{Agent, Event, OperatorConfig, TurnOutcome};
use aiui_core::backends::Message;
use aiui_core::backends::chain::{Chain, Leg};
use aiui_core::backends::routstr::Routstr;
use aiui_core::backends::routstr::discovery::Discovery;
use aiui_core::budget::{BudgetStore, BudgetUpdate, Period};
use aiui_core::egress::KnownSecret;
use aiui_core::gate::{AuditLog, Decision, Gate};
use aiui_core::i18n::Locale;
use aiui_core::net::guard::AddressPolicy;
use aiui_core::pay::{Payments, Wallet};
use aiui_core::secrets::{SecretName, Secrets};
use aiui_core::store::Store;
use aiui_core::{Secret, paths::DataDir};
use archy_devnode::MintConfig;
use serde_json::{Value, json};

use super::{APPROVAL_PASSPHRASE, EXPECTED_FILE, LAN_PASSPHRASE, SEED_FILE, described};
use crate::support::assistant::{claude_leg, ollama_leg};
use crate::support::mint::TestMint;
use crate::support::paid::{discovery_config, openai, test_reconcile_policy, test_routstr_config, test_wallet_options};
use crate::support::provider::TestProvider;
use crate::support::relay::TestRelay;
use crate::support::{PASSWORD, client_for, credentials, start, wire};

const FUNDED: u64 = 2_000;
const ALLOWANCE: u64 = 1_000;

#[tokio::test]
#[ignore = "writes a fixture: AIUI_WRITE_DATADIR_FIXTURE=DIR"]
async fn write_datadir_fixture() {
    let Some(out) = std::env::var_os("AIUI_WRITE_DATADIR_FIXTURE") else {
        panic!("set AIUI_WRITE_DATADIR_FIXTURE to the folder the fixture goes to");
    };
    let out = std::path::PathBuf::from(out);
    let work = tempfile::tempdir().unwrap();
    let data = DataDir(work.path().join("data"));
    let secrets = Secrets::in_memory();
    let expected = write_data_dir(&data, &secrets).await;

    std::fs::create_dir_all(&out).unwrap();
    assert!(std::fs::read_dir(&out).unwrap().next().is_none(), "{} is not empty", out.display());
    copy_without_leftovers(&data.0, &out);
    let words = secrets.get(SecretName::WalletSeed).unwrap().expect("the wallet made its seed");
    std::fs::write(out.join(SEED_FILE), format!("{}\n", words.expose())).unwrap();
    std::fs::write(out.join(EXPECTED_FILE), serde_json::to_string_pretty(&expected).unwrap() + "\n").unwrap();
    std::fs::write(out.join("README.md"), readme(&expected)).unwrap();
}

fn readme(expected: &Value) -> String {
    format!(
        "# A data dir written by AIUI {version}\n\n\
         Written by `tests/datadir/fixture.rs` with the real parts; every later AIUI must open it, migrate it and \
         show what `{EXPECTED_FILE}` lists (`tests/datadir/upgrade.rs`).\n\n\
         `{SEED_FILE}` is the seed of a throwaway wallet funded at a test mint that ran in-process for a few \
         seconds (fake Lightning, {mint}); it guards nothing. A real data dir never holds its seed: that lives in \
         the OS keyring. The LAN passphrases of the hash files are in `tests/datadir/mod.rs`.\n\n\
         Git keeps no modes: the test copies this folder and makes it 0700 and its files 0600 before opening it.\n",
        version = expected["written_by"].as_str().unwrap_or("?"),
        mint = expected["mint"].as_str().unwrap_or("?"),
    )
}

/// Fills `data` as the app would over a few minutes of use, and returns what a later version must find there.
async fn write_data_dir(data: &DataDir, secrets: &Secrets) -> Value {
    let dir = data.0.as_path();
    // As every shell does first: a fixture written by a version with a format marker holds it.
    aiui_core::datadir::open(dir).unwrap();
    let mint = TestMint::start().await;
    let relay = TestRelay::start().await;
    let replies =
        vec![openai("call_bad_arguments.json"), openai("call_restart_lnd.json"), openai("answer_restarted.json")];
    let provider = TestProvider::start(&mint.url(), replies).await;
    provider.announce(&relay.url, &mint.url()).await;

    let wallet = Wallet::open_with(dir, secrets, test_wallet_options()).await.expect("the wallet opens");
    let invoice = wallet.mint_invoice(&mint.url(), FUNDED).await.expect("an invoice");
    wallet.wait_minted(&mint.url(), &invoice.quote_id, Duration::from_secs(20)).await.expect("the fake LN pays");
    let budget = Arc::new(BudgetStore::open(&aiui_core::backends::registry::budget_path(dir)).unwrap());
    // Never renews: the spend stays in the current period however long after this the fixture is opened.
    budget
        .set(BudgetUpdate {
            allowance_sats: Some(ALLOWANCE),
            period: Some(Period::Never),
            accepted_mints: Some(vec![mint.url()]),
        })
        .unwrap();
    let payments = Arc::new(
        Payments::new(Arc::new(wallet), budget.clone())
            .with_refund_access(AddressPolicy::AllowPrivateForTests, None)
            .with_reconcile_policy(test_reconcile_policy()),
    );
    let discovery = Arc::new(Discovery::new(discovery_config(&relay.url)));
    let routstr = Routstr::new(test_routstr_config(), discovery, payments.clone()).unwrap();
    let chain = Chain::new(vec![
        ollama_leg(&wire::refused()),
        claude_leg(&wire::refused(), None),
        Leg::Routstr(Box::new(routstr)),
    ]);
    let mint_url = mint.url();
    let node = start(move |c| c.mints = vec![MintConfig { url: mint_url, unit: "sat".into(), trusted: true }]).await;
    let client = Arc::new(client_for(&node.node, credentials(PASSWORD)));
    let gate = Arc::new(Gate::new(AuditLog::open(&data.audit_log()).unwrap(), Duration::from_secs(30)));
    let store = Arc::new(Store::open(&data.conversations()).unwrap());
    let known = vec![KnownSecret::new("node-password", PASSWORD)];
    // English whatever this machine's LANG: the tests read the host's words.
    let config = Arc::new(RwLock::new(OperatorConfig { locale: Locale::En, ..OperatorConfig::default() }));
    let agent = Arc::new(Agent::new(client, chain, gate, store.clone(), config, known).with_budget(budget.clone()));

    let conversation = store.create_conversation("restart lnd").unwrap();
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
    let turn = {
        let (agent, conversation) = (agent.clone(), conversation.clone());
        tokio::spawn(async move { agent.turn(&conversation, "please restart lnd", &tx).await })
    };
    while let Some(event) = rx.recv().await {
        if let Event::AwaitingConfirmation { request } = &event {
            agent.gate.decide(&request.id, &request.arguments_hash, Decision::AllowOnce).expect("approved");
        }
    }
    let outcome = turn.await.unwrap().expect("the turn");
    assert!(matches!(outcome, TurnOutcome::Answered { .. }), "{outcome:?}");
    let quiet = store.create_conversation("a quiet one").unwrap();
    store.append_message(&quiet, &Message::User { text: "hello?".into() }, None).unwrap();
    store.append_notice(&quiet, "Nothing was sent: the fixture writes this notice itself.").unwrap();

    // Everything still in flight is ended, as at a clean shutdown, so the spend is settled.
    payments.reconcile().await.unwrap();
    let sums = payments.conservation().await.unwrap();
    assert!(sums.holds() && sums.in_flight == 0, "{sums:?}");
    let report = budget.get();
    assert!(report.spent_sats > 0 && report.reserved_sats == 0, "{report:?}");
    assert_eq!(report.spent_sats, sums.received_total - sums.wallet_balance, "{report:?} {sums:?}");

    aiui_web::passphrase::set(dir, aiui_web::passphrase::Kind::Lan, &Secret::from(LAN_PASSPHRASE)).unwrap();
    aiui_web::passphrase::set(dir, aiui_web::passphrase::Kind::Approval, &Secret::from(APPROVAL_PASSPHRASE)).unwrap();

    let conversations: Vec<Value> = store
        .list_conversations()
        .unwrap()
        .into_iter()
        .map(|summary| {
            let loaded = store.load(&summary.id).unwrap();
            json!({
                "id": summary.id,
                "title": summary.title,
                "message_count": summary.message_count,
                "entries": loaded.entries.len(),
                "messages": loaded.messages().iter().map(described).collect::<Vec<_>>(),
            })
        })
        .collect();
    let audit: Vec<Value> = std::fs::read_to_string(data.audit_log())
        .unwrap()
        .lines()
        .map(|line| {
            let line: Value = serde_json::from_str(line).unwrap();
            json!({ "event": line["event"], "id": line["id"] })
        })
        .collect();
    let expected = json!({
        "written_by": env!("CARGO_PKG_VERSION"),
        "mint": mint.url(),
        "conversations": conversations,
        "wallet_balance_sats": sums.wallet_balance,
        "received_total_sats": sums.received_total,
        "settled_spend_sats": sums.settled_spend,
        "fees_sats": sums.fees,
        "allowance_sats": report.allowance_sats,
        "period_spent_sats": report.spent_sats,
        "accepted_mints": report.accepted_mints,
        "audit": audit,
    });
    drop((agent, store, payments, budget));
    // cdk's pool closes its connections on tasks of its own.
    tokio::time::sleep(Duration::from_millis(300)).await;
    drop((node, provider, relay, mint));
    checkpoint_databases(dir);
    expected
}

/// Folds each database's WAL into it and closes it, so the copy is whole and holds no -wal/-shm leftovers.
fn checkpoint_databases(dir: &Path) {
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.extension().is_some_and(|e| e == "sqlite3") {
            let conn = rusqlite::Connection::open(&path).unwrap();
            conn.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(())).unwrap();
            conn.close().unwrap();
        }
    }
}

/// Copies the data dir's files, leaving out what lives only while a process runs: liveness and operation locks,
/// WAL leftovers, temporary files.
fn copy_without_leftovers(from: &Path, to: &Path) {
    for entry in std::fs::read_dir(from).unwrap().flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let transient =
            name == "sessions" || [".lock", "-wal", "-shm", "-journal", ".tmp"].iter().any(|end| name.ends_with(end));
        if transient {
            continue;
        }
        assert!(entry.file_type().unwrap().is_file(), "{name} is not a file: the fixture copies only files");
        std::fs::copy(entry.path(), to.join(&name)).unwrap();
    }
}
