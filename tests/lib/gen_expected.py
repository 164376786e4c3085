#!/usr/bin/env python3
"""Generator for tests/lib/*.nesl and *.expected.

Every expected value in the test tables (lib_tests_*.py) was derived by hand from
/work/shared/NESL.md (or computed with plain python3 arithmetic where stated); this
file only formats those values the way NESL.md 5.9/10 prescribes (value printer,
@-printer, 120-column layout) and numbers the lines of runtime-error forms.
It never runs nesslc.   Usage:  python3 tests/lib/gen_expected.py
"""
import math, os, sys, struct
from decimal import Decimal

HERE = os.path.dirname(os.path.abspath(__file__))

class Ch:
    def __init__(self, c): self.c = c
class Fn:
    pass
FN = Fn()
class Raw:
    """already formatted value text"""
    def __init__(self, s): self.s = s

WARN = []

def _digits(r):
    """shortest round-trip digits of r>0: (digitstring, k) with r = 0.d1d2.. * 10^k"""
    d = Decimal(repr(r))
    sign, digs, exp = d.as_tuple()
    ds = ''.join(map(str, digs)).lstrip('0')
    k = len(''.join(map(str, digs))) + exp - (len(''.join(map(str, digs))) - len(ds))
    # recompute k robustly
    k = len(ds) + exp + (len(''.join(map(str, digs))) - len(ds)) - (len(''.join(map(str, digs))) - len(ds))
    ds2 = ds.rstrip('0') or '0'
    return ds2, len(ds) + exp

def lisp_float(x):
    if x == 0.0:
        return '0.0'
    if math.isinf(x) or math.isnan(x):
        raise ValueError('inf/nan')
    neg = x < 0
    r = abs(float('%.14e' % x))
    ds, k = _digits(r)
    if 1e-3 <= r < 1e7:
        if k <= 0:
            s = '0.' + '0' * (-k) + ds
        elif k >= len(ds):
            s = ds + '0' * (k - len(ds)) + '.0'
        else:
            s = ds[:k] + '.' + ds[k:]
    else:
        s = ds[0] + '.' + (ds[1:] or '0') + 'E' + str(k - 1)
    return ('-' if neg else '') + s

def at_float(x):
    if x == 0.0:
        return '0.0'
    neg = x < 0
    m, e = ('%.7e' % abs(x)).split('e')
    e = int(e)
    ds = m.replace('.', '').rstrip('0') or '0'
    k = e + 1
    if -2 <= k <= 7:
        if k <= 0:
            s = '0.' + '0' * (-k) + ds
        elif k >= len(ds):
            s = ds + '0' * (k - len(ds)) + '.0'
        else:
            s = ds[:k] + '.' + ds[k:]
    else:
        s = ds[0] + '.' + (ds[1:] or '0') + 'e' + ('+' if e >= 0 else '-') + str(abs(e))
    return ('-' if neg else '') + s

def _nudge(x, n):
    b = struct.unpack('<q', struct.pack('<d', x))[0]
    return struct.unpack('<d', struct.pack('<q', b + n))[0]

def check_robust(x, f):
    if x == 0.0 or math.isinf(x): return
    for n in (-1, 1):
        if f(_nudge(x, n)) != f(x):
            WARN.append('float %r not robust under %s' % (x, f.__name__))

def fmt(v):
    if isinstance(v, Raw): return v.s
    if isinstance(v, bool): return 'T' if v else 'F'
    if isinstance(v, int):
        assert -2**31 <= v < 2**31, v
        return str(v)
    if isinstance(v, float):
        check_robust(v, lisp_float)
        return lisp_float(v)
    if isinstance(v, Ch): return '`' + v.c
    if isinstance(v, Fn): return 'fn'
    if isinstance(v, str):
        return '"' + v.replace('\\', '\\\\').replace('"', '\\"') + '"'
    if isinstance(v, list):
        items = [fmt(e) for e in v[:100]]
        return '[' + ', '.join(items) + (',...' if len(v) > 100 else '') + ']'
    if isinstance(v, tuple):
        assert len(v) >= 2
        return '(' + ', '.join(fmt(e) for e in v) + ')'
    raise TypeError(repr(v))

