//! The shapes every shell sends to its windows (the desktop app over Tauri IPC, the LAN service over HTTP). Core
//! types are converted here, explicitly, so a change in the core never silently changes what a window receives,
//! and the chat window never gets a field it must not have (it never sees a confirmation's id or hash).

use serde::Serialize;
use serde_json::Value;

use crate::agent::{Event, NodeMints, StopReason, TurnSpend};
use crate::backends::{BackendId, Cost, Message, StepCost};
use crate::budget::{BudgetReport, ClaudeReport};
use crate::gate::{ConfirmRequest, Requester};
use crate::node::Package;
use crate::pricing::format_usd;
use crate::store::{AnswerCounts, Conversation, ConversationSummary, EntryKind};
use crate::tools::ToolClass;

/// One event of a turn, for the chat window.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum ChatEvent {
    /// `backend` is who answers in English ([`BackendId::label`]); `backend_id` the same as data, for the page to
    /// name in the owner's language.
    BackendChosen {
        backend: String,
        backend_id: BackendId,
    },
    /// A piece of the answer as it is written; the page appends it to the answer being drawn.
    TextDelta {
        text: String,
        backend: String,
        backend_id: BackendId,
    },
    Text {
        text: String,
        backend: String,
        backend_id: BackendId,
    },
    /// What the step just answered cost, and the turn so far: shown quietly under the answer's backend label.
    Spent {
        step: CostView,
        turn: SpendView,
    },
    /// One-tap replies to the question just asked; tapping one sends it as the owner's next message.
    Choices {
        choices: Vec<String>,
    },
    ToolProposed {
        tool: String,
    },
    /// Only the host-written summary: the chat window can say what waits, not answer it.
    AwaitingConfirmation {
        summary: String,
    },
    Surface {
        surface: Value,
    },
    Notice {
        text: String,
    },
    Stopped {
        reason: &'static str,
        message: String,
    },
    Done {
        backend: String,
        backend_id: BackendId,
    },
    /// The machinery failed (the store could not be written).
    Failed {
        message: String,
    },
}

impl From<Event> for ChatEvent {
    fn from(event: Event) -> Self {
        match event {
            Event::BackendChosen { backend } => Self::BackendChosen { backend: backend.label(), backend_id: backend },
            Event::TextDelta { text, backend } => {
                Self::TextDelta { text, backend: backend.label(), backend_id: backend }
            }
            Event::Text { text, backend } => Self::Text { text, backend: backend.label(), backend_id: backend },
            Event::Spent { backend, step, turn } => {
                Self::Spent { step: CostView::new(&backend, &step), turn: SpendView::from(turn) }
            }
            Event::Choices { choices } => Self::Choices { choices },
            Event::ToolProposed { tool, .. } => Self::ToolProposed { tool },
            Event::AwaitingConfirmation { request } => Self::AwaitingConfirmation { summary: request.summary },
            Event::Surface { surface, .. } => {
                Self::Surface { surface: serde_json::to_value(&surface).unwrap_or(Value::Null) }
            }
            Event::Notice { text } => Self::Notice { text },
            Event::Stopped { reason, message } => Self::Stopped { reason: stop_reason(reason), message },
            Event::Done { backend } => Self::Done { backend: backend.label(), backend_id: backend },
        }
    }
}

