//! The two windows: made from `tauri.conf.json` at start, each pinned to its own page; the trusted one hidden
//! until the gate opens a confirmation (or, on a kiosk, the LAN service lists a new one, or the owner opens
//! Settings), and brought to the front then.

use std::time::{Duration, Instant};

use tauri::{AppHandle, Emitter, Manager, Runtime, WebviewWindow, WebviewWindowBuilder, Window, WindowEvent};
use tokio::sync::broadcast::error::RecvError;

use crate::{MAIN, Shell, TRUSTED};

/// An approval sooner than this after the trusted window was put in front of the owner is refused (in Rust, and
/// the window keeps Approve disabled as long).
pub const APPROVE_DELAY: Duration = Duration::from_millis(900);

/// The content-free nudge the trusted window gets when a confirmation opens; it then asks Rust what is pending.
pub const PENDING_EVENT: &str = "aiui:pending";

/// Creates the chat window, with kiosk options when asked, and the trusted window, hidden. The trusted window is
/// made now, not when first needed: a window made for the first confirmation took seconds to start its web process,
/// load and paint (scripts/bench desktop), and the one window that must never lag is the confirmation. Hidden, its
/// page is loaded and waits; showing it paints at once. The chat window cannot reach it (capabilities/main.json).
pub fn create<R: Runtime>(app: &AppHandle<R>) -> tauri::Result<()> {
    build(app, MAIN)?;
    let shell = app.state::<Shell>();
    let mut made = shell.trusted_made.lock().unwrap_or_else(|p| p.into_inner());
    build(app, TRUSTED)?;
    *made = true;
    Ok(())
}

/// Builds the window `label` from the config, pinned to its page.
fn build<R: Runtime>(app: &AppHandle<R>, label: &str) -> tauri::Result<WebviewWindow<R>> {
    let page = match label {
        MAIN => "index.html",
        TRUSTED => "trusted.html",
        _ => return Err(tauri::Error::WindowNotFound),
    };
    let Some(config) = app.config().app.windows.iter().find(|w| w.label == label).cloned() else {
        return Err(tauri::Error::WindowNotFound);
    };
    let kiosk = app.state::<Shell>().mode.kiosk;
    let mut builder = WebviewWindowBuilder::from_config(app, &config)?
        // Each window stays on its own page: the chat window cannot become the trusted page, and neither can be
        // navigated away to a remote origin.
        .on_navigation(move |url| is_own_page(url, page));
    if kiosk {
        builder = builder.fullscreen(true).decorations(false).devtools(false);
    }
    builder = match label {
        MAIN => crate::first_paint::probe(builder),
        _ => crate::first_paint::probe_confirmation(builder),
    };
    let window = builder.build()?;
    // Both windows, made at start: the chat window's first paint is the app's start, the trusted window's is the
    // confirmation's. (Changed on a window made later, while the app ran, it lost the WebDriver session.)
    crate::rendering::apply(&window);
    if kiosk {
        cover_monitor(&window)?;
    }
    Ok(window)
}

/// The trusted window, made again if it is gone. A window under that label that this app did not make is
/// destroyed and this call fails (closed): whatever made it is not the owner's trusted surface. The label is free
/// once the window is gone, and the next call (the next confirmation, or Settings) makes the app's own.
pub fn trusted_window<R: Runtime>(app: &AppHandle<R>) -> tauri::Result<WebviewWindow<R>> {
    let shell = app.state::<Shell>();
    let mut made = shell.trusted_made.lock().unwrap_or_else(|p| p.into_inner());
    match app.get_webview_window(TRUSTED) {
        Some(window) if *made => Ok(window),
        Some(impostor) => {
            tracing::error!("a window labelled trusted that this app did not make was destroyed");
            impostor.destroy()?;
            Err(tauri::Error::WebviewLabelAlreadyExists(TRUSTED.into()))
        }
        None => {
            let window = build(app, TRUSTED)?;
            *made = true;
            Ok(window)
        }
    }
}

/// Full screen is a request to the window manager; a bare kiosk X server has none, so the window is also sized to
/// its monitor.
fn cover_monitor<R: Runtime>(window: &tauri::WebviewWindow<R>) -> tauri::Result<()> {
    if let Some(monitor) = window.current_monitor()? {
        window.set_position(*monitor.position())?;
        window.set_size(*monitor.size())?;
    }
    Ok(())
}

/// Whether `url` is this app's `page` (as served by Tauri's asset protocol on each platform).
pub fn is_own_page(url: &url::Url, page: &str) -> bool {
    let app_origin = matches!(
        (url.scheme(), url.host_str()),
        ("tauri", Some("localhost")) | ("http" | "https", Some("tauri.localhost"))
    );
    let path = url.path().trim_start_matches('/');
    app_origin && (path == page || (page == "index.html" && path.is_empty()))
}

