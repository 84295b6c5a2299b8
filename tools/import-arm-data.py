#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# tools/import-arm-data.py: one-off developer script that drafted events/ from Arm's PMU data.
#
# Not part of the build (the build needs only a C compiler: tools/evgen.c reads events/).
# It was run once to produce a first draft of events/common.ev and events/cores/*.ev; those
# files are the project's source from then on and are edited by hand. Rerunning it overwrites
# hand edits, so diff its output against events/ rather than committing it blindly.
#
# Names, codes, MIDRs, architectures and counter counts are facts and are carried over.
# Descriptions are NOT taken from Arm's text: they are composed from the event name with the
# phrase dictionary below (plus a few hand-written entries), then read and corrected by hand.
#
# usage: tools/import-arm-data.py [ARM_DATA_DIR [TELEMETRY_DIR [OUT_DIR]]]

import glob
import json
import os
import sys

REF = os.environ.get('PMUPROF_ARM_REFERENCE') or '../shared/reference'
ARM = sys.argv[1] if len(sys.argv) > 1 else REF + '/arm-data'
TEL = sys.argv[2] if len(sys.argv) > 2 else REF + '/arm-telemetry'
OUT = sys.argv[3] if len(sys.argv) > 3 else 'events'

# Cores left out: PMUv2 (Armv7) parts, and Cortex-R52 (AArch32-only Armv8-R with an MPU,
# no Linux; its data also lacks names and codes). Cortex-R82 is an AArch64 Armv8-R core that
# runs Linux, so it stays.
SKIP = {'cortex-r52'}


def common_range(code):
    return code < 0x40 or 0x4000 <= code <= 0x40FF or code >= 0x8000


