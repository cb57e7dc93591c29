//! The `aiui-tests` package holds only integration tests; see `integration.rs`.
