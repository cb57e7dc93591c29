//! Captures every tracing event of the test process (all levels, all targets) into one buffer tests can search.
//!
//! One global subscriber, not a thread-local one per test: tracing caches per-callsite interest, and a scoped
//! subscriber racing other test threads can miss events. A test takes a mark and reads what came after it (which
//! may include concurrent tests' events: for a leak check, more text only makes the check stricter).

use std::io;
use std::sync::{Arc, Mutex, OnceLock};

use tracing_subscriber::fmt::MakeWriter;

#[derive(Clone, Default)]
pub struct Captured(Arc<Mutex<Vec<u8>>>);

impl Captured {
    /// Where the buffer ends now.
    pub fn mark(&self) -> usize {
        self.0.lock().expect("capture lock").len()
    }

    /// Everything logged since `mark`.
    pub fn since(&self, mark: usize) -> String {
        String::from_utf8_lossy(&self.0.lock().expect("capture lock")[mark..]).into_owned()
    }
}

impl io::Write for Captured {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.lock().expect("capture lock").extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl<'a> MakeWriter<'a> for Captured {
    type Writer = Captured;

    fn make_writer(&'a self) -> Self::Writer {
        self.clone()
    }
}

/// The process-wide capture, installed on first use at TRACE level.
pub fn global() -> Captured {
    static GLOBAL: OnceLock<Captured> = OnceLock::new();
    GLOBAL
        .get_or_init(|| {
            let captured = Captured::default();
            tracing_subscriber::fmt()
                .with_max_level(tracing::Level::TRACE)
                .with_writer(captured.clone())
                .with_ansi(false)
                .try_init()
                .expect("no other global subscriber in the test binary");
            captured
        })
        .clone()
}
