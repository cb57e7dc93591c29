//! Claude's USD allowance: the same arithmetic ceiling as the sats one, over micro-dollars, in a file of its own
//! (`<data dir>/claude-budget.json`) that every process on the data dir shares.
//!
//! It is a [`BudgetStore`] underneath, so it has the same period rules, file lock, atomic writes and per-process
//! liveness. Before each Claude request the leg reserves the request's worst case; the answer's priced `usage`
//! settles it. A reservation whose process died before its answer is counted at that worst case: Anthropic may have
//! billed the request, and the ceiling must hold whatever it billed.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::claude_notices::{self, ClaudeNotice};
use super::store::{BudgetStore, Clock};
use super::{BudgetError, BudgetUpdate, PaymentPolicy, Period, Reservation, Settled};
use crate::i18n::{self, FluentValue, Locale};
use crate::pricing::format_usd_in;

/// The file inside a data dir.
pub fn claude_budget_path(data_dir: &Path) -> PathBuf {
    data_dir.join("claude-budget.json")
}

/// The allowance as `budget get`, the meter and the settings show it, in micro-dollars.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClaudeReport {
    pub allowance_usd_micros: u64,
    pub period: Period,
    pub period_start_ms: i64,
    pub renews_at_ms: Option<i64>,
    pub spent_usd_micros: u64,
    pub reserved_usd_micros: u64,
    pub remaining_usd_micros: u64,
    pub notice_80_sent: bool,
}

/// What a turn may spend on Claude, fixed at its start from operator config only.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ClaudePolicy {
    pub allowance_usd_micros: u64,
    /// What was left when the turn began: an upper bound (other turns and processes spend too).
    pub remaining_usd_micros: u64,
}

impl ClaudePolicy {
    /// A policy that affords nothing.
    pub fn nothing() -> Self {
        Self::default()
    }

    fn as_payment_policy(self) -> PaymentPolicy {
        PaymentPolicy {
            allowance_sats: self.allowance_usd_micros,
            remaining_sats: self.remaining_usd_micros,
            accepted_mints: Vec::new(),
        }
    }
}

/// An operator's change; `None` fields stay as they are.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClaudeUpdate {
    pub allowance_usd_micros: Option<u64>,
    pub period: Option<Period>,
}

/// Claude's allowance. `Send + Sync`; share it behind an `Arc`.
#[derive(Debug)]
pub struct ClaudeAllowance {
    store: BudgetStore,
    /// Where its money notices are kept (`claude_notices.rs`), beside the allowance's file.
    notices: PathBuf,
}

impl ClaudeAllowance {
    /// Opens `<data dir>/claude-budget.json`. A missing file is a zero allowance: Claude is not used until the owner
    /// sets one.
    pub fn open(data_dir: &Path) -> Result<Self, BudgetError> {
        Self::open_file(&claude_budget_path(data_dir))
    }

    pub fn open_file(path: &Path) -> Result<Self, BudgetError> {
        Ok(Self { store: BudgetStore::open(path)?, notices: path.with_file_name("claude-notices.jsonl") })
    }

    /// Replaces the clock (tests).
    pub fn with_clock(self, clock: Clock) -> Self {
        Self { store: self.store.with_clock(clock), notices: self.notices }
    }

    pub fn path(&self) -> &Path {
        self.store.path()
    }

    pub fn get(&self) -> ClaudeReport {
        let r = self.store.get();
        ClaudeReport {
            allowance_usd_micros: r.allowance_sats,
            period: r.period,
            period_start_ms: r.period_start_ms,
            renews_at_ms: r.renews_at_ms,
            spent_usd_micros: r.spent_sats,
            reserved_usd_micros: r.reserved_sats,
            remaining_usd_micros: r.remaining_sats,
            notice_80_sent: r.notice_80_sent,
        }
    }

    /// The operator API: the only way the allowance or its period change. Only trusted surfaces and the CLI call it.
    pub fn set(&self, update: ClaudeUpdate) -> Result<ClaudeReport, BudgetError> {
        self.store.set(BudgetUpdate {
            allowance_sats: update.allowance_usd_micros,
            period: update.period,
            accepted_mints: None,
        })?;
        Ok(self.get())
    }

    /// The policy a turn runs under.
    pub fn policy(&self) -> ClaudePolicy {
        let r = self.get();
        ClaudePolicy { allowance_usd_micros: r.allowance_usd_micros, remaining_usd_micros: r.remaining_usd_micros }
    }

