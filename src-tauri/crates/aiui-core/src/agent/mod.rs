//! The assistant loop: one owner message in, a stream of [`Event`]s out, until a text answer or a designed stop.
//!
//! Each turn snapshots the operator config, picks a leg in D-04 order, screens the exact body for cloud legs,
//! validates every tool call against its schema, sends every act call through the gate, and persists the
//! conversation as it goes.

mod events;
mod stop;
mod streamed;

use std::sync::{Arc, Mutex, RwLock};

use serde_json::Value;
use tokio::sync::mpsc::UnboundedSender;

pub use events::{Event, StopReason, TurnSpend};
pub use stop::Stop;

use crate::backends::chain::{Chain, TurnContext};
use crate::backends::{BackendError, BackendId, ChatRequest, Message, StepCost, ToolCall, Turn};
use crate::budget::{BudgetStore, PaymentPolicy};
use crate::egress::{KnownSecret, Screen, Screens};
use crate::gate::{Gate, Proposal, Requester, Verdict};
use crate::i18n::{self, Locale};
use crate::node::{Mint, NodeClient, NodeError};
use crate::store::{ConversationId, Store, StoreError};
use crate::tools::{self, Grants, Registry, ToolError, ValidatedCall, summary};

/// The hard cap on model steps per turn.
pub const MAX_STEPS: usize = 8;
/// How many of a conversation's last messages a turn replays to a backend (from an owner message on). The whole
/// conversation stays in the store and in the shells; replaying all of it would make a turn cost, and a paid leg
/// charge, as much as the conversation is long, and would overflow any model's context long before that.
pub const HISTORY_WINDOW: usize = 200;

/// The tool result a denied or expired action returns to the model. Fixed text: the model must stop, not look for
/// another way to the same change.
pub const DENIED_RESULT: &str = "The owner declined this action. It was not performed. Do not retry it and do not \
                                 try to reach the same effect another way; tell the owner it was not done.";
const NOT_RUN_RESULT: &str = "Not run: an earlier action in this step was declined by the owner.";

/// What the owner reads when they stopped the turn.
fn stopped_message(locale: Locale) -> String {
    i18n::text(locale, "stop-stopped", &[])
}

/// Why a step ended without an answer, and what of an answer was shown before it did.
struct StepEnd {
    reason: StopReason,
    message: String,
    /// The text written before a stop or a cut-off, and the leg that wrote it.
    partial: Option<(String, BackendId)>,
}

impl StepEnd {
    fn plain(reason: StopReason, message: String) -> Self {
        Self { reason, message, partial: None }
    }
}

/// Who asked for the turn, its Stop, and the language of the turn's config: what a tool call needs to open and
/// wait on a confirmation.
struct Asked<'a> {
    requester: &'a Requester,
    stop: &'a Stop,
    locale: Locale,
}

/// What the operator sets on trusted surfaces. The loop reads a snapshot at the start of each turn and never
/// writes it.
#[derive(Debug, Clone, PartialEq)]
pub struct OperatorConfig {
    pub grants: Grants,
    pub system_prompt: String,
    pub max_tokens: u32,
    /// The language of the host's own text: confirmation summaries, why an action was not done, the loop's
    /// notices and stops, and everything the built-in leg says.
    pub locale: Locale,
}

impl Default for OperatorConfig {
    fn default() -> Self {
        Self {
            grants: Grants::default(),
            system_prompt: "You are AIUI, the assistant of the owner of an Archipelago Bitcoin node. Answer briefly \
                            and plainly. Use the tools to read the node's state before answering questions about it. \
                            Actions that change the node are confirmed by the owner; if the owner declines, accept it."
                .into(),
            max_tokens: 1024,
            // The environment's language until the operator picks one (LANG=C and unset mean English).
            locale: Locale::from_env(),
        }
    }
}

