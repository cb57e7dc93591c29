//! Which app a request names, resolved by code against the node's real package list: ids, titles, common names
//! and small typos. Deterministic, so the small model never has to spell an app id.

use super::intents::{normalize, normalize_keeping_marks};
use crate::node::Package;

/// Names owners use for apps whose id or title does not contain them. Keyed by the node's app id; an id the node
/// does not list is never offered. German and Spanish owners say the product names as they are; what differs is
/// the generic part ("Lightning-Knoten", "nodo de Lightning"), which counts only together with the product's name:
/// "Knoten" or "nodo" alone is any node, not an app.
const COMMON_NAMES: &[(&str, &[&str])] = &[
    (
        "bitcoin-knots",
        &[
            "bitcoin",
            "knots",
            "bitcoind",
            "bitcoin node",
            "bitcoin core",
            "btc node",
            "bitcoin knoten",
            "nodo bitcoin",
            "nodo de bitcoin",
        ],
    ),
    ("bitcoin-core", &["bitcoin", "bitcoind", "bitcoin core"]),
    (
        "lnd",
        &[
            "lightning",
            "lightning node",
            "lightning network daemon",
            "lightning knoten",
            "nodo lightning",
            "nodo de lightning",
        ],
    ),
    ("electrs", &["electrum", "electrum server", "electrs server", "servidor electrum", "servidor de electrum"]),
    ("mempool", &["mempool space", "block explorer", "explorer", "explorador de bloques"]),
    ("btcpay", &["btcpay", "btcpayserver", "btc pay", "payment server"]),
    ("nostr-rs-relay", &["nostr", "relay", "nostr relay"]),
    ("fedimint", &["fedimint", "fedi", "federation", "guardian"]),
    ("tailscale", &["vpn"]),
];

/// An app the request names, and how sure the match is.
#[derive(Debug, Clone, PartialEq)]
pub struct AppMatch {
    pub id: String,
    pub title: String,
    /// 0 for an exact name, 1 or 2 for a typo of that many edits.
    pub edits: usize,
    /// How many words of the request the name covered (longer names win: "bitcoin knots" over "bitcoin").
    pub words: usize,
    /// Where the name starts among the request's normalized words.
    pub start: usize,
}

/// The apps the request names, best first. Several when the request is ambiguous between them.
pub fn resolve(request: &str, packages: &[Package]) -> Vec<AppMatch> {
    let text = normalize(request);
    let words: Vec<&str> = text.split(' ').filter(|w| !w.is_empty()).collect();
    let mut found: Vec<AppMatch> = Vec::new();
    for package in packages {
        let mut best: Option<(usize, usize, usize)> = None;
        for name in names_of(package) {
            let name_words: Vec<&str> = name.split(' ').filter(|w| !w.is_empty()).collect();
            let n = name_words.len();
            if n == 0 || n > words.len() {
                continue;
            }
            for (start, window) in words.windows(n).enumerate() {
                let Some(edits) = name_edits(window, &name_words) else { continue };
                let better = match best {
                    None => true,
                    Some((e, w, _)) => (edits, std::cmp::Reverse(n)) < (e, std::cmp::Reverse(w)),
                };
                if better {
                    best = Some((edits, n, start));
                }
            }
            // "bitcoinknots", "nostrrelay": the name's words run together.
            if n > 1 {
                let joined = name_words.concat();
                for (start, word) in words.iter().enumerate() {
                    if let Some(edits) = word_edits(word, &joined)
                        && best.is_none_or(|(e, _, _)| edits < e)
                    {
                        best = Some((edits, 1, start));
                    }
                }
            }
        }
        if let Some((edits, words, start)) = best {
            found.push(AppMatch { id: package.id.clone(), title: package.title.clone(), edits, words, start });
        }
    }
    found.sort_by_key(|m| (m.edits, std::cmp::Reverse(m.words)));
    if let Some(first) = found.first().cloned() {
        // Only the equally good matches are real alternatives: "bitcoin knots" is not ambiguous with "bitcoin".
        found.retain(|m| m.edits == first.edits && m.words == first.words);
    }
    found
}

/// The request as the model sees it: the app's name replaced by "the app", since the model chooses the intent
/// only and app names ("lnd", "bitcoin knots") pull a small model towards unrelated intents. The diacritics stay
/// (the words are the same as [`resolve`]'s, so its positions hold).
pub fn model_input(request: &str, packages: &[Package]) -> String {
    let text = normalize_keeping_marks(request);
    let words: Vec<&str> = text.split(' ').filter(|w| !w.is_empty()).collect();
    match resolve(request, packages).first() {
        Some(m) if m.start + m.words <= words.len() => {
            let mut out: Vec<&str> = words[..m.start].to_vec();
            out.push("the app");
            out.extend_from_slice(&words[m.start + m.words..]);
            out.join(" ")
        }
        _ => text,
    }
}

