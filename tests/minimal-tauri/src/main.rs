//! The floor of `scripts/bench desktop`: a minimal Tauri app from the same versions, profile and lock as `aiui`,
//! with the same two windows (the first shown, the second hidden or shown: `--windows`; same sizes and security
//! settings) and nothing else: no state, no commands, no capabilities, no plugins. Its start, memory and size are what this stack costs
//! before AIUI adds anything. A crate of its own (not an example of `aiui`) so that it gets its own context and
//! none of `aiui`'s dev-dependencies; it is never part of the `aiui` binary.

// The very probe the `aiui` binary has, so that both apps are measured the same way.
#[path = "../../../src-tauri/src/first_paint.rs"]
#[allow(dead_code, reason = "the trusted window's probe is aiui's; only the start probe is used here")]
mod first_paint;

/// The label of the shown window, as in AIUI's `tauri.conf.json`.
const MAIN: &str = "main";

/// Which windows are made, so that each of AIUI's states has its floor: `--windows main` (the chat window only, as
/// `aiui` starts), `both` (the default: the second one loaded and hidden), `both-shown` (the second one loaded and
/// shown after the first one painted, as after a confirmation).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Windows {
    Main,
    Both,
    BothShown,
}

fn windows_from_args() -> Windows {
    let args: Vec<String> = std::env::args().collect();
    let value = args.iter().position(|a| a == "--windows").and_then(|i| args.get(i + 1));
    match value.map(String::as_str) {
        None | Some("both") => Windows::Both,
        Some("main") => Windows::Main,
        Some("both-shown") => Windows::BothShown,
        Some(other) => {
            eprintln!("minimal-tauri: unknown --windows {other} (main, both, both-shown)");
            std::process::exit(2);
        }
    }
}

fn main() {
    let windows = windows_from_args();
    tauri::Builder::default()
        .setup(move |app| {
            for config in app.config().app.windows.clone() {
                if config.label != MAIN && windows == Windows::Main {
                    continue;
                }
                let mut builder = tauri::WebviewWindowBuilder::from_config(app.handle(), &config)?;
                if config.label == MAIN {
                    builder = first_paint::probe(builder);
                }
                let window = builder.build()?;
                if config.label != MAIN && windows == Windows::BothShown {
                    // Shown a moment after start, as AIUI's trusted window is for a confirmation.
                    std::thread::spawn(move || {
                        std::thread::sleep(std::time::Duration::from_secs(3));
                        if let Err(e) = window.show() {
                            eprintln!("minimal-tauri: the second window could not be shown: {e}");
                        }
                    });
                }
            }
            Ok(())
        })
        .run(tauri::generate_context!())
        .expect("the minimal Tauri app could not run");
}
