### Las líneas propias de aiui-cli en español. Claves y variables como en en/cli.ftl.

## Compartidas por varios comandos.

cli-note = nota: { $notice }
cli-list-separator = {", "}
cli-answer-yes = s si sí
cli-yes-no = [s/N]
cli-percent = { $value } %
cli-runtime-failed = aiui-cli: no se pudo iniciar el entorno asíncrono: { $error }
cli-no-data-dir = no hay directorio de datos: defina AIUI_DATA_DIR o indique --data-dir
cli-reading-file = al leer { $path }
cli-reading-stdin = al leer la entrada estándar
cli-reading-stdin-short = al leer la entrada estándar
cli-reading-terminal = al leer el terminal
cli-creating = al crear { $path }
cli-logging-in = al iniciar sesión
cli-logging-out = al cerrar sesión
cli-logging-in-node = al iniciar sesión en el nodo
cli-nothing-written = no se escribió nada
cli-period-never = nunca
cli-period-daily = diario
cli-period-weekly = semanal
cli-period-monthly = mensual

## doctor y demo.

cli-doctor-plain-http = ! { $url } es http sin cifrar: la contraseña y la sesión viajan sin cifrar.
cli-doctor-node = Nodo      { $url }
cli-doctor-cert = Certificado SHA-256 { $pin } (fijado)
cli-doctor-health = Estado    HTTP { $status } { $body }
cli-doctor-login-ok = Sesión    correcta
cli-doctor-listing-packages = al listar los paquetes
cli-doctor-packages = Paquetes  { $summary }
cli-doctor-package-count = { $count } { $state }
cli-doctor-killed = {"          "}! { $app } se detuvo por usar demasiada memoria (salida 137)
cli-doctor-crashed = {"          "}! { $app } falló (salida { $code })
cli-doctor-bitcoin = Bitcoin   { $chain } bloque { $blocks } de { $headers } ({ $progress } verificado)
cli-doctor-bitcoin-unavailable = Bitcoin   no disponible: { $error }
cli-doctor-all-passed = Todas las comprobaciones correctas.
cli-tofu-presents = El nodo presenta un certificado con la huella SHA-256:
cli-tofu-compare = Compárela con la huella que muestra el propio nodo antes de confiar en él.
cli-tofu-no-terminal = no se confía en un certificado desconocido sin que una persona lo confirme; después de comprobarlo, vuelva a ejecutar con --fingerprint { $fingerprint }
cli-tofu-question = ¿Confiar en este certificado? [s/N]
cli-tofu-not-trusted = certificado no aceptado; no se envió nada al nodo
cli-no-password = no hay contraseña: defina { $env } o ejecute doctor en un terminal para que se le pregunte
cli-password-prompt = Contraseña del nodo:
cli-reading-password = al leer la contraseña
cli-totp-prompt = Código TOTP:
cli-demo-fingerprint = la huella del nodo de demostración
cli-demo-address = la dirección del nodo de demostración
cli-demo-at = Nodo de demostración (simulado) en { $url }
cli-demo-keeps-running = El nodo de demostración sigue en marcha hasta Ctrl-C. Desde otro terminal, compruébelo con doctor:
cli-demo-or-chat = o converse con el asistente sobre un nodo de demostración propio: cargo run -p aiui-cli -- chat --demo
cli-waiting-ctrl-c = al esperar Ctrl-C

## doctor --contract.

cli-contract-intro = Contrato  cada método de lectura de la tabla de adaptadores de AIUI, llamado una vez (solo lecturas: nada cambia en el nodo)
cli-contract-summary = Resumen   { $exact } coinciden, { $drifted } legibles con diferencias, { $unreadable } ilegibles, { $silent } sin respuesta
cli-contract-send = Para corregir AIUI para este nodo, envíe toda esta salida a sus desarrolladores (o edite node/adapter.rs). Las muestras están filtradas: los secretos se ocultan y las direcciones LAN y onion se sustituyen.
cli-contract-failed = { $failed } de { $total } métodos de lectura no se pudieron usar como AIUI espera
cli-contract-documented = doc
cli-contract-name-only = nombre
cli-contract-assumed = supuesto
cli-contract-app = {" "}(id { $app })
cli-contract-not-called = {"  "}respuesta no llamado: { $why }
cli-contract-no-answer = {"  "}respuesta no: { $why }
cli-contract-answered = {"  "}respuesta sí
cli-contract-unreadable = {"  "}forma     ILEGIBLE: { $reason }
cli-contract-sample = {"  "}muestra   { $sample }
cli-contract-entries = {" "}({ $count } entradas)
cli-contract-shape = {"  "}forma     { $verdict }{ $entries }
cli-contract-matches = coincide
cli-contract-matches-partly = coincide, sin sus campos opcionales
cli-contract-drift = legible, con diferencias
cli-contract-missing = {"  "}faltan    { $fields }
cli-contract-not-sent = {"  "}no enviados { $fields }
cli-contract-extra = {"  "}de más    { $fields }
cli-contract-renamed = {"  "}renombrados { $fields }
cli-contract-retyped = {"  "}tipo      { $fields }
cli-contract-skipped = {"  "}omitidos  { $fields }
cli-contract-field = { $field } (en { $n } de { $total })

