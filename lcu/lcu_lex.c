/* lcu_lex.c — tokens of the λcu text form. */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "lcu_lex.h"

void lcu_lex_init(LcuLexer *lx, const Source *src, Diag *d)
{
    memset(lx, 0, sizeof *lx);
    lx->src = src;
    lx->diag = d;
    lx->line = 1;
    lx->col = 1;
}

static char peekc(const LcuLexer *lx, size_t k)
{
    return lx->pos + k < lx->src->len ? lx->src->text[lx->pos + k] : '\0';
}

static void advance(LcuLexer *lx)
{
    if (lx->src->text[lx->pos] == '\n') { lx->line++; lx->col = 1; }
    else lx->col++;
    lx->pos++;
}

static const struct { const char *text; LcuTokKind kind; } keywords[] = {
    { "kernel", TK_KERNEL }, { "function", TK_FUNCTION }, { "let", TK_LET },
    { "in", TK_IN }, { "if", TK_IF }, { "then", TK_THEN }, { "else", TK_ELSE },
    { "return", TK_RETURN }, { "run", TK_RUN }, { "using", TK_USING },
    { "true", TK_TRUE }, { "false", TK_FALSE }, { "not", TK_NOT },
    { "bool", TK_BOOL }, { "int", TK_INT }, { "float", TK_FLOAT },
    { "char", TK_CHAR }, { "unit", TK_UNIT }, { "sd", TK_SD },
    { "lib", TK_LIB }, { "site", TK_SITE }, { "iterate", TK_ITERATE }, { "recur", TK_RECUR },
};

/* Punctuation, longest first so that "==" wins over "=". */
static const struct { const char *text; LcuTokKind kind; } puncts[] = {
    { "=>", TK_DARROW }, { "->", TK_ARROW }, { "==", TK_EQEQ }, { "!=", TK_NE },
    { "<=", TK_LE }, { ">=", TK_GE }, { "&&", TK_ANDAND }, { "||", TK_OROR },
    { "(", TK_LPAREN }, { ")", TK_RPAREN }, { "{", TK_LBRACE }, { "}", TK_RBRACE },
    { "[", TK_LBRACK }, { ".[", TK_DOTBRACK }, { "]", TK_RBRACK }, { ",", TK_COMMA }, { ":", TK_COLON },
    { "=", TK_EQ }, { "<", TK_LT }, { ">", TK_GT }, { "+", TK_PLUS }, { "-", TK_MINUS },
    { "*", TK_STAR }, { "/", TK_SLASH }, { "%", TK_PERCENT }, { "#", TK_HASH },
    { "&", TK_AMP },
};

static bool lex_error(LcuLexer *lx, LcuTok *t, const char *msg)
{
    diag_error(lx->diag, t->span, "%s", msg);
    t->kind = TK_ERROR;
    return false;
}

