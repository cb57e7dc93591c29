//! The one integration-test binary: cross-crate tests over real loopback HTTP (see `support` for the parts).

mod assistant;
mod budget;
mod builtin;
mod node_client;
mod routstr;
mod support;
