//! Surfaces: typed cards the UI draws from tool results. The model supplies data, never markup.

use serde::{Deserialize, Serialize};

use crate::node::{BitcoinInfo, LndInfo, Mint, Package, PackageState, SystemStats};

/// One card for the owner. Every shell (desktop, kiosk, web, terminal) draws these from the data alone.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Surface {
    PackageList {
        packages: Vec<Package>,
    },
    PackageCard {
        package: Package,
    },
    LogTail {
        app: String,
        lines: Vec<String>,
    },
    BitcoinSync {
        info: BitcoinInfo,
    },
    LightningInfo {
        info: LndInfo,
    },
    SystemStats {
        stats: SystemStats,
    },
    MintList {
        mints: Vec<Mint>,
    },
    /// What an approved action did, tied to its confirmation.
    ActionReceipt {
        request_id: String,
        tool: String,
        rpc_method: String,
        app: String,
        /// For the model and the terminal, in English: "accepted; `lnd` is now restarting".
        outcome: String,
        /// The app's state the node reported after it accepted, when it could be read: what the pages and the
        /// built-in leg say in the owner's language. Absent in receipts stored before it was kept.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        state: Option<PackageState>,
    },
}
