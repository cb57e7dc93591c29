//! Builds the Tauri context from the root-level `tauri.conf.json` and declares every app command, so that each one
//! is checked against the window's capability (an undeclared command would not be ACL-checked at all).

include!("src/commands/names.rs");
include!("build_commit.rs");

fn main() {
    // The manifest wants a 'static list; the build script ends right after, so leaking it costs nothing.
    let commands: &'static [&'static str] =
        MAIN_COMMANDS.iter().chain(TRUSTED_COMMANDS).copied().collect::<Vec<_>>().leak();
    let attributes = tauri_build::Attributes::new()
        .config_path("../tauri.conf.json")
        .app_manifest(tauri_build::AppManifest::new().commands(commands));
    emit_git_commit();
    println!("cargo:rerun-if-changed=src/commands/names.rs");
    println!("cargo:rerun-if-changed=capabilities");
    println!("cargo:rerun-if-changed=../tauri.conf.json");
    tauri_build::try_build(attributes).expect("tauri-build failed");
}
