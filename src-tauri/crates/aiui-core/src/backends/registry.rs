//! Building the D-04 chain from settings: the one place the legs are constructed, for every shell.

use std::path::Path;
use std::sync::Arc;

use super::builtin::{Builtin, BuiltinConfig};
use super::chain::{Chain, Leg};
use super::claude::{Claude, ClaudeConfig, ClaudeSpend};
use super::ollama::{Ollama, OllamaConfig};
use super::routstr::{Routstr, RoutstrConfig};
use crate::backends::routstr::discovery::{Discovery, DiscoveryConfig};
use crate::budget::{BudgetError, BudgetStore, ClaudeAllowance};
use crate::i18n::Locale;
use crate::net::ClientBuildError;
use crate::net::guard::Guard;
use crate::pay::{Payments, Wallet, WalletOptions};
use crate::pricing::Prices;
use crate::secrets::Secrets;

/// Where each leg is and how it behaves.
#[derive(Debug, Clone, Default)]
pub struct LegSettings {
    pub ollama: OllamaConfig,
    pub claude: ClaudeConfig,
    pub routstr: RoutstrConfig,
    pub discovery: DiscoveryConfig,
    /// The built-in model, last in the chain (its scorer is shared, so a rebuilt chain loads no second model).
    pub builtin: BuiltinConfig,
    /// The owner's language, for what the wallet tells when the chain is built (a start-up write-off, say).
    pub locale: Locale,
}

/// Instances a long-lived shell already holds, so a rebuilt chain shares them instead of opening a second copy
/// over the same files (two budget stores or two wallets on one file would disagree).
#[derive(Debug, Default)]
pub struct Reuse {
    pub budget: Option<Arc<BudgetStore>>,
    pub claude_allowance: Option<Arc<ClaudeAllowance>>,
    pub wallet: Option<Arc<Wallet>>,
}

/// A chain ready for the loop, the allowance it pays from, and what the owner should know about it.
#[derive(Debug)]
pub struct Built {
    pub chain: Chain,
    pub budget: Arc<BudgetStore>,
    /// Claude's USD allowance (reused or opened here).
    pub claude_allowance: Arc<ClaudeAllowance>,
    /// The wallet the paid leg pays from, when the allowance is above zero (reused or opened here).
    pub wallet: Option<Arc<Wallet>>,
    /// What the paid leg pays with, for the shell's background reconcile.
    pub payments: Option<Arc<Payments>>,
    /// E.g. that paid help is off because the wallet could not be opened.
    pub notices: Vec<String>,
    /// The paid leg's discovery, whose latest report the trusted settings show; `None` without a paid leg.
    pub discovery: Option<Arc<Discovery>>,
}

#[derive(Debug, thiserror::Error)]
pub enum BuildError {
    #[error(transparent)]
    Client(#[from] ClientBuildError),
    #[error(transparent)]
    Budget(#[from] BudgetError),
}

/// The allowance file inside a data dir.
pub fn budget_path(data_dir: &Path) -> std::path::PathBuf {
    data_dir.join("budget.json")
}

/// Builds local → Claude → Routstr → built-in. The paid leg is added only when the allowance is above zero, so a
/// zero allowance never opens the wallet (nor creates a seed in the keyring); the built-in leg is always last, so
/// it answers only when no other leg does.
pub async fn build_chain(
    settings: &LegSettings,
    secrets: Arc<Secrets>,
    data_dir: &Path,
    reuse: Reuse,
) -> Result<Built, BuildError> {
    let budget = match reuse.budget {
        Some(budget) => budget,
        None => Arc::new(BudgetStore::open(&budget_path(data_dir))?),
    };
    let mut notices = Vec::new();
    let claude_allowance = match reuse.claude_allowance {
        Some(allowance) => allowance,
        None => Arc::new(ClaudeAllowance::open(data_dir)?),
    };
    // A chain build is where a dead process's Claude requests are counted (only dead ones: a live process's
    // reservations are never touched), and the owner hears it.
    notices.extend(claude_allowance.settle_abandoned(settings.locale));
    let spend = ClaudeSpend { allowance: claude_allowance.clone(), prices: Prices::in_data_dir(data_dir) };
    let mut legs = vec![
        Leg::Local(Ollama::new(settings.ollama.clone())?),
        Leg::Claude(Claude::new(settings.claude.clone(), secrets.clone(), spend)?),
    ];
    let mut wallet = reuse.wallet;
    let mut paying = None;
    let mut paid_discovery = None;
    if budget.get().allowance_sats > 0 {
        let opened = match wallet.clone() {
            Some(existing) => Ok(existing),
            None => {
                let options = WalletOptions {
                    tor_socks: settings.routstr.tor_socks,
                    owner_mints: budget.get().accepted_mints,
                    guard: Guard::new(settings.routstr.address_policy),
                    ..WalletOptions::default()
                };
                open_wallet(data_dir, secrets.clone(), options).await
            }
        };
        match opened {
            Ok(opened) => {
                wallet = Some(opened.clone());
                let payments = Arc::new(
                    Payments::new(opened, budget.clone())
                        .with_refund_access(settings.routstr.address_policy, settings.routstr.tor_socks),
                );
                payments.set_locale(settings.locale);
                match payments.reconcile().await {
                    // Start-up is where old payments are written off: what the owner must hear is shown, not logged.
                    Ok(report) => {
                        if report.checked > 0 {
                            tracing::info!(?report, "reconciled open payments at start-up");
                        }
                        notices.extend(report.notices);
                    }
                    Err(e) => {
                        let error = [("error", e.to_string().into())];
                        notices.push(crate::i18n::text(settings.locale, "registry-reconcile-failed", &error))
                    }
                }
                let discovery = Arc::new(Discovery::new(settings.discovery.clone()));
                paying = Some(payments.clone());
                paid_discovery = Some(discovery.clone());
                legs.push(Leg::Routstr(Box::new(Routstr::new(settings.routstr.clone(), discovery, payments)?)));
            }
            Err(reason) => {
                let reason = [("reason", reason.to_string().into())];
                notices.push(crate::i18n::text(settings.locale, "registry-wallet-unopened", &reason))
            }
        }
    }
    legs.push(Leg::Builtin(Builtin::new(settings.builtin.clone())));
    Ok(Built {
        chain: Chain::new(legs),
        budget,
        claude_allowance,
        wallet,
        payments: paying,
        notices,
        discovery: paid_discovery,
    })
}

/// Opens the wallet off the async threads: its seed is read from the keyring over D-Bus.
async fn open_wallet(data_dir: &Path, secrets: Arc<Secrets>, options: WalletOptions) -> Result<Arc<Wallet>, String> {
    let dir = data_dir.to_owned();
    tokio::task::spawn_blocking(move || {
        tokio::runtime::Handle::current().block_on(Wallet::open_with(&dir, &secrets, options))
    })
    .await
    .map_err(|e| e.to_string())?
    .map(Arc::new)
    .map_err(|e| e.to_string())
}
