//! The floor of `scripts/bench desktop`: a minimal Tauri app from the same versions, profile and lock as `aiui`,
//! with the same two windows (the first shown, the second hidden, same sizes and security settings) and nothing
//! else: no state, no commands, no capabilities, no plugins. Its start, memory and size are what this stack costs
//! before AIUI adds anything. A crate of its own (not an example of `aiui`) so that it gets its own context and
//! none of `aiui`'s dev-dependencies; it is never part of the `aiui` binary.

// The very probe the `aiui` binary has, so that both apps are measured the same way.
#[path = "../../../src-tauri/src/first_paint.rs"]
mod first_paint;

/// The label of the shown window, as in AIUI's `tauri.conf.json`.
const MAIN: &str = "main";

fn main() {
    tauri::Builder::default()
        .setup(|app| {
            for config in app.config().app.windows.clone() {
                let mut builder = tauri::WebviewWindowBuilder::from_config(app.handle(), &config)?;
                if config.label == MAIN {
                    builder = first_paint::probe(builder);
                }
                builder.build()?;
            }
            Ok(())
        })
        .run(tauri::generate_context!())
        .expect("the minimal Tauri app could not run");
}
