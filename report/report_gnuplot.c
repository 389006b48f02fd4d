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

/* Fills job j: gnuplot renders script into out_stem.FMT, k = 0 png, 1 pdf,
 * reading DATA_DIR/TSV_STEM.tsv. */
static void xr_gp_job(xr_job *j, const char *gnuplot, const char *script, const char *data_dir,
                      const char *tsv_stem, const char *out_stem, int k)
{
    const char *fmt = k ? "pdf" : "png";
    j->target = xr_path(out_stem, ".", fmt);
    j->log = xr_path(out_stem, ".", k ? "pdf.log" : "png.log");
    char *dir = xr_path(data_dir, "/", NULL);
    char *tsv = xr_path(dir, tsv_stem, ".tsv");
    xr_buf e = {0};
    xr_buf_printf(&e, "data=");
    xr_gp_single(&e, tsv);
    xr_buf_printf(&e, "; datadir=");
    xr_gp_single(&e, dir);
    xr_buf_printf(&e, "; out=");
    xr_gp_single(&e, j->target);
    xr_buf_printf(&e, "; fmt='%s'", fmt);
    free(tsv);
    free(dir);
    j->argv[0] = xr_strdup(gnuplot);
    j->argv[1] = xr_strdup("-e");
    j->argv[2] = e.s;
    j->argv[3] = xr_strdup(script);
    remove(j->target); /* never leave an old figure looking current */
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
    xr_job *jobs = calloc(2 * ctx->nfigs + 1, sizeof *jobs);
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
        for (int k = 0; k < 2; ++k) {
            if (k ? !ctx->want_pdf : !ctx->want_png)
                continue;
            xr_gp_job(&jobs[n], gnuplot, gp, data, f->name, stem, k);
            jobs[n++].done = k ? &f->pdf : &f->png;
        }
        free(stem);
        free(gp);
    }
    free(data);
    xr_run_jobs(ctx, jobs, n, 2);
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
    xr_job jobs[2];
    int done[2] = {0, 0};
    memset(jobs, 0, sizeof jobs);
    for (int k = 0; k < 2; ++k) {
        xr_gp_job(&jobs[k], gnuplot, script_path, data_dir, stem, out_stem, k);
        jobs[k].done = &done[k];
    }
    xr_run_jobs(NULL, jobs, 2, 2);
    for (int k = 0; k < 2; ++k)
        xr_job_free(&jobs[k]);
    return done[0] && done[1] ? 0 : -1;
}
