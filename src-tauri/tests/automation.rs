//! The shipped binary does not honour WebDriver automation: started with `TAURI_WEBVIEW_AUTOMATION=true` (or the
//! WebKit remote inspector variables) it refuses, before any window or node exists, with a clear message and a
//! non-zero exit. Only a build with the `webdriver-test` feature runs under automation.

#[cfg(not(feature = "webdriver-test"))]
#[test]
fn the_binary_refuses_to_start_under_webdriver_automation() {
    for (name, value) in [
        ("TAURI_WEBVIEW_AUTOMATION", "true"),
        ("WEBKIT_INSPECTOR_SERVER", "127.0.0.1:9222"),
        ("WEBKIT_INSPECTOR_HTTP_SERVER", "127.0.0.1:9223"),
    ] {
        let output = std::process::Command::new(env!("CARGO_BIN_EXE_aiui"))
            .arg("--demo")
            .env(name, value)
            // Even with a display at hand, the refusal comes first; none is needed.
            .env_remove("DISPLAY")
            .env_remove("WAYLAND_DISPLAY")
            .output()
            .expect("running aiui");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{name}: {stderr}");
        assert!(stderr.contains("refusing to start") && stderr.contains(name), "{name}: {stderr}");
    }
}

#[cfg(feature = "webdriver-test")]
#[test]
fn the_webdriver_test_build_allows_automation() {
    const { assert!(aiui::AUTOMATION_ALLOWED) };
}
