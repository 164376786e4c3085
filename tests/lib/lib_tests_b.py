# Sequence library functions: NESL.md 6.7-6.11.  Values derived by hand
# (python3 only for sums over 50000-element inputs).
from gen_expected import T, E, B, D, ERR, C, Ch, FN

MIN, MAX = -2147483648, 2147483647
S50K = sum(range(50000))  # 1249975000

T('lib_length', '# and length (6.7)', [
 E('#[1, 2, 3];', 3, 'int'),
 E('length([4, 5]);', 2, 'int'),
 E('#([] int);', 0, 'int'),
 E('#"hello";', 5, 'int'),
 E('#"";', 0, 'int'),
 E('#[[1, 2], [3]];', 2, 'int'),
 E('{#r : r in [[1, 2], [] int, [3]]};', [2, 0, 1], '[int]'),
 E('#[0:50000];', 50000, 'int'),
 E('length([(1, t), (2, f)]);', 2, 'int'),
 E('{{#x : x in r} : r in [[[1], [2, 3]], [[] int]]};', [[1, 2], [0]], '[[int]]'),
 E('length(index(50000));', 50000, 'int'),
])

T('lib_elt', 'a[i] and elt (6.7)', [
 E('[10, 20, 30][1];', 20, 'int'),
 E('elt([10, 20, 30], 2);', 30, 'int'),
 E('"hello"[0];', Ch('h'), 'char'),
 E('[[1, 2], [3]][1];', [3], '[int]'),
 E('[[1, 2], [3]][0][1];', 2, 'int'),
 E('[(1, `a), (2, `b)][1];', (2, Ch('b')), 'int, char'),
 E('[-5, -6][1];', -6, 'int'),
 E('{r[0] : r in [[1, 2], [3]]};', [1, 3], '[int]'),
 E('[0:50000][49999];', 49999, 'int'),
 E('elt([[[1], [2, 3]]], 0);', [[1], [2, 3]], '[[int]]'),
 E('{elt(a, i) : a in [[5, 6], [7, 8]]; i in [1, 0]};', [6, 7], '[int]'),
 E('[1.5, -2.5][1];', -2.5, 'float'),
])

T('lib_dist', 'dist (6.7)', [
 E('dist(5, 3);', [5, 5, 5], '[int]'),
 E('dist(-1.5, 2);', [-1.5, -1.5], '[float]'),
 E('dist(7, 0);', [], '[int]'),
 E('dist([1, 2], 2);', [[1, 2], [1, 2]], '[[int]]'),
 E('dist((1, t), 2);', [(1, True), (1, True)], '[(int, bool)]'),
 E('dist("ab", 3);', ['ab', 'ab', 'ab'], '[[char]]'),
 E('dist(`a, 3);', 'aaa', '[char]'),
 E('sum(dist(3, 50000));', 150000, 'int'),
 E('#dist(`x, 50000);', 50000, 'int'),
 E('{dist(x, n) : x in [1, 2]; n in [2, 0]};', [[1, 1], []], '[[int]]'),
 E('dist([[1]], 2);', [[[1]], [[1]]], '[[[int]]]'),
 E('dist(([1], -2), 2);', [([1], -2), ([1], -2)], '[([int], int)]'),
])

T('lib_index_iseq', 'index, iseq and ranges; >100-element truncation (6.7, 3.10)', [
 E('index(5);', [0, 1, 2, 3, 4], '[int]'),
 E('index(0);', [], '[int]'),
 E('iseq(2, 3, 9);', [2, 5, 8], '[int]'),
 E('iseq(-5, 2, 0);', [-5, -3, -1], '[int]'),
 E('iseq(3, 1, 3);', [], '[int]'),
 E('[2:9:3];', [2, 5, 8], '[int]'),
 E('[-3:2];', [-3, -2, -1, 0, 1], '[int]'),
 E('[3:3];', [], '[int]'),
 E('sum(index(50000));', S50K, 'int'),
 E('index(50000)[12345];', 12345, 'int'),
 E('{index(n) : n in [0, 1, 3]};', [[], [0], [0, 1, 2]], '[[int]]'),
 E('#iseq(0, 7, 50000);', len(range(0, 50000, 7)), 'int'),
 E('index(150);', list(range(150)), '[int]'),
])

T('lib_rep', 'rep (6.7)', [
 E('rep([1, 2, 3], 9, 1);', [1, 9, 3], '[int]'),
 E('rep([1, 2, 3], -9, 0);', [-9, 2, 3], '[int]'),
 E('rep("abc", `z, 2);', 'abz', '[char]'),
 E('rep([[1], [2]], [7, 8], 0);', [[7, 8], [2]], '[[int]]'),
 E('rep([(1, t)], (2, f), 0);', [(2, False)], '[(int, bool)]'),
 E('sum(rep(index(50000), 1000000, 0));', S50K + 1000000, 'int'),
 E('{rep(a, 0, i) : a in [[1, 2], [3, 4]]; i in [1, 0]};', [[1, 0], [0, 4]], '[[int]]'),
 E('rep([1.5, 2.5], 0.25, 1);', [1.5, 0.25], '[float]'),
])

T('lib_zip_unzip', 'zip and unzip (6.7)', [
 E('zip([1, 2, 3], "abc");', [(1, Ch('a')), (2, Ch('b')), (3, Ch('c'))], '[(int, char)]'),
 E('zip([] int, [] bool);', [], '[(int, bool)]'),
 E('unzip([(1, 2.5), (3, 4.5)]);', ([1, 3], [2.5, 4.5]), '[int], [float]'),
 E('unzip(zip([-1, -2], [t, f]));', ([-1, -2], [True, False]), '[int], [bool]'),
 E('zip([[1], [] int], ["x", "yz"]);', [([1], 'x'), ([], 'yz')], '[([int], [char])]'),
 E('unzip([] (int, char));', ([], ''), '[int], [char]'),
 E('#zip(index(50000), index(50000));', 50000, 'int'),
 E('let (a, b) = unzip(zip(index(50000), reverse(index(50000)))) in a[7] + b[7];', 49999, 'int'),
 E('{zip(a, b) : a in [[1, 2], [3]]; b in [[4, 5], [6]]};', [[(1, 4), (2, 5)], [(3, 6)]], '[[(int, int)]]'),
 E('unzip([((1, 2), [3])]);', ([(1, 2)], [[3]]), '[(int, int)], [[int]]'),
])

