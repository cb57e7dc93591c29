### AIUIs vom Host geschriebene Texte auf Deutsch. Schlüssel und Variablen wie in en/aiui.ftl.

## Bestätigungen: was der Besitzer im vertrauenswürdigen Fenster freigibt.

summary-start = App `{ $app }` starten ({ $facts })
summary-stop = App `{ $app }` stoppen ({ $facts })
summary-restart = App `{ $app }` neu starten ({ $facts })
summary-install = App `{ $app }` installieren ({ $facts })
summary-uninstall = App `{ $app }` deinstallieren ({ $facts })
summary-call = `{ $method }` für `{ $app }` aufrufen
summary-fact-separator = {"; "}
summary-name-separator = {", "}
summary-version = Version { $version }
summary-state-unknown = Zustand unbekannt: Die Paketliste des Knotens konnte nicht gelesen werden
summary-not-listed = nicht in der Paketliste des Knotens
summary-dependents =
    { $count ->
        [one] { $names } hängt davon ab
       *[other] { $count } Apps hängen davon ab: { $names }
    }

## Der Zustand einer App, wie der Knoten ihn meldet.

state-running = läuft
state-stopped = gestoppt
state-starting = wird gestartet
state-stopping = wird gestoppt
state-restarting = wird neu gestartet
state-installing = wird installiert
state-updating = wird aktualisiert
state-removing = wird entfernt
state-not-installed = nicht installiert
state-unnamed = in einem Zustand, den der Knoten nicht benannt hat

## Warum eine bestätigte Aktion nicht ausgeführt wurde.

confirm-not-done = Nicht ausgeführt: { $summary }. { $error }
confirm-declined = Sie haben abgelehnt: { $summary }. Es wurde nichts geändert.
confirm-expired = Niemand hat die Bestätigung rechtzeitig beantwortet: { $summary }. Es wurde nichts geändert.

## Das eingebaute kleine Modell: Jedes Wort schreibt der Host, aus den Ergebnissen der Werkzeuge.

builtin-notice = Antworten kommen jetzt vom eingebauten kleinen Modell (SmolLM2-135M), das zum Ausprobieren von AIUI gedacht ist: Es kann Apps auflisten, prüfen, starten, stoppen, neu starten, installieren und deinstallieren und den Zustand des Knotens zeigen, aber kein Gespräch führen. Für einen echten Assistenten starten Sie Ollama auf diesem Rechner mit einem Modell, das Werkzeuge nutzen kann (`ollama pull qwen2.5:7b`), oder hinterlegen Sie im vertrauenswürdigen Einstellungsfenster einen Claude-API-Schlüssel und ein Claude-Budget.
builtin-capabilities = Ich bin das eingebaute kleine Modell (SmolLM2-135M) und erledige nur alltägliche Anfragen an den Knoten: was läuft; Zustand oder Protokolle einer App; eine App starten, stoppen, neu starten, installieren oder deinstallieren (z. B. „LND neu starten“); den Fortschritt der Bitcoin-Synchronisierung; die Kanäle des Lightning-Knotens; CPU, Arbeitsspeicher und Festplatte; und die akzeptierten Cashu-Mints. Für alles andere starten Sie Ollama mit einem Modell, das Werkzeuge nutzen kann (`ollama pull qwen2.5:7b`), oder hinterlegen Sie im vertrauenswürdigen Einstellungsfenster einen Claude-API-Schlüssel und ein Claude-Budget.
builtin-the-app = der App
builtin-understood-list = Ich liste Ihre Apps auf.
builtin-understood-status = Ich prüfe den Zustand von { $app }.
builtin-understood-logs = Ich lese die neuesten Protokollzeilen von { $app }.
builtin-understood-start = { $app } wird gestartet: Ich warte auf Ihre Freigabe.
builtin-understood-stop = { $app } wird gestoppt: Ich warte auf Ihre Freigabe.
builtin-understood-restart = { $app } wird neu gestartet: Ich warte auf Ihre Freigabe.
builtin-understood-install = { $app } wird installiert: Ich warte auf Ihre Freigabe.
builtin-understood-uninstall = { $app } wird deinstalliert: Ich warte auf Ihre Freigabe.
builtin-understood-sync = Ich prüfe den Fortschritt der Bitcoin-Synchronisierung.
builtin-understood-lightning = Ich prüfe den Lightning-Knoten.
builtin-understood-system = Ich lese CPU, Arbeitsspeicher und Festplatte des Rechners.
builtin-understood-mints = Ich liste die akzeptierten Cashu-Mints auf.
builtin-failed = Das hat nicht geklappt: { $error }
builtin-node-answered = Der Knoten antwortete: { $answer }
builtin-separator = {", "}
builtin-apps-running =
    { $running ->
        [one] { $running } von { $installed } installierten Apps läuft: { $names }.
       *[other] { $running } von { $installed } installierten Apps laufen: { $names }.
    }
builtin-apps-running-none = keine
builtin-apps-not-running = Nicht gestartet: { $apps }.
builtin-app-state = { $app }: { $state }.
builtin-app-state-health = { $app }: { $state }, Gesundheit: { $health }.
builtin-log-lines =
    { $count ->
        [one] Hier ist die neueste Protokollzeile von { $app }.
       *[other] Hier sind die neuesten { $count } Protokollzeilen von { $app }.
    }
