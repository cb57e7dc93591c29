//! A streamed answer as the owner sees it: the pieces a leg writes, revealed (a cloud leg's `[class-N]`
//! placeholders put back) and shown only up to where no placeholder can be half-way, so a placeholder split across
//! two pieces is never shown raw or half revealed.

use std::sync::Mutex;

use super::StopReason;
use crate::i18n::{self, Locale};

/// The longest placeholder held back waiting for its `]` (`[lan-ip-123]` is 12): anything longer after a `[` is
/// ordinary text.
const LONGEST_PLACEHOLDER: usize = 48;

#[derive(Debug, Default)]
pub(super) struct Streamed(Mutex<State>);

#[derive(Debug, Default)]
struct State {
    /// Everything the leg wrote, as it wrote it.
    raw: String,
    /// The revealed text already handed out.
    shown: String,
}

impl Streamed {
    /// Takes one piece; returns the text to show now (the revealed text's growth), if any.
    pub(super) fn push(&self, piece: &str, reveal: &dyn Fn(&str) -> String) -> Option<String> {
        let mut state = self.0.lock().unwrap_or_else(|p| p.into_inner());
        state.raw.push_str(piece);
        let safe = safe_end(&state.raw);
        let revealed = reveal(&state.raw[..safe]);
        // A reveal of a longer safe prefix extends the shorter one's: placeholders are whole in both.
        let grown = revealed.strip_prefix(state.shown.as_str()).map(str::to_owned);
        match grown {
            Some(grown) if !grown.is_empty() => {
                state.shown = revealed;
                Some(grown)
            }
            _ => None,
        }
    }

    /// All that was shown so far (`None` when nothing was).
    pub(super) fn shown(&self) -> Option<String> {
        let state = self.0.lock().unwrap_or_else(|p| p.into_inner());
        (!state.shown.is_empty()).then(|| state.shown.clone())
    }
}

/// Where the raw text may be cut without cutting a placeholder: before a last `[` not yet closed.
fn safe_end(raw: &str) -> usize {
    match raw.rfind('[') {
        Some(open) if !raw[open..].contains(']') && raw.len() - open <= LONGEST_PLACEHOLDER => open,
        _ => raw.len(),
    }
}

/// The partial answer as it is stored and shown once the turn ended early.
pub(super) fn marked(locale: Locale, text: &str, reason: StopReason) -> String {
    let key = match reason {
        StopReason::CutOff => "mark-cut-off",
        _ => "mark-stopped",
    };
    let mark = i18n::text(locale, key, &[]);
    format!("{}\n\n{mark}", text.trim_end())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reveal(text: &str) -> String {
        text.replace("[lan-ip-1]", "192.168.1.20").replace("[onion-12]", "abc.onion")
    }

    #[test]
    fn a_placeholder_split_anywhere_is_shown_only_whole_and_revealed() {
        let text = "LND listens on [lan-ip-1] and [onion-12]; see [docs] or a[b.";
        let expected = reveal(text);
        for cut in 0..=text.len() {
            for second in cut..=text.len() {
                let streamed = Streamed::default();
                let mut out = String::new();
                for piece in [&text[..cut], &text[cut..second], &text[second..]] {
                    if let Some(shown) = streamed.push(piece, &reveal) {
                        assert!(!shown.contains("[lan") && !shown.contains("[onion"), "{cut}/{second}: {shown:?}");
                        out.push_str(&shown);
                    }
                }
                assert!(expected.starts_with(&out), "{cut}/{second}: {out:?}");
                // Only the last unclosed `[` may still be held back.
                assert!(out.len() >= expected.len() - "[b.".len(), "{cut}/{second}: {out:?}");
            }
        }
    }

    #[test]
    fn a_long_bracketed_text_is_not_held_back_for_ever() {
        let streamed = Streamed::default();
        let long = format!("[{}", "x".repeat(LONGEST_PLACEHOLDER + 1));
        assert_eq!(streamed.push(&long, &str::to_owned).as_deref(), Some(long.as_str()));
    }
}
