//! The kiosk's end of the LAN service's socket (`aiui_core::gate::remote`): with `--kiosk`, the node's own screen
//! keeps the LAN requests `aiui-cli serve` lists, brings the trusted window forward for each new one as for a
//! local one, and sends the owner's answer back to the service, whose gate decides.
//!
//! The socket is `AIUI_LAN_APPROVALS_SOCKET`, else aiui.json's `lan_approvals_socket`, else
//! [`remote::DEFAULT_SOCKET`] when it exists at start. While the service cannot be reached the list is empty
//! (nothing stale can be approved) and the connection is tried again every 2 s.

use std::collections::HashMap;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use aiui_core::gate::remote::{self, FromKiosk, Line, MAX_LINE_BYTES, ToKiosk, read_line};
use aiui_core::gate::{ConfirmRequest, Decision, Verdict};
use aiui_core::view::PendingView;
use serde::Serialize;
use tokio::io::{AsyncWriteExt, BufReader};
use tokio::net::UnixStream;
use tokio::net::unix::OwnedWriteHalf;
use tokio::sync::oneshot;

/// The environment variable that names the socket (it wins over the config file).
pub const SOCKET_ENV: &str = "AIUI_LAN_APPROVALS_SOCKET";
/// How long the service is waited for after the connection dropped or was refused.
const RECONNECT_EVERY: Duration = Duration::from_secs(2);
/// How long an answer is waited for once a decision was sent.
const ANSWER_WITHIN: Duration = Duration::from_secs(10);
/// A service that stops reading is treated as gone.
const WRITE_TIMEOUT: Duration = Duration::from_secs(5);

/// Where the socket path came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    Env,
    Config,
    Default,
}

/// The socket to use: the environment's, the config file's, or the default one if it exists.
pub fn socket_path(
    env: Option<OsString>,
    config: Option<&Path>,
    exists: impl Fn(&Path) -> bool,
) -> Option<(PathBuf, Source)> {
    if let Some(env) = env.filter(|v| !v.is_empty()) {
        return Some((PathBuf::from(env), Source::Env));
    }
    if let Some(path) = config {
        return Some((path.to_owned(), Source::Config));
    }
    let default = Path::new(remote::DEFAULT_SOCKET);
    exists(default).then(|| (default.to_owned(), Source::Default))
}

/// What the service answered a decision: its verdict, or why nothing was decided (its code, if it sends one, and
/// its words).
type Answer = Result<Verdict, (Option<String>, String)>;

/// Why a LAN decision did not come back with a verdict.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LanError {
    /// Nothing was sent: there is no connection to the service.
    #[error(
        "The LAN service is not reachable (nothing answers on {0}): nothing was decided. Check that `aiui-cli serve` \
         runs with --kiosk-socket {0}."
    )]
    Unreachable(String),
    /// Sent, but no answer came: whether it was decided is not known here.
    #[error(
        "The LAN service did not answer within {0} s, so this screen cannot tell whether it was decided. If the \
         request is still listed, it was not; the audit log on the node says for sure."
    )]
    NoAnswer(u64),
    /// The service answered and decided nothing: why, as a code (from a service that sends one) and in its own
    /// English words.
    #[error("{words}")]
    Refused { code: Option<String>, words: String },
    #[error("An answer to this confirmation is already on its way to the LAN service; wait for it.")]
    Busy,
}

impl LanError {
    /// What happened, in `locale`; a refusal without a code this version knows is the service's own words.
    pub fn text(&self, locale: aiui_core::i18n::Locale) -> String {
        use aiui_core::i18n::text;
        match self {
            Self::Unreachable(socket) => text(locale, "error-lan-unreachable", &[("socket", socket.as_str().into())]),
            Self::NoAnswer(seconds) => text(locale, "error-lan-no-answer", &[("seconds", (*seconds).into())]),
            Self::Refused { code, words } => match code.as_deref() {
                Some("too_soon") => text(locale, "error-too-soon", &[]),
                Some("unknown") => text(locale, "error-confirmation-unknown", &[]),
                Some("mismatch") => text(locale, "error-confirmation-changed", &[]),
                // The audit log's failure and a line not understood carry the service's own detail.
                _ => words.clone(),
            },
            Self::Busy => text(locale, "error-lan-busy", &[]),
        }
    }

    /// The service's refusal for a too early approval (its wording starts with "Too soon").
    pub fn is_too_soon(&self) -> bool {
        match self {
            Self::Refused { code: Some(code), .. } => code == "too_soon",
            Self::Refused { code: None, words } => words.to_ascii_lowercase().starts_with("too soon"),
            _ => false,
        }
    }
}

