#!/usr/bin/env bash
# The PostgreSQL sample's test: starts a throwaway PostgreSQL 15 server (Unix socket only, in a
# temporary folder; stopped on every exit), loads 3,000 generated rows (make_rows.py) and
# migrates their body column from HTML to Markdown with migrate.sh. Then checks:
# 1. the load and the export are byte-exact: row_to_json through psql gives back the generated values;
# 2. every row is converted (equal to one `markbridge batch` run over the generated file) or in
#    the dead-letter table, none lost; 25 rows also equal `markbridge convert` of their body; the
#    over-limit row of Cyrillic text (id 100, cut inside a character) is dead-lettered under its key;
# 3. a second run changes nothing: a checksum of both tables, xmin (the writing transaction)
#    of every row included, is the same before and after;
# 4. live rows: 200 rows added later are migrated by the next run, which leaves the migrated rows
#    untouched, and rows edited while it converts (through a markbridge stand-in that edits two
#    rows before it returns) are left for the run after, which migrates them.
#
#   MARKBRIDGE=path/to/markbridge PGPORT=55432 bash Samples/postgres/test.sh
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
bin=${MARKBRIDGE:-$root/.build/release/markbridge}
pg_bin=${PG_BIN:-/usr/lib/postgresql/15/bin}
port=${PGPORT:-55432}

if [ ! -x "$bin" ]; then
  echo "no markbridge binary at $bin: swift build -c release --product markbridge" >&2
  exit 2
fi
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
if [ ! -x "$pg_bin/initdb" ]; then
  echo "no PostgreSQL 15 server in $pg_bin: apt-get install -y postgresql" >&2
  exit 2
fi

# PostgreSQL refuses to run as root: as root, the server runs as the postgres user.
as_server() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}
work=$(mktemp -d "${TMPDIR:-/tmp}/markbridge-pg-test.XXXXXX")
chmod 711 "$work"
mkdir "$work/data" "$work/socket" "$work/log"
if [ "$(id -u)" = 0 ]; then chown postgres: "$work/data" "$work/socket" "$work/log"; fi
stop() {
  if [ -f "$work/data/postmaster.pid" ]; then
    as_server "$pg_bin/pg_ctl" -D "$work/data" -m fast -w stop >/dev/null || true
  fi
  rm -rf "$work"
}
trap stop EXIT
trap 'exit 143' TERM INT HUP

as_server "$pg_bin/initdb" -D "$work/data" -A trust -U postgres -E UTF8 --locale=C.UTF-8 >/dev/null
if ! as_server "$pg_bin/pg_ctl" -D "$work/data" -l "$work/log/server.log" -w \
    -o "-c listen_addresses='' -c unix_socket_directories=$work/socket -p $port" start >/dev/null; then
  cat "$work/log/server.log" >&2
  exit 1
fi
export PGHOST=$work/socket PGPORT=$port PGUSER=postgres PGDATABASE=postgres PGCLIENTENCODING=UTF8
sql() { psql -X -q -At -v ON_ERROR_STOP=1 "$@"; }
csv="WITH (FORMAT csv, QUOTE E'\\x01', DELIMITER E'\\x02')"
load() {  # load FILE: one transaction
  sql -1 <<SQL
CREATE TEMPORARY TABLE load (line text);
\\copy load FROM '$1' $csv
INSERT INTO articles (id, title, body)
SELECT (line::json ->> 'id')::bigint, line::json ->> 'title', line::json ->> 'body' FROM load;
SQL
}
checksum() {  # checksum [LAST-ID]: both tables' rows up to LAST-ID, every row's xmin included, and the columns
  sql -c "SELECT md5(concat(
    (SELECT string_agg(attname || ' ' || format_type(atttypid, atttypmod), ',' ORDER BY attnum)
       FROM pg_attribute WHERE attrelid = 'articles'::regclass AND attnum > 0 AND NOT attisdropped),
    (SELECT string_agg(t.xmin::text || ' ' || t::text, E'\n' ORDER BY id) FROM articles t WHERE id <= ${1:-9223372036854775807}),
    (SELECT string_agg(d.xmin::text || ' ' || d::text, E'\n' ORDER BY row_key) FROM markbridge_dead_letters d
       WHERE row_key::bigint <= ${1:-9223372036854775807})))"
}
migrate() {
  bash "$here/migrate.sh" --table articles --key id --source body --target body_md --from html --to markdown \
    "$@" -- --max-record-bytes 100000
}
check() {  # check: every row against one markbridge batch run over the table's current bodies
  sql -c "SELECT row_to_json(r) FROM (SELECT id, body FROM articles ORDER BY id) r" >"$work/bodies.jsonl"
  "$bin" batch --field body --from html --to markdown --into body_md --max-record-bytes 100000 \
    -o "$work/reference.jsonl" --dead-letter "$work/reference-dead.jsonl" "$work/bodies.jsonl" 2>/dev/null || [ $? -eq 1 ]
  sql -c "SELECT row_to_json(r) FROM (SELECT id, body_md FROM articles) r" >"$work/table.jsonl"
  sql -c "SELECT row_to_json(d) FROM markbridge_dead_letters d" >"$work/dead.jsonl"
  python3 "$here/check.py" "$work/table.jsonl" "$work/dead.jsonl" "$work/bodies.jsonl" \
    "$work/reference.jsonl" "$work/reference-dead.jsonl"
}

