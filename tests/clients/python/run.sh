#!/usr/bin/env bash
# The pytest recipe (conftest.py) against BUILD_DIR/folio and sample-data/.
#   tests/clients/python/run.sh BUILD_DIR
# Runs the first Python 3 that has pytest (python3, then Debian's /usr/bin/python3 of
# python3-pytest); exit 77 (skipped) when there is none.
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
build="$(cd "${1:?usage: $0 BUILD_DIR}" && pwd)"
python=""
for candidate in python3 /usr/bin/python3; do
  if command -v "$candidate" >/dev/null 2>&1 && "$candidate" -m pytest --version >/dev/null 2>&1; then
    python="$candidate"
    break
  fi
done
if [[ -z "$python" ]]; then
  echo "SKIPPED: pytest is needed for the pytest recipe (apt-get install python3-pytest)"
  exit 77
fi
export FOLIO="$build/folio" FOLIO_FIXTURE="$root/sample-data" PYTHONDONTWRITEBYTECODE=1
cd "$here"
# -p no:cacheprovider: no .pytest_cache in the source tree.
exec "$python" -m pytest -p no:cacheprovider -q "$here"
