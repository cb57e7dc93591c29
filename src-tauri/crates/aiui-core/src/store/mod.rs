//! The conversation store: every conversation as an append-only log of entries (messages, surfaces, notices) in
//! one SQLite file, so a conversation survives a restart and can be replayed to a backend.
//!
//! Each entry is stored as JSON in its own row, so a row this version cannot read (written by a newer version, or
//! damaged) costs that one entry, never the conversation: [`Store::load`] skips it with a warning.

mod body;
mod error;
mod schema;
#[cfg(test)]
mod tests;
mod window;

pub use error::StoreError;

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, PoisonError};
use std::time::Duration;

use rusqlite::{Connection, OptionalExtension, Row, TransactionBehavior, params};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::backends::{BackendId, Message, StepCost};

/// How long a write waits for another process (a second AIUI, a backup tool) to release the database.
const BUSY_TIMEOUT: Duration = Duration::from_secs(5);

/// The `entries.kind` values this version writes and reads.
const KIND_MESSAGE: &str = "message";
const KIND_SURFACE: &str = "surface";
const KIND_NOTICE: &str = "notice";

/// A conversation's id: 128 random bits as 32 lowercase hex digits.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct ConversationId(pub String);

impl ConversationId {
    /// A fresh random id.
    pub fn random() -> Self {
        Self(format!("{:032x}", rand::random::<u128>()))
    }
}

impl fmt::Display for ConversationId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// One line of the conversation list.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConversationSummary {
    pub id: ConversationId,
    pub title: String,
    pub created_at_ms: i64,
    /// When the last entry was appended (renaming does not count).
    pub updated_at_ms: i64,
    /// Message entries only: surfaces and notices are not counted.
    pub message_count: u64,
}

/// What an entry holds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum EntryKind {
    /// A message of the conversation proper, with the leg that produced it and what it cost (assistant messages;
    /// `cost` is `None` where it was not recorded).
    Message { message: Message, backend: Option<BackendId>, cost: Option<StepCost> },
    /// A UI card made from a tool result, tied to the call when there is one.
    Surface { call_id: Option<String>, surface: Value },
    /// Something AIUI told the owner outside the conversation (a fallback, a budget stop). Never sent to a backend.
    Notice { text: String },
}

/// Answers per leg, as [`Store::answers_since`] counts them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct AnswerCounts {
    pub local: u64,
    pub builtin: u64,
    pub claude: u64,
    pub routstr: u64,
}

/// One stored entry.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Entry {
    /// Position in the conversation: 1 for the first entry, increasing. Gaps appear where unreadable rows were
    /// skipped.
    pub seq: i64,
    pub at_ms: i64,
    pub kind: EntryKind,
}

/// A whole conversation as loaded.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Conversation {
    pub id: ConversationId,
    pub title: String,
    /// In `seq` order.
    pub entries: Vec<Entry>,
}

impl Conversation {
    /// The message entries in order: what is replayed to a backend.
    pub fn messages(&self) -> Vec<Message> {
        self.entries
            .iter()
            .filter_map(|entry| match &entry.kind {
                EntryKind::Message { message, .. } => Some(message.clone()),
                EntryKind::Surface { .. } | EntryKind::Notice { .. } => None,
            })
            .collect()
    }
}

/// The stored form of a surface entry's `body_json`. Kept apart from [`EntryKind`] so renaming a Rust field can
/// never change what is on disk.
#[derive(Serialize, Deserialize)]
struct SurfaceBody {
    call_id: Option<String>,
    surface: Value,
}

/// The stored form of a notice entry's `body_json`.
#[derive(Serialize, Deserialize)]
struct NoticeBody {
    text: String,
}

type Clock = Box<dyn Fn() -> i64 + Send + Sync>;

/// The conversation store, one SQLite connection behind a mutex: `Send + Sync`, share it in an `Arc`.
///
/// Every call blocks on SQLite for a few milliseconds; async callers should go through
/// `tokio::task::spawn_blocking`. Several `Store`s (or processes) may open the same file: writes take SQLite's
/// write lock first and wait up to a busy timeout for it.
pub struct Store {
    conn: Mutex<Connection>,
    /// For error messages; `:memory:` for an in-memory store.
    path: PathBuf,
    /// Milliseconds since the Unix epoch; replaced in tests to make ordering deterministic.
    clock: Clock,
    /// What [`Store::recent_messages`] read lately, so it reads only what was appended since. Locked inside
    /// the connection's lock, never the other way round.
    windows: Mutex<window::Windows>,
}

impl fmt::Debug for Store {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Store").field("path", &self.path).finish_non_exhaustive()
    }
}

