#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# tests/cli/metrics_xcheck.py: holds pmuprof's metric tables (as `pmuprof list --metrics --json`
# serves them) against Arm's telemetry JSON, every file and every metric: the same metrics and
# groups (members in order, stage), units, events, top-down links, and formulas that give the
# same value. The formulas are evaluated here by Python's own parser (ast), on random positive
# counts shared by both sides, independently of pmuprof's src/metrics/mexpr.c.
#
# usage: metrics_xcheck.py PMUPROF TELEMETRY_DIR   (prints one TAP line per file, exits 1 on a
# mismatch)

import ast
import glob
import json
import operator
import os
import random
import re
import subprocess
import sys

OPS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
       ast.Div: operator.truediv}


def evaluate(formula, values):
    """The value of formula, or None where it divides by zero; only + - * /, unary minus,
    numbers and names (anything else is an error in the data)."""
    def ev(n):
        if isinstance(n, ast.Expression):
            return ev(n.body)
        if isinstance(n, ast.BinOp) and type(n.op) in OPS:
            return OPS[type(n.op)](ev(n.left), ev(n.right))
        if isinstance(n, ast.UnaryOp) and isinstance(n.op, (ast.USub, ast.UAdd)):
            v = ev(n.operand)
            return -v if isinstance(n.op, ast.USub) else v
        if isinstance(n, ast.Constant) and isinstance(n.value, (int, float)):
            return float(n.value)
        if isinstance(n, ast.Name):
            return values[n.id]
        raise ValueError(f'unexpected {ast.dump(n)} in {formula!r}')
    try:
        return ev(ast.parse(formula, mode='eval'))
    except ZeroDivisionError:
        return None


def same_value(a, b, names):
    """Both formulas agree on several sets of random counts."""
    rng = random.Random(formula_seed(a))
    for _ in range(5):
        values = {n: float(rng.randint(1, 10**9)) for n in names}
        x, y = evaluate(a, values), evaluate(b, values)
        if (x is None) != (y is None):
            return False
        if x is not None and abs(x - y) > 1e-9 * max(1.0, abs(x), abs(y)):
            return False
    return True


def formula_seed(f):
    return sum(map(ord, f))


def core_id(pc):
    name = pc['product_name'].lower().replace(' ', '-')
    return name


def revision(path, pc):
    m = re.search(r'-r(\d+)p(\d+)', os.path.basename(path))
    if m:
        return f'r{m.group(1)}p{m.group(2)}'
    return f'r{pc["major_revision"]}p{pc["minor_revision"]}'


def names_of(formula):
    return set(re.findall(r'[A-Za-z_][A-Za-z0-9_]*', formula))


def check_file(pmuprof, path):
    arm = json.load(open(path))
    pc = arm['product_configuration']
    model = f'{core_id(pc)}:{revision(path, pc)}'
    out = subprocess.run([pmuprof, 'list', '--metrics', '--json', '--cpu-model', model],
                         capture_output=True, text=True)
    if out.returncode != 0:
        return [f'{model}: pmuprof list failed: {out.stderr.strip()}']
    sets = json.loads(out.stdout)['metric_sets']
    if len(sets) != 1 or sets[0]['generic']:
        return [f'{model}: want one metric set of its own, got {len(sets)}']
    ours = {m['name']: m for m in sets[0]['metrics']}
    bad = []
    if set(ours) != set(arm['metrics']):
        bad.append(f'{model}: metrics differ: only Arm {sorted(set(arm["metrics"]) - set(ours))}, '
                   f'only ours {sorted(set(ours) - set(arm["metrics"]))}')
    meth = arm['methodologies']['topdown_methodology']
    stage = {g: 1 for g in meth['metric_grouping'].get('stage_1', [])}
    stage.update({g: 2 for g in meth['metric_grouping'].get('stage_2', [])})
    nexts = {m['name']: m['next_items'] for m in meth['decision_tree']['metrics']}
    for name, a in arm['metrics'].items():
        o = ours.get(name)
        if not o:
            continue
        if o['unit'] != a['units']:
            bad.append(f'{model}: {name}: unit {o["unit"]!r}, Arm {a["units"]!r}')
        if o['events'] != sorted(a['events']) or set(o['events']) != names_of(a['formula']):
            bad.append(f'{model}: {name}: events {o["events"]}, Arm {sorted(a["events"])}')
        if not same_value(o['formula'], a['formula'], names_of(a['formula']) | names_of(o['formula'])):
            bad.append(f'{model}: {name}: formula {o["formula"]!r} differs from Arm\'s {a["formula"]!r}')
        if o['next'] != nexts.get(name, []):
            bad.append(f'{model}: {name}: next {o["next"]}, Arm {nexts.get(name, [])}')
    groups = {g['name']: g for g in sets[0]['groups']}
    if list(groups) != list(arm['groups']['metrics']):
        bad.append(f'{model}: groups {list(groups)}, Arm {list(arm["groups"]["metrics"])}')
    for gname, g in arm['groups']['metrics'].items():
        o = groups.get(gname)
        if o and (o['metrics'] != g['metrics'] or o['stage'] != stage.get(gname)):
            bad.append(f'{model}: group {gname}: {o["metrics"]} stage {o["stage"]}, Arm '
                       f'{g["metrics"]} stage {stage.get(gname)}')
        for m in g['metrics']:
            if m in ours and gname not in ours[m]['groups']:
                bad.append(f'{model}: {m} does not name its group {gname}')
    return bad, len(arm['metrics'])


def main():
    pmuprof, tel = sys.argv[1], sys.argv[2]
    files = sorted(glob.glob(os.path.join(tel, 'pmu', 'cpu', '*', '*.json')))
    print(f'1..{len(files)}')
    failed = total = 0
    for i, f in enumerate(files, 1):
        res = check_file(pmuprof, f)
        bad, n = res if isinstance(res, tuple) else (res, 0)
        total += n
        rel = os.path.relpath(f, tel)
        if bad:
            failed += 1
            print(f'not ok {i} - {rel}')
            for b in bad[:20]:
                print(f'# {b}')
        else:
            print(f'ok {i} - {rel}: {n} metrics agree with Arm\'s')
    print(f'# {total} metrics in {len(files)} files')
    return 1 if failed or not files else 0


if __name__ == '__main__':
    sys.exit(main())
