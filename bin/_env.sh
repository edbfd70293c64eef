# Sourced by bin/run and bin/test: a virtual environment with what pyproject.toml asks for.
# Usage: fabula_env [extras]   (re-installs only when pyproject.toml changed)
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
  if [ ! -x "$venv/bin/python" ]; then
    echo "Creating the virtual environment in $venv ..."
    "$(fabula_python)" -m venv "$venv"
  fi
  local spec="."
  [ -n "$extras" ] && spec=".[$extras]"
  local stamp="$venv/.fabula-$(cat pyproject.toml | sha256sum | cut -c1-16)-${extras:-base}"
  if [ ! -f "$stamp" ]; then
    echo "Installing Python packages ($spec) ..."
    local log="$venv/pip-install.log"
    if ! { "$venv/bin/python" -m pip install --upgrade pip &&
           "$venv/bin/python" -m pip install -e "$spec"; } >"$log" 2>&1; then
      tail -30 "$log" >&2
      echo "Installing the Python packages failed; the whole log is in $log" >&2
      return 1
    fi
    touch "$stamp"
  fi
  export PATH="$venv/bin:$PATH"
  export VIRTUAL_ENV="$venv"
}
