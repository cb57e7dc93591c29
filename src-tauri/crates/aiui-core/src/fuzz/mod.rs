//! Fuzzing on stable Rust: proptest-generated inputs (arbitrary JSON, bytes and text, and mutations of committed
//! seed corpora in `fixtures/fuzz/<target>/`) thrown at every parser that reads untrusted data.
//!
//! Not coverage-guided: cargo-afl needs clang and an LLVM matching rustc, which this machine lacks. Each target
//! first replays its corpus (every crash found is kept there as a regression input), then runs random cases:
//! `AIUI_FUZZ_CASES` of them (default 64, for the ordinary test run), or for `AIUI_FUZZ_SECONDS` seconds when set
//! (`scripts/fuzz`). Each target prints its execution count.

mod strategies;
mod targets;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use proptest::strategy::Strategy;
use proptest::test_runner::{Config, RngAlgorithm, TestCaseError, TestRng, TestRunner};

/// Cases per batch when running for a time budget: the clock is checked between batches.
const BATCH: u32 = 256;

/// The committed seed inputs of `target`, one file each, sorted by name.
pub(crate) fn corpus(target: &str) -> Vec<(String, Vec<u8>)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../fixtures/fuzz").join(target);
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("the corpus {} is missing: {e}", dir.display()))
        .map(|entry| entry.expect("a readable corpus entry").path())
        .collect();
    files.sort();
    assert!(!files.is_empty(), "the corpus {} is empty", dir.display());
    files
        .into_iter()
        .map(|path| {
            let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            (path.file_name().unwrap_or_default().to_string_lossy().into_owned(), bytes)
        })
        .collect()
}

/// Replays `target`'s corpus through `check`, then runs generated cases; panics with the smallest failing input.
/// Returns the number of executions.
#[allow(clippy::print_stdout, reason = "the executions per target are the figure scripts/fuzz reports")]
pub(crate) fn fuzz<S: Strategy>(
    target: &str,
    strategy: S,
    replay: impl Fn(&[u8]) -> Result<(), TestCaseError>,
    check: impl Fn(S::Value) -> Result<(), TestCaseError>,
) -> u64 {
    let mut executions = 0u64;
    for (name, bytes) in corpus(target) {
        if let Err(e) = replay(&bytes) {
            panic!("fuzz {target}: corpus input {name} fails: {e}");
        }
        executions += 1;
    }
    let budget = std::env::var("AIUI_FUZZ_SECONDS").ok().and_then(|s| s.parse::<u64>().ok()).map(Duration::from_secs);
    let cases = std::env::var("AIUI_FUZZ_CASES").ok().and_then(|s| s.parse::<u32>().ok()).unwrap_or(64);
    let started = Instant::now();
    let mut batch = 0u64;
    loop {
        let this_batch = if budget.is_some() { BATCH } else { cases };
        let config = Config { cases: this_batch, failure_persistence: None, ..Config::default() };
        // Seeded per batch, so a run is repeatable and two batches never replay the same cases.
        let mut seed = [0u8; 32];
        seed[..8].copy_from_slice(&batch.to_le_bytes());
        seed[8..8 + target.len().min(24)].copy_from_slice(&target.as_bytes()[..target.len().min(24)]);
        let mut runner = TestRunner::new_with_rng(config, TestRng::from_seed(RngAlgorithm::ChaCha, &seed));
        if let Err(e) = runner.run(&strategy, &check) {
            panic!("fuzz {target}: {e}");
        }
        executions += u64::from(this_batch);
        batch += 1;
        match budget {
            Some(budget) if started.elapsed() < budget => continue,
            _ => break,
        }
    }
    println!("fuzz {target}: {executions} executions in {:.1?}, 0 crashes", started.elapsed());
    executions
}
