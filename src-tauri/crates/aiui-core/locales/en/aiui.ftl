### AIUI's host-written text in English: the reference catalogue. Every key here exists in every locale, with the
### same variables; a test compares them. The pseudo-locale en-XA is made from this file at run time.

## Confirmation summaries: what the owner approves in the trusted window. They are built from the validated
## arguments and the node's own state, never from model text. $app is the app's id as the node names it; $facts
## is the list of facts below, joined with summary-fact-separator.

summary-start = Start app `{ $app }` ({ $facts })
summary-stop = Stop app `{ $app }` ({ $facts })
summary-restart = Restart app `{ $app }` ({ $facts })
summary-install = Install app `{ $app }` ({ $facts })
summary-uninstall = Uninstall app `{ $app }` ({ $facts })
# Any other node method: $method is its RPC name, as the node spells it.
summary-call = Call `{ $method }` for `{ $app }`
summary-fact-separator = {"; "}
# Between the ids of the apps in summary-dependents.
summary-name-separator = {", "}
summary-version = version { $version }
summary-state-unknown = state unknown: the node's package list could not be read
summary-not-listed = not in the node's package list
# $count apps that need this one (at least 1); $names are their ids, joined with summary-name-separator.
summary-dependents =
    { $count ->
        [one] { $names } depends on it
       *[other] { $count } apps depend on it: { $names }
    }

## An app's state as the node reports it, inside a summary's parentheses.

state-running = running
state-stopped = stopped
state-starting = starting
state-stopping = stopping
state-restarting = restarting
state-installing = installing
state-updating = updating
state-removing = removing
state-not-installed = not installed
# The node reported a state whose name had nothing readable left once cleaned.
state-unnamed = in a state the node did not name

## Why a confirmed action did not happen, shown in the chat. $summary is one of the summaries above.

# $error is the gate's reason for not opening the confirmation.
confirm-not-done = Not done: { $summary }. { $error }
confirm-declined = You declined: { $summary }. Nothing was changed.
confirm-expired = Nobody answered the confirmation in time: { $summary }. Nothing was changed.

## The built-in leg (the small model on this machine). The model writes none of it: every word is the host's,
## built from tool results. $app is an app's title as the node names it.

builtin-notice = Answers now come from the built-in small model (SmolLM2-135M), meant for trying AIUI: it can list, check, start, stop, restart, install and uninstall apps and show the node's status, but it cannot hold a conversation. For a real assistant, start Ollama on this machine with a tool-capable model (`ollama pull qwen2.5:7b`) or add a Claude API key and a Claude allowance in the trusted settings window.
# For a request outside what the leg does. It never guesses an answer to those.
builtin-capabilities = I'm the built-in small model (SmolLM2-135M), so I only handle everyday node requests: what is running; an app's status or logs; start, stop, restart, install or uninstall an app (e.g. "restart LND"); the Bitcoin sync progress; the Lightning node's channels; CPU, memory and disk; and the accepted Cashu mints. For anything else, start Ollama with a tool-capable model (`ollama pull qwen2.5:7b`) or add a Claude API key and a Claude allowance in the trusted settings window.
# Stands in for $app when the leg knows no app's name.
builtin-the-app = the app
# What the leg understood, said before the tool runs.
builtin-understood-list = Listing your apps.
builtin-understood-status = Checking { $app }'s status.
builtin-understood-logs = Reading { $app }'s newest log lines.
builtin-understood-start = Starting { $app }: waiting for your approval.
builtin-understood-stop = Stopping { $app }: waiting for your approval.
builtin-understood-restart = Restarting { $app }: waiting for your approval.
builtin-understood-install = Installing { $app }: waiting for your approval.
builtin-understood-uninstall = Uninstalling { $app }: waiting for your approval.
builtin-understood-sync = Checking the Bitcoin sync progress.
builtin-understood-lightning = Checking the Lightning node.
builtin-understood-system = Reading the machine's CPU, memory and disk.
builtin-understood-mints = Listing the accepted Cashu mints.
# $error and $answer are the first line of the node's reply, as it came.
builtin-failed = That did not work: { $error }
builtin-node-answered = The node answered: { $answer }
# Between the items of the lists below.
builtin-separator = {", "}
# $running of $installed apps (numbers); $names are their titles, or builtin-apps-running-none.
builtin-apps-running = { $running } of { $installed } installed apps are running: { $names }.
builtin-apps-running-none = none
# $apps: each app that is installed but not running, with its state in parentheses.
builtin-apps-not-running = Not running: { $apps }.
# $state is one of the state- words above, or the node's own word for it.
builtin-app-state = { $app } is { $state }.
builtin-app-state-health = { $app } is { $state }, health: { $health }.
builtin-log-lines = Here are { $app }'s newest { $count } log lines.
# $chain is the node's name for the chain (main, test, signet); $details are the fragments below, each with its
# own leading separator, those the node sent.
builtin-sync = Bitcoin ({ $chain }) is at block { $blocks }{ $details }.
builtin-sync-headers = {" "}of { $headers } headers
# $percent is already formatted, with the locale's decimal separator.
builtin-sync-verified = {", "}{ $percent }% verified
builtin-sync-initial = {", "}still in initial download
builtin-ln-channels = { $count } active channel(s)
builtin-ln-peers = { $count } peer(s)
builtin-ln-synced = synced to the chain
builtin-ln-not-synced = not yet synced to the chain
# The Lightning node named by its alias; $node in the next two is this, or plain "LND".
builtin-ln-alias = LND "{ $alias }"
builtin-ln-no-figures = { $node }: the node sent no figures.
builtin-ln-figures = { $node }: { $figures }.
# $percent, $used, $total and $degrees are already formatted, with the locale's decimal separator.
builtin-sys-cpu = CPU { $percent }%
builtin-sys-memory = memory { $used } of { $total } GB
builtin-sys-disk = disk { $used } of { $total } GB
builtin-sys-temperature = { $degrees } °C
builtin-sys-no-figures = The node sent no system figures.
builtin-sys-figures = { $figures }.
builtin-mints-none = The node accepts no Cashu mints yet.
builtin-mints = The node accepts { $count } Cashu mint(s): { $urls }.
# $action is the tool's verb: the five the catalogue names, or another tool's as it spells it; $app the app's id.
builtin-done =
    Done: { $action ->
        [start] start
        [stop] stop
        [restart] restart
        [install] install
        [uninstall] uninstall
       *[other] { $action }
    } of { $app } accepted.
