//! Budget policy tests: tables for the arithmetic, periods and the stop message, and a proptest over random
//! reserve/settle/release sequences and concurrent turns.

use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};

use proptest::prelude::*;

use super::*;

const DAY: i64 = 86_400_000;
const HOUR: i64 = 3_600_000;

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

/// A store on a fake clock from its first write, so its first period starts at the fake time.
fn clocked(dir: &tempfile::TempDir, allowance: u64, period: Period) -> (Arc<AtomicI64>, BudgetStore) {
    let (now, clock) = fake_clock(1_700_000_000_000);
    let store = store_in(dir).with_clock(clock);
    store
        .set(BudgetUpdate {
            allowance_sats: Some(allowance),
            period: Some(period),
            accepted_mints: Some(vec!["https://mint.example".into()]),
        })
        .unwrap();
    (now, store)
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
    let (now, store) = clocked(&dir, 50, Period::Weekly);
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
    let periods = store.periods();
    let closed = &periods[1];
    assert_eq!((closed.spent_sats, closed.reserved_sats, closed.allowance_sats), (50, 0, 50), "{periods:?}");
    assert_eq!(closed.end_ms, Some(closed.start_ms + 7 * DAY), "{periods:?}");
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
    assert!(matches!(bad, Err(BudgetError::NotAMint(_))), "{bad:?}");
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
    says(stop_message(Locale::En, &report(0, 0, 0), None), &["switched off", "0 sats", "settings window"]);
    says(stop_message(Locale::En, &report(100, 100, 0), Some(5)), &["used up", "100 sats", "renews monthly", "top up"]);
    says(
        stop_message(Locale::En, &report(100, 90, 0), Some(25)),
        &["up to 25 sats", "only 10 of the 100-sat", "settings"],
    );
    says(stop_message(Locale::En, &report(100, 10, 0), None), &["could not pay", "90 of the 100-sat"]);
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

fn fake_clock(start: i64) -> (Arc<AtomicI64>, Clock) {
    let now = Arc::new(AtomicI64::new(start));
    let read = now.clone();
    (now, Arc::new(move || read.load(Ordering::SeqCst)))
}

fn full_policy(allowance: u64) -> PaymentPolicy {
    PaymentPolicy { allowance_sats: allowance, remaining_sats: allowance, accepted_mints: vec![] }
}

/// The review's example: 300 spent and 600 parked for a refund, then Never → Monthly. The switch used to start a new
/// period, so 700 more could be reserved and the 600 settled into a period nothing counted: 1600 against 1000.
#[test]
fn changing_the_period_does_not_pass_the_ceiling() {
    let dir = tempfile::tempdir().unwrap();
    let store = with_allowance(&dir, 1000);
    let policy = full_policy(1000);
    let _ = store.settle(store.reserve(&policy, 300).unwrap(), 300);
    let parked = store.reserve(&policy, 600).unwrap();
    store.set(BudgetUpdate { period: Some(Period::Monthly), ..Default::default() }).unwrap();
    assert!(store.reserve(&policy, 700).is_none(), "the 600 in flight still counts after the switch");
    let last = store.reserve(&policy, 100).expect("100 is what is left");
    let _ = store.settle(parked, 600);
    let _ = store.settle(last, 100);
    let report = store.get();
    assert_eq!((report.spent_sats, report.reserved_sats, report.remaining_sats), (1000, 0, 0));
    let periods = store.periods();
    assert_eq!(periods.len(), 1, "a new schedule is not a new period: {periods:?}");
    assert!(periods.iter().all(|p| p.spent_sats <= p.allowance_sats), "{periods:?}");
}

/// The schedule change moves the current period's end to the new schedule's first boundary; only then it closes.
#[test]
fn a_new_schedule_ends_the_current_period_at_its_first_boundary() {
    let dir = tempfile::tempdir().unwrap();
    let (now, store) = clocked(&dir, 100, Period::Never);
    let _ = store.settle(store.reserve(&full_policy(100), 70).unwrap(), 70);
    now.fetch_add(5 * DAY, Ordering::SeqCst);
    let switched = store.set(BudgetUpdate { period: Some(Period::Daily), ..Default::default() }).unwrap();
    assert_eq!((switched.spent_sats, switched.remaining_sats), (70, 30), "the period goes on");
    assert_eq!(switched.renews_at_ms, Some(now.load(Ordering::SeqCst) + DAY));
    now.fetch_add(DAY, Ordering::SeqCst);
    let periods = store.periods();
    assert_eq!((periods[0].number, periods[0].spent_sats), (2, 0), "{periods:?}");
    assert_eq!((periods[1].number, periods[1].spent_sats, periods[1].end_ms), (1, 70, switched.renews_at_ms));
}

/// Lowering the allowance stops new reservations at once; those granted before still settle, and the period's
/// ceiling is the highest allowance it granted under.
#[test]
fn a_lowered_allowance_lets_granted_payments_settle_and_grants_nothing_past_it() {
    let dir = tempfile::tempdir().unwrap();
    let (now, store) = clocked(&dir, 1000, Period::Daily);
    let first = store.reserve(&full_policy(1000), 600).unwrap();
    let mut second = store.reserve(&full_policy(1000), 300).unwrap();
    store.set(BudgetUpdate { allowance_sats: Some(500), ..Default::default() }).unwrap();
    let policy = store.payment_policy();
    assert!(store.reserve(&policy, 1).is_none(), "900 held is already past the new 500");
    assert!(!store.extend(&full_policy(1000), &mut second, 1), "nor may fees grow past it");
    let _ = store.settle(first, 600);
    let _ = store.settle(second, 300);
    assert!(store.reserve(&full_policy(1000), 1).is_none(), "900 spent of 500");
    let current = &store.periods()[0];
    assert_eq!((current.spent_sats, current.allowance_sats), (900, 1000), "{current:?}");
    now.fetch_add(DAY, Ordering::SeqCst);
    let periods = store.periods();
    assert_eq!((periods[0].allowance_sats, periods[0].spent_sats), (500, 0), "the next day has the new 500");
    assert_eq!((periods[1].allowance_sats, periods[1].spent_sats), (1000, 900), "{periods:?}");
    assert!(store.reserve(&store.payment_policy(), 500).is_some());
}

/// A file written before periods were numbered: its reservations count by the old rule, and nothing is lost.
#[test]
fn a_budget_file_from_before_numbered_periods_reads_the_same() {
    let dir = tempfile::tempdir().unwrap();
    let start = 1_700_000_000_000i64;
    let old = serde_json::json!({
        "allowance_sats": 100, "period": "daily", "period_origin_ms": start - DAY, "period_start_ms": start,
        "spent_sats": 20, "notice_80_sent": false, "accepted_mints": ["https://mint.example"], "next_reservation": 4,
        "reservations": {
            "1": { "amount_sats": 5, "session": "dead", "created_ms": start - 10 },
            "2": { "amount_sats": 7, "session": "dead", "created_ms": start + 10, "period_start_ms": start },
            "3": { "amount_sats": 9, "session": "dead", "created_ms": start - 10, "period_start_ms": start - DAY }
        }
    });
    std::fs::write(dir.path().join("budget.json"), old.to_string()).unwrap();
    let (now, clock) = fake_clock(start + HOUR);
    let store = store_in(&dir).with_clock(clock);
    let report = store.get();
    assert_eq!((report.spent_sats, report.reserved_sats, report.renews_at_ms), (20, 7, Some(start + DAY)));
    assert_eq!(store.recover(2).unwrap().period_number(), Some(1));
    assert_eq!(store.recover(3).unwrap().period_number(), None, "made in a period the old file no longer knew");
    let _ = store.settle(store.recover(2).unwrap(), 7);
    let _ = store.settle(store.recover(3).unwrap(), 9);
    assert_eq!(store.get().spent_sats, 27, "the old period's settle counts nowhere, as it did");
    let fresh = store.reserve(&store.payment_policy(), 1).unwrap();
    assert!(fresh.id() != 0 && ![1, 2, 3].contains(&fresh.id()), "a fresh id is never one already on file");
    now.fetch_add(DAY, Ordering::SeqCst);
    let periods = store.periods();
    assert_eq!((periods[1].number, periods[1].spent_sats, periods[1].reserved_sats), (1, 27, 1), "{periods:?}");
}

/// Fees learned just after a rollover used to be checked against the new, empty period and added to the old one.
#[test]
fn extend_just_after_a_rollover_is_checked_against_the_old_periods_room() {
    let dir = tempfile::tempdir().unwrap();
    let (now, store) = clocked(&dir, 100, Period::Daily);
    let policy = full_policy(100);
    let _ = store.settle(store.reserve(&policy, 60).unwrap(), 60);
    let mut held = store.reserve(&policy, 30).unwrap();
    now.fetch_add(DAY, Ordering::SeqCst);
    assert!(!store.extend(&policy, &mut held, 20), "60 + 30 + 20 passes the old period's 100");
    assert_eq!(held.amount_sats(), 30);
    assert!(store.extend(&policy, &mut held, 10), "60 + 30 + 10 fits the old period exactly");
    let _ = store.settle(held, 40);
    assert_eq!(store.get().remaining_sats, 100, "the new period is untouched");
    let periods = store.periods();
    assert_eq!((periods[1].spent_sats, periods[1].reserved_sats, periods[1].allowance_sats), (100, 0, 100));
}

/// Only the current period and the last dozen closed ones stay on file, besides any closed one still holding a
/// reservation (what it settles to is counted there).
#[test]
fn closed_periods_are_bounded_but_kept_while_they_hold_a_reservation() {
    let dir = tempfile::tempdir().unwrap();
    let (now, store) = clocked(&dir, 100, Period::Daily);
    let held = store.reserve(&full_policy(100), 10).unwrap();
    let held_period = held.period_number().unwrap();
    for _ in 0..30 {
        let _ = store.settle(store.reserve(&full_policy(100), 1).unwrap(), 1);
        now.fetch_add(DAY, Ordering::SeqCst);
    }
    let periods = store.periods();
    assert_eq!(periods.len(), 1 + 12 + 1, "{periods:?}");
    assert_eq!(periods.last().unwrap().number, held_period, "the period holding a reservation is kept");
    let _ = store.settle(held, 4);
    let old = store.periods().into_iter().find(|p| p.number == held_period).unwrap();
    assert_eq!((old.spent_sats, old.reserved_sats), (5, 0), "{old:?}");
}

/// The damaged-file message tells the owner to remove budget.json, while the ledger keeps rows naming old
/// reservation ids: a fresh file must not hand those ids out again.
#[test]
fn reservation_ids_do_not_restart_when_the_file_is_removed() {
    let mut seen = std::collections::HashSet::new();
    for _reset in 0..2 {
        let dir = tempfile::tempdir_in("/dev/shm").or_else(|_| tempfile::tempdir()).unwrap();
        let store = with_allowance(&dir, 1_000_000);
        let policy = full_policy(1_000_000);
        for _ in 0..1000 {
            let r = store.reserve(&policy, 1).unwrap();
            assert!(r.id() != 0 && i64::try_from(r.id()).is_ok(), "id {} does not fit the ledger's i64", r.id());
            assert!(seen.insert(r.id()), "reservation id {} was handed out twice", r.id());
            store.release(r);
        }
    }
}

/// "Only 8 of the 40-sat allowance remain" with nothing spent reads as 32 sats lost; they are held for payments.
#[test]
fn the_stop_message_says_what_is_held_for_payments_in_progress() {
    let report = |spent, reserved| BudgetReport {
        allowance_sats: 40,
        period: Period::Never,
        period_start_ms: 0,
        renews_at_ms: None,
        spent_sats: spent,
        reserved_sats: reserved,
        remaining_sats: 40 - spent - reserved,
        accepted_mints: vec![],
        notice_80_sent: false,
    };
    #[track_caller]
    fn says(message: String, parts: &[&str]) {
        for part in parts {
            assert!(message.contains(part), "{message:?} lacks {part:?}");
        }
    }
    says(stop_message(Locale::En, &report(0, 32), Some(25)), &["only 8 of the 40-sat", "0 spent", "32 held", "refund"]);
    says(stop_message(Locale::En, &report(0, 32), None), &["8 of the 40-sat", "0 spent", "32 held", "refund"]);
    says(stop_message(Locale::En, &report(8, 32), Some(1)), &["used up", "8 spent", "32 held", "refund"]);
    let plain = stop_message(Locale::En, &report(32, 0), Some(25));
    assert!(!plain.contains("held"), "nothing is held: {plain}");
}

/// A process's liveness lock must never be seen unlocked under its final name: another process's `session_alive`
/// would delete it, and the new process would hold a lock on a file nobody can find, looking dead forever. Stores
/// open (and go) while a sweeper runs `session_alive` over every lock file, as `reconcile` does, in a tight loop.
#[test]
fn a_new_sessions_lock_file_is_never_deleted_under_it() {
    const OPENS_PER_THREAD: usize = 5000;
    let dir = tempfile::tempdir_in("/dev/shm").or_else(|_| tempfile::tempdir()).unwrap();
    let path = dir.path().join("budget.json");
    let sessions = dir.path().join("sessions");
    let done = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let sweeper = {
        let (done, sessions, path) = (done.clone(), sessions.clone(), path.clone());
        std::thread::spawn(move || {
            let sweeper = BudgetStore::open(&path).unwrap();
            let mut sweeps = 0u64;
            while !done.load(Ordering::SeqCst) {
                for entry in std::fs::read_dir(&sessions).unwrap().flatten() {
                    let name = entry.file_name().to_string_lossy().into_owned();
                    if let Some(session) = name.strip_suffix(".lock") {
                        let _ = sweeper.session_alive(session);
                    }
                }
                sweeps += 1;
            }
            sweeps
        })
    };
    let openers: Vec<_> = (0..2)
        .map(|_| {
            let (path, sessions) = (path.clone(), sessions.clone());
            std::thread::spawn(move || {
                let observer = BudgetStore::open(&path).unwrap();
                let mut lost = Vec::new();
                for _ in 0..OPENS_PER_THREAD {
                    let store = BudgetStore::open(&path).unwrap();
                    let session = store.session().to_owned();
                    if !sessions.join(format!("{session}.lock")).exists() || !observer.session_alive(&session) {
                        lost.push(session);
                    }
                }
                lost
            })
        })
        .collect();
    let lost: Vec<String> = openers.into_iter().flat_map(|h| h.join().unwrap()).collect();
    done.store(true, Ordering::SeqCst);
    let sweeps = sweeper.join().unwrap();
    assert!(sweeps > 10, "the sweeper ran only {sweeps} times: the test proved nothing");
    assert!(lost.is_empty(), "{} of {} live stores look dead: {lost:?}", lost.len(), 2 * OPENS_PER_THREAD);
}

/// A temporary lock file left by a process that died before renaming it is removed once it is old and nobody holds
/// it; one still locked is left, and neither is ever taken for a session.
#[test]
fn stale_temporary_lock_files_are_removed_only_when_they_can_be_locked() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("budget.json");
    let sessions = dir.path().join("sessions");
    std::fs::create_dir_all(&sessions).unwrap();
    let an_hour_ago = std::time::SystemTime::now() - std::time::Duration::from_secs(3600);
    let make = |name: &str| {
        let file = std::fs::File::create(sessions.join(name)).unwrap();
        file.set_modified(an_hour_ago).unwrap();
        file
    };
    drop(make(".tmp-deadbeef-0"));
    let held = make(".tmp-cafe-0");
    held.lock().unwrap();
    let store = BudgetStore::open(&path).unwrap();
    assert!(!sessions.join(".tmp-deadbeef-0").exists(), "an ownerless temp file is swept");
    assert!(sessions.join(".tmp-cafe-0").exists(), "a locked one is not");
    assert!(!store.other_sessions_alive(), "a temp file is no session");
    assert!(sessions.join(format!("{}.lock", store.session())).exists());
    let other = BudgetStore::open(&path).unwrap();
    assert!(store.other_sessions_alive() && store.session_alive(other.session()));
}

