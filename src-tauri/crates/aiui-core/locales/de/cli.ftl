### Die eigenen Zeilen von aiui-cli auf Deutsch. Schlüssel und Variablen wie in en/cli.ftl.

## Von mehreren Befehlen genutzt.

cli-note = Hinweis: { $notice }
cli-list-separator = {", "}
cli-answer-yes = j ja
cli-yes-no = [j/N]
cli-percent = { $value } %
cli-runtime-failed = aiui-cli: Die asynchrone Laufzeit konnte nicht gestartet werden: { $error }
cli-no-data-dir = Kein Datenverzeichnis: Setzen Sie AIUI_DATA_DIR oder geben Sie --data-dir an
cli-reading-file = beim Lesen von { $path }
cli-reading-stdin = beim Lesen der Standardeingabe
cli-reading-stdin-short = beim Lesen der Standardeingabe
cli-reading-terminal = beim Lesen vom Terminal
cli-creating = beim Anlegen von { $path }
cli-logging-in = bei der Anmeldung
cli-logging-out = bei der Abmeldung
cli-logging-in-node = bei der Anmeldung am Knoten
cli-nothing-written = es wurde nichts geschrieben
cli-period-never = nie
cli-period-daily = täglich
cli-period-weekly = wöchentlich
cli-period-monthly = monatlich

## doctor und demo.

cli-doctor-plain-http = ! { $url } ist unverschlüsseltes http: Passwort und Sitzung werden im Klartext übertragen.
cli-doctor-node = Knoten    { $url }
cli-doctor-cert = Zertifikat SHA-256 { $pin } (festgelegt)
cli-doctor-health = Zustand   HTTP { $status } { $body }
cli-doctor-login-ok = Anmeldung ok
cli-doctor-listing-packages = beim Abrufen der Pakete
cli-doctor-packages = Pakete    { $summary }
cli-doctor-package-count = { $count } { $state }
cli-doctor-killed = {"          "}! { $app } wurde wegen zu hohen Speicherverbrauchs beendet (Exit 137)
cli-doctor-crashed = {"          "}! { $app } ist abgestürzt (Exit { $code })
cli-doctor-bitcoin = Bitcoin   { $chain } Block { $blocks } von { $headers } ({ $progress } geprüft)
cli-doctor-bitcoin-unavailable = Bitcoin   nicht verfügbar: { $error }
cli-doctor-all-passed = Alle Prüfungen bestanden.
cli-tofu-presents = Der Knoten zeigt ein Zertifikat mit dem SHA-256-Fingerabdruck:
cli-tofu-compare = Vergleichen Sie ihn mit dem Fingerabdruck, den der Knoten selbst anzeigt, bevor Sie ihm vertrauen.
cli-tofu-no-terminal = Einem unbekannten Zertifikat wird nicht ohne Bestätigung durch eine Person vertraut; prüfen Sie es und starten Sie dann erneut mit --fingerprint { $fingerprint }
cli-tofu-question = Diesem Zertifikat vertrauen? [j/N]
cli-tofu-not-trusted = Zertifikat nicht vertraut; an den Knoten wurde nichts gesendet
cli-no-password = Kein Passwort: Setzen Sie { $env } oder starten Sie doctor in einem Terminal, um danach gefragt zu werden
cli-password-prompt = Knoten-Passwort:
cli-reading-password = beim Lesen des Passworts
cli-totp-prompt = TOTP-Code:
cli-demo-fingerprint = der Fingerabdruck des Demo-Knotens
cli-demo-address = die Adresse des Demo-Knotens
cli-demo-at = Demo-Knoten (simuliert) unter { $url }
cli-demo-keeps-running = Der Demo-Knoten läuft bis Strg+C weiter. Prüfen Sie ihn von einem anderen Terminal aus mit doctor:
cli-demo-or-chat = oder sprechen Sie mit dem Assistenten über einen eigenen Demo-Knoten: cargo run -p aiui-cli -- chat --demo
cli-waiting-ctrl-c = beim Warten auf Strg+C

## doctor --contract.

cli-contract-intro = Vertrag   jede Lesemethode aus AIUIs Adaptertabelle, je einmal aufgerufen (nur Lesen: auf dem Knoten ändert sich nichts)
cli-contract-summary = Ergebnis  { $exact } passend, { $drifted } lesbar mit Abweichungen, { $unreadable } nicht lesbar, { $silent } ohne Antwort
cli-contract-send = Um AIUI für diesen Knoten anzupassen, senden Sie diese gesamte Ausgabe an die Entwickler (oder bearbeiten Sie node/adapter.rs). Die Beispiele sind geprüft: Geheimnisse sind geschwärzt, LAN- und Onion-Adressen ersetzt.
cli-contract-failed = { $failed } von { $total } Lesemethoden konnten nicht wie von AIUI erwartet genutzt werden
cli-contract-documented = dok
cli-contract-name-only = Name
cli-contract-assumed = angenommen
cli-contract-app = {" "}(ID { $app })
cli-contract-not-called = {"  "}Antwort   nicht aufgerufen: { $why }
cli-contract-no-answer = {"  "}Antwort   nein: { $why }
cli-contract-answered = {"  "}Antwort   ja
cli-contract-unreadable = {"  "}Form      NICHT LESBAR: { $reason }
cli-contract-sample = {"  "}Beispiel  { $sample }
cli-contract-entries = {" "}({ $count } Einträge)
cli-contract-shape = {"  "}Form      { $verdict }{ $entries }
cli-contract-matches = passt
cli-contract-matches-partly = passt, ohne seine optionalen Felder
cli-contract-drift = lesbar, mit Abweichungen
cli-contract-missing = {"  "}fehlt     { $fields }
cli-contract-not-sent = {"  "}nie gesendet { $fields }
cli-contract-extra = {"  "}zusätzlich { $fields }
cli-contract-renamed = {"  "}umbenannt { $fields }
cli-contract-retyped = {"  "}Typ       { $fields }
cli-contract-skipped = {"  "}übersprungen { $fields }
cli-contract-field = { $field } (in { $n } von { $total })