# Whole-name descriptions where composing from tokens reads badly.
WHOLE = {
    'SW_INCR': 'Writes to the software increment register PMSWINC_EL0',
    'CPU_CYCLES': 'Processor clock cycles',
    'BUS_CYCLES': 'Bus clock cycles',
    'CNT_CYCLES': 'Cycles of the constant-frequency system counter',
    'INST_RETIRED': 'Instructions retired (architecturally executed)',
    'INST_SPEC': 'Operations executed speculatively',
    'OP_RETIRED': 'Micro-operations retired',
    'OP_SPEC': 'Micro-operations executed speculatively',
    'CHAIN': 'Overflows of the even counter of a chained pair (odd counters only)',
    'STALL': 'Cycles in which no operation was sent to execute',
    'STALL_FRONTEND': 'Cycles stalled with no operation issued because of the front end',
    'STALL_BACKEND': 'Cycles stalled with no operation issued because of the back end',
    'STALL_SLOT': 'Issue slots left empty, summed over all slots each cycle',
    'STALL_SLOT_BACKEND': 'Issue slots left empty because of the back end',
    'STALL_SLOT_FRONTEND': 'Issue slots left empty because of the front end',
    'STALL_BACKEND_MEM': 'Back-end stall cycles waiting on memory',
    'BR_MIS_PRED': 'Branches mispredicted or not predicted, speculative',
    'BR_PRED': 'Branches the predictor could predict, speculative',
    'BR_RETIRED': 'Branches retired',
    'BR_MIS_PRED_RETIRED': 'Retired branches that were mispredicted',
    'BR_MIS_PRED_C64': 'Branch mispredictions found by C64 capability checks',
    'BR_MIS_PRED_RS': 'Branch mispredictions in Restricted mode',
    'BR_MIS_PRED_SYS': 'Branch mispredictions from system permission checks',
    'MMU_PTW': 'Cycles spent in MMU translation table walks',
    'MEM_ACCESS_PERCYC': 'Data memory accesses in flight, per cycle',
    'MEM_ACCESS_RD_PERCYC': 'Data memory reads in flight, per cycle',
    'MEM_ACCESS_WR_PERCYC': 'Data memory writes in flight, per cycle',
    'MEM_ACCESS_RD_CTAG': 'Data memory reads of a valid capability',
    'MEM_ACCESS_WR_CTAG': 'Data memory writes of a valid capability',
    'EXC_TAKEN': 'Exceptions taken',
    'EXC_RETURN': 'Exception returns retired',
    'MEM_ACCESS': 'Data memory accesses',
    'MEMORY_ERROR': 'Local memory errors (ECC or parity)',
    'BUS_ACCESS': 'Accesses on the core bus interface',
    'LL_CACHE': 'Last-level cache accesses',
    'LL_CACHE_MISS': 'Last-level cache misses',
    'LL_CACHE_RD': 'Last-level cache read accesses',
    'LL_CACHE_MISS_RD': 'Last-level cache read misses',
    'REMOTE_ACCESS': 'Accesses to memory on another socket',
    'REMOTE_ACCESS_RD': 'Reads from memory on another socket',
    'PC_WRITE_RETIRED': 'Retired software changes of the program counter',
    'PC_WRITE_SPEC': 'Speculative software changes of the program counter',
    'TTBR_WRITE_RETIRED': 'Retired writes to a translation table base register',
    'CID_WRITE_RETIRED': 'Retired writes to CONTEXTIDR',
    'SAMPLE_POP': 'Operations in the statistical profiling sample population',
    'SAMPLE_FEED': 'Statistical profiling samples taken',
    'SAMPLE_FILTRATE': 'Statistical profiling samples kept after filtering',
    'SAMPLE_COLLISION': 'Statistical profiling samples lost to a collision with the previous one',
    'TRB_WRAP': 'Trace buffer write pointer wrap-arounds',
    'TRB_TRIG': 'Trace buffer trigger events',
    'PMU_OVFS': 'Overflows of counters usable at EL0 and EL1',
    'PMU_HOVFS': 'Overflows of counters reserved for EL2',
    'LDST_ALIGN_LAT': 'Loads and stores slowed by alignment',
    'LD_ALIGN_LAT': 'Loads slowed by alignment',
    'ST_ALIGN_LAT': 'Stores slowed by alignment',
    'MEM_ACCESS_CHECKED': 'Data memory accesses with an MTE tag check',
    'MEM_ACCESS_CHECKED_RD': 'Data memory reads with an MTE tag check',
    'MEM_ACCESS_CHECKED_WR': 'Data memory writes with an MTE tag check',
    'UNALIGNED_LDST_RETIRED': 'Retired unaligned loads and stores',
    'UNALIGNED_LDST_SPEC': 'Speculative unaligned loads and stores',
    'UNALIGNED_LD_SPEC': 'Speculative unaligned loads',
    'UNALIGNED_ST_SPEC': 'Speculative unaligned stores',
    'BRB_FILTRATE': 'Branch records captured by the branch record buffer',
    'INST_FETCH': 'Instruction memory accesses',
    'DTLB_WALK': 'Data TLB accesses needing a translation table walk',
    'ITLB_WALK': 'Instruction TLB accesses needing a translation table walk',
    'LF_STALL': 'Instruction-side stalls waiting for a linefill',
    'PTW_STALL': 'Instruction-side stalls waiting for a translation table walk',
    'STB_STALL': 'Stores merged in the store buffer',
    'PREDECODE_ERROR': 'Instruction predecode errors',
    'BIU_EXT_MEM_REQ': 'Requests to external memory',
    'BIU_EXT_MEM_REQ_NC': 'Requests to external non-cacheable memory',
    'DCACHE_SELF_HIT_VIPT': 'Data cache hits on its own alias (VIPT aliasing)',
    'EL2_ENTERED': 'Entries to EL2, reset excluded',
    'EXC_TRAP_HYP': 'Traps to the hypervisor',
    'ROUTER_STALL': 'Router arbitration contention between packets',
    'TLB_ACCESS': 'Level 2 TLB accesses',
    'TLB_MISS': 'Level 2 TLB misses',
    'UTLB_FLUSH': 'Level 1 TLB flushes',
    'CDBM_SET_SC': 'Capability store permission set by CDBM',
    'PCCRF_FULL': 'Cycles with the PCC register file full',
    'DC_ZVA_RET': 'Retired DC ZVA (zero a cache block) instructions',
    'SNP_ACCESS': 'Snoop requests received by the core',
    'IFU_GOTO_IDLE': 'Thread moves from active to idle in instruction fetch',
    'IFU_INSTR_PUSHED': 'Instructions this thread pushed into the issue queue',
    'IFU_ALL_THRDS_RDY': 'Cycles both threads are ready for fetch scheduling',
    'IFU_NOT_RDY_FOR_ARB': 'Fetch arbitration skipped this thread as not ready',
    'IFU_WIN_ARB_OTHER_ACT': 'Fetch arbitration won while the other thread was active',
    'IFU_WIN_ARB_OTHER_RDY': 'Fetch arbitration won while the other thread was ready',
    'IFU_MICRO_NO_INSTR1': 'Second instruction not pushed because it was not sequential',
    'IFU_MICRO_NO_PRED': 'Micro-predictor misses',
    'IFU_MICRO_HIT': 'Micro-predictor hits with an immediate redirect',
    'IFU_MICRO_NEG_HIT': 'Micro-predictor negative-cache hits',
    'IFU_MICRO_CORRECTION': 'Micro-predictor corrections',
    'IFU_MICRO_CADDR_MISPRED': 'Micro-predictor target address mispredictions',
    'IFU_MICRO_COND_MISPRED': 'Micro-predictor branch direction mispredictions',
    'IFU_IC_MISS_WAIT': 'Instruction cache misses from the prefetch block',
    'IFU_IUTLB_MISS_WAIT': 'Cycles waiting on the level 2 TLB after an instruction micro-TLB miss',
    'IFU_FLUSHED_TLB_MISS': 'Thread fetch flushes caused by a TLB miss',
    'IFU_FLUSHED_EXCL_TLB_MISS': 'Thread fetch flushes for reasons other than a TLB miss',
    'IFU_IC_LOOKUP_UNDER_MISS': 'Instruction cache lookups while the other thread misses',
    'IFU_IC_MISS_UNDER_MISS': 'Instruction cache misses while the other thread misses',
    'IFU_IC_LF_SP': 'Speculative instruction cache linefills',
    'DE_IQ_FULL': 'Cycles with the data engine issue queue full',
    'DP_IQ_FULL': 'Cycles with the data-processing issue queue full',
    'LS_IQ_FULL': 'Cycles with the load-store issue queue full',
    'D_LSU_SLOT_FULL': 'Cycles with every load-store unit slot busy',
    'INST_SPEC_LDST_NUKE': 'Instructions replayed for a read-after-read hazard',
    'CNT_ST_ZERO_BYTE': 'Bytes of zero written by stores',
    'CNT_ST_ZERO_16_BYTES': 'Stores writing 16 bytes of zero',
    'CP15_UTLB_REFILL': 'Level 1 TLB refills for CP15 operations',
    'PLD_UTLB_REFILL': 'Level 1 TLB refills for preloads',
    'PLDTLB_WALK': 'Prefetch accesses to the unified TLB needing a table walk',
    'L1I_WT_HIT': 'Level 1 instruction cache way-tracker hits',
    'L1D_WT_HIT_RD': 'Level 1 data cache way-tracker hits on reads',
    'L1D_WT_HIT_WR': 'Level 1 data cache way-tracker hits on writes',
    'L1D_WS_MODE': 'Cycles the L1 data cache is in write-streaming mode',
    'L2D_WS_MODE': 'Cycles the L2 cache is in write-streaming mode',
    'L3D_WS_MODE': 'Cycles the L3 cache is in write-streaming mode',
    'LL_WS_MODE': 'Cycles the last-level cache is in write-streaming mode',
    'L1D_WS_MODE_ENTER': 'Entries of the L1 data cache into write-streaming mode',
    'L1D_WS_MODE_ENTRY': 'Entries of the L1 data cache into write-streaming mode',
    'LLPP_ACTIVE': 'Cycles of the low-latency peripheral port',
    'LLPP_CYCLES': 'Cycles with LLPP transactions outstanding',
    'TCMS_CONTENTION': 'Stall cycles from contention for the TCMs',
    'TCMS_SERIALISATION_CONTENTION': 'Stall cycles from read/write channel contention for the TCMs',
    'TCM_ACCESS_I': 'Instruction TCM accesses from the fetch pipeline',
    'TCM_ACCESS_D_RD': 'TCM reads from the data side',
    'TCM_ACCESS_D_WR': 'TCM writes from the data side',
    'SYS_CACHE_RD': 'Cacheable reads served from the system cache or beyond',
    'SYS_CACHE_MISS_RD': 'Cacheable reads that missed the system cache',
    'LLRAM_SILENT_EVICT': 'L1 data cache LLRAM lines replaced without a write-back',
    'EXECUTIVE_ENTRY': 'Speculative entries to Executive (capability mode)',
    'EXECUTIVE_EXIT': 'Speculative exits from Executive (capability mode)',
    'LD_CAP_PERM_CLR_CTAG': 'Speculative loads that cleared a capability permission',
    'DFB_RETIRED': 'Retired data full-barrier instructions',
    'VSCTLR_WR_RETIRED': 'Retired writes to VSCTLR',
    'LD_RETIRED': 'Retired loads', 'ST_RETIRED': 'Retired stores',
    'DP_SPEC': 'Speculative integer data-processing operations',
    'VFP_SPEC': 'Speculative scalar floating-point (VFP) operations',
    'ASE_SPEC': 'Speculative Advanced SIMD operations',
    'TLB_L2TLB_L2WALK_ACCESS': 'L2 TLB level-2 walk cache lookups',
    'TLB_L2TLB_L2WALK_REFILL': 'L2 TLB level-2 walk cache refills',
    'TLB_L2TLB_LLWALK_ACCESS': 'L2 TLB last-level walk cache lookups',
    'TLB_L2TLB_LLWALK_REFILL': 'L2 TLB last-level walk cache refills',
    'TLB_L2TLB_S2_ACCESS': 'L2 TLB stage 2 (IPA) cache lookups',
    'TLB_L2TLB_S2_REFILL': 'L2 TLB stage 2 (IPA) cache refills',
    'L2D_L2WALK_TLB': 'L2 TLB level-2 walk cache lookups',
    'L2D_L2WALK_TLB_REFILL': 'L2 TLB level-2 walk cache refills',
    'L2D_LLWALK_TLB': 'L2 TLB last-level walk cache lookups',
    'L2D_LLWALK_TLB_REFILL': 'L2 TLB last-level walk cache refills',
    'L2D_WALK_TLB': 'L2 TLB walk cache lookups',
    'L2D_WALK_TLB_REFILL': 'L2 TLB walk cache refills',
    'L2D_S2_TLB': 'L2 TLB stage 2 (IPA) cache lookups',
    'L2D_S2_TLB_REFILL': 'L2 TLB stage 2 (IPA) cache refills',
    'L2D_CACHE_STASH_DROPPED': 'Cache stash requests the L2 dropped',
    'BUS_ACCESS_NOT_SHARED': 'Bus accesses to memory that is not normal cacheable shareable',
    'BUS_ACCESS_SHARED': 'Bus accesses to normal cacheable shareable memory',
    'BUS_ACCESS_NORMAL': 'Bus accesses to normal memory',
    'BUS_ACCESS_PERIPH': 'Bus accesses to device (peripheral) memory',
    'L1D_PREF_LINE_FILL': 'L1 data cache linefills started by the prefetcher',
    'L2D_PREF_LINE_FILL': 'L2 cache linefills started by the prefetcher',
    'L3_PREF_LINE_FILL': 'L3 cache linefills started by the prefetcher',
    'STREX_PASS_SPEC': 'Speculative store-exclusives that succeeded',
    'STREX_FAIL_SPEC': 'Speculative store-exclusives that failed',
    'CAS_NEAR_PASS': 'Speculative near compare-and-swaps that succeeded',
    'CAS_NEAR_SPEC': 'Speculative near compare-and-swap operations',
    'CAS_FAR_SPEC': 'Speculative far compare-and-swap operations',
    'MEM_ACCESS_RD': 'Data memory reads', 'MEM_ACCESS_WR': 'Data memory writes',
    'ETM_EXT_OUT0': 'ETM external output 0', 'ETM_EXT_OUT1': 'ETM external output 1',
    'DPU_BR_COND_MIS': 'Retired conditional branches the DPU mispredicted',
    'DPU_BR_COND_RETIRED': 'Retired conditional branches seen by the DPU',
    'DPU_BR_IND_MIS': 'Retired indirect branches the DPU mispredicted',
    'CID_EL0_WRITE_RETIRED': 'Retired writes to CID_EL0',
    'DDC_WRITE_RETIRED': 'Retired writes to the default data capability',
    'DDC_READ_SPEC': 'Speculative reads of the default data capability',
}

