//! Tests of the conversation store: round trips, restarts, ordering, damage and concurrency.

use std::collections::HashSet;
use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};
use std::thread;

use serde_json::json;

use super::*;
use crate::backends::{Cost, MalformedArguments, StepCost, ToolCall, Usage};

fn local() -> BackendId {
    BackendId::Local { model: "qwen2.5:7b".into() }
}

fn claude() -> BackendId {
    BackendId::Claude { model: "claude-sonnet-4".into() }
}

fn routstr() -> BackendId {
    BackendId::Routstr { provider: "routstr.example".into(), model: "gpt-4o".into() }
}

fn user(text: &str) -> Message {
    Message::User { text: text.into() }
}

/// A store whose clock ticks one millisecond per reading, so ordering does not depend on the machine's speed.
fn ticking_store() -> Store {
    let tick = AtomicI64::new(1_000);
    Store::open_in_memory().unwrap().with_clock(move || tick.fetch_add(1, Ordering::SeqCst))
}

/// Writes one of every kind of entry and returns the kinds in order.
fn fill(store: &Store, id: &ConversationId) -> Vec<EntryKind> {
    let kinds = vec![
        EntryKind::Message { message: user("how is my node?"), backend: None, cost: None },
        EntryKind::Message {
            message: Message::Assistant {
                text: "Let me look.".into(),
                tool_calls: vec![
                    ToolCall {
                        id: "call_1".into(),
                        name: "node_status".into(),
                        arguments: Ok(json!({"verbose": true})),
                    },
                    ToolCall {
                        id: "call_2".into(),
                        name: "list_packages".into(),
                        arguments: Err(MalformedArguments { reason: "not an object".into(), raw: "[1,".into() }),
                    },
                ],
            },
            backend: Some(local()),
            cost: Some(StepCost {
                usage: Usage { input_tokens: 90, output_tokens: 12, ..Usage::default() },
                cost: Cost::Free,
            }),
        },
        EntryKind::Message {
            message: Message::ToolResult {
                call_id: "call_1".into(),
                name: "node_status".into(),
                content: "{\"synced\":true}".into(),
                is_error: false,
            },
            backend: None,
            cost: None,
        },
        EntryKind::Message {
            message: Message::ToolResult {
                call_id: "call_2".into(),
                name: "list_packages".into(),
                content: "the arguments are not a JSON object".into(),
                is_error: true,
            },
            backend: None,
            cost: None,
        },
        EntryKind::Surface {
            call_id: Some("call_1".into()),
            surface: json!({"type": "node_status", "height": 840_000}),
        },
        EntryKind::Surface { call_id: None, surface: json!(["anything", 1, null]) },
        EntryKind::Notice { text: "The local model was busy; Claude answered.".into() },
        EntryKind::Message {
            message: Message::Assistant { text: "Your node is synced.".into(), tool_calls: vec![] },
            backend: Some(claude()),
            cost: Some(StepCost {
                usage: Usage {
                    input_tokens: 1804,
                    output_tokens: 22,
                    cache_write_tokens: 2048,
                    cache_read_tokens: 10_000,
                },
                cost: Cost::Usd { micros: 16_422 },
            }),
        },
        EntryKind::Message {
            message: Message::Assistant { text: "Via Routstr.".into(), tool_calls: vec![] },
            backend: Some(routstr()),
            cost: Some(StepCost { usage: Usage::default(), cost: Cost::Sats { sats: 12 } }),
        },
    ];
    for (i, kind) in kinds.iter().enumerate() {
        let seq = match kind {
            EntryKind::Message { message, backend, cost } => {
                store.append_answer(id, message, backend.as_ref(), cost.as_ref())
            }
            EntryKind::Surface { call_id, surface } => store.append_surface(id, call_id.as_deref(), surface),
            EntryKind::Notice { text } => store.append_notice(id, text),
        }
        .unwrap();
        assert_eq!(seq, i as i64 + 1);
    }
    kinds
}

#[test]
fn store_is_send_and_sync() {
    fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<Store>();
}

