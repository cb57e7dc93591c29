//! `aiui-cli` as a user runs it: the built binary against a devnode on loopback.

use std::net::SocketAddr;
use std::process::{Command, Output, Stdio};

use archy_devnode::DevNodeConfig;

const PASSWORD: &str = "cli-test-password-9";

/// The CLI in English whatever this machine's locale: the tests read the host's words.
fn english(mut cmd: Command) -> Command {
    cmd.env("LC_ALL", "C.UTF-8").env_remove("LC_MESSAGES").env_remove("LANG");
    cmd
}

fn aiui_cli(args: &[&str], password: Option<&str>) -> Output {
    let mut cmd = english(Command::new(env!("CARGO_BIN_EXE_aiui-cli")));
    cmd.args(args).stdin(Stdio::null()).env_remove("AIUI_NODE_PASSWORD").env_remove("AIUI_NODE_TOTP");
    if let Some(pw) = password {
        cmd.env("AIUI_NODE_PASSWORD", pw);
    }
    cmd.output().expect("aiui-cli runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

async fn devnode(tls: bool) -> (archy_devnode::RunningDevNode, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let mut config = DevNodeConfig::new(PASSWORD, dir.path());
    config.tls = tls;
    let node = archy_devnode::spawn(config, SocketAddr::from(([127, 0, 0, 1], 0))).await.unwrap();
    (node, dir)
}

#[tokio::test(flavor = "multi_thread")]
async fn doctor_checks_a_pinned_node_and_summarises_it() {
    let (node, _dir) = devnode(true).await;
    let fp = node.fingerprint().unwrap();
    let url = node.url();
    let out = tokio::task::spawn_blocking(move || {
        aiui_cli(&["doctor", "--node", &url, "--fingerprint", &fp], Some(PASSWORD))
    })
    .await
    .unwrap();
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "stdout:\n{stdout}\nstderr:\n{}", text(&out.stderr));
    for expected in ["Login     ok", "Packages", "running", "electrs was killed", "Bitcoin", "(pinned)"] {
        assert!(stdout.contains(expected), "{expected:?} missing from:\n{stdout}");
    }
    assert!(!stdout.contains(PASSWORD) && !text(&out.stderr).contains(PASSWORD));
}

#[tokio::test(flavor = "multi_thread")]
async fn doctor_explains_each_failure_and_exits_non_zero() {
    let (node, _dir) = devnode(true).await;
    let fp = node.fingerprint().unwrap();
    let url = node.url();
    let (wrong_pw, no_pin, no_pw, dead) = tokio::task::spawn_blocking(move || {
        (
            aiui_cli(&["doctor", "--node", &url, "--fingerprint", &fp], Some("nope")),
            aiui_cli(&["doctor", "--node", &url], Some(PASSWORD)),
            aiui_cli(&["doctor", "--node", &url, "--fingerprint", &fp], None),
            aiui_cli(&["doctor", "--node", "http://127.0.0.1:9/"], Some(PASSWORD)),
        )
    })
    .await
    .unwrap();
    let cases = [
        (wrong_pw, "refused the login: wrong password"),
        (no_pin, "run again with --fingerprint"),
        (no_pw, "set AIUI_NODE_PASSWORD"),
        (dead, "could not be reached"),
    ];
    for (out, expected) in cases {
        let all = text(&out.stdout) + &text(&out.stderr);
        assert!(!out.status.success(), "should fail: {all}");
        assert!(all.contains(expected), "{expected:?} missing from:\n{all}");
    }
    assert!(!node.calls().is_empty());
}

/// `doctor --contract` reports per method against a normal, a minimal and a broken node, and changes nothing.
#[tokio::test(flavor = "multi_thread")]
async fn doctor_contract_reports_each_read_method_per_shape_mode() {
    let (node, _dir) = devnode(false).await;
    let url = node.url();
    let contract = |url: String| {
        tokio::task::spawn_blocking(move || aiui_cli(&["doctor", "--node", &url, "--contract"], Some(PASSWORD)))
    };
    let out = contract(url.clone()).await.unwrap();
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "stdout:\n{stdout}\nstderr:\n{}", text(&out.stderr));
    for method in
        ["package.list", "container-status", "container-logs", "bitcoin.getinfo", "lnd.getinfo", "system.stats"]
    {
        assert!(stdout.contains(&format!("\n{method} [")), "{method} missing from:\n{stdout}");
    }
    assert!(stdout.contains("Summary   7 match, 0 readable with drift"), "{stdout}");

    node.set_shapes(archy_devnode::Shapes::Minimal);
    let out = contract(url.clone()).await.unwrap();
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "stdout:\n{stdout}\nstderr:\n{}", text(&out.stderr));
    assert!(stdout.contains("Summary   4 match, 3 readable with drift, 0 not readable"), "{stdout}");
    assert!(stdout.contains("shape     matches, without its optional fields"), "{stdout}");
    assert!(stdout.contains("missing   title (in 9 of 9), version (in 9 of 9)"), "{stdout}");
    assert!(stdout.contains("missing   unit (in 2 of 2)"), "{stdout}");

    node.set_shapes(archy_devnode::Shapes::Broken);
    let out = contract(url).await.unwrap();
    let all = text(&out.stdout) + &text(&out.stderr);
    assert!(!out.status.success(), "{all}");
    assert!(all.contains("shape     NOT READABLE: `packages` should be a list, got text"), "{all}");
    assert!(!all.contains(PASSWORD));
    let calls = node.calls();
    assert!(calls.iter().all(|m| m.starts_with("auth.") || !m.contains("start") && !m.contains("stop")), "{calls:?}");
}

