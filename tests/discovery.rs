//! Discovery against relays written by others and against broken ones: which events are used, what the report
//! says for each relay and each event, and that a refused or silent relay costs only what it must.

use std::time::{Duration, Instant};

use aiui_core::backends::routstr::discovery::{
    Discovery, DiscoveryConfig, DiscoveryReport, Refusal, Rejected, RelayOutcome, ReviewMode, ReviewerStatus, Verdict,
};
use nostr_sdk::prelude::{Client, Event, EventBuilder, Keys, Kind, Tag, Timestamp, ToBech32};
use serde_json::json;

use crate::support::capture;
use crate::support::python_relay::PythonRelay;
use crate::support::relay::TestRelay;
use crate::support::stub_relay::{Script, StubRelay, refused_url};

fn config(relays: &[&str]) -> DiscoveryConfig {
    DiscoveryConfig {
        relays: relays.iter().map(|r| (*r).to_owned()).collect(),
        // Long enough that a loaded machine never cuts an answering relay short; tests that wait for a timeout
        // set their own.
        timeout: Duration::from_secs(15),
        review_mode: ReviewMode::Any,
        ..DiscoveryConfig::default()
    }
}

fn sign(keys: &Keys, kind: u16, tags: &[&[&str]], at: u64) -> Event {
    let content = json!(json!({"name": "provider", "about": "test"}).to_string()).to_string();
    EventBuilder::new(Kind::Custom(kind), content)
        .tags(tags.iter().map(|t| Tag::parse(t.iter().copied()).unwrap()))
        .custom_created_at(Timestamp::from(at))
        .sign_with_keys(keys)
        .unwrap()
}

fn now() -> u64 {
    Timestamp::now().as_secs()
}

/// Publishes through nostr-sdk, as a provider would, and fails unless the relay accepted each event.
async fn publish(relay: &str, events: &[&Event]) {
    let client = Client::builder().build();
    client.add_relay(relay).await.unwrap();
    client.connect().await;
    for event in events {
        let output = client.send_event(event).await.unwrap_or_else(|e| panic!("{relay} refused {}: {e}", event.id));
        assert!(output.failed.is_empty(), "{relay} refused {}: {:?}", event.id, output.failed);
    }
    client.disconnect().await;
}

fn verdict<'r>(report: &'r DiscoveryReport, event: &Event) -> &'r Verdict {
    let id = event.id.to_hex();
    &report.events.iter().find(|e| e.id == id).unwrap_or_else(|| panic!("{id} not in the report:\n{report}")).verdict
}

fn refused(why: Refusal) -> Verdict {
    Verdict::Refused { why }
}

