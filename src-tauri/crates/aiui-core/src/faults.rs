//! Named fault points on the money paths: the one registry that the code (`hit`), the crash tests and the money
//! explorer all read. With the `fault-points` feature a point can be armed two ways:
//! - for a whole process, by `AIUI_FAULT_POINT=<name>`: the process announces `AIUI-FAULT-POINT <name>` on stderr
//!   when it reaches that point and then waits forever, so that the test can SIGKILL it exactly there;
//! - for one future, by [`Plan::run`]: reaching the armed point aborts that future there (as a timeout or the
//!   desktop's `abort` would), and every point the future passes is counted.
//!
//! Without the feature, `hit` is a membership check in debug builds and compiles away in release builds.

/// Every point, in the order a paid request passes them.
pub const POINTS: &[&str] = &[
    "after-reserve",
    "after-pending-row",
    "after-token-built",
    "after-token-sent",
    "after-change-stored",
    "after-returned-received",
    "between-ledger-and-budget-settle",
];

/// The point between cdk minting an invoice's ecash and the ledger recording it.
pub const FUNDING_POINTS: &[&str] = &["after-minted"];

/// Points passed only inside `reconcile`, in the order it passes them: after it received stored change or a
/// refund, after it took a token back, after it took back the unspent part of a token the provider redeemed in
/// part, and on each side of a write-off.
pub const RECONCILE_POINTS: &[&str] = &[
    "after-returned-received",
    "after-reclaimed",
    "after-unspent-part-taken-back",
    "before-write-off",
    "after-write-off",
];

/// Points on the way out: a withdrawal written before its melt is sent and after the mint said it is still
/// paying, a token sent out written before it is made and after it is recorded, and a token taken back.
pub const OUTFLOW_POINTS: &[&str] =
    &["after-withdrawal-row", "after-withdrawal-pending", "after-send-row", "after-send-recorded", "after-take-back"];

/// Points inside a restore: one mint's proofs fetched (before the next mint is asked), every mint's, the words in
/// the keyring, one mint recorded.
pub const RESTORE_POINTS: &[&str] =
    &["after-restore-mint", "after-restore-fetched", "after-restore-keyring", "after-restore-recorded"];

/// The point between receiving a set-aside token the owner asked for and crediting it in the ledger.
pub const SET_ASIDE_POINTS: &[&str] = &["after-set-aside-received"];

/// Every list above: the registry.
pub const GROUPS: &[&[&str]] =
    &[POINTS, FUNDING_POINTS, RECONCILE_POINTS, OUTFLOW_POINTS, RESTORE_POINTS, SET_ASIDE_POINTS];

/// Every point once, in registry order.
pub fn all() -> Vec<&'static str> {
    let mut all: Vec<&'static str> = Vec::new();
    for point in GROUPS.iter().flat_map(|group| group.iter()) {
        if !all.contains(point) {
            all.push(point);
        }
    }
    all
}

/// Whether `name` is a registered point.
pub fn is_registered(name: &str) -> bool {
    GROUPS.iter().any(|group| group.contains(&name))
}

/// A named point. See the module docs.
#[inline]
pub fn hit(name: &'static str) {
    debug_assert!(is_registered(name), "unknown fault point {name}");
    #[cfg(feature = "fault-points")]
    {
        plan::reached(name);
        if std::env::var("AIUI_FAULT_POINT").is_ok_and(|armed| armed == name) {
            use std::io::Write;
            let mut stderr = std::io::stderr();
            let _ = writeln!(stderr, "AIUI-FAULT-POINT {name}");
            let _ = stderr.flush();
            loop {
                std::thread::park();
            }
        }
    }
}

#[cfg(feature = "fault-points")]
pub use plan::{ABORTED, Plan};

#[cfg(feature = "fault-points")]
mod plan {
    use std::collections::BTreeMap;
    use std::sync::{Arc, Mutex};

    /// What a future aborted at an armed point panics with (the explorer tells it from a real failure by this).
    pub const ABORTED: &str = "AIUI-FAULT-ABORT";

    tokio::task_local! {
        static PLAN: Arc<Plan>;
    }

