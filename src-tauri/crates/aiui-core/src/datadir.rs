//! The data dir's format: a marker file (`aiui-data.json`: `{"format": N, "written_by": "x.y.z"}`) that says which
//! AIUI wrote the dir, the forward migrations from each earlier format, and the refusal of a dir a newer AIUI
//! wrote. Every shell calls [`open`] before it opens anything else in the dir.
//!
//! Format 1 is AIUI 0.1.0's, which wrote no marker: a dir without one that holds anything is format 1.

use std::io::Write;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::paths::DataDir;
use crate::store::{Store, StoreError};

/// The format this build writes.
pub const FORMAT: u32 = 2;

/// This build's version, as the marker names it.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// The version that wrote format 1 (no marker).
const FORMAT_1_WRITTEN_BY: &str = "0.1.0";

/// Held while a dir is brought up to date, so a second process opening the same old dir waits and then finds it
/// done, instead of migrating it beside the first.
const UPGRADE_LOCK: &str = "data-dir-upgrade.lock";

/// A marker being written: one temporary file per process, renamed over the marker.
const MARKER_TMP_PREFIX: &str = ".aiui-data.json.";

/// A step from one format to the next: what it brings up to date, for the owner if it fails.
struct Migration {
    what: &'static str,
    run: fn(&Path) -> Result<(), StoreError>,
}

/// Migration `i` takes a dir from format `i + 1` to `i + 2`. Append only: a shipped step is never edited, because
/// dirs in the field have already run it. Each step must be safe to run again on a dir it already brought up to
/// date: a crash between it and the marker's write runs it again at the next open.
const MIGRATIONS: &[Migration] = &[Migration { what: "the conversation store", run: conversations_to_2 }];

const _: () = assert!(MIGRATIONS.len() as u32 + 1 == FORMAT, "FORMAT is 1 + the number of migrations");

/// What [`open`] found and did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DataDirInfo {
    pub dir: PathBuf,
    pub opened: Opened,
}

impl DataDirInfo {
    pub fn data(&self) -> DataDir {
        DataDir(self.dir.clone())
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Opened {
    /// The dir was missing or empty; it now holds this build's marker.
    New,
    /// Already this build's format: nothing was written.
    Current { written_by: String },
    /// An earlier format, brought up to this one.
    Migrated { from_format: u32, written_by: String },
}

/// Why a data dir was not opened. The `Display` text is shown to the owner as-is.
#[derive(Debug, thiserror::Error)]
pub enum DataDirError {
    #[error(
        "This data dir ({}) was written by AIUI {written_by}, which is newer than this AIUI {this}: it was left \
         exactly as it was. Install AIUI {written_by} or newer, or choose another data dir with --data-dir.",
        dir.display()
    )]
    Newer { dir: PathBuf, written_by: String, format: u32, this: &'static str },
    #[error(
        "This data dir's format marker ({}) cannot be read: {reason}. The data dir was left as it was; if no AIUI \
         wrote that file, move it aside and start AIUI again.",
        path.display()
    )]
    Marker { path: PathBuf, reason: String },
    #[error("The data dir {} cannot be used: {what}: {source}", dir.display())]
    Io {
        dir: PathBuf,
        what: &'static str,
        #[source]
        source: std::io::Error,
    },
    #[error(
        "The data dir {} could not be brought up to date ({what}): {source}. Nothing was lost: the earlier files \
         are still readable by the AIUI that wrote them, and the next start tries again.",
        dir.display()
    )]
    Migration {
        dir: PathBuf,
        what: &'static str,
        #[source]
        source: StoreError,
    },
}

/// The marker's contents. Fields a newer version adds are ignored.
#[derive(Debug, Serialize, Deserialize)]
struct Marker {
    format: u32,
    written_by: String,
}

/// What is in the dir, read without writing anything.
enum Found {
    /// No dir, or an empty one.
    Nothing,
    /// Files, and no marker: AIUI 0.1.0.
    Unmarked,
    Marked(Marker),
}

