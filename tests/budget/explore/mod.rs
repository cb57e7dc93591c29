//! The money explorer: seeded, shrinking sequences of every money operation against real cdk mints (without fees and
//! charging 100 ppk) and, one sequence in ten, a nutshell mint (written by others, behind the same door), the hostile
//! test provider and a friend's wallet, with a fault drawn for some steps from the one registry of fault points
//! (`aiui_core::faults`): the step is aborted there, as a timeout, the desktop's `abort` or a dying process would, and
//! a new process opens the data dir. Some steps let a second real OS process reconcile the same data dir at the same
//! time. After every step the ceiling is checked; after a heal phase (every fault lifted, held invoices paid, sent
//! tokens taken back, reconcile in a fresh process until nothing changes, and once more) the oracles of `model.rs`
//! compare the ledger and the wallet with the mint's and the provider's own truth. Then the sweep: every registered
//! point aborted at its first pass on drawn sequences that reach it.
//!
//! `cargo test -p aiui-tests --test integration budget::explore -- --nocapture` runs the CI budget (the cases in
//! `regressions.txt` first, then `AIUI_EXPLORE_SEQUENCES` seeds, 200 unless set). `AIUI_EXPLORE_SEED=n` replays one
//! seed (and sweeps its points); `AIUI_EXPLORE_CASE='<line>'` replays one case; `AIUI_EXPLORE_SWEEP=n` sweeps each
//! point on n sequences (2 unless set); `AIUI_EXPLORE_WORKERS=n` runs n sequences at a time, each worker on worlds of
//! its own (2 unless set). `scripts/bench explore --seeds N` runs long.

mod model;
mod ops;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use aiui_core::Secret;
use aiui_core::backends::routstr::Routstr;
use aiui_core::backends::routstr::discovery::Discovery;
use aiui_core::backends::{ChatRequest, Message};
use aiui_core::budget::BudgetUpdate;
use aiui_core::faults::{self, Plan};
use aiui_core::i18n::Locale;
use aiui_core::net::guard::AddressPolicy;
use aiui_core::pay::{OutflowKind, PaymentState, Payments, ReconcilePolicy, Wallet};
use aiui_core::secrets::{SecretName, Secrets};
use rand::SeedableRng;
use rand::rngs::StdRng;

use self::ops::{BEHAVIOURS, MintDoor, Op, Step};
use super::Provider;
use super::crash::command;
use crate::support::mint::TestMint;
use crate::support::nutshell::NutshellMint;
use crate::support::paid::{discovery_config, openai, test_reconcile_policy, test_routstr_config, test_wallet_options};
use crate::support::provider::{Fault, TestProvider};
use crate::support::relay::TestRelay;

/// Steps in a drawn sequence.
const STEPS: std::ops::Range<usize> = 4..12;
/// How long one step may take before it counts as hung.
const STEP_LIMIT: Duration = Duration::from_secs(60);

/// Which mint a sequence runs against.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum MintKind {
    /// cdk's mint in this process.
    Cdk,
    /// nutshell (Python, written by others) behind the same door: it cannot be rotated or hold invoices.
    Nutshell,
}

/// One sequence in this many runs against nutshell (drawn from the seed itself, so every other seed draws the
/// steps it always drew).
const NUTSHELL_EVERY: u64 = 10;

/// One mint with its provider, relay and a friend's wallet; shared by the sequences that draw its kind and fee.
pub struct World {
    pub fee_ppk: u64,
    pub kind: MintKind,
    /// The door AIUI, the provider and the friend reach the mint through (cdk's mint itself, or nutshell's door).
    pub mint: TestMint,
    _nutshell: Option<NutshellMint>,
    pub relay: TestRelay,
    pub provider: TestProvider,
    pub discovery: Arc<Discovery>,
    pub friend: Provider,
}

impl World {
    async fn start(kind: MintKind, fee_ppk: u64) -> Arc<Self> {
        let (mint, nutshell) = match kind {
            MintKind::Cdk => (TestMint::start_with_fee(fee_ppk).await, None),
            MintKind::Nutshell => {
                let nutshell = NutshellMint::start(fee_ppk).await;
                (TestMint::in_front_of(&nutshell.url()).await, Some(nutshell))
            }
        };
        let relay = TestRelay::start().await;
        let replies = (0..20_000).map(|_| openai("answer_plain.json")).collect();
        let provider = TestProvider::start(&mint.url(), replies).await;
        provider.announce(&relay.url, &mint.url()).await;
        let discovery = Arc::new(Discovery::new(discovery_config(&relay.url)));
        let friend = Provider::new(&mint).await;
        Arc::new(Self { fee_ppk, kind, mint, _nutshell: nutshell, relay, provider, discovery, friend })
    }

    /// Every door healthy again.
    fn heal(&self) {
        self.mint.bring_up();
        self.mint.lose_answers(0);
        self.mint.fail_before(0);
        self.mint.fail_melt_looks(0);
        self.provider.state.refund_gateway_status.store(0, std::sync::atomic::Ordering::SeqCst);
        self.provider.arm(Fault::None, 0);
    }
}

