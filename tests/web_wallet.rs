//! The LAN service's wallet routes over a real cdk mint and a real `aiui-web` server on loopback: the owner, on the
//! trusted origin, reads the wallet, gets a withdrawal quote for a pasted invoice and withdraws with the approval
//! passphrase; the chat origin, a foreign `Origin`, a missing CSRF token, a wrong or missing passphrase, a replayed
//! quote and a too-early approval are each refused, and the mint's proofs (the wallet's balance) show nothing left.

use std::sync::{Arc, RwLock};
use std::time::Duration;

use aiui_core::Secret;
use aiui_core::backends::chain::Chain;
use aiui_core::budget::{BudgetStore, BudgetUpdate, Period};
use aiui_core::pay::{Payments, Wallet};
use aiui_core::secrets::Secrets;
use aiui_web::passphrase::{self, Kind};
use serde_json::{Value, json};

use crate::support::assistant::{harness_with, ollama_leg};
use crate::support::mint::TestMint;
use crate::support::paid::test_wallet_options;
use crate::support::wire;

const LAN: &str = "lan-passphrase-for-the-wallet-test";
const APPROVAL: &str = "approval-passphrase-owner-only";
const FUNDED: u64 = 2_000;
/// How long the service waits for the mint before answering that a withdrawal is still being paid.
const WITHDRAW_WAIT: Duration = Duration::from_secs(3);

/// A browser as the server sees it: the cookie it carries, the CSRF token it sends and the `Origin` it names.
#[derive(Clone)]
struct Browser {
    base: String,
    origin: String,
    cookie: String,
    csrf: String,
}

struct Lan {
    chat: Browser,
    owner: Browser,
    http: reqwest::Client,
    payments: Arc<Payments>,
    secrets: Secrets,
    mint: TestMint,
    /// Every answer's body, to search for the seed afterwards.
    seen: std::sync::Mutex<String>,
    _running: aiui_web::Running,
    _parts: (crate::support::assistant::Harness, tempfile::TempDir, tempfile::TempDir),
}

async fn sign_in(http: &reqwest::Client, base: &str, origin: &str, passphrase: &str) -> Browser {
    let response = http
        .post(format!("{base}api/login"))
        .header("origin", origin)
        .json(&json!({ "passphrase": passphrase }))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200, "signing in to {base}");
    let cookie = response.headers()["set-cookie"].to_str().unwrap().split(';').next().unwrap().to_owned();
    let body: Value = response.json().await.unwrap();
    Browser {
        base: base.to_owned(),
        origin: origin.to_owned(),
        cookie,
        csrf: body["csrf"].as_str().unwrap().to_owned(),
    }
}

/// A funded wallet at a mint with an input fee, and the LAN service serving it.
async fn lan() -> Lan {
    let mint = TestMint::start_with_fee(100).await;
    let wallet_dir = tempfile::tempdir().unwrap();
    let secrets = Secrets::in_memory();
    let wallet = Wallet::open_with(wallet_dir.path(), &secrets, test_wallet_options()).await.expect("the wallet opens");
    let invoice = wallet.mint_invoice(&mint.url(), FUNDED).await.expect("an invoice");
    wallet.wait_minted(&mint.url(), &invoice.quote_id, Duration::from_secs(20)).await.expect("the fake LN pays");
    let budget = Arc::new(BudgetStore::open(&wallet_dir.path().join("budget.json")).unwrap());
    budget
        .set(BudgetUpdate {
            allowance_sats: Some(100),
            period: Some(Period::Never),
            accepted_mints: Some(vec![mint.url()]),
        })
        .unwrap();
    let payments = Arc::new(Payments::new(Arc::new(wallet), budget.clone()));

    let h = harness_with(Chain::new(vec![ollama_leg(&wire::refused())]), Duration::from_secs(30)).await;
    let web_dir = tempfile::tempdir().unwrap();
    passphrase::set(web_dir.path(), Kind::Lan, &Secret::new(LAN.to_owned())).unwrap();
    passphrase::set(web_dir.path(), Kind::Approval, &Secret::new(APPROVAL.to_owned())).unwrap();
    let ui = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../ui");
    let mut config = aiui_web::WebConfig::new(web_dir.path().to_owned(), ui);
    config.chat_addr = "127.0.0.1:0".parse().unwrap();
    config.trusted_addr = "127.0.0.1:0".parse().unwrap();
    config.base_path = "/aiui/".into();
    config.withdraw_wait = WITHDRAW_WAIT;
    let assistant = aiui_web::Assistant {
        agent: h.agent.clone(),
        budget,
        notices: Arc::new(RwLock::new(Vec::new())),
        node_url: h.node.node.url(),
        demo: false,
    };
    let running = aiui_web::start_with_payments(config, assistant, Some(payments.clone())).await.unwrap();
    let http = aiui_core::net::client(&aiui_core::net::ClientSpec::default()).unwrap().http;
    let (chat_origin, trusted_origin) =
        (format!("http://{}", running.chat_addr), format!("http://{}", running.trusted_addr));
    let chat = sign_in(&http, &format!("{chat_origin}/aiui/"), &chat_origin, LAN).await;
    let owner = sign_in(&http, &format!("{trusted_origin}/aiui/"), &trusted_origin, APPROVAL).await;
    Lan {
        chat,
        owner,
        http,
        payments,
        secrets,
        mint,
        seen: std::sync::Mutex::new(String::new()),
        _running: running,
        _parts: (h, wallet_dir, web_dir),
    }
}

