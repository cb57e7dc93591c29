### The trusted window's own words in English (ui/trusted.html and ui/trusted/*.js): the reference catalogue. Every
### key here exists in every locale, with the same variables and attributes. What the host writes in Rust
### (a confirmation's summary, its risk, outcomes, error messages) is not here: the window shows it as it comes.
### No selectors: a count that needs singular and plural has two keys, -one and -other, chosen by the page.

## The window and its header.

trusted-window-title = AIUI · Trusted
trusted-skip = Skip to the content
trusted-shield = TRUSTED
trusted-heading = AIUI confirmation and settings
trusted-close = Close

## The pending confirmation. $summary is the host's summary of the action (without its backticks).

trusted-confirm-title = Confirm an action on your node
trusted-lan-badge = LAN
trusted-lan-marker = A LAN user asked for this in the LAN chat, not on the node's own screen.
trusted-asked-from = Asked from:
trusted-requester-unknown = not said by the host
# Who asked for the action. $address is an IP address, $time when they signed in, $session a short id.
trusted-requester-desktop = this desktop
trusted-requester-kiosk = the node's own screen (kiosk)
trusted-requester-terminal = a terminal on this machine (aiui-cli chat)
trusted-requester-lan = a LAN session from { $address } (signed in { $time }, session { $session })
# How much the action changes, by its kind.
trusted-risk-read = Reads state only
trusted-risk-act = Changes the node
trusted-risk-act-high = Changes the node in a way that is hard to undo
trusted-expires-in = Expires in
# The time left, as minutes:seconds ($seconds always has two digits).
trusted-expiry-clock = { $minutes }:{ $seconds }
trusted-expiry-expired = expired
# English keeps today's wording for both counts.
trusted-expiry-warning-one = { $seconds } seconds left. Then this request expires and nothing is done.
trusted-expiry-warning-other = { $seconds } seconds left. Then this request expires and nothing is done.
trusted-deny = Deny
trusted-approve = Approve
trusted-hint-locked = Approve becomes available once this window has been in front of you for a second. Deny is the safe choice.
trusted-hint-available = Approve is available. Deny is the safe choice.
trusted-hint-hold = To approve, press and hold Approve until it fills (with a keyboard, press it). Deny is the safe choice.
trusted-approve-available = Approve available
trusted-hold-too-short = Let go too soon: hold Approve until it fills to approve. Deny is the safe choice.
trusted-approve-not-yet = Approve is not available yet: keep this window in front of you for a second.
trusted-tool = Tool
trusted-node-method = Node method
trusted-proposed-by = Proposed by
trusted-args-title = Arguments (validated)
trusted-args-name = Name
trusted-args-value = Value
trusted-more-waiting-one = { $count } more waiting after this one.
trusted-more-waiting-other = { $count } more waiting after this one.
trusted-nothing-title = Confirmations
trusted-nothing = No action is waiting for your confirmation.
trusted-closed-approved = Approved: { $summary }
trusted-closed-denied = Denied: { $summary }
trusted-closed-expired = Expired, nothing was done: { $summary }
trusted-closed-gone = No longer waiting, nothing was done: { $summary }

## Words shared by the allowances, the wallet and the settings. $sats is a number of sats.

trusted-sats = { $sats } sats
trusted-spent = Spent
trusted-reserved = Reserved
trusted-remaining = Remaining
trusted-renews = Renews
trusted-never = never
trusted-saving = Saving…
trusted-saved-next-message = Saved. It applies from the next message.
trusted-cancel = Cancel
trusted-none = none
trusted-set = set
trusted-not-set = not set
trusted-unknown = unknown
# $amount and $allowance are amounts already written out ("1,000 sats", "$1.50").
trusted-amount-of = { $amount } of { $allowance }

## Renewal periods: in the period choices and after "Renews".

trusted-period-never = never (one-off)
trusted-period-daily = daily
trusted-period-weekly = weekly
trusted-period-monthly = monthly
# $period is one of the periods above, $date the next renewal's date and time.
trusted-renews-next = { $period }, next { $date }

## Claude's allowance, in US dollars. Dollar amounts ($allowance, $spent, $remaining) come formatted by the host.

trusted-claude-title = Claude allowance (US dollars)
trusted-claude-bar =
    .aria-label = Claude allowance used
