//! The store's schema and its migrations, versioned by `PRAGMA user_version`.

use std::path::Path;

use rusqlite::{Connection, TransactionBehavior};

use super::{Failure, StoreError};

/// Migration `i` takes the schema from version `i` to `i + 1`. Append only: a shipped migration is never edited,
/// because stores in the field have already run it.
///
/// `entries.kind` has no CHECK constraint on purpose: a newer version may add kinds, and an older one reading the
/// same file skips what it does not know instead of failing.
const MIGRATIONS: &[&str] = &["
    CREATE TABLE conversations (
        id            TEXT PRIMARY KEY NOT NULL,
        title         TEXT NOT NULL,
        created_at_ms INTEGER NOT NULL,
        updated_at_ms INTEGER NOT NULL
    );
    CREATE INDEX conversations_by_update ON conversations (updated_at_ms);
    CREATE TABLE entries (
        conversation_id TEXT NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
        seq             INTEGER NOT NULL,
        at_ms           INTEGER NOT NULL,
        kind            TEXT NOT NULL,
        backend_json    TEXT,
        body_json       TEXT NOT NULL,
        PRIMARY KEY (conversation_id, seq)
    );
"];

/// The schema version this build writes.
pub(super) const VERSION: i64 = MIGRATIONS.len() as i64;

/// Brings the schema up to [`VERSION`], each run of migrations in one transaction so a crash leaves the old
/// version intact.
pub(super) fn migrate(conn: &mut Connection, path: &Path) -> Result<(), Failure> {
    if user_version(conn)? == VERSION {
        return Ok(());
    }
    // IMMEDIATE, and the version read again inside: two processes opening a fresh store at once must not both
    // run migration 0.
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    let found = user_version(&tx)?;
    if found > VERSION {
        return Err(StoreError::TooNew { path: path.to_path_buf(), found, supported: VERSION }.into());
    }
    let Ok(done) = usize::try_from(found) else {
        return Err(StoreError::Corrupt { path: path.to_path_buf() }.into());
    };
    for sql in MIGRATIONS.iter().skip(done) {
        tx.execute_batch(sql)?;
    }
    tx.pragma_update(None, "user_version", VERSION)?;
    tx.commit()?;
    Ok(())
}

fn user_version(conn: &Connection) -> rusqlite::Result<i64> {
    conn.pragma_query_value(None, "user_version", |row| row.get(0))
}
