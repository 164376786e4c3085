# NESL.md 6.12-6.19 (+ the 6.20 stdout functions, 6.17 fseq).  Values derived by hand.
from gen_expected import T, E, B, D, ERR, C, Ch, FN, at

MIN, MAX = -2147483648, 2147483647
S50K = sum(range(50000))

# ---- 6.12 functions on any type ------------------------------------------
T('lib_eql', 'eql: deep structural equality (6.12)', [
 E('eql([1, 2], [1, 2]);', True, 'bool'),
 E('eql([1, 2], [1, 2, 3]);', False, 'bool'),
 E('eql([] int, [] int);', True, 'bool'),
 E('eql("abc", "abc");', True, 'bool'),
 E('eql("abc", "abd");', False, 'bool'),
 E('eql(1.5, 1.5);', True, 'bool'),
 E('eql((1, [t]), (1, [t]));', True, 'bool'),
 E('eql((1, [t]), (1, [f]));', False, 'bool'),
 E('eql([[1], [2, 3]], [[1], [2, 3]]);', True, 'bool'),
 E('eql([[1], [2, 3]], [[1, 2], [3]]);', False, 'bool'),
 E('eql(`a, `A);', False, 'bool'),
 E('{eql(a, b) : a in [[1], [] int]; b in [[1], [2]]};', [True, False], '[bool]'),
 E('eql([0:50000], reverse(reverse([0:50000])));', True, 'bool'),
 E('eql(-3, -3);', True, 'bool'),
 E('eql([[[1]], [[2]]], [[[1]], [[2]]]);', True, 'bool'),
])

T('lib_select', 'select evaluates both arms (6.12)', [
 E('select(t, 1, 2);', 1, 'int'),
 E('select(f, 1, 2);', 2, 'int'),
 E('select(f, [1], [2, 3]);', [2, 3], '[int]'),
 E('select(t, "a", "bc");', 'a', '[char]'),
 E('select(1 < 2, -1.5, 2.5);', -1.5, 'float'),
 E('{select(c, x, y) : c in [t, f]; x in [1, 2]; y in [10, 20]};', [1, 20], '[int]'),
 E('select(t, (1, `a), (2, `b));', (1, Ch('a')), 'int, char'),
 E('sum({select(evenp(i), 1, 0) : i in [0:50000]});', 25000, 'int'),
 E('{select(c, r, [] int) : c in [f, t]; r in [[1], [2]]};', [[], [2]], '[[int]]'),
])

T('lib_identity', 'identity: the zero of a type (6.12)', [
 E('identity(5);', 0, 'int'),
 E('identity([1]);', [], '[int]'),
 E('identity((1, t));', (0, False), 'int, bool'),
 E('identity(-2.5);', 0.0, 'float'),
 E('identity(t);', False, 'bool'),
 E('identity(`a);', Ch(' '), 'char'),
 E('identity("abc");', '', '[char]'),
 E('identity([[1], [2]]);', [], '[[int]]'),
 E('identity((1.5, ([1], `x)));', (0.0, [], Ch(' ')), 'float, [int], char'),
 E('{identity(x) : x in [3, -4]};', [0, 0], '[int]'),
 E('identity([(1, t)]);', [], '[(int, bool)]'),
 E('identity(max_int);', 0, 'int'),
 E('{identity(r) : r in [[1], [2, 3]]};', [[], []], '[[int]]'),
 E('identity([0:50000]);', [], '[int]'),
])

T('lib_hash', 'hash: range and eql-consistency only (6.12)', [
 E('let h = hash(12345, 10) in (h >= 0) and (h < 10);', True, 'bool'),
 E('hash("abc", 100) == hash("abc", 100);', True, 'bool'),
 E('hash(1, 1);', 0, 'int'),
 E('all({(h >= 0) and (h < 7) : h in {hash(i, 7) : i in [0:1000]}});', True, 'bool'),
 E('hash([1, 2], 1000) == hash([1] ++ [2], 1000);', True, 'bool'),
 E('hash((1, "ab"), 50) == hash((1, "a" ++ "b"), 50);', True, 'bool'),
 E('all({(h >= 0) and (h < 13) : h in {hash(x, 13) : x in [-1.5, 0.0, 2.5]}});', True, 'bool'),
 E('hash([[1], [2]], 1);', 0, 'int'),
 E('let h = {hash(i, 1000) : i in [0:50000]} in (min_val(h) >= 0) and (max_val(h) < 1000);', True, 'bool'),
 E('hash(`a, 5) == hash(`a, 5);', True, 'bool'),
 E('let h = {hash(-i, 3) : i in [0:100]} in all({(x >= 0) and (x < 3) : x in h});', True, 'bool'),
])

