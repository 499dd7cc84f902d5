#!/usr/bin/env bash
# Converts one column of a live PostgreSQL table into a new column with `markbridge batch`.
#
#   migrate.sh --table articles --key id --source body --target body_md --from html --to markdown \
#       [--dead-letters markbridge_dead_letters] [--markbridge PATH] [-- BATCH_OPTIONS...]
#
# Connects as psql does (PGHOST, PGPORT, PGUSER, PGDATABASE). Four steps:
# 1. Adds --target (text; json for --to json) and the dead-letter table if they are missing.
# 2. Streams the rows still to do out of the table, one JSON object a line:
#      psql -X -At -c "SELECT row_to_json(r) FROM (SELECT key, md5(source), source ...) r"
#    psql prints each value as the server sent it, so the line is byte for byte what
#    row_to_json made (COPY ... TO in text format would double every backslash). FETCH_COUNT
#    makes psql fetch through a cursor, a thousand rows at a time, instead of holding them all.
# 3. Pipes them through `markbridge batch` into a file of converted rows and a file of dead letters.
# 4. In ONE transaction: loads both files into temporary tables (COPY in CSV format with a quote
#    and a delimiter that JSON text never holds raw, so no byte is reinterpreted), sets --target
#    of every converted row and adds a row to the dead-letter table for every record that failed.
#    A row is written only if it still needs it: --target still NULL and the source's md5 still
#    the one converted, so a row edited while this ran is left for the next run, not overwritten
#    with a conversion of its old text.
#
# Rows to do: --target is NULL and the row has no dead letter for this column. So a second run
# finds nothing and changes nothing; delete a row's dead letter to have it tried again. The key
# must be unique; the dead-letter table keeps it as JSON writes it (to_json(key) #>> '{}'), and
# the converted rows are matched on the key's own type, through its index. Identifiers are
# plain names ([A-Za-z_][A-Za-z0-9_]*). A NULL source is dead-lettered (wrong-type), like any
# value batch cannot convert.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)

table="" key="" source="" target="" from="" to="" dead_letters=markbridge_dead_letters
bin=${MARKBRIDGE:-$here/../../.build/release/markbridge}
batch_options=()
usage() {
  sed -n '4,5p' "$0" | sed 's/^# *//' >&2
  exit 64
}
while [ $# -gt 0 ]; do
  case $1 in
    --table) table=$2; shift 2 ;;
    --key) key=$2; shift 2 ;;
    --source) source=$2; shift 2 ;;
    --target) target=$2; shift 2 ;;
    --from) from=$2; shift 2 ;;
    --to) to=$2; shift 2 ;;
    --dead-letters) dead_letters=$2; shift 2 ;;
    --markbridge) bin=$2; shift 2 ;;
    --) shift; batch_options=("$@"); break ;;
    *) usage ;;
  esac
done
[ -n "$table" ] && [ -n "$key" ] && [ -n "$source" ] && [ -n "$target" ] && [ -n "$from" ] && [ -n "$to" ] || usage
for name in "$table" "$key" "$source" "$target" "$dead_letters"; do
  [[ $name =~ ^[A-Za-z_][A-Za-z0-9_]*$ ]] || { echo "migrate: '$name' is not a plain identifier" >&2; exit 64; }
done
[ -x "$bin" ] || { echo "migrate: no markbridge binary at $bin" >&2; exit 64; }

export PGCLIENTENCODING=UTF8
psql=(psql -X -q -v ON_ERROR_STOP=1)
column_type=text extract="->>"
if [ "$to" = json ]; then column_type=json extract="->"; fi
work=$(mktemp -d "${TMPDIR:-/tmp}/markbridge-migrate.XXXXXX")
trap 'rm -rf "$work"' EXIT

# 1. The new column and the dead-letter table: metadata only, so no table rewrite; lock_timeout
# keeps a busy table's queries from waiting behind the ALTER for long.
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
SQL