builtin-sync = Bitcoin ({ $chain }) ist bei Block { $blocks }{ $details }.
builtin-sync-headers = {" "}von { $headers } Headern
builtin-sync-verified = {", "}{ $percent } % geprüft
builtin-sync-initial = {", "}noch im ersten Download
builtin-ln-channels =
    { $count ->
        [one] { $count } aktiver Kanal
       *[other] { $count } aktive Kanäle
    }
builtin-ln-peers =
    { $count ->
        [one] { $count } Peer
       *[other] { $count } Peers
    }
builtin-ln-synced = mit der Blockchain synchronisiert
builtin-ln-not-synced = noch nicht mit der Blockchain synchronisiert
builtin-ln-alias = LND „{ $alias }“
builtin-ln-no-figures = { $node }: Der Knoten hat keine Werte gesendet.
builtin-ln-figures = { $node }: { $figures }.
builtin-sys-cpu = CPU { $percent } %
builtin-sys-memory = Arbeitsspeicher { $used } von { $total } GB
builtin-sys-disk = Festplatte { $used } von { $total } GB
builtin-sys-temperature = { $degrees } °C
builtin-sys-no-figures = Der Knoten hat keine Systemwerte gesendet.
builtin-sys-figures = { $figures }.
builtin-mints-none = Der Knoten akzeptiert noch keine Cashu-Mints.
builtin-mints =
    { $count ->
        [one] Der Knoten akzeptiert { $count } Cashu-Mint: { $urls }.
       *[other] Der Knoten akzeptiert { $count } Cashu-Mints: { $urls }.
    }
builtin-done =
    Erledigt: { $action ->
        [start] Start
        [stop] Stopp
        [restart] Neustart
        [install] Installation
        [uninstall] Deinstallation
       *[other] { $action }
    } von { $app } angenommen.
builtin-done-now =
    Erledigt: { $action ->
        [start] Start
        [stop] Stopp
        [restart] Neustart
        [install] Installation
        [uninstall] Deinstallation
       *[other] { $action }
    } von { $app } angenommen; Zustand von `{ $app }` jetzt: { $state }.
builtin-did-you-mean = Meinten Sie: { $choices }?
builtin-or = {" oder "}
# Ein Auslassungszeichen statt „eine App“: Es passt in jede Wendung unten, ohne Fall und Artikel.
builtin-an-app = …
builtin-which-app = Welche App meinen Sie? Ich habe „{ $action }“ verstanden, aber keine App dieses Namens gefunden.
builtin-installed = Auf Ihrem Knoten installiert: { $apps }.
builtin-none-installed = Auf Ihrem Knoten ist noch keine App installiert.
builtin-no-apps = Ihr Knoten listet keine Apps.
builtin-installable = Nicht installiert, zur Installation verfügbar: { $apps }.

## Eine Auswahl zum Antippen. Sie wird als Worte des Besitzers zurückgeschickt und muss wieder als dieselbe
## Absicht verstanden werden (die Stichwörter in backends/builtin/intents.rs; ein Test prüft es).

intent-list = Apps auflisten
intent-status = Status von { $app } anzeigen
intent-logs = Protokolle von { $app } anzeigen
intent-start = { $app } starten
intent-stop = { $app } stoppen
intent-restart = { $app } neu starten
intent-install = { $app } installieren
intent-uninstall = { $app } deinstallieren
intent-sync = Fortschritt der Bitcoin-Synchronisierung anzeigen
intent-lightning = Kanäle und Peers des Lightning-Knotens anzeigen
intent-system = CPU, Arbeitsspeicher und Festplatte des Rechners anzeigen
intent-mints = Akzeptierte Cashu-Mints auflisten
intent-chat = plaudern

## Hinweise der Assistenzschleife und warum eine Runde endete.

stop-stopped = Sie haben die Antwort gestoppt. Was bisher geschrieben wurde, bleibt erhalten; sonst wurde nichts getan.
notice-paid-stop = Wird gestoppt: Die laufende bezahlte Anfrage wird noch zu Ende geführt, damit ihre Zahlung abgerechnet wird; nichts, was sie vorschlägt, wird ausgeführt.
notice-paid-off = Bezahlte Hilfe ist in dieser Runde aus: Die Mint-Liste des Knotens konnte nicht gelesen werden ({ $error }).
stop-step-limit = Ich habe nach { $steps } Schritten ohne Antwort aufgehört. Sonst wurde nichts geändert; Sie können noch einmal fragen, vielleicht genauer.
notice-redacted =
    { $count ->
        [one] { $count } geheimer Wert in Werkzeugergebnissen wurde vor dem Senden an { $backend } geschwärzt.
       *[other] { $count } geheime Werte in Werkzeugergebnissen wurden vor dem Senden an { $backend } geschwärzt.
    }
stop-cut-off = { $backend } hat mitten in der Antwort aufgehört ({ $reason }). Was geschrieben wurde, steht oben; sonst wurde nichts getan. Fragen Sie noch einmal, um das nächste Backend zu versuchen.
notice-leg-failed = { $error }; das nächste Backend wird versucht.
notice-over-allowance = { $message } Das nächste Backend wird versucht.
notice-act-failed = `{ $method }` hat keinen Erfolg gemeldet: { $error }.
notice-read-failed = `{ $method }` konnte nicht vom Knoten gelesen werden: { $error }.
notice-package-list-failed = Der aktuelle Zustand der App ist unbekannt: Die Paketliste des Knotens konnte nicht gelesen werden ({ $error }).
stop-context-too-long = Dieses Gespräch ist für das Modell zu lang geworden. Beginnen Sie ein neues Gespräch, um fortzufahren.
stop-backend-failed = Das Assistenz-Backend ist fehlgeschlagen: { $error }. Es wurde nichts geändert; versuchen Sie es noch einmal.
stop-no-backend = Gerade ist kein Assistenz-Backend verfügbar.
stop-enable-a-leg = So aktivieren Sie eines: Starten Sie Ollama auf diesem Rechner mit einem Modell, das Werkzeuge nutzen kann (`ollama pull qwen2.5:7b`), oder hinterlegen Sie im vertrauenswürdigen Einstellungsfenster einen Claude-API-Schlüssel und ein Claude-Budget.
mark-cut-off = {"["}Abgebrochen: Das Backend hat hier aufgehört zu antworten.]
mark-stopped = {"["}Hier von Ihnen gestoppt.]

