//! The Routstr leg end to end: a provider discovered on a real relay, paid with real Cashu at a real mint, every
//! payment outcome settled, and hostile announcements refused.

use aiui_core::agent::{Event, StopReason, TurnOutcome};
use aiui_core::backends::Cost;
use aiui_core::backends::routstr::ROUTSTR_MAX_TOKENS;
use aiui_core::backends::routstr::discovery::{Discovery, Rejected, parse_announcement};
use aiui_core::gate::Decision;
use nostr_sdk::prelude::{EventBuilder, Keys, Kind, Tag, Timestamp};
use serde_json::{Value, json};

use crate::support::paid::{FUNDED, discovery_config, openai, paid};
use crate::support::provider::{Fault, TestProvider};
use crate::support::relay::TestRelay;
use crate::support::{capture, mint::TestMint};

fn tool_results(body: &Value) -> Vec<Value> {
    body["messages"].as_array().unwrap().iter().filter(|m| m["role"] == "tool").cloned().collect()
}

#[tokio::test]
async fn a_discovered_provider_is_paid_runs_a_gated_tool_and_returns_change() {
    let p = paid(1000, vec![openai("call_restart_lnd.json"), openai("answer_restarted.json")]).await;
    let (events, outcome) = p.h.turn("restart lnd", Some(Decision::AllowOnce)).await;
    let TurnOutcome::Answered { backend, text } = outcome else { panic!("{outcome:?}") };
    // The provider's self-chosen name, with a short form of its key that an impostor could not copy.
    let key = aiui_core::backends::routstr::short_key(&p.provider.keys.public_key().to_hex());
    assert_eq!(backend.label(), format!("Routstr aiui test provider ({key}) (toolbot)"));
    assert!(text.contains("restarting"));
    assert!(events.iter().any(|e| matches!(e, Event::AwaitingConfirmation { .. })), "the act went through the gate");
    assert_eq!(p.h.node.node.calls().iter().filter(|c| *c == "package.restart").count(), 1);
    // The id of the OpenAI tool call is echoed as tool_call_id in the second paid request.
    let bodies = p.provider.state.bodies.lock().unwrap().clone();
    assert_eq!(bodies.len(), 2);
    assert_eq!(tool_results(&bodies[1])[0]["tool_call_id"], "call_Xq1mV9rWkXlb8QJ2");
    for body in &bodies {
        assert_eq!(body["max_tokens"], ROUTSTR_MAX_TOKENS, "every request carries max_tokens");
        assert_eq!(body["stream"], false);
    }
    let charged = p.provider.state.charged.load(std::sync::atomic::Ordering::SeqCst) as u64;
    let report = p.budget.get();
    assert_eq!(report.spent_sats, charged, "spent = paid - change, which is what the provider charged");
    assert!(charged > 0 && report.reserved_sats == 0);
    // Each answer's cost is what left the wallet for it: the two steps' sats add up to the spend, and are stored.
    let steps: Vec<Cost> =
        events.iter().filter_map(|e| if let Event::Spent { step, .. } = e { Some(step.cost) } else { None }).collect();
    assert_eq!(steps.len(), 2, "{steps:?}");
    let step_sats: u64 = steps.iter().map(|c| if let Cost::Sats { sats } = c { *sats } else { panic!("{c:?}") }).sum();
    assert_eq!(step_sats, charged, "{steps:?}");
    let stored = p.h.agent.store.load(&p.h.conversation).unwrap();
    let detail = aiui_core::view::ConversationDetail::from(stored);
    assert_eq!(detail.total.sats, charged);
    assert_eq!(detail.total.label, format!("{charged} sats"));
    let sums = p.conservation().await;
    p.assert_conserved(sums);
    assert_eq!(sums.wallet_balance, FUNDED - charged, "the change came back into the wallet");
}

#[tokio::test]
async fn a_warm_discovery_cache_makes_no_relay_request() {
    let p = paid(1000, vec![openai("answer_plain.json"), openai("answer_plain.json")]).await;
    p.h.turn("hello", None).await;
    let after_first = p.relay.queries();
    assert!(after_first >= 1, "the first turn discovered on the relay");
    let (_, outcome) = p.h.turn("again", None).await;
    assert!(matches!(outcome, TurnOutcome::Answered { .. }), "{outcome:?}");
    assert_eq!(p.relay.queries(), after_first, "the second turn made no relay round trip");
}

