//! Withdrawing to Lightning (NUT-05 melt through cdk): a quote the owner approves, the melt recorded before the
//! proofs leave, and `reconcile` settling a melt whose payment was still pending (a hold invoice) when the process
//! that made it stopped.
//!
//! The melt never swaps first (cdk's `skip_swap`): every proof it chose goes to the mint, and what the Lightning
//! payment did not use comes back as change. So the ledger knows the exact face value that left the balance before
//! anything is sent, and a failed melt returns all of it with no fee.

use std::collections::HashMap;
use std::future::IntoFuture;
use std::str::FromStr;

use cdk::nuts::{MeltOptions, PaymentMethod};
use cdk::wallet::{MeltConfirmOptions, MeltOutcome};

use super::ledger::{Outflow, OutflowKind, PaymentState};
use super::payments::{ParkOutflowOnDrop, Payments};
use super::{PayError, PaymentProof, Unfinished, WalletNotice, classify};
use crate::faults;
use crate::i18n::Locale;
use cdk::nuts::ProofsMethods;

/// The longest invoice accepted: BOLT11 invoices with many route hints are long, but not this long.
const MAX_INVOICE_CHARS: usize = 4_000;

/// What a withdrawal costs, shown to the owner before they approve it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WithdrawalQuote {
    pub quote_id: String,
    pub mint: String,
    pub invoice: String,
    /// What the invoice receives.
    pub amount_sats: u64,
    /// What the mint holds back for the Lightning fee; what it does not use comes back.
    pub fee_reserve_sats: u64,
    /// What the mint keeps for taking in the proofs (its input fee).
    pub input_fee_sats: u64,
    /// The most the withdrawal can take from the wallet: amount, fee reserve and input fee.
    pub most_it_costs_sats: u64,
    /// When the mint's quote ends (Unix seconds).
    pub expires_at_s: u64,
}

/// How a withdrawal ended for the call that made it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WithdrawalOutcome {
    /// The invoice is paid: `fee_sats` is what it cost beyond the amount (the rest of the reserve came back).
    Paid { amount_sats: u64, fee_sats: u64 },
    /// The mint is still paying (a hold invoice, a slow route): kept in flight; `reconcile` settles it, paid or
    /// failed, and says so.
    Pending,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Withdrawal {
    /// The ledger's id for it.
    pub id: String,
    pub outcome: WithdrawalOutcome,
}

/// The invoice as pasted: trimmed, `lightning:` dropped, one line, no longer than any real invoice.
pub fn clean_invoice(pasted: &str) -> Result<String, PayError> {
    let trimmed = pasted.trim();
    let without_scheme =
        trimmed.strip_prefix("lightning:").or_else(|| trimmed.strip_prefix("LIGHTNING:")).unwrap_or(trimmed).trim();
    if without_scheme.is_empty() {
        return Err(PayError::InvalidInvoice("nothing was pasted".into()));
    }
    if without_scheme.chars().count() > MAX_INVOICE_CHARS || without_scheme.chars().any(char::is_whitespace) {
        return Err(PayError::InvalidInvoice("that is not one Lightning invoice".into()));
    }
    let invoice = cdk::Bolt11Invoice::from_str(without_scheme)
        .map_err(|e| PayError::InvalidInvoice(format!("not a BOLT11 invoice ({e})")))?;
    if invoice.is_expired() {
        return Err(PayError::InvalidInvoice("the invoice has expired; ask for a new one".into()));
    }
    Ok(without_scheme.to_owned())
}

