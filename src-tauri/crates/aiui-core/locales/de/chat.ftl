### Die eigenen Texte des Chatfensters (ui/index.html und seine Skripte in ui/js/) auf Deutsch. Schlüssel, Attribute
### und Variablen wie in en/chat.ftl.

## Die Seite und ihre Kopfzeile.

chat-title = AIUI
chat-brand = AIUI
chat-skip = Zum Nachrichtenfeld springen
chat-demo-banner = Demo-Knoten: ein simulierter Archipelago-Knoten auf diesem Rechner
chat-node-label = Knoten: { $url }
chat-open-settings = Einstellungen

## Die Seitenleiste: Gespräche und die Apps des Knotens.

chat-sidebar =
    .aria-label = Gespräche und Knoten
chat-new-conversation = Neues Gespräch
chat-conversations-heading = Gespräche
chat-untitled = Ohne Titel
chat-conversation-meta-one = { $date } · { $count } Nachricht
chat-conversation-meta-other = { $date } · { $count } Nachrichten
chat-apps-heading = Apps des Knotens
chat-refresh-apps = Apps aktualisieren
chat-apps-not-paired = Kein Knoten gekoppelt
chat-apps-unreadable = Die Apps konnten nicht gelesen werden: { $error }

## Die Budgetanzeige: Claudes Budget in US-Dollar, das von Routstr in Sats, nie umgerechnet.

chat-allowances-heading = Budgets
chat-claude-meter-heading = Claude (US-Dollar)
chat-claude-bar =
    .aria-label = Verbrauchtes Claude-Budget
chat-claude-off = Claude: aus (Budget { $allowance })
chat-claude-spent = { $spent } von { $allowance } ausgegeben
chat-claude-left = { $remaining } übrig; Erneuerung: { $renews }
chat-claude-left-held = { $remaining } übrig, { $reserved } für eine Antwort zurückgehalten; Erneuerung: { $renews }
chat-claude-notice = 80 % oder mehr von Claudes Budget sind in diesem Zeitraum ausgegeben.
chat-routstr-meter-heading = Bezahlte Hilfe über Routstr (Sats)
chat-routstr-bar =
    .aria-label = Verbrauchtes Routstr-Budget
chat-sats-one = { $amount } Sat
chat-sats-other = { $amount } Sats
chat-sats-left = { $remaining } von { $allowance } übrig
chat-sats-spent = { $spent } von { $allowance } ausgegeben
chat-paid-off = Bezahlte Hilfe ist ausgeschaltet (Budget 0 Sats).
chat-routstr-notice = 80 % oder mehr des Routstr-Budgets sind in diesem Zeitraum ausgegeben.
chat-spent = Ausgegeben
chat-reserved = Zurückgehalten
chat-remaining = Übrig
chat-renews = Erneuerung
chat-never = nie
chat-renews-never = nie (einmalig)
chat-period-daily = täglich
chat-period-weekly = wöchentlich
chat-period-monthly = monatlich
chat-renews-next = { $period }, nächste am { $date }
chat-free-answers = { $local } lokale und { $builtin } eingebaute Antworten in diesem Monat, für 0 $
chat-node-mints = Mints des Knotens: { $mints }
chat-top-up = Aufladen… (öffnet die Einstellungen)
chat-allowance-unreadable = Das Budget konnte nicht gelesen werden.

## Das Gespräch, das Eingabefeld und was auf eine Bestätigung wartet.

chat-unpaired-title = Kein Knoten gekoppelt
chat-open-settings-button = Einstellungen öffnen
chat-messages =
    .aria-label = Gespräch
chat-pending-where = Wartet auf Ihre Bestätigung im vertrauenswürdigen Fenster:
chat-pending-where-kiosk = Wartet darauf, dass der Besitzer des Knotens auf dem Bildschirm des Knotens bestätigt:
chat-pending-where-both = Wartet auf die Bestätigung des Besitzers (im vertrauenswürdigen Fenster oder auf dem Bildschirm des Knotens):
chat-show-confirmation = Bestätigung zeigen
chat-suggestions =
    .aria-label = Vorgeschlagene Fragen
chat-input-label = Nachricht an den Assistenten
chat-input =
    .placeholder = Fragen Sie zu Ihrem Knoten, z. B. „Warum ist LND ausgefallen?“
chat-keyboard-toggle = Tastatur
chat-stop = Stopp
chat-send = Senden
chat-working = Wird bearbeitet…

## Die Einträge im Verlauf. Die Sprecherangabe liest nur ein Screenreader vor, vor dem Gesagten.

chat-speaker = { $name }:{" "}
chat-you = Sie
chat-assistant = AIUI
chat-assistant-backend = AIUI ({ $backend })
chat-notice = Hinweis
# Who answered, on each answer's badge, in the chat's cost lines and on a confirmation. $model is the model's name
# ("qwen2.5:7b"), $provider a Routstr provider's name as the host shows it.
chat-backend-local = lokal { $model }
chat-backend-claude = Claude ({ $model })
chat-backend-routstr = Routstr { $provider } ({ $model })
chat-backend-builtin = eingebaut ({ $model })
chat-cost = Kosten: { $label }
chat-cost-input = Eingabe { $count }
chat-cost-output = Ausgabe { $count }
chat-cost-cache-write = in den Cache geschrieben { $count }
chat-cost-cache-read = aus dem Cache gelesen { $count }
chat-cost-step = { $backend }: Tokens: { $counts } ({ $cost })
chat-cost-step-free = { $backend } (auf diesem Rechner, kostenlos): Tokens: { $counts } ({ $cost })
chat-conversation-total = Dieses Gespräch: { $label }
chat-top-up-short = Aufladen…
chat-budget-stop-title = Bezahlte Hilfe gestoppt: Budget.
chat-choices =
    .aria-label = Vorgeschlagene Antworten