impl Store {
    /// Opens (creating if needed) `<path>` — e.g. `data_dir/conversations.sqlite3` — with WAL journal, foreign
    /// keys on, a busy timeout, and schema migrations tracked by `PRAGMA user_version`.
    ///
    /// A missing parent folder is created. On Unix a new file is created owner-only (0600), since conversations
    /// talk about the owner's node and money; SQLite gives its `-wal` and `-shm` files the same mode.
    ///
    /// Errors: `Corrupt` if the file is not a readable database, `TooNew` if a newer AIUI migrated it, `Busy`,
    /// `Unavailable` or `DiskFull` if it cannot be opened or prepared.
    pub fn open(path: &Path) -> Result<Self, StoreError> {
        prepare_file(path)?;
        let conn = Connection::open(path).map_err(|e| StoreError::from_sqlite(path, &e))?;
        Self::init(conn, path.to_path_buf(), true)
    }

    /// A store that lives and dies with this value; for tests and for running without a data folder.
    pub fn open_in_memory() -> Result<Self, StoreError> {
        let path = PathBuf::from(":memory:");
        let conn = Connection::open_in_memory().map_err(|e| StoreError::from_sqlite(&path, &e))?;
        Self::init(conn, path, false)
    }

    fn init(mut conn: Connection, path: PathBuf, wal: bool) -> Result<Self, StoreError> {
        let setup = |conn: &mut Connection| -> Result<(), Failure> {
            // First, so that the pragmas and migrations below already wait for a busy database.
            conn.busy_timeout(BUSY_TIMEOUT)?;
            conn.pragma_update(None, "foreign_keys", true)?;
            if wal {
                // WAL lets the list and a load read while the loop appends, and survives a crash mid-write.
                let mode: String = conn.pragma_update_and_check(None, "journal_mode", "wal", |row| row.get(0))?;
                if !mode.eq_ignore_ascii_case("wal") {
                    // Some filesystems (network mounts) refuse WAL; the store still works, only with less
                    // concurrency, so this is not worth refusing to start over.
                    tracing::warn!(path = %path.display(), mode, "the conversation store could not use WAL");
                }
                // NORMAL under WAL: a commit is written to the WAL but not fsynced; the WAL is synced at each
                // checkpoint. A turn's messages survive the app crashing or being killed once the turn is answered
                // (the OS holds the write); a power cut can lose the turns since the last checkpoint, never the
                // file's consistency. FULL cost an fsync per message, 5 to 40 ms on this disk, more than the whole
                // loop's goal (1 ms). Conversations are not money: the ledger and the budget keep their own
                // (stricter) settings.
                conn.pragma_update(None, "synchronous", "NORMAL")?;
            }
            schema::migrate(conn, &path)
        };
        setup(&mut conn).map_err(|failure| failure.into_store_error(&path))?;
        Ok(Self { conn: Mutex::new(conn), path, clock: Box::new(crate::now_ms), windows: Mutex::default() })
    }

    /// Creates an empty conversation and returns its new id.
    pub fn create_conversation(&self, title: &str) -> Result<ConversationId, StoreError> {
        let id = ConversationId::random();
        let now = self.now();
        self.with_conn(|conn| {
            conn.execute(
                "INSERT INTO conversations (id, title, created_at_ms, updated_at_ms) VALUES (?1, ?2, ?3, ?3)",
                params![id.0, title, now],
            )?;
            Ok(())
        })?;
        Ok(id)
    }

    /// Every conversation, the most recently appended-to first.
    ///
    /// A row that cannot be read is left out of the list with a warning, like an unreadable entry in
    /// [`Store::load`].
    pub fn list_conversations(&self) -> Result<Vec<ConversationSummary>, StoreError> {
        self.with_conn(|conn| {
            // rowid breaks ties within a millisecond: the later created is the newer.
            let mut stmt = conn.prepare(
                "SELECT c.id, c.title, c.created_at_ms, c.updated_at_ms,
                        (SELECT COUNT(*) FROM entries e WHERE e.conversation_id = c.id AND e.kind = ?1)
                 FROM conversations c
                 ORDER BY c.updated_at_ms DESC, c.rowid DESC",
            )?;
            let mut rows = stmt.query([KIND_MESSAGE])?;
            let mut summaries = Vec::new();
            // `rows.next()` errors are the database failing and end the call; `row.get` errors are one row's
            // content not fitting this version, and only skip that row.
            while let Some(row) = rows.next()? {
                match decode_summary(row) {
                    Ok(summary) => summaries.push(summary),
                    Err(reason) => tracing::warn!(
                        conversation = row.get::<_, String>(0).ok(),
                        %reason,
                        "left an unreadable conversation out of the list"
                    ),
                }
            }
            Ok(summaries)
        })
    }

