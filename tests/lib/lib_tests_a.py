# Scalar library functions: NESL.md 6.1-6.6.  Values derived by hand; heavy float
# values computed with python3's math module (IEEE double, same formulas as 6.4).
import math
from gen_expected import T, E, B, D, ERR, C, Ch, FN

MIN, MAX = -2147483648, 2147483647

T('lib_logical_bool', 'not/and/or/xor/nor/nand on bool (6.1)', [
 E('not(t);', False, 'bool'),
 E('not(f);', True, 'bool'),
 E('{not(b) : b in [t, f, f]};', [False, True, True], '[bool]'),
 E('{a and b : a in [t, t, f, f]; b in [t, f, t, f]};', [True, False, False, False], '[bool]'),
 E('{a or b : a in [t, t, f, f]; b in [t, f, t, f]};', [True, True, True, False], '[bool]'),
 E('{a xor b : a in [t, t, f, f]; b in [t, f, t, f]};', [False, True, True, False], '[bool]'),
 E('{a nor b : a in [t, t, f, f]; b in [t, f, t, f]};', [False, False, False, True], '[bool]'),
 E('{a nand b : a in [t, t, f, f]; b in [t, f, t, f]};', [False, True, True, True], '[bool]'),
 E('(t and f, t or f, t xor t);', (False, True, False), 'bool, bool, bool'),
 E('{{not(b) : b in r} : r in [[t], [] bool, [f, t]]};', [[False], [], [True, False]], '[[bool]]'),
 E('not(t) nor f;', True, 'bool'),
 E('t nand t;', False, 'bool'),
])

T('lib_logical_int', 'bitwise not/and/or/xor/nor/nand on int, negatives (6.1)', [
 E('not(0);', -1, 'int'),
 E('not(5);', -6, 'int'),
 E('not(-1);', 0, 'int'),
 E('5 xor 3;', 6, 'int'),
 E('12 and 10;', 8, 'int'),
 E('12 or 10;', 14, 'int'),
 E('12 nand 10;', -9, 'int'),
 E('12 nor 10;', -15, 'int'),
 E('-8 and 7;', 0, 'int'),
 E('-8 or 7;', -1, 'int'),
 E('-6 xor -3;', 7, 'int'),
 E('{x and 255 : x in [256, 511, -1]};', [0, 255, 255], '[int]'),
 E('{{x xor 1 : x in r} : r in [[1, 2], [] int, [-2]]};', [[0, 3], [], [-1]], '[[int]]'),
 E('max_int and min_int;', 0, 'int'),
 E('not(max_int);', MIN, 'int'),
])

T('lib_logical_large', 'logical operators over 50000 elements (6.1)', [
 E('count({(i and 1) == 1 : i in [0:50000]});', 25000, 'int'),
 E('#{not(b) : b in dist(t, 50000)};', 50000, 'int'),
 E('sum({i xor 1 : i in [0:50000]});', sum(i ^ 1 for i in range(50000)), 'int'),
 E('count({not(b) : b in dist(f, 50000)});', 50000, 'int'),
 E('count({a xor b : a in dist(t, 50000); b in {evenp(i) : i in [0:50000]}});', 25000, 'int'),
])

T('lib_compare_int', '== /= < > <= >= on int (6.2)', [
 E('3 == 3;', True, 'bool'),
 E('3 /= 3;', False, 'bool'),
 E('-2 < 1;', True, 'bool'),
 E('-2 > 1;', False, 'bool'),
 E('5 <= 5;', True, 'bool'),
 E('-5 >= -4;', False, 'bool'),
 E('{x < 0 : x in [-1, 0, 1]};', [True, False, False], '[bool]'),
 E('{x >= y : x in [1, 2, 3]; y in [3, 2, 1]};', [False, True, True], '[bool]'),
 E('min_int < max_int;', True, 'bool'),
 E('{{x == 2 : x in r} : r in [[1, 2], [2]]};', [[False, True], [True]], '[[bool]]'),
 E('(1 == 2, 3 /= 4);', (False, True), 'bool, bool'),
 E('count({i < 25000 : i in [0:50000]});', 25000, 'int'),
])

