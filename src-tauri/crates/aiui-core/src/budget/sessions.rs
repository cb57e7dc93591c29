//! Liveness locks: each process holds `sessions/<session>.lock` locked for its whole life, so that another process
//! can tell whether a session's reservations and payments still have an owner.
//!
//! A lock file never appears under its final name unlocked: it is made and locked under a temporary name, then
//! renamed. Otherwise another process's [`alive`] could lock it in the gap, find it ownerless and delete it, and
//! its owner would go on holding a lock on a file nobody can find, looking dead to everyone (who would then release
//! its reservations mid-request). So a final-name file that can be locked belongs to a process that is gone.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Temporary names start with this and never end in [`LOCK_SUFFIX`], so nothing takes them for a session.
const TEMP_PREFIX: &str = ".tmp-";
const LOCK_SUFFIX: &str = ".lock";
/// A temporary file lives for the instant between its creation and its rename; one this old was left by a process
/// that died in between. Younger ones are left alone even when they can be locked: their maker may not have locked
/// them yet.
const STALE_TEMP_AGE: Duration = Duration::from_secs(60);
/// Attempts at taking the lock: a sweeper whose clock disagrees may still remove a fresh temporary file.
const ATTEMPTS: usize = 3;

pub(super) fn sessions_dir(budget_path: &Path) -> PathBuf {
    budget_path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new(".")).join("sessions")
}

/// The session a directory entry's name stands for, if it is a liveness lock.
pub(super) fn session_of(file_name: &str) -> Option<&str> {
    file_name.strip_suffix(LOCK_SUFFIX).filter(|s| !s.starts_with(TEMP_PREFIX))
}

/// Creates and locks `<dir>/<session>.lock` for this process's life. Without it (a read-only data dir), this
/// process's reservations look dead to others, which only matters if they can write the same dir, which it cannot.
pub(super) fn take(dir: &Path, session: &str) -> Option<File> {
    let final_path = dir.join(format!("{session}{LOCK_SUFFIX}"));
    if let Err(e) = crate::paths::ensure_private_dir(dir) {
        tracing::warn!(path = %final_path.display(), error = %e, "budget: no liveness lock; other processes may treat this one as gone");
        return None;
    }
    sweep_stale_temps(dir);
    let mut failure = None;
    for attempt in 0..ATTEMPTS {
        let temp = dir.join(format!("{TEMP_PREFIX}{session}-{attempt}"));
        match lock_then_rename(&temp, &final_path) {
            Ok(file) => return Some(file),
            Err(e) => failure = Some(e),
        }
    }
    if let Some(e) = failure {
        tracing::warn!(path = %final_path.display(), error = %e, "budget: no liveness lock; other processes may treat this one as gone");
    }
    None
}

fn lock_then_rename(temp: &Path, final_path: &Path) -> std::io::Result<File> {
    let file = crate::paths::private_file_options().create_new(true).write(true).open(temp)?;
    let result = file.lock().and_then(|()| std::fs::rename(temp, final_path));
    if result.is_err() {
        let _ = std::fs::remove_file(temp);
    }
    result.map(|()| file)
}

/// Whether the process holding `session` still runs. A lock file that cannot be read is treated as alive: when in
/// doubt, nothing is released. One that can be locked is removed: its owner is gone.
pub(super) fn alive(dir: &Path, session: &str) -> bool {
    let path = dir.join(format!("{session}{LOCK_SUFFIX}"));
    let file = match std::fs::OpenOptions::new().read(true).write(true).open(&path) {
        Ok(file) => file,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return false,
        Err(_) => return true,
    };
    match file.try_lock() {
        Ok(()) => {
            let _ = std::fs::remove_file(&path);
            false
        }
        Err(std::fs::TryLockError::WouldBlock | std::fs::TryLockError::Error(_)) => true,
    }
}

/// Removes temporary files that processes died with, only when they are old and can be locked (nobody holds them).
fn sweep_stale_temps(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        if !entry.file_name().to_string_lossy().starts_with(TEMP_PREFIX) {
            continue;
        }
        let old = entry
            .metadata()
            .and_then(|m| m.modified())
            .is_ok_and(|modified| modified.elapsed().is_ok_and(|age| age >= STALE_TEMP_AGE));
        if !old {
            continue;
        }
        let path = entry.path();
        if let Ok(file) = std::fs::OpenOptions::new().read(true).write(true).open(&path)
            && file.try_lock().is_ok()
        {
            let _ = std::fs::remove_file(&path);
        }
    }
}
