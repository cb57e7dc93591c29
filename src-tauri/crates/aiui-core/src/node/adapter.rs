//! The adapter table: every node RPC method name and result shape the client relies on, in one place.
//!
//! `../shared/specs/archipelago-rpc.md` marks several of these as [assumed]: names and shapes nobody has seen on
//! a real node. They all live here, so that a real node's answer corrects them in one edit. The tools registry
//! is built from [`METHODS`], so a method added here is a method the assistant can learn about.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

use super::shape::{Field, Kind, Need, Shape};

/// How sure we are of a method's name and shape.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Confidence {
    /// Confirmed in the project's published pages.
    Documented,
    /// The name was seen; the shape is ours.
    NameOnly,
    /// Neither was published: our guess, to be checked against a real node.
    Assumed,
}

/// Whether a call only reads the node or changes it. The gate reads this; it never matches on names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Effect {
    Read,
    Act,
    /// Installs, removes or reconfigures: harder to undo.
    ActHigh,
}

/// The node methods AIUI uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum NodeMethod {
    PackageList,
    PackageStart,
    PackageStop,
    PackageRestart,
    PackageInstall,
    PackageUninstall,
    ContainerLogs,
    ContainerStatus,
    BitcoinInfo,
    LndInfo,
    SystemStats,
    ListMints,
}

/// One row of the table.
#[derive(Debug, Clone, Copy)]
pub struct MethodSpec {
    pub method: NodeMethod,
    /// The wire name sent as `"method"`.
    pub rpc_name: &'static str,
    /// The parameter that names the app, where the method takes one (the node drifts between `id` and `app_id`).
    pub app_param: Option<&'static str>,
    pub effect: Effect,
    pub confidence: Confidence,
    /// What the answer looks like: a read's lenient shape, or an action's strict acknowledgement.
    pub result: ResultShape,
}

