//! The node's apps: their lifecycle state machine, the catalogue they come from, and their logs.

mod catalogue;
mod logs;

use std::time::SystemTime;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use self::catalogue::{CATALOGUE, CatalogueEntry};
pub(crate) use self::logs::LogRing;
use crate::chain::Chain;
use crate::state::persist::{PersistedPackage, PersistedState};
use crate::time;

/// A package's lifecycle state, spelled on the wire as the real node spells it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum PackageState {
    Running,
    Stopped,
    Starting,
    Stopping,
    Restarting,
    Installing,
    Removing,
    NotInstalled,
}

impl PackageState {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Running => "running",
            Self::Stopped => "stopped",
            Self::Starting => "starting",
            Self::Stopping => "stopping",
            Self::Restarting => "restarting",
            Self::Installing => "installing",
            Self::Removing => "removing",
            Self::NotInstalled => "not-installed",
        }
    }

    /// Where a transitional state ends up; settled states are their own target.
    pub fn settled(self) -> Self {
        match self {
            Self::Starting | Self::Restarting | Self::Installing => Self::Running,
            Self::Stopping => Self::Stopped,
            Self::Removing => Self::NotInstalled,
            settled => settled,
        }
    }

    pub fn is_transitional(self) -> bool {
        self.settled() != self
    }
}

/// What an owner (or the assistant) can ask of a package.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Action {
    Start,
    Stop,
    Restart,
    Install,
    Uninstall,
}

/// Why an action cannot start from the package's current state (409).
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub(crate) enum TransitionError {
    #[error("`{0}` is not installed; install it first")]
    NotInstalled(String),
    #[error("`{0}` is not installed, so there is nothing to uninstall")]
    NothingToRemove(String),
    #[error("`{0}` is already running")]
    AlreadyRunning(String),
    #[error("`{0}` is already stopped")]
    AlreadyStopped(String),
    #[error("`{0}` is already installed")]
    AlreadyInstalled(String),
    #[error("`{id}` is {}; wait until it finishes", .state.as_str())]
    Busy { id: String, state: PackageState },
}

/// The transitional state `action` moves a package in `state` into, or why it cannot.
pub(crate) fn plan(id: &str, state: PackageState, action: Action) -> Result<PackageState, TransitionError> {
    use PackageState as S;
    let id = id.to_owned();
    match (action, state) {
        (_, busy) if busy.is_transitional() => Err(TransitionError::Busy { id, state: busy }),
        (Action::Install, S::NotInstalled) => Ok(S::Installing),
        (Action::Install, _) => Err(TransitionError::AlreadyInstalled(id)),
        (Action::Uninstall, S::NotInstalled) => Err(TransitionError::NothingToRemove(id)),
        (Action::Uninstall, _) => Ok(S::Removing),
        (_, S::NotInstalled) => Err(TransitionError::NotInstalled(id)),
        (Action::Start, S::Running) => Err(TransitionError::AlreadyRunning(id)),
        (Action::Start, _) => Ok(S::Starting),
        (Action::Stop, S::Stopped) => Err(TransitionError::AlreadyStopped(id)),
        (Action::Stop, _) => Ok(S::Stopping),
        (Action::Restart, _) => Ok(S::Restarting),
    }
}

#[derive(Debug, thiserror::Error)]
pub(crate) enum PackageError {
    #[error("no package `{0}`")]
    Unknown(String),
    #[error(transparent)]
    Transition(#[from] TransitionError),
}

/// One app as the node sees it.
#[derive(Debug)]
pub(crate) struct Package {
    entry: &'static CatalogueEntry,
    pub version: String,
    pub state: PackageState,
    pub exit_code: Option<i32>,
    pub started_at: Option<SystemTime>,
    pub logs: LogRing,
    /// Replaces the catalogue's title when a test plants hostile text in the package list.
    pub title_override: Option<String>,
}

impl Package {
    /// Derived from the state, so it can never disagree with it.
    fn health(&self) -> Option<&'static str> {
        match self.state {
            PackageState::Running => Some("healthy"),
            PackageState::Starting | PackageState::Restarting | PackageState::Installing => Some("starting"),
            PackageState::Stopped if self.exit_code.is_some_and(|c| c != 0) => Some("unhealthy"),
            _ => None,
        }
    }

    pub fn to_json(&self) -> Value {
        let mut v = json!({
            "id": self.entry.id,
            "title": self.title_override.as_deref().unwrap_or(self.entry.title),
            "version": self.version,
            "state": self.state.as_str(),
            "health": self.health(),
        });
        if let Some(code) = self.exit_code {
            v["exit_code"] = json!(code);
        }
        if let Some(port) = self.entry.lan_port {
            v["lan_address"] = json!(format!("http://archipelago.local:{port}"));
        }
        v
    }

    pub fn status_json(&self) -> Value {
        json!({
            "status": self.state.as_str(),
            "exit_code": self.exit_code,
            "started_at": self.started_at.map(time::rfc3339),
        })
    }