impl Payments {
    /// Asks `mint` (or, without one, the mint holding the most) what paying `invoice` costs. With `everything`,
    /// the invoice must have no amount, and the amount is the most the mint's balance covers after its fees.
    /// Nothing is reserved: [`Payments::withdraw`] checks the cost again and refuses if it grew.
    pub async fn quote_withdrawal(
        &self,
        invoice: &str,
        mint: Option<&str>,
        everything: bool,
    ) -> Result<WithdrawalQuote, PayError> {
        let invoice = clean_invoice(invoice)?;
        let parsed = cdk::Bolt11Invoice::from_str(&invoice).map_err(|e| PayError::InvalidInvoice(e.to_string()))?;
        let invoice_sats = parsed.amount_milli_satoshis().map(|msat| msat / 1000);
        if everything && invoice_sats.is_some() {
            return Err(PayError::InvalidInvoice(
                "this invoice names an amount; to withdraw everything, make an invoice without an amount".into(),
            ));
        }
        if !everything && invoice_sats.is_none() {
            return Err(PayError::InvalidInvoice(
                "this invoice names no amount; make one with the amount to withdraw, or withdraw everything".into(),
            ));
        }
        let balances = self.wallet.balances().await?;
        let mint = match mint {
            Some(mint) => {
                let wanted = crate::budget::normalize_mint_url(mint);
                balances
                    .iter()
                    .find(|(m, _)| crate::budget::normalize_mint_url(m) == wanted)
                    .map(|(m, _)| m.clone())
                    .ok_or_else(|| PayError::InvalidMint(format!("{mint}: the wallet holds nothing there")))?
            }
            None => balances
                .iter()
                .filter(|(_, sats)| *sats > 0)
                .max_by_key(|(_, sats)| *sats)
                .map(|(m, _)| m.clone())
                .ok_or(PayError::InsufficientFunds { needed: invoice_sats.unwrap_or(1) })?,
        };
        let held = balances.iter().find(|(m, _)| *m == mint).map(|(_, s)| *s).unwrap_or(0);
        let wallet = self.wallet.mint_wallet(&mint).await?;
        let mut amount = invoice_sats.unwrap_or(held);
        // With no amount in the invoice, the amount is lowered until amount, reserve and input fee fit the balance
        // (the reserve and the fee shrink with the amount, so a few rounds settle it).
        for _ in 0..6 {
            if amount == 0 {
                return Err(PayError::InsufficientFunds { needed: 1 });
            }
            let options = everything.then(|| MeltOptions::new_amountless(amount * 1000));
            let quote = wallet
                .melt_quote(PaymentMethod::BOLT11, &invoice, options, None)
                .await
                .map_err(|e| classify(&mint, e))?;
            // Preparing reserves proofs for a moment (to learn the input fee): it is a wallet operation like any
            // other, so cdk's recovery in another process never runs in the middle of it.
            let prepared = {
                let _sending = self.sends.read().await;
                let _operation = self.locks.operation().await?;
                let _choosing = self.choosing.lock().await;
                match wallet.prepare_melt(&quote.id, HashMap::new()).await {
                    Ok(prepared) => {
                        let fee = prepared.input_fee_without_swap().to_u64();
                        let _ = prepared.cancel().await;
                        Ok(fee)
                    }
                    Err(e) => Err(e),
                }
            };
            let (input_fee, enough) = match prepared {
                Ok(fee) => (fee, true),
                Err(cdk::Error::InsufficientFunds) => (0, false),
                Err(e) => return Err(classify(&mint, e)),
            };
            let reserve = quote.fee_reserve.to_u64();
            let most = quote.amount.to_u64() + reserve + input_fee;
            if enough && most <= held {
                return Ok(WithdrawalQuote {
                    quote_id: quote.id,
                    mint: mint.clone(),
                    invoice: invoice.clone(),
                    amount_sats: quote.amount.to_u64(),
                    fee_reserve_sats: reserve,
                    input_fee_sats: input_fee,
                    most_it_costs_sats: most,
                    expires_at_s: quote.expiry,
                });
            }
            if !everything {
                let fits = held.saturating_sub(reserve + input_fee.max(1));
                return Err(PayError::InvalidInvoice(format!(
                    "paying it takes up to {} sats with the mint's fees ({} reserve, {} input fee), and {mint} holds \
                     {held}; an invoice for at most {fits} sats fits",
                    quote.amount.to_u64() + reserve + input_fee,
                    reserve,
                    input_fee
                )));
            }
            // The reserve grows with the amount: scale down to what the balance covers, one sat more each round.
            let scaled = u64::try_from(u128::from(amount) * u128::from(held) / u128::from(most.max(1))).unwrap_or(0);
            amount = scaled.min(amount.saturating_sub(1));
        }
        Err(PayError::InsufficientFunds { needed: amount })
    }

