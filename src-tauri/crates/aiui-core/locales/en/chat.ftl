### The chat window's own words (ui/index.html and its scripts in ui/js/) in English: the reference catalogue. Every
### key here exists in de/chat.ftl and es/chat.ftl with the same attributes and variables. The page shows these
### values exactly as they are, so they match what the page wrote before it was translated. No selectors: the shell
### renders page messages without arguments; a count picks a `-one` or `-other` key in the script instead. What the
### node, the owner or the model wrote (app names, messages, URLs, amounts the host reports) never passes through here.

## The page and its header.

chat-title = AIUI
chat-brand = AIUI
chat-skip = Skip to the message box
chat-demo-banner = Demo node: a simulated Archipelago node on this machine
# $url is the paired node's address.
chat-node-label = Node: { $url }
chat-open-settings = Settings

## The sidebar: conversations and the node's apps.

chat-sidebar =
    .aria-label = Conversations and node
chat-new-conversation = New conversation
chat-conversations-heading = Conversations
chat-untitled = Untitled
# Under a conversation's title: when it last changed, and how many messages it holds.
chat-conversation-meta-one = { $date } · { $count } message
chat-conversation-meta-other = { $date } · { $count } messages
chat-apps-heading = Node apps
chat-refresh-apps = Refresh apps
chat-apps-not-paired = No node paired
# $error is the host's own reason.
chat-apps-unreadable = The apps could not be read: { $error }

## The allowance meter: Claude's allowance in US dollars, Routstr's in sats, never converted. The amounts ($spent,
## $allowance, $remaining, $reserved) arrive written by the host, with their unit.

chat-allowances-heading = Allowances
chat-claude-meter-heading = Claude (US dollars)
chat-claude-bar =
    .aria-label = Claude allowance used
chat-claude-off = Claude: off (allowance { $allowance })
chat-claude-spent = { $spent } of { $allowance } spent
# $renews is one of the chat-renews-* or chat-period-* values below.
chat-claude-left = { $remaining } left; renews { $renews }
chat-claude-left-held = { $remaining } left, { $reserved } held for an answer; renews { $renews }
chat-claude-notice = 80% or more of Claude's allowance is spent this period.
chat-routstr-meter-heading = Routstr paid help (sats)
chat-routstr-bar =
    .aria-label = Routstr allowance used
chat-sats-one = { $amount } sat
chat-sats-other = { $amount } sats
chat-sats-left = { $remaining } left of { $allowance }
chat-sats-spent = { $spent } of { $allowance } spent
chat-paid-off = Paid help is off (allowance 0 sats).
chat-routstr-notice = 80% or more of the Routstr allowance is spent this period.
chat-spent = Spent
chat-reserved = Reserved
chat-remaining = Remaining
chat-renews = Renews
# Shown under Renews until the meter is read.
chat-never = never
chat-renews-never = never (one-off)
chat-period-daily = daily
chat-period-weekly = weekly
chat-period-monthly = monthly
# $period is a chat-period-* value; $date the next renewal, written the locale's way.
chat-renews-next = { $period }, next { $date }
chat-free-answers = { $local } local and { $builtin } built-in answers this month, at $0
# $mints lists the node's mints, each with its unit.
chat-node-mints = Node mints: { $mints }
chat-top-up = Top up… (opens Settings)
chat-allowance-unreadable = The allowance could not be read.

## The conversation, the composer and what waits for a confirmation.

chat-unpaired-title = No node paired
chat-open-settings-button = Open Settings
chat-messages =
    .aria-label = Conversation
chat-pending-where = Waiting for your confirmation in the trusted window:
chat-pending-where-kiosk = Waiting for the node's owner to confirm on the node's own screen:
chat-pending-where-both = Waiting for the owner's confirmation (trusted window or the node's own screen):
chat-show-confirmation = Show confirmation
chat-suggestions =
    .aria-label = Suggested questions
chat-input-label = Message to the assistant
chat-input =
    .placeholder = Ask about your node, e.g. “why is LND down?”
chat-keyboard-toggle = Keyboard
chat-stop = Stop
chat-send = Send
chat-working = Working…

## The log's items. A speaker label is read by a screen reader only, in front of what was said.

