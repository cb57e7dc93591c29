//! A real cdk mint in-process on 127.0.0.1:0: in-memory SQLite, the fake Lightning backend (invoices are paid at
//! once, hold invoices when the test says: `support/lightning.rs`), and cdk-axum's router with the bolt11 routes. A counting layer records every request, and a switch makes
//! the mint answer 503 to everything ("down") without changing its URL, so a test can take it down and bring it back.
//! The same door can stand in front of a mint written by others (`TestMint::in_front_of`, e.g. nutshell).

use std::collections::{HashMap, HashSet};
use std::net::{IpAddr, SocketAddr};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use axum::extract::{ConnectInfo, Request, State};
use axum::http::StatusCode;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use cdk::mint::{MintBuilder, MintMeltLimits};
use cdk::nuts::{CurrencyUnit, PaymentMethod};
use cdk::types::FeeReserve;
use cdk_fake_wallet::FakeWallet;

#[derive(Clone, Default)]
struct Switch {
    down: Arc<AtomicBool>,
    requests: Arc<AtomicUsize>,
    /// The address each request came from, so a test can tell a direct connection from one through a proxy.
    peers: Arc<Mutex<Vec<IpAddr>>>,
    /// Each request as (path, whether AIUI's client sent it), so a bench can count AIUI's round trips per
    /// endpoint apart from the test provider's own (which redeems tokens at the same mint).
    seen: Arc<Mutex<Vec<(String, bool)>>>,
    /// How many of the next looks at a melt quote (`GET /v1/melt/quote/…`) get a 400, as nutshell 0.20.2 answers
    /// one about a melt it is finishing at that moment.
    failing_melt_looks: Arc<AtomicUsize>,
    /// How many of AIUI's next requests the mint carries out and then answers with a 502, as a proxy whose
    /// upstream connection broke after the mint committed: the answer is lost, the effect is not.
    losing_answers: Arc<AtomicUsize>,
    /// How many of AIUI's next requests get a 500 without reaching the mint.
    failing_before: Arc<AtomicUsize>,
}

/// A running test mint. Dropping it stops serving.
pub struct TestMint {
    url: String,
    switch: Switch,
    holds: crate::support::lightning::Holds,
    mint: Behind,
    server: tokio::task::JoinHandle<()>,
}

/// What answers behind the door: cdk's mint in this process, or a mint written by others (nutshell) the door
/// forwards every request to.
enum Behind {
    Cdk(Arc<cdk::Mint>),
    Other { url: String, http: aiui_core::net::OutboundClient },
}

impl Drop for TestMint {
    fn drop(&mut self) {
        self.server.abort();
    }
}

impl TestMint {
    /// A mint without input fees.
    pub async fn start() -> Self {
        Self::start_with_fee(0).await
    }

    /// A mint charging `input_fee_ppk` per input proof (nutshell's default is 100: at least 1 sat per swap).
    pub async fn start_with_fee(input_fee_ppk: u64) -> Self {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("a loopback port for the mint");
        let url = format!("http://{}", listener.local_addr().expect("the mint's address"));
        let db = Arc::new(cdk_sqlite::mint::memory::empty().await.expect("an in-memory mint database"));
        let mut builder = MintBuilder::new(db.clone());
        let fee_reserve = FeeReserve { min_fee_reserve: 1.into(), percent_fee_reserve: 1.0 };
        let holds = crate::support::lightning::Holds::default();
        let lightning = crate::support::lightning::HoldingLightning {
            inner: FakeWallet::new(fee_reserve, HashMap::new(), HashSet::new(), 0, CurrencyUnit::Sat),
            holds: holds.clone(),
        };
        builder
            .add_payment_processor(
                CurrencyUnit::Sat,
                PaymentMethod::BOLT11,
                MintMeltLimits::new(1, 1_000_000),
                Arc::new(lightning),
            )
            .await
            .expect("the fake Lightning backend");
        if input_fee_ppk > 0 {
            builder.set_unit_fee(&CurrencyUnit::Sat, input_fee_ppk).expect("the unit fee");
        }
        let builder = builder.with_name("aiui test mint".into()).with_urls(vec![url.clone()]);
        let seed: [u8; 32] = rand::random();
        let mint = Arc::new(builder.build_with_seed(db, &seed).await.expect("the mint builds"));
        // Without start(), the fake backend's "paid" notices never reach the mint.
        mint.start().await.expect("the mint starts");
        let switch = Switch::default();
        let router = cdk_axum::create_mint_router(mint.clone(), vec!["bolt11".to_string()])
            .await
            .expect("the mint router")
            .layer(axum::middleware::from_fn_with_state(switch.clone(), gate));
        let server = tokio::spawn(async move {
            let _ = axum::serve(listener, router.into_make_service_with_connect_info::<SocketAddr>()).await;
        });
        Self { url, switch, holds, mint: Behind::Cdk(mint), server }
    }