/// The operator's system prompt, and for an owner who reads another language than English, the instruction to
/// answer in it. The instruction is English, the language every model follows best; an English owner's prompt is
/// left as it is, so its cached prefix stays the same.
fn system_prompt(base: &str, locale: Locale) -> String {
    match locale.english_name() {
        Some(language) => format!(
            "{base}\n\nThe owner reads {language}: write every answer in {language}, unless they write to you in \
             another language. Keep app ids, commands and amounts exactly as the tools give them."
        ),
        None => base.to_owned(),
    }
}

/// How a turn ended, for callers that do not watch the event stream.
#[derive(Debug, Clone, PartialEq)]
pub enum TurnOutcome {
    Answered { backend: BackendId, text: String },
    Stopped { reason: StopReason, message: String },
}

/// A failure of the machinery, not of the conversation: the store could not be written.
#[derive(Debug, thiserror::Error)]
pub enum AgentError {
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// Everything a turn needs. Shared by the shells behind an `Arc`.
pub struct Agent {
    pub node: Arc<NodeClient>,
    pub chain: Chain,
    pub registry: Registry,
    pub gate: Arc<Gate>,
    pub store: Arc<Store>,
    pub config: Arc<RwLock<OperatorConfig>>,
    /// The allowance; without one, paid legs are never selected.
    pub budget: Option<Arc<BudgetStore>>,
    /// One screen per recently used conversation, so an onion address gets the same placeholder in every turn
    /// and earlier turns are not screened again; made from the known secrets.
    screens: Mutex<Screens<ConversationId>>,
    /// What the node's mint list said the last time a turn read it, for the allowance meter.
    node_mints: Mutex<Option<NodeMints>>,
}

/// The node's `streaming.list-mints` as the last turn with an allowance read it. The allowance meter shows it.
#[derive(Debug, Clone, PartialEq)]
pub enum NodeMints {
    Listed(Vec<Mint>),
    /// Paid help was off for that turn; the text says why, for the owner.
    Unreadable(String),
}

impl std::fmt::Debug for Agent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Agent").field("node", &self.node).field("chain", &self.chain).finish_non_exhaustive()
    }
}

/// Sends an event; a shell that went away is not the turn's problem.
fn emit(events: &UnboundedSender<Event>, event: Event) {
    let _ = events.send(event);
}

impl Agent {
    pub fn new(
        node: Arc<NodeClient>,
        chain: Chain,
        gate: Arc<Gate>,
        store: Arc<Store>,
        config: Arc<RwLock<OperatorConfig>>,
        known_secrets: Vec<KnownSecret>,
    ) -> Self {
        Self {
            node,
            chain,
            registry: Registry::node_tools(),
            gate,
            store,
            config,
            budget: None,
            screens: Mutex::new(Screens::new(Screen::new(known_secrets))),
            node_mints: Mutex::new(None),
        }
    }

    /// Gives the loop an allowance to pay paid legs from. Only the operator writes it; the loop reads a policy
    /// from it at the start of each turn.
    pub fn with_budget(mut self, budget: Arc<BudgetStore>) -> Self {
        self.budget = Some(budget);
        self
    }

    /// What the node's mint list said at the last turn that read it (`None` before one has).
    pub fn node_mints(&self) -> Option<NodeMints> {
        self.node_mints.lock().unwrap_or_else(|p| p.into_inner()).clone()
    }

    /// The turn's payment policy: the operator's allowance, with accepted mints limited to those the node lists.
    /// When the list cannot be read, paid help is off for the turn and the notice says why, in `locale`.
    async fn payment_policy(&self, locale: Locale) -> (PaymentPolicy, Option<String>) {
        let Some(budget) = &self.budget else { return (PaymentPolicy::nothing(), None) };
        let policy = budget.payment_policy();
        if !policy.allows_paid() {
            return (policy, None);
        }
        let (policy, status, notice) = match self.node.list_mints().await {
            Ok(mints) => {
                let listed: Vec<String> = mints.iter().map(|m| m.url.clone()).collect();
                (policy.restricted_to(&listed), NodeMints::Listed(mints), None)
            }
            Err(e) => {
                tracing::warn!(error = %e, "the node's mint list could not be read; paid legs are off for this turn");
                let why = i18n::text(locale, "notice-paid-off", &[("error", e.to_string().into())]);
                (policy.restricted_to(&[]), NodeMints::Unreadable(why.clone()), Some(why))
            }
        };
        *self.node_mints.lock().unwrap_or_else(|p| p.into_inner()) = Some(status);
        (policy, notice)
    }

