//! The simulated Bitcoin chain and LND view: a node catching up to the tip as wall time passes.

use std::time::{Duration, SystemTime};

use serde_json::{Value, json};
use sha2::{Digest, Sha256};

/// The header tip when a devnode starts.
pub(crate) const START_TIP: u64 = 889_512;
/// How far the block tip trails the headers at start, so a demo shows sync progress.
pub(crate) const START_BEHIND: u64 = 1_500;
/// Catch-up speed: fast enough to finish in minutes, slow enough to watch.
const CATCH_UP_BLOCKS_PER_SEC: u64 = 3;
const BLOCK_INTERVAL: Duration = Duration::from_secs(600);
const SIZE_AT_START: u64 = 731_482_116_096;
const BYTES_PER_BLOCK: u64 = 1_650_000;

/// The chain as seen from a devnode started at `started`. Everything is a pure function of elapsed time, so
/// tests can ask about any moment.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Chain {
    started: SystemTime,
}

impl Chain {
    pub fn new(started: SystemTime) -> Self {
        Self { started }
    }

    fn elapsed(&self, now: SystemTime) -> Duration {
        now.duration_since(self.started).unwrap_or_default()
    }

    pub fn headers_at(&self, now: SystemTime) -> u64 {
        START_TIP + self.elapsed(now).as_secs() / BLOCK_INTERVAL.as_secs()
    }

    pub fn blocks_at(&self, now: SystemTime) -> u64 {
        let caught_up = START_TIP - START_BEHIND + self.elapsed(now).as_secs() * CATCH_UP_BLOCKS_PER_SEC;
        caught_up.min(self.headers_at(now))
    }

    /// `bitcoin.getinfo`, shaped like bitcoind's `getblockchaininfo`.
    pub fn bitcoin_info(&self, now: SystemTime) -> Value {
        let headers = self.headers_at(now);
        let blocks = self.blocks_at(now);
        let progress = progress(blocks, headers);
        json!({
            "chain": "main",
            "blocks": blocks,
            "headers": headers,
            "verificationprogress": progress,
            "initialblockdownload": progress < 0.9999,
            "size_on_disk": SIZE_AT_START + (blocks - (START_TIP - START_BEHIND)) * BYTES_PER_BLOCK,
            "pruned": false,
        })
    }

    /// `lnd.getinfo`. LND counts itself synced once its backend has the tip.
    pub fn lnd_info(&self, now: SystemTime) -> Value {
        let blocks = self.blocks_at(now);
        json!({
            "alias": "archy-devnode",
            "num_active_channels": 4,
            "num_peers": 7,
            "synced_to_chain": blocks >= self.headers_at(now),
            "block_height": blocks,
        })
    }
}

/// Blocks over headers, as a rough stand-in for bitcoind's transaction-weighted estimate.
fn progress(blocks: u64, headers: u64) -> f64 {
    if headers == 0 { 0.0 } else { (blocks as f64 / headers as f64).min(1.0) }
}

/// A block hash that looks real (leading zeros) and is the same for the same height every time.
pub(crate) fn block_hash(height: u64) -> String {
    let digest = Sha256::digest(height.to_be_bytes());
    format!("00000000000000000000{}", &hex::encode(digest)[..44])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sync_advances_then_stops_at_the_tip() {
        let t0 = SystemTime::UNIX_EPOCH + Duration::from_secs(1_700_000_000);
        let chain = Chain::new(t0);
        let info = chain.bitcoin_info(t0);
        assert_eq!(info["blocks"], START_TIP - START_BEHIND);
        assert_eq!(info["headers"], START_TIP);
        assert_eq!(info["initialblockdownload"], true);
        assert_eq!(chain.lnd_info(t0)["synced_to_chain"], false);

        let later = t0 + Duration::from_secs(10);
        assert_eq!(chain.blocks_at(later), START_TIP - START_BEHIND + 30);

        let synced = t0 + Duration::from_secs(START_BEHIND);
        let info = chain.bitcoin_info(synced);
        assert_eq!(info["blocks"], info["headers"]);
        assert_eq!(info["initialblockdownload"], false);
        assert_eq!(info["verificationprogress"], 1.0);
        assert_eq!(chain.lnd_info(synced)["synced_to_chain"], true);
        assert_eq!(chain.lnd_info(synced)["block_height"], info["blocks"]);

        assert!(chain.blocks_at(t0 - Duration::from_secs(5)) == START_TIP - START_BEHIND, "a clock going back");
    }

    #[test]
    fn hashes_look_like_block_hashes() {
        let h = block_hash(889_512);
        assert_eq!(h.len(), 64);
        assert!(h.starts_with("00000000000000000000"));
        assert_eq!(h, block_hash(889_512));
        assert_ne!(h, block_hash(889_513));
    }
}
