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
cli-take-back-in-part = The other wallet had claimed part of it: { $claimed } sats count as sent. The unclaimed rest was taken back: { $sats } sats are in the wallet again.
cli-take-back-rest-too-small = The other wallet had claimed part of it: { $claimed } sats count as sent. The { $rest } sats left in it are worth no more than the mint's fee to take them back, so they stay with the token and count as that fee.
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
cli-set-aside-was-received = An earlier receive had already taken this token into the wallet: its { $sats } sats are counted now, not discarded.
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

## --help: clap's own headings and flags (help.rs). Each command's and argument's help is a help-* message below.
cli-help-usage = Usage:
cli-help-commands = Commands
cli-help-options = Options
cli-help-arguments = Arguments
cli-help-help = Print help (a summary with -h, everything with --help)
cli-help-version = Print the version
cli-help-subcommand = Print this message or the help of the given subcommand(s)
# After an argument's help, in brackets: $name an environment variable, $value a default, $values the values it takes.
cli-help-env = env: { $name }
cli-help-default = default: { $value }
cli-help-possible = possible values: { $values }

## --help: each command's help (its doc comment's first line; .long the whole of it when it has more) and, as
## attributes, each argument's (.arg-<id>, .arg-<id>-long). Made from the doc comments by the ignored test
## `help_messages` in aiui-cli's main.rs; another test keeps the two word for word the same.
help-aiui-cli = AIUI, the Archipelago node assistant, from the terminal
help-aiui-cli_doctor = Check that AIUI can reach and log in to a node, and summarise its state. With --contract, check every read method's answer against AIUI's adapter table instead
    .long = 
        Check that AIUI can reach and log in to a node, and summarise its state. With --contract, check every read method's answer against AIUI's adapter table instead.

        The password is read from AIUI_NODE_PASSWORD or asked for on the terminal; it is never an argument, so it does not show in `ps`. If the node asks for a TOTP code, it is read from AIUI_NODE_TOTP or asked for.
    .arg-node = The node's address, e.g. https://archipelago.local
    .arg-fingerprint = The SHA-256 fingerprint of the node's certificate that you accept (https only). Without it, doctor shows the fingerprint and asks you to confirm it
    .arg-contract = Check the node against AIUI's adapter table: call every read method once and report, per method, whether it answered, whether its shape matched, and which fields were missing, extra, renamed or of another type, with a redacted sample. Reads only; nothing on the node changes. Send the output to correct the adapter
    .arg-app = The app `container-status` and `container-logs` are asked about in `--contract` (default: the first running app)
help-aiui-cli_demo = Start a simulated node on this machine and run `doctor` against it: the quickest look at AIUI
    .arg-once = Stop after the checks instead of keeping the demo node running
