//! `Payments`: the wallet, its ledger and the budget together, as a paid leg uses them. `auto_pay_token` is the
//! only way a token leaves for a provider, and every outcome (change, 402 reclaim, refund, unknown) ends in the
//! ledger so that the conservation invariant holds after any fault.

use std::collections::HashSet;
use std::str::FromStr;
use std::sync::Arc;

use cdk::wallet::SendOptions;
use cdk::wallet::types::OperationData;

use super::ledger::{LedgerEntry, PaymentState};
use super::{Conservation, PayError, Payment, ReconcileReport, TokenState, Wallet, classify};
use crate::Secret;
use crate::budget::{BudgetStore, PaymentPolicy, Settled, normalize_mint_url};

/// What a paid leg holds: the wallet, the ledger inside it, and the budget.
#[derive(Debug, Clone)]
pub struct Payments {
    wallet: Arc<Wallet>,
    budget: Arc<BudgetStore>,
}

impl Payments {
    pub fn new(wallet: Arc<Wallet>, budget: Arc<BudgetStore>) -> Self {
        Self { wallet, budget }
    }

    pub fn wallet(&self) -> &Wallet {
        &self.wallet
    }

    pub fn budget(&self) -> &BudgetStore {
        &self.budget
    }

    /// A token worth `price_sats` for `provider`, or `None`.
    ///
    /// - `None` without touching the wallet or any mint when the policy cannot afford the price, when no accepted
    ///   mint is listed by the provider, or when the budget cannot reserve it.
    /// - `None` (never an error) on any wallet, mint or ledger problem; the reservation is released and the ledger
    ///   shows nothing left.
    /// - Otherwise the price (plus any mint fee) is reserved, cdk builds a single-keyset token from a mint in
    ///   `policy.accepted_mints ∩ provider_mints`, and the token is written to the ledger as in-flight before it is
    ///   returned. The caller then reports the outcome with exactly one of `settle_with_change`, `reclaim`,
    ///   `take_refund` or `keep_in_flight`.
    pub async fn auto_pay_token(
        &self,
        policy: &PaymentPolicy,
        provider_mints: &[String],
        price_sats: u64,
        provider: &str,
    ) -> Option<Payment> {
        if !policy.affords(price_sats) {
            tracing::info!(price_sats, "pay: the allowance cannot cover this price; not paying");
            return None;
        }
        let provider_mints: HashSet<String> = provider_mints.iter().filter_map(|m| normalize_mint_url(m)).collect();
        let candidates: Vec<String> = policy
            .accepted_mints
            .iter()
            .filter_map(|m| normalize_mint_url(m))
            .filter(|m| provider_mints.contains(m))
            .collect();
        if candidates.is_empty() {
            tracing::info!(provider, "pay: {}", PayError::NoCommonMint);
            return None;
        }
        let mut reservation = self.budget.reserve(policy, price_sats)?;
        match self.send(policy, &candidates, price_sats, provider, &mut reservation).await {
            Ok(payment) => {
                tracing::info!(payment = %payment.id, provider, mint = %payment.mint, sats = payment.amount_sats,
                               "pay: token in flight");
                // The reservation lives on in the budget file under its id, which the ledger row holds; the outcome
                // call (settle, reclaim, refund or reconcile) recovers it from there.
                drop(reservation);
                Some(payment)
            }
            Err(e) => {
                tracing::warn!(provider, price_sats, error = %e, "pay: could not pay; nothing left the wallet");
                self.budget.release(reservation);
                None
            }
        }
    }

