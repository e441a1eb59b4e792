"""Writes BENCHMARKS.md from the figures scripts/bench/all.sh collected: python3 scripts/bench/report.py WORKDIR.
WORKDIR holds machine.env, results/NAME.env (key=value lines each benchmark wrote with RESULTS=file), logs/NAME.txt
(its whole output) and profiles/*.txt (top functions from perf or callgrind, taken on an unmeasured run)."""
import re
import sys
from pathlib import Path

work = Path(sys.argv[1])


def read_env(path):
    values = {}
    if path.exists():
        for line in path.read_text().splitlines():
            if "=" in line:
                key, value = line.split("=", 1)
                values[key.strip()] = value.strip()
    return values


machine = read_env(work / "machine.env")
results = {p.stem: read_env(p) for p in sorted((work / "results").glob("*.env"))}
figures = {k: v for r in results.values() for k, v in r.items() if k not in ("status", "seconds", "command", "ran_at")}
used = set()


def number(key):
    used.add(key)
    value = figures.get(key)
    if value is None or value == "":
        return None
    match = re.fullmatch(r"(-?[0-9.]+)(us|ms|s)?", value)
    if not match:
        return None
    scale = {"us": 0.001, "ms": 1.0, "s": 1000.0, None: 1.0}[match.group(2)]   # wrk latencies → ms
    return float(match.group(1)) * scale


def command(name):
    return results.get(name, {}).get("command", f"scripts/bench/{name}.sh")


rows = []   # (benchmark, ours, baseline, ratio, goal, met, command, profile)


def ratio_row(title, ours_key, ours_unit, base_key, base_label, goal, bench, profile=None, invert=False,
              ours_fmt="{:,.0f}", base_fmt="{:,.0f}"):
    """ratio = ours / baseline (or baseline / ours when invert: fewer instructions is better); goal like '>= 0.8'."""
    ours, base = number(ours_key), number(base_key)
    if ours is None or base is None or base == 0 or ours == 0:
        rows.append((title, "not measured", base_label, "", goal, "no", command(bench), profile))
        return
    ratio = base / ours if invert else ours / base
    op, target = goal.split()
    met = ratio >= float(target) if op == ">=" else ratio <= float(target)
    shown = f"{ratio:.2f}"
    if (float(shown) >= float(target) if op == ">=" else float(shown) <= float(target)) != met:
        shown = f"{ratio:.3f}"   # 0.499 is not 0.50: show the digit that decides
    rows.append((title, f"{ours_fmt.format(ours)} {ours_unit}", f"{base_label}: {base_fmt.format(base)} {ours_unit}",
                 f"{shown}x", f"{goal}x", "yes" if met else "**no**", command(bench), profile))


def limit_row(title, key, unit, goal, bench, baseline="none (absolute goal)", fmt="{:,.1f}", profile=None):
    value = number(key)
    if value is None:
        rows.append((title, "not measured", baseline, "", goal, "no", command(bench), profile))
        return
    op, target = goal.split()
    met = value <= float(target) if op == "<=" else value >= float(target) if op == ">=" else value == float(target)
    rows.append((title, f"{fmt.format(value)} {unit}", baseline, "", f"{goal} {unit}", "yes" if met else "**no**",
                 command(bench), profile))


ratio_row("Bootstrap 401, request logs off", "bootstrap_logs_off_bridge_rps", "req/s", "bootstrap_logs_off_nginx_rps",
          "nginx, logs off", ">= 0.8", "bootstrap", "bootstrap-401.txt")
ratio_row("Bootstrap 401, request logs on", "bootstrap_logs_on_bridge_rps", "req/s", "bootstrap_logs_on_nginx_rps",
          "nginx, access log on", ">= 0.5", "bootstrap", "bootstrap-401.txt")
ratio_row("Full code flow (authorize + token, PKCE), SQLite", "flow_bridge_fps", "flows/s", "flow_peer_fps",
          "Authlib + Flask + gunicorn", ">= 10", "flow", "flow.txt")