    /// Pays the invoice of an approved `quote`. The melt is in the ledger before any proof leaves; if the cost is
    /// now above what the owner approved, nothing is paid. A melt the mint is still paying is kept in flight and
    /// returned as [`WithdrawalOutcome::Pending`].
    pub async fn withdraw(&self, quote: &WithdrawalQuote) -> Result<Withdrawal, PayError> {
        let _sending = self.sends.read().await;
        let _operation = self.locks.operation().await?;
        let mint = quote.mint.clone();
        let wallet = self.wallet.mint_wallet(&mint).await?;
        let prepared = {
            let _choosing = self.choosing.lock().await;
            wallet.prepare_melt(&quote.quote_id, HashMap::new()).await.map_err(|e| classify(&mint, e))?
        };
        let input_fee = prepared.input_fee_without_swap().to_u64();
        let most = prepared.amount().to_u64() + prepared.quote().fee_reserve.to_u64() + input_fee;
        if most > quote.most_it_costs_sats || prepared.amount().to_u64() != quote.amount_sats {
            let _ = prepared.cancel().await;
            return Err(PayError::InvalidInvoice(format!(
                "the withdrawal would now cost up to {most} sats, more than the {} approved; nothing was paid. Ask \
                 for a new quote",
                quote.most_it_costs_sats
            )));
        }
        let inputs: cdk::nuts::Proofs =
            prepared.proofs().iter().chain(prepared.proofs_to_swap().iter()).cloned().collect();
        let face = inputs.total_amount().map(|a| a.to_u64()).unwrap_or(0);
        let input_ys = inputs
            .ys()
            .map_err(|e| PayError::Store(e.to_string()))?
            .iter()
            .map(|y| y.to_hex())
            .collect::<Vec<_>>()
            .join(",");
        let id = hex::encode(rand::random::<[u8; 12]>());
        let row = Outflow {
            id: id.clone(),
            kind: OutflowKind::Withdrawal,
            mint: mint.clone(),
            amount_sats: face,
            operation_id: prepared.operation_id().to_string(),
            quote_id: Some(quote.quote_id.clone()),
            invoice: Some(quote.invoice.clone()),
            token: None,
            state: PaymentState::Pending,
            withdrawn_sats: 0,
            fees_sats: 0,
            session: self.budget.session().to_owned(),
            parked: false,
            created_ms: 0,
            outcome: None,
            input_ys: Some(input_ys),
            target_sats: quote.amount_sats,
        };
        if let Err(e) = self.wallet.ledger().insert_outflow(&row) {
            let _ = prepared.cancel().await;
            return Err(e);
        }
        let _parked_if_cut_off = ParkOutflowOnDrop { wallet: self.wallet.clone(), id: id.clone() };
        faults::hit("after-withdrawal-row");
        tracing::info!(withdrawal = %id, mint = %mint, sats = quote.amount_sats, "pay: withdrawing to Lightning");
        let outcome = match prepared.confirm_prefer_async_with_options(MeltConfirmOptions::skip_swap()).await {
            Ok(MeltOutcome::Paid(finalized)) => Ok(Some(finalized)),
            // Most payments end in seconds: the owner hears the outcome now, and only a slow one stays in flight.
            Ok(MeltOutcome::Pending(pending)) => {
                match tokio::time::timeout(self.policy.withdrawal_wait, pending.into_future()).await {
                    Ok(done) => done.map(Some),
                    Err(_) => Ok(None),
                }
            }
            Err(e) => Err(e),
        };
        match outcome {
            Ok(Some(finalized)) if finalized.state() == cdk::nuts::MeltQuoteState::Paid => {
                let change = finalized.change().map(|c| c.total_amount().map(|a| a.to_u64()).unwrap_or(0));
                let amount = finalized.amount().to_u64();
                let fee = face.saturating_sub(amount + change.unwrap_or(0));
                // The melt was paid: a ledger that cannot say so now (busy, full) must leave the row to reconcile,
                // never under this live session where reconcile skips it (review F15).
                self.wallet
                    .ledger()
                    .settle_outflow(&id, amount, fee, "paid")
                    .map_err(|e| self.park_after_melt(&id, e))?;
                tracing::info!(withdrawal = %id, sats = amount, fee, "pay: withdrawal paid");
                Ok(Withdrawal { id, outcome: WithdrawalOutcome::Paid { amount_sats: amount, fee_sats: fee } })
            }
            Ok(_) => {
                faults::hit("after-withdrawal-pending");
                self.wallet.ledger().outflow_in_flight(&id, None, face).map_err(|e| self.park_after_melt(&id, e))?;
                self.wallet.ledger().park_outflow(&id)?;
                tracing::info!(withdrawal = %id, "pay: the mint is still paying; kept in flight for reconcile");
                Ok(Withdrawal { id, outcome: WithdrawalOutcome::Pending })
            }
            Err(e) => {
                // cdk ran its recovery before answering: the melt's record says whether the proofs came back.
                let settled = self.settle_withdrawal(&row).await.ok().flatten().is_some();
                match self.wallet.ledger().outflow(&id)? {
                    Some(done) if settled && done.state == PaymentState::Settled => Ok(Withdrawal {
                        id,
                        outcome: WithdrawalOutcome::Paid { amount_sats: done.withdrawn_sats, fee_sats: done.fees_sats },
                    }),
                    Some(_) if settled => Err(PayError::WithdrawalRefused(Box::new(classify(&mint, e)))),
                    _ => {
                        let _ = self.wallet.ledger().park_outflow(&id);
                        Err(PayError::Unfinished(Unfinished::Withdrawal(Box::new(classify(&mint, e)))))
                    }
                }
            }
        }
    }

