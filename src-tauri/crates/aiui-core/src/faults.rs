//! Named fault points on the paid path, for the crash tests: with the `fault-points` feature and
//! `AIUI_FAULT_POINT=<name>` set, the process announces `AIUI-FAULT-POINT <name>` on stderr when it reaches that
//! point and then waits forever, so that the test can SIGKILL it exactly there. Without the feature, `hit` is empty
//! and compiles away.

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
/// refund, after it took a token back, and on each side of a write-off.
pub const RECONCILE_POINTS: &[&str] =
    &["after-returned-received", "after-reclaimed", "before-write-off", "after-write-off"];

/// Points on the way out: a withdrawal written before its melt is sent and after the mint said it is still
/// paying, a token sent out written before it is made and after it is recorded, and a token taken back.
pub const OUTFLOW_POINTS: &[&str] =
    &["after-withdrawal-row", "after-withdrawal-pending", "after-send-row", "after-send-recorded", "after-take-back"];

/// Points inside a restore: the proofs fetched from the mints, the words in the keyring, one mint recorded.
pub const RESTORE_POINTS: &[&str] = &["after-restore-fetched", "after-restore-keyring", "after-restore-recorded"];

/// A named point. See the module docs.
#[inline]
pub fn hit(name: &'static str) {
    debug_assert!(
        [POINTS, RECONCILE_POINTS, FUNDING_POINTS, OUTFLOW_POINTS, RESTORE_POINTS]
            .iter()
            .any(|points| points.contains(&name)),
        "unknown fault point {name}"
    );
    #[cfg(feature = "fault-points")]
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
