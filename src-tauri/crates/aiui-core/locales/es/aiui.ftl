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
confirm-declined = Usted rechazó: { $summary }. No se cambió nada.
confirm-expired = Nadie respondió a la confirmación a tiempo: { $summary }. No se cambió nada.

## El modelo pequeño integrado: cada palabra la escribe el host, a partir de los resultados de las herramientas.

builtin-notice = Las respuestas vienen ahora del modelo pequeño integrado (SmolLM2-135M), pensado para probar AIUI: puede listar, consultar, iniciar, detener, reiniciar, instalar y desinstalar apps y mostrar el estado del nodo, pero no puede mantener una conversación. Para un asistente de verdad, inicie Ollama en este equipo con un modelo que sepa usar herramientas (`ollama pull qwen2.5:7b`) o añada una clave de API de Claude y un presupuesto para Claude en la ventana de ajustes de confianza.
builtin-capabilities = Soy el modelo pequeño integrado (SmolLM2-135M), así que solo atiendo peticiones cotidianas del nodo: qué está en ejecución; el estado o los registros de una app; iniciar, detener, reiniciar, instalar o desinstalar una app (p. ej., «Reinicia LND»); el progreso de sincronización de Bitcoin; los canales del nodo Lightning; CPU, memoria y disco; y las mints de Cashu aceptadas. Para todo lo demás, inicie Ollama con un modelo que sepa usar herramientas (`ollama pull qwen2.5:7b`) o añada una clave de API de Claude y un presupuesto para Claude en la ventana de ajustes de confianza.
builtin-the-app = la app
builtin-understood-list = Listando sus apps.
builtin-understood-status = Consultando el estado de { $app }.
builtin-understood-logs = Leyendo las últimas líneas de registro de { $app }.
builtin-understood-start = Iniciando { $app }: esperando su aprobación.
builtin-understood-stop = Deteniendo { $app }: esperando su aprobación.
builtin-understood-restart = Reiniciando { $app }: esperando su aprobación.
builtin-understood-install = Instalando { $app }: esperando su aprobación.
builtin-understood-uninstall = Desinstalando { $app }: esperando su aprobación.
builtin-understood-sync = Consultando el progreso de sincronización de Bitcoin.
builtin-understood-lightning = Consultando el nodo Lightning.
builtin-understood-system = Leyendo la CPU, la memoria y el disco del equipo.
builtin-understood-mints = Listando las mints de Cashu aceptadas.
builtin-failed = No funcionó: { $error }
builtin-node-answered = El nodo respondió: { $answer }
builtin-separator = {", "}
builtin-apps-running =
    { $running ->
        [one] { $running } de { $installed } apps instaladas está en ejecución: { $names }.
       *[other] { $running } de { $installed } apps instaladas están en ejecución: { $names }.
    }
builtin-apps-running-none = ninguna
builtin-apps-not-running = Sin ejecutar: { $apps }.
builtin-app-state = { $app }: { $state }.
builtin-app-state-health = { $app }: { $state }, salud: { $health }.
builtin-log-lines =
    { $count ->
        [one] Esta es la última línea de registro de { $app }.
       *[other] Estas son las últimas { $count } líneas de registro de { $app }.
    }
builtin-sync = Bitcoin ({ $chain }) está en el bloque { $blocks }{ $details }.
builtin-sync-headers = {" "}de { $headers } cabeceras
builtin-sync-verified = {", "}{ $percent } % verificado
builtin-sync-initial = {", "}aún en la descarga inicial
builtin-ln-channels =
    { $count ->
        [one] { $count } canal activo
       *[other] { $count } canales activos
    }
builtin-ln-peers =
    { $count ->
        [one] { $count } par
       *[other] { $count } pares
    }
builtin-ln-synced = sincronizado con la cadena
builtin-ln-not-synced = aún sin sincronizar con la cadena
builtin-ln-alias = LND «{ $alias }»
builtin-ln-no-figures = { $node }: el nodo no envió cifras.
builtin-ln-figures = { $node }: { $figures }.
builtin-sys-cpu = CPU { $percent } %
builtin-sys-memory = memoria { $used } de { $total } GB
builtin-sys-disk = disco { $used } de { $total } GB
builtin-sys-temperature = { $degrees } °C
builtin-sys-no-figures = El nodo no envió cifras del sistema.
builtin-sys-figures = { $figures }.
builtin-mints-none = El nodo aún no acepta ninguna mint de Cashu.
builtin-mints =
    { $count ->
        [one] El nodo acepta { $count } mint de Cashu: { $urls }.
       *[other] El nodo acepta { $count } mints de Cashu: { $urls }.
    }