/// The Python `nostr_relay` from PyPI, with events published by the test: every rule of routstr.md §1 applied
/// to what a relay written by others stores and serves.
#[tokio::test(flavor = "multi_thread")]
async fn a_relay_written_by_others_serves_announcements_that_are_checked_by_the_rules() {
    let relay = tokio::task::spawn_blocking(PythonRelay::start).await.unwrap();
    let (alpha, beta, gamma, delta, reviewer) =
        (Keys::generate(), Keys::generate(), Keys::generate(), Keys::generate(), Keys::generate());
    let t = now();
    let current = sign(&alpha, 38421, &[&["d", "alpha"], &["u", "https://alpha.example/"]], t - 60);
    let replaced = sign(&alpha, 38421, &[&["d", "alpha"], &["u", "https://alpha-old.example/"]], t - 3600);
    // 20 minutes ahead: inside the relay's hour of tolerance, beyond discovery's 15 minutes.
    let future = sign(&beta, 38421, &[&["d", "beta"], &["u", "https://beta.example/"]], t + 20 * 60);
    // A note of another kind with the tags of an announcement, signed by a reviewed key.
    let note = sign(&alpha, 1, &[&["d", "alpha"], &["u", "https://evil.example/"]], t);
    // Two `d` tags: relays key by the first, so the newer single-`d` event replaces it.
    let two_d = sign(&delta, 38421, &[&["d", "p1"], &["d", "p2"], &["u", "https://delta-old.example/"]], t - 120);
    let one_d = sign(&delta, 38421, &[&["d", "p1"], &["u", "https://delta.example/"]], t - 30);
    let unreviewed = sign(&gamma, 38421, &[&["d", "gamma"], &["u", "https://gamma.example/"]], t - 10);
    let review = |node: &Keys| {
        sign(
            &reviewer,
            38425,
            &[&["d", &node.public_key().to_hex()], &["node", &node.public_key().to_hex()], &["t", "trusted"]],
            t - 5,
        )
    };
    let (review_alpha, review_delta) = (review(&alpha), review(&delta));
    // Newer before older: a relay that keeps both serves both, and the client's own rule must decide.
    publish(
        &relay.url,
        &[&current, &replaced, &future, &note, &one_d, &two_d, &unreviewed, &review_alpha, &review_delta],
    )
    .await;

    let npub = reviewer.public_key().to_bech32().unwrap();
    let discovery = Discovery::new(DiscoveryConfig {
        review_mode: ReviewMode::ReviewedOnly,
        reviewer: Some(npub.clone()),
        ..config(&[&relay.url])
    });
    let found = discovery.discover().await;
    let report = &found.report;
    assert_eq!(report.relays.len(), 1);
    assert_eq!(report.relays[0].outcome, RelayOutcome::Answered, "{report}\n{}", relay.log());
    let mut used: Vec<String> = found.announcements.iter().map(|a| a.event_id.clone()).collect();
    let mut expected = vec![current.id.to_hex(), one_d.id.to_hex()];
    used.sort();
    expected.sort();
    assert_eq!(
        used,
        expected,
        "exactly the current and the single-d announcement:\n{}",
        report.lines(true, aiui_core::i18n::Locale::En).join("\n")
    );
    assert_eq!(verdict(report, &current), &Verdict::Used);
    assert_eq!(verdict(report, &one_d), &Verdict::Used);
    assert_eq!(verdict(report, &replaced), &refused(Refusal::Replaced { by: current.id.to_hex() }));
    assert_eq!(verdict(report, &two_d), &refused(Refusal::Replaced { by: one_d.id.to_hex() }));
    assert!(
        matches!(verdict(report, &future), Verdict::Refused { why: Refusal::Invalid { rule: Rejected::FutureDated(ahead) } } if *ahead > 15 * 60),
        "{report}"
    );
    assert_eq!(verdict(report, &unreviewed), &refused(Refusal::Unreviewed));
    // The relay honours the filter, so the note never reaches discovery (the stub relay below serves one).
    assert!(!report.events.iter().any(|e| e.id == note.id.to_hex()), "{report}");
    assert_eq!(report.events.len(), 6, "{report}");
    assert_eq!(report.reviewer, ReviewerStatus::Set { npub });
    assert_eq!(report.reviews, 2);
    let short = report.to_string();
    assert!(
        short.contains("6 events found: 2 used, 4 refused (1 dated in the future, 1 unreviewed, 2 replaced"),
        "{short}"
    );
}

/// A relay that ignores the filter: a `d`/`u`-tagged note of another kind and a forged announcement are refused
/// by discovery itself, each logged once with its id and reason, and the pool's ERROR line with the event's JSON
/// is gone.
#[tokio::test(flavor = "multi_thread")]
async fn events_outside_the_filter_and_forged_ones_are_refused_with_one_line_each() {
    let capture = capture::global();
    let mark = capture.mark();
    let keys = Keys::generate();
    let t = now();
    let good = sign(&keys, 38421, &[&["d", "good"], &["u", "https://good.example/"]], t);
    let note = sign(&keys, 1, &[&["d", "note"], &["u", "https://evil.example/"]], t);
    let mut forged = sign(&Keys::generate(), 38421, &[&["d", "forged"], &["u", "https://forged.example/"]], t);
    forged.sig = sign(&Keys::generate(), 38421, &[&["d", "other"]], t).sig;
    let relay = StubRelay::start(Script::Serve(vec![good.clone(), note.clone(), forged.clone()])).await;

    let found = Discovery::new(config(&[&relay.url])).discover().await;
    let ids: Vec<&str> = found.announcements.iter().map(|a| a.event_id.as_str()).collect();
    assert_eq!(ids, [good.id.to_hex()]);
    assert_eq!(verdict(&found.report, &note), &refused(Refusal::Invalid { rule: Rejected::WrongKind(1) }));
    assert_eq!(verdict(&found.report, &forged), &refused(Refusal::Invalid { rule: Rejected::BadSignature }));

    let logs = capture.since(mark);
    for (event, reason) in
        [(&note, "it is kind 1, not a provider announcement"), (&forged, "the signature does not verify")]
    {
        let id = event.id.to_hex();
        let lines: Vec<&str> = logs.lines().filter(|l| l.contains(&id) && l.contains("aiui_core")).collect();
        assert_eq!(lines.len(), 1, "one line for {reason}: {lines:#?}");
        assert!(lines[0].contains(reason) && lines[0].contains("INFO"), "{}", lines[0]);
    }
    let loud = |l: &&str| l.contains(" ERROR ") || l.contains(" WARN ");
    assert!(!logs.lines().filter(loud).any(|l| l.contains(&forged.id.to_hex())), "{logs}");
    assert!(!logs.contains("Impossible to handle relay message"), "{logs}");
}

