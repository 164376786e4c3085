/* prims_io.c — terminal output, error, streams and files (NESL.md 6.18, 6.20).
 *
 * Streams are numbered: 0 stdin, 1 stdout, 2 stderr, 3 nullstr (the prelude
 * binds the names).  The interpreter keeps no table of open files, so
 * open_in_file and friends report "not supported yet" through their status
 * pair; whole-file functions (read_string_from_file, ...) work. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "prims_common.h"

enum { STREAM_STDIN, STREAM_STDOUT, STREAM_STDERR, STREAM_NULL };

char *prim_cstring(Interp *I, Value s)
{
    char *p = arena_alloc(I->heap, (size_t)s.seq->len + 1);
    for (int64_t k = 0; k < s.seq->len; k++)
        p[k] = (char)s.seq->elems[k].c;
    return p;
}

Value prim_status(Interp *I, bool ok, const char *msg)
{
    return v_pair(I->heap, v_bool(ok), v_string(I->heap, msg, (int64_t)strlen(msg)));
}

static void put_chars(FILE *f, Seq *s)
{
    for (int64_t k = 0; k < s->len; k++)
        fputc(s->elems[k].c, f);
}

Value p_PRINT_STRING(Interp *I, Value *args, Type *ty, Span where)
{
    (void)ty; (void)where;
    put_chars(I->out, args[0].seq);
    return v_bool(true);
}

Value p_ERROR(Interp *I, Value *args, Type *ty, Span where)
{
    (void)ty;
    rt_error(I, where, "%s", prim_cstring(I, args[0]));
}

Value p_MAKE_STREAM(Interp *I, Value *args, Type *ty, Span where)
{
    (void)I; (void)ty; (void)where;
    Value v;
    v.kind = V_STREAM;
    v.i = args[0].i;
    return v;
}

Value p_WRITE_STRING(Interp *I, Value *args, Type *ty, Span where)
{
    (void)ty; (void)where;
    switch (args[1].i) {
    case STREAM_STDOUT: put_chars(I->out, args[0].seq); break;
    case STREAM_STDERR: put_chars(I->err, args[0].seq); fflush(I->err); break;
    case STREAM_NULL: break;
    default: return prim_status(I, false, "write_string: stream not open for writing");
    }
    return prim_status(I, true, "");
}

Value p_READ_CHAR(Interp *I, Value *args, Type *ty, Span where)
{
    (void)ty; (void)where;
    if (args[0].i != STREAM_STDIN)
        return v_pair(I->heap, v_char(' '), prim_status(I, false, "read_char: stream not open for reading"));
    int c = getchar();
    if (c == EOF)
        return v_pair(I->heap, v_char(' '), prim_status(I, false, "read_char: end of file"));
    return v_pair(I->heap, v_char((uint8_t)c), prim_status(I, true, ""));
}

/* read_string(delims, max, s): ((text, why), status); why is -1 at end of
 * file, -2 after max characters, else the code of the delimiter (consumed). */
Value p_READ_STRING(Interp *I, Value *args, Type *ty, Span where)
{
    (void)ty; (void)where;
    Seq *delims = args[0].seq;
    int32_t max = args[1].i;
    if (args[2].i != STREAM_STDIN) {
        Value r = v_pair(I->heap, v_string(I->heap, "", 0), v_int(-1));
        return v_pair(I->heap, r, prim_status(I, false, "read_string: stream not open for reading"));
    }
    size_t cap = 64, len = 0;
    char *buf = malloc(cap);
    int why = -1;
    for (;;) {
        if (max >= 0 && len >= (size_t)max) { why = -2; break; }
        int c = getchar();
        if (c == EOF) { why = -1; break; }
        bool is_delim = false;
        for (int64_t k = 0; k < delims->len; k++)
            if (delims->elems[k].c == (uint8_t)c)
                is_delim = true;
        if (is_delim) { why = c; break; }
        if (len == cap && !(buf = realloc(buf, cap *= 2)))
            ICE("out of memory in read_string");
        buf[len++] = (char)c;
    }
    Value text = v_string(I->heap, buf, (int64_t)len);
    free(buf);
    return v_pair(I->heap, v_pair(I->heap, text, v_int(why)), prim_status(I, true, ""));
}

