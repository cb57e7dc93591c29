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
from gi.repository import Atspi, GLib  # noqa: E402

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
    # The dialog is met as a screen reader meets it: through the focus event of its first button, then the
    # dialog is found by walking up from there (a walk of the whole page on every poll would slow the page down).
    loop = GLib.MainLoop()
    seen = {"approve_enabled_events": 0}

    def in_dialog(node):
        dialog = node
        while dialog is not None and dialog.get_role() not in (Atspi.Role.ALERT, Atspi.Role.DIALOG):
            dialog = dialog.get_parent()
        return dialog

    def on_event(event):
        try:
            node = event.source
            if event.detail1 != 1 or node.get_role() != Atspi.Role.PUSH_BUTTON:
                return
            if event.type.startswith("object:state-changed:focused") and node.get_name() == "Deny" and "deny" not in seen:
                dialog = in_dialog(node)
                frame = dialog
                while frame is not None and frame.get_role() != Atspi.Role.FRAME:
                    frame = frame.get_parent()
                if dialog is None or frame is None or frame.get_name() != TITLE:
                    return
                seen["deny"], seen["dialog"] = node, dialog
                seen["approve"] = find(dialog, lambda n: n.get_role() == Atspi.Role.PUSH_BUTTON and n.get_name() == "Approve")
                seen["approve_first"] = describe(seen["approve"])
                seen["deny_first"] = describe(node)
            elif event.type.startswith("object:state-changed:enabled") and node.get_name() == "Approve" and "deny" in seen:
                # Approve turned from unavailable to available while the dialog was open (heard, not skipped).
                seen["approve_enabled_events"] += 1
                loop.quit()
        except Exception as error:  # a node gone while we read it: wait for the next event
            seen["error"] = str(error)

    listener = Atspi.EventListener.new(on_event)
    for kind in ("object:state-changed:focused", "object:state-changed:enabled"):
        listener.register(kind)
    print("listening", file=sys.stderr, flush=True)
    GLib.timeout_add_seconds(TIMEOUT_S, loop.quit)
    loop.run()
    if "dialog" not in seen:
        raise SystemExit(json.dumps({"error": f"no focus on a Deny inside an alert dialog {seen}"}))
    out["approve_enabled_events"] = seen["approve_enabled_events"]
    dialog, deny, approve = seen["dialog"], seen["deny"], seen["approve"]
    until("the dialog to be named by the summary", lambda: SUMMARY in (dialog.get_name() or ""), timeout=5)
    out["dialog"] = describe(dialog)
    out["deny_focused"] = seen["deny_first"]
    out["approve_first"] = seen["approve_first"]
    frame, document = dialog, None
    while frame is not None and frame.get_role() != Atspi.Role.FRAME:
        document = frame if frame.get_role() == Atspi.Role.DOCUMENT_WEB else document
        frame = frame.get_parent()
    out["frame"] = frame.get_name() if frame is not None else None
    announcer = find(document, lambda n: attrs(n).get("id") == "announcer")
    until("Approve to become available", lambda: "enabled" in states(approve))
    out["approve_available"] = describe(approve)
    heard = lambda: text_of(announcer) == "Approve available"
    until("Approve available to be announced", heard, timeout=5)
    out["announcer_before"] = text_of(announcer)
    # The test answers now; what the announcer says changes, and the focus lands inside this window.
    changed = lambda: (t := text_of(announcer)) and t != out["announcer_before"] and t
    until("the result to be announced", changed)
    time.sleep(0.3)  # the accessible text can be read while WebKit is still filling it in
    out["announcer_after"] = text_of(announcer)
    # The web view itself keeps the toolkit focus; what matters is the element focused inside the page.
    focused_in_page = lambda: find(document, lambda n: n is not document and "focused" in states(n))
    focused = until("the focus after the decision", focused_in_page, timeout=5)
    out["focused_after"] = describe(focused)
    print(json.dumps(out))


main()
