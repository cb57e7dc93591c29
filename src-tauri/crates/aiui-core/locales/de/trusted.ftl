### Die eigenen Texte des vertrauenswürdigen Fensters auf Deutsch. Schlüssel, Variablen und Attribute wie in
### en/trusted.ftl.

## Das Fenster und seine Kopfzeile.

trusted-window-title = AIUI · Vertrauenswürdig
trusted-skip = Zum Inhalt springen
trusted-shield = VERTRAUENSWÜRDIG
trusted-heading = AIUI: Bestätigung und Einstellungen
trusted-close = Schließen

## Die offene Bestätigung.

trusted-confirm-title = Eine Aktion auf Ihrem Knoten bestätigen
trusted-lan-badge = LAN
trusted-lan-marker = Ein LAN-Benutzer hat dies im LAN-Chat angefragt, nicht am Bildschirm des Knotens selbst.
trusted-asked-from = Angefragt von:
trusted-requester-unknown = vom Host nicht angegeben
trusted-requester-desktop = dieser Desktop-Rechner
trusted-requester-kiosk = der eigene Bildschirm des Knotens (Kiosk)
trusted-requester-terminal = ein Terminal auf diesem Rechner (aiui-cli chat)
trusted-requester-lan = eine LAN-Sitzung von { $address } (angemeldet { $time }, Sitzung { $session })
trusted-risk-read = Liest nur den Zustand
trusted-risk-act = Ändert den Knoten
trusted-risk-act-high = Ändert den Knoten auf schwer umkehrbare Weise
trusted-expires-in = Läuft ab in
trusted-expiry-clock = { $minutes }:{ $seconds }
trusted-expiry-expired = abgelaufen
trusted-expiry-warning-one = Noch { $seconds } Sekunde. Dann läuft diese Anfrage ab, und es wird nichts ausgeführt.
trusted-expiry-warning-other = Noch { $seconds } Sekunden. Dann läuft diese Anfrage ab, und es wird nichts ausgeführt.
trusted-deny = Ablehnen
trusted-approve = Freigeben
trusted-hint-locked = „Freigeben“ wird verfügbar, sobald dieses Fenster eine Sekunde lang vor Ihnen im Vordergrund war. „Ablehnen“ ist die sichere Wahl.
trusted-hint-available = „Freigeben“ ist verfügbar. „Ablehnen“ ist die sichere Wahl.
trusted-hint-hold = Zum Freigeben „Freigeben“ gedrückt halten, bis die Schaltfläche gefüllt ist (mit der Tastatur: einmal drücken). „Ablehnen“ ist die sichere Wahl.
trusted-approve-available = „Freigeben“ verfügbar
trusted-hold-too-short = Zu früh losgelassen: Halten Sie „Freigeben“ gedrückt, bis die Schaltfläche gefüllt ist. „Ablehnen“ ist die sichere Wahl.
trusted-approve-not-yet = „Freigeben“ ist noch nicht verfügbar: Lassen Sie dieses Fenster eine Sekunde lang im Vordergrund.
trusted-tool = Werkzeug
trusted-node-method = Methode des Knotens
trusted-proposed-by = Vorgeschlagen von
trusted-args-title = Argumente (geprüft)
trusted-args-name = Name
trusted-args-value = Wert
trusted-more-waiting-one = Danach wartet noch { $count } weitere.
trusted-more-waiting-other = Danach warten noch { $count } weitere.
trusted-nothing-title = Bestätigungen
trusted-nothing = Keine Aktion wartet auf Ihre Bestätigung.
trusted-closed-approved = Freigegeben: { $summary }
trusted-closed-denied = Abgelehnt: { $summary }
trusted-closed-expired = Abgelaufen, es wurde nichts ausgeführt: { $summary }
trusted-closed-gone = Wartet nicht mehr, es wurde nichts ausgeführt: { $summary }

## Gemeinsame Wörter der Budgets, der Wallet und der Einstellungen.

