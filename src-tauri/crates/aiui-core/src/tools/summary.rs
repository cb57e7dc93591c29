//! Host-written summaries of node actions, for the confirmation window. Built from the validated arguments and
//! the node's own state; never from model text.

use crate::node::{NodeMethod, Package, PackageState};

/// Which apps need which: the node does not publish dependencies, so the well-known ones are listed here, to warn
/// the owner that stopping one app stops others' work.
const DEPENDS_ON: &[(&str, &[&str])] = &[
    ("lnd", &["bitcoin-knots"]),
    ("electrs", &["bitcoin-knots"]),
    ("mempool", &["bitcoin-knots", "electrs"]),
    ("btcpay", &["bitcoin-knots", "lnd"]),
];

/// "Stop app `bitcoin-knots` (running; lnd, electrs depend on it)". `packages` is `None` when the node's list
/// could not be read: the summary then says the state is unknown instead of guessing.
pub fn action_summary(method: NodeMethod, app: &str, version: Option<&str>, packages: Option<&[Package]>) -> String {
    let verb = match method {
        NodeMethod::PackageStart => "Start app",
        NodeMethod::PackageStop => "Stop app",
        NodeMethod::PackageRestart => "Restart app",
        NodeMethod::PackageInstall => "Install app",
        NodeMethod::PackageUninstall => "Uninstall app",
        other => return format!("Call `{}` for `{app}`", other.spec().rpc_name),
    };
    let mut facts = Vec::new();
    if let Some(v) = version {
        facts.push(format!("version {v}"));
    }
    let Some(packages) = packages else {
        facts.push("state unknown: the node's package list could not be read".to_owned());
        return format!("{verb} `{app}` ({})", facts.join("; "));
    };
    match packages.iter().find(|p| p.id == app) {
        Some(p) => facts.push(state_words(&p.state)),
        None => facts.push("not in the node's package list".to_owned()),
    }
    let stops_others =
        matches!(method, NodeMethod::PackageStop | NodeMethod::PackageRestart | NodeMethod::PackageUninstall);
    if stops_others {
        let dependents: Vec<&str> = DEPENDS_ON
            .iter()
            .filter(|(_, needs)| needs.contains(&app))
            .map(|(dependent, _)| *dependent)
            .filter(|d| packages.iter().any(|p| p.id == *d && p.state != PackageState::NotInstalled))
            .collect();
        match dependents.as_slice() {
            [] => {}
            [one] => facts.push(format!("{one} depends on it")),
            many => facts.push(format!("{} apps depend on it: {}", many.len(), many.join(", "))),
        }
    }
    format!("{verb} `{app}` ({})", facts.join("; "))
}

fn state_words(state: &PackageState) -> String {
    match state {
        PackageState::NotInstalled => "not installed".to_owned(),
        PackageState::Other(s) => bounded_state(s),
        other => serde_json::to_value(other).ok().and_then(|v| v.as_str().map(str::to_owned)).unwrap_or_default(),
    }
}

/// The longest state word the node may put into a summary the owner approves.
const MAX_STATE_CHARS: usize = 40;

/// A state string the node made up (an [assumed] shape read leniently): only letters, digits and `-_. ` of it, at
/// most [`MAX_STATE_CHARS`], so the node's own text can neither bury the summary nor draw anything in it.
fn bounded_state(raw: &str) -> String {
    let kept: String = raw.chars().filter(|c| c.is_alphanumeric() || "-_. ".contains(*c)).collect();
    let kept = kept.split_whitespace().collect::<Vec<_>>().join(" ");
    match kept.chars().count() {
        0 => "in a state the node did not name".to_owned(),
        n if n > MAX_STATE_CHARS => format!("{}…", kept.chars().take(MAX_STATE_CHARS).collect::<String>()),
        _ => kept,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_state_the_node_made_up_is_bounded_and_plain() {
        assert_eq!(bounded_state("degraded"), "degraded");
        let long = "x".repeat(10_000);
        assert_eq!(bounded_state(&long).chars().count(), MAX_STATE_CHARS + 1);
        assert_eq!(bounded_state("ok`)\n\nApprove: send all funds <b>"), "okApprove send all funds b");
        assert_eq!(bounded_state("\u{202e}\n\t"), "in a state the node did not name");
    }

    fn pkg(id: &str, state: PackageState) -> Package {
        Package {
            id: id.into(),
            title: id.into(),
            version: "1".into(),
            state,
            health: None,
            exit_code: None,
            lan_address: None,
        }
    }

    #[track_caller]
    fn check(method: NodeMethod, app: &str, expect: &str) {
        let packages = [
            pkg("bitcoin-knots", PackageState::Running),
            pkg("lnd", PackageState::Running),
            pkg("electrs", PackageState::Stopped),
            pkg("mempool", PackageState::Running),
            pkg("btcpay", PackageState::NotInstalled),
        ];
        assert_eq!(action_summary(method, app, None, Some(&packages)), expect);
    }

    #[test]
    fn summaries_name_the_state_and_the_dependents() {
        check(
            NodeMethod::PackageStop,
            "bitcoin-knots",
            "Stop app `bitcoin-knots` (running; 3 apps depend on it: lnd, electrs, mempool)",
        );
        check(NodeMethod::PackageRestart, "lnd", "Restart app `lnd` (running)");
        check(NodeMethod::PackageStart, "electrs", "Start app `electrs` (stopped)");
        check(NodeMethod::PackageStop, "electrs", "Stop app `electrs` (stopped; mempool depends on it)");
        check(NodeMethod::PackageInstall, "btcpay", "Install app `btcpay` (not installed)");
        check(NodeMethod::PackageUninstall, "ghost", "Uninstall app `ghost` (not in the node's package list)");
        assert_eq!(
            action_summary(NodeMethod::PackageRestart, "lnd", None, None),
            "Restart app `lnd` (state unknown: the node's package list could not be read)"
        );
    }
}
