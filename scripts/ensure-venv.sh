# Sourced by run-bot and run-tests: makes sure .venv holds Campfire and its test
# extra, reinstalling only when pyproject.toml changed since the last install.
venv=".venv"
stamp="$venv/.campfire-installed"
py="${PYTHON:-python3}"
if [ ! -x "$venv/bin/python" ]; then
    "$py" -m venv "$venv"
fi
want=$(sha256sum pyproject.toml | cut -d' ' -f1)
if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
    "$venv/bin/python" -m pip install --quiet --upgrade pip >&2 || true
    "$venv/bin/python" -m pip install --quiet -e ".[test]" >&2
    echo "$want" > "$stamp"
fi
# shellcheck disable=SC1091
source "$venv/bin/activate"
# The engines' busiest modules compiled by mypyc (engine/compiled.py): built once for
# each version of the engine source, in .campfire/compiled. Without a C compiler the
# engines run their source, only slower.
python -m engine.compile build >/dev/null || echo "warning: engines run uncompiled" >&2