builtin-done =
    Hecho: { $action ->
        [start] inicio
        [stop] detención
        [restart] reinicio
        [install] instalación
        [uninstall] desinstalación
       *[other] { $action }
    } de { $app } aceptado.
builtin-done-now =
    Hecho: { $action ->
        [start] inicio
        [stop] detención
        [restart] reinicio
        [install] instalación
        [uninstall] desinstalación
       *[other] { $action }
    } de { $app } aceptado; estado de `{ $app }` ahora: { $state }.
builtin-did-you-mean = ¿Quiso decir: { $choices }?
builtin-or = {" o "}
builtin-an-app = una app
builtin-which-app = ¿A qué app se refiere? Entendí «{ $action }», pero no encontré ninguna app con ese nombre.
builtin-installed = Instaladas en su nodo: { $apps }.
builtin-none-installed = Aún no hay ninguna app instalada en su nodo.
builtin-no-apps = Su nodo no lista ninguna app.
builtin-installable = Sin instalar, disponibles para instalar: { $apps }.

## Una opción para tocar. Se envía como palabras del propietario y debe entenderse otra vez como la misma
## intención (las pistas de backends/builtin/intents.rs; una prueba lo comprueba).

intent-list = Lista tus apps
intent-status = Muestra el estado de { $app }
intent-logs = Muestra los registros de { $app }
intent-start = Inicia { $app }
intent-stop = Detén { $app }
intent-restart = Reinicia { $app }
intent-install = Instala { $app }
intent-uninstall = Desinstala { $app }
intent-sync = Muestra el progreso de sincronización de Bitcoin
intent-lightning = Muestra los canales y pares del nodo Lightning
intent-system = Muestra la CPU, la memoria y el disco del equipo
intent-mints = Lista las mints de Cashu aceptadas
intent-chat = charlar

## Avisos del bucle del asistente y por qué terminó un turno.

stop-stopped = Usted detuvo la respuesta. Lo escrito hasta ahora se conserva; no se hizo nada más.
notice-paid-stop = Deteniendo: la petición de pago en curso termina primero, para que su pago quede liquidado; no se ejecutará nada de lo que proponga.
notice-paid-off = La ayuda de pago está desactivada en este turno: no se pudo leer la lista de mints del nodo ({ $error }).
stop-step-limit = Me detuve tras { $steps } pasos sin llegar a una respuesta. No se cambió nada más; puede volver a preguntar, quizá de forma más concreta.
notice-redacted =
    { $count ->
        [one] Se ocultó { $count } valor secreto de los resultados de herramientas antes de enviarlos a { $backend }.
       *[other] Se ocultaron { $count } valores secretos de los resultados de herramientas antes de enviarlos a { $backend }.
    }
stop-cut-off = { $backend } se detuvo a mitad de su respuesta ({ $reason }). Lo que escribió se conserva arriba; no se hizo nada más. Vuelva a preguntar para probar el siguiente backend.
notice-leg-failed = { $error }; probando el siguiente backend.
notice-over-allowance = { $message } Probando el siguiente backend.
notice-act-failed = `{ $method }` no informó de éxito: { $error }.
notice-read-failed = No se pudo leer `{ $method }` del nodo: { $error }.
notice-package-list-failed = El estado actual de la app es desconocido: no se pudo leer la lista de paquetes del nodo ({ $error }).
stop-context-too-long = Esta conversación se ha vuelto demasiado larga para el modelo. Empiece una conversación nueva para continuar.
stop-backend-failed = Falló el backend del asistente: { $error }. No se cambió nada; inténtelo de nuevo.
stop-no-backend = Ahora mismo no hay ningún backend del asistente disponible.
stop-enable-a-leg = Para activar uno: inicie Ollama en este equipo con un modelo que sepa usar herramientas (`ollama pull qwen2.5:7b`) o añada una clave de API de Claude y un presupuesto para Claude en la ventana de ajustes de confianza.
mark-cut-off = {"["}Cortado: el backend dejó de responder aquí.]
mark-stopped = {"["}Detenido por usted aquí.]

## Por qué no se pagó un paso de pago y por qué se pasó por alto a Claude.

