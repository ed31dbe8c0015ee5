#!/usr/bin/env bash
# Runs the static checks (`npm run check`) into the directory given: their output in `log`, then
# their exit status in `status`, written whole (renamed into place) once they have ended, so that
# whoever waits for `status` (checks-beside-suite.sh) never reads it half written.
set -u
dir="$1"
checked=0
npm run --silent check >"$dir/log" 2>&1 || checked=$?
echo "$checked" >"$dir/status.tmp"
mv "$dir/status.tmp" "$dir/status"
