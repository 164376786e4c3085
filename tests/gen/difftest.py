#!/usr/bin/env python3
"""difftest.py -- random-program differential testing of nesslc's executors.

Generates programs with nesl_gen.py (seeds SEED .. SEED+N-1), runs each one
through every executor, compares the complete outputs (stdout and stderr
merged, plus the exit status) and reports every disagreement with a
minimized reproducer.  See doc/difftest.md.

A program *agrees* when every executor printed exactly the same bytes, exited
with the same status, and none of them crashed (exit status >= 2, a signal)
or timed out.  Anything else is a disagreement -- also a program that the
reference front end rejects (a generator bug).

The last line printed is `N programs, K agree, D disagree`; the exit status
is nonzero iff D > 0.
"""

import argparse
import concurrent.futures as cf
import hashlib
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.dirname(HERE))
import nesl_gen  # noqa: E402
import float_cmp  # noqa: E402  (tests/float_cmp.py)

# --------------------------------------------------------------- executors
# (name, shell command).  The command runs in the program's directory with
# {nesslc} replaced by the compiler's absolute path and {src} by the program's
# file name; its stdout and stderr are merged.  The first executor is the
# reference: its front end decides whether a reduced program is still valid,
# and its output is what tests/difftest/*.expected hold.
#
# Each program runs in its own temporary directory, so a back end's
# executable needs no unique name.  `-O0` turns fusion off (driver/main.c):
# lcu0/c0/cuda0 run the unfused λcu program, lcu/c/cuda the fused one.  The
# C builds use $NESSLC_CC/$NESSLC_CFLAGS (the --cc/--cflags options).
# Another back end is one more line here, or --executor 'NAME=COMMAND'.
EXECUTORS = [
    ('ast', '{nesslc} --interp {src}'),
    ('lcu', '{nesslc} --interp=lcu {src}'),
    ('lcu0', '{nesslc} --interp=lcu -O0 {src}'),
    ('c', '{nesslc} -o prog.exe {src} && OMP_NUM_THREADS=2 ./prog.exe'),
    ('c0', '{nesslc} -O0 -o prog0.exe {src} && OMP_NUM_THREADS=2 ./prog0.exe'),
    ('cuda', '{nesslc} --target=cuda -o prog.exe {src} && ./prog.exe'),
    ('cuda0', '{nesslc} --target=cuda -O0 -o prog0.exe {src} && ./prog0.exe'),
]
# Run unless --executors names others: every executor that needs no GPU.
DEFAULT_EXECUTORS = 'ast,lcu,lcu0,c,c0'
# Executors whose float output may differ from the reference's in the last
# digits (reassociated reductions, CUDA's math library): their float tokens
# are compared with tests/float_cmp.py's tolerance.
FLOAT_TOLERANT = {'cuda', 'cuda0'}

COMPILE_ERROR = re.compile(r'^\S+:\d+:\d+: error: ', re.M)
CRASH_LINE = re.compile(r'(internal compiler error.*|Assertion.*|AddressSanitizer.*|'
                        r'runtime error:.*|Segmentation fault.*)')


# ------------------------------------------------------------------ running
def run_one(cmd, cwd, timeout):
    """Run a shell command; return (status, output).  status is the exit
    status, -SIG for a signal, or 'timeout'."""
    simple = not any(ch in cmd for ch in '&|;<>()`$')
    p = subprocess.Popen(['/bin/sh', '-c', 'exec ' + cmd if simple else cmd],
                         cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         stdin=subprocess.DEVNULL, start_new_session=True)
    try:
        out, _ = p.communicate(timeout=timeout)
        return p.returncode, out.decode('utf-8', 'replace')
    except subprocess.TimeoutExpired:
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        out, _ = p.communicate()
        return 'timeout', out.decode('utf-8', 'replace')


def run_all(text, executors, nesslc, timeout, workdir, name='prog.nesl'):
    path = os.path.join(workdir, name)
    with open(path, 'w') as f:
        f.write(text)
    res = []
    for ename, cmd in executors:
        res.append(run_one(cmd.format(nesslc=nesslc, src=name), workdir, timeout))
    return res


