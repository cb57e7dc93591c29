//! Host-written summaries of node actions, for the confirmation window. Built from the validated arguments and
//! the node's own state; never from model text.

use crate::i18n::{self, Locale};
use crate::node::{NodeMethod, Package, PackageState};

/// Which apps need which: the node does not publish dependencies, so the well-known ones are listed here, to warn
/// the owner that stopping one app stops others' work.
const DEPENDS_ON: &[(&str, &[&str])] = &[
    ("lnd", &["bitcoin-knots"]),
    ("electrs", &["bitcoin-knots"]),
    ("mempool", &["bitcoin-knots", "electrs"]),
    ("btcpay", &["bitcoin-knots", "lnd"]),
];

/// "Stop app `bitcoin-knots` (running; 2 apps depend on it: lnd, electrs)", in `locale`. `packages` is `None` when the
/// node's list could not be read: the summary then says the state is unknown instead of guessing.
pub fn action_summary(
    locale: Locale,
    method: NodeMethod,
    app: &str,
    version: Option<&str>,
    packages: Option<&[Package]>,
) -> String {
    let key = match method {
        NodeMethod::PackageStart => "summary-start",
        NodeMethod::PackageStop => "summary-stop",
        NodeMethod::PackageRestart => "summary-restart",
        NodeMethod::PackageInstall => "summary-install",
        NodeMethod::PackageUninstall => "summary-uninstall",
        other => {
            let method = other.spec().rpc_name;
            return i18n::text(locale, "summary-call", &[("method", method.into()), ("app", app.into())]);
        }
    };
    let mut facts = Vec::new();
    if let Some(v) = version {
        facts.push(i18n::text(locale, "summary-version", &[("version", v.into())]));
    }
    let Some(packages) = packages else {
        facts.push(i18n::text(locale, "summary-state-unknown", &[]));
        return with_facts(locale, key, app, &facts);
    };
    match packages.iter().find(|p| p.id == app) {
        Some(p) => facts.push(state_words(locale, &p.state)),
        None => facts.push(i18n::text(locale, "summary-not-listed", &[])),
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
        if !dependents.is_empty() {
            // The count picks the plural form in the catalogue; the sentence is never pieced together here.
            let names = dependents.join(&i18n::text(locale, "summary-name-separator", &[]));
            let args = [("count", dependents.len().into()), ("names", names.into())];
            facts.push(i18n::text(locale, "summary-dependents", &args));
        }
    }
    with_facts(locale, key, app, &facts)
}

/// The action's message `key` for `app`, with `facts` in its parentheses.
fn with_facts(locale: Locale, key: &str, app: &str, facts: &[String]) -> String {
    let facts = facts.join(&i18n::text(locale, "summary-fact-separator", &[]));
    i18n::text(locale, key, &[("app", app.into()), ("facts", facts.into())])
}

/// An app's state in `locale`'s words; a state the node made up, as the node wrote it (bounded).
pub(crate) fn state_words(locale: Locale, state: &PackageState) -> String {
    let key = match state {
        PackageState::Running => "state-running",
        PackageState::Stopped => "state-stopped",
        PackageState::Starting => "state-starting",
        PackageState::Stopping => "state-stopping",
        PackageState::Restarting => "state-restarting",
        PackageState::Installing => "state-installing",
        PackageState::Updating => "state-updating",
        PackageState::Removing => "state-removing",
        PackageState::NotInstalled => "state-not-installed",
        // The node's own word, shown as the node wrote it (bounded), in every locale.
        PackageState::Other(s) => return bounded_state(locale, s),
    };
    i18n::text(locale, key, &[])
}

/// The longest state word the node may put into a summary the owner approves.
const MAX_STATE_CHARS: usize = 40;

/// A state string the node made up (an [assumed] shape read leniently): only letters, digits and `-_. ` of it, at
/// most [`MAX_STATE_CHARS`], so the node's own text can neither bury the summary nor draw anything in it.
fn bounded_state(locale: Locale, raw: &str) -> String {
    let kept: String = raw.chars().filter(|c| c.is_alphanumeric() || "-_. ".contains(*c)).collect();
    let kept = kept.split_whitespace().collect::<Vec<_>>().join(" ");
    match kept.chars().count() {
        0 => i18n::text(locale, "state-unnamed", &[]),
        n if n > MAX_STATE_CHARS => format!("{}…", kept.chars().take(MAX_STATE_CHARS).collect::<String>()),
        _ => kept,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_state_the_node_made_up_is_bounded_and_plain() {
        assert_eq!(bounded_state(Locale::En, "degraded"), "degraded");
        let long = "x".repeat(10_000);
        assert_eq!(bounded_state(Locale::En, &long).chars().count(), MAX_STATE_CHARS + 1);
        assert_eq!(bounded_state(Locale::En, "ok`)\n\nApprove: send all funds <b>"), "okApprove send all funds b");
        assert_eq!(bounded_state(Locale::En, "\u{202e}\n\t"), "in a state the node did not name");
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
        assert_eq!(action_summary(Locale::En, method, app, None, Some(&packages)), expect);
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
            action_summary(Locale::En, NodeMethod::PackageRestart, "lnd", None, None),
            "Restart app `lnd` (state unknown: the node's package list could not be read)"
        );
    }
}
