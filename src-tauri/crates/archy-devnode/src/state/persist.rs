//! `state.json`: the package states that survive a restart, written atomically after every change.

use std::collections::BTreeMap;
use std::fs::{self, File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::packages::PackageState;

pub(crate) const STATE_FILE: &str = "state.json";

/// What is saved. Sessions are deliberately absent: a restart logs everyone out, as on the real node.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct PersistedState {
    pub format: u32,
    pub packages: BTreeMap<String, PersistedPackage>,
}

impl PersistedState {
    pub const FORMAT: u32 = 1;
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct PersistedPackage {
    pub state: PackageState,
    pub version: String,
    #[serde(default)]
    pub exit_code: Option<i32>,
    /// Unix seconds.
    #[serde(default)]
    pub started_at: Option<u64>,
}

#[derive(Debug, thiserror::Error)]
pub(crate) enum PersistError {
    #[error("could not read {path}: {source}")]
    Read { path: PathBuf, source: std::io::Error },
    #[error(
        "{path} is not a valid devnode state file ({detail}); it was left untouched: fix it, or delete it to start \
         from the demo catalogue"
    )]
    Corrupt { path: PathBuf, detail: String },
    #[error("could not write {path}: {source}")]
    Write { path: PathBuf, source: std::io::Error },
}

/// Reads the saved state, `None` if there is none yet.
pub(crate) fn load(path: &Path) -> Result<Option<PersistedState>, PersistError> {
    let bytes = match fs::read(path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(source) => return Err(PersistError::Read { path: path.to_owned(), source }),
    };
    let state: PersistedState = serde_json::from_slice(&bytes)
        .map_err(|e| PersistError::Corrupt { path: path.to_owned(), detail: e.to_string() })?;
    if state.format != PersistedState::FORMAT {
        return Err(PersistError::Corrupt {
            path: path.to_owned(),
            detail: format!("format {} is not the supported format {}", state.format, PersistedState::FORMAT),
        });
    }
    Ok(Some(state))
}

/// Writes a temporary file next to `path`, syncs it, then renames it over `path`, so a crash leaves either the
/// old file or the new one, never half of one.
pub(crate) fn save(path: &Path, state: &PersistedState) -> Result<(), PersistError> {
    let write_err = |source| PersistError::Write { path: path.to_owned(), source };
    let dir = path.parent().unwrap_or_else(|| Path::new("."));
    let file_name = path.file_name().and_then(|n| n.to_str()).unwrap_or(STATE_FILE);
    let tmp = dir.join(format!(".{file_name}.{}.tmp", std::process::id()));
    let mut json = serde_json::to_vec_pretty(state).map_err(|e| write_err(std::io::Error::other(e)))?;
    json.push(b'\n');
    let written = (|| {
        let mut file = OpenOptions::new().write(true).create(true).truncate(true).open(&tmp)?;
        file.write_all(&json)?;
        file.sync_all()?;
        fs::rename(&tmp, path)?;
        // The rename itself is only durable once the directory entry is; not every platform can open a
        // directory, so failing here is not fatal.
        if let Ok(d) = File::open(dir) {
            let _ = d.sync_all();
        }
        Ok(())
    })();
    if written.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    written.map_err(write_err)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> PersistedState {
        let lnd = PersistedPackage {
            state: PackageState::Restarting,
            version: "0.18.4-beta".into(),
            exit_code: None,
            started_at: Some(1_700_000_000),
        };
        PersistedState { format: PersistedState::FORMAT, packages: BTreeMap::from([("lnd".to_owned(), lnd)]) }
    }

    #[test]
    fn round_trips_and_leaves_no_temp_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(STATE_FILE);
        assert_eq!(load(&path).unwrap(), None);
        save(&path, &sample()).unwrap();
        save(&path, &sample()).unwrap();
        assert_eq!(load(&path).unwrap(), Some(sample()));
        let names: Vec<_> = fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(names, [STATE_FILE]);
        let text = fs::read_to_string(&path).unwrap();
        assert!(text.contains("\"restarting\""), "{text}");
    }

    #[test]
    fn corrupt_files_are_named_and_kept() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(STATE_FILE);
        for bad in [
            "{not json",
            r#"{"format":1,"packages":{"lnd":{"state":"exploded","version":"1"}}}"#,
            r#"{"format":99,"packages":{}}"#,
        ] {
            fs::write(&path, bad).unwrap();
            let err = load(&path).unwrap_err();
            assert!(matches!(err, PersistError::Corrupt { .. }), "{err}");
            assert!(err.to_string().contains(&path.display().to_string()), "{err}");
            assert_eq!(fs::read_to_string(&path).unwrap(), bad, "the file is left as it was");
        }
    }
}
