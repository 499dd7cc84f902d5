#!/usr/bin/env bash
# Converts one column of a live PostgreSQL table into a new column with `markbridge batch`, in
# chunks ordered by the key, each committed on its own, so that a killed run loses at most the
# chunk in flight and the next run resumes after the last chunk committed.
#
#   migrate.sh --table articles --key id --source body --target body_md --from html --to markdown
#       [--where 'SQL'] [--chunk-rows N] [--check] [--restart] [--dead-letters NAME]
#       [--progress-table NAME] [--check-table NAME] [--markbridge PATH] [-- BATCH_OPTIONS...]
#
# Connects as psql does (PGHOST, PGPORT, PGUSER, PGDATABASE). Steps:
# 1. Adds --target (text; json for --to json), the dead-letter table, the progress table and,
#    with --check, the check-results table, if they are missing.
# 2. Rows to do: --target is NULL, the row has no dead letter for this column, and --where (SQL
#    from the operator, trusted as such) holds. A pass goes over them in key order, --chunk-rows
#    at a time. Each chunk:
#    a. is streamed out of the table, one JSON object a line, the key and the source's md5 first:
#         psql -X -At -c "SELECT row_to_json(r) FROM (SELECT key, md5(source), source ...
#                         WHERE <to do> AND key > <last committed key> ORDER BY key LIMIT N) r"
#       psql prints each value as the server sent it, so the line is byte for byte what
#       row_to_json made (COPY ... TO in text format would double every backslash);
#    b. goes through one `markbridge batch` (with --check, --check-results too) into files in the
#       work folder;
#    c. is loaded in ONE transaction: the converted rows' --target, a dead letter for every record
#       that failed, with --check each written row's loss classes, and the progress row's last key
#       (COPY in CSV format with a quote and a delimiter that JSON text never holds raw, so no
#       byte is reinterpreted). A row is written only if it still needs it: --target still NULL
#       and the source's md5 still the one converted, so a row edited while this ran is left for
#       the next run, not overwritten with a conversion of its old text.
#    A chunk of fewer than --chunk-rows rows ends the pass (its progress row says finished).
# 3. A run resumes the pass of its (table, column, --where) that a killed run left unfinished,
#    after its last committed key (compared on the key's own type); otherwise, or with
#    --restart, it begins a new pass at the smallest key. The progress row only saves the
#    time of going over rows done: which rows are done is in the table (a target, a dead
#    letter), so a row behind the cursor that is still to do (edited while converting, added
#    later with a smaller key) is taken by the next pass, never lost.
#
# The key must be NOT NULL and have a unique index of its own; the dead-letter, check and
# progress tables keep it as JSON writes it (to_json(key) #>> '{}'), and rows are matched on
# the key's own type, through its index. Identifiers are plain names ([A-Za-z_][A-Za-z0-9_]*).
# A NULL source is dead-lettered (wrong-type), like any value batch cannot convert.
# Temporary files: ${TMPDIR:-/tmp}/markbridge-migrate.TABLE.TARGET.HASH (one chunk's files, and a
# lock that keeps a second run of the same migration out), removed at exit; a killed run leaves
# it behind, and the next run of the same migration removes what is in it.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)

table="" key="" source="" target="" from="" to="" where="" chunk_rows=10000 checks=0 restart=0
dead_letters=markbridge_dead_letters progress=markbridge_progress check_table=markbridge_check_results
bin=${MARKBRIDGE:-$here/../../.build/release/markbridge}
batch_options=()
usage() {
  sed -n '6,8p' "$0" | sed 's/^# *//' >&2
  exit 64
}
while [ $# -gt 0 ]; do
  [ "$1" = -- ] || [ $# -ge 2 ] || [ "$1" = --check ] || [ "$1" = --restart ] || usage
  case $1 in
    --table) table=$2; shift 2 ;;
    --key) key=$2; shift 2 ;;
    --source) source=$2; shift 2 ;;
    --target) target=$2; shift 2 ;;
    --from) from=$2; shift 2 ;;
    --to) to=$2; shift 2 ;;
    --where) where=$2; shift 2 ;;
    --chunk-rows) chunk_rows=$2; shift 2 ;;
    --check) checks=1; shift ;;
    --restart) restart=1; shift ;;
    --dead-letters) dead_letters=$2; shift 2 ;;
    --progress-table) progress=$2; shift 2 ;;
    --check-table) check_table=$2; shift 2 ;;
    --markbridge) bin=$2; shift 2 ;;
    --) shift; batch_options=("$@"); break ;;
    *) usage ;;
  esac
