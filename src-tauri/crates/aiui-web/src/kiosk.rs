//! The LAN service's end of the kiosk socket (`aiui_core::gate::remote`): it tells the node's own screen which LAN
//! requests wait and takes back what the owner pressed there, one JSON object per line each way.
//!
//! The socket's file mode (0660) and its directory decide who may connect; this side still holds the kiosk to the
//! trusted origin's rules: an approval names the request's id and arguments hash, comes at least
//! [`crate::APPROVE_DELAY`] after this very connection first listed the request (a script on the socket cannot
//! skip the reading time), and is used once (the gate forgets a decided request).

use std::collections::HashMap;
use std::io::ErrorKind;
use std::os::unix::fs::{FileTypeExt, PermissionsExt};
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use aiui_core::gate::remote::{FromKiosk, Line, MAX_LINE_BYTES, ToKiosk, read_line};
use aiui_core::gate::{ConfirmRequest, DecideError, Decision, Gate, Verdict};
use anyhow::Context;
use tokio::io::{AsyncWrite, AsyncWriteExt, BufReader};
use tokio::net::{UnixListener, UnixStream};
use tokio::sync::broadcast::error::RecvError;

use crate::APPROVE_DELAY;

/// The kiosk's user reaches the socket through the service's group; nobody else may.
const SOCKET_MODE: u32 = 0o660;
/// One kiosk is expected; a few more let it reconnect while an old connection is still being torn down.
const MAX_CONNECTIONS: usize = 4;
/// How often the list is compared again, so decisions on the trusted origin and expiries reach the kiosk.
const RECHECK_EVERY: Duration = Duration::from_secs(1);
/// A kiosk that stops reading is dropped rather than left holding this connection's task.
const WRITE_TIMEOUT: Duration = Duration::from_secs(5);

const TOO_SOON: &str =
    "Too soon: this confirmation was only just shown on the kiosk. Read it, then approve again. Nothing was decided.";
const UNKNOWN: &str =
    "This confirmation is no longer pending (it was answered, expired, or never existed). Nothing was decided.";
const MISMATCH: &str = "The request changed since it was shown; nothing was decided. Look at it again.";

/// Opens the kiosk socket at `path` (inside the runtime): a stale socket left by an earlier run is replaced;
/// anything else at that path, or a socket another service still answers on, is left alone and named.
pub(crate) fn bind(path: &Path) -> anyhow::Result<UnixListener> {
    let shown = path.display();
    match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_socket() => {
            // A socket something still accepts on belongs to a running service, not to a crashed one.
            if std::os::unix::net::UnixStream::connect(path).is_ok() {
                anyhow::bail!(
                    "the kiosk socket {shown} is in use: another `aiui-cli serve` listens on it. Stop that one, or \
                     give this one another --kiosk-socket."
                );
            }
            std::fs::remove_file(path).with_context(|| {
                format!("removing the stale kiosk socket {shown} (left by an earlier run): remove it by hand, or give another --kiosk-socket")
            })?;
        }
        Ok(_) => anyhow::bail!(
            "{shown} exists and is not a socket, so it was left as it is: move it away, or give another --kiosk-socket."
        ),
        Err(e) if e.kind() == ErrorKind::NotFound => {}
        Err(e) => return Err(e).with_context(|| format!("checking {shown} for a stale kiosk socket")),
    }
    let listener = UnixListener::bind(path).with_context(|| {
        let dir = path.parent().map(|d| d.display().to_string()).unwrap_or_default();
        format!(
            "binding the kiosk socket {shown}: the directory {dir} must exist and be writable by this user \
             (systemd's RuntimeDirectory=aiui makes /run/aiui), or give another --kiosk-socket"
        )
    })?;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(SOCKET_MODE)).with_context(|| {
        format!("setting the kiosk socket {shown} to mode 0660: without it the kiosk's user cannot connect")
    })?;
    tracing::info!(socket = %shown, "kiosk socket open (mode 0660: the kiosk reaches it through the group)");
    Ok(listener)
}