trusted-claude-bar-text = { $spent } of { $allowance } spent
trusted-claude-off = Claude is off (allowance { $allowance })
trusted-claude-notice-80 = 80% or more of Claude's allowance is spent this period.
trusted-claude-set-on-node = Set on the node:
trusted-claude-set-command = aiui-cli budget set --claude-usd AMOUNT
trusted-claude-prices-with = , prices with
trusted-claude-set-end = {"."}
trusted-claude-amount = Allowance in US dollars per period (0 turns Claude off)
trusted-claude-save = Save Claude allowance
# $period is one of the trusted-per- words below.
trusted-claude-saved = Saved: { $allowance } { $period }. It applies from the next message.
trusted-claude-saved-off = Saved: Claude is off until you set an allowance above $0.
trusted-per-never = in all
trusted-per-daily = daily
trusted-per-weekly = weekly
trusted-per-monthly = monthly

## Claude's prices. $model is a model's id; $taken and $source are the host's date and source of the table.

trusted-prices-title = Claude prices (US dollars per million tokens)
trusted-prices-source = Shipped prices taken on { $taken } from { $source }.
trusted-price-model = Model
trusted-price-input = Input
trusted-price-output = Output
trusted-price-cache-write = Cache write
trusted-price-cache-read = Cache read
trusted-price-set-by-you = set by you
trusted-price-hint = Correct a price, or add a model: your price replaces the shipped one from the next request.
trusted-price-save = Save price
trusted-price-saved = Saved your price for { $model }. It applies from the next request.
# On a model's name: its prices for a long request. $above is a number of tokens, the rest amounts written out.
trusted-price-long-context = Above { $above } input tokens: { $input } input, { $output } output, { $cacheWrite } cache write, { $cacheRead } cache read

## The allowance for paid help (Routstr), in sats. $local and $builtin are numbers of answers.

trusted-allowance-title = Allowance for paid help (Routstr)
trusted-allowance-bar =
    .aria-label = Allowance used
trusted-free-answers = This month: { $local } local and { $builtin } built-in answers, at $0.
trusted-allowance-amount = Allowance in sats per period (0 turns paid help off)
trusted-allowance-mints = Accepted mints, one address per line
trusted-allowance-save = Save allowance
trusted-allowance-whole = The allowance is a whole number of sats (0 turns paid help off).
trusted-allowance-saved-no-mint = Saved. Add an accepted mint, or paid help stays off.

## The wallet. $amount, $total and $balance are amounts already written out ("1,000 sats"); $mint is a mint's address.

trusted-wallet-title = Wallet (Cashu ecash)
trusted-wallet-state-initial = No wallet yet: it is created when you first fund it.
trusted-wallet-none-yet = No wallet yet: it is created (its seed kept in the OS keyring) when you first fund it, or restore it.
trusted-wallet-total = Total: { $total }
trusted-wallet-balances =
    .aria-label = Balance per mint
trusted-wallet-not-accepted = not accepted: not spent on paid help; withdraw or send it
trusted-wallet-in-flight = In flight: { $amount } (withdrawals the mint is still paying, tokens not claimed yet, payments to providers not settled)
trusted-wallet-nothing-in-flight = Nothing in flight.
trusted-mint-with-balance = { $mint } ({ $balance })
trusted-outflows-title = Withdrawals and tokens sent
trusted-outflows-empty = Nothing withdrawn or sent yet.
# $kind is one of the four kinds below.
trusted-outflow-what = { $kind } of { $amount }
trusted-outflow-token = Token
trusted-outflow-withdrawal = Withdrawal
trusted-outflow-keyset-swap = Moved to new keys
trusted-outflow-other = Outflow
trusted-take-back = Take back
# $created is when the token was made, as the host wrote it.
trusted-take-back-label = Take back the token of { $amount } made { $created }
trusted-taking-back = Taking the token back…
trusted-wallet-check = Check with the mints
trusted-checking-mints = Checking with the mints…
trusted-wallet-notices =
    .aria-label = What the check found

## Taking sats out: the host's quote and the owner's approval. $summary and $action are the host's words; $time is
## when the approval lapses.

trusted-approval-expiry = This approval lapses at { $time }; nothing is sent before you approve.
trusted-approval-announce = { $summary } { $action }, or Cancel.
trusted-approval-cancelled = Cancelled: nothing was sent.
trusted-token-qr = QR code of the token
trusted-token-label = The token, for the other wallet (shown only this once)
trusted-token-done = Done: hide the token
trusted-token-hidden = The token is no longer shown. Until it is claimed, Take back in the list returns it.
trusted-take-out = Take sats out
trusted-withdraw-invoice = Withdraw to Lightning: paste an invoice (lnbc…)
trusted-from-mint = from the mint
trusted-withdraw-any-mint = the mint holding the most
trusted-withdraw-everything = Everything at that mint, after its fees (for an invoice without an amount)
trusted-withdraw-quote = See what it costs
trusted-withdraw-asking = Asking the mint what it costs…
trusted-withdraw-paying = Paying the invoice…
trusted-send-amount = Send a token to another wallet: amount in sats
trusted-send-quote = Prepare the token
trusted-send-making = Making the token…
trusted-amount-whole = The amount is a whole number of sats.
trusted-invoice-paste-first = Paste a Lightning invoice first.

