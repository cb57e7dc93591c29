### aiui-cli's own lines in English: what the terminal commands print to the person running them. Every key here
### exists in every locale, with the same variables; a test compares them. Column padding is done by the CLI: a
### variable named like a figure may arrive already padded to its column.

## Shared by several commands.

cli-note = note: { $notice }
cli-list-separator = {", "}
# Accepted as yes at a [y/N] question besides "y" and "yes", separated by spaces (English: only those two).
cli-answer-yes = y yes
cli-yes-no = [y/N]
# A percentage; $value is already written with the locale's decimal separator.
cli-percent = { $value }%
cli-runtime-failed = aiui-cli: could not start the async runtime: { $error }
cli-no-data-dir = no data dir: set AIUI_DATA_DIR or pass --data-dir
cli-reading-file = reading { $path }
cli-reading-stdin = reading standard input
cli-reading-stdin-short = reading stdin
cli-reading-terminal = reading the terminal
cli-creating = creating { $path }
cli-logging-in = logging in
cli-logging-out = logging out
cli-logging-in-node = logging in to the node
cli-nothing-written = nothing was written
cli-period-never = never
cli-period-daily = daily
cli-period-weekly = weekly
cli-period-monthly = monthly

## doctor and demo: reach the node, log in, summarise it.

cli-doctor-plain-http = ! { $url } is plain http: the password and session travel unencrypted.
cli-doctor-node = Node      { $url }
cli-doctor-cert = Cert      SHA-256 { $pin } (pinned)
cli-doctor-health = Health    HTTP { $status } { $body }
cli-doctor-login-ok = Login     ok
cli-doctor-listing-packages = listing packages
# $summary: cli-doctor-package-count items joined with cli-list-separator; $state is the node's own name for it.
cli-doctor-packages = Packages  { $summary }
cli-doctor-package-count = { $count } { $state }
cli-doctor-killed = {"          "}! { $app } was killed for using too much memory (exit 137)
cli-doctor-crashed = {"          "}! { $app } crashed (exit { $code })
# $progress is cli-percent, or ? when the node did not say.
cli-doctor-bitcoin = Bitcoin   { $chain } block { $blocks } of { $headers } ({ $progress } verified)
cli-doctor-bitcoin-unavailable = Bitcoin   unavailable: { $error }
cli-doctor-all-passed = All checks passed.
cli-tofu-presents = The node presents a certificate with SHA-256 fingerprint:
cli-tofu-compare = Compare it with the fingerprint shown on the node itself before you trust it.
cli-tofu-no-terminal = not trusting an unknown certificate without a person to confirm it; after checking it, run again with --fingerprint { $fingerprint }
cli-tofu-question = Trust this certificate? [y/N]
cli-tofu-not-trusted = certificate not trusted; nothing was sent to the node
cli-no-password = no password: set { $env }, or run doctor in a terminal to be asked for it
cli-password-prompt = Node password:
cli-reading-password = reading the password
cli-totp-prompt = TOTP code:
cli-demo-fingerprint = the demo node's fingerprint
cli-demo-address = the demo node's address
cli-demo-at = Demo node (simulated) at { $url }
cli-demo-keeps-running = The demo node keeps running until Ctrl-C. From another terminal, check it with doctor:
cli-demo-or-chat = or chat with the assistant about a demo node of its own: cargo run -p aiui-cli -- chat --demo
cli-waiting-ctrl-c = waiting for Ctrl-C

## doctor --contract: every read method and how its answer compares with the adapter table.

