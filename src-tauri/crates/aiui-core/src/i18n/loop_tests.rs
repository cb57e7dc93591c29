//! Every kind of message the loop and the built-in leg write, rendered in every locale: the English exactly as it
//! was before the catalogues (tests elsewhere compare it byte for byte), German and Spanish their own (no
//! fallback to English), and the pseudo-locale longer, with no English word escaped from the catalogue.

use std::collections::BTreeSet;

use serde_json::json;

use super::{Locale, text};
use crate::backends::builtin::{Decision, Intent, answers, decide};
use crate::backends::chain::{ENABLE_A_LEG, NoBackend};
use crate::backends::ollama::Down;
use crate::backends::routstr::{Told, Verdict};
use crate::budget::{BudgetReport, ClaudeReport, Period, pass_over_message, stop_message};
use crate::node::Package;

/// Words in these cases that come from the node, a leg or the call, not from the catalogue: the pseudo-locale
/// leaves them as they are.
const NOT_CATALOGUE: &str = "LND lnd Electrs Bitcoin Knots Fedimint Guardian main zap healthy https example \
    kaputt restart SmolLM2 Claude Ollama local model connection refused timed out package \
    allowance used HTTP http tags Anthropic show Internal Server Error expected value line llama claude opus Instruct gguf usr share \
    aiui models";

/// One message, rendered in any locale, and its English exactly as it must read.
pub(super) struct Case {
    pub name: &'static str,
    pub render: fn(Locale) -> String,
    pub en: &'static str,
}

/// The Routstr leg's sentence for a provider that answered an error, with `verdict` on where the money is.
fn answered(locale: Locale, verdict: Verdict) -> String {
    Told::Answered { provider: "zap", detail: "HTTP 500: kaputt".into(), verdict }.text(locale)
}

fn result(locale: Locale, surface: serde_json::Value) -> String {
    answers::from_result(locale, &surface.to_string(), false)
}

fn packages() -> Vec<Package> {
    [("lnd", "LND", "running"), ("electrs", "Electrs", "stopped"), ("fedimint", "Fedimint Guardian", "not-installed")]
        .iter()
        .map(|(id, title, state)| {
            serde_json::from_value(json!({"id": id, "title": title, "version": "1", "state": state})).unwrap()
        })
        .collect()
}

fn question(locale: Locale, intent: Intent, packages: &[Package]) -> String {
    let scores: Vec<f32> = Intent::ALL.iter().map(|i| if *i == intent { 2.0 } else { 0.0 }).collect();
    match decide(locale, "wordpress", &scores, false, packages) {
        Decision::Ask { question, .. } => question,
        other => panic!("expected a question, got {other:?}"),
    }
}

fn agent(locale: Locale, key: &str) -> String {
    let args = [
        ("error", "connection refused".into()),
        ("steps", 8.into()),
        ("count", 3.into()),
        ("backend", "Claude".into()),
        ("reason", "timed out".into()),
        ("message", "The allowance is used up.".into()),
        ("method", "package.restart".into()),
    ];
    text(locale, key, &args)
}

/// A sats allowance of `allowance` renewing every `period`, with `spent` and `reserved` taken from it.
fn sats(allowance: u64, spent: u64, reserved: u64, period: Period) -> BudgetReport {
    BudgetReport {
        allowance_sats: allowance,
        period,
        period_start_ms: 0,
        renews_at_ms: None,
        spent_sats: spent,
        reserved_sats: reserved,
        remaining_sats: allowance - spent - reserved,
        accepted_mints: vec![],
        notice_80_sent: false,
    }
}

/// Claude's allowance, in micro-dollars.
fn usd(allowance: u64, spent: u64, reserved: u64, period: Period) -> ClaudeReport {
    ClaudeReport {
        allowance_usd_micros: allowance,
        period,
        period_start_ms: 0,
        renews_at_ms: None,
        spent_usd_micros: spent,
        reserved_usd_micros: reserved,
        remaining_usd_micros: allowance - spent - reserved,
        notice_80_sent: false,
    }
}

