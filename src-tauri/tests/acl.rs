//! The window boundary over the real capability files: every trusted command is refused from the chat window and
//! allowed from the trusted window; the chat window's commands are refused from the trusted window; a command not
//! in the list is refused everywhere; and a capability that wrongly grants a trusted command to the chat window
//! still fails closed on the Rust label check. The commands come from `commands/names.rs`, the list `build.rs`
//! declares, so a new command cannot be added without a row here.

use std::sync::Arc;

use aiui::{LegOptions, MAIN_COMMANDS, Mode, Shell, TRUSTED_COMMANDS};
use aiui_core::paths::DataDir;
use aiui_core::secrets::{SecretName, Secrets};
use serde_json::{Value, json};
use tauri::ipc::{CallbackFn, CapabilityBuilder, InvokeBody};
use tauri::test::{INVOKE_KEY, MockRuntime, get_ipc_response, mock_builder};
use tauri::webview::InvokeRequest;
use tauri::{App, Manager, WebviewUrl, WebviewWindow, WebviewWindowBuilder};

/// Arguments that let each command run to a real answer (or a real refusal of its own).
fn arguments(command: &str) -> Value {
    match command {
        "app_info"
        | "conversations_list"
        | "node_packages"
        | "chat_suggestions"
        | "request_trusted_window"
        | "chat_stop"
        | "allowance_get"
        | "ui_text" => json!({}),
        "conversation_load" => json!({ "id": "00000000000000000000000000000000" }),
        "chat_send" => json!({ "conversation": null, "text": "restart lnd", "onEvent": "__CHANNEL__:1" }),
        "trusted_pending" | "trusted_settings" | "trusted_clear_api_key" | "trusted_hide" | "trusted_ui_text" => {
            json!({})
        }
        "trusted_set_locale" => json!({ "locale": "de" }),
        "trusted_decide" => json!({ "id": "feed", "argumentsHash": "beef", "answer": "approve" }),
        "trusted_set_api_key" => json!({ "key": "sk-ant-api03-acl-test" }),
        "trusted_fetch_fingerprint" => json!({ "url": "http://127.0.0.1:9/" }),
        "trusted_pair_node" => json!({ "url": "http://127.0.0.1:9/", "fingerprint": null, "password": "acl-test-pw" }),
        "trusted_set_grant" => json!({ "tool": "package_restart", "enabled": false }),
        "trusted_set_builtin" => json!({ "enabled": false }),
        "trusted_set_allowance" => {
            json!({ "allowanceSats": 2100, "period": "weekly", "acceptedMints": ["https://mint.example.com"] })
        }
        "trusted_set_routstr" => json!({ "reviewedOnly": false, "torSocks": "127.0.0.1:9050" }),
        "trusted_set_claude_allowance" => json!({ "allowanceUsd": "$5.00", "period": "monthly" }),
        "trusted_set_claude_price" => json!({
            "model": "claude-sonnet-4-5", "input": "4", "output": "16", "cacheWrite": "5", "cacheRead": "0.40"
        }),
        "trusted_wallet" => json!({}),
        "trusted_wallet_receive" => json!({ "token": "cashuBnot-a-token" }),
        // Port 9 (discard) refuses at once: the command runs and reports the mint unreachable.
        "trusted_wallet_invoice" => json!({ "mint": "http://127.0.0.1:9/", "amountSats": 1000 }),
        "trusted_wallet_check" => json!({ "mint": "http://127.0.0.1:9/", "quoteId": "no-such-quote" }),
        // Each of these runs and refuses on its own terms: no invoice, no such approval, no sats at that mint.
        "trusted_wallet_quote_withdrawal" => {
            json!({ "invoice": "lnbc1notaninvoice", "mint": null, "everything": false })
        }
        "trusted_wallet_withdraw" | "trusted_wallet_send" => json!({ "id": "no-such-approval" }),
        "trusted_wallet_quote_send" => json!({ "mint": "http://127.0.0.1:9/", "amountSats": 100 }),
        "trusted_wallet_take_back" => json!({ "id": "no-such-token" }),
        "trusted_wallet_reconcile" | "trusted_wallet_backup" | "trusted_wallet_confirm_backup" => json!({}),
        "trusted_wallet_restore" => {
            json!({ "text": "not backup words\nhttp://127.0.0.1:9/", "replaceOtherWords": false })
        }
        other => panic!("`{other}` is in commands/names.rs but has no row in the ACL test's argument table"),
    }
}

