/* fuzz_frontend.c — in-process fuzzer for the nesslc front end.
 *
 * Feeds the parser, checker and monomorphizer (through frontend.h only) with
 *   (a) mutations of the seed programs (every .nesl file under tests/, and
 *       those directly in examples/ and lib/): byte flips, deletions, token insertions, duplications,
 *       splices of two files, truncation;
 *   (b) random soups of NESL tokens.
 * Built with ASan+UBSan by `make fuzz`, so memory errors abort with a report.
 * Every input is written to fuzz-out/current.nesl before it runs, so a crash
 * leaves its culprit there; an input that runs longer than -t seconds is
 * copied to fuzz-out/hang-N.nesl and the fuzzer exits with status 2.
 * The PRNG is seeded by -s, so a run is reproducible.
 *
 * Usage: fuzz_frontend [-n ITER] [-s SEED] [-t SECONDS] [-r REPO_ROOT] */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../../frontend/frontend.h"

#define OUT_DIR "fuzz-out"
#define CURRENT OUT_DIR "/current.nesl"
#define MAX_INPUT (64 * 1024)

/* ---- deterministic PRNG (splitmix64) ---- */
typedef struct Rng { uint64_t s; } Rng;

static uint64_t rng_next(Rng *r)
{
    uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static size_t rng_below(Rng *r, size_t n) { return n ? (size_t)(rng_next(r) % n) : 0; }

/* ---- growable byte buffer, always NUL-terminated ---- */
typedef struct Buf { char *data; size_t len, cap; } Buf;

static void buf_reserve(Buf *b, size_t n)
{
    if (b->len + n + 1 <= b->cap) return;
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->len + n + 1) cap *= 2;
    b->data = realloc(b->data, cap);
    if (!b->data) { perror("fuzz_frontend"); exit(1); }
    b->cap = cap;
}

static void buf_insert(Buf *b, size_t at, const char *s, size_t n)
{
    buf_reserve(b, n);
    memmove(b->data + at + n, b->data + at, b->len - at);
    memcpy(b->data + at, s, n);
    b->len += n;
    b->data[b->len] = '\0';
}

static void buf_set(Buf *b, const char *s, size_t n)
{
    b->len = 0;
    buf_insert(b, 0, s, n);
}

static void buf_delete(Buf *b, size_t at, size_t n)
{
    memmove(b->data + at, b->data + at + n, b->len - at - n);
    b->len -= n;
    b->data[b->len] = '\0';
}

/* ---- NESL token vocabulary ---- */
static const char *const vocab[] = {
    /* reserved words and special forms */
    "function", "datatype", "if", "then", "else", "let", "in", "and", "or",
    "xor", "nor", "nand", "not", "time", "t", "f", "T", "F", "pair", "closure",
    /* type syntax */
    "int", "float", "bool", "char", "any", "number", "ordinal", "logical",
    "a", "b", "[int]", "[[float]]", "(int, bool)",
    /* operators and punctuation */
    "->", "<-", "++", "==", "/=", "<=", ">=", "::", "||", "=>", "+", "-", "*",
    "/", "^", "#", "@", "<", ">", "=", ",", ";", "$", ":", "|", "(", ")", "[",
    "]", "{", "}", ":=", "&=", "|=", ">>",
    /* literals, including malformed ones */
    "0", "1", "42", "2147483647", "2147483648", "99999999999999999999", "3.0",
    ".5", "2.", "1e-3", "6.02E23", "1e", "1e+", "`a", "`%", "`", "\"hello\"",
    "\"\\\"\"", "\"", "\"unterminated", "% comment %", "%", "`\"",
    /* names from the library and common programs */
    "x", "y", "xs", "n", "main", "it", "_", "plus_scan", "sum", "dist", "iota",
    "#xs", "print_string", "rand", "sort", "flatten", "partition", "permute",
    "reduce", "zip", "max_val", "pi", "max_int", "newline", "nullstr", "sqrt",
    "float", "round", "length", "elt", "rep", "take", "drop", "cpx",
    /* whole fragments */
    "{x + 1 : x in xs}", "[0:10]", "[1, 2, 3]", "[] int", "function f(x) = x;",
    "datatype d(int, a) :: (a in any);", "let y = 1 in y", "(x, y) => x",
    "if t then 1 else 2", "a :: (a in number)", "x[0]", "f(x)",
};
#define NVOCAB (sizeof vocab / sizeof vocab[0])

static const char *rand_token(Rng *r) { return vocab[rng_below(r, NVOCAB)]; }

/* ---- seeds ---- */
typedef struct Seeds { Buf *items; size_t n, cap; } Seeds;

typedef struct Paths { char **items; size_t n, cap; } Paths;

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int ends_with(const char *s, const char *suffix)
{
    size_t ls = strlen(s), lx = strlen(suffix);
    return ls >= lx && strcmp(s + ls - lx, suffix) == 0;
}