fn stop_reason(reason: StopReason) -> &'static str {
    match reason {
        StopReason::StepLimit => "step_limit",
        StopReason::Denied => "denied",
        StopReason::Expired => "expired",
        StopReason::EgressBlocked => "egress_blocked",
        StopReason::NoBackend => "no_backend",
        StopReason::BackendFailed => "backend_failed",
        StopReason::NodeFailed => "node_failed",
        StopReason::BudgetStop => "budget_stop",
        StopReason::PaymentFailed => "payment_failed",
        StopReason::Stopped => "stopped",
        StopReason::CutOff => "cut_off",
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct NodeView {
    pub url: String,
    pub demo: bool,
}

#[derive(Debug, Clone, Serialize)]
pub struct ConversationView {
    pub id: String,
    pub title: String,
    pub updated_at_ms: i64,
    pub message_count: u64,
}

impl From<ConversationSummary> for ConversationView {
    fn from(c: ConversationSummary) -> Self {
        Self { id: c.id.0, title: c.title, updated_at_ms: c.updated_at_ms, message_count: c.message_count }
    }
}

/// One thing to draw when a conversation is resumed.
#[derive(Debug, Clone, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ItemView {
    User {
        text: String,
    },
    /// `cost`: what the turn's steps up to this answer cost, where it was recorded. `backend` is who answered in
    /// English, `backend_id` the same as data.
    Assistant {
        text: String,
        backend: Option<String>,
        backend_id: Option<BackendId>,
        cost: Option<SpendView>,
    },
    Surface {
        surface: Value,
    },
    Notice {
        text: String,
    },
}

#[derive(Debug, Clone, Serialize)]
pub struct ConversationDetail {
    pub id: String,
    pub title: String,
    pub items: Vec<ItemView>,
    /// What the whole conversation's recorded answers cost.
    pub total: SpendView,
}

impl From<Conversation> for ConversationDetail {
    fn from(c: Conversation) -> Self {
        let mut total = TurnSpend::default();
        // The steps since the last answer shown: a tool-only step's cost is shown with the answer that follows it.
        let mut pending: Option<TurnSpend> = None;
        let mut items = Vec::new();
        for entry in c.entries {
            match entry.kind {
                EntryKind::Message { message: Message::User { text }, .. } => {
                    pending = None;
                    items.push(ItemView::User { text });
                }
                EntryKind::Message { message: Message::Assistant { text, .. }, backend, cost } => {
                    if let Some(cost) = &cost {
                        total.add(cost);
                        pending.get_or_insert_default().add(cost);
                    }
                    // Tool-only steps have no words for the owner; their surfaces are drawn instead.
                    if !text.is_empty() {
                        let cost = pending.take().map(SpendView::from);
                        let label = backend.as_ref().map(BackendId::label);
                        items.push(ItemView::Assistant { text, backend: label, backend_id: backend, cost });
                    }
                }
                EntryKind::Message { .. } => {}
                EntryKind::Surface { surface, .. } => items.push(ItemView::Surface { surface }),
                EntryKind::Notice { text } => items.push(ItemView::Notice { text }),
            }
        }
        Self { id: c.id.0, title: c.title, items, total: SpendView::from(total) }
    }
}

/// One step's cost for the chat: a short label, and the token counts on demand. The label and detail are English
/// (the terminal's and the logs'); a page writes its own in the owner's language from the figures beside them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CostView {
    /// "$0.0165", "12 sats", "$0".
    pub label: String,
    /// "claude-sonnet-4-5: 1804 input, 22 output, 2048 cache-write, 10000 cache-read tokens".
    pub detail: String,
    /// Who answered, as [`BackendId::label`] names it, and as data.
    pub backend: String,
    pub backend_id: BackendId,
    /// What the step cost in its allowance's unit: dollars (Claude) or sats (Routstr); both 0 when `free`.
    pub usd_micros: u64,
    pub sats: u64,
    /// Answered on this machine, at no cost.
    pub free: bool,
    pub input_tokens: u64,
    pub output_tokens: u64,
    pub cache_write_tokens: u64,
    pub cache_read_tokens: u64,
}

