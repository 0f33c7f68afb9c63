#!/usr/bin/env bash
# Runs the whole suite and, when it fails, repeats every failure line at the end of the output, so that the tail
# of a CI log (often all that is kept) names the failing tests and their expectations.
set -uo pipefail
cd "$(dirname "$0")/.."

swift="${SWIFT:-swift}"
log="$(mktemp "${TMPDIR:-/tmp}/reprise-tests.XXXXXX")"
trap 'rm -f "$log"' EXIT

scripts/install-test-python.sh || exit $?
"$swift" build --build-tests || exit $?
"$swift" test --no-parallel 2>&1 | tee "$log"
status=${PIPESTATUS[0]}

if [ "$status" -ne 0 ]; then
    echo
    echo "==== failures (repeated from above) ===="
    # Each failure with the message lines (↳) that follow it: an expectation's comment says what was seen.
    grep -E -A6 '✘|error:|recorded an issue|Expectation failed|Fatal error|Caught error' "$log" \
        | grep -E '✘|↳|error:|recorded an issue|Expectation failed|Fatal error|Caught error' | grep -v '^.*✘ Test run with' | head -120
    grep -E '✘ Test run with' "$log" | tail -1
fi
exit "$status"
