//! The paint probes of `scripts/bench desktop`: with `AIUI_BENCH_FIRST_PAINT` set, the window they are given says
//! on stderr when its page has painted its first frame after loading (the chat window), or, in the trusted window,
//! when the frame showing a confirmation has been painted after the window was put in front. Off (nothing
//! installed, nothing evaluated) when unset.
//!
//! The signal goes through the window title, from a script Rust evaluates: no command, event or page code is
//! added, so a page has nothing new to call, and the minimal app of the bench measures the same way.

use std::sync::Mutex;
use std::time::Instant;

use tauri::webview::PageLoadEvent;
use tauri::{Manager, Runtime, WebviewWindow, WebviewWindowBuilder};

/// The variable that turns the probes on; its value is the title that means "painted".
pub const ENV: &str = "AIUI_BENCH_FIRST_PAINT";

/// The line the bench waits for on stderr.
pub const PAINTED: &str = "aiui-bench: first paint";

/// The trusted window's line: this, then the milliseconds since the confirmation was awaited.
pub const CONFIRMATION_PAINTED: &str = "aiui-bench: confirmation painted";

/// The confirmation being watched: its title token, and since when it is awaited.
struct Watched {
    token: String,
    since: Instant,
}

static WATCHED: Mutex<Option<Watched>> = Mutex::new(None);
/// When the last `AwaitingConfirmation` was seen (`confirmation_awaited`), taken by the next watched paint.
static AWAITED_AT: Mutex<Option<Instant>> = Mutex::new(None);

fn token() -> Option<String> {
    std::env::var(ENV).ok().filter(|token| !token.is_empty())
}

fn set_title_after_two_frames(token: &str) -> String {
    format!(
        "requestAnimationFrame(() => requestAnimationFrame(() => {{ document.title = {}; }}));",
        serde_json::Value::String(token.to_owned())
    )
}

/// Installs the probe on `builder` when [`ENV`] is set: after the page loads, two animation frames (the second
/// runs once the first has been painted), then the title changes to the token, and Rust prints [`PAINTED`].
pub fn probe<'a, R: Runtime, M: Manager<R>>(builder: WebviewWindowBuilder<'a, R, M>) -> WebviewWindowBuilder<'a, R, M> {
    let Some(token) = token() else { return builder };
    let script = set_title_after_two_frames(&token);
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

/// Notes that a confirmation is awaited now (the moment the turn emits `AwaitingConfirmation`); the next watched
/// paint is timed from here. Nothing when [`ENV`] is unset.
pub fn confirmation_awaited() {
    if token().is_some() {
        *AWAITED_AT.lock().unwrap_or_else(|p| p.into_inner()) = Some(Instant::now());
    }
}

/// The script that waits, in the trusted page, until the confirmation is drawn (`#confirm` not hidden) in a
/// visible document, then sets the title after two frames; with `deny`, it then presses Deny as the owner would
/// (the bench's decision, through the page's own `trusted_decide`).
fn confirmation_script(token: &str, deny: bool) -> String {
    let token = serde_json::Value::String(token.to_owned());
    let deny = if deny { "setTimeout(() => document.getElementById('deny')?.click(), 300);" } else { "" };
    format!(
        "(() => {{ let done = false; const fire = () => {{ const c = document.getElementById('confirm'); \
         if (done || document.visibilityState !== 'visible' || !c || c.hidden) return; done = true; \
         requestAnimationFrame(() => requestAnimationFrame(() => {{ document.title = {token}; {deny} }})); }}; \
         new MutationObserver(fire).observe(document.documentElement, {{ attributes: true, childList: true, subtree: true }}); \
         document.addEventListener('visibilitychange', fire); fire(); }})();"
    )
}

/// Whether the bench asked the probe to decide (Deny) each confirmation once it is painted.
fn deny_after_paint() -> bool {
    std::env::var_os("AIUI_BENCH_CONFIRM").is_some()
}

/// Installs the confirmation probe on the trusted window's `builder` when [`ENV`] is set: a confirmation being
/// watched ([`watch_confirmation`]) is looked for again whenever the page (re)loads, and its painted frame is
/// reported as [`CONFIRMATION_PAINTED`] with the milliseconds since it was awaited.
pub fn probe_confirmation<'a, R: Runtime, M: Manager<R>>(
    builder: WebviewWindowBuilder<'a, R, M>,
) -> WebviewWindowBuilder<'a, R, M> {
    if token().is_none() {
        return builder;
    }
    builder
        .on_page_load(move |window, payload| {
            let watched = WATCHED.lock().unwrap_or_else(|p| p.into_inner()).as_ref().map(|w| w.token.clone());
            if payload.event() == PageLoadEvent::Finished
                && let Some(token) = watched
                && let Err(e) = window.eval(confirmation_script(&token, deny_after_paint()))
            {
                eprintln!("aiui-bench: the confirmation probe could not run: {e}");
            }
        })
        .on_document_title_changed(move |_, title| {
            let mut watched = WATCHED.lock().unwrap_or_else(|p| p.into_inner());
            if watched.as_ref().is_some_and(|w| w.token == title)
                && let Some(w) = watched.take()
            {
                let since = AWAITED_AT.lock().unwrap_or_else(|p| p.into_inner()).take().unwrap_or(w.since);
                eprintln!("{CONFIRMATION_PAINTED} {:.1} ms", since.elapsed().as_secs_f64() * 1000.0);
            }
        })
}

/// Watches `window` (the trusted window, just put in front for a confirmation) for the frame that shows it.
/// Nothing when [`ENV`] is unset.
pub fn watch_confirmation<R: Runtime>(window: &WebviewWindow<R>) {
    let Some(base) = token() else { return };
    static COUNT: Mutex<u32> = Mutex::new(0);
    let token = {
        let mut count = COUNT.lock().unwrap_or_else(|p| p.into_inner());
        *count += 1;
        format!("{base}-confirmation-{count}")
    };
    *WATCHED.lock().unwrap_or_else(|p| p.into_inner()) = Some(Watched { token: token.clone(), since: Instant::now() });
    // A page still loading has no `#confirm` yet: the page-load hook evaluates the same script once it has.
    if let Err(e) = window.eval(confirmation_script(&token, deny_after_paint())) {
        eprintln!("aiui-bench: the confirmation probe could not run: {e}");
    }
}
