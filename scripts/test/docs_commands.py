#!/usr/bin/env python3
"""Runs every command shown in README.md and docs/*.md, so that none of them can rot.

A command block is a fenced block tagged `sh` (a script: run with `set -eo pipefail`, it must exit 0) or `console`
(`$ ` lines are commands; the other lines are output, and each shown line must appear in what they print, `…`
standing for anything). An HTML comment right above the fence changes how a block runs:

    <!-- docs-commands: skip — why it cannot run here, and what exercises it instead -->
    <!-- docs-commands: continues -->     runs in the same shell and with the same server as the file's block before
    <!-- docs-commands: exit 1 -->        the status the block must end with (a lint that finds errors)
    <!-- docs-commands: server -->        start a server even though the block names no 127.0.0.1:8080 URL

Each block runs in a scratch copy of the repository's files (so the `data/` it writes is its own), with
`signin-bridge` and `signin-bridge-lint` on PATH as the debug build given by --binary (`.build/release/…` and
`.build/debug/…` mean that build too). A block that mentions http://127.0.0.1:8080 gets `signin-bridge serve` on the
sample config, on a free port that replaces 8080 everywhere in the block (and in SIGNIN_BRIDGE_PORT, so tokens carry
the server's issuer). The check fails on a block that fails, a skip without a reason, an unknown directive, and a
fenced block without the `sh`/`console` tag whose lines look like commands.

Usage: docs_commands.py --binary .build/debug/signin-bridge [--only docs/cli.md] [--list]
Prints one line per block and "docs-commands: N ran, N skipped, N failed"; exit 1 on a failure.
"""
import argparse
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
COMMAND_LANGUAGES = {"sh", "console"}
SAMPLE_PORT = "8080"
DEFAULT_TIMEOUT = 120  # seconds per block; the longest, the conformance run, takes about 15
DIRECTIVE = re.compile(r"<!--\s*docs-commands:\s*(.*?)\s*-->", re.S)
FENCE = re.compile(r"^(\s*)(```+|~~~+)\s*([\w-]*)")


@dataclass
class Block:
    path: Path
    line: int
    language: str
    text: str
    skip: str | None = None
    continues: bool = False
    needs_server: bool = False
    exit_status: int = 0
    timeout: int = DEFAULT_TIMEOUT
    problems: list = field(default_factory=list)

    @property
    def name(self):
        path = self.path.relative_to(ROOT) if self.path.is_relative_to(ROOT) else self.path
        return f"{path}:{self.line}"


def parse_directives(block: Block, comment: str):
    """`skip — reason` takes the rest of the comment; other directives are separated by `;`."""
    if comment.startswith("skip"):
        reason = comment[4:].strip().lstrip("—-: ").strip()
        if not reason:
            block.problems.append("a skip must say why")
        block.skip = reason or "(no reason)"
        return
    for directive in filter(None, (d.strip() for d in comment.split(";"))):
        word, _, rest = directive.partition(" ")
        if word == "continues":
            block.continues = True
        elif word == "server":
            block.needs_server = True
        elif word == "exit" and rest.strip().isdigit():
            block.exit_status = int(rest)
        elif word == "timeout" and rest.strip().isdigit():
            block.timeout = int(rest)
        else:
            block.problems.append(f"unknown directive {directive!r}")


def blocks_in(path: Path):
    """Every fenced block of the file: command blocks with their directives, and untagged blocks that hold commands."""
    lines = path.read_text().split("\n")
    index = 0
    while index < len(lines):
        match = FENCE.match(lines[index])
        if not match:
            index += 1
            continue
        indent, fence, language = match.groups()
        start = index
        body = []
        index += 1
        while index < len(lines) and not lines[index].strip().startswith(fence):
            body.append(lines[index][len(indent):] if lines[index].startswith(indent) else lines[index].lstrip())
            index += 1
        index += 1
        block = Block(path, start + 1, language, "\n".join(body))
        above = start - 1
        while above >= 0 and not lines[above].strip():
            above -= 1
        # The comment right above the fence, which may span lines up to its opening `<!--`.
        comment_lines = []
        if above >= 0 and lines[above].rstrip().endswith("-->"):
            while above >= 0:
                comment_lines.insert(0, lines[above])
                if "<!--" in lines[above]:
                    break
                above -= 1
        directive = DIRECTIVE.search("\n".join(comment_lines))
        if directive:
            parse_directives(block, directive.group(1))
        if language in COMMAND_LANGUAGES:
            yield block
        elif language in ("", "text") and any(l.startswith("$ ") for l in body):
            block.problems.append("shows `$ ` commands in a block not tagged sh or console")
            yield block


