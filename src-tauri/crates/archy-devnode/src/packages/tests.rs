//! Tests for the package state machine, the seeded catalogue and restoring saved states.

use std::collections::BTreeMap;
use std::time::{Duration, SystemTime};

use super::*;

fn t0() -> SystemTime {
    SystemTime::UNIX_EPOCH + Duration::from_secs(1_750_000_000)
}

fn fresh() -> Packages {
    Packages::seeded(Chain::new(t0()), t0())
}

#[track_caller]
fn check(state: PackageState, action: Action, expect: Result<PackageState, &str>) {
    let got = plan("lnd", state, action).map_err(|e| e.to_string());
    assert_eq!(got, expect.map_err(str::to_owned), "{action:?} from {state:?}");
}

#[test]
fn transitions_and_their_refusals() {
    use Action::*;
    use PackageState as S;
    check(S::Stopped, Start, Ok(S::Starting));
    check(S::Running, Start, Err("`lnd` is already running"));
    check(S::NotInstalled, Start, Err("`lnd` is not installed; install it first"));
    check(S::Restarting, Start, Err("`lnd` is restarting; wait until it finishes"));
    check(S::Running, Stop, Ok(S::Stopping));
    check(S::Stopped, Stop, Err("`lnd` is already stopped"));
    check(S::Starting, Stop, Err("`lnd` is starting; wait until it finishes"));
    check(S::NotInstalled, Stop, Err("`lnd` is not installed; install it first"));
    check(S::Running, Restart, Ok(S::Restarting));
    check(S::Stopped, Restart, Ok(S::Restarting));
    check(S::NotInstalled, Restart, Err("`lnd` is not installed; install it first"));
    check(S::NotInstalled, Install, Ok(S::Installing));
    check(S::Running, Install, Err("`lnd` is already installed"));
    check(S::Installing, Install, Err("`lnd` is installing; wait until it finishes"));
    check(S::Running, Uninstall, Ok(S::Removing));
    check(S::Stopped, Uninstall, Ok(S::Removing));
    check(S::NotInstalled, Uninstall, Err("`lnd` is not installed, so there is nothing to uninstall"));
    check(S::Removing, Uninstall, Err("`lnd` is removing; wait until it finishes"));
    check(S::Stopping, Restart, Err("`lnd` is stopping; wait until it finishes"));
}

#[test]
fn the_catalogue_has_a_crashed_electrs_with_an_explaining_log() {
    let packages = fresh();
    let electrs = packages.get("electrs").unwrap();
    assert_eq!(electrs.state, PackageState::Stopped);
    assert_eq!(electrs.exit_code, Some(137));
    let json = electrs.to_json();
    assert_eq!(json["exit_code"], 137);
    assert_eq!(json["health"], "unhealthy");
    let log = electrs.logs.tail(100).join("\n");
    for needle in ["compaction", "out of memory", "Killed", "container exited with code 137"] {
        assert!(log.contains(needle), "electrs log lacks {needle:?}:\n{log}");
    }
    for id in ["bitcoin-knots", "lnd", "mempool", "btcpay", "nostr-rs-relay"] {
        assert_eq!(packages.get(id).unwrap().state, PackageState::Running, "{id}");
        assert!(packages.get(id).unwrap().logs.len() > 3, "{id} has a seeded log");
    }
    for id in ["fedimint", "tailscale", "nextcloud"] {
        let p = packages.get(id).unwrap();
        assert_eq!(p.to_json()["state"], "not-installed");
        assert_eq!(p.logs.len(), 0);
    }
    assert_eq!(packages.get("mempool").unwrap().to_json()["lan_address"], "http://archipelago.local:4080");
    assert!(packages.get("lnd").unwrap().to_json().get("lan_address").is_none());
    assert!(matches!(packages.get("nope"), Err(PackageError::Unknown(_))));
}

