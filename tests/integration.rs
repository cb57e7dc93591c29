//! The one integration-test binary: cross-crate tests over real loopback HTTP (see `support` for the parts).

mod adversarial;
mod assistant;
mod budget;
mod builtin;
mod datadir;
mod deploy;
mod discovery;
mod door;
mod node_client;
mod node_shapes;
mod routstr;
mod stopping;
mod streaming;
mod support;
mod web_wallet;
