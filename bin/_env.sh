# Sourced by bin/run and bin/test: a virtual environment with the locked versions.
# Usage: fabula_env [test]   installs requirements/base.txt, or with `test`
# requirements/test.txt (runtime + test + dev tools), then this project itself
# (pip install --no-deps -e .). Re-installs only when that lock file changed; the
# project alone is re-installed when pyproject.toml changed. bin/lock refreshes the
# lock files from pyproject.toml's ranges.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

fabula_python() {
  for candidate in python3.11 python3.12 python3; do
    if command -v "$candidate" >/dev/null 2>&1 &&
       "$candidate" -c 'import sys; sys.exit(0 if (3, 11) <= sys.version_info[:2] < (3, 13) else 1)' 2>/dev/null; then
      echo "$candidate"; return 0
    fi
  done
  echo "Fabula needs Python 3.11 or 3.12 on the PATH." >&2
  return 1
}

fabula_env() {
  local extras="${1:-}"
  local venv="${FABULA_VENV:-$ROOT/.venv}"
  local lock="requirements/${extras:-base}.txt"
  if [ ! -f "$lock" ]; then
    echo "No lock file $lock (bin/lock makes it)." >&2
    return 1
  fi
  if [ ! -x "$venv/bin/python" ]; then
    echo "Creating the virtual environment in $venv ..."
    "$(fabula_python)" -m venv "$venv"
  fi
  local log="$venv/pip-install.log"
  local lock_stamp="$venv/.fabula-lock-${extras:-base}-$(sha256sum "$lock" | cut -c1-16)"
  local project_stamp="$venv/.fabula-project-$(sha256sum pyproject.toml | cut -c1-16)"
  if [ ! -f "$lock_stamp" ]; then
    echo "Installing Python packages ($lock) ..."
    if ! { "$venv/bin/python" -m pip install --upgrade pip &&
           "$venv/bin/python" -m pip install -r "$lock"; } >"$log" 2>&1; then
      tail -30 "$log" >&2
      echo "Installing the Python packages failed; the whole log is in $log" >&2
      return 1
    fi
    rm -f "$venv/.fabula-lock-${extras:-base}-"* "$venv/.fabula-project-"*
    touch "$lock_stamp"
  fi
  if [ ! -f "$project_stamp" ]; then
    if ! "$venv/bin/python" -m pip install --no-deps -e . >>"$log" 2>&1; then
      tail -30 "$log" >&2
      echo "Installing Fabula itself failed; the whole log is in $log" >&2
      return 1
    fi
    rm -f "$venv/.fabula-project-"*
    touch "$project_stamp"
  fi
  export PATH="$venv/bin:$PATH"
  export VIRTUAL_ENV="$venv"
}

# The browser tests' accessibility checks need axe-core from npm (package.json pins it). Installs
# Node.js and npm with apt-get where we are root and they are missing (as bin/test does for Chromium),
# then `npm ci` when node_modules/axe-core is missing. Quiet; does nothing once installed.
fabula_node_tools() {
  [ -f "$ROOT/node_modules/axe-core/axe.min.js" ] && return 0
  if ! command -v npm >/dev/null 2>&1; then
    if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
      echo "Installing Node.js and npm for the accessibility checks ..."
      (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs npm >/dev/null) ||
        { echo "Could not install npm: the accessibility checks will fail." >&2; return 0; }
    else
      echo "npm is not installed (apt-get install nodejs npm): the accessibility checks will fail." >&2
      return 0
    fi
  fi
  echo "Installing axe-core (npm ci) ..."
  local log="$ROOT/node_modules.npm-ci.log"
  if ! (cd "$ROOT" && npm ci --no-audit --no-fund --loglevel=error) >"$log" 2>&1; then
    tail -20 "$log" >&2
    echo "npm ci failed (whole log in $log): the accessibility checks will fail." >&2
    return 0
  fi
  rm -f "$log"
}
