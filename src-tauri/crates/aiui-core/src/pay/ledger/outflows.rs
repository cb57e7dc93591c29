//! The ledger's outflows: sats the owner takes out of the wallet, to a Lightning invoice (a melt) or as a token
//! for another wallet. Written before the proofs leave, with the same compare-and-set discipline as payments.

use rusqlite::{OptionalExtension, params};

use super::{Ledger, PaymentState, col, db_err, sats};
use crate::Secret;
use crate::pay::PayError;

/// What an outflow is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OutflowKind {
    /// Paid to a Lightning invoice (NUT-05 melt).
    Withdrawal,
    /// A token made for another wallet.
    Token,
    /// Proofs moved off a keyset the mint retires: nothing leaves but the mint's input fee.
    KeysetSwap,
}

impl OutflowKind {
    fn as_str(self) -> &'static str {
        match self {
            Self::Withdrawal => "withdrawal",
            Self::Token => "token",
            Self::KeysetSwap => "keyset-swap",
        }
    }

    fn parse(s: &str) -> Self {
        match s {
            "token" => Self::Token,
            "keyset-swap" => Self::KeysetSwap,
            _ => Self::Withdrawal,
        }
    }
}

/// One outflow as recorded. `Pending` and `InFlight` count as in flight in the conservation sum.
#[derive(Debug, Clone)]
pub struct Outflow {
    pub id: String,
    pub kind: OutflowKind,
    pub mint: String,
    /// The face value of the proofs that left the wallet's balance for it.
    pub amount_sats: u64,
    pub operation_id: String,
    /// The mint's melt quote (withdrawals).
    pub quote_id: Option<String>,
    /// The invoice paid (withdrawals): public, what the owner pasted.
    pub invoice: Option<String>,
    /// The token made (tokens), kept so that it can be taken back; never shown again.
    pub token: Option<Secret<String>>,
    pub state: PaymentState,
    /// What reached the invoice or the other wallet, once settled.
    pub withdrawn_sats: u64,
    /// What mints kept (input fees, Lightning fee), once settled.
    pub fees_sats: u64,
    pub session: String,
    /// No call of the process that made it is still working on it.
    pub parked: bool,
    pub created_ms: i64,
    /// How it ended, in the owner's words ("paid", "claimed", "taken back", "failed: …").
    pub outcome: Option<String>,
    /// A withdrawal's input proofs, as comma-separated hex Y values (public: they do not spend anything).
    pub input_ys: Option<String>,
    /// What a withdrawal's invoice receives.
    pub target_sats: u64,
}

impl Outflow {
    /// Where it stands, in `locale`: waiting ("not claimed yet") or how it ended ("paid", "taken back").
    ///
    /// The ledger keeps the outcome in English, as written when it ended; the known ones are said in the reader's
    /// language, and any other (a ledger written by a later version) is shown as it was stored rather than hidden.
    pub fn state_in(&self, locale: crate::i18n::Locale) -> String {
        let key = match self.state {
            PaymentState::Pending | PaymentState::InFlight => match self.kind {
                OutflowKind::Withdrawal => "outflow-withdrawal-waiting",
                OutflowKind::Token => "outflow-token-waiting",
                OutflowKind::KeysetSwap => "outflow-keyset-waiting",
            },
            _ => match self.outcome.as_deref() {
                Some("paid") => "outflow-paid",
                Some("failed") => "outflow-failed",
                Some("refused by the mint") => "outflow-refused",
                Some("not recorded") => "outflow-not-recorded",
                Some("taken back") => "outflow-taken-back",
                Some("never made") => "outflow-never-made",
                Some("claimed") => "outflow-claimed",
                Some("moved to the active keyset") => "outflow-keyset-moved",
                Some(other) => return other.to_owned(),
                None if self.state == PaymentState::Cancelled => "outflow-cancelled",
                None => "outflow-done",
            },
        };
        crate::i18n::text(locale, key, &[])
    }
}

