#!/usr/bin/env bash
# Installs the PDF engine render uses: WeasyPrint 70 (PyPI) into the project-local virtualenv `.venv/`,
# and the Debian libraries it loads at run time (Pango, HarfBuzz subsetting, fontconfig, a font).
#
# Idempotent and quiet: when WeasyPrint 70.x already answers from `.venv/bin/weasyprint` and the
# libraries are present, it prints nothing and exits 0. Uses sudo for apt-get only when not root.
#
#   pipeline/tools/install-pdf-engine.sh          # from anywhere inside the repository
#   SPORTSTIME_PYTHON=python3.12 pipeline/tools/install-pdf-engine.sh
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
venv="$root/.venv"
want_series="70"
python="${SPORTSTIME_PYTHON:-python3}"
export DEBIAN_FRONTEND=noninteractive

# Debian packages WeasyPrint needs (its "First steps" page for Debian/Ubuntu) plus one font family.
debian_packages=(libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz-subset0 libfontconfig1 fonts-dejavu-core)

say() { printf 'install-pdf-engine: %s\n' "$*" >&2; }

run_privileged() {
    if [ "$(id -u)" -eq 0 ]; then
        "$@"
    elif command -v sudo >/dev/null 2>&1; then
        sudo --preserve-env=DEBIAN_FRONTEND "$@"
    else
        say "error: need root for '$*' and sudo is not available. Run this script as root, or install: ${missing[*]}."
        exit 1
    fi
}

# Runs apt-get quietly; its output is shown only when it fails.
apt_quiet() {
    local log
    log="$(mktemp)"
    if ! run_privileged apt-get "$@" >"$log" 2>&1; then
        cat "$log" >&2
        rm -f "$log"
        say "error: apt-get $* failed (output above)."
        exit 1
    fi
    rm -f "$log"
}

is_installed() {
    dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'
}

missing=()
if command -v dpkg-query >/dev/null 2>&1; then
    for package in "${debian_packages[@]}"; do
        is_installed "$package" || missing+=("$package")
    done
fi
if [ "${#missing[@]}" -gt 0 ]; then
    if ! command -v apt-get >/dev/null 2>&1; then
        say "error: missing system libraries (${missing[*]}) and no apt-get to install them. Install Pango >= 1.44 and HarfBuzz with your package manager."
        exit 1
    fi
    say "installing Debian packages: ${missing[*]}"
    apt_quiet update -qq
    apt_quiet install -y -qq --no-install-recommends "${missing[@]}"
fi

engine_version() {
    [ -x "$venv/bin/weasyprint" ] || return 1
    "$venv/bin/weasyprint" --version 2>/dev/null | sed -n 's/^WeasyPrint version \([0-9][0-9.]*\).*/\1/p'
}

current="$(engine_version || true)"
case "$current" in
    "$want_series" | "$want_series".*) exit 0 ;;
esac

if [ ! -x "$venv/bin/python" ]; then
    if ! command -v "$python" >/dev/null 2>&1; then
        say "error: $python not found. Install Python >= 3.10 (Debian: apt-get install python3 python3-venv)."
        exit 1
    fi
    if ! "$python" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 10) else 1)'; then
        say "error: $("$python" --version 2>&1) is too old for WeasyPrint $want_series (needs >= 3.10). Set SPORTSTIME_PYTHON to a newer interpreter."
        exit 1
    fi
    say "creating $venv"
    if ! "$python" -m venv "$venv" >/dev/null 2>&1; then
        # Debian's own python3 keeps venv/ensurepip in a separate package.
        rm -rf "$venv"
        if command -v apt-get >/dev/null 2>&1; then
            say "installing python3-venv"
            apt_quiet update -qq
            apt_quiet install -y -qq --no-install-recommends python3-venv
        fi
        "$python" -m venv "$venv"
    fi
fi

say "installing WeasyPrint $want_series.* into .venv (was: ${current:-none})"
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-input "weasyprint==$want_series.*"

installed="$(engine_version || true)"
case "$installed" in
    "$want_series" | "$want_series".*) say "WeasyPrint $installed ready at .venv/bin/weasyprint" ;;
    *)
        say "error: .venv/bin/weasyprint does not report version $want_series.x (got '${installed:-nothing}'). Run '.venv/bin/weasyprint --info' to see why."
        exit 1
        ;;
esac
