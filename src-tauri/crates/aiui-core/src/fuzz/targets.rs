//! The fuzz targets: each parser of untrusted data must never panic, and keeps its own promises on any input.

use base64::Engine as _;
use nostr_sdk::prelude::{EventBuilder, Keys, Kind, Tag, Timestamp};
use proptest::prelude::*;
use proptest::sample::select;
use proptest::test_runner::TestCaseError;
use serde_json::Value;

use super::fuzz;
use super::strategies::{json_seeds, seeded_json, text};
use crate::backends::BackendId;
use crate::backends::format::{self, anthropic, ollama, openai};
use crate::backends::routstr::probe::{self, ProbedProvider};
use crate::egress::{KnownSecret, Origin, Screen, Screened};
use crate::node::Envelope;
use crate::pay::payments::judge_returned_token;
use crate::tools::Registry;

fn fail(message: String) -> TestCaseError {
    TestCaseError::fail(message)
}

/// Runs `check` on a JSON seed given as bytes (a corpus file), skipping files that are not JSON.
fn on_json(bytes: &[u8], check: impl Fn(Value) -> Result<(), TestCaseError>) -> Result<(), TestCaseError> {
    match serde_json::from_slice(bytes) {
        Ok(value) => check(value),
        Err(_) => Ok(()),
    }
}

fn json_target(target: &str, check: impl Fn(Value) -> Result<(), TestCaseError> + Copy) {
    fuzz(target, seeded_json(json_seeds(target)), |bytes| on_json(bytes, check), check);
}

#[test]
fn fuzz_ollama_reply() {
    json_target("ollama_reply", |body| {
        let _ = ollama::response(&body, "m");
        let _ = ollama::model_names(&body);
        let _ = ollama::has_tools_capability(&body);
        Ok(())
    });
}

#[test]
fn fuzz_anthropic_reply() {
    json_target("anthropic_reply", |body| {
        let _ = anthropic::response(&body, "m");
        let _ = anthropic::error(&body);
        Ok(())
    });
}

#[test]
fn fuzz_openai_reply() {
    json_target("openai_reply", |body| {
        let _ = openai::response(&body, BackendId::Claude { model: "m".into() });
        Ok(())
    });
}

/// `/v1/info` and `/v1/models` together: whatever they say, every kept price is finite, non-negative and sane,
/// and the name is at most 80 characters.
#[test]
fn fuzz_routstr_probe() {
    let check = |body: Value| {
        let info = body.get("info").cloned().unwrap_or(Value::Null);
        let models = body.get("models").cloned().unwrap_or(Value::Null);
        let (Ok(info), Ok(models)) = (serde_json::from_value(info), serde_json::from_value(models)) else {
            return Ok(());
        };
        let draft = ProbedProvider {
            pubkey: "p".into(),
            d: "d".into(),
            name: "announced".into(),
            endpoints: Vec::new(),
            mints: vec!["https://mint.example/".into()],
            models: Default::default(),
        };
        if let Ok(provider) = probe::from_answers(draft, info, models) {
            prop_assert!(provider.name.chars().count() <= 80, "name too long");
            for (id, price) in &provider.models {
                prop_assert!(!id.trim().is_empty(), "an empty model id was kept");
                for p in [price.prompt, price.completion] {
                    prop_assert!(p.is_finite() && (0.0..=1_000.0).contains(&p), "price {p} kept for {id}");
                }
            }
        }
        Ok(())
    };
    json_target("routstr_probe", check);
}

/// Tool calls as a model sends them: an object or a string of JSON, for any tool name. Only schema-valid
/// arguments pass, and an app id that passes always has the id shape.
#[test]
fn fuzz_tool_arguments() {
    let registry = Registry::node_tools();
    let mut names: Vec<String> = registry.iter().map(|t| t.name.to_owned()).collect();
    names.push("budget_set".into());
    let strategy =
        (select(names), prop_oneof![seeded_json(json_seeds("tool_arguments")).prop_map(Ok), text().prop_map(Err)]);
    let check = |(name, arguments): (String, Result<Value, String>)| {
        let parsed = match &arguments {
            Ok(value) => format::object_arguments(value),
            Err(raw) => format::string_arguments(raw),
        };
        if let Ok(call) = registry.validate(&name, &parsed, &Default::default())
            && let Some(app) = call.app()
        {
            let shaped = !app.is_empty()
                && app.len() <= 64
                && app.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
                && !app.starts_with('-');
            prop_assert!(shaped, "an app id that breaks the schema passed: {app:?}");
        }
        Ok(())
    };
    fuzz("tool_arguments", strategy, |bytes| on_json(bytes, |v| check(("package_logs".into(), Ok(v)))), check);
}

#[test]
fn fuzz_node_envelope() {
    let strategy = prop_oneof![
        seeded_json(json_seeds("node_envelope")).prop_map(|v| v.to_string().into_bytes()),
        any::<Vec<u8>>(),
    ];
    let check = |body: Vec<u8>| {
        if let Envelope::Result(_) = Envelope::read(&body) {
            let value: Value =
                serde_json::from_slice(&body).map_err(|e| fail(format!("a result from non-JSON: {e}")))?;
            prop_assert!(value.get("result").is_some(), "a result without `result`");
        }
        Ok(())
    };
    fuzz("node_envelope", strategy, |bytes| check(bytes.to_vec()), check);
}