impl CostView {
    pub fn new(backend: &BackendId, step: &StepCost) -> Self {
        let label = match step.cost {
            Cost::Free => "$0".to_owned(),
            Cost::Usd { micros } => crate::pricing::format_usd(micros),
            Cost::Sats { sats } => sats_label(sats),
        };
        let u = step.usage;
        let mut counts = vec![format!("{} input", u.input_tokens), format!("{} output", u.output_tokens)];
        if u.cache_write_tokens > 0 {
            counts.push(format!("{} cache-write", u.cache_write_tokens));
        }
        if u.cache_read_tokens > 0 {
            counts.push(format!("{} cache-read", u.cache_read_tokens));
        }
        let free = if step.cost == Cost::Free { " (on this machine, free)" } else { "" };
        let (usd_micros, sats) = match step.cost {
            Cost::Free => (0, 0),
            Cost::Usd { micros } => (micros, 0),
            Cost::Sats { sats } => (0, sats),
        };
        Self {
            label,
            detail: format!("{}{free}: {} tokens", backend.label(), counts.join(", ")),
            backend: backend.label(),
            backend_id: backend.clone(),
            usd_micros,
            sats,
            free: step.cost == Cost::Free,
            input_tokens: u.input_tokens,
            output_tokens: u.output_tokens,
            cache_write_tokens: u.cache_write_tokens,
            cache_read_tokens: u.cache_read_tokens,
        }
    }
}

/// A sum of costs, each allowance in its own unit: "$0.0421 + 12 sats", "$0" when only free legs answered.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct SpendView {
    pub label: String,
    pub usd_micros: u64,
    pub sats: u64,
    pub free_steps: u32,
}

impl From<TurnSpend> for SpendView {
    fn from(spend: TurnSpend) -> Self {
        let mut parts = Vec::new();
        if spend.usd_micros > 0 {
            parts.push(crate::pricing::format_usd(spend.usd_micros));
        }
        if spend.sats > 0 {
            parts.push(sats_label(spend.sats));
        }
        let label = if parts.is_empty() { "$0".to_owned() } else { parts.join(" + ") };
        Self { label, usd_micros: spend.usd_micros, sats: spend.sats, free_steps: spend.free_steps }
    }
}

impl SpendView {
    /// What it cost in `locale`, each allowance in its own unit: "$0.0123 + 21 sats", "0,0123 $ + 21 Sats".
    pub fn label_in(&self, locale: crate::i18n::Locale) -> String {
        let mut parts = Vec::new();
        if self.usd_micros > 0 {
            parts.push(crate::pricing::format_usd_in(locale, self.usd_micros));
        }
        if self.sats > 0 {
            parts.push(crate::i18n::text(locale, "cost-sats", &[("sats", self.sats.into())]));
        }
        if parts.is_empty() {
            return crate::i18n::text(locale, "cost-free", &[]);
        }
        parts.join(&crate::i18n::text(locale, "cost-separator", &[]))
    }
}

fn sats_label(sats: u64) -> String {
    if sats == 1 { "1 sat".to_owned() } else { format!("{sats} sats") }
}

#[derive(Debug, Clone, Serialize)]
pub struct PackageView {
    pub id: String,
    pub title: String,
    pub version: String,
    pub state: String,
}

impl From<Package> for PackageView {
    fn from(p: Package) -> Self {
        let state = match serde_json::to_value(p.state) {
            Ok(Value::String(s)) => s,
            _ => "unknown".into(),
        };
        Self { id: p.id, title: p.title, version: p.version, state }
    }
}

/// A pending confirmation as the trusted window shows it. Every field is host-made.
#[derive(Debug, Clone, Serialize)]
pub struct PendingView {
    pub id: String,
    pub arguments_hash: String,
    pub summary: String,
    pub tool: String,
    pub rpc_method: String,
    /// The validated arguments as name/value rows, values as JSON text.
    pub arguments: Vec<(String, String)>,
    pub class: &'static str,
    pub risk: &'static str,
    /// Who proposed it, in English ([`BackendId::label`]), and as data for the page to write in the owner's language.
    pub backend: String,
    pub backend_id: BackendId,
    /// Who asked, in the host's words ("this desktop", "a LAN session from 192.168.1.20 (signed in …)").
    pub requester: String,
    /// Who asked, as data, for the page to write in the owner's language (`requester` is its English).
    pub asked_by: Requester,
    /// Whether a LAN user asked (the window marks it, so the owner never mistakes it for their own request).
    pub from_lan: bool,
    /// Where the decision goes: `local` (this process's gate) or `lan` (the LAN service, through the kiosk socket).
    pub route: &'static str,
    pub created_at_ms: i64,
    pub expires_at_ms: i64,
    /// The host's clock when this was read, so the window counts down without trusting its own clock.
    pub now_ms: i64,
}

