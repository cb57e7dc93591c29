//! The apps a fresh devnode has, and the log lines each one prints, so demos and tests look like a real node.

use std::time::{Duration, SystemTime};

use super::PackageState;
use crate::chain;
use crate::time;

/// One app the node offers. `state`, `exit_code` and `started_ago` are how a fresh node has it.
#[derive(Debug)]
pub(crate) struct CatalogueEntry {
    pub id: &'static str,
    pub title: &'static str,
    /// The latest version, installed by default.
    pub version: &'static str,
    pub state: PackageState,
    pub exit_code: Option<i32>,
    pub lan_port: Option<u16>,
    pub started_ago: Option<Duration>,
    /// `(seconds before now, template)` lines the app has already printed.
    seed: &'static [(u64, &'static str)],
    /// What the app prints when it comes up, and when it is asked to stop.
    startup: &'static [&'static str],
    shutdown: &'static [&'static str],
}

pub(crate) static CATALOGUE: &[CatalogueEntry] = &[
    CatalogueEntry {
        id: "bitcoin-knots",
        title: "Bitcoin Knots",
        version: "28.1.knots20250305",
        state: PackageState::Running,
        exit_code: None,
        lan_port: None,
        started_ago: Some(Duration::from_secs(273_600)),
        seed: &[
            (273_600, "{iso} Bitcoin Knots version v{version}"),
            (273_600, "{iso} Using the 'x86_shani(1way,2way)' SHA256 implementation"),
            (273_600, "{iso} Using data directory /data/.bitcoin"),
            (273_600, "{iso} Config file: /data/.bitcoin/bitcoin.conf"),
            (273_599, "{iso} Using at most 125 automatic connections (1048576 file descriptors available)"),
            (273_599, "{iso} * Using 4086.0 MiB for in-memory UTXO set (plus up to 286.1 MiB of unused mempool space)"),
            (273_598, "{iso} init message: Loading block index…"),
            (273_590, "{iso} Verifying last 6 blocks at level 3"),
            (273_589, "{iso} init message: Done loading"),
            (273_589, "{iso} Bound to 0.0.0.0:8333"),
            (273_588, "{iso} New outbound-full-relay v2 peer connected: version: 70016, blocks={tip}, peer=3"),
            (12, "{iso} Synchronizing blockheaders, height: {tip} (~100.00%)"),
            (
                9,
                "{iso} UpdateTip: new best={hash} height={height} version=0x20000000 tx=1143829331 progress=0.998254 cache=612.4MiB(4471028txo)",
            ),
            (
                6,
                "{iso} UpdateTip: new best={hash} height={height} version=0x2fffe000 tx=1143832907 progress=0.998259 cache=613.0MiB(4475118txo)",
            ),
            (
                3,
                "{iso} UpdateTip: new best={hash} height={height} version=0x20e00000 tx=1143836512 progress=0.998263 cache=613.7MiB(4479560txo)",
            ),
        ],
        startup: &[
            "{iso} Bitcoin Knots version v{version}",
            "{iso} init message: Loading block index…",
            "{iso} init message: Done loading",
            "{iso} Bound to 0.0.0.0:8333",
        ],
        shutdown: &["{iso} tor: Thread interrupt", "{iso} Shutdown: In progress...", "{iso} Shutdown: done"],
    },
    CatalogueEntry {
        id: "lnd",
        title: "LND",
        version: "0.18.4-beta",
        state: PackageState::Running,
        exit_code: None,
        lan_port: None,
        started_ago: Some(Duration::from_secs(7980)),
        seed: &[
            (
                7980,
                "{ts} [INF] LTND: Version: {version} commit=v{version}, build=production, logging=default, debuglevel=info",
            ),
            (7980, "{ts} [INF] LTND: Active chain: Bitcoin (network=mainnet)"),
            (7979, "{ts} [INF] RPCS: RPC server listening on 0.0.0.0:10009"),
            (7979, "{ts} [INF] RPCS: gRPC proxy started at 0.0.0.0:8080"),
            (7978, "{ts} [INF] LTND: Opening the main database, this might take a few minutes..."),
            (7976, "{ts} [INF] LTND: Database(s) now open (time_to_open=1.84s)!"),
            (7970, "{ts} [INF] LNWL: Opened wallet"),
            (7969, "{ts} [INF] LNWL: Started listening for bitcoind block notifications via ZMQ on 127.0.0.1:28332"),
            (7968, "{ts} [INF] CHBU: Updating backup file at /data/.lnd/data/chain/bitcoin/mainnet/channel.backup"),
            (7960, "{ts} [INF] SRVR: Server listening on [::]:9735"),
            (
                7955,
                "{ts} [INF] PEER: Peer(03864ef025fde8fb587d989186ce6a4a186895ee44a926bfc370e2c366597a3f8f): Loading ChannelPoint(8f7b3a2c…:1), isPendingClose=false",
            ),
            (7954, "{ts} [INF] HSWC: ChannelLink(8f7b3a2c…:1): starting"),
            (3600, "{ts} [INF] CRTR: Processed channels=3 updates=212 nodes=17 in last 1h0m0s"),
            (600, "{ts} [INF] CHRE: Pruning channel graph using block {hash} (height={height})"),
            (60, "{ts} [INF] CRTR: Processed channels=0 updates=18 nodes=2 in last 59.9s"),
        ],
        startup: &[
            "{ts} [INF] LTND: Version {version} commit=v{version}, build=production, logging=default, debuglevel=info",
            "{ts} [INF] LTND: Active chain: Bitcoin (network=mainnet)",
            "{ts} [INF] RPCS: RPC server listening on 0.0.0.0:10009",
            "{ts} [INF] LNWL: Opened wallet",
            "{ts} [INF] SRVR: Server listening on [::]:9735",
        ],
        shutdown: &["{ts} [INF] LTND: Received terminated", "{ts} [INF] LTND: Shutdown complete"],
    },
    CatalogueEntry {
        id: "electrs",
        title: "Electrs",
        version: "0.10.9",
        state: PackageState::Stopped,
        exit_code: Some(137),
        lan_port: None,
        started_ago: None,
        seed: &[
            (1905, "[{iso} INFO  electrs::server] electrs {version} starting"),
            (1905, "[{iso} INFO  electrs::db] \"/data/electrs/bitcoin\": 241 SST files, 48.213 GB, 1.1832 Grows"),
            (1904, "[{iso} INFO  electrs::chain] loading 885342 headers, tip={hash}"),
            (1899, "[{iso} INFO  electrs::chain] chain updated: tip={hash}, height=885342"),
            (1890, "[{iso} INFO  electrs::index] indexing 2000 blocks: [885343..887342]"),
            (1520, "[{iso} INFO  electrs::index] indexing 2000 blocks: [887343..889342]"),
            (1140, "[{iso} INFO  electrs::chain] chain updated: tip={hash}, height=889342"),
            (1139, "[{iso} INFO  electrs::db] starting full compaction on RocksDB { path: \"/data/electrs/bitcoin\" }"),
            (
                1139,
                "[{iso} INFO  electrs::db] memory usage: 3.71 GB of 4.00 GB container limit (compaction in progress)",
            ),
            (1130, "kernel: electrs invoked oom-killer: gfp_mask=0xcc0(GFP_KERNEL), order=0, oom_score_adj=0"),
            (
                1130,
                "kernel: Memory cgroup out of memory: Killed process 48213 (electrs) total-vm:6281544kB, anon-rss:4128772kB, file-rss:0kB, shmem-rss:0kB, UID:1000 pgtables:8492kB oom_score_adj:0",
            ),
            (1130, "Killed"),
            (
                1129,
                "[electrs] container exited with code 137 (killed by the kernel: out of memory during RocksDB compaction)",
            ),
        ],
        startup: &[
            "[{iso} INFO  electrs::server] electrs {version} starting",
            "[{iso} INFO  electrs::db] \"/data/electrs/bitcoin\": 243 SST files, 48.402 GB, 1.1860 Grows",
            "[{iso} INFO  electrs::chain] chain updated: tip={hash}, height={height}",
            "[{iso} INFO  electrs::server] serving Electrum RPC on 0.0.0.0:50001",
        ],
        shutdown: &[
            "[{iso} INFO  electrs::signals] notified via SIG15",
            "[{iso} INFO  electrs::server] electrs stopped",
        ],
    },
    CatalogueEntry {
        id: "mempool",
        title: "Mempool",
        version: "3.1.0",
        state: PackageState::Running,
        exit_code: None,
        lan_port: Some(4080),
        started_ago: Some(Duration::from_secs(273_505)),
        seed: &[
            (273_505, "{iso} [INFO] Mempool Server is running on port 8999 ({version})"),
            (273_500, "{iso} [INFO] Bitcoin Core RPC connected, backend: esplora via electrum 127.0.0.1:50001"),
            (
                880,
                "{iso} [WARN] Electrum server unreachable (connect ECONNREFUSED 127.0.0.1:50001); address lookups disabled",
            ),
            (600, "{iso} [INFO] Mempool updated: 48213 transactions, 187.4 MvB, min fee 2.01 sat/vB"),
            (300, "{iso} [INFO] Indexed new block #{height} ({hash})"),
            (30, "{iso} [INFO] Mempool updated: 47902 transactions, 185.9 MvB, min fee 2.00 sat/vB"),
        ],
        startup: &[
            "{iso} [INFO] Starting Mempool backend {version}",
            "{iso} [INFO] Mempool Server is running on port 8999 ({version})",
        ],
        shutdown: &["{iso} [INFO] Received SIGTERM, shutting down"],
    },
    CatalogueEntry {
        id: "btcpay",
        title: "BTCPay Server",
        version: "2.0.7",
        state: PackageState::Running,
        exit_code: None,
        lan_port: Some(23000),
        started_ago: Some(Duration::from_secs(273_520)),
        seed: &[
            (273_520, "info: Configuration:  Network: Mainnet"),
            (273_520, "info: Configuration:  Root Path: /"),
            (273_519, "info: BTCPayServer.Plugins.PluginManager: Loading plugins from /datadir/Plugins"),
            (273_515, "info: Microsoft.Hosting.Lifetime: Now listening on: http://0.0.0.0:49392"),
            (273_510, "info: BTCPayServer.HostedServices.NBXplorerWaiter: BTC: NBXplorer is fully synched"),
            (273_505, "info: PayServer:      BTC: Lightning is connected to lnd (0.18.4-beta)"),
        ],
        startup: &[
            "info: Configuration:  Network: Mainnet",
            "info: Microsoft.Hosting.Lifetime: Now listening on: http://0.0.0.0:49392",
            "info: PayServer:      BTCPay Server {version} started",
        ],
        shutdown: &["info: Microsoft.Hosting.Lifetime: Application is shutting down..."],
    },
    CatalogueEntry {
        id: "nostr-rs-relay",
        title: "Nostr Relay",
        version: "0.9.0",
        state: PackageState::Running,
        exit_code: None,
        lan_port: Some(7000),
        started_ago: Some(Duration::from_secs(273_530)),
        seed: &[
            (273_530, "{iso}  INFO nostr_rs_relay: Starting up from main"),
            (273_530, "{iso}  INFO nostr_rs_relay::server: listening on: 0.0.0.0:8080"),
            (273_529, "{iso}  INFO nostr_rs_relay::repo::sqlite: Built a connection pool \"writer\" (min=1, max=2)"),
            (1500, "{iso}  INFO nostr_rs_relay::server: new client connection (cid: 6d0a3c1f, ip: \"192.168.1.23\")"),
            (
                1490,
                "{iso}  INFO nostr_rs_relay::server: client closed connection (cid: 6d0a3c1f) after 10s, events received: 3",
            ),
        ],
        startup: &[
            "{iso}  INFO nostr_rs_relay: Starting up from main",
            "{iso}  INFO nostr_rs_relay::server: listening on: 0.0.0.0:8080",
        ],
        shutdown: &["{iso}  INFO nostr_rs_relay::server: shutting down due to SIGTERM"],
    },
    CatalogueEntry {
        id: "fedimint",
        title: "Fedimint Guardian",
        version: "0.5.1",
        state: PackageState::NotInstalled,
        exit_code: None,
        lan_port: Some(8175),
        started_ago: None,
        seed: &[],
        startup: &[
            "{iso}  INFO fedimintd: Starting fedimintd {version}",
            "{iso}  INFO fedimint_server: Setup UI listening on 0.0.0.0:8175",
        ],
        shutdown: &["{iso}  INFO fedimintd: Shutting down"],
    },
    CatalogueEntry {
        id: "tailscale",
        title: "Tailscale",
        version: "1.80.2",
        state: PackageState::NotInstalled,
        exit_code: None,
        lan_port: None,
        started_ago: None,
        seed: &[],
        startup: &[
            "logtail started",
            "Program starting: v{version}, Go 1.23.6: [\"tailscaled\"]",
            "wgengine: Reconfig: configuring userspace WireGuard config",
        ],
        shutdown: &["tailscaled got signal terminated; shutting down"],
    },
    CatalogueEntry {
        id: "nextcloud",
        title: "Nextcloud",
        version: "30.0.6",
        state: PackageState::NotInstalled,
        exit_code: None,
        lan_port: Some(8081),
        started_ago: None,
        seed: &[],
        startup: &["Initializing nextcloud {version} ...", "AH00094: Command line: 'apache2 -D FOREGROUND'"],
        shutdown: &["AH00169: caught SIGTERM, shutting down"],
    },
];