/// Issue 13's goal, counted at the mint (AIUI's requests only, not the provider's redemptions): at most two mint
/// round trips per paid request, and the sends the requests left open in cdk are closed later with one checkstate.
#[tokio::test]
async fn a_paid_request_makes_at_most_two_mint_requests() {
    let p = paid(1000, (0..3).map(|_| openai("answer_plain.json")).collect()).await;
    for turn in 0..3 {
        let before = p.mint.aiui_requests();
        let (_, outcome) = p.h.turn("Is everything running?", None).await;
        assert!(matches!(outcome, TurnOutcome::Answered { .. }), "{outcome:?}");
        let made = p.mint.aiui_requests() - before;
        assert!(made <= 2, "turn {turn}: {made} mint requests ({:?})", p.mint.aiui_requests_by_path());
    }
    let checkstates = |p: &crate::support::paid::Paid| {
        p.mint.aiui_requests_by_path().iter().find(|(path, _)| path == "/v1/checkstate").map_or(0, |(_, n)| *n)
    };
    let before = checkstates(&p);
    p.payments.reconcile().await.expect("reconcile runs");
    assert_eq!(checkstates(&p) - before, 1, "three settled sends, one checkstate");
    let again = checkstates(&p);
    p.payments.reconcile().await.expect("reconcile runs");
    assert_eq!(checkstates(&p), again, "the closed sends are not asked about again");
    p.assert_ceiling_and_conservation().await;
}

#[tokio::test]
async fn openai_string_arguments_are_parsed_once_at_the_edge() {
    let p = paid(1000, vec![openai("call_bad_arguments.json"), openai("answer_plain.json")]).await;
    let (_, outcome) = p.h.turn("show lnd logs", None).await;
    assert!(matches!(outcome, TurnOutcome::Answered { .. }), "a malformed call is not a crash: {outcome:?}");
    let bodies = p.provider.state.bodies.lock().unwrap().clone();
    let results = tool_results(&bodies[1]);
    assert_eq!(results.len(), 2);
    assert_eq!(results[0]["tool_call_id"], "call_Double01");
    assert!(results[0]["content"].as_str().unwrap().contains("JSON-encoded twice"), "{}", results[0]);
    assert_eq!(results[1]["tool_call_id"], "call_Broken02");
    assert!(results[1]["content"].as_str().unwrap().contains("not valid JSON"), "{}", results[1]);
    assert!(!p.h.node.node.calls().iter().any(|c| c == "container-logs"), "never run with `{{}}` instead");
    // The history echoes what the model sent, not a silently repaired `{}`.
    let calls =
        &bodies[1]["messages"].as_array().unwrap().iter().find(|m| m["role"] == "assistant").unwrap()["tool_calls"];
    assert_eq!(calls[1]["function"]["arguments"], "{\"id\": \"lnd\"");
}

#[tokio::test]
async fn no_provider_found_falls_through_not_errors() {
    let p = paid(1000, vec![]).await;
    let empty = TestRelay::start().await;
    let discovery = Discovery::new(discovery_config(&empty.url));
    assert!(discovery.providers().await.is_empty(), "finding nothing is an empty list");
    // The same through the loop: a relay with no provider means "no backend", with the reason.
    drop(p.relay);
    let (_, outcome) = p.h.turn("hello", None).await;
    let TurnOutcome::Stopped { reason: StopReason::NoBackend, message } = outcome else { panic!("{outcome:?}") };
    assert!(message.contains("no usable Routstr provider on the configured relays"), "{message}");
    assert!(
        message.contains("could not connect: the connection was refused"),
        "the discovery report says why: {message}"
    );
}

