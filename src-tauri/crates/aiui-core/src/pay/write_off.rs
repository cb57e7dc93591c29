//! A spent token that came back with no change: the provider's refund endpoint is asked across runs, and the
//! payment is written off as spent, visibly, only when the provider refused for good or the tries or time ran out.

use std::time::Duration;

use super::ledger::LedgerEntry;
use super::payments::Payments;
use super::refund::RefundAnswer;
use super::{PayError, ReconcileReport, WalletNotice, WriteOffWhy};
use crate::faults;

impl Payments {
    /// A spent token without change: ask the provider's refund endpoint once per run (after the wait the last run
    /// set), receive what it gives if it counts, and write the payment off only when the provider refused for good
    /// (410), refused `max_refund_tries` times, or reconcile has watched it for `write_off_after`.
    ///
    /// Only the provider's own answer counts as a try (a 4xx refusal, or 425 "wait", whose wait is honoured): an
    /// endpoint that cannot be reached, or a 5xx from it or from a proxy in front of it, costs none, so a provider
    /// that is down for a while is asked again later rather than written off (`write_off_after` still bounds it). A
    /// refund token, once obtained, is never written off: it is stored and received by a later run if this one
    /// cannot.
    pub(super) async fn pursue_refund(
        &self,
        entry: &LedgerEntry,
        report: &mut ReconcileReport,
    ) -> Result<(), PayError> {
        let now = crate::now_ms();
        let max_backoff = i64::try_from(self.policy.max_backoff.as_millis()).unwrap_or(i64::MAX);
        // A wait set further ahead than any backoff means the clock went back since: the wait is over.
        if entry.next_try_ms > now && entry.next_try_ms - now <= max_backoff {
            report.waiting += 1;
            return self.write_off_if_watched_long(entry, report);
        }
        let answer = match (&entry.endpoint, &entry.token, self.refund_client()) {
            (Some(endpoint), Some(token), Some(client)) => client.ask(endpoint, token).await,
            (None, _, _) => RefundAnswer::Unreachable("no refund endpoint is recorded for this payment".into()),
            _ => RefundAnswer::Unreachable("the refund endpoint cannot be asked".into()),
        };
        let mut tries = entry.tries;
        let (answered, wait, final_refusal) = match answer {
            RefundAnswer::Token(token) => {
                return match self.settle_returned(entry, Some(token.expose())).await {
                    Ok(settlement) => {
                        report.refunded += 1;
                        report.notices.extend(settlement.warning);
                        Ok(())
                    }
                    Err(e) => {
                        // Stored with the payment before receiving: the next run receives it.
                        tracing::warn!(payment = %entry.id, error = %e, "reconcile: the refund is kept for a later run");
                        report.unreachable += 1;
                        Ok(())
                    }
                };
            }
            RefundAnswer::Pending(retry_after) => {
                // An answer, so a try: a provider that says "wait" forever is written off after every try.
                tracing::info!(payment = %entry.id, "reconcile: the provider says the refund is pending (425)");
                (true, retry_after, false)
            }
            RefundAnswer::Refused(status) => {
                tracing::info!(payment = %entry.id, status, "reconcile: the provider gave no refund");
                // 410: swept for good. Another 4xx is the provider's own word, but may be a passing one: one try.
                // (5xx never gets here: a gateway in front of a provider that is down is no answer.)
                (true, Duration::ZERO, status == 410)
            }
            RefundAnswer::Unreachable(reason) => {
                tracing::info!(payment = %entry.id, %reason, "reconcile: the refund endpoint could not be asked");
                (false, Duration::ZERO, false)
            }
        };
        if answered {
            tries = tries.saturating_add(1);
        }
        if final_refusal || tries >= self.policy.max_refund_tries {
            return self.write_off(entry, entry.amount_sats, 0, tries, false, report);
        }
        let doubling = self.policy.first_backoff.saturating_mul(1u32 << tries.saturating_sub(1).min(16));
        let backoff = doubling.max(wait).min(self.policy.max_backoff);
        let next = now.saturating_add(i64::try_from(backoff.as_millis()).unwrap_or(i64::MAX));
        if answered {
            self.wallet.ledger().record_try(&entry.id, next)?;
        } else {
            self.wallet.ledger().defer(&entry.id, next)?;
        }
        report.waiting += 1;
        self.write_off_if_watched_long(entry, report)
    }

