//! Paying with Cashu: the cdk wallet, the ledger that never loses a sat, and `Payments`, what a paid leg uses.
//!
//! Cashu is never hand-rolled here: tokens are built, received, reclaimed and checked (NUT-07) by cdk. Tokens and
//! the seed live only in [`Secret`]s and are never logged.
//!
//! The conservation invariant, checked by [`Payments::conservation`]:
//! `wallet balance + settled spend + in-flight + fees + withdrawn == everything ever received`, where
//! - *received* is what came in from outside (minted invoices, pasted tokens), as credited by the mint;
//! - *settled spend* is, per payment, the token's face value minus the face value of the change or refund;
//! - *in-flight* is the face value of tokens whose outcome is not known yet;
//! - *fees* are what mints kept: the swap fee of building a token, and the input fee of receiving change, a refund
//!   or a reclaimed token (face value minus what was credited). They are counted on their own so the sum is exact;
//! - *withdrawn* is what the owner took out (to a Lightning invoice, or as a token another wallet claimed), with the
//!   mints' fees for it; withdrawals and tokens not settled yet are in-flight.

mod backup;
mod ledger;
mod locks;
mod mint_life;
mod mint_transport;
mod notice;
pub(crate) mod payments;
mod reconcile;
pub mod refund;
mod returned;
mod send_out;
#[cfg(test)]
mod tests;
mod wallet;
mod withdraw;
mod write_off;

pub use backup::{BACKUP_REMINDER_SATS, RestoredMint, WalletBackup};
pub use ledger::{LedgerEntry, MoneyNotice, Outflow, OutflowKind, PaymentState};
pub use mint_transport::MAX_MINT_REPLY_BYTES;
pub use notice::{PaymentProof, WalletNotice, WriteOffWhy};
pub use payments::{NotPaid, ParkOnDrop, PayTo, Payments, ReconcilePolicy, Settlement};
pub use send_out::{SentToken, TakenBack};
pub use wallet::{Wallet, WalletOptions, proofs_at};
pub use withdraw::{Withdrawal, WithdrawalOutcome, WithdrawalQuote, clean_invoice};

use crate::Secret;
use crate::i18n::{self, Locale};

/// The header that carries the payment out and the change back (routstr.md §2; `X-Cashu-Refund` does not exist).
pub const CASHU_HEADER: &str = "X-Cashu";

/// Why a wallet operation failed. `auto_pay_token` turns every one of these into `None`. Said to the owner with
/// [`PayError::text`]; its `Display` is the English.
#[derive(Debug, thiserror::Error)]
#[error("{}", self.text(Locale::En))]
pub enum PayError {
    SeedMissing,
    Seed(String),
    Keyring(String),
    Store(String),
    /// The ledger could not be written; no token left the wallet.
    Ledger(String),
    InvalidToken(String),
    InvalidInvoice(String),
    InvalidMint(String),
    MintUnreachable {
        mint: String,
        reason: String,
    },
    Mint {
        mint: String,
        reason: String,
    },
    InsufficientFunds {
        needed: u64,
    },
    NoCommonMint,
    OverBudget,
    MultiKeyset,
    AlreadySpent,
    Timeout,
    UnknownPayment(String),
    Moved {
        id: String,
        state: String,
    },
    MintUnclear {
        mint: String,
        reason: String,
    },
    /// Begun and not finished: nothing is lost, and the next reconcile finishes it.
    Unfinished(Unfinished),
    ReturnedElsewhere(String),
    /// A withdrawal the mint refused for good (`cause`): nothing was paid and the sats are back in the wallet.
    WithdrawalRefused(Box<PayError>),
}

/// What was begun and is left for the next reconcile, for [`PayError::Unfinished`]. Each says why nothing is lost.
#[derive(Debug)]
pub enum Unfinished {
    /// The mint gave no clear answer while a payment's token was made; the payment is kept.
    PaymentToken(Box<PayError>),
    /// The ledger could not record a payment's token, and it could not be taken back yet.
    PaymentLedger(Box<PayError>),
    /// A set-aside token's payment is not settled yet.
    NotSettled { payment: String },
    /// A swap left some old proofs untaken.
    Swap { mint: String },
    /// The mint gave no clear answer about a withdrawal; it stays in flight.
    Withdrawal(Box<PayError>),
    /// The mint gave no clear answer while a token for another wallet was made.
    SendToken(Box<PayError>),
    /// The ledger could not record a token for another wallet; it was not shown.
    SendLedger(Box<PayError>),
    /// Receiving a token was begun at `mint` and not finished.
    Receive { mint: String },
    /// Taking a token back was begun at `mint` and not finished.
    TakeBack { mint: String },
    /// A restore from the backup words stopped before every mint gave its proofs.
    Restore,
}

