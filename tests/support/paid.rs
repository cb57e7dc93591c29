//! The paid leg wired for real: a cdk mint, a Nostr relay, a provider announced on it, a funded wallet, an
//! allowance, and an assistant whose only usable leg is Routstr (Ollama refused, Claude without a key).

use std::sync::Arc;
use std::time::Duration;

use aiui_core::backends::chain::{Chain, Leg};
use aiui_core::backends::routstr::discovery::{Discovery, DiscoveryConfig, ReviewMode};
use aiui_core::backends::routstr::{Routstr, RoutstrConfig};
use aiui_core::budget::{BudgetStore, BudgetUpdate, Period};
use aiui_core::net::guard::{AddressPolicy, Guard};
use aiui_core::pay::{Conservation, Payments, ReconcilePolicy, Wallet, WalletOptions};
use aiui_core::secrets::Secrets;
use archy_devnode::MintConfig;
use serde_json::Value;
use tempfile::TempDir;

use super::assistant::{Harness, claude_leg, harness_full, ollama_leg};
use super::mint::TestMint;
use super::provider::{MODEL, TestProvider};
use super::relay::TestRelay;
use super::wire;

/// How many sats the wallet is funded with before each paid test.
pub const FUNDED: u64 = 2_000;

pub struct Paid {
    pub h: Harness,
    /// The wallet and the provider redeem here.
    pub mint: TestMint,
    pub relay: TestRelay,
    pub provider: TestProvider,
    pub payments: Arc<Payments>,
    pub budget: Arc<BudgetStore>,
    pub discovery: Arc<Discovery>,
    /// The keyring stand-in holding the wallet's seed.
    pub secrets: Secrets,
    _wallet_dir: TempDir,
}

pub fn discovery_config(relay: &str) -> DiscoveryConfig {
    DiscoveryConfig {
        relays: vec![relay.to_owned()],
        // Discovery returns at EOSE; the timeout only matters on a loaded machine, where it must not cut a test short.
        timeout: Duration::from_secs(15),
        review_mode: ReviewMode::Any,
        ..DiscoveryConfig::default()
    }
}

/// How reconcile pursues refunds in tests: no waiting between runs, and a write-off on the second try.
pub fn test_reconcile_policy() -> ReconcilePolicy {
    ReconcilePolicy {
        max_refund_tries: 2,
        write_off_after: Duration::from_secs(3600),
        first_backoff: Duration::ZERO,
        max_backoff: Duration::ZERO,
        max_watch_step: Duration::from_secs(3600),
        // A hold invoice is pending for as long as the test holds it: no need to wait ten seconds to see that.
        withdrawal_wait: Duration::from_millis(500),
    }
}

/// The Routstr settings tests use: the test provider's model, loopback allowed, short refund waits.
pub fn test_routstr_config() -> RoutstrConfig {
    RoutstrConfig {
        model: MODEL.into(),
        address_policy: AddressPolicy::AllowPrivateForTests,
        refund_wait: Duration::from_millis(20),
        ..RoutstrConfig::default()
    }
}

/// Everything for a paid turn, with `allowance` sats allowed and the provider replaying `replies`.
/// The wallet the paid tests use: unpaced, and allowed to reach the loopback test mints without listing them (the
/// stand-in for a public mint, as `AllowPrivateForTests` is for the providers).
pub fn test_wallet_options() -> WalletOptions {
    WalletOptions {
        pace_requests: false,
        guard: Guard::new(AddressPolicy::AllowPrivateForTests),
        ..WalletOptions::default()
    }
}

pub async fn paid(allowance: u64, replies: Vec<Value>) -> Paid {
    paid_with(allowance, replies, |_| {}).await
}

/// `paid`, with the Routstr settings changed by `tweak`.
pub async fn paid_with(allowance: u64, replies: Vec<Value>, tweak: impl FnOnce(&mut RoutstrConfig)) -> Paid {
    let mint = TestMint::start().await;
    let relay = TestRelay::start().await;
    let provider = TestProvider::start(&mint.url(), replies).await;
    provider.announce(&relay.url, &mint.url()).await;

    let wallet_dir = tempfile::tempdir().unwrap();
    let secrets = Secrets::in_memory();
    let wallet = Wallet::open_with(wallet_dir.path(), &secrets, test_wallet_options()).await.expect("the wallet opens");
    let invoice = wallet.mint_invoice(&mint.url(), FUNDED).await.expect("an invoice");
    wallet.wait_minted(&mint.url(), &invoice.quote_id, Duration::from_secs(10)).await.expect("the fake LN pays");
    let budget = Arc::new(BudgetStore::open(&wallet_dir.path().join("budget.json")).unwrap());
    budget
        .set(BudgetUpdate {
            allowance_sats: Some(allowance),
            period: Some(Period::Never),
            accepted_mints: Some(vec![mint.url()]),
        })
        .unwrap();
    let payments = Arc::new(
        Payments::new(Arc::new(wallet), budget.clone())
            .with_refund_access(AddressPolicy::AllowPrivateForTests, None)
            .with_reconcile_policy(test_reconcile_policy()),
    );
    let discovery = Arc::new(Discovery::new(discovery_config(&relay.url)));
    let mut config = test_routstr_config();
    tweak(&mut config);
    let routstr = Routstr::new(config, discovery.clone(), payments.clone()).unwrap();
    let chain = Chain::new(vec![
        ollama_leg(&wire::refused()),
        claude_leg(&wire::refused(), None),
        Leg::Routstr(Box::new(routstr)),
    ]);
    let mint_url = mint.url();
    let h = harness_full(chain, Duration::from_secs(30), Some(budget.clone()), move |c| {
        c.mints = vec![MintConfig { url: mint_url, unit: "sat".into(), trusted: true }];
    })
    .await;
    Paid { h, mint, relay, provider, payments, budget, discovery, secrets, _wallet_dir: wallet_dir }
}

impl Paid {
    /// The conservation sums; fails the test if they do not hold.
    #[track_caller]
    pub fn assert_conserved(&self, sums: Conservation) {
        assert!(sums.holds(), "conservation broken: {sums:?}");
    }

    pub async fn conservation(&self) -> Conservation {
        self.payments.conservation().await.expect("the ledger and wallet can be read")
    }

    /// The seed's promise after any outcome: the ledger adds up, spend never passes the allowance, and the budget
    /// counts exactly what left the wallet and did not come back (with what is still in flight held in reserve).
    pub async fn assert_ceiling_and_conservation(&self) -> Conservation {
        let sums = self.conservation().await;
        self.assert_conserved(sums);
        let report = self.budget.get();
        assert!(report.spent_sats <= report.allowance_sats, "spent past the ceiling: {report:?}");
        assert!(report.spent_sats + report.reserved_sats <= report.allowance_sats, "{report:?}");
        let left_the_wallet = sums.received_total - sums.wallet_balance;
        if sums.in_flight == 0 {
            assert_eq!(report.spent_sats, left_the_wallet, "spend is what left the wallet: {sums:?} {report:?}");
            assert_eq!(report.reserved_sats, 0, "nothing in flight, nothing reserved: {report:?}");
        } else {
            assert!(report.spent_sats + report.reserved_sats >= left_the_wallet, "{sums:?} {report:?}");
        }
        sums
    }
}

/// A fixture from `fixtures/openai/`.
pub fn openai(name: &str) -> Value {
    wire::fixture(&format!("openai/{name}"))
}