/// The outflow sums of the conservation invariant.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct OutflowTotals {
    pub withdrawn: u64,
    pub in_flight: u64,
    pub fees: u64,
}

const SELECT: &str = "SELECT id, kind, mint, amount, operation_id, quote_id, invoice, token, state, withdrawn, fees, \
                      session, parked, created_ms, outcome, input_ys, target FROM outflows";

fn row_to_outflow(row: &rusqlite::Row<'_>) -> rusqlite::Result<Outflow> {
    let kind: String = row.get(1)?;
    let state: String = row.get(8)?;
    Ok(Outflow {
        id: row.get(0)?,
        kind: OutflowKind::parse(&kind),
        mint: row.get(2)?,
        amount_sats: sats(row.get(3)?),
        operation_id: row.get(4)?,
        quote_id: row.get(5)?,
        invoice: row.get(6)?,
        token: row.get::<_, Option<String>>(7)?.map(Secret::new),
        state: PaymentState::parse(&state),
        withdrawn_sats: sats(row.get(9)?),
        fees_sats: sats(row.get(10)?),
        session: row.get(11)?,
        parked: row.get::<_, i64>(12)? != 0,
        created_ms: row.get(13)?,
        outcome: row.get(14)?,
        input_ys: row.get(15)?,
        target_sats: sats(row.get(16)?),
    })
}

impl Ledger {
    /// The `pending` row written before cdk moves the proofs.
    pub fn insert_outflow(&self, outflow: &Outflow) -> Result<(), PayError> {
        let now = crate::now_ms();
        self.conn()
            .execute(
                "INSERT INTO outflows (id, kind, created_ms, updated_ms, mint, amount, operation_id, quote_id, invoice, \
                 state, fees, session, input_ys, target) \
                 VALUES (?1, ?2, ?3, ?3, ?4, ?5, ?6, ?7, ?8, 'pending', ?9, ?10, ?11, ?12)",
                params![
                    outflow.id,
                    outflow.kind.as_str(),
                    now,
                    outflow.mint,
                    col(outflow.amount_sats),
                    outflow.operation_id,
                    outflow.quote_id,
                    outflow.invoice,
                    col(outflow.fees_sats),
                    outflow.session,
                    outflow.input_ys,
                    col(outflow.target_sats),
                ],
            )
            .map(|_| ())
            .map_err(db_err)
    }

    /// An outflow whose outcome was known before it could be written (a keyset swap): one write, settled.
    pub fn insert_settled_outflow(&self, outflow: &Outflow, fees: u64, outcome: &str) -> Result<(), PayError> {
        let now = crate::now_ms();
        self.conn()
            .execute(
                "INSERT INTO outflows (id, kind, created_ms, updated_ms, mint, amount, operation_id, state, fees, \
                 session, parked, outcome) VALUES (?1, ?2, ?3, ?3, ?4, ?5, ?6, 'settled', ?7, ?8, 1, ?9)",
                params![
                    outflow.id,
                    outflow.kind.as_str(),
                    now,
                    outflow.mint,
                    col(outflow.amount_sats),
                    outflow.operation_id,
                    col(fees),
                    outflow.session,
                    outcome,
                ],
            )
            .map(|_| ())
            .map_err(db_err)
    }

    fn outflow_transition(
        &self,
        id: &str,
        from: &[PaymentState],
        set: &str,
        values: &[&dyn rusqlite::ToSql],
    ) -> Result<(), PayError> {
        self.transition_in("outflows", id, from, set, values)
    }

    /// The proofs are with the mint (a melt requested) or in a token (`token`): their face value is `amount`.
    pub fn outflow_in_flight(&self, id: &str, token: Option<&Secret<String>>, amount: u64) -> Result<(), PayError> {
        self.outflow_transition(
            id,
            &[PaymentState::Pending],
            "state = 'in-flight', token = COALESCE(?3, token), amount = ?4",
            &[&token.map(|t| t.expose().as_str()), &col(amount)],
        )
    }