/* Collect *.nesl under dir (recursing up to depth levels). */
static void find_nesl(Paths *ps, const char *dir, int depth)
{
    DIR *d = opendir(dir);
    if (!d) return;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.') continue;
        size_t n = strlen(dir) + strlen(e->d_name) + 2;
        char *path = malloc(n);
        if (!path) { perror("fuzz_frontend"); exit(1); }
        snprintf(path, n, "%s/%s", dir, e->d_name);
        struct stat st;
        if (stat(path, &st) != 0) {
            free(path);
        } else if (S_ISDIR(st.st_mode) && depth > 0) {
            find_nesl(ps, path, depth - 1);
            free(path);
        } else if (S_ISREG(st.st_mode) && ends_with(path, ".nesl")) {
            if (ps->n == ps->cap) {
                ps->cap = ps->cap ? 2 * ps->cap : 64;
                ps->items = realloc(ps->items, ps->cap * sizeof *ps->items);
                if (!ps->items) { perror("fuzz_frontend"); exit(1); }
            }
            ps->items[ps->n++] = path;
        } else {
            free(path);
        }
    }
    closedir(d);
}

static int slurp(const char *path, Buf *out)
{
    FILE *f = fopen(path, "rb");
    if (!f) return -1;
    char chunk[4096];
    size_t n;
    out->len = 0;
    buf_reserve(out, 0);
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0 && out->len < MAX_INPUT)
        buf_insert(out, out->len, chunk, n);
    fclose(f);
    return 0;
}

static void load_seeds(Seeds *s, const char *root)
{
    static const struct { const char *dir; int depth; } where[] = {
        {"tests", 16}, {"examples", 0}, {"lib", 0},
    };
    Paths ps = {0};
    for (size_t i = 0; i < sizeof where / sizeof where[0]; i++) {
        char dir[4096];
        snprintf(dir, sizeof dir, "%s/%s", root, where[i].dir);
        find_nesl(&ps, dir, where[i].depth);
    }
    /* readdir order differs between file systems; sort for reproducibility. */
    qsort(ps.items, ps.n, sizeof *ps.items, cmp_str);
    s->items = calloc(ps.n ? ps.n : 1, sizeof *s->items);
    if (!s->items) { perror("fuzz_frontend"); exit(1); }
    for (size_t i = 0; i < ps.n; i++) {
        if (slurp(ps.items[i], &s->items[s->n]) == 0) s->n++;
        free(ps.items[i]);
    }
    free(ps.items);
}

/* ---- input generation ---- */
static void token_soup(Rng *r, Buf *b)
{
    size_t n = 1 + rng_below(r, 300);
    b->len = 0;
    buf_reserve(b, 0);
    b->data[0] = '\0';
    for (size_t i = 0; i < n; i++) {
        const char *t = rand_token(r);
        buf_insert(b, b->len, t, strlen(t));
        /* Mostly blanks between tokens, sometimes none (to test longest match). */
        size_t k = rng_below(r, 10);
        const char *sep = k < 6 ? " " : k < 8 ? "\n" : k < 9 ? ";\n" : "";
        buf_insert(b, b->len, sep, strlen(sep));
    }
}

static void mutate_once(Rng *r, Buf *b, const Seeds *seeds)
{
    size_t len = b->len;
    switch (rng_below(r, 7)) {
    case 0:   /* flip a bit */
        if (len) b->data[rng_below(r, len)] ^= (char)(1u << rng_below(r, 8));
        break;
    case 1:   /* replace a byte with a random printable one */
        if (len) b->data[rng_below(r, len)] = (char)(32 + rng_below(r, 95));
        break;
    case 2: { /* delete a range */
        if (!len) break;
        size_t at = rng_below(r, len);
        size_t n = 1 + rng_below(r, rng_below(r, 2) ? 8 : len - at);
        if (n > len - at) n = len - at;
        buf_delete(b, at, n);
        break;
    }
    case 3: { /* insert a token */
        const char *t = rand_token(r);
        size_t at = rng_below(r, len + 1);
        buf_insert(b, at, " ", 1);
        buf_insert(b, at, t, strlen(t));
        if (rng_below(r, 2)) buf_insert(b, at, " ", 1);
        break;
    }
    case 4: { /* duplicate a range */
        if (!len || len > MAX_INPUT) break;
        size_t at = rng_below(r, len);
        size_t n = 1 + rng_below(r, len - at);
        char *copy = malloc(n);
        if (!copy) { perror("fuzz_frontend"); exit(1); }
        memcpy(copy, b->data + at, n);
        buf_insert(b, rng_below(r, len + 1), copy, n);
        free(copy);
        break;
    }
    case 5: { /* splice: our prefix + another seed's suffix */
        if (!seeds->n) break;
        const Buf *o = &seeds->items[rng_below(r, seeds->n)];
        size_t cut = rng_below(r, len + 1), from = rng_below(r, o->len + 1);
        b->len = cut;
        buf_insert(b, cut, o->data + from, o->len - from);
        break;
    }
    case 6:   /* truncate */
        b->len = rng_below(r, len + 1);
        buf_reserve(b, 0);
        b->data[b->len] = '\0';
        break;
    }
}