## chat.

cli-chat-title = Chat en el terminal
cli-chat-resuming =
    { $count ->
        [one] Se reanuda «{ $title }» (1 mensaje).
       *[other] Se reanuda «{ $title }» ({ $count } mensajes).
    }
cli-chat-started = Conversación { $id }. Escriba una pregunta; /list muestra las conversaciones; /quit o Ctrl-D termina.
cli-chat-you = usted>
cli-chat-list-item =
    { $count ->
        [one] {"  "}{ $id }  { $title }  (1 mensaje)
       *[other] {"  "}{ $id }  { $title }  ({ $count } mensajes)
    }
cli-chat-choose = {"  "}(escriba un número para elegir)
cli-chat-notice = {"  "}nota: { $notice }
cli-chat-approve = ¿Aprobar? [s/N]
cli-chat-not-decided = {"  "}la decisión no se tomó: { $error }
cli-chat-turn-cost = {"  "}(este turno costó { $cost })
cli-chat-done = {"  "}(respondió { $backend }) · coste { $cost }
cli-chat-turn-stopped = el turno terminó de forma inesperada
cli-chat-need-node = indique --node URL o --demo
cli-chat-still-no-backend = Sigue sin haber ningún backend del asistente disponible (los motivos están arriba).
cli-chat-enable-a-leg = Para activar uno: inicie Ollama en este equipo con un modelo que sepa usar herramientas (`ollama pull qwen2.5:7b`), o guarde una clave de API de Claude en el llavero del sistema (`secret-tool store --label=AIUI service aiui username anthropic-api-key`) y dé a Claude un presupuesto (`aiui-cli budget set --claude-usd 5 --claude-period monthly`); después vuelva a escribir su pregunta.

## Lo que el chat dibuja para las respuestas del nodo y para una confirmación.

cli-col-app = app
cli-col-state = estado
cli-col-version = versión
cli-col-note = nota
cli-col-health = salud
cli-col-mint = mint
cli-col-unit = unidad
cli-col-trusted = de confianza
cli-exit-code = salida { $code }
cli-log-tail = ── últimas { $count } líneas del registro de { $app } ──
cli-bitcoin-sync = Bitcoin ({ $chain }) bloque { $blocks } de { $headers } · { $progress } verificado · { $state }
cli-sync-syncing = sincronizando
cli-sync-synced = sincronizado
cli-sync-not-synced = sin sincronizar
cli-sync-unknown = estado de sincronización desconocido
cli-lightning = Lightning { $alias } · { $channels } canales activos · { $peers } pares · { $state } en el bloque { $height }
cli-system = CPU { $cpu } · memoria { $memory } de { $memory_total } · disco { $disk } de { $disk_total } · en marcha { $uptime }
cli-hours-short = { $hours } h
cli-gib = { $value } GiB
cli-trusted-yes = sí
cli-trusted-no = no
cli-trusted-unknown = sin indicar
cli-confirm = ⚠ Confirmar: { $summary }
cli-confirm-method = {"  "}método   { $method }
cli-confirm-risk = {"  "}riesgo   { $risk }
cli-confirm-proposed = {"  "}propuesto por { $backend }

## screen.

cli-screen-report = screen: { $report }
cli-screen-blocked = screen: BLOQUEADO ({ $kinds }): { $message }
cli-screen-nothing-sent = no se enviaría nada

## providers.

cli-providers-endpoint = {"  "}endpoint  { $endpoint }
cli-providers-mint = {"  "}mint      { $mint }
cli-providers-model = {"  "}modelo    { $model }: { $cap } sats por { $tokens } tokens de respuesta + { $prompt } sats por cada 1000 caracteres de la petición
cli-providers-none = No se encontró ningún proveedor.
cli-providers-none-serving = No se encontró ningún proveedor que sirva `{ $model }`.
cli-providers-discovery = Búsqueda:

## budget.

cli-budget-nothing-to-change = nada que cambiar: indique --allowance, --period, --mint o --no-mints (Routstr, sats), o --claude-usd o --claude-period (Claude, dólares estadounidenses)
cli-budget-saved = Presupuesto guardado.
cli-budget-claude-saved = Presupuesto de Claude guardado.
cli-budget-price-saved = Precio guardado para { $model }: se usa a partir de la próxima petición.
cli-budget-bad-claude-usd = --claude-usd: { $why }; no se cambió nada
cli-budget-no-conversations = nota: no se pudieron leer las conversaciones ({ $error }); las respuestas gratuitas no se cuentan
cli-budget-routstr = Routstr (sats):
cli-budget-routstr-80 = Se ha gastado el 80 % o más del presupuesto de Routstr en este periodo.
cli-budget-free = Este mes: { $local } respuestas locales y { $builtin } integradas, a 0 US$.
cli-budget-claude = Claude (dólares estadounidenses):
cli-budget-claude-off = presupuesto: 0 US$ (Claude no se usa; fije uno con --claude-usd IMPORTE)
cli-budget-claude-spent-off = gastado:     { $spent } (reservado { $reserved }) en este periodo
cli-budget-allowance = presupuesto: { $allowance } ({ $period })
cli-budget-spent = gastado:     { $spent }
cli-budget-reserved = reservado:   { $reserved }
cli-budget-remaining = restante:    { $remaining }
cli-budget-renews = se renueva:  { $renews }
cli-budget-claude-80 = Se ha gastado el 80 % o más del presupuesto de Claude en este periodo.
cli-budget-sats-allowance = presupuesto: { $sats } sats ({ $period })
cli-budget-sats-spent = gastado:     { $sats } sats
cli-budget-sats-reserved = reservado:   { $sats } sats
cli-budget-sats-remaining = restante:    { $sats } sats
cli-budget-mints-none = mints aceptadas: ninguna (la ayuda de pago está desactivada)
cli-budget-mints = mints aceptadas:
cli-budget-80-sent = El aviso del 80 % se envió en este periodo.
cli-renews-never = nunca (un presupuesto único)
cli-renews-in-days =
    { $count ->
        [one] en 1 día
       *[other] en { $count } días
    }
