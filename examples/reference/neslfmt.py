"""Independent model of NESL's top-level printing (NESL.md 5.9, 10), used by the
reference scripts in this directory to produce the NAME.expected files.

Value model: python int -> int, float -> float, bool -> bool, Char('a') -> char,
str -> [char] (string), list -> sequence, tuple -> tuple (printed flat, which is what
right-nested NESL tuples print as), Dt('name', (fields...)) -> datatype value.
"""
from decimal import Decimal
import sys

PRINT_LENGTH = 100


class Char:
    def __init__(self, c):
        self.c = c


class Dt:
    def __init__(self, name, fields):
        self.name = name
        self.fields = fields


def i32(x):
    """32-bit two's complement wrap."""
    x &= 0xFFFFFFFF
    return x - (1 << 32) if x >= (1 << 31) else x


def ffloat(x):
    """NESL float printing: round to 15 significant digits, then Common-Lisp style
    shortest form; fixed notation iff 1e-3 <= |x| < 1e7, else d.dddE<exp>."""
    assert x == x and abs(x) != float('inf')
    y = float('%.15g' % x)
    if y == 0.0:
        return '0.0'
    sign, digits, exp = Decimal(repr(y)).normalize().as_tuple()
    ds = ''.join(str(d) for d in digits)
    # value = 0.ds * 10^(point) where point = len(ds) + exp
    point = len(ds) + exp
    s = '-' if sign else ''
    if 1e-3 <= abs(y) < 1e7:
        if point <= 0:
            body = '0.' + '0' * (-point) + ds
        elif point >= len(ds):
            body = ds + '0' * (point - len(ds)) + '.0'
        else:
            body = ds[:point] + '.' + ds[point:]
        return s + body
    e = point - 1
    mant = ds[0] + '.' + (ds[1:] if len(ds) > 1 else '0')
    return s + mant + 'E' + str(e)


def fmt(v):
    if isinstance(v, bool):
        return 'T' if v else 'F'
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return ffloat(v)
    if isinstance(v, Char):
        return '`' + v.c
    if isinstance(v, str):
        return '"' + v.replace('\\', '\\\\').replace('"', '\\"') + '"'
    if isinstance(v, list):
        parts = [fmt(e) for e in v[:PRINT_LENGTH]]
        return '[' + ', '.join(parts) + (',...' if len(v) > PRINT_LENGTH else '') + ']'
    if isinstance(v, tuple):
        return '(' + ', '.join(fmt(e) for e in v) + ')'
    if isinstance(v, Dt):
        return v.name + fmt(tuple(v.fields))
    raise TypeError(v)


def fmt_top(v):
    """top-level value: an outermost tuple is printed with its parentheses too
    (`it = (2, "ab") : int, [char]`)."""
    return fmt(v)


LINES = []


def line(name, valstr, typ):
    s = '%s = %s : %s' % (name, valstr, typ)
    if 110 <= len(s) <= 130:
        print('WARNING: line length %d near the 120 boundary: %s' % (len(s), s[:60]), file=sys.stderr)
    if len(s) <= 120:
        LINES.append(s)
    else:
        LINES.append('%s = ' % name)
        LINES.append('  ' + valstr)
        LINES.append('   : ' + typ)


def fn(name, typ):
    line(name, 'fn', typ)


def val(name, v, typ):
    line(name, fmt_top(v), typ)


def it(v, typ):
    val('it', v, typ)


def emit(path):
    with open(path, 'w') as f:
        for l in LINES:
            f.write(l + '\n')
    print('\n'.join(LINES))


def nround(x):
    """NESL round for the values used here (x >= -0.5: trunc(x + 0.5));
    general recommended behaviour floor(x + 0.5)."""
    import math
    return math.floor(x + 0.5)


def safe_round(x, name=''):
    """round(x), asserting x is not within 1e-6 of a .5 boundary."""
    import math
    frac = x - math.floor(x)
    assert abs(frac - 0.5) > 1e-6, ('too close to rounding boundary', name, x)
    return nround(x)


# ---- summation orders: NESL leaves the order of float sums unspecified, so a
# printed float must come out the same under each of these ----
def sum_fwd(v):
    s = 0.0
    for e in v: s += e
    return s
def sum_rev(v): return sum_fwd(v[::-1])
def sum_pairwise(v):
    if len(v) <= 2: return sum_fwd(v)
    h = len(v) // 2
    return sum_pairwise(v[:h]) + sum_pairwise(v[h:])
def sum_orders(shuffle_seed):
    """The five orders; shuffle_seed(v) picks the seed of the shuffled one."""
    import math, random
    def shuffled(v):
        w = list(v); random.Random(shuffle_seed(v)).shuffle(w); return sum_fwd(w)
    return [sum_fwd, sum_rev, sum_pairwise, math.fsum, shuffled]
