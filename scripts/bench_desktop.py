# The Desktop row of scripts/bench: `aiui --demo` beside the minimal Tauri app (tests/minimal-tauri),
# both release builds of one run, under the same Xvfb, D-Bus session and keyring, with the same environment.
# Start: spawn to the chat window's first painted frame after load (the `first_paint` probe, AIUI_BENCH_FIRST_PAINT),
# alternating the two apps, median of AIUI_BENCH_RUNS runs each, the floor loading as many windows as aiui has at
# start. Confirmation: AIUI_BENCH_CONFIRM_RUNS starts of aiui, each running one real turn ("restart lnd", the
# built-in model) AIUI_BENCH_CONFIRM_AFTER_MS after start; the app times its AwaitingConfirmation event to the
# trusted window's frame showing it (the first showing of the start), the probe then denies it. Memory: PSS summed
# over the process and all its descendants (the WebKit web and network processes) after AIUI_BENCH_IDLE_S seconds
# idle, and as long after the confirmation was decided, each beside the floor with the same windows loaded (and
# shown). Size: stripped binaries.
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
CONFIRMATION_PAINTED = "aiui-bench: confirmation painted"
TURN_ENDED = "aiui-bench: confirmation turn ended"
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


class Lines:
    """The stderr of an app, read on a thread: each line kept with the moment it arrived."""

    def __init__(self, proc):
        self.lines, self.cond, self.ended = [], threading.Condition(), False
        threading.Thread(target=self.read, args=(proc,), daemon=True).start()

    def read(self, proc):
        for line in proc.stderr:
            with self.cond:
                self.lines.append((time.monotonic(), line.rstrip()))
                self.cond.notify_all()
        with self.cond:
            self.ended = True
            self.cond.notify_all()

    def wait_for(self, marker, timeout):
        """The first line holding `marker`, as (arrival, line), or None at the timeout or the end of stderr."""
        deadline = time.monotonic() + timeout
        with self.cond:
            while True:
                for at, line in self.lines:
                    if marker in line:
                        return at, line
                left = deadline - time.monotonic()
                if self.ended or left <= 0:
                    return None
                self.cond.wait(left)

    def tail(self):
        with self.cond:
            return "\n".join(line for _, line in self.lines[-40:])


