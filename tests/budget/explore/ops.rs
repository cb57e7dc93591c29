//! The explorer's operations: every money operation the owner, a provider, a friend's wallet, a mint or a second
//! process can do, drawn from a seed, written as one readable line each (a failing case is kept that way), and
//! performed through the same doors production uses.

use std::fmt;
use std::str::FromStr;

use rand::Rng;
use rand::rngs::StdRng;

use crate::support::provider::Fault;

/// The abort point that stands for whichever point a step passes (`pay@any#3`: at its third pass of any point).
pub const ANY: &str = "any";

/// How a provider behaves on one paid request: every behaviour the hostile tests know that ends within a turn.
pub const BEHAVIOURS: &[(&str, Fault)] = &[
    ("honest", Fault::None),
    ("402", Fault::PaymentRequired),
    ("upstream-502-with-refund", Fault::UpstreamError),
    ("500-refund-later", Fault::InternalNoChange),
    ("says-already-spent", Fault::AlreadySpent),
    ("change-larger-than-paid", Fault::ChangeLargerThanPaid),
    ("own-spent-token-as-change", Fault::OwnTokenAsChange),
    ("own-unspent-token-as-change", Fault::OwnTokenUnredeemedAsChange),
    ("redeem-then-402", Fault::RedeemThen402),
    ("huge-402", Fault::Huge402),
    ("redeem-part-then-500", Fault::RedeemPartThen500),
];

/// What the mint's door does to AIUI's next requests.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MintDoor {
    /// The next `n` requests are carried out and their answers lost.
    LoseAnswers(usize),
    /// The next `n` requests fail before the mint sees them.
    FailBefore(usize),
    /// The next `n` looks at a melt quote get a 400 (a mint erring about a melt it paid).
    FailMeltLooks(usize),
    Down,
    Up,
}

/// One operation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Op {
    /// The owner pays an invoice of `sats` into the wallet.
    Fund(u64),
    /// A paid request; the provider behaves as `BEHAVIOURS[n]` says.
    Pay(usize),
    Reconcile,
    /// The process ends cleanly and a new one opens the data dir.
    Restart,
    /// A second OS process reconciles the same data dir while the next operation runs.
    ReconcileElsewhere,
    /// A withdrawal of `sats` to an invoice the mint pays at once, or (`held`) keeps pending until the heal.
    Withdraw {
        sats: u64,
        held: bool,
    },
    /// A token of `sats` for a friend's wallet.
    Send(u64),
    /// The friend claims the newest token still out: all of it, or only its largest proof.
    Claim {
        whole: bool,
    },
    /// The owner takes back the newest token still out.
    TakeBack,
    ReceiveSetAside,
    DiscardSetAside,
    /// The owner sets the allowance to `sats` more than what is spent and reserved now.
    RaiseAllowance(u64),
    /// The mint makes a new keyset; with `ending`, one whose `final_expiry` is within the wallet's margin.
    RotateKeyset {
        ending: bool,
    },
    /// The provider's refund endpoint sits behind a proxy answering `status` (0: reachable again).
    RefundDoor(u16),
    MintDoor(MintDoor),
    /// The machine is lost: the words are restored into a new data dir on a fresh keyring.
    Restore,
}

/// One step: an operation, and the fault point (with which of its passes) at which it is aborted, if any.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Step {
    pub op: Op,
    pub abort: Option<(String, u64)>,
}

impl Op {
    /// The operation's kind, for the table of what was reached.
    pub fn kind(&self) -> &'static str {
        match self {
            Op::Fund(_) => "fund",
            Op::Pay(_) => "pay",
            Op::Reconcile => "reconcile",
            Op::Restart => "restart",
            Op::ReconcileElsewhere => "reconcile-elsewhere",
            Op::Withdraw { held: false, .. } => "withdraw",
            Op::Withdraw { held: true, .. } => "withdraw-held",
            Op::Send(_) => "send",
            Op::Claim { whole: true } => "claim-whole",
            Op::Claim { whole: false } => "claim-part",
            Op::TakeBack => "take-back",
            Op::ReceiveSetAside => "receive-set-aside",
            Op::DiscardSetAside => "discard-set-aside",
            Op::RaiseAllowance(_) => "allowance",
            Op::RotateKeyset { ending: false } => "rotate-keyset",
            Op::RotateKeyset { ending: true } => "rotate-keyset-ending",
            Op::RefundDoor(_) => "refund-door",
            Op::MintDoor(_) => "mint-door",
            Op::Restore => "restore",
        }
    }

    /// Every kind, for the table (so that one never drawn shows as 0).
    pub const KINDS: &'static [&'static str] = &[
        "fund",
        "pay",
        "reconcile",
        "restart",
        "reconcile-elsewhere",
        "withdraw",
        "withdraw-held",
        "send",
        "claim-whole",
        "claim-part",
        "take-back",
        "receive-set-aside",
        "discard-set-aside",
        "allowance",
        "rotate-keyset",
        "rotate-keyset-ending",
        "refund-door",
        "mint-door",
        "restore",
    ];
}

