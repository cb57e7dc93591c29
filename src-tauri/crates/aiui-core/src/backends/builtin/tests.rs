//! The built-in leg's decision and answers as pure logic, with hand-made scores (the real model is tested in
//! tests/builtin against the devnode).

use super::answers;
use super::*;

fn packages() -> Vec<Package> {
    [("bitcoin-knots", "Bitcoin Knots"), ("lnd", "LND"), ("electrs", "Electrs"), ("fedimint", "Fedimint Guardian")]
        .iter()
        .map(|(id, title)| {
            serde_json::from_value(json!({"id": id, "title": title, "version": "1", "state": "running"})).unwrap()
        })
        .collect()
}

/// Scores that favour `intent` by `lead` over every other intent.
fn favouring(intent: Intent, lead: f32) -> Vec<f32> {
    Intent::ALL.iter().map(|i| if *i == intent { lead } else { 0.0 }).collect()
}

#[test]
fn a_clear_intent_and_one_named_app_become_that_call() {
    let decision = decide(Locale::En, "restart lnd", &favouring(Intent::Restart, 2.0), false, &packages());
    assert_eq!(decision, Decision::Act { intent: Intent::Restart, app: Some(("lnd".into(), "LND".into())) });
}

#[test]
fn an_app_intent_without_a_known_app_asks_which() {
    let Decision::Ask { question, choices } =
        decide(Locale::En, "restart wordpress", &favouring(Intent::Restart, 2.0), false, &packages())
    else {
        panic!("expected a question")
    };
    assert!(question.contains("Which app") && question.contains("LND"), "{question}");
    assert!(choices.contains(&"restart LND".to_owned()), "{choices:?}");
}

/// The devnode's fresh catalogue: three apps are offered but not installed. They come first and between the
/// installed ones, so that offering the list's first apps would offer them.
fn mixed_packages() -> Vec<Package> {
    [
        ("fedimint", "Fedimint Guardian", "not-installed"),
        ("bitcoin-knots", "Bitcoin Knots", "running"),
        ("tailscale", "Tailscale", "not-installed"),
        ("lnd", "LND", "running"),
        ("electrs", "Electrs", "stopped"),
        ("nextcloud", "Nextcloud", "not-installed"),
        ("mempool", "Mempool", "running"),
        ("btcpay", "BTCPay Server", "running"),
        ("nostr-rs-relay", "Nostr Relay", "running"),
    ]
    .iter()
    .map(|(id, title, state)| {
        serde_json::from_value(json!({"id": id, "title": title, "version": "1", "state": state})).unwrap()
    })
    .collect()
}

const NOT_INSTALLED: [&str; 3] = ["Fedimint Guardian", "Tailscale", "Nextcloud"];

#[test]
fn asking_which_app_says_what_is_installed_and_offers_only_installed_apps_to_act_on() {
    // Not the status: a status naming no app is the list.
    for intent in [Intent::Restart, Intent::Stop, Intent::Start, Intent::Logs, Intent::Uninstall] {
        let Decision::Ask { question, choices } =
            decide(Locale::En, "do it to wordpress", &favouring(intent, 2.0), false, &mixed_packages())
        else {
            panic!("expected a question for {intent:?}")
        };
        let (installed, rest) = question.split_once(" Not installed").unwrap_or_else(|| panic!("{question}"));
        assert!(installed.contains("Installed on your node: Bitcoin Knots, LND, Electrs"), "{question}");
        for title in NOT_INSTALLED {
            assert!(!installed.contains(title), "{title} is said to be installed: {question}");
            assert!(rest.contains(title), "{title} is not mentioned as installable: {question}");
            assert!(!choices.iter().any(|c| c.contains(title)), "{intent:?} offers {title}: {choices:?}");
        }
        assert_eq!(choices.first(), Some(&intent.describe(Locale::En, "Bitcoin Knots")), "{choices:?}");
    }
}

#[test]
fn asking_which_app_to_install_offers_only_apps_not_installed() {
    let Decision::Ask { choices, .. } =
        decide(Locale::En, "install wordpress", &favouring(Intent::Install, 2.0), false, &mixed_packages())
    else {
        panic!("expected a question")
    };
    assert_eq!(choices, ["install Fedimint Guardian", "install Tailscale", "install Nextcloud"]);
}

