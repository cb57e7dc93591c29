//! The authenticated methods: packages, their logs and status, chain and LND info, machine stats, mints.

use std::sync::Arc;
use std::time::SystemTime;

use axum::http::StatusCode;
use serde_json::{Map, Value, json};

use super::{Method, Reply, RpcError};
use crate::packages::{Action, PackageError, PackageState};
use crate::state::{ActError, NodeState, lock};
use crate::system;

const DEFAULT_LOG_LINES: u64 = 100;
const MAX_LOG_LINES: u64 = 1000;
/// What the apps other than Bitcoin take on disk, on top of the chain.
const OTHER_DISK_USE: u64 = 68_719_476_736;

pub(super) fn call(
    node: &Arc<NodeState>,
    method: Method,
    params: &Map<String, Value>,
    now: SystemTime,
) -> Result<Reply, RpcError> {
    let result = match method {
        Method::PackageList => {
            let packages = lock(&node.packages);
            json!({ "packages": packages.iter().map(|p| p.to_json()).collect::<Vec<_>>() })
        }
        Method::PackageStart => act(node, method, params, Action::Start)?,
        Method::PackageStop => act(node, method, params, Action::Stop)?,
        Method::PackageRestart => act(node, method, params, Action::Restart)?,
        Method::PackageInstall => act(node, method, params, Action::Install)?,
        Method::PackageUninstall => act(node, method, params, Action::Uninstall)?,
        Method::ContainerLogs => {
            let id = app_id(method, params)?;
            let lines = log_lines(params)?;
            let packages = lock(&node.packages);
            json!({ "logs": packages.get(id).map_err(package_error)?.logs.tail(lines) })
        }
        Method::ContainerStatus => {
            let id = app_id(method, params)?;
            lock(&node.packages).get(id).map_err(package_error)?.status_json()
        }
        Method::BitcoinInfo => {
            require_running(node, "bitcoin-knots")?;
            node.chain.bitcoin_info(now)
        }
        Method::LndInfo => {
            require_running(node, "lnd")?;
            node.chain.lnd_info(now)
        }
        Method::SystemStats => {
            let running = lock(&node.packages).iter().filter(|p| p.state == PackageState::Running).count();
            let chain_size = node.chain.bitcoin_info(now)["size_on_disk"].as_u64().unwrap_or(0);
            system::stats(node.started, now, running, chain_size + OTHER_DISK_USE)
        }
        Method::ListMints => {
            let mints: Vec<Value> =
                node.mints.iter().map(|m| json!({ "url": m.url, "unit": m.unit, "trusted": m.trusted })).collect();
            json!({ "mints": mints })
        }
        Method::Login | Method::LoginTotp | Method::Logout | Method::IsOnboardingComplete => {
            return Err(RpcError::new(StatusCode::INTERNAL_SERVER_ERROR, "auth methods are answered elsewhere"));
        }
    };
    Ok(Reply::new(crate::shapes::reshape(*lock(&node.shapes), method.name(), result)))
}

fn act(node: &Arc<NodeState>, method: Method, params: &Map<String, Value>, action: Action) -> Result<Value, RpcError> {
    let id = app_id(method, params)?;
    let version = match params.get("version") {
        None | Some(Value::Null) => None,
        Some(Value::String(v)) if !v.trim().is_empty() => Some(v.trim()),
        Some(_) => {
            return Err(RpcError::bad_params(format!(
                "params.version of `{}` must be a version string, e.g. \"0.18.4-beta\"",
                method.name()
            )));
        }
    };
    node.act(id, action, version).map_err(|e| match e {
        ActError::Package(e) => package_error(e),
        ActError::Persist(e) => {
            tracing::error!(error = %e, "could not save the package state");
            RpcError::new(StatusCode::INTERNAL_SERVER_ERROR, e.to_string())
        }
        ActError::ShuttingDown => RpcError::new(StatusCode::SERVICE_UNAVAILABLE, e.to_string()),
    })?;
    Ok(json!({ "ok": true }))
}

fn package_error(e: PackageError) -> RpcError {
    let status = match e {
        PackageError::Unknown(_) => StatusCode::NOT_FOUND,
        PackageError::Transition(_) => StatusCode::CONFLICT,
    };
    RpcError::new(status, e.to_string())
}

fn app_id(method: Method, params: &Map<String, Value>) -> Result<&str, RpcError> {
    match params.get("id") {
        Some(Value::String(id)) if !id.is_empty() => Ok(id),
        _ => Err(RpcError::bad_params(format!("`{}` needs params.id (the app id, e.g. \"lnd\")", method.name()))),
    }
}

fn log_lines(params: &Map<String, Value>) -> Result<usize, RpcError> {
    let lines = match params.get("lines") {
        None | Some(Value::Null) => DEFAULT_LOG_LINES,
        Some(v) => v.as_u64().ok_or_else(|| {
            RpcError::bad_params(format!(
                "`container-logs` params.lines must be a whole number (at most {MAX_LOG_LINES})"
            ))
        })?,
    };
    Ok(usize::try_from(lines.min(MAX_LOG_LINES)).unwrap_or(usize::MAX))
}

fn require_running(node: &NodeState, id: &str) -> Result<(), RpcError> {
    if lock(&node.packages).is_running(id) {
        Ok(())
    } else {
        Err(RpcError::new(StatusCode::SERVICE_UNAVAILABLE, format!("{id} is not running")))
    }
}
