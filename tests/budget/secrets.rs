//! No token, seed word or proof secret appears in the tracing output of a whole pay/settle/reclaim/reconcile cycle,
//! at TRACE level and for every target (cdk's and the in-process mint's included): once through `Payments` alone,
//! and once over a whole session of paid Routstr turns (change, a refund in the reply, a refund from the refund
//! endpoint, a 402, a liar's "change") and reconcile.

use std::str::FromStr;

use aiui_core::pay::Wallet;
use aiui_core::secrets::{SecretName, Secrets};

use super::{Provider, assert_conserved, funded};
use crate::support::capture;
use crate::support::mint::TestMint;
use crate::support::paid::{openai, paid};
use crate::support::provider::Fault;

/// Every run of three consecutive words of a seed phrase.
fn three_in_a_row(words: &str) -> Vec<String> {
    let words: Vec<&str> = words.split(' ').collect();
    words.windows(3).map(|w| w.join(" ")).collect()
}

/// The strings that must never be logged for one token: the token itself and each proof's secret.
fn secrets_of(token: &str) -> Vec<String> {
    let parsed = cdk::nuts::Token::from_str(token).expect("a token");
    let mut out = vec![token.to_owned()];
    out.extend(parsed.token_secrets().into_iter().map(|s| s.to_string()));
    out
}

#[tokio::test(flavor = "multi_thread")]
async fn no_token_seed_or_proof_secret_is_logged() {
    let captured = capture::global();
    let mark = captured.mark();
    let mint = TestMint::start().await;
    let provider = Provider::new(&mint).await;
    let dir = tempfile::tempdir().unwrap();
    let secrets = Secrets::in_memory();
    let payments = funded(&mint, dir.path(), &secrets, 90, 90).await;
    let policy = payments.budget().payment_policy();
    let mut forbidden = Vec::new();

    // Paid with change.
    let paid = payments.auto_pay_token(&policy, &[mint.url()], 9, "provider-a").await.expect("a token");
    forbidden.extend(secrets_of(paid.token.expose()));
    provider.redeem(paid.token.expose()).await;
    let change = provider.pay_back(2).await;
    forbidden.extend(secrets_of(&change));
    payments.settle_with_change(&paid, Some(&change)).await.unwrap();

    // Refused with 402, reclaimed.
    let refused = payments.auto_pay_token(&policy, &[mint.url()], 5, "provider-a").await.expect("a token");
    forbidden.extend(secrets_of(refused.token.expose()));
    payments.reclaim(&refused).await.unwrap();

    // Unknown outcome, reconciled after a restart; then an owner-pasted token is received.
    let lost = payments.auto_pay_token(&policy, &[mint.url()], 4, "provider-a").await.expect("a token");
    forbidden.extend(secrets_of(lost.token.expose()));
    payments.keep_in_flight(&lost).await;
    drop(payments);
    let payments = super::open(dir.path(), &secrets).await;
    payments.reconcile().await.unwrap();
    let gift = provider.pay_back(3).await;
    forbidden.extend(secrets_of(&gift));
    payments.wallet().receive(&gift).await.unwrap();
    assert_conserved(payments.conservation().await.unwrap());

    // The seed words, whole and any three in a row (one word alone, "response" say, is ordinary log text: the
    // capture is the whole test binary's, and other tests log at the same time).
    let words = secrets.get(SecretName::WalletSeed).unwrap().expect("the wallet stored its seed");
    forbidden.push(words.expose().clone());
    forbidden.extend(three_in_a_row(words.expose()));
    // And every proof the wallet now holds.
    let wallet: &Wallet = payments.wallet();
    assert!(wallet.total_balance().await.unwrap() > 0);

    let logs = captured.since(mark);
    assert!(logs.contains("pay: token in flight"), "the cycle was logged at all");
    for secret in &forbidden {
        assert!(!logs.contains(secret.as_str()), "a secret ({} chars) appears in the logs", secret.len());
    }
}

/// Every token the ledger saw: what was paid, what came back, what was set aside.
fn ledger_tokens(dir: &std::path::Path) -> Vec<String> {
    let conn = rusqlite::Connection::open(dir.join("ledger.sqlite3")).unwrap();
    let mut stmt = conn.prepare("SELECT token, returned_token, set_aside_token FROM payments").unwrap();
    let rows = stmt
        .query_map([], |row| Ok([row.get::<_, Option<String>>(0)?, row.get(1)?, row.get(2)?]))
        .unwrap()
        .map(Result::unwrap);
    rows.flatten().flatten().collect()
}

