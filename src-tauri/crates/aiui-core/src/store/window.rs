//! The last message rows of the conversations read lately, kept decoded so a turn reads only the rows appended
//! since: the cost of a turn's history is what is new, not the window.
//!
//! Sound because message rows are append-only: nothing rewrites or removes a row once written (a migration runs
//! before a store is opened), and `seq` only grows, even across processes (an append takes SQLite's write lock
//! before reading `MAX(seq)`). So another process's appends are exactly the rows after the last `seq` seen.

use std::collections::VecDeque;

use crate::backends::Message;

use super::ConversationId;

/// How many conversations' windows one store keeps: the desktop's open conversation, with room for a few LAN
/// sessions; more are read from the file again. Bounds the memory to this many windows.
pub(super) const KEPT_WINDOWS: usize = 4;

/// The last `limit` message rows of one conversation, oldest first; `None` is a row this version cannot read, kept
/// so the window holds the same rows a fresh read would.
pub(super) struct Window {
    limit: usize,
    last_seq: i64,
    rows: VecDeque<Option<Message>>,
}

impl Window {
    pub(super) fn new(limit: usize) -> Self {
        Self { limit, last_seq: i64::MIN, rows: VecDeque::new() }
    }

    /// The `seq` after which rows are new to this window.
    pub(super) fn last_seq(&self) -> i64 {
        self.last_seq
    }

    /// Adds rows newer than every row held, oldest first, and drops what falls out of the window.
    pub(super) fn extend(&mut self, newer: impl IntoIterator<Item = (i64, Option<Message>)>) {
        for (seq, message) in newer {
            debug_assert!(seq > self.last_seq, "rows are added in seq order");
            self.last_seq = seq;
            self.rows.push_back(message);
        }
        let excess = self.rows.len().saturating_sub(self.limit);
        self.rows.drain(..excess);
    }

    /// The readable messages, starting at an owner message so no tool result is sent without the call it answers.
    pub(super) fn messages(&self) -> Vec<Message> {
        let start = self.rows.iter().position(|row| matches!(row, Some(Message::User { .. })));
        let Some(start) = start else { return Vec::new() };
        self.rows.iter().skip(start).flatten().cloned().collect()
    }
}

/// The windows of the last [`KEPT_WINDOWS`] conversations read, most recent first.
#[derive(Default)]
pub(super) struct Windows {
    kept: VecDeque<(ConversationId, Window)>,
}

impl Windows {
    /// Takes `id`'s window out to be brought up to date, or a new empty one if none is kept for this `limit`.
    pub(super) fn take(&mut self, id: &ConversationId, limit: usize) -> Window {
        match self.kept.iter().position(|(kept, _)| kept == id) {
            Some(at) => match self.kept.remove(at) {
                Some((_, window)) if window.limit == limit => window,
                _ => Window::new(limit),
            },
            None => Window::new(limit),
        }
    }

    /// Keeps `id`'s window as the most recent, letting the least recently read go past [`KEPT_WINDOWS`].
    pub(super) fn keep(&mut self, id: ConversationId, window: Window) {
        self.kept.retain(|(kept, _)| *kept != id);
        self.kept.push_front((id, window));
        self.kept.truncate(KEPT_WINDOWS);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn user(text: &str) -> Option<Message> {
        Some(Message::User { text: text.into() })
    }

    fn result(id: &str) -> Option<Message> {
        Some(Message::ToolResult { call_id: id.into(), name: "t".into(), content: "[]".into(), is_error: false })
    }

    #[test]
    fn a_window_keeps_its_last_rows_and_starts_at_an_owner_message() {
        let mut window = Window::new(3);
        window.extend([(1, user("a")), (2, result("x")), (3, None)]);
        assert_eq!(window.messages(), vec![user("a").unwrap(), result("x").unwrap()], "the unreadable row is skipped");
        window.extend([(7, result("y"))]);
        // Rows 2, 3 and 7 are the window: none is the owner's, so nothing is sent without its call.
        assert!(window.messages().is_empty());
        window.extend([(8, user("b"))]);
        assert_eq!(window.messages(), vec![user("b").unwrap()]);
        assert_eq!(window.last_seq(), 8);
    }

    #[test]
    fn only_the_most_recent_windows_are_kept() {
        let mut windows = Windows::default();
        let ids: Vec<ConversationId> = (0..=KEPT_WINDOWS).map(|_| ConversationId::random()).collect();
        for id in &ids {
            let mut window = windows.take(id, 5);
            window.extend([(1, user("q"))]);
            windows.keep(id.clone(), window);
        }
        assert_eq!(windows.kept.len(), KEPT_WINDOWS);
        assert_eq!(windows.take(&ids[0], 5).last_seq(), i64::MIN, "the least recently read went first");
        assert_eq!(windows.take(&ids[KEPT_WINDOWS], 5).last_seq(), 1);
        let id = &ids[1];
        assert_eq!(windows.take(id, 6).last_seq(), i64::MIN, "a window of another size is read again");
    }
}
