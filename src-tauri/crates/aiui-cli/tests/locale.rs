//! `aiui-cli` in the person's language: the real binary run with `LANG` set to German, Spanish and the pseudo-locale
//! en-XA, offline (a fresh data dir, the demo node), and what it printed read back.

use std::path::Path;
use std::process::{Command, Output, Stdio};

use aiui_core::i18n::{self, Locale};

/// The CLI as someone whose system speaks `lang` (a POSIX locale name) runs it: `LANG` decides, as nothing
/// overrides it.
fn in_language(lang: &str, data_dir: &Path, args: &[&str], stdin: &str) -> Output {
    in_language_with(lang, data_dir, args, stdin, &[])
}

/// [`in_language`] with `env` set on top (the built-in model's dir, for one).
fn in_language_with(lang: &str, data_dir: &Path, args: &[&str], stdin: &str, env: &[(&str, &Path)]) -> Output {
    use std::io::Write;
    let mut command = Command::new(env!("CARGO_BIN_EXE_aiui-cli"));
    command.args(args);
    // `demo` keeps nothing, so it takes no data dir; every other command here gets a fresh one.
    if args.first() != Some(&"demo") {
        command.arg("--data-dir").arg(data_dir);
    }
    let mut child = command
        .env("LANG", lang)
        .env_remove("LC_ALL")
        .env_remove("LC_MESSAGES")
        .env_remove("AIUI_NODE_PASSWORD")
        .env_remove("AIUI_DATA_DIR")
        .env_remove("AIUI_MODEL_DIR")
        .env_remove("AIUI_LAN_LANGUAGE")
        // No model anywhere: the chat has no leg at all, whatever this machine has set up.
        .env("XDG_DATA_HOME", data_dir.join("no-models"))
        .envs(env.iter().copied())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("aiui-cli runs");
    child.stdin.take().unwrap().write_all(stdin.as_bytes()).unwrap();
    child.wait_with_output().unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Runs a command that must succeed; returns its stdout.
#[track_caller]
fn succeeds(lang: &str, data_dir: &Path, args: &[&str]) -> String {
    let out = in_language(lang, data_dir, args, "");
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{args:?} in {lang}:\nstdout:\n{stdout}\nstderr:\n{}", text(&out.stderr));
    stdout
}

/// Runs a command that must fail; returns its stderr.
#[track_caller]
fn fails(lang: &str, data_dir: &Path, args: &[&str]) -> String {
    let out = in_language(lang, data_dir, args, "");
    assert!(!out.status.success(), "{args:?} in {lang} succeeded:\n{}", text(&out.stdout));
    text(&out.stderr)
}

#[track_caller]
fn says(output: &str, expected: &[&str]) {
    for line in expected {
        assert!(output.contains(line), "{line:?} missing from:\n{output}");
    }
}

/// The chat with the demo node and no leg (no Ollama, no Claude, no model), fed `input`; returns its stdout.
fn chat_without_legs(lang: &str, data_dir: &Path, input: &str) -> String {
    let args =
        ["chat", "--demo", "--no-builtin", "--ollama", "http://127.0.0.1:9/", "--claude-url", "http://127.0.0.1:9/"];
    let out = in_language(lang, data_dir, &args, input);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "stdout:\n{stdout}\nstderr:\n{}", text(&out.stderr));
    stdout
}

#[test]
fn budget_speaks_german_with_the_systems_lang() {
    let dir = tempfile::tempdir().unwrap();
    let fresh = succeeds("de_DE.UTF-8", dir.path(), &["budget", "get"]);
    says(
        &fresh,
        &[
            "Claude (US-Dollar):",
            "Budget:    0 $ (Claude wird nicht genutzt; legen Sie eines mit --claude-usd BETRAG fest)",
            "Routstr (Sats):",
            "Erneuert:  nie (ein einmaliges Budget)",
            "Akzeptierte Mints: keine (bezahlte Hilfe ist aus)",
            "Diesen Monat: 0 lokale und 0 eingebaute Antworten, für 0 $.",
        ],
    );
    let set =
        succeeds("de_DE.UTF-8", dir.path(), &["budget", "set", "--claude-usd", "5", "--claude-period", "monthly"]);
    says(&set, &["Claudes Budget gespeichert.", "Budget:    5,00\u{a0}$ (monatlich)", "Erneuert:  in "]);
    let prices = succeeds("de_DE.UTF-8", dir.path(), &["budget", "prices"]);
    says(&prices, &["Claudes Preise, US-Dollar je Million Tokens", "Modell", "Cache-Schreiben", "nie für bezahlte"]);
    let refused = fails("de_DE.UTF-8", dir.path(), &["budget", "set"]);
    says(&refused, &["Nichts zu ändern: Geben Sie --allowance"]);
}

