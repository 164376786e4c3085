/* unit_shell.h — what the unit tests that run nesslc share: the compiler
 * under test, a scratch directory, a file written there, and a number read
 * from a shell command's output. */
#ifndef UNIT_SHELL_H
#define UNIT_SHELL_H

#include <stdio.h>
#include <stdlib.h>

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

#endif
