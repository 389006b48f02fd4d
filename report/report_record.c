/* SPDX-License-Identifier: MIT */
/* report_record.c: what sections record (report.h): data tables, checks and
 * where their tolerances come from, seed values, markdown, figures and
 * progress; and the record stream in which a child process running one
 * section sends them back (report_fw.h). */
#define _POSIX_C_SOURCE 200809L

#include "report_fw.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int xr_quick(const xr_ctx *ctx)
{
    return ctx->quick;
}

xpbd_isa xr_isa(const xr_ctx *ctx)
{
    return ctx->isa;
}

/* ------------------------------------------------------------- tables --- */

FILE *xr_table_open(xr_ctx *ctx, const char *name, const char *columns)
{
    char *path = xr_path(ctx->out, "/data/", name);
    char *full = xr_path(path, ".tsv", NULL);
    free(path);
    FILE *f = xr_create(full);
    free(full);
    if (!f)
        return NULL;
    fprintf(f, "%s\n", columns);
    return f;
}

void xr_row(FILE *f, int n, const double *v)
{
    if (!f)
        return;
    for (int i = 0; i < n; ++i)
        fprintf(f, i ? "\t%.17g" : "%.17g", v[i]);
    fputc('\n', f);
}

void xr_table_close(FILE *f)
{
    if (f && fclose(f) != 0)
        fprintf(stderr, "xpbd-report: error writing a data table: %s\n", strerror(errno));
}

/* ------------------------------------------------------------- checks --- */

static int xr_check_impl(xr_ctx *ctx, const char *what, double ours, double expected,
                         const char *tol, const char *seed, int pass, int exact)
{
    ctx->checks = xr_grow(ctx->checks, &ctx->capchecks, ctx->nchecks, sizeof *ctx->checks);
    xr_checkrec *c = &ctx->checks[ctx->nchecks++];
    c->section = ctx->cur;
    c->what = xr_strdup(what);
    c->tol = xr_strdup(tol ? tol : "");
    c->tol_from = ctx->tol_from ? xr_strdup(ctx->tol_from) : NULL;
    c->seed = seed ? xr_strdup(seed) : NULL;
    c->ours = ours;
    c->expected = expected;
    c->exact = exact;
    c->pass = pass != 0;
    if (!c->pass) {
        printf("  FAIL %s: %s: ours %.17g, expected %.17g (%s)\n", xr_sections[ctx->cur]->name,
               what, ours, expected, c->tol);
        fflush(stdout);
    }
    return c->pass;
}

int xr_check(xr_ctx *ctx, const char *what, double ours, double expected, const char *tol,
             const char *seed, int pass)
{
    return xr_check_impl(ctx, what, ours, expected, tol, seed, pass, 0);
}

int xr_check_rel(xr_ctx *ctx, const char *what, double ours, double expected, double rel,
                 const char *seed)
{
    char tol[48];
    if (rel >= 1e-3)
        snprintf(tol, sizeof tol, "+-%g%%", rel * 100.0);
    else
        snprintf(tol, sizeof tol, "rel %.0e", rel);
    const int pass = isfinite(ours) && fabs(ours - expected) <= rel * fabs(expected);
    return xr_check_impl(ctx, what, ours, expected, tol, seed, pass, 0);
}

int xr_check_exact(xr_ctx *ctx, const char *what, double ours, double expected, const char *seed)
{
    const int pass = memcmp(&ours, &expected, sizeof ours) == 0;
    return xr_check_impl(ctx, what, ours, expected, "exact (bitwise)", seed, pass, 1);
}

void xr_tolerance_source(xr_ctx *ctx, const char *why)
{
    free(ctx->tol_from);
    ctx->tol_from = why && *why ? xr_strdup(why) : NULL;
}

void xr_count_checks(const xr_ctx *ctx, size_t s, size_t *passed, size_t *failed)
{
    *passed = *failed = 0;
    for (size_t i = 0; i < ctx->nchecks; ++i)
        if (s == SIZE_MAX || ctx->checks[i].section == s)
            ctx->checks[i].pass ? ++*passed : ++*failed;
}

/* ------------------------------------------------------------- seeds --- */

