//! The payment ledger: every sat that enters the wallet and every token that leaves it, in SQLite next to the
//! wallet, so that `balance + settled spend + in-flight + fees == received` can be checked after any fault.
//!
//! A token is written here (state `pending`, then `in-flight` with the token itself) before it is handed to a
//! provider. If either write fails, the token does not leave. Every state change is a compare-and-set from the
//! state the caller expects, so two processes on one data dir can never both settle, cancel or reclaim a payment:
//! the second one is told it moved. Each row names the session (process) that made it, the provider's endpoint
//! and request id, so that `reconcile` can ask the provider's refund endpoint later.

use std::path::Path;
use std::sync::Mutex;

use rusqlite::{Connection, OptionalExtension, params};

use super::PayError;
use crate::Secret;

mod outflows;
pub use outflows::{Outflow, OutflowKind};

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS inflows (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    at_ms INTEGER NOT NULL,
    kind TEXT NOT NULL,
    mint TEXT NOT NULL,
    amount INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS payments (
    id TEXT PRIMARY KEY,
    created_ms INTEGER NOT NULL,
    updated_ms INTEGER NOT NULL,
    provider TEXT NOT NULL,
    mint TEXT NOT NULL,
    amount INTEGER NOT NULL,
    token TEXT,
    operation_id TEXT NOT NULL,
    reservation INTEGER NOT NULL,
    state TEXT NOT NULL,
    spent INTEGER NOT NULL DEFAULT 0,
    fees INTEGER NOT NULL DEFAULT 0,
    spent_at_mint INTEGER NOT NULL DEFAULT 0,
    returned_token TEXT
);
";

/// Columns added after the first schema, in order; `PRAGMA user_version` counts how many are applied.
const MIGRATIONS: &[&str] = &[
    "ALTER TABLE payments ADD COLUMN session TEXT NOT NULL DEFAULT ''",
    "ALTER TABLE payments ADD COLUMN endpoint TEXT",
    "ALTER TABLE payments ADD COLUMN request_id TEXT",
    // Refund-endpoint attempts made by reconcile, and when the next may be made (425 backs off across runs).
    "ALTER TABLE payments ADD COLUMN tries INTEGER NOT NULL DEFAULT 0",
    "ALTER TABLE payments ADD COLUMN next_try_ms INTEGER NOT NULL DEFAULT 0",
    // The outcome is unknown and no request is running any more: reconcile may look at it.
    "ALTER TABLE payments ADD COLUMN parked INTEGER NOT NULL DEFAULT 0",
    // A returned token that did not count (another mint or unit, larger than paid): kept aside, never received.
    "ALTER TABLE payments ADD COLUMN set_aside_token TEXT",
    "ALTER TABLE payments ADD COLUMN set_aside_reason TEXT",
    "ALTER TABLE payments ADD COLUMN written_off INTEGER NOT NULL DEFAULT 0",
    // Which payment a returned token (change, a refund, the token itself) was claimed for, by its proofs' key: a
    // token counts for one payment only, and a second receive of it is known to be ours (`Wallet::proofs_key`).
    "CREATE TABLE IF NOT EXISTS receipts (token_key TEXT PRIMARY KEY, payment TEXT NOT NULL, at_ms INTEGER NOT NULL)",
    // How long reconcile has watched an unresolved payment, summed from its own runs in steps no longer than one
    // backoff, so a clock that jumps cannot make a payment old at once; and the wall time of the last run.
    "ALTER TABLE payments ADD COLUMN watched_ms INTEGER NOT NULL DEFAULT 0",
    "ALTER TABLE payments ADD COLUMN seen_ms INTEGER NOT NULL DEFAULT 0",
    // What the owner must hear about money, kept for every surface and every process (read by id).
    "CREATE TABLE IF NOT EXISTS notices (id INTEGER PRIMARY KEY AUTOINCREMENT, at_ms INTEGER NOT NULL, text TEXT NOT NULL)",
    // A minted invoice is recorded by its quote, once, from cdk's own record of the mint: a crash between minting
    // and recording is mended by the next reconcile. Mints before this version were recorded without a quote, so
    // only cdk's records from the time of this migration on are read.
    "ALTER TABLE inflows ADD COLUMN quote_id TEXT",
    "CREATE UNIQUE INDEX IF NOT EXISTS inflows_by_quote ON inflows(quote_id) WHERE quote_id IS NOT NULL",
    "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL)",
    "INSERT OR IGNORE INTO meta (key, value) VALUES ('quote_inflows_since_s', CAST(strftime('%s', 'now') AS INTEGER))",
    // Sats the owner takes out: withdrawals to Lightning and tokens for other wallets (`ledger/outflows.rs`).
    "CREATE TABLE IF NOT EXISTS outflows (id TEXT PRIMARY KEY, kind TEXT NOT NULL, created_ms INTEGER NOT NULL, \
     updated_ms INTEGER NOT NULL, mint TEXT NOT NULL, amount INTEGER NOT NULL, operation_id TEXT NOT NULL, \
     quote_id TEXT, invoice TEXT, token TEXT, state TEXT NOT NULL, withdrawn INTEGER NOT NULL DEFAULT 0, \
     fees INTEGER NOT NULL DEFAULT 0, session TEXT NOT NULL, parked INTEGER NOT NULL DEFAULT 0, outcome TEXT)",
    // A withdrawal's input proofs (their public Y values) and the amount its invoice receives: the mint's own
    // word on those proofs (NUT-07) decides a melt whose outcome cdk got wrong.
    "ALTER TABLE outflows ADD COLUMN input_ys TEXT",
    "ALTER TABLE outflows ADD COLUMN target INTEGER NOT NULL DEFAULT 0",
    // A wallet notice as what happened (`WalletNotice`, JSON), so each reader says it in its owner's language; the
    // text column keeps its English for notices from before and for an older AIUI.
    "ALTER TABLE notices ADD COLUMN message TEXT",
];

/// Where a payment stands. `Pending` and `InFlight` count as in-flight in the conservation sum.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum PaymentState {
    #[default]
    /// Written before the token was built; the cdk send may or may not have completed.
    Pending,
    /// The token exists and may be with the provider.
    InFlight,
    /// The outcome is known: spend (and fees) are final.
    Settled,
    /// Never built, nothing left the wallet.
    Cancelled,
}

