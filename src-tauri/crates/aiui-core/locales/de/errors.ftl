### Ablehnungen und Fehler, die AIUI selbst schreibt, auf Deutsch. $error, $reason und $detail sind die Worte
### eines tieferen Teils (des Knotens, einer Mint, des Schlüsselbunds) und bleiben, wie dieser sie schrieb.

## Die Fehler der Wallet.
pay-error-seed-missing = der Wallet-Seed fehlt im Schlüsselbund, aber im Datenverzeichnis liegt eine Wallet; stellen Sie die Seed-Wörter im Schlüsselbund wieder her (oder legen Sie die Wallet beiseite), bevor Sie sie öffnen
pay-error-seed = Wallet-Seed: { $error }
pay-error-keyring = Schlüsselbund: { $error }
pay-error-store = Wallet-Speicher: { $error }
pay-error-ledger = das Zahlungsbuch konnte nicht geschrieben werden: { $error }. Kein Token hat die Wallet verlassen
pay-error-invalid-token = kein verwendbarer Cashu-Token: { $reason }
pay-error-invalid-invoice = keine verwendbare Lightning-Rechnung: { $reason }
pay-error-invalid-mint = keine Mint-Adresse: { $reason }
pay-error-mint-unreachable = die Mint { $mint } war nicht erreichbar: { $reason }
pay-error-mint = die Mint { $mint } hat abgelehnt: { $reason }
pay-error-insufficient = bei einer zugelassenen Mint ist nicht genug Ecash für { $needed } Sats
pay-error-no-common-mint = keine Mint ist zugleich vom Eigentümer zugelassen und vom Anbieter genannt
pay-error-over-budget = die Gebühr der Mint würde die Zahlung über das Budget bringen
pay-error-multi-keyset = der Token würde mehrere Schlüsselsätze umfassen, was Anbieter ablehnen
pay-error-already-spent = der Token wurde bei der Mint bereits eingelöst
pay-error-timeout = Zeitüberschreitung beim Warten auf die Mint
pay-error-unknown-payment = keine offene Zahlung { $id } im Zahlungsbuch
pay-error-moved = Zahlung { $id } wurde von einem anderen Prozess auf { $state } gesetzt; sie bleibt, wie sie ist
pay-error-mint-unclear = die Mint { $mint } hat keine klare Antwort gegeben ({ $reason }); nichts ist verloren: sie wird später erneut gefragt
pay-error-returned-elsewhere = der Token wurde bereits für eine andere Zahlung zurückgegeben ({ $id }) und kann für diese nicht zählen
pay-error-withdrawal-refused = { $error }; nichts wurde bezahlt, und die Sats sind wieder in der Wallet

## Begonnen und nicht beendet: nichts ist verloren.
pay-unfinished-payment-token = die Mint hat keine klare Antwort gegeben, während der Token erstellt wurde ({ $error }); nichts ist verloren: die Zahlung bleibt erhalten und wird beim nächsten Abgleich abgerechnet
pay-unfinished-payment-ledger = das Zahlungsbuch konnte einen Token nicht verbuchen ({ $error }), und er konnte noch nicht zurückgeholt werden; er bleibt erhalten und wird beim nächsten Abgleich zurückgeholt
pay-unfinished-not-settled = Zahlung { $id } ist noch nicht abgerechnet; führen Sie zuerst `aiui-cli wallet reconcile` aus
pay-unfinished-swap = der Tausch bei { $mint } hat nicht jeden alten Beweis übernommen
pay-unfinished-withdrawal = die Mint hat keine klare Antwort zur Auszahlung gegeben ({ $error }); nichts ist verloren: sie bleibt unterwegs, und der nächste Abgleich rechnet sie ab
pay-unfinished-send-token = die Mint hat keine klare Antwort gegeben, während der Token erstellt wurde ({ $error }); nichts ist verloren: der nächste Abgleich beendet ihn oder bringt die Sats zurück
pay-unfinished-send-ledger = das Zahlungsbuch konnte den Token nicht verbuchen ({ $error }); er wurde nicht gezeigt, und der nächste Abgleich holt ihn zurück
pay-unfinished-receive = der Empfang eines Tokens bei { $mint } wurde begonnen und nicht beendet; der nächste Abgleich beendet ihn
pay-unfinished-take-back = das Zurückholen eines Tokens bei { $mint } wurde begonnen und nicht beendet
pay-unfinished-restore = eine Wiederherstellung aus den Sicherungswörtern wurde beendet, bevor jede Mint ihr Ecash zurückgegeben hatte; nichts ist verloren: Starte die Wiederherstellung mit denselben Wörtern und Mints erneut

