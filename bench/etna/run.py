#!/usr/bin/env python3
"""The ETNA benchmark: speccheck, proptest, quickcheck and hegeltest on historical bugs of real crates.

For each workload crate (pinned crates.io release): every property is first
run on the unpatched crate (it must never fail), then each bug's patch is
applied alone to a fresh copy, the adapters are rebuilt, and the properties
ETNA says catch that bug are run by each tool for every seed. Results go to
bench/results/etna.md (the table) and bench/results/etna.jsonl (every run).

    python3 bench/etna/run.py [--seeds 20] [--cases 100000] [--base-seeds 3] [--only hex,memchr] [--warm-us 300]
"""

import argparse
import json
import math
import os
import re
import shutil
import statistics
import subprocess
import sys
import tarfile
import time
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
WORK = os.path.join(HERE, "work")
PRISTINE = os.path.join(WORK, "pristine")
BIN = os.path.join(HERE, "target", "release", "speccheck-etna")
# speccheck-fixed: speccheck with the fixed integer mix (`IntegerMix::Fixed`),
# measured beside the default (a mix per case) in the same run (issue 40,
# item 2).
TOOLS = ["speccheck", "speccheck-fixed", "proptest", "quickcheck", "hegeltest"]
# The peers the goals name (quickcheck is reported beside them).
PEERS = ["proptest", "hegeltest", "quickcheck"]


def pinned_crates():
    """(crate, version) for every crate patched from work/ in Cargo.toml."""
    text = open(os.path.join(HERE, "Cargo.toml")).read()
    patched = re.findall(r'^([\w-]+) = \{ path = "work/[\w-]+" \}', text, re.M)
    versions = dict(re.findall(r'^([\w-]+) = (?:\{ version = )?"=([\d.]+)"', text, re.M))
    return [(c, versions[c]) for c in patched]


def fetch_pristine(crate, version):
    """The crate's published source, unpacked once under work/pristine/."""
    dest = os.path.join(PRISTINE, f"{crate}-{version}")
    if os.path.isdir(dest):
        return dest
    os.makedirs(PRISTINE, exist_ok=True)
    archive = os.path.join(PRISTINE, f"{crate}-{version}.crate")
    url = f"https://static.crates.io/crates/{crate}/{crate}-{version}.crate"
    with urllib.request.urlopen(url, timeout=60) as r, open(archive, "wb") as f:
        f.write(r.read())
    with tarfile.open(archive) as t:
        t.extractall(PRISTINE, filter="data")
    os.remove(archive)
    return dest


def reset(crate, version, patch=None):
    """work/<crate> as published, with `patch` applied if given."""
    dest = os.path.join(WORK, crate)
    shutil.rmtree(dest, ignore_errors=True)
    shutil.copytree(fetch_pristine(crate, version), dest)
    # Fresh modification times: cargo rebuilds what is newer than its last
    # build, and the published files are older than any build.
    now = time.time()
    for d, _, files in os.walk(dest):
        for f in files:
            os.utime(os.path.join(d, f), (now, now))
    if patch:
        # Not `git apply`: inside this repository it would resolve paths from
        # the repository's root and skip the crate's files without a word.
        subprocess.run(["patch", "-p1", "--forward", "--quiet", "-i", patch], cwd=dest, check=True)


def build():
    started = time.time()
    # The crates under work/ are path dependencies: their own warnings are
    # not this benchmark's business.
    env = dict(os.environ, RUSTFLAGS="--cap-lints=allow")
    subprocess.run(["cargo", "build", "--release", "-q"], cwd=HERE, check=True, env=env)
    return time.time() - started


def run(workload, prop, seeds, cases, warm_us, first_seed=0):
    """Every tool on `prop`, in one process: per seed, the tools in a shuffled
    order, each warmed for `warm_us` before its timed run. Rows by tool."""
    args = [BIN, "run", workload, prop, "all", "--seeds", str(seeds), "--cases", str(cases),
            "--first-seed", str(first_seed), "--warm-us", str(warm_us)]
    out = subprocess.run(args, capture_output=True, text=True, timeout=3600)
    rows = [json.loads(line) for line in out.stdout.splitlines() if line.startswith("{")]
    if out.returncode != 0 or len(rows) != seeds * len(TOOLS):
        sys.exit(f"{' '.join(args)} failed ({out.returncode}):\n{out.stderr[-2000:]}")
    return {t: [r for r in rows if r["tool"] == t] for t in TOOLS}


def stats(xs):
    if not xs:
        return None
    xs = sorted(xs)
    p95 = xs[min(len(xs) - 1, math.ceil(0.95 * len(xs)) - 1)]
    return {"median": statistics.median(xs), "mean": statistics.fmean(xs), "p95": p95}