impl Unfinished {
    fn text(&self, locale: Locale) -> String {
        let said = |key: &str, error: &PayError| i18n::text(locale, key, &[("error", error.text(locale).into())]);
        match self {
            Self::PaymentToken(e) => said("pay-unfinished-payment-token", e),
            Self::PaymentLedger(e) => said("pay-unfinished-payment-ledger", e),
            Self::Withdrawal(e) => said("pay-unfinished-withdrawal", e),
            Self::SendToken(e) => said("pay-unfinished-send-token", e),
            Self::SendLedger(e) => said("pay-unfinished-send-ledger", e),
            Self::NotSettled { payment } => {
                i18n::text(locale, "pay-unfinished-not-settled", &[("id", payment.as_str().into())])
            }
            Self::Swap { mint } => i18n::text(locale, "pay-unfinished-swap", &[("mint", mint.as_str().into())]),
            Self::Receive { mint } => i18n::text(locale, "pay-unfinished-receive", &[("mint", mint.as_str().into())]),
            Self::TakeBack { mint } => {
                i18n::text(locale, "pay-unfinished-take-back", &[("mint", mint.as_str().into())])
            }
            Self::Restore => i18n::text(locale, "pay-unfinished-restore", &[]),
        }
    }
}

impl PayError {
    /// What went wrong, for the owner in `locale`: what happened, and where the money is.
    pub fn text(&self, locale: Locale) -> String {
        let one = |key: &str, name: &str, value: &str| i18n::text(locale, key, &[(name, value.into())]);
        let at_mint = |key: &str, mint: &str, reason: &str| {
            i18n::text(locale, key, &[("mint", mint.into()), ("reason", reason.into())])
        };
        match self {
            Self::SeedMissing => i18n::text(locale, "pay-error-seed-missing", &[]),
            Self::Seed(e) => one("pay-error-seed", "error", e),
            Self::Keyring(e) => one("pay-error-keyring", "error", e),
            Self::Store(e) => one("pay-error-store", "error", e),
            Self::Ledger(e) => one("pay-error-ledger", "error", e),
            Self::InvalidToken(why) => one("pay-error-invalid-token", "reason", why),
            Self::InvalidInvoice(why) => one("pay-error-invalid-invoice", "reason", why),
            Self::InvalidMint(why) => one("pay-error-invalid-mint", "reason", why),
            Self::MintUnreachable { mint, reason } => at_mint("pay-error-mint-unreachable", mint, reason),
            Self::Mint { mint, reason } => at_mint("pay-error-mint", mint, reason),
            Self::MintUnclear { mint, reason } => at_mint("pay-error-mint-unclear", mint, reason),
            Self::InsufficientFunds { needed } => {
                i18n::text(locale, "pay-error-insufficient", &[("needed", (*needed).into())])
            }
            Self::NoCommonMint => i18n::text(locale, "pay-error-no-common-mint", &[]),
            Self::OverBudget => i18n::text(locale, "pay-error-over-budget", &[]),
            Self::MultiKeyset => i18n::text(locale, "pay-error-multi-keyset", &[]),
            Self::AlreadySpent => i18n::text(locale, "pay-error-already-spent", &[]),
            Self::Timeout => i18n::text(locale, "pay-error-timeout", &[]),
            Self::UnknownPayment(id) => one("pay-error-unknown-payment", "id", id),
            Self::Moved { id, state } => {
                i18n::text(locale, "pay-error-moved", &[("id", id.as_str().into()), ("state", state.as_str().into())])
            }
            Self::Unfinished(what) => what.text(locale),
            Self::ReturnedElsewhere(id) => one("pay-error-returned-elsewhere", "id", id),
            Self::WithdrawalRefused(cause) => one("pay-error-withdrawal-refused", "error", &cause.text(locale)),
        }
    }

    /// Whether asking again later may succeed: the other side did not answer, or answered nothing final. A stored
    /// token is kept for another try on these, never set aside.
    pub fn is_passing(&self) -> bool {
        matches!(
            self,
            Self::MintUnreachable { .. }
                | Self::Timeout
                | Self::Store(_)
                | Self::Ledger(_)
                | Self::MintUnclear { .. }
                | Self::Unfinished(_)
        )
    }
}

