//! The llama.cpp wrapper: one model and one context on a dedicated thread, scoring candidate continuations.
//!
//! Scoring is calibrated log-likelihood: each candidate's summed log-probability after the owner's request, minus
//! the same candidate's sum after a null request (computed once at load). The plain sum prefers the shortest
//! candidate and the per-token mean the most predictable one; the difference measures what the request itself
//! adds. The prompt's fixed prefix stays in the KV cache across requests; only the request and the candidates
//! are decoded per request, all candidates in one batch, each in its own sequence over the shared cells.

use std::num::NonZeroU32;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{OnceLock, mpsc};
use std::time::{Duration, Instant};

use llama_cpp_2::context::LlamaContext;
use llama_cpp_2::context::params::LlamaContextParams;
use llama_cpp_2::llama_backend::LlamaBackend;
use llama_cpp_2::llama_batch::LlamaBatch;
use llama_cpp_2::model::LlamaModel;
use llama_cpp_2::model::params::LlamaModelParams;
use llama_cpp_2::token::LlamaToken;
use tokio::sync::oneshot;

/// What the model is asked: a fixed prompt around the request, and the continuations to score.
#[derive(Debug, Clone)]
pub struct ScoringTask {
    /// Everything before the request; decoded once and kept in the cache.
    pub prefix: String,
    /// Everything between the request and a candidate.
    pub suffix: String,
    pub candidates: Vec<String>,
    /// The request used for calibration: one that asks for nothing.
    pub null_request: String,
}

/// How a load went, for the bench and the logs.
#[derive(Debug, Clone, Copy)]
pub struct LoadReport {
    pub load: Duration,
    pub prefix_tokens: usize,
}

/// One scoring, with what it cost.
#[derive(Debug, Clone)]
pub struct Scores {
    /// Calibrated score per candidate, in the task's order.
    pub calibrated: Vec<f32>,
    pub tokens_decoded: usize,
    pub elapsed: Duration,
}

pub(crate) enum Job {
    Score { request: String, reply: oneshot::Sender<Result<Scores, String>> },
}

/// Runs on the engine thread until every sender is gone: loads once, then answers jobs in order.
pub(crate) fn run(
    model_path: PathBuf,
    task: ScoringTask,
    threads: i32,
    jobs: mpsc::Receiver<Job>,
    loaded: oneshot::Sender<Result<LoadReport, String>>,
    cancelled: Arc<AtomicU64>,
) {
    let started = Instant::now();
    let backend = match backend() {
        Ok(backend) => backend,
        Err(e) => {
            let _ = loaded.send(Err(e));
            return;
        }
    };
    let model = match LlamaModel::load_from_file(backend, &model_path, &LlamaModelParams::default()) {
        Ok(model) => model,
        Err(e) => {
            let _ = loaded.send(Err(format!("the model at {} could not be loaded: {e}", model_path.display())));
            return;
        }
    };
    let mut scorer = match Scorer::new(backend, &model, task, threads) {
        Ok(scorer) => scorer,
        Err(e) => {
            let _ = loaded.send(Err(e));
            return;
        }
    };
    let _ = loaded.send(Ok(LoadReport { load: started.elapsed(), prefix_tokens: scorer.prefix.len() }));
    while let Ok(job) = jobs.recv() {
        match job {
            Job::Score { request, reply } => {
                if reply.is_closed() {
                    cancelled.fetch_add(1, Ordering::SeqCst);
                    continue;
                }
                let result = scorer.score_calibrated(&request, &|| reply.is_closed());
                if reply.is_closed() {
                    cancelled.fetch_add(1, Ordering::SeqCst);
                }
                let _ = reply.send(result);
            }
        }
    }
}

/// llama.cpp's process-wide state: initialized once, however many models a process loads.
fn backend() -> Result<&'static LlamaBackend, String> {
    static BACKEND: OnceLock<Result<LlamaBackend, String>> = OnceLock::new();
    BACKEND
        .get_or_init(|| {
            LlamaBackend::init()
                .map(|mut backend| {
                    backend.void_logs();
                    backend
                })
                .map_err(|e| format!("llama.cpp could not start: {e}"))
        })
        .as_ref()
        .map_err(Clone::clone)
}

/// The model's context with the prefix decoded, and the null request's sums.
struct Scorer<'m> {
    model: &'m LlamaModel,
    context: LlamaContext<'m>,
    prefix: Vec<LlamaToken>,
    suffix: Vec<LlamaToken>,
    candidates: Vec<Vec<LlamaToken>>,
    null_sums: Vec<f32>,
    batch: LlamaBatch<'static>,
}

/// Why a scoring stopped early: the owner went away, or llama.cpp failed.
enum Stop {
    Cancelled,
    Failed(String),
}

