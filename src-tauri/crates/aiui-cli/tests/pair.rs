//! `aiui-cli serve pair` against a real devnode: it writes node.env and node-password (0600) only after the pinned
//! certificate and the password were accepted by the node, and the packaged unit reads exactly what it writes.

use std::io::Write;
use std::net::SocketAddr;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::{Command, Output, Stdio};

use archy_devnode::DevNodeConfig;

const PASSWORD: &str = "pair-test-password-4";

fn pair(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_aiui-cli"))
        .args(["serve", "pair"])
        .args(args)
        .env_remove("AIUI_NODE_PASSWORD")
        .env_remove("AIUI_NODE_TOTP")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("aiui-cli runs");
    child.stdin.take().unwrap().write_all(stdin.as_bytes()).unwrap();
    child.wait_with_output().unwrap()
}

fn all(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr)
}

async fn devnode() -> (archy_devnode::RunningDevNode, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let mut config = DevNodeConfig::new(PASSWORD, dir.path());
    config.tls = true;
    let node = archy_devnode::spawn(config, SocketAddr::from(([127, 0, 0, 1], 0))).await.unwrap();
    (node, dir)
}

fn mode(path: &Path) -> u32 {
    std::fs::metadata(path).unwrap_or_else(|e| panic!("{}: {e}", path.display())).permissions().mode() & 0o777
}

/// The `NAME=value` lines of an environment file.
fn env_lines(text: &str) -> Vec<(String, String)> {
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let (k, v) = l.split_once('=').unwrap_or_else(|| panic!("not NAME=value: {l}"));
            (k.to_owned(), v.to_owned())
        })
        .collect()
}

fn repo(path: &str) -> String {
    let full = format!("{}/../../../{path}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("{full}: {e}"))
}

#[tokio::test(flavor = "multi_thread")]
async fn pair_writes_both_files_only_after_the_node_accepted_pin_and_password() {
    let (node, _node_dir) = devnode().await;
    let url = node.url();
    let fp = node.fingerprint().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let etc = dir.path().join("etc");
    let data = dir.path().join("data");
    let (etc_s, data_s) = (etc.display().to_string(), data.display().to_string());
    let paths = ["--etc-dir", &etc_s, "--data-dir", &data_s];
    let run = |extra: Vec<String>, stdin: &'static str| {
        let args: Vec<String> = extra.into_iter().chain(paths.iter().map(|s| s.to_string())).collect();
        tokio::task::spawn_blocking(move || pair(&args.iter().map(String::as_str).collect::<Vec<_>>(), stdin))
    };
    let args = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let written = [etc.join("node.env"), etc.join("node-password")];
    let nothing_written = || written.iter().all(|p| !p.exists());

    // Unknown certificate and nobody at a terminal: the fingerprint is shown, nothing is sent or written.
    let logins_before = node.calls().iter().filter(|m| m.starts_with("auth.login")).count();
    let out = run(args(&["--node", &url]), "").await.unwrap();
    let said = all(&out);
    assert!(!out.status.success(), "{said}");
    assert!(said.contains(&fp) && said.contains("run again with --fingerprint"), "{said}");
    assert_eq!(node.calls().iter().filter(|m| m.starts_with("auth.login")).count(), logins_before, "no login");
    assert!(nothing_written());

    // Plain http is refused: the service pins the node's certificate.
    let plain = url.replacen("https://", "http://", 1);
    let out = run(args(&["--node", &plain]), "x\n").await.unwrap();
    assert!(!out.status.success() && all(&out).contains("not an https address"), "{}", all(&out));
    assert!(nothing_written());

    // Another certificate's fingerprint, and a wrong password: refused, nothing written.
    let other = "00:".repeat(31) + "00";
    let out = run(args(&["--node", &url, "--fingerprint", &other]), "pair-test-password-4\n").await.unwrap();
    assert!(!out.status.success(), "{}", all(&out));
    let out = run(args(&["--node", &url, "--fingerprint", &fp]), "not-the-password\n").await.unwrap();
    let said = all(&out);
    assert!(!out.status.success() && said.contains("nothing was written"), "{said}");
    assert!(nothing_written());

    // The right pin and password: both files, 0600, and the steps that remain.
    let out = run(args(&["--node", &url, "--fingerprint", &fp]), "pair-test-password-4\n").await.unwrap();
    let said = all(&out);
    assert!(out.status.success(), "{said}");
    assert!(!said.contains(PASSWORD), "the password is never printed: {said}");
    for file in &written {
        assert_eq!(mode(file), 0o600, "{}", file.display());
    }
    assert_eq!(std::fs::read_to_string(&written[1]).unwrap(), PASSWORD);
    let env = env_lines(&std::fs::read_to_string(&written[0]).unwrap());
    assert_eq!(env, [("AIUI_NODE_URL".to_owned(), url.clone()), ("AIUI_NODE_FINGERPRINT".to_owned(), fp.clone())]);
    for step in ["serve set-password --data-dir", "serve set-approval-password --data-dir", "systemctl start aiui"] {
        assert!(said.contains(step), "{step:?} missing from:\n{said}");
    }

    // With both passphrases set, only the start remains; a wrong password later leaves the pairing as it was.
    for (command, pass) in [("set-password", "lan-passphrase-1\n"), ("set-approval-password", "approval-pass-2\n")] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_aiui-cli"))
            .args(["serve", command, "--data-dir", &data_s])
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .spawn()
            .unwrap();
        child.stdin.take().unwrap().write_all(pass.as_bytes()).unwrap();
        assert!(child.wait().unwrap().success(), "serve {command}");
    }
    let out = run(args(&["--node", &url, "--fingerprint", &fp]), "pair-test-password-4\n").await.unwrap();
    let said = all(&out);
    assert!(out.status.success() && said.contains("Start the service: systemctl start aiui"), "{said}");
    assert!(!said.contains("set-password"), "{said}");
    let before: Vec<String> = written.iter().map(|p| std::fs::read_to_string(p).unwrap()).collect();
    let out = run(args(&["--node", &url, "--fingerprint", &fp]), "wrong-again\n").await.unwrap();
    assert!(!out.status.success());
    let after: Vec<String> = written.iter().map(|p| std::fs::read_to_string(p).unwrap()).collect();
    assert_eq!(before, after, "a failed pairing changes nothing");
}

