#!/usr/bin/env python3
"""nesl_gen.py SEED -- print one random, well-typed, terminating NESL program.

A Csmith-style generator for differential testing of nesslc's executors
(see doc/difftest.md).  The program is a deterministic function of SEED
(Python's random.Random(SEED); the output does not depend on the Python
version's hash seed).

Guarantees, by construction:
  * well-typed: every expression is generated for a requested type, the
    generator tracks the types of all variables, functions and datatypes;
  * terminating and small: recursion only on an int argument that decreases
    towards a `n <= 0` base case (bounded to n <= 4 at every outside call
    site) or on a sequence that strictly shrinks (`#s < 2` base case);
    every sequence has a static length bound (LTOP for the outermost level
    of a value, IN for sequences nested in sequences or datatypes), enforced
    top-down (ranges and dist lengths go through `mod`, over-long values are
    cut with `take`);
  * no undefined or unspecified behaviour: divisors are guarded, indices go
    through `mod(i, #s)` under an `#s == 0` test, float values are integers
    with a static magnitude bound (so sums are exact in any order; values
    that could exceed the bound are clamped with min/max), no rand, no I/O,
    no order-unspecified library results (remove_duplicates is sorted);
  * except for the deliberate runtime errors of a few programs (one error
    site per program: the error message itself is then compared).

Usage: nesl_gen.py SEED            print the program for SEED
       nesl_gen.py --stats N SEED  generate N programs, print construct counts
       --small                     the small profile: at most 1 global, 2
                                   functions and 3 top-level forms, shallower,
                                   no long sequences (for back ends whose
                                   builds are slow: CUDA)
"""

import random
import sys

# ---------------------------------------------------------------- types --
INT, BOOL, FLOAT, CHAR = 'int', 'bool', 'float', 'char'
BASE = (INT, BOOL, FLOAT, CHAR)


def Seq(t):
    return ('seq', t)


def Tup(a, b):
    return ('tup', a, b)


def Data(name):
    return ('data', name)


def Fun(a, r):
    return ('fun', a, r)


def is_seq(t):
    return isinstance(t, tuple) and t[0] == 'seq'


def is_tup(t):
    return isinstance(t, tuple) and t[0] == 'tup'


def is_data(t):
    return isinstance(t, tuple) and t[0] == 'data'


def is_fun(t):
    return isinstance(t, tuple) and t[0] == 'fun'


def seq_depth(t):
    d = 0
    while is_seq(t):
        d += 1
        t = t[1]
    return d


def is_number(t):
    return t in (INT, FLOAT)


def is_ordinal(t):
    return t in (INT, FLOAT, CHAR)


def is_logical(t):
    return t in (INT, BOOL)


VERSION = 3       # printed in each program's first line; bump on any change
                  # that changes the program of a seed
LTOP = 8          # outermost sequence length bound
IN = 4            # bound for sequences inside sequences / datatypes
LLONG = 150       # bound of the outermost level of a few top-level forms
BF = 1 << 20      # default float magnitude bound
BP = 1 << 16      # float bound of function parameters
MAXPAR = 3        # apply-to-each nesting depth
COST_BUDGET = 40000


class Var:
    __slots__ = ('name', 't', 'L', 'B')

    def __init__(self, name, t, L=LTOP, B=BF):
        self.name, self.t, self.L, self.B = name, t, L, B


class Fn:
    def __init__(self, name, params, ret, kind):
        self.name = name
        self.params = params      # list of (type, L, B)
        self.ret = ret
        self.RL = LTOP
        self.RB = BF
        self.kind = kind
        self.cost = 1


class Ctx:
    __slots__ = ('env', 'depth', 'par', 'mult', 'hot', 'cost', 'fn', 'weak')

    def __init__(self, env, depth, par=0, mult=1, hot=(), cost=None, fn=None, weak=False):
        # weak: inside a function or lambda body, where the front end checks
        # uses of parameters before it knows their types, so an int must not
        # be required to be both `number` and `logical` (NESL.md 4.2).
        self.weak = weak
        self.env = env
        self.depth = depth
        self.par = par
        self.mult = mult
        self.hot = hot
        self.cost = cost if cost is not None else [0]
        self.fn = fn

    def sub(self, k=1):
        return Ctx(self.env, self.depth - k, self.par, self.mult, self.hot,
                   self.cost, self.fn, self.weak)

    def bind(self, vs, depth=None, par=None, mult=None, hot=None, weak=None):
        names = {v.name for v in vs}
        env = [v for v in self.env if v.name not in names] + list(vs)
        return Ctx(env, self.depth if depth is None else depth,
                   self.par if par is None else par,
                   self.mult if mult is None else mult,
                   self.hot if hot is None else hot, self.cost, self.fn,
                   self.weak if weak is None else weak)


def flit(x):
    s = '%d.0' % abs(x)
    return '(-%s)' % s if x < 0 else s


def ilit(x):
    return '(-%d)' % -x if x < 0 else '%d' % x


