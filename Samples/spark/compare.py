"""Checks that the Spark job's output equals one `markbridge batch` run over the same files.

    python3 compare.py SPARK_OUTPUT REFERENCE.jsonl REFERENCE-DEAD.jsonl REFERENCE-SUMMARY.json

- Records: the same lines, byte for byte, compared as sorted lists (Spark writes one part file
  per input partition, and the partitions of a folder need not come in file order). Within each
  part file the records must also keep the order they have in the reference.
- Dead letters: the same, compared sorted by (id, code, message, original); "file", "line" and
  "byteOffset" are left out, since in Spark they count from the start of a partition.
- Summary: the same records, converted, dead-lettered and blank-line counts and failure codes.

Files are read as bytes and split at LF only: str.splitlines() would also split at U+2028 and
U+0085, which a JSON string may hold raw.
"""

import glob
import json
import os
import sys


def lines(paths):
    result = []
    for path in paths:
        with open(path, "rb") as f:
            data = f.read()
        result += data.split(b"\n")[:-1] if data.endswith(b"\n") else (data.split(b"\n") if data else [])
    return result


def parts(folder):
    if not os.path.exists(os.path.join(folder, "_SUCCESS")):
        sys.exit(f"FAIL: {folder} has no _SUCCESS marker")
    return sorted(glob.glob(os.path.join(folder, "part-*")))


def dead_letter_key(line):
    letter = json.loads(line)
    return (json.dumps(letter["id"]), letter["code"], letter["message"],
            letter.get("original", letter.get("originalBase64")))


def main(spark, reference, reference_dead, reference_summary):
    failures = []
    expected = lines([reference])
    record_parts = parts(os.path.join(spark, "records"))
    actual = lines(record_parts)
    if sorted(actual) != sorted(expected):
        missing = len(set(expected) - set(actual))
        extra = len(set(actual) - set(expected))
        failures.append(f"records differ: {len(actual)} from Spark, {len(expected)} expected; "
                        f"{missing} expected lines missing, {extra} unexpected lines")
    position = {line: index for index, line in enumerate(expected)}
    for part in record_parts:
        indices = [position.get(line, -1) for line in lines([part])]
        if indices != sorted(indices):
            failures.append(f"{os.path.basename(part)}: records not in input order")

    expected_dead = sorted(dead_letter_key(line) for line in lines([reference_dead]))
    actual_dead = sorted(dead_letter_key(line) for line in lines(parts(os.path.join(spark, "dead-letters"))))
    if actual_dead != expected_dead:
        first = next((i for i, (a, e) in enumerate(zip(actual_dead, expected_dead)) if a != e),
                     min(len(actual_dead), len(expected_dead)))
        failures.append(f"dead letters differ: {len(actual_dead)} from Spark, {len(expected_dead)} expected; "
                        f"first difference: {actual_dead[first:first + 1]} vs {expected_dead[first:first + 1]}")

    with open(reference_summary) as f:
        want = json.loads(f.read().strip().splitlines()[-1])
    got = json.loads(b"".join(lines(parts(os.path.join(spark, "summary")))))
    for key in ("records", "converted", "deadLettered", "blankLines", "failures"):
        if got[key] != want[key]:
            failures.append(f"summary {key}: {got[key]} from Spark, {want[key]} expected")

    # With --check, the merged census counts what one batch counts. Example ids may name a
    # record by its place ("file:line") where it has no id, which differs between the two, so
    # each class is compared by severity and records, and by how many examples it keeps.
    if "census" in want:
        mine, theirs = got.get("census", {}), want["census"]
        for key in ("checked", "losing", "failing", "gate"):
            if mine.get(key) != theirs[key]:
                failures.append(f"census {key}: {mine.get(key)} from Spark, {theirs[key]} expected")
        shape = lambda classes: {name: (entry["severity"], entry["records"], len(entry["examples"])) for name, entry in classes.items()}
        if shape(mine.get("classes", {})) != shape(theirs["classes"]):
            failures.append(f"census classes: {shape(mine.get('classes', {}))} from Spark, {shape(theirs['classes'])} expected")

    for failure in failures:
        print(f"FAIL: {failure}")
    if failures:
        sys.exit(1)
    print(f"same output: {len(actual)} records in {len(record_parts)} parts, {len(actual_dead)} dead letters "
          f"({', '.join(f'{code} {count}' for code, count in sorted(want['failures'].items()))}), "
          f"{want['blankLines']} blank lines"
          + (f"; census: {want['census']['losing']} of {want['census']['checked']} checked records lose something, "
             f"{want['census']['failing']} fail the gate, in {len(want['census']['classes'])} classes" if "census" in want else ""))


if __name__ == "__main__":
    main(*sys.argv[1:])
