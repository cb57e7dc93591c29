//! WebDriver and the remote inspector can script *both* windows, the trusted one included, in any build
//! (`TAURI_WEBVIEW_AUTOMATION=true` is honoured by wry even in release). So the shipped binary refuses to start
//! when any of them is set; only a build with the `webdriver-test` feature (the real-window test) allows it.

use std::ffi::OsString;

/// The variables that would let another process script the webviews.
pub const SCRIPTING_VARS: &[&str] =
    &["TAURI_WEBVIEW_AUTOMATION", "WEBKIT_INSPECTOR_SERVER", "WEBKIT_INSPECTOR_HTTP_SERVER"];

/// Whether this build may run under WebDriver.
pub const AUTOMATION_ALLOWED: bool = cfg!(feature = "webdriver-test");

/// `Err(message)` when a scripting variable is set and this build does not allow it. `env` reads a variable.
pub fn refuse_automation(env: impl Fn(&str) -> Option<OsString>) -> Result<(), String> {
    check(env, AUTOMATION_ALLOWED)
}

fn check(env: impl Fn(&str) -> Option<OsString>, allowed: bool) -> Result<(), String> {
    if allowed {
        return Ok(());
    }
    match SCRIPTING_VARS.iter().find(|name| env(name).is_some()) {
        Some(name) => Err(format!(
            "refusing to start: {name} is set. It would let another program script AIUI's windows, including the \
             trusted confirmation window. Unset it and start AIUI again."
        )),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[track_caller]
    fn expect(set: &[&str], allowed: bool, refused: bool) {
        let env = |name: &str| set.contains(&name).then(|| OsString::from("true"));
        assert_eq!(check(env, allowed).is_err(), refused, "set {set:?}, allowed {allowed}");
    }

    #[test]
    fn any_scripting_variable_is_refused_unless_the_test_feature_allows_it() {
        expect(&[], false, false);
        expect(&["TAURI_WEBVIEW_AUTOMATION"], false, true);
        expect(&["WEBKIT_INSPECTOR_SERVER"], false, true);
        expect(&["WEBKIT_INSPECTOR_HTTP_SERVER"], false, true);
        expect(&["PATH"], false, false);
        expect(&["TAURI_WEBVIEW_AUTOMATION"], true, false);
    }
}
