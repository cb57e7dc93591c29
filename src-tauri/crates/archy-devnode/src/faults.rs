//! Deterministic fault injection: which authenticated calls answer 500, and how much latency to add.

use std::time::Duration;

use crate::config::Faults;

/// The fault knobs plus a count of the calls they have judged. Failing is decided by arithmetic on the count,
/// not by chance, so a test knows exactly which call fails: call `n` (from 0) fails iff
/// `floor((n+1)·share) > floor(n·share)`. A share of 0.5 fails every second call; 1.0 fails all of them.
#[derive(Debug, Default)]
pub(crate) struct FaultPattern {
    faults: Faults,
    eligible_calls: u64,
}

impl FaultPattern {
    pub fn new(faults: Faults) -> Self {
        Self { faults, eligible_calls: 0 }
    }

    /// Replaces the knobs and restarts the count, so the pattern after a change is the documented one from call 0.
    pub fn set(&mut self, faults: Faults) {
        *self = Self::new(faults);
    }

    pub fn latency(&self) -> Duration {
        self.faults.latency
    }

    /// Judges the next eligible call: true means it must answer with an injected 500.
    pub fn next_call_fails(&mut self) -> bool {
        let n = self.eligible_calls;
        self.eligible_calls = self.eligible_calls.saturating_add(1);
        fails(n, self.faults.error_share)
    }
}

fn fails(n: u64, share: f64) -> bool {
    // NaN and out-of-range shares are clamped rather than rejected: a knob set by a test should never panic.
    let share = if share.is_nan() { 0.0 } else { share.clamp(0.0, 1.0) };
    let n = n as f64;
    ((n + 1.0) * share).floor() > (n * share).floor()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[track_caller]
    fn check(share: f64, expect: &str) {
        let mut pattern = FaultPattern::new(Faults { latency: Duration::ZERO, error_share: share });
        let got: String = (0..expect.len()).map(|_| if pattern.next_call_fails() { 'x' } else { '.' }).collect();
        assert_eq!(got, expect, "share {share}");
    }

    #[test]
    fn failures_follow_the_floor_pattern() {
        check(0.0, "..........");
        check(1.0, "xxxxxxxxxx");
        check(0.5, ".x.x.x.x.x");
        check(0.25, "...x...x..");
        check(0.3, "...x..x..x");
        check(2.0, "xxxx");
        check(-1.0, "....");
        check(f64::NAN, "....");
    }

    #[test]
    fn setting_faults_restarts_the_count() {
        let mut pattern = FaultPattern::new(Faults { latency: Duration::ZERO, error_share: 0.5 });
        assert!(!pattern.next_call_fails());
        assert!(pattern.next_call_fails());
        assert!(!pattern.next_call_fails());
        pattern.set(Faults { latency: Duration::from_millis(5), error_share: 0.5 });
        assert!(!pattern.next_call_fails());
        assert!(pattern.next_call_fails());
        assert_eq!(pattern.latency(), Duration::from_millis(5));
    }
}
