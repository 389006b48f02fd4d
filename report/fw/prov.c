/* SPDX-License-Identifier: MIT */
/* prov.c: provenance of a report, printed on the title page of
 * report.pdf and at the top of report.md: source commit, xpbd version,
 * date, the command line, compiler and flags, the CPU (model, identity and
 * the flags the ISA paths depend on), the ISA path, the operating system
 * and kernel, gnuplot's and groff's versions, and the load during the run.
 *
 * The commit is the one the sources were at when the binary was built, with
 * "(modified)" when tracked files differed from it (report_commit.h,
 * generated at build time by cmake/source_commit.cmake); else "unknown".
 * The binary keeps no path to its source tree. */
#define _XOPEN_SOURCE 700 /* mkstemp */

#include "fw.h"

#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "report_commit.h"
#ifndef XPBD_C_FLAGS
#define XPBD_C_FLAGS "unknown"
#endif

static void xr_commit(char *out, size_t size)
{
    if (*XPBD_GIT_COMMIT)
        snprintf(out, size, "%.40s%s", XPBD_GIT_COMMIT, XPBD_GIT_MODIFIED ? " (modified)" : "");
    else
        snprintf(out, size, "unknown");
}

/* The value of the first "key : value" line of /proc/cpuinfo whose key is
 * exactly `key` (so "model" does not match "model name"), or NULL. */
static const char *xr_cpuinfo_field(const char *info, const char *key, int *len)
{
    const size_t n = strlen(key);
    for (const char *line = info; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
        if (strncmp(line, key, n) != 0 || (line[n] != ' ' && line[n] != '\t' && line[n] != ':'))
            continue;
        const char *v = line + n;
        while (*v == ' ' || *v == '\t')
            ++v;
        if (*v != ':')
            continue;
        ++v;
        while (*v == ' ')
            ++v;
        *len = (int)strcspn(v, "\n");
        return v;
    }
    return NULL;
}

static void xr_cpu(xr_prov *p)
{
    snprintf(p->cpu, sizeof p->cpu, "unknown");
    snprintf(p->cpu_id, sizeof p->cpu_id, "unknown");
    snprintf(p->cpu_flags, sizeof p->cpu_flags, "unknown");
    char *info = xr_slurp("/proc/cpuinfo", NULL);
    if (!info)
        return;
    int n = 0;
    const char *v = xr_cpuinfo_field(info, "model name", &n);
    if (v)
        snprintf(p->cpu, sizeof p->cpu, "%.*s", n, v);
    /* x86 names its parts vendor/family/model/stepping, arm64 implementer/
     * part/variant/revision: whichever the kernel gives */
    static const char *const keys[][2] = {
        {"vendor_id", ""},         {"cpu family", "family "}, {"model", "model "},
        {"stepping", "stepping "}, {"CPU implementer", "implementer "},
        {"CPU part", "part "},     {"CPU variant", "variant "}, {"CPU revision", "revision "}};
    size_t used = 0;
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; ++k) {
        if (!(v = xr_cpuinfo_field(info, keys[k][0], &n)) || used >= sizeof p->cpu_id - 1)
            continue;
        used += (size_t)snprintf(p->cpu_id + used, sizeof p->cpu_id - used, "%s%s%.*s",
                                 used ? ", " : "", keys[k][1], n, v);
    }
    /* the flags the ISA paths depend on (xpbd_isa_supported reads cpuid;
     * these say why a path was or was not taken) */
    static const char *const wanted[] = {"sse4_2",   "avx",      "avx2",     "fma",
                                         "avx512f",  "avx512dq", "avx512bw", "avx512vl",
                                         "asimd",    "sve"};
    if ((v = xr_cpuinfo_field(info, "flags", &n)) || (v = xr_cpuinfo_field(info, "Features", &n))) {
        used = 0;
        p->cpu_flags[0] = '\0';
        for (size_t w = 0; w < sizeof wanted / sizeof wanted[0]; ++w) {
            const size_t wl = strlen(wanted[w]);
            for (const char *f = v; f < v + n;) {
                const size_t fl = strcspn(f, " \n");
                if (fl == wl && strncmp(f, wanted[w], wl) == 0 && used < sizeof p->cpu_flags - 1)
                    used += (size_t)snprintf(p->cpu_flags + used, sizeof p->cpu_flags - used,
                                             "%s%s", used ? " " : "", wanted[w]);
                f += fl;
                while (*f == ' ')
                    ++f;
            }
        }
        if (!used)
            snprintf(p->cpu_flags, sizeof p->cpu_flags, "none of the SIMD flags");
    }
    free(info);
}

/* "Debian GNU/Linux 12 (bookworm); Linux 6.1.0 x86_64" */
static void xr_os(char *out, size_t size)
{
    char dist[96] = "unknown distribution";
    char *rel = xr_slurp("/etc/os-release", NULL);
    const char *v = rel ? strstr(rel, "PRETTY_NAME=") : NULL;
    if (v && (v == rel || v[-1] == '\n')) {
        v += strlen("PRETTY_NAME=");
        if (*v == '"')
            ++v;
        snprintf(dist, sizeof dist, "%.*s", (int)strcspn(v, "\"\n"), v);
    }
    free(rel);
    struct utsname u;
    if (uname(&u) == 0)
        snprintf(out, size, "%.95s; %.20s %.40s %.20s", dist, u.sysname, u.release, u.machine);
    else
        snprintf(out, size, "%s; kernel unknown", dist);
}

