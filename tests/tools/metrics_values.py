#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# tests/tools/metrics_values.py: holds the metric values `pmuprof report` computes against Arm's
# telemetry JSON, for every metric of every core and revision Arm publishes. For each file it
# writes a saved stat report whose events are the raw events (type 4, config = Arm's code) of
# every event the metrics use, with synthetic counts (seeded by the core and revision, positive,
# no divisor zero), runs `pmuprof report --cpu-model CORE:rXpY -M <every group> -M <every
# metric> -j` on it once, and compares each metric's value with the value its formula gives
# here, by a recursive-descent evaluator of Arm's formula text written for this test (not
# pmuprof's src/metrics/mexpr.c, nor the project's events/metrics tables: Arm's text is read directly).
# Each metric must be reported once, as requested, and "metrics_core" must be CORE:rXpY.
#
# usage: metrics_values.py check PMUPROF BASE.json TELEMETRY_DIR WORKDIR
#            one TAP line per file with its summary; exits 1 on any disagreement
#        metrics_values.py report BASE.json ARM_FILE OUT.json [EVENT=COUNT | -EVENT]...
#            writes the synthetic report of ARM_FILE, a count set or an event left out, and
#            prints the file's CPU model (CORE:rXpY) for --cpu-model
# BASE.json is a real `pmuprof stat --json` report: its events are replaced, the rest kept.

import copy
import glob
import json
import os
import random
import re
import subprocess
import sys

REL_TOL = 1e-9	# the values are doubles printed by cJSON with 15, else 17, digits


class DivisionByZero(Exception):
    pass


class Formula:
    """One of Arm's formulas: + - * / with the usual precedence and left to right, unary
    signs, parentheses, decimal numbers and event names. Anything else raises ValueError."""
    TOKEN = re.compile(r'\s*(?:(\d+(?:\.\d+)?)|([A-Za-z_][A-Za-z0-9_]*)|([-+*/()]))')

    def __init__(self, text):
        self.text = text
        self.tokens = []
        pos = 0
        while text[pos:].strip():
            m = self.TOKEN.match(text, pos)
            if not m:
                raise ValueError(f'cannot read {text[pos:]!r} in {text!r}')
            num, name, op = m.groups()
            self.tokens.append(('num', float(num)) if num else ('name', name) if name
                               else ('op', op))
            pos = m.end()
        self.names = {v for k, v in self.tokens if k == 'name'}

    def value(self, counts):
        """The formula's value with counts (name -> float), or None on a division by zero."""
        self.counts, self.at = counts, 0
        try:
            v = self._sum()
        except DivisionByZero:
            return None
        if self.at != len(self.tokens):
            raise ValueError(f'unexpected {self.tokens[self.at][1]!r} in {self.text!r}')
        return v

    def _peek(self):
        return self.tokens[self.at] if self.at < len(self.tokens) else ('end', None)

    def _take(self, *ops):
        kind, v = self._peek()
        if kind == 'op' and v in ops:
            self.at += 1
            return v
        return None

    def _sum(self):
        v = self._product()
        while (op := self._take('+', '-')):
            r = self._product()
            v = v + r if op == '+' else v - r
        return v

    def _product(self):
        v = self._signed()
        while (op := self._take('*', '/')):
            r = self._signed()
            if op == '*':
                v *= r
            elif r == 0:
                raise DivisionByZero()
            else:
                v /= r
        return v

    def _signed(self):
        op = self._take('+', '-')
        if op:
            v = self._signed()
            return -v if op == '-' else v
        kind, v = self._peek()
        self.at += 1
        if kind == 'num':
            return v
        if kind == 'name':
            return float(self.counts[v])
        if (kind, v) == ('op', '('):
            v = self._sum()
            if not self._take(')'):
                raise ValueError(f'no closing parenthesis in {self.text!r}')
            return v
        raise ValueError(f'unexpected {v!r} in {self.text!r}')


class Core:
    """One file of Arm's data: a core at a revision, its events' codes, metrics and groups."""

    def __init__(self, path):
        arm = json.load(open(path))
        pc = arm['product_configuration']
        self.path = path
        self.core = pc['product_name'].lower().replace(' ', '-')
        m = re.search(r'-r(\d+)p(\d+)', os.path.basename(path))
        rev = m.groups() if m else (pc['major_revision'], pc['minor_revision'])
        self.model = f'{self.core}:r{int(rev[0])}p{int(rev[1])}'
        self.metrics = {n: Formula(m['formula']) for n, m in arm['metrics'].items()}
        self.groups = list(arm['groups']['metrics'])
        used = set().union(*(f.names for f in self.metrics.values()))
        self.codes = {n: int(arm['events'][n]['code'], 16) for n in sorted(used)}

    def counts(self):
        """Synthetic counts for every event the metrics use: the same every time for this
        core and revision, positive, and drawn again until no formula divides by zero."""
        rng = random.Random(f'{self.model} {os.path.basename(self.path)}')
        for _ in range(100):
            counts = {n: rng.randint(1000, 10**10) for n in self.codes}
            if all(f.value(counts) is not None for f in self.metrics.values()):
                return counts
        raise ValueError(f'{self.path}: no counts without a division by zero')