const CASES: &[Case] = &[
    Case {
        name: "budget off",
        render: |l| stop_message(l, &sats(0, 0, 0, Period::Monthly), Some(5)),
        en: "Paid help is switched off: the assistant's allowance is 0 sats, so I stopped here. The owner can raise or \
             top up the allowance in AIUI's settings window (or with `aiui-cli budget set`).",
    },
    Case {
        name: "budget used up",
        render: |l| stop_message(l, &sats(100, 100, 0, Period::Monthly), Some(5)),
        en: "The assistant's allowance of 100 sats is used up (100 spent), so I stopped here. It renews monthly. The \
             owner can raise or top up the allowance in AIUI's settings window (or with `aiui-cli budget set`).",
    },
    Case {
        name: "budget too dear, held",
        render: |l| stop_message(l, &sats(40, 0, 32, Period::Never), Some(25)),
        en: "This request could cost up to 25 sats, but only 8 of the 40-sat allowance remain (0 spent, 32 held for \
             payments still being resolved; whatever they refund comes back to the allowance), so I stopped here. The \
             owner can raise or top up the allowance in AIUI's settings window (or with `aiui-cli budget set`).",
    },
    Case {
        name: "budget not paid",
        render: |l| stop_message(l, &sats(100, 10, 0, Period::Weekly), None),
        en: "I could not pay for this request, so I stopped here. 90 of the 100-sat allowance remain. It renews \
             weekly. The owner can raise or top up the allowance in AIUI's settings window (or with `aiui-cli budget \
             set`).",
    },
    Case {
        name: "claude off",
        render: |l| pass_over_message(l, &usd(0, 0, 0, Period::Monthly), None),
        en: "Claude is not used: its allowance is $0. The owner can raise Claude's allowance in AIUI's settings window \
             (or with `aiui-cli budget set --claude-usd AMOUNT`).",
    },
    Case {
        name: "claude too dear",
        render: |l| pass_over_message(l, &usd(5_000_000, 2_500_000, 500_000, Period::Daily), Some(3_100_000)),
        en: "Claude was passed over: this request could cost up to $3.10, but only $2.00 of its $5.00 allowance \
             remain ($2.50 spent, $0.50 held for requests in progress). It renews daily. The owner can raise Claude's \
             allowance in AIUI's settings window (or with `aiui-cli budget set --claude-usd AMOUNT`).",
    },
    Case {
        name: "claude used up",
        render: |l| pass_over_message(l, &usd(5_000_000, 5_000_000, 0, Period::Never), Some(1)),
        en: "Claude was passed over: its $5.00 allowance is used up ($5.00 spent). The owner can raise Claude's \
             allowance in AIUI's settings window (or with `aiui-cli budget set --claude-usd AMOUNT`).",
    },
    Case {
        name: "capabilities",
        render: answers::capabilities,
        en: "I'm the built-in small model (SmolLM2-135M), so I only handle everyday node requests: what is running; \
             an app's status or logs; start, stop, restart, install or uninstall an app (e.g. \"restart LND\"); the \
             Bitcoin sync progress; the Lightning node's channels; CPU, memory and disk; and the accepted Cashu \
             mints. For anything else, start Ollama with a tool-capable model (`ollama pull qwen2.5:7b`) or add a \
             Claude API key and a Claude allowance in the trusted settings window.",
    },
    Case {
        name: "notice",
        render: answers::small_model_notice,
        en: "Answers now come from the built-in small model (SmolLM2-135M), meant for trying AIUI: it can list, \
             check, start, stop, restart, install and uninstall apps and show the node's status, but it cannot hold \
             a conversation. For a real assistant, start Ollama on this machine with a tool-capable model (`ollama \
             pull qwen2.5:7b`) or add a Claude API key and a Claude allowance in the trusted settings window.",
    },
    Case {
        name: "understood, no app",
        render: |l| answers::understood(l, Intent::Logs, None),
        en: "Reading the app's newest log lines.",
    },
    Case { name: "failed", render: |l| answers::from_result(l, "kaputt\nmore", true), en: "That did not work: kaputt" },
    Case {
        name: "not a surface",
        render: |l| answers::from_result(l, "kaputt", false),
        en: "The node answered: kaputt",
    },
    Case {
        name: "package list",
        render: |l| {
            result(
                l,
                json!({"kind": "package_list", "packages": [
            {"id": "lnd", "title": "LND", "version": "1", "state": "running"},
            {"id": "bitcoin-knots", "title": "Bitcoin Knots", "version": "1", "state": "running"},
            {"id": "electrs", "title": "Electrs", "version": "1", "state": "stopped"}]}),
            )
        },
        en: "2 of 3 installed apps are running: LND, Bitcoin Knots. Not running: Electrs (stopped).",
    },
    Case {
        name: "package list, none running",
        render: |l| {
            result(
                l,
                json!({"kind": "package_list", "packages": [
            {"id": "electrs", "title": "Electrs", "version": "1", "state": "stopped"}]}),
            )
        },
        en: "0 of 1 installed apps are running: none. Not running: Electrs (stopped).",
    },
    Case {
        name: "package card",
        render: |l| {
            result(
                l,
                json!({"kind": "package_card",
            "package": {"id": "lnd", "title": "LND", "version": "1", "state": "running", "health": "healthy"}}),
            )
        },
        en: "LND is running, health: healthy.",
    },
    Case {
        name: "package card, no health",
        render: |l| {
            result(
                l,
                json!({"kind": "package_card",
            "package": {"id": "electrs", "title": "Electrs", "version": "1", "state": "stopped"}}),
            )
        },
        en: "Electrs is stopped.",
    },
    Case {
        name: "log tail",
        render: |l| result(l, json!({"kind": "log_tail", "app": "lnd", "lines": ["a", "b", "c"]})),
        en: "Here are lnd's newest 3 log lines.",
    },
    Case {
        name: "bitcoin sync",
        render: |l| {
            result(
                l,
                json!({"kind": "bitcoin_sync", "info": {"chain": "main", "blocks": 425000,
            "headers": 850000, "verificationprogress": 0.5, "initialblockdownload": true}}),
            )
        },
        en: "Bitcoin (main) is at block 425000 of 850000 headers, 50.0% verified, still in initial download.",
    },
    Case {
        name: "lightning",
        render: |l| {
            result(
                l,
                json!({"kind": "lightning_info", "info": {"alias": "zap", "num_active_channels": 3,
            "num_peers": 5, "synced_to_chain": false}}),
            )
        },
        en: "LND \"zap\": 3 active channel(s), 5 peer(s), not yet synced to the chain.",
    },
    Case {
        name: "lightning, synced, one of each",
        render: |l| {
            result(
                l,
                json!({"kind": "lightning_info", "info": {"num_active_channels": 1, "num_peers": 1,
            "synced_to_chain": true}}),
            )
        },
        en: "LND: 1 active channel(s), 1 peer(s), synced to the chain.",
    },
    Case {
        name: "lightning, no figures",
        render: |l| result(l, json!({"kind": "lightning_info", "info": {}})),
        en: "LND: the node sent no figures.",
    },
    Case {
        name: "system stats",
        render: |l| {
            result(
                l,
                json!({"kind": "system_stats", "stats": {"cpu_percent": 12.4, "mem_used": 2_500_000_000u64,
            "mem_total": 8_000_000_000u64, "disk_used": 500_000_000_000u64, "disk_total": 1_000_000_000_000u64,
            "temperature_c": 48.6}}),
            )
        },
        en: "CPU 12%, memory 2.5 of 8.0 GB, disk 500 of 1000 GB, 49 °C.",
    },
    Case {
        name: "system stats, none",
        render: |l| result(l, json!({"kind": "system_stats", "stats": {}})),
        en: "The node sent no system figures.",
    },
    Case {
        name: "mints, none",
        render: |l| result(l, json!({"kind": "mint_list", "mints": []})),
        en: "The node accepts no Cashu mints yet.",
    },
    Case {
        name: "mints",
        render: |l| {
            result(
                l,
                json!({"kind": "mint_list", "mints": [
            {"url": "https://a.example", "unit": "sat"}, {"url": "https://b.example", "unit": "sat"}]}),
            )
        },
        en: "The node accepts 2 Cashu mint(s): https://a.example, https://b.example.",
    },
    Case {
        name: "receipt",
        render: |l| {
            result(
                l,
                json!({"kind": "action_receipt", "request_id": "r", "tool": "package_restart",
            "rpc_method": "package.restart", "app": "lnd", "outcome": "accepted; `lnd` is now restarting",
            "state": "restarting"}),
            )
        },
        en: "Done: restart of lnd accepted; `lnd` is now restarting.",
    },
    Case {
        name: "receipt without a state",
        render: |l| {
            result(
                l,
                json!({"kind": "action_receipt", "request_id": "r", "tool": "package_stop",
            "rpc_method": "package.stop", "app": "lnd", "outcome": "accepted"}),
            )
        },
        en: "Done: stop of lnd accepted.",
    },
    Case {
        name: "which app",
        render: |l| question(l, Intent::Restart, &packages()),
        en: "Which app do you mean? I understood that you want to restart an app but found no app of that name. \
             Installed on your node: LND, Electrs. Not installed, available to install: Fedimint Guardian.",
    },
    Case {
        name: "which app, none installed",
        render: |l| question(l, Intent::Stop, &packages()[2..]),
        en: "Which app do you mean? I understood that you want to stop an app but found no app of that name. No app \
             is installed on your node yet. Not installed, available to install: Fedimint Guardian.",
    },
    Case {
        name: "which app, no apps",
        render: |l| question(l, Intent::Uninstall, &[]),
        en: "Which app do you mean? I understood that you want to uninstall an app but found no app of that name. \
             Your node lists no apps.",
    },
    Case {
        name: "no backend",
        render: |l| {
            let reasons = vec![("local model (Ollama)".into(), "connection refused".into())];
            NoBackend { reasons }.text(l)
        },
        en: "No assistant backend is available right now.\n- local model (Ollama): connection refused\nTo enable one: \
             start Ollama on this machine with a tool-capable model (`ollama pull qwen2.5:7b`), or add a Claude API \
             key and a Claude allowance in the trusted settings window.",
    },
    Case { name: "leg local", render: |l| text(l, "leg-local", &[]), en: "local model (Ollama)" },
    Case { name: "leg builtin", render: |l| text(l, "leg-builtin", &[]), en: "built-in model (SmolLM2-135M)" },
    Case {
        name: "ollama not answering",
        render: |l| {
            let url = "http://127.0.0.1:11434/".into();
            Down::NotAnswering { url, error: "connection refused".into() }.text(l)
        },
        en: "Ollama at http://127.0.0.1:11434/ is not answering (connection refused)",
    },
    Case {
        name: "ollama refused",
        render: |l| Down::Refused { path: "api/tags".into(), status: "500 Internal Server Error".into() }.text(l),
        en: "Ollama answered api/tags with HTTP 500 Internal Server Error",
    },
    Case {
        name: "ollama not json",
        render: |l| Down::NotJson { path: "api/show".into(), error: "expected value at line 1".into() }.text(l),
        en: "Ollama's api/show reply is not JSON (expected value at line 1)",
    },
    Case {
        name: "ollama no models",
        render: |l| Down::NoModels.text(l),
        en: "Ollama has no models; run `ollama pull qwen2.5:7b` (or another model with tool support)",
    },
    Case {
        name: "ollama model missing",
        render: |l| Down::ModelMissing { model: "llama3.1".into() }.text(l),
        en: "the configured model `llama3.1` is not installed in Ollama",
    },
    Case {
        name: "ollama no tool model",
        render: |l| Down::NoToolModel.text(l),
        en: "no installed Ollama model supports tools; pull one that does, e.g. `ollama pull qwen2.5:7b`",
    },
    Case {
        name: "ollama stopped",
        render: |l| Down::Stopped { error: "connection refused".into() }.text(l),
        en: "Ollama stopped answering (connection refused)",
    },
    Case {
        name: "ollama reported",
        render: |l| Down::Reported { reason: "model kaputt".into() }.text(l),
        en: "Ollama reported an error: model kaputt",
    },
    Case {
        name: "claude rate limited",
        render: |l| text(l, "claude-skipped-rate-limited", &[]),
        en: "Claude is skipped for now: rate limited",
    },
    Case {
        name: "claude no key",
        render: |l| text(l, "claude-no-key", &[]),
        en: "no Claude API key is set; add one in the trusted settings window",
    },
    Case {
        name: "claude no price",
        render: |l| text(l, "claude-no-price", &[("model", "claude-opus-9".into())]),
        en: "Claude is not used: the price table has no price for the model claude-opus-9, and a model without a \
             price is never used for paid requests. Add its price in AIUI's settings window (Claude prices) or with \
             `aiui-cli budget price`.",
    },
    Case {
        name: "routstr 80",
        render: |l| crate::budget::notice_80(l, 2100, 1764),
        en: "The assistant has spent 1764 of its 2100-sat allowance (80% or more). Paid requests stop when it runs \
             out; the owner can top it up in AIUI's settings window.",
    },
    Case {
        name: "claude abandoned",
        render: |l| text(l, "claude-abandoned", &[("amount", crate::pricing::format_usd_in(l, 400_000).into())]),
        en: "A Claude request made by an AIUI process that ended before its answer arrived was counted at its most, \
             $0.40, against Claude's allowance: Anthropic may have billed it, and no answer said what it cost.",
    },
    Case {
        name: "claude usage above",
        render: |l| {
            let usd = |micros| crate::pricing::format_usd_in(l, micros).into();
            text(l, "claude-usage-above", &[("priced", usd(90_000)), ("reserved", usd(60_000))])
        },
        en: "Claude reported usage that costs $0.09, more than the $0.06 this request could cost at most. It was \
             counted in full, since Anthropic bills what it reports; check Anthropic's console for what was billed.",
    },
    Case {
        name: "claude 80",
        render: |l| crate::budget::claude_notice_80(l, 5_000_000, 4_100_000),
        en: "Claude has cost $4.10 of its $5.00 allowance (80% or more). It is passed over once the allowance runs out. \
             The owner can raise Claude's allowance in AIUI's settings window (or with `aiui-cli budget set \
             --claude-usd AMOUNT`).",
    },
    Case { name: "builtin off", render: |l| text(l, "builtin-turned-off", &[]), en: "turned off in the settings" },
    Case { name: "builtin not built", render: |l| text(l, "builtin-not-built", &[]), en: "not part of this build" },
    Case {
        name: "builtin cpu",
        render: |l| text(l, "builtin-cpu", &[]),
        en: "this CPU lacks AVX2/FMA, which the built-in model's build needs",
    },
    Case {
        name: "builtin model missing",
        render: |l| {
            let args =
                [("file", "SmolLM2-135M-Instruct.Q4_1.gguf".into()), ("searched", "/usr/share/aiui/models".into())];
            text(l, "builtin-model-missing", &args)
        },
        en: "its model file (SmolLM2-135M-Instruct.Q4_1.gguf) is in none of /usr/share/aiui/models: install the \
             package aiui-model-smollm2, or run `bash scripts/fetch-model` in AIUI's source tree (about 100 MB, \
             checked by SHA-256)",
    },
    Case {
        name: "stopped",
        render: |l| agent(l, "stop-stopped"),
        en: "You stopped the answer. What was written so far is kept; nothing else was done.",
    },
    Case {
        name: "paid stop",
        render: |l| agent(l, "notice-paid-stop"),
        en: "Stopping: the paid request in flight finishes first, so its payment is settled; nothing it proposes will \
             run.",
    },
    Case {
        name: "paid off",
        render: |l| agent(l, "notice-paid-off"),
        en: "Paid help is off for this turn: the node's mint list could not be read (connection refused).",
    },
    Case {
        name: "step limit",
        render: |l| agent(l, "stop-step-limit"),
        en: "I stopped after 8 steps without reaching an answer. Nothing else was changed; you can ask again, perhaps \
             more specifically.",
    },
    Case {
        name: "redacted",
        render: |l| agent(l, "notice-redacted"),
        en: "3 secret value(s) in tool results were redacted before sending to Claude.",
    },
    Case {
        name: "cut off",
        render: |l| agent(l, "stop-cut-off"),
        en: "Claude stopped in the middle of its answer (timed out). What it wrote is kept above; nothing else was \
             done. Ask again to try the next backend.",
    },
    Case {
        name: "leg failed",
        render: |l| agent(l, "notice-leg-failed"),
        en: "connection refused; trying the next backend.",
    },
    Case {
        name: "over allowance",
        render: |l| agent(l, "notice-over-allowance"),
        en: "The allowance is used up. Trying the next backend.",
    },
    Case {
        name: "act failed",
        render: |l| agent(l, "notice-act-failed"),
        en: "`package.restart` did not report success: connection refused.",
    },
    Case {
        name: "read failed",
        render: |l| agent(l, "notice-read-failed"),
        en: "Could not read `package.restart` from the node: connection refused.",
    },
    Case {
        name: "package list failed",
        render: |l| agent(l, "notice-package-list-failed"),
        en: "The app's current state is unknown: the node's package list could not be read (connection refused).",
    },
    Case {
        name: "context too long",
        render: |l| agent(l, "stop-context-too-long"),
        en: "This conversation has grown too long for the model. Start a new conversation to continue.",
    },
    Case {
        name: "backend failed",
        render: |l| agent(l, "stop-backend-failed"),
        en: "The assistant backend failed: connection refused. Nothing was changed; try again.",
    },
    Case {
        name: "mark cut off",
        render: |l| agent(l, "mark-cut-off"),
        en: "[Cut off: the backend stopped answering here.]",
    },
    Case { name: "mark stopped", render: |l| agent(l, "mark-stopped"), en: "[Stopped by you here.]" },
    Case {
        name: "routstr no answer in time",
        render: |l| {
            let after = std::time::Duration::from_millis(2_600);
            Told::NoAnswerInTime { provider: "zap", after, verdict: Verdict::KeptInLedger }.text(l)
        },
        en: "zap did not answer within 2.6 s; the payment is kept in the ledger; its refund is asked for again in the background (and by `aiui-cli wallet \
             reconcile`), and the owner is told if it is written off",
    },
    Case {
        name: "routstr unreachable",
        render: |l| Told::Unreachable { provider: "zap", verdict: Verdict::Unspent }.text(l),
        en: "zap could not be reached; the token was not spent and is back in the wallet",
    },
    Case {
        name: "routstr broke off",
        render: |l| {
            let error = "connection refused".into();
            Told::BrokeOff { provider: "zap", error, verdict: Verdict::ProviderRefunded }.text(l)
        },
        en: "zap broke off the request (connection refused); the provider refunded the payment",
    },
    Case {
        name: "routstr answered, refunded",
        render: |l| answered(l, Verdict::Refunded),
        en: "zap answered HTTP 500: kaputt; the payment was refunded",
    },
    Case {
        name: "routstr answered, refund void",
        render: |l| answered(l, Verdict::RefundVoid),
        en: "zap answered HTTP 500: kaputt; its refund did not count",
    },
    Case {
        name: "routstr answered, refunded in part",
        render: |l| answered(l, Verdict::ProviderRefundedPart { spent: 3, paid: 10 }),
        en: "zap answered HTTP 500: kaputt; the provider refunded part of the payment (3 of the 10 sats count as spent)",
    },
    Case {
        name: "routstr answered, provider's refund void",
        render: |l| answered(l, Verdict::ProviderRefundVoid),
        en: "zap answered HTTP 500: kaputt; the provider's refund did not count",
    },
    Case {
        name: "routstr answer lost",
        render: |l| Told::AnswerLost { provider: "zap", change_kept: false }.text(l),
        en: "zap was paid but its answer never arrived whole",
    },
    Case {
        name: "routstr answer lost, change kept",
        render: |l| Told::AnswerLost { provider: "zap", change_kept: true }.text(l),
        en: "zap was paid but its answer never arrived whole; the change it sent was kept",
    },
    Case {
        name: "routstr 402 but redeemed",
        render: |l| Told::RedeemedAndRefused { provider: "zap", verdict: Verdict::KeptInLedger }.text(l),
        en: "zap answered 402 but kept the payment; the payment is kept in the ledger; its refund is asked for again in the background (and by `aiui-cli wallet \
             reconcile`), and the owner is told if it is written off.",
    },
    Case {
        name: "routstr 402 not taken back yet",
        render: |l| Told::NotTakenBackYet { provider: "zap", error: "timed out".into() }.text(l),
        en: "zap answered 402, and its token could not be taken back yet (timed out); it stays recorded and is taken \
             back by the next reconcile.",
    },
    Case {
        name: "routstr asked more after redeeming",
        render: |l| Told::AskedMoreAfterRedeeming { provider: "zap" }.text(l),
        en: "zap asked for more after it had redeemed the payment; it was not paid again, and the first payment is \
             kept for its refund (aiui-cli wallet reconcile)",
    },
    Case {
        name: "routstr asked too much",
        render: |l| {
            Told::AskedTooMuch { provider: "zap", required: 50, factor: 2, estimate: 20, skipped_minutes: 10 }.text(l)
        },
        en: "zap asked for 50 sats, more than 2× the 20 sats its advertised price comes to; it was not paid and is \
             skipped for the next 10 minutes",
    },
    Case {
        name: "routstr asked too much, one minute",
        render: |l| {
            Told::AskedTooMuch { provider: "zap", required: 50, factor: 2, estimate: 20, skipped_minutes: 1 }.text(l)
        },
        en: "zap asked for 50 sats, more than 2× the 20 sats its advertised price comes to; it was not paid and is \
             skipped for the next minute",
    },
    Case {
        name: "routstr refused twice",
        render: |l| Told::RefusedTwice.text(l),
        en: "the provider refused the payment twice; it was not paid a third time",
    },
    Case {
        name: "routstr no common mint",
        render: |l| Told::NoCommonMint.text(l),
        en: "I could not pay: no mint is both accepted in the allowance settings and listed by the provider, so I \
             stopped here. Nothing was spent.",
    },
    Case {
        name: "routstr too little ecash",
        render: |l| Told::TooLittleEcash { price: 25 }.text(l),
        en: "I could not pay the 25 sats this request may cost: the wallet holds too little ecash at the accepted \
             mints, so I stopped here. Nothing was spent. The owner can fund the wallet in AIUI's settings window (or \
             with `aiui-cli wallet invoice`).",
    },
    Case {
        name: "routstr mint down",
        render: |l| Told::MintDown { error: "connection refused".into() }.text(l),
        en: "I could not pay: connection refused. Nothing was spent, so I stopped here; try again when the mint is \
             back.",
    },
    Case {
        name: "routstr not paid",
        render: |l| Told::NotPaid { error: "timed out".into() }.text(l),
        en: "I could not pay: timed out. Nothing was spent, so I stopped here.",
    },
];

