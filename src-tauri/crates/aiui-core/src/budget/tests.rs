//! Budget policy tests: tables for the arithmetic, periods and the stop message, and a proptest over random
//! reserve/settle/release sequences and concurrent turns.

use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};

use proptest::prelude::*;

use super::*;

const DAY: i64 = 86_400_000;

fn store_in(dir: &tempfile::TempDir) -> BudgetStore {
    BudgetStore::open(&dir.path().join("budget.json")).unwrap()
}

fn with_allowance(dir: &tempfile::TempDir, allowance: u64) -> BudgetStore {
    let store = store_in(dir);
    store
        .set(BudgetUpdate {
            allowance_sats: Some(allowance),
            period: None,
            accepted_mints: Some(vec!["https://mint.example".into()]),
        })
        .unwrap();
    store
}

/// One reserve attempt against a fresh store holding `spent`/`reserved` already.
#[track_caller]
fn check(allowance: u64, policy_allowance: u64, spent: u64, reserved: u64, price: u64, expect: bool) {
    let dir = tempfile::tempdir().unwrap();
    let store = with_allowance(&dir, allowance);
    let full = PaymentPolicy { allowance_sats: allowance, remaining_sats: allowance, accepted_mints: vec![] };
    if spent > 0 {
        let r = store.reserve(&full, spent).expect("setup reserve");
        let _ = store.settle(r, spent);
    }
    let _held = (reserved > 0).then(|| store.reserve(&full, reserved).expect("setup hold"));
    let policy = PaymentPolicy { allowance_sats: policy_allowance, ..store.payment_policy() };
    let got = store.reserve(&policy, price);
    assert_eq!(
        got.is_some(),
        expect,
        "allowance {allowance} policy {policy_allowance} spent {spent} reserved {reserved} price {price}"
    );
    let report = store.get();
    assert!(report.spent_sats + report.reserved_sats <= allowance);
}

#[test]
fn reserve_fits_only_under_the_ceiling() {
    // allowance, policy allowance, spent, reserved, price -> reserved?
    check(100, 100, 0, 0, 100, true);
    check(100, 100, 0, 0, 101, false);
    check(100, 100, 60, 0, 40, true);
    check(100, 100, 60, 0, 41, false);
    check(100, 100, 60, 30, 10, true);
    check(100, 100, 60, 30, 11, false);
    check(100, 100, 0, 0, 0, false); // a zero price never reserves
    check(0, 0, 0, 0, 1, false); // a zero allowance affords nothing
    check(100, 0, 0, 0, 1, false); // nor does a zero-allowance policy
    check(100, 50, 0, 0, 60, false); // the policy's allowance caps too
    check(100, 500, 0, 0, 101, false); // and a bigger policy never lifts the store's ceiling
    check(u64::MAX, u64::MAX, 10, 0, u64::MAX, false); // no overflow
}

#[test]
fn policy_affords_nothing_at_zero_allowance() {
    let zero = PaymentPolicy::nothing();
    assert!(!zero.affords(1));
    assert!(!zero.affords(0));
    assert!(!zero.allows_paid());
    let some = PaymentPolicy { allowance_sats: 10, remaining_sats: 4, accepted_mints: vec!["https://m".into()] };
    assert!(some.affords(4));
    assert!(!some.affords(5));
    assert!(!some.affords(0));
    assert!(some.allows_paid());
    let restricted = some.restricted_to(&["https://m/".into(), "https://other".into()]);
    assert_eq!(restricted.accepted_mints, vec!["https://m".to_string()]);
    assert!(!some.restricted_to(&[]).allows_paid(), "no mint the node lists: no paid leg");
}

#[test]
fn settle_spends_actual_and_frees_the_rest() {
    let dir = tempfile::tempdir().unwrap();
    let store = with_allowance(&dir, 100);
    let policy = store.payment_policy();
    let r = store.reserve(&policy, 30).unwrap();
    assert_eq!(store.get().reserved_sats, 30);
    let settled = store.settle(r, 12);
    assert!(!settled.crossed_80);
    let report = store.get();
    assert_eq!((report.spent_sats, report.reserved_sats, report.remaining_sats), (12, 0, 88));
    let r = store.reserve(&policy, 20).unwrap();
    store.release(r);
    assert_eq!(store.get().remaining_sats, 88);
}

