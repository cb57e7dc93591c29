//! Every kind of confirmation summary and confirmation outcome, rendered in every locale: exact text for English,
//! German and Spanish (plural cases with 1 and with 3 dependents), and for the pseudo-locale, proof that no
//! English word escaped the catalogue.

use std::collections::BTreeSet;

use super::{Locale, text};
use crate::node::{NodeMethod, Package, PackageState};
use crate::tools::summary::action_summary;

fn pkg(id: &str, state: PackageState) -> Package {
    Package {
        id: id.into(),
        title: id.into(),
        version: "1".into(),
        state,
        health: None,
        exit_code: None,
        lan_address: None,
    }
}

/// The node's list in every case that has one: `bitcoin-knots` has three installed dependents, `electrs` one.
fn packages() -> Vec<Package> {
    vec![
        pkg("bitcoin-knots", PackageState::Running),
        pkg("lnd", PackageState::Running),
        pkg("electrs", PackageState::Stopped),
        pkg("mempool", PackageState::Running),
        pkg("btcpay", PackageState::NotInstalled),
        pkg("fulcrum", PackageState::Other("Syncing Headers".into())),
        pkg("thunderhub", PackageState::Updating),
    ]
}

/// The words in these cases that come from the node or the call, not from the catalogue.
const NOT_CATALOGUE: &str = "bitcoin-knots lnd electrs mempool btcpay fulcrum thunderhub ghost Syncing Headers";

struct Case {
    method: NodeMethod,
    app: &'static str,
    version: Option<&'static str>,
    /// False: the node's package list could not be read.
    listed: bool,
    en: &'static str,
    de: &'static str,
    es: &'static str,
}

const fn case(method: NodeMethod, app: &'static str, en: &'static str, de: &'static str, es: &'static str) -> Case {
    Case { method, app, version: None, listed: true, en, de, es }
}

