//! The owner's Stop while a paid step is in flight: the request is not dropped half-way; it finishes, its payment
//! settles through the ledger's normal path, the owner is told why the stop waits, and nothing stays open.

use std::time::Duration;

use aiui_core::agent::{Event, Stop, StopReason, TurnOutcome};
use aiui_core::gate::Requester;

use crate::support::paid::{openai, paid};
use crate::support::provider::Fault;

#[tokio::test(flavor = "multi_thread")]
async fn stop_while_a_paid_step_is_in_flight_settles_it_and_leaves_nothing_unparked() {
    let p = paid(500, vec![openai("answer_plain.json")]).await;
    p.provider.arm(Fault::Slow, 0);
    let stop = Stop::new();
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
    let turn = {
        let (agent, conversation, stop) = (p.h.agent.clone(), p.h.conversation.clone(), stop.clone());
        tokio::spawn(
            async move { agent.turn_stoppable(&conversation, "hello", &tx, &Requester::ThisDesktop, &stop).await },
        )
    };
    let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
    while p.provider.state.bodies.lock().unwrap().is_empty() {
        assert!(tokio::time::Instant::now() < deadline, "the request never reached the provider");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    // The owner presses Stop with the token at the provider.
    stop.stop();
    let mut events = Vec::new();
    while let Some(event) = rx.recv().await {
        events.push(event);
    }
    let outcome = turn.await.unwrap().unwrap();
    assert!(matches!(outcome, TurnOutcome::Stopped { reason: StopReason::Stopped, .. }), "{outcome:?}");
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::Notice { text } if text.contains("paid request in flight finishes first"))),
        "the owner is told why the stop waits: {events:?}"
    );
    // Settled by the request's own path: nothing is in flight, and the ceiling and conservation hold.
    let sums = p.assert_ceiling_and_conservation().await;
    assert_eq!(sums.in_flight, 0, "{sums:?}");
    let report = p.payments.reconcile().await.unwrap();
    assert_eq!(report.checked, 0, "nothing was left for reconcile to end: {report:?}");
}