## Ein eingegebener Dollarbetrag oder Preis, abgelehnt. $text ist das Eingegebene.
price-error-amount = { $text } ist kein Betrag in US-Dollar (z. B. 5 oder 2,50)
price-error-price = { $text } ist kein Preis in US-Dollar (z. B. 3 oder 0,30)
price-error-grouped = { $text } lässt sich zweifach lesen: schreiben Sie den Betrag ohne Tausendertrennzeichen (1000, oder 1,50 für anderthalb)
price-error-range = { $value } ist kein Preis in USD pro Million Tokens (0 bis { $max })
price-error-model = { $text } ist kein Modellname (Buchstaben, Ziffern, - . _ :)
price-error-corrupt = die Preisdatei { $path } ist beschädigt ({ $reason }); reparieren oder entfernen Sie sie und setzen Sie den Preis dann erneut
price-error-write = der Preis konnte nicht in { $path } gespeichert werden: { $error }. Nichts wurde geändert

## Die Dateien und Einstellungen der Budgets.
budget-error-read = die Budgetdatei { $path } konnte nicht gelesen werden: { $error }
budget-error-corrupt = die Budgetdatei { $path } ist beschädigt ({ $reason }); reparieren oder entfernen Sie sie und setzen Sie das Budget erneut
budget-error-write = das Budget konnte nicht in { $path } gespeichert werden: { $error }. Nichts wurde geändert
budget-error-invalid = ungültige Budgeteinstellung: { $reason }
budget-error-not-a-mint = { $mint } ist keine Mint-Adresse (erwartet: https://… oder http://…)

## Wer was tun darf.
error-not-trusted = Das geht nur im vertrauenswürdigen Fenster von AIUI.
error-not-trusted-lan = Das geht nur auf dem vertrauenswürdigen Ursprung, wo sich der Eigentümer mit der Freigabe-Passphrase anmeldet.
error-unknown-command = Es gibt keinen Befehl `{ $command }`.
error-no-tool = Es gibt kein Werkzeug namens `{ $tool }`.
error-not-on-lan = Diese Einstellung wird nicht über das LAN geändert: verwenden Sie `aiui-cli budget` und `aiui-cli wallet` auf dem Knoten.
error-saved-not-rebuilt = Gespeichert, aber die Backends des Assistenten konnten nicht neu aufgebaut werden: { $error }
error-busy-change = Der Assistent antwortet gerade; ändern Sie das, wenn er fertig ist.
error-settings-not-saved = Die Einstellungen konnten nicht gespeichert werden: { $error }

## Eine Bestätigung.
error-too-soon = Die Bestätigung wurde gerade erst angezeigt. Lesen Sie sie und geben Sie dann erneut frei.
error-confirmation-unknown = Diese Bestätigung steht nicht mehr aus (sie wurde beantwortet, ist abgelaufen oder gab es nie).
error-confirmation-changed = Die Anfrage hat sich seit der Anzeige geändert; nichts wurde entschieden. Sehen Sie sie sich erneut an.
error-confirmation-audit = Die Entscheidung konnte nicht im Prüfprotokoll festgehalten werden und wurde deshalb nicht ausgeführt: { $error }
error-confirmation-expired = Diese Bestätigung ist abgelaufen; nichts wurde getan.
error-approve-on-kiosk = Auf diesem Knoten werden Anfragen aus dem LAN am eigenen Bildschirm des Knotens (dem Kiosk) freigegeben. Ablehnen können Sie hier.
error-decide-secret-required = Zum Freigeben brauchen Sie Ihre Freigabe-Passphrase oder einen TOTP-Code. Nichts wurde entschieden.
error-decide-wrong-secret = Das ist nicht die Freigabe-Passphrase (oder ein aktueller TOTP-Code). Nichts wurde entschieden.
error-tool-secret-required = Zum Umschalten eines Werkzeugs brauchen Sie Ihre Freigabe-Passphrase oder einen TOTP-Code. Nichts wurde geändert.
error-tool-wrong-secret = Das ist nicht die Freigabe-Passphrase (oder ein aktueller TOTP-Code). Nichts wurde geändert.

## Anmeldung beim LAN-Dienst.
error-signed-out = Sie sind nicht angemeldet (oder Ihre Sitzung ist beendet). Melden Sie sich erneut an.
error-bad-origin = Abgelehnt: Diese Anfrage kam nicht von der eigenen Seite dieser Website, oder ihr fehlte das CSRF-Token.
error-rate-limited = { $seconds ->
        [one] Zu viele Anmeldeversuche. Warten Sie { $seconds } Sekunde und versuchen Sie es dann erneut.
       *[other] Zu viele Anmeldeversuche. Warten Sie { $seconds } Sekunden und versuchen Sie es dann erneut.
    }
error-duplicate-cookie = Dieser Browser hat zwei Sitzungs-Cookies für diese Website gesendet (eine andere Seite hat vielleicht eines untergeschoben). Nichts wurde getan: Löschen Sie die Cookies dieser Website im Browser und melden Sie sich dann erneut an.
error-wrong-host = Dieser Dienst antwortet nicht auf diesen Hostnamen. Öffnen Sie ihn unter dem Namen, den Ihnen der Eigentümer des Knotens genannt hat.
error-passphrase-too-long = Das ist länger als jede Passphrase, die dieser Dienst annimmt.
error-wrong-lan-passphrase = Diese LAN-Passphrase stimmt nicht. Fragen Sie beim Eigentümer des Knotens nach und versuchen Sie es erneut.
error-wrong-approval-passphrase = Das ist nicht die Freigabe-Passphrase (oder ein aktueller TOTP-Code). Nur der Eigentümer des Knotens kann sich hier anmelden.
error-code-required = Die Passphrase stimmt. Dieser Knoten verlangt zusätzlich einen TOTP-Code: Geben Sie den ein, den Ihre Authenticator-App gerade zeigt.

## Der Chat.
error-empty-message = Schreiben Sie zuerst eine Nachricht.
error-message-too-long = Diese Nachricht ist zu lang; kürzen Sie sie.
error-busy-answering = Der Assistent antwortet noch; warten Sie, bis er fertig ist.
error-unknown-conversation = In dieser Sitzung gibt es kein solches Gespräch.
error-unknown-turn = In dieser Sitzung gibt es keine solche Runde.

## Die Einstellungen am Desktop.
error-api-key-empty = Fügen Sie zuerst den API-Schlüssel ein.
error-api-key-malformed = Das sieht nicht nach einem API-Schlüssel aus (er enthält Leerzeichen oder ist zu lang).
error-demo-paired = Die Demo ist mit ihrem simulierten Knoten gekoppelt; starten Sie AIUI ohne --demo, um einen echten zu koppeln.
error-fingerprint-first = Rufen Sie zuerst den Zertifikat-Fingerabdruck des Knotens ab und akzeptieren Sie ihn.
error-password-empty = Geben Sie das Passwort des Knotens ein.
error-login-timeout = Der Knoten hat auf die Anmeldung nicht rechtzeitig geantwortet; nichts wurde gespeichert.
error-login-failed = { $error }. Nichts wurde gespeichert.
error-not-an-address = Keine Adresse: { $error }
error-node-address-scheme = Die Adresse des Knotens beginnt mit https:// (oder http:// in einem vertrauenswürdigen LAN).
error-no-language = AIUI hat keine Sprache `{ $tag }`: Wählen Sie eine aus der Liste.
error-price-field = { $field ->
        [input] Der Eingabepreis ist in US-Dollar pro Million Tokens, z. B. 3 oder 0,30.
        [output] Der Ausgabepreis ist in US-Dollar pro Million Tokens, z. B. 3 oder 0,30.
        [cache-write] Der Preis für Cache-Schreiben ist in US-Dollar pro Million Tokens, z. B. 3 oder 0,30.
       *[cache-read] Der Preis für Cache-Lesen ist in US-Dollar pro Million Tokens, z. B. 3 oder 0,30.
    }
error-reviewer-key = Der Prüferschlüssel ist ein npub… oder 64 Hex-Zeichen: { $reason }.
error-tor-socks = Die Tor-SOCKS-Adresse ist eine IP-Adresse mit Port, z. B. 127.0.0.1:9050.

## Die Wallet.
error-no-wallet = Es gibt noch keine Wallet: Laden Sie sie zuerst auf (oder stellen Sie sie wieder her).
error-no-wallet-to-back-up = Es gibt noch keine Wallet: nichts zu sichern.
error-no-wallet-lan = Auf diesem Knoten gibt es keine Wallet: Bezahlte Hilfe ist aus (ihr Budget ist 0), oder die Wallet konnte nicht geöffnet werden. Laden Sie sie auf und richten Sie sie mit `aiui-cli wallet` und `aiui-cli budget` auf dem Knoten ein.
error-wallet-not-on-lan = Über das LAN zeigt die Wallet nur, was sie hält, und zahlt an Lightning aus (ihr Abschnitt auf dieser Seite). Aufladen, Sicherungswörter, Wiederherstellen und Token senden geschehen auf dem Knoten: `aiui-cli wallet`.
error-wallet-not-opened = Die Wallet konnte nicht geöffnet werden.
error-wallet-not-opened-because = Die Wallet konnte nicht geöffnet werden: { $error }
error-busy-restore = Der Assistent antwortet gerade; stellen Sie wieder her, wenn er fertig ist.
error-restore-no-mints = Fügen Sie unter den Wörtern die Mint-Zeilen der Sicherung hinzu (eine Adresse pro Zeile, https://…): Die Wiederherstellung fragt jede Mint.
error-restore-not-empty = Diese Wallet hält { $sats ->
        [one] { $sats } Sat
       *[other] { $sats } Sats
    }: Eine Wiederherstellung ersetzt nie eine Wallet, die Ecash hält.
error-restore-other-words = Der Schlüsselbund enthält bereits andere Wallet-Wörter, und keine Wallet hier verwendet sie: Sie könnten anderswo Sats sichern. Schreiben Sie sie zuerst auf; setzen Sie dann das Häkchen bei „Die Wörter im Schlüsselbund ersetzen“ und stellen Sie erneut wieder her.
error-not-a-withdrawal = Diese Freigabe ist keine Auszahlung; nichts wurde gesendet.
error-not-a-token = Diese Freigabe ist kein Token; nichts wurde gesendet.
error-token-too-small = Ein Token ist mindestens 1 Sat wert.
error-token-pick-mint = Wählen Sie eine der Mints der Wallet.
error-token-over-held = { $mint } hält { $held } Sats: Ein Token über { $amount } Sats braucht mindestens so viel.
error-paste-token = Fügen Sie einen Cashu-Token ein (er beginnt mit cashuA oder cashuB).
error-invoice-amount = Wählen Sie einen Betrag von 1 bis { $max } Sats.
error-mint-https = Die Adresse der Mint beginnt mit https://.
error-not-paid-yet = Noch nicht bezahlt. Bezahlen Sie die Rechnung und prüfen Sie dann erneut.
error-approval-lapsed = Diese Freigabe ist verfallen; nichts wurde gesendet. Beginnen Sie erneut.
error-approval-unknown = Es gibt keine solche Freigabe (sie wurde verwendet, ersetzt oder ist verfallen); nichts wurde gesendet.
error-mint-timeout = Die Mint hat nicht rechtzeitig geantwortet; nichts hat sich geändert.
error-qr = Es konnte nicht als QR-Code gezeichnet werden: { $error }.
error-quote-unknown = Dieses Auszahlungsangebot steht nicht aus (es wurde verwendet, ersetzt oder gab es nie). Nichts wurde bezahlt; fordern Sie ein neues Angebot an.
error-quote-expired = Das Angebot der Mint ist abgelaufen. Nichts wurde bezahlt; fordern Sie ein neues Angebot an.
error-quote-too-soon = Das Angebot wurde gerade erst angezeigt. Lesen Sie, was es kostet, und zahlen Sie dann erneut aus.
error-withdraw-secret-required = Zum Auszahlen brauchen Sie Ihre Freigabe-Passphrase oder einen TOTP-Code. Nichts wurde bezahlt.
error-withdraw-wrong-secret = Das ist nicht die Freigabe-Passphrase (oder ein aktueller TOTP-Code). Nichts wurde bezahlt.

## Die Verbindung des Kiosks zum LAN-Dienst.
error-lan-unreachable = Der LAN-Dienst ist nicht erreichbar (auf { $socket } antwortet nichts): Nichts wurde entschieden. Prüfen Sie, ob `aiui-cli serve` mit --kiosk-socket { $socket } läuft.
error-lan-no-answer = Der LAN-Dienst hat nicht innerhalb von { $seconds } s geantwortet, daher kann dieser Bildschirm nicht sagen, ob entschieden wurde. Steht die Anfrage noch in der Liste, wurde sie es nicht; das Prüfprotokoll auf dem Knoten sagt es sicher.
error-lan-busy = Eine Antwort auf diese Bestätigung ist schon unterwegs zum LAN-Dienst; warten Sie darauf.

## Warum der Desktop keinen Knoten hat.
error-unpaired-not-yet = Es ist noch kein Knoten gekoppelt. Öffnen Sie die Einstellungen, um diese App mit Ihrem Knoten zu koppeln.
error-unpaired-no-password = Der Knoten { $url } ist gekoppelt, aber sein Passwort ist nicht im Schlüsselbund. Koppeln Sie ihn in den Einstellungen erneut.
error-unpaired-password = Das Passwort des Knotens konnte nicht gelesen werden: { $error }.
error-unpaired-unusable = Der gekoppelte Knoten { $url } kann nicht verwendet werden: { $error }