def raw_event(template, code, count):
    """An event of a saved report: the raw event of code, counted in full."""
    e = copy.deepcopy(template)
    e.update({'name': f'r{code:x}', 'pmu': 'raw', 'type': 4, 'config': f'{code:#x}',
              'config1': '0x0', 'config2': '0x0', 'group': None, 'status': 'counted',
              'reason': None, 'value': count, 'raw_value': count, 'unit': '',
              'time_enabled_ns': 1000000, 'time_running_ns': 1000000, 'counted_pct': 100,
              'scaled': False, 'run': None, 'split': None, 'only_on': None, 'metric': None,
              'units': None})
    return e


def write_report(base, core, counts, out):
    """Writes base with core's events (those in counts) as its events, and no metrics."""
    rep = copy.deepcopy(base)
    template = rep['events'][0]
    rep['events'] = [raw_event(template, core.codes[n], c) for n, c in counts.items()]
    rep['metrics'] = []
    with open(out, 'w') as f:
        json.dump(rep, f, indent=1)


def agree(got, want):
    if want is None or got is None:
        return got is None and want is None
    return got == want or abs(got - want) <= REL_TOL * max(abs(got), abs(want))


def check_core(pmuprof, base, core, workdir):
    """Problems found in pmuprof's metrics for core (a list of lines), and its summary."""
    counts = core.counts()
    stem = os.path.join(workdir, core.model.replace(':', '-'))
    write_report(base, core, counts, stem + '.json')
    cmd = [pmuprof, 'report', '--cpu-model', core.model, '-M', ','.join(core.groups),
           '-M', ','.join(core.metrics), '-j', stem + '.json']
    out = subprocess.run(cmd, capture_output=True, text=True)
    if out.returncode != 0:
        return [f'pmuprof report exited with {out.returncode}: {out.stderr.strip()}'], \
            'pmuprof report failed'
    with open(stem + '.out.json', 'w') as f:
        f.write(out.stdout)
    try:
        doc = json.loads(out.stdout)
    except ValueError as e:
        return [f'pmuprof report -j printed no JSON: {e}'], 'pmuprof report failed'
    got = {}
    for m in doc.get('metrics', []):
        got.setdefault(m['name'], []).append(m)
    bad, wrong = [], set()
    if doc.get('metrics_core') != core.model:
        bad.append(f'metrics_core is {doc.get("metrics_core")!r}, not {core.model!r}')
    for name, f in core.metrics.items():
        want = f.value(counts)
        if name not in got:
            wrong.add(name)
            bad.append(f'{name}: not reported (Arm: {f.text} = {want!r})')
            continue
        if len(got[name]) != 1:
            wrong.add(name)
            bad.append(f'{name}: reported {len(got[name])} times in a global report')
        for m in got[name]:
            if not agree(m.get('value'), want):
                wrong.add(name)
                bad.append(f'{name}: {m.get("value")!r} (reason {m.get("reason")!r}), want '
                           f'{want!r} from Arm\'s {f.text} with inputs '
                           f'{ {n: counts[n] for n in sorted(f.names)} }; pmuprof\'s formula '
                           f'{m.get("formula")!r}, inputs {m.get("inputs")!r}')
            elif m.get('requested') is not True:
                wrong.add(name)
                bad.append(f'{name}: asked for by -M, but "requested" is {m.get("requested")!r}')
    for name in sorted(set(got) - set(core.metrics)):
        if any(m.get('requested') for m in got[name]):
            bad.append(f'{name}: reported as requested, but Arm has no such metric')
    return bad, (f'{len(core.metrics) - len(wrong)} of '
                 f'{len(core.metrics)} metrics agree ({len(core.groups)} groups, '
                 f'{len(core.codes)} events)')


def check(pmuprof, base_path, telemetry, workdir):
    base = json.load(open(base_path))
    files = sorted(glob.glob(os.path.join(telemetry, 'pmu', 'cpu', '*', '*.json')))
    print(f'1..{len(files)}')
    failed = 0
    for i, path in enumerate(files, 1):
        core = Core(path)
        bad, summary = check_core(pmuprof, base, core, workdir)
        rel = os.path.relpath(path, telemetry)
        print(f'{"not ok" if bad else "ok"} {i} - {core.model} ({rel}): {summary}')
        for b in bad[:20]:
            print(''.join(f'#   {line}\n' for line in b.splitlines()), end='')
        if len(bad) > 20:
            print(f'#   ... and {len(bad) - 20} more')
        failed += bool(bad)
    return 1 if failed or not files else 0


def report(base_path, arm_file, out, changes):
    core = Core(arm_file)
    counts = core.counts()
    for c in changes:
        if c.startswith('-'):
            del counts[c[1:]]
        else:
            name, value = c.split('=')
            if name not in counts:
                raise ValueError(f'{arm_file}: no metric uses {name}')
            counts[name] = int(value)
    write_report(json.load(open(base_path)), core, counts, out)
    print(core.model)
    return 0


def main(argv):
    if len(argv) == 6 and argv[1] == 'check':
        return check(*argv[2:])
    if len(argv) >= 5 and argv[1] == 'report':
        return report(argv[2], argv[3], argv[4], argv[5:])
    print(f'usage: {argv[0]} check PMUPROF BASE.json TELEMETRY_DIR WORKDIR\n'
          f'       {argv[0]} report BASE.json ARM_FILE OUT.json [EVENT=COUNT | -EVENT]...',
          file=sys.stderr)
    return 2


if __name__ == '__main__':
    sys.exit(main(sys.argv))