struct Harness {
    app: App<MockRuntime>,
    _dir: tempfile::TempDir,
}

/// The app with both windows, as it is once started.
fn harness() -> Harness {
    let h = without_windows();
    aiui::windows::create(h.app.handle()).unwrap();
    h
}

/// The app before `setup` made its windows: the trusted label is free, as it is if the trusted window is ever gone.
fn without_windows() -> Harness {
    let dir = tempfile::tempdir().unwrap();
    let shell = Shell::open(
        Mode::default(),
        DataDir(dir.path().to_path_buf()),
        Arc::new(Secrets::in_memory()),
        LegOptions::default(),
    )
    .unwrap();
    // `setup` runs only when the event loop starts, which the mock runtime never does: no window is made yet.
    let app = aiui::app(mock_builder()).manage(shell).build(aiui::context()).unwrap();
    Harness { app, _dir: dir }
}

impl Harness {
    fn window(&self, label: &str) -> WebviewWindow<MockRuntime> {
        self.app.get_webview_window(label).unwrap_or_else(|| panic!("no `{label}` window"))
    }

    fn invoke(&self, label: &str, command: &str) -> Result<Value, Value> {
        self.invoke_with(label, command, arguments(command))
    }

    fn invoke_with(&self, label: &str, command: &str, arguments: Value) -> Result<Value, Value> {
        let request = InvokeRequest {
            cmd: command.into(),
            callback: CallbackFn(0),
            error: CallbackFn(1),
            url: "tauri://localhost".parse().unwrap(),
            body: InvokeBody::Json(arguments),
            headers: Default::default(),
            invoke_key: INVOKE_KEY.to_string(),
        };
        get_ipc_response(&self.window(label), request).map(|body| body.deserialize::<Value>().unwrap())
    }

    fn shell(&self) -> tauri::State<'_, Shell> {
        self.app.state::<Shell>()
    }
}

/// The ACL refused the call before any command code ran.
fn refused_by_acl(result: &Result<Value, Value>) -> bool {
    matches!(result, Err(Value::String(message)) if message.contains("not allowed"))
}

/// The command itself ran: it answered, or refused with its own `CommandError`.
fn reached(result: &Result<Value, Value>) -> bool {
    match result {
        Ok(_) => true,
        Err(Value::Object(error)) => error.get("code").is_some_and(Value::is_string),
        Err(_) => false,
    }
}

#[test]
fn the_command_lists_are_disjoint_and_named_in_the_right_capability_only() {
    let main_cap = include_str!("../capabilities/main.json");
    let trusted_cap = include_str!("../capabilities/trusted.json");
    assert!(!TRUSTED_COMMANDS.is_empty() && !MAIN_COMMANDS.is_empty());
    for command in TRUSTED_COMMANDS {
        assert!(!MAIN_COMMANDS.contains(command), "`{command}` is in both lists");
        assert!(command.starts_with("trusted_"), "trusted command `{command}` should be named trusted_*");
        let permission = format!("\"allow-{}\"", command.replace('_', "-"));
        assert!(trusted_cap.contains(&permission), "trusted.json does not allow `{command}`");
        assert!(!main_cap.contains(&permission), "main.json must never name the trusted command `{command}`");
    }
    for command in MAIN_COMMANDS {
        let permission = format!("\"allow-{}\"", command.replace('_', "-"));
        assert!(main_cap.contains(&permission), "main.json does not allow `{command}`");
        assert!(!trusted_cap.contains(&permission), "trusted.json should not need the chat command `{command}`");
    }
    // The chat window gets no core permission that could reach another window (emit_to, window handles).
    assert!(!main_cap.contains("core:"), "main.json must not grant any core:* permission");
}