impl Lan {
    /// POSTs `body` to `path` under the browser's base, as that browser would send it.
    async fn post(&self, who: &Browser, path: &str, body: Value) -> (u16, Value) {
        let response = self
            .http
            .post(format!("{}{path}", who.base))
            .header("origin", &who.origin)
            .header("cookie", &who.cookie)
            .header("x-csrf-token", &who.csrf)
            .header("content-type", "application/json")
            .body(body.to_string())
            .send()
            .await
            .unwrap();
        let status = response.status().as_u16();
        let text = response.text().await.unwrap();
        self.seen.lock().unwrap().push_str(&text);
        (status, serde_json::from_str(&text).unwrap_or(Value::Null))
    }

    async fn balance(&self) -> u64 {
        self.payments.wallet().total_balance().await.unwrap()
    }

    async fn quote(&self, invoice: &str) -> Value {
        let (status, quote) = self.post(&self.owner, "api/wallet/quote", json!({ "invoice": invoice })).await;
        assert_eq!(status, 200, "{quote}");
        quote
    }
}

#[track_caller]
fn refused(answer: (u16, Value), status: u16, code: &str) {
    assert_eq!((answer.0, answer.1["code"].as_str()), (status, Some(code)), "{}", answer.1);
}

#[tokio::test(flavor = "multi_thread")]
async fn the_owner_withdraws_to_lightning_on_the_trusted_origin_and_nobody_else_can() {
    let lan = lan().await;
    let owner = lan.owner.clone();
    let (status, overview) = lan.post(&owner, "api/wallet", json!({})).await;
    assert_eq!(status, 200, "{overview}");
    assert_eq!(overview["total_sats"], FUNDED, "{overview}");
    assert_eq!(
        overview["balances"][0]["mint"].as_str().map(aiui_core::budget::normalize_mint_url),
        Some(aiui_core::budget::normalize_mint_url(&lan.mint.url()))
    );

    let invoice = cdk_fake_wallet::create_fake_invoice(500_000, "withdrawn over the LAN".into()).to_string();
    let quote = lan.quote(&invoice).await;
    let id = quote["id"].as_str().unwrap().to_owned();
    let [amount, reserve, input_fee, most] =
        ["amount_sats", "fee_reserve_sats", "input_fee_sats", "most_it_costs_sats"].map(|k| quote[k].as_u64().unwrap());
    assert_eq!(amount, 500, "{quote}");
    assert!(reserve >= 1 && input_fee >= 1, "the mint's reserve and its input fee (100 ppk) are shown: {quote}");
    assert_eq!(most, amount + reserve + input_fee, "{quote}");
    assert!(
        quote["expires_at_s"].as_u64().unwrap() > 0
            && quote.get("invoice").is_none()
            && quote.get("quote_id").is_none()
    );

    // Before the approve delay, even with the passphrase: refused, and no TOTP code or try is spent on it.
    let approve = |secret: Option<&str>| json!({ "id": id, "secret": secret });
    refused(lan.post(&owner, "api/wallet/withdraw", approve(Some(APPROVAL))).await, 409, "too_soon");
    tokio::time::sleep(aiui_web::APPROVE_DELAY).await;

    // Everyone but the owner with the passphrase, refused; the wallet keeps every sat.
    let chat = lan.chat.clone();
    let from_chat = Browser { origin: chat.origin.clone(), ..owner.clone() };
    let foreign = Browser { origin: "http://evil.example".into(), ..owner.clone() };
    let no_csrf = Browser { csrf: String::new(), ..owner.clone() };
    let chat_on_trusted = Browser { base: owner.base.clone(), origin: owner.origin.clone(), ..chat.clone() };
    for path in ["api/wallet", "api/wallet/quote", "api/wallet/withdraw"] {
        let body = json!({ "id": id, "secret": APPROVAL, "invoice": invoice });
        refused(lan.post(&from_chat, path, body.clone()).await, 403, "bad_origin");
        refused(lan.post(&foreign, path, body.clone()).await, 403, "bad_origin");
        refused(lan.post(&no_csrf, path, body.clone()).await, 403, "bad_origin");
        refused(lan.post(&chat_on_trusted, path, body.clone()).await, 401, "signed_out");
        let on_chat = lan.post(&chat, path, body.clone()).await;
        assert!(matches!(on_chat.0, 404 | 405), "the chat origin has no {path}: {} {}", on_chat.0, on_chat.1);
    }
    for command in ["trusted_wallet", "trusted_wallet_withdraw", "trusted_wallet_backup"] {
        refused(lan.post(&chat, &format!("api/invoke/{command}"), json!({})).await, 403, "not_trusted");
    }
    refused(lan.post(&owner, "api/wallet/withdraw", approve(None)).await, 403, "secret_required");
    refused(
        lan.post(&owner, "api/wallet/withdraw", approve(Some("a-guess-at-the-passphrase"))).await,
        403,
        "wrong_secret",
    );
    refused(lan.post(&owner, "api/wallet/withdraw", approve(Some(LAN))).await, 403, "wrong_secret");
    assert_eq!(lan.balance().await, FUNDED, "nothing left the wallet for any refused attempt");

    let (status, done) = lan.post(&owner, "api/wallet/withdraw", approve(Some(APPROVAL))).await;
    assert_eq!(status, 200, "{done}");
    assert_eq!((done["outcome"].as_str(), done["amount_sats"].as_u64()), (Some("paid"), Some(amount)), "{done}");
    let fee = done["fee_sats"].as_u64().unwrap();
    assert!(fee >= input_fee && amount + fee <= most, "the fee ({fee}) is within what the quote said: {quote}");
    assert_eq!(lan.balance().await, FUNDED - amount - fee, "the balance dropped by the amount and the fee, no more");
    assert!(lan.payments.conservation().await.unwrap().holds());
    // The quote was used once: a replay, even with the passphrase, pays nothing.
    refused(lan.post(&owner, "api/wallet/withdraw", approve(Some(APPROVAL))).await, 404, "unknown_quote");
    assert_eq!(lan.balance().await, FUNDED - amount - fee);

    // A hold invoice: the mint keeps paying, so the answer says the withdrawal is in flight (within the service's
    // wait) and the overview lists it; once the mint has paid, the withdrawal's own task settles it.
    let held = lan.mint.holds().invoice(100);
    let quote = lan.quote(&held).await;
    tokio::time::sleep(aiui_web::APPROVE_DELAY).await;
    let started = std::time::Instant::now();
    let (status, done) =
        lan.post(&owner, "api/wallet/withdraw", json!({ "id": quote["id"], "secret": APPROVAL })).await;
    assert_eq!((status, done["outcome"].as_str()), (200, Some("pending")), "{done}");
    assert!(started.elapsed() < WITHDRAW_WAIT + Duration::from_secs(5), "the answer came within the wait");
    assert!(done["message"].as_str().unwrap().contains("reconcile"), "{done}");
    let (_, overview) = lan.post(&owner, "api/wallet", json!({})).await;
    let pending = overview["pending_withdrawals"].as_array().unwrap();
    assert_eq!(pending.len(), 1, "{overview}");
    if let Some(id) = done["id"].as_str() {
        assert_eq!(pending[0]["id"], id, "{overview}");
    }
    assert!(pending[0]["sats"].as_u64().unwrap() >= 100 && overview["in_flight_sats"].as_u64().unwrap() >= 100);
    lan.mint.holds().settle(&held, true);
    let mut settled = Value::Null;
    for _ in 0..100 {
        let (_, overview) = lan.post(&owner, "api/wallet", json!({})).await;
        if overview["pending_withdrawals"] == json!([]) {
            settled = overview;
            break;
        }
        tokio::time::sleep(Duration::from_millis(300)).await;
    }
    assert_eq!(settled["in_flight_sats"], 0, "the paid hold settled: {settled}");
    assert!(settled["conserved"].as_bool().unwrap(), "{settled}");
    assert_eq!(lan.balance().await, settled["total_sats"].as_u64().unwrap());

    // No answer of the service held the backup words (the LAN service has no keyring to read them from).
    let words = lan.payments.wallet().backup(&lan.secrets).await.unwrap().words;
    let seen = lan.seen.lock().unwrap().clone();
    let words: Vec<&str> = words.expose().split_whitespace().collect();
    assert!(words.len() >= 12);
    for run in words.windows(3) {
        assert!(!seen.contains(&run.join(" ")), "an answer held the seed's words");
    }
}
