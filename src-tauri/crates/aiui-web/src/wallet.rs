//! The wallet on the trusted origin: what it holds (per mint, in flight, withdrawals the mint is still paying) and
//! withdrawing to Lightning. A pasted invoice gets a host-written quote, kept here under a random id for the owner
//! session that asked; the withdrawal names that id and carries the approval passphrase or a TOTP code, checked as
//! an approval of an action is (same rate limit, same single-use codes).
//!
//! Nothing here shows the seed, restores a wallet or makes a token: a token is bearer money and the backup words
//! are the whole wallet, so both stay on the node (`aiui-cli wallet`); the service holds no keyring to read the
//! words from. Every route is a POST checked like every other change on this origin (its session, `Origin`, its
//! CSRF token) before anything else, "no wallet on this node" included; the chat origin has none of these routes.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use aiui_core::i18n::text;
use aiui_core::pay::{OutflowKind, PayError, PaymentState, Payments, WithdrawalOutcome, WithdrawalQuote};
use axum::Json;
use axum::Router;
use axum::extract::{ConnectInfo, State};
use axum::http::{HeaderMap, StatusCode};
use axum::routing::post;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::trusted::TrustedOrigin;
use crate::{APPROVE_DELAY, ApiError, auth};

/// How many quotes one owner session holds at once, and all sessions together; the oldest goes first.
const QUOTES_PER_SESSION: usize = 8;
const QUOTES_IN_ALL: usize = 64;
/// How long the page waits for the mint's quote. The quote's own task is not cut off (it may hold proofs it is
/// about to give back); only the wait for it ends.
const QUOTE_WAIT: Duration = Duration::from_secs(60);
/// How many of the newest outflows the overview reads for withdrawals still in flight.
const OUTFLOWS_READ: usize = 500;

type St = State<Arc<TrustedOrigin>>;

pub(crate) fn routes(base: &str) -> Router<Arc<TrustedOrigin>> {
    Router::new()
        .route(&format!("{base}api/wallet"), post(overview))
        .route(&format!("{base}api/wallet/quote"), post(quote))
        .route(&format!("{base}api/wallet/withdraw"), post(withdraw))
}

/// A quote waiting for the owner's approval.
struct Held {
    /// The session that asked for it (the key of its cookie's hash): no other session can use it.
    session: String,
    quote: WithdrawalQuote,
    shown: Instant,
}

/// The quotes shown on this origin, by their random id.
#[derive(Default)]
pub(crate) struct Quotes(Mutex<HashMap<String, Held>>);

impl Quotes {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Held>> {
        self.0.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn insert(&self, session: &str, quote: WithdrawalQuote) -> String {
        let id = auth::random_token();
        let mut map = self.lock();
        map.retain(|_, held| !expired(&held.quote));
        let oldest = |map: &HashMap<String, Held>, mine: bool| {
            map.iter()
                .filter(|(_, held)| !mine || held.session == session)
                .min_by_key(|(_, held)| held.shown)
                .map(|(id, _)| id.clone())
        };
        while map.values().filter(|held| held.session == session).count() >= QUOTES_PER_SESSION {
            let Some(id) = oldest(&map, true) else { break };
            map.remove(&id);
        }
        while map.len() >= QUOTES_IN_ALL {
            let Some(id) = oldest(&map, false) else { break };
            map.remove(&id);
        }
        map.insert(id.clone(), Held { session: session.to_owned(), quote, shown: Instant::now() });
        id
    }

    /// When this session was shown quote `id`, if it holds it.
    fn shown(&self, session: &str, id: &str) -> Option<Instant> {
        self.lock().get(id).filter(|held| held.session == session).map(|held| held.shown)
    }

