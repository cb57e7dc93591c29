//! `Payments`: the wallet, its ledger and the budget together, as a paid leg uses them, and paying: `pay_token` (and
//! its `Option` form `auto_pay_token`) is the only way a token leaves for a provider. Every outcome (change, 402
//! reclaim, refund, unknown, written off) ends in the ledger so that the conservation invariant holds after any
//! fault: settling what came back is `returned.rs`, `reconcile` is `reconcile.rs`, write-offs are `write_off.rs`.

use std::collections::HashSet;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use cdk::wallet::SendOptions;

use super::ledger::{LedgerEntry, MoneyNotice, PaymentState};
use super::locks::DataDirLocks;
use super::refund::RefundClient;
use super::{Conservation, PayError, Payment, Unfinished, Wallet, WalletNotice, classify};
use crate::Secret;
use crate::budget::{BudgetStore, PaymentPolicy, normalize_mint_url};
use crate::faults;
use crate::i18n::Locale;
use crate::net::guard::AddressPolicy;

// Where the fuzz targets and the budget's property test look for the rule on returned tokens.
#[cfg(test)]
pub(crate) use super::returned::{judge_returned_token, returned_value};

/// How `reconcile` pursues a payment whose token was spent without change: how often it asks the provider's refund
/// endpoint, how long it waits between runs, and when it gives up and writes the payment off as spent.
#[derive(Debug, Clone)]
pub struct ReconcilePolicy {
    pub max_refund_tries: u32,
    pub write_off_after: Duration,
    pub first_backoff: Duration,
    pub max_backoff: Duration,
    /// The most one reconcile run adds to how long a payment has been watched, whatever the clock says happened
    /// since the last run: a clock that jumps forward cannot write a payment off at once.
    pub max_watch_step: Duration,
    /// How long a withdrawal waits for the mint to pay before it is kept in flight for reconcile (a hold invoice,
    /// a slow route).
    pub withdrawal_wait: Duration,
}

impl Default for ReconcilePolicy {
    fn default() -> Self {
        Self {
            max_refund_tries: 8,
            write_off_after: Duration::from_secs(3 * 24 * 3600),
            first_backoff: Duration::from_secs(60),
            max_backoff: Duration::from_secs(6 * 3600),
            max_watch_step: Duration::from_secs(3600),
            withdrawal_wait: Duration::from_secs(10),
        }
    }
}

/// Who is being paid: the provider's label, its base URL (for the refund endpoint) and the mints it lists.
#[derive(Debug, Clone, Default)]
pub struct PayTo {
    pub label: String,
    pub endpoint: Option<String>,
    pub mints: Vec<String>,
}

/// Why no token was built. Nothing left the wallet in any of these cases.
#[derive(Debug)]
pub enum NotPaid {
    /// The allowance cannot cover the price (or the reservation could not be saved).
    Unaffordable,
    /// No mint is both accepted by the owner and listed by the provider.
    NoCommonMint,
    /// The wallet or the mint failed (unreachable mint, not enough ecash, the ledger could not be written).
    Wallet(PayError),
}

/// What settling a payment came to.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Settlement {
    /// What the payment cost: face value paid minus the face value of what came back and counted.
    pub spent_sats: u64,
    pub crossed_80: bool,
    /// Something the owner must hear, e.g. that the provider's "change" did not count.
    pub warning: Option<String>,
}

/// What a paid leg holds: the wallet, the ledger inside it, and the budget.
#[derive(Debug, Clone)]
pub struct Payments {
    pub(super) wallet: Arc<Wallet>,
    pub(super) budget: Arc<BudgetStore>,
    pub(super) refund_access: (AddressPolicy, Option<std::net::SocketAddr>),
    pub(super) refunds: Arc<OnceLock<Option<RefundClient>>>,
    pub(super) policy: ReconcilePolicy,
    /// Sends in progress hold it shared; cdk's saga recovery, which would undo a send half-way, holds it alone.
    pub(super) sends: Arc<tokio::sync::RwLock<()>>,
    /// Held while cdk chooses and reserves proofs for a send, so two concurrent payments do not pick the same
    /// proofs and one of them fail (that choice is local and brief; the swap and the send run unserialized).
    pub(super) choosing: Arc<tokio::sync::Mutex<()>>,
    /// The same two exclusions across processes on this data dir, and the one reconcile at a time.
    pub(super) locks: DataDirLocks,
    /// The owner's language, for the notices this process tells now; the ledger keeps what happened, so another
    /// process says them in its own.
    locale: Arc<std::sync::RwLock<Locale>>,
}