def summarize(rows):
    found = [r for r in rows if r["found"]]
    return {
        "found": len(found),
        "runs": len(rows),
        "inputs": stats([r["inputs"] for r in found]),
        "time_us": stats([r["time_to_failure_us"] for r in found]),
        "shrunk": stats([len(r["shrunk"]) for r in found if r["shrunk"] is not None]),
        "notes": sorted({r["note"] for r in rows if r["note"]}),
    }


def fmt(s, key, scale=1.0, digits=0):
    v = s[key]
    if v is None:
        return "–"
    return " / ".join(f"{v[k] * scale:.{digits}f}" for k in ("median", "mean", "p95"))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seeds", type=int, default=20)
    ap.add_argument("--cases", type=int, default=100_000)
    ap.add_argument("--base-seeds", type=int, default=3)
    ap.add_argument("--only", default="")
    ap.add_argument("--warm-us", type=int, default=300)
    ap.add_argument("--out", default=os.path.join(ROOT, "bench", "results", "etna"))
    ap.add_argument("--render", action="store_true",
                    help="rewrite <out>.md from <out>.jsonl (the same run's settings given) without running anything")
    a = ap.parse_args()
    if a.render:
        render(a)
        return
    crates = pinned_crates()
    versions = dict(crates)
    for crate, version in crates:
        reset(crate, version)
    print(f"building the adapters on the unpatched crates ({build():.0f} s)", flush=True)
    workloads = [json.loads(l) for l in subprocess.run([BIN, "list"], capture_output=True, text=True,
                                                       check=True).stdout.splitlines()]
    if a.only:
        workloads = [w for w in workloads if w["workload"] in a.only.split(",")]
    raw, table, base_failures = [], [], []
    # Every property on the unpatched crates first (the build above).
    for w in workloads:
        name = w["workload"]
        for prop in w["properties"]:
            by_tool = run(name, prop, a.base_seeds, a.cases, a.warm_us, first_seed=1000)
            for tool in TOOLS:
                rows = by_tool[tool]
                for r in rows:
                    r["bug"] = "(base)"
                raw += rows
                bad = [r for r in rows if r["found"] or r["note"]]
                if bad:
                    base_failures.append((name, prop, tool, bad[0]))
                    print(f"  BASE {name}/{prop}/{tool}: {bad[0]['shrunk'] or bad[0]['note']}", flush=True)
        print(f"{name}: base checked ({len(w['properties'])} properties)", flush=True)
    for w in workloads:
        name = w["workload"]
        for bug in w["bugs"]:
            patch = os.path.join(HERE, "patches", name, bug["patch"] + ".patch")
            reset(name, versions[name], patch)
            secs = build()
            for prop in bug["properties"]:
                per_tool = {}
                by_tool = run(name, prop, a.seeds, a.cases, a.warm_us)
                for tool in TOOLS:
                    rows = by_tool[tool]
                    for r in rows:
                        r["bug"] = bug["patch"]
                    raw += rows
                    per_tool[tool] = summarize(rows)
                table.append((name, bug["patch"], prop, per_tool))
                found = ", ".join(f"{t} {per_tool[t]['found']}/{per_tool[t]['runs']}" for t in TOOLS)
                print(f"  {bug['patch']} / {prop}: {found} (build {secs:.0f} s)", flush=True)
        reset(name, versions[name])
    write(a, table, base_failures, raw)


def render(a):
    """The table and goal lines of a finished run, from its JSON lines."""
    raw = [json.loads(line) for line in open(a.out + ".jsonl")]
    base_failures = [(r["workload"], r["property"], r["tool"], r) for r in raw
                     if r["bug"] == "(base)" and (r["found"] or r["note"])]
    keys = []
    for r in raw:
        key = (r["workload"], r["bug"], r["property"])
        if r["bug"] != "(base)" and key not in keys:
            keys.append(key)
    table = [(w, b, p, {t: summarize([r for r in raw if (r["workload"], r["bug"], r["property"]) == (w, b, p)
                                      and r["tool"] == t]) for t in TOOLS}) for w, b, p in keys]
    write(a, table, base_failures, raw)


def ratio_line(peer, ratios):
    """The goal line for speccheck's median times over `peer`'s, one ratio per bug."""
    g = math.exp(statistics.fmean(math.log(r) for r in ratios))
    return (f"- Median time to first failure, speccheck / {peer}, per bug found by both ({len(ratios)}): "
            f"geometric mean {g:.2f}, mean {statistics.fmean(ratios):.2f}, "
            f"sd {statistics.pstdev(ratios):.2f}, p95 {stats(ratios)['p95']:.2f}.")