impl From<ConfirmRequest> for PendingView {
    fn from(r: ConfirmRequest) -> Self {
        let arguments = match &r.arguments {
            Value::Object(map) => map
                .iter()
                .map(|(k, v)| {
                    (
                        k.clone(),
                        match v {
                            Value::String(s) => s.clone(),
                            other => other.to_string(),
                        },
                    )
                })
                .collect(),
            other => vec![("(arguments)".into(), other.to_string())],
        };
        let (class, risk) = match r.class {
            ToolClass::Read => ("read", "Reads state only"),
            ToolClass::Act => ("act", "Changes the node"),
            ToolClass::ActHigh => ("act-high", "Changes the node in a way that is hard to undo"),
        };
        Self {
            id: r.id,
            arguments_hash: r.arguments_hash,
            summary: r.summary,
            tool: r.tool,
            rpc_method: r.rpc_method,
            arguments,
            class,
            risk,
            backend: r.backend.label(),
            backend_id: r.backend.clone(),
            requester: r.requester.label(),
            asked_by: r.requester.clone(),
            from_lan: r.requester.is_lan(),
            route: "local",
            created_at_ms: r.created_at_ms,
            expires_at_ms: r.expires_at_ms,
            now_ms: crate::now_ms(),
        }
    }
}

/// The one meter, as the chat window (read only), the kiosk and the trusted surfaces show it: Routstr's sats
/// allowance (the fields at the top level), Claude's USD allowance (`claude`), and the answers given at $0
/// (`free_answers`), each in its own unit, with what the last chain build said.
#[derive(Debug, Clone, Serialize)]
pub struct AllowanceView {
    /// Settled Routstr spend reached 80% of its allowance this period.
    pub notice_80: bool,
    pub claude: ClaudeMeterView,
    pub free_answers: FreeAnswersView,
    pub allowance_sats: u64,
    pub period: &'static str,
    pub spent_sats: u64,
    pub reserved_sats: u64,
    pub remaining_sats: u64,
    pub renews_at_ms: Option<i64>,
    /// E.g. "Paid help (Routstr) is off: the wallet could not be opened".
    pub notices: Vec<String>,
    /// The mints the node listed at the last turn that read them (URL and unit).
    pub node_mints: Vec<MintView>,
    /// Set when the last turn could not read the node's mint list: paid help was off, and why.
    pub paid_off: Option<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct MintView {
    pub url: String,
    pub unit: String,
}

/// The whole meter from the two allowances' reports and the store's count of this month's free answers. A store
/// that cannot be counted shows 0 free answers, never an error in place of the allowances.
pub fn meter(
    budget: &BudgetReport,
    claude: &ClaudeReport,
    store: &crate::store::Store,
    notices: Vec<String>,
) -> AllowanceView {
    let since = crate::budget::month_start_utc(crate::now_ms());
    let counts = store.answers_since(since).unwrap_or_else(|e| {
        tracing::warn!(error = %e, "the meter could not count this month's free answers");
        AnswerCounts::default()
    });
    AllowanceView::new(budget, notices).with_claude(claude).with_free_answers(counts, since)
}

/// Claude's USD allowance for the meter: the amounts, and the host's own formatting of them.
#[derive(Debug, Clone, Default, Serialize)]
pub struct ClaudeMeterView {
    pub allowance_usd_micros: u64,
    pub spent_usd_micros: u64,
    pub reserved_usd_micros: u64,
    pub remaining_usd_micros: u64,
    pub period: &'static str,
    pub renews_at_ms: Option<i64>,
    /// "$5.00", "$0.4213", …
    pub allowance: String,
    pub spent: String,
    pub reserved: String,
    pub remaining: String,
    /// Settled spend reached 80% of the allowance this period.
    pub notice_80: bool,
}

impl From<&ClaudeReport> for ClaudeMeterView {
    fn from(r: &ClaudeReport) -> Self {
        Self {
            allowance_usd_micros: r.allowance_usd_micros,
            spent_usd_micros: r.spent_usd_micros,
            reserved_usd_micros: r.reserved_usd_micros,
            remaining_usd_micros: r.remaining_usd_micros,
            period: r.period.as_str(),
            renews_at_ms: r.renews_at_ms,
            allowance: format_usd(r.allowance_usd_micros),
            spent: format_usd(r.spent_usd_micros),
            reserved: format_usd(r.reserved_usd_micros),
            remaining: format_usd(r.remaining_usd_micros),
            notice_80: reached_80(r.spent_usd_micros, r.allowance_usd_micros),
        }
    }
}

/// The answers legs on this machine gave at $0 since `since_ms` (the start of the calendar month, UTC).
#[derive(Debug, Clone, Copy, Default, Serialize)]
pub struct FreeAnswersView {
    pub local: u64,
    pub builtin: u64,
    pub since_ms: i64,
}

fn reached_80(spent: u64, allowance: u64) -> bool {
    allowance > 0 && u128::from(spent) * 5 >= u128::from(allowance) * 4
}

impl AllowanceView {
    pub fn new(report: &BudgetReport, notices: Vec<String>) -> Self {
        Self {
            notice_80: reached_80(report.spent_sats, report.allowance_sats),
            claude: ClaudeMeterView::default(),
            free_answers: FreeAnswersView::default(),
            allowance_sats: report.allowance_sats,
            period: report.period.as_str(),
            spent_sats: report.spent_sats,
            reserved_sats: report.reserved_sats,
            remaining_sats: report.remaining_sats,
            renews_at_ms: report.renews_at_ms,
            notices,
            node_mints: Vec::new(),
            paid_off: None,
        }
    }