#[test]
fn ids_are_random_128_bit_hex() {
    let ids: HashSet<_> = (0..100).map(|_| ConversationId::random()).collect();
    assert_eq!(ids.len(), 100);
    for id in &ids {
        assert_eq!(id.0.len(), 32);
        assert!(id.0.chars().all(|c| c.is_ascii_hexdigit() && !c.is_ascii_uppercase()), "{id}");
        assert_eq!(id.to_string(), id.0);
    }
}

#[test]
fn every_entry_kind_round_trips_in_order() {
    let store = Store::open_in_memory().unwrap();
    let id = store.create_conversation("Node health").unwrap();
    let kinds = fill(&store, &id);

    let conversation = store.load(&id).unwrap();
    assert_eq!(conversation.id, id);
    assert_eq!(conversation.title, "Node health");
    assert_eq!(conversation.entries.iter().map(|e| e.seq).collect::<Vec<_>>(), (1..=9).collect::<Vec<_>>());
    assert_eq!(conversation.entries.iter().map(|e| e.kind.clone()).collect::<Vec<_>>(), kinds);
    assert!(conversation.entries.windows(2).all(|w| w[0].at_ms <= w[1].at_ms));

    let messages: Vec<Message> = kinds
        .into_iter()
        .filter_map(|kind| match kind {
            EntryKind::Message { message, .. } => Some(message),
            _ => None,
        })
        .collect();
    assert_eq!(messages.len(), 6);
    assert_eq!(conversation.messages(), messages);
}

#[test]
fn a_conversation_survives_a_process_restart() {
    let dir = tempfile::tempdir().unwrap();
    // A folder that does not exist yet, as on first start.
    let path = dir.path().join("data").join("conversations.sqlite3");

    let (list_before, first_before, second_before) = {
        let store = Store::open(&path).unwrap();
        let first = store.create_conversation("First").unwrap();
        fill(&store, &first);
        let second = store.create_conversation("Second").unwrap();
        store.append_message(&second, &user("hello"), None).unwrap();
        store.rename(&second, "Second, renamed").unwrap();
        (store.list_conversations().unwrap(), store.load(&first).unwrap(), store.load(&second).unwrap())
    };
    assert_eq!(list_before.len(), 2);

    let store = Store::open(&path).unwrap();
    assert_eq!(store.list_conversations().unwrap(), list_before);
    assert_eq!(store.load(&first_before.id).unwrap(), first_before);
    assert_eq!(store.load(&second_before.id).unwrap(), second_before);
    assert_eq!(second_before.title, "Second, renamed");
    // Appending after the restart continues the sequence.
    assert_eq!(store.append_notice(&first_before.id, "back again").unwrap(), 10);

    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&path).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600, "conversations are private");
    }
}

#[test]
fn opening_uses_wal_and_the_current_schema() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(&dir.path().join("c.sqlite3")).unwrap();
    let conn = store.conn.lock().unwrap();
    let mode: String = conn.pragma_query_value(None, "journal_mode", |row| row.get(0)).unwrap();
    assert_eq!(mode, "wal");
    let fk: bool = conn.pragma_query_value(None, "foreign_keys", |row| row.get(0)).unwrap();
    assert!(fk);
    let version: i64 = conn.pragma_query_value(None, "user_version", |row| row.get(0)).unwrap();
    assert_eq!(version, schema::VERSION);
}

#[test]
fn list_is_newest_first() {
    let store = ticking_store();
    assert!(store.list_conversations().unwrap().is_empty());
    let a = store.create_conversation("a").unwrap();
    let b = store.create_conversation("b").unwrap();
    let c = store.create_conversation("c").unwrap();
    let order = |store: &Store| store.list_conversations().unwrap().into_iter().map(|s| s.id).collect::<Vec<_>>();
    assert_eq!(order(&store), [c.clone(), b.clone(), a.clone()]);

    store.append_message(&a, &user("one"), None).unwrap();
    store.append_notice(&a, "not a message").unwrap();
    store.append_message(&a, &user("two"), None).unwrap();
    assert_eq!(order(&store), [a.clone(), c.clone(), b.clone()]);

    // Renaming is not activity.
    store.rename(&b, "b2").unwrap();
    assert_eq!(order(&store), [a.clone(), c.clone(), b.clone()]);

    let list = store.list_conversations().unwrap();
    assert_eq!(list[0].message_count, 2, "notices are not messages");
    assert_eq!(list[1].message_count, 0);
    assert_eq!(list[2].title, "b2");
    assert!(list[0].updated_at_ms > list[0].created_at_ms);
    assert_eq!(list[1].updated_at_ms, list[1].created_at_ms);
}

