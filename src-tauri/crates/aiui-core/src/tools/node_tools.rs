//! The node tools: their descriptions and argument types, and how each runs against the node client.

use schemars::JsonSchema;
use serde_json::{Value, json};

use super::{Surface, ValidatedCall};
use crate::node::adapter::{LogsReply, MintListReply, PackageListReply};
use crate::node::{Drift, NodeClient, NodeError, NodeMethod};

/// A tool that names one app.
#[derive(JsonSchema)]
#[serde(deny_unknown_fields)]
#[allow(dead_code, reason = "only the schema is used; validated arguments stay JSON")]
struct AppArgs {
    /// The app's id exactly as in the package list, e.g. "lnd" or "bitcoin-knots".
    #[schemars(regex(pattern = r"^[a-z0-9][a-z0-9-]{0,63}$"))]
    id: String,
}

#[derive(JsonSchema)]
#[serde(deny_unknown_fields)]
#[allow(dead_code, reason = "only the schema is used; validated arguments stay JSON")]
struct LogsArgs {
    /// The app's id exactly as in the package list, e.g. "lnd".
    #[schemars(regex(pattern = r"^[a-z0-9][a-z0-9-]{0,63}$"))]
    id: String,
    /// How many of the newest lines to read (default 100).
    #[schemars(range(min = 1, max = 500))]
    lines: Option<u32>,
}

#[derive(JsonSchema)]
#[serde(deny_unknown_fields)]
#[allow(dead_code, reason = "only the schema is used; validated arguments stay JSON")]
struct InstallArgs {
    /// The app's id from the package list, e.g. "fedimint".
    #[schemars(regex(pattern = r"^[a-z0-9][a-z0-9-]{0,63}$"))]
    id: String,
    /// A specific version; omit for the latest.
    #[schemars(regex(pattern = r"^[0-9A-Za-z.+-]{1,32}$"))]
    version: Option<String>,
}

#[derive(JsonSchema)]
#[serde(deny_unknown_fields)]
#[allow(dead_code, reason = "only the schema is used; validated arguments stay JSON")]
struct NoArgs {}

pub(super) struct CatalogueEntry {
    pub name: &'static str,
    pub description: &'static str,
    pub schema: Value,
}

fn schema<T: JsonSchema>() -> Value {
    let mut value =
        serde_json::to_value(schemars::schema_for!(T)).unwrap_or_else(|e| panic!("a schema serializes: {e}"));
    if let Some(map) = value.as_object_mut() {
        // Model APIs want the bare object schema; the meta-schema URI and the Rust type name mean nothing to them.
        map.remove("$schema");
        map.remove("title");
    }
    value
}

/// Name, description and schema for each node method. Descriptions are written for a model: what the tool is
/// for, and when to use it.
pub(super) fn catalogue(method: NodeMethod) -> CatalogueEntry {
    let (name, description, schema) = match method {
        NodeMethod::PackageList => (
            "package_list",
            "List every app on the node with its state (running, stopped, starting, ...), health, version and exit code. Use it first to answer questions about what is installed or running.",
            schema::<NoArgs>(),
        ),
        NodeMethod::ContainerStatus => (
            "package_status",
            "Show one app's container status, exit code and start time. Use it to check a single app.",
            schema::<AppArgs>(),
        ),
        NodeMethod::ContainerLogs => (
            "package_logs",
            "Read the newest log lines of one app. Use it to find out why an app crashed or misbehaves (exit code 137 means it was killed for memory).",
            schema::<LogsArgs>(),
        ),
        NodeMethod::BitcoinInfo => (
            "bitcoin_info",
            "Show the Bitcoin node's chain, block height, header height and verification (sync) progress.",
            schema::<NoArgs>(),
        ),
        NodeMethod::LndInfo => (
            "lightning_info",
            "Show the Lightning (LND) node's alias, active channels, peers and whether it is synced to the chain.",
            schema::<NoArgs>(),
        ),
        NodeMethod::SystemStats => {
            ("system_stats", "Show the machine's CPU, memory and disk use, temperature and uptime.", schema::<NoArgs>())
        }
        NodeMethod::ListMints => {
            ("list_mints", "List the Cashu mints the node is configured to accept.", schema::<NoArgs>())
        }
        NodeMethod::PackageStart => {
            ("package_start", "Start a stopped app. The owner is asked to confirm before it runs.", schema::<AppArgs>())
        }
        NodeMethod::PackageStop => (
            "package_stop",
            "Stop a running app. Apps that depend on it stop working. The owner is asked to confirm before it runs.",
            schema::<AppArgs>(),
        ),
        NodeMethod::PackageRestart => (
            "package_restart",
            "Restart an app, e.g. after a crash. The owner is asked to confirm before it runs.",
            schema::<AppArgs>(),
        ),
        NodeMethod::PackageInstall => (
            "package_install",
            "Install an app that is not installed yet. The owner is asked to confirm before it runs.",
            schema::<InstallArgs>(),
        ),
        NodeMethod::PackageUninstall => (
            "package_uninstall",
            "Uninstall an app. This is hard to undo. The owner is asked to confirm before it runs.",
            schema::<AppArgs>(),
        ),
    };
    CatalogueEntry { name, description, schema }
}

