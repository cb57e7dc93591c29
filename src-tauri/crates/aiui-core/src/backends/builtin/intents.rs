//! The built-in leg's intents: what the small model chooses among, the prompt it scores them with, and the
//! lexical evidence (words in the request) that can be added to its scores.

use crate::node::NodeMethod;

/// One everyday request the built-in leg can act on, or `Other` for everything else.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Intent {
    ListApps,
    Status,
    Logs,
    Start,
    Stop,
    Restart,
    Install,
    Uninstall,
    BitcoinSync,
    LightningInfo,
    SystemStats,
    Mints,
    Other,
}

impl Intent {
    /// In the order the scorer returns its scores.
    pub const ALL: [Intent; 13] = [
        Self::ListApps,
        Self::Status,
        Self::Logs,
        Self::Start,
        Self::Stop,
        Self::Restart,
        Self::Install,
        Self::Uninstall,
        Self::BitcoinSync,
        Self::LightningInfo,
        Self::SystemStats,
        Self::Mints,
        Self::Other,
    ];

    /// The node method this intent calls, if any.
    pub fn method(self) -> Option<NodeMethod> {
        Some(match self {
            Self::ListApps => NodeMethod::PackageList,
            Self::Status => NodeMethod::ContainerStatus,
            Self::Logs => NodeMethod::ContainerLogs,
            Self::Start => NodeMethod::PackageStart,
            Self::Stop => NodeMethod::PackageStop,
            Self::Restart => NodeMethod::PackageRestart,
            Self::Install => NodeMethod::PackageInstall,
            Self::Uninstall => NodeMethod::PackageUninstall,
            Self::BitcoinSync => NodeMethod::BitcoinInfo,
            Self::LightningInfo => NodeMethod::LndInfo,
            Self::SystemStats => NodeMethod::SystemStats,
            Self::Mints => NodeMethod::ListMints,
            Self::Other => return None,
        })
    }

    /// Whether the intent is about one app, which code resolves from the package list.
    pub fn needs_app(self) -> bool {
        matches!(
            self,
            Self::Status | Self::Logs | Self::Start | Self::Stop | Self::Restart | Self::Install | Self::Uninstall
        )
    }

    /// How the intent reads to the owner with its app: "restart LND", "show LND's logs".
    pub fn describe(self, app: &str) -> String {
        match self {
            Self::ListApps => "list your apps".into(),
            Self::Status => format!("show {app}'s status"),
            Self::Logs => format!("show {app}'s logs"),
            Self::Start => format!("start {app}"),
            Self::Stop => format!("stop {app}"),
            Self::Restart => format!("restart {app}"),
            Self::Install => format!("install {app}"),
            Self::Uninstall => format!("uninstall {app}"),
            Self::BitcoinSync => "show the Bitcoin sync progress".into(),
            Self::LightningInfo => "show the Lightning node's channels and peers".into(),
            Self::SystemStats => "show the machine's CPU, memory and disk".into(),
            Self::Mints => "list the accepted Cashu mints".into(),
            Self::Other => "chat".into(),
        }
    }

    /// What the model's continuation says for this intent, after "The owner wants to". Short on purpose, and with
    /// no full stop: every token but the last is decoded for every request, and the verb carries the intent. Half
    /// the tokens of the longer wordings before (tests/benches/builtin.rs prints both), the same accuracy with the
    /// lexical cues on tests/builtin's table.
    fn continuation(self) -> &'static str {
        match self {
            Self::ListApps => " list the apps",
            Self::Status => " check its status",
            Self::Logs => " read its logs",
            Self::Start => " start it",
            Self::Stop => " stop it",
            Self::Restart => " restart it",
            Self::Install => " install it",
            Self::Uninstall => " uninstall it",
            Self::BitcoinSync => " check the Bitcoin sync",
            Self::LightningInfo => " see the Lightning channels",
            Self::SystemStats => " see the CPU and disk",
            Self::Mints => " list the Cashu mints",
            Self::Other => " chat",
        }
    }
}

/// The prompt the model scores continuations with. The prefix is fixed so it stays cached across requests.
#[derive(Debug, Clone)]
pub struct ScoringPrompt {
    pub prefix: String,
    pub suffix: String,
    /// One continuation per intent, in [`Intent::ALL`] order.
    pub candidates: Vec<String>,
    pub null_request: String,
}

