#!/usr/bin/env bash
# How the Spark sample's throughput scales with executor cores: converts one corpus (HTML to
# Markdown) with one `markbridge batch` process (--jobs 1, then 2) and with markbridge_spark.py on
# local[1] and local[2], the same partitions each time, and prints records per second and the
# CPU seconds spent. Spark's figures are over the whole spark-submit (JVM start included) and over
# the job alone (its "seconds": from reading the input to the last output written). Not a CI
# step: run it by hand.
#
#   bash Samples/spark/throughput.sh [CORPUS.jsonl] [PARTITIONS]
# Without a corpus, makes the benchmark's (20,000 records, ~47 MB) with markbridge-bench.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
bin=${MARKBRIDGE:-$root/.build/release/markbridge}
venv=${SPARK_VENV:-$root/.build/samples/spark-venv}
partitions=${2:-8}
[ -f "$venv/.installed" ] || { echo "no pyspark in $venv: run Samples/spark/test.sh once" >&2; exit 2; }

work=$(mktemp -d "${TMPDIR:-/tmp}/markbridge-spark-throughput.XXXXXX")
trap 'rm -rf "$work"' EXIT
corpus=${1:-}
if [ -z "$corpus" ]; then
  "$root/.build/release/markbridge-bench" --corpus jsonl --scale 1 >"$work/corpus.jsonl"
  corpus=$work/corpus.jsonl
fi
mkdir "$work/input"
cp "$corpus" "$work/input/"
records=$(wc -l <"$corpus")
echo "corpus: $records records, $(($(wc -c <"$corpus") / 1000000)) MB; $(nproc) cores"
options=(--field html --from html --to markdown --into md)

# Each run timed by bash's `time`: wall seconds, then user and system CPU seconds of the run and
# its children (Spark's JVM, Python workers and markbridge processes among them).
TIMEFORMAT='%R %U %S'
timed() {  # timed LABEL COMMAND...: runs it, prints "LABEL wall cpu"
  local label=$1 figures
  shift
  figures=$({ time "$@" >/dev/null 2>&1; } 2>&1) || { echo "$label failed" >&2; exit 1; }
  awk -v label="$label" -v f="$figures" 'BEGIN { split(f, t, " "); printf "%s %s %s\n", label, t[1], t[2] + t[3] }'
}
batch() { "$bin" batch "${options[@]}" --jobs "$1" -o "$work/batch.jsonl" "$corpus" || [ $? -eq 1 ]; }
spark() {
  rm -rf "$work/out"
  PATH="$venv/bin:$PATH" SPARK_LOCAL_IP=127.0.0.1 spark-submit --master "local[$1]" --conf spark.ui.enabled=false \
    --conf "spark.local.dir=$work/spark-local" "$here/markbridge_spark.py" "$work/input" "$work/out" \
    --markbridge "$bin" --partitions "$partitions" -- "${options[@]}" >"$work/summary.json"
}
report() {  # report WHAT WALL CPU [JOB-SECONDS]
  awk -v what="$1" -v wall="$2" -v cpu="$3" -v job="${4:-}" -v records="$records" 'BEGIN {
    line = sprintf("%-32s %6.2f s, %6.0f records/s, %5.1f CPU s", what, wall, records / wall, cpu)
    if (job != "") line = line sprintf("; the job alone %6.2f s, %6.0f records/s", job, records / job)
    print line }'
}
for jobs in 1 2; do
  read -r _ wall cpu < <(timed batch batch "$jobs")
  report "markbridge batch --jobs $jobs" "$wall" "$cpu"
done
for cores in 1 2; do
  read -r _ wall cpu < <(timed spark spark "$cores")
  job=$(python3 -c 'import json, sys; print(json.load(sys.stdin)["seconds"])' <"$work/summary.json")
  report "spark-submit --master local[$cores]" "$wall" "$cpu" "$job"
done