    /// The call that made it is over with the outcome unknown: `reconcile` of any process may resolve it.
    pub fn park_outflow(&self, id: &str) -> Result<(), PayError> {
        self.outflow_transition(id, &[PaymentState::Pending, PaymentState::InFlight], "parked = 1", &[])
    }

    /// The outcome is known: `withdrawn` reached its destination, `fees` went to mints.
    pub fn settle_outflow(&self, id: &str, withdrawn: u64, fees: u64, outcome: &str) -> Result<(), PayError> {
        self.outflow_transition(
            id,
            &[PaymentState::Pending, PaymentState::InFlight],
            "state = 'settled', withdrawn = ?3, fees = ?4, outcome = ?5",
            &[&col(withdrawn), &col(fees), &outcome],
        )
    }

    /// Nothing left the wallet (refused, failed, never built): the row no longer counts.
    pub fn cancel_outflow(&self, id: &str, outcome: &str) -> Result<(), PayError> {
        self.outflow_transition(
            id,
            &[PaymentState::Pending, PaymentState::InFlight],
            "state = 'cancelled', fees = 0, outcome = ?3",
            &[&outcome],
        )
    }

    pub fn outflow(&self, id: &str) -> Result<Option<Outflow>, PayError> {
        self.conn()
            .query_row(&format!("{SELECT} WHERE id = ?1"), params![id], row_to_outflow)
            .optional()
            .map_err(db_err)
    }

    /// Every outflow, newest first (at most `limit`).
    pub fn outflows(&self, limit: usize) -> Result<Vec<Outflow>, PayError> {
        let conn = self.conn();
        let mut stmt = conn.prepare(&format!("{SELECT} ORDER BY created_ms DESC LIMIT ?1")).map_err(db_err)?;
        let rows = stmt.query_map(params![i64::try_from(limit).unwrap_or(i64::MAX)], row_to_outflow).map_err(db_err)?;
        rows.collect::<Result<Vec<_>, _>>().map_err(db_err)
    }

    /// Outflows whose outcome is not known yet, oldest first.
    pub fn open_outflows(&self) -> Result<Vec<Outflow>, PayError> {
        let conn = self.conn();
        let mut stmt = conn
            .prepare(&format!("{SELECT} WHERE state IN ('pending', 'in-flight') ORDER BY created_ms"))
            .map_err(db_err)?;
        let rows = stmt.query_map([], row_to_outflow).map_err(db_err)?;
        rows.collect::<Result<Vec<_>, _>>().map_err(db_err)
    }

    pub fn outflow_totals(&self) -> Result<OutflowTotals, PayError> {
        let (withdrawn, in_flight, fees): (i64, i64, i64) = self
            .conn()
            .query_row(
                "SELECT COALESCE(SUM(CASE WHEN state = 'settled' THEN withdrawn ELSE 0 END), 0), \
                        COALESCE(SUM(CASE WHEN state IN ('pending', 'in-flight') THEN amount ELSE 0 END), 0), \
                        COALESCE(SUM(fees), 0) FROM outflows",
                [],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
            )
            .map_err(db_err)?;
        Ok(OutflowTotals { withdrawn: sats(withdrawn), in_flight: sats(in_flight), fees: sats(fees) })
    }

    /// A number kept in the ledger's `meta` table (when the backup was confirmed, when a mint last answered).
    pub fn meta(&self, key: &str) -> Result<Option<i64>, PayError> {
        self.conn()
            .query_row("SELECT value FROM meta WHERE key = ?1", params![key], |r| r.get(0))
            .optional()
            .map_err(db_err)
    }

    pub fn set_meta(&self, key: &str, value: i64) -> Result<(), PayError> {
        self.conn()
            .execute(
                "INSERT INTO meta (key, value) VALUES (?1, ?2) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                params![key, value],
            )
            .map(|_| ())
            .map_err(db_err)
    }