/// Keeps the trusted window alive when the owner closes it: it is hidden, so the next confirmation can show it.
/// The Approve delay starts over every time the trusted window gains focus, and no approval counts while it has
/// none: a window raised again (or clicked into from behind another) is not approvable at once.
pub fn on_window_event<R: Runtime>(window: &Window<R>, event: &WindowEvent) {
    if window.label() != TRUSTED {
        return;
    }
    match event {
        WindowEvent::CloseRequested { api, .. } => {
            api.prevent_close();
            if let Err(e) = hide_trusted(window.app_handle()) {
                tracing::warn!(error = %e, "could not hide the trusted window");
            }
        }
        WindowEvent::Focused(focused) => {
            let shell = window.app_handle().state::<Shell>();
            *shell.trusted_shown_at.lock().unwrap_or_else(|p| p.into_inner()) = focused.then(Instant::now);
        }
        _ => {}
    }
}

/// Shows the trusted window on top and focused (full screen in kiosk mode); its Approve delay starts now.
/// `confirmation` says a confirmation has just opened, and the window is nudged to fetch it.
pub fn show_trusted<R: Runtime>(app: &AppHandle<R>, confirmation: bool) -> tauri::Result<()> {
    let window = trusted_window(app)?;
    let shell = app.state::<Shell>();
    // Shown for the first time or raised again: either way the owner only now sees it, so the delay starts now.
    *shell.trusted_shown_at.lock().unwrap_or_else(|p| p.into_inner()) = Some(Instant::now());
    if shell.mode.kiosk {
        window.set_fullscreen(true)?;
        cover_monitor(&window)?;
    }
    window.show()?;
    window.unminimize()?;
    window.set_always_on_top(true)?;
    window.set_focus()?;
    if confirmation {
        crate::first_paint::watch_confirmation(&window);
        app.emit_to(TRUSTED, PENDING_EVENT, ())?;
    }
    Ok(())
}

pub fn hide_trusted<R: Runtime>(app: &AppHandle<R>) -> tauri::Result<()> {
    let Some(window) = app.get_webview_window(TRUSTED) else { return Ok(()) };
    *app.state::<Shell>().trusted_shown_at.lock().unwrap_or_else(|p| p.into_inner()) = None;
    window.set_always_on_top(false)?;
    window.hide()
}

/// Brings the trusted window forward for every confirmation the gate opens.
pub fn watch_gate<R: Runtime>(app: &AppHandle<R>) {
    let mut opened = app.state::<Shell>().gate.subscribe();
    let app = app.clone();
    tauri::async_runtime::spawn(async move {
        // A lagged receiver still means a confirmation opened; only a closed gate ends the watch.
        while let Ok(_) | Err(RecvError::Lagged(_)) = opened.recv().await {
            if let Err(e) = show_trusted(&app, true) {
                tracing::error!(error = %e, "could not show the trusted window for a confirmation");
            }
        }
    });
}

/// The content-free nudge the trusted window gets when the link to the LAN service comes or goes; it then reads
/// the link's state with the settings.
pub const LAN_LINK_EVENT: &str = "aiui:lan-link";

/// In kiosk mode with a LAN service's socket: keeps the link up, and brings the trusted window forward for every
/// new LAN request, as for a local one.
pub fn watch_lan<R: Runtime>(app: &AppHandle<R>) {
    let Some(lan) = app.state::<Shell>().lan.clone() else { return };
    let (shown, linked) = (app.clone(), app.clone());
    tauri::async_runtime::spawn(async move {
        let on_new = move || {
            if let Err(e) = show_trusted(&shown, true) {
                tracing::error!(error = %e, "could not show the trusted window for a LAN request");
            }
        };
        let on_link = move || {
            // No trusted window yet is fine: it reads the link's state when it is made.
            let _ = linked.emit_to(TRUSTED, LAN_LINK_EVENT, ());
        };
        lan.run(on_new, on_link).await;
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[track_caller]
    fn check(url: &str, page: &str, expect: bool) {
        assert_eq!(is_own_page(&url.parse().unwrap(), page), expect, "{url} as {page}");
    }

    #[test]
    fn each_window_stays_on_its_own_page() {
        check("tauri://localhost/", "index.html", true);
        check("tauri://localhost/index.html", "index.html", true);
        check("http://tauri.localhost/index.html", "index.html", true);
        check("tauri://localhost/trusted.html", "index.html", false);
        check("tauri://localhost/trusted.html", "trusted.html", true);
        check("tauri://localhost/", "trusted.html", false);
        check("tauri://localhost/index.html", "trusted.html", false);
        check("https://example.com/trusted.html", "trusted.html", false);
        check("tauri://evil/trusted.html", "trusted.html", false);
    }
}