#[test]
fn budget_speaks_spanish_with_the_systems_lang() {
    let dir = tempfile::tempdir().unwrap();
    let set =
        succeeds("es_ES.UTF-8", dir.path(), &["budget", "set", "--claude-usd", "2.50", "--claude-period", "weekly"]);
    says(&set, &["Presupuesto de Claude guardado.", "presupuesto: 2,50\u{a0}US$ (semanal)", "se renueva:  en "]);
    let fresh = succeeds("es_ES.UTF-8", dir.path(), &["budget", "get"]);
    says(
        &fresh,
        &["Routstr (sats):", "mints aceptadas: ninguna", "Este mes: 0 respuestas locales y 0 integradas, a 0 US$."],
    );
    let refused = fails("es_ES.UTF-8", dir.path(), &["budget", "set", "--claude-usd", "-1"]);
    says(&refused, &["--claude-usd: ", "; no se cambió nada"]);
}

#[test]
fn demo_checks_its_node_in_german_and_in_spanish() {
    let dir = tempfile::tempdir().unwrap();
    let german = succeeds("de_DE.UTF-8", dir.path(), &["demo", "--once"]);
    says(
        &german,
        &["Demo-Knoten (simuliert) unter https://", "Anmeldung ok", "Pakete    ", "Alle Prüfungen bestanden."],
    );
    let bitcoin = german.lines().find(|l| l.starts_with("Bitcoin")).unwrap_or_else(|| panic!("{german}"));
    // The percentage the German way: a decimal comma and a space before the sign.
    assert!(bitcoin.contains(" Block ") && bitcoin.contains(" %") && bitcoin.contains(" geprüft)"), "{bitcoin}");
    assert!(!bitcoin.contains('.'), "{bitcoin}");

    let spanish = succeeds("es_ES.UTF-8", dir.path(), &["demo", "--once"]);
    says(&spanish, &["Nodo de demostración (simulado) en https://", "Todas las comprobaciones correctas."]);
}

#[test]
fn chat_without_legs_tells_a_german_terminal_how_to_enable_one_in_its_own_terms() {
    let dir = tempfile::tempdir().unwrap();
    let stdout = chat_without_legs("de_DE.UTF-8", dir.path(), "was läuft?\nstarte lnd neu\n");
    says(&stdout, &["Unterhaltung ", "Stellen Sie eine Frage; /list zeigt die Unterhaltungen"]);
    assert_eq!(stdout.matches("Gerade ist kein Assistenz-Backend verfügbar.").count(), 1, "said once:\n{stdout}");
    assert_eq!(
        stdout.matches("Noch immer ist kein Assistenz-Backend verfügbar").count(),
        1,
        "then one line:\n{stdout}"
    );
    // The terminal's own way to enable a leg replaced the windowed shells' German one.
    says(&stdout, &["im Schlüsselbund des Systems ab (`secret-tool store --label=AIUI service aiui username"]);
    assert!(!stdout.contains("Einstellungsfenster"), "a terminal has no settings window:\n{stdout}");
}

