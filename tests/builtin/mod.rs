//! The built-in leg with the real SmolLM2-135M model: intent accuracy over a phrasing table, the loop end to end
//! on the devnode (an act through the gate, a read with its card), and cancellation.

mod table;

use std::sync::Arc;
use std::time::Duration;

use aiui_core::agent::{Event, TurnOutcome};
use aiui_core::backends::BackendId;
use aiui_core::backends::builtin::apps::model_input;
use aiui_core::backends::builtin::{Builtin, BuiltinConfig, Decision, IntentScorer, decide};
use aiui_core::backends::chain::{Chain, Leg};
use aiui_core::gate::Decision as Verdict;
use aiui_core::i18n::Locale;
use aiui_core::tools::Surface;
use aiui_llama::SmolLm;

use crate::support::assistant::{harness_with, ollama_leg};
use crate::support::{PASSWORD, client_for, credentials, start, wait_for_state};
use table::{Expect, TABLE, TABLE_DE, TABLE_ES};

/// The model, shared by the tests of this binary (one load per process, as in the shells).
fn model() -> Arc<SmolLm> {
    crate::support::claude_paid::builtin_model()
}

fn builtin_leg(lexical: bool) -> Leg {
    Leg::Builtin(Builtin::new(BuiltinConfig { enabled: true, scorer: Some(model()), lexical }))
}

/// What a decision amounts to, in the table's terms.
fn outcome_of(decision: &Decision) -> Expect {
    match decision {
        Decision::Act { intent, app } => Expect::Call(
            intent
                .method()
                .map(|m| aiui_core::tools::Registry::node_tools().iter().find(|t| t.method == m).unwrap().name)
                .unwrap_or("none"),
            app.as_ref().map(|(id, _)| id.clone().leak() as &'static str),
        ),
        Decision::Ask { .. } => Expect::Ask,
        Decision::Decline => Expect::Decline,
    }
}

/// A phrasing table: each request with what it must become.
type Table = &'static [(&'static str, Expect)];