def klass(status, out):
    if status == 'timeout':
        return 'timeout'
    if status < 0:
        return 'signal%d' % -status
    if status >= 2:
        return 'exit%d' % status
    if status == 1 and COMPILE_ERROR.search(out) and 'RUNTIME ERROR' not in out:
        return 'compile-error'
    return 'runtime-error' if status == 1 else 'ok'


def crash_key(out):
    m = CRASH_LINE.search(out)
    if not m:
        return ''
    return re.sub(r'\d+', 'N', m.group(1))[:200]


def same_result(ref, r, tolerant):
    """Does result r equal the reference's?  With tolerant, float tokens may
    differ as tests/float_cmp.py allows."""
    if r == ref:
        return True
    return tolerant and r[0] == ref[0] and float_cmp.agree(ref[1], r[1])


def verdict(res, tolerant):
    """Return None if the results agree, else a signature (a tuple) that a
    reduced program must keep.  tolerant[i]: executor i's floats may differ
    in the last digits."""
    classes = tuple(klass(s, o) for s, o in res)
    same = all(same_result(res[0], r, t) for r, t in zip(res, tolerant))
    bad = any(c in ('timeout',) or c.startswith('signal') or c.startswith('exit')
              for c in classes)
    if classes[0] == 'compile-error':
        return ('invalid',) + classes
    if same and not bad:
        return None
    keys = tuple(crash_key(o) if not (c in ('ok', 'runtime-error', 'compile-error')) else ''
                 for (s, o), c in zip(res, classes))
    return classes + keys


ERROR_MSG = re.compile(r'(?:RUNTIME ERROR|error): (.*)')


def error_messages(res):
    """The set of error messages (numbers normalized) in all outputs."""
    msgs = set()
    for st, out in res:
        for m in ERROR_MSG.finditer(out):
            msgs.add(re.sub(r'\d+', 'N', m.group(1)))
        k = crash_key(out)
        if k:
            msgs.add(k)
    return msgs


def reduce_key(sig):
    """What a reduced program must keep: crashes, timeouts and compile
    errors exactly; a normal run and a run with a runtime error count as the
    same (the outputs must still differ)."""
    if sig is None:
        return None
    return tuple('ran' if c in ('ok', 'runtime-error') else c for c in sig)


def describe(sig, names):
    if sig[0] == 'invalid':
        return 'program rejected by the front end (generator bug)'
    n = len(names)
    parts = ['%s=%s' % (nm, c) for nm, c in zip(names, sig[:n])]
    keys = [k for k in sig[n:] if k]
    d = ' '.join(parts)
    if keys:
        d += ' (%s)' % keys[0]
    elif all(c == sig[0] for c in sig[:n]):
        d += ' (different output)'
    return d


# ---------------------------------------------------------------- tokens
TOKEN = re.compile(r'''
    (?P<ws>\s+) |
    (?P<comment>%[^%]*%) |
    (?P<str>"(?:\\.|[^"\\])*") |
    (?P<char>`.) |
    (?P<num>\d+\.\d*(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?|\d+[eE][+-]?\d+|\d+) |
    (?P<id>[A-Za-z_][A-Za-z0-9_]*) |
    (?P<op>->|<-|\+\+|==|/=|<=|>=|::|\|\||=>|[-+*/^#@<>=,;:$|()\[\]{}])
''', re.X | re.S)

KEYWORDS = {'function', 'datatype', 'if', 'then', 'else', 'let', 'in', 'and', 'or',
            'xor', 'nor', 'nand'}
OPEN = {'(': ')', '[': ']', '{': '}'}
CLOSE = {')', ']', '}'}
SEPS = {',', ';', ':', '|', 'in', 'then', 'else', 'if', 'let', '=>', '=', '+', '-', '*',
        '/', '++', '->', '<-', '==', '/=', '<', '>', '<=', '>=', 'and', 'or', 'xor',
        'nor', 'nand', '||', '^'}


def tokenize(text):
    toks = []
    pos = 0
    while pos < len(text):
        m = TOKEN.match(text, pos)
        if not m:
            raise ValueError('cannot tokenize at %r' % text[pos:pos + 20])
        pos = m.end()
        if m.lastgroup in ('ws', 'comment'):
            continue
        toks.append(m.group())
    return toks