cli-contract-intro = Contract  every read method in AIUI's adapter table, called once (reads only: nothing on the node changes)
cli-contract-summary = Summary   { $exact } match, { $drifted } readable with drift, { $unreadable } not readable, { $silent } did not answer
cli-contract-send = To correct AIUI for this node, send this whole output to its developers (or edit node/adapter.rs). The samples are screened: secrets are redacted and LAN and onion addresses replaced.
cli-contract-failed = { $failed } of { $total } read methods could not be used as AIUI expects
cli-contract-documented = doc
cli-contract-name-only = name
cli-contract-assumed = assumed
cli-contract-app = {" "}(id { $app })
cli-contract-not-called = {"  "}answered  not called: { $why }
cli-contract-no-answer = {"  "}answered  no: { $why }
cli-contract-answered = {"  "}answered  yes
cli-contract-unreadable = {"  "}shape     NOT READABLE: { $reason }
cli-contract-sample = {"  "}sample    { $sample }
cli-contract-entries = {" "}({ $count } entries)
# $verdict is one of cli-contract-matches*, cli-contract-drift; $entries is cli-contract-entries or nothing.
cli-contract-shape = {"  "}shape     { $verdict }{ $entries }
cli-contract-matches = matches
cli-contract-matches-partly = matches, without its optional fields
cli-contract-drift = readable, with drift
# $fields are cli-contract-field items (or plain field names), joined with cli-list-separator.
cli-contract-missing = {"  "}missing   { $fields }
cli-contract-not-sent = {"  "}not sent  { $fields }
cli-contract-extra = {"  "}extra     { $fields }
cli-contract-renamed = {"  "}renamed   { $fields }
cli-contract-retyped = {"  "}type      { $fields }
cli-contract-skipped = {"  "}skipped   { $fields }
cli-contract-field = { $field } (in { $n } of { $total })

## chat: the assistant in the terminal.

cli-chat-title = Terminal chat
cli-chat-resuming = Resuming "{ $title }" ({ $count } messages).
cli-chat-started = Conversation { $id }. Type a question; /list shows conversations; /quit or Ctrl-D ends.
cli-chat-you = you>
cli-chat-list-item = {"  "}{ $id }  { $title }  ({ $count } messages)
cli-chat-choose = {"  "}(type a number to choose)
cli-chat-notice = {"  "}note: { $notice }
cli-chat-approve = Approve? [y/N]
cli-chat-not-decided = {"  "}the decision was not taken: { $error }
cli-chat-turn-cost = {"  "}(this turn cost { $cost })
cli-chat-done = {"  "}(answered by { $backend }) · cost { $cost }
cli-chat-turn-stopped = the turn stopped unexpectedly
cli-chat-need-node = pass --node URL, or --demo
cli-chat-still-no-backend = Still no assistant backend is available (the reasons are above).
cli-chat-enable-a-leg = To enable one: start Ollama on this machine with a tool-capable model (`ollama pull qwen2.5:7b`), or store a Claude API key in the OS keyring (`secret-tool store --label=AIUI service aiui username anthropic-api-key`) and give Claude an allowance (`aiui-cli budget set --claude-usd 5 --claude-period monthly`), then type your question again.

## What the chat draws for the node's answers and for a confirmation.

cli-col-app = app
cli-col-state = state
cli-col-version = version
cli-col-note = note
cli-col-health = health
cli-col-mint = mint
cli-col-unit = unit
cli-col-trusted = trusted
cli-exit-code = exit { $code }
cli-log-tail = ── last { $count } log lines of { $app } ──
# $progress is cli-percent or ?; $state one of cli-sync-*.
cli-bitcoin-sync = Bitcoin ({ $chain }) block { $blocks } of { $headers } · { $progress } verified · { $state }
cli-sync-syncing = syncing
cli-sync-synced = synced
cli-sync-not-synced = not synced
cli-sync-unknown = sync state unknown
cli-lightning = Lightning { $alias } · { $channels } active channels · { $peers } peers · { $state } at block { $height }
cli-system = CPU { $cpu } · memory { $memory } of { $memory_total } · disk { $disk } of { $disk_total } · up { $uptime }
cli-hours-short = { $hours } h
cli-gib = { $value } GiB
cli-trusted-yes = yes
cli-trusted-no = no
cli-trusted-unknown = not stated
cli-confirm = ⚠ Confirm: { $summary }
cli-confirm-method = {"  "}method   { $method }
cli-confirm-risk = {"  "}risk     { $risk }
cli-confirm-proposed = {"  "}proposed { $backend }

## screen: what a cloud leg would receive.