# Phrases for name tokens; composed in name order.
TOK = {
    'L1D': 'L1 data', 'L1I': 'L1 instruction', 'L2D': 'L2 data', 'L2I': 'L2 instruction',
    'L3D': 'L3 data', 'LL': 'last-level', 'L2': 'L2', 'L3': 'L3', 'L1PLD': 'L1 preload',
    'L2PLD': 'L2 preload', 'CACHE': 'cache', 'TLB': 'TLB', 'DTLB': 'data TLB',
    'ITLB': 'instruction TLB', 'UTLB': 'micro-TLB', 'IUTLB': 'instruction micro-TLB',
    'L2TLB': 'L2 TLB', 'REFILL': 'refills', 'ACCESS': 'accesses', 'ALLOCATE': 'allocations without refill',
    'ALLOC': 'allocations', 'WB': 'write-backs', 'INVAL': 'invalidations', 'VICTIM': 'of victims',
    'CLEAN': 'for cleaning or coherency', 'MISS': 'misses', 'HIT': 'hits', 'LMISS': 'long-latency misses',
    'RD': 'reads', 'WR': 'writes', 'RW': 'demand', 'INNER': 'from inside the cluster',
    'OUTER': 'from outside the cluster', 'PRFM': 'software prefetch', 'HWPRF': 'hardware prefetch',
    'PRF': 'prefetch', 'PREFETCH': 'prefetch', 'PREF': 'prefetch', 'PREFETCHER': 'prefetcher',
    'CTAG': 'with a valid capability tag', 'WALK': 'walks', 'STEP': 'walk steps',
    'HWUPD': 'hardware updates of descriptors', 'LARGE': 'large page', 'SMALL': 'small page',
    'PERCYC': 'in flight per cycle', 'BUS': 'bus', 'REQ': 'requests', 'MEM': 'memory',
    'NORMAL': 'normal memory', 'PERIPH': 'peripheral', 'SHARED': 'shareable',
    'NOT': 'non', 'BR': 'branches', 'IMMED': 'immediate', 'IMM': 'immediate', 'IND': 'indirect',
    'INDIRECT': 'indirect', 'INDNR': 'indirect non-return', 'RETURN': 'return', 'COND': 'conditional',
    'MIS': 'mispredicted', 'PRED': 'predicted', 'MISPRED': 'mispredicted', 'TAKEN': 'taken',
    'SKIP': 'not taken', 'ANY': 'any', 'ADDR': 'by address', 'NANO': 'nano-predictor',
    'QUEUE': 'queue', 'FULL': 'full', 'OVERFLOW': 'overflows', 'ASE': 'Advanced SIMD',
    'SVE': 'SVE', 'SME': 'SME', 'FP': 'floating-point', 'INT': 'integer', 'SIMD': 'SIMD',
    'FPASE': 'FP and Advanced SIMD', 'BASE': 'general-purpose', 'INST': 'instructions',
    'UOP': 'micro-ops', 'OPS': 'element ops', 'OP': 'ops', 'BYTES': 'bytes', 'FIXED': 'non-scalable',
    'SCALE': 'scalable', 'ADDSUB': 'add/subtract', 'CVT': 'conversion', 'DIV': 'divide',
    'DIV64': '64-bit divide', 'MUL': 'multiply', 'MUL64': '64-bit multiply',
    'MULH64': '64-bit high-half multiply', 'DOT': 'dot-product', 'DP': 'double-precision',
    'SP': 'single-precision', 'HP': 'half-precision', 'FMA': 'fused multiply-add',
    'MMLA': 'matrix multiply', 'PREDUCE': 'pairwise reduction', 'VREDUCE': 'vector reduction',
    'AREDUCE': 'across-vector reduction', 'RECPE': 'reciprocal estimate', 'SQRT': 'square root',
    'INT8': '8-bit integer', 'INT16': '16-bit integer', 'INT32': '32-bit integer',
    'INT64': '64-bit integer', 'NONFP': 'non-floating-point', 'LDST': 'load/store', 'LD': 'load',
    'ST': 'store', 'LD64': '64-byte load', 'ST64': '64-byte store', 'LDST64': '64-byte load/store',
    'LDSTNT': 'non-temporal load/store', 'LDNT': 'non-temporal load', 'STNT': 'non-temporal store',
    'MULTI': 'multi-vector', 'CONTIG': 'contiguous', 'NONCONTIG': 'non-contiguous',
    'GATHER': 'gather', 'SCATTER': 'scatter', 'LDFF': 'first-fault load', 'UNALIGNED': 'unaligned',
    'REG': 'register', 'PRF64': '64-byte prefetch', 'MOVPRFX': 'MOVPRFX', 'PLOOP': 'predicate loop',
    'WHILE': 'WHILE', 'TERM': 'terminating', 'TEST': 'test', 'PGEN': 'predicate-generating',
    'PREG': 'predicate-register', 'PPERM': 'predicate permute', 'PCNT': 'predicate count',
    'PSCAN': 'predicate scan', 'ZREG': 'Z-register', 'Z2R': 'Z to general register',
    'R2Z': 'general register to Z', 'VPU': 'vector unit', 'PERM': 'permute',
    'LOGIC': 'logical', 'MATH': 'arithmetic', 'CMP': 'compare', 'EXT': 'extended',
    'STALL': 'stall cycles', 'FRONTEND': 'front end', 'BACKEND': 'back end', 'SLOT': 'slots',
    'ILOCK': 'interlock', 'BUSY': 'busy', 'CPUBOUND': 'core-bound', 'MEMBOUND': 'memory-bound',
    'FLOW': 'flow control', 'FLUSH': 'flush', 'RENAME': 'rename full', 'AGU': 'address unit',
    'FPU': 'FP unit', 'RAW': 'read-after-write', 'STB': 'store buffer', 'HAZARD': 'hazard',
    'PDERR': 'predecode error', 'EXC': 'exceptions', 'DABORT': 'data abort or SError',
    'PABORT': 'instruction abort', 'IRQ': 'IRQ', 'FIQ': 'FIQ', 'SVC': 'SVC', 'HVC': 'HVC',
    'SMC': 'SMC', 'UNDEF': 'other synchronous', 'TRAP': 'trapped to a higher EL', 'OTHER': 'other',
    'SAMPLE': 'profiling samples', 'FEED': 'taken', 'EVENT': 'matching events',
    'LAT': 'over the latency threshold', 'CTI': 'cross-trigger', 'TRIGOUT4': 'output 4',
    'TRIGOUT5': 'output 5', 'TRIGOUT6': 'output 6', 'TRIGOUT7': 'output 7',
    'TRCEXTOUT0': 'trace unit external output 0', 'TRCEXTOUT1': 'trace unit external output 1',
    'TRCEXTOUT2': 'trace unit external output 2', 'TRCEXTOUT3': 'trace unit external output 3',
    'ETM': 'ETM', 'OUT0': 'output 0', 'OUT1': 'output 1', 'CRYPTO': 'cryptographic',
    'VFP': 'floating-point', 'DMB': 'DMB barrier', 'DSB': 'DSB barrier', 'ISB': 'ISB barrier',
    'CSDB': 'CSDB barrier', 'RC': 'release-consistency', 'LDREX': 'load-exclusive',
    'STREX': 'store-exclusive', 'PASS': 'succeeding', 'FAIL': 'failing', 'CAS': 'compare-and-swap',
    'NEAR': 'near', 'FAR': 'far', 'LDR': 'LDR', 'STR': 'STR', 'CAP': 'capability',
    'ALT': 'alternate-base', 'C64': 'C64', 'A64': 'A64', 'RS': 'restricted', 'SYS': 'system',
    'LDCT': 'LDCT', 'STCT': 'STCT', 'NO': 'no', 'CADDR': 'address', 'SCBNDS': 'SCBNDS',
    'NONEXACT': 'inexact bounds', 'CVTD': 'CVTD', 'RESTRICTED': 'Restricted mode',
    'MMU': 'MMU', 'PTW': 'table walk cycles', 'CP15': 'CP15', 'ISIDE': 'instruction side',
    'LSU': 'load-store unit', 'PLD': 'preload', 'ST1': 'stage 1', 'ST2': 'stage 2',
    'S2': 'stage 2', 'L2WALK': 'level-2 walk cache', 'LLWALK': 'last-level walk cache',
    'ETS': 'ETS replay', 'EVICT': 'evictions', 'LFB': 'linefill buffer', 'LFD': 'linefill',
    'LF': 'linefill', 'SET': 'set', 'RBUF': 'read buffer', 'SKID': 'skid', 'LINE': 'line',
    'FILL': 'fills', 'FHWPRF': 'first hit, hardware-prefetched', 'FPRFM': 'first hit, software-prefetched',
    'OFFSET': 'offset prefetcher', 'PATTERN': 'pattern prefetcher', 'SPATIAL': 'spatial prefetcher',
    'STRIDE': 'stride prefetcher', 'TLBD': 'TLB prefetcher', 'STASH': 'stash', 'DROPPED': 'dropped',
    'GR': 'GR', 'LLPP': 'LLPP', 'LLRAM': 'LLRAM', 'MM': 'main master', 'SPP': 'SPP',
    'TCMS': 'TCM slave port', 'TCM': 'TCM', 'SNP': 'snoop', 'MERGED': 'merged', 'TIMEOUT': 'timeouts',
    'D': 'data side', 'I': 'instruction side', 'PREDICATED': 'predicated', 'DPU': 'DPU', 'ERR': 'errors', 'DCU': 'data cache unit',
    'IFU': 'fetch unit', 'BTAC': 'BTAC', 'RAM': 'RAM', 'DATA': 'data', 'TAG': 'tag', 'WT': 'way-tracker',
    'IC': 'instruction cache', 'DC': 'DC', 'ZVA': 'ZVA', 'BARRIER': 'barrier',
    'RETIRED': 'retired', 'SPEC': 'speculative', 'WRITE': 'writes', 'READ': 'reads',
    'CNT': 'count', 'ZERO': 'zero', 'BYTE': 'byte', '16': '16', 'CID': 'CID', 'DDC': 'DDC',
    'EL0': 'EL0', 'EL2': 'EL2', 'M': 'M', 'U': 'U', 'Z': 'Z', 'SC': 'SC', 'PCC': 'PCC',
    'NC': 'non-cacheable', 'EXT_MEM': 'external memory', 'CONTENTION': 'contention',
    'ENTRY': 'entries', 'ENTER': 'entries', 'ENTERED': 'entered', 'EXIT': 'exits', 'MODE': 'mode',
    'WS': 'write-streaming', 'ERROR': 'errors', 'CORRECTION': 'corrections', 'LOOKUP': 'lookups',
    'UNATT': 'unattributable', 'CHECKED': 'tag-checked', 'ELTS': 'elements', 'IGRANULE': 'in-granule',
    'XGRANULE': 'cross-granule', 'PC': 'PC', 'ARB': 'arbitration', 'WIN': 'won', 'ACT': 'active',
    'RDY': 'ready', 'ALL': 'all', 'THRDS': 'threads', 'IQ': 'issue queue', 'DE': 'data engine',
    'DFB': 'DFB', 'FLG': 'flag-setting', 'FCM': 'FCM', 'SELF': 'self', 'VIPT': 'VIPT',
    'DCACHE': 'data cache', 'SILENT': 'silent', 'PUSHED': 'pushed', 'NUKE': 'replays',
    'MICRO': 'micro-predictor', 'INSTR': 'instruction', 'INSTR1': 'second instruction', 'NEG': 'negative',
    'CPU': 'CPU', 'FOR': 'for', 'UNDER': 'under', 'ISB_': 'ISB', 'GOTO': 'to', 'IDLE': 'idle',
    'ROUTER': 'router', 'TTBR': 'TTBR', 'VSCTLR': 'VSCTLR', 'WRAP': 'wraps', 'TRIG': 'triggers',
    'TRB': 'trace buffer', 'PMU': 'PMU', 'OVFS': 'overflows', 'HOVFS': 'EL2 overflows',
    'FILTRATE': 'kept after filtering', 'COLLISION': 'collisions', 'POP': 'population',
    'BRB': 'branch records', 'FETCH': 'fetches', 'EMPTY': 'empty', 'ACTIVE': 'active',
    'VARIABLE': 'variable', 'CDBM': 'CDBM', 'PCCRF': 'PCC register file', 'BIU': 'bus interface',
    'DP_IQ': 'DP issue queue', 'CONTIG_': '', 'ALIGN': 'alignment', 'CYCLES': 'cycles',
    'MEMORY': 'memory', 'NVEC': 'multi-vector', 'SW': 'software', 'INCR': 'increment',
    'INT_': '', 'LS': 'load-store', 'PREDECODE': 'predecode', 'NORMAL_': '', 'HYP': 'hypervisor',
    'SERIALISATION': 'serialisation', 'XPIPE': 'cross-pipe', 'CLR': 'cleared',
    'FAULT': 'faulting', 'PARTIAL': 'partial', 'RET': 'retired', 'UNPRED': 'unpredicated',
    'WAIT': 'waits', 'CHAIN': 'chain', 'EXECUTIVE': 'Executive', 'PLDTLB': 'preload TLB',
    'REMOTE': 'remote', 'PERIPH_': '', 'EXCL': 'excluding', 'FLUSHED': 'flushes',
}

