//! The built-in leg's intents: what the small model chooses among, the prompt it scores them with, and the
//! lexical evidence (words in the request) that can be added to its scores.

use crate::i18n::{self, Locale};
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

    /// How the intent reads to the owner with its app, in `locale`: "restart LND", "LND neu starten", "Reinicia
    /// LND". A one-tap choice is sent back as the owner's words, so each must be understood as this intent again
    /// ([`CUES`] holds every shipped locale's verbs; a test taps every choice in every locale).
    pub fn describe(self, locale: Locale, app: &str) -> String {
        let key = match self {
            Self::ListApps => "intent-list",
            Self::Status => "intent-status",
            Self::Logs => "intent-logs",
            Self::Start => "intent-start",
            Self::Stop => "intent-stop",
            Self::Restart => "intent-restart",
            Self::Install => "intent-install",
            Self::Uninstall => "intent-uninstall",
            Self::BitcoinSync => "intent-sync",
            Self::LightningInfo => "intent-lightning",
            Self::SystemStats => "intent-system",
            Self::Mints => "intent-mints",
            Self::Other => "intent-chat",
        };
        i18n::text(locale, key, &[("app", app.into())])
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

/// Words that point at an intent, with how strongly, in each shipped locale (English, German, Spanish). Matched
/// against the request's words after [`normalize`], so case and diacritics do not matter; a cue written with
/// umlauts also matches them written out ("läuft": "lauft", "laeuft"). Forms: a whole word, a word prefix ending
/// in `*`, a phrase of adjacent words, parts in order with words between them ("starte … neu", for German
/// separable verbs), and `^` for a cue that counts only as the request's first word. A negative weight takes
/// back what a word counts elsewhere. Deliberately short: verbs and nouns an owner uses, not phrasings of a test
/// table; a row counts at most two of its cues.
const CUES: &[(Intent, &[&str], f32)] = &[
    (Intent::ListApps, &["running", "installed", "apps", "services", "everything", "overview", "list"], 1.0),
    // "Status" names the intent outright; "up" or "doing" only hint at it.
    (Intent::Status, &["status", "state", "alive", "healthy", "health"], 1.5),
    (Intent::Status, &["up", "ok", "okay", "working", "doing", "check"], 1.0),
    (Intent::Logs, &["log", "logs", "logfile", "output", "errors", "error", "crash*", "why", "journal"], 1.5),
    (Intent::Start, &["start", "launch", "run", "boot", "enable", "turn on", "bring up", "fire up"], 1.5),
    (Intent::Stop, &["stop", "halt", "shut", "shutdown", "disable", "turn off", "kill", "pause"], 1.5),
    // "Why did LND stop?" asks what happened (the kiosk suggests it for a stopped app); it asks for no stop.
    (Intent::Stop, &["why … stop*", "why … halt*", "why … shut"], -1.5),
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
    // German. "Läuft" is "running": about one app it is that app's status, as in English.
    (Intent::ListApps, &["läuft", "laufen", "installiert", "dienste", "übersicht", "liste", "auflisten"], 1.0),
    (Intent::Status, &["zustand", "gesund"], 1.5),
    // Not "wie geht es" ("how is … doing"): about an app the model reads it as the status unaided, and about
    // anything else ("dem System") it is not an app's status.
    (Intent::Status, &["funktioniert"], 1.0),
    (Intent::Logs, &["protokoll*", "logdatei*", "fehler*", "absturz", "abgestürzt", "warum", "ausgabe"], 1.5),
    (
        Intent::Start,
        &[
            "starte",
            "starten",
            "einschalten",
            "anschalten",
            "hochfahren",
            "aktiviere",
            "schalte … ein",
            "mach … an",
            "fahr* … hoch",
        ],
        1.5,
    ),
    // The separable "starte … neu" is a restart: its "starte" is no evidence of a start, and without this the
    // start cue would stand level with the restart's and leave the choice to the model.
    (Intent::Start, &["starte … neu", "starten … neu", "start … neu", "neu starten"], -1.5),
    (
        Intent::Stop,
        &[
            "stoppe",
            "stopp",
            "stoppen",
            "beende",
            "beenden",
            "anhalten",
            "ausschalten",
            "abschalten",
            "herunterfahren",
            "deaktiviere",
            "halte … an",
            "schalte … aus",
            "mach … aus",
            "fahr* … herunter",
            "fahr* … runter",
        ],
        1.5,
    ),
    (
        Intent::Restart,
        &["neustart*", "neu starten", "starte … neu", "starten … neu", "start … neu", "rebooten", "neu laden"],
        2.0,
    ),
    (
        Intent::Install,
        &[
            "installier",
            "installiere",
            "installieren",
            "hinzufügen",
            "füge … hinzu",
            "einrichten",
            "richte … ein",
            "herunterladen",
        ],
        1.5,
    ),
    (
        Intent::Uninstall,
        &["deinstalliere", "deinstallieren", "entfern", "entferne", "entfernen", "lösch", "lösche", "löschen"],
        2.0,
    ),
    (Intent::BitcoinSync, &["höhe"], 1.5),
    // "Kanäle" written out ("kanaele") does not start with "kanal"; without the umlaut ("kanale") it does.
    (Intent::LightningInfo, &["kanal*", "kanaele*", "liquidität"], 1.5),
    (
        Intent::SystemStats,
        &[
            "prozessor",
            "speicher*",
            "arbeitsspeicher",
            "festplatte*",
            "temperatur",
            "auslastung",
            "heiß",
            "ressourcen",
            "leistung",
        ],
        1.5,
    ),
    (Intent::Other, &["witz", "wetter", "hallo", "danke", "gedicht", "wer", "sinn"], 1.0),
    // Spanish. "Funcionando" is "running", as "läuft" above.
    (
        Intent::ListApps,
        &[
            "funcionando",
            "ejecutando",
            "en marcha",
            "instalado*",
            "instalada*",
            "aplicaciones",
            "servicios",
            "resumen",
            "lista",
        ],
        1.0,
    ),
    (Intent::Status, &["estado", "salud"], 1.5),
    // Not "cómo está" or "qué tal", for the reason "wie geht es" is not a German cue.
    (Intent::Status, &["funciona"], 1.0),
    (
        Intent::Logs,
        &["registro", "registros", "errores", "fallo", "fallado", "falla", "por qué", "bitácora", "salida"],
        1.5,
    ),
    (
        Intent::Start,
        &["inicia", "iniciar", "inicie", "arranca", "arrancar", "enciende", "encender", "activa", "ejecuta"],
        1.5,
    ),
    (Intent::Start, &["vuelve a iniciar", "vuelve a arrancar"], -1.5),
    // "Para" is also "for": only a request that opens with it ("Para LND") asks for a stop, and "¿para qué?" is
    // "what for?".
    (
        Intent::Stop,
        &["^para", "parar", "pare", "detén", "detener", "detenga", "apaga", "apagar", "desactiva", "desactivar"],
        1.5,
    ),
    (Intent::Stop, &["^para qué"], -1.5),
    (Intent::Restart, &["reinici*", "vuelve a iniciar", "vuelve a arrancar", "rearranca"], 2.0),
    (
        Intent::Install,
        &["instala", "instalar", "instale", "instálalo", "añade", "añadir", "agrega", "agregar", "descarga"],
        1.5,
    ),
    (
        Intent::Uninstall,
        &["desinstala", "desinstalar", "elimina", "eliminar", "borra", "borrar", "quita", "quitar"],
        2.0,
    ),
    (Intent::BitcoinSync, &["sincroniz*", "bloque*", "altura", "cadena"], 1.5),
    (Intent::LightningInfo, &["canal*", "liquidez"], 1.5),
    (
        Intent::SystemStats,
        &[
            "procesador",
            "memoria",
            "disco",
            "almacenamiento",
            "espacio",
            "temperatura",
            "caliente",
            "sistema",
            "recursos",
            "rendimiento",
        ],
        1.5,
    ),
    (Intent::Other, &["chiste", "clima", "hola", "gracias", "poema", "quién", "sentido"], 1.0),
];

/// The lexical evidence for each intent, in [`Intent::ALL`] order.
pub fn lexical_evidence(request: &str) -> Vec<f32> {
    // A hyphen joins compounds whose parts are the cues ("Lightning-Kanäle", "CPU-Auslastung"). App names keep
    // theirs: apps.rs resolves those from `normalize` as it is.
    let text = normalize(request).replace('-', " ");
    let words: Vec<&str> = text.split(' ').filter(|w| !w.is_empty()).collect();
    Intent::ALL
        .iter()
        .map(|intent| {
            CUES.iter()
                .filter(|(i, _, _)| i == intent)
                .map(|(_, cues, weight)| {
                    let hits = cues.iter().filter(|cue| cue_matches(cue, &words)).count();
                    weight * hits.min(2) as f32
                })
                .sum()
        })
        .collect()
}

/// Whether the request's words hold the cue, as the cue is spelled in [`CUES`] or with its umlauts written out.
fn cue_matches(cue: &str, words: &[&str]) -> bool {
    let (first_only, cue) = match cue.strip_prefix('^') {
        Some(rest) => (true, rest),
        None => (false, cue),
    };
    [false, true].into_iter().any(|written_out| {
        let parts: Vec<Vec<String>> = cue
            .split('…')
            .map(|part| part.split_whitespace().map(|token| fold(token, written_out)).collect())
            .filter(|part: &Vec<String>| !part.is_empty())
            .collect();
        let mut from = 0;
        for (k, part) in parts.iter().enumerate() {
            let last = if first_only && k == 0 { 0 } else { words.len().saturating_sub(part.len()) };
            let at = (from..=last).find(|&i| {
                i + part.len() <= words.len()
                    && part.iter().zip(&words[i..]).all(|(token, word)| token_matches(token, word))
            });
            match at {
                Some(i) => from = i + part.len(),
                None => return false,
            }
        }
        !parts.is_empty()
    })
}

fn token_matches(token: &str, word: &str) -> bool {
    match token.strip_suffix('*') {
        Some(stem) => word.starts_with(stem),
        None => word == token,
    }
}

/// Lowercase, letters and digits only, single spaces; apostrophes dropped so "what's" reads "whats"; diacritics
/// dropped ("läuft" reads "lauft", "detén" "deten"), since owners type them or leave them out as their keyboard
/// allows.
pub fn normalize(text: &str) -> String {
    words_of(text, true)
}

/// [`normalize`] with the diacritics kept, word for word the same words: what the model reads, which knows
/// "läuft" better than "lauft".
pub fn normalize_keeping_marks(text: &str) -> String {
    words_of(text, false)
}

fn words_of(text: &str, fold_marks: bool) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars().flat_map(char::to_lowercase) {
        if c == '\'' || c == '’' {
            continue;
        }
        // A decomposed accent ("a" + U+0308) belongs to its letter, not between two words.
        if ('\u{300}'..='\u{36f}').contains(&c) {
            if !fold_marks && !out.is_empty() && !out.ends_with(' ') {
                out.push(c);
            }
            continue;
        }
        if c.is_alphanumeric() || c == '-' {
            if fold_marks {
                fold_char(&mut out, c, false);
            } else {
                out.push(c);
            }
        } else if !out.ends_with(' ') {
            out.push(' ');
        }
    }
    out.trim().to_owned()
}