/// Which operations and provider behaviours a sequence may draw, and how often its steps are aborted: drawn once
/// per seed (swarm testing, as TigerBeetle's VOPR does), so that some sequences dwell on a few operations and reach
/// the deep combinations (a partial redemption, then a reconcile cut off mid-way) that uniform draws seldom make.
#[derive(Debug, Clone)]
pub struct Swarm {
    kinds: Vec<u32>,
    behaviours: Vec<usize>,
    abort_p: f64,
    deepest_pass: u64,
}

impl Swarm {
    pub fn draw(rng: &mut StdRng) -> Self {
        // Paying and reconciling are always on; every other kind is on with a chance of one half.
        let mut kinds: Vec<u32> = (0..KIND_COUNT).filter(|&k| k < 2 || rng.random_bool(0.5)).collect();
        // A token sent out is claimed or taken back: those kinds come with sending, or sends only pile up and
        // take-backs find nothing to take (one drawn sequence in 200 took a token back before this).
        if kinds.contains(&6) {
            kinds.extend([7, 8].iter().filter(|k| !kinds.contains(k)).collect::<Vec<_>>());
            kinds.sort_unstable();
        }
        let mut behaviours: Vec<usize> = (0..BEHAVIOURS.len()).filter(|_| rng.random_bool(0.4)).collect();
        if behaviours.is_empty() {
            behaviours.push(rng.random_range(0..BEHAVIOURS.len()));
        }
        let abort_p = [0.1, 0.25, 0.5][rng.random_range(0..3)];
        let deepest_pass = [2, 5][rng.random_range(0..2)];
        Self { kinds, behaviours, abort_p, deepest_pass }
    }
}

/// Reconciles that end a drawn sequence while its faults still hold: the owner's app reconciles every ten minutes
/// through an outage, before the heal lifts it (a refund endpoint behind a failing proxy, a reconcile cut off
/// mid-way). Each may be aborted at its first or second fault point.
const OUTAGE_RECONCILES: usize = 3;

/// Draws a sequence of `len` steps under `swarm`, then the outage's reconciles; an aborted step names a registered
/// point or `any`.
pub fn draw(rng: &mut StdRng, len: usize, swarm: &Swarm, points: &[&'static str]) -> Vec<Step> {
    let mut steps = draw_steps(rng, len, swarm, points);
    for _ in 0..OUTAGE_RECONCILES {
        let abort = rng.random_bool(0.5).then(|| (ANY.to_owned(), rng.random_range(1..=2)));
        steps.push(Step { op: Op::Reconcile, abort });
    }
    steps
}

fn draw_steps(rng: &mut StdRng, len: usize, swarm: &Swarm, points: &[&'static str]) -> Vec<Step> {
    (0..len)
        .map(|_| {
            let op = draw_op(rng, swarm);
            // Mostly whichever point the step passes first, second, ...: every point on its path, new ones
            // included, without a list of paths; sometimes a named point from the registry.
            let abort = rng.random_bool(swarm.abort_p).then(|| {
                if rng.random_bool(0.85) {
                    (ANY.to_owned(), rng.random_range(1..=swarm.deepest_pass))
                } else {
                    (points[rng.random_range(0..points.len())].to_owned(), 1)
                }
            });
            Step { op, abort }
        })
        .collect()
}

/// Kinds of operation a swarm turns on or off (paying and reconciling first: always on).
const KIND_COUNT: u32 = 15;

fn draw_op(rng: &mut StdRng, swarm: &Swarm) -> Op {
    // Paying and reconciling weigh most, as in the owner's app.
    let weights: [(u32, u32); KIND_COUNT as usize] = [
        (0, 30),
        (1, 12),
        (2, 4),
        (3, 3),
        (4, 3),
        (5, 6),
        (6, 7),
        (7, 6),
        (8, 8),
        (9, 4),
        (10, 2),
        (11, 3),
        (12, 2),
        (13, 4),
        (14, 9),
    ];
    let on: Vec<(u32, u32)> = weights.into_iter().filter(|(k, _)| swarm.kinds.contains(k)).collect();
    let total: u32 = on.iter().map(|(_, w)| w).sum();
    let mut pick = rng.random_range(0..total);
    let kind = on
        .iter()
        .find(|(_, w)| {
            if pick < *w {
                true
            } else {
                pick -= w;
                false
            }
        })
        .map_or(0, |(k, _)| *k);
    match kind {
        0 => Op::Pay(swarm.behaviours[rng.random_range(0..swarm.behaviours.len())]),
        1 => Op::Reconcile,
        2 => Op::Restart,
        3 => Op::ReconcileElsewhere,
        4 => Op::Fund(rng.random_range(50..400)),
        5 => Op::Withdraw { sats: rng.random_range(5..120), held: rng.random_bool(0.3) },
        6 => Op::Send(rng.random_range(3..80)),
        7 => Op::Claim { whole: rng.random_bool(0.5) },
        8 => Op::TakeBack,
        9 => Op::ReceiveSetAside,
        10 => Op::DiscardSetAside,
        11 => Op::RaiseAllowance(rng.random_range(0..200)),
        12 => Op::RotateKeyset { ending: rng.random_bool(0.5) },
        13 => Op::RefundDoor([0, 502, 503, 504][rng.random_range(0..4)]),
        _ => match rng.random_range(0..9) {
            0 | 1 => Op::Restore,
            2 | 3 => Op::MintDoor(MintDoor::LoseAnswers(rng.random_range(1..3))),
            4 => Op::MintDoor(MintDoor::FailBefore(rng.random_range(1..3))),
            5 => Op::MintDoor(MintDoor::FailMeltLooks(rng.random_range(1..3))),
            6 => Op::MintDoor(MintDoor::Down),
            _ => Op::MintDoor(MintDoor::Up),
        },
    }
}

impl fmt::Display for Op {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Op::Fund(sats) => write!(f, "fund:{sats}"),
            Op::Pay(n) => write!(f, "pay:{}", BEHAVIOURS[*n].0),
            Op::Withdraw { sats, held } => write!(f, "{}:{sats}", if *held { "withdraw-held" } else { "withdraw" }),
            Op::Send(sats) => write!(f, "send:{sats}"),
            Op::RaiseAllowance(sats) => write!(f, "allowance:{sats}"),
            Op::RefundDoor(status) => write!(f, "refund-door:{status}"),
            Op::MintDoor(door) => match door {
                MintDoor::LoseAnswers(n) => write!(f, "mint-door:lose-answers:{n}"),
                MintDoor::FailBefore(n) => write!(f, "mint-door:fail-before:{n}"),
                MintDoor::FailMeltLooks(n) => write!(f, "mint-door:fail-melt-looks:{n}"),
                MintDoor::Down => write!(f, "mint-door:down"),
                MintDoor::Up => write!(f, "mint-door:up"),
            },
            other => f.write_str(other.kind()),
        }
    }
}

impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.abort {
            Some((point, nth)) => write!(f, "{}@{point}#{nth}", self.op),
            None => write!(f, "{}", self.op),
        }
    }
}

impl FromStr for Step {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        let (op, abort) = match text.split_once('@') {
            Some((op, abort)) => {
                let (point, nth) = abort.split_once('#').ok_or_else(|| format!("{text}: no #pass after the point"))?;
                let nth = nth.parse().map_err(|_| format!("{text}: the pass is not a number"))?;
                (op, Some((point.to_owned(), nth)))
            }
            None => (text, None),
        };
        let number = |s: &str| s.parse::<u64>().map_err(|_| format!("{text}: {s:?} is not a number"));
        let parts: Vec<&str> = op.split(':').collect();
        let op = match parts.as_slice() {
            ["fund", sats] => Op::Fund(number(sats)?),
            ["pay", name] => Op::Pay(
                BEHAVIOURS.iter().position(|(n, _)| n == name).ok_or_else(|| format!("{text}: no behaviour {name}"))?,
            ),
            ["withdraw", sats] => Op::Withdraw { sats: number(sats)?, held: false },
            ["withdraw-held", sats] => Op::Withdraw { sats: number(sats)?, held: true },
            ["send", sats] => Op::Send(number(sats)?),
            ["allowance", sats] => Op::RaiseAllowance(number(sats)?),
            ["refund-door", status] => Op::RefundDoor(number(status)? as u16),
            ["mint-door", "lose-answers", n] => Op::MintDoor(MintDoor::LoseAnswers(number(n)? as usize)),
            ["mint-door", "fail-before", n] => Op::MintDoor(MintDoor::FailBefore(number(n)? as usize)),
            ["mint-door", "fail-melt-looks", n] => Op::MintDoor(MintDoor::FailMeltLooks(number(n)? as usize)),
            ["mint-door", "down"] => Op::MintDoor(MintDoor::Down),
            ["mint-door", "up"] => Op::MintDoor(MintDoor::Up),
            ["reconcile"] => Op::Reconcile,
            ["restart"] => Op::Restart,
            ["reconcile-elsewhere"] => Op::ReconcileElsewhere,
            ["claim-whole"] => Op::Claim { whole: true },
            ["claim-part"] => Op::Claim { whole: false },
            ["take-back"] => Op::TakeBack,
            ["receive-set-aside"] => Op::ReceiveSetAside,
            ["discard-set-aside"] => Op::DiscardSetAside,
            ["rotate-keyset"] => Op::RotateKeyset { ending: false },
            ["rotate-keyset-ending"] => Op::RotateKeyset { ending: true },
            ["restore"] => Op::Restore,
            _ => return Err(format!("{text}: not an operation")),
        };
        Ok(Step { op, abort })
    }
}

#[test]
fn every_step_reads_back_as_it_was_written() {
    use rand::SeedableRng;
    let points = aiui_core::faults::all();
    for seed in 0..50 {
        let mut rng = StdRng::seed_from_u64(seed);
        let swarm = Swarm::draw(&mut rng);
        for step in draw(&mut rng, 40, &swarm, &points) {
            let line = step.to_string();
            assert_eq!(line.parse::<Step>(), Ok(step), "{line}");
        }
    }
}