limit_row("Full code flow p99 latency", "flow_bridge_p99", "ms", "<= 20", "flow", profile="flow.txt",
          baseline=f"Authlib: {figures.get('flow_peer_p99', '?')}")
used.add("flow_peer_p99")
ratio_row("Authenticated bootstrap (200)", "authenticated_bootstrap_rps", "req/s", "empty_route_rps",
          "empty Hummingbird route", ">= 0.6", "flow", "authenticated-bootstrap.txt")
ratio_row("WOPI forward auth (/wopi/auth), one token used again, server CPU per request", "wopi_forward_auth_cpu_us",
          "µs/req", "wopi_bootstrap_baseline_cpu_us", "authenticated bootstrap, one token, same run", "<= 1",
          "wopi-forward-auth", "wopi-forward_auth.txt", ours_fmt="{:.1f}", base_fmt="{:.1f}")
ratio_row("External JWT bootstrap (identityProvider), server CPU per request, within 10% of our own token",
          "bootstrap_external_jwt_cpu_us", "µs/req", "bootstrap_own_token_cpu_us", "own token bootstrap, same run",
          "<= 1.1", "bootstrap", ours_fmt="{:.1f}", base_fmt="{:.1f}")
ratio_row("Office To URL decode + encode", "protocol_to_instr", "instr/op", "protocol_to_foundation_instr",
          "URLComponents", ">= 3", "protocol", invert=True)
ratio_row("Office Back URL decode + encode", "protocol_back_instr", "instr/op", "protocol_back_foundation_instr",
          "URLComponents", ">= 3", "protocol", invert=True)
ratio_row("Lint, 5,000-line manifest, whole process (wall)", "lint_ms", "ms", "xmllint_ms", "xmllint --relaxng",
          "<= 1.2", "lint", "lint.txt", ours_fmt="{:.1f}", base_fmt="{:.1f}")
ratio_row("Lint, 5,000-line manifest, whole process (instructions)", "lint_instr", "instr", "xmllint_instr",
          "xmllint --relaxng", "<= 1.2", "lint", "lint.txt")
flow_cpu, floor_cpu = number("flow_bridge_cpu_us"), number("floor_flow_cpu_us")
peer_cpu = number("flow_peer_cpu_us")
if flow_cpu and peer_cpu:
    # No goal: CPU per completed flow is steadier than flows/s on shared cores; the peer's counts all its workers.
    rows.append(("Full code flow, server CPU per flow, SQLite", f"{flow_cpu:,.0f} µs/flow",
                 f"Authlib + Flask + gunicorn (all workers): {peer_cpu:,.0f} µs/flow", f"{flow_cpu / peer_cpu:.2f}x",
                 "none (beside flows/s)", "-", command("flow"), None))
if flow_cpu and floor_cpu:
    # No goal: the floor (scripts/bench/floor.sh) says how far above the least possible CPU per flow we run.
    rows.append(("Full code flow, server CPU per flow, against the floor", f"{flow_cpu:,.0f} µs/flow",
                 f"floor (2 empty-route requests, 2 ES256, 1 SQLite write): {floor_cpu:,.0f} µs/flow",
                 f"{flow_cpu / floor_cpu:.1f}x", "none (where we stand)", "-", command("floor"), None))
pg_cpu, pg_one_cpu = number("flow_postgres_cpu_us"), number("flow_postgres_one_cpu_us")
if flow_cpu and pg_one_cpu:
    # The store's cost: one instance over PostgreSQL (its processes included) against one on SQLite, same run.
    rows.append(("Full code flow, server CPU per flow, PostgreSQL (1 instance, with PostgreSQL's processes)",
                 f"{pg_one_cpu:,.0f} µs/flow, p99 {figures.get('flow_postgres_one_p99', '?')}",
                 f"SQLite, 1 instance: {flow_cpu:,.0f} µs/flow", f"{pg_one_cpu / flow_cpu:.2f}x", "<= 1.3x",
                 "yes" if pg_one_cpu / flow_cpu <= 1.3 else "**no**", command("flow"), None))
    used.update(["flow_postgres_one_p99", "flow_postgres_one_fps"])
