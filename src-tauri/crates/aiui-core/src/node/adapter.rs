//! The adapter table: every node RPC method name and result shape the client relies on, in one place.
//!
//! `../shared/specs/archipelago-rpc.md` marks several of these as [assumed]: names and shapes nobody has seen on
//! a real node. They all live here, so that a real node's answer corrects them in one edit. The tools registry
//! is built from [`METHODS`], so a method added here is a method the assistant can learn about.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

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
}

/// Every method the client calls. Order is the order tools are offered in.
pub const METHODS: &[MethodSpec] = &[
    spec(NodeMethod::PackageList, "package.list", None, Effect::Read, Confidence::Assumed),
    spec(NodeMethod::ContainerStatus, "container-status", Some("id"), Effect::Read, Confidence::Documented),
    spec(NodeMethod::ContainerLogs, "container-logs", Some("id"), Effect::Read, Confidence::Documented),
    spec(NodeMethod::BitcoinInfo, "bitcoin.getinfo", None, Effect::Read, Confidence::Assumed),
    spec(NodeMethod::LndInfo, "lnd.getinfo", None, Effect::Read, Confidence::Assumed),
    spec(NodeMethod::SystemStats, "system.stats", None, Effect::Read, Confidence::Assumed),
    spec(NodeMethod::ListMints, "streaming.list-mints", None, Effect::Read, Confidence::Assumed),
    spec(NodeMethod::PackageStart, "package.start", Some("id"), Effect::Act, Confidence::Documented),
    spec(NodeMethod::PackageStop, "package.stop", Some("id"), Effect::Act, Confidence::Documented),
    spec(NodeMethod::PackageRestart, "package.restart", Some("id"), Effect::Act, Confidence::NameOnly),
    spec(NodeMethod::PackageInstall, "package.install", Some("id"), Effect::ActHigh, Confidence::Documented),
    spec(NodeMethod::PackageUninstall, "package.uninstall", Some("id"), Effect::ActHigh, Confidence::Assumed),
];

const fn spec(
    method: NodeMethod,
    rpc_name: &'static str,
    app_param: Option<&'static str>,
    effect: Effect,
    confidence: Confidence,
) -> MethodSpec {
    MethodSpec { method, rpc_name, app_param, effect, confidence }
}

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

/// `package.list` → `{packages:[…]}` [assumed].
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

/// `container-status {id}` → `{status, …}` [doc]; fields past `status` are ours.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ContainerStatus {
    pub status: String,
    #[serde(default)]
    pub exit_code: Option<i32>,
    #[serde(default)]
    pub started_at: Option<String>,
}

/// `container-logs {id, lines}` → `{logs}` [doc]. Whether `logs` is one string or a list of lines was not
/// published, so both are accepted and normalised to lines.
#[derive(Debug, Deserialize)]
pub(crate) struct LogsReply {
    pub logs: LogsField,
}

#[derive(Debug, Deserialize)]
#[serde(untagged)]
pub(crate) enum LogsField {
    Lines(Vec<String>),
    Text(String),
}

impl LogsField {
    pub fn into_lines(self) -> Vec<String> {
        match self {
            Self::Lines(lines) => lines,
            Self::Text(text) => text.lines().map(str::to_owned).collect(),
        }
    }
}

/// `bitcoin.getinfo` [assumed], shaped like bitcoind's `getblockchaininfo`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BitcoinInfo {
    pub chain: String,
    pub blocks: u64,
    pub headers: u64,
    pub verificationprogress: f64,
    pub initialblockdownload: bool,
    pub size_on_disk: u64,
    pub pruned: bool,
}

/// `lnd.getinfo` [assumed].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LndInfo {
    pub alias: String,
    pub num_active_channels: u32,
    pub num_peers: u32,
    pub synced_to_chain: bool,
    pub block_height: u64,
}

/// `system.stats` [assumed].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SystemStats {
    pub cpu_percent: f64,
    pub mem_used: u64,
    pub mem_total: u64,
    pub disk_used: u64,
    pub disk_total: u64,
    #[serde(default)]
    pub temperature_c: Option<f64>,
    pub uptime_s: u64,
}

/// One mint from `streaming.list-mints` → `{mints:[{url,unit,trusted}]}` [assumed shape].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Mint {
    pub url: String,
    pub unit: String,
    pub trusted: bool,
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
        let r: LogsReply = serde_json::from_value(json!({"logs": "a\nb"})).unwrap();
        assert_eq!(r.logs.into_lines(), ["a", "b"]);
        let r: LogsReply = serde_json::from_value(json!({"logs": ["a", "b"]})).unwrap();
        assert_eq!(r.logs.into_lines(), ["a", "b"]);
    }
}
