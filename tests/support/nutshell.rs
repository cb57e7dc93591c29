//! A mint written by others: nutshell (PyPI `cashu` 0.20.2) with its FakeWallet Lightning backend, started on
//! loopback for interoperability tests of AIUI's cdk wallet. The first use installs it from PyPI into a venv under
//! the cargo target dir, shared by every test and process; a machine that cannot reach PyPI fails the test.

use std::fs::{self, File, OpenOptions};
use std::net::{SocketAddr, TcpListener};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use aiui_core::net::{self, ClientSpec};

const CASHU: &str = "cashu==0.20.2";
/// nutshell's own locked versions: without them pip picks marshmallow 4 and limits 5, which crash the mint.
const CONSTRAINTS: &str = include_str!("nutshell-constraints.txt");
/// The first start compiles every module to bytecode and creates the database; later ones take a few seconds.
const START_TIMEOUT: Duration = Duration::from_secs(90);

/// A running nutshell mint. Dropping it kills the mint's whole process group and removes its files.
pub struct NutshellMint {
    url: String,
    child: Child,
    dir: tempfile::TempDir,
}

impl Drop for NutshellMint {
    fn drop(&mut self) {
        kill_group(&mut self.child);
    }
}

impl NutshellMint {
    /// Starts a fresh mint (new database, new key) charging `input_fee_ppk` per input proof, and waits until it
    /// answers `GET /v1/info`.
    pub async fn start(input_fee_ppk: u64) -> NutshellMint {
        let venv = tokio::task::spawn_blocking(ensure_venv).await.expect("the nutshell install task");
        let dir = tempfile::tempdir().expect("a temp dir for the nutshell mint");
        let (home, db) = (dir.path().join("home"), dir.path().join("db"));
        fs::create_dir_all(&home).expect("the mint's HOME");
        let port = free_port();
        let log = File::create(dir.path().join("mint.log")).expect("the mint's log file");
        let key: [u8; 32] = rand::random();
        let mut command = Command::new("sh");
        // The shell stays in front of the mint so that a test process killed without unwinding still stops it:
        // the shell's stdin is a pipe from this process, whose end closes when the process dies.
        command
            .arg("-c")
            .arg(r#"exec 3<&0; "$0" </dev/null & mint=$!; (read -r _ <&3; kill -TERM "$mint") & wait "$mint""#)
            .arg(venv.join("bin/mint"))
            // nutshell reads ./.env and ~/.cashu/.env over its environment: neither may be the developer's.
            .current_dir(dir.path())
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_else(|| "/usr/bin:/bin".into()))
            .env("HOME", &home)
            .env("MINT_BACKEND_BOLT11_SAT", "FakeWallet")
            .env("MINT_LISTEN_HOST", "127.0.0.1")
            .env("MINT_LISTEN_PORT", port.to_string())
            .env("MINT_DATABASE", &db)
            .env("MINT_AUTH_DATABASE", &db)
            .env("MINT_PRIVATE_KEY", hex(&key))
            .env("MINT_INPUT_FEE_PPK", input_fee_ppk.to_string())
            // FakeWallet pays every invoice it issues, after 3 s by default; tests should not wait for it.
            .env("FAKEWALLET_BRR", "TRUE")
            .env("FAKEWALLET_DELAY_INCOMING_PAYMENT", "0")
            .env("FAKEWALLET_DELAY_OUTGOING_PAYMENT", "0")
            // Its per-IP limits (60 requests a minute, 20 swaps/mints/melts) and the 10 s between backend checks
            // of an unpaid quote would throttle a test that does more than a few payments.
            .env("MINT_RATE_LIMIT", "FALSE")
            .env("MINT_QUOTE_BACKEND_CHECK_RATE_LIMIT", "0")
            // Tracebacks in the log: without DEBUG nutshell sets sys.tracebacklimit = 0.
            .env("DEBUG", "TRUE")
            .stdin(Stdio::piped())
            .stdout(log.try_clone().expect("the log file again"))
            .stderr(log)
            .process_group(0);
        let child = command.spawn().unwrap_or_else(|e| panic!("sh could not start {}: {e}", venv.display()));
        let mut mint = NutshellMint { url: format!("http://127.0.0.1:{port}"), child, dir };
        mint.wait_until_up().await;
        mint
    }

    pub fn url(&self) -> String {
        self.url.clone()
    }

    /// What the mint printed, for a failing test's message.
    pub fn log(&self) -> String {
        fs::read_to_string(self.dir.path().join("mint.log")).unwrap_or_default()
    }

