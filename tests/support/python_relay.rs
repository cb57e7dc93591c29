//! A relay written by others: the Python `nostr_relay` 1.14 from PyPI, which `scripts/setup` installs into a
//! venv, started on loopback with its own SQLite file. A missing install fails the test and says how to fix it.

use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Where `scripts/setup` puts the venv; `AIUI_NOSTR_RELAY` overrides the program's path.
pub fn program() -> PathBuf {
    if let Some(path) = std::env::var_os("AIUI_NOSTR_RELAY") {
        return PathBuf::from(path);
    }
    let home = std::env::var_os("HOME").map(PathBuf::from).unwrap_or_else(|| PathBuf::from("/root"));
    home.join(".cache/aiui/nostr-relay-venv/bin/nostr-relay")
}

pub struct PythonRelay {
    pub url: String,
    child: Child,
    dir: tempfile::TempDir,
}

impl Drop for PythonRelay {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl PythonRelay {
    /// Starts the relay and waits until it accepts connections (its database migration runs first).
    pub fn start() -> Self {
        let program = program();
        assert!(
            program.exists(),
            "the Python nostr_relay is not installed at {}: run scripts/setup, which installs nostr-relay==1.14 \
             from PyPI into that venv (or point AIUI_NOSTR_RELAY at its `nostr-relay` program)",
            program.display()
        );
        let dir = tempfile::tempdir().unwrap();
        let port = {
            let probe = TcpListener::bind(SocketAddr::from(([127, 0, 0, 1], 0))).unwrap();
            probe.local_addr().unwrap().port()
        };
        let config = format!(
            "DEBUG: false\nrelay_name: aiui test relay\nstorage:\n  sqlalchemy.url: sqlite+aiosqlite:///{db}\n  \
             validators:\n    - nostr_relay.validators.is_signed\n    - nostr_relay.validators.is_recent\n\
             verification:\n  nip05_verification: disabled\ngunicorn:\n  bind: 127.0.0.1:{port}\n  workers: 1\n  \
             loglevel: warning\nauthentication:\n  enabled: false\nlogging:\n  version: 1\n  root: {{level: WARNING}}\n",
            db = dir.path().join("nostr.sqlite3").display(),
        );
        let config_path = dir.path().join("config.yaml");
        std::fs::write(&config_path, config).unwrap();
        let log = std::fs::File::create(dir.path().join("relay.log")).unwrap();
        let child = Command::new(&program)
            .arg("-c")
            .arg(&config_path)
            .arg("serve")
            .current_dir(dir.path())
            .stdin(Stdio::null())
            .stdout(log.try_clone().unwrap())
            .stderr(log)
            .spawn()
            .unwrap_or_else(|e| panic!("{} did not start: {e}", program.display()));
        let mut relay = Self { url: format!("ws://127.0.0.1:{port}"), child, dir };
        let deadline = Instant::now() + Duration::from_secs(60);
        while TcpStream::connect(SocketAddr::from(([127, 0, 0, 1], port))).is_err() {
            if let Ok(Some(status)) = relay.child.try_wait() {
                panic!("the Python relay exited ({status}):\n{}", relay.log());
            }
            assert!(Instant::now() < deadline, "the Python relay did not listen within 60 s:\n{}", relay.log());
            std::thread::sleep(Duration::from_millis(100));
        }
        relay
    }

    /// What the relay printed, for a failing test's message.
    pub fn log(&self) -> String {
        std::fs::read_to_string(self.dir.path().join("relay.log")).unwrap_or_default()
    }
}
