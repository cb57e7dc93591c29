//! Crashes and a second process, for real: a paid request runs in a child process (this test binary re-run as
//! `pay_child_process`), is killed with SIGKILL at each named fault point, and `reconcile` then runs in a fresh
//! child process. After each, the ledger adds up and the budget's spend is exactly what left the wallet. The same
//! is done inside `reconcile` (after it received a refund, after it took a token back, on each side of a
//! write-off), on a zero-fee mint and on one charging `input_fee_ppk` 100, with honest and lying providers. A
//! further test reconciles from another process while the child is mid-payment with a slow provider.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::Duration;

use aiui_core::Secret;
use aiui_core::backends::routstr::Routstr;
use aiui_core::backends::routstr::discovery::Discovery;
use aiui_core::backends::{ChatRequest, Message};
use aiui_core::faults::{FUNDING_POINTS, POINTS, RECONCILE_POINTS};
use aiui_core::i18n::Locale;
use aiui_core::net::guard::AddressPolicy;
use aiui_core::pay::Payments;
use aiui_core::secrets::{SecretName, Secrets};

use super::{assert_conserved, funded, open};
use crate::support::mint::TestMint;
use crate::support::paid::{discovery_config, openai, test_reconcile_policy, test_routstr_config};
use crate::support::provider::{Fault, TestProvider};
use crate::support::relay::TestRelay;

const ROLE: &str = "AIUI_PAY_CHILD";
const FUNDS: u64 = 400;
const ALLOWANCE: u64 = 300;

/// Not a test of its own: the entry point of the child processes the tests below start. Without `AIUI_PAY_CHILD`
/// (an ordinary test run) it returns at once.
#[test]
fn pay_child_process() {
    let Ok(role) = std::env::var(ROLE) else { return };
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().expect("a runtime");
    runtime.block_on(child(&role));
}

