//! The built-in leg: a small local model (SmolLM2-135M) at the end of the chain, so a fresh machine answers.
//!
//! A 135M model cannot write tool calls, so it is not asked to. Code resolves which app a request names against
//! the node's package list (`apps.rs`); the model only chooses among a dozen intents by calibrated
//! log-likelihood (`intents.rs`), scored by an [`IntentScorer`] that another crate implements with llama.cpp, so
//! aiui-core itself never builds llama.cpp. Every word the owner reads from this leg is host-written, in the
//! turn's language (`answers.rs` and the catalogues), built from tool results; acts go through the gate like any
//! other leg's.

pub mod answers;
pub mod apps;
pub mod intents;

use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use serde_json::{Value, json};

pub use intents::{Intent, ScoringPrompt, scoring_prompt};

use super::{BackendError, BackendId, ChatRequest, Cost, Message, ToolCall, Turn, Usage};
use crate::i18n::{self, Locale};
use crate::node::{NodeClient, Package, PackageState};
use crate::tools::Surface;

/// The model's name as every answer is labelled with it.
pub const MODEL_NAME: &str = "SmolLM2-135M";

/// A future of calibrated scores, one per [`Intent::ALL`], or why there are none.
pub type ScoreFuture<'a> = Pin<Box<dyn Future<Output = Result<Vec<f32>, String>> + Send + 'a>>;

/// What scores the intents: llama.cpp in the shells (crate `aiui-llama`), a table in unit tests.
pub trait IntentScorer: Send + Sync + fmt::Debug {
    /// Whether it can score now; `Err` says, in `locale`, what the owner can do (e.g. fetch the model).
    fn ready_in(&self, locale: Locale) -> Result<(), String>;
    /// [`IntentScorer::ready_in`] in English, for the logs.
    fn ready(&self) -> Result<(), String> {
        self.ready_in(Locale::En)
    }
    /// Scores `request` against the intents of [`scoring_prompt`]. Dropping the future cancels the scoring.
    fn score<'a>(&'a self, request: &'a str) -> ScoreFuture<'a>;
}

/// The owner's setting and the scorer the shell supplies.
#[derive(Clone)]
pub struct BuiltinConfig {
    /// The owner can turn the leg off.
    pub enabled: bool,
    /// `None` in a build without the built-in model.
    pub scorer: Option<Arc<dyn IntentScorer>>,
    /// Add the request's words as evidence to the model's scores (reported separately by the accuracy test).
    pub lexical: bool,
}

impl Default for BuiltinConfig {
    fn default() -> Self {
        Self { enabled: true, scorer: None, lexical: true }
    }
}

impl fmt::Debug for BuiltinConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("BuiltinConfig")
            .field("enabled", &self.enabled)
            .field("scorer", &self.scorer.is_some())
            .field("lexical", &self.lexical)
            .finish()
    }
}

/// How much a cue word counts against the model's calibrated log-likelihood (nats).
const LEXICAL_WEIGHT: f32 = 3.0;
/// Below this lead over the runner-up, the leg asks instead of guessing.
const ASK_MARGIN: f32 = 0.35;

/// What the leg decided for one request.
#[derive(Debug, Clone, PartialEq)]
pub enum Decision {
    /// Call `intent`'s tool, with `app` when it takes one.
    Act { intent: Intent, app: Option<(String, String)> },
    /// Ask which of these was meant (one-tap choices, as the owner would type them).
    Ask { question: String, choices: Vec<String> },
    /// Outside what this leg does: say so, and how to get a larger model.
    Decline,
}

