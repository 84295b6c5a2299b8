#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# tools/import-arm-telemetry.py: one-off developer script that drafted events/metrics/*.metrics
# (every core's metrics and groups) and the C1 cores' events/cores/c1-*.ev from Arm's telemetry
# specifications (ARM-software/telemetry-solution, pmu/cpu/*/*.json).
#
# Not part of the build. It was run once; the files it wrote are the project's source from then
# on. Rerunning it overwrites hand edits: diff its output against events/ first.
#
# Names, formulas, units, groups, stages, the top-down tree's links, codes and MIDRs are facts
# and carry over. Titles are NOT Arm's: they are spelled from the metric or group name (title()
# below). Event descriptions are composed from the event name by tools/import-arm-data.py's
# phrase dictionary, as for every other core, never Arm's text.
#
# Revisions: one metrics file per core, and one per revision range where Arm's formulas differ
# (Neoverse N2: r0p0, r0p1 and the unversioned file agree; r0p3 differs). C1-Pro's and
# C1-SME2's revisions, and C1-Premium and C1-Ultra, have the same formulas.
#
# usage: tools/import-arm-telemetry.py [TELEMETRY_DIR [EVENTS_DIR]]

import glob
import importlib.util
import json
import os
import re
import sys

REF = os.environ.get('PMUPROF_ARM_REFERENCE') or '../shared/reference'
TEL = sys.argv[1] if len(sys.argv) > 1 else REF + '/arm-telemetry'
OUT = sys.argv[2] if len(sys.argv) > 2 else 'events'
HERE = os.path.dirname(os.path.abspath(__file__))

# file (under pmu/cpu) -> (core id, revision range or None for every revision)
SOURCES = [
    ('neoverse/neoverse-n1.json', 'neoverse-n1', None),
    ('neoverse/neoverse-n2-r0p0.json', 'neoverse-n2', ('r0p0', 'r0p2')),
    ('neoverse/neoverse-n2-r0p3.json', 'neoverse-n2', ('r0p3', 'r15p15')),
    ('neoverse/neoverse-n3.json', 'neoverse-n3', None),
    ('neoverse/neoverse-v1.json', 'neoverse-v1', None),
    ('neoverse/neoverse-v2.json', 'neoverse-v2', None),
    ('neoverse/neoverse-v3.json', 'neoverse-v3', None),
    ('lumex/arm-c1-nano-r0p0-pmu.json', 'c1-nano', None),
    ('lumex/arm-c1-pro-r1p2-pmu.json', 'c1-pro', None),
    ('lumex/arm-c1-premium-r0p0-pmu.json', 'c1-premium', None),
    ('lumex/arm-c1-ultra-r0p0-pmu.json', 'c1-ultra', None),
    ('lumex/arm-c1-sme2-r1p2-pmu.json', 'c1-sme2', None),
]

ACRONYMS = {'l1', 'l1d', 'l1i', 'l2', 'l2d', 'l2i', 'l3', 'll', 'tlb', 'itlb', 'dtlb', 'mpki',
            'ipc', 'sve', 'fp', 'simd', 'sme', 'sme2', 'cme', 'za', 'iq', 'mcq', 'lse', 'cas',
            'fp16', 'fp32', 'fp64', 'bf16', 'int8', 'ase', 'crypto', 'dp', 'sp', 'hp', 'ls',
            'wfx', 'mmu', 'ptw', 'l1tlb', 'l2tlb', 'ilock', 'uop', 'uops', 'tage', 'btb'}


# C1 event names: prefixes read as a phrase before the rest, and the words the phrase
# dictionary of tools/import-arm-data.py lacks.
PREFIXES = [('CME_', 'SME2 unit: '), ('IMP_', ''), ('BRNL_', 'Branches without link: '),
            ('BL_', 'Branches with link: ')]
EXTRA_TOK = {
    'SSVE': 'streaming SVE', 'CME': 'SME2 unit', 'PWR': 'power', 'DSNP': 'snoop (data)',
    'LSE': 'LSE atomic', 'SE': 'SE', 'BLOCK': 'block', 'PAGE': 'page', 'ISNP': 'snoop (instruction)',
    'PRED2': 'second predictor', 'SCALE2': 'scaled by 2', 'CMEBOUND': 'bound by the SME2 unit',
    'HZ': 'Hz', 'SM': 'streaming mode', 'PENDING': 'pending', 'RECONNECT': 'reconnect',
    'ZA': 'ZA', 'FROM': 'from', 'TO': 'to', 'DISPATCH': 'dispatch', 'ZAREG': 'ZA register',
    'ZTREG': 'ZT register', 'TILE': 'tile', 'ISSUE': 'issue', 'MEMSYS': 'memory system',
    'BF16': 'BF16', 'MOPA': 'outer product', 'CORE': 'core', 'PF': 'prefetch', 'STORE': 'store',
    'ALU': 'ALU', 'MAC': 'multiply-accumulate', 'MMDP': 'matrix dot product',
    'MMMV': 'matrix move', 'MAX': 'maximum', 'TXDAT': 'data transmit', 'TXRSP': 'response transmit',
    'TXREQ': 'request transmit', 'DEADBLOCK': 'dead block', 'DIVSQRT': 'divide and square root',
    'DRAM': 'DRAM', 'DP0': 'DP0', 'DP1': 'DP1', 'LUT': 'lookup table', 'ATOMIC': 'atomic',
    'MEMCPYSET': 'memory copy and set', 'IMMED': 'immediate', 'IND': 'indirect',
    'INDNR': 'indirect non-return', 'TAKEN': 'taken', 'RETIRED': 'retired',
}


