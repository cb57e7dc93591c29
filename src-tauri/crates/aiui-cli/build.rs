//! Stamps the binary with the git commit it was built from, for `aiui-cli --version`.

include!("../../build_commit.rs");

fn main() {
    emit_git_commit();
}
