/* test_pdl_wait.c — the CUDA runtime launches its kernels programmatically
 * (rt/nesl_cuda.cuh, nesl_cu_launch): a kernel may then start before the
 * one queued before it has finished, and only its NESL_PDL_WAIT keeps it
 * from reading what that kernel has not written yet.  So every __global__
 * function of rt/ must begin with NESL_PDL_WAIT (), and no kernel of rt/
 * or of the generated code (cudagen/) may be launched with <<<>>>, which
 * would bypass the choice.  A race this test misses would show only as a
 * rare wrong answer on the GPU. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdbool.h>
#include <string.h>

static int failures, kernels;

/* The repository's root, from this file's path (the Makefile compiles it
 * as tests/unit/test_pdl_wait.c from the root). */
static void root_of(char *buf, size_t n)
{
    const char *self = __FILE__, *cut = strstr(self, "tests/unit/test_pdl_wait.c");
    size_t len = cut ? (size_t)(cut - self) : 0;
    if (len >= n) len = n - 1;
    memcpy(buf, self, len);
    buf[len] = 0;
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) { perror(path); failures++; return NULL; }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    if (!s || fread(s, 1, (size_t)n, f) != (size_t)n) { fprintf(stderr, "%s: cannot read\n", path); exit(2); }
    s[n] = 0;
    fclose(f);
    return s;
}

/* Comments become spaces (a comment may name __global__ or <<<). */
static void strip_comments(char *s)
{
    for (char *p = s; *p; p++) {
        if (p[0] == '/' && p[1] == '*') {
            char *e = strstr(p + 2, "*/");
            char *end = e ? e + 2 : p + strlen(p);
            for (; p < end; p++) if (*p != '\n') *p = ' ';
            p--;
        } else if (p[0] == '/' && p[1] == '/') {
            for (; *p && *p != '\n'; p++) *p = ' ';
            if (!*p) break;
        }
    }
}

static int line_of(const char *s, const char *at)
{
    int l = 1;
    for (; s < at; s++) l += *s == '\n';
    return l;
}

static void check_file(const char *path, bool kernels_here)
{
    char *s = slurp(path);
    if (!s) return;
    strip_comments(s);
    for (char *p = strstr(s, "<<<"); p; p = strstr(p + 3, "<<<")) {
        fprintf(stderr, "%s:%d: a launch with <<<>>> (use nesl_cu_launch)\n", path, line_of(s, p));
        failures++;
    }
    for (char *p = kernels_here ? strstr(s, "__global__") : NULL; p; p = strstr(p + 10, "__global__")) {
        char *body = strchr(p, '{');
        if (!body) break;
        char *q = body + 1;
        while (*q == ' ' || *q == '\n' || *q == '\t') q++;
        kernels++;
        if (strncmp(q, "NESL_PDL_WAIT();", 16)) {
            fprintf(stderr, "%s:%d: a kernel that does not begin with NESL_PDL_WAIT ()\n", path, line_of(s, p));
            failures++;
        }
    }
    free(s);
}

static void check_dir(const char *root, const char *dir, bool kernels_here)
{
    char path[1024];
    snprintf(path, sizeof path, "%s%s", root, dir);
    DIR *d = opendir(path);
    if (!d) { perror(path); failures++; return; }
    for (struct dirent *e; (e = readdir(d));) {
        size_t n = strlen(e->d_name);
        bool cu = (n > 3 && !strcmp(e->d_name + n - 3, ".cu")) || (n > 4 && !strcmp(e->d_name + n - 4, ".cuh")) ||
                  (n > 2 && !strcmp(e->d_name + n - 2, ".c")) || (n > 2 && !strcmp(e->d_name + n - 2, ".h"));
        if (!cu) continue;
        snprintf(path, sizeof path, "%s%s/%s", root, dir, e->d_name);
        check_file(path, kernels_here);
    }
    closedir(d);
}

int main(void)
{
    char root[512];
    root_of(root, sizeof root);
    check_dir(root, "rt", true);
    check_dir(root, "cudagen", false);
    /* the runtime has 31 kernels (session 26): far fewer means the scan
     * itself broke */
    if (kernels < 25) {
        fprintf(stderr, "found only %d kernels in rt/\n", kernels);
        failures++;
    }
    printf("test_pdl_wait: %d kernels, %d failures\n", kernels, failures);
    return failures != 0;
}