/// What a tool returned: the text for the model, the card for the owner, and what the owner should know about
/// the answer (entries of a list the node sent that could not be read).
#[derive(Debug, Clone)]
pub struct ToolOutput {
    /// Compact JSON the model reads.
    pub content: String,
    pub surface: Surface,
    pub notes: Vec<String>,
}

impl ToolOutput {
    fn of(surface: Surface, notes: Vec<String>) -> Self {
        let content = serde_json::to_string(&surface).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"));
        Self { content, surface, notes }
    }
}

/// Runs a validated call against the node. For act tools, the caller must have the owner's approval first: the
/// loop only calls this after the gate said yes, and `request_id` ties the receipt to that approval.
pub async fn execute(
    node: &NodeClient,
    call: &ValidatedCall<'_>,
    request_id: Option<&str>,
) -> Result<ToolOutput, NodeError> {
    let app = call.app().unwrap_or_default();
    let method = call.tool.method;
    let spec = method.spec();
    let none = serde_json::Map::new;
    let (surface, drift) = match method {
        NodeMethod::PackageList => {
            let read = node.read_typed::<PackageListReply>(method, None, none()).await?;
            (Surface::PackageList { packages: read.value.packages }, read.drift)
        }
        // `package_status` shows the package's card from the list, which carries more than `container-status`.
        NodeMethod::ContainerStatus => {
            let read = node.read_typed::<PackageListReply>(NodeMethod::PackageList, None, none()).await?;
            match read.value.packages.into_iter().find(|p| p.id == app) {
                Some(package) => (Surface::PackageCard { package }, read.drift),
                None => {
                    return Err(NodeError::Rpc {
                        method: spec.rpc_name.into(),
                        status: 404,
                        message: format!("no package `{app}`"),
                    });
                }
            }
        }
        NodeMethod::ContainerLogs => {
            let lines = call.arguments.get("lines").and_then(Value::as_u64).unwrap_or(100);
            let extra = serde_json::Map::from_iter([("lines".to_owned(), json!(lines))]);
            let read = node.read_typed::<LogsReply>(method, Some(app), extra).await?;
            (Surface::LogTail { app: app.to_owned(), lines: read.value.logs }, read.drift)
        }
        NodeMethod::BitcoinInfo => {
            let read = node.read_typed(method, None, none()).await?;
            (Surface::BitcoinSync { info: read.value }, read.drift)
        }
        NodeMethod::LndInfo => {
            let read = node.read_typed(method, None, none()).await?;
            (Surface::LightningInfo { info: read.value }, read.drift)
        }
        NodeMethod::SystemStats => {
            let read = node.read_typed(method, None, none()).await?;
            (Surface::SystemStats { stats: read.value }, read.drift)
        }
        NodeMethod::ListMints => {
            let read = node.read_typed::<MintListReply>(method, None, none()).await?;
            (Surface::MintList { mints: read.value.mints }, read.drift)
        }
        NodeMethod::PackageStart
        | NodeMethod::PackageStop
        | NodeMethod::PackageRestart
        | NodeMethod::PackageInstall
        | NodeMethod::PackageUninstall => return act(node, call, request_id).await,
    };
    Ok(ToolOutput::of(surface, skipped_notes(method, &drift)))
}

/// Runs an approved action; only the node's clear `{ok: true}` makes a receipt.
async fn act(node: &NodeClient, call: &ValidatedCall<'_>, request_id: Option<&str>) -> Result<ToolOutput, NodeError> {
    let app = call.app().unwrap_or_default();
    let method = call.tool.method;
    let spec = method.spec();
    let mut extra = serde_json::Map::new();
    if let Some(version) = call.arguments.get("version") {
        extra.insert("version".into(), version.clone());
    }
    node.act(method, app, extra).await?;
    let state = node.list_packages().await.ok().and_then(|ps| ps.into_iter().find(|p| p.id == app)).map(|p| p.state);
    let surface = Surface::ActionReceipt {
        request_id: request_id.unwrap_or_default().to_owned(),
        tool: call.tool.name.to_owned(),
        rpc_method: spec.rpc_name.to_owned(),
        app: app.to_owned(),
        outcome: match &state {
            Some(state) => format!("accepted; `{app}` is now {}", json!(state).as_str().unwrap_or("changed")),
            None => "accepted".to_owned(),
        },
        state,
    };
    Ok(ToolOutput::of(surface, Vec::new()))
}

/// One line for the owner when entries of a list were skipped: which method, how many, and why.
fn skipped_notes(method: NodeMethod, drift: &Drift) -> Vec<String> {
    if drift.skipped.is_empty() {
        return Vec::new();
    }
    vec![format!(
        "The node's answer to `{}` had {} of {} entries that could not be read, so they are not shown: {}.",
        method.spec().rpc_name,
        drift.skipped.len(),
        drift.entries,
        drift.skipped.join("; ")
    )]
}
