//! The operator commands as a user runs them: `budget get|set` on a data dir, and `wallet invoice|balance|receive|
//! reconcile` against a real cdk mint (fake Lightning) on loopback, with the seed in a real Secret Service keyring
//! started for the test (gnome-keyring inside `dbus-run-session`, as in CI).

#[path = "../../../../tests/support/lightning.rs"]
#[allow(dead_code)]
pub mod lightning;
#[path = "../../../../tests/support/mint.rs"]
#[allow(dead_code)]
mod mint;
/// Where `mint.rs` looks for its Lightning backend.
mod support {
    pub use super::lightning;
}

use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::sync::Arc;
use std::time::Duration;

use cdk::amount::SplitTarget;
use cdk::nuts::{CurrencyUnit, PaymentMethod};
use cdk::wallet::SendOptions;

fn aiui_cli(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_aiui-cli"))
        .args(args)
        .arg("--data-dir")
        .arg(dir)
        .stdin(Stdio::null())
        .output()
        .expect("aiui-cli runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// What a test script printed after its `== name` line, up to the next one.
fn section_of(stdout: &str, name: &str) -> String {
    let start =
        stdout.find(&format!("== {name}\n")).unwrap_or_else(|| panic!("no section {name}:\n{stdout}")) + name.len() + 4;
    stdout[start..].split("\n== ").next().unwrap().to_owned()
}

#[test]
fn budget_set_then_get_round_trips_and_refuses_nonsense() {
    let dir = tempfile::tempdir().unwrap();
    let out = aiui_cli(dir.path(), &["budget", "get", "--json"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["allowance_sats"], 0, "no budget file means a zero allowance");

    let out = aiui_cli(
        dir.path(),
        &[
            "budget",
            "set",
            "--allowance",
            "2100",
            "--period",
            "weekly",
            "--mint",
            "https://Mint.Example/",
            "--mint",
            "https://other.example",
        ],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("remaining: 2100 sats"), "{}", text(&out.stdout));

    let out = aiui_cli(dir.path(), &["budget", "get", "--json"]);
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["allowance_sats"], 2100);
    assert_eq!(report["period"], "weekly");
    assert_eq!(report["accepted_mints"], serde_json::json!(["https://mint.example", "https://other.example"]));
    let plain = text(&aiui_cli(dir.path(), &["budget", "get"]).stdout);
    assert!(plain.contains("allowance: 2100 sats (weekly)") && plain.contains("spent:     0 sats"), "{plain}");

    // (args, what stderr says)
    for (args, says) in [
        (&["budget", "set"][..], "nothing to change"),
        (&["budget", "set", "--period", "hourly"][..], "unknown period"),
        (&["budget", "set", "--mint", "not a url"][..], "not a mint URL"),
        (&["budget", "set", "--allowance", "-5"][..], "error"),
    ] {
        let out = aiui_cli(dir.path(), args);
        assert!(!out.status.success(), "{args:?} succeeded");
        assert!(text(&out.stderr).contains(says), "{args:?}: {}", text(&out.stderr));
    }
    let out = aiui_cli(dir.path(), &["budget", "get", "--json"]);
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["allowance_sats"], 2100, "refused changes changed nothing");
}

/// A token worth `sats` from another wallet at `mint`, to paste into `wallet receive`.
async fn gift_token(mint: &mint::TestMint, sats: u64) -> String {
    let store = cdk_sqlite::wallet::memory::empty().await.unwrap();
    let seed: [u8; 64] = std::array::from_fn(|_| rand::random());
    let wallet = cdk::wallet::WalletBuilder::new()
        .mint_url(mint.url().parse().unwrap())
        .unit(CurrencyUnit::Sat)
        .localstore(Arc::new(store))
        .seed(seed)
        .build()
        .unwrap();
    let quote = wallet.mint_quote(PaymentMethod::BOLT11, Some(sats.into()), None, None).await.unwrap();
    wallet.wait_and_mint_quote(quote, SplitTarget::default(), None, Duration::from_secs(20)).await.unwrap();
    wallet.prepare_send(sats.into(), SendOptions::default()).await.unwrap().confirm(None).await.unwrap().to_string()
}

#[tokio::test(flavor = "multi_thread")]
async fn wallet_invoice_balance_receive_and_reconcile_with_a_keyring() {
    for tool in ["dbus-run-session", "gnome-keyring-daemon"] {
        let found = Command::new("sh").args(["-c", &format!("command -v {tool}")]).output().unwrap();
        assert!(found.status.success(), "{tool} is missing: install dbus and gnome-keyring (see .ci/run)");
    }
    let mint = mint::TestMint::start().await;
    let dir = tempfile::tempdir().unwrap();
    let token_file = dir.path().join("gift.txt");
    std::fs::write(&token_file, gift_token(&mint, 21).await).unwrap();
    let data = dir.path().join("data");
    let cli = env!("CARGO_BIN_EXE_aiui-cli");
    // One D-Bus session and one unlocked keyring for the whole sequence, so the seed persists between commands.
    let script = format!(
        r#"set -e
export XDG_RUNTIME_DIR=$(mktemp -d); chmod 700 "$XDG_RUNTIME_DIR"
# A fresh keyring in a temp dir: never the user's own login keyring.
export XDG_DATA_HOME="$XDG_RUNTIME_DIR/data"; mkdir -p "$XDG_DATA_HOME"
trap 'rm -rf "$XDG_RUNTIME_DIR"' EXIT
eval "$(printf test | gnome-keyring-daemon --unlock --components=secrets)"
export AIUI_KEYRING_SERVICE=aiui-operator-test AIUI_DATA_DIR='{data}'
echo '== invoice'; '{cli}' wallet invoice --mint '{mint}' --amount 50 --wait 30
echo '== balance'; '{cli}' wallet balance
echo '== receive'; '{cli}' wallet receive < '{token}'
echo '== balance2'; '{cli}' wallet balance
echo '== reconcile'; '{cli}' wallet reconcile
echo '== notices'; '{cli}' wallet notices
echo '== set-aside'; '{cli}' wallet set-aside
echo '== receive-aside'; '{cli}' wallet set-aside receive 0123abcd 2>&1 || true
echo '== done'
"#,
        data = data.display(),
        mint = mint.url(),
        token = token_file.display(),
    );
    let out = tokio::task::spawn_blocking(move || {
        Command::new("dbus-run-session").args(["--", "bash", "-c", &script]).stdin(Stdio::null()).output().unwrap()
    })
    .await
    .unwrap();
    let stdout = text(&out.stdout);
    assert!(stdout.contains("== done"), "the sequence stopped:\n{stdout}\n{}", text(&out.stderr));
    let section = |name: &str| section_of(&stdout, name);
    let invoice = section("invoice");
    assert!(invoice.starts_with("lnbc") || invoice.starts_with("lntb") || invoice.starts_with("lnbcrt"), "{invoice}");
    assert!(invoice.contains("Minted 50 sats"), "{invoice}");
    assert!(section("balance").contains("50 sats  total"), "{}", section("balance"));
    assert!(section("receive").contains("Received 21 sats"), "{}", section("receive"));
    assert!(section("balance2").contains("71 sats  total"), "{}", section("balance2"));
    assert!(section("reconcile").contains("checked 0 payment(s) in flight"), "{}", section("reconcile"));
    assert!(section("notices").contains("No money notices."), "{}", section("notices"));
    assert!(section("set-aside").contains("No token is kept aside."), "{}", section("set-aside"));
    // Receiving a set-aside token contacts the mint it names: the owner must say so.
    let refused = section("receive-aside");
    assert!(refused.contains("contacts the mint it names") && refused.contains("--yes"), "{refused}");
    // The seed stayed in the keyring: no file in the data dir holds the words (sessions/ holds empty liveness locks).
    for entry in std::fs::read_dir(&data).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        assert!(
            [
                "wallet.sqlite3",
                "ledger.sqlite3",
                "budget.json",
                "budget.lock",
                "sessions",
                "wallet-operations.lock",
                "reconcile.lock",
                "aiui-data.json",
            ]
            .iter()
            .any(|f| name.starts_with(f)),
            "{name}"
        );
    }
    for lock in std::fs::read_dir(data.join("sessions")).unwrap() {
        assert_eq!(lock.unwrap().metadata().unwrap().len(), 0, "a liveness lock holds nothing");
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn wallet_pay_invoice_send_take_back_backup_and_restore_with_a_keyring() {
    let mint = mint::TestMint::start().await;
    let dir = tempfile::tempdir().unwrap();
    let invoice_file = dir.path().join("invoice.txt");
    std::fs::write(&invoice_file, cdk_fake_wallet::create_fake_invoice(120_000, "out".into()).to_string()).unwrap();
    let (data, restored) = (dir.path().join("data"), dir.path().join("restored"));
    let backup_file = dir.path().join("backup.txt");
    let cli = env!("CARGO_BIN_EXE_aiui-cli");
    let script = format!(
        r#"set -e
export XDG_RUNTIME_DIR=$(mktemp -d); chmod 700 "$XDG_RUNTIME_DIR"
export XDG_DATA_HOME="$XDG_RUNTIME_DIR/data"; mkdir -p "$XDG_DATA_HOME"
trap 'rm -rf "$XDG_RUNTIME_DIR"' EXIT
eval "$(printf test | gnome-keyring-daemon --unlock --components=secrets)"
export AIUI_KEYRING_SERVICE=aiui-operator-life AIUI_DATA_DIR='{data}'
'{cli}' wallet invoice --mint '{mint}' --amount 600 --wait 30 >/dev/null
echo '== unasked'; '{cli}' wallet pay-invoice < '{invoice}' 2>&1 || echo refused
echo '== pay'; '{cli}' wallet pay-invoice --yes < '{invoice}'
echo '== send'; '{cli}' wallet send --mint '{mint}' --amount 40 | tee '{backup}.send'
id=$(sed -n 's/^Its id is \([0-9a-f]*\):.*/\1/p' '{backup}.send')
echo '== sent'; '{cli}' wallet sent
echo '== take-back'; '{cli}' wallet take-back "$id"
echo '== backup-refused'; '{cli}' wallet backup 2>&1 || echo refused
'{cli}' wallet backup --force > '{backup}'
echo '== balance'; '{cli}' wallet balance
echo '== restore'; AIUI_KEYRING_SERVICE=aiui-operator-restored '{cli}' wallet restore --data-dir '{restored}' < '{backup}'
echo '== restore-again'; AIUI_KEYRING_SERVICE=aiui-operator-restored '{cli}' wallet restore --data-dir '{restored}' < '{backup}' 2>&1 || echo refused
echo '== done'
"#,
        data = data.display(),
        restored = restored.display(),
        mint = mint.url(),
        invoice = invoice_file.display(),
        backup = backup_file.display(),
    );
    let out = tokio::task::spawn_blocking(move || {
        Command::new("dbus-run-session").args(["--", "bash", "-c", &script]).stdin(Stdio::null()).output().unwrap()
    })
    .await
    .unwrap();
    let stdout = text(&out.stdout);
    assert!(stdout.contains("== done"), "the sequence stopped:\n{stdout}\n{}", text(&out.stderr));
    let section = |name: &str| section_of(&stdout, name);
    let unasked = section("unasked");
    assert!(unasked.contains("the most it can cost") && unasked.contains("refused"), "{unasked}");
    assert!(unasked.contains("--yes"), "says how to approve without a terminal: {unasked}");
    assert!(section("pay").contains("Paid 120 sats"), "{}", section("pay"));
    let send = section("send");
    assert!(send.contains("cashuB") && send.contains("shown once"), "{send}");
    let sent = section("sent");
    assert!(
        sent.contains("withdrawal      120 sats  paid (fee 1 sats)") && sent.contains("out, not claimed yet"),
        "{sent}"
    );
    assert!(section("take-back").contains("Taken back: 40 sats"), "{}", section("take-back"));
    let refused = section("backup-refused");
    assert!(refused.contains("only on a terminal") && refused.contains("refused"), "{refused}");
    let backup = std::fs::read_to_string(&backup_file).unwrap();
    assert!(backup.contains(" 1. ") && backup.contains(&mint.url()), "the words and the mints are printed");
    let balance = section("balance");
    let total = balance.lines().find(|l| l.ends_with("sats  total")).unwrap().split_whitespace().next().unwrap();
    let restore = section("restore");
    assert!(restore.contains(&format!("{total} sats  restored")), "{restore}\nbefore: {balance}");
    assert!(section("restore-again").contains("never overwrites"), "{}", section("restore-again"));
    // The words never went into a file of the data dirs, nor into the test's output but the backup's own file.
    let words: Vec<&str> = backup.lines().filter_map(|l| l.trim().split_once(". ").map(|(_, w)| w)).collect();
    assert_eq!(words.len(), 24);
    let phrase = words.join(" ");
    assert!(!stdout.contains(&phrase) && !text(&out.stderr).contains(&phrase));
}
