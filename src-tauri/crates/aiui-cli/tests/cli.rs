//! `aiui-cli` as a user runs it: the built binary against a devnode on loopback.

use std::net::SocketAddr;
use std::process::{Command, Output, Stdio};

use archy_devnode::DevNodeConfig;

const PASSWORD: &str = "cli-test-password-9";

fn aiui_cli(args: &[&str], password: Option<&str>) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_aiui-cli"));
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

#[test]
fn demo_once_runs_the_checks_against_its_own_node() {
    let out = aiui_cli(&["demo", "--once"], None);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "stdout:\n{stdout}\nstderr:\n{}", text(&out.stderr));
    assert!(stdout.contains("Demo node (simulated)") && stdout.contains("All checks passed."), "{stdout}");
}