    /// Runs one turn for the owner's `text` in `conversation`, sending events as it goes, asked from this desktop.
    pub async fn turn(
        &self,
        conversation: &ConversationId,
        text: &str,
        events: &UnboundedSender<Event>,
    ) -> Result<TurnOutcome, AgentError> {
        self.turn_as(conversation, text, events, &Requester::default()).await
    }

    /// [`Agent::turn`], asked by `requester`: every confirmation it opens names them.
    pub async fn turn_as(
        &self,
        conversation: &ConversationId,
        text: &str,
        events: &UnboundedSender<Event>,
        requester: &Requester,
    ) -> Result<TurnOutcome, AgentError> {
        self.turn_stoppable(conversation, text, events, requester, &Stop::new()).await
    }

    /// [`Agent::turn_as`], which `stop` ends early: the backend request in flight is dropped (a paid one first
    /// finishes, so its payment settles), what was written is kept and stored marked stopped, a waiting
    /// confirmation is withdrawn, and nothing proposed after the stop runs.
    pub async fn turn_stoppable(
        &self,
        conversation: &ConversationId,
        text: &str,
        events: &UnboundedSender<Event>,
        requester: &Requester,
        stop: &Stop,
    ) -> Result<TurnOutcome, AgentError> {
        let config = self.config.read().unwrap_or_else(|p| p.into_inner()).clone();
        let locale = config.locale;
        let (policy, mut policy_notice) = self.payment_policy(locale).await;
        if let Some(text) = &policy_notice {
            emit(events, Event::Notice { text: text.clone() });
        }
        let context = TurnContext { policy, claude: self.chain.claude_policy(), node: Some(self.node.clone()), locale };
        // What the owner was told about legs passed over, so a tool loop says it once.
        let mut told = Vec::new();
        let mut spent = TurnSpend::default();
        let mut request = ChatRequest {
            system: system_prompt(&config.system_prompt, locale),
            messages: self.store.recent_messages(conversation, HISTORY_WINDOW)?,
            tools: self.registry.defs(&config.grants),
            max_tokens: config.max_tokens,
        };
        let user = Message::User { text: text.to_owned() };
        request.messages.push(user.clone());
        // The owner's message is stored once a leg accepted it (or the local leg will see it unscreened): a
        // message the egress screen blocks is not kept, so a seed phrase pasted by mistake is not written to disk.
        let mut user_stored = false;

        for _step in 0..MAX_STEPS {
            let turn = match self.step(conversation, &request, &context, events, stop, &mut told).await {
                Ok(turn) => turn,
                Err(StepEnd { reason, message, partial: Some((text, backend)) }) => {
                    // The leg took the message and wrote part of an answer: both are kept, the answer marked.
                    if !user_stored {
                        self.store.append_message(conversation, &user, None)?;
                    }
                    let marked = streamed::marked(locale, &text, reason);
                    let assistant = Message::Assistant { text: marked.clone(), tool_calls: Vec::new() };
                    self.store.append_message(conversation, &assistant, Some(&backend))?;
                    emit(events, Event::Text { text: marked, backend });
                    return self.stop(conversation, events, reason, message, true);
                }
                Err(StepEnd { reason, message, partial: None }) => {
                    let record = user_stored || reason == StopReason::Stopped;
                    if reason == StopReason::Stopped && !user_stored {
                        self.store.append_message(conversation, &user, None)?;
                    }
                    return self.stop(conversation, events, reason, message, record);
                }
            };
            if !user_stored {
                self.store.append_message(conversation, &user, None)?;
                user_stored = true;
                if let Some(text) = policy_notice.take() {
                    self.store.append_notice(conversation, &text)?;
                }
            }
            for notice in &turn.notices {
                self.store.append_notice(conversation, notice)?;
                emit(events, Event::Notice { text: notice.clone() });
            }
            let assistant = Message::Assistant { text: turn.text.clone(), tool_calls: turn.tool_calls.clone() };
            let step_cost = StepCost { usage: turn.usage, cost: turn.cost };
            self.store.append_answer(conversation, &assistant, Some(&turn.backend), Some(&step_cost))?;
            request.messages.push(assistant);
            spent.add(&step_cost);
            emit(events, Event::Spent { backend: turn.backend.clone(), step: step_cost, turn: spent });
            if !turn.text.is_empty() {
                emit(events, Event::Text { text: turn.text.clone(), backend: turn.backend.clone() });
            }
            if !turn.choices.is_empty() {
                emit(events, Event::Choices { choices: turn.choices.clone() });
            }
            if turn.tool_calls.is_empty() {
                emit(events, Event::Done { backend: turn.backend.clone() });
                return Ok(TurnOutcome::Answered { backend: turn.backend, text: turn.text });
            }
            let mut declined: Option<(StopReason, String)> = None;
            for call in &turn.tool_calls {
                // A stop before a call runs: it, and every one after it, is answered "not run".
                if declined.is_none() && stop.is_stopped() {
                    declined = Some((StopReason::Stopped, stopped_message(locale)));
                }
                let result = match &declined {
                    Some(_) => Message::ToolResult {
                        call_id: call.id.clone(),
                        name: call.name.clone(),
                        content: NOT_RUN_RESULT.into(),
                        is_error: true,
                    },
                    None => {
                        let asked = Asked { requester, stop, locale };
                        let (result, ended) =
                            self.run_tool(conversation, call, &config.grants, &turn.backend, &asked, events).await?;
                        declined = ended;
                        result
                    }
                };
                self.store.append_message(conversation, &result, None)?;
                request.messages.push(result);
            }
            if let Some((reason, message)) = declined {
                return self.stop(conversation, events, reason, message, true);
            }
        }
        let message = i18n::text(locale, "stop-step-limit", &[("steps", MAX_STEPS.into())]);
        self.stop(conversation, events, StopReason::StepLimit, message, true)
    }

