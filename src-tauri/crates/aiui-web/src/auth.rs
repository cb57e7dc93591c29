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

/// How long a session lives: `idle` without activity, `absolute` at most however active it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Lifetime {
    pub idle: Duration,
    pub absolute: Duration,
}

/// A LAN user's chat session: a working day without a request, a week at most.
pub const CHAT_LIFETIME: Lifetime =
    Lifetime { idle: Duration::from_secs(12 * 60 * 60), absolute: Duration::from_secs(7 * 24 * 60 * 60) };
/// The owner's trusted session: ten minutes without a decision or a change (a polling tab does not count), twenty
/// at most. A tab left open on a shared screen approves nothing an hour later.
pub const TRUSTED_LIFETIME: Lifetime =
    Lifetime { idle: Duration::from_secs(10 * 60), absolute: Duration::from_secs(20 * 60) };

/// The most live sessions one address group holds on an origin; signing in again ends its oldest.
pub const SESSIONS_PER_ADDRESS: usize = 8;

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
    /// The first 12 hex digits of the session's key: what `aiui-cli serve sessions` lists and revokes, and what a
    /// confirmation names. Not usable as a cookie.
    pub short_id: String,
    /// The address it signed in from.
    pub address: IpAddr,
    pub signed_in_at_ms: i64,
    signed_in: Instant,
    pub state: Mutex<SessionState>,
}

#[derive(Debug)]
pub struct SessionState {
    last_active: Instant,
    last_active_ms: i64,
    /// The conversations this session started: the only ones it may list, open or continue.
    pub conversations: HashSet<String>,
    /// Whether a turn of this session is running (one at a time per session).
    pub turn_running: bool,
    /// The running turn's Stop (the chat page's Stop button).
    pub turn_stop: Option<aiui_core::agent::Stop>,
    /// When this session was first shown each pending confirmation (trusted origin): an approval sooner than the
    /// approve delay after it is refused.
    pub shown: HashMap<String, Instant>,
    /// The event streams this session holds open now.
    pub streams: usize,
}

/// A session as `aiui-cli serve sessions` lists it: nothing in it signs anyone in.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SessionInfo {
    pub id: String,
    pub origin: String,
    pub address: String,
    pub signed_in_at_ms: i64,
    pub last_active_ms: i64,
}

/// The sessions of one origin. The cookie holds a random token; the table is keyed by its SHA-256, so the table
/// never holds a usable cookie value.
#[derive(Debug)]
pub struct Sessions {
    /// `chat` or `trusted`, in logs and in the session list.
    pub origin: &'static str,
    /// The cookie's name: `__Host-<name>` when served over TLS, so no other host or path can set or shadow it.
    pub cookie: String,
    path: String,
    secure: bool,
    lifetime: Lifetime,
    map: Mutex<HashMap<String, Arc<Session>>>,
    /// Bumped on every sign-in, sign-out and revocation: the session list file is rewritten when it moves.
    generation: std::sync::atomic::AtomicU64,
}

fn key(token: &str) -> String {
    hex::encode(Sha256::digest(token.as_bytes()))
}