#[test]
fn the_80_percent_notice_fires_once_per_period() {
    let dir = tempfile::tempdir().unwrap();
    let now = Arc::new(AtomicI64::new(1_700_000_000_000));
    let clock_now = now.clone();
    let store = with_allowance(&dir, 100).with_clock(Arc::new(move || clock_now.load(Ordering::SeqCst)));
    store.set(BudgetUpdate { period: Some(Period::Daily), ..Default::default() }).unwrap();
    let policy = store.payment_policy();
    let pay = |n| store.settle(store.reserve(&policy, n).unwrap(), n).crossed_80;
    assert!(!pay(79));
    assert!(pay(1), "crossing 80% notifies");
    assert!(!pay(5), "once per period");
    assert!(store.get().notice_80_sent);
    // The notice waits until a surface takes it, and is given out once.
    let notice = store.take_notice().expect("the notice is pending");
    assert!(notice.contains("85 of its 100-sat allowance"), "{notice}");
    assert_eq!(store.take_notice(), None);
    // The next day the allowance renews and the notice re-arms.
    now.fetch_add(DAY, Ordering::SeqCst);
    let report = store.get();
    assert_eq!((report.spent_sats, report.notice_80_sent, report.remaining_sats), (0, false, 100));
    assert!(pay(90));
}

#[test]
fn a_reservation_never_survives_into_a_later_period() {
    let dir = tempfile::tempdir().unwrap();
    let now = Arc::new(AtomicI64::new(1_700_000_000_000));
    let clock_now = now.clone();
    let store = with_allowance(&dir, 50).with_clock(Arc::new(move || clock_now.load(Ordering::SeqCst)));
    store.set(BudgetUpdate { period: Some(Period::Weekly), ..Default::default() }).unwrap();
    let policy = store.payment_policy();
    let _ = store.settle(store.reserve(&policy, 40).unwrap(), 40);
    let held = store.reserve(&policy, 10).unwrap();
    now.fetch_add(6 * DAY, Ordering::SeqCst);
    assert_eq!(store.get().remaining_sats, 0, "still the same week");
    now.fetch_add(DAY, Ordering::SeqCst);
    let report = store.get();
    assert_eq!((report.spent_sats, report.reserved_sats, report.remaining_sats), (0, 0, 50));
    let _ = store.settle(held, 10);
    assert_eq!(store.get().spent_sats, 0, "counted against the week it was made in, which is closed");
    assert_eq!(store.get().reserved_sats, 0);
}

#[test]
fn the_budget_survives_a_reopen_and_only_set_changes_the_allowance() {
    let dir = tempfile::tempdir().unwrap();
    let store = with_allowance(&dir, 70);
    let policy = store.payment_policy();
    let _ = store.settle(store.reserve(&policy, 20).unwrap(), 15);
    let held = store.reserve(&policy, 5).unwrap();
    let held_id = held.id();
    drop(store);
    let reopened = store_in(&dir);
    let report = reopened.get();
    assert_eq!((report.allowance_sats, report.spent_sats, report.reserved_sats), (70, 15, 5));
    assert_eq!(report.accepted_mints, vec!["https://mint.example".to_string()]);
    let holders = reopened.reservation_holders();
    assert_eq!(holders.len(), 1);
    assert_eq!((holders[0].id, holders[0].own, holders[0].alive), (held_id, false, false), "its process is gone");
    let recovered = reopened.recover(held_id).expect("the reservation is persisted");
    assert_eq!(recovered.amount_sats(), 5);
    reopened.release(recovered);
    assert_eq!(reopened.get().remaining_sats, 55);
}

