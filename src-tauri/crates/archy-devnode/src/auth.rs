//! Who may call: the owner password, the TOTP second step, sessions with their CSRF tokens.

use std::collections::HashMap;
use std::fmt;
use std::time::{Duration, Instant};

use sha2::{Digest, Sha256};
use totp_rs::{Rfc6238, Secret, TOTP};

/// A pending (password-only) login must be finished with a TOTP code within this time.
pub(crate) const PENDING_TTL: Duration = Duration::from_secs(5 * 60);

/// The owner's credentials, kept only as what is needed to check them.
pub(crate) struct Credentials {
    password_digest: [u8; 32],
    totp: Option<TOTP>,
}

impl fmt::Debug for Credentials {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Credentials").field("totp", &self.totp.is_some()).finish_non_exhaustive()
    }
}

#[derive(Debug, thiserror::Error)]
pub(crate) enum CredentialsError {
    #[error("the password must not be empty")]
    EmptyPassword,
    #[error("the TOTP secret is not valid base32 (RFC 4648 letters A-Z and digits 2-7)")]
    BadTotpSecret,
}

impl Credentials {
    pub fn new(password: &str, totp_secret: Option<&str>) -> Result<Self, CredentialsError> {
        if password.is_empty() {
            return Err(CredentialsError::EmptyPassword);
        }
        let totp = totp_secret.map(build_totp).transpose()?;
        Ok(Self { password_digest: Sha256::digest(password.as_bytes()).into(), totp })
    }

    /// Compares digests in constant time, so timing says nothing about how much of a guess was right.
    pub fn password_matches(&self, candidate: &str) -> bool {
        let digest: [u8; 32] = Sha256::digest(candidate.as_bytes()).into();
        digest_eq(&digest, &self.password_digest)
    }

    pub fn totp_required(&self) -> bool {
        self.totp.is_some()
    }

    /// RFC 6238: SHA-1, 6 digits, 30 s steps, one step of skew either way. Spaces in the code are ignored, as
    /// authenticator apps show `123 456`.
    pub fn totp_matches(&self, code: &str, unix_time: u64) -> bool {
        let Some(totp) = &self.totp else { return false };
        let code: String = code.chars().filter(|c| !c.is_whitespace()).collect();
        if code.len() != 6 || !code.bytes().all(|b| b.is_ascii_digit()) {
            return false;
        }
        // totp-rs subtracts the skew from the current step, which would underflow at the epoch.
        unix_time >= totp.step && totp.check(&code, unix_time)
    }
}

fn build_totp(secret: &str) -> Result<TOTP, CredentialsError> {
    let normalised: String =
        secret.chars().filter(|c| !c.is_whitespace() && *c != '=' && *c != '-').collect::<String>().to_uppercase();
    let bytes = Secret::Encoded(normalised).to_bytes().map_err(|_| CredentialsError::BadTotpSecret)?;
    if bytes.is_empty() {
        return Err(CredentialsError::BadTotpSecret);
    }
    // `Rfc6238` carries the RFC's parameters but insists on 128-bit secrets, while many authenticators still
    // hand out 80-bit ones; the secret is swapped in after construction so those work too.
    let rfc = Rfc6238::with_defaults(vec![0; 16]).map_err(|_| CredentialsError::BadTotpSecret)?;
    let mut totp = TOTP::from_rfc6238(rfc).map_err(|_| CredentialsError::BadTotpSecret)?;
    totp.secret = bytes;
    Ok(totp)
}

/// Equality of two strings that takes the same time wherever they differ.
pub(crate) fn secret_eq(a: &str, b: &str) -> bool {
    let da: [u8; 32] = Sha256::digest(a.as_bytes()).into();
    let db: [u8; 32] = Sha256::digest(b.as_bytes()).into();
    digest_eq(&da, &db)
}

fn digest_eq(a: &[u8; 32], b: &[u8; 32]) -> bool {
    a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// A fresh random token: 32 bytes as lowercase hex.
pub(crate) fn random_token() -> String {
    hex::encode(rand::random::<[u8; 32]>())
}

#[derive(Debug)]
enum SessionKind {
    /// The password was right; a TOTP code is still owed.
    Pending,
    Authenticated {
        csrf: String,
    },
}

#[derive(Debug)]
struct Session {
    kind: SessionKind,
    expires: Instant,
}

/// Why a call was refused before it reached its method.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Refusal {
    /// 401: no cookie, an unknown or expired session, or one still waiting for its TOTP code.
    NotLoggedIn,
    /// 403: the `X-CSRF-Token` header is missing or is not this session's token.
    BadCsrf,
}

/// Live sessions, keyed by session id. Kept only in memory: a restart logs everyone out.
#[derive(Debug)]
pub(crate) struct Sessions {
    ttl: Duration,
    live: HashMap<String, Session>,
    /// Every session id and CSRF token handed out, for tests that look for leaks in logs.
    issued: Vec<String>,
}

impl Sessions {
    pub fn new(ttl: Duration) -> Self {
        Self { ttl, live: HashMap::new(), issued: Vec::new() }
    }

    /// Opens a session that only `auth.login.totp` can use. Returns its id.
    pub fn create_pending(&mut self, now: Instant) -> String {
        self.prune(now);
        let id = random_token();
        self.issued.push(id.clone());
        self.live.insert(id.clone(), Session { kind: SessionKind::Pending, expires: now + PENDING_TTL });
        id
    }

    /// Opens a fully authenticated session. Returns `(session id, csrf token)`.
    pub fn create_authenticated(&mut self, now: Instant) -> (String, String) {
        self.prune(now);
        let id = random_token();
        let csrf = random_token();
        self.issued.push(id.clone());
        self.issued.push(csrf.clone());
        let kind = SessionKind::Authenticated { csrf: csrf.clone() };
        self.live.insert(id.clone(), Session { kind, expires: now + self.ttl });
        (id, csrf)
    }