impl Payments {
    pub fn new(wallet: Arc<Wallet>, budget: Arc<BudgetStore>) -> Self {
        wallet.trust_owner_mints(&budget.get().accepted_mints);
        Self {
            budget,
            refund_access: (AddressPolicy::PublicOnly, None),
            refunds: Arc::new(OnceLock::new()),
            policy: ReconcilePolicy::default(),
            sends: Arc::new(tokio::sync::RwLock::new(())),
            choosing: Arc::new(tokio::sync::Mutex::new(())),
            locks: DataDirLocks::new(wallet.data_dir()),
            locale: Arc::new(std::sync::RwLock::new(Locale::from_env())),
            wallet,
        }
    }

    /// The owner's language for the notices told from now on (the environment's until a shell sets it).
    pub fn set_locale(&self, locale: Locale) {
        *self.locale.write().unwrap_or_else(|p| p.into_inner()) = locale;
    }

    pub fn locale(&self) -> Locale {
        *self.locale.read().unwrap_or_else(|p| p.into_inner())
    }

    /// How refund endpoints are reached: the SSRF policy and the Tor proxy of the Routstr settings.
    pub fn with_refund_access(mut self, policy: AddressPolicy, tor_socks: Option<std::net::SocketAddr>) -> Self {
        self.refund_access = (policy, tor_socks);
        self.refunds = Arc::new(OnceLock::new());
        self
    }

    pub fn with_reconcile_policy(mut self, policy: ReconcilePolicy) -> Self {
        self.policy = policy;
        self
    }

    pub fn wallet(&self) -> &Wallet {
        &self.wallet
    }

    pub fn budget(&self) -> &BudgetStore {
        &self.budget
    }

    /// The client for refund endpoints, built on first use.
    pub fn refund_client(&self) -> Option<&RefundClient> {
        self.refunds
            .get_or_init(|| {
                let (policy, tor) = self.refund_access;
                RefundClient::new(policy, tor)
                    .map_err(|e| tracing::error!(error = %e, "pay: no client for refund endpoints"))
                    .ok()
            })
            .as_ref()
    }

    /// A token worth `price_sats` for `provider`, or `None`; see [`Payments::pay_token`].
    pub async fn auto_pay_token(
        &self,
        policy: &PaymentPolicy,
        provider_mints: &[String],
        price_sats: u64,
        provider: &str,
    ) -> Option<Payment> {
        let to = PayTo { label: provider.to_owned(), endpoint: None, mints: provider_mints.to_vec() };
        self.pay_token(policy, &to, price_sats).await.ok()
    }

