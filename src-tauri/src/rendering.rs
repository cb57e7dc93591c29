//! How WebKit paints: without accelerated compositing on a machine with no GPU render node.
//!
//! With no GPU, WebKitGTK composites through Mesa's software GL (llvmpipe), which compiles a shader with LLVM for
//! each new kind of drawing. The chat page's first frame then cost about 0.4 s of CPU in shader compilation on
//! the bench machine, against nearly nothing for a bare page (`scripts/bench desktop`). Painting without
//! compositing needs no shader at all. A machine with a render node (`/dev/dri/renderD*`) keeps the default.
//! Applied to both windows (`windows.rs`): the chat window's first frame is the app's start, the trusted window's
//! the confirmation's.

use std::path::Path;

use tauri::{Runtime, WebviewWindow};

/// Where the kernel lists GPU render nodes.
const DRI: &str = "/dev/dri";

/// Whether `dri` holds a GPU render node (`renderD128`, ...).
pub fn has_render_node(dri: &Path) -> bool {
    std::fs::read_dir(dri).is_ok_and(|entries| {
        entries.filter_map(Result::ok).any(|entry| entry.file_name().to_string_lossy().starts_with("renderD"))
    })
}

/// Turns off accelerated compositing in `window`'s webview when this machine has no GPU render node.
pub fn apply<R: Runtime>(window: &WebviewWindow<R>) {
    if has_render_node(Path::new(DRI)) {
        return;
    }
    // Only WebKitGTK has this setting; elsewhere the platform's default stays.
    #[cfg(not(target_os = "linux"))]
    let _ = window;
    #[cfg(target_os = "linux")]
    if let Err(e) = window.with_webview(|webview| {
        use webkit2gtk::{HardwareAccelerationPolicy, SettingsExt, WebViewExt};
        if let Some(settings) = webview.inner().settings() {
            settings.set_hardware_acceleration_policy(HardwareAccelerationPolicy::Never);
        }
    }) {
        tracing::warn!(error = %e, "could not set the webview's rendering; WebKit's default stays");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_render_node_is_found_by_its_name() {
        let dir = tempfile::tempdir().unwrap();
        assert!(!has_render_node(dir.path()), "an empty /dev/dri");
        assert!(!has_render_node(&dir.path().join("missing")), "no /dev/dri at all");
        std::fs::write(dir.path().join("card0"), "").unwrap();
        assert!(!has_render_node(dir.path()), "a display node only");
        std::fs::write(dir.path().join("renderD128"), "").unwrap();
        assert!(has_render_node(dir.path()));
    }
}