cli-screen-report = screen: { $report }
cli-screen-blocked = screen: BLOCKED ({ $kinds }): { $message }
cli-screen-nothing-sent = nothing would be sent

## providers: the Routstr providers found on Nostr.

cli-providers-endpoint = {"  "}endpoint  { $endpoint }
cli-providers-mint = {"  "}mint      { $mint }
# $cap and $prompt are sats, already written with the locale's decimal separator.
cli-providers-model = {"  "}model     { $model }: { $cap } sats for { $tokens } completion tokens + { $prompt } sats per 1000 prompt characters
cli-providers-none = No provider found.
cli-providers-none-serving = No provider found serving `{ $model }`.
cli-providers-discovery = Discovery:

## budget: the two allowances and Claude's prices.

cli-budget-nothing-to-change = nothing to change: pass --allowance, --period, --mint or --no-mints (Routstr, sats), or --claude-usd or --claude-period (Claude, US dollars)
cli-budget-saved = Budget saved.
cli-budget-claude-saved = Claude's allowance saved.
cli-budget-price-saved = Price saved for { $model }: it is used from the next request.
cli-budget-bad-claude-usd = --claude-usd: { $why }; nothing was changed
cli-budget-no-conversations = note: the conversations could not be read ({ $error }); free answers are not counted
cli-budget-routstr = Routstr (sats):
cli-budget-routstr-80 = 80% or more of the Routstr allowance is spent this period.
cli-budget-free = This month: { $local } local and { $builtin } built-in answers, at $0.
cli-budget-claude = Claude (US dollars):
cli-budget-claude-off = allowance: $0 (Claude is not used; set one with --claude-usd AMOUNT)
cli-budget-claude-spent-off = spent:     { $spent } (reserved { $reserved }) this period
# $period is one of cli-period-*.
cli-budget-allowance = allowance: { $allowance } ({ $period })
cli-budget-spent = spent:     { $spent }
cli-budget-reserved = reserved:  { $reserved }
cli-budget-remaining = remaining: { $remaining }
# $renews is cli-renews-never or one of cli-renews-in-*.
cli-budget-renews = renews:    { $renews }
cli-budget-claude-80 = 80% or more of Claude's allowance is spent this period.
cli-budget-sats-allowance = allowance: { $sats } sats ({ $period })
cli-budget-sats-spent = spent:     { $sats } sats
cli-budget-sats-reserved = reserved:  { $sats } sats
cli-budget-sats-remaining = remaining: { $sats } sats
cli-budget-mints-none = accepted mints: none (paid help is off)
cli-budget-mints = accepted mints:
cli-budget-80-sent = The 80% notice was sent this period.
cli-renews-never = never (a one-off allowance)
cli-renews-in-days =
    { $count ->
        [one] in 1 day
       *[other] in { $count } days
    }
cli-renews-in-hours =
    { $count ->
        [one] in 1 hour
       *[other] in { $count } hours
    }
cli-renews-in-minutes =
    { $count ->
        [one] in 1 minute
       *[other] in { $count } minutes
    }
cli-prices-header = Claude's prices, US dollars per million tokens (shipped: taken { $date } from { $source }):
cli-prices-col-model = model
cli-prices-col-input = input
cli-prices-col-output = output
cli-prices-col-cache-write = cache write
cli-prices-col-cache-read = cache read
cli-prices-mine = {"  "}(set by you)
cli-prices-footer = A model that is not listed is never used for paid requests.

## wallet: the assistant's Cashu wallet.

