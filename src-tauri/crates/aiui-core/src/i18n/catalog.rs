//! The compiled-in Fluent catalogues, one concurrent bundle per [`Locale`], and the fallback that keeps every
//! rendered text non-empty.

use fluent_bundle::concurrent::FluentBundle;
use fluent_bundle::{FluentArgs, FluentResource, FluentValue};
use unic_langid::LanguageIdentifier;

use super::{Locale, pseudo};

/// The catalogue sources, by locale. The pseudo-locale has none of its own: it is English, transformed.
pub(super) const SOURCES: [(Locale, &str); 3] = [
    (Locale::En, include_str!("../../locales/en/aiui.ftl")),
    (Locale::De, include_str!("../../locales/de/aiui.ftl")),
    (Locale::Es, include_str!("../../locales/es/aiui.ftl")),
];

type Bundle = FluentBundle<FluentResource>;

/// Every locale's bundle. The concurrent flavour, so one catalogue can sit in a static and serve every thread.
pub(super) struct Catalog {
    bundles: Vec<(Locale, Bundle)>,
}

impl Catalog {
    /// The catalogues compiled into the binary.
    pub(super) fn embedded() -> Self {
        Self::from_sources(&SOURCES)
    }

    /// Catalogues from `sources`; the pseudo-locale is made from the English one. A source with syntax errors
    /// keeps the messages that did parse (the tests see to it that none has any).
    pub(super) fn from_sources(sources: &[(Locale, &str)]) -> Self {
        let mut bundles = Vec::new();
        for &(locale, source) in sources {
            bundles.push((locale, bundle(locale, locale, source)));
            if locale == Locale::En {
                bundles.push((Locale::Pseudo, bundle(Locale::Pseudo, Locale::En, source)));
            }
        }
        Self { bundles }
    }

    /// See [`super::text`].
    pub(super) fn text(&self, locale: Locale, key: &str, args: &[(&str, FluentValue<'_>)]) -> String {
        let why = match self.format(locale, key, args) {
            Ok(text) => return text,
            Err(why) => why,
        };
        tracing::warn!(locale = %locale, key, error = %why, "a message could not be shown in this locale");
        if locale != Locale::En {
            match self.format(Locale::En, key, args) {
                Ok(text) => return text,
                Err(why) => tracing::warn!(key, error = %why, "the English message could not be shown either"),
            }
        }
        last_resort(key, args)
    }

    /// The message, formatted; `Err` says why it could not be, including when it formatted to nothing.
    pub(super) fn format(&self, locale: Locale, key: &str, args: &[(&str, FluentValue<'_>)]) -> Result<String, String> {
        let bundle =
            self.bundles.iter().find(|(l, _)| *l == locale).map(|(_, b)| b).ok_or("the locale has no catalogue")?;
        let (id, attribute) = match key.split_once('.') {
            Some((id, attribute)) => (id, Some(attribute)),
            None => (key, None),
        };
        let message = bundle.get_message(id).ok_or("no such message")?;
        let pattern = match attribute {
            Some(name) => message.get_attribute(name).map(|a| a.value()).ok_or("no such attribute")?,
            None => message.value().ok_or("the message has no value")?,
        };
        let args: FluentArgs = args.iter().map(|(name, value)| (*name, value.clone())).collect();
        let mut errors = Vec::new();
        let text = bundle.format_pattern(pattern, Some(&args), &mut errors);
        if !errors.is_empty() {
            return Err(errors.iter().map(ToString::to_string).collect::<Vec<_>>().join("; "));
        }
        if text.trim().is_empty() {
            return Err("the message formatted to nothing".into());
        }
        // Separators (`; `) stay unbracketed in the pseudo-locale, or a list would read `a[, ]b`.
        Ok(match locale {
            Locale::Pseudo if text.chars().any(char::is_alphabetic) => pseudo::bracket(&text),
            _ => text.into_owned(),
        })
    }
}

/// One locale's bundle from `source`, with plural rules of `rules` (the pseudo-locale counts as English does:
/// Fluent looks plural rules up by exact tag and has none for `en-XA`).
fn bundle(locale: Locale, rules: Locale, source: &str) -> Bundle {
    let resource = FluentResource::try_new(source.to_owned()).unwrap_or_else(|(partial, errors)| {
        tracing::warn!(locale = %locale, ?errors, "a catalogue has syntax errors; the messages that parsed are kept");
        partial
    });
    let langid: LanguageIdentifier = rules.tag().parse().unwrap_or_default();
    let mut bundle = FluentBundle::new_concurrent(vec![langid]);
    // No Unicode isolation marks (U+2068/U+2069) around variables: a summary is plain text, the very string the
    // gate records and the owner approves, compared byte for byte by tests and shown by the CLI's terminal and
    // read by screen readers, where invisible marks turn into stray characters. The variables need them less
    // than most: app ids and versions pass the tools' schema patterns (ASCII), and node-made states are cut to
    // letters, digits and `-_. `, which drops every bidi override (tools/summary.rs).
    bundle.set_use_isolating(false);
    if locale == Locale::Pseudo {
        bundle.set_transform(Some(pseudo::transform));
    }
    if let Err(errors) = bundle.add_resource(resource) {
        tracing::warn!(locale = %locale, ?errors, "a catalogue defines a message twice; the first one is kept");
    }
    bundle
}

/// What is shown when no catalogue can render `key`: the key and the arguments, so the owner still sees which
/// app is meant and the text is never blank.
fn last_resort(key: &str, args: &[(&str, FluentValue<'_>)]) -> String {
    let args: Vec<String> = args
        .iter()
        .map(|(name, value)| match value {
            FluentValue::String(s) => format!("{name}: {s}"),
            FluentValue::Number(n) => format!("{name}: {}", n.as_string()),
            _ => name.to_string(),
        })
        .collect();
    if args.is_empty() { key.to_owned() } else { format!("{key} ({})", args.join("; ")) }
}