/// Chooses from calibrated model scores, optional lexical evidence, and the apps the request names; a question
/// and its choices are in `locale`.
pub fn decide(locale: Locale, request: &str, model: &[f32], lexical: bool, packages: &[Package]) -> Decision {
    let evidence = intents::lexical_evidence(request);
    let combined: Vec<f32> =
        model.iter().zip(&evidence).map(|(m, e)| if lexical { m + LEXICAL_WEIGHT * e } else { *m }).collect();
    let mut ranked: Vec<(Intent, f32)> = Intent::ALL.iter().copied().zip(combined).collect();
    ranked.sort_by(|a, b| b.1.total_cmp(&a.1));
    let (best, best_score) = ranked[0];
    let (second, second_score) = ranked[1];
    let apps = apps::resolve(request, packages);
    // "Is LND running?" asks about one app, not for the list; "which services are up?" names none, so it asks
    // for the list: the apps named decide between the two.
    let best = match best {
        Intent::ListApps if apps.len() == 1 => Intent::Status,
        Intent::Status if apps.is_empty() => Intent::ListApps,
        other => other,
    };
    // Nothing in the request names an app or an intent's words: outside what this leg does (with evidence on).
    let no_cue = evidence.iter().zip(Intent::ALL).all(|(e, i)| i == Intent::Other || *e == 0.0);
    if best == Intent::Other || (lexical && no_cue && apps.is_empty()) {
        return Decision::Decline;
    }
    let label = |m: &apps::AppMatch| m.title.clone();
    if best.needs_app() {
        match apps.as_slice() {
            [] => return which_app(locale, best, packages),
            [one] => {
                if best_score - second_score < ASK_MARGIN && second != Intent::Other && second != best {
                    let choices = vec![best.describe(locale, &label(one)), second.describe(locale, &label(one))];
                    return did_you_mean(locale, choices);
                }
                return Decision::Act { intent: best, app: Some((one.id.clone(), one.title.clone())) };
            }
            several => {
                // Of several equally good names, those the intent can act on; all of them if none can.
                let actionable = |m: &&apps::AppMatch| {
                    let installed = packages.iter().any(|p| p.id == m.id && p.state != PackageState::NotInstalled);
                    installed != (best == Intent::Install)
                };
                let fitting: Vec<&apps::AppMatch> = several.iter().filter(actionable).collect();
                let offered = if fitting.is_empty() { several.iter().collect() } else { fitting };
                let choices: Vec<String> = offered.iter().map(|m| best.describe(locale, &label(m))).collect();
                return did_you_mean(locale, choices);
            }
        }
    }
    if best_score - second_score < ASK_MARGIN && second != Intent::Other && second != best {
        let app = apps.first().map(label).unwrap_or_else(|| i18n::text(locale, "builtin-an-app", &[]));
        let choices = vec![best.describe(locale, &app), second.describe(locale, &app)];
        return did_you_mean(locale, choices);
    }
    Decision::Act { intent: best, app: None }
}

/// "Did you mean: restart LND, or show LND's logs?", with those as the one-tap choices.
fn did_you_mean(locale: Locale, choices: Vec<String>) -> Decision {
    let joined = choices.join(&i18n::text(locale, "builtin-or", &[]));
    Decision::Ask { question: i18n::text(locale, "builtin-did-you-mean", &[("choices", joined.into())]), choices }
}

/// Asks which app `intent` is for when the request named none the node knows. The node's list mixes installed apps
/// with ones only in its catalogue: both are said, apart, and the one-tap choices are the apps the intent can act
/// on (apps not installed for an install, installed ones for everything else).
fn which_app(locale: Locale, intent: Intent, packages: &[Package]) -> Decision {
    let (installed, catalogue): (Vec<&Package>, Vec<&Package>) =
        packages.iter().partition(|p| p.state != PackageState::NotInstalled);
    let separator = i18n::text(locale, "builtin-separator", &[]);
    let titles = |list: &[&Package]| list.iter().map(|p| p.title.as_str()).collect::<Vec<_>>().join(&separator);
    let action = intent.describe(locale, &i18n::text(locale, "builtin-an-app", &[]));
    let mut sentences = vec![i18n::text(locale, "builtin-which-app", &[("action", action.into())])];
    sentences.push(match (installed.is_empty(), catalogue.is_empty()) {
        (false, _) => i18n::text(locale, "builtin-installed", &[("apps", titles(&installed).into())]),
        (true, false) => i18n::text(locale, "builtin-none-installed", &[]),
        (true, true) => i18n::text(locale, "builtin-no-apps", &[]),
    });
    if !catalogue.is_empty() {
        sentences.push(i18n::text(locale, "builtin-installable", &[("apps", titles(&catalogue).into())]));
    }
    let question = sentences.join(" ");
    let offered = if intent == Intent::Install { &catalogue } else { &installed };
    let choices = offered.iter().take(4).map(|p| intent.describe(locale, &p.title)).collect();
    Decision::Ask { question, choices }
}

/// The leg.
#[derive(Debug)]
pub struct Builtin {
    config: BuiltinConfig,
    /// The small-model notice is said once per process, not with every answer.
    introduced: AtomicBool,
}

impl Builtin {
    pub fn new(config: BuiltinConfig) -> Self {
        Self { config, introduced: AtomicBool::new(false) }
    }