#[test]
fn set_validates_mints_and_a_failed_write_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let store = with_allowance(&dir, 10);
    let bad = store.set(BudgetUpdate { accepted_mints: Some(vec!["ftp://x".into()]), ..Default::default() });
    assert!(matches!(bad, Err(BudgetError::Invalid(_))), "{bad:?}");
    let normalized = store
        .set(BudgetUpdate { accepted_mints: Some(vec!["HTTPS://Mint.Example/".into()]), ..Default::default() })
        .unwrap();
    assert_eq!(normalized.accepted_mints, vec!["https://mint.example".to_string()]);

    // A store whose file cannot be written (its directory is a file) refuses to change and to reserve.
    // (Root ignores permissions, so the directory is swapped for a file after opening.)
    let blocker = dir.path().join("data");
    std::fs::create_dir(&blocker).unwrap();
    let stuck = BudgetStore::open(&blocker.join("budget.json")).unwrap();
    std::fs::remove_dir_all(&blocker).unwrap();
    std::fs::write(&blocker, b"x").unwrap();
    let err = stuck.set(BudgetUpdate { allowance_sats: Some(100), ..Default::default() }).unwrap_err();
    assert!(matches!(err, BudgetError::Write { .. }), "{err}");
    assert_eq!(stuck.get().allowance_sats, 0);
    let policy = PaymentPolicy { allowance_sats: 100, remaining_sats: 100, accepted_mints: vec![] };
    assert!(stuck.reserve(&policy, 1).is_none());
}

#[test]
fn stop_messages_say_what_remains_and_where_to_top_up() {
    let report = |allowance, spent, reserved| BudgetReport {
        allowance_sats: allowance,
        period: Period::Monthly,
        period_start_ms: 0,
        renews_at_ms: None,
        spent_sats: spent,
        reserved_sats: reserved,
        remaining_sats: allowance - spent - reserved,
        accepted_mints: vec![],
        notice_80_sent: false,
    };
    #[track_caller]
    fn says(message: String, parts: &[&str]) {
        for part in parts {
            assert!(message.contains(part), "{message:?} lacks {part:?}");
        }
        assert!(!message.to_lowercase().contains("retry"), "{message}");
    }
    says(stop_message(&report(0, 0, 0), None), &["switched off", "0 sats", "settings window"]);
    says(stop_message(&report(100, 100, 0), Some(5)), &["used up", "100 sats", "renews monthly", "top up"]);
    says(stop_message(&report(100, 90, 0), Some(25)), &["up to 25 sats", "only 10 of the 100-sat", "settings"]);
    says(stop_message(&report(100, 10, 0), None), &["could not pay", "90 of the 100-sat"]);
}

#[derive(Debug, Clone)]
enum Op {
    Reserve(u64),
    Settle { index: usize, per_mille: u64 },
    Release(usize),
    Extend { index: usize, extra: u64 },
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        (1u64..60).prop_map(Op::Reserve),
        (any::<usize>(), 0u64..=1000).prop_map(|(index, per_mille)| Op::Settle { index, per_mille }),
        any::<usize>().prop_map(Op::Release),
        (any::<usize>(), 1u64..10).prop_map(|(index, extra)| Op::Extend { index, extra }),
    ]
}

/// The case count is fixed (not left to PROPTEST_CASES) so the reported number is the number that ran.
const PROPTEST_CASES: u32 = 512;