# ---- 6.13 sorting, searching, sets, grouping -------------------------------
T('lib_rank', 'rank: stable ascending (6.13)', [
 E('rank([30, 10, 20, 10]);', [3, 0, 2, 1], '[int]'),
 E('rank([] int);', [], '[int]'),
 E('rank([-1, -5, 0]);', [1, 0, 2], '[int]'),
 E('rank([2.5, -1.5, 0.0]);', [2, 0, 1], '[int]'),
 E('rank([5, 5, 5]);', [0, 1, 2], '[int]'),
 E('{rank(r) : r in [[2, 1], [7]]};', [[1, 0], [0]], '[[int]]'),
 E('rank(reverse([0:50000]))[0];', 49999, 'int'),
 E('sum(rank([0:50000]));', S50K, 'int'),
 E('{{rank(r) : r in m} : m in [[[3, 1, 2]], [[1]]]};', [[[2, 0, 1]], [[0]]], '[[[int]]]'),
 E('rank([2, 1, 2, 1]);', [2, 0, 3, 1], '[int]'),
])

T('lib_rank_down', 'rank_down: stable descending (6.13)', [
 E('rank_down([30, 10, 20, 10]);', [0, 2, 1, 3], '[int]'),
 E('rank_down([] int);', [], '[int]'),
 E('rank_down([-1, -5, 0]);', [1, 2, 0], '[int]'),
 E('rank_down([2.5, -1.5, 0.0]);', [0, 2, 1], '[int]'),
 E('rank_down([5, 5, 5]);', [0, 1, 2], '[int]'),
 E('{rank_down(r) : r in [[1, 2], [7]]};', [[1, 0], [0]], '[[int]]'),
 E('rank_down([0:50000])[0];', 49999, 'int'),
 E('rank_down([0:50000])[49999];', 0, 'int'),
 E('rank_down([1, 2, 1, 2]);', [2, 0, 3, 1], '[int]'),
])

T('lib_sort', 'sort (6.13)', [
 E('sort([3, 1, 2]);', [1, 2, 3], '[int]'),
 E('sort([] int);', [], '[int]'),
 E('sort([5, -2, 0, -7, 5]);', [-7, -2, 0, 5, 5], '[int]'),
 E('sort([2.5, -1.5, 0.25]);', [-1.5, 0.25, 2.5], '[float]'),
 E('{sort(r) : r in [[2, 1], [] int, [9, -9]]};', [[1, 2], [], [-9, 9]], '[[int]]'),
 E('sort(reverse([0:50000]))[123];', 123, 'int'),
 E('eql(sort(reverse([0:50000])), [0:50000]);', True, 'bool'),
 E('sort({mod(i * 7919, 50000) : i in [0:50000]})[49999];', 49999, 'int'),
 E('{{sort(r) : r in m} : m in [[[3, 1]], [[2, 2, 1]]]};', [[[1, 3]], [[1, 2, 2]]], '[[[int]]]'),
 E('sort([max_int, min_int, 0]);', [MIN, 0, MAX], '[int]'),
])

T('lib_char_rank', 'char_rank (6.13, undocumented)', [
 E('char_rank("cab");', [2, 0, 1], '[int]'),
 E('char_rank("");', [], '[int]'),
 E('char_rank("aba");', [0, 2, 1], '[int]'),
 E('char_rank("Ba");', [0, 1], '[int]'),
 E('permute("hello", char_rank("hello"));', 'ehllo', '[char]'),
 E('{char_rank(s) : s in ["ba", "x"]};', [[1, 0], [0]], '[[int]]'),
 E('char_rank(flatten(dist("ba", 25000)))[0];', 25000, 'int'),
 E('char_rank(flatten(dist("ba", 25000)))[1];', 0, 'int'),
])

T('lib_kth_smallest', 'kth_smallest (6.13)', [
 E('kth_smallest([9, 2, 7, 4], 1);', 4, 'int'),
 E('kth_smallest([9, 2, 7, 4], 0);', 2, 'int'),
 E('kth_smallest([9, 2, 7, 4], 3);', 9, 'int'),
 E('kth_smallest([-1.5, 2.5, 0.0], 1);', 0.0, 'float'),
 E('kth_smallest("hello", 0);', Ch('e'), 'char'),
 E('kth_smallest([5, 5, 1], 2);', 5, 'int'),
 E('{kth_smallest(r, 0) : r in [[3, 1], [7]]};', [1, 7], '[int]'),
 E('kth_smallest(reverse([0:50000]), 777);', 777, 'int'),
 E('kth_smallest([-3, -3, -3], 1);', -3, 'int'),
])

T('lib_median', 'median = kth_smallest(a, #a/2) (6.13)', [
 E('median([9, 2, 7, 4]);', 7, 'int'),
 E('median([1, 2, 3]);', 2, 'int'),
 E('median([5]);', 5, 'int'),
 E('median([-1.5, 2.5, 0.0, 1.0]);', 1.0, 'float'),
 E('median("hello");', Ch('l'), 'char'),
 E('{median(r) : r in [[3, 1, 2], [4, 6]]};', [2, 6], '[int]'),
 E('median([0:50000]);', 25000, 'int'),
 E('median(reverse([0:50001]));', 25000, 'int'),
])