    fn write_off_if_watched_long(&self, entry: &LedgerEntry, report: &mut ReconcileReport) -> Result<(), PayError> {
        if self.watched_long_enough(entry) {
            report.waiting = report.waiting.saturating_sub(1);
            return self.write_off(entry, entry.amount_sats, 0, entry.tries, false, report);
        }
        Ok(())
    }

    fn watched_long_enough(&self, entry: &LedgerEntry) -> bool {
        u64::try_from(entry.watched_ms).unwrap_or(0)
            >= u64::try_from(self.policy.write_off_after.as_millis()).unwrap_or(u64::MAX)
    }

    /// Some of a token's proofs are spent or pending at the mint and the rest are not: the provider redeemed part of
    /// it, or a redemption hangs. Once reconcile has watched it for `write_off_after`, the proofs that are still
    /// unspent are taken back, the rest is counted as spent, and the owner is told; until then it waits.
    pub(super) async fn resolve_stuck(
        &self,
        entry: &LedgerEntry,
        report: &mut ReconcileReport,
    ) -> Result<(), PayError> {
        if !self.watched_long_enough(entry) {
            report.waiting += 1;
            return Ok(());
        }
        let Some(token) = &entry.token else { return Err(PayError::UnknownPayment(entry.id.clone())) };
        if self.finish_earlier_take_back(entry, report).await? {
            return Ok(());
        }
        let (unspent_face, credited) = {
            let _operation = self.locks.operation().await?;
            self.wallet.take_back_unspent(token.expose()).await?
        };
        if unspent_face > 0 {
            faults::hit("after-unspent-part-taken-back");
        }
        let spent = entry.amount_sats.saturating_sub(unspent_face);
        self.write_off(entry, spent, unspent_face.saturating_sub(credited), entry.tries, true, report)?;
        if unspent_face > 0 {
            report.reclaimed_sats += credited;
        }
        Ok(())
    }

    /// A run that took back the unspent part of this token was stopped before it wrote the rest off (a crash, or
    /// the desktop aborting its reconcile task; review F1). cdk's record of that receive says what came back, so
    /// the rest is written off now as that run would have: never the whole token, and the part taken back never
    /// twice. `false` when no part of it was taken back.
    pub(super) async fn finish_earlier_take_back(
        &self,
        entry: &LedgerEntry,
        report: &mut ReconcileReport,
    ) -> Result<bool, PayError> {
        let Some(token) = &entry.token else { return Ok(false) };
        let Some((face, credited)) = self.wallet.earlier_take_back(token.expose()).await? else { return Ok(false) };
        tracing::info!(payment = %entry.id, face, "reconcile: part of this token was taken back by an earlier run");
        let spent = entry.amount_sats.saturating_sub(face);
        self.write_off(entry, spent, face.saturating_sub(credited), entry.tries, true, report)?;
        report.reclaimed_sats += credited;
        Ok(true)
    }

    /// Counts `spent` of the token as spent (all of it, unless some came back and `extra_fees` went to the mint to
    /// take it back), against the period the payment was made in, and tells the owner why: the tries made, or that
    /// the mint held it `stuck_at_the_mint` (partly spent or pending).
    fn write_off(
        &self,
        entry: &LedgerEntry,
        spent: u64,
        extra_fees: u64,
        tries: u32,
        stuck_at_the_mint: bool,
        report: &mut ReconcileReport,
    ) -> Result<(), PayError> {
        faults::hit("before-write-off");
        self.wallet.ledger().write_off(&entry.id, spent, extra_fees, tries)?;
        faults::hit("after-write-off");
        if let Some(reservation) = self.budget.recover(entry.reservation) {
            let _ = self.budget.settle(reservation, spent + extra_fees + entry.fees_sats);
        }
        // What reached the wallet again: the unspent part less what the mint kept to take it in.
        let back = entry.amount_sats.saturating_sub(spent).saturating_sub(extra_fees);
        let why = if back > 0 {
            WriteOffWhy::PartlyBack { back }
        } else if stuck_at_the_mint {
            WriteOffWhy::StuckAtTheMint
        } else if tries > 0 {
            WriteOffWhy::NoRefundAfter { tries }
        } else {
            WriteOffWhy::RefundNeverAnswered
        };
        report.written_off += 1;
        report.notices.push(self.tell(WalletNotice::WrittenOff {
            spent,
            paid: entry.amount_sats,
            provider: entry.provider.clone(),
            request_id: entry.request_id.clone(),
            watched_ms: u64::try_from(entry.watched_ms).unwrap_or(0),
            why,
        }));
        tracing::warn!(payment = %entry.id, sats = spent, tries, "reconcile: written off as spent");
        Ok(())
    }
}