echo "== load 3,000 rows"
sql -c "CREATE TABLE articles (id bigint PRIMARY KEY, title text, body text, updated_at timestamptz NOT NULL DEFAULT now())"
python3 "$here/make_rows.py" "$work/rows.jsonl" --rows 3000
load "$work/rows.jsonl"
sql -c "SELECT row_to_json(r) FROM (SELECT id, title, body FROM articles ORDER BY id) r" >"$work/exported.jsonl"
python3 - "$work/rows.jsonl" "$work/exported.jsonl" <<'PY'
import json, sys
generated, exported = ([json.loads(line) for line in open(path, "rb").read().split(b"\n") if line] for path in sys.argv[1:])
if generated != exported:
    sys.exit(f"FAIL: the table does not hold the generated values ({len(exported)} rows exported, {len(generated)} generated)")
print(f"load and export byte-exact: {len(exported)} rows give back the generated values")
PY
sql -c "SELECT format('%s rows: %s NULL, %s with a backslash, %s with a quote, %s non-ASCII, %s over 100000 bytes', count(*),
  count(*) FILTER (WHERE body IS NULL), count(*) FILTER (WHERE position(chr(92) in body) > 0), count(*) FILTER (WHERE position(chr(34) in body) > 0),
  count(*) FILTER (WHERE body ~ '[^\\x01-\\x7f]'), count(*) FILTER (WHERE octet_length(body) > 100000)) FROM articles"

echo "== first run"
migrate
check
too_large=$(sql -c "SELECT code FROM markbridge_dead_letters WHERE row_key = '100'")
[ "$too_large" = record-too-large ] || { echo "FAIL: the over-limit Cyrillic row 100 is not dead-lettered under its key ('$too_large')" >&2; exit 1; }
echo "the over-limit Cyrillic row 100 is dead-lettered under its key"
# The body of generated rows, independently of the table: the same as the reference from the table.
"$bin" batch --field body --from html --to markdown --into body_md --max-record-bytes 100000 \
  -o "$work/generated-reference.jsonl" --dead-letter "$work/generated-dead.jsonl" "$work/rows.jsonl" 2>/dev/null || [ $? -eq 1 ]
python3 "$here/check.py" "$work/table.jsonl" "$work/dead.jsonl" "$work/rows.jsonl" \
  "$work/generated-reference.jsonl" "$work/generated-dead.jsonl" >/dev/null
echo "and equal to batch over the generated file, which never went through PostgreSQL"
samples=0
for id in $(sql -c "SELECT id FROM articles WHERE body_md IS NOT NULL AND id % 120 = 7 ORDER BY id"); do
  sql -c "SELECT encode(convert_to(body, 'UTF8'), 'base64') FROM articles WHERE id = $id" | base64 -d >"$work/one.html"
  sql -c "SELECT encode(convert_to(body_md, 'UTF8'), 'base64') FROM articles WHERE id = $id" | base64 -d >"$work/one.md"
  "$bin" convert --from html --to markdown "$work/one.html" 2>/dev/null >"$work/converted.md"
  cmp -s "$work/one.md" "$work/converted.md" || { echo "FAIL: row $id differs from markbridge convert of its body" >&2; exit 1; }
  samples=$((samples + 1))
done
echo "$samples sampled rows equal markbridge convert of their body"

echo "== second run: changes nothing"
before=$(checksum)
migrate
after=$(checksum)
[ "$before" = "$after" ] || { echo "FAIL: the second run changed the tables ($before -> $after)" >&2; exit 1; }
echo "checksum unchanged: $after"

echo "== 200 more rows, two of them edited while the run converts"
python3 "$here/make_rows.py" "$work/more.jsonl" --rows 200 --first-id 100001 --seed 16
load "$work/more.jsonl"
null_id=100010
sql -c "UPDATE articles SET body = '<p>five</p>' WHERE id = 100005" -c "UPDATE articles SET body = NULL WHERE id = $null_id"
cat >"$work/editing-markbridge" <<SH
#!/usr/bin/env bash
# markbridge, then two of the rows it converted are edited before the migration writes them.
"$bin" "\$@"
status=\$?
psql -X -q -v ON_ERROR_STOP=1 -c "UPDATE articles SET body = body || '<p>edited</p>', updated_at = now() WHERE id = 100005" \
  -c "UPDATE articles SET body = '<p>was NULL</p>', updated_at = now() WHERE id = $null_id" || exit 70
exit \$status
SH
chmod +x "$work/editing-markbridge"
old_before=$(checksum 3000)
migrate --markbridge "$work/editing-markbridge" | tee "$work/third.log"
old_after=$(checksum 3000)
[ "$old_before" = "$old_after" ] || { echo "FAIL: the run over new rows changed migrated rows" >&2; exit 1; }
left=$(sql -c "SELECT string_agg(id::text, ',' ORDER BY id) FROM articles a WHERE body_md IS NULL
  AND NOT EXISTS (SELECT 1 FROM markbridge_dead_letters d WHERE d.row_key = a.id::text)")
[ "$left" = "100005,$null_id" ] || { echo "FAIL: expected rows 100005 and $null_id left for the next run, not '$left'" >&2; exit 1; }
echo "migrated rows untouched; rows 100005 and $null_id, edited meanwhile, left for the next run"
migrate
check
echo "== PASS"
