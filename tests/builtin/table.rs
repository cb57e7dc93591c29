//! The phrasing tables for the built-in leg, one per shipped locale: everyday requests against the demo node's
//! apps, with the tool and app id each must become, or that it must ask (ambiguous) or decline (outside what the
//! leg does).

/// What a request must become.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Expect {
    /// This tool, with this app id when it takes one.
    Call(&'static str, Option<&'static str>),
    /// A clarifying question, no tool call.
    Ask,
    /// The host-written "what I can do", no tool call.
    Decline,
}

use Expect::{Ask, Call, Decline};

pub const TABLE: &[(&str, Expect)] = &[
    // What is running.
    ("what is running?", Call("package_list", None)),
    ("which apps are installed", Call("package_list", None)),
    ("show me all my apps", Call("package_list", None)),
    ("list services", Call("package_list", None)),
    ("give me an overview of what's on my node", Call("package_list", None)),
    // One app's status.
    ("is lnd running?", Call("package_status", Some("lnd"))),
    ("status of bitcoin knots", Call("package_status", Some("bitcoin-knots"))),
    ("how is mempool doing", Call("package_status", Some("mempool"))),
    ("is electrs up", Call("package_status", Some("electrs"))),
    ("check on the BTCPay Server", Call("package_status", Some("btcpay"))),
    // Logs.
    ("show lnd logs", Call("package_logs", Some("lnd"))),
    ("why did electrs crash", Call("package_logs", Some("electrs"))),
    ("logs for Bitcoin Knots please", Call("package_logs", Some("bitcoin-knots"))),
    ("can you show me the log output of the nostr relay", Call("package_logs", Some("nostr-rs-relay"))),
    ("mempool logs", Call("package_logs", Some("mempool"))),
    // Start.
    ("start electrs", Call("package_start", Some("electrs"))),
    ("please start the electrum server", Call("package_start", Some("electrs"))),
    ("turn on mempool", Call("package_start", Some("mempool"))),
    ("launch btcpay", Call("package_start", Some("btcpay"))),
    // Stop.
    ("stop mempool", Call("package_stop", Some("mempool"))),
    ("shut down the nostr relay", Call("package_stop", Some("nostr-rs-relay"))),
    ("please stop bitcoin knots", Call("package_stop", Some("bitcoin-knots"))),
    ("turn off BTCPay", Call("package_stop", Some("btcpay"))),
    // Restart.
    ("restart lnd", Call("package_restart", Some("lnd"))),
    ("Restart LND.", Call("package_restart", Some("lnd"))),
    ("could you restart bitcoin knots for me", Call("package_restart", Some("bitcoin-knots"))),
    ("reboot electrs", Call("package_restart", Some("electrs"))),
    ("restart elektrs", Call("package_restart", Some("electrs"))),
    ("restart the lightning node", Call("package_restart", Some("lnd"))),
    // Install.
    ("install fedimint", Call("package_install", Some("fedimint"))),
    ("please install tailscale", Call("package_install", Some("tailscale"))),
    ("add nextcloud to my node", Call("package_install", Some("nextcloud"))),
    ("instal fedimint guardian", Call("package_install", Some("fedimint"))),
    // Uninstall.
    ("uninstall nextcloud", Call("package_uninstall", Some("nextcloud"))),
    ("remove fedimint", Call("package_uninstall", Some("fedimint"))),
    ("get rid of tailscale", Call("package_uninstall", Some("tailscale"))),
    ("delete the mempool app", Call("package_uninstall", Some("mempool"))),
    // Bitcoin sync.
    ("how far is bitcoin synced", Call("bitcoin_info", None)),
    ("what's the block height", Call("bitcoin_info", None)),
    ("is my node fully synced?", Call("bitcoin_info", None)),
    ("bitcoin sync progress", Call("bitcoin_info", None)),
    // Lightning.
    ("how many lightning channels do I have", Call("lightning_info", None)),
    ("show my lightning peers", Call("lightning_info", None)),
    ("lightning node info", Call("lightning_info", None)),
    // System.
    ("how much disk space is left", Call("system_stats", None)),
    ("what's the cpu usage", Call("system_stats", None)),
    ("memory usage", Call("system_stats", None)),
    ("is the machine running hot?", Call("system_stats", None)),
    // Mints.
    ("which mints are accepted", Call("list_mints", None)),
    ("show cashu mints", Call("list_mints", None)),
    // Chit-chat and everything else.
    ("tell me a joke", Decline),
    ("hello", Decline),
    ("what is the meaning of life", Decline),
    ("write a poem about the weather", Decline),
    // Ambiguous: no app of that name, or no action named.
    ("restart wordpress", Ask),
    ("stop the server", Ask),
];

