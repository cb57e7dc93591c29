//! The budget file's contents: the allowance, the numbered accounting periods (the current one and the closed ones
//! that still matter), and the reservations, each counted in the period it was made in.
//!
//! Only the clock passing the current period's end closes it ([`State::roll`]). The owner changing the schedule
//! moves that end, never the start: a period that had already spent or reserved sats keeps them, so no schedule
//! change can free room that is still committed.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use super::{BudgetReport, Period, PeriodSpend};

/// Closed periods kept for the record besides those that still hold a reservation (which are always kept: their
/// settlements are counted there).
const CLOSED_PERIODS_KEPT: usize = 12;

#[derive(Debug, Clone, Serialize, Deserialize)]
pub(super) struct ReservationRecord {
    pub(super) amount_sats: u64,
    /// The process that made it: reservations of an earlier process that no ledger entry claims are orphans.
    pub(super) session: String,
    pub(super) created_ms: i64,
    /// The start of the period it was made in. Still written so that an older version reading the file counts it
    /// where this one does.
    #[serde(default)]
    pub(super) period_start_ms: Option<i64>,
    /// The number of the accounting period it counts in. `None` only for a record an older version left in a period
    /// this file no longer knows: it counts nowhere, as it did for that version.
    #[serde(default)]
    pub(super) period: Option<u64>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(super) struct ClosedPeriod {
    pub(super) number: u64,
    pub(super) start_ms: i64,
    pub(super) end_ms: i64,
    /// The highest allowance in force while it was current: the ceiling its reservations were granted under.
    pub(super) allowance_sats: u64,
    pub(super) spent_sats: u64,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(from = "StoredState")]
pub(super) struct State {
    pub(super) allowance_sats: u64,
    pub(super) period: Period,
    /// When the owner last set the period schedule: its boundaries count from here.
    pub(super) period_origin_ms: i64,
    pub(super) period_number: u64,
    pub(super) period_start_ms: i64,
    /// When the current period closes; `None` while the schedule is [`Period::Never`].
    pub(super) period_end_ms: Option<i64>,
    /// The highest allowance in force during the current period. A lowered allowance stops new reservations at
    /// once, but those granted before still settle, so this, not today's allowance, bounds the period's spend.
    pub(super) period_allowance_sats: u64,
    pub(super) spent_sats: u64,
    /// Spend crossed 80% of the allowance this period.
    pub(super) notice_80_sent: bool,
    /// The 80% notice is waiting for a surface to show it ([`super::BudgetStore::take_notice`]).
    pub(super) notice_80_pending: bool,
    pub(super) accepted_mints: Vec<String>,
    pub(super) reservations: BTreeMap<u64, ReservationRecord>,
    /// Oldest first.
    pub(super) closed_periods: Vec<ClosedPeriod>,
}

/// The file as any version wrote it; [`State`] is what it means today.
#[derive(Deserialize)]
struct StoredState {
    allowance_sats: u64,
    period: Period,
    period_origin_ms: i64,
    /// Absent in files written before periods were numbered.
    #[serde(default)]
    period_number: Option<u64>,
    period_start_ms: i64,
    #[serde(default)]
    period_end_ms: Option<i64>,
    #[serde(default)]
    period_allowance_sats: Option<u64>,
    spent_sats: u64,
    notice_80_sent: bool,
    #[serde(default)]
    notice_80_pending: bool,
    accepted_mints: Vec<String>,
    reservations: BTreeMap<u64, ReservationRecord>,
    #[serde(default)]
    closed_periods: Vec<ClosedPeriod>,
}

impl From<StoredState> for State {
    fn from(stored: StoredState) -> Self {
        let numbered = stored.period_number.is_some();
        let mut state = State {
            allowance_sats: stored.allowance_sats,
            period: stored.period,
            period_origin_ms: stored.period_origin_ms,
            period_number: stored.period_number.unwrap_or(1),
            period_start_ms: stored.period_start_ms,
            // An older file kept no end: it was the schedule's next boundary after the period's start.
            period_end_ms: if numbered {
                stored.period_end_ms
            } else {
                stored.period.bounds(stored.period_origin_ms, stored.period_start_ms).1
            },
            period_allowance_sats: stored.period_allowance_sats.unwrap_or(stored.allowance_sats),
            spent_sats: stored.spent_sats,
            notice_80_sent: stored.notice_80_sent,
            notice_80_pending: stored.notice_80_pending,
            accepted_mints: stored.accepted_mints,
            reservations: stored.reservations,
            closed_periods: stored.closed_periods,
        };
        // Records of older versions carry no number: they count in the current period by the rule those versions
        // used, otherwise in the newest closed one, otherwise nowhere (as they did then).
        let newest_closed = state.closed_periods.last().map(|p| p.number);
        for record in state.reservations.values_mut().filter(|r| r.period.is_none()) {
            record.period = if record.period_start_ms.unwrap_or(record.created_ms) >= state.period_start_ms {
                Some(state.period_number)
            } else {
                newest_closed
            };
        }
        state
    }
}

impl State {
    pub(super) fn new(now: i64) -> Self {
        Self {
            allowance_sats: 0,
            period: Period::Never,
            period_origin_ms: now,
            period_number: 1,
            period_start_ms: now,
            period_end_ms: None,
            period_allowance_sats: 0,
            spent_sats: 0,
            notice_80_sent: false,
            notice_80_pending: false,
            accepted_mints: Vec::new(),
            reservations: BTreeMap::new(),
            closed_periods: Vec::new(),
        }
    }

