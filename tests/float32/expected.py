#!/usr/bin/env python3
"""expected.py — the expected outputs of the -ffloat32 tests, computed
independently of nesslc: every float intermediate is rounded to IEEE single
precision with struct ('f'), in the order the program evaluates it, and
printed the way doc/decisions.md says a float32 prints (the shortest decimal
that reads back to the same float32).  Usage: expected.py arith|kernels
(prints NAME.expected on stdout)."""
import math
import struct
import sys


def f(x):
    """x rounded to the nearest float32 (overflow: an infinity)."""
    try:
        return struct.unpack('f', struct.pack('f', x))[0]
    except OverflowError:
        return math.copysign(math.inf, x)


def shortest(x):
    """(digits, exponent, negative): the fewest significant digits that read back to float32 x."""
    for prec in range(0, 9):
        s = '%.*e' % (prec, x)
        if f(float(s)) == x:
            break
    mant, exp = s.split('e')
    neg = mant.startswith('-')
    digits = mant.lstrip('-').replace('.', '').rstrip('0') or '0'
    return digits, int(exp), neg


def nesl_float(x):
    """NESL's top-level float form (rt/rt_print.c, interp/print.c)."""
    if x == 0:
        return '0.0'
    d, e, neg = shortest(x)
    sign = '-' if neg else ''
    if -3 <= e <= 6:
        if e >= 0:
            ip = (d + '0' * (e + 1))[:e + 1]
            fp = d[e + 1:] or '0'
            return sign + ip + '.' + fp
        return sign + '0.' + '0' * (-e - 1) + d
    return sign + d[0] + '.' + (d[1:] or '0') + 'E' + str(e)


def lcu_float(x):
    """a λcu main's float form (rt/rt_put.c): the shortest %g that reads
    back, plus ".0" when it shows no '.' or exponent"""
    for prec in range(1, 10):
        s = '%.*g' % (prec, x)
        if f(float(s)) == x:
            break
    return s if any(c in s for c in '.enia') else s + '.0'


def seq(xs, fmt=nesl_float):
    return '[' + ', '.join(fmt(x) for x in xs) + ']'


def iseq(xs):
    return '[' + ', '.join(str(x) for x in xs) + ']'


def fsum(xs, init=0.0):
    s = init
    for x in xs:
        s = f(s + x)
    return s


def exscan(xs):
    out, s = [], 0.0
    for x in xs:
        out.append(s)
        s = f(s + x)
    return out


def rank(xs):
    """stable ascending ranks; -0.0 == 0.0"""
    order = sorted(range(len(xs)), key=lambda i: xs[i])
    r = [0] * len(xs)
    for pos, i in enumerate(order):
        r[i] = pos
    return r


def arith():
    out = []
    it = lambda v, t='float': out.append('it = %s : %s' % (v, t))
    it(nesl_float(f(f(16777216.0) + f(1.0))))
    it(nesl_float(f(1.0 / 3.0)))
    it(nesl_float(f(f(0.1) + f(0.2))))
    it(nesl_float(f(16777217)))
    x = f(0.1)
    out.append('x = %s : float' % nesl_float(x))
    it(nesl_float(f(x * 3.0)))
    it(seq([f(f(f(a) * f(b)) + 0.5) for a, b in zip([1.1, 2.2, 3.3], [0.7, 0.9, 1.3])]), '[float]')
    it(nesl_float(fsum([f(0.1)] * 10)))
    it(seq(exscan([f(v) for v in [0.1, 0.2, 0.3, 0.4]])), '[float]')
    it(nesl_float(3.125))
    it(nesl_float(-2.25))
    it(iseq(rank([f(v) for v in [3.0, -0.0, 1.0e30, 0.0, -1.0e-30, 3.0]])), '[int]')
    it(seq(sorted(f(v) for v in [2.5, -1.0, 0.1, 1.0e10, 0.0])), '[float]')
    it(iseq([math.floor(f(v) + 0.5) for v in [2.5, -2.5, 0.49999997, 16777215.0, 1.0e-7]]), '[int]')
    it(iseq([math.trunc(f(v)) for v in [2.7, -2.7, 33554431.0]]), '[int]')
    it(iseq([math.floor(f(v)) for v in [-0.1, 1.9999999]]), '[int]')
    it(iseq([math.ceil(f(v)) for v in [-0.1, 1.0000001]]), '[int]')
    it(seq([f(v) for v in [1.0e10, 1.0e-5, 123456789.0, 0.001, 1000000.0, 10000000.0, 3.4e38]]), '[float]')
    it(nesl_float(f(math.sqrt(f(2.0)))))
    it(seq([f(math.pow(f(v), 0.5)) for v in [2.0, 9.0]]), '[float]')
    it(seq([min(f(a), f(b)) for a, b in zip([0.1, 2.0], [0.2, 1.0])]), '[float]')
    it(seq([max(f(a), f(b)) for a, b in zip([0.1, 2.0], [0.2, 1.0])]), '[float]')
    assert math.isinf(f(f(1.0e30) * f(1.0e10)))   # overflows in float32 (not in double)
    out.append('arith.nesl:27:1: RUNTIME ERROR: Cannot print an infinite or NaN float value.')
    return out


def kernels():
    out = [lcu_float(f(f(16777216.0) + f(1.0))), lcu_float(f(1.0 / 3.0))]
    xs = [f(float(i) * f(0.1)) for i in range(8)]
    out.append(seq(xs, lcu_float))
    out.append(seq(exscan(xs), lcu_float))
    out.append(seq([fsum(xs[0:3]), 0.0, fsum(xs[3:8])], lcu_float))
    out.append(seq([x for x in xs if x > f(0.35)], lcu_float))
    out.append(iseq([math.trunc(f(x * f(10.0))) for x in xs]))
    # sqrt(x) + fpow(x, 3): fpow by repeated squaring: r = x, then r * (x * x)
    out.append(seq([f(f(math.sqrt(x)) + f(x * f(x * x))) for x in xs], lcu_float))
    out.append(iseq(rank([f(0.3), -0.0, f(f(0.1) + f(0.2)), 0.0, -1.0])))
    n = 262144
    fs = [f(float(i % 64) * 0.25) for i in range(n)]
    out.append(lcu_float(fsum(fs)))
    out.append(lcu_float(fsum(fs[:n - 1])))
    out.append(lcu_float(max(f(v * f(0.1)) for v in fs)))
    return out


if __name__ == '__main__':
    print('\n'.join({'arith': arith, 'kernels': kernels}[sys.argv[1]]()))
