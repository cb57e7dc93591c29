//! The keyring holds the Claude API key and the node password, set from the trusted window; nothing secret is
//! written to the config file (or any other file in the data dir), and the settings sent back to the window say
//! only "set".
//!
//! The test runs itself again inside a private D-Bus session with a fresh, unlocked gnome-keyring in a temp dir
//! (build-notes gotcha 13), so it never touches the owner's keyring. It fails, never skips, when
//! `dbus-run-session` or `gnome-keyring-daemon` is missing. (`harness = false`: `main` is the test.)

use std::process::{Command, ExitCode};
use std::sync::Arc;

use aiui::{LegOptions, Mode, Shell};
use aiui_core::paths::DataDir;
use aiui_core::secrets::{SecretName, Secrets};
use serde_json::{Value, json};
use tauri::Manager;
use tauri::ipc::{CallbackFn, InvokeBody};
use tauri::test::{INVOKE_KEY, get_ipc_response, mock_builder};
use tauri::webview::InvokeRequest;

const CHILD: &str = "AIUI_KEYRING_TEST_CHILD";
const API_KEY: &str = "sk-ant-api03-KEYRING-TEST-9f8e7d6c5b4a";
const NODE_PASSWORD: &str = "correct-horse-keyring-test-42";

fn main() -> ExitCode {
    if std::env::var_os(CHILD).is_some() {
        child();
        eprintln!("keyring: the API key and node password are in the keyring, and in no file");
        return ExitCode::SUCCESS;
    }
    for tool in ["dbus-run-session", "gnome-keyring-daemon"] {
        if Command::new("sh").args(["-c", &format!("command -v {tool}")]).output().map_or(true, |o| !o.status.success())
        {
            eprintln!("keyring test: `{tool}` is missing; install dbus and gnome-keyring (apt: dbus gnome-keyring)");
            return ExitCode::FAILURE;
        }
    }
    let me = std::env::current_exe().expect("the test binary's path");
    // A private session bus and keyring, with its data under a temp dir instead of the owner's home.
    let script = r#"set -e
export XDG_RUNTIME_DIR="$(mktemp -d)"; chmod 700 "$XDG_RUNTIME_DIR"
export XDG_DATA_HOME="$XDG_RUNTIME_DIR/data"; mkdir -p "$XDG_DATA_HOME"
eval "$(printf ci | gnome-keyring-daemon --unlock --components=secrets)"
"$0"; status=$?
rm -rf "$XDG_RUNTIME_DIR"
exit $status"#;
    let status = Command::new("dbus-run-session")
        .args(["--", "sh", "-c", script])
        .arg(&me)
        .env(CHILD, "1")
        .status()
        .expect("running dbus-run-session");
    if status.success() {
        ExitCode::SUCCESS
    } else {
        eprintln!("keyring test failed ({status})");
        ExitCode::FAILURE
    }
}

fn child() {
    aiui_core::net::install_crypto_provider();
    let node_dir = tempfile::tempdir().unwrap();
    let node = tauri::async_runtime::block_on(archy_devnode::spawn(
        archy_devnode::DevNodeConfig::new(NODE_PASSWORD, node_dir.path()),
        "127.0.0.1:0".parse().unwrap(),
    ))
    .expect("starting a devnode");

    let service = format!("aiui-keyring-test-{:08x}", rand::random::<u32>());
    let data = tempfile::tempdir().unwrap();
    let shell = Shell::open(
        Mode::default(),
        DataDir(data.path().to_path_buf()),
        Arc::new(Secrets::keyring_service(&service)),
        LegOptions::default(),
    )
    .unwrap();
    let app = aiui::app(mock_builder()).manage(shell).build(aiui::context()).unwrap();
    // `setup` runs only when the event loop starts, which the mock runtime never does: its windows are made here.
    aiui::windows::create(app.handle()).unwrap();
    let trusted = aiui::windows::trusted_window(app.handle()).expect("the trusted window");
    let invoke = |cmd: &str, args: Value| -> Value {
        let request = InvokeRequest {
            cmd: cmd.into(),
            callback: CallbackFn(0),
            error: CallbackFn(1),
            url: "tauri://localhost".parse().unwrap(),
            body: InvokeBody::Json(args),
            headers: Default::default(),
            invoke_key: INVOKE_KEY.to_string(),
        };
        get_ipc_response(&trusted, request)
            .unwrap_or_else(|e| panic!("{cmd} failed: {e}"))
            .deserialize::<Value>()
            .unwrap()
    };

    let after_key = invoke("trusted_set_api_key", json!({ "key": API_KEY }));
    let after_pair =
        invoke("trusted_pair_node", json!({ "url": node.url(), "fingerprint": null, "password": NODE_PASSWORD }));
    let settings = invoke("trusted_settings", json!({}));

    // The keyring, read through a fresh handle (a D-Bus round trip, not a cache), holds both.
    let keyring = Secrets::keyring_service(&service);
    assert_eq!(keyring.get(SecretName::AnthropicApiKey).unwrap().expect("API key in the keyring").expose(), API_KEY);
    assert_eq!(
        keyring.get(SecretName::NodePassword).unwrap().expect("password in the keyring").expose(),
        NODE_PASSWORD
    );

    // The window is told "set", never the value.
    assert_eq!(settings["api_key_set"], json!(true), "{settings}");
    assert_eq!(settings["node"]["password_set"], json!(true), "{settings}");
    for reply in [&after_key, &after_pair, &settings] {
        let text = reply.to_string();
        assert!(!text.contains(API_KEY) && !text.contains(NODE_PASSWORD), "a secret went back to the window: {text}");
    }

    // The config file names the node and holds no secret; neither does any other file in the data dir.
    let config = std::fs::read_to_string(data.path().join(aiui::config::FILE_NAME)).expect("the config file");
    assert!(config.contains(&node.url()), "the config file does not name the paired node: {config}");
    let mut files = Vec::new();
    let mut dirs = vec![data.path().to_owned()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() { dirs.push(path) } else { files.push(path) }
        }
    }
    for path in files {
        let bytes = std::fs::read(&path).unwrap();
        let text = String::from_utf8_lossy(&bytes);
        assert!(!text.contains(API_KEY), "{} holds the API key", path.display());
        assert!(!text.contains(NODE_PASSWORD), "{} holds the node password", path.display());
    }

    // The pairing is live: the assistant's node is the devnode.
    assert!(app.state::<Shell>().agent().is_some());
    keyring.delete(SecretName::AnthropicApiKey).unwrap();
    keyring.delete(SecretName::NodePassword).unwrap();
    drop(node);
}