## Warum ein bezahlter Schritt nicht bezahlt wurde und warum Claude übergangen wurde.

budget-top-up = Der Besitzer kann das Budget im Einstellungsfenster von AIUI erhöhen oder aufladen (oder mit `aiui-cli budget set`).
budget-off = Bezahlte Hilfe ist ausgeschaltet: Das Budget des Assistenten beträgt 0 Sats, deshalb habe ich hier aufgehört. { $topup }
budget-renews =
    {" "}Es wird { $period ->
        [daily] täglich
        [weekly] wöchentlich
       *[monthly] monatlich
    } erneuert.
budget-taken = {" "}({ $spent } ausgegeben)
budget-taken-held = {" "}({ $spent } ausgegeben, { $reserved } für noch offene Zahlungen zurückgehalten; was davon erstattet wird, fließt ins Budget zurück)
budget-used-up = Das Budget des Assistenten von { $allowance } Sats ist aufgebraucht{ $taken }, deshalb habe ich hier aufgehört.{ $renews } { $topup }
budget-too-dear = Diese Anfrage könnte bis zu { $price } Sats kosten, aber vom Budget über { $allowance } Sats sind nur noch { $remaining } übrig{ $taken }, deshalb habe ich hier aufgehört.{ $renews } { $topup }
budget-not-paid = Ich konnte diese Anfrage nicht bezahlen, deshalb habe ich hier aufgehört. Vom Budget über { $allowance } Sats sind noch { $remaining } übrig{ $taken }.{ $renews } { $topup }
claude-raise = Der Besitzer kann Claudes Budget im Einstellungsfenster von AIUI erhöhen (oder mit `aiui-cli budget set --claude-usd BETRAG`).
claude-abandoned = Eine Claude-Anfrage eines AIUI-Prozesses, der endete, bevor ihre Antwort kam, wurde mit ihrem Höchstbetrag von { $amount } auf Claudes Budget angerechnet: Anthropic hat sie vielleicht berechnet, und keine Antwort hat gesagt, was sie gekostet hat.
claude-usage-above = Claude hat einen Verbrauch gemeldet, der { $priced } kostet, mehr als die { $reserved }, die diese Anfrage höchstens kosten konnte. Er wurde voll angerechnet, denn Anthropic berechnet, was es meldet; sehen Sie in der Konsole von Anthropic nach, was berechnet wurde.
claude-maybe-billed = Sie wurde mit dem Höchstbetrag von { $reserved } auf Claudes Budget angerechnet: Anthropic hat sie möglicherweise berechnet.
claude-notice-80 = Claude hat { $spent } seines Budgets über { $allowance } gekostet (80 % oder mehr). Es wird übergangen, sobald das Budget aufgebraucht ist. { $raise }
budget-notice-80 = Der Assistent hat { $spent } seines Budgets über { $allowance } Sats ausgegeben (80 % oder mehr). Bezahlte Anfragen enden, wenn es aufgebraucht ist; der Besitzer kann es im Einstellungsfenster von AIUI aufstocken.
claude-off = Claude wird nicht genutzt: Sein Budget beträgt 0 $. { $raise }
claude-held = {", "}{ $reserved } für laufende Anfragen zurückgehalten
claude-too-dear = Claude wurde übergangen: Diese Anfrage könnte bis zu { $worst } kosten, aber von seinem Budget über { $allowance } sind nur noch { $remaining } übrig ({ $spent } ausgegeben{ $held }).{ $renews } { $raise }
claude-used-up = Claude wurde übergangen: Sein Budget über { $allowance } ist aufgebraucht ({ $spent } ausgegeben{ $held }).{ $renews } { $raise }

## Vorgeschlagene Fragen auf dem Kiosk, je ein Tippen. Eine angetippte wird als Worte des Besitzers gesendet:
## jedes Backend, auch das eingebaute, muss sie verstehen (backends/builtin/tests.rs tippt jede Art an).

suggest-why-stopped = Warum hat { $app } angehalten?
suggest-sync = Wie weit ist die Synchronisierung?
suggest-running = Was läuft gerade?
suggest-start = Starte { $app }
suggest-restart = Starte { $app } neu
suggest-system = Wie steht es um das System?

## Der Routstr-Zweig: was aus einer bezahlten Anfrage wurde und wo das Geld des Besitzers jetzt ist.