# Nouns that, at the end of a name, make the rest qualifiers: "L1D_CACHE_REFILL_RD".
TAIL_QUAL = {'RD', 'WR', 'RW', 'INNER', 'OUTER', 'PRFM', 'HWPRF', 'PRF', 'CTAG', 'PERCYC',
             'VICTIM', 'CLEAN', 'LARGE', 'SMALL', 'PREFETCH', 'PREFETCHER', 'FPRFM', 'FHWPRF',
             'MERGED', 'FAIL', 'D', 'I', 'EVICT', 'OFFSET', 'PATTERN', 'SPATIAL', 'STRIDE', 'TLBD', 'ETS'}


def words(tokens):
    out = []
    for t in tokens:
        if t not in TOK:
            raise SystemExit(f'import-arm-data: no phrase for token {t!r}')
        if TOK[t]:
            out.append(TOK[t])
    return ' '.join(out)


# Name prefixes whose events read best as "<phrase>: <the rest>".
PREFIX = [
    ('STALL_SLOT_BACKEND', 'Back-end issue slots left empty'),
    ('STALL_BACKEND', 'Back-end stall cycles'),
    ('STALL_FRONTEND', 'Front-end stall cycles'),
    ('MMU_PTW', 'MMU translation table walk cycles'),
    ('EXC_TRAP', 'Exceptions trapped to a higher exception level'),
    ('EXC', 'Exceptions taken'),
    ('SAMPLE_FEED', 'Statistical profiling samples taken'),
    ('INST_SPEC', 'Speculative operations'),
    ('TLB_L2TLB', 'L2 TLB'),
    ('BUS_ACCESS', 'Bus accesses'),
    ('DPU_MEM_ERR', 'Memory errors reported to the DPU'),
]