trusted-sats = { $sats } Sats
trusted-spent = Ausgegeben
trusted-reserved = Zurückgehalten
trusted-remaining = Übrig
trusted-renews = Erneuerung
trusted-never = nie
trusted-saving = Wird gespeichert…
trusted-saved-next-message = Gespeichert. Es gilt ab der nächsten Nachricht.
trusted-cancel = Abbrechen
trusted-none = keiner
trusted-set = gesetzt
trusted-not-set = nicht gesetzt
trusted-unknown = unbekannt
trusted-amount-of = { $amount } von { $allowance }

## Erneuerungszeiträume.

trusted-period-never = nie (einmalig)
trusted-period-daily = täglich
trusted-period-weekly = wöchentlich
trusted-period-monthly = monatlich
trusted-renews-next = { $period }, das nächste Mal am { $date }

## Claudes Budget in US-Dollar.

trusted-claude-title = Claude-Budget (US-Dollar)
trusted-claude-bar =
    .aria-label = Verbrauchtes Claude-Budget
trusted-claude-bar-text = { $spent } von { $allowance } ausgegeben
trusted-claude-off = Claude ist aus (Budget { $allowance })
trusted-claude-notice-80 = 80 % oder mehr von Claudes Budget sind in diesem Zeitraum ausgegeben.
trusted-claude-set-on-node = Auf dem Knoten festlegen:
trusted-claude-set-command = aiui-cli budget set --claude-usd BETRAG
trusted-claude-prices-with = , Preise mit
trusted-claude-set-end = {"."}
trusted-claude-amount = Budget in US-Dollar pro Zeitraum (0 schaltet Claude aus)
trusted-claude-save = Claude-Budget speichern
trusted-claude-saved = Gespeichert: { $allowance } { $period }. Es gilt ab der nächsten Nachricht.
trusted-claude-saved-off = Gespeichert: Claude ist aus, bis Sie ein Budget über 0 $ festlegen.
trusted-per-never = insgesamt
trusted-per-daily = täglich
trusted-per-weekly = wöchentlich
trusted-per-monthly = monatlich

## Claudes Preise.

trusted-prices-title = Claude-Preise (US-Dollar pro Million Tokens)
trusted-prices-source = Mitgelieferte Preise, am { $taken } von { $source } übernommen.
trusted-price-model = Modell
trusted-price-input = Eingabe
trusted-price-output = Ausgabe
trusted-price-cache-write = Cache schreiben
trusted-price-cache-read = Cache lesen
trusted-price-set-by-you = von Ihnen festgelegt
trusted-price-hint = Korrigieren Sie einen Preis oder fügen Sie ein Modell hinzu: Ihr Preis ersetzt ab der nächsten Anfrage den mitgelieferten.
trusted-price-save = Preis speichern
trusted-price-saved = Ihr Preis für { $model } ist gespeichert. Er gilt ab der nächsten Anfrage.
trusted-price-long-context = Über { $above } Eingabe-Tokens: { $input } Eingabe, { $output } Ausgabe, { $cacheWrite } Cache schreiben, { $cacheRead } Cache lesen

## Das Budget für bezahlte Hilfe (Routstr), in Sats.

trusted-allowance-title = Budget für bezahlte Hilfe (Routstr)
trusted-allowance-bar =
    .aria-label = Verbrauchtes Budget
trusted-free-answers = Diesen Monat beantwortet: lokal { $local }, vom eingebauten Modell { $builtin }, für 0 $.
trusted-allowance-amount = Budget in Sats pro Zeitraum (0 schaltet bezahlte Hilfe aus)
trusted-allowance-mints = Akzeptierte Mints, eine Adresse pro Zeile
trusted-allowance-save = Budget speichern
trusted-allowance-whole = Das Budget ist eine ganze Zahl von Sats (0 schaltet bezahlte Hilfe aus).
trusted-allowance-saved-no-mint = Gespeichert. Fügen Sie eine akzeptierte Mint hinzu, sonst bleibt bezahlte Hilfe aus.