T('lib_search_for_subseqs', 'search_for_subseqs (6.13)', [
 E('search_for_subseqs("ab", "abcab");', [0, 3], '[int]'),
 E('search_for_subseqs("aa", "aaaa");', [0, 1, 2], '[int]'),
 E('search_for_subseqs("xyz", "ab");', [], '[int]'),
 E('search_for_subseqs("abc", "abc");', [0], '[int]'),
 E('search_for_subseqs("q", "abc");', [], '[int]'),
 E('search_for_subseqs([1, 2], [1, 2, 1, 2, 1]);', [0, 2], '[int]'),
 E('search_for_subseqs([-1], [-1, 0, -1]);', [0, 2], '[int]'),
 E('{search_for_subseqs(p, s) : p in ["a", "b"]; s in ["aba", "bb"]};', [[0, 2], [0, 1]], '[[int]]'),
 E('#search_for_subseqs([0, 1], flatten(dist([0, 1], 25000)));', 25000, 'int'),
 E('search_for_subseqs([2.5], [2.5, 1.0, 2.5]);', [0, 2], '[int]'),
])

T('lib_find', 'find: first index by eql, else -1 (6.13)', [
 E('find(7, [1, 7, 7]);', 1, 'int'),
 E('find(4, [1, 7]);', -1, 'int'),
 E('find(1, [] int);', -1, 'int'),
 E('find(`c, "abcc");', 2, 'int'),
 E('find([1, 2], [[3], [1, 2]]);', 1, 'int'),
 E('find((2, f), [(1, t), (2, f)]);', 1, 'int'),
 E('find(-1.5, [0.0, -1.5]);', 1, 'int'),
 E('find("b", ["a", "b", "b"]);', 1, 'int'),
 E('{find(x, s) : x in [1, 2]; s in [[2, 1], [3]]};', [1, -1], '[int]'),
 E('find(49999, [0:50000]);', 49999, 'int'),
 E('find(-1, [0:50000]);', -1, 'int'),
])

T('lib_name', 'name: labels are indices of equal values (properties only) (6.13)', [
 E('let a = [3, 1, 3, 2, 1] in eql(a -> name(a), a);', True, 'bool'),
 E('#name([3, 1, 3, 2, 1]);', 5, 'int'),
 E('let n = name([3, 1, 3, 2, 1]) in (n[0] == n[2]) and (n[1] == n[4]) and (n[0] /= n[1]) and (n[3] /= n[0]) and (n[3] /= n[1]);', True, 'bool'),
 E('name([] int);', [], '[int]'),
 E('name([7]);', [0], '[int]'),
 E('let s = ["ab", "c", "ab"] in eql(s -> name(s), s);', True, 'bool'),
 E('let a = {mod(i, 10) : i in [0:50000]} in eql(a -> name(a), a);', True, 'bool'),
 E('let a = [[1], [2], [1]] in eql(a -> name(a), a);', True, 'bool'),
 E('let a = [-1.5, 2.5, -1.5] in eql(a -> name(a), a);', True, 'bool'),
])

T('lib_mark_duplicates', 'mark_duplicates: one t per distinct value (6.13)', [
 E('count(mark_duplicates([3, 1, 3, 2, 1]));', 3, 'int'),
 E('mark_duplicates([] int);', [], '[bool]'),
 E('mark_duplicates([7]);', [True], '[bool]'),
 E('mark_duplicates([1, 2, 3]);', [True, True, True], '[bool]'),
 E('sort(pack(zip([3, 1, 3, 2, 1], mark_duplicates([3, 1, 3, 2, 1]))));', [1, 2, 3], '[int]'),
 E('count(mark_duplicates(["a", "b", "a"]));', 2, 'int'),
 E('let m = mark_duplicates([5, 5]) in m[0] xor m[1];', True, 'bool'),
 E('count(mark_duplicates({mod(i, 100) : i in [0:50000]}));', 100, 'int'),
 E('count(mark_duplicates([-1.5, -1.5, 2.5]));', 2, 'int'),
 E('{count(mark_duplicates(r)) : r in [[1, 1], [1, 2]]};', [1, 2], '[int]'),
])

T('lib_remove_duplicates', 'remove_duplicates (order-independent checks) (6.13)', [
 E('sort(remove_duplicates([3, 1, 3, 2, 1]));', [1, 2, 3], '[int]'),
 E('remove_duplicates([] int);', [], '[int]'),
 E('remove_duplicates([4, 4, 4]);', [4], '[int]'),
 E('sort(remove_duplicates([-1, 5, -1]));', [-1, 5], '[int]'),
 E('#remove_duplicates("mississippi");', 4, 'int'),
 E('let r = remove_duplicates("mississippi") in permute(r, char_rank(r));', 'imps', '[char]'),
 E('#remove_duplicates([[1], [2], [1]]);', 2, 'int'),
 E('sort(remove_duplicates({mod(i, 10) : i in [0:50000]}));', list(range(10)), '[int]'),
 E('{#remove_duplicates(r) : r in [[1, 1], [1, 2], [] int]};', [1, 2, 0], '[int]'),
 E('remove_duplicates([2.5]);', [2.5], '[float]'),
])

