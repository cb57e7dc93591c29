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
