### The LAN service's sign-in page (ui/login.html and ui/js/login.js) in English: the reference catalogue. Every key
### here exists in de/login.ftl and es/login.ftl with the same variables. The service's own answers (a wrong
### passphrase, a code required) are written by the host and never pass through here.

## The page, on the chat origin (the LAN passphrase) and on the trusted origin (the owner's approval passphrase).

login-page-title = AIUI · Sign in
login-heading = Sign in to AIUI
login-heading-trusted = AIUI trusted origin: owner sign-in
login-intro-lan = Chat with the assistant of this node. Ask the node's owner for the LAN passphrase.
login-intro-trusted = Confirmations and settings. Only the node's owner signs in here, with the approval passphrase or a TOTP code.
login-passphrase-label = Passphrase
login-label-lan = LAN passphrase
login-label-trusted = Approval passphrase (or TOTP code)
login-code-label = TOTP code from your authenticator
login-submit = Sign in

## What the page says while it signs in.

login-checking = Checking…
# $status is the HTTP status code.
login-service-answered = The service answered { $status }.
# $error is the browser's reason.
login-unreachable = The service could not be reached: { $error }
