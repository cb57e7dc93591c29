### Los textos propios de la ventana de confianza, en español. Claves, variables y atributos como en en/trusted.ftl.

## La ventana y su cabecera.

trusted-window-title = AIUI · De confianza
trusted-skip = Saltar al contenido
trusted-shield = DE CONFIANZA
trusted-heading = AIUI: confirmación y ajustes
trusted-close = Cerrar

## La confirmación pendiente.

trusted-confirm-title = Confirme una acción en su nodo
trusted-lan-badge = LAN
trusted-lan-marker = Un usuario de la LAN pidió esto en el chat de la LAN, no en la pantalla del propio nodo.
trusted-asked-from = Pedido desde:
trusted-requester-unknown = el host no lo indicó
trusted-requester-desktop = este escritorio
trusted-requester-kiosk = la propia pantalla del nodo (quiosco)
trusted-requester-terminal = un terminal en esta máquina (aiui-cli chat)
trusted-requester-lan = una sesión LAN desde { $address } (inició sesión { $time }, sesión { $session })
trusted-risk-read = Solo lee el estado
trusted-risk-act = Cambia el nodo
trusted-risk-act-high = Cambia el nodo de un modo difícil de deshacer
trusted-expires-in = Caduca en
trusted-expiry-clock = { $minutes }:{ $seconds }
trusted-expiry-expired = caducada
trusted-expiry-warning-one = Queda { $seconds } segundo. Después, esta solicitud caduca y no se hace nada.
trusted-expiry-warning-other = Quedan { $seconds } segundos. Después, esta solicitud caduca y no se hace nada.
trusted-deny = Rechazar
trusted-approve = Aprobar
trusted-hint-locked = «Aprobar» estará disponible cuando esta ventana lleve un segundo delante de usted. «Rechazar» es la opción segura.
trusted-hint-available = «Aprobar» está disponible. «Rechazar» es la opción segura.
trusted-hint-hold = Para aprobar, mantenga pulsado «Aprobar» hasta que se llene (con el teclado, púlselo). «Rechazar» es la opción segura.
trusted-approve-available = «Aprobar» disponible
trusted-hold-too-short = Lo soltó demasiado pronto: mantenga pulsado «Aprobar» hasta que se llene para aprobar. «Rechazar» es la opción segura.
trusted-approve-not-yet = «Aprobar» aún no está disponible: mantenga esta ventana delante de usted durante un segundo.
trusted-tool = Herramienta
trusted-node-method = Método del nodo
trusted-proposed-by = Propuesto por
trusted-args-title = Argumentos (validados)
trusted-args-name = Nombre
trusted-args-value = Valor
trusted-more-waiting-one = Después de esta espera { $count } más.
trusted-more-waiting-other = Después de esta esperan { $count } más.
trusted-nothing-title = Confirmaciones
trusted-nothing = Ninguna acción espera su confirmación.
trusted-closed-approved = Aprobado: { $summary }
trusted-closed-denied = Rechazado: { $summary }
trusted-closed-expired = Caducó, no se hizo nada: { $summary }
trusted-closed-gone = Ya no espera, no se hizo nada: { $summary }

## Palabras comunes de los presupuestos, la cartera y los ajustes.

trusted-sats = { $sats } sats
trusted-spent = Gastado
trusted-reserved = Retenido
trusted-remaining = Restante
trusted-renews = Se renueva
trusted-never = nunca
trusted-saving = Guardando…
trusted-saved-next-message = Guardado. Se aplica desde el próximo mensaje.
trusted-cancel = Cancelar
trusted-none = ninguno
trusted-set = configurada
trusted-not-set = sin configurar
trusted-unknown = desconocido
trusted-amount-of = { $amount } de { $allowance }

## Periodos de renovación.

trusted-period-never = nunca (una sola vez)
trusted-period-daily = cada día
trusted-period-weekly = cada semana
trusted-period-monthly = cada mes
trusted-renews-next = { $period }, la próxima vez el { $date }