    /// Which point aborts the future it runs, at which of its passes, and how often each point was passed.
    #[derive(Debug, Default)]
    pub struct Plan {
        armed: Option<(Armed, u64)>,
        reached: Mutex<BTreeMap<&'static str, u64>>,
        /// Passes of any point so far, and the point the future was aborted at.
        passes: Mutex<(u64, Option<&'static str>)>,
    }

    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    enum Armed {
        Point(&'static str),
        /// Whichever point is passed: the explorer's way to reach every point on a path, new ones included, without
        /// knowing the path.
        Any,
    }

    impl Plan {
        /// A plan that only counts.
        pub fn counting() -> Arc<Self> {
            Arc::new(Self::default())
        }

        /// A plan that aborts at the `nth` pass (from 1) of `point`. Panics on a name the registry does not hold:
        /// a misspelt point must fail the run, never inject nothing.
        pub fn abort_at(point: &str, nth: u64) -> Arc<Self> {
            let point = super::all()
                .into_iter()
                .find(|p| *p == point)
                .unwrap_or_else(|| panic!("{point:?} is not a registered fault point (aiui_core::faults::GROUPS)"));
            Arc::new(Self { armed: Some((Armed::Point(point), nth.max(1))), ..Self::default() })
        }

        /// A plan that aborts at the `nth` pass (from 1) of any point.
        pub fn abort_at_any(nth: u64) -> Arc<Self> {
            Arc::new(Self { armed: Some((Armed::Any, nth.max(1))), ..Self::default() })
        }

        /// The point the future was aborted at, if it was.
        pub fn aborted_at(&self) -> Option<&'static str> {
            self.passes.lock().unwrap_or_else(|p| p.into_inner()).1
        }

        /// Runs `future` under this plan. The future is polled on the caller's task: an abort unwinds out of it,
        /// so run it where a panic is caught (a spawned task).
        pub async fn run<F: std::future::Future>(self: &Arc<Self>, future: F) -> F::Output {
            PLAN.scope(self.clone(), future).await
        }

        /// How often each point was passed under this plan.
        pub fn reached(&self) -> BTreeMap<&'static str, u64> {
            self.reached.lock().unwrap_or_else(|p| p.into_inner()).clone()
        }
    }

    pub(super) fn reached(name: &'static str) {
        let _ = PLAN.try_with(|plan| {
            let of_this = {
                let mut reached = plan.reached.lock().unwrap_or_else(|p| p.into_inner());
                let passes = reached.entry(name).or_insert(0);
                *passes += 1;
                *passes
            };
            let mut passes = plan.passes.lock().unwrap_or_else(|p| p.into_inner());
            passes.0 += 1;
            let abort = match plan.armed {
                Some((Armed::Point(point), nth)) => point == name && nth == of_this,
                Some((Armed::Any, nth)) => nth == passes.0,
                None => false,
            };
            if abort && passes.1.is_none() {
                passes.1 = Some(name);
                drop(passes);
                std::panic::panic_any(format!("{ABORTED} {name}"));
            }
        });
    }
}

#[cfg(test)]
mod tests {
    /// Every point the source passes to `faults::hit` is a registered one, and every registered point is hit
    /// somewhere: the registry is the code's list, not a list kept by hand beside it.
    #[test]
    fn the_registry_is_exactly_the_points_the_code_hits() {
        fn walk(dir: &std::path::Path, found: &mut Vec<String>) {
            for entry in std::fs::read_dir(dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    walk(&path, found);
                } else if path.extension().is_some_and(|e| e == "rs") {
                    let text = std::fs::read_to_string(&path).unwrap();
                    for piece in text.split("faults::hit(\"").skip(1) {
                        found.push(piece.split('"').next().unwrap().to_owned());
                    }
                }
            }
        }
        let mut in_code = Vec::new();
        walk(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src"), &mut in_code);
        for point in &in_code {
            assert!(super::is_registered(point), "faults::hit({point:?}) is not in the registry");
        }
        for point in super::all() {
            assert!(in_code.iter().any(|p| p == point), "{point} is registered but no code hits it");
        }
    }
}