    /// One model step: select a leg, screen, send; on a leg's own failure, the same step goes to the next leg.
    async fn step(
        &self,
        conversation: &ConversationId,
        request: &ChatRequest,
        context: &TurnContext,
        events: &UnboundedSender<Event>,
        stop: &Stop,
        told: &mut Vec<String>,
    ) -> Result<Turn, StepEnd> {
        let mut from = 0;
        // Every leg passed over or failed this step, with why: the owner's "no backend" message names them all.
        let mut failures: Vec<(String, String)> = Vec::new();
        loop {
            let (index, id) = match self.chain.select(from, request, context).await {
                Ok(selected) => {
                    failures.extend(selected.skipped);
                    for notice in selected.told {
                        if !told.contains(&notice) {
                            emit(events, Event::Notice { text: notice.clone() });
                            told.push(notice);
                        }
                    }
                    (selected.index, selected.id)
                }
                Err(mut none) => {
                    failures.append(&mut none.reasons);
                    none.reasons = failures;
                    return Err(StepEnd::plain(StopReason::NoBackend, none.text(context.locale)));
                }
            };
            let leg = &self.chain.legs()[index];
            let mut body = leg.request_body(&id, request);
            // Held for the whole step: the answer is revealed with the table that screened the request, even if
            // the conversation's screen is let go meanwhile.
            let screen =
                leg.is_cloud().then(|| self.screens.lock().unwrap_or_else(|p| p.into_inner()).get(conversation));
            if let Some(screen) = &screen {
                let screened = screen
                    .lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .screen_request(&mut body, &|built, pointer| leg.origin_of(built, pointer));
                self.screens.lock().unwrap_or_else(|p| p.into_inner()).note_size(conversation, screen);
                match screened {
                    Ok(report) => {
                        let redacted: usize = report.redactions.iter().map(|(_, n)| n).sum();
                        if redacted > 0 {
                            let args = [("count", redacted.into()), ("backend", leg.name_in(context.locale).into())];
                            let text = i18n::text(context.locale, "notice-redacted", &args);
                            emit(events, Event::Notice { text });
                        }
                    }
                    Err(blocked) => {
                        return Err(StepEnd::plain(StopReason::EgressBlocked, blocked.text(context.locale)));
                    }
                }
            }
            if stop.is_stopped() {
                return Err(StepEnd::plain(StopReason::Stopped, stopped_message(context.locale)));
            }
            emit(events, Event::BackendChosen { backend: id.clone() });
            // What the owner sees as it is written: a cloud leg's placeholders revealed, never half of one.
            let streamed = streamed::Streamed::default();
            let on_delta = |piece: &str| {
                let shown = match &screen {
                    Some(screen) => {
                        let screen = screen.lock().unwrap_or_else(|p| p.into_inner());
                        streamed.push(piece, &|text: &str| screen.reveal(text))
                    }
                    None => streamed.push(piece, &str::to_owned),
                };
                if let Some(text) = shown {
                    emit(events, Event::TextDelta { text, backend: id.clone() });
                }
            };
            let sending = leg.send_streaming(&id, body, context, &on_delta);
            let result = if leg.is_paid() {
                // A paid request is never dropped half-way: it finishes, and its payment settles through the
                // ledger as always; the stop then takes effect.
                let mut sending = std::pin::pin!(sending);
                let mut told = false;
                let result = loop {
                    tokio::select! {
                        result = &mut sending => break result,
                        () = stop.stopped(), if !told => {
                            told = true;
                            let text = i18n::text(context.locale, "notice-paid-stop", &[]);
                            emit(events, Event::Notice { text });
                        }
                    }
                };
                if stop.is_stopped() {
                    let partial = result.ok().map(|turn| reveal(screen.as_deref(), turn));
                    let partial = partial.filter(|t| !t.text.is_empty()).map(|t| (t.text, t.backend));
                    let message = stopped_message(context.locale);
                    return Err(StepEnd { reason: StopReason::Stopped, message, partial });
                }
                result
            } else {
                tokio::select! {
                    result = sending => result,
                    () = stop.stopped() => {
                        // Dropping the request closes its connection: the model stops writing.
                        let partial = streamed.shown().filter(|t| !t.is_empty()).map(|t| (t, id.clone()));
                        let message = stopped_message(context.locale);
                        return Err(StepEnd { reason: StopReason::Stopped, message, partial });
                    }
                }
            };
            match result {
                Ok(turn) => return Ok(reveal(screen.as_deref(), turn)),
                Err(BackendError::CutOff { backend, reason, .. }) => {
                    tracing::warn!(leg = leg.name(), %reason, "the answer was cut off mid-way");
                    let args = [("backend", leg.name_in(context.locale).into()), ("reason", reason.to_string().into())];
                    let message = i18n::text(context.locale, "stop-cut-off", &args);
                    let _ = backend;
                    let partial = streamed.shown().map(|t| (t, id.clone()));
                    return Err(StepEnd { reason: StopReason::CutOff, message, partial });
                }
                Err(e) if e.falls_through() => {
                    tracing::info!(leg = leg.name(), error = %e, "leg failed; handing the step to the next leg");
                    let text = match &e {
                        // Whole sentences already: the allowance's own words.
                        BackendError::OverAllowance { message, .. } => {
                            i18n::text(context.locale, "notice-over-allowance", &[("message", message.as_str().into())])
                        }
                        e => i18n::text(context.locale, "notice-leg-failed", &[("error", e.to_string().into())]),
                    };
                    emit(events, Event::Notice { text });
                    failures.push((leg.name_in(context.locale), e.to_string()));
                    from = index + 1;
                }
                Err(BackendError::BudgetStop { message }) => {
                    return Err(StepEnd::plain(StopReason::BudgetStop, message));
                }
                Err(BackendError::PaymentFailed { message }) => {
                    return Err(StepEnd::plain(StopReason::PaymentFailed, message));
                }
                Err(e) => return Err(StepEnd::plain(StopReason::BackendFailed, backend_message(context.locale, &e))),
            }
        }
    }

