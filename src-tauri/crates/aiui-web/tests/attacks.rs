//! Issue 24's findings replayed as an attacker on the LAN would, over loopback from several source addresses
//! (127.0.0.0/8): each attack now fails, and the owner's own sign-in and approval go through while it runs.

mod support;

use std::net::{IpAddr, SocketAddr};
use std::time::Duration;

use aiui_web::LoginLimits;
use serde_json::{Value, json};
use support::{APPROVAL, Replies, fixture, harness, harness_with};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// A sign-in POSTed from `source` (a loopback address of the test's choosing), as a browser on another LAN host
/// would send it. Returns the HTTP status.
async fn login_from(source: IpAddr, base: &str, origin: &str, passphrase: &str) -> u16 {
    let rest = base.strip_prefix("http://").unwrap();
    let (authority, path) = rest.split_at(rest.find('/').unwrap());
    let server: SocketAddr = authority.parse().unwrap();
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.bind(SocketAddr::new(source, 0)).unwrap();
    let mut stream = socket.connect(server).await.unwrap();
    let body = json!({ "passphrase": passphrase }).to_string();
    let request = format!(
        "POST {path}api/login HTTP/1.1\r\nHost: {server}\r\nOrigin: {origin}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).await.unwrap();
    answer.split(' ').nth(1).and_then(|s| s.parse().ok()).unwrap_or(0)
}

#[tokio::test(flavor = "multi_thread")]
async fn strangers_failing_from_many_addresses_never_lock_the_owner_out_of_signing_in_or_approving() {
    let replies = vec![fixture("chat_call_restart_lnd.json"), fixture("chat_answer_restarted.json")];
    let h = harness(Replies::Script(replies), LoginLimits::default()).await;
    // The owner signed in before the attack, and a confirmation waits.
    let owner = h.sign_in(true).await;
    let chat = h.sign_in(false).await;
    let (_, started) = h.invoke(&chat, "chat_send", json!({ "conversation": null, "text": "restart lnd" })).await;
    let turn = started["turn"].as_str().unwrap().to_owned();
    h.events(&chat, &turn, "awaiting_confirmation").await;
    let (_, pending) = h.invoke(&owner, "trusted_pending", json!({})).await;
    let (id, hash) = (pending[0]["id"].as_str().unwrap().to_owned(), pending[0]["arguments_hash"].as_str().unwrap());

    // Five wrong tries from each of eight addresses (no passphrase needed): each address is stopped at its own 5.
    for n in 2..10u8 {
        let source = IpAddr::from([127, 0, 0, n]);
        for _ in 0..5 {
            assert_eq!(login_from(source, &h.trusted, &h.trusted_origin, "guess").await, 401);
        }
        assert_eq!(login_from(source, &h.trusted, &h.trusted_origin, "guess").await, 429, "127.0.0.{n} is held back");
    }
    // The owner, from their own address, still signs in.
    assert_eq!(login_from([127, 0, 0, 1].into(), &h.trusted, &h.trusted_origin, APPROVAL).await, 200);
    // And approves inside the session they had: others' failures do not count against it.
    tokio::time::sleep(aiui_web::APPROVE_DELAY).await;
    let decide = json!({ "id": id, "argumentsHash": hash, "answer": "approve", "secret": APPROVAL });
    let (status, verdict) = h.invoke(&owner, "trusted_decide", decide).await;
    assert_eq!((status, verdict), (200, json!("allowed")), "approved during the attack");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_totp_code_is_good_once_even_while_it_is_still_valid() {
    let h = harness_with(Replies::Script(Vec::new()), LoginLimits::default(), true, |_| {}).await;
    let totp = h.totp.clone().unwrap();
    let code = totp.generate_current().unwrap();
    assert_eq!(h.login(&h.trusted, &h.trusted_origin, &code).await.status(), 200, "a current code signs in");
    assert_eq!(h.login(&h.trusted, &h.trusted_origin, &code).await.status(), 401, "the same code again does not");
    // The previous step's code, still inside the window, is good once too.
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs();
    let previous = totp.generate(now - totp.step);
    if previous != code {
        assert_eq!(h.login(&h.trusted, &h.trusted_origin, &previous).await.status(), 200);
        assert_eq!(h.login(&h.trusted, &h.trusted_origin, &previous).await.status(), 401);
    }
    // Before sign-in, the service says nothing about a second factor.
    let session: Value = h.http.get(format!("{}api/session", h.trusted)).send().await.unwrap().json().await.unwrap();
    assert_eq!(session, json!({ "origin": "trusted", "signed_in": false }));
}

#[tokio::test(flavor = "multi_thread")]
async fn guessing_totp_codes_is_held_back_far_sooner_than_passphrases_and_the_passphrase_still_works() {
    let h = harness_with(Replies::Script(Vec::new()), LoginLimits::default(), true, |_| {}).await;
    let source = IpAddr::from([127, 0, 0, 7]);
    let totp = h.totp.clone().unwrap();
    let current = totp.generate_current().unwrap();
    let wrong: Vec<String> =
        (0..10).map(|n| format!("{:06}", n * 7919)).filter(|code| *code != current).take(4).collect();
    let mut statuses = Vec::new();
    for code in &wrong {
        statuses.push(login_from(source, &h.trusted, &h.trusted_origin, code).await);
    }
    assert_eq!(statuses, vec![401, 401, 401, 429], "three codes per ten minutes from one address");
    assert_eq!(login_from(source, &h.trusted, &h.trusted_origin, APPROVAL).await, 200, "the passphrase still signs in");
}

#[tokio::test(flavor = "multi_thread")]
async fn parallel_sign_ins_run_two_hashes_at_a_time_and_a_huge_passphrase_is_never_hashed() {
    let limits = LoginLimits { per_address: 1_000, overall: usize::MAX, window: Duration::from_secs(60) };
    let h = harness(Replies::Script(Vec::new()), limits).await;
    let tries: Vec<_> = (0..30)
        .map(|_| {
            let (http, url, origin) = (h.http.clone(), format!("{}api/login", h.trusted), h.trusted_origin.clone());
            tokio::spawn(async move {
                let body = json!({ "passphrase": "wrong-passphrase" });
                http.post(url).header("origin", origin).json(&body).send().await.unwrap().status().as_u16()
            })
        })
        .collect();
    let mut statuses = Vec::new();
    for task in tries {
        statuses.push(task.await.unwrap());
    }
    let hashed = statuses.iter().filter(|s| **s == 401).count();
    let refused = statuses.iter().filter(|s| **s == 429).count();
    assert_eq!(hashed + refused, 30, "{statuses:?}");
    assert!(refused > 0 && hashed >= 2, "some were refused fast rather than all hashed at once: {statuses:?}");
    let huge = "x".repeat(1 << 20);
    assert_eq!(h.login(&h.trusted, &h.trusted_origin, &huge).await.status(), 413);
    assert_eq!(h.login(&h.trusted, &h.trusted_origin, APPROVAL).await.status(), 200, "the owner still signs in");
}

/// A connection from `source` to `addr` that sends `bytes` and then nothing more.
async fn half_open(source: IpAddr, addr: SocketAddr, bytes: &[u8]) -> tokio::net::TcpStream {
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.bind(SocketAddr::new(source, 0)).unwrap();
    let mut stream = socket.connect(addr).await.unwrap();
    stream.write_all(bytes).await.unwrap();
    stream
}

fn socket_of(base: &str) -> SocketAddr {
    let rest = base.strip_prefix("http://").unwrap();
    rest[..rest.find('/').unwrap()].parse().unwrap()
}

#[tokio::test(flavor = "multi_thread")]
async fn half_sent_requests_are_cut_off_and_a_flooded_chat_origin_never_starves_the_owners() {
    let h = harness_with(Replies::Script(Vec::new()), LoginLimits::default(), false, |config| {
        config.header_read_timeout = Duration::from_secs(1);
        config.max_connections = (40, 20);
    })
    .await;
    let (chat, trusted) = (socket_of(&h.chat), socket_of(&h.trusted));
    // 60 half-sent requests and 20 silent connections on the chat origin, from several addresses.
    let mut flood = Vec::new();
    for n in 0..80u8 {
        let source = IpAddr::from([127, 0, 1, n % 8 + 1]);
        let bytes: &[u8] = if n < 60 { b"GET /aiui/ HTTP/1.1\r\nHost: x\r\nX-Slow: " } else { b"" };
        flood.push(half_open(source, chat, bytes).await);
    }
    // The owner's origin answers during the flood: sign-in works.
    assert_eq!(h.login(&h.trusted, &h.trusted_origin, APPROVAL).await.status(), 200, "the trusted origin answers");
    // Every flooding connection is closed by the service: beyond the cap at once, the rest after the timeout.
    let started = std::time::Instant::now();
    for mut stream in flood {
        let mut buf = [0u8; 512];
        let read = tokio::time::timeout(Duration::from_secs(5), stream.read(&mut buf)).await;
        assert!(matches!(read, Ok(Ok(_)) | Ok(Err(_))), "a half-open connection was left open: {read:?}");
    }
    assert!(started.elapsed() < Duration::from_secs(5), "closed by the header timeout, not by the test");
    // And the chat origin serves again once the flood is gone.
    let page = h.http.get(format!("{}api/session", h.chat)).send().await.unwrap();
    assert_eq!(page.status(), 200);
    // A connection that has done one request and then sits idle is closed too.
    let mut idle =
        half_open([127, 0, 0, 1].into(), trusted, b"GET /aiui/api/session HTTP/1.1\r\nHost: x\r\n\r\n").await;
    let mut answer = vec![0u8; 4096];
    let n = idle.read(&mut answer).await.unwrap();
    assert!(String::from_utf8_lossy(&answer[..n]).starts_with("HTTP/1.1 200"), "answered");
    let closed = tokio::time::timeout(Duration::from_secs(5), async {
        loop {
            match idle.read(&mut answer).await {
                Ok(0) | Err(_) => break,
                Ok(_) => continue,
            }
        }
    })
    .await;
    assert!(closed.is_ok(), "an idle keep-alive connection is closed after the timeout");
}
