//! Four real processes on one budget file at the same time, so its file lock is contended for real (the proptests
//! take turns in one process). The test re-runs its own binary as the children (`budget_child_process`); each does
//! random reserve / extend / settle / release and now and then an operator `set` (allowance, and the schedule away
//! from daily and back), under one clock kept in a file that the first child advances, so periods roll mid-run.
//! Each child logs its settlements; the parent then checks every period's spend against the logs and its ceiling.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use super::store::write_atomic;
use super::{BudgetStore, BudgetUpdate, Clock, Period, Reservation};

const ROLE: &str = "AIUI_BUDGET_CHILD";
const DIR: &str = "AIUI_BUDGET_DIR";
const SEED: &str = "AIUI_BUDGET_SEED";
const CHILDREN: usize = 4;
const OPS_PER_CHILD: usize = 1500;
const START_MS: i64 = 1_700_000_000_000;
const DAY: i64 = 86_400_000;
/// How far the first child moves the clock over its run: at most ten daily periods close, fewer than the closed
/// periods a file keeps, so every period a child settled into is still there to check.
const CLOCK_SPAN_MS: i64 = 10 * DAY;
const DEADLINE: Duration = Duration::from_secs(60);

fn clock_path(dir: &Path) -> PathBuf {
    dir.join("clock")
}

/// The shared clock: whatever the file says. It is replaced whole (written aside, then renamed), so a reader never
/// sees half a number.
fn file_clock(dir: &Path) -> Clock {
    let path = clock_path(dir);
    Arc::new(move || {
        let text = std::fs::read_to_string(&path).expect("the parent wrote the clock file");
        text.trim().parse().expect("the clock file holds milliseconds")
    })
}

fn set_clock(dir: &Path, ms: i64) {
    write_atomic(&clock_path(dir), ms.to_string().as_bytes()).expect("the clock file is written");
}

fn log_path(dir: &Path, child: usize) -> PathBuf {
    dir.join(format!("settled-{child}.log"))
}

fn go_path(dir: &Path) -> PathBuf {
    dir.join("go")
}