#[test]
fn every_trusted_command_is_refused_from_main_and_allowed_from_trusted() {
    let h = harness();
    for command in TRUSTED_COMMANDS {
        let from_main = h.invoke("main", command);
        assert!(refused_by_acl(&from_main), "`{command}` from main was not refused by the ACL: {from_main:?}");
    }
    // Nothing the refused calls asked for happened.
    assert_eq!(h.shell().secrets.get(SecretName::AnthropicApiKey).unwrap(), None);
    assert_eq!(h.shell().secrets.get(SecretName::NodePassword).unwrap(), None);
    assert!(h.shell().config.read().unwrap().grants.disabled.is_empty());
    assert!(!h.shell().data.0.join(aiui::config::FILE_NAME).exists());
    assert_eq!(h.shell().budget().get().allowance_sats, 0, "the allowance changed from the chat window");
    assert_eq!(h.shell().claude_allowance().get().allowance_usd_micros, 0, "Claude's allowance changed from main");
    assert!(!aiui_core::pricing::owner_path(&h.shell().data.0).exists(), "a Claude price was set from main");
    assert!(!h.shell().data.0.join("wallet.sqlite3").exists(), "the chat window opened the wallet");

    for command in TRUSTED_COMMANDS {
        let from_trusted = h.invoke("trusted", command);
        assert!(reached(&from_trusted), "`{command}` from trusted did not reach the command: {from_trusted:?}");
    }
    // And from the trusted window, the same calls take effect (the list also clears the key, so set it last).
    assert!(reached(&h.invoke("trusted", "trusted_set_api_key")));
    assert!(h.shell().secrets.get(SecretName::AnthropicApiKey).unwrap().is_some());
    assert!(h.shell().config.read().unwrap().grants.disabled.contains("package_restart"));
    let budget = h.shell().budget().get();
    assert_eq!((budget.allowance_sats, budget.period.as_str()), (2100, "weekly"));
    assert_eq!(budget.accepted_mints, vec!["https://mint.example.com".to_owned()]);
    let file = aiui::config::ShellConfig::load(&h.shell().data.0).unwrap();
    assert_eq!(file.locale.as_deref(), Some("de"), "the owner's language is kept");
    assert_eq!(h.shell().locale(), aiui_core::i18n::Locale::De, "and used from the next message");
    assert!(!file.routstr.reviewed_only);
    assert_eq!(file.routstr.tor_socks, Some("127.0.0.1:9050".parse().unwrap()));
    let claude = h.shell().claude_allowance().get();
    assert_eq!((claude.allowance_usd_micros, claude.period.as_str()), (5_000_000, "monthly"));
    let price = aiui_core::pricing::PriceTable::load(&h.shell().data.0).unwrap().models["claude-sonnet-4-5"];
    assert!(price.set_by_owner && price.base.input == 4_000_000 && price.base.cache_read == 400_000);
}