const CASES: &[Case] = &[
    case(
        NodeMethod::PackageStart,
        "electrs",
        "Start app `electrs` (stopped)",
        "App `electrs` starten (gestoppt)",
        "Iniciar la app `electrs` (detenida)",
    ),
    case(
        NodeMethod::PackageStop,
        "electrs",
        "Stop app `electrs` (stopped; mempool depends on it)",
        "App `electrs` stoppen (gestoppt; mempool hängt davon ab)",
        "Detener la app `electrs` (detenida; mempool depende de ella)",
    ),
    case(
        NodeMethod::PackageStop,
        "bitcoin-knots",
        "Stop app `bitcoin-knots` (running; 3 apps depend on it: lnd, electrs, mempool)",
        "App `bitcoin-knots` stoppen (läuft; 3 Apps hängen davon ab: lnd, electrs, mempool)",
        "Detener la app `bitcoin-knots` (en ejecución; 3 apps dependen de ella: lnd, electrs, mempool)",
    ),
    case(
        NodeMethod::PackageRestart,
        "electrs",
        "Restart app `electrs` (stopped; mempool depends on it)",
        "App `electrs` neu starten (gestoppt; mempool hängt davon ab)",
        "Reiniciar la app `electrs` (detenida; mempool depende de ella)",
    ),
    case(
        NodeMethod::PackageRestart,
        "bitcoin-knots",
        "Restart app `bitcoin-knots` (running; 3 apps depend on it: lnd, electrs, mempool)",
        "App `bitcoin-knots` neu starten (läuft; 3 Apps hängen davon ab: lnd, electrs, mempool)",
        "Reiniciar la app `bitcoin-knots` (en ejecución; 3 apps dependen de ella: lnd, electrs, mempool)",
    ),
    case(
        NodeMethod::PackageRestart,
        "lnd",
        "Restart app `lnd` (running)",
        "App `lnd` neu starten (läuft)",
        "Reiniciar la app `lnd` (en ejecución)",
    ),
    case(
        NodeMethod::PackageUninstall,
        "electrs",
        "Uninstall app `electrs` (stopped; mempool depends on it)",
        "App `electrs` deinstallieren (gestoppt; mempool hängt davon ab)",
        "Desinstalar la app `electrs` (detenida; mempool depende de ella)",
    ),
    case(
        NodeMethod::PackageUninstall,
        "bitcoin-knots",
        "Uninstall app `bitcoin-knots` (running; 3 apps depend on it: lnd, electrs, mempool)",
        "App `bitcoin-knots` deinstallieren (läuft; 3 Apps hängen davon ab: lnd, electrs, mempool)",
        "Desinstalar la app `bitcoin-knots` (en ejecución; 3 apps dependen de ella: lnd, electrs, mempool)",
    ),
    case(
        NodeMethod::PackageUninstall,
        "ghost",
        "Uninstall app `ghost` (not in the node's package list)",
        "App `ghost` deinstallieren (nicht in der Paketliste des Knotens)",
        "Desinstalar la app `ghost` (no está en la lista de paquetes del nodo)",
    ),
    Case {
        version: Some("1.2.3"),
        ..case(
            NodeMethod::PackageInstall,
            "btcpay",
            "Install app `btcpay` (version 1.2.3; not installed)",
            "App `btcpay` installieren (Version 1.2.3; nicht installiert)",
            "Instalar la app `btcpay` (versión 1.2.3; no instalada)",
        )
    },
    Case {
        version: Some("27.1"),
        ..case(
            NodeMethod::PackageStop,
            "bitcoin-knots",
            "Stop app `bitcoin-knots` (version 27.1; running; 3 apps depend on it: lnd, electrs, mempool)",
            "App `bitcoin-knots` stoppen (Version 27.1; läuft; 3 Apps hängen davon ab: lnd, electrs, mempool)",
            "Detener la app `bitcoin-knots` (versión 27.1; en ejecución; 3 apps dependen de ella: lnd, electrs, \
             mempool)",
        )
    },
    case(
        NodeMethod::PackageStart,
        "thunderhub",
        "Start app `thunderhub` (updating)",
        "App `thunderhub` starten (wird aktualisiert)",
        "Iniciar la app `thunderhub` (actualizándose)",
    ),
    // A state the node made up is shown as the node wrote it, in every locale.
    case(
        NodeMethod::PackageStart,
        "fulcrum",
        "Start app `fulcrum` (Syncing Headers)",
        "App `fulcrum` starten (Syncing Headers)",
        "Iniciar la app `fulcrum` (Syncing Headers)",
    ),
    Case {
        listed: false,
        ..case(
            NodeMethod::PackageRestart,
            "lnd",
            "Restart app `lnd` (state unknown: the node's package list could not be read)",
            "App `lnd` neu starten (Zustand unbekannt: Die Paketliste des Knotens konnte nicht gelesen werden)",
            "Reiniciar la app `lnd` (estado desconocido: no se pudo leer la lista de paquetes del nodo)",
        )
    },
];

fn render(locale: Locale, case: &Case) -> String {
    let packages = packages();
    action_summary(locale, case.method, case.app, case.version, case.listed.then_some(packages.as_slice()))
}

/// The runs of ASCII letters in `text`: in a pseudo-localised text, only what came from outside the catalogue.
fn ascii_words(text: &str) -> BTreeSet<&str> {
    text.split(|c: char| !c.is_ascii_alphabetic()).filter(|w| !w.is_empty()).collect()
}

#[track_caller]
fn check_pseudo(english: &str, pseudo: &str, extra_outside: &str) {
    assert!(pseudo.chars().count() > english.chars().count(), "not longer than English: {pseudo}");
    let outside: BTreeSet<&str> = ascii_words(NOT_CATALOGUE).union(&ascii_words(extra_outside)).copied().collect();
    let escaped: Vec<&str> = ascii_words(english)
        .intersection(&ascii_words(pseudo))
        .filter(|w| w.len() >= 4 && !outside.contains(*w))
        .copied()
        .collect();
    assert!(escaped.is_empty(), "English words {escaped:?} escaped the catalogue: {pseudo}");
}