cli-renews-in-hours =
    { $count ->
        [one] en 1 hora
       *[other] en { $count } horas
    }
cli-renews-in-minutes =
    { $count ->
        [one] en 1 minuto
       *[other] en { $count } minutos
    }
cli-prices-header = Precios de Claude, dólares estadounidenses por millón de tokens (incluidos: tomados el { $date } de { $source }):
cli-prices-col-model = modelo
cli-prices-col-input = entrada
cli-prices-col-output = salida
cli-prices-col-cache-write = escr. caché
cli-prices-col-cache-read = lect. caché
cli-prices-mine = {"  "}(fijado por usted)
cli-prices-footer = Un modelo que no aparece aquí nunca se usa para peticiones de pago.

## wallet.

cli-wallet-nothing-to-back-up = todavía no hay ningún monedero en { $dir }: no hay nada que respaldar
cli-wallet-opening = al abrir el monedero
cli-wallet-no-mints = Todavía no hay mints: cargue el monedero con `aiui-cli wallet invoice` o `wallet receive`.
cli-wallet-at-mint = { $sats } sats  { $mint }
cli-wallet-total = { $sats } sats  en total
cli-wallet-in-flight = { $sats } sats  en curso (pagos, retiradas y tokens aún sin liquidar)
cli-wallet-spent = { $sats } sats  gastados, { $fees } sats en comisiones de mints, { $received } sats recibidos en total
cli-wallet-withdrawn = { $sats } sats  retirados o enviados, { $fees } sats en sus comisiones
cli-wallet-not-accepted = ! { $mint } no está entre las mints aceptadas: sus { $sats } sats no se gastan en proveedores y se pueden retirar
cli-wallet-did-not-count = no contaba
cli-wallet-kept-aside = ! un token devuelto por { $provider } se apartó, no se recibió: { $reason } (`aiui-cli wallet set-aside`)
cli-wallet-ledger-off = aviso: las cuentas no cuadran; ejecute `aiui-cli wallet reconcile`
cli-wallet-reading-token = al leer el token de la entrada estándar
cli-wallet-no-token = no hay ningún token en la entrada estándar: pegue un token cashuA…/cashuB…, p. ej. `aiui-cli wallet receive < token.txt`
cli-wallet-received = Recibidos { $sats } sats.
cli-wallet-pay-then-reconcile = Pague esta factura; `aiui-cli wallet reconcile` acuña el ecash cuando esté pagada.
cli-wallet-waiting = Se espera hasta { $secs } s a que se pague la factura…
cli-wallet-minted = Acuñados { $sats } sats en { $mint }.
cli-reconcile-checked = comprobados { $count } pago(s) en curso
cli-reconcile-reclaimed = recuperados { $count } token(s), { $sats } sats
cli-reconcile-returned = recibidos { $count } token(s) de cambio/reembolso guardados
cli-reconcile-refunded = { $count } reembolsados por el endpoint de reembolso del proveedor
cli-reconcile-waiting = { $count } gastados aún sin cambio: se preguntará de nuevo al proveedor más tarde
cli-reconcile-written-off = { $count } dados por gastados tras todos los intentos
cli-reconcile-unreachable = { $count } no se pudieron comprobar (mint inalcanzable), se conservan
cli-reconcile-live = { $count } pertenecen a una petición aún en marcha, no se tocan
cli-reconcile-settled = { $settled } reserva(s) liquidadas desde las cuentas, { $released } liberadas
cli-reconcile-minted = acuñados { $sats } sats de facturas pagadas
cli-reconcile-elsewhere = otro proceso de AIUI está conciliando este monedero ahora mismo; aquí no se hizo nada
cli-withdraw-invoice = una factura Lightning (lnbc…)
cli-withdraw = Retirar { $sats } sats de { $mint }
cli-withdraw-fee-reserve = {"  "}reserva de comisión de la mint: hasta { $sats } sats (lo que no use vuelve)
cli-withdraw-input-fee = {"  "}comisión de entrada de la mint: { $sats } sats
cli-withdraw-most = {"  "}lo máximo que puede costar: { $sats } sats
cli-withdraw-question = ¿Pagar esta factura?
cli-withdraw-not-paid = no pagado: nada salió del monedero
cli-withdraw-paid = Pagados { $sats } sats (comisión { $fee } sats). Retirada { $id }.
cli-withdraw-pending = La mint sigue pagando (retirada { $id }). Queda en curso; `aiui-cli wallet reconcile` la liquida, pagada o fallida.
cli-send-token = Un token de { $sats } sats de { $mint } (se muestra una sola vez: cópielo ahora):
cli-send-take-back = Su id es { $id }: `aiui-cli wallet take-back { $id }` lo recupera mientras nadie lo haya cobrado.
cli-take-back-returned = Recuperado: { $sats } sats vuelven a estar en el monedero.
cli-take-back-claimed = Demasiado tarde: el otro monedero ya lo había cobrado; sus { $sats } sats cuentan como enviados.
cli-take-back-in-part = El otro monedero ya había cobrado una parte: { $claimed } sats cuentan como enviados. El resto sin cobrar se recuperó: { $sats } sats vuelven a estar en el monedero.
cli-take-back-rest-too-small = El otro monedero ya había cobrado una parte: { $claimed } sats cuentan como enviados. Los { $rest } sats que quedan no valen más que la comisión de la mint por recuperarlos, así que se quedan con el token y cuentan como esa comisión.
cli-sent-none = Todavía no se ha retirado ni enviado nada.
cli-sent-withdrawal = retirada
cli-sent-token = token
cli-sent-keyset-move = cambio de keyset
cli-sent-unclaimed = enviado, aún sin cobrar
cli-sent-in-flight = en curso
cli-sent-fee = {" "}(comisión { $sats } sats)
cli-sent-row = { $id }  { $time }  { $what } { $sats } sats  { $state }{ $fee }  { $mint }
cli-backup-terminal-only = las palabras de respaldo solo se muestran en un terminal (la salida estándar no lo es); añada --force para imprimirlas igualmente, p. ej. en un archivo que guarde en lugar seguro
cli-backup-question = ¿Mostrar las palabras de respaldo del monedero? Quien las vea puede llevarse sus sats.
cli-backup-not-shown = no se mostraron
cli-backup-written-down = ¿Ha anotado las palabras y las mints?
cli-backup-confirmed = Respaldo confirmado.
cli-backup-words = Las palabras de respaldo del monedero (guárdelas sin conexión; quien las tenga puede llevarse los sats):
cli-backup-mints = Las mints que ha usado (una restauración pregunta a cada una):
cli-backup-mints-qr = Las mints como código QR:
cli-no-qr = (sin código QR: { $error })
cli-notices-none = No hay avisos de dinero.
cli-notice-ago = hace { $age }
cli-age-seconds = { $count } s
cli-age-minutes = { $count } min
cli-age-hours = { $count } h
cli-age-days = { $count } días
cli-set-aside-none = No hay ningún token apartado.
cli-set-aside-row = { $id }  de { $provider }: { $reason }
cli-set-aside-needs-yes = recibir un token apartado contacta con la mint que nombra, que el proveedor puede haber elegido; vuelva a ejecutar con --yes para recibirlo
cli-set-aside-received = Recibidos { $sats } sats de { $mint }.
cli-set-aside-discarded = Se descartó el token apartado para el pago { $payment }.
cli-set-aside-was-received = Una recepción anterior ya había metido este token en el monedero: sus { $sats } sats se cuentan ahora en lugar de descartarse.
cli-restore-prompt = Escriba o pegue las palabras de respaldo y luego las líneas de mints del respaldo; termine con una línea vacía:
cli-restore-reading = al leer las palabras de respaldo de la entrada estándar
cli-restore-pending = {"  "}(y { $sats } sats que se están gastando en la mint)
cli-restore-total = { $sats } sats  restaurados; las palabras vuelven a estar en el llavero
cli-paste = Pegue { $what } y pulse Intro:
cli-stdin-empty = no hay nada en la entrada estándar: pegue { $what }, p. ej. `aiui-cli wallet pay-invoice < invoice.txt`
cli-no-terminal-to-ask = { $question } No hay ningún terminal en el que preguntar: vuelva a ejecutar con --yes o en un terminal

