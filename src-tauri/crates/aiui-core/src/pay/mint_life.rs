//! A mint's life, looked after by `reconcile`: proofs of a keyset the mint retired (or will soon: its
//! `final_expiry`) are swapped to the active keyset before they lose their value, proofs a restore found pending are
//! settled once the mint decides them, and a mint holding the owner's sats that has not answered for a day gets a
//! notice naming what is at risk.

use cdk::amount::SplitTarget;
use cdk::nuts::{ProofsMethods, State};
use cdk_common::wallet::KeysetLoadPolicy;

use super::backup::RESTORED_PENDING;
use super::ledger::{Outflow, OutflowKind, PaymentState};
use super::payments::Payments;
use super::{PayError, ReconcileReport, Unfinished, WalletNotice, classify};

/// Proofs whose keyset ends within this long are moved to the active keyset.
const EXPIRY_MARGIN_S: u64 = 14 * 24 * 3600;
/// How long a mint holding sats may fail to answer before the owner is told.
const SILENT_FOR_MS: i64 = 24 * 3600 * 1000;

impl Payments {
    /// For each mint the wallet holds sats at: is it answering, and are its proofs on a keyset it still honours.
    pub(super) async fn look_after_mints(&self, report: &mut ReconcileReport) {
        // A mint may hold nothing but such proofs: its balance is 0, so it is looked at apart from the rest.
        for wallet in self.wallet.cdk_wallets().await {
            let mint = wallet.mint_url.to_string();
            match self.settle_restored_pending(&mint).await {
                Ok(Some(notice)) => report.notices.push(notice),
                Ok(None) => {}
                Err(e) => tracing::warn!(mint = %mint, error = %e, "reconcile: restored pending proofs not settled"),
            }
        }
        let Ok(balances) = self.wallet.balances().await else { return };
        for (mint, sats) in balances.into_iter().filter(|(_, sats)| *sats > 0) {
            let key = format!("mint_silent_since_ms:{mint}");
            let told = format!("mint_silent_told:{mint}");
            match self.wallet.mint_answers(&mint).await {
                Ok(()) => {
                    let _ = self.wallet.ledger().clear_meta(&key);
                    let _ = self.wallet.ledger().clear_meta(&told);
                    match self.move_off_old_keysets(&mint).await {
                        Ok(Some(notice)) => report.notices.push(notice),
                        Ok(None) => {}
                        Err(e) => tracing::warn!(mint = %mint, error = %e, "reconcile: old keysets not swapped yet"),
                    }
                }
                Err(e) => {
                    let now = crate::now_ms();
                    let since = match self.wallet.ledger().meta(&key) {
                        Ok(Some(since)) => since,
                        _ => {
                            let _ = self.wallet.ledger().set_meta(&key, now);
                            now
                        }
                    };
                    let already_told = self.wallet.ledger().meta(&told).ok().flatten().is_some();
                    if now - since >= SILENT_FOR_MS && !already_told {
                        let _ = self.wallet.ledger().set_meta(&told, now);
                        report.notices.push(self.tell(WalletNotice::MintSilent {
                            mint: mint.clone(),
                            since_ms: since,
                            error: e.to_string(),
                            sats,
                        }));
                    }
                }
            }
        }
    }

    /// A restore stores the proofs a mint calls pending (a withdrawal under way when the old machine was lost) as
    /// pending, with no operation of this wallet's to finish them, and nothing looked at them again (review F16).
    /// The restore marks them in the ledger; each run asks the mint about the marked ones, with no other wallet
    /// operation running anywhere: spent ones (the withdrawal was paid) leave the store, and unspent ones (it
    /// failed) are counted as restored, each once, and then join the balance.
    async fn settle_restored_pending(&self, mint: &str) -> Result<Option<String>, PayError> {
        // Only the proofs the restore marked: other pending proofs belong to an operation under way (a receive's
        // incoming proofs, a withdrawal's inputs), which its own recovery settles (the explorer's sweep found the
        // double count of reading every pending proof as restored).
        let marked = self.wallet.ledger().meta_with_prefix(RESTORED_PENDING)?;
        if marked.is_empty() {
            return Ok(None);
        }
        let wallet = self.wallet.mint_wallet(mint).await?;
        let store_error = |e: cdk_common::database::Error| PayError::Store(e.to_string());
        let Ok(_here) = self.sends.try_write() else { return Ok(None) };
        let Some(_everywhere) = self.locks.recovery() else { return Ok(None) };
        let pending = wallet
            .localstore
            .get_proofs(Some(wallet.mint_url.clone()), None, Some(vec![State::Pending]), None)
            .await
            .map_err(store_error)?;
        let key = |y: &cdk::nuts::PublicKey| format!("{RESTORED_PENDING}{}", y.to_hex());
        let orphans: Vec<_> = pending
            .into_iter()
            .filter(|info| info.used_by_operation.is_none() && marked.iter().any(|(k, _)| *k == key(&info.y)))
            .collect();
        if orphans.is_empty() {
            return Ok(None);
        }
        let proofs: cdk::nuts::Proofs = orphans.iter().map(|info| info.proof.clone()).collect();
        // Spent ones leave cdk's store here.
        let states = wallet.check_proofs_spent(proofs).await.map_err(|e| classify(mint, e))?;
        let state_of = |y| states.iter().find(|s| s.y == y).map(|s| s.state);
        let mut sats = 0;
        let mut back = Vec::new();
        for info in &orphans {
            match state_of(info.y) {
                Some(State::Unspent) => {
                    let amount = info.proof.amount.to_u64();
                    self.wallet.ledger().record_restored(&key(&info.y), mint, amount)?;
                    sats += amount;
                    back.push(info.y);
                }
                Some(State::Spent) => self.wallet.ledger().clear_meta(&key(&info.y))?,
                _ => {}
            }
        }
        if back.is_empty() {
            return Ok(None);
        }
        wallet.localstore.update_proofs_state(back.clone(), State::Unspent).await.map_err(store_error)?;
        for y in &back {
            self.wallet.ledger().clear_meta(&key(y))?;
        }
        tracing::info!(mint = %mint, sats, "reconcile: a withdrawal pending when the wallet was restored did not go through");
        Ok(Some(self.tell(WalletNotice::WithdrawalFailed { sats, mint: mint.to_owned() })))
    }