T('lib_compare_float_char', 'comparisons on float (IEEE) and char (codes) (6.2)', [
 E('1.5 < 2.0;', True, 'bool'),
 E('-0.5 > -0.25;', False, 'bool'),
 E('0.1 + 0.2 == 0.3;', False, 'bool'),
 E('0.5 + 0.25 == 0.75;', True, 'bool'),
 E('2.0 /= 2.0;', False, 'bool'),
 E('-0.0 == 0.0;', True, 'bool'),
 E('{x <= 1.0 : x in [0.5, 1.0, 1.5]};', [True, True, False], '[bool]'),
 E('`a < `b;', True, 'bool'),
 E('`Z < `a;', True, 'bool'),
 E('`a == `a;', True, 'bool'),
 E('{c >= `m : c in "amz"};', [False, True, True], '[bool]'),
 E('{c /= `l : c in "hello"};', [True, True, False, False, True], '[bool]'),
 E('count({c == `a : c in flatten(dist("ab", 25000))});', 25000, 'int'),
])

T('lib_predicates', 'plusp minusp zerop oddp evenp (6.2)', [
 E('plusp(3);', True, 'bool'),
 E('plusp(0);', False, 'bool'),
 E('minusp(-2);', True, 'bool'),
 E('minusp(0.0);', False, 'bool'),
 E('zerop(0);', True, 'bool'),
 E('zerop(0.5);', False, 'bool'),
 E('{plusp(x) : x in [-1.5, 0.0, 2.5]};', [False, False, True], '[bool]'),
 E('oddp(-3);', True, 'bool'),
 E('evenp(-4);', True, 'bool'),
 E('oddp(0);', False, 'bool'),
 E('{oddp(i) : i in [-2, -1, 0, 1, 2]};', [False, True, False, True, False], '[bool]'),
 E('count({evenp(i) : i in [0:50000]});', 25000, 'int'),
 E('{{zerop(x) : x in r} : r in [[0, 1], [] int, [-1, 0]]};', [[True, False], [], [False, True]], '[[bool]]'),
 E('{minusp(x) : x in [-1.5, 0.0]};', [True, False], '[bool]'),
])

T('lib_arith_int', '+ - * / negate on int; truncation and wrap-around (6.3, 5.2)', [
 E('3 + 4;', 7, 'int'),
 E('3 - 10;', -7, 'int'),
 E('-6 * 7;', -42, 'int'),
 E('7 / 2;', 3, 'int'),
 E('-7 / 2;', -3, 'int'),
 E('7 / -2;', -3, 'int'),
 E('-7 / -2;', 3, 'int'),
 E('negate(5);', -5, 'int'),
 E('2147483647 + 1;', MIN, 'int'),
 E('min_int - 1;', MAX, 'int'),
 E('65536 * 65536;', 0, 'int'),
 E('max_int * 2;', -2, 'int'),
 E('{x * y + 1 : x in [1, -2, 3]; y in [4, 5, -6]};', [5, -9, -17], '[int]'),
 E('{{x / 3 : x in r} : r in [[9, -9, 10], [-10]]};', [[3, -3, 3], [-3]], '[[int]]'),
])

T('lib_arith_float', '+ - * / negate on float (6.3)', [
 E('1.5 + 2.25;', 3.75, 'float'),
 E('1.0 - 2.5;', -1.5, 'float'),
 E('-1.5 * 4.0;', -6.0, 'float'),
 E('7.0 / 2.0;', 3.5, 'float'),
 E('-7.0 / 2.0;', -3.5, 'float'),
 E('negate(2.5);', -2.5, 'float'),
 E('1.0 / 3.0;', 1.0 / 3.0, 'float'),
 E('{x * x : x in [0.5, -1.5, 3.0]};', [0.25, 2.25, 9.0], '[float]'),
 E('1.0e10 + 1.0;', 10000000001.0, 'float'),
 E('0.1 * 3.0;', 0.1 * 3.0, 'float'),
 E('2.0e-5 * 0.5;', 1.0e-5, 'float'),
 E('{{x / 2.0 : x in r} : r in [[1.0, -3.0], [] float]};', [[0.5, -1.5], []], '[[float]]'),
 E('(1.5 + 1.5, 2.0 * 2.0);', (3.0, 4.0), 'float, float'),
])