T('lib_zip3', 'zip3 (6.7, undocumented)', [
 E('zip3([1, 2], [t, f], "ab");', [(1, True, Ch('a')), (2, False, Ch('b'))], '[(int, bool, char)]'),
 E('zip3([] int, [] int, [] int);', [], '[(int, int, int)]'),
 E('#zip3(index(50000), index(50000), index(50000));', 50000, 'int'),
 E('zip3([1.5], [[1]], ["s"]);', [(1.5, [1], 's')], '[(float, [int], [char])]'),
 E('{a + b + c : (a, b, c) in zip3([1, 2], [10, 20], [100, -200])};', [111, -178], '[int]'),
])

T('lib_first_rest', 'first and rest (6.7, undocumented)', [
 E('first((1, 2));', 1, 'int'),
 E('rest((1, 2));', 2, 'int'),
 E('first(1, t);', 1, 'int'),
 E('rest((1, 2, 3));', (2, 3), 'int, int'),
 E('first(([1], "a"));', [1], '[int]'),
 E('{first(p) : p in [(1, `a), (2, `b)]};', [1, 2], '[int]'),
 E('{rest(p) : p in [(1, `a), (2, `b)]};', 'ab', '[char]'),
 E('first(first(((1, 2), 3)));', 1, 'int'),
 E('rest(first(((1, 2), 3)));', 2, 'int'),
 E('rest(unzip(zip(index(50000), dist(-1, 50000))))[49999];', -1, 'int'),
])

# ---- 6.8 scans and reductions -------------------------------------------
T('lib_scans_int', 'plus_scan and mult_scan on int (6.8)', [
 E('plus_scan([5, 1, 3]);', [0, 5, 6], '[int]'),
 E('plus_scan([] int);', [], '[int]'),
 E('plus_scan([-1, -2, 4]);', [0, -1, -3], '[int]'),
 E('mult_scan([2, 3, 4]);', [1, 2, 6], '[int]'),
 E('mult_scan([-2, 3, -1]);', [1, -2, -6], '[int]'),
 E('mult_scan([] int);', [], '[int]'),
 E('plus_scan([7]);', [0], '[int]'),
 E('{plus_scan(r) : r in [[1, 2, 3], [] int, [4]]};', [[0, 1, 3], [], [0]], '[[int]]'),
 E('{{plus_scan(r) : r in m} : m in [[[1, 1], [2]], [[] int]]};', [[[0, 1], [0]], [[]]], '[[[int]]]'),
 E('plus_scan([max_int, 1, 0]);', [0, MAX, MIN], '[int]'),
 E('{mult_scan(r) : r in [[2, 2, 2], [-1]]};', [[1, 2, 4], [1]], '[[int]]'),
])

T('lib_scans_float', 'plus_scan and mult_scan on float (6.8)', [
 E('plus_scan([0.5, 0.25, -1.0]);', [0.0, 0.5, 0.75], '[float]'),
 E('mult_scan([2.0, 0.5, -4.0]);', [1.0, 2.0, 1.0], '[float]'),
 E('plus_scan([] float);', [], '[float]'),
 E('mult_scan([] float);', [], '[float]'),
 E('{plus_scan(r) : r in [[1.5, 2.5], [] float]};', [[0.0, 1.5], []], '[[float]]'),
 E('plus_scan(dist(0.5, 50000))[49999];', 24999.5, 'float'),
 E('mult_scan([-0.5, -0.5, -0.5]);', [1.0, -0.5, 0.25], '[float]'),
])

T('lib_scans_maxmin', 'max_scan and min_scan on int, float, char (6.8)', [
 E('max_scan([2, 7, 1]);', [MIN, 2, 7], '[int]'),
 E('min_scan([2, 7, 1]);', [MAX, 2, 2], '[int]'),
 E('max_scan([] int);', [], '[int]'),
 E('max_scan([-5, -9, -1]);', [MIN, -5, -5], '[int]'),
 E('min_scan([-5, -9, -1]);', [MAX, -5, -9], '[int]'),
 E('drop(max_scan([1.5, -2.0, 3.0]), 1);', [1.5, 1.5], '[float]'),
 E('drop(min_scan([1.5, -2.0, 3.0]), 1);', [1.5, -2.0], '[float]'),
 E('max_scan([1.5, -2.0])[0] < -1.0e35;', True, 'bool'),
 E('min_scan([1.5])[0] > 1.0e35;', True, 'bool'),
 E('{char_code(c) : c in max_scan("dab")};', [0, 100, 100], '[int]'),
 E('{char_code(c) : c in min_scan("dab")};', [255, 100, 97], '[int]'),
 E('{drop(max_scan(r), 1) : r in [[1, 3, 2], [5, 4]]};', [[1, 3], [5]], '[[int]]'),
 E('max_scan(index(50000))[49999];', 49998, 'int'),
 E('min_scan(reverse(index(50000)))[49999];', 1, 'int'),
])

T('lib_scans_logical', 'or_scan and_scan xor_scan on bool and int (6.8)', [
 E('or_scan([f, t, f]);', [False, False, True], '[bool]'),
 E('and_scan([t, t, f, t]);', [True, True, True, False], '[bool]'),
 E('xor_scan([t, t, t]);', [False, True, False], '[bool]'),
 E('or_scan([] bool);', [], '[bool]'),
 E('or_scan([1, 2, 4]);', [0, 1, 3], '[int]'),
 E('and_scan([7, 6, 3]);', [-1, 7, 6], '[int]'),
 E('xor_scan([1, 3, 5]);', [0, 1, 2], '[int]'),
 E('xor_scan([-1, 1]);', [0, -1], '[int]'),
 E('{and_scan(r) : r in [[f, t], [] bool]};', [[True, False], []], '[[bool]]'),
 E('{{xor_scan(r) : r in m} : m in [[[t, t]], [[f], [] bool]]};', [[[False, True]], [[False], []]], '[[[bool]]]'),
 E('count(xor_scan(dist(t, 50000)));', 25000, 'int'),
 E('or_scan({i == 40000 : i in index(50000)})[40001];', True, 'bool'),
 E('or_scan({i == 40000 : i in index(50000)})[40000];', False, 'bool'),
])

