#!/usr/bin/env bash
# `npm test`: the static checks (`npm run check`) and the mocha suite (`npm run test:all`) side by
# side. The suite waits on real servers much of its time, so the checks' CPU fits in beside it
# instead of adding a minute and more before it. The checks' output is printed after the suite's;
# the run fails when either fails. `CHECKS_STATUS_FILE` (set by `.ci/run`, which starts the checks
# while the native add-ons compile) names the file their exit status will be written to, their
# output in `log` beside it: the suite runs, then the checks' outcome is awaited there.
# `CHECKS_PASSED=true` runs the suite alone; `CHECKS_PASSED=false` also fails the run, after it.
set -uo pipefail
if [ -n "${CHECKS_STATUS_FILE:-}" ]; then
  npm run --silent test:all
  suite=$?
  until [ -f "$CHECKS_STATUS_FILE" ]; do sleep 1; done
  checked="$(cat "$CHECKS_STATUS_FILE")"
  echo
  if [ "$checked" -eq 0 ]; then
    echo "checks (type-checking, ESLint, prettier, dependency rules): passed beside the suite"
  else
    cat "$(dirname "$CHECKS_STATUS_FILE")/log"
    echo "checks (type-checking, ESLint, prettier, dependency rules): FAILED (exit $checked)"
  fi
  [ "$suite" -eq 0 ] && [ "$checked" -eq 0 ]
  exit
fi
case "${CHECKS_PASSED:-}" in
  true | false)
    npm run --silent test:all
    suite=$?
    echo
    echo "checks (type-checking, ESLint, prettier, dependency rules): $([ "$CHECKS_PASSED" = true ] && echo 'passed before the suite' || echo 'FAILED before the suite')"
    [ "$suite" -eq 0 ] && [ "$CHECKS_PASSED" = true ]
    exit
    ;;
esac
checks_log="$(mktemp)"
trap 'rm -f "$checks_log"' EXIT
npm run --silent check >"$checks_log" 2>&1 &
checks=$!
npm run --silent test:all
suite=$?
wait "$checks"
checked=$?
echo
if [ "$checked" -eq 0 ]; then
  echo "checks (type-checking, ESLint, prettier, dependency rules): passed"
else
  cat "$checks_log"
  echo "checks (type-checking, ESLint, prettier, dependency rules): FAILED (exit $checked)"
fi
[ "$suite" -eq 0 ] && [ "$checked" -eq 0 ]
