//! The assistant's prepaid allowance: the ceiling on what a paid leg may spend is arithmetic over operator config.
//!
//! Only the operator writes it ([`BudgetStore::set`], exposed on trusted surfaces and `aiui-cli budget set`). A turn
//! reads a [`PaymentPolicy`] at its start, every paid step [`BudgetStore::reserve`]s its maximum cost atomically,
//! and settles or releases the reservation when the outcome is known. Nothing the model says reaches this module.

mod claude;
mod claude_notices;
#[cfg(test)]
mod claude_processes;
#[cfg(test)]
mod interleavings;
mod period;
#[cfg(test)]
mod processes;
mod sessions;
mod state;
mod store;
#[cfg(test)]
mod tests;

use serde::{Deserialize, Serialize};

use crate::i18n::{self, FluentValue, Locale};

#[cfg(test)]
pub(crate) use claude::notice_80 as claude_notice_80;
pub use claude::{ClaudeAllowance, ClaudePolicy, ClaudeReport, ClaudeUpdate, claude_budget_path, pass_over_message};
pub use claude_notices::{ClaudeNotice, claude_notices_path};
pub use period::{Period, month_start_utc};
pub(crate) use store::write_atomic;
pub use store::{BudgetStore, Clock, ReservationHolder, normalize_mint_url};

/// What `budget-get` reports: the allowance, this period's spend and reservations, and what is left.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BudgetReport {
    pub allowance_sats: u64,
    pub period: Period,
    /// When the current period began (ms since the Unix epoch).
    pub period_start_ms: i64,
    /// When the allowance next renews; `None` for [`Period::Never`].
    pub renews_at_ms: Option<i64>,
    pub spent_sats: u64,
    pub reserved_sats: u64,
    pub remaining_sats: u64,
    pub accepted_mints: Vec<String>,
    pub notice_80_sent: bool,
}

/// One accounting period's spend, as [`BudgetStore::periods`] lists them. Periods are numbered in order; only the
/// clock passing a period's end closes it (a new schedule moves the current period's end, not its start).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PeriodSpend {
    pub number: u64,
    pub start_ms: i64,
    /// When it closed; `None` for the current period.
    pub end_ms: Option<i64>,
    /// The highest allowance in force while it was current: the ceiling its reservations were granted under, so
    /// `spent_sats + reserved_sats <= allowance_sats` even when the owner lowered the allowance mid-period.
    pub allowance_sats: u64,
    pub spent_sats: u64,
    /// What its reservations still hold (payments in progress, or parked until a refund resolves).
    pub reserved_sats: u64,
}

/// An operator's change to the budget; `None` fields stay as they are.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct BudgetUpdate {
    pub allowance_sats: Option<u64>,
    pub period: Option<Period>,
    pub accepted_mints: Option<Vec<String>>,
}

/// Why the budget could not be read or written. The message says what to do; [`BudgetError::text`] says it in the
/// owner's language, and `Display` in English.
#[derive(Debug, thiserror::Error)]
#[error("{}", self.text(Locale::En))]
pub enum BudgetError {
    Read {
        path: String,
        source: std::io::Error,
    },
    Corrupt {
        path: String,
        reason: String,
    },
    Write {
        path: String,
        source: std::io::Error,
    },
    Invalid(String),
    /// An accepted mint the owner typed that is not a mint's URL.
    NotAMint(String),
}

impl BudgetError {
    /// What went wrong, and what to do, in `locale`.
    pub fn text(&self, locale: Locale) -> String {
        let at = |key: &str, path: &str, name: &str, why: String| {
            i18n::text(locale, key, &[("path", path.into()), (name, why.into())])
        };
        match self {
            Self::Read { path, source } => at("budget-error-read", path, "error", source.to_string()),
            Self::Corrupt { path, reason } => at("budget-error-corrupt", path, "reason", reason.clone()),
            Self::Write { path, source } => at("budget-error-write", path, "error", source.to_string()),
            Self::Invalid(reason) => i18n::text(locale, "budget-error-invalid", &[("reason", reason.as_str().into())]),
            Self::NotAMint(typed) => {
                i18n::text(locale, "budget-error-not-a-mint", &[("mint", format!("{typed:?}").into())])
            }
        }
    }
}

/// What a turn may spend, fixed at the turn's start from operator config only. A zero allowance affords nothing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PaymentPolicy {
    pub allowance_sats: u64,
    /// What was left of the allowance when the turn began: an upper bound, never a promise (other turns spend too).
    pub remaining_sats: u64,
    pub accepted_mints: Vec<String>,
}