## El presupuesto de Claude, en dólares estadounidenses.

trusted-claude-title = Presupuesto de Claude (dólares estadounidenses)
trusted-claude-bar =
    .aria-label = Presupuesto de Claude usado
trusted-claude-bar-text = { $spent } de { $allowance } gastados
trusted-claude-off = Claude está desactivado (presupuesto { $allowance })
trusted-claude-notice-80 = Se ha gastado el 80 % o más del presupuesto de Claude en este periodo.
trusted-claude-set-on-node = Se configura en el nodo:
trusted-claude-set-command = aiui-cli budget set --claude-usd CANTIDAD
trusted-claude-prices-with = , los precios con
trusted-claude-set-end = {"."}
trusted-claude-amount = Presupuesto en dólares estadounidenses por periodo (0 desactiva Claude)
trusted-claude-save = Guardar el presupuesto de Claude
trusted-claude-saved = Guardado: { $allowance } { $period }. Se aplica desde el próximo mensaje.
trusted-claude-saved-off = Guardado: Claude queda desactivado hasta que fije un presupuesto superior a 0 US$.
trusted-per-never = en total
trusted-per-daily = al día
trusted-per-weekly = a la semana
trusted-per-monthly = al mes

## Los precios de Claude.

trusted-prices-title = Precios de Claude (dólares estadounidenses por millón de tokens)
trusted-prices-source = Precios incluidos, tomados el { $taken } de { $source }.
trusted-price-model = Modelo
trusted-price-input = Entrada
trusted-price-output = Salida
trusted-price-cache-write = Escritura en caché
trusted-price-cache-read = Lectura de caché
trusted-price-set-by-you = fijado por usted
trusted-price-hint = Corrija un precio o añada un modelo: su precio sustituye al incluido a partir de la próxima petición.
trusted-price-save = Guardar el precio
trusted-price-saved = Se guardó su precio para { $model }. Se aplica desde la próxima petición.
trusted-price-long-context = Por encima de { $above } tokens de entrada: { $input } de entrada, { $output } de salida, { $cacheWrite } de escritura en caché, { $cacheRead } de lectura de caché

## El presupuesto para la ayuda de pago (Routstr), en sats.

trusted-allowance-title = Presupuesto para la ayuda de pago (Routstr)
trusted-allowance-bar =
    .aria-label = Presupuesto usado
trusted-free-answers = Este mes, respuestas locales: { $local }; del modelo integrado: { $builtin }; por 0 US$.
trusted-allowance-amount = Presupuesto en sats por periodo (0 desactiva la ayuda de pago)
trusted-allowance-mints = Mints aceptadas, una dirección por línea
trusted-allowance-save = Guardar el presupuesto
trusted-allowance-whole = El presupuesto es un número entero de sats (0 desactiva la ayuda de pago).
trusted-allowance-saved-no-mint = Guardado. Añada una mint aceptada; si no, la ayuda de pago sigue desactivada.

## La cartera.

trusted-wallet-title = Cartera (ecash de Cashu)
trusted-wallet-state-initial = Aún no hay cartera: se crea cuando la financie por primera vez.
trusted-wallet-none-yet = Aún no hay cartera: se crea (con su semilla guardada en el llavero del sistema) cuando la financie por primera vez o la restaure.
trusted-wallet-total = Total: { $total }
trusted-wallet-balances =
    .aria-label = Saldo por mint
trusted-wallet-not-accepted = no aceptada: no se gasta en ayuda de pago; retírelo o envíelo
trusted-wallet-in-flight = En curso: { $amount } (retiros que la mint aún está pagando, tokens aún no cobrados, pagos a proveedores aún no liquidados)
trusted-wallet-nothing-in-flight = Nada en curso.
trusted-mint-with-balance = { $mint } ({ $balance })
trusted-outflows-title = Retiros y tokens enviados
trusted-outflows-empty = Aún no se ha retirado ni enviado nada.
trusted-outflow-what = { $kind } de { $amount }
trusted-outflow-token = Token
trusted-outflow-withdrawal = Retiro
trusted-outflow-keyset-swap = Movido a claves nuevas
trusted-outflow-other = Salida
trusted-take-back = Recuperar
trusted-take-back-label = Recuperar el token de { $amount } creado { $created }
trusted-taking-back = Recuperando el token…
trusted-wallet-check = Comprobar con las mints
trusted-checking-mints = Comprobando con las mints…
trusted-wallet-notices =
    .aria-label = Lo que encontró la comprobación