    /// True if `id` names a pending session that has not expired.
    pub fn is_pending(&self, id: &str, now: Instant) -> bool {
        matches!(self.live.get(id), Some(Session { kind: SessionKind::Pending, expires }) if *expires > now)
    }

    /// Ends a pending session so its id cannot be used twice. True if it was pending and unexpired.
    pub fn take_pending(&mut self, id: &str, now: Instant) -> bool {
        match self.live.get(id) {
            Some(Session { kind: SessionKind::Pending, expires }) => {
                let fresh = *expires > now;
                self.live.remove(id);
                fresh
            }
            _ => false,
        }
    }

    /// Checks a call's session cookie, then its CSRF header, in that order (401 before 403).
    pub fn authorize(&self, session: Option<&str>, csrf: Option<&str>, now: Instant) -> Result<(), Refusal> {
        let found = session.and_then(|id| self.live.get(id)).filter(|s| s.expires > now);
        let Some(Session { kind: SessionKind::Authenticated { csrf: expected }, .. }) = found else {
            return Err(Refusal::NotLoggedIn);
        };
        match csrf {
            Some(given) if secret_eq(given, expected) => Ok(()),
            _ => Err(Refusal::BadCsrf),
        }
    }

    pub fn remove(&mut self, id: &str) {
        self.live.remove(id);
    }

    pub fn expire_all(&mut self) {
        self.live.clear();
    }

    pub fn issued(&self) -> Vec<String> {
        self.issued.clone()
    }

    fn prune(&mut self, now: Instant) {
        self.live.retain(|_, s| s.expires > now);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // The RFC 6238 appendix B secret, "12345678901234567890" in base32.
    const RFC_SECRET: &str = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ";

    #[test]
    fn totp_accepts_one_step_of_skew_and_no_more() {
        let creds = Credentials::new("pw", Some(RFC_SECRET)).unwrap();
        // RFC 6238 appendix B: T=59 s gives 94287082 with 8 digits, so 287082 with 6.
        assert!(creds.totp_matches("287082", 59));
        assert!(creds.totp_matches("287 082", 59));
        assert!(creds.totp_matches("287082", 59 + 30), "one step late is accepted");
        assert!(!creds.totp_matches("287082", 59 + 60), "two steps late is refused");
        assert!(!creds.totp_matches("287083", 59));
        assert!(!creds.totp_matches("28708", 59));
        assert!(!creds.totp_matches("abcdef", 59));
        assert!(!creds.totp_matches("287082", 0));
        // T=1111111109 s → 07081804.
        assert!(creds.totp_matches("081804", 1_111_111_109));
    }

    #[test]
    fn short_secrets_and_bad_base32() {
        assert!(Credentials::new("pw", Some("JBSWY3DPEHPK3PXP")).is_ok(), "80-bit secrets are common");
        assert!(Credentials::new("pw", Some("jbsw y3dp ehpk 3pxp")).is_ok());
        assert!(matches!(Credentials::new("pw", Some("not base32!")), Err(CredentialsError::BadTotpSecret)));
        assert!(matches!(Credentials::new("pw", Some("")), Err(CredentialsError::BadTotpSecret)));
        assert!(matches!(Credentials::new("", None), Err(CredentialsError::EmptyPassword)));
    }

    #[test]
    fn password_check() {
        let creds = Credentials::new("correct horse", None).unwrap();
        assert!(creds.password_matches("correct horse"));
        assert!(!creds.password_matches("correct hors"));
        assert!(!creds.password_matches(""));
        assert!(!creds.totp_required());
    }

    #[test]
    fn sessions_check_cookie_then_csrf_and_expire() {
        let t0 = Instant::now();
        let mut sessions = Sessions::new(Duration::from_secs(10));
        let (id, csrf) = sessions.create_authenticated(t0);
        assert_eq!(sessions.authorize(Some(&id), Some(&csrf), t0), Ok(()));
        assert_eq!(sessions.authorize(Some(&id), None, t0), Err(Refusal::BadCsrf));
        assert_eq!(sessions.authorize(Some(&id), Some("nope"), t0), Err(Refusal::BadCsrf));
        assert_eq!(sessions.authorize(None, Some(&csrf), t0), Err(Refusal::NotLoggedIn));
        assert_eq!(sessions.authorize(Some("nope"), Some(&csrf), t0), Err(Refusal::NotLoggedIn));
        let later = t0 + Duration::from_secs(10);
        assert_eq!(sessions.authorize(Some(&id), Some(&csrf), later), Err(Refusal::NotLoggedIn));
        assert_eq!(sessions.issued(), vec![id, csrf]);
    }

    #[test]
    fn a_pending_session_is_not_a_login_and_is_used_once() {
        let t0 = Instant::now();
        let mut sessions = Sessions::new(Duration::from_secs(10));
        let pending = sessions.create_pending(t0);
        assert_eq!(sessions.authorize(Some(&pending), None, t0), Err(Refusal::NotLoggedIn));
        assert!(sessions.is_pending(&pending, t0));
        assert!(!sessions.is_pending(&pending, t0 + PENDING_TTL));
        assert!(sessions.take_pending(&pending, t0));
        assert!(!sessions.take_pending(&pending, t0), "a pending id works once");
        let stale = sessions.create_pending(t0);
        assert!(!sessions.take_pending(&stale, t0 + PENDING_TTL));
        let (id, _) = sessions.create_authenticated(t0);
        assert!(!sessions.take_pending(&id, t0), "a full session is not a pending one");
        sessions.expire_all();
        assert_eq!(sessions.authorize(Some(&id), None, t0), Err(Refusal::NotLoggedIn));
    }
}
