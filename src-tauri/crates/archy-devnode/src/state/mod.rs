//! The node's shared, live state: credentials, sessions, packages, fault knobs, and the tasks that finish
//! package transitions.

pub(crate) mod persist;

use std::path::PathBuf;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, SystemTime};

use anyhow::Context as _;
use tokio::task::JoinSet;

use self::persist::{PersistError, STATE_FILE};
use crate::auth::{Credentials, Sessions};
use crate::chain::Chain;
use crate::config::{DevNodeConfig, MintConfig};
use crate::faults::FaultPattern;
use crate::packages::{Action, PackageError, PackageState, Packages};
use crate::ratelimit::LoginLimiter;

/// Locks a mutex, carrying on past a panic in another holder: every critical section here leaves the data
/// consistent before anything that could panic, and a simulator that stops answering helps no test.
pub(crate) fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

#[derive(Debug)]
pub(crate) struct NodeState {
    pub credentials: Credentials,
    pub tls: bool,
    pub transition: Duration,
    pub mints: Vec<MintConfig>,
    pub started: SystemTime,
    pub chain: Chain,
    state_path: PathBuf,
    pub sessions: Mutex<Sessions>,
    pub limiter: Mutex<LoginLimiter>,
    pub packages: Mutex<Packages>,
    pub faults: Mutex<FaultPattern>,
    pub shapes: Mutex<crate::Shapes>,
    pub calls: Mutex<Vec<String>>,
    /// Every call with its params, for tests asserting what reached the node.
    pub requests: Mutex<Vec<(String, serde_json::Value)>>,
    /// Transition tasks in flight. `None` once the node is shutting down, so no new ones start.
    tasks: Mutex<Option<JoinSet<()>>>,
}

/// Why a package action failed.
#[derive(Debug, thiserror::Error)]
pub(crate) enum ActError {
    #[error(transparent)]
    Package(#[from] PackageError),
    /// The change happened in memory but could not be saved.
    #[error("the change was made but not saved: {0}")]
    Persist(#[from] PersistError),
    #[error("the node is shutting down")]
    ShuttingDown,
}

impl NodeState {
    /// Checks the configuration, creates the data directory and loads (or seeds) the package states.
    pub fn open(config: &DevNodeConfig) -> anyhow::Result<Self> {
        let credentials = Credentials::new(&config.password, config.totp_secret.as_deref())?;
        std::fs::create_dir_all(&config.data_dir)
            .with_context(|| format!("could not create the data directory {}", config.data_dir.display()))?;
        let state_path = config.data_dir.join(STATE_FILE);
        let started = SystemTime::now();
        let chain = Chain::new(started);
        let mut packages = Packages::seeded(chain, started);
        if let Some(saved) = persist::load(&state_path)? {
            packages.restore(&saved, started);
        }
        // Saved at once, so transitional states resolved above are not resolved again from a stale file.
        persist::save(&state_path, &packages.snapshot())?;
        Ok(Self {
            credentials,
            tls: config.tls,
            transition: config.transition,
            mints: config.mints.clone(),
            started,
            chain,
            state_path,
            sessions: Mutex::new(Sessions::new(config.session_ttl)),
            limiter: Mutex::new(LoginLimiter::new(config.login_failures_per_minute)),
            packages: Mutex::new(packages),
            faults: Mutex::new(FaultPattern::new(config.faults.clone())),
            shapes: Mutex::new(config.shapes),
            calls: Mutex::new(Vec::new()),
            requests: Mutex::new(Vec::new()),
            tasks: Mutex::new(Some(JoinSet::new())),
        })
    }

    /// Begins a package action and schedules its end after the transition delay. Returns once the package is
    /// in its transitional state and that state is saved.
    pub fn act(self: &Arc<Self>, id: &str, action: Action, version: Option<&str>) -> Result<(), ActError> {
        let mut tasks = lock(&self.tasks);
        let Some(tasks) = tasks.as_mut() else { return Err(ActError::ShuttingDown) };
        // Finished tasks are reaped here so a long demo does not accumulate them.
        while tasks.try_join_next().is_some() {}

        let mut packages = lock(&self.packages);
        let transitional = packages.begin(id, action, version, SystemTime::now())?;
        tracing::info!(package = id, state = transitional.as_str(), "package transition started");
        // The transition goes ahead even if saving fails, so the live node stays consistent with what it said.
        self.schedule_finish(tasks, id.to_owned(), transitional);
        persist::save(&self.state_path, &packages.snapshot())?;
        Ok(())
    }

    fn schedule_finish(self: &Arc<Self>, tasks: &mut JoinSet<()>, id: String, from: PackageState) {
        let node = Arc::clone(self);
        tasks.spawn(async move {
            tokio::time::sleep(node.transition).await;
            let mut packages = lock(&node.packages);
            if packages.finish(&id, from, SystemTime::now()) {
                let state = packages.get(&id).map_or("?", |p| p.state.as_str());
                tracing::info!(package = %id, state, "package transition finished");
                if let Err(e) = persist::save(&node.state_path, &packages.snapshot()) {
                    tracing::error!(error = %e, "could not save the package state");
                }
            }
        });
    }

    /// Stops scheduling transitions and cancels those in flight. A transition cut short is saved in its
    /// transitional state, which the next start resolves to its target.
    pub async fn stop_tasks(&self) {
        let tasks = lock(&self.tasks).take();
        if let Some(mut tasks) = tasks {
            tasks.abort_all();
            while tasks.join_next().await.is_some() {}
        }
    }

    /// Cancels transitions without waiting, for a node dropped without a shutdown.
    pub fn abort_tasks(&self) {
        // Dropping a JoinSet aborts every task in it.
        drop(lock(&self.tasks).take());
    }
}