#[test]
fn the_chat_window_reads_the_claude_allowance_and_prices_the_trusted_window_sets() {
    let h = harness();
    let before = h.invoke("main", "allowance_get").unwrap();
    assert_eq!(
        (&before["claude"]["allowance_usd_micros"], &before["claude"]["allowance"]),
        (&json!(0), &json!("$0.00"))
    );
    assert_eq!((&before["free_answers"]["local"], &before["free_answers"]["builtin"]), (&json!(0), &json!(0)));
    let view = h.invoke("trusted", "trusted_set_claude_allowance").unwrap();
    assert_eq!(view["budget"]["claude"]["remaining"], "$5.00");
    let after = h.invoke("main", "allowance_get").unwrap();
    assert_eq!(
        (&after["claude"]["allowance"], &after["claude"]["spent"], &after["claude"]["period"]),
        (&json!("$5.00"), &json!("$0.00"), &json!("monthly"))
    );
    // What the host cannot read is refused with its reason, and nothing changes.
    for (amount, period) in [("five dollars", "monthly"), ("5", "hourly"), ("-1", "daily")] {
        let refused = h.invoke_with(
            "trusted",
            "trusted_set_claude_allowance",
            json!({ "allowanceUsd": amount, "period": period }),
        );
        assert_eq!(refused.unwrap_err()["code"], "invalid", "{amount} {period}");
    }
    assert_eq!(h.shell().claude_allowance().get().allowance_usd_micros, 5_000_000);

    let table = &view["claude_prices"];
    assert!(table["taken_on"].as_str().is_some_and(|d| d.len() == 10) && table["source"].as_str().is_some());
    let sonnet = |view: &Value| {
        view["claude_prices"]["models"].as_array().unwrap().iter().find(|m| m["model"] == "claude-sonnet-4-5").cloned()
    };
    let shipped = sonnet(&view).unwrap();
    assert_eq!(
        (&shipped["input"], &shipped["cache_read"], &shipped["set_by_owner"]),
        (&json!("$3.00"), &json!("$0.30"), &json!(false))
    );
    let set = h.invoke("trusted", "trusted_set_claude_price").unwrap();
    let owned = sonnet(&set).unwrap();
    assert_eq!(
        (&owned["input"], &owned["output"], &owned["set_by_owner"]),
        (&json!("$4.00"), &json!("$16.00"), &json!(true))
    );
    assert!(owned["long_context"].is_null(), "the owner's price holds at every length");
    for (model, input) in [("claude sonnet", "3"), ("claude-sonnet-4-5", "three"), ("claude-sonnet-4-5", "20000")] {
        let refused = h.invoke_with(
            "trusted",
            "trusted_set_claude_price",
            json!({ "model": model, "input": input, "output": "15", "cacheWrite": "3.75", "cacheRead": "0.3" }),
        );
        let error = refused.unwrap_err();
        assert_eq!(error["code"], "invalid", "{model} {input}: {error}");
        assert!(error["message"].as_str().is_some_and(|m| m.ends_with('.')), "{error}");
    }
    assert_eq!(sonnet(&h.invoke("trusted", "trusted_settings").unwrap()).unwrap(), owned);
}

#[test]
fn the_chat_window_reads_the_allowance_the_trusted_window_sets() {
    let h = harness();
    let before = h.invoke("main", "allowance_get").unwrap();
    assert_eq!(before["allowance_sats"], 0);
    assert_eq!(before["period"], "never");
    assert!(before.get("accepted_mints").is_none(), "the meter needs no mint list");
    let view = h.invoke("trusted", "trusted_set_allowance").unwrap();
    assert_eq!(view["budget"]["allowance_sats"], 2100);
    assert_eq!(view["budget"]["remaining_sats"], 2100);
    let after = h.invoke("main", "allowance_get").unwrap();
    assert_eq!(
        (&after["allowance_sats"], &after["remaining_sats"], &after["period"]),
        (&json!(2100), &json!(2100), &json!("weekly"))
    );
    // A bad mint or period is refused by the command and changes nothing.
    let refused = h.invoke_with(
        "trusted",
        "trusted_set_allowance",
        json!({ "allowanceSats": 1, "period": "hourly", "acceptedMints": [] }),
    );
    assert_eq!(refused.unwrap_err()["code"], "invalid");
    let refused = h.invoke_with(
        "trusted",
        "trusted_set_allowance",
        json!({ "allowanceSats": 1, "period": "daily", "acceptedMints": ["ftp://mint"] }),
    );
    assert_eq!(refused.unwrap_err()["code"], "invalid");
    assert_eq!(h.shell().budget().get().allowance_sats, 2100);
}

#[test]
fn looking_at_the_wallet_creates_no_seed_and_a_bad_routstr_address_is_refused() {
    let h = harness();
    let view = h.invoke("trusted", "trusted_wallet").unwrap();
    assert_eq!(view["opened"], false);
    assert_eq!(h.shell().secrets.get(SecretName::WalletSeed).unwrap(), None);
    let refused =
        h.invoke_with("trusted", "trusted_set_routstr", json!({ "reviewedOnly": true, "torSocks": "tor:9050" }));
    assert_eq!(refused.unwrap_err()["code"], "invalid");
    let settings = h.invoke("trusted", "trusted_settings").unwrap();
    assert_eq!(settings["routstr"]["reviewed_only"], true);
}

