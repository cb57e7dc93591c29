//! Four real OS processes on one data dir at the same time, against the real test mint (input fee 100) and the
//! hostile test provider: two pay request after request while the provider lies in turn, one reconciles over and
//! over, and one is the owner changing the period and the allowance while the shared clock rolls periods. At the
//! end, every period's spend is within its allowance, nothing is in flight or reserved, the ledger adds up, and
//! the budget counted exactly what left the wallet.

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use aiui_core::Secret;
use aiui_core::budget::{BudgetUpdate, Period};
use aiui_core::i18n::Locale;
use aiui_core::pay::Payments;
use aiui_core::secrets::{SecretName, Secrets};

use super::crash::{command, wait_for};
use super::{assert_conserved, funded, open_with_clock_file};
use crate::support::mint::TestMint;
use crate::support::paid::openai;
use crate::support::provider::{Fault, TestProvider};
use crate::support::relay::TestRelay;

const FUNDS: u64 = 3_000;
const ALLOWANCE: u64 = 400;
const PAYS_EACH: usize = 16;
const HOUR_MS: i64 = 3_600_000;

/// The roles of the children (`budget::crash::pay_child_process` dispatches `stress-*` here).
pub(super) async fn child(role: &str, payments: Arc<Payments>, relay: &str) {
    let clock = std::env::var("AIUI_PAY_CLOCK").expect("the clock file");
    match role {
        "stress-pay" => {
            let (routstr, request) = super::crash::paid_leg(&payments, relay);
            let mut answered = 0;
            for _ in 0..PAYS_EACH {
                let policy = payments.budget().payment_policy();
                if let Ok(id) = routstr.check(&request, &policy).await
                    && routstr.send(&id, routstr.request_body(&request), &policy, Locale::En).await.is_ok()
                {
                    answered += 1;
                }
            }
            eprintln!("AIUI-STRESS-DONE paid, {answered} answered");
        }
        "stress-reconcile" => {
            let mut runs = 0;
            while !Path::new(&format!("{clock}.stop")).exists() {
                let _ = payments.reconcile().await;
                runs += 1;
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            eprintln!("AIUI-STRESS-DONE reconciled {runs} times");
        }
        "stress-operator" => {
            let mut changes = 0u64;
            let mut rolls = 0;
            while !Path::new(&format!("{clock}.stop")).exists() {
                let period = if changes.is_multiple_of(2) { Period::Daily } else { Period::Weekly };
                let allowance = if changes.is_multiple_of(3) { ALLOWANCE - 100 } else { ALLOWANCE };
                let update =
                    BudgetUpdate { allowance_sats: Some(allowance), period: Some(period), accepted_mints: None };
                payments.budget().set(update).expect("the owner's change is saved");
                // Four times early on, time passes on the shared clock: the period rolls mid-payment.
                if rolls < 4 && changes % 10 == 9 {
                    rolls += 1;
                    let now: i64 = std::fs::read_to_string(&clock).unwrap().trim().parse().unwrap();
                    // Longer than a week: whichever schedule the owner just chose, its period ends.
                    write_clock(Path::new(&clock), now + 8 * 24 * HOUR_MS);
                }
                changes += 1;
                // No pause: the owner's writes to budget.json overlap every other process's, which is what the
                // file lock is for (without it, this test sees lost writes).
                tokio::task::yield_now().await;
            }
            eprintln!("AIUI-STRESS-DONE {changes} owner changes");
        }
        other => panic!("unknown stress role {other}"),
    }
}

fn write_clock(path: &Path, ms: i64) {
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, ms.to_string()).unwrap();
    std::fs::rename(&tmp, path).unwrap();
}