T('lib_scans_large', 'scans over 50000 elements (6.8)', [
 E('plus_scan([1:50001])[49999];', S50K, 'int'),
 E('#plus_scan(index(50000));', 50000, 'int'),
 E('plus_scan(dist(1, 50000))[49999];', 49999, 'int'),
 E('mult_scan(dist(1, 50000))[49999];', 1, 'int'),
 E('sum(plus_scan(dist(1, 50000)));', S50K, 'int'),
 E('and_scan(dist(t, 50000))[49999];', True, 'bool'),
 E('max_scan({mod(i, 1000) : i in [0:50000]})[49999];', 999, 'int'),
])

T('lib_reduce_sum_product', 'sum and product (6.8)', [
 E('sum([1, 2, 3]);', 6, 'int'),
 E('sum([-5, 2]);', -3, 'int'),
 E('sum([0.5, 0.25, 0.125]);', 0.875, 'float'),
 E('product([2, 3, 4]);', 24, 'int'),
 E('product([-2, 3]);', -6, 'int'),
 E('product([0.5, 4.0]);', 2.0, 'float'),
 E('sum([0:50000]);', S50K, 'int'),
 E('{sum(r) : r in [[1, 2], [] int, [-3]]};', [3, 0, -3], '[int]'),
 E('{{product(r) : r in m} : m in [[[2, 3], [] int], [[5]]]};', [[6, 1], [5]], '[[int]]'),
 E('sum({sum(r) : r in [[1, 2], [3, 4, 5]]});', 15, 'int'),
 E('sum({x * 0.5 : x in [1.0, 2.0, 3.0]});', 3.0, 'float'),
 E('product(dist(2, 31));', MIN, 'int'),
 E('sum(dist(0.25, 50000));', 12500.0, 'float'),
 E('{sum(v) : v in [[0.5], [-0.25, -0.25]]};', [0.5, -0.5], '[float]'),
])

T('lib_reduce_maxmin_val', 'max_val and min_val (6.8)', [
 E('max_val([3, 9, -2]);', 9, 'int'),
 E('min_val([3, 9, -2]);', -2, 'int'),
 E('max_val([-1.5, -0.5]);', -0.5, 'float'),
 E('min_val([-1.5, -0.5]);', -1.5, 'float'),
 E('max_val("hello");', Ch('o'), 'char'),
 E('min_val("hello");', Ch('e'), 'char'),
 E('{max_val(r) : r in [[1, 5], [-2]]};', [5, -2], '[int]'),
 E('max_val(index(50000));', 49999, 'int'),
 E('min_val(reverse([0:50000]));', 0, 'int'),
 E('{{min_val(r) : r in m} : m in [[[4, 2], [7]], [] [int]]};', [[2, 7], []], '[[int]]'),
 E('max_val([min_int, max_int]);', MAX, 'int'),
])

T('lib_reduce_logical', 'any all parity on bool and int (6.8)', [
 E('any([1, 2]);', 3, 'int'),
 E('all([6, 3]);', 2, 'int'),
 E('parity([6, 3]);', 5, 'int'),
 E('any([f, t]);', True, 'bool'),
 E('any([f, f]);', False, 'bool'),
 E('all([t, t]);', True, 'bool'),
 E('all([t, f]);', False, 'bool'),
 E('parity([t, t, t]);', True, 'bool'),
 E('parity([t, t]);', False, 'bool'),
 E('any([-8, 1]);', -7, 'int'),
 E('all([-1, -2]);', -2, 'int'),
 E('{any(r) : r in [[f], [] bool, [t, f]]};', [False, False, True], '[bool]'),
 E('all({i < 50000 : i in [0:50000]});', True, 'bool'),
 E('parity(dist(t, 50000));', False, 'bool'),
 E('any({i == 49999 : i in [0:50000]});', True, 'bool'),
])

T('lib_reduce_empty', 'reductions of empty sequences return the identity (6.8)', [
 E('sum([] int);', 0, 'int'),
 E('sum([] float);', 0.0, 'float'),
 E('product([] int);', 1, 'int'),
 E('product([] float);', 1.0, 'float'),
 E('max_val([] int);', MIN, 'int'),
 E('min_val([] int);', MAX, 'int'),
 E('max_val([] float) < -1.0e35;', True, 'bool'),
 E('min_val([] float) > 1.0e35;', True, 'bool'),
 E('any([] bool);', False, 'bool'),
 E('all([] bool);', True, 'bool'),
 E('parity([] bool);', False, 'bool'),
 E('any([] int);', 0, 'int'),
 E('all([] int);', -1, 'int'),
 E('parity([] int);', 0, 'int'),
 E('count([] bool);', 0, 'int'),
])

T('lib_reduce_empty_nested', 'identities inside nested and char reductions (6.8)', [
 E('{product(r) : r in [[] float, [2.0]]};', [1.0, 2.0], '[float]'),
 E('char_code(max_val([] char));', 0, 'int'),
 E('char_code(min_val([] char));', 255, 'int'),
 E('{all(r) : r in [[] bool, [f]]};', [True, False], '[bool]'),
 E('{max_val(r) : r in [[] int, [3]]};', [MIN, 3], '[int]'),
 E('{{sum(r) : r in m} : m in [[] [int], [[] int]]};', [[], [0]], '[[int]]'),
 E('{sum(r) : r in [[] int, [] int]};', [0, 0], '[int]'),
])

T('lib_reduce_large', 'reductions over 50000 elements (6.8)', [
 E('sum(dist(1, 50000));', 50000, 'int'),
 E('product(dist(1, 50000));', 1, 'int'),
 E('product(dist(-1, 50001));', -1, 'int'),
 E('max_val([0:50000]);', 49999, 'int'),
 E('min_val({i - 25000 : i in [0:50000]});', -25000, 'int'),
 E('sum({float(i) : i in [0:50000]});', 1249975000.0, 'float'),
 E('any(dist(f, 50000));', False, 'bool'),
 E('parity({i and 1 : i in [0:50000]});', 0, 'int'),
 E('count(dist(t, 50000));', 50000, 'int'),
 E('{sum(r) : r in [[0:50000], [1:50001]]};', [S50K, S50K + 50000], '[int]'),
])