def median(s, key):
    return s[key]["median"] if s[key] else None


def goal_lines(table):
    """Issue #40's goals, bug by bug: found on at least as many seeds as the
    best peer; median time to first failure at most the faster peer's (bugs
    under a millisecond for both excepted); shrunk size at most the best
    peer's; and, in aggregate, median times against each peer."""
    out = []
    fewer, slower, larger = [], [], []
    for name, bug, prop, per in table:
        s = per["speccheck"]
        rivals = [per[t] for t in ("proptest", "hegeltest")]
        best_found = max(r["found"] for r in rivals)
        if s["found"] < best_found:
            fewer.append(f"{name}/{bug} ({s['found']} < {best_found})")
        times = [median(r, "time_us") for r in rivals if median(r, "time_us") is not None]
        mine = median(s, "time_us")
        if times and mine is not None and mine > min(times) and max(mine, min(times)) >= 1000:
            slower.append(f"{name}/{bug} ({mine / min(times):.2f}× the faster peer)")
        sizes = [median(r, "shrunk") for r in rivals if median(r, "shrunk") is not None]
        if sizes and median(s, "shrunk") is not None and median(s, "shrunk") > min(sizes):
            larger.append(f"{name}/{bug} ({median(s, 'shrunk'):.0f} > {min(sizes):.0f})")
    out.append(f"- Bugs speccheck found on fewer seeds than the best of proptest and hegeltest: "
               f"{', '.join(fewer) or 'none'}.")
    out.append(f"- Bugs where speccheck's median time to first failure is above the faster peer's (both "
               f"under 1 ms excepted): {', '.join(slower) or 'none'}.")
    out.append(f"- Bugs where speccheck's median shrunk size is above the best peer's: {', '.join(larger) or 'none'}.")
    for half, rows in (("tuned-on", [r for r in table if r[0] in TUNED]),
                       ("held-out", [r for r in table if r[0] not in TUNED])):
        for peer in PEERS:
            ratios = [median(per["speccheck"], "time_us") / median(per[peer], "time_us") for _, _, _, per in rows
                      if median(per["speccheck"], "time_us") and median(per[peer], "time_us")]
            if ratios:
                out.append(f"- {half} half: " + ratio_line(peer, ratios)[2:])
    for peer in PEERS:
        ratios = [median(per["speccheck"], "time_us") / median(per[peer], "time_us") for _, _, _, per in table
                  if median(per["speccheck"], "time_us") and median(per[peer], "time_us")]
        missed = [f"{n}/{b}" for n, b, _, per in table if per["speccheck"]["found"] < per[peer]["found"]]
        if ratios:
            out.append(ratio_line(peer, ratios))
        out.append(f"- Against {peer}: speccheck found fewer runs on: {', '.join(missed) or 'none'}.")
    return out


# The workloads the integer mix was tuned on before issue 40.
TUNED = {"hex", "memchr", "tinyvec", "lz4_flex", "half", "bstr", "ropey"}


def mix_lines(table):
    """speccheck (a mix per case) against speccheck-fixed, per half: runs
    found, and the ratio of median times to first failure over the bugs
    both found."""
    out = []
    for half, rows in (("tuned-on", [r for r in table if r[0] in TUNED]),
                       ("held-out", [r for r in table if r[0] not in TUNED])):
        if not rows:
            continue
        on = sum(per["speccheck"]["found"] for *_, per in rows)
        off = sum(per["speccheck-fixed"]["found"] for *_, per in rows)
        runs = sum(per["speccheck"]["runs"] for *_, per in rows)
        differ = [f"{n}/{b} ({per['speccheck']['found']} vs {per['speccheck-fixed']['found']})"
                  for n, b, _, per in rows if per["speccheck"]["found"] != per["speccheck-fixed"]["found"]]
        out.append(f"- {half} ({len(rows)} bugs): runs that found the bug, per-case mix {on}/{runs}, "
                   f"fixed mix {off}/{runs}; bugs where they differ: {', '.join(differ) or 'none'}.")
        ratios = [median(per["speccheck"], "time_us") / median(per["speccheck-fixed"], "time_us")
                  for *_, per in rows
                  if median(per["speccheck"], "time_us") and median(per["speccheck-fixed"], "time_us")]
        if ratios:
            out.append("  Median time to first failure, speccheck / speccheck-fixed, per bug found by both "
                       f"({len(ratios)}): " + ratio_line("x", ratios).split(": ", 1)[1])
    return out