T('lib_abs_diff_max_min', 'abs diff max min (6.3)', [
 E('abs(-5);', 5, 'int'),
 E('abs(3);', 3, 'int'),
 E('abs(-2.5);', 2.5, 'float'),
 E('diff(3, 10);', 7, 'int'),
 E('diff(10, 3);', 7, 'int'),
 E('diff(-1.5, 2.0);', 3.5, 'float'),
 E('max(3, -7);', 3, 'int'),
 E('min(3, -7);', -7, 'int'),
 E('max(1.5, 2.5);', 2.5, 'float'),
 E('min(`a, `B);', Ch('B'), 'char'),
 E('max(`a, `B);', Ch('a'), 'char'),
 E('{max(x, y) : x in [1, 5, -3]; y in [4, 2, -8]};', [4, 5, -3], '[int]'),
 E('{{min(x, 0) : x in r} : r in [[-1, 1], [2]]};', [[-1, 0], [0]], '[[int]]'),
 E('sum({abs(i - 25000) : i in [0:50000]});', sum(abs(i - 25000) for i in range(50000)), 'int'),
])

T('lib_rem_mod', 'rem (sign of x) and mod (sign of y) (6.3, 5.2)', [
 E('rem(7, 2);', 1, 'int'),
 E('rem(-7, 2);', -1, 'int'),
 E('rem(7, -2);', 1, 'int'),
 E('rem(-7, -2);', -1, 'int'),
 E('mod(-7, 2);', 1, 'int'),
 E('mod(7, -2);', -1, 'int'),
 E('mod(7, 2);', 1, 'int'),
 E('mod(-7, -2);', -1, 'int'),
 E('rem(6, 3);', 0, 'int'),
 E('mod(-6, 3);', 0, 'int'),
 E('{mod(i, 3) : i in [-4:5]};', [2, 0, 1, 2, 0, 1, 2, 0, 1], '[int]'),
 E('{rem(i, 3) : i in [-4:5]};', [-1, 0, -2, -1, 0, 1, 2, 0, 1], '[int]'),
 E('sum({mod(i, 7) : i in [0:50000]});', sum(i % 7 for i in range(50000)), 'int'),
 E('{{rem(x, 4) : x in r} : r in [[-9, 9], [] int]};', [[-1, 1], []], '[[int]]'),
])

T('lib_gcd', 'gcd (6.3, undocumented)', [
 E('gcd(12, 18);', 6, 'int'),
 E('gcd(7, 0);', 7, 'int'),
 E('gcd(17, 5);', 1, 'int'),
 E('gcd(100, 75);', 25, 'int'),
 E('{gcd(a, b) : a in [4, 9, 10]; b in [6, 3, 7]};', [2, 3, 1], '[int]'),
 E('gcd(1048576, 393216);', math.gcd(1048576, 393216), 'int'),
 E('sum({gcd(i, 6) : i in [0:50000]});', sum(math.gcd(i, 6) for i in range(50000)), 'int'),
])

T('lib_shifts', 'lshift (zero fill) and rshift (sign fill) (6.3)', [
 E('lshift(1, 10);', 1024, 'int'),
 E('lshift(3, 4);', 48, 'int'),
 E('rshift(1024, 3);', 128, 'int'),
 E('rshift(-16, 2);', -4, 'int'),
 E('rshift(7, 1);', 3, 'int'),
 E('lshift(1, 31);', MIN, 'int'),
 E('lshift(5, 0);', 5, 'int'),
 E('{lshift(1, i) : i in [0:5]};', [1, 2, 4, 8, 16], '[int]'),
 E('{rshift(x, 1) : x in [10, 11, 0]};', [5, 5, 0], '[int]'),
 E('sum({rshift(i, 4) : i in [0:50000]});', sum(i >> 4 for i in range(50000)), 'int'),
])

T('lib_power', '^ with int exponent on int and float (6.3)', [
 E('2 ^ 10;', 1024, 'int'),
 E('-2 ^ 2;', 4, 'int'),
 E('2 ^ 3 ^ 2;', 64, 'int'),
 E('3 ^ 0;', 1, 'int'),
 E('2.0 ^ 0;', 1.0, 'float'),
 E('1.5 ^ 2;', 2.25, 'float'),
 E('-2 ^ 3;', -8, 'int'),
 E('0.5 ^ 3;', 0.125, 'float'),
 E('{x ^ 2 : x in [-3, 0, 4]};', [9, 0, 16], '[int]'),
 E('{2 ^ k : k in [0:5]};', [1, 2, 4, 8, 16], '[int]'),
 E('2 ^ 31;', MIN, 'int'),
 E('10 ^ 9;', 1000000000, 'int'),
 E('2.0 ^ 10;', 1024.0, 'float'),
 E('-0.5 ^ 2;', 0.25, 'float'),
 E('sum({(i and 1) ^ 3 : i in [0:50000]});', 25000, 'int'),
])