/// The built-in model answers a German terminal, and every line that names it names it in German: the answer's
/// prefix and the confirmation's "proposed by".
#[test]
fn the_built_in_model_is_named_in_german() {
    let models = std::env::var_os("AIUI_MODEL_DIR").map(std::path::PathBuf::from).unwrap_or_else(|| {
        aiui_core::paths::default_data_dir().expect("a data dir (set HOME or AIUI_MODEL_DIR)").join("models")
    });
    assert!(
        models.join(aiui_llama::MODEL_FILE).is_file(),
        "the built-in model is required and missing in {}: run `bash scripts/setup`",
        models.display()
    );
    let dir = tempfile::tempdir().unwrap();
    let args = ["chat", "--demo", "--ollama", "http://127.0.0.1:9/", "--claude-url", "http://127.0.0.1:9/"];
    // A denied restart ends its turn without an answer; the question after it is answered, and says what it cost.
    let input = "Starte LND neu\nn\nWas läuft?\n";
    let out = in_language_with("de_DE.UTF-8", dir.path(), &args, input, &[("AIUI_MODEL_DIR", &models)]);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "stdout:\n{stdout}\nstderr:\n{}", text(&out.stderr));
    says(
        &stdout,
        &[
            "[eingebaut (SmolLM2-135M)] LND wird neu gestartet: Ich warte auf Ihre Freigabe.",
            "Vorschlag von eingebaut (SmolLM2-135M)",
            "Sie haben abgelehnt: App `lnd` neu starten",
            // What it cost, the German way: nothing, in dollars written as German writes them.
            "(beantwortet von eingebaut (SmolLM2-135M)) · Kosten 0\u{a0}$",
        ],
    );
    assert!(!stdout.contains("built-in ("), "an English name is left:\n{stdout}");
    assert!(!stdout.contains("$0"), "an English cost is left:\n{stdout}");
}

#[test]
fn chat_without_legs_speaks_spanish() {
    let dir = tempfile::tempdir().unwrap();
    let stdout = chat_without_legs("es_ES.UTF-8", dir.path(), "¿qué está en marcha?\n");
    says(&stdout, &["Nodo de demostración (simulado) en https://", "Conversación ", "Escriba una pregunta"]);
    says(&stdout, &["en el llavero del sistema", "después vuelva a escribir su pregunta."]);
    assert!(!stdout.contains("ventana de ajustes"), "a terminal has no settings window:\n{stdout}");
}

#[test]
fn serve_speaks_the_language_it_is_given_not_the_systems() {
    let dir = tempfile::tempdir().unwrap();
    // It starts on a Spanish system, told German: it stops at the node password it was not given, and says so in
    // German.
    let stderr = fails("es_ES.UTF-8", dir.path(), &["serve", "--language", "de", "--node", "https://127.0.0.1:9/"]);
    says(&stderr, &["Kein Passwort: Setzen Sie AIUI_NODE_PASSWORD"]);
    let spanish = fails("es_ES.UTF-8", dir.path(), &["serve", "--node", "https://127.0.0.1:9/"]);
    says(&spanish, &["no hay contraseña: defina AIUI_NODE_PASSWORD"]);
    let stderr = fails("de_DE.UTF-8", dir.path(), &["serve", "sessions"]);
    says(&stderr, &["Keine Sitzungsliste in ", "Läuft `aiui-cli serve` mit diesem Datenverzeichnis?"]);
}

/// Runs of three or more plain-ASCII words in `output`: English that escaped the pseudo-locale, where every word of
/// the catalogue is accented. What the CLI passes through (URLs, app ids, figures, states as the node names them)
/// comes one word at a time.
fn plain_english(output: &str) -> Vec<String> {
    let mut found = Vec::new();
    for line in output.lines() {
        let mut run: Vec<&str> = Vec::new();
        for word in line.split_whitespace() {
            let bare = word.trim_matches(|c: char| c.is_ascii_punctuation());
            if bare.len() >= 2 && bare.chars().all(|c| c.is_ascii_alphabetic()) {
                run.push(word);
                continue;
            }
            if run.len() >= 3 {
                found.push(format!("{:?} in {line:?}", run.join(" ")));
            }
            run.clear();
        }
        if run.len() >= 3 {
            found.push(format!("{:?} in {line:?}", run.join(" ")));
        }
    }
    found
}