    /// Sets aside `worst_case` micro-dollars if `spent + reserved + worst_case <= allowance`, atomically across
    /// every process on the file. `None`: it does not fit (or could not be saved), and the request is not sent.
    pub fn reserve(&self, policy: &ClaudePolicy, worst_case: u64) -> Option<Reservation> {
        self.store.reserve(&policy.as_payment_policy(), worst_case.max(1))
    }

    /// Counts `actual` micro-dollars and frees the rest of the reservation. What Anthropic reported is counted even
    /// above the reservation (review F12): it bills that either way, and hiding it would let the allowance show
    /// room that was spent. The allowance then refuses further requests until it renews or the owner raises it.
    pub fn settle(&self, reservation: Reservation, actual: u64) -> Settled {
        self.store.settle(reservation, actual)
    }

    /// Frees a reservation whose request Anthropic refused or never received: nothing was billed.
    pub fn release(&self, reservation: Reservation) {
        self.store.release(reservation);
    }

    /// The period's 80% notice, once.
    pub fn take_notice(&self) -> Option<String> {
        self.take_notice_in(Locale::En)
    }

    /// [`ClaudeAllowance::take_notice`], said in `locale`.
    pub fn take_notice_in(&self, locale: Locale) -> Option<String> {
        self.store.take_notice_as(|allowance, spent| notice_80(locale, allowance, spent))
    }

    /// Keeps `notice` for the shells to show again after a rebuild.
    pub fn keep_notice(&self, notice: &ClaudeNotice) {
        claude_notices::keep(&self.notices, notice);
    }

    /// The newest `n` money notices kept, oldest first.
    pub fn recent_notices(&self, n: usize) -> Vec<ClaudeNotice> {
        claude_notices::recent(&self.notices, n)
    }

    /// Counts every reservation of a process that is gone at its worst case, and says so. Such a request may have
    /// reached Anthropic and been billed; no answer told what it cost. Run at start-up by every shell; the owner
    /// hears it in `locale`.
    pub fn settle_abandoned(&self, locale: Locale) -> Vec<String> {
        let mut notices = Vec::new();
        for holder in self.store.reservation_holders() {
            if holder.own || holder.alive {
                continue;
            }
            let Some(reservation) = self.store.recover(holder.id) else { continue };
            let amount = reservation.amount_sats();
            let _ = self.store.settle(reservation, amount);
            let notice = ClaudeNotice::Abandoned { amount };
            notices.push(notice.text(locale));
            self.keep_notice(&notice);
        }
        notices
    }
}

/// Why Claude is passed over before a request, for the owner, in `locale`; `worst_case` when one request did not
/// fit. Dollar amounts are written the locale's way ([`format_usd_in`]).
pub fn pass_over_message(locale: Locale, report: &ClaudeReport, worst_case: Option<u64>) -> String {
    let raise = ("raise", FluentValue::from(i18n::text(locale, "claude-raise", &[])));
    if report.allowance_usd_micros == 0 {
        return i18n::text(locale, "claude-off", &[raise]);
    }
    let renews = super::renews(locale, report.period);
    let held = if report.reserved_usd_micros > 0 {
        i18n::text(locale, "claude-held", &[("reserved", format_usd_in(locale, report.reserved_usd_micros).into())])
    } else {
        String::new()
    };
    let usd = |name, micros| (name, FluentValue::from(format_usd_in(locale, micros)));
    let allowance = usd("allowance", report.allowance_usd_micros);
    let spent = usd("spent", report.spent_usd_micros);
    let held = ("held", FluentValue::from(held));
    match worst_case {
        Some(worst) if report.remaining_usd_micros > 0 => {
            let args = [
                usd("worst", worst),
                usd("remaining", report.remaining_usd_micros),
                allowance,
                spent,
                held,
                renews,
                raise,
            ];
            i18n::text(locale, "claude-too-dear", &args)
        }
        _ => i18n::text(locale, "claude-used-up", &[allowance, spent, held, renews, raise]),
    }
}

