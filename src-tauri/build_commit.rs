// The git commit a binary was built from, for `--version` and the trusted window's settings; included by the build
// scripts of `aiui` and `aiui-cli` (not a module: a build script is its own crate).

/// Sets `AIUI_GIT_COMMIT` for the crate being built: `$AIUI_GIT_COMMIT` when the builder gives one (a build from a
/// source tarball has no .git), else `git rev-parse`, else "unknown". Reruns when HEAD or the branch it names moves.
fn emit_git_commit() {
    println!("cargo:rerun-if-env-changed=AIUI_GIT_COMMIT");
    let commit = std::env::var("AIUI_GIT_COMMIT").ok().filter(|c| !c.trim().is_empty()).or_else(|| {
        let git = |args: &[&str]| {
            let out = std::process::Command::new("git").args(args).output().ok()?;
            out.status.success().then(|| String::from_utf8_lossy(&out.stdout).trim().to_owned())
        };
        if let Some(git_dir) = git(&["rev-parse", "--absolute-git-dir"]) {
            let git_dir = std::path::Path::new(&git_dir);
            let branch = git(&["symbolic-ref", "-q", "HEAD"]);
            // Only files that exist: cargo reruns a build script every time for a missing one.
            let watched = [Some("HEAD".to_owned()), branch, Some("packed-refs".to_owned())];
            for file in watched.into_iter().flatten().map(|f| git_dir.join(f)).filter(|f| f.exists()) {
                println!("cargo:rerun-if-changed={}", file.display());
            }
        }
        git(&["rev-parse", "--short=12", "HEAD"])
    });
    println!("cargo:rustc-env=AIUI_GIT_COMMIT={}", commit.as_deref().unwrap_or("unknown"));
}