    /// Validates, gates and runs one tool call. Returns the result for the model, and a stop if the owner
    /// declined.
    async fn run_tool(
        &self,
        conversation: &ConversationId,
        call: &ToolCall,
        grants: &Grants,
        backend: &BackendId,
        asked: &Asked<'_>,
        events: &UnboundedSender<Event>,
    ) -> Result<(Message, Option<(StopReason, String)>), AgentError> {
        let raw = call.arguments.clone().unwrap_or_else(|e| Value::String(e.raw));
        emit(events, Event::ToolProposed { call_id: call.id.clone(), tool: call.name.clone(), arguments: raw });
        let result = |content: String, is_error: bool| Message::ToolResult {
            call_id: call.id.clone(),
            name: call.name.clone(),
            content,
            is_error,
        };
        let validated = match self.registry.validate(&call.name, &call.arguments, grants) {
            Ok(v) => v,
            Err(e) => return Ok((result(tool_error_for_model(&e), true), None)),
        };
        let mut request_id = None;
        if validated.tool.class.needs_confirmation() {
            match self.confirm(conversation, &validated, backend, asked, events).await {
                Ok(id) => request_id = Some(id),
                Err((reason, message)) => return Ok((result(DENIED_RESULT.into(), true), Some((reason, message)))),
            }
        }
        let outcome = tools::execute(&self.node, &validated, request_id.as_deref()).await;
        if let Some(id) = &request_id {
            let audit = outcome.as_ref().map(|o| o.content.clone()).map_err(|e| e.to_string());
            if let Err(e) = self.gate.audit().result(id, &audit) {
                tracing::error!(error = %e, "the result of an approved action could not be audited");
            }
        }
        match outcome {
            Ok(output) => {
                let surface = serde_json::to_value(&output.surface).unwrap_or(Value::Null);
                self.store.append_surface(conversation, Some(&call.id), &surface)?;
                emit(events, Event::Surface { call_id: call.id.clone(), surface: output.surface });
                for note in output.notes {
                    self.notice(conversation, events, note)?;
                }
                Ok((result(output.content, false), None))
            }
            Err(e) => {
                // The owner sees the failure too, not only the model: a model may shrug it off.
                let rpc = validated.tool.method.spec().rpc_name;
                let key =
                    if validated.tool.class.needs_confirmation() { "notice-act-failed" } else { "notice-read-failed" };
                let text = i18n::text(asked.locale, key, &[("method", rpc.into()), ("error", e.to_string().into())]);
                self.notice(conversation, events, text)?;
                Ok((result(format!("The node answered with an error: {e}"), true), None))
            }
        }
    }