/// Each failure mode of routstr.md §2/§7, with the conservation invariant checked after it.
#[tokio::test]
async fn the_fault_matrix_never_loses_a_sat() {
    // 402 once: the token is reclaimed and the step is paid again at the provider's price.
    let p = paid(1000, vec![openai("answer_plain.json")]).await;
    p.provider.arm(Fault::PaymentRequired, 0);
    let (_, outcome) = p.h.turn("hello", None).await;
    assert!(matches!(outcome, TurnOutcome::Answered { .. }), "402 then a paid retry: {outcome:?}");
    assert_eq!(p.provider.state.bodies.lock().unwrap().len(), 2);
    let sums = p.conservation().await;
    p.assert_conserved(sums);

    for (fault, pending_425, expect) in [
        (Fault::UpstreamError, 0, "refunded"),
        (Fault::InternalNoChange, 1, "refunded"),
        (Fault::AlreadySpent, 0, "back in the wallet"),
    ] {
        let p = paid(1000, vec![]).await;
        p.provider.arm(fault, pending_425);
        let (_, outcome) = p.h.turn("hello", None).await;
        let TurnOutcome::Stopped { reason: StopReason::NoBackend, message } = outcome else {
            panic!("{fault:?}: {outcome:?}")
        };
        assert!(message.contains(expect), "{fault:?}: {message}");
        // The legs passed over before Routstr are named too, so the owner sees every way to get an answer.
        assert!(
            message.contains("- local model (Ollama):") && message.contains("- Claude: no Claude API key"),
            "{message}"
        );
        let sums = p.conservation().await;
        p.assert_conserved(sums);
        assert_eq!(sums.in_flight, 0, "{fault:?}: nothing left hanging");
        assert_eq!(sums.wallet_balance, FUNDED, "{fault:?}: every sat came back");
        assert_eq!(p.budget.get().spent_sats, 0, "{fault:?}: nothing counted as spent");
    }

    // Unreachable after selection: the provider answered its probe, then went away.
    let p = paid(1000, vec![openai("answer_plain.json")]).await;
    p.h.turn("warm up the caches", None).await;
    p.provider.stop();
    let before = p.conservation().await;
    let (_, outcome) = p.h.turn("hello", None).await;
    let TurnOutcome::Stopped { message, .. } = outcome else { panic!("{outcome:?}") };
    assert!(message.contains("could not be reached") && message.contains("back in the wallet"), "{message}");
    let sums = p.conservation().await;
    p.assert_conserved(sums);
    assert_eq!(sums.wallet_balance, before.wallet_balance);
}

fn announcement(keys: &Keys, tags: Vec<Tag>, content: String, at: Timestamp) -> nostr_sdk::Event {
    EventBuilder::new(Kind::Custom(38421), content)
        .tags(tags)
        .custom_created_at(at)
        .sign_with_keys(keys)
        .expect("signing works")
}