T('lib_count_enumerate', 'count and enumerate (6.8)', [
 E('count([t, f, t]);', 2, 'int'),
 E('count(dist(f, 5));', 0, 'int'),
 E('enumerate([t, t, f, t]);', [0, 1, 2, 2], '[int]'),
 E('enumerate([] bool);', [], '[int]'),
 E('enumerate([f, f]);', [0, 0], '[int]'),
 E('{count(r) : r in [[t], [] bool, [f, t, t]]};', [1, 0, 2], '[int]'),
 E('{enumerate(r) : r in [[t, t], [f, t]]};', [[0, 1], [0, 0]], '[[int]]'),
 E('count({oddp(i) : i in [0:50000]});', 25000, 'int'),
 E('enumerate(dist(t, 50000))[49999];', 49999, 'int'),
 E('{{count(r) : r in m} : m in [[[t, t], [f]], [] [bool]]};', [[2, 0], []], '[[int]]'),
 E('enumerate({x < 0 : x in [-1, 2, -3]});', [0, 1, 1], '[int]'),
])

T('lib_max_min_index', 'max_index and min_index: leftmost; max_int when empty (6.8)', [
 E('max_index([3, 9, 9, 1]);', 1, 'int'),
 E('min_index([3, 1, 9, 1]);', 1, 'int'),
 E('max_index([-5, -2, -9]);', 1, 'int'),
 E('min_index([-5, -2, -9]);', 2, 'int'),
 E('max_index([1.5, 2.5, 2.5]);', 1, 'int'),
 E('min_index("hello");', 1, 'int'),
 E('max_index("hello");', 4, 'int'),
 E('max_index([] int);', MAX, 'int'),
 E('min_index([] int);', MAX, 'int'),
 E('{max_index(r) : r in [[1, 2], [5]]};', [1, 0], '[int]'),
 E('max_index([0:50000]);', 49999, 'int'),
 E('min_index(reverse([0:50000]));', 49999, 'int'),
 E('max_index(dist(7, 50000));', 0, 'int'),
])

# ---- 6.9 reordering -----------------------------------------------------
T('lib_gather', '-> read get (6.9)', [
 E('[10, 20, 30, 40] -> [3, 0];', [40, 10], '[int]'),
 E('read([10, 20, 30], [2, 2, 0]);', [30, 30, 10], '[int]'),
 B('g = get("abc", [1]);', 'g', 'b', '[char]'),
 E('[1, 2] -> [] int;', [], '[int]'),
 E('[[1], [2, 3]] -> [1, 0];', [[2, 3], [1]], '[[int]]'),
 E('[(1, t), (2, f)] -> [1];', [(2, False)], '[(int, bool)]'),
 E('[-1, -2, -3] -> [2, 1, 0];', [-3, -2, -1], '[int]'),
 E('{a -> i : a in [[1, 2], [3, 4]]; i in [[1], [0, 0]]};', [[2], [3, 3]], '[[int]]'),
 E('sum([0:50000] -> reverse([0:50000]));', S50K, 'int'),
 E('[0:50000] -> [0:50000:10000];', [0, 10000, 20000, 30000, 40000], '[int]'),
 E('[1.5, 2.5] -> [1, 1];', [2.5, 2.5], '[float]'),
])

T('lib_write', '<- and write (6.9)', [
 E('[0, 0, 0, 0] <- [(1, 5), (3, 7)];', [0, 5, 0, 7], '[int]'),
 E('write([1, 2, 3], [(0, -1)]);', [-1, 2, 3], '[int]'),
 E('"abc" <- [(1, `x)];', 'axc', '[char]'),
 E('[1, 2] <- [] (int, int);', [1, 2], '[int]'),
 E('[[1], [2]] <- [(0, [5, 6])];', [[5, 6], [2]], '[[int]]'),
 E('[1.5, 2.5] <- [(1, 0.25)];', [1.5, 0.25], '[float]'),
 E('{d <- p : d in [[0, 0], [1]]; p in [[(1, 9)], [(0, 8)]]};', [[0, 9], [8]], '[[int]]'),
 E('sum(dist(0, 50000) <- [(49999, 3), (0, 4)]);', 7, 'int'),
 E('dist(t, 3) <- {(i, f) : i in [0:3] | evenp(i)};', [False, True, False], '[bool]'),
 E('(dist(0, 50000) <- {(i, i) : i in [0:50000]})[49999];', 49999, 'int'),
 E('[(1, `a), (2, `b)] <- [(0, (3, `c))];', [(3, Ch('c')), (2, Ch('b'))], '[(int, char)]'),
])

T('lib_permute', 'permute (6.9)', [
 E('permute([10, 20, 30], [2, 0, 1]);', [20, 30, 10], '[int]'),
 E('permute("abc", [1, 2, 0]);', 'cab', '[char]'),
 E('permute([] int, [] int);', [], '[int]'),
 E('permute([-1, -2], [1, 0]);', [-2, -1], '[int]'),
 E('permute([[1], [2, 3]], [1, 0]);', [[2, 3], [1]], '[[int]]'),
 E('permute([(1, t), (2, f)], [1, 0]);', [(2, False), (1, True)], '[(int, bool)]'),
 E('{permute(a, i) : a in [[1, 2, 3], [4]]; i in [[2, 1, 0], [0]]};', [[3, 2, 1], [4]], '[[int]]'),
 E('permute([0:50000], reverse([0:50000]))[0];', 49999, 'int'),
 E('sum(permute([0:50000], reverse([0:50000])));', S50K, 'int'),
 E('permute([1.5, 2.5], [1, 0]);', [2.5, 1.5], '[float]'),
 E('permute([[[1]], [[2], [3]]], [1, 0]);', [[[2], [3]], [[1]]], '[[[int]]]'),
])

