//! AIUI as a LAN web service (`aiui-cli serve`): the chat origin for LAN users and, on a second port, the trusted
//! origin where the owner answers confirmations. Both serve the same `ui/` files as the desktop app; the pages
//! talk to them over fetch and Server-Sent Events. Approval exists only on the trusted origin: the chat origin can
//! see that something waits and link there, nothing more. The wallet's overview and withdrawals to Lightning are
//! the trusted origin's too (`wallet.rs`); its seed, restoring and tokens never go over the LAN.

pub mod auth;
mod chat;
pub mod control;
mod files;
mod kiosk;
mod origin;
pub mod passphrase;
mod serve;
mod trusted;
mod turns;
mod wallet;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::{Arc, RwLock};
use std::time::Duration;

use aiui_core::agent::Agent;
use aiui_core::budget::BudgetStore;
use aiui_core::pay::Payments;
use anyhow::Context;
use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Serialize;

pub use auth::LoginLimits;

/// The default addresses: loopback only; the node's nginx is what the LAN reaches.
pub const DEFAULT_CHAT_ADDR: &str = "127.0.0.1:5180";
pub const DEFAULT_TRUSTED_ADDR: &str = "127.0.0.1:5181";

/// How long an approval must wait after the trusted origin first showed the request to this owner session; the
/// same delay as the desktop trusted window's.
pub const APPROVE_DELAY: Duration = Duration::from_secs(1);

/// How long a withdrawal's answer waits for the mint by default: well inside a proxy's read timeout (nginx: 60 s).
pub const DEFAULT_WITHDRAW_WAIT: Duration = Duration::from_secs(20);

/// How the service is reached and where its files are.
#[derive(Debug, Clone)]
pub struct WebConfig {
    pub chat_addr: SocketAddr,
    pub trusted_addr: SocketAddr,
    /// The path both origins are served under, starting and ending with `/` (e.g. `/aiui/`).
    pub base_path: String,
    /// The `ui/` directory (index.html, trusted.html, js/, trusted/, css/).
    pub ui_dir: PathBuf,
    /// Where the passphrase hashes are.
    pub data_dir: PathBuf,
    /// The trusted origin's address as the LAN sees it, for the chat origin's link. Default: the chat request's
    /// host name with the trusted port, under the base path.
    pub trusted_url: Option<String>,
    /// Mark cookies `Secure` (the service is reached over https through a proxy).
    pub secure_cookies: bool,
    /// Trust `X-Forwarded-For`/`X-Real-IP`/`X-Forwarded-Host` from a proxy on this machine (the node's nginx).
    pub trust_proxy: bool,
    pub limits: LoginLimits,
    /// How many turns a LAN session, and an address group, may start within a window.
    pub turn_limits: TurnLimits,
    /// How long a withdrawal's answer waits for the mint before telling the owner it is still being paid (the
    /// withdrawal itself goes on, in the ledger as in flight).
    pub withdraw_wait: Duration,
    /// How long a connection may take to send a request's headers, or sit idle between requests.
    pub header_read_timeout: Duration,
    /// The most connections each origin holds open at once (chat, trusted): each has its own, so a flooded chat
    /// origin never starves the owner's.
    pub max_connections: (usize, usize),
    /// Host names the chat origin answers to, and the trusted origin (IP addresses and `localhost` always): any
    /// other `Host` gets 421.
    pub chat_hosts: Vec<String>,
    pub trusted_hosts: Vec<String>,
    /// Signing in on the trusted origin needs the approval passphrase *and* a TOTP code.
    pub approval_needs_both: bool,
    /// The Unix socket the node's kiosk connects to, to approve LAN requests on its own screen.
    pub kiosk_socket: Option<PathBuf>,
    /// Where LAN requests are approved.
    pub lan_approver: LanApprover,
    /// How long an owner session on the trusted origin lives (idle, at most).
    pub trusted_lifetime: auth::Lifetime,
    /// The language of the pages, set by the node's owner; `None`: each browser's `Accept-Language`.
    pub locale: Option<aiui_core::i18n::Locale>,
}

