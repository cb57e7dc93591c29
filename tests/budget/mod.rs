//! The prepaid allowance end to end: `Payments` over a real cdk mint (fake Lightning) on loopback, with a stand-in
//! provider that redeems tokens and returns change or refunds the way Routstr does.

mod accounting;
mod claude;
mod crash;
mod explore;
mod files;
mod hostile;
mod ledger;
mod nutshell;
mod secrets;
mod stopped;
mod stress;
mod tests;
mod wallet_life;

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use aiui_core::budget::{BudgetStore, BudgetUpdate, Period};
use aiui_core::pay::{Conservation, Payments, Wallet};
use aiui_core::secrets::Secrets;
use cdk::amount::SplitTarget;
use cdk::nuts::{CurrencyUnit, PaymentMethod};
use cdk::wallet::{ReceiveOptions, SendOptions};

use crate::support::mint::TestMint;
use crate::support::paid::test_wallet_options;

/// Opens the wallet, ledger and budget in `dir`, as the app does at startup.
pub async fn open(dir: &Path, secrets: &Secrets) -> Payments {
    let wallet = Wallet::open_with(dir, secrets, test_wallet_options()).await.expect("the wallet opens");
    let budget = BudgetStore::open(&dir.join("budget.json")).expect("the budget opens");
    Payments::new(Arc::new(wallet), Arc::new(budget))
}

/// [`open`], with the budget's clock read from `clock_file` (milliseconds since the epoch, written by a test), so
/// that several processes see one clock that the test moves on to roll periods.
pub async fn open_with_clock_file(dir: &Path, secrets: &Secrets, clock_file: &Path) -> Payments {
    let wallet = Wallet::open_with(dir, secrets, test_wallet_options()).await.expect("the wallet opens");
    let file = clock_file.to_owned();
    let clock = Arc::new(move || {
        std::fs::read_to_string(&file).ok().and_then(|t| t.trim().parse().ok()).unwrap_or_else(aiui_core::now_ms)
    });
    let budget = BudgetStore::open(&dir.join("budget.json")).expect("the budget opens").with_clock(clock);
    Payments::new(Arc::new(wallet), Arc::new(budget))
}

/// A wallet funded with `funded` sats from `mint`, an allowance of `allowance` sats accepting that mint.
pub async fn funded(mint: &TestMint, dir: &Path, secrets: &Secrets, funded: u64, allowance: u64) -> Payments {
    let payments = open(dir, secrets).await;
    payments
        .budget()
        .set(BudgetUpdate {
            allowance_sats: Some(allowance),
            period: Some(Period::Monthly),
            accepted_mints: Some(vec![mint.url()]),
        })
        .expect("the operator sets the budget");
    if funded > 0 {
        let invoice = payments.wallet().mint_invoice(&mint.url(), funded).await.expect("an invoice");
        let minted = payments
            .wallet()
            .wait_minted(&mint.url(), &invoice.quote_id, Duration::from_secs(20))
            .await
            .expect("the fake backend pays and the wallet mints");
        assert_eq!(minted, funded);
    }
    payments
}

/// Asserts the ledger invariant and returns the sums for further checks.
#[track_caller]
pub fn assert_conserved(c: Conservation) -> Conservation {
    assert!(c.holds(), "balance + settled + in-flight + fees != received: {c:?}");
    c
}

/// A stand-in provider: its own cdk wallet at the mint, redeeming tokens and sending change or refunds.
pub struct Provider {
    wallet: cdk::Wallet,
}

impl Provider {
    pub async fn new(mint: &TestMint) -> Self {
        Self::at(&mint.url()).await
    }

    /// A provider (or a friend's wallet) at any mint, e.g. nutshell.
    pub async fn at(mint_url: &str) -> Self {
        let store = cdk_sqlite::wallet::memory::empty().await.expect("an in-memory provider wallet");
        let seed: [u8; 64] = std::array::from_fn(|_| rand::random());
        let wallet = cdk::wallet::WalletBuilder::new()
            .mint_url(mint_url.parse().expect("the mint URL"))
            .unit(CurrencyUnit::Sat)
            .localstore(Arc::new(store))
            .seed(seed)
            .without_rate_limiting()
            .build()
            .expect("the provider wallet");
        Self { wallet }
    }

