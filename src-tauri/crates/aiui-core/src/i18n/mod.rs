//! The owner's language: which [`Locale`] host-written text is shown in, and [`text`], which renders a message of
//! the Fluent catalogues in `locales/` (compiled in, so the binary needs no files at run time).
//!
//! Only the host's own words live here. What the node or a model wrote (an app id, a state the node made up, a
//! reply) is passed in as a variable and shown as it came.

mod catalog;
#[cfg(test)]
mod error_tests;
#[cfg(test)]
mod loop_tests;
mod pseudo;
#[cfg(test)]
mod summary_tests;
#[cfg(test)]
mod tests;

use std::collections::BTreeMap;
use std::fmt;
use std::sync::LazyLock;

use fluent_langneg::{NegotiationStrategy, negotiate_languages};
use unic_langid::LanguageIdentifier;

pub use fluent_bundle::FluentValue;

use catalog::Catalog;

/// A language host-written text can be shown in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Locale {
    /// English, the reference catalogue and the fallback for everything.
    #[default]
    En,
    De,
    Es,
    /// `en-XA`: English with every letter accented, about a third longer, each message in brackets. A string
    /// shown without the accents escaped the catalogue; a layout that breaks with it breaks in German too.
    Pseudo,
}

impl Locale {
    /// Every locale, the pseudo-locale last.
    pub const ALL: [Locale; 4] = [Locale::En, Locale::De, Locale::Es, Locale::Pseudo];

    /// The BCP 47 tag: `en`, `de`, `es`, `en-XA`.
    pub fn tag(self) -> &'static str {
        match self {
            Locale::En => "en",
            Locale::De => "de",
            Locale::Es => "es",
            Locale::Pseudo => "en-XA",
        }
    }

    /// The best locale for `requested` (BCP 47 tags, most wanted first; tags that do not parse are skipped):
    /// `de-AT` gets German, `fr` gets English. The pseudo-locale is only ever given to an explicit `en-XA`.
    pub fn negotiate(requested: &[&str]) -> Locale {
        let requested: Vec<LanguageIdentifier> = requested.iter().filter_map(|tag| tag.parse().ok()).collect();
        let available: Vec<LanguageIdentifier> = Locale::ALL.iter().map(|l| l.langid()).collect();
        let default = Locale::En.langid();
        // Lookup stops at the first request that matches anything, so `en-US` settles on `en` before the
        // region-as-range step could reach `en-XA`.
        let chosen = negotiate_languages(&requested, &available, Some(&default), NegotiationStrategy::Lookup);
        chosen.first().and_then(|id| Locale::ALL.into_iter().find(|l| l.langid() == **id)).unwrap_or_default()
    }

    /// The locale of the process's environment, read as POSIX does for messages: the first of `LC_ALL`,
    /// `LC_MESSAGES` and `LANG` that is set and not empty decides, through [`Locale::from_posix`].
    pub fn from_env() -> Locale {
        let var = |name| std::env::var(name).ok();
        Locale::from_env_values([var("LC_ALL"), var("LC_MESSAGES"), var("LANG")])
    }

    /// [`Locale::from_env`] on given values of `LC_ALL`, `LC_MESSAGES` and `LANG`, in that order.
    fn from_env_values(values: [Option<String>; 3]) -> Locale {
        values.iter().flatten().find(|v| !v.is_empty()).map(|v| Locale::from_posix(v)).unwrap_or_default()
    }

    /// A POSIX locale name (`de_DE.UTF-8`, `es_MX@euro`, `C`, `POSIX`) as a locale; `C`, `POSIX` and anything
    /// not understood are English.
    pub fn from_posix(value: &str) -> Locale {
        let name = value.split(['.', '@']).next().unwrap_or_default();
        if name.is_empty() || name == "C" || name == "POSIX" {
            return Locale::En;
        }
        Locale::negotiate(&[&name.replace('_', "-")])
    }

    /// The locale whose [`tag`](Locale::tag) is `tag` (any case), as a setting stores it; `None` for anything else.
    pub fn from_tag(tag: &str) -> Option<Locale> {
        Locale::ALL.into_iter().find(|l| l.tag().eq_ignore_ascii_case(tag.trim()))
    }

    /// The best locale for a browser's `Accept-Language` header (`es-ES,es;q=0.9,en;q=0.8`): the tags by their
    /// weight, then [`Locale::negotiate`]. A header that does not parse asks for nothing, which is English.
    pub fn from_accept_language(header: &str) -> Locale {
        let mut weighted: Vec<(f32, &str)> = header
            .split(',')
            .filter_map(|part| {
                let mut fields = part.split(';').map(str::trim);
                let tag = fields.next().filter(|t| !t.is_empty() && *t != "*")?;
                let weight = fields
                    .find_map(|f| f.strip_prefix("q=").or_else(|| f.strip_prefix("Q=")))
                    .map_or(Some(1.0), |q| q.parse::<f32>().ok().filter(|q| q.is_finite()))?;
                (weight > 0.0).then_some((weight, tag))
            })
            .take(32)
            .collect();
        // Stable: equal weights keep the header's order.
        weighted.sort_by(|a, b| b.0.total_cmp(&a.0));
        let tags: Vec<&str> = weighted.into_iter().map(|(_, tag)| tag).collect();
        Locale::negotiate(&tags)
    }

    /// The language's own name for itself, as a language picker lists it (it reads the same in every locale).
    pub fn endonym(self) -> &'static str {
        match self {
            Locale::En => "English",
            Locale::De => "Deutsch",
            Locale::Es => "Español",
            Locale::Pseudo => "Pseudo (en-XA)",
        }
    }

    /// The language's English name, for instructions to a model ("answer in German"); `None` for English and the
    /// pseudo-locale, which a model reads as English.
    pub fn english_name(self) -> Option<&'static str> {
        match self {
            Locale::En | Locale::Pseudo => None,
            Locale::De => Some("German"),
            Locale::Es => Some("Spanish"),
        }
    }

    fn langid(self) -> LanguageIdentifier {
        // The tags above are valid BCP 47; a failed parse would be a typo caught by the negotiation tests.
        self.tag().parse().unwrap_or_default()
    }
}

