//! Ledger bookkeeping without a mint: the conservation sums as payments move through their states.

use super::ledger::{Ledger, LedgerEntry, PaymentState};
use super::{Conservation, PayError};
use crate::Secret;

fn entry(id: &str, amount: u64, fees: u64) -> LedgerEntry {
    LedgerEntry {
        id: id.into(),
        provider: "p".into(),
        mint: "https://mint.example".into(),
        amount_sats: amount,
        token: None,
        operation_id: "00000000-0000-0000-0000-000000000000".into(),
        reservation: 1,
        state: PaymentState::Pending,
        spent_at_mint: false,
        fees_sats: fees,
        ..LedgerEntry::default()
    }
}

#[test]
fn totals_follow_each_payment_state() {
    let dir = tempfile::tempdir().unwrap();
    let ledger = Ledger::open(&dir.path().join("ledger.sqlite3")).unwrap();
    ledger.record_inflow("mint", "https://mint.example", 100).unwrap();
    ledger.insert_pending(&entry("a", 10, 1)).unwrap();
    ledger.insert_pending(&entry("b", 20, 0)).unwrap();
    ledger.insert_pending(&entry("c", 5, 1)).unwrap();
    ledger.mark_in_flight("a", &Secret::from("cashuBtoken-a"), 10).unwrap();
    ledger.mark_in_flight("b", &Secret::from("cashuBtoken-b"), 20).unwrap();
    ledger.cancel("c").unwrap();
    let t = ledger.totals().unwrap();
    assert_eq!((t.received, t.in_flight, t.settled_spend, t.fees), (100, 30, 0, 1));
    ledger.settle("a", 7, 1).unwrap();
    assert!(ledger.settle("a", 7, 1).is_err(), "settled once only");
    ledger.store_returned("b", "cashuBrefund").unwrap();
    let t = ledger.totals().unwrap();
    assert_eq!((t.in_flight, t.settled_spend, t.fees), (20, 7, 2));
    let open = ledger.unresolved().unwrap();
    assert_eq!(open.len(), 1);
    assert_eq!(open[0].state, PaymentState::InFlight);
    assert_eq!(open[0].returned_token.as_ref().map(|t| t.expose().as_str()), Some("cashuBrefund"));
    assert!(matches!(ledger.mark_in_flight("nope", &Secret::from("x"), 1), Err(PayError::UnknownPayment(_))));
    // Transitions are compare-and-set: a settled payment cannot be cancelled, settled or reclaimed again.
    assert!(matches!(ledger.cancel("a"), Err(PayError::Moved { .. })));
    assert!(matches!(ledger.settle("a", 1, 0), Err(PayError::Moved { .. })));
    assert!(matches!(ledger.mark_in_flight("c", &Secret::from("x"), 1), Err(PayError::Moved { .. })));
    // The row's token is a secret even in Debug output.
    assert!(!format!("{:?}", open[0]).contains("cashuBtoken-b"));
}

#[test]
fn conservation_is_exact_including_fees() {
    let c = |balance, settled, in_flight, fees| Conservation {
        received_total: 100,
        wallet_balance: balance,
        settled_spend: settled,
        in_flight,
        fees,
        withdrawn: 0,
        withdrawal_fees: 0,
    };
    assert!(c(70, 20, 8, 2).holds());
    let out = Conservation { withdrawn: 15, withdrawal_fees: 1, ..c(54, 20, 8, 2) };
    assert!(out.holds(), "withdrawn sats and their fees are counted");
    assert!(!Conservation { withdrawal_fees: 0, ..out }.holds(), "a withdrawal's fee is not lost");
    assert!(!c(70, 20, 8, 1).holds(), "a lost sat shows");
    assert!(!c(71, 20, 8, 2).holds(), "a created sat shows");
    assert!(!c(u64::MAX, u64::MAX, 0, 0).holds(), "no overflow");
}

#[test]
fn watched_time_grows_at_most_one_step_a_run_and_never_with_a_clock_that_went_back() {
    const HOUR: i64 = 3_600_000;
    let dir = tempfile::tempdir().unwrap();
    let ledger = Ledger::open(&dir.path().join("ledger.sqlite3")).unwrap();
    ledger.insert_pending(&entry("a", 10, 0)).unwrap();
    let created = ledger.get("a").unwrap().unwrap().created_ms;
    // The clock jumps ten days ahead: one run counts one step, not ten days.
    assert_eq!(ledger.watch("a", created + 240 * HOUR, HOUR).unwrap(), (HOUR, false));
    assert_eq!(ledger.watch("a", created + 240 * HOUR + HOUR / 2, HOUR).unwrap(), (HOUR + HOUR / 2, false));
    // It jumps back: nothing is counted, and the run says so.
    assert_eq!(ledger.watch("a", created, HOUR).unwrap(), (HOUR + HOUR / 2, true));
    // From there, time counts again as it passes.
    assert_eq!(ledger.watch("a", created + HOUR / 4, HOUR).unwrap(), (HOUR + HOUR / 2 + HOUR / 4, false));
}

#[test]
fn a_wallet_notice_is_read_in_each_readers_language_and_an_old_one_as_it_was_told() {
    use super::{PaymentProof, WalletNotice};
    use crate::i18n::Locale;

    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("ledger.sqlite3");
    let ledger = Ledger::open(&path).unwrap();
    let paid = WalletNotice::WithdrawalPaid {
        sats: 100,
        mint: "https://mint.example".into(),
        fee: 2,
        proof: PaymentProof::Matches,
    };
    // As Payments::tell keeps it: what happened, beside its English.
    ledger.add_notice(&paid.text(Locale::En), Some(&paid)).unwrap();
    // A notice from before the migration (or the paid leg's, already worded): text only.
    ledger.add_notice("An older notice, as it was told.", None).unwrap();
    // A newer AIUI's notice this build cannot read.
    ledger.add_notice("A newer notice, in English.", None).unwrap();
    rusqlite::Connection::open(&path)
        .unwrap()
        .execute("UPDATE notices SET message = '{\"kind\":\"from_the_future\"}' WHERE text LIKE 'A newer%'", [])
        .unwrap();

    let notices = ledger.notices_after(0).unwrap();
    assert_eq!(notices.len(), 3);
    assert_eq!(notices[0].message.as_ref(), Some(&paid));
    assert!(notices[0].text.starts_with("The withdrawal of 100 sats"), "{}", notices[0].text);
    let german = notices[0].text_in(Locale::De);
    assert!(german.starts_with("Die Abhebung von 100 Sats von https://mint.example wurde bezahlt"), "{german}");
    assert!(
        notices[0].text_in(Locale::Es).starts_with("La retirada de 100 sats"),
        "{}",
        notices[0].text_in(Locale::Es)
    );
    assert_eq!(notices[1].text_in(Locale::De), "An older notice, as it was told.");
    assert_eq!(notices[2].message, None);
    assert_eq!(notices[2].text_in(Locale::Es), "A newer notice, in English.");
    assert_eq!(ledger.recent_notices(1).unwrap()[0].text_in(Locale::De), "A newer notice, in English.");
}
