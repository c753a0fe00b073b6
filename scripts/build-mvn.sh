#!/usr/bin/env bash
# Maven for building and checking (the set-up, `npm run lint`, `npm test`): .mvn/jvm.config gives
# Maven's JVM a 2 GB heap touched ahead, for the study server that `mvn exec:java` runs inside it;
# a build or a check has no use for that, and touching it costs each call about two CPU-seconds.
# Usage: bash scripts/build-mvn.sh <maven arguments>
exec env MAVEN_OPTS="${MAVEN_OPTS:-} -XX:-AlwaysPreTouch -Xms64m" mvn -B -ntp "$@"