#[test]
fn demo_once_runs_the_checks_against_its_own_node() {
    let out = aiui_cli(&["demo", "--once"], None);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "stdout:\n{stdout}\nstderr:\n{}", text(&out.stderr));
    assert!(stdout.contains("Demo node (simulated)") && stdout.contains("All checks passed."), "{stdout}");
}

fn aiui_cli_stdin(args: &[&str], stdin: &str) -> Output {
    use std::io::Write;
    let mut child = english(Command::new(env!("CARGO_BIN_EXE_aiui-cli")))
        .args(args)
        .env_remove("AIUI_NODE_PASSWORD")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("aiui-cli runs");
    child.stdin.take().unwrap().write_all(stdin.as_bytes()).unwrap();
    child.wait_with_output().unwrap()
}

#[test]
fn screen_shows_what_leaves_and_refuses_an_owner_secret() {
    let xprv = "xprv9s21ZrQH143K3QTDL4LXw2F7HEK3wJUD2nW2nRk4stbPy6cq3jPPqjiChkVvvNKmPGJxWUtg6LnF5kejMRNNU3TGtRBeJgk33yuGBxrMPHi";
    let blocked = aiui_cli_stdin(&["screen"], &format!("my key is {xprv}"));
    assert!(!blocked.status.success());
    assert!(blocked.stdout.is_empty(), "nothing is printed as sendable");
    assert!(text(&blocked.stderr).contains("BLOCKED (xprv)"), "{}", text(&blocked.stderr));

    let redacted = aiui_cli_stdin(&["screen", "--as-tool-result"], &format!("electrs at 192.168.1.20 key {xprv}"));
    assert!(redacted.status.success());
    assert_eq!(text(&redacted.stdout), "electrs at [lan-ip-1] key [redacted:xprv]");
    assert!(text(&redacted.stderr).contains("1 redacted (xprv 1), 1 placeholders"), "{}", text(&redacted.stderr));

    let body = r#"{"model":"m","system":"s","messages":[{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"rpcauth=alice:0123456789abcdef0123456789abcdef$0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"}]}]}"#;
    let out = aiui_cli_stdin(&["screen"], body);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let screened: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(screened["messages"][0]["content"][0]["content"], "rpcauth=[redacted:rpcauth]");
}

/// A minimal Ollama that offers one tool-capable model and replays `replies` on `/api/chat`, in order.
async fn replay_ollama(replies: Vec<serde_json::Value>) -> String {
    use axum::routing::{get, post};
    let fixture = |name: &str| -> serde_json::Value {
        let path = format!("{}/../../../fixtures/ollama/{name}", env!("CARGO_MANIFEST_DIR"));
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap()
    };
    let (tags, show) = (fixture("tags.json"), fixture("show_tools.json"));
    let replies = std::sync::Arc::new(std::sync::Mutex::new(std::collections::VecDeque::from(replies)));
    let app = axum::Router::new()
        .route("/api/tags", get(move || async move { axum::Json(tags) }))
        .route("/api/show", post(move || async move { axum::Json(show) }))
        .route(
            "/api/chat",
            post(move || async move { axum::Json(replies.lock().unwrap().pop_front().unwrap_or_default()) }),
        );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await });
    url
}

