//! The `ui/` files, served read-only: only names each origin allows, only known file types, never a path that
//! leaves the directory. Security headers are set here and on every API answer by the origin's middleware.

use std::path::{Path, PathBuf};

use anyhow::Context;
use axum::Router;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::get;

#[derive(Debug, Clone)]
pub struct UiDir(PathBuf);

impl UiDir {
    pub fn open(dir: &Path) -> anyhow::Result<Self> {
        let dir = dir.canonicalize().with_context(|| format!("the UI directory {}", dir.display()))?;
        for page in ["index.html", "trusted.html", "login.html"] {
            anyhow::ensure!(
                dir.join(page).is_file(),
                "{} has no {page}: pass --ui-dir <the ui/ directory>",
                dir.display()
            );
        }
        Ok(Self(dir))
    }

    /// Answers `relative` (no leading `/`) if `allowed` accepts it.
    pub async fn serve(&self, relative: &str, allowed: fn(&str) -> bool) -> Response {
        let clean = !relative.is_empty()
            && relative.split('/').all(|seg| !seg.is_empty() && seg != "." && seg != "..")
            && relative.chars().all(|c| c.is_ascii_alphanumeric() || "-_./".contains(c));
        let Some(kind) = clean.then(|| content_type(relative)).flatten() else { return not_found() };
        if !allowed(relative) {
            return not_found();
        }
        // A link under ui/ that leads out of it (to the data dir, to /etc) is never followed out.
        let inside = match tokio::fs::canonicalize(self.0.join(relative)).await {
            Ok(real) if real.starts_with(&self.0) => real,
            _ => return not_found(),
        };
        match tokio::fs::read(inside).await {
            Ok(bytes) => {
                let mut response = bytes.into_response();
                response.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static(kind));
                response
            }
            Err(_) => not_found(),
        }
    }
}

/// The headers both origins put on every answer: the origin's own CSP, no framing, no sniffing, no referrer, no
/// caching.
pub(crate) fn set_security_headers(h: &mut HeaderMap, csp: &'static str) {
    h.insert(header::CONTENT_SECURITY_POLICY, HeaderValue::from_static(csp));
    h.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    h.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    h.insert(header::REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
}

/// Under a base path, `/aiui` (no slash) redirects to `aiui/`: the page's relative links need the slash.
pub(crate) fn with_bare_base_redirect<S: Clone + Send + Sync + 'static>(router: Router<S>, base: &str) -> Router<S> {
    if base == "/" {
        return router;
    }
    let bare = base.trim_end_matches('/').to_owned();
    let target = format!("{}/", bare.rsplit('/').next().unwrap_or_default());
    router.route(&bare, get(move || std::future::ready(Redirect::to(&target))))
}

fn content_type(path: &str) -> Option<&'static str> {
    Some(match path.rsplit_once('.')?.1 {
        "html" => "text/html; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "woff2" => "font/woff2",
        _ => return None,
    })
}

fn not_found() -> Response {
    (StatusCode::NOT_FOUND, "not found").into_response()
}

/// The chat origin serves the chat page, the sign-in page and their scripts and styles; never the trusted page.
pub fn chat_allows(path: &str) -> bool {
    matches!(path, "index.html" | "login.html")
        || path.starts_with("js/")
        || path.starts_with("css/")
        || path.starts_with("icons/")
}

/// The trusted origin serves the trusted page, the sign-in page and their scripts and styles.
pub fn trusted_allows(path: &str) -> bool {
    // js/zoom.js and js/l10n.js are the page zoom and the words both windows share; nothing else of the chat's
    // scripts.
    matches!(path, "trusted.html" | "login.html" | "js/login.js" | "js/zoom.js" | "js/l10n.js")
        || path.starts_with("trusted/")
        || path.starts_with("css/")
        || path.starts_with("icons/")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The `ui/` scripts a page reaches through `import … from '…'`, as paths relative to `ui/`.
    fn imports_from(ui: &Path, script: &str, seen: &mut Vec<String>) {
        if seen.iter().any(|s| s == script) {
            return;
        }
        seen.push(script.to_owned());
        let text = std::fs::read_to_string(ui.join(script)).unwrap_or_else(|e| panic!("{script}: {e}"));
        let base = Path::new(script).parent().unwrap_or(Path::new(""));
        for line in text.lines().filter(|l| l.starts_with("import ")) {
            let Some(target) = line.split(['\'', '"']).nth(1) else { continue };
            let mut parts: Vec<String> = base.iter().map(|p| p.to_string_lossy().into_owned()).collect();
            for segment in target.split('/') {
                match segment {
                    "." => {}
                    ".." => {
                        parts.pop();
                    }
                    other => parts.push(other.to_owned()),
                }
            }
            imports_from(ui, &parts.join("/"), seen);
        }
    }

    #[tokio::test]
    async fn a_link_under_ui_that_leads_out_of_it_is_not_followed() {
        let root = tempfile::tempdir().unwrap();
        let ui = root.path().join("ui");
        std::fs::create_dir_all(ui.join("js")).unwrap();
        for page in ["index.html", "trusted.html", "login.html"] {
            std::fs::write(ui.join(page), "<!doctype html>").unwrap();
        }
        std::fs::write(ui.join("js/chat.js"), "export {}").unwrap();
        std::fs::write(root.path().join("secret.js"), "the owner's data").unwrap();
        std::os::unix::fs::symlink(root.path().join("secret.js"), ui.join("js/evil.js")).unwrap();
        std::os::unix::fs::symlink(ui.join("js/chat.js"), ui.join("js/alias.js")).unwrap();
        let dir = UiDir::open(&ui).unwrap();
        let any = |_: &str| true;
        assert_eq!(dir.serve("js/evil.js", any).await.status(), StatusCode::NOT_FOUND);
        assert_eq!(dir.serve("js/chat.js", any).await.status(), StatusCode::OK);
        assert_eq!(dir.serve("js/alias.js", any).await.status(), StatusCode::OK, "a link inside ui/ is fine");
    }

    #[test]
    fn every_script_a_page_imports_is_served_by_its_origin() {
        let ui = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../ui");
        for (entry, allows) in [
            ("js/chat.js", chat_allows as fn(&str) -> bool),
            ("trusted/trusted.js", trusted_allows),
            // Loaded by lan-approval.js with a dynamic import(), on the LAN only.
            ("trusted/lan-wallet.js", trusted_allows),
            ("js/login.js", chat_allows),
            ("js/login.js", trusted_allows),
        ] {
            let mut seen = Vec::new();
            imports_from(&ui, entry, &mut seen);
            for script in seen {
                assert!(allows(&script), "{entry} imports {script}, which its origin does not serve");
            }
        }
        assert!(!trusted_allows("js/chat.js") && !chat_allows("trusted.html") && !chat_allows("trusted/confirm.js"));
    }
}
