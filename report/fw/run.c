/* SPDX-License-Identifier: MIT */
/* run.c: running the sections.
 *
 * Sections that time nothing run side by side, ctx->jobs at a time (two on
 * this class of machine), each in a child process (fork): the child runs the
 * section and writes its records (checks, figures, reference rows, markdown,
 * status, time) to DIR/data/.NAME.rec; the parent reads them back and sorts every
 * record into section order, so report.md is the same as a serial run's
 * apart from timings. Timed sections (xr_section.timed) then run alone, in
 * this process, so no other section competes with their clocks. With
 * --jobs 1 every section runs in this process, in order. */
#define _POSIX_C_SOURCE 200809L

#include "fw.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
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
    ctx->figures_skipped = 0;
    ctx->sec[s].ran = 1;
    xr_tolerance_source(ctx, NULL);
    const int tables_failed = xr_tables_failed_count();
    const double t = xr_now();
    const int st = xr_sections[s]->run(ctx);
    ctx->sec[s].seconds = xr_now() - t;
    ctx->sec[s].status = st;
    xr_tolerance_source(ctx, NULL);
    if (st != 0)
        xr_check(ctx, "section ran to completion: run() status", st, 0, xr_exact(),
                 "framework: a section that could not run returns -1");
    const int unwritten = xr_tables_failed_count() - tables_failed;
    if (unwritten != 0)
        xr_check(ctx, "data tables not written whole", unwritten, 0, xr_exact(),
                 "framework: every table a section opens is written whole");
    xr_check_figures(ctx, s);
    xr_link_references(ctx, s);
}

static char *xr_rec_path(const xr_ctx *ctx, size_t s)
{
    char *dir = xr_path(ctx->out, "/data/.", xr_sections[s]->name);
    char *p = xr_path(dir, ".rec", NULL);
    free(dir);
    return p;
}

/* Forks a child that holds the only write end of a pipe: returns the
 * child's pid in the parent (*fd: the read end; end of file: the child has
 * exited), 0 in the child, -1 if neither could be made. */
static pid_t xr_fork_piped(int *fd)
{
    int pp[2];
    if (pipe(pp) != 0)
        return -1;
    fflush(stdout);
    fflush(stderr);
    const pid_t pid = fork();
    if (pid != 0) {
        close(pp[1]);
        if (pid < 0) {
            close(pp[0]);
            return pid;
        }
        fcntl(pp[0], F_SETFD, FD_CLOEXEC);
        *fd = pp[0];
        return pid;
    }
    close(pp[0]);
    return 0;
}

/* Starts section s in a child process; returns its pid or -1. *fd: the
 * read end of a pipe whose write end only the child holds (end of file:
 * the child has exited). */
static pid_t xr_run_child(xr_ctx *ctx, size_t s, int *fd)
{
    const pid_t pid = xr_fork_piped(fd);
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
        /* -1: killed, or its records unreadable */
        xr_check(ctx, what, ok && WIFEXITED(status) ? WEXITSTATUS(status) : -1, 0, xr_exact(),
                 "framework: a section's process exits 0 after writing its records");
    }
}

/* Queues the figures section s recorded from record nfig_from on. */
static void xr_queue_figures(xr_ctx *ctx, xr_plotter *plot, size_t nfig_from)
{
    for (size_t i = nfig_from; i < ctx->nfigs; ++i)
        xr_plotter_add(plot, ctx->figs[i].name);
}

/* Typesets report.pdf in a child process (so that figures are drawn
 * meanwhile); *fd as for xr_run_child. The exit status is 1 + the result
 * of xr_write_pdf. */
static pid_t xr_pdf_child(xr_ctx *ctx, int *fd)
{
    const pid_t pid = xr_fork_piped(fd);
    if (pid != 0)
        return pid;
    const int r = xr_write_pdf(ctx);
    fflush(stdout);
    fflush(stderr);
    _exit(1 + r);
}

enum { XR_MAX_CHILDREN = 64 };

