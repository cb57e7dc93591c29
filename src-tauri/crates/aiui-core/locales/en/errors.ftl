### Refusals and failures AIUI writes itself, in English: the reference. The wallet's, the prices' and the
### allowances' own errors (core), and the shells' refusals (the desktop's commands, the LAN service's answers), as
### the trusted window, the chat and the terminal show them. $error, $reason and $detail are a deeper part's own
### words (the node's, a mint's, the keyring's, a parser's) and stay as that part wrote them.

## The wallet's errors (pay/mod.rs, PayError::text). $mint is a mint's URL; amounts in sats are numbers.
pay-error-seed-missing = the wallet seed is missing from the keyring but a wallet exists in the data dir; restore the seed words into the keyring (or move the wallet aside) before opening it
pay-error-seed = wallet seed: { $error }
pay-error-keyring = keyring: { $error }
pay-error-store = wallet store: { $error }
pay-error-ledger = could not write the payment ledger: { $error }. No token left the wallet
pay-error-invalid-token = not a usable Cashu token: { $reason }
pay-error-invalid-invoice = not a usable Lightning invoice: { $reason }
pay-error-invalid-mint = not a mint URL: { $reason }
pay-error-mint-unreachable = the mint { $mint } could not be reached: { $reason }
pay-error-mint = the mint { $mint } refused: { $reason }
pay-error-insufficient = not enough ecash at an accepted mint for { $needed } sats
pay-error-no-common-mint = no mint is both accepted by the owner and listed by the provider
pay-error-over-budget = the mint's fee would take the payment over the allowance
pay-error-multi-keyset = the token would span several keysets, which providers reject
pay-error-already-spent = the token was already redeemed at the mint
pay-error-timeout = timed out waiting for the mint
pay-error-unknown-payment = no open payment { $id } in the ledger
pay-error-moved = payment { $id } was moved to { $state } by another process; left as it is
pay-error-mint-unclear = the mint { $mint } gave no clear answer ({ $reason }); nothing is lost: it is asked again later
pay-error-returned-elsewhere = the token was already sent back for another payment ({ $id }), so it cannot count for this one
# A withdrawal the mint refused for good; $error is one of the errors above.
pay-error-withdrawal-refused = { $error }; nothing was paid and the sats are back in the wallet

## Begun and not finished (PayError::Unfinished): nothing is lost, and the next reconcile finishes it. $error is
## one of the errors above, or the ledger's own words.
pay-unfinished-payment-token = the mint gave no clear answer while the token was being made ({ $error }); nothing is lost: the payment is kept and settled by the next reconcile
pay-unfinished-payment-ledger = the payment ledger could not record a token ({ $error }), and it could not be taken back yet; it is kept and taken back by the next reconcile
pay-unfinished-not-settled = payment { $id } is not settled yet; run `aiui-cli wallet reconcile` first
pay-unfinished-swap = the swap at { $mint } did not take every old proof
pay-unfinished-withdrawal = the mint gave no clear answer about the withdrawal ({ $error }); nothing is lost: it stays in flight and the next reconcile settles it
pay-unfinished-send-token = the mint gave no clear answer while the token was being made ({ $error }); nothing is lost: the next reconcile finishes it or puts the sats back
pay-unfinished-send-ledger = the ledger could not record the token ({ $error }); it was not shown, and the next reconcile takes it back
pay-unfinished-receive = receiving a token at { $mint } was begun and not finished; it is finished by the next reconcile
pay-unfinished-take-back = taking a token back at { $mint } was begun and not finished
pay-unfinished-restore = a restore from the backup words stopped before every mint gave back its ecash; nothing is lost: run the restore again with the same words and mints

## A dollar amount or price the owner typed, refused (pricing/mod.rs, PriceError::text). $text is what was typed.
price-error-amount = { $text } is not an amount in US dollars (e.g. 5 or 2.50)
price-error-price = { $text } is not a price in US dollars (e.g. 3 or 0.30)
price-error-grouped = { $text } could be read two ways: write the amount without a thousands separator (1000, or 1.50 for one and a half)
price-error-range = { $value } is not a price in USD per million tokens (0 to { $max })
price-error-model = { $text } is not a model name (letters, digits, - . _ :)
price-error-corrupt = the price file { $path } is damaged ({ $reason }); fix or remove it, then set the price again
price-error-write = could not save the price to { $path }: { $error }. Nothing was changed

