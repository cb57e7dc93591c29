//! `BudgetStore`: the persisted allowance, the atomic reserve/settle/release arithmetic, and period renewal.
//!
//! The state is one small JSON file, written atomically (temp file, fsync, rename, fsync of the directory) under
//! the same lock that guards the arithmetic, so the file never shows a state the process did not hold, and a failed
//! write leaves both the file and the in-memory state as they were.
//!
//! Several processes may hold the same file (the desktop app, and `aiui-cli` in a terminal): every operation takes
//! an advisory lock on `budget.lock` beside it and re-reads the file under that lock, so an operator's change is
//! never overwritten and two processes cannot spend the same sats. A write that fails changes nothing, in the file
//! or in memory: the next operation starts again from the file.
//!
//! Each process also holds a liveness lock (`sessions/<session>.lock`) for its whole life. Its reservations are
//! released by another process's `reconcile` only once that lock can be taken, that is, once the process is gone.
//!
//! A reservation belongs to the period it was made in: it never counts against a later one, and what it settles
//! to is counted against its own (already closed) period.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::Write;
use std::ops::{Deref, DerefMut};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard};

use serde::{Deserialize, Serialize};

use super::{BudgetError, BudgetReport, BudgetUpdate, PaymentPolicy, Period, Reservation, Settled, notice_80};

/// Milliseconds since the Unix epoch. Injectable so tests can cross period boundaries.
pub type Clock = Arc<dyn Fn() -> i64 + Send + Sync>;

#[derive(Debug, Clone, Serialize, Deserialize)]
struct ReservationRecord {
    amount_sats: u64,
    /// The process that made it: reservations of an earlier process that no ledger entry claims are orphans.
    session: String,
    created_ms: i64,
    /// The start of the period it was made in. Compared instead of `created_ms`, so a clock that jumps back
    /// cannot make a live reservation stop counting.
    #[serde(default)]
    period_start_ms: Option<i64>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
struct State {
    allowance_sats: u64,
    period: Period,
    /// When the owner last set the period: renewals count from here.
    period_origin_ms: i64,
    period_start_ms: i64,
    spent_sats: u64,
    /// Spend crossed 80% of the allowance this period.
    notice_80_sent: bool,
    /// The 80% notice is waiting for a surface to show it ([`BudgetStore::take_notice`]).
    #[serde(default)]
    notice_80_pending: bool,
    accepted_mints: Vec<String>,
    next_reservation: u64,
    reservations: BTreeMap<u64, ReservationRecord>,
}

impl State {
    fn new(now: i64) -> Self {
        Self {
            allowance_sats: 0,
            period: Period::Never,
            period_origin_ms: now,
            period_start_ms: now,
            spent_sats: 0,
            notice_80_sent: false,
            notice_80_pending: false,
            accepted_mints: Vec::new(),
            next_reservation: 1,
            reservations: BTreeMap::new(),
        }
    }

    /// What this period's reservations hold. Reservations of an earlier period no longer count: that period is
    /// closed, and what they settle to is counted against it.
    fn reserved(&self) -> u64 {
        self.reservations.values().filter(|r| self.in_this_period(r)).map(|r| r.amount_sats).sum()
    }

    fn in_this_period(&self, record: &ReservationRecord) -> bool {
        record.period_start_ms.unwrap_or(record.created_ms) >= self.period_start_ms
    }

    /// Starts a new period when the clock has passed the current one's end.
    fn roll(&mut self, now: i64) {
        let start = self.period.current_start(self.period_origin_ms, now);
        if start > self.period_start_ms {
            self.period_start_ms = start;
            self.spent_sats = 0;
            self.notice_80_sent = false;
            self.notice_80_pending = false;
        }
    }

    fn report(&self) -> BudgetReport {
        let reserved = self.reserved();
        BudgetReport {
            allowance_sats: self.allowance_sats,
            period: self.period,
            period_start_ms: self.period_start_ms,
            renews_at_ms: self.period.bounds(self.period_origin_ms, self.period_start_ms).1,
            spent_sats: self.spent_sats,
            reserved_sats: reserved,
            remaining_sats: self.allowance_sats.saturating_sub(self.spent_sats.saturating_add(reserved)),
            accepted_mints: self.accepted_mints.clone(),
            notice_80_sent: self.notice_80_sent,
        }
    }
}

/// The state under both locks: this process's mutex and the file lock other processes honour.
struct Locked<'a> {
    state: MutexGuard<'a, State>,
    _file: Option<File>,
}