static void xr_seed_add(xr_ctx *ctx, const char *item, double seed, double ours,
                        const char *explained, int missing)
{
    ctx->seeds = xr_grow(ctx->seeds, &ctx->capseeds, ctx->nseeds, sizeof *ctx->seeds);
    xr_seedrec *r = &ctx->seeds[ctx->nseeds++];
    r->section = ctx->cur;
    r->item = xr_strdup(item ? item : "");
    r->explained = explained && *explained ? xr_strdup(explained) : NULL;
    r->seed = seed;
    r->ours = ours;
    r->missing = missing;
}

void xr_seed_value(xr_ctx *ctx, const char *item, double seed, double ours,
                   const char *explained)
{
    xr_seed_add(ctx, item, seed, ours, explained, 0);
}

void xr_seed_missing(xr_ctx *ctx, const char *item, const char *why)
{
    xr_seed_add(ctx, item, NAN, NAN, why, 1);
}

double xr_deviation_pct(double seed, double ours)
{
    if (!isfinite(seed) || !isfinite(ours) || seed == 0)
        return NAN;
    return 100.0 * (ours - seed) / fabs(seed);
}

/* ----------------------------------------------------- numbers as text --- */

const char *xr_num(char *buf, size_t size, double v)
{
    if (!isfinite(v)) {
        snprintf(buf, size, "%g", v);
        return buf;
    }
    for (int digits = 1; digits <= 17; ++digits) {
        snprintf(buf, size, "%.*g", digits, v);
        if (strtod(buf, NULL) == v)
            break;
    }
    return buf;
}

void xr_fmt_num(char *out, size_t n, double v, int exact)
{
    if (exact)
        xr_num(out, n, v);
    else
        snprintf(out, n, "%.6g", v);
}

const char *const xr_check_columns[XR_CHECK_COLS] = {
    "check", "ours", "closed form / expected", "seed", "tolerance", "tolerance from", "verdict"};

void xr_check_row_of(const xr_checkrec *c, xr_check_row *r)
{
    xr_fmt_num(r->ours, sizeof r->ours, c->ours, c->exact);
    xr_fmt_num(r->expected, sizeof r->expected, c->expected, c->exact);
    r->cell[0] = c->what;
    r->cell[1] = r->ours;
    r->cell[2] = r->expected;
    r->cell[3] = c->seed ? c->seed : "-";
    r->cell[4] = c->tol;
    r->cell[5] = c->tol_from ? c->tol_from : "-";
    r->cell[6] = c->pass ? "PASS" : "**FAIL**";
}

/* ------------------------------------------------------- md, figures --- */

void xr_md(xr_ctx *ctx, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    xr_buf_vprintf(&ctx->sec[ctx->cur].md, fmt, ap);
    va_end(ap);
}

/* 1 if section s declares figure name in its .figures. */
static int xr_declared(size_t s, const char *name)
{
    for (const char *const *g = xr_sections[s]->figures; g && *g; ++g)
        if (strcmp(*g, name) == 0)
            return 1;
    return 0;
}

void xr_figure(xr_ctx *ctx, const char *name, const char *caption)
{
    if (!xr_declared(ctx->cur, name)) {
        char what[160];
        snprintf(what, sizeof what, "figure %s declared in the section's .figures", name);
        xr_check(ctx, what, 0, 1, "declared", NULL, 0);
    }
    for (size_t i = 0; i < ctx->nfigs; ++i)
        if (strcmp(ctx->figs[i].name, name) == 0) {
            free(ctx->figs[i].caption);
            ctx->figs[i].caption = xr_strdup(caption ? caption : "");
            return;
        }
    ctx->figs = xr_grow(ctx->figs, &ctx->capfigs, ctx->nfigs, sizeof *ctx->figs);
    xr_figrec *f = &ctx->figs[ctx->nfigs++];
    memset(f, 0, sizeof *f);
    f->section = ctx->cur;
    f->name = xr_strdup(name);
    f->caption = xr_strdup(caption ? caption : "");
}

void xr_check_figures(xr_ctx *ctx, size_t s)
{
    for (const char *const *g = xr_sections[s]->figures; g && *g; ++g) {
        int made = 0;
        for (size_t i = 0; i < ctx->nfigs && !made; ++i)
            made = ctx->figs[i].section == s && strcmp(ctx->figs[i].name, *g) == 0;
        if (!made) {
            char what[160];
            snprintf(what, sizeof what, "declared figure %s was made", *g);
            xr_check(ctx, what, 0, 1, "made", NULL, 0);
        }
    }
}

