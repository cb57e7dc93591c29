//! Lenient reading of node answers: a result shape (from the adapter table) turns a drifted answer into the
//! canonical one, and records how it drifted.
//!
//! A real node drifts: fields go missing, new ones appear, keys are renamed or change case style, numbers come
//! as strings. Reads take what they can: a field the feature needs is required, anything else has a default or
//! is optional, and one bad entry of a list is skipped rather than losing the list. The same walk records the
//! drift, so `aiui-cli doctor --contract` reports exactly what the reader had to forgive.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

/// What a field's value must be, after lenient conversion.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A string; a number or a boolean is taken as its text.
    Text,
    /// A lifecycle state: a string, compared in lower case with `_` read as `-`.
    State,
    /// A whole number in the `i32` range (an exit code); a numeric string is accepted.
    Integer,
    /// A non-negative whole number; a numeric string is accepted.
    Count,
    /// Any number; a numeric string is accepted.
    Number,
    /// A boolean; `"true"`/`"false"` and `0`/`1` are accepted.
    Flag,
    /// Text lines: one string (split at newlines) or a list of strings.
    Lines,
}

impl Kind {
    fn describe(self) -> &'static str {
        match self {
            Self::Text | Self::State => "text",
            Self::Integer | Self::Count => "a whole number",
            Self::Number => "a number",
            Self::Flag => "true/false",
            Self::Lines => "text or a list of lines",
        }
    }
}

/// What happens when a field is absent (or `null`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Need {
    /// The feature cannot work without it: the entry (or the whole answer) is unreadable.
    Required,
    /// This text stands in.
    Default(&'static str),
    /// The value of another field stands in (a package's title is its id).
    DefaultFrom(&'static str),
    /// Left out.
    Optional,
}

/// One field of a result: its canonical name, the other names a node may use for it, its kind and need.
#[derive(Debug, Clone, Copy)]
pub struct Field {
    pub name: &'static str,
    pub aliases: &'static [&'static str],
    pub kind: Kind,
    pub need: Need,
}