/// A cue's token lowercased and without diacritics, or with German umlauts written out ("ae"); `*` is kept.
fn fold(token: &str, written_out: bool) -> String {
    let mut out = String::with_capacity(token.len());
    for c in token.chars().flat_map(char::to_lowercase) {
        fold_char(&mut out, c, written_out);
    }
    out
}

/// The letters of German and Spanish (and their Latin neighbours) as owners type them without diacritics.
fn fold_char(out: &mut String, c: char, written_out: bool) {
    match c {
        'ä' if written_out => out.push_str("ae"),
        'ö' if written_out => out.push_str("oe"),
        'ü' if written_out => out.push_str("ue"),
        'ß' => out.push_str("ss"),
        'æ' => out.push_str("ae"),
        'à' | 'á' | 'â' | 'ã' | 'ä' | 'å' => out.push('a'),
        'ç' => out.push('c'),
        'è' | 'é' | 'ê' | 'ë' => out.push('e'),
        'ì' | 'í' | 'î' | 'ï' => out.push('i'),
        'ñ' => out.push('n'),
        'ò' | 'ó' | 'ô' | 'õ' | 'ö' | 'ø' => out.push('o'),
        'ù' | 'ú' | 'û' | 'ü' => out.push('u'),
        'ý' | 'ÿ' => out.push('y'),
        other => out.push(other),
    }
}
