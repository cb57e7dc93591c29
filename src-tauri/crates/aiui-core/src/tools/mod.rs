//! The tool registry as data: every tool's name, description for the model, JSON Schema, class and node method.
//!
//! The gate reads a tool's [`ToolClass`]; nothing anywhere matches on tool names to decide what needs asking.
//! Arguments are validated against the schema here, before the gate, the summary or the node sees them.

mod node_tools;
pub mod summary;
pub mod surface;

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};
use serde_json::Value;

pub use node_tools::{ToolOutput, execute};
pub use surface::Surface;

use crate::backends::{MalformedArguments, ToolDef};
use crate::node::{Effect, METHODS, NodeMethod};

/// What a tool does to the node, and so whether the owner must confirm it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ToolClass {
    /// Reads state; runs without asking.
    Read,
    /// Changes the node; runs only after the owner approves.
    Act,
    /// Changes the node in a way that is hard to undo; runs only after the owner approves.
    ActHigh,
}

impl ToolClass {
    pub fn needs_confirmation(self) -> bool {
        !matches!(self, Self::Read)
    }
}

impl From<Effect> for ToolClass {
    fn from(effect: Effect) -> Self {
        match effect {
            Effect::Read => Self::Read,
            Effect::Act => Self::Act,
            Effect::ActHigh => Self::ActHigh,
        }
    }
}

/// One tool as the registry holds it.
#[derive(Debug)]
pub struct Tool {
    pub name: &'static str,
    pub description: &'static str,
    pub method: NodeMethod,
    pub class: ToolClass,
    pub schema: Value,
    validator: jsonschema::Validator,
}

/// The operator's grants: tools switched off entirely. Written only from trusted surfaces; read at turn start.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Grants {
    pub disabled: BTreeSet<String>,
}

impl Grants {
    pub fn allows(&self, tool: &str) -> bool {
        !self.disabled.contains(tool)
    }
}

/// Why a tool call was not run. Each is reported back to the model as a tool error, so it can correct itself.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ToolError {
    #[error("there is no tool named `{0}`")]
    Unknown(String),
    #[error("the owner has switched the tool `{0}` off")]
    Disabled(String),
    #[error("the arguments for `{tool}` are invalid: {}", errors.join("; "))]
    InvalidArguments { tool: String, errors: Vec<String> },
    #[error("the arguments for `{tool}` could not be read: {error}")]
    Malformed { tool: String, error: MalformedArguments },
}

/// A call whose arguments passed the tool's schema. Only these reach the gate and the node.
#[derive(Debug, Clone)]
pub struct ValidatedCall<'r> {
    pub tool: &'r Tool,
    pub arguments: Value,
}

impl ValidatedCall<'_> {
    /// The app the call is about, for the calls that take one.
    pub fn app(&self) -> Option<&str> {
        self.arguments.get("id").and_then(Value::as_str)
    }
}

/// All tools the assistant can be offered.
#[derive(Debug)]
pub struct Registry {
    tools: Vec<Tool>,
}

impl Registry {
    /// The node tools, one per row of the node adapter table.
    pub fn node_tools() -> Self {
        let tools = METHODS
            .iter()
            .map(|spec| {
                let entry = node_tools::catalogue(spec.method);
                let validator = jsonschema::validator_for(&entry.schema)
                    .unwrap_or_else(|e| panic!("the schema of `{}` is not valid JSON Schema: {e}", entry.name));
                Tool {
                    name: entry.name,
                    description: entry.description,
                    method: spec.method,
                    class: spec.effect.into(),
                    schema: entry.schema,
                    validator,
                }
            })
            .collect();
        Self { tools }
    }

    pub fn iter(&self) -> impl Iterator<Item = &Tool> {
        self.tools.iter()
    }

    pub fn get(&self, name: &str) -> Option<&Tool> {
        self.tools.iter().find(|t| t.name == name)
    }

    /// The definitions offered to the model: the granted tools only.
    pub fn defs(&self, grants: &Grants) -> Vec<ToolDef> {
        self.tools
            .iter()
            .filter(|t| grants.allows(t.name))
            .map(|t| ToolDef {
                name: t.name.to_owned(),
                description: t.description.to_owned(),
                parameters: t.schema.clone(),
            })
            .collect()
    }

    /// Checks a model's call: the tool exists, is granted, and its arguments match the schema.
    pub fn validate<'r>(
        &'r self,
        name: &str,
        arguments: &Result<Value, MalformedArguments>,
        grants: &Grants,
    ) -> Result<ValidatedCall<'r>, ToolError> {
        let tool = self.get(name).ok_or_else(|| ToolError::Unknown(name.to_owned()))?;
        if !grants.allows(name) {
            return Err(ToolError::Disabled(name.to_owned()));
        }
        let arguments =
            arguments.as_ref().map_err(|e| ToolError::Malformed { tool: name.to_owned(), error: e.clone() })?;
        let errors: Vec<String> = tool.validator.iter_errors(arguments).map(|e| describe(&e)).collect();
        if !errors.is_empty() {
            return Err(ToolError::InvalidArguments { tool: name.to_owned(), errors });
        }
        Ok(ValidatedCall { tool, arguments: arguments.clone() })
    }
}

fn describe(error: &jsonschema::ValidationError<'_>) -> String {
    let path = error.instance_path().to_string();
    if path.is_empty() { error.to_string() } else { format!("{path}: {error}") }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[track_caller]
    fn check(tool: &str, args: Value, expect_ok: bool) {
        let registry = Registry::node_tools();
        let result = registry.validate(tool, &Ok(args.clone()), &Grants::default());
        assert_eq!(result.is_ok(), expect_ok, "{tool} {args}: {result:?}");
    }

    #[test]
    fn arguments_are_checked_against_the_schema() {
        check("package_restart", json!({"id": "lnd"}), true);
        check("package_restart", json!({}), false);
        check("package_restart", json!({"id": 7}), false);
        check("package_restart", json!({"id": "lnd; rm -rf /"}), false);
        check("package_restart", json!({"id": "lnd", "force": true}), false);
        check("package_logs", json!({"id": "lnd", "lines": 50}), true);
        check("package_logs", json!({"id": "lnd", "lines": 100000}), false);
        check("package_list", json!({}), true);
        check("package_install", json!({"id": "fedimint", "version": "0.4.1"}), true);
    }

    #[test]
    fn unknown_disabled_and_malformed_calls_are_tool_errors() {
        let registry = Registry::node_tools();
        let grants = Grants { disabled: ["package_uninstall".to_owned()].into() };
        let malformed = Err(MalformedArguments { reason: "x".into(), raw: "{".into() });
        assert!(matches!(registry.validate("rm_rf", &Ok(json!({})), &grants), Err(ToolError::Unknown(_))));
        assert!(matches!(
            registry.validate("package_uninstall", &Ok(json!({"id":"lnd"})), &grants),
            Err(ToolError::Disabled(_))
        ));
        assert!(matches!(registry.validate("package_stop", &malformed, &grants), Err(ToolError::Malformed { .. })));
        assert!(registry.defs(&grants).iter().all(|d| d.name != "package_uninstall"));
    }

    #[test]
    fn classes_come_from_the_adapter_table() {
        let registry = Registry::node_tools();
        assert_eq!(registry.iter().count(), METHODS.len());
        for tool in registry.iter() {
            assert_eq!(tool.class, ToolClass::from(tool.method.spec().effect), "{}", tool.name);
            assert!(tool.description.len() > 20, "{} needs a description a model can use", tool.name);
        }
    }
}