budget-top-up = El propietario puede aumentar o recargar el presupuesto en la ventana de ajustes de AIUI (o con `aiui-cli budget set`).
budget-off = La ayuda de pago está desactivada: el presupuesto del asistente es de 0 sats, así que me detuve aquí. { $topup }
budget-renews =
    {" "}Se renueva { $period ->
        [daily] cada día
        [weekly] cada semana
       *[monthly] cada mes
    }.
budget-taken = {" "}({ $spent } gastados)
budget-taken-held = {" "}({ $spent } gastados, { $reserved } retenidos para pagos aún pendientes; lo que se reembolse vuelve al presupuesto)
budget-used-up = El presupuesto del asistente de { $allowance } sats está agotado{ $taken }, así que me detuve aquí.{ $renews } { $topup }
budget-too-dear = Esta petición podría costar hasta { $price } sats, pero del presupuesto de { $allowance } sats solo quedan { $remaining }{ $taken }, así que me detuve aquí.{ $renews } { $topup }
budget-not-paid = No pude pagar esta petición, así que me detuve aquí. Del presupuesto de { $allowance } sats quedan { $remaining }{ $taken }.{ $renews } { $topup }
claude-raise = El propietario puede aumentar el presupuesto de Claude en la ventana de ajustes de AIUI (o con `aiui-cli budget set --claude-usd CANTIDAD`).
claude-abandoned = Una solicitud a Claude hecha por un proceso de AIUI que terminó antes de que llegara su respuesta se contó por su máximo, { $amount }, en el presupuesto de Claude: puede que Anthropic la haya cobrado, y ninguna respuesta dijo lo que costó.
claude-usage-above = Claude informó de un uso que cuesta { $priced }, más de los { $reserved } que esta solicitud podía costar como máximo. Se contó entero, porque Anthropic cobra lo que informa; consulte en la consola de Anthropic lo que se cobró.
claude-maybe-billed = Se contó contra la asignación de Claude por lo máximo, { $reserved }: Anthropic puede haberla cobrado.
claude-notice-80 = Claude ha costado { $spent } de su presupuesto de { $allowance } (80 % o más). Se omite en cuanto el presupuesto se agote. { $raise }
budget-notice-80 = El asistente ha gastado { $spent } de su presupuesto de { $allowance } sats (80 % o más). Las solicitudes de pago se detienen cuando se agote; el propietario puede recargarlo en la ventana de ajustes de AIUI.
claude-off = Claude no se usa: su presupuesto es de 0 US$. { $raise }
claude-held = {", "}{ $reserved } retenidos para peticiones en curso
claude-too-dear = Se pasó por alto a Claude: esta petición podría costar hasta { $worst }, pero de su presupuesto de { $allowance } solo quedan { $remaining } ({ $spent } gastados{ $held }).{ $renews } { $raise }
claude-used-up = Se pasó por alto a Claude: su presupuesto de { $allowance } está agotado ({ $spent } gastados{ $held }).{ $renews } { $raise }

## Preguntas sugeridas en el quiosco, un toque cada una. Una tocada se envía como palabras del propietario: todo
## backend, también el integrado, debe entenderla (backends/builtin/tests.rs toca cada tipo).

suggest-why-stopped = ¿Por qué se detuvo { $app }?
suggest-sync = ¿Cómo va la sincronización?
suggest-running = ¿Qué está en marcha?
suggest-start = Inicia { $app }
suggest-restart = Reinicia { $app }
suggest-system = ¿Cómo está el sistema?

## El tramo de Routstr: qué pasó con una petición pagada y dónde está ahora el dinero del propietario.

routstr-no-answer-in-time = { $provider } no respondió en { $after }; { $verdict }
routstr-unreachable = no se pudo contactar con { $provider }; { $verdict }
routstr-broke-off = { $provider } cortó la petición ({ $error }); { $verdict }
routstr-answered = { $provider } respondió { $detail }; { $verdict }
routstr-answer-lost = { $provider } cobró, pero su respuesta nunca llegó completa
routstr-answer-lost-change-kept = { $provider } cobró, pero su respuesta nunca llegó completa; se guardó el cambio que envió
routstr-redeemed-and-refused = { $provider } respondió 402 pero se quedó con el pago; { $verdict }.
routstr-not-taken-back-yet = { $provider } respondió 402 y su token aún no se pudo recuperar ({ $error }); queda registrado y se recupera en la próxima conciliación (reconcile).
routstr-asked-more-after-redeeming = { $provider } pidió más después de haber cobrado el pago; no se le pagó otra vez, y el primer pago queda registrado para su reembolso (aiui-cli wallet reconcile)
routstr-asked-too-much =
    { $provider } pidió { $required } sats, más de { $factor } veces los { $estimate } sats que da su precio anunciado; no se le pagó y se omite { $minutes ->
        [one] durante el próximo minuto
       *[other] durante los próximos { $minutes } minutos
    }