/// What a sequence runs under, drawn per seed (swarm testing: each seed its own configuration).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Config {
    pub mint: MintKind,
    pub fee_ppk: u64,
    /// `write_off_after` zero: a spent or stuck payment may be written off on the first look.
    pub write_off_now: bool,
    pub funds: u64,
    pub allowance: u64,
}

/// A case: its configuration and steps, as one line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Case {
    pub config: Config,
    pub steps: Vec<Step>,
}

impl Case {
    fn draw(seed: u64, points: &[&'static str]) -> Self {
        use rand::Rng;
        let mut rng = StdRng::seed_from_u64(seed);
        let config = Config {
            mint: if seed % NUTSHELL_EVERY == NUTSHELL_EVERY - 1 { MintKind::Nutshell } else { MintKind::Cdk },
            fee_ppk: if rng.random_bool(0.5) { 0 } else { 100 },
            write_off_now: rng.random_bool(0.3),
            funds: rng.random_range(200..1_500),
            allowance: rng.random_range(60..600),
        };
        let len = rng.random_range(STEPS);
        let swarm = ops::Swarm::draw(&mut rng);
        Self { config, steps: ops::draw(&mut rng, len, &swarm, points) }
    }

    pub fn line(&self) -> String {
        let c = &self.config;
        let steps: Vec<String> = self.steps.iter().map(Step::to_string).collect();
        format!(
            "{}fee={} write-off={} funds={} allowance={} | {}",
            if c.mint == MintKind::Nutshell { "mint=nutshell " } else { "" },
            c.fee_ppk,
            if c.write_off_now { "now" } else { "later" },
            c.funds,
            c.allowance,
            steps.join(" ")
        )
    }

    pub fn parse(line: &str) -> Result<Self, String> {
        let (head, steps) = line.split_once('|').ok_or("no | between the configuration and the steps")?;
        let mut config = Config { mint: MintKind::Cdk, fee_ppk: 0, write_off_now: false, funds: 500, allowance: 300 };
        for word in head.split_whitespace() {
            match word.split_once('=') {
                Some(("mint", "cdk")) => config.mint = MintKind::Cdk,
                Some(("mint", "nutshell")) => config.mint = MintKind::Nutshell,
                Some(("fee", v)) => config.fee_ppk = v.parse().map_err(|_| format!("fee {v}"))?,
                Some(("write-off", v)) => config.write_off_now = v == "now",
                Some(("funds", v)) => config.funds = v.parse().map_err(|_| format!("funds {v}"))?,
                Some(("allowance", v)) => config.allowance = v.parse().map_err(|_| format!("allowance {v}"))?,
                _ => return Err(format!("{word}: not a setting")),
            }
        }
        let steps = steps.split_whitespace().map(str::parse).collect::<Result<Vec<Step>, String>>()?;
        for step in &steps {
            if let Some((point, _)) = &step.abort
                && point != ops::ANY
                && !faults::is_registered(point)
            {
                return Err(format!("{point}: not a registered fault point"));
            }
        }
        Ok(Self { config, steps })
    }
}

/// What happened to the sequence outside the data dir, kept across its process restarts.
struct Outside {
    /// Tokens sent out: the ledger id and the token, newest last.
    sent: Vec<(String, String)>,
    /// Hold invoices the mint is paying.
    held: Vec<String>,
    /// Set-aside tokens the owner discarded.
    discarded: Vec<String>,
    /// What receiving set-aside tokens credited (the budget keeps counting the spend they lower); `None` once a
    /// receive was cut off, when it is unknown.
    set_aside_credited: Option<u64>,
    /// Answers the mint's door lost after the mint carried the request out.
    lost_answers: u64,
}

impl Default for Outside {
    fn default() -> Self {
        Self { sent: Vec::new(), held: Vec::new(), discarded: Vec::new(), set_aside_credited: Some(0), lost_answers: 0 }
    }
}

/// One process on the sequence's data dir.
struct Machine {
    dir: PathBuf,
    words: String,
    payments: Arc<Payments>,
    routstr: Arc<Routstr>,
}

/// What one run of a case reached and whether it held.
#[derive(Default)]
pub struct Reached {
    /// Sats the mint kept as the fee of a swap whose answer was lost, which the ledger does not record (a known gap).
    pub unrecorded_fees: u64,
    pub points: BTreeMap<&'static str, u64>,
    pub aborted_at: BTreeMap<&'static str, u64>,
    pub kinds: BTreeMap<&'static str, u64>,
    pub aborts: u64,
    /// The points each step of this run passed, by step (for the sweep).
    pub by_step: Vec<Vec<&'static str>>,
}

impl Reached {
    fn add(&mut self, other: &Reached) {
        for (point, n) in &other.points {
            *self.points.entry(point).or_default() += n;
        }
        for (point, n) in &other.aborted_at {
            *self.aborted_at.entry(point).or_default() += n;
        }
        for (kind, n) in &other.kinds {
            *self.kinds.entry(kind).or_default() += n;
        }
        self.aborts += other.aborts;
        self.unrecorded_fees += other.unrecorded_fees;
    }
}

fn policy(config: &Config) -> ReconcilePolicy {
    let mut policy = test_reconcile_policy();
    if config.write_off_now {
        policy.write_off_after = Duration::ZERO;
    }
    policy
}

/// Opens the data dir as a new process would. A wallet that cannot be opened is a finding (the owner would be locked
/// out of their sats), reported with the case rather than panicking.
async fn open_machine(world: &World, config: &Config, dir: &Path, words: &str) -> Result<Machine, String> {
    let secrets = Secrets::in_memory();
    secrets.set(SecretName::WalletSeed, &Secret::new(words.to_owned())).expect("the keyring takes the words");
    let wallet = Wallet::open_with(dir, &secrets, test_wallet_options()).await.map_err(|e| {
        format!("the wallet does not open: {e} (this process holds {} descriptors on it)", open_files(dir))
    })?;
    let budget = aiui_core::budget::BudgetStore::open(&dir.join("budget.json"))
        .map_err(|e| format!("the budget does not open: {e}"))?;
    let payments = Arc::new(
        Payments::new(Arc::new(wallet), Arc::new(budget))
            .with_refund_access(AddressPolicy::AllowPrivateForTests, None)
            .with_reconcile_policy(policy(config)),
    );
    let routstr = Arc::new(Routstr::new(test_routstr_config(), world.discovery.clone(), payments.clone()).unwrap());
    Ok(Machine { dir: dir.to_owned(), words: words.to_owned(), payments, routstr })
}

/// How many of this process's file descriptors are on files in `dir` (a leak shows here).
fn open_files(dir: &Path) -> String {
    let mut on: Vec<String> = std::fs::read_dir("/proc/self/fd")
        .map(|fds| {
            fds.filter_map(Result::ok)
                .filter_map(|fd| std::fs::read_link(fd.path()).ok())
                .filter(|target| target.starts_with(dir))
                .map(|target| target.file_name().unwrap_or_default().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    on.sort();
    format!("{}: {}", on.len(), on.join(" "))
}

/// Runs `case` in a fresh data dir under `root`; `Err` names the first violation.
pub async fn run(world: &Arc<World>, case: &Case, root: &Path, reached: &mut Reached) -> Result<(), String> {
    let config = case.config;
    let dir = tempfile::tempdir_in(root).unwrap();
    let secrets = Secrets::in_memory();
    let payments = super::open(dir.path(), &secrets).await;
    let words = secrets.get(SecretName::WalletSeed).unwrap().expect("a seed").expose().clone();
    payments
        .budget()
        .set(BudgetUpdate {
            allowance_sats: Some(config.allowance),
            period: Some(aiui_core::budget::Period::Monthly),
            accepted_mints: Some(vec![world.mint.url()]),
        })
        .unwrap();
    drop(payments);
    let mut machine = open_machine(world, &config, dir.path(), &words).await?;
    fund(&machine, world, config.funds).await.map_err(|e| format!("the first funding failed: {e}"))?;
    let mut outside = Outside::default();
    let mut dirs = vec![dir];
    let mut elsewhere: Option<std::process::Child> = None;
    for (n, step) in case.steps.iter().enumerate() {
        *reached.kinds.entry(step.op.kind()).or_default() += 1;
        reached.by_step.push(Vec::new());
        let label = |what: &str| format!("step {n} ({step}): {what}");
        match &step.op {
            Op::Restart => {
                machine = reopen(machine, world, &config).await.map_err(|e| label(&e))?;
            }
            Op::ReconcileElsewhere => {
                if elsewhere.is_none() {
                    let mut child = command("reconcile", &machine.dir, &machine.words, &world.relay.url, None);
                    if config.write_off_now {
                        child.env("AIUI_PAY_WRITE_OFF_NOW", "1");
                    }
                    elsewhere = Some(child.spawn().expect("the second process starts"));
                }
            }
            Op::Restore => {
                // The machine is lost: the words go into a fresh data dir and keyring, as the owner restores them.
                drop(machine);
                let fresh = tempfile::tempdir_in(root).unwrap();
                let plan = plan_for(step);
                let restored = spawn_under(&plan, {
                    let (path, words, mint) = (fresh.path().to_owned(), words.clone(), world.mint.url());
                    async move { restore(&path, &words, &mint).await }
                })
                .await;
                collect(&plan, reached);
                if let Err(Aborted::Panicked(why)) = &restored {
                    return Err(label(&format!("panicked: {why}")));
                }
                if matches!(restored, Err(Aborted::AtPoint)) {
                    reached.aborts += 1;
                    // The owner runs the restore again.
                    if let Err(e) = restore(fresh.path(), &words, &world.mint.url()).await {
                        tracing::info!(error = %e, "explore: the second restore failed");
                    }
                }
                let budget = aiui_core::budget::BudgetStore::open(&fresh.path().join("budget.json")).unwrap();
                budget
                    .set(BudgetUpdate {
                        allowance_sats: Some(config.allowance),
                        period: Some(aiui_core::budget::Period::Monthly),
                        accepted_mints: Some(vec![world.mint.url()]),
                    })
                    .unwrap();
                drop(budget);
                machine = open_machine(world, &config, fresh.path(), &words).await.map_err(|e| label(&e))?;
                outside.sent.clear();
                dirs.push(fresh);
            }
            op => {
                let plan = plan_for(step);
                let context = Arc::new(StepContext {
                    payments: machine.payments.clone(),
                    routstr: machine.routstr.clone(),
                    world: world.clone(),
                    outside: Mutex::new(std::mem::take(&mut outside)),
                });
                let done = spawn_under(&plan, {
                    let (context, op) = (context.clone(), op.clone());
                    async move { perform(&context, &op).await }
                })
                .await;
                outside = std::mem::take(&mut *context.outside.lock().unwrap());
                drop(context);
                collect(&plan, reached);
                match done {
                    Ok(_) => {}
                    Err(Aborted::AtPoint) => {
                        reached.aborts += 1;
                        if matches!(op, Op::ReceiveSetAside) {
                            outside.set_aside_credited = None;
                        }
                        machine = reopen(machine, world, &config).await.map_err(|e| label(&e))?;
                    }
                    Err(Aborted::Panicked(why)) => return Err(label(&format!("panicked: {why}"))),
                    Err(Aborted::Hung) => return Err(label("hung for a minute")),
                }
            }
        }
        if !matches!(step.op, Op::ReconcileElsewhere)
            && let Some(mut child) = elsewhere.take()
        {
            let status = tokio::task::spawn_blocking(move || child.wait()).await.unwrap().unwrap();
            if !status.success() {
                return Err(label("the second process's reconcile failed"));
            }
        }
        model::after_step(&machine.payments).map_err(|e| label(&e))?;
    }
    if let Some(mut child) = elsewhere.take() {
        tokio::task::spawn_blocking(move || child.wait()).await.unwrap().unwrap();
    }
    // Heal: every fault lifted, held invoices paid, a fresh process, sent tokens taken back, reconcile until quiet.
    // (What it passes is not a step's: the sweep aborts steps only.)
    let steps_reached = std::mem::take(&mut reached.by_step);
    world.heal();
    for invoice in outside.held.drain(..) {
        world.mint.holds().settle(&invoice, true);
    }
    let machine = reopen(machine, world, &config).await.map_err(|e| format!("heal: {e}"))?;
    let mut last = None;
    for round in 0.. {
        if round == 8 {
            return Err(format!("heal: reconcile still changed things after 8 runs: {last:?}"));
        }
        let counting = Plan::counting();
        // The owner takes back every token still out, from the list (one whose making was cut off is listed too).
        let out = machine.payments.outflows(10_000).map_err(|e| format!("heal: the outflows cannot be read: {e}"))?;
        for row in out.iter().filter(|r| r.kind == OutflowKind::Token && r.state == PaymentState::InFlight) {
            let _ = counting.run(machine.payments.take_back(&row.id)).await;
        }
        let reconciled = counting.run(machine.payments.reconcile()).await;
        collect(&counting, reached);
        reconciled.map_err(|e| format!("heal: reconcile failed: {e}"))?;
        let now = model::snapshot(&machine.payments).await?;
        if last.as_ref() == Some(&now) {
            break;
        }
        last = Some(now);
    }
    let machine = reopen(machine, world, &config).await.map_err(|e| format!("heal: {e}"))?;
    machine.payments.reconcile().await.map_err(|e| format!("heal: the last reconcile failed: {e}"))?;
    if Some(model::snapshot(&machine.payments).await?) != last {
        return Err("heal: one more reconcile in a fresh process still changed things".into());
    }
    let known = model::Outside {
        discarded: &outside.discarded,
        set_aside_credited: outside.set_aside_credited,
        lost_answers: outside.lost_answers,
    };
    let unrecorded = model::after_heal(world, &config, &machine.payments, &machine.dir, &known).await?;
    reached.unrecorded_fees += unrecorded;
    reached.by_step = steps_reached;
    Ok(())
}

async fn fund(machine: &Machine, world: &World, sats: u64) -> Result<(), String> {
    let wallet = machine.payments.wallet();
    let invoice = wallet.mint_invoice(&world.mint.url(), sats).await.map_err(|e| e.to_string())?;
    wallet
        .wait_minted(&world.mint.url(), &invoice.quote_id, Duration::from_secs(10))
        .await
        .map_err(|e| e.to_string())?;
    Ok(())
}

async fn restore(dir: &Path, words: &str, mint: &str) -> Result<(), String> {
    let words = Secret::new(words.to_owned());
    let secrets = Secrets::in_memory();
    Wallet::restore(dir, &secrets, &words, &[mint.to_owned()], test_wallet_options(), false)
        .await
        .map(|_| ())
        .map_err(|e| e.to_string())
}

async fn reopen(machine: Machine, world: &World, config: &Config) -> Result<Machine, String> {
    let (dir, words) = (machine.dir.clone(), machine.words.clone());
    drop(machine);
    open_machine(world, config, &dir, &words).await
}

fn plan_for(step: &Step) -> Arc<Plan> {
    match &step.abort {
        Some((point, nth)) if point == ops::ANY => Plan::abort_at_any(*nth),
        Some((point, nth)) => Plan::abort_at(point, *nth),
        None => Plan::counting(),
    }
}

fn collect(plan: &Plan, reached: &mut Reached) {
    for (point, n) in plan.reached() {
        *reached.points.entry(point).or_default() += n;
    }
    if let Some(step) = reached.by_step.last_mut() {
        step.extend(plan.reached().into_keys());
    }
    if let Some(point) = plan.aborted_at() {
        *reached.aborted_at.entry(point).or_default() += 1;
    }
}

/// Aborts at a fault point are the explorer's own doing: they are counted in its table, not printed as panics.
fn quiet_aborts() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let message = info.payload().downcast_ref::<String>().map(String::as_str).unwrap_or_default();
            if !message.starts_with(faults::ABORTED) {
                previous(info);
            }
        }));
    });
}