/// Opens the data dir `dir` for this build: creates it (0700) when missing, brings an earlier format up to this
/// one (each step, then the marker, written atomically once they all succeeded), and refuses a dir a newer AIUI
/// wrote without writing anything in it. A second open of the same dir writes nothing. Blocking (a migration
/// rewrites files): call it before the async runtime's work, or from `spawn_blocking`.
pub fn open(dir: &Path) -> Result<DataDirInfo, DataDirError> {
    let info = |opened| Ok(DataDirInfo { dir: dir.to_owned(), opened });
    match look(dir)? {
        Found::Marked(marker) if marker.format == FORMAT => {
            crate::paths::ensure_private_dir(dir).map_err(io(dir, "making it private (0700)"))?;
            return info(Opened::Current { written_by: marker.written_by });
        }
        Found::Nothing => {
            // Nothing to migrate, so no lock: two processes starting at once write the same marker, each whole.
            crate::paths::ensure_private_dir(dir).map_err(io(dir, "creating it (0700)"))?;
            write_marker(dir)?;
            return info(Opened::New);
        }
        Found::Marked(_) | Found::Unmarked => {}
    }
    crate::paths::ensure_private_dir(dir).map_err(io(dir, "making it private (0700)"))?;
    let _upgrading = upgrade_lock(dir)?;
    // Again under the lock: another process may have brought it up to date meanwhile, or a newer AIUI marked it.
    let (from_format, written_by) = match look(dir)? {
        Found::Marked(marker) if marker.format == FORMAT => {
            return info(Opened::Current { written_by: marker.written_by });
        }
        Found::Marked(marker) => (marker.format, marker.written_by),
        Found::Unmarked | Found::Nothing => (1, FORMAT_1_WRITTEN_BY.to_owned()),
    };
    for migration in MIGRATIONS.iter().skip(from_format as usize - 1) {
        (migration.run)(dir).map_err(|source| DataDirError::Migration {
            dir: dir.to_owned(),
            what: migration.what,
            source,
        })?;
    }
    write_marker(dir)?;
    tracing::info!(dir = %dir.display(), from_format, to_format = FORMAT, "data dir brought up to date");
    info(Opened::Migrated { from_format, written_by })
}

/// The marker's path in `dir`.
pub fn marker_path(dir: &Path) -> PathBuf {
    DataDir(dir.to_owned()).format_marker()
}

/// What `dir` holds; refuses a newer format. Writes nothing.
fn look(dir: &Path) -> Result<Found, DataDirError> {
    let path = marker_path(dir);
    let text = match std::fs::read(&path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return match std::fs::read_dir(dir) {
                Ok(entries) => {
                    // This module's own files say nothing of what wrote the dir.
                    let ours = |name: &str| name == UPGRADE_LOCK || name.starts_with(MARKER_TMP_PREFIX);
                    let held = entries.flatten().any(|entry| !ours(&entry.file_name().to_string_lossy()));
                    Ok(if held { Found::Unmarked } else { Found::Nothing })
                }
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Found::Nothing),
                Err(e) => Err(io(dir, "reading it")(e)),
            };
        }
        Err(e) => return Err(DataDirError::Marker { path, reason: e.to_string() }),
    };
    let marker: Marker = serde_json::from_slice(&text)
        .map_err(|e| DataDirError::Marker { path: path.clone(), reason: e.to_string() })?;
    if marker.format == 0 {
        return Err(DataDirError::Marker { path, reason: "format 0 does not exist".into() });
    }
    if marker.format > FORMAT {
        return Err(DataDirError::Newer {
            dir: dir.to_owned(),
            written_by: shown_version(&marker.written_by),
            format: marker.format,
            this: VERSION,
        });
    }
    Ok(Found::Marked(marker))
}

/// A version from the file, fit to show: it is whatever the file says.
fn shown_version(written: &str) -> String {
    let clean: String =
        written.chars().filter(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '+')).take(40).collect();
    if clean.is_empty() { "(a newer version)".to_owned() } else { clean }
}

fn upgrade_lock(dir: &Path) -> Result<std::fs::File, DataDirError> {
    let path = dir.join(UPGRADE_LOCK);
    let file = crate::paths::private_file_options()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .map_err(io(dir, "creating its upgrade lock"))?;
    file.lock().map_err(io(dir, "taking its upgrade lock"))?;
    Ok(file)
}