routstr-refused-twice = el proveedor rechazó el pago dos veces; no se pagó una tercera vez
routstr-no-common-mint = No pude pagar: ninguna mint está a la vez aceptada en los ajustes del presupuesto y listada por el proveedor, así que me detuve aquí. No se gastó nada.
routstr-too-little-ecash = No pude pagar los { $price } sats que puede costar esta petición: la cartera tiene muy poco ecash en las mints aceptadas, así que me detuve aquí. No se gastó nada. El propietario puede recargar la cartera en la ventana de ajustes de AIUI (o con `aiui-cli wallet invoice`).
routstr-mint-down = No pude pagar: { $error }. No se gastó nada, así que me detuve aquí; inténtelo de nuevo cuando la mint vuelva a responder.
routstr-not-paid = No pude pagar: { $error }. No se gastó nada, así que me detuve aquí.
routstr-verdict-unspent = el token no se gastó y está de vuelta en la cartera
routstr-verdict-refunded = el pago fue reembolsado
routstr-verdict-refund-void = su reembolso no contó
routstr-verdict-provider-refunded = el proveedor reembolsó el pago
routstr-verdict-provider-refunded-part = el proveedor reembolsó parte del pago ({ $spent } de los { $paid } sats cuentan como gastados)
routstr-verdict-provider-refund-void = el reembolso del proveedor no contó
routstr-verdict-kept-in-ledger = el pago queda en el libro de cuentas; su reembolso se vuelve a pedir en segundo plano (y con `aiui-cli wallet reconcile`), y se avisa al propietario si se da por perdido

## Los avisos propios de la cartera: guardados en el libro de cuentas como lo ocurrido y dichos en el idioma de cada lector.

wallet-set-aside = { $provider } devolvió un token que no cuenta: { $reason }. Se contó como 0 sats devueltos y se apartó (no se recibió), así que este pago cuenta entero. El propietario puede verlo con `aiui-cli wallet set-aside` y recibirlo o descartarlo allí.
wallet-set-aside-received = El token que { $provider } había devuelto, apartado, se recibió a petición del propietario: { $sats } sats de { $mint }.
wallet-echoed-unredeemed = { $provider } devolvió el mismo token con el que se le pagó, y la mint dice que nunca se canjeó: se recuperó ({ $sats } sats están de nuevo en la cartera) y esta petición no tuvo ningún coste.
wallet-written-off = { $spent } de los { $paid } sats pagados a { $provider } se dieron por gastados tras vigilar el pago durante { $watched }: { $why }. El presupuesto los cuenta en el periodo en que se hizo el pago.
wallet-written-off-request = { $spent } de los { $paid } sats pagados a { $provider } (petición { $request }) se dieron por gastados tras vigilar el pago durante { $watched }: { $why }. El presupuesto los cuenta en el periodo en que se hizo el pago.
wallet-why-partly-back = parte del token se canjeó o está atascada en la mint; los { $back } sats aún sin gastar se recuperaron en la cartera
wallet-why-stuck-at-the-mint = la mint aún tiene el token como en canje (pendiente), y no quedaba nada que recuperar
wallet-why-no-refund-after =
    el proveedor canjeó el token pero no envió ni cambio ni reembolso tras { $tries ->
        [one] { $tries } intento
       *[other] { $tries } intentos
    }
wallet-why-refund-never-answered = el proveedor canjeó el token pero no envió ni cambio ni reembolso, y su punto de reembolso nunca respondió
wallet-age =
    { $unit ->
        [seconds] { $n } segundos
        [minutes] { $n } minutos
        [hours] { $n } horas
       *[days] { $n } días
    }