if flow_cpu and pg_cpu:
    rows.append(("Full code flow, server CPU per flow, PostgreSQL (2 instances, with PostgreSQL's processes)",
                 f"{pg_cpu:,.0f} µs/flow, p99 {figures.get('flow_postgres_p99', '?')}",
                 f"SQLite, 1 instance: {flow_cpu:,.0f} µs/flow", f"{pg_cpu / flow_cpu:.2f}x", "none (scale-out)", "-",
                 command("flow"), None))
    used.update(["flow_postgres_p99", "flow_postgres_fps"])
dpop_cpu = number("flow_dpop_cpu_us")
if flow_cpu and dpop_cpu:
    rows.append(("Full code flow with a DPoP proof per token request, server CPU per flow",
                 f"{dpop_cpu:,.0f} µs/flow ({figures.get('flow_dpop_fps', '?')} flows/s)",
                 f"the same flow without DPoP: {flow_cpu:,.0f} µs/flow", f"{dpop_cpu / flow_cpu:.2f}x",
                 "none (what DPoP costs)", "-", command("flow"), None))
    used.update(["flow_dpop_fps", "flow_dpop_p99"])
floor_start = figures.get("cold_start_floor_ms", "?")
used.add("cold_start_floor_ms")
limit_row("Cold start to first answer (first start, creates keys)", "cold_start_first_ms", "ms", "<= 150",
          "bootstrap", fmt="{:.0f}", baseline=f"empty Hummingbird route: {floor_start} ms")
limit_row("Cold start to first answer (restart)", "cold_start_restart_ms", "ms", "<= 150", "bootstrap", fmt="{:.0f}",
          baseline=f"empty Hummingbird route: {floor_start} ms")
limit_row("Peak RSS after code flows and bootstraps (flow.sh)", "flow_bridge_rss_mib", "MiB", "<= 64", "flow",
          baseline=f"empty Hummingbird route under the same wrk: {figures.get('empty_route_rss_mib', '?')} MiB")
used.add("empty_route_rss_mib")
limit_row("RSS under load, bootstrap 401 at 64 connections", "bootstrap_rss_mib", "MiB", "<= 64", "bootstrap")
limit_row("RSS under load, mixed flows at 256 connections", "load_rss_mib", "MiB", "<= 64", "load")
limit_row("Mixed load: unexpected responses + socket errors", "load_errors", "", "== 0", "load", fmt="{:.0f}")
if "soak_slope" in figures:
    limit_row("Soak: RSS max", "soak_rss_max", "MiB", "<= 64", "load")
    slope, spread = number("soak_slope"), number("soak_slope_spread")
    if slope is not None and spread is not None:
        # Flat within noise: the slope's 95% interval (load.sh) holds zero.
        rows.append((f"Soak: RSS slope over the {figures.get('soak_seconds', '?')} s after the warm-up", f"{slope:+.2f} ± {spread:.2f} MiB / 10 min",
                     "none (absolute goal)", "", "flat within noise", "yes" if abs(slope) <= spread else "**no**",
                     command("load"), None))
    limit_row("Soak: unexpected responses + socket errors", "soak_unexpected", "", "== 0", "load", fmt="{:.0f}")
if "hostile_failed" in figures:
    limit_row("Hostile HTTP input: failed checks", "hostile_failed", "", "== 0", "hostile", fmt="{:.0f}",
              baseline=f"of {int(number('hostile_passed') or 0) + int(number('hostile_failed') or 0)} checks")