impl Deref for Locked<'_> {
    type Target = State;

    fn deref(&self) -> &State {
        &self.state
    }
}

impl DerefMut for Locked<'_> {
    fn deref_mut(&mut self) -> &mut State {
        &mut self.state
    }
}

/// The persisted budget. `Send + Sync`; share it behind an `Arc`.
pub struct BudgetStore {
    path: PathBuf,
    state: Mutex<State>,
    clock: Clock,
    session: String,
    /// Held for this store's whole life: while it is, other processes treat this session as alive.
    _liveness: Option<File>,
}

/// A reservation as `reconcile` sees it: who holds it, and whether that holder still runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReservationHolder {
    pub id: u64,
    pub amount_sats: u64,
    pub session: String,
    /// This store's own session.
    pub own: bool,
    /// The holding process still runs (its liveness lock is held): its reservation must not be touched.
    pub alive: bool,
}

impl std::fmt::Debug for BudgetStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BudgetStore").field("path", &self.path).finish_non_exhaustive()
    }
}

impl BudgetStore {
    /// Opens the budget at `path` (usually `<data dir>/budget.json`). A missing file is a zero allowance: paid legs
    /// stay off until the owner sets one.
    pub fn open(path: &Path) -> Result<Self, BudgetError> {
        let clock: Clock = Arc::new(crate::now_ms);
        if let Some(dir) = path.parent().filter(|p| !p.as_os_str().is_empty())
            && let Err(e) = crate::paths::ensure_private_dir(dir)
        {
            tracing::warn!(dir = %dir.display(), error = %e, "budget: could not make the data dir private");
        }
        let state = match std::fs::read(path) {
            Ok(bytes) => serde_json::from_slice(&bytes)
                .map_err(|e| BudgetError::Corrupt { path: path.display().to_string(), reason: e.to_string() })?,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => State::new(clock()),
            Err(source) => return Err(BudgetError::Read { path: path.display().to_string(), source }),
        };
        let session = hex::encode(rand::random::<[u8; 8]>());
        let liveness = take_liveness_lock(&sessions_dir(path), &session);
        Ok(Self { path: path.to_owned(), state: Mutex::new(state), clock, session, _liveness: liveness })
    }

    /// This process's session id, as recorded on its reservations and ledger rows.
    pub fn session(&self) -> &str {
        &self.session
    }

    /// Whether the process that holds `session` still runs. This store's own session is alive. A session whose
    /// lock file cannot be read is treated as alive: when in doubt, nothing is released.
    pub fn session_alive(&self, session: &str) -> bool {
        if session == self.session {
            return true;
        }
        if session.is_empty() || !session.chars().all(|c| c.is_ascii_alphanumeric()) {
            // Written by a version without liveness locks: that process is gone.
            return false;
        }
        let path = sessions_dir(&self.path).join(format!("{session}.lock"));
        let file = match std::fs::OpenOptions::new().read(true).write(true).open(&path) {
            Ok(file) => file,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return false,
            Err(_) => return true,
        };
        match file.try_lock() {
            Ok(()) => {
                let _ = std::fs::remove_file(&path);
                false
            }
            Err(std::fs::TryLockError::WouldBlock) => true,
            Err(std::fs::TryLockError::Error(_)) => true,
        }
    }

    /// Replaces the clock (tests). Takes effect for every later call.
    pub fn with_clock(mut self, clock: Clock) -> Self {
        self.clock = clock;
        self
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    fn lock(&self) -> Locked<'_> {
        // A panic while holding the lock cannot leave half-done arithmetic: every change is computed on a copy
        // and swapped in whole, so the poisoned value is still a consistent state.
        let mut state = self.state.lock().unwrap_or_else(|p| p.into_inner());
        // The file lock comes second: within one process the mutex already orders callers.
        let file = self.lock_file();
        self.reload(&mut state);
        Locked { state, _file: file }
    }

