import sys, os
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from neslfmt import *
from fractions import Fraction as Fr

M = 40
PAL = " .,:;-=+*%"

def fma(a, b, c): return float(Fr(a) * Fr(b) + Fr(c))
VARIANTS = [  # (complex square, |z|^2): plain IEEE and fused multiply-add versions
    (lambda a, b: (a * a - b * b, a * b + b * a), lambda a, b: a * a + b * b),
    (lambda a, b: (fma(a, a, -(b * b)), fma(a, b, b * a)), lambda a, b: fma(a, a, b * b)),
    (lambda a, b: (fma(-b, b, a * a), fma(b, a, a * b)), lambda a, b: fma(b, b, a * a)),
]

def mandel(cr, ci):
    res = set()
    for sq, mag in VARIANTS:
        zr = zi = 0.0; k = 0
        while not (k >= M or mag(zr, zi) > 4.0):
            zr, zi = sq(zr, zi)
            zr, zi = zr + cr, zi + ci
            k += 1
        res.add(k)
    assert len(res) == 1, (cr, ci, res)
    return res.pop()

fn('complex', '(float, float) -> complex')
val('maxiter', M, 'int')
val('palette', PAL, '[char]')
fn('c_add', '(complex, complex) -> complex')
fn('c_mul', '(complex, complex) -> complex')
fn('c_mag2', 'complex -> float')
fn('escape', '(complex, complex, int) -> int')
fn('mandel', 'complex -> int')
fn('shade', 'int -> char')
fn('grid', '(int, int) -> [[int]]')
it(Dt('complex', (1.0 * 3.0 - 2.0 * -1.0, 1.0 * -1.0 + 2.0 * 3.0)), 'complex')
it(mandel(0.0, 0.0), 'int')
it(mandel(1.0, 1.0), 'int')
it(mandel(-0.75, 0.125), 'int')
g = [[mandel(-2.25 + 0.0625 * j, -1.125 + 0.140625 * i) for j in range(48)] for i in range(17)]
it(([sum(r) for r in g], sum(sum(1 for k in r if k == M) for r in g)), '[int], int')
pic = [''.join('#' if k >= M else PAL[k * 10 // M] for k in r) for r in g]
it(pic, '[[char]]')
emit(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'mandelbrot.expected'))