routstr-no-answer-in-time = { $provider } hat nicht innerhalb von { $after } geantwortet; { $verdict }
routstr-unreachable = { $provider } war nicht erreichbar; { $verdict }
routstr-broke-off = { $provider } hat die Anfrage abgebrochen ({ $error }); { $verdict }
routstr-answered = { $provider } hat mit { $detail } geantwortet; { $verdict }
routstr-answer-lost = { $provider } wurde bezahlt, aber seine Antwort kam nie vollständig an
routstr-answer-lost-change-kept = { $provider } wurde bezahlt, aber seine Antwort kam nie vollständig an; das gesendete Wechselgeld wurde behalten
routstr-redeemed-and-refused = { $provider } hat mit 402 geantwortet, die Zahlung aber behalten; { $verdict }.
routstr-not-taken-back-yet = { $provider } hat mit 402 geantwortet, und sein Token konnte noch nicht zurückgeholt werden ({ $error }); es bleibt verbucht und wird beim nächsten Abgleich (reconcile) zurückgeholt.
routstr-asked-more-after-redeeming = { $provider } hat mehr verlangt, nachdem es die Zahlung eingelöst hatte; es wurde nicht noch einmal bezahlt, und die erste Zahlung bleibt für ihre Erstattung verbucht (aiui-cli wallet reconcile)
routstr-asked-too-much =
    { $provider } hat { $required } Sats verlangt, mehr als das { $factor }-Fache der { $estimate } Sats, die sein angekündigter Preis ergibt; es wurde nicht bezahlt und wird { $minutes ->
        [one] für die nächste Minute
       *[other] für die nächsten { $minutes } Minuten
    } übergangen
routstr-refused-twice = der Anbieter hat die Zahlung zweimal abgelehnt; sie wurde kein drittes Mal bezahlt
routstr-no-common-mint = Ich konnte nicht bezahlen: Keine Mint ist sowohl in den Budget-Einstellungen akzeptiert als auch vom Anbieter aufgeführt, deshalb habe ich hier aufgehört. Es wurde nichts ausgegeben.
routstr-too-little-ecash = Ich konnte die { $price } Sats, die diese Anfrage kosten kann, nicht bezahlen: Die Wallet hält bei den akzeptierten Mints zu wenig Ecash, deshalb habe ich hier aufgehört. Es wurde nichts ausgegeben. Der Besitzer kann die Wallet im Einstellungsfenster von AIUI aufladen (oder mit `aiui-cli wallet invoice`).
routstr-mint-down = Ich konnte nicht bezahlen: { $error }. Es wurde nichts ausgegeben, deshalb habe ich hier aufgehört; versuchen Sie es wieder, wenn die Mint erreichbar ist.
routstr-not-paid = Ich konnte nicht bezahlen: { $error }. Es wurde nichts ausgegeben, deshalb habe ich hier aufgehört.
routstr-verdict-unspent = der Token wurde nicht ausgegeben und ist wieder in der Wallet
routstr-verdict-refunded = die Zahlung wurde erstattet
routstr-verdict-refund-void = seine Erstattung zählte nicht
routstr-verdict-provider-refunded = der Anbieter hat die Zahlung erstattet
routstr-verdict-provider-refunded-part = der Anbieter hat einen Teil der Zahlung erstattet ({ $spent } der { $paid } Sats gelten als ausgegeben)
routstr-verdict-provider-refund-void = die Erstattung des Anbieters zählte nicht
routstr-verdict-kept-in-ledger = die Zahlung bleibt im Kassenbuch; ihre Erstattung wird im Hintergrund erneut erfragt (und mit `aiui-cli wallet reconcile`), und der Besitzer erfährt es, wenn sie abgeschrieben wird

## Die eigenen Hinweise der Wallet: im Kassenbuch als Geschehenes gespeichert und in der Sprache jedes Lesers gesagt.

wallet-set-aside = { $provider } hat einen Token zurückgeschickt, der nicht zählt: { $reason }. Er wurde als 0 zurückerhaltene Sats gezählt und beiseitegelegt (nicht empfangen), diese Zahlung zählt also voll. Der Besitzer kann ihn mit `aiui-cli wallet set-aside` ansehen und dort empfangen oder verwerfen.
wallet-set-aside-received = Der von { $provider } zurückgeschickte, beiseitegelegte Token wurde auf Wunsch des Besitzers empfangen: { $sats } Sats von { $mint }.
wallet-echoed-unredeemed = { $provider } hat genau den Token zurückgeschickt, mit dem bezahlt wurde, und die Mint sagt, er wurde nie eingelöst: Er wurde zurückgenommen ({ $sats } Sats sind wieder in der Wallet), und diese Anfrage hat nichts gekostet.
wallet-written-off = { $spent } der { $paid } an { $provider } gezahlten Sats wurden als ausgegeben abgeschrieben, nachdem die Zahlung { $watched } lang beobachtet wurde: { $why }. Das Budget zählt sie in dem Zeitraum, in dem die Zahlung erfolgte.
wallet-written-off-request = { $spent } der { $paid } an { $provider } gezahlten Sats (Anfrage { $request }) wurden als ausgegeben abgeschrieben, nachdem die Zahlung { $watched } lang beobachtet wurde: { $why }. Das Budget zählt sie in dem Zeitraum, in dem die Zahlung erfolgte.
wallet-why-partly-back = ein Teil des Tokens wurde eingelöst oder hängt bei der Mint; die { $back } noch nicht ausgegebenen Sats wurden in die Wallet zurückgeholt
wallet-why-stuck-at-the-mint = die Mint führt den Token noch als in Einlösung (ausstehend), und nichts davon war zurückzuholen
wallet-why-no-refund-after =
    der Anbieter hat den Token eingelöst, aber nach { $tries ->
        [one] { $tries } Versuch
       *[other] { $tries } Versuchen
    } weder Wechselgeld noch eine Erstattung geschickt
