"""Converts one field of every record of a folder of JSON Lines on Spark, through `markbridge batch`.

    spark-submit [--files /path/to/markbridge] markbridge_spark.py INPUT OUTPUT \
        [--markbridge PATH] [--partitions N] -- BATCH_OPTIONS...

Every partition of INPUT's lines is piped (RDD.pipe) through one `markbridge batch` process,
which writes the converted records to its standard output in input order and its dead letters to
a file of its own. A small bash wrapper, run as the piped command, then appends those dead
letters and batch's JSON summary to the same output, each line behind a tag: `#dead-letter ` or
`#summary `. A converted record is a JSON object, so it starts with `{` or JSON white space and
never with `#`: the tags cannot be mistaken for records, and the one stream carries all three.
(Batch's own `--dead-letter /dev/stderr` is no way out: it writes FILE.partial and renames it into
place, and Spark keeps a piped command's standard error only in the executor's log.)

OUTPUT gets three folders, each written by saveAsTextFile (so it must not exist yet):
  records/       the converted records; part-N holds input partition N's, in input order
  dead-letters/  batch's dead letters, as it writes them: "file" is "<stdin>", and "line" and
                 "byteOffset" count from the start of the partition, so find a record by its "id"
  summary/       one JSON object: the totals of every partition's summary, the number of
                 partitions, and "seconds" from reading the input to the last output written

BATCH_OPTIONS are `markbridge batch` options (--field, --from, --to, --into, --id-field, ...),
without the ones the wrapper owns (-o, --dead-letter, --diagnostics, --summary, --resume) and
without input files: batch reads the partition on its standard input. Without --jobs, each
batch gets `--jobs 1`: Spark runs one task per core already.

--markbridge is the binary's path on the executors: `./markbridge` (the default) is where
`--files /path/to/markbridge` puts it in each executor's working folder on a cluster; in local
mode give an absolute path. The piped command starts with an empty environment and no shell
(PySpark's pipe), so the wrapper is started as `/bin/bash -c SCRIPT` with PATH set.
"""

import argparse
import json
import os
import shlex
import subprocess
import sys
import time

from pyspark import SparkContext, StorageLevel

RECORD, DEAD_LETTER, SUMMARY = "record", "dead-letter", "summary"
DEAD_LETTER_TAG = "#dead-letter "
SUMMARY_TAG = "#summary "

# The piped command: bash, $1 the markbridge binary, then batch's options. Exit 0 (all converted)
# and 1 (some dead-lettered) are success; anything else fails the task (checkCode=True), with
# batch's message on the executor's standard error, and Spark retries it.
WRAPPER = r"""
set -uo pipefail
bin=$1; shift
tmp=$(mktemp -d "${TMPDIR:-/tmp}/markbridge-pipe.XXXXXX") || exit 74
trap 'rm -rf "$tmp"' EXIT
if [ ! -f "$bin" ]; then
  echo "markbridge-pipe: no markbridge binary at $bin (cwd $PWD): ship it with --files, or give --markbridge an absolute path" >&2
  exit 74
fi
# A libcmark shipped beside the binary (--files .../libcmark.so.0.30.2) is found there first.
export LD_LIBRARY_PATH=$(cd "$(dirname "$bin")" && pwd)${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
if [ ! -x "$bin" ]; then
  # A file shipped with --files may arrive without its executable bit (some cluster managers).
  cp "$bin" "$tmp/markbridge" && chmod +x "$tmp/markbridge" || exit 74
  bin=$tmp/markbridge
fi
"$bin" batch "$@" --dead-letter "$tmp/dead-letters.jsonl" --summary json - 2>"$tmp/stderr"
status=$?
if [ "$status" -gt 1 ]; then
  cat "$tmp/stderr" >&2
  exit "$status"
fi
LC_ALL=C sed 's/^/#dead-letter /' "$tmp/dead-letters.jsonl" || exit 74
printf '#summary %s\n' "$(tail -n 1 "$tmp/stderr")" || exit 74
"""

OWNED_OPTIONS = {"-o", "--output", "--dead-letter", "--diagnostics", "--summary", "--resume"}
SUMMED = ("records", "converted", "deadLettered", "blankLines", "inputBytes")
# How many example ids batch's census keeps for each class.
EXAMPLES_KEPT = 5


def kind(line):
    if line.startswith(DEAD_LETTER_TAG):
        return DEAD_LETTER
    if line.startswith(SUMMARY_TAG):
        return SUMMARY
    return RECORD


def untagged(line):
    return line[line.index(" ") + 1:]