    /// Every meta entry whose key starts with `prefix`.
    pub fn meta_with_prefix(&self, prefix: &str) -> Result<Vec<(String, i64)>, PayError> {
        let conn = self.conn();
        let mut stmt = conn.prepare("SELECT key, value FROM meta WHERE substr(key, 1, ?2) = ?1").map_err(db_err)?;
        let rows = stmt
            .query_map(params![prefix, i64::try_from(prefix.len()).unwrap_or(i64::MAX)], |r| Ok((r.get(0)?, r.get(1)?)))
            .map_err(db_err)?;
        rows.collect::<Result<Vec<_>, _>>().map_err(db_err)
    }

    pub fn clear_meta(&self, key: &str) -> Result<(), PayError> {
        self.conn().execute("DELETE FROM meta WHERE key = ?1", params![key]).map(|_| ()).map_err(db_err)
    }

    /// Records what a restore found at `mint`, once per `key`: `false` when that key is recorded already.
    pub fn record_restored(&self, key: &str, mint: &str, amount: u64) -> Result<bool, PayError> {
        self.conn()
            .execute(
                "INSERT OR IGNORE INTO inflows (at_ms, kind, mint, amount, quote_id) VALUES (?1, 'restore', ?2, ?3, ?4)",
                params![crate::now_ms(), mint, col(amount), key],
            )
            .map(|changed| changed == 1)
            .map_err(db_err)
    }

    /// Whether the ledger counted anything: sats that came in, a payment, or an outflow.
    pub fn has_history(&self) -> Result<bool, PayError> {
        self.conn()
            .query_row(
                "SELECT EXISTS (SELECT 1 FROM inflows) OR EXISTS (SELECT 1 FROM payments) \
                 OR EXISTS (SELECT 1 FROM outflows)",
                [],
                |r| r.get(0),
            )
            .map_err(db_err)
    }

    /// Takes back what the restore begun at `started` recorded: it is being done again from the start.
    pub fn forget_restore(&self, started: i64) -> Result<(), PayError> {
        self.conn()
            .execute(
                "DELETE FROM inflows WHERE kind = 'restore' AND quote_id LIKE ?1",
                params![format!("restore:{started}:%")],
            )
            .map(|_| ())
            .map_err(db_err)
    }
}

#[cfg(test)]
mod tests {
    use super::{Outflow, OutflowKind};
    use crate::i18n::Locale;
    use crate::pay::ledger::PaymentState;

    fn outflow(kind: OutflowKind, state: PaymentState, outcome: Option<&str>) -> Outflow {
        Outflow {
            id: "o1".into(),
            kind,
            mint: "http://127.0.0.1:3338".into(),
            amount_sats: 100,
            operation_id: "op".into(),
            quote_id: None,
            invoice: None,
            token: None,
            state,
            withdrawn_sats: 0,
            fees_sats: 0,
            session: "s".into(),
            parked: false,
            created_ms: 0,
            outcome: outcome.map(str::to_owned),
            input_ys: None,
            target_sats: 0,
        }
    }

    #[test]
    fn where_an_outflow_stands_is_said_in_the_readers_language() {
        let waiting = outflow(OutflowKind::Token, PaymentState::InFlight, None);
        assert_eq!(waiting.state_in(Locale::En), "not claimed yet");
        assert_eq!(waiting.state_in(Locale::De), "noch nicht eingelöst");
        let paid = outflow(OutflowKind::Withdrawal, PaymentState::Settled, Some("paid"));
        assert_eq!(paid.state_in(Locale::En), "paid");
        assert_eq!(paid.state_in(Locale::Es), "pagado");
        let cancelled = outflow(OutflowKind::Token, PaymentState::Cancelled, None);
        assert_eq!(cancelled.state_in(Locale::De), "abgebrochen");
    }

    #[test]
    fn an_outcome_this_version_does_not_know_is_shown_as_stored() {
        let later = outflow(OutflowKind::Withdrawal, PaymentState::Settled, Some("paid via a later route"));
        assert_eq!(later.state_in(Locale::De), "paid via a later route");
    }
}
