/* SPDX-License-Identifier: MIT */
/* gnuplot.c: the figure runner. Every figure is PLOTS/NAME.gp run by
 * gnuplot with four variables set before it:
 *   data='DIR/data/NAME.tsv'  datadir='DIR/data/'  out='DIR/fig/NAME.png'
 *   fmt='png' (or 'pdf')
 * by the plotter (gnuplot processes fed one figure after another on their
 * stdin, below) for the report, and on the command line (-e) for a sweep's
 * single figure. Paths go to gnuplot as single-quoted string literals (''
 * stands for '), the only quoting needed: programs start through execvp,
 * never a shell. */
#define _POSIX_C_SOURCE 200809L

#include "fw.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A string as a gnuplot single-quoted literal. */
static void xr_gp_single(xr_buf *b, const char *s)
{
    xr_buf_put(b, "'", 1);
    for (; *s; ++s) {
        xr_buf_put(b, s, 1);
        if (*s == '\'')
            xr_buf_put(b, "'", 1);
    }
    xr_buf_put(b, "'", 1);
}

/* The -e assignments for one format: data, datadir, out and fmt. */
static char *xr_gp_vars(const char *data_dir, const char *tsv_stem, const char *target,
                        const char *fmt)
{
    char *dir = xr_path(data_dir, "/", NULL);
    char *tsv = xr_path(dir, tsv_stem, ".tsv");
    xr_buf e = {0};
    xr_buf_printf(&e, "data=");
    xr_gp_single(&e, tsv);
    xr_buf_printf(&e, "; datadir=");
    xr_gp_single(&e, dir);
    xr_buf_printf(&e, "; out=");
    xr_gp_single(&e, target);
    xr_buf_printf(&e, "; fmt='%s'", fmt);
    free(tsv);
    free(dir);
    return e.s;
}

/* Fills job j: one gnuplot process renders script into out_stem.png (if
 * png), then, after `reset session`, into out_stem.pdf (if pdf), reading
 * DATA_DIR/TSV_STEM.tsv. One process for both formats saves a start-up and
 * the font set-up per figure. */
static void xr_gp_job(xr_job *j, const char *gnuplot, const char *script, const char *data_dir,
                      const char *tsv_stem, const char *out_stem, int png, int pdf)
{
    int a = 0;
    j->argv[a++] = xr_strdup(gnuplot);
    const char *fmts[2] = {"png", "pdf"};
    const int want[2] = {png, pdf};
    for (int k = 0; k < 2; ++k) {
        if (!want[k])
            continue;
        char *target = xr_path(out_stem, ".", fmts[k]);
        remove(target); /* never leave an old figure looking current */
        if (a > 1) {
            j->argv[a++] = xr_strdup("-e");
            j->argv[a++] = xr_strdup("reset session");
        }
        j->argv[a++] = xr_strdup("-e");
        j->argv[a++] = xr_gp_vars(data_dir, tsv_stem, target, fmts[k]);
        j->argv[a++] = xr_strdup(script);
        if (!j->target)
            j->target = target;
        else
            j->target2 = target;
    }
    j->log = xr_path(out_stem, ".", "log");
}

/* 1 if gnuplot starts. */
static int xr_gnuplot_present(const char *gnuplot)
{
    char *vers[] = {(char *)gnuplot, (char *)"--version", NULL};
    return xr_run(vers, NULL) == 0;
}

/* ------------------------------------------------------- the plotter --- */

/* Figures are drawn by a few gnuplot processes that stay up for the whole
 * run (one per core), each fed one figure at a time on its stdin: a
 * process start and the font set-up per figure are saved, and a figure can
 * start as soon as its section has written its data, while other sections
 * still run. Per figure and format the worker is sent
 *
 *     data='...'; datadir='...'; out='...'; fmt='pdf'
 *     load 'PLOTS/NAME.gp'
 *     set output                  (closes the file: it is complete)
 *     reset session
 *     print 'XR-DONE'             (on stderr, unbuffered)
 *
 * and what it writes on stderr up to the marker is that figure's: gnuplot
 * reports an error in a loaded script ("... line N: message", no
 * "warning:") and goes on with the next command, so a failed figure is a
 * missing or empty file or such a line; its text is kept in fig/NAME.log.
 * A worker that dies fails its figure; the next figure starts a new one. */

enum { XR_PLOT_WORKERS = 8 };
static const char xr_done_marker[] = "XR-DONE";

typedef struct xr_plot_job {
    char *fig; /* figure name */
    int pdf;   /* 1: the PDF, 0: the PNG */
} xr_plot_job;

