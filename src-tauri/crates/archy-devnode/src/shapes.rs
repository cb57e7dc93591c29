//! Which shapes the read methods answer in: the full ones, the least a real node might send, or shapes no
//! client could read. AIUI's adapter calls most of these shapes [assumed]; these knobs let a test (and
//! `aiui-cli doctor --contract`) see how it copes when a node drifts.

use serde_json::{Value, json};

/// The shape of every read answer, and in `Broken`, of every action's answer too.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Shapes {
    /// Every field the spec lists.
    #[default]
    Full,
    /// Only what a client cannot do without, e.g. packages as `{id, state}` and mints as `{url}`.
    Minimal,
    /// Answers beyond repair (a string where a list belongs, no known field at all). Actions still happen, but
    /// answer `{"queued": true}` instead of `{"ok": true}`, so a client cannot tell whether they did.
    Broken,
}

impl std::str::FromStr for Shapes {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "full" => Ok(Self::Full),
            "minimal" => Ok(Self::Minimal),
            "broken" => Ok(Self::Broken),
            other => Err(format!("{other:?} is not a shape set; use full, minimal or broken")),
        }
    }
}

/// A method's answer in `shapes`, from its full answer; `method` is the wire name.
pub(crate) fn reshape(shapes: Shapes, method: &str, full: Value) -> Value {
    match shapes {
        Shapes::Full => full,
        Shapes::Minimal => minimal(method, full),
        Shapes::Broken => broken(method, &full),
    }
}

fn keep(value: &Value, keys: &[&str]) -> Value {
    let mut out = serde_json::Map::new();
    for key in keys {
        if let Some(v) = value.get(*key) {
            out.insert((*key).to_owned(), v.clone());
        }
    }
    Value::Object(out)
}

fn minimal(method: &str, full: Value) -> Value {
    let list = |key: &str, fields: &[&str]| {
        let items: Vec<Value> =
            full[key].as_array().map(|a| a.iter().map(|item| keep(item, fields)).collect()).unwrap_or_default();
        json!({ key: items })
    };
    match method {
        "package.list" => list("packages", &["id", "state"]),
        "streaming.list-mints" => list("mints", &["url"]),
        "container-status" => keep(&full, &["status"]),
        // One string rather than a list of lines.
        "container-logs" => {
            let lines: Vec<&str> =
                full["logs"].as_array().map(|a| a.iter().filter_map(Value::as_str).collect()).unwrap_or_default();
            json!({ "logs": lines.join("\n") })
        }
        "bitcoin.getinfo" => keep(&full, &["blocks"]),
        "lnd.getinfo" => keep(&full, &["synced_to_chain"]),
        "system.stats" => keep(&full, &["cpu_percent"]),
        _ => full,
    }
}

fn broken(method: &str, full: &Value) -> Value {
    match method {
        "package.list" => {
            let ids: Vec<&str> = full["packages"]
                .as_array()
                .map(|a| a.iter().filter_map(|p| p["id"].as_str()).collect())
                .unwrap_or_default();
            json!({ "packages": ids.join(",") })
        }
        "streaming.list-mints" => {
            let items: Vec<Value> = full["mints"]
                .as_array()
                .map(|a| a.iter().map(|m| json!({ "endpoint": m["url"] })).collect())
                .unwrap_or_default();
            json!({ "mints": items })
        }
        "container-status" => json!({ "code": 0 }),
        "container-logs" => json!({ "logs": 42 }),
        "bitcoin.getinfo" => json!({ "height": "at the tip" }),
        "lnd.getinfo" => json!({ "lnd": "ok" }),
        "system.stats" => json!("ok"),
        _ if full.get("ok").is_some() => json!({ "queued": true }),
        _ => full.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn minimal_keeps_only_the_required_fields() {
        let full = json!({"packages": [{"id": "lnd", "title": "LND", "version": "0.18", "state": "running"}]});
        assert_eq!(
            reshape(Shapes::Minimal, "package.list", full),
            json!({"packages": [{"id": "lnd", "state": "running"}]})
        );
        let logs = json!({"logs": ["a", "b"]});
        assert_eq!(reshape(Shapes::Minimal, "container-logs", logs), json!({"logs": "a\nb"}));
        let mints = json!({"mints": [{"url": "https://m", "unit": "sat", "trusted": true}]});
        assert_eq!(
            reshape(Shapes::Broken, "streaming.list-mints", mints),
            json!({"mints": [{"endpoint": "https://m"}]})
        );
        assert_eq!("minimal".parse::<Shapes>(), Ok(Shapes::Minimal));
        assert!("tiny".parse::<Shapes>().is_err());
    }
}