class App:
    def __init__(self, label, argv_for):
        self.label, self.argv_for = label, argv_for
        self.starts_ms, self.pss = [], None

    def spawn(self, env, work, extra_env=None, argv_extra=()):
        """Starts the app and waits for its chat window's first paint: (process, its stderr, ms to first paint)."""
        data = tempfile.mkdtemp(dir=work)
        token = secrets.token_hex(16)
        started = time.monotonic()
        proc = subprocess.Popen(
            self.argv_for(data) + list(argv_extra),
            env={**env, "AIUI_BENCH_FIRST_PAINT": token, **(extra_env or {})},
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            start_new_session=True,
        )
        lines = Lines(proc)
        painted = lines.wait_for(PAINTED, 60)
        if not painted:
            stop(proc)
            sys.exit(f"{self.label}: no first paint within 60 s (exit {proc.returncode}); its stderr:\n" + lines.tail())
        return proc, lines, (painted[0] - started) * 1000


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
    confirm_runs = int(os.environ.get("AIUI_BENCH_CONFIRM_RUNS", "20"))
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

        aiui_app = App("aiui --demo", lambda data: [aiui, "--demo", "--data-dir", data])
        floor = App("minimal Tauri app", lambda data: [minimal])
        apps = [aiui_app, floor]
        # One unmeasured start each first: the page cache then holds both binaries and WebKit alike.
        for app in apps:
            stop(app.spawn(env, work)[0])
        # How many windows aiui has loaded at start (one web process each): the floor loads as many.
        proc, _, _ = aiui_app.spawn(env, work)
        time.sleep(5)
        aiui_webs = sum(1 for pid in process_tree(proc.pid) if name_of(pid).startswith("WebKitWebProces"))
        stop(proc)
        floor_start = ["--windows", "both" if aiui_webs >= 2 else "main"]
        for _ in range(runs):
            for app, extra in ((aiui_app, ()), (floor, floor_start)):
                proc, _, ms = app.spawn(env, work, argv_extra=extra)
                app.starts_ms.append(ms)
                stop(proc)
                time.sleep(0.5)

        # The confirmation: a real turn ("restart lnd", the built-in model) AIUI_BENCH_CONFIRM_AFTER_MS after start;
        # the app times its AwaitingConfirmation to the trusted window's painted frame, then the probe denies it.
        # Each start measures the first showing, the one the owner meets.
        confirm_env = {"AIUI_BENCH_CONFIRM": os.environ.get("AIUI_BENCH_CONFIRM_AFTER_MS", "3000")}
        confirm_ms, chat_ms = [], []
        for _ in range(confirm_runs):
            proc, lines, ms = aiui_app.spawn(env, work, extra_env=confirm_env)
            chat_ms.append(ms)
            painted = lines.wait_for(CONFIRMATION_PAINTED, 90)
            ended = lines.wait_for(TURN_ENDED, 30)
            stop(proc)
            if not painted or not ended:
                sys.exit("aiui --demo: the confirmation was not painted and decided; its stderr:\n" + lines.tail())
            confirm_ms.append(float(painted[1].split(CONFIRMATION_PAINTED, 1)[1].split()[0]))
            time.sleep(0.5)

        # Memory, like with like: idle (aiui's windows at start beside the floor with as many), and after the
        # first confirmation was shown and decided (both windows, the second shown, beside the floor's the same).
        breakdown, pss = {}, {}

        def measure(key, app, extra_env=None, argv_extra=(), settle=None):
            proc, lines, _ = app.spawn(env, work, extra_env=extra_env, argv_extra=argv_extra)
            if settle and not lines.wait_for(settle, 90):
                stop(proc)
                sys.exit(f"{app.label}: no '{settle}' line; its stderr:\n" + lines.tail())
            time.sleep(idle_s)
            per = {}
            for pid in process_tree(proc.pid):
                per.setdefault(name_of(pid), []).append(pss_kb(pid))
            pss[key] = sum(sum(v) for v in per.values()) / 1024
            breakdown[key] = per
            stop(proc)
            time.sleep(1)

        measure("aiui idle", aiui_app)
        measure("floor idle", floor, argv_extra=floor_start)
        measure("aiui after", aiui_app, extra_env=confirm_env, settle=TURN_ENDED)
        measure("floor after", floor, argv_extra=["--windows", "both-shown"])
        sizes = [stripped_mb(aiui, work), stripped_mb(minimal, work)]
    finally:
        # The keyring daemon ends with the D-Bus session scripts/bench started this in.
        shutil.rmtree(work, ignore_errors=True)

    a, m = apps
    a_start, m_start = statistics.median(a.starts_ms), statistics.median(m.starts_ms)
    row = "{:<44} {:>12} {:>12} {:>8}   {}"
    print(row.format("figure", "aiui --demo", "minimal", "ratio", "goal"))

    def ratio_row(what, av, mv, unit, goal):
        r = av / mv
        verdict = "met" if r <= goal else "MISSED"
        print(row.format(what, f"{av:.0f} {unit}", f"{mv:.0f} {unit}", f"{r:.2f}x", f"<= {goal}x: {verdict}"))

    windows = "both windows" if aiui_webs >= 2 else "chat window only"
    ratio_row(f"start to first paint, p50 of {runs} ({windows})", a_start, m_start, "ms", 1.2)
    c50, c99 = percentile(confirm_ms, 50), percentile(confirm_ms, 99)
    verdict = "met" if c50 <= 150 and c99 <= 300 else "MISSED"
    print(row.format(f"confirmation to painted, p50 of {confirm_runs}", f"{c50:.0f} ms", "", "",
                     f"<= 150 ms p50 / <= 300 ms p99: {verdict}"))
    print(row.format(f"confirmation to painted, p99 of {confirm_runs}", f"{c99:.0f} ms", "", "", ""))
    print(row.format("  beside: chat window's first paint, p50/p99",
                     f"{percentile(chat_ms, 50):.0f}/{percentile(chat_ms, 99):.0f} ms", "", "", "(same starts)"))
    ratio_row(f"idle PSS after {idle_s} s ({windows})", pss["aiui idle"], pss["floor idle"], "MB", 1.3)
    ratio_row(f"PSS {idle_s} s after a confirmation (both)", pss["aiui after"], pss["floor after"], "MB", 1.3)
    verdict = "met" if sizes[0] <= 30 else "MISSED"
    print(row.format("binary, stripped", f"{sizes[0]:.1f} MB", f"{sizes[1]:.1f} MB", f"{sizes[0] / sizes[1]:.2f}x",
                     f"<= 30 MB: {verdict}"))
    print()
    for app in apps:
        print(f"{app.label}: starts (ms) " + " ".join(f"{ms:.0f}" for ms in app.starts_ms))
    print("aiui --demo: confirmation to painted (ms) " + " ".join(f"{ms:.0f}" for ms in confirm_ms))
    for key, per in breakdown.items():
        parts = ", ".join(f"{name} x{len(v)} {sum(v) / 1024:.0f} MB" for name, v in sorted(per.items()))
        print(f"{key}: PSS {pss[key]:.0f} MB by process: {parts}")


def percentile(values, p):
    """The nearest-rank percentile: p99 of 20 runs is the slowest."""
    ordered = sorted(values)
    rank = max(1, -(-len(ordered) * p // 100))
    return ordered[int(rank) - 1]


if __name__ == "__main__":
    main()