/// Issue 9, item 7: the reviewer key is set in the trusted settings, reaches discovery, and a bad one is refused.
#[test]
fn the_reviewer_key_is_set_in_the_trusted_settings_and_a_bad_one_is_refused() {
    let h = harness();
    // The x coordinate of secp256k1's generator: a valid public key in hex.
    let hex = "79be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798";
    let args = json!({ "reviewedOnly": true, "torSocks": null, "reviewer": format!(" {hex} ") });
    let view = h.invoke_with("trusted", "trusted_set_routstr", args).unwrap();
    assert_eq!(view["routstr"]["reviewer"], hex);
    assert_eq!(aiui::config::ShellConfig::load(&h.shell().data.0).unwrap().routstr.reviewer.as_deref(), Some(hex));
    assert_eq!(h.shell().leg_settings().unwrap().discovery.reviewer.as_deref(), Some(hex));

    let bad = json!({ "reviewedOnly": true, "torSocks": null, "reviewer": "npub1notakey" });
    let refused = h.invoke_with("trusted", "trusted_set_routstr", bad).unwrap_err();
    assert_eq!(refused["code"], "invalid");
    assert!(refused["message"].as_str().unwrap().contains("The reviewer key is an npub"), "{refused}");
    assert_eq!(h.invoke("trusted", "trusted_settings").unwrap()["routstr"]["reviewer"], hex, "unchanged");

    let cleared = json!({ "reviewedOnly": true, "torSocks": null, "reviewer": "" });
    let view = h.invoke_with("trusted", "trusted_set_routstr", cleared).unwrap();
    assert_eq!(view["routstr"]["reviewer"], Value::Null);
}

/// Issue 23: with no wallet, the backup has nothing to show and a restore of words that are not a backup is refused;
/// neither makes a seed. The wallet view offers restore exactly then.
#[test]
fn backup_and_restore_with_no_wallet_make_no_seed() {
    let h = harness();
    let view = h.invoke("trusted", "trusted_wallet").unwrap();
    assert_eq!((&view["opened"], &view["restorable"]), (&json!(false), &json!(true)));
    assert_eq!(view["outflows"], json!([]));
    assert_eq!(h.invoke("trusted", "trusted_wallet_backup").unwrap_err()["code"], "no_wallet");
    assert_eq!(h.invoke("trusted", "trusted_wallet_restore").unwrap_err()["code"], "invalid");
    let no_mints = json!({ "text": "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about", "replaceOtherWords": false });
    let refused = h.invoke_with("trusted", "trusted_wallet_restore", no_mints).unwrap_err();
    assert_eq!(refused["code"], "invalid");
    assert!(refused["message"].as_str().unwrap().contains("mint lines"), "{refused}");
    for command in ["trusted_wallet_quote_withdrawal", "trusted_wallet_quote_send", "trusted_wallet_reconcile"] {
        let refused = h.invoke("trusted", command).unwrap_err();
        assert!(["no_wallet", "invalid"].contains(&refused["code"].as_str().unwrap()), "{command}: {refused}");
    }
    assert_eq!(h.shell().secrets.get(SecretName::WalletSeed).unwrap(), None);
    assert!(!h.shell().data.0.join("wallet.sqlite3").exists());
}

/// Issue 23: an approval is an id the host made; one it did not make, or one already used, approves nothing.
#[test]
fn a_withdrawal_or_a_token_is_approved_only_by_an_id_the_host_made() {
    let h = harness();
    // The wallet exists (funding it was asked for), but nothing was quoted.
    let _ = h.invoke("trusted", "trusted_wallet_invoice");
    assert!(h.shell().data.0.join("wallet.sqlite3").exists());
    for command in ["trusted_wallet_withdraw", "trusted_wallet_send"] {
        let refused = h.invoke_with("trusted", command, json!({ "id": "" })).unwrap_err();
        assert_eq!(refused["code"], "unknown_approval", "{command}: {refused}");
    }
    // An amount or a mint in the approval is not an argument: the command reads only the id.
    let refused = h
        .invoke_with(
            "trusted",
            "trusted_wallet_withdraw",
            json!({ "id": "x", "amountSats": 1, "mint": "http://127.0.0.1:9/", "invoice": "lnbc1" }),
        )
        .unwrap_err();
    assert_eq!(refused["code"], "unknown_approval");
    let view = h.invoke("trusted", "trusted_wallet").unwrap();
    assert_eq!((&view["opened"], &view["total_sats"], &view["in_flight_sats"]), (&json!(true), &json!(0), &json!(0)));
    assert_eq!(view["restorable"], true, "an empty wallet may be restored into");
}