/// The unit reads what `pair` writes: its env files, credential and start conditions name these files, and every
/// variable its command line uses comes from the env example (a conffile) or from node.env.
#[test]
fn the_packaged_unit_reads_exactly_what_pair_writes() {
    let unit = repo("deploy/aiui.service").replace("\\\n", " ");
    let settings: Vec<(&str, &str)> = unit
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#') && !l.starts_with('['))
        .filter_map(|l| l.split_once('='))
        .collect();
    let values = |key: &str| settings.iter().filter(|(k, _)| *k == key).map(|(_, v)| *v).collect::<Vec<_>>();
    assert_eq!(values("EnvironmentFile"), ["/etc/aiui/aiui.env", "/etc/aiui/node.env"]);
    assert_eq!(values("LoadCredential"), ["aiui-node-password:/etc/aiui/node-password"]);
    let conditions = values("ConditionPathExists");
    for needed in [
        "/etc/aiui/node.env",
        "/etc/aiui/node-password",
        "/var/lib/aiui/web-lan-passphrase.argon2",
        "|/var/lib/aiui/web-approval-passphrase.argon2",
        "|/var/lib/aiui/web-approval-totp.secret",
    ] {
        assert!(conditions.contains(&needed), "no ConditionPathExists={needed}: {conditions:?}");
    }
    let example: Vec<String> = env_lines(&repo("deploy/aiui.env.example")).into_iter().map(|(k, _)| k).collect();
    for word in unit.split_whitespace().filter(|w| w.starts_with("${")) {
        let name = word.trim_start_matches("${").trim_end_matches('}');
        assert!(
            example.iter().any(|k| k == name) || ["AIUI_NODE_URL", "AIUI_NODE_FINGERPRINT"].contains(&name),
            "{name}: neither in deploy/aiui.env.example nor written by `serve pair`"
        );
    }
    for written in ["AIUI_NODE_URL", "AIUI_NODE_FINGERPRINT"] {
        assert!(!example.iter().any(|k| k == written), "{written} is pair's (node.env), not the conffile's");
    }
}
