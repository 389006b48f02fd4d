/* SPDX-License-Identifier: MIT */
/* report_prov.c: provenance of a report, printed on the title page of
 * report.pdf and at the top of report.md: source commit, date, compiler and
 * flags, CPU model, ISA path, load average during the run, xpbd version.
 *
 * The commit is the one the sources were at when the binary was built, with
 * "(modified)" when tracked files differed from it (report_commit.h,
 * generated at build time by cmake/source_commit.cmake); else "unknown".
 * The binary keeps no path to its source tree. */
#define _POSIX_C_SOURCE 200809L

#include "report_fw.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

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

static void xr_cpu_model(char *out, size_t size)
{
    snprintf(out, size, "unknown");
    char *info = xr_slurp("/proc/cpuinfo", NULL);
    if (!info)
        return;
    const char *line = strstr(info, "model name");
    if (line && (line = strchr(line, ':')) != NULL) {
        ++line;
        while (*line == ' ' || *line == '\t')
            ++line;
        snprintf(out, size, "%.*s", (int)strcspn(line, "\n"), line);
    }
    free(info);
}

/* The 1-minute load average, or -1. */
static double xr_load1(void)
{
    char *s = xr_slurp("/proc/loadavg", NULL);
    const double v = s ? strtod(s, NULL) : -1.0;
    free(s);
    return v;
}

void xr_prov_start(xr_prov *p, xpbd_isa isa)
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
    xr_cpu_model(p->cpu, sizeof p->cpu);
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
