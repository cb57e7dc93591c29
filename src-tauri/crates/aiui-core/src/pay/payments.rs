//! `Payments`: the wallet, its ledger and the budget together, as a paid leg uses them. `pay_token` (and its
//! `Option` form `auto_pay_token`) is the only way a token leaves for a provider, and every outcome (change, 402
//! reclaim, refund, unknown, written off) ends in the ledger so that the conservation invariant holds after any
//! fault.
//!
//! What a provider sends back is untrusted: change or a refund counts only when it is a sat token from the mint that
//! was paid and worth no more than what was paid. Anything else counts as nothing returned, is kept aside in the
//! ledger (never received, so no URL the provider chose is contacted) and the owner is told.

use std::collections::HashSet;
use std::str::FromStr;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use cdk::nuts::{CurrencyUnit, Token};
use cdk::wallet::SendOptions;
use cdk::wallet::types::OperationData;

use super::ledger::{LedgerEntry, PaymentState};
use super::refund::{RefundAnswer, RefundClient};
use super::{Conservation, PayError, Payment, ReconcileReport, TokenState, Wallet, classify};
use crate::Secret;
use crate::budget::{BudgetStore, PaymentPolicy, Settled, normalize_mint_url};
use crate::faults;
use crate::net::guard::AddressPolicy;

/// How `reconcile` pursues a payment whose token was spent without change: how often it asks the provider's refund
/// endpoint, how long it waits between runs, and when it gives up and writes the payment off as spent.
#[derive(Debug, Clone)]
pub struct ReconcilePolicy {
    pub max_refund_tries: u32,
    pub write_off_after: Duration,
    pub first_backoff: Duration,
    pub max_backoff: Duration,
}

