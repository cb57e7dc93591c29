//! Settling what a provider sent back: change, a refund, or the token itself after a 402 (reclaim), and the outcome
//! "unknown" that parks a payment for `reconcile`.
//!
//! What a provider sends back is untrusted: change or a refund counts only when it is a sat token from the mint that
//! was paid and worth no more than what was paid. Anything else counts as nothing returned, is kept aside in the
//! ledger (never received, so no URL the provider chose is contacted) and the owner is told.

use std::str::FromStr;

use cdk::nuts::{CurrencyUnit, Token};

use super::ledger::LedgerEntry;
use super::payments::{Payments, Settlement};
use super::{PayError, Payment, TokenState, Unfinished, WalletNotice, classify};
use crate::budget::{Settled, normalize_mint_url};
use crate::faults;

impl Payments {
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

    pub(super) async fn settle_returned(
        &self,
        entry: &LedgerEntry,
        returned: Option<&str>,
    ) -> Result<Settlement, PayError> {
        let mut warning = None;
        let (credited, returned_face) = match returned.map(str::trim).filter(|t| !t.is_empty()) {
            None => (0, 0),
            Some(token) => match judge_returned(entry, &self.budget.get().accepted_mints, token) {
                Err(reason) => {
                    warning = Some(self.set_aside(entry, token, &reason)?);
                    (0, 0)
                }
                Ok(_) if self.is_the_paid_token(entry, token).await => {
                    if let Some(settlement) = self.settle_echoed(entry).await? {
                        return Ok(settlement);
                    }
                    // Spent at the mint: the provider redeemed it and sent nothing back; said so below.
                    warning = Some(self.set_aside(entry, token, VERY_TOKEN_SPENT)?);
                    (0, 0)
                }
                Ok(face) => {
                    // Stored before receiving: if the mint is down now, `reconcile` receives it later.
                    self.wallet.ledger().store_returned(&entry.id, token)?;
                    faults::hit("after-change-stored");
                    match self.receive_for(entry, token, face).await {
                        Ok(received) => received,
                        Err(e) if e.is_passing() => return Err(e),
                        Err(e) => {
                            warning = Some(self.set_aside(entry, token, &refusal(&e))?);
                            (0, 0)
                        }
                    }
                }
            },
        };
        faults::hit("after-returned-received");
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

    /// Whether `returned` holds the very proofs `entry` paid with (however the provider re-encoded them). `false`
    /// when that cannot be told now: [`Payments::receive_for`] asks again and refuses it then.
    async fn is_the_paid_token(&self, entry: &LedgerEntry, returned: &str) -> bool {
        let Some(paid) = &entry.token else { return false };
        match (self.wallet.proofs_key(returned).await, self.wallet.proofs_key(paid.expose()).await) {
            (Ok(returned), Ok(paid)) => returned == paid,
            _ => false,
        }
    }

    /// A provider sent back the very token it was paid as its "change" (review D5). Whether it redeemed it is the
    /// mint's to say, never a guess: unspent, it is taken back as a 402's token is, and the owner is told; partly
    /// spent or pending, it stays in flight, and `reconcile` takes back what is unspent once it has watched long
    /// enough. `None` when the mint says it is spent: the provider redeemed it and nothing came back.
    async fn settle_echoed(&self, entry: &LedgerEntry) -> Result<Option<Settlement>, PayError> {
        match self.wallet.token_state_of(entry).await? {
            TokenState::Spent => Ok(None),
            TokenState::Pending => Err(PayError::Unfinished(Unfinished::TakeBack { mint: entry.mint.clone() })),
            TokenState::Unspent => {
                let back = self.reclaim_entry(entry).await?;
                tracing::warn!(payment = %entry.id, provider = %entry.provider, "pay: the paid token came back unredeemed");
                let warning =
                    self.tell(WalletNotice::EchoedUnredeemed { provider: entry.provider.clone(), sats: back });
                Ok(Some(Settlement {
                    spent_sats: entry.amount_sats.saturating_sub(back),
                    crossed_80: false,
                    warning: Some(warning),
                }))
            }
        }
    }

    /// Receives a returned token worth `face` for `entry`, exactly once whatever happens around it: the token is
    /// claimed for this payment first (a token already claimed for another payment never counts twice), and when
    /// the mint says its proofs are spent, cdk's own record of an earlier receive of them (a crash or a second
    /// reconciler between receiving and settling) is what was credited. The very token that was paid is never
    /// change. Returns (credited, face).
    async fn receive_for(&self, entry: &LedgerEntry, token: &str, face: u64) -> Result<(u64, u64), PayError> {
        let key = self.wallet.proofs_key(token).await?;
        if let Some(paid) = &entry.token
            && self.wallet.proofs_key(paid.expose()).await? == key
        {
            return Err(PayError::ReturnedElsewhere("it is the very token that was paid".into()));
        }
        self.receive_claimed(entry, token, &key, face).await
    }

    /// Claims `token` (whose proofs' key is `key`) for `entry` and receives it, once: see [`Payments::receive_for`].
    async fn receive_claimed(
        &self,
        entry: &LedgerEntry,
        token: &str,
        key: &str,
        face: u64,
    ) -> Result<(u64, u64), PayError> {
        if let Some(other) = self.wallet.ledger().claim_returned(&entry.id, key)? {
            return Err(PayError::ReturnedElsewhere(other));
        }
        let _operation = self.locks.operation().await?;
        match self.wallet.receive_returned(token).await {
            Ok(received) => Ok(received),
            Err(e) => match self.wallet.earlier_receipt(token).await? {
                Some(credited) => {
                    tracing::info!(payment = %entry.id, credited, "pay: this token was received by an earlier try");
                    Ok((credited, face))
                }
                None => Err(e),
            },
        }
    }

    /// Keeps a returned token that does not count aside in the ledger and says so, for the owner.
    fn set_aside(&self, entry: &LedgerEntry, token: &str, reason: &str) -> Result<String, PayError> {
        self.wallet.ledger().set_aside(&entry.id, token, reason)?;
        tracing::warn!(payment = %entry.id, provider = %entry.provider, %reason, "pay: returned token set aside");
        Ok(self.tell(WalletNotice::SetAside { provider: entry.provider.clone(), reason: reason.to_owned() }))
    }

    /// The owner's choice, on a trusted surface, for a set-aside token: receive it after all (this contacts the mint
    /// it names, which may be one the provider chose). What it brings back lowers the payment's spend in the ledger,
    /// and what it brings beyond that spend is an inflow; the allowance keeps counting it, since the period's
    /// ceiling already held it. Returns (mint, credited sats).
    pub async fn receive_set_aside(&self, payment_id: &str) -> Result<(String, u64), PayError> {
        let entry = self.wallet.ledger().get(payment_id)?.ok_or_else(|| PayError::UnknownPayment(payment_id.into()))?;
        let token = entry.set_aside_token.clone().ok_or_else(|| PayError::UnknownPayment(payment_id.into()))?;
        if entry.state != super::PaymentState::Settled {
            return Err(PayError::Unfinished(Unfinished::NotSettled { payment: payment_id.to_owned() }));
        }
        if self.is_the_paid_token(&entry, token.expose()).await {
            // Spent by the provider (the mint said so before it was set aside); cdk's record of the swap that made
            // it would pass for an earlier receive of it (the explorer's long run found that double count).
            return Err(PayError::ReturnedElsewhere(VERY_TOKEN_SPENT.into()));
        }
        let (mint, _unit, face) = parse_returned(token.expose()).map_err(PayError::InvalidToken)?;
        let key = self.wallet.proofs_key(token.expose()).await?;
        if let Some(other) = self.wallet.ledger().claim_returned(&entry.id, &key)? {
            return Err(PayError::ReturnedElsewhere(other));
        }
        let credited = {
            let _operation = self.locks.operation().await?;
            match self.wallet.receive_returned(token.expose()).await {
                Ok((credited, _)) => credited,
                Err(e) => self.wallet.earlier_receipt(token.expose()).await?.ok_or(e)?,
            }
        };
        faults::hit("after-set-aside-received");
        if !self.wallet.ledger().credit_set_aside(&entry.id, &mint, face, credited)? {
            // Another call (a double click, the CLI beside the desktop) received and credited it first.
            return Err(PayError::UnknownPayment(payment_id.into()));
        }
        self.tell(WalletNotice::SetAsideReceived {
            provider: entry.provider.clone(),
            sats: credited,
            mint: mint.clone(),
        });
        Ok((mint, credited))
    }

    /// The owner's choice for a set-aside token: drop it. Nothing changes in the sums (it never counted), unless an
    /// earlier receive of it took it into the wallet and was cut off before the ledger credited it: then it is
    /// credited now instead (`Some(credited)`), since dropping it would leave sats in the wallet no sum counts.
    pub async fn discard_set_aside(&self, payment_id: &str) -> Result<Option<u64>, PayError> {
        let entry = self.wallet.ledger().get(payment_id)?.ok_or_else(|| PayError::UnknownPayment(payment_id.into()))?;
        if let Some(credited) = self.finish_set_aside_receive(&entry).await? {
            return Ok(Some(credited));
        }
        self.wallet.ledger().clear_set_aside(payment_id)?;
        Ok(None)
    }

    /// A set-aside token the wallet took in, with the ledger never told (a crash or a closed window between the two,
    /// found by the money explorer): credited now from cdk's record of that receive. `None` when it was not
    /// received. Only a mint the wallet already has is looked at, so no mint the provider chose is contacted.
    pub(super) async fn finish_set_aside_receive(&self, entry: &LedgerEntry) -> Result<Option<u64>, PayError> {
        let Some(token) = &entry.set_aside_token else { return Ok(None) };
        if self.is_the_paid_token(entry, token.expose()).await {
            return Ok(None);
        }
        let Ok((mint, _unit, face)) = parse_returned(token.expose()) else { return Ok(None) };
        let known = self
            .wallet
            .cdk_wallets()
            .await
            .iter()
            .any(|w| normalize_mint_url(&w.mint_url.to_string()) == normalize_mint_url(&mint));
        if !known {
            return Ok(None);
        }
        let Some(credited) = self.wallet.earlier_receipt(token.expose()).await? else { return Ok(None) };
        if !self.wallet.ledger().credit_set_aside(&entry.id, &mint, face, credited)? {
            return Ok(None);
        }
        tracing::info!(payment = %entry.id, credited, "pay: a set-aside token received earlier is credited now");
        self.tell(WalletNotice::SetAsideReceived { provider: entry.provider.clone(), sats: credited, mint });
        Ok(Some(credited))
    }

    /// The provider refused before redeeming (402): put the token back into the wallet and free the reservation.
    /// [`PayError::AlreadySpent`] when the provider had redeemed it after all: the payment stays open.
    pub async fn reclaim(&self, payment: &Payment) -> Result<(), PayError> {
        let entry = self.open_entry(&payment.id)?;
        self.reclaim_entry(&entry).await.map(|_| ())
    }

    /// Takes an open payment's token back: cdk revokes its send. A send this wallet already revoked (a crash or a
    /// second reconciler between the revoke and the ledger) counts as reclaimed, at what it brought back; so does
    /// a token this wallet already received itself. Only a token someone else redeemed is
    /// [`PayError::AlreadySpent`].
    pub(super) async fn reclaim_entry(&self, entry: &LedgerEntry) -> Result<u64, PayError> {
        let wallet = self.wallet.mint_wallet(&entry.mint).await?;
        let op = uuid::Uuid::parse_str(&entry.operation_id).map_err(|e| PayError::Store(e.to_string()))?;
        let operation = self.locks.operation().await?;
        let recovered = match wallet.revoke_send(op).await {
            Ok(amount) => amount.to_u64(),
            Err(e) => {
                drop(operation);
                match self.reclaimed_before(entry, op).await? {
                    Some(recovered) => recovered,
                    None if matches!(self.wallet.token_state_of(entry).await, Ok(TokenState::Spent)) => {
                        if !entry.spent_at_mint {
                            self.wallet.ledger().mark_spent_at_mint(&entry.id)?;
                        }
                        return Err(PayError::AlreadySpent);
                    }
                    // cdk no longer tracks this send (e.g. its record was closed): receive the token itself. It
                    // is the very token that was paid, and here that is the point (review F10).
                    None => match &entry.token {
                        Some(token) => {
                            let key = self.wallet.proofs_key(token.expose()).await?;
                            self.receive_claimed(entry, token.expose(), &key, entry.amount_sats).await?.0
                        }
                        None => return Err(classify(&entry.mint, e)),
                    },
                }
            }
        };
        faults::hit("after-reclaimed");
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

    /// What an earlier reclaim of `entry` brought back, if this wallet already took the token back: a revoke of
    /// its send (the face value less the mint's input fee), or a receive of the token itself.
    async fn reclaimed_before(&self, entry: &LedgerEntry, op: uuid::Uuid) -> Result<Option<u64>, PayError> {
        let Some(token) = &entry.token else { return Ok(None) };
        if self.wallet.revoked_send(&entry.mint, op).await? {
            let fee = self.wallet.input_fee(token.expose()).await?;
            tracing::info!(payment = %entry.id, "pay: this token was taken back by an earlier try");
            return Ok(Some(entry.amount_sats.saturating_sub(fee)));
        }
        self.wallet.earlier_receipt(token.expose()).await
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
}

/// Whether a returned token counts, and its face value if it does: a sat token from the mint that was paid or from
/// another mint the owner accepts, worth no more than what was paid. The reason is for the owner.
fn judge_returned(entry: &LedgerEntry, accepted_mints: &[String], token: &str) -> Result<u64, String> {
    let parsed = parse_returned(token)?;
    let mut counting = vec![entry.mint.as_str()];
    counting.extend(accepted_mints.iter().map(String::as_str));
    returned_value_from(&counting, &entry.mint, entry.amount_sats, &parsed.0, &parsed.1, parsed.2)
}

/// A returned token's mint, unit and face value, as the wallet reads them.
fn parse_returned(token: &str) -> Result<(String, CurrencyUnit, u64), String> {
    let parsed = Token::from_str(token.trim()).map_err(|_| "it is not a Cashu token".to_owned())?;
    let unit = parsed.unit().unwrap_or_default();
    let mint = parsed.mint_url().map_err(|_| "it names no single mint".to_owned())?.to_string();
    let face = parsed.value().map_err(|_| "its amount cannot be read".to_owned())?.to_u64();
    Ok((mint, unit, face))
}

/// [`judge_returned`] against a payment of `paid_sats` from `paid_mint`: parses `token` as the wallet sees it.
#[cfg(test)]
pub(crate) fn judge_returned_token(paid_mint: &str, paid_sats: u64, token: &str) -> Result<u64, String> {
    let (mint, unit, face) = parse_returned(token)?;
    returned_value(paid_mint, paid_sats, &mint, &unit, face)
}

/// The rule behind [`judge_returned`], on plain values, when only the paid mint counts.
#[cfg(test)]
pub(crate) fn returned_value(
    paid_mint: &str,
    paid_sats: u64,
    mint: &str,
    unit: &CurrencyUnit,
    face: u64,
) -> Result<u64, String> {
    returned_value_from(&[paid_mint], paid_mint, paid_sats, mint, unit, face)
}

/// What a returned token of `face` in `unit` from `mint` counts for, against a payment of `paid_sats` from
/// `paid_mint`, when change from any of `counting_mints` counts.
fn returned_value_from(
    counting_mints: &[&str],
    paid_mint: &str,
    paid_sats: u64,
    mint: &str,
    unit: &CurrencyUnit,
    face: u64,
) -> Result<u64, String> {
    if *unit != CurrencyUnit::Sat {
        return Err(format!("it is in {unit}, not in the sats that were paid"));
    }
    let from = normalize_mint_url(mint);
    if from.is_none() || !counting_mints.iter().any(|m| normalize_mint_url(m) == from) {
        let shown: String = mint.chars().take(80).collect();
        return Err(format!(
            "it is from the mint {shown}, which is neither {paid_mint}, the mint that was paid, nor one the owner \
             accepts"
        ));
    }
    if face > paid_sats {
        return Err(format!("it claims {face} sats, more than the {paid_sats} sats that were paid"));
    }
    Ok(face)
}

/// Why the very token that was paid, sent back as change, does not count: the mint said it is spent.
const VERY_TOKEN_SPENT: &str = "it is the very token that was paid, already spent by the provider";

/// Why a returned token that could not be received does not count, for the owner.
fn refusal(error: &PayError) -> String {
    match error {
        PayError::ReturnedElsewhere(why) if why.starts_with("it is the very token") => VERY_TOKEN_SPENT.into(),
        PayError::ReturnedElsewhere(_) => error.to_string(),
        PayError::AlreadySpent => "the mint says it was already spent, and not by this wallet".into(),
        other => format!("the mint refused it ({other})"),
    }
}