/// The shape of a read method's result.
#[derive(Debug, Clone, Copy)]
pub enum Shape {
    /// One object. With `any_of` set, an object carrying none of the fields is not this method's answer.
    Object { fields: &'static [Field], any_of: bool },
    /// `{key: [entry, …]}`; a bare list is accepted too. Bad entries are skipped, but not all of them.
    List { key: &'static str, aliases: &'static [&'static str], entry: &'static [Field] },
}

/// How an answer differed from the shape. Keys are field names; counts are how many entries showed it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Drift {
    /// Fields that are required or defaulted and were absent (a default was used, or the entry skipped).
    pub missing: BTreeMap<String, usize>,
    /// Optional fields that appeared in no entry at all.
    pub never_seen: Vec<String>,
    /// Keys the shape does not know; ignored.
    pub extra: BTreeMap<String, usize>,
    /// `"app_id → id"`: a field found under another name.
    pub renamed: BTreeMap<String, usize>,
    /// `"blocks: text, read as a whole number"`, or a value that could not be read at all.
    pub retyped: BTreeMap<String, usize>,
    /// Entries of a list that could not be read, with why.
    pub skipped: Vec<String>,
    /// Entries in the answer (1 for an object).
    pub entries: usize,
}

impl Drift {
    /// True when the answer is exactly the shape (absent optional fields aside).
    pub fn is_exact(&self) -> bool {
        self.missing.is_empty()
            && self.extra.is_empty()
            && self.renamed.is_empty()
            && self.retyped.is_empty()
            && self.skipped.is_empty()
    }
}

/// An answer read through its shape: the canonical JSON (ready for the typed struct) and its drift.
#[derive(Debug, Clone)]
pub struct Reading {
    pub canonical: Value,
    pub drift: Drift,
}

/// Reads `answer` through `shape`. `Err` means it is beyond repair: not the right kind of value, a required
/// field of a single object absent or unreadable, or a list none of whose entries can be read.
pub fn read(shape: &Shape, answer: &Value) -> Result<Reading, String> {
    let mut drift = Drift::default();
    let canonical = match shape {
        Shape::Object { fields, any_of } => {
            let Value::Object(object) = answer else {
                return Err(format!("expected an object, got {}", type_name(answer)));
            };
            drift.entries = 1;
            let mut seen = BTreeMap::new();
            let out = read_object(fields, object, &mut drift, &mut seen)?;
            if *any_of && out.is_empty() {
                let names: Vec<&str> = fields.iter().map(|f| f.name).collect();
                return Err(format!("none of the expected fields is there ({})", names.join(", ")));
            }
            note_never_seen(fields, &seen, &mut drift);
            Value::Object(out)
        }
        Shape::List { key, aliases, entry } => {
            let list = match answer {
                Value::Array(list) => list,
                Value::Object(object) => {
                    let found = find_key(object, key, aliases);
                    for k in object.keys() {
                        if found.is_none_or(|(used, _)| used != k.as_str()) {
                            *drift.extra.entry(k.clone()).or_default() += 1;
                        }
                    }
                    match found {
                        Some((used, Value::Array(list))) => {
                            if used != *key {
                                *drift.renamed.entry(format!("{used} → {key}")).or_default() += 1;
                            }
                            list
                        }
                        Some((used, other)) => {
                            return Err(format!("`{used}` should be a list, got {}", type_name(other)));
                        }
                        None => return Err(format!("there is no `{key}` list")),
                    }
                }
                other => return Err(format!("expected {{\"{key}\": [...]}}, got {}", type_name(other))),
            };
            drift.entries = list.len();
            let mut seen = BTreeMap::new();
            let mut kept = Vec::with_capacity(list.len());
            for (index, item) in list.iter().enumerate() {
                let result = match item {
                    Value::Object(object) => read_object(entry, object, &mut drift, &mut seen),
                    other => Err(format!("expected an object, got {}", type_name(other))),
                };
                match result {
                    Ok(out) => kept.push(Value::Object(out)),
                    Err(why) => drift.skipped.push(format!("entry {} ({}): {why}", index + 1, label_of(item))),
                }
            }
            if kept.is_empty() && !list.is_empty() {
                return Err(format!("no entry could be read: {}", drift.skipped.join("; ")));
            }
            note_never_seen(entry, &seen, &mut drift);
            Value::Object(Map::from_iter([((*key).to_owned(), Value::Array(kept))]))
        }
    };
    Ok(Reading { canonical, drift })
}

/// Reads one object. `seen` counts, per field, the entries that carried it (for `never_seen`).
fn read_object(
    fields: &[Field],
    object: &Map<String, Value>,
    drift: &mut Drift,
    seen: &mut BTreeMap<&'static str, usize>,
) -> Result<Map<String, Value>, String> {
    let mut out = Map::new();
    let mut used_keys: Vec<&str> = Vec::new();
    let mut failure = None;
    for field in fields {
        let found = find_key(object, field.name, field.aliases);
        if let Some((used, _)) = found {
            used_keys.push(used);
            *seen.entry(field.name).or_default() += 1;
            if used != field.name {
                *drift.renamed.entry(format!("{used} → {}", field.name)).or_default() += 1;
            }
        }
        let value = match found.map(|(_, v)| v).filter(|v| !v.is_null()) {
            Some(raw) => match convert(field.kind, raw) {
                Some((value, retyped)) => {
                    if retyped {
                        let what = format!("{}: {}, read as {}", field.name, type_name(raw), field.kind.describe());
                        *drift.retyped.entry(what).or_default() += 1;
                    }
                    Some(value)
                }
                None => {
                    let what = format!("{}: {} is not {}", field.name, type_name(raw), field.kind.describe());
                    *drift.retyped.entry(what.clone()).or_default() += 1;
                    if field.need == Need::Required {
                        failure.get_or_insert(what);
                    }
                    None
                }
            },
            None => None,
        };
        let value = match (value, field.need) {
            (Some(v), _) => Some(v),
            (None, Need::Optional) => None,
            (None, Need::Required) => {
                if found.is_none_or(|(_, v)| v.is_null()) {
                    *drift.missing.entry(field.name.to_owned()).or_default() += 1;
                    failure.get_or_insert_with(|| format!("`{}` is missing", field.name));
                }
                None
            }
            (None, Need::Default(text)) => {
                *drift.missing.entry(field.name.to_owned()).or_default() += 1;
                Some(Value::String(text.to_owned()))
            }
            (None, Need::DefaultFrom(other)) => {
                *drift.missing.entry(field.name.to_owned()).or_default() += 1;
                out.get(other).cloned()
            }
        };
        if let Some(value) = value {
            out.insert(field.name.to_owned(), value);
        }
    }
    for key in object.keys().filter(|k| !used_keys.contains(&k.as_str())) {
        *drift.extra.entry(key.clone()).or_default() += 1;
    }
    match failure {
        Some(why) => Err(why),
        None => Ok(out),
    }
}

fn note_never_seen(fields: &[Field], seen: &BTreeMap<&'static str, usize>, drift: &mut Drift) {
    for field in fields.iter().filter(|f| f.need == Need::Optional && !seen.contains_key(f.name)) {
        drift.never_seen.push(field.name.to_owned());
    }
}

/// The key under which `name` (or an alias) appears, compared without case, `_` or `-` (so `exitCode`,
/// `exit-code` and `exit_code` are one key). The exact canonical name wins over an alias.
fn find_key<'v>(object: &'v Map<String, Value>, name: &str, aliases: &[&str]) -> Option<(&'v str, &'v Value)> {
    if let Some((k, v)) = object.get_key_value(name) {
        return Some((k.as_str(), v));
    }
    std::iter::once(name).chain(aliases.iter().copied()).find_map(|wanted| {
        let wanted = squash(wanted);
        object.iter().find(|(k, _)| squash(k) == wanted).map(|(k, v)| (k.as_str(), v))
    })
}