impl PaymentState {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Pending => "pending",
            Self::InFlight => "in-flight",
            Self::Settled => "settled",
            Self::Cancelled => "cancelled",
        }
    }

    pub(crate) fn parse(s: &str) -> Self {
        match s {
            "pending" => Self::Pending,
            "in-flight" => Self::InFlight,
            "settled" => Self::Settled,
            // Unknown states are treated as cancelled only if written by a future version; none exist today.
            _ => Self::Cancelled,
        }
    }
}

/// One ledger row for an outgoing payment.
#[derive(Debug, Clone, Default)]
pub struct LedgerEntry {
    pub id: String,
    pub provider: String,
    pub mint: String,
    pub amount_sats: u64,
    pub token: Option<Secret<String>>,
    pub operation_id: String,
    pub reservation: u64,
    pub state: PaymentState,
    pub spent_at_mint: bool,
    pub fees_sats: u64,
    /// Change or refund received from the provider but not yet received into the wallet.
    pub returned_token: Option<Secret<String>>,
    /// The process that made the payment (its budget session).
    pub session: String,
    /// The provider's base URL, for its refund endpoint.
    pub endpoint: Option<String>,
    /// The provider's `x-routstr-request-id`, for the owner and for refund inquiries.
    pub request_id: Option<String>,
    pub tries: u32,
    pub next_try_ms: i64,
    pub parked: bool,
    pub created_ms: i64,
    /// What was counted as spent once settled.
    pub spent_sats: u64,
    pub set_aside_reason: Option<String>,
    /// The returned token that did not count, for the owner to look at and receive or discard.
    pub set_aside_token: Option<Secret<String>>,
    pub written_off: bool,
    /// How long reconcile has watched it (see the migration's note), and when it last did.
    pub watched_ms: i64,
    pub seen_ms: i64,
}

/// A money notice as stored: its id orders them, so each surface can ask for the ones it has not shown.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoneyNotice {
    pub id: i64,
    pub at_ms: i64,
    /// As it was told: English for the wallet's own notices, the turn's language for the paid leg's.
    pub text: String,
    /// What happened, when the wallet told it (absent for the paid leg's notices and those stored before).
    pub message: Option<super::WalletNotice>,
}