def parse_arguments(argv):
    parser = argparse.ArgumentParser(description="Convert a field of JSON Lines records with markbridge batch on Spark.")
    parser.add_argument("input", help="a folder (or file, or glob) of JSON Lines")
    parser.add_argument("output", help="a folder that does not exist yet")
    parser.add_argument("--markbridge", default="./markbridge", help="the markbridge binary's path on the executors")
    parser.add_argument("--partitions", type=int, default=None, help="the least number of input partitions")
    if "--" not in argv:
        parser.error("markbridge batch options go after --")
    split = argv.index("--")
    arguments = parser.parse_args(argv[:split])
    batch = argv[split + 1:]
    names = {option.split("=")[0] for option in batch if option.startswith("-")}
    if names & OWNED_OPTIONS:
        parser.error(f"{', '.join(sorted(names & OWNED_OPTIONS))}: the wrapper sets these itself")
    if not {"--field", "--from"} <= names:
        parser.error("markbridge batch needs --field and --from (after --)")
    if "--jobs" not in names:
        batch += ["--jobs", "1"]
    arguments.batch = batch
    return arguments


def check_options(binary, batch):
    """Runs batch on no input on the driver, where the binary is there, so that a wrong option
    fails here, at once, and not in every task."""
    if not os.access(binary, os.X_OK):
        return
    result = subprocess.run([binary, "batch", *batch, "--summary", "json", "-"], stdin=subprocess.DEVNULL,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    if result.returncode != 0:
        sys.exit(f"markbridge batch refuses these options:\n{result.stderr.decode(errors='replace')}")


def totals(summaries):
    total = {key: 0 for key in SUMMED}
    total["failures"], total["diagnostics"] = {}, {}
    for summary in summaries:
        for key in SUMMED:
            total[key] += summary[key]
        for group in ("failures", "diagnostics"):
            for code, count in summary[group].items():
                total[group][code] = total[group].get(code, 0) + count
    censuses = [summary["census"] for summary in summaries if "census" in summary]
    if censuses:
        total["census"] = merged_census(censuses)
    total["partitions"] = len(summaries)
    return total


def merged_census(censuses):
    """With --check, the partitions' censuses as one, as a single batch over the whole input
    would count it: the counts added up, each class's records added up and its first example
    ids kept, in partition order (which is input order)."""
    merged = {"checked": 0, "losing": 0, "failing": 0, "gate": censuses[0]["gate"], "classes": {}}
    for census in censuses:
        for key in ("checked", "losing", "failing"):
            merged[key] += census[key]
        for name, entry in census["classes"].items():
            into = merged["classes"].setdefault(name, {"severity": entry["severity"], "records": 0, "examples": []})
            into["records"] += entry["records"]
            into["examples"] = (into["examples"] + entry["examples"])[:EXAMPLES_KEPT]
    return merged


def main(argv):
    arguments = parse_arguments(argv)
    check_options(arguments.markbridge, arguments.batch)
    command = shlex.join(["/bin/bash", "-c", WRAPPER, "markbridge-pipe", arguments.markbridge, *arguments.batch])
    environment = {"PATH": "/usr/local/bin:/usr/bin:/bin", "LC_ALL": "C.UTF-8"}
    if "TMPDIR" in os.environ:
        environment["TMPDIR"] = os.environ["TMPDIR"]

    sc = SparkContext(appName="markbridge-batch")
    sc.setLogLevel("WARN")
    started = time.monotonic()
    lines = sc.textFile(arguments.input, minPartitions=arguments.partitions)
    # Kept: the records are written from it, then the tagged lines are read from it once more,
    # and a partition must not be piped twice.
    piped = lines.pipe(command, env=environment, checkCode=True).persist(StorageLevel.MEMORY_AND_DISK)
    piped.filter(lambda line: kind(line) == RECORD).saveAsTextFile(os.path.join(arguments.output, "records"))
    tagged = piped.filter(lambda line: kind(line) != RECORD).persist(StorageLevel.MEMORY_AND_DISK)
    tagged.filter(lambda line: kind(line) == DEAD_LETTER).map(untagged) \
        .saveAsTextFile(os.path.join(arguments.output, "dead-letters"))
    summaries = tagged.filter(lambda line: kind(line) == SUMMARY).map(lambda line: json.loads(untagged(line))).collect()
    total = totals(summaries)
    # From reading the input to the last record written: the job without Spark's start-up.
    total["seconds"] = round(time.monotonic() - started, 3)
    summary = json.dumps(total, sort_keys=True)
    sc.parallelize([summary], 1).saveAsTextFile(os.path.join(arguments.output, "summary"))
    tagged.unpersist()
    piped.unpersist()
    sc.stop()
    print(summary)


if __name__ == "__main__":
    main(sys.argv[1:])