T('lib_sets_union_intersection', 'union and intersection (order-independent checks) (6.13)', [
 E('sort(union([1, 2, 3], [3, 4]));', [1, 2, 3, 4], '[int]'),
 E('sort(intersection([1, 2, 3], [3, 4, 2]));', [2, 3], '[int]'),
 E('union([] int, [] int);', [], '[int]'),
 E('sort(union([] int, [5, -1]));', [-1, 5], '[int]'),
 E('intersection([1, 2], [3]);', [], '[int]'),
 E('intersection([] int, [1]);', [], '[int]'),
 E('#union([0:50000:2], [1:50000:2]);', 50000, 'int'),
 E('#intersection([0:50000], [25000:75000]);', 25000, 'int'),
 E('sort(union([-1.5], [2.5]));', [-1.5, 2.5], '[float]'),
 E('let u = union("abc", "cd") in permute(u, char_rank(u));', 'abcd', '[char]'),
 E('#intersection(["x", "y"], ["y"]);', 1, 'int'),
 E('{#union(a, b) : a in [[1], [2]]; b in [[1], [3]]};', [1, 2], '[int]'),
])

T('lib_set_difference', 'set_difference (order-independent checks) (6.13, undocumented)', [
 E('sort(set_difference([1, 2, 3, 4], [2, 4]));', [1, 3], '[int]'),
 E('#set_difference([1, 2], [1, 2]);', 0, 'int'),
 E('sort(set_difference([1, 2], [] int));', [1, 2], '[int]'),
 E('#set_difference([] int, [1]);', 0, 'int'),
 E('#set_difference([0:50000], [0:50000:2]);', 25000, 'int'),
 E('sort(set_difference([-1, -2, 3], [3]));', [-2, -1], '[int]'),
 E('#set_difference(["a", "b"], ["b"]);', 1, 'int'),
 E('let d = set_difference("helo", "l") in permute(d, char_rank(d));', 'eho', '[char]'),
])

T('lib_collect', 'collect (groups re-ordered by key before printing) (6.13)', [
 E('let c = collect([(1, `a), (2, `b), (1, `c)]); ks = {k : (k, v) in c} in permute(c, rank(ks));', [(1, 'ac'), (2, 'b')], '[(int, [char])]'),
 E('collect([] (int, int));', [], '[(int, [int])]'),
 E('#collect([(5, 1), (5, 2)]);', 1, 'int'),
 E('collect([(5, 1), (5, 2)]);', [(5, [1, 2])], '[(int, [int])]'),
 E('collect([(-1.5, t)]);', [(-1.5, [True])], '[(float, [bool])]'),
 E('let c = collect([("a", 1), ("b", 2), ("a", 3)]) in sort({sum(v) : (k, v) in c});', [2, 4], '[int]'),
 E('let c = collect({(mod(i, 5), i) : i in [0:50000]}) in sort({#v : (k, v) in c});', [10000] * 5, '[int]'),
 E('let c = collect([(2, 10), (1, 20), (2, 30), (1, 40)]); ks = {k : (k, v) in c} in permute(c, rank(ks));', [(1, [20, 40]), (2, [10, 30])], '[(int, [int])]'),
 E('let c = collect([(0, [1]), (0, [2, 3])]) in {v : (k, v) in c};', [[[1], [2, 3]]], '[[[int]]]'),
])

T('lib_int_collect', 'int_collect: keys ascending, values in input order (6.13)', [
 E('int_collect([(3, `a), (1, `b), (3, `c)]);', [(1, 'b'), (3, 'ac')], '[(int, [char])]'),
 E('int_collect([] (int, int));', [], '[(int, [int])]'),
 E('int_collect([(-2, 1.5), (5, 2.5), (-2, -0.5)]);', [(-2, [1.5, -0.5]), (5, [2.5])], '[(int, [float])]'),
 E('int_collect([(0, [1]), (0, [2, 3])]);', [(0, [[1], [2, 3]])], '[(int, [[int]])]'),
 E('{k : (k, v) in int_collect({(mod(i, 4), i) : i in [0:50000]})};', [0, 1, 2, 3], '[int]'),
 E('{#v : (k, v) in int_collect({(mod(i, 4), i) : i in [0:50000]})};', [12500] * 4, '[int]'),
 E('{sum(v) : (k, v) in int_collect([(1, 5), (0, 7), (1, -5)])};', [7, 0], '[int]'),
 E('int_collect({(mod(i, 3), i) : i in [0:7]});', [(0, [0, 3, 6]), (1, [1, 4]), (2, [2, 5])], '[(int, [int])]'),
])

