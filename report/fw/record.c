/* SPDX-License-Identifier: MIT */
/* record.c: what sections record (report.h): data tables, checks and
 * where their tolerances come from, reference values, markdown, figures and
 * progress; the self-test that perturbs every check; and the record stream in which a child process running one
 * section sends them back (fw.h). */
#define _POSIX_C_SOURCE 200809L

#include "fw.h"

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

/* The tables open in this process: each is written as NAME.tsv.part and
 * renamed to NAME.tsv when it closes whole (a section runs in its own
 * process, one table or a few open at a time). */
#define XR_TABLES_OPEN 32
static struct {
    FILE *f;
    char *part, *full;
} xr_tables[XR_TABLES_OPEN];
static int xr_tables_failed; /* tables of this process not written whole */

FILE *xr_table_open(xr_ctx *ctx, const char *name, const char *columns)
{
    int slot = 0;
    while (slot < XR_TABLES_OPEN && xr_tables[slot].f)
        ++slot;
    char *path = xr_path(ctx->out, "/data/", name);
    char *full = xr_path(path, ".tsv", NULL);
    char *part = xr_path(full, ".part", NULL);
    free(path);
    FILE *f = slot < XR_TABLES_OPEN ? xr_create(part) : NULL;
    if (!f) {
        if (slot == XR_TABLES_OPEN)
            fprintf(stderr, "xpbd-report: more than %d tables open at once\n", XR_TABLES_OPEN);
        ++xr_tables_failed;
        free(full);
        free(part);
        return NULL;
    }
    xr_tables[slot].f = f;
    xr_tables[slot].part = part;
    xr_tables[slot].full = full;
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

int xr_table_close(FILE *f)
{
    if (!f)
        return 0;
    int slot = 0;
    while (slot < XR_TABLES_OPEN && xr_tables[slot].f != f)
        ++slot;
    const int written = !ferror(f);
    const int closed = fclose(f) == 0;
    if (slot == XR_TABLES_OPEN)
        return written && closed ? 0 : -1; /* not opened by xr_table_open */
    int ok = written && closed && rename(xr_tables[slot].part, xr_tables[slot].full) == 0;
    if (!ok) {
        fprintf(stderr, "xpbd-report: error writing %s: %s\n", xr_tables[slot].full,
                strerror(errno));
        remove(xr_tables[slot].part);
        ++xr_tables_failed;
    }
    free(xr_tables[slot].part);
    free(xr_tables[slot].full);
    xr_tables[slot].f = NULL;
    return ok ? 0 : -1;
}

int xr_tables_failed_count(void)
{
    return xr_tables_failed;
}

/* ------------------------------------------------------------- checks --- */

/* Doubles as integers that count representable steps (-0 and +0 the same
 * point): the sign-magnitude bits mapped onto a monotone signed integer. */
static int64_t xr_ordered(double x)
{
    int64_t i;
    memcpy(&i, &x, sizeof i);
    return i < 0 ? INT64_MIN - i : i;
}

static double xr_unordered(int64_t i)
{
    if (i < 0)
        i = INT64_MIN - i;
    double x;
    memcpy(&x, &i, sizeof x);
    return x;
}

xr_tol xr_below(double hi)
{
    return xr_bracket(-INFINITY, nextafter(hi, -INFINITY));
}

xr_tol xr_above(double lo)
{
    return xr_bracket(nextafter(lo, INFINITY), INFINITY);
}

int xr_verdict(double measured, double reference, xr_tol t)
{
    if (isnan(measured))
        return 0;
    switch (t.kind) {
    case XR_TOL_EXACT:
        return memcmp(&measured, &reference, sizeof measured) == 0;
    case XR_TOL_ULPS: {
        if (!(t.tol >= 0) || !isfinite(reference) || !isfinite(measured))
            return 0;
        /* the distance as unsigned: exact for any two finite doubles */
        const int64_t a = xr_ordered(measured), b = xr_ordered(reference);
        const uint64_t d = a >= b ? (uint64_t)a - (uint64_t)b : (uint64_t)b - (uint64_t)a;
        return (double)d <= t.tol;
    }
    case XR_TOL_REL:
        return t.tol >= 0 && isfinite(measured) &&
               fabs(measured - reference) <= t.tol * fabs(reference);
    case XR_TOL_ABS:
        return t.tol >= 0 && isfinite(measured) && fabs(measured - reference) <= t.tol;
    case XR_TOL_BRACKET:
        return !isnan(t.lo) && !isnan(t.hi) && measured >= t.lo && measured <= t.hi;
    }
    return 0;
}

int xr_check(xr_ctx *ctx, const char *what, double measured, double reference, xr_tol tol,
             const char *from)
{
    ctx->checks = xr_grow(ctx->checks, &ctx->capchecks, ctx->nchecks, sizeof *ctx->checks);
    xr_checkrec *c = &ctx->checks[ctx->nchecks++];
    c->section = ctx->cur;
    c->what = xr_strdup(what);
    const char *src = from && *from ? from : ctx->tol_from;
    c->tol_from = src ? xr_strdup(src) : NULL;
    c->ours = measured;
    c->expected = reference;
    c->tol = tol;
    /* a tolerance nobody can trace is not a tolerance */
    c->pass = xr_verdict(measured, reference, tol) && c->tol_from != NULL;
    if (!c->pass) {
        char t[96];
        xr_tol_text(t, sizeof t, tol);
        printf("  FAIL %s: %s: ours %.17g, expected %.17g (%s%s)\n", xr_sections[ctx->cur]->name,
               what, measured, reference, t, c->tol_from ? "" : "; no tolerance source");
        fflush(stdout);
    }
    return c->pass;
}

int xr_check_rel(xr_ctx *ctx, const char *what, double measured, double reference, double rel,
                 const char *from)
{
    return xr_check(ctx, what, measured, reference, xr_rel(rel), from);
}

int xr_check_exact(xr_ctx *ctx, const char *what, double measured, double reference,
                   const char *from)
{
    return xr_check(ctx, what, measured, reference, xr_exact(), from);
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

/* ---------------------------------------------------------- self-test --- */

/* The measured values just past the tolerance of c: for each bounded side
 * the first double beyond it, and NaN. Returns how many (at most 3). */
static int xr_mutations(const xr_checkrec *c, double *m)
{
    const double ref = c->expected;
    const xr_tol t = c->tol;
    int n = 0;
    switch (t.kind) {
    case XR_TOL_EXACT:
        m[n++] = nextafter(ref, INFINITY);
        m[n++] = nextafter(ref, -INFINITY);
        break;
    case XR_TOL_ULPS: {
        const double k = floor(t.tol) + 1;
        if (isfinite(ref) && k < 1e15) {
            m[n++] = xr_unordered(xr_ordered(ref) + (int64_t)k);
            m[n++] = xr_unordered(xr_ordered(ref) - (int64_t)k);
        }
        break;
    }
    case XR_TOL_REL:
    case XR_TOL_ABS: {
        const double d = t.kind == XR_TOL_REL ? t.tol * fabs(ref) : t.tol;
        for (int side = -1; side <= 1; side += 2) {
            /* tol (1 + 1e-6) past the reference, at least one double */
            double x = ref + side * d * (1 + 1e-6);
            if (x == ref + side * d || x == ref)
                x = nextafter(ref + side * d, side * INFINITY);
            if (isfinite(d))
                m[n++] = x;
        }
        break;
    }
    case XR_TOL_BRACKET:
        if (isfinite(t.lo))
            m[n++] = nextafter(t.lo, -INFINITY);
        if (isfinite(t.hi))
            m[n++] = nextafter(t.hi, INFINITY);
        break;
    }
    m[n++] = NAN;
    return n;
}

size_t xr_self_test(const xr_ctx *ctx)
{
    char *path = xr_path(ctx->out, "/data/self_test.tsv", NULL);
    FILE *f = xr_create(path);
    free(path);
    if (f)
        fputs("section\tcheck\tkind\tmeasured\tmutant_low\tmutant_high\tcaught\n", f);
    size_t mutated = 0, caught = 0;
    for (size_t i = 0; i < ctx->nchecks; ++i) {
        const xr_checkrec *c = &ctx->checks[i];
        double m[3];
        const int n = xr_mutations(c, m);
        /* a check with only the NaN mutant has no bounded side: it
         * cannot fail on a number, so it is not caught */
        int ok = n > 1;
        for (int k = 0; k < n; ++k)
            ok &= !xr_verdict(m[k], c->expected, c->tol);
        ++mutated;
        caught += ok;
        if (!ok)
            printf("  SURVIVOR %s: %s\n", xr_sections[c->section]->name, c->what);
        if (f) {
            fprintf(f, "%s\t", xr_sections[c->section]->name);
            for (const char *s = c->what; *s; ++s)
                fputc(*s == '\t' || *s == '\n' ? ' ' : *s, f);
            fprintf(f, "\t%s\t%.17g\t%.17g\t%.17g\t%d\n", xr_tol_kind_name(c->tol.kind), c->ours,
                    n > 1 ? m[0] : NAN, n > 2 ? m[1] : NAN, ok);
        }
    }
    if (f && fclose(f) != 0)
        fprintf(stderr, "xpbd-report: error writing data/self_test.tsv\n");
    printf("%zu checks mutated, %zu caught\n", mutated, caught);
    fflush(stdout);
    return mutated - caught;
}

/* ---------------------------------------------------------- references --- */

static xr_refrec *xr_ref_add(xr_ctx *ctx, const char *item, double original, double ours,
                             const char *check, const char *explained, int missing)
{
    ctx->refs = xr_grow(ctx->refs, &ctx->caprefs, ctx->nrefs, sizeof *ctx->refs);
    xr_refrec *r = &ctx->refs[ctx->nrefs++];
    r->section = ctx->cur;
    r->item = xr_strdup(item ? item : "");
    r->explained = explained && *explained ? xr_strdup(explained) : NULL;
    r->check = check && *check ? xr_strdup(check) : NULL;
    r->original = original;
    r->ours = ours;
    r->missing = missing;
    r->verdict = XR_REF_NOT_CHECKED;
    return r;
}

void xr_reference(xr_ctx *ctx, const char *item, double original, double ours,
                  const char *check, const char *explained)
{
    xr_ref_add(ctx, item, original, ours, check, explained, 0);
}

int xr_reference_check(xr_ctx *ctx, const char *item, double original, double ours, xr_tol tol,
                       const char *from, const char *explained)
{
    const int pass = xr_check(ctx, item, ours, original, tol, from);
    xr_ref_add(ctx, item, original, ours, item, explained, 0);
    return pass;
}

void xr_reference_missing(xr_ctx *ctx, const char *item, const char *why)
{
    xr_ref_add(ctx, item, NAN, NAN, NULL, why, 1);
}

void xr_link_references(xr_ctx *ctx, size_t s)
{
    for (size_t i = 0; i < ctx->nrefs; ++i) {
        xr_refrec *r = &ctx->refs[i];
        if (r->section != s || r->missing || !r->check)
            continue;
        r->verdict = 0;
        int found = 0;
        for (size_t j = 0; j < ctx->nchecks && !found; ++j)
            if (ctx->checks[j].section == s && strcmp(ctx->checks[j].what, r->check) == 0) {
                found = 1;
                r->verdict = ctx->checks[j].pass;
            }
        if (!found) {
            char what[400];
            snprintf(what, sizeof what, "reference row '%s' names a check of its section",
                     r->item);
            xr_check(ctx, what, 0, 1, xr_exact(), "framework: a row's verdict is its check's");
        }
    }
}

void xr_count_references(const xr_ctx *ctx, size_t *values, size_t *tested, size_t *passed,
                         size_t *missing)
{
    *values = *tested = *passed = *missing = 0;
    for (size_t i = 0; i < ctx->nrefs; ++i) {
        const xr_refrec *r = &ctx->refs[i];
        if (r->missing) {
            ++*missing;
            continue;
        }
        ++*values;
        if (r->verdict != XR_REF_NOT_CHECKED) {
            ++*tested;
            *passed += r->verdict == 1;
        }
    }
}

void xr_reference_verdict_text(char *out, size_t n, const xr_refrec *r)
{
    if (r->verdict == XR_REF_NOT_CHECKED)
        snprintf(out, n, "not checked");
    else
        snprintf(out, n, "%s", r->verdict ? "PASS" : "FAIL");
}

double xr_deviation_pct(double reference, double ours)
{
    if (!isfinite(reference) || !isfinite(ours) || reference == 0)
        return NAN;
    return 100.0 * (ours - reference) / fabs(reference);
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

const char *xr_tol_kind_name(xr_tol_kind k)
{
    switch (k) {
    case XR_TOL_EXACT:
        return "exact";
    case XR_TOL_ULPS:
        return "ulps";
    case XR_TOL_REL:
        return "relative";
    case XR_TOL_ABS:
        return "absolute";
    case XR_TOL_BRACKET:
        return "bracket";
    }
    return "?";
}

void xr_tol_text(char *out, size_t n, xr_tol t)
{
    char a[40], b[40];
    switch (t.kind) {
    case XR_TOL_EXACT:
        snprintf(out, n, "exact (bitwise)");
        return;
    case XR_TOL_ULPS:
        snprintf(out, n, "<= %g ulps", t.tol);
        return;
    case XR_TOL_REL:
        if (t.tol >= 1e-3)
            snprintf(out, n, "+-%g%%", t.tol * 100.0);
        else
            snprintf(out, n, "rel <= %.2g", t.tol);
        return;
    case XR_TOL_ABS:
        snprintf(out, n, "|d| <= %.3g", t.tol);
        return;
    case XR_TOL_BRACKET:
        xr_num(a, sizeof a, t.lo);
        xr_num(b, sizeof b, t.hi);
        if (isinf(t.lo) && t.lo < 0)
            snprintf(out, n, "<= %s", b);
        else if (isinf(t.hi) && t.hi > 0)
            snprintf(out, n, ">= %s", a);
        else
            snprintf(out, n, "in [%s, %s]", a, b);
        return;
    }
    snprintf(out, n, "?");
}

const char *const xr_check_columns[XR_CHECK_COLS] = {
    "check", "ours", "reference", "tolerance", "tolerance from", "verdict"};

void xr_check_row_of(const xr_checkrec *c, xr_check_row *r)
{
    const int exact = c->tol.kind == XR_TOL_EXACT || c->tol.kind == XR_TOL_ULPS;
    xr_fmt_num(r->ours, sizeof r->ours, c->ours, exact);
    if (c->tol.kind == XR_TOL_BRACKET && isnan(c->expected))
        snprintf(r->expected, sizeof r->expected, "-");
    else
        xr_fmt_num(r->expected, sizeof r->expected, c->expected, exact);
    xr_tol_text(r->tol, sizeof r->tol, c->tol);
    r->cell[0] = c->what;
    r->cell[1] = r->ours;
    r->cell[2] = r->expected;
    r->cell[3] = r->tol;
    r->cell[4] = c->tol_from ? c->tol_from : "-";
    r->cell[5] = c->pass ? "PASS" : "**FAIL**";
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
        xr_check(ctx, what, 0, 1, xr_exact(), "framework: a figure is declared before it is made");
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

void xr_skip_figures(xr_ctx *ctx, const char *why)
{
    ctx->figures_skipped = 1;
    xr_md(ctx, "*Skipped:* %s\n\n", why);
    /* DIR/data/skipped.tsv names the section for the tools that check a
     * run's output (its tables and figures are absent on purpose); one
     * short line appended at a time, the header by whoever creates it */
    char *path = xr_path(ctx->out, "/data/skipped.tsv", NULL);
    FILE *f = path ? fopen(path, "a") : NULL;
    if (f) {
        if (ftell(f) == 0)
            fputs("section\treason\n", f);
        fprintf(f, "%s\t%s\n", xr_sections[ctx->cur]->name, why);
        fclose(f);
    }
    free(path);
}

void xr_check_figures(xr_ctx *ctx, size_t s)
{
    if (ctx->figures_skipped)
        return;
    for (const char *const *g = xr_sections[s]->figures; g && *g; ++g) {
        int made = 0;
        for (size_t i = 0; i < ctx->nfigs && !made; ++i)
            made = ctx->figs[i].section == s && strcmp(ctx->figs[i].name, *g) == 0;
        if (!made) {
            char what[160];
            snprintf(what, sizeof what, "declared figure %s was made", *g);
            xr_check(ctx, what, 0, 1, xr_exact(), "framework: every declared figure is made");
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
 * reader are the same binary): 'C' check, 'F' figure, 'R' reference row, then 'E'
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
    return (xr_marks){ctx->nchecks, ctx->nfigs, ctx->nrefs};
}

int xr_records_write(const xr_ctx *ctx, size_t s, xr_marks from, FILE *f)
{
    for (size_t i = from.checks; i < ctx->nchecks; ++i) {
        const xr_checkrec *c = &ctx->checks[i];
        fputc('C', f);
        put_str(f, c->what);
        put_str(f, c->tol_from);
        put_f64(f, c->ours);
        put_f64(f, c->expected);
        put_u32(f, (uint32_t)c->tol.kind);
        put_f64(f, c->tol.tol);
        put_f64(f, c->tol.lo);
        put_f64(f, c->tol.hi);
        put_u32(f, (uint32_t)c->pass);
    }
    for (size_t i = from.figs; i < ctx->nfigs; ++i) {
        fputc('F', f);
        put_str(f, ctx->figs[i].name);
        put_str(f, ctx->figs[i].caption);
    }
    for (size_t i = from.refs; i < ctx->nrefs; ++i) {
        const xr_refrec *r = &ctx->refs[i];
        fputc('R', f);
        put_str(f, r->item);
        put_str(f, r->explained);
        put_str(f, r->check);
        put_f64(f, r->original);
        put_f64(f, r->ours);
        put_u32(f, (uint32_t)r->missing);
        put_u32(f, (uint32_t)r->verdict);
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
            if (get_str(f, &c->what) || get_str(f, &c->tol_from) || get_f64(f, &c->ours) ||
                get_f64(f, &c->expected) || get_u32(f, &u1) || get_f64(f, &c->tol.tol) ||
                get_f64(f, &c->tol.lo) || get_f64(f, &c->tol.hi) || get_u32(f, &u2) ||
                u1 > XR_TOL_BRACKET)
                return -1;
            c->tol.kind = (xr_tol_kind)u1;
            c->pass = (int)u2;
            ++ctx->nchecks;
        } else if (tag == 'F') {
            ctx->figs = xr_grow(ctx->figs, &ctx->capfigs, ctx->nfigs, sizeof *ctx->figs);
            xr_figrec *g = &ctx->figs[ctx->nfigs];
            memset(g, 0, sizeof *g);
            if (get_str(f, &g->name) || get_str(f, &g->caption))
                return -1;
            ++ctx->nfigs;
        } else if (tag == 'R') {
            ctx->refs = xr_grow(ctx->refs, &ctx->caprefs, ctx->nrefs, sizeof *ctx->refs);
            xr_refrec *r = &ctx->refs[ctx->nrefs];
            memset(r, 0, sizeof *r);
            if (get_str(f, &r->item) || get_str(f, &r->explained) || get_str(f, &r->check) ||
                get_f64(f, &r->original) || get_f64(f, &r->ours) || get_u32(f, &u1) ||
                get_u32(f, &u2))
                return -1;
            r->missing = (int)u1;
            r->verdict = (int)(int32_t)u2;
            ++ctx->nrefs;
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
            for (size_t i = m.refs; i < ctx->nrefs; ++i)
                ctx->refs[i].section = s;
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
    XR_SORT_BY_SECTION(ctx->refs, ctx->nrefs, xr_refrec)
}