chat-no-backend-title = Kein Assistent konnte darauf antworten
chat-no-backend-lead = Gerade ist keiner der Assistenten erreichbar, deshalb wurde auf Ihrem Knoten nichts getan. Hinterlegen Sie in den Einstellungen einen Claude-Schlüssel oder starten Sie Ollama auf diesem Rechner, und fragen Sie dann noch einmal.
chat-no-backend-why = Warum die einzelnen Assistenten nicht verfügbar sind
chat-no-backend-button = Einstellungen öffnen, um einen Claude-Schlüssel zu hinterlegen
chat-stop-failed = Die Antwort konnte nicht gestoppt werden: { $error }
chat-failed = Etwas ist schiefgelaufen: { $message }
chat-signed-out = Abgemeldet: Bitte melden Sie sich erneut an.
chat-service-answered = Der Dienst antwortete mit { $status }.

## Einmal über die Live-Region angesagt.

chat-announce-writing = { $name } schreibt eine Antwort…
chat-announce-said = { $name }: { $text }
chat-announce-choices = Vorgeschlagene Antworten: { $choices }
chat-announce-card = Karte: { $summary }
chat-announce-notice = Hinweis: { $text }
chat-announce-stopped = Gestoppt: { $message }
chat-announce-no-backend = { $title }. { $lead }

## Karten aus Werkzeugergebnissen: Titel, Zeilennamen und die Worte des Hosts für das, was der Knoten ausließ.

chat-card-apps = Apps auf dem Knoten
chat-card-log = Protokoll: { $app }
chat-card-bitcoin-sync = Bitcoin-Synchronisierung
chat-card-lightning = Lightning (LND)
chat-card-system = System
chat-card-mints = Cashu-Mints
chat-card-action = Aktion ausgeführt
chat-card-result = Ergebnis
chat-field-app = App
chat-field-version = Version
chat-field-state = Zustand
chat-field-exit-code = Exit-Code
chat-field-health = Gesundheit
chat-field-progress = Fortschritt
chat-field-blocks = Blöcke
chat-field-chain = Chain
chat-field-initial-download = Erster Download
chat-field-on-disk = Auf der Festplatte
chat-field-alias = Alias
chat-field-active-channels = Aktive Kanäle
chat-field-peers = Peers
chat-field-synced = Mit der Blockchain synchronisiert
chat-field-block-height = Blockhöhe
chat-field-cpu = CPU
chat-field-memory = Arbeitsspeicher
chat-field-disk = Festplatte
chat-field-temperature = Temperatur
chat-field-uptime = Laufzeit
chat-field-mint = Mint
chat-field-unit = Einheit
chat-field-trusted = Vertraut
chat-field-action = Aktion
chat-field-node-method = Methode des Knotens
chat-field-outcome = Ergebnis
chat-outcome-accepted = angenommen
chat-field-confirmation = Bestätigung
chat-bar-verification = Fortschritt der Prüfung
chat-bar-disk = Belegte Festplatte
chat-unknown = unbekannt
chat-yes = ja
chat-no = nein
chat-not-stated = nicht angegeben
chat-blocks-of = { $blocks } von { $headers }
chat-amount-of = { $used } von { $total }
chat-gb = { $amount } GB
chat-percent = { $percent } %
chat-celsius = { $degrees } °C
chat-hours = { $hours } Std.
chat-summary-rows-one = { $count } Zeile
chat-summary-rows-other = { $count } Zeilen

## Die Bildschirmtastatur des Kiosks. Der Wert ist die sichtbare Beschriftung, .aria-label der Name; wo beide
## sich unterscheiden, beginnt der Name mit der Beschriftung (WCAG 2.5.3). Die Beschriftungen müssen kurz bleiben.

chat-keyboard =
    .aria-label = Bildschirmtastatur
chat-key-shift = ⇧
    .aria-label = Umschalt
chat-key-backspace = ⌫
    .aria-label = Rücktaste
chat-key-space = Leertaste
    .aria-label = Leertaste
chat-key-send = Senden
    .aria-label = Senden
chat-key-hide = Ausbl.
    .aria-label = Ausbl.: Tastatur ausblenden
chat-key-letters = abc
    .aria-label = abc: Buchstaben
chat-key-symbols = 123
    .aria-label = 123: Zahlen und Symbole
chat-key-acute = ´
    .aria-label = ´: Akut, für den nächsten Vokal
chat-key-diaeresis = ¨
    .aria-label = ¨: Trema, für den nächsten Vokal
chat-key-layout =
    .aria-label = { $code }: Tastaturbelegung, { $name }
