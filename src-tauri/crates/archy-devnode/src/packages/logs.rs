//! A bounded per-app log buffer, like the tail `podman logs` keeps.

use std::collections::VecDeque;

/// How many lines each app keeps; older lines fall off the front.
pub(crate) const LOG_CAPACITY: usize = 500;

#[derive(Debug, Default)]
pub(crate) struct LogRing {
    lines: VecDeque<String>,
}

impl LogRing {
    pub fn from_lines(lines: impl IntoIterator<Item = String>) -> Self {
        let mut ring = Self::default();
        ring.extend(lines);
        ring
    }

    pub fn extend(&mut self, lines: impl IntoIterator<Item = String>) {
        for line in lines {
            if self.lines.len() == LOG_CAPACITY {
                self.lines.pop_front();
            }
            self.lines.push_back(line);
        }
    }

    /// The last `n` lines, oldest first.
    pub fn tail(&self, n: usize) -> Vec<String> {
        let skip = self.lines.len().saturating_sub(n);
        self.lines.iter().skip(skip).cloned().collect()
    }

    pub fn clear(&mut self) {
        self.lines.clear();
    }

    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.lines.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_the_newest_lines_in_order() {
        let mut ring = LogRing::from_lines((0..LOG_CAPACITY + 20).map(|i| i.to_string()));
        assert_eq!(ring.len(), LOG_CAPACITY);
        assert_eq!(ring.tail(3), ["517", "518", "519"]);
        assert_eq!(ring.tail(10_000).first().map(String::as_str), Some("20"));
        ring.extend(["x".to_owned()]);
        assert_eq!(ring.tail(2), ["519", "x"]);
        assert!(ring.tail(0).is_empty());
        ring.clear();
        assert!(ring.tail(5).is_empty());
    }
}