/* ----------------------------------------------------------- progress --- */

void xr_progress_clear(xr_ctx *ctx)
{
    if (ctx && ctx->tty && ctx->progress_len > 0) {
        fprintf(stderr, "\r%*s\r", ctx->progress_len, "");
        fflush(stderr);
        ctx->progress_len = 0;
    }
}

void xr_progress_line(xr_ctx *ctx, const char *fmt, ...)
{
    if (!ctx || !ctx->tty)
        return;
    char line[160];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    const int n = (int)strlen(line);
    fprintf(stderr, "\r%s%*s", line, ctx->progress_len > n ? ctx->progress_len - n : 0, "");
    fflush(stderr);
    ctx->progress_len = n;
}

void xr_progress(xr_ctx *ctx, const char *what, int done, int total)
{
    if (!ctx->tty)
        return;
    /* at most ~20 updates a second: a terminal is slower than a chain step */
    const double t = xr_now();
    if (done != total && t - ctx->progress_t < 0.05)
        return;
    ctx->progress_t = t;
    xr_progress_line(ctx, "[%zu/%d] %s: %s %d/%d", ctx->cur + 1, XR_NSECTIONS,
                     xr_sections[ctx->cur]->name, what, done, total);
}

/* ------------------------------------------------------ record stream --- */

/* A stream of tagged records in the machine's own byte order (writer and
 * reader are the same binary): 'C' check, 'F' figure, 'S' seed, then 'E'
 * with the section's index, status, time and markdown. Strings are a
 * uint32 length (UINT32_MAX for NULL) and the bytes. */

static void put_u32(FILE *f, uint32_t v)
{
    fwrite(&v, sizeof v, 1, f);
}

static void put_f64(FILE *f, double v)
{
    fwrite(&v, sizeof v, 1, f);
}

static void put_str(FILE *f, const char *s)
{
    if (!s) {
        put_u32(f, UINT32_MAX);
        return;
    }
    const size_t n = strlen(s);
    put_u32(f, (uint32_t)n);
    fwrite(s, 1, n, f);
}

xr_marks xr_records_mark(const xr_ctx *ctx)
{
    return (xr_marks){ctx->nchecks, ctx->nfigs, ctx->nseeds};
}

int xr_records_write(const xr_ctx *ctx, size_t s, xr_marks from, FILE *f)
{
    for (size_t i = from.checks; i < ctx->nchecks; ++i) {
        const xr_checkrec *c = &ctx->checks[i];
        fputc('C', f);
        put_str(f, c->what);
        put_str(f, c->tol);
        put_str(f, c->tol_from);
        put_str(f, c->seed);
        put_f64(f, c->ours);
        put_f64(f, c->expected);
        put_u32(f, (uint32_t)c->exact);
        put_u32(f, (uint32_t)c->pass);
    }
    for (size_t i = from.figs; i < ctx->nfigs; ++i) {
        fputc('F', f);
        put_str(f, ctx->figs[i].name);
        put_str(f, ctx->figs[i].caption);
    }
    for (size_t i = from.seeds; i < ctx->nseeds; ++i) {
        const xr_seedrec *r = &ctx->seeds[i];
        fputc('S', f);
        put_str(f, r->item);
        put_str(f, r->explained);
        put_f64(f, r->seed);
        put_f64(f, r->ours);
        put_u32(f, (uint32_t)r->missing);
    }
    fputc('E', f);
    put_u32(f, (uint32_t)s);
    put_u32(f, (uint32_t)ctx->sec[s].status);
    put_f64(f, ctx->sec[s].seconds);
    put_str(f, ctx->sec[s].md.s ? ctx->sec[s].md.s : "");
    return ferror(f) ? -1 : 0;
}

static int get_u32(FILE *f, uint32_t *v)
{
    return fread(v, sizeof *v, 1, f) == 1 ? 0 : -1;
}

static int get_f64(FILE *f, double *v)
{
    return fread(v, sizeof *v, 1, f) == 1 ? 0 : -1;
}