## Sacar sats: la cotización del host y la aprobación del propietario.

trusted-approval-expiry = Esta aprobación vence a las { $time }; no se envía nada antes de que usted apruebe.
trusted-approval-announce = { $summary } { $action } o Cancelar.
trusted-approval-cancelled = Cancelado: no se envió nada.
trusted-token-qr = Código QR del token
trusted-token-label = El token, para la otra cartera (solo se muestra esta vez)
trusted-token-done = Listo: ocultar el token
trusted-token-hidden = El token ya no se muestra. Mientras no se cobre, «Recuperar» en la lista lo devuelve.
trusted-take-out = Sacar sats
trusted-withdraw-invoice = Retirar a Lightning: pegue una factura (lnbc…)
trusted-from-mint = de la mint
trusted-withdraw-any-mint = la mint con más saldo
trusted-withdraw-everything = Todo lo de esa mint, descontadas sus comisiones (para una factura sin importe)
trusted-withdraw-quote = Ver cuánto cuesta
trusted-withdraw-asking = Preguntando a la mint cuánto cuesta…
trusted-withdraw-paying = Pagando la factura…
trusted-send-amount = Enviar un token a otra cartera: importe en sats
trusted-send-quote = Preparar el token
trusted-send-making = Creando el token…
trusted-amount-whole = El importe es un número entero de sats.
trusted-invoice-paste-first = Pegue primero una factura Lightning.

## Financiar la cartera.

trusted-fund-title = Financiar la cartera
trusted-receive-label = Recibir un token de Cashu (péguelo aquí)
trusted-receive-save = Recibir el token
trusted-receive-paste-first = Pegue primero un token de Cashu.
trusted-receiving = Recibiendo…
trusted-received = Recibido: { $amount }.
trusted-invoice-amount = Financiar con Lightning: importe en sats
trusted-at-mint = en la mint
trusted-invoice-get = Obtener la factura
trusted-invoice-asking = Pidiendo una factura a la mint…
trusted-invoice-pay = Pague { $amount } a { $mint } y luego compruebe el pago.
trusted-invoice-qr = Código QR de la factura Lightning
trusted-invoice-label = Factura Lightning: páguela desde cualquier cartera
trusted-invoice-check = Comprobar el pago
trusted-checking = Comprobando…
trusted-invoice-paid = Pagado: se añadieron { $amount } a la cartera.

## La copia de seguridad y la restauración de la cartera.

trusted-backup-title = Copia de seguridad
trusted-backup-confirmed = Usted confirmó que las palabras de respaldo y las mints están anotadas.
trusted-backup-not-yet = Aún sin copia de seguridad: anote las palabras y las mints, o los sats se perderán con este equipo.
trusted-backup-ask = Mostrar las palabras de respaldo
trusted-backup-warning = Cualquiera que vea estas palabras puede llevarse todos los sats de esta cartera.
trusted-backup-where = Muéstrelas solo donde nadie, ni ninguna cámara, pueda ver esta pantalla. Anótelas en papel junto con las mints; no las escriba nunca en un chat ni en un sitio web.
trusted-backup-show = Mostrar las palabras
trusted-backup-reading = Leyendo las palabras del llavero…
trusted-backup-shown = Se muestran las palabras de respaldo.
trusted-backup-words-title = Las palabras de respaldo, en este orden
trusted-backup-mints-title = Las mints que usó
trusted-backup-mints-qr = Código QR de la lista de mints
trusted-backup-mints-caption = La lista de mints
trusted-backup-qr = Código QR de toda la copia: primero las palabras, luego las mints
trusted-backup-qr-caption = Las palabras y las mints
trusted-backup-written = Ya las anoté
trusted-backup-hide = Ocultar las palabras
trusted-backup-done = Copia de seguridad confirmada. Las palabras ya no se muestran.
trusted-backup-hidden = Las palabras ya no se muestran.
trusted-restore-title = Restaurar una cartera
trusted-restore-label = Sus palabras de respaldo en la primera línea y luego sus mints, una dirección por línea
trusted-restore-replace = Sustituir las palabras del llavero (solo si anotó las anteriores)
trusted-restore-go = Restaurar
trusted-restore-found =
    .aria-label = Lo que encontró la restauración