wallet-mint-silent = La mint { $mint } no responde desde { $since } ({ $error }). Guarda { $sats } sats de esta cartera: si no vuelve, se pierden. Retírelos en cuanto vuelva a responder.
wallet-keyset-moved = { $sats } sats en { $mint } estaban en un conjunto de claves que la mint retira; se movieron a su conjunto de claves activo (la mint se quedó { $fee } sats como comisión).
wallet-token-never-made = Un token de { $sats } sats de { $mint } nunca se creó; los sats siguen en la cartera.
wallet-token-taken-back = Se recuperó un token de { $sats } sats de { $mint }.
wallet-token-claimed = El token de { $sats } sats de { $mint } creado el { $made } fue cobrado por la cartera a la que se envió.
wallet-withdrawal-paid-proven = La retirada de { $sats } sats de { $mint } se pagó (comisión de { $fee } sats); la prueba de pago de la mint coincide con la factura.
wallet-withdrawal-paid-proof-mismatch = La retirada de { $sats } sats de { $mint } se pagó (comisión de { $fee } sats); la prueba de pago de la mint no coincide con la factura: compruebe que la factura se cobró.
wallet-withdrawal-paid-unproven = La retirada de { $sats } sats de { $mint } se pagó (comisión de { $fee } sats); la mint no dio prueba de pago.
wallet-withdrawal-failed = La retirada de { $mint } no se completó; sus { $sats } sats han vuelto a la cartera.
wallet-withdrawal-taken = La retirada de { $sats } sats de { $mint } se pagó, según la mint (tomó las pruebas pero no dio prueba de pago: compruebe que la factura se cobró); se quedó { $kept } sats de más (el cambio que no devolvió lo encuentra de nuevo una restauración desde las palabras de respaldo).

## El informe de descubrimiento: qué hizo cada relé y qué fue de cada anuncio de proveedor.

discovery-relay = relé { $line }
discovery-relay-line = { $url }: { $outcome } ({ $ms } ms)
discovery-relay-line-said = { $url }: { $outcome } ({ $ms } ms) (dijo: { $notice })
discovery-relay-notice = {"  "}{ $url } dijo: { $notice }
discovery-relay-answered = respondió (EOSE)
discovery-relay-refused = no se pudo conectar: { $reason }
discovery-relay-timed-out = se conectó y luego no envió el fin de los eventos en { $secs } s (tiempo agotado)
discovery-relay-closed = cerró la suscripción: «{ $reason }»
discovery-relay-dropped = se conectó y luego se cortó antes del fin de los eventos: { $reason }
discovery-events =
    { $count ->
        [one] { $count } evento encontrado: { $used } usado(s)
       *[other] { $count } eventos encontrados: { $used } usado(s)
    }
discovery-events-refused = { $events }, { $refused } rechazado(s) ({ $kinds })
discovery-count = { $n } { $kind }
discovery-separator = {", "}
discovery-kind-wrong-kind = de otro tipo
discovery-kind-future = fechado en el futuro
discovery-kind-bad-signature = firma no válida
discovery-kind-malformed = mal formado
discovery-kind-replaced = sustituido por uno más nuevo
discovery-kind-unreviewed = sin revisar
discovery-kind-negative = valorado negativamente
discovery-kind-bad-endpoint = punto de acceso inservible
discovery-kind-no-answer = no respondió
discovery-kind-broke-price = no respetó su precio
discovery-kind-no-model = sin ese modelo
discovery-kind-no-common-mint = sin mint en común
discovery-kind-unaffordable = demasiado caro
discovery-event = {"  "}(evento { $id }, clave { $key }): { $what }
discovery-event-named = {"  "}«{ $name }» (evento { $id }, clave { $key }): { $what }
discovery-event-verbose = {"  "}evento { $id } tipo { $kind } de { $pubkey }{ $d } el { $at }: { $what }
discovery-event-verbose-named = {"  "}evento { $id } tipo { $kind } de { $pubkey }{ $d } el { $at }: «{ $name }» { $what }
discovery-used = usado
discovery-refused = rechazado: { $why }
discovery-why-replaced = sustituido por el anuncio más nuevo { $by }
discovery-why-unreviewed = sin revisar, y solo se permiten proveedores revisados
discovery-why-negative = el revisor lo valoró negativamente
discovery-why-bad-endpoint = ningún punto de acceso servible: { $reason }
discovery-why-probe-failed = no respondió a su sondeo: { $reason }
discovery-why-broke-price =
    pidió más de lo que permite su precio anunciado, así que se omite { $minutes ->
        [one] durante { $minutes } minuto más
       *[other] durante { $minutes } minutos más
    }