def write(a, table, base_failures, raw):
    with open(a.out + ".jsonl", "w") as f:
        for r in raw:
            f.write(json.dumps(r) + "\n")
    lines = ["# ETNA workloads: speccheck against proptest, quickcheck and hegeltest", "",
             f"`python3 bench/etna/run.py --seeds {a.seeds} --cases {a.cases} --base-seeds {a.base_seeds}`"
             f"{' --only ' + a.only if a.only else ''}, on this machine (2 cores), one run.", "",
             "The four tools, and speccheck with the fixed integer mix (speccheck-fixed, `IntegerMix::Fixed`; "
             "speccheck's default varies the mix per case), run in one process per bug and property, interleaved "
             "seed by seed in an order "
             "shuffled per seed; before each timed run the tool runs untimed on other seeds for "
             f"{a.warm_us} µs (at least once), so every tool is timed with its own code and data warm, "
             "whatever ran before it (the SmartCheck benchmark's protocol).", "",
             "Each tool at its defaults but for the case budget, the seed and no failure file: speccheck's "
             "`Config::default()`, proptest's `Config::default()` (ChaCha RNG seeded per run), quickcheck 1.1's "
             "own runner (`QuickCheck::quicktest`, a generator of size 100 seeded per run), hegeltest 0.51 "
             "(Hypothesis's engine, library `hegel`) through its own runner (`Hegel::new(..).run()`) at "
             "`Settings::new()` but for `test_cases`, the seed, no database and no printing. Generators mirror "
             "ETNA's proptest strategies one for one; quickcheck draws from those same strategies and shrinks "
             "with the value type's `Arbitrary::shrink` (which knows nothing of a strategy's bounds, as in a "
             "quickcheck user's property over that type); hegeltest draws with its own generators within the same "
             "bounds (`vecs(..).min_size(..).max_size(..)`, `integers()`, `sampled_from`), as a hegel user writes "
             "them, so each tool draws from its own distributions. Per bug and tool: runs that found the bug; inputs and time "
             "(µs) to the first failure and the length of the shrunk counterexample's `Debug`, each as "
             "median / mean / p95 over the runs that found it.", ""]
    lines += ["Workloads: hex, memchr, tinyvec, lz4_flex, half, bstr and ropey (the first seven), then, for issue 40, "
              "alpaylan's Rust `*-etna` repositories taken in alphabetical order, without looking at any tool's "
              "results, skipping the held-out ones (arrayvec, httparse, petgraph, roaring), those already here, "
              "those not in Rust (bitvec, cedar) and those whose crate version is not a crates.io release "
              "(arroy 0.7.0, bitvec-rs's bitvec 1.1.0), until the bench had at least 40 bugs: ahash, aho-corasick, "
              "buf-list, bytes, chrono, compact_str. Each at the version ETNA's repository names; every bug of "
              "theirs that exists as a bug in that release (bytes' `sign_extend_zero_nbytes` does not: its fix "
              "came after 1.11.1, so the release fails that property unpatched).", ""]
    lines.append("Unpatched crates: " + ("no property failed." if not base_failures else
                 "FAILURES: " + "; ".join(f"{w}/{p}/{t}" for w, p, t, _ in base_failures)))
    lines += ["", "| workload | bug | property | tool | found | inputs | time to failure (µs) | shrunk size |",
              "|---|---|---|---|---|---|---|---|"]
    for name, bug, prop, per in table:
        for tool in TOOLS:
            s = per[tool]
            lines.append(f"| {name} | {bug} | {prop} | {tool} | {s['found']}/{s['runs']} | {fmt(s, 'inputs')} | "
                         f"{fmt(s, 'time_us', 1, 0)} | {fmt(s, 'shrunk')} |")
    lines += ["", "## Goal check", "", f"Bugs: {len(table)}."]
    lines += goal_lines(table)
    lines += ["", "## Integer mix per case (issue 40, item 2)", "",
              "speccheck (its default: each case takes an integer mix from its seed, the fixed one in half of the "
              "cases, one leaning to values anywhere in a quarter, near 0 or at the edges in an eighth each) against "
              "speccheck-fixed (the fixed mix in every case), on the first seven workloads (where the fixed mix was "
              "tuned before) and on the six added for issue 40 (never tuned on), separately. The run measured the "
              "two arms under the names speccheck (fixed) and speccheck-mix (per case), before the per-case mix "
              "became the default; the rows were renamed after it did, no number changed."]
    lines += mix_lines(table)
    with open(a.out + ".md", "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines[lines.index("## Goal check"):]))


if __name__ == "__main__":
    main()
