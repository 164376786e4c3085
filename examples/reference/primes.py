import sys, os
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from neslfmt import *

def primes(n):  # independent: plain Eratosthenes
    s = [True] * n
    out = []
    for i in range(2, n):
        if s[i]:
            out.append(i)
            for j in range(i * i, n, i):
                s[j] = False
    return out

fn('primes', 'int -> [int]')
fn('is_prime', 'int -> bool')
it(primes(2), '[int]')
it(primes(3), '[int]')
it(primes(100), '[int]')
p = primes(100000)
val('p', p, '[int]')
it(len(p), 'int')
it(p[-5:], '[int]')
assert sum(p) < 2**31
it(sum(p), 'int')
it(True, 'bool')
it([len(primes(k)) for k in [2, 3, 4, 5, 10, 11, 1000, 1024]], '[int]')
emit(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'primes.expected'))