## serve.

cli-serve-no-language = AIUI no tiene el idioma `{ $tag }`: use en, de o es
cli-totp-add = Añada esto a su aplicación de autenticación (se muestra una sola vez; quien lo tenga puede aprobar):
cli-passphrase-new =
    { $kind ->
        [lan] Nueva frase de acceso LAN:
       *[approval] Nueva frase de aprobación:
    }
cli-passphrase-again =
    { $kind ->
        [lan] La frase de acceso LAN otra vez:
       *[approval] La frase de aprobación otra vez:
    }
cli-passphrase-differ = las dos entradas no coinciden; no se cambió nada
cli-passphrase-set =
    { $kind ->
        [lan] La frase de acceso LAN está fijada (un hash argon2id en { $file }).
       *[approval] La frase de aprobación está fijada (un hash argon2id en { $file }).
    }
cli-passphrase-live = Un `aiui-cli serve` en marcha la usa en un segundo y cierra las sesiones iniciadas con la anterior.
cli-passphrase-approval-too = Fije también la frase de aprobación: aiui-cli serve set-approval-password
cli-pair-not-https = { $url } no es una dirección https: el servicio fija el certificado del nodo y le envía la contraseña del nodo, así que solo se empareja por https
cli-pair-login = al iniciar sesión en el nodo con esa contraseña; no se escribió nada
cli-pair-paired = Emparejado con { $url } (certificado SHA-256 { $pin }, fijado).
cli-pair-wrote = Escritos { $env } y { $password } (0600).
cli-pair-start = Inicie el servicio: systemctl start aiui (uno en marcha: systemctl restart aiui)
cli-pair-remaining = El servicio arranca cuando también esto esté hecho:
cli-pair-no-password = no se indicó ninguna contraseña del nodo; no se escribió nada
cli-sessions-no-list = no hay lista de sesiones en { $dir }: ¿se está ejecutando `aiui-cli serve` con este directorio de datos?
cli-sessions-old = nota: la lista tiene { $secs } s; puede que el servicio no esté en marcha.
cli-sessions-nobody = No hay nadie con la sesión iniciada.
cli-sessions-row = { $id }  { $origin }  desde { $address }  inició sesión { $signed_in }  última actividad { $last_active }
cli-sessions-unknown = no hay ninguna sesión con el id { $ids } (vea `aiui-cli serve sessions`); no se cerró nada
cli-sessions-stale = la lista de sesiones tiene { $secs } s: el servicio no parece estar en marcha; no se cerró nada
cli-sessions-ended-all = Todas las sesiones cerradas; esos navegadores deben volver a iniciar sesión.
cli-sessions-ended =
    { $count ->
        [one] 1 sesión cerrada; ese navegador debe volver a iniciar sesión.
       *[other] { $count } sesiones cerradas; esos navegadores deben volver a iniciar sesión.
    }
