//! Locks on the wallet's data dir that every process honours (the desktop app, `aiui-cli serve`, a CLI reconcile):
//! one that cdk operations moving proofs hold shared and cdk's saga recovery holds alone, and one that lets a
//! single `reconcile` run at a time.
//!
//! cdk's recovery undoes a send caught between choosing its proofs and building its token; run while another
//! process is in the middle of one, it would take back proofs that are about to leave. Two reconciles on one row
//! would both receive its change, and the second would take the mint's "already spent" for a lie. Both are
//! `flock`s: the kernel drops them when a process dies, so a crash never leaves one held.

use std::fs::{File, TryLockError};
use std::path::{Path, PathBuf};
use std::time::Duration;

use super::PayError;

/// How long a cdk operation waits for a recovery in another process to finish before it gives up (the recovery's
/// mint requests are bounded by the door's timeouts, well under this).
const WAIT_FOR_RECOVERY: Duration = Duration::from_secs(90);

#[derive(Debug, Clone)]
pub(crate) struct DataDirLocks {
    operations: PathBuf,
    reconcile: PathBuf,
}

/// Held while a cdk operation runs, or while recovery or reconcile runs alone: released when dropped.
#[derive(Debug)]
pub(crate) struct Held(#[allow(dead_code)] Option<File>);

impl DataDirLocks {
    pub(crate) fn new(data_dir: &Path) -> Self {
        Self { operations: data_dir.join("wallet-operations.lock"), reconcile: data_dir.join("reconcile.lock") }
    }

    /// Shared with every other operation in any process; waits while a recovery runs. A data dir where no lock
    /// file can be made (read-only) holds no lock: such a process cannot write the wallet either.
    pub(crate) async fn operation(&self) -> Result<Held, PayError> {
        let Some(file) = open(&self.operations) else { return Ok(Held(None)) };
        let deadline = tokio::time::Instant::now() + WAIT_FOR_RECOVERY;
        loop {
            match file.try_lock_shared() {
                Ok(()) => return Ok(Held(Some(file))),
                Err(TryLockError::WouldBlock) if tokio::time::Instant::now() < deadline => {
                    tokio::time::sleep(Duration::from_millis(25)).await;
                }
                Err(TryLockError::WouldBlock) => {
                    return Err(PayError::Store(
                        "another AIUI process has been recovering the wallet for over 90 s; nothing was paid or \
                         received. Try again in a minute"
                            .into(),
                    ));
                }
                Err(TryLockError::Error(e)) => {
                    tracing::warn!(error = %e, "pay: no wallet operation lock; other processes are not excluded");
                    return Ok(Held(None));
                }
            }
        }
    }

    /// Alone: no operation runs in any process. `None` when one does (recovery waits for a later run).
    pub(crate) fn recovery(&self) -> Option<Held> {
        exclusive(&self.operations)
    }

    /// The one reconcile of the data dir. `None` while another process (or task) reconciles.
    pub(crate) fn reconcile(&self) -> Option<Held> {
        exclusive(&self.reconcile)
    }
}

fn open(path: &Path) -> Option<File> {
    match crate::paths::private_file_options().create(true).truncate(false).write(true).open(path) {
        Ok(file) => Some(file),
        Err(e) => {
            tracing::warn!(path = %path.display(), error = %e, "pay: cannot open a lock file");
            None
        }
    }
}

fn exclusive(path: &Path) -> Option<Held> {
    let Some(file) = open(path) else { return Some(Held(None)) };
    match file.try_lock() {
        Ok(()) => Some(Held(Some(file))),
        Err(TryLockError::WouldBlock) => None,
        Err(TryLockError::Error(e)) => {
            tracing::warn!(path = %path.display(), error = %e, "pay: no lock; other processes are not excluded");
            Some(Held(None))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn recovery_waits_for_every_operation_and_reconcile_runs_once() {
        let dir = tempfile::tempdir().unwrap();
        // Two handles on one dir stand for two processes: flock conflicts per open file, not per process.
        let (a, b) = (DataDirLocks::new(dir.path()), DataDirLocks::new(dir.path()));
        let op = a.operation().await.unwrap();
        let other_op = b.operation().await.unwrap();
        assert!(b.recovery().is_none(), "an operation elsewhere holds recovery off");
        drop((op, other_op));
        let recovering = b.recovery().expect("nothing runs: recovery may");
        assert!(
            tokio::time::timeout(Duration::from_millis(200), a.operation()).await.is_err(),
            "an operation waits while a recovery runs"
        );
        drop(recovering);
        let _op = a.operation().await.unwrap();

        let first = a.reconcile().expect("the first reconcile runs");
        assert!(b.reconcile().is_none(), "a second reconcile of the same dir does not");
        drop(first);
        assert!(b.reconcile().is_some());
    }
}