/// The ChatML prompt SmolLM2 was tuned on, with the request as the user's message.
pub fn scoring_prompt() -> ScoringPrompt {
    ScoringPrompt {
        prefix: "<|im_start|>system\nYou help the owner of a home Bitcoin node. The node runs apps such as Bitcoin \
                 Knots, LND, Electrs, Mempool and BTCPay Server. The owner can list apps, check an app's status, \
                 read its logs, start, stop, restart, install or uninstall it, see the Bitcoin sync progress, the \
                 Lightning channels, the CPU, memory and disk, and the accepted Cashu mints.<|im_end|>\n\
                 <|im_start|>user\n"
            .into(),
        suffix: "<|im_end|>\n<|im_start|>assistant\nThe owner wants to".into(),
        candidates: Intent::ALL.iter().map(|i| i.continuation().to_owned()).collect(),
        null_request: "Hello.".into(),
    }
}

/// Words that point at an intent, with how strongly. Matched as whole words (or word prefixes ending in `*`)
/// of the lowercased request. Deliberately short: verbs and nouns an owner uses, not phrasings of a test table.
const CUES: &[(Intent, &[&str], f32)] = &[
    (Intent::ListApps, &["running", "installed", "apps", "services", "everything", "overview", "list"], 1.0),
    // "Status" names the intent outright; "up" or "doing" only hint at it.
    (Intent::Status, &["status", "state", "alive", "healthy", "health"], 1.5),
    (Intent::Status, &["up", "ok", "okay", "working", "doing", "check"], 1.0),
    (Intent::Logs, &["log", "logs", "logfile", "output", "errors", "error", "crash*", "why", "journal"], 1.5),
    (Intent::Start, &["start", "launch", "run", "boot", "enable", "turn on", "bring up", "fire up"], 1.5),
    (Intent::Stop, &["stop", "halt", "shut", "shutdown", "disable", "turn off", "kill", "pause"], 1.5),
    (Intent::Restart, &["restart", "reboot", "reload", "bounce", "reset", "again", "kick"], 2.0),
    // Not a stem: "installed" asks what is there, not for an install.
    (
        Intent::Install,
        &["install", "instal", "installing", "add", "get", "put", "setup", "set up", "download", "deploy"],
        1.5,
    ),
    (Intent::Uninstall, &["uninstall", "remove", "delete", "rid", "purge", "drop", "wipe"], 2.0),
    (Intent::BitcoinSync, &["sync*", "block*", "height", "chain", "ibd", "verification", "caught"], 1.5),
    (Intent::LightningInfo, &["channel*", "peer*", "lightning", "alias", "liquidity"], 1.5),
    (
        Intent::SystemStats,
        &[
            "cpu",
            "memory",
            "ram",
            "disk",
            "storage",
            "temperature",
            "temp",
            "hot",
            "uptime",
            "load",
            "space",
            "system",
            "resources",
            "performance",
        ],
        1.5,
    ),
    (Intent::Mints, &["mint", "mints", "cashu", "ecash"], 2.0),
    (Intent::Other, &["joke", "weather", "hello", "hi", "thanks", "thank", "who", "poem", "meaning"], 1.0),
];

/// The lexical evidence for each intent, in [`Intent::ALL`] order.
pub fn lexical_evidence(request: &str) -> Vec<f32> {
    let text = normalize(request);
    let words: Vec<&str> = text.split(' ').filter(|w| !w.is_empty()).collect();
    let padded = format!(" {} ", words.join(" "));
    Intent::ALL
        .iter()
        .map(|intent| {
            CUES.iter()
                .filter(|(i, _, _)| i == intent)
                .map(|(_, cues, weight)| {
                    let hits = cues.iter().filter(|cue| cue_matches(cue, &words, &padded)).count();
                    weight * hits.min(2) as f32
                })
                .sum()
        })
        .collect()
}

fn cue_matches(cue: &str, words: &[&str], padded: &str) -> bool {
    if let Some(stem) = cue.strip_suffix('*') {
        words.iter().any(|w| w.starts_with(stem))
    } else if cue.contains(' ') {
        padded.contains(&format!(" {cue} "))
    } else {
        words.contains(&cue)
    }
}

/// Lowercase, letters and digits only, single spaces; apostrophes dropped so "what's" reads "whats".
pub fn normalize(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars().flat_map(char::to_lowercase) {
        if c == '\'' || c == '’' {
            continue;
        }
        if c.is_alphanumeric() || c == '-' {
            out.push(c);
        } else if !out.ends_with(' ') {
            out.push(' ');
        }
    }
    out.trim().to_owned()
}