impl MoneyNotice {
    /// The notice in `locale` when the ledger knows what happened, else as it was told.
    pub fn text_in(&self, locale: crate::i18n::Locale) -> String {
        match &self.message {
            Some(message) => message.text(locale),
            None => self.text.clone(),
        }
    }
}

fn notice_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<MoneyNotice> {
    let message: Option<String> = r.get(3)?;
    Ok(MoneyNotice {
        id: r.get(0)?,
        at_ms: r.get(1)?,
        text: r.get(2)?,
        // Read leniently: a message this build cannot read (a newer AIUI's) is shown by its English text.
        message: message.and_then(|m| serde_json::from_str(&m).ok()),
    })
}

/// The sums of the conservation invariant, as recorded.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Totals {
    pub received: u64,
    pub settled_spend: u64,
    pub in_flight: u64,
    pub fees: u64,
}

pub struct Ledger {
    conn: Mutex<Connection>,
}

impl std::fmt::Debug for Ledger {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Ledger")
    }
}

fn db_err(e: rusqlite::Error) -> PayError {
    PayError::Ledger(e.to_string())
}

fn sats(v: i64) -> u64 {
    u64::try_from(v).unwrap_or_default()
}

fn col(v: u64) -> i64 {
    i64::try_from(v).unwrap_or(i64::MAX)
}

impl Ledger {
    pub fn open(path: &Path) -> Result<Self, PayError> {
        // The file holds tokens in flight: private before SQLite opens it (its -wal/-shm files copy the mode).
        crate::paths::ensure_private_file(path).map_err(|e| PayError::Ledger(format!("{}: {e}", path.display())))?;
        let conn = Connection::open(path).map_err(db_err)?;
        // Another process (the desktop app beside the CLI) may hold the write lock for a moment.
        conn.busy_timeout(std::time::Duration::from_secs(10)).map_err(db_err)?;
        // FULL synchronous: a row that says a token is in flight must be on disk before the token leaves.
        conn.execute_batch("PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL;").map_err(db_err)?;
        conn.execute_batch(SCHEMA).map_err(db_err)?;
        let applied: i64 = conn.query_row("PRAGMA user_version", [], |r| r.get(0)).map_err(db_err)?;
        for (n, migration) in MIGRATIONS.iter().enumerate().skip(usize::try_from(applied).unwrap_or(0)) {
            let tx = conn.unchecked_transaction().map_err(db_err)?;
            tx.execute_batch(migration).map_err(db_err)?;
            tx.execute_batch(&format!("PRAGMA user_version = {}", n + 1)).map_err(db_err)?;
            tx.commit().map_err(db_err)?;
        }
        Ok(Self { conn: Mutex::new(conn) })
    }

    /// Runs a compare-and-set update on a payment: exactly one row must match `id` in one of the `from` states.
    fn transition(
        &self,
        id: &str,
        from: &[PaymentState],
        set: &str,
        values: &[&dyn rusqlite::ToSql],
    ) -> Result<(), PayError> {
        self.transition_in("payments", id, from, set, values)
    }

    /// The compare-and-set update of [`Ledger::transition`] on `table` (`payments` or `outflows`).
    fn transition_in(
        &self,
        table: &'static str,
        id: &str,
        from: &[PaymentState],
        set: &str,
        values: &[&dyn rusqlite::ToSql],
    ) -> Result<(), PayError> {
        let states = from.iter().map(|s| format!("'{}'", s.as_str())).collect::<Vec<_>>().join(", ");
        let sql = format!("UPDATE {table} SET {set}, updated_ms = ?2 WHERE id = ?1 AND state IN ({states})");
        let now = crate::now_ms();
        let mut params: Vec<&dyn rusqlite::ToSql> = vec![&id, &now];
        params.extend_from_slice(values);
        let conn = self.conn();
        let changed = conn.execute(&sql, params.as_slice()).map_err(db_err)?;
        if changed == 1 {
            return Ok(());
        }
        let now_state: Option<String> = conn
            .query_row(&format!("SELECT state FROM {table} WHERE id = ?1"), params![id], |r| r.get(0))
            .optional()
            .map_err(db_err)?;
        Err(match now_state {
            None => PayError::UnknownPayment(id.to_owned()),
            Some(state) => PayError::Moved { id: id.to_owned(), state },
        })
    }