    /// A token worth `price_sats` for `to`.
    ///
    /// - [`NotPaid::Unaffordable`] or [`NotPaid::NoCommonMint`] without touching the wallet or any mint when the
    ///   policy cannot afford the price, when no accepted mint is listed by the provider, or when the budget cannot
    ///   reserve it.
    /// - [`NotPaid::Wallet`] on any wallet, mint or ledger problem; the reservation is released and the ledger
    ///   shows nothing left.
    /// - Otherwise the price (plus any mint fee) is reserved, cdk builds a single-keyset token from a mint in
    ///   `policy.accepted_mints ∩ to.mints`, and the token is written to the ledger as in-flight before it is
    ///   returned. The caller then reports the outcome with exactly one of `settle_with_change`, `reclaim`,
    ///   `take_refund` or `keep_in_flight`.
    pub async fn pay_token(&self, policy: &PaymentPolicy, to: &PayTo, price_sats: u64) -> Result<Payment, NotPaid> {
        if !policy.affords(price_sats) {
            tracing::info!(price_sats, "pay: the allowance cannot cover this price; not paying");
            return Err(NotPaid::Unaffordable);
        }
        let provider_mints: HashSet<String> = to.mints.iter().filter_map(|m| normalize_mint_url(m)).collect();
        let candidates: Vec<String> = policy
            .accepted_mints
            .iter()
            .filter_map(|m| normalize_mint_url(m))
            .filter(|m| provider_mints.contains(m))
            .collect();
        if candidates.is_empty() {
            tracing::info!(provider = %to.label, "pay: {}", PayError::NoCommonMint);
            return Err(NotPaid::NoCommonMint);
        }
        let mut reservation = self.budget.reserve(policy, price_sats).ok_or(NotPaid::Unaffordable)?;
        faults::hit("after-reserve");
        let _sending = self.sends.read().await;
        let _operation = match self.locks.operation().await {
            Ok(held) => held,
            Err(e) => {
                self.budget.release(reservation);
                return Err(NotPaid::Wallet(e));
            }
        };
        match self.send(policy, &candidates, price_sats, to, &mut reservation).await {
            Ok(payment) => {
                tracing::info!(payment = %payment.id, provider = %to.label, mint = %payment.mint,
                               sats = payment.amount_sats, "pay: token in flight");
                // The reservation lives on in the budget file under its id, which the ledger row holds; the outcome
                // call (settle, reclaim, refund or reconcile) recovers it from there.
                drop(reservation);
                Ok(payment)
            }
            Err(e @ PayError::Unfinished(_)) => {
                // A pending row holds this reservation until reconcile settles or cancels it.
                tracing::warn!(provider = %to.label, price_sats, error = %e, "pay: could not pay; left for reconcile");
                drop(reservation);
                Err(NotPaid::Wallet(e))
            }
            Err(e) => {
                tracing::warn!(provider = %to.label, price_sats, error = %e, "pay: could not pay; nothing left the wallet");
                self.budget.release(reservation);
                Err(NotPaid::Wallet(e))
            }
        }
    }

    async fn send(
        &self,
        policy: &PaymentPolicy,
        candidates: &[String],
        price_sats: u64,
        to: &PayTo,
        reservation: &mut crate::budget::Reservation,
    ) -> Result<Payment, PayError> {
        // The accepted mints are the owner's list, which may have changed since the wallet was opened.
        self.wallet.trust_owner_mints(&policy.accepted_mints);
        let balances = self.wallet.balances().await?;
        let mint = candidates
            .iter()
            .find(|m| {
                balances.iter().any(|(b, sats)| normalize_mint_url(b).as_deref() == Some(m) && *sats >= price_sats)
            })
            .ok_or(PayError::InsufficientFunds { needed: price_sats })?;
        let wallet = self.wallet.mint_wallet(mint).await?;
        // The keysets and keys come from cdk's cache (its SQLite store, refreshed after an hour, and again when the
        // mint refuses an inactive keyset): asking the mint for them before every payment was two round trips that
        // told the wallet nothing new.
        let options = SendOptions { include_fee: true, ..SendOptions::default() };
        let prepared = {
            let _choosing = self.choosing.lock().await;
            wallet.prepare_send(price_sats.into(), options).await.map_err(|e| classify(mint, e))?
        };
        if prepared.proofs_to_swap().is_empty() {
            // cdk builds this token offline from proofs the wallet holds, so nothing has shown the mint is up; a
            // token from a mint that cannot be reached is worthless to the provider. One `GET /v1/info` asks. (When
            // proofs are swapped, that swap is the proof, and a down mint fails it before any token exists.)
            if let Err(e) = self.wallet.mint_answers(mint).await {
                let _ = prepared.cancel().await;
                return Err(e);
            }
        }
        let swap_fee = prepared.swap_fee().to_u64();
        let face = price_sats + prepared.send_fee().to_u64();
        let mut keysets: HashSet<_> = prepared.proofs_to_send().iter().map(|p| p.keyset_id).collect();
        if !prepared.proofs_to_swap().is_empty() {
            keysets.insert(wallet.active_keyset().await.map_err(|e| classify(mint, e))?.id);
        }
        if keysets.len() > 1 {
            let _ = prepared.cancel().await;
            return Err(PayError::MultiKeyset);
        }
        if !self.budget.extend(policy, reservation, prepared.fee().to_u64()) {
            let _ = prepared.cancel().await;
            return Err(PayError::OverBudget);
        }
        let id = hex::encode(rand::random::<[u8; 12]>());
        let entry = LedgerEntry {
            id: id.clone(),
            provider: to.label.clone(),
            mint: mint.clone(),
            amount_sats: face,
            operation_id: prepared.operation_id().to_string(),
            reservation: reservation.id(),
            state: PaymentState::Pending,
            fees_sats: swap_fee,
            session: self.budget.session().to_owned(),
            endpoint: to.endpoint.clone(),
            ..LedgerEntry::default()
        };
        if let Err(e) = self.wallet.ledger().insert_pending(&entry) {
            let _ = prepared.cancel().await;
            return Err(e);
        }
        faults::hit("after-pending-row");
        let token = match prepared.confirm(None).await {
            Ok(token) => token,
            Err(e) if e.is_definitive_failure() => {
                // The mint refused, and cdk put the proofs back: nothing left the wallet.
                let _ = self.wallet.ledger().cancel(&id);
                return Err(classify(mint, e));
            }
            Err(e) => {
                // No clear answer: the swap may have happened and the token may exist in cdk's record. The pending
                // row and its reservation stay, parked, for `reconcile` (the token, or cdk's recovery putting the
                // proofs back, decides), rather than being cancelled as if nothing had happened.
                tracing::warn!(payment = %id, error = %e, "pay: the token's outcome is unclear; left for reconcile");
                if let Err(e) = self.wallet.ledger().park(&id) {
                    tracing::warn!(payment = %id, error = %e, "pay: could not mark the payment for reconcile");
                }
                return Err(PayError::Unfinished(Unfinished::PaymentToken(Box::new(classify(mint, e)))));
            }
        };
        faults::hit("after-token-built");
        let face = token.value().map_err(|e| PayError::InvalidToken(e.to_string()))?.to_u64();
        let token = Secret::new(token.to_string());
        if let Err(e) = self.wallet.ledger().mark_in_flight(&id, &token, face) {
            // The token must not leave unrecorded: take it back. If that fails too, the pending row and cdk's saga
            // still hold it, and `reconcile` finishes the job.
            if let Ok(op) = uuid::Uuid::parse_str(&entry.operation_id)
                && wallet.revoke_send(op).await.is_ok()
            {
                let _ = self.wallet.ledger().cancel(&id);
                return Err(e);
            }
            let _ = self.wallet.ledger().park(&id);
            return Err(PayError::Unfinished(Unfinished::PaymentLedger(Box::new(e))));
        }
        Ok(Payment { id, token, mint: mint.clone(), amount_sats: face })
    }