#[tokio::test(flavor = "multi_thread")]
async fn chat_asks_on_the_terminal_and_only_a_yes_runs_the_action() {
    let read = |name: &str| -> serde_json::Value {
        let path = format!("{}/../../../fixtures/ollama/{name}", env!("CARGO_MANIFEST_DIR"));
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap()
    };
    let replies = vec![
        read("chat_call_package_list.json"),
        read("chat_answer_packages.json"),
        // A declined action ends the turn without asking the model again.
        read("chat_call_restart_lnd.json"),
        read("chat_call_restart_lnd.json"),
        read("chat_answer_restarted.json"),
    ];
    let ollama = replay_ollama(replies).await;
    let data = tempfile::tempdir().unwrap();
    let data_dir = data.path().to_str().unwrap().to_owned();
    // Empty answer = the default, No; then an explicit yes.
    let input = "what is running?\nrestart lnd\n\nrestart lnd\ny\n";
    let out = tokio::task::spawn_blocking(move || {
        let args =
            ["chat", "--demo", "--ollama", &ollama, "--claude-url", "http://127.0.0.1:9/", "--data-dir", &data_dir];
        aiui_cli_stdin(&args, input)
    })
    .await
    .unwrap();
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "stdout:\n{stdout}\nstderr:\n{}", text(&out.stderr));
    assert!(stdout.contains("[local qwen2.5:7b]"), "the backend is named per answer:\n{stdout}");
    assert!(
        stdout.lines().any(|l| l.starts_with("bitcoin-knots") && l.contains(" running ")),
        "a package table:\n{stdout}"
    );
    assert!(stdout.contains("⚠ Confirm: Restart app `lnd` (running; btcpay depends on it)"), "{stdout}");
    assert!(stdout.contains("  id       \"lnd\""), "the arguments are shown:\n{stdout}");
    assert!(stdout.contains("■ You declined"), "the empty answer was a No:\n{stdout}");
    assert!(stdout.contains("✓ package.restart lnd: accepted"), "the yes ran it:\n{stdout}");
    let audit = std::fs::read_to_string(data.path().join("audit.jsonl")).unwrap();
    assert_eq!(audit.matches("\"verdict\":\"denied\"").count(), 1, "{audit}");
    assert_eq!(audit.matches("\"verdict\":\"allowed\"").count(), 1, "{audit}");
}

#[path = "../../../../tests/support/python_relay.rs"]
mod python_relay;
// Shared with the integration tests; this file uses only some of the scripts.
#[allow(dead_code)]
#[path = "../../../../tests/support/stub_relay.rs"]
mod stub_relay;

fn providers(args: &[&str]) -> (String, std::time::Duration) {
    let started = std::time::Instant::now();
    let mut all = vec!["providers"];
    all.extend_from_slice(args);
    let out = aiui_cli(&all, None);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "stdout:\n{stdout}\nstderr:\n{}", text(&out.stderr));
    assert!(text(&out.stderr).is_empty(), "nothing on stderr at the default log level: {}", text(&out.stderr));
    (stdout, started.elapsed())
}