    fn conn(&self) -> std::sync::MutexGuard<'_, Connection> {
        self.conn.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Records sats that came in from outside: a minted invoice or a pasted token.
    pub fn record_inflow(&self, kind: &str, mint: &str, amount: u64) -> Result<(), PayError> {
        self.conn()
            .execute(
                "INSERT INTO inflows (at_ms, kind, mint, amount) VALUES (?1, ?2, ?3, ?4)",
                params![crate::now_ms(), kind, mint, col(amount)],
            )
            .map(|_| ())
            .map_err(db_err)
    }

    /// Records the sats minted for `quote_id`, once: `false` when that quote is recorded already.
    pub fn record_minted(&self, quote_id: &str, mint: &str, amount: u64) -> Result<bool, PayError> {
        self.conn()
            .execute(
                "INSERT OR IGNORE INTO inflows (at_ms, kind, mint, amount, quote_id) VALUES (?1, 'mint', ?2, ?3, ?4)",
                params![crate::now_ms(), mint, col(amount), quote_id],
            )
            .map(|changed| changed == 1)
            .map_err(db_err)
    }

    /// Since when (Unix seconds) minted invoices are recorded by quote; cdk's records of earlier mints are not read.
    pub fn quote_inflows_since_s(&self) -> Result<u64, PayError> {
        let since: i64 = self
            .conn()
            .query_row("SELECT value FROM meta WHERE key = 'quote_inflows_since_s'", [], |r| r.get(0))
            .map_err(db_err)?;
        Ok(u64::try_from(since).unwrap_or(0))
    }

    /// The `pending` row written before cdk builds the token.
    pub fn insert_pending(&self, entry: &LedgerEntry) -> Result<(), PayError> {
        let now = crate::now_ms();
        self.conn()
            .execute(
                "INSERT INTO payments (id, created_ms, updated_ms, provider, mint, amount, operation_id, reservation, \
                 state, fees, session, endpoint) VALUES (?1, ?2, ?2, ?3, ?4, ?5, ?6, ?7, 'pending', ?8, ?9, ?10)",
                params![
                    entry.id,
                    now,
                    entry.provider,
                    entry.mint,
                    col(entry.amount_sats),
                    entry.operation_id,
                    col(entry.reservation),
                    col(entry.fees_sats),
                    entry.session,
                    entry.endpoint,
                ],
            )
            .map(|_| ())
            .map_err(db_err)
    }

    /// The token exists: store it and its exact face value. This must succeed before the token is handed out.
    pub fn mark_in_flight(&self, id: &str, token: &Secret<String>, amount: u64) -> Result<(), PayError> {
        self.transition(
            id,
            &[PaymentState::Pending],
            "token = ?3, amount = ?4, state = 'in-flight'",
            &[token.expose(), &col(amount)],
        )
    }

    /// The provider's request id, logged with the payment for the owner and for refund inquiries.
    pub fn set_request_id(&self, id: &str, request_id: &str) -> Result<(), PayError> {
        self.transition(id, &[PaymentState::InFlight], "request_id = ?3", &[&request_id])
    }

    /// The outcome is unknown and the request is over: `reconcile` (of this or any later process) may resolve it.
    pub fn park(&self, id: &str) -> Result<(), PayError> {
        self.transition(id, &[PaymentState::Pending, PaymentState::InFlight], "parked = 1", &[])
    }

    pub fn mark_spent_at_mint(&self, id: &str) -> Result<(), PayError> {
        self.transition(id, &[PaymentState::InFlight], "spent_at_mint = 1", &[])
    }

    /// One more refund-endpoint attempt was made; the next may be made at `next_try_ms`.
    pub fn record_try(&self, id: &str, next_try_ms: i64) -> Result<(), PayError> {
        self.transition(id, &[PaymentState::InFlight], "tries = tries + 1, next_try_ms = ?3", &[&next_try_ms])
    }