# The same, with the app's state the node reported afterwards ($state: one of the state- messages).
builtin-done-now =
    Done: { $action ->
        [start] start
        [stop] stop
        [restart] restart
        [install] install
        [uninstall] uninstall
       *[other] { $action }
    } of { $app } accepted; `{ $app }` is now { $state }.
# Asking between one-tap choices; $choices are intent- texts joined with builtin-or.
builtin-did-you-mean = Did you mean: { $choices }?
# The word itself outside the quotes, so the pseudo-locale accents it like any other.
builtin-or = {", "}or{" "}
# Stands in for $app in an intent- text when no app of the name was found.
builtin-an-app = an app
# $action is an intent- text with builtin-an-app as its app.
builtin-which-app = Which app do you mean? I understood that you want to { $action } but found no app of that name.
builtin-installed = Installed on your node: { $apps }.
builtin-none-installed = No app is installed on your node yet.
builtin-no-apps = Your node lists no apps.
builtin-installable = Not installed, available to install: { $apps }.

## What the built-in leg can do, as a one-tap choice reads. Tapping one sends it as the owner's words, so each
## must be understood again as the same intent (the cues in backends/builtin/intents.rs; a test checks it).

intent-list = list your apps
intent-status = show { $app }'s status
intent-logs = show { $app }'s logs
intent-start = start { $app }
intent-stop = stop { $app }
intent-restart = restart { $app }
intent-install = install { $app }
intent-uninstall = uninstall { $app }
intent-sync = show the Bitcoin sync progress
intent-lightning = show the Lightning node's channels and peers
intent-system = show the machine's CPU, memory and disk
intent-mints = list the accepted Cashu mints
intent-chat = chat

## The assistant loop's own notices and why a turn stopped. $backend is a leg's name (English for now);
## $error and $reason are the technical cause, as the failing part put it.