/// Writes this build's marker: a temporary file of this process's, synced, renamed over the marker (0600).
fn write_marker(dir: &Path) -> Result<(), DataDirError> {
    let marker = Marker { format: FORMAT, written_by: VERSION.to_owned() };
    let mut text = serde_json::to_vec_pretty(&marker).unwrap_or_default();
    text.push(b'\n');
    let path = marker_path(dir);
    let tmp = dir.join(format!("{MARKER_TMP_PREFIX}{}-{:08x}.tmp", std::process::id(), rand::random::<u32>()));
    let written = (|| {
        let mut file = crate::paths::private_file_options().write(true).create_new(true).open(&tmp)?;
        file.write_all(&text)?;
        file.sync_all()?;
        std::fs::rename(&tmp, &path)?;
        // The rename is durable once the dir is synced.
        std::fs::File::open(dir)?.sync_all()
    })();
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written.map_err(io(dir, "writing its format marker"))
}

fn io<'a>(dir: &'a Path, what: &'static str) -> impl FnOnce(std::io::Error) -> DataDirError + 'a {
    move |source| DataDirError::Io { dir: dir.to_owned(), what, source }
}

/// 1 → 2: the conversation store rewrites 0.1.0's tool calls (store schema 2); a dir without one has none.
fn conversations_to_2(dir: &Path) -> Result<(), StoreError> {
    let path = DataDir(dir.to_owned()).conversations();
    if path.exists() { Store::open(&path).map(drop) } else { Ok(()) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_dir_is_made_private_and_marked() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("a").join("data");
        let info = open(&dir).unwrap();
        assert_eq!(info.opened, Opened::New);
        let marker: serde_json::Value = serde_json::from_slice(&std::fs::read(marker_path(&dir)).unwrap()).unwrap();
        assert_eq!(marker, serde_json::json!({ "format": FORMAT, "written_by": VERSION }));
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            assert_eq!(std::fs::metadata(&dir).unwrap().permissions().mode() & 0o777, 0o700);
            assert_eq!(std::fs::metadata(marker_path(&dir)).unwrap().permissions().mode() & 0o777, 0o600);
        }
        assert_eq!(open(&dir).unwrap().opened, Opened::Current { written_by: VERSION.into() });
    }

    #[test]
    fn an_unmarked_dir_with_files_is_0_1_0s() {
        let tmp = tempfile::tempdir().unwrap();
        std::fs::write(tmp.path().join("budget.json"), "{}").unwrap();
        let info = open(tmp.path()).unwrap();
        assert_eq!(info.opened, Opened::Migrated { from_format: 1, written_by: "0.1.0".into() });
        assert_eq!(std::fs::read(tmp.path().join("budget.json")).unwrap(), b"{}", "not a file the steps know");
        assert!(!DataDir(tmp.path().to_owned()).conversations().exists(), "no store is made where there was none");
    }

    #[test]
    fn a_marker_that_is_not_one_is_refused() {
        for text in ["", "{", r#"{"format": "2"}"#, r#"{"format": 0, "written_by": "0.0.0"}"#] {
            let tmp = tempfile::tempdir().unwrap();
            std::fs::write(marker_path(tmp.path()), text).unwrap();
            let error = open(tmp.path()).unwrap_err();
            assert!(matches!(error, DataDirError::Marker { .. }), "{text:?}: {error:?}");
            assert_eq!(std::fs::read_dir(tmp.path()).unwrap().count(), 1, "nothing was added");
        }
    }

    #[test]
    fn a_newer_format_names_both_versions_in_the_owners_words() {
        let tmp = tempfile::tempdir().unwrap();
        std::fs::write(marker_path(tmp.path()), r#"{"format": 99, "written_by": "9.9.9\u001b[2J", "more": 1}"#)
            .unwrap();
        let error = open(tmp.path()).unwrap_err().to_string();
        assert_eq!(
            error,
            format!(
                "This data dir ({}) was written by AIUI 9.9.92J, which is newer than this AIUI {VERSION}: it was \
                 left exactly as it was. Install AIUI 9.9.92J or newer, or choose another data dir with --data-dir.",
                tmp.path().display()
            )
        );
    }
}