T('lib_put_cond_put', 'put and cond_put (6.9, undocumented)', [
 E('put([7, 8], [0, 2], [1, 1, 1, 1]);', [7, 1, 8, 1], '[int]'),
 E('put([] int, [] int, [1, 2]);', [1, 2], '[int]'),
 E('put("xy", [1, 0], "ab");', 'yx', '[char]'),
 E('put([-5], [2], [0, 0, 0]);', [0, 0, -5], '[int]'),
 E('cond_put([7, 8], [0, 2], [t, f], [1, 1, 1, 1]);', [7, 1, 1, 1], '[int]'),
 E('cond_put([7, 8], [0, 2], [f, f], [1, 1, 1]);', [1, 1, 1], '[int]'),
 E('cond_put([[9]], [1], [t], [[1], [2]]);', [[1], [9]], '[[int]]'),
 E('sum(put(dist(1, 50000), [0:50000], dist(0, 50000)));', 50000, 'int'),
 E('{put(v, i, d) : v in [[1], [2]]; i in [[0], [1]]; d in [[0, 0], [0, 0]]};', [[1, 0], [0, 2]], '[[int]]'),
 E('put([(1, 2.5)], [0], [(0, 0.0), (5, 5.0)]);', [(1, 2.5), (5, 5.0)], '[(int, float)]'),
 E('count(cond_put(dist(t, 50000), [0:50000], {evenp(i) : i in [0:50000]}, dist(f, 50000)));', 25000, 'int'),
])

T('lib_join', 'join (6.9, undocumented)', [
 E('join([1, 2], [0, 3], [9, 8], [1, 2]);', [1, 9, 8, 2], '[int]'),
 E('join([] int, [] int, [5], [0]);', [5], '[int]'),
 E('join("ac", [0, 2], "b", [1]);', 'abc', '[char]'),
 E('join([[1]], [1], [[2, 3]], [0]);', [[2, 3], [1]], '[[int]]'),
 E('join([-1.5], [0], [] float, [] int);', [-1.5], '[float]'),
 E('sum(join([0:25000], [0:50000:2], [25000:50000], [1:50000:2]));', S50K, 'int'),
 E('join([0:25000], [0:50000:2], [25000:50000], [1:50000:2])[3];', 25001, 'int'),
])

T('lib_rotate', 'rotate (6.9)', [
 E('rotate([1, 2, 3, 4], 1);', [4, 1, 2, 3], '[int]'),
 E('rotate([1, 2, 3, 4], -1);', [2, 3, 4, 1], '[int]'),
 E('rotate([1, 2, 3, 4], 0);', [1, 2, 3, 4], '[int]'),
 E('rotate([1, 2, 3, 4], 5);', [4, 1, 2, 3], '[int]'),
 E('rotate([1, 2, 3, 4], -6);', [3, 4, 1, 2], '[int]'),
 E('rotate("abc", 1);', 'cab', '[char]'),
 E('rotate([[1], [2, 3]], 1);', [[2, 3], [1]], '[[int]]'),
 E('{rotate(r, 1) : r in [[1, 2], [3]]};', [[2, 1], [3]], '[[int]]'),
 E('rotate([0:50000], 1)[0];', 49999, 'int'),
 E('rotate([0:50000], -1)[49999];', 0, 'int'),
 E('rotate([(1, t), (2, f), (3, t)], 2);', [(2, False), (3, True), (1, True)], '[(int, bool)]'),
])

T('lib_reverse', 'reverse (6.9)', [
 E('reverse([1, 2, 3]);', [3, 2, 1], '[int]'),
 E('reverse([] int);', [], '[int]'),
 E('reverse("abc");', 'cba', '[char]'),
 E('reverse([[1], [2, 3]]);', [[2, 3], [1]], '[[int]]'),
 E('reverse([(1, `a), (2, `b)]);', [(2, Ch('b')), (1, Ch('a'))], '[(int, char)]'),
 E('{reverse(r) : r in [[1, 2], [] int, [3]]};', [[2, 1], [], [3]], '[[int]]'),
 E('#reverse([0:50000]);', 50000, 'int'),
 E('reverse([0:50000])[0];', 49999, 'int'),
 E('{{reverse(r) : r in m} : m in [[[1, 2]], [[3, 4], [5]]]};', [[[2, 1]], [[4, 3], [5]]], '[[[int]]]'),
 E('reverse([-1.5, 2.5]);', [2.5, -1.5], '[float]'),
 E('reverse(["ab", "c"]);', ['c', 'ab'], '[[char]]'),
])

T('lib_previous_next', 'previous and next (6.9, undocumented)', [
 E('previous([1, 2, 3], 0);', [0, 1, 2], '[int]'),
 E('next([1, 2, 3], 0);', [2, 3, 0], '[int]'),
 E('previous("abc", `z);', 'zab', '[char]'),
 E('next("abc", `z);', 'bcz', '[char]'),
 E('previous([-1], 5);', [5], '[int]'),
 E('next([[1], [2]], [] int);', [[2], []], '[[int]]'),
 E('{previous(r, -1) : r in [[1, 2], [3]]};', [[-1, 1], [-1]], '[[int]]'),
 E('previous([0:50000], 7)[0];', 7, 'int'),
 E('next([0:50000], 7)[49999];', 7, 'int'),
 E('sum(next([0:50000], 0));', S50K, 'int'),
 E('next([(1, 0.5), (2, 1.5)], (0, 0.0));', [(2, 1.5), (0, 0.0)], '[(int, float)]'),
])

# ---- 6.10 sequence manipulation -----------------------------------------
T('lib_append', '++ and append (6.10)', [
 E('[1, 2] ++ [3];', [1, 2, 3], '[int]'),
 E('append([1], [] int);', [1], '[int]'),
 E('"ab" ++ "cd";', 'abcd', '[char]'),
 E('[] int ++ [] int;', [], '[int]'),
 E('[[1]] ++ [[2, 3]];', [[1], [2, 3]], '[[int]]'),
 E('[(1, t)] ++ [(2, f)];', [(1, True), (2, False)], '[(int, bool)]'),
 E('[-1.5] ++ [2.5];', [-1.5, 2.5], '[float]'),
 E('{a ++ b : a in [[1], [] int]; b in [[2], [3]]};', [[1, 2], [3]], '[[int]]'),
 E('#([0:50000] ++ [0:50000]);', 100000, 'int'),
 E('([0:50000] ++ [7])[50000];', 7, 'int'),
 E('append("", "");', '', '[char]'),
 E('[[[1]]] ++ [[[2], [3]]];', [[[1]], [[2], [3]]], '[[[int]]]'),
])