cli-wallet-nothing-to-back-up = there is no wallet in { $dir } yet: nothing to back up
cli-wallet-opening = opening the wallet
cli-wallet-no-mints = No mints yet: fund the wallet with `aiui-cli wallet invoice` or `wallet receive`.
# $sats is right-aligned in a column of 10.
cli-wallet-at-mint = { $sats } sats  { $mint }
cli-wallet-total = { $sats } sats  total
cli-wallet-in-flight = { $sats } sats  in flight (payments, withdrawals and tokens not settled yet)
cli-wallet-spent = { $sats } sats  spent, { $fees } sats in mint fees, { $received } sats received in all
cli-wallet-withdrawn = { $sats } sats  withdrawn or sent, { $fees } sats in their fees
cli-wallet-not-accepted = ! { $mint } is not among the accepted mints: its { $sats } sats are not spent on providers, and can be withdrawn
cli-wallet-did-not-count = it did not count
cli-wallet-kept-aside = ! a token returned by { $provider } was kept aside, not received: { $reason } (`aiui-cli wallet set-aside`)
cli-wallet-ledger-off = warning: the ledger does not add up; run `aiui-cli wallet reconcile`
cli-wallet-reading-token = reading the token from standard input
cli-wallet-no-token = no token on standard input: paste a cashuA…/cashuB… token, e.g. `aiui-cli wallet receive < token.txt`
cli-wallet-received = Received { $sats } sats.
cli-wallet-pay-then-reconcile = Pay this invoice; `aiui-cli wallet reconcile` mints the ecash once it is paid.
cli-wallet-waiting = Waiting up to { $secs } s for the invoice to be paid…
cli-wallet-minted = Minted { $sats } sats at { $mint }.
cli-reconcile-checked = checked { $count } payment(s) in flight
cli-reconcile-reclaimed = reclaimed { $count } token(s), { $sats } sats
cli-reconcile-returned = received { $count } stored change/refund token(s)
cli-reconcile-refunded = { $count } refunded by the provider's refund endpoint
cli-reconcile-waiting = { $count } spent without change yet: the provider is asked again later
cli-reconcile-written-off = { $count } written off as spent after every try
cli-reconcile-unreachable = { $count } could not be checked (mint unreachable), kept
cli-reconcile-live = { $count } belong to a request that is still running, left alone
cli-reconcile-settled = { $settled } reservation(s) settled from the ledger, { $released } released
cli-reconcile-minted = minted { $sats } sats from paid invoices
cli-reconcile-elsewhere = another AIUI process is reconciling this wallet right now; nothing was done here
cli-withdraw-invoice = a Lightning invoice (lnbc…)
cli-withdraw = Withdraw { $sats } sats from { $mint }
cli-withdraw-fee-reserve = {"  "}the mint's fee reserve: up to { $sats } sats (what it does not use comes back)
cli-withdraw-input-fee = {"  "}the mint's input fee:   { $sats } sats
cli-withdraw-most = {"  "}the most it can cost:   { $sats } sats
cli-withdraw-question = Pay this invoice?
cli-withdraw-not-paid = not paid: nothing left the wallet
cli-withdraw-paid = Paid { $sats } sats (fee { $fee } sats). Withdrawal { $id }.
cli-withdraw-pending = The mint is still paying (withdrawal { $id }). It stays in flight; `aiui-cli wallet reconcile` settles it, paid or failed.
cli-send-token = A token of { $sats } sats from { $mint } (shown once: copy it now):
cli-send-take-back = Its id is { $id }: `aiui-cli wallet take-back { $id }` takes it back while nobody has claimed it.
cli-take-back-returned = Taken back: { $sats } sats are in the wallet again.
cli-take-back-claimed = Too late: the other wallet had claimed it; its { $sats } sats count as sent.
cli-sent-none = Nothing withdrawn or sent yet.
cli-sent-withdrawal = withdrawal
cli-sent-token = token
cli-sent-keyset-move = keyset move
cli-sent-unclaimed = out, not claimed yet
cli-sent-in-flight = in flight
cli-sent-fee = {" "}(fee { $sats } sats)
# $what is padded to 10 columns, $sats right-aligned in 8; $fee is cli-sent-fee or nothing.
cli-sent-row = { $id }  { $time }  { $what } { $sats } sats  { $state }{ $fee }  { $mint }
cli-backup-terminal-only = the backup words are shown only on a terminal (standard output is not one); add --force to print them anyway, e.g. into a file you keep safe
cli-backup-question = Show the wallet's backup words? Anyone who sees them can take its sats.
cli-backup-not-shown = not shown
cli-backup-written-down = Did you write down the words and the mints?
cli-backup-confirmed = Backup confirmed.
cli-backup-words = The wallet's backup words (keep them offline; anyone who has them can take the sats):
cli-backup-mints = The mints it has used (a restore asks each of them):
cli-backup-mints-qr = The mints as a QR code:
cli-no-qr = (no QR code: { $error })
cli-notices-none = No money notices.
# $age is one of cli-age-*.
cli-notice-ago = { $age } ago
cli-age-seconds = { $count } s
cli-age-minutes = { $count } min
cli-age-hours = { $count } h
cli-age-days = { $count } days
cli-set-aside-none = No token is kept aside.
cli-set-aside-row = { $id }  from { $provider }: { $reason }
cli-set-aside-needs-yes = receiving a set-aside token contacts the mint it names, which the provider may have chosen; run again with --yes to receive it
cli-set-aside-received = Received { $sats } sats from { $mint }.
cli-set-aside-discarded = Discarded the token kept aside for payment { $payment }.
cli-restore-prompt = Type or paste the backup words, then the mint lines of the backup; end with an empty line:
cli-restore-reading = reading the backup words from standard input
cli-restore-pending = {"  "}(and { $sats } sats being spent at the mint)
cli-restore-total = { $sats } sats  restored; the words are in the keyring again
cli-paste = Paste { $what }, then press Enter:
cli-stdin-empty = nothing on standard input: paste { $what }, e.g. `aiui-cli wallet pay-invoice < invoice.txt`
cli-no-terminal-to-ask = { $question } There is no terminal to ask on: run again with --yes, or on a terminal

