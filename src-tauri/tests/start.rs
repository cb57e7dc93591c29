//! What the `aiui` binary says before any window exists: its version and commit, and the refusal of a data dir that
//! a newer AIUI wrote (left unchanged). Neither needs a display.

use std::process::{Command, Output};

fn aiui(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_aiui"))
        .args(args)
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .env_remove("TAURI_WEBVIEW_AUTOMATION")
        .output()
        .expect("running aiui")
}

#[test]
fn version_names_the_release_and_the_commit() {
    let out = aiui(&["--version"]);
    assert!(out.status.success());
    let line = String::from_utf8_lossy(&out.stdout).into_owned();
    let expected = format!("aiui {} (commit ", env!("CARGO_PKG_VERSION"));
    assert!(line.starts_with(&expected), "{line}");
    let head = Command::new("git").args(["rev-parse", "--short=12", "HEAD"]).output().unwrap();
    assert_eq!(
        line.trim_end().trim_start_matches(&expected).trim_end_matches(')'),
        String::from_utf8_lossy(&head.stdout).trim()
    );
}

#[test]
fn a_data_dir_a_newer_aiui_wrote_is_refused_before_any_window_and_left_unchanged() {
    let data = tempfile::tempdir().unwrap();
    let marker = aiui_core::datadir::marker_path(data.path());
    let written = format!(r#"{{"format": {}, "written_by": "9.9.9"}}"#, aiui_core::datadir::FORMAT + 1);
    std::fs::write(&marker, &written).unwrap();
    std::fs::write(data.path().join("aiui.json"), "{}").unwrap();
    let out = aiui(&["--data-dir", data.path().to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{stderr}");
    assert!(stderr.contains("9.9.9") && stderr.contains(env!("CARGO_PKG_VERSION")), "names both versions: {stderr}");
    let mut names: Vec<_> = std::fs::read_dir(data.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
    names.sort();
    assert_eq!(names, ["aiui-data.json", "aiui.json"], "nothing was added");
    assert_eq!(std::fs::read_to_string(&marker).unwrap(), written);
    assert_eq!(std::fs::read_to_string(data.path().join("aiui.json")).unwrap(), "{}");
}
