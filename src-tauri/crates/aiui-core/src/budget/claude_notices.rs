//! What Claude's allowance told the owner about money (a request counted at its worst case after its process died,
//! usage above a request's reservation), kept in `<data dir>/claude-notices.jsonl` so that a rebuilt shell shows
//! them again, as the wallet's notices are kept in its ledger (review F12). Kept as what happened, said in each
//! reader's language.

use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::i18n::{self, Locale};
use crate::pricing::format_usd_in;

/// The file inside a data dir.
pub fn claude_notices_path(data_dir: &Path) -> PathBuf {
    data_dir.join("claude-notices.jsonl")
}

/// One thing Claude's allowance told the owner, in micro-dollars.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum ClaudeNotice {
    /// A request of a process that ended before its answer came was counted at its worst case, `amount`.
    Abandoned { amount: u64 },
    /// Anthropic reported usage priced at `priced`, above the `reserved` worst case, and it was counted.
    UsageAbove { priced: u64, reserved: u64 },
}

impl ClaudeNotice {
    pub fn text(&self, locale: Locale) -> String {
        let usd = |micros: u64| i18n::FluentValue::from(format_usd_in(locale, micros));
        match self {
            ClaudeNotice::Abandoned { amount } => i18n::text(locale, "claude-abandoned", &[("amount", usd(*amount))]),
            ClaudeNotice::UsageAbove { priced, reserved } => {
                i18n::text(locale, "claude-usage-above", &[("priced", usd(*priced)), ("reserved", usd(*reserved))])
            }
        }
    }
}

/// Appends `notice` as one line. Each line is written by one `write` to a file opened for appending, so lines from
/// processes writing at once do not interleave. A failure is logged: the notice was said already, only not kept.
pub(super) fn keep(path: &Path, notice: &ClaudeNotice) {
    let Ok(mut line) = serde_json::to_string(notice) else { return };
    line.push('\n');
    let written = crate::paths::private_file_options()
        .create(true)
        .append(true)
        .open(path)
        .and_then(|mut file| file.write_all(line.as_bytes()));
    if let Err(e) = written {
        tracing::warn!(path = %path.display(), error = %e, "claude: a money notice could not be kept");
    }
}

/// The newest `n` notices, oldest first; lines this version cannot read are skipped.
pub(super) fn recent(path: &Path, n: usize) -> Vec<ClaudeNotice> {
    let Ok(file) = std::fs::File::open(path) else { return Vec::new() };
    let all: Vec<ClaudeNotice> = std::io::BufReader::new(file)
        .lines()
        .map_while(Result::ok)
        .filter_map(|line| serde_json::from_str(&line).ok())
        .collect();
    all[all.len().saturating_sub(n)..].to_vec()
}