## Die Wallet.

trusted-wallet-title = Wallet (Cashu-Ecash)
trusted-wallet-state-initial = Noch keine Wallet: Die Wallet wird angelegt, wenn Sie sie zum ersten Mal aufladen.
trusted-wallet-none-yet = Noch keine Wallet: Die Wallet wird angelegt (ihr Seed im Schlüsselbund des Systems), wenn Sie sie zum ersten Mal aufladen oder wiederherstellen.
trusted-wallet-total = Gesamt: { $total }
trusted-wallet-balances =
    .aria-label = Guthaben pro Mint
trusted-wallet-not-accepted = nicht akzeptiert: wird nicht für bezahlte Hilfe ausgegeben; auszahlen oder senden
trusted-wallet-in-flight = Unterwegs: { $amount } (Auszahlungen, die die Mint noch bezahlt, noch nicht eingelöste Tokens, noch nicht abgerechnete Zahlungen an Anbieter)
trusted-wallet-nothing-in-flight = Nichts unterwegs.
trusted-mint-with-balance = { $mint } ({ $balance })
trusted-outflows-title = Auszahlungen und gesendete Tokens
trusted-outflows-empty = Noch nichts ausgezahlt oder gesendet.
trusted-outflow-what = { $kind } über { $amount }
trusted-outflow-token = Token
trusted-outflow-withdrawal = Auszahlung
trusted-outflow-keyset-swap = Auf neue Schlüssel verschoben
trusted-outflow-other = Abfluss
trusted-take-back = Zurückholen
trusted-take-back-label = Den Token über { $amount } zurückholen, erstellt { $created }
trusted-taking-back = Der Token wird zurückgeholt…
trusted-wallet-check = Bei den Mints prüfen
trusted-checking-mints = Wird bei den Mints geprüft…
trusted-wallet-notices =
    .aria-label = Was die Prüfung ergeben hat

## Sats herausnehmen: das Angebot des Hosts und die Freigabe des Besitzers.

trusted-approval-expiry = Diese Freigabe verfällt um { $time }; vor Ihrer Freigabe wird nichts gesendet.
trusted-approval-announce = { $summary } { $action } oder Abbrechen.
trusted-approval-cancelled = Abgebrochen: Es wurde nichts gesendet.
trusted-token-qr = QR-Code des Tokens
trusted-token-label = Der Token für die andere Wallet (nur dieses eine Mal angezeigt)
trusted-token-done = Fertig: Token ausblenden
trusted-token-hidden = Der Token wird nicht mehr angezeigt. Solange er nicht eingelöst ist, holt „Zurückholen“ in der Liste ihn zurück.
trusted-take-out = Sats herausnehmen
trusted-withdraw-invoice = An Lightning auszahlen: Rechnung einfügen (lnbc…)
trusted-from-mint = von der Mint
trusted-withdraw-any-mint = die Mint mit dem größten Guthaben
trusted-withdraw-everything = Alles bei dieser Mint, nach ihren Gebühren (für eine Rechnung ohne Betrag)
trusted-withdraw-quote = Kosten anzeigen
trusted-withdraw-asking = Die Mint wird nach den Kosten gefragt…
trusted-withdraw-paying = Die Rechnung wird bezahlt…
trusted-send-amount = Einen Token an eine andere Wallet senden: Betrag in Sats
trusted-send-quote = Token vorbereiten
trusted-send-making = Der Token wird erstellt…
trusted-amount-whole = Der Betrag ist eine ganze Zahl von Sats.
trusted-invoice-paste-first = Fügen Sie zuerst eine Lightning-Rechnung ein.

## Die Wallet aufladen.