#[test]
fn the_clock_passing_a_rescheduled_end_closes_the_period_before_the_next_change() {
    let dir = tempfile::tempdir().unwrap();
    let (now, store) = clocked(&dir, 400, Period::Monthly);
    let update = |period| BudgetUpdate { allowance_sats: Some(400), period: Some(period), accepted_mints: None };
    store.set(update(Period::Daily)).unwrap();
    now.fetch_add(25 * HOUR, Ordering::SeqCst);
    store.set(update(Period::Weekly)).unwrap();
    let periods = store.periods();
    assert_eq!(periods.len(), 2, "{periods:?}");
}

/// Review F17: a process whose liveness lock could not be made would look gone to every other process, which would
/// release its reservations in the middle of its requests. It reserves nothing, so it pays nothing.
#[test]
fn a_process_without_its_liveness_lock_reserves_nothing() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("sessions"), "a file where the sessions dir belongs").unwrap();
    let store = with_allowance(&dir, 100);
    assert!(store.reserve(&store.payment_policy(), 10).is_none(), "reserved without a liveness lock");
    std::fs::remove_file(dir.path().join("sessions")).unwrap();
    let store = with_allowance(&dir, 100);
    assert!(store.reserve(&store.payment_policy(), 10).is_some(), "with its lock it reserves");
}