#[tokio::test(flavor = "multi_thread")]
async fn a_whole_session_of_paid_routstr_turns_logs_no_token_seed_or_secret() {
    let captured = capture::global();
    let mark = captured.mark();
    let p = paid(1_000, (0..8).map(|_| openai("answer_plain.json")).collect()).await;
    for fault in [
        Fault::None,
        Fault::UpstreamError,
        Fault::InternalNoChange,
        Fault::PaymentRequired,
        Fault::OwnTokenAsChange,
        Fault::None,
    ] {
        p.provider.arm(fault, 0);
        let _ = p.h.turn("what is running?", None).await;
    }
    p.payments.reconcile().await.unwrap();
    p.payments.reconcile().await.unwrap();
    p.assert_ceiling_and_conservation().await;

    let mut forbidden = Vec::new();
    let tokens = ledger_tokens(p.payments.wallet().data_dir());
    assert!(tokens.len() >= 8, "the session paid and got tokens back: {} tokens", tokens.len());
    for token in &tokens {
        forbidden.extend(secrets_of(token));
    }
    // The seed phrase, and every run of three of its words: single words are ordinary English ("response",
    // "together") that other lines of a shared capture may hold; three in the phrase's order are the seed.
    let words = p.secrets.get(SecretName::WalletSeed).unwrap().expect("the wallet stored its seed");
    forbidden.push(words.expose().clone());
    let list: Vec<&str> = words.expose().split(' ').collect();
    forbidden.extend(list.windows(3).map(|w| w.join(" ")));

    let logs = captured.since(mark);
    for expected in ["pay: token in flight", "routstr reply", "pay: settled", "reconcile: done"] {
        assert!(logs.contains(expected), "the session was logged ({expected})");
    }
    for secret in &forbidden {
        if let Some(at) = logs.find(secret.as_str()) {
            // Where it was, with the secret itself masked, so the failure can be traced without showing it.
            let line_start = logs[..at].rfind('\n').map_or(0, |i| i + 1);
            let line_end = logs[at..].find('\n').map_or(logs.len(), |i| at + i);
            let line = logs[line_start..line_end].replace(secret.as_str(), "[SECRET]");
            panic!("a secret ({} chars) appears in the logs: {line}", secret.len());
        }
    }
}

/// The seed's whole life: backup, restore on a fresh machine, withdrawing and sending there. Neither the words nor
/// any token sent out appears in the capture (TRACE, every target).
#[tokio::test(flavor = "multi_thread")]
async fn the_seed_is_never_logged_by_backup_restore_withdraw_or_send() {
    let captured = capture::global();
    let mark = captured.mark();
    let mint = TestMint::start().await;
    let dir = tempfile::tempdir().unwrap();
    let secrets = Secrets::in_memory();
    let payments = funded(&mint, dir.path(), &secrets, 400, 100).await;
    let backup = payments.wallet().backup(&secrets).await.unwrap();
    let mut forbidden = vec![backup.words.expose().clone(), backup.as_text().expose().clone()];
    forbidden.extend(three_in_a_row(backup.words.expose()));
    payments.confirm_backup().unwrap();
    drop(payments);

    let (_fresh, restored, _) = super::wallet_life::restore_on_a_fresh_machine(&backup).await;
    let invoice = cdk_fake_wallet::create_fake_invoice(100_000, "out".into()).to_string();
    let quote = restored.quote_withdrawal(&invoice, None, false).await.unwrap();
    restored.withdraw(&quote).await.unwrap();
    let sent = restored.send_token(&mint.url(), 25).await.unwrap();
    forbidden.extend(secrets_of(sent.token.expose()));
    let kept = restored.send_token(&mint.url(), 10).await.unwrap();
    forbidden.extend(secrets_of(kept.token.expose()));
    restored.take_back(&kept.id).await.unwrap();
    restored.reconcile().await.unwrap();
    assert_conserved(restored.conservation().await.unwrap());

    let logs = captured.since(mark);
    assert!(logs.contains("wallet: restored from backup words"), "the session was logged at all");
    assert!(logs.contains("pay: withdrawal paid"));
    for secret in &forbidden {
        assert!(!logs.contains(secret.as_str()), "a secret ({} chars) appears in the logs", secret.len());
    }
}