impl<'m> Scorer<'m> {
    fn new(backend: &LlamaBackend, model: &'m LlamaModel, task: ScoringTask, threads: i32) -> Result<Self, String> {
        let tokenize = |text: &str| model.vocab().tokenize(text.as_bytes(), false, true);
        let prefix = tokenize(&task.prefix);
        let suffix = tokenize(&task.suffix);
        let candidates: Vec<Vec<LlamaToken>> = task.candidates.iter().map(|c| tokenize(c)).collect();
        if candidates.is_empty() || candidates.iter().any(Vec::is_empty) {
            return Err("the scoring task has an empty candidate".into());
        }
        let candidate_tokens: usize = candidates.iter().map(Vec::len).sum();
        // Room for the prefix, a long request, and every candidate side by side.
        let n_ctx = (prefix.len() + suffix.len() + MAX_REQUEST_TOKENS + candidate_tokens + 64) as u32;
        let n_batch = (MAX_REQUEST_TOKENS + suffix.len() + candidate_tokens + prefix.len()).max(512) as u32;
        let sequences = candidates.len() as u32;
        let params = LlamaContextParams::default()
            .with_n_ctx(NonZeroU32::new(n_ctx))
            .with_n_batch(n_batch)
            .with_n_ubatch(n_batch)
            .with_n_seq_max(sequences)
            .with_kv_unified(true)
            .with_n_threads(threads)
            .with_n_threads_batch(threads);
        let context =
            model.new_context(backend, params).map_err(|e| format!("the model's context could not be made: {e}"))?;
        let batch = LlamaBatch::new(n_batch as usize, sequences as i32);
        let mut scorer = Self { model, context, prefix, suffix, candidates, null_sums: Vec::new(), batch };
        let all: Vec<i32> = (0..sequences as i32).collect();
        scorer.batch.clear();
        for (pos, token) in scorer.prefix.iter().enumerate() {
            scorer.batch.add(*token, pos as i32, &all, false).map_err(|e| e.to_string())?;
        }
        scorer.context.decode(&mut scorer.batch).map_err(|e| format!("the prompt could not be decoded: {e}"))?;
        scorer.null_sums = match scorer.sums(&task.null_request, &|| false) {
            Ok(sums) => sums.0,
            Err(Stop::Failed(e)) => return Err(e),
            Err(Stop::Cancelled) => return Err("cancelled".into()),
        };
        Ok(scorer)
    }

    fn score_calibrated(&mut self, request: &str, cancelled: &dyn Fn() -> bool) -> Result<Scores, String> {
        let started = Instant::now();
        match self.sums(request, cancelled) {
            Ok((sums, tokens)) => Ok(Scores {
                calibrated: sums.iter().zip(&self.null_sums).map(|(s, n)| s - n).collect(),
                tokens_decoded: tokens,
                elapsed: started.elapsed(),
            }),
            Err(Stop::Cancelled) => Err("cancelled".into()),
            Err(Stop::Failed(e)) => Err(e),
        }
    }

    /// Summed log-probability of each candidate after `request`. Leaves the cache holding the prefix only.
    fn sums(&mut self, request: &str, cancelled: &dyn Fn() -> bool) -> Result<(Vec<f32>, usize), Stop> {
        let result = self.sums_inner(request, cancelled);
        let keep = self.prefix.len() as u32;
        // Whatever happened, the request's cells go, so the next request starts from the cached prefix.
        let _ = self.context.clear_kv_cache_seq(None, Some(keep), None);
        result
    }

    fn sums_inner(&mut self, request: &str, cancelled: &dyn Fn() -> bool) -> Result<(Vec<f32>, usize), Stop> {
        let failed = |e: &dyn std::fmt::Display| Stop::Failed(format!("the model failed: {e}"));
        let mut request_tokens = self.model.vocab().tokenize(request.as_bytes(), false, false);
        request_tokens.truncate(MAX_REQUEST_TOKENS);
        let shared: Vec<LlamaToken> = request_tokens.iter().chain(&self.suffix).copied().collect();
        let all: Vec<i32> = (0..self.candidates.len() as i32).collect();
        let start = self.prefix.len();
        if cancelled() {
            return Err(Stop::Cancelled);
        }
        self.batch.clear();
        for (i, token) in shared.iter().enumerate() {
            let last = i + 1 == shared.len();
            self.batch.add(*token, (start + i) as i32, &all, last).map_err(|e| failed(&e))?;
        }
        self.context.decode(&mut self.batch).map_err(|e| failed(&e))?;
        let first_row = self.batch.n_tokens() - 1;
        if cancelled() {
            return Err(Stop::Cancelled);
        }
        let first_logits = self.context.get_logits_ith(first_row).to_vec();
        let base = start + shared.len();
        self.batch.clear();
        let mut rows = Vec::with_capacity(self.candidates.len());
        for (seq, candidate) in self.candidates.iter().enumerate() {
            rows.push(self.batch.n_tokens());
            // A candidate's last token is scored by the logits before it and predicts nothing that is scored, so
            // it is never decoded: one token fewer per candidate, the same scores.
            let inputs = &candidate[..candidate.len() - 1];
            for (i, token) in inputs.iter().enumerate() {
                self.batch.add(*token, (base + i) as i32, &[seq as i32], true).map_err(|e| failed(&e))?;
            }
        }
        // Only single-token candidates: nothing more to decode.
        if self.batch.n_tokens() > 0 {
            self.context.decode(&mut self.batch).map_err(|e| failed(&e))?;
        }
        let mut sums = Vec::with_capacity(self.candidates.len());
        for (candidate, row) in self.candidates.iter().zip(rows) {
            let mut sum = log_prob(&first_logits, candidate[0]);
            for (i, token) in candidate.iter().enumerate().skip(1) {
                sum += log_prob(self.context.get_logits_ith(row + i as i32 - 1), *token);
            }
            sums.push(sum);
        }
        Ok((sums, shared.len() + self.batch.n_tokens() as usize))
    }
}

/// Requests longer than this are cut: the intent of an everyday request is in its first words.
const MAX_REQUEST_TOKENS: usize = 96;

/// The log-probability of `token` under `logits`.
fn log_prob(logits: &[f32], token: LlamaToken) -> f32 {
    let max = logits.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let total: f32 = logits.iter().map(|l| (l - max).exp()).sum();
    logits[token.0 as usize] - (total.ln() + max)
}

/// Whether this CPU can run the bundled build (compiled with AVX2/FMA/F16C): it would die with SIGILL otherwise.
pub fn cpu_supported() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("fma")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        true
    }
}

/// The model file's path is readable and a file.
pub fn model_present(path: &Path) -> bool {
    path.is_file()
}