#[test]
fn chat_commands_are_allowed_from_main_and_refused_from_trusted() {
    let h = harness();
    for command in MAIN_COMMANDS {
        let from_main = h.invoke("main", command);
        assert!(reached(&from_main), "`{command}` from main did not reach the command: {from_main:?}");
        let from_trusted = h.invoke("trusted", command);
        assert!(refused_by_acl(&from_trusted), "`{command}` from trusted was not refused: {from_trusted:?}");
    }
}

#[test]
fn core_commands_that_reach_other_windows_and_unlisted_commands_are_refused() {
    let h = harness();
    let core = [
        "plugin:event|emit_to",
        "plugin:event|emit",
        "plugin:window|set_focus",
        "plugin:window|show",
        "plugin:webview|create_webview_window",
        "plugin:webview|get_all_webviews",
    ];
    for label in ["main", "trusted"] {
        for command in core.iter().chain(&["trusted_backdoor", "decide"]) {
            let request = InvokeRequest {
                cmd: (*command).into(),
                callback: CallbackFn(0),
                error: CallbackFn(1),
                url: "tauri://localhost".parse().unwrap(),
                body: InvokeBody::Json(
                    json!({ "target": { "kind": "WebviewWindow", "label": "trusted" }, "event": "aiui:pending", "label": "trusted" }),
                ),
                headers: Default::default(),
                invoke_key: INVOKE_KEY.to_string(),
            };
            let result = get_ipc_response(&h.window(label), request).map(|b| b.deserialize::<Value>().unwrap());
            assert!(result.is_err(), "{command} from {label} was not refused: {result:?}");
            if core.contains(command) {
                assert!(refused_by_acl(&result), "{command} from {label}: {result:?}");
            }
        }
    }
}

#[test]
fn a_capability_that_wrongly_grants_a_trusted_command_to_main_still_fails_closed() {
    let h = harness();
    let mut oops = CapabilityBuilder::new("misconfigured").window("main");
    for command in TRUSTED_COMMANDS {
        oops = oops.permission(format!("allow-{}", command.replace('_', "-")));
    }
    h.app.add_capability(oops).unwrap();
    for command in TRUSTED_COMMANDS {
        let result = h.invoke("main", command);
        let code = result.as_ref().err().and_then(|e| e.get("code")).and_then(Value::as_str);
        assert_eq!(code, Some("not_trusted"), "`{command}` from main under a wrong capability: {result:?}");
    }
    assert_eq!(h.shell().secrets.get(SecretName::AnthropicApiKey).unwrap(), None);
}

/// The trusted window is made at start; its label is free only before that, or if the window is ever gone. A window
/// under that label that the app did not make (nothing in the app can, but a bug in a permission could) is
/// destroyed, and is never handed out as the trusted window.
#[test]
fn the_trusted_label_is_the_apps_own() {
    let h = without_windows();
    assert!(h.app.get_webview_window("trusted").is_none(), "no trusted window before the app made one");
    WebviewWindowBuilder::new(h.app.handle(), "trusted", WebviewUrl::App("index.html".into())).build().unwrap();
    // (The mock runtime has no event loop, so the destruction itself is not seen here.)
    assert!(aiui::windows::trusted_window(h.app.handle()).is_err(), "the impostor is not the trusted window");
    assert!(aiui::windows::show_trusted(h.app.handle(), true).is_err(), "nor is it shown for a confirmation");

    // The app's own, made at start, is the one kept.
    let h = harness();
    assert!(h.app.get_webview_window("trusted").is_some(), "the trusted window is made at start");
    aiui::windows::trusted_window(h.app.handle()).unwrap();
    aiui::windows::trusted_window(h.app.handle()).unwrap();
    assert_eq!(h.app.webview_windows().len(), 2, "the chat window and one trusted window");
}
