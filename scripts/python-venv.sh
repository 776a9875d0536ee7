#!/usr/bin/env bash
# Make a fresh virtual environment with advlock pip-installed from
# bindings/python (as users install it) plus the given PyPI packages.
#
#   scripts/python-venv.sh PYTHON VENV_DIR [PACKAGE...]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
python=${1:?usage: python-venv.sh PYTHON VENV_DIR [PACKAGE...]}
venv=${2:?usage: python-venv.sh PYTHON VENV_DIR [PACKAGE...]}
shift 2
rm -rf "$venv"
"$python" -m venv "$venv"
"$venv/bin/python" -m pip --disable-pip-version-check -q install "$@" "$root/bindings/python"
