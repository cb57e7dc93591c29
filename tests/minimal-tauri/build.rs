//! Builds the minimal app's Tauri context from its own `tauri.conf.json`: no capabilities, no commands.

fn main() {
    tauri_build::build();
}