impl Sessions {
    /// `name` is the cookie's base name (`aiui_lan`); over TLS it gets the `__Host-` prefix and `Path=/`, which
    /// the prefix requires.
    pub fn new(origin: &'static str, name: &str, config: &WebConfig, lifetime: Lifetime) -> Self {
        let (cookie, path) = if config.secure_cookies {
            (format!("__Host-{name}"), "/".to_owned())
        } else {
            (name.to_owned(), config.base_path.clone())
        };
        Self {
            origin,
            cookie,
            path,
            secure: config.secure_cookies,
            lifetime,
            map: Mutex::new(HashMap::new()),
            generation: std::sync::atomic::AtomicU64::new(0),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Arc<Session>>> {
        self.map.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn bump(&self) {
        self.generation.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    }

    /// Moves on every sign-in, sign-out and revocation.
    pub fn generation(&self) -> u64 {
        self.generation.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// Starts a session for a browser at `address`; returns the cookie token and the session. The address group's
    /// oldest session ends when it already holds [`SESSIONS_PER_ADDRESS`].
    pub fn create(&self, address: IpAddr) -> (String, Arc<Session>) {
        let token = random_token();
        let id = key(&token);
        let now = Instant::now();
        let session = Arc::new(Session {
            csrf: random_token(),
            short_id: id[..12].to_owned(),
            address,
            signed_in_at_ms: aiui_core::now_ms(),
            signed_in: now,
            state: Mutex::new(SessionState {
                last_active: now,
                last_active_ms: aiui_core::now_ms(),
                conversations: HashSet::new(),
                turn_running: false,
                turn_stop: None,
                shown: HashMap::new(),
                streams: 0,
            }),
        });
        let mut map = self.lock();
        map.retain(|_, s| self.alive(s));
        let group = address_group(address);
        let mut same: Vec<(String, Instant)> = map
            .iter()
            .filter(|(_, s)| address_group(s.address) == group)
            .map(|(k, s)| (k.clone(), s.signed_in))
            .collect();
        same.sort_by_key(|(_, at)| *at);
        let excess = (same.len() + 1).saturating_sub(SESSIONS_PER_ADDRESS);
        for (old, _) in same.into_iter().take(excess) {
            tracing::info!(origin = self.origin, %address, "a new sign-in from this address ended its oldest session");
            map.remove(&old);
        }
        map.insert(id, session.clone());
        drop(map);
        self.bump();
        (token, session)
    }

    fn alive(&self, session: &Session) -> bool {
        let state = session.state.lock().unwrap_or_else(|p| p.into_inner());
        state.last_active.elapsed() < self.lifetime.idle && session.signed_in.elapsed() < self.lifetime.absolute
    }

    /// The session named by the request's cookie, if it is alive. Finding it is not activity: see
    /// [`Sessions::touch`]. Two cookies of this name (one planted by a page of another host or path) are refused.
    pub(crate) fn find(&self, headers: &HeaderMap) -> Result<(String, Arc<Session>), ApiError> {
        let mut tokens = cookies(headers, &self.cookie);
        let Some(token) = tokens.next() else { return Err(ApiError::signed_out()) };
        if tokens.next().is_some() {
            tracing::warn!(origin = self.origin, "refused a request carrying two session cookies");
            return Err(ApiError::duplicate_cookie());
        }
        let id = key(token);
        let session = self.lock().get(&id).cloned().ok_or_else(ApiError::signed_out)?;
        if !self.alive(&session) {
            self.lock().remove(&id);
            self.bump();
            return Err(ApiError::signed_out());
        }
        Ok((id, session))
    }

    /// Counts as activity: the idle time starts again (never past the absolute lifetime).
    pub fn touch(&self, session: &Session) {
        let mut state = session.state.lock().unwrap_or_else(|p| p.into_inner());
        state.last_active = Instant::now();
        state.last_active_ms = aiui_core::now_ms();
    }

    /// Ends the sessions named by the request's cookies.
    pub fn remove(&self, headers: &HeaderMap) {
        for token in cookies(headers, &self.cookie) {
            self.lock().remove(&key(token));
        }
        self.bump();
    }

    /// The live sessions, oldest first.
    pub fn list(&self) -> Vec<SessionInfo> {
        let map = self.lock();
        let mut list: Vec<SessionInfo> = map
            .values()
            .filter(|s| self.alive(s))
            .map(|s| SessionInfo {
                id: s.short_id.clone(),
                origin: self.origin.to_owned(),
                address: s.address.to_string(),
                signed_in_at_ms: s.signed_in_at_ms,
                last_active_ms: s.state.lock().unwrap_or_else(|p| p.into_inner()).last_active_ms,
            })
            .collect();
        list.sort_by_key(|s| s.signed_in_at_ms);
        list
    }

    /// Ends every session whose short id is in `ids`, or all of them (`None`); returns how many ended.
    pub fn revoke(&self, ids: Option<&[String]>) -> usize {
        let mut map = self.lock();
        let before = map.len();
        map.retain(|_, s| ids.is_some_and(|ids| !ids.iter().any(|id| id == &s.short_id)));
        let ended = before - map.len();
        drop(map);
        if ended > 0 {
            self.bump();
        }
        ended
    }

    /// The caller's session, checked for a call that changes something: the request comes from a page of this
    /// origin and carries the session's CSRF token. It counts as activity unless `activity` is false (a poll).
    pub(crate) fn checked(
        &self,
        headers: &HeaderMap,
        trust_proxy: bool,
        activity: bool,
    ) -> Result<(String, Arc<Session>), ApiError> {
        let origin = self.origin;
        let (key, session) = self.find(headers).inspect_err(|e| {
            if e.code == "signed_out" {
                tracing::warn!("refused a {origin} request without a live {origin} session");
            }
        })?;
        let token = headers.get("x-csrf-token").and_then(|v| v.to_str().ok()).unwrap_or_default();
        if !same_origin(headers, trust_proxy) || !same_token(token, &session.csrf) {
            tracing::warn!("refused a {origin} request without this origin's CSRF token");
            return Err(ApiError::forbidden_origin());
        }
        if activity {
            self.touch(&session);
        }
        Ok((key, session))
    }

    /// After a passphrase was accepted: a new session, its cookie set, its CSRF token in the body.
    pub(crate) fn signed_in(&self, address: IpAddr) -> Result<Response, ApiError> {
        let (token, session) = self.create(address);
        tracing::info!(origin = self.origin, %address, session = %session.short_id, "signed in");
        let cookie = session_cookie(&self.cookie, &token, &self.path, self.secure);
        with_cookie(Json(json!({ "csrf": session.csrf })).into_response(), &cookie)
    }

    /// Ends the caller's session and deletes its cookie (the caller was checked first).
    pub(crate) fn signed_out(&self, headers: &HeaderMap) -> Result<Response, ApiError> {
        self.remove(headers);
        let cookie = expired_cookie(&self.cookie, &self.path, self.secure);
        with_cookie(Json(json!({})).into_response(), &cookie)
    }
}

fn with_cookie(mut response: Response, cookie: &str) -> Result<Response, ApiError> {
    response.headers_mut().insert(header::SET_COOKIE, HeaderValue::from_str(cookie).map_err(ApiError::internal)?);
    Ok(response)
}

/// Every value of one cookie in the request's `Cookie` headers, in order.
fn cookies<'h>(headers: &'h HeaderMap, name: &'h str) -> impl Iterator<Item = &'h str> + 'h {
    headers.get_all(header::COOKIE).iter().filter_map(|v| v.to_str().ok()).flat_map(|v| v.split(';')).filter_map(
        move |pair| {
            let (k, v) = pair.trim().split_once('=')?;
            (k == name && !v.is_empty()).then_some(v)
        },
    )
}

/// One cookie's value from the request's `Cookie` headers (the first, when there are several).
pub fn cookie(headers: &HeaderMap, name: &str) -> Option<String> {
    cookies(headers, name).next().map(str::to_owned)
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

/// The host names an origin answers to (its `--allowed-host`/`--trusted-host` list). An IP address and
/// `localhost` are always accepted: no DNS answer can rebind them. Any other name must be listed, so a page on
/// a foreign name that a hostile DNS points at this machine gets 421.
#[derive(Debug, Clone, Default)]
pub struct AllowedHosts(Vec<String>);

impl AllowedHosts {
    pub fn new(names: &[String]) -> Self {
        Self(names.iter().map(|n| n.trim().trim_end_matches('.').to_ascii_lowercase()).collect())
    }

    /// Whether a `Host` header's value (a name or address, with or without a port) is this origin's.
    pub fn allows(&self, host: &str) -> bool {
        let host = host.trim();
        if let Some(rest) = host.strip_prefix('[') {
            return rest.split_once(']').is_some_and(|(ip, _)| ip.parse::<std::net::Ipv6Addr>().is_ok());
        }
        let name = match host.rsplit_once(':') {
            Some((name, port)) if !port.is_empty() && port.chars().all(|c| c.is_ascii_digit()) => name,
            _ => host,
        };
        let name = name.trim_end_matches('.').to_ascii_lowercase();
        !name.is_empty() && (name.parse::<IpAddr>().is_ok() || name == "localhost" || self.0.contains(&name))
    }

    /// The first listed name, if any: where the origin is reached.
    pub fn first(&self) -> Option<&str> {
        self.0.first().map(String::as_str)
    }
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
    fn only_listed_names_ip_addresses_and_localhost_are_an_origin_s_hosts() {
        let hosts = AllowedHosts::new(&["aiui.node.lan".into()]);
        for ok in ["aiui.node.lan", "AIUI.node.lan.", "aiui.node.lan:443", "127.0.0.1:5180", "[::1]:5181", "localhost"]
        {
            assert!(hosts.allows(ok), "{ok}");
        }
        for refused in ["evil.example", "aiui.node.lan.evil.example", "", ":80", "[nonsense]:1", "approve.node.lan"] {
            assert!(!hosts.allows(refused), "{refused}");
        }
    }

    #[test]
    fn cookies_are_read_by_exact_name() {
        let mut h = HeaderMap::new();
        h.insert(header::COOKIE, "aiui_lan_x=1; aiui_lan=abc; other=2".parse().unwrap());
        assert_eq!(cookie(&h, "aiui_lan").as_deref(), Some("abc"));
        assert_eq!(cookie(&h, "aiui_trusted"), None);
    }
}
