#!/usr/bin/env bash
# Builds benchmarks.jar, runs every JMH benchmark with the gc profiler on 1 thread and then the
# shared-generator benchmarks again on 2 threads (the thread count is the runner's -t, not the
# code's), and renders the Markdown report next to JMH's JSON (both runs) in idgen-jmh/results/.
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

log="$out/latest-$mode.log"
runs=()
: > "$log"
# one JMH run per thread count; UuidCodecBenchmark compares single operations, so 1 thread only
for threads in 1 2; do
  run_json="idgen-jmh/target/latest-$mode-${threads}t.json"
  excludes=()
  [ "$threads" -gt 1 ] && excludes=(-e UuidCodecBenchmark)
  echo "== running the $mode suite on $threads thread(s) ($(nproc) cores); JMH's own output goes to $log"
  if "$java_cmd" -jar "$jar" "${settings[@]}" -t "$threads" "${excludes[@]}" -prof gc -rf json -rff "$run_json" \
      "${filter[@]}" >> "$log" 2>&1; then
    runs+=("$run_json")
  elif [ "$threads" -gt 1 ] && tail -n 5 "$log" | grep -q 'No matching benchmarks'; then
    echo "== nothing in the filter runs on $threads threads"
  else
    tail -n 40 "$log"
    echo "JMH failed; the whole log is $log" >&2
    exit 1
  fi
done

machine="$(nproc)-core $(grep -m 1 'model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2 | sed 's/^ *//' || echo 'CPU'), $(uname -s) $(uname -r)"
machine="${IDGEN_MACHINE:-$machine}"
"$java_cmd" -cp "$jar" dev.idgen.jmh.report.ReportRenderer "${runs[@]}" "$md" --merged-json "$json" \
  --title "$mode run" --machine "$machine" --date "$started"
echo "== $md"