    /// The next refund-endpoint attempt may be made at `next_try_ms`; no try is counted (nobody answered, or the
    /// provider asked to wait).
    pub fn defer(&self, id: &str, next_try_ms: i64) -> Result<(), PayError> {
        self.transition(id, &[PaymentState::InFlight], "next_try_ms = ?3", &[&next_try_ms])
    }

    /// The outcome is known: `spent` went to the provider, `extra_fees` to mints.
    pub fn settle(&self, id: &str, spent: u64, extra_fees: u64) -> Result<(), PayError> {
        self.transition(
            id,
            &[PaymentState::Pending, PaymentState::InFlight],
            "state = 'settled', spent = ?3, fees = fees + ?4",
            &[&col(spent), &col(extra_fees)],
        )
    }

    /// No refund came after every try: `spent` of the token (all of it, unless part came back) counts as spent,
    /// visibly, with the tries that were made.
    pub fn write_off(&self, id: &str, spent: u64, extra_fees: u64, tries: u32) -> Result<(), PayError> {
        self.transition(
            id,
            &[PaymentState::InFlight],
            "state = 'settled', spent = MIN(?3, amount), fees = fees + ?4, tries = ?5, written_off = 1",
            &[&col(spent), &col(extra_fees), &i64::from(tries)],
        )
    }

    /// Change or a refund arrived: kept here before it is received, so a failed receive can be retried.
    pub fn store_returned(&self, id: &str, token: &str) -> Result<(), PayError> {
        self.transition(id, &[PaymentState::Pending, PaymentState::InFlight], "returned_token = ?3", &[&token])
    }

    /// A returned token that does not count (see `Payments`): kept aside with the reason, never received here.
    pub fn set_aside(&self, id: &str, token: &str, reason: &str) -> Result<(), PayError> {
        self.transition(
            id,
            &[PaymentState::Pending, PaymentState::InFlight],
            "set_aside_token = ?3, set_aside_reason = ?4, returned_token = NULL",
            &[&token, &reason],
        )
    }

    /// The token was never built and nothing left the wallet: the row no longer counts at all.
    pub fn cancel(&self, id: &str) -> Result<(), PayError> {
        self.transition(id, &[PaymentState::Pending], "state = 'cancelled', fees = 0", &[])
    }

    /// The newest payment of `session` that holds budget reservation `reservation`, in whatever state. The session
    /// must match too: a reservation id of a budget file made anew must never pick up an old row.
    pub fn by_reservation(&self, reservation: u64, session: &str) -> Result<Option<LedgerEntry>, PayError> {
        let conn = self.conn();
        conn.query_row(
            &format!("{SELECT} WHERE reservation = ?1 AND session = ?2 ORDER BY created_ms DESC LIMIT 1"),
            params![col(reservation), session],
            row_to_entry,
        )
        .optional()
        .map_err(db_err)
    }

    /// Claims the returned token whose proofs' key is `token_key` for payment `id`. `Ok(None)` when it is this
    /// payment's (claimed now or by an earlier try); `Ok(Some(other))` when another payment claimed it first.
    pub fn claim_returned(&self, id: &str, token_key: &str) -> Result<Option<String>, PayError> {
        let conn = self.conn();
        conn.execute(
            "INSERT OR IGNORE INTO receipts (token_key, payment, at_ms) VALUES (?1, ?2, ?3)",
            params![token_key, id, crate::now_ms()],
        )
        .map_err(db_err)?;
        let owner: String = conn
            .query_row("SELECT payment FROM receipts WHERE token_key = ?1", params![token_key], |r| r.get(0))
            .map_err(db_err)?;
        Ok((owner != id).then_some(owner))
    }

    /// Another reconcile run looked at an unresolved payment at `now`: adds the time since the last run, at most
    /// `max_step`, and nothing when the clock went back. Returns how long it has been watched, and whether the
    /// clock went back since the last run.
    pub fn watch(&self, id: &str, now: i64, max_step_ms: i64) -> Result<(i64, bool), PayError> {
        let Some(entry) = self.get(id)? else { return Err(PayError::UnknownPayment(id.to_owned())) };
        let last = if entry.seen_ms > 0 { entry.seen_ms } else { entry.created_ms };
        let went_back = now < last;
        let step = (now - last).clamp(0, max_step_ms.max(0));
        let watched = entry.watched_ms.saturating_add(step);
        self.transition(
            id,
            &[PaymentState::Pending, PaymentState::InFlight],
            "watched_ms = ?3, seen_ms = ?4",
            &[&watched, &now],
        )?;
        Ok((watched, went_back))
    }