enum Aborted {
    AtPoint,
    Panicked(String),
    Hung,
}

/// Runs `future` as its own task under `plan`: an abort at the armed point unwinds that task only.
async fn spawn_under<T: Send + 'static>(
    plan: &Arc<Plan>,
    future: impl std::future::Future<Output = T> + Send + 'static,
) -> Result<T, Aborted> {
    let plan = plan.clone();
    let task = tokio::spawn(async move { plan.run(future).await });
    match tokio::time::timeout(STEP_LIMIT, task).await {
        Err(_) => Err(Aborted::Hung),
        Ok(Ok(value)) => Ok(value),
        Ok(Err(join)) => {
            let panic = join.into_panic();
            let why = panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| (*s).to_owned()))
                .unwrap_or_default();
            if why.starts_with(faults::ABORTED) { Err(Aborted::AtPoint) } else { Err(Aborted::Panicked(why)) }
        }
    }
}

/// What one operation runs with.
struct StepContext {
    payments: Arc<Payments>,
    routstr: Arc<Routstr>,
    world: Arc<World>,
    outside: Mutex<Outside>,
}

/// Performs one operation. Its own failures (a refused withdrawal, a token already claimed) are outcomes, not
/// violations: only the oracles judge.
async fn perform(context: &StepContext, op: &Op) -> Result<String, String> {
    let world = &context.world;
    let payments = &context.payments;
    let mint = world.mint.url();
    let fail = |e: aiui_core::pay::PayError| e.to_string();
    match op {
        Op::Fund(sats) => {
            let wallet = payments.wallet();
            let invoice = wallet.mint_invoice(&mint, *sats).await.map_err(fail)?;
            wallet.wait_minted(&mint, &invoice.quote_id, Duration::from_secs(10)).await.map_err(fail)?;
            Ok("funded".into())
        }
        Op::Pay(n) => {
            world.provider.arm(BEHAVIOURS[*n].1, 0);
            let request = ChatRequest {
                system: "You are a test.".into(),
                messages: vec![Message::User { text: "what is running?".into() }],
                tools: Vec::new(),
                max_tokens: 1024,
            };
            let policy = payments.budget().payment_policy();
            let id = context.routstr.check(&request, &policy).await.map_err(|e| format!("{e:?}"))?;
            let body = context.routstr.request_body(&request);
            context
                .routstr
                .send(&id, body, &policy, Locale::En)
                .await
                .map(|_| "answered".into())
                .map_err(|e| format!("{e:?}"))
        }
        Op::Reconcile => payments.reconcile().await.map(|r| format!("{r:?}")).map_err(fail),
        Op::Withdraw { sats, held } => {
            // nutshell's fake Lightning pays every invoice at once: no withdrawal is held there.
            let invoice = if *held && world.kind == MintKind::Cdk {
                let invoice = world.mint.holds().invoice(*sats);
                context.outside.lock().unwrap().held.push(invoice.clone());
                invoice
            } else {
                cdk_fake_wallet::create_fake_invoice(sats * 1000, "explore".into()).to_string()
            };
            let quote = payments.quote_withdrawal(&invoice, None, false).await.map_err(fail)?;
            payments.withdraw(&quote).await.map(|w| format!("{:?}", w.outcome)).map_err(fail)
        }
        Op::Send(sats) => {
            let sent = payments.send_token(&mint, *sats).await.map_err(fail)?;
            context.outside.lock().unwrap().sent.push((sent.id, sent.token.expose().clone()));
            Ok("sent".into())
        }
        Op::Claim { whole } => {
            let Some((_, token)) = context.outside.lock().unwrap().sent.last().cloned() else {
                return Ok("nothing to claim".into());
            };
            let friend = &world.friend;
            // The friend's wallet: a failed claim (already claimed, taken back) is an outcome.
            let claimed = if *whole { friend.try_redeem(&token).await } else { friend.try_redeem_part(&token).await };
            Ok(format!("claimed {claimed:?}"))
        }
        Op::TakeBack => {
            let Some((id, _)) = context.outside.lock().unwrap().sent.last().cloned() else {
                return Ok("nothing to take back".into());
            };
            payments.take_back(&id).await.map(|t| format!("{t:?}")).map_err(fail)
        }
        Op::ReceiveSetAside => {
            // The owner receives every token set aside (one may be worthless, another worth more than its payment).
            let mut received = Vec::new();
            for entry in payments.set_aside_tokens().map_err(fail)? {
                let done = payments.receive_set_aside(&entry.id).await.map_err(fail);
                if let Ok((_, credited)) = &done {
                    let mut outside = context.outside.lock().unwrap();
                    outside.set_aside_credited = outside.set_aside_credited.map(|sum| sum + credited);
                }
                received.push(done);
            }
            Ok(format!("{received:?}"))
        }
        Op::DiscardSetAside => {
            let Some(entry) = payments.set_aside_tokens().map_err(fail)?.into_iter().next() else {
                return Ok("nothing set aside".into());
            };
            if let Some(token) = &entry.set_aside_token {
                context.outside.lock().unwrap().discarded.push(token.expose().clone());
            }
            payments.discard_set_aside(&entry.id).await.map(|r| format!("discarded: {r:?}")).map_err(fail)
        }
        Op::RaiseAllowance(more) => {
            let now = payments.budget().get();
            let allowance = now.spent_sats + now.reserved_sats + more;
            let update = BudgetUpdate { allowance_sats: Some(allowance), period: None, accepted_mints: None };
            payments.budget().set(update).map(|_| "set".into()).map_err(|e| e.to_string())
        }
        Op::RotateKeyset { .. } if world.kind == MintKind::Nutshell => Ok("nutshell is not rotated by a test".into()),
        Op::RotateKeyset { ending } => {
            let in_a_week = (aiui_core::now_ms() / 1000) as u64 + 7 * 24 * 3600;
            world.mint.rotate_keyset_with(world.fee_ppk, ending.then_some(in_a_week)).await;
            Ok("rotated".into())
        }
        Op::RefundDoor(status) => {
            world.provider.state.refund_gateway_status.store(*status, std::sync::atomic::Ordering::SeqCst);
            Ok("set".into())
        }
        Op::MintDoor(door) => {
            match door {
                MintDoor::LoseAnswers(n) => {
                    world.mint.lose_answers(*n);
                    context.outside.lock().unwrap().lost_answers += *n as u64;
                }
                MintDoor::FailBefore(n) => world.mint.fail_before(*n),
                MintDoor::FailMeltLooks(n) => world.mint.fail_melt_looks(*n),
                MintDoor::Down => world.mint.take_down(),
                MintDoor::Up => world.mint.bring_up(),
            }
            Ok("set".into())
        }
        Op::Restart | Op::ReconcileElsewhere | Op::Restore => unreachable!("run handles {op}"),
    }
}