#[test]
fn unknown_ids_are_not_found() {
    let store = Store::open_in_memory().unwrap();
    let known = store.create_conversation("known").unwrap();
    let unknown = ConversationId::random();
    let not_found = |result: Result<(), StoreError>| match result {
        Err(StoreError::NotFound(id)) => assert_eq!(id, unknown),
        other => panic!("expected NotFound, got {other:?}"),
    };
    not_found(store.append_message(&unknown, &user("hi"), Some(&local())).map(drop));
    not_found(store.append_surface(&unknown, None, &json!({})).map(drop));
    not_found(store.append_notice(&unknown, "hi").map(drop));
    not_found(store.load(&unknown).map(drop));
    not_found(store.rename(&unknown, "x"));
    assert_eq!(StoreError::NotFound(unknown.clone()).to_string(), format!("conversation {unknown} was not found"));
    // Nothing leaked into the known conversation or the list.
    assert_eq!(store.list_conversations().unwrap().len(), 1);
    assert!(store.load(&known).unwrap().entries.is_empty());
}

#[test]
fn unreadable_rows_are_skipped_not_fatal() {
    let store = Store::open_in_memory().unwrap();
    let id = store.create_conversation("damaged").unwrap();
    for text in ["one", "two", "three", "four", "five"] {
        store.append_message(&id, &user(text), Some(&local())).unwrap();
    }
    {
        let conn = store.conn.lock().unwrap();
        let set = |column: &str, value: &str, seq: i64| {
            conn.execute(
                &format!("UPDATE entries SET {column} = ?1 WHERE conversation_id = ?2 AND seq = ?3"),
                params![value, id.0, seq],
            )
            .unwrap();
        };
        set("body_json", "{\"role\":\"user\",\"te", 2); // truncated
        set("body_json", "{\"role\":\"hologram\",\"text\":\"from the future\"}", 3); // a newer variant
        set("backend_json", "{\"kind\":\"quantum\"}", 4); // only the label is unreadable
        conn.execute(
            "INSERT INTO entries (conversation_id, seq, at_ms, kind, backend_json, body_json)
             VALUES (?1, 6, 0, 'poll', NULL, '{}')",
            [&id.0],
        )
        .unwrap();
        conn.execute(
            "INSERT INTO entries (conversation_id, seq, at_ms, kind, backend_json, body_json)
             VALUES (?1, 7, 'not a number', 'notice', NULL, '{\"text\":\"x\"}')",
            [&id.0],
        )
        .unwrap();
    }

    let conversation = store.load(&id).unwrap();
    assert_eq!(conversation.entries.iter().map(|e| e.seq).collect::<Vec<_>>(), [1, 4, 5]);
    assert_eq!(conversation.messages(), [user("one"), user("four"), user("five")]);
    assert_eq!(conversation.entries[1].kind, EntryKind::Message { message: user("four"), backend: None, cost: None });
    assert_eq!(
        conversation.entries[2].kind,
        EntryKind::Message { message: user("five"), backend: Some(local()), cost: None }
    );

    // The damage does not block appending either.
    assert_eq!(store.append_notice(&id, "still here").unwrap(), 8);
    assert_eq!(store.load(&id).unwrap().entries.len(), 4);
}