/// Waits until the parent says go, so all children run at once rather than one after another as they start.
fn wait_for_go(dir: &Path) {
    let started = Instant::now();
    while !go_path(dir).exists() {
        assert!(started.elapsed() < DEADLINE, "the parent never said go");
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// Not a test of its own: the entry point of the child processes the test below starts. Without `AIUI_BUDGET_CHILD`
/// (an ordinary test run) it returns at once.
#[test]
fn budget_child_process() {
    let Ok(role) = std::env::var(ROLE) else { return };
    let child: usize = role.parse().expect("the role is the child's index");
    let dir = PathBuf::from(std::env::var(DIR).expect("the parent names the data dir"));
    let seed: u64 = std::env::var(SEED).expect("the parent gives a seed").parse().expect("a number");
    let mut rng = StdRng::seed_from_u64(seed ^ child as u64);
    let store = BudgetStore::open(&dir.join("budget.json")).expect("the budget opens").with_clock(file_clock(&dir));
    let mut log = std::fs::OpenOptions::new().create(true).append(true).open(log_path(&dir, child)).unwrap();
    let mut settle = |store: &BudgetStore, reservation: Reservation, actual: u64| {
        let (id, period) = (reservation.id(), reservation.period_number().expect("made by this version"));
        let _ = store.settle(reservation, actual);
        writeln!(log, "{id} {period} {actual}").expect("the settlement is logged");
    };
    let mut open: Vec<Reservation> = Vec::new();
    wait_for_go(&dir);
    for step in 0..OPS_PER_CHILD {
        if child == 0 && step % 10 == 0 {
            set_clock(&dir, START_MS + CLOCK_SPAN_MS * step as i64 / OPS_PER_CHILD as i64);
        }
        // The schedule changes rarely enough that days still roll between changes.
        if child == 1 && step == OPS_PER_CHILD / 3 {
            let period = if rng.random_bool(0.5) { Period::Weekly } else { Period::Never };
            store.set(BudgetUpdate { period: Some(period), ..Default::default() }).expect("the schedule is saved");
        }
        if child == 1 && step == 2 * OPS_PER_CHILD / 3 {
            store
                .set(BudgetUpdate { period: Some(Period::Daily), ..Default::default() })
                .expect("the schedule is saved");
        }
        match rng.random_range(0..100) {
            0..40 => {
                if let Some(r) = store.reserve(&store.payment_policy(), rng.random_range(1..=40)) {
                    open.push(r);
                }
            }
            40..55 if !open.is_empty() => {
                let i = rng.random_range(0..open.len());
                let _ = store.extend(&store.payment_policy(), &mut open[i], rng.random_range(1..=8));
            }
            55..80 if !open.is_empty() => {
                let r = open.swap_remove(rng.random_range(0..open.len()));
                let actual = rng.random_range(0..=r.amount_sats());
                settle(&store, r, actual);
            }
            80..95 if !open.is_empty() => store.release(open.swap_remove(rng.random_range(0..open.len()))),
            95..98 => {
                let update = BudgetUpdate { allowance_sats: Some(rng.random_range(100..=400)), ..Default::default() };
                store.set(update).expect("the operator's change is saved");
            }
            _ => {}
        }
    }
    for r in open {
        if rng.random_bool(0.5) {
            let actual = rng.random_range(0..=r.amount_sats());
            settle(&store, r, actual);
        } else {
            store.release(r);
        }
    }
}

fn spawn(dir: &Path, child: usize, seed: u64) -> Child {
    Command::new(std::env::current_exe().expect("the test binary"))
        .args(["--exact", "budget::processes::budget_child_process", "--nocapture", "--test-threads=1"])
        .env(ROLE, child.to_string())
        .env(DIR, dir)
        .env(SEED, seed.to_string())
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(dir.join(format!("child-{child}.err"))).unwrap())
        .spawn()
        .expect("the child process starts")
}

/// Sum of the logged settlements per period number, and how many there were.
fn logged_spend(dir: &Path) -> (BTreeMap<u64, u64>, usize) {
    let (mut spend, mut count) = (BTreeMap::new(), 0);
    for child in 0..CHILDREN {
        let text = std::fs::read_to_string(log_path(dir, child)).unwrap_or_default();
        for line in text.lines() {
            let fields: Vec<u64> = line.split(' ').map(|f| f.parse().expect("a logged number")).collect();
            let [_id, period, actual] = fields[..] else { panic!("a bad log line {line:?}") };
            *spend.entry(period).or_default() += actual;
            count += 1;
        }
    }
    (spend, count)
}

#[test]
fn four_processes_at_once_keep_every_periods_ceiling() {
    let dir = tempfile::tempdir_in("/dev/shm").or_else(|_| tempfile::tempdir()).unwrap();
    set_clock(dir.path(), START_MS);
    let store = BudgetStore::open(&dir.path().join("budget.json")).unwrap().with_clock(file_clock(dir.path()));
    store
        .set(BudgetUpdate {
            allowance_sats: Some(300),
            period: Some(Period::Daily),
            accepted_mints: Some(vec!["https://mint.example".into()]),
        })
        .unwrap();
    let seed: u64 = rand::random();
    let mut children: Vec<Child> = (0..CHILDREN).map(|child| spawn(dir.path(), child, seed)).collect();
    std::fs::write(go_path(dir.path()), b"go").unwrap();
    let started = Instant::now();
    let mut statuses = [None; CHILDREN];
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
        std::thread::sleep(Duration::from_millis(20));
    }
    for (child, status) in statuses.iter().enumerate() {
        let stderr = std::fs::read_to_string(dir.path().join(format!("child-{child}.err"))).unwrap_or_default();
        assert!(status.is_some_and(|s| s.success()), "child {child} failed (seed {seed}): {stderr}");
    }

    let periods = store.periods();
    let (logged, settlements) = logged_spend(dir.path());
    for period in &periods {
        assert!(period.spent_sats <= period.allowance_sats, "past the ceiling (seed {seed}): {period:?}");
        let settled = logged.get(&period.number).copied().unwrap_or(0);
        assert_eq!(period.spent_sats, settled, "spend is not what was settled (seed {seed}): {period:?}");
    }
    for period in &periods {
        assert_eq!(period.reserved_sats, 0, "still reserved (seed {seed}): {period:?}");
    }
    let left = store.reservation_holders();
    assert!(left.is_empty(), "reservations left (seed {seed}): {left:?}");
    for number in logged.keys() {
        assert!(periods.iter().any(|p| p.number == *number), "period {number} is gone from the file: {periods:?}");
    }
    assert!(logged.len() >= 3, "settlements fell in only {} periods: the clock did not roll them", logged.len());
    // The ceiling refuses most reserves (a few hundred sats a day against prices up to 40): a run settles about
    // 200 to 300 times in 7 to 10 periods.
    assert!(settlements >= 100, "only {settlements} settlements: the children did little");
}
