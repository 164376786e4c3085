import sys, os
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from neslfmt import *

n = 100000
val('n', n, 'int')
fn('quicksort', '[int] -> [int]')
fn('make_input', 'int -> [int]')
inp = [(i * 7919 + 13) % 30011 for i in range(n)]
assert all(0 <= i * 7919 + 13 < 2**31 for i in range(n))
s = sorted(inp)
it((len(s), s[:10], True), 'int, [int], bool')
emit(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'quicksort.expected'))