wallet-why-refund-never-answered = der Anbieter hat den Token eingelöst, aber weder Wechselgeld noch eine Erstattung geschickt, und seine Erstattungsstelle hat nie geantwortet
wallet-age =
    { $unit ->
        [seconds] { $n } Sekunden
        [minutes] { $n } Minuten
        [hours] { $n } Stunden
       *[days] { $n } Tage
    }
wallet-mint-silent = Die Mint { $mint } antwortet seit { $since } nicht mehr ({ $error }). Sie hält { $sats } Sats dieser Wallet: Kommt sie nicht zurück, sind sie verloren. Heben Sie sie ab, sobald sie wieder antwortet.
wallet-keyset-moved = { $sats } Sats bei { $mint } lagen auf einem Keyset, das die Mint ausmustert; sie wurden auf ihr aktives Keyset verschoben (die Mint behielt { $fee } Sats als Gebühr).
wallet-token-never-made = Ein Token über { $sats } Sats von { $mint } wurde nie erstellt; die Sats sind in der Wallet geblieben.
wallet-token-taken-back = Ein Token über { $sats } Sats von { $mint } wurde zurückgeholt.
wallet-token-claimed = Der am { $made } erstellte Token über { $sats } Sats von { $mint } wurde von der Wallet eingelöst, an die er ging.
wallet-withdrawal-paid-proven = Die Abhebung von { $sats } Sats von { $mint } wurde bezahlt (Gebühr { $fee } Sats); der Zahlungsnachweis der Mint passt zur Rechnung.
wallet-withdrawal-paid-proof-mismatch = Die Abhebung von { $sats } Sats von { $mint } wurde bezahlt (Gebühr { $fee } Sats); der Zahlungsnachweis der Mint passt nicht zur Rechnung: Prüfen Sie, ob die Zahlung beim Empfänger der Rechnung ankam.
wallet-withdrawal-paid-unproven = Die Abhebung von { $sats } Sats von { $mint } wurde bezahlt (Gebühr { $fee } Sats); die Mint gab keinen Zahlungsnachweis.
wallet-withdrawal-failed = Die Abhebung von { $mint } ist nicht durchgegangen; ihre { $sats } Sats sind wieder in der Wallet.
wallet-withdrawal-taken = Die Abhebung von { $sats } Sats von { $mint } wurde laut Mint bezahlt (sie nahm die Proofs, gab aber keinen Zahlungsnachweis: Prüfen Sie, ob die Zahlung beim Empfänger der Rechnung ankam); sie behielt { $kept } Sats darüber hinaus (nicht zurückgegebenes Wechselgeld findet eine Wiederherstellung aus den Sicherungswörtern wieder).

## Der Discovery-Bericht: was jedes Relay tat und was aus jeder Anbieter-Ankündigung wurde.

discovery-relay = Relay { $line }
discovery-relay-line = { $url }: { $outcome } ({ $ms } ms)
discovery-relay-line-said = { $url }: { $outcome } ({ $ms } ms) (es sagte: { $notice })
discovery-relay-notice = {"  "}{ $url } sagte: { $notice }
discovery-relay-answered = hat geantwortet (EOSE)
discovery-relay-refused = keine Verbindung: { $reason }
discovery-relay-timed-out = verbunden, dann innerhalb von { $secs } s kein Ende der Ereignisse gesendet (Zeitüberschreitung)
discovery-relay-closed = hat das Abonnement geschlossen: „{ $reason }“
discovery-relay-dropped = verbunden, dann vor dem Ende der Ereignisse abgebrochen: { $reason }
discovery-events =
    { $count ->
        [one] { $count } Ereignis gefunden: { $used } verwendet
       *[other] { $count } Ereignisse gefunden: { $used } verwendet
    }
discovery-events-refused = { $events }, { $refused } abgelehnt ({ $kinds })
discovery-count = { $n } { $kind }
discovery-separator = {", "}
discovery-kind-wrong-kind = falsche Art
discovery-kind-future = in die Zukunft datiert
discovery-kind-bad-signature = ungültige Signatur
discovery-kind-malformed = fehlerhaft
discovery-kind-replaced = durch eine neuere ersetzt
discovery-kind-unreviewed = ungeprüft
discovery-kind-negative = negativ bewertet
discovery-kind-bad-endpoint = unbrauchbarer Endpunkt
discovery-kind-no-answer = keine Antwort
discovery-kind-broke-price = Preis nicht eingehalten
discovery-kind-no-model = Modell fehlt
discovery-kind-no-common-mint = keine gemeinsame Mint
discovery-kind-unaffordable = zu teuer
discovery-event = {"  "}(Ereignis { $id }, Schlüssel { $key }): { $what }
discovery-event-named = {"  "}„{ $name }“ (Ereignis { $id }, Schlüssel { $key }): { $what }
discovery-event-verbose = {"  "}Ereignis { $id } Art { $kind } von { $pubkey }{ $d } am { $at }: { $what }
discovery-event-verbose-named = {"  "}Ereignis { $id } Art { $kind } von { $pubkey }{ $d } am { $at }: „{ $name }“ { $what }
discovery-used = verwendet
discovery-refused = abgelehnt: { $why }
discovery-why-replaced = durch die neuere Ankündigung { $by } ersetzt
discovery-why-unreviewed = nicht geprüft, und nur geprüfte Anbieter sind erlaubt
discovery-why-negative = der Prüfer hat ihn negativ bewertet
discovery-why-bad-endpoint = kein brauchbarer Endpunkt: { $reason }
discovery-why-probe-failed = er hat auf seine Prüfanfrage nicht geantwortet: { $reason }
discovery-why-broke-price =
    er hat mehr verlangt, als sein angekündigter Preis erlaubt, und wird deshalb { $minutes ->
        [one] noch { $minutes } Minute
       *[other] noch { $minutes } Minuten
    } übergangen