key_type=$("${psql[@]}" -At -c "SELECT format_type(atttypid, atttypmod) FROM pg_attribute
  WHERE attrelid = '\"$table\"'::regclass AND attname = '$key' AND NOT attisdropped")
[ -n "$key_type" ] || { echo "migrate: $table has no column $key" >&2; exit 64; }

# 2 and 3. The key and the md5 come first, so that a record too large for batch (whose dead
# letter keeps only its first 1,024 bytes) names its row: batch reads the id from those bytes,
# and the md5 is among them.
todo="FROM \"$table\" t WHERE t.\"$target\" IS NULL AND NOT EXISTS (SELECT 1 FROM \"$dead_letters\" d
  WHERE d.table_name = '$table' AND d.column_name = '$target' AND d.row_key = to_json(t.\"$key\") #>> '{}')"
rows=$("${psql[@]}" -At -c "SELECT count(*) $todo")
if [ "$rows" -eq 0 ]; then
  echo "migrate: $table.$target is complete: no row to convert"
  exit 0
fi
echo "migrate: converting $rows rows of $table.$source ($from) into $table.$target ($to)"
set +e
"${psql[@]}" -At -v FETCH_COUNT=1000 \
    -c "SELECT row_to_json(r) FROM (SELECT t.\"$key\", md5(t.\"$source\") AS markbridge_md5, t.\"$source\" $todo) r" |
  "$bin" batch --field "$source" --from "$from" --to "$to" --into "$target" --id-field "$key" "${batch_options[@]}" \
    -o "$work/converted.jsonl" --dead-letter "$work/dead-letters.jsonl" --summary json - 2>"$work/summary.json"
statuses=("${PIPESTATUS[@]}")
set -e
if [ "${statuses[0]}" -ne 0 ]; then
  echo "migrate: reading the rows failed (psql exit ${statuses[0]}); nothing written" >&2
  exit 1
fi
if [ "${statuses[1]}" -gt 1 ]; then
  cat "$work/summary.json" >&2
  echo "migrate: markbridge batch failed (exit ${statuses[1]}); nothing written" >&2
  exit 1
fi
echo "migrate: batch: $(tail -n 1 "$work/summary.json")"

# 4. One transaction (psql -1): everything or, on any error, nothing.
csv="WITH (FORMAT csv, QUOTE E'\\x01', DELIMITER E'\\x02')"
"${psql[@]}" -1 -At -f - <<SQL
CREATE TEMPORARY TABLE markbridge_converted (line text) ON COMMIT DROP;
CREATE TEMPORARY TABLE markbridge_failed (line text) ON COMMIT DROP;
\\copy markbridge_converted (line) FROM '$work/converted.jsonl' $csv
\\copy markbridge_failed (line) FROM '$work/dead-letters.jsonl' $csv
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
WITH converted AS (
  SELECT line::json AS record FROM markbridge_converted
), updated AS (
  UPDATE "$table" t SET "$target" = c.record $extract '$target'
  FROM converted c
  WHERE t."$key" = (c.record ->> '$key')::$key_type AND t."$target" IS NULL
    AND md5(t."$source") IS NOT DISTINCT FROM c.record ->> 'markbridge_md5'
  RETURNING 1
)
SELECT format('migrate: %s rows converted, %s changed while converting (left for the next run)',
              (SELECT count(*) FROM updated), (SELECT count(*) FROM converted) - (SELECT count(*) FROM updated));
WITH inserted AS (
  INSERT INTO "$dead_letters" (table_name, column_name, row_key, code, message, original)
  SELECT '$table', '$target', f.row_key, f.code, f.message, f.original
  FROM markbridge_failed_rows f JOIN "$table" t ON t."$key" = f.row_key::$key_type
  WHERE t."$target" IS NULL AND md5(t."$source") IS NOT DISTINCT FROM f.md5
  RETURNING 1
)
SELECT format('migrate: %s rows dead-lettered into $dead_letters, %s changed while converting (left for the next run)',
              (SELECT count(*) FROM inserted), (SELECT count(*) FROM markbridge_failed_rows) - (SELECT count(*) FROM inserted));
SQL