/// Every name the package goes by, normalized: its id (with and without dashes), its title, and common names.
fn names_of(package: &Package) -> Vec<String> {
    let mut names = vec![normalize(&package.id), normalize(&package.id.replace('-', " ")), normalize(&package.title)];
    if let Some((_, common)) = COMMON_NAMES.iter().find(|(id, _)| *id == package.id) {
        names.extend(common.iter().map(|c| normalize(c)));
    }
    names.sort();
    names.dedup();
    names
}

/// Total edits between a window of the request and a name, if every word is close enough.
fn name_edits(window: &[&str], name: &[&str]) -> Option<usize> {
    window.iter().zip(name).map(|(w, n)| word_edits(w, n)).sum()
}

/// Edits between two words, allowed only in proportion to the name's length: none for three letters or fewer
/// ("lnd" is one edit from "and"), one up to six, two beyond.
fn word_edits(word: &str, name: &str) -> Option<usize> {
    let allowed = match name.chars().count() {
        0..=3 => 0,
        4..=6 => 1,
        _ => 2,
    };
    let edits = damerau_levenshtein(word, name);
    // A possessive or plural ("lnd's" reads "lnds") is the name.
    let plural = word.strip_suffix('s').is_some_and(|w| w == name);
    if plural { Some(0) } else { (edits <= allowed).then_some(edits) }
}

/// Optimal string alignment distance: insertions, deletions, substitutions and adjacent swaps.
fn damerau_levenshtein(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            d[i][j] = (d[i - 1][j] + 1).min(d[i][j - 1] + 1).min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                d[i][j] = d[i][j].min(d[i - 2][j - 2] + 1);
            }
        }
    }
    d[a.len()][b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::node::PackageState;

    fn package(id: &str, title: &str) -> Package {
        serde_json::from_value(serde_json::json!({"id": id, "title": title, "version": "1", "state": "running"}))
            .unwrap_or_else(|e| panic!("{e}"))
    }

    fn demo() -> Vec<Package> {
        let _ = PackageState::Running;
        vec![
            package("bitcoin-knots", "Bitcoin Knots"),
            package("lnd", "LND"),
            package("electrs", "Electrs"),
            package("mempool", "Mempool"),
            package("btcpay", "BTCPay Server"),
            package("nostr-rs-relay", "Nostr Relay"),
            package("fedimint", "Fedimint Guardian"),
        ]
    }

    #[track_caller]
    fn ids(request: &str) -> Vec<String> {
        resolve(request, &demo()).into_iter().map(|m| m.id).collect()
    }

    #[test]
    fn ids_titles_common_names_and_typos_resolve() {
        assert_eq!(ids("restart lnd"), ["lnd"]);
        assert_eq!(ids("restart LND's container"), ["lnd"]);
        assert_eq!(ids("stop bitcoin knots please"), ["bitcoin-knots"]);
        assert_eq!(ids("logs of bitcoin-knots"), ["bitcoin-knots"]);
        assert_eq!(ids("is the electrum server up"), ["electrs"]);
        assert_eq!(ids("restart elektrs"), ["electrs"]);
        assert_eq!(ids("install fedimnt"), ["fedimint"]);
        assert_eq!(ids("restart the btcpay server"), ["btcpay"]);
        assert_eq!(ids("start the nostr relay"), ["nostr-rs-relay"]);
        assert_eq!(ids("restart the lightning node"), ["lnd"]);
    }

    #[test]
    fn german_and_spanish_names_resolve_and_a_generic_node_is_no_app() {
        assert_eq!(ids("Starte den Lightning-Knoten neu"), ["lnd"]);
        assert_eq!(ids("Reinicia el nodo de Lightning"), ["lnd"]);
        assert_eq!(ids("Halte das Nostr-Relay an"), ["nostr-rs-relay"]);
        assert_eq!(ids("Starte bitte den Electrum-Server"), ["electrs"]);
        assert_eq!(ids("¿Está funcionando electrs?"), ["electrs"]);
        assert!(ids("Wie geht es meinem Knoten?").is_empty());
        assert!(ids("¿Está sincronizado mi nodo?").is_empty());
    }

    #[test]
    fn the_model_reads_the_request_with_its_diacritics_and_the_app_replaced() {
        assert_eq!(model_input("Läuft Electrs?", &demo()), "läuft the app");
        assert_eq!(model_input("¿Está funcionando el nodo de Lightning?", &demo()), "está funcionando el the app");
    }

    #[test]
    fn short_names_need_an_exact_match_and_nothing_is_invented() {
        assert!(ids("and then what").is_empty());
        assert!(ids("restart the thing").is_empty());
        assert!(ids("install wordpress").is_empty());
    }
}