stop-stopped = You stopped the answer. What was written so far is kept; nothing else was done.
notice-paid-stop = Stopping: the paid request in flight finishes first, so its payment is settled; nothing it proposes will run.
notice-paid-off = Paid help is off for this turn: the node's mint list could not be read ({ $error }).
stop-step-limit = I stopped after { $steps } steps without reaching an answer. Nothing else was changed; you can ask again, perhaps more specifically.
notice-redacted = { $count } secret value(s) in tool results were redacted before sending to { $backend }.
stop-cut-off = { $backend } stopped in the middle of its answer ({ $reason }). What it wrote is kept above; nothing else was done. Ask again to try the next backend.
notice-leg-failed = { $error }; trying the next backend.
# $message is the allowance's own sentences.
notice-over-allowance = { $message } Trying the next backend.
# $method is the node method's RPC name.
notice-act-failed = `{ $method }` did not report success: { $error }.
notice-read-failed = Could not read `{ $method }` from the node: { $error }.
notice-package-list-failed = The app's current state is unknown: the node's package list could not be read ({ $error }).
stop-context-too-long = This conversation has grown too long for the model. Start a new conversation to continue.
stop-backend-failed = The assistant backend failed: { $error }. Nothing was changed; try again.
# Followed by one line per leg (its name and why it is not available), then stop-enable-a-leg.
stop-no-backend = No assistant backend is available right now.
stop-enable-a-leg = To enable one: start Ollama on this machine with a tool-capable model (`ollama pull qwen2.5:7b`), or add a Claude API key and a Claude allowance in the trusted settings window.
# Appended to what a leg wrote before the turn ended early.
mark-cut-off = {"["}Cut off: the backend stopped answering here.]
mark-stopped = {"["}Stopped by you here.]

## Why a paid step was not paid for, and why Claude was passed over. Amounts in sats are numbers; dollar amounts
## ($allowance, $spent, … in the claude- messages) come formatted, as "$1.50". The fragments ($renews, $taken,
## $held) carry their own leading space or separator, and are empty when they do not apply.

budget-top-up = The owner can raise or top up the allowance in AIUI's settings window (or with `aiui-cli budget set`).
budget-off = Paid help is switched off: the assistant's allowance is 0 sats, so I stopped here. { $topup }
# $period: daily, weekly or monthly.
budget-renews =
    {" "}It renews { $period ->
        [daily] daily
        [weekly] weekly
       *[monthly] monthly
    }.
budget-taken = {" "}({ $spent } spent)
budget-taken-held = {" "}({ $spent } spent, { $reserved } held for payments still being resolved; whatever they refund comes back to the allowance)
budget-used-up = The assistant's allowance of { $allowance } sats is used up{ $taken }, so I stopped here.{ $renews } { $topup }
budget-too-dear = This request could cost up to { $price } sats, but only { $remaining } of the { $allowance }-sat allowance remain{ $taken }, so I stopped here.{ $renews } { $topup }
budget-not-paid = I could not pay for this request, so I stopped here. { $remaining } of the { $allowance }-sat allowance remain{ $taken }.{ $renews } { $topup }
claude-raise = The owner can raise Claude's allowance in AIUI's settings window (or with `aiui-cli budget set --claude-usd AMOUNT`).
# A request counted at its most: $amount, $priced and $reserved are dollar amounts, formatted.
claude-abandoned = A Claude request made by an AIUI process that ended before its answer arrived was counted at its most, { $amount }, against Claude's allowance: Anthropic may have billed it, and no answer said what it cost.
claude-usage-above = Claude reported usage that costs { $priced }, more than the { $reserved } this request could cost at most. It was counted in full, since Anthropic bills what it reports; check Anthropic's console for what was billed.
# Added to a failed Claude request's reason when the request may have been billed; $reserved is formatted.
claude-maybe-billed = It was counted against Claude's allowance at its most, { $reserved }: Anthropic may have billed it.
claude-notice-80 = Claude has cost { $spent } of its { $allowance } allowance (80% or more). It is passed over once the allowance runs out. { $raise }
budget-notice-80 = The assistant has spent { $spent } of its { $allowance }-sat allowance (80% or more). Paid requests stop when it runs out; the owner can top it up in AIUI's settings window.
claude-off = Claude is not used: its allowance is $0. { $raise }
claude-held = {", "}{ $reserved } held for requests in progress
claude-too-dear = Claude was passed over: this request could cost up to { $worst }, but only { $remaining } of its { $allowance } allowance remain ({ $spent } spent{ $held }).{ $renews } { $raise }
claude-used-up = Claude was passed over: its { $allowance } allowance is used up ({ $spent } spent{ $held }).{ $renews } { $raise }

## Suggested questions on the kiosk, one tap each. A tapped one is sent as the owner's words: every leg, the
## built-in one included, must understand it (backends/builtin/tests.rs taps each kind).

