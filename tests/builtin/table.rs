//! The phrasing table for the built-in leg: everyday requests against the demo node's apps, with the tool and app
//! id each must become, or that it must ask (ambiguous) or decline (outside what the leg does).

/// What a request must become.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Expect {
    /// This tool, with this app id when it takes one.
    Call(&'static str, Option<&'static str>),
    /// A clarifying question, no tool call.
    Ask,
    /// The host-written "what I can do", no tool call.
    Decline,
}

use Expect::{Ask, Call, Decline};

pub const TABLE: &[(&str, Expect)] = &[
    // What is running.
    ("what is running?", Call("package_list", None)),
    ("which apps are installed", Call("package_list", None)),
    ("show me all my apps", Call("package_list", None)),
    ("list services", Call("package_list", None)),
    ("give me an overview of what's on my node", Call("package_list", None)),
    // One app's status.
    ("is lnd running?", Call("package_status", Some("lnd"))),
    ("status of bitcoin knots", Call("package_status", Some("bitcoin-knots"))),
    ("how is mempool doing", Call("package_status", Some("mempool"))),
    ("is electrs up", Call("package_status", Some("electrs"))),
    ("check on the BTCPay Server", Call("package_status", Some("btcpay"))),
    // Logs.
    ("show lnd logs", Call("package_logs", Some("lnd"))),
    ("why did electrs crash", Call("package_logs", Some("electrs"))),
    ("logs for Bitcoin Knots please", Call("package_logs", Some("bitcoin-knots"))),
    ("can you show me the log output of the nostr relay", Call("package_logs", Some("nostr-rs-relay"))),
    ("mempool logs", Call("package_logs", Some("mempool"))),
    // Start.
    ("start electrs", Call("package_start", Some("electrs"))),
    ("please start the electrum server", Call("package_start", Some("electrs"))),
    ("turn on mempool", Call("package_start", Some("mempool"))),
    ("launch btcpay", Call("package_start", Some("btcpay"))),
    // Stop.
    ("stop mempool", Call("package_stop", Some("mempool"))),
    ("shut down the nostr relay", Call("package_stop", Some("nostr-rs-relay"))),
    ("please stop bitcoin knots", Call("package_stop", Some("bitcoin-knots"))),
    ("turn off BTCPay", Call("package_stop", Some("btcpay"))),
    // Restart.
    ("restart lnd", Call("package_restart", Some("lnd"))),
    ("Restart LND.", Call("package_restart", Some("lnd"))),
    ("could you restart bitcoin knots for me", Call("package_restart", Some("bitcoin-knots"))),
    ("reboot electrs", Call("package_restart", Some("electrs"))),
    ("restart elektrs", Call("package_restart", Some("electrs"))),
    ("restart the lightning node", Call("package_restart", Some("lnd"))),
    // Install.
    ("install fedimint", Call("package_install", Some("fedimint"))),
    ("please install tailscale", Call("package_install", Some("tailscale"))),
    ("add nextcloud to my node", Call("package_install", Some("nextcloud"))),
    ("instal fedimint guardian", Call("package_install", Some("fedimint"))),
    // Uninstall.
    ("uninstall nextcloud", Call("package_uninstall", Some("nextcloud"))),
    ("remove fedimint", Call("package_uninstall", Some("fedimint"))),
    ("get rid of tailscale", Call("package_uninstall", Some("tailscale"))),
    ("delete the mempool app", Call("package_uninstall", Some("mempool"))),
    // Bitcoin sync.
    ("how far is bitcoin synced", Call("bitcoin_info", None)),
    ("what's the block height", Call("bitcoin_info", None)),
    ("is my node fully synced?", Call("bitcoin_info", None)),
    ("bitcoin sync progress", Call("bitcoin_info", None)),
    // Lightning.
    ("how many lightning channels do I have", Call("lightning_info", None)),
    ("show my lightning peers", Call("lightning_info", None)),
    ("lightning node info", Call("lightning_info", None)),
    // System.
    ("how much disk space is left", Call("system_stats", None)),
    ("what's the cpu usage", Call("system_stats", None)),
    ("memory usage", Call("system_stats", None)),
    ("is the machine running hot?", Call("system_stats", None)),
    // Mints.
    ("which mints are accepted", Call("list_mints", None)),
    ("show cashu mints", Call("list_mints", None)),
    // Chit-chat and everything else.
    ("tell me a joke", Decline),
    ("hello", Decline),
    ("what is the meaning of life", Decline),
    ("write a poem about the weather", Decline),
    // Ambiguous: no app of that name, or no action named.
    ("restart wordpress", Ask),
    ("stop the server", Ask),
];