## chat.

cli-chat-title = Terminal-Chat
cli-chat-resuming =
    { $count ->
        [one] „{ $title }“ wird fortgesetzt (1 Nachricht).
       *[other] „{ $title }“ wird fortgesetzt ({ $count } Nachrichten).
    }
cli-chat-started = Unterhaltung { $id }. Stellen Sie eine Frage; /list zeigt die Unterhaltungen; /quit oder Strg+D beendet.
cli-chat-you = Sie>
cli-chat-list-item =
    { $count ->
        [one] {"  "}{ $id }  { $title }  (1 Nachricht)
       *[other] {"  "}{ $id }  { $title }  ({ $count } Nachrichten)
    }
cli-chat-choose = {"  "}(Geben Sie eine Zahl ein, um zu wählen)
cli-chat-notice = {"  "}Hinweis: { $notice }
cli-chat-approve = Freigeben? [j/N]
cli-chat-not-decided = {"  "}Die Entscheidung wurde nicht übernommen: { $error }
cli-chat-turn-cost = {"  "}(diese Runde kostete { $cost })
cli-chat-done = {"  "}(beantwortet von { $backend }) · Kosten { $cost }
cli-chat-turn-stopped = die Runde endete unerwartet
cli-chat-need-node = Geben Sie --node URL oder --demo an
cli-chat-still-no-backend = Noch immer ist kein Assistenz-Backend verfügbar (die Gründe stehen oben).
cli-chat-enable-a-leg = So aktivieren Sie eines: Starten Sie Ollama auf diesem Rechner mit einem Modell, das Werkzeuge nutzen kann (`ollama pull qwen2.5:7b`), oder legen Sie einen Claude-API-Schlüssel im Schlüsselbund des Systems ab (`secret-tool store --label=AIUI service aiui username anthropic-api-key`) und geben Sie Claude ein Budget (`aiui-cli budget set --claude-usd 5 --claude-period monthly`); stellen Sie Ihre Frage dann noch einmal.

## Was der Chat für die Antworten des Knotens und für eine Bestätigung zeichnet.

cli-col-app = App
cli-col-state = Zustand
cli-col-version = Version
cli-col-note = Hinweis
cli-col-health = Gesundheit
cli-col-mint = Mint
cli-col-unit = Einheit
cli-col-trusted = vertraut
cli-exit-code = Exit { $code }
cli-log-tail = ── die letzten { $count } Logzeilen von { $app } ──
cli-bitcoin-sync = Bitcoin ({ $chain }) Block { $blocks } von { $headers } · { $progress } geprüft · { $state }
cli-sync-syncing = synchronisiert gerade
cli-sync-synced = synchronisiert
cli-sync-not-synced = nicht synchronisiert
cli-sync-unknown = Synchronisationsstand unbekannt
cli-lightning = Lightning { $alias } · { $channels } aktive Kanäle · { $peers } Peers · { $state } bei Block { $height }
cli-system = CPU { $cpu } · Speicher { $memory } von { $memory_total } · Festplatte { $disk } von { $disk_total } · läuft seit { $uptime }
cli-hours-short = { $hours } h
cli-gib = { $value } GiB
cli-trusted-yes = ja
cli-trusted-no = nein
cli-trusted-unknown = nicht angegeben
cli-confirm = ⚠ Bestätigen: { $summary }
cli-confirm-method = {"  "}Methode  { $method }
cli-confirm-risk = {"  "}Risiko   { $risk }
cli-confirm-proposed = {"  "}Vorschlag von { $backend }

## screen.

cli-screen-report = screen: { $report }
cli-screen-blocked = screen: GESPERRT ({ $kinds }): { $message }
cli-screen-nothing-sent = es würde nichts gesendet

## providers.

cli-providers-endpoint = {"  "}Endpunkt  { $endpoint }
cli-providers-mint = {"  "}Mint      { $mint }
cli-providers-model = {"  "}Modell    { $model }: { $cap } Sats für { $tokens } Antwort-Tokens + { $prompt } Sats je 1000 Zeichen der Anfrage
cli-providers-none = Kein Anbieter gefunden.
cli-providers-none-serving = Kein Anbieter gefunden, der `{ $model }` anbietet.
cli-providers-discovery = Suche:

## budget.

cli-budget-nothing-to-change = Nichts zu ändern: Geben Sie --allowance, --period, --mint oder --no-mints (Routstr, Sats) oder --claude-usd oder --claude-period (Claude, US-Dollar) an
cli-budget-saved = Budget gespeichert.
cli-budget-claude-saved = Claudes Budget gespeichert.
cli-budget-price-saved = Preis für { $model } gespeichert: Er gilt ab der nächsten Anfrage.
cli-budget-bad-claude-usd = --claude-usd: { $why }; es wurde nichts geändert
cli-budget-no-conversations = Hinweis: Die Unterhaltungen konnten nicht gelesen werden ({ $error }); kostenlose Antworten werden nicht gezählt
cli-budget-routstr = Routstr (Sats):
cli-budget-routstr-80 = 80 % oder mehr des Routstr-Budgets sind in diesem Zeitraum verbraucht.
cli-budget-free =
    { $local ->
        [one] Diesen Monat: 1 lokale und { $builtin } eingebaute Antworten, für 0 $.
       *[other] Diesen Monat: { $local } lokale und { $builtin } eingebaute Antworten, für 0 $.
    }
