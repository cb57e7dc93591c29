//! Sending a token out, for another wallet: made by cdk, recorded before it is shown, shown once; taken back
//! (cdk's revoke) while nobody has claimed it, and marked claimed by `reconcile` once the mint says it is spent.

use cdk::wallet::SendOptions;

use super::ledger::{Outflow, OutflowKind, PaymentState};
use super::payments::{ParkOutflowOnDrop, Payments};
use super::reconcile::SagaToken;
use super::{PayError, TokenState, Unfinished, WalletNotice, classify};
use crate::{Secret, faults};

/// A token made for another wallet. The token is shown to the owner once; the ledger keeps it only to take it back.
#[derive(Debug, Clone)]
pub struct SentToken {
    pub id: String,
    pub token: Secret<String>,
    pub mint: String,
    /// What the other wallet receives, after it pays the mint's input fee (which the token includes).
    pub amount_sats: u64,
    /// The token's face value.
    pub face_sats: u64,
    /// What the mint kept to make it (the swap), if it had to.
    pub fee_sats: u64,
}

/// What taking a token back came to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TakenBack {
    /// Back in the wallet: `credited` of its face value (the mint kept its input fee).
    Returned { credited_sats: u64 },
    /// The other wallet had claimed it already: it counts as sent.
    Claimed { sats: u64 },
    /// Part of it had been claimed (`claimed_sats` of its face count as sent); the unclaimed rest came back,
    /// `credited_sats` of it after the mint's input fee.
    ClaimedInPart { claimed_sats: u64, credited_sats: u64 },
    /// Part of it had been claimed (`claimed_sats`); the unclaimed rest, `rest_sats`, is worth no more than the
    /// mint's fee to take it back, so it stays with the token and counts as that fee.
    ClaimedRestTooSmall { claimed_sats: u64, rest_sats: u64 },
}

impl Payments {
    /// Makes a token worth `amount_sats` from `mint`'s balance, for another wallet. It is in the ledger (in
    /// flight) before it is returned; if that write fails, the token is taken back and never shown.
    pub async fn send_token(&self, mint: &str, amount_sats: u64) -> Result<SentToken, PayError> {
        if amount_sats == 0 {
            return Err(PayError::InvalidToken("a token must be worth at least 1 sat".into()));
        }
        let _sending = self.sends.read().await;
        let _operation = self.locks.operation().await?;
        let wallet = self.wallet.mint_wallet(mint).await?;
        let mint = wallet.mint_url.to_string();
        let options = SendOptions { include_fee: true, ..SendOptions::default() };
        let prepared = {
            let _choosing = self.choosing.lock().await;
            wallet.prepare_send(amount_sats.into(), options).await.map_err(|e| classify(&mint, e))?
        };
        let swap_fee = prepared.swap_fee().to_u64();
        let face = amount_sats + prepared.send_fee().to_u64();
        let id = hex::encode(rand::random::<[u8; 12]>());
        let row = Outflow {
            id: id.clone(),
            kind: OutflowKind::Token,
            mint: mint.clone(),
            amount_sats: face,
            operation_id: prepared.operation_id().to_string(),
            quote_id: None,
            invoice: None,
            token: None,
            state: PaymentState::Pending,
            withdrawn_sats: 0,
            fees_sats: swap_fee,
            session: self.budget.session().to_owned(),
            parked: false,
            created_ms: 0,
            outcome: None,
            input_ys: None,
            target_sats: 0,
        };
        if let Err(e) = self.wallet.ledger().insert_outflow(&row) {
            let _ = prepared.cancel().await;
            return Err(e);
        }
        let _parked_if_cut_off = ParkOutflowOnDrop { wallet: self.wallet.clone(), id: id.clone() };
        faults::hit("after-send-row");
        let token = match prepared.confirm(None).await {
            Ok(token) => token,
            Err(e) if e.is_definitive_failure() => {
                let _ = self.wallet.ledger().cancel_outflow(&id, "refused by the mint");
                return Err(classify(&mint, e));
            }
            Err(e) => {
                let _ = self.wallet.ledger().park_outflow(&id);
                return Err(PayError::Unfinished(Unfinished::SendToken(Box::new(classify(&mint, e)))));
            }
        };
        let face = token.value().map_err(|e| PayError::InvalidToken(e.to_string()))?.to_u64();
        let token = Secret::new(token.to_string());
        if let Err(e) = self.wallet.ledger().outflow_in_flight(&id, Some(&token), face) {
            // Never shown unrecorded: take it back, or leave the pending row and cdk's record to reconcile.
            if let Ok(op) = uuid::Uuid::parse_str(&row.operation_id)
                && wallet.revoke_send(op).await.is_ok()
            {
                let _ = self.wallet.ledger().cancel_outflow(&id, "not recorded");
                return Err(e);
            }
            let _ = self.wallet.ledger().park_outflow(&id);
            return Err(PayError::Unfinished(Unfinished::SendLedger(Box::new(e))));
        }
        self.wallet.ledger().park_outflow(&id)?;
        faults::hit("after-send-recorded");
        tracing::info!(token = %id, mint = %mint, sats = amount_sats, "pay: token made for another wallet");
        Ok(SentToken { id, token, mint, amount_sats, face_sats: face, fee_sats: swap_fee })
    }