/// Hostile or broken announcements are refused, each with a logged reason, and the good one still comes through.
#[tokio::test]
async fn hostile_announcements_are_refused_with_a_reason() {
    let capture = capture::global();
    let mark = capture.mark();
    let mint = TestMint::start().await;
    let relay = TestRelay::start().await;
    let good = TestProvider::start(&mint.url(), vec![]).await;
    good.announce(&relay.url, &mint.url()).await;
    let content = json!(json!({"name": "x"}).to_string()).to_string();
    let tags = |u: Option<&str>| {
        let mut t = vec![Tag::identifier("hostile")];
        if let Some(u) = u {
            t.push(Tag::parse(["u", u]).unwrap());
        }
        t.push(Tag::parse(["mint", mint.url().as_str()]).unwrap());
        t
    };
    let now = Timestamp::now();
    let future = Timestamp::from(now.as_secs() + 3600);
    let no_u = announcement(&Keys::generate(), tags(None), content.clone(), now);
    let future_dated = announcement(&Keys::generate(), tags(Some("https://8.8.8.8/")), content.clone(), future);
    let huge = announcement(&Keys::generate(), tags(Some("https://8.8.8.8/")), "x".repeat(10 * 1024 * 1024), now);
    // A forgery: a well-formed event whose signature was made for another event.
    let mut forged = announcement(&Keys::generate(), tags(Some("https://8.8.8.8/")), content.clone(), now);
    forged.sig = announcement(&Keys::generate(), tags(None), content.clone(), now).sig;
    for event in [&no_u, &future_dated, &huge, &forged] {
        relay.plant(event).await;
    }

    // The 10 MiB event is logged frame by frame at TRACE into the capture: on a loaded machine reading it takes
    // longer than the usual test timeout, and a relay cut off early would hide the events after it.
    let config = aiui_core::backends::routstr::discovery::DiscoveryConfig {
        timeout: std::time::Duration::from_secs(120),
        ..discovery_config(&relay.url)
    };
    let found = Discovery::new(config).discover().await;
    let report = found.report.lines(true, aiui_core::i18n::Locale::En).join("\n");
    assert_eq!(
        found.report.relays[0].outcome,
        aiui_core::backends::routstr::discovery::RelayOutcome::Answered,
        "{report}"
    );
    let endpoints: Vec<String> =
        found.announcements.iter().flat_map(|a| a.endpoints.iter().map(|u| u.to_string())).collect();
    assert_eq!(endpoints, std::slice::from_ref(&good.url), "only the honest provider is kept:\n{report}");
    let logs = capture.since(mark);
    // Discovery reads relays itself, so a forged event reaches its checks and is logged once, with its id and the
    // reason, instead of by the relay pool at ERROR level with its whole JSON.
    assert!(!logs.contains("Impossible to handle relay message"), "{logs}");
    assert_eq!(parse_announcement(&forged, Timestamp::now()), Err(Rejected::BadSignature));
    for (event, reason) in [
        (&forged, "the signature does not verify"),
        (&no_u, "no `u` (endpoint) tag"),
        (&future_dated, "in the future"),
        (&huge, "over the 65536-byte cap"),
    ] {
        let line = logs
            .lines()
            .find(|l| l.contains(&event.id.to_hex()) && l.contains("provider announcement refused"))
            .unwrap_or_else(|| panic!("no log for {reason}; the report:\n{report}"));
        assert!(line.contains(reason), "{reason}: {line}");
    }

    // A loopback endpoint is refused by the SSRF guard unless a test configuration allows it.
    use aiui_core::net::guard::{AddressPolicy, check_endpoint};
    let loopback = url::Url::parse(&good.url).unwrap();
    let refused = check_endpoint(&loopback, AddressPolicy::PublicOnly, false).await.expect_err("loopback refused");
    assert!(refused.to_string().contains("loopback"), "{refused}");
}

#[tokio::test]
async fn an_announced_loopback_endpoint_is_never_paid_without_the_test_allowance() {
    let capture = capture::global();
    let mark = capture.mark();
    let p = paid(1000, vec![openai("answer_plain.json")]).await;
    let config = aiui_core::backends::routstr::RoutstrConfig {
        model: crate::support::provider::MODEL.into(),
        ..Default::default()
    };
    let routstr = aiui_core::backends::routstr::Routstr::new(config, p.discovery.clone(), p.payments.clone()).unwrap();
    let request =
        aiui_core::backends::ChatRequest { system: "s".into(), messages: vec![], tools: vec![], max_tokens: 10 };
    let err = routstr.check(&request, &p.budget.payment_policy()).await.expect_err("no usable provider");
    assert!(err.contains("no Routstr provider"), "{err}");
    assert!(capture.since(mark).contains("a loopback address"), "the refusal is logged with its reason");
    assert!(p.provider.state.bodies.lock().unwrap().is_empty(), "nothing was sent to it");
}

/// What `aiui-cli providers` lists: discovered, probed, with mints and a price, and nothing paid.
#[tokio::test]
async fn providers_are_listed_with_mints_and_prices_without_paying() {
    let p = paid(1000, vec![]).await;
    let config = aiui_core::backends::routstr::RoutstrConfig {
        address_policy: aiui_core::net::guard::AddressPolicy::AllowPrivateForTests,
        ..Default::default()
    };
    let listed = aiui_core::backends::routstr::discover_and_probe(&p.discovery, &config).await.unwrap().providers;
    assert_eq!(listed.len(), 1);
    let provider = &listed[0];
    let key = aiui_core::backends::routstr::short_key(&p.provider.keys.public_key().to_hex());
    assert_eq!(provider.label(), format!("aiui test provider ({key})"));
    assert!(key.starts_with("npub1") && key.contains('…'), "{key}");
    assert_eq!(provider.mints, [p.mint.url()]);
    let price = provider.price_for("vendor/toolbot").expect("matched without the vendor prefix");
    assert_eq!((price.prompt, price.completion), (0.01, 0.05));
    assert!(p.provider.state.bodies.lock().unwrap().is_empty());
    assert_eq!(p.conservation().await.wallet_balance, FUNDED);
}