/// German, as owners type it and as the kiosk's suggestions would read translated ("Starte LND neu", "Was läuft?").
/// How held out: these rows and [`TABLE_ES`]'s were written before any German or Spanish cue existed in
/// `intents.rs`; the cues were written after, from words an owner uses generally, never a word that serves one
/// row's wording, and checked against the rows' words without the model. The first run with the model scored 45/46
/// here and 45/46 in Spanish (both misses "how is the system doing", asked instead of answered); the one change
/// made after seeing it was to drop the "how is … doing" phrases as status cues, which took both to 46/46. The
/// spellings without umlauts ("laeuft") are there because owners type them on keyboards without them.
pub const TABLE_DE: &[(&str, Expect)] = &[
    // What is running.
    ("Was läuft?", Call("package_list", None)),
    ("Welche Apps sind installiert?", Call("package_list", None)),
    ("Zeig mir alle meine Apps", Call("package_list", None)),
    ("Welche Dienste laufen gerade?", Call("package_list", None)),
    // One app's status.
    ("Läuft Electrs?", Call("package_status", Some("electrs"))),
    ("laeuft lnd noch?", Call("package_status", Some("lnd"))),
    ("Wie ist der Status von Bitcoin Knots?", Call("package_status", Some("bitcoin-knots"))),
    ("Funktioniert Mempool?", Call("package_status", Some("mempool"))),
    // Logs.
    ("Zeig mir die Logs von Mempool", Call("package_logs", Some("mempool"))),
    ("Warum ist Electrs abgestürzt?", Call("package_logs", Some("electrs"))),
    ("Protokoll von Bitcoin Knots anzeigen", Call("package_logs", Some("bitcoin-knots"))),
    ("Warum wurde LND beendet?", Call("package_logs", Some("lnd"))),
    // Start.
    ("Starte Electrs", Call("package_start", Some("electrs"))),
    ("Mempool starten", Call("package_start", Some("mempool"))),
    ("Schalte BTCPay ein", Call("package_start", Some("btcpay"))),
    // Stop.
    ("Stoppe Mempool", Call("package_stop", Some("mempool"))),
    ("Bitcoin Knots beenden", Call("package_stop", Some("bitcoin-knots"))),
    ("Halte das Nostr-Relay an", Call("package_stop", Some("nostr-rs-relay"))),
    // Restart: the separable verb ("starte … neu") is a restart, not a start.
    ("Starte LND neu", Call("package_restart", Some("lnd"))),
    ("LND neu starten", Call("package_restart", Some("lnd"))),
    ("Starte Electrs bitte neu", Call("package_restart", Some("electrs"))),
    ("Neustart von Bitcoin Knots", Call("package_restart", Some("bitcoin-knots"))),
    ("Starte den Lightning-Knoten neu", Call("package_restart", Some("lnd"))),
    // Install.
    ("Installiere Fedimint", Call("package_install", Some("fedimint"))),
    ("Tailscale installieren", Call("package_install", Some("tailscale"))),
    // Uninstall.
    ("Deinstalliere Nextcloud", Call("package_uninstall", Some("nextcloud"))),
    ("Entferne Fedimint", Call("package_uninstall", Some("fedimint"))),
    ("Lösche Tailscale von meinem Knoten", Call("package_uninstall", Some("tailscale"))),
    // Bitcoin sync.
    ("Wie weit ist die Bitcoin-Synchronisation?", Call("bitcoin_info", None)),
    ("Wie weit ist die Synchronisation?", Call("bitcoin_info", None)),
    ("Welche Blockhöhe haben wir?", Call("bitcoin_info", None)),
    ("Ist die Blockchain synchronisiert?", Call("bitcoin_info", None)),
    // Lightning.
    ("Wie viele Lightning-Kanäle habe ich?", Call("lightning_info", None)),
    ("Zeig meine Lightning-Peers", Call("lightning_info", None)),
    // System.
    ("Wie ist die CPU-Auslastung?", Call("system_stats", None)),
    ("Wie viel Speicherplatz ist noch frei?", Call("system_stats", None)),
    ("Wie geht es dem System?", Call("system_stats", None)),
    ("Ist die Temperatur zu hoch?", Call("system_stats", None)),
    // Mints.
    ("Welche Mints werden akzeptiert?", Call("list_mints", None)),
    ("Zeig die Cashu-Mints", Call("list_mints", None)),
    // Chit-chat and everything else.
    ("Erzähl mir einen Witz", Decline),
    ("Hallo", Decline),
    ("Wie wird das Wetter morgen?", Decline),
    ("Danke!", Decline),
    // Ambiguous: no app of that name, or no action named.
    ("Starte WordPress neu", Ask),
    ("Stoppe den Server", Ask),
];

