//! A Routstr provider that speaks routstr.md exactly, for tests: `/v1/info`, `/v1/models` with `sats_pricing`,
//! the `X-Cashu` pre-flight 402, real redemption at the in-process cdk mint, change in `X-Cashu`, the refund
//! endpoint with 425, and a knob per failure mode, honest or hostile (change from a mint it runs, change larger than
//! paid, our own token sent back, 402 after redeeming, absurd prices, a refund that never comes, a body that never
//! ends). It announces itself with a real kind-38421 event.

use std::collections::{HashMap, VecDeque};
use std::str::FromStr;
use std::sync::atomic::{AtomicU16, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use axum::Json;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use cdk::Amount;
use cdk::mint_url::MintUrl;
use cdk::nuts::{CurrencyUnit, Token};
use cdk::wallet::{ReceiveOptions, SendOptions, WalletRepositoryBuilder};
use nostr_sdk::prelude::{Client, EventBuilder, Keys, Kind, Tag};
use serde_json::{Value, json};

/// Sats per token, as `sats_pricing` advertises them.
pub const PROMPT_PRICE: f64 = 0.01;
pub const COMPLETION_PRICE: f64 = 0.05;
pub const MODEL: &str = "toolbot";

/// One failure mode, armed for the next chat request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fault {
    None,
    /// 402 pre-flight on the next request, whatever the token is worth (the token is not redeemed).
    PaymentRequired,
    /// The upstream fails after redemption: 502 with a full refund token in the body and in `X-Cashu`.
    UpstreamError,
    /// Redeems, then 500 `internal_error` with no change; the refund endpoint answers 425 `pending_425` times
    /// first, then refunds.
    InternalNoChange,
    /// Claims the token is already spent without redeeming it.
    AlreadySpent,
    /// Hostile: redeems, answers, and sends "change" minted at a second mint it runs (see `with_own_mint`).
    ChangeFromOwnMint,
    /// Hostile: redeems, answers, and sends back more than it was paid, from the paid mint.
    ChangeLargerThanPaid,
    /// Hostile: redeems, answers, and sends our own (now spent) token back as "change".
    OwnTokenAsChange,
    /// Hostile: redeems nothing, answers, and sends our own (still unspent) token back as "change".
    OwnTokenUnredeemedAsChange,
    /// Hostile: redeems the token, then answers 402 as if it had not.
    RedeemThen402,
    /// Hostile: 402 asking for `HUGE_402_MSAT`, whatever it advertised.
    Huge402,
    /// Answers 200 with the change header, then a body that never ends.
    EndlessBody,
    /// Waits `SLOW_MS` before answering normally.
    Slow,
    /// Redeems only the largest proof of the token, then 500 without change and without a refund: a token partly
    /// spent at the mint.
    RedeemPartThen500,
}

/// What the provider did with one token it was paid, for the money explorer's oracle: the face value it redeemed
/// and each token it funded and handed back for it (change, a refund), whoever ends up receiving them.
#[derive(Debug, Clone, Default)]
pub struct Redemption {
    pub paid: String,
    pub redeemed_face: u64,
    pub handed_back: Vec<String>,
}

/// What `Fault::Huge402` asks for.
pub const HUGE_402_MSAT: u64 = 5_000_000;
/// How long `Fault::Slow` waits.
pub const SLOW_MS: u64 = 3_000;

pub struct ProviderState {
    wallet: cdk::Wallet,
    /// A wallet at a second mint the provider runs, for `Fault::ChangeFromOwnMint`.
    own_mint_wallet: Mutex<Option<cdk::Wallet>>,
    /// The `sats_pricing` it advertises, changeable at any time.
    pricing: Mutex<(Value, Value)>,
    /// What an upstream that went down after redemption still charges (the refund is the rest).
    pub down_charge: AtomicUsize,
    fault: Mutex<Fault>,
    pending_425: AtomicUsize,
    /// A status the refund endpoint answers instead of its own answer while non-zero: a proxy in front of a provider
    /// that is down (502, 503, 504).
    pub refund_gateway_status: AtomicU16,
    replies: Mutex<VecDeque<Value>>,
    /// Chat request bodies received, in order (to assert `max_tokens` on every one).
    pub bodies: Mutex<Vec<Value>>,
    /// Original token → refund token, for the refund endpoint.
    refunds: Mutex<HashMap<String, String>>,
    /// What the provider charged in total, sats.
    pub charged: AtomicUsize,
    /// Every token it redeemed, in order.
    pub redemptions: Mutex<Vec<Redemption>>,
    /// Runs just before a 402 pre-flight is answered (a test takes the mint down at that moment).
    pub before_402: Mutex<Option<Box<dyn Fn() + Send + Sync>>>,
}