    /// Takes quote `id` out (a quote is used once), or says why it cannot be used.
    fn take(&self, session: &str, id: &str) -> Result<WithdrawalQuote, ApiError> {
        let mut map = self.lock();
        if map.get(id).is_none_or(|held| held.session != session) {
            return Err(ApiError::said(StatusCode::NOT_FOUND, "unknown_quote", "error-quote-unknown", &[]));
        }
        let held = map.remove(id).expect("checked above");
        if expired(&held.quote) {
            return Err(ApiError::said(StatusCode::GONE, "quote_expired", "error-quote-expired", &[]));
        }
        Ok(held.quote)
    }
}

/// Whether the mint's quote has ended (a mint that names no expiry, 0, leaves it to the mint to refuse).
fn expired(quote: &WithdrawalQuote) -> bool {
    let now = u64::try_from(aiui_core::now_ms() / 1000).unwrap_or(0);
    quote.expires_at_s != 0 && quote.expires_at_s <= now
}

/// The caller's owner session, checked as every change on this origin is.
fn checked(origin: &TrustedOrigin, headers: &HeaderMap) -> Result<String, ApiError> {
    origin.rules.guard(&origin.shared, headers, true).map(|(key, _)| key)
}

fn payments(origin: &TrustedOrigin) -> Result<Arc<Payments>, ApiError> {
    origin
        .shared
        .payments
        .clone()
        .ok_or_else(|| ApiError::said(StatusCode::CONFLICT, "no_wallet", "error-no-wallet-lan", &[]))
}

/// What the desktop window's other wallet commands (funding, backup words, restore, tokens) answer over the LAN.
pub(crate) fn not_on_lan() -> ApiError {
    ApiError::said(StatusCode::NOT_IMPLEMENTED, "not_on_lan", "error-wallet-not-on-lan", &[])
}

fn parse<T: serde::de::DeserializeOwned>(body: &[u8]) -> Result<T, ApiError> {
    serde_json::from_slice(body).map_err(|e| ApiError::new(StatusCode::BAD_REQUEST, "bad_arguments", e.to_string()))
}

/// A wallet or mint failure as the page shows it: a stable code and the core's own sentence.
fn refused(e: PayError) -> ApiError {
    let (status, code) = match &e {
        PayError::InvalidInvoice(_) => (StatusCode::BAD_REQUEST, "invalid_invoice"),
        PayError::InvalidMint(_) => (StatusCode::BAD_REQUEST, "invalid_mint"),
        PayError::InsufficientFunds { .. } => (StatusCode::CONFLICT, "insufficient_funds"),
        PayError::MintUnreachable { .. } | PayError::Timeout => (StatusCode::BAD_GATEWAY, "mint_unreachable"),
        PayError::Mint { .. } | PayError::WithdrawalRefused(_) => (StatusCode::BAD_GATEWAY, "mint_refused"),
        PayError::MintUnclear { .. } | PayError::Unfinished(_) => (StatusCode::BAD_GATEWAY, "unfinished"),
        _ => (StatusCode::INTERNAL_SERVER_ERROR, "wallet"),
    };
    let text = e.text(crate::request_locale());
    let mut chars = text.chars();
    let sentence = chars.next().map(|c| c.to_uppercase().chain(chars).collect::<String>()).unwrap_or_default();
    ApiError::new(status, code, format!("{}.", sentence.trim_end_matches('.')))
}

#[derive(Debug, Serialize)]
struct Balance {
    mint: String,
    sats: u64,
}

#[derive(Debug, Serialize)]
struct PendingWithdrawal {
    id: String,
    mint: String,
    /// The face value that left the balance for it (amount, fee reserve, input fee); what is unused comes back.
    sats: u64,
    created_ms: i64,
}

#[derive(Debug, Serialize)]
struct Overview {
    balances: Vec<Balance>,
    total_sats: u64,
    /// Payments to providers, withdrawals and tokens whose outcome is not known yet.
    in_flight_sats: u64,
    pending_withdrawals: Vec<PendingWithdrawal>,
    /// Whether the ledger adds up (the conservation sum); when not, `aiui-cli wallet reconcile` on the node.
    conserved: bool,
}

async fn overview_of(payments: &Payments) -> Result<Overview, PayError> {
    let balances = payments.wallet().balances().await?;
    let sums = payments.conservation().await?;
    let pending_withdrawals = payments
        .outflows(OUTFLOWS_READ)?
        .into_iter()
        .filter(|o| {
            o.kind == OutflowKind::Withdrawal && matches!(o.state, PaymentState::Pending | PaymentState::InFlight)
        })
        .map(|o| PendingWithdrawal { id: o.id, mint: o.mint, sats: o.amount_sats, created_ms: o.created_ms })
        .collect();
    Ok(Overview {
        total_sats: balances.iter().map(|(_, sats)| sats).sum(),
        balances: balances.into_iter().map(|(mint, sats)| Balance { mint, sats }).collect(),
        in_flight_sats: sums.in_flight,
        pending_withdrawals,
        conserved: sums.holds(),
    })
}

async fn overview(State(origin): St, headers: HeaderMap) -> Result<Json<Overview>, ApiError> {
    checked(&origin, &headers)?;
    let payments = payments(&origin)?;
    Ok(Json(overview_of(&payments).await.map_err(refused)?))
}

/// The trusted page's `trusted_wallet` over the LAN: the desktop's shape, read-only.
pub(crate) async fn desktop_view(origin: &TrustedOrigin) -> Result<Value, ApiError> {
    let Some(payments) = origin.shared.payments.clone() else {
        return Ok(json!({ "opened": false, "balances": [], "total_sats": 0 }));
    };
    let balances = payments.wallet().balances().await.map_err(refused)?;
    let total: u64 = balances.iter().map(|(_, sats)| sats).sum();
    let balances: Vec<Balance> = balances.into_iter().map(|(mint, sats)| Balance { mint, sats }).collect();
    Ok(json!({ "opened": true, "balances": balances, "total_sats": total }))
}

#[derive(Deserialize)]
struct Ask {
    invoice: String,
    #[serde(default)]
    mint: Option<String>,
    #[serde(default)]
    everything: bool,
}

/// The quote as the owner reads it before approving; the mint's own quote id and the invoice stay here.
#[derive(Debug, Serialize)]
struct QuoteView {
    id: String,
    mint: String,
    amount_sats: u64,
    fee_reserve_sats: u64,
    input_fee_sats: u64,
    most_it_costs_sats: u64,
    expires_at_s: u64,
}

async fn quote(State(origin): St, headers: HeaderMap, body: axum::body::Bytes) -> Result<Json<QuoteView>, ApiError> {
    let session = checked(&origin, &headers)?;
    let ask: Ask = parse(&body)?;
    let payments = payments(&origin)?;
    let mint = ask.mint.map(|m| m.trim().to_owned()).filter(|m| !m.is_empty());
    // Its own task: a page that goes away mid-quote does not leave the proofs cdk set aside to price it reserved.
    let task =
        tokio::spawn(async move { payments.quote_withdrawal(&ask.invoice, mint.as_deref(), ask.everything).await });
    let quote = match tokio::time::timeout(QUOTE_WAIT, task).await {
        Ok(joined) => joined.map_err(ApiError::internal)?.map_err(refused)?,
        Err(_) => return Err(refused(PayError::Timeout)),
    };
    let view = QuoteView {
        id: String::new(),
        mint: quote.mint.clone(),
        amount_sats: quote.amount_sats,
        fee_reserve_sats: quote.fee_reserve_sats,
        input_fee_sats: quote.input_fee_sats,
        most_it_costs_sats: quote.most_it_costs_sats,
        expires_at_s: quote.expires_at_s,
    };
    let id = origin.quotes.insert(&session, quote);
    tracing::info!(mint = %view.mint, sats = view.amount_sats, "web: a withdrawal quote shown on the trusted origin");
    Ok(Json(QuoteView { id, ..view }))
}

#[derive(Deserialize)]
struct Approve {
    id: String,
    #[serde(default)]
    secret: Option<String>,
}

#[derive(Debug, Serialize)]
#[serde(tag = "outcome", rename_all = "snake_case")]
enum Outcome {
    Paid {
        id: String,
        amount_sats: u64,
        fee_sats: u64,
        message: String,
    },
    /// The ledger's id when the core answered "pending"; `None` when the mint had not answered within the wait.
    Pending {
        id: Option<String>,
        message: String,
    },
}

async fn withdraw(
    State(origin): St,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    body: axum::body::Bytes,
) -> Result<Json<Outcome>, ApiError> {
    let (session, signed_in) = origin.rules.guard(&origin.shared, &headers, true)?;
    let approve: Approve = parse(&body)?;
    // Too soon is said before the secret is checked, so a TOTP code is not spent on it.
    if origin.quotes.shown(&session, &approve.id).is_some_and(|at| at.elapsed() < APPROVE_DELAY) {
        return Err(ApiError::said(StatusCode::CONFLICT, "too_soon", "error-quote-too-soon", &[]));
    }
    let Some(secret) = approve.secret.filter(|s| !s.trim().is_empty()) else {
        return Err(ApiError::said(StatusCode::FORBIDDEN, "secret_required", "error-withdraw-secret-required", &[]));
    };
    let addr = auth::client_addr(peer, &headers, origin.shared.config.trust_proxy);
    if !origin.check_secret(crate::trusted::Asker::InSession(&signed_in.csrf, addr), &secret).await? {
        return Err(ApiError::said(StatusCode::FORBIDDEN, "wrong_secret", "error-withdraw-wrong-secret", &[]));
    }
    let payments = payments(&origin)?;
    let quote = origin.quotes.take(&session, &approve.id)?;
    tracing::info!(mint = %quote.mint, sats = quote.amount_sats, "web: a withdrawal approved on the trusted origin");
    // Its own task: neither a page that goes away nor the wait below cuts the melt off half-way; it ends in the
    // ledger whatever this request does.
    let task = tokio::spawn(async move { payments.withdraw(&quote).await });
    let done = match tokio::time::timeout(origin.shared.config.withdraw_wait, task).await {
        Ok(joined) => joined.map_err(ApiError::internal)?.map_err(refused)?,
        Err(_) => {
            tracing::info!("web: the mint has not finished the withdrawal yet; it goes on in flight");
            return Ok(Json(Outcome::Pending {
                id: None,
                message: text(crate::request_locale(), "wallet-lan-not-finished", &[]),
            }));
        }
    };
    Ok(Json(match done.outcome {
        WithdrawalOutcome::Paid { amount_sats, fee_sats } => Outcome::Paid {
            message: text(
                crate::request_locale(),
                "wallet-lan-paid",
                &[("amount", amount_sats.into()), ("fee", fee_sats.into())],
            ),
            id: done.id,
            amount_sats,
            fee_sats,
        },
        WithdrawalOutcome::Pending => Outcome::Pending {
            message: text(crate::request_locale(), "wallet-lan-still-paying", &[]),
            id: Some(done.id),
        },
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn quote(expires_in_s: i64) -> WithdrawalQuote {
        WithdrawalQuote {
            quote_id: "mint-quote".into(),
            mint: "http://127.0.0.1:1".into(),
            invoice: "lnbc1".into(),
            amount_sats: 10,
            fee_reserve_sats: 1,
            input_fee_sats: 0,
            most_it_costs_sats: 11,
            expires_at_s: u64::try_from(aiui_core::now_ms() / 1000 + expires_in_s).unwrap(),
        }
    }

    #[test]
    fn a_quote_is_used_once_and_only_by_the_session_that_asked() {
        let quotes = Quotes::default();
        let id = quotes.insert("owner", quote(600));
        assert!(quotes.shown("someone-else", &id).is_none());
        assert_eq!(quotes.take("someone-else", &id).unwrap_err().code, "unknown_quote");
        assert_eq!(quotes.take("owner", &id).unwrap().quote_id, "mint-quote");
        assert_eq!(quotes.take("owner", &id).unwrap_err().code, "unknown_quote", "used once");
        let old = quotes.insert("owner", quote(-1));
        assert_eq!(quotes.take("owner", &old).unwrap_err().code, "quote_expired");
    }

    #[test]
    fn quotes_are_bounded_per_session_and_in_all() {
        let quotes = Quotes::default();
        let first = quotes.insert("owner", quote(600));
        for _ in 0..QUOTES_PER_SESSION {
            quotes.insert("owner", quote(600));
        }
        assert!(quotes.shown("owner", &first).is_none(), "the oldest of the session went first");
        for i in 0..QUOTES_IN_ALL * 2 {
            quotes.insert(&format!("session-{i}"), quote(600));
        }
        assert_eq!(quotes.lock().len(), QUOTES_IN_ALL);
    }
}
