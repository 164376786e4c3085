import sys, os
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from neslfmt import *

val('radix_bits', 4, 'int')
fn('radix_pass', '([int], int) -> [int]')
fn('radix_sort_from', '([int], int) -> [int]')
fn('radix_sort', '[int] -> [int]')
fn('make_input', 'int -> [int]')
a = [35, 18, 33, 20, 1, 49]
it(sorted(a, key=lambda x: x & 15), '[int]')   # python sort is stable
it(sorted([170, 45, 75, 90, 802, 24, 2, 66]), '[int]')
it([], '[int]')
it([0, 0, 0], '[int]')
assert 7919 * 20000 + 13 < 2**31
s = [((i * 7919 + 13) % 65537) * 31 + i % 31 for i in range(20000)]
r = sorted(s)
it((len(r), r[:6], r[-2:], True), 'int, [int], [int], bool')
emit(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'radixsort.expected'))