def title(name):
    """A title spelled from the name: 'l1d_cache_mpki' -> 'L1D cache MPKI'."""
    words = []
    for w in name.replace('_', ' ').split():
        lw = w.lower()
        words.append(w.upper() if lw in ACRONYMS else lw if lw == w.lower() or w.isupper() else w)
    text = ' '.join(words)
    return text[0].upper() + text[1:]


def load(path):
    with open(path) as f:
        return json.load(f)


def common_codes():
    codes = {}
    for line in open(os.path.join(OUT, 'common.ev')):
        f = line.split()
        if f and f[0] in ('arch', 'uarch'):
            codes[int(f[1], 16)] = f[2]
    return codes


def write_metrics(src, cid, revs):
    d = load(os.path.join(TEL, 'pmu', 'cpu', src))
    meth = d['methodologies']['topdown_methodology']
    stage = {g: 1 for g in meth['metric_grouping'].get('stage_1', [])}
    stage.update({g: 2 for g in meth['metric_grouping'].get('stage_2', [])})
    nexts = {m['name']: m['next_items'] for m in meth['decision_tree']['metrics']}
    pc = d['product_configuration']
    name = cid + ('-' + revs[0] if revs and revs[0] != 'r0p0' else '')
    path = os.path.join(OUT, 'metrics', name + '.metrics')
    with open(path, 'w') as f:
        span = '' if not revs else f' ({revs[0]} and later)' if revs[1] == 'r15p15' else f' ({revs[0]} to {revs[1]})'
        f.write(f'# events/metrics/{name}.metrics: the metrics of the {pc["product_name"]}{span}.\n'
                '# Format: events/README.md. Names, units, formulas, groups and stages: Arm\'s\n'
                f'# telemetry data ({src}).\n')
        f.write(f'core       {cid}\n')
        if revs:
            f.write(f'revisions  {revs[0]} {revs[1]}\n')
        for g, gd in d['groups']['metrics'].items():
            f.write(f'\ngroup {g}\n')
            f.write(f'  title    {title(g)}\n')
            if g in stage:
                f.write(f'  stage    {stage[g]}\n')
            f.write(f'  metrics  {" ".join(gd["metrics"])}\n')
        for m in sorted(d['metrics']):
            md = d['metrics'][m]
            formula = ' '.join(md['formula'].split())
            f.write(f'\nmetric {m}\n')
            f.write(f'  title    {title(m)}\n')
            f.write(f'  unit     {md["units"]}\n')
            f.write(f'  formula  {formula}\n')
            if nexts.get(m):
                f.write(f'  next     {" ".join(nexts[m])}\n')
    return len(d['metrics'])


def write_c1_events(src, cid, common, compose):
    d = load(os.path.join(TEL, 'pmu', 'cpu', src))
    pc = d['product_configuration']
    arch = pc['architecture'] + '-a'
    path = os.path.join(OUT, 'cores', cid + '.ev')
    evs = sorted(d['events'].items(), key=lambda kv: int(kv[1]['code'], 16))
    with open(path, 'w') as f:
        f.write(f'# events/cores/{cid}.ev: the {pc["product_name"]} and the events it implements.\n'
                '# Format: events/README.md. Names and codes: Arm\'s telemetry data.\n')
        f.write(f'core         {cid} {pc["product_name"]}\n')
        f.write(f'architecture {arch}\n')
        f.write(f'midr         {pc["implementer"]} {pc["part_num"]}\n')
        if pc.get('num_slots'):
            f.write(f'slots        {pc["num_slots"]}\n')
        for n, e in evs:
            code = int(e['code'], 16)
            if common.get(code) == n:
                f.write(f'uses   0x{code:04x} {n}\n')
            else:
                f.write(f'event  0x{code:04x} {n:<34} {compose(n)}\n')


def main():
    spec = importlib.util.spec_from_file_location('importarm', os.path.join(HERE, 'import-arm-data.py'))
    arm = importlib.util.module_from_spec(spec)
    saved = sys.argv
    sys.argv = [saved[0]]
    spec.loader.exec_module(arm)
    sys.argv = saved

    arm.TOK.update(EXTRA_TOK)
    arm.BRANCH_KIND.update({'UNCOND': 'unconditional', 'HINT': 'hinted'})
    arm.BRANCH_STATE.update({'HINT': 'hinted'})

    def compose(n):
        for pre, phrase in PREFIXES:
            if n.startswith(pre):
                rest = compose(n[len(pre):])
                return phrase + rest[0].lower() + rest[1:] if phrase else rest
        try:
            return arm.compose(n)
        except (SystemExit, KeyError, IndexError):
            return n.replace('_', ' ').capitalize()

    os.makedirs(os.path.join(OUT, 'metrics'), exist_ok=True)
    common = common_codes()
    total = 0
    for src, cid, revs in SOURCES:
        total += write_metrics(src, cid, revs)
        if cid.startswith('c1-'):
            write_c1_events(src, cid, common, compose)
    print(f'import-arm-telemetry: {total} metrics in {len(SOURCES)} files under {OUT}/metrics')


if __name__ == '__main__':
    main()
