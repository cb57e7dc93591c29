//! The owner's Stop for one running turn: the shell holds one end (the Stop button, Escape, Ctrl-C) and the loop
//! the other. Stopping drops the backend request in flight, keeps what was written, withdraws a confirmation that
//! waits, and never abandons a paid request mid-payment (that one finishes through the ledger's normal paths).

use std::sync::Arc;

use tokio::sync::watch;

/// A turn's Stop. Clones share one signal; stopping twice is the same as once.
#[derive(Debug, Clone)]
pub struct Stop(Arc<watch::Sender<bool>>);

impl Default for Stop {
    fn default() -> Self {
        Self::new()
    }
}

impl Stop {
    pub fn new() -> Self {
        Self(Arc::new(watch::channel(false).0))
    }

    /// Asks the turn to stop; it does so at once, at whatever it is waiting for.
    pub fn stop(&self) {
        self.0.send_replace(true);
    }

    pub fn is_stopped(&self) -> bool {
        *self.0.borrow()
    }

    /// Resolves once [`Stop::stop`] was called (at once if it already was).
    pub async fn stopped(&self) {
        let mut changes = self.0.subscribe();
        // The sender lives as long as `self`, so this only ends by a stop.
        let _ = changes.wait_for(|stopped| *stopped).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_stop_reaches_every_clone_and_resolves_late_waiters_at_once() {
        let stop = Stop::new();
        let other = stop.clone();
        assert!(!other.is_stopped());
        let waiter = tokio::spawn({
            let other = other.clone();
            async move { other.stopped().await }
        });
        stop.stop();
        tokio::time::timeout(std::time::Duration::from_secs(1), waiter).await.unwrap().unwrap();
        assert!(other.is_stopped());
        tokio::time::timeout(std::time::Duration::from_millis(50), other.stopped()).await.unwrap();
    }
}
