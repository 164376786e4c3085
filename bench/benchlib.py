"""bench/benchlib.py — the benchmark list and the helpers shared by
bench/validate.py (here, interpreters against bench/ref.py), bench/harness.py
(on the GPU machine) and the Makefile (`python3 bench/benchlib.py instances`).

A benchmark instance is a template bench/progs/NAME.nesl.in with @N@ (and
@SEG@ for the segmented micro-benchmarks) replaced, prefixed with
bench/progs/common.nesl (the input generator), and a baseline executable
build/bench/base/BASE taking the same parameters: BASE N [SEG].

Every program ends with two forms: the timed form (the computation, most
often a global assignment of its result) and the checksum form (a small
tuple).  The timed form is the second-to-last top-level form, whatever the
numbering of the `nesl-time form K:` lines (from 0 or 1, with or without
function definitions): the harness takes the second-largest K.
"""
import os
import re

HERE = os.path.dirname(os.path.abspath(__file__))

# (name, template, baseline, float32, [(label, N, SEG)], small (N, SEG), float tol, int tol)
#   float tol / int tol: relative tolerance when comparing checksum components
#   that are floats / ints (ints derived from float arithmetic may move a little).
APPS = [
    ("dot",          "dot",          "dot",          True,  [("1e6", 10**6, None), ("1e8", 10**8, None)], (1000, None), 1e-5, 0),
    ("norm2",        "norm2",        "norm2",        True,  [("1e8", 10**8, None)], (1000, None), 1e-4, 0),
    ("blackscholes", "blackscholes", "blackscholes", True,  [("1e7", 10**7, None)], (300, None), 1e-3, 0),
    ("mandelbrot",   "mandelbrot",   "mandelbrot",   True,  [("2000^2", 2000, None)], (40, None), 1e-3, 5e-3),
    ("spmv",         "spmv",         "spmv",         True,  [("1e6", 10**6, None)], (300, None), 1e-5, 0),
    ("quicksort",    "quicksort",    "sort_thrust",  False, [("1e6", 10**6, None), ("1e7", 10**7, None)], (2000, None), 0, 0),
    # N is the number of candidates; about 78.46% lie in the disk.
    ("quickhull",    "quickhull",    "quickhull",    True,  [("1e6", 1274500, None), ("1e7", 12745000, None)], (3000, None), 0, 0),
    ("barneshut",    "barneshut",    "barneshut",    True,  [("1e4", 10**4, None), ("1e5", 10**5, None)], (300, None), 1e-3, 1e-3),
    ("radixsort",    "radixsort",    "sort_cub",     False, [("1e7", 10**7, None)], (2000, None), 0, 0),
]

MICRO_SIZES = [("2^26", 1 << 26), ("2^28", 1 << 28)]
MICRO = [
    ("MAP",     "micro_map",     "micro map",     None),
    ("REDUCE",  "micro_reduce",  "micro reduce",  None),
    ("SCAN",    "micro_scan",    "micro scan",    None),
    ("FILTER",  "micro_filter",  "micro filter",  None),
    ("PERMUTE", "micro_permute", "micro permute", None),
    ("SEG_REDUCE/4",    "micro_segreduce", "micro segreduce", 4),
    ("SEG_REDUCE/1e6",  "micro_segreduce", "micro segreduce", 10**6),
    ("SEG_SCAN/4",      "micro_segscan",   "micro segscan",   4),
    ("SEG_SCAN/1e6",    "micro_segscan",   "micro segscan",   10**6),
]

# Targets of issue 6 (applications) and issue 4 (micro-benchmarks, at 2^28):
# the most nesslc ms / baseline ms may be.
TARGETS = {"dot": 1.05, "norm2": 1.05, "blackscholes": 1.05, "mandelbrot": 1.1, "spmv": 1.5,
           "quickhull": 2, "quicksort": 3, "barneshut": 3,
           "MAP": 1.2, "REDUCE": 1.2, "SCAN": 1.2, "FILTER": 1.2,
           "SEG_REDUCE/4": 1.5, "SEG_REDUCE/1e6": 1.5, "SEG_SCAN/4": 1.5, "SEG_SCAN/1e6": 1.5}