cli-sessions-not-picked-up = el servicio no recogió la petición en 5 s (¿se ejecuta con este directorio de datos?); no se cerró nada

## --help: los encabezados y opciones propios de clap.
cli-help-usage = Uso:
cli-help-commands = Órdenes
cli-help-options = Opciones
cli-help-arguments = Argumentos
cli-help-help = Mostrar la ayuda (un resumen con -h, todo con --help)
cli-help-version = Mostrar la versión
cli-help-subcommand = Mostrar esta ayuda o la de la orden indicada
cli-help-env = variable de entorno: { $name }
cli-help-default = predeterminado: { $value }
cli-help-possible = valores posibles: { $values }

## --help: la ayuda de cada orden y, como atributos, la de cada argumento.
help-aiui-cli = AIUI, el asistente para nodos Archipelago, desde la terminal
help-aiui-cli_doctor = Comprobar que AIUI llega a un nodo y puede iniciar sesión, y resumir su estado. Con --contract, comparar en su lugar la respuesta de cada método de lectura con la tabla del adaptador de AIUI
    .long =
        Comprobar que AIUI llega a un nodo y puede iniciar sesión, y resumir su estado. Con --contract, comparar en su lugar la respuesta de cada método de lectura con la tabla del adaptador de AIUI.

        La contraseña se lee de AIUI_NODE_PASSWORD o se pide en la terminal; nunca es un argumento, así que no aparece en `ps`. Si el nodo pide un código TOTP, se lee de AIUI_NODE_TOTP o se pide.
    .arg-node = La dirección del nodo, p. ej. https://archipelago.local
    .arg-fingerprint = La huella SHA-256 del certificado del nodo que acepta (solo https). Sin ella, doctor muestra la huella y le pide que la confirme
    .arg-contract = Comparar el nodo con la tabla del adaptador de AIUI: llamar una vez a cada método de lectura e informar, por método, si respondió, si su forma coincidió y qué campos faltaban, sobraban, cambiaron de nombre o eran de otro tipo, con una muestra ocultada. Solo lee; en el nodo no cambia nada. Envíe la salida para corregir el adaptador
    .arg-app = La aplicación por la que preguntan `container-status` y `container-logs` en `--contract` (predeterminada: la primera en ejecución)
help-aiui-cli_demo = Iniciar un nodo simulado en esta máquina y ejecutar `doctor` contra él: el vistazo más rápido a AIUI
    .arg-once = Parar tras las comprobaciones en lugar de mantener el nodo de demostración en marcha