    /// The same door (counting, down, lost answers, failures before the mint) in front of a mint written by others
    /// at `upstream`, e.g. nutshell: it forwards every request there and its answer back. Such a mint cannot be
    /// rotated or hold invoices from a test.
    pub async fn in_front_of(upstream: &str) -> Self {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("a loopback port for the door");
        let url = format!("http://{}", listener.local_addr().expect("the door's address"));
        let http = aiui_core::net::client(&aiui_core::net::ClientSpec::default()).expect("an HTTP client for the door");
        let behind = Upstream { url: upstream.trim_end_matches('/').to_owned(), http: http.clone() };
        let switch = Switch::default();
        let router = axum::Router::new()
            .fallback(forward)
            .with_state(behind.clone())
            .layer(axum::middleware::from_fn_with_state(switch.clone(), gate));
        let server = tokio::spawn(async move {
            let _ = axum::serve(listener, router.into_make_service_with_connect_info::<SocketAddr>()).await;
        });
        let holds = crate::support::lightning::Holds::default();
        Self { url, switch, holds, mint: Behind::Other { url: behind.url, http }, server }
    }

    fn cdk(&self) -> &cdk::Mint {
        match &self.mint {
            Behind::Cdk(mint) => mint,
            Behind::Other { url, .. } => {
                panic!("the mint at {url} is not cdk's in this process: a test cannot rotate it")
            }
        }
    }

    /// Retires the active keyset for a new one, as a mint operator does.
    pub async fn rotate_keyset(&self) {
        let amounts = (0..32).map(|n| 1u64 << n).collect();
        self.cdk().rotate_keyset(CurrencyUnit::Sat, amounts, 0, true, None).await.expect("the keyset rotates");
    }

    /// Makes a new active keyset charging `input_fee_ppk` that ends at `final_expiry` (Unix seconds), as a mint
    /// announcing its next rotation does.
    pub async fn rotate_keyset_ending(&self, input_fee_ppk: u64, final_expiry: u64) {
        self.rotate_keyset_with(input_fee_ppk, Some(final_expiry)).await;
    }

    /// Makes a new active keyset charging `input_fee_ppk`, ending at `final_expiry` if given.
    pub async fn rotate_keyset_with(&self, input_fee_ppk: u64, final_expiry: Option<u64>) {
        let amounts = (0..32).map(|n| 1u64 << n).collect();
        self.cdk()
            .rotate_keyset(CurrencyUnit::Sat, amounts, input_fee_ppk, true, final_expiry)
            .await
            .expect("the keyset rotates");
    }

    /// The mint's own truth about proofs, by their Y values, asked of the mint itself (not over its door).
    pub async fn states_of(&self, ys: Vec<cdk::nuts::PublicKey>) -> Vec<cdk::nuts::State> {
        let mut states = Vec::with_capacity(ys.len());
        for chunk in ys.chunks(100) {
            let request = cdk::nuts::CheckStateRequest { ys: chunk.to_vec() };
            let answer = match &self.mint {
                Behind::Cdk(mint) => mint.check_state(&request).await.expect("the mint answers its own state"),
                Behind::Other { url, http } => {
                    let answer = http.http.post(format!("{url}/v1/checkstate")).json(&request).send().await;
                    let answer = answer.and_then(|a| a.error_for_status()).expect("the mint answers NUT-07");
                    answer.json::<cdk::nuts::CheckStateResponse>().await.expect("a NUT-07 answer")
                }
            };
            assert_eq!(answer.states.len(), chunk.len(), "one state per Y");
            states.extend(answer.states.into_iter().map(|s| s.state));
        }
        states
    }

    /// Hold invoices: paid by this mint only when the test settles them.
    pub fn holds(&self) -> &crate::support::lightning::Holds {
        &self.holds
    }

    pub fn url(&self) -> String {
        self.url.clone()
    }

    /// Requests the mint has seen (including refused ones while down).
    pub fn requests(&self) -> usize {
        self.switch.requests.load(Ordering::SeqCst)
    }

    /// AIUI's requests (its `aiui/…` user agent) per path, sorted by path; the provider's are left out.
    pub fn aiui_requests_by_path(&self) -> Vec<(String, usize)> {
        let seen = self.switch.seen.lock().unwrap_or_else(|p| p.into_inner());
        let mut counts = std::collections::BTreeMap::<String, usize>::new();
        for (path, _) in seen.iter().filter(|(_, aiui)| *aiui) {
            *counts.entry(path.clone()).or_default() += 1;
        }
        counts.into_iter().collect()
    }

    /// AIUI's requests in all (see [`TestMint::aiui_requests_by_path`]).
    pub fn aiui_requests(&self) -> usize {
        self.switch.seen.lock().unwrap_or_else(|p| p.into_inner()).iter().filter(|(_, aiui)| *aiui).count()
    }