    /// What the current period's reservations hold.
    pub(super) fn reserved(&self) -> u64 {
        self.reserved_in(self.period_number)
    }

    fn reserved_in(&self, number: u64) -> u64 {
        self.reservations.values().filter(|r| r.period == Some(number)).map(|r| r.amount_sats).sum()
    }

    pub(super) fn closed_mut(&mut self, number: u64) -> Option<&mut ClosedPeriod> {
        self.closed_periods.iter_mut().find(|p| p.number == number)
    }

    /// Whether `extra` more sats fit period `number`: its spend, its reservations and `extra` within its ceiling and
    /// `policy_cap`. The current period's ceiling is today's allowance; a closed one's is what it had, so fees
    /// learned after a rollover are checked against the period they will be counted in.
    pub(super) fn fits(&self, number: u64, extra: u64, policy_cap: u64) -> bool {
        let (spent, allowance) = if number == self.period_number {
            (self.spent_sats, self.allowance_sats)
        } else {
            match self.closed_periods.iter().find(|p| p.number == number) {
                Some(closed) => (closed.spent_sats, closed.allowance_sats),
                None => return false,
            }
        };
        let committed = spent.checked_add(self.reserved_in(number)).and_then(|c| c.checked_add(extra));
        committed.is_some_and(|c| c <= allowance.min(policy_cap))
    }

    /// A new allowance, in force at once; the period's ceiling remembers the highest one granted under it.
    pub(super) fn set_allowance(&mut self, allowance: u64) {
        self.allowance_sats = allowance;
        self.period_allowance_sats = self.period_allowance_sats.max(allowance);
    }

    /// A new schedule whose boundaries count from `now`: the current period now ends at its first boundary. The
    /// period itself goes on (same number, spend and reservations): a schedule change never frees committed sats.
    pub(super) fn reschedule(&mut self, period: Period, now: i64) {
        self.period = period;
        self.period_origin_ms = now;
        self.period_end_ms = period.nth_start(now, 1);
    }

    /// Closes the current period once the clock has passed its end, and opens the one the clock is in.
    pub(super) fn roll(&mut self, now: i64) {
        let Some(end) = self.period_end_ms.filter(|end| now >= *end) else { return };
        self.closed_periods.push(ClosedPeriod {
            number: self.period_number,
            start_ms: self.period_start_ms,
            end_ms: end,
            allowance_sats: self.period_allowance_sats,
            spent_sats: self.spent_sats,
        });
        let (start, next_end) = self.period.bounds(self.period_origin_ms, now);
        self.period_number += 1;
        // A period never begins before the last one ended, whatever a hand-edited file says.
        self.period_start_ms = start.max(end);
        self.period_end_ms = next_end;
        self.period_allowance_sats = self.allowance_sats;
        self.spent_sats = 0;
        self.notice_80_sent = false;
        self.notice_80_pending = false;
        self.prune_closed();
    }

    fn prune_closed(&mut self) {
        let held: BTreeSet<u64> = self.reservations.values().filter_map(|r| r.period).collect();
        let recent_from = self.closed_periods.len().saturating_sub(CLOSED_PERIODS_KEPT);
        let mut index = 0;
        self.closed_periods.retain(|p| {
            let keep = index >= recent_from || held.contains(&p.number);
            index += 1;
            keep
        });
    }

    pub(super) fn report(&self) -> BudgetReport {
        let reserved = self.reserved();
        BudgetReport {
            allowance_sats: self.allowance_sats,
            period: self.period,
            period_start_ms: self.period_start_ms,
            renews_at_ms: self.period_end_ms,
            spent_sats: self.spent_sats,
            reserved_sats: reserved,
            remaining_sats: self.allowance_sats.saturating_sub(self.spent_sats.saturating_add(reserved)),
            accepted_mints: self.accepted_mints.clone(),
            notice_80_sent: self.notice_80_sent,
        }
    }

    /// The current period, then the closed ones, newest first.
    pub(super) fn periods(&self) -> Vec<PeriodSpend> {
        let current = PeriodSpend {
            number: self.period_number,
            start_ms: self.period_start_ms,
            end_ms: None,
            allowance_sats: self.period_allowance_sats,
            spent_sats: self.spent_sats,
            reserved_sats: self.reserved(),
        };
        let closed = self.closed_periods.iter().rev().map(|p| PeriodSpend {
            number: p.number,
            start_ms: p.start_ms,
            end_ms: Some(p.end_ms),
            allowance_sats: p.allowance_sats,
            spent_sats: p.spent_sats,
            reserved_sats: self.reserved_in(p.number),
        });
        std::iter::once(current).chain(closed).collect()
    }

    /// A fresh reservation id: random, so a budget file made anew (after the owner removed a damaged one) never
    /// hands out an id the payment ledger already names; 62 bits, so it fits the ledger's SQLite integer.
    pub(super) fn fresh_reservation_id(&self) -> u64 {
        loop {
            let id = rand::random::<u64>() >> 2;
            if id != 0 && !self.reservations.contains_key(&id) {
                return id;
            }
        }
    }
}