discovery-why-no-model = er bietet `{ $model }` nicht mit einem Preis in Sats an
discovery-why-no-common-mint = keine seiner Mints ist eine, die Sie akzeptieren
discovery-why-unaffordable = eine Anfrage kostet bis zu { $price } Sats, und vom Budget sind noch { $remaining } Sats übrig
discovery-rule-wrong-kind = es ist Art { $kind }, keine Anbieter-Ankündigung (Art { $expected })
discovery-rule-bad-signature = die Signatur lässt sich nicht bestätigen
discovery-rule-no-endpoint = es hat kein `u`-Tag (Endpunkt)
discovery-rule-future-dated = es ist { $secs } s in die Zukunft datiert
discovery-rule-oversized = sein Inhalt hat { $bytes } Bytes, über der Grenze von { $cap } Bytes
discovery-rule-no-identifier = es hat kein `d`-Tag
discovery-rule-bad-endpoints = kein Endpunkt darin ist eine brauchbare http(s)-URL
discovery-reviewer = Prüfer { $npub }: { $reviews } Bewertung(en) gelesen
discovery-reviewer-unusable = der Schlüssel des Prüfers ist nicht brauchbar: { $reason }
discovery-reviewer-none = kein Schlüssel eines Prüfers ist gesetzt, und nur geprüfte Anbieter sind erlaubt
discovery-hint-who-none = kein Schlüssel eines Prüfers ist gesetzt
discovery-hint-who-invalid = der Schlüssel des Prüfers ist kein gültiger öffentlicher Schlüssel ({ $reason })
discovery-hint-who-set = Ihr Prüfer { $npub } hat sie nicht bewertet
discovery-hint =
    Nur geprüfte Anbieter sind erlaubt, und { $who }, deshalb { $count ->
        [one] wurde { $count } auf Nostr gefundener Anbieter nicht verwendet
       *[other] wurden { $count } auf Nostr gefundene Anbieter nicht verwendet
    }. Setzen Sie in den vertrauenswürdigen Einstellungen unter „Routstr-Anbieter“ einen Schlüssel des Prüfers (npub oder hex; aiui-cli: --reviewer), oder erlauben Sie ungeprüfte Anbieter, indem Sie „Nur geprüfte Anbieter“ abwählen (aiui-cli: --any-provider).

## Warum die Routstr-Stufe nichts Nutzbares fand, in der Meldung ohne Backend.

routstr-off = das Budget des Assistenten beträgt 0 Sats (oder keine Mint ist akzeptiert), daher sind bezahlte Anbieter aus
routstr-none-on-relays = kein nutzbarer Routstr-Anbieter auf den eingestellten Relays: { $why }
routstr-none-for-model = kein Routstr-Anbieter kann für `{ $model }` genutzt werden: { $why }
discovery-none-found = es wurde keine Anbieter-Ankündigung gefunden
discovery-none-no-relay = kein Relay hat geantwortet, daher konnte kein Anbieter gefunden werden
discovery-none-separator = {"; "}
discovery-none-refused = { $who }: { $why }
discovery-none-who-key = Schlüssel { $key }
discovery-none-who-named = „{ $name }“
discovery-none-with-hint = { $reasons }. { $hint }

## Was die Oberflächen hören, wenn die Kette gebaut wird.

## Die Zweige mit Namen, und warum der lokale, der Claude- und der eingebaute Zweig nicht antworten können.

leg-local = lokales Modell (Ollama)
leg-claude = Claude
leg-routstr = Routstr
leg-builtin = eingebautes Modell (SmolLM2-135M)
ollama-not-answering = Ollama unter { $url } antwortet nicht ({ $error })
ollama-refused = Ollama hat { $path } mit HTTP { $status } beantwortet
ollama-not-json = Die Antwort von Ollama auf { $path } ist kein JSON ({ $error })
ollama-no-models = Ollama hat keine Modelle; führen Sie `ollama pull qwen2.5:7b` aus (oder laden Sie ein anderes Modell, das Werkzeuge unterstützt)
ollama-model-missing = das eingestellte Modell `{ $model }` ist in Ollama nicht installiert
ollama-no-tool-model = kein installiertes Ollama-Modell unterstützt Werkzeuge; laden Sie eines, das es tut, z. B. `ollama pull qwen2.5:7b`
ollama-stopped = Ollama antwortet nicht mehr ({ $error })
ollama-http = HTTP { $status }: { $reason }
ollama-reported = Ollama hat einen Fehler gemeldet: { $reason }
claude-skipped-rate-limited = Claude wird vorerst übersprungen: Anfragelimit erreicht
claude-skipped = Claude wird vorerst übersprungen: { $reason }
claude-no-key = es ist kein Claude-API-Schlüssel gesetzt; fügen Sie einen im vertrauenswürdigen Einstellungsfenster hinzu
claude-no-price-table = Claude wird nicht genutzt: { $error }
claude-no-price = Claude wird nicht genutzt: Die Preistabelle hat keinen Preis für das Modell { $model }, und ein Modell ohne Preis wird nie für bezahlte Anfragen genutzt. Tragen Sie seinen Preis im Einstellungsfenster von AIUI (Claude-Preise) oder mit `aiui-cli budget price` ein.
builtin-turned-off = in den Einstellungen ausgeschaltet
builtin-not-built = nicht Teil dieses Builds
builtin-cpu = dieser Prozessor hat kein AVX2/FMA, das der Build des eingebauten Modells braucht
builtin-model-missing = seine Modelldatei ({ $file }) liegt in keinem von { $searched }: Installieren Sie das Paket aiui-model-smollm2, oder führen Sie `bash scripts/fetch-model` im Quellbaum von AIUI aus (etwa 100 MB, per SHA-256 geprüft)