impl fmt::Display for Locale {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.tag())
    }
}

/// The catalogues, parsed once on first use and shared by every thread.
static CATALOG: LazyLock<Catalog> = LazyLock::new(Catalog::embedded);

/// Message `key` of the catalogue for `locale`, with `args` (`("app", "lnd".into())`, `("count", 3.into())`).
///
/// Never empty and never fails: a key missing from `locale`, or a message that does not format (a missing
/// variable), is shown in English and logged as a warning; if English fails too, the key and the arguments are
/// shown, so an approval never reads blank.
pub fn text(locale: Locale, key: &str, args: &[(&str, FluentValue<'_>)]) -> String {
    CATALOG.text(locale, key, args)
}

/// `value` with `places` decimals and the locale's decimal separator: a string, because Fluent's own number
/// formatting in fluent-bundle knows no separators but the full stop.
pub fn decimal(locale: Locale, value: f64, places: usize) -> String {
    let text = format!("{value:.places$}");
    match locale {
        Locale::De | Locale::Es => text.replace('.', ","),
        Locale::En | Locale::Pseudo => text,
    }
}

/// The words of every page (both windows, the LAN pages, the sign-in page) in one locale, as a page is sent them.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct PageText {
    /// The document's `lang`.
    pub lang: &'static str,
    /// Each message and attribute of the pages' catalogue files (`chat.ftl`, `login.ftl`, `trusted.ftl`), keyed
    /// `id` or `id.attribute`, with its variables left as `{$name}` for the page to fill in.
    pub messages: BTreeMap<String, String>,
}

/// [`PageText`] for `locale`: a message missing from its catalogue is given in English, never left out.
pub fn page_text(locale: Locale) -> PageText {
    // Made once per locale: the LAN service answers it to anyone who loads a page, signed in or not.
    static PAGES: LazyLock<Vec<PageText>> = LazyLock::new(|| {
        Locale::ALL.into_iter().map(|l| PageText { lang: l.tag(), messages: CATALOG.page_text(l) }).collect()
    });
    PAGES
        .iter()
        .find(|page| page.lang == locale.tag())
        .cloned()
        .unwrap_or_else(|| PageText { lang: locale.tag(), messages: CATALOG.page_text(locale) })
}