    /// An exclusive advisory lock on `<budget>.lock`, released when the returned file is dropped. Without one
    /// (a read-only directory), this process still guards itself with its mutex.
    fn lock_file(&self) -> Option<File> {
        let path = self.path.with_extension("lock");
        let file = crate::paths::private_file_options().create(true).truncate(false).write(true).open(&path);
        match file.and_then(|f| f.lock().map(|()| f)) {
            Ok(file) => Some(file),
            Err(e) => {
                tracing::warn!(path = %path.display(), error = %e, "budget: no file lock; other processes are not excluded");
                None
            }
        }
    }

    /// Reads the file, under the file lock, before every operation: another process may have written it, and a
    /// write of this one may have failed. A file that vanished or does not parse leaves what was last read.
    fn reload(&self, state: &mut State) {
        match std::fs::read(&self.path).map(|bytes| serde_json::from_slice::<State>(&bytes)) {
            Ok(Ok(fresh)) => *state = fresh,
            Ok(Err(e)) => tracing::warn!(error = %e, "budget: the file does not parse; keeping what I had"),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => tracing::warn!(error = %e, "budget: the file cannot be read; keeping what I had"),
        }
    }

    /// `budget-get`: the allowance, spent, reserved and remaining in the current period.
    pub fn get(&self) -> BudgetReport {
        let mut state = self.lock();
        state.roll((self.clock)());
        state.report()
    }

    /// The operator API: the only way the allowance, period or accepted mints change. Call it only from a trusted
    /// surface or the CLI, never from the chat window or with anything a model produced.
    pub fn set(&self, update: BudgetUpdate) -> Result<BudgetReport, BudgetError> {
        let now = (self.clock)();
        let mut state = self.lock();
        state.roll(now);
        let mut next = state.clone();
        if let Some(allowance) = update.allowance_sats {
            next.allowance_sats = allowance;
        }
        if let Some(period) = update.period
            && period != next.period
        {
            // NWC-style: a new period schedule starts now; what was spent in this period still counts.
            next.period = period;
            next.period_origin_ms = now;
            next.period_start_ms = now;
        }
        if let Some(mints) = update.accepted_mints {
            let mut normalized = Vec::new();
            for mint in mints {
                let url = normalize_mint_url(&mint).ok_or_else(|| {
                    BudgetError::Invalid(format!("{mint:?} is not a mint URL (expected https://… or http://…)"))
                })?;
                if !normalized.contains(&url) {
                    normalized.push(url);
                }
            }
            next.accepted_mints = normalized;
        }
        if next.allowance_sats > 0 && !reached_80(next.spent_sats, next.allowance_sats) {
            // A raised allowance re-arms the 80% notice for this period.
            next.notice_80_sent = false;
        }
        self.persist(&next)?;
        *state = next;
        Ok(state.report())
    }

    /// The policy a turn runs under, built from operator config only.
    pub fn payment_policy(&self) -> PaymentPolicy {
        let report = self.get();
        PaymentPolicy {
            allowance_sats: report.allowance_sats,
            remaining_sats: report.remaining_sats,
            accepted_mints: report.accepted_mints,
        }
    }

    /// Sets aside `price_sats` if `spent + reserved + price <= allowance`, atomically across concurrent turns. The
    /// allowance is the smaller of the store's current one and the policy's. `None` when it does not fit, when the
    /// price is zero, or when the reservation could not be saved.
    pub fn reserve(&self, policy: &PaymentPolicy, price_sats: u64) -> Option<Reservation> {
        if price_sats == 0 || policy.allowance_sats == 0 {
            return None;
        }
        let now = (self.clock)();
        let mut state = self.lock();
        state.roll(now);
        let cap = state.allowance_sats.min(policy.allowance_sats);
        let committed = state.spent_sats.checked_add(state.reserved())?.checked_add(price_sats)?;
        if committed > cap {
            return None;
        }
        let mut next = state.clone();
        let id = next.next_reservation;
        next.next_reservation += 1;
        next.reservations.insert(
            id,
            ReservationRecord {
                amount_sats: price_sats,
                session: self.session.clone(),
                created_ms: now,
                period_start_ms: Some(state.period_start_ms),
            },
        );
        if let Err(e) = self.persist(&next) {
            tracing::error!(error = %e, "budget: could not save a reservation; the paid step will not run");
            return None;
        }
        *state = next;
        Some(Reservation { id, amount_sats: price_sats })
    }

