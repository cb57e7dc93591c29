//! The trusted origin, on its own port: the owner signs in with the approval passphrase (or a TOTP code) and
//! answers pending confirmations, each approval again with the passphrase or a code. It sends
//! `frame-ancestors 'none'`, no CORS headers at all, its own cookie and CSRF tokens, and checks `Origin` on every
//! change; a decision names the request id and arguments hash and is single-use (the gate removes it). The wallet's
//! routes (its overview and withdrawals to Lightning) are `wallet.rs`, on this origin's sessions and secret check.

use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex, RwLock};

use aiui_core::gate::{DecideError, Decision, Verdict};
use aiui_core::tools::{Registry, ToolClass};
use aiui_core::view::PendingView;
use axum::extract::{ConnectInfo, Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::auth::{self, AllowedHosts, RateLimiter, Session, Sessions};
use crate::origin::{Origin, Rules};
use crate::passphrase::StoredHash;
use crate::{APPROVE_DELAY, ApiError, Shared, files};

pub(crate) const COOKIE: &str = "aiui_trusted";

pub(crate) struct TrustedOrigin {
    pub(crate) shared: Arc<Shared>,
    pub(crate) rules: Rules,
    /// Sign-in tries with a TOTP code: far fewer, a 6-digit code being far easier to guess than a passphrase.
    code_limiter: RateLimiter,
    /// Approvals inside a signed-in session, per session: other addresses' failures never stop the owner's.
    session_limiter: RateLimiter<String>,
    /// The approval secrets; the control loop replaces them when their files change.
    pub(crate) secrets: RwLock<Secrets>,
    /// The time steps whose code was accepted (the current ones only): each code is good once, even while it is
    /// still valid.
    used_steps: Mutex<Vec<u64>>,
    /// Withdrawal quotes shown to the owner, each waiting for its approval.
    pub(crate) quotes: crate::wallet::Quotes,
}

/// The approval passphrase's hash and the TOTP secret, as loaded from the data dir.
#[derive(Clone)]
pub(crate) struct Secrets {
    pub approval: Option<StoredHash>,
    pub totp: Option<totp_rs::TOTP>,
}

impl Origin for TrustedOrigin {
    fn rules(&self) -> &Rules {
        &self.rules
    }
    fn shared(&self) -> &Shared {
        &self.shared
    }
}

type St = State<Arc<TrustedOrigin>>;

/// TOTP codes tried at sign-in: three per address group and thirty in all per ten minutes (a few thousand a day at
/// most against a million codes; the passphrase, when set, still signs in while codes are held back).
const CODE_LIMITS: auth::LoginLimits =
    auth::LoginLimits { per_address: 3, overall: 30, window: std::time::Duration::from_secs(600) };

/// Who is giving the approval secret.
pub(crate) enum Asker<'a> {
    /// Someone signing in from this address.
    SigningIn(IpAddr),
    /// The owner inside the signed-in session of this key (its cookie's hash).
    InSession(&'a str, IpAddr),
}

pub(crate) fn origin(shared: Arc<Shared>, secrets: Secrets) -> Arc<TrustedOrigin> {
    let config = &shared.config;
    let rules = Rules {
        name: "trusted",
        sessions: Sessions::new("trusted", COOKIE, config, config.trusted_lifetime),
        limiter: RateLimiter::new(config.limits),
        hosts: AllowedHosts::new(&config.trusted_hosts),
        page: "trusted.html",
        allows: files::trusted_allows,
    };
    Arc::new(TrustedOrigin {
        shared,
        rules,
        code_limiter: RateLimiter::new(CODE_LIMITS),
        session_limiter: RateLimiter::new(auth::LoginLimits::default()),
        secrets: RwLock::new(secrets),
        used_steps: Mutex::new(Vec::new()),
        quotes: crate::wallet::Quotes::default(),
    })
}

pub(crate) fn router(origin: Arc<TrustedOrigin>) -> Router {
    let base = origin.shared.config.base_path.clone();
    let api = Router::new()
        .route(&format!("{base}api/login"), post(login))
        .route(&format!("{base}api/invoke/{{command}}"), post(invoke))
        .merge(crate::wallet::routes(&base));
    crate::origin::router(origin, api)
}

impl TrustedOrigin {
    /// The caller's session, checked as for a change on every call: this origin's pages only ever POST. A poll
    /// (`activity: false`) does not keep the session alive.
    fn guard(&self, headers: &HeaderMap, activity: bool) -> Result<Arc<Session>, ApiError> {
        self.rules.guard(&self.shared, headers, activity).map(|(_, session)| session)
    }

    fn secrets(&self) -> Secrets {
        self.secrets.read().unwrap_or_else(|p| p.into_inner()).clone()
    }

    /// Whether `secret` is the approval passphrase, or a TOTP code of a time step not used before. Every try is
    /// counted first: at sign-in per address group (codes under a far lower limit), inside a session per session.
    pub(crate) async fn check_secret(&self, asker: Asker<'_>, secret: &str) -> Result<bool, ApiError> {
        let secret = secret.trim();
        let secrets = self.secrets();
        let is_code = secrets.totp.is_some() && is_code_shaped(secret);
        let addr = match asker {
            Asker::SigningIn(addr) => {
                if is_code {
                    self.code_limiter.admit(addr).map_err(|wait| {
                        tracing::warn!(%addr, "TOTP codes at sign-in rate limited");
                        ApiError::rate_limited(wait)
                    })?;
                }
                addr
            }
            Asker::InSession(session, addr) => {
                self.session_limiter.admit_key(session.to_owned()).map_err(|wait| {
                    tracing::warn!(%addr, "approval secret tries in one session rate limited");
                    ApiError::rate_limited(wait)
                })?;
                addr
            }
        };
        let ok = match &secrets.totp {
            Some(totp) if is_code => self.code_unused(totp, secret),
            _ => match &secrets.approval {
                Some(hash) => self.shared.verify(hash, secret).await?,
                None => false,
            },
        };
        if ok {
            match asker {
                Asker::SigningIn(addr) => self.code_limiter.succeeded(addr),
                Asker::InSession(session, _) => self.session_limiter.succeeded_key(&session.to_owned()),
            }
        } else if is_code {
            tracing::warn!(%addr, "a wrong or already used TOTP code");
        } else {
            tracing::warn!(%addr, "a wrong approval passphrase");
        }
        Ok(ok)
    }

    /// Whether `code` is the code of the previous, current or next time step and that step's code was not
    /// accepted before; the step is then used up.
    fn code_unused(&self, totp: &totp_rs::TOTP, code: &str) -> bool {
        let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0);
        let step = now / totp.step;
        let mut used = self.used_steps.lock().unwrap_or_else(|p| p.into_inner());
        used.retain(|s| s + 2 >= step);
        for candidate in [step.saturating_sub(1), step, step + 1] {
            if !used.contains(&candidate) && totp.generate(candidate * totp.step) == code {
                used.push(candidate);
                return true;
            }
        }
        false
    }
}