class Gen:
    def __init__(self, seed, small=False):
        self.r = random.Random(seed)
        self.seed = seed
        self.small = small        # the small profile (--small): fewer, shallower forms
        self.n = 0
        self.datas = {}           # name -> [field types]
        self.funs = []            # user functions (Fn), in definition order
        self.generics = {}        # template name -> function name
        self.forms = []
        self.stats = {}

    # ------------------------------------------------------------ helpers
    def fresh(self, p='v'):
        self.n += 1
        return '%s%d' % (p, self.n)

    def chance(self, p):
        return self.r.random() < p

    def note(self, k):
        self.stats[k] = self.stats.get(k, 0) + 1

    def pick(self, opts):
        """opts: list of (weight, thunk); a thunk may return None (not
        applicable), then another option is tried."""
        opts = [o for o in opts if o[0] > 0]
        while opts:
            tot = sum(w for w, _ in opts)
            x = self.r.uniform(0, tot)
            for i, (w, f) in enumerate(opts):
                x -= w
                if x <= 0:
                    break
            res = opts[i][1]()
            if res is not None:
                return res
            del opts[i]
        raise RuntimeError('no applicable production')

    def tstr(self, t):
        if t in BASE:
            return t
        if is_seq(t):
            return '[%s]' % self.tstr(t[1])
        if is_tup(t):
            return '(%s, %s)' % (self.tstr(t[1]), self.tstr(t[2]))
        if is_data(t):
            return t[1]
        raise ValueError(t)

    def has_float(self, t):
        if t == FLOAT:
            return True
        if t in BASE:
            return False
        if is_seq(t):
            return self.has_float(t[1])
        if is_tup(t):
            return self.has_float(t[1]) or self.has_float(t[2])
        if is_data(t):
            return any(self.has_float(f) for f in self.datas[t[1]])
        return False

    def has_data(self, t):
        if is_data(t):
            return True
        if is_seq(t):
            return self.has_data(t[1])
        if is_tup(t):
            return self.has_data(t[1]) or self.has_data(t[2])
        return False

    def outer_seq(self, t):
        """Does t have a sequence at its outermost level (through tuples)?"""
        if is_seq(t):
            return True
        if is_tup(t):
            return self.outer_seq(t[1]) or self.outer_seq(t[2])
        return False

    def rand_type(self, depth=2, seqd=0, allow_data=True):
        r = self.r.random()
        if depth > 0 and r < 0.33 and seqd < 3:
            return Seq(self.rand_type(depth - 1, seqd + 1, allow_data))
        if depth > 0 and r < 0.42:
            return Tup(self.rand_type(depth - 1, seqd, allow_data),
                       self.rand_type(depth - 1, seqd, allow_data))
        if allow_data and self.datas and r < 0.47:
            return Data(self.r.choice(sorted(self.datas)))
        return self.r.choices(BASE, weights=(45, 18, 18, 8))[0]

    def elem_L(self, t):
        return IN

    # ----------------------------------------------------------- literals
    def lit(self, t, L=LTOP, B=BF):
        r = self.r
        if t == INT:
            x = r.random()
            if x < 0.7:
                return ilit(r.randint(0, 9))
            if x < 0.9:
                return ilit(r.randint(-9, -1))
            return r.choice(['100', '1000', '65536', '12345', 'max_int',
                             'min_int', '(-1000)'])
        if t == BOOL:
            return r.choice(['t', 'f', 't', 'f', 'T', 'F'])
        if t == FLOAT:
            k = min(B, 9)
            return flit(r.randint(-k, k))
        if t == CHAR:
            return '`' + r.choice('abcdefxyzABZ019')
        if is_seq(t):
            e = t[1]
            if L == 0 or self.chance(0.2):
                self.note('empty-seq-literal')
                return '[] ' + self.tstr(e)
            if e == CHAR and self.chance(0.5):
                n = r.randint(0, min(L, 5))
                return '"%s"' % ''.join(r.choice('abcxyz') for _ in range(n))
            n = r.randint(1, min(L, 3))
            return '[%s]' % ', '.join(self.lit(e, IN, B) for _ in range(n))
        if is_tup(t):
            return '(%s, %s)' % (self.lit(t[1], L, B), self.lit(t[2], L, B))
        if is_data(t):
            return '%s(%s)' % (t[1], ', '.join(self.lit(f, IN, B)
                                               for f in self.datas[t[1]]))
        raise ValueError(t)

    # ------------------------------------------------ fitting to a request
    def fit(self, e, t, sL, sB, L, B):
        """Adapt expression e of type t with bounds (sL, sB) to (L, B)."""
        need_take = self.outer_seq(t) and sL > L
        need_clamp = self.has_float(t) and sB > B
        if not need_take and not need_clamp:
            return e
        self.note('fit')
        if t == FLOAT:
            return 'min(max(%s, %s), %s)' % (e, flit(-B), flit(B))
        if is_seq(t):
            out = e
            if need_clamp:
                x = self.fresh()
                out = '{%s : %s in %s}' % (self.fit(x, t[1], IN, sB, IN, B), x, out)
            if need_take:
                v = self.fresh()
                out = '(let %s = %s in take(%s, min(%d, #%s)))' % (v, out, v, L, v)
            return out
        if is_tup(t):
            a, b = self.fresh(), self.fresh()
            return '(let (%s, %s) = %s in (%s, %s))' % (
                a, b, e, self.fit(a, t[1], sL, sB, L, B),
                self.fit(b, t[2], sL, sB, L, B))
        if is_data(t):
            fs = self.datas[t[1]]
            ns = [self.fresh() for _ in fs]
            return '(let %s(%s) = %s in %s(%s))' % (
                t[1], ', '.join(ns), e, t[1],
                ', '.join(self.fit(n, f, IN, sB, IN, B) for n, f in zip(ns, fs)))
        raise ValueError(t)

    # ------------------------------------------------------------ patterns
    def pattern(self, t, L, B, destructure=0.6):
        """Return (pattern text, [Var]) binding a value of type t."""
        if is_tup(t) and self.chance(destructure):
            p1, v1 = self.pattern(t[1], L, B, destructure)
            p2, v2 = self.pattern(t[2], L, B, destructure)
            self.note('tuple-pattern')
            return '(%s, %s)' % (p1, p2), v1 + v2
        if is_data(t) and self.chance(destructure):
            ps, vs = [], []
            for f in self.datas[t[1]]:
                p, v = self.pattern(f, IN, B, destructure)
                ps.append(p)
                vs += v
            self.note('datatype-pattern')
            return '%s(%s)' % (t[1], ', '.join(ps)), vs
        n = self.fresh()
        return n, [Var(n, t, L, B)]

    # ------------------------------------------------------- dispatching
    def gen(self, t, c, L=LTOP, B=BF):
        if is_fun(t):
            return self.gen_fun_value(t, c)
        if c.depth <= 0:
            return self.leaf(t, c, L, B)
        if t == INT:
            return self.gen_int(c, L, B)
        if t == BOOL:
            return self.gen_bool(c, L, B)
        if t == FLOAT:
            return self.gen_float(c, L, B)
        if t == CHAR:
            return self.gen_char(c, L, B)
        if is_seq(t):
            return self.gen_seq(t, c, L, B)
        if is_tup(t):
            return self.gen_tup(t, c, L, B)
        if is_data(t):
            return self.gen_data(t, c, L, B)
        raise ValueError(t)

    def leaf(self, t, c, L, B):
        v = self.var(t, c, L, B)
        if v is not None and self.chance(0.7):
            return v
        return self.lit(t, L, B)

    def var(self, t, c, L, B):
        cands = [v for v in c.env if v.t == t]
        if not cands:
            return None
        ws = [6 if v.name in c.hot else 1 for v in cands]
        v = self.r.choices(cands, weights=ws)[0]
        return self.fit(v.name, t, v.L, v.B, L, B)

    def common(self, t, c, L, B):
        """Productions available at every type."""
        d = c.sub()
        return [
            (6, lambda: self.var(t, c, L, B)),
            (1 if t == BOOL else 3, lambda: self.lit(t, L, B)),
            (4, lambda: self.gen_if(t, c, L, B)),
            (4, lambda: self.gen_let(t, c, L, B)),
            (5, lambda: self.gen_call(t, c, L, B)),
            (3, lambda: self.gen_subscript(t, c, L, B) if seq_depth(t) < 3 else None),
            (1, lambda: 'select(%s, %s, %s)' % (self.gen(BOOL, d), self.gen(t, d, L, B),
                                                 self.gen(t, d, L, B))),
            (1, lambda: self.gen_first_rest(t, c, L, B)),
            (1, lambda: None if self.has_data(t) else
             'identity(%s)' % self.gen(t, d, L, B)),
        ]

    # --------------------------------------------------------- generic
    def gen_if(self, t, c, L, B):
        d = c.sub()
        self.note('if-par' if c.par else 'if')
        return '(if %s then %s else %s)' % (self.gen(BOOL, d), self.gen(t, d, L, B),
                                             self.gen(t, d, L, B))

    def gen_let(self, t, c, L, B):
        d = c.sub()
        binds = []
        vs = []
        cc = d
        for _ in range(self.r.randint(1, 2)):
            bt = self.rand_type()
            bB = self.r.choice([1 << 8, 1 << 12, BF])
            e = self.gen(bt, cc, LTOP, bB)
            p, nv = self.pattern(bt, LTOP, bB)
            binds.append('%s = %s' % (p, e))
            vs += nv
            cc = d.bind(nv)
        if self.chance(0.15):
            # a let-bound lambda, called in the body
            ft = Fun(self.rand_type(1, allow_data=False), self.rand_type(1, allow_data=False))
            g = self.fresh('g')
            binds.append('%s = %s' % (g, self.gen_lambda(ft, cc)))
            vs.append(Var(g, ft))
            cc = d.bind(vs, hot=(g,))
            self.note('let-lambda')
        body = self.gen(t, cc.bind([], hot=tuple(v.name for v in vs)), L, B)
        self.note('let')
        return '(let %s in %s)' % ('; '.join(binds), body)

    def gen_subscript(self, t, c, L, B):
        d = c.sub()
        s = self.fresh('s')
        seqe = self.gen(Seq(t), d, LTOP, B)
        i = self.gen(INT, d.bind([Var(s, Seq(t))]))
        dflt = self.gen(t, d, L, B)
        el = self.fit('%s[mod(%s, #%s)]' % (s, i, s), t, IN, B, L, B)
        self.note('subscript')
        return '(let %s = %s in if #%s == 0 then %s else %s)' % (s, seqe, s, dflt, el)

    def gen_first_rest(self, t, c, L, B):
        d = c.sub()
        o = self.rand_type(1)
        if self.chance(0.5):
            return 'first(%s)' % self.gen(Tup(t, o), d, L, B)
        return 'rest(%s)' % self.gen(Tup(o, t), d, L, B)

    def gen_call(self, t, c, L, B):
        opts = []
        for f in self.funs:
            if f.ret == t and c.mult * f.cost <= COST_BUDGET:
                opts.append((3, lambda f=f: self.call_user(f, c, L, B)))
        for v in c.env:
            if is_fun(v.t) and v.t[2] == t:
                opts.append((4, lambda v=v: self.call_funvar(v, c, L, B)))
        opts.append((2, lambda: self.call_generic(t, c, L, B)))
        return self.pick(opts + [(0.001, lambda: self.lit(t, L, B))]) if opts else None

    def args_text(self, params, c):
        d = c.sub()
        out = []
        for (pt, pL, pB) in params:
            out.append(self.gen(pt, d, pL, pB))
        return ', '.join(out)

    def call_user(self, f, c, L, B):
        c.cost[0] += c.mult * f.cost
        if f.kind == 'countdown':
            d = c.sub()
            args = ['mod(%s, 5)' % self.gen(INT, d)] + [
                self.gen(pt, d, pL, pB) for (pt, pL, pB) in f.params[1:]]
            a = ', '.join(args)
        else:
            a = self.args_text(f.params, c)
        self.note('call-' + f.kind + ('-par' if c.par else ''))
        return self.fit('%s(%s)' % (f.name, a), f.ret, f.RL, f.RB, L, B)

    def call_funvar(self, v, c, L, B):
        a = self.gen(v.t[1], c.sub(), LTOP, BP)
        self.note('call-funvalue')
        return self.fit('%s(%s)' % (v.name, a), v.t[2], LTOP, BF, L, B)

    # Polymorphic library-like helpers, defined on first use.
    GENERIC_DEFS = {
        'getd': 'function {n}(s, i, d) = if #s == 0 then d else s[mod(i, #s)];',
        'mapf': 'function {n}(g, s) = {{g(x) : x in s}};',
        'app': 'function {n}(g, x) = g(x);',
        'filt': 'function {n}(g, s) = {{x in s | g(x)}};',
        'fold': 'function {n}(g, s, z) = if #s == 0 then z else g(s[0], {n}(g, drop(s, 1), z));',
        'swap': 'function {n}(p) = let (a, b) = p in (b, a);',
        'twice': 'function {n}(g, x) = g(g(x));',
    }

    def generic(self, key):
        if key not in self.generics:
            n = self.fresh('h' + key)
            self.generics[key] = n
            self.pending_generic.append(self.GENERIC_DEFS[key].format(n=n))
        self.note('generic-' + key)
        return self.generics[key]

    def call_generic(self, t, c, L, B):
        d = c.sub()
        k = self.r.choice(['getd', 'mapf', 'app', 'filt', 'fold', 'swap', 'twice'])
        if k == 'getd':
            return '%s(%s, %s, %s)' % (self.generic(k), self.gen(Seq(t), d, LTOP, B),
                                       self.gen(INT, d),
                                       self.gen(t, d, L, B)) if not self.outer_seq(t) or L >= IN else None
        named = [f for f in self.funs if f.kind == 'plain' and len(f.params) == 1]
        if k == 'mapf' and is_seq(t):
            u = self.rand_type(1)
            fs = [f for f in named if f.ret == t[1]]
            if fs and self.chance(0.7):
                u = self.r.choice(fs).params[0][0]
            f = self.gen_fun_value(Fun(u, t[1]), d, IN, B)
            return '%s(%s, %s)' % (self.generic(k), f, self.gen(Seq(u), d, L, BP))
        if k == 'filt' and is_seq(t):
            f = self.gen_fun_value(Fun(t[1], BOOL), d)
            return '%s(%s, %s)' % (self.generic(k), f, self.gen(t, d, L, min(B, BP)))
        if k == 'app':
            u = self.rand_type(1)
            fs = [f for f in named if f.ret == t]
            if fs and self.chance(0.7):
                u = self.r.choice(fs).params[0][0]
            f = self.gen_fun_value(Fun(u, t), d, L, B)
            return '%s(%s, %s)' % (self.generic(k), f, self.gen(u, d, LTOP, BP))
        if k == 'twice' and not self.has_float(t):
            f = self.gen_fun_value(Fun(t, t), d, L, B)
            return '%s(%s, %s)' % (self.generic(k), f, self.gen(t, d, L, B))
        if k == 'fold' and c.mult * 8 <= COST_BUDGET:
            u = self.rand_type(1)
            # g : (u, t) -> t, applied up to LTOP times
            f = self.gen_lambda(Fun(Tup(u, t), t), d, L, B, two=True)
            return '%s(%s, %s, %s)' % (self.generic(k), f, self.gen(Seq(u), d, LTOP, BP),
                                       self.gen(t, d, L, B))
        if k == 'swap' and is_tup(t):
            return '%s(%s)' % (self.generic(k), self.gen(Tup(t[2], t[1]), d, L, B))
        return None

    # ------------------------------------------------- function values
    def gen_fun_value(self, ft, c, L=LTOP, B=BF):
        # a named user function of exactly this type, or a lambda
        named = [f for f in self.funs if f.kind in ('plain',) and len(f.params) == 1
                 and f.params[0][0] == ft[1] and f.ret == ft[2]
                 and f.RL <= L and f.RB <= B]
        if named and self.chance(0.6):
            self.note('named-function-value')
            return self.r.choice(named).name
        return self.gen_lambda(ft, c, L, B)

    def gen_lambda(self, ft, c, L=LTOP, B=BF, two=False):
        at, rt = ft[1], ft[2]
        if two:
            p1, v1 = self.pattern(at[1], LTOP, BP)
            p2, v2 = self.pattern(at[2], L, B)
            pat, vs = '(%s, %s)' % (p1, p2), v1 + v2
        else:
            pat, vs = self.pattern(at, LTOP, BP)
        cc = c.bind(vs, depth=min(c.depth, 3), hot=tuple(v.name for v in vs), weak=True)
        body = self.gen(rt, cc, L, B)
        self.note('lambda-par' if c.par else 'lambda')
        return '(%s => (%s))' % (pat, body)

    # ------------------------------------------------------------ ints
    def guard_div(self, c):
        d = c.sub()
        x = self.r.random()
        if x < 0.5:
            e = self.gen(INT, d)
            return '(if %s == 0 then 1 else %s)' % (e, e)
        if x < 0.75:
            return '(mod(%s, 7) + 1)' % self.gen(INT, d)
        return '(1 + abs(rem(%s, 9)))' % self.gen(INT, d)

    def gen_int(self, c, L, B):
        d = c.sub()
        g = lambda t=INT, LL=LTOP, BB=BF: self.gen(t, d, LL, BB)
        r = self.r

        def arith():
            return '(%s %s %s)' % (g(), r.choice(['+', '-', '*', '+', '-']), g())

        def div():
            self.note('div-guarded')
            op = r.choice(['/', 'rem', 'mod'])
            if op == '/':
                return '(%s / %s)' % (g(), self.guard_div(c))
            return '%s(%s, %s)' % (op, g(), self.guard_div(c))

        def length():
            return '(#%s)' % g(Seq(self.rand_type(1)))

        def reduce_():
            k = r.choice(['sum', 'sum', 'max_val', 'min_val', 'count', 'product',
                          'max_index', 'min_index'] +
                         ([] if c.weak else ['any', 'all', 'parity']))
            self.note('reduce-' + k)
            if k == 'count':
                return 'count(%s)' % g(Seq(BOOL))
            if k in ('max_index', 'min_index'):
                return '%s(%s)' % (k, g(Seq(r.choice([INT, FLOAT, CHAR]))))
            return '%s(%s)' % (k, g(Seq(INT)))

        def unary():
            k = r.choice(['neg', 'abs', 'max', 'min', 'btoi', 'code',
                          'conv', 'isqrt', 'shift', 'pow', 'gcd', 'diff'] +
                         ([] if c.weak else ['not', 'bit', 'bit']))
            self.note('int-' + k)
            if k == 'neg':
                return '(-%s)' % g()
            if k in ('abs',):
                return 'abs(%s)' % g()
            if k == 'not':
                return 'not(%s)' % g()
            if k in ('max', 'min', 'diff'):
                return '%s(%s, %s)' % (k, g(), g())
            if k == 'btoi':
                return 'btoi(%s)' % g(BOOL)
            if k == 'code':
                return 'char_code(%s)' % g(CHAR)
            if k == 'conv':
                f = r.choice(['round', 'trunc', 'floor', 'ceil'])
                if self.chance(0.5):
                    return '%s(%s)' % (f, g(FLOAT))
                self.note('float-div')
                a = g(FLOAT, BB=BF)
                b = self.fresh()
                return '(let %s = %s in %s(%s / (if %s == 0.0 then 1.0 else %s)))' % (
                    b, g(FLOAT), f, a, b, b)
            if k == 'isqrt':
                return 'isqrt(mod(%s, 1000))' % g()
            if k == 'shift':
                return '%s(%s, mod(%s, 8))' % (r.choice(['lshift', 'rshift']), g(), g())
            if k == 'pow':
                return '(%s ^ mod(%s, 4))' % (g(), g())
            if k == 'bit':
                return '(%s %s %s)' % (g(), r.choice(['and', 'or', 'xor']), g())
            if k == 'gcd':
                return 'gcd(mod(%s, 60), mod(%s, 60))' % (g(), g())

        def misc():
            k = r.choice(['find', 'kth', 'median', 'sqrt', 'len_filter', 'hash'])
            self.note('int-' + k)
            if k == 'find':
                t = r.choice([INT, CHAR, Seq(INT)])
                return 'find(%s, %s)' % (g(t, IN), g(Seq(t)))
            if k in ('kth', 'median'):
                t = r.choice([INT, INT, CHAR, FLOAT])
                s = self.fresh('s')
                body = ('kth_smallest(%s, mod(%s, #%s))' % (s, g(), s) if k == 'kth'
                        else 'median(%s)' % s)
                if t == INT:
                    return '(let %s = %s in if #%s == 0 then %s else %s)' % (
                        s, g(Seq(INT)), s, g(), body)
                conv = 'char_code' if t == CHAR else 'round'
                return '(let %s = %s in if #%s == 0 then %s else %s(%s))' % (
                    s, g(Seq(t)), s, g(), conv, body)
            if k == 'sqrt':
                return 'floor(sqrt(abs(%s)))' % g(FLOAT)
            if k == 'len_filter':
                e = self.gen_each(Seq(self.rand_type(1)), c, LTOP, BF, filt=1.0)
                return None if e is None else '(#%s)' % e
            if k == 'hash':
                return 'hash(%s, mod(%s, 97) + 1)' % (g(self.rand_type(1), IN), g())

        return self.pick(self.common(INT, c, L, B) + [
            (10, arith), (4, div), (4, length), (6, reduce_), (6, unary), (3, misc),
        ])

    # ----------------------------------------------------------- bools
    def gen_bool(self, c, L, B):
        d = c.sub()
        g = lambda t=BOOL, LL=LTOP, BB=BF: self.gen(t, d, LL, BB)
        r = self.r

        def cmp_():
            t = r.choice([INT, INT, INT, FLOAT, CHAR])
            return '(%s %s %s)' % (g(t), r.choice(['<', '>', '<=', '>=', '==', '/=']), g(t))

        def logic():
            k = r.choice(['and', 'or', 'xor', 'nand', 'nor', 'not'])
            if k == 'not':
                return 'not(%s)' % g()
            return '(%s %s %s)' % (g(), k, g())

        def pred():
            k = r.choice(['evenp', 'oddp', 'plusp', 'minusp', 'zerop'])
            if k in ('evenp', 'oddp'):
                return '%s(%s)' % (k, g(INT))
            return '%s(%s)' % (k, g(r.choice([INT, FLOAT])))

        def eql_():
            t = self.rand_type(2)
            self.note('eql')
            return 'eql(%s, %s)' % (g(t), g(t))

        def reduce_():
            k = r.choice(['all', 'any', 'parity'])
            return '%s(%s)' % (k, g(Seq(BOOL)))

        return self.pick(self.common(BOOL, c, L, B) + [
            (10, cmp_), (6, logic), (3, pred), (3, eql_), (3, reduce_)])

    # ---------------------------------------------------------- floats
    def gen_float(self, c, L, B):
        d = c.sub()
        r = self.r
        g = lambda t=FLOAT, BB=B, LL=LTOP: self.gen(t, d, LL, BB)

        def conv():
            m = max(1, min(B, r.choice([10, 100, 1000])))
            return 'float(mod(%s, %d))' % (self.gen(INT, d), m)

        def add():
            if B < 2:
                return None
            return '(%s %s %s)' % (g(BB=B // 2), r.choice(['+', '-']), g(BB=B // 2))

        def mul():
            s = int(B ** 0.5)
            if s < 2:
                return None
            return '(%s * %s)' % (g(BB=s), g(BB=s))

        def un():
            k = r.choice(['neg', 'abs', 'max', 'min'])
            if k == 'neg':
                return '(-%s)' % g()
            if k == 'abs':
                return 'abs(%s)' % g()
            return '%s(%s, %s)' % (k, g(), g())

        def sum_():
            n = r.choice([2, 4, LTOP])
            if B // n < 1:
                return None
            self.note('float-sum')
            return 'sum(%s)' % self.gen(Seq(FLOAT), d, n, B // n)

        def minmaxval():
            k = r.choice(['max_val', 'min_val'])
            return 'min(max(%s(%s), %s), %s)' % (k, self.gen(Seq(FLOAT), d, LTOP, B),
                                                 flit(-B), flit(B))

        def rounding():
            f = r.choice(['round', 'trunc', 'floor', 'ceil'])
            if B < 2:
                return None
            self.note('float-div')
            b = self.fresh()
            return '(let %s = %s in float(%s(%s / (if %s == 0.0 then 1.0 else %s))))' % (
                b, g(BB=BF), f, g(BB=B - 1), b, b)

        def sqrt_():
            self.note('sqrt')
            return 'float(floor(sqrt(abs(%s))))' % g(BB=min(BF, B * B))

        def trig():
            k = r.choice(['sin', 'cos', 'atan', 'tanh'])
            m = min(B, 8)
            self.note('trig')
            return 'float(round(%s * %s(%s)))' % (flit(m), k, g(BB=BF))

        return self.pick(self.common(FLOAT, c, L, B) + [
            (5, conv), (6, add), (4, mul), (4, un), (3, sum_), (1, minmaxval),
            (2, rounding), (1, sqrt_), (1, trig)])

    # ----------------------------------------------------------- chars
    def gen_char(self, c, L, B):
        d = c.sub()
        r = self.r

        def conv():
            return 'code_char(97 + mod(%s, 26))' % self.gen(INT, d)

        def mm():
            return '%s(%s, %s)' % (r.choice(['max', 'min']), self.gen(CHAR, d),
                                   self.gen(CHAR, d))

        def case():
            return '%s(%s)' % (r.choice(['lowercase', 'uppercase']), self.gen(CHAR, d))

        return self.pick(self.common(CHAR, c, L, B) + [(3, conv), (2, mm), (1, case)])

    # ---------------------------------------------------------- tuples
    def gen_tup(self, t, c, L, B):
        d = c.sub()
        r = self.r

        def pair():
            return '(%s, %s)' % (self.gen(t[1], d, L, B), self.gen(t[2], d, L, B))

        def unzip_():
            if not (is_seq(t[1]) and is_seq(t[2])):
                return None
            self.note('unzip')
            return 'unzip(%s)' % self.gen(Seq(Tup(t[1][1], t[2][1])), d, L, B)

        def head_rest():
            s = self.fresh('s')
            if is_seq(t[2]) and t[2][1] == t[1] and not self.outer_seq(t[1]):
                self.note('head_rest')
                return '(let %s = %s in if #%s == 0 then %s else head_rest(%s))' % (
                    s, self.gen(t[2], d, L, B), s, self.gen(t, d, L, B), s)
            if is_seq(t[1]) and t[1][1] == t[2] and not self.outer_seq(t[2]):
                self.note('rest_tail')
                return '(let %s = %s in if #%s == 0 then %s else rest_tail(%s))' % (
                    s, self.gen(t[1], d, L, B), s, self.gen(t, d, L, B), s)
            return None

        return self.pick(self.common(t, c, L, B) + [(10, pair), (2, unzip_), (2, head_rest)])

    def gen_data(self, t, c, L, B):
        d = c.sub()
        fs = self.datas[t[1]]

        def cons():
            self.note('datatype-cons')
            return '%s(%s)' % (t[1], ', '.join(self.gen(f, d, IN, B) for f in fs))

        return self.pick(self.common(t, c, L, B) + [(10, cons)])

    # ------------------------------------------------------- sequences
    def gen_each(self, t, c, L, B, filt=0.35):
        """{body : p1 in s1 [; p2 in s2] [| cond]} of type t = [e]."""
        if c.par >= MAXPAR:
            return None
        e = t[1]
        d = c.sub()
        r = self.r
        u = self.rand_type(1) if self.chance(0.6) else (e if not is_fun(e) else INT)
        # a source: an in-scope sequence variable or a fresh expression
        src = self.gen(Seq(u), d, L, BF)
        p1, vs = self.pattern(u, IN, BF)
        gens = ['%s in %s' % (p1, src)]
        pre = None
        if self.chance(0.25):
            # a second generator of the same length: name the first source
            s = self.fresh('s')
            pre = (s, src)
            gens = ['%s in %s' % (p1, s)]
            k = r.choice(['index', 'range', 'same', 'reverse', 'map', 'scan'])
            if k in ('index', 'range'):
                n = self.fresh()
                gens.append('%s in %s' % (n, 'index(#%s)' % s if k == 'index' else '[0:#%s]' % s))
                vs = vs + [Var(n, INT)]
            elif k in ('same', 'reverse'):
                p2, v2 = self.pattern(u, IN, BF)
                gens.append('%s in %s' % (p2, s if k == 'same' else 'reverse(%s)' % s))
                vs = vs + v2
            elif k == 'scan' and u == INT:
                n = self.fresh()
                gens.append('%s in plus_scan(%s)' % (n, s))
                vs = vs + [Var(n, INT)]
            else:
                u2 = self.rand_type(1)
                x = self.fresh()
                m = self.gen(u2, d.bind([Var(x, u, IN, BF)], par=c.par + 1), IN, BF)
                p2, v2 = self.pattern(u2, IN, BF)
                gens.append('%s in {%s : %s in %s}' % (p2, m, x, s))
                vs = vs + v2
            self.note('each-2gen')
        inner = c.bind(vs, depth=c.depth - 1, par=c.par + 1, mult=c.mult * max(1, L),
                       hot=tuple(v.name for v in vs))
        c.cost[0] += c.mult * L
        cond = ''
        if self.chance(filt):
            cond = ' | ' + self.gen(BOOL, inner)
            self.note('each-filter')
        self.note('each-depth%d' % (c.par + 1))
        # the short form {p in s | c}: body is the pattern
        if cond and u == e and len(gens) == 1 and self.chance(0.3):
            self.note('each-short')
            # the elements of the source are returned: make them fit B
            text = self.fit('{%s%s}' % (gens[0], cond), t, L, BF, L, B)
        else:
            body = self.gen(e, inner, IN, B)
            text = '{%s : %s%s}' % (body, '; '.join(gens), cond)
        if pre:
            text = '(let %s = %s in %s)' % (pre[0], pre[1], text)
        return text

    def gen_seq(self, t, c, L, B):
        e = t[1]
        d = c.sub()
        r = self.r
        g = lambda tt=t, LL=L, BB=B: self.gen(tt, d, LL, BB)

        def named(mk, LL=L, tt=t):
            """(let s = <tt, LL> in mk(s))"""
            s = self.fresh('s')
            return '(let %s = %s in %s)' % (s, self.gen(tt, d, LL, B), mk(s))

        def lam_in(s, et, rt, LL=IN, BB=BF):
            """{E(x) : x in s} of type [rt]"""
            x = self.fresh()
            inner = d.bind([Var(x, et, IN, B)], par=c.par + 1, mult=c.mult * LTOP, hot=(x,))
            return '{%s : %s in %s}' % (self.gen(rt, inner, LL, BB), x, s)

        def each():
            return self.gen_each(t, c, L, B)

        def short_each():
            # {body : v} for a sequence variable v of this scope
            vs = [v for v in c.env if is_seq(v.t) and v.L <= L]
            if not vs or c.par >= MAXPAR:
                return None
            v = r.choice(vs)
            inner = c.bind([Var(v.name, v.t[1], IN, v.B)], depth=c.depth - 1,
                           par=c.par + 1, mult=c.mult * L, hot=(v.name,))
            self.note('each-short-var')
            return '{%s : %s}' % (self.gen(e, inner, IN, B), v.name)

        def append():
            if L < 2:
                return None
            self.note('append')
            return '(%s ++ %s)' % (g(LL=L // 2), g(LL=L // 2))

        def reorder():
            k = r.choice(['reverse', 'take', 'drop', 'odd', 'even', 'subseq', 'rotate',
                          'prevnext', 'takeneg'])
            self.note('seq-' + k)
            if k == 'reverse':
                return 'reverse(%s)' % g()
            if k == 'take':
                return named(lambda s: 'take(%s, mod(%s, #%s + 1))' % (s, self.gen(INT, d), s))
            if k == 'takeneg':
                return named(lambda s: '%s(%s, 0 - mod(%s, #%s + 1))' % (
                    r.choice(['take', 'drop']), s, self.gen(INT, d), s))
            if k == 'drop':
                return named(lambda s: 'drop(%s, mod(%s, #%s + 1))' % (s, self.gen(INT, d), s))
            if k in ('odd', 'even'):
                return named(lambda s: '(if #%s == 0 then %s else %s_elts(%s))' % (
                    s, s, k, s))
            if k == 'subseq':
                s, a, b = self.fresh('s'), self.fresh(), self.fresh()
                return '(let %s = %s; %s = mod(%s, #%s + 1); %s = mod(%s, #%s + 1) in subseq(%s, min(%s, %s), max(%s, %s)))' % (
                    s, g(), a, self.gen(INT, d), s, b, self.gen(INT, d), s, s, a, b, a, b)
            if k == 'rotate':
                return 'rotate(%s, %s)' % (g(), self.gen(INT, d))
            if k == 'prevnext':
                return '%s(%s, %s)' % (r.choice(['previous', 'next']), g(), self.gen(e, d, IN, B))

        def gather():
            self.note('gather')
            s = self.fresh('s')
            idx = self.gen(Seq(INT), d, L)
            i = self.fresh()
            return '(let %s = %s in if #%s == 0 then %s else %s -> {mod(%s, #%s) : %s in %s})' % (
                s, self.gen(t, d, LTOP, B), s, self.lit(t, L, B), s, i, s, i, idx)

        def scatter():
            self.note('scatter')
            s, w, x, j = self.fresh('s'), self.fresh('s'), self.fresh(), self.fresh()
            ie = self.gen(INT, d.bind([Var(x, e, IN, B), Var(j, INT)], par=c.par + 1))
            return '(let %s = %s; %s = %s in if #%s == 0 then %s else %s <- {(mod(%s, #%s), %s) : %s in %s; %s in [0:#%s]})' % (
                s, g(), w, g(LL=LTOP), s, s, s, ie, s, x, x, w, j, w)

        def permute_():
            self.note('permute')
            if self.chance(0.3):
                return named(lambda s: 'permute(%s, reverse(index(#%s)))' % (s, s))
            return named(lambda s: 'permute(%s, rank(%s))' % (
                s, lam_in(s, e, r.choice([INT, FLOAT]))))

        def dist_():
            self.note('dist')
            return 'dist(%s, mod(%s, %d))' % (self.gen(e, d, IN, B), self.gen(INT, d), L + 1)

        def conses():
            k = r.choice(['cons', 'snoc', 'vpair'])
            if L < 2:
                return None
            if k == 'vpair':
                return 'vpair(%s, %s)' % (self.gen(e, d, IN, B), self.gen(e, d, IN, B))
            if k == 'cons':
                return 'cons(%s, %s)' % (self.gen(e, d, IN, B), g(LL=L - 1))
            return 'snoc(%s, %s)' % (g(LL=L - 1), self.gen(e, d, IN, B))

        def pack_():
            self.note('pack')
            return named(lambda s: 'pack(zip(%s, %s))' % (s, lam_in(s, e, BOOL)))

        def interleave_():
            if L < 2:
                return None
            self.note('interleave')
            return named(lambda s: 'interleave(%s, %s)' % (s, lam_in(s, e, e, IN, B)),
                         LL=L // 2)

        def flatten_():
            if L < IN:
                return None
            self.note('flatten')
            return 'flatten(%s)' % self.gen(Seq(t), d, L // IN, B)

        def ints():
            if e != INT:
                return None
            k = r.choice(['range', 'range3', 'index', 'iseq', 'rank', 'scan', 'sort',
                          'pack_index', 'enumerate', 'search', 'dedup', 'lff'])
            self.note('int-seq-' + k)
            gi = lambda: self.gen(INT, d)
            if k == 'range':
                a = self.fresh()
                return '(let %s = mod(%s, 10) - 5 in [%s : %s + mod(%s, %d)])' % (
                    a, gi(), a, a, gi(), L + 1)
            if k == 'range3':
                st = r.randint(1, 3)
                a = ilit(r.randint(-3, 3))
                return '[%s : %s + mod(%s, %d) : %d]' % (a, a, gi(), L * st + 1, st)
            if k == 'index':
                return 'index(mod(%s, %d))' % (gi(), L + 1)
            if k == 'iseq':
                st = r.randint(1, 3)
                return 'iseq(0, %d, mod(%s, %d))' % (st, gi(), L * st + 1)
            if k == 'rank':
                return '%s(%s)' % (r.choice(['rank', 'rank_down']),
                                   self.gen(Seq(r.choice([INT, FLOAT])), d, L, B))
            if k == 'scan':
                return '%s(%s)' % (r.choice(['plus_scan', 'max_scan', 'min_scan', 'mult_scan'] +
                                            ([] if c.weak else ['or_scan', 'and_scan', 'xor_scan'])), g())
            if k == 'sort':
                return 'sort(%s)' % g()
            if k == 'pack_index':
                return 'pack_index(%s)' % self.gen(Seq(BOOL), d, L)
            if k == 'enumerate':
                return 'enumerate(%s)' % self.gen(Seq(BOOL), d, L)
            if k == 'search':
                tt = Seq(r.choice([INT, CHAR]))
                return 'search_for_subseqs(%s, %s)' % (self.gen(tt, d, 3), self.gen(tt, d, L))
            if k == 'dedup':
                return 'sort(remove_duplicates(%s))' % g()
            if k == 'lff':
                return named(lambda s: '(if #%s == 0 then [] int else length_from_flags(%s))' % (s, s),
                             tt=Seq(BOOL))

        def floats():
            if e != FLOAT:
                return None
            k = r.choice(['plus_scan', 'sort', 'maxscan', 'conv'])
            self.note('float-seq-' + k)
            if k == 'plus_scan':
                n = max(1, L)
                return 'plus_scan(%s)' % self.gen(t, d, n, max(1, B // n))
            if k == 'sort':
                return 'sort(%s)' % g()
            if k == 'maxscan':
                x = self.fresh()
                return '{min(max(%s, %s), %s) : %s in %s(%s)}' % (
                    x, flit(-B), flit(B), x, r.choice(['max_scan', 'min_scan']), g())
            i = self.fresh()
            return named(lambda s: '{float(mod(%s, %d)) : %s in %s}' % (
                i, max(1, min(B, 1000)), i, s), tt=Seq(INT))

        def bools():
            if e != BOOL:
                return None
            self.note('bool-scan')
            return '%s(%s)' % (r.choice(['or_scan', 'and_scan', 'xor_scan']), g())

        def chars():
            if e != CHAR:
                return None
            k = r.choice(['at', 'pad', 'lit', 'exp'])
            self.note('string-' + k)
            if k == 'at':
                return self.fit('(@%s)' % self.gen(self.rand_type(2), d, IN, B), t, 1000, B, L, B)
            if k == 'pad':
                w = 'mod(%s, %d)' % (self.gen(INT, d), L + 1)
                if self.chance(0.5):
                    w = '(0 - %s)' % w
                return '(%s || %s)' % (g(), w)
            if k == 'exp':
                return self.fit('exp_string(%s, mod(%s, 5))' % (self.gen(FLOAT, d), self.gen(INT, d)),
                                t, 1000, B, L, B)
            return self.lit(t, L, B)

        def nested():
            if not is_seq(e):
                return None
            k = r.choice(['partition', 'partition3', 'bottop', 'split', 'transpose', 'wordify',
                          'collect'])
            self.note('nest-' + k)
            if k == 'partition':
                s, a = self.fresh('s'), self.fresh()
                return '(let %s = %s; %s = mod(%s, #%s + 1) in partition(%s, [%s, #%s - %s]))' % (
                    s, self.gen(e, d, IN, B), a, self.gen(INT, d), s, s, a, s, a)
            if k == 'partition3' and L >= 3:
                s, a, b = self.fresh('s'), self.fresh(), self.fresh()
                return ('(let %s = %s; %s = mod(%s, #%s + 1); %s = mod(%s, #%s + 1) in '
                        'partition(%s, [min(%s, %s), max(%s, %s) - min(%s, %s), #%s - max(%s, %s)]))') % (
                    s, self.gen(e, d, IN, B), a, self.gen(INT, d), s, b, self.gen(INT, d), s,
                    s, a, b, a, b, a, b, s, a, b)
            if k == 'bottop':
                return 'bottop(%s)' % self.gen(e, d, IN, B)
            if k == 'split':
                s = self.fresh('s')
                return '(let %s = %s in split(%s, %s))' % (
                    s, self.gen(e, d, IN, B), s, lam_in(s, e[1], BOOL))
            if k == 'transpose' and c.par < MAXPAR - 1:
                i, j = self.fresh(), self.fresh()
                kk = r.randint(0, min(L, IN))
                u = self.rand_type(1)
                inner = d.bind([Var(i, u, IN, BF), Var(j, INT)], par=c.par + 2,
                               mult=c.mult * 16, hot=(i, j))
                self.note('transpose')
                return 'transpose({{%s : %s in [0:%d]} : %s in %s})' % (
                    self.gen(e[1], inner, IN, B), j, kk, i, self.gen(Seq(u), d, IN, BF))
            if k == 'collect' and not self.outer_seq(e[1]):
                s, kk, vv = self.fresh('s'), self.fresh(), self.fresh()
                self.note('int_collect')
                return '(let %s = %s in {%s : (%s, %s) in int_collect(zip(%s, %s))})' % (
                    s, self.gen(Seq(INT), d, IN), vv, kk, vv, s, lam_in(s, INT, e[1], IN, B))
            if k == 'wordify' and e == Seq(CHAR):
                w = ''.join(r.choice('ab  c') for _ in range(r.randint(0, 7)))
                return 'wordify("%s")' % w
            return None

        def tuples():
            if not is_tup(e):
                return None
            k = r.choice(['zip', 'collect', 'zip3'])
            if k == 'collect' and e[1] == INT and is_seq(e[2]) and not self.outer_seq(e[2][1]):
                self.note('int_collect')
                s = self.fresh('s')
                return '(let %s = %s in int_collect(zip(%s, %s)))' % (
                    s, self.gen(Seq(INT), d, IN, B), s, lam_in(s, INT, e[2][1], IN, B))
            self.note('zip')
            return named(lambda s: 'zip(%s, %s)' % (s, lam_in(s, e[1], e[2], IN, B)),
                         tt=Seq(e[1]))

        return self.pick(self.common(t, c, L, B) + [
            (16, each), (2, short_each), (3, append), (5, reorder), (2, gather), (2, scatter),
            (2, permute_), (2, dist_), (2, conses), (2, pack_), (1, interleave_),
            (3, flatten_), (8, ints), (4, floats), (3, bools), (5, chars), (5, nested),
            (5, tuples)])

    # ------------------------------------------------------ definitions
    def params(self, n):
        ps = []
        for _ in range(n):
            t = self.rand_type(2)
            ps.append((t, LTOP, BP))
        return ps

    def param_patterns(self, ps):
        texts, vs = [], []
        for (t, L, B) in ps:
            p, v = self.pattern(t, L, B, destructure=0.3)
            texts.append(p)
            vs += v
        return texts, vs

    def def_plain(self, env):
        name = self.fresh('fn')
        ps = self.params(self.r.randint(1, 3))
        ret = self.rand_type(2)
        texts, vs = self.param_patterns(ps)
        c = Ctx(env + vs, depth=self.r.randint(3, 5), hot=tuple(v.name for v in vs), weak=True)
        body = self.gen(ret, c, LTOP, BF)
        f = Fn(name, ps, ret, 'plain')
        f.cost = 1 + c.cost[0]
        self.funs.append(f)
        self.note('def-plain')
        return 'function %s(%s) = %s;' % (name, ', '.join(texts), body)

    def def_ho(self, env):
        """A function with a function parameter."""
        name = self.fresh('fn')
        ft = Fun(self.rand_type(1, allow_data=False), self.rand_type(1, allow_data=False))
        g = self.fresh('g')
        ps = self.params(self.r.randint(1, 2))
        ret = self.rand_type(2)
        texts, vs = self.param_patterns(ps)
        vs.append(Var(g, ft))
        c = Ctx(env + vs, depth=self.r.randint(3, 5), hot=(g,), weak=True)
        body = self.gen(ret, c, LTOP, BF)
        f = Fn(name, [(ft, LTOP, BF)] + ps, ret, 'ho')
        f.cost = 1 + c.cost[0]
        self.funs.append(f)
        self.note('def-ho')
        return 'function %s(%s) = %s;' % (name, ', '.join([g] + texts), body)

    def def_countdown(self, env):
        """if n <= 0 then BASE else let r = <recursive call(s)> in STEP"""
        name = self.fresh('fn')
        n = self.fresh('n')
        ps = self.params(self.r.randint(0, 2))
        ret = self.rand_type(2)
        texts, vs = self.param_patterns(ps)
        f = Fn(name, [(INT, LTOP, BF)] + ps, ret, 'countdown')
        cost = [0]
        c = Ctx(env + vs + [Var(n, INT)], depth=self.r.randint(2, 4), cost=cost, weak=True)
        base = self.gen(ret, c, LTOP, BF)
        k = self.r.choice(['one', 'each', 'all_below', 'two'])
        rv = self.fresh('r')
        d = c.sub()

        def rec_args(cc, first):
            return ', '.join([first] + [self.gen(pt, cc, pL, pB) for (pt, pL, pB) in ps])

        if k == 'one':
            call = '%s(%s)' % (name, rec_args(d, '%s - 1' % n))
            rvar = Var(rv, ret)
            fan = 1
        elif k == 'two':
            call = '(%s(%s), %s(%s))' % (name, rec_args(d, '%s - 1' % n),
                                         name, rec_args(d, 'max(%s - 2, 0)' % n))
            rvar = Var(rv, Tup(ret, ret))
            fan = 2
        elif k == 'each':
            u = self.rand_type(1)
            x = self.fresh()
            inner = d.bind([Var(x, u, IN, BF)], par=1, mult=3)
            call = '{%s(%s) : %s in %s}' % (name, rec_args(inner, '%s - 1' % n), x,
                                            self.gen(Seq(u), d, 3, BF))
            rvar = Var(rv, Seq(ret), 3)
            fan = 3
        else:
            m = self.fresh('m')
            inner = d.bind([Var(m, INT)], par=1, mult=4)
            call = '{%s(%s) : %s in [0:%s]}' % (name, rec_args(inner, m), m, n)
            rvar = Var(rv, Seq(ret), 4)
            fan = 2
        self.note('rec-countdown-' + k)
        step = self.gen(ret, c.bind([rvar], hot=(rv,)), LTOP, BF)
        f.cost = (1 + cost[0]) * fan ** 4
        self.funs.append(f)
        return 'function %s(%s) = if %s <= 0 then %s else let %s = %s in %s;' % (
            name, ', '.join([n] + texts), n, base, rv, call, step)

    def tail_expr(self, t, scal, seq, depth):
        """A scalar expression of type t over the tail function's scalars
        scal ((name, type) pairs) and its unchanged sequence seq ((name,
        element type) or None): arithmetic, divisions by a variable and
        square roots that cannot fail, a length, and now and then a
        subscript that may -- the operations the loop runs (or checks)."""
        r = self.r
        vars_t = [v for (v, vt) in scal if vt == t]
        if depth <= 0 or self.chance(0.3):
            if vars_t and self.chance(0.7):
                return r.choice(vars_t)
            return self.lit(t)
        e = lambda tt: self.tail_expr(tt, scal, seq, depth - 1)

        def read(k):   # a subscript of the sequence, if it holds t: may fail
            if k != 'read' or not seq or seq[1] != t or not self.chance(0.3):
                return None
            self.note('tail-read')
            return '%s[mod(%s, 8)]' % (seq[0], e(INT))
        if t == INT:
            k = r.choice(['add', 'mul', 'sub', 'mod', 'div', 'len', 'btoi', 'round', 'read'])
            if k == 'len' and seq:
                return '#%s' % seq[0]
            x = read(k)
            if x:
                return x
            if k == 'div':
                return '(%s / (abs(%s) + 1))' % (e(INT), e(INT))
            if k == 'mod':
                return 'mod(%s, 7)' % e(INT)
            if k == 'btoi':
                return 'btoi(%s)' % e(BOOL)
            if k == 'round':
                return 'round(%s)' % e(FLOAT)
            op = {'add': '+', 'mul': '*', 'sub': '-'}.get(k, '+')
            return '(%s %s %s)' % (e(INT), op, e(INT))
        if t == FLOAT:
            k = r.choice(['add', 'mul', 'div', 'sqrt', 'float', 'read'])
            x = read(k)
            if x:
                return x
            if k == 'div':
                return '(%s / (abs(%s) + 1.0))' % (e(FLOAT), e(FLOAT))
            if k == 'sqrt':
                return 'sqrt(abs(%s))' % e(FLOAT)
            if k == 'float':
                return 'float(mod(%s, 1000))' % e(INT)
            return '(%s %s %s)' % (e(FLOAT), '+' if k == 'add' else '*', flit(0.5))
        if t == BOOL:
            k = r.choice(['lt', 'not', 'and', 'eq'])
            if k == 'lt':
                return '(%s < %s)' % (e(INT), e(INT))
            if k == 'not':
                return 'not(%s)' % e(BOOL)
            if k == 'eq':
                return '(%s == %s)' % (e(CHAR), e(CHAR))
            return '(%s and %s)' % (e(BOOL), e(BOOL))
        return 'code_char(97 + mod(%s, 26))' % e(INT)

    def def_tail(self, env):
        """if n <= 0 then BASE else f(n - 1, NEXT, ..., s): a tail recursion
        on a decreasing int with scalar accumulators and, now and then, a
        sequence of scalars passed on unchanged, the shape the flattener
        runs as one loop per element (flatten/sequential.c).  Its
        expressions come from tail_expr, so that most such functions loop."""
        name = self.fresh('fn')
        n = self.fresh('n')
        scalars = [INT, INT, FLOAT, BOOL, CHAR]
        ps = [(self.r.choice(scalars), LTOP, BP) for _ in range(self.r.randint(1, 3))]
        inv = self.chance(0.5)
        if inv:
            ps.append((Seq(self.r.choice([INT, FLOAT])), LTOP, BP))
        ret = self.r.choice([pt for (pt, _, _) in ps if not is_seq(pt)] + [INT])
        names = [self.fresh('v') for _ in ps]
        scal = [(n, INT)] + [(v, pt) for v, (pt, _, _) in zip(names, ps) if not is_seq(pt)]
        seq = (names[-1], ps[-1][0][1]) if inv else None
        f = Fn(name, [(INT, LTOP, BF)] + ps, ret, 'countdown')
        depth = self.r.randint(1, 3)
        base = self.tail_expr(ret, scal, seq, depth)
        nexts = ['%s - 1' % n] + [self.tail_expr(pt, scal, seq, depth) for (pt, _, _) in ps[:len(ps) - inv]]
        if inv:
            nexts.append(names[-1])
        self.note('rec-tail' + ('-inv' if inv else ''))
        f.tail = True   # called over a sequence at the top level: a lifted call loops
        f.cost = 5 * (len(ps) + 2)
        self.funs.append(f)
        return 'function %s(%s) = if %s <= 0 then %s else %s(%s);' % (
            name, ', '.join([n] + names), n, base, name, ', '.join(nexts))

    def def_mutual(self, env):
        """Two functions recursive on a decreasing int through each other,
        with a forward declaration (NESL.md 2.1).  Returns two or three lines."""
        a, b = self.fresh('fn'), self.fresh('fn')
        ps = self.params(self.r.randint(0, 2))
        ret = self.rand_type(2)
        sig = ' : %s -> %s' % (
            self.tstr(INT) if not ps else '(%s)' % ', '.join(
                [INT] + [self.tstr(pt) for (pt, _, _) in ps]), self.tstr(ret))
        fa = Fn(a, [(INT, LTOP, BF)] + ps, ret, 'countdown')
        fb = Fn(b, [(INT, LTOP, BF)] + ps, ret, 'countdown')
        bodies = {}
        cost = [0]
        for me, other, fan in ((b, a, 1), (a, b, 3)):
            n = self.fresh('n')
            texts, vs = self.param_patterns(ps)
            c = Ctx(env + vs + [Var(n, INT)], depth=self.r.randint(2, 4), cost=cost, weak=True)
            base = self.gen(ret, c, LTOP, BF)
            d = c.sub()
            rv = self.fresh('r')
            if fan == 1:
                args = ', '.join(['%s - 1' % n] + [self.gen(pt, d, pL, pB) for (pt, pL, pB) in ps])
                call = '%s(%s)' % (other, args)
                rvar = Var(rv, ret)
            else:
                u = self.rand_type(1)
                x = self.fresh()
                inner = d.bind([Var(x, u, IN, BF)], par=1, mult=3)
                args = ', '.join(['%s - 1' % n] + [self.gen(pt, inner, pL, pB) for (pt, pL, pB) in ps])
                call = '{%s(%s) : %s in %s}' % (other, args, x, self.gen(Seq(u), d, 3, BF))
                rvar = Var(rv, Seq(ret), 3)
            step = self.gen(ret, c.bind([rvar], hot=(rv,)), LTOP, BF)
            bodies[me] = 'function %s(%s)%s = if %s <= 0 then %s else let %s = %s in %s;' % (
                me, ', '.join([n] + texts), sig, n, base, rv, call, step)
        fa.cost = fb.cost = (1 + cost[0]) * 9
        self.funs += [fa, fb]
        self.note('rec-mutual')
        pnames = ', '.join(['n'] + ['p%d' % i for i in range(len(ps))])
        return '\n'.join(['function %s(%s)%s;' % (a, pnames, sig), bodies[b], bodies[a]])

    def def_divide(self, env):
        """Recursion on a strictly shrinking sequence (quicksort-like)."""
        name = self.fresh('fn')
        s = self.fresh('s')
        et = self.rand_type(1) if self.chance(0.5) else self.r.choice([INT, FLOAT])
        ps = self.params(self.r.randint(0, 1))
        ret = self.r.choice([Seq(et), Seq(et), self.rand_type(2)])
        texts, vs = self.param_patterns(ps)
        f = Fn(name, [(Seq(et), LTOP, BP)] + ps, ret, 'divide')
        cost = [0]
        c = Ctx(env + vs + [Var(s, Seq(et), LTOP, BP)], depth=self.r.randint(2, 4),
                cost=cost, weak=True)
        d = c.sub()
        base = self.gen(ret, c.bind([], hot=(s,)), LTOP, BF)
        k = self.r.choice(['bottop', 'halves', 'oddeven', 'pivot'] if is_ordinal(et)
                          else ['bottop', 'halves', 'oddeven'])
        h = self.fresh('h')
        if k == 'bottop':
            parts = 'bottop(%s)' % s
        elif k == 'halves':
            parts = '[take(%s, #%s / 2), drop(%s, #%s / 2)]' % (s, s, s, s)
        elif k == 'oddeven':
            parts = '[odd_elts(%s), even_elts(%s)]' % (s, s)
        else:
            p = self.fresh()
            parts = '(let %s = %s[#%s / 2] in [{x in %s | x < %s}, {x in %s | x > %s}])' % (
                p, s, s, s, p, s, p)
        rv = self.fresh('r')
        v = self.fresh()
        inner = d.bind([Var(v, Seq(et), LTOP, BP)], par=1, mult=2)
        args = ', '.join([v] + [self.gen(pt, inner, pL, pB) for (pt, pL, pB) in ps])
        call = '{%s(%s) : %s in %s}' % (name, args, v, h)
        self.note('rec-divide-' + k)
        # quicksort shape: results combined around the pivot elements
        if k == 'pivot' and ret == Seq(et) and self.chance(0.5):
            p = self.fresh()
            step = '%s[0] ++ {x in %s | x == %s[#%s / 2]} ++ %s[1]' % (rv, s, s, s, rv)
            self.note('quicksort')
        else:
            step = self.gen(ret, c.bind([Var(rv, Seq(ret), 2), Var(h, Seq(Seq(et)), 2, BP)],
                                        hot=(rv,)), LTOP, BF)
        f.cost = (1 + cost[0]) * 16
        self.funs.append(f)
        return 'function %s(%s) = if #%s < 2 then %s else let %s = %s; %s = %s in %s;' % (
            name, ', '.join([s] + texts), s, base, h, parts, rv, call, step)

    def def_data(self):
        name = self.fresh('dt')
        fs = [self.rand_type(1, allow_data=bool(self.datas)) for _ in range(self.r.randint(1, 3))]
        self.datas[name] = fs
        self.note('datatype')
        return 'datatype %s(%s);' % (name, ', '.join(self.tstr(f) for f in fs))

    # ------------------------------------------------------ errors
    def error_form(self, env):
        """A top-level expression with exactly one failing site."""
        r = self.r
        c = Ctx(env, depth=2)
        k = r.choice(['div', 'sub', 'range', 'take', 'gather', 'zip', 'each', 'partition',
                      'sqrt', 'scatter', 'permute', 'pow'])
        self.note('error-' + k)
        x = self.fresh()
        lit = '[%s]' % ', '.join(str(r.randint(0, 9)) for _ in range(r.randint(1, 4)))
        s = self.fresh('s')
        if k == 'div':
            body = '(%s %s 0)' % (x, r.choice(['/', '/']))
            if self.chance(0.5):
                body = 'rem(%s, 0)' % x
        elif k == 'sub':
            body = '(let %s = %s in %s[#%s + mod(%s, 3)])' % (s, self.gen(Seq(INT), c), s, s, x)
        elif k == 'range':
            body = '#[mod(%s, 5) + 1 : 0]' % x
        elif k == 'take':
            body = '(let %s = %s in #take(%s, #%s + 1 + mod(%s, 2)))' % (s, self.gen(Seq(INT), c), s, s, x)
        elif k == 'gather':
            body = '(let %s = %s in sum(%s -> [#%s]))' % (s, self.gen(Seq(INT), c), s, s)
        elif k == 'zip':
            body = '(let %s = %s in #zip(%s, [%s] ++ %s))' % (s, self.gen(Seq(INT), c), s, x, s)
        elif k == 'each':
            body = '(let %s = %s in sum({a + b : a in %s; b in [%s] ++ %s}))' % (
                s, self.gen(Seq(INT), c), s, x, s)
        elif k == 'partition':
            body = '(let %s = %s in #partition(%s, [#%s + 1]))' % (s, self.gen(Seq(INT), c), s, s)
        elif k == 'sqrt':
            body = 'round(sqrt(-1.0 - abs(float(%s))))' % x
        elif k == 'scatter':
            body = '(let %s = %s in sum(%s <- [(#%s, %s)]))' % (s, self.gen(Seq(INT), c), s, s, x)
        elif k == 'permute':
            body = '(let %s = %s in sum(permute(%s, index(#%s + 1))))' % (s, self.gen(Seq(INT), c), s, s)
        else:
            body = '(%s ^ (0 - 1 - mod(%s, 3)))' % (x, x)
        w = r.choice(['top', 'each', 'let', 'fun'])
        self.note('error-in-' + w)
        if w == 'top':
            return '(let %s = %s in %s);' % (x, r.randint(0, 9), body)
        if w == 'each':
            return '{%s : %s in %s};' % (body, x, lit)
        if w == 'let':
            return '(let %s = %s in %s + 1);' % (x, self.gen(INT, c), body)
        fname = self.fresh('fnerr')
        self.err_fun = 'function %s(%s) = %s;' % (fname, x, body)
        y = self.fresh()
        return '{%s(%s) : %s in %s};' % (fname, y, y, lit)

    # ------------------------------------------------------ program
    def program(self):
        r = self.r
        sm = self.small
        out = []
        self.pending_generic = []
        env = []

        def flush():
            out.extend(self.pending_generic)
            self.pending_generic = []

        if self.chance(0.3):
            out.append(self.def_data())
            if self.chance(0.3):
                out.append(self.def_data())
        # globals
        for _ in range(r.randint(0, 1 if sm else 3)):
            t = self.rand_type(2)
            e = self.gen(t, Ctx(list(env), depth=3), LTOP, BF)
            if is_tup(t) and self.chance(0.4):
                p, vs = self.pattern(t, LTOP, BF, destructure=1.0)
                self.note('toplevel-pattern')
            else:
                n = self.fresh('gl')
                p, vs = n, [Var(n, t)]
            flush()
            out.append('%s = %s;' % (p, e))
            env += vs
        # functions
        kinds = ['plain', 'plain', 'countdown', 'divide', 'ho', 'tail']
        for _ in range(r.randint(1, 2 if sm else 5)):
            k = r.choice(kinds)
            if k == 'countdown' and self.chance(0.3):
                k = 'mutual'
            text = {'plain': self.def_plain, 'countdown': self.def_countdown,
                    'divide': self.def_divide, 'ho': self.def_ho,
                    'mutual': self.def_mutual, 'tail': self.def_tail}[k](list(env))
            flush()
            out.append(text)
        # top-level expressions
        self.err_fun = None
        nerr = 1 if self.chance(0.08) else 0
        forms = []
        for i in range(r.randint(1, 3) if sm else r.randint(4, 8)):
            t = self.rand_type(2)
            if self.chance(0.5) and not is_seq(t):
                t = Seq(t)
            c = Ctx(list(env), depth=r.randint(2, 4) if sm else r.randint(3, 6))
            # now and then a long sequence (printed truncated after 100)
            L = LLONG if is_seq(t) and self.chance(0.1) and not sm else LTOP
            if L == LLONG:
                self.note('long-seq')
            e = self.gen(t, c, L, BF)
            flush()
            forms.append('%s;' % e)
        if nerr:
            ef = self.error_form(env)
            flush()
            if self.err_fun:
                out.append(self.err_fun)
            forms.insert(r.randint(0, len(forms)), ef)
        # the user functions, called from the top level over several values
        for f in self.funs:
            if (getattr(f, 'tail', False) or self.chance(0.5)) and f.kind != 'ho':
                x = self.fresh()
                c = Ctx(list(env), depth=3, par=1, mult=LTOP)
                if f.kind == 'countdown':
                    args = ['mod(%s, 5)' % x] + [self.gen(pt, c.bind([Var(x, INT)]), pL, pB)
                                               for (pt, pL, pB) in f.params[1:]]
                    forms.append('{%s(%s) : %s in [0:%d]};' % (f.name, ', '.join(args), x, r.randint(1, 6)))
                else:
                    (pt, pL, pB) = f.params[0]
                    rest = [self.gen(qt, c.bind([Var(x, pt, pL, pB)]), qL, qB)
                            for (qt, qL, qB) in f.params[1:]]
                    forms.append('{%s(%s) : %s in %s};' % (
                        f.name, ', '.join([x] + rest), x,
                        self.gen(Seq(pt), Ctx(list(env), depth=3), 5, pB)))
                self.note('call-toplevel-each')
                flush()
        out += forms
        return '%% nesl_gen %d%s, seed %d %%\n' % (VERSION, ' small' if sm else '', self.seed) \
            + '\n'.join(out) + '\n'


def generate(seed, small=False):
    return Gen(seed, small).program()


def main(argv):
    args = argv[1:]
    small = '--small' in args
    args = [a for a in args if a != '--small']
    if len(args) == 3 and args[0] == '--stats':
        tot = {}
        for s in range(int(args[2]), int(args[2]) + int(args[1])):
            g = Gen(s, small)
            g.program()
            for k, v in g.stats.items():
                tot[k] = tot.get(k, 0) + 1
        for k in sorted(tot):
            print('%6d  %s' % (tot[k], k))
        return 0
    if len(args) != 1:
        sys.stderr.write('usage: nesl_gen.py [--small] SEED | [--small] --stats N SEED\n')
        return 2
    sys.stdout.write(generate(int(args[0]), small))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
