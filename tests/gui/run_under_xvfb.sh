#!/bin/sh
# Runs PROGRAM ARGS... under xvfb-run (a 1600 x 1000 screen on a free display) and exits with
# the program's own status. xvfb-run's status is the program's until its clean-up after the
# program: when removing its temporary folder fails it exits 5 in place of the program's
# status (seen with a refusal test whose program had exited 2), so the program's status is
# written to a file by the program's shell and read back here.
set -u
status_file=$(mktemp) || exit 1
trap 'rm -f "$status_file"' EXIT
xvfb-run -a -s "-screen 0 1600x1000x24" \
  sh -c '"$@"; echo $? > "$0"' "$status_file" "$@"
xvfb_status=$?
program_status=$(cat "$status_file")
# No status: the program never ran (Xvfb did not start); xvfb-run's status says why.
[ -n "$program_status" ] || exit "$xvfb_status"
exit "$program_status"