suggest-why-stopped = Why did { $app } stop?
suggest-sync = How far is the sync?
suggest-running = What is running?
suggest-start = Start { $app }
suggest-restart = Restart { $app }
suggest-system = How is the system doing?

## The Routstr leg: what happened to a paid request and where the owner's money is now (backends/routstr/told.rs).
## $provider is the provider's label as discovery made it; $detail, $error are the provider's or the wallet's own
## words. $verdict is one of the routstr-verdict- messages; $after a duration, formatted ("30 s", "2.6 s").

routstr-no-answer-in-time = { $provider } did not answer within { $after }; { $verdict }
routstr-unreachable = { $provider } could not be reached; { $verdict }
routstr-broke-off = { $provider } broke off the request ({ $error }); { $verdict }
routstr-answered = { $provider } answered { $detail }; { $verdict }
routstr-answer-lost = { $provider } was paid but its answer never arrived whole
routstr-answer-lost-change-kept = { $provider } was paid but its answer never arrived whole; the change it sent was kept
routstr-redeemed-and-refused = { $provider } answered 402 but kept the payment; { $verdict }.
routstr-not-taken-back-yet = { $provider } answered 402, and its token could not be taken back yet ({ $error }); it stays recorded and is taken back by the next reconcile.
routstr-asked-more-after-redeeming = { $provider } asked for more after it had redeemed the payment; it was not paid again, and the first payment is kept for its refund (aiui-cli wallet reconcile)
# $factor is how many times the estimate a provider may ask for; $minutes how long it is now skipped.
routstr-asked-too-much =
    { $provider } asked for { $required } sats, more than { $factor }× the { $estimate } sats its advertised price comes to; it was not paid and is skipped for the next { $minutes ->
        [one] minute
       *[other] { $minutes } minutes
    }
routstr-refused-twice = the provider refused the payment twice; it was not paid a third time
routstr-no-common-mint = I could not pay: no mint is both accepted in the allowance settings and listed by the provider, so I stopped here. Nothing was spent.
routstr-too-little-ecash = I could not pay the { $price } sats this request may cost: the wallet holds too little ecash at the accepted mints, so I stopped here. Nothing was spent. The owner can fund the wallet in AIUI's settings window (or with `aiui-cli wallet invoice`).
routstr-mint-down = I could not pay: { $error }. Nothing was spent, so I stopped here; try again when the mint is back.
routstr-not-paid = I could not pay: { $error }. Nothing was spent, so I stopped here.
routstr-verdict-unspent = the token was not spent and is back in the wallet
routstr-verdict-refunded = the payment was refunded
routstr-verdict-refund-void = its refund did not count
routstr-verdict-provider-refunded = the provider refunded the payment
# $spent of the $paid sats count as spent.
routstr-verdict-provider-refunded-part = the provider refunded part of the payment ({ $spent } of the { $paid } sats count as spent)
routstr-verdict-provider-refund-void = the provider's refund did not count
routstr-verdict-kept-in-ledger = the payment is kept in the ledger; its refund is asked for again in the background (and by `aiui-cli wallet reconcile`), and the owner is told if it is written off

## The wallet's own notices (pay/notice.rs): kept in the ledger as what happened and said in each reader's language.
## $mint is a mint's URL, $provider a provider's label, $reason and $error the mint's or the parser's own words;
## $since and $made are dates, already formatted.

wallet-set-aside = { $provider } sent back a token that does not count: { $reason }. It was counted as 0 sats returned and kept aside (not received), so this payment counts in full. The owner can look at it with `aiui-cli wallet set-aside` and receive or discard it there.
wallet-set-aside-received = The token { $provider } had sent back, kept aside, was received on the owner's request: { $sats } sats from { $mint }.
wallet-echoed-unredeemed = { $provider } sent back the very token it was paid, and the mint says it was never redeemed: it was taken back ({ $sats } sats are in the wallet again), and this request cost nothing.
# $spent of the $paid sats; $watched is a wallet-age; $why one of the wallet-why- messages.
wallet-written-off = { $spent } of the { $paid } sats paid to { $provider } were written off as spent after watching the payment for { $watched }: { $why }. The allowance counts them in the period the payment was made in.
# The same, with the provider's request id ($request) for the owner to quote.
wallet-written-off-request = { $spent } of the { $paid } sats paid to { $provider } (request { $request }) were written off as spent after watching the payment for { $watched }: { $why }. The allowance counts them in the period the payment was made in.
wallet-why-partly-back = part of the token was redeemed or is stuck at the mint; the { $back } sats still unspent were taken back into the wallet
wallet-why-stuck-at-the-mint = the mint still holds the token as being redeemed (pending), and nothing of it was left to take back
wallet-why-no-refund-after =
    the provider redeemed the token but sent neither change nor a refund after { $tries ->
        [one] { $tries } try
       *[other] { $tries } tries
    }