async fn child(role: &str) {
    let var = |name: &str| std::env::var(name).unwrap_or_else(|_| panic!("{name} is set by the parent"));
    let dir = std::path::PathBuf::from(var("AIUI_PAY_DIR"));
    if role == "restore" {
        // A restore on a fresh machine: an empty keyring, the words and mints from the parent.
        let words = Secret::new(var("AIUI_PAY_SEED"));
        let mints: Vec<String> = var("AIUI_PAY_MINTS").split(',').map(str::to_owned).collect();
        let options = crate::support::paid::test_wallet_options();
        let done = aiui_core::pay::Wallet::restore(&dir, &Secrets::in_memory(), &words, &mints, options, false).await;
        eprintln!("AIUI-CHILD-RESTORED {:?}", done.map(|(_, found)| found));
        return;
    }
    let secrets = Secrets::in_memory();
    secrets.set(SecretName::WalletSeed, &Secret::new(var("AIUI_PAY_SEED"))).unwrap();
    let opened = match std::env::var("AIUI_PAY_CLOCK") {
        Ok(clock) => super::open_with_clock_file(&dir, &secrets, Path::new(&clock)).await,
        Err(_) => open(&dir, &secrets).await,
    };
    let mut policy = test_reconcile_policy();
    if std::env::var_os("AIUI_PAY_WRITE_OFF_NOW").is_some() {
        policy.write_off_after = Duration::ZERO;
    }
    let payments =
        Arc::new(opened.with_refund_access(AddressPolicy::AllowPrivateForTests, None).with_reconcile_policy(policy));
    if role.starts_with("stress-") {
        return super::stress::child(role, payments, &var("AIUI_PAY_RELAY")).await;
    }
    match role {
        "pay" => {
            let (routstr, request) = paid_leg(&payments, &var("AIUI_PAY_RELAY"));
            let policy = payments.budget().payment_policy();
            let id = routstr.check(&request, &policy).await.expect("the provider is found");
            let outcome = routstr.send(&id, routstr.request_body(&request), &policy, Locale::En).await;
            eprintln!("AIUI-CHILD-PAID {}", if outcome.is_ok() { "ok" } else { "failed" });
        }
        "reconcile" => {
            let report = payments.reconcile().await.expect("reconcile runs");
            eprintln!("AIUI-CHILD-RECONCILED {report:?}");
        }
        "idle" => {
            // Another long-lived process on the data dir (the desktop app beside `aiui-cli serve`): it holds its
            // liveness lock and does nothing until told to stop.
            eprintln!("AIUI-CHILD-IDLE {}", payments.budget().session());
            let stop = dir.join("idle.stop");
            while !stop.exists() {
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
        }
        "fund" => {
            let mint = var("AIUI_PAY_MINT");
            let invoice = payments.wallet().mint_invoice(&mint, FUNDS).await.expect("an invoice");
            let minted = payments.wallet().wait_minted(&mint, &invoice.quote_id, Duration::from_secs(20)).await;
            eprintln!("AIUI-CHILD-FUNDED {minted:?}");
        }
        "withdraw" => {
            // Withdraws to the invoice the parent holds at its mint, then stays alive until it is killed: a melt
            // the mint is still paying when the process that made it dies.
            let quote = payments.quote_withdrawal(&var("AIUI_PAY_INVOICE"), None, false).await.expect("a quote");
            let done = payments.withdraw(&quote).await;
            eprintln!("AIUI-CHILD-WITHDREW {:?}", done.map(|w| w.outcome));
            loop {
                tokio::time::sleep(Duration::from_secs(60)).await;
            }
        }
        other => panic!("unknown child role {other}"),
    }
}

/// The Routstr leg a child pays with, finding the test provider on `relay`, and the request it sends.
pub(super) fn paid_leg(payments: &Arc<Payments>, relay: &str) -> (Routstr, ChatRequest) {
    let discovery = Arc::new(Discovery::new(discovery_config(relay)));
    let routstr = Routstr::new(test_routstr_config(), discovery, payments.clone()).unwrap();
    let request = ChatRequest {
        system: "You are a test.".into(),
        messages: vec![Message::User { text: "what is running?".into() }],
        tools: Vec::new(),
        max_tokens: 1024,
    };
    (routstr, request)
}

struct Setup {
    mint: TestMint,
    relay: TestRelay,
    provider: TestProvider,
}

async fn setup() -> Setup {
    setup_with_fee(0).await
}

async fn setup_with_fee(input_fee_ppk: u64) -> Setup {
    let mint = TestMint::start_with_fee(input_fee_ppk).await;
    let relay = TestRelay::start().await;
    let replies = (0..16).map(|_| openai("answer_plain.json")).collect();
    let provider = TestProvider::start(&mint.url(), replies).await;
    provider.announce(&relay.url, &mint.url()).await;
    Setup { mint, relay, provider }
}

/// A funded wallet and an allowance in a fresh data dir; returns the seed words for the children. Nothing of it
/// stays open in this process.
async fn data_dir(s: &Setup, dir: &Path) -> String {
    let secrets = Secrets::in_memory();
    let payments = funded(&s.mint, dir, &secrets, FUNDS, ALLOWANCE).await;
    drop(payments);
    secrets.get(SecretName::WalletSeed).unwrap().expect("a seed").expose().clone()
}

pub(super) fn spawn(role: &str, dir: &Path, seed: &str, relay: &str, fault_point: Option<&str>) -> Child {
    command(role, dir, seed, relay, fault_point).spawn().expect("the child process starts")
}

/// The child process for `role`, not started yet.
pub(super) fn command(role: &str, dir: &Path, seed: &str, relay: &str, fault_point: Option<&str>) -> Command {
    let mut command = Command::new(std::env::current_exe().expect("the test binary"));
    command
        .args(["--exact", "budget::crash::pay_child_process", "--nocapture", "--test-threads=1"])
        .env(ROLE, role)
        .env("AIUI_PAY_DIR", dir)
        .env("AIUI_PAY_SEED", seed)
        .env("AIUI_PAY_RELAY", relay)
        .env_remove("AIUI_FAULT_POINT")
        .env_remove("AIUI_PAY_CLOCK")
        .env_remove("AIUI_PAY_WRITE_OFF_NOW")
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    if let Some(point) = fault_point {
        command.env("AIUI_FAULT_POINT", point);
    }
    command
}

/// Reads the child's stderr until a line starts with `marker`; returns that line, or panics with what was seen.
pub(super) async fn wait_for(child: &mut Child, marker: &'static str) -> String {
    let stderr = child.stderr.take().expect("piped stderr");
    let found = tokio::task::spawn_blocking(move || {
        let mut seen = Vec::new();
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            if line.starts_with(marker) {
                return Ok(line);
            }
            seen.push(line);
        }
        Err(seen.join("\n"))
    });
    match tokio::time::timeout(Duration::from_secs(90), found).await {
        Ok(Ok(Ok(line))) => line,
        Ok(Ok(Err(seen))) => panic!("the child ended without {marker}:\n{seen}"),
        other => panic!("no {marker} from the child in 90 s: {other:?}"),
    }
}