def split_forms(toks):
    """Top-level forms: split at ';'/'$' outside brackets and outside the
    bindings of a `let` (whose ';' separate bindings)."""
    forms, cur = [], []
    lets = [0]          # open lets (before their `in`) per bracket depth
    for t in toks:
        cur.append(t)
        if t in OPEN:
            lets.append(0)
        elif t in CLOSE:
            if len(lets) > 1:
                lets.pop()
        elif t.lower() == 'let':
            lets[-1] += 1
        elif t.lower() == 'in' and lets[-1] > 0:
            lets[-1] -= 1
        elif t in (';', '$') and len(lets) == 1 and lets[0] == 0:
            forms.append(cur)
            cur = []
    if cur:
        forms.append(cur)
    return forms


def render_form(toks):
    out = ''
    prev = prev2 = None
    for t in toks:
        if prev is None:
            sep = ''
        elif prev == ']' and prev2 == '[':
            sep = ' '               # `[] int`, `[] [int]`
        elif t in (',', ';', ')', ']', '}') or prev in ('(', '[', '{', '#', '@'):
            sep = ''
        elif t in ('(', '[') and (re.match(r'[A-Za-z_]', prev) and prev.lower() not in KEYWORDS
                                 or prev in (')', ']')):
            sep = ''
        elif prev == '-' and out.endswith(('(-', '[-', ', -')):
            sep = ''
        else:
            sep = ' '
        out += sep + t
        prev2, prev = prev, t
    return out


def render(forms):
    return ''.join(render_form(f) + '\n' for f in forms)


