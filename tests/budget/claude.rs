//! Claude's USD allowance against the real Claude leg over loopback HTTP: cache tokens priced to the micro-dollar,
//! a $0 allowance never selecting Claude, an injection loop stopped by the next worst case, a lying `usage` held to
//! the reservation, the chain falling to the built-in leg at no cost, and what each billing outcome counts (a
//! refusal, a cut stream, the owner's Stop, a process killed mid-request).

use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use aiui_core::agent::{Event, Stop, StopReason, TurnOutcome};
use aiui_core::backends::builtin::BuiltinConfig;
use aiui_core::backends::chain::{Chain, Leg};
use aiui_core::backends::claude::{ClaudeConfig, ClaudeSpend};
use aiui_core::backends::ollama::OllamaConfig;
use aiui_core::backends::registry::{LegSettings, Reuse, build_chain};
use aiui_core::backends::{BackendError, BackendId, Cost, Message, Usage};
use aiui_core::budget::{ClaudeAllowance, ClaudeNotice, ClaudeUpdate, Period};
use aiui_core::gate::Requester;
use aiui_core::i18n::Locale;
use aiui_core::pricing::{Prices, format_usd};
use aiui_core::secrets::{SecretName, Secrets};
use aiui_core::store::EntryKind;
use aiui_core::tools::Registry;

use crate::support::assistant::{API_KEY, Harness, claude_leg_paid_from, claude_spend, harness_full, harness_with};
use crate::support::claude_paid::{Ending, builtin_model, leg, leg_paid_from, request, sse, sums, worst_case_of};
use crate::support::wire;

const AMPLE: u64 = 100_000_000;
const TTL: Duration = Duration::from_secs(30);
/// What `answer_cache_usage.json` and `stream_cache_usage.sse` cost, by hand from Anthropic's published prices for
/// claude-sonnet-4-5 (USD per million tokens: 3 input, 3.75 cache write, 0.30 cache read, 15 output):
/// 412 × 3 + 2 816 × 3.75 + 11 264 × 0.30 + 187 × 15 = 17 980.2 millionths of a dollar, rounded up.
const CACHE_FIXTURE_MICROS: u64 = 17_981;
/// `call_budget_injection.json`'s usage (900 in, 1 000 out) at the same prices.
const INJECTION_STEP_MICROS: u64 = 900 * 3 + 1_000 * 15;

fn claude_chosen(events: &[Event]) -> usize {
    events.iter().filter(|e| matches!(e, Event::BackendChosen { backend: BackendId::Claude { .. } })).count()
}

fn notices(events: &[Event]) -> Vec<&str> {
    events.iter().filter_map(|e| if let Event::Notice { text } = e { Some(text.as_str()) } else { None }).collect()
}

fn spent_events(events: &[Event]) -> Vec<&Event> {
    events.iter().filter(|e| matches!(e, Event::Spent { .. })).collect()
}

/// The costs stored with the conversation's assistant messages, in order.
fn stored_costs(h: &Harness) -> Vec<Cost> {
    let conversation = h.agent.store.load(&h.conversation).unwrap();
    conversation
        .entries
        .iter()
        .filter_map(|entry| match &entry.kind {
            EntryKind::Message { message: Message::Assistant { .. }, cost, .. } => {
                Some(cost.expect("an answer is stored with its cost").cost)
            }
            _ => None,
        })
        .collect()
}

/// A turn that `stop` may end, `on_event` seeing each event as it comes.
async fn stoppable_turn(h: &Harness, stop: &Stop, on_event: impl Fn(&Event)) -> (Vec<Event>, TurnOutcome) {
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
    let (agent, conversation, turn_stop) = (h.agent.clone(), h.conversation.clone(), stop.clone());
    let turn = tokio::spawn(async move {
        agent.turn_stoppable(&conversation, "what is running?", &tx, &Requester::ThisDesktop, &turn_stop).await
    });
    let mut events = Vec::new();
    while let Some(event) = rx.recv().await {
        on_event(&event);
        events.push(event);
    }
    (events, turn.await.unwrap().unwrap())
}

