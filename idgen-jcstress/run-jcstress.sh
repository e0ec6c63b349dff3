#!/usr/bin/env bash
# Runs the jcstress suite from idgen-jcstress/target/jcstress.jar (build it first:
# mvn -B -pl idgen-jcstress -am -DskipTests package).
#   bash idgen-jcstress/run-jcstress.sh [MODE [JCSTRESS OPTION...]]
#   MODE: sanity (default), quick (releases), default, tough, stress; further options go to jcstress
#   as given (CI: sanity -time 50 -strideCount 40 -strideSize 256, sanity's forks with more samples).
# Passes only if (1) every sound test (snowflake.*, uuid.*, lease.*, segment.*) shows no FORBIDDEN outcome (jcstress
# exits 0), and (2) the broken generator's test (broken.*) DOES show its FORBIDDEN duplicate
# (jcstress exits 1 and reports "Observed forbidden state"): the suite is known to be able to fail.
set -uo pipefail
mode=${1:-sanity}
shift || true
extra=("$@")
cd "$(dirname "$0")/target" || exit 2
jar=jcstress.jar
[ -f "$jar" ] || { echo "no target/$jar: run mvn -B -pl idgen-jcstress -am -DskipTests package" >&2; exit 2; }
passed=0
failed=0
# per test, the outcome table across all JVM configurations
summary() {
  sed -n '/^RUN RESULTS/,$p' "$1" | grep -E '\[(OK|FAILED)\]|^ +RESULT|Acceptable|Forbidden|Interesting' \
    | grep -v 'Observed forbidden'
}

echo "== jcstress -m $mode ${extra[*]}: sound tests (no FORBIDDEN outcome allowed)"
start=$SECONDS
if java -jar "$jar" -m "$mode" "${extra[@]}" -t 'dev\.idgen\.jcstress\.(snowflake|uuid|lease|segment)\.' -r jcstress-results/sound -v \
    > jcstress-sound.log 2>&1; then
  passed=$((passed + 1)); verdict=OK
else
  failed=$((failed + 1)); verdict=FAILED
fi
summary jcstress-sound.log
echo "sound tests: $verdict in $((SECONDS - start)) s (log: idgen-jcstress/target/jcstress-sound.log)"

echo "== jcstress -m $mode ${extra[*]}: the broken generator must be caught"
start=$SECONDS
java -jar "$jar" -m "$mode" "${extra[@]}" -t 'dev\.idgen\.jcstress\.broken\.' -r jcstress-results/broken -v \
    > jcstress-broken.log 2>&1
code=$?
summary jcstress-broken.log
if [ "$code" -eq 1 ] && grep -q 'RacySnowflakeTest.*Observed forbidden state' jcstress-broken.log; then
  passed=$((passed + 1)); verdict="caught (exit $code)"
else
  failed=$((failed + 1)); verdict="NOT caught (exit $code): the suite has lost its power to fail"
fi
echo "broken generator: $verdict in $((SECONDS - start)) s (log: idgen-jcstress/target/jcstress-broken.log)"

echo "jcstress: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
