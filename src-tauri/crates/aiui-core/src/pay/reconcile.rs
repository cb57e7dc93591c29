//! `reconcile`: at start-up, in the background and on demand, every payment whose outcome no running request will
//! learn is brought to an end: stored change received, unspent tokens reclaimed, spent ones pursued at the
//! provider's refund endpoint (`write_off.rs`), and reservations settled or released from the ledger.

use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;

use cdk::wallet::types::OperationData;

use super::ledger::{LedgerEntry, OutflowKind, PaymentState};
use super::payments::Payments;
use super::{PayError, ReconcileReport, TokenState, Wallet};
use crate::Secret;

impl Payments {
    /// At startup, in the background and on demand, one at a time per data dir: record minted invoices, let cdk
    /// finish interrupted operations (when no wallet operation runs in any process), then settle every open payment
    /// that no running request holds:
    /// - stored change or refunds are received (if they count; once, whatever happened before);
    /// - a token the mint says is unspent is reclaimed, and one this wallet took back or received already counts so;
    /// - a spent one is asked for at the provider's refund endpoint, with a growing wait across runs (425), and
    ///   written off as spent, with a notice, after `max_refund_tries` answered tries or `write_off_after` watched;
    /// - a partly spent or pending one is, after `write_off_after` watched, taken back for what is unspent;
    /// - a reservation whose payment settled (a crash between the two writes) is settled from the ledger, and one
    ///   whose process is gone without a payment is released.
    ///
    /// Payments and reservations of a process that still runs are never touched. Never fails on one payment: it
    /// reports.
    pub async fn reconcile(&self) -> Result<ReconcileReport, PayError> {
        let mut report = ReconcileReport::default();
        // Two reconciles on one row would both receive its change; one at a time per data dir, across processes.
        let Some(_alone) = self.locks.reconcile() else {
            tracing::info!("reconcile: another AIUI process is reconciling this wallet now; nothing to do here");
            report.reconciling_elsewhere = true;
            return Ok(report);
        };
        match self.wallet.mint_paid_invoices().await {
            Ok(sats) => report.minted_sats = sats,
            Err(e) => tracing::warn!(error = %e, "reconcile: could not check unpaid invoices"),
        }
        self.recover_sagas_when_nothing_runs().await;
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
        self.settle_outflows(&mut report).await;
        match self.wallet.ledger().set_aside_entries() {
            Ok(aside) => {
                for entry in aside.iter().filter(|e| e.state == PaymentState::Settled) {
                    match self.finish_set_aside_receive(entry).await {
                        Ok(Some(_)) => report.returned_received += 1,
                        Ok(None) => {}
                        Err(e) => {
                            tracing::warn!(payment = %entry.id, error = %e, "reconcile: a set-aside token's receive is left as it was")
                        }
                    }
                }
            }
            Err(e) => tracing::warn!(error = %e, "reconcile: could not read the set-aside tokens"),
        }
        self.look_after_mints(&mut report).await;
        for holder in self.budget.reservation_holders() {
            let row = self.wallet.ledger().by_reservation(holder.id, &holder.session)?;
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
        // Every notice of this run is also stored (by `tell`) where every surface reads it.
        report.notices.extend(self.budget.take_notice_in(self.locale()).map(|notice| self.tell_text(notice)));
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

    /// Withdrawals and tokens sent out whose call is over (or whose process is gone): settled from what the mint
    /// and cdk's records say now.
    async fn settle_outflows(&self, report: &mut ReconcileReport) {
        let open = match self.wallet.ledger().open_outflows() {
            Ok(open) => open,
            Err(e) => {
                tracing::warn!(error = %e, "reconcile: could not read withdrawals and tokens sent out");
                return;
            }
        };
        for row in open {
            let own_parked = row.session == self.budget.session() && row.parked;
            if !own_parked && self.budget.session_alive(&row.session) {
                report.skipped_live += 1;
                continue;
            }
            let settled = match row.kind {
                OutflowKind::Withdrawal => self.settle_withdrawal(&row).await,
                OutflowKind::Token => self.settle_sent(&row).await,
                // Written settled in one go: never open.
                OutflowKind::KeysetSwap => Ok(None),
            };
            match settled {
                Ok(Some(notice)) => {
                    report.outflows_settled += 1;
                    report.notices.push(notice);
                }
                Ok(None) => report.outflows_open += 1,
                Err(e) => {
                    tracing::warn!(outflow = %row.id, error = %e, "reconcile: left a withdrawal or a sent token as it was");
                    report.unreachable += 1;
                }
            }
        }
    }

    /// cdk's own saga recovery undoes sends half-way, so it runs only when nothing can be half-way: no cdk
    /// operation in progress in this process or in any other on this data dir (the operations lock, which every
    /// send, receive and revoke holds shared). Other processes that merely run do not hold it off.
    ///
    /// One mint at a time, each under its own deadline, with the locks let go between mints: a mint that accepts
    /// connections and never answers holds every payment of every process back for at most `RECOVERY_PER_MINT`,
    /// never for the sum of every mint's timeouts (review F9).
    async fn recover_sagas_when_nothing_runs(&self) {
        for wallet in self.wallet.cdk_wallets().await {
            let Ok(_here) = self.sends.try_write() else {
                tracing::info!("reconcile: a payment is in progress; cdk's recovery waits for a later run");
                return;
            };
            let Some(_everywhere) = self.locks.recovery() else {
                tracing::info!(
                    "reconcile: a wallet operation is in progress elsewhere; cdk's recovery waits for a later run"
                );
                return;
            };
            match tokio::time::timeout(RECOVERY_PER_MINT, recover_sagas_at(&wallet)).await {
                // An operation cdk had to undo may have been a swap the mint carried out unseen: the proofs
                // the wallet counts there are checked (here or by a later run, in any process).
                Ok(true) => {
                    let _ = self.wallet.ledger().set_meta(&recheck_key(&wallet), crate::now_ms());
                }
                Ok(false) => {}
                Err(_) => {
                    tracing::warn!(mint = %wallet.mint_url, "reconcile: cdk's recovery at this mint ran out of time; a later run goes on")
                }
            }
        }
        self.recover_lost_outputs().await;
    }

    /// A swap the mint carried out whose answer was lost leaves the wallet counting inputs the mint has spent (cdk
    /// undoes such a send by putting them back) and missing the outputs the mint signed; its next swap then reuses
    /// those outputs' counters and is refused, every run (found by the money explorer). So after cdk's recovery
    /// undid an operation at a mint, the mint is asked which of the proofs the wallet counts are spent (one
    /// NUT-07 request; cdk drops those; no request on a run with nothing to recover), and when the
    /// wallet then holds fewer sats than the ledger says it must, asks the mints for its lost outputs again (NUT-09:
    /// they are derived from its seed). Proofs the wallet already knows keep their state (a token sent out stays
    /// out).
    ///
    /// What the mint kept as its fee for such a swap (at most the input fee of the inputs it spent) is recorded as
    /// a fee, as a keyset move's is; a larger shortfall stays a shortfall.
    async fn recover_lost_outputs(&self) {
        use cdk::nuts::State;
        let mut spent_fees = 0;
        for wallet in self.wallet.cdk_wallets().await {
            if self.wallet.ledger().meta(&recheck_key(&wallet)).ok().flatten().is_none() {
                continue;
            }
            let Ok(_here) = self.sends.try_write() else { return };
            let Some(_everywhere) = self.locks.recovery() else { return };
            let check = async {
                let counted: cdk::nuts::Proofs = wallet
                    .localstore
                    .get_proofs(Some(wallet.mint_url.clone()), None, Some(vec![State::Unspent]), None)
                    .await?
                    .into_iter()
                    .map(|info| info.proof)
                    .collect();
                if counted.is_empty() {
                    return Ok(0);
                }
                let states = wallet.check_proofs_spent(counted.clone()).await?;
                let spent: cdk::nuts::Proofs = counted
                    .into_iter()
                    .filter(|proof| proof.y().is_ok_and(|y| states.iter().any(|s| s.y == y && s.state == State::Spent)))
                    .collect();
                if spent.is_empty() {
                    return Ok(0);
                }
                Ok::<_, cdk::Error>(wallet.get_proofs_fee(&spent).await?.total.to_u64())
            };
            match tokio::time::timeout(RECOVERY_PER_MINT, check).await {
                Ok(Ok(fee)) => {
                    spent_fees += fee;
                    let _ = self.wallet.ledger().clear_meta(&recheck_key(&wallet));
                }
                Ok(Err(e)) => {
                    tracing::warn!(mint = %wallet.mint_url, error = %e, "reconcile: could not check the proofs the wallet counts")
                }
                Err(_) => {
                    tracing::warn!(mint = %wallet.mint_url, "reconcile: checking the proofs the wallet counts ran out of time")
                }
            }
        }
        // The fees those lost swaps may have cost, kept across runs: the outputs may be restored in a later run.
        const FEE_BOUND: &str = "lost_swap_fee_bound";
        let mut fee_bound =
            u64::try_from(self.wallet.ledger().meta(FEE_BOUND).ok().flatten().unwrap_or(0)).unwrap_or(0);
        if spent_fees > 0 {
            fee_bound += spent_fees;
            let _ = self.wallet.ledger().set_meta(FEE_BOUND, i64::try_from(fee_bound).unwrap_or(i64::MAX));
        }
        let Ok(sums) = self.conservation().await else { return };
        let expected = sums
            .received_total
            .saturating_sub(sums.settled_spend + sums.in_flight + sums.fees + sums.withdrawn + sums.withdrawal_fees);
        let short = expected.saturating_sub(sums.wallet_balance);
        if short == 0 {
            return;
        }
        tracing::warn!(
            short,
            "reconcile: the wallet holds fewer sats than the ledger counts; asking the mints for lost outputs"
        );
        for wallet in self.wallet.cdk_wallets().await {
            let Ok(_here) = self.sends.try_write() else { return };
            let Some(_everywhere) = self.locks.recovery() else { return };
            match tokio::time::timeout(RECOVERY_PER_MINT, restore_unknown_outputs(&wallet)).await {
                Ok(Ok(found)) if found > 0 => {
                    tracing::info!(mint = %wallet.mint_url, found, "reconcile: lost outputs recovered")
                }
                Ok(Ok(_)) => {}
                Ok(Err(e)) => {
                    tracing::warn!(mint = %wallet.mint_url, error = %e, "reconcile: could not ask for lost outputs")
                }
                Err(_) => tracing::warn!(mint = %wallet.mint_url, "reconcile: asking for lost outputs ran out of time"),
            }
        }
        let Ok(after) = self.conservation().await else { return };
        let still_short = expected.saturating_sub(after.wallet_balance);
        if still_short == 0 || still_short > fee_bound {
            return;
        }
        let _ = self.wallet.ledger().set_meta(FEE_BOUND, i64::try_from(fee_bound - still_short).unwrap_or(0));
        let mint = self.wallet.cdk_wallets().await.first().map(|w| w.mint_url.to_string()).unwrap_or_default();
        let outcome = "kept by the mint for a swap whose answer was lost";
        match self.record_kept_by_the_mint(&mint, still_short, still_short, outcome) {
            Ok(()) => tracing::warn!(sats = still_short, "reconcile: a lost swap's fee is recorded"),
            Err(e) => tracing::warn!(error = %e, "reconcile: could not record a lost swap's fee"),
        }
    }

    async fn reconcile_entry(&self, mut entry: LedgerEntry, report: &mut ReconcileReport) -> Result<(), PayError> {
        let step = i64::try_from(self.policy.max_watch_step.as_millis()).unwrap_or(i64::MAX);
        let (watched, clock_went_back) = self.wallet.ledger().watch(&entry.id, crate::now_ms(), step)?;
        if clock_went_back {
            tracing::warn!(payment = %entry.id, "reconcile: the clock went back since the last run; that time is not counted");
        }
        entry.watched_ms = watched;
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
            match self.wallet.saga_token(&entry.mint, &entry.operation_id).await {
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
        if self.finish_earlier_take_back(&entry, report).await? {
            return Ok(());
        }
        match self.wallet.token_state_of(&entry).await {
            // Unspent: taken back. Spent: by the provider, or by this wallet in an earlier try whose ledger write was
            // lost (a revoke, a receive); `reclaim_entry` tells them apart, and only the provider's redemption is
            // pursued at its refund endpoint.
            Ok(TokenState::Unspent | TokenState::Spent) => match self.reclaim_entry(&entry).await {
                Ok(sats) => {
                    report.reclaimed += 1;
                    report.reclaimed_sats += sats;
                }
                Err(PayError::AlreadySpent) => self.pursue_refund(&entry, report).await?,
                Err(e) => {
                    tracing::warn!(payment = %entry.id, error = %e, "reconcile: could not take it back or tell who spent it yet");
                    report.unreachable += 1;
                }
            },
            Ok(TokenState::Pending) => self.resolve_stuck(&entry, report).await?,
            Err(e) => {
                tracing::warn!(payment = %entry.id, error = %e, "reconcile: could not ask the mint");
                report.unreachable += 1;
            }
        }
        Ok(())
    }
}

/// What cdk knows of the token of a payment (or a token sent out) whose ledger row never got it.
pub(super) enum SagaToken {
    Token(Secret<String>),
    /// cdk holds no record: the send never happened, or its recovery undid it.
    Gone,
    /// cdk's record exists without a token: its recovery has not run yet.
    Unfinished,
}

impl Wallet {
    /// NUT-07 state of an open payment's token.
    pub(super) async fn token_state_of(&self, entry: &LedgerEntry) -> Result<TokenState, PayError> {
        match &entry.token {
            Some(token) => self.token_state(token).await,
            None => Err(PayError::UnknownPayment(entry.id.clone())),
        }
    }

    /// The token cdk built for a send whose ledger row never got it (a crash between the two writes).
    pub(super) async fn saga_token(&self, mint: &str, operation_id: &str) -> SagaToken {
        let Ok(wallet) = self.mint_wallet(mint).await else { return SagaToken::Unfinished };
        let Ok(op) = uuid::Uuid::from_str(operation_id) else { return SagaToken::Gone };
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
}

/// cdk's NUT-09 restore at `wallet`'s mint, keeping every proof the wallet knew before exactly as it was: its state
/// and the operation it belongs to (a restore stores whatever the mint calls unspent as unspent and unlinked, which
/// would put a token sent out back in the balance and let cdk's recovery drop that send's record as orphaned; the
/// explorer found the second). Returns the sats the balance gained.
async fn restore_unknown_outputs(wallet: &cdk::Wallet) -> Result<u64, cdk::Error> {
    let before = wallet.total_balance().await?.to_u64();
    let known = wallet.localstore.get_proofs(Some(wallet.mint_url.clone()), None, None, None).await?;
    wallet.restore().await?;
    wallet.localstore.update_proofs(known, vec![]).await?;
    Ok(wallet.total_balance().await?.to_u64().saturating_sub(before))
}

/// How long cdk's recovery at one mint may hold the wallet's operations off.
const RECOVERY_PER_MINT: Duration = Duration::from_secs(20);

/// Lets cdk finish or undo the operations a crash interrupted at `wallet`'s mint, and close the records of sends
/// whose token was redeemed (best effort; it needs the mint). Cut off by the deadline, it is a crash cdk's sagas
/// are built to survive: the next run goes on from their stored state. `true` when it undid an operation (or could
/// not tell): one that was a swap may have been carried out by the mint unseen.
async fn recover_sagas_at(wallet: &cdk::Wallet) -> bool {
    link_swapped_send_proofs(wallet).await;
    close_redeemed_sends(wallet).await;
    match wallet.recover_incomplete_sagas().await {
        Ok(report) => report.compensated + report.failed > 0,
        Err(e) => {
            tracing::warn!(mint = %wallet.mint_url, error = %e, "reconcile: cdk recovery incomplete");
            true
        }
    }
}

/// cdk 0.18 stores the proofs a send made by a swap (to hit the amount, or to pay the mint's fee) without the send
/// they belong to, and its recovery, finding no proofs of that send, deletes the send's record as orphaned: the token
/// stays out with nothing left to take it back by (found by the money explorer, seed 35). Before recovery runs,
/// every open send's token proofs are marked as that send's again, as cdk marks the ones it did not swap.
async fn link_swapped_send_proofs(wallet: &cdk::Wallet) {
    use cdk::nuts::{ProofsMethods, State};
    use cdk_common::wallet::{OperationData, SendSagaState, WalletSagaState};
    let Ok(sagas) = wallet.localstore.get_incomplete_sagas().await else { return };
    for saga in sagas.iter().filter(|saga| saga.mint_url == wallet.mint_url) {
        let (
            WalletSagaState::Send(SendSagaState::TokenCreated | SendSagaState::RollingBack),
            OperationData::Send(data),
        ) = (&saga.state, &saga.data)
        else {
            continue;
        };
        let Some(Ok(ys)) = data.proofs.as_ref().map(|proofs| proofs.ys()) else { continue };
        let Ok(stored) = wallet.localstore.get_proofs_by_ys(ys).await else { continue };
        let unlinked: Vec<_> = stored
            .into_iter()
            .filter(|info| {
                info.used_by_operation.is_none() && matches!(info.state, State::PendingSpent | State::Reserved)
            })
            .map(|mut info| {
                info.used_by_operation = Some(saga.id);
                info
            })
            .collect();
        if unlinked.is_empty() {
            continue;
        }
        let count = unlinked.len();
        match wallet.localstore.update_proofs(unlinked, Vec::new()).await {
            Ok(()) => {
                tracing::info!(send = %saga.id, count, "reconcile: a send's swapped proofs marked as its own again")
            }
            Err(e) => tracing::warn!(send = %saga.id, error = %e, "reconcile: could not mark a send's proofs"),
        }
    }
}

/// The ledger's mark that the proofs the wallet counts at `wallet`'s mint are to be checked against the mint.
fn recheck_key(wallet: &cdk::Wallet) -> String {
    format!("recheck_counted_proofs:{}", wallet.mint_url)
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
