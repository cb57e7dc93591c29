//! The store's schema and its migrations, versioned by `PRAGMA user_version`.

use std::path::Path;

use rusqlite::{Connection, Transaction, TransactionBehavior, params};
use serde_json::{Value, json};

use super::{Failure, StoreError};

/// One step of the schema: SQL, or Rust where the rows' JSON must be rewritten.
enum Migration {
    Sql(&'static str),
    Rust(fn(&Transaction<'_>) -> rusqlite::Result<()>),
}

/// Migration `i` takes the schema from version `i` to `i + 1`. Append only: a shipped migration is never edited,
/// because stores in the field have already run it.
///
/// `entries.kind` has no CHECK constraint on purpose: a newer version may add kinds, and an older one reading the
/// same file skips what it does not know instead of failing.
const MIGRATIONS: &[Migration] = &[
    Migration::Sql(
        "
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
",
    ),
    Migration::Rust(tool_call_input),
];

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
    for migration in MIGRATIONS.iter().skip(done) {
        match migration {
            Migration::Sql(sql) => tx.execute_batch(sql)?,
            Migration::Rust(step) => step(&tx)?,
        }
    }
    tx.pragma_update(None, "user_version", VERSION)?;
    tx.commit()?;
    Ok(())
}

fn user_version(conn: &Connection) -> rusqlite::Result<i64> {
    conn.pragma_query_value(None, "user_version", |row| row.get(0))
}

/// 1 → 2 (AIUI 0.1.0 → 0.2.0): a tool call's arguments were stored as serde's form of a Rust `Result`,
/// `"arguments": {"Ok": {…}}` or `{"Err": {"reason", "raw"}}`; they become the store's own
/// `"input": {"arguments": {…}}` or `{"refused": {"reason", "raw"}}` (see `body.rs`).
///
/// Written against the JSON, not the body types, so that changing those later cannot change what this step did. A
/// row it cannot read is left as it is: the reader skips it, as it would have before.
fn tool_call_input(tx: &Transaction<'_>) -> rusqlite::Result<()> {
    let rows: Vec<(i64, Option<String>)> = {
        let mut select = tx.prepare("SELECT rowid, body_json FROM entries WHERE kind = 'message'")?;
        let rows = select.query_map([], |row| Ok((row.get(0)?, row.get_ref(1)?.as_str().ok().map(str::to_owned))))?;
        rows.collect::<rusqlite::Result<_>>()?
    };
    let mut update = tx.prepare("UPDATE entries SET body_json = ?2 WHERE rowid = ?1")?;
    for (rowid, body) in rows {
        if let Some(body) = body.as_deref().and_then(with_tool_call_input) {
            update.execute(params![rowid, body])?;
        }
    }
    Ok(())
}

/// The body with each 0.1.0 tool call rewritten, or `None` when there is nothing to rewrite.
fn with_tool_call_input(body: &str) -> Option<String> {
    let mut body: Value = serde_json::from_str(body).ok()?;
    if body.get("role")? != "assistant" {
        return None;
    }
    let mut changed = false;
    for call in body.get_mut("tool_calls")?.as_array_mut()? {
        let Some(call) = call.as_object_mut() else { continue };
        if call.contains_key("input") {
            continue;
        }
        let input = match call.get("arguments") {
            Some(Value::Object(old)) if old.len() == 1 => match old.iter().next() {
                Some((tag, value)) if tag == "Ok" => json!({ "arguments": value }),
                Some((tag, value)) if tag == "Err" => json!({ "refused": value }),
                _ => continue,
            },
            _ => continue,
        };
        call.remove("arguments");
        call.insert("input".to_owned(), input);
        changed = true;
    }
    changed.then(|| body.to_string())
}
