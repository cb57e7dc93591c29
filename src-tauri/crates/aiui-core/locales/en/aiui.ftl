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
