### Rechazos y fallos que AIUI escribe por sí mismo, en español. $error, $reason y $detail son las palabras de una
### parte más profunda (el nodo, una mint, el llavero) y quedan como esa parte las escribió.

## Los errores de la cartera.
pay-error-seed-missing = falta la semilla de la cartera en el llavero, pero hay una cartera en el directorio de datos; restaure las palabras de la semilla en el llavero (o aparte la cartera) antes de abrirla
pay-error-seed = semilla de la cartera: { $error }
pay-error-keyring = llavero: { $error }
pay-error-store = almacén de la cartera: { $error }
pay-error-ledger = no se pudo escribir el libro de pagos: { $error }. Ningún token salió de la cartera
pay-error-invalid-token = no es un token Cashu utilizable: { $reason }
pay-error-invalid-invoice = no es una factura Lightning utilizable: { $reason }
pay-error-invalid-mint = no es una dirección de mint: { $reason }
pay-error-mint-unreachable = no se pudo contactar con la mint { $mint }: { $reason }
pay-error-mint = la mint { $mint } rechazó: { $reason }
pay-error-insufficient = no hay suficiente ecash en una mint aceptada para { $needed } sats
pay-error-no-common-mint = ninguna mint está a la vez aceptada por el propietario y anunciada por el proveedor
pay-error-over-budget = la comisión de la mint llevaría el pago por encima de la asignación
pay-error-multi-keyset = el token abarcaría varios conjuntos de claves, que los proveedores rechazan
pay-error-already-spent = el token ya se canjeó en la mint
pay-error-timeout = se agotó el tiempo de espera de la mint
pay-error-unknown-payment = no hay ningún pago abierto { $id } en el libro
pay-error-moved = otro proceso pasó el pago { $id } a { $state }; se deja como está
pay-error-mint-unclear = la mint { $mint } no dio una respuesta clara ({ $reason }); no se pierde nada: se le vuelve a preguntar más tarde
pay-error-returned-elsewhere = el token ya se devolvió para otro pago ({ $id }), así que no puede contar para este
pay-error-withdrawal-refused = { $error }; no se pagó nada y los sats han vuelto a la cartera

## Empezado y no terminado: no se pierde nada.
pay-unfinished-payment-token = la mint no dio una respuesta clara mientras se creaba el token ({ $error }); no se pierde nada: el pago se conserva y la próxima conciliación lo liquida
pay-unfinished-payment-ledger = el libro de pagos no pudo registrar un token ({ $error }), y aún no se pudo recuperar; se conserva y la próxima conciliación lo recupera
pay-unfinished-not-settled = el pago { $id } aún no está liquidado; ejecute antes `aiui-cli wallet reconcile`
pay-unfinished-swap = el intercambio en { $mint } no tomó todas las pruebas antiguas
pay-unfinished-withdrawal = la mint no dio una respuesta clara sobre el retiro ({ $error }); no se pierde nada: sigue en curso y la próxima conciliación lo liquida
pay-unfinished-send-token = la mint no dio una respuesta clara mientras se creaba el token ({ $error }); no se pierde nada: la próxima conciliación lo termina o devuelve los sats
pay-unfinished-send-ledger = el libro no pudo registrar el token ({ $error }); no se mostró, y la próxima conciliación lo recupera
pay-unfinished-receive = se empezó a recibir un token en { $mint } y no se terminó; la próxima conciliación lo termina
pay-unfinished-take-back = se empezó a recuperar un token en { $mint } y no se terminó
pay-unfinished-restore = una restauración desde las palabras de respaldo se detuvo antes de que cada mint devolviera su ecash; no se pierde nada: vuelve a ejecutar la restauración con las mismas palabras y mints

## Un importe en dólares o un precio escrito por el propietario, rechazado. $text es lo que se escribió.
price-error-amount = { $text } no es un importe en dólares estadounidenses (p. ej. 5 o 2,50)
price-error-price = { $text } no es un precio en dólares estadounidenses (p. ej. 3 o 0,30)
price-error-grouped = { $text } se puede leer de dos maneras: escriba el importe sin separador de miles (1000, o 1,50 para uno y medio)
price-error-range = { $value } no es un precio en USD por millón de tokens (de 0 a { $max })
price-error-model = { $text } no es un nombre de modelo (letras, cifras, - . _ :)
price-error-corrupt = el archivo de precios { $path } está dañado ({ $reason }); corríjalo o elimínelo y vuelva a fijar el precio
price-error-write = no se pudo guardar el precio en { $path }: { $error }. No se cambió nada