    pub(super) fn open_entry(&self, id: &str) -> Result<LedgerEntry, PayError> {
        match self.wallet.ledger().get(id)? {
            Some(entry) if matches!(entry.state, PaymentState::Pending | PaymentState::InFlight) => Ok(entry),
            _ => Err(PayError::UnknownPayment(id.to_owned())),
        }
    }

    /// The provider endpoint recorded with a payment (for its refund endpoint).
    pub fn endpoint_of(&self, payment: &Payment) -> Option<String> {
        self.wallet.ledger().get(&payment.id).ok().flatten().and_then(|entry| entry.endpoint)
    }

    /// Payments whose returned change or refund did not count and was kept aside, newest first.
    pub fn set_aside_tokens(&self) -> Result<Vec<super::LedgerEntry>, PayError> {
        self.wallet.ledger().set_aside_entries()
    }

    /// Withdrawals and tokens sent out, newest first: what the wallet section lists (pending ones first to see).
    pub fn outflows(&self, limit: usize) -> Result<Vec<super::Outflow>, PayError> {
        self.wallet.ledger().outflows(limit)
    }

    /// Records the provider's request id with the payment (for the owner and for refund inquiries).
    pub fn note_request_id(&self, payment: &Payment, request_id: &str) {
        let request_id: String = request_id.chars().filter(|c| c.is_ascii_graphic()).take(128).collect();
        if let Err(e) = self.wallet.ledger().set_request_id(&payment.id, &request_id) {
            tracing::warn!(payment = %payment.id, error = %e, "pay: could not record the request id");
        }
    }

    /// Keeps a wallet notice where every surface of every process reads it ([`Payments::notices_after`]), as what
    /// happened beside its English, and returns it in the owner's language, so the caller can also show it now. A
    /// notice that cannot be stored is still returned and logged.
    pub(super) fn tell(&self, notice: WalletNotice) -> String {
        self.keep(&notice.text(Locale::En), Some(&notice));
        notice.text(self.locale())
    }