// Its first runs found a real loss: the provider sending our own (redeemed) token back as "change" left 72 sats
// per case neither in the wallet nor in the ledger. `Payments::receive_for` now refuses the very token that was
// paid before receiving it; with that check removed, this test fails on conservation (seen in 3 of 3 runs).
#[tokio::test(flavor = "multi_thread")]
async fn four_processes_a_lying_provider_and_the_owner_never_pass_a_ceiling() {
    let mint = TestMint::start_with_fee(100).await;
    let relay = TestRelay::start().await;
    let replies = (0..128).map(|_| openai("answer_plain.json")).collect();
    let provider = TestProvider::start(&mint.url(), replies).await;
    provider.announce(&relay.url, &mint.url()).await;
    let dir = tempfile::tempdir().unwrap();
    let clock = dir.path().join("clock");
    write_clock(&clock, aiui_core::now_ms());
    let secrets = Secrets::in_memory();
    drop(funded(&mint, dir.path(), &secrets, FUNDS, ALLOWANCE).await);
    let seed = secrets.get(SecretName::WalletSeed).unwrap().expect("a seed").expose().clone();

    let roles = ["stress-pay", "stress-pay", "stress-reconcile", "stress-operator"];
    let mut children: Vec<_> = roles
        .iter()
        .map(|role| {
            command(role, dir.path(), &seed, &relay.url, None).env("AIUI_PAY_CLOCK", &clock).spawn().expect("a child")
        })
        .collect();
    // The provider lies in turn while the payers run: every request meets the next fault.
    let faults = [
        Fault::None,
        Fault::OwnTokenAsChange,
        Fault::InternalNoChange,
        Fault::PaymentRequired,
        Fault::RedeemThen402,
        Fault::ChangeLargerThanPaid,
        Fault::UpstreamError,
        Fault::None,
    ];
    let liar = {
        let state = provider.state.clone();
        tokio::spawn(async move {
            for n in 0usize.. {
                state.arm_next(faults[n % faults.len()]);
                tokio::time::sleep(Duration::from_millis(120)).await;
            }
        })
    };
    let mut lines = Vec::new();
    for child in children.iter_mut().take(2) {
        lines.push(wait_for(child, "AIUI-STRESS-DONE").await);
    }
    liar.abort();
    std::fs::write(format!("{}.stop", clock.display()), "").unwrap();
    for child in children.iter_mut().skip(2) {
        lines.push(wait_for(child, "AIUI-STRESS-DONE").await);
    }
    for child in &mut children {
        assert!(child.wait().unwrap().success(), "a child failed: {lines:?}");
    }
    eprintln!("{}", lines.join("\n"));

    // What is left open is resolved by the reconciles of later runs, as the owner's app would: here, at once.
    let secrets = Secrets::in_memory();
    secrets.set(SecretName::WalletSeed, &Secret::new(seed)).unwrap();
    let payments = open_with_clock_file(dir.path(), &secrets, &clock)
        .await
        .with_reconcile_policy(crate::support::paid::test_reconcile_policy());
    let payments = payments.with_refund_access(aiui_core::net::guard::AddressPolicy::AllowPrivateForTests, None);
    // No process crashed, so every settle reached the budget by itself: a reservation that reconcile has to settle
    // from the ledger now means a budget write was lost (two processes writing the file at once).
    let mut settled_late = 0;
    for _ in 0..4 {
        settled_late += payments.reconcile().await.unwrap().settled_late;
    }
    assert_eq!(settled_late, 0, "budget writes were lost and had to be mended from the ledger");
    eprintln!("{}", dump(dir.path()));
    let sums = assert_conserved(payments.conservation().await.unwrap());
    assert_eq!(sums.in_flight, 0, "{sums:?}");
    let periods = payments.budget().periods();
    assert!(periods.len() > 1, "periods rolled during the run: {periods:?}");
    for period in &periods {
        assert!(period.spent_sats <= period.allowance_sats, "a period passed its ceiling: {period:?}");
        assert_eq!(period.reserved_sats, 0, "a reservation survived: {period:?}");
    }
    let counted: u64 = periods.iter().map(|p| p.spent_sats).sum();
    let left = sums.received_total - sums.wallet_balance;
    assert_eq!(counted, left, "the budget counted exactly what left the wallet: {sums:?} {periods:?}");
    assert!(sums.settled_spend > 0, "some requests were paid: {sums:?}");
}

/// What the wallet's and the ledger's files hold, for a failure to say where the sats went.
fn dump(dir: &Path) -> String {
    let mut out = Vec::new();
    let query = |file: &str, sql: &str, out: &mut Vec<String>| {
        let conn = rusqlite::Connection::open(dir.join(file)).unwrap();
        let mut stmt = conn.prepare(sql).unwrap();
        let columns = stmt.column_count();
        let rows = stmt
            .query_map([], |row| {
                Ok((0..columns)
                    .map(|i| match row.get_ref(i).unwrap() {
                        rusqlite::types::ValueRef::Integer(n) => n.to_string(),
                        rusqlite::types::ValueRef::Text(t) => String::from_utf8_lossy(t).chars().take(40).collect(),
                        rusqlite::types::ValueRef::Null => "-".into(),
                        other => format!("{other:?}").chars().take(20).collect(),
                    })
                    .collect::<Vec<_>>()
                    .join(" | "))
            })
            .unwrap();
        out.push(format!("-- {sql}"));
        out.extend(rows.map(Result::unwrap));
    };
    query("wallet.sqlite3", "SELECT state, COUNT(*), SUM(amount) FROM proof GROUP BY state", &mut out);
    query("wallet.sqlite3", "SELECT name FROM sqlite_master WHERE type = 'table'", &mut out);
    query(
        "ledger.sqlite3",
        "SELECT id, state, amount, spent, fees, written_off, returned_token IS NOT NULL, set_aside_reason, tries \
         FROM payments ORDER BY created_ms",
        &mut out,
    );
    out.join("\n")
}
