//! The line protocol between the LAN service and the node's kiosk: over a Unix socket only the two of them can
//! open (the service's runtime directory, its group), the service tells the kiosk which LAN requests wait, and
//! the kiosk sends back what the owner pressed on its own screen. One JSON object per line, each way.
//!
//! The kiosk is a trusted surface like the desktop's trusted window: it draws the host-written request the
//! service sent (with who asked), and a decision still names the request's id and arguments hash, once.

use serde::{Deserialize, Serialize};

use super::{ConfirmRequest, Decision};

/// The longest line either side reads; a longer one ends the connection.
pub const MAX_LINE_BYTES: usize = 256 * 1024;

/// From the service to the kiosk.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ToKiosk {
    /// Every LAN request now waiting, oldest first; sent at connect and whenever the list changes.
    Pending { requests: Vec<ConfirmRequest>, now_ms: i64 },
    /// The answer to a [`FromKiosk::Decide`]: `verdict` (`allowed`, `denied`, `expired`) or why nothing was decided.
    Decided {
        id: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        verdict: Option<super::Verdict>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        error: Option<String>,
        /// Why nothing was decided, as a code the kiosk says in its own owner's language: `too_soon`, `unknown`,
        /// `mismatch`, `audit` or `not_understood`. An older service sends none; its `error` is shown then.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        code: Option<String>,
    },
}

/// From the kiosk to the service.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum FromKiosk {
    Decide { id: String, arguments_hash: String, decision: Decision },
}

/// What [`read_line`] found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Line {
    /// `buf` holds a whole line, without its newline.
    Complete,
    /// The other side closed the connection (a partial line is dropped).
    End,
    /// The line grew past [`MAX_LINE_BYTES`]: the connection should end.
    TooLong,
}

/// Reads one line into `buf`, at most [`MAX_LINE_BYTES`], for both sides of the socket. Cancel-safe: what was read
/// stays in `buf`, and the next call goes on from there.
pub async fn read_line(read: &mut (impl tokio::io::AsyncBufRead + Unpin), buf: &mut Vec<u8>) -> std::io::Result<Line> {
    use tokio::io::AsyncBufReadExt;
    loop {
        let available = read.fill_buf().await?;
        if available.is_empty() {
            return Ok(Line::End);
        }
        let (taken, complete) = match available.iter().position(|&b| b == b'\n') {
            Some(at) => (at, true),
            None => (available.len(), false),
        };
        buf.extend_from_slice(&available[..taken]);
        read.consume(taken + usize::from(complete));
        if buf.len() > MAX_LINE_BYTES {
            return Ok(Line::TooLong);
        }
        if complete {
            return Ok(Line::Complete);
        }
    }
}

/// Where the service puts the socket by default (systemd's `RuntimeDirectory=aiui`), and where the kiosk looks.
pub const DEFAULT_SOCKET: &str = "/run/aiui/kiosk.sock";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_are_one_tagged_object_each() {
        let line = serde_json::to_string(&FromKiosk::Decide {
            id: "ab".into(),
            arguments_hash: "cd".into(),
            decision: Decision::AllowOnce,
        })
        .unwrap();
        assert_eq!(line, r#"{"type":"decide","id":"ab","arguments_hash":"cd","decision":"allow_once"}"#);
        let back: ToKiosk = serde_json::from_str(r#"{"type":"decided","id":"ab","verdict":"allowed"}"#).unwrap();
        assert_eq!(
            back,
            ToKiosk::Decided {
                id: "ab".into(),
                verdict: Some(super::super::Verdict::Allowed),
                error: None,
                code: None
            }
        );
    }
}