typedef struct xr_plot_queue {
    xr_plot_job *v;
    size_t n, cap, head;
} xr_plot_queue;

typedef struct xr_plot_worker {
    pid_t pid; /* 0: not running */
    int in, err;
    int busy;
    xr_plot_job job;
    char *target;
    xr_buf text; /* stderr of the running figure */
    double t0;
} xr_plot_worker;

struct xr_plotter {
    xr_ctx *ctx;
    const char *gnuplot;
    char *data_dir;
    int absent; /* gnuplot missing: nothing is queued */
    size_t nworkers;
    xr_plot_worker w[XR_PLOT_WORKERS];
    xr_plot_queue q[2]; /* [1]: PDFs, [0]: PNGs */
    size_t queued, done;
    double busy_s; /* summed wall time of the figures drawn */
};

static void xr_queue_push(xr_plot_queue *q, const char *fig, int pdf)
{
    q->v = xr_grow(q->v, &q->cap, q->n, sizeof *q->v);
    q->v[q->n].fig = xr_strdup(fig);
    q->v[q->n].pdf = pdf;
    ++q->n;
}

xr_plotter *xr_plotter_new(xr_ctx *ctx, size_t workers)
{
    xr_plotter *p = calloc(1, sizeof *p);
    if (!p)
        xr_die_nomem();
    p->ctx = ctx;
    p->gnuplot = xr_program("GNUPLOT", "gnuplot");
    p->data_dir = xr_path(ctx->out, "/data", NULL);
    p->nworkers = workers < 1 ? 1 : workers > XR_PLOT_WORKERS ? XR_PLOT_WORKERS : workers;
    if (!xr_gnuplot_present(p->gnuplot)) {
        p->absent = 1;
        fprintf(stderr,
                "xpbd-report: gnuplot not found ('%s'): the data (%s/data), the scripts (%s) "
                "and %s/report.md are written (and report.pdf, its figures left out), but no "
                "figure.\n"
                "  Install it:   apt-get install gnuplot-nox\n"
                "  Re-render:    run xpbd-report again, or per figure (from %s):\n"
                "    gnuplot -e \"data='data/NAME.tsv'; out='fig/NAME.png'; fmt='png'\" "
                "%s/NAME.gp\n",
                p->gnuplot, ctx->out, ctx->plots, ctx->out, ctx->out, ctx->plots);
    } else if (!xr_is_dir(ctx->plots)) {
        fprintf(stderr, "xpbd-report: plot scripts directory %s not found (use --plots DIR)\n",
                ctx->plots);
    }
    /* a worker that died must not take the report with it */
    signal(SIGPIPE, SIG_IGN);
    return p;
}

int xr_plotter_has_gnuplot(const xr_plotter *p)
{
    return !p->absent;
}

static char *xr_script_of(const xr_plotter *p, const char *fig)
{
    char *script = xr_path(p->ctx->plots, "/", fig);
    char *gp = xr_path(script, ".gp", NULL);
    free(script);
    return gp;
}

void xr_plotter_add(xr_plotter *p, const char *fig)
{
    if (p->absent || !(p->ctx->want_png || p->ctx->want_pdf))
        return;
    char *gp = xr_script_of(p, fig);
    if (!xr_is_file(gp)) {
        fprintf(stderr, "xpbd-report: no script %s for figure %s\n", gp, fig);
    } else {
        if (p->ctx->want_pdf)
            xr_queue_push(&p->q[1], fig, 1), ++p->queued;
        if (p->ctx->want_png)
            xr_queue_push(&p->q[0], fig, 0), ++p->queued;
    }
    free(gp);
}

size_t xr_plotter_running(const xr_plotter *p)
{
    size_t n = 0;
    for (size_t k = 0; k < p->nworkers; ++k)
        n += p->w[k].busy != 0;
    return n;
}

size_t xr_plotter_pending(const xr_plotter *p, int pdf_only)
{
    size_t n = p->q[1].n - p->q[1].head;
    if (!pdf_only)
        n += p->q[0].n - p->q[0].head;
    for (size_t k = 0; k < p->nworkers; ++k)
        n += p->w[k].busy && (p->w[k].job.pdf || !pdf_only);
    return n;
}

/* Starts gnuplot reading commands from a pipe, its stderr into another
 * (both ends of this side close on exec); 0, or -1. */
