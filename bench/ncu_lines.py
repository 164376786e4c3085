#!/usr/bin/env python3
"""bench/ncu_lines.py — where one kernel's warps stall, by source line and
by the source function around it, from Nsight Compute's source counters.

On the GPU machine, for a program built with -lineinfo
(NESSLC_NVCCFLAGS="-O2 -lineinfo" nesslc --keep ...):

    ncu --clock-control none -k regex:KERNEL -c 1 --set full -o rep PROG
    ncu -i rep.ncu-rep --page source --csv --print-source sass >src.csv
    cuobjdump -xelf all PROG && nvdisasm -g -c program.sm_90.cubin >prog.sass

then here, with the generated program kept as SRCDIR/program.cu beside
the runtime headers (rt/*.cuh, rt/*.h):

    python3 bench/ncu_lines.py src.csv prog.sass MANGLED_KERNEL SRCDIR [TOP]

The CSV gives each SASS instruction of the kernel (and the device
functions it calls, in the same section) its stall samples; the SASS's
line table (nvdisasm -g) gives each instruction's innermost source line.
Inlined code counts where it was written: a runtime helper's lines count
in the helper, not in the generated function that inlined it.  Prints the
stall reasons over the kernel, then the TOP (default 40) functions and
lines with the most samples, each with its two or three main reasons."""
import collections
import csv
import re
import sys


def line_table(sass_path, kernel):
    """Instruction offset -> (file name, line) in the kernel's section."""
    loc, cur, inside = {}, None, False
    for ln in open(sass_path):
        if ln.startswith('//-----'):
            inside = ('.text.' + kernel + ' ') in ln
            continue
        if not inside:
            continue
        m = re.match(r'\s*//## File "([^"]+)", line (\d+)', ln)
        if m:
            cur = (m.group(1).split('/')[-1], int(m.group(2)))
            continue
        m = re.match(r'\s*/\*([0-9a-f]{4,})\*/', ln)
        if m:
            loc[int(m.group(1), 16)] = cur
    return loc


DEF = re.compile(r'^(?:template <[^>]*>\s*)?(?:static |__device__ |__global__ |__forceinline__ |__noinline__ |NESL_BT_LEAF |inline )+.*?(\w+)\s*\(')


class Functions:
    """The function a source line lies in: the last definition above it."""
    def __init__(self, srcdir):
        self.srcdir, self.defs = srcdir, {}

    def of(self, f, line):
        if f not in self.defs:
            try:
                text = open(self.srcdir + '/' + f).read().split('\n')
            except OSError:
                text = []
            d = []
            for i, t in enumerate(text, 1):
                m = DEF.match(t)
                if m and not t.rstrip().endswith(';'):
                    d.append((i, m.group(1)))
                elif t.startswith('struct '):
                    d.append((i, 'struct ' + t.split()[1]))
                elif re.match(r'\s+__device__ \w.*\b(pull|store|store_f|op|pred|len)\(', t):
                    d.append((i, '(thunk) ' + re.search(r'\b(pull|store|store_f|op|pred|len)\(', t).group(1)))
            self.defs[f] = d
        best = '?'
        for i, n in self.defs[f]:
            if i > line:
                break
            best = n
        return best


def main(csv_path, sass_path, kernel, srcdir, top=40):
    rows = list(csv.reader(open(csv_path)))
    hdr = next(r for r in rows if r and r[0] == 'Address')
    col = {h: i for i, h in enumerate(hdr)}
    data = [r for r in rows if r and r[0].startswith('0x')]
    if not data:
        sys.exit('ncu_lines: no instructions in ' + csv_path)
    base = int(data[0][0], 16)
    loc = line_table(sass_path, kernel)
    if not loc:
        sys.exit('ncu_lines: no section .text.%s in %s' % (kernel, sass_path))
    stalls = [h for h in hdr if h.startswith('stall_') and 'Not Issued' not in h]
    samples = col['Warp Stall Sampling (All Samples)']
    by_line, why = collections.Counter(), collections.defaultdict(collections.Counter)
    total, unmapped = 0, 0
    for r in data:
        at = loc.get(int(r[0], 16) - base)
        if at is None:
            unmapped += 1
            at = ('?', 0)
        s = int(r[samples] or 0)
        by_line[at] += s
        total += s
        for h in stalls:
            why[at][h] += int(r[col[h]] or 0)
    if total == 0:
        sys.exit('ncu_lines: no samples')
    overall = collections.Counter()
    for w in why.values():
        overall.update(w)
    print('%d samples over %d instructions (%d without a line)' % (total, len(data), unmapped))
    print('stalls: ' + ', '.join('%s %.1f%%' % (h[6:], 100.0 * v / total) for h, v in overall.most_common(10)))

    def reasons(c, s, k):
        return ', '.join('%s %d%%' % (h[6:], 100 * v / max(s, 1)) for h, v in c.most_common(k))

    fns = Functions(srcdir)
    by_fn, fn_why = collections.Counter(), collections.defaultdict(collections.Counter)
    for at, s in by_line.items():
        k = (at[0], fns.of(*at))
        by_fn[k] += s
        fn_why[k].update(why[at])
    print('\n== by function (where the code was written)')
    for k, s in by_fn.most_common(top):
        print('%6.2f%%  %-22s %-36s %s' % (100.0 * s / total, k[0], k[1], reasons(fn_why[k], s, 3)))
    print('\n== by line')
    for at, s in by_line.most_common(top):
        print('%6.2f%%  %s:%d  %s' % (100.0 * s / total, at[0], at[1], reasons(why[at], s, 2)))


if __name__ == '__main__':
    if len(sys.argv) not in (5, 6):
        sys.exit(__doc__)
    main(*sys.argv[1:5], top=int(sys.argv[5]) if len(sys.argv) == 6 else 40)