BRANCH_KIND = {'IMMED': 'immediate', 'IMM': 'immediate', 'IND': 'indirect', 'INDIRECT': 'indirect',
               'INDNR': 'indirect non-return', 'RETURN': 'return', 'COND': 'conditional'}
BRANCH_STATE = {'MIS_PRED': 'mispredicted', 'PRED': 'predicted', 'TAKEN': 'taken',
                'SKIP': 'not taken', 'ADDR_MIS_PRED': 'target mispredicted',
                'ADDR_PRED': 'target predicted', 'ANY': 'any', 'MIS': 'mispredicted', 'ADDR_MIS': 'target mispredicted',
                'ACCESS': 'looked up', 'HIT': 'hit', 'QUEUE_FULL': 'queue full',
                'OVERFLOW': 'stack overflow', 'C64': 'C64', 'RS': 'restricted', 'SYS': 'system'}


def branch(name):
    """BR_<kind>_<state>[_RETIRED|_SPEC] -> "Retired indirect branches, mispredicted"."""
    toks = name.replace('MIS_PRED', 'MIS').split('_')[1:]
    lead = ''
    if toks and toks[-1] in ('RETIRED', 'SPEC'):
        lead = 'Retired ' if toks[-1] == 'RETIRED' else 'Speculative '
        toks = toks[:-1]
    nano = bool(toks) and toks[0] == 'NANO'
    if nano:
        toks = toks[1:]
    kind = []
    while toks and toks[0] in BRANCH_KIND:
        kind.append(BRANCH_KIND[toks.pop(0)])
    state = '_'.join(toks)
    if state and state not in BRANCH_STATE:
        parts = [BRANCH_STATE[t] for t in toks]
        state_txt = ', '.join(parts)
    else:
        state_txt = BRANCH_STATE.get(state, '')
    text = lead + ' '.join(kind + ['branches'])
    if nano:
        text += ' in the nano predictor'
    if state_txt:
        text += ', ' + state_txt
    return text[0].upper() + text[1:]