/// How a method's answer is read.
#[derive(Debug, Clone, Copy)]
pub enum ResultShape {
    /// Read leniently through this shape (see `node/shape.rs`).
    Read(&'static Shape),
    /// Strictly `{"ok": true}` [doc]: an action whose answer cannot be understood is never reported as done.
    Ack,
}

/// Every method the client calls. Order is the order tools are offered in.
pub const METHODS: &[MethodSpec] = &[
    read(NodeMethod::PackageList, "package.list", None, Confidence::Assumed, &PACKAGE_LIST),
    read(NodeMethod::ContainerStatus, "container-status", Some("id"), Confidence::Documented, &CONTAINER_STATUS),
    read(NodeMethod::ContainerLogs, "container-logs", Some("id"), Confidence::Documented, &CONTAINER_LOGS),
    read(NodeMethod::BitcoinInfo, "bitcoin.getinfo", None, Confidence::Assumed, &BITCOIN_INFO),
    read(NodeMethod::LndInfo, "lnd.getinfo", None, Confidence::Assumed, &LND_INFO),
    read(NodeMethod::SystemStats, "system.stats", None, Confidence::Assumed, &SYSTEM_STATS),
    read(NodeMethod::ListMints, "streaming.list-mints", None, Confidence::Assumed, &MINT_LIST),
    act(NodeMethod::PackageStart, "package.start", Effect::Act, Confidence::Documented),
    act(NodeMethod::PackageStop, "package.stop", Effect::Act, Confidence::Documented),
    act(NodeMethod::PackageRestart, "package.restart", Effect::Act, Confidence::NameOnly),
    act(NodeMethod::PackageInstall, "package.install", Effect::ActHigh, Confidence::Documented),
    act(NodeMethod::PackageUninstall, "package.uninstall", Effect::ActHigh, Confidence::Assumed),
];

const fn read(
    method: NodeMethod,
    rpc_name: &'static str,
    app_param: Option<&'static str>,
    confidence: Confidence,
    shape: &'static Shape,
) -> MethodSpec {
    MethodSpec { method, rpc_name, app_param, effect: Effect::Read, confidence, result: ResultShape::Read(shape) }
}

/// Every action names its app as `id` [doc] and answers `{ok}`.
const fn act(method: NodeMethod, rpc_name: &'static str, effect: Effect, confidence: Confidence) -> MethodSpec {
    MethodSpec { method, rpc_name, app_param: Some("id"), effect, confidence, result: ResultShape::Ack }
}

const fn field(name: &'static str, aliases: &'static [&'static str], kind: Kind, need: Need) -> Field {
    Field { name, aliases, kind, need }
}

// The result shapes. Only what a feature cannot work without is `Required`; the aliases are names a node was
// seen or guessed to use instead (case style and `_`/`-` never matter). All of it is [assumed] unless the
// method's row says [doc], and even then only the field the spec names.

/// `package.list` → `{packages:[{id,title,version,state,health,exit_code?,lan_address?}]}` [assumed].
pub const PACKAGE_LIST: Shape = Shape::List {
    key: "packages",
    aliases: &["apps", "items"],
    entry: &[
        field("id", &["app_id", "package_id"], Kind::Text, Need::Required),
        field("title", &["name", "display_name"], Kind::Text, Need::DefaultFrom("id")),
        field("version", &["app_version"], Kind::Text, Need::Default("unknown")),
        field("state", &["status"], Kind::State, Need::Default("unknown")),
        field("health", &[], Kind::Text, Need::Optional),
        field("exit_code", &["exit_status"], Kind::Integer, Need::Optional),
        field("lan_address", &["lan_url", "address"], Kind::Text, Need::Optional),
    ],
};

/// `container-status {id}` → `{status, …}` [doc]; the fields past `status` are ours.
pub const CONTAINER_STATUS: Shape = Shape::Object {
    fields: &[
        field("status", &["state"], Kind::State, Need::Required),
        field("exit_code", &["exit_status"], Kind::Integer, Need::Optional),
        field("started_at", &["started"], Kind::Text, Need::Optional),
    ],
    any_of: false,
};

/// `container-logs {id, lines}` → `{logs}` [doc]; one string or a list of lines, both taken.
pub const CONTAINER_LOGS: Shape =
    Shape::Object { fields: &[field("logs", &["lines", "log"], Kind::Lines, Need::Required)], any_of: false };

/// `bitcoin.getinfo` [assumed], shaped like bitcoind's `getblockchaininfo`. The sync card needs the height.
pub const BITCOIN_INFO: Shape = Shape::Object {
    fields: &[
        field("chain", &["network"], Kind::Text, Need::Default("unknown")),
        field("blocks", &["block_height", "height"], Kind::Count, Need::Required),
        field("headers", &["header_height"], Kind::Count, Need::Optional),
        field("verificationprogress", &["progress", "sync_progress"], Kind::Number, Need::Optional),
        field("initialblockdownload", &["ibd"], Kind::Flag, Need::Optional),
        field("size_on_disk", &["disk_size"], Kind::Count, Need::Optional),
        field("pruned", &[], Kind::Flag, Need::Optional),
    ],
    any_of: false,
};

/// `lnd.getinfo` [assumed]. Any one of its fields is worth showing; an object with none is not LND's answer.
pub const LND_INFO: Shape = Shape::Object {
    fields: &[
        field("alias", &[], Kind::Text, Need::Optional),
        field("num_active_channels", &["active_channels", "channels"], Kind::Count, Need::Optional),
        field("num_peers", &["peers"], Kind::Count, Need::Optional),
        field("synced_to_chain", &["synced"], Kind::Flag, Need::Optional),
        field("block_height", &["height", "blocks"], Kind::Count, Need::Optional),
    ],
    any_of: true,
};

/// `system.stats` [assumed]. Any one of its fields is worth showing.
pub const SYSTEM_STATS: Shape = Shape::Object {
    fields: &[
        field("cpu_percent", &["cpu", "cpu_usage"], Kind::Number, Need::Optional),
        field("mem_used", &["memory_used"], Kind::Count, Need::Optional),
        field("mem_total", &["memory_total"], Kind::Count, Need::Optional),
        field("disk_used", &[], Kind::Count, Need::Optional),
        field("disk_total", &[], Kind::Count, Need::Optional),
        field("temperature_c", &["temperature", "temp"], Kind::Number, Need::Optional),
        field("uptime_s", &["uptime", "uptime_seconds"], Kind::Count, Need::Optional),
    ],
    any_of: true,
};

/// `streaming.list-mints` → `{mints:[{url,unit,trusted}]}` [assumed shape]. A mint is nothing without its URL.
pub const MINT_LIST: Shape = Shape::List {
    key: "mints",
    aliases: &[],
    entry: &[
        field("url", &["mint_url"], Kind::Text, Need::Required),
        field("unit", &[], Kind::Text, Need::Default("sat")),
        field("trusted", &[], Kind::Flag, Need::Optional),
    ],
};

/// Authentication methods, which are not tools and never reach the assistant.
pub(crate) const AUTH_LOGIN: &str = "auth.login";
pub(crate) const AUTH_LOGIN_TOTP: &str = "auth.login.totp";
pub(crate) const AUTH_LOGOUT: &str = "auth.logout";
/// The session cookie and the readable double-submit CSRF cookie, and the header that echoes the latter.
pub(crate) const SESSION_COOKIE: &str = "archipelago_session";
pub(crate) const CSRF_COOKIE: &str = "csrf_token";
pub(crate) const CSRF_HEADER: &str = "X-CSRF-Token";

impl NodeMethod {
    pub fn spec(self) -> &'static MethodSpec {
        METHODS.iter().find(|s| s.method == self).expect("every NodeMethod has a row in METHODS (checked by a test)")
    }

    /// Builds the params object: the app id under the node's name for it, then any extras.
    pub fn params(self, app: Option<&str>, extra: Map<String, Value>) -> Value {
        let mut params = Map::new();
        if let (Some(key), Some(app)) = (self.spec().app_param, app) {
            params.insert(key.to_owned(), json!(app));
        }
        params.extend(extra);
        Value::Object(params)
    }
}

/// A package's lifecycle state. Unknown states are kept as they came, not failed on: the node adds states.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PackageState {
    Running,
    Stopped,
    Starting,
    Stopping,
    Restarting,
    Installing,
    Updating,
    Removing,
    NotInstalled,
    #[serde(untagged)]
    Other(String),
}