#[test]
fn a_small_margin_asks_between_the_two_best() {
    let mut scores = favouring(Intent::Restart, 1.0);
    scores[Intent::ALL.iter().position(|i| *i == Intent::Logs).unwrap()] = 0.9;
    let decision = decide(Locale::En, "do lnd", &scores, false, &packages());
    assert_eq!(
        decision,
        Decision::Ask {
            question: "Did you mean: restart LND, or show LND's logs?".into(),
            choices: vec!["restart LND".into(), "show LND's logs".into()]
        }
    );
}

#[test]
fn the_list_intent_naming_one_app_is_that_apps_status_and_other_is_declined() {
    let decision = decide(Locale::En, "is lnd running", &favouring(Intent::ListApps, 2.0), false, &packages());
    assert_eq!(decision, Decision::Act { intent: Intent::Status, app: Some(("lnd".into(), "LND".into())) });
    assert_eq!(
        decide(Locale::En, "tell me a joke", &favouring(Intent::Other, 2.0), false, &packages()),
        Decision::Decline
    );
}

#[test]
fn lexical_evidence_is_added_only_when_asked() {
    // The model alone leans to the logs; the request's own verb outweighs it when evidence is on.
    let mut scores = favouring(Intent::Logs, 1.0);
    scores[Intent::ALL.iter().position(|i| *i == Intent::Restart).unwrap()] = 0.5;
    let alone = decide(Locale::En, "please restart lnd", &scores, false, &packages());
    let both = decide(Locale::En, "please restart lnd", &scores, true, &packages());
    assert!(matches!(alone, Decision::Act { intent: Intent::Logs, .. }), "{alone:?}");
    assert!(matches!(both, Decision::Act { intent: Intent::Restart, .. }), "{both:?}");
}

#[test]
fn a_german_separable_restart_is_a_restart_not_a_start() {
    // The model alone, reading "starte … neu", leans to the start: the words must turn it.
    let mut scores = favouring(Intent::Start, 1.0);
    scores[Intent::ALL.iter().position(|i| *i == Intent::Restart).unwrap()] = 0.5;
    for request in ["Starte LND neu", "Starte LND bitte neu", "LND neu starten", "Starten Sie LND neu"] {
        let decision = decide(Locale::En, request, &scores, true, &packages());
        assert_eq!(
            decision,
            Decision::Act { intent: Intent::Restart, app: Some(("lnd".into(), "LND".into())) },
            "{request}"
        );
    }
    let start = decide(Locale::En, "Starte LND", &scores, true, &packages());
    assert!(matches!(start, Decision::Act { intent: Intent::Start, .. }), "{start:?}");
}

#[test]
fn cues_match_with_and_without_diacritics_and_in_any_case() {
    let evidence = |request: &str| intents::lexical_evidence(request);
    assert_eq!(evidence("Läuft LND?"), evidence("laeuft lnd"));
    assert_eq!(evidence("Läuft LND?"), evidence("LAUFT LND"));
    assert_eq!(evidence("Detén LND"), evidence("deten lnd"));
    assert_eq!(evidence("Lösche Fedimint"), evidence("loesche fedimint"));
    assert_eq!(evidence("Wie viele Lightning-Kanäle?"), evidence("wie viele lightning kanaele"));
    // A decomposed umlaut ("a" and a combining diaeresis) is the same letter.
    assert_eq!(evidence("La\u{308}uft LND?"), evidence("Läuft LND?"));
    assert!(evidence("Läuft LND?").iter().any(|e| *e > 0.0));
}

#[test]
fn spanish_para_asks_for_a_stop_only_when_it_opens_the_request() {
    let stop = Intent::ALL.iter().position(|i| *i == Intent::Stop).unwrap();
    assert!(intents::lexical_evidence("Para LND")[stop] > 0.0);
    assert_eq!(intents::lexical_evidence("Instala Fedimint para pagar")[stop], 0.0);
    assert_eq!(intents::lexical_evidence("¿Para qué sirve LND?")[stop], 0.0);
}

