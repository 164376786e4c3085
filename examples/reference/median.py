import sys, os
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from neslfmt import *

fn('kth', '([int], int) -> int')
fn('my_median', '[int] -> int')
fn('make_input', 'int -> [int]')
it(sorted([9, 2, 7, 4])[1], 'int')
it(sorted([9, 2, 7, 4])[2], 'int')
it(sorted([5, 5, 5, 1, 5])[2], 'int')
n = 10001
val('n', n, 'int')
s = sorted([(i * 7919 + 13) % 65521 - 30000 for i in range(n)])
ks = [0, 1, 17, 5000, 9999, 10000]
r = [s[k] for k in ks]
it((r, True, True, s[n // 2], s[n // 2]), '[int], bool, bool, int, int')
emit(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'median.expected'))