wallet-why-refund-never-answered = the provider redeemed the token but sent neither change nor a refund, and its refund endpoint never answered
# How long a payment was watched: $n of $unit (seconds, minutes, hours or days).
wallet-age =
    { $unit ->
        [seconds] { $n } seconds
        [minutes] { $n } minutes
        [hours] { $n } hours
       *[days] { $n } days
    }
wallet-mint-silent = The mint { $mint } has not answered since { $since } ({ $error }). It holds { $sats } sats of this wallet: if it does not come back they are lost. Withdraw them as soon as it answers again.
wallet-keyset-moved = { $sats } sats at { $mint } were on a keyset the mint is retiring; they were moved to its active keyset (the mint kept { $fee } sats as its fee).
wallet-token-never-made = A token of { $sats } sats from { $mint } was never made; the sats stayed in the wallet.
wallet-token-taken-back = A token of { $sats } sats from { $mint } was taken back.
wallet-token-claimed = The token of { $sats } sats from { $mint } made on { $made } was claimed by the wallet it was sent to.
wallet-withdrawal-paid-proven = The withdrawal of { $sats } sats from { $mint } was paid (fee { $fee } sats); the mint's proof of payment matches the invoice.
wallet-withdrawal-paid-proof-mismatch = The withdrawal of { $sats } sats from { $mint } was paid (fee { $fee } sats); the mint's proof of payment does not match the invoice: check that the invoice was received.
wallet-withdrawal-paid-unproven = The withdrawal of { $sats } sats from { $mint } was paid (fee { $fee } sats); the mint gave no proof of payment.
wallet-withdrawal-failed = The withdrawal from { $mint } did not go through; its { $sats } sats are back in the wallet.
# $kept sats beyond the $sats paid went to the mint.
wallet-withdrawal-taken = The withdrawal of { $sats } sats from { $mint } was paid, the mint says (it took the proofs but gave no proof of payment: check that the invoice was received); it kept { $kept } sats beyond it (any change it did not return is found again by a restore from the backup words).

## The discovery report (backends/routstr/discovery/report.rs): what each relay did and what became of each provider
## announcement, in the trusted settings. $url, $reason, $notice, $name and the ids are the relay's or the event's.

discovery-relay = relay { $line }
discovery-relay-line = { $url }: { $outcome } ({ $ms } ms)
discovery-relay-line-said = { $url }: { $outcome } ({ $ms } ms) (it said: { $notice })
discovery-relay-notice = {"  "}{ $url } said: { $notice }
discovery-relay-answered = answered (EOSE)
discovery-relay-refused = could not connect: { $reason }
discovery-relay-timed-out = connected, then sent no end-of-events within { $secs } s (timed out)
discovery-relay-closed = closed the subscription: "{ $reason }"
discovery-relay-dropped = connected, then stopped before the end of events: { $reason }
discovery-events =
    { $count ->
        [one] { $count } event found: { $used } used
       *[other] { $count } events found: { $used } used
    }
# $events is discovery-events; $kinds the discovery-count items, joined with discovery-separator.
discovery-events-refused = { $events }, { $refused } refused ({ $kinds })
discovery-count = { $n } { $kind }
discovery-separator = {", "}
discovery-kind-wrong-kind = wrong kind
discovery-kind-future = dated in the future
discovery-kind-bad-signature = bad signature
discovery-kind-malformed = malformed
discovery-kind-replaced = replaced by a newer one
discovery-kind-unreviewed = unreviewed
discovery-kind-negative = labelled negatively
discovery-kind-bad-endpoint = bad endpoint
discovery-kind-no-answer = did not answer
discovery-kind-broke-price = broke its price
discovery-kind-no-model = no such model
discovery-kind-no-common-mint = no common mint
discovery-kind-unaffordable = unaffordable
discovery-event = {"  "}(event { $id }, key { $key }): { $what }
discovery-event-named = {"  "}"{ $name }" (event { $id }, key { $key }): { $what }
# The --verbose form: $d is " d=" and the event's d tag, or nothing; $at its date in seconds since 1970.
discovery-event-verbose = {"  "}event { $id } kind { $kind } by { $pubkey }{ $d } at { $at }: { $what }
discovery-event-verbose-named = {"  "}event { $id } kind { $kind } by { $pubkey }{ $d } at { $at }: "{ $name }" { $what }
discovery-used = used
discovery-refused = refused: { $why }
discovery-why-replaced = replaced by the newer announcement { $by }
discovery-why-unreviewed = not reviewed, and only reviewed providers are allowed
discovery-why-negative = the reviewer labelled it negatively
discovery-why-bad-endpoint = no usable endpoint: { $reason }
discovery-why-probe-failed = it did not answer its probe: { $reason }
discovery-why-broke-price =
    it asked for more than its advertised price allows, so it is skipped for { $minutes ->
        [one] { $minutes } more minute
       *[other] { $minutes } more minutes
    }
