#!/usr/bin/env bash
# `npm test`: the static checks (`npm run check`) and the mocha suite (`npm run test:all`) side by
# side. The suite waits on real servers much of its time, so the checks' CPU fits in beside it
# instead of adding a minute and more before it; at nice 19, so that they take only what the
# suite leaves idle. The checks' output is printed after the suite's;
# the run fails when either fails. The checks write their outcome with record-checks.sh; when
# `CHECKS_STATUS_FILE` is set (by `.ci/run`, which starts them while the native add-ons compile),
# they are already under way and their status comes to that file, their output to `log` beside it.
set -uo pipefail
if [ -z "${CHECKS_STATUS_FILE:-}" ]; then
  checks_dir="$(mktemp -d)"
  trap 'rm -rf "$checks_dir"' EXIT
  CHECKS_STATUS_FILE="$checks_dir/status"
  nice -n 19 bash "$(dirname "$0")/record-checks.sh" "$checks_dir" &
fi
npm run --silent test:all
suite=$?
until [ -f "$CHECKS_STATUS_FILE" ]; do sleep 1; done
checked="$(cat "$CHECKS_STATUS_FILE")"
echo
if [ "$checked" -eq 0 ]; then
  echo "checks (type-checking, ESLint, prettier, dependency rules): passed"
else
  cat "$(dirname "$CHECKS_STATUS_FILE")/log"
  echo "checks (type-checking, ESLint, prettier, dependency rules): FAILED (exit $checked)"
fi
[ "$suite" -eq 0 ] && [ "$checked" -eq 0 ]