#[test]
fn concurrent_appends_get_unique_increasing_seqs() {
    const THREADS: usize = 4;
    const EACH: usize = 25;
    let dir = tempfile::tempdir().unwrap();
    let store = Arc::new(Store::open(&dir.path().join("c.sqlite3")).unwrap());
    let id = store.create_conversation("busy").unwrap();

    let handles: Vec<_> = (0..THREADS)
        .map(|t| {
            let (store, id) = (Arc::clone(&store), id.clone());
            thread::spawn(move || {
                (0..EACH)
                    .map(|i| store.append_message(&id, &user(&format!("{t}-{i}")), None).unwrap())
                    .collect::<Vec<_>>()
            })
        })
        .collect();
    let mut all = Vec::new();
    for handle in handles {
        let seqs = handle.join().unwrap();
        assert!(seqs.windows(2).all(|w| w[0] < w[1]), "each thread sees its seqs increase: {seqs:?}");
        all.extend(seqs);
    }
    all.sort_unstable();
    assert_eq!(all, (1..=(THREADS * EACH) as i64).collect::<Vec<_>>());

    let conversation = store.load(&id).unwrap();
    assert_eq!(conversation.entries.len(), THREADS * EACH);
    // Each thread's messages are stored in the order it sent them.
    for t in 0..THREADS {
        let mine: Vec<_> = conversation
            .messages()
            .into_iter()
            .filter_map(|m| match m {
                Message::User { text } if text.starts_with(&format!("{t}-")) => Some(text),
                _ => None,
            })
            .collect();
        assert_eq!(mine, (0..EACH).map(|i| format!("{t}-{i}")).collect::<Vec<_>>());
    }
}

#[test]
fn two_stores_on_one_file_do_not_collide() {
    // As two processes would: separate connections, so only SQLite's locking keeps the seqs apart.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("c.sqlite3");
    let first = Arc::new(Store::open(&path).unwrap());
    let second = Arc::new(Store::open(&path).unwrap());
    let id = first.create_conversation("shared").unwrap();

    let handles: Vec<_> = [first.clone(), second.clone(), first, second]
        .into_iter()
        .map(|store| {
            let id = id.clone();
            thread::spawn(move || (0..20).map(|_| store.append_notice(&id, "n").unwrap()).collect::<Vec<_>>())
        })
        .collect();
    let mut all: Vec<i64> = handles.into_iter().flat_map(|h| h.join().unwrap()).collect();
    all.sort_unstable();
    assert_eq!(all, (1..=80).collect::<Vec<_>>());
}

#[test]
fn a_full_disk_is_reported_in_plain_words() {
    let store = Store::open_in_memory().unwrap();
    let id = store.create_conversation("big").unwrap();
    {
        // Cap the database at its current size: the next page it needs is SQLITE_FULL, as on a full disk.
        let conn = store.conn.lock().unwrap();
        let pages: i64 = conn.pragma_query_value(None, "page_count", |row| row.get(0)).unwrap();
        conn.pragma_update(None, "max_page_count", pages).unwrap();
    }
    let error = store.append_notice(&id, &"x".repeat(100_000)).unwrap_err();
    assert!(matches!(error, StoreError::DiskFull), "{error:?}");
    assert_eq!(error.to_string(), "the disk is full: the conversation could not be saved; free space and try again");
    // The failed append left nothing half-written.
    assert!(store.load(&id).unwrap().entries.is_empty());
}

#[test]
fn a_file_that_is_not_a_database_is_corrupt() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("c.sqlite3");
    std::fs::write(&path, vec![0x5a; 8192]).unwrap();
    match Store::open(&path) {
        Err(StoreError::Corrupt { path: reported }) => assert_eq!(reported, path),
        other => panic!("expected Corrupt, got {other:?}"),
    }
}

#[test]
fn a_newer_schema_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("c.sqlite3");
    drop(Store::open(&path).unwrap());
    Connection::open(&path).unwrap().pragma_update(None, "user_version", schema::VERSION + 1).unwrap();
    match Store::open(&path) {
        Err(StoreError::TooNew { found, supported, .. }) => {
            assert_eq!((found, supported), (schema::VERSION + 1, schema::VERSION));
        }
        other => panic!("expected TooNew, got {other:?}"),
    }
}

