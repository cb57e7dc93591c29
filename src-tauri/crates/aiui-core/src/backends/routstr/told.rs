//! What the Routstr leg tells the owner about a payment, in the owner's language: why nothing was paid, what a
//! provider did with a request, and where the money is now.
//!
//! The provider's label, its error detail and the wallet's own error are passed in and shown as they came.

use std::time::Duration;

use crate::i18n::{self, FluentValue, Locale};

/// Where a payment's money is after an unclear outcome (the second half of a [`Told`] sentence).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Verdict {
    /// The mint says the token was never spent: it is back in the wallet.
    Unspent,
    /// The refund token sent with an error counted in full.
    Refunded,
    /// The refund token sent with an error did not count (it is set aside).
    RefundVoid,
    /// The provider's refund endpoint gave the whole payment back.
    ProviderRefunded,
    /// The provider's refund endpoint gave part of it back: `spent` of the `paid` sats count as spent.
    ProviderRefundedPart { spent: u64, paid: u64 },
    /// The provider's refund endpoint answered with a token that did not count.
    ProviderRefundVoid,
    /// Nothing settled it yet: the payment stays in the ledger for `reconcile`.
    KeptInLedger,
}

impl Verdict {
    pub(crate) fn text(self, locale: Locale) -> String {
        match self {
            Verdict::Unspent => i18n::text(locale, "routstr-verdict-unspent", &[]),
            Verdict::Refunded => i18n::text(locale, "routstr-verdict-refunded", &[]),
            Verdict::RefundVoid => i18n::text(locale, "routstr-verdict-refund-void", &[]),
            Verdict::ProviderRefunded => i18n::text(locale, "routstr-verdict-provider-refunded", &[]),
            Verdict::ProviderRefundedPart { spent, paid } => i18n::text(
                locale,
                "routstr-verdict-provider-refunded-part",
                &[("spent", spent.into()), ("paid", paid.into())],
            ),
            Verdict::ProviderRefundVoid => i18n::text(locale, "routstr-verdict-provider-refund-void", &[]),
            Verdict::KeptInLedger => i18n::text(locale, "routstr-verdict-kept-in-ledger", &[]),
        }
    }
}

/// One thing the leg tells the owner: a step's failure (folded into the leg's error) or a notice.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Told<'a> {
    /// The request was sent with a token, and no answer came in `after`.
    NoAnswerInTime {
        provider: &'a str,
        after: Duration,
        verdict: Verdict,
    },
    Unreachable {
        provider: &'a str,
        verdict: Verdict,
    },
    /// The connection failed mid-request; `error` is the HTTP client's.
    BrokeOff {
        provider: &'a str,
        error: String,
        verdict: Verdict,
    },
    /// The provider answered an error; `detail` is its status and message.
    Answered {
        provider: &'a str,
        detail: String,
        verdict: Verdict,
    },
    /// A 200 whose body did not arrive whole.
    AnswerLost {
        provider: &'a str,
        change_kept: bool,
    },
    /// A 402 whose token the provider had redeemed.
    RedeemedAndRefused {
        provider: &'a str,
        verdict: Verdict,
    },
    /// A 402 whose token could not be taken back yet; `error` is the wallet's.
    NotTakenBackYet {
        provider: &'a str,
        error: String,
    },
    /// A 402 after the provider redeemed the first token: not paid again.
    AskedMoreAfterRedeeming {
        provider: &'a str,
    },
    /// A 402 beyond what the provider's advertised price allows.
    AskedTooMuch {
        provider: &'a str,
        required: u64,
        factor: u64,
        estimate: u64,
        skipped_minutes: u64,
    },
    RefusedTwice,
    /// No token was built: no mint is both accepted and the provider's.
    NoCommonMint,
    /// No token was built: too little ecash for `price`.
    TooLittleEcash {
        price: u64,
    },
    /// No token was built: the mint did not answer, or answered badly; `error` is the wallet's.
    MintDown {
        error: String,
    },
    /// No token was built for another reason of the wallet's (`error`).
    NotPaid {
        error: String,
    },
}

impl Told<'_> {
    pub(crate) fn text(&self, locale: Locale) -> String {
        let verdict = |v: &Verdict| FluentValue::from(v.text(locale));
        let (key, args): (&str, Vec<(&str, FluentValue<'_>)>) = match self {
            Told::NoAnswerInTime { provider, after, verdict: v } => (
                "routstr-no-answer-in-time",
                vec![
                    ("provider", (*provider).into()),
                    ("after", seconds(locale, *after).into()),
                    ("verdict", verdict(v)),
                ],
            ),
            Told::Unreachable { provider, verdict: v } => {
                ("routstr-unreachable", vec![("provider", (*provider).into()), ("verdict", verdict(v))])
            }
            Told::BrokeOff { provider, error, verdict: v } => (
                "routstr-broke-off",
                vec![("provider", (*provider).into()), ("error", error.as_str().into()), ("verdict", verdict(v))],
            ),
            Told::Answered { provider, detail, verdict: v } => (
                "routstr-answered",
                vec![("provider", (*provider).into()), ("detail", detail.as_str().into()), ("verdict", verdict(v))],
            ),
            Told::AnswerLost { provider, change_kept: false } => {
                ("routstr-answer-lost", vec![("provider", (*provider).into())])
            }
            Told::AnswerLost { provider, change_kept: true } => {
                ("routstr-answer-lost-change-kept", vec![("provider", (*provider).into())])
            }
            Told::RedeemedAndRefused { provider, verdict: v } => {
                ("routstr-redeemed-and-refused", vec![("provider", (*provider).into()), ("verdict", verdict(v))])
            }
            Told::NotTakenBackYet { provider, error } => {
                ("routstr-not-taken-back-yet", vec![("provider", (*provider).into()), ("error", error.as_str().into())])
            }
            Told::AskedMoreAfterRedeeming { provider } => {
                ("routstr-asked-more-after-redeeming", vec![("provider", (*provider).into())])
            }
            Told::AskedTooMuch { provider, required, factor, estimate, skipped_minutes } => (
                "routstr-asked-too-much",
                vec![
                    ("provider", (*provider).into()),
                    ("required", (*required).into()),
                    ("factor", (*factor).into()),
                    ("estimate", (*estimate).into()),
                    ("minutes", (*skipped_minutes).into()),
                ],
            ),
            Told::RefusedTwice => ("routstr-refused-twice", vec![]),
            Told::NoCommonMint => ("routstr-no-common-mint", vec![]),
            Told::TooLittleEcash { price } => ("routstr-too-little-ecash", vec![("price", (*price).into())]),
            Told::MintDown { error } => ("routstr-mint-down", vec![("error", error.as_str().into())]),
            Told::NotPaid { error } => ("routstr-not-paid", vec![("error", error.as_str().into())]),
        };
        i18n::text(locale, key, &args)
    }
}

/// A duration as the owner reads it: whole seconds when it is whole, else one decimal ("2.6 s", "2,6 s").
fn seconds(locale: Locale, d: Duration) -> String {
    let places = if d.subsec_millis() == 0 { 0 } else { 1 };
    format!("{} s", i18n::decimal(locale, d.as_secs_f64(), places))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_timeout_is_said_as_it_was_set_with_the_locales_separator() {
        assert_eq!(seconds(Locale::En, Duration::from_millis(2_600)), "2.6 s");
        assert_eq!(seconds(Locale::De, Duration::from_millis(2_600)), "2,6 s");
        assert_eq!(seconds(Locale::En, Duration::from_secs(30)), "30 s");
    }
}
