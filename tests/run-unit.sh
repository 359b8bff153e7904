#!/bin/sh
# run-unit.sh BUILD SHARED — runs every cmocka test binary in BUILD/tests
# and prints one closing line: "N passed, N failed, N skipped". The pool
# of tests/run-units.sh over the one build: the same environment, the
# same logs and counts.
exec sh "$(dirname "$0")/run-units.sh" "$2" "$1"