def compose(name):
    """A draft description built from the name's tokens (to be read and fixed by hand)."""
    if name in WHOLE:
        return WHOLE[name]
    if name.startswith('BR_'):
        return branch(name)
    for pre, phrase in PREFIX:
        if name.startswith(pre + '_'):
            rest = name[len(pre) + 1:].split('_')
            return phrase + ': ' + ', '.join(words([t]) for t in rest)
    if name.startswith('L2_') and name.endswith('_UNATT'):
        return 'Unattributable ' + words(name.split('_')[1:-1]) + ' (counted by the L2)'
    toks = name.split('_')
    if toks[0] in ('SVE', 'SME'):
        toks = ['PREDICATED' if t == 'PRED' else t for t in toks]
    lead = ''
    if toks[-1] == 'SPEC':
        lead, toks = 'Speculative ', toks[:-1]
    elif toks[-1] == 'RETIRED':
        lead, toks = 'Retired ', toks[:-1]
    quals = []
    while len(toks) > 1 and toks[-1] in TAIL_QUAL:
        quals.insert(0, TOK[toks[-1]])
        toks = toks[:-1]
    text = lead + words(toks)
    if toks[-1] in ('CACHE', 'TLB'):
        text += ' accesses'
    elif lead and not text.endswith('s'):
        text += ' operations'
    if quals:
        text += ' (' + ', '.join(quals) + ')'
    text = text.replace('Advanced SIMD SVE', 'Advanced SIMD and SVE')
    text = text[0].upper() + text[1:]
    return text


