#!/usr/bin/env bash
# The compiler warnings a build log holds about the project's own sources (Sources/, Tests/,
# Plugins/ under ROOT), one line each; exits 1 when there are any. Warnings about the toolchain or
# the system's headers are not the project's and do not count. A build prints the warnings of what
# it compiled: a clean build shows them all, an incremental one those of the files it rebuilt.
#   script/lib/own-warnings.sh BUILD_LOG ROOT
set -uo pipefail
log=$1
root=$(printf '%s' "$2" | sed 's/[][\.*^$+?(){}|]/\\&/g')   # the path as a literal in the pattern
found=$(grep -E "^$root/(Sources|Tests|Plugins)/[^:]+:[0-9]+:[0-9]+: warning:" "$log" | sort -u)
[ -z "$found" ] && exit 0
echo "$found"
exit 1