cli-budget-claude = Claude (US-Dollar):
cli-budget-claude-off = Budget:    0 $ (Claude wird nicht genutzt; legen Sie eines mit --claude-usd BETRAG fest)
cli-budget-claude-spent-off = Verbraucht: { $spent } (reserviert { $reserved }) in diesem Zeitraum
cli-budget-allowance = Budget:    { $allowance } ({ $period })
cli-budget-spent = Verbraucht: { $spent }
cli-budget-reserved = Reserviert: { $reserved }
cli-budget-remaining = Übrig:     { $remaining }
cli-budget-renews = Erneuert:  { $renews }
cli-budget-claude-80 = 80 % oder mehr von Claudes Budget sind in diesem Zeitraum verbraucht.
cli-budget-sats-allowance = Budget:    { $sats } Sats ({ $period })
cli-budget-sats-spent = Verbraucht: { $sats } Sats
cli-budget-sats-reserved = Reserviert: { $sats } Sats
cli-budget-sats-remaining = Übrig:     { $sats } Sats
cli-budget-mints-none = Akzeptierte Mints: keine (bezahlte Hilfe ist aus)
cli-budget-mints = Akzeptierte Mints:
cli-budget-80-sent = Der 80-%-Hinweis wurde in diesem Zeitraum gesendet.
cli-renews-never = nie (ein einmaliges Budget)
cli-renews-in-days =
    { $count ->
        [one] in 1 Tag
       *[other] in { $count } Tagen
    }
cli-renews-in-hours =
    { $count ->
        [one] in 1 Stunde
       *[other] in { $count } Stunden
    }
cli-renews-in-minutes =
    { $count ->
        [one] in 1 Minute
       *[other] in { $count } Minuten
    }
cli-prices-header = Claudes Preise, US-Dollar je Million Tokens (mitgeliefert: erhoben am { $date } von { $source }):
cli-prices-col-model = Modell
cli-prices-col-input = Eingabe
cli-prices-col-output = Ausgabe
cli-prices-col-cache-write = Cache-Schreiben
cli-prices-col-cache-read = Cache-Lesen
cli-prices-mine = {"  "}(von Ihnen festgelegt)
cli-prices-footer = Ein Modell, das hier nicht steht, wird nie für bezahlte Anfragen genutzt.

## wallet.

