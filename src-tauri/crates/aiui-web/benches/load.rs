//! The load bench (filled in below).
fn main() {}
