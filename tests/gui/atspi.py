# The trusted window as a screen reader meets it: reads the AT-SPI tree (Debian's python3-gi + gir1.2-atspi-2.0)
# of the running app while a confirmation opens, is approved or denied, and prints what it saw as one JSON object.
# Started by tests/gui/webdriver.mjs before the confirmation is asked for; it ends when the window has answered.
#
# usage: atspi.py WINDOW_TITLE SUMMARY_TEXT
import json
import sys
import time

import gi

gi.require_version("Atspi", "2.0")
from gi.repository import Atspi  # noqa: E402

TITLE, SUMMARY = sys.argv[1], sys.argv[2]
TIMEOUT_S = 45


def states(node):
    state_set = node.get_state_set()
    return sorted(Atspi.StateType(s).value_nick for s in state_set.get_states())


def attrs(node):
    try:
        return dict(node.get_attributes() or {})
    except Exception:  # a node gone while we read it
        return {}


def text_of(node):
    try:
        text = node.get_text_iface()
        if text is not None:
            return text.get_text(0, text.get_character_count())
    except Exception:
        pass
    return node.get_name() or ""


def describe(node):
    return {
        "role": node.get_role_name(),
        "name": node.get_name(),
        "description": node.get_description(),
        "states": states(node),
        "id": attrs(node).get("id"),
        "text": text_of(node),
    }


def walk(node, depth=0):
    yield node
    if depth > 40:
        return
    for i in range(node.get_child_count()):
        child = node.get_child_at_index(i)
        if child is not None:
            yield from walk(child, depth + 1)


def trusted_frame():
    desktop = Atspi.get_desktop(0)
    for a in range(desktop.get_child_count()):
        app = desktop.get_child_at_index(a)
        if app is None:
            continue
        for f in range(app.get_child_count()):
            frame = app.get_child_at_index(f)
            if frame is not None and (frame.get_name() or "") == TITLE:
                return frame
    return None


def find(root, test):
    for node in walk(root):
        try:
            if test(node):
                return node
        except Exception:
            continue
    return None


def until(what, probe, timeout=TIMEOUT_S, every=0.02):
    deadline = time.monotonic() + timeout
    while True:
        value = probe()
        if value:
            return value
        if time.monotonic() > deadline:
            raise SystemExit(json.dumps({"error": f"timed out waiting for {what}"}))
        time.sleep(every)


def main():
    Atspi.init()
    out = {}
    frame = until("the trusted window in the AT-SPI tree", trusted_frame, every=0.2)
    out["frame"] = frame.get_name()
    is_dialog = lambda n: n.get_role() in (Atspi.Role.ALERT, Atspi.Role.DIALOG) and SUMMARY in (n.get_name() or "")
    dialog = until("an alert dialog named by the summary", lambda: find(frame, is_dialog), every=0.05)
    out["dialog"] = describe(dialog)
    button = lambda name: lambda n: n.get_role() == Atspi.Role.PUSH_BUTTON and n.get_name() == name
    deny = find(dialog, button("Deny"))
    approve = find(dialog, button("Approve"))
    announcer = find(frame, lambda n: attrs(n).get("id") == "announcer")
    # The first look, as soon as the dialog is in the tree.
    out["deny_first"] = describe(deny)
    out["approve_first"] = describe(approve)
    until("Deny to have the focus", lambda: "focused" in states(deny), timeout=5)
    out["deny_focused"] = describe(deny)
    until("Approve to become available", lambda: "enabled" in states(approve))
    out["approve_available"] = describe(approve)
    heard = lambda: text_of(announcer) == "Approve available"
    until("Approve available to be announced", heard, timeout=5)
    out["announcer_before"] = text_of(announcer)
    # The test answers now; what the announcer says changes, and the focus lands inside this window.
    changed = lambda: (t := text_of(announcer)) and t != out["announcer_before"] and t
    out["announcer_after"] = until("the result to be announced", changed)
    focused = until("the focus after the decision", lambda: find(frame, lambda n: "focused" in states(n)), timeout=5)
    out["focused_after"] = describe(focused)
    out["dialog_still_in_tree"] = find(frame, is_dialog) is not None
    print(json.dumps(out))


main()
