//! WebDriver and the remote inspector can script *both* windows, the trusted one included, in any build
//! (`TAURI_WEBVIEW_AUTOMATION=true` is honoured by wry even in release). So the shipped binary refuses to start
//! when any of them is set; only a build with the `webdriver-test` feature (the real-window test) allows it.
//! Also the bench's one hook, [`bench_confirmation`]: off unless `AIUI_BENCH_CONFIRM` and the paint probe are set.

use std::ffi::OsString;
use std::time::Duration;

use aiui_core::agent::Event;
use aiui_core::gate::Requester;
use tauri::{AppHandle, Manager, Runtime};

use crate::Shell;

/// With this set to a number of milliseconds (and `AIUI_BENCH_FIRST_PAINT` set), `aiui --demo` runs one real turn
/// that many milliseconds after start, as if the owner had typed [`BENCH_TURN`] in the chat: the agent proposes
/// the act and the gate opens a confirmation, which `first_paint` times to its painted frame and then denies.
pub const BENCH_CONFIRM_ENV: &str = "AIUI_BENCH_CONFIRM";

/// What the bench's turn says: the built-in model proposes `package_restart {id: lnd}` for it.
pub const BENCH_TURN: &str = "restart lnd";

/// The bench's line when the turn's `AwaitingConfirmation` arrives, and when the turn has ended.
pub const BENCH_AWAITING: &str = "aiui-bench: awaiting confirmation";
pub const BENCH_TURN_ENDED: &str = "aiui-bench: confirmation turn ended";

/// Starts the bench's turn when [`BENCH_CONFIRM_ENV`] and the paint probe are set on a demo; nothing otherwise.
pub fn bench_confirmation<R: Runtime>(app: &AppHandle<R>) {
    let Some(delay) = std::env::var(BENCH_CONFIRM_ENV).ok().and_then(|ms| ms.parse::<u64>().ok()) else { return };
    if std::env::var_os(crate::first_paint::ENV).is_none() || !app.state::<Shell>().mode.demo {
        eprintln!("aiui-bench: {BENCH_CONFIRM_ENV} needs --demo and {} set; no turn", crate::first_paint::ENV);
        return;
    }
    let app = app.clone();
    tauri::async_runtime::spawn(async move {
        tokio::time::sleep(Duration::from_millis(delay)).await;
        let shell = app.state::<Shell>();
        let (Some(agent), Some(slot)) = (shell.agent(), shell.begin_turn()) else {
            eprintln!("{BENCH_TURN_ENDED}: no agent, or a turn is running");
            return;
        };
        let conversation = match shell.store.create_conversation(BENCH_TURN) {
            Ok(id) => id,
            Err(e) => return eprintln!("{BENCH_TURN_ENDED}: the conversation could not be made: {e}"),
        };
        let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
        let turn = tauri::async_runtime::spawn(async move {
            agent.turn_stoppable(&conversation, BENCH_TURN, &tx, &Requester::ThisDesktop, &slot.stop).await
        });
        let mut stopped = String::from("done");
        while let Some(event) = rx.recv().await {
            match event {
                Event::AwaitingConfirmation { .. } => {
                    crate::first_paint::confirmation_awaited();
                    eprintln!("{BENCH_AWAITING}");
                }
                Event::Stopped { reason, .. } => stopped = format!("{reason:?}"),
                _ => {}
            }
        }
        let failed = match turn.await {
            Ok(Ok(_)) => String::new(),
            Ok(Err(e)) => format!(" (failed: {e})"),
            Err(e) => format!(" (failed: {e})"),
        };
        eprintln!("{BENCH_TURN_ENDED}: {stopped}{failed}");
    });
}

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
