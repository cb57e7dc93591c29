//! The catalogues' own tests: they parse, every locale has every key with the same variables, every message
//! renders everywhere, the fallback never shows a blank, and negotiation picks what the owner's system asks for.

use std::collections::{BTreeMap, BTreeSet};

use fluent_syntax::ast::{self, Entry, Expression, InlineExpression, PatternElement};
use fluent_syntax::parser;

use super::catalog::{Catalog, FILES, PAGE_CORE_PREFIX, PAGE_FILES, SOURCES};
use super::{FluentValue, Locale, pseudo};

/// Every key (`id`, `id.attribute`, `-term`) of a catalogue, with the variables (`$name`) its pattern uses.
fn keys(locale: Locale, source: &str) -> BTreeMap<String, BTreeSet<String>> {
    let resource =
        parser::parse(source).unwrap_or_else(|(_, errors)| panic!("the {locale} catalogue does not parse: {errors:?}"));
    let mut keys = BTreeMap::new();
    let mut add = |key: String, pattern: Option<&ast::Pattern<&str>>, attributes: &[ast::Attribute<&str>]| {
        let mut vars = BTreeSet::new();
        if let Some(pattern) = pattern {
            pattern_vars(pattern, &mut vars);
        }
        for attribute in attributes {
            let mut attribute_vars = BTreeSet::new();
            pattern_vars(&attribute.value, &mut attribute_vars);
            keys.insert(format!("{key}.{}", attribute.id.name), attribute_vars);
        }
        // A message of attributes alone (`.aria-label` and no value) has no text of its own to render.
        if pattern.is_some() {
            keys.insert(key, vars);
        }
    };
    for entry in &resource.body {
        match entry {
            Entry::Message(m) => add(m.id.name.to_owned(), m.value.as_ref(), &m.attributes),
            Entry::Term(t) => add(format!("-{}", t.id.name), Some(&t.value), &t.attributes),
            _ => {}
        }
    }
    keys
}

fn pattern_vars(pattern: &ast::Pattern<&str>, vars: &mut BTreeSet<String>) {
    for element in &pattern.elements {
        if let PatternElement::Placeable { expression } = element {
            expression_vars(expression, vars);
        }
    }
}

fn expression_vars(expression: &Expression<&str>, vars: &mut BTreeSet<String>) {
    match expression {
        Expression::Select { selector, variants } => {
            inline_vars(selector, vars);
            variants.iter().for_each(|v| pattern_vars(&v.value, vars));
        }
        Expression::Inline(inline) => inline_vars(inline, vars),
    }
}

fn inline_vars(inline: &InlineExpression<&str>, vars: &mut BTreeSet<String>) {
    let call_vars = |arguments: &ast::CallArguments<&str>, vars: &mut BTreeSet<String>| {
        arguments.positional.iter().for_each(|a| inline_vars(a, vars));
        arguments.named.iter().for_each(|a| inline_vars(&a.value, vars));
    };
    match inline {
        InlineExpression::VariableReference { id } => {
            vars.insert(id.name.to_owned());
        }
        InlineExpression::FunctionReference { arguments, .. } => call_vars(arguments, vars),
        InlineExpression::TermReference { arguments: Some(arguments), .. } => call_vars(arguments, vars),
        InlineExpression::Placeable { expression } => expression_vars(expression, vars),
        _ => {}
    }
}

/// Each file of the English catalogue with its counterpart in every other locale: `(file, [(locale, source)])`.
fn files_by_locale() -> Vec<(&'static str, Vec<(Locale, &'static str)>)> {
    FILES
        .iter()
        .enumerate()
        .map(|(n, file)| (*file, SOURCES.iter().map(|(locale, texts)| (*locale, texts[n])).collect()))
        .collect()
}