cli-wallet-nothing-to-back-up = In { $dir } gibt es noch keine Wallet: Es gibt nichts zu sichern
cli-wallet-opening = beim Öffnen der Wallet
cli-wallet-no-mints = Noch keine Mints: Laden Sie die Wallet mit `aiui-cli wallet invoice` oder `wallet receive` auf.
cli-wallet-at-mint = { $sats } Sats  { $mint }
cli-wallet-total = { $sats } Sats  gesamt
cli-wallet-in-flight = { $sats } Sats  unterwegs (Zahlungen, Auszahlungen und Tokens, noch nicht abgeschlossen)
cli-wallet-spent = { $sats } Sats  ausgegeben, { $fees } Sats Mint-Gebühren, { $received } Sats insgesamt erhalten
cli-wallet-withdrawn = { $sats } Sats  ausgezahlt oder gesendet, { $fees } Sats Gebühren dafür
cli-wallet-not-accepted = ! { $mint } gehört nicht zu den akzeptierten Mints: Seine { $sats } Sats werden nicht für Anbieter ausgegeben und können ausgezahlt werden
cli-wallet-did-not-count = er zählte nicht
cli-wallet-kept-aside = ! Ein von { $provider } zurückgegebener Token wurde beiseitegelegt, nicht empfangen: { $reason } (`aiui-cli wallet set-aside`)
cli-wallet-ledger-off = Warnung: Das Kassenbuch geht nicht auf; führen Sie `aiui-cli wallet reconcile` aus
cli-wallet-reading-token = beim Lesen des Tokens von der Standardeingabe
cli-wallet-no-token = Kein Token auf der Standardeingabe: Fügen Sie einen cashuA…/cashuB…-Token ein, z. B. `aiui-cli wallet receive < token.txt`
cli-wallet-received = { $sats } Sats empfangen.
cli-wallet-pay-then-reconcile = Bezahlen Sie diese Rechnung; `aiui-cli wallet reconcile` prägt das Ecash, sobald sie bezahlt ist.
cli-wallet-waiting = Bis zu { $secs } s wird auf die Zahlung der Rechnung gewartet …
cli-wallet-minted = { $sats } Sats bei { $mint } geprägt.
cli-reconcile-checked = { $count } offene Zahlung(en) geprüft
cli-reconcile-reclaimed = { $count } Token(s) zurückgeholt, { $sats } Sats
cli-reconcile-returned = { $count } gespeicherte(n) Wechselgeld-/Erstattungs-Token(s) empfangen
cli-reconcile-refunded = { $count } über den Erstattungs-Endpunkt des Anbieters erstattet
cli-reconcile-waiting = { $count } ausgegeben, noch ohne Wechselgeld: Der Anbieter wird später erneut gefragt
cli-reconcile-written-off = { $count } nach allen Versuchen als ausgegeben abgeschrieben
cli-reconcile-unreachable = { $count } konnten nicht geprüft werden (Mint nicht erreichbar), behalten
cli-reconcile-live = { $count } gehören zu einer noch laufenden Anfrage, unberührt gelassen
cli-reconcile-settled = { $settled } Reservierung(en) aus dem Kassenbuch abgeschlossen, { $released } freigegeben
cli-reconcile-minted = { $sats } Sats aus bezahlten Rechnungen geprägt
cli-reconcile-elsewhere = Ein anderer AIUI-Prozess gleicht diese Wallet gerade ab; hier wurde nichts getan
cli-withdraw-invoice = eine Lightning-Rechnung (lnbc…)
cli-withdraw = { $sats } Sats von { $mint } auszahlen
cli-withdraw-fee-reserve = {"  "}Gebührenreserve der Mint: bis zu { $sats } Sats (was sie nicht braucht, kommt zurück)
cli-withdraw-input-fee = {"  "}Eingangsgebühr der Mint: { $sats } Sats
cli-withdraw-most = {"  "}höchstens kostet es:     { $sats } Sats
cli-withdraw-question = Diese Rechnung bezahlen?
cli-withdraw-not-paid = Nicht bezahlt: Nichts hat die Wallet verlassen
cli-withdraw-paid = { $sats } Sats bezahlt (Gebühr { $fee } Sats). Auszahlung { $id }.
cli-withdraw-pending = Die Mint zahlt noch (Auszahlung { $id }). Sie bleibt unterwegs; `aiui-cli wallet reconcile` schließt sie ab, bezahlt oder gescheitert.
cli-send-token = Ein Token über { $sats } Sats von { $mint } (nur einmal angezeigt: Kopieren Sie ihn jetzt):
cli-send-take-back = Seine ID ist { $id }: `aiui-cli wallet take-back { $id }` holt ihn zurück, solange ihn niemand eingelöst hat.
cli-take-back-returned = Zurückgeholt: { $sats } Sats sind wieder in der Wallet.
cli-take-back-claimed = Zu spät: Die andere Wallet hatte ihn schon eingelöst; seine { $sats } Sats zählen als gesendet.
cli-take-back-in-part = Die andere Wallet hatte einen Teil davon eingelöst: { $claimed } Sats zählen als gesendet. Der nicht eingelöste Rest wurde zurückgeholt: { $sats } Sats sind wieder in der Wallet.
cli-take-back-rest-too-small = Die andere Wallet hatte einen Teil davon eingelöst: { $claimed } Sats gelten als gesendet. Die { $rest } Sats, die darin übrig sind, sind nicht mehr wert als die Gebühr der Mint fürs Zurückholen; sie bleiben beim Token und zählen als diese Gebühr.
cli-sent-none = Noch nichts ausgezahlt oder gesendet.
cli-sent-withdrawal = Auszahlung
cli-sent-token = Token
cli-sent-keyset-move = Keyset-Umzug
cli-sent-unclaimed = unterwegs, noch nicht eingelöst
cli-sent-in-flight = unterwegs
cli-sent-fee = {" "}(Gebühr { $sats } Sats)
cli-sent-row = { $id }  { $time }  { $what } { $sats } Sats  { $state }{ $fee }  { $mint }
cli-backup-terminal-only = Die Sicherungswörter werden nur in einem Terminal angezeigt (die Standardausgabe ist keines); mit --force werden sie trotzdem ausgegeben, z. B. in eine Datei, die Sie sicher aufbewahren
cli-backup-question = Die Sicherungswörter der Wallet anzeigen? Wer sie sieht, kann ihre Sats nehmen.
cli-backup-not-shown = nicht angezeigt
cli-backup-written-down = Haben Sie die Wörter und die Mints aufgeschrieben?
cli-backup-confirmed = Sicherung bestätigt.
cli-backup-words = Die Sicherungswörter der Wallet (bewahren Sie sie offline auf; wer sie hat, kann die Sats nehmen):
cli-backup-mints = Die Mints, die sie genutzt hat (eine Wiederherstellung fragt jede davon):
cli-backup-mints-qr = Die Mints als QR-Code:
cli-no-qr = (kein QR-Code: { $error })
cli-notices-none = Keine Geld-Hinweise.
cli-notice-ago = vor { $age }
cli-age-seconds = { $count } s
cli-age-minutes = { $count } min
cli-age-hours = { $count } h
cli-age-days = { $count } Tagen
cli-set-aside-none = Kein Token ist beiseitegelegt.
cli-set-aside-row = { $id }  von { $provider }: { $reason }
cli-set-aside-needs-yes = Das Empfangen eines beiseitegelegten Tokens kontaktiert die Mint, die er nennt und die der Anbieter gewählt haben kann; starten Sie erneut mit --yes, um ihn zu empfangen
cli-set-aside-received = { $sats } Sats von { $mint } empfangen.
cli-set-aside-discarded = Der für Zahlung { $payment } beiseitegelegte Token wurde verworfen.
cli-set-aside-was-received = Ein früherer Empfang hatte diesen Token schon in die Wallet übernommen: Seine { $sats } Sats werden jetzt gezählt statt verworfen.
cli-restore-prompt = Tippen oder fügen Sie die Sicherungswörter ein, dann die Mint-Zeilen der Sicherung; schließen Sie mit einer leeren Zeile ab:
cli-restore-reading = beim Lesen der Sicherungswörter von der Standardeingabe
cli-restore-pending = {"  "}(und { $sats } Sats, die bei der Mint gerade ausgegeben werden)
cli-restore-total = { $sats } Sats  wiederhergestellt; die Wörter sind wieder im Schlüsselbund
cli-paste = Fügen Sie { $what } ein und drücken Sie dann die Eingabetaste:
cli-stdin-empty = Nichts auf der Standardeingabe: Fügen Sie { $what } ein, z. B. `aiui-cli wallet pay-invoice < invoice.txt`
cli-no-terminal-to-ask = { $question } Es gibt kein Terminal, in dem gefragt werden kann: Starten Sie erneut mit --yes oder in einem Terminal

## serve.

cli-serve-no-language = AIUI hat keine Sprache `{ $tag }`: Verwenden Sie en, de oder es
cli-totp-add = Fügen Sie dies Ihrer Authenticator-App hinzu (es wird nur einmal angezeigt; wer es hat, kann freigeben):
cli-passphrase-new =
    { $kind ->
        [lan] Neue LAN-Passphrase:
       *[approval] Neue Freigabe-Passphrase:
    }
cli-passphrase-again =
    { $kind ->
        [lan] Die LAN-Passphrase noch einmal:
       *[approval] Die Freigabe-Passphrase noch einmal:
    }
cli-passphrase-differ = Die beiden Eingaben unterscheiden sich; es wurde nichts geändert
cli-passphrase-set =
    { $kind ->
        [lan] Die LAN-Passphrase ist gesetzt (ein argon2id-Hash in { $file }).
       *[approval] Die Freigabe-Passphrase ist gesetzt (ein argon2id-Hash in { $file }).
    }
