//! The compiled-in Fluent catalogues, one concurrent bundle per [`Locale`], and the fallback that keeps every
//! rendered text non-empty.

use fluent_bundle::concurrent::FluentBundle;
use fluent_bundle::resolver::ResolverError;
use fluent_bundle::resolver::errors::ReferenceKind;
use fluent_bundle::{FluentArgs, FluentError, FluentResource, FluentValue};
use unic_langid::LanguageIdentifier;

use super::{Locale, pseudo};

/// The files of every locale's catalogue: the loop's own text, the words of each page (served to them by
/// [`super::page_text`]), the command line's own lines, then the refusals and failures every part writes (the
/// wallet's, the prices', the allowances', the shells').
pub(super) const FILES: [&str; 6] = ["aiui.ftl", "chat.ftl", "login.ftl", "trusted.ftl", "cli.ftl", "errors.ftl"];
/// The files in [`FILES`] that hold the pages' words.
pub(super) const PAGE_FILES: [&str; 3] = ["chat.ftl", "login.ftl", "trusted.ftl"];
/// The messages of `aiui.ftl` the pages are sent as well: the node's state names, which they show beside each app
/// as the summaries do, from one translation.
pub(super) const PAGE_CORE_PREFIX: &str = "state-";

macro_rules! catalogue {
    ($tag:literal) => {
        [
            include_str!(concat!("../../locales/", $tag, "/aiui.ftl")),
            include_str!(concat!("../../locales/", $tag, "/chat.ftl")),
            include_str!(concat!("../../locales/", $tag, "/login.ftl")),
            include_str!(concat!("../../locales/", $tag, "/trusted.ftl")),
            include_str!(concat!("../../locales/", $tag, "/cli.ftl")),
            include_str!(concat!("../../locales/", $tag, "/errors.ftl")),
        ]
    };
}

/// The catalogue sources, by locale, in the order of [`FILES`]. The pseudo-locale has none of its own: it is
/// English, transformed.
pub(super) const SOURCES: [(Locale, [&str; FILES.len()]); 3] =
    [(Locale::En, catalogue!("en")), (Locale::De, catalogue!("de")), (Locale::Es, catalogue!("es"))];

type Bundle = FluentBundle<FluentResource>;

/// Every locale's bundle. The concurrent flavour, so one catalogue can sit in a static and serve every thread.
pub(super) struct Catalog {
    bundles: Vec<(Locale, Bundle)>,
    /// Every message and attribute of the English pages' files (`id`, `id.attribute`), and the node's state names
    /// (`state-*` of `aiui.ftl`): what a page is sent.
    page_keys: Vec<String>,
}

impl Catalog {
    /// The catalogues compiled into the binary.
    pub(super) fn embedded() -> Self {
        let sources: Vec<(Locale, &str)> =
            SOURCES.iter().flat_map(|(locale, files)| files.iter().map(|text| (*locale, *text))).collect();
        let pages: Vec<&str> = FILES
            .iter()
            .zip(SOURCES[0].1)
            .filter(|(name, _)| PAGE_FILES.contains(name))
            .map(|(_, text)| text)
            .collect();
        let mut catalog = Self::from_sources(&sources);
        catalog.page_keys = pages.iter().flat_map(|text| message_keys(text)).collect();
        let core: Vec<&str> =
            FILES.iter().zip(SOURCES[0].1).filter(|(name, _)| **name == "aiui.ftl").map(|(_, text)| text).collect();
        let states = core.iter().flat_map(|text| message_keys(text)).filter(|key| key.starts_with(PAGE_CORE_PREFIX));
        catalog.page_keys.extend(states);
        catalog
    }

    /// Catalogues from `sources` (a locale may come more than once: each of its files); the pseudo-locale is made
    /// from the English ones. A source with syntax errors keeps the messages that did parse (the tests see to it
    /// that none has any).
    pub(super) fn from_sources(sources: &[(Locale, &str)]) -> Self {
        let mut bundles: Vec<(Locale, Bundle)> = Vec::new();
        let mut add = |locale: Locale, rules: Locale, source: &str| {
            if !bundles.iter().any(|(l, _)| *l == locale) {
                bundles.push((locale, bundle(locale, rules)));
            }
            if let Some((_, bundle)) = bundles.iter_mut().find(|(l, _)| *l == locale) {
                add_source(bundle, locale, source);
            }
        };
        for &(locale, source) in sources {
            add(locale, locale, source);
            if locale == Locale::En {
                add(Locale::Pseudo, Locale::En, source);
            }
        }
        Self { bundles, page_keys: Vec::new() }
    }

    /// See [`super::page_text`].
    pub(super) fn page_text(&self, locale: Locale) -> std::collections::BTreeMap<String, String> {
        self.page_keys
            .iter()
            .map(|key| {
                let text = self.format_unfilled(locale, key).or_else(|why| {
                    tracing::warn!(locale = %locale, key, error = %why, "a page message could not be shown in this locale");
                    self.format_unfilled(Locale::En, key)
                });
                (key.clone(), text.unwrap_or_else(|_| key.clone()))
            })
            .collect()
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
        let args: FluentArgs = args.iter().map(|(name, value)| (*name, value.clone())).collect();
        self.format_with(locale, key, Some(&args), false)
    }

    /// The message with its variables left as `{$name}`, for a page to fill in.
    pub(super) fn format_unfilled(&self, locale: Locale, key: &str) -> Result<String, String> {
        self.format_with(locale, key, None, true)
    }

    fn format_with(
        &self,
        locale: Locale,
        key: &str,
        args: Option<&FluentArgs>,
        unfilled: bool,
    ) -> Result<String, String> {
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
        let mut errors = Vec::new();
        let text = bundle.format_pattern(pattern, args, &mut errors);
        // Unfilled, a variable with no value is written `{$name}`: exactly what the page replaces.
        errors.retain(|e| {
            !(unfilled
                && matches!(e, FluentError::ResolverError(ResolverError::Reference(ReferenceKind::Variable { .. }))))
        });
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

/// Every message and attribute key (`id`, `id.attribute`) of a catalogue source, in its order.
fn message_keys(source: &str) -> Vec<String> {
    let resource = match FluentResource::try_new(source.to_owned()) {
        Ok(resource) | Err((resource, _)) => resource,
    };
    let mut keys = Vec::new();
    for entry in resource.entries() {
        if let fluent_syntax::ast::Entry::Message(message) = entry {
            if message.value.is_some() {
                keys.push(message.id.name.to_owned());
            }
            keys.extend(message.attributes.iter().map(|a| format!("{}.{}", message.id.name, a.id.name)));
        }
    }
    keys
}

/// An empty bundle for `locale`, with plural rules of `rules` (the pseudo-locale counts as English does: Fluent
/// looks plural rules up by exact tag and has none for `en-XA`).
fn bundle(locale: Locale, rules: Locale) -> Bundle {
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
    bundle
}

/// Adds one file's messages to `bundle`.
fn add_source(bundle: &mut Bundle, locale: Locale, source: &str) {
    let resource = FluentResource::try_new(source.to_owned()).unwrap_or_else(|(partial, errors)| {
        tracing::warn!(locale = %locale, ?errors, "a catalogue has syntax errors; the messages that parsed are kept");
        partial
    });
    if let Err(errors) = bundle.add_resource(resource) {
        tracing::warn!(locale = %locale, ?errors, "a catalogue defines a message twice; the first one is kept");
    }
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