/// Accepts kiosk connections until the task is aborted, each served on its own task.
pub(crate) async fn serve(listener: UnixListener, gate: Arc<Gate>) {
    let open = Arc::new(tokio::sync::Semaphore::new(MAX_CONNECTIONS));
    loop {
        let stream = match listener.accept().await {
            Ok((stream, _)) => stream,
            Err(e) => {
                // Out of file descriptors, say: wait a moment rather than spin.
                tracing::warn!(error = %e, "could not accept a kiosk connection");
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            }
        };
        let peer = match stream.peer_cred() {
            Ok(cred) => format!("uid {}", cred.uid()),
            Err(e) => format!("uid unknown ({e})"),
        };
        let Ok(permit) = open.clone().try_acquire_owned() else {
            tracing::warn!(%peer, "refused a kiosk connection: {MAX_CONNECTIONS} are already open");
            continue;
        };
        tracing::info!(%peer, "a kiosk connected");
        let gate = gate.clone();
        tokio::spawn(async move {
            let _permit = permit;
            match connection(stream, &gate).await {
                Ok(()) => tracing::info!(%peer, "the kiosk disconnected"),
                Err(e) => tracing::warn!(%peer, error = %format!("{e:#}"), "a kiosk connection ended"),
            }
        });
    }
}

/// What one connection has shown: each listed request and when this connection first sent it.
struct Shown<'a> {
    gate: &'a Gate,
    since: HashMap<String, Instant>,
    /// The ids of the last list sent, oldest first; `None` before the first.
    listed: Option<Vec<String>>,
}

async fn connection(stream: UnixStream, gate: &Gate) -> anyhow::Result<()> {
    let (read, mut write) = stream.into_split();
    let mut read = BufReader::new(read);
    let mut opened = gate.subscribe();
    let mut tick = tokio::time::interval(RECHECK_EVERY);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
    let mut shown = Shown { gate, since: HashMap::new(), listed: None };
    let mut line = Vec::new();
    shown.push_if_changed(&mut write).await?;
    loop {
        tokio::select! {
            read = read_line(&mut read, &mut line) => {
                match read? {
                    Line::End => return Ok(()),
                    Line::TooLong => anyhow::bail!("the kiosk sent a line longer than {MAX_LINE_BYTES} bytes"),
                    Line::Complete => {
                        let answer = shown.answer(&line);
                        line.clear();
                        if let Some(answer) = answer {
                            send(&mut write, &answer).await?;
                        }
                        shown.push_if_changed(&mut write).await?;
                    }
                }
            }
            heard = opened.recv() => {
                // A lagged receiver still means something opened; only a closed gate ends the connection.
                if let Err(RecvError::Closed) = heard {
                    return Ok(());
                }
                shown.push_if_changed(&mut write).await?;
            }
            _ = tick.tick() => shown.push_if_changed(&mut write).await?,
        }
    }
}

impl Shown<'_> {
    /// Sends the LAN requests now waiting if they are not the ones last sent.
    async fn push_if_changed(&mut self, write: &mut (impl AsyncWrite + Unpin)) -> anyhow::Result<()> {
        let requests: Vec<ConfirmRequest> = self.gate.pending().into_iter().filter(|r| r.requester.is_lan()).collect();
        let ids: Vec<String> = requests.iter().map(|r| r.id.clone()).collect();
        if self.listed.as_ref() == Some(&ids) {
            return Ok(());
        }
        let requests = fitting(requests);
        send(write, &ToKiosk::Pending { requests: requests.clone(), now_ms: aiui_core::now_ms() }).await?;
        let now = Instant::now();
        self.since.retain(|id, _| requests.iter().any(|r| &r.id == id));
        for request in &requests {
            self.since.entry(request.id.clone()).or_insert(now);
        }
        self.listed = Some(ids);
        Ok(())
    }

    /// The answer to one line from the kiosk; `None` for a blank line.
    fn answer(&mut self, line: &[u8]) -> Option<ToKiosk> {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if line.iter().all(u8::is_ascii_whitespace) {
            return None;
        }
        let FromKiosk::Decide { id, arguments_hash, decision } = match serde_json::from_slice(line) {
            Ok(message) => message,
            Err(e) => {
                tracing::warn!(error = %e, "the kiosk sent a line that is not a message of the kiosk protocol");
                // The id, if the line names one, lets the kiosk tie the refusal to what it asked.
                let id = serde_json::from_slice::<serde_json::Value>(line)
                    .ok()
                    .and_then(|v| v.get("id")?.as_str().map(|s| s.chars().take(64).collect()))
                    .unwrap_or_default();
                let error = format!(
                    "That line was not understood ({e}); nothing was decided. Send one JSON object per line: \
                     {{\"type\":\"decide\",\"id\":…,\"arguments_hash\":…,\"decision\":\"allow_once\" or \"deny\"}}."
                );
                return Some(refused(id, "not_understood", error));
            }
        };
        let short: String = id.chars().take(8).collect();
        // A decided, expired or unknown request is said to be so before anything else, and a request that is not
        // a LAN user's is not this screen's to decide.
        if !self.gate.pending().iter().any(|r| r.id == id && r.requester.is_lan()) {
            tracing::info!(id = %short, "kiosk decision refused: not a pending LAN request");
            return Some(refused(id, "unknown", UNKNOWN.into()));
        }
        if decision == Decision::AllowOnce && self.since.get(&id).is_none_or(|at| at.elapsed() < APPROVE_DELAY) {
            tracing::info!(id = %short, "kiosk approval refused: too soon after it was shown");
            return Some(refused(id, "too_soon", TOO_SOON.into()));
        }
        let outcome = match self.gate.decide(&id, &arguments_hash, decision) {
            Ok(verdict) => Ok(verdict),
            Err(DecideError::Expired) => Ok(Verdict::Expired),
            Err(DecideError::Unknown) => Err(("unknown", UNKNOWN.to_owned())),
            Err(DecideError::Mismatch) => Err(("mismatch", MISMATCH.to_owned())),
            Err(DecideError::Audit(e)) => {
                Err(("audit", format!("The decision could not be recorded in the audit log, so it was not taken: {e}")))
            }
        };
        Some(match outcome {
            Ok(verdict) => {
                tracing::info!(id = %short, ?verdict, "decided on the kiosk");
                ToKiosk::Decided { id, verdict: Some(verdict), error: None, code: None }
            }
            Err((code, error)) => {
                tracing::warn!(id = %short, %error, "kiosk decision refused by the gate");
                refused(id, code, error)
            }
        })
    }
}