#[tokio::test(flavor = "multi_thread")]
async fn usd_price_fixture_with_cache_tokens_is_priced_to_the_micro_dollar() {
    let by_hand = (412 * 3_000_000u64 + 2_816 * 3_750_000 + 11_264 * 300_000 + 187 * 15_000_000).div_ceil(1_000_000);
    assert_eq!(by_hand, CACHE_FIXTURE_MICROS);
    let usage = Usage { input_tokens: 412, output_tokens: 187, cache_write_tokens: 2_816, cache_read_tokens: 11_264 };

    let whole = wire::anthropic(vec![(200, "anthropic/answer_cache_usage.json")]).await;
    let (claude, allowance) = leg(&whole.url, AMPLE);
    let turn = claude.send(claude.request_body(&request()), &allowance.policy(), Locale::En).await.expect("answered");
    assert_eq!((turn.usage, turn.cost), (usage, Cost::Usd { micros: CACHE_FIXTURE_MICROS }), "send");
    assert_eq!(sums(&allowance.get()), (CACHE_FIXTURE_MICROS, 0, AMPLE), "send: spent exactly the price");

    let streamed = sse("anthropic/stream_cache_usage.sse", Duration::from_millis(2), Ending::Whole).await;
    let (claude, allowance) = leg(&streamed.url, AMPLE);
    let turn =
        claude.send_streaming(claude.request_body(&request()), &allowance.policy(), Locale::En, &|_| {}).await.unwrap();
    assert_eq!(turn.text, "Five apps are running; electrs was killed for memory (exit 137).");
    assert_eq!((turn.usage, turn.cost), (usage, Cost::Usd { micros: CACHE_FIXTURE_MICROS }), "send_streaming");
    assert_eq!(sums(&allowance.get()), (CACHE_FIXTURE_MICROS, 0, AMPLE), "send_streaming: spent exactly the price");

    // Through whole turns: a JSON reply (a gateway ignoring `"stream": true`) and the stream.
    let json = wire::anthropic(vec![(200, "anthropic/answer_cache_usage.json")]).await;
    let streamed = sse("anthropic/stream_cache_usage.sse", Duration::from_millis(2), Ending::Whole).await;
    for url in [json.url, streamed.url] {
        let spend = claude_spend(AMPLE);
        let allowance = spend.allowance.clone();
        let h = harness_with(Chain::new(vec![claude_leg_paid_from(&url, Some(API_KEY), spend)]), TTL).await;
        let (events, outcome) = h.turn("what is running?", None).await;
        assert!(matches!(outcome, TurnOutcome::Answered { backend: BackendId::Claude { .. }, .. }), "{outcome:?}");
        let spent = spent_events(&events);
        let [Event::Spent { backend, step, turn }] = spent[..] else { panic!("one Spent event: {spent:?}") };
        assert!(matches!(backend, BackendId::Claude { .. }), "{backend:?}");
        assert_eq!((step.usage, step.cost), (usage, Cost::Usd { micros: CACHE_FIXTURE_MICROS }));
        assert_eq!((turn.usd_micros, turn.sats, turn.free_steps), (CACHE_FIXTURE_MICROS, 0, 0));
        assert_eq!(stored_costs(&h), vec![Cost::Usd { micros: CACHE_FIXTURE_MICROS }], "the stored answer's cost");
        assert_eq!(sums(&allowance.get()), (CACHE_FIXTURE_MICROS, 0, AMPLE));
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn zero_usd_allowance_never_selects_claude() {
    let claude = wire::anthropic(vec![(200, "anthropic/answer_packages.json")]).await;
    let spend = claude_spend(0);
    let allowance = spend.allowance.clone();
    let says_zero = |text: &str| text.contains("allowance is $0") && text.contains("settings window");

    // Claude alone: no leg answers, and the stop says why.
    let alone = Chain::new(vec![claude_leg_paid_from(&claude.url, Some(API_KEY), spend.clone())]);
    let h = harness_with(alone, TTL).await;
    let (events, outcome) = h.turn("what is running?", None).await;
    let TurnOutcome::Stopped { reason: StopReason::NoBackend, message } = outcome else { panic!("{outcome:?}") };
    assert!(says_zero(&message) && message.contains("--claude-usd"), "{message}");
    assert_eq!(claude_chosen(&events), 0);

    // In D-04 order with a leg after it that answers: the owner still hears why Claude was not used.
    let chain = Chain::new(vec![
        crate::support::assistant::ollama_leg(&wire::refused()),
        claude_leg_paid_from(&claude.url, Some(API_KEY), spend),
        Leg::Builtin(aiui_core::backends::builtin::Builtin::new(BuiltinConfig {
            enabled: true,
            scorer: Some(builtin_model()),
            lexical: true,
        })),
    ]);
    let h = harness_with(chain, TTL).await;
    let (events, outcome) = h.turn("what is running?", None).await;
    assert!(matches!(outcome, TurnOutcome::Answered { backend: BackendId::Builtin { .. }, .. }), "{outcome:?}");
    assert_eq!(claude_chosen(&events), 0, "Claude was never chosen");
    let told = notices(&events);
    assert_eq!(told.iter().filter(|t| says_zero(t)).count(), 1, "told once: {told:?}");
    assert!(claude.script.received().is_empty(), "no request reached Anthropic");
    assert_eq!(sums(&allowance.get()), (0, 0, 0));
}

#[tokio::test(flavor = "multi_thread")]
async fn injection_loop_against_nearly_exhausted_usd_allowance_stops_with_zero_overspend() {
    // $0.90 of $1.00 spent before the turn: what remains fits a few requests' worst case (from $0.04, growing with
    // the history: the body's bytes at the cache-write price and 1 024 tokens of output), far from eight.
    const ALLOWANCE: u64 = 1_000_000;
    const SPENT_BEFORE: u64 = 900_000;
    let replies = (0..8).map(|_| (200, "anthropic/call_budget_injection.json")).collect();
    let claude = wire::anthropic(replies).await;
    let spend = claude_spend(ALLOWANCE);
    let allowance = spend.allowance.clone();
    let before = allowance.reserve(&allowance.policy(), SPENT_BEFORE).unwrap();
    let _ = allowance.settle(before, SPENT_BEFORE);
    let h = harness_with(Chain::new(vec![claude_leg_paid_from(&claude.url, Some(API_KEY), spend)]), TTL).await;
    let (events, outcome) = h.turn("what is running?", None).await;
    let TurnOutcome::Stopped { reason: StopReason::NoBackend, message } = outcome else { panic!("{outcome:?}") };
    assert!(message.contains("could cost up to") && message.contains("remain"), "{message}");
    let told = notices(&events);
    assert!(told.iter().any(|t| t.starts_with("Claude was passed over: this request could cost up to")), "{told:?}");

    let (spent, reserved, ceiling) = sums(&allowance.get());
    let sent = claude.script.received();
    assert!(spent <= ALLOWANCE, "spent {spent} of {ALLOWANCE}");
    assert_eq!((reserved, ceiling), (0, ALLOWANCE), "nothing held, the allowance unchanged");
    assert!((2..8).contains(&sent.len()), "the allowance, not the step cap, ended it ({} requests)", sent.len());
    assert_eq!(claude_chosen(&events), sent.len() + 1, "the step that did not fit was chosen once, never sent");
    assert_eq!(spent - SPENT_BEFORE, INJECTION_STEP_MICROS * sent.len() as u64, "each settled at its priced usage");
    let next_worst = worst_case_of(sent.last().unwrap());
    assert!(next_worst > ALLOWANCE - spent, "the last request sent already cost less than the next one would");
    assert!(sent[1].to_string().contains("no tool named `budget_set`"), "the fake tool got an error result");
}

#[tokio::test(flavor = "multi_thread")]
async fn usd_ceiling_is_not_a_function_of_model_output() {
    const ALLOWANCE: u64 = 5_000_000;
    for tool in Registry::node_tools().iter() {
        for word in ["budget", "allowance", "wallet", "claude", "price", "usd"] {
            assert!(!tool.name.contains(word), "the model can call {}, which may write an allowance", tool.name);
        }
    }

    // The model claims a raised allowance and calls a tool that would raise it: nothing changes.
    let claude =
        wire::anthropic(vec![(200, "anthropic/call_budget_injection.json"), (200, "anthropic/answer_packages.json")])
            .await;
    let spend = claude_spend(ALLOWANCE);
    let allowance = spend.allowance.clone();
    let h = harness_with(Chain::new(vec![claude_leg_paid_from(&claude.url, Some(API_KEY), spend)]), TTL).await;
    let (_, outcome) = h.turn("what is running?", None).await;
    assert!(matches!(outcome, TurnOutcome::Answered { .. }), "{outcome:?}");
    let answer_packages = 1_804 * 3 + 22 * 15;
    assert_eq!(sums(&allowance.get()), (INJECTION_STEP_MICROS + answer_packages, 0, ALLOWANCE));
    assert!(claude.script.received()[1].to_string().contains("no tool named `budget_set`"));
}

/// Review F12: usage Anthropic reports above the request's worst case (9 million output tokens against max_tokens
/// 1 024) is counted in full, not hidden at the reservation: Anthropic bills it either way. The allowance then
/// refuses the next request, and the notice is kept, so a shell rebuilt later shows it again; whole, and through a
/// turn.
#[tokio::test(flavor = "multi_thread")]
async fn usage_above_the_reservation_is_counted_in_full_kept_and_stops_the_next_request() {
    const ALLOWANCE: u64 = 5_000_000;
    let liar = wire::anthropic(vec![(200, "anthropic/answer_lying_usage.json")]).await;
    let (leg, allowance) = leg(&liar.url, ALLOWANCE);
    let body = leg.request_body(&request());
    let worst = worst_case_of(&body);
    let turn = leg.send(body, &allowance.policy(), Locale::En).await.expect("answered");
    let Cost::Usd { micros: priced } = turn.cost else { panic!("{:?}", turn.cost) };
    assert!(priced > ALLOWANCE && priced > worst, "the reported usage, priced: {priced}");
    assert_eq!(sums(&allowance.get()), (priced, 0, ALLOWANCE), "counted in full");
    let told = turn.notices.join(" ");
    assert!(told.contains("more than the") && told.contains("counted in full"), "{told}");
    let refused = leg.send(leg.request_body(&request()), &allowance.policy(), Locale::En).await;
    assert!(refused.is_err(), "the allowance is spent: the next request is not sent");
    assert_eq!(liar.script.received().len(), 1, "{refused:?}");
    let reopened = ClaudeAllowance::open_file(allowance.path()).unwrap();
    assert_eq!(
        reopened.recent_notices(5),
        vec![ClaudeNotice::UsageAbove { priced, reserved: worst }],
        "kept for a rebuilt shell"
    );

    let liar = wire::anthropic(vec![(200, "anthropic/answer_lying_usage.json")]).await;
    let spend = claude_spend(ALLOWANCE);
    let allowance = spend.allowance.clone();
    let h = harness_with(Chain::new(vec![claude_leg_paid_from(&liar.url, Some(API_KEY), spend)]), TTL).await;
    let (events, outcome) = h.turn("what is running?", None).await;
    assert!(matches!(outcome, TurnOutcome::Answered { .. }), "{outcome:?}");
    let spent = allowance.get().spent_usd_micros;
    assert!(spent > ALLOWANCE, "counted in full: {spent}");
    assert_eq!(stored_costs(&h), vec![Cost::Usd { micros: spent }]);
    assert!(notices(&events).iter().any(|t| t.starts_with("Claude reported usage")), "{:?}", notices(&events));
}

#[tokio::test(flavor = "multi_thread")]
async fn claude_exhausted_then_routstr_off_then_builtin_answers_at_zero() {
    const ALLOWANCE: u64 = 1_000_000;
    let data = tempfile::tempdir().unwrap();
    {
        let exhaust = ClaudeAllowance::open(data.path()).unwrap();
        exhaust.set(ClaudeUpdate { allowance_usd_micros: Some(ALLOWANCE), period: Some(Period::Monthly) }).unwrap();
        let all = exhaust.reserve(&exhaust.policy(), ALLOWANCE).expect("the whole allowance");
        let _ = exhaust.settle(all, ALLOWANCE);
    }
    let claude = wire::anthropic(vec![(200, "anthropic/answer_packages.json")]).await;
    let secrets = Arc::new(Secrets::in_memory());
    secrets.set(SecretName::AnthropicApiKey, &aiui_core::Secret::from(API_KEY)).unwrap();
    let settings = LegSettings {
        ollama: OllamaConfig {
            url: wire::refused().parse().unwrap(),
            connect_timeout: Duration::from_millis(200),
            ..OllamaConfig::default()
        },
        claude: ClaudeConfig { base_url: claude.url.parse().unwrap(), ..ClaudeConfig::default() },
        builtin: BuiltinConfig { enabled: true, scorer: Some(builtin_model()), lexical: true },
        ..LegSettings::default()
    };
    let built = build_chain(&settings, secrets.clone(), data.path(), Reuse::default()).await.expect("the chain");
    let names: Vec<&str> = built.chain.legs().iter().map(Leg::name).collect();
    assert_eq!(names, ["local model (Ollama)", "Claude", "built-in model (SmolLM2-135M)"], "no Routstr leg");
    assert!(built.wallet.is_none() && built.payments.is_none(), "no wallet opened");
    let (budget, claude_allowance) = (built.budget.clone(), built.claude_allowance.clone());
    let sats_before = budget.get();
    let h = harness_full(built.chain, TTL, Some(budget.clone()), |_| {}).await;

    let (events, outcome) = h.turn("what is running?", None).await;
    assert!(matches!(outcome, TurnOutcome::Answered { backend: BackendId::Builtin { .. }, .. }), "{outcome:?}");
    // The built-in leg reads the package list, then answers: two steps, each free.
    let spent = spent_events(&events);
    assert!(!spent.is_empty());
    for (n, event) in spent.iter().enumerate() {
        let Event::Spent { backend: BackendId::Builtin { .. }, step, turn } = event else { panic!("{event:?}") };
        assert_eq!(step.cost, Cost::Free);
        assert_eq!((turn.usd_micros, turn.sats, turn.free_steps), (0, 0, n as u32 + 1));
    }
    let told = notices(&events);
    let passed = told.iter().filter(|t| t.starts_with("Claude was passed over: its $1.00 allowance is used up"));
    assert_eq!(passed.count(), 1, "told once in the turn: {told:?}");
    assert_eq!(claude_chosen(&events), 0);
    assert!(claude.script.received().is_empty(), "nothing reached Anthropic");
    assert_eq!(sums(&claude_allowance.get()), (ALLOWANCE, 0, ALLOWANCE), "Claude's allowance did not move");
    assert_eq!(budget.get(), sats_before, "the sats budget did not move");
    assert_eq!((sats_before.allowance_sats, sats_before.spent_sats, sats_before.reserved_sats), (0, 0, 0));
    assert!(secrets.get(SecretName::WalletSeed).unwrap().is_none(), "no wallet seed was made");
    assert!(!data.path().join("wallet.sqlite3").exists() && !data.path().join("ledger.sqlite3").exists());
}

#[tokio::test(flavor = "multi_thread")]
async fn an_http_refusal_releases_the_reservation() {
    for (status, fixture) in [(529, "anthropic/error_overloaded.json"), (400, "anthropic/error_invalid_request.json")] {
        for streamed in [false, true] {
            let refusing = wire::anthropic(vec![(status, fixture)]).await;
            let (claude, allowance) = leg(&refusing.url, AMPLE);
            let body = claude.request_body(&request());
            let result = if streamed {
                claude.send_streaming(body, &allowance.policy(), Locale::En, &|_| {}).await
            } else {
                claude.send(body, &allowance.policy(), Locale::En).await
            };
            let error = result.expect_err("refused");
            match status {
                529 => assert!(matches!(error, BackendError::Unavailable { .. }), "{error:?}"),
                _ => assert!(matches!(error, BackendError::Protocol { .. }), "{error:?}"),
            }
            assert!(!error.to_string().contains("counted against"), "{error}");
            assert_eq!(refusing.script.received().len(), 1);
            assert_eq!(sums(&allowance.get()), (0, 0, AMPLE), "HTTP {status} (streamed: {streamed}): nothing billed");
        }
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_stream_cut_off_mid_answer_counts_its_worst_case_and_says_so() {
    // message_start, the text block's start, a ping and two pieces of text; then the connection is cut.
    let cut = sse("anthropic/stream_cache_usage.sse", Duration::from_millis(5), Ending::CutAfter(5)).await;
    let (claude, allowance) = leg(&cut.url, AMPLE);
    let body = claude.request_body(&request());
    let worst = worst_case_of(&body);
    let error = claude.send_streaming(body, &allowance.policy(), Locale::En, &|_| {}).await.expect_err("cut off");
    let BackendError::CutOff { reason, partial, .. } = &error else { panic!("{error:?}") };
    assert_eq!(partial, "Five apps are running; electrs");
    let says = format!("counted against Claude's allowance at its most, {}", format_usd(worst));
    assert!(reason.contains(&says), "{reason}");
    assert_eq!(sums(&allowance.get()), (worst, 0, AMPLE), "the worst case, not message_start's partial usage");
}

/// Review F11: Anthropic reports an error after the model began a tool call (no visible text, but output tokens
/// that may be billed). The reservation is counted at its worst case, not released; an error before any output
/// still costs nothing (`an_http_refusal_releases_the_reservation` and the stream refusal cases).
#[tokio::test(flavor = "multi_thread")]
async fn a_stream_error_after_tool_use_output_counts_its_worst_case() {
    let erring = sse("anthropic/stream_tool_use_error.sse", Duration::from_millis(5), Ending::Whole).await;
    let (claude, allowance) = leg(&erring.url, AMPLE);
    let body = claude.request_body(&request());
    let worst = worst_case_of(&body);
    let error = claude.send_streaming(body, &allowance.policy(), Locale::En, &|_| {}).await.expect_err("an error");
    assert!(error.to_string().contains("overloaded_error"), "{error}");
    assert_eq!(sums(&allowance.get()), (worst, 0, AMPLE), "output had begun: counted at its most");
}

#[tokio::test(flavor = "multi_thread")]
async fn the_owners_stop_mid_stream_counts_the_worst_case() {
    let slow = sse("anthropic/stream_cache_usage.sse", Duration::from_millis(300), Ending::Whole).await;
    let spend = claude_spend(AMPLE);
    let allowance = spend.allowance.clone();
    let h = harness_with(Chain::new(vec![claude_leg_paid_from(&slow.url, Some(API_KEY), spend)]), TTL).await;
    let stop = Stop::new();
    let (events, outcome) = stoppable_turn(&h, &stop, |event| {
        if matches!(event, Event::TextDelta { .. }) {
            stop.stop();
        }
    })
    .await;
    assert!(matches!(outcome, TurnOutcome::Stopped { reason: StopReason::Stopped, .. }), "{outcome:?}");
    assert!(spent_events(&events).is_empty(), "no answer, no priced usage");
    let sent = slow.received.lock().unwrap().clone();
    assert_eq!(sent.len(), 1);
    assert_eq!(sums(&allowance.get()), (worst_case_of(&sent[0]), 0, AMPLE), "dropped: counted at its most");
}

const CHILD_DIR: &str = "AIUI_CLAUDE_CHILD_DIR";
const CHILD_URL: &str = "AIUI_CLAUDE_CHILD_URL";

/// Not a test of its own: the child process of the test below, a Claude request to a server that never answers.
/// Without `AIUI_CLAUDE_CHILD_DIR` (an ordinary test run) it returns at once.
#[tokio::test]
async fn claude_request_child_process() {
    let Ok(dir) = std::env::var(CHILD_DIR) else { return };
    let url = std::env::var(CHILD_URL).expect("the parent names the server");
    let allowance = Arc::new(ClaudeAllowance::open(dir.as_ref()).expect("the allowance opens"));
    let claude = leg_paid_from(&url, ClaudeSpend { allowance: allowance.clone(), prices: Prices::shipped() });
    let result = claude.send(claude.request_body(&request()), &allowance.policy(), Locale::En).await;
    panic!("the parent kills this process before any answer: {result:?}");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_process_killed_mid_request_is_counted_at_its_worst_case_by_the_next_start() {
    const ALLOWANCE: u64 = 2_000_000;
    let dir = tempfile::tempdir().unwrap();
    let watcher = ClaudeAllowance::open(dir.path()).unwrap();
    watcher.set(ClaudeUpdate { allowance_usd_micros: Some(ALLOWANCE), period: Some(Period::Never) }).unwrap();
    let (url, accepted) = wire::black_hole().await;
    let worst = worst_case_of(&leg(&url, 0).0.request_body(&request()));
    let mut child = Command::new(std::env::current_exe().expect("the test binary"))
        .args(["--exact", "budget::claude::claude_request_child_process", "--nocapture", "--test-threads=1"])
        .env(CHILD_DIR, dir.path())
        .env(CHILD_URL, &url)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("the child starts");
    let started = Instant::now();
    while watcher.get().reserved_usd_micros == 0 || accepted.load(std::sync::atomic::Ordering::SeqCst) == 0 {
        let exited = child.try_wait().unwrap();
        assert!(exited.is_none() && started.elapsed() < Duration::from_secs(20), "no request in flight: {exited:?}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(sums(&watcher.get()), (0, worst, ALLOWANCE), "the child holds its worst case");
    child.kill().expect("SIGKILL");
    child.wait().unwrap();
    assert_eq!(sums(&watcher.get()), (0, worst, ALLOWANCE), "a dead process's reservation stays until a start");

    let next = ClaudeAllowance::open(dir.path()).unwrap();
    let told = next.settle_abandoned(Locale::En);
    assert_eq!(told.len(), 1, "{told:?}");
    assert!(told[0].contains("ended before its answer arrived") && told[0].contains(&format_usd(worst)), "{told:?}");
    assert_eq!(sums(&next.get()), (worst, 0, ALLOWANCE), "counted at its most, nothing held");
    assert!(ClaudeAllowance::open(dir.path()).unwrap().settle_abandoned(Locale::En).is_empty(), "counted once");
}

/// A model the price table does not list is refused for paid use, with a message saying so, never priced at $0:
/// the leg is passed over (the owner told), nothing is sent, nothing reserved; the owner's own price for it, set as
/// the trusted settings and `aiui-cli budget price` set it, makes it usable.
#[tokio::test(flavor = "multi_thread")]
async fn a_model_without_a_price_is_never_used_for_paid_requests() {
    let claude = wire::anthropic(vec![(200, "anthropic/answer_cache_usage.json")]).await;
    let dir = tempfile::tempdir().unwrap();
    let allowance = Arc::new(ClaudeAllowance::open(dir.path()).unwrap());
    allowance.set(ClaudeUpdate { allowance_usd_micros: Some(AMPLE), period: Some(Period::Never) }).unwrap();
    let secrets = Secrets::in_memory();
    secrets.set(SecretName::AnthropicApiKey, &aiui_core::Secret::from(API_KEY)).unwrap();
    let config = ClaudeConfig {
        base_url: claude.url.parse().unwrap(),
        model: "claude-unlisted-9".into(),
        ..ClaudeConfig::default()
    };
    let spend = ClaudeSpend { allowance: allowance.clone(), prices: Prices::in_data_dir(dir.path()) };
    let leg = aiui_core::backends::claude::Claude::new(config, Arc::new(secrets), spend).unwrap();
    let passed = leg.check(&allowance.policy(), Locale::En).await.expect_err("an unpriced model is not selectable");
    assert!(passed.tell_owner, "the owner with a key hears why Claude is not used");
    assert!(
        passed.reason.contains("no price for the model claude-unlisted-9") && passed.reason.contains("budget price"),
        "{}",
        passed.reason
    );
    let body = leg.request_body(&request());
    let refused = leg.send(body.clone(), &allowance.policy(), Locale::En).await.expect_err("nor sent if asked anyway");
    assert!(
        matches!(&refused, BackendError::OverAllowance { message, .. } if message.contains("no price")),
        "{refused:?}"
    );
    assert!(claude.script.received().is_empty(), "nothing reached Anthropic");
    assert_eq!(sums(&allowance.get()), (0, 0, AMPLE), "nothing reserved or spent");

    aiui_core::pricing::set_owner_price(dir.path(), "claude-unlisted-9", 3.0, 15.0, 3.75, 0.3).unwrap();
    assert!(leg.check(&allowance.policy(), Locale::En).await.is_ok(), "priced by the owner, it is usable at once");
    let turn = leg.send(body, &allowance.policy(), Locale::En).await.unwrap();
    assert_eq!(turn.cost, Cost::Usd { micros: CACHE_FIXTURE_MICROS }, "priced at the owner's price");
    assert_eq!(allowance.get().spent_usd_micros, CACHE_FIXTURE_MICROS);
}