    /// [`Payments::tell`] for a notice already worded (the paid leg's, the allowance's), kept as it is.
    pub(super) fn tell_text(&self, text: String) -> String {
        self.keep(&text, None);
        text
    }

    fn keep(&self, text: &str, notice: Option<&WalletNotice>) {
        if let Err(e) = self.wallet.ledger().add_notice(text, notice) {
            tracing::error!(error = %e, "pay: a money notice could not be stored; it is shown only now");
        }
    }

    /// Keeps notices the paid leg tells the owner in a turn (a refused 402, a payment kept for its refund), so that
    /// one folded into an error that falls through to another leg is not lost with it.
    pub fn keep_notices(&self, notices: &[String]) {
        for notice in notices {
            self.tell_text(notice.clone());
        }
    }

    /// The money notices stored after `after_id` (0 for all), oldest first: write-offs, returned tokens that did not
    /// count, refunds received late. Each surface remembers the last id it showed.
    pub fn notices_after(&self, after_id: i64) -> Result<Vec<MoneyNotice>, PayError> {
        self.wallet.ledger().notices_after(after_id)
    }

    /// The newest `limit` money notices, oldest first: what a surface shows when it starts.
    pub fn recent_notices(&self, limit: usize) -> Result<Vec<MoneyNotice>, PayError> {
        self.wallet.ledger().recent_notices(limit)
    }

    /// Parks `payment` for `reconcile` when the returned guard is dropped while its outcome is still unknown: a
    /// turn that is cancelled (its future dropped) in the middle of a paid request leaves nothing unparked. Once the
    /// payment settled, the park is refused by the ledger's compare-and-set and changes nothing.
    pub fn park_when_dropped(&self, payment: &Payment) -> ParkOnDrop {
        ParkOnDrop { wallet: self.wallet.clone(), id: payment.id.clone() }
    }

    /// The conservation sums. `holds()` on the result is the invariant the ledger tests assert after every fault.
    /// Async because the wallet balance is read from cdk's store.
    pub async fn conservation(&self) -> Result<Conservation, PayError> {
        let totals = self.wallet.ledger().totals()?;
        let out = self.wallet.ledger().outflow_totals()?;
        Ok(Conservation {
            received_total: totals.received,
            wallet_balance: self.wallet.total_balance().await?,
            settled_spend: totals.settled_spend,
            in_flight: totals.in_flight + out.in_flight,
            fees: totals.fees,
            withdrawn: out.withdrawn,
            withdrawal_fees: out.fees,
        })
    }
}

/// See [`Payments::park_when_dropped`].
#[derive(Debug)]
#[must_use = "the payment is parked when this is dropped"]
pub struct ParkOnDrop {
    wallet: Arc<Wallet>,
    id: String,
}

/// A withdrawal or a token being sent whose task ends without an outcome (the owner's Stop, a timeout, a panic) is
/// parked, so that reconcile in this same process settles it: an unparked row under a live session is skipped by
/// every reconcile until the process exits, while cdk's recovery may already have put its proofs back (found by the
/// money explorer's sweep: a withdrawal cut off after its row counted its 200 sats in flight and in the balance).
pub(super) struct ParkOutflowOnDrop {
    pub(super) wallet: Arc<Wallet>,
    pub(super) id: String,
}

impl Drop for ParkOutflowOnDrop {
    fn drop(&mut self) {
        let open = self
            .wallet
            .ledger()
            .outflow(&self.id)
            .ok()
            .flatten()
            .is_some_and(|row| matches!(row.state, PaymentState::Pending | PaymentState::InFlight) && !row.parked);
        if open && self.wallet.ledger().park_outflow(&self.id).is_ok() {
            tracing::info!(outflow = %self.id, "pay: ended without an outcome; parked for reconcile");
        }
    }
}

impl Drop for ParkOnDrop {
    fn drop(&mut self) {
        let unresolved = self
            .wallet
            .ledger()
            .get(&self.id)
            .ok()
            .flatten()
            .is_some_and(|entry| entry.state == PaymentState::InFlight && !entry.parked);
        if unresolved && self.wallet.ledger().park(&self.id).is_ok() {
            tracing::info!(payment = %self.id, "pay: the request ended without an outcome; parked for reconcile");
        }
    }
}