T('lib_reciprocal', 'reciprocal (6.3, undocumented)', [
 E('reciprocal(4.0);', 0.25, 'float'),
 E('reciprocal(-0.5);', -2.0, 'float'),
 E('reciprocal(3.0);', 1.0 / 3.0, 'float'),
 E('{reciprocal(x) : x in [1.0, 2.0, 8.0]};', [1.0, 0.5, 0.125], '[float]'),
 E('sum({reciprocal(x) : x in dist(0.5, 50000)});', 100000.0, 'float'),
 E('{{reciprocal(x) : x in r} : r in [[-4.0], [] float]};', [[-0.25], []], '[[float]]'),
])

T('lib_sqrt_isqrt', 'sqrt and isqrt (6.4)', [
 E('sqrt(16.0);', 4.0, 'float'),
 E('sqrt(2.0);', math.sqrt(2.0), 'float'),
 E('sqrt(0.0);', 0.0, 'float'),
 E('sqrt(0.25);', 0.5, 'float'),
 E('{sqrt(x) : x in [1.0, 4.0, 9.0]};', [1.0, 2.0, 3.0], '[float]'),
 E('sqrt(1.0e10);', 100000.0, 'float'),
 E('sum({sqrt(x) : x in dist(4.0, 50000)});', 100000.0, 'float'),
 E('isqrt(17);', 4, 'int'),
 E('isqrt(16);', 4, 'int'),
 E('isqrt(0);', 0, 'int'),
 E('isqrt(1000000);', 1000, 'int'),
 E('{isqrt(i) : i in [0:10]};', [0, 1, 1, 1, 2, 2, 2, 2, 2, 3], '[int]'),
 E('sum({isqrt(i) : i in [0:50000]});', sum(math.isqrt(i) for i in range(50000)), 'int'),
 E('{{sqrt(x) : x in r} : r in [[4.0], [] float, [0.25, 1.0]]};', [[2.0], [], [0.5, 1.0]], '[[float]]'),
])

T('lib_ln_exp_log', 'ln exp log (6.4)', [
 E('ln(1.0);', 0.0, 'float'),
 E('exp(0.0);', 1.0, 'float'),
 E('exp(2.0);', math.exp(2.0), 'float'),
 E('ln(10.0);', math.log(10.0), 'float'),
 E('exp(-1.0);', math.exp(-1.0), 'float'),
 E('log(8.0, 2.0);', math.log(8.0) / math.log(2.0), 'float'),
 E('log(100.0, 10.0);', math.log(100.0) / math.log(10.0), 'float'),
 E('log(0.5, 2.0);', math.log(0.5) / math.log(2.0), 'float'),
 E('ln(exp(2.0));', math.log(math.exp(2.0)), 'float'),
 E('{round(ln(x)) : x in [1.0, 2.718281828459045, 7.38905609893065]};', [0, 1, 2], '[int]'),
 E('{{exp(x) : x in r} : r in [[0.0], [] float]};', [[1.0], []], '[[float]]'),
 E('sum({ln(x) : x in dist(1.0, 50000)});', 0.0, 'float'),
])

T('lib_expt', 'expt = exp(p * ln(x)) (6.4)', [
 E('expt(2.0, 10.0);', math.exp(10.0 * math.log(2.0)), 'float'),
 E('expt(9.0, 0.5);', math.exp(0.5 * math.log(9.0)), 'float'),
 E('expt(2.0, -1.0);', math.exp(-1.0 * math.log(2.0)), 'float'),
 E('expt(10.0, 3.0);', math.exp(3.0 * math.log(10.0)), 'float'),
 E('expt(0.0, 2.0);', 0.0, 'float'),
 E('{expt(x, 2.0) : x in [3.0, 0.5]};', [math.exp(2.0 * math.log(3.0)), math.exp(2.0 * math.log(0.5))], '[float]'),
 E('sum({expt(x, 1.0) : x in dist(1.0, 50000)});', 50000.0, 'float'),
])