/// `aiui-cli providers` says what each relay did and what became of each event, instead of one "No provider
/// found." for every failure.
#[tokio::test(flavor = "multi_thread")]
async fn providers_says_what_each_relay_and_each_event_came_to() {
    use nostr_sdk::prelude::{Client, EventBuilder, Keys, Kind, Tag, Timestamp};
    use stub_relay::{Script, StubRelay};

    let silent = StubRelay::start(Script::Silent).await;
    let auth = StubRelay::start(Script::Close("auth-required: this relay serves its members only".into())).await;
    let python = tokio::task::spawn_blocking(python_relay::PythonRelay::start).await.unwrap();
    let keys = Keys::generate();
    let t = Timestamp::now().as_secs();
    let announce = |d: &str, u: &str, at: u64| {
        let content = serde_json::json!(serde_json::json!({"name": d}).to_string()).to_string();
        EventBuilder::new(Kind::Custom(38421), content)
            .tags([Tag::identifier(d), Tag::parse(["u", u]).unwrap()])
            .custom_created_at(Timestamp::from(at))
            .sign_with_keys(&keys)
            .unwrap()
    };
    let client = Client::builder().build();
    client.add_relay(python.url.as_str()).await.unwrap();
    client.connect().await;
    for event in [
        announce("loopback", "http://127.0.0.1:9/", t - 10),
        announce("loopback", "http://127.0.0.1:10/", t - 100),
        announce("tomorrow", "https://example.com/", t + 20 * 60),
    ] {
        assert!(client.send_event(&event).await.unwrap().failed.is_empty(), "{}", python.log());
    }
    client.disconnect().await;

    let refused = stub_relay::refused_url();
    let (out, took) = tokio::task::spawn_blocking(move || providers(&["--relay", &refused])).await.unwrap();
    assert!(out.contains("could not connect: the connection was refused"), "{out}");
    assert!(took < std::time::Duration::from_secs(3), "a refused relay costs no subscription timeout: {took:?}");

    let url = silent.url.clone();
    let (out, _) = tokio::task::spawn_blocking(move || providers(&["--relay", &url])).await.unwrap();
    assert!(out.contains("sent no end-of-events within 6 s (timed out)"), "{out}");

    let url = auth.url.clone();
    let (out, _) = tokio::task::spawn_blocking(move || providers(&["--relay", &url])).await.unwrap();
    assert!(out.contains("closed the subscription: \"auth-required: this relay serves its members only\""), "{out}");

    let url = python.url.clone();
    let (out, _) = tokio::task::spawn_blocking(move || providers(&["--relay", &url])).await.unwrap();
    assert!(
        out.contains("3 events found: 0 used, 3 refused (1 dated in the future, 1 unreviewed, 1 replaced"),
        "{out}"
    );
    assert!(out.contains("Only reviewed providers are allowed, and no reviewer key is set"), "{out}");
    assert!(out.contains("aiui-cli: --reviewer"), "{out}");

    let url = python.url.clone();
    let (out, _) = tokio::task::spawn_blocking(move || providers(&["--relay", &url, "--any-provider", "--verbose"]))
        .await
        .unwrap();
    assert!(out.contains("\"loopback\" refused: no usable endpoint: http://127.0.0.1:9/"), "{out}");
    assert!(out.contains("loopback"), "{out}");
    assert!(out.contains("refused: replaced by the newer announcement"), "--verbose lists replaced events: {out}");

    let bad = aiui_cli(&["providers", "--reviewer", "npub1notakey"], None);
    assert!(!bad.status.success());
    assert!(text(&bad.stderr).contains("is not an npub or a hex public key"), "{}", text(&bad.stderr));
    let help = text(&aiui_cli(&["chat", "--help"], None).stdout);
    assert!(help.contains("--reviewer <NPUB>"), "`chat` takes the reviewer too:\n{help}");
}

/// The models dir the built-in model was fetched into (`bash scripts/setup`): `$AIUI_MODEL_DIR`, else the
/// default data dir's `models/`. A missing model fails the test with what to run.
fn model_dir() -> String {
    let dir = std::env::var_os("AIUI_MODEL_DIR").map(std::path::PathBuf::from).unwrap_or_else(|| {
        aiui_core::paths::default_data_dir().expect("a data dir (set HOME or AIUI_MODEL_DIR)").join("models")
    });
    let file = dir.join(aiui_llama::MODEL_FILE);
    assert!(
        file.is_file(),
        "the built-in model is required and missing at {}: run `bash scripts/setup`",
        file.display()
    );
    dir.to_str().unwrap().to_owned()
}

/// `aiui-cli chat --demo` with no Ollama and no Claude key, fed `input`; returns its stdout.
fn builtin_chat(input: &str) -> String {
    chat_demo_without_cloud(input, &[("AIUI_MODEL_DIR", &model_dir())])
}

/// `aiui-cli chat --demo` with a fresh `--data-dir`, no Ollama, no Claude key and no `$AIUI_MODEL_DIR` unless `env`
/// sets it; fed `input`, returns its stdout.
fn chat_demo_without_cloud(input: &str, env: &[(&str, &str)]) -> String {
    let data = tempfile::tempdir().unwrap();
    let data_dir = data.path().to_str().unwrap().to_owned();
    let mut child = english(Command::new(env!("CARGO_BIN_EXE_aiui-cli")))
        .args(["chat", "--demo", "--ollama", "http://127.0.0.1:9/", "--claude-url", "http://127.0.0.1:9/"])
        .args(["--data-dir", &data_dir])
        .env_remove("AIUI_MODEL_DIR")
        .env_remove("AIUI_DATA_DIR")
        .envs(env.iter().copied())
        .env_remove("AIUI_NODE_PASSWORD")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("aiui-cli runs");
    {
        use std::io::Write;
        child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    }
    let out = child.wait_with_output().unwrap();
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "stdout:\n{stdout}\nstderr:\n{}", text(&out.stderr));
    stdout
}

