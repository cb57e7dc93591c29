### Los textos propios de la ventana de chat (ui/index.html y sus scripts en ui/js/), en español. Claves, atributos y
### variables como en en/chat.ftl.

## La página y su cabecera.

chat-title = AIUI
chat-brand = AIUI
chat-skip = Ir al cuadro de mensaje
chat-demo-banner = Nodo de demostración: un nodo Archipelago simulado en este equipo
chat-node-label = Nodo: { $url }
chat-open-settings = Ajustes

## La barra lateral: las conversaciones y las apps del nodo.

chat-sidebar =
    .aria-label = Conversaciones y nodo
chat-new-conversation = Nueva conversación
chat-conversations-heading = Conversaciones
chat-untitled = Sin título
chat-conversation-meta-one = { $date } · { $count } mensaje
chat-conversation-meta-other = { $date } · { $count } mensajes
chat-apps-heading = Apps del nodo
chat-refresh-apps = Actualizar apps
chat-apps-not-paired = No hay ningún nodo emparejado
chat-apps-unreadable = No se pudieron leer las apps: { $error }

## El medidor de presupuestos: el de Claude en dólares estadounidenses, el de Routstr en sats, nunca convertidos.

chat-allowances-heading = Presupuestos
chat-claude-meter-heading = Claude (dólares estadounidenses)
chat-claude-bar =
    .aria-label = Presupuesto de Claude usado
chat-claude-off = Claude: desactivado (presupuesto { $allowance })
chat-claude-spent = { $spent } de { $allowance } gastados
chat-claude-left = Quedan { $remaining }; renovación: { $renews }
chat-claude-left-held = Quedan { $remaining }, { $reserved } retenidos para una respuesta; renovación: { $renews }
chat-claude-notice = Se ha gastado el 80 % o más del presupuesto de Claude en este periodo.
chat-routstr-meter-heading = Ayuda de pago de Routstr (sats)
chat-routstr-bar =
    .aria-label = Presupuesto de Routstr usado
chat-sats-one = { $amount } sat
chat-sats-other = { $amount } sats
chat-sats-left = Quedan { $remaining } de { $allowance }
chat-sats-spent = { $spent } de { $allowance } gastados
chat-paid-off = La ayuda de pago está desactivada (presupuesto de 0 sats).
chat-routstr-notice = Se ha gastado el 80 % o más del presupuesto de Routstr en este periodo.
chat-spent = Gastado
chat-reserved = Reservado
chat-remaining = Restante
chat-renews = Renovación
chat-never = nunca
chat-renews-never = nunca (una sola vez)
chat-period-daily = cada día
chat-period-weekly = cada semana
chat-period-monthly = cada mes
chat-renews-next = { $period }, la próxima el { $date }
chat-free-answers = { $local } respuestas locales y { $builtin } integradas este mes, a 0 US$
chat-node-mints = Mints del nodo: { $mints }
chat-top-up = Recargar… (abre los ajustes)
chat-allowance-unreadable = No se pudo leer el presupuesto.

## La conversación, el cuadro de mensaje y lo que espera una confirmación.

chat-unpaired-title = No hay ningún nodo emparejado
chat-open-settings-button = Abrir los ajustes
chat-messages =
    .aria-label = Conversación
chat-pending-where = Esperando su confirmación en la ventana de confianza:
chat-pending-where-kiosk = Esperando a que el propietario del nodo confirme en la pantalla del propio nodo:
chat-pending-where-both = Esperando la confirmación del propietario (en la ventana de confianza o en la pantalla del propio nodo):
chat-show-confirmation = Mostrar la confirmación
chat-suggestions =
    .aria-label = Preguntas sugeridas
chat-input-label = Mensaje para el asistente
chat-input =
    .placeholder = Pregunte sobre su nodo, p. ej., «¿por qué no funciona LND?»
chat-keyboard-toggle = Teclado
chat-stop = Detener
chat-send = Enviar
chat-working = Trabajando…

## Los elementos del historial. La etiqueta de quién habla solo la lee un lector de pantalla, delante de lo dicho.

chat-speaker = { $name }:{" "}
chat-you = Usted
chat-assistant = AIUI
chat-assistant-backend = AIUI ({ $backend })
chat-notice = Aviso
# Who answered, on each answer's badge, in the chat's cost lines and on a confirmation. $model is the model's name
# ("qwen2.5:7b"), $provider a Routstr provider's name as the host shows it.
chat-backend-local = modelo local { $model }
chat-backend-claude = Claude ({ $model })
chat-backend-routstr = Routstr { $provider } ({ $model })
chat-backend-builtin = integrado ({ $model })
chat-cost = Coste: { $label }
chat-cost-input = { $count } de entrada
chat-cost-output = { $count } de salida
chat-cost-cache-write = { $count } escritos en caché
chat-cost-cache-read = { $count } leídos de caché
chat-cost-step = { $backend }: tokens: { $counts } ({ $cost })
chat-cost-step-free = { $backend } (en este equipo, gratis): tokens: { $counts } ({ $cost })
chat-conversation-total = Esta conversación: { $label }
chat-top-up-short = Recargar…
chat-budget-stop-title = Ayuda de pago detenida: presupuesto.
chat-choices =
    .aria-label = Respuestas sugeridas