impl ProviderState {
    fn redeemed(&self, paid: &str, redeemed_face: u64) {
        let record = Redemption { paid: paid.to_owned(), redeemed_face, handed_back: Vec::new() };
        self.redemptions.lock().unwrap().push(record);
    }

    fn handed_back(&self, paid: &str, token: &str) {
        if let Some(record) = self.redemptions.lock().unwrap().iter_mut().rev().find(|r| r.paid == paid) {
            record.handed_back.push(token.to_owned());
        }
    }
}

impl ProviderState {
    /// Arms `fault` for the next chat request (see [`TestProvider::arm`]), from a task that holds only the state.
    pub fn arm_next(&self, fault: Fault) {
        *self.fault.lock().unwrap() = fault;
    }
}

pub struct TestProvider {
    pub url: String,
    pub state: Arc<ProviderState>,
    pub keys: Keys,
    server: tokio::task::JoinHandle<()>,
}

impl TestProvider {
    /// Starts on 127.0.0.1:0 taking tokens from `mint`; `replies` are OpenAI chat completion bodies.
    pub async fn start(mint: &str, replies: Vec<Value>) -> Self {
        let db = cdk_sqlite::wallet::memory::empty().await.expect("an in-memory wallet database");
        let seed: [u8; 64] = std::array::from_fn(|_| rand::random());
        let repo = WalletRepositoryBuilder::new()
            .localstore(Arc::new(db))
            .seed(seed)
            .with_rate_limiting_disabled()
            .build()
            .await
            .expect("the provider's wallet");
        let wallet = repo
            .get_or_create_wallet(MintUrl::from_str(mint).expect("a mint URL"), CurrencyUnit::Sat, None)
            .await
            .expect("a wallet at the mint");
        let state = Arc::new(ProviderState {
            wallet,
            own_mint_wallet: Mutex::new(None),
            pricing: Mutex::new((json!(PROMPT_PRICE), json!(COMPLETION_PRICE))),
            down_charge: AtomicUsize::new(0),
            fault: Mutex::new(Fault::None),
            pending_425: AtomicUsize::new(0),
            refund_gateway_status: AtomicU16::new(0),
            replies: Mutex::new(replies.into()),
            bodies: Mutex::new(Vec::new()),
            refunds: Mutex::new(HashMap::new()),
            charged: AtomicUsize::new(0),
            redemptions: Mutex::new(Vec::new()),
            before_402: Mutex::new(None),
        });
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("a port");
        let url = format!("http://{}/", listener.local_addr().expect("an address"));
        let info = json!({"name": "aiui test provider", "description": "replays fixtures", "version": "0.4.5",
            "npub": "", "mints": [mint], "http_url": url, "onion_url": null});
        let router = axum::Router::new()
            .route("/v1/info", get(move || async move { Json(info) }))
            .route("/v1/models", get(models))
            .route("/v1/chat/completions", post(chat))
            .route("/v1/wallet/refund", post(refund))
            .with_state(state.clone());
        let server = tokio::spawn(async move {
            let _ = axum::serve(listener, router).await;
        });
        Self { url, state, keys: Keys::generate(), server }
    }

    /// Stops answering: the port closes, as a provider that went down after it was selected.
    pub fn stop(&self) {
        self.server.abort();
    }

    /// Advertises another `sats_pricing` (any JSON: 1e300, "NaN", -1, strings) from the next probe on.
    pub fn advertise(&self, prompt: Value, completion: Value) {
        *self.state.pricing.lock().unwrap() = (prompt, completion);
    }