    /// Swaps the unspent proofs of retired or soon-expiring keysets at `mint` to its active keyset, and records
    /// the mint's input fee for it. `Ok(Some(notice))` when it moved some.
    async fn move_off_old_keysets(&self, mint: &str) -> Result<Option<String>, PayError> {
        let wallet = self.wallet.mint_wallet(mint).await?;
        let keysets = wallet.keysets(KeysetLoadPolicy::Refresh).await.map_err(|e| classify(mint, e))?;
        let now = crate::now_ms().max(0) as u64 / 1000;
        let ends_soon = |ks: &cdk::nuts::KeySet| ks.final_expiry.is_some_and(|end| end <= now + EXPIRY_MARGIN_S);
        let fading: Vec<_> =
            keysets.iter().filter(|ks| ks.active == Some(false) || ends_soon(ks)).map(|ks| ks.id).collect();
        if fading.is_empty() {
            return Ok(None);
        }
        // cdk swaps to the active keyset with the lowest fee, whatever its expiry. When that one fades too (a mint
        // announcing its next rotation before making the new keyset), a swap would land the proofs where they
        // were and pay the fee again on every run (review F2): wait for a keyset that outlives the margin.
        let destination = keysets.iter().filter(|ks| ks.active == Some(true)).min_by_key(|ks| ks.input_fee_ppk);
        if destination.is_none_or(ends_soon) {
            tracing::info!(mint = %mint, "reconcile: the mint's keysets end soon and it offers no later one yet");
            return Ok(None);
        }
        let _sending = self.sends.read().await;
        let _operation = self.locks.operation().await?;
        let proofs: cdk::nuts::Proofs = wallet
            .get_unspent_proofs()
            .await
            .map_err(|e| PayError::Store(e.to_string()))?
            .into_iter()
            .filter(|proof| fading.contains(&proof.keyset_id))
            .collect();
        if proofs.is_empty() {
            return Ok(None);
        }
        let face = proofs.total_amount().map_err(|e| PayError::Store(e.to_string()))?.to_u64();
        let fee = wallet.get_proofs_fee(&proofs).await.map_err(|e| classify(mint, e))?.total.to_u64();
        let ys = proofs.ys().map_err(|e| PayError::Store(e.to_string()))?;
        wallet.swap(None, SplitTarget::default(), proofs, None, false, false).await.map_err(|e| classify(mint, e))?;
        // Recorded once the swap is done: the fee is exact (a swap's outputs are its inputs less the input fee).
        let spent = wallet.localstore.get_proofs_by_ys(ys).await.map_err(|e| PayError::Store(e.to_string()))?;
        if spent.iter().any(|info| info.state == State::Unspent) {
            return Err(PayError::Unfinished(Unfinished::Swap { mint: mint.to_owned() }));
        }
        self.record_kept_by_the_mint(mint, face, fee, "moved to the active keyset")?;
        tracing::info!(mint = %mint, sats = face, fee, "reconcile: proofs moved off a retired keyset");
        Ok(Some(self.tell(WalletNotice::KeysetMoved { sats: face, mint: mint.to_owned(), fee })))
    }

    /// Records `fee` sats of `face` that a mint kept on a swap of the wallet's own proofs (a keyset move, a swap whose
    /// answer was lost), as a settled outflow: they count as withdrawal fees in the sums.
    pub(super) fn record_kept_by_the_mint(
        &self,
        mint: &str,
        face: u64,
        fee: u64,
        outcome: &str,
    ) -> Result<(), PayError> {
        let row = Outflow {
            id: hex::encode(rand::random::<[u8; 12]>()),
            kind: OutflowKind::KeysetSwap,
            mint: mint.to_owned(),
            amount_sats: face,
            operation_id: String::new(),
            quote_id: None,
            invoice: None,
            token: None,
            state: PaymentState::Pending,
            withdrawn_sats: 0,
            fees_sats: 0,
            session: self.budget.session().to_owned(),
            parked: true,
            created_ms: 0,
            outcome: None,
            input_ys: None,
            target_sats: 0,
        };
        self.wallet.ledger().insert_settled_outflow(&row, fee, outcome)
    }
}