T('lib_trig', 'sin cos tan asin acos atan, pi (6.4)', [
 E('sin(0.0);', 0.0, 'float'),
 E('cos(0.0);', 1.0, 'float'),
 E('sin(pi / 2.0);', math.sin(math.pi / 2.0), 'float'),
 E('cos(pi);', math.cos(math.pi), 'float'),
 E('tan(0.0);', 0.0, 'float'),
 E('atan(1.0);', math.atan(1.0), 'float'),
 E('asin(1.0);', math.asin(1.0), 'float'),
 E('acos(1.0);', 0.0, 'float'),
 E('acos(0.0);', math.acos(0.0), 'float'),
 E('tan(pi / 4.0);', math.tan(math.pi / 4.0), 'float'),
 E('asin(-0.5);', math.asin(-0.5), 'float'),
 E('{{cos(x) : x in r} : r in [[0.0], [pi]]};', [[1.0], [-1.0]], '[[float]]'),
 E('4.0 * atan(1.0);', 4.0 * math.atan(1.0), 'float'),
 E('sum({sin(x) : x in dist(0.0, 50000)});', 0.0, 'float'),
])

T('lib_hyperbolic', 'sinh cosh tanh (6.4)', [
 E('sinh(0.0);', 0.0, 'float'),
 E('cosh(0.0);', 1.0, 'float'),
 E('tanh(0.0);', 0.0, 'float'),
 E('sinh(1.0);', math.sinh(1.0), 'float'),
 E('cosh(1.0);', math.cosh(1.0), 'float'),
 E('tanh(1.0);', math.tanh(1.0), 'float'),
 E('tanh(-1.0);', math.tanh(-1.0), 'float'),
 E('{sinh(x) : x in [-2.0, 2.0]};', [math.sinh(-2.0), math.sinh(2.0)], '[float]'),
 E('sum({cosh(x) : x in dist(0.0, 50000)});', 50000.0, 'float'),
])