#[test]
fn every_catalogue_parses_without_errors() {
    for (locale, texts) in SOURCES {
        // One bundle per locale holds all its files, as at run time: a key two files define is an error too.
        let mut bundle = fluent_bundle::FluentBundle::new(vec![locale.langid()]);
        for (file, source) in FILES.iter().zip(texts) {
            if let Err((_, errors)) = parser::parse(source) {
                panic!("{locale}/{file} has {} syntax errors: {errors:?}", errors.len());
            }
            // The run-time parser and the bundle must agree: no junk, no key defined twice.
            let resource = fluent_bundle::FluentResource::try_new(source.to_owned())
                .unwrap_or_else(|(_, errors)| panic!("{locale}/{file} fails the run-time parser: {errors:?}"));
            bundle.add_resource(resource).unwrap_or_else(|e| panic!("{locale}/{file}: {e:?}"));
        }
    }
}

#[test]
fn every_locale_has_every_key_with_the_same_variables() {
    assert_eq!(SOURCES[0].0, Locale::En, "English is the reference catalogue");
    let mut problems = Vec::new();
    for (file, sources) in files_by_locale() {
        let english = keys(Locale::En, sources[0].1);
        assert!(!english.is_empty(), "the English {file} is empty");
        for (locale, source) in &sources[1..] {
            let theirs = keys(*locale, source);
            for (key, vars) in &english {
                match theirs.get(key) {
                    None => problems.push(format!("{locale}/{file} lacks `{key}`")),
                    Some(their_vars) if their_vars != vars => {
                        problems.push(format!("{locale}/{file} `{key}` uses {their_vars:?}, English uses {vars:?}"))
                    }
                    Some(_) => {}
                }
            }
            for key in theirs.keys().filter(|k| !english.contains_key(*k)) {
                problems.push(format!("{locale}/{file} has `{key}`, which English does not"));
            }
        }
    }
    assert!(problems.is_empty(), "the catalogues differ:\n{}", problems.join("\n"));
}

#[test]
fn every_message_renders_in_every_locale_without_falling_back() {
    let catalog = Catalog::embedded();
    for english in SOURCES[0].1 {
        for (key, vars) in keys(Locale::En, english) {
            // Numbers where the catalogue selects a plural form on them, words elsewhere.
            let args: Vec<(&str, FluentValue)> = vars
                .iter()
                .map(|v| (v.as_str(), if v == "count" { FluentValue::from(3) } else { FluentValue::from("x") }))
                .collect();
            for locale in Locale::ALL {
                if key.starts_with('-') {
                    continue;
                }
                if let Err(why) = catalog.format(locale, &key, &args) {
                    panic!("`{key}` does not render in {locale}: {why}");
                }
            }
        }
    }
}

#[test]
fn every_page_gets_every_page_message_in_every_locale_with_its_variables_to_fill() {
    let catalog = Catalog::embedded();
    let page_files: Vec<&str> =
        FILES.iter().zip(SOURCES[0].1).filter(|(f, _)| PAGE_FILES.contains(f)).map(|(_, s)| s).collect();
    let mut expected: BTreeMap<String, BTreeSet<String>> =
        page_files.iter().flat_map(|s| keys(Locale::En, s)).filter(|(k, _)| !k.starts_with('-')).collect();
    let core = SOURCES[0].1[FILES.iter().position(|f| *f == "aiui.ftl").expect("aiui.ftl")];
    expected.extend(keys(Locale::En, core).into_iter().filter(|(k, _)| k.starts_with(PAGE_CORE_PREFIX)));
    assert!(expected.contains_key("state-running"), "the pages are sent the node's state names");
    for locale in Locale::ALL {
        let text = super::page_text(locale);
        assert_eq!(text.lang, locale.tag());
        let sent: BTreeSet<&String> = text.messages.keys().collect();
        let wanted: BTreeSet<&String> = expected.keys().collect();
        assert_eq!(sent, wanted, "{locale}: the pages are sent exactly the pages' messages");
        for (key, vars) in &expected {
            let message = &text.messages[key];
            // The page fills `{$name}`; a selector would have been resolved without its variable, so the pages'
            // files have none (checked here: each variable must survive as a placeholder).
            for var in vars {
                assert!(
                    message.contains(&format!("{{${var}}}")),
                    "{locale} `{key}` lost its variable {var}: {message}"
                );
            }
            // Rendered in the locale itself, not by the English fallback.
            assert!(catalog.format_unfilled(locale, key).is_ok(), "{locale} `{key}` fell back");
        }
    }
}

