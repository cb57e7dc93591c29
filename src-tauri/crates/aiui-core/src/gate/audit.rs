//! The append-only audit log: one JSON line per confirmation request, decision and node result, tied by id.

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use serde::Serialize;
use serde_json::{Value, json};

use super::{ConfirmRequest, Verdict};

/// Where audit lines go. Opened in append mode only: the process never rewrites or truncates it.
#[derive(Debug)]
pub struct AuditLog {
    path: PathBuf,
    file: Mutex<File>,
}

/// Writing the audit log failed. The gate treats this as a refusal: an action that cannot be recorded does not run.
#[derive(Debug, thiserror::Error)]
#[error("the audit log {path} could not be written ({source}); no action runs until it can (is the disk full?)")]
pub struct AuditError {
    pub path: PathBuf,
    #[source]
    pub source: std::io::Error,
}

impl AuditLog {
    pub fn open(path: &Path) -> Result<Self, AuditError> {
        let err = |source| AuditError { path: path.to_owned(), source };
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(err)?;
        }
        // The log names the owner's apps and actions: readable by the owner only, as every file in the data dir.
        let file = crate::paths::private_file_options().create(true).append(true).open(path).map_err(err)?;
        Ok(Self { path: path.to_owned(), file: Mutex::new(file) })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    pub(super) fn requested(&self, request: &ConfirmRequest) -> Result<(), AuditError> {
        self.append("requested", &request.id, json!({ "request": request }))
    }

    pub(super) fn decided(&self, id: &str, verdict: Verdict) -> Result<(), AuditError> {
        self.append("decided", id, json!({ "verdict": verdict }))
    }

    /// Records that a request was taken back undecided (the owner stopped the turn that asked).
    pub(super) fn withdrawn(&self, id: &str) -> Result<(), AuditError> {
        self.append("withdrawn", id, json!({ "why": "the turn that asked was stopped" }))
    }

    /// Records what the node answered to an approved action.
    pub fn result(&self, id: &str, outcome: &Result<String, String>) -> Result<(), AuditError> {
        let body = match outcome {
            Ok(text) => json!({ "ok": true, "result": text }),
            Err(message) => json!({ "ok": false, "error": message }),
        };
        self.append("result", id, body)
    }

    fn append(&self, event: &str, id: &str, mut body: Value) -> Result<(), AuditError> {
        #[derive(Serialize)]
        struct Line<'a> {
            at_ms: i64,
            event: &'a str,
            id: &'a str,
        }
        let mut line = serde_json::to_value(Line { at_ms: crate::now_ms(), event, id }).unwrap_or_default();
        if let (Some(line), Some(body)) = (line.as_object_mut(), body.as_object_mut()) {
            line.append(body);
        }
        let mut text = line.to_string();
        text.push('\n');
        let mut file = self.file.lock().unwrap_or_else(|p| p.into_inner());
        // One write per line, then a sync: a crash leaves whole lines, and a recorded approval is on disk before
        // the action it allows runs.
        file.write_all(text.as_bytes())
            .and_then(|()| file.sync_data())
            .map_err(|source| AuditError { path: self.path.clone(), source })
    }
}