static int xr_worker_spawn(xr_plotter *p, xr_plot_worker *w)
{
    int in[2], err[2];
    if (pipe(in) != 0)
        return -1;
    if (pipe(err) != 0) {
        close(in[0]);
        close(in[1]);
        return -1;
    }
    fflush(stdout);
    fflush(stderr);
    const pid_t pid = fork();
    if (pid == 0) {
        const int devnull = open("/dev/null", O_WRONLY);
        dup2(in[0], 0);
        if (devnull >= 0)
            dup2(devnull, 1);
        dup2(err[1], 2);
        close(in[1]);
        close(err[0]);
        char *argv[] = {(char *)p->gnuplot, NULL};
        execvp(argv[0], argv);
        _exit(127);
    }
    close(in[0]);
    close(err[1]);
    if (pid < 0) {
        close(in[1]);
        close(err[0]);
        return -1;
    }
    fcntl(in[1], F_SETFD, FD_CLOEXEC);
    fcntl(err[0], F_SETFD, FD_CLOEXEC);
    w->pid = pid;
    w->in = in[1];
    w->err = err[0];
    return 0;
}

static void xr_worker_stop(xr_plot_worker *w)
{
    if (!w->pid)
        return;
    static const char bye[] = "exit\n";
    if (write(w->in, bye, sizeof bye - 1) < 0) {
        /* it is gone already: waitpid below reaps it */
    }
    close(w->in);
    close(w->err);
    xr_wait(w->pid);
    w->pid = 0;
}

/* Marks the figure's format drawn (looked up by name: the records may have
 * been sorted since the figure was queued). */
static void xr_plot_mark(xr_plotter *p, const xr_plot_job *j)
{
    for (size_t i = 0; i < p->ctx->nfigs; ++i)
        if (strcmp(p->ctx->figs[i].name, j->fig) == 0) {
            if (j->pdf)
                p->ctx->figs[i].pdf = 1;
            else
                p->ctx->figs[i].png = 1;
        }
}

/* 1 if gnuplot's text for a figure reports an error (a "line N:" message
 * that is not a warning). */
static int xr_gp_error(const char *text)
{
    for (const char *s = text; s && (s = strstr(s, " line ")) != NULL; ++s) {
        const char *q = s + 6;
        if (*q < '0' || *q > '9')
            continue;
        while (*q >= '0' && *q <= '9')
            ++q;
        if (q[0] == ':' && strncmp(q + 1, " warning:", 9) != 0)
            return 1;
    }
    return 0;
}

/* The figure on worker w has ended: its marker came (ok = 1) or the
 * worker died (ok = 0). */
static void xr_worker_finish(xr_plotter *p, xr_plot_worker *w, int ended)
{
    const char *text = w->text.s ? w->text.s : "";
    const int ok = ended && xr_is_file(w->target) && !xr_gp_error(text);
    char *stem = xr_path(p->ctx->out, "/fig/", w->job.fig);
    char *log = xr_path(stem, w->job.pdf ? ".pdf" : ".png", ".log");
    if (ok) {
        xr_plot_mark(p, &w->job);
        remove(log);
    } else {
        FILE *f = fopen(log, "wb");
        if (f) {
            fputs(text, f);
            fclose(f);
        }
        fprintf(stderr, "xpbd-report: gnuplot failed for %s%s%s%s\n  (log kept in %s)\n",
                w->target, ended ? "" : " (gnuplot ended)", *text ? ":\n" : "", text, log);
    }
    free(log);
    free(stem);
    p->busy_s += xr_now() - w->t0;
    ++p->done;
    free(w->job.fig);
    free(w->target);
    w->target = NULL;
    w->text.len = 0;
    w->busy = 0;
    xr_progress_line(p->ctx, "rendering figures %zu/%zu", p->done, p->queued);
}