    /// Adds Claude's USD allowance.
    pub fn with_claude(mut self, report: &ClaudeReport) -> Self {
        self.claude = ClaudeMeterView::from(report);
        self
    }

    /// Adds the free answers counted since `since_ms`.
    pub fn with_free_answers(mut self, counts: AnswerCounts, since_ms: i64) -> Self {
        self.free_answers = FreeAnswersView { local: counts.local, builtin: counts.builtin, since_ms };
        self
    }

    /// Adds what the node's mint list said at the last turn that read it.
    pub fn with_node_mints(mut self, mints: Option<NodeMints>) -> Self {
        match mints {
            Some(NodeMints::Listed(mints)) => {
                self.node_mints = mints.into_iter().map(|m| MintView { url: m.url, unit: m.unit }).collect();
            }
            Some(NodeMints::Unreadable(why)) => self.paid_off = Some(why),
            None => {}
        }
        self
    }
}

#[cfg(test)]
mod tests {
    use super::SpendView;
    use crate::agent::TurnSpend;
    use crate::i18n::Locale;

    #[test]
    fn a_turns_cost_is_written_in_the_owners_language_each_allowance_in_its_unit() {
        let both = SpendView::from(TurnSpend { usd_micros: 12_300, sats: 21, free_steps: 0 });
        assert_eq!(both.label_in(Locale::En), both.label, "English is the label the pages and logs know");
        assert_eq!(both.label_in(Locale::En), "$0.0123 + 21 sats");
        assert_eq!(both.label_in(Locale::De), "0,0123\u{a0}$ + 21 Sats");
        assert_eq!(both.label_in(Locale::Es), "0,0123\u{a0}US$ + 21 sats");
        let one = SpendView::from(TurnSpend { usd_micros: 0, sats: 1, free_steps: 0 });
        assert_eq!(one.label_in(Locale::De), "1 Sat");
        let free = SpendView::from(TurnSpend { usd_micros: 0, sats: 0, free_steps: 2 });
        assert_eq!(free.label_in(Locale::En), "$0");
        assert_eq!(free.label_in(Locale::Es), "0\u{a0}US$");
    }
}