    /// A withdrawal whose melt was sent could not be written to the ledger: it is parked for reconcile, which
    /// settles it from cdk's record and the mint, and the error says that nothing is lost.
    fn park_after_melt(&self, id: &str, error: PayError) -> PayError {
        if let Err(e) = self.wallet.ledger().park_outflow(id) {
            tracing::error!(withdrawal = %id, error = %e, "pay: could not park a withdrawal whose melt was sent");
        }
        PayError::Unfinished(Unfinished::Withdrawal(Box::new(error)))
    }

    /// Settles a withdrawal from cdk's record of its melt, after asking the mint (which lets cdk finish the melt or
    /// put the proofs back). `Ok(Some(notice))` when it ended, `Ok(None)` while the mint is still paying.
    pub(super) async fn settle_withdrawal(&self, row: &Outflow) -> Result<Option<String>, PayError> {
        use cdk_common::wallet::{TransactionDirection, TransactionStatus};
        let wallet = self.wallet.mint_wallet(&row.mint).await?;
        let op = uuid::Uuid::parse_str(&row.operation_id).map_err(|e| PayError::Store(e.to_string()))?;
        let mut quote_state = None;
        if let Some(quote) = &row.quote_id {
            match wallet.check_melt_quote_status(quote).await {
                Ok(quote) => quote_state = Some(quote.state),
                Err(cdk::Error::UnknownQuote) => {}
                Err(e) => {
                    // No answer: whatever cdk did with the proofs after the mint's error, they stay out of reach.
                    self.wallet.set_inputs(row, &[cdk::nuts::State::Unspent], cdk::nuts::State::Pending).await?;
                    return Err(classify(&row.mint, e));
                }
            }
        }
        let outgoing = wallet
            .list_transactions(Some(TransactionDirection::Outgoing))
            .await
            .map_err(|e| PayError::Store(e.to_string()))?;
        let record = outgoing.iter().find(|tx| tx.saga_id == Some(op));
        let saga = wallet.localstore.get_saga(&op).await.map_err(|e| PayError::Store(e.to_string()))?;
        let sats = row.amount_sats;
        let notice = match record.map(|tx| tx.status) {
            Some(TransactionStatus::Completed) => {
                let tx = record.expect("a record");
                let (amount, fee) = (tx.amount.to_u64(), tx.fee.to_u64());
                self.wallet.ledger().settle_outflow(&row.id, amount, fee, "paid")?;
                let proof = proof_of_payment(row.invoice.as_deref(), tx.payment_proof.as_deref());
                WalletNotice::WithdrawalPaid { sats: amount, mint: row.mint.clone(), fee, proof }
            }
            // Cut off before the mint was known to have the melt (the row never went in flight), the mint never
            // paid the invoice, and cdk holds nothing for it (its recovery put the inputs back and left its record
            // pending): nothing left the wallet for it. Its inputs may be spent since, by this wallet, so they
            // cannot tell (found by the money explorer's sweep). A melt once in flight is left to its inputs: a mint
            // may lose track of a melt it is finishing (nutshell 0.20.2).
            _ if row.state == PaymentState::Pending
                && saga.is_none()
                && quote_state == Some(cdk::nuts::MeltQuoteState::Unpaid) =>
            {
                self.wallet.set_inputs(row, &[cdk::nuts::State::Pending], cdk::nuts::State::Unspent).await?;
                self.wallet.ledger().cancel_outflow(&row.id, "failed")?;
                WalletNotice::WithdrawalFailed { sats, mint: row.mint.clone() }
            }
            // cdk gave up on it (or never sent it): only the mint's word on the proofs says they are back.
            Some(TransactionStatus::Failed) | None if saga.is_none() || record.is_some() => {
                match self.wallet.melt_inputs_state(row).await? {
                    InputsAtMint::Unspent => {
                        self.wallet.set_inputs(row, &[cdk::nuts::State::Pending], cdk::nuts::State::Unspent).await?;
                        self.wallet.ledger().cancel_outflow(&row.id, "failed")?;
                        WalletNotice::WithdrawalFailed { sats, mint: row.mint.clone() }
                    }
                    InputsAtMint::Pending => {
                        self.wallet.set_inputs(row, &[cdk::nuts::State::Unspent], cdk::nuts::State::Pending).await?;
                        return Ok(None);
                    }
                    InputsAtMint::Spent => {
                        // The mint took the proofs: the invoice was paid, whatever cdk concluded. Its change (if
                        // any) did not reach the wallet; it counts as the mint's fee.
                        let amount = row.target_sats.min(sats);
                        let fee = sats - amount;
                        let held = [cdk::nuts::State::Unspent, cdk::nuts::State::Pending, cdk::nuts::State::Reserved];
                        self.wallet.set_inputs(row, &held, cdk::nuts::State::Spent).await?;
                        self.wallet.ledger().settle_outflow(&row.id, amount, fee, "paid")?;
                        WalletNotice::WithdrawalTaken { sats: amount, mint: row.mint.clone(), kept: fee }
                    }
                }
            }
            _ => {
                // Still being paid: the proofs are the mint's for now, never the wallet's to spend again (cdk may
                // have put them back after an error of the mint's).
                self.wallet.set_inputs(row, &[cdk::nuts::State::Unspent], cdk::nuts::State::Pending).await?;
                return Ok(None);
            }
        };
        tracing::info!(withdrawal = %row.id, "pay: {}", notice.text(Locale::En));
        Ok(Some(self.tell(notice)))
    }
}