#[test]
fn a_start_clears_the_crash_and_logs_both_ends() {
    let mut packages = fresh();
    let now = t0() + Duration::from_secs(5);
    assert_eq!(packages.begin("electrs", Action::Start, None, now).unwrap(), PackageState::Starting);
    assert_eq!(packages.get("electrs").unwrap().to_json()["health"], "starting");
    assert!(!packages.finish("electrs", PackageState::Stopping, now), "a stale finish changes nothing");
    assert!(packages.finish("electrs", PackageState::Starting, now));
    let electrs = packages.get("electrs").unwrap();
    assert_eq!(electrs.state, PackageState::Running);
    assert_eq!(electrs.exit_code, None);
    assert_eq!(electrs.status_json()["started_at"], time::rfc3339(now));
    let tail = electrs.logs.tail(10).join("\n");
    assert!(tail.contains("[electrs] Starting…") && tail.contains("[electrs] Started"), "{tail}");
}

#[test]
fn install_sets_the_version_and_uninstall_forgets_it() {
    let mut packages = fresh();
    let now = t0();
    packages.begin("fedimint", Action::Install, Some("0.5.0"), now).unwrap();
    packages.finish("fedimint", PackageState::Installing, now);
    let fedimint = packages.get("fedimint").unwrap();
    assert_eq!((fedimint.state, fedimint.version.as_str()), (PackageState::Running, "0.5.0"));
    packages.begin("fedimint", Action::Uninstall, None, now).unwrap();
    packages.finish("fedimint", PackageState::Removing, now);
    let fedimint = packages.get("fedimint").unwrap();
    assert_eq!((fedimint.state, fedimint.version.as_str()), (PackageState::NotInstalled, "0.5.1"));
    assert_eq!(fedimint.logs.len(), 0, "the container's logs go with it");
}

#[test]
fn saved_transitional_states_resolve_to_their_targets() {
    let saved = |state: PackageState| PersistedPackage {
        state,
        version: "9.9.9".into(),
        exit_code: None,
        started_at: Some(1_700_000_000),
    };
    let file = PersistedState {
        format: PersistedState::FORMAT,
        packages: BTreeMap::from([
            ("lnd".to_owned(), saved(PackageState::Restarting)),
            ("mempool".to_owned(), saved(PackageState::Stopping)),
            ("fedimint".to_owned(), saved(PackageState::Installing)),
            ("btcpay".to_owned(), saved(PackageState::Removing)),
            ("electrs".to_owned(), saved(PackageState::Starting)),
            ("bitcoin-knots".to_owned(), saved(PackageState::Running)),
            ("retired-app".to_owned(), saved(PackageState::Running)),
        ]),
    };
    let mut packages = fresh();
    let now = t0() + Duration::from_secs(60);
    packages.restore(&file, now);
    let state = |id| packages.get(id).unwrap().state;
    assert_eq!(state("lnd"), PackageState::Running);
    assert_eq!(state("mempool"), PackageState::Stopped);
    assert_eq!(state("fedimint"), PackageState::Running);
    assert_eq!(state("btcpay"), PackageState::NotInstalled);
    assert_eq!(state("electrs"), PackageState::Running);
    assert_eq!(state("bitcoin-knots"), PackageState::Running);
    assert_eq!(state("nextcloud"), PackageState::NotInstalled, "absent from the file: the catalogue's state");
    assert_eq!(packages.get("fedimint").unwrap().version, "9.9.9");
    assert_eq!(packages.get("btcpay").unwrap().version, "2.0.7", "removed: back to the catalogue version");
    assert_eq!(packages.get("electrs").unwrap().exit_code, None);
    let started = |id| packages.get(id).unwrap().started_at;
    assert_eq!(started("lnd"), Some(now), "resolved to running now");
    assert_eq!(started("bitcoin-knots"), Some(time::from_unix_secs(1_700_000_000)), "already running: kept");
    let snapshot = packages.snapshot();
    assert!(snapshot.packages.values().all(|p| !p.state.is_transitional()));
    assert!(!snapshot.packages.contains_key("retired-app"));
}