cli-passphrase-live = Ein laufendes `aiui-cli serve` nutzt sie innerhalb einer Sekunde und beendet die mit der alten angemeldeten Sitzungen.
cli-passphrase-approval-too = Setzen Sie auch die Freigabe-Passphrase: aiui-cli serve set-approval-password
cli-pair-not-https = { $url } ist keine https-Adresse: Der Dienst legt das Zertifikat des Knotens fest und sendet ihm das Knoten-Passwort, daher koppelt er nur über https
cli-pair-login = bei der Anmeldung am Knoten mit diesem Passwort; es wurde nichts geschrieben
cli-pair-paired = Mit { $url } gekoppelt (Zertifikat SHA-256 { $pin }, festgelegt).
cli-pair-wrote = { $env } und { $password } geschrieben (0600).
cli-pair-start = Starten Sie den Dienst: systemctl start aiui (einen laufenden: systemctl restart aiui)
cli-pair-remaining = Der Dienst startet, sobald auch dies erledigt ist:
cli-pair-no-password = Es wurde kein Knoten-Passwort angegeben; es wurde nichts geschrieben
cli-sessions-no-list = Keine Sitzungsliste in { $dir }: Läuft `aiui-cli serve` mit diesem Datenverzeichnis?
cli-sessions-old = Hinweis: Die Liste ist { $secs } s alt; der Dienst läuft vielleicht nicht.
cli-sessions-nobody = Niemand ist angemeldet.
cli-sessions-row = { $id }  { $origin }  von { $address }  angemeldet { $signed_in }  zuletzt aktiv { $last_active }
cli-sessions-unknown = Keine Sitzung mit der ID { $ids } (siehe `aiui-cli serve sessions`); es wurde nichts beendet
cli-sessions-stale = Die Sitzungsliste ist { $secs } s alt: Der Dienst scheint nicht zu laufen; es wurde nichts beendet
cli-sessions-ended-all = Alle Sitzungen beendet; diese Browser müssen sich neu anmelden.
cli-sessions-ended =
    { $count ->
        [one] 1 Sitzung beendet; dieser Browser muss sich neu anmelden.
       *[other] { $count } Sitzungen beendet; diese Browser müssen sich neu anmelden.
    }
cli-sessions-not-picked-up = Der Dienst hat die Anfrage nicht innerhalb von 5 s übernommen (läuft er mit diesem Datenverzeichnis?); es wurde nichts beendet

## --help: die Überschriften und Schalter von clap.
cli-help-usage = Aufruf:
cli-help-commands = Befehle
cli-help-options = Optionen
cli-help-arguments = Argumente
cli-help-help = Hilfe zeigen (eine Übersicht mit -h, alles mit --help)
cli-help-version = Die Version zeigen
cli-help-subcommand = Diese Hilfe oder die des angegebenen Befehls zeigen
cli-help-env = Umgebungsvariable: { $name }
cli-help-default = Standard: { $value }
cli-help-possible = mögliche Werte: { $values }

## --help: die Hilfe jedes Befehls und, als Attribute, jedes Arguments.
help-aiui-cli = AIUI, der Assistent für Archipelago-Knoten, im Terminal
help-aiui-cli_doctor = Prüfen, ob AIUI einen Knoten erreicht und sich anmelden kann, und seinen Zustand zusammenfassen. Mit --contract stattdessen die Antwort jeder Lesemethode mit der Adaptertabelle von AIUI abgleichen
    .long =
        Prüfen, ob AIUI einen Knoten erreicht und sich anmelden kann, und seinen Zustand zusammenfassen. Mit --contract stattdessen die Antwort jeder Lesemethode mit der Adaptertabelle von AIUI abgleichen.

        Das Passwort wird aus AIUI_NODE_PASSWORD gelesen oder im Terminal abgefragt; es ist nie ein Argument und erscheint daher nicht in `ps`. Verlangt der Knoten einen TOTP-Code, wird er aus AIUI_NODE_TOTP gelesen oder abgefragt.
    .arg-node = Die Adresse des Knotens, z. B. https://archipelago.local
    .arg-fingerprint = Der SHA-256-Fingerabdruck des Zertifikats des Knotens, den Sie akzeptieren (nur https). Ohne ihn zeigt doctor den Fingerabdruck und bittet Sie, ihn zu bestätigen
    .arg-contract = Den Knoten mit der Adaptertabelle von AIUI abgleichen: jede Lesemethode einmal aufrufen und je Methode melden, ob sie antwortete, ob ihre Form passte und welche Felder fehlten, zusätzlich, umbenannt oder von anderem Typ waren, mit einem geschwärzten Beispiel. Liest nur; auf dem Knoten ändert sich nichts. Senden Sie die Ausgabe, um den Adapter zu korrigieren
    .arg-app = Die App, nach der `container-status` und `container-logs` in `--contract` gefragt werden (Standard: die erste laufende App)
help-aiui-cli_demo = Einen simulierten Knoten auf diesem Rechner starten und `doctor` gegen ihn laufen lassen: der schnellste Blick auf AIUI
    .arg-once = Nach den Prüfungen aufhören, statt den Demo-Knoten laufen zu lassen