impl PaymentPolicy {
    /// A policy that affords nothing: what a turn gets when no budget is configured.
    pub fn nothing() -> Self {
        Self { allowance_sats: 0, remaining_sats: 0, accepted_mints: Vec::new() }
    }

    /// Whether a paid step costing `price_sats` is worth trying at all. Reserving is still the real check.
    pub fn affords(&self, price_sats: u64) -> bool {
        self.allowance_sats > 0 && price_sats > 0 && price_sats <= self.remaining_sats
    }

    /// The same policy accepting only mints also in `allowed` (e.g. the node's `streaming.list-mints`).
    pub fn restricted_to(&self, allowed: &[String]) -> Self {
        let allowed: Vec<String> = allowed.iter().filter_map(|m| normalize_mint_url(m)).collect();
        let accepted_mints = self
            .accepted_mints
            .iter()
            .filter(|m| normalize_mint_url(m).is_some_and(|m| allowed.contains(&m)))
            .cloned()
            .collect();
        Self { accepted_mints, ..self.clone() }
    }

    /// Whether any paid leg is worth considering: a selector skips paid backends when this is false.
    pub fn allows_paid(&self) -> bool {
        self.allowance_sats > 0 && self.remaining_sats > 0 && !self.accepted_mints.is_empty()
    }
}

/// Sats set aside for one paid step. Not `Clone`: it is settled or released exactly once.
#[derive(Debug, PartialEq, Eq)]
#[must_use = "a reservation must be settled or released"]
pub struct Reservation {
    id: u64,
    amount_sats: u64,
    period: Option<u64>,
}

impl Reservation {
    pub fn id(&self) -> u64 {
        self.id
    }

    pub fn amount_sats(&self) -> u64 {
        self.amount_sats
    }

    /// The number of the accounting period it counts in (see [`BudgetStore::periods`]); fixed when it was made.
    /// `None` only for a reservation an older version left in a period no longer on file.
    pub fn period_number(&self) -> Option<u64> {
        self.period
    }
}

/// The result of settling. When it crossed 80% of the allowance, the period's one notice waits for
/// [`BudgetStore::take_notice`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Settled {
    pub crossed_80: bool,
}

/// The plain-language stop a turn ends with when a paid step cannot be paid for, in `locale`. It never suggests a
/// retry.
pub fn stop_message(locale: Locale, report: &BudgetReport, price_sats: Option<u64>) -> String {
    let topup = ("topup", FluentValue::from(i18n::text(locale, "budget-top-up", &[])));
    if report.allowance_sats == 0 {
        return i18n::text(locale, "budget-off", &[topup]);
    }
    let renews = renews(locale, report.period);
    // Sats held for payments still resolving are not lost: without saying so, "8 of 40 remain" with nothing spent
    // reads as 32 sats gone.
    let spent = ("spent", FluentValue::from(report.spent_sats));
    let taken = if report.reserved_sats > 0 {
        i18n::text(locale, "budget-taken-held", &[spent.clone(), ("reserved", report.reserved_sats.into())])
    } else {
        String::new()
    };
    let allowance = ("allowance", FluentValue::from(report.allowance_sats));
    let remaining = ("remaining", FluentValue::from(report.remaining_sats));
    if report.remaining_sats == 0 {
        let taken = if taken.is_empty() { i18n::text(locale, "budget-taken", &[spent]) } else { taken };
        return i18n::text(locale, "budget-used-up", &[allowance, ("taken", taken.into()), renews, topup]);
    }
    let taken = ("taken", FluentValue::from(taken));
    match price_sats {
        Some(price) => i18n::text(
            locale,
            "budget-too-dear",
            &[("price", price.into()), remaining, allowance, taken, renews, topup],
        ),
        None => i18n::text(locale, "budget-not-paid", &[remaining, allowance, taken, renews, topup]),
    }
}

/// " It renews monthly." in `locale`, or nothing for an allowance that does not renew: the `renews` argument of
/// the stop messages.
pub(crate) fn renews(locale: Locale, period: Period) -> (&'static str, FluentValue<'static>) {
    let text = match period {
        Period::Never => String::new(),
        p => i18n::text(locale, "budget-renews", &[("period", p.as_str().into())]),
    };
    ("renews", text.into())
}

/// The owner notice sent once per period when settled spend reaches 80% of the allowance, in `locale`.
pub(crate) fn notice_80(locale: Locale, allowance: u64, spent: u64) -> String {
    i18n::text(locale, "budget-notice-80", &[("spent", spent.into()), ("allowance", allowance.into())])
}