T('lib_histogram', 'histogram (groups re-ordered before printing) (6.13, undocumented)', [
 E('let h = histogram([3, 1, 3, 2, 1, 3]) in permute(h, rank({v : (v, c) in h}));', [(1, 2), (2, 1), (3, 3)], '[(int, int)]'),
 E('histogram([] int);', [], '[(int, int)]'),
 E('histogram([7, 7]);', [(7, 2)], '[(int, int)]'),
 E('let h = histogram({mod(i, 3) : i in [0:50000]}) in sort({c : (v, c) in h});', [16666, 16667, 16667], '[int]'),
 E('#histogram("banana");', 3, 'int'),
 E('let h = histogram("banana") in sum({c : (v, c) in h});', 6, 'int'),
 E('histogram([-1.5]);', [(-1.5, 1)], '[(float, int)]'),
])

# ---- 6.14 strings ------------------------------------------------------------
T('lib_string_at_scalar', '@ and string on ints, bools, chars (6.14, 5.9)', [
 E('@42;', at(42), '[char]'),
 E('@(-7);', '-7', '[char]'),
 E('@t;', 't', '[char]'),
 E('@f;', 'f', '[char]'),
 E('@`a;', '`a', '[char]'),
 E('string(5);', '5', '[char]'),
 E('string(t);', 't', '[char]'),
 E('{@i : i in [1, 22]};', ['1', '22'], '[[char]]'),
 E('@max_int;', '2147483647', '[char]'),
 E('@min_int;', '-2147483648', '[char]'),
 E('@space;', '` ', '[char]'),
 E('#(@12345);', 5, 'int'),
 E('string(`z);', '`z', '[char]'),
])

T('lib_string_at_float', '@ on floats: 8 significant digits (6.14, 5.9)', [
 E('@2.5;', '2.5', '[char]'),
 E('@100.0;', '100.0', '[char]'),
 E('@0.001;', '0.001', '[char]'),
 E('@0.0001;', '1.0e-4', '[char]'),
 E('@1.0e7;', '1.0e+7', '[char]'),
 E('@3.14159265;', '3.1415927', '[char]'),
 E('@0.0;', '0.0', '[char]'),
 E('@(-2.5);', '-2.5', '[char]'),
 E('@(1.0 / 3.0);', at(1.0 / 3.0), '[char]'),
 E('@123456789.0;', at(123456789.0), '[char]'),
 E('@1234567.0;', '1234567.0', '[char]'),
 E('@0.01;', '0.01', '[char]'),
 E('@(2.0 / 3.0);', at(2.0 / 3.0), '[char]'),
 E('@1.5e-10;', at(1.5e-10), '[char]'),
 E('@(-1.0e20);', at(-1.0e20), '[char]'),
])

T('lib_string_at_struct', '@ on sequences, tuples, functions (6.14, 5.9)', [
 E('@[1, 2];', '[1, 2]', '[char]'),
 E('@(1, `x);', '(1, `x)', '[char]'),
 E('@"ab";', '[`a, `b]', '[char]'),
 E('@[t, f];', '[t, f]', '[char]'),
 E('@[[1], [2, 3]];', '[[1], [2, 3]]', '[char]'),
 E('@([] int);', '[]', '[char]'),
 E('@(1, 2.5, t);', '(1, 2.5, t)', '[char]'),
 E('@((1, 2), 3);', '((1, 2), 3)', '[char]'),
 E('@[(1, -2)];', '[(1, -2)]', '[char]'),
 E('@sqrt;', 'function', '[char]'),
 E('string([0.5, 1.0e-5]);', at([0.5, 1.0e-5]), '[char]'),
 E('{@r : r in [[1], [] int]};', ['[1]', '[]'], '[[char]]'),
 E('@"";', '[]', '[char]'),
 E('@["a", "b"];', '[[`a], [`b]]', '[char]'),
])

T('lib_string_pad', '|| pads with spaces to width |w| (6.14)', [
 E('"ab" || 5;', 'ab   ', '[char]'),
 E('"ab" || -4;', '  ab', '[char]'),
 E('"abcdef" || 3;', 'abcdef', '[char]'),
 E('"abc" || -3;', 'abc', '[char]'),
 E('"" || 2;', '  ', '[char]'),
 E('"x" || 0;', 'x', '[char]'),
 E('{s || 3 : s in ["a", "bb"]};', ['a  ', 'bb '], '[[char]]'),
 E('{s || -3 : s in ["a", "bb"]};', ['  a', ' bb'], '[[char]]'),
 E('#("z" || 50000);', 50000, 'int'),
 E('@5 || -4;', '   5', '[char]'),
 E('"abc" || -5;', '  abc', '[char]'),
])

