#!/usr/bin/env bash
# Builds benchmarks.jar, runs every JMH benchmark with the gc profiler, and renders the Markdown
# report next to JMH's JSON in idgen-jmh/results/.
#
#   idgen-jmh/run-report.sh            full run, for releases (about 20 minutes on 2 cores)
#   idgen-jmh/run-report.sh --quick    quick run (under 5 minutes on 2 cores; wide error bars)
#   idgen-jmh/run-report.sh --quick 'UuidV4|UuidV7'   only the benchmarks matching a JMH regex
#
# Writes results/latest-full.{json,md} or results/latest-quick.{json,md}. Set JAVA_HOME to run on
# another JDK; the JDK's version is printed in the report.
set -euo pipefail
cd "$(dirname "$0")/.."

mode=full
if [ "${1:-}" = "--quick" ]; then
  mode=quick
  shift
fi
filter=("$@")

java_cmd=java
if [ -n "${JAVA_HOME:-}" ]; then
  java_cmd="$JAVA_HOME/bin/java"
fi

if [ "$mode" = quick ]; then
  # 1 fork, 2 × 0.5 s warmup, 8 × 0.3 s measured: about 5 s a benchmark
  settings=(-f 1 -wi 2 -w 500ms -i 8 -r 300ms)
else
  # 2 forks, 3 × 1 s warmup, 8 × 1 s measured: about 25 s a benchmark
  settings=(-f 2 -wi 3 -w 1s -i 8 -r 1s)
fi

echo "== building idgen-jmh/target/benchmarks.jar"
mvn -B -q -pl idgen-jmh -am package -DskipTests

jar=idgen-jmh/target/benchmarks.jar
out=idgen-jmh/results
mkdir -p "$out"
json="$out/latest-$mode.json"
md="$out/latest-$mode.md"
started=$(date -u +%Y-%m-%dT%H:%M:%SZ)

echo "== running the $mode suite ($(nproc) cores); JMH's own output goes to $out/latest-$mode.log"
"$java_cmd" -jar "$jar" "${settings[@]}" -prof gc -rf json -rff "$json" "${filter[@]}" > "$out/latest-$mode.log" 2>&1 || {
  tail -n 40 "$out/latest-$mode.log"
  echo "JMH failed; the whole log is $out/latest-$mode.log" >&2
  exit 1
}

machine="$(nproc)-core $(grep -m 1 'model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2 | sed 's/^ *//' || echo 'CPU'), $(uname -s) $(uname -r)"
machine="${IDGEN_MACHINE:-$machine}"
"$java_cmd" -cp "$jar" dev.idgen.jmh.report.ReportRenderer "$json" "$md" \
  --title "$mode run" --machine "$machine" --date "$started"
echo "== $md"