discovery-why-no-model = no ofrece `{ $model }` con un precio en sats
discovery-why-no-common-mint = ninguna de sus mints es una que usted acepte
discovery-why-unaffordable = una petición cuesta hasta { $price } sats y quedan { $remaining } sats del presupuesto
discovery-rule-wrong-kind = es de tipo { $kind }, no un anuncio de proveedor (tipo { $expected })
discovery-rule-bad-signature = la firma no se verifica
discovery-rule-no-endpoint = no tiene etiqueta `u` (punto de acceso)
discovery-rule-future-dated = está fechado { $secs } s en el futuro
discovery-rule-oversized = su contenido tiene { $bytes } bytes, por encima del límite de { $cap } bytes
discovery-rule-no-identifier = no tiene etiqueta `d`
discovery-rule-bad-endpoints = ningún punto de acceso en él es una URL http(s) servible
discovery-reviewer = revisor { $npub }: { $reviews } reseña(s) leída(s)
discovery-reviewer-unusable = la clave del revisor no sirve: { $reason }
discovery-reviewer-none = no hay clave de revisor, y solo se permiten proveedores revisados
discovery-hint-who-none = no hay clave de revisor
discovery-hint-who-invalid = la clave del revisor no es una clave pública válida ({ $reason })
discovery-hint-who-set = su revisor { $npub } no los ha valorado
discovery-hint =
    Solo se permiten proveedores revisados, y { $who }, así que { $count ->
        [one] { $count } proveedor encontrado en Nostr no se usó
       *[other] { $count } proveedores encontrados en Nostr no se usaron
    }. Indique una clave de revisor (npub o hex) en los ajustes de confianza, en «Proveedores de Routstr» (aiui-cli: --reviewer), o permita proveedores sin revisar desmarcando «Solo proveedores revisados» (aiui-cli: --any-provider).

## Por qué la etapa de Routstr no encontró nada utilizable, en el mensaje sin backend.

routstr-off = el presupuesto del asistente es de 0 sats (o no se acepta ninguna mint), así que los proveedores de pago están desactivados
routstr-none-on-relays = ningún proveedor de Routstr utilizable en los relays configurados: { $why }
routstr-none-for-model = ningún proveedor de Routstr se puede usar para `{ $model }`: { $why }
discovery-none-found = no se encontró ningún anuncio de proveedor
discovery-none-no-relay = ningún relay respondió, así que no se pudo encontrar ningún proveedor
discovery-none-separator = {"; "}
discovery-none-refused = { $who }: { $why }
discovery-none-who-key = clave { $key }
discovery-none-who-named = «{ $name }»
discovery-none-with-hint = { $reasons }. { $hint }

## Lo que oyen las interfaces cuando se construye la cadena.

## Las ramas por su nombre, y por qué la rama local, la de Claude y la integrada no pueden responder.

leg-local = modelo local (Ollama)
leg-claude = Claude
leg-routstr = Routstr
leg-builtin = modelo integrado (SmolLM2-135M)
ollama-not-answering = Ollama en { $url } no responde ({ $error })
ollama-refused = Ollama respondió a { $path } con HTTP { $status }
ollama-not-json = la respuesta de Ollama a { $path } no es JSON ({ $error })
ollama-no-models = Ollama no tiene modelos; ejecute `ollama pull qwen2.5:7b` (u otro modelo que admita herramientas)
ollama-model-missing = el modelo configurado `{ $model }` no está instalado en Ollama
ollama-no-tool-model = ningún modelo instalado en Ollama admite herramientas; descargue uno que sí, p. ej. `ollama pull qwen2.5:7b`
ollama-stopped = Ollama dejó de responder ({ $error })
ollama-http = HTTP { $status }: { $reason }
ollama-reported = Ollama informó de un error: { $reason }
claude-skipped-rate-limited = Claude se omite por ahora: límite de solicitudes alcanzado
claude-skipped = Claude se omite por ahora: { $reason }
claude-no-key = no hay ninguna clave de API de Claude; añada una en la ventana de ajustes de confianza
claude-no-price-table = Claude no se usa: { $error }
claude-no-price = Claude no se usa: la tabla de precios no tiene precio para el modelo { $model }, y un modelo sin precio nunca se usa para solicitudes de pago. Añada su precio en la ventana de ajustes de AIUI (precios de Claude) o con `aiui-cli budget price`.
builtin-turned-off = desactivado en los ajustes
builtin-not-built = no forma parte de esta compilación
builtin-cpu = este procesador no tiene AVX2/FMA, que la compilación del modelo integrado necesita
builtin-model-missing = su archivo de modelo ({ $file }) no está en ninguna de estas carpetas: { $searched }. Instale el paquete aiui-model-smollm2, o ejecute `bash scripts/fetch-model` en el árbol de fuentes de AIUI (unos 100 MB, comprobado con SHA-256)