def at(v):
    """NESL @ (function string)"""
    if isinstance(v, bool): return 't' if v else 'f'
    if isinstance(v, int): return str(v)
    if isinstance(v, float):
        check_robust(v, at_float)
        return at_float(v)
    if isinstance(v, Ch): return '`' + v.c
    if isinstance(v, Fn): return 'function'
    if isinstance(v, str): return '[' + ', '.join('`' + c for c in v) + ']'
    if isinstance(v, list): return '[' + ', '.join(at(e) for e in v) + ']'
    if isinstance(v, tuple): return '(' + ', '.join(at(e) for e in v) + ')'
    raise TypeError(repr(v))

def result_line(name, val, ty):
    v = fmt(val)
    line = '%s = %s : %s' % (name, v, ty)
    if 112 <= len(line) <= 128:
        WARN.append('near-120 line (%d): %s' % (len(line), line[:60]))
    if len(line) <= 120:
        return line
    return '%s = \n  %s\n   : %s' % (name, v, ty)

# ---- forms -------------------------------------------------------------
class Form:
    def __init__(self, src, out, kind='ok'):
        self.src, self.out, self.kind = src, out, kind

def E(src, val, ty, pre=''):
    """expression form; pre = side-effect text printed before the result line"""
    return Form(src, lambda f, l: pre + result_line('it', val, ty))
def B(src, name, val, ty, pre=''):
    return Form(src, lambda f, l: pre + result_line(name, val, ty))
def D(src, name, ty):
    return Form(src, lambda f, l: '%s = fn : %s' % (name, ty))
def ERR(src, msg, pre='', col=1):
    """col: column of the failing sub-expression (1 = the start of the form)"""
    return Form(src, lambda f, l: pre + '%s.nesl:%d:%d: RUNTIME ERROR: %s' % (f, l, col, msg), 'err')
def C(text):
    """comment-only line(s), no output"""
    return Form(text, lambda f, l: None, 'comment')

TESTS = []
def T(name, desc, forms):
    assert not any(t[0] == name for t in TESTS), name
    TESTS.append((name, desc, forms))

def write_all():
    PROVISIONAL = []
    for name, desc, forms in TESTS:
        src_lines = ['% ' + name + ': ' + desc + ' %']
        out_lines = []
        nforms = 0
        for fm in forms:
            line_no = len(src_lines) + 1
            src_lines.extend(fm.src.split('\n'))
            o = fm.out(name, line_no)
            if fm.kind != 'comment':
                nforms += 1
            if fm.kind == 'err':
                assert name.startswith('lib_errors_'), name
                PROVISIONAL.append((name, o.split('\n')[-1]))
            if o is not None:
                out_lines.append(o)
        assert 3 <= nforms <= 15, (name, nforms)
        with open(os.path.join(HERE, name + '.nesl'), 'w') as fh:
            fh.write('\n'.join(src_lines) + '\n')
        with open(os.path.join(HERE, name + '.expected'), 'w') as fh:
            fh.write('\n'.join(out_lines) + '\n')
    return PROVISIONAL

if __name__ == '__main__':
    sys.path.insert(0, HERE)
    import glob, importlib
    for p in sorted(glob.glob(os.path.join(HERE, 'lib_tests_*.py'))):
        importlib.import_module(os.path.basename(p)[:-3])
    import gen_expected as G   # the tables register into this module instance
    prov = G.write_all()
    print('%d test files written' % len(G.TESTS))
    for w in G.WARN: print('WARNING:', w)
    if '--list-provisional' in sys.argv:
        for n, l in prov: print(l)
