//! The allowance against the loop: the four named tests of the budget issue, over the real paid leg (relay,
//! provider, mint). A budget stop ends the turn: no retry, no re-price, no other provider.

use aiui_core::agent::{Event, StopReason, TurnOutcome};
use aiui_core::backends::BackendId;
use aiui_core::tools::Registry;

use crate::support::paid::{openai, paid};

fn routstr_choices(events: &[Event]) -> usize {
    events.iter().filter(|e| matches!(e, Event::BackendChosen { backend: BackendId::Routstr { .. } })).count()
}

#[tokio::test]
async fn zero_budget_stops_loop_without_retry() {
    let p = paid(100, vec![openai("answer_plain.json")]).await;
    // The allowance is used up before the turn: spent == allowance.
    let policy = p.budget.payment_policy();
    let reservation = p.budget.reserve(&policy, 100).expect("the whole allowance can be reserved");
    let _ = p.budget.settle(reservation, 100);
    let mint_requests = p.mint.requests();
    let (events, outcome) = p.h.turn("what is running?", None).await;
    let TurnOutcome::Stopped { reason, message } = outcome else { panic!("{outcome:?}") };
    assert_eq!(reason, StopReason::BudgetStop, "{message}");
    assert!(message.contains("used up") && message.contains("settings window"), "{message}");
    assert_eq!(routstr_choices(&events), 1, "one attempt, no retry and no other provider");
    assert!(matches!(events.last(), Some(Event::Stopped { reason: StopReason::BudgetStop, .. })));
    assert!(p.provider.state.bodies.lock().unwrap().is_empty(), "nothing was sent to the provider");
    assert_eq!(p.mint.requests(), mint_requests, "the wallet was not touched");
    assert_eq!(p.budget.get().spent_sats, 100);
}

#[tokio::test]
async fn zero_allowance_never_selects_routstr() {
    let p = paid(0, vec![openai("answer_plain.json")]).await;
    let mint_requests = p.mint.requests();
    let (events, outcome) = p.h.turn("what is running?", None).await;
    let TurnOutcome::Stopped { reason: StopReason::NoBackend, message } = outcome else { panic!("{outcome:?}") };
    assert!(message.contains("allowance is 0 sats"), "{message}");
    assert_eq!(routstr_choices(&events), 0);
    assert_eq!(p.relay.queries(), 0, "the paid leg was not even considered: no discovery");
    assert!(p.provider.state.bodies.lock().unwrap().is_empty());
    assert_eq!(p.mint.requests(), mint_requests);
}

#[tokio::test]
async fn ceiling_is_not_a_function_of_model_output() {
    let p = paid(300, vec![openai("call_budget_injection.json"), openai("answer_plain.json")]).await;
    assert!(
        Registry::node_tools().iter().all(|t| !t.name.contains("budget") && !t.name.contains("wallet")),
        "no tool the model can call writes the allowance"
    );
    let (_, outcome) = p.h.turn("what is running?", None).await;
    assert!(matches!(outcome, TurnOutcome::Answered { .. }), "{outcome:?}");
    let report = p.budget.get();
    assert_eq!(report.allowance_sats, 300, "the model's claims changed nothing");
    assert!(report.spent_sats + report.reserved_sats <= 300);
    let bodies = p.provider.state.bodies.lock().unwrap().clone();
    let injected = bodies[1]["messages"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["tool_call_id"] == "call_Inject01")
        .expect("the fake budget tool got a result")
        .clone();
    assert!(injected["content"].as_str().unwrap().contains("no tool named `budget_set`"), "{injected}");
    let sums = p.conservation().await;
    p.assert_conserved(sums);
}

#[tokio::test]
async fn injection_loop_against_low_budget_does_not_overspend() {
    let replies = (0..8).map(|_| openai("call_budget_injection.json")).collect();
    let p = paid(150, replies).await;
    let (events, outcome) = p.h.turn("what is running?", None).await;
    let TurnOutcome::Stopped { reason, message } = outcome else { panic!("{outcome:?}") };
    assert_eq!(reason, StopReason::BudgetStop, "{message}");
    assert!(message.contains("could cost up to") && message.contains("remain"), "{message}");
    let report = p.budget.get();
    assert!(report.spent_sats <= 150, "spent {} of a 150-sat allowance", report.spent_sats);
    assert_eq!(report.reserved_sats, 0);
    assert_eq!(report.allowance_sats, 150);
    let paid_steps = p.provider.state.bodies.lock().unwrap().len();
    assert!(paid_steps < 8, "the allowance, not the step cap, ended it ({paid_steps} paid steps)");
    assert_eq!(routstr_choices(&events), paid_steps + 1, "the stopped step was attempted once");
    let sums = p.conservation().await;
    p.assert_conserved(sums);
}
