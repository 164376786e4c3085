import sys, os
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from neslfmt import *

def make_input(n):
    return [(i * 7919 + 13) % 1009 - 500 for i in range(n)]

fn('bitonic_merge', '[int] -> [int]')
fn('bitonic_sort', '[int] -> [int]')
fn('make_input', 'int -> [int]')
it(sorted([7, 3, 6, 8, 1, 4, 2, 5]), '[int]')
it([4], '[int]')
it(sorted(make_input(16)), '[int]')
it([True] * 13, '[bool]')
assert 7919 * 65536 < 2**31
r = sorted(make_input(65536))
it((len(r), r[:5], r[-3:]), 'int, [int], [int]')
emit(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'bitonic.expected'))