registry-reconcile-failed = Offene Zahlungen konnten noch nicht geprüft werden ({ $error }); sie bleiben verzeichnet.
registry-wallet-unopened = Bezahlte Hilfe (Routstr) ist aus: Die Wallet konnte nicht geöffnet werden ({ $reason }).

# The egress screen's stop when the owner's own message holds a secret (egress/mod.rs, Blocked::text). $what is
# the kinds found, each an egress-kind-* text, joined with ", " and egress-and; never the secret itself.
egress-blocked = Ihre Nachricht wurde nicht gesendet: Sie enthält { $what }. Nichts hat dieses Gerät verlassen. Die Cloud-Modelle des Assistenten dürfen solche Geheimnisse nie sehen; entfernen Sie es und senden Sie Ihre Nachricht noch einmal. Sie können das Problem beschreiben, ohne das Geheimnis selbst einzufügen.
egress-and = {" "}und{" "}
egress-kind-known = ein Geheimnis, das diese App verwahrt ({ $label })
egress-kind-other = ein Geheimnis ({ $kind })
egress-kind-bip39 = etwas, das wie eine Wiederherstellungsphrase einer Wallet aussieht (Seed-Wörter)
egress-kind-slip39 = etwas, das wie ein Teil einer Shamir-Sicherung aussieht (SLIP-39-Wörter)
egress-kind-codex32 = eine codex32-Seed-Sicherung
egress-kind-xprv = einen erweiterten privaten Schlüssel (xprv)
egress-kind-wif = einen privaten Bitcoin-Schlüssel (WIF)
egress-kind-hex-key = einen privaten Schlüssel in Hex-Schreibweise
egress-kind-nsec = einen privaten Nostr-Schlüssel (nsec oder ncryptsec)
egress-kind-nostr-connect = eine Verbindungszeichenfolge für einen Nostr-Fernsigner samt Geheimnis
egress-kind-nwc = eine Nostr-Wallet-Connect-Zeichenfolge, mit der man aus Ihrer Wallet ausgeben kann
egress-kind-cashu = ein Cashu-Ecash-Token, also ausgebbares Geld
egress-kind-fedimint = Fedimint-Ecash-Noten, also ausgebbares Geld
egress-kind-lnurlw = einen LNURL-withdraw-Link, mit dem jeder, der ihn hat, Ihr Guthaben abheben kann
egress-kind-lnbits = einen LNbits-Wallet-Link, der die Wallet öffnet und aus ihr ausgibt
egress-kind-macaroon = ein Lightning-Macaroon, eine Zugangsberechtigung für Ihren Lightning-Knoten
egress-kind-lndconnect = eine lndconnect-Zeichenfolge mit einer Zugangsberechtigung für Ihren Lightning-Knoten
egress-kind-rune = eine Core-Lightning-Rune, eine Zugangsberechtigung für Ihren Lightning-Knoten
egress-kind-rpcauth = ein RPC-Passwort oder -Cookie von Bitcoin Core
egress-kind-password = ein Passwort oder Geheimnis aus einer Konfigurationsdatei oder einem Befehl
egress-kind-url-password = ein Passwort in einer Webadresse (user:password@host)
egress-kind-pem = einen Block mit privatem Schlüssel (TLS oder SSH)
egress-kind-api-key = einen API-Schlüssel
egress-kind-token = ein Zugangstoken
egress-kind-otpauth = ein Geheimnis für die Zwei-Faktor-Anmeldung (TOTP)
egress-kind-age-key = einen geheimen age-Verschlüsselungsschlüssel
egress-kind-onion-key = einen privaten Schlüssel eines Tor-Onion-Dienstes
egress-kind-backup-code = Backup- oder Wiederherstellungscodes eines Kontos, die an der Zwei-Faktor-Anmeldung vorbeiführen
egress-kind-totp-key = einen Einrichtungsschlüssel für die Zwei-Faktor-Anmeldung, aus dem jeder künftige Anmeldecode entsteht
egress-kind-pairing-phrase = eine Kopplungsphrase, die eine App mit Ihrem Knoten verbindet
egress-kind-seedqr = einen Wallet-Seed als SeedQR-Ziffern oder Entropie

## Ein Datum mit Uhrzeit, immer in UTC.
time-utc = { $day }.{ $month }.{ $year }, { $hour }:{ $minute } UTC

## Wo eine Auszahlung oder ein verschickter Token steht, im Verlauf der Wallet.
outflow-withdrawal-waiting = wird von der Mint bezahlt
outflow-token-waiting = noch nicht eingelöst
outflow-keyset-waiting = zieht auf die neuen Schlüssel der Mint um
outflow-paid = bezahlt
outflow-failed = fehlgeschlagen
outflow-refused = von der Mint abgelehnt
outflow-not-recorded = nicht erfasst
outflow-taken-back = zurückgeholt
outflow-never-made = nie erstellt
outflow-claimed = eingelöst
outflow-keyset-moved = auf den aktiven Schlüsselsatz umgezogen
outflow-cancelled = abgebrochen
outflow-done = erledigt