static int hexval(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* One character of a char or string literal (quote: its delimiter), at pos:
 * printable ASCII other than the quote and '\\', or an escape
 * \n \t \\ \' \" \xHH.  Advances past it. */
static bool lex_char(LcuLexer *lx, LcuTok *t, char quote, int *out)
{
    char v = peekc(lx, 0);
    if (v == '\\') {
        advance(lx);
        switch (peekc(lx, 0)) {
        case 'n': *out = '\n'; break;
        case 't': *out = '\t'; break;
        case '\\': *out = '\\'; break;
        case '\'': *out = '\''; break;
        case '"': *out = '"'; break;
        case 'x': {
            int h = hexval(peekc(lx, 1)), l = h < 0 ? -1 : hexval(peekc(lx, 2));
            if (l < 0) return lex_error(lx, t, "\\x needs two hexadecimal digits");
            advance(lx); advance(lx);
            *out = h * 16 + l;
            break;
        }
        default:
            return lex_error(lx, t, quote == '"' ? "unknown escape in string literal" : "unknown escape in character literal");
        }
    } else if (v < ' ' || v > '~' || v == quote) {
        return lex_error(lx, t, quote == '"' ? "bad character in string literal" : "bad character literal");
    } else *out = v;
    advance(lx);
    return true;
}

int lcu_lex_string(const LcuTok *t, char *out)
{
    int n = 0;
    for (size_t i = 1; i + 1 < t->len; i++) {
        char c = t->text[i];
        if (c != '\\') { out[n++] = c; continue; }
        c = t->text[++i];
        switch (c) {
        case 'n': out[n++] = '\n'; break;
        case 't': out[n++] = '\t'; break;
        case 'x': out[n++] = (char)(hexval(t->text[i + 1]) * 16 + hexval(t->text[i + 2])); i += 2; break;
        default: out[n++] = c; break;
        }
    }
    return n;
}

bool lcu_lex_next(LcuLexer *lx, LcuTok *t)
{
    for (;;) {   /* white space and // comments */
        char c = peekc(lx, 0);
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r') advance(lx);
        else if (c == '/' && peekc(lx, 1) == '/') { while (peekc(lx, 0) && peekc(lx, 0) != '\n') advance(lx); }
        else break;
    }
    memset(t, 0, sizeof *t);
    t->span.src = lx->src;
    t->span.line = t->span.end_line = lx->line;
    t->span.col = t->span.end_col = lx->col;
    t->text = lx->src->text + lx->pos;
    size_t start = lx->pos;
    char c = peekc(lx, 0);
    if (lx->pos >= lx->src->len) { t->kind = TK_EOF; return true; }
    if (isalpha((unsigned char)c) || c == '_') {
        while (isalnum((unsigned char)peekc(lx, 0)) || peekc(lx, 0) == '_') advance(lx);
        t->len = lx->pos - start;
        t->kind = TK_IDENT;
        for (size_t i = 0; i < sizeof keywords / sizeof keywords[0]; i++)
            if (strlen(keywords[i].text) == t->len && !memcmp(keywords[i].text, t->text, t->len))
                t->kind = keywords[i].kind;
    } else if (isdigit((unsigned char)c)) {
        bool is_float = false;
        while (isdigit((unsigned char)peekc(lx, 0))) advance(lx);
        if (peekc(lx, 0) == '.' && isdigit((unsigned char)peekc(lx, 1))) {
            is_float = true;
            advance(lx);
            while (isdigit((unsigned char)peekc(lx, 0))) advance(lx);
        }
        if ((peekc(lx, 0) == 'e' || peekc(lx, 0) == 'E') &&
            (isdigit((unsigned char)peekc(lx, 1)) ||
             ((peekc(lx, 1) == '-' || peekc(lx, 1) == '+') && isdigit((unsigned char)peekc(lx, 2))))) {
            is_float = true;
            advance(lx); advance(lx);
            while (isdigit((unsigned char)peekc(lx, 0))) advance(lx);
        }
        t->len = lx->pos - start;
        char buf[128];
        if (t->len >= sizeof buf) return lex_error(lx, t, "numeric literal too long");
        memcpy(buf, t->text, t->len);
        buf[t->len] = 0;
        errno = 0;
        if (is_float) { t->kind = TK_FLOATLIT; t->fval = strtod(buf, NULL); }
        else {
            t->kind = TK_INTLIT;
            t->ival = strtoll(buf, NULL, 10);
            if (errno == ERANGE) return lex_error(lx, t, "integer literal out of range");
        }
    } else if (c == '\'') {
        advance(lx);
        int v;
        if (!lex_char(lx, t, '\'', &v)) return false;
        if (peekc(lx, 0) != '\'') return lex_error(lx, t, "unterminated character literal");
        advance(lx);
        t->kind = TK_CHARLIT;
        t->ival = v;
        t->len = lx->pos - start;
    } else if (c == '"') {
        advance(lx);
        int v;
        while (peekc(lx, 0) != '"') {
            if (lx->pos >= lx->src->len || peekc(lx, 0) == '\n') return lex_error(lx, t, "unterminated string literal");
            if (!lex_char(lx, t, '"', &v)) return false;
        }
        advance(lx);
        t->kind = TK_STRINGLIT;
        t->len = lx->pos - start;
    } else {
        for (size_t i = 0; i < sizeof puncts / sizeof puncts[0]; i++) {
            size_t n = strlen(puncts[i].text);
            if (lx->pos + n <= lx->src->len && !memcmp(puncts[i].text, t->text, n)) {
                for (size_t j = 0; j < n; j++) advance(lx);
                t->kind = puncts[i].kind;
                t->len = n;
                break;
            }
        }
        if (!t->len) {
            if (isprint((unsigned char)c)) {
                char msg[64];
                snprintf(msg, sizeof msg, "unexpected character '%c'", c);
                return lex_error(lx, t, msg);
            }
            return lex_error(lx, t, "unexpected non-printable character");
        }
    }
    t->span.end_col = t->span.col + (int)t->len - 1;
    return true;
}