# ---------------------------------------------------------------- reducer
class Reducer:
    def __init__(self, test, deadline, log=None):
        self.test = test          # text -> bool (still interesting)
        self.cache = {}
        self.deadline = deadline
        self.tests = 0

    def interesting(self, forms, text=None):
        if text is None:
            text = render(forms)
        h = hashlib.sha1(text.encode()).digest()
        if h not in self.cache:
            if time.time() > self.deadline:
                return False
            self.tests += 1
            self.cache[h] = self.test(text)
        return self.cache[h]

    def timed_out(self):
        return time.time() > self.deadline

    # pass 1: remove whole forms (ddmin over the list of forms)
    def reduce_forms(self, forms):
        n = 2
        while len(forms) >= 2 and not self.timed_out():
            chunk = max(1, len(forms) // n)
            removed = False
            i = 0
            while i < len(forms):
                cand = forms[:i] + forms[i + chunk:]
                if cand and self.interesting(cand):
                    forms = cand
                    removed = True
                else:
                    i += chunk
            if removed:
                n = max(n - 1, 2)
            elif chunk == 1:
                break
            else:
                n = min(len(forms), n * 2)
        return forms

    @staticmethod
    def spans(toks):
        """Candidate expression spans (i, j), half-open, largest first: bracket
        groups (with a preceding name: calls, subscripts) and the right-hand
        side of a form."""
        res = set()
        stack = []
        for k, t in enumerate(toks):
            if t in OPEN:
                stack.append(k)
            elif t in CLOSE and stack:
                i = stack.pop()
                res.add((i, k + 1))
                if i > 0 and re.match(r'[A-Za-z_]', toks[i - 1]) and \
                        toks[i - 1].lower() not in KEYWORDS:
                    res.add((i - 1, k + 1))
        # a form's expression: after the first top-level '=' of a definition
        # or binding, or the whole form
        end = len(toks) - 1 if toks and toks[-1] in (';', '$') else len(toks)
        depth = 0
        start = 0
        for k, t in enumerate(toks[:end]):
            if t in OPEN:
                depth += 1
            elif t in CLOSE:
                depth -= 1
            elif t == '=' and depth == 0:
                start = k + 1
                break
        if toks and toks[0].lower() != 'datatype' and end > start:
            res.add((start, end))
        return sorted(res, key=lambda s: (s[0] - s[1], s[0]))

    @staticmethod
    def parts(toks, i, j):
        """Sub-expressions of span [i, j): the pieces of its bracket contents
        between separators at depth 1."""
        if toks[i] not in OPEN:
            i += 1          # a call: look inside the argument group
            if i >= j or toks[i] not in OPEN:
                return [], []
        inner = toks[i + 1:j - 1]
        pieces, cur, depth = [], [], 0
        seps = []           # (start, end) of comma/semicolon separated items
        item_start = 0
        for k, t in enumerate(inner):
            if t in OPEN:
                depth += 1
            elif t in CLOSE:
                depth -= 1
            if depth == 0 and t in SEPS and not (t == '-' and not cur):
                if cur:
                    pieces.append(cur)
                cur = []
                if t in (',', ';'):
                    seps.append((item_start, k))
                    item_start = k + 1
                continue
            cur.append(t)
        if cur:
            pieces.append(cur)
        if seps:
            seps.append((item_start, len(inner)))
        items = [(i + 1 + a, i + 1 + b) for a, b in seps]
        return pieces, items

    @staticmethod
    def atomic(p):
        """A single token, bracket group, or call/subscript: needs no
        parentheses."""
        if len(p) == 1:
            return True
        if p[:2] == ['[', ']']:         # `[] TYPE`
            return Reducer.atomic(p[2:])
        k = 1 if re.match(r'[A-Za-z_]', p[0]) and p[0].lower() not in KEYWORDS else 0
        if k >= len(p) or p[k] not in OPEN:
            return False
        depth = 0
        for m in range(k, len(p)):
            if p[m] in OPEN:
                depth += 1
            elif p[m] in CLOSE:
                depth -= 1
                if depth == 0 and m != len(p) - 1:
                    return False
        return True

    LITERALS = [['0'], ['1'], ['t'], ['f'], ['1.0'], ['`a'], ['[', ']', 'int'], ['[', '0', ']']]

    def reduce_exprs(self, forms):
        progress = True
        while progress and not self.timed_out():
            progress = False
            for fi in range(len(forms)):
                k = 0
                while not self.timed_out():
                    toks = forms[fi]
                    sp = self.spans(toks)
                    if k >= len(sp):
                        break
                    i, j = sp[k]
                    pieces, items = self.parts(toks, i, j)
                    cands = []
                    # a bracket group right after a name or a closing bracket
                    # is an argument list: replacing it alone would make a
                    # juxtaposition, so only its items are dropped
                    arg = toks[i] in OPEN and i > 0 and (
                        toks[i - 1] in (')', ']') or
                        re.match(r'[A-Za-z_]', toks[i - 1]) and toks[i - 1].lower() not in KEYWORDS)
                    for lit in ([] if arg else self.LITERALS):
                        cands.append(toks[:i] + lit + toks[j:])
                    for p in ([] if arg else sorted(pieces, key=len)):
                        if len(p) < j - i:
                            wrapped = p if self.atomic(p) else ['('] + p + [')']
                            cands.append(toks[:i] + wrapped + toks[j:])
                    # drop one item of a list, tuple, let or generator list
                    for a, b in items:
                        lo, hi = a, b
                        if hi < j - 1 and toks[hi] in (',', ';'):
                            hi += 1
                        elif lo > i + 1 and toks[lo - 1] in (',', ';'):
                            lo -= 1
                        cands.append(toks[:lo] + toks[hi:])
                    # drop one binding of a let
                    depth = 0
                    starts = []
                    for m in range(i, j):
                        if toks[m] in OPEN:
                            depth += 1
                        elif toks[m] in CLOSE:
                            depth -= 1
                        elif depth == 1 and toks[m].lower() == 'let':
                            starts = [m + 1]
                        elif depth == 1 and starts and toks[m] == ';':
                            starts.append(m + 1)
                        elif depth == 1 and starts and toks[m].lower() == 'in':
                            starts.append(m + 1)
                            break
                    if len(starts) >= 3:
                        for a, b in zip(starts, starts[1:]):
                            if toks[b - 1] == ';':
                                cands.append(toks[:a] + toks[b:])
                            else:       # the last binding: drop the ';' before it
                                cands.append(toks[:a - 1] + toks[b - 1:])
                    # drop a filter
                    if toks[i] == '{':
                        depth = 0
                        for m in range(i + 1, j - 1):
                            if toks[m] in OPEN:
                                depth += 1
                            elif toks[m] in CLOSE:
                                depth -= 1
                            elif toks[m] == '|' and depth == 0:
                                cands.append(toks[:m] + toks[j - 1:])
                    done = False
                    pre, post = render(forms[:fi]), render(forms[fi + 1:])
                    cur = render_form(toks)
                    for cand in cands:
                        # only strictly smaller candidates: no cycles
                        if len(cand) >= len(toks):
                            continue
                        ctext = render_form(cand)
                        trial = forms[:fi] + [cand] + forms[fi + 1:]
                        if self.interesting(trial, pre + ctext + '\n' + post):
                            forms = trial
                            progress = done = True
                            break
                    if not done:
                        k += 1
            forms2 = self.reduce_forms(forms)
            if forms2 != forms:
                forms = forms2
                progress = True
        return forms

    def reduce(self, text):
        forms = split_forms(tokenize(text))
        forms = self.reduce_forms(forms)
        forms = self.reduce_exprs(forms)
        return render(forms)


# ------------------------------------------------------------------ driver
class Config:
    pass


def count_kernels(text, cfg, wd):
    """The SOAC kernels of the program's CUDA build (functors in the
    generated .cu, fused as executor cuda builds it), or None when the
    program does not compile (the executors then report it)."""
    path = os.path.join(wd, 'count.nesl')
    with open(path, 'w') as f:
        f.write(text)
    st, out = run_one('%s --target=cuda --emit=cuda count.nesl' % cfg.nesslc, wd, cfg.timeout)
    if st != 0:
        return None
    return len(re.findall(r'^typedef struct S_\d+ ', out, re.M))


def check_seed(seed, cfg):
    """Returns (seed, signature or None or 'skipped', seconds, kernels)."""
    text = nesl_gen.generate(seed, cfg.small)
    wd = tempfile.mkdtemp(prefix='w', dir=cfg.tmp)
    t0 = time.time()
    kernels = None
    try:
        if cfg.max_kernels is not None:
            kernels = count_kernels(text, cfg, wd)
            if kernels is not None and kernels > cfg.max_kernels:
                return seed, 'skipped', time.time() - t0, kernels
        res = run_all(text, cfg.executors, cfg.nesslc, cfg.timeout, wd)
    finally:
        shutil.rmtree(wd, ignore_errors=True)
    sig = verdict(res, cfg.tolerant)
    return seed, sig, time.time() - t0, kernels


def reduce_seed(seed, sig, elapsed, cfg):
    text = nesl_gen.generate(seed, cfg.small)
    wd = tempfile.mkdtemp(prefix='r', dir=cfg.tmp)
    t0 = time.time()
    # Reduction can make a program loop (a recursion's decreasing argument
    # replaced by a constant): candidates get a shorter time limit, unless
    # the disagreement is itself a timeout.
    tmo = cfg.timeout if 'timeout' in sig else min(cfg.timeout, max(1.0, 10 * elapsed))

    key = reduce_key(sig)
    # A candidate may lose error messages but not gain new ones: this keeps
    # the reduction from drifting into another problem (say a recursion
    # made endless, which the executors report in different words).
    allowed = error_messages(run_all(text, cfg.executors, cfg.nesslc, cfg.timeout, wd))

    def test(cand):
        res = run_all(cand, cfg.executors, cfg.nesslc, tmo, wd)
        return reduce_key(verdict(res, cfg.tolerant)) == key and error_messages(res) <= allowed

    try:
        if sig[0] == 'invalid' or not cfg.reduce:
            small = text
            ntests = 0
        else:
            red = Reducer(test, t0 + cfg.reduce_time)
            try:
                small = red.reduce(text)
            except ValueError:
                small = text
            if not test(small):       # defensive: never report a non-reproducer
                small = text
            ntests = red.tests
    finally:
        shutil.rmtree(wd, ignore_errors=True)
    base = os.path.join(cfg.out, 'fail-%d' % seed)
    with open(base + '.orig.nesl', 'w') as f:
        f.write(text)
    with open(base + '.nesl', 'w') as f:
        f.write(small)
    # the outputs of the reproducer, run under its own name
    res = run_all(small, cfg.executors, cfg.nesslc, cfg.timeout, cfg.out,
                  name='fail-%d.nesl' % seed)
    for (ename, _), (st, out) in zip(cfg.executors, res):
        with open('%s.%s.out' % (base, ename), 'w') as f:
            f.write(out)
            f.write('[exit status %s]\n' % st)
    sig2 = verdict(res, cfg.tolerant) or sig      # as the reproducer itself behaves
    return seed, sig2, base + '.nesl', small.count('\n'), ntests, time.time() - t0


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('-n', type=int, default=100, help='number of programs (default 100)')
    ap.add_argument('-s', '--seed', type=int, default=1, help='first seed (default 1)')
    ap.add_argument('-j', '--jobs', type=int, default=os.cpu_count() or 2,
                    help='programs run in parallel (default: number of CPUs)')
    ap.add_argument('--nesslc', default=os.path.join(HERE, '..', '..', 'nesslc'),
                    help='compiler (default: ./nesslc of the repository)')
    ap.add_argument('--out', default='build/difftest',
                    help='directory for reproducers (default build/difftest)')
    ap.add_argument('--timeout', type=float, default=20.0,
                    help='seconds per run of one executor (default 20)')
    ap.add_argument('--executor', action='append', default=[], metavar='NAME=CMD',
                    help='add an executor (shell command with {nesslc} and {src})')
    ap.add_argument('--executors', '--only', dest='only', default=DEFAULT_EXECUTORS,
                    metavar='NAME,...',
                    help='the executors to run, the first is the reference (default %s; '
                    'also: %s)' % (DEFAULT_EXECUTORS, ', '.join(
                        n for n, _ in EXECUTORS if n not in DEFAULT_EXECUTORS.split(','))))
    ap.add_argument('--cc', default=None, metavar='CC',
                    help='C compiler of executors c/c0 (sets NESSLC_CC; default: the '
                    'configured one); `--cc tcc --cflags=-std=c11` builds 50-200x faster')
    ap.add_argument('--cflags', default=None, metavar='FLAGS',
                    help='its flags (sets NESSLC_CFLAGS; default: the configured ones)')
    ap.add_argument('--no-reduce', action='store_true', help='do not minimize')
    ap.add_argument('--reduce-time', type=float, default=300.0,
                    help='seconds of minimization per disagreement (default 300)')
    ap.add_argument('-q', '--quiet', action='store_true', help='no progress lines')
    ap.add_argument('--small', action='store_true',
                    help="the generator's small profile (nesl_gen.py --small)")
    ap.add_argument('--max-kernels', type=int, default=None, metavar='K',
                    help='skip a program whose CUDA build has more than K SOAC kernels '
                    '(counted in --emit=cuda; skipped programs do not count)')
    ap.add_argument('--count', type=int, default=None, metavar='C',
                    help='take seeds from SEED on until C programs have run (not skipped); '
                    'overrides -n')
    ap.add_argument('--time-limit', type=float, default=None, metavar='S',
                    help='start no program after S seconds; those that ran are reported')
    ap.add_argument('--log', default=None, metavar='FILE',
                    help='append a line per program as it finishes: seed, verdict, seconds, kernels')
    a = ap.parse_args(argv[1:])

    cfg = Config()
    cfg.nesslc = os.path.abspath(a.nesslc)
    if not os.access(cfg.nesslc, os.X_OK):
        print('difftest: no compiler at %s (run make first)' % cfg.nesslc, file=sys.stderr)
        return 2
    ex = list(EXECUTORS)
    added = []
    for e in a.executor:
        if '=' not in e:
            print('difftest: --executor wants NAME=COMMAND', file=sys.stderr)
            return 2
        nm, cmd = e.split('=', 1)
        ex = [x for x in ex if x[0] != nm] + [(nm, cmd)]
        added.append(nm)
    known = [x[0] for x in ex]
    want = [w for w in a.only.split(',') if w]
    want += [nm for nm in added if nm not in want]     # --executor also runs it
    for w in want:
        if w not in known:
            print('difftest: unknown executor %s (known: %s)' % (w, ', '.join(known)),
                  file=sys.stderr)
            return 2
    ex = [next(x for x in ex if x[0] == w) for w in want]
    # the executors' commands see these through the environment
    if a.cc is not None:
        os.environ['NESSLC_CC'] = a.cc
    if a.cflags is not None:
        os.environ['NESSLC_CFLAGS'] = a.cflags
    cfg.executors = ex
    cfg.tolerant = tuple(x[0] in FLOAT_TOLERANT for x in ex)
    cfg.timeout = a.timeout
    cfg.reduce = not a.no_reduce
    cfg.reduce_time = a.reduce_time
    cfg.small = a.small
    cfg.max_kernels = a.max_kernels
    cfg.out = os.path.abspath(a.out)
    os.makedirs(cfg.out, exist_ok=True)
    for f in os.listdir(cfg.out):
        if f.startswith('fail-'):
            os.remove(os.path.join(cfg.out, f))
    cfg.tmp = tempfile.mkdtemp(prefix='difftest-')
    names = [x[0] for x in ex]

    t0 = time.time()
    want = a.count if a.count is not None else a.n
    fails = []
    done = skipped = 0
    stopped = False
    log = open(a.log, 'a') if a.log else None
    try:
        with cf.ProcessPoolExecutor(max_workers=a.jobs) as pool:
            # Seeds are submitted lazily, a few per worker ahead: with
            # --count, skipped programs are replaced by further seeds.
            pending = set()
            next_seed = a.seed
            last_seed = a.seed + a.n - 1 if a.count is None else None
            while True:
                if a.time_limit is not None and time.time() - t0 > a.time_limit:
                    stopped = True
                while (not stopped and len(pending) < 2 * a.jobs and done + len(pending) < want
                       and (last_seed is None or next_seed <= last_seed)):
                    pending.add(pool.submit(check_seed, next_seed, cfg))
                    next_seed += 1
                if not pending:
                    break
                finished, pending = cf.wait(pending, return_when=cf.FIRST_COMPLETED)
                for fu in finished:
                    seed, sig, elapsed, kernels = fu.result()
                    if log:
                        v = 'agree' if sig is None else 'skipped' if sig == 'skipped' else \
                            'DISAGREE ' + describe(sig, names)
                        log.write('%d %s %.1f %s\n' % (seed, v, elapsed, kernels))
                        log.flush()
                    if sig == 'skipped':
                        skipped += 1
                        continue
                    done += 1
                    if sig is not None:
                        fails.append((seed, sig, elapsed))
                        if not a.quiet:
                            print('seed %d: %s' % (seed, describe(sig, names)), flush=True)
                    if not a.quiet and done % 500 == 0:
                        print('... %d programs, %d disagree, %.0f s' % (
                            done, len(fails), time.time() - t0), file=sys.stderr, flush=True)
            t1 = time.time()
            fails.sort()
            reports = []
            if fails and not cfg.reduce:
                # --no-reduce: the generated programs only (rerunning every
                # executor for the reproducers' outputs would cost another
                # build each, too much when many disagree)
                for s, sig, el in fails:
                    path = os.path.join(cfg.out, 'fail-%d.orig.nesl' % s)
                    with open(path, 'w') as f:
                        f.write(nesl_gen.generate(s, cfg.small))
                    reports.append((s, sig, path, 0, 0, 0.0))
            elif fails:
                if not a.quiet:
                    print('minimizing %d disagreement(s)...' % len(fails), file=sys.stderr,
                          flush=True)
                rf = [pool.submit(reduce_seed, s, sig, el, cfg) for s, sig, el in fails]
                for fu in rf:
                    reports.append(fu.result())
    finally:
        shutil.rmtree(cfg.tmp, ignore_errors=True)
        if log:
            log.close()
    t2 = time.time()

    rel = os.path.relpath(cfg.out)
    for seed, sig, path, nlines, ntests, secs in reports:
        print('DISAGREE seed %d: %s -> %s (%d lines; %d reduction runs, %.0f s)' % (
            seed, describe(sig, names), os.path.relpath(path), nlines, ntests, secs))
    # distinct kinds: by signature
    kinds = {}
    for seed, sig, path, *_ in reports:
        kinds.setdefault(sig, []).append(seed)
    if kinds:
        print('%d distinct signature(s):' % len(kinds))
        for sig, ss in sorted(kinds.items(), key=lambda kv: -len(kv[1])):
            print('  %4d x %s  (seeds %s%s)' % (len(ss), describe(sig, names),
                                                ' '.join(map(str, ss[:8])),
                                                ' ...' if len(ss) > 8 else ''))
    print('executors: %s; run %.0f s, minimize %.0f s; reproducers in %s' % (
        ', '.join(names), t1 - t0, t2 - t1, rel))
    if skipped:
        print('%d seed(s) skipped: more than %d kernels' % (skipped, a.max_kernels))
    if stopped:
        print('stopped by --time-limit after %.0f s' % (t1 - t0))
    print('seeds %d..%d%s' % (a.seed, next_seed - 1, ' (small profile)' if a.small else ''))
    d = len(fails)
    print('%d programs, %d agree, %d disagree' % (done, done - d, d))
    return 1 if d else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
