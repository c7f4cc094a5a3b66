#!/usr/bin/env bash
# A Debian root of another release (Debian 13 "trixie" for `make test`), made from Debian's
# archive with mmdebstrap, and commands run inside it with the host's Swift toolchain.
#
#   scripts/debian-root.sh make RELEASE ROOT   makes ROOT once (a finished root has ROOT/.notula-root)
#   scripts/debian-root.sh run ROOT COMMAND    copies the source tree to ROOT/src and runs COMMAND there
#
# The root gets only what the Swift toolchain needs to run (build-essential and the libraries
# swift.org's Linux install lists) and the project's own BUILD_DEPS and TEST_DEPS from the
# Makefile (`make print-deps`), so `make test` inside installs nothing more. The toolchain is
# bound in read-only at the host's path. Every mount lives in a private mount namespace
# (unshare): it is gone when the command ends, whatever way it ends. Needs root (or sudo).
set -euo pipefail
cd "$(dirname "$0")/.."
sudo=""; [[ $(id -u) -eq 0 ]] || sudo=sudo

# Swift's runtime needs (swift.org's Debian list, trixie's names); libpython is the REPL's and
# lldb's, which `swift build` loads all the same.
SWIFT_NEEDS="build-essential git ca-certificates tzdata libcurl4t64 libedit2 libncurses6 libxml2 libsqlite3-0 libpython3.13"

swift_toolchain() {
  local driver
  driver=$(readlink -f "$(command -v swift)")   # …/usr/bin/swift-driver
  dirname "$(dirname "$(dirname "$driver")")"
}

make_root() {
  local release=$1 root=$2
  [[ -e $root/.notula-root ]] && return 0
  scripts/install-deps.sh mmdebstrap eatmydata debian-archive-keyring
  $sudo rm -rf "$root"
  mkdir -p "$(dirname "$root")"
  local deps
  deps=$(make --no-print-directory -s print-deps)
  # eatmydata: dpkg without fsync (a root thrown away when it fails); security updates as a
  # user of that release gets them.
  $sudo mmdebstrap --variant=apt --hook-directory=/usr/share/mmdebstrap/hooks/eatmydata \
    --include="$(echo $SWIFT_NEEDS $deps | tr ' ' ',')" \
    "$release" "$root" \
    "deb http://deb.debian.org/debian $release main" \
    "deb http://deb.debian.org/debian $release-updates main" \
    "deb http://security.debian.org/debian-security $release-security main"
  $sudo touch "$root/.notula-root"
}

run_in_root() {
  local root
  root=$(readlink -f "$1")
  shift
  [[ -e $root/.notula-root ]] || { echo "debian-root: $root is not a finished root (make it first)" >&2; exit 1; }
  # The tree as git sees it (tracked and new files, nothing ignored), over what the last run
  # left: its build folders (.build*) stay, so a second run builds only what changed.
  $sudo mkdir -p "$root/src"
  $sudo find "$root/src" -mindepth 1 -maxdepth 1 ! -name '.build*' -exec rm -rf {} +
  git ls-files -z --cached --others --exclude-standard | tar --null -T - -cf - | $sudo tar -xf - -C "$root/src"
  $sudo cp /etc/resolv.conf "$root/etc/resolv.conf"
  local toolchain
  toolchain=$(swift_toolchain)
  $sudo unshare --mount --propagation private -- bash -euc '
    root=$1 toolchain=$2 ci=$3 wait_scale=$4
    shift 4
    # The root a mount point of its own: inside, `unshare --propagation` (test-deb) needs "/" to be one.
    mount --bind "$root" "$root"
    for d in proc sys dev; do mount --rbind "/$d" "$root/$d"; done
    mkdir -p "$root$toolchain"
    mount --bind -o ro "$toolchain" "$root$toolchain"
    exec chroot "$root" /usr/bin/env -i HOME=/root LANG=C.UTF-8 TERM=dumb \
      PATH="$toolchain/usr/bin:/usr/sbin:/usr/bin:/sbin:/bin" CI="$ci" \
      ${wait_scale:+NOTULA_WAIT_SCALE="$wait_scale"} bash -c "cd /src && $*"
  ' debian-root "$root" "$toolchain" "${CI:-}" "${NOTULA_WAIT_SCALE:-}" "$@"
}

case "${1:-}" in
  make) make_root "$2" "$3" ;;
  run) shift; run_in_root "$@" ;;
  *) sed -n '2,7p' "$0" >&2; exit 2 ;;
esac