## Funding the wallet.

trusted-fund-title = Fund the wallet
trusted-receive-label = Receive a Cashu token (paste it here)
trusted-receive-save = Receive token
trusted-receive-paste-first = Paste a Cashu token first.
trusted-receiving = Receiving…
trusted-received = Received { $amount }.
trusted-invoice-amount = Fund with Lightning: amount in sats
trusted-at-mint = at the mint
trusted-invoice-get = Get invoice
trusted-invoice-asking = Asking the mint for an invoice…
trusted-invoice-pay = Pay { $amount } to { $mint }, then check the payment.
trusted-invoice-qr = QR code of the Lightning invoice
trusted-invoice-label = Lightning invoice: pay it from any wallet
trusted-invoice-check = Check payment
trusted-checking = Checking…
trusted-invoice-paid = Paid: { $amount } added to the wallet.

## The wallet's backup and restore.

trusted-backup-title = Backup
trusted-backup-confirmed = You confirmed that the backup words and the mints are written down.
trusted-backup-not-yet = Not backed up yet: write down the words and the mints, or the sats are lost with this computer.
trusted-backup-ask = Show the backup words
trusted-backup-warning = Anyone who sees these words can take every sat in this wallet.
trusted-backup-where = Show them only where nobody, and no camera, can see this screen. Write them down on paper with the mints; never type them into a chat or a website.
trusted-backup-show = Show the words
trusted-backup-reading = Reading the words from the keyring…
trusted-backup-shown = The backup words are shown.
trusted-backup-words-title = The backup words, in this order
trusted-backup-mints-title = The mints it used
trusted-backup-mints-qr = QR code of the mint list
trusted-backup-mints-caption = The mint list
trusted-backup-qr = QR code of the whole backup: the words, then the mints
trusted-backup-qr-caption = The words and the mints
trusted-backup-written = I wrote them down
trusted-backup-hide = Hide the words
trusted-backup-done = Backup confirmed. The words are no longer shown.
trusted-backup-hidden = The words are no longer shown.
trusted-restore-title = Restore a wallet
trusted-restore-label = Its backup words on the first line, then its mints, one address per line
trusted-restore-replace = Replace the words in the keyring (only if you wrote the old ones down)
trusted-restore-go = Restore
trusted-restore-found =
    .aria-label = What the restore found
trusted-restore-empty = Paste or type the backup words and the mint lines first.
trusted-restore-asking = Asking each mint for the wallet's ecash…

## Routstr providers.

trusted-routstr-title = Routstr providers
trusted-routstr-reviewed = Reviewed providers only
trusted-routstr-reviewer = Reviewer key, npub or hex (whose reviews make a provider "reviewed")
trusted-routstr-tor = Tor SOCKS address (empty: no Tor)
trusted-routstr-save = Save Routstr options
trusted-discovery-title = Last discovery
trusted-discovery-none = No discovery has run yet: it runs when a message needs paid help, with an allowance above zero.

## The built-in small model. $reason is the host's words for why it cannot answer.

trusted-builtin-title = Built-in small model
trusted-builtin-about = When no other backend answers, a small model on this machine (SmolLM2-135M) can still list, check, start, stop and restart your apps. It only chooses among those everyday requests; for anything more, use Ollama, a Claude key or paid help.
trusted-builtin-use = Use the built-in small model
trusted-builtin-unavailable = On, but it cannot answer: { $reason }
trusted-builtin-on = On: it answers when no other backend does.
trusted-builtin-off = Off.
trusted-builtin-saved-on = On from the next message.
trusted-builtin-saved-off = Off from the next message.

## The Claude API key.

trusted-key-title = Claude API key
trusted-key-status = Status:
trusted-key-label = New key (kept in the OS keyring, never shown again)
trusted-key-save = Save key
trusted-key-clear = Remove key
trusted-key-saved = Saved in the keyring.
trusted-key-removed = Removed from the keyring.