out = []
w = out.append
w("# Benchmarks\n")
w("Written by `scripts/bench/all.sh` (do not edit by hand). Every figure comes from a release build and is set beside")
w("a baseline measured in the same run on the same machine; the server runs its shipped sample configuration (SQLite,")
w("request logs on) unless a row says otherwise. Re-run from a fresh clone with `bash scripts/bench/all.sh` (or")
w("`make bench`); each row's command runs that benchmark alone.\n")
w("| | |\n|---|---|")
w(f"| Run | {machine.get('before_time', '?')} to {machine.get('after_time', '?')}, commit {machine.get('commit', '?')} |")
w(f"| Machine | {machine.get('cpu', '?')}, {machine.get('cores', '?')} cores, {machine.get('memory', '?')}, {machine.get('kernel', '?')} |")
w(f"| Load average (1, 5, 15 min) | before {machine.get('before_load', '?')}, after {machine.get('after_load', '?')} |")
w(f"| Toolchain | {machine.get('swift', '?')}; nginx {machine.get('nginx', '?')}, wrk {machine.get('wrk', '?')}, libxml2 {machine.get('xmllint', '?')} |")
for line in (work / "machine.env").read_text().splitlines() if (work / "machine.env").exists() else []:
    if line.startswith("partial="):
        w(f"| Partial re-run | {line.split('=', 1)[1]} |")
w("")
w("| Benchmark script | Ran at | Seconds | Status |")
w("|---|---|---|---|")
for name, r in results.items():
    w(f"| {name} | {r.get('ran_at', '?')} | {r.get('seconds', '?')} | {r.get('status', 'ok')} |")
w("")
w("wrk and the servers share the machine's cores, so requests/s are a comparison within the run, not a capacity claim;")
w("instruction counts (callgrind) do not depend on what else the machine does.\n")
w("## Summary\n")
w("| Benchmark | SignInBridge | Baseline (same run) | Ratio | Goal | Met | Command |")
w("|---|---|---|---|---|---|---|")
for title, ours, base, ratio, goal, met, cmd, _ in rows:
    w(f"| {title} | {ours} | {base} | {ratio} | {goal} | {met} | `{cmd}` |")
w("")
failed = [(n, r) for n, r in results.items() if r.get("status", "ok") != "ok" and "status" in r]
for name, r in failed:
    w(f"**{name} did not complete** ({r['status']}); its output is under Raw output.\n")

missed = [(t, p) for t, _, _, _, _, met, _, p in rows if met != "yes" and p]
profiles_shown = []
if missed:
    w("## Where a goal is missed: what the profile showed\n")
    w("Each profile is taken on a second run of the same workload that is not measured: `perf record -e cpu-clock -g`")
    w("on the server (self time per function, `scripts/bench/profile-top.sh`), or callgrind on the linter.\n")
    for title, profile in missed:
        if profile in profiles_shown:
            w(f"**{title}**: see the profile above ({profile}).\n")
            continue
        path = work / "profiles" / profile
        profiles_shown.append(profile)
        w(f"**{title}** (`{profile}`):\n")
        w("```")
        w(path.read_text().rstrip() if path.exists() else "(no profile was taken)")
        w("```\n")

if floor_cpu:
    w("## The floor of a code flow\n")
    w("What one flow (GET /oauth2/authorize → 302 → POST /oauth2/token) cannot go below on this machine: the parts no")
    w("implementation can skip, each measured as CPU per operation in a release build (`scripts/bench/floor.sh`):\n")
    w("| Part | CPU per operation | Per flow | CPU per flow |")
    w("|---|---|---|---|")
    parts = [("HTTP request, empty Hummingbird route (RouteFloor under wrk, "
              f"{figures.get('floor_connections', '?')} connections, server CPU from /proc)", "floor_http_request_cpu_us", 2),
             ("ES256 signature (swift-crypto P256, as the server signs)", "floor_es256_sign_cpu_us", 2),
             (f"SQLite single-row insert committed (WAL, synchronous {figures.get('floor_sqlite_synchronous', '?')},"
              " the store's pragmas)", "floor_sqlite_write_cpu_us", 1)]
    for title, key, count in parts:
        value = number(key)
        shown = f"{value:,.1f} µs" if value is not None else "not measured"
        total = f"{value * count:,.1f} µs" if value is not None else ""
        w(f"| {title} | {shown} | {count} | {total} |")
    w(f"| **Floor** | | | **{floor_cpu:,.1f} µs** |")
    if flow_cpu:
        w(f"\nSignInBridge's code flow (`scripts/bench/flow.sh`, server CPU per completed flow): {flow_cpu:,.0f} µs,"
          f" **{flow_cpu / floor_cpu:.1f}x the floor**. (flow.sh's client asks `scope=wopi`, so its flow signs one"
          " token, not two: against that flow the floor is one signature lower.)")
    w("")
    used.update(("floor_connections", "floor_sqlite_synchronous", "floor_http_requests"))