help-aiui-cli_chat = Talk to the assistant about a node in this terminal. Actions are confirmed here, default No
    .arg-node = The node's address. Omit it with --demo
    .arg-fingerprint = The accepted SHA-256 fingerprint of the node's certificate (https)
    .arg-demo = Chat with a simulated node started on this machine instead of a real one
    .arg-ollama = Where the local Ollama listens
    .arg-ollama_model = The Ollama model to use (default: the first installed one that supports tools)
    .arg-claude_url = The Anthropic API base URL (the key itself comes from the OS keyring)
    .arg-routstr_model = The model to ask Routstr providers for, when the allowance is above zero (`aiui-cli budget set`)
    .arg-relays = A Nostr relay to discover Routstr providers on; repeat for several (default: the Routstr SDK's relays)
    .arg-any_provider = Use providers nobody reviewed (default: only reviewed providers)
    .arg-reviewer = The reviewer whose kind-38425 labels decide which providers count as reviewed (npub or hex public key)
    .arg-tor = A Tor SOCKS5 proxy; relays and onion providers are then reached through it
    .arg-data_dir = Where conversations and the audit log are kept (default: $AIUI_DATA_DIR or ~/.local/share/aiui)
    .arg-no_builtin = Never answer with the built-in small model (SmolLM2-135M), the last leg. Its file is looked for in $AIUI_MODEL_DIR, else the data dir's models/ (`bash scripts/setup` puts it there)
    .arg-conversation = Resume this conversation instead of starting a new one
help-aiui-cli_screen = Read text (or a JSON request body) on stdin and print exactly what a cloud backend would receive, then what was redacted or blocked and why. Exits non-zero when it would be blocked
    .arg-as_tool_result = Screen plain text as a tool result (redacted) instead of as your own message (blocked if it holds a secret)
help-aiui-cli_providers = List the Routstr providers found on Nostr, with endpoints, mints and price per request
    .arg-model = Show only providers serving this model, with its price
    .arg-verbose = Show every relay's notices and every event the relays served, with why it was used or refused
    .arg-relays = A Nostr relay to discover Routstr providers on; repeat for several (default: the Routstr SDK's relays)
    .arg-any_provider = Use providers nobody reviewed (default: only reviewed providers)
    .arg-reviewer = The reviewer whose kind-38425 labels decide which providers count as reviewed (npub or hex public key)
    .arg-tor = A Tor SOCKS5 proxy; relays and onion providers are then reached through it
help-aiui-cli_budget = Show or change the assistant's allowance (the operator API; the chat can never change it)
    .arg-data_dir = Where AIUI keeps its files (default: $AIUI_DATA_DIR or ~/.local/share/aiui)
help-aiui-cli_budget_get = Show both allowances (what was spent and reserved this period, and what remains) and this month's free answers
    .arg-json = Print JSON instead of text
help-aiui-cli_budget_set = Change either allowance (Routstr's sats, with its period and accepted mints; Claude's US dollars, with its period). Unset options stay as they are
    .arg-allowance = The allowance in sats per period (0 turns paid help off)
    .arg-period = never, daily, weekly or monthly; a new period schedule starts now
    .arg-mints = An accepted mint URL; repeat for several. Replaces the list
    .arg-no_mints = Accept no mint at all (paid help stays off)
    .arg-claude_usd = Claude's allowance in US dollars per period, e.g. 5 or 2.50 (0 turns Claude off)
    .arg-claude_period = Claude's period: never, daily, weekly or monthly; a new schedule starts now
help-aiui-cli_budget_price = Set your own price for a Claude model, in US dollars per million tokens; it replaces the shipped one
    .arg-model = The model, as Anthropic names it (e.g. claude-sonnet-4-5)
    .arg-input = US dollars per million input tokens
    .arg-output = US dollars per million output tokens
    .arg-cache_write = A 5-minute prompt-cache write
    .arg-cache_read = A prompt-cache hit
help-aiui-cli_budget_prices = List the prices Claude's answers are charged by, with when and where the shipped ones were taken
help-aiui-cli_wallet = The assistant's Cashu wallet: balance, receive a token, fund by Lightning, reconcile payments in flight
    .arg-data_dir = Where AIUI keeps its files (default: $AIUI_DATA_DIR or ~/.local/share/aiui)
    .arg-tor = A Tor SOCKS5 proxy (e.g. 127.0.0.1:9050) for every request to a mint
help-aiui-cli_wallet_balance = The balance at each mint, and what is in flight to providers
help-aiui-cli_wallet_receive = Receive a Cashu token read from standard input
help-aiui-cli_wallet_invoice = Get a Lightning invoice from a mint, wait until it is paid, and mint the ecash
    .arg-mint = The mint to fund
    .arg-amount = How many sats
    .arg-wait = How long to wait for the payment, in seconds (0: print the invoice and exit; `reconcile` mints it later)
help-aiui-cli_wallet_reconcile = Settle every payment in flight that no running request holds: reclaim unspent tokens, ask the provider's refund endpoint for spent ones (writing them off after every try), mint paid invoices. Refund endpoints are reached as the app reaches them: through `--tor` or the app's `routstr.tor_socks` when set
help-aiui-cli_wallet_pay-invoice = Withdraw to Lightning: pay a BOLT11 invoice read from standard input, after showing what it costs
    .arg-mint = The mint to pay from (default: the one holding the most)
    .arg-everything = Withdraw everything at the mint, after its fees (the invoice must name no amount)
    .arg-yes = Pay without asking (needed when standard input is not a terminal)
help-aiui-cli_wallet_send = Make a token for another wallet, shown once with a QR code
    .arg-mint = The mint it comes from
    .arg-amount = What the other wallet receives, in sats
help-aiui-cli_wallet_take-back = Take back a token sent out that nobody has claimed yet
    .arg-id = The id shown by `wallet sent`
help-aiui-cli_wallet_sent = Withdrawals and tokens sent out, newest first, with their state
help-aiui-cli_wallet_backup = Show the backup words (24) and the mints (only on a terminal, after you confirm)
    .arg-force = Print even when standard output is not a terminal (e.g. into a file you then keep safe)
help-aiui-cli_wallet_restore = Restore the wallet from its backup words (read from standard input, with the mint lines of the backup) into a data dir that holds no ecash
    .arg-mints = A mint to restore from, besides those read with the words
    .arg-replace_other_words = Replace other words the keyring holds (write them down first: they may guard sats)
help-aiui-cli_wallet_notices = Every money notice kept for the owner (write-offs, returned tokens that did not count), oldest first
help-aiui-cli_wallet_set-aside = Tokens a provider sent back that did not count and were kept aside, not received
help-aiui-cli_wallet_set-aside_list = List them with their payment ids (the default)
help-aiui-cli_wallet_set-aside_receive = Receive one after all. This contacts the mint the token names, which the provider may have chosen
    .arg-payment = The payment id shown by `set-aside list`
    .arg-yes = Confirms that the mint it names may be contacted
help-aiui-cli_wallet_set-aside_discard = Drop one for good; nothing changes in the sums
    .arg-payment = The payment id shown by `set-aside list`
help-aiui-cli_serve = Serve the assistant to the LAN: the chat on one port, approvals (owner only) on a second. Set the passphrases first: `serve set-password`, `serve set-approval-password`
    .arg-node = The node's address. Omit it with --demo
    .arg-fingerprint = The accepted SHA-256 fingerprint of the node's certificate (https)
    .arg-demo = Chat with a simulated node started on this machine instead of a real one
    .arg-ollama = Where the local Ollama listens
    .arg-ollama_model = The Ollama model to use (default: the first installed one that supports tools)
    .arg-claude_url = The Anthropic API base URL (the key itself comes from the OS keyring)
    .arg-routstr_model = The model to ask Routstr providers for, when the allowance is above zero (`aiui-cli budget set`)
    .arg-relays = A Nostr relay to discover Routstr providers on; repeat for several (default: the Routstr SDK's relays)
    .arg-any_provider = Use providers nobody reviewed (default: only reviewed providers)
    .arg-reviewer = The reviewer whose kind-38425 labels decide which providers count as reviewed (npub or hex public key)
    .arg-tor = A Tor SOCKS5 proxy; relays and onion providers are then reached through it
    .arg-data_dir = Where conversations and the audit log are kept (default: $AIUI_DATA_DIR or ~/.local/share/aiui)
    .arg-no_builtin = Never answer with the built-in small model (SmolLM2-135M), the last leg. Its file is looked for in $AIUI_MODEL_DIR, else the data dir's models/ (`bash scripts/setup` puts it there)
    .arg-listen = Where the chat origin listens (LAN users; the node's nginx proxies to it)
    .arg-trusted_listen = Where the trusted origin listens (the owner's approvals); expose it on its own host name or port
    .arg-base_path = The path both origins are served under behind a reverse proxy, e.g. /aiui/
    .arg-trusted_url = The trusted origin's address as LAN browsers reach it (for the chat page's link), e.g. https://node.local:5181/aiui/. Default: the chat page's host name on the trusted port (behind a proxy that listens on another port than the service, set this)
    .arg-ui_dir = The ui/ directory to serve (default: the source tree's ui/ when run from a build, else the package's /usr/share/aiui/ui)
    .arg-secure_cookies = Browsers reach the service over https (through the proxy): mark the cookies Secure
    .arg-trust_proxy = Trust X-Forwarded-For / X-Real-IP / X-Forwarded-Host from a proxy on this machine (the node's nginx)
    .arg-allowed_hosts = A host name the chat origin answers to (repeat for more). IP addresses and localhost always work; any other name gets 421, so a page on a foreign name that DNS points here reaches nothing
    .arg-trusted_hosts = A host name the trusted origin answers to (repeat for more); the first is also where the chat page links for approvals, unless --trusted-url says otherwise
    .arg-approval_needs_both = Signing in on the trusted origin needs the approval passphrase and a TOTP code, both
    .arg-kiosk_socket = A Unix socket for the node's kiosk (`aiui --kiosk`) to approve LAN requests on its own screen. Its directory must exist; the socket is made 0660, so the kiosk's user reaches it through the group
    .arg-lan_approver = Where LAN requests are approved: trusted (the trusted origin), kiosk (the node's screen; the trusted origin can then only deny) or both. kiosk and both need --kiosk-socket
    .arg-language = The language of the LAN pages, the answers and the confirmations: en, de or es. Default: the pages follow each browser's own (its Accept-Language), the answers and confirmations the environment's (LANG)
help-aiui-cli_serve_set-password = Set the LAN passphrase LAN users sign in with (read from the terminal, or one line on stdin)
    .arg-data_dir = The data dir the service uses (default: $AIUI_DATA_DIR or ~/.local/share/aiui)
help-aiui-cli_serve_set-approval-password = Set the owner's approval passphrase, asked for on the trusted origin for every approval
    .arg-data_dir = The data dir the service uses (default: $AIUI_DATA_DIR or ~/.local/share/aiui)
help-aiui-cli_serve_set-approval-totp = Make a TOTP secret for approvals (instead of, or besides, the approval passphrase); prints the otpauth:// URL to add to an authenticator app, once
    .arg-data_dir = The data dir the service uses (default: $AIUI_DATA_DIR or ~/.local/share/aiui)
help-aiui-cli_serve_sessions = List the running service's sessions (both origins), or end some: `sessions revoke <ID>…` or `--all`
    .arg-data_dir = The data dir the service uses (default: $AIUI_DATA_DIR or ~/.local/share/aiui)
help-aiui-cli_serve_sessions_revoke = End the sessions with these ids (as `serve sessions` lists them), or every session with --all
    .arg-ids = A session's id, as `serve sessions` lists it
    .arg-all = End every session
help-aiui-cli_serve_pair = Pair the installed service (aiui.service) with its node: check the certificate and the node password (read from the terminal without echo, or one line on stdin), then write node.env and node-password (0600) into /etc/aiui. Run as root; run again to change the node or its password
    .arg-node = The node's https address as the service reaches it, e.g. https://127.0.0.1/
    .arg-fingerprint = The SHA-256 fingerprint of the node's certificate that you accept. Without it, pair shows the fingerprint the node presents and asks you to confirm it
    .arg-etc_dir = Where the service's configuration is kept
    .arg-data_dir = The service's data dir, only read to say which set-up steps remain