    /// Gives the provider a wallet at `mint`, a mint it runs, funded with `sats`: the source of its fake change.
    pub async fn with_own_mint(&self, mint: &str, sats: u64) {
        let db = cdk_sqlite::wallet::memory::empty().await.expect("an in-memory wallet database");
        let seed: [u8; 64] = std::array::from_fn(|_| rand::random());
        let wallet = cdk::wallet::WalletBuilder::new()
            .mint_url(MintUrl::from_str(mint).expect("a mint URL"))
            .unit(CurrencyUnit::Sat)
            .localstore(Arc::new(db))
            .seed(seed)
            .without_rate_limiting()
            .build()
            .expect("the provider's wallet at its own mint");
        fund(&wallet, sats).await;
        *self.state.own_mint_wallet.lock().unwrap() = Some(wallet);
    }

    /// Funds the provider's wallet at the paid mint directly (for change larger than what it was paid).
    pub async fn fund(&self, sats: u64) {
        fund(&self.state.wallet, sats).await;
    }

    pub fn arm(&self, fault: Fault, pending_425: usize) {
        *self.state.fault.lock().unwrap() = fault;
        self.state.pending_425.store(pending_425, Ordering::SeqCst);
    }

    /// Publishes the provider's kind-38421 announcement to `relay`.
    pub async fn announce(&self, relay: &str, mint: &str) {
        let client = Client::new(self.keys.clone());
        client.add_relay(relay).await.expect("the relay URL");
        client.connect().await;
        let content = json!(json!({"name": "aiui test provider", "about": "fixtures"}).to_string()).to_string();
        let builder = EventBuilder::new(Kind::Custom(38421), content).tags([
            Tag::identifier("aiui-test"),
            Tag::parse(["u", self.url.as_str()]).expect("a u tag"),
            Tag::parse(["mint", mint]).expect("a mint tag"),
            Tag::parse(["version", "0.4.5"]).expect("a version tag"),
        ]);
        client.send_event_builder(builder).await.expect("the announcement is accepted");
        client.disconnect().await;
    }
}

async fn fund(wallet: &cdk::Wallet, sats: u64) {
    use cdk::amount::SplitTarget;
    use cdk::nuts::PaymentMethod;
    let quote = wallet.mint_quote(PaymentMethod::BOLT11, Some(sats.into()), None, None).await.expect("a quote");
    wallet
        .wait_and_mint_quote(quote, SplitTarget::default(), None, std::time::Duration::from_secs(20))
        .await
        .expect("the fake Lightning backend pays");
}

async fn models(State(state): State<Arc<ProviderState>>) -> Json<Value> {
    let (prompt, completion) = state.pricing.lock().unwrap().clone();
    Json(json!({"data": [{"id": MODEL, "name": "Tool Bot", "context_length": 32768,
        "pricing": {"prompt": 0.000001, "completion": 0.000005},
        "sats_pricing": {"prompt": prompt, "completion": completion, "max_cost": 2000.0},
        "top_provider": {"context_length": 32768, "max_completion_tokens": 4096},
        "enabled": true, "alias_ids": ["vendor/toolbot"]}]}))
}

fn error(status: u16, body: Value) -> Response {
    (StatusCode::from_u16(status).expect("a status"), Json(body)).into_response()
}

/// The reservation the real proxy computes, in msat (routstr.md §7), at the advertised price.
fn reservation_msat(state: &ProviderState, body: &Value) -> u64 {
    let (prompt, completion) = state.pricing.lock().unwrap().clone();
    let (prompt, completion) = (prompt.as_f64().unwrap_or(0.0), completion.as_f64().unwrap_or(0.0));
    let chars: usize = body["messages"]
        .as_array()
        .map(|ms| ms.iter().map(|m| m["content"].as_str().map_or(0, |s| s.chars().count())).sum())
        .unwrap_or(0);
    let max_tokens = body["max_tokens"].as_u64().unwrap_or(32768) as f64;
    ((chars as f64 / 3.0) * prompt * 1000.0 + max_tokens * completion * 1000.0).ceil() as u64
}