def testing_only(ev):
    # Arm marks some events as reserved for its own testing: say so rather than guess.
    return 'reserved for testing' in ev.get('description', '').lower()


def load(path):
    with open(path) as f:
        return json.load(f)


def common_events():
    evs = {}
    for fn in ('common_armv8.json', 'common_armv9.json'):
        for e in load(os.path.join(ARM, 'pmu', fn))['events']:
            if common_range(e['code']):
                evs.setdefault(e['code'], e)
    return evs


def slots_by_part():
    slots = {}
    for fn in glob.glob(os.path.join(TEL, 'pmu', 'cpu', '*', '*.json')):
        pc = load(fn).get('product_configuration', {})
        if pc.get('num_slots'):
            key = (int(pc['implementer'], 16), int(pc['part_num'], 16))
            slots[key] = pc['num_slots']
    return slots


def write_common(evs):
    path = os.path.join(OUT, 'common.ev')
    with open(path, 'w') as f:
        f.write('# events/common.ev: the common events of PMUv3 (Armv8.0 to Armv9.4), shared by\n'
                '# every core. Format: events/README.md.  class  code  name  description\n')
        for code in sorted(evs):
            e = evs[code]
            cls = 'arch' if e.get('architectural') else 'uarch'
            f.write(f'{cls:<6} 0x{code:04x} {e["name"]:<34} {compose(e["name"])}\n')