## serve: the LAN service, its passphrases, pairing and sessions.

cli-serve-no-language = AIUI has no language `{ $tag }`: use en, de or es
cli-totp-add = Add this to your authenticator app (it is shown once; anyone with it can approve):
# $kind is lan or approval.
cli-passphrase-new =
    { $kind ->
        [lan] New LAN passphrase:
       *[approval] New approval passphrase:
    }
cli-passphrase-again =
    { $kind ->
        [lan] The LAN passphrase again:
       *[approval] The approval passphrase again:
    }
cli-passphrase-differ = the two entries differ; nothing was changed
cli-passphrase-set =
    { $kind ->
        [lan] The LAN passphrase is set (an argon2id hash in { $file }).
       *[approval] The approval passphrase is set (an argon2id hash in { $file }).
    }
cli-passphrase-live = A running `aiui-cli serve` uses it within a second, and ends the sessions signed in with the old one.
cli-passphrase-approval-too = Set the approval passphrase too: aiui-cli serve set-approval-password
cli-pair-not-https = { $url } is not an https address: the service pins the node's certificate and sends it the node password, so it pairs only over https
cli-pair-login = logging in to the node with that password; nothing was written
cli-pair-paired = Paired with { $url } (certificate SHA-256 { $pin }, pinned).
cli-pair-wrote = Wrote { $env } and { $password } (0600).
cli-pair-start = Start the service: systemctl start aiui (a running one: systemctl restart aiui)
cli-pair-remaining = The service starts once these are done too:
cli-pair-no-password = no node password was given; nothing was written
cli-sessions-no-list = no session list in { $dir }: is `aiui-cli serve` running with this data dir?
cli-sessions-old = note: the list is { $secs } s old; the service may not be running.
cli-sessions-nobody = No one is signed in.
# $origin is padded to 7 columns, $address to 15.
cli-sessions-row = { $id }  { $origin }  from { $address }  signed in { $signed_in }  last active { $last_active }
cli-sessions-unknown = no session with the id { $ids } (see `aiui-cli serve sessions`); nothing was ended
cli-sessions-stale = the session list is { $secs } s old: the service does not seem to be running; nothing was ended
cli-sessions-ended-all = Every session ended; those browsers must sign in again.
cli-sessions-ended = { $count } session(s) ended; those browsers must sign in again.
cli-sessions-not-picked-up = the service did not pick up the request within 5 s (is it running with this data dir?); nothing was ended
