//! The screens of the conversations used most recently, one each, so a long-lived app holds a bounded number.

use std::collections::HashMap;
use std::hash::Hash;
use std::sync::{Arc, Mutex};

use super::Screen;

/// One [`Screen`] per conversation, made on first need from a blank one (the known secrets, and the texts found
/// clean anywhere). At most [`Screens::MAX_SCREENS`] are kept, holding at most [`Screens::MAX_BYTES`] together;
/// past either, the least recently used go. A conversation whose screen went gets a new one on its next turn:
/// its window is screened again, and addresses are numbered afresh by their first appearance in it, which the
/// model never notices, since the store keeps real values and each request goes out under one table.
///
/// A screen is handed out behind an `Arc`: a turn keeps its own until the answer is revealed, even if the screen
/// is let go meanwhile, so the placeholders in an answer are always read with the table that made them.
pub struct Screens<K> {
    blank: Screen,
    kept: HashMap<K, Kept>,
    clock: u64,
    max_screens: usize,
    max_bytes: usize,
}

struct Kept {
    screen: Arc<Mutex<Screen>>,
    bytes: usize,
    used: u64,
}

impl<K: Eq + Hash + Clone> Screens<K> {
    /// Far more conversations than an owner moves between at once.
    pub const MAX_SCREENS: usize = 64;
    /// What the kept screens may remember together, on top of the shared texts found clean.
    pub const MAX_BYTES: usize = 32 << 20;

    pub fn new(blank: Screen) -> Self {
        Self::with_limits(blank, Self::MAX_SCREENS, Self::MAX_BYTES)
    }

    /// Limits other than the default, for tests. A limit of less than one screen keeps one: the one in use.
    pub fn with_limits(blank: Screen, max_screens: usize, max_bytes: usize) -> Self {
        Self { blank, kept: HashMap::new(), clock: 0, max_screens, max_bytes }
    }

    /// The screen of `key`, made if it has none, now the most recently used.
    pub fn get(&mut self, key: &K) -> Arc<Mutex<Screen>> {
        self.clock += 1;
        let used = self.clock;
        if let Some(kept) = self.kept.get_mut(key) {
            kept.used = used;
            return kept.screen.clone();
        }
        let screen = Arc::new(Mutex::new(self.blank.for_another_conversation()));
        self.kept.insert(key.clone(), Kept { screen: screen.clone(), bytes: 0, used });
        self.evict(key);
        screen
    }

    /// The screen of `key` if one is kept, without making one.
    pub fn peek(&self, key: &K) -> Option<Arc<Mutex<Screen>>> {
        self.kept.get(key).map(|kept| kept.screen.clone())
    }

    /// Notes what `screen`, handed out for `key`, remembers now, and lets the least recently used others go if
    /// the screens hold too much together.
    pub fn note_size(&mut self, key: &K, screen: &Arc<Mutex<Screen>>) {
        let bytes = screen.lock().unwrap_or_else(|p| p.into_inner()).memory_bytes();
        match self.kept.get_mut(key) {
            Some(kept) if Arc::ptr_eq(&kept.screen, screen) => kept.bytes = bytes,
            // Let go while the turn ran: its memory goes with the turn.
            _ => return,
        }
        self.evict(key);
    }

    /// How many screens are kept.
    pub fn len(&self) -> usize {
        self.kept.len()
    }

    pub fn is_empty(&self) -> bool {
        self.kept.is_empty()
    }

    /// What the kept screens remember together, as last noted.
    pub fn bytes(&self) -> usize {
        self.kept.values().map(|kept| kept.bytes).sum()
    }

    /// Lets the least recently used screens other than `in_use`'s go until both limits hold.
    fn evict(&mut self, in_use: &K) {
        while self.kept.len() > self.max_screens.max(1) || (self.kept.len() > 1 && self.bytes() > self.max_bytes) {
            let oldest = self.kept.iter().filter(|(key, _)| *key != in_use).min_by_key(|(_, kept)| kept.used);
            let Some(oldest) = oldest.map(|(key, _)| key.clone()) else { return };
            self.kept.remove(&oldest);
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::egress::Origin;

    fn screened(screens: &mut Screens<u32>, key: u32, text: &str) -> String {
        let screen = screens.get(&key);
        let mut body = json!({ "messages": [text] });
        screen.lock().unwrap().screen_request(&mut body, &|_, _| Origin::ToolResult).unwrap();
        screens.note_size(&key, &screen);
        body["messages"][0].as_str().unwrap().to_owned()
    }

    #[test]
    fn the_least_recently_used_screen_goes_past_the_count() {
        let mut screens = Screens::with_limits(Screen::new(Vec::new()), 3, usize::MAX);
        for key in 0..3 {
            screened(&mut screens, key, &format!("node at 10.0.0.{key}"));
        }
        // Conversation 0 used again: 1 is now the least recently used.
        assert_eq!(screened(&mut screens, 0, "and 10.0.0.9"), "and [lan-ip-2]");
        screened(&mut screens, 3, "node at 10.0.0.3");
        assert_eq!(screens.len(), 3);
        assert!(screens.peek(&1).is_none(), "the least recently used went");
        assert!(screens.peek(&0).is_some() && screens.peek(&2).is_some());
        // Made again from the blank screen: its own table, numbered from its window afresh.
        assert_eq!(screened(&mut screens, 1, "and 10.0.0.9"), "and [lan-ip-1]");
    }

    #[test]
    fn screens_go_past_the_bytes_but_never_the_one_in_use() {
        let mut screens = Screens::with_limits(Screen::new(Vec::new()), 64, 100_000);
        let big = "a log line from 10.0.0.1\n".repeat(2_000);
        for key in 0..10 {
            screened(&mut screens, key, &format!("{key} {big}"));
            assert!(screens.peek(&key).is_some(), "the screen in use stays");
        }
        assert!(screens.len() < 10, "{} screens kept", screens.len());
        assert!(screens.bytes() <= 100_000 || screens.len() == 1, "{} bytes", screens.bytes());
    }

    #[test]
    fn a_turn_keeps_its_screen_after_it_was_let_go() {
        let mut screens = Screens::with_limits(Screen::new(Vec::new()), 1, usize::MAX);
        let held = screens.get(&0);
        let mut body = json!({ "messages": ["peer 10.0.0.7"] });
        held.lock().unwrap().screen_request(&mut body, &|_, _| Origin::ToolResult).unwrap();
        screened(&mut screens, 1, "another conversation");
        assert!(screens.peek(&0).is_none());
        screens.note_size(&0, &held);
        assert!(screens.peek(&0).is_none(), "noting a let-go screen does not bring it back");
        assert_eq!(held.lock().unwrap().reveal("[lan-ip-1] is down"), "10.0.0.7 is down");
    }
}
