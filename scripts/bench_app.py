"""What the interactive benchmarks share: a private HOME with an empty local library, the
app started with its report switches (its stdout collected), xdotool and the window's id."""
import os
import subprocess
import threading
import time


def private_home(root, **env):
    """Environment for a run in `root` (no first-launch question); returns (env, library)."""
    environment = dict(os.environ, HOME=root, XDG_DATA_HOME=f"{root}/data", XDG_STATE_HOME=f"{root}/state",
                       XDG_CONFIG_HOME=f"{root}/config", XDG_CACHE_HOME=f"{root}/cache", **env)
    library = f"{root}/data/notula/Notes"
    os.makedirs(library, mode=0o700)
    os.makedirs(f"{root}/config/notula")
    with open(f"{root}/config/notula/preferences.json", "w") as handle:
        handle.write('{"storage": "local"}')
    return environment, library


def launch(binary, env):
    """Starts the app; returns (process, lines), `lines` filling with its stdout."""
    process = subprocess.Popen([binary], env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    lines = []
    reader = threading.Thread(target=lambda: lines.extend(process.stdout), daemon=True)
    reader.start()
    process.reader = reader
    return process, lines


def stop(process):
    process.terminate()
    process.wait(10)
    process.reader.join(2)


def xdotool(*args):
    subprocess.run(["xdotool", *args], check=True, capture_output=True, timeout=60)


def window_id(timeout=30):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        out = subprocess.run(["xdotool", "search", "--onlyvisible", "--name", "^Notula$"],
                             capture_output=True, text=True).stdout.split()
        if out:
            return out[0]
        time.sleep(0.05)
    raise RuntimeError("no Notula window")
