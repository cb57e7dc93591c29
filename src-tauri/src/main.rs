//! The `aiui` binary: everything is in the library, so tests can build the same app on a mock runtime.

// Keeps a console window from opening next to the app on Windows release builds.
#![cfg_attr(not(debug_assertions), windows_subsystem = "windows")]

fn main() -> std::process::ExitCode {
    aiui::run()
}