/// Spanish, as owners type it and as the kiosk's suggestions would read translated ("Reinicia LND",
/// "¿Qué está funcionando?"). Written before the Spanish cues, as [`TABLE_DE`] says with its first results. Some
/// rows drop the accents ("deten"), as owners do on keyboards without them.
pub const TABLE_ES: &[(&str, Expect)] = &[
    // What is running.
    ("¿Qué está funcionando?", Call("package_list", None)),
    ("¿Qué apps tengo instaladas?", Call("package_list", None)),
    ("Muéstrame todas mis aplicaciones", Call("package_list", None)),
    ("Lista de servicios", Call("package_list", None)),
    // One app's status.
    ("¿Está funcionando electrs?", Call("package_status", Some("electrs"))),
    ("¿Cuál es el estado de LND?", Call("package_status", Some("lnd"))),
    ("¿Cómo está Mempool?", Call("package_status", Some("mempool"))),
    ("esta funcionando bitcoin knots", Call("package_status", Some("bitcoin-knots"))),
    // Logs.
    ("Muestra los registros de mempool", Call("package_logs", Some("mempool"))),
    ("¿Por qué falló electrs?", Call("package_logs", Some("electrs"))),
    ("Logs de Bitcoin Knots", Call("package_logs", Some("bitcoin-knots"))),
    ("¿Por qué se detuvo LND?", Call("package_logs", Some("lnd"))),
    // Start.
    ("Inicia electrs", Call("package_start", Some("electrs"))),
    ("Arranca mempool", Call("package_start", Some("mempool"))),
    ("Enciende BTCPay", Call("package_start", Some("btcpay"))),
    // Stop.
    ("Detén mempool", Call("package_stop", Some("mempool"))),
    ("deten el relay de nostr", Call("package_stop", Some("nostr-rs-relay"))),
    ("Para Bitcoin Knots", Call("package_stop", Some("bitcoin-knots"))),
    ("Apaga BTCPay", Call("package_stop", Some("btcpay"))),
    // Restart.
    ("Reinicia LND", Call("package_restart", Some("lnd"))),
    ("Reiniciar electrs", Call("package_restart", Some("electrs"))),
    ("¿Puedes reiniciar Bitcoin Knots, por favor?", Call("package_restart", Some("bitcoin-knots"))),
    ("Reinicia el nodo de Lightning", Call("package_restart", Some("lnd"))),
    // Install.
    ("Instala Fedimint", Call("package_install", Some("fedimint"))),
    ("Quiero instalar Tailscale", Call("package_install", Some("tailscale"))),
    // Uninstall.
    ("Desinstala Nextcloud", Call("package_uninstall", Some("nextcloud"))),
    ("Elimina Fedimint", Call("package_uninstall", Some("fedimint"))),
    ("Quita Tailscale de mi nodo", Call("package_uninstall", Some("tailscale"))),
    // Bitcoin sync.
    ("¿Cómo va la sincronización?", Call("bitcoin_info", None)),
    ("¿Cuál es la altura de bloque?", Call("bitcoin_info", None)),
    ("¿Está sincronizado mi nodo?", Call("bitcoin_info", None)),
    ("Progreso de la sincronización de Bitcoin", Call("bitcoin_info", None)),
    // Lightning.
    ("¿Cuántos canales de Lightning tengo?", Call("lightning_info", None)),
    ("Muestra mis peers de Lightning", Call("lightning_info", None)),
    // System.
    ("¿Cuánto espacio queda en el disco?", Call("system_stats", None)),
    ("¿Cómo está el sistema?", Call("system_stats", None)),
    ("Uso de CPU y memoria", Call("system_stats", None)),
    ("¿Qué temperatura tiene la máquina?", Call("system_stats", None)),
    // Mints.
    ("¿Qué mints se aceptan?", Call("list_mints", None)),
    ("Muestra las mints de Cashu", Call("list_mints", None)),
    // Chit-chat and everything else.
    ("Cuéntame un chiste", Decline),
    ("Hola", Decline),
    ("¿Qué tiempo hará mañana?", Decline),
    ("¡Gracias!", Decline),
    // Ambiguous: no app of that name, or no action named.
    ("Reinicia WordPress", Ask),
    ("Detén el servidor", Ask),
];