help-aiui-cli_chat = In diesem Terminal mit dem Assistenten über einen Knoten sprechen. Aktionen werden hier bestätigt, Standard Nein
    .arg-node = Die Adresse des Knotens. Mit --demo weglassen
    .arg-fingerprint = Der akzeptierte SHA-256-Fingerabdruck des Zertifikats des Knotens (https)
    .arg-demo = Mit einem simulierten Knoten sprechen, der auf diesem Rechner gestartet wird, statt mit einem echten
    .arg-ollama = Wo das lokale Ollama lauscht
    .arg-ollama_model = Das zu verwendende Ollama-Modell (Standard: das erste installierte, das Werkzeuge unterstützt)
    .arg-claude_url = Die Basis-URL der Anthropic-API (der Schlüssel selbst kommt aus dem Schlüsselbund des Systems)
    .arg-routstr_model = Das Modell, nach dem Routstr-Anbieter gefragt werden, wenn das Budget über null liegt (`aiui-cli budget set`)
    .arg-relays = Ein Nostr-Relay, auf dem Routstr-Anbieter gesucht werden; für mehrere wiederholen (Standard: die Relays des Routstr-SDK)
    .arg-any_provider = Auch Anbieter verwenden, die niemand geprüft hat (Standard: nur geprüfte Anbieter)
    .arg-reviewer = Der Prüfer, dessen Labels der Art 38425 entscheiden, welche Anbieter als geprüft gelten (npub oder öffentlicher Schlüssel in Hex)
    .arg-tor = Ein Tor-SOCKS5-Proxy; Relays und Onion-Anbieter werden dann über ihn erreicht
    .arg-data_dir = Wo Gespräche und das Prüfprotokoll liegen (Standard: $AIUI_DATA_DIR oder ~/.local/share/aiui)
    .arg-no_builtin = Nie mit dem eingebauten kleinen Modell (SmolLM2-135M) antworten, dem letzten Glied. Seine Datei wird in $AIUI_MODEL_DIR gesucht, sonst in models/ des Datenverzeichnisses (`bash scripts/setup` legt sie dort ab)
    .arg-conversation = Dieses Gespräch fortsetzen, statt ein neues zu beginnen
help-aiui-cli_screen = Text (oder einen JSON-Anfragekörper) von der Standardeingabe lesen und genau ausgeben, was ein Cloud-Backend erhalten würde, dann was geschwärzt oder gesperrt wurde und warum. Endet mit einem Fehlercode, wenn gesperrt würde
    .arg-as_tool_result = Reinen Text als Werkzeugergebnis prüfen (geschwärzt) statt als Ihre eigene Nachricht (gesperrt, wenn sie ein Geheimnis enthält)
help-aiui-cli_providers = Die auf Nostr gefundenen Routstr-Anbieter auflisten, mit Endpunkten, Mints und Preis pro Anfrage
    .arg-model = Nur Anbieter zeigen, die dieses Modell anbieten, mit seinem Preis
    .arg-verbose = Jede Meldung der Relays und jedes Ereignis zeigen, das sie lieferten, mit dem Grund, warum es verwendet oder abgelehnt wurde
    .arg-relays = Ein Nostr-Relay, auf dem Routstr-Anbieter gesucht werden; für mehrere wiederholen (Standard: die Relays des Routstr-SDK)
    .arg-any_provider = Auch Anbieter verwenden, die niemand geprüft hat (Standard: nur geprüfte Anbieter)
    .arg-reviewer = Der Prüfer, dessen Labels der Art 38425 entscheiden, welche Anbieter als geprüft gelten (npub oder öffentlicher Schlüssel in Hex)
    .arg-tor = Ein Tor-SOCKS5-Proxy; Relays und Onion-Anbieter werden dann über ihn erreicht
help-aiui-cli_budget = Das Budget des Assistenten zeigen oder ändern (die Betreiber-API; der Chat kann es nie ändern)
    .arg-data_dir = Wo AIUI seine Dateien ablegt (Standard: $AIUI_DATA_DIR oder ~/.local/share/aiui)
help-aiui-cli_budget_get = Beide Budgets zeigen (was in diesem Zeitraum ausgegeben und zurückgehalten wurde und was bleibt) und die kostenlosen Antworten dieses Monats
    .arg-json = JSON statt Text ausgeben
help-aiui-cli_budget_set = Eines der Budgets ändern (Routstrs Sats mit Zeitraum und zugelassenen Mints; Claudes US-Dollar mit Zeitraum). Nicht angegebene Optionen bleiben, wie sie sind
    .arg-allowance = Das Budget in Sats pro Zeitraum (0 schaltet bezahlte Hilfe aus)
    .arg-period = never, daily, weekly oder monthly; ein neuer Zeitplan beginnt jetzt
    .arg-mints = Eine zugelassene Mint-Adresse; für mehrere wiederholen. Ersetzt die Liste
    .arg-no_mints = Gar keine Mint zulassen (bezahlte Hilfe bleibt aus)
    .arg-claude_usd = Claudes Budget in US-Dollar pro Zeitraum, z. B. 5 oder 2,50 (0 schaltet Claude aus)
    .arg-claude_period = Claudes Zeitraum: never, daily, weekly oder monthly; ein neuer Zeitplan beginnt jetzt
help-aiui-cli_budget_price = Einen eigenen Preis für ein Claude-Modell festlegen, in US-Dollar pro Million Tokens; er ersetzt den mitgelieferten
    .arg-model = Das Modell, wie Anthropic es nennt (z. B. claude-sonnet-4-5)
    .arg-input = US-Dollar pro Million Eingabe-Tokens
    .arg-output = US-Dollar pro Million Ausgabe-Tokens
    .arg-cache_write = Ein Schreiben in den Prompt-Cache für 5 Minuten
    .arg-cache_read = Ein Treffer im Prompt-Cache
help-aiui-cli_budget_prices = Die Preise auflisten, nach denen Claudes Antworten berechnet werden, mit wann und woher die mitgelieferten stammen
help-aiui-cli_wallet = Die Cashu-Wallet des Assistenten: Guthaben, ein Token empfangen, per Lightning aufladen, laufende Zahlungen abgleichen
    .arg-data_dir = Wo AIUI seine Dateien ablegt (Standard: $AIUI_DATA_DIR oder ~/.local/share/aiui)
    .arg-tor = Ein Tor-SOCKS5-Proxy (z. B. 127.0.0.1:9050) für jede Anfrage an eine Mint
