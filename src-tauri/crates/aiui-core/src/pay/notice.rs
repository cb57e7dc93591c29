//! The wallet's own notices to the owner (write-offs, set-aside tokens, ended withdrawals and sends, a silent mint),
//! kept in the ledger as what happened, so that each surface of each process says them in its owner's language.
//!
//! Mint URLs, providers, request ids and the mint's error are data: shown as they came, in every language.

use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::i18n::{self, FluentValue, Locale};

/// One thing the wallet tells the owner about their money. Stored as JSON beside its English text (which an
/// older AIUI shows, and which is shown when the JSON cannot be read).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum WalletNotice {
    /// A provider's returned token did not count; it was kept aside (`reason` is the mint's or the parser's).
    SetAside { provider: String, reason: String },
    /// The owner received a set-aside token after all.
    SetAsideReceived { provider: String, sats: u64, mint: String },
    /// A provider sent back, as its change, the very token it was paid, and the mint said it was never redeemed: it
    /// was taken back, `sats` of it into the wallet.
    EchoedUnredeemed { provider: String, sats: u64 },
    /// `spent` of the `paid` sats were written off after watching the payment for `watched_ms`.
    WrittenOff {
        spent: u64,
        paid: u64,
        provider: String,
        request_id: Option<String>,
        watched_ms: u64,
        why: WriteOffWhy,
    },
    /// A mint holding `sats` of the wallet has not answered since `since_ms`.
    MintSilent { mint: String, since_ms: i64, error: String, sats: u64 },
    /// Proofs moved off a keyset the mint is retiring.
    KeysetMoved { sats: u64, mint: String, fee: u64 },
    /// A token to send was never made: the sats stayed.
    TokenNeverMade { sats: u64, mint: String },
    /// A token sent out was taken back by this wallet.
    TokenTakenBack { sats: u64, mint: String },
    /// A token sent out was claimed by the wallet it was sent to.
    TokenClaimed { sats: u64, mint: String, made_ms: i64 },
    /// A withdrawal was paid, with what the mint's proof of payment says.
    WithdrawalPaid { sats: u64, mint: String, fee: u64, proof: PaymentProof },
    /// A withdrawal did not go through; its sats are back.
    WithdrawalFailed { sats: u64, mint: String },
    /// The mint took a withdrawal's proofs without a proof of payment; `kept` sats beyond it went to the mint.
    WithdrawalTaken { sats: u64, mint: String, kept: u64 },
}

/// Why a payment was written off (the second half of [`WalletNotice::WrittenOff`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum WriteOffWhy {
    /// Part of it was redeemed or is stuck; `back` sats still unspent were taken back.
    PartlyBack { back: u64 },
    /// The mint holds the token as pending and nothing was left to take back.
    StuckAtTheMint,
    /// No change and no refund after `tries` tries of the refund endpoint.
    NoRefundAfter { tries: u32 },
    /// No change and no refund, and the refund endpoint never answered.
    RefundNeverAnswered,
}

/// What a paid withdrawal's proof of payment says against its invoice.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PaymentProof {
    Matches,
    DoesNotMatch,
    None,
}

