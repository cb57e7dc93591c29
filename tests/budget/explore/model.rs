//! The explorer's reference of where every sat must be, kept apart from the code it checks: it reads the ledger and
//! the wallet's files only to compare them with the truth outside them (the mint's own database, the provider's
//! record of what it redeemed and handed back, the budget's periods). An answer that never came (a lost answer, an
//! aborted step) leaves its outcome open, so the oracles never predict an outcome: they check that whatever the code
//! concluded is one the truth allows.

use std::path::Path;

use aiui_core::pay::{Conservation, PaymentState, Payments};

use super::{Config, World};

/// After every step: no period's spend, and no spend with what is reserved, passes its ceiling.
pub fn after_step(payments: &Payments) -> Result<(), String> {
    let now = payments.budget().get();
    if now.spent_sats + now.reserved_sats > now.allowance_sats {
        return Err(format!("ceiling: spent and reserved pass the allowance: {now:?}"));
    }
    for period in payments.budget().periods() {
        if period.spent_sats > period.allowance_sats {
            return Err(format!("ceiling: a period spent past its allowance: {period:?}"));
        }
    }
    Ok(())
}

/// What reconcile can still change; two equal snapshots in a row mean it is quiet.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Snapshot {
    sums: Conservation,
    spent: u64,
    reserved: u64,
    open_outflows: usize,
}

pub async fn snapshot(payments: &Payments) -> Result<Snapshot, String> {
    let sums = payments.conservation().await.map_err(|e| format!("heal: the sums cannot be read: {e}"))?;
    let budget = payments.budget().get();
    let open_outflows = payments
        .outflows(10_000)
        .map_err(|e| e.to_string())?
        .iter()
        .filter(|row| matches!(row.state, PaymentState::Pending | PaymentState::InFlight))
        .count();
    Ok(Snapshot { sums, spent: budget.spent_sats, reserved: budget.reserved_sats, open_outflows })
}

/// A payment row as the ledger's file holds it.
struct Row {
    id: String,
    state: String,
    amount: u64,
    spent: u64,
    token: Option<String>,
    set_aside: Option<String>,
}

fn payment_rows(dir: &Path) -> Result<Vec<Row>, String> {
    let conn = rusqlite::Connection::open(dir.join("ledger.sqlite3")).map_err(|e| e.to_string())?;
    let mut stmt = conn
        .prepare("SELECT id, state, amount, spent, token, set_aside_token FROM payments ORDER BY created_ms")
        .map_err(|e| e.to_string())?;
    let rows = stmt
        .query_map([], |r| {
            Ok(Row {
                id: r.get(0)?,
                state: r.get(1)?,
                amount: r.get::<_, i64>(2)? as u64,
                spent: r.get::<_, i64>(3)? as u64,
                token: r.get(4)?,
                set_aside: r.get(5)?,
            })
        })
        .map_err(|e| e.to_string())?;
    rows.collect::<Result<Vec<_>, _>>().map_err(|e| e.to_string())
}

/// The wallet's proofs by state, as cdk's file holds them: (Y, amount).
fn wallet_proofs(dir: &Path, state: &str) -> Result<Vec<(cdk::nuts::PublicKey, u64)>, String> {
    let conn = rusqlite::Connection::open(dir.join("wallet.sqlite3")).map_err(|e| e.to_string())?;
    let mut stmt = conn.prepare("SELECT y, amount FROM proof WHERE state = ?1").map_err(|e| e.to_string())?;
    let rows = stmt
        .query_map([state], |r| Ok((r.get::<_, Vec<u8>>(0)?, r.get::<_, i64>(1)? as u64)))
        .map_err(|e| e.to_string())?;
    rows.map(|row| {
        let (y, amount) = row.map_err(|e| e.to_string())?;
        let y = cdk::nuts::PublicKey::from_slice(&y).map_err(|e| format!("a Y in the wallet's file: {e}"))?;
        Ok((y, amount))
    })
    .collect()
}

/// What the sequence did outside the data dir that the oracles need.
pub struct Outside<'a> {
    pub discarded: &'a [String],
    pub set_aside_credited: Option<u64>,
    pub lost_answers: u64,
}

/// The most a mint charging fees keeps for one swap of the explorer's sizes (at most 30 inputs at 100 ppk).
const MOST_FEE_OF_A_SWAP: u64 = 3;