    /// A notice for the owner: stored with the conversation and sent to the shells.
    fn notice(
        &self,
        conversation: &ConversationId,
        events: &UnboundedSender<Event>,
        text: String,
    ) -> Result<(), AgentError> {
        self.store.append_notice(conversation, &text)?;
        emit(events, Event::Notice { text });
        Ok(())
    }

    /// Opens a confirmation and waits for the owner. `Ok(request id)` only on approval.
    async fn confirm(
        &self,
        conversation: &ConversationId,
        call: &ValidatedCall<'_>,
        backend: &BackendId,
        asked: &Asked<'_>,
        events: &UnboundedSender<Event>,
    ) -> Result<String, (StopReason, String)> {
        let app = call.app().unwrap_or_default();
        let version = call.arguments.get("version").and_then(Value::as_str);
        // The summary is the host's, from the node's own state; a failure to read it says so rather than guess.
        let packages = self.node.list_packages().await;
        if let Err(e) = &packages
            && let Err(store) = self.notice(conversation, events, package_list_failed(asked.locale, e))
        {
            tracing::error!(error = %store, "a notice could not be stored");
        }
        let locale = asked.locale;
        let summary = summary::action_summary(locale, call.tool.method, app, version, packages.as_deref().ok());
        let proposal = Proposal {
            tool: call.tool.name.to_owned(),
            rpc_method: call.tool.method.spec().rpc_name.to_owned(),
            arguments: call.arguments.clone(),
            summary: summary.clone(),
            class: call.tool.class,
            backend: backend.clone(),
            requester: asked.requester.clone(),
        };
        let waiter = self.gate.open(proposal).map_err(|e| {
            let args = [("summary", summary.as_str().into()), ("error", e.to_string().into())];
            (StopReason::Denied, i18n::text(locale, "confirm-not-done", &args))
        })?;
        emit(events, Event::AwaitingConfirmation { request: waiter.request.clone() });
        let id = waiter.request.id.clone();
        let verdict = tokio::select! {
            verdict = self.gate.wait(waiter) => verdict,
            () = asked.stop.stopped() => {
                // Taken back from every trusted surface: nobody can approve what the owner stopped.
                self.gate.withdraw(&id);
                return Err((StopReason::Stopped, stopped_message(locale)));
            }
        };
        match verdict {
            Verdict::Allowed => Ok(id),
            Verdict::Denied => Err((
                StopReason::Denied,
                i18n::text(locale, "confirm-declined", &[("summary", summary.as_str().into())]),
            )),
            Verdict::Expired => Err((
                StopReason::Expired,
                i18n::text(locale, "confirm-expired", &[("summary", summary.as_str().into())]),
            )),
        }
    }