#[test]
fn chat_demo_with_no_ollama_and_no_key_answers_with_the_built_in_model() {
    let stdout = builtin_chat("what is running?\n");
    assert!(
        stdout.lines().any(|l| l.starts_with("bitcoin-knots") && l.contains(" running ")),
        "the package card:\n{stdout}"
    );
    assert!(stdout.contains("[built-in (SmolLM2-135M)] Listing your apps."), "{stdout}");
    let answer = stdout
        .lines()
        .find(|l| l.starts_with("[built-in (SmolLM2-135M)]") && l.contains("installed apps are running"))
        .unwrap_or_else(|| panic!("a short built-in answer:\n{stdout}"));
    assert!(answer.len() < 300 && answer.contains("LND"), "{answer}");
    assert!(stdout.contains("built-in small model (SmolLM2-135M), meant for trying AIUI"), "said once:\n{stdout}");
}

#[test]
fn chat_with_its_own_data_dir_finds_the_model_setup_put_in_the_default_data_dir() {
    // As `bash scripts/setup` leaves a machine: the model under the default data dir only, and `--data-dir X`.
    let home = tempfile::tempdir().unwrap();
    let models = home.path().join("aiui/models");
    std::fs::create_dir_all(&models).unwrap();
    std::os::unix::fs::symlink(
        std::path::Path::new(&model_dir()).join(aiui_llama::MODEL_FILE),
        models.join(aiui_llama::MODEL_FILE),
    )
    .unwrap();
    let stdout = chat_demo_without_cloud("what is running?\n", &[("XDG_DATA_HOME", home.path().to_str().unwrap())]);
    assert!(stdout.contains("[built-in (SmolLM2-135M)] Listing your apps."), "{stdout}");
    assert!(!stdout.contains("No assistant backend"), "{stdout}");
}

#[test]
fn chat_with_no_model_anywhere_says_once_what_is_missing_in_a_terminal_s_terms() {
    let home = tempfile::tempdir().unwrap();
    let stdout =
        chat_demo_without_cloud("what is running?\nrestart lnd\n", &[("XDG_DATA_HOME", home.path().to_str().unwrap())]);
    assert_eq!(stdout.matches("No assistant backend is available right now.").count(), 1, "said once:\n{stdout}");
    assert_eq!(stdout.matches("Still no assistant backend is available").count(), 1, "then one line:\n{stdout}");
    for looked in [home.path().join("aiui/models").display().to_string(), "/usr/share/aiui/models".into()] {
        assert!(stdout.contains(&looked), "names where it looked ({looked}):\n{stdout}");
    }
    assert!(stdout.contains("install the package aiui-model-smollm2"), "{stdout}");
    assert!(stdout.contains("secret-tool store --label=AIUI service aiui username anthropic-api-key"), "{stdout}");
    assert!(!stdout.contains("trusted settings window"), "a terminal has no such window:\n{stdout}");
}

#[test]
fn chat_offers_numbered_choices_when_the_built_in_model_asks_and_a_number_picks_one() {
    // "wordpress" is no app of the demo node: the leg asks which app, with one-tap choices; "2" picks the second.
    let stdout = builtin_chat("restart wordpress\n2\nn\n");
    assert!(stdout.contains("Which app do you mean?"), "{stdout}");
    assert!(stdout.contains("  2) restart LND"), "numbered choices:\n{stdout}");
    assert!(stdout.contains("you> restart LND"), "the number was sent as the choice:\n{stdout}");
    assert!(stdout.contains("Restarting LND: waiting for your approval."), "{stdout}");
}

/// Runs `aiui-cli serve <args>` (a subcommand of it) with `stdin` fed in; returns its output.
fn serve_command(args: &[&str], stdin: &str) -> Output {
    let mut child = english(Command::new(env!("CARGO_BIN_EXE_aiui-cli")))
        .arg("serve")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("aiui-cli runs");
    {
        use std::io::Write;
        child.stdin.take().unwrap().write_all(stdin.as_bytes()).unwrap();
    }
    child.wait_with_output().unwrap()
}