help-aiui-cli_wallet_balance = Das Guthaben bei jeder Mint und was an Anbieter unterwegs ist
help-aiui-cli_wallet_receive = Ein Cashu-Token von der Standardeingabe empfangen
help-aiui-cli_wallet_invoice = Eine Lightning-Rechnung von einer Mint holen, warten, bis sie bezahlt ist, und das Ecash prägen
    .arg-mint = Die aufzuladende Mint
    .arg-amount = Wie viele Sats
    .arg-wait = Wie lange auf die Zahlung gewartet wird, in Sekunden (0: die Rechnung ausgeben und enden; `reconcile` prägt sie später)
help-aiui-cli_wallet_reconcile = Jede laufende Zahlung abrechnen, die keine laufende Anfrage hält: nicht ausgegebene Tokens zurückholen, beim Erstattungsendpunkt des Anbieters nach ausgegebenen fragen (und sie nach jedem Versuch abschreiben), bezahlte Rechnungen prägen. Erstattungsendpunkte werden erreicht wie von der App: über `--tor` oder `routstr.tor_socks` der App, wenn gesetzt
help-aiui-cli_wallet_pay-invoice = An Lightning auszahlen: eine BOLT11-Rechnung von der Standardeingabe bezahlen, nachdem gezeigt wurde, was es kostet
    .arg-mint = Die Mint, aus der bezahlt wird (Standard: die mit dem meisten Guthaben)
    .arg-everything = Alles bei der Mint auszahlen, nach ihren Gebühren (die Rechnung darf keinen Betrag nennen)
    .arg-yes = Ohne Nachfrage bezahlen (nötig, wenn die Standardeingabe kein Terminal ist)
help-aiui-cli_wallet_send = Einen Token für eine andere Wallet erstellen, einmal mit QR-Code gezeigt
    .arg-mint = Die Mint, aus der er kommt
    .arg-amount = Was die andere Wallet erhält, in Sats
help-aiui-cli_wallet_take-back = Einen gesendeten Token zurückholen, den noch niemand eingelöst hat
    .arg-id = Die Kennung, die `wallet sent` zeigt
help-aiui-cli_wallet_sent = Auszahlungen und gesendete Tokens, die neuesten zuerst, mit ihrem Stand
help-aiui-cli_wallet_backup = Die Sicherungswörter (24) und die Mints zeigen (nur in einem Terminal, nach Ihrer Bestätigung)
    .arg-force = Auch ausgeben, wenn die Standardausgabe kein Terminal ist (z. B. in eine Datei, die Sie dann sicher aufbewahren)
help-aiui-cli_wallet_restore = Die Wallet aus ihren Sicherungswörtern wiederherstellen (von der Standardeingabe gelesen, mit den Mint-Zeilen der Sicherung) in ein Datenverzeichnis, das kein Ecash hält
    .arg-mints = Eine Mint, aus der wiederhergestellt wird, neben denen, die mit den Wörtern gelesen werden
    .arg-replace_other_words = Andere Wörter im Schlüsselbund ersetzen (schreiben Sie sie vorher auf: sie könnten Sats sichern)
help-aiui-cli_wallet_notices = Jeder für den Eigentümer aufbewahrte Geldhinweis (Abschreibungen, zurückgegebene Tokens, die nicht zählten), die ältesten zuerst
help-aiui-cli_wallet_set-aside = Tokens, die ein Anbieter zurückschickte, die nicht zählten und beiseitegelegt, nicht empfangen wurden
help-aiui-cli_wallet_set-aside_list = Sie mit ihren Zahlungskennungen auflisten (der Standard)
help-aiui-cli_wallet_set-aside_receive = Einen doch empfangen. Dabei wird die Mint kontaktiert, die der Token nennt und die der Anbieter gewählt haben kann
    .arg-payment = Die Zahlungskennung, die `set-aside list` zeigt
    .arg-yes = Bestätigt, dass die genannte Mint kontaktiert werden darf
help-aiui-cli_wallet_set-aside_discard = Einen endgültig verwerfen; an den Summen ändert sich nichts
    .arg-payment = Die Zahlungskennung, die `set-aside list` zeigt
