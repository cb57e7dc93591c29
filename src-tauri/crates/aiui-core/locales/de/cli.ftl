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