#[test]
fn recent_messages_are_the_tail_from_an_owner_message_without_notices_or_surfaces() {
    let store = ticking_store();
    let id = store.create_conversation("long").unwrap();
    for i in 0..50 {
        store.append_message(&id, &user(&format!("q{i}")), None).unwrap();
        let call = ToolCall { id: format!("c{i}"), name: "package_list".into(), arguments: Ok(json!({})) };
        store
            .append_message(&id, &Message::Assistant { text: String::new(), tool_calls: vec![call] }, Some(&local()))
            .unwrap();
        store.append_notice(&id, "a notice").unwrap();
        store.append_surface(&id, Some(&format!("c{i}")), &json!({"kind": "apps"})).unwrap();
        let result = Message::ToolResult {
            call_id: format!("c{i}"),
            name: "package_list".into(),
            content: "[]".into(),
            is_error: false,
        };
        store.append_message(&id, &result, None).unwrap();
    }
    let all = store.load(&id).unwrap().messages();
    assert_eq!(store.recent_messages(&id, 1000).unwrap(), all, "a window larger than the conversation is all of it");
    // 7 messages end in the middle of exchange 47: the window starts at the next owner message instead.
    let tail = store.recent_messages(&id, 7).unwrap();
    assert_eq!(tail, all[all.len() - 6..], "whole exchanges only: {tail:?}");
    assert_eq!(tail[0], user("q48"));
    assert!(store.recent_messages(&id, 0).unwrap().is_empty());
    assert!(matches!(store.recent_messages(&ConversationId::random(), 5), Err(StoreError::NotFound(_))));
}

#[test]
fn a_kept_window_reads_what_another_store_appended_as_a_fresh_read_would() {
    // As the desktop app, the CLI and the node service would: separate connections, each keeping its own window.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("c.sqlite3");
    let turns = Store::open(&path).unwrap();
    let other = Store::open(&path).unwrap();
    let id = turns.create_conversation("shared").unwrap();
    const WINDOW: usize = 9;
    for i in 0..40 {
        let writer = if i % 3 == 0 { &other } else { &turns };
        writer.append_message(&id, &user(&format!("q{i}")), None).unwrap();
        let call = ToolCall { id: format!("c{i}"), name: "package_list".into(), arguments: Ok(json!({})) };
        let asked = Message::Assistant { text: String::new(), tool_calls: vec![call] };
        writer.append_message(&id, &asked, Some(&local())).unwrap();
        if i % 5 == 0 {
            // A row this version cannot read, written by a newer one: skipped by both reads alike.
            let conn = other.conn.lock().unwrap();
            conn.execute(
                "INSERT INTO entries (conversation_id, seq, at_ms, kind, body_json)
                 VALUES (?1, (SELECT MAX(seq) + 1 FROM entries WHERE conversation_id = ?1), 0, 'message', '{\"role\":\"x\"}')",
                [&id.0],
            )
            .unwrap();
        }
        other.append_notice(&id, "a notice").unwrap();
        let result = Message::ToolResult {
            call_id: format!("c{i}"),
            name: "package_list".into(),
            content: format!("[{i}]"),
            is_error: false,
        };
        writer.append_message(&id, &result, None).unwrap();
        // Every few appends, so rows from both stores arrive between two reads of the window.
        if i % 2 == 0 {
            let fresh = Store::open(&path).unwrap().recent_messages(&id, WINDOW).unwrap();
            assert_eq!(turns.recent_messages(&id, WINDOW).unwrap(), fresh, "after exchange {i}");
        }
    }
    let fresh = Store::open(&path).unwrap().recent_messages(&id, WINDOW).unwrap();
    assert_eq!(turns.recent_messages(&id, WINDOW).unwrap(), fresh);
    assert_eq!(fresh[0], user("q37"), "{fresh:?}");
}

const CHILD_STORE: &str = "AIUI_STORE_CHILD_PATH";
const CHILD_CONVERSATION: &str = "AIUI_STORE_CHILD_CONVERSATION";
/// The child appends this many rows, waits for the parent's go-ahead file beside the store, then as many again.
const CHILD_HALF: usize = 75;