load = results.get("load", {})
if load:
    w("## Load and soak\n")
    w(f"Mixed flows (`scripts/bench/load/mixed.lua`): bootstrap 401 probes, whole code flows, refreshes, authenticated")
    w(f"bootstraps and introspections, every response checked against what its request must get.\n")
    w(f"- Load, 256 connections, 60 s: {figures.get('load_rps', '?')} requests/s, p99 {figures.get('load_p99', '?')};"
      f" probes {figures.get('load_probes', '?')}, authorizes {figures.get('load_authorizes', '?')},"
      f" token responses {figures.get('load_tokens', '?')}, bootstraps {figures.get('load_bootstraps', '?')},"
      f" introspections {figures.get('load_introspections', '?')}; unexpected {figures.get('load_unexpected', '?')},"
      f" socket errors {figures.get('load_socket_errors', '?')}; RSS max {figures.get('load_rss_mib', '?')} MiB.")
    if "soak_slope" in figures:
        warmup = figures.get("soak_warmup_seconds")
        if warmup is not None:
            interval = figures.get("soak_purge_interval", "?")
            purge_every = number("soak_purge_interval") or 0   # 0: the configuration never purges
            holds = "holds" if 0 < purge_every <= number("soak_warmup_seconds") else "does not hold"
            w(f"- Soak warm-up, {warmup} s at 256 connections (the sample configuration purges expired records every"
              f" {interval} s; the warm-up {holds} the first purge): RSS"
              f" {figures.get('soak_warmup_rss_first')} MiB at its start, {figures.get('soak_rss_first')} MiB at its end"
              f" (anonymous {figures.get('soak_warmup_anon_first')} → {figures.get('soak_anon_first')} MiB); SQLite's WAL"
              f" index {figures.get('soak_warmup_wal_index_first_kib')} → {figures.get('soak_wal_index_first_kib')} KiB, the"
              f" log at most {figures.get('soak_warmup_wal_max_mib')} MiB. These are one-time steps (caches filling, the"
              f" first purge, the index growing to the longest log so far: `docs/memory.md`), so the slope is fitted"
              f" after them.")
        w(f"- Soak, {figures.get('soak_seconds')} s measured after the warm-up, at 256 connections:"
          f" {figures.get('soak_rps', '?')} requests/s (warm-up included),"
          f" unexpected + errors {figures.get('soak_unexpected', '?')}; RSS first {figures.get('soak_rss_first')} MiB,"
          f" max {figures.get('soak_rss_max')} MiB, last {figures.get('soak_rss_last')} MiB; least-squares slope"
          f" {figures.get('soak_slope')} ± {figures.get('soak_slope_spread', '?')} MiB per 10 minutes (95%"
          f" interval from the fit's residuals; goal: flat within noise, the interval holds zero). Of the last"
          f" sample, {figures.get('soak_anon_last', '?')} MiB is anonymous memory (heap: {figures.get('soak_anon_first', '?')}"
          f" MiB at the first measured sample) and {figures.get('soak_file_last', '?')} MiB file-backed pages of the binary and"
          f" the shared libraries (Swift runtime, Foundation, ICU, SQLite) and SQLite's mapped WAL index.")
        if "soak_engine_max" in figures:
            w(f"  SQLite's own memory (`signin_bridge_store_engine_memory_bytes`) {figures.get('soak_engine_first')} MiB"
              f" first, {figures.get('soak_engine_max')} MiB max, {figures.get('soak_engine_last')} MiB last; the request"
              f" log's queue (`signin_bridge_log_queue_peak_records`) peaked at {figures.get('soak_log_queue_peak')} records.")
        if "soak_wal_index_max_kib" in figures:
            w(f"  SQLite's write-ahead log reached {figures.get('soak_wal_max_mib')} MiB at most; its mapped index (`-shm`)"
              f" was {figures.get('soak_wal_index_first_kib')} KiB at the first measured sample and {figures.get('soak_wal_index_max_kib')}"
              f" KiB at most.")
        slope, spread = number("soak_slope"), number("soak_slope_spread")
        if slope is not None and spread is not None and abs(slope) > spread:
            w("  Not flat within noise. What to look at: `SOAK_SECONDS=1500 SOAK_SAMPLES=file bash"
              " scripts/bench/load.sh` shows whether RSS keeps rising over more purges, and its samples split the"
              " growth into heap, file-backed pages and SQLite's WAL index (which grows, once, whenever a purge makes"
              " the log longer than it has been). `docs/memory.md` records the last such run.")
    for key in ("load_unexpected", "load_rps", "load_p99", "load_probes", "load_authorizes", "load_tokens", "load_bootstraps",
                "load_introspections", "load_socket_errors", "soak_seconds", "soak_rps", "soak_rss_first",
                "soak_warmup_seconds", "soak_purge_interval", "soak_warmup_rss_first", "soak_warmup_anon_first",
                "soak_warmup_wal_index_first_kib", "soak_warmup_wal_max_mib",
                "soak_rss_last", "soak_slope", "soak_slope_spread", "soak_anon_first", "soak_anon_last", "soak_file_last", "soak_engine_first",
                "soak_engine_max", "soak_engine_last", "soak_log_queue_peak", "soak_wal_max_mib",
                "soak_wal_index_first_kib", "soak_wal_index_max_kib"):
        used.add(key)
    w("")

