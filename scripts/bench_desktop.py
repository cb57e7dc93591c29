# The Desktop row of scripts/bench: `aiui --demo` beside the minimal Tauri app (tests/minimal-tauri),
# both release builds of one run, under the same Xvfb, D-Bus session and keyring, with the same environment.
# Start: spawn to the chat window's first painted frame after load (the `first_paint` probe, AIUI_BENCH_FIRST_PAINT),
# alternating the two apps, median of AIUI_BENCH_RUNS runs each. Memory: PSS summed over the process and all its
# descendants (the WebKit web and network processes) after AIUI_BENCH_IDLE_S seconds idle. Size: stripped binaries.
# Run through `scripts/bench desktop`, which builds both and starts this inside dbus-run-session and xvfb-run.
import os
import secrets
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time

PAINTED = "aiui-bench: first paint"
MB = 1024 * 1024


def children_of():
    tree = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                stat = f.read()
        except OSError:
            continue
        # The command name may hold spaces and parentheses: the fields after the last ')' are fixed.
        ppid = int(stat[stat.rindex(")") + 2 :].split()[1])
        tree.setdefault(ppid, []).append(int(entry))
    return tree


def process_tree(root):
    tree, found, todo = children_of(), [], [root]
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo.extend(tree.get(pid, []))
    return found


def pss_kb(pid):
    try:
        with open(f"/proc/{pid}/smaps_rollup") as f:
            for line in f:
                if line.startswith("Pss:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def name_of(pid):
    try:
        with open(f"/proc/{pid}/comm") as f:
            return f.read().strip()
    except OSError:
        return "?"


class App:
    def __init__(self, label, argv_for):
        self.label, self.argv_for = label, argv_for
        self.starts_ms, self.pss = [], None

    def spawn(self, env, work):
        data = tempfile.mkdtemp(dir=work)
        token = secrets.token_hex(16)
        started = time.monotonic()
        proc = subprocess.Popen(
            self.argv_for(data),
            env={**env, "AIUI_BENCH_FIRST_PAINT": token},
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            start_new_session=True,
        )
        answered, painted_at, log = threading.Event(), [], []

        def read():
            for line in proc.stderr:
                if PAINTED in line and not painted_at:
                    painted_at.append(time.monotonic())
                    answered.set()
                elif len(log) < 40:
                    log.append(line.rstrip())
            answered.set()

        threading.Thread(target=read, daemon=True).start()
        answered.wait(60)
        if not painted_at:
            stop(proc)
            sys.exit(f"{self.label}: no first paint within 60 s (exit {proc.returncode}); its stderr:\n" + "\n".join(log))
        at = painted_at[0]
        return proc, (at - started) * 1000


def stop(proc):
    # The web processes may run in a session of their own (a sandbox): each one found in the tree is signalled.
    tree = process_tree(proc.pid)
    for pid in tree:
        try:
            os.kill(pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
    try:
        proc.wait(5)
    except subprocess.TimeoutExpired:
        pass
    for pid in tree:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    proc.wait()


def stripped_mb(path, work):
    out = os.path.join(work, "stripped")
    subprocess.run(["strip", "-o", out, path], check=True)
    size = os.path.getsize(out) / MB
    os.remove(out)
    return size


def main():
    aiui, minimal = sys.argv[1], sys.argv[2]
    runs = int(os.environ.get("AIUI_BENCH_RUNS", "7"))
    idle_s = int(os.environ.get("AIUI_BENCH_IDLE_S", "60"))
    work = tempfile.mkdtemp(prefix="aiui-bench-desktop-")
    try:
        env = dict(os.environ)
        for var in ("XDG_RUNTIME_DIR", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_CONFIG_HOME"):
            path = os.path.join(work, var.lower())
            os.makedirs(path, mode=0o700)
            env[var] = path
        # The built-in model stays where scripts/setup put it (found before XDG_DATA_HOME is replaced).
        home_data = os.environ.get("XDG_DATA_HOME") or os.path.expanduser("~/.local/share")
        env.setdefault("AIUI_MODEL_DIR", os.path.join(home_data, "aiui", "models"))
        env.pop("AIUI_LOG", None)
        keyring = subprocess.run(
            ["gnome-keyring-daemon", "--unlock", "--components=secrets"],
            input="bench", capture_output=True, text=True, env=env, check=True,
        )
        for line in keyring.stdout.splitlines():
            if "=" in line:
                key, value = line.split("=", 1)
                env[key] = value

        apps = [
            App("aiui --demo", lambda data: [aiui, "--demo", "--data-dir", data]),
            App("minimal Tauri app", lambda data: [minimal]),
        ]
        # One unmeasured start each first: the page cache then holds both binaries and WebKit alike.
        for app in apps:
            stop(app.spawn(env, work)[0])
        for _ in range(runs):
            for app in apps:
                proc, ms = app.spawn(env, work)
                app.starts_ms.append(ms)
                stop(proc)
                time.sleep(0.5)
        breakdown = {}
        for app in apps:
            proc, _ = app.spawn(env, work)
            time.sleep(idle_s)
            per = {}
            for pid in process_tree(proc.pid):
                per.setdefault(name_of(pid), []).append(pss_kb(pid))
            app.pss = sum(sum(v) for v in per.values()) / 1024
            breakdown[app.label] = per
            stop(proc)
            time.sleep(1)
        sizes = [stripped_mb(aiui, work), stripped_mb(minimal, work)]
    finally:
        # The keyring daemon ends with the D-Bus session scripts/bench started this in.
        shutil.rmtree(work, ignore_errors=True)

    a, m = apps
    a_start, m_start = statistics.median(a.starts_ms), statistics.median(m.starts_ms)
    row = "{:<34} {:>12} {:>12} {:>8}   {}"
    print(row.format("figure", "aiui --demo", "minimal", "ratio", "goal"))

    def ratio_row(what, av, mv, unit, goal):
        r = av / mv
        verdict = "met" if r <= goal else "MISSED"
        print(row.format(what, f"{av:.0f} {unit}", f"{mv:.0f} {unit}", f"{r:.2f}x", f"<= {goal}x: {verdict}"))

    ratio_row(f"start to first paint, p50 of {runs}", a_start, m_start, "ms", 1.2)
    ratio_row(f"idle PSS after {idle_s} s, process tree", a.pss, m.pss, "MB", 1.3)
    verdict = "met" if sizes[0] <= 30 else "MISSED"
    print(row.format("binary, stripped", f"{sizes[0]:.1f} MB", f"{sizes[1]:.1f} MB", f"{sizes[0] / sizes[1]:.2f}x",
                     f"<= 30 MB: {verdict}"))
    print()
    for app in apps:
        print(f"{app.label}: starts (ms) " + " ".join(f"{ms:.0f}" for ms in app.starts_ms))
        parts = ", ".join(f"{name} x{len(v)} {sum(v) / 1024:.0f} MB" for name, v in sorted(breakdown[app.label].items()))
        print(f"{app.label}: PSS by process: {parts}")


if __name__ == "__main__":
    main()