## Node pairing. $url is the node's address.

trusted-node-title = Node pairing
trusted-node-paired = Paired node
trusted-node-demo = { $url } (demo node)
trusted-node-fingerprint = Accepted fingerprint
trusted-node-password = Password
trusted-node-password-demo = generated for the demo (kept in memory only)
trusted-node-password-set = set (in the keyring)
trusted-pair-url = Node address
trusted-pair-fetch = Fetch certificate fingerprint
trusted-pair-fp = Certificate fingerprint presented now: compare it with the one your node shows
trusted-pair-fp-ok = It matches; accept this certificate
trusted-pair-pw = Node password (kept in the OS keyring)
trusted-pair-save = Pair
trusted-pair-demo = The demo is paired with its simulated node. Start AIUI without --demo to pair a real one.
trusted-pair-connecting = Connecting…
trusted-pair-compare = Compare the fingerprint with the one your node shows before accepting it.
trusted-pair-fetch-first = Fetch the fingerprint, compare it, and tick "It matches" first.
trusted-pair-logging-in = Logging in…
trusted-pair-done = Paired. The assistant now works on this node.

## The tools the assistant may use. $tool is a tool's name.

trusted-grants-title = Tools the assistant may use
trusted-grants-hint = Switched-off tools are never offered to the model. Actions that change the node are always confirmed here.
trusted-grant-reads = reads
trusted-grant-changes = changes the node (always confirmed)
trusted-grant-on = { $tool } is on from the next message.
trusted-grant-off = { $tool } is off from the next message.

## The language setting. $name is a language's own name ("English", "Deutsch").

trusted-language-title = Language
trusted-language-label = The language of these windows, the answers and the notices
trusted-language-system = System default ({ $name })
trusted-language-changing = Changing the language…

## About.

trusted-about-title = About this AIUI
trusted-about-version = Version
trusted-about-commit = Built from commit

## The LAN service's trusted origin: the approval secret, the connection, and the wallet on the node. $status is an
## HTTP status code; $date a date and time; $most the most a withdrawal can cost, written out.

trusted-secret-approve = Approval passphrase or TOTP code (needed to approve; Deny needs none)
trusted-secret-grant = Approval passphrase or TOTP code (needed to change a switch)
trusted-secret-withdraw = Approval passphrase or TOTP code (needed to withdraw)
trusted-signed-out = Signed out: sign in again.
trusted-service-answered = The service answered { $status }.
trusted-lan-sats-one = { $sats } sat
trusted-lan-sats-other = { $sats } sats
trusted-lan-wallet-title = Wallet (Cashu ecash) on the node
trusted-lan-wallet-reading = Reading the wallet…
trusted-lan-total = Total: { $total }
trusted-lan-total-unbalanced = Total: { $total } (the ledger does not add up: run aiui-cli wallet reconcile on the node)
trusted-lan-in-flight = In flight
trusted-lan-pending-title = Withdrawals the mint is still paying
trusted-lan-pending-since = { $mint } (since { $date })
trusted-lan-pending-none = None.
trusted-lan-withdraw-title = Withdraw to Lightning
trusted-lan-withdraw-invoice = Lightning invoice (BOLT11) to pay
trusted-lan-withdraw-mint = From the mint (empty: the one holding the most)
trusted-lan-withdraw-everything = Everything at that mint, after its fees (the invoice names no amount)
trusted-lan-withdraw-quote = Show what it costs
trusted-lan-quote-asking = Asking the mint what paying it costs…
trusted-lan-confirm-title = Confirm the withdrawal
trusted-lan-quote-amount = Amount
trusted-lan-quote-reserve = The mint's fee reserve (what it does not use comes back)
trusted-lan-quote-input-fee = The mint's input fee
trusted-lan-quote-most = The most it can cost
trusted-lan-quote-mint = From the mint
trusted-lan-quote-expiry = The quote ends
trusted-lan-up-to = up to { $amount }
trusted-lan-expiry-unknown = when the mint says
trusted-lan-quote-summary = Withdrawing { $amount } costs at most { $most }. Type your approval passphrase to withdraw.
trusted-lan-withdraw-pay = Withdraw
trusted-lan-secret-needed = Withdrawing needs your approval passphrase or a TOTP code. Nothing was paid.
trusted-lan-withdrawing = Withdrawing…
trusted-lan-not-withdrawn = Not withdrawn.
trusted-lan-on-node-only = The backup words, restoring the wallet and sending tokens are done on the node itself (aiui-cli wallet): they never go over the network.
