### La página de inicio de sesión del servicio LAN (ui/login.html y ui/js/login.js), en español. Claves y variables
### como en en/login.ftl.

## La página, en el origen del chat (la frase de contraseña de la LAN) y en el origen de confianza (la frase de
## contraseña de aprobación del propietario).

login-page-title = AIUI · Iniciar sesión
login-heading = Iniciar sesión en AIUI
login-heading-trusted = Origen de confianza de AIUI: inicio de sesión del propietario
login-intro-lan = Converse con el asistente de este nodo. Pida la frase de contraseña de la LAN al propietario del nodo.
login-intro-trusted = Confirmaciones y ajustes. Aquí solo inicia sesión el propietario del nodo, con la frase de contraseña de aprobación o un código TOTP.
login-passphrase-label = Frase de contraseña
login-label-lan = Frase de contraseña de la LAN
login-label-trusted = Frase de contraseña de aprobación (o código TOTP)
login-code-label = Código TOTP de su app de autenticación
login-submit = Iniciar sesión

## Lo que dice la página mientras se inicia la sesión.

login-checking = Comprobando…
login-service-answered = El servicio respondió { $status }.
login-unreachable = No se pudo contactar con el servicio: { $error }