    /// Appends a message, with the leg that produced it, and returns its `seq`.
    pub fn append_message(
        &self,
        id: &ConversationId,
        message: &Message,
        backend: Option<&BackendId>,
    ) -> Result<i64, StoreError> {
        self.append_answer(id, message, backend, None)
    }

    /// Appends a message with the leg that produced it and what it cost, and returns its `seq`.
    pub fn append_answer(
        &self,
        id: &ConversationId,
        message: &Message,
        backend: Option<&BackendId>,
        cost: Option<&StepCost>,
    ) -> Result<i64, StoreError> {
        let body = body::encode_message(message, cost)
            .map_err(|e| StoreError::Other(format!("could not encode the entry: {e}")))?;
        let backend = backend.map(encode).transpose()?;
        self.append(id, KIND_MESSAGE, backend, body)
    }

    /// How many answers each leg gave since `since_ms`, over every conversation (the meter's count of free
    /// answers). An answer is a stored assistant message, tool-only steps included.
    pub fn answers_since(&self, since_ms: i64) -> Result<AnswerCounts, StoreError> {
        self.with_conn(|conn| {
            let mut stmt = conn.prepare(
                "SELECT json_extract(backend_json, '$.kind'), COUNT(*) FROM entries
                 WHERE kind = ?1 AND at_ms >= ?2 AND backend_json IS NOT NULL GROUP BY 1",
            )?;
            let mut counts = AnswerCounts::default();
            let mut rows = stmt.query(params![KIND_MESSAGE, since_ms])?;
            while let Some(row) = rows.next()? {
                let kind: Option<String> = row.get(0)?;
                let n: i64 = row.get(1)?;
                let n = u64::try_from(n).unwrap_or(0);
                match kind.as_deref() {
                    Some("local") => counts.local = n,
                    Some("builtin") => counts.builtin = n,
                    Some("claude") => counts.claude = n,
                    Some("routstr") => counts.routstr = n,
                    _ => {}
                }
            }
            Ok(counts)
        })
    }

    /// Appends a surface (a UI card made from a tool result) and returns its `seq`.
    pub fn append_surface(
        &self,
        id: &ConversationId,
        call_id: Option<&str>,
        surface: &Value,
    ) -> Result<i64, StoreError> {
        let body = encode(&SurfaceBody { call_id: call_id.map(str::to_owned), surface: surface.clone() })?;
        self.append(id, KIND_SURFACE, None, body)
    }

    /// Appends a notice shown to the owner and returns its `seq`.
    pub fn append_notice(&self, id: &ConversationId, text: &str) -> Result<i64, StoreError> {
        let body = encode(&NoticeBody { text: text.to_owned() })?;
        self.append(id, KIND_NOTICE, None, body)
    }

    /// Loads a conversation with all its entries in `seq` order.
    ///
    /// An entry this version cannot read — JSON that no longer parses, a kind added by a newer version — is
    /// skipped with a `tracing::warn!` naming the conversation and `seq`, and loading goes on: one bad row must
    /// not lock the owner out of a conversation. A message whose backend label alone is unreadable is kept, with
    /// `backend: None`. Skipped entries leave gaps in `seq`.
    pub fn load(&self, id: &ConversationId) -> Result<Conversation, StoreError> {
        self.with_conn(|conn| {
            // One read transaction, so the title and the entries are the same snapshot even if another process
            // appends meanwhile.
            let tx = conn.transaction()?;
            let title: Option<String> =
                tx.query_row("SELECT title FROM conversations WHERE id = ?1", [&id.0], |row| row.get(0)).optional()?;
            let Some(title) = title else {
                return Err(StoreError::NotFound(id.clone()).into());
            };
            let mut entries = Vec::new();
            {
                let mut stmt = tx.prepare(
                    "SELECT seq, at_ms, kind, backend_json, body_json FROM entries
                     WHERE conversation_id = ?1 ORDER BY seq",
                )?;
                let mut rows = stmt.query([&id.0])?;
                while let Some(row) = rows.next()? {
                    if let Some(entry) = readable_entry(id, row) {
                        entries.push(entry);
                    }
                }
            }
            tx.commit()?;
            Ok(Conversation { id: id.clone(), title, entries })
        })
    }