pub(crate) fn notice_80(locale: Locale, allowance: u64, spent: u64) -> String {
    let args = [
        ("spent", format_usd_in(locale, spent).into()),
        ("allowance", format_usd_in(locale, allowance).into()),
        ("raise", i18n::text(locale, "claude-raise", &[]).into()),
    ];
    i18n::text(locale, "claude-notice-80", &args)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_claude_allowance_is_a_ceiling_in_micro_dollars() {
        let dir = tempfile::tempdir().unwrap();
        let allowance = ClaudeAllowance::open(dir.path()).unwrap();
        assert_eq!(allowance.get().allowance_usd_micros, 0, "no file is a zero allowance");
        assert!(allowance.reserve(&allowance.policy(), 1).is_none(), "nothing fits a zero allowance");
        allowance.set(ClaudeUpdate { allowance_usd_micros: Some(1_000_000), period: Some(Period::Monthly) }).unwrap();
        let policy = allowance.policy();
        let r = allowance.reserve(&policy, 700_000).expect("$0.70 of $1.00 fits");
        assert!(allowance.reserve(&policy, 300_001).is_none(), "past the ceiling by one micro-dollar");
        let _ = allowance.settle(r, 50_000);
        let report = allowance.get();
        assert_eq!(
            (report.spent_usd_micros, report.reserved_usd_micros, report.remaining_usd_micros),
            (50_000, 0, 950_000)
        );
        let r = allowance.reserve(&allowance.policy(), 950_000).expect("exactly what remains fits");
        let _ = allowance.settle(r, 800_000);
        let notice = allowance.take_notice().expect("80% crossed");
        assert!(notice.contains("$0.85 of its $1.00"), "{notice}");
        assert!(allowance.take_notice().is_none(), "once");
        assert!(std::fs::metadata(claude_budget_path(dir.path())).is_ok());
    }

    #[test]
    fn a_dead_processs_reservation_counts_at_its_worst_case() {
        let dir = tempfile::tempdir().unwrap();
        let first = ClaudeAllowance::open(dir.path()).unwrap();
        first.set(ClaudeUpdate { allowance_usd_micros: Some(1_000_000), period: None }).unwrap();
        let held = first.reserve(&first.policy(), 400_000).unwrap();
        let alive = ClaudeAllowance::open(dir.path()).unwrap();
        assert!(
            alive.settle_abandoned(Locale::En).is_empty(),
            "the first process still runs: its reservation is not touched"
        );
        // Left on file, as a process killed mid-request leaves it.
        let _ = held;
        drop(first);
        let next = ClaudeAllowance::open(dir.path()).unwrap();
        let notices = next.settle_abandoned(Locale::De);
        assert_eq!(notices.len(), 1, "{notices:?}");
        assert!(notices[0].contains("0,40\u{a0}$") && notices[0].contains("Anthropic"), "{notices:?}");
        assert!(!notices[0].contains("counted"), "said in the owner's language: {notices:?}");
        let report = next.get();
        assert_eq!((report.spent_usd_micros, report.reserved_usd_micros), (400_000, 0));
        // Kept for a shell rebuilt later (review F12), though the reservation is counted and gone.
        let rebuilt = ClaudeAllowance::open(dir.path()).unwrap();
        assert!(rebuilt.settle_abandoned(Locale::En).is_empty(), "counted once");
        assert_eq!(rebuilt.recent_notices(5), vec![ClaudeNotice::Abandoned { amount: 400_000 }]);
        assert!(rebuilt.recent_notices(5)[0].text(Locale::En).starts_with("A Claude request made by an AIUI process"));
    }

    #[test]
    fn the_pass_over_message_says_why_and_how_to_raise_it() {
        let dir = tempfile::tempdir().unwrap();
        let allowance = ClaudeAllowance::open(dir.path()).unwrap();
        let zero = pass_over_message(Locale::En, &allowance.get(), None);
        assert!(zero.contains("allowance is $0") && zero.contains("settings window"), "{zero}");
        allowance.set(ClaudeUpdate { allowance_usd_micros: Some(2_000_000), period: Some(Period::Weekly) }).unwrap();
        let r = allowance.reserve(&allowance.policy(), 1_990_000).unwrap();
        let _ = allowance.settle(r, 1_990_000);
        let over = pass_over_message(Locale::En, &allowance.get(), Some(31_000));
        assert!(over.contains("up to $0.031") && over.contains("$0.01 of its $2.00"), "{over}");
        assert!(over.contains("renews weekly") && over.contains("--claude-usd"), "{over}");
    }
}