    /// Keeps a notice for the owner where every surface of every process reads it.
    pub fn add_notice(&self, text: &str, message: Option<&super::WalletNotice>) -> Result<(), PayError> {
        let message =
            message.map(|m| serde_json::to_string(m).map_err(|e| PayError::Store(e.to_string()))).transpose()?;
        self.conn()
            .execute(
                "INSERT INTO notices (at_ms, text, message) VALUES (?1, ?2, ?3)",
                params![crate::now_ms(), text, message],
            )
            .map(|_| ())
            .map_err(db_err)
    }

    /// The newest `limit` notices, oldest first.
    pub fn recent_notices(&self, limit: usize) -> Result<Vec<MoneyNotice>, PayError> {
        let conn = self.conn();
        let mut stmt =
            conn.prepare("SELECT id, at_ms, text, message FROM notices ORDER BY id DESC LIMIT ?1").map_err(db_err)?;
        let rows = stmt.query_map(params![i64::try_from(limit).unwrap_or(i64::MAX)], notice_row).map_err(db_err)?;
        let mut newest_first = rows.collect::<Result<Vec<_>, _>>().map_err(db_err)?;
        newest_first.reverse();
        Ok(newest_first)
    }

    /// The notices after `after_id`, oldest first.
    pub fn notices_after(&self, after_id: i64) -> Result<Vec<MoneyNotice>, PayError> {
        let conn = self.conn();
        let mut stmt =
            conn.prepare("SELECT id, at_ms, text, message FROM notices WHERE id > ?1 ORDER BY id").map_err(db_err)?;
        let rows = stmt.query_map(params![after_id], notice_row).map_err(db_err)?;
        rows.collect::<Result<Vec<_>, _>>().map_err(db_err)
    }

    /// A set-aside token is put back into play by the owner (received) or dropped (discarded): it no longer shows.
    pub fn clear_set_aside(&self, id: &str) -> Result<(), PayError> {
        let changed = self
            .conn()
            .execute(
                "UPDATE payments SET set_aside_token = NULL, updated_ms = ?2 WHERE id = ?1 AND set_aside_token IS NOT NULL",
                params![id, crate::now_ms()],
            )
            .map_err(db_err)?;
        if changed == 1 { Ok(()) } else { Err(PayError::UnknownPayment(id.to_owned())) }
    }

