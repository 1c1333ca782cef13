# Sourced by run-tests: makes sure Debian's Chromium is on the machine for the page
# tests (Playwright drives it; ``playwright install`` downloads a browser, which this
# machine cannot). Installs it with apt when missing and this user may; exports
# CAMPFIRE_CHROMIUM with its path.
if [ -z "${CAMPFIRE_CHROMIUM:-}" ]; then
    for candidate in /usr/bin/chromium /usr/bin/chromium-browser; do
        if [ -x "$candidate" ]; then CAMPFIRE_CHROMIUM="$candidate"; break; fi
    done
fi
if [ -z "${CAMPFIRE_CHROMIUM:-}" ] && command -v apt-get >/dev/null; then
    sudo=""
    [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null && sudo="sudo -n"
    echo "== installing Debian's chromium for the page tests" >&2
    if { $sudo apt-get install -y -q chromium fonts-noto-color-emoji >/dev/null 2>&1 \
         || { $sudo apt-get update -q >/dev/null 2>&1 \
              && $sudo apt-get install -y -q chromium fonts-noto-color-emoji >/dev/null 2>&1; }; }; then
        CAMPFIRE_CHROMIUM=/usr/bin/chromium
    else
        echo "   could not install chromium: the page tests will fail" >&2
    fi
fi
export CAMPFIRE_CHROMIUM="${CAMPFIRE_CHROMIUM:-}"
