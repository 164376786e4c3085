#!/usr/bin/env python3
"""float_cmp.py EXPECTED ACTUAL — exit 0 iff the two outputs agree, where
float tokens (a '.' or an exponent, nan, inf) may differ by a relative
tolerance of 1e-6 (or an absolute one of 1e-9 near zero).  Everything else —
ints, bools, chars, strings, punctuation — must be identical.  The CUDA
back end's reductions and scans reassociate float operations and CUDA's
math library differs from glibc's by a few ulps (doc/codegen.md)."""
import math
import re
import sys

FLOAT = re.compile(r'-?(?:\d+\.\d*(?:e[-+]?\d+)?|\d+e[-+]?\d+|nan|inf)')


def split(text):
    parts, floats, pos = [], [], 0
    for m in FLOAT.finditer(text):
        parts.append(text[pos:m.start()])
        floats.append(float(m.group()))
        pos = m.end()
    parts.append(text[pos:])
    return parts, floats


def close(a, b):
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    if a == b:
        return True
    return abs(a - b) <= max(1e-6 * max(abs(a), abs(b)), 1e-9)


def agree(exp, act):
    """The rule above; also used by tests/gen/difftest.py (executor cuda)."""
    pe, fe = split(exp)
    pa, fa = split(act)
    return pe == pa and len(fe) == len(fa) and all(close(a, b) for a, b in zip(fe, fa))


def main():
    with open(sys.argv[1], errors='replace') as f:
        exp = f.read()
    with open(sys.argv[2], errors='replace') as f:
        act = f.read()
    sys.exit(0 if agree(exp, act) else 1)


if __name__ == '__main__':
    main()