/// After the heal phase: everything resolved, the sums exact, and the code's account equal to the truth. Returns the
/// sats of a shortfall it let pass: the fee a mint kept for a swap whose answer was lost, which the ledger cannot
/// see (a known gap, bounded by the lost answers; printed in the explorer's table).
pub async fn after_heal(
    world: &World,
    config: &Config,
    payments: &Payments,
    dir: &Path,
    outside: &Outside<'_>,
) -> Result<u64, String> {
    let (discarded, set_aside_credited) = (outside.discarded, outside.set_aside_credited);
    let sums = payments.conservation().await.map_err(|e| e.to_string())?;
    let accounted =
        sums.wallet_balance + sums.settled_spend + sums.in_flight + sums.fees + sums.withdrawn + sums.withdrawal_fees;
    let short = sums.received_total.saturating_sub(accounted);
    let lost_swaps_may_cost = if config.fee_ppk > 0 { outside.lost_answers * MOST_FEE_OF_A_SWAP } else { 0 };
    let tolerated = accounted <= sums.received_total && short <= lost_swaps_may_cost;
    if !sums.holds() && !tolerated {
        return Err(format!("conservation: balance + spend + in flight + fees + withdrawn != received: {sums:?}"));
    }
    let unrecorded = if sums.holds() { 0 } else { short };
    after_step(payments)?;

    // The wallet against the mint: every proof it counts is unspent at the mint, and none is held back from the
    // balance (reserved, pending) while the mint says it is unspent and nothing is open.
    let unspent = wallet_proofs(dir, "UNSPENT")?;
    let states = world.mint.states_of(unspent.iter().map(|(y, _)| *y).collect()).await;
    let counted_spent: u64 = unspent
        .iter()
        .zip(&states)
        .filter(|(_, s)| **s != cdk::nuts::State::Unspent)
        .map(|((_, amount), _)| amount)
        .sum();
    if counted_spent > 0 {
        return Err(format!("mint truth: the wallet counts {counted_spent} sats whose proofs the mint says are spent"));
    }

    let rows = payment_rows(dir)?;
    let open: Vec<&Row> = rows.iter().filter(|r| r.state == "pending" || r.state == "in-flight").collect();
    for row in &open {
        // Only a token partly spent at the mint may still wait, and only while reconcile has not watched it for
        // `write_off_after`.
        let Some(token) = &row.token else {
            return Err(format!("in flight: payment {} has no token after the heal", row.id));
        };
        let (face, spent) = world.friend.spent_face(token).await;
        if config.write_off_now || spent == 0 || spent == face {
            return Err(format!(
                "in flight: payment {} ({} sats, {spent} of {face} spent at the mint) is still open after the heal",
                row.id, row.amount
            ));
        }
    }
    let open_outflows: Vec<_> = payments
        .outflows(10_000)
        .map_err(|e| e.to_string())?
        .into_iter()
        .filter(|row| matches!(row.state, PaymentState::Pending | PaymentState::InFlight))
        .collect();
    if !open_outflows.is_empty() {
        return Err(format!("in flight: withdrawals or sent tokens still open after the heal: {open_outflows:?}"));
    }
    if open.is_empty() {
        for state in ["RESERVED", "PENDING", "PENDING_SPENT"] {
            let held = wallet_proofs(dir, state)?;
            let states = world.mint.states_of(held.iter().map(|(y, _)| *y).collect()).await;
            let stranded: u64 = held
                .iter()
                .zip(&states)
                .filter(|(_, s)| **s == cdk::nuts::State::Unspent)
                .map(|((_, amount), _)| amount)
                .sum();
            if stranded > 0 {
                return Err(format!("stranded: {stranded} sats unspent at the mint are held {state} by the wallet"));
            }
        }
    }

    // The budget counts what the ledger settled, in periods that each kept their ceiling; a set-aside token the
    // owner received lowers the ledger's spend but not the allowance's count, by at most what it credited.
    let periods = payments.budget().periods();
    let counted: u64 = periods.iter().map(|p| p.spent_sats).sum();
    let reserved: u64 = periods.iter().map(|p| p.reserved_sats).sum();
    let settled = sums.settled_spend + sums.fees;
    let above = counted.checked_sub(settled);
    let allowed_above = set_aside_credited.unwrap_or(u64::MAX);
    if open.is_empty() && (above.is_none_or(|above| above > allowed_above) || reserved != 0) {
        return Err(format!(
            "budget: counted {counted} and reserved {reserved}, the ledger settled {} spend and {} fees (set-aside \
             receipts credited {set_aside_credited:?})",
            sums.settled_spend, sums.fees
        ));
    }

    // Each settled payment against the provider's own record: spent is what it redeemed less what it handed back
    // that the wallet received.
    let redemptions = world.provider.state.redemptions.lock().unwrap().clone();
    for row in rows.iter().filter(|r| r.state == "settled") {
        let Some(token) = &row.token else { continue };
        let record = redemptions.iter().find(|r| &r.paid == token);
        let (redeemed, handed_back) = match record {
            Some(record) => (record.redeemed_face, record.handed_back.clone()),
            None => (0, Vec::new()),
        };
        let mut received_back = 0;
        for back in &handed_back {
            let (face, spent) = world.friend.spent_face(back).await;
            received_back += spent;
            let kept_aside = row.set_aside.as_ref() == Some(back) || discarded.contains(back);
            if !config.write_off_now && spent < face && !kept_aside {
                return Err(format!(
                    "lost: the provider handed back {face} sats for payment {} (change or a refund) that the wallet \
                     never received",
                    row.id
                ));
            }
        }
        let truth = redeemed.saturating_sub(received_back);
        if row.spent != truth {
            return Err(format!(
                "spend: payment {} counts {} sats spent; the provider redeemed {redeemed} and {received_back} of what \
                 it handed back was received, so {truth} were spent",
                row.id, row.spent
            ));
        }
    }
    Ok(unrecorded)
}