discovery-why-no-model = it does not serve `{ $model }` with a sats price
discovery-why-no-common-mint = none of its mints is one you accept
discovery-why-unaffordable = a request costs up to { $price } sats and { $remaining } sats of the allowance remain
discovery-rule-wrong-kind = it is kind { $kind }, not a provider announcement (kind { $expected })
discovery-rule-bad-signature = the signature does not verify
discovery-rule-no-endpoint = it has no `u` (endpoint) tag
discovery-rule-future-dated = it is dated { $secs } s in the future
discovery-rule-oversized = its content is { $bytes } bytes, over the { $cap }-byte cap
discovery-rule-no-identifier = it has no `d` tag
discovery-rule-bad-endpoints = no endpoint in it is a usable http(s) URL
discovery-reviewer = reviewer { $npub }: { $reviews } review(s) read
discovery-reviewer-unusable = the reviewer key is not usable: { $reason }
discovery-reviewer-none = no reviewer key is set, and only reviewed providers are allowed
discovery-hint-who-none = no reviewer key is set
discovery-hint-who-invalid = the reviewer key is not a valid public key ({ $reason })
discovery-hint-who-set = your reviewer { $npub } has not labelled them
# $who is one of the discovery-hint-who- messages; $count the providers left unused.
discovery-hint =
    Only reviewed providers are allowed, and { $who }, so { $count ->
        [one] { $count } provider found on Nostr was not used
       *[other] { $count } providers found on Nostr were not used
    }. Set a reviewer key (npub or hex) in the trusted settings under "Routstr providers" (aiui-cli: --reviewer), or allow unreviewed providers by unticking "Reviewed providers only" (aiui-cli: --any-provider).

## Why the Routstr leg found nothing to use, in the no-backend message (DiscoveryReport::why_none_in and
## backends/routstr.rs). $why is discovery-none; $reasons its parts joined with discovery-none-separator.

routstr-off = the assistant's allowance is 0 sats (or no mint is accepted), so paid providers are off
routstr-none-on-relays = no usable Routstr provider on the configured relays: { $why }
routstr-none-for-model = no Routstr provider can be used for `{ $model }`: { $why }
discovery-none-found = no provider announcement was found
discovery-none-no-relay = no relay answered, so no provider could be found
discovery-none-separator = {"; "}
discovery-none-refused = { $who }: { $why }
discovery-none-who-key = key { $key }
discovery-none-who-named = "{ $name }"
# $hint is discovery-hint.
discovery-none-with-hint = { $reasons }. { $hint }

## What the shells hear when the chain is built (backends/registry.rs). $error and $reason are the wallet's own words.

## The legs by name, and why the local, Claude and built-in legs cannot answer, in the no-backend message
## (backends/chain.rs, ollama.rs, claude.rs, builtin/). $url and $model are configured values; $error, $status and
## $reason are the failing part's own words.

