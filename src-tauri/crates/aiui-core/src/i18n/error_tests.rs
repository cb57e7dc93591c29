//! The wallet's, the prices' and the allowances' errors, and the egress screen's report, in every locale: the
//! English exactly as it read before the catalogues (logs, tests and the terminal compare it), German and Spanish
//! their own, and the pseudo-locale with no English word escaped from the catalogue.

use super::Locale;
use super::loop_tests::{Case, problems_rendering};
use crate::budget::BudgetError;
use crate::egress::Report;
use crate::pay::{PayError, Unfinished};
use crate::pricing::{PriceError, Refused};

/// Words in these cases that come from a mint, a path, a parser or the call, not from the catalogue.
const NOT_CATALOGUE: &str = "https mint example connection refused timed out keyring locked disk full data budget json \
    prices expected value line column payment reconcile aiui wallet cashu cashuB bip xprv claude opus five settled";

fn mint_down() -> PayError {
    PayError::MintUnreachable { mint: "https://mint.example".into(), reason: "connection refused".into() }
}

fn io(text: &str) -> std::io::Error {
    std::io::Error::other(text.to_owned())
}

const CASES: &[Case] = &[
    Case {
        name: "seed missing",
        render: |l| PayError::SeedMissing.text(l),
        en: "the wallet seed is missing from the keyring but a wallet exists in the data dir; restore the seed words \
             into the keyring (or move the wallet aside) before opening it",
    },
    Case {
        name: "keyring",
        render: |l| PayError::Keyring("keyring locked".into()).text(l),
        en: "keyring: keyring locked",
    },
    Case {
        name: "ledger",
        render: |l| PayError::Ledger("disk full".into()).text(l),
        en: "could not write the payment ledger: disk full. No token left the wallet",
    },
    Case {
        name: "invalid token",
        render: |l| PayError::InvalidToken("expected cashuB".into()).text(l),
        en: "not a usable Cashu token: expected cashuB",
    },
    Case {
        name: "mint unreachable",
        render: |l| mint_down().text(l),
        en: "the mint https://mint.example could not be reached: connection refused",
    },
    Case {
        name: "mint refused",
        render: |l| PayError::Mint { mint: "https://mint.example".into(), reason: "timed out".into() }.text(l),
        en: "the mint https://mint.example refused: timed out",
    },
    Case {
        name: "insufficient",
        render: |l| PayError::InsufficientFunds { needed: 21 }.text(l),
        en: "not enough ecash at an accepted mint for 21 sats",
    },
    Case {
        name: "no common mint",
        render: |l| PayError::NoCommonMint.text(l),
        en: "no mint is both accepted by the owner and listed by the provider",
    },
    Case {
        name: "already spent",
        render: |l| PayError::AlreadySpent.text(l),
        en: "the token was already redeemed at the mint",
    },
    Case { name: "timeout", render: |l| PayError::Timeout.text(l), en: "timed out waiting for the mint" },
    Case {
        name: "moved",
        render: |l| PayError::Moved { id: "p1".into(), state: "settled".into() }.text(l),
        en: "payment p1 was moved to settled by another process; left as it is",
    },
    Case {
        name: "withdrawal refused",
        render: |l| PayError::WithdrawalRefused(Box::new(mint_down())).text(l),
        en: "the mint https://mint.example could not be reached: connection refused; nothing was paid and the sats \
             are back in the wallet",
    },
    Case {
        name: "unfinished payment token",
        render: |l| PayError::Unfinished(Unfinished::PaymentToken(Box::new(mint_down()))).text(l),
        en: "the mint gave no clear answer while the token was being made (the mint https://mint.example could not be \
             reached: connection refused); nothing is lost: the payment is kept and settled by the next reconcile",
    },
    Case {
        name: "unfinished not settled",
        render: |l| PayError::Unfinished(Unfinished::NotSettled { payment: "p1".into() }).text(l),
        en: "payment p1 is not settled yet; run `aiui-cli wallet reconcile` first",
    },
    Case {
        name: "unfinished withdrawal",
        render: |l| PayError::Unfinished(Unfinished::Withdrawal(Box::new(PayError::Timeout))).text(l),
        en: "the mint gave no clear answer about the withdrawal (timed out waiting for the mint); nothing is lost: it \
             stays in flight and the next reconcile settles it",
    },
    Case {
        name: "unfinished send ledger",
        render: |l| {
            PayError::Unfinished(Unfinished::SendLedger(Box::new(PayError::Ledger("disk full".into())))).text(l)
        },
        en: "the ledger could not record the token (could not write the payment ledger: disk full. No token left the \
             wallet); it was not shown, and the next reconcile takes it back",
    },
    Case {
        name: "unfinished receive",
        render: |l| PayError::Unfinished(Unfinished::Receive { mint: "https://mint.example".into() }).text(l),
        en: "receiving a token at https://mint.example was begun and not finished; it is finished by the next \
             reconcile",
    },
    Case {
        name: "amount",
        render: |l| PriceError::Invalid(Refused::Amount { typed: "five".into() }).text(l),
        en: "\"five\" is not an amount in US dollars (e.g. 5 or 2.50)",
    },
    Case {
        name: "grouped",
        render: |l| PriceError::Invalid(Refused::Grouped { typed: "1,000".into() }).text(l),
        en: "\"1,000\" could be read two ways: write the amount without a thousands separator (1000, or 1.50 for one \
             and a half)",
    },
    Case {
        name: "price range",
        render: |l| PriceError::Invalid(Refused::OutOfRange { value: 20000.0 }).text(l),
        en: "20000 is not a price in USD per million tokens (0 to 10000)",
    },
    Case {
        name: "model",
        render: |l| PriceError::Invalid(Refused::Model { typed: "claude opus".into() }).text(l),
        en: "\"claude opus\" is not a model name (letters, digits, - . _ :)",
    },
    Case {
        name: "price write",
        render: |l| PriceError::Write { path: "/data/prices.json".into(), source: io("disk full") }.text(l),
        en: "could not save the price to /data/prices.json: disk full. Nothing was changed",
    },
    Case {
        name: "budget corrupt",
        render: |l| {
            BudgetError::Corrupt {
                path: "/data/budget.json".into(),
                reason: "expected value at line 1 column 1".into(),
            }
            .text(l)
        },
        en: "the budget file /data/budget.json is damaged (expected value at line 1 column 1); fix or remove it and set \
             the budget again",
    },
    Case {
        name: "not a mint",
        render: |l| BudgetError::NotAMint("ftp://x".into()).text(l),
        en: "\"ftp://x\" is not a mint URL (expected https://… or http://…)",
    },
    Case { name: "egress report, nothing", render: |l| Report::default().text(l), en: "0 redacted, 0 placeholders" },
    Case {
        name: "egress report, kinds",
        render: |l| Report { redactions: vec![("bip39".into(), 1), ("xprv".into(), 2)], placeholders: 4 }.text(l),
        en: "3 redacted (bip39 1, xprv 2), 4 placeholders",
    },
];