if "hostile_failed" in figures:
    w("## Hostile input\n")
    w("`scripts/test/hostile.py` against the release build (`scripts/bench/hostile.sh`; `make test` runs it on the debug")
    w("build): oversized and malformed request lines and headers, invalid UTF-8 and percent-encoding, duplicate and")
    w("empty parameters, unsupported content types, JSON for a form, CRLF in parameters, a huge `state`, forged and")
    w("`alg: none` JWTs, WopiSrc path tricks, a client dribbling one byte a second. Each check wants a 4xx with an RFC")
    w("error code, never a 5xx, never a redirect to an unregistered URI, and nothing secret in a response or the log.\n")
    w(f"- {figures.get('hostile_passed')} checks passed, {figures.get('hostile_failed')} failed"
      f" ({results.get('hostile', {}).get('ran_at', '?')}).\n")

fuzz = work / "logs" / "fuzz.txt"
if fuzz.exists():
    w("## Fuzzing\n")
    w(f"libFuzzer with AddressSanitizer and leak detection, one target per decoder (`{results.get('fuzz', {}).get('command', 'scripts/fuzz.sh')}`).\n")
    w("| Target | Executions | Seconds | Coverage (cov / ft) | Corpus | Result |")
    w("|---|---|---|---|---|---|")
    pattern = re.compile(r"fuzz (\S+): (\d+) executions in (\d+) s(?: \(limit \d+ s\))?, cov (\d+), ft (\d+), corpus (\d+): (.*)")
    for line in fuzz.read_text().splitlines():
        m = pattern.match(line)
        if m:
            name, runs, secs, cov, ft, corpus, result = m.groups()
            w(f"| {name} | {int(runs):,} | {secs} | {cov} / {ft} | {corpus} | {result} |")
    w("")

other = {k: v for k, v in figures.items() if k not in used and not k.startswith(("bootstrap_", "floor_", "cold_start", "lint_", "xmllint_", "protocol_", "flow_", "authenticated_", "empty_route", "load_", "soak_"))}
if other:
    w("## Other figures\n")
    for key, value in sorted(other.items()):
        w(f"- `{key}` = {value}")
    w("")

w("## Raw output\n")
for log in sorted((work / "logs").glob("*.txt")):
    text = log.read_text()
    text = "\n".join(line for line in text.splitlines() if not line.startswith(("[", "Building", "Compiling", "Write")))
    w(f"<details><summary>{log.stem} ({results.get(log.stem, {}).get('seconds', '?')} s)</summary>\n")
    w("```")
    w(text.strip()[-6000:])
    w("```\n</details>\n")
print("\n".join(out))