#[test]
fn every_summary_kind_renders_in_every_locale() {
    for case in CASES {
        assert_eq!(render(Locale::En, case), case.en);
        assert_eq!(render(Locale::De, case), case.de);
        assert_eq!(render(Locale::Es, case), case.es);
        let pseudo = render(Locale::Pseudo, case);
        check_pseudo(case.en, &pseudo, case.version.unwrap_or_default());
        assert!(pseudo.contains(&format!("`{}`", case.app)), "the app id is shown as it is: {pseudo}");
    }
}

#[test]
fn a_method_without_words_of_its_own_is_named_by_its_rpc_name() {
    let rpc = NodeMethod::ContainerLogs.spec().rpc_name;
    let english = format!("Call `{rpc}` for `lnd`");
    let expect = [
        (Locale::En, english.clone()),
        (Locale::De, format!("`{rpc}` für `lnd` aufrufen")),
        (Locale::Es, format!("Llamar a `{rpc}` para `lnd`")),
    ];
    for (locale, expect) in expect {
        assert_eq!(action_summary(locale, NodeMethod::ContainerLogs, "lnd", None, None), expect);
    }
    let pseudo = action_summary(Locale::Pseudo, NodeMethod::ContainerLogs, "lnd", None, None);
    check_pseudo(&english, &pseudo, rpc);
}

#[test]
fn every_package_state_has_words_in_every_locale() {
    let states = [
        PackageState::Running,
        PackageState::Stopped,
        PackageState::Starting,
        PackageState::Stopping,
        PackageState::Restarting,
        PackageState::Installing,
        PackageState::Updating,
        PackageState::Removing,
        PackageState::NotInstalled,
    ];
    for locale in Locale::ALL {
        let words: BTreeSet<String> = states
            .iter()
            .map(|state| {
                let packages = [pkg("lnd", state.clone())];
                action_summary(locale, NodeMethod::PackageStart, "lnd", None, Some(&packages))
            })
            .collect();
        assert_eq!(words.len(), states.len(), "two states read the same in {locale}: {words:?}");
    }
}

#[test]
fn confirmation_outcomes_keep_their_english_and_are_translated() {
    let summary = "Restart app `lnd` (running; btcpay depends on it)";
    let with = |locale, key| text(locale, key, &[("summary", summary.into()), ("error", "the gate is full".into())]);
    assert_eq!(with(Locale::En, "confirm-not-done"), format!("Not done: {summary}. the gate is full"));
    assert_eq!(with(Locale::En, "confirm-declined"), format!("You declined: {summary}. Nothing was changed."));
    assert_eq!(
        with(Locale::En, "confirm-expired"),
        format!("Nobody answered the confirmation in time: {summary}. Nothing was changed.")
    );
    assert_eq!(with(Locale::De, "confirm-not-done"), format!("Nicht ausgeführt: {summary}. the gate is full"));
    assert_eq!(
        with(Locale::De, "confirm-declined"),
        format!("Sie haben abgelehnt: {summary}. Es wurde nichts geändert.")
    );
    assert_eq!(
        with(Locale::De, "confirm-expired"),
        format!("Niemand hat die Bestätigung rechtzeitig beantwortet: {summary}. Es wurde nichts geändert.")
    );
    assert_eq!(with(Locale::Es, "confirm-not-done"), format!("No se hizo: {summary}. the gate is full"));
    assert_eq!(with(Locale::Es, "confirm-declined"), format!("Usted rechazó: {summary}. No se cambió nada."));
    assert_eq!(
        with(Locale::Es, "confirm-expired"),
        format!("Nadie respondió a la confirmación a tiempo: {summary}. No se cambió nada.")
    );
    for key in ["confirm-not-done", "confirm-declined", "confirm-expired"] {
        let english = with(Locale::En, key);
        check_pseudo(&english, &with(Locale::Pseudo, key), &format!("{summary} the gate is full"));
    }
}