Value p_OPEN_FILE(Interp *I, Value *args, Type *ty, Span where)
{
    (void)ty; (void)where; (void)args;
    Value s;
    s.kind = V_STREAM;
    s.i = STREAM_NULL;
    return v_pair(I->heap, s, prim_status(I, false, "opening file streams is not supported yet"));
}

Value p_CLOSE_FILE(Interp *I, Value *args, Type *ty, Span where)
{
    (void)ty; (void)where;
    if (args[0].i <= STREAM_NULL)
        return prim_status(I, true, "");
    return prim_status(I, false, "close_file: stream not open");
}

Value p_READ_FILE(Interp *I, Value *args, Type *ty, Span where)
{
    (void)ty;
    const char *name = prim_cstring(I, args[0]);
    size_t len;
    char *text = read_file(name, &len);
    if (!text)
        rt_error(I, where, "Could not open file %s: %s.", name, strerror(errno));
    Value r = v_string(I->heap, text, (int64_t)len);
    free(text);
    return r;
}

/* prim_write_file(text, name, append) */
Value p_WRITE_FILE(Interp *I, Value *args, Type *ty, Span where)
{
    (void)ty;
    const char *name = prim_cstring(I, args[1]);
    FILE *f = fopen(name, args[2].b ? "ab" : "wb");
    if (!f)
        rt_error(I, where, "Could not open file %s: %s.", name, strerror(errno));
    put_chars(f, args[0].seq);
    if (fclose(f) != 0)
        rt_error(I, where, "Could not write file %s: %s.", name, strerror(errno));
    return v_bool(true);
}

/* Numbers separated by blanks, optionally inside one pair of parentheses. */
static Value read_num_seq(Interp *I, Value fname, bool floats, Span where)
{
    const char *name = prim_cstring(I, fname);
    size_t len;
    char *text = read_file(name, &len);
    if (!text)
        rt_error(I, where, "Could not open file %s: %s.", name, strerror(errno));
    int64_t n = 0, cap = 1024;
    Value *vals = malloc((size_t)cap * sizeof *vals);
    const char *p = text;
    for (;;) {
        while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r' || *p == '\f' || *p == '(' || *p == ')')
            p++;
        if (*p == '\0')
            break;
        char *end;
        Value v;
        if (floats) {
            v = v_float(strtod(p, &end));
        } else {
            long long x = strtoll(p, &end, 10);
            v = v_int((int32_t)(uint32_t)(unsigned long long)x);
        }
        if (end == p) {
            free(vals);
            free(text);
            rt_error(I, where, "Bad number in file %s.", name);
        }
        p = end;
        if (n == cap && !(vals = realloc(vals, (size_t)(cap *= 2) * sizeof *vals)))
            ICE("out of memory reading %s", name);
        vals[n++] = v;
    }
    Seq *s = seq_alloc(I->heap, n);
    if (n > 0)
        memcpy(s->elems, vals, (size_t)n * sizeof *vals);
    free(vals);
    free(text);
    return v_seq(s);
}

Value p_READ_INT_SEQ(Interp *I, Value *args, Type *ty, Span where)
{
    (void)ty;
    return read_num_seq(I, args[0], false, where);
}

Value p_READ_FLOAT_SEQ(Interp *I, Value *args, Type *ty, Span where)
{
    (void)ty;
    return read_num_seq(I, args[0], true, where);
}

Value p_GETENV(Interp *I, Value *args, Type *ty, Span where)
{
    (void)ty; (void)where;
    const char *v = getenv(prim_cstring(I, args[0]));
    return v_string(I->heap, v ? v : "", v ? (int64_t)strlen(v) : 0);
}

Value p_SHELL_COMMAND(Interp *I, Value *args, Type *ty, Span where)
{
    (void)ty; (void)args;
    rt_error(I, where, "shell_command: not supported yet.");
}