help-aiui-cli_serve = Den Assistenten im LAN anbieten: den Chat auf einem Port, Freigaben (nur für den Eigentümer) auf einem zweiten. Setzen Sie zuerst die Passphrasen: `serve set-password`, `serve set-approval-password`
    .arg-node = Die Adresse des Knotens. Mit --demo weglassen
    .arg-fingerprint = Der akzeptierte SHA-256-Fingerabdruck des Zertifikats des Knotens (https)
    .arg-demo = Mit einem simulierten Knoten sprechen, der auf diesem Rechner gestartet wird, statt mit einem echten
    .arg-ollama = Wo das lokale Ollama lauscht
    .arg-ollama_model = Das zu verwendende Ollama-Modell (Standard: das erste installierte, das Werkzeuge unterstützt)
    .arg-claude_url = Die Basis-URL der Anthropic-API (der Schlüssel selbst kommt aus dem Schlüsselbund des Systems)
    .arg-routstr_model = Das Modell, nach dem Routstr-Anbieter gefragt werden, wenn das Budget über null liegt (`aiui-cli budget set`)
    .arg-relays = Ein Nostr-Relay, auf dem Routstr-Anbieter gesucht werden; für mehrere wiederholen (Standard: die Relays des Routstr-SDK)
    .arg-any_provider = Auch Anbieter verwenden, die niemand geprüft hat (Standard: nur geprüfte Anbieter)
    .arg-reviewer = Der Prüfer, dessen Labels der Art 38425 entscheiden, welche Anbieter als geprüft gelten (npub oder öffentlicher Schlüssel in Hex)
    .arg-tor = Ein Tor-SOCKS5-Proxy; Relays und Onion-Anbieter werden dann über ihn erreicht
    .arg-data_dir = Wo Gespräche und das Prüfprotokoll liegen (Standard: $AIUI_DATA_DIR oder ~/.local/share/aiui)
    .arg-no_builtin = Nie mit dem eingebauten kleinen Modell (SmolLM2-135M) antworten, dem letzten Glied. Seine Datei wird in $AIUI_MODEL_DIR gesucht, sonst in models/ des Datenverzeichnisses (`bash scripts/setup` legt sie dort ab)
    .arg-listen = Wo der Chat-Ursprung lauscht (LAN-Nutzer; das nginx des Knotens leitet dorthin weiter)
    .arg-trusted_listen = Wo der vertrauenswürdige Ursprung lauscht (die Freigaben des Eigentümers); stellen Sie ihn unter einem eigenen Hostnamen oder Port bereit
    .arg-base_path = Der Pfad, unter dem beide Ursprünge hinter einem Reverse-Proxy liegen, z. B. /aiui/
    .arg-trusted_url = Die Adresse des vertrauenswürdigen Ursprungs, wie Browser im LAN ihn erreichen (für den Link der Chat-Seite), z. B. https://node.local:5181/aiui/. Standard: der Hostname der Chat-Seite auf dem vertrauenswürdigen Port (hinter einem Proxy, der auf einem anderen Port als der Dienst lauscht, setzen Sie dies)
    .arg-ui_dir = Das auszuliefernde ui/-Verzeichnis (Standard: ui/ des Quellbaums beim Start aus einem Build, sonst /usr/share/aiui/ui des Pakets)
    .arg-secure_cookies = Browser erreichen den Dienst über https (durch den Proxy): die Cookies als Secure markieren
    .arg-trust_proxy = X-Forwarded-For / X-Real-IP / X-Forwarded-Host von einem Proxy auf diesem Rechner vertrauen (dem nginx des Knotens)
    .arg-allowed_hosts = Ein Hostname, auf den der Chat-Ursprung antwortet (für mehrere wiederholen). IP-Adressen und localhost gehen immer; jeder andere Name erhält 421, sodass eine Seite unter einem fremden Namen, den DNS hierher zeigt, nichts erreicht
    .arg-trusted_hosts = Ein Hostname, auf den der vertrauenswürdige Ursprung antwortet (für mehrere wiederholen); der erste ist auch das Ziel des Freigabe-Links der Chat-Seite, sofern --trusted-url nichts anderes sagt
    .arg-approval_needs_both = Die Anmeldung am vertrauenswürdigen Ursprung braucht die Freigabe-Passphrase und einen TOTP-Code, beide
    .arg-kiosk_socket = Ein Unix-Socket für den Kiosk des Knotens (`aiui --kiosk`), um LAN-Anfragen an dessen eigenem Bildschirm freizugeben. Sein Verzeichnis muss existieren; der Socket erhält 0660, sodass der Nutzer des Kiosks ihn über die Gruppe erreicht
    .arg-lan_approver = Wo LAN-Anfragen freigegeben werden: trusted (der vertrauenswürdige Ursprung), kiosk (der Bildschirm des Knotens; der vertrauenswürdige Ursprung kann dann nur ablehnen) oder both. kiosk und both brauchen --kiosk-socket
    .arg-language = Die Sprache der LAN-Seiten, der Antworten und der Bestätigungen: en, de oder es. Standard: die Seiten folgen der jedes Browsers (seinem Accept-Language), die Antworten und Bestätigungen der der Umgebung (LANG)
help-aiui-cli_serve_set-password = Die LAN-Passphrase setzen, mit der sich LAN-Nutzer anmelden (aus dem Terminal gelesen oder eine Zeile von der Standardeingabe)
    .arg-data_dir = Das Datenverzeichnis des Dienstes (Standard: $AIUI_DATA_DIR oder ~/.local/share/aiui)
help-aiui-cli_serve_set-approval-password = Die Freigabe-Passphrase des Eigentümers setzen, die der vertrauenswürdige Ursprung bei jeder Freigabe verlangt
    .arg-data_dir = Das Datenverzeichnis des Dienstes (Standard: $AIUI_DATA_DIR oder ~/.local/share/aiui)
help-aiui-cli_serve_set-approval-totp = Ein TOTP-Geheimnis für Freigaben erzeugen (statt der oder zusätzlich zur Freigabe-Passphrase); gibt die otpauth://-URL für eine Authenticator-App einmal aus
    .arg-data_dir = Das Datenverzeichnis des Dienstes (Standard: $AIUI_DATA_DIR oder ~/.local/share/aiui)
help-aiui-cli_serve_sessions = Die Sitzungen des laufenden Dienstes auflisten (beide Ursprünge) oder einige beenden: `sessions revoke <ID>…` oder `--all`
    .arg-data_dir = Das Datenverzeichnis des Dienstes (Standard: $AIUI_DATA_DIR oder ~/.local/share/aiui)
help-aiui-cli_serve_sessions_revoke = Die Sitzungen mit diesen Kennungen beenden (wie `serve sessions` sie auflistet) oder mit --all jede Sitzung
    .arg-ids = Die Kennung einer Sitzung, wie `serve sessions` sie auflistet
    .arg-all = Jede Sitzung beenden
help-aiui-cli_serve_pair = Den installierten Dienst (aiui.service) mit seinem Knoten koppeln: das Zertifikat und das Passwort des Knotens prüfen (ohne Echo aus dem Terminal gelesen oder eine Zeile von der Standardeingabe), dann node.env und node-password (0600) nach /etc/aiui schreiben. Als root ausführen; erneut ausführen, um den Knoten oder sein Passwort zu ändern
    .arg-node = Die https-Adresse des Knotens, wie der Dienst ihn erreicht, z. B. https://127.0.0.1/
    .arg-fingerprint = Der SHA-256-Fingerabdruck des Zertifikats des Knotens, den Sie akzeptieren. Ohne ihn zeigt pair den Fingerabdruck, den der Knoten vorlegt, und bittet Sie, ihn zu bestätigen
    .arg-etc_dir = Wo die Konfiguration des Dienstes liegt
    .arg-data_dir = Das Datenverzeichnis des Dienstes, nur gelesen, um zu sagen, welche Einrichtungsschritte noch fehlen