def core_id(title):
    return title.lower().replace(' ', '-')


def write_core(d, common, slots):
    title = d['cpu']
    cid = core_id(title)
    midr = int(d['cpuid'], 16)
    impl, part = midr >> 12, midr & 0xFFF
    path = os.path.join(OUT, 'cores', cid + '.ev')
    evs = sorted((e for e in d['events'] if 'name' in e and 'code' in e), key=lambda e: e['code'])
    with open(path, 'w') as f:
        f.write(f'# events/cores/{cid}.ev: the {title} and the events it implements.\n'
                '# Format: events/README.md.\n')
        f.write(f'core         {cid} {title}\n')
        f.write(f'architecture {d["architecture"]}\n')
        f.write(f'midr         0x{impl:02x} 0x{part:03x}\n')
        if 'counters' in d:
            f.write(f'counters     {d["counters"]}\n')
        if (impl, part) in slots:
            f.write(f'slots        {slots[(impl, part)]}\n')
        for e in evs:
            code, name = e['code'], e['name']
            if code in common and common[code]['name'] == name:
                f.write(f'uses   0x{code:04x} {name}\n')
            else:
                desc = 'Reserved by Arm for testing; undocumented' if testing_only(e) else compose(name)
                f.write(f'event  0x{code:04x} {name:<34} {desc}\n')
    return cid


def main():
    common = common_events()
    os.makedirs(os.path.join(OUT, 'cores'), exist_ok=True)
    write_common(common)
    slots = slots_by_part()
    n = 0
    for fn in sorted(glob.glob(os.path.join(ARM, 'pmu', '*.json'))):
        d = load(fn)
        if d.get('_type') != 'Events' or 'cpuid' not in d or d.get('pmu_architecture') != 'pmuv3':
            continue
        if core_id(d['cpu']) in SKIP:
            continue
        write_core(d, common, slots)
        n += 1
    print(f'import-arm-data: {len(common)} common events, {n} cores written under {OUT}/')


if __name__ == '__main__':
    main()