/// Each shipped locale's table, the rows it must have, and the share of them model + lexical evidence must get right.
const LOCALES: [(&str, Table, usize, f64); 3] =
    [("en", TABLE, 40, 95.0), ("de", TABLE_DE, 22, 95.0), ("es", TABLE_ES, 22, 95.0)];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_real_model_maps_everyday_requests_to_the_right_tool_and_app() {
    let node = start(|_| {}).await;
    let packages = client_for(&node.node, credentials(PASSWORD)).list_packages().await.unwrap();
    assert!(packages.len() >= 9, "the demo node lists its apps");
    let model = model();
    let mut failures = Vec::new();
    // Every locale is measured and printed before any is asserted, so one locale's miss does not hide the others'.
    for (locale, table, rows, floor) in LOCALES {
        let (mut alone, mut combined) = (0, 0);
        let mut misses = Vec::new();
        for (request, expected) in table {
            let scores = model.score(&model_input(request, &packages)).await.unwrap();
            let by_model = outcome_of(&decide(Locale::En, request, &scores, false, &packages));
            let by_both = outcome_of(&decide(Locale::En, request, &scores, true, &packages));
            alone += usize::from(by_model == *expected);
            combined += usize::from(by_both == *expected);
            if by_both != *expected {
                misses.push(format!("{request:?}: expected {expected:?}, got {by_both:?} (model alone: {by_model:?})"));
            }
        }
        let n = table.len();
        let percent = |k: usize| 100.0 * k as f64 / n as f64;
        eprintln!(
            "built-in intent accuracy [{locale}] over {n} phrasings: model alone {alone}/{n} ({:.1}%), model + \
             lexical evidence {combined}/{n} ({:.1}%)",
            percent(alone),
            percent(combined)
        );
        for miss in &misses {
            eprintln!("  [{locale}] miss: {miss}");
        }
        if n < rows {
            failures.push(format!("[{locale}] the table has {n} phrasings, under {rows}"));
        }
        if percent(combined) < floor {
            failures.push(format!("[{locale}] accuracy {:.1}% is under {floor}%: {misses:#?}", percent(combined)));
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn restart_lnd_with_no_other_leg_waits_for_approval_and_restarts_it() {
    // A dead Ollama first, as on a fresh machine: the step falls through to the built-in leg.
    let chain = Chain::new(vec![ollama_leg("http://127.0.0.1:9/"), builtin_leg(true)]);
    let harness = harness_with(chain, Duration::from_secs(30)).await;
    let (events, outcome) = harness.turn("restart lnd", Some(Verdict::AllowOnce)).await;
    let request = events
        .iter()
        .find_map(|e| match e {
            Event::AwaitingConfirmation { request } => Some(request.clone()),
            _ => None,
        })
        .expect("the restart waits for the owner");
    assert_eq!(request.tool, "package_restart");
    assert_eq!(request.arguments, serde_json::json!({"id": "lnd"}));
    assert!(request.summary.contains("lnd"), "the host-written summary names the app: {}", request.summary);
    let said: Vec<&str> = events
        .iter()
        .filter_map(|e| match e {
            Event::Text { text, backend } => {
                assert_eq!(backend.label(), "built-in (SmolLM2-135M)");
                Some(text.as_str())
            }
            _ => None,
        })
        .collect();
    assert_eq!(said.first(), Some(&"Restarting LND: waiting for your approval."), "{said:?}");
    assert!(events.iter().any(|e| matches!(e, Event::Notice { text } if text.contains("small model"))));
    assert!(
        matches!(outcome, TurnOutcome::Answered { ref text, .. } if text.contains("restart of lnd") && text.contains("restarting")),
        "{outcome:?}"
    );
    assert!(events.iter().any(|e| matches!(e, Event::Surface { surface: Surface::ActionReceipt { .. }, .. })));
    wait_for_state(&client_for(&harness.node.node, credentials(PASSWORD)), "lnd", "running").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn what_is_running_answers_with_the_package_list_and_a_short_answer() {
    let harness = harness_with(Chain::new(vec![builtin_leg(true)]), Duration::from_secs(30)).await;
    let (events, outcome) = harness.turn("what is running?", None).await;
    assert!(events.iter().any(|e| matches!(e, Event::Surface { surface: Surface::PackageList { .. }, .. })));
    let TurnOutcome::Answered { backend, text } = outcome else { panic!("{outcome:?}") };
    assert_eq!(backend, BackendId::Builtin { model: "SmolLM2-135M".into() });
    assert!(text.contains("installed apps are running") && text.contains("LND"), "{text}");
    assert!(text.len() < 300, "a short answer; the card carries the detail: {text}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chit_chat_gets_the_host_written_capabilities_and_no_tool_call() {
    let harness = harness_with(Chain::new(vec![builtin_leg(true)]), Duration::from_secs(30)).await;
    let (events, outcome) = harness.turn("tell me a joke about pirates", None).await;
    assert!(!events.iter().any(|e| matches!(e, Event::ToolProposed { .. })), "{events:?}");
    let TurnOutcome::Answered { text, .. } = outcome else { panic!("{outcome:?}") };
    assert!(text.contains("built-in small model") && text.contains("ollama pull"), "{text}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_turned_off_or_missing_model_is_passed_over_with_a_reason() {
    let off = Builtin::new(BuiltinConfig { enabled: false, scorer: Some(model()), lexical: true });
    assert_eq!(off.check(Locale::En).unwrap_err(), "turned off in the settings");
    assert_eq!(off.check(Locale::De).unwrap_err(), "in den Einstellungen ausgeschaltet");
    let empty = tempfile::tempdir().unwrap();
    let missing = Builtin::new(BuiltinConfig {
        enabled: true,
        scorer: Some(Arc::new(SmolLm::in_dir(empty.path()))),
        lexical: true,
    });
    let reason = missing.check(Locale::En).unwrap_err();
    let looked = empty.path().display().to_string();
    assert!(reason.contains(&looked) && reason.contains("install the package aiui-model-smollm2"), "{reason}");
    let spanish = missing.check(Locale::Es).unwrap_err();
    assert!(spanish.contains(&looked) && spanish.contains("Instale el paquete aiui-model-smollm2"), "{spanish}");
    let harness = harness_with(Chain::new(vec![Leg::Builtin(missing)]), Duration::from_secs(30)).await;
    let (_, outcome) = harness.turn("restart lnd", None).await;
    let TurnOutcome::Stopped { message, .. } = outcome else { panic!("{outcome:?}") };
    assert!(message.contains("built-in model") && message.contains("scripts/fetch-model"), "{message}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_scoring_nobody_waits_for_is_cancelled_and_the_model_keeps_working() {
    let model = model();
    model.load().await.unwrap();
    let before = model.cancelled();
    let first = tokio::spawn({
        let model = model.clone();
        async move { model.score("restart lnd").await }
    });
    tokio::time::sleep(Duration::from_millis(20)).await;
    let abandoned = tokio::time::timeout(Duration::from_millis(1), model.score("stop mempool")).await;
    assert!(abandoned.is_err(), "the second scoring was still queued");
    let scores = first.await.unwrap().unwrap();
    assert_eq!(scores.len(), 13);
    // The engine drops the abandoned job when it takes it from its queue; on a loaded machine that can take a while.
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    while model.cancelled() == before && tokio::time::Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(model.cancelled() > before, "the abandoned scoring was cancelled");
    assert!(model.score("what is running?").await.is_ok(), "the model still scores after a cancellation");
}

/// Every one-tap reply the leg can offer, in every language an owner can tap it in, does what it says: sent back,
/// it is decided as that intent and app by the real model with the lexical cues.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_offered_choice_when_tapped_is_the_action_it_names() {
    use aiui_core::backends::builtin::Intent;
    let node = start(|_| {}).await;
    let packages = client_for(&node.node, credentials(PASSWORD)).list_packages().await.unwrap();
    let model = model();
    let mut wrong = Vec::new();
    for locale in [Locale::En, Locale::De, Locale::Es] {
        for intent in Intent::ALL.into_iter().filter(|i| *i != Intent::Other) {
            let apps: Vec<(&str, &str)> = if intent.needs_app() {
                vec![("lnd", "LND"), ("bitcoin-knots", "Bitcoin Knots")]
            } else {
                vec![("", "")]
            };
            for (id, title) in apps {
                let choice = intent.describe(locale, title);
                let scores = model.score(&model_input(&choice, &packages)).await.unwrap();
                let decided = decide(locale, &choice, &scores, true, &packages);
                let app = intent.needs_app().then(|| (id.to_owned(), title.to_owned()));
                if decided != (Decision::Act { intent, app }) {
                    wrong.push(format!("{locale} {choice:?} → {decided:?}"));
                }
            }
        }
    }
    assert!(wrong.is_empty(), "choices that do not do what they say: {wrong:#?}");
}

/// An ambiguous request is answered with a question and one-tap choices; tapping one runs it through the gate.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_ambiguous_request_offers_choices_and_a_tapped_choice_acts() {
    let harness = harness_with(Chain::new(vec![builtin_leg(true)]), Duration::from_secs(30)).await;
    let (events, outcome) = harness.turn("restart wordpress", None).await;
    assert!(!events.iter().any(|e| matches!(e, Event::ToolProposed { .. })), "it asks instead of guessing");
    let TurnOutcome::Answered { text, .. } = outcome else { panic!("{outcome:?}") };
    assert!(text.starts_with("Which app do you mean?"), "{text}");
    let choices = events
        .iter()
        .find_map(|e| match e {
            Event::Choices { choices } => Some(choices.clone()),
            _ => None,
        })
        .expect("the question comes with one-tap choices");
    assert!(choices.iter().all(|c| c.starts_with("restart ")), "{choices:?}");
    let lnd = choices.iter().find(|c| c.as_str() == "restart LND").expect("LND is one of the choices");
    let (events, _) = harness.turn(lnd, Some(Verdict::Deny)).await;
    let request = events
        .iter()
        .find_map(|e| match e {
            Event::AwaitingConfirmation { request } => Some(request.clone()),
            _ => None,
        })
        .expect("the tapped choice waits for the owner");
    assert_eq!((request.tool.as_str(), &request.arguments), ("package_restart", &serde_json::json!({"id": "lnd"})));
}

/// A restart that names no app asks which, saying what is installed apart from what is only in the node's
/// catalogue, and offers only installed apps (the devnode's Fedimint Guardian, Tailscale and Nextcloud are not).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restart_naming_no_app_offers_only_installed_apps() {
    let harness = harness_with(Chain::new(vec![builtin_leg(true)]), Duration::from_secs(30)).await;
    let packages = client_for(&harness.node.node, credentials(PASSWORD)).list_packages().await.unwrap();
    let not_installed: Vec<&str> = packages
        .iter()
        .filter(|p| p.state == aiui_core::node::PackageState::NotInstalled)
        .map(|p| p.title.as_str())
        .collect();
    assert!(not_installed.contains(&"Tailscale"), "the devnode offers apps it has not installed: {packages:?}");
    let (events, outcome) = harness.turn("restart", None).await;
    assert!(!events.iter().any(|e| matches!(e, Event::ToolProposed { .. })), "it asks instead of guessing");
    let TurnOutcome::Answered { text, .. } = outcome else { panic!("{outcome:?}") };
    assert!(text.starts_with("Which app do you mean?"), "{text}");
    let (installed_part, catalogue_part) = text.split_once("Not installed").unwrap_or((&text, ""));
    let choices = events
        .iter()
        .find_map(|e| match e {
            Event::Choices { choices } => Some(choices.clone()),
            _ => None,
        })
        .expect("the question comes with one-tap choices");
    assert!(!choices.is_empty() && choices.iter().all(|c| c.starts_with("restart ")), "{choices:?}");
    for title in not_installed {
        assert!(!installed_part.contains(title), "{title} is listed as on the node: {text}");
        assert!(catalogue_part.contains(title), "{title} is not said to be installable: {text}");
        assert!(!choices.iter().any(|c| c.contains(title)), "a restart of {title} is offered: {choices:?}");
    }
    assert!(installed_part.contains("LND"), "{text}");
}
