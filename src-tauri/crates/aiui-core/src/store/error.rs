//! `StoreError`: why the conversation store could not do what was asked, worded for the owner.

use std::io;
use std::path::{Path, PathBuf};

use rusqlite::ErrorCode;

use super::ConversationId;

/// A conversation store failure. The `Display` text is shown to the owner as-is, so it says what happened and
/// what to do, not which SQLite call failed (that goes to the log).
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// No conversation has this id (never created, or the id came from another store).
    #[error("conversation {0} was not found")]
    NotFound(ConversationId),
    /// SQLite reported `SQLITE_FULL`, or the file could not be created for lack of space.
    #[error("the disk is full: the conversation could not be saved; free space and try again")]
    DiskFull,
    /// The file is not a SQLite database, or SQLite found it damaged.
    #[error(
        "the conversation store {} is damaged and cannot be read; move it aside to start a new one, or restore \
         it from a backup",
        path.display()
    )]
    Corrupt { path: PathBuf },
    /// Another process held the database lock for longer than the busy timeout.
    #[error(
        "the conversation store {} is in use by another program (is a second AIUI running?); try again",
        path.display()
    )]
    Busy { path: PathBuf },
    /// The schema version is newer than this build knows. Opening it anyway could write rows the newer schema
    /// forbids, so it is refused rather than risked.
    #[error(
        "the conversation store {} was written by a newer version of AIUI (schema {found}, this version knows \
         up to {supported}); update AIUI to open it",
        path.display()
    )]
    TooNew { path: PathBuf, found: i64, supported: i64 },
    /// The file or its folder cannot be opened, read or written: permissions, a read-only disk, an I/O error.
    #[error("the conversation store {} cannot be opened or written: {reason}", path.display())]
    Unavailable { path: PathBuf, reason: String },
    #[error("the conversation store failed: {0}")]
    Other(String),
}

impl StoreError {
    /// Classifies a SQLite failure by its primary result code.
    pub(super) fn from_sqlite(path: &Path, error: &rusqlite::Error) -> Self {
        let path = path.to_path_buf();
        match error.sqlite_error_code() {
            Some(ErrorCode::DiskFull) => Self::DiskFull,
            Some(ErrorCode::DatabaseCorrupt | ErrorCode::NotADatabase) => Self::Corrupt { path },
            Some(ErrorCode::DatabaseBusy | ErrorCode::DatabaseLocked) => Self::Busy { path },
            Some(
                ErrorCode::CannotOpen
                | ErrorCode::ReadOnly
                | ErrorCode::PermissionDenied
                | ErrorCode::SystemIoFailure
                | ErrorCode::NoLargeFileSupport,
            ) => Self::Unavailable { path, reason: error.to_string() },
            _ => Self::Other(error.to_string()),
        }
    }

    /// Classifies a failure to prepare the file before SQLite opens it.
    pub(super) fn from_io(path: &Path, error: &io::Error) -> Self {
        match error.kind() {
            io::ErrorKind::StorageFull => Self::DiskFull,
            _ => Self::Unavailable { path: path.to_path_buf(), reason: error.to_string() },
        }
    }
}