/// Opens the data dir in this process and checks the seed's promise: conservation, nothing in flight or
/// reserved, and spend equal to what really left the wallet.
async fn assert_resolved(dir: &Path, seed: &str, point: &str) -> u64 {
    let payments: Payments = reopen(dir, seed).await;
    let sums = assert_conserved(payments.conservation().await.unwrap());
    let budget = payments.budget().get();
    assert_eq!(sums.in_flight, 0, "{point}: still in flight after reconcile: {sums:?}");
    assert_eq!(budget.reserved_sats, 0, "{point}: a reservation survived: {budget:?}");
    assert!(budget.spent_sats <= ALLOWANCE, "{point}");
    let left = sums.received_total - sums.wallet_balance;
    assert_eq!(budget.spent_sats, left, "{point}: spend must equal what left the wallet: {sums:?} {budget:?}");
    budget.spent_sats
}

#[tokio::test(flavor = "multi_thread")]
async fn a_kill_at_every_step_of_a_payment_loses_nothing_after_reconcile() {
    let mut table = Vec::new();
    for fee in [0, 100] {
        let s = setup_with_fee(fee).await;
        for point in POINTS {
            let label = format!("{point} (input_fee_ppk {fee})");
            let dir = tempfile::tempdir().unwrap();
            let seed = data_dir(&s, dir.path()).await;
            let charged_before = s.provider.state.charged.load(std::sync::atomic::Ordering::SeqCst) as u64;

            let mut payer = spawn("pay", dir.path(), &seed, &s.relay.url, Some(point));
            wait_for(&mut payer, "AIUI-FAULT-POINT").await;
            payer.kill().expect("SIGKILL");
            let status = payer.wait().unwrap();
            assert!(!status.success(), "{label}: the child was killed");

            let report = run_reconcile(dir.path(), &seed, &s.relay.url, None).await;
            let spent = assert_resolved(dir.path(), &seed, &label).await;
            let charged = s.provider.state.charged.load(std::sync::atomic::Ordering::SeqCst) as u64 - charged_before;
            // We count what the provider charged, no more, no less (and, at a fee mint, what the mint kept).
            assert_counted_once(settled_spend(dir.path(), &seed).await, charged, fee, &label);
            table.push(format!("{label:<50} spent {spent:>3} sats  {report}"));
        }
    }
    eprintln!("{}", table.join("\n"));
}

/// How a payment is left open for `reconcile` before a reconcile is killed at `point`.
struct Leftover {
    point: &'static str,
    /// The provider's behaviour for the paid request.
    fault: Fault,
    /// Where the payer is killed (`None`: it finishes, leaving a parked payment).
    payer_point: Option<&'static str>,
    /// Reconciles that run to the end before the one that is killed (a write-off needs its tries first).
    runs_before: usize,
    /// The provider is honest in this case: spend must be exactly its charge.
    honest: bool,
}

