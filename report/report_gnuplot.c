/* report_gnuplot.c: the figure runner. Every figure is PLOTS/NAME.gp run by
 * gnuplot with three variables set on its command line (-e):
 *   data='DIR/data/NAME.tsv'  datadir='DIR/data/'  out='DIR/fig/NAME.png'
 *   fmt='png' (or 'pdf')
 * Paths go to gnuplot as single-quoted string literals ('' stands for '),
 * the only quoting needed: programs start through execvp, never a shell. */
#define _POSIX_C_SOURCE 200809L

#include "report_fw.h"

#include <stdlib.h>
#include <string.h>

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

/* Runs the figure jobs as two gnuplot processes (one per core), each
 * loading its half of the scripts in turn with `reset session` between
 * them: this saves a process start and the font set-up per figure. A
 * batch that fails is run again one figure per process, so that every
 * failing figure gets its own log and the others are still drawn. */
static void xr_render_batched(xr_ctx *ctx, const char *gnuplot, xr_job *jobs, size_t n)
{
    enum { NB = 2 };
    xr_job batch[NB];
    int ok[NB] = {0, 0};
    memset(batch, 0, sizeof batch);
    size_t nb = 0;
    for (size_t k = 0; k < NB && k < n; ++k, ++nb) {
        xr_buf b = {0};
        for (size_t i = k; i < n; i += NB) {
            for (int a = 1; a < XR_JOB_ARGS && jobs[i].argv[a]; ++a) {
                if (strcmp(jobs[i].argv[a], "-e") == 0) {
                    xr_buf_printf(&b, "%s\n", jobs[i].argv[++a]);
                } else {
                    xr_buf_printf(&b, "load ");
                    xr_gp_single(&b, jobs[i].argv[a]);
                    xr_buf_printf(&b, "\n");
                }
            }
            xr_buf_printf(&b, "reset session\n");
        }
        char name[32];
        snprintf(name, sizeof name, "/fig/batch_%zu", k);
        char *stem = xr_path(ctx->out, name, NULL);
        batch[k].target = xr_path(stem, ".gp", NULL);
        batch[k].log = xr_path(stem, ".log", NULL);
        free(stem);
        FILE *f = xr_create(batch[k].target);
        if (f) {
            fputs(b.s ? b.s : "", f);
            if (fclose(f) != 0)
                remove(batch[k].target);
        }
        free(b.s);
        batch[k].argv[0] = xr_strdup(gnuplot);
        batch[k].argv[1] = xr_strdup(batch[k].target);
        batch[k].done = &ok[k];
    }
    xr_run_jobs(ctx, batch, nb, NB);
    xr_job *retry = calloc(n + 1, sizeof *retry);
    if (!retry)
        xr_die_nomem();
    size_t nretry = 0;
    for (size_t i = 0; i < n; ++i) {
        if (!ok[i % NB]) {
            retry[nretry++] = jobs[i]; /* moved: freed once, from retry */
            memset(&jobs[i], 0, sizeof jobs[i]);
            continue;
        }
        *jobs[i].done = xr_is_file(jobs[i].target);
        if (jobs[i].target2)
            *jobs[i].done2 = xr_is_file(jobs[i].target2);
    }
    if (nretry)
        xr_run_jobs(ctx, retry, nretry, NB);
    for (size_t i = 0; i < nretry; ++i)
        xr_job_free(&retry[i]);
    free(retry);
    for (size_t k = 0; k < nb; ++k) {
        remove(batch[k].target);
        xr_job_free(&batch[k]);
    }
}

/* 1 if gnuplot starts. */
static int xr_gnuplot_present(const char *gnuplot)
{
    char *vers[] = {(char *)gnuplot, (char *)"--version", NULL};
    return xr_run(vers, NULL) == 0;
}

int xr_render_figures(xr_ctx *ctx)
{
    const char *gnuplot = xr_program("GNUPLOT", "gnuplot");
    if (!xr_gnuplot_present(gnuplot)) {
        fprintf(stderr,
                "xpbd-report: gnuplot not found ('%s'): the data (%s/data), the scripts (%s) "
                "and %s/report.md are written, but no figure and no report.pdf.\n"
                "  Install it:   apt-get install gnuplot-nox\n"
                "  Re-render:    run xpbd-report again, or per figure (from %s):\n"
                "    gnuplot -e \"data='data/NAME.tsv'; out='fig/NAME.png'; fmt='png'\" "
                "%s/NAME.gp\n",
                gnuplot, ctx->out, ctx->plots, ctx->out, ctx->out, ctx->plots);
        return 0;
    }
    if (!xr_is_dir(ctx->plots))
        fprintf(stderr, "xpbd-report: plot scripts directory %s not found (use --plots DIR)\n",
                ctx->plots);
    xr_job *jobs = calloc(ctx->nfigs + 1, sizeof *jobs);
    if (!jobs)
        xr_die_nomem();
    char *data = xr_path(ctx->out, "/data", NULL);
    size_t n = 0;
    for (size_t i = 0; i < ctx->nfigs; ++i) {
        xr_figrec *f = &ctx->figs[i];
        char *script = xr_path(ctx->plots, "/", f->name);
        char *gp = xr_path(script, ".gp", NULL);
        free(script);
        if (!xr_is_file(gp)) {
            fprintf(stderr, "xpbd-report: no script %s for figure %s\n", gp, f->name);
            free(gp);
            continue;
        }
        char *stem = xr_path(ctx->out, "/fig/", f->name);
        if (ctx->want_png || ctx->want_pdf) {
            xr_gp_job(&jobs[n], gnuplot, gp, data, f->name, stem, ctx->want_png, ctx->want_pdf);
            jobs[n].done = ctx->want_png ? &f->png : &f->pdf;
            jobs[n++].done2 = &f->pdf; /* used only when both are made */
        }
        free(stem);
        free(gp);
    }
    free(data);
    xr_render_batched(ctx, gnuplot, jobs, n);
    for (size_t i = 0; i < n; ++i)
        xr_job_free(&jobs[i]);
    free(jobs);
    xr_progress_clear(ctx);
    return 1;
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