#[tokio::test(flavor = "multi_thread")]
async fn serve_sessions_lists_and_revokes_the_running_services_sessions_from_another_process() {
    let data = tempfile::tempdir().unwrap();
    let dir = data.path().to_str().unwrap().to_owned();
    for (action, secret) in
        [("set-password", "lan-passphrase-0123\n"), ("set-approval-password", "approval-pass-4567\n")]
    {
        let out = serve_command(&[action, "--data-dir", &dir], secret);
        assert!(out.status.success(), "{}", text(&out.stderr));
    }
    let mut service = english(Command::new(env!("CARGO_BIN_EXE_aiui-cli")))
        .args(["serve", "--demo", "--no-builtin", "--data-dir", &dir, "--listen", "127.0.0.1:0"])
        .args([
            "--trusted-listen",
            "127.0.0.1:0",
            "--ollama",
            "http://127.0.0.1:9/",
            "--claude-url",
            "http://127.0.0.1:9/",
        ])
        .env_remove("AIUI_NODE_PASSWORD")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // A failing assertion must not leave the service running.
    struct KillOnDrop(std::process::Child);
    impl Drop for KillOnDrop {
        fn drop(&mut self) {
            let _ = self.0.kill();
            let _ = self.0.wait();
        }
    }
    let stdout = service.stdout.take().unwrap();
    let _service = KillOnDrop(service);
    // Its output is read to the end on a thread of its own, so the service never writes into a closed pipe.
    let (url_tx, url_rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        use std::io::BufRead;
        for line in std::io::BufReader::new(stdout).lines().map_while(Result::ok) {
            if let Some(url) = line.strip_prefix("chat origin: ") {
                let _ = url_tx.send(url.trim_end_matches('/').to_owned());
            }
        }
    });
    let chat = url_rx.recv_timeout(std::time::Duration::from_secs(60)).expect("serve prints its chat origin");
    let http = aiui_core::net::client(&aiui_core::net::ClientSpec::default()).unwrap().http;
    let signed_in = http
        .post(format!("{chat}/api/login"))
        .header("origin", &chat)
        .json(&serde_json::json!({ "passphrase": "lan-passphrase-0123" }))
        .send()
        .await
        .unwrap();
    assert_eq!(signed_in.status(), 200);
    let cookie = signed_in.headers()["set-cookie"].to_str().unwrap().split(';').next().unwrap().to_owned();
    let csrf = signed_in.json::<serde_json::Value>().await.unwrap()["csrf"].as_str().unwrap().to_owned();
    let list = |()| serve_command(&["sessions", "--data-dir", &dir], "");
    let mut listed = String::new();
    for _ in 0..30 {
        listed = text(&list(()).stdout);
        if listed.contains(" chat ") {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    let line = listed.lines().find(|l| l.contains(" chat ")).unwrap_or_else(|| panic!("the session listed:\n{listed}"));
    assert!(line.contains("from 127.0.0.1") && line.contains("signed in "), "{line}");
    assert!(!listed.contains(cookie.split_once('=').unwrap().1) && !listed.contains(&csrf), "no token is printed");
    let id = line.split_whitespace().next().unwrap().to_owned();

    let unknown = serve_command(&["sessions", "revoke", "000000000000", "--data-dir", &dir], "");
    assert!(
        !unknown.status.success() && text(&unknown.stderr).contains("no session with the id"),
        "{}",
        text(&unknown.stderr)
    );
    let invoke = async || {
        http.post(format!("{chat}/api/invoke/conversations_list"))
            .header("origin", &chat)
            .header("cookie", &cookie)
            .header("x-csrf-token", &csrf)
            .send()
            .await
            .unwrap()
            .status()
            .as_u16()
    };
    assert_eq!(invoke().await, 200, "an unknown id ended nothing");
    let revoked = serve_command(&["sessions", "revoke", &id, "--data-dir", &dir], "");
    assert!(revoked.status.success(), "{}", text(&revoked.stderr));
    assert!(text(&revoked.stdout).contains("1 session(s) ended"), "{}", text(&revoked.stdout));
    assert_eq!(invoke().await, 401, "the revoked browser must sign in again");
}

/// An Ollama whose `/api/chat` streams 60 pieces ("piece0 ", "piece1 ", …) 100 ms apart, then ends.
async fn slow_streaming_ollama() -> String {
    use axum::routing::{get, post};
    use futures_util::StreamExt;
    let fixture = |name: &str| -> serde_json::Value {
        let path = format!("{}/../../../fixtures/ollama/{name}", env!("CARGO_MANIFEST_DIR"));
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap()
    };
    let (tags, show) = (fixture("tags.json"), fixture("show_tools.json"));
    let app = axum::Router::new()
        .route("/api/tags", get(move || async move { axum::Json(tags) }))
        .route("/api/show", post(move || async move { axum::Json(show) }))
        .route(
            "/api/chat",
            post(|| async {
                let pieces = futures_util::stream::iter(0..=60).then(|n| async move {
                    tokio::time::sleep(std::time::Duration::from_millis(100)).await;
                    let line = if n == 60 {
                        serde_json::json!({"model": "qwen2.5:7b", "message": {"role": "assistant", "content": ""}, "done": true})
                    } else {
                        serde_json::json!({"model": "qwen2.5:7b", "message": {"role": "assistant", "content": format!("piece{n} ")}, "done": false})
                    };
                    Ok::<_, std::io::Error>(axum::body::Bytes::from(format!("{line}\n")))
                });
                ([("content-type", "application/x-ndjson")], axum::body::Body::from_stream(pieces))
            }),
        );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await });
    url
}