    async fn wait_until_up(&mut self) {
        let spec = ClientSpec {
            connect_timeout: Duration::from_secs(1),
            request_timeout: Duration::from_secs(3),
            ..ClientSpec::default()
        };
        let http = net::client(&spec).expect("an HTTP client").http;
        let info = format!("{}/v1/info", self.url);
        let deadline = Instant::now() + START_TIMEOUT;
        loop {
            if let Ok(response) = http.get(&info).send().await
                && response.status().is_success()
            {
                return;
            }
            if let Ok(Some(status)) = self.child.try_wait() {
                panic!("the nutshell mint exited ({status}) before answering {info}:\n{}", tail(&self.log(), 60));
            }
            assert!(
                Instant::now() < deadline,
                "the nutshell mint did not answer {info} within {} s:\n{}",
                START_TIMEOUT.as_secs(),
                tail(&self.log(), 60)
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
}

/// The venv with nutshell installed, made once per target dir. The flock keeps two test processes from running pip
/// into the same venv at once; the marker (the constraints it was installed with) says the install finished.
fn ensure_venv() -> PathBuf {
    let root = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    fs::create_dir_all(&root).expect("the cargo target tmp dir");
    let venv = root.join("nutshell-0.20.2");
    let marker = venv.join("aiui-installed");
    let expected = format!("{CASHU}\n{CONSTRAINTS}");
    let lock = OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(root.join("nutshell-0.20.2.lock"))
        .expect("the nutshell install lock file");
    lock.lock().expect("the nutshell install lock");
    if fs::read_to_string(&marker).is_ok_and(|m| m == expected) {
        return venv;
    }
    // A half-made venv (pip killed, other constraints) is not trusted: start over.
    if venv.exists() {
        fs::remove_dir_all(&venv).expect("removing the old nutshell venv");
    }
    let log_path = root.join("nutshell-0.20.2-install.log");
    let log = File::create(&log_path).expect("the install log");
    let made = Command::new("python3")
        .args(["-m", "venv"])
        .arg(&venv)
        .stdin(Stdio::null())
        .stdout(log.try_clone().expect("the install log again"))
        .stderr(log.try_clone().expect("the install log again"))
        .status()
        .unwrap_or_else(|e| panic!("python3 could not run ({e}): the nutshell tests need Python 3 with venv"));
    assert!(
        made.success(),
        "`python3 -m venv {}` failed ({made}); on Debian install python3-venv:\n{}",
        venv.display(),
        tail(&read(&log_path), 30)
    );
    let constraints = venv.join("constraints.txt");
    fs::write(&constraints, CONSTRAINTS).expect("the constraints file in the venv");
    let installed = Command::new(venv.join("bin/pip"))
        .args(["install", "--disable-pip-version-check", "--no-input", "--retries", "2", CASHU, "-c"])
        .arg(&constraints)
        .stdin(Stdio::null())
        .stdout(log.try_clone().expect("the install log again"))
        .stderr(log)
        .status()
        .unwrap_or_else(|e| panic!("{} could not run: {e}", venv.join("bin/pip").display()));
    assert!(
        installed.success(),
        "could not install nutshell ({CASHU}) from PyPI into {} (pip {installed}). These tests run a real nutshell \
         mint and need PyPI once per target dir; without network they cannot pass. End of {}:\n{}",
        venv.display(),
        log_path.display(),
        tail(&read(&log_path), 30)
    );
    fs::write(&marker, expected).expect("the nutshell install marker");
    venv
}

/// A port nothing listens on right now; the mint binds it a moment later.
fn free_port() -> u16 {
    let probe = TcpListener::bind(SocketAddr::from(([127, 0, 0, 1], 0))).expect("a loopback port");
    probe.local_addr().expect("the probe's address").port()
}

/// SIGKILL to the group the shell leads (the shell, the mint and anything the mint started), then reap the shell.
fn kill_group(child: &mut Child) {
    // std has no killpg and the crate forbids unsafe code. The shell's builtin kill, because a minimal Debian may
    // lack procps's kill program (dash's builtin takes no `--`).
    let _ = Command::new("sh")
        .args(["-c", r#"kill -9 -"$1""#, "sh", &child.id().to_string()])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
    let _ = child.kill();
    let _ = child.wait();
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn read(path: &Path) -> String {
    fs::read_to_string(path).unwrap_or_default()
}

fn tail(text: &str, lines: usize) -> String {
    let all: Vec<&str> = text.lines().collect();
    all[all.len().saturating_sub(lines)..].join("\n")
}