const LEFTOVERS: &[Leftover] = &[
    // The provider redeemed and failed (500, no change); reconcile gets the refund and dies having received it.
    Leftover {
        point: "after-returned-received",
        fault: Fault::InternalNoChange,
        payer_point: Some("after-token-sent"),
        runs_before: 0,
        honest: true,
    },
    // A 402 before redeeming; reconcile takes the token back and dies before the ledger hears of it.
    Leftover {
        point: "after-reclaimed",
        fault: Fault::PaymentRequired,
        payer_point: Some("after-token-sent"),
        runs_before: 0,
        honest: true,
    },
    // A liar: redeems, answers 402, never refunds. Reconcile writes it off on its second try and dies there.
    Leftover {
        point: "before-write-off",
        fault: Fault::RedeemThen402,
        payer_point: None,
        runs_before: 1,
        honest: false,
    },
    Leftover {
        point: "after-write-off",
        fault: Fault::RedeemThen402,
        payer_point: None,
        runs_before: 1,
        honest: false,
    },
];

#[tokio::test(flavor = "multi_thread")]
async fn a_kill_inside_reconcile_loses_nothing_and_counts_nothing_twice() {
    // The partial take-back's point has its own test below (it needs a token redeemed in part).
    let cased: Vec<_> =
        RECONCILE_POINTS.iter().copied().filter(|point| *point != PARTIAL_TAKE_BACK_POINTS[0]).collect();
    assert_eq!(LEFTOVERS.iter().map(|l| l.point).collect::<Vec<_>>(), cased, "every reconcile fault point has a case");
    let mut table = Vec::new();
    for fee in [0, 100] {
        let s = setup_with_fee(fee).await;
        for case in LEFTOVERS {
            let label = format!("{} (input_fee_ppk {fee})", case.point);
            let dir = tempfile::tempdir().unwrap();
            let seed = data_dir(&s, dir.path()).await;
            let charged_before = s.provider.state.charged.load(std::sync::atomic::Ordering::SeqCst) as u64;
            s.provider.arm(case.fault, 0);
            let mut payer = spawn("pay", dir.path(), &seed, &s.relay.url, case.payer_point);
            match case.payer_point {
                Some(_) => {
                    wait_for(&mut payer, "AIUI-FAULT-POINT").await;
                    payer.kill().expect("SIGKILL");
                }
                None => {
                    wait_for(&mut payer, "AIUI-CHILD-PAID").await;
                }
            }
            payer.wait().unwrap();
            for _ in 0..case.runs_before {
                run_reconcile(dir.path(), &seed, &s.relay.url, None).await;
            }
            let mut killed = spawn("reconcile", dir.path(), &seed, &s.relay.url, Some(case.point));
            wait_for(&mut killed, "AIUI-FAULT-POINT").await;
            killed.kill().expect("SIGKILL");
            killed.wait().unwrap();
            let report = run_reconcile(dir.path(), &seed, &s.relay.url, None).await;
            let spent = assert_resolved(dir.path(), &seed, &label).await;
            let charged = s.provider.state.charged.load(std::sync::atomic::Ordering::SeqCst) as u64 - charged_before;
            let settled = settled_spend(dir.path(), &seed).await;
            if case.honest {
                assert_counted_once(settled, charged, fee, &format!("{label}: {report}"));
            } else {
                assert!(settled > 0, "{label}: the liar kept the token, and it counts as spent: {report}");
            }
            table.push(format!("{label:<44} spent {spent:>3} sats (settled {settled:>3})  {report}"));
        }
    }
    eprintln!("{}", table.join("\n"));
}

/// Where reconcile dies between taking back the unspent part of a token and writing the rest off.
const PARTIAL_TAKE_BACK_POINTS: [&str; 2] = ["after-unspent-part-taken-back", "before-write-off"];