help-aiui-cli_chat = Hablar con el asistente sobre un nodo en esta terminal. Las acciones se confirman aquí, por defecto No
    .arg-node = La dirección del nodo. Omítala con --demo
    .arg-fingerprint = La huella SHA-256 aceptada del certificado del nodo (https)
    .arg-demo = Hablar con un nodo simulado iniciado en esta máquina en lugar de uno real
    .arg-ollama = Dónde escucha el Ollama local
    .arg-ollama_model = El modelo de Ollama que se usa (predeterminado: el primero instalado que admite herramientas)
    .arg-claude_url = La URL base de la API de Anthropic (la clave en sí viene del llavero del sistema)
    .arg-routstr_model = El modelo que se pide a los proveedores de Routstr cuando la asignación es mayor que cero (`aiui-cli budget set`)
    .arg-relays = Un relé de Nostr en el que buscar proveedores de Routstr; repítalo para varios (predeterminado: los relés del SDK de Routstr)
    .arg-any_provider = Usar también proveedores que nadie revisó (predeterminado: solo los revisados)
    .arg-reviewer = El revisor cuyas etiquetas de tipo 38425 deciden qué proveedores cuentan como revisados (npub o clave pública en hex)
    .arg-tor = Un proxy SOCKS5 de Tor; los relés y los proveedores onion se alcanzan entonces a través de él
    .arg-data_dir = Dónde se guardan las conversaciones y el registro de auditoría (predeterminado: $AIUI_DATA_DIR o ~/.local/share/aiui)
    .arg-no_builtin = No responder nunca con el modelo pequeño integrado (SmolLM2-135M), la última pata. Su archivo se busca en $AIUI_MODEL_DIR, si no en models/ del directorio de datos (`bash scripts/setup` lo deja ahí)
    .arg-conversation = Continuar esta conversación en lugar de empezar una nueva
help-aiui-cli_screen = Leer texto (o un cuerpo de solicitud JSON) de la entrada estándar e imprimir exactamente lo que recibiría un backend en la nube, y luego qué se ocultó o bloqueó y por qué. Termina con un código de error cuando se bloquearía
    .arg-as_tool_result = Filtrar texto plano como resultado de una herramienta (ocultado) en lugar de como su propio mensaje (bloqueado si contiene un secreto)
help-aiui-cli_providers = Listar los proveedores de Routstr encontrados en Nostr, con sus puntos de acceso, mints y precio por solicitud
    .arg-model = Mostrar solo los proveedores que sirven este modelo, con su precio
    .arg-verbose = Mostrar cada aviso de los relés y cada evento que sirvieron, con por qué se usó o se rechazó
    .arg-relays = Un relé de Nostr en el que buscar proveedores de Routstr; repítalo para varios (predeterminado: los relés del SDK de Routstr)
    .arg-any_provider = Usar también proveedores que nadie revisó (predeterminado: solo los revisados)
    .arg-reviewer = El revisor cuyas etiquetas de tipo 38425 deciden qué proveedores cuentan como revisados (npub o clave pública en hex)
    .arg-tor = Un proxy SOCKS5 de Tor; los relés y los proveedores onion se alcanzan entonces a través de él
help-aiui-cli_budget = Mostrar o cambiar la asignación del asistente (la API del operador; el chat nunca puede cambiarla)
    .arg-data_dir = Dónde guarda AIUI sus archivos (predeterminado: $AIUI_DATA_DIR o ~/.local/share/aiui)
help-aiui-cli_budget_get = Mostrar ambas asignaciones (lo gastado y reservado en este periodo, y lo que queda) y las respuestas gratuitas de este mes
    .arg-json = Imprimir JSON en lugar de texto
help-aiui-cli_budget_set = Cambiar cualquiera de las asignaciones (los sats de Routstr, con su periodo y sus mints aceptadas; los dólares de Claude, con su periodo). Las opciones no indicadas quedan como están
    .arg-allowance = La asignación en sats por periodo (0 desactiva la ayuda de pago)
    .arg-period = never, daily, weekly o monthly; un nuevo calendario empieza ahora
    .arg-mints = Una dirección de mint aceptada; repítala para varias. Sustituye la lista
    .arg-no_mints = No aceptar ninguna mint (la ayuda de pago sigue desactivada)
    .arg-claude_usd = La asignación de Claude en dólares estadounidenses por periodo, p. ej. 5 o 2,50 (0 desactiva Claude)
    .arg-claude_period = El periodo de Claude: never, daily, weekly o monthly; un nuevo calendario empieza ahora
help-aiui-cli_budget_price = Fijar su propio precio para un modelo de Claude, en dólares estadounidenses por millón de tokens; sustituye al incluido
    .arg-model = El modelo, como lo llama Anthropic (p. ej. claude-sonnet-4-5)
    .arg-input = Dólares estadounidenses por millón de tokens de entrada
    .arg-output = Dólares estadounidenses por millón de tokens de salida
    .arg-cache_write = Una escritura en la caché de prompts de 5 minutos
    .arg-cache_read = Un acierto en la caché de prompts
help-aiui-cli_budget_prices = Listar los precios con que se cobran las respuestas de Claude, con cuándo y de dónde se tomaron los incluidos
help-aiui-cli_wallet = La cartera Cashu del asistente: saldo, recibir un token, financiar por Lightning, conciliar pagos en curso
    .arg-data_dir = Dónde guarda AIUI sus archivos (predeterminado: $AIUI_DATA_DIR o ~/.local/share/aiui)
    .arg-tor = Un proxy SOCKS5 de Tor (p. ej. 127.0.0.1:9050) para cada solicitud a una mint