T('lib_exp_string', 'exp_string: d digits after the point (6.14)', [
 E('exp_string(1234.5, 2);', '1.23e+3', '[char]'),
 E('exp_string(-1234.5, 2);', '-1.23e+3', '[char]'),
 E('exp_string(0.00375, 2);', '3.75e-3', '[char]'),
 E('exp_string(12345678.0, 8);', '1.23456780e+7', '[char]'),
 E('exp_string(1.0e10, 3);', '1.000e+10', '[char]'),
 E('exp_string(2.5e-7, 1);', '2.5e-7', '[char]'),
 E('{exp_string(x, 1) : x in [1500.0, 25.0]};', ['1.5e+3', '2.5e+1'], '[[char]]'),
])

T('lib_scalar_strings', 'int_string float_string bool_string char_string (6.14, undocumented)', [
 E('int_string(-42);', '-42', '[char]'),
 E('int_string(0);', '0', '[char]'),
 E('float_string(2.5);', '2.5', '[char]'),
 E('float_string(0.0001);', '1.0e-4', '[char]'),
 E('float_string(-100.0);', '-100.0', '[char]'),
 E('bool_string(t);', 't', '[char]'),
 E('bool_string(f);', 'f', '[char]'),
 E('char_string(`a);', '`a', '[char]'),
 E('{int_string(i) : i in [1, -1]};', ['1', '-1'], '[[char]]'),
])

T('lib_wordify', 'wordify (6.14)', [
 E('wordify("hi  there ");', ['hi', 'there'], '[[char]]'),
 E('wordify("");', [], '[[char]]'),
 E('wordify("   ");', [], '[[char]]'),
 E('wordify("one");', ['one'], '[[char]]'),
 E('wordify("a" ++ [tab] ++ "b" ++ [newline] ++ "c");', ['a', 'b', 'c'], '[[char]]'),
 E('wordify("  x  y");', ['x', 'y'], '[[char]]'),
 E('{#wordify(s) : s in ["a b", "", "c d e"]};', [2, 0, 3], '[int]'),
 E('#wordify(flatten(dist("ab ", 10000)));', 10000, 'int'),
 E('wordify("-1 2.5");', ['-1', '2.5'], '[[char]]'),
])

T('lib_linify', 'linify (6.14)', [
 E('linify("ab" ++ [newline] ++ "cd");', ['ab', 'cd'], '[[char]]'),
 E('linify("ab" ++ [newline] ++ [newline] ++ "c" ++ [newline]);', ['ab', '', 'c'], '[[char]]'),
 E('linify("abc");', ['abc'], '[[char]]'),
 E('linify("a b" ++ [newline]);', ['a b'], '[[char]]'),
 E('{#linify(s) : s in ["x", "y" ++ [newline] ++ "z"]};', [1, 2], '[int]'),
 E('#linify(flatten(dist("ab" ++ [newline], 10000)));', 10000, 'int'),
])

T('lib_case', 'lowercase and uppercase (6.14)', [
 E('lowercase(`A);', Ch('a'), 'char'),
 E('uppercase(`z);', Ch('Z'), 'char'),
 E('lowercase(`a);', Ch('a'), 'char'),
 E('uppercase(`1);', Ch('1'), 'char'),
 E('{uppercase(c) : c in "Hello, W!"};', 'HELLO, W!', '[char]'),
 E('{lowercase(c) : c in "MiXeD"};', 'mixed', '[char]'),
 E('{{uppercase(c) : c in s} : s in ["ab", "c"]};', ['AB', 'C'], '[[char]]'),
 E('#{lowercase(c) : c in flatten(dist("AB", 25000))};', 50000, 'int'),
])

T('lib_string_eql', 'string_eql: case-insensitive (6.14)', [
 E('string_eql("Hello", "hELLO");', True, 'bool'),
 E('string_eql("abc", "abd");', False, 'bool'),
 E('string_eql("ab", "abc");', False, 'bool'),
 E('string_eql("", "");', True, 'bool'),
 E('string_eql("A1", "a1");', True, 'bool'),
 E('{string_eql(a, b) : a in ["x", "Y"]; b in ["X", "z"]};', [True, False], '[bool]'),
 E('string_eql(flatten(dist("ab", 25000)), flatten(dist("AB", 25000)));', True, 'bool'),
])

T('lib_strings_parse_int', 'parse_int (6.14)', [
 E('parse_int("-42");', (-42, True), 'int, bool'),
 E('parse_int("17");', (17, True), 'int, bool'),
 E('parse_int("0");', (0, True), 'int, bool'),
 E('parse_int("+5");', (5, True), 'int, bool'),
 E('rest(parse_int("12a"));', False, 'bool'),
 E('rest(parse_int(""));', False, 'bool'),
 E('rest(parse_int("-"));', False, 'bool'),
 E('parse_int("2147483647");', (MAX, True), 'int, bool'),
 E('{first(parse_int(s)) : s in ["1", "-20", "300"]};', [1, -20, 300], '[int]'),
 E('parse_int("007");', (7, True), 'int, bool'),
])