impl WalletNotice {
    /// The notice in `locale`: what the surfaces show and the ledger keeps (in English) beside the JSON.
    pub fn text(&self, locale: Locale) -> String {
        let t = |key: &str, args: &[(&str, FluentValue<'_>)]| i18n::text(locale, key, args);
        match self {
            WalletNotice::SetAside { provider, reason } => {
                t("wallet-set-aside", &[("provider", provider.as_str().into()), ("reason", reason.as_str().into())])
            }
            WalletNotice::SetAsideReceived { provider, sats, mint } => t(
                "wallet-set-aside-received",
                &[("provider", provider.as_str().into()), ("sats", (*sats).into()), ("mint", mint.as_str().into())],
            ),
            WalletNotice::EchoedUnredeemed { provider, sats } => {
                t("wallet-echoed-unredeemed", &[("provider", provider.as_str().into()), ("sats", (*sats).into())])
            }
            WalletNotice::WrittenOff { spent, paid, provider, request_id, watched_ms, why } => {
                let why = match why {
                    WriteOffWhy::PartlyBack { back } => t("wallet-why-partly-back", &[("back", (*back).into())]),
                    WriteOffWhy::StuckAtTheMint => t("wallet-why-stuck-at-the-mint", &[]),
                    WriteOffWhy::NoRefundAfter { tries } => {
                        t("wallet-why-no-refund-after", &[("tries", (*tries).into())])
                    }
                    WriteOffWhy::RefundNeverAnswered => t("wallet-why-refund-never-answered", &[]),
                };
                let mut args = vec![
                    ("spent", FluentValue::from(*spent)),
                    ("paid", (*paid).into()),
                    ("provider", provider.as_str().into()),
                    ("watched", age(locale, Duration::from_millis(*watched_ms)).into()),
                    ("why", why.into()),
                ];
                match request_id {
                    Some(id) => {
                        args.push(("request", id.as_str().into()));
                        t("wallet-written-off-request", &args)
                    }
                    None => t("wallet-written-off", &args),
                }
            }
            WalletNotice::MintSilent { mint, since_ms, error, sats } => t(
                "wallet-mint-silent",
                &[
                    ("mint", mint.as_str().into()),
                    ("since", crate::format_time_ms_in(*since_ms, locale).into()),
                    ("error", error.as_str().into()),
                    ("sats", (*sats).into()),
                ],
            ),
            WalletNotice::KeysetMoved { sats, mint, fee } => t(
                "wallet-keyset-moved",
                &[("sats", (*sats).into()), ("mint", mint.as_str().into()), ("fee", (*fee).into())],
            ),
            WalletNotice::TokenNeverMade { sats, mint } => {
                t("wallet-token-never-made", &[("sats", (*sats).into()), ("mint", mint.as_str().into())])
            }
            WalletNotice::TokenTakenBack { sats, mint } => {
                t("wallet-token-taken-back", &[("sats", (*sats).into()), ("mint", mint.as_str().into())])
            }
            WalletNotice::TokenClaimed { sats, mint, made_ms } => t(
                "wallet-token-claimed",
                &[
                    ("sats", (*sats).into()),
                    ("mint", mint.as_str().into()),
                    ("made", crate::format_time_ms_in(*made_ms, locale).into()),
                ],
            ),
            WalletNotice::WithdrawalPaid { sats, mint, fee, proof } => {
                let key = match proof {
                    PaymentProof::Matches => "wallet-withdrawal-paid-proven",
                    PaymentProof::DoesNotMatch => "wallet-withdrawal-paid-proof-mismatch",
                    PaymentProof::None => "wallet-withdrawal-paid-unproven",
                };
                t(key, &[("sats", (*sats).into()), ("mint", mint.as_str().into()), ("fee", (*fee).into())])
            }
            WalletNotice::WithdrawalFailed { sats, mint } => {
                t("wallet-withdrawal-failed", &[("sats", (*sats).into()), ("mint", mint.as_str().into())])
            }
            WalletNotice::WithdrawalTaken { sats, mint, kept } => t(
                "wallet-withdrawal-taken",
                &[("sats", (*sats).into()), ("mint", mint.as_str().into()), ("kept", (*kept).into())],
            ),
        }
    }
}

/// How long something was watched, in the largest unit that keeps it readable ("90 seconds", "3 hours").
fn age(locale: Locale, age: Duration) -> String {
    let secs = age.as_secs();
    let (unit, n) = match secs {
        0..120 => ("seconds", secs),
        120..7200 => ("minutes", secs / 60),
        7200..172_800 => ("hours", secs / 3600),
        _ => ("days", secs / 86_400),
    };
    i18n::text(locale, "wallet-age", &[("unit", unit.into()), ("n", n.into())])
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;

    const MINT: &str = "https://mint.example";

    /// Every notice, each `why`, each proof, and a request id with and without, with the English the ledger held
    /// before the catalogues (the tests of tests/budget read these words).
    fn every_notice() -> Vec<(WalletNotice, &'static str)> {
        let written_off = |why, request_id: Option<&str>| WalletNotice::WrittenOff {
            spent: 21,
            paid: 30,
            provider: "Provider pk1".into(),
            request_id: request_id.map(str::to_owned),
            watched_ms: 3 * 3_600_000,
            why,
        };
        vec![
            (
                WalletNotice::SetAside { provider: "Provider pk1".into(), reason: "token already spent".into() },
                "Provider pk1 sent back a token that does not count: token already spent. It was counted as 0 sats \
                 returned and kept aside (not received), so this payment counts in full. The owner can look at it \
                 with `aiui-cli wallet set-aside` and receive or discard it there.",
            ),
            (
                WalletNotice::SetAsideReceived { provider: "Provider pk1".into(), sats: 9, mint: MINT.into() },
                "The token Provider pk1 had sent back, kept aside, was received on the owner's request: 9 sats from \
                 https://mint.example.",
            ),
            (
                WalletNotice::EchoedUnredeemed { provider: "Provider pk1".into(), sats: 12 },
                "Provider pk1 sent back the very token it was paid, and the mint says it was never redeemed: it was \
                 taken back (12 sats are in the wallet again), and this request cost nothing.",
            ),
            (
                written_off(WriteOffWhy::PartlyBack { back: 9 }, Some("req-7")),
                "21 of the 30 sats paid to Provider pk1 (request req-7) were written off as spent after watching the \
                 payment for 3 hours: part of the token was redeemed or is stuck at the mint; the 9 sats still \
                 unspent were taken back into the wallet. The allowance counts them in the period the payment was \
                 made in.",
            ),
            (
                written_off(WriteOffWhy::StuckAtTheMint, None),
                "21 of the 30 sats paid to Provider pk1 were written off as spent after watching the payment for 3 \
                 hours: the mint still holds the token as being redeemed (pending), and nothing of it was left to \
                 take back. The allowance counts them in the period the payment was made in.",
            ),
            (
                written_off(WriteOffWhy::NoRefundAfter { tries: 1 }, None),
                "21 of the 30 sats paid to Provider pk1 were written off as spent after watching the payment for 3 \
                 hours: the provider redeemed the token but sent neither change nor a refund after 1 try. The \
                 allowance counts them in the period the payment was made in.",
            ),
            (
                written_off(WriteOffWhy::NoRefundAfter { tries: 3 }, None),
                "21 of the 30 sats paid to Provider pk1 were written off as spent after watching the payment for 3 \
                 hours: the provider redeemed the token but sent neither change nor a refund after 3 tries. The \
                 allowance counts them in the period the payment was made in.",
            ),
            (
                written_off(WriteOffWhy::RefundNeverAnswered, None),
                "21 of the 30 sats paid to Provider pk1 were written off as spent after watching the payment for 3 \
                 hours: the provider redeemed the token but sent neither change nor a refund, and its refund \
                 endpoint never answered. The allowance counts them in the period the payment was made in.",
            ),
            (
                WalletNotice::MintSilent {
                    mint: MINT.into(),
                    since_ms: 0,
                    error: "connection refused".into(),
                    sats: 40,
                },
                "The mint https://mint.example has not answered since 1970-01-01 00:00 UTC (connection refused). It \
                 holds 40 sats of this wallet: if it does not come back they are lost. Withdraw them as soon as it \
                 answers again.",
            ),
            (
                WalletNotice::KeysetMoved { sats: 64, mint: MINT.into(), fee: 1 },
                "64 sats at https://mint.example were on a keyset the mint is retiring; they were moved to its \
                 active keyset (the mint kept 1 sats as its fee).",
            ),
            (
                WalletNotice::TokenNeverMade { sats: 5, mint: MINT.into() },
                "A token of 5 sats from https://mint.example was never made; the sats stayed in the wallet.",
            ),
            (
                WalletNotice::TokenTakenBack { sats: 5, mint: MINT.into() },
                "A token of 5 sats from https://mint.example was taken back.",
            ),
            (
                WalletNotice::TokenClaimed { sats: 5, mint: MINT.into(), made_ms: 0 },
                "The token of 5 sats from https://mint.example made on 1970-01-01 00:00 UTC was claimed by the wallet \
                 it was sent to.",
            ),
            (
                WalletNotice::WithdrawalPaid { sats: 100, mint: MINT.into(), fee: 2, proof: PaymentProof::Matches },
                "The withdrawal of 100 sats from https://mint.example was paid (fee 2 sats); the mint's proof of \
                 payment matches the invoice.",
            ),
            (
                WalletNotice::WithdrawalPaid {
                    sats: 100,
                    mint: MINT.into(),
                    fee: 2,
                    proof: PaymentProof::DoesNotMatch,
                },
                "The withdrawal of 100 sats from https://mint.example was paid (fee 2 sats); the mint's proof of \
                 payment does not match the invoice: check that the invoice was received.",
            ),
            (
                WalletNotice::WithdrawalPaid { sats: 100, mint: MINT.into(), fee: 2, proof: PaymentProof::None },
                "The withdrawal of 100 sats from https://mint.example was paid (fee 2 sats); the mint gave no proof \
                 of payment.",
            ),
            (
                WalletNotice::WithdrawalFailed { sats: 100, mint: MINT.into() },
                "The withdrawal from https://mint.example did not go through; its 100 sats are back in the wallet.",
            ),
            (
                WalletNotice::WithdrawalTaken { sats: 100, mint: MINT.into(), kept: 3 },
                "The withdrawal of 100 sats from https://mint.example was paid, the mint says (it took the proofs \
                 but gave no proof of payment: check that the invoice was received); it kept 3 sats beyond it (any \
                 change it did not return is found again by a restore from the backup words).",
            ),
        ]
    }

    fn ascii_words(text: &str) -> BTreeSet<&str> {
        text.split(|c: char| !c.is_ascii_alphabetic()).filter(|w| w.len() >= 4).collect()
    }

    #[test]
    fn every_notice_reads_as_before_in_english_and_is_translated_everywhere_else() {
        // Data, not catalogue: the provider's label, the mint's URL and error, the CLI's command, a date's zone.
        let data = ascii_words(
            "Provider https mint example token already spent connection refused aiui wallet set aside UTC sats",
        );
        let mut problems = Vec::new();
        for (notice, english) in every_notice() {
            let en = notice.text(Locale::En);
            if en != english {
                problems.push(format!("English changed:\n  was {english:?}\n  now {en:?}"));
            }
            for locale in [Locale::De, Locale::Es] {
                let theirs = notice.text(locale);
                if ascii_words(&theirs).intersection(&ascii_words(&en)).any(|w| !data.contains(w)) {
                    problems.push(format!("{locale} keeps English words: {theirs:?}"));
                }
            }
            let pseudo = notice.text(Locale::Pseudo);
            let escaped: Vec<_> =
                ascii_words(&pseudo).intersection(&ascii_words(&en)).filter(|w| !data.contains(*w)).copied().collect();
            if !escaped.is_empty() {
                problems.push(format!("{escaped:?} escaped the catalogue: {pseudo:?}"));
            }
        }
        assert!(problems.is_empty(), "{}", problems.join("\n"));
    }

    #[test]
    fn a_notice_keeps_its_words_through_the_ledgers_json() {
        for (notice, _) in every_notice() {
            let json = serde_json::to_string(&notice).unwrap();
            assert_eq!(serde_json::from_str::<WalletNotice>(&json).unwrap(), notice, "{json}");
        }
    }

    #[test]
    fn plurals_and_ages_follow_the_locale() {
        assert_eq!(age(Locale::En, Duration::from_secs(90)), "90 seconds");
        assert_eq!(age(Locale::De, Duration::from_secs(3 * 60)), "3 Minuten");
        assert_eq!(age(Locale::Es, Duration::from_secs(3 * 86_400)), "3 días");
        let once = WalletNotice::WrittenOff {
            spent: 1,
            paid: 1,
            provider: "p".into(),
            request_id: None,
            watched_ms: 0,
            why: WriteOffWhy::NoRefundAfter { tries: 1 },
        };
        assert!(once.text(Locale::De).contains("nach 1 Versuch"), "{}", once.text(Locale::De));
        assert!(once.text(Locale::Es).contains("tras 1 intento"), "{}", once.text(Locale::Es));
    }
}