/// A refused relay costs the connection attempt, not the subscription timeout, even next to one that answers.
#[tokio::test(flavor = "multi_thread")]
async fn a_refused_relay_is_reported_and_costs_under_a_second() {
    let good = TestRelay::start().await;
    let refused = refused_url();
    for relays in [vec![refused.as_str()], vec![refused.as_str(), good.url.as_str()]] {
        let started = Instant::now();
        let report = Discovery::new(config(&relays)).discover().await.report;
        let took = started.elapsed();
        assert!(took < Duration::from_secs(1), "{relays:?} took {took:?}");
        assert_eq!(report.relays[0].outcome, RelayOutcome::Refused { reason: "the connection was refused".into() });
        assert!(report.to_string().contains("could not connect: the connection was refused"), "{report}");
        assert!(report.relays.iter().skip(1).all(|r| r.outcome == RelayOutcome::Answered), "{report}");
    }
}

/// A relay that accepts and then says nothing is the only one that costs the subscription timeout, and the
/// relays beside it are asked at the same time.
#[tokio::test(flavor = "multi_thread")]
async fn a_silent_relay_is_reported_as_timed_out() {
    let silent = StubRelay::start(Script::Silent).await;
    let good = TestRelay::start().await;
    let started = Instant::now();
    let report =
        Discovery::new(DiscoveryConfig { timeout: Duration::from_secs(1), ..config(&[&silent.url, &good.url]) })
            .discover()
            .await
            .report;
    let took = started.elapsed();
    assert!(took >= Duration::from_secs(1) && took < Duration::from_secs(3), "took {took:?}");
    assert_eq!(report.relays[0].outcome, RelayOutcome::TimedOut { after_secs: 1 });
    assert_eq!(report.relays[1].outcome, RelayOutcome::Answered);
    assert!(report.to_string().contains("sent no end-of-events within 1 s (timed out)"), "{report}");
}

/// `CLOSED auth-required:` from a real relay that wants NIP-42 for reading: reported with the relay's reason,
/// at once.
#[tokio::test(flavor = "multi_thread")]
async fn closed_auth_required_is_reported_with_the_reason() {
    use nostr_relay_builder::prelude::{LocalRelay, RelayBuilder, RelayBuilderNip42, RelayBuilderNip42Mode};
    let relay = LocalRelay::new(
        RelayBuilder::default()
            .addr(std::net::IpAddr::from([127, 0, 0, 1]))
            .nip42(RelayBuilderNip42 { mode: RelayBuilderNip42Mode::Read }),
    );
    relay.run().await.unwrap();
    let url = relay.url().await.to_string();
    let started = Instant::now();
    let report = Discovery::new(config(&[&url])).discover().await.report;
    assert!(started.elapsed() < Duration::from_secs(1), "took {:?}", started.elapsed());
    let RelayOutcome::Closed { reason } = &report.relays[0].outcome else { panic!("{report}") };
    assert!(reason.starts_with("auth-required:"), "{reason}");
    assert!(report.to_string().contains("closed the subscription: \"auth-required:"), "{report}");
    assert!(report.why_none().contains("auth-required"), "{}", report.why_none());

    // Any other CLOSED reason is reported as the relay gave it.
    let restricted = StubRelay::start(Script::Close("restricted: members only".into())).await;
    let report = Discovery::new(config(&[&restricted.url])).discover().await.report;
    assert_eq!(report.relays[0].outcome, RelayOutcome::Closed { reason: "restricted: members only".into() });
}