done
[ -n "$table" ] && [ -n "$key" ] && [ -n "$source" ] && [ -n "$target" ] && [ -n "$from" ] && [ -n "$to" ] || usage
for name in "$table" "$key" "$source" "$target" "$dead_letters" "$progress" "$check_table"; do
  [[ $name =~ ^[A-Za-z_][A-Za-z0-9_]*$ ]] || { echo "migrate: '$name' is not a plain identifier" >&2; exit 64; }
done
[[ $chunk_rows =~ ^[1-9][0-9]{0,8}$ ]] || { echo "migrate: --chunk-rows takes a whole number from 1 to 999999999" >&2; exit 64; }
given=(${batch_options[@]+"${batch_options[@]}"}) batch_options=()
for option in ${given[@]+"${given[@]}"}; do
  case $option in
    --check) checks=1; continue ;;
    -o | --output | --dead-letter | --summary | --field | --into | --id-field | --check-results | --resume | \
    --input-dir | --output-dir | --diagnostics | --report | --report-dir | --output=* | --dead-letter=* | --summary=*)
      echo "migrate: $option is the script's to give batch (each chunk has files of its own in the work folder)" >&2
      exit 64 ;;
  esac
  batch_options+=("$option")
done
[ -x "$bin" ] || { echo "migrate: no markbridge binary at $bin" >&2; exit 64; }

