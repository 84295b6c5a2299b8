# SPDX-License-Identifier: Apache-2.0
# schema.bash: validate_report and validate_diff: check a JSON file against pmuprof's JSON
# Schemas (man/pmuprof-json.schema.json, man/pmuprof-diff.schema.json) with Python's
# jsonschema (Debian: python3-jsonschema), skipping the test with the reason when it is absent.

# The first Python that has the jsonschema module: the one on PATH, else Debian's.
schema_python() {
	local py
	for py in python3 /usr/bin/python3; do
		if command -v "$py" >/dev/null && "$py" -c 'import jsonschema' 2>/dev/null; then
			echo "$py"
			return 0
		fi
	done
	return 1
}

# validate_json SCHEMA FILE: fails with each violation (its JSON path and message).
validate_json() {
	local py
	py=$(schema_python) || skip "no JSON Schema validator: install python3-jsonschema"
	"$py" - "$1" "$2" <<'PY' || fail "$2 does not match $(basename "$1")"
import json, sys
import jsonschema
schema = json.load(open(sys.argv[1]))
doc = json.load(open(sys.argv[2]))
cls = jsonschema.validators.validator_for(schema)
cls.check_schema(schema)
errors = sorted(cls(schema).iter_errors(doc), key=lambda e: list(e.absolute_path))
for e in errors:
    path = "$" + "".join("[%r]" % p for p in e.absolute_path)
    print("%s: %s" % (path, e.message), file=sys.stderr)
sys.exit(1 if errors else 0)
PY
}

# validate_report FILE: FILE is a valid pmuprof stat --json report.
validate_report() {
	validate_json "$ROOT/man/pmuprof-json.schema.json" "$1"
}

# validate_diff FILE: FILE is a valid pmuprof diff --format json document.
validate_diff() {
	validate_json "$ROOT/man/pmuprof-diff.schema.json" "$1"
}

# check_report FILE: validate_report where a validator is installed, else nothing: for
# helpers that every stat test goes through, so a missing validator skips no test.
check_report() {
	schema_python >/dev/null || return 0
	validate_report "$1"
}
