//! The CLI's own words in the person's language: the environment's (LC_ALL, LC_MESSAGES, LANG), or the one a
//! command was told to use (`serve --language`), rendered from the `cli-*` messages of the Fluent catalogues.

use std::sync::{LazyLock, OnceLock};

use aiui_core::i18n::{self, FluentValue, Locale};

static FROM_ENV: LazyLock<Locale> = LazyLock::new(Locale::from_env);
static CHOSEN: OnceLock<Locale> = OnceLock::new();

/// The language every line of this process is written in.
pub fn locale() -> Locale {
    CHOSEN.get().copied().unwrap_or(*FROM_ENV)
}

/// Writes the rest of the process's lines in `locale` instead of the environment's. Only the first choice holds:
/// a process speaks one language.
pub fn choose(locale: Locale) {
    let _ = CHOSEN.set(locale);
}

/// Message `key` in [`locale`], with `args`.
pub fn t(key: &str, args: &[(&str, FluentValue<'_>)]) -> String {
    i18n::text(locale(), key, args)
}

/// `value` with `places` decimals, written with the locale's decimal separator.
pub fn decimal(value: f64, places: usize) -> String {
    i18n::decimal(locale(), value, places)
}

/// A percentage of `fraction` (0.5 is 50%), with `places` decimals.
pub fn percent(fraction: f64, places: usize) -> String {
    t("cli-percent", &[("value", decimal(fraction * 100.0, places).into())])
}

/// The question with the locale's `[y/N]`, then a space, as a prompt ends.
pub fn yes_no_prompt(question: &str) -> String {
    format!("{question} {} ", t("cli-yes-no", &[]))
}

/// Whether a typed answer is a yes: "y" and "yes" in every language, and the locale's own words for it. Anything
/// else, an empty line included, is no.
pub fn is_yes(answer: &str) -> bool {
    let answer = answer.trim().to_lowercase();
    // The pseudo-locale's words are accented English, which nobody types.
    let words_locale = if locale() == Locale::Pseudo { Locale::En } else { locale() };
    let own = i18n::text(words_locale, "cli-answer-yes", &[]);
    ["y", "yes"].into_iter().chain(own.split_whitespace()).any(|word| word.to_lowercase() == answer)
}
