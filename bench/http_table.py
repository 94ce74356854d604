#!/usr/bin/env python3
"""The markdown tables of a set of `speccheck http --json` reports: per
server, each seed's verdict and counts, every distinct failure (by the rule
it breaks) with the shortest trace seen, and every finding.

    python3 bench/http_table.py OUT_DIR server1,server2 SEED...

reads OUT_DIR/<server>-<seed>.json (bench/http-real.sh and
bench/http-heldout.sh write them).
"""
import json, sys, collections
out, servers, seeds = sys.argv[1], sys.argv[2].split(","), sys.argv[3:]
for server in servers:
    rules = collections.OrderedDict()
    findings = collections.OrderedDict()
    lines = []
    for seed in seeds:
        r = json.load(open(f"{out}/{server}-{seed}.json"))
        lines.append(f"| {seed} | {r['verdict']} | {r['executions']} | {r['inconclusive']} | {r['budget_hits']} | "
                     f"{1 + len(r['other_failures']) if r['failure'] else 0} | {len(r['findings'])} |")
        fails = ([r['failure']] if r['failure'] else []) + [o['failure'] for o in r['other_failures'] if o['failure']]
        for f in fails:
            trace = " / ".join(
                (f"{m['message'].get('method')} {m['message'].get('path')}"
                 + "".join(f" {k}={v}" for k, v in m['message'].items() if k not in ('method', 'path', 'body')))
                if m['sent'] else str(m['message'].get('status'))
                for m in f['trace'] if not m['closed'])
            rules.setdefault(f['identity'], []).append((seed, trace))
        for f in r['findings']:
            findings.setdefault(f['identity'], []).append((seed, f['seen']))
    print(f"## {server}\n")
    print("| seed | verdict | executions | inconclusive | cut by budget | distinct failures | findings |")
    print("|---|---|---|---|---|---|---|")
    print("\n".join(lines))
    print("\nFailures (MUST), by rule, with the shortest trace seen:\n")
    print("| rule | seeds | shortest trace |")
    print("|---|---|---|")
    for rule, seen in rules.items():
        shortest = min(seen, key=lambda s: len(s[1]))[1].replace("|", "\\|")
        print(f"| {rule.removeprefix('rejected: ')} | {', '.join(sorted({s for s, _ in seen}))} | `{shortest}` |")
    print("\nFindings (SHOULD; never a failure):\n")
    print("| rule | seeds (executions that showed it) |")
    print("|---|---|")
    for rule, seen in findings.items():
        print(f"| {rule} | {', '.join(f'{s} ({n})' for s, n in seen)} |")
    print()
