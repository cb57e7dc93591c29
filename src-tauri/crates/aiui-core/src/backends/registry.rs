//! Building the D-04 chain from settings: the one place the legs are constructed, for every shell.

use std::path::Path;
use std::sync::Arc;

use super::chain::{Chain, Leg};
use super::claude::{Claude, ClaudeConfig};
use super::ollama::{Ollama, OllamaConfig};
use super::routstr::{Routstr, RoutstrConfig};
use crate::budget::{BudgetError, BudgetStore};
use crate::net::ClientBuildError;
use crate::pay::discovery::{Discovery, DiscoveryConfig};
use crate::pay::{Payments, Wallet};
use crate::secrets::Secrets;

/// Where each leg is and how it behaves.
#[derive(Debug, Clone, Default)]
pub struct LegSettings {
    pub ollama: OllamaConfig,
    pub claude: ClaudeConfig,
    pub routstr: RoutstrConfig,
    pub discovery: DiscoveryConfig,
}

/// A chain ready for the loop, the allowance it pays from, and what the owner should know about it.
#[derive(Debug)]
pub struct Built {
    pub chain: Chain,
    pub budget: Arc<BudgetStore>,
    /// E.g. that paid help is off because the wallet could not be opened.
    pub notices: Vec<String>,
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

/// Builds local → Claude → Routstr. The paid leg is added only when the allowance is above zero, so a zero
/// allowance never opens the wallet (nor creates a seed in the keyring).
pub async fn build_chain(settings: &LegSettings, secrets: Arc<Secrets>, data_dir: &Path) -> Result<Built, BuildError> {
    let budget = Arc::new(BudgetStore::open(&budget_path(data_dir))?);
    let mut legs = vec![
        Leg::Local(Ollama::new(settings.ollama.clone())?),
        Leg::Claude(Claude::new(settings.claude.clone(), secrets.clone())?),
    ];
    let mut notices = Vec::new();
    if budget.get().allowance_sats > 0 {
        let opened = {
            let secrets = secrets.clone();
            let dir = data_dir.to_owned();
            // The keyring read blocks on D-Bus.
            tokio::task::spawn_blocking(move || {
                tokio::runtime::Handle::current().block_on(Wallet::open(&dir, &secrets))
            })
            .await
        };
        match opened {
            Ok(Ok(wallet)) => {
                let payments = Arc::new(Payments::new(Arc::new(wallet), budget.clone()));
                match payments.reconcile().await {
                    Ok(report) if report.checked > 0 => tracing::info!(?report, "reconciled open payments at start-up"),
                    Ok(_) => {}
                    Err(e) => {
                        notices.push(format!("Open payments could not be checked yet ({e}); they stay recorded."))
                    }
                }
                let discovery = Arc::new(Discovery::new(settings.discovery.clone()));
                legs.push(Leg::Routstr(Box::new(Routstr::new(settings.routstr.clone(), discovery, payments)?)));
            }
            Ok(Err(e)) => notices.push(format!("Paid help (Routstr) is off: the wallet could not be opened ({e}).")),
            Err(e) => notices.push(format!("Paid help (Routstr) is off: {e}.")),
        }
    }
    Ok(Built { chain: Chain::new(legs), budget, notices })
}