proptest! {
    #![proptest_config(ProptestConfig { cases: PROPTEST_CASES, ..ProptestConfig::default() })]

    /// Random reserve/settle/release/extend sequences, then concurrent turns: `spent + reserved` never exceeds the
    /// allowance, spent is exactly the sum of settlements, and a reopened store agrees (nothing lost on disk).
    #[test]
    fn the_ceiling_holds_and_no_sat_is_lost(allowance in 0u64..300, ops in prop::collection::vec(op(), 0..40),
                                            turns in 1usize..5, steps in 1usize..6, price in 1u64..40) {
        // Each case fsyncs dozens of times; a RAM-backed dir (when there is one) keeps 512 cases quick.
        let dir = tempfile::tempdir_in("/dev/shm").or_else(|_| tempfile::tempdir()).unwrap();
        let store = Arc::new(with_allowance(&dir, allowance));
        let policy = store.payment_policy();
        let mut open: Vec<Reservation> = Vec::new();
        let mut settled_total = 0u64;
        for op in ops {
            match op {
                Op::Reserve(price) => {
                    let before = store.get();
                    match store.reserve(&policy, price) {
                        Some(r) => open.push(r),
                        None => prop_assert!(allowance == 0 || before.spent_sats + before.reserved_sats + price > allowance),
                    }
                }
                Op::Settle { index, per_mille } if !open.is_empty() => {
                    let r = open.remove(index % open.len());
                    let actual = r.amount_sats() * per_mille / 1000;
                    settled_total += actual;
                    let _ = store.settle(r, actual);
                }
                Op::Release(index) if !open.is_empty() => store.release(open.remove(index % open.len())),
                Op::Extend { index, extra } if !open.is_empty() => {
                    let i = index % open.len();
                    let _ = store.extend(&policy, &mut open[i], extra);
                }
                _ => {}
            }
            let report = store.get();
            prop_assert!(report.spent_sats + report.reserved_sats <= allowance);
            prop_assert_eq!(report.spent_sats, settled_total);
            prop_assert_eq!(report.reserved_sats, open.iter().map(Reservation::amount_sats).sum::<u64>());
        }
        for r in open.drain(..) {
            store.release(r);
        }

        // Concurrent turns: each thread reserves and settles part of what it reserved, racing the others.
        let handles: Vec<_> = (0..turns).map(|t| {
            let store = store.clone();
            let policy = policy.clone();
            std::thread::spawn(move || {
                let mut spent = 0u64;
                for s in 0..steps {
                    if let Some(r) = store.reserve(&policy, price) {
                        let report = store.get();
                        assert!(report.spent_sats + report.reserved_sats <= allowance);
                        let actual = price * ((t + s) as u64 % 3) / 2;
                        spent += actual;
                        let _ = store.settle(r, actual);
                    }
                }
                spent
            })
        }).collect();
        let concurrent: u64 = handles.into_iter().map(|h| h.join().unwrap()).sum();
        let report = store.get();
        prop_assert_eq!(report.spent_sats, settled_total + concurrent);
        prop_assert_eq!(report.reserved_sats, 0);
        prop_assert!(report.spent_sats <= allowance);
        drop(store);
        let reopened = store_in(&dir).get();
        prop_assert_eq!(reopened.spent_sats, settled_total + concurrent);
        prop_assert_eq!(reopened.reserved_sats, 0);
    }
}

/// The desktop app and `aiui-cli budget set` hold the same file: neither overwrites the other, and together they
/// cannot reserve past the ceiling.
#[test]
fn two_processes_on_one_file_share_one_ceiling() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("budget.json");
    let app = BudgetStore::open(&path).unwrap();
    let cli = BudgetStore::open(&path).unwrap();
    let mints = Some(vec!["https://mint.example".to_owned()]);
    cli.set(BudgetUpdate { allowance_sats: Some(100), period: None, accepted_mints: mints }).unwrap();
    assert_eq!(app.get().allowance_sats, 100, "the app sees the operator's change");
    let policy = app.payment_policy();
    let first = app.reserve(&policy, 70).expect("70 of 100 fits");
    assert!(cli.reserve(&policy, 40).is_none(), "the other process sees the 70 already reserved");
    let _ = app.settle(first, 60);
    assert_eq!(cli.get().spent_sats, 60);
    cli.set(BudgetUpdate { allowance_sats: Some(200), period: None, accepted_mints: None }).unwrap();
    let second = app.reserve(&app.payment_policy(), 120).expect("the raised allowance is seen");
    app.release(second);
    assert_eq!(BudgetStore::open(&path).unwrap().get().allowance_sats, 200, "the app's writes kept the change");
}
