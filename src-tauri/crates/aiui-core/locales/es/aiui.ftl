### Los textos de AIUI escritos por el host, en español. Claves y variables como en en/aiui.ftl.

## Confirmaciones: lo que el propietario aprueba en la ventana de confianza.

summary-start = Iniciar la app `{ $app }` ({ $facts })
summary-stop = Detener la app `{ $app }` ({ $facts })
summary-restart = Reiniciar la app `{ $app }` ({ $facts })
summary-install = Instalar la app `{ $app }` ({ $facts })
summary-uninstall = Desinstalar la app `{ $app }` ({ $facts })
summary-call = Llamar a `{ $method }` para `{ $app }`
summary-fact-separator = {"; "}
summary-name-separator = {", "}
summary-version = versión { $version }
summary-state-unknown = estado desconocido: no se pudo leer la lista de paquetes del nodo
summary-not-listed = no está en la lista de paquetes del nodo
summary-dependents =
    { $count ->
        [one] { $names } depende de ella
       *[other] { $count } apps dependen de ella: { $names }
    }

## El estado de una app, tal como lo informa el nodo.

state-running = en ejecución
state-stopped = detenida
state-starting = iniciándose
state-stopping = deteniéndose
state-restarting = reiniciándose
state-installing = instalándose
state-updating = actualizándose
state-removing = eliminándose
state-not-installed = no instalada
state-unnamed = en un estado que el nodo no nombró

## Por qué no se realizó una acción confirmada.

confirm-not-done = No se hizo: { $summary }. { $error }
confirm-declined = Rechazaste: { $summary }. No se cambió nada.
confirm-expired = Nadie respondió a la confirmación a tiempo: { $summary }. No se cambió nada.
