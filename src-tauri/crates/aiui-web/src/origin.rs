//! What both origins do alike, in one place: the host check (421 for a name not theirs), the security headers on
//! every answer, the session and its CSRF check, the sign-in's Origin check and per-address limit, and the routes
//! every origin has (its page, its files, `api/session`, `api/logout`, `api/ui-text`). `chat.rs` and `trusted.rs` add only what
//! is theirs.

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;

use axum::extract::{Path, Request, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde_json::{Value, json};

use crate::auth::{self, AllowedHosts, RateLimiter, Session, Sessions};
use crate::{ApiError, Shared, files};

/// One CSP for both origins: nothing but this origin's own scripts, styles, images and connections.
pub(crate) const CSP: &str = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; \
                              connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; \
                              frame-ancestors 'none'";

/// One origin's rules.
pub(crate) struct Rules {
    /// `chat` or `trusted`, as `api/session` and the logs name it.
    pub name: &'static str,
    pub sessions: Sessions,
    /// Sign-in tries, per address group.
    pub limiter: RateLimiter,
    pub hosts: AllowedHosts,
    /// The page `/` serves to a signed-in browser (`index.html`, `trusted.html`).
    pub page: &'static str,
    /// Which `ui/` files this origin serves.
    pub allows: fn(&str) -> bool,
}

/// An origin's state, as the shared handlers reach it.
pub(crate) trait Origin: Send + Sync + 'static {
    fn rules(&self) -> &Rules;
    fn shared(&self) -> &Shared;
}

impl Rules {
    /// The caller's session for a call that changes something (Origin and CSRF token checked); `activity: false`
    /// for a poll, which does not keep a session alive.
    pub fn guard(
        &self,
        shared: &Shared,
        headers: &HeaderMap,
        activity: bool,
    ) -> Result<(String, Arc<Session>), ApiError> {
        self.sessions.checked(headers, shared.config.trust_proxy, activity)
    }

    /// Before a sign-in's secret is checked: the request comes from this origin's own page, and its address group
    /// is under its limit. Returns the address to count and log it under.
    pub fn sign_in_address(&self, shared: &Shared, peer: SocketAddr, headers: &HeaderMap) -> Result<IpAddr, ApiError> {
        let trust_proxy = shared.config.trust_proxy;
        if !auth::same_origin(headers, trust_proxy) {
            return Err(ApiError::forbidden_origin());
        }
        let addr = auth::client_addr(peer, headers, trust_proxy);
        self.limiter.admit(addr).map_err(|wait| {
            tracing::warn!(origin = self.name, %addr, "sign-in rate limited: this address is locked out for now");
            ApiError::rate_limited(wait)
        })?;
        Ok(addr)
    }

    /// After the secret was right: the address's count is forgotten and a session starts.
    pub fn sign_in(&self, addr: IpAddr) -> Result<Response, ApiError> {
        self.limiter.succeeded(addr);
        self.sessions.signed_in(addr)
    }
}

/// The routes every origin has, with `extra` (its API) merged in, the host check and the security headers around
/// all of them.
pub(crate) fn router<O: Origin>(origin: Arc<O>, extra: Router<Arc<O>>) -> Router {
    let base = origin.shared().config.base_path.clone();
    let routes = Router::new()
        .route(&base, get(page::<O>))
        .route(&format!("{base}{}", origin.rules().page), get(page::<O>))
        .route(&format!("{base}api/session"), get(session::<O>))
        .route(&format!("{base}api/logout"), post(logout::<O>))
        .route(&format!("{base}api/ui-text"), get(ui_text::<O>))
        .merge(extra)
        .route(&format!("{base}{{*path}}"), get(file::<O>));
    files::with_bare_base_redirect(routes, &base)
        .layer(axum::middleware::from_fn_with_state(origin.clone(), check_host::<O>))
        .layer(axum::middleware::from_fn_with_state(origin.clone(), in_the_requests_language::<O>))
        .layer(axum::middleware::map_response(security_headers))
        .with_state(origin)
}