    async fn send(
        &self,
        policy: &PaymentPolicy,
        candidates: &[String],
        price_sats: u64,
        provider: &str,
        reservation: &mut crate::budget::Reservation,
    ) -> Result<Payment, PayError> {
        let balances = self.wallet.balances().await?;
        let mint = candidates
            .iter()
            .find(|m| {
                balances.iter().any(|(b, sats)| normalize_mint_url(b).as_deref() == Some(m) && *sats >= price_sats)
            })
            .ok_or(PayError::InsufficientFunds { needed: price_sats })?;
        let wallet = self.wallet.mint_wallet(mint).await?;
        // Ask the mint first: a token from a mint that cannot be reached is worthless to the provider, and cdk can
        // build a token offline from exact proofs.
        wallet.fetch_mint_info().await.map_err(|e| classify(mint, e))?;
        let options = SendOptions { include_fee: true, ..SendOptions::default() };
        let prepared = wallet.prepare_send(price_sats.into(), options).await.map_err(|e| classify(mint, e))?;
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
            provider: provider.to_owned(),
            mint: mint.clone(),
            amount_sats: face,
            token: None,
            operation_id: prepared.operation_id().to_string(),
            reservation: reservation.id(),
            state: PaymentState::Pending,
            spent_at_mint: false,
            fees_sats: swap_fee,
            returned_token: None,
        };
        if let Err(e) = self.wallet.ledger().insert_pending(&entry) {
            let _ = prepared.cancel().await;
            return Err(e);
        }
        let token = match prepared.confirm(None).await {
            Ok(token) => token,
            Err(e) => {
                let _ = self.wallet.ledger().cancel(&id);
                return Err(classify(mint, e));
            }
        };
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

    /// The provider answered and returned `change` (or none, when the cost used the whole token). Spent is the face
    /// value paid minus the face value of the change; what the mint keeps to receive the change counts as fees.
    pub async fn settle_with_change(&self, payment: &Payment, change: Option<&str>) -> Result<Settled, PayError> {
        let entry = self.open_entry(&payment.id)?;
        self.settle_returned(&entry, change).await
    }

    /// Upstream error with a refund token: receive it; the payment settles at (face − refund), zero for a full one.
    pub async fn take_refund(&self, payment: &Payment, refund_token: &str) -> Result<(), PayError> {
        let entry = self.open_entry(&payment.id)?;
        self.settle_returned(&entry, Some(refund_token)).await.map(|_| ())
    }

    async fn settle_returned(&self, entry: &LedgerEntry, returned: Option<&str>) -> Result<Settled, PayError> {
        let (credited, returned_face) = match returned {
            Some(token) => {
                // Stored before receiving: if the mint is down now, `reconcile` receives it later.
                self.wallet.ledger().store_returned(&entry.id, token)?;
                self.wallet.receive_returned(token).await?
            }
            None => (0, 0),
        };
        let spent = entry.amount_sats.saturating_sub(returned_face);
        let receive_fee = returned_face.saturating_sub(credited);
        self.finalize_send(entry).await;
        self.wallet.ledger().settle(&entry.id, spent, receive_fee)?;
        tracing::info!(payment = %entry.id, spent, "pay: settled");
        // The budget counts everything the owner lost to this step: spend and all fees.
        let lost = spent + receive_fee + entry.fees_sats;
        Ok(match self.budget.recover(entry.reservation) {
            Some(reservation) => self.budget.settle(reservation, lost),
            None => Settled::default(),
        })
    }

    /// Lets cdk mark the sent proofs spent and close its send record (best effort: its own recovery retries).
    async fn finalize_send(&self, entry: &LedgerEntry) {
        if let (Ok(wallet), Ok(op)) =
            (self.wallet.mint_wallet(&entry.mint).await, uuid::Uuid::parse_str(&entry.operation_id))
        {
            let _ = wallet.check_send_status(op).await;
        }
    }

    /// The provider refused before redeeming (402): put the token back into the wallet and free the reservation.
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
                    self.wallet.ledger().mark_spent_at_mint(&entry.id)?;
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
    /// reservation stays counted until `reconcile` learns what happened.
    pub async fn keep_in_flight(&self, payment: &Payment) {
        tracing::info!(payment = %payment.id, sats = payment.amount_sats, "pay: outcome unknown; kept in flight");
    }