#[test]
fn the_pseudo_pages_have_no_plain_letters_outside_their_placeholders() {
    let text = super::page_text(Locale::Pseudo);
    assert!(!text.messages.is_empty());
    let placeholder = |s: &str| {
        let mut out = String::new();
        let mut rest = s;
        while let Some(start) = rest.find("{$") {
            out.push_str(&rest[..start]);
            rest = rest[start..].find('}').map_or("", |end| &rest[start + end + 1..]);
        }
        out + rest
    };
    for (key, message) in &text.messages {
        let words = placeholder(message);
        assert!(!words.chars().any(|c| c.is_ascii_alphabetic()), "`{key}` escaped the pseudo-locale: {message}");
    }
}

#[test]
fn every_pseudo_message_is_accented_outside_its_variables() {
    // The CLI's lines and the loop's text are rendered, not sent to a page, so their variables are filled in: with
    // a figure, which has no letters, anything plain left is text that escaped the transform.
    let catalog = Catalog::embedded();
    let mut escaped = Vec::new();
    for (file, english) in FILES.iter().zip(SOURCES[0].1) {
        for (key, vars) in keys(Locale::En, english) {
            if key.starts_with('-') {
                continue;
            }
            let args: Vec<(&str, FluentValue)> = vars.iter().map(|v| (v.as_str(), FluentValue::from(3))).collect();
            let text = catalog.format(Locale::Pseudo, &key, &args).unwrap_or_else(|why| panic!("`{key}`: {why}"));
            if text.chars().any(|c| c.is_ascii_alphabetic()) {
                escaped.push(format!("{file} `{key}`: {text}"));
            }
        }
    }
    assert!(escaped.is_empty(), "plain letters in the pseudo-locale:\n{}", escaped.join("\n"));
}

#[test]
fn a_missing_message_falls_back_to_english_and_never_reads_blank() {
    let english = "summary-version = version { $version }\nonly-english = Only in English\n";
    let german = "summary-version = Version { $version }\nblank = { \"\" }\n";
    let catalog = Catalog::from_sources(&[(Locale::En, english), (Locale::De, german)]);
    let version = [("version", FluentValue::from("1.2"))];
    assert_eq!(catalog.text(Locale::De, "summary-version", &version), "Version 1.2");
    assert_eq!(catalog.text(Locale::De, "only-english", &[]), "Only in English");
    // A variable the caller forgot is a formatting error: English, which fails the same way, then the key.
    assert_eq!(catalog.text(Locale::De, "summary-version", &[]), "summary-version");
    // A locale without a catalogue, a message that formats to nothing, a key nobody has.
    assert_eq!(catalog.text(Locale::Es, "summary-version", &version), "version 1.2");
    assert_eq!(catalog.text(Locale::De, "blank", &[]), "blank");
    assert_eq!(catalog.text(Locale::En, "no-such-key", &version), "no-such-key (version: 1.2)");
}

#[test]
fn the_pseudo_locale_is_accented_longer_and_bracketed() {
    let english = "Nobody answered the confirmation in time";
    let pseudo = pseudo::transform(english);
    assert!(!pseudo.chars().any(|c| c.is_ascii_alphabetic()), "{pseudo}");
    let growth = pseudo.chars().count() as f64 / english.chars().count() as f64;
    assert!(growth >= 1.3, "only {growth:.2} times as long: {pseudo}");
    assert_eq!(pseudo::transform("; "), "; ");
    let catalog = Catalog::embedded();
    assert_eq!(catalog.text(Locale::Pseudo, "state-running", &[]), "[ŕúúññííñĝ]");
    // Separators are not messages the owner reads, so they carry no brackets.
    assert_eq!(catalog.text(Locale::Pseudo, "summary-fact-separator", &[]), "; ");
}