chat-speaker = { $name }:{" "}
chat-you = You
chat-assistant = AIUI
# $backend is the backend's name as the host gives it, e.g. "built-in (SmolLM2-135M)".
chat-assistant-backend = AIUI ({ $backend })
chat-notice = Notice
# Who answered, on each answer's badge, in the chat's cost lines and on a confirmation. $model is the model's name
# ("qwen2.5:7b"), $provider a Routstr provider's name as the host shows it.
chat-backend-local = local { $model }
chat-backend-claude = Claude ({ $model })
chat-backend-routstr = Routstr { $provider } ({ $model })
chat-backend-builtin = built-in ({ $model })
# $label is what it cost, e.g. "12 sats" or "$0.0165".
chat-cost = Cost: { $label }
# One step's token counts, each $count a number; $counts is the list of them joined by commas.
chat-cost-input = { $count } input
chat-cost-output = { $count } output
chat-cost-cache-write = { $count } cache-write
chat-cost-cache-read = { $count } cache-read
# $backend is who answered (a model's name), $cost what the step cost.
chat-cost-step = { $backend }: { $counts } tokens ({ $cost })
chat-cost-step-free = { $backend } (on this machine, free): { $counts } tokens ({ $cost })
chat-conversation-total = This conversation: { $label }
chat-top-up-short = Top up…
chat-budget-stop-title = Paid help stopped: allowance.
chat-choices =
    .aria-label = Suggested replies
chat-no-backend-title = No assistant could answer this
chat-no-backend-lead = None of the assistants is reachable right now, so nothing was done on your node. Add a Claude key in Settings, or start Ollama on this computer, then ask again.
chat-no-backend-why = Why each assistant is unavailable
chat-no-backend-button = Open Settings to add a Claude key
chat-stop-failed = The answer could not be stopped: { $error }
chat-failed = Something went wrong: { $message }
chat-signed-out = Signed out: sign in again.
# $status is the HTTP status code.
chat-service-answered = The service answered { $status }.

## Said once through the live announcer.

chat-announce-writing = { $name } is writing an answer…
chat-announce-said = { $name }: { $text }
chat-announce-choices = Suggested replies: { $choices }
chat-announce-card = Card: { $summary }
chat-announce-notice = Notice: { $text }
chat-announce-stopped = Stopped: { $message }
chat-announce-no-backend = { $title }. { $lead }

## Cards drawn from tool results: their titles, row names and the host's words for what the node left out.

chat-card-apps = Apps on the node
chat-card-log = Log: { $app }
chat-card-bitcoin-sync = Bitcoin sync
chat-card-lightning = Lightning (LND)
chat-card-system = System
chat-card-mints = Cashu mints
chat-card-action = Action done
chat-card-result = Result
chat-field-app = App
chat-field-version = Version
chat-field-state = State
chat-field-exit-code = Exit code
chat-field-health = Health
chat-field-progress = Progress
chat-field-blocks = Blocks
chat-field-chain = Chain
chat-field-initial-download = Initial download
chat-field-on-disk = On disk
chat-field-alias = Alias
chat-field-active-channels = Active channels
chat-field-peers = Peers
chat-field-synced = Synced to chain
chat-field-block-height = Block height
chat-field-cpu = CPU
chat-field-memory = Memory
chat-field-disk = Disk
chat-field-temperature = Temperature
chat-field-uptime = Uptime
chat-field-mint = Mint
chat-field-unit = Unit
chat-field-trusted = Trusted
chat-field-action = Action
chat-field-node-method = Node method
chat-field-outcome = Outcome
# What the node did with an approved act; the state it then reported follows, as the node named it.
chat-outcome-accepted = accepted
chat-field-confirmation = Confirmation
chat-bar-verification = Verification progress
chat-bar-disk = Disk used
chat-unknown = unknown
chat-yes = yes
chat-no = no
chat-not-stated = not stated
chat-blocks-of = { $blocks } of { $headers }
chat-amount-of = { $used } of { $total }
chat-gb = { $amount } GB
chat-percent = { $percent } %
chat-celsius = { $degrees } °C
chat-hours = { $hours } h
# A new card's announcement counts its table's rows.
chat-summary-rows-one = { $count } row
chat-summary-rows-other = { $count } rows

## The kiosk's on-screen keyboard. A key's value is its visible text, its .aria-label its name; where both differ the
## name starts with the visible text (WCAG 2.5.3). The layout's own name ($name: English, Deutsch, Español) stays as it is.

chat-keyboard =
    .aria-label = On-screen keyboard
chat-key-shift = ⇧
    .aria-label = Shift
chat-key-backspace = ⌫
    .aria-label = Backspace
chat-key-space = space
    .aria-label = Space
chat-key-send = Send
    .aria-label = Send
chat-key-hide = Hide
    .aria-label = Hide keyboard
chat-key-letters = abc
    .aria-label = abc: letters
chat-key-symbols = 123
    .aria-label = 123: numbers and symbols
chat-key-acute = ´
    .aria-label = ´: acute accent, for the next vowel
chat-key-diaeresis = ¨
    .aria-label = ¨: diaeresis, for the next vowel
# $code is the layout's code on the key (EN, DE, ES).
chat-key-layout =
    .aria-label = { $code }: keyboard layout, { $name }
