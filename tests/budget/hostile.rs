//! The paid leg against a hostile provider, end to end over the real relay, mint and loop: each case plays one lie
//! and asserts the ceiling, conservation, what the budget counts, and what the owner is told.

use aiui_core::agent::{Event, TurnOutcome};
use serde_json::{Value, json};

use crate::support::mint::TestMint;
use crate::support::paid::{FUNDED, Paid, openai, paid, paid_with};
use crate::support::provider::{Fault, HUGE_402_MSAT};

fn notices(events: &[Event]) -> String {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Notice { text } => Some(text.as_str()),
            _ => None,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[track_caller]
fn stopped(outcome: &TurnOutcome) -> &str {
    match outcome {
        TurnOutcome::Stopped { message, .. } => message,
        other => panic!("the turn should have stopped: {other:?}"),
    }
}

/// What the provider was really paid: the face value of the one token the ledger settled.
async fn one_payment_spent(p: &Paid) -> u64 {
    let sums = p.assert_ceiling_and_conservation().await;
    assert_eq!(sums.in_flight, 0);
    sums.settled_spend
}

#[tokio::test]
async fn change_minted_by_the_providers_own_mint_counts_as_nothing() {
    let p = paid(500, vec![openai("answer_plain.json")]).await;
    let own_mint = TestMint::start().await;
    p.provider.with_own_mint(&own_mint.url(), 500).await;
    p.provider.arm(Fault::ChangeFromOwnMint, 0);
    let requests_before = own_mint.requests();
    let (events, outcome) = p.h.turn("hello", None).await;
    assert!(matches!(outcome, TurnOutcome::Answered { .. }), "{outcome:?}");
    let told = notices(&events);
    assert!(told.contains("does not count") && told.contains(&own_mint.url()), "{told}");
    assert!(told.contains("counted as 0 sats returned"), "{told}");
    let spent = one_payment_spent(&p).await;
    assert_eq!(p.budget.get().spent_sats, spent, "the whole token counts: the fake change was worth nothing to us");
    assert!(spent > 0);
    let balances = p.payments.wallet().balances().await.unwrap();
    assert!(balances.iter().all(|(mint, _)| !mint.contains(&own_mint.url()[7..])), "not received: {balances:?}");
    assert_eq!(own_mint.requests(), requests_before, "AIUI never contacted the provider's own mint");
}

#[tokio::test]
async fn change_larger_than_the_payment_is_set_aside() {
    let p = paid(500, vec![openai("answer_plain.json")]).await;
    p.provider.fund(200).await;
    p.provider.arm(Fault::ChangeLargerThanPaid, 0);
    let (events, outcome) = p.h.turn("hello", None).await;
    assert!(matches!(outcome, TurnOutcome::Answered { .. }), "{outcome:?}");
    let told = notices(&events);
    assert!(told.contains("more than the") && told.contains("sats that were paid"), "{told}");
    let spent = one_payment_spent(&p).await;
    assert_eq!(p.payments.wallet().total_balance().await.unwrap(), FUNDED - spent, "nothing was received");
}

#[tokio::test]
async fn our_own_spent_token_sent_back_as_change_counts_as_nothing() {
    let p = paid(500, vec![openai("answer_plain.json")]).await;
    p.provider.arm(Fault::OwnTokenAsChange, 0);
    let (events, outcome) = p.h.turn("hello", None).await;
    assert!(matches!(outcome, TurnOutcome::Answered { .. }), "{outcome:?}");
    let told = notices(&events);
    assert!(told.contains("the very token that was paid"), "{told}");
    let spent = one_payment_spent(&p).await;
    assert!(spent > 0, "the token was redeemed: it is spent, whatever came back");
}

#[tokio::test]
async fn a_402_after_redeeming_is_never_paid_twice_and_is_written_off_visibly() {
    let p = paid(500, vec![openai("answer_plain.json")]).await;
    p.provider.arm(Fault::RedeemThen402, 0);
    let (_, outcome) = p.h.turn("hello", None).await;
    let message = stopped(&outcome);
    assert!(message.contains("was not paid again"), "{message}");
    assert_eq!(p.provider.state.bodies.lock().unwrap().len(), 1, "exactly one paid request reached the provider");
    let sums = p.assert_ceiling_and_conservation().await;
    assert!(sums.in_flight > 0, "the redeemed token is in flight until its refund or write-off");
    let held = p.budget.get().reserved_sats;
    assert!(held > 0);

    // The provider never refunds it: the first run asks, the second writes it off, with a notice.
    let first = p.payments.reconcile().await.unwrap();
    assert_eq!((first.checked, first.waiting, first.written_off), (1, 1, 0), "{first:?}");
    let second = p.payments.reconcile().await.unwrap();
    assert_eq!(second.written_off, 1, "{second:?}");
    assert!(second.notices.iter().any(|n| n.contains("written off as spent")), "{second:?}");
    let sums = p.assert_ceiling_and_conservation().await;
    assert_eq!(sums.in_flight, 0);
    assert_eq!(p.budget.get().spent_sats, sums.settled_spend + sums.fees);
}

/// Review F10: a provider answers 402 having redeemed nothing, and the mint is unreachable just then. The owner is
/// told the token could not be taken back yet, never that it went back for another payment or that the provider
/// asked for more after redeeming; once the mint answers, reconcile takes it back and nothing was spent.
#[tokio::test]
async fn a_402_while_the_mint_is_unreachable_is_told_as_such_and_taken_back_later() {
    let p = paid(500, vec![openai("answer_plain.json")]).await;
    let down = p.mint.down_switch();
    *p.provider.state.before_402.lock().unwrap() =
        Some(Box::new(move || down.store(true, std::sync::atomic::Ordering::SeqCst)));
    p.provider.arm(Fault::PaymentRequired, 0);
    let (events, outcome) = p.h.turn("hello", None).await;
    let told = format!("{}\n{outcome:?}", notices(&events));
    assert!(told.contains("could not be taken back yet"), "{told}");
    assert!(!told.contains("asked for more after") && !told.contains("already sent back"), "{told}");
    p.mint.bring_up();
    let report = p.payments.reconcile().await.unwrap();
    assert_eq!(report.reclaimed, 1, "{report:?}");
    let sums = p.assert_ceiling_and_conservation().await;
    assert_eq!((sums.in_flight, sums.settled_spend), (0, 0), "{sums:?}");
    assert!(p.provider.state.redemptions.lock().unwrap().is_empty(), "the provider redeemed nothing");
}

#[tokio::test]
async fn a_zero_price_advertisement_then_a_huge_402_is_refused_and_the_provider_skipped() {
    let p = paid(1000, vec![openai("answer_plain.json")]).await;
    p.provider.advertise(json!(0.0), json!(0.0));
    p.provider.arm(Fault::Huge402, 0);
    let (_, outcome) = p.h.turn("hello", None).await;
    let message = stopped(&outcome);
    let asked = HUGE_402_MSAT / 1000;
    assert!(message.contains(&format!("asked for {asked} sats")) && message.contains("skipped"), "{message}");
    let sums = p.assert_ceiling_and_conservation().await;
    assert_eq!((sums.wallet_balance, p.budget.get().spent_sats), (FUNDED, 0), "the refused token came back whole");

    let before = p.mint.requests();
    let (_, outcome) = p.h.turn("hello again", None).await;
    let message = stopped(&outcome);
    assert!(message.contains("Routstr"), "{message}");
    assert_eq!(p.provider.state.bodies.lock().unwrap().len(), 1, "the provider that broke its price is not paid");
    assert_eq!(p.mint.requests(), before, "the wallet was not touched for it");
}

#[tokio::test]
async fn absurd_advertised_prices_drop_the_model_without_touching_the_wallet() {
    let cases: [(Value, Value); 5] = [
        (json!(0.01), json!(1e300)),
        (json!("NaN"), json!(0.05)),
        (json!(-1.0), json!(0.05)),
        (json!("0.01"), json!("0.05")),
        (json!(0.01), json!(1e9)),
    ];
    for (prompt, completion) in cases {
        let p = paid(1000, vec![openai("answer_plain.json")]).await;
        p.provider.advertise(prompt.clone(), completion.clone());
        let before = p.mint.requests();
        let (_, outcome) = p.h.turn("hello", None).await;
        let message = stopped(&outcome);
        assert!(message.contains("no Routstr provider can be used"), "{prompt} {completion}: {message}");
        assert!(message.contains("with a sats price"), "the discovery report says why: {message}");
        assert!(p.provider.state.bodies.lock().unwrap().is_empty(), "{prompt} {completion}: paid anyway");
        assert_eq!(p.mint.requests(), before, "{prompt} {completion}: the wallet was touched");
        p.assert_ceiling_and_conservation().await;
    }
}

#[tokio::test]
async fn a_refund_that_never_comes_is_written_off_after_every_try() {
    let p = paid(500, vec![]).await;
    p.provider.arm(Fault::InternalNoChange, usize::MAX);
    let (_, outcome) = p.h.turn("hello", None).await;
    let message = stopped(&outcome);
    assert!(message.contains("kept in the ledger"), "{message}");
    let sums = p.assert_ceiling_and_conservation().await;
    let face = sums.in_flight;
    assert!(face > 0);
    let first = p.payments.reconcile().await.unwrap();
    assert_eq!((first.waiting, first.written_off), (1, 0), "{first:?}");
    let second = p.payments.reconcile().await.unwrap();
    assert_eq!(second.written_off, 1, "{second:?}");
    let note = second.notices.iter().find(|n| n.contains("written off")).expect("the owner is told");
    assert!(note.contains(&format!("{face} sats")) && note.contains("aiui test provider"), "{note}");
    p.assert_ceiling_and_conservation().await;
    assert_eq!(p.budget.get().spent_sats, face, "counted in full, in the period it was made in");
}

/// Review F3: a provider that is down behind a proxy answers its refund endpoint with 502, 503 and 504. Those are
/// the proxy's words, not the provider's refusal: no try is used up however long the outage lasts, and the refund
/// is received once the provider is back.
#[tokio::test]
async fn a_provider_down_behind_a_proxy_is_never_written_off_for_its_gateway_errors() {
    let p = paid(500, vec![]).await;
    p.provider.state.down_charge.store(7, std::sync::atomic::Ordering::SeqCst);
    // The refund is not ready while the turn waits (425), so the payment is left to reconcile.
    p.provider.arm(Fault::InternalNoChange, 1_000);
    let (_, outcome) = p.h.turn("hello", None).await;
    assert!(stopped(&outcome).contains("kept in the ledger"));
    let face = p.assert_ceiling_and_conservation().await.in_flight;
    assert!(face > 0);
    // Far more gateway errors than `max_refund_tries` (2 in tests): each run waits, none writes off.
    for status in [502, 503, 504, 502, 503, 504] {
        p.provider.state.refund_gateway_status.store(status, std::sync::atomic::Ordering::SeqCst);
        let report = p.payments.reconcile().await.unwrap();
        assert_eq!((report.waiting, report.written_off, report.refunded), (1, 0, 0), "{status}: {report:?}");
        assert_eq!(p.assert_ceiling_and_conservation().await.in_flight, face, "{status}: still held, not spent");
    }
    p.provider.state.refund_gateway_status.store(0, std::sync::atomic::Ordering::SeqCst);
    p.provider.arm(Fault::None, 0); // the provider is back and its refund is ready
    let report = p.payments.reconcile().await.unwrap();
    assert_eq!((report.refunded, report.written_off), (1, 0), "the provider is back: {report:?}");
    p.assert_ceiling_and_conservation().await;
    assert_eq!(p.budget.get().spent_sats, 7, "spend is what the provider charged, not the whole token");
}

/// Review D5: a provider that redeems nothing and sends the token it was paid back as "change". The mint says that
/// token is unspent, so it is taken back: nothing is spent, nothing is set aside, and the owner is told.
#[tokio::test]
async fn our_own_unspent_token_sent_back_as_change_is_taken_back_not_charged() {
    let p = paid(500, vec![openai("answer_plain.json")]).await;
    p.provider.arm(Fault::OwnTokenUnredeemedAsChange, 0);
    let (events, outcome) = p.h.turn("hello", None).await;
    assert!(matches!(outcome, TurnOutcome::Answered { .. }), "{outcome:?}");
    let told = notices(&events);
    assert!(!told.contains("already spent by the provider"), "the mint says unspent: {told}");
    let sums = one_payment_spent(&p).await;
    assert_eq!(sums, 0, "the provider redeemed nothing: nothing is spent");
    assert_eq!(p.budget.get().spent_sats, 0, "the allowance is not charged");
    assert!(p.payments.set_aside_tokens().unwrap().is_empty(), "no token is offered to discard");
    assert_eq!(p.payments.wallet().total_balance().await.unwrap(), FUNDED, "every sat is back in the wallet");
}

#[tokio::test]
async fn an_answer_that_never_ends_keeps_the_change_and_stops() {
    let p =
        paid_with(500, vec![openai("answer_plain.json")], |c| c.request_timeout = std::time::Duration::from_secs(2))
            .await;
    p.provider.arm(Fault::EndlessBody, 0);
    let (_, outcome) = p.h.turn("hello", None).await;
    let message = stopped(&outcome);
    assert!(message.contains("never arrived whole") && message.contains("the change it sent was kept"), "{message}");
    let charged = p.provider.state.charged.load(std::sync::atomic::Ordering::SeqCst) as u64;
    assert_eq!(one_payment_spent(&p).await, charged, "spent is what the provider charged; the change came back");
}

/// routstr.md §7's upstream-down case: 500 without change, the refund endpoint pending for longer than the turn
/// waits. `reconcile` later fetches the change; the reservation is gone; spend equals the provider's charge.
#[tokio::test]
async fn the_upstream_down_case_ends_resolved_by_reconcile() {
    let p = paid(500, vec![]).await;
    p.provider.state.down_charge.store(7, std::sync::atomic::Ordering::SeqCst);
    p.provider.arm(Fault::InternalNoChange, 1_000);
    let (_, outcome) = p.h.turn("hello", None).await;
    let message = stopped(&outcome);
    assert!(message.contains("kept in the ledger"), "{message}");
    assert!(p.budget.get().reserved_sats > 0, "held until the outcome is known");

    p.provider.arm(Fault::None, 0); // the provider's request finished: its refund is ready
    let report = p.payments.reconcile().await.unwrap();
    assert_eq!((report.refunded, report.written_off), (1, 0), "{report:?}");
    p.assert_ceiling_and_conservation().await;
    let budget = p.budget.get();
    assert_eq!((budget.spent_sats, budget.reserved_sats), (7, 0), "spend equals the provider's charge");
    assert_eq!(p.provider.state.charged.load(std::sync::atomic::Ordering::SeqCst), 7);
}