#[track_caller]
fn check_negotiate(requested: &[&str], expect: Locale) {
    assert_eq!(Locale::negotiate(requested), expect, "{requested:?}");
}

#[test]
fn negotiation_picks_the_closest_locale_and_falls_back_to_english() {
    check_negotiate(&["de-AT"], Locale::De);
    check_negotiate(&["es-MX", "en"], Locale::Es);
    check_negotiate(&["fr"], Locale::En);
    check_negotiate(&["fr", "de"], Locale::De);
    check_negotiate(&["en-US", "de"], Locale::En);
    check_negotiate(&["en-GB"], Locale::En);
    check_negotiate(&["es-419"], Locale::Es);
    check_negotiate(&["en-XA"], Locale::Pseudo);
    check_negotiate(&["not a tag!", "de"], Locale::De);
    check_negotiate(&[], Locale::En);
}

#[track_caller]
fn check_posix(value: &str, expect: Locale) {
    assert_eq!(Locale::from_posix(value), expect, "{value:?}");
}

#[test]
fn posix_locale_names_are_read_like_the_c_library_does() {
    check_posix("de_DE.UTF-8", Locale::De);
    check_posix("de_CH", Locale::De);
    check_posix("es_ES@euro", Locale::Es);
    check_posix("es_MX.utf8", Locale::Es);
    check_posix("en_US.UTF-8", Locale::En);
    check_posix("en_XA", Locale::Pseudo);
    check_posix("C", Locale::En);
    check_posix("C.UTF-8", Locale::En);
    check_posix("POSIX", Locale::En);
    check_posix("fr_FR.UTF-8", Locale::En);
    check_posix("", Locale::En);
    check_posix("garbage!!", Locale::En);

    let env = |all: Option<&str>, messages: Option<&str>, lang: Option<&str>| {
        Locale::from_env_values([all.map(Into::into), messages.map(Into::into), lang.map(Into::into)])
    };
    assert_eq!(env(None, None, Some("de_DE.UTF-8")), Locale::De);
    assert_eq!(env(None, Some("es_ES.UTF-8"), Some("de_DE.UTF-8")), Locale::Es);
    assert_eq!(env(Some("C"), Some("es_ES.UTF-8"), Some("de_DE.UTF-8")), Locale::En, "LC_ALL overrides");
    assert_eq!(env(Some(""), None, Some("es_ES.UTF-8")), Locale::Es, "an empty variable counts as unset");
    assert_eq!(env(None, None, None), Locale::En);
}

#[test]
fn a_browser_accept_language_header_is_read_by_weight() {
    assert_eq!(Locale::from_accept_language("es-ES,es;q=0.9,en;q=0.8"), Locale::Es);
    assert_eq!(Locale::from_accept_language("en;q=0.5, de-AT;q=0.9"), Locale::De);
    assert_eq!(Locale::from_accept_language("fr-FR, es;q=0.4"), Locale::Es, "a language we lack is passed over");
    assert_eq!(Locale::from_accept_language("de;q=0, es"), Locale::Es, "q=0 means not wanted");
    assert_eq!(Locale::from_accept_language("*"), Locale::En);
    assert_eq!(Locale::from_accept_language(""), Locale::En);
    assert_eq!(Locale::from_accept_language(";;,,q=x"), Locale::En);
    assert_eq!(Locale::from_accept_language("de;q=abc, es"), Locale::Es, "a weight that does not parse drops its tag");
    assert_eq!(Locale::from_accept_language("en-US,en;q=0.9"), Locale::En, "never the pseudo-locale by its region");
}

#[test]
fn a_stored_setting_is_read_back_by_its_tag() {
    for locale in Locale::ALL {
        assert_eq!(Locale::from_tag(locale.tag()), Some(locale));
    }
    assert_eq!(Locale::from_tag("DE"), Some(Locale::De));
    assert_eq!(Locale::from_tag("fr"), None);
    assert_eq!(Locale::from_tag(""), None);
}