/// Runs `case` once more and again without each step in turn, keeping every removal that still fails: the
/// shortest failing sequence this finds.
async fn shrink(world: &Arc<World>, case: &Case, root: &Path) -> Case {
    let mut best = case.clone();
    let mut tries = 0;
    let mut changed = true;
    while changed && tries < 80 {
        changed = false;
        let mut i = best.steps.len();
        while i > 0 && tries < 80 {
            i -= 1;
            let mut without = best.clone();
            without.steps.remove(i);
            tries += 1;
            if run(world, &without, root, &mut Reached::default()).await.is_err() {
                best = without;
                changed = true;
                continue;
            }
            if best.steps[i].abort.is_some() {
                let mut calmer = best.clone();
                calmer.steps[i].abort = None;
                tries += 1;
                if run(world, &calmer, root, &mut Reached::default()).await.is_err() {
                    best = calmer;
                    changed = true;
                }
            }
        }
    }
    best
}

/// A drawn case that held: its place in the list, its name, the case, and the points each of its steps passed.
type Passed = (usize, String, Case, Vec<Vec<&'static str>>);

/// What the workers made of their shares of the cases.
#[derive(Default)]
struct Share {
    reached: Reached,
    passed: Vec<Passed>,
    still_open: Vec<String>,
    slowest: Vec<(Duration, String)>,
    ran: u64,
    on_nutshell: u64,
    /// The first violation, told in full (the case, shrunk, and its replay line).
    failure: Option<String>,
}

impl Share {
    fn add(&mut self, other: Share) {
        self.reached.add(&other.reached);
        self.passed.extend(other.passed);
        self.still_open.extend(other.still_open);
        self.slowest.extend(other.slowest);
        self.slowest.sort_by_key(|(took, _)| std::cmp::Reverse(*took));
        self.slowest.truncate(3);
        self.ran += other.ran;
        self.on_nutshell += other.on_nutshell;
        self.failure = self.failure.take().or(other.failure);
    }
}

/// Deals `cases` out to `workers` tasks, each on worlds of its own (a world's provider and mint door hold one
/// sequence's faults at a time), and gathers what they made of them. The first violation stops them all.
async fn share_out(
    cases: Vec<(usize, String, Case)>,
    workers: usize,
    open: &Arc<Vec<u64>>,
    sweeping: bool,
    stop: &Arc<AtomicBool>,
) -> Share {
    let mut shares: Vec<Vec<(usize, String, Case)>> = vec![Vec::new(); workers];
    for (n, case) in cases.into_iter().enumerate() {
        shares[n % workers].push(case);
    }
    let tasks: Vec<_> =
        shares.into_iter().map(|share| tokio::spawn(work(share, open.clone(), sweeping, stop.clone()))).collect();
    let mut done = Share::default();
    for task in tasks {
        done.add(task.await.expect("an explorer worker"));
    }
    done
}

/// Runs `cases` one after another on worlds of this worker's own.
async fn work(cases: Vec<(usize, String, Case)>, open: Arc<Vec<u64>>, sweeping: bool, stop: Arc<AtomicBool>) -> Share {
    let mut worlds: BTreeMap<(MintKind, u64), Arc<World>> = BTreeMap::new();
    for (_, _, case) in &cases {
        let key = (case.config.mint, case.config.fee_ppk);
        if let std::collections::btree_map::Entry::Vacant(slot) = worlds.entry(key) {
            slot.insert(World::start(key.0, key.1).await);
        }
    }
    let root = tempfile::tempdir().unwrap();
    let mut share = Share::default();
    for (place, name, case) in cases {
        if stop.load(Ordering::SeqCst) {
            break;
        }
        share.ran += 1;
        share.on_nutshell += u64::from(case.config.mint == MintKind::Nutshell);
        let world = &worlds[&(case.config.mint, case.config.fee_ppk)];
        let mut this = Reached::default();
        let began = Instant::now();
        let outcome = run(world, &case, root.path(), &mut this).await;
        share.slowest.push((began.elapsed(), name.clone()));
        share.slowest.sort_by_key(|(took, _)| std::cmp::Reverse(*took));
        share.slowest.truncate(3);
        let by_step = std::mem::take(&mut this.by_step);
        share.reached.add(&this);
        let seed = name.strip_prefix("seed ").and_then(|s| s.parse::<u64>().ok());
        if let Some(seed) = seed.filter(|s| open.contains(s)) {
            match outcome {
                Err(violation) => share.still_open.push(format!("seed {seed}: {violation}")),
                Ok(()) => {
                    share.failure = Some(format!(
                        "seed {seed} is listed in tests/budget/explore/open-findings.txt but found nothing now: its \
                         finding was mended; move it out of that file"
                    ));
                    stop.store(true, Ordering::SeqCst);
                }
            }
            continue;
        }
        let violation = match outcome {
            Ok(()) => {
                if !sweeping {
                    share.passed.push((place, name, case, by_step));
                }
                continue;
            }
            Err(violation) => violation,
        };
        if std::env::var_os("AIUI_EXPLORE_SURVEY").is_some() {
            eprintln!("SURVEY {name}: {}", violation.chars().take(200).collect::<String>());
            continue;
        }
        stop.store(true, Ordering::SeqCst);
        let shrunk = shrink(world, &case, root.path()).await;
        let replay = match name.strip_prefix("seed ").filter(|_| !sweeping) {
            Some(seed) => format!("AIUI_EXPLORE_SEED={seed}"),
            None => format!("AIUI_EXPLORE_CASE='{}'", case.line()),
        };
        share.failure = Some(format!(
            "{name} found a violation: {violation}\n  the case:   {}\n  shrunk to:  {}\n  replay:     {replay} \
             cargo test -p aiui-tests --test integration budget::explore -- --nocapture\n  keep it:    add the \
             shrunk line to tests/budget/explore/regressions.txt",
            case.line(),
            shrunk.line()
        ));
        break;
    }
    share
}

/// How many drawn sequences the sweep aborts each point on.
const SWEEP_PER_POINT: usize = 2;

/// The deterministic single-fault sweep, after the drawn sequences: every registered point is aborted at its first
/// pass on up to `per_point` of the sequences that passed it (each a different sequence), whatever the draws chose
/// to abort. A point that only a rare path reaches (a token redeemed in part, then written off) is cut there as
/// surely as a common one; the random aborts alone seldom land on it (review F1 was not found in 200 seeds).
fn sweep(points: &[&'static str], passed: &[Passed], per_point: usize) -> Vec<(String, Case)> {
    let mut cases = Vec::new();
    for point in points {
        let reaching = passed.iter().filter_map(|(_, name, case, by_step)| {
            let step = by_step.iter().position(|passed| passed.contains(point))?;
            let mut cut = case.clone();
            cut.steps[step].abort = Some(((*point).to_owned(), 1));
            (cut != *case).then(|| (format!("the sweep: {point} on {name}, step {step}"), cut))
        });
        cases.extend(reaching.take(per_point));
    }
    cases
}

/// Seeds whose finding is not mended yet, one a line (`seed=N` first), each with what it finds.
fn open_findings_file() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("budget/explore/open-findings.txt")
}

/// Where the kept failing cases live: replayed first on every run.
fn regressions_file() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("budget/explore/regressions.txt")
}

