//! Where AIUI keeps its files: one private data dir (0700, files 0600) for conversations, the audit log, the
//! budget, the wallet and its ledger.

use std::path::{Path, PathBuf};

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

    /// Which format the dir is in and which AIUI wrote it (`crate::datadir`).
    pub fn format_marker(&self) -> PathBuf {
        self.0.join("aiui-data.json")
    }
}

/// Creates `dir` (and its parents) and makes it private to the owner (0700 on Unix): the data dir holds ecash, the
/// ledger, conversations and the audit log, which no other local user may read.
pub fn ensure_private_dir(dir: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(dir)?.permissions().mode() & 0o777;
        if mode != 0o700 {
            std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700))?;
        }
    }
    Ok(())
}

/// Makes an existing file private to the owner (0600 on Unix); a missing file is created empty first, so that a
/// database opened on it afterwards (and SQLite's -wal/-shm files, which copy its mode) is never world-readable.
///
/// An existing file is never opened here: closing a descriptor drops every POSIX lock this process holds on the
/// file, and SQLite's locks are such locks. Opening the wallet or the ledger again while a connection of this
/// process has it open would otherwise let another process (the CLI beside the desktop app) check-point the WAL
/// and delete it under that connection, whose next read fails with "disk I/O error" (found by the money explorer).
pub fn ensure_private_file(path: &Path) -> std::io::Result<()> {
    if !path.exists() {
        let mut options = std::fs::OpenOptions::new();
        options.create(true).append(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            options.mode(0o600);
        }
        drop(options.open(path)?);
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600))?;
    }
    Ok(())
}

/// Options that create a new file readable and writable by the owner only (0600 on Unix).
pub fn private_file_options() -> std::fs::OpenOptions {
    let mut options = std::fs::OpenOptions::new();
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    options
}

#[cfg(test)]
mod tests {
    /// A database this process holds locked stays locked for every other process when it is made private again
    /// (the wallet or ledger opened a second time in one process). The other process is a real one: Python's sqlite3.
    #[test]
    fn making_an_open_database_private_keeps_this_process_s_locks_on_it() {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("locked.sqlite3");
        let conn = rusqlite::Connection::open(&db).unwrap();
        conn.execute_batch("CREATE TABLE t (x); BEGIN EXCLUSIVE; INSERT INTO t VALUES (1);").unwrap();
        super::ensure_private_file(&db).unwrap();
        let script = "import sqlite3, sys\nc = sqlite3.connect(sys.argv[1], timeout=0)\nc.execute('BEGIN IMMEDIATE')";
        let other = std::process::Command::new("python3")
            .args(["-c", script])
            .arg(&db)
            .output()
            .expect("python3 runs (scripts/setup installs it)");
        let said = String::from_utf8_lossy(&other.stderr);
        assert!(!other.status.success(), "another process took the lock this one holds");
        assert!(said.contains("locked"), "{said}");
        conn.execute_batch("COMMIT").unwrap();
    }
}