trusted-restore-empty = Pegue o escriba primero las palabras de respaldo y las líneas de las mints.
trusted-restore-asking = Pidiendo a cada mint el ecash de la cartera…

## Proveedores de Routstr.

trusted-routstr-title = Proveedores de Routstr
trusted-routstr-reviewed = Solo proveedores revisados
trusted-routstr-reviewer = Clave del revisor, npub o hex (cuyas reseñas hacen que un proveedor sea «revisado»)
trusted-routstr-tor = Dirección SOCKS de Tor (vacía: sin Tor)
trusted-routstr-save = Guardar las opciones de Routstr
trusted-discovery-title = Última búsqueda
trusted-discovery-none = Aún no se ha hecho ninguna búsqueda: se hace cuando un mensaje necesita ayuda de pago y el presupuesto es superior a cero.

## El modelo pequeño integrado.

trusted-builtin-title = Modelo pequeño integrado
trusted-builtin-about = Cuando ningún otro backend responde, un modelo pequeño en este equipo (SmolLM2-135M) aún puede listar, consultar, iniciar, detener y reiniciar sus apps. Solo elige entre esas peticiones cotidianas; para cualquier otra cosa, use Ollama, una clave de Claude o la ayuda de pago.
trusted-builtin-use = Usar el modelo pequeño integrado
trusted-builtin-unavailable = Activado, pero no puede responder: { $reason }
trusted-builtin-on = Activado: responde cuando ningún otro backend lo hace.
trusted-builtin-off = Desactivado.
trusted-builtin-saved-on = Activado desde el próximo mensaje.
trusted-builtin-saved-off = Desactivado desde el próximo mensaje.

## La clave de API de Claude.

trusted-key-title = Clave de API de Claude
trusted-key-status = Estado:
trusted-key-label = Clave nueva (se guarda en el llavero del sistema y no se vuelve a mostrar)
trusted-key-save = Guardar la clave
trusted-key-clear = Quitar la clave
trusted-key-saved = Guardada en el llavero.
trusted-key-removed = Quitada del llavero.

## Emparejamiento con el nodo.

trusted-node-title = Emparejamiento con el nodo
trusted-node-paired = Nodo emparejado
trusted-node-demo = { $url } (nodo de demostración)
trusted-node-fingerprint = Huella aceptada
trusted-node-password = Contraseña
trusted-node-password-demo = generada para la demostración (solo en memoria)
trusted-node-password-set = configurada (en el llavero)
trusted-pair-url = Dirección del nodo
trusted-pair-fetch = Obtener la huella del certificado
trusted-pair-fp = Huella del certificado presentado ahora: compárela con la que muestra su nodo
trusted-pair-fp-ok = Coincide; aceptar este certificado
trusted-pair-pw = Contraseña del nodo (se guarda en el llavero del sistema)
trusted-pair-save = Emparejar
trusted-pair-demo = La demostración está emparejada con su nodo simulado. Inicie AIUI sin --demo para emparejar uno real.
trusted-pair-connecting = Conectando…
trusted-pair-compare = Compare la huella con la que muestra su nodo antes de aceptarla.
trusted-pair-fetch-first = Primero obtenga la huella, compárela y marque «Coincide».
trusted-pair-logging-in = Iniciando sesión…
trusted-pair-done = Emparejado. El asistente trabaja ahora en este nodo.

