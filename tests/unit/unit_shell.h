/* unit_shell.h — what the unit tests that run nesslc share: the compiler
 * under test, a scratch directory, a file written there, a number read
 * from a shell command's output, and checks of such numbers. */
#ifndef UNIT_SHELL_H
#define UNIT_SHELL_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

/* $NESSLC (the harness sets it), else ./nesslc. */
static inline const char *unit_nesslc(void)
{
    const char *nesslc = getenv("NESSLC");
    return nesslc && *nesslc ? nesslc : "./nesslc";
}

/* text as dir/name; false (with a message) if it cannot be written. */
static inline int unit_write(const char *dir, const char *name, const char *text)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    if (!f) {
        perror(path);
        return 0;
    }
    fputs(text, f);
    return fclose(f) == 0;
}

/* The first line of cmd's output as a number (-1 if none). */
static inline long unit_count(const char *cmd)
{
    FILE *f = popen(cmd, "r");
    if (!f) return -1;
    char buf[64] = "";
    long n = fgets(buf, sizeof buf, f) ? strtol(buf, NULL, 10) : -1;
    pclose(f);
    return n;
}

/* The number of lines of dir/file.cu, built by nesslc from dir/file with
 * opts (--emit=cuda), that hold pattern (grep's basic regular
 * expression); -1 if it does not build. */
static inline long unit_count_cuda(const char *nesslc, const char *dir, const char *file, const char *opts, const char *pattern)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "cd %s && %s %s --target=cuda --emit=cuda -o %s.cu %s >/dev/null 2>&1 && grep -c '%s' %s.cu",
             dir, nesslc, opts, file, file, pattern, file);
    return unit_count(cmd);
}

/* One check of a count: a FAIL line and *fails + 1 unless got == want. */
static inline void unit_expect(int *fails, const char *what, long got, long want)
{
    if (got == want) return;
    printf("FAIL: %s: %ld, expected %ld\n", what, got, want);
    (*fails)++;
}

/* Does the file at path hold the line `line`? */
static inline int unit_file_has_line(const char *path, const char *line)
{
    FILE *f = fopen(path, "r");
    if (!f) return 0;
    char buf[1024];
    int found = 0;
    size_t n = strlen(line);
    while (!found && fgets(buf, sizeof buf, f))
        found = !strncmp(buf, line, n) && (buf[n] == '\n' || buf[n] == '\0');
    fclose(f);
    return found;
}

/* A compiled program that breaks a promise of the compiler's: build
 * dir/name.lcu with `nesslc --target=target opts`, run it, and expect exit
 * status 3 with the line "nesslc: internal error: WHAT (please report
 * this bug)".  1 if so; else 0, with a FAIL line. */
static inline int unit_expect_bug(const char *nesslc, const char *dir, const char *target, const char *opts, const char *name,
                                  const char *what)
{
    char cmd[1024], msg[512], out[512];
    snprintf(cmd, sizeof cmd, "cd %s && %s --target=%s %s -o z_%s_%s %s.lcu >build_%s_%s.txt 2>&1 && ./z_%s_%s >out_%s_%s.txt 2>&1",
             dir, nesslc, target, opts, name, target, name, name, target, name, target, name, target);
    int st = system(cmd);
    int code = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    snprintf(msg, sizeof msg, "nesslc: internal error: %s (please report this bug)", what);
    snprintf(out, sizeof out, "%s/out_%s_%s.txt", dir, name, target);
    int said = unit_file_has_line(out, msg);
    if (code == 3 && said) return 1;
    printf("FAIL: %s --target=%s: exit status %d (expected 3), message %s\n", name, target, code, said ? "found" : "missing");
    return 0;
}

/* The end of a test: dir removed if every check passed (kept to look at
 * otherwise), PASS printed; the exit status. */
static inline int unit_finish(const char *dir, const char *test, int fails)
{
    if (fails) return 1;
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0) printf("note: could not remove %s\n", dir);
    printf("PASS: %s\n", test);
    return 0;
}

#endif