def console_script(text: str):
    """The commands of a console block, and the output lines shown after them."""
    commands, expected, continued = [], [], False
    for line in text.split("\n"):
        if continued or line.startswith("$ "):
            commands.append(line if continued else line[2:])
            continued = line.endswith("\\")
        elif line.strip():
            expected.append(line)
    return "\n".join(commands), expected


def shown_line_pattern(line: str):
    return re.compile(".*?".join(re.escape(part.strip()) for part in line.split("…")))


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Scratch:
    """A copy of the repository's files (so a lint of a folder finds real folders and what a block writes stays out of
    the checkout), .build linked for the test venv, and the debug build on PATH."""

    def __init__(self, binary: Path):
        self.dir = Path(tempfile.mkdtemp(prefix="docs-commands-"))
        listing = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                                 capture_output=True, text=True)
        if listing.returncode == 0:
            files = listing.stdout.split("\0")
        else:  # not a Git checkout (an unpacked archive): everything but what builds and runs leave behind
            skipped = {".build", ".build-fuzz", ".build-order", ".git", "data", "artifacts"}
            files = [str(p.relative_to(ROOT)) for p in ROOT.rglob("*")
                     if p.is_file() and p.relative_to(ROOT).parts[0] not in skipped]
        for name in filter(None, files):
            if (ROOT / name).is_file():
                (self.dir / name).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(ROOT / name, self.dir / name)
        if (ROOT / ".build").exists():
            (self.dir / ".build").symlink_to(ROOT / ".build")
        self.bin = Path(tempfile.mkdtemp(prefix="docs-commands-bin-"))
        for name in ("signin-bridge", "signin-bridge-lint"):
            if (binary.parent / name).exists():
                (self.bin / name).symlink_to(binary.parent / name)

    def remove(self):
        shutil.rmtree(self.dir, ignore_errors=True)
        shutil.rmtree(self.bin, ignore_errors=True)


class Server:
    def __init__(self, scratch: Scratch, port: int, env: dict):
        self.log = open(scratch.dir / f"serve-{port}.log", "w")
        self.process = subprocess.Popen(
            ["signin-bridge", "serve", "--config", "samples/bridge.yaml", "--port", str(port)],
            cwd=scratch.dir, env=env, stdout=self.log, stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"serve exited with {self.process.returncode}")
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/auth/health", timeout=1) as answer:
                    if answer.status == 200:
                        return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("serve did not answer /auth/health within 30 s")

    def stop(self):
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.log.close()


def runnable(text: str, port: int):
    """The block as the test runs it: the built binary for the release path, the scratch port for 8080."""
    text = re.sub(r"\.build/(?:release|debug)/(signin-bridge[\w-]*)", r"\1", text)
    return text.replace(f"127.0.0.1:{SAMPLE_PORT}", f"127.0.0.1:{port}").replace(
        f"localhost:{SAMPLE_PORT}", f"localhost:{port}")


def static_problems(block: Block):
    """What can be checked of a block that does not run: the repository paths and make targets it names exist."""
    problems = []
    makefile = (ROOT / "Makefile").read_text()
    for target in re.findall(r"\bmake\s+([a-z][\w-]*)", block.text):
        if not re.search(rf"^{re.escape(target)}:", makefile, re.M):
            problems.append(f"make {target}: no such target")
    for repo_path in re.findall(r"(?<![\w./-])((?:scripts|samples|schemas|docs|Sources|Tests)/[\w./-]*[\w/])", block.text):
        if not (ROOT / repo_path).exists():
            problems.append(f"{repo_path}: no such file")
    return problems


@dataclass
class Session:
    """What a `continues` block carries on from: the file, the port, the server and the shell state of the block before."""
    path: Path
    port: int
    server: "Server | None"
    state: Path

    def close(self):
        if self.server:
            self.server.stop()


