//! The catalogues' own tests: they parse, every locale has every key with the same variables, every message
//! renders everywhere, the fallback never shows a blank, and negotiation picks what the owner's system asks for.

use std::collections::{BTreeMap, BTreeSet};

use fluent_syntax::ast::{self, Entry, Expression, InlineExpression, PatternElement};
use fluent_syntax::parser;

use super::catalog::{Catalog, SOURCES};
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
        keys.insert(key, vars);
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

#[test]
fn every_catalogue_parses_without_errors() {
    for (locale, source) in SOURCES {
        if let Err((_, errors)) = parser::parse(source) {
            panic!("the {locale} catalogue has {} syntax errors: {errors:?}", errors.len());
        }
        // The run-time parser and the bundle must agree: no junk, no key defined twice.
        let resource = fluent_bundle::FluentResource::try_new(source.to_owned())
            .unwrap_or_else(|(_, errors)| panic!("the {locale} catalogue fails the run-time parser: {errors:?}"));
        let mut bundle = fluent_bundle::FluentBundle::new(vec![locale.langid()]);
        bundle.add_resource(resource).unwrap_or_else(|e| panic!("the {locale} catalogue: {e:?}"));
    }
}

#[test]
fn every_locale_has_every_key_with_the_same_variables() {
    let (reference, source) = SOURCES[0];
    assert_eq!(reference, Locale::En, "English is the reference catalogue");
    let english = keys(reference, source);
    assert!(!english.is_empty(), "the English catalogue is empty");
    let mut problems = Vec::new();
    for (locale, source) in &SOURCES[1..] {
        let theirs = keys(*locale, source);
        for (key, vars) in &english {
            match theirs.get(key) {
                None => problems.push(format!("{locale} lacks `{key}`")),
                Some(their_vars) if their_vars != vars => {
                    problems.push(format!("{locale} `{key}` uses {their_vars:?}, English uses {vars:?}"))
                }
                Some(_) => {}
            }
        }
        for key in theirs.keys().filter(|k| !english.contains_key(*k)) {
            problems.push(format!("{locale} has `{key}`, which English does not"));
        }
    }
    assert!(problems.is_empty(), "the catalogues differ:\n{}", problems.join("\n"));
}

#[test]
fn every_message_renders_in_every_locale_without_falling_back() {
    let catalog = Catalog::embedded();
    for (key, vars) in keys(Locale::En, SOURCES[0].1) {
        // Numbers where the catalogue selects a plural form on them, words elsewhere.
        let args: Vec<(&str, FluentValue)> = vars
            .iter()
            .map(|v| (v.as_str(), if v == "count" { FluentValue::from(3) } else { FluentValue::from("x") }))
            .collect();
        for locale in Locale::ALL {
            if let Err(why) = catalog.format(locale, &key, &args) {
                panic!("`{key}` does not render in {locale}: {why}");
            }
        }
    }
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