/// A request whose `Host` (or, behind the trusted proxy, `X-Forwarded-Host`) is not this origin's gets 421: a
/// page on a foreign name pointed here by DNS rebinding reaches nothing.
async fn check_host<O: Origin>(State(origin): State<Arc<O>>, request: Request, next: Next) -> Response {
    let headers = request.headers();
    let host = |name| headers.get(name).and_then(|v: &HeaderValue| v.to_str().ok());
    let forwarded = origin.shared().config.trust_proxy.then(|| host("x-forwarded-host")).flatten();
    let rules = origin.rules();
    let ok = [host(header::HOST.as_str()), forwarded].into_iter().flatten().all(|h| rules.hosts.allows(h))
        && host(header::HOST.as_str()).is_some();
    if !ok {
        let named = host(header::HOST.as_str()).unwrap_or("(none)");
        tracing::warn!(origin = rules.name, host = %named.chars().take(80).collect::<String>(), "refused a request for a host name not this origin's");
        return ApiError::said(StatusCode::MISDIRECTED_REQUEST, "wrong_host", "error-wrong-host", &[]).into_response();
    }
    next.run(request).await
}

/// Answers each request in its language (`Shared::page_locale`): what the service refuses is said in the words
/// the person reads the pages in.
async fn in_the_requests_language<O: Origin>(State(origin): State<Arc<O>>, request: Request, next: Next) -> Response {
    let locale = origin.shared().page_locale(request.headers());
    crate::in_language(locale, next.run(request)).await
}

/// On every answer, whatever it is: the CSP, no framing, no sniffing, no caching, no cross-origin window handle,
/// no cross-origin reads (CORP); and never an Access-Control-* header.
async fn security_headers(mut response: Response) -> Response {
    let h = response.headers_mut();
    files::set_security_headers(h, CSP);
    h.insert("cross-origin-opener-policy", HeaderValue::from_static("same-origin"));
    h.insert("cross-origin-resource-policy", HeaderValue::from_static("same-origin"));
    let cors: Vec<_> = h.keys().filter(|k| k.as_str().starts_with("access-control-")).cloned().collect();
    for name in cors {
        h.remove(name);
    }
    response
}

async fn page<O: Origin>(State(origin): State<Arc<O>>, headers: HeaderMap) -> Response {
    let rules = origin.rules();
    if rules.sessions.find(&headers).is_err() {
        return Redirect::to("login.html").into_response();
    }
    origin.shared().ui.serve(rules.page, rules.allows).await
}

async fn file<O: Origin>(State(origin): State<Arc<O>>, Path(path): Path<String>) -> Response {
    origin.shared().ui.serve(&path, origin.rules().allows).await
}

/// Whether this browser is signed in here, and its CSRF token if so. Nothing about how one signs in.
async fn session<O: Origin>(State(origin): State<Arc<O>>, headers: HeaderMap) -> Json<Value> {
    let rules = origin.rules();
    match rules.sessions.find(&headers) {
        Ok((_, session)) => Json(json!({ "origin": rules.name, "signed_in": true, "csrf": session.csrf })),
        Err(e) if e.code == "duplicate_cookie" => {
            Json(json!({ "origin": rules.name, "signed_in": false, "problem": e.message }))
        }
        Err(_) => Json(json!({ "origin": rules.name, "signed_in": false })),
    }
}

/// The pages' words (the sign-in page's too, so no session is needed: they are the same for everybody), in the
/// language the node's owner set for the service, else the one the browser asks for.
async fn ui_text<O: Origin>(State(origin): State<Arc<O>>, headers: HeaderMap) -> Json<aiui_core::i18n::PageText> {
    Json(aiui_core::i18n::page_text(origin.shared().page_locale(&headers)))
}

async fn logout<O: Origin>(State(origin): State<Arc<O>>, headers: HeaderMap) -> Result<Response, ApiError> {
    let rules = origin.rules();
    rules.guard(origin.shared(), &headers, true)?;
    rules.sessions.signed_out(&headers)
}