fn go_ahead(store: &Path) -> PathBuf {
    store.with_extension("go")
}

/// Not a test of its own: the other process of the test below, appending to the conversation it is named. Without
/// `AIUI_STORE_CHILD_PATH` (an ordinary test run) it returns at once.
#[test]
fn store_child_process_appends() {
    let Ok(path) = std::env::var(CHILD_STORE) else { return };
    let path = PathBuf::from(path);
    let id = ConversationId(std::env::var(CHILD_CONVERSATION).expect("the parent names the conversation"));
    let store = Store::open(&path).expect("the child opens the store");
    for i in 0..2 * CHILD_HALF {
        if i == CHILD_HALF {
            let waited = std::time::Instant::now();
            while !go_ahead(&path).exists() {
                assert!(waited.elapsed().as_secs() < 60, "the parent never read the first half");
                thread::sleep(std::time::Duration::from_millis(2));
            }
        }
        store.append_message(&id, &user(&format!("from the other process {i}")), None).expect("appended");
    }
}

#[test]
fn a_kept_window_reads_what_another_process_appends_meanwhile() {
    // The desktop app, the CLI and the node service are separate processes on one file: the window this process
    // keeps must take in every row the other appends between its reads and while it reads, none twice, none lost.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("c.sqlite3");
    let turns = Store::open(&path).unwrap();
    let id = turns.create_conversation("shared").unwrap();
    turns.append_message(&id, &user("first"), None).unwrap();
    const WINDOW: usize = 10_000;
    assert_eq!(turns.recent_messages(&id, WINDOW).unwrap().len(), 1);
    let mut child = std::process::Command::new(std::env::current_exe().expect("the test binary"))
        .args(["--exact", "store::tests::store_child_process_appends", "--test-threads=1"])
        .env(CHILD_STORE, &path)
        .env(CHILD_CONVERSATION, &id.0)
        .stdout(std::process::Stdio::null())
        .spawn()
        .expect("the other process starts");
    let mut mine = 0;
    let started = std::time::Instant::now();
    let status = loop {
        turns.append_message(&id, &user(&format!("from this process {mine}")), None).unwrap();
        mine += 1;
        let kept = turns.recent_messages(&id, WINDOW).unwrap();
        // Each process's rows, in the order it wrote them, with no gap and none twice.
        let numbered = |prefix: &str| -> Vec<usize> {
            kept.iter()
                .filter_map(|m| match m {
                    Message::User { text } => text.strip_prefix(prefix).map(|n| n.parse().unwrap()),
                    _ => None,
                })
                .collect()
        };
        let (own, from_child) = (numbered("from this process "), numbered("from the other process "));
        assert_eq!(own, (0..mine).collect::<Vec<_>>());
        assert_eq!(from_child, (0..from_child.len()).collect::<Vec<_>>(), "the other process's rows, none lost");
        assert_eq!(kept.len(), 1 + own.len() + from_child.len());
        // The first half is in the kept window: let the other process go on, so the second half arrives after
        // this window was read, and while it is read again.
        if from_child.len() == CHILD_HALF && !go_ahead(&path).exists() {
            std::fs::write(go_ahead(&path), b"").unwrap();
        }
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        assert!(started.elapsed().as_secs() < 120, "the other process did not finish");
    };
    assert!(status.success(), "the other process appended all it had to");
    assert!(go_ahead(&path).exists(), "the window was read between the other process's two halves");
    let kept = turns.recent_messages(&id, WINDOW).unwrap();
    let fresh = Store::open(&path).unwrap().recent_messages(&id, WINDOW).unwrap();
    assert_eq!(kept, fresh, "the kept window is what a fresh read finds");
    assert_eq!(kept.len(), 1 + mine + 2 * CHILD_HALF);
}