help-aiui-cli_wallet_balance = El saldo en cada mint y lo que está en curso hacia los proveedores
help-aiui-cli_wallet_receive = Recibir un token Cashu leído de la entrada estándar
help-aiui-cli_wallet_invoice = Pedir una factura Lightning a una mint, esperar a que se pague y acuñar el ecash
    .arg-mint = La mint que se financia
    .arg-amount = Cuántos sats
    .arg-wait = Cuánto se espera el pago, en segundos (0: imprimir la factura y salir; `reconcile` la acuña después)
help-aiui-cli_wallet_reconcile = Liquidar cada pago en curso que no retiene ninguna solicitud en marcha: recuperar los tokens no gastados, pedir los gastados al punto de reembolso del proveedor (y darlos por perdidos tras cada intento), acuñar las facturas pagadas. Los puntos de reembolso se alcanzan como los alcanza la aplicación: por `--tor` o por `routstr.tor_socks` de la aplicación si está fijado
help-aiui-cli_wallet_pay-invoice = Retirar a Lightning: pagar una factura BOLT11 leída de la entrada estándar, tras mostrar lo que cuesta
    .arg-mint = La mint desde la que se paga (predeterminada: la que más tiene)
    .arg-everything = Retirar todo lo de la mint, tras sus comisiones (la factura no debe indicar importe)
    .arg-yes = Pagar sin preguntar (necesario cuando la entrada estándar no es una terminal)
help-aiui-cli_wallet_send = Crear un token para otra cartera, mostrado una vez con un código QR
    .arg-mint = La mint de la que sale
    .arg-amount = Lo que recibe la otra cartera, en sats
help-aiui-cli_wallet_take-back = Recuperar un token enviado que nadie ha cobrado aún
    .arg-id = El identificador que muestra `wallet sent`
help-aiui-cli_wallet_sent = Retiros y tokens enviados, los más recientes primero, con su estado
help-aiui-cli_wallet_backup = Mostrar las palabras de respaldo (24) y las mints (solo en una terminal, tras su confirmación)
    .arg-force = Imprimir aunque la salida estándar no sea una terminal (p. ej. a un archivo que luego guarde a salvo)
help-aiui-cli_wallet_restore = Restaurar la cartera desde sus palabras de respaldo (leídas de la entrada estándar, con las líneas de mint del respaldo) en un directorio de datos que no tiene ecash
    .arg-mints = Una mint desde la que restaurar, además de las leídas con las palabras
    .arg-replace_other_words = Sustituir otras palabras que tenga el llavero (anótelas antes: pueden proteger sats)
help-aiui-cli_wallet_notices = Cada aviso de dinero guardado para el propietario (pérdidas, tokens devueltos que no contaron), los más antiguos primero
help-aiui-cli_wallet_set-aside = Tokens que un proveedor devolvió, que no contaron y se apartaron sin recibirse
help-aiui-cli_wallet_set-aside_list = Listarlos con sus identificadores de pago (lo predeterminado)
help-aiui-cli_wallet_set-aside_receive = Recibir uno después de todo. Esto contacta con la mint que indica el token, que puede haber elegido el proveedor
    .arg-payment = El identificador de pago que muestra `set-aside list`
    .arg-yes = Confirma que se puede contactar con la mint que indica
help-aiui-cli_wallet_set-aside_discard = Descartar uno para siempre; las sumas no cambian
    .arg-payment = El identificador de pago que muestra `set-aside list`