leg-local = local model (Ollama)
leg-claude = Claude
leg-routstr = Routstr
leg-builtin = built-in model (SmolLM2-135M)
ollama-not-answering = Ollama at { $url } is not answering ({ $error })
ollama-refused = Ollama answered { $path } with HTTP { $status }
ollama-not-json = Ollama's { $path } reply is not JSON ({ $error })
ollama-no-models = Ollama has no models; run `ollama pull qwen2.5:7b` (or another model with tool support)
ollama-model-missing = the configured model `{ $model }` is not installed in Ollama
ollama-no-tool-model = no installed Ollama model supports tools; pull one that does, e.g. `ollama pull qwen2.5:7b`
ollama-stopped = Ollama stopped answering ({ $error })
ollama-http = HTTP { $status }: { $reason }
ollama-reported = Ollama reported an error: { $reason }
claude-skipped-rate-limited = Claude is skipped for now: rate limited
claude-skipped = Claude is skipped for now: { $reason }
claude-no-key = no Claude API key is set; add one in the trusted settings window
claude-no-price-table = Claude is not used: { $error }
claude-no-price = Claude is not used: the price table has no price for the model { $model }, and a model without a price is never used for paid requests. Add its price in AIUI's settings window (Claude prices) or with `aiui-cli budget price`.
builtin-turned-off = turned off in the settings
builtin-not-built = not part of this build
builtin-cpu = this CPU lacks AVX2/FMA, which the built-in model's build needs
# $file is the model file's name, $searched the folders looked in, joined by ", ".
builtin-model-missing = its model file ({ $file }) is in none of { $searched }: install the package aiui-model-smollm2, or run `bash scripts/fetch-model` in AIUI's source tree (about 100 MB, checked by SHA-256)

registry-reconcile-failed = Open payments could not be checked yet ({ $error }); they stay recorded.
registry-wallet-unopened = Paid help (Routstr) is off: the wallet could not be opened ({ $reason }).

# The egress screen's stop when the owner's own message holds a secret (egress/mod.rs, Blocked::text). $what is
# the kinds found, each an egress-kind-* text, joined with ", " and egress-and; never the secret itself.
egress-blocked = Your message was not sent: it contains { $what }. Nothing left this device. The assistant's cloud models must never see secrets like this, so remove it and send your message again; you can describe the problem without pasting the secret itself.
egress-and = {" "}and{" "}
egress-kind-known = a secret this app keeps ({ $label })
egress-kind-other = a secret ({ $kind })
egress-kind-bip39 = what looks like a wallet recovery phrase (seed words)
egress-kind-slip39 = what looks like a Shamir backup share (SLIP-39 words)
egress-kind-codex32 = a codex32 seed backup
egress-kind-xprv = an extended private key (xprv)
egress-kind-wif = a Bitcoin private key (WIF)
egress-kind-hex-key = a private key written in hex
egress-kind-nsec = a Nostr private key (nsec or ncryptsec)
egress-kind-nostr-connect = a Nostr remote-signer connection string with its secret
egress-kind-nwc = a Nostr Wallet Connect string, which can spend from your wallet
egress-kind-cashu = a Cashu ecash token, which is spendable money
egress-kind-fedimint = Fedimint ecash notes, which are spendable money
egress-kind-lnurlw = an LNURL-withdraw link, which lets whoever holds it withdraw your funds
egress-kind-lnbits = an LNbits wallet link, which opens and spends from the wallet
egress-kind-macaroon = a Lightning macaroon, a credential for your Lightning node
egress-kind-lndconnect = an lndconnect string, which holds a credential for your Lightning node
egress-kind-rune = a Core Lightning rune, a credential for your Lightning node
egress-kind-rpcauth = a Bitcoin Core RPC password or cookie
egress-kind-password = a password or secret from a configuration file or command
egress-kind-url-password = a password inside a web address (user:password@host)
egress-kind-pem = a private key block (TLS or SSH)
egress-kind-api-key = an API key
egress-kind-token = an access token
egress-kind-otpauth = a two-factor (TOTP) secret
egress-kind-age-key = an age encryption secret key
egress-kind-onion-key = a Tor onion service private key
egress-kind-backup-code = account backup or recovery codes, which get past two-factor login
egress-kind-totp-key = a two-factor setup key, which makes every future login code
egress-kind-pairing-phrase = a pairing phrase, which connects an app to your node
egress-kind-seedqr = a wallet seed written as SeedQR digits or entropy

## A date and time in notices, the wallet's history and the LAN sessions, always in UTC. Each variable is already
## padded with zeros ("2026", "03", "07"); only their order and separators are the locale's.
time-utc = { $year }-{ $month }-{ $day } { $hour }:{ $minute } UTC

## Where a withdrawal or a token sent out stands, in the wallet's history (pay/ledger/outflows.rs).
outflow-withdrawal-waiting = being paid by the mint
outflow-token-waiting = not claimed yet
outflow-keyset-waiting = moving to the mint's new keys
outflow-paid = paid
outflow-failed = failed
outflow-refused = refused by the mint
outflow-not-recorded = not recorded
outflow-taken-back = taken back
outflow-never-made = never made
outflow-claimed = claimed
outflow-keyset-moved = moved to the active keyset
outflow-cancelled = cancelled
outflow-done = done