fn kept_cases() -> Vec<Case> {
    let text = std::fs::read_to_string(regressions_file()).unwrap_or_default();
    text.lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .map(|line| Case::parse(line).unwrap_or_else(|e| panic!("regressions.txt: {line}: {e}")))
        .collect()
}

#[tokio::test(flavor = "multi_thread")]
async fn the_money_explorer_finds_no_lost_or_double_counted_sat() {
    quiet_aborts();
    if std::env::var_os("AIUI_EXPLORE_LOG").is_some() {
        let _ = tracing_subscriber::fmt().with_writer(std::io::stderr).with_max_level(tracing::Level::INFO).try_init();
    }
    let points = faults::all();
    let env_number = |name: &str| std::env::var(name).ok().map(|v| v.parse::<u64>().expect("a number"));
    let sequences = env_number("AIUI_EXPLORE_SEQUENCES").unwrap_or(200);
    let first_seed = env_number("AIUI_EXPLORE_FIRST_SEED").unwrap_or(1);
    let mut cases: Vec<(String, Case)> = Vec::new();
    if let Ok(line) = std::env::var("AIUI_EXPLORE_CASE") {
        cases.push(("the given case".into(), Case::parse(&line).expect("AIUI_EXPLORE_CASE reads as a case")));
    } else if let Some(seed) = env_number("AIUI_EXPLORE_SEED") {
        cases.push((format!("seed {seed}"), Case::draw(seed, &points)));
    } else {
        if std::env::var_os("AIUI_EXPLORE_SKIP_KEPT").is_none() {
            cases.extend(kept_cases().into_iter().enumerate().map(|(n, case)| (format!("kept case {n}"), case)));
        }
        cases.extend(
            (first_seed..first_seed + sequences).map(|seed| (format!("seed {seed}"), Case::draw(seed, &points))),
        );
    }
    // Seeds that find a violation no one has mended yet: each must still find one (when it stops, its finding was
    // mended and the line moves out), and every other seed must find none.
    let open: Vec<u64> = std::fs::read_to_string(open_findings_file())
        .unwrap_or_default()
        .lines()
        .filter_map(|line| line.split_whitespace().next()?.strip_prefix("seed=")?.parse().ok())
        .collect();
    let workers = env_number("AIUI_EXPLORE_WORKERS").unwrap_or(2).max(1) as usize;
    let open = Arc::new(open);
    let stop = Arc::new(AtomicBool::new(false));
    let started = Instant::now();
    let drawn = cases.into_iter().enumerate().map(|(place, (name, case))| (place, name, case)).collect();
    let mut done = share_out(drawn, workers, &open, false, &stop).await;
    if let Some(failure) = done.failure.take() {
        panic!("{failure}");
    }
    let mut swept = 0;
    if std::env::var_os("AIUI_EXPLORE_CASE").is_none() {
        let per_point = env_number("AIUI_EXPLORE_SWEEP").unwrap_or(SWEEP_PER_POINT as u64) as usize;
        done.passed.sort_by_key(|(place, ..)| *place);
        let cut = sweep(&points, &done.passed, per_point);
        swept = cut.len();
        let cut = cut.into_iter().enumerate().map(|(place, (name, case))| (place, name, case)).collect();
        let mut sweep_done = share_out(cut, workers, &open, true, &stop).await;
        if let Some(failure) = sweep_done.failure.take() {
            panic!("{failure}");
        }
        done.add(sweep_done);
    }
    let Share { reached, still_open, slowest, ran, on_nutshell, .. } = done;
    let elapsed = started.elapsed();
    let mut table = vec![format!(
        "money explorer: {ran} sequences ({swept} of them the sweep's, {on_nutshell} at nutshell; {workers} at a time) \
         in {:.0} s, {} aborted steps, 0 violations; {} sats of lost swaps' fees unrecorded (a known gap, \
         ARCHITECTURE.md)",
        elapsed.as_secs_f64(),
        reached.aborts,
        reached.unrecorded_fees
    )];
    for (took, name) in &slowest {
        table.push(format!("slow: {name} took {:.1} s", took.as_secs_f64()));
    }
    for open in &still_open {
        table.push(format!("open finding, still found: {}", open.chars().take(220).collect::<String>()));
    }
    table.push(format!("{:<36} {:>8}", "operation", "steps"));
    for kind in Op::KINDS {
        table.push(format!("{kind:<36} {:>8}", reached.kinds.get(kind).copied().unwrap_or(0)));
    }
    table.push(format!("{:<36} {:>8} {:>8}", "fault point", "passes", "aborts"));
    for point in &points {
        let passes = reached.points.get(point).copied().unwrap_or(0);
        table.push(format!("{point:<36} {passes:>8} {:>8}", reached.aborted_at.get(point).copied().unwrap_or(0)));
    }
    eprintln!("{}", table.join("\n"));
    if ran >= 100 {
        let unreached: Vec<_> = points.iter().filter(|p| !reached.points.contains_key(*p)).collect();
        assert!(unreached.is_empty(), "fault points no sequence reached: {unreached:?}");
    }
}