T('lib_cons_snoc', 'cons snoc make_sequence (6.10)', [
 E('cons(1, [2, 3]);', [1, 2, 3], '[int]'),
 E('snoc([1, 2], 3);', [1, 2, 3], '[int]'),
 E('cons(`a, "bc");', 'abc', '[char]'),
 E('snoc("ab", `c);', 'abc', '[char]'),
 E('cons(1, [] int);', [1], '[int]'),
 E('snoc([] int, -1);', [-1], '[int]'),
 E('make_sequence([1, 2], 3);', [1, 2, 3], '[int]'),
 E('make_sequence([] float, 2.5);', [2.5], '[float]'),
 E('cons([1], [[2]]);', [[1], [2]], '[[int]]'),
 E('{cons(x, r) : x in [0, -1]; r in [[1], [] int]};', [[0, 1], [-1]], '[[int]]'),
 E('#snoc([0:50000], 5);', 50001, 'int'),
 E('cons((1, t), [(2, f)]);', [(1, True), (2, False)], '[(int, bool)]'),
])

T('lib_vpair_vsep', 'vpair and vsep (6.10)', [
 E('vpair(1, 2);', [1, 2], '[int]'),
 E('vpair("a", "bc");', ['a', 'bc'], '[[char]]'),
 E('vsep([1, 2]);', (1, 2), 'int, int'),
 E('vsep(vpair(-1.5, 2.5));', (-1.5, 2.5), 'float, float'),
 E('vpair((1, t), (2, f));', [(1, True), (2, False)], '[(int, bool)]'),
 E('vsep([[1], [] int]);', ([1], []), '[int], [int]'),
 E('{vpair(x, -x) : x in [1, 2]};', [[1, -1], [2, -2]], '[[int]]'),
])

T('lib_pack', 'pack (takes pairs) and pack_index (6.10)', [
 E('pack(zip([1, 2, 3], [t, f, t]));', [1, 3], '[int]'),
 E('pack(zip("abc", [f, f, f]));', '', '[char]'),
 E('pack(zip([] int, [] bool));', [], '[int]'),
 E('pack_index([f, t, t]);', [1, 2], '[int]'),
 E('pack_index([] bool);', [], '[int]'),
 E('pack_index([f, f]);', [], '[int]'),
 E('pack(zip([[1], [2]], [f, t]));', [[2]], '[[int]]'),
 E('{pack(zip(a, fl)) : a in [[1, 2], [3]]; fl in [[t, f], [t]]};', [[1], [3]], '[[int]]'),
 E('#pack(zip([0:50000], {evenp(i) : i in [0:50000]}));', 25000, 'int'),
 E('pack_index({i == 49999 : i in [0:50000]});', [49999], '[int]'),
 E('pack(zip([-1.5, 2.5], [t, t]));', [-1.5, 2.5], '[float]'),
 E('pack([((1, `a), t), ((2, `b), f)]);', [(1, Ch('a'))], '[(int, char)]'),
])

T('lib_unpack', 'unpack (6.10, undocumented)', [
 E('unpack([5, 6], [f, t, f, t]);', [0, 5, 0, 6], '[int]'),
 E('unpack([1.5], [t, f]);', [1.5, 0.0], '[float]'),
 E('unpack("ab", [t, f, t]);', 'a b', '[char]'),
 E('unpack([] int, [f, f]);', [0, 0], '[int]'),
 E('unpack([] int, [] bool);', [], '[int]'),
 E('unpack([[1]], [f, t]);', [[], [1]], '[[int]]'),
 E('unpack([t], [f, t]);', [False, True], '[bool]'),
 E('sum(unpack(dist(2, 25000), {oddp(i) : i in [0:50000]}));', 50000, 'int'),
 E('{unpack(v, fl) : v in [[1], [2, 3]]; fl in [[f, t], [t, t]]};', [[0, 1], [2, 3]], '[[int]]'),
])

T('lib_subseq', 'subseq (6.10)', [
 E('subseq([1, 2, 3, 4, 5], 1, 3);', [2, 3], '[int]'),
 E('subseq([1, 2, 3], 2, 2);', [], '[int]'),
 E('subseq([1, 2, 3], 0, 3);', [1, 2, 3], '[int]'),
 E('subseq("hello", 1, 4);', 'ell', '[char]'),
 E('subseq([[1], [2], [3]], 1, 3);', [[2], [3]], '[[int]]'),
 E('subseq([-1, -2, -3], 0, 1);', [-1], '[int]'),
 E('{subseq(r, 1, 2) : r in [[1, 2], [3, 4, 5]]};', [[2], [4]], '[[int]]'),
 E('sum(subseq([0:50000], 49990, 50000));', sum(range(49990, 50000)), 'int'),
 E('subseq([] int, 0, 0);', [], '[int]'),
 E('subseq([(1, t), (2, f)], 1, 2);', [(2, False)], '[(int, bool)]'),
])

T('lib_take_drop', 'take and drop, negative counts from the end (6.10)', [
 E('take([5, 6, 7, 8], -1);', [8], '[int]'),
 E('take([5, 6, 7, 8], 2);', [5, 6], '[int]'),
 E('take([5, 6, 7, 8], 0);', [], '[int]'),
 E('take([5, 6, 7, 8], 4);', [5, 6, 7, 8], '[int]'),
 E('take([5, 6, 7, 8], -3);', [6, 7, 8], '[int]'),
 E('drop([5, 6, 7, 8], 1);', [6, 7, 8], '[int]'),
 E('drop([5, 6, 7, 8], -1);', [5, 6, 7], '[int]'),
 E('drop([5, 6, 7, 8], 4);', [], '[int]'),
 E('drop([5, 6, 7, 8], -4);', [], '[int]'),
 E('take("hello", 2);', 'he', '[char]'),
 E('drop([[1], [2, 3]], 1);', [[2, 3]], '[[int]]'),
 E('{take(r, 1) : r in [[1, 2], [3]]};', [[1], [3]], '[[int]]'),
 E('#drop([0:50000], 10);', 49990, 'int'),
 E('take([0:50000], -2);', [49998, 49999], '[int]'),
 E('take([] int, 0);', [], '[int]'),
])