#[test]
fn in_the_pseudo_locale_no_english_sentence_escapes_the_catalogue() {
    let dir = tempfile::tempdir().unwrap();
    let mut printed = Vec::new();
    for args in [
        &["budget", "get"][..],
        &["budget", "set", "--claude-usd", "5", "--claude-period", "monthly"],
        &["budget", "set", "--allowance", "100", "--mint", "https://mint.example/"],
        &["budget", "prices"],
        &["demo", "--once"],
    ] {
        let out = in_language("en_XA", dir.path(), args, "");
        assert!(out.status.success(), "{args:?}: {}", text(&out.stderr));
        printed.push(text(&out.stdout));
        printed.push(text(&out.stderr));
    }
    for args in [&["budget", "set"][..], &["serve", "sessions"], &["serve", "--node", "https://127.0.0.1:9/"]] {
        printed.push(fails("en_XA", dir.path(), args));
    }
    // Every command's --help, long and short: clap's headings and notes, each command's and argument's help.
    for args in [
        &["--help"][..],
        &["budget", "set", "--help"],
        &["budget", "price", "-h"],
        &["wallet", "--help"],
        &["wallet", "restore", "--help"],
        &["serve", "--help"],
        &["serve", "sessions", "revoke", "--help"],
        &["doctor", "--help"],
        &["chat", "-h"],
    ] {
        let out = in_language("en_XA", dir.path(), args, "");
        assert!(out.status.success(), "{args:?}: {}", text(&out.stderr));
        // The usage line is what one types (`aiui-cli budget set [OPTIONS]`), after its translated heading.
        let usage = i18n::text(Locale::Pseudo, "cli-help-usage", &[]);
        let shown: String =
            text(&out.stdout).lines().filter(|l| !l.starts_with(&usage)).map(|l| format!("{l}\n")).collect();
        printed.push(shown);
    }
    // Where the shipped prices were taken from is the price table's own data, a citation shown as it is.
    let source = aiui_core::pricing::PriceTable::load(dir.path()).unwrap().source;
    let printed = printed.concat().replace(&source, "<source>");
    // The pseudo-locale is really in use: its brackets and accents are there.
    assert!(printed.contains("[Ðééɱóó"), "{printed}");
    let escaped = plain_english(&printed);
    assert!(escaped.is_empty(), "English outside the catalogue:\n{}\n\nin:\n{printed}", escaped.join("\n"));
}

#[test]
fn the_plain_english_check_catches_an_english_sentence() {
    assert_eq!(plain_english("[Ñóó ṁíñţš ýéţ] 12 sats  https://mint.example/ running"), Vec::<String>::new());
    assert_eq!(plain_english("Budget saved.").len(), 0, "two words are not yet a sentence");
    assert_eq!(plain_english("  the mint's fee reserve: up to 5").len(), 1);
}

/// `--help` in a German terminal: clap's headings, the help flag, each command's and argument's help, and what
/// clap adds after an argument (its environment variable, default); no English heading is left.
#[test]
fn help_speaks_german() {
    let dir = tempfile::tempdir().unwrap();
    let out = in_language("de_DE.UTF-8", dir.path(), &["--help"], "");
    let top = text(&out.stdout);
    assert!(out.status.success(), "{}", text(&out.stderr));
    says(
        &top,
        &[
            "Aufruf: aiui-cli",
            "Befehle:",
            "Optionen:",
            "AIUI, der Assistent für Archipelago-Knoten",
            "Die Version zeigen",
        ],
    );
    let out = in_language("de_DE.UTF-8", dir.path(), &["serve", "--help"], "");
    let serve = text(&out.stdout);
    says(
        &serve,
        &[
            "Den Assistenten im LAN anbieten",
            "Wo LAN-Anfragen freigegeben werden",
            "[Standard: trusted]",
            "[Umgebungsvariable: AIUI_LAN_LANGUAGE]",
            "Hilfe zeigen (eine Übersicht mit -h, alles mit --help)",
        ],
    );
    for english in ["Usage:", "Commands:", "Options:", "[default:", "[env:", "Print help"] {
        assert!(!top.contains(english) && !serve.contains(english), "{english:?} is left");
    }
}
