//! `aiui-cli budget` for Claude's allowance and prices, through the real binary: set, shown, and bad input refused
//! with a clear message and no file changed.

use std::path::Path;
use std::process::{Command, Output, Stdio};

fn aiui_cli(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_aiui-cli"))
        .args(args)
        .arg("--data-dir")
        .arg(dir)
        .stdin(Stdio::null())
        .output()
        .expect("aiui-cli runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn json(dir: &Path) -> serde_json::Value {
    let out = aiui_cli(dir, &["budget", "get", "--json"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

fn bytes(path: &Path) -> Option<Vec<u8>> {
    std::fs::read(path).ok()
}

#[test]
fn a_fresh_data_dir_says_claude_is_off_at_zero() {
    let dir = tempfile::tempdir().unwrap();
    let plain = text(&aiui_cli(dir.path(), &["budget", "get"]).stdout);
    assert!(plain.contains("Claude (US dollars):") && plain.contains("allowance: $0 (Claude is not used"), "{plain}");
    assert!(plain.contains("Routstr (sats):") && plain.contains("allowance: 0 sats"), "{plain}");
    assert!(plain.contains("This month: 0 local and 0 built-in answers, at $0."), "{plain}");
    let report = json(dir.path());
    assert_eq!(report["allowance_sats"], 0);
    assert_eq!(report["claude"]["allowance_usd_micros"], 0);
    assert_eq!(report["free_answers"]["local"], 0);
}

#[test]
fn claude_allowance_and_a_price_are_set_and_shown() {
    let dir = tempfile::tempdir().unwrap();
    let out = aiui_cli(dir.path(), &["budget", "set", "--claude-usd", "5", "--claude-period", "monthly"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("allowance: $5.00 (monthly)"), "{}", text(&out.stdout));
    let report = json(dir.path());
    assert_eq!(report["claude"]["allowance_usd_micros"], 5_000_000);
    assert_eq!(report["claude"]["remaining"], "$5.00");
    assert_eq!(report["allowance_sats"], 0, "the sats allowance was left as it was");
    let plain = text(&aiui_cli(dir.path(), &["budget", "get"]).stdout);
    assert!(plain.contains("allowance: $5.00 (monthly)") && plain.contains("spent:     $0.00"), "{plain}");
    let claude = plain.split("Routstr (sats):").next().unwrap();
    assert!(claude.contains("renews:    in "), "a monthly allowance says when it renews: {plain}");
    assert!(plain.contains("renews:    never (a one-off allowance)"), "the sats allowance never renews: {plain}");

    let out = aiui_cli(
        dir.path(),
        &[
            "budget",
            "price",
            "claude-sonnet-4-5",
            "--input",
            "2.5",
            "--output",
            "12",
            "--cache-write",
            "3",
            "--cache-read",
            "0.25",
        ],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let prices = text(&aiui_cli(dir.path(), &["budget", "prices"]).stdout);
    let row = prices.lines().find(|l| l.starts_with("claude-sonnet-4-5 ")).unwrap_or_else(|| panic!("{prices}"));
    assert!(row.contains("2.50") && row.contains("12.00") && row.contains("(set by you)"), "{row}");
    let haiku = prices.lines().find(|l| l.starts_with("claude-haiku-4-5 ")).unwrap_or_else(|| panic!("{prices}"));
    assert!(!haiku.contains("set by you"), "{haiku}");
    assert!(prices.contains("taken 2026-12-01 from https://"), "{prices}");
}

#[test]
fn bad_claude_amounts_and_prices_are_refused_and_change_nothing() {
    let dir = tempfile::tempdir().unwrap();
    assert!(aiui_cli(dir.path(), &["budget", "set", "--claude-usd", "2.50"]).status.success());
    assert!(
        aiui_cli(
            dir.path(),
            &[
                "budget",
                "price",
                "claude-haiku-4-5",
                "--input",
                "1",
                "--output",
                "5",
                "--cache-write",
                "1.25",
                "--cache-read",
                "0.1"
            ]
        )
        .status
        .success()
    );
    let budget = dir.path().join("claude-budget.json");
    let prices = dir.path().join("claude-prices.json");
    let (budget_before, prices_before) = (bytes(&budget), bytes(&prices));
    assert!(budget_before.is_some() && prices_before.is_some());
    for (args, says) in [
        (&["budget", "set", "--claude-usd", "-1"][..], "--claude-usd: \"-1\" is not an amount in US dollars"),
        (&["budget", "set", "--claude-usd", "abc"][..], "not an amount in US dollars"),
        (&["budget", "set", "--claude-usd", "1.0000001"][..], "not an amount in US dollars"),
        (&["budget", "set", "--claude-usd", "abc", "--allowance", "100"][..], "not an amount in US dollars"),
        (&["budget", "set", "--claude-period", "hourly"][..], "unknown period"),
        (
            &[
                "budget",
                "price",
                "claude-x",
                "--input",
                "NaN",
                "--output",
                "1",
                "--cache-write",
                "1",
                "--cache-read",
                "1",
            ][..],
            "not a price",
        ),
        (
            &[
                "budget",
                "price",
                "claude-x",
                "--input",
                "-3",
                "--output",
                "1",
                "--cache-write",
                "1",
                "--cache-read",
                "1",
            ][..],
            "not a price",
        ),
        (
            &[
                "budget",
                "price",
                "claude-x",
                "--input",
                "1e9",
                "--output",
                "1",
                "--cache-write",
                "1",
                "--cache-read",
                "1",
            ][..],
            "not a price",
        ),
        (
            &[
                "budget",
                "price",
                "bad model;",
                "--input",
                "1",
                "--output",
                "1",
                "--cache-write",
                "1",
                "--cache-read",
                "1",
            ][..],
            "not a model name",
        ),
    ] {
        let out = aiui_cli(dir.path(), args);
        assert!(!out.status.success(), "{args:?} succeeded");
        assert!(text(&out.stderr).contains(says), "{args:?}: {}", text(&out.stderr));
        assert_eq!(bytes(&budget), budget_before, "{args:?} changed the Claude allowance");
        assert_eq!(bytes(&prices), prices_before, "{args:?} changed the prices");
    }
    assert!(!dir.path().join("budget.json").exists(), "a refused Claude amount wrote no sats allowance either");
}

/// The free answers are counted from the data dir's own conversations, this calendar month, per leg; paid answers
/// are not among them.
#[test]
fn budget_get_counts_this_months_local_and_built_in_answers_at_zero() {
    use aiui_core::backends::{BackendId, Message};
    let dir = tempfile::tempdir().unwrap();
    // The binary brings the data dir to this version's format before the store is made in it.
    assert!(aiui_cli(dir.path(), &["budget", "get"]).status.success());
    {
        let store =
            aiui_core::store::Store::open(&aiui_core::paths::DataDir(dir.path().to_owned()).conversations()).unwrap();
        let id = store.create_conversation("meter").unwrap();
        let answer = Message::Assistant { text: "ok".into(), tool_calls: Vec::new() };
        for backend in [
            BackendId::Local { model: "qwen3:4b".into() },
            BackendId::Local { model: "qwen3:4b".into() },
            BackendId::Builtin { model: "smollm2-135m".into() },
            BackendId::Claude { model: "claude-haiku-4-5".into() },
        ] {
            store.append_message(&id, &Message::User { text: "hi".into() }, None).unwrap();
            store.append_message(&id, &answer, Some(&backend)).unwrap();
        }
    }
    let plain = text(&aiui_cli(dir.path(), &["budget", "get"]).stdout);
    assert!(plain.contains("This month: 2 local and 1 built-in answers, at $0."), "{plain}");
    let report = json(dir.path());
    assert_eq!(report["free_answers"]["local"], 2, "{report}");
    assert_eq!(report["free_answers"]["builtin"], 1, "{report}");
    assert!(report["free_answers"]["since_ms"].as_i64().unwrap() > 0, "{report}");
    assert_eq!(report["claude"]["allowance_usd_micros"], 0, "{report}");
}