T('lib_odd_even_elts', 'odd_elts and even_elts (6.10)', [
 E('odd_elts([0, 1, 2, 3, 4]);', [1, 3], '[int]'),
 E('even_elts([0, 1, 2, 3, 4]);', [0, 2, 4], '[int]'),
 E('odd_elts([7]);', [], '[int]'),
 E('even_elts([7]);', [7], '[int]'),
 E('odd_elts("abcdef");', 'bdf', '[char]'),
 E('even_elts([[1], [2], [3]]);', [[1], [3]], '[[int]]'),
 E('{odd_elts(r) : r in [[1, 2, 3, 4], [5, 6]]};', [[2, 4], [6]], '[[int]]'),
 E('#even_elts([0:50000]);', 25000, 'int'),
 E('sum(odd_elts([0:50000]));', 625000000, 'int'),
 E('even_elts([-1.5, 2.5, -3.5]);', [-1.5, -3.5], '[float]'),
])

T('lib_interleave', 'interleave (6.10)', [
 E('interleave([1, 2, 3], [7, 8, 9]);', [1, 7, 2, 8, 3, 9], '[int]'),
 E('interleave([1, 2, 3], [7, 8]);', [1, 7, 2, 8, 3], '[int]'),
 E('interleave([] int, [] int);', [], '[int]'),
 E('interleave("ace", "bd");', 'abcde', '[char]'),
 E('interleave([[1]], [[2]]);', [[1], [2]], '[[int]]'),
 E('{interleave(a, b) : a in [[1], [3, 4]]; b in [[2], [5, 6]]};', [[1, 2], [3, 5, 4, 6]], '[[int]]'),
 E('#interleave([0:50000], [0:50000]);', 100000, 'int'),
 E('interleave([0:25000], [25000:50000])[49999];', 49999, 'int'),
 E('interleave([-1.5], [2.5]);', [-1.5, 2.5], '[float]'),
 E('interleave([1], [] int);', [1], '[int]'),
])

T('lib_flag_merge', 'flag_merge (6.10, undocumented)', [
 E('flag_merge([t, f, t], [1], [8, 9]);', [8, 1, 9], '[int]'),
 E('flag_merge([f, f], [1, 2], [] int);', [1, 2], '[int]'),
 E('flag_merge([] bool, [] int, [] int);', [], '[int]'),
 E('flag_merge([t, t, f], "c", "ab");', 'abc', '[char]'),
 E('flag_merge([f, t], [[1]], [[2, 3]]);', [[1], [2, 3]], '[[int]]'),
 E('sum(flag_merge({oddp(i) : i in [0:50000]}, dist(1, 25000), dist(2, 25000)));', 75000, 'int'),
 E('{flag_merge(fl, a, b) : fl in [[t, f], [f]]; a in [[1], [2]]; b in [[3], [] int]};', [[3, 1], [2]], '[[int]]'),
])

T('lib_length_from_flags', 'length_from_flags (6.10)', [
 E('length_from_flags([t, f, f, t, f]);', [3, 2], '[int]'),
 E('length_from_flags([t, t, t]);', [1, 1, 1], '[int]'),
 E('length_from_flags([t]);', [1], '[int]'),
 E('length_from_flags([f, f, t]);', [2, 1], '[int]'),
 E('length_from_flags([t, f, f, f]);', [4], '[int]'),
 E('{length_from_flags(fl) : fl in [[t, f], [t, t]]};', [[2], [1, 1]], '[[int]]'),
 E('sum(length_from_flags(dist(t, 50000)));', 50000, 'int'),
 E('#length_from_flags({mod(i, 10) == 0 : i in [0:50000]});', 5000, 'int'),
])

T('lib_group_by', 'group_by (6.10, undocumented)', [
 E('group_by([1, 2, 3, 4, 5, 6, 7], 3);', [[1, 2, 3], [4, 5, 6], [7]], '[[int]]'),
 E('group_by([1, 2, 3, 4], 2);', [[1, 2], [3, 4]], '[[int]]'),
 E('group_by("abcde", 2);', ['ab', 'cd', 'e'], '[[char]]'),
 E('group_by([1, 2], 5);', [[1, 2]], '[[int]]'),
 E('group_by([-1, -2, -3], 1);', [[-1], [-2], [-3]], '[[int]]'),
 E('#group_by([0:50000], 7);', len(range(0, 50000, 7)), 'int'),
 E('sum(group_by([0:50000], 1000)[49]);', sum(range(49000, 50000)), 'int'),
 E('{#g : g in group_by([0:10], 4)};', [4, 4, 2], '[int]'),
])

# ---- 6.11 nesting ---------------------------------------------------------
T('lib_partition', 'partition (6.11)', [
 E('partition([1, 2, 3, 4, 5], [2, 0, 3]);', [[1, 2], [], [3, 4, 5]], '[[int]]'),
 E('partition("abcde", [1, 4]);', ['a', 'bcde'], '[[char]]'),
 E('partition([] int, [0, 0]);', [[], []], '[[int]]'),
 E('partition([] int, [] int);', [], '[[int]]'),
 E('partition([-1, -2], [2]);', [[-1, -2]], '[[int]]'),
 E('partition([[1], [2], [3]], [1, 2]);', [[[1]], [[2], [3]]], '[[[int]]]'),
 E('partition([(1, t), (2, f)], [1, 1]);', [[(1, True)], [(2, False)]], '[[(int, bool)]]'),
 E('{sum(p) : p in partition([0:50000], dist(10000, 5))};', [sum(range(k * 10000, k * 10000 + 10000)) for k in range(5)], '[int]'),
 E('{partition(a, c) : a in [[1, 2, 3], [4]]; c in [[1, 2], [0, 1]]};', [[[1], [2, 3]], [[], [4]]], '[[[int]]]'),
 E('partition([0.5, 1.5, 2.5], [0, 3]);', [[], [0.5, 1.5, 2.5]], '[[float]]'),
])

