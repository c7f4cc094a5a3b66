#!/usr/bin/env bash
# Runs a command inside a private X display (Xvfb) and D-Bus session, with the AT-SPI bus,
# as a desktop session would provide. Usage: scripts/with-display.sh COMMAND [ARGS...]
# The display is 1280x800x24; everything started here is stopped on exit.
set -euo pipefail
if [[ "${NOTULA_IN_SESSION:-}" != 1 ]]; then
  exec_fd_file=$(mktemp)
  Xvfb -displayfd 3 -screen 0 1280x800x24 -nolisten tcp -noreset 3>"$exec_fd_file" >/dev/null 2>&1 &
  xvfb_pid=$!
  trap 'kill "$xvfb_pid" 2>/dev/null || true; rm -f "$exec_fd_file"' EXIT
  for _ in $(seq 1 100); do [[ -s "$exec_fd_file" ]] && break; sleep 0.05; done
  display=$(head -n1 "$exec_fd_file")
  [[ -n "$display" ]] || { echo "with-display: Xvfb did not start" >&2; exit 1; }
  export DISPLAY=":$display"
  export NOTULA_IN_SESSION=1
  status=0
  dbus-run-session -- "$0" "$@" || status=$?
  exit "$status"
fi
# Inside the D-Bus session: start the accessibility bus so AT-SPI clients can see the app.
if [[ -x /usr/libexec/at-spi-bus-launcher ]]; then
  /usr/libexec/at-spi-bus-launcher --launch-immediately >/dev/null 2>&1 &
  atspi_pid=$!
  trap 'kill "$atspi_pid" 2>/dev/null || true' EXIT
  sleep 0.3
fi
export GTK_A11Y=atspi NO_AT_BRIDGE=0
"$@"