/// Issue 9, item 7: "reviewed only" is the default. Without a reviewer key nothing is usable, and the no-backend
/// message says so and how to change it; the reviewer's key (npub) makes the reviewed provider usable.
#[tokio::test(flavor = "multi_thread")]
async fn reviewed_only_says_why_nothing_is_used_and_a_reviewer_key_makes_it_usable() {
    use std::sync::Arc;

    use aiui_core::backends::ChatRequest;
    use aiui_core::backends::chain::{Chain, Leg, TurnContext};
    use aiui_core::backends::routstr::{Routstr, RoutstrConfig};
    use aiui_core::net::guard::AddressPolicy;

    use crate::support::assistant::{claude_leg, ollama_leg};
    use crate::support::paid::{discovery_config, paid};
    use crate::support::{provider::MODEL, wire};

    let p = paid(1000, vec![]).await;
    let chain_with = |discovery: DiscoveryConfig| {
        let config = RoutstrConfig {
            model: MODEL.into(),
            address_policy: AddressPolicy::AllowPrivateForTests,
            ..RoutstrConfig::default()
        };
        let routstr = Routstr::new(config, Arc::new(Discovery::new(discovery)), p.payments.clone()).unwrap();
        Chain::new(vec![
            ollama_leg(&wire::refused()),
            claude_leg(&wire::refused(), None),
            Leg::Routstr(Box::new(routstr)),
        ])
    };
    let request = ChatRequest { system: "s".into(), messages: vec![], tools: vec![], max_tokens: 10 };
    let context = TurnContext {
        policy: p.budget.payment_policy(),
        claude: Default::default(),
        node: None,
        locale: Default::default(),
    };
    let reviewed_only = DiscoveryConfig { review_mode: ReviewMode::ReviewedOnly, ..discovery_config(&p.relay.url) };

    let message = chain_with(reviewed_only.clone()).select(0, &request, &context).await.unwrap_err().to_string();
    for expected in [
        "- Routstr: no usable Routstr provider on the configured relays",
        "Only reviewed providers are allowed, and no reviewer key is set, so 1 provider found on Nostr was not used",
        "Set a reviewer key (npub or hex) in the trusted settings under \"Routstr providers\" (aiui-cli: --reviewer)",
        "unticking \"Reviewed providers only\" (aiui-cli: --any-provider)",
    ] {
        assert!(message.contains(expected), "{expected:?} missing from:\n{message}");
    }

    let reviewer = Keys::generate();
    let provider = p.discovery.providers().await[0].pubkey.clone();
    let review = sign(&reviewer, 38425, &[&["d", &provider], &["node", &provider], &["t", "lgtm"]], now());
    publish(&p.relay.url, &[&review]).await;

    // Someone else's key: the provider is still unreviewed, and the message says whose review is missing.
    let stranger = Keys::generate().public_key().to_bech32().unwrap();
    let config = DiscoveryConfig { reviewer: Some(stranger.clone()), ..reviewed_only.clone() };
    let message = chain_with(config).select(0, &request, &context).await.unwrap_err().to_string();
    assert!(message.contains(&format!("your reviewer {} has not labelled them", &stranger[..12])), "{message}");

    let npub = reviewer.public_key().to_bech32().unwrap();
    let config = DiscoveryConfig { reviewer: Some(npub), ..reviewed_only };
    let selected = chain_with(config).select(0, &request, &context).await.expect("the reviewed provider is usable");
    let key = aiui_core::backends::routstr::short_key(&provider);
    assert_eq!(selected.id.label(), format!("Routstr aiui test provider ({key}) (toolbot)"));
}

/// The provider choice adds its refusals to the report the trusted settings show: a model the provider does not
/// serve, and a price above what is left of the allowance.
#[tokio::test(flavor = "multi_thread")]
async fn the_report_says_when_a_provider_lacks_the_model_or_costs_more_than_remains() {
    use aiui_core::backends::ChatRequest;
    use aiui_core::backends::routstr::{Routstr, RoutstrConfig};
    use aiui_core::net::guard::AddressPolicy;

    use crate::support::paid::paid;
    use crate::support::provider::MODEL;

    let p = paid(3, vec![]).await;
    let request = ChatRequest { system: "s".into(), messages: vec![], tools: vec![], max_tokens: 10 };
    let policy = p.budget.payment_policy();
    let leg = |model: &str| {
        let config = RoutstrConfig {
            model: model.into(),
            address_policy: AddressPolicy::AllowPrivateForTests,
            ..Default::default()
        };
        Routstr::new(config, p.discovery.clone(), p.payments.clone()).unwrap()
    };

    let err = leg("no-such-model").check(&request, &policy).await.unwrap_err();
    assert!(err.contains("it does not serve `no-such-model` with a sats price"), "{err}");
    let report = p.discovery.last_report().expect("the check recorded its report");
    assert!(
        report.used().count() == 0
            && report.events.iter().any(|e| e.verdict == refused(Refusal::NoModel { model: "no-such-model".into() })),
        "{report}"
    );

    // Still selected, so that paying fails with the allowance message; the report says why it would not be paid.
    leg(MODEL).check(&request, &policy).await.expect("the cheapest provider is chosen to explain the allowance");
    let report = p.discovery.last_report().unwrap();
    let Some(Verdict::Refused { why: Refusal::Unaffordable { price_sats, remaining_sats: 3 } }) =
        report.events.first().map(|e| &e.verdict)
    else {
        panic!("{report}")
    };
    assert!(*price_sats > 3, "{report}");
    assert!(
        report
            .to_string()
            .contains(&format!("a request costs up to {price_sats} sats and 3 sats of the allowance remain"))
    );
}
