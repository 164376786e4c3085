# NESL.md section 9 conformance vectors, section 10 observed outputs, printer layout,
# reference-only orders, and library runtime errors (5.6).
from gen_expected import T, E, B, D, ERR, C, Ch, FN, Raw

MIN, MAX = -2147483648, 2147483647

# ---- section 9, every vector, in order -------------------------------------------
T('lib_conformance_s9_a', 'NESL.md section 9 vectors 1-15', [
 E('7 / 2;', 3, 'int'),
 E('-7 / 2;', -3, 'int'),
 E('rem(-7, 2);', -1, 'int'),
 E('mod(-7, 2);', 1, 'int'),
 E('2 ^ 10;', 1024, 'int'),
 E('-2 ^ 2;', 4, 'int'),
 E('2 ^ 3 ^ 2;', 64, 'int'),
 E('isqrt(17);', 4, 'int'),
 E('trunc(-2.7);', -2, 'int'),
 E('floor(-2.7);', -3, 'int'),
 E('ceil(-2.2);', -2, 'int'),
 E('round(2.5);', 3, 'int'),
 E('not(0);', -1, 'int'),
 E('5 xor 3;', 6, 'int'),
 E('any([1, 2]);', 3, 'int'),
])

T('lib_conformance_s9_b', 'NESL.md section 9 vectors 16-30', [
 E('parity([6, 3]);', 5, 'int'),
 E('all([] bool);', True, 'bool'),
 E('sum([] int);', 0, 'int'),
 E('product([] float);', 1.0, 'float'),
 E('mult_scan([2, 3, 4]);', [1, 2, 6], '[int]'),
 E('xor_scan([t, t, t]);', [False, True, False], '[bool]'),
 E('and_scan([t, t, f, t]);', [True, True, True, False], '[bool]'),
 E('[2:9:3];', [2, 5, 8], '[int]'),
 E('[10, 20, 30, 40] -> [3, 0];', [40, 10], '[int]'),
 E('[0, 0, 0, 0] <- [(1, 5), (3, 7)];', [0, 5, 0, 7], '[int]'),
 E('permute([10, 20, 30], [2, 0, 1]);', [20, 30, 10], '[int]'),
 E('put([7, 8], [0, 2], [1, 1, 1, 1]);', [7, 1, 8, 1], '[int]'),
 E('join([1, 2], [0, 3], [9, 8], [1, 2]);', [1, 9, 8, 2], '[int]'),
 E('flag_merge([t, f, t], [1], [8, 9]);', [8, 1, 9], '[int]'),
 E('unpack([5, 6], [f, t, f, t]);', [0, 5, 0, 6], '[int]'),
])

T('lib_conformance_s9_c', 'NESL.md section 9 vectors 31-45', [
 E('split([1, 2, 3, 4, 5], [t, f, f, t, f]);', [[2, 3, 5], [1, 4]], '[[int]]'),
 E('bottop([1, 2, 3, 4, 5]);', [[1, 2, 3], [4, 5]], '[[int]]'),
 E('partition([1, 2, 3, 4, 5], [2, 0, 3]);', [[1, 2], [], [3, 4, 5]], '[[int]]'),
 E('transpose([[1, 2, 3], [4, 5, 6]]);', [[1, 4], [2, 5], [3, 6]], '[[int]]'),
 E('interleave([1, 2, 3], [7, 8, 9]);', [1, 7, 2, 8, 3, 9], '[int]'),
 E('odd_elts([0, 1, 2, 3, 4]);', [1, 3], '[int]'),
 E('take([5, 6, 7, 8], -1);', [8], '[int]'),
 E('kth_smallest([9, 2, 7, 4], 1);', 4, 'int'),
 E('median([9, 2, 7, 4]);', 7, 'int'),
 E('search_for_subseqs("ab", "abcab");', [0, 3], '[int]'),
 E('find(7, [1, 7, 7]);', 1, 'int'),
 E('max_index([3, 9, 9, 1]);', 1, 'int'),
 E('wordify("hi  there ");', ['hi', 'there'], '[[char]]'),
 E('identity((1, t));', (0, False), 'int, bool'),
 E('eql([1, 2], [1, 2]);', True, 'bool'),
])

T('lib_conformance_s9_d', 'NESL.md section 9 vectors 46-51 (printer)', [
 E('@[1, 2];', '[1, 2]', '[char]'),
 E('@(1, `x);', '(1, `x)', '[char]'),
 E('@t;', 't', '[char]'),
 E('"ab" || -4;', '  ab', '[char]'),
 E('(2, "ab");', (2, 'ab'), 'int, [char]'),
 E('[t, f];', [True, False], '[bool]'),
])

