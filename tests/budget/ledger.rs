//! Ledger faults over the real mint: every outcome of a paid step, and conservation asserted after each.

use aiui_core::pay::PayError;
use aiui_core::secrets::Secrets;

use super::{Provider, assert_conserved, funded, open};
use crate::support::mint::TestMint;

#[tokio::test(flavor = "multi_thread")]
async fn change_settles_spent_as_paid_minus_change() {
    let mint = TestMint::start().await;
    let provider = Provider::new(&mint).await;
    let dir = tempfile::tempdir().unwrap();
    let secrets = Secrets::in_memory();
    let payments = funded(&mint, dir.path(), &secrets, 100, 50).await;
    let policy = payments.budget().payment_policy();

    let payment = payments.auto_pay_token(&policy, &[mint.url()], 10, "provider-a").await.expect("a token");
    assert_eq!(payment.amount_sats, 10);
    let c = assert_conserved(payments.conservation().await.unwrap());
    assert_eq!((c.wallet_balance, c.in_flight), (90, 10));
    assert_eq!(payments.budget().get().reserved_sats, 10);

    assert_eq!(provider.redeem(payment.token.expose()).await, 10);
    let change = provider.pay_back(3).await;
    let settled = payments.settle_with_change(&payment, Some(&change)).await.expect("settles");
    assert!(!settled.crossed_80);
    assert_eq!(settled.spent_sats, 7);
    let c = assert_conserved(payments.conservation().await.unwrap());
    assert_eq!((c.wallet_balance, c.settled_spend, c.in_flight, c.received_total), (93, 7, 0, 100));
    let report = payments.budget().get();
    assert_eq!((report.spent_sats, report.reserved_sats, report.remaining_sats), (7, 0, 43));

    // Settling twice is refused: the ledger entry is closed.
    let again = payments.settle_with_change(&payment, None).await;
    assert!(matches!(again, Err(PayError::UnknownPayment(_))), "{again:?}");

    // No change at all: the whole token is spend, and crossing 80% notifies once.
    let payment = payments.auto_pay_token(&policy, &[mint.url()], 33, "provider-a").await.expect("a token");
    provider.redeem(payment.token.expose()).await;
    let settled = payments.settle_with_change(&payment, None).await.unwrap();
    assert!(settled.crossed_80, "40 of 50 is 80%");
    let notice = payments.budget().take_notice().expect("the 80% notice waits to be shown");
    assert!(notice.contains("40 of its 50-sat allowance"), "{notice}");
    assert_eq!(payments.budget().take_notice(), None, "once");
    assert_eq!(payments.budget().get().spent_sats, 40);
    assert_conserved(payments.conservation().await.unwrap());
}

#[tokio::test(flavor = "multi_thread")]
async fn a_402_reclaim_restores_the_balance() {
    let mint = TestMint::start().await;
    let dir = tempfile::tempdir().unwrap();
    let secrets = Secrets::in_memory();
    let payments = funded(&mint, dir.path(), &secrets, 64, 64).await;
    let policy = payments.budget().payment_policy();
    let payment = payments.auto_pay_token(&policy, &[mint.url()], 21, "provider-a").await.expect("a token");
    assert_conserved(payments.conservation().await.unwrap());

    payments.reclaim(&payment).await.expect("the unredeemed token comes back");
    let c = assert_conserved(payments.conservation().await.unwrap());
    assert_eq!((c.wallet_balance, c.settled_spend, c.in_flight), (64, 0, 0));
    let report = payments.budget().get();
    assert_eq!((report.spent_sats, report.reserved_sats), (0, 0));
}