/// The link as the trusted window shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LanLinkView {
    pub socket: String,
    pub connected: bool,
    /// What the owner should know now, in a sentence.
    pub message: String,
}

#[derive(Debug)]
struct Listed {
    connected: bool,
    requests: Vec<ConfirmRequest>,
    /// The service's clock when the list was sent, and when it arrived here.
    now_ms: i64,
    at: Instant,
    /// Why the last connection attempt or connection failed.
    problem: Option<String>,
}

/// The link to the LAN service, shared by the reading task and the commands.
#[derive(Debug)]
pub struct LanApprovals {
    socket: PathBuf,
    source: Source,
    retry: Duration,
    answer_within: Duration,
    listed: Mutex<Listed>,
    writer: tokio::sync::Mutex<Option<OwnedWriteHalf>>,
    answers: Mutex<HashMap<String, oneshot::Sender<Answer>>>,
}

impl LanApprovals {
    pub fn new(socket: PathBuf, source: Source) -> Self {
        Self::with_timing(socket, source, RECONNECT_EVERY, ANSWER_WITHIN)
    }

    fn with_timing(socket: PathBuf, source: Source, retry: Duration, answer_within: Duration) -> Self {
        Self {
            socket,
            source,
            retry,
            answer_within,
            listed: Mutex::new(Listed {
                connected: false,
                requests: Vec::new(),
                now_ms: 0,
                at: Instant::now(),
                problem: None,
            }),
            writer: tokio::sync::Mutex::new(None),
            answers: Mutex::new(HashMap::new()),
        }
    }

    /// The LAN requests waiting now, as the trusted window draws them (route `lan`).
    pub fn pending(&self) -> Vec<PendingView> {
        let listed = self.lock();
        // The service's clock, moved on by the time the list has been here, so the countdown is the service's.
        let now_ms = listed.now_ms + listed.at.elapsed().as_millis() as i64;
        listed
            .requests
            .iter()
            .cloned()
            .map(|request| PendingView { route: "lan", from_lan: true, now_ms, ..PendingView::from(request) })
            .collect()
    }

    pub fn connected(&self) -> bool {
        self.lock().connected
    }

    pub fn view(&self) -> LanLinkView {
        let listed = self.lock();
        let socket = self.socket.display().to_string();
        let message = if listed.connected {
            "Requests from LAN users are approved on this screen too: the LAN service is connected.".to_owned()
        } else {
            let why = listed.problem.as_deref().map(|p| format!(" ({p})")).unwrap_or_default();
            format!(
                "The LAN service is not reachable at {socket}{why}: LAN users' requests cannot be approved here until \
                 it is. Trying again every {} s.",
                self.retry.as_secs().max(1)
            )
        };
        LanLinkView { socket, connected: listed.connected, message }
    }

    /// Sends the owner's decision for a LAN request and waits for the service's verdict.
    pub async fn decide(&self, id: &str, arguments_hash: &str, decision: Decision) -> Result<Verdict, LanError> {
        let unreachable = || LanError::Unreachable(self.socket.display().to_string());
        let (tx, rx) = oneshot::channel();
        {
            let mut answers = self.answers.lock().unwrap_or_else(|p| p.into_inner());
            if answers.contains_key(id) {
                return Err(LanError::Busy);
            }
            answers.insert(id.to_owned(), tx);
        }
        let message = FromKiosk::Decide { id: id.to_owned(), arguments_hash: arguments_hash.to_owned(), decision };
        let sent = async {
            let mut line = serde_json::to_vec(&message).map_err(|_| unreachable())?;
            line.push(b'\n');
            let mut writer = self.writer.lock().await;
            let writer = writer.as_mut().ok_or_else(unreachable)?;
            match tokio::time::timeout(WRITE_TIMEOUT, writer.write_all(&line)).await {
                Ok(Ok(())) => Ok(()),
                _ => Err(unreachable()),
            }
        };
        let outcome = match sent.await {
            Err(e) => Err(e),
            Ok(()) => match tokio::time::timeout(self.answer_within, rx).await {
                Ok(Ok(answer)) => answer.map_err(|(code, words)| LanError::Refused { code, words }),
                // The connection ended, or the time ran out, after the decision left.
                Ok(Err(_)) | Err(_) => Err(LanError::NoAnswer(self.answer_within.as_secs().max(1))),
            },
        };
        self.answers.lock().unwrap_or_else(|p| p.into_inner()).remove(id);
        let short: String = id.chars().take(8).collect();
        match &outcome {
            Ok(verdict) => tracing::info!(id = %short, ?verdict, "decided a LAN request on the kiosk"),
            Err(e) => tracing::warn!(id = %short, error = %e, "a LAN decision was not taken"),
        }
        outcome
    }

