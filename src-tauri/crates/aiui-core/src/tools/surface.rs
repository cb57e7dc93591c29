//! Surfaces: typed cards the UI draws from tool results. The model supplies data, never markup.

use serde::{Deserialize, Serialize};

use crate::node::{BitcoinInfo, LndInfo, Mint, Package, SystemStats};

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
        outcome: String,
    },
}