xr_run_result xr_run_report(xr_ctx *ctx, const int *sel)
{
    const double t0 = xr_now();
    xr_run_result res;
    memset(&res, 0, sizeof res);
    size_t nsel = 0, done = 0;
    for (size_t s = 0; s < XR_NSECTIONS; ++s)
        nsel += sel[s] != 0;
    const size_t width = (size_t)(ctx->jobs < 1 ? 1 : ctx->jobs);

    /* Sections that time something run first, alone (and, under --jobs 1,
     * every section, in order, in this process) */
    for (size_t s = 0; s < XR_NSECTIONS; ++s) {
        if (!sel[s] || (width > 1 && !xr_sections[s]->timed))
            continue;
        xr_progress_line(ctx, "[%zu/%zu sections] %s", done, nsel, xr_sections[s]->name);
        xr_run_here(ctx, s);
        ++done;
        xr_progress_clear(ctx);
        xr_print_section_line(ctx, s);
    }
    res.sections = xr_now() - t0;

    /* the others two at a time (ctx->jobs), each in a child process, with
     * the figures of every section done drawn meanwhile: sections first,
     * then PDF figures, then report.pdf, PNG figures in any slot left */
    xr_plotter *plot = xr_plotter_new(ctx, width);
    res.gnuplot = xr_plotter_has_gnuplot(plot);
    xr_queue_figures(ctx, plot, 0);
    pid_t pid[XR_NSECTIONS] = {0};
    int fd[XR_NSECTIONS];
    size_t next = 0, children = 0;
    const int want_pdf = ctx->want_pdf;
    pid_t pdf_pid = 0;
    int pdf_fd = -1, pdf_started = !want_pdf, sorted = 0;
    for (;;) {
        for (;;) {
            const size_t used = children + xr_plotter_running(plot) + (pdf_pid > 0);
            if (used >= width)
                break;
            while (next < XR_NSECTIONS && (!sel[next] || width == 1 || xr_sections[next]->timed))
                ++next;
            if (next < XR_NSECTIONS) {
                const size_t s = next++;
                pid[s] = xr_run_child(ctx, s, &fd[s]);
                if (pid[s] < 0) {
                    fprintf(stderr, "xpbd-report: cannot fork for %s: %s; running it here\n",
                            xr_sections[s]->name, strerror(errno));
                    pid[s] = 0;
                    const size_t nf = ctx->nfigs;
                    xr_run_here(ctx, s);
                    xr_progress_clear(ctx);
                    xr_print_section_line(ctx, s);
                    xr_queue_figures(ctx, plot, nf);
                    ++done;
                } else {
                    ++children;
                }
                continue;
            }
            if (xr_plotter_start(plot, 1))
                continue;
            if (!pdf_started && children == 0 && xr_plotter_pending(plot, 1) == 0) {
                /* every section and every PDF figure done: report.pdf */
                pdf_started = sorted = 1;
                xr_prov_end(&ctx->prov);
                xr_records_sort(ctx);
                res.pdf_start = xr_now() - t0;
                pdf_pid = xr_pdf_child(ctx, &pdf_fd);
                if (pdf_pid < 0) {
                    pdf_pid = 0;
                    res.pdf = xr_write_pdf(ctx);
                    res.pdf_end = xr_now() - t0;
                }
                continue;
            }
            if (xr_plotter_start(plot, 0))
                continue;
            break;
        }
        struct pollfd fds[XR_NSECTIONS + XR_MAX_CHILDREN + 1];
        size_t nfd = 0;
        for (size_t s = 0; s < XR_NSECTIONS; ++s)
            if (pid[s] > 0) {
                fds[nfd].fd = fd[s];
                fds[nfd].events = POLLIN;
                fds[nfd++].revents = 0;
            }
        if (pdf_pid > 0) {
            fds[nfd].fd = pdf_fd;
            fds[nfd].events = POLLIN;
            fds[nfd++].revents = 0;
        }
        const size_t nown = nfd;
        nfd += xr_plotter_pollfds(plot, fds + nfd);
        if (nfd == 0)
            break;
        if (children)
            xr_progress_line(ctx, "[%zu/%zu sections] running ...", done, nsel);
        if (poll(fds, (nfds_t)nfd, -1) < 0) {
            if (errno == EINTR)
                continue;
            fprintf(stderr, "xpbd-report: poll: %s\n", strerror(errno));
            break;
        }
        if (nfd > nown) {
            xr_plotter_ready(plot, fds + nown, nfd - nown);
            res.figures = xr_now() - t0;
        }
        for (size_t i = 0; i < nown; ++i) {
            if (!fds[i].revents)
                continue;
            char c;
            if (read(fds[i].fd, &c, 1) > 0)
                continue; /* nobody writes there: not the end yet */
            if (pdf_pid > 0 && fds[i].fd == pdf_fd) {
                const int code = xr_wait(pdf_pid);
                res.pdf = code >= 0 && code <= 2 ? code - 1 : 0;
                res.pdf_end = xr_now() - t0;
                close(pdf_fd);
                pdf_pid = 0;
                continue;
            }
            for (size_t s = 0; s < XR_NSECTIONS; ++s) {
                if (pid[s] <= 0 || fd[s] != fds[i].fd)
                    continue;
                int st = 0;
                while (waitpid(pid[s], &st, 0) < 0 && errno == EINTR)
                    ;
                close(fd[s]);
                pid[s] = 0;
                --children;
                ++done;
                const size_t nf = ctx->nfigs;
                xr_collect_child(ctx, s, st);
                xr_progress_clear(ctx);
                xr_print_section_line(ctx, s);
                xr_queue_figures(ctx, plot, nf);
                res.sections = xr_now() - t0;
            }
        }
    }
    res.gnuplot_s = xr_plotter_end(plot);
    if (!sorted) { /* no report.pdf: the records are complete only now */
        xr_prov_end(&ctx->prov);
        xr_records_sort(ctx);
    }
    res.total = xr_now() - t0;
    return res;
}