    pub fn id() -> BackendId {
        BackendId::Builtin { model: MODEL_NAME.into() }
    }

    pub fn check(&self, locale: Locale) -> Result<BackendId, String> {
        if !self.config.enabled {
            return Err(i18n::text(locale, "builtin-turned-off", &[]));
        }
        let Some(scorer) = &self.config.scorer else {
            return Err(i18n::text(locale, "builtin-not-built", &[]));
        };
        scorer.ready_in(locale)?;
        Ok(Self::id())
    }

    /// The body is the normalized request itself: nothing leaves the machine, and the leg reads only messages.
    pub fn request_body(request: &ChatRequest) -> Value {
        json!({ "messages": request.messages })
    }

    /// One step: compose an answer from the tool result this turn produced, or decide what the request asks.
    /// Everything it says is in `locale`, the turn's; it understands requests in every shipped locale.
    pub async fn send(&self, body: Value, node: Option<&NodeClient>, locale: Locale) -> Result<Turn, BackendError> {
        let messages: Vec<Message> = serde_json::from_value(body.get("messages").cloned().unwrap_or(Value::Null))
            .map_err(|e| protocol(format!("the conversation could not be read: {e}")))?;
        let last_user = messages.iter().rposition(|m| matches!(m, Message::User { .. }));
        let Some(index) = last_user else { return Err(protocol("there is no request to answer".into())) };
        if let Some(result) = messages[index + 1..].iter().rev().find_map(|m| match m {
            Message::ToolResult { content, is_error, .. } => Some((content, *is_error)),
            _ => None,
        }) {
            return Ok(self.turn(locale, answers::from_result(locale, result.0, result.1), Vec::new(), Vec::new()));
        }
        let Message::User { text } = &messages[index] else { unreachable!("rposition found a user message") };
        let scorer =
            self.config.scorer.as_ref().ok_or_else(|| unavailable(i18n::text(locale, "builtin-not-built", &[])))?;
        let packages = match node {
            Some(node) => node.list_packages().await.map_err(|e| {
                unavailable(format!("the node's app list could not be read ({e}), and without it no app can be named"))
            })?,
            None => Vec::new(),
        };
        let scores = scorer.score(&apps::model_input(text, &packages)).await.map_err(unavailable)?;
        Ok(match decide(locale, text, &scores, self.config.lexical, &packages) {
            Decision::Act { intent, app } => {
                let Some(method) = intent.method() else {
                    return Ok(self.turn(locale, answers::capabilities(locale), vec![], vec![]));
                };
                let tool = crate::tools::Registry::node_tools()
                    .iter()
                    .find(|t| t.method == method)
                    .map(|t| t.name)
                    .ok_or_else(|| protocol(format!("no tool calls {method:?}")))?;
                let arguments = match &app {
                    Some((id, _)) => json!({ "id": id }),
                    None => json!({}),
                };
                let title = app.as_ref().map(|(_, title)| title.as_str());
                let call = ToolCall { id: call_id(), name: tool.to_owned(), arguments: Ok(arguments) };
                self.turn(locale, answers::understood(locale, intent, title), vec![call], Vec::new())
            }
            Decision::Ask { question, choices } => self.turn(locale, question, Vec::new(), choices),
            Decision::Decline => self.turn(locale, answers::capabilities(locale), Vec::new(), Vec::new()),
        })
    }

    fn turn(&self, locale: Locale, text: String, tool_calls: Vec<ToolCall>, choices: Vec<String>) -> Turn {
        let mut notices = Vec::new();
        if !self.introduced.swap(true, Ordering::SeqCst) {
            notices.push(answers::small_model_notice(locale));
        }
        Turn { text, tool_calls, usage: Usage::default(), cost: Cost::Free, backend: Self::id(), notices, choices }
    }
}

fn call_id() -> String {
    use rand::Rng;
    format!("builtin-{:016x}", rand::rng().random::<u64>())
}

fn unavailable(reason: String) -> BackendError {
    BackendError::Unavailable { backend: "built-in model".into(), reason }
}

fn protocol(detail: String) -> BackendError {
    BackendError::Protocol { backend: "built-in model".into(), detail }
}

/// The surface a tool result carries, when it is one (tool results are the surfaces' JSON).
pub(crate) fn surface_of(content: &str) -> Option<Surface> {
    serde_json::from_str(content).ok()
}

#[cfg(test)]
mod tests;