chat-no-backend-title = Ningún asistente pudo responder a esto
chat-no-backend-lead = Ahora mismo no se puede contactar con ninguno de los asistentes, así que no se hizo nada en su nodo. Añada una clave de Claude en los ajustes o inicie Ollama en este equipo y vuelva a preguntar.
chat-no-backend-why = Por qué no está disponible cada asistente
chat-no-backend-button = Abrir los ajustes para añadir una clave de Claude
chat-stop-failed = No se pudo detener la respuesta: { $error }
chat-failed = Algo salió mal: { $message }
chat-signed-out = Sesión cerrada: inicie sesión de nuevo.
chat-service-answered = El servicio respondió { $status }.

## Se anuncia una vez en la región en vivo.

chat-announce-writing = { $name } está escribiendo una respuesta…
chat-announce-said = { $name }: { $text }
chat-announce-choices = Respuestas sugeridas: { $choices }
chat-announce-card = Tarjeta: { $summary }
chat-announce-notice = Aviso: { $text }
chat-announce-stopped = Detenido: { $message }
chat-announce-no-backend = { $title }. { $lead }

## Tarjetas de los resultados de las herramientas: títulos, nombres de fila y las palabras del host para lo que el
## nodo no envió.

chat-card-apps = Apps del nodo
chat-card-log = Registro: { $app }
chat-card-bitcoin-sync = Sincronización de Bitcoin
chat-card-lightning = Lightning (LND)
chat-card-system = Sistema
chat-card-mints = Mints de Cashu
chat-card-action = Acción realizada
chat-card-result = Resultado
chat-field-app = App
chat-field-version = Versión
chat-field-state = Estado
chat-field-exit-code = Código de salida
chat-field-health = Salud
chat-field-progress = Progreso
chat-field-blocks = Bloques
chat-field-chain = Cadena
chat-field-initial-download = Descarga inicial
chat-field-on-disk = En disco
chat-field-alias = Alias
chat-field-active-channels = Canales activos
chat-field-peers = Pares
chat-field-synced = Sincronizado con la cadena
chat-field-block-height = Altura de bloque
chat-field-cpu = CPU
chat-field-memory = Memoria
chat-field-disk = Disco
chat-field-temperature = Temperatura
chat-field-uptime = Tiempo activo
chat-field-mint = Mint
chat-field-unit = Unidad
chat-field-trusted = De confianza
chat-field-action = Acción
chat-field-node-method = Método del nodo
chat-field-outcome = Resultado
chat-outcome-accepted = aceptado
chat-field-confirmation = Confirmación
chat-bar-verification = Progreso de la verificación
chat-bar-disk = Disco usado
chat-unknown = desconocido
chat-yes = sí
chat-no = no
chat-not-stated = no indicado
chat-blocks-of = { $blocks } de { $headers }
chat-amount-of = { $used } de { $total }
chat-gb = { $amount } GB
chat-percent = { $percent } %
chat-celsius = { $degrees } °C
chat-hours = { $hours } h
chat-summary-rows-one = { $count } fila
chat-summary-rows-other = { $count } filas

## El teclado en pantalla del quiosco. El valor es el texto visible, .aria-label el nombre; donde difieren, el nombre
## empieza por el texto visible (WCAG 2.5.3). Los textos visibles deben ser cortos.

chat-keyboard =
    .aria-label = Teclado en pantalla
chat-key-shift = ⇧
    .aria-label = Mayúsculas
chat-key-backspace = ⌫
    .aria-label = Retroceso
chat-key-space = espacio
    .aria-label = Espacio
chat-key-send = Enviar
    .aria-label = Enviar
chat-key-hide = Ocultar
    .aria-label = Ocultar teclado
chat-key-letters = abc
    .aria-label = abc: letras
chat-key-symbols = 123
    .aria-label = 123: números y símbolos
chat-key-acute = ´
    .aria-label = ´: acento agudo, para la próxima vocal
chat-key-diaeresis = ¨
    .aria-label = ¨: diéresis, para la próxima vocal
chat-key-layout =
    .aria-label = { $code }: distribución del teclado, { $name }