#[test]
fn every_wallet_price_and_budget_error_reads_as_before_in_english_and_in_the_owners_language_otherwise() {
    let problems = problems_rendering(CASES, NOT_CATALOGUE);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn display_is_the_english_text() {
    let e = PayError::Unfinished(Unfinished::Swap { mint: "https://mint.example".into() });
    assert_eq!(e.to_string(), e.text(Locale::En));
    assert_eq!(e.to_string(), "the swap at https://mint.example did not take every old proof");
    let e = PriceError::Invalid(Refused::Price { typed: "x".into() });
    assert_eq!(e.to_string(), "\"x\" is not a price in US dollars (e.g. 3 or 0.30)");
    assert_eq!(BudgetError::Invalid("x".into()).to_string(), "invalid budget setting: x");
}

#[test]
fn a_german_owner_reads_what_they_typed_and_what_to_write_in_german() {
    let refused = PriceError::Invalid(Refused::Grouped { typed: "1.000".into() }).text(Locale::De);
    assert_eq!(
        refused,
        "\"1.000\" lässt sich zweifach lesen: schreiben Sie den Betrag ohne Tausendertrennzeichen (1000, oder 1,50 \
         für anderthalb)"
    );
    let unfinished = PayError::Unfinished(Unfinished::Withdrawal(Box::new(PayError::Timeout))).text(Locale::Es);
    assert!(unfinished.contains("se agotó el tiempo de espera de la mint"), "the cause is Spanish too: {unfinished}");
}
