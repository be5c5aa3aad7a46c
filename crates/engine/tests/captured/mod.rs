//! What a protocol session writes, kept for the test to read: the writer handed to the
//! session as its output, and ways to read it back or wait for a line.

// Each test file that includes this module uses only part of it.
#![allow(dead_code)]

use std::io::Write;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use xiangqi_engine::protocol::Output;

/// A writer the test can read after the session has written to it.
#[derive(Clone, Default)]
pub struct Captured(Arc<Mutex<Vec<u8>>>);

impl Write for Captured {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Captured {
    /// The session output that writes here.
    pub fn output(&self) -> Output {
        Arc::new(Mutex::new(self.clone()))
    }

    /// Everything written so far.
    pub fn text(&self) -> String {
        String::from_utf8(self.0.lock().unwrap().clone()).unwrap()
    }

    /// Waits until the output holds `count` lines starting with `word`.
    pub fn wait_for(&self, word: &str, count: usize) {
        let deadline = Instant::now() + Duration::from_secs(30);
        while self.text().lines().filter(|l| l.starts_with(word)).count() < count {
            assert!(
                Instant::now() < deadline,
                "no '{word}' in:\n{}",
                self.text()
            );
            std::thread::sleep(Duration::from_millis(5));
        }
    }
}
