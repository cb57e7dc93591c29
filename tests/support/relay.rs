//! A real Nostr relay in-process on loopback (nostr-relay-builder), that counts the REQs it answers and lets a
//! test plant events the relay itself would refuse (a forged signature), as a hostile relay could serve them.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use nostr_relay_builder::prelude::*;

#[derive(Debug, Default)]
struct CountQueries(Arc<AtomicUsize>);

impl QueryPolicy for CountQueries {
    fn admit_query<'a>(&'a self, _query: &'a Filter, _addr: &'a std::net::SocketAddr) -> BoxedFuture<'a, PolicyResult> {
        self.0.fetch_add(1, Ordering::SeqCst);
        Box::pin(async { PolicyResult::Accept })
    }
}

pub struct TestRelay {
    /// The relay stops when this is dropped.
    _relay: LocalRelay,
    pub url: String,
    database: Arc<MemoryDatabase>,
    queries: Arc<AtomicUsize>,
}

impl TestRelay {
    pub async fn start() -> Self {
        let queries = Arc::new(AtomicUsize::new(0));
        let database = Arc::new(MemoryDatabase::with_opts(MemoryDatabaseOptions { events: true, max_events: None }));
        let builder = RelayBuilder::default()
            .addr(std::net::IpAddr::from([127, 0, 0, 1]))
            .database(database.clone())
            .query_policy(CountQueries(queries.clone()));
        let relay = LocalRelay::new(builder);
        relay.run().await.expect("the test relay starts");
        let url = relay.url().await.to_string();
        Self { _relay: relay, url, database, queries }
    }

    /// REQs the relay has answered so far.
    pub fn queries(&self) -> usize {
        self.queries.load(Ordering::SeqCst)
    }

    /// Stores an event as it is, without the checks the relay applies to published events.
    pub async fn plant(&self, event: &Event) {
        self.database.save_event(event).await.expect("the relay's database stores the event");
    }
}
