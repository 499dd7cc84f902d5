#!/usr/bin/env bash
# The Spark sample's test: generates a folder of JSON Lines with malformed records among them,
# converts it with one `markbridge batch` process and with markbridge_spark.py twice: in Spark's
# local mode, and on Spark's local pseudo-cluster with the binary shipped by --files, as on a
# real cluster (SPARK_CLUSTER_CHECK=0 skips that one). Each Spark run must give the same records
# and the same dead letters as the one process (compare.py says how they are compared). Installs pyspark into a virtual environment the first time
# (SPARK_VENV, default .build/samples/spark-venv; ~450 MB from PyPI). Needs Java 17 or later.
#
#   MARKBRIDGE=path/to/markbridge SPARK_MASTER='local[2]' bash Samples/spark/test.sh
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
bin=${MARKBRIDGE:-$root/.build/release/markbridge}
venv=${SPARK_VENV:-$root/.build/samples/spark-venv}
master=${SPARK_MASTER:-local[2]}
pyspark_version=4.3.0

if [ ! -x "$bin" ]; then
  echo "no markbridge binary at $bin: swift build -c release --product markbridge" >&2
  exit 2
fi
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
if [ ! -f "$venv/.installed" ]; then
  echo "installing pyspark $pyspark_version into $venv"
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check "pyspark==$pyspark_version"
  touch "$venv/.installed"
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/markbridge-spark-test.XXXXXX")
trap 'rm -rf "$work"' EXIT
"$venv/bin/python" "$here/make_corpus.py" "$work/input" --records 2000 --files 4

# --check: each partition's batch reads its results back, and the job merges their censuses,
# which must count what the one process counts.
options=(--field html --from html --to markdown --into markdown --id-field id --max-record-bytes 65536 --check)

echo "== one markbridge batch process"
status=0
"$bin" batch "${options[@]}" -o "$work/reference.jsonl" --dead-letter "$work/reference-dead.jsonl" \
  --summary json "$work"/input/*.jsonl 2>"$work/reference-summary.json" || status=$?
if [ "$status" -gt 1 ]; then
  cat "$work/reference-summary.json" >&2
  echo "markbridge batch failed (exit $status)" >&2
  exit 1
fi
tail -n 1 "$work/reference-summary.json"

spark_home=$("$venv/bin/python" -c 'import os, pyspark; print(os.path.dirname(pyspark.__file__))')
run() {  # run NAME MASTER JOB-OPTIONS...: the job into $work/NAME, then compared with the reference
  local name=$1 master=$2
  shift 2
  echo "== markbridge_spark.py on $name, --master $master"
  local started=$EPOCHREALTIME
  if ! PATH="$venv/bin:$PATH" SPARK_LOCAL_IP=127.0.0.1 spark-submit --master "$master" \
      --conf spark.ui.enabled=false --conf "spark.local.dir=$work/spark-local" "$@" \
      >"$work/$name-summary.json" 2>"$work/$name.log"; then
    tail -n 40 "$work/$name.log" >&2
    echo "spark-submit failed" >&2
    exit 1
  fi
  awk "BEGIN { printf \"spark-submit: %.1f s\\n\", $EPOCHREALTIME - $started }"
  cat "$work/$name-summary.json"
  "$venv/bin/python" "$here/compare.py" "$work/$name" "$work/reference.jsonl" "$work/reference-dead.jsonl" \
    "$work/reference-summary.json"
}

# Local mode: the executor is the driver's process, so the binary is given by its absolute path.
run local "$master" "$here/markbridge_spark.py" "$work/input" "$work/local" --markbridge "$bin" --partitions 6 -- "${options[@]}"

# As on a cluster: separate executor processes, each in a working folder of its own, where
# --files puts the binary; the job runs it as ./markbridge (its default). local-cluster is
# Spark's own pseudo-cluster (a standalone master and workers in one machine); its workers keep
# their folders under the pyspark package's work/, removed here.
if [ "${SPARK_CLUSTER_CHECK:-1}" = 1 ]; then
  trap 'rm -rf "$work" "$spark_home"/work/app-*' EXIT
  run cluster "local-cluster[2,1,1024]" --files "$bin" "$here/markbridge_spark.py" "$work/input" "$work/cluster" \
    --partitions 6 -- "${options[@]}"
fi