    fn settle(&mut self, now: SystemTime) {
        let target = self.state.settled();
        if target == self.state {
            return;
        }
        self.state = target;
        match target {
            PackageState::Running => {
                self.exit_code = None;
                self.started_at = Some(now);
            }
            PackageState::Stopped => {
                self.exit_code = Some(0);
                self.started_at = None;
            }
            _ => {
                self.version = self.entry.version.to_owned();
                self.exit_code = None;
                self.started_at = None;
            }
        }
    }
}

/// Every package the node knows, installed or not, in catalogue order.
#[derive(Debug)]
pub(crate) struct Packages {
    list: Vec<Package>,
    /// Log lines quote the block height, which moves with the simulated chain.
    chain: Chain,
}

impl Packages {
    /// The catalogue as a fresh node has it, with logs that look like it has been running for a while.
    pub fn seeded(chain: Chain, now: SystemTime) -> Self {
        let list = CATALOGUE
            .iter()
            .map(|entry| Package {
                entry,
                version: entry.version.to_owned(),
                state: entry.state,
                exit_code: entry.exit_code,
                started_at: entry.started_ago.map(|ago| now - ago),
                logs: LogRing::from_lines(catalogue::seed_logs(entry, now)),
                title_override: None,
            })
            .collect();
        Self { list, chain }
    }

    /// Takes the states from a saved file. A package saved mid-transition lands on that transition's target,
    /// since the task that would have finished it died with the old process.
    pub fn restore(&mut self, saved: &PersistedState, now: SystemTime) {
        let height = self.chain.blocks_at(now);
        for package in &mut self.list {
            let Some(p) = saved.packages.get(package.entry.id) else { continue };
            let before = package.state;
            package.version = p.version.clone();
            package.state = p.state;
            package.exit_code = p.exit_code;
            package.started_at = p.started_at.map(time::from_unix_secs);
            package.settle(now);
            let lines = match package.state {
                PackageState::NotInstalled => {
                    package.logs.clear();
                    Vec::new()
                }
                PackageState::Running if before != PackageState::Running => {
                    catalogue::lines(package.entry, catalogue::Phase::Started, &package.version, now, height)
                }
                PackageState::Stopped if before == PackageState::Running => {
                    catalogue::lines(package.entry, catalogue::Phase::Stopped, &package.version, now, height)
                }
                _ => Vec::new(),
            };
            package.logs.extend(lines);
        }
    }

    pub fn snapshot(&self) -> PersistedState {
        let packages = self
            .list
            .iter()
            .map(|p| {
                let saved = PersistedPackage {
                    state: p.state,
                    version: p.version.clone(),
                    exit_code: p.exit_code,
                    started_at: p.started_at.map(time::unix_secs),
                };
                (p.entry.id.to_owned(), saved)
            })
            .collect();
        PersistedState { format: PersistedState::FORMAT, packages }
    }

    pub fn iter(&self) -> impl Iterator<Item = &Package> {
        self.list.iter()
    }

    pub fn get(&self, id: &str) -> Result<&Package, PackageError> {
        self.list.iter().find(|p| p.entry.id == id).ok_or_else(|| PackageError::Unknown(id.to_owned()))
    }

    pub(crate) fn get_mut(&mut self, id: &str) -> Result<&mut Package, PackageError> {
        self.list.iter_mut().find(|p| p.entry.id == id).ok_or_else(|| PackageError::Unknown(id.to_owned()))
    }

    pub fn is_running(&self, id: &str) -> bool {
        self.get(id).is_ok_and(|p| p.state == PackageState::Running)
    }

    /// Moves a package into the transitional state for `action`. Returns that state, which the caller passes to
    /// [`Packages::finish`] after the transition delay.
    pub fn begin(
        &mut self,
        id: &str,
        action: Action,
        version: Option<&str>,
        now: SystemTime,
    ) -> Result<PackageState, PackageError> {
        let height = self.chain.blocks_at(now);
        let package = self.get_mut(id)?;
        let next = plan(id, package.state, action)?;
        package.state = next;
        if action == Action::Install {
            package.version = version.unwrap_or(package.entry.version).to_owned();
        }
        let phase = match action {
            Action::Start => catalogue::Phase::Starting,
            Action::Stop => catalogue::Phase::Stopping,
            Action::Restart => catalogue::Phase::Restarting,
            Action::Install => catalogue::Phase::Installing,
            Action::Uninstall => catalogue::Phase::Removing,
        };
        package.logs.extend(catalogue::lines(package.entry, phase, &package.version, now, height));
        Ok(next)
    }

    /// Completes a transition begun as `from`. False (and no change) if the package has since left that state.
    pub fn finish(&mut self, id: &str, from: PackageState, now: SystemTime) -> bool {
        let height = self.chain.blocks_at(now);
        let Ok(package) = self.get_mut(id) else { return false };
        if package.state != from || !from.is_transitional() {
            return false;
        }
        package.settle(now);
        let phase = match from {
            PackageState::Stopping => catalogue::Phase::Stopped,
            PackageState::Restarting => catalogue::Phase::Restarted,
            PackageState::Installing => catalogue::Phase::Installed,
            PackageState::Removing => {
                // The container and its logs are gone with it.
                package.logs.clear();
                return true;
            }
            _ => catalogue::Phase::Started,
        };
        package.logs.extend(catalogue::lines(package.entry, phase, &package.version, now, height));
        true
    }
}

#[cfg(test)]
mod tests;