/// Nothing was decided: `code` for the kiosk to say in its owner's language, `error` in English for an older one.
fn refused(id: String, code: &str, error: String) -> ToKiosk {
    ToKiosk::Decided { id, verdict: None, error: Some(error), code: Some(code.to_owned()) }
}

/// The oldest requests whose list fits in one line; the kiosk hangs up on a longer one, which would repeat forever.
fn fitting(mut requests: Vec<ConfirmRequest>) -> Vec<ConfirmRequest> {
    let total = requests.len();
    while !requests.is_empty()
        && serde_json::to_vec(&ToKiosk::Pending { requests: requests.clone(), now_ms: 0 })
            .map_or(true, |line| line.len() + 32 > MAX_LINE_BYTES)
    {
        requests.pop();
    }
    if requests.len() < total {
        tracing::warn!(sent = requests.len(), waiting = total, "the kiosk is sent only the oldest LAN requests");
    }
    requests
}

async fn send(write: &mut (impl AsyncWrite + Unpin), message: &ToKiosk) -> anyhow::Result<()> {
    let mut line = serde_json::to_vec(message).context("encoding a message for the kiosk")?;
    line.push(b'\n');
    tokio::time::timeout(WRITE_TIMEOUT, write.write_all(&line))
        .await
        .context("the kiosk did not read what it was sent for 5 s")?
        .context("writing to the kiosk")
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use aiui_core::backends::BackendId;
    use aiui_core::gate::{AuditLog, Proposal, Requester, Waiter};
    use aiui_core::tools::ToolClass;
    use serde_json::json;
    use tokio::io::AsyncBufReadExt;
    use tokio::net::unix::{OwnedReadHalf, OwnedWriteHalf};

    use super::*;

    const WAIT: Duration = Duration::from_secs(5);

    struct Rig {
        gate: Arc<Gate>,
        path: PathBuf,
        _dir: tempfile::TempDir,
    }

    async fn rig() -> Rig {
        let dir = tempfile::tempdir().unwrap();
        let gate = Arc::new(Gate::new(AuditLog::open(&dir.path().join("audit.jsonl")).unwrap(), WAIT * 12));
        let path = dir.path().join("kiosk.sock");
        let listener = bind(&path).unwrap();
        tokio::spawn(serve(listener, gate.clone()));
        Rig { gate, path, _dir: dir }
    }

    fn proposal(app: &str, requester: Requester) -> Proposal {
        Proposal {
            tool: "package_restart".into(),
            rpc_method: "package.restart".into(),
            arguments: json!({ "id": app }),
            summary: format!("Restart app `{app}` (running)"),
            class: ToolClass::Act,
            backend: BackendId::Local { model: "m".into() },
            requester,
        }
    }

    fn from_lan() -> Requester {
        Requester::Lan { address: "127.0.0.1".into(), signed_in_at_ms: 0, session: "3f9a1c".into() }
    }

    impl Rig {
        fn open(&self, app: &str, requester: Requester) -> Waiter {
            self.gate.open(proposal(app, requester)).unwrap()
        }

        fn is_pending(&self, waiter: &Waiter) -> bool {
            self.gate.pending().iter().any(|r| r.id == waiter.request.id)
        }
    }

    struct Kiosk {
        read: BufReader<OwnedReadHalf>,
        write: OwnedWriteHalf,
    }

    impl Kiosk {
        async fn connect(rig: &Rig) -> Self {
            let (read, write) = UnixStream::connect(&rig.path).await.unwrap().into_split();
            Self { read: BufReader::new(read), write }
        }

        /// The next message, or `None` once the service closed the connection.
        async fn next(&mut self) -> Option<ToKiosk> {
            let mut line = String::new();
            let n = tokio::time::timeout(WAIT, self.read.read_line(&mut line)).await.expect("no message in 5 s");
            (n.unwrap_or(0) > 0).then(|| serde_json::from_str(&line).unwrap())
        }

        /// The ids of the next pending list.
        async fn pending(&mut self) -> Vec<String> {
            loop {
                if let ToKiosk::Pending { requests, .. } = self.next().await.expect("the connection closed") {
                    return requests.into_iter().map(|r| r.id).collect();
                }
            }
        }

        async fn decide(&mut self, waiter: &Waiter, decision: Decision) -> Result<Verdict, String> {
            let request = &waiter.request;
            let message =
                FromKiosk::Decide { id: request.id.clone(), arguments_hash: request.arguments_hash.clone(), decision };
            self.send_line(&serde_json::to_string(&message).unwrap()).await;
            self.decided(&request.id).await
        }

        async fn send_line(&mut self, line: &str) {
            self.write.write_all(format!("{line}\n").as_bytes()).await.unwrap();
        }

        /// The answer for `id`, skipping the lists sent meanwhile.
        async fn decided(&mut self, want: &str) -> Result<Verdict, String> {
            loop {
                if let ToKiosk::Decided { id, verdict, error, .. } = self.next().await.expect("the connection closed") {
                    assert_eq!(id, want, "the answer names the request it answers");
                    return verdict.ok_or_else(|| error.expect("an answer has a verdict or an error"));
                }
            }
        }
    }

    #[tokio::test]
    async fn the_lan_list_is_pushed_at_connect_and_whenever_it_changes() {
        let rig = rig().await;
        let first = rig.open("lnd", from_lan());
        let mut kiosk = Kiosk::connect(&rig).await;
        assert_eq!(kiosk.pending().await, vec![first.request.id.clone()], "sent at connect");
        let second = rig.open("bitcoin-knots", from_lan());
        assert_eq!(kiosk.pending().await, vec![first.request.id.clone(), second.request.id.clone()], "oldest first");
        // Decided elsewhere (the trusted origin): the tick notices.
        rig.gate.decide(&first.request.id, &first.request.arguments_hash, Decision::Deny).unwrap();
        assert_eq!(kiosk.pending().await, vec![second.request.id.clone()], "a decision elsewhere is seen");
    }

    #[tokio::test]
    async fn an_approval_sooner_than_the_delay_after_this_connection_listed_it_is_refused() {
        let rig = rig().await;
        let waiter = rig.open("lnd", from_lan());
        let mut early = Kiosk::connect(&rig).await;
        early.pending().await;
        let refusal = early.decide(&waiter, Decision::AllowOnce).await.unwrap_err();
        assert!(refusal.starts_with("Too soon"), "{refusal}");
        tokio::time::sleep(APPROVE_DELAY + Duration::from_millis(100)).await;
        // Another connection that only now received it waits its own delay: the time is read on this screen.
        let mut late = Kiosk::connect(&rig).await;
        late.pending().await;
        let refusal = late.decide(&waiter, Decision::AllowOnce).await.unwrap_err();
        assert!(refusal.starts_with("Too soon"), "{refusal}");
        assert!(rig.is_pending(&waiter), "a refused approval decides nothing");
    }

    #[tokio::test]
    async fn an_approval_after_the_delay_is_allowed_once() {
        let rig = rig().await;
        let waiter = rig.open("lnd", from_lan());
        let mut kiosk = Kiosk::connect(&rig).await;
        kiosk.pending().await;
        tokio::time::sleep(APPROVE_DELAY + Duration::from_millis(100)).await;
        assert_eq!(kiosk.decide(&waiter, Decision::AllowOnce).await, Ok(Verdict::Allowed));
        let again = kiosk.decide(&waiter, Decision::AllowOnce).await.unwrap_err();
        assert!(again.starts_with("This confirmation is no longer pending"), "once means once: {again}");
        assert_eq!(rig.gate.wait(waiter).await, Verdict::Allowed);
        // A denial needs no reading time.
        let other = rig.open("bitcoin-knots", from_lan());
        kiosk.pending().await;
        assert_eq!(kiosk.decide(&other, Decision::Deny).await, Ok(Verdict::Denied));
        let log = std::fs::read_to_string(rig.gate.audit().path()).unwrap();
        assert_eq!(log.matches(r#""verdict":"allowed""#).count(), 1, "one approval on the audit log: {log}");
    }

    #[tokio::test]
    async fn a_request_not_from_the_lan_is_never_shown_nor_decided_here() {
        let rig = rig().await;
        let desktop = rig.open("lnd", Requester::ThisDesktop);
        let terminal = rig.open("electrs", Requester::Terminal);
        let lan = rig.open("bitcoin-knots", from_lan());
        let mut kiosk = Kiosk::connect(&rig).await;
        assert_eq!(kiosk.pending().await, vec![lan.request.id.clone()]);
        tokio::time::sleep(APPROVE_DELAY + Duration::from_millis(100)).await;
        for other in [&desktop, &terminal] {
            let refusal = kiosk.decide(other, Decision::AllowOnce).await.unwrap_err();
            assert!(refusal.starts_with("This confirmation is no longer pending"), "{refusal}");
            assert!(rig.is_pending(other), "the kiosk socket cannot decide a request it was never shown");
        }
    }

    #[tokio::test]
    async fn bad_json_is_answered_and_an_over_long_line_ends_the_connection() {
        let rig = rig().await;
        let waiter = rig.open("lnd", from_lan());
        let mut kiosk = Kiosk::connect(&rig).await;
        kiosk.pending().await;
        kiosk.send_line("not json").await;
        let said = kiosk.decided("").await.unwrap_err();
        assert!(said.starts_with("That line was not understood"), "{said}");
        let line = format!(r#"{{"type":"decide","id":"{}","decision":"maybe"}}"#, waiter.request.id);
        kiosk.send_line(&line).await;
        let said = kiosk.decided(&waiter.request.id).await.unwrap_err();
        assert!(said.contains("nothing was decided"), "{said}");
        assert_eq!(kiosk.decide(&waiter, Decision::Deny).await, Ok(Verdict::Denied), "the connection is kept");
        // One byte over the cap, with no newline: the service hangs up rather than buffer more.
        let long = vec![b'x'; MAX_LINE_BYTES + 1];
        kiosk.write.write_all(&long).await.unwrap();
        loop {
            match kiosk.next().await {
                None => break,
                Some(ToKiosk::Pending { .. }) => {}
                Some(other) => panic!("an over-long line was answered: {other:?}"),
            }
        }
    }

    #[tokio::test]
    async fn bind_replaces_a_stale_socket_only() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("kiosk.sock");
        drop(std::os::unix::net::UnixListener::bind(&path).unwrap());
        let live = bind(&path).expect("a stale socket is replaced");
        let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o660, "group-writable, nobody else: {mode:o}");
        let in_use = bind(&path).unwrap_err().to_string();
        assert!(in_use.contains("is in use"), "{in_use}");
        drop(live);
        let file = dir.path().join("notes.txt");
        std::fs::write(&file, "keep me").unwrap();
        let refused = bind(&file).unwrap_err().to_string();
        assert!(refused.contains("notes.txt") && refused.contains("not a socket"), "{refused}");
        assert_eq!(std::fs::read_to_string(&file).unwrap(), "keep me", "a file that is not a socket is left alone");
        let nowhere = bind(&dir.path().join("missing/kiosk.sock")).unwrap_err();
        assert!(format!("{nowhere:#}").contains("must exist"), "{nowhere:#}");
    }
}