static void make_input(Rng *r, Buf *b, const Seeds *seeds)
{
    if (!seeds->n || rng_below(r, 4) == 0) {
        token_soup(r, b);
        return;
    }
    const Buf *s = &seeds->items[rng_below(r, seeds->n)];
    buf_set(b, s->data, s->len);
    size_t n = 1 + rng_below(r, 8);
    for (size_t i = 0; i < n; i++) mutate_once(r, b, seeds);
}

/* ---- hang detection ----
 * The SIGALRM handler can only reach state through statics; it uses
 * async-signal-safe calls only (open/read/write/_exit). */
static volatile sig_atomic_t hang_index;

static void write_str(int fd, const char *s) { ssize_t w = write(fd, s, strlen(s)); (void)w; }

static void on_alarm(int sig)
{
    (void)sig;
    char path[64] = OUT_DIR "/hang-";
    char digits[24];
    int nd = 0;
    unsigned long v = (unsigned long)hang_index;
    do { digits[nd++] = (char)('0' + v % 10); v /= 10; } while (v);
    size_t p = strlen(path);
    while (nd) path[p++] = digits[--nd];
    memcpy(path + p, ".nesl", 6);

    int in = open(CURRENT, O_RDONLY), out = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (in >= 0 && out >= 0) {
        char buf[4096];
        ssize_t n;
        while ((n = read(in, buf, sizeof buf)) > 0) { ssize_t w = write(out, buf, (size_t)n); (void)w; }
    }
    write_str(2, "\nfuzz_frontend: HANG: input saved as ");
    write_str(2, path);
    write_str(2, "\n");
    _exit(2);
}

/* One descriptor kept open: rewriting in place is far cheaper than reopening. */
static void save_current(int fd, const Buf *b)
{
    if (ftruncate(fd, 0) != 0 || pwrite(fd, b->data, b->len, 0) != (ssize_t)b->len) {
        perror(CURRENT);
        exit(1);
    }
}

typedef struct Stats { unsigned long parsed, checked, clean_parse; } Stats;

static void run_frontend(const Buf *b, FILE *devnull, Stats *st)
{
    Diag d;
    diag_init(&d, devnull);
    Compilation *c = compilation_new(&d);
    Source src = {"fuzz.nesl", b->data, b->len};
    Program *p = parse_program(c, &src);
    if (p) {
        st->parsed++;
        if (d.nerrors == 0) st->clean_parse++;
        if (check_program(c, p)) {
            st->checked++;
            monomorphize(c, p);
        }
    }
    compilation_free(c);
}

static void usage(void)
{
    fprintf(stderr, "usage: fuzz_frontend [-n ITER] [-s SEED] [-t SECONDS] [-r REPO_ROOT]\n");
    exit(2);
}

int main(int argc, char **argv)
{
    unsigned long iters = 100000, seed = 1, secs = 5;
    const char *root = ".";
    int opt;
    while ((opt = getopt(argc, argv, "n:s:t:r:h")) != -1) {
        switch (opt) {
        case 'n': iters = strtoul(optarg, NULL, 10); break;
        case 's': seed = strtoul(optarg, NULL, 10); break;
        case 't': secs = strtoul(optarg, NULL, 10); break;
        case 'r': root = optarg; break;
        default: usage();
        }
    }
    if (optind != argc || secs == 0) usage();

    if (mkdir(OUT_DIR, 0755) != 0 && errno != EEXIST) { perror(OUT_DIR); return 1; }
    FILE *devnull = fopen("/dev/null", "w");
    if (!devnull) { perror("/dev/null"); return 1; }
    int cur_fd = open(CURRENT, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (cur_fd < 0) { perror(CURRENT); return 1; }

    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_alarm;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGALRM, &sa, NULL);

    Seeds seeds = {0};
    load_seeds(&seeds, root);
    fprintf(stderr, "fuzz_frontend: %zu seed files, %lu inputs, seed %lu; "
            "a crash leaves its input in " CURRENT "\n", seeds.n, iters, seed);

    Rng rng = {seed};
    Buf in = {0};
    Stats st = {0};
    time_t start = time(NULL);
    for (unsigned long i = 0; i < iters; i++) {
        make_input(&rng, &in, &seeds);
        save_current(cur_fd, &in);
        hang_index = (sig_atomic_t)(i % 1000000000ul);
        alarm((unsigned)secs);
        run_frontend(&in, devnull, &st);
        alarm(0);
        if ((i + 1) % 10000 == 0)
            fprintf(stderr, "fuzz_frontend: %lu inputs, %lu parsed (%lu without errors), "
                    "%lu checked, %lds\n", i + 1, st.parsed, st.clean_parse, st.checked,
                    (long)(time(NULL) - start));
    }
    printf("fuzz_frontend: done: %lu inputs, %lu parsed (%lu without errors), %lu checked, "
           "no crashes or hangs, %lds\n", iters, st.parsed, st.clean_parse, st.checked,
           (long)(time(NULL) - start));

    for (size_t i = 0; i < seeds.n; i++) free(seeds.items[i].data);
    free(seeds.items);
    free(in.data);
    fclose(devnull);
    close(cur_fd);
    return 0;
}