BASELINES = sorted({b.split()[0] for b in [a[2] for a in APPS] + [m[2] for m in MICRO]})
MICRO_SMALL = {None: 1024, 4: 1000, 10**6: 20000}   # small N (SEG 10^6 becomes 1000)


class Instance:
    def __init__(self, name, template, base, float32, label, n, seg, ftol, itol):
        self.name, self.template, self.base, self.float32 = name, template, base, float32
        self.label, self.n, self.seg, self.ftol, self.itol = label, n, seg, ftol, itol

    @property
    def args(self):
        return [str(self.n)] + ([str(self.seg)] if self.seg is not None else [])

    def base_cmd(self, bindir):
        """The baseline's command line."""
        words = self.base.split()
        return [os.path.join(bindir, words[0])] + words[1:] + self.args

    @property
    def stem(self):
        """File name of the instantiated program and its executable."""
        return "_".join([self.template] + self.args)


def instances(small=False):
    out = []
    for name, tmpl, base, f32, sizes, sm, ftol, itol in APPS:
        for label, n, seg in ([("small", sm[0], sm[1])] if small else sizes):
            out.append(Instance(name, tmpl, base, f32, label, n, seg, ftol, itol))
    for name, tmpl, base, seg in MICRO:
        sizes = [("small", MICRO_SMALL[seg], seg if seg != 10**6 else 1000)] if small else \
                [(label, n, seg) for label, n in MICRO_SIZES]
        for label, n, s in sizes:
            out.append(Instance(name, tmpl, base, False, label, n, s, 0, 0))
    return out


def instantiate(inst):
    """The NESL source text of an instance."""
    with open(os.path.join(HERE, "progs", "common.nesl")) as f:
        common = f.read()
    with open(os.path.join(HERE, "progs", inst.template + ".nesl.in")) as f:
        text = f.read()
    text = text.replace("@N@", str(inst.n))
    if inst.seg is not None:
        text = text.replace("@SEG@", str(inst.seg))
    if "@" in text:
        raise ValueError("%s: unreplaced parameter" % inst.template)
    return common + text


_NUM = re.compile(r"-?(?:\d+\.?\d*(?:[eE][-+]?\d+)?|inf|nan)")


def parse_values(text):
    """Numbers of a printed checksum ('it = (1, 2.5) : int, float' or '1 2.5')."""
    if text.startswith("it = "):
        text = text[5:].rsplit(" : ", 1)[0]
    vals = []
    for tok in _NUM.findall(text):
        vals.append(float(tok) if any(c in tok for c in ".eEn") else int(tok))
    return vals


def nesl_checksum(stdout):
    """The checksum: the last 'it = ...' line a NESL program printed."""
    lines = [l for l in stdout.splitlines() if l.startswith("it = ")]
    return parse_values(lines[-1]) if lines else None


def agree(a, b, ftol, itol):
    """Whether two checksums agree; floats (in either) within ftol relative."""
    if a is None or b is None or len(a) != len(b):
        return False
    for x, y in zip(a, b):
        floaty = isinstance(x, float) or isinstance(y, float)
        tol = ftol if floaty else itol
        if x != x or y != y:                 # NaN never passes
            return False
        if abs(x - y) > tol * max(abs(x), abs(y)):
            return False
    return True


def by_stem(stem):
    for small in (False, True):
        for i in instances(small):
            if i.stem == stem:
                return i
    raise KeyError(stem)


if __name__ == "__main__":
    # For bench/bench.mk:  instances | float32 | baselines | source STEM
    import sys
    cmd = sys.argv[1:]
    if cmd == ["instances"]:
        print(" ".join(i.stem for i in instances()))
    elif cmd == ["float32"]:
        print(" ".join(i.stem for i in instances() if i.float32))
    elif cmd == ["baselines"]:
        print(" ".join(BASELINES))
    elif len(cmd) == 2 and cmd[0] == "source":
        sys.stdout.write(instantiate(by_stem(cmd[1])))
    else:
        sys.exit("usage: benchlib.py instances | float32 | baselines | source STEM")