## Was eine Runde kostete, im Terminal.
cost-sats = { $sats ->
        [one] { $sats } Sat
       *[other] { $sats } Sats
    }
cost-free = 0{"\u00A0"}$
cost-separator = {" + "}

## Was der Ausgangsfilter geändert hat, nach `screen:` im Terminal.
egress-report = { $redacted } geschwärzt, { $placeholders } Platzhalter
egress-report-kinds = { $redacted } geschwärzt ({ $kinds }), { $placeholders } Platzhalter

## Die Wallet im vertrauenswürdigen Fenster: was der Eigentümer freigibt, bevor Sats gehen, und was daraus wurde.
wallet-withdraw-summary = { $amount } Sats an diese Lightning-Rechnung zahlen, von { $mint }.
wallet-withdraw-invoice = Rechnung: { $invoice }
wallet-withdraw-receives = Die Rechnung erhält: { $amount } Sats
wallet-withdraw-reserve = Reserve für die Lightning-Gebühr: bis zu { $reserve } Sats (was die Mint nicht braucht, kommt zurück)
wallet-withdraw-input-fee = Eingangsgebühr der Mint: { $fee } Sats
wallet-withdraw-most = Höchstens aus der Wallet: { $most } Sats
wallet-withdraw-action = { $amount } Sats auszahlen
wallet-withdraw-still-paying = Die Mint bezahlt die Rechnung über { $amount } Sats noch. Die Auszahlung bleibt unterwegs, bis die Zahlung endet; „Bei den Mints prüfen“ rechnet sie ab, bezahlt oder gescheitert.
wallet-withdraw-paid = Bezahlt: { $amount } Sats sind bei der Rechnung angekommen; die Lightning-Gebühr betrug { $fee } Sats.
wallet-token-summary = Einen Cashu-Token über { $amount } Sats von { $mint } erstellen, für eine andere Wallet.
wallet-token-whoever = Wer den Token hat, kann seine Sats einlösen: Geben Sie ihn nur der Wallet, für die er bestimmt ist.
wallet-token-fee = Die Gebühr der Mint für die Erstellung, falls sie eine verlangt, wird aus der Wallet beglichen.
wallet-token-once = Er wird einmal angezeigt. Solange er nicht eingelöst ist, holt „Zurückholen“ ihn in diese Wallet zurück.
wallet-token-action = Token über { $amount } Sats erstellen
wallet-token-made = Ein Token über { $amount } Sats von { $mint }. Geben Sie ihn jetzt der anderen Wallet: Er wird nur dieses eine Mal angezeigt.{ $kept } Solange er nicht eingelöst ist, holt „Zurückholen“ ihn zurück.
wallet-token-kept = {" "}Die Mint hat für die Erstellung { $fee } Sats behalten.
wallet-taken-back = Zurückgeholt: { $sats } Sats sind wieder in der Wallet.
wallet-too-late = Zu spät: Die andere Wallet hatte ihn schon eingelöst; seine { $sats } Sats gelten als gesendet.
wallet-taken-back-in-part = Die andere Wallet hatte einen Teil davon eingelöst: { $claimed } Sats gelten als gesendet. Der nicht eingelöste Rest wurde zurückgeholt: { $sats } Sats sind wieder in der Wallet.
wallet-taken-back-rest-too-small = Die andere Wallet hatte einen Teil davon eingelöst: { $claimed } Sats gelten als gesendet. Die { $rest } Sats, die darin übrig sind, sind nicht mehr wert als die Gebühr der Mint fürs Zurückholen; sie bleiben beim Token und zählen als diese Gebühr.
wallet-check-elsewhere = Gerade läuft eine andere Prüfung dieser Wallet (die der App selbst oder aiui-cli); versuchen Sie es gleich noch einmal.
wallet-checked = Geprüft.
wallet-checked-ended = { $count ->
        [one] Geprüft: { $count } Auszahlung oder Token ist abgeschlossen.
       *[other] Geprüft: { $count } Auszahlungen oder Tokens sind abgeschlossen.
    }
wallet-still-in-flight = { $count } noch unterwegs.
wallet-minted = { $sats } Sats aus bezahlten Rechnungen geprägt.
wallet-not-checked = { $count } konnten nicht geprüft werden (eine Mint hat nicht geantwortet); sie bleiben verbucht.
wallet-restored = Wiederhergestellt: { $sats } Sats sind in der Wallet, und ihre Wörter sind wieder im Schlüsselbund.
wallet-restored-not-rebuilt = {" "}Die Backends des Assistenten konnten nicht neu aufgebaut werden ({ $error }); starten Sie AIUI neu.
wallet-restored-mint = { $mint }: { $sats } Sats
wallet-restored-mint-pending = { $mint }: { $sats } Sats, und { $pending } Sats werden bei der Mint gerade ausgegeben (eine laufende Auszahlung)
wallet-lan-not-finished = Die Mint hat die Rechnung noch nicht fertig bezahlt. Die Auszahlung ist unterwegs: Sie wird abgerechnet, wenn die Mint antwortet, oder beim Abgleich, bezahlt oder gescheitert, und Sie erfahren es.
wallet-lan-paid = Bezahlt: { $amount } Sats sind bei der Rechnung angekommen; die Gebühr der Mint betrug { $fee } Sats.
wallet-lan-still-paying = Die Mint bezahlt die Rechnung noch. Die Auszahlung bleibt unterwegs; der Abgleich rechnet sie ab (beim Start und alle 10 Minuten), bezahlt oder gescheitert, und Sie erfahren es.
