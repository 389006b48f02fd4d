/* report_run.c: running the sections.
 *
 * Sections that time nothing run side by side, ctx->jobs at a time (two on
 * this class of machine), each in a child process (fork): the child runs the
 * section and writes its records (checks, figures, seeds, markdown, status,
 * time) to DIR/data/.NAME.rec; the parent reads them back and sorts every
 * record into section order, so report.md is the same as a serial run's
 * apart from timings. Timed sections (xr_section.timed) then run alone, in
 * this process, so no other section competes with their clocks. With
 * --jobs 1 every section runs in this process, in order. */
#define _POSIX_C_SOURCE 200809L

#include "report_fw.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

const xr_section *const xr_sections[XR_NSECTIONS] = {
#define XR_SECTION(name) &xr_section_##name,
#include "sections.def"
#undef XR_SECTION
};

static void xr_print_section_line(const xr_ctx *ctx, size_t s)
{
    size_t p, fl;
    xr_count_checks(ctx, s, &p, &fl);
    printf("%-22s %3zu passed, %zu failed  (%.2f s)\n", xr_sections[s]->name, p, fl,
           ctx->sec[s].seconds);
    fflush(stdout);
}

/* Runs section s in this process. */
static void xr_run_here(xr_ctx *ctx, size_t s)
{
    ctx->cur = s;
    ctx->sec[s].ran = 1;
    xr_tolerance_source(ctx, NULL);
    const double t = xr_now();
    const int st = xr_sections[s]->run(ctx);
    ctx->sec[s].seconds = xr_now() - t;
    ctx->sec[s].status = st;
    xr_tolerance_source(ctx, NULL);
    if (st != 0)
        xr_check(ctx, "section ran to completion", st, 0, "returns 0", NULL, 0);
    xr_check_figures(ctx, s);
}

static char *xr_rec_path(const xr_ctx *ctx, size_t s)
{
    char *dir = xr_path(ctx->out, "/data/.", xr_sections[s]->name);
    char *p = xr_path(dir, ".rec", NULL);
    free(dir);
    return p;
}

/* Starts section s in a child process; returns its pid or -1. */
static pid_t xr_run_child(xr_ctx *ctx, size_t s)
{
    fflush(stdout);
    fflush(stderr);
    const pid_t pid = fork();
    if (pid != 0)
        return pid;
    ctx->child = 1;
    ctx->tty = 0; /* one progress line belongs to the parent */
    const xr_marks m = xr_records_mark(ctx);
    xr_run_here(ctx, s);
    char *path = xr_rec_path(ctx, s);
    FILE *f = fopen(path, "wb");
    int ok = f && xr_records_write(ctx, s, m, f) == 0;
    if (f)
        ok = fclose(f) == 0 && ok;
    fflush(stdout);
    _exit(ok ? 0 : 1);
}

/* Reads back the records of a child that ran section s; a child that
 * crashed or wrote nothing becomes a failed check. */
static void xr_collect_child(xr_ctx *ctx, size_t s, int status)
{
    ctx->cur = s;
    ctx->sec[s].ran = 1;
    char *path = xr_rec_path(ctx, s);
    FILE *f = fopen(path, "rb");
    const int ok = f && xr_records_read(ctx, f) == 0;
    if (f)
        fclose(f);
    remove(path);
    free(path);
    if (!ok || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        char what[160];
        if (WIFSIGNALED(status))
            snprintf(what, sizeof what, "section process ended by signal %d", WTERMSIG(status));
        else
            snprintf(what, sizeof what, "section process wrote its results (exit %d)",
                     WIFEXITED(status) ? WEXITSTATUS(status) : -1);
        xr_check(ctx, what, 0, 1, "clean exit", NULL, 0);
    }
}

double xr_run_sections(xr_ctx *ctx, const int *sel)
{
    const double t0 = xr_now();
    size_t nsel = 0, done = 0;
    for (size_t s = 0; s < XR_NSECTIONS; ++s)
        nsel += sel[s] != 0;

    if (ctx->jobs > 1) {
        pid_t pid[XR_NSECTIONS] = {0};
        size_t next = 0, running = 0;
        for (;;) {
            while (running < (size_t)ctx->jobs && next < XR_NSECTIONS) {
                const size_t s = next++;
                if (!sel[s] || xr_sections[s]->timed)
                    continue;
                pid[s] = xr_run_child(ctx, s);
                if (pid[s] < 0) {
                    fprintf(stderr, "xpbd-report: cannot fork for %s: %s; running it here\n",
                            xr_sections[s]->name, strerror(errno));
                    pid[s] = 0;
                    xr_run_here(ctx, s);
                    xr_progress_clear(ctx);
                    xr_print_section_line(ctx, s);
                    ++done;
                    continue;
                }
                ++running;
            }
            if (running == 0)
                break;
            xr_progress_line(ctx, "[%zu/%zu sections] running ...", done, nsel);
            int st;
            const pid_t p = waitpid(-1, &st, 0);
            if (p < 0) {
                if (errno == EINTR)
                    continue;
                break;
            }
            for (size_t s = 0; s < XR_NSECTIONS; ++s)
                if (pid[s] == p) {
                    pid[s] = 0;
                    --running;
                    ++done;
                    xr_collect_child(ctx, s, st);
                    xr_progress_clear(ctx);
                    xr_print_section_line(ctx, s);
                }
        }
    }
    /* timed sections alone (and every section under --jobs 1) */
    for (size_t s = 0; s < XR_NSECTIONS; ++s) {
        if (!sel[s] || (ctx->jobs > 1 && !xr_sections[s]->timed))
            continue;
        xr_progress_line(ctx, "[%zu/%zu sections] %s", done, nsel, xr_sections[s]->name);
        xr_run_here(ctx, s);
        ++done;
        xr_progress_clear(ctx);
        xr_print_section_line(ctx, s);
    }
    xr_records_sort(ctx);
    return xr_now() - t0;
}
