//! The paid leg wired for real: a cdk mint, a Nostr relay, a provider announced on it, a funded wallet, an
//! allowance, and an assistant whose only usable leg is Routstr (Ollama refused, Claude without a key).

use std::sync::Arc;
use std::time::Duration;

use aiui_core::backends::chain::{Chain, Leg};
use aiui_core::backends::routstr::{Routstr, RoutstrConfig};
use aiui_core::budget::{BudgetStore, BudgetUpdate, Period};
use aiui_core::net::guard::AddressPolicy;
use aiui_core::pay::discovery::{Discovery, DiscoveryConfig, ReviewMode};
use aiui_core::pay::{Conservation, Payments, Wallet, WalletOptions};
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

/// Everything for a paid turn, with `allowance` sats allowed and the provider replaying `replies`.
pub async fn paid(allowance: u64, replies: Vec<Value>) -> Paid {
    let mint = TestMint::start().await;
    let relay = TestRelay::start().await;
    let provider = TestProvider::start(&mint.url(), replies).await;
    provider.announce(&relay.url, &mint.url()).await;

    let wallet_dir = tempfile::tempdir().unwrap();
    let wallet = Wallet::open_with(wallet_dir.path(), &Secrets::in_memory(), WalletOptions { pace_requests: false })
        .await
        .expect("the wallet opens");
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
    let payments = Arc::new(Payments::new(Arc::new(wallet), budget.clone()));
    let discovery = Arc::new(Discovery::new(discovery_config(&relay.url)));
    let config = RoutstrConfig {
        model: MODEL.into(),
        address_policy: AddressPolicy::AllowPrivateForTests,
        refund_wait: Duration::from_millis(20),
        ..RoutstrConfig::default()
    };
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
    Paid { h, mint, relay, provider, payments, budget, discovery, _wallet_dir: wallet_dir }
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
}

/// A fixture from `fixtures/openai/`.
pub fn openai(name: &str) -> Value {
    wire::fixture(&format!("openai/{name}"))
}