registry-reconcile-failed = Los pagos abiertos aún no se pudieron comprobar ({ $error }); siguen registrados.
registry-wallet-unopened = La ayuda de pago (Routstr) está desactivada: no se pudo abrir el monedero ({ $reason }).

# The egress screen's stop when the owner's own message holds a secret (egress/mod.rs, Blocked::text). $what is
# the kinds found, each an egress-kind-* text, joined with ", " and egress-and; never the secret itself.
egress-blocked = Su mensaje no se envió: contiene { $what }. Nada salió de este dispositivo. Los modelos en la nube del asistente nunca deben ver secretos así; quítelo y vuelva a enviar su mensaje. Puede describir el problema sin pegar el secreto.
egress-and = {" "}y{" "}
egress-kind-known = un secreto que guarda esta aplicación ({ $label })
egress-kind-other = un secreto ({ $kind })
egress-kind-bip39 = lo que parece una frase de recuperación de una cartera (palabras semilla)
egress-kind-slip39 = lo que parece una parte de una copia Shamir (palabras SLIP-39)
egress-kind-codex32 = una copia de la semilla en codex32
egress-kind-xprv = una clave privada extendida (xprv)
egress-kind-wif = una clave privada de Bitcoin (WIF)
egress-kind-hex-key = una clave privada escrita en hexadecimal
egress-kind-nsec = una clave privada de Nostr (nsec o ncryptsec)
egress-kind-nostr-connect = una cadena de conexión a un firmante remoto de Nostr con su secreto
egress-kind-nwc = una cadena de Nostr Wallet Connect, que puede gastar de su cartera
egress-kind-cashu = un token de ecash Cashu, que es dinero gastable
egress-kind-fedimint = billetes de ecash de Fedimint, que son dinero gastable
egress-kind-lnurlw = un enlace LNURL-withdraw, con el que quien lo tenga puede retirar sus fondos
egress-kind-lnbits = un enlace de cartera LNbits, que abre la cartera y gasta de ella
egress-kind-macaroon = un macaroon de Lightning, una credencial de su nodo Lightning
egress-kind-lndconnect = una cadena lndconnect, que contiene una credencial de su nodo Lightning
egress-kind-rune = una runa de Core Lightning, una credencial de su nodo Lightning
egress-kind-rpcauth = una contraseña o cookie RPC de Bitcoin Core
egress-kind-password = una contraseña o un secreto de un archivo de configuración o de un comando
egress-kind-url-password = una contraseña dentro de una dirección web (usuario:contraseña@host)
egress-kind-pem = un bloque de clave privada (TLS o SSH)
egress-kind-api-key = una clave de API
egress-kind-token = un token de acceso
egress-kind-otpauth = un secreto de doble factor (TOTP)
egress-kind-age-key = una clave secreta de cifrado age
egress-kind-onion-key = una clave privada de un servicio onion de Tor
egress-kind-backup-code = códigos de respaldo o de recuperación de una cuenta, que saltan el inicio de sesión de doble factor
egress-kind-totp-key = una clave de configuración de doble factor, que genera todos los códigos de acceso futuros
egress-kind-pairing-phrase = una frase de emparejamiento, que conecta una aplicación con su nodo
egress-kind-seedqr = una semilla de cartera escrita como dígitos SeedQR o entropía

## Una fecha con hora, siempre en UTC.
time-utc = { $day }/{ $month }/{ $year }, { $hour }:{ $minute } UTC

## En qué punto está un retiro o un token enviado, en el historial de la cartera.
outflow-withdrawal-waiting = la mint lo está pagando
outflow-token-waiting = aún no cobrado
outflow-keyset-waiting = pasando a las nuevas claves de la mint
outflow-paid = pagado
outflow-failed = fallido
outflow-refused = rechazado por la mint
outflow-not-recorded = no registrado
outflow-taken-back = recuperado
outflow-never-made = nunca creado
outflow-claimed = cobrado
outflow-keyset-moved = pasado al conjunto de claves activo
outflow-cancelled = cancelado
outflow-done = hecho

## Lo que costó un turno, en la terminal.
cost-sats = { $sats ->
        [one] { $sats } sat
       *[other] { $sats } sats
    }