    /// Keeps the link up for as long as the app runs. `on_new` is called when the list holds a request not seen
    /// before (the trusted window comes forward); `on_link` when the connection comes or goes.
    pub async fn run(&self, on_new: impl Fn(), on_link: impl Fn()) {
        let mut told = false;
        loop {
            match UnixStream::connect(&self.socket).await {
                Ok(stream) => {
                    tracing::info!(socket = %self.socket.display(), "connected to the LAN service");
                    told = false;
                    self.set_link(true, None);
                    on_link();
                    let why = self.session(stream, &on_new).await;
                    tracing::warn!(socket = %self.socket.display(), %why, "the LAN service's connection ended");
                    self.set_link(false, Some(why));
                    on_link();
                }
                Err(e) => {
                    // Said once per outage (and quietly for the default path, which may simply not be in use).
                    if !told && self.source != Source::Default {
                        tracing::warn!(socket = %self.socket.display(), error = %e, "the LAN service is not reachable");
                    }
                    told = true;
                    // Why the last connection ended says more than the refusals after it.
                    let problem = self.lock().problem.take().unwrap_or_else(|| e.to_string());
                    self.set_link(false, Some(problem));
                }
            }
            tokio::time::sleep(self.retry).await;
        }
    }

    /// Reads one connection's messages until it ends; returns why it ended.
    async fn session(&self, stream: UnixStream, on_new: &impl Fn()) -> String {
        let (read, write) = stream.into_split();
        *self.writer.lock().await = Some(write);
        let mut read = BufReader::new(read);
        let mut line = Vec::new();
        let why = loop {
            match read_line(&mut read, &mut line).await {
                Err(e) => break format!("reading failed: {e}"),
                Ok(Line::End) => break "the service closed it".to_owned(),
                Ok(Line::TooLong) => break format!("the service sent a line longer than {MAX_LINE_BYTES} bytes"),
                Ok(Line::Complete) => {}
            }
            match serde_json::from_slice::<ToKiosk>(&line) {
                Ok(ToKiosk::Pending { requests, now_ms }) => {
                    if self.replace(requests, now_ms) {
                        on_new();
                    }
                }
                Ok(ToKiosk::Decided { id, verdict, error, code }) => {
                    let waiting = self.answers.lock().unwrap_or_else(|p| p.into_inner()).remove(&id);
                    let answer = verdict.ok_or_else(|| {
                        let words = error.unwrap_or_else(|| {
                            "The LAN service answered without a verdict; nothing was decided.".into()
                        });
                        (code, words)
                    });
                    match waiting {
                        Some(waiter) => drop(waiter.send(answer)),
                        None => tracing::warn!(?answer, "the LAN service answered a decision nobody here waits for"),
                    }
                }
                Err(e) => tracing::warn!(error = %e, "the LAN service sent a line this kiosk does not understand"),
            }
            line.clear();
        };
        *self.writer.lock().await = None;
        why
    }

    /// Keeps the service's list; whether it holds a request not listed before.
    fn replace(&self, requests: Vec<ConfirmRequest>, now_ms: i64) -> bool {
        // The service lists LAN users' requests only; anything else is not this screen's to show as one.
        let (lan, other): (Vec<_>, Vec<_>) = requests.into_iter().partition(|r| r.requester.is_lan());
        if !other.is_empty() {
            tracing::warn!(count = other.len(), "the LAN service listed requests that are not a LAN user's; not shown");
        }
        let mut listed = self.lock();
        let new = lan.iter().any(|r| listed.requests.iter().all(|old| old.id != r.id));
        listed.requests = lan;
        listed.now_ms = now_ms;
        listed.at = Instant::now();
        new
    }

    fn set_link(&self, connected: bool, problem: Option<String>) {
        let mut listed = self.lock();
        listed.connected = connected;
        listed.problem = problem;
        if !connected {
            // Nothing stale stays approvable while the service cannot be asked.
            listed.requests.clear();
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Listed> {
        self.listed.lock().unwrap_or_else(|p| p.into_inner())
    }
}

#[cfg(test)]
mod tests;
