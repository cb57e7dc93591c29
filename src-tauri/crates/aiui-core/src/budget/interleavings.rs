//! The seed's ceiling as a property, over random interleavings of two stores on one budget file and random provider
//! behaviour (honest change, change from another mint or unit, change larger than paid, 402, no answer, a crash of
//! either store followed by the other's reconcile, a period that ends mid-payment).
//!
//! The two "processes" are two stores in this one process taking turns: each sees what the other wrote, but the file
//! lock is never contended. `processes.rs` runs four real processes on one file at the same time for that.
//!
//! 10 000 cases by default (well under two minutes on two cores); `AIUI_PROPTEST_CASES=200000` for a longer run.

use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};

use cdk::nuts::CurrencyUnit;
use proptest::prelude::*;

use super::{BudgetStore, BudgetUpdate, PaymentPolicy, Period, Reservation};
use crate::pay::payments::returned_value;

const MINT: &str = "https://mint.example";
const DAY: i64 = 86_400_000;

#[derive(Debug, Clone)]
enum Provider {
    Honest { change_per_mille: u64 },
    OtherMint,
    OtherUnit,
    LargerThanPaid,
    Refused402,
    NoAnswer,
}

#[derive(Debug, Clone)]
enum Op {
    /// Process `p` starts a paid step at `price`; the provider then behaves as given (or the step stays open).
    Pay { p: usize, price: u64, provider: Provider },
    /// Process `p` settles one of its open steps: the outcome became known.
    Finish { p: usize, index: usize, spent_per_mille: u64 },
    /// Process `p` dies (SIGKILL): its open steps are orphaned; a new process starts in its place.
    Crash { p: usize },
    /// Process `p` reconciles what dead processes left: each orphan is reclaimed or written off.
    Reconcile { p: usize, write_off: bool },
    /// The clock moves on, maybe past the end of the period.
    Tick { hours: i64 },
}

fn provider() -> impl Strategy<Value = Provider> {
    prop_oneof![
        4 => (0u64..=1000).prop_map(|change_per_mille| Provider::Honest { change_per_mille }),
        1 => Just(Provider::OtherMint),
        1 => Just(Provider::OtherUnit),
        1 => Just(Provider::LargerThanPaid),
        1 => Just(Provider::Refused402),
        2 => Just(Provider::NoAnswer),
    ]
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        6 => (0usize..2, 1u64..80, provider()).prop_map(|(p, price, provider)| Op::Pay { p, price, provider }),
        2 => (0usize..2, any::<usize>(), 0u64..=1000)
            .prop_map(|(p, index, spent_per_mille)| Op::Finish { p, index, spent_per_mille }),
        1 => (0usize..2).prop_map(|p| Op::Crash { p }),
        1 => (0usize..2, any::<bool>()).prop_map(|(p, write_off)| Op::Reconcile { p, write_off }),
        1 => (1i64..40).prop_map(|hours| Op::Tick { hours }),
    ]
}