/// The `body_json` of every message row, in order.
fn raw_message_bodies(store: &Store, id: &ConversationId) -> Vec<serde_json::Value> {
    let conn = store.conn.lock().unwrap();
    let mut stmt = conn
        .prepare("SELECT body_json FROM entries WHERE conversation_id = ?1 AND kind = 'message' ORDER BY seq")
        .unwrap();
    stmt.query_map([&id.0], |row| row.get::<_, String>(0))
        .unwrap()
        .map(|body| serde_json::from_str(&body.unwrap()).unwrap())
        .collect()
}

#[test]
fn a_tool_call_is_stored_in_the_stores_own_shape() {
    let store = Store::open_in_memory().unwrap();
    let id = store.create_conversation("shape").unwrap();
    fill(&store, &id);
    let calls = raw_message_bodies(&store, &id)[1]["tool_calls"].clone();
    assert_eq!(
        calls,
        json!([
            {"id": "call_1", "name": "node_status", "input": {"arguments": {"verbose": true}}},
            {"id": "call_2", "name": "list_packages", "input": {"refused": {"reason": "not an object", "raw": "[1,"}}},
        ])
    );
}

#[test]
fn arguments_that_look_like_a_result_stay_what_the_model_sent() {
    // A model may send `{"Ok": …}` as its arguments: stored under `input`, it cannot be taken for 0.1.0's form.
    let store = Store::open_in_memory().unwrap();
    let id = store.create_conversation("lookalike").unwrap();
    let call = ToolCall { id: "c".into(), name: "package_logs".into(), arguments: Ok(json!({"Ok": {"id": "lnd"}})) };
    let message = Message::Assistant { text: String::new(), tool_calls: vec![call] };
    store.append_message(&id, &message, None).unwrap();
    assert_eq!(store.load(&id).unwrap().messages(), [message]);
}

/// The 0.1.0 fixture's conversation store, copied where a test may change it.
fn store_written_by_0_1_0() -> (tempfile::TempDir, PathBuf) {
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../fixtures/datadir/0.1.0/conversations.sqlite3");
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("conversations.sqlite3");
    std::fs::copy(&fixture, &path).unwrap_or_else(|e| panic!("{}: {e}", fixture.display()));
    (dir, path)
}

