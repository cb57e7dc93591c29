//! The owner's hold on a running service, through files in its data dir (so `aiui-cli serve sessions` and
//! `serve set-password` work from another process, as the service's user): the service keeps the live sessions in
//! `web-sessions.json` (no token in it), ends the ones named in `web-sessions-revoke.json`, and reloads a
//! passphrase or TOTP secret whose file changed, ending that origin's sessions. Checked once a second.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use serde::{Deserialize, Serialize};

use crate::auth::SessionInfo;
use crate::chat::ChatOrigin;
use crate::passphrase::{self, Kind};
use crate::trusted::{Secrets, TrustedOrigin};

/// How often the files are looked at: a revocation or a new passphrase takes effect within this.
pub const CHECK_EVERY: Duration = Duration::from_secs(1);

/// The live sessions of both origins, as the service last wrote them.
pub fn sessions_file(data_dir: &Path) -> PathBuf {
    data_dir.join("web-sessions.json")
}

/// The sessions the owner asked to end; the service removes the file once it has ended them.
pub fn revoke_file(data_dir: &Path) -> PathBuf {
    data_dir.join("web-sessions-revoke.json")
}

/// What `web-sessions.json` holds.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct SessionList {
    /// When the service wrote it (it rewrites it at least every minute while running).
    pub written_at_ms: i64,
    pub sessions: Vec<SessionInfo>,
}

/// What `web-sessions-revoke.json` asks: these short ids, or every session.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Revoke {
    #[serde(default)]
    pub ids: Vec<String>,
    #[serde(default)]
    pub all: bool,
}

/// Asks the running service to end sessions (written for `aiui-cli serve sessions revoke`). Ids it does not hold
/// are ignored by the service; the caller checks them against the list first.
pub fn request_revoke(data_dir: &Path, revoke: &Revoke) -> anyhow::Result<()> {
    let bytes = serde_json::to_vec(revoke)?;
    passphrase::write_private(&revoke_file(data_dir), &bytes)?;
    Ok(())
}

/// Reads the list the service wrote; `None` when there is none (the service never ran here).
pub fn read_sessions(data_dir: &Path) -> anyhow::Result<Option<SessionList>> {
    let path = sessions_file(data_dir);
    match std::fs::read(&path) {
        Ok(bytes) => Ok(Some(serde_json::from_slice(&bytes).map_err(|e| {
            anyhow::anyhow!("{} is not a session list ({e}); the service rewrites it within a second", path.display())
        })?)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(anyhow::anyhow!("{}: {e}", path.display())),
    }
}

pub(crate) struct Control {
    data_dir: PathBuf,
    chat: Arc<ChatOrigin>,
    trusted: Arc<TrustedOrigin>,
}

/// The modification times of the secret files, to see when one changed.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Stamps {
    lan: Option<SystemTime>,
    approval: Option<SystemTime>,
    totp: Option<SystemTime>,
}

fn modified(path: &Path) -> Option<SystemTime> {
    std::fs::metadata(path).and_then(|m| m.modified()).ok()
}

impl Control {
    pub(crate) fn new(data_dir: &Path, chat: Arc<ChatOrigin>, trusted: Arc<TrustedOrigin>) -> Self {
        Self { data_dir: data_dir.to_owned(), chat, trusted }
    }

    fn stamps(&self) -> Stamps {
        Stamps {
            lan: modified(&Kind::Lan.file(&self.data_dir)),
            approval: modified(&Kind::Approval.file(&self.data_dir)),
            totp: modified(&passphrase::totp_file(&self.data_dir)),
        }
    }

    pub(crate) async fn run(self) {
        let mut stamps = self.stamps();
        let mut written: Option<(u64, u64)> = None;
        let mut last_write = std::time::Instant::now();
        let mut tick = tokio::time::interval(CHECK_EVERY);
        loop {
            tick.tick().await;
            self.revocations();
            let now = self.stamps();
            if now != stamps {
                self.reload(&stamps, &now);
                stamps = now;
            }
            let generation = (self.chat.rules.sessions.generation(), self.trusted.rules.sessions.generation());
            if written != Some(generation) || last_write.elapsed() > Duration::from_secs(60) {
                match self.write_list() {
                    Ok(()) => {
                        written = Some(generation);
                        last_write = std::time::Instant::now();
                    }
                    Err(e) => tracing::warn!(error = %e, "the session list could not be written"),
                }
            }
        }
    }

    fn write_list(&self) -> anyhow::Result<()> {
        let mut sessions = self.chat.rules.sessions.list();
        sessions.extend(self.trusted.rules.sessions.list());
        let list = SessionList { written_at_ms: aiui_core::now_ms(), sessions };
        passphrase::write_private(&sessions_file(&self.data_dir), &serde_json::to_vec_pretty(&list)?)?;
        Ok(())
    }

    fn revocations(&self) {
        let path = revoke_file(&self.data_dir);
        let Ok(bytes) = std::fs::read(&path) else { return };
        // Removed first: a bad file is not read again every second.
        let _ = std::fs::remove_file(&path);
        let revoke: Revoke = match serde_json::from_slice(&bytes) {
            Ok(revoke) => revoke,
            Err(e) => {
                tracing::warn!(error = %e, "{} was not a revocation; nothing was ended", path.display());
                return;
            }
        };
        let ids = (!revoke.all).then_some(revoke.ids.as_slice());
        let ended = self.chat.rules.sessions.revoke(ids) + self.trusted.rules.sessions.revoke(ids);
        tracing::info!(ended, all = revoke.all, "sessions ended by the owner");
    }

    fn reload(&self, before: &Stamps, now: &Stamps) {
        if before.lan != now.lan {
            match passphrase::StoredHash::load(&self.data_dir, Kind::Lan) {
                Ok(Some(hash)) => {
                    *self.chat.lan.write().unwrap_or_else(|p| p.into_inner()) = hash;
                    let ended = self.chat.rules.sessions.revoke(None);
                    tracing::info!(ended, "the LAN passphrase changed: it is in use now, and every chat session ended");
                }
                // Removed or unreadable: the old one stays, rather than an open or a closed door by accident.
                Ok(None) => tracing::warn!("the LAN passphrase file is gone; the one loaded before stays in use"),
                Err(e) => tracing::warn!(error = %e, "the new LAN passphrase could not be read; the old one stays"),
            }
        }
        if before.approval != now.approval || before.totp != now.totp {
            let approval = passphrase::StoredHash::load(&self.data_dir, Kind::Approval);
            let totp = passphrase::load_totp(&self.data_dir);
            match (approval, totp) {
                (Ok(approval), Ok(totp)) if approval.is_some() || totp.is_some() => {
                    *self.trusted.secrets.write().unwrap_or_else(|p| p.into_inner()) = Secrets { approval, totp };
                    let ended = self.trusted.rules.sessions.revoke(None);
                    tracing::info!(ended, "the approval secrets changed: in use now, and every trusted session ended");
                }
                (Ok(_), Ok(_)) => tracing::warn!("no approval secret is left on disk; the ones loaded before stay"),
                (Err(e), _) => tracing::warn!(error = %e, "the approval passphrase could not be read; the old stays"),
                (_, Err(e)) => tracing::warn!(error = %e, "the TOTP secret could not be read; the old one stays"),
            }
        }
    }
}