/// The turns LAN users may start: per session and per address group (counted like sign-ins, see [`LoginLimits`]).
#[derive(Debug, Clone, Copy)]
pub struct TurnLimits {
    pub per_session: LoginLimits,
    pub per_address: LoginLimits,
}

impl Default for TurnLimits {
    /// Ten a minute per session, twenty per address group: a person chatting never meets them; a script flooding
    /// the owner with confirmations, or spending the allowance, does.
    fn default() -> Self {
        let minute = Duration::from_secs(60);
        Self {
            per_session: LoginLimits { per_address: 10, overall: usize::MAX, window: minute },
            per_address: LoginLimits { per_address: 20, overall: usize::MAX, window: minute },
        }
    }
}

/// Where the owner approves what LAN users ask. Denying works everywhere.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum LanApprover {
    /// On the trusted origin, with the approval passphrase or a TOTP code.
    #[default]
    Trusted,
    /// On the node's own screen (the kiosk), press-and-hold; the trusted origin can only deny.
    Kiosk,
    /// Either.
    Both,
}

impl std::str::FromStr for LanApprover {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "trusted" => Ok(Self::Trusted),
            "kiosk" => Ok(Self::Kiosk),
            "both" => Ok(Self::Both),
            other => Err(format!("{other:?}: say trusted (the trusted origin), kiosk (the node's screen) or both")),
        }
    }
}

impl WebConfig {
    pub fn new(data_dir: PathBuf, ui_dir: PathBuf) -> Self {
        Self {
            chat_addr: DEFAULT_CHAT_ADDR.parse().unwrap_or_else(|_| SocketAddr::from(([127, 0, 0, 1], 5180))),
            trusted_addr: DEFAULT_TRUSTED_ADDR.parse().unwrap_or_else(|_| SocketAddr::from(([127, 0, 0, 1], 5181))),
            base_path: "/".into(),
            ui_dir,
            data_dir,
            trusted_url: None,
            secure_cookies: false,
            trust_proxy: false,
            limits: LoginLimits::default(),
            turn_limits: TurnLimits::default(),
            withdraw_wait: DEFAULT_WITHDRAW_WAIT,
            header_read_timeout: serve::HEADER_READ_TIMEOUT,
            max_connections: serve::MAX_CONNECTIONS,
            chat_hosts: Vec::new(),
            trusted_hosts: Vec::new(),
            approval_needs_both: false,
            kiosk_socket: None,
            lan_approver: LanApprover::Trusted,
            trusted_lifetime: auth::TRUSTED_LIFETIME,
            locale: None,
        }
    }
}

/// Makes `--base-path` a path that starts and ends with `/`, or says why it cannot be one.
pub fn normalise_base_path(raw: &str) -> anyhow::Result<String> {
    let trimmed = raw.trim().trim_matches('/');
    if trimmed.split('/').any(|seg| seg == ".." || seg == ".")
        || !trimmed.chars().all(|c| c.is_ascii_alphanumeric() || "-_./".contains(c))
    {
        anyhow::bail!("--base-path {raw:?}: use letters, digits, '-', '_' and '/' only, e.g. /aiui/");
    }
    Ok(if trimmed.is_empty() { "/".into() } else { format!("/{trimmed}/") })
}

/// The assistant the service runs: the same agent, budget store and notices as the shells build.
#[derive(Debug, Clone)]
pub struct Assistant {
    pub agent: Arc<Agent>,
    pub budget: Arc<BudgetStore>,
    /// What the chain build and the background reconcile said the owner should know.
    pub notices: Arc<RwLock<Vec<String>>>,
    /// The node's address, shown in the page header.
    pub node_url: String,
    pub demo: bool,
}