    /// At startup and on demand: mint paid invoices, let cdk finish interrupted operations, then ask the mint
    /// (NUT-07) about every open payment. Unspent tokens are reclaimed; spent ones stay in flight for the provider's
    /// refund endpoint; stored change or refunds are received. Never fails on one payment: it reports.
    pub async fn reconcile(&self) -> Result<ReconcileReport, PayError> {
        let mut report = ReconcileReport::default();
        match self.wallet.mint_paid_invoices().await {
            Ok(sats) => report.minted_sats = sats,
            Err(e) => tracing::warn!(error = %e, "reconcile: could not check unpaid invoices"),
        }
        self.wallet.recover_sagas().await;
        let open = self.wallet.ledger().unresolved()?;
        let held: HashSet<u64> = open.iter().map(|e| e.reservation).collect();
        for entry in open {
            report.checked += 1;
            self.reconcile_entry(entry, &mut report).await?;
        }
        for id in self.budget.earlier_sessions_reservations() {
            if !held.contains(&id)
                && let Some(reservation) = self.budget.recover(id)
            {
                self.budget.release(reservation);
                report.released_reservations += 1;
            }
        }
        tracing::info!(?report, "reconcile: done");
        Ok(report)
    }

    async fn reconcile_entry(&self, mut entry: LedgerEntry, report: &mut ReconcileReport) -> Result<(), PayError> {
        if let Some(returned) = entry.returned_token.clone() {
            match self.settle_returned(&entry, Some(returned.expose())).await {
                Ok(_) => report.returned_received += 1,
                Err(e) => {
                    tracing::warn!(payment = %entry.id, error = %e, "reconcile: stored change not received yet");
                    report.unreachable += 1;
                }
            }
            return Ok(());
        }
        if entry.state == PaymentState::Pending {
            match self.wallet.saga_token(&entry).await {
                Some(token) => {
                    let face = entry.amount_sats;
                    self.wallet.ledger().mark_in_flight(&entry.id, &token, face)?;
                    entry.token = Some(token);
                }
                None => {
                    // cdk never finished building it: nothing left the wallet.
                    self.wallet.ledger().cancel(&entry.id)?;
                    if let Some(reservation) = self.budget.recover(entry.reservation) {
                        self.budget.release(reservation);
                    }
                    report.cancelled += 1;
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
                Err(PayError::AlreadySpent) => report.spent_kept += 1,
                Err(e) => {
                    tracing::warn!(payment = %entry.id, error = %e, "reconcile: could not reclaim yet");
                    report.unreachable += 1;
                }
            },
            Ok(TokenState::Spent) => {
                self.wallet.ledger().mark_spent_at_mint(&entry.id)?;
                report.spent_kept += 1;
            }
            Ok(TokenState::Pending) => report.spent_kept += 1,
            Err(e) => {
                tracing::warn!(payment = %entry.id, error = %e, "reconcile: could not ask the mint");
                report.unreachable += 1;
            }
        }
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

impl Wallet {
    /// NUT-07 state of an open payment's token.
    async fn token_state_of(&self, entry: &LedgerEntry) -> Result<TokenState, PayError> {
        match &entry.token {
            Some(token) => self.token_state(token).await,
            None => Err(PayError::UnknownPayment(entry.id.clone())),
        }
    }

    /// The token cdk built for a payment whose ledger row never got it (a crash between the two writes).
    async fn saga_token(&self, entry: &LedgerEntry) -> Option<Secret<String>> {
        let wallet = self.mint_wallet(&entry.mint).await.ok()?;
        let op = uuid::Uuid::from_str(&entry.operation_id).ok()?;
        let saga = wallet.localstore.get_saga(&op).await.ok()??;
        match saga.data {
            OperationData::Send(data) => data.token.map(Secret::new),
            _ => None,
        }
    }

    /// Lets cdk finish or undo operations a crash interrupted (best effort; it needs the mints).
    async fn recover_sagas(&self) {
        for wallet in self.cdk_wallets().await {
            if let Err(e) = wallet.recover_incomplete_sagas().await {
                tracing::warn!(mint = %wallet.mint_url, error = %e, "reconcile: cdk recovery incomplete");
            }
        }
    }
}
