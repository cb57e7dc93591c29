//! `auth.login`, `auth.login.totp` and `auth.logout`: the session and CSRF cookies, and the login rate limit.

use std::net::IpAddr;
use std::sync::Arc;
use std::time::{Instant, SystemTime};

use axum::http::{HeaderMap, StatusCode};
use serde_json::{Map, Value, json};

use super::{CSRF_COOKIE, Reply, RpcError, SESSION_COOKIE, cookie};
use crate::ratelimit::retry_after_secs;
use crate::state::{NodeState, lock};
use crate::time;

pub(super) fn login(node: &Arc<NodeState>, ip: IpAddr, params: &Map<String, Value>) -> Result<Reply, RpcError> {
    let now = Instant::now();
    check_rate(node, ip, now)?;
    let Some(password) = params.get("password").and_then(Value::as_str) else {
        return Err(RpcError::bad_params("`auth.login` needs params.password (the node's owner password)"));
    };
    if !node.credentials.password_matches(password) {
        lock(&node.limiter).record_failure(ip, now);
        tracing::info!("login refused: wrong password");
        return Err(RpcError::new(StatusCode::UNAUTHORIZED, "wrong password"));
    }
    if node.credentials.totp_required() {
        let pending = lock(&node.sessions).create_pending(now);
        tracing::info!("password accepted; waiting for a TOTP code");
        let cookies = vec![session_cookie(&pending, node.tls)];
        return Ok(Reply::with_cookies(json!({ "ok": true, "totp_required": true }), cookies));
    }
    tracing::info!("login accepted");
    Ok(open_session(node, now, json!({ "ok": true })))
}

pub(super) fn login_totp(
    node: &Arc<NodeState>,
    ip: IpAddr,
    headers: &HeaderMap,
    params: &Map<String, Value>,
) -> Result<Reply, RpcError> {
    let now = Instant::now();
    check_rate(node, ip, now)?;
    if !node.credentials.totp_required() {
        return Err(RpcError::bad_params("this node has no TOTP set up; `auth.login` alone logs in"));
    }
    let code = match params.get("code") {
        Some(Value::String(code)) => code.clone(),
        // Some clients send the code as a number, which loses leading zeros.
        Some(Value::Number(n)) if n.as_u64().is_some_and(|n| n < 1_000_000) => {
            format!("{:06}", n.as_u64().unwrap_or(0))
        }
        _ => {
            return Err(RpcError::bad_params(
                "`auth.login.totp` needs params.code (the 6-digit code from the authenticator app)",
            ));
        }
    };
    let pending = cookie(headers, SESSION_COOKIE).filter(|id| lock(&node.sessions).is_pending(id, now));
    let Some(pending) = pending else {
        return Err(RpcError::new(
            StatusCode::UNAUTHORIZED,
            "no pending login (or it expired); call `auth.login` with the password first",
        ));
    };
    if !node.credentials.totp_matches(&code, time::unix_secs(SystemTime::now())) {
        lock(&node.limiter).record_failure(ip, now);
        tracing::info!("login refused: wrong TOTP code");
        return Err(RpcError::new(StatusCode::UNAUTHORIZED, "wrong TOTP code"));
    }
    // The pending id is retired and a new one issued, so an id seen before the second factor is worth nothing.
    if !lock(&node.sessions).take_pending(pending, now) {
        return Err(RpcError::new(StatusCode::UNAUTHORIZED, "the pending login expired; log in again"));
    }
    tracing::info!("login accepted after TOTP");
    Ok(open_session(node, now, json!({ "ok": true })))
}

/// Ends the session the call came with (already checked by the caller) and clears both cookies.
pub(super) fn logout(node: &Arc<NodeState>, session: Option<&str>) -> Reply {
    if let Some(id) = session {
        lock(&node.sessions).remove(id);
    }
    tracing::info!("logged out");
    let secure = secure_attr(node.tls);
    let cookies = vec![
        format!("{SESSION_COOKIE}=; Path=/; Max-Age=0; HttpOnly; SameSite=Strict{secure}"),
        format!("{CSRF_COOKIE}=; Path=/; Max-Age=0; SameSite=Strict{secure}"),
    ];
    Reply::with_cookies(json!({ "ok": true }), cookies)
}

fn open_session(node: &Arc<NodeState>, now: Instant, result: Value) -> Reply {
    let (id, csrf) = lock(&node.sessions).create_authenticated(now);
    // The CSRF cookie is deliberately readable by page script (no HttpOnly): the double-submit pattern needs
    // the page to copy it into the X-CSRF-Token header.
    let cookies = vec![
        session_cookie(&id, node.tls),
        format!("{CSRF_COOKIE}={csrf}; Path=/; SameSite=Strict{}", secure_attr(node.tls)),
    ];
    Reply::with_cookies(result, cookies)
}

fn session_cookie(id: &str, tls: bool) -> String {
    format!("{SESSION_COOKIE}={id}; Path=/; HttpOnly; SameSite=Strict{}", secure_attr(tls))
}

/// Browsers drop `Secure` cookies over plain http, so the flag is only set when the node serves TLS.
fn secure_attr(tls: bool) -> &'static str {
    if tls { "; Secure" } else { "" }
}

fn check_rate(node: &NodeState, ip: IpAddr, now: Instant) -> Result<(), RpcError> {
    lock(&node.limiter).check(ip, now).map_err(|wait| {
        let secs = retry_after_secs(wait);
        tracing::info!(retry_after_s = secs, "login refused: rate limited");
        RpcError {
            status: StatusCode::TOO_MANY_REQUESTS,
            message: format!("too many failed logins; try again in {secs} s"),
            retry_after: Some(secs),
        }
    })
}