trusted-fund-title = Wallet aufladen
trusted-receive-label = Einen Cashu-Token empfangen (hier einfügen)
trusted-receive-save = Token empfangen
trusted-receive-paste-first = Fügen Sie zuerst einen Cashu-Token ein.
trusted-receiving = Wird empfangen…
trusted-received = { $amount } empfangen.
trusted-invoice-amount = Mit Lightning aufladen: Betrag in Sats
trusted-at-mint = bei der Mint
trusted-invoice-get = Rechnung anfordern
trusted-invoice-asking = Die Mint wird um eine Rechnung gebeten…
trusted-invoice-pay = Zahlen Sie { $amount } an { $mint } und prüfen Sie dann die Zahlung.
trusted-invoice-qr = QR-Code der Lightning-Rechnung
trusted-invoice-label = Lightning-Rechnung: mit einer beliebigen Wallet bezahlen
trusted-invoice-check = Zahlung prüfen
trusted-checking = Wird geprüft…
trusted-invoice-paid = Bezahlt: { $amount } wurden der Wallet gutgeschrieben.

## Sicherung und Wiederherstellung der Wallet.

trusted-backup-title = Sicherung
trusted-backup-confirmed = Sie haben bestätigt, dass die Sicherungswörter und die Mints aufgeschrieben sind.
trusted-backup-not-yet = Noch nicht gesichert: Schreiben Sie die Wörter und die Mints auf, sonst sind die Sats mit diesem Computer verloren.
trusted-backup-ask = Sicherungswörter anzeigen
trusted-backup-warning = Wer diese Wörter sieht, kann jeden Sat aus dieser Wallet nehmen.
trusted-backup-where = Zeigen Sie sie nur, wo niemand und keine Kamera diesen Bildschirm sehen kann. Schreiben Sie sie zusammen mit den Mints auf Papier; tippen Sie sie nie in einen Chat oder eine Website.
trusted-backup-show = Wörter anzeigen
trusted-backup-reading = Die Wörter werden aus dem Schlüsselbund gelesen…
trusted-backup-shown = Die Sicherungswörter werden angezeigt.
trusted-backup-words-title = Die Sicherungswörter, in dieser Reihenfolge
trusted-backup-mints-title = Die verwendeten Mints
trusted-backup-mints-qr = QR-Code der Mint-Liste
trusted-backup-mints-caption = Die Mint-Liste
trusted-backup-qr = QR-Code der ganzen Sicherung: erst die Wörter, dann die Mints
trusted-backup-qr-caption = Die Wörter und die Mints
trusted-backup-written = Ich habe sie aufgeschrieben
trusted-backup-hide = Wörter ausblenden
trusted-backup-done = Sicherung bestätigt. Die Wörter werden nicht mehr angezeigt.
trusted-backup-hidden = Die Wörter werden nicht mehr angezeigt.
trusted-restore-title = Eine Wallet wiederherstellen
trusted-restore-label = Ihre Sicherungswörter in der ersten Zeile, dann ihre Mints, eine Adresse pro Zeile
trusted-restore-replace = Die Wörter im Schlüsselbund ersetzen (nur wenn Sie die alten aufgeschrieben haben)
trusted-restore-go = Wiederherstellen
trusted-restore-found =
    .aria-label = Was die Wiederherstellung gefunden hat
trusted-restore-empty = Fügen Sie zuerst die Sicherungswörter und die Mint-Zeilen ein oder tippen Sie sie.
trusted-restore-asking = Jede Mint wird nach dem Ecash der Wallet gefragt…

## Routstr-Anbieter.

trusted-routstr-title = Routstr-Anbieter
trusted-routstr-reviewed = Nur geprüfte Anbieter
trusted-routstr-reviewer = Schlüssel des Prüfers, npub oder hex (dessen Bewertungen einen Anbieter „geprüft“ machen)
trusted-routstr-tor = Tor-SOCKS-Adresse (leer: kein Tor)
trusted-routstr-save = Routstr-Optionen speichern
trusted-discovery-title = Letzte Suche
trusted-discovery-none = Es lief noch keine Suche: Die Suche läuft, wenn eine Nachricht bezahlte Hilfe braucht und das Budget über null liegt.