/// Maps a cdk error to what callers can act on. cdk's messages carry amounts and ids, never proof secrets.
pub(crate) fn classify(mint: &str, error: cdk::Error) -> PayError {
    match error {
        cdk::Error::HttpError(status, detail) => {
            // cdk's own wrapping ("Http transport error None: …") says nothing to the owner; the detail is the
            // door's reason (a refused address, an answer over the cap) or the mint's words, cut short.
            let detail: String = detail.chars().filter(|c| !c.is_control()).take(200).collect();
            let detail = detail.trim();
            let reason = match (status, detail.is_empty()) {
                (Some(status), true) => format!("it answered HTTP {status}"),
                (Some(status), false) => format!("it answered HTTP {status} ({detail})"),
                (None, true) => "no connection could be made".to_owned(),
                (None, false) => detail.to_owned(),
            };
            PayError::MintUnreachable { mint: mint.to_owned(), reason }
        }
        cdk::Error::Timeout => PayError::Timeout,
        cdk::Error::InsufficientFunds => PayError::InsufficientFunds { needed: 0 },
        cdk::Error::TokenAlreadySpent => PayError::AlreadySpent,
        cdk::Error::Database(e) => PayError::Store(e.to_string()),
        // Only a definitive refusal is the mint's "no"; anything else (pending, a bad reply, a 5xx) may change.
        other if other.is_definitive_failure() => PayError::Mint { mint: mint.to_owned(), reason: other.to_string() },
        other => PayError::MintUnclear { mint: mint.to_owned(), reason: other.to_string() },
    }
}

/// A Lightning invoice that mints ecash once paid.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Invoice {
    pub bolt11: String,
    pub quote_id: String,
    pub mint: String,
    pub amount_sats: u64,
}

/// A token's proofs as the mint sees them (NUT-07).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TokenState {
    Unspent,
    /// Some proofs are spent or being spent: not safe to reclaim, not yet gone.
    Pending,
    Spent,
}

/// A token handed to a provider. It is in the ledger as in-flight before this value exists.
#[derive(Debug, Clone)]
pub struct Payment {
    pub id: String,
    pub token: Secret<String>,
    pub mint: String,
    /// The token's face value (the price plus the fee the provider pays to redeem it, if the mint charges one).
    pub amount_sats: u64,
}

/// The conservation sums; [`Conservation::holds`] is the invariant.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Conservation {
    pub received_total: u64,
    pub wallet_balance: u64,
    pub settled_spend: u64,
    /// Payments' and outflows' tokens and melts whose outcome is not known yet.
    pub in_flight: u64,
    /// What mints kept on payments.
    pub fees: u64,
    /// What reached the owner's invoices and other wallets.
    pub withdrawn: u64,
    /// What mints kept on withdrawals and tokens sent out (input fees, the Lightning fee).
    pub withdrawal_fees: u64,
}

impl Conservation {
    pub fn holds(&self) -> bool {
        self.wallet_balance as u128
            + self.settled_spend as u128
            + self.in_flight as u128
            + self.fees as u128
            + self.withdrawn as u128
            + self.withdrawal_fees as u128
            == self.received_total as u128
    }
}

/// What `reconcile` did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ReconcileReport {
    /// Open payments looked at.
    pub checked: usize,
    /// Unspent tokens put back into the wallet, and their sats.
    pub reclaimed: usize,
    pub reclaimed_sats: u64,
    /// Change or refunds that had been stored but not received, now received.
    pub returned_received: usize,
    /// Spent at the mint with no change, and refunded now by the provider's refund endpoint.
    pub refunded: usize,
    /// Spent at the mint with no change yet: the refund endpoint is asked again on a later run.
    pub waiting: usize,
    /// Spent, never refunded after every try: counted as spent, with a notice.
    pub written_off: usize,
    /// Held by a request of a process that still runs: not touched.
    pub skipped_live: usize,
    /// Reservations whose payment had settled in the ledger but not in the budget (a crash in between).
    pub settled_late: usize,
    /// Could not be checked (mint unreachable): kept in flight.
    pub unreachable: usize,
    /// Payments that never produced a token.
    pub cancelled: usize,
    /// Paid invoices minted now.
    pub minted_sats: u64,
    /// Withdrawals and tokens sent out whose outcome became known now (paid, failed, claimed, taken back).
    pub outflows_settled: usize,
    /// Withdrawals the mint is still paying, and tokens sent out that nobody has claimed yet.
    pub outflows_open: usize,
    /// Reservations of an earlier run that no open payment held, released.
    pub released_reservations: usize,
    /// What the owner must be told: write-offs, returned tokens that did not count, the 80% notice. Each is also
    /// stored in the ledger, where every surface reads it ([`Payments::notices_after`]).
    pub notices: Vec<String>,
    /// Another process (or task) was reconciling this wallet: this run did nothing.
    pub reconciling_elsewhere: bool,
}