    /// The last messages of a conversation, at most `limit`, in order, starting at an owner message so no tool
    /// result is sent without the call it answers. What a turn replays to a backend: reading the whole
    /// conversation would make every turn cost as much as the conversation is long. Unreadable rows are skipped
    /// as in [`Store::load`]. The window is kept (for the last few conversations read), so the next call reads
    /// only the rows appended since, by this process or another.
    pub fn recent_messages(&self, id: &ConversationId, limit: usize) -> Result<Vec<Message>, StoreError> {
        let max_rows = i64::try_from(limit).unwrap_or(i64::MAX);
        self.with_conn(|conn| {
            let tx = conn.transaction()?;
            let found: Option<i64> =
                tx.query_row("SELECT 1 FROM conversations WHERE id = ?1", [&id.0], |row| row.get(0)).optional()?;
            if found.is_none() {
                return Err(StoreError::NotFound(id.clone()).into());
            }
            let mut windows = self.windows.lock().unwrap_or_else(PoisonError::into_inner);
            let mut window = windows.take(id, limit);
            let mut newer = Vec::new();
            {
                // Newest first over the primary key (conversation_id, seq), and only rows this window has not
                // seen: the cost is what was appended since, by this process or another, not the conversation.
                // Only the body: a backend's label and the time are not sent, so they are not decoded either.
                let mut stmt = tx.prepare(
                    "SELECT seq, body_json FROM entries
                     WHERE conversation_id = ?1 AND kind = ?2 AND seq > ?3 ORDER BY seq DESC LIMIT ?4",
                )?;
                let mut rows = stmt.query(params![id.0, KIND_MESSAGE, window.last_seq(), max_rows])?;
                while let Some(row) = rows.next()? {
                    let seq: i64 = row.get(0)?;
                    let body = row.get_ref(1)?.as_str().map_err(|e| e.to_string());
                    let message =
                        match body.and_then(|json| body::decode_message(json).map_err(|e| format!("message: {e}"))) {
                            Ok((message, _cost)) => Some(message),
                            Err(reason) => {
                                skipped(id, row, &reason);
                                None
                            }
                        };
                    newer.push((seq, message));
                }
            }
            tx.commit()?;
            newer.reverse();
            window.extend(newer);
            let messages = window.messages();
            windows.keep(id.clone(), window);
            Ok(messages)
        })
    }

    /// Renames a conversation. Does not move it in the list: only appends do.
    pub fn rename(&self, id: &ConversationId, title: &str) -> Result<(), StoreError> {
        self.with_conn(|conn| {
            let changed = conn.execute("UPDATE conversations SET title = ?2 WHERE id = ?1", params![id.0, title])?;
            if changed == 0 {
                return Err(StoreError::NotFound(id.clone()).into());
            }
            Ok(())
        })
    }

    /// One transaction: bump the conversation's `updated_at_ms`, take the next `seq`, insert the row.
    fn append(
        &self,
        id: &ConversationId,
        kind: &str,
        backend_json: Option<String>,
        body_json: String,
    ) -> Result<i64, StoreError> {
        let now = self.now();
        self.with_conn(|conn| {
            // IMMEDIATE takes the write lock before reading MAX(seq): another process appending to the same file
            // cannot read the same MAX and collide on the primary key.
            let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
            // MAX keeps the list order stable if the system clock steps back.
            let found = tx.execute(
                "UPDATE conversations SET updated_at_ms = MAX(updated_at_ms, ?2) WHERE id = ?1",
                params![id.0, now],
            )?;
            if found == 0 {
                return Err(StoreError::NotFound(id.clone()).into());
            }
            let seq: i64 = tx.query_row(
                "SELECT COALESCE(MAX(seq), 0) + 1 FROM entries WHERE conversation_id = ?1",
                [&id.0],
                |row| row.get(0),
            )?;
            tx.execute(
                "INSERT INTO entries (conversation_id, seq, at_ms, kind, backend_json, body_json)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                params![id.0, seq, now, kind, backend_json, body_json],
            )?;
            tx.commit()?;
            Ok(seq)
        })
    }

    /// Runs `f` on the connection and turns its failure into what the owner is shown.
    fn with_conn<T>(&self, f: impl FnOnce(&mut Connection) -> Result<T, Failure>) -> Result<T, StoreError> {
        // A panic while holding the lock cannot leave a transaction open (dropping one rolls it back), so the
        // connection behind a poisoned mutex is still sound.
        let mut conn = self.conn.lock().unwrap_or_else(PoisonError::into_inner);
        f(&mut conn).map_err(|failure| failure.into_store_error(&self.path))
    }

    fn now(&self) -> i64 {
        (self.clock)()
    }