## Das eingebaute kleine Modell.

trusted-builtin-title = Eingebautes kleines Modell
trusted-builtin-about = Wenn kein anderes Backend antwortet, kann ein kleines Modell auf diesem Rechner (SmolLM2-135M) Ihre Apps trotzdem auflisten, prüfen, starten, stoppen und neu starten. Es wählt nur unter diesen alltäglichen Anfragen; für alles Weitere nutzen Sie Ollama, einen Claude-Schlüssel oder bezahlte Hilfe.
trusted-builtin-use = Das eingebaute kleine Modell verwenden
trusted-builtin-unavailable = Ein, aber es kann nicht antworten: { $reason }
trusted-builtin-on = Ein: Es antwortet, wenn kein anderes Backend antwortet.
trusted-builtin-off = Aus.
trusted-builtin-saved-on = Ein ab der nächsten Nachricht.
trusted-builtin-saved-off = Aus ab der nächsten Nachricht.

## Der Claude-API-Schlüssel.

trusted-key-title = Claude-API-Schlüssel
trusted-key-status = Status:
trusted-key-label = Neuer Schlüssel (im Schlüsselbund des Systems aufbewahrt, nie wieder angezeigt)
trusted-key-save = Schlüssel speichern
trusted-key-clear = Schlüssel entfernen
trusted-key-saved = Im Schlüsselbund gespeichert.
trusted-key-removed = Aus dem Schlüsselbund entfernt.

## Kopplung mit dem Knoten.

trusted-node-title = Kopplung mit dem Knoten
trusted-node-paired = Gekoppelter Knoten
trusted-node-demo = { $url } (Demo-Knoten)
trusted-node-fingerprint = Akzeptierter Fingerabdruck
trusted-node-password = Passwort
trusted-node-password-demo = für die Demo erzeugt (nur im Arbeitsspeicher)
trusted-node-password-set = gesetzt (im Schlüsselbund)
trusted-pair-url = Adresse des Knotens
trusted-pair-fetch = Fingerabdruck des Zertifikats abrufen
trusted-pair-fp = Jetzt vorgelegter Fingerabdruck des Zertifikats: Vergleichen Sie ihn mit dem, den Ihr Knoten anzeigt
trusted-pair-fp-ok = Er stimmt überein; dieses Zertifikat akzeptieren
trusted-pair-pw = Passwort des Knotens (im Schlüsselbund des Systems aufbewahrt)
trusted-pair-save = Koppeln
trusted-pair-demo = Die Demo ist mit ihrem simulierten Knoten gekoppelt. Starten Sie AIUI ohne --demo, um einen echten zu koppeln.
trusted-pair-connecting = Verbindung wird hergestellt…
trusted-pair-compare = Vergleichen Sie den Fingerabdruck mit dem, den Ihr Knoten anzeigt, bevor Sie ihn akzeptieren.
trusted-pair-fetch-first = Rufen Sie zuerst den Fingerabdruck ab, vergleichen Sie ihn und setzen Sie das Häkchen bei „Er stimmt überein“.
trusted-pair-logging-in = Anmeldung läuft…
trusted-pair-done = Gekoppelt. Der Assistent arbeitet jetzt auf diesem Knoten.

## Die Werkzeuge, die der Assistent verwenden darf.

trusted-grants-title = Werkzeuge, die der Assistent verwenden darf
trusted-grants-hint = Ausgeschaltete Werkzeuge werden dem Modell nie angeboten. Aktionen, die den Knoten ändern, werden immer hier bestätigt.
trusted-grant-reads = liest
trusted-grant-changes = ändert den Knoten (immer bestätigt)
trusted-grant-on = { $tool } ist ab der nächsten Nachricht eingeschaltet.
trusted-grant-off = { $tool } ist ab der nächsten Nachricht ausgeschaltet.

