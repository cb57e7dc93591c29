//! The kiosk's link to the LAN service against a stand-in service on a real socket: the list it keeps, emptied
//! while the service is gone, a decision's round trip, and what the owner is told when no answer comes.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use aiui_core::backends::BackendId;
use aiui_core::gate::Requester;
use aiui_core::i18n::Locale;
use aiui_core::tools::ToolClass;
use serde_json::json;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt};
use tokio::net::UnixListener;

use super::*;

const WAIT: Duration = Duration::from_secs(5);

#[track_caller]
fn check(env: Option<&str>, config: Option<&str>, default_exists: bool, expect: Option<(&str, Source)>) {
    let got = socket_path(env.map(OsString::from), config.map(Path::new), |_| default_exists);
    assert_eq!(got, expect.map(|(p, s)| (PathBuf::from(p), s)), "env {env:?}, config {config:?}");
}

#[test]
fn the_socket_comes_from_the_environment_then_the_config_then_the_default_if_it_exists() {
    check(Some("/tmp/a.sock"), Some("/tmp/b.sock"), true, Some(("/tmp/a.sock", Source::Env)));
    check(Some(""), Some("/tmp/b.sock"), true, Some(("/tmp/b.sock", Source::Config)));
    check(None, None, true, Some((remote::DEFAULT_SOCKET, Source::Default)));
    check(None, None, false, None);
}

fn request(id: &str, requester: Requester) -> ConfirmRequest {
    ConfirmRequest {
        id: id.into(),
        tool: "package_restart".into(),
        rpc_method: "package.restart".into(),
        arguments: json!({ "id": "lnd" }),
        arguments_hash: format!("hash-of-{id}"),
        summary: "Restart app `lnd` (running)".into(),
        class: ToolClass::Act,
        backend: BackendId::Local { model: "m".into() },
        requester,
        created_at_ms: 1,
        expires_at_ms: i64::MAX,
    }
}

fn lan() -> Requester {
    Requester::Lan { address: "127.0.0.1".into(), signed_in_at_ms: 0, session: "3f9a1c".into() }
}

fn line(message: &ToKiosk) -> Vec<u8> {
    let mut line = serde_json::to_vec(message).unwrap();
    line.push(b'\n');
    line
}

struct Rig {
    link: Arc<LanApprovals>,
    path: PathBuf,
    service: Option<UnixListener>,
    news: Arc<AtomicUsize>,
    _dir: tempfile::TempDir,
}

/// The link, already running against a stand-in service that has not accepted yet.
async fn rig(answer_within: Duration) -> Rig {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("kiosk.sock");
    let service = UnixListener::bind(&path).unwrap();
    let link =
        Arc::new(LanApprovals::with_timing(path.clone(), Source::Env, Duration::from_millis(100), answer_within));
    let news = Arc::new(AtomicUsize::new(0));
    let (running, counted) = (link.clone(), news.clone());
    tokio::spawn(async move {
        running
            .run(
                move || {
                    counted.fetch_add(1, Ordering::SeqCst);
                },
                || {},
            )
            .await
    });
    Rig { link, path, service: Some(service), news, _dir: dir }
}