help-aiui-cli_serve = Ofrecer el asistente a la LAN: el chat en un puerto, las aprobaciones (solo el propietario) en otro. Fije primero las frases de contraseña: `serve set-password`, `serve set-approval-password`
    .arg-node = La dirección del nodo. Omítala con --demo
    .arg-fingerprint = La huella SHA-256 aceptada del certificado del nodo (https)
    .arg-demo = Hablar con un nodo simulado iniciado en esta máquina en lugar de uno real
    .arg-ollama = Dónde escucha el Ollama local
    .arg-ollama_model = El modelo de Ollama que se usa (predeterminado: el primero instalado que admite herramientas)
    .arg-claude_url = La URL base de la API de Anthropic (la clave en sí viene del llavero del sistema)
    .arg-routstr_model = El modelo que se pide a los proveedores de Routstr cuando la asignación es mayor que cero (`aiui-cli budget set`)
    .arg-relays = Un relé de Nostr en el que buscar proveedores de Routstr; repítalo para varios (predeterminado: los relés del SDK de Routstr)
    .arg-any_provider = Usar también proveedores que nadie revisó (predeterminado: solo los revisados)
    .arg-reviewer = El revisor cuyas etiquetas de tipo 38425 deciden qué proveedores cuentan como revisados (npub o clave pública en hex)
    .arg-tor = Un proxy SOCKS5 de Tor; los relés y los proveedores onion se alcanzan entonces a través de él
    .arg-data_dir = Dónde se guardan las conversaciones y el registro de auditoría (predeterminado: $AIUI_DATA_DIR o ~/.local/share/aiui)
    .arg-no_builtin = No responder nunca con el modelo pequeño integrado (SmolLM2-135M), la última pata. Su archivo se busca en $AIUI_MODEL_DIR, si no en models/ del directorio de datos (`bash scripts/setup` lo deja ahí)
    .arg-listen = Dónde escucha el origen del chat (usuarios de la LAN; el nginx del nodo lo reenvía aquí)
    .arg-trusted_listen = Dónde escucha el origen de confianza (las aprobaciones del propietario); publíquelo con su propio nombre de host o puerto
    .arg-base_path = La ruta bajo la que se sirven ambos orígenes tras un proxy inverso, p. ej. /aiui/
    .arg-trusted_url = La dirección del origen de confianza tal como la alcanzan los navegadores de la LAN (para el enlace de la página del chat), p. ej. https://node.local:5181/aiui/. Predeterminada: el nombre de host de la página del chat en el puerto de confianza (tras un proxy que escucha en otro puerto que el servicio, fíjela)
    .arg-ui_dir = El directorio ui/ que se sirve (predeterminado: ui/ del árbol de fuentes al ejecutarse desde una compilación, si no /usr/share/aiui/ui del paquete)
    .arg-secure_cookies = Los navegadores llegan al servicio por https (a través del proxy): marcar las cookies como Secure
    .arg-trust_proxy = Confiar en X-Forwarded-For / X-Real-IP / X-Forwarded-Host de un proxy en esta máquina (el nginx del nodo)
    .arg-allowed_hosts = Un nombre de host al que responde el origen del chat (repítalo para más). Las direcciones IP y localhost funcionan siempre; cualquier otro nombre recibe 421, así que una página con un nombre ajeno que el DNS apunte aquí no alcanza nada
    .arg-trusted_hosts = Un nombre de host al que responde el origen de confianza (repítalo para más); el primero es también adonde enlaza la página del chat para las aprobaciones, salvo que --trusted-url diga otra cosa
    .arg-approval_needs_both = Iniciar sesión en el origen de confianza requiere la frase de aprobación y un código TOTP, ambos
    .arg-kiosk_socket = Un socket Unix para el quiosco del nodo (`aiui --kiosk`), para aprobar solicitudes de la LAN en su propia pantalla. Su directorio debe existir; el socket se crea con 0660, así que el usuario del quiosco lo alcanza a través del grupo
    .arg-lan_approver = Dónde se aprueban las solicitudes de la LAN: trusted (el origen de confianza), kiosk (la pantalla del nodo; el origen de confianza entonces solo puede denegar) o both. kiosk y both requieren --kiosk-socket
    .arg-language = El idioma de las páginas de la LAN, las respuestas y las confirmaciones: en, de o es. Predeterminado: las páginas siguen el de cada navegador (su Accept-Language), las respuestas y confirmaciones el del entorno (LANG)
help-aiui-cli_serve_set-password = Fijar la frase de contraseña de la LAN con la que inician sesión los usuarios de la LAN (leída de la terminal o una línea de la entrada estándar)
    .arg-data_dir = El directorio de datos que usa el servicio (predeterminado: $AIUI_DATA_DIR o ~/.local/share/aiui)
help-aiui-cli_serve_set-approval-password = Fijar la frase de aprobación del propietario, que el origen de confianza pide en cada aprobación
    .arg-data_dir = El directorio de datos que usa el servicio (predeterminado: $AIUI_DATA_DIR o ~/.local/share/aiui)
help-aiui-cli_serve_set-approval-totp = Crear un secreto TOTP para las aprobaciones (en lugar de la frase de aprobación o además de ella); imprime una vez la URL otpauth:// para añadirla a una aplicación de autenticación
    .arg-data_dir = El directorio de datos que usa el servicio (predeterminado: $AIUI_DATA_DIR o ~/.local/share/aiui)
help-aiui-cli_serve_sessions = Listar las sesiones del servicio en marcha (ambos orígenes) o terminar algunas: `sessions revoke <ID>…` o `--all`
    .arg-data_dir = El directorio de datos que usa el servicio (predeterminado: $AIUI_DATA_DIR o ~/.local/share/aiui)
help-aiui-cli_serve_sessions_revoke = Terminar las sesiones con estos identificadores (como los lista `serve sessions`), o todas con --all
    .arg-ids = El identificador de una sesión, como lo lista `serve sessions`
    .arg-all = Terminar todas las sesiones
help-aiui-cli_serve_pair = Emparejar el servicio instalado (aiui.service) con su nodo: comprobar el certificado y la contraseña del nodo (leída de la terminal sin eco, o una línea de la entrada estándar), y escribir node.env y node-password (0600) en /etc/aiui. Ejecútelo como root; vuelva a ejecutarlo para cambiar el nodo o su contraseña
    .arg-node = La dirección https del nodo tal como la alcanza el servicio, p. ej. https://127.0.0.1/
    .arg-fingerprint = La huella SHA-256 del certificado del nodo que acepta. Sin ella, pair muestra la huella que presenta el nodo y le pide que la confirme
    .arg-etc_dir = Dónde se guarda la configuración del servicio
    .arg-data_dir = El directorio de datos del servicio, que solo se lee para decir qué pasos de configuración faltan