fn cases() -> u32 {
    std::env::var("AIUI_PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(10_000)
}

/// One open step as the model sees it: the reservation, and the period it was made in.
struct Open {
    reservation: Reservation,
    period_start: i64,
}

/// What the model expects: spend per period start, and the open steps per process.
struct Model {
    spent: std::collections::HashMap<i64, u64>,
    open: [Vec<Open>; 2],
    /// Steps whose process died: only a reconcile resolves them.
    orphans: Vec<Open>,
}

impl Model {
    fn count(&mut self, period_start: i64, sats: u64) {
        *self.spent.entry(period_start).or_default() += sats;
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn two_processes_and_a_lying_provider_never_pass_the_ceiling(
        allowance in 1u64..400,
        period in prop_oneof![Just(Period::Never), Just(Period::Daily)],
        ops in prop::collection::vec(op(), 1..24),
    ) {
        let dir = tempfile::tempdir_in("/dev/shm").or_else(|_| tempfile::tempdir()).unwrap();
        let path = dir.path().join("budget.json");
        let now = Arc::new(AtomicI64::new(crate::now_ms()));
        let open_store = || {
            let now = now.clone();
            BudgetStore::open(&path).unwrap().with_clock(Arc::new(move || now.load(Ordering::SeqCst)))
        };
        let mut stores = [open_store(), open_store()];
        stores[0]
            .set(BudgetUpdate { allowance_sats: Some(allowance), period: Some(period), accepted_mints: Some(vec![MINT.into()]) })
            .unwrap();
        let mut model = Model { spent: Default::default(), open: [Vec::new(), Vec::new()], orphans: Vec::new() };

        for op in ops {
            match op {
                Op::Pay { p, price, provider } => {
                    // Each step reads its policy from the file, as a turn does at its start.
                    let policy: PaymentPolicy = stores[p].payment_policy();
                    let before = stores[p].get();
                    let Some(reservation) = stores[p].reserve(&policy, price) else {
                        prop_assert!(before.spent_sats + before.reserved_sats + price > allowance || !policy.affords(price));
                        continue;
                    };
                    let period_start = stores[p].get().period_start_ms;
                    let returned = match provider {
                        Provider::Honest { change_per_mille } => Some((MINT, CurrencyUnit::Sat, price * change_per_mille / 1000)),
                        Provider::OtherMint => Some(("https://provider-mint.example", CurrencyUnit::Sat, price)),
                        Provider::OtherUnit => Some((MINT, CurrencyUnit::Msat, price * 1000)),
                        Provider::LargerThanPaid => Some((MINT, CurrencyUnit::Sat, price + 1 + price / 2)),
                        Provider::Refused402 => {
                            stores[p].release(reservation);
                            continue;
                        }
                        Provider::NoAnswer => {
                            model.open[p].push(Open { reservation, period_start });
                            continue;
                        }
                    };
                    let (mint, unit, face) = returned.unwrap();
                    let counted = returned_value(MINT, price, mint, &unit, face).unwrap_or(0);
                    let spent = price - counted;
                    let settled = stores[p].settle(reservation, spent);
                    prop_assert!(!settled.crossed_80 || allowance > 0);
                    let current = stores[p].get().period_start_ms;
                    if period_start == current {
                        model.count(period_start, spent);
                    }
                }
                Op::Finish { p, index, spent_per_mille } if !model.open[p].is_empty() => {
                    let open = model.open[p].remove(index % model.open[p].len());
                    let spent = open.reservation.amount_sats() * spent_per_mille / 1000;
                    let _ = stores[p].settle(open.reservation, spent);
                    if open.period_start == stores[p].get().period_start_ms {
                        model.count(open.period_start, spent);
                    }
                }
                Op::Crash { p } => {
                    model.orphans.append(&mut model.open[p]);
                    stores[p] = open_store();
                }
                Op::Reconcile { p, write_off } => {
                    // What `Payments::reconcile` does with a dead process's reservation, once the mint or the refund
                    // endpoint answered: release it (reclaimed) or settle it in full (written off).
                    let dead: Vec<u64> = stores[p].reservation_holders().iter().filter(|h| !h.alive).map(|h| h.id).collect();
                    for orphan in std::mem::take(&mut model.orphans) {
                        prop_assert!(dead.contains(&orphan.reservation.id()), "an orphan's process is seen as dead");
                        let recovered = stores[p].recover(orphan.reservation.id()).expect("still on file");
                        let amount = recovered.amount_sats();
                        if write_off {
                            let _ = stores[p].settle(recovered, amount);
                            if orphan.period_start == stores[p].get().period_start_ms {
                                model.count(orphan.period_start, amount);
                            }
                        } else {
                            stores[p].release(recovered);
                        }
                    }
                    // A live process's reservations are never among the dead.
                    for live in model.open.iter().flatten() {
                        prop_assert!(!dead.contains(&live.reservation.id()), "a live reservation was seen as dead");
                    }
                }
                Op::Tick { hours } => {
                    now.fetch_add(hours * DAY / 24, Ordering::SeqCst);
                }
                _ => {}
            }
            for store in &stores {
                for period in store.periods() {
                    prop_assert!(period.spent_sats + period.reserved_sats <= period.allowance_sats, "{period:?}");
                }
                let report = store.get();
                prop_assert!(report.spent_sats + report.reserved_sats <= allowance, "past the ceiling: {report:?}");
                let expected = model.spent.get(&report.period_start_ms).copied().unwrap_or(0);
                prop_assert_eq!(report.spent_sats, expected, "spend is exactly what was counted in this period");
                let reserved: u64 = model.open.iter().flatten().chain(model.orphans.iter())
                    .filter(|o| o.period_start == report.period_start_ms)
                    .map(|o| o.reservation.amount_sats())
                    .sum();
                prop_assert_eq!(report.reserved_sats, reserved, "only this period's open steps are reserved");
            }
        }
    }
}
