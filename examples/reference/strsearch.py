import sys, os
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from neslfmt import *

def search(p, s):  # independent: brute force over all positions
    return [i for i in range(len(s) - len(p) + 1) if s[i:i + len(p)] == p]

def make_text(n):
    assert 7919 * n < 2**31
    return ''.join(chr(97 + (((i * 7919 + 13) % 9973) ** 2 % 7919) % 3) for i in range(n))

fn('narrow', '([char], [char], [int], int) -> [int]')
fn('str_search', '([char], [char]) -> [int]')
fn('make_text', 'int -> [char]')
it(search("ab", "abcab"), '[int]')
it(search("ana", "bananarama ananas"), '[int]')
it(search("xyz", "xy"), '[int]')
it(search("a", ""), '[int]')
val('text', make_text(40), '[char]')
s = make_text(20000)
pats = ["abc", "aab", "abcab", "bbbb", "a"]
found = [search(p, s) for p in pats]
it(([len(f) for f in found], found[0][:5], True), '[int], [int], bool')
emit(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'strsearch.expected'))