#[tokio::test(flavor = "multi_thread")]
async fn mint_down_during_send_returns_none_and_loses_nothing() {
    let mint = TestMint::start().await;
    let dir = tempfile::tempdir().unwrap();
    let secrets = Secrets::in_memory();
    let payments = funded(&mint, dir.path(), &secrets, 50, 50).await;
    let policy = payments.budget().payment_policy();

    mint.take_down();
    let before = mint.requests();
    assert!(payments.auto_pay_token(&policy, &[mint.url()], 10, "provider-a").await.is_none());
    assert!(mint.requests() > before, "the wallet did try the mint");
    let c = assert_conserved(payments.conservation().await.unwrap());
    assert_eq!((c.wallet_balance, c.in_flight), (50, 0));
    assert_eq!(payments.budget().get().reserved_sats, 0, "the reservation was released");

    // Back up, the same wallet pays normally.
    mint.bring_up();
    let payment = payments.auto_pay_token(&policy, &[mint.url()], 10, "provider-a").await.expect("a token");
    payments.reclaim(&payment).await.unwrap();
    assert_eq!(assert_conserved(payments.conservation().await.unwrap()).wallet_balance, 50);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_token_never_answered_is_reclaimed_after_a_restart() {
    let mint = TestMint::start().await;
    let dir = tempfile::tempdir().unwrap();
    let secrets = Secrets::in_memory();
    let payments = funded(&mint, dir.path(), &secrets, 80, 40).await;
    let policy = payments.budget().payment_policy();
    let payment = payments.auto_pay_token(&policy, &[mint.url()], 16, "provider-a").await.expect("a token");
    payments.keep_in_flight(&payment).await;
    let c = assert_conserved(payments.conservation().await.unwrap());
    assert_eq!(c.in_flight, 16);
    drop(payments);

    // A new process over the same data dir (same keyring): the reservation is still counted until reconcile.
    let payments = open(dir.path(), &secrets).await;
    assert_eq!(payments.budget().get().reserved_sats, 16);
    let c = assert_conserved(payments.conservation().await.unwrap());
    assert_eq!((c.wallet_balance, c.in_flight), (64, 16));
    let report = payments.reconcile().await.expect("reconcile runs");
    assert_eq!((report.checked, report.reclaimed, report.reclaimed_sats), (1, 1, 16), "{report:?}");
    let c = assert_conserved(payments.conservation().await.unwrap());
    assert_eq!((c.wallet_balance, c.in_flight, c.settled_spend), (80, 0, 0));
    let budget = payments.budget().get();
    assert_eq!((budget.spent_sats, budget.reserved_sats), (0, 0));
    // Nothing is left to do the second time.
    assert_eq!(payments.reconcile().await.unwrap().checked, 0);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_spent_token_stays_in_flight_and_a_refund_restores_the_balance() {
    let mint = TestMint::start().await;
    let provider = Provider::new(&mint).await;
    let dir = tempfile::tempdir().unwrap();
    let secrets = Secrets::in_memory();
    let payments = funded(&mint, dir.path(), &secrets, 60, 60).await;
    let policy = payments.budget().payment_policy();
    let payment = payments.auto_pay_token(&policy, &[mint.url()], 12, "provider-a").await.expect("a token");
    // The provider redeems, then its upstream fails after that (500, no change): outcome unknown.
    provider.redeem(payment.token.expose()).await;
    payments.keep_in_flight(&payment).await;

    let report = payments.reconcile().await.unwrap();
    // Spent at the mint, and no refund endpoint is known for this payment: asked again on a later run.
    assert_eq!((report.checked, report.waiting, report.reclaimed), (1, 1, 0), "{report:?}");
    let c = assert_conserved(payments.conservation().await.unwrap());
    assert_eq!((c.wallet_balance, c.in_flight), (48, 12), "spent at the mint: kept in flight for the refund path");

    // The provider's refund arrives (an upstream-error body, or the refund endpoint).
    let refund = provider.pay_back(12).await;
    payments.take_refund(&payment, &refund).await.expect("the refund is received");
    let c = assert_conserved(payments.conservation().await.unwrap());
    assert_eq!((c.wallet_balance, c.in_flight, c.settled_spend), (60, 0, 0));
    let budget = payments.budget().get();
    assert_eq!((budget.spent_sats, budget.reserved_sats), (0, 0), "a full refund settles at zero spend");
}

#[tokio::test(flavor = "multi_thread")]
async fn unaffordable_prices_never_touch_the_wallet() {
    let mint = TestMint::start().await;
    let dir = tempfile::tempdir().unwrap();
    let secrets = Secrets::in_memory();
    let payments = funded(&mint, dir.path(), &secrets, 100, 30).await;
    let policy = payments.budget().payment_policy();
    let mut zero = policy.clone();
    zero.allowance_sats = 0;
    let other_mint = vec!["https://some-other-mint.example".to_string()];
    // (policy, provider mints, price, why)
    let cases = [
        (&zero, vec![mint.url()], 1, "zero allowance"),
        (&policy, vec![mint.url()], 31, "price above what remains"),
        (&policy, vec![mint.url()], 0, "zero price"),
        (&policy, other_mint, 5, "no mint both accepted and listed"),
    ];
    for (policy, provider_mints, price, why) in cases {
        let before = mint.requests();
        let got = payments.auto_pay_token(policy, &provider_mints, price, "provider-a").await;
        assert!(got.is_none(), "{why}: paid anyway");
        assert_eq!(mint.requests(), before, "{why}: the wallet called the mint");
        let budget = payments.budget().get();
        assert_eq!((budget.spent_sats, budget.reserved_sats), (0, 0), "{why}");
    }
    // Spending down the allowance: the step that no longer fits is refused without a mint call.
    let payment = payments.auto_pay_token(&policy, &[mint.url()], 25, "provider-a").await.expect("fits");
    payments.settle_with_change(&payment, None).await.unwrap();
    let stale = policy.clone(); // the turn's policy still says 30 remain; the store knows only 5 do
    let before = mint.requests();
    assert!(payments.auto_pay_token(&stale, &[mint.url()], 6, "provider-a").await.is_none());
    assert_eq!(mint.requests(), before, "the reservation failed before any wallet call");
    assert_conserved(payments.conservation().await.unwrap());
}

#[tokio::test(flavor = "multi_thread")]
async fn mint_fees_are_counted_so_conservation_is_exact() {
    let mint = TestMint::start_with_fee(100).await;
    let provider = Provider::new(&mint).await;
    let dir = tempfile::tempdir().unwrap();
    let secrets = Secrets::in_memory();
    let payments = funded(&mint, dir.path(), &secrets, 200, 100).await;
    let policy = payments.budget().payment_policy();

    let payment = payments.auto_pay_token(&policy, &[mint.url()], 10, "provider-a").await.expect("a token");
    assert!(payment.amount_sats >= 10, "the token carries the provider's redeem fee");
    assert_conserved(payments.conservation().await.unwrap());
    let redeemed = provider.redeem(payment.token.expose()).await;
    assert_eq!(redeemed, 10, "the provider nets the price");
    let change = provider.pay_back(4).await;
    payments.settle_with_change(&payment, Some(&change)).await.unwrap();
    let c = assert_conserved(payments.conservation().await.unwrap());
    assert!(c.fees > 0, "a 100 ppk mint charges: {c:?}");

    let payment = payments.auto_pay_token(&policy, &[mint.url()], 7, "provider-a").await.expect("a token");
    payments.reclaim(&payment).await.unwrap();
    let c = assert_conserved(payments.conservation().await.unwrap());
    let budget = payments.budget().get();
    assert_eq!(budget.spent_sats, c.settled_spend + c.fees, "the budget counts spend and fees: {c:?} {budget:?}");
    assert!(budget.spent_sats <= budget.allowance_sats);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_ledger_that_cannot_be_written_keeps_the_token_home() {
    let mint = TestMint::start().await;
    let dir = tempfile::tempdir().unwrap();
    let secrets = Secrets::in_memory();
    let payments = funded(&mint, dir.path(), &secrets, 40, 40).await;
    let policy = payments.budget().payment_policy();
    // Break the ledger under the running wallet (as a full disk or a damaged file would).
    let raw = rusqlite::Connection::open(dir.path().join("ledger.sqlite3")).unwrap();
    raw.execute_batch("DROP TABLE payments;").unwrap();
    drop(raw);

    assert!(payments.auto_pay_token(&policy, &[mint.url()], 10, "provider-a").await.is_none());
    assert_eq!(payments.wallet().total_balance().await.unwrap(), 40, "no token left the wallet");
    let budget = payments.budget().get();
    assert_eq!((budget.spent_sats, budget.reserved_sats), (0, 0));
}

#[tokio::test(flavor = "multi_thread")]
async fn the_wallet_keeps_its_seed_and_refuses_to_open_without_it() {
    let mint = TestMint::start().await;
    let dir = tempfile::tempdir().unwrap();
    let secrets = Secrets::in_memory();
    let payments = funded(&mint, dir.path(), &secrets, 10, 10).await;
    let words = secrets.get(aiui_core::secrets::SecretName::WalletSeed).unwrap().expect("a seed was stored");
    assert_eq!(words.expose().split(' ').count(), 24);
    drop(payments);
    let again = open(dir.path(), &secrets).await;
    assert_eq!(again.wallet().total_balance().await.unwrap(), 10);
    let same = secrets.get(aiui_core::secrets::SecretName::WalletSeed).unwrap().unwrap();
    assert_eq!(same.expose(), words.expose(), "reopening never replaces the seed");

    let empty_keyring = Secrets::in_memory();
    let refused = aiui_core::pay::Wallet::open(dir.path(), &empty_keyring).await;
    assert!(matches!(refused, Err(PayError::SeedMissing)), "{refused:?}");
}

#[tokio::test(flavor = "multi_thread")]
async fn concurrent_turns_cannot_spend_the_same_sats() {
    let mint = TestMint::start().await;
    let dir = tempfile::tempdir().unwrap();
    let secrets = Secrets::in_memory();
    let payments = funded(&mint, dir.path(), &secrets, 100, 25).await;
    let policy = payments.budget().payment_policy();
    let turns: Vec<_> = (0..4)
        .map(|_| {
            let (payments, policy, url) = (payments.clone(), policy.clone(), mint.url());
            tokio::spawn(async move { payments.auto_pay_token(&policy, &[url], 10, "provider-a").await })
        })
        .collect();
    let mut paid = Vec::new();
    for turn in turns {
        paid.extend(turn.await.unwrap());
    }
    assert_eq!(paid.len(), 2, "25 sats cover two 10-sat steps, not more");
    let budget = payments.budget().get();
    assert_eq!((budget.reserved_sats, budget.remaining_sats), (20, 5));
    assert_conserved(payments.conservation().await.unwrap());
    for payment in &paid {
        payments.settle_with_change(payment, None).await.unwrap();
    }
    let c = assert_conserved(payments.conservation().await.unwrap());
    assert_eq!((c.settled_spend, c.wallet_balance), (20, 80));
    assert!(payments.budget().get().spent_sats <= 25);
}