    /// Redeems a token as Routstr does before forwarding a request.
    pub async fn redeem(&self, token: &str) -> u64 {
        self.wallet.receive(token, ReceiveOptions::default()).await.expect("the provider redeems").to_u64()
    }

    /// Hostile: redeems only the largest of the token's proofs and keeps the rest unredeemed (a token partly spent).
    /// Returns what it redeemed.
    pub async fn redeem_part(&self, token: &str) -> u64 {
        use std::str::FromStr;
        let parsed = cdk::nuts::Token::from_str(token).expect("a token");
        let mut proofs = aiui_core::pay::proofs_at(&self.wallet, &parsed).await.expect("the token's proofs");
        assert!(proofs.len() >= 2, "a token of one proof cannot be partly spent");
        // The largest: at a mint with fees a 1-sat proof would be all fee.
        proofs.sort_by_key(|p| std::cmp::Reverse(p.amount));
        proofs.truncate(1);
        self.wallet.receive_proofs(proofs, ReceiveOptions::default(), None, None).await.expect("part redeemed").to_u64()
    }

    /// A friend's wallet claims `token`: what it received, or why it could not.
    pub async fn try_redeem(&self, token: &str) -> Result<u64, String> {
        self.wallet.receive(token, ReceiveOptions::default()).await.map(|a| a.to_u64()).map_err(|e| e.to_string())
    }

    /// A friend's wallet claims only the largest proof of `token`.
    pub async fn try_redeem_part(&self, token: &str) -> Result<u64, String> {
        use std::str::FromStr;
        let parsed = cdk::nuts::Token::from_str(token).map_err(|e| e.to_string())?;
        let mut proofs = aiui_core::pay::proofs_at(&self.wallet, &parsed).await.map_err(|e| e.to_string())?;
        if proofs.len() < 2 {
            return Err("a token of one proof cannot be claimed in part".into());
        }
        // The largest: at a mint with fees a 1-sat proof would be all fee.
        proofs.sort_by_key(|p| std::cmp::Reverse(p.amount));
        proofs.truncate(1);
        let received = self.wallet.receive_proofs(proofs, ReceiveOptions::default(), None, None).await;
        received.map(|a| a.to_u64()).map_err(|e| e.to_string())
    }

    /// The face value of `token` and how much of it the mint says is spent (NUT-07, asked over the mint's door).
    pub async fn spent_face(&self, token: &str) -> (u64, u64) {
        use std::str::FromStr;
        let parsed = cdk::nuts::Token::from_str(token).expect("a token");
        let proofs = aiui_core::pay::proofs_at(&self.wallet, &parsed).await.expect("the token's proofs");
        let states = self.wallet.check_proofs_spent(proofs.clone()).await.expect("the mint answers");
        let face = proofs.iter().map(|p| p.amount.to_u64()).sum();
        let spent = proofs
            .iter()
            .zip(states)
            .filter(|(_, s)| s.state == cdk::nuts::State::Spent)
            .map(|(p, _)| p.amount.to_u64())
            .sum();
        (face, spent)
    }

    /// A token of `sats` from the provider's balance: change or a refund.
    pub async fn pay_back(&self, sats: u64) -> String {
        let prepared = self.wallet.prepare_send(sats.into(), SendOptions::default()).await.expect("provider send");
        prepared.confirm(None).await.expect("provider token").to_string()
    }

    /// Funds the provider directly (for refunds larger than what it redeemed).
    #[allow(dead_code)]
    pub async fn fund(&self, sats: u64) {
        let quote = self.wallet.mint_quote(PaymentMethod::BOLT11, Some(sats.into()), None, None).await.unwrap();
        self.wallet.wait_and_mint_quote(quote, SplitTarget::default(), None, Duration::from_secs(20)).await.unwrap();
    }
}