# ---- section 10, observed output ---------------------------------------------------
T('lib_observed_s10_floats', 'NESL.md section 10 float printing (and 5.9 examples)', [
 E('1.0 / 3.0;', Raw('0.333333333333333'), 'float'),
 E('2.0 / 3.0;', Raw('0.666666666666667'), 'float'),
 E('0.1 + 0.2;', Raw('0.3'), 'float'),
 E('100.0;', Raw('100.0'), 'float'),
 E('1.0e6;', Raw('1000000.0'), 'float'),
 E('1.0e7;', Raw('1.0E7'), 'float'),
 E('1.0e20;', Raw('1.0E20'), 'float'),
 E('1.0e-3;', Raw('0.001'), 'float'),
 E('1.0e-4;', Raw('1.0E-4'), 'float'),
 E('0.0005;', Raw('5.0E-4'), 'float'),
 E('123456789.0;', Raw('1.23456789E8'), 'float'),
 E('1.0 / 1024.0;', Raw('9.765625E-4'), 'float'),
 E('-0.0;', Raw('0.0'), 'float'),
 E('2.5e10;', Raw('2.5E10'), 'float'),
 E('sqrt(2.0);', Raw('1.4142135623731'), 'float'),
])

T('lib_observed_s10_values', 'NESL.md section 10 ints, tuples, empty sequences', [
 E('2147483647 + 1;', MIN, 'int'),
 E('max_scan([3, 1]);', [MIN, 3], '[int]'),
 E('(1, (2, 3));', (1, 2, 3), 'int, int, int'),
 E('((1, 2), 3);', ((1, 2), 3), '(int, int), int'),
 E('[(1, 2.0), (3, 4.0)];', [(1, 2.0), (3, 4.0)], '[(int, float)]'),
 E('[] int;', [], '[int]'),
 E('[] (int, bool);', [], '[(int, bool)]'),
 E('"";', '', '[char]'),
 E('rank([30, 10, 20, 10]);', [3, 0, 2, 1], '[int]'),
 E('rank_down([30, 10, 20, 10]);', [0, 2, 1, 3], '[int]'),
 E('int_collect([(1, `a), (2, `b), (1, `c)]);', [(1, 'ac'), (2, 'b')], '[(int, [char])]'),
 E('identity(5);', 0, 'int'),
 E('identity([1]);', [], '[int]'),
])

T('lib_observed_s10_conv', 'NESL.md section 10 conversions, shifts, not, ^', [
 E('round(2.5);', 3, 'int'),
 E('round(-2.5);', -2, 'int'),
 E('trunc(-2.7);', -2, 'int'),
 E('floor(-2.7);', -3, 'int'),
 E('ceil(-2.2);', -2, 'int'),
 E('rshift(-16, 2);', -4, 'int'),
 E('not(5);', -6, 'int'),
 E('2 ^ 10;', 1024, 'int'),
 E('eql([1, 2], [1] ++ [2]);', True, 'bool'),
])

def _dist_line(k):
    return [7] * k + [10, 10]

T('lib_observed_s10_layout', 'NESL.md section 10 line layout: values over 120 columns move to their own line', [
 E('dist([[1, 1, 2, 2], [1, 2, 3, 3]], 4);', [[[1, 1, 2, 2], [1, 2, 3, 3]]] * 4, '[[[int]]]'),
 E('dist(7, 33) ++ [10, 10];', _dist_line(33), '[int]'),
 E('dist(7, 33) ++ [10, 100];', [7] * 33 + [10, 100], '[int]'),
 B('big = index(60);', 'big', list(range(60)), '[int]'),
 E('flatten(dist("abcdefghij", 15));', 'abcdefghij' * 15, '[char]'),
 E('index(150);', list(range(150)), '[int]'),
 E('dist([1, 2], 101);', [[1, 2]] * 101, '[[int]]'),
 E('zip(index(20), dist("ab", 20));', list(zip(range(20), ['ab'] * 20)), '[(int, [char])]'),
])

# ---- orders that only the reference fixes (5.7: unspecified) -------------------------
T('lib_reforder_s10', 'REFERENCE-ORDER ONLY (see README): NESL.md section 10 collect/remove_duplicates and last-writer-wins', [
 E('collect([(1, `a), (2, `b), (1, `c)]);', [(2, 'b'), (1, 'ac')], '[(int, [char])]'),
 E('remove_duplicates([3, 1, 3, 2, 1]);', [3, 2, 1], '[int]'),
 E('[0, 0] <- [(0, 1), (0, 2)];', [2, 0], '[int]'),
])

# ---- library runtime errors (5.6); ALL PROVISIONAL, see README -----------------------
SUB = 'Sequence reference (a[i]) out of bounds.'
DIV = 'Divide by zero.'
RANGE = 'In [s:e:l], e must be >= to s, and l must be positive.'

T('lib_errors_subscript', 'subscript / gather / write out of range (5.6)', [
 ERR('[1, 2, 3][3];', SUB),
 ERR('[1, 2, 3][-1];', SUB),
 ERR('elt([] int, 0);', SUB),
 E('1 + 1;', 2, 'int'),
 ERR('[0:50000][50000];', SUB),
 ERR('{r[1] : r in [[1, 2], [3]]};', SUB, col=2),
 ERR('[1, 2] -> [2];', 'Index out of bounds for function ->.'),
 ERR('[0, 0] <- [(2, 1)];', 'Index out of bounds for function <-.'),
 ERR('[0, 0] <- [(-1, 1)];', 'Index out of bounds for function <-.'),
 E('[1, 2, 3][2];', 3, 'int'),
])