T('lib_strings_parse_float', 'parse_float (6.14)', [
 E('parse_float("2.5");', (2.5, True), 'float, bool'),
 E('parse_float("-1.25e2");', (-125.0, True), 'float, bool'),
 E('parse_float("3");', (3.0, True), 'float, bool'),
 E('parse_float("1.5e-3");', (0.0015, True), 'float, bool'),
 E('parse_float("0.125");', (0.125, True), 'float, bool'),
 E('parse_float("1e3");', (1000.0, True), 'float, bool'),
 E('rest(parse_float("abc"));', False, 'bool'),
 E('rest(parse_float(""));', False, 'bool'),
 E('{first(parse_float(s)) : s in ["1.0", "-0.5"]};', [1.0, -0.5], '[float]'),
])

T('lib_parse_int_vect', 'parse_int_vect (6.14, undocumented)', [
 E('parse_int_vect("1 -2  30");', ([1, -2, 30], True), '[int], bool'),
 E('parse_int_vect("7");', ([7], True), '[int], bool'),
 E('rest(parse_int_vect("1 x"));', False, 'bool'),
 E('first(parse_int_vect(" 4 5 "));', [4, 5], '[int]'),
 E('#first(parse_int_vect(flatten(dist("12 ", 50000))));', 50000, 'int'),
 E('{first(parse_int_vect(s)) : s in ["1 2", "-3"]};', [[1, 2], [-3]], '[[int]]'),
])

T('lib_digitp', 'digitp (6.14, undocumented)', [
 E('digitp(`5);', True, 'bool'),
 E('digitp(`a);', False, 'bool'),
 E('digitp(`0);', True, 'bool'),
 E('digitp(`9);', True, 'bool'),
 E('digitp(space);', False, 'bool'),
 E('{digitp(c) : c in "a1/:9"};', [False, True, False, False, True], '[bool]'),
 E('count({digitp(c) : c in flatten(dist("a1", 25000))});', 25000, 'int'),
])

T('lib_justify_text', 'justify_text keeps the words in order (property only) (6.14)', [
 E('let s = "the quick brown fox jumps over the lazy dog" in eql(flatten({wordify(l) : l in justify_text(s, 10)}), wordify(s));', True, 'bool'),
 E('eql(flatten({wordify(l) : l in justify_text("a b c", 80)}), ["a", "b", "c"]);', True, 'bool'),
 E('let s = "abcdef ghijkl mn" in eql(flatten({wordify(l) : l in justify_text(s, 3)}), wordify(s));', True, 'bool'),
])

# ---- 6.15 generic helpers --------------------------------------------------------
T('lib_scan_generic', 'scan(f, id, a) with library and user functions (6.15)', [
 E('scan(max, 0, [3, 1, 4]);', ([0, 3, 3], 4), '[int], int'),
 D('function add(x, y) = x + y;', 'add', '(a, a) -> a :: (a in number)'),
 E('scan(add, 0, [5, 1, 3]);', ([0, 5, 6], 9), '[int], int'),
 E('scan(add, 0.0, [0.5, 0.25]);', ([0.0, 0.5], 0.75), '[float], float'),
 E('scan(min, 100, [7, -2, 9]);', ([100, 7, -2], -2), '[int], int'),
 E('rest(scan(add, 0, [0:50000]));', S50K, 'int'),
 E('scan(max, 0, [-1, -2]);', ([0, 0], 0), '[int], int'),
])

T('lib_map', 'map(f, a), serial left to right (6.15)', [
 E('map(abs, [-1, 2, -3]);', [1, 2, 3], '[int]'),
 E('map(isqrt, [] int);', [], '[int]'),
 D('function inc(x) = x + 1;', 'inc', 'int -> int'),
 E('map(inc, [1, 2]);', [2, 3], '[int]'),
 E('map(reverse, [[1, 2], [3]]);', [[2, 1], [3]], '[[int]]'),
 E('map(printl, [1, 2, 3]);', [1, 2, 3], '[int]', pre='1\n2\n3\n'),
 E('#map(inc, [0:50000]);', 50000, 'int'),
])

# ---- 6.16 hash tables --------------------------------------------------------------
T('lib_hash_table', 'create_table fast_create_table make_table search_table table_entries (6.16)', [
 E('search_table([1, 5, 3], create_table([(1, 10), (2, 20), (3, 30)]));', [(10, True), (0, False), (30, True)], '[(int, bool)]'),
 E('search_table([2], fast_create_table([(2, 2.5)]));', [(2.5, True)], '[(float, bool)]'),
 E('#table_entries(create_table([(1, 10), (2, 20), (3, 30)]));', 3, 'int'),
 E('let e = table_entries(create_table([(1, 10), (2, 20), (3, 30)])) in sort({k * 100 + v : (k, v) in e});', [110, 220, 330], '[int]'),
 E('#table_entries(make_table((0, 0), 10));', 0, 'int'),
 E('search_table([4], make_table((0, 0), 10));', [(0, False)], '[(int, bool)]'),
 E('hash_table_factor;', 3, 'int'),
 E('search_table(["b", "z"], create_table([("a", 1), ("b", 2)]));', [(2, True), (0, False)], '[(int, bool)]'),
 E('let r = search_table([0:50000], create_table({(i, 2 * i) : i in [0:50000]})) in all({fl and (v == 2 * i) : (v, fl) in r; i in [0:50000]});', True, 'bool'),
 E('search_table([-1], create_table([(-1, "neg")]));', [('neg', True)], '[([char], bool)]'),
])

