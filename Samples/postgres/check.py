"""Checks a migrated table against one `markbridge batch` run over the same source values.

    python3 check.py TABLE.jsonl DEAD.jsonl INPUT.jsonl REFERENCE.jsonl REFERENCE-DEAD.jsonl
    python3 check.py --classes CLASSES.jsonl REFERENCE-CHECK-RESULTS.jsonl

TABLE.jsonl: {"id", "body_md"} of every row; DEAD.jsonl: the dead-letter table's rows; INPUT.jsonl:
the {"id", "body"} records the reference run read; REFERENCE*.jsonl: its output and dead letters.
Every row must be converted or dead-lettered, not both and not neither (so converted + dead =
total), its body_md must equal the reference's result exactly, and the dead-lettered rows and
their codes must be the reference's. A reference dead letter is matched to its row through its
line in INPUT.jsonl, since batch gives no id for a record it could not parse.

With --classes: CLASSES.jsonl is the check-results side table's rows of one table (row_key,
class_name, class_key, severity, count, block, detail, fails), which must be, one for one, the
classes of the records in the --check-results file of a `markbridge batch --check` run.
"""

import json
import sys


def records(path):
    with open(path, "rb") as f:
        return [json.loads(line) for line in f.read().split(b"\n") if line]


def main(table, dead, source, reference, reference_dead):
    rows = {row["id"]: row["body_md"] for row in records(table)}
    dead_letters = {int(letter["row_key"]): letter["code"] for letter in records(dead)}
    inputs = records(source)
    expected = {record["id"]: record["body_md"] for record in records(reference)}
    expected_dead = {inputs[letter["line"] - 1]["id"]: letter["code"] for letter in records(reference_dead)}

    failures = []
    converted = {key for key, value in rows.items() if value is not None}
    both = converted & dead_letters.keys()
    neither = rows.keys() - converted - dead_letters.keys()
    if both:
        failures.append(f"{len(both)} rows both converted and dead-lettered, e.g. {sorted(both)[:5]}")
    if neither:
        failures.append(f"{len(neither)} rows neither converted nor dead-lettered (lost), e.g. {sorted(neither)[:5]}")
    if len(converted) + len(dead_letters) != len(rows):
        failures.append(f"{len(converted)} converted + {len(dead_letters)} dead != {len(rows)} rows")
    wrong = [key for key in converted if rows[key] != expected.get(key)]
    if wrong:
        key = sorted(wrong)[0]
        failures.append(f"{len(wrong)} rows differ from the reference, e.g. id {key}: {rows[key]!r} != {expected.get(key)!r}")
    if dead_letters != expected_dead:
        failures.append(f"dead letters differ: {sorted(dead_letters.items())[:5]} != {sorted(expected_dead.items())[:5]}")
    for failure in failures:
        print(f"FAIL: {failure}")
    if failures:
        sys.exit(1)
    codes = {}
    for code in dead_letters.values():
        codes[code] = codes.get(code, 0) + 1
    print(f"all {len(rows)} rows: {len(converted)} converted, equal to the reference; {len(dead_letters)} dead-lettered "
          f"({', '.join(f'{code} {count}' for code, count in sorted(codes.items()))})")


def main_classes(table, reference):
    fields = ("row_key", "class_name", "class_key", "severity", "count", "block", "detail", "fails")
    rows = sorted(tuple(row[field] for field in fields) for row in records(table))
    expected = sorted((str(record["id"]), loss["class"], loss["key"], loss["severity"], loss["count"], loss["block"],
                       loss["detail"], record["fails"]) for record in records(reference) for loss in record["losses"])
    if rows != expected:
        missing = [row for row in expected if row not in rows][:3]
        extra = [row for row in rows if row not in expected][:3]
        sys.exit(f"FAIL: the side table's {len(rows)} classes are not the reference's {len(expected)}: "
                 f"missing e.g. {missing}, not expected e.g. {extra}")
    severities = {}
    for row in rows:
        severities[row[3]] = severities.get(row[3], 0) + 1
    print(f"the side table's {len(rows)} classes of {len({row[0] for row in rows})} rows are the reference's "
          f"({', '.join(f'{severity} {count}' for severity, count in sorted(severities.items()))})")


if __name__ == "__main__":
    if sys.argv[1:2] == ["--classes"]:
        main_classes(*sys.argv[2:])
    else:
        main(*sys.argv[1:])
