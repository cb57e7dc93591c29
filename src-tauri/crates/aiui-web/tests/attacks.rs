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
#[allow(clippy::print_stdout, reason = "the RSS figure is the acceptance's printed number")]
async fn parallel_sign_ins_run_two_hashes_at_a_time_and_a_huge_passphrase_is_never_hashed() {
    let limits = LoginLimits { per_address: 1_000, overall: usize::MAX, window: Duration::from_secs(60) };
    let h = harness(Replies::Script(Vec::new()), limits).await;
    let before = rss_mib();
    let peak = std::sync::Arc::new(std::sync::atomic::AtomicU64::new(before));
    let sampler = {
        let peak = peak.clone();
        tokio::spawn(async move {
            loop {
                peak.fetch_max(rss_mib(), std::sync::atomic::Ordering::Relaxed);
                tokio::time::sleep(Duration::from_millis(5)).await;
            }
        })
    };
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
    sampler.abort();
    let peak = peak.load(std::sync::atomic::Ordering::Relaxed);
    println!(
        "30 parallel sign-ins: RSS {before} MiB before, {peak} MiB at the peak ({hashed} hashed, {refused} refused)"
    );
    // Two argon2 checks at 19 MiB each, with room for the allocator: nowhere near 30 x 19 MiB.
    assert!(peak < before + 120, "RSS grew from {before} to {peak} MiB");
    let huge = "x".repeat(1 << 20);
    assert_eq!(h.login(&h.trusted, &h.trusted_origin, &huge).await.status(), 413);
    assert_eq!(h.login(&h.trusted, &h.trusted_origin, APPROVAL).await.status(), 200, "the owner still signs in");
}

/// This process's resident set, in MiB.
fn rss_mib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let line = status.lines().find(|l| l.starts_with("VmRSS:")).unwrap();
    line.split_whitespace().nth(1).unwrap().parse::<u64>().unwrap() / 1024
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
        let bytes: &[u8] = if n < 60 { b"GET /aiui/ HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " } else { b"" };
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
        half_open([127, 0, 0, 1].into(), trusted, b"GET /aiui/api/session HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n").await;
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

