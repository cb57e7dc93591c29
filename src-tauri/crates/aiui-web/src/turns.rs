//! A turn's events, kept until its page has read them: the chat origin starts a turn with a POST and the page
//! reads its events with an EventSource. Every event is kept in order with its index as the SSE id, so a late or
//! reconnecting reader (Last-Event-ID) loses none, and only the session that started the turn may read it.

use std::collections::HashMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use aiui_core::view::ChatEvent;
use tokio::sync::watch;

/// How long a finished turn's events stay readable.
const KEEP_FINISHED: Duration = Duration::from_secs(10 * 60);
/// How many finished turns of one session stay readable: a page reads only its latest turn (a reconnect, the one
/// before), and a session chatting for the ten minutes must not hold every answer and tool result it was sent.
const KEEP_FINISHED_PER_SESSION: usize = 4;
/// How many finished turns stay readable over all sessions: sign-ins from many addresses would otherwise keep up to
/// ten minutes of everybody's answers. A page reads its turn within seconds of its end; one that comes back later
/// finds the answer in the conversation's history.
const KEEP_FINISHED_IN_ALL: usize = 64;

#[derive(Debug)]
pub struct TurnLog {
    /// The session key of the session that started it.
    pub owner: String,
    events: Mutex<Vec<ChatEvent>>,
    finished: AtomicBool,
    finished_at: Mutex<Option<Instant>>,
    changed: watch::Sender<usize>,
    /// Event streams open on it now.
    streams: AtomicUsize,
}

impl TurnLog {
    pub fn new(owner: String) -> Self {
        Self {
            owner,
            events: Mutex::new(Vec::new()),
            finished: AtomicBool::new(false),
            finished_at: Mutex::new(None),
            changed: watch::channel(0).0,
            streams: AtomicUsize::new(0),
        }
    }

    /// Counts one more open stream, unless `most` are open already.
    pub fn open_stream(&self, most: usize) -> bool {
        self.streams.fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| (n < most).then_some(n + 1)).is_ok()
    }

    pub fn close_stream(&self) {
        let _ = self.streams.fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| n.checked_sub(1));
    }

    pub fn push(&self, event: ChatEvent) {
        let mut events = self.events.lock().unwrap_or_else(|p| p.into_inner());
        events.push(event);
        let len = events.len();
        drop(events);
        self.changed.send_replace(len);
    }

    pub fn finish(&self) {
        *self.finished_at.lock().unwrap_or_else(|p| p.into_inner()) = Some(Instant::now());
        self.finished.store(true, Ordering::Release);
        self.changed.send_modify(|_| {});
    }

    pub fn get(&self, index: usize) -> Option<ChatEvent> {
        self.events.lock().unwrap_or_else(|p| p.into_inner()).get(index).cloned()
    }

    pub fn is_finished(&self) -> bool {
        self.finished.load(Ordering::Acquire)
    }

    pub fn subscribe(&self) -> watch::Receiver<usize> {
        self.changed.subscribe()
    }

    fn expired(&self) -> bool {
        self.finished_at().is_some_and(|at| at.elapsed() > KEEP_FINISHED)
    }

    fn finished_at(&self) -> Option<Instant> {
        *self.finished_at.lock().unwrap_or_else(|p| p.into_inner())
    }
}

#[derive(Debug, Default)]
pub struct Turns(Mutex<HashMap<String, std::sync::Arc<TurnLog>>>);

impl Turns {
    pub fn insert(&self, id: String, log: std::sync::Arc<TurnLog>) {
        let mut map = self.0.lock().unwrap_or_else(|p| p.into_inner());
        map.retain(|_, log| !log.expired());
        let mut finished: Vec<(Instant, &String, bool)> =
            map.iter().filter_map(|(id, old)| Some((old.finished_at()?, id, old.owner == log.owner))).collect();
        // Newest first: what is dropped is a session's oldest beyond its share, then anyone's oldest beyond all.
        finished.sort_unstable_by_key(|(at, _, _)| std::cmp::Reverse(*at));
        let mut kept_own = 0;
        let dropped: Vec<String> = finished
            .iter()
            .enumerate()
            .filter(|(n, (_, _, own))| {
                kept_own += usize::from(*own);
                *n >= KEEP_FINISHED_IN_ALL || (*own && kept_own > KEEP_FINISHED_PER_SESSION)
            })
            .map(|(_, (_, id, _))| (*id).clone())
            .collect();
        for old in dropped {
            map.remove(&old);
        }
        map.insert(id, log);
    }

    #[cfg(test)]
    fn len(&self) -> usize {
        self.0.lock().unwrap_or_else(|p| p.into_inner()).len()
    }

    pub fn get(&self, id: &str) -> Option<std::sync::Arc<TurnLog>> {
        self.0.lock().unwrap_or_else(|p| p.into_inner()).get(id).cloned()
    }
}

/// The events from `start` on, as a stream that ends when the turn has finished and every event was sent.
pub fn stream(
    log: std::sync::Arc<TurnLog>,
    start: usize,
) -> impl futures_util::Stream<Item = (usize, ChatEvent)> + Send + 'static {
    let changes = log.subscribe();
    futures_util::stream::unfold((log, start, changes), |(log, next, mut changes)| async move {
        loop {
            if let Some(event) = log.get(next) {
                return Some(((next, event), (log, next + 1, changes)));
            }
            if log.is_finished() {
                return None;
            }
            if changes.changed().await.is_err() {
                return None;
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;

    #[test]
    fn a_session_keeps_only_its_latest_finished_turns_and_never_a_running_one_or_another_session_s() {
        let turns = Turns::default();
        let running = Arc::new(TurnLog::new("a".into()));
        turns.insert("running".into(), running.clone());
        let other = Arc::new(TurnLog::new("b".into()));
        other.finish();
        turns.insert("other".into(), other);
        for n in 0..50 {
            let log = Arc::new(TurnLog::new("a".into()));
            turns.insert(format!("a{n}"), log.clone());
            log.finish();
        }
        // Each insert runs before its own turn finishes: the newest finished ones, the new one, the running one and
        // the other session's.
        assert_eq!(turns.len(), KEEP_FINISHED_PER_SESSION + 3, "a session's finished turns are bounded");
        assert!(turns.get("running").is_some(), "a running turn stays readable");
        assert!(turns.get("other").is_some(), "another session's turn is not this session's to drop");
        assert!(turns.get("a49").is_some() && turns.get("a48").is_some(), "the latest turns stay readable");
        assert!(turns.get("a0").is_none(), "the oldest went");
    }

    #[test]
    fn all_sessions_together_keep_only_the_latest_finished_turns_and_never_a_running_one() {
        let turns = Turns::default();
        let running = Arc::new(TurnLog::new("first".into()));
        turns.insert("running".into(), running.clone());
        // 200 sign-ins, as many LAN addresses, each with one finished turn.
        for n in 0..200 {
            let log = Arc::new(TurnLog::new(format!("session {n}")));
            log.finish();
            turns.insert(format!("t{n}"), log);
        }
        assert_eq!(turns.len(), KEEP_FINISHED_IN_ALL + 2, "finished turns over all sessions are bounded");
        assert!(turns.get("running").is_some(), "a running turn stays readable");
        assert!(turns.get("t199").is_some() && turns.get("t198").is_some(), "the latest turns stay readable");
        assert!(turns.get("t0").is_none(), "the oldest went");
    }
}