## The allowances' files and settings (budget/mod.rs, BudgetError::text).
budget-error-read = could not read the budget file { $path }: { $error }
budget-error-corrupt = the budget file { $path } is damaged ({ $reason }); fix or remove it and set the budget again
budget-error-write = could not save the budget to { $path }: { $error }. Nothing was changed
budget-error-invalid = invalid budget setting: { $reason }
budget-error-not-a-mint = { $mint } is not a mint URL (expected https://… or http://…)

## Who may do what, in either shell.
error-not-trusted = This can only be done in AIUI's trusted window.
error-not-trusted-lan = This can only be done on the trusted origin, where the owner signs in with the approval passphrase.
error-unknown-command = There is no command `{ $command }`.
error-no-tool = There is no tool named `{ $tool }`.
error-not-on-lan = This setting is not changed over the LAN: use `aiui-cli budget` and `aiui-cli wallet` on the node.
error-saved-not-rebuilt = Saved, but the assistant's backends could not be rebuilt: { $error }
error-busy-change = The assistant is answering; change this when it has finished.
error-settings-not-saved = The settings could not be saved: { $error }

## A confirmation, decided in the trusted window (desktop) or on the LAN's trusted origin.
error-too-soon = The confirmation was only just shown. Read it, then approve again.
error-confirmation-unknown = This confirmation is no longer pending (it was answered, expired, or never existed).
error-confirmation-changed = The request changed since it was shown; nothing was decided. Look at it again.
error-confirmation-audit = The decision could not be recorded in the audit log, so it was not taken: { $error }
error-confirmation-expired = This confirmation has expired; nothing was done.
error-approve-on-kiosk = On this node, LAN requests are approved on the node's own screen (the kiosk). You can deny it here.
error-decide-secret-required = Approving needs your approval passphrase or a TOTP code. Nothing was decided.
error-decide-wrong-secret = That is not the approval passphrase (or a current TOTP code). Nothing was decided.
error-tool-secret-required = Changing a tool switch needs your approval passphrase or a TOTP code. Nothing was changed.
error-tool-wrong-secret = That is not the approval passphrase (or a current TOTP code). Nothing was changed.

## Signing in to the LAN service.
error-signed-out = You are not signed in (or your session ended). Sign in again.
error-bad-origin = Refused: this request did not come from this site's own page, or it lacked its CSRF token.
error-rate-limited = { $seconds ->
        [one] Too many sign-in attempts. Wait { $seconds } second, then try again.
       *[other] Too many sign-in attempts. Wait { $seconds } seconds, then try again.
    }
error-duplicate-cookie = This browser sent two session cookies for this site (a page elsewhere may have planted one). Nothing was done: clear this site's cookies in the browser, then sign in again.
error-wrong-host = This service does not answer to that host name. Open it under the name the node's owner gave you.
error-passphrase-too-long = That is longer than any passphrase this service accepts.
error-wrong-lan-passphrase = That LAN passphrase is not right. Check it with the node's owner and try again.
error-wrong-approval-passphrase = That is not the approval passphrase (or a current TOTP code). Only the node's owner can sign in here.
error-code-required = The passphrase is right. This node also asks for a TOTP code: enter the one your authenticator shows now.

## The chat.
error-empty-message = Type a message first.
error-message-too-long = That message is too long; shorten it.
error-busy-answering = The assistant is still answering; wait for it to finish.
error-unknown-conversation = There is no such conversation in this session.
error-unknown-turn = There is no such turn in this session.

## The desktop's settings.
error-api-key-empty = Paste the API key first.
error-api-key-malformed = That does not look like an API key (it has spaces or is too long).
error-demo-paired = The demo is paired with its simulated node; start AIUI without --demo to pair a real one.
error-fingerprint-first = Fetch the node's certificate fingerprint and accept it first.
error-password-empty = Enter the node's password.
error-login-timeout = The node did not answer the login in time; nothing was saved.
error-login-failed = { $error }. Nothing was saved.
error-not-an-address = Not an address: { $error }
error-node-address-scheme = The node's address starts with https:// (or http:// on a trusted LAN).
error-no-language = AIUI has no language `{ $tag }`: pick one from the list.
# $field is the price's column.
error-price-field = { $field ->
        [input] The input price is US dollars per million tokens, e.g. 3 or 0.30.
        [output] The output price is US dollars per million tokens, e.g. 3 or 0.30.
        [cache-write] The cache write price is US dollars per million tokens, e.g. 3 or 0.30.
       *[cache-read] The cache read price is US dollars per million tokens, e.g. 3 or 0.30.
    }
error-reviewer-key = The reviewer key is an npub… or 64 hex characters: { $reason }.
error-tor-socks = The Tor SOCKS address is an IP address and a port, e.g. 127.0.0.1:9050.

## The wallet, in the trusted window and on the LAN's trusted origin.
error-no-wallet = There is no wallet yet: fund it (or restore it) first.
error-no-wallet-to-back-up = There is no wallet yet: nothing to back up.
error-no-wallet-lan = There is no wallet on this node: paid help is off (its allowance is 0), or the wallet could not be opened. Fund and set it up with `aiui-cli wallet` and `aiui-cli budget` on the node.
error-wallet-not-on-lan = Over the LAN the wallet only shows what it holds and withdraws to Lightning (its section on this page). Funding it, its backup words, restoring it and sending tokens are done on the node: `aiui-cli wallet`.
error-wallet-not-opened = The wallet could not be opened.
error-wallet-not-opened-because = The wallet could not be opened: { $error }
error-busy-restore = The assistant is answering; restore when it has finished.
error-restore-no-mints = Add the backup's mint lines under the words (one address per line, https://…): restore asks each mint.
error-restore-not-empty = This wallet holds { $sats ->
        [one] { $sats } sat
       *[other] { $sats } sats
    }: a restore never replaces a wallet that holds ecash.
error-restore-other-words = The keyring already holds other wallet words, and no wallet here uses them: they may guard sats elsewhere. Write them down first; then tick "Replace the words in the keyring" and restore again.
error-not-a-withdrawal = That approval is not a withdrawal; nothing was sent.
error-not-a-token = That approval is not a token; nothing was sent.
error-token-too-small = A token is worth at least 1 sat.
error-token-pick-mint = Choose one of the wallet's mints.
error-token-over-held = { $mint } holds { $held } sats: a token of { $amount } sats needs at least that.
error-paste-token = Paste a Cashu token (it starts with cashuA or cashuB).
error-invoice-amount = Choose an amount from 1 to { $max } sats.
error-mint-https = The mint's address starts with https://.
error-not-paid-yet = Not paid yet. Pay the invoice, then check again.
error-approval-lapsed = That approval has lapsed; nothing was sent. Start again.
error-approval-unknown = There is no such approval (it was used, replaced or lapsed); nothing was sent.
error-mint-timeout = The mint did not answer in time; nothing changed.
error-qr = It could not be drawn as a QR code: { $error }.
error-quote-unknown = This withdrawal quote is not pending (it was used, replaced, or never existed). Nothing was paid; ask for a new quote.
error-quote-expired = The mint's quote has expired. Nothing was paid; ask for a new quote.
error-quote-too-soon = The quote was only just shown. Read what it costs, then withdraw again.
error-withdraw-secret-required = Withdrawing needs your approval passphrase or a TOTP code. Nothing was paid.
error-withdraw-wrong-secret = That is not the approval passphrase (or a current TOTP code). Nothing was paid.

## The kiosk's link to the LAN service (the desktop's lan_approvals.rs).
error-lan-unreachable = The LAN service is not reachable (nothing answers on { $socket }): nothing was decided. Check that `aiui-cli serve` runs with --kiosk-socket { $socket }.
error-lan-no-answer = The LAN service did not answer within { $seconds } s, so this screen cannot tell whether it was decided. If the request is still listed, it was not; the audit log on the node says for sure.
error-lan-busy = An answer to this confirmation is already on its way to the LAN service; wait for it.

## Why the desktop has no node to talk to, in the chat window.
error-unpaired-not-yet = No node is paired yet. Open Settings to pair this app with your node.
error-unpaired-no-password = The node { $url } is paired, but its password is not in the keyring. Pair it again in Settings.
error-unpaired-password = The node password could not be read: { $error }.
error-unpaired-unusable = The paired node { $url } cannot be used: { $error }