async fn send_back(state: &ProviderState, sats: u64) -> Option<String> {
    if sats == 0 {
        return None;
    }
    let prepared = state.wallet.prepare_send(Amount::from(sats), SendOptions::default()).await.ok()?;
    Some(prepared.confirm(None).await.ok()?.to_string())
}

async fn chat(State(state): State<Arc<ProviderState>>, headers: HeaderMap, Json(body): Json<Value>) -> Response {
    state.bodies.lock().unwrap().push(body.clone());
    let Some(token) = headers.get("x-cashu").and_then(|v| v.to_str().ok()).map(str::to_owned) else {
        return error(
            401,
            json!({"error": {"message": "missing payment", "type": "invalid_request_error", "code": 401}}),
        );
    };
    let face_sats = Token::from_str(&token).ok().and_then(|t| t.value().ok()).map_or(0, |a| a.to_u64());
    let required = reservation_msat(&state, &body);
    let fault = std::mem::replace(&mut *state.fault.lock().unwrap(), Fault::None);
    if fault == Fault::Slow {
        tokio::time::sleep(std::time::Duration::from_millis(SLOW_MS)).await;
    }
    if fault == Fault::Huge402 {
        return error(
            402,
            json!({"detail": {"reason": "Insufficient balance", "amount_required_msat": HUGE_402_MSAT,
            "model": MODEL, "type": "minimum_balance_required"}}),
        );
    }
    if fault == Fault::PaymentRequired || face_sats * 1000 < required {
        if let Some(hook) = state.before_402.lock().unwrap().as_ref() {
            hook();
        }
        return error(
            402,
            json!({"detail": {"reason": "Insufficient balance", "amount_required_msat": required,
            "model": MODEL, "type": "minimum_balance_required"}}),
        );
    }
    if fault == Fault::OwnTokenUnredeemedAsChange {
        let reply = state.replies.lock().unwrap().pop_front().unwrap_or_else(|| json!({"choices": []}));
        let mut response = (StatusCode::OK, Json(reply)).into_response();
        response.headers_mut().insert("x-cashu", token.parse().expect("a header value"));
        return response;
    }
    if fault == Fault::AlreadySpent {
        return error(
            400,
            json!({"error": {"message": "Token already spent", "type": "cashu_error",
            "code": "cashu_token_already_spent"}}),
        );
    }
    if fault == Fault::RedeemPartThen500 {
        if let Ok(parsed) = Token::from_str(&token)
            && let Ok(mut proofs) = aiui_core::pay::proofs_at(&state.wallet, &parsed).await
            && proofs.len() >= 2
        {
            // The largest: at a mint with fees a 1-sat proof would be all fee.
            proofs.sort_by_key(|p| std::cmp::Reverse(p.amount));
            proofs.truncate(1);
            let face = proofs.iter().map(|p| p.amount.to_u64()).sum();
            if state.wallet.receive_proofs(proofs, ReceiveOptions::default(), None, None).await.is_ok() {
                state.redeemed(&token, face);
            }
        }
        return error(500, json!({"error": {"message": "internal error", "type": "internal_error", "code": 500}}));
    }
    let redeemed = match state.wallet.receive(&token, ReceiveOptions::default()).await {
        Ok(amount) => {
            state.redeemed(&token, face_sats);
            amount.to_u64()
        }
        Err(e) => {
            return error(
                400,
                json!({"error": {"message": e.to_string(), "type": "cashu_error", "code": "invalid_cashu_token"}}),
            );
        }
    };
    match fault {
        Fault::RedeemThen402 => {
            return error(
                402,
                json!({"detail": {"reason": "Insufficient balance", "amount_required_msat": required + 1000,
                "model": MODEL, "type": "minimum_balance_required"}}),
            );
        }
        Fault::UpstreamError => {
            let refund = send_back(&state, redeemed).await.unwrap_or_default();
            state.handed_back(&token, &refund);
            // The refund endpoint hands it out again for this token, as it does change (routstr.md §7): a client
            // that died before reading this answer gets it there (the explorer's long run, seed 587).
            state.refunds.lock().unwrap().insert(token.clone(), refund.clone());
            let mut response = error(
                502,
                json!({"error": {"message": "upstream failed", "type": "upstream_error",
                "code": 502, "refund_token": refund}}),
            );
            response.headers_mut().insert("x-cashu", refund.parse().expect("a header value"));
            return response;
        }
        Fault::InternalNoChange => {
            let charge = state.down_charge.load(Ordering::SeqCst) as u64;
            state.charged.fetch_add(charge as usize, Ordering::SeqCst);
            if let Some(refund) = send_back(&state, redeemed.saturating_sub(charge)).await {
                state.handed_back(&token, &refund);
                state.refunds.lock().unwrap().insert(token, refund);
            }
            return error(500, json!({"error": {"message": "internal error", "type": "internal_error", "code": 500}}));
        }
        _ => {}
    }
    let reply = state.replies.lock().unwrap().pop_front().unwrap_or_else(|| json!({"choices": []}));
    let usage = &reply["usage"];
    let cost_msat = usage["prompt_tokens"].as_f64().unwrap_or(0.0) * PROMPT_PRICE * 1000.0
        + usage["completion_tokens"].as_f64().unwrap_or(0.0) * COMPLETION_PRICE * 1000.0;
    let charged = (cost_msat / 1000.0).ceil() as u64;
    state.charged.fetch_add(charged as usize, Ordering::SeqCst);
    let change = match fault {
        Fault::ChangeFromOwnMint => {
            let own = state.own_mint_wallet.lock().unwrap().clone().expect("with_own_mint was called");
            let prepared = own.prepare_send(Amount::from(redeemed), SendOptions::default()).await.expect("own change");
            Some(prepared.confirm(None).await.expect("own change token").to_string())
        }
        Fault::ChangeLargerThanPaid => send_back(&state, redeemed + 50).await,
        Fault::OwnTokenAsChange => Some(token.clone()),
        _ => send_back(&state, redeemed.saturating_sub(charged)).await,
    };
    // As the real provider does (routstr.md §7), the refund endpoint hands out the change again for this token.
    if let Some(change) = &change {
        if fault != Fault::OwnTokenAsChange && fault != Fault::ChangeFromOwnMint {
            state.handed_back(&token, change);
        }
        state.refunds.lock().unwrap().insert(token.clone(), change.clone());
    }
    let mut response = if fault == Fault::EndlessBody {
        let endless = futures_util::stream::unfold((), |()| async {
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
            Some((Ok::<_, std::io::Error>(axum::body::Bytes::from_static(b" ")), ()))
        });
        let mut response = axum::body::Body::from_stream(endless).into_response();
        response.headers_mut().insert("content-type", "application/json".parse().expect("a header value"));
        response
    } else {
        (StatusCode::OK, Json(reply)).into_response()
    };
    response.headers_mut().insert("x-routstr-request-id", "req-test".parse().expect("a header value"));
    if let Some(change) = change {
        response.headers_mut().insert("x-cashu", change.parse().expect("a header value"));
    }
    response
}

async fn refund(State(state): State<Arc<ProviderState>>, headers: HeaderMap) -> Response {
    let token = headers.get("x-cashu").and_then(|v| v.to_str().ok()).unwrap_or_default().to_owned();
    let gateway = state.refund_gateway_status.load(Ordering::SeqCst);
    if gateway != 0 {
        let status = StatusCode::from_u16(gateway).expect("a status");
        return (status, "<html><body>Bad Gateway</body></html>").into_response();
    }
    if state.pending_425.load(Ordering::SeqCst) > 0 {
        state.pending_425.fetch_sub(1, Ordering::SeqCst);
        let mut response = error(425, json!({"detail": "pending"}));
        response.headers_mut().insert("retry-after", "0".parse().expect("a header value"));
        return response;
    }
    let refund = state.refunds.lock().unwrap().get(&token).cloned();
    match refund {
        Some(refund) => {
            let sats = Token::from_str(&refund).ok().and_then(|t| t.value().ok()).map_or(0, |a| a.to_u64());
            Json(json!({"token": refund, "sats": sats.to_string()})).into_response()
        }
        None => error(404, json!({"detail": "not found"})),
    }
}