    /// A set-aside token of `face` the owner received after its payment had settled, `credited` of it reaching the
    /// wallet: in one transaction, and only while the token is still set aside, so that two receives (a double
    /// click, the desktop beside the CLI, a crash and a retry) credit it once. Its value lowers the payment's spend
    /// by at most what was spent; what the mint kept of that part counts as fees; what it brought beyond the spend
    /// (a token worth more than the payment) is an inflow, as sats from outside are. `false` when it was credited
    /// already.
    pub fn credit_set_aside(&self, id: &str, mint: &str, face: u64, credited: u64) -> Result<bool, PayError> {
        let mut conn = self.conn();
        let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate).map_err(db_err)?;
        let spent: Option<i64> = tx
            .query_row(
                "SELECT spent FROM payments WHERE id = ?1 AND state = 'settled' AND set_aside_token IS NOT NULL",
                params![id],
                |r| r.get(0),
            )
            .optional()
            .map_err(db_err)?;
        let Some(spent) = spent else { return Ok(false) };
        let lowered = face.min(sats(spent));
        let kept_by_the_mint = lowered - credited.min(lowered);
        let beyond = credited - credited.min(lowered);
        tx.execute(
            "UPDATE payments SET spent = spent - ?2, fees = fees + ?3, set_aside_token = NULL, updated_ms = ?4 \
             WHERE id = ?1",
            params![id, col(lowered), col(kept_by_the_mint), crate::now_ms()],
        )
        .map_err(db_err)?;
        if beyond > 0 {
            tx.execute(
                "INSERT INTO inflows (at_ms, kind, mint, amount) VALUES (?1, 'set-aside', ?2, ?3)",
                params![crate::now_ms(), mint, col(beyond)],
            )
            .map_err(db_err)?;
        }
        tx.commit().map_err(db_err)?;
        Ok(true)
    }

    /// Payments whose returned token was set aside, newest first: what the owner is told about.
    pub fn set_aside_entries(&self) -> Result<Vec<LedgerEntry>, PayError> {
        let conn = self.conn();
        let mut stmt = conn
            .prepare(&format!("{SELECT} WHERE set_aside_token IS NOT NULL ORDER BY created_ms DESC"))
            .map_err(db_err)?;
        let rows = stmt.query_map([], row_to_entry).map_err(db_err)?;
        rows.collect::<Result<Vec<_>, _>>().map_err(db_err)
    }

    pub fn get(&self, id: &str) -> Result<Option<LedgerEntry>, PayError> {
        let conn = self.conn();
        conn.query_row(&format!("{SELECT} WHERE id = ?1"), params![id], row_to_entry).optional().map_err(db_err)
    }

    /// Every payment whose outcome is not known yet (`pending` or `in-flight`).
    pub fn unresolved(&self) -> Result<Vec<LedgerEntry>, PayError> {
        let conn = self.conn();
        let mut stmt = conn
            .prepare(&format!("{SELECT} WHERE state IN ('pending', 'in-flight') ORDER BY created_ms"))
            .map_err(db_err)?;
        let rows = stmt.query_map([], row_to_entry).map_err(db_err)?;
        rows.collect::<Result<Vec<_>, _>>().map_err(db_err)
    }

    pub fn totals(&self) -> Result<Totals, PayError> {
        let conn = self.conn();
        let received: i64 =
            conn.query_row("SELECT COALESCE(SUM(amount), 0) FROM inflows", [], |r| r.get(0)).map_err(db_err)?;
        let (settled, in_flight, fees): (i64, i64, i64) = conn
            .query_row(
                "SELECT COALESCE(SUM(CASE WHEN state = 'settled' THEN spent ELSE 0 END), 0), \
                        COALESCE(SUM(CASE WHEN state IN ('pending', 'in-flight') THEN amount ELSE 0 END), 0), \
                        COALESCE(SUM(fees), 0) FROM payments",
                [],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
            )
            .map_err(db_err)?;
        Ok(Totals {
            received: sats(received),
            settled_spend: sats(settled),
            in_flight: sats(in_flight),
            fees: sats(fees),
        })
    }
}

const SELECT: &str = "SELECT id, provider, mint, amount, token, operation_id, reservation, state, spent_at_mint, fees, \
                      returned_token, session, endpoint, request_id, tries, next_try_ms, parked, created_ms, spent, \
                      set_aside_reason, written_off, watched_ms, seen_ms, set_aside_token FROM payments";

fn row_to_entry(row: &rusqlite::Row<'_>) -> rusqlite::Result<LedgerEntry> {
    let state: String = row.get(7)?;
    Ok(LedgerEntry {
        id: row.get(0)?,
        provider: row.get(1)?,
        mint: row.get(2)?,
        amount_sats: sats(row.get(3)?),
        token: row.get::<_, Option<String>>(4)?.map(Secret::new),
        operation_id: row.get(5)?,
        reservation: sats(row.get(6)?),
        state: PaymentState::parse(&state),
        spent_at_mint: row.get::<_, i64>(8)? != 0,
        fees_sats: sats(row.get(9)?),
        returned_token: row.get::<_, Option<String>>(10)?.map(Secret::new),
        session: row.get(11)?,
        endpoint: row.get(12)?,
        request_id: row.get(13)?,
        tries: u32::try_from(row.get::<_, i64>(14)?).unwrap_or(u32::MAX),
        next_try_ms: row.get(15)?,
        parked: row.get::<_, i64>(16)? != 0,
        created_ms: row.get(17)?,
        spent_sats: sats(row.get(18)?),
        set_aside_reason: row.get(19)?,
        written_off: row.get::<_, i64>(20)? != 0,
        watched_ms: row.get(21)?,
        seen_ms: row.get(22)?,
        set_aside_token: row.get::<_, Option<String>>(23)?.map(Secret::new),
    })
}