/// A returned Cashu token as the wallet judges it: whatever the provider sends, it never counts for more than
/// was paid, and only when it is a sat token from the paid mint.
#[test]
fn fuzz_cashu_token() {
    const PAID_MINT: &str = "https://mint.example/";
    let encode = |v: &Value, prefix: &str| {
        format!("{prefix}{}", base64::engine::general_purpose::URL_SAFE.encode(v.to_string()))
    };
    let strategy = prop_oneof![
        3 => (seeded_json(json_seeds("cashu_token")), select(&["cashuA", "cashuB"][..])).prop_map(move |(v, p)| encode(&v, p)),
        1 => text(),
    ];
    let check = |token: String| {
        if let Ok(value) = judge_returned_token(PAID_MINT, 100, &token) {
            prop_assert!(value <= 100, "a returned token counted {value} of 100 paid");
        }
        Ok(())
    };
    fuzz(
        "cashu_token",
        strategy,
        |bytes| match serde_json::from_slice::<Value>(bytes) {
            Ok(v) => check(encode(&v, "cashuA")),
            Err(_) => check(String::from_utf8_lossy(bytes).trim().to_owned()),
        },
        check,
    );
}

/// Kind-38421 announcements with any tags and content, signed by a fixed key; a tampered copy never passes.
#[test]
fn fuzz_kind_38421() {
    let keys = Keys::parse("6b911fd37cdf5c81d4c0adb1ab7fa822ed253ab0ad9aa18d77257c88b29b718e").expect("a valid key");
    let tag_name =
        prop_oneof![select(&["d", "u", "mint", "version", "name", "about", "t"][..]).prop_map(str::to_owned), text()];
    let tag = (tag_name, prop::collection::vec(text(), 0..3))
        .prop_map(|(name, values)| std::iter::once(name).chain(values).collect::<Vec<String>>());
    let strategy = (prop::collection::vec(tag, 0..8), text(), -100_000i64..100_000);
    let check = |(tags, content, skew): (Vec<Vec<String>>, String, i64)| {
        let now = Timestamp::now();
        let tags: Vec<Tag> = tags.into_iter().filter_map(|t| Tag::parse(t).ok()).collect();
        let at = Timestamp::from(now.as_secs().saturating_add_signed(skew));
        let event = EventBuilder::new(Kind::Custom(38421), content)
            .tags(tags)
            .custom_created_at(at)
            .sign_with_keys(&keys)
            .map_err(|e| fail(e.to_string()))?;
        let parsed = crate::backends::routstr::discovery::parse_announcement(&event, now);
        if let Ok(a) = &parsed {
            prop_assert!(a.endpoints.iter().all(|u| matches!(u.scheme(), "http" | "https")), "{:?}", a.endpoints);
        }
        let mut tampered = event.clone();
        tampered.content.push('!');
        prop_assert!(
            crate::backends::routstr::discovery::parse_announcement(&tampered, now).is_err(),
            "a tampered event was accepted"
        );
        Ok(())
    };
    let replay = |bytes: &[u8]| {
        on_json(bytes, |v| {
            let tags = serde_json::from_value::<Vec<Vec<String>>>(v["tags"].clone()).unwrap_or_default();
            check((tags, v["content"].as_str().unwrap_or_default().to_owned(), 0))
        })
    };
    fuzz("kind_38421", strategy, replay, check);
}

/// The egress screen on any text: never panics, never lets a known secret through, and is idempotent: screening
/// its own output again changes nothing more.
#[test]
fn fuzz_egress_screen() {
    const KNOWN: &str = "correct horse battery staple 7";
    let check = |text: String| {
        let mut screen = Screen::new(vec![KnownSecret::new("node-password", KNOWN)]);
        let Screened::Clean { text: once, .. } = screen.screen_text(&text, Origin::ToolResult) else {
            return Err(fail("tool text was blocked instead of redacted".into()));
        };
        prop_assert!(!once.contains(KNOWN), "the known secret passed: {once:?}");
        let Screened::Clean { text: twice, .. } = screen.screen_text(&once, Origin::ToolResult) else {
            return Err(fail("screened text was blocked".into()));
        };
        prop_assert_eq!(&twice, &once, "a second screening changed the text");
        if let Screened::Clean { text: owner, .. } = screen.screen_text(&text, Origin::Owner) {
            let again = screen.screen_text(&owner, Origin::Owner);
            prop_assert!(
                matches!(&again, Screened::Clean { text, .. } if *text == owner),
                "owner text that passed did not pass unchanged a second time: {again:?}"
            );
        }
        Ok(())
    };
    fuzz("egress_screen", text(), |bytes| check(String::from_utf8_lossy(bytes).into_owned()), check);
}