## Las herramientas que puede usar el asistente.

trusted-grants-title = Herramientas que puede usar el asistente
trusted-grants-hint = Las herramientas desactivadas nunca se ofrecen al modelo. Las acciones que cambian el nodo siempre se confirman aquí.
trusted-grant-reads = lee
trusted-grant-changes = cambia el nodo (siempre se confirma)
trusted-grant-on = { $tool } está activada desde el próximo mensaje.
trusted-grant-off = { $tool } está desactivada desde el próximo mensaje.

## El ajuste del idioma. $name es el nombre propio de un idioma («English», «Deutsch»).

trusted-language-title = Idioma
trusted-language-label = El idioma de estas ventanas, de las respuestas y de los avisos
trusted-language-system = El del sistema ({ $name })
trusted-language-changing = Cambiando el idioma…

## Acerca de.

trusted-about-title = Acerca de este AIUI
trusted-about-version = Versión
trusted-about-commit = Compilado a partir del commit

## El origen de confianza del servicio LAN: el secreto de aprobación, la conexión y la cartera en el nodo.

trusted-secret-approve = Frase de aprobación o código TOTP (necesario para aprobar; «Rechazar» no lo necesita)
trusted-secret-grant = Frase de aprobación o código TOTP (necesario para cambiar un interruptor)
trusted-secret-withdraw = Frase de aprobación o código TOTP (necesario para retirar)
trusted-signed-out = Sesión cerrada: inicie sesión de nuevo.
trusted-service-answered = El servicio respondió { $status }.
trusted-lan-sats-one = { $sats } sat
trusted-lan-sats-other = { $sats } sats
trusted-lan-wallet-title = Cartera (ecash de Cashu) en el nodo
trusted-lan-wallet-reading = Leyendo la cartera…
trusted-lan-total = Total: { $total }
trusted-lan-total-unbalanced = Total: { $total } (el libro de cuentas no cuadra: ejecute aiui-cli wallet reconcile en el nodo)
trusted-lan-in-flight = En curso
trusted-lan-pending-title = Retiros que la mint aún está pagando
trusted-lan-pending-since = { $mint } (desde { $date })
trusted-lan-pending-none = Ninguno.
trusted-lan-withdraw-title = Retirar a Lightning
trusted-lan-withdraw-invoice = Factura Lightning (BOLT11) que pagar
trusted-lan-withdraw-mint = De la mint (vacío: la que tiene más saldo)
trusted-lan-withdraw-everything = Todo lo de esa mint, descontadas sus comisiones (la factura no indica importe)
trusted-lan-withdraw-quote = Mostrar cuánto cuesta
trusted-lan-quote-asking = Preguntando a la mint cuánto cuesta pagarla…
trusted-lan-confirm-title = Confirmar el retiro
trusted-lan-quote-amount = Importe
trusted-lan-quote-reserve = Reserva de comisiones de la mint (lo que no use se devuelve)
trusted-lan-quote-input-fee = Comisión de entrada de la mint
trusted-lan-quote-most = Lo máximo que puede costar
trusted-lan-quote-mint = De la mint
trusted-lan-quote-expiry = La cotización termina
trusted-lan-up-to = hasta { $amount }
trusted-lan-expiry-unknown = cuando la mint lo indique
trusted-lan-quote-summary = Retirar { $amount } cuesta como máximo { $most }. Escriba su frase de aprobación para retirar.
trusted-lan-withdraw-pay = Retirar
trusted-lan-secret-needed = Para retirar se necesita su frase de aprobación o un código TOTP. No se pagó nada.
trusted-lan-withdrawing = Retirando…
trusted-lan-not-withdrawn = No se retiró.
trusted-lan-on-node-only = Las palabras de respaldo, la restauración de la cartera y el envío de tokens se hacen en el propio nodo (aiui-cli wallet): nunca pasan por la red.