impl PackageState {
    /// True while the node is still moving the package between states.
    pub fn is_transitional(&self) -> bool {
        matches!(
            self,
            Self::Starting | Self::Stopping | Self::Restarting | Self::Installing | Self::Updating | Self::Removing
        )
    }
}

/// One app from `package.list`. Only `id` is required; see [`PACKAGE_LIST`] for the defaults.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Package {
    pub id: String,
    pub title: String,
    pub version: String,
    pub state: PackageState,
    #[serde(default)]
    pub health: Option<String>,
    /// 137 means the kernel killed it for memory; any other non-zero code is a crash.
    #[serde(default)]
    pub exit_code: Option<i32>,
    #[serde(default)]
    pub lan_address: Option<String>,
}

#[derive(Debug, Deserialize)]
pub(crate) struct PackageListReply {
    pub packages: Vec<Package>,
}

/// `container-status {id}`, read through [`CONTAINER_STATUS`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ContainerStatus {
    pub status: String,
    #[serde(default)]
    pub exit_code: Option<i32>,
    #[serde(default)]
    pub started_at: Option<String>,
}

/// `container-logs {id, lines}`, read through [`CONTAINER_LOGS`] (always as lines).
#[derive(Debug, Deserialize)]
pub(crate) struct LogsReply {
    pub logs: Vec<String>,
}

/// `bitcoin.getinfo`, read through [`BITCOIN_INFO`]: the height is known, the rest may not be.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BitcoinInfo {
    pub chain: String,
    pub blocks: u64,
    pub headers: Option<u64>,
    pub verificationprogress: Option<f64>,
    pub initialblockdownload: Option<bool>,
    pub size_on_disk: Option<u64>,
    pub pruned: Option<bool>,
}

impl BitcoinInfo {
    /// The node's own progress figure, else blocks over headers when both are known.
    pub fn progress(&self) -> Option<f64> {
        self.verificationprogress
            .or_else(|| self.headers.filter(|h| *h > 0).map(|h| (self.blocks as f64 / h as f64).min(1.0)))
    }
}

/// `lnd.getinfo`, read through [`LND_INFO`]: any field may be absent.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LndInfo {
    pub alias: Option<String>,
    pub num_active_channels: Option<u64>,
    pub num_peers: Option<u64>,
    pub synced_to_chain: Option<bool>,
    pub block_height: Option<u64>,
}

/// `system.stats`, read through [`SYSTEM_STATS`]: any field may be absent.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SystemStats {
    pub cpu_percent: Option<f64>,
    pub mem_used: Option<u64>,
    pub mem_total: Option<u64>,
    pub disk_used: Option<u64>,
    pub disk_total: Option<u64>,
    pub temperature_c: Option<f64>,
    pub uptime_s: Option<u64>,
}

/// One mint from `streaming.list-mints`, read through [`MINT_LIST`]. `trusted` is `None` when the node did
/// not say.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Mint {
    pub url: String,
    pub unit: String,
    pub trusted: Option<bool>,
}

#[derive(Debug, Deserialize)]
pub(crate) struct MintListReply {
    pub mints: Vec<Mint>,
}

/// `auth.login` → `{ok, totp_required?}` [doc].
#[derive(Debug, Deserialize)]
pub(crate) struct LoginReply {
    #[serde(default)]
    pub totp_required: bool,
}

/// `GET /health` [doc]; its body was not published, so it is kept as whatever JSON or text came back.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Health {
    pub status: u16,
    pub body: Value,
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::*;

    #[test]
    fn every_method_has_exactly_one_row() {
        let mut seen = HashSet::new();
        for row in METHODS {
            assert!(seen.insert(row.method), "{:?} appears twice", row.method);
            assert_eq!(row.method.spec().rpc_name, row.rpc_name);
        }
        assert_eq!(seen.len(), 12, "a NodeMethod variant is missing from METHODS");
    }

    #[test]
    fn params_use_the_table_name_for_the_app() {
        let p = NodeMethod::ContainerLogs.params(Some("lnd"), Map::from_iter([("lines".into(), json!(50))]));
        assert_eq!(p, json!({"id": "lnd", "lines": 50}));
        assert_eq!(NodeMethod::PackageList.params(Some("ignored"), Map::new()), json!({}));
    }

    #[test]
    fn unknown_states_survive_and_logs_take_both_shapes() {
        let s: PackageState = serde_json::from_value(json!("backing-up")).unwrap();
        assert_eq!(s, PackageState::Other("backing-up".into()));
        for answer in [json!({"logs": "a\nb"}), json!({"logs": ["a", "b"]})] {
            let reading = super::super::shape::read(&CONTAINER_LOGS, &answer).unwrap();
            let r: LogsReply = serde_json::from_value(reading.canonical).unwrap();
            assert_eq!(r.logs, ["a", "b"]);
        }
    }
}
