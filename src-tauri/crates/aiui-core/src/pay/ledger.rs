//! The payment ledger: every sat that enters the wallet and every token that leaves it, in SQLite next to the
//! wallet, so that `balance + settled spend + in-flight + fees == received` can be checked after any fault.
//!
//! A token is written here (state `pending`, then `in-flight` with the token itself) before it is handed to a
//! provider. If either write fails, the token does not leave.

use std::path::Path;
use std::sync::Mutex;

use rusqlite::{Connection, OptionalExtension, params};

use super::PayError;
use crate::Secret;

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

/// Where a payment stands. `Pending` and `InFlight` count as in-flight in the conservation sum.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PaymentState {
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

    fn parse(s: &str) -> Self {
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
#[derive(Debug, Clone)]
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
        let conn = Connection::open(path).map_err(db_err)?;
        // FULL synchronous: a row that says a token is in flight must be on disk before the token leaves.
        conn.execute_batch("PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL;").map_err(db_err)?;
        conn.execute_batch(SCHEMA).map_err(db_err)?;
        Ok(Self { conn: Mutex::new(conn) })
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

    /// The `pending` row written before cdk builds the token.
    pub fn insert_pending(&self, entry: &LedgerEntry) -> Result<(), PayError> {
        let now = crate::now_ms();
        self.conn()
            .execute(
                "INSERT INTO payments (id, created_ms, updated_ms, provider, mint, amount, operation_id, reservation, \
                 state, fees) VALUES (?1, ?2, ?2, ?3, ?4, ?5, ?6, ?7, 'pending', ?8)",
                params![
                    entry.id,
                    now,
                    entry.provider,
                    entry.mint,
                    col(entry.amount_sats),
                    entry.operation_id,
                    col(entry.reservation),
                    col(entry.fees_sats)
                ],
            )
            .map(|_| ())
            .map_err(db_err)
    }

    /// The token exists: store it and its exact face value. This must succeed before the token is handed out.
    pub fn mark_in_flight(&self, id: &str, token: &Secret<String>, amount: u64) -> Result<(), PayError> {
        let changed = self
            .conn()
            .execute(
                "UPDATE payments SET token = ?2, amount = ?3, state = 'in-flight', updated_ms = ?4 WHERE id = ?1",
                params![id, token.expose(), col(amount), crate::now_ms()],
            )
            .map_err(db_err)?;
        if changed == 1 { Ok(()) } else { Err(PayError::Ledger(format!("payment {id} is not in the ledger"))) }
    }

    pub fn mark_spent_at_mint(&self, id: &str) -> Result<(), PayError> {
        self.conn()
            .execute(
                "UPDATE payments SET spent_at_mint = 1, updated_ms = ?2 WHERE id = ?1",
                params![id, crate::now_ms()],
            )
            .map(|_| ())
            .map_err(db_err)
    }

    /// The outcome is known: `spent` went to the provider, `extra_fees` to mints.
    pub fn settle(&self, id: &str, spent: u64, extra_fees: u64) -> Result<(), PayError> {
        self.conn()
            .execute(
                "UPDATE payments SET state = 'settled', spent = ?2, fees = fees + ?3, updated_ms = ?4 WHERE id = ?1",
                params![id, col(spent), col(extra_fees), crate::now_ms()],
            )
            .map(|_| ())
            .map_err(db_err)
    }

    /// Change or a refund arrived: kept here before it is received, so a failed receive can be retried.
    pub fn store_returned(&self, id: &str, token: &str) -> Result<(), PayError> {
        self.conn()
            .execute(
                "UPDATE payments SET returned_token = ?2, updated_ms = ?3 WHERE id = ?1",
                params![id, token, crate::now_ms()],
            )
            .map(|_| ())
            .map_err(db_err)
    }

    /// The token was never built and nothing left the wallet: the row no longer counts at all.
    pub fn cancel(&self, id: &str) -> Result<(), PayError> {
        self.conn()
            .execute(
                "UPDATE payments SET state = 'cancelled', fees = 0, updated_ms = ?2 WHERE id = ?1",
                params![id, crate::now_ms()],
            )
            .map(|_| ())
            .map_err(db_err)
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
                      returned_token FROM payments";

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
    })
}