async fn until(what: &str, probe: impl Fn() -> bool) {
    let deadline = Instant::now() + WAIT;
    while !probe() {
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

async fn accept(rig: &Rig) -> UnixStream {
    let service = rig.service.as_ref().expect("the service listens");
    tokio::time::timeout(WAIT, service.accept()).await.expect("the kiosk did not connect").unwrap().0
}

impl Rig {
    /// The service stops listening: a new connection is refused (the socket file stays, as after a crash).
    fn stop_listening(&mut self) {
        self.service = None;
    }

    fn listen_again(&mut self) {
        std::fs::remove_file(&self.path).unwrap();
        self.service = Some(UnixListener::bind(&self.path).unwrap());
    }
}

#[tokio::test]
async fn the_lan_list_is_kept_shown_once_per_new_request_and_emptied_while_the_service_is_gone() {
    let mut rig = rig(WAIT).await;
    let mut service = accept(&rig).await;
    let listed =
        |ids: &[&str]| ToKiosk::Pending { requests: ids.iter().map(|id| request(id, lan())).collect(), now_ms: 1_000 };
    service.write_all(&line(&listed(&["aa"]))).await.unwrap();
    until("the first request", || rig.link.pending().len() == 1).await;
    let view = &rig.link.pending()[0];
    assert_eq!((view.route, view.from_lan, view.id.as_str()), ("lan", true, "aa"));
    assert!(view.requester.starts_with("a LAN session from 127.0.0.1"), "{}", view.requester);
    assert!(rig.link.view().connected);
    service.write_all(&line(&listed(&["aa", "bb"]))).await.unwrap();
    until("the second request", || rig.link.pending().len() == 2).await;
    service.write_all(&line(&listed(&["bb"]))).await.unwrap();
    until("the first one gone", || rig.link.pending().len() == 1).await;
    assert_eq!(rig.news.load(Ordering::SeqCst), 2, "the window comes forward once per new request");
    // One that is not a LAN user's is never shown as one.
    let mixed = ToKiosk::Pending { requests: vec![request("cc", Requester::ThisDesktop)], now_ms: 1_000 };
    service.write_all(&line(&mixed)).await.unwrap();
    until("the non-LAN request dropped", || rig.link.pending().is_empty()).await;

    service.write_all(&line(&listed(&["dd"]))).await.unwrap();
    until("a request before the service goes", || rig.link.pending().len() == 1).await;
    rig.stop_listening();
    drop(service);
    until("the list emptied", || !rig.link.connected()).await;
    assert!(rig.link.pending().is_empty(), "nothing stale stays approvable");
    let down = rig.link.view();
    assert!(down.message.starts_with("The LAN service is not reachable at "), "{}", down.message);
    rig.listen_again();
    let mut again = accept(&rig).await;
    again.write_all(&line(&listed(&["dd"]))).await.unwrap();
    until("the list after reconnecting", || rig.link.pending().len() == 1).await;
}

#[tokio::test]
async fn a_decision_is_sent_to_the_service_and_its_verdict_or_refusal_comes_back() {
    let rig = rig(WAIT).await;
    let service = accept(&rig).await;
    until("the link", || rig.link.connected()).await;
    let (read, mut write) = service.into_split();
    let mut read = BufReader::new(read);
    let link = rig.link.clone();
    let approving = tokio::spawn(async move { link.decide("aa", "hash-of-aa", Decision::AllowOnce).await });
    let mut sent = String::new();
    read.read_line(&mut sent).await.unwrap();
    let sent: FromKiosk = serde_json::from_str(&sent).unwrap();
    assert_eq!(
        sent,
        FromKiosk::Decide { id: "aa".into(), arguments_hash: "hash-of-aa".into(), decision: Decision::AllowOnce }
    );
    // A list in between does not stand for the answer.
    write.write_all(&line(&ToKiosk::Pending { requests: vec![], now_ms: 1 })).await.unwrap();
    let answer = ToKiosk::Decided { id: "aa".into(), verdict: Some(Verdict::Allowed), error: None, code: None };
    write.write_all(&line(&answer)).await.unwrap();
    assert_eq!(approving.await.unwrap(), Ok(Verdict::Allowed));

    let link = rig.link.clone();
    let again = tokio::spawn(async move { link.decide("aa", "hash-of-aa", Decision::AllowOnce).await });
    let mut sent = String::new();
    read.read_line(&mut sent).await.unwrap();
    let refusal = "Too soon: this confirmation was only just shown on the kiosk.";
    let answer = ToKiosk::Decided { id: "aa".into(), verdict: None, error: Some(refusal.into()), code: None };
    write.write_all(&line(&answer)).await.unwrap();
    let refused = again.await.unwrap().unwrap_err();
    assert_eq!(refused, LanError::Refused { code: None, words: refusal.into() });
    assert!(refused.is_too_soon(), "an older service's refusal is known by its words");
    assert_eq!(refused.text(Locale::De), refusal, "and shown as it came");

    // A service that names why is said in the kiosk owner's language, whatever its English.
    let link = rig.link.clone();
    let later = tokio::spawn(async move { link.decide("aa", "hash-of-aa", Decision::AllowOnce).await });
    let mut sent = String::new();
    read.read_line(&mut sent).await.unwrap();
    let answer = ToKiosk::Decided {
        id: "aa".into(),
        verdict: None,
        error: Some("Not yet.".into()),
        code: Some("too_soon".into()),
    };
    write.write_all(&line(&answer)).await.unwrap();
    let refused = later.await.unwrap().unwrap_err();
    assert!(refused.is_too_soon(), "the code decides, not the words");
    assert_eq!(
        refused.text(Locale::De),
        "Die Bestätigung wurde gerade erst angezeigt. Lesen Sie sie und geben Sie dann erneut frei."
    );
}

#[tokio::test]
async fn without_the_service_or_its_answer_the_owner_is_told_what_happened() {
    let rig = rig(Duration::from_millis(300)).await;
    // Not accepted yet: the link is not up, so nothing is sent.
    let unreachable = rig.link.decide("aa", "hash", Decision::AllowOnce).await.unwrap_err();
    assert!(matches!(unreachable, LanError::Unreachable(_)), "{unreachable:?}");
    assert!(unreachable.to_string().contains("nothing was decided"), "{unreachable}");
    let _service = accept(&rig).await;
    until("the link", || rig.link.connected()).await;
    let silent = rig.link.decide("aa", "hash", Decision::Deny).await.unwrap_err();
    assert_eq!(silent, LanError::NoAnswer(1));
    assert!(silent.to_string().contains("cannot tell whether it was decided"), "{silent}");
}

#[tokio::test]
async fn a_line_longer_than_the_cap_ends_the_connection() {
    let mut rig = rig(WAIT).await;
    let mut service = accept(&rig).await;
    service.write_all(&line(&ToKiosk::Pending { requests: vec![request("aa", lan())], now_ms: 1 })).await.unwrap();
    until("the request", || rig.link.pending().len() == 1).await;
    rig.stop_listening();
    service.write_all(&vec![b'x'; MAX_LINE_BYTES + 1]).await.unwrap();
    until("the connection dropped", || !rig.link.connected()).await;
    assert!(rig.link.pending().is_empty());
    let view = rig.link.view();
    assert!(view.message.contains("longer than"), "the reason is said: {}", view.message);
}

/// The trusted window's commands over a kiosk shell (the mock runtime, the real ACL): the LAN request is listed
/// with the local ones, its approval goes to the service and comes back, and without the service the owner is told
/// that nothing was decided.
#[test]
fn the_trusted_window_lists_lan_requests_and_decides_them_through_the_service() {
    use tauri::Manager;
    use tauri::ipc::{CallbackFn, InvokeBody};
    use tauri::test::{INVOKE_KEY, get_ipc_response, mock_builder};
    use tauri::webview::InvokeRequest;

    let dir = tempfile::tempdir().unwrap();
    let socket = dir.path().join("kiosk.sock");
    let config = crate::config::ShellConfig { lan_approvals_socket: Some(socket.clone()), ..Default::default() };
    config.save(dir.path()).unwrap();
    // Everything on the socket runs on Tauri's runtime, where the commands run too.
    let service = tauri::async_runtime::block_on(async { UnixListener::bind(&socket) }).unwrap();
    let shell = crate::Shell::open(
        crate::Mode { demo: false, kiosk: true },
        aiui_core::paths::DataDir(dir.path().to_path_buf()),
        Arc::new(aiui_core::secrets::Secrets::in_memory()),
        crate::LegOptions::default(),
    )
    .unwrap();
    let link = shell.lan.clone().expect("a kiosk with a configured socket approves LAN requests");
    let app = crate::app(mock_builder()).manage(shell).build(crate::context()).unwrap();
    crate::windows::create(app.handle()).unwrap();
    let trusted = crate::windows::trusted_window(app.handle()).unwrap();
    let invoke = |command: &str, arguments: serde_json::Value| {
        let request = InvokeRequest {
            cmd: command.into(),
            callback: CallbackFn(0),
            error: CallbackFn(1),
            url: "tauri://localhost".parse().unwrap(),
            body: InvokeBody::Json(arguments),
            headers: Default::default(),
            invoke_key: INVOKE_KEY.to_string(),
        };
        get_ipc_response(&trusted, request).map(|body| body.deserialize::<serde_json::Value>().unwrap())
    };
    let running = link.clone();
    tauri::async_runtime::spawn(async move { running.run(|| {}, || {}).await });
    let (decided_tx, decided_rx) = std::sync::mpsc::channel();
    tauri::async_runtime::spawn(async move {
        let (stream, _) = service.accept().await.unwrap();
        drop(service);
        let (read, mut write) = stream.into_split();
        let listed = ToKiosk::Pending { requests: vec![request("aa", lan())], now_ms: aiui_core::now_ms() };
        write.write_all(&line(&listed)).await.unwrap();
        let mut sent = String::new();
        BufReader::new(read).read_line(&mut sent).await.unwrap();
        let answer = ToKiosk::Decided { id: "aa".into(), verdict: Some(Verdict::Allowed), error: None, code: None };
        write.write_all(&line(&answer)).await.unwrap();
        decided_tx.send(serde_json::from_str::<FromKiosk>(&sent).unwrap()).unwrap();
        // The service goes away after answering.
    });

    let deadline = Instant::now() + WAIT;
    let listed = loop {
        let list = invoke("trusted_pending", json!({})).unwrap();
        if list.as_array().is_some_and(|l| !l.is_empty()) {
            break list;
        }
        assert!(Instant::now() < deadline, "the LAN request was never listed");
        std::thread::sleep(Duration::from_millis(20));
    };
    assert_eq!((&listed[0]["route"], &listed[0]["from_lan"]), (&json!("lan"), &json!(true)), "{listed}");
    let decide = json!({ "id": "aa", "argumentsHash": "hash-of-aa", "answer": "approve" });
    let shell = app.state::<crate::Shell>();
    *shell.trusted_shown_at.lock().unwrap() = Some(Instant::now());
    let early = invoke("trusted_decide", decide.clone()).unwrap_err();
    assert_eq!(early["code"], "too_soon", "the window's delay holds for a LAN request too: {early}");
    *shell.trusted_shown_at.lock().unwrap() = Some(Instant::now() - Duration::from_secs(2));
    assert_eq!(invoke("trusted_decide", decide.clone()), Ok(json!("allowed")));
    assert_eq!(
        decided_rx.recv_timeout(WAIT).unwrap(),
        FromKiosk::Decide { id: "aa".into(), arguments_hash: "hash-of-aa".into(), decision: Decision::AllowOnce },
        "the service got the id and hash the owner was shown"
    );
    let deadline = Instant::now() + WAIT;
    while link.connected() {
        assert!(Instant::now() < deadline, "the link never noticed the service was gone");
        std::thread::sleep(Duration::from_millis(20));
    }
    assert_eq!(invoke("trusted_pending", json!({})), Ok(json!([])), "nothing stale stays listed");
    let gone = invoke("trusted_decide", decide).unwrap_err();
    assert_eq!(gone["code"], "lan_unreachable", "{gone}");
    assert!(gone["message"].as_str().unwrap().contains("nothing was decided"), "{gone}");
}