    /// Requests that came from `ip` (the test SOCKS5 proxy connects from 127.0.0.2, everything direct from
    /// 127.0.0.1).
    pub fn requests_from(&self, ip: IpAddr) -> usize {
        self.switch.peers.lock().unwrap_or_else(|p| p.into_inner()).iter().filter(|peer| **peer == ip).count()
    }

    /// From now on every request gets 503: the mint is unreachable for practical purposes.
    pub fn take_down(&self) {
        self.switch.down.store(true, Ordering::SeqCst);
    }

    /// The next `n` looks at a melt quote fail with 400 (see `Switch::failing_melt_looks`).
    pub fn fail_melt_looks(&self, n: usize) {
        self.switch.failing_melt_looks.store(n, Ordering::SeqCst);
    }

    /// AIUI's next `n` requests are carried out by the mint, and their answers lost (a 502 instead).
    pub fn lose_answers(&self, n: usize) {
        self.switch.losing_answers.store(n, Ordering::SeqCst);
    }

    /// AIUI's next `n` requests fail with a 500 before the mint sees them.
    pub fn fail_before(&self, n: usize) {
        self.switch.failing_before.store(n, Ordering::SeqCst);
    }

    /// The switch [`TestMint::take_down`] sets, for a test double that takes the mint down at a moment of its own.
    pub fn down_switch(&self) -> Arc<AtomicBool> {
        self.switch.down.clone()
    }

    pub fn bring_up(&self) {
        self.switch.down.store(false, Ordering::SeqCst);
    }
}

async fn gate(State(switch): State<Switch>, request: Request, next: Next) -> Response {
    switch.requests.fetch_add(1, Ordering::SeqCst);
    if let Some(ConnectInfo(peer)) = request.extensions().get::<ConnectInfo<SocketAddr>>() {
        switch.peers.lock().unwrap_or_else(|p| p.into_inner()).push(peer.ip());
    }
    let aiui = request
        .headers()
        .get(axum::http::header::USER_AGENT)
        .and_then(|agent| agent.to_str().ok())
        .is_some_and(|agent| agent.starts_with("aiui/"));
    switch.seen.lock().unwrap_or_else(|p| p.into_inner()).push((request.uri().path().to_owned(), aiui));
    let looks_at_melt =
        request.method() == axum::http::Method::GET && request.uri().path().starts_with("/v1/melt/quote/");
    if looks_at_melt
        && switch.failing_melt_looks.fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1)).is_ok()
    {
        let body = r#"{"detail":"(sqlite3.IntegrityError) UNIQUE constraint failed: proofs_used.y","code":0}"#;
        return (StatusCode::BAD_REQUEST, [(axum::http::header::CONTENT_TYPE, "application/json")], body)
            .into_response();
    }
    if switch.down.load(Ordering::SeqCst) {
        return (StatusCode::SERVICE_UNAVAILABLE, "mint down (test)").into_response();
    }
    let take = |counter: &AtomicUsize| {
        aiui && counter.fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1)).is_ok()
    };
    if take(&switch.failing_before) {
        return (StatusCode::INTERNAL_SERVER_ERROR, "failed before the mint (test)").into_response();
    }
    if take(&switch.losing_answers) {
        let committed = next.run(request).await;
        drop(axum::body::to_bytes(committed.into_body(), usize::MAX).await);
        return (StatusCode::BAD_GATEWAY, "the answer was lost after the mint committed (test)").into_response();
    }
    next.run(request).await
}

/// Where the door forwards to, when the mint is not cdk's in this process.
#[derive(Clone)]
struct Upstream {
    url: String,
    http: aiui_core::net::OutboundClient,
}

/// Forwards one request to the mint behind the door, and its answer back (a 502 when the mint cannot be reached).
async fn forward(State(upstream): State<Upstream>, request: Request) -> Response {
    let (parts, body) = request.into_parts();
    let Ok(body) = axum::body::to_bytes(body, 16 << 20).await else {
        return (StatusCode::BAD_REQUEST, "the request body could not be read (test door)").into_response();
    };
    let path = parts.uri.path_and_query().map_or("/", |p| p.as_str());
    let mut out = upstream.http.http.request(parts.method, format!("{}{path}", upstream.url)).body(body);
    if let Some(kind) = parts.headers.get(axum::http::header::CONTENT_TYPE) {
        out = out.header(axum::http::header::CONTENT_TYPE, kind);
    }
    let answer = match out.send().await {
        Ok(answer) => answer,
        Err(e) => return (StatusCode::BAD_GATEWAY, format!("the mint behind the door: {e}")).into_response(),
    };
    let status = answer.status();
    let kind = answer.headers().get(axum::http::header::CONTENT_TYPE).cloned();
    let body = answer.bytes().await.unwrap_or_default();
    let mut response = (status, body).into_response();
    if let Some(kind) = kind {
        response.headers_mut().insert(axum::http::header::CONTENT_TYPE, kind);
    }
    response
}
