//! AIUI's wallet (cdk) against a mint written by others: nutshell 0.20.2 with its FakeWallet backend, charging
//! nutshell's default input fee of 100 ppk.

use std::time::Duration;

use aiui_core::budget::{BudgetUpdate, Period};
use aiui_core::secrets::Secrets;

use super::{assert_conserved, open};
use crate::support::nutshell::NutshellMint;

#[tokio::test(flavor = "multi_thread")]
async fn aiui_wallet_funds_and_pays_at_a_nutshell_mint() {
    let mint = NutshellMint::start(100).await;
    let dir = tempfile::tempdir().unwrap();
    let secrets = Secrets::in_memory();
    let payments = open(dir.path(), &secrets).await;
    payments
        .budget()
        .set(BudgetUpdate {
            allowance_sats: Some(64),
            period: Some(Period::Monthly),
            accepted_mints: Some(vec![mint.url()]),
        })
        .expect("the operator sets the budget");

    let invoice = payments.wallet().mint_invoice(&mint.url(), 64).await.expect("an invoice from nutshell");
    let minted = payments
        .wallet()
        .wait_minted(&mint.url(), &invoice.quote_id, Duration::from_secs(20))
        .await
        .unwrap_or_else(|e| panic!("FakeWallet pays and the wallet mints: {e}\n{}", mint.log()));
    assert_eq!(minted, 64);
    assert_eq!(payments.wallet().total_balance().await.unwrap(), 64, "minting costs no input fee");
    let c = assert_conserved(payments.conservation().await.unwrap());
    assert_eq!((c.received_total, c.wallet_balance, c.fees), (64, 64, 0));
}

#[tokio::test(flavor = "multi_thread")]
async fn a_wallet_that_lived_at_nutshell_is_restored_from_its_words_on_a_fresh_machine() {
    let mint = NutshellMint::start(100).await;
    let dir = tempfile::tempdir().unwrap();
    let secrets = Secrets::in_memory();
    let payments = open(dir.path(), &secrets).await;
    let update = BudgetUpdate {
        allowance_sats: Some(100),
        period: Some(Period::Monthly),
        accepted_mints: Some(vec![mint.url()]),
    };
    payments.budget().set(update).unwrap();
    let change_unseen = super::wallet_life::live_at(&payments, &mint, 500).await;
    let before = payments.wallet().total_balance().await.unwrap();
    assert!(before > 0);
    let backup = payments.wallet().backup(&secrets).await.unwrap();
    drop(payments);
    drop(dir);
    drop(secrets);

    let (_fresh, restored, per_mint) = super::wallet_life::restore_on_a_fresh_machine(&backup).await;
    // When nutshell lost track of the melt, its change never reached the wallet, but its signatures are at the
    // mint: the restore finds them too.
    assert!(
        per_mint[0] >= before && per_mint[0] <= before + change_unseen,
        "nutshell gave back every unspent proof: {per_mint:?} {before} {change_unseen}\n{}",
        mint.log()
    );
    assert_conserved(restored.conservation().await.unwrap());
}
