//! Real processes on one `claude-budget.json` at the same time, so its file lock is contended for real: the test
//! re-runs its own binary as the children (`claude_budget_child_process`), released together by a go file; each
//! reserves random worst cases, settles random amounts up to them (or releases), and logs every settlement. The
//! parent checks the file against the logs and the ceiling while they run and once they are done.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use super::{ClaudeAllowance, ClaudeUpdate, Period, Reservation};

const ROLE: &str = "AIUI_CLAUDE_BUDGET_CHILD";
const DIR: &str = "AIUI_CLAUDE_BUDGET_DIR";
const SEED: &str = "AIUI_CLAUDE_BUDGET_SEED";
const CHILDREN: usize = 2;
const OPS_PER_CHILD: usize = 2500;
/// $6: about three quarters of what the children would settle without a ceiling, so it is reached late in the run
/// and refuses from then on.
const ALLOWANCE: u64 = 6_000_000;
/// The most one request's worst case comes to here: $0.02.
const MAX_WORST_CASE: u64 = 20_000;
const DEADLINE: Duration = Duration::from_secs(60);

fn log_path(dir: &Path, child: usize) -> PathBuf {
    dir.join(format!("settled-{child}.log"))
}

fn go_path(dir: &Path) -> PathBuf {
    dir.join("go")
}

/// Not a test of its own: the entry point of the child processes the test below starts. Without
/// `AIUI_CLAUDE_BUDGET_CHILD` (an ordinary test run) it returns at once.
#[test]
fn claude_budget_child_process() {
    let Ok(role) = std::env::var(ROLE) else { return };
    let child: usize = role.parse().expect("the role is the child's index");
    let dir = PathBuf::from(std::env::var(DIR).expect("the parent names the data dir"));
    let seed: u64 = std::env::var(SEED).expect("the parent gives a seed").parse().expect("a number");
    let mut rng = StdRng::seed_from_u64(seed ^ child as u64);
    let allowance = ClaudeAllowance::open(&dir).expect("the allowance opens");
    let mut log = std::fs::OpenOptions::new().create(true).append(true).open(log_path(&dir, child)).unwrap();
    let mut open: Vec<Reservation> = Vec::new();
    // Logged after the settlement is on file, so a log read before the file never holds more than the file.
    let mut settle = |reservation: Reservation, actual: u64| {
        let id = reservation.id();
        let _ = allowance.settle(reservation, actual);
        writeln!(log, "{id} {actual}").expect("the settlement is logged");
    };
    let started = Instant::now();
    while !go_path(&dir).exists() {
        assert!(started.elapsed() < DEADLINE, "the parent never said go");
        std::thread::sleep(Duration::from_millis(1));
    }
    for _ in 0..OPS_PER_CHILD {
        match rng.random_range(0..100) {
            0..45 => {
                let worst = rng.random_range(1..=MAX_WORST_CASE);
                if let Some(r) = allowance.reserve(&allowance.policy(), worst) {
                    open.push(r);
                }
            }
            45..85 if !open.is_empty() => {
                let r = open.swap_remove(rng.random_range(0..open.len()));
                let actual = rng.random_range(0..=r.amount_sats());
                settle(r, actual);
            }
            85..100 if !open.is_empty() => allowance.release(open.swap_remove(rng.random_range(0..open.len()))),
            _ => {}
        }
    }
    for r in open {
        let actual = rng.random_range(0..=r.amount_sats());
        settle(r, actual);
    }
}

fn spawn(dir: &Path, child: usize, seed: u64) -> Child {
    Command::new(std::env::current_exe().expect("the test binary"))
        .args(["--exact", "budget::claude_processes::claude_budget_child_process", "--nocapture", "--test-threads=1"])
        .env(ROLE, child.to_string())
        .env(DIR, dir)
        .env(SEED, seed.to_string())
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(dir.join(format!("child-{child}.err"))).unwrap())
        .spawn()
        .expect("the child process starts")
}

/// The sum of the logged settlements, and how many there were.
fn logged(dir: &Path) -> (u64, usize) {
    let (mut sum, mut count) = (0, 0);
    for child in 0..CHILDREN {
        let text = std::fs::read_to_string(log_path(dir, child)).unwrap_or_default();
        // A line being written has no newline yet: it is counted on the next read.
        for line in text.split_inclusive('\n').filter(|l| l.ends_with('\n')) {
            let fields: Vec<u64> = line.trim().split(' ').map(|f| f.parse().expect("a logged number")).collect();
            let [_id, actual] = fields[..] else { panic!("a bad log line {line:?}") };
            sum += actual;
            count += 1;
        }
    }
    (sum, count)
}

#[test]
fn two_processes_reserving_at_once_never_pass_the_usd_ceiling() {
    let dir = tempfile::tempdir_in("/dev/shm").or_else(|_| tempfile::tempdir()).unwrap();
    let allowance = ClaudeAllowance::open(dir.path()).unwrap();
    allowance.set(ClaudeUpdate { allowance_usd_micros: Some(ALLOWANCE), period: Some(Period::Never) }).unwrap();
    let seed: u64 = rand::random();
    let mut children: Vec<Child> = (0..CHILDREN).map(|child| spawn(dir.path(), child, seed)).collect();
    std::fs::write(go_path(dir.path()), b"go").unwrap();
    let started = Instant::now();
    let mut statuses = [None; CHILDREN];
    let mut checks = 0;
    while statuses.iter().any(Option::is_none) {
        for (child, status) in children.iter_mut().zip(statuses.iter_mut()).filter(|(_, s)| s.is_none()) {
            *status = child.try_wait().expect("the child can be waited for");
        }
        if started.elapsed() > DEADLINE {
            for child in &mut children {
                let _ = child.kill();
            }
            panic!("the children did not finish within {DEADLINE:?} (seed {seed})");
        }
        let (settled, _) = logged(dir.path());
        let report = allowance.get();
        assert!(
            report.spent_usd_micros + report.reserved_usd_micros <= ALLOWANCE,
            "past the ceiling mid-run (seed {seed}): {report:?}"
        );
        assert!(
            report.spent_usd_micros >= settled,
            "settlements lost mid-run (seed {seed}): {settled} logged, {report:?}"
        );
        checks += 1;
        std::thread::sleep(Duration::from_millis(5));
    }
    for (child, status) in statuses.iter().enumerate() {
        let stderr = std::fs::read_to_string(dir.path().join(format!("child-{child}.err"))).unwrap_or_default();
        assert!(status.is_some_and(|s| s.success()), "child {child} failed (seed {seed}): {stderr}");
    }

    let report = allowance.get();
    let (settled, settlements) = logged(dir.path());
    assert_eq!(report.spent_usd_micros, settled, "spend is not what was settled (seed {seed}): {report:?}");
    assert_eq!(report.reserved_usd_micros, 0, "still reserved (seed {seed}): {report:?}");
    assert!(report.spent_usd_micros <= ALLOWANCE, "past the ceiling (seed {seed}): {report:?}");
    assert_eq!(report.allowance_usd_micros, ALLOWANCE);
    // The ceiling was reached: the children asked for more than it holds, and it refused the rest.
    assert!(report.spent_usd_micros > ALLOWANCE / 2, "the ceiling was never approached (seed {seed}): {report:?}");
    assert!(settlements >= 500, "only {settlements} settlements: the children did little");
    assert!(checks >= 3, "the parent checked only {checks} times while the children ran");
}
