//! The contract check behind `aiui-cli doctor --contract`: every read method of the adapter table called once on
//! a real node, and its answer compared with the table's shape. It only reads; nothing on the node changes.
//!
//! Its report is what an owner sends to correct `node/adapter.rs`, so each sample is screened first: secret
//! shapes and the node password are redacted, LAN and onion addresses replaced by placeholders.

use serde_json::{Map, Value, json};

use super::adapter::{Confidence, METHODS, NodeMethod, ResultShape};
use super::shape::{self, Drift};
use super::{NodeClient, parse_answer};
use crate::egress::{KnownSecret, Origin, Screen};

/// How many entries of a list, and how many characters of a string, a sample keeps.
const SAMPLE_ENTRIES: usize = 2;
const SAMPLE_CHARS: usize = 80;

/// What one read method did.
#[derive(Debug, Clone)]
pub struct MethodReport {
    pub rpc_name: &'static str,
    pub confidence: Confidence,
    /// The app it was asked about, for methods that take one.
    pub app: Option<String>,
    pub outcome: Outcome,
}

#[derive(Debug, Clone)]
pub enum Outcome {
    /// Not called, and why (no app to ask about).
    NotCalled(String),
    /// The node did not answer with a result (unreachable, an RPC error, not JSON).
    NoAnswer(String),
    /// It answered, but the adapter cannot read it at all.
    Unreadable { reason: String, sample: Value },
    /// The adapter reads it; `drift` says what it had to forgive (nothing, when it is exact).
    Read { drift: Drift, sample: Value },
}

impl Outcome {
    /// True when the method answered and the adapter could read it.
    pub fn is_readable(&self) -> bool {
        matches!(self, Self::Read { .. })
    }
}

/// Calls every read method in [`METHODS`] once. `app` names the app for `container-status` and `container-logs`;
/// without it, the first running app of the package list is used. `known` are values the samples must never
/// show (the node password).
pub async fn check(client: &NodeClient, app: Option<&str>, known: Vec<KnownSecret>) -> Vec<MethodReport> {
    let mut screen = Screen::new(known);
    let mut reports = Vec::new();
    let mut app = app.map(str::to_owned);
    let mut no_app_reason = "pass --app to name one".to_owned();
    for spec in METHODS {
        let ResultShape::Read(shape) = spec.result else { continue };
        let for_app = spec.app_param.map(|_| app.clone());
        let outcome = match &for_app {
            Some(None) => Outcome::NotCalled(format!("no app to ask about: {no_app_reason}")),
            _ => {
                let params = spec.method.params(for_app.clone().flatten().as_deref(), extra(spec.method));
                match client.call(spec.rpc_name, params).await {
                    Err(e) => Outcome::NoAnswer(e.to_string()),
                    Ok(answer) => {
                        if spec.method == NodeMethod::PackageList && app.is_none() {
                            match first_running_app(&answer) {
                                Some(id) => app = Some(id),
                                None => no_app_reason = "package.list gave no app id; pass --app".into(),
                            }
                        }
                        let sample = sample(&answer, &mut screen);
                        match shape::read(shape, &answer) {
                            Ok(reading) => Outcome::Read { drift: reading.drift, sample },
                            Err(reason) => Outcome::Unreadable { reason, sample },
                        }
                    }
                }
            }
        };
        reports.push(MethodReport {
            rpc_name: spec.rpc_name,
            confidence: spec.confidence,
            app: for_app.flatten(),
            outcome,
        });
    }
    reports
}

/// The params a read takes besides the app: a short log tail is enough to see its shape.
fn extra(method: NodeMethod) -> Map<String, Value> {
    match method {
        NodeMethod::ContainerLogs => Map::from_iter([("lines".to_owned(), json!(5))]),
        _ => Map::new(),
    }
}

/// The first running app the adapter can read from a package list answer, else the first app at all.
fn first_running_app(answer: &Value) -> Option<String> {
    let Ok(read) = parse_answer(NodeMethod::PackageList, answer) else { return None };
    let super::Answer::Packages(packages) = read.value else { return None };
    let running = packages.iter().find(|p| p.state == super::PackageState::Running);
    running.or(packages.first()).map(|p| p.id.clone())
}

/// A short, screened copy of an answer: lists cut to their first entries, long strings cut, secrets redacted
/// and addresses replaced.
fn sample(answer: &Value, screen: &mut Screen) -> Value {
    let mut value = shorten(answer);
    // A sample is never the owner's own words, so nothing in it can block; it is only redacted.
    let _ = screen.screen_body(&mut value, &|_| Origin::ToolResult);
    value
}

fn shorten(value: &Value) -> Value {
    match value {
        Value::Array(items) => {
            let mut kept: Vec<Value> = items.iter().take(SAMPLE_ENTRIES).map(shorten).collect();
            if items.len() > SAMPLE_ENTRIES {
                kept.push(Value::String(format!("… {} more", items.len() - SAMPLE_ENTRIES)));
            }
            Value::Array(kept)
        }
        Value::Object(map) => Value::Object(map.iter().map(|(k, v)| (k.clone(), shorten(v))).collect()),
        Value::String(s) if s.chars().count() > SAMPLE_CHARS => {
            Value::String(s.chars().take(SAMPLE_CHARS).collect::<String>() + "…")
        }
        other => other.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn samples_are_short_and_screened() {
        let mut screen = Screen::new(vec![KnownSecret::new("node-password", "hunter2-horse-battery")]);
        let answer = json!({"packages": [
            {"id": "lnd", "note": "password hunter2-horse-battery", "lan_address": "http://192.168.1.20:8080"},
            {"id": "b"}, {"id": "c"}, {"id": "d"}
        ], "motd": "x".repeat(200)});
        let s = sample(&answer, &mut screen);
        let text = s.to_string();
        assert!(!text.contains("hunter2"), "{text}");
        assert!(!text.contains("192.168.1.20"), "{text}");
        assert_eq!(s["packages"].as_array().unwrap().len(), SAMPLE_ENTRIES + 1);
        assert_eq!(s["packages"][2], "… 2 more");
        assert_eq!(s["motd"].as_str().unwrap().chars().count(), SAMPLE_CHARS + 1);
    }
}