    /// Grows a reservation by `extra_sats` (fees learned after reserving) under the same ceiling. `false` leaves it
    /// as it was.
    pub fn extend(&self, policy: &PaymentPolicy, reservation: &mut Reservation, extra_sats: u64) -> bool {
        if extra_sats == 0 {
            return true;
        }
        let mut state = self.lock();
        state.roll((self.clock)());
        let cap = state.allowance_sats.min(policy.allowance_sats);
        let Some(committed) = state.spent_sats.checked_add(state.reserved()).and_then(|c| c.checked_add(extra_sats))
        else {
            return false;
        };
        if committed > cap || !state.reservations.contains_key(&reservation.id) {
            return false;
        }
        let mut next = state.clone();
        if let Some(record) = next.reservations.get_mut(&reservation.id) {
            record.amount_sats += extra_sats;
        }
        if self.persist(&next).is_err() {
            return false;
        }
        *state = next;
        reservation.amount_sats += extra_sats;
        true
    }

    /// Turns a reservation into spend: `spent += actual`, and the rest of the reservation is freed. A reservation
    /// made in an earlier period settles against that period (this one's spend does not change). Settling a
    /// reservation that is gone (another process settled it) changes nothing. When this settlement crossed 80% of
    /// the allowance, the period's one notice waits for [`BudgetStore::take_notice`].
    pub fn settle(&self, reservation: Reservation, actual_sats: u64) -> Settled {
        if actual_sats > reservation.amount_sats {
            // Cannot happen through `Payments` (a token is never worth more than its reservation); the sats are gone
            // either way, so they are counted rather than hidden.
            tracing::warn!(
                reserved = reservation.amount_sats,
                actual = actual_sats,
                "budget: settled above reservation"
            );
        }
        let mut state = self.lock();
        state.roll((self.clock)());
        let mut next = state.clone();
        let Some(record) = next.reservations.remove(&reservation.id) else {
            tracing::info!(reservation = reservation.id, "budget: already settled or released elsewhere");
            return Settled::default();
        };
        if !state.in_this_period(&record) {
            tracing::info!(
                reservation = reservation.id,
                actual_sats,
                "budget: settled against the period it was made in"
            );
            self.commit(&mut state, next);
            return Settled::default();
        }
        next.spent_sats = next.spent_sats.saturating_add(actual_sats);
        let mut crossed_80 = false;
        if !next.notice_80_sent && next.allowance_sats > 0 && reached_80(next.spent_sats, next.allowance_sats) {
            next.notice_80_sent = true;
            next.notice_80_pending = true;
            crossed_80 = true;
        }
        let saved = self.commit(&mut state, next);
        Settled { crossed_80: crossed_80 && saved }
    }

    /// The period's 80% notice, once, when a settlement crossed it and no surface has shown it yet. Whoever can
    /// show it to the owner takes it (a turn, the CLI's reconcile); it stays pending until then.
    pub fn take_notice(&self) -> Option<String> {
        let mut state = self.lock();
        state.roll((self.clock)());
        if !state.notice_80_pending {
            return None;
        }
        let mut next = state.clone();
        next.notice_80_pending = false;
        let message = notice_80(next.allowance_sats, next.spent_sats);
        self.commit(&mut state, next).then_some(message)
    }

    /// Frees a reservation with nothing spent (refund, reclaim, a step that never paid).
    pub fn release(&self, reservation: Reservation) {
        let mut state = self.lock();
        let mut next = state.clone();
        if next.reservations.remove(&reservation.id).is_some() {
            self.commit(&mut state, next);
        }
    }

    /// A persisted reservation by id, for settling an in-flight payment after a restart.
    pub fn recover(&self, id: u64) -> Option<Reservation> {
        let state = self.lock();
        state.reservations.get(&id).map(|r| Reservation { id, amount_sats: r.amount_sats })
    }

