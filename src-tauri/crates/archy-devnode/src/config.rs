//! The devnode's configuration: credentials, data directory, timings, mints and fault knobs.

use std::fmt;
use std::path::PathBuf;
use std::time::Duration;

/// A Cashu mint the node advertises through `streaming.list-mints`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MintConfig {
    pub url: String,
    pub unit: String,
    pub trusted: bool,
}

/// Faults injected into RPC answers, so tests can see how a client copes with a slow or flaky node.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Faults {
    /// Added before every `/rpc/v1` answer, logins included.
    pub latency: Duration,
    /// The share in `[0, 1]` of authenticated calls (not `auth.*`, not `/health`) that answer 500. The pattern
    /// is deterministic: see [`crate::faults::FaultPattern`].
    pub error_share: f64,
}

/// Everything a devnode needs to run. Build it with [`DevNodeConfig::new`] and adjust the public fields.
#[derive(Clone)]
pub struct DevNodeConfig {
    /// The owner password. There is no username, as on a real node.
    pub password: String,
    /// A base32 TOTP secret. When set, a correct password only opens a pending session that
    /// `auth.login.totp` completes.
    pub totp_secret: Option<String>,
    /// Where `state.json` and the TLS certificate live. Created if missing.
    pub data_dir: PathBuf,
    /// Serve HTTPS with a self-signed certificate kept in `data_dir`.
    pub tls: bool,
    /// How long a session lives after login.
    pub session_ttl: Duration,
    /// How long a package stays in a transitional state (`starting`, `stopping`, …).
    pub transition: Duration,
    /// Failed logins allowed per client IP in any 60 s window; 0 turns the limit off.
    pub login_failures_per_minute: u32,
    pub mints: Vec<MintConfig>,
    pub faults: Faults,
    /// The shape read methods answer in (full, minimal or broken).
    pub shapes: crate::Shapes,
}

impl DevNodeConfig {
    pub fn new(password: impl Into<String>, data_dir: impl Into<PathBuf>) -> Self {
        Self {
            password: password.into(),
            totp_secret: None,
            data_dir: data_dir.into(),
            tls: false,
            session_ttl: Duration::from_secs(12 * 60 * 60),
            transition: Duration::from_millis(1500),
            login_failures_per_minute: 5,
            mints: default_mints(),
            faults: Faults::default(),
            shapes: crate::Shapes::Full,
        }
    }
}

/// Two well-known public mints, so a fresh demo has something to show.
pub(crate) fn default_mints() -> Vec<MintConfig> {
    vec![
        MintConfig { url: "https://mint.minibits.cash/Bitcoin".into(), unit: "sat".into(), trusted: true },
        MintConfig { url: "https://mint.coinos.io".into(), unit: "sat".into(), trusted: true },
    ]
}

impl fmt::Debug for DevNodeConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DevNodeConfig")
            .field("password", &"[redacted]")
            .field("totp_secret", &self.totp_secret.as_ref().map(|_| "[redacted]"))
            .field("data_dir", &self.data_dir)
            .field("tls", &self.tls)
            .field("session_ttl", &self.session_ttl)
            .field("transition", &self.transition)
            .field("login_failures_per_minute", &self.login_failures_per_minute)
            .field("mints", &self.mints)
            .field("faults", &self.faults)
            .field("shapes", &self.shapes)
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn debug_hides_password_and_totp_secret() {
        let mut config = DevNodeConfig::new("hunter2-correct-horse", "/tmp/x");
        config.totp_secret = Some("JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP".into());
        let printed = format!("{config:?}");
        assert!(!printed.contains("hunter2"), "{printed}");
        assert!(!printed.contains("JBSWY3DP"), "{printed}");
        assert!(printed.contains("[redacted]"));
    }
}