T('lib_hash_table_insert', 'insert_table (6.16)', [
 E('search_table([4, 1], insert_table([(4, 40)], create_table([(1, 10)])));', [(40, True), (10, True)], '[(int, bool)]'),
 E('search_table([7], insert_table([(7, -7)], make_table((0, 0), 5)));', [(-7, True)], '[(int, bool)]'),
 E('#table_entries(insert_table([(2, 0), (3, 0)], make_table((0, 0), 5)));', 2, 'int'),
 E('search_table([9], insert_table([] (int, int), create_table([(9, 1)])));', [(1, True)], '[(int, bool)]'),
 E('search_table([1, 2], insert_table([(2, [5])], create_table([(1, [1, 2])])));', [([1, 2], True), ([5], True)], '[([int], bool)]'),
])

# ---- 6.17 internal helper with specified semantics -----------------------------
T('lib_internal_fseq', 'fseq(s, d, e): 1 + trunc(|e-s|/|d|) floats (6.17)', [
 E('fseq(0.0, 0.5, 2.0);', [0.0, 0.5, 1.0, 1.5, 2.0], '[float]'),
 E('#fseq(1.0, 0.25, 2.0);', 5, 'int'),
 E('fseq(1.0, 1.0, 1.0);', [1.0], '[float]'),
])

# ---- 6.18 / 6.20 terminal output -------------------------------------------------
T('lib_print_string', 'print_char print_string print_line (6.18)', [
 E('print_char(`a);', True, 'bool', pre='a'),
 E('print_string("hello");', True, 'bool', pre='hello'),
 E('print_line("hello");', True, 'bool', pre='hello\n'),
 E('print_line("");', True, 'bool', pre='\n'),
 E('print_string("");', True, 'bool'),
 E('{print_string(s) : s in ["a", "b", "c"]};', [True, True, True], '[bool]', pre='abc'),
 E('let a = print_line("one"); b = print_line("two") in 3;', 3, 'int', pre='one\ntwo\n'),
 B('x = print_line("bound");', 'x', True, 'bool', pre='bound\n'),
 E('print_line(flatten(dist("ab", 3)));', True, 'bool', pre='ababab\n'),
 E('{print_char(c) : c in "xyz"};', [True, True, True], '[bool]', pre='xyz'),
])

T('lib_print_values', 'print and printl write @v (6.18)', [
 E('print(42);', 42, 'int', pre='42 '),
 E('printl([1, 2]);', [1, 2], '[int]', pre='[1, 2]\n'),
 E('printl("ab");', 'ab', '[char]', pre='[`a, `b]\n'),
 E('printl(2.5);', 2.5, 'float', pre='2.5\n'),
 E('printl(t);', True, 'bool', pre='t\n'),
 E('printl((1, `x));', (1, Ch('x')), 'int, char', pre='(1, `x)\n'),
 E('printl(0.0001);', 0.0001, 'float', pre='1.0e-4\n'),
 E('let a = print(1); b = print(2) in a + b;', 3, 'int', pre='1 2 '),
 E('printl(-7);', -7, 'int', pre='-7\n'),
 E('printl([[1], [] int]);', [[1], []], '[[int]]', pre='[[1], []]\n'),
])

T('lib_print_debug', 'print_debug(s, v) writes s, @v, newline (6.18)', [
 E('print_debug("x = ", 5);', 5, 'int', pre='x = 5\n'),
 E('print_debug("v: ", [1, 2]);', [1, 2], '[int]', pre='v: [1, 2]\n'),
 E('print_debug("", t);', True, 'bool', pre='t\n'),
])

T('lib_write_string_stdout', 'write_string to stdout (6.20)', [
 E('first(write_string("hi", stdout));', True, 'bool', pre='hi'),
 E('first(write_string("", stdout));', True, 'bool'),
 E('let s = write_string("line", stdout); n = print_line("") in first(s);', True, 'bool', pre='line\n'),
 E('{first(write_string(s, stdout)) : s in ["a", "b"]};', [True, True], '[bool]', pre='ab'),
])

# ---- 6.19 time ------------------------------------------------------------------
T('lib_time', 'time(e) returns (value, seconds) (6.19, 3.12)', [
 E('first(time(sum([1:101])));', 5050, 'int'),
 E('let (v, s) = time(reverse([1, 2, 3])) in (v, s >= 0.0);', ([3, 2, 1], True), '[int], bool'),
 E('rest(time(0)) >= 0.0;', True, 'bool'),
 E('#first(time(index(50000)));', 50000, 'int'),
 E('first(time("abc"));', 'abc', '[char]'),
])