    /// Takes back the token `id` sent out, if nobody has claimed it yet.
    pub async fn take_back(&self, id: &str) -> Result<TakenBack, PayError> {
        let row = match self.wallet.ledger().outflow(id)? {
            Some(row) if row.kind == OutflowKind::Token && row.state == PaymentState::InFlight => row,
            Some(row) if row.kind == OutflowKind::Token => {
                return Err(PayError::Moved { id: id.to_owned(), state: row.outcome.unwrap_or_default() });
            }
            _ => return Err(PayError::UnknownPayment(id.to_owned())),
        };
        let wallet = self.wallet.mint_wallet(&row.mint).await?;
        let op = uuid::Uuid::parse_str(&row.operation_id).map_err(|e| PayError::Store(e.to_string()))?;
        let _sending = self.sends.read().await;
        let operation = self.locks.operation().await?;
        match wallet.revoke_send(op).await {
            Ok(credited) => {
                faults::hit("after-take-back");
                let credited = credited.to_u64();
                let fee = row.fees_sats + row.amount_sats.saturating_sub(credited);
                self.wallet.ledger().settle_outflow(id, 0, fee, "taken back")?;
                tracing::info!(token = %id, sats = credited, "pay: a token sent out was taken back");
                Ok(TakenBack::Returned { credited_sats: credited })
            }
            Err(e) => {
                drop(operation);
                if self.settle_sent(&row).await?.is_some() {
                    return match self.wallet.ledger().outflow(id)? {
                        Some(done) if done.withdrawn_sats > 0 => Ok(TakenBack::Claimed { sats: done.withdrawn_sats }),
                        Some(done) => {
                            Ok(TakenBack::Returned { credited_sats: done.amount_sats.saturating_sub(done.fees_sats) })
                        }
                        None => Err(PayError::UnknownPayment(id.to_owned())),
                    };
                }
                // cdk's revoke gives up as soon as any proof is spent and leaves the rest reserved (review F4):
                // when the other wallet claimed part of it, the owner's take-back takes back the unclaimed rest.
                let Some(token) = &row.token else { return Err(classify(&row.mint, e)) };
                if !matches!(self.wallet.token_state(token).await?, TokenState::Pending) {
                    return Err(classify(&row.mint, e));
                }
                let (unclaimed_face, credited) = {
                    let _operation = self.locks.operation().await?;
                    self.wallet.take_back_unspent(token.expose()).await?
                };
                faults::hit("after-take-back");
                self.settle_taken_back_in_part(&row, unclaimed_face, credited)?;
                let claimed_sats = row.amount_sats.saturating_sub(unclaimed_face);
                if credited == 0 && unclaimed_face > 0 {
                    return Ok(TakenBack::ClaimedRestTooSmall { claimed_sats, rest_sats: unclaimed_face });
                }
                Ok(TakenBack::ClaimedInPart { claimed_sats, credited_sats: credited })
            }
        }
    }

    /// Settles a token sent out of which `unclaimed_face` was taken back (`credited` of it reaching the wallet): the
    /// rest was claimed and counts as sent.
    fn settle_taken_back_in_part(&self, row: &Outflow, unclaimed_face: u64, credited: u64) -> Result<(), PayError> {
        let claimed = row.amount_sats.saturating_sub(unclaimed_face);
        let fees = row.fees_sats + unclaimed_face.saturating_sub(credited);
        tracing::info!(token = %row.id, claimed, credited, "pay: a token sent out was claimed in part; the rest is back");
        self.wallet.ledger().settle_outflow(&row.id, claimed, fees, "claimed in part")
    }

    /// Settles a token sent out whose fate the mint now knows: claimed (spent by someone else) or taken back by
    /// this wallet (a revoke whose ledger write was lost). `Ok(None)` while it is still out, unclaimed.
    pub(super) async fn settle_sent(&self, row: &Outflow) -> Result<Option<String>, PayError> {
        let token = match &row.token {
            Some(token) => token.clone(),
            None => match self.wallet.saga_token(&row.mint, &row.operation_id).await {
                SagaToken::Token(token) => {
                    self.wallet.ledger().outflow_in_flight(&row.id, Some(&token), row.amount_sats)?;
                    token
                }
                SagaToken::Gone => {
                    self.wallet.ledger().cancel_outflow(&row.id, "never made")?;
                    return Ok(Some(
                        self.tell(WalletNotice::TokenNeverMade { sats: row.amount_sats, mint: row.mint.clone() }),
                    ));
                }
                SagaToken::Unfinished => return Ok(None),
            },
        };
        if let Some((unclaimed_face, credited)) = self.wallet.earlier_take_back(token.expose()).await? {
            // The owner's take-back of the unclaimed part was stopped before the ledger heard of it.
            self.settle_taken_back_in_part(row, unclaimed_face, credited)?;
            let claimed = row.amount_sats.saturating_sub(unclaimed_face);
            return Ok(Some(self.tell(WalletNotice::TokenClaimed {
                sats: claimed,
                mint: row.mint.clone(),
                made_ms: row.created_ms,
            })));
        }
        let op = uuid::Uuid::parse_str(&row.operation_id).map_err(|e| PayError::Store(e.to_string()))?;
        if self.wallet.revoked_send(&row.mint, op).await? {
            let fee = self.wallet.input_fee(token.expose()).await?;
            self.wallet.ledger().settle_outflow(&row.id, 0, row.fees_sats + fee, "taken back")?;
            // Not kept: the owner took it back themselves; said now, in their language.
            let notice = WalletNotice::TokenTakenBack { sats: row.amount_sats, mint: row.mint.clone() };
            return Ok(Some(notice.text(self.locale())));
        }
        match self.wallet.token_state(&token).await? {
            TokenState::Spent => {
                self.wallet.ledger().settle_outflow(&row.id, row.amount_sats, row.fees_sats, "claimed")?;
                Ok(Some(self.tell(WalletNotice::TokenClaimed {
                    sats: row.amount_sats,
                    mint: row.mint.clone(),
                    made_ms: row.created_ms,
                })))
            }
            TokenState::Unspent | TokenState::Pending => Ok(None),
        }
    }
}