    fn stop(
        &self,
        conversation: &ConversationId,
        events: &UnboundedSender<Event>,
        reason: StopReason,
        message: String,
        record: bool,
    ) -> Result<TurnOutcome, AgentError> {
        if record {
            self.store.append_notice(conversation, &message)?;
        }
        emit(events, Event::Stopped { reason, message: message.clone() });
        Ok(TurnOutcome::Stopped { reason, message })
    }
}

/// Puts the real values back behind the placeholders a cloud leg saw (`screen` screened its request; none for a
/// local leg), so a tool call that names `[lan-ip-1]` reaches the real address and the owner reads real names.
/// Redacted secrets cannot come back.
fn reveal(screen: Option<&Mutex<Screen>>, mut turn: Turn) -> Turn {
    let Some(screen) = screen else { return turn };
    let screen = screen.lock().unwrap_or_else(|p| p.into_inner());
    turn.text = screen.reveal(&turn.text);
    for call in &mut turn.tool_calls {
        if let Ok(arguments) = &mut call.arguments {
            reveal_strings(&screen, arguments);
        }
    }
    turn
}

fn reveal_strings(screen: &Screen, value: &mut Value) {
    match value {
        Value::String(s) => *s = screen.reveal(s),
        Value::Array(items) => items.iter_mut().for_each(|v| reveal_strings(screen, v)),
        Value::Object(map) => map.values_mut().for_each(|v| reveal_strings(screen, v)),
        _ => {}
    }
}

fn package_list_failed(locale: Locale, error: &NodeError) -> String {
    i18n::text(locale, "notice-package-list-failed", &[("error", error.to_string().into())])
}

fn tool_error_for_model(error: &ToolError) -> String {
    format!("Tool error: {error}. Correct the call and try again, or answer without it.")
}

fn backend_message(locale: Locale, error: &BackendError) -> String {
    match error {
        BackendError::ContextTooLong { .. } => i18n::text(locale, "stop-context-too-long", &[]),
        other => i18n::text(locale, "stop-backend-failed", &[("error", other.to_string().into())]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_system_prompt_asks_for_the_owners_language_and_leaves_english_alone() {
        let base = OperatorConfig::default().system_prompt;
        assert_eq!(system_prompt(&base, Locale::En), base, "English: the operator's prompt unchanged");
        assert_eq!(system_prompt(&base, Locale::Pseudo), base, "the pseudo-locale is English to a model");
        let german = system_prompt(&base, Locale::De);
        assert!(german.starts_with(&base) && german.contains("write every answer in German"), "{german}");
        let spanish = system_prompt(&base, Locale::Es);
        assert!(spanish.contains("write every answer in Spanish"), "{spanish}");
    }
}
