//! The start-up probe of `scripts/bench desktop`: with `AIUI_BENCH_FIRST_PAINT` set, the window it is given says
//! on stderr when its page has painted its first frame after loading. Off (nothing installed) when unset.
//!
//! The signal goes through the window title, from a script Rust evaluates after the load: no command, event or
//! page code is added, so a page has nothing new to call, and the minimal app of the bench measures the same way.

use tauri::webview::PageLoadEvent;
use tauri::{Manager, Runtime, WebviewWindowBuilder};

/// The variable that turns the probe on; its value is the title that means "painted".
pub const ENV: &str = "AIUI_BENCH_FIRST_PAINT";

/// The line the bench waits for on stderr.
pub const PAINTED: &str = "aiui-bench: first paint";

/// Installs the probe on `builder` when [`ENV`] is set: after the page loads, two animation frames (the second
/// runs once the first has been painted), then the title changes to the token, and Rust prints [`PAINTED`].
pub fn probe<'a, R: Runtime, M: Manager<R>>(builder: WebviewWindowBuilder<'a, R, M>) -> WebviewWindowBuilder<'a, R, M> {
    let Some(token) = std::env::var(ENV).ok().filter(|token| !token.is_empty()) else { return builder };
    let script = format!(
        "requestAnimationFrame(() => requestAnimationFrame(() => {{ document.title = {}; }}));",
        serde_json::Value::String(token.clone())
    );
    builder
        .on_page_load(move |window, payload| {
            if payload.event() == PageLoadEvent::Finished
                && let Err(e) = window.eval(&script)
            {
                eprintln!("aiui-bench: the first-paint probe could not run: {e}");
            }
        })
        .on_document_title_changed(move |_, title| {
            if title == token {
                eprintln!("{PAINTED}");
            }
        })
}