/* *s = the string (malloc'd) or NULL; -1 on a short read. */
static int get_str(FILE *f, char **s)
{
    uint32_t n;
    *s = NULL;
    if (get_u32(f, &n) != 0)
        return -1;
    if (n == UINT32_MAX)
        return 0;
    char *p = malloc((size_t)n + 1);
    if (!p)
        xr_die_nomem();
    if (fread(p, 1, n, f) != n) {
        free(p);
        return -1;
    }
    p[n] = 0;
    *s = p;
    return 0;
}

int xr_records_read(xr_ctx *ctx, FILE *f)
{
    /* records before 'E' belong to the section 'E' names: keep their
     * positions and set the section once it is known */
    const xr_marks m = xr_records_mark(ctx);
    for (;;) {
        const int tag = fgetc(f);
        uint32_t u1, u2;
        if (tag == 'C') {
            ctx->checks = xr_grow(ctx->checks, &ctx->capchecks, ctx->nchecks, sizeof *ctx->checks);
            xr_checkrec *c = &ctx->checks[ctx->nchecks];
            memset(c, 0, sizeof *c);
            if (get_str(f, &c->what) || get_str(f, &c->tol) || get_str(f, &c->tol_from) ||
                get_str(f, &c->seed) || get_f64(f, &c->ours) || get_f64(f, &c->expected) ||
                get_u32(f, &u1) || get_u32(f, &u2))
                return -1;
            c->exact = (int)u1;
            c->pass = (int)u2;
            ++ctx->nchecks;
        } else if (tag == 'F') {
            ctx->figs = xr_grow(ctx->figs, &ctx->capfigs, ctx->nfigs, sizeof *ctx->figs);
            xr_figrec *g = &ctx->figs[ctx->nfigs];
            memset(g, 0, sizeof *g);
            if (get_str(f, &g->name) || get_str(f, &g->caption))
                return -1;
            ++ctx->nfigs;
        } else if (tag == 'S') {
            ctx->seeds = xr_grow(ctx->seeds, &ctx->capseeds, ctx->nseeds, sizeof *ctx->seeds);
            xr_seedrec *r = &ctx->seeds[ctx->nseeds];
            memset(r, 0, sizeof *r);
            if (get_str(f, &r->item) || get_str(f, &r->explained) || get_f64(f, &r->seed) ||
                get_f64(f, &r->ours) || get_u32(f, &u1))
                return -1;
            r->missing = (int)u1;
            ++ctx->nseeds;
        } else if (tag == 'E') {
            double seconds;
            char *md;
            if (get_u32(f, &u1) || get_u32(f, &u2) || get_f64(f, &seconds) || get_str(f, &md) ||
                u1 >= XR_NSECTIONS)
                return -1;
            const size_t s = u1;
            ctx->sec[s].status = (int)u2;
            ctx->sec[s].seconds = seconds;
            free(ctx->sec[s].md.s);
            ctx->sec[s].md = (xr_buf){0};
            if (md && *md)
                xr_buf_put(&ctx->sec[s].md, md, strlen(md));
            free(md);
            for (size_t i = m.checks; i < ctx->nchecks; ++i)
                ctx->checks[i].section = s;
            for (size_t i = m.figs; i < ctx->nfigs; ++i)
                ctx->figs[i].section = s;
            for (size_t i = m.seeds; i < ctx->nseeds; ++i)
                ctx->seeds[i].section = s;
            return 0;
        } else {
            return -1;
        }
    }
}

/* Stable sorts by section: insertion sort (a few hundred records, mostly
 * in order already). */
#define XR_SORT_BY_SECTION(arr, n, type)                                                       \
    for (size_t i_ = 1; i_ < (n); ++i_) {                                                      \
        type x_ = (arr)[i_];                                                                   \
        size_t j_ = i_;                                                                        \
        while (j_ > 0 && (arr)[j_ - 1].section > x_.section) {                                 \
            (arr)[j_] = (arr)[j_ - 1];                                                         \
            --j_;                                                                              \
        }                                                                                      \
        (arr)[j_] = x_;                                                                        \
    }

void xr_records_sort(xr_ctx *ctx)
{
    XR_SORT_BY_SECTION(ctx->checks, ctx->nchecks, xr_checkrec)
    XR_SORT_BY_SECTION(ctx->figs, ctx->nfigs, xr_figrec)
    XR_SORT_BY_SECTION(ctx->seeds, ctx->nseeds, xr_seedrec)
}