    /// Whether another process on this data dir still runs (holds its liveness lock).
    pub fn other_sessions_alive(&self) -> bool {
        let Ok(entries) = std::fs::read_dir(sessions_dir(&self.path)) else { return false };
        entries.flatten().any(|entry| {
            let name = entry.file_name().to_string_lossy().into_owned();
            name.strip_suffix(".lock").is_some_and(|session| session != self.session && self.session_alive(session))
        })
    }

    /// Every reservation on file, with whether its process still runs; what `reconcile` decides from.
    pub fn reservation_holders(&self) -> Vec<ReservationHolder> {
        let records: Vec<(u64, ReservationRecord)> =
            self.lock().reservations.iter().map(|(id, r)| (*id, r.clone())).collect();
        records
            .into_iter()
            .map(|(id, r)| ReservationHolder {
                id,
                amount_sats: r.amount_sats,
                own: r.session == self.session,
                alive: self.session_alive(&r.session),
                session: r.session,
            })
            .collect()
    }

    /// Settle and release cannot fail for the caller: the payment outcome already happened. If saving fails,
    /// nothing changes: the reservation stays on file (it holds at least what was spent, so the ceiling holds) and
    /// `reconcile` settles it from the ledger later. Returns whether it was saved.
    fn commit(&self, state: &mut State, next: State) -> bool {
        match self.persist(&next) {
            Ok(()) => {
                *state = next;
                true
            }
            Err(e) => {
                tracing::error!(error = %e, "budget: could not save; the reservation stays until reconcile");
                false
            }
        }
    }

    fn persist(&self, state: &State) -> Result<(), BudgetError> {
        let bytes = serde_json::to_vec_pretty(state).map_err(|e| BudgetError::Invalid(e.to_string()))?;
        write_atomic(&self.path, &bytes)
            .map_err(|source| BudgetError::Write { path: self.path.display().to_string(), source })
    }
}

fn sessions_dir(budget_path: &Path) -> PathBuf {
    budget_path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new(".")).join("sessions")
}

/// Creates and locks `sessions/<session>.lock` for this process's life. Without it (a read-only data dir), this
/// process's reservations look dead to others, which only matters if they can write the same dir, which it cannot.
fn take_liveness_lock(dir: &Path, session: &str) -> Option<File> {
    let path = dir.join(format!("{session}.lock"));
    let file = crate::paths::ensure_private_dir(dir)
        .and_then(|()| crate::paths::private_file_options().create(true).truncate(false).write(true).open(&path));
    match file.and_then(|f| f.lock().map(|()| f)) {
        Ok(file) => Some(file),
        Err(e) => {
            tracing::warn!(path = %path.display(), error = %e, "budget: no liveness lock; other processes may treat this one as gone");
            None
        }
    }
}

/// Whether `spent` is at least 80% of `allowance`, in u128 so no allowance can overflow it.
fn reached_80(spent: u64, allowance: u64) -> bool {
    u128::from(spent) * 5 >= u128::from(allowance) * 4
}

/// Writes `bytes` to `path` so that a crash or a full disk leaves either the old file or the new one.
pub(crate) fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let dir = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir)?;
    let tmp = path.with_extension(format!("tmp-{}", std::process::id()));
    let result = (|| {
        let mut file = crate::paths::private_file_options().write(true).create(true).truncate(true).open(&tmp)?;
        file.write_all(bytes)?;
        file.sync_all()?;
        std::fs::rename(&tmp, path)?;
        std::fs::File::open(dir)?.sync_all()
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

/// A mint URL in one canonical spelling (lowercase scheme and host, no trailing slash), or `None` if it is not an
/// http(s) URL. The accepted list and provider lists are compared in this form.
pub fn normalize_mint_url(raw: &str) -> Option<String> {
    let url = url::Url::parse(raw.trim()).ok()?;
    if !matches!(url.scheme(), "http" | "https") || url.host_str().is_none() {
        return None;
    }
    Some(url.as_str().trim_end_matches('/').to_owned())
}