/// A moment in a package's lifecycle that leaves lines in its log.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Phase {
    Starting,
    Started,
    Stopping,
    Stopped,
    Restarting,
    Restarted,
    Installing,
    Installed,
    Removing,
}

/// The lines an app's log gains at `phase`, stamped `now`.
pub(crate) fn lines(entry: &CatalogueEntry, phase: Phase, version: &str, now: SystemTime, height: u64) -> Vec<String> {
    let id = entry.id;
    let up = || entry.startup.iter().copied().chain(["[{id}] Started"]);
    let down = || entry.shutdown.iter().copied().chain(["[{id}] Stopped"]);
    let templates: Vec<&str> = match phase {
        Phase::Starting => vec!["[{id}] Starting…"],
        Phase::Started => up().collect(),
        Phase::Stopping => vec!["[{id}] Stopping…"],
        Phase::Stopped => down().collect(),
        Phase::Restarting => vec!["[{id}] Restarting…", "[{id}] Stopping…"],
        Phase::Restarted => down().chain(["[{id}] Starting…"]).chain(up()).collect(),
        Phase::Installing => {
            vec!["[{id}] Installing {version}…", "[{id}] Pulling image ghcr.io/archipelago-os/{id}:{version}…"]
        }
        Phase::Installed => ["[{id}] Image pulled; creating container"].into_iter().chain(up()).collect(),
        Phase::Removing => vec!["[{id}] Removing container and data…"],
    };
    templates.into_iter().map(|t| fill(t, id, version, now, height)).collect()
}

/// The log an app has on a fresh node: its seed lines stamped back from `now`.
pub(crate) fn seed_logs(entry: &CatalogueEntry, now: SystemTime) -> Vec<String> {
    let tip = chain::START_TIP;
    entry
        .seed
        .iter()
        .map(|(ago, template)| {
            let at = now - Duration::from_secs(*ago);
            // Heights count back from the start-up tip, about one block per second of catch-up.
            let height = tip - chain::START_BEHIND - ago.min(&chain::START_BEHIND);
            fill(template, entry.id, entry.version, at, height).replace("{tip}", &tip.to_string())
        })
        .collect()
}

fn fill(template: &str, id: &str, version: &str, at: SystemTime, height: u64) -> String {
    template
        .replace("{id}", id)
        .replace("{version}", version)
        .replace("{iso}", &time::rfc3339(at))
        .replace("{ts}", &time::log_stamp(at))
        .replace("{height}", &height.to_string())
        .replace("{hash}", &chain::block_hash(height))
}
