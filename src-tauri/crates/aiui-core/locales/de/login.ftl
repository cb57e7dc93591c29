### Die Anmeldeseite des LAN-Dienstes (ui/login.html und ui/js/login.js) auf Deutsch. Schlüssel und Variablen wie in
### en/login.ftl.

## Die Seite, auf dem Chat-Ursprung (die LAN-Passphrase) und auf dem vertrauenswürdigen Ursprung (die
## Freigabe-Passphrase des Besitzers).

login-page-title = AIUI · Anmelden
login-heading = Bei AIUI anmelden
login-heading-trusted = Vertrauenswürdiger Ursprung von AIUI: Anmeldung des Besitzers
login-intro-lan = Chatten Sie mit dem Assistenten dieses Knotens. Die LAN-Passphrase erhalten Sie vom Besitzer des Knotens.
login-intro-trusted = Bestätigungen und Einstellungen. Hier meldet sich nur der Besitzer des Knotens an, mit der Freigabe-Passphrase oder einem TOTP-Code.
login-passphrase-label = Passphrase
login-label-lan = LAN-Passphrase
login-label-trusted = Freigabe-Passphrase (oder TOTP-Code)
login-code-label = TOTP-Code aus Ihrer Authenticator-App
login-submit = Anmelden

## Was die Seite während der Anmeldung sagt.

login-checking = Wird geprüft…
login-service-answered = Der Dienst antwortete mit { $status }.
login-unreachable = Der Dienst war nicht erreichbar: { $error }