fn squash(key: &str) -> String {
    key.chars().filter(char::is_ascii_alphanumeric).map(|c| c.to_ascii_lowercase()).collect()
}

/// The value converted to `kind`, and whether that took a change of JSON type. `None`: not convertible.
fn convert(kind: Kind, raw: &Value) -> Option<(Value, bool)> {
    match (kind, raw) {
        (Kind::Text, Value::String(_)) => Some((raw.clone(), false)),
        (Kind::Text, Value::Number(n)) => Some((Value::String(n.to_string()), true)),
        (Kind::Text, Value::Bool(b)) => Some((Value::String(b.to_string()), true)),
        (Kind::State, Value::String(s)) => Some((Value::String(s.trim().to_lowercase().replace('_', "-")), false)),
        (Kind::Integer, _) => {
            let (n, retyped) = number(raw)?;
            let whole =
                (n.fract() == 0.0 && n >= f64::from(i32::MIN) && n <= f64::from(i32::MAX)).then_some(n as i64)?;
            Some((Value::from(whole), retyped))
        }
        (Kind::Count, _) => {
            if let Some(n) = raw.as_u64() {
                return Some((Value::from(n), false));
            }
            if let Value::String(s) = raw {
                return s.trim().parse::<u64>().ok().map(|n| (Value::from(n), true));
            }
            let n = raw.as_f64().filter(|n| n.fract() == 0.0 && *n >= 0.0 && *n < u64::MAX as f64)?;
            Some((Value::from(n as u64), false))
        }
        (Kind::Number, _) => {
            let (n, retyped) = number(raw)?;
            Some((serde_json::Number::from_f64(n).map(Value::Number)?, retyped))
        }
        (Kind::Flag, Value::Bool(_)) => Some((raw.clone(), false)),
        (Kind::Flag, Value::String(s)) => match s.trim().to_ascii_lowercase().as_str() {
            "true" | "yes" | "1" => Some((Value::Bool(true), true)),
            "false" | "no" | "0" => Some((Value::Bool(false), true)),
            _ => None,
        },
        (Kind::Flag, Value::Number(n)) => match n.as_u64() {
            Some(0) => Some((Value::Bool(false), true)),
            Some(1) => Some((Value::Bool(true), true)),
            _ => None,
        },
        (Kind::Lines, Value::String(text)) => {
            Some((Value::Array(text.lines().map(|l| Value::String(l.to_owned())).collect()), false))
        }
        (Kind::Lines, Value::Array(items)) if items.iter().all(Value::is_string) => Some((raw.clone(), false)),
        _ => None,
    }
}

/// A JSON number, or a string holding one (trimmed), as `f64`, with whether it was a string.
fn number(raw: &Value) -> Option<(f64, bool)> {
    match raw {
        Value::Number(n) => n.as_f64().map(|n| (n, false)),
        Value::String(s) => s.trim().parse::<f64>().ok().filter(|n| n.is_finite()).map(|n| (n, true)),
        _ => None,
    }
}