class Checker:
    def __init__(self, binary: Path):
        self.scratch = Scratch(binary)
        self.ran = self.skipped = 0
        self.failures: list[tuple[Block, str]] = []
        self.session: Session | None = None

    def fail(self, block: Block, why: str, output: str = ""):
        self.failures.append((block, why))
        print(f"FAIL {block.name}: {why}" + "".join(f"\n    {line}" for line in output.strip().split("\n")[-25:] if output))

    def check(self, block: Block, list_only: bool = False):
        if block.problems:
            return self.fail(block, "; ".join(block.problems))
        if block.skip:
            self.skipped += 1
            problems = static_problems(block)
            if problems:
                return self.fail(block, "skipped, but " + "; ".join(problems))
            return print(f"skip {block.name}: {block.skip}")
        if list_only:
            return print(f"run  {block.name} ({block.language}{', continues' if block.continues else ''})")
        session = self.session if block.continues and self.session and self.session.path == block.path else None
        if block.continues and not session:
            return self.fail(block, "`continues`, but the block before it in this file did not run")
        if not session:
            self.close_session()
            # A new session starts on an empty store and key file, as `make run` first does.
            shutil.rmtree(self.scratch.dir / "data", ignore_errors=True)
            port = free_port()
            session = Session(block.path, port, None, self.scratch.dir / f"state-{block.line}-{port}.sh")
        env = dict(os.environ, PATH=f"{self.scratch.bin}:{os.environ['PATH']}", SIGNIN_BRIDGE_PORT=str(session.port))
        if (block.needs_server or f"127.0.0.1:{SAMPLE_PORT}" in block.text) and not session.server:
            try:
                session.server = Server(self.scratch, session.port, env)
            except RuntimeError as error:
                return self.fail(block, f"the server did not start: {error}")
        self.session = session
        self.ran += 1
        started = time.monotonic()
        status, output, expected = self.run(block, session, env)
        missing = [line for line in expected if not shown_line_pattern(runnable(line, session.port)).search(output)]
        if status != block.exit_status or missing:
            why = [f"exit {status}, expected {block.exit_status}"] if status != block.exit_status else []
            why += ["output lacks: " + " | ".join(missing)] if missing else []
            return self.fail(block, "; ".join(why), output)
        print(f"ok   {block.name} ({time.monotonic() - started:.1f} s)")

    def run(self, block: Block, session: Session, env: dict):
        """Runs the block in bash; a continued block sees the shell variables and functions of the one before."""
        if block.language == "console":
            script, expected = console_script(block.text)
        else:
            script, expected = block.text, []
        state = session.state
        prelude = f"__before=\" $(compgen -v | tr '\\n' ' ') \"\n[ -f {state} ] && . {state}\nset -eo pipefail\n"
        epilogue = (f"\n{{ for __v in $(compgen -v | grep -v '^__'); do case \"$__before\" in *\" $__v \"*) ;;"
                    f" *) declare -p \"$__v\";; esac; done; declare -f; }} >> {state} 2>/dev/null || true\n")
        try:
            result = subprocess.run(["bash", "-c", prelude + runnable(script, session.port) + epilogue],
                                    cwd=self.scratch.dir, env=env, capture_output=True, text=True,
                                    timeout=block.timeout, stdin=subprocess.DEVNULL)
            return result.returncode, result.stdout + result.stderr, expected
        except subprocess.TimeoutExpired as timeout:
            return None, f"timed out after {block.timeout} s", expected

    def close_session(self):
        if self.session:
            self.session.close()
            self.session = None

    def close(self):
        self.close_session()
        self.scratch.remove()


def check_files(files, binary: Path, list_only: bool = False):
    """Checks every block of `files`; returns the failures as (block, why)."""
    checker = Checker(binary)
    try:
        for path in files:
            for block in blocks_in(path):
                checker.check(block, list_only)
    finally:
        checker.close()
    print(f"docs-commands: {checker.ran} ran, {checker.skipped} skipped, {len(checker.failures)} failed")
    return checker.failures


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--binary", required=True, type=Path, help="the debug signin-bridge")
    parser.add_argument("--only", action="append", help="a file to check (repeatable); default README.md, docs/*.md")
    parser.add_argument("--list", action="store_true", help="list the blocks and how each would run, run nothing")
    args = parser.parse_args()
    files = [ROOT / f for f in args.only] if args.only else [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    return 1 if check_files(files, args.binary.resolve(), args.list) else 0


if __name__ == "__main__":
    sys.exit(main())
