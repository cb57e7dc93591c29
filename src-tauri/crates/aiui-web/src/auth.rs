//! Sessions, CSRF tokens, the sign-in rate limit and the same-origin check, for each origin separately: the chat
//! origin and the trusted origin each hold their own `Sessions` (own cookie name, own tokens), so a session of one
//! is nothing on the other.

use std::collections::{HashMap, HashSet, VecDeque};
use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::Json;
use axum::http::{HeaderMap, HeaderValue, header};
use axum::response::{IntoResponse, Response};
use serde_json::json;
use sha2::{Digest, Sha256};

use crate::{ApiError, WebConfig};

/// How long a session lives without a request.
pub const SESSION_IDLE: Duration = Duration::from_secs(12 * 60 * 60);

/// 32 random bytes as hex: session ids and CSRF tokens.
pub fn random_token() -> String {
    hex::encode(rand::random::<[u8; 32]>())
}

/// Compares two tokens in time that does not depend on where they differ.
pub fn same_token(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.bytes().zip(b.bytes()).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// One signed-in browser.
#[derive(Debug)]
pub struct Session {
    /// The CSRF token every state-changing request must carry in `X-CSRF-Token`. Given only in a same-origin JSON
    /// answer (never in a cookie: cookies are shared across ports of one host).
    pub csrf: String,
    pub state: Mutex<SessionState>,
}

#[derive(Debug, Default)]
pub struct SessionState {
    last_seen: Option<Instant>,
    /// The conversations this session started: the only ones it may list, open or continue.
    pub conversations: HashSet<String>,
    /// Whether a turn of this session is running (one at a time per session).
    pub turn_running: bool,
    /// When this session was first shown each pending confirmation (trusted origin): an approval sooner than the
    /// approve delay after it is refused.
    pub shown: HashMap<String, Instant>,
}

/// The sessions of one origin. The cookie holds a random token; the table is keyed by its SHA-256, so the table
/// never holds a usable cookie value.
#[derive(Debug)]
pub struct Sessions {
    pub cookie: &'static str,
    map: Mutex<HashMap<String, Arc<Session>>>,
}

fn key(token: &str) -> String {
    hex::encode(Sha256::digest(token.as_bytes()))
}

impl Sessions {
    pub fn new(cookie: &'static str) -> Self {
        Self { cookie, map: Mutex::new(HashMap::new()) }
    }

    /// Starts a session; returns the cookie token and the session.
    pub fn create(&self) -> (String, Arc<Session>) {
        let token = random_token();
        let session = Arc::new(Session {
            csrf: random_token(),
            state: Mutex::new(SessionState { last_seen: Some(Instant::now()), ..SessionState::default() }),
        });
        let mut map = self.map.lock().unwrap_or_else(|p| p.into_inner());
        map.retain(|_, s| s.state.lock().unwrap_or_else(|p| p.into_inner()).alive());
        map.insert(key(&token), session.clone());
        (token, session)
    }

    /// The session named by the request's cookie, if it is alive; touching it extends it.
    pub fn find(&self, headers: &HeaderMap) -> Option<(String, Arc<Session>)> {
        let token = cookie(headers, self.cookie)?;
        let id = key(&token);
        let map = self.map.lock().unwrap_or_else(|p| p.into_inner());
        let session = map.get(&id)?.clone();
        let mut state = session.state.lock().unwrap_or_else(|p| p.into_inner());
        if !state.alive() {
            return None;
        }
        state.last_seen = Some(Instant::now());
        drop(state);
        Some((id, session))
    }

    /// Ends the session named by the request's cookie.
    pub fn remove(&self, headers: &HeaderMap) {
        if let Some(token) = cookie(headers, self.cookie) {
            self.map.lock().unwrap_or_else(|p| p.into_inner()).remove(&key(&token));
        }
    }
}

impl Sessions {
    /// The caller's session, checked for a call that changes something: the request comes from a page of this
    /// origin and carries the session's CSRF token. `origin` names the origin in the log.
    pub(crate) fn checked(
        &self,
        headers: &HeaderMap,
        trust_proxy: bool,
        origin: &str,
    ) -> Result<(String, Arc<Session>), ApiError> {
        let Some((key, session)) = self.find(headers) else {
            tracing::warn!("refused a {origin} request without a {origin} session");
            return Err(ApiError::signed_out());
        };
        let token = headers.get("x-csrf-token").and_then(|v| v.to_str().ok()).unwrap_or_default();
        if !same_origin(headers, trust_proxy) || !same_token(token, &session.csrf) {
            tracing::warn!("refused a {origin} request without this origin's CSRF token");
            return Err(ApiError::forbidden_origin());
        }
        Ok((key, session))
    }

    /// After a passphrase was accepted: a new session, its cookie set, its CSRF token in the body.
    pub(crate) fn signed_in(&self, config: &WebConfig) -> Result<Response, ApiError> {
        let (token, session) = self.create();
        let cookie = session_cookie(self.cookie, &token, &config.base_path, config.secure_cookies);
        with_cookie(Json(json!({ "csrf": session.csrf })).into_response(), &cookie)
    }

    /// Ends the caller's session and deletes its cookie (the caller was checked first).
    pub(crate) fn signed_out(&self, headers: &HeaderMap, config: &WebConfig) -> Result<Response, ApiError> {
        self.remove(headers);
        let cookie = expired_cookie(self.cookie, &config.base_path, config.secure_cookies);
        with_cookie(Json(json!({})).into_response(), &cookie)
    }
}

fn with_cookie(mut response: Response, cookie: &str) -> Result<Response, ApiError> {
    response.headers_mut().insert(header::SET_COOKIE, HeaderValue::from_str(cookie).map_err(ApiError::internal)?);
    Ok(response)
}

impl SessionState {
    fn alive(&self) -> bool {
        self.last_seen.is_some_and(|at| at.elapsed() < SESSION_IDLE)
    }
}

/// One cookie's value from the request's `Cookie` headers.
pub fn cookie(headers: &HeaderMap, name: &str) -> Option<String> {
    headers.get_all(header::COOKIE).iter().filter_map(|v| v.to_str().ok()).flat_map(|v| v.split(';')).find_map(|pair| {
        let (k, v) = pair.trim().split_once('=')?;
        (k == name && !v.is_empty()).then(|| v.to_owned())
    })
}

/// The `Set-Cookie` value for a session: HttpOnly, SameSite=Strict, limited to the base path; Secure when served
/// over https (behind the node's nginx).
pub fn session_cookie(name: &str, token: &str, path: &str, secure: bool) -> String {
    let secure = if secure { "; Secure" } else { "" };
    format!("{name}={token}; Path={path}; HttpOnly; SameSite=Strict{secure}")
}

/// The `Set-Cookie` value that deletes a session cookie.
pub fn expired_cookie(name: &str, path: &str, secure: bool) -> String {
    let secure = if secure { "; Secure" } else { "" };
    format!("{name}=; Path={path}; HttpOnly; SameSite=Strict; Max-Age=0{secure}")
}

/// Whether the request comes from a page of this very origin: the browser's `Origin` header must name the host
/// the request was sent to (behind a trusted proxy, the forwarded host). A request without `Origin` is refused:
/// every browser sends it on a POST, and the service's own pages only POST with fetch.
pub fn same_origin(headers: &HeaderMap, trust_proxy: bool) -> bool {
    let Some(origin) = headers.get(header::ORIGIN).and_then(|v| v.to_str().ok()) else { return false };
    let host = trust_proxy
        .then(|| headers.get("x-forwarded-host").and_then(|v| v.to_str().ok()))
        .flatten()
        .or_else(|| headers.get(header::HOST).and_then(|v| v.to_str().ok()));
    let Some(host) = host else { return false };
    let authority = origin.strip_prefix("https://").or_else(|| origin.strip_prefix("http://"));
    authority.is_some_and(|a| a.eq_ignore_ascii_case(host.trim()))
}

/// The address a request is counted against: the peer, or (behind a proxy on this machine, when told to trust it)
/// the last address the proxy put in `X-Forwarded-For` / `X-Real-IP`.
pub fn client_addr(peer: SocketAddr, headers: &HeaderMap, trust_proxy: bool) -> IpAddr {
    if trust_proxy && peer.ip().is_loopback() {
        let forwarded = headers
            .get("x-real-ip")
            .and_then(|v| v.to_str().ok())
            .or_else(|| headers.get("x-forwarded-for").and_then(|v| v.to_str().ok())?.rsplit(',').next());
        if let Some(ip) = forwarded.and_then(|v| v.trim().parse().ok()) {
            return ip;
        }
    }
    peer.ip()
}

/// How many sign-in attempts are allowed, per address and in all, within a window.
#[derive(Debug, Clone, Copy)]
pub struct LoginLimits {
    pub per_address: usize,
    /// A cap over every address together. Off by default (`usize::MAX`): a global cap is one the attacker fills to
    /// lock the owner out, from addresses that need no passphrase.
    pub overall: usize,
    pub window: Duration,
}

impl Default for LoginLimits {
    /// Five tries a minute per address (an IPv6 address counts with its whole /64): a person mistyping is never
    /// stopped, and other people's failures never stop the owner.
    fn default() -> Self {
        Self { per_address: 5, overall: usize::MAX, window: Duration::from_secs(60) }
    }
}

/// The key an address is counted under: itself for IPv4, its /64 for IPv6 (one host holds a whole /64).
pub fn address_group(addr: IpAddr) -> IpAddr {
    match addr {
        IpAddr::V4(_) => addr,
        IpAddr::V6(v6) => {
            let mut segments = v6.segments();
            segments[4..].fill(0);
            IpAddr::V6(segments.into())
        }
    }
}

/// The attempts in the window: per key, and all of them.
type Attempts<K> = (HashMap<K, VecDeque<Instant>>, VecDeque<Instant>);

/// Counts attempts (not failures: parallel guesses are counted before their slow check ends), per key: an address
/// group for sign-ins, a session for approvals inside one.
#[derive(Debug)]
pub struct RateLimiter<K = IpAddr> {
    limits: LoginLimits,
    state: Mutex<Attempts<K>>,
}

impl<K: std::hash::Hash + Eq + Clone> RateLimiter<K> {
    pub fn new(limits: LoginLimits) -> Self {
        Self { limits, state: Mutex::new((HashMap::new(), VecDeque::new())) }
    }

    /// Records an attempt under `key`, or says how long to wait when its limit (or the overall one) is reached.
    pub fn admit_key(&self, key: K) -> Result<(), Duration> {
        let now = Instant::now();
        let window = self.limits.window;
        let mut guard = self.state.lock().unwrap_or_else(|p| p.into_inner());
        let (per, all) = &mut *guard;
        let expire = |q: &mut VecDeque<Instant>| {
            while q.front().is_some_and(|t| now.duration_since(*t) >= window) {
                q.pop_front();
            }
        };
        per.retain(|_, q| {
            expire(q);
            !q.is_empty()
        });
        expire(all);
        let mine = per.entry(key).or_default();
        let wait = |q: &VecDeque<Instant>| q.front().map_or(window, |t| window.saturating_sub(now.duration_since(*t)));
        if mine.len() >= self.limits.per_address {
            return Err(wait(mine));
        }
        if all.len() >= self.limits.overall {
            return Err(wait(all));
        }
        mine.push_back(now);
        all.push_back(now);
        Ok(())
    }

    /// A success forgets that key's earlier attempts (the overall count keeps them).
    pub fn succeeded_key(&self, key: &K) {
        self.state.lock().unwrap_or_else(|p| p.into_inner()).0.remove(key);
    }
}

impl RateLimiter<IpAddr> {
    /// Records a sign-in attempt from `addr` (counted with its group, see [`address_group`]).
    pub fn admit(&self, addr: IpAddr) -> Result<(), Duration> {
        self.admit_key(address_group(addr))
    }

    pub fn succeeded(&self, addr: IpAddr) {
        self.succeeded_key(&address_group(addr));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_ipv6_host_counts_with_its_whole_64_and_no_global_cap_by_default() {
        let limiter = RateLimiter::new(LoginLimits::default());
        let first: IpAddr = "fd00:1:2:3::1".parse().unwrap();
        for n in 0..5u16 {
            let other = IpAddr::V6(std::net::Ipv6Addr::new(0xfd00, 1, 2, 3, 9, 9, 9, n));
            assert!(limiter.admit(other).is_ok(), "{n}");
        }
        assert!(limiter.admit(first).is_err(), "the same /64 shares one count");
        for n in 0..200u8 {
            assert!(limiter.admit([10, 0, 1, n].into()).is_ok(), "other addresses never fill a global cap");
        }
        assert!(limiter.admit("fd00:1:2:4::1".parse().unwrap()).is_ok(), "the next /64 is another host");
    }

    #[test]
    fn the_limiter_holds_per_address_and_overall() {
        let limiter = RateLimiter::new(LoginLimits { per_address: 2, overall: 3, window: Duration::from_secs(60) });
        let (a, b, c) = ([10, 0, 0, 1].into(), [10, 0, 0, 2].into(), [10, 0, 0, 3].into());
        assert!(limiter.admit(a).is_ok() && limiter.admit(a).is_ok());
        let wait = limiter.admit(a).unwrap_err();
        assert!(wait > Duration::from_secs(55) && wait <= Duration::from_secs(60), "{wait:?}");
        assert!(limiter.admit(b).is_ok(), "another address has its own count");
        assert!(limiter.admit(c).is_err(), "but the overall limit (3) holds");
        limiter.succeeded(a);
        assert!(limiter.admit(a).is_err(), "a success does not lift the overall limit");
    }

    #[test]
    fn origin_must_name_the_host_the_request_was_sent_to() {
        let headers = |origin: Option<&str>, host: &str| {
            let mut h = HeaderMap::new();
            h.insert(header::HOST, host.parse().unwrap());
            if let Some(o) = origin {
                h.insert(header::ORIGIN, o.parse().unwrap());
            }
            h
        };
        assert!(same_origin(&headers(Some("http://127.0.0.1:5181"), "127.0.0.1:5181"), false));
        assert!(!same_origin(&headers(Some("http://127.0.0.1:5180"), "127.0.0.1:5181"), false), "another port");
        assert!(!same_origin(&headers(None, "127.0.0.1:5181"), false), "no Origin at all");
        assert!(!same_origin(&headers(Some("null"), "127.0.0.1:5181"), false), "a sandboxed frame");
    }

    #[test]
    fn cookies_are_read_by_exact_name() {
        let mut h = HeaderMap::new();
        h.insert(header::COOKIE, "aiui_lan_x=1; aiui_lan=abc; other=2".parse().unwrap());
        assert_eq!(cookie(&h, "aiui_lan").as_deref(), Some("abc"));
        assert_eq!(cookie(&h, "aiui_trusted"), None);
    }
}