/// Review F1: a provider redeemed part of a token, and reconcile, having watched it long enough, took back the
/// unspent part and was killed before writing the rest off. The next run must count the taken-back sats once: as
/// back in the wallet, not also as spent. Run with a zero-fee mint and one charging `input_fee_ppk` 100.
#[tokio::test(flavor = "multi_thread")]
async fn a_kill_between_a_partial_take_back_and_its_write_off_counts_the_part_taken_back_once() {
    for (fee, point) in [0, 100].into_iter().flat_map(|fee| PARTIAL_TAKE_BACK_POINTS.map(|point| (fee, point))) {
        let s = setup_with_fee(fee).await;
        let redeemer = super::Provider::new(&s.mint).await;
        let dir = tempfile::tempdir().unwrap();
        let seed = data_dir(&s, dir.path()).await;
        let payments = reopen(dir.path(), &seed).await;
        let policy = payments.budget().payment_policy();
        let payment = payments.auto_pay_token(&policy, &[s.mint.url()], 12, "provider-a").await.expect("a token");
        let redeemed = redeemer.redeem_part(payment.token.expose()).await;
        payments.keep_in_flight(&payment).await;
        drop(payments);

        let mut killed = command("reconcile", dir.path(), &seed, &s.relay.url, Some(point))
            .env("AIUI_PAY_WRITE_OFF_NOW", "1")
            .spawn()
            .expect("the child starts");
        wait_for(&mut killed, "AIUI-FAULT-POINT").await;
        killed.kill().expect("SIGKILL");
        killed.wait().unwrap();
        let report = run_reconcile(dir.path(), &seed, &s.relay.url, None).await;
        let label = format!("partial take-back killed at {point} (input_fee_ppk {fee}): {report}");
        assert_resolved(dir.path(), &seed, &label).await;
        let sums = reopen(dir.path(), &seed).await.conservation().await.unwrap();
        // What the provider kept is what it redeemed (with the fee it paid for that, at a fee mint); the proofs taken
        // back are in the wallet, less the mint's fee for taking them.
        let provider_fee = if fee == 0 { 0 } else { 1 };
        assert!((redeemed..=redeemed + provider_fee).contains(&sums.settled_spend), "{label}: counted twice: {sums:?}");
        assert!(sums.fees <= 2 * provider_fee, "{label}: {sums:?}");
    }
}