impl Assistant {
    /// The one meter, as the desktop shows it: Routstr's sats, Claude's dollars (the allowance the agent's Claude leg
    /// pays from), and this month's free answers.
    pub fn meter(&self) -> aiui_core::view::AllowanceView {
        let notices = self.notices.read().unwrap_or_else(|p| p.into_inner()).clone();
        let sats = self.budget.get();
        // A chain without a Claude leg spends no dollars: Claude shows as off at $0, and the free answers still count.
        let claude = self.agent.chain.claude_report().unwrap_or(aiui_core::budget::ClaudeReport {
            allowance_usd_micros: 0,
            period: aiui_core::budget::Period::Never,
            period_start_ms: 0,
            renews_at_ms: None,
            spent_usd_micros: 0,
            reserved_usd_micros: 0,
            remaining_usd_micros: 0,
            notice_80_sent: false,
        });
        aiui_core::view::meter(&sats, &claude, &self.agent.store, notices).with_node_mints(self.agent.node_mints())
    }
}

/// What both origins share.
pub(crate) struct Shared {
    pub config: WebConfig,
    pub assistant: Assistant,
    pub ui: files::UiDir,
    /// The wallet the owner withdraws from on the trusted origin; `None`: no wallet on this node.
    pub payments: Option<Arc<Payments>>,
    /// Passphrase checks (argon2id, 19 MiB each) that may be asked for at once, over both origins: a burst of
    /// sign-ins is refused fast instead of queueing without end.
    pub hashing: tokio::sync::Semaphore,
    /// The one thread the checks run on: a check holds 19 MiB and both cores' worth of work would starve the
    /// turns of everybody else (the memory itself goes back after each check, passphrase.rs).
    pub hashers: Hashers,
}

impl Shared {
    /// The language of what the pages show a request's browser: the one the node's owner set for the service,
    /// else the one the browser asks for (`Accept-Language`).
    pub(crate) fn page_locale(&self, headers: &axum::http::HeaderMap) -> aiui_core::i18n::Locale {
        self.config.locale.unwrap_or_else(|| {
            let asked = headers.get(axum::http::header::ACCEPT_LANGUAGE).and_then(|v| v.to_str().ok());
            aiui_core::i18n::Locale::from_accept_language(asked.unwrap_or_default())
        })
    }
}

type HashJob = Box<dyn FnOnce() + Send>;

/// [`HASHER_THREADS`] threads that run passphrase checks, one at a time each.
pub(crate) struct Hashers(std::sync::mpsc::Sender<HashJob>);

impl Hashers {
    fn start() -> anyhow::Result<Self> {
        let (jobs, queue) = std::sync::mpsc::channel::<HashJob>();
        let queue = Arc::new(std::sync::Mutex::new(queue));
        for n in 0..HASHER_THREADS {
            let queue = queue.clone();
            std::thread::Builder::new()
                .name(format!("aiui-argon2-{n}"))
                .spawn(move || {
                    loop {
                        let job = queue.lock().unwrap_or_else(|p| p.into_inner()).recv();
                        match job {
                            Ok(job) => job(),
                            // The service is gone.
                            Err(_) => return,
                        }
                    }
                })
                .context("starting the passphrase-check threads")?;
        }
        Ok(Self(jobs))
    }

    /// Runs `check` on one of the threads (the caller holds a [`Shared::hashing`] permit, so it never waits for more
    /// than one other check).
    async fn run(&self, check: impl FnOnce() -> bool + Send + 'static) -> Result<bool, ApiError> {
        let (answer, answered) = tokio::sync::oneshot::channel();
        let job: HashJob = Box::new(move || {
            let _ = answer.send(check());
        });
        self.0.send(job).map_err(|_| ApiError::internal("the passphrase checks stopped"))?;
        answered.await.map_err(|_| ApiError::internal("a passphrase check failed"))
    }
}

/// How many argon2 checks may be asked for at once: one running, one waiting (~20 ms); a third is refused (429).
pub(crate) const HASHING_AT_ONCE: usize = 2;
/// How many threads run them: one, so a burst of sign-ins holds one check's 19 MiB and one core, and a check takes
/// ~20 ms, far faster than people sign in.
const HASHER_THREADS: usize = 1;
/// The longest passphrase (or code) checked; anything longer is refused before it is hashed.
pub(crate) const MAX_SECRET_BYTES: usize = 1024;