export PGCLIENTENCODING=UTF8
psql=(psql -X -q -v ON_ERROR_STOP=1)
# A SQL string literal of any text: E'' with backslashes and quotes doubled reads the same
# whatever standard_conforming_strings is.
literal() { local text=${1//\\/\\\\}; printf "E'%s'" "${text//\'/\'\'}"; }
column_type=text extract="->>"
if [ "$to" = json ]; then column_type=json extract="->"; fi

# 1. The new column and the side tables: metadata only, so no table rewrite; lock_timeout keeps
# a busy table's queries from waiting behind the ALTER for long.
"${psql[@]}" <<SQL
SET lock_timeout = '10s';
SET client_min_messages = warning;
ALTER TABLE "$table" ADD COLUMN IF NOT EXISTS "$target" $column_type;
CREATE TABLE IF NOT EXISTS "$dead_letters" (
  table_name text NOT NULL,
  column_name text NOT NULL,
  row_key text NOT NULL,
  code text NOT NULL,
  message text NOT NULL,
  original text NOT NULL,
  failed_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (table_name, column_name, row_key));
CREATE TABLE IF NOT EXISTS "$progress" (
  table_name text NOT NULL,
  column_name text NOT NULL,
  filter text NOT NULL,
  last_key text,
  chunks bigint NOT NULL DEFAULT 0,
  rows_converted bigint NOT NULL DEFAULT 0,
  rows_dead_lettered bigint NOT NULL DEFAULT 0,
  rows_left bigint NOT NULL DEFAULT 0,
  started_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz,
  PRIMARY KEY (table_name, column_name, filter));
SQL
if [ "$checks" = 1 ]; then
  batch_options+=(--check)
  "${psql[@]}" <<SQL
SET client_min_messages = warning;
CREATE TABLE IF NOT EXISTS "$check_table" (
  table_name text NOT NULL,
  column_name text NOT NULL,
  row_key text NOT NULL,
  class_name text NOT NULL,
  class_key text NOT NULL,
  severity text NOT NULL,
  count integer NOT NULL,
  block integer,
  detail text NOT NULL,
  fails boolean NOT NULL,
  checked_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (table_name, column_name, row_key, class_name));
CREATE INDEX IF NOT EXISTS "${check_table}_severity" ON "$check_table" (table_name, column_name, severity);
SQL
fi
has_checks=$("${psql[@]}" -At -c "SELECT to_regclass('\"$check_table\"') IS NOT NULL")

IFS=$'\t' read -r key_type key_usable < <("${psql[@]}" -At -F $'\t' -c "SELECT format_type(a.atttypid, a.atttypmod),
    a.attnotnull AND EXISTS (SELECT 1 FROM pg_index i WHERE i.indrelid = a.attrelid AND i.indisunique
      AND i.indnkeyatts = 1 AND i.indkey[0] = a.attnum AND i.indpred IS NULL)
  FROM pg_attribute a WHERE a.attrelid = '\"$table\"'::regclass AND a.attname = '$key' AND NOT a.attisdropped") || true
[ -n "${key_type:-}" ] || { echo "migrate: $table has no column $key" >&2; exit 64; }
if [ "$key_usable" != t ]; then
  echo "migrate: $table.$key must be NOT NULL with a unique index of its own (chunks are cut and resumed on it)" >&2
  exit 64
fi

# The work folder: the same for every run of this migration (server, database, table, column,
# --where), under a lock, so a run finds and removes what a killed run left.
server=$("${psql[@]}" -At -c "SELECT system_identifier FROM pg_control_system()" 2>/dev/null || echo "${PGHOST:-}:${PGPORT:-}")
database=$("${psql[@]}" -At -c "SELECT current_database()")
hash=$(printf '%s\n' "$server" "$database" "$table" "$target" "$where" | md5sum | cut -c1-12)
work=${TMPDIR:-/tmp}/markbridge-migrate.$table.$target.$hash
mkdir -p -m 700 "$work"
exec {lock}>>"$work/lock"
if ! flock -n "$lock"; then
  echo "migrate: another run of this migration holds $work/lock" >&2
  exit 75
fi
if [ ! "$work/lock" -ef "/proc/$$/fd/$lock" ]; then
  echo "migrate: $work was removed by a run that ended meanwhile: run again" >&2
  exit 75
fi
trap 'rm -rf "$work"' EXIT
if [ -e "$work/chunk" ]; then
  echo "migrate: removing the files a stopped run left in $work"
  rm -rf "$work/chunk"
fi

this="table_name = '$table' AND column_name = '$target' AND filter = $(literal "$where")"
todo="FROM \"$table\" t WHERE t.\"$target\" IS NULL AND NOT EXISTS (SELECT 1 FROM \"$dead_letters\" d
  WHERE d.table_name = '$table' AND d.column_name = '$target' AND d.row_key = to_json(t.\"$key\") #>> '{}')"
if [ -n "$where" ]; then todo="$todo AND ($where)"; fi
after="AND t.\"$key\" > (SELECT p.last_key FROM \"$progress\" p WHERE $this)::$key_type"

# 3. Resume the unfinished pass, or begin one.
read -r unfinished resumable chunks_before < <("${psql[@]}" -At -F ' ' -c "SELECT finished_at IS NULL, last_key IS NOT NULL, chunks
  FROM \"$progress\" WHERE $this") || true
cursor="" resumed=""
if [ "$restart" = 0 ] && [ "${unfinished:-}" = t ] && [ "$resumable" = t ]; then
  cursor=$after
  resumed=$("${psql[@]}" -At -c "SELECT to_json(last_key) FROM \"$progress\" WHERE $this")
  echo "migrate: resuming the unfinished pass after key $resumed ($chunks_before chunks committed)"
fi
rows=$("${psql[@]}" -At -c "SELECT count(*) $todo $cursor")
if [ "$rows" -eq 0 ]; then
  if [ "${unfinished:-}" = t ]; then
    "${psql[@]}" -c "UPDATE \"$progress\" SET finished_at = now(), updated_at = now() WHERE $this"
  fi
  if [ -n "$resumed" ]; then
    echo "migrate: no row to convert after key $resumed: the pass is finished"
  else
    echo "migrate: $table.$target is complete${where:+ where $where}: no row to convert"
  fi
  exit 0
fi
if [ -z "$cursor" ]; then
  "${psql[@]}" -c "INSERT INTO \"$progress\" AS p (table_name, column_name, filter) VALUES ('$table', '$target', $(literal "$where"))
    ON CONFLICT (table_name, column_name, filter) DO UPDATE SET last_key = NULL, chunks = 0, rows_converted = 0,
      rows_dead_lettered = 0, rows_left = 0, started_at = now(), updated_at = now(), finished_at = NULL"
fi
first_chunk=1
if [ -n "$resumed" ]; then first_chunk=$((chunks_before + 1)); fi
echo "migrate: converting $rows rows of $table.$source ($from) into $table.$target ($to)${where:+ where $where}," \
  "$chunk_rows a chunk, in $work"

csv="WITH (FORMAT csv, QUOTE E'\\x01', DELIMITER E'\\x02')"
check_load="" check_files=() check_write="INSERT INTO markbridge_check_counts VALUES (0, 0);"
if [ "$checks" = 1 ]; then
  check_load="\\copy markbridge_checked (line) FROM '$work/chunk/check-results.jsonl' $csv"
  check_files=(--check-results "$work/chunk/check-results.jsonl")
  # A written row's classes, each one row: the class's count, and the first one's block and detail.
  check_write="WITH checked AS (
  INSERT INTO \"$check_table\" (table_name, column_name, row_key, class_name, class_key, severity, count, block, detail, fails)
  SELECT '$table', '$target', w.row_key, l ->> 'class', l ->> 'key', l ->> 'severity', (l ->> 'count')::integer,
         (l ->> 'block')::integer, l ->> 'detail', (c.r ->> 'fails')::boolean
  FROM (SELECT line::json AS r FROM markbridge_checked) c
  JOIN markbridge_written w ON w.k = (c.r -> 'id' #>> '{}')::$key_type AND NOT w.dead
  CROSS JOIN LATERAL json_array_elements(c.r -> 'losses') l
  RETURNING row_key, fails
) INSERT INTO markbridge_check_counts
SELECT count(DISTINCT row_key), count(DISTINCT row_key) FILTER (WHERE fails) FROM checked;"
fi
check_clear=""
if [ "$has_checks" = t ]; then
  # A row written again (its target set back to NULL, or its dead letter deleted) loses the
  # classes of its earlier conversion.
  check_clear="DELETE FROM \"$check_table\" c USING markbridge_written w
  WHERE c.table_name = '$table' AND c.column_name = '$target' AND c.row_key = w.row_key;"
fi

peak=0 total_converted=0 total_dead=0 total_left=0 total_losing=0 total_failing=0
chunk=$((first_chunk - 1))
while :; do
  chunk=$((chunk + 1))
  mkdir "$work/chunk"
  set +e
  "${psql[@]}" -At -v FETCH_COUNT=1000 -c "SELECT row_to_json(r) FROM (SELECT t.\"$key\", md5(t.\"$source\") AS markbridge_md5,
      t.\"$source\" $todo $cursor ORDER BY t.\"$key\" LIMIT $chunk_rows) r" |
    "$bin" batch --field "$source" --from "$from" --to "$to" --into "$target" --id-field "$key" \
      ${batch_options[@]+"${batch_options[@]}"} \
      ${check_files[@]+"${check_files[@]}"} \
      -o "$work/chunk/converted.jsonl" --dead-letter "$work/chunk/dead-letters.jsonl" --summary json - 2>"$work/chunk/summary.json"
  statuses=("${PIPESTATUS[@]}")
  set -e
  if [ "${statuses[0]}" -ne 0 ]; then
    echo "migrate: reading chunk $chunk failed (psql exit ${statuses[0]}); earlier chunks are committed" >&2
    exit 1
  fi
  # Exit 1 is a dead letter or, with --check, a record that fails the gate: both are results.
  if [ "${statuses[1]}" -gt 1 ]; then
    cat "$work/chunk/summary.json" >&2
    echo "migrate: markbridge batch failed on chunk $chunk (exit ${statuses[1]}); earlier chunks are committed" >&2
    exit 1
  fi
  size=$(du -sb "$work" | cut -f1)
  if [ "$size" -gt "$peak" ]; then peak=$size; fi

  # One transaction (psql -1): the chunk's rows, dead letters, classes and progress, or nothing.
  if ! result=$("${psql[@]}" -1 -At -F ' ' -f - <<SQL
CREATE TEMPORARY TABLE markbridge_converted (line text) ON COMMIT DROP;
CREATE TEMPORARY TABLE markbridge_failed (line text) ON COMMIT DROP;
CREATE TEMPORARY TABLE markbridge_checked (line text) ON COMMIT DROP;
\\copy markbridge_converted (line) FROM '$work/chunk/converted.jsonl' $csv
\\copy markbridge_failed (line) FROM '$work/chunk/dead-letters.jsonl' $csv
$check_load
CREATE TEMPORARY TABLE markbridge_converted_rows ON COMMIT DROP AS
SELECT (record ->> '$key')::$key_type AS k, record FROM (SELECT line::json AS record FROM markbridge_converted) c;
CREATE TEMPORARY TABLE markbridge_failed_rows ON COMMIT DROP AS
SELECT letter ->> 'code' AS code, letter ->> 'message' AS message,
       coalesce(letter ->> 'original', letter ->> 'originalBase64') AS original,
       coalesce(letter -> 'id' #>> '{}', head[1]::json #>> '{}') AS row_key, head[2] AS md5
FROM (SELECT letter, regexp_match(coalesce(letter ->> 'original', ''),
        '^\{"$key":("(?:[^"\\\\]|\\\\.)*"|[^,"]*),"markbridge_md5":(?:"([0-9a-f]{32})"|null)') AS head
      FROM (SELECT line::json AS letter FROM markbridge_failed) f) h;
-- Every dead letter must name its row; one that does not fails the whole transaction, before
-- anything is reported as converted.
DO \$\$ BEGIN
  IF EXISTS (SELECT 1 FROM markbridge_failed_rows WHERE row_key IS NULL) THEN
    RAISE EXCEPTION 'migrate: a dead letter names no row: %', (SELECT original FROM markbridge_failed_rows WHERE row_key IS NULL LIMIT 1);
  END IF;
END \$\$;
CREATE TEMPORARY TABLE markbridge_written (k $key_type, row_key text, dead boolean) ON COMMIT DROP;
WITH updated AS (
  UPDATE "$table" t SET "$target" = c.record $extract '$target'
  FROM markbridge_converted_rows c
  WHERE t."$key" = c.k AND t."$target" IS NULL
    AND md5(t."$source") IS NOT DISTINCT FROM c.record ->> 'markbridge_md5'
  RETURNING t."$key"
) INSERT INTO markbridge_written SELECT "$key", to_json("$key") #>> '{}', false FROM updated;
WITH inserted AS (
  INSERT INTO "$dead_letters" AS d (table_name, column_name, row_key, code, message, original)
  SELECT '$table', '$target', f.row_key, f.code, f.message, f.original
  FROM markbridge_failed_rows f JOIN "$table" t ON t."$key" = f.row_key::$key_type
  WHERE t."$target" IS NULL AND md5(t."$source") IS NOT DISTINCT FROM f.md5
  ON CONFLICT (table_name, column_name, row_key) DO NOTHING
  RETURNING d.row_key
) INSERT INTO markbridge_written SELECT row_key::$key_type, row_key, true FROM inserted;
$check_clear
CREATE TEMPORARY TABLE markbridge_check_counts (losing bigint, failing bigint) ON COMMIT DROP;
$check_write
CREATE TEMPORARY TABLE markbridge_counts ON COMMIT DROP AS
SELECT (SELECT count(*) FROM markbridge_converted_rows) + (SELECT count(*) FROM markbridge_failed_rows) AS rows,
       (SELECT count(*) FROM markbridge_written WHERE NOT dead) AS converted,
       (SELECT count(*) FROM markbridge_written WHERE dead) AS dead,
       (SELECT to_json(k) #>> '{}' FROM (SELECT k FROM markbridge_converted_rows UNION ALL
          SELECT row_key::$key_type FROM markbridge_failed_rows) a ORDER BY k LIMIT 1) AS first_key,
       (SELECT to_json(k) #>> '{}' FROM (SELECT k FROM markbridge_converted_rows UNION ALL
          SELECT row_key::$key_type FROM markbridge_failed_rows) a ORDER BY k DESC LIMIT 1) AS last_key,
       c.losing, c.failing
FROM markbridge_check_counts c;
INSERT INTO "$progress" AS p (table_name, column_name, filter, last_key, chunks, rows_converted, rows_dead_lettered, rows_left, finished_at)
SELECT '$table', '$target', $(literal "$where"), last_key, 1, converted, dead, rows - converted - dead,
       CASE WHEN rows < $chunk_rows THEN now() END
FROM markbridge_counts
ON CONFLICT (table_name, column_name, filter) DO UPDATE SET
  last_key = coalesce(EXCLUDED.last_key, p.last_key), chunks = p.chunks + 1,
  rows_converted = p.rows_converted + EXCLUDED.rows_converted,
  rows_dead_lettered = p.rows_dead_lettered + EXCLUDED.rows_dead_lettered,
  rows_left = p.rows_left + EXCLUDED.rows_left, updated_at = now(), finished_at = EXCLUDED.finished_at;
SELECT rows, converted, dead, rows - converted - dead, losing, failing,
       CASE WHEN rows = 0 THEN '(no rows)' ELSE format('(keys %s to %s)', to_json(first_key), to_json(last_key)) END
FROM markbridge_counts;
SQL
  ); then
    echo "migrate: loading chunk $chunk failed, and its transaction was rolled back; earlier chunks are committed" >&2
    exit 1
  fi
  read -r rows converted dead left losing failing keys <<<"$result"
  total_converted=$((total_converted + converted)) total_dead=$((total_dead + dead)) total_left=$((total_left + left))
  total_losing=$((total_losing + losing)) total_failing=$((total_failing + failing))
  checked=""
  if [ "$checks" = 1 ]; then checked="; $losing losing something, $failing failing the gate"; fi
  echo "migrate: chunk $chunk committed $keys: $converted converted, $dead dead-lettered," \
    "$left changed while converting (left for the next run)$checked"
  rm -rf "$work/chunk"
  if [ "$rows" -lt "$chunk_rows" ]; then break; fi
  cursor=$after
done

checked=""
if [ "$checks" = 1 ]; then checked="; $total_losing losing something (in $check_table), $total_failing failing the gate"; fi
echo "migrate: pass finished at chunk $chunk; this run's $((chunk - first_chunk + 1)): $total_converted converted, $total_dead dead-lettered into $dead_letters," \
  "$total_left changed while converting (left for the next run)$checked"
echo "migrate: temporary files: at most $peak bytes (one chunk's)"