## Los archivos y ajustes de las asignaciones.
budget-error-read = no se pudo leer el archivo de presupuesto { $path }: { $error }
budget-error-corrupt = el archivo de presupuesto { $path } está dañado ({ $reason }); corríjalo o elimínelo y vuelva a fijar el presupuesto
budget-error-write = no se pudo guardar el presupuesto en { $path }: { $error }. No se cambió nada
budget-error-invalid = ajuste de presupuesto no válido: { $reason }
budget-error-not-a-mint = { $mint } no es una dirección de mint (se espera https://… o http://…)

## Quién puede hacer qué.
error-not-trusted = Esto solo se puede hacer en la ventana de confianza de AIUI.
error-not-trusted-lan = Esto solo se puede hacer en el origen de confianza, donde el propietario inicia sesión con la frase de aprobación.
error-unknown-command = No existe el comando `{ $command }`.
error-no-tool = No existe ninguna herramienta llamada `{ $tool }`.
error-not-on-lan = Este ajuste no se cambia por la LAN: use `aiui-cli budget` y `aiui-cli wallet` en el nodo.
error-saved-not-rebuilt = Guardado, pero no se pudieron reconstruir los backends del asistente: { $error }
error-busy-change = El asistente está respondiendo; cambie esto cuando haya terminado.
error-settings-not-saved = No se pudieron guardar los ajustes: { $error }

## Una confirmación.
error-too-soon = La confirmación se acaba de mostrar. Léala y vuelva a aprobar.
error-confirmation-unknown = Esta confirmación ya no está pendiente (se respondió, caducó o nunca existió).
error-confirmation-changed = La solicitud cambió desde que se mostró; no se decidió nada. Revísela de nuevo.
error-confirmation-audit = La decisión no se pudo anotar en el registro de auditoría, así que no se llevó a cabo: { $error }
error-confirmation-expired = Esta confirmación ha caducado; no se hizo nada.
error-approve-on-kiosk = En este nodo, las solicitudes de la LAN se aprueban en la pantalla del propio nodo (el quiosco). Aquí puede denegarla.
error-decide-secret-required = Para aprobar hace falta su frase de aprobación o un código TOTP. No se decidió nada.
error-decide-wrong-secret = Esa no es la frase de aprobación (ni un código TOTP vigente). No se decidió nada.
error-tool-secret-required = Para cambiar una herramienta hace falta su frase de aprobación o un código TOTP. No se cambió nada.
error-tool-wrong-secret = Esa no es la frase de aprobación (ni un código TOTP vigente). No se cambió nada.

## Iniciar sesión en el servicio de la LAN.
error-signed-out = No ha iniciado sesión (o su sesión terminó). Vuelva a iniciar sesión.
error-bad-origin = Rechazado: esta solicitud no vino de la propia página de este sitio, o le faltaba su token CSRF.
error-rate-limited = { $seconds ->
        [one] Demasiados intentos de inicio de sesión. Espere { $seconds } segundo y vuelva a intentarlo.
       *[other] Demasiados intentos de inicio de sesión. Espere { $seconds } segundos y vuelva a intentarlo.
    }
error-duplicate-cookie = Este navegador envió dos cookies de sesión para este sitio (puede que otra página haya colocado una). No se hizo nada: borre las cookies de este sitio en el navegador y vuelva a iniciar sesión.
error-wrong-host = Este servicio no responde a ese nombre de host. Ábralo con el nombre que le dio el propietario del nodo.
error-passphrase-too-long = Es más larga que cualquier frase de contraseña que acepta este servicio.
error-wrong-lan-passphrase = Esa frase de contraseña de la LAN no es correcta. Compruébela con el propietario del nodo y vuelva a intentarlo.
error-wrong-approval-passphrase = Esa no es la frase de aprobación (ni un código TOTP vigente). Solo el propietario del nodo puede iniciar sesión aquí.
error-code-required = La frase es correcta. Este nodo también pide un código TOTP: escriba el que muestra ahora su autenticador.

## El chat.
error-empty-message = Escriba primero un mensaje.
error-message-too-long = Ese mensaje es demasiado largo; acórtelo.
error-busy-answering = El asistente aún está respondiendo; espere a que termine.
error-unknown-conversation = No existe esa conversación en esta sesión.
error-unknown-turn = No existe ese turno en esta sesión.

## Los ajustes del escritorio.
error-api-key-empty = Pegue primero la clave de API.
error-api-key-malformed = Eso no parece una clave de API (tiene espacios o es demasiado larga).
error-demo-paired = La demo está emparejada con su nodo simulado; inicie AIUI sin --demo para emparejar uno real.
error-fingerprint-first = Obtenga primero la huella del certificado del nodo y acéptela.
error-password-empty = Escriba la contraseña del nodo.
error-login-timeout = El nodo no respondió al inicio de sesión a tiempo; no se guardó nada.
error-login-failed = { $error }. No se guardó nada.
error-not-an-address = No es una dirección: { $error }
error-node-address-scheme = La dirección del nodo empieza por https:// (o http:// en una LAN de confianza).
error-no-language = AIUI no tiene el idioma `{ $tag }`: elija uno de la lista.
error-price-field = { $field ->
        [input] El precio de entrada es en dólares estadounidenses por millón de tokens, p. ej. 3 o 0,30.
        [output] El precio de salida es en dólares estadounidenses por millón de tokens, p. ej. 3 o 0,30.
        [cache-write] El precio de escritura en caché es en dólares estadounidenses por millón de tokens, p. ej. 3 o 0,30.
       *[cache-read] El precio de lectura de caché es en dólares estadounidenses por millón de tokens, p. ej. 3 o 0,30.
    }
error-reviewer-key = La clave del revisor es un npub… o 64 caracteres hexadecimales: { $reason }.
error-tor-socks = La dirección SOCKS de Tor es una dirección IP y un puerto, p. ej. 127.0.0.1:9050.

## La cartera.
error-no-wallet = Aún no hay cartera: finánciela (o restáurela) primero.
error-no-wallet-to-back-up = Aún no hay cartera: no hay nada que respaldar.
error-no-wallet-lan = No hay cartera en este nodo: la ayuda de pago está desactivada (su asignación es 0), o no se pudo abrir la cartera. Finánciela y configúrela con `aiui-cli wallet` y `aiui-cli budget` en el nodo.
error-wallet-not-on-lan = Por la LAN la cartera solo muestra lo que tiene y retira a Lightning (su sección en esta página). Financiarla, sus palabras de respaldo, restaurarla y enviar tokens se hacen en el nodo: `aiui-cli wallet`.
error-wallet-not-opened = No se pudo abrir la cartera.
error-wallet-not-opened-because = No se pudo abrir la cartera: { $error }
error-busy-restore = El asistente está respondiendo; restaure cuando haya terminado.
error-restore-no-mints = Añada bajo las palabras las líneas de mint del respaldo (una dirección por línea, https://…): la restauración pregunta a cada mint.
error-restore-not-empty = Esta cartera tiene { $sats ->
        [one] { $sats } sat
       *[other] { $sats } sats
    }: una restauración nunca sustituye una cartera que tiene ecash.
error-restore-other-words = El llavero ya tiene otras palabras de cartera, y ninguna cartera de aquí las usa: pueden proteger sats en otro lugar. Anótelas primero; luego marque «Sustituir las palabras del llavero» y vuelva a restaurar.
error-not-a-withdrawal = Esa aprobación no es un retiro; no se envió nada.
error-not-a-token = Esa aprobación no es un token; no se envió nada.
error-token-too-small = Un token vale al menos 1 sat.
error-token-pick-mint = Elija una de las mints de la cartera.
error-token-over-held = { $mint } tiene { $held } sats: un token de { $amount } sats necesita al menos eso.
error-paste-token = Pegue un token Cashu (empieza por cashuA o cashuB).
error-invoice-amount = Elija un importe de 1 a { $max } sats.
error-mint-https = La dirección de la mint empieza por https://.
error-not-paid-yet = Aún no está pagada. Pague la factura y vuelva a comprobar.
error-approval-lapsed = Esa aprobación ha caducado; no se envió nada. Empiece de nuevo.
error-approval-unknown = No existe esa aprobación (se usó, se sustituyó o caducó); no se envió nada.
error-mint-timeout = La mint no respondió a tiempo; no cambió nada.
error-qr = No se pudo dibujar como código QR: { $error }.
error-quote-unknown = Esta cotización de retiro no está pendiente (se usó, se sustituyó o nunca existió). No se pagó nada; pida una cotización nueva.
error-quote-expired = La cotización de la mint ha caducado. No se pagó nada; pida una cotización nueva.
error-quote-too-soon = La cotización se acaba de mostrar. Lea lo que cuesta y vuelva a retirar.
error-withdraw-secret-required = Para retirar hace falta su frase de aprobación o un código TOTP. No se pagó nada.
error-withdraw-wrong-secret = Esa no es la frase de aprobación (ni un código TOTP vigente). No se pagó nada.

## El enlace del quiosco con el servicio de la LAN.
error-lan-unreachable = El servicio de la LAN no está disponible (nada responde en { $socket }): no se decidió nada. Compruebe que `aiui-cli serve` se ejecuta con --kiosk-socket { $socket }.
error-lan-no-answer = El servicio de la LAN no respondió en { $seconds } s, así que esta pantalla no puede saber si se decidió. Si la solicitud sigue en la lista, no se decidió; el registro de auditoría del nodo lo dice con certeza.
error-lan-busy = Ya va de camino al servicio de la LAN una respuesta a esta confirmación; espérela.

## Por qué el escritorio no tiene nodo.
error-unpaired-not-yet = Aún no hay ningún nodo emparejado. Abra los Ajustes para emparejar esta aplicación con su nodo.
error-unpaired-no-password = El nodo { $url } está emparejado, pero su contraseña no está en el llavero. Empareje de nuevo en los Ajustes.
error-unpaired-password = No se pudo leer la contraseña del nodo: { $error }.
error-unpaired-unusable = El nodo emparejado { $url } no se puede usar: { $error }