#[derive(Deserialize)]
struct Login {
    passphrase: String,
    /// With `--approval-needs-both`: the TOTP code, sent once the passphrase was found right.
    #[serde(default)]
    code: Option<String>,
}

async fn login(
    State(origin): St,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    Json(body): Json<Login>,
) -> Result<Response, ApiError> {
    let addr = origin.rules.sign_in_address(&origin.shared, peer, &headers)?;
    let wrong = || ApiError::said(StatusCode::UNAUTHORIZED, "wrong_passphrase", "error-wrong-approval-passphrase", &[]);
    if origin.shared.config.approval_needs_both {
        // The passphrase first, through the same check (so a code alone never signs in); then a fresh code.
        if is_code_shaped(body.passphrase.trim())
            || !origin.check_secret(Asker::SigningIn(addr), &body.passphrase).await?
        {
            return Err(wrong());
        }
        let Some(code) = body.code.filter(|c| is_code_shaped(c.trim())) else {
            // Said only to someone who knows the passphrase.
            return Err(ApiError::said(StatusCode::UNAUTHORIZED, "code_required", "error-code-required", &[]));
        };
        if !origin.check_secret(Asker::SigningIn(addr), &code).await? {
            return Err(wrong());
        }
    } else if !origin.check_secret(Asker::SigningIn(addr), &body.passphrase).await? {
        return Err(wrong());
    }
    origin.rules.sign_in(addr)
}