/// What the ledger settled is what the provider charged, plus, at a mint with fees, the input fee the provider paid
/// to redeem the token (its change is worth that much less; a token of at most 30 proofs costs at most 3 sats). A
/// returned token counted twice, or a reclaim taken for the provider's redemption, would be off by the whole token.
#[track_caller]
fn assert_counted_once(settled: u64, charged: u64, input_fee_ppk: u64, label: &str) {
    let most = if input_fee_ppk == 0 { charged } else { charged + 3 };
    assert!((charged..=most).contains(&settled), "{label}: settled {settled}, the provider charged {charged}");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_kill_between_minting_and_recording_is_counted_once_by_reconcile() {
    let s = setup().await;
    for point in FUNDING_POINTS {
        let dir = tempfile::tempdir().unwrap();
        let secrets = Secrets::in_memory();
        let payments = funded(&s.mint, dir.path(), &secrets, 0, ALLOWANCE).await;
        drop(payments);
        let seed = secrets.get(SecretName::WalletSeed).unwrap().expect("a seed").expose().clone();
        let mut funder = command("fund", dir.path(), &seed, &s.relay.url, Some(point))
            .env("AIUI_PAY_MINT", s.mint.url())
            .spawn()
            .expect("the child starts");
        wait_for(&mut funder, "AIUI-FAULT-POINT").await;
        funder.kill().expect("SIGKILL");
        funder.wait().unwrap();
        // The ecash is in the wallet; the ledger never heard of it until reconcile reads cdk's record.
        run_reconcile(dir.path(), &seed, &s.relay.url, None).await;
        run_reconcile(dir.path(), &seed, &s.relay.url, None).await;
        let sums = assert_conserved(reopen(dir.path(), &seed).await.conservation().await.unwrap());
        assert_eq!((sums.wallet_balance, sums.received_total), (FUNDS, FUNDS), "{point}: counted once: {sums:?}");
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn cdk_recovery_runs_while_another_long_lived_process_shares_the_data_dir() {
    let s = setup().await;
    let dir = tempfile::tempdir().unwrap();
    let seed = data_dir(&s, dir.path()).await;
    let mut idle = spawn("idle", dir.path(), &seed, &s.relay.url, None);
    wait_for(&mut idle, "AIUI-CHILD-IDLE").await;
    // A payer dies after its pending row, with its proofs reserved in cdk's saga.
    let mut payer = spawn("pay", dir.path(), &seed, &s.relay.url, Some("after-pending-row"));
    wait_for(&mut payer, "AIUI-FAULT-POINT").await;
    payer.kill().expect("SIGKILL");
    payer.wait().unwrap();

    // This process is a third one (the CLI's reconcile) while the idle one still runs.
    let cli = reopen(dir.path(), &seed).await.with_refund_access(AddressPolicy::AllowPrivateForTests, None);
    let report = cli.reconcile().await.unwrap();
    assert_eq!(report.cancelled, 1, "cdk's recovery put the proofs back though another process runs: {report:?}");
    let sums = assert_conserved(cli.conservation().await.unwrap());
    assert_eq!((sums.in_flight, sums.wallet_balance), (0, FUNDS), "{sums:?}");
    assert_eq!(cli.budget().get().reserved_sats, 0, "the dead payer's reservation was released");
    std::fs::write(dir.path().join("idle.stop"), "").unwrap();
    assert!(idle.wait().unwrap().success());
}

/// The data dir opened in this process, as a new process would open it, with the seed the children were given.
async fn reopen(dir: &Path, seed: &str) -> Payments {
    let secrets = Secrets::in_memory();
    secrets.set(SecretName::WalletSeed, &Secret::new(seed.to_owned())).unwrap();
    open(dir, &secrets).await
}

/// Runs `reconcile` in a fresh child process to its end and returns its report line.
async fn run_reconcile(dir: &Path, seed: &str, relay: &str, point: Option<&str>) -> String {
    let mut reconciler = spawn("reconcile", dir, seed, relay, point);
    let report = wait_for(&mut reconciler, "AIUI-CHILD-RECONCILED").await;
    assert!(reconciler.wait().unwrap().success(), "reconcile failed: {report}");
    report
}

/// The ledger's settled spend: what providers kept, mint fees aside.
async fn settled_spend(dir: &Path, seed: &str) -> u64 {
    reopen(dir, seed).await.conservation().await.unwrap().settled_spend
}

#[tokio::test(flavor = "multi_thread")]
async fn reconcile_in_another_process_leaves_a_running_payment_alone() {
    let s = setup().await;
    let dir = tempfile::tempdir().unwrap();
    let seed = data_dir(&s, dir.path()).await;
    s.provider.arm(Fault::Slow, 0);
    let mut payer = spawn("pay", dir.path(), &seed, &s.relay.url, None);
    // Wait until the token is with the (slow) provider.
    let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
    while s.provider.state.bodies.lock().unwrap().is_empty() {
        assert!(tokio::time::Instant::now() < deadline, "the child never reached the provider");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }

    // This process is the CLI's `wallet reconcile`: same data dir, same code path.
    let cli = reopen(dir.path(), &seed).await.with_refund_access(AddressPolicy::AllowPrivateForTests, None);
    let held = cli.budget().get().reserved_sats;
    assert!(held > 0, "the child reserved before paying");
    let report = cli.reconcile().await.unwrap();
    assert_eq!((report.skipped_live, report.checked, report.released_reservations), (1, 0, 0), "{report:?}");
    assert_eq!(cli.budget().get().reserved_sats, held, "nothing released early");
    let sums = assert_conserved(cli.conservation().await.unwrap());
    assert!(sums.in_flight > 0, "the token is still in flight");
    drop(cli);

    let done = wait_for(&mut payer, "AIUI-CHILD-PAID").await;
    assert_eq!(done, "AIUI-CHILD-PAID ok", "the payment completed");
    assert!(payer.wait().unwrap().success());
    let spent = assert_resolved(dir.path(), &seed, "two processes").await;
    assert_eq!(spent, s.provider.state.charged.load(std::sync::atomic::Ordering::SeqCst) as u64);
}