/// What the owner is told of the mint's proof of payment: a preimage is checked against the invoice's payment hash,
/// since a mint may say "paid" without having paid.
fn proof_of_payment(invoice: Option<&str>, preimage: Option<&str>) -> PaymentProof {
    use sha2::Digest;
    let hash = invoice.and_then(|i| cdk::Bolt11Invoice::from_str(i).ok()).map(|i| i.payment_hash().to_string());
    let preimage = preimage.filter(|p| !p.is_empty()).and_then(|p| hex::decode(p).ok());
    match (hash, preimage) {
        (Some(hash), Some(preimage)) if hex::encode(sha2::Sha256::digest(&preimage)) == hash => PaymentProof::Matches,
        (_, Some(_)) => PaymentProof::DoesNotMatch,
        _ => PaymentProof::None,
    }
}

/// What the mint says of a withdrawal's input proofs (NUT-07).
enum InputsAtMint {
    Unspent,
    Pending,
    Spent,
}

impl super::Wallet {
    /// Asks the mint about the proofs a withdrawal gave it. Without recorded proofs (a row of an older version),
    /// cdk's verdict stands.
    async fn melt_inputs_state(&self, row: &Outflow) -> Result<InputsAtMint, PayError> {
        let Some(ys) = row.input_ys.as_deref().filter(|ys| !ys.is_empty()) else {
            return Ok(InputsAtMint::Unspent);
        };
        let ys = ys
            .split(',')
            .map(cdk::nuts::PublicKey::from_hex)
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| PayError::Store(e.to_string()))?;
        let states = self.check_states_at(&row.mint, ys).await?;
        Ok(if states.iter().all(|s| *s == cdk::nuts::State::Unspent) {
            InputsAtMint::Unspent
        } else if states.iter().all(|s| *s == cdk::nuts::State::Spent) {
            InputsAtMint::Spent
        } else {
            InputsAtMint::Pending
        })
    }

    /// Moves a withdrawal's input proofs that the wallet holds in one of the states `from` to `to`: what the mint
    /// said of them decides whether the wallet may spend them (unspent), must wait (pending) or lost them (spent).
    async fn set_inputs(&self, row: &Outflow, from: &[cdk::nuts::State], to: cdk::nuts::State) -> Result<(), PayError> {
        let Some(ys) = row.input_ys.as_deref().filter(|ys| !ys.is_empty()) else { return Ok(()) };
        let ys = ys
            .split(',')
            .map(cdk::nuts::PublicKey::from_hex)
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| PayError::Store(e.to_string()))?;
        let wallet = self.mint_wallet(&row.mint).await?;
        let held = wallet.localstore.get_proofs_by_ys(ys).await.map_err(|e| PayError::Store(e.to_string()))?;
        let moving: Vec<_> = held.iter().filter(|info| from.contains(&info.state)).map(|info| info.y).collect();
        if moving.is_empty() {
            return Ok(());
        }
        wallet.localstore.update_proofs_state(moving, to).await.map_err(|e| PayError::Store(e.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn invoice_for(preimage: [u8; 32]) -> String {
        use cdk::lightning_invoice::{Currency, InvoiceBuilder, PaymentSecret};
        use cdk::secp256k1::hashes::Hash;
        use cdk::secp256k1::{Secp256k1, SecretKey};
        use sha2::Digest;
        let hash = cdk::secp256k1::hashes::sha256::Hash::from_slice(&sha2::Sha256::digest(preimage)).unwrap();
        let key = SecretKey::from_slice(&[3u8; 32]).unwrap();
        InvoiceBuilder::new(Currency::Bitcoin)
            .description("test".into())
            .payment_hash(hash)
            .payment_secret(PaymentSecret([1; 32]))
            .amount_milli_satoshis(10_000)
            .current_timestamp()
            .min_final_cltv_expiry_delta(144)
            .build_signed(|digest| Secp256k1::new().sign_ecdsa_recoverable(digest, &key))
            .unwrap()
            .to_string()
    }

    #[test]
    fn a_proof_of_payment_is_checked_against_the_invoice() {
        let invoice = invoice_for([9; 32]);
        assert!(clean_invoice(&format!("  lightning:{invoice}\n")).is_ok());
        let right = hex::encode([9u8; 32]);
        assert!(proof_of_payment(Some(&invoice), Some(&right)) == PaymentProof::Matches);
        // nutshell's FakeWallet answers all zeros; a lying mint anything.
        let zeros = "0".repeat(64);
        assert!(proof_of_payment(Some(&invoice), Some(&zeros)) == PaymentProof::DoesNotMatch);
        assert!(proof_of_payment(Some(&invoice), Some("")) == PaymentProof::None);
        assert!(proof_of_payment(Some(&invoice), None) == PaymentProof::None);
    }
}