/// Six digits: what a TOTP code looks like (a passphrase is at least ten characters).
fn is_code_shaped(secret: &str) -> bool {
    secret.len() == 6 && secret.chars().all(|c| c.is_ascii_digit())
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
enum Answer {
    Approve,
    Deny,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Decide {
    id: String,
    arguments_hash: String,
    answer: Answer,
    #[serde(default)]
    secret: Option<String>,
}

async fn invoke(
    State(origin): St,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    Path(command): Path<String>,
    headers: HeaderMap,
    body: axum::body::Bytes,
) -> Result<Response, ApiError> {
    // Reading what waits is a poll: it never keeps a trusted session alive, deciding and changing do.
    let poll = matches!(command.as_str(), "trusted_pending" | "trusted_settings" | "trusted_wallet");
    let session = origin.guard(&headers, !poll)?;
    let addr = auth::client_addr(peer, &headers, origin.shared.config.trust_proxy);
    let bad = |e: serde_json::Error| ApiError::new(StatusCode::BAD_REQUEST, "bad_arguments", e.to_string());
    let args: Value = if body.is_empty() { json!({}) } else { serde_json::from_slice(&body).map_err(bad)? };
    let assistant = &origin.shared.assistant;
    let answer = match command.as_str() {
        "trusted_pending" => {
            let pending = assistant.agent.gate.pending();
            let mut state = session.state.lock().unwrap_or_else(|p| p.into_inner());
            let now = std::time::Instant::now();
            state.shown.retain(|id, _| pending.iter().any(|r| &r.id == id));
            for request in &pending {
                state.shown.entry(request.id.clone()).or_insert(now);
            }
            json!(pending.into_iter().map(PendingView::from).collect::<Vec<_>>())
        }
        "trusted_decide" => {
            let decide: Decide = serde_json::from_value(args).map_err(bad)?;
            json!(decide_one(&origin, &session, addr, decide).await?)
        }
        "trusted_settings" => settings(&origin),
        "trusted_set_grant" => {
            let tool: String = serde_json::from_value(args.get("tool").cloned().unwrap_or_default()).map_err(bad)?;
            let enabled: bool =
                serde_json::from_value(args.get("enabled").cloned().unwrap_or_default()).map_err(bad)?;
            if Registry::node_tools().iter().all(|t| t.name != tool) {
                let args = [("tool", tool.as_str().into())];
                return Err(ApiError::said(StatusCode::BAD_REQUEST, "unknown_tool", "error-no-tool", &args));
            }
            // A switch widens or narrows what the model may propose: it needs the owner's secret, like an approval.
            let secret: Option<String> =
                serde_json::from_value(args.get("secret").cloned().unwrap_or_default()).map_err(bad)?;
            let Some(secret) = secret.filter(|s| !s.trim().is_empty()) else {
                return Err(ApiError::said(
                    StatusCode::FORBIDDEN,
                    "secret_required",
                    "error-tool-secret-required",
                    &[],
                ));
            };
            if !origin.check_secret(Asker::InSession(&session.csrf, addr), &secret).await? {
                return Err(ApiError::said(StatusCode::FORBIDDEN, "wrong_secret", "error-tool-wrong-secret", &[]));
            }
            tracing::info!(%tool, enabled, session = %session.short_id, "a tool switch changed on the trusted origin");
            {
                let mut config = assistant.agent.config.write().unwrap_or_else(|p| p.into_inner());
                if enabled {
                    config.grants.disabled.remove(&tool);
                } else {
                    config.grants.disabled.insert(tool);
                }
            }
            settings(&origin)
        }
        "trusted_hide" => Value::Null,
        "trusted_wallet" => crate::wallet::desktop_view(&origin).await?,
        other if other.starts_with("trusted_wallet_") => return Err(crate::wallet::not_on_lan()),
        other if other.starts_with("trusted_") => {
            return Err(ApiError::said(StatusCode::NOT_IMPLEMENTED, "not_on_lan", "error-not-on-lan", &[]));
        }
        other => {
            let args = [("command", other.into())];
            return Err(ApiError::said(StatusCode::NOT_FOUND, "unknown_command", "error-unknown-command", &args));
        }
    };
    Ok(Json(answer).into_response())
}

async fn decide_one(
    origin: &TrustedOrigin,
    session: &Session,
    addr: IpAddr,
    decide: Decide,
) -> Result<&'static str, ApiError> {
    // A decided, expired or unknown request is said to be so before anything else (a replay learns nothing more).
    if origin.shared.assistant.agent.gate.pending().iter().all(|r| r.id != decide.id) {
        return Err(unknown());
    }
    let decision = match decide.answer {
        Answer::Deny => Decision::Deny,
        Answer::Approve if origin.shared.config.lan_approver == crate::LanApprover::Kiosk => {
            return Err(ApiError::said(StatusCode::FORBIDDEN, "approve_on_kiosk", "error-approve-on-kiosk", &[]));
        }
        Answer::Approve => {
            let shown = session.state.lock().unwrap_or_else(|p| p.into_inner()).shown.get(&decide.id).copied();
            if shown.is_none_or(|at| at.elapsed() < APPROVE_DELAY) {
                return Err(ApiError::said(StatusCode::CONFLICT, "too_soon", "error-too-soon", &[]));
            }
            let Some(secret) = decide.secret.filter(|s| !s.trim().is_empty()) else {
                return Err(ApiError::said(
                    StatusCode::FORBIDDEN,
                    "secret_required",
                    "error-decide-secret-required",
                    &[],
                ));
            };
            // Keyed by the session's CSRF token: random, one per session.
            if !origin.check_secret(Asker::InSession(&session.csrf, addr), &secret).await? {
                return Err(ApiError::said(StatusCode::FORBIDDEN, "wrong_secret", "error-decide-wrong-secret", &[]));
            }
            Decision::AllowOnce
        }
    };
    match origin.shared.assistant.agent.gate.decide(&decide.id, &decide.arguments_hash, decision) {
        Ok(Verdict::Allowed) => Ok("allowed"),
        Ok(Verdict::Denied) => Ok("denied"),
        Ok(Verdict::Expired) | Err(DecideError::Expired) => {
            Err(ApiError::said(StatusCode::GONE, "expired", "error-confirmation-expired", &[]))
        }
        Err(DecideError::Unknown) => Err(unknown()),
        Err(DecideError::Mismatch) => {
            Err(ApiError::said(StatusCode::CONFLICT, "mismatch", "error-confirmation-changed", &[]))
        }
        Err(DecideError::Audit(e)) => Err(ApiError::said(
            StatusCode::INTERNAL_SERVER_ERROR,
            "audit",
            "error-confirmation-audit",
            &[("error", e.to_string().into())],
        )),
    }
}

fn unknown() -> ApiError {
    ApiError::said(StatusCode::NOT_FOUND, "unknown", "error-confirmation-unknown", &[])
}

/// The operator settings as the trusted page draws them (the desktop's shape). Over the LAN, the tool grants can
/// be changed and the wallet withdrawn from (`wallet.rs`); the allowance, the rest of the wallet, keys and pairing
/// are the node's command line's (`aiui-cli`).
fn settings(origin: &TrustedOrigin) -> Value {
    let assistant = &origin.shared.assistant;
    let disabled = assistant.agent.config.read().unwrap_or_else(|p| p.into_inner()).grants.disabled.clone();
    let tools: Vec<Value> = Registry::node_tools()
        .iter()
        .map(|t| {
            json!({
                "name": t.name,
                "class": match t.class { ToolClass::Read => "read", ToolClass::Act => "act", ToolClass::ActHigh => "act-high" },
                "description": t.description,
                "enabled": !disabled.contains(t.name),
            })
        })
        .collect();
    let report = assistant.budget.get();
    let mut budget = serde_json::to_value(assistant.meter()).unwrap_or_default();
    budget["accepted_mints"] = json!(report.accepted_mints);
    json!({
        "demo": assistant.demo,
        "kiosk": false,
        "lan": true,
        "api_key_set": null,
        "keyring_error": null,
        "node": { "url": assistant.node_url, "fingerprint": null, "password_set": true, "demo": assistant.demo },
        "tools": tools,
        "budget": budget,
        "routstr": { "reviewed_only": true, "tor_socks": null, "reviewer": null, "discovery": [] },
    })
}
