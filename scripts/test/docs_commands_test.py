#!/usr/bin/env python3
"""The docs-commands check itself: on a page written to break it, it must fail exactly the blocks that are wrong
(a failing command, output the command does not print, a skip without a reason, commands in an untagged block, an
unknown directive, a skip naming a file that does not exist) and pass the rest (exit statuses, `continues`, the
server). Run by `make test` before docs_commands.py checks the real pages.

Usage: docs_commands_test.py --binary .build/debug/signin-bridge     Prints "docs-commands-test: ok" or what differed.
"""
import argparse
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from docs_commands import check_files  # noqa: E402

PAGE = """# A page that breaks the check on purpose

```sh
echo fine
```

```sh
false
```

```console
$ echo hello
goodbye
```

```console
$ echo 'a b c'
a … c
```

<!-- docs-commands: skip -->
```sh
make run
```

```
$ signin-bridge --help
```

<!-- docs-commands: sometimes -->
```sh
true
```

<!-- docs-commands: skip — names a script that is not there -->
```sh
python3 scripts/test/no_such_script.py
```

<!-- docs-commands: exit 1 -->
```sh
exit 1
```

```sh
GREETING=hello; greet() { echo "$GREETING $1"; }
```

<!-- docs-commands: continues -->
```console
$ greet world
hello world
```

```console
$ curl -s http://127.0.0.1:8080/auth/health
{"status":"ok",…}
```

<!-- docs-commands: skip — serves until Ctrl-C -->
```sh
make run
```
"""
# The fence line of each block that must fail.
MUST_FAIL = {7, 11, 22, 26, 31, 36}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True, type=Path)
    binary = parser.parse_args().binary.resolve()
    with tempfile.TemporaryDirectory() as directory:
        page = Path(directory) / "page.md"
        page.write_text(PAGE)
        failed = {block.line for block, _ in check_files([page], binary)}
    if failed != MUST_FAIL:
        print(f"docs-commands-test: failed blocks {sorted(failed)}, expected {sorted(MUST_FAIL)}")
        return 1
    print("docs-commands-test: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