/// The runs of ASCII letters in `text`: in a pseudo-localised text, only what came from outside the catalogue.
fn ascii_words(text: &str) -> BTreeSet<&str> {
    text.split(|c: char| !c.is_ascii_alphabetic()).filter(|w| !w.is_empty()).collect()
}

#[test]
fn every_loop_and_builtin_message_renders_in_every_locale() {
    let problems = problems_rendering(CASES, NOT_CATALOGUE);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// What is wrong with `cases` in some locale: English that changed, German or Spanish that reads as English, or a
/// pseudo-locale text no longer than English or with an English word (of four letters or more, not in
/// `not_catalogue`) escaped from the catalogue.
pub(super) fn problems_rendering(cases: &[Case], not_catalogue: &str) -> Vec<String> {
    let outside = ascii_words(not_catalogue);
    let mut problems = Vec::new();
    for case in cases {
        let en = (case.render)(Locale::En);
        if en != case.en {
            problems.push(format!("{}: the English changed:\n  was {:?}\n  now {en:?}", case.name, case.en));
        }
        for locale in [Locale::De, Locale::Es] {
            let theirs = (case.render)(locale);
            if theirs == en || theirs.trim().is_empty() {
                problems.push(format!("{}: {locale} reads as English: {theirs:?}", case.name));
            }
        }
        let pseudo = (case.render)(Locale::Pseudo);
        if pseudo.chars().count() <= en.chars().count() {
            problems.push(format!("{}: en-XA is not longer than English: {pseudo:?}", case.name));
        }
        let escaped: Vec<&str> = ascii_words(&en)
            .intersection(&ascii_words(&pseudo))
            .filter(|w| w.len() >= 4 && !outside.contains(*w))
            .copied()
            .collect();
        if !escaped.is_empty() {
            problems.push(format!("{}: English words {escaped:?} escaped the catalogue: {pseudo:?}", case.name));
        }
    }
    problems
}

#[test]
fn every_intent_reads_as_a_choice_in_every_locale() {
    for intent in Intent::ALL {
        let en = intent.describe(Locale::En, "LND");
        for locale in [Locale::De, Locale::Es] {
            assert_ne!(intent.describe(locale, "LND"), en, "{intent:?} in {locale}");
        }
        let pseudo = intent.describe(Locale::Pseudo, "LND");
        assert!(pseudo.chars().count() > en.chars().count(), "{pseudo}");
    }
}

#[test]
fn numbers_read_with_the_locales_decimal_separator_and_plural() {
    let stats = |l| {
        result(
            l,
            json!({"kind": "system_stats", "stats": {"cpu_percent": 12.4, "mem_used": 2_500_000_000u64,
            "mem_total": 8_000_000_000u64}}),
        )
    };
    assert_eq!(stats(Locale::De), "CPU 12 %, Arbeitsspeicher 2,5 von 8,0 GB.");
    assert_eq!(stats(Locale::Es), "CPU 12 %, memoria 2,5 de 8,0 GB.");
    let sync = json!({"kind": "bitcoin_sync", "info": {"chain": "main", "blocks": 10, "headers": 20}});
    assert_eq!(result(Locale::De, sync.clone()), "Bitcoin (main) ist bei Block 10 von 20 Headern, 50,0 % geprüft.");
    assert_eq!(result(Locale::Es, sync), "Bitcoin (main) está en el bloque 10 de 20 cabeceras, 50,0 % verificado.");
    let redacted = |l, n: u32| text(l, "notice-redacted", &[("count", n.into()), ("backend", "Claude".into())]);
    assert_eq!(
        redacted(Locale::De, 1),
        "1 geheimer Wert in Werkzeugergebnissen wurde vor dem Senden an Claude geschwärzt."
    );
    assert_eq!(
        redacted(Locale::Es, 2),
        "Se ocultaron 2 valores secretos de los resultados de herramientas antes de enviarlos a Claude."
    );
}

#[test]
fn dollar_amounts_read_the_locales_way_and_never_below_what_they_are() {
    use crate::pricing::{format_usd, format_usd_in};
    for micros in [0, 45, 31_200, 500_000, 5_000_000, 1_234_560_000] {
        assert_eq!(format_usd_in(Locale::En, micros), format_usd(micros), "English is as before");
    }
    assert_eq!(format_usd_in(Locale::De, 5_000_000), "5,00\u{a0}$");
    assert_eq!(format_usd_in(Locale::Es, 5_000_000), "5,00\u{a0}US$");
    assert_eq!(format_usd_in(Locale::De, 31_201), "0,0313\u{a0}$", "rounded up, as the English");
    assert_eq!(format_usd_in(Locale::Es, 45), "0,000045\u{a0}US$");
    let too_dear = |l| pass_over_message(l, &usd(5_000_000, 2_500_000, 500_000, Period::Daily), Some(3_100_000));
    let german = too_dear(Locale::De);
    assert!(german.contains("3,10\u{a0}$") && german.contains("5,00\u{a0}$") && !german.contains("$3"), "{german}");
    let spanish = too_dear(Locale::Es);
    assert!(spanish.contains("3,10\u{a0}US$") && !spanish.contains("$3"), "{spanish}");
}

#[test]
fn the_enable_a_leg_line_the_cli_replaces_is_the_english_catalogues() {
    assert_eq!(text(Locale::En, "stop-enable-a-leg", &[]), ENABLE_A_LEG);
}
