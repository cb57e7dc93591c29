//! The login rate limit: failed logins per client IP in a sliding 60-second window.

use std::collections::{HashMap, VecDeque};
use std::net::IpAddr;
use std::time::{Duration, Instant};

const WINDOW: Duration = Duration::from_secs(60);

/// Remembers when each IP last failed to log in. A success does not forget failures, as on the real node: a
/// guesser who also knows one valid password must not be able to reset the count.
#[derive(Debug)]
pub(crate) struct LoginLimiter {
    max_failures: u32,
    failures: HashMap<IpAddr, VecDeque<Instant>>,
}

impl LoginLimiter {
    /// `max_failures` of 0 turns the limit off.
    pub fn new(max_failures: u32) -> Self {
        Self { max_failures, failures: HashMap::new() }
    }

    /// `Err(retry_after)` when `ip` has used up its failures in the current window.
    pub fn check(&mut self, ip: IpAddr, now: Instant) -> Result<(), Duration> {
        if self.max_failures == 0 {
            return Ok(());
        }
        let Some(times) = self.failures.get_mut(&ip) else { return Ok(()) };
        while times.front().is_some_and(|t| now.saturating_duration_since(*t) >= WINDOW) {
            times.pop_front();
        }
        if times.is_empty() {
            self.failures.remove(&ip);
            return Ok(());
        }
        if times.len() < self.max_failures as usize {
            return Ok(());
        }
        // The oldest failure inside the window is the next to leave it, which frees one attempt.
        let oldest = times.front().copied().unwrap_or(now);
        Err(WINDOW.saturating_sub(now.saturating_duration_since(oldest)))
    }

    pub fn record_failure(&mut self, ip: IpAddr, now: Instant) {
        if self.max_failures == 0 {
            return;
        }
        let times = self.failures.entry(ip).or_default();
        times.push_back(now);
        // Failures past the limit cannot lengthen the wait, so they need not be kept.
        while times.len() > self.max_failures as usize {
            times.pop_front();
        }
    }
}

/// Whole seconds to wait, rounded up and at least 1, for `Retry-After` and the message.
pub(crate) fn retry_after_secs(wait: Duration) -> u64 {
    let secs = wait.as_secs() + u64::from(wait.subsec_nanos() > 0);
    secs.max(1)
}

#[cfg(test)]
mod tests {
    use std::net::Ipv4Addr;

    use super::*;

    const A: IpAddr = IpAddr::V4(Ipv4Addr::new(10, 0, 0, 1));
    const B: IpAddr = IpAddr::V4(Ipv4Addr::new(10, 0, 0, 2));

    #[test]
    fn the_window_slides_per_ip() {
        let t0 = Instant::now();
        let mut limiter = LoginLimiter::new(3);
        for i in 0..3 {
            assert!(limiter.check(A, t0 + Duration::from_secs(i)).is_ok());
            limiter.record_failure(A, t0 + Duration::from_secs(i));
        }
        // Failures at 0, 1 and 2 s: the 0 s one leaves the window at 60 s.
        assert_eq!(limiter.check(A, t0 + Duration::from_secs(10)), Err(Duration::from_secs(50)));
        assert!(limiter.check(B, t0 + Duration::from_secs(10)).is_ok(), "another IP is not limited");
        assert_eq!(limiter.check(A, t0 + Duration::from_millis(59_500)), Err(Duration::from_millis(500)));
        assert!(limiter.check(A, t0 + Duration::from_secs(60)).is_ok(), "one failure left the window");
        limiter.record_failure(A, t0 + Duration::from_secs(60));
        assert_eq!(limiter.check(A, t0 + Duration::from_secs(60)), Err(Duration::from_secs(1)));
        assert!(limiter.check(A, t0 + Duration::from_secs(200)).is_ok());
    }

    #[test]
    fn zero_turns_the_limit_off() {
        let t0 = Instant::now();
        let mut limiter = LoginLimiter::new(0);
        for _ in 0..100 {
            limiter.record_failure(A, t0);
        }
        assert!(limiter.check(A, t0).is_ok());
    }

    #[test]
    fn retry_after_rounds_up() {
        assert_eq!(retry_after_secs(Duration::from_millis(500)), 1);
        assert_eq!(retry_after_secs(Duration::from_millis(1500)), 2);
        assert_eq!(retry_after_secs(Duration::from_secs(50)), 50);
        assert_eq!(retry_after_secs(Duration::ZERO), 1);
    }
}