/* The first line a program prints with `--version`, or "not found". */
static void xr_tool_version(const char *program, char *out, size_t size)
{
    snprintf(out, size, "not found");
    char tmp[] = "/tmp/xpbd-report-version-XXXXXX";
    const int fd = mkstemp(tmp);
    if (fd < 0)
        return;
    close(fd);
    char *argv[] = {(char *)program, (char *)"--version", NULL};
    if (xr_run_to(argv, tmp, NULL) == 0) {
        char *text = xr_slurp(tmp, NULL);
        if (text && *text)
            snprintf(out, size, "%.*s", (int)strcspn(text, "\n"), text);
        free(text);
    }
    remove(tmp);
}

/* The command line with the program by its name and each absolute path by
 * its last part: the report names no directory of the machine it ran on. */
static void xr_command(char *out, size_t size, int argc, char **argv)
{
    size_t used = 0;
    out[0] = '\0';
    for (int i = 0; i < argc && used < size - 1; ++i) {
        const char *a = argv[i];
        const char *eq = a[0] == '-' ? strchr(a, '=') : NULL;
        const char *path = eq ? eq + 1 : a;
        const char *slash = strrchr(path, '/');
        const int shorten = i == 0 || (path[0] == '/' && slash && slash[1]);
        const int prefix = eq ? (int)(eq + 1 - a) : 0;
        used += (size_t)snprintf(out + used, size - used, "%s%.*s%s", i ? " " : "", prefix, a,
                                 shorten && slash ? slash + 1 : path);
    }
}

/* The 1-minute load average, or -1. */
static double xr_load1(void)
{
    char *s = xr_slurp("/proc/loadavg", NULL);
    const double v = s ? strtod(s, NULL) : -1.0;
    free(s);
    return v;
}

void xr_prov_start(xr_prov *p, xpbd_isa isa, int argc, char **argv)
{
    memset(p, 0, sizeof *p);
    xr_commit(p->commit, sizeof p->commit);
    const time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(p->date, sizeof p->date, "%Y-%m-%d %H:%M:%S UTC", &tm);
#if defined(__clang__)
    snprintf(p->compiler, sizeof p->compiler, "clang %s", __clang_version__);
#elif defined(__GNUC__)
    snprintf(p->compiler, sizeof p->compiler, "gcc %s", __VERSION__);
#else
    snprintf(p->compiler, sizeof p->compiler, "unknown C compiler");
#endif
    snprintf(p->flags, sizeof p->flags, "%s", XPBD_C_FLAGS);
    xr_command(p->command, sizeof p->command, argc, argv);
    xr_cpu(p);
    xr_os(p->os, sizeof p->os);
    char gnuplot[96], groff[96];
    xr_tool_version(xr_program("GNUPLOT", "gnuplot"), gnuplot, sizeof gnuplot);
    xr_tool_version(xr_program("GROFF", "groff"), groff, sizeof groff);
    snprintf(p->tools, sizeof p->tools, "gnuplot: %.80s; groff: %.80s", gnuplot, groff);
    xpbd_isa best = xpbd_isa_best();
    snprintf(p->isa, sizeof p->isa, "%s (best on this machine: %s%s)",
             xpbd_isa_name(isa) ? xpbd_isa_name(isa) : "auto",
             xpbd_isa_name(best) ? xpbd_isa_name(best) : "?",
             xpbd_isa_emulated() ? "; SIMD paths emulated" : "");
    const unsigned v = xpbd_version();
    snprintf(p->version, sizeof p->version, "%u.%u.%u", v / 10000, v / 100 % 100, v % 100);
    p->load_start = xr_load1();
    p->load_end = p->load_start;
    snprintf(p->load, sizeof p->load, "%.2f at the start", p->load_start);
}

void xr_prov_end(xr_prov *p)
{
    p->load_end = xr_load1();
    if (p->load_start < 0 || p->load_end < 0)
        snprintf(p->load, sizeof p->load, "unknown (no /proc/loadavg)");
    else
        snprintf(p->load, sizeof p->load, "%.2f at the start, %.2f at the end (1-minute average)",
                 p->load_start, p->load_end);
}

const char *xr_prov_row(const xr_prov *p, size_t i, const char **label)
{
    const struct {
        const char *label, *value;
    } rows[] = {{"source commit", p->commit},
                {"xpbd version", p->version},
                {"date", p->date},
                {"command", p->command},
                {"compiler", p->compiler},
                {"flags", p->flags},
                {"CPU", p->cpu},
                {"CPU identity", p->cpu_id},
                {"CPU flags for the ISA paths", p->cpu_flags},
                {"ISA path", p->isa},
                {"operating system", p->os},
                {"figure and typesetting tools", p->tools},
                {"load average", p->load}};
    if (i >= sizeof rows / sizeof rows[0])
        return NULL;
    *label = rows[i].label;
    return rows[i].value;
}