impl Shared {
    /// Checks `secret` against `hash` behind [`Shared::hashing`]; `Err` (429) when as many checks already run.
    pub(crate) async fn verify(&self, hash: &passphrase::StoredHash, secret: &str) -> Result<bool, ApiError> {
        if secret.len() > MAX_SECRET_BYTES {
            return Err(ApiError::said(
                axum::http::StatusCode::PAYLOAD_TOO_LARGE,
                "too_long",
                "error-passphrase-too-long",
                &[],
            ));
        }
        let Ok(_permit) = self.hashing.try_acquire() else {
            tracing::warn!("passphrase checks refused: as many as allowed are running");
            return Err(ApiError::rate_limited(std::time::Duration::from_secs(2)));
        };
        let (hash, secret) = (hash.clone(), secret.to_owned());
        self.hashers.run(move || hash.verify(&secret)).await
    }
}

/// The running service.
#[derive(Debug)]
pub struct Running {
    pub chat_addr: SocketAddr,
    pub trusted_addr: SocketAddr,
    tasks: Vec<tokio::task::JoinHandle<()>>,
}

impl Running {
    /// Waits until either origin's server stops (an accept error); normally never.
    pub async fn wait(mut self) -> anyhow::Result<()> {
        let (first, _, rest) = futures_util::future::select_all(self.tasks.drain(..)).await;
        for task in rest {
            task.abort();
        }
        first.context("a server task stopped")?;
        anyhow::bail!("a server stopped")
    }

    pub fn shutdown(self) {
        for task in self.tasks {
            task.abort();
        }
    }
}

/// Binds both origins and serves them, with no wallet (see [`start_with_payments`]). Refuses to start without a LAN
/// passphrase and an approval passphrase (or TOTP) set, so there is never an open or an unapprovable service.
pub async fn start(config: WebConfig, assistant: Assistant) -> anyhow::Result<Running> {
    start_with_payments(config, assistant, None).await
}

/// [`start`], with the wallet the trusted origin shows and withdraws from (to Lightning, each withdrawal with the
/// approval passphrase or a TOTP code). `None`: the wallet routes answer that this node has no wallet.
pub async fn start_with_payments(
    config: WebConfig,
    assistant: Assistant,
    payments: Option<Arc<Payments>>,
) -> anyhow::Result<Running> {
    let lan = passphrase::StoredHash::load(&config.data_dir, passphrase::Kind::Lan)?
        .context("no LAN passphrase is set: run `aiui-cli serve set-password` first")?;
    let approval = passphrase::StoredHash::load(&config.data_dir, passphrase::Kind::Approval)?;
    let totp = passphrase::load_totp(&config.data_dir)?;
    if approval.is_none() && totp.is_none() {
        anyhow::bail!(
            "no approval passphrase is set: run `aiui-cli serve set-approval-password` (or `set-approval-totp`) first"
        );
    }
    if config.approval_needs_both && (approval.is_none() || totp.is_none()) {
        anyhow::bail!(
            "--approval-needs-both needs an approval passphrase and a TOTP secret: run `aiui-cli serve \
             set-approval-password` and `aiui-cli serve set-approval-totp`"
        );
    }
    if config.lan_approver != LanApprover::Trusted && config.kiosk_socket.is_none() {
        anyhow::bail!("--lan-approver kiosk or both needs --kiosk-socket <path> (the socket the kiosk connects to)");
    }
    let ui = files::UiDir::open(&config.ui_dir)?;
    let hashing = tokio::sync::Semaphore::new(HASHING_AT_ONCE);
    let gate = assistant.agent.gate.clone();
    let hashers = Hashers::start()?;
    let shared = Arc::new(Shared { config: config.clone(), assistant, ui, payments, hashing, hashers });
    let chat_listener = tokio::net::TcpListener::bind(config.chat_addr)
        .await
        .with_context(|| format!("binding the chat origin to {}", config.chat_addr))?;
    let trusted_listener = tokio::net::TcpListener::bind(config.trusted_addr)
        .await
        .with_context(|| format!("binding the trusted origin to {}", config.trusted_addr))?;
    let kiosk_listener = config.kiosk_socket.as_deref().map(kiosk::bind).transpose()?;
    let chat_addr = chat_listener.local_addr()?;
    let trusted_addr = trusted_listener.local_addr()?;
    let chat = chat::origin(shared.clone(), lan, trusted_addr.port());
    let trusted = trusted::origin(shared, trusted::Secrets { approval, totp });
    let control = control::Control::new(&config.data_dir, chat.clone(), trusted.clone());
    let (chat_cap, trusted_cap) = config.max_connections;
    let timeout = config.header_read_timeout;
    let mut tasks = vec![
        tokio::spawn(serve::bounded(chat_listener, chat::router(chat), chat_cap, timeout, "chat")),
        tokio::spawn(serve::bounded(trusted_listener, trusted::router(trusted), trusted_cap, timeout, "trusted")),
        tokio::spawn(control.run()),
    ];
    if let Some(listener) = kiosk_listener {
        tasks.push(tokio::spawn(kiosk::serve(listener, gate)));
    }
    tracing::info!(%chat_addr, %trusted_addr, "serving");
    Ok(Running { chat_addr, trusted_addr, tasks })
}