#[tokio::test(flavor = "multi_thread")]
async fn chat_prints_the_answer_as_it_is_written_and_ctrl_c_stops_the_turn_not_the_chat() {
    use std::io::{BufRead, Write};
    let ollama = slow_streaming_ollama().await;
    let data = tempfile::tempdir().unwrap();
    let mut child = english(Command::new(env!("CARGO_BIN_EXE_aiui-cli")))
        .args(["chat", "--demo", "--no-builtin", "--ollama", &ollama, "--claude-url", "http://127.0.0.1:9/"])
        .args(["--data-dir", data.path().to_str().unwrap()])
        .env_remove("AIUI_NODE_PASSWORD")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    writeln!(stdin, "tell me a long story").unwrap();
    // The answer arrives piece by piece on one line; read bytes, not lines.
    let (tx, rx) = std::sync::mpsc::channel::<String>();
    let stdout = child.stdout.take().unwrap();
    std::thread::spawn(move || {
        let mut reader = std::io::BufReader::new(stdout);
        loop {
            let buffer = reader.fill_buf().map(<[u8]>::to_vec).unwrap_or_default();
            if buffer.is_empty() {
                return;
            }
            reader.consume(buffer.len());
            if tx.send(String::from_utf8_lossy(&buffer).into_owned()).is_err() {
                return;
            }
        }
    });
    let mut seen = String::new();
    let wait_for = |seen: &mut String, what: &str| {
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
        while !seen.contains(what) {
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            match rx.recv_timeout(left) {
                Ok(piece) => seen.push_str(&piece),
                Err(_) => panic!("{what:?} never came; the output so far:\n{seen}"),
            }
        }
    };
    wait_for(&mut seen, "piece2 ");
    assert!(!seen.contains("piece30"), "the answer is printed as it comes, not at the end:\n{seen}");
    let interrupted = Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap();
    assert!(interrupted.success());
    wait_for(&mut seen, "You stopped the answer");
    assert!(!seen.contains("piece59"), "the rest was not printed:\n{seen}");
    // The chat goes on: it still takes commands, and ends on /quit.
    assert!(seen.contains("[Stopped by you here.]"), "the answer is marked where it stopped:\n{seen}");
    writeln!(stdin, "/list").unwrap();
    wait_for(&mut seen, "(2 messages)");
    writeln!(stdin, "/quit").unwrap();
    let status = child.wait().unwrap();
    assert!(status.success(), "{status:?}\n{seen}");
}

#[test]
fn version_names_the_release_and_the_commit_it_was_built_from() {
    let out = aiui_cli(&["--version"], None);
    assert!(out.status.success());
    let line = text(&out.stdout);
    let expected = format!("aiui-cli {} (commit ", env!("CARGO_PKG_VERSION"));
    assert!(line.starts_with(&expected), "{line}");
    let commit = line.trim_end().trim_start_matches(&expected).trim_end_matches(')');
    let head = Command::new("git").args(["rev-parse", "--short=12", "HEAD"]).output().unwrap();
    let head = text(&head.stdout);
    assert_eq!(commit, head.trim(), "the commit this tree is at");
}