T('lib_errors_permute', 'permute length mismatch / index out of range (5.6)', [
 ERR('permute([1, 2, 3], [0, 1]);', 'Length mismatch in function permute.'),
 ERR('permute([1, 2], [0, 2]);', 'Index out of bounds for function permute.'),
 ERR('permute([1, 2], [-1, 0]);', 'Index out of bounds for function permute.'),
 E('permute([1, 2], [1, 0]);', [2, 1], '[int]'),
])

T('lib_errors_partition', 'partition counts not summing to the length (5.6)', [
 ERR('partition([1, 2, 3], [1, 1]);', 'Counts must sum to the length of the sequence in partition.'),
 ERR('partition([1, 2], [3]);', 'Counts must sum to the length of the sequence in partition.'),
 ERR('partition([] int, [1]);', 'Counts must sum to the length of the sequence in partition.'),
 E('partition([1, 2], [2]);', [[1, 2]], '[[int]]'),
])

T('lib_errors_zip', 'zip length mismatch (5.6)', [
 ERR('zip([1, 2], [1]);', 'Length mismatch in apply-to-each.'),
 ERR('zip([] int, [t]);', 'Length mismatch in apply-to-each.'),
 E('zip([1], [t]);', [(1, True)], '[(int, bool)]'),
])

T('lib_errors_take_drop_subseq', 'take / drop / subseq bounds (5.6)', [
 ERR('take([1, 2], 3);', 'Count out of bounds in take.'),
 ERR('take([1, 2], -3);', 'Count out of bounds in take.'),
 ERR('drop([1, 2], 3);', 'Count out of bounds in drop.'),
 ERR('drop([1], -2);', 'Count out of bounds in drop.'),
 ERR('subseq([1, 2, 3], 2, 1);', 'In subseq(a, s, e), must have 0 <= s <= e <= #a.'),
 ERR('subseq([1, 2, 3], 0, 4);', 'In subseq(a, s, e), must have 0 <= s <= e <= #a.'),
 ERR('subseq([1, 2, 3], -1, 2);', 'In subseq(a, s, e), must have 0 <= s <= e <= #a.'),
 E('take([1, 2], 2);', [1, 2], '[int]'),
])

T('lib_errors_math', 'sqrt / ln of negative, negative ^ exponent, rand of non-positive (5.6)', [
 ERR('sqrt(-1.0);', 'Sqrt of negative number.'),
 ERR('{sqrt(x) : x in [1.0, -4.0]};', 'Sqrt of negative number.', col=2),
 ERR('ln(-1.0);', 'Ln of negative number.'),
 ERR('2 ^ -1;', 'Negative exponent for ^.'),
 ERR('2.0 ^ -3;', 'Negative exponent for ^.'),
 ERR('rand(0);', 'Rand of a non-positive number.'),
 ERR('rand(-5);', 'Rand of a non-positive number.'),
 ERR('rand(0.0);', 'Rand of a non-positive number.'),
 ERR('rand(-1.5);', 'Rand of a non-positive number.'),
 E('sqrt(4.0);', 2.0, 'float'),
])

T('lib_errors_divide', 'division, rem, mod by zero (5.6)', [
 ERR('1 / 0;', DIV),
 ERR('1.0 / 0.0;', DIV),
 ERR('rem(5, 0);', DIV),
 ERR('mod(5, 0);', DIV),
 ERR('{10 / x : x in [1, 0]};', DIV, col=2),
 ERR('reciprocal(0.0);', DIV),
 ERR('rem(-5, 0);', DIV),
 E('10 / 3;', 3, 'int'),
])

T('lib_errors_ranges', 'invalid ranges in iseq, [s:e:d] and library internals (5.6)', [
 ERR('iseq(5, 1, 1);', RANGE),
 ERR('iseq(1, 0, 5);', RANGE),
 ERR('[5:1];', RANGE),
 ERR('[0:10:0];', RANGE),
 ERR('odd_elts([] int);', RANGE),
 E('iseq(1, 2, 6);', [1, 3, 5], '[int]'),
])

T('lib_errors_misc', 'interleave, transpose, hash, exp_string, error() (5.6, 6.18)', [
 ERR('interleave([1, 2, 3], [1]);', 'Length mismatch in interleave.'),
 ERR('transpose([[1, 2], [3]]);', 'Ragged input to transpose.'),
 ERR('hash(5, 0);', 'Hash range must be positive.'),
 ERR('exp_string(1.0, 9);', 'exp_string: at most 8 digits after the point.'),
 ERR('error("boom");', 'boom'),
 E('hash(5, 1);', 0, 'int'),
])