## What a turn cost, in the terminal (view.rs, SpendView::label_in): dollars are written by the host, $sats is a
## number.
cost-sats = { $sats ->
        [one] { $sats } sat
       *[other] { $sats } sats
    }
cost-free = $0
# Between the dollar and the sats parts.
cost-separator = {" + "}

## What the egress screen changed, after `screen:` in the terminal (egress/mod.rs, Report::text). $kinds are the
## kinds' short names with their counts ("bip39 1, xprv 2"), as the redaction markers in the body name them.
egress-report = { $redacted } redacted, { $placeholders } placeholders
egress-report-kinds = { $redacted } redacted ({ $kinds }), { $placeholders } placeholders

## The wallet in the trusted window: what the owner approves before sats leave, and what came of it (the desktop's
## wallet commands). Amounts in sats are numbers; $mint is a mint's URL, $invoice the invoice cut short.
wallet-withdraw-summary = Pay { $amount } sats to this Lightning invoice from { $mint }.
wallet-withdraw-invoice = Invoice: { $invoice }
wallet-withdraw-receives = The invoice receives: { $amount } sats
wallet-withdraw-reserve = Lightning fee reserve: up to { $reserve } sats (what the mint does not use comes back)
wallet-withdraw-input-fee = The mint's input fee: { $fee } sats
wallet-withdraw-most = The most it takes from the wallet: { $most } sats
wallet-withdraw-action = Withdraw { $amount } sats
wallet-withdraw-still-paying = The mint is still paying the invoice of { $amount } sats. The withdrawal stays in flight until the payment ends; Check settles it, paid or failed.
wallet-withdraw-paid = Paid: { $amount } sats reached the invoice; the Lightning fee was { $fee } sats.
wallet-token-summary = Make a Cashu token worth { $amount } sats from { $mint }, for another wallet.
wallet-token-whoever = Whoever has the token can claim its sats: give it only to the wallet it is for.
wallet-token-fee = The mint's fee for making it, if it charges one, is added from the wallet.
wallet-token-once = It is shown once. Until it is claimed, Take back returns it to this wallet.
wallet-token-action = Make a token of { $amount } sats
# $kept is wallet-token-kept or empty.
wallet-token-made = A token of { $amount } sats from { $mint }. Give it to the other wallet now: it is shown only this once.{ $kept } Until it is claimed, Take back returns it.
wallet-token-kept = {" "}The mint kept { $fee } sats to make it.
wallet-taken-back = Taken back: { $sats } sats are in the wallet again.
wallet-too-late = Too late: the other wallet had claimed it; its { $sats } sats count as sent.
wallet-taken-back-in-part = The other wallet had claimed part of it: { $claimed } sats count as sent. The unclaimed rest was taken back: { $sats } sats are in the wallet again.
wallet-taken-back-rest-too-small = The other wallet had claimed part of it: { $claimed } sats count as sent. The { $rest } sats left in it are worth no more than the mint's fee to take them back, so they stay with the token and count as that fee.
wallet-check-elsewhere = Another check of this wallet is running right now (the app's own, or aiui-cli); try again in a moment.
wallet-checked = Checked.
wallet-checked-ended = Checked: { $count } withdrawal(s) or token(s) ended.
wallet-still-in-flight = { $count } still in flight.
wallet-minted = { $sats } sats minted from paid invoices.
wallet-not-checked = { $count } could not be checked (a mint did not answer); they stay recorded.
wallet-restored = Restored: { $sats } sats are in the wallet, and its words are in the keyring again.
wallet-restored-not-rebuilt = {" "}The assistant's backends could not be rebuilt ({ $error }); restart AIUI.
wallet-restored-mint = { $mint }: { $sats } sats
wallet-restored-mint-pending = { $mint }: { $sats } sats, and { $pending } sats being spent at the mint (a withdrawal under way)
# The LAN service's trusted origin, after a withdrawal was approved there.
wallet-lan-not-finished = The mint has not finished paying the invoice yet. The withdrawal is in flight: it is settled when the mint answers, or by reconcile, paid or failed, and you are told.
wallet-lan-paid = Paid: { $amount } sats reached the invoice; the mint's fee was { $fee } sats.
wallet-lan-still-paying = The mint is still paying the invoice. The withdrawal is kept in flight; it is settled by reconcile (at start-up and every 10 minutes), paid or failed, and you are told.