T('lib_conv_float_trunc', 'float trunc floor ceil (6.5)', [
 E('float(3);', 3.0, 'float'),
 E('float(-7);', -7.0, 'float'),
 E('float(max_int);', 2147483647.0, 'float'),
 E('{float(i) : i in [1, -2]};', [1.0, -2.0], '[float]'),
 E('trunc(-2.7);', -2, 'int'),
 E('trunc(2.7);', 2, 'int'),
 E('floor(-2.7);', -3, 'int'),
 E('floor(2.7);', 2, 'int'),
 E('ceil(-2.2);', -2, 'int'),
 E('ceil(2.2);', 3, 'int'),
 E('{floor(x) : x in [-0.5, 0.5, 1.0]};', [-1, 0, 1], '[int]'),
 E('{ceil(x) : x in [-0.5, 0.5, 1.0]};', [0, 1, 1], '[int]'),
 E('sum({trunc(float(i) / 2.0) : i in [0:50000]});', sum(i // 2 for i in range(50000)), 'int'),
 E('{{trunc(x) : x in r} : r in [[-1.5, 1.5], [] float]};', [[-1, 1], []], '[[int]]'),
])

T('lib_conv_round', 'round: halves up for x >= -0.5 (6.5, 5.3)', [
 E('round(2.5);', 3, 'int'),
 E('round(-2.5);', -2, 'int'),
 E('round(0.4);', 0, 'int'),
 E('round(1.5);', 2, 'int'),
 E('round(-0.4);', 0, 'int'),
 E('round(-0.5);', 0, 'int'),
 E('round(3.49);', 3, 'int'),
 E('{round(x) : x in [0.5, 1.49, 2.51]};', [1, 1, 3], '[int]'),
 E('sum({round(float(i) + 0.25) : i in [0:50000]});', 1249975000, 'int'),
])

T('lib_conv_char_bool', 'btoi code_char char_code (6.5)', [
 E('btoi(t);', 1, 'int'),
 E('btoi(f);', 0, 'int'),
 E('{btoi(b) : b in [t, f, t]};', [1, 0, 1], '[int]'),
 E('char_code(`a);', 97, 'int'),
 E('char_code(`A);', 65, 'int'),
 E('code_char(122);', Ch('z'), 'char'),
 E('code_char(48);', Ch('0'), 'char'),
 E('{char_code(c) : c in "Hi!"};', [72, 105, 33], '[int]'),
 E('{code_char(i) : i in [104, 105]};', 'hi', '[char]'),
 E('char_code(space);', 32, 'int'),
 E('char_code(newline);', 10, 'int'),
 E('char_code(tab);', 9, 'int'),
 E('sum({btoi(oddp(i)) : i in [0:50000]});', 25000, 'int'),
 E('{{code_char(i + 1) : i in r} : r in [[96, 97], [] int]};', ['ab', ''], '[[char]]'),
])

T('lib_conv_any', 'float_num int_to_any float_to_any (6.5, undocumented)', [
 E('float_num(2.5);', 2.5, 'float'),
 E('float_num(3);', 3.0, 'float'),
 E('int_to_any(3, 1.0);', 3.0, 'float'),
 E('int_to_any(3, 7);', 3, 'int'),
 E('int_to_any(-4, 0.5);', -4.0, 'float'),
 E('float_to_any(2.6, 0);', 3, 'int'),
 E('float_to_any(2.6, 0.0);', 2.6, 'float'),
 E('sum({int_to_any(i, 0) : i in [0:50000]});', 1249975000, 'int'),
 E('{float_to_any(x, 0) : x in [-0.4, 1.5]};', [0, 2], '[int]'),
])

T('lib_constants', 'max_int min_int pi space newline tab (6.6)', [
 E('max_int;', MAX, 'int'),
 E('min_int;', MIN, 'int'),
 E('pi;', math.pi, 'float'),
 E('space;', Ch(' '), 'char'),
 E('[space, `a];', ' a', '[char]'),
 E('{char_code(c) : c in [newline, tab, space]};', [10, 9, 32], '[int]'),
 E('max_int + min_int;', -1, 'int'),
 E('2.0 * pi;', 2.0 * math.pi, 'float'),
])

T('lib_rand_int', 'rand on int: properties only (6.6, 5.5)', [
 E('rand(1);', 0, 'int'),
 E('{rand(i) : i in dist(1, 5)};', [0, 0, 0, 0, 0], '[int]'),
 E('all({(r >= 0) and (r < 10) : r in {rand(i) : i in dist(10, 100)}});', True, 'bool'),
 E('let r = rand(5) in (r >= 0) and (r < 5);', True, 'bool'),
 E('let r = {rand(i) : i in dist(2, 1000)} in (count({x == 0 : x in r}) > 0) and (count({x == 1 : x in r}) > 0);', True, 'bool'),
 E('#{rand(i) : i in dist(100, 50000)};', 50000, 'int'),
 E('all({(r >= 0) and (r < n) : r in {rand(n) : n in [1:101]}; n in [1:101]});', True, 'bool'),
 E('{{rand(i) : i in r} : r in [[1, 1], [1]]};', [[0, 0], [0]], '[[int]]'),
 E('max_val({rand(i) : i in dist(3, 1000)}) < 3;', True, 'bool'),
 E('min_val({rand(i) : i in dist(3, 1000)}) >= 0;', True, 'bool'),
])

T('lib_rand_float', 'rand on float: properties only (6.6, 5.5)', [
 E('all({(r >= 0.0) and (r < 2.5) : r in {rand(x) : x in dist(2.5, 1000)}});', True, 'bool'),
 E('let r = rand(1.0) in (r >= 0.0) and (r < 1.0);', True, 'bool'),
 E('all({(r >= 0.0) and (r < x) : r in {rand(x) : x in [0.5, 1.0, 100.0]}; x in [0.5, 1.0, 100.0]});', True, 'bool'),
 E('let r = {rand(x) : x in dist(1.0, 1000)} in (count({y < 0.5 : y in r}) > 0) and (count({y >= 0.5 : y in r}) > 0);', True, 'bool'),
 E('#{rand(x) : x in dist(0.5, 50000)};', 50000, 'int'),
])

T('lib_rand_seed', 'rand_seed returns t; rand still in range afterwards (6.6)', [
 E('rand_seed(42);', True, 'bool'),
 E('rand_seed(0);', True, 'bool'),
 E('let r = rand(7) in (r >= 0) and (r < 7);', True, 'bool'),
])
