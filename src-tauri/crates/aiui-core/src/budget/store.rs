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
//! Each process also holds a liveness lock (`sessions/<session>.lock`, see `sessions.rs`) for its whole life. Its
//! reservations are released by another process's `reconcile` only once that lock can be taken, that is, once the
//! process is gone.
//!
//! A reservation belongs to the numbered period it was made in (`state.rs`): it never counts against a later one,
//! what it settles to is counted against its own period even once that period is closed, and fees added to it are
//! checked against that period's room.

use std::fs::File;
use std::io::Write;
use std::ops::{Deref, DerefMut};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard};

use super::sessions::{self, sessions_dir};
use super::state::{ReservationRecord, State};
use super::{BudgetError, BudgetReport, BudgetUpdate, PaymentPolicy, PeriodSpend, Reservation, Settled, notice_80};
use crate::i18n::Locale;

/// Milliseconds since the Unix epoch. Injectable so tests can cross period boundaries.
pub type Clock = Arc<dyn Fn() -> i64 + Send + Sync>;

/// The state under both locks: this process's mutex and the file lock other processes honour.
struct Locked<'a> {
    state: MutexGuard<'a, State>,
    /// The clock as read under the locks, so no process acts on a time older than a period another one rolled to.
    now: i64,
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
    /// This process's liveness lock; without it, nothing is reserved (review F17).
    liveness: Option<File>,
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
        let liveness = sessions::take(&sessions_dir(path), &session);
        Ok(Self { path: path.to_owned(), state: Mutex::new(state), clock, session, liveness })
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
        sessions::alive(&sessions_dir(&self.path), session)
    }

    /// Replaces the clock (tests). Takes effect for every later call; a budget with no file yet starts its first
    /// period at the new clock's time, not at the time `open` read from the old one.
    pub fn with_clock(mut self, clock: Clock) -> Self {
        if !self.path.exists() {
            *self.state.get_mut().unwrap_or_else(|p| p.into_inner()) = State::new(clock());
        }
        self.clock = clock;
        self
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The state under both locks, fresh from the file and rolled to the clock's period.
    fn lock(&self) -> Locked<'_> {
        // A panic while holding the lock cannot leave half-done arithmetic: every change is computed on a copy
        // and swapped in whole, so the poisoned value is still a consistent state.
        let mut state = self.state.lock().unwrap_or_else(|p| p.into_inner());
        // The file lock comes second: within one process the mutex already orders callers.
        let file = self.lock_file();
        self.reload(&mut state);
        let now = (self.clock)();
        state.roll(now);
        Locked { state, now, _file: file }
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
        self.lock().report()
    }

    /// Every accounting period still on file: the current one first, then the closed ones, newest first. Each
    /// period's spend is held to its `allowance_sats` (the highest allowance in force while it was current).
    pub fn periods(&self) -> Vec<PeriodSpend> {
        self.lock().periods()
    }

    /// The operator API: the only way the allowance, period or accepted mints change. Call it only from a trusted
    /// surface or the CLI, never from the chat window or with anything a model produced.
    pub fn set(&self, update: BudgetUpdate) -> Result<BudgetReport, BudgetError> {
        let mut state = self.lock();
        let mut next = state.clone();
        if let Some(allowance) = update.allowance_sats {
            next.set_allowance(allowance);
        }
        if let Some(period) = update.period
            && period != next.period
        {
            // NWC-style: the new schedule's boundaries start now. The current period runs on until the first of
            // them, its spend and reservations still counted: starting a new period here would free sats that are
            // still in flight.
            next.reschedule(period, state.now);
        }
        if let Some(mints) = update.accepted_mints {
            let mut normalized = Vec::new();
            for mint in mints {
                let url = normalize_mint_url(&mint).ok_or_else(|| BudgetError::NotAMint(mint.clone()))?;
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
        if self.liveness.is_none() {
            // Other processes would take this one for gone and release its reservations mid-request.
            tracing::error!("budget: this process holds no liveness lock; nothing is reserved and nothing is paid");
            return None;
        }
        let mut state = self.lock();
        let period = state.period_number;
        if !state.fits(period, price_sats, policy.allowance_sats) {
            return None;
        }
        let mut next = state.clone();
        let id = next.fresh_reservation_id();
        next.reservations.insert(
            id,
            ReservationRecord {
                amount_sats: price_sats,
                session: self.session.clone(),
                created_ms: state.now,
                period_start_ms: Some(state.period_start_ms),
                period: Some(period),
            },
        );
        if let Err(e) = self.persist(&next) {
            tracing::error!(error = %e, "budget: could not save a reservation; the paid step will not run");
            return None;
        }
        *state = next;
        Some(Reservation { id, amount_sats: price_sats, period: Some(period) })
    }

    /// Grows a reservation by `extra_sats` (fees learned after reserving) under the ceiling of the period it was
    /// made in, which may have closed since. `false` leaves it as it was.
    pub fn extend(&self, policy: &PaymentPolicy, reservation: &mut Reservation, extra_sats: u64) -> bool {
        if extra_sats == 0 {
            return true;
        }
        let mut state = self.lock();
        let Some(period) = state.reservations.get(&reservation.id).and_then(|r| r.period) else {
            // Gone, or left by an older version in a period no longer on file: there is no room to check against.
            return false;
        };
        if !state.fits(period, extra_sats, policy.allowance_sats) {
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
    /// made in an earlier period settles into that period's spend (see [`BudgetStore::periods`]). Settling a
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
        let mut next = state.clone();
        let Some(record) = next.reservations.remove(&reservation.id) else {
            tracing::info!(reservation = reservation.id, "budget: already settled or released elsewhere");
            return Settled::default();
        };
        if record.period != Some(next.period_number) {
            match record.period.and_then(|number| next.closed_mut(number)) {
                Some(closed) => {
                    closed.spent_sats = closed.spent_sats.saturating_add(actual_sats);
                    tracing::info!(
                        reservation = reservation.id,
                        period = closed.number,
                        actual_sats,
                        "budget: settled into the closed period it was made in"
                    );
                }
                None => tracing::info!(
                    reservation = reservation.id,
                    actual_sats,
                    "budget: made in a period an older version closed; counted nowhere, as it was then"
                ),
            }
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
        self.take_notice_in(Locale::En)
    }

    /// [`BudgetStore::take_notice`], said in `locale`.
    pub fn take_notice_in(&self, locale: Locale) -> Option<String> {
        self.take_notice_as(|allowance, spent| notice_80(locale, allowance, spent))
    }

    /// [`BudgetStore::take_notice`], worded by `message(allowance, spent)` (the Claude allowance counts dollars).
    pub(super) fn take_notice_as(&self, message: impl FnOnce(u64, u64) -> String) -> Option<String> {
        let mut state = self.lock();
        if !state.notice_80_pending {
            return None;
        }
        let mut next = state.clone();
        next.notice_80_pending = false;
        let message = message(next.allowance_sats, next.spent_sats);
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
        state.reservations.get(&id).map(|r| Reservation { id, amount_sats: r.amount_sats, period: r.period })
    }

    /// Whether another process on this data dir still runs (holds its liveness lock).
    pub fn other_sessions_alive(&self) -> bool {
        let Ok(entries) = std::fs::read_dir(sessions_dir(&self.path)) else { return false };
        entries.flatten().any(|entry| {
            let name = entry.file_name().to_string_lossy().into_owned();
            sessions::session_of(&name).is_some_and(|session| session != self.session && self.session_alive(session))
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