cost-free = 0{"\u00A0"}US$
cost-separator = {" + "}

## Lo que cambió el filtro de salida, tras `screen:` en la terminal.
egress-report = { $redacted } ocultados, { $placeholders } marcadores
egress-report-kinds = { $redacted } ocultados ({ $kinds }), { $placeholders } marcadores

## La cartera en la ventana de confianza: lo que el propietario aprueba antes de que salgan sats, y en qué quedó.
wallet-withdraw-summary = Pagar { $amount } sats a esta factura Lightning desde { $mint }.
wallet-withdraw-invoice = Factura: { $invoice }
wallet-withdraw-receives = La factura recibe: { $amount } sats
wallet-withdraw-reserve = Reserva para la comisión Lightning: hasta { $reserve } sats (lo que la mint no use vuelve)
wallet-withdraw-input-fee = Comisión de entrada de la mint: { $fee } sats
wallet-withdraw-most = Lo máximo que sale de la cartera: { $most } sats
wallet-withdraw-action = Retirar { $amount } sats
wallet-withdraw-still-paying = La mint aún está pagando la factura de { $amount } sats. El retiro sigue en curso hasta que termine el pago; «Comprobar con las mints» lo liquida, pagado o fallido.
wallet-withdraw-paid = Pagado: { $amount } sats llegaron a la factura; la comisión Lightning fue de { $fee } sats.
wallet-token-summary = Crear un token Cashu de { $amount } sats desde { $mint }, para otra cartera.
wallet-token-whoever = Quien tenga el token puede cobrar sus sats: déselo solo a la cartera a la que va destinado.
wallet-token-fee = La comisión de la mint por crearlo, si cobra una, se añade desde la cartera.
wallet-token-once = Se muestra una sola vez. Hasta que se cobre, «Recuperar» lo devuelve a esta cartera.
wallet-token-action = Crear un token de { $amount } sats
wallet-token-made = Un token de { $amount } sats desde { $mint }. Déselo ahora a la otra cartera: solo se muestra esta vez.{ $kept } Hasta que se cobre, «Recuperar» lo devuelve.
wallet-token-kept = {" "}La mint se quedó { $fee } sats por crearlo.
wallet-taken-back = Recuperado: { $sats } sats vuelven a estar en la cartera.
wallet-too-late = Demasiado tarde: la otra cartera ya lo había cobrado; sus { $sats } sats cuentan como enviados.
wallet-taken-back-in-part = La otra cartera ya había cobrado una parte: { $claimed } sats cuentan como enviados. El resto sin cobrar se recuperó: { $sats } sats vuelven a estar en la cartera.
wallet-taken-back-rest-too-small = La otra cartera ya había cobrado una parte: { $claimed } sats cuentan como enviados. Los { $rest } sats que quedan no valen más que la comisión de la mint por recuperarlos, así que se quedan con el token y cuentan como esa comisión.
wallet-check-elsewhere = Ahora mismo se está comprobando esta cartera en otro lugar (la propia aplicación o aiui-cli); vuelva a intentarlo en un momento.
wallet-checked = Comprobado.
wallet-checked-ended = { $count ->
        [one] Comprobado: { $count } retiro o token ha terminado.
       *[other] Comprobado: { $count } retiros o tokens han terminado.
    }
wallet-still-in-flight = { $count } aún en curso.
wallet-minted = { $sats } sats acuñados de facturas pagadas.
wallet-not-checked = { $count } no se pudieron comprobar (una mint no respondió); siguen registrados.
wallet-restored = Restaurado: { $sats } sats están en la cartera, y sus palabras vuelven a estar en el llavero.
wallet-restored-not-rebuilt = {" "}No se pudieron reconstruir los backends del asistente ({ $error }); reinicie AIUI.
wallet-restored-mint = { $mint }: { $sats } sats
wallet-restored-mint-pending = { $mint }: { $sats } sats, y { $pending } sats se están gastando en la mint (un retiro en curso)
wallet-lan-not-finished = La mint aún no ha terminado de pagar la factura. El retiro está en curso: se liquida cuando la mint responda, o en la conciliación, pagado o fallido, y se le avisa.
wallet-lan-paid = Pagado: { $amount } sats llegaron a la factura; la comisión de la mint fue de { $fee } sats.
wallet-lan-still-paying = La mint aún está pagando la factura. El retiro sigue en curso; la conciliación lo liquida (al arrancar y cada 10 minutos), pagado o fallido, y se le avisa.