impl Default for ReconcilePolicy {
    fn default() -> Self {
        Self {
            max_refund_tries: 8,
            write_off_after: Duration::from_secs(3 * 24 * 3600),
            first_backoff: Duration::from_secs(60),
            max_backoff: Duration::from_secs(6 * 3600),
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
    wallet: Arc<Wallet>,
    budget: Arc<BudgetStore>,
    refund_access: (AddressPolicy, Option<std::net::SocketAddr>),
    refunds: Arc<OnceLock<Option<RefundClient>>>,
    policy: ReconcilePolicy,
    /// Sends in progress hold it shared; cdk's saga recovery, which would undo a send half-way, holds it alone.
    sends: Arc<tokio::sync::RwLock<()>>,
    /// Held while cdk chooses and reserves proofs for a send, so two concurrent payments do not pick the same
    /// proofs and one of them fail (that choice is local and brief; the swap and the send run unserialized).
    choosing: Arc<tokio::sync::Mutex<()>>,
}

impl Payments {
    pub fn new(wallet: Arc<Wallet>, budget: Arc<BudgetStore>) -> Self {
        wallet.trust_owner_mints(&budget.get().accepted_mints);
        Self {
            wallet,
            budget,
            refund_access: (AddressPolicy::PublicOnly, None),
            refunds: Arc::new(OnceLock::new()),
            policy: ReconcilePolicy::default(),
            sends: Arc::new(tokio::sync::RwLock::new(())),
            choosing: Arc::new(tokio::sync::Mutex::new(())),
        }
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
        match self.send(policy, &candidates, price_sats, to, &mut reservation).await {
            Ok(payment) => {
                tracing::info!(payment = %payment.id, provider = %to.label, mint = %payment.mint,
                               sats = payment.amount_sats, "pay: token in flight");
                // The reservation lives on in the budget file under its id, which the ledger row holds; the outcome
                // call (settle, reclaim, refund or reconcile) recovers it from there.
                drop(reservation);
                Ok(payment)
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
            Err(e) => {
                let _ = self.wallet.ledger().cancel(&id);
                return Err(classify(mint, e));
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
            }
            return Err(e);
        }
        Ok(Payment { id, token, mint: mint.clone(), amount_sats: face })
    }

    fn open_entry(&self, id: &str) -> Result<LedgerEntry, PayError> {
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

    /// Records the provider's request id with the payment (for the owner and for refund inquiries).
    pub fn note_request_id(&self, payment: &Payment, request_id: &str) {
        let request_id: String = request_id.chars().filter(|c| c.is_ascii_graphic()).take(128).collect();
        if let Err(e) = self.wallet.ledger().set_request_id(&payment.id, &request_id) {
            tracing::warn!(payment = %payment.id, error = %e, "pay: could not record the request id");
        }
    }

    /// The provider answered and returned `change` (or none, when the cost used the whole token). Spent is the face
    /// value paid minus the face value of the change that counts; what the mint keeps to receive it counts as fees.
    pub async fn settle_with_change(&self, payment: &Payment, change: Option<&str>) -> Result<Settlement, PayError> {
        let entry = self.open_entry(&payment.id)?;
        self.settle_returned(&entry, change).await
    }

    /// Upstream error with a refund token: receive it; the payment settles at (face − refund), zero for a full one.
    pub async fn take_refund(&self, payment: &Payment, refund_token: &str) -> Result<Settlement, PayError> {
        let entry = self.open_entry(&payment.id)?;
        self.settle_returned(&entry, Some(refund_token)).await
    }

    async fn settle_returned(&self, entry: &LedgerEntry, returned: Option<&str>) -> Result<Settlement, PayError> {
        let mut warning = None;
        let (credited, returned_face) = match returned.map(str::trim).filter(|t| !t.is_empty()) {
            None => (0, 0),
            Some(token) => match judge_returned(entry, token) {
                Err(reason) => {
                    warning = Some(self.set_aside(entry, token, &reason)?);
                    (0, 0)
                }
                Ok(_) => {
                    // Stored before receiving: if the mint is down now, `reconcile` receives it later.
                    self.wallet.ledger().store_returned(&entry.id, token)?;
                    faults::hit("after-change-stored");
                    match self.wallet.receive_returned(token).await {
                        Ok(received) => received,
                        Err(e @ (PayError::MintUnreachable { .. } | PayError::Timeout | PayError::Store(_))) => {
                            return Err(e);
                        }
                        Err(e) => {
                            warning = Some(self.set_aside(entry, token, &format!("the mint refused it ({e})"))?);
                            (0, 0)
                        }
                    }
                }
            },
        };
        let spent = entry.amount_sats.saturating_sub(returned_face);
        let receive_fee = returned_face.saturating_sub(credited);
        // No checkstate here: the ledger is what settles the payment, and cdk's record of the sent proofs is only
        // its bookkeeping (they are `PendingSpent`, outside the balance and never chosen again). `reconcile`
        // closes those records for every settled send at once, one `POST /v1/checkstate` per mint, instead of
        // one per paid request.
        self.wallet.ledger().settle(&entry.id, spent, receive_fee)?;
        faults::hit("between-ledger-and-budget-settle");
        tracing::info!(payment = %entry.id, spent, "pay: settled");
        // The budget counts everything the owner lost to this step: spend and all fees.
        let lost = spent + receive_fee + entry.fees_sats;
        let settled = match self.budget.recover(entry.reservation) {
            Some(reservation) => self.budget.settle(reservation, lost),
            None => Settled::default(),
        };
        Ok(Settlement { spent_sats: spent, crossed_80: settled.crossed_80, warning })
    }

    /// Keeps a returned token that does not count aside in the ledger and says so, for the owner.
    fn set_aside(&self, entry: &LedgerEntry, token: &str, reason: &str) -> Result<String, PayError> {
        self.wallet.ledger().set_aside(&entry.id, token, reason)?;
        tracing::warn!(payment = %entry.id, provider = %entry.provider, %reason, "pay: returned token set aside");
        Ok(format!(
            "{} sent back a token that does not count: {reason}. It was counted as 0 sats returned and kept aside \
             (not received), so this payment counts in full.",
            entry.provider
        ))
    }

    /// The provider refused before redeeming (402): put the token back into the wallet and free the reservation.
    /// [`PayError::AlreadySpent`] when the provider had redeemed it after all: the payment stays open.
    pub async fn reclaim(&self, payment: &Payment) -> Result<(), PayError> {
        let entry = self.open_entry(&payment.id)?;
        self.reclaim_entry(&entry).await.map(|_| ())
    }

    async fn reclaim_entry(&self, entry: &LedgerEntry) -> Result<u64, PayError> {
        let wallet = self.wallet.mint_wallet(&entry.mint).await?;
        let op = uuid::Uuid::parse_str(&entry.operation_id).map_err(|e| PayError::Store(e.to_string()))?;
        let recovered = match wallet.revoke_send(op).await {
            Ok(amount) => amount.to_u64(),
            Err(e) => {
                if matches!(self.wallet.token_state_of(entry).await, Ok(TokenState::Spent)) {
                    if !entry.spent_at_mint {
                        self.wallet.ledger().mark_spent_at_mint(&entry.id)?;
                    }
                    return Err(PayError::AlreadySpent);
                }
                // cdk no longer tracks this send (e.g. its record was closed): receive the token itself.
                match &entry.token {
                    Some(token) => self.wallet.receive_returned(token.expose()).await?.0,
                    None => return Err(classify(&entry.mint, e)),
                }
            }
        };
        let fee = entry.amount_sats.saturating_sub(recovered);
        self.wallet.ledger().settle(&entry.id, 0, fee)?;
        tracing::info!(payment = %entry.id, sats = recovered, "pay: reclaimed");
        if let Some(reservation) = self.budget.recover(entry.reservation) {
            match fee + entry.fees_sats {
                0 => self.budget.release(reservation),
                lost => {
                    let _ = self.budget.settle(reservation, lost);
                }
            }
        }
        Ok(recovered)
    }

    /// The outcome is unknown (500 without change, a dropped connection): the token stays in flight and its
    /// reservation stays counted until `reconcile` learns what happened. The request is over, so `reconcile` may
    /// now look at it (a payment still being made is never touched).
    pub async fn keep_in_flight(&self, payment: &Payment) {
        tracing::info!(payment = %payment.id, sats = payment.amount_sats, "pay: outcome unknown; kept in flight");
        if let Err(e) = self.wallet.ledger().park(&payment.id) {
            tracing::warn!(payment = %payment.id, error = %e, "pay: could not mark the payment for reconcile");
        }
    }

    /// At startup, in the background and on demand: mint paid invoices, let cdk finish interrupted operations (only
    /// when no send is in progress here and no other process runs), then settle every open payment that no running
    /// request holds:
    /// - stored change or refunds are received (if they count);
    /// - a token the mint says is unspent is reclaimed;
    /// - a spent one is asked for at the provider's refund endpoint, with a growing wait across runs (425), and
    ///   written off as spent, with a notice, after `max_refund_tries` tries or `write_off_after`;
    /// - a reservation whose payment settled (a crash between the two writes) is settled from the ledger, and one
    ///   whose process is gone without a payment is released.
    ///
    /// Payments and reservations of a process that still runs are never touched. Never fails on one payment: it
    /// reports.
    pub async fn reconcile(&self) -> Result<ReconcileReport, PayError> {
        let mut report = ReconcileReport::default();
        match self.wallet.mint_paid_invoices().await {
            Ok(sats) => report.minted_sats = sats,
            Err(e) => tracing::warn!(error = %e, "reconcile: could not check unpaid invoices"),
        }
        self.recover_sagas_if_alone().await;
        for entry in self.wallet.ledger().unresolved()? {
            let own_parked = entry.session == self.budget.session() && entry.parked;
            if !own_parked && self.budget.session_alive(&entry.session) {
                // A request of this process, or of another that still runs, may hold it right now.
                report.skipped_live += 1;
                continue;
            }
            report.checked += 1;
            if let Err(e) = self.reconcile_entry(entry, &mut report).await {
                tracing::warn!(error = %e, "reconcile: left a payment as it was");
                report.unreachable += 1;
            }
        }
        for holder in self.budget.reservation_holders() {
            let row = self.wallet.ledger().by_reservation(holder.id)?;
            match row {
                Some(row) if row.state == PaymentState::Settled => {
                    // The ledger settled but the budget did not learn it (a crash or a failed write in between).
                    if let Some(reservation) = self.budget.recover(holder.id) {
                        let _ = self.budget.settle(reservation, row.spent_sats + row.fees_sats);
                        report.settled_late += 1;
                    }
                }
                Some(row) if row.state == PaymentState::Cancelled => {
                    if let Some(reservation) = self.budget.recover(holder.id) {
                        self.budget.release(reservation);
                        report.released_reservations += 1;
                    }
                }
                Some(_) => {}
                None if !holder.alive => {
                    // Its process died before a token existed: nothing left the wallet.
                    if let Some(reservation) = self.budget.recover(holder.id) {
                        self.budget.release(reservation);
                        report.released_reservations += 1;
                    }
                }
                None => {}
            }
        }
        report.notices.extend(self.budget.take_notice());
        tracing::info!(?report, "reconcile: done");
        Ok(report)
    }

    /// Runs [`Payments::reconcile`] now and then every `every`, until the returned task is aborted, so that open
    /// payments end resolved without the owner asking. What the owner must hear (write-offs, refused change, the
    /// 80% notice) goes to `tell`.
    pub fn reconcile_in_background(
        self: &Arc<Self>,
        every: Duration,
        tell: impl Fn(Vec<String>) + Send + 'static,
    ) -> tokio::task::JoinHandle<()> {
        let payments = self.clone();
        tokio::spawn(async move {
            let mut ticks = tokio::time::interval(every);
            ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                ticks.tick().await;
                match payments.reconcile().await {
                    Ok(report) if !report.notices.is_empty() => tell(report.notices),
                    Ok(_) => {}
                    Err(e) => tracing::warn!(error = %e, "background reconcile failed; it runs again later"),
                }
            }
        })
    }

    /// cdk's own saga recovery undoes sends half-way, so it runs only when nothing could be half-way: no send in
    /// progress in this process (the lock), and no other process alive on this data dir.
    async fn recover_sagas_if_alone(&self) {
        if self.budget.other_sessions_alive() {
            tracing::info!("reconcile: another AIUI process is running; cdk's recovery waits for a later run");
            return;
        }
        let Ok(_alone) = self.sends.try_write() else {
            tracing::info!("reconcile: a payment is in progress; cdk's recovery waits for a later run");
            return;
        };
        self.wallet.recover_sagas().await;
    }

    async fn reconcile_entry(&self, mut entry: LedgerEntry, report: &mut ReconcileReport) -> Result<(), PayError> {
        if let Some(returned) = entry.returned_token.clone() {
            match self.settle_returned(&entry, Some(returned.expose())).await {
                Ok(settlement) => {
                    report.returned_received += 1;
                    report.notices.extend(settlement.warning);
                }
                Err(e) => {
                    tracing::warn!(payment = %entry.id, error = %e, "reconcile: stored change not received yet");
                    report.unreachable += 1;
                }
            }
            return Ok(());
        }
        if entry.state == PaymentState::Pending {
            match self.wallet.saga_token(&entry).await {
                SagaToken::Token(token) => {
                    let face = entry.amount_sats;
                    self.wallet.ledger().mark_in_flight(&entry.id, &token, face)?;
                    entry.token = Some(token);
                    entry.state = PaymentState::InFlight;
                }
                SagaToken::Gone => {
                    // cdk never finished building it, and its recovery put the proofs back: nothing left the wallet.
                    self.wallet.ledger().cancel(&entry.id)?;
                    if let Some(reservation) = self.budget.recover(entry.reservation) {
                        self.budget.release(reservation);
                    }
                    report.cancelled += 1;
                    return Ok(());
                }
                SagaToken::Unfinished => {
                    // cdk still holds proofs for it: its recovery (when no other process runs) finishes it first.
                    report.unreachable += 1;
                    return Ok(());
                }
            }
        }
        match self.wallet.token_state_of(&entry).await {
            Ok(TokenState::Unspent) => match self.reclaim_entry(&entry).await {
                Ok(sats) => {
                    report.reclaimed += 1;
                    report.reclaimed_sats += sats;
                }
                Err(PayError::AlreadySpent) => self.pursue_refund(&entry, report).await?,
                Err(e) => {
                    tracing::warn!(payment = %entry.id, error = %e, "reconcile: could not reclaim yet");
                    report.unreachable += 1;
                }
            },
            Ok(TokenState::Spent) => {
                if !entry.spent_at_mint {
                    self.wallet.ledger().mark_spent_at_mint(&entry.id)?;
                }
                self.pursue_refund(&entry, report).await?;
            }
            Ok(TokenState::Pending) => report.waiting += 1,
            Err(e) => {
                tracing::warn!(payment = %entry.id, error = %e, "reconcile: could not ask the mint");
                report.unreachable += 1;
            }
        }
        Ok(())
    }

    /// A spent token without change: ask the provider's refund endpoint once per run (after the wait the last run
    /// set), receive what it gives if it counts, and write the payment off when the tries or the time run out.
    async fn pursue_refund(&self, entry: &LedgerEntry, report: &mut ReconcileReport) -> Result<(), PayError> {
        let now = crate::now_ms();
        if entry.next_try_ms > now {
            report.waiting += 1;
            return Ok(());
        }
        let answer = match (&entry.endpoint, &entry.token, self.refund_client()) {
            (Some(endpoint), Some(token), Some(client)) => client.ask(endpoint, token).await,
            (None, _, _) => RefundAnswer::Unreachable("no refund endpoint is recorded for this payment".into()),
            _ => RefundAnswer::Unreachable("the refund endpoint cannot be asked".into()),
        };
        let mut wait = Duration::ZERO;
        let mut final_refusal = false;
        match answer {
            RefundAnswer::Token(token) => match self.settle_returned(entry, Some(token.expose())).await {
                Ok(settlement) => {
                    report.refunded += 1;
                    report.notices.extend(settlement.warning);
                    return Ok(());
                }
                Err(e) => {
                    tracing::warn!(payment = %entry.id, error = %e, "reconcile: the refund could not be received")
                }
            },
            RefundAnswer::Pending(retry_after) => {
                wait = retry_after;
                tracing::info!(payment = %entry.id, "reconcile: the provider says the refund is pending (425)");
            }
            RefundAnswer::Refused(status) => {
                // 410: swept for good. Anything else may be a passing fault and counts as one try.
                final_refusal = status == 410;
                tracing::info!(payment = %entry.id, status, "reconcile: the provider gave no refund");
            }
            RefundAnswer::Unreachable(reason) => {
                tracing::info!(payment = %entry.id, %reason, "reconcile: the refund endpoint could not be asked")
            }
        }
        let tries = entry.tries.saturating_add(1);
        let age = Duration::from_millis(u64::try_from(now - entry.created_ms).unwrap_or(0));
        if final_refusal || tries >= self.policy.max_refund_tries || age >= self.policy.write_off_after {
            return self.write_off(entry, tries, age, report);
        }
        let doubling = self.policy.first_backoff.saturating_mul(1u32 << (tries - 1).min(16));
        let backoff = doubling.max(wait).min(self.policy.max_backoff);
        self.wallet.ledger().record_try(&entry.id, now.saturating_add(backoff.as_millis() as i64))?;
        report.waiting += 1;
        Ok(())
    }

    /// Counts the whole token as spent, against the period the payment was made in, and tells the owner.
    fn write_off(
        &self,
        entry: &LedgerEntry,
        tries: u32,
        age: Duration,
        report: &mut ReconcileReport,
    ) -> Result<(), PayError> {
        self.wallet.ledger().write_off(&entry.id)?;
        if let Some(reservation) = self.budget.recover(entry.reservation) {
            let _ = self.budget.settle(reservation, entry.amount_sats + entry.fees_sats);
        }
        let request = entry.request_id.as_deref().map(|r| format!(" (request {r})")).unwrap_or_default();
        report.written_off += 1;
        report.notices.push(format!(
            "{} sats paid to {}{request} {} ago were written off as spent: the provider redeemed the token but sent \
             neither an answer with change nor a refund after {tries} tries. The allowance counts them in the period \
             the payment was made in.",
            entry.amount_sats,
            entry.provider,
            human_age(age),
        ));
        tracing::warn!(payment = %entry.id, sats = entry.amount_sats, tries, "reconcile: written off as spent");
        Ok(())
    }

    /// The conservation sums. `holds()` on the result is the invariant the ledger tests assert after every fault.
    /// Async because the wallet balance is read from cdk's store.
    pub async fn conservation(&self) -> Result<Conservation, PayError> {
        let totals = self.wallet.ledger().totals()?;
        Ok(Conservation {
            received_total: totals.received,
            wallet_balance: self.wallet.total_balance().await?,
            settled_spend: totals.settled_spend,
            in_flight: totals.in_flight,
            fees: totals.fees,
        })
    }
}

/// Whether a returned token counts, and its face value if it does: a sat token from the mint that was paid, worth
/// no more than what was paid. The reason is for the owner.
fn judge_returned(entry: &LedgerEntry, token: &str) -> Result<u64, String> {
    judge_returned_token(&entry.mint, entry.amount_sats, token)
}

/// [`judge_returned`] against a payment of `paid_sats` from `paid_mint`: parses `token` as the wallet sees it.
pub(crate) fn judge_returned_token(paid_mint: &str, paid_sats: u64, token: &str) -> Result<u64, String> {
    let parsed = Token::from_str(token).map_err(|_| "it is not a Cashu token".to_owned())?;
    let unit = parsed.unit().unwrap_or_default();
    let mint = parsed.mint_url().map_err(|_| "it names no single mint".to_owned())?.to_string();
    let face = parsed.value().map_err(|_| "its amount cannot be read".to_owned())?.to_u64();
    returned_value(paid_mint, paid_sats, &mint, &unit, face)
}

/// The rule behind [`judge_returned`], on plain values: what a returned token of `face` in `unit` from `mint`
/// counts for, against a payment of `paid_sats` from `paid_mint`.
pub(crate) fn returned_value(
    paid_mint: &str,
    paid_sats: u64,
    mint: &str,
    unit: &CurrencyUnit,
    face: u64,
) -> Result<u64, String> {
    if *unit != CurrencyUnit::Sat {
        return Err(format!("it is in {unit}, not in the sats that were paid"));
    }
    if normalize_mint_url(mint).is_none() || normalize_mint_url(mint) != normalize_mint_url(paid_mint) {
        let shown: String = mint.chars().take(80).collect();
        return Err(format!("it is from the mint {shown}, not from {paid_mint}, the mint that was paid"));
    }
    if face > paid_sats {
        return Err(format!("it claims {face} sats, more than the {paid_sats} sats that were paid"));
    }
    Ok(face)
}

fn human_age(age: Duration) -> String {
    let secs = age.as_secs();
    match secs {
        0..120 => format!("{secs} seconds"),
        120..7200 => format!("{} minutes", secs / 60),
        7200..172_800 => format!("{} hours", secs / 3600),
        _ => format!("{} days", secs / 86_400),
    }
}

/// What cdk knows of the token of a payment whose ledger row never got it.
enum SagaToken {
    Token(Secret<String>),
    /// cdk holds no record: the send never happened, or its recovery undid it.
    Gone,
    /// cdk's record exists without a token: its recovery has not run yet.
    Unfinished,
}

impl Wallet {
    /// NUT-07 state of an open payment's token.
    async fn token_state_of(&self, entry: &LedgerEntry) -> Result<TokenState, PayError> {
        match &entry.token {
            Some(token) => self.token_state(token).await,
            None => Err(PayError::UnknownPayment(entry.id.clone())),
        }
    }

    /// The token cdk built for a payment whose ledger row never got it (a crash between the two writes).
    async fn saga_token(&self, entry: &LedgerEntry) -> SagaToken {
        let Ok(wallet) = self.mint_wallet(&entry.mint).await else { return SagaToken::Unfinished };
        let Ok(op) = uuid::Uuid::from_str(&entry.operation_id) else { return SagaToken::Gone };
        match wallet.localstore.get_saga(&op).await {
            Ok(Some(saga)) => match saga.data {
                OperationData::Send(data) => {
                    data.token.map_or(SagaToken::Unfinished, |t| SagaToken::Token(Secret::new(t)))
                }
                _ => SagaToken::Gone,
            },
            Ok(None) => SagaToken::Gone,
            Err(_) => SagaToken::Unfinished,
        }
    }

    /// Lets cdk finish or undo operations a crash interrupted, and close the records of sends whose token was
    /// redeemed (best effort; it needs the mints).
    async fn recover_sagas(&self) {
        for wallet in self.cdk_wallets().await {
            close_redeemed_sends(&wallet).await;
            if let Err(e) = wallet.recover_incomplete_sagas().await {
                tracing::warn!(mint = %wallet.mint_url, error = %e, "reconcile: cdk recovery incomplete");
            }
        }
    }
}

/// One `POST /v1/checkstate` for the proofs of every send cdk still holds open at `wallet`'s mint (settled payments,
/// whose records are closed here rather than one request per payment, and open ones): cdk drops the proofs the mint
/// says are spent, and its recovery, which runs next, then closes those sends without asking the mint again, one
/// by one. Proofs that are not spent stay as they are, so an open payment's token can still be reclaimed.
async fn close_redeemed_sends(wallet: &cdk::Wallet) {
    use cdk_common::wallet::{SendSagaState, WalletSagaState};
    let Ok(sagas) = wallet.localstore.get_incomplete_sagas().await else { return };
    let mut proofs = Vec::new();
    for saga in sagas.iter().filter(|saga| {
        saga.mint_url == wallet.mint_url && saga.state == WalletSagaState::Send(SendSagaState::TokenCreated)
    }) {
        if let Ok(reserved) = wallet.localstore.get_reserved_proofs(&saga.id).await {
            proofs.extend(reserved.into_iter().map(|info| info.proof));
        }
    }
    if proofs.is_empty() {
        return;
    }
    if let Err(e) = wallet.check_proofs_spent(proofs).await {
        tracing::warn!(mint = %wallet.mint_url, error = %e, "reconcile: could not ask the mint about sent proofs");
    }
}