#[test]
fn a_store_written_by_0_1_0_is_migrated_and_reads_the_same() {
    let (_dir, path) = store_written_by_0_1_0();
    let before: Vec<String> = {
        let conn = Connection::open(&path).unwrap();
        assert_eq!(conn.pragma_query_value(None, "user_version", |row| row.get::<_, i64>(0)).unwrap(), 1);
        let mut stmt = conn.prepare("SELECT body_json FROM entries ORDER BY conversation_id, seq").unwrap();
        stmt.query_map([], |row| row.get(0)).unwrap().map(Result::unwrap).collect()
    };
    assert!(before.iter().any(|body| body.contains(r#""arguments":{"Ok":"#)), "the fixture holds 0.1.0's form");
    assert!(before.iter().any(|body| body.contains(r#""arguments":{"Err":"#)), "the fixture holds 0.1.0's form");

    let store = Store::open(&path).unwrap();
    let version: i64 = store.conn.lock().unwrap().pragma_query_value(None, "user_version", |row| row.get(0)).unwrap();
    assert_eq!(version, schema::VERSION);
    let list = store.list_conversations().unwrap();
    let restart = list.iter().find(|c| c.title == "restart lnd").expect("the fixture's conversation");
    let bodies = raw_message_bodies(&store, &restart.id);
    let text = serde_json::to_string(&bodies).unwrap();
    assert!(!text.contains(r#""Ok""#) && !text.contains(r#""Err""#), "{text}");
    let calls: Vec<&serde_json::Value> = bodies.iter().filter_map(|b| b["tool_calls"].as_array()).flatten().collect();
    assert_eq!(calls.len(), 3);
    assert!(calls.iter().all(|call| call.get("arguments").is_none()), "{calls:?}");
    assert_eq!(calls[2]["input"], json!({"arguments": {"id": "lnd"}}));
    assert_eq!(calls[1]["input"]["refused"]["raw"], r#"{"id": "lnd""#);

    let messages = store.load(&restart.id).unwrap().messages();
    let Message::Assistant { tool_calls, .. } = &messages[4] else { panic!("{messages:?}") };
    assert_eq!(tool_calls[0].arguments, Ok(json!({"id": "lnd"})));
    let Message::Assistant { tool_calls, .. } = &messages[1] else { panic!("{messages:?}") };
    assert!(tool_calls.iter().all(|call| call.arguments.is_err()), "{tool_calls:?}");
    // Every row but the rewritten ones is byte for byte what 0.1.0 wrote.
    let after: Vec<String> = {
        let conn = store.conn.lock().unwrap();
        let mut stmt = conn.prepare("SELECT body_json FROM entries ORDER BY conversation_id, seq").unwrap();
        stmt.query_map([], |row| row.get(0)).unwrap().map(Result::unwrap).collect()
    };
    let unchanged = before.iter().zip(&after).filter(|(b, a)| b == a).count();
    assert_eq!(unchanged, before.len() - 2, "only the two assistant rows with tool calls changed");
}

#[test]
fn a_row_in_0_1_0s_form_written_after_the_migration_still_loads() {
    // A 0.1.0 process that had the file open before the upgrade keeps its connection, and can append one more row.
    let (_dir, path) = store_written_by_0_1_0();
    let store = Store::open(&path).unwrap();
    let id = store.create_conversation("late").unwrap();
    let old = r#"{"role":"assistant","text":"","tool_calls":[{"id":"a","name":"package_logs","arguments":{"Ok":{"id":"lnd"}}},{"id":"b","name":"package_logs","arguments":{"Err":{"reason":"why","raw":"[1,"}}}]}"#;
    store.conn.lock().unwrap().execute(
        "INSERT INTO entries (conversation_id, seq, at_ms, kind, backend_json, body_json) VALUES (?1, 1, 0, 'message', NULL, ?2)",
        params![id.0, old],
    )
    .unwrap();
    let calls = vec![
        ToolCall { id: "a".into(), name: "package_logs".into(), arguments: Ok(json!({"id": "lnd"})) },
        ToolCall {
            id: "b".into(),
            name: "package_logs".into(),
            arguments: Err(MalformedArguments { reason: "why".into(), raw: "[1,".into() }),
        },
    ];
    assert_eq!(store.load(&id).unwrap().messages(), [Message::Assistant { text: String::new(), tool_calls: calls }]);
}

#[test]
fn the_migration_leaves_rows_it_cannot_read_as_they_were() {
    let (_dir, path) = store_written_by_0_1_0();
    let damaged = [
        ("message", "{\"role\":\"assistant\",\"te"),
        ("message", r#"{"role":"assistant","text":"","tool_calls":[{"id":"x","name":"n","arguments":{"Maybe":1}}]}"#),
        ("message", r#"{"role":"hologram","tool_calls":[{"arguments":{"Ok":{}}}]}"#),
    ];
    let id = {
        let conn = Connection::open(&path).unwrap();
        let id: String = conn.query_row("SELECT id FROM conversations LIMIT 1", [], |row| row.get(0)).unwrap();
        for (n, (kind, body)) in damaged.iter().enumerate() {
            conn.execute(
                "INSERT INTO entries (conversation_id, seq, at_ms, kind, backend_json, body_json) VALUES (?1, ?2, 0, ?3, NULL, ?4)",
                params![id, 100 + n as i64, kind, body],
            )
            .unwrap();
        }
        // Not even text: the migration must not fail on it.
        conn.execute(
            "INSERT INTO entries (conversation_id, seq, at_ms, kind, backend_json, body_json) VALUES (?1, 200, 0, 'message', NULL, x'00ff')",
            [&id],
        )
        .unwrap();
        id
    };
    let store = Store::open(&path).unwrap();
    let conn = store.conn.lock().unwrap();
    for (n, (_, body)) in damaged.iter().enumerate() {
        let now: String = conn
            .query_row(
                "SELECT body_json FROM entries WHERE conversation_id = ?1 AND seq = ?2",
                params![id, 100 + n as i64],
                |row| row.get(0),
            )
            .unwrap();
        assert_eq!(now, *body);
    }
}