#[tokio::test(flavor = "multi_thread")]
async fn an_event_stream_flood_is_refused_past_its_cap_and_the_owner_still_decides() {
    let replies = vec![fixture("chat_call_restart_lnd.json"), fixture("chat_answer_restarted.json")];
    let h = harness(Replies::Script(replies), LoginLimits::default()).await;
    let owner = h.sign_in(true).await;
    let chat = h.sign_in(false).await;
    let turn = h.awaiting_restart(&chat).await;
    let open = || h.http.get(format!("{}api/turns/{turn}/events", chat.base)).header("cookie", &chat.cookie).send();
    // A page needs one stream, a reconnect two: those are served and held open. The stream `awaiting_restart` read
    // was closed by this side, and its place is free only once the service has seen the close, which on a loaded
    // machine can take a moment (at the latest the next keep-alive write, 15 s): until then one of the two is
    // refused, so each is asked for again until served.
    let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
    let mut held = Vec::new();
    while held.len() < 2 {
        let response = open().await.unwrap();
        if response.status() == 200 {
            held.push(response);
            continue;
        }
        assert_eq!(response.status(), 429, "a stream is either served or refused for the cap");
        assert!(tokio::time::Instant::now() < deadline, "the closed stream's place was never freed");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    // 115 more, as the attack opened: each refused at once, none held.
    let mut refused = 0;
    for _ in 0..115 {
        let response = open().await.unwrap();
        assert_eq!(response.status(), 429, "a stream past the cap is refused");
        refused += 1;
    }
    assert_eq!(refused, 115);
    // The owner decides during the flood.
    let (id, hash, _) = h.first_pending(&owner).await;
    tokio::time::sleep(aiui_web::APPROVE_DELAY).await;
    let decide = json!({ "id": id, "argumentsHash": hash, "answer": "approve", "secret": APPROVAL });
    let (status, verdict) = h.invoke(&owner, "trusted_decide", decide).await;
    assert_eq!((status, verdict), (200, json!("allowed")));
    // A stream given up frees its place.
    drop(held);
    let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
    while open().await.unwrap().status() != 200 {
        assert!(tokio::time::Instant::now() < deadline, "a closed stream's place is free again");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// A request to `base`'s origin with this `Host` header (and an Origin to match), as a page on a foreign name
/// that DNS rebinding pointed at the service sends it.
async fn status_with_host(h: &support::Harness, url: String, host: &str, post: Option<Value>) -> u16 {
    let request = match post {
        Some(body) => h.http.post(url).header("origin", format!("http://{host}")).json(&body),
        None => h.http.get(url),
    };
    request.header("host", host).send().await.unwrap().status().as_u16()
}

#[tokio::test(flavor = "multi_thread")]
async fn a_foreign_host_name_gets_421_on_both_origins_and_each_origin_answers_only_to_its_own() {
    let h = harness_with(Replies::Script(Vec::new()), LoginLimits::default(), false, |config| {
        config.chat_hosts = vec!["aiui.test".into()];
        config.trusted_hosts = vec!["approve.aiui.test".into()];
    })
    .await;
    let (chat_port, trusted_port) = (socket_of(&h.chat).port(), socket_of(&h.trusted).port());
    let login = Some(json!({ "passphrase": APPROVAL }));
    // DNS rebinding: the attacker's name now points here; its page signs in and asks for the trusted URL.
    let evil = format!("evil.example:{trusted_port}");
    assert_eq!(status_with_host(&h, format!("{}api/login", h.trusted), &evil, login.clone()).await, 421);
    assert_eq!(status_with_host(&h, format!("{}api/session", h.trusted), &evil, None).await, 421);
    let evil_chat = format!("evil.example:{chat_port}");
    assert_eq!(status_with_host(&h, format!("{}api/session", h.chat), &evil_chat, None).await, 421);
    assert_eq!(status_with_host(&h, format!("{}login.html", h.chat), &evil_chat, None).await, 421);
    // The chat's own name is not the trusted origin's, nor the other way round.
    assert_eq!(status_with_host(&h, format!("{}api/session", h.trusted), "aiui.test", None).await, 421);
    assert_eq!(status_with_host(&h, format!("{}api/session", h.chat), "approve.aiui.test", None).await, 421);
    // Each origin's own name, and plain addresses, work.
    assert_eq!(status_with_host(&h, format!("{}api/session", h.chat), "AIUI.test.", None).await, 200);
    let login_status =
        status_with_host(&h, format!("{}api/login", h.trusted), "approve.aiui.test", login.clone()).await;
    assert_eq!(login_status, 200, "the owner signs in under the trusted origin's own name");
    // The chat page's link for approvals comes from the configuration, never from the request.
    let chat = h.sign_in(false).await;
    let (_, link) = h.invoke(&chat, "request_trusted_window", json!({})).await;
    assert_eq!(link["url"], "http://approve.aiui.test/aiui/");
}

#[tokio::test(flavor = "multi_thread")]
async fn two_session_cookies_are_refused_and_nothing_is_done() {
    let h = harness(Replies::Script(vec![fixture("chat_answer_plain.json")]), LoginLimits::default()).await;
    let chat = h.sign_in(false).await;
    let planted = format!("aiui_lan={}", "a".repeat(64));
    for cookie in [format!("{planted}; {}", chat.cookie), format!("{}; {planted}", chat.cookie)] {
        let tossed = support::Browser { cookie: cookie.clone(), ..chat.clone() };
        let (status, body) = h.invoke(&tossed, "chat_send", json!({ "conversation": null, "text": "hello" })).await;
        assert_eq!((status, body["code"].as_str()), (400, Some("duplicate_cookie")), "{cookie}");
        let session: Value = h
            .http
            .get(format!("{}api/session", h.chat))
            .header("cookie", &cookie)
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        assert_eq!(session["signed_in"], false);
        assert!(session["problem"].as_str().unwrap().contains("two session cookies"), "{session}");
    }
    let (_, list) = h.invoke(&chat, "conversations_list", json!({})).await;
    assert_eq!(list, json!([]), "nothing was started by the tossed requests");
}

#[tokio::test(flavor = "multi_thread")]
async fn over_tls_the_cookies_are_host_only_and_cannot_be_shadowed_by_another_path() {
    let h = harness_with(Replies::Script(Vec::new()), LoginLimits::default(), false, |config| {
        config.secure_cookies = true;
    })
    .await;
    for (base, origin, secret, name) in [
        (&h.chat, &h.chat_origin, support::LAN, "__Host-aiui_lan="),
        (&h.trusted, &h.trusted_origin, APPROVAL, "__Host-aiui_trusted="),
    ] {
        let response = h.login(base, origin, secret).await;
        assert_eq!(response.status(), 200);
        let cookie = response.headers()["set-cookie"].to_str().unwrap().to_owned();
        assert!(cookie.starts_with(name), "{cookie}");
        for part in ["Path=/;", "HttpOnly", "SameSite=Strict", "Secure"] {
            assert!(cookie.contains(part), "{cookie} lacks {part}");
        }
        assert!(!cookie.contains("Domain"), "{cookie}");
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn an_overflowing_last_event_id_asks_for_nothing_and_the_service_goes_on() {
    let h = harness(Replies::Script(vec![fixture("chat_answer_plain.json")]), LoginLimits::default()).await;
    let chat = h.sign_in(false).await;
    let (_, started) = h.invoke(&chat, "chat_send", json!({ "conversation": null, "text": "hello" })).await;
    let turn = started["turn"].as_str().unwrap().to_owned();
    h.events(&chat, &turn, "\"done\"").await;
    for (last, expect_events) in [("18446744073709551615", false), ("99999999999999999999999", true), ("-1", true)] {
        let response = h
            .http
            .get(format!("{}api/turns/{turn}/events", chat.base))
            .header("cookie", &chat.cookie)
            .header("last-event-id", last)
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 200, "{last}");
        let body =
            tokio::time::timeout(Duration::from_secs(5), response.text()).await.expect("the stream ends").unwrap();
        // The largest id asks for what comes after it: nothing. An id that is no number starts from the beginning.
        assert_eq!(body.contains("\"done\""), expect_events, "{last}: {body}");
    }
    let (status, _) = h.invoke(&chat, "conversations_list", json!({})).await;
    assert_eq!(status, 200, "the service still answers");
}

static UI_WITH_LINKS: std::sync::OnceLock<std::path::PathBuf> = std::sync::OnceLock::new();

#[tokio::test(flavor = "multi_thread")]
async fn a_link_under_ui_to_a_file_outside_it_is_never_served() {
    let root = tempfile::tempdir().unwrap();
    let ui = root.path().join("ui");
    let real = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../ui");
    let copied = std::process::Command::new("cp").arg("-r").arg(&real).arg(&ui).status().unwrap();
    assert!(copied.success());
    std::fs::write(root.path().join("owner-secret.js"), "the owner's data").unwrap();
    std::os::unix::fs::symlink(root.path().join("owner-secret.js"), ui.join("js/leak.js")).unwrap();
    std::os::unix::fs::symlink(root.path(), ui.join("css/up")).unwrap();
    UI_WITH_LINKS.set(ui.clone()).unwrap();
    let h = harness_with(Replies::Script(Vec::new()), LoginLimits::default(), false, |config| {
        config.ui_dir = UI_WITH_LINKS.get().unwrap().clone();
    })
    .await;
    for path in ["js/leak.js", "css/up/owner-secret.js"] {
        let response = h.http.get(format!("{}{path}", h.chat)).send().await.unwrap();
        assert_eq!(response.status(), 404, "{path}");
        assert!(!response.text().await.unwrap().contains("owner's data"));
    }
    assert_eq!(h.http.get(format!("{}js/chat.js", h.chat)).send().await.unwrap().status(), 200);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_lan_user_flooding_turns_is_held_back_and_the_confirmation_says_who_asked() {
    let replies = vec![fixture("chat_call_restart_lnd.json"), fixture("chat_answer_restarted.json")];
    let h = harness(Replies::Script(replies), LoginLimits::default()).await;
    let owner = h.sign_in(true).await;
    let chat = h.sign_in(false).await;
    let turn = h.awaiting_restart(&chat).await;
    // While its turn waits, the session keeps sending: busy, busy, … then held back.
    let mut statuses = Vec::new();
    for _ in 0..12 {
        let (status, _) = h.invoke(&chat, "chat_send", json!({ "conversation": null, "text": "restart lnd" })).await;
        statuses.push(status);
    }
    assert_eq!(&statuses[..9], &[409; 9], "{statuses:?}");
    assert_eq!(&statuses[9..], &[429; 3], "ten turns a minute per session: {statuses:?}");
    // The owner's confirmation says, in the host's words, that a LAN session asked, from where and when.
    let (id, hash, view) = h.first_pending(&owner).await;
    let requester = view["requester"].as_str().unwrap();
    assert!(requester.starts_with("a LAN session from 127.0.0.1 (signed in "), "{requester}");
    assert_eq!(view["from_lan"], true);
    tokio::time::sleep(aiui_web::APPROVE_DELAY).await;
    let decide = json!({ "id": id, "argumentsHash": hash, "answer": "approve", "secret": APPROVAL });
    assert_eq!(h.invoke(&owner, "trusted_decide", decide).await.0, 200);
    // The receipt reaches the chat without the request's id: that is the trusted side's.
    let events = h.events(&chat, &turn, "\"done\"").await;
    assert!(events.contains("action_receipt"), "{events}");
    assert!(!events.contains(&id) && !events.contains(&hash) && !events.contains("request_id"), "{events}");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_half_open_flood_of_the_trusted_origin_itself_never_keeps_the_owner_from_a_new_connection() {
    let replies = vec![fixture("chat_call_restart_lnd.json"), fixture("chat_answer_restarted.json")];
    let h = harness_with(Replies::Script(replies), LoginLimits::default(), false, |config| {
        config.max_connections = (40, 20);
    })
    .await;
    let chat = h.sign_in(false).await;
    let turn = h.awaiting_restart(&chat).await;
    let trusted = socket_of(&h.trusted);
    // Twice the trusted origin's cap in half-sent requests, from several addresses, kept open.
    let mut flood = Vec::new();
    for n in 0..40u8 {
        let source = IpAddr::from([127, 0, 2, n % 10 + 1]);
        flood.push(half_open(source, trusted, b"POST /aiui/api/login HTTP/1.1\r\nHost: 127.0.0.1\r\n").await);
    }
    // The owner opens fresh connections during the flood: signs in, sees the request and approves it.
    let fresh = || aiui_core::net::client(&aiui_core::net::ClientSpec::default()).unwrap().http;
    let owner_http = fresh();
    let response = owner_http
        .post(format!("{}api/login", h.trusted))
        .header("origin", &h.trusted_origin)
        .json(&json!({ "passphrase": APPROVAL }))
        .send()
        .await
        .expect("a new connection to the trusted origin during the flood");
    assert_eq!(response.status(), 200);
    let cookie = response.headers()["set-cookie"].to_str().unwrap().split(';').next().unwrap().to_owned();
    let csrf = response.json::<Value>().await.unwrap()["csrf"].as_str().unwrap().to_owned();
    let owner = support::Browser { base: h.trusted.clone(), origin: h.trusted_origin.clone(), cookie, csrf };
    let (id, hash, _) = h.first_pending(&owner).await;
    tokio::time::sleep(aiui_web::APPROVE_DELAY).await;
    // Yet another fresh connection for the decision itself.
    let decide = json!({ "id": id, "argumentsHash": hash, "answer": "approve", "secret": APPROVAL });
    let decided = fresh()
        .post(format!("{}api/invoke/trusted_decide", h.trusted))
        .header("origin", &owner.origin)
        .header("cookie", &owner.cookie)
        .header("x-csrf-token", &owner.csrf)
        .json(&decide)
        .send()
        .await
        .unwrap();
    assert_eq!(decided.status(), 200);
    assert_eq!(decided.json::<Value>().await.unwrap(), json!("allowed"));
    h.events(&chat, &turn, "\"done\"").await;
    drop(flood);
}