/// A refusal as the pages receive it: a stable `code` and a sentence for the person.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct ApiError {
    #[serde(skip)]
    pub status: StatusCode,
    pub code: &'static str,
    pub message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub retry_after_s: Option<u64>,
}

tokio::task_local! {
    /// The language of the request being answered (the service's `--language`, else the browser's
    /// `Accept-Language`), for the refusals written while answering it. Set around every request by
    /// `origin::in_the_requests_language`.
    static REQUEST_LOCALE: aiui_core::i18n::Locale;
}

/// The language of the request being answered; English outside one.
pub(crate) fn request_locale() -> aiui_core::i18n::Locale {
    REQUEST_LOCALE.try_with(|locale| *locale).unwrap_or_default()
}

/// Runs `answer` with `locale` as the request's language.
pub(crate) async fn in_language<T>(locale: aiui_core::i18n::Locale, answer: impl Future<Output = T>) -> T {
    REQUEST_LOCALE.scope(locale, answer).await
}

impl ApiError {
    pub fn new(status: StatusCode, code: &'static str, message: impl Into<String>) -> Self {
        Self { status, code, message: message.into(), retry_after_s: None }
    }

    /// A refusal in the words of the request's language: message `key` of the catalogues (`errors.ftl`).
    pub fn said(
        status: StatusCode,
        code: &'static str,
        key: &str,
        args: &[(&str, aiui_core::i18n::FluentValue<'_>)],
    ) -> Self {
        Self::new(status, code, aiui_core::i18n::text(request_locale(), key, args))
    }

    pub fn signed_out() -> Self {
        Self::said(StatusCode::UNAUTHORIZED, "signed_out", "error-signed-out", &[])
    }

    pub fn forbidden_origin() -> Self {
        Self::said(StatusCode::FORBIDDEN, "bad_origin", "error-bad-origin", &[])
    }

    pub fn rate_limited(wait: Duration) -> Self {
        let secs = wait.as_secs().max(1);
        Self {
            retry_after_s: Some(secs),
            ..Self::said(
                StatusCode::TOO_MANY_REQUESTS,
                "rate_limited",
                "error-rate-limited",
                &[("seconds", secs.into())],
            )
        }
    }

    pub fn duplicate_cookie() -> Self {
        Self::said(StatusCode::BAD_REQUEST, "duplicate_cookie", "error-duplicate-cookie", &[])
    }

    pub fn internal(e: impl std::fmt::Display) -> Self {
        Self::new(StatusCode::INTERNAL_SERVER_ERROR, "internal", e.to_string())
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut response = (self.status, Json(&self)).into_response();
        if let Some(secs) = self.retry_after_s
            && let Ok(value) = secs.to_string().parse()
        {
            response.headers_mut().insert(axum::http::header::RETRY_AFTER, value);
        }
        response
    }
}

/// Runs a blocking store call off the async threads.
pub(crate) async fn blocking<T: Send + 'static>(
    call: impl FnOnce() -> Result<T, aiui_core::store::StoreError> + Send + 'static,
) -> Result<T, ApiError> {
    tokio::task::spawn_blocking(call)
        .await
        .map_err(ApiError::internal)?
        .map_err(|e| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "store", e.to_string()))
}