int xr_plotter_start(xr_plotter *p, int pdf_only)
{
    xr_plot_queue *q = p->q[1].head < p->q[1].n ? &p->q[1] : pdf_only ? NULL : &p->q[0];
    if (!q || q->head >= q->n)
        return 0;
    xr_plot_worker *w = NULL;
    for (size_t k = 0; k < p->nworkers && !w; ++k)
        if (!p->w[k].busy)
            w = &p->w[k];
    if (!w)
        return 0;
    const xr_plot_job job = q->v[q->head++];
    if (!w->pid && xr_worker_spawn(p, w) != 0) {
        fprintf(stderr, "xpbd-report: cannot start %s: %s\n", p->gnuplot, strerror(errno));
        free(job.fig);
        ++p->done;
        return 1;
    }
    w->busy = 1;
    w->job = job;
    w->t0 = xr_now();
    w->text.len = 0;
    char *stem = xr_path(p->ctx->out, "/fig/", job.fig);
    w->target = xr_path(stem, job.pdf ? ".pdf" : ".png", NULL);
    remove(w->target); /* never leave an old figure looking current */
    char *gp = xr_script_of(p, job.fig);
    char *vars = xr_gp_vars(p->data_dir, job.fig, w->target, job.pdf ? "pdf" : "png");
    xr_buf cmd = {0};
    xr_buf_printf(&cmd, "%s\nload ", vars);
    xr_gp_single(&cmd, gp);
    xr_buf_printf(&cmd, "\nset output\nreset session\nunset print\nprint '%s'\n", xr_done_marker);
    size_t off = 0;
    while (off < cmd.len) {
        const ssize_t k = write(w->in, cmd.s + off, cmd.len - off);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            break;
        off += (size_t)k;
    }
    free(cmd.s);
    free(vars);
    free(gp);
    free(stem);
    if (off < cmd.len) { /* the worker is gone */
        xr_worker_finish(p, w, 0);
        xr_worker_stop(w);
    }
    return 1;
}

size_t xr_plotter_pollfds(const xr_plotter *p, struct pollfd *fds)
{
    size_t n = 0;
    for (size_t k = 0; k < p->nworkers; ++k)
        if (p->w[k].busy) {
            fds[n].fd = p->w[k].err;
            fds[n].events = POLLIN;
            fds[n].revents = 0;
            ++n;
        }
    return n;
}

void xr_plotter_ready(xr_plotter *p, const struct pollfd *fds, size_t n)
{
    for (size_t i = 0; i < n; ++i) {
        if (!fds[i].revents)
            continue;
        xr_plot_worker *w = NULL;
        for (size_t k = 0; k < p->nworkers; ++k)
            if (p->w[k].busy && p->w[k].err == fds[i].fd)
                w = &p->w[k];
        if (!w)
            continue;
        char buf[4096];
        const ssize_t k = read(w->err, buf, sizeof buf);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0) { /* the worker died */
            xr_worker_finish(p, w, 0);
            xr_worker_stop(w);
            continue;
        }
        xr_buf_put(&w->text, buf, (size_t)k);
        /* the marker on a line of its own ends the figure */
        const size_t m = sizeof xr_done_marker - 1;
        const char *t = w->text.s;
        if (w->text.len >= m + 1 && t[w->text.len - 1] == '\n' &&
            memcmp(t + w->text.len - 1 - m, xr_done_marker, m) == 0 &&
            (w->text.len == m + 1 || t[w->text.len - 2 - m] == '\n')) {
            w->text.len -= m + 1;
            w->text.s[w->text.len] = 0;
            xr_worker_finish(p, w, 1);
        }
    }
}

double xr_plotter_end(xr_plotter *p)
{
    for (size_t k = 0; k < p->nworkers; ++k) {
        xr_worker_stop(&p->w[k]);
        free(p->w[k].text.s);
        free(p->w[k].target);
        if (p->w[k].busy)
            free(p->w[k].job.fig);
    }
    for (int f = 0; f < 2; ++f) {
        for (size_t i = p->q[f].head; i < p->q[f].n; ++i)
            free(p->q[f].v[i].fig);
        free(p->q[f].v);
    }
    const double busy = p->busy_s;
    xr_progress_clear(p->ctx);
    free(p->data_dir);
    free(p);
    return busy;
}

int xr_gnuplot_render(const char *script_path, const char *data_dir, const char *out_stem)
{
    const char *gnuplot = xr_program("GNUPLOT", "gnuplot");
    if (!xr_gnuplot_present(gnuplot)) {
        fprintf(stderr,
                "xpbd-report: gnuplot not found ('%s'): cannot render %s.\n"
                "  Install it:   apt-get install gnuplot-nox\n",
                gnuplot, out_stem);
        return -1;
    }
    if (!xr_is_file(script_path)) {
        fprintf(stderr, "xpbd-report: no script %s for %s\n", script_path, out_stem);
        return -1;
    }
    const char *stem = strrchr(out_stem, '/');
    stem = stem ? stem + 1 : out_stem;
    xr_job job;
    int done[2] = {0, 0};
    memset(&job, 0, sizeof job);
    xr_gp_job(&job, gnuplot, script_path, data_dir, stem, out_stem, 1, 1);
    job.done = &done[0];
    job.done2 = &done[1];
    xr_run_jobs(NULL, &job, 1, 1);
    xr_job_free(&job);
    return done[0] && done[1] ? 0 : -1;
}