fn type_name(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "true/false",
        Value::Number(_) => "a number",
        Value::String(_) => "text",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

/// A short name for a list entry in a skip reason: its id or url if it has one, never a whole value.
fn label_of(item: &Value) -> String {
    ["id", "app_id", "url", "name"]
        .iter()
        .find_map(|k| item.get(k).and_then(Value::as_str))
        .map(|s| format!("`{}`", s.chars().take(40).collect::<String>()))
        .unwrap_or_else(|| "no id".to_owned())
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[track_caller]
    fn check(kind: Kind, raw: Value, expect: Option<(Value, bool)>) {
        assert_eq!(convert(kind, &raw), expect, "{kind:?} {raw}");
    }

    #[test]
    fn values_convert_where_it_is_safe() {
        check(Kind::Count, json!("889512"), Some((json!(889512), true)));
        check(Kind::Count, json!(" 7 "), Some((json!(7), true)));
        check(Kind::Count, json!(-1), None);
        check(Kind::Count, json!("a lot"), None);
        check(Kind::Integer, json!("137"), Some((json!(137), true)));
        check(Kind::Integer, json!(-9), Some((json!(-9), false)));
        check(Kind::Integer, json!(1e12), None);
        check(Kind::Number, json!("0.5"), Some((json!(0.5), true)));
        check(Kind::Number, json!("NaN"), None);
        check(Kind::Flag, json!("TRUE"), Some((json!(true), true)));
        check(Kind::Flag, json!(2), None);
        check(Kind::Text, json!(28.1), Some((json!("28.1"), true)));
        check(Kind::Text, json!({"a": 1}), None);
        check(Kind::State, json!(" Not_Installed "), Some((json!("not-installed"), false)));
        check(Kind::Lines, json!("a\nb"), Some((json!(["a", "b"]), false)));
        check(Kind::Lines, json!(["a", 1]), None);
    }

    #[test]
    fn keys_match_across_case_styles_and_the_canonical_name_wins() {
        let object = json!({"exitCode": 1, "exit_status": 2}).as_object().unwrap().clone();
        assert_eq!(find_key(&object, "exit_code", &["exit_status"]).map(|(k, _)| k), Some("exitCode"));
        let object = json!({"id": "a", "app_id": "b"}).as_object().unwrap().clone();
        assert_eq!(find_key(&object, "id", &["app_id"]).map(|(_, v)| v), Some(&json!("a")));
    }

    const ENTRY: &[Field] = &[
        Field { name: "id", aliases: &["app_id"], kind: Kind::Text, need: Need::Required },
        Field { name: "title", aliases: &[], kind: Kind::Text, need: Need::DefaultFrom("id") },
        Field { name: "note", aliases: &[], kind: Kind::Text, need: Need::Optional },
    ];
    const LIST: Shape = Shape::List { key: "items", aliases: &[], entry: ENTRY };

    #[test]
    fn a_list_skips_bad_entries_and_records_drift() {
        let reading =
            read(&LIST, &json!({"items": [{"app_id": "a", "x": 1}, {"title": "no id"}, {"id": null}]})).unwrap();
        assert_eq!(reading.canonical, json!({"items": [{"id": "a", "title": "a"}]}));
        let d = reading.drift;
        assert_eq!(d.entries, 3);
        assert_eq!(d.skipped.len(), 2, "{:?}", d.skipped);
        assert_eq!(d.renamed.get("app_id → id"), Some(&1));
        assert_eq!(d.extra.get("x"), Some(&1));
        assert_eq!(d.missing.get("id"), Some(&2));
        assert_eq!(d.never_seen, ["note"]);
        assert!(read(&LIST, &json!([{"id": "bare"}])).is_ok(), "a bare list is taken");
        assert_eq!(read(&LIST, &json!({"items": []})).unwrap().canonical, json!({"items": []}));
        assert!(read(&LIST, &json!({"items": [{"title": "x"}]})).unwrap_err().contains("no entry could be read"));
        assert!(read(&LIST, &json!({"things": []})).unwrap_err().contains("no `items` list"));
    }
}