#[test]
fn answers_are_short_and_built_from_the_tool_result() {
    let list = json!({"kind": "package_list", "packages": [
        {"id": "lnd", "title": "LND", "version": "1", "state": "running"},
        {"id": "electrs", "title": "Electrs", "version": "1", "state": "stopped"},
        {"id": "fedimint", "title": "Fedimint Guardian", "version": "1", "state": "not-installed"}
    ]});
    assert_eq!(
        answers::from_result(Locale::En, &list.to_string(), false),
        "1 of 2 installed apps are running: LND. Not running: Electrs (stopped)."
    );
    let receipt = json!({"kind": "action_receipt", "request_id": "r", "tool": "package_restart",
        "rpc_method": "package.restart", "app": "lnd", "outcome": "accepted; `lnd` is now restarting",
        "state": "restarting"});
    assert_eq!(
        answers::from_result(Locale::En, &receipt.to_string(), false),
        "Done: restart of lnd accepted; `lnd` is now restarting."
    );
    assert_eq!(
        answers::from_result(Locale::De, &receipt.to_string(), false),
        "Erledigt: Neustart von lnd angenommen; Zustand von `lnd` jetzt: wird neu gestartet."
    );
    // A receipt stored before the state was kept says what it can, in the owner's language, not the English outcome.
    let older = json!({"kind": "action_receipt", "request_id": "r", "tool": "package_restart",
        "rpc_method": "package.restart", "app": "lnd", "outcome": "accepted; `lnd` is now restarting"});
    assert_eq!(answers::from_result(Locale::Es, &older.to_string(), false), "Hecho: reinicio de lnd aceptado.");
    assert_eq!(
        answers::understood(Locale::En, Intent::Restart, Some("LND")),
        "Restarting LND: waiting for your approval."
    );
}

#[tokio::test]
async fn the_small_model_notice_is_said_once() {
    let leg = Builtin::new(BuiltinConfig::default());
    let body = json!({"messages": [
        {"role": "user", "text": "what is running?"},
        {"role": "assistant", "text": "Listing your apps.", "tool_calls": []},
        {"role": "tool_result", "call_id": "c", "name": "package_list", "content": "{}", "is_error": true}
    ]});
    let first = leg.send(body.clone(), None, Locale::En).await.unwrap();
    let second = leg.send(body, None, Locale::En).await.unwrap();
    assert_eq!(first.notices.len(), 1);
    assert!(second.notices.is_empty());
    assert_eq!(first.backend.label(), "built-in (SmolLM2-135M)");
    assert!(!first.backend.is_cloud());
}

/// The locales whose choices an owner can tap and be understood in. The pseudo-locale is for seeing layouts, not
/// for talking: its accented words are no cue in any language.
const SPOKEN: [Locale; 3] = [Locale::En, Locale::De, Locale::Es];

#[test]
fn every_offered_choice_in_every_locale_when_tapped_decides_its_own_intent_and_app() {
    // A neutral model: the choice's own words must carry it, as they would against any model's lean.
    let neutral = vec![0.0; Intent::ALL.len()];
    let mut wrong = Vec::new();
    for locale in SPOKEN {
        for intent in Intent::ALL.into_iter().filter(|i| *i != Intent::Other) {
            let apps: &[(&str, &str)] =
                if intent.needs_app() { &[("lnd", "LND"), ("bitcoin-knots", "Bitcoin Knots")] } else { &[("", "")] };
            for (id, title) in apps {
                let choice = intent.describe(locale, title);
                let decided = decide(locale, &choice, &neutral, true, &packages());
                let app = intent.needs_app().then(|| (id.to_string(), title.to_string()));
                if decided != (Decision::Act { intent, app }) {
                    wrong.push(format!("{locale} {choice:?} → {decided:?}"));
                }
            }
        }
    }
    assert!(wrong.is_empty(), "choices that do not do what they say: {wrong:#?}");
}

#[test]
fn the_choices_a_question_offers_are_in_its_locale_and_each_tapped_acts() {
    let neutral = vec![0.0; Intent::ALL.len()];
    for locale in SPOKEN {
        for intent in [Intent::Restart, Intent::Stop, Intent::Logs, Intent::Install] {
            let Decision::Ask { question, choices } =
                decide(locale, "wordpress", &favouring(intent, 2.0), false, &mixed_packages())
            else {
                panic!("expected a question for {intent:?} in {locale}")
            };
            assert!(!choices.is_empty(), "{locale} {intent:?}: {question}");
            for choice in &choices {
                assert_eq!(choice, &intent.describe(locale, choice_title(choice)), "{locale}: {choice}");
                let decided = decide(locale, choice, &neutral, true, &mixed_packages());
                assert!(matches!(&decided, Decision::Act { intent: i, app: Some(_) } if *i == intent), "{choice:?}");
            }
        }
    }
}

/// The app title in one of [`mixed_packages`]' choices.
fn choice_title(choice: &str) -> &'static str {
    let titles = ["Bitcoin Knots", "LND", "Electrs", "Mempool", "BTCPay Server", "Nostr Relay"];
    titles.into_iter().chain(NOT_INSTALLED).find(|t| choice.contains(t)).unwrap_or_default()
}

