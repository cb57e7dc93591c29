//! Where AIUI keeps its files: one data dir for conversations, the audit log and (later) the wallet.

use std::path::PathBuf;

/// `$AIUI_DATA_DIR`, else `$XDG_DATA_HOME/aiui`, else `~/.local/share/aiui`. `None` only when no home is known.
pub fn default_data_dir() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("AIUI_DATA_DIR").filter(|d| !d.is_empty()) {
        return Some(PathBuf::from(dir));
    }
    if let Some(xdg) = std::env::var_os("XDG_DATA_HOME").filter(|d| !d.is_empty()) {
        return Some(PathBuf::from(xdg).join("aiui"));
    }
    std::env::var_os("HOME").filter(|h| !h.is_empty()).map(|home| PathBuf::from(home).join(".local/share/aiui"))
}

/// The files inside a data dir.
#[derive(Debug, Clone)]
pub struct DataDir(pub PathBuf);

impl DataDir {
    pub fn conversations(&self) -> PathBuf {
        self.0.join("conversations.sqlite3")
    }

    pub fn audit_log(&self) -> PathBuf {
        self.0.join("audit.jsonl")
    }
}