    #[cfg(test)]
    fn with_clock(mut self, clock: impl Fn() -> i64 + Send + Sync + 'static) -> Self {
        self.clock = Box::new(clock);
        self
    }
}

/// Inside a store call: either SQLite failed (classified later, with the path) or the call already knows why.
enum Failure {
    Sql(rusqlite::Error),
    Store(StoreError),
}

impl From<rusqlite::Error> for Failure {
    fn from(error: rusqlite::Error) -> Self {
        Self::Sql(error)
    }
}

impl From<StoreError> for Failure {
    fn from(error: StoreError) -> Self {
        Self::Store(error)
    }
}

impl Failure {
    fn into_store_error(self, path: &Path) -> StoreError {
        match self {
            Self::Sql(error) => {
                // The owner sees a plain sentence; the SQLite detail is kept here for whoever reads the log.
                tracing::warn!(path = %path.display(), %error, "conversation store error");
                StoreError::from_sqlite(path, &error)
            }
            Self::Store(error) => error,
        }
    }
}

fn encode<T: Serialize + ?Sized>(value: &T) -> Result<String, StoreError> {
    serde_json::to_string(value).map_err(|e| StoreError::Other(format!("could not encode the entry: {e}")))
}

fn decode_summary(row: &Row<'_>) -> Result<ConversationSummary, rusqlite::Error> {
    Ok(ConversationSummary {
        id: ConversationId(row.get(0)?),
        title: row.get(1)?,
        created_at_ms: row.get(2)?,
        updated_at_ms: row.get(3)?,
        message_count: row.get(4)?,
    })
}

/// Decodes one `entries` row; the error is a reason for the log.
/// A stored entry, or `None` (and a warning) for one this version cannot read: a newer version's rows are skipped,
/// never fatal.
fn readable_entry(id: &ConversationId, row: &Row<'_>) -> Option<Entry> {
    decode_entry(id, row).map_err(|reason| skipped(id, row, &reason)).ok()
}

/// Logs a row this version cannot read; `row`'s first column is its `seq`.
fn skipped(id: &ConversationId, row: &Row<'_>, reason: &str) {
    tracing::warn!(
        conversation = %id,
        seq = row.get::<_, i64>(0).ok(),
        %reason,
        "skipped a stored entry this version cannot read"
    );
}

fn decode_entry(id: &ConversationId, row: &Row<'_>) -> Result<Entry, String> {
    let seq: i64 = row.get(0).map_err(|e| e.to_string())?;
    let at_ms: i64 = row.get(1).map_err(|e| e.to_string())?;
    let kind: String = row.get(2).map_err(|e| e.to_string())?;
    let backend_json: Option<String> = row.get(3).map_err(|e| e.to_string())?;
    let body_json: String = row.get(4).map_err(|e| e.to_string())?;
    let kind = match kind.as_str() {
        KIND_MESSAGE => {
            let (message, cost) = body::decode_message(&body_json).map_err(|e| format!("message: {e}"))?;
            // The backend is only a label on the message; losing it must not lose the message.
            let backend = backend_json.and_then(|json| match serde_json::from_str::<BackendId>(&json) {
                Ok(backend) => Some(backend),
                Err(e) => {
                    tracing::warn!(conversation = %id, seq, reason = %e, "dropped an unreadable backend label");
                    None
                }
            });
            EntryKind::Message { message, backend, cost }
        }
        KIND_SURFACE => {
            let body: SurfaceBody = serde_json::from_str(&body_json).map_err(|e| format!("surface: {e}"))?;
            EntryKind::Surface { call_id: body.call_id, surface: body.surface }
        }
        KIND_NOTICE => {
            let body: NoticeBody = serde_json::from_str(&body_json).map_err(|e| format!("notice: {e}"))?;
            EntryKind::Notice { text: body.text }
        }
        other => return Err(format!("unknown entry kind {other:?}")),
    };
    Ok(Entry { seq, at_ms, kind })
}

/// Creates the parent folder and, on Unix, the file itself owner-only, before SQLite would create it with the
/// umask's mode.
fn prepare_file(path: &Path) -> Result<(), StoreError> {
    if let Some(parent) = path.parent().filter(|parent| !parent.as_os_str().is_empty()) {
        let mut builder = std::fs::DirBuilder::new();
        builder.recursive(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::DirBuilderExt;
            builder.mode(0o700);
        }
        builder.create(parent).map_err(|e| StoreError::from_io(path, &e))?;
    }
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    match options.open(path) {
        // An empty file is a valid empty database to SQLite.
        Ok(_) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(()),
        Err(e) => Err(StoreError::from_io(path, &e)),
    }
}