#[test]
fn questions_and_answers_are_in_the_turns_locale() {
    let Decision::Ask { question, choices } =
        decide(Locale::De, "starte wordpress neu", &favouring(Intent::Restart, 2.0), false, &mixed_packages())
    else {
        panic!("expected a question")
    };
    assert_eq!(
        question,
        "Welche App meinen Sie? Ich habe „… neu starten“ verstanden, aber keine App dieses Namens gefunden. Auf Ihrem \
         Knoten installiert: Bitcoin Knots, LND, Electrs, Mempool, BTCPay Server, Nostr Relay. Nicht installiert, zur \
         Installation verfügbar: Fedimint Guardian, Tailscale, Nextcloud."
    );
    assert_eq!(choices, ["Bitcoin Knots neu starten", "LND neu starten", "Electrs neu starten", "Mempool neu starten"]);

    let mut scores = favouring(Intent::Restart, 1.0);
    scores[Intent::ALL.iter().position(|i| *i == Intent::Logs).unwrap()] = 0.9;
    let Decision::Ask { question, .. } = decide(Locale::Es, "lnd", &scores, false, &packages()) else {
        panic!("expected a question")
    };
    assert_eq!(question, "¿Quiso decir: Reinicia LND o Muestra los registros de LND?");

    let list = json!({"kind": "package_list", "packages": [
        {"id": "lnd", "title": "LND", "version": "1", "state": "running"},
        {"id": "electrs", "title": "Electrs", "version": "1", "state": "stopped"}
    ]});
    assert_eq!(
        answers::from_result(Locale::De, &list.to_string(), false),
        "1 von 2 installierten Apps läuft: LND. Nicht gestartet: Electrs (gestoppt)."
    );
    assert_eq!(
        answers::from_result(Locale::Es, &list.to_string(), false),
        "1 de 2 apps instaladas está en ejecución: LND. Sin ejecutar: Electrs (detenida)."
    );
    assert_eq!(
        answers::understood(Locale::Es, Intent::Restart, Some("LND")),
        "Reiniciando LND: esperando su aprobación."
    );
    // Outside what the leg does, it says so in the owner's language.
    assert!(answers::capabilities(Locale::De).starts_with("Ich bin das eingebaute kleine Modell"));
    assert!(answers::capabilities(Locale::Es).starts_with("Soy el modelo pequeño integrado"));
}

#[tokio::test]
async fn the_leg_speaks_the_locale_it_is_sent() {
    let leg = Builtin::new(BuiltinConfig::default());
    let body = json!({"messages": [
        {"role": "user", "text": "was läuft?"},
        {"role": "assistant", "text": "", "tool_calls": []},
        {"role": "tool_result", "call_id": "c", "name": "package_list", "content": "node down", "is_error": true}
    ]});
    let turn = leg.send(body, None, Locale::De).await.unwrap();
    assert_eq!(turn.text, "Das hat nicht geklappt: node down");
    assert!(turn.notices[0].starts_with("Antworten kommen jetzt vom eingebauten kleinen Modell"), "{:?}", turn.notices);
}

#[test]
fn every_kiosk_suggestion_in_every_locale_when_tapped_decides_what_it_asks() {
    let neutral = vec![0.0; Intent::ALL.len()];
    // Why an app stopped is answered from its logs or its status; both read what happened.
    let cases: [(&str, Option<&str>, &[Intent]); 6] = [
        ("suggest-why-stopped", Some("Electrs"), &[Intent::Logs, Intent::Status]),
        ("suggest-sync", None, &[Intent::BitcoinSync]),
        ("suggest-running", None, &[Intent::ListApps]),
        ("suggest-start", Some("Electrs"), &[Intent::Start]),
        ("suggest-restart", Some("LND"), &[Intent::Restart]),
        ("suggest-system", None, &[Intent::SystemStats]),
    ];
    let mut wrong = Vec::new();
    for locale in SPOKEN {
        for (key, app, intents) in cases {
            let args: Vec<(&str, i18n::FluentValue)> = app.map(|a| ("app", a.into())).into_iter().collect();
            let suggestion = i18n::text(locale, key, &args);
            let decided = decide(locale, &suggestion, &neutral, true, &packages());
            let ok = intents.iter().any(|intent| {
                let app = intent.needs_app().then(|| {
                    let title = app.unwrap_or_default();
                    (title.to_lowercase(), title.to_owned())
                });
                decided == Decision::Act { intent: *intent, app }
            });
            if !ok {
                wrong.push(format!("{locale} {suggestion:?} → {decided:?}"));
            }
        }
    }
    assert!(wrong.is_empty(), "suggestions the built-in leg does not understand: {wrong:#?}");
}
