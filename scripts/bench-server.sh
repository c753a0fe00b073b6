#!/usr/bin/env bash
# Prints the study server's benchmark figures (see server/src/test/java/lab/responsetime/bench).
# Arguments pick sections: datasets, serialize, brought, server (default: all).
set -euo pipefail
cd "$(dirname "$0")/.."
mvn -B -q -ntp -pl server test-compile exec:exec@bench -Dbench.args="$*"