T('lib_flatten', 'flatten (6.11)', [
 E('flatten([[1, 2], [] int, [3]]);', [1, 2, 3], '[int]'),
 E('flatten([] [int]);', [], '[int]'),
 E('flatten([[] int]);', [], '[int]'),
 E('flatten(["ab", "c"]);', 'abc', '[char]'),
 E('flatten([[[1], [2]], [[3]]]);', [[1], [2], [3]], '[[int]]'),
 E('flatten(flatten([[[1], [2]], [[3]]]));', [1, 2, 3], '[int]'),
 E('flatten([[(1, t)], [(2, f)]]);', [(1, True), (2, False)], '[(int, bool)]'),
 E('{flatten(m) : m in [[[1], [2, 3]], [[4]]]};', [[1, 2, 3], [4]], '[[int]]'),
 E('#flatten(dist([0:100], 500));', 50000, 'int'),
 E('sum(flatten({[i, -i] : i in [0:25000]}));', 0, 'int'),
 E('flatten([[-1.5], [2.5]]);', [-1.5, 2.5], '[float]'),
])

T('lib_split', 'split: [f elements, t elements] (6.11)', [
 E('split([1, 2, 3, 4, 5], [t, f, f, t, f]);', [[2, 3, 5], [1, 4]], '[[int]]'),
 E('split("abc", [f, f, f]);', ['abc', ''], '[[char]]'),
 E('split([] int, [] bool);', [[], []], '[[int]]'),
 E('split([-1, -2], [t, t]);', [[], [-1, -2]], '[[int]]'),
 E('split([[1], [2]], [t, f]);', [[[2]], [[1]]], '[[[int]]]'),
 E('{split(a, fl) : a in [[1, 2], [3]]; fl in [[f, t], [t]]};', [[[1], [2]], [[], [3]]], '[[[int]]]'),
 E('{#p : p in split([0:50000], {i < 100 : i in [0:50000]})};', [49900, 100], '[int]'),
 E('split([1.5, 2.5], [t, f]);', [[2.5], [1.5]], '[[float]]'),
 E('split([(1, `a), (2, `b)], [f, t]);', [[(1, Ch('a'))], [(2, Ch('b'))]], '[[(int, char)]]'),
])

T('lib_split_index', 'split_index: ([#f, #t], destination of each element) (6.11)', [
 E('split_index([t, f, f, t, f]);', ([3, 2], [3, 0, 1, 4, 2]), '[int], [int]'),
 E('split_index([f, f]);', ([2, 0], [0, 1]), '[int], [int]'),
 E('split_index([t, t]);', ([0, 2], [0, 1]), '[int], [int]'),
 E('split_index([] bool);', ([0, 0], []), '[int], [int]'),
 E('{first(split_index(fl)) : fl in [[t], [f, t]]};', [[0, 1], [1, 1]], '[[int]]'),
 E('let (c, d) = split_index([t, f, t]) in permute([1, 2, 3], d);', [2, 1, 3], '[int]'),
 E('first(split_index({i < 10 : i in [0:50000]}));', [49990, 10], '[int]'),
])

T('lib_bottop', 'bottop (6.11)', [
 E('bottop([1, 2, 3, 4, 5]);', [[1, 2, 3], [4, 5]], '[[int]]'),
 E('bottop([1, 2]);', [[1], [2]], '[[int]]'),
 E('bottop([1, 2, 3, 4]);', [[1, 2], [3, 4]], '[[int]]'),
 E('bottop([7]);', [[7], []], '[[int]]'),
 E('bottop("abc");', ['ab', 'c'], '[[char]]'),
 E('bottop([[1], [2]]);', [[[1]], [[2]]], '[[[int]]]'),
 E('{#b : b in bottop([0:50001])};', [25001, 25000], '[int]'),
 E('{bottop(r) : r in [[1, 2, 3], [4, 5]]};', [[[1, 2], [3]], [[4], [5]]], '[[[int]]]'),
])

T('lib_head_rest_tail', 'head_rest and rest_tail (6.11)', [
 E('head_rest([1, 2, 3]);', (1, [2, 3]), 'int, [int]'),
 E('rest_tail([1, 2, 3]);', ([1, 2], 3), '[int], int'),
 E('head_rest([7]);', (7, []), 'int, [int]'),
 E('rest_tail("ab");', ('a', Ch('b')), '[char], char'),
 E('head_rest([[1], [2]]);', ([1], [[2]]), '[int], [[int]]'),
 E('{head_rest(r) : r in [[1, 2], [3]]};', [(1, [2]), (3, [])], '[(int, [int])]'),
 E('first(head_rest([-1.5, 2.5]));', -1.5, 'float'),
 E('rest(rest_tail([0:50000]));', 49999, 'int'),
 E('#first(rest_tail([0:50000]));', 49999, 'int'),
])

T('lib_transpose', 'transpose (6.11)', [
 E('transpose([[1, 2, 3], [4, 5, 6]]);', [[1, 4], [2, 5], [3, 6]], '[[int]]'),
 E('transpose([[1], [2], [3]]);', [[1, 2, 3]], '[[int]]'),
 E('transpose([] [int]);', [], '[[int]]'),
 E('transpose(["ab", "cd"]);', ['ac', 'bd'], '[[char]]'),
 E('transpose([[-1.5, 2.5]]);', [[-1.5], [2.5]], '[[float]]'),
 E('transpose(transpose([[1, 2], [3, 4]]));', [[1, 2], [3, 4]], '[[int]]'),
 E('{transpose(m) : m in [[[1, 2]], [[3], [4]]]};', [[[1], [2]], [[3, 4]]], '[[[int]]]'),
 E('#transpose(dist([1, 2], 25000));', 2, 'int'),
 E('sum(transpose(dist([1, 2], 25000))[1]);', 50000, 'int'),
 E('transpose([[[1], [2]], [[3], [4]]]);', [[[1], [3]], [[2], [4]]], '[[[int]]]'),
])