## Die Spracheinstellung. $name ist der eigene Name einer Sprache („English“, „Deutsch“).

trusted-language-title = Sprache
trusted-language-label = Die Sprache dieser Fenster, der Antworten und der Hinweise
trusted-language-system = Wie das System ({ $name })
trusted-language-changing = Die Sprache wird umgestellt…

## Über.

trusted-about-title = Über dieses AIUI
trusted-about-version = Version
trusted-about-commit = Gebaut aus Commit

## Der vertrauenswürdige Ursprung des LAN-Dienstes: das Freigabegeheimnis, die Verbindung und die Wallet auf dem Knoten.

trusted-secret-approve = Freigabe-Passphrase oder TOTP-Code (zum Freigeben nötig; „Ablehnen“ braucht keinen)
trusted-secret-grant = Freigabe-Passphrase oder TOTP-Code (nötig, um einen Schalter zu ändern)
trusted-secret-withdraw = Freigabe-Passphrase oder TOTP-Code (zum Auszahlen nötig)
trusted-signed-out = Abgemeldet: Melden Sie sich erneut an.
trusted-service-answered = Der Dienst antwortete mit { $status }.
trusted-lan-sats-one = { $sats } Sat
trusted-lan-sats-other = { $sats } Sats
trusted-lan-wallet-title = Wallet (Cashu-Ecash) auf dem Knoten
trusted-lan-wallet-reading = Die Wallet wird gelesen…
trusted-lan-total = Gesamt: { $total }
trusted-lan-total-unbalanced = Gesamt: { $total } (das Kassenbuch geht nicht auf: Führen Sie auf dem Knoten aiui-cli wallet reconcile aus)
trusted-lan-in-flight = Unterwegs
trusted-lan-pending-title = Auszahlungen, die die Mint noch bezahlt
trusted-lan-pending-since = { $mint } (seit { $date })
trusted-lan-pending-none = Keine.
trusted-lan-withdraw-title = An Lightning auszahlen
trusted-lan-withdraw-invoice = Zu bezahlende Lightning-Rechnung (BOLT11)
trusted-lan-withdraw-mint = Von der Mint (leer: die mit dem größten Guthaben)
trusted-lan-withdraw-everything = Alles bei dieser Mint, nach ihren Gebühren (die Rechnung nennt keinen Betrag)
trusted-lan-withdraw-quote = Kosten anzeigen
trusted-lan-quote-asking = Die Mint wird gefragt, was das Bezahlen kostet…
trusted-lan-confirm-title = Auszahlung bestätigen
trusted-lan-quote-amount = Betrag
trusted-lan-quote-reserve = Gebührenreserve der Mint (was sie nicht verbraucht, kommt zurück)
trusted-lan-quote-input-fee = Eingangsgebühr der Mint
trusted-lan-quote-most = Höchstens anfallende Kosten
trusted-lan-quote-mint = Von der Mint
trusted-lan-quote-expiry = Das Angebot endet
trusted-lan-up-to = bis zu { $amount }
trusted-lan-expiry-unknown = wann die Mint es sagt
trusted-lan-quote-summary = Die Auszahlung von { $amount } kostet höchstens { $most }. Geben Sie Ihre Freigabe-Passphrase ein, um auszuzahlen.
trusted-lan-withdraw-pay = Auszahlen
trusted-lan-secret-needed = Zum Auszahlen brauchen Sie Ihre Freigabe-Passphrase oder einen TOTP-Code. Es wurde nichts bezahlt.
trusted-lan-withdrawing = Wird ausgezahlt…
trusted-lan-not-withdrawn = Nicht ausgezahlt.
trusted-lan-on-node-only = Die Sicherungswörter, das Wiederherstellen der Wallet und das Senden von Tokens erledigen Sie auf dem Knoten selbst (aiui-cli wallet): Nichts davon geht über das Netzwerk.
