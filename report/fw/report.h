/* SPDX-License-Identifier: MIT */
/* report.h: the framework every xpbd-report section is written against.
 *
 * A section is a `const xr_section xr_section_NAME` defined in its own file,
 * report/sections/NAME.c (name, title, figures, tables, run function);
 * report/sections/sections.def lists the names in report order, so a listed
 * section that is not defined is a link error. Its run function computes its
 * sweep with the public xpbd API (and scenes.h), writes its data with
 * xr_table_*, records its checks with xr_check, appends its prose and tables
 * to report.md with xr_md, and names its figures with xr_figure (the
 * framework renders report/sections/NAME.gp, installed as plots/NAME.gp,
 * with gnuplot into DIR/fig/NAME.png/.pdf and collects them into
 * DIR/report.pdf). Returns 0, or -1 if it could not
 * run at all (counted as a failed check). */
#ifndef XPBD_REPORT_H
#define XPBD_REPORT_H

#include <math.h>
#include <stdio.h>
#include <xpbd/xpbd.h>

#include "scenes.h"

typedef struct xr_ctx xr_ctx;

/* 1 under --quick: smaller sweeps, every closed-form check still made. */
int xr_quick(const xr_ctx *ctx);
/* --isa NAME (XPBD_ISA_AUTO when not given): the path the scenes run on. */
xpbd_isa xr_isa(const xr_ctx *ctx);

/* Opens DIR/data/NAME.tsv for writing and writes the header line: the
 * column names given as one tab-separated string. The table is written as
 * NAME.tsv.part and becomes NAME.tsv only when xr_table_close finds it
 * written whole, so no half-written table is left. Returns NULL on I/O
 * error (reported). Write rows with xr_row (doubles as %.17g,
 * tab-separated) or fprintf. */
FILE *xr_table_open(xr_ctx *ctx, const char *name, const char *columns);
/* Writes n doubles as one row, %.17g, tab-separated, newline. */
void xr_row(FILE *f, int n, const double *v);
/* Closes a table of xr_table_open (NULL: nothing): 0 when it was written
 * whole and is now NAME.tsv, -1 when a write failed (reported; the .part
 * removed). Either way the framework fails the section for a table that
 * was not written (it counts them). */
int xr_table_close(FILE *f);

/* A sweep table: `points` points run in order, point i by point(ctx, i,
 * row, arg), which fills row[0 .. cols) and returns 0 (the row is written
 * to DIR/data/TABLE.tsv, %.17g as xr_row), 1 (no row for this point) or -1
 * (the point failed: the sweep stops). table NULL: the points run and no
 * table is written; progress NULL: none shown (else xr_progress with that
 * label after every point). Returns 0, or -1 when the table could not be
 * opened or a point failed; the table is closed either way. */
#define XR_SWEEP_MAX_COLS 32
typedef struct xr_sweep {
    const char *table;    /* DIR/data/TABLE.tsv, or NULL */
    const char *columns;  /* its header: the column names, tab-separated */
    const char *progress; /* the progress label, or NULL */
    int points, cols;
    int (*point)(xr_ctx *ctx, int i, double *row, void *arg);
    void *arg;
} xr_sweep;
int xr_sweep_table(xr_ctx *ctx, const xr_sweep *s);

/* How a check compares its measured value with its reference value. The
 * framework computes every verdict from these, so a check can be printed,
 * counted and perturbed (--self-test) the same way:
 *   XR_TOL_EXACT    measured == reference, bit for bit (memcmp): counts,
 *                   statuses, and results that must be reproduced exactly
 *   XR_TOL_ULPS     |measured - reference| <= tol units in the last place
 *                   of the reference (tol whole ulps)
 *   XR_TOL_REL      |measured - reference| <= tol |reference|
 *   XR_TOL_ABS      |measured - reference| <= tol
 *   XR_TOL_BRACKET  lo <= measured <= hi; an infinite end is unbounded (a
 *                   one-sided check), the reference is only printed
 * A measured value that is NaN fails every kind; so does a tolerance that
 * is negative or NaN. */
typedef enum xr_tol_kind {
    XR_TOL_EXACT,
    XR_TOL_ULPS,
    XR_TOL_REL,
    XR_TOL_ABS,
    XR_TOL_BRACKET
} xr_tol_kind;

typedef struct xr_tol {
    xr_tol_kind kind;
    double tol;    /* ulps, relative or absolute bound */
    double lo, hi; /* XR_TOL_BRACKET */
} xr_tol;

static inline xr_tol xr_exact(void)
{
    return (xr_tol){XR_TOL_EXACT, 0, 0, 0};
}
static inline xr_tol xr_ulps(double n)
{
    return (xr_tol){XR_TOL_ULPS, n, 0, 0};
}
static inline xr_tol xr_rel(double r)
{
    return (xr_tol){XR_TOL_REL, r, 0, 0};
}
static inline xr_tol xr_abs(double a)
{
    return (xr_tol){XR_TOL_ABS, a, 0, 0};
}
static inline xr_tol xr_bracket(double lo, double hi)
{
    return (xr_tol){XR_TOL_BRACKET, 0, lo, hi};
}
/* measured <= hi, and measured >= lo (one-sided brackets) */
static inline xr_tol xr_at_most(double hi)
{
    return (xr_tol){XR_TOL_BRACKET, 0, -INFINITY, hi};
}
static inline xr_tol xr_at_least(double lo)
{
    return (xr_tol){XR_TOL_BRACKET, 0, lo, INFINITY};
}
/* measured < hi, measured > lo: the bracket's end moved one double inwards */
xr_tol xr_below(double hi);
xr_tol xr_above(double lo);

/* The verdict of one comparison: 1 PASS, 0 FAIL (see xr_tol_kind). */
int xr_verdict(double measured, double reference, xr_tol tol);

/* Records a check: what names the quantity, measured is ours, reference
 * the closed form or expected value, tol how they are compared; the
 * framework computes the verdict. from says where the tolerance comes from
 * (its error model: "f64 rounding, ~10 operations of magnitude 1: 4 ulps");
 * NULL takes the section's xr_tolerance_source. A check with neither
 * fails: every tolerance's source is in its row. Appends a row to the
 * section's check table in report.md and to DIR/data/checks.tsv. Returns
 * the verdict. */
int xr_check(xr_ctx *ctx, const char *what, double measured, double reference, xr_tol tol,
             const char *from);
/* Thin forms: relative, and exact (bitwise). */
int xr_check_rel(xr_ctx *ctx, const char *what, double measured, double reference, double rel,
                 const char *from);
int xr_check_exact(xr_ctx *ctx, const char *what, double measured, double reference,
                   const char *from);

/* Formats v as the shortest decimal that reads back as the same double
 * (the round-trip form the reference scenarios print their numbers in) into buf, which
 * should hold 32 chars; returns buf. */
const char *xr_num(char *buf, size_t size, double v);

/* Appends printf-formatted markdown to report.md (inside the section). */
void xr_md(xr_ctx *ctx, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Declares figure NAME (report/sections/NAME.gp, data DIR/data/NAME.tsv unless the
 * script reads more files), with a caption naming the scenario and key
 * numbers. The framework renders it and links it in report.md. */
void xr_figure(xr_ctx *ctx, const char *name, const char *caption);

/* The running section makes none of its declared figures (nor tables or
 * checks) this run, and says why in its text ("*Skipped:* WHY") and in
 * DIR/data/skipped.tsv (section, reason): a section that needs what this
 * build lacks (a peer engine). Without it every declared figure must be
 * made (a failed check otherwise). */
void xr_skip_figures(xr_ctx *ctx, const char *why);

/* Progress for long sweeps: shown on stderr only when it is a terminal. */
void xr_progress(xr_ctx *ctx, const char *what, int done, int total);

/* Where the tolerance of the checks comes from ("closed form; f64 rounding
 * 1e-12", "original measurement: 3 digits printed"): shown in the
 * check table's "tolerance from" column. Applies to every check the section
 * records after it with from = NULL, until called again; NULL or "" clears
 * it. */
void xr_tolerance_source(xr_ctx *ctx, const char *why);

/* One row of the summary against the reference values (the first thing in
 * report.md and report.pdf): the original measurement, ours, and the
 * deviation in % computed by the framework ((ours - reference) /
 * |reference|). The row's verdict is that of the check named `check` (its
 * `what`, recorded by this section before or after the row); NULL: the row
 * is not checked, and the summary says so. A name no check of the section
 * has is a failed check. `explained` is NULL, or the heading text of the
 * paragraph (in this section's markdown, written with xr_md as "### TEXT")
 * that explains a difference; the summary links to it. */
void xr_reference(xr_ctx *ctx, const char *item, double original, double ours,
                  const char *check, const char *explained);
/* A row whose verdict is a tolerance on its own two numbers: records the
 * check (named item, ours against the original measurement) and links the
 * row to it. Returns the verdict. */
int xr_reference_check(xr_ctx *ctx, const char *item, double original, double ours, xr_tol tol,
                       const char *from, const char *explained);
/* A reference item this report does not reproduce, and why. */
void xr_reference_missing(xr_ctx *ctx, const char *item, const char *why);

/* The S3 iteration-tier rule (tiers.c: its statement and error
 * model), for one scene at one compliance and substep count: records the
 * check that the 4- and 10-iteration tiers, lambda kept, agree to the
 * 4-iteration tier's unconverged residual rho^4/(1 - rho^4), rho =
 * (r4/r1)^(1/3) measured on the scene, plus the quantity's own resolution
 * (drift), and, when the lambda-reset tiers are
 * given, that they differ by more than X. Appends the row to the section's
 * tier table; state_rule = 1 writes the rule and the table's head first
 * (the section's first call). Returns the verdict. */
typedef struct xr_tiers {
    const char *scene;    /* "chain", "tet cube" */
    const char *quantity; /* what x is: "stretch", "sag" */
    double alpha;         /* compliance, m/N */
    double mass;          /* kg of a particle: alpha~ m = alpha n_s^2 / h^2 m, h = 1/60 s */
    unsigned substeps;
    double r1, r4;        /* max |C + alpha~ lambda| after 1 and 4 iterations of one substep */
    double x4, x10;       /* the quantity at 4 and 10 iterations, lambda kept */
    double reset4, reset10; /* the same with lambda reset every iteration, or NAN */
    double drift;           /* relative resolution of x10: how much it still moves */
    const char *drift_from; /* over what: "the halves of its averaging window" */
    int frames;             /* frames of the runs (the rigid limit's bound compounds over them) */
    int state_rule;
} xr_tiers;
int xr_iteration_tiers(xr_ctx *ctx, const xr_tiers *t);

/* Renders the plots script `script_path` (reading data under `data_dir`:
 * gnuplot gets data='DATA_DIR/STEM.tsv' and datadir='DATA_DIR/', STEM the
 * last component of out_stem) into out_stem.png and out_stem.pdf, the two
 * gnuplot processes running side by side. Returns 0, or -1 with a message
 * on stderr (gnuplot missing: says how to install it; a script error: its
 * output). */
int xr_gnuplot_render(const char *script_path, const char *data_dir, const char *out_stem);

/* A data table a section writes, for --list: name and one-line description. */
typedef struct xr_table_desc {
    const char *name;
    const char *desc;
} xr_table_desc;

/* A section, defined at the end of its file report/sections/NAME.c:
 *   const xr_section xr_section_s0_lambda = {
 *       .name = "s0_lambda", .title = "...", .scenario = "S0: one distance constraint",
 *       .figures = XR_FIGURES("s0_lambda"),
 *       .tables = XR_TABLES({"s0_lambda", "stretch per iteration"}),
 *       .run = s0_lambda_run};
 * and listed, one XR_SECTION(NAME) line, in report/sections/sections.def. */
typedef struct xr_section {
    const char *name;                  /* data/fig stem and --only name */
    const char *title;                 /* one line, physics words */
    const char *scenario;              /* the reference scenario part it reproduces ("S1: the hanging chain, explicit springs"), or "" */
    const char *const *figures;        /* NULL-terminated figure names it declares */
    const xr_table_desc *tables;       /* {NULL, NULL}-terminated data tables, or NULL */
    int timed;                         /* 1: measures time, so it runs alone */
    int (*run)(xr_ctx *ctx);
} xr_section;
#define XR_FIGURES(...) ((const char *const[]){__VA_ARGS__, NULL})
#define XR_TABLES(...) ((const xr_table_desc[]){__VA_ARGS__, {NULL, NULL}})

/* The sections, in report order (sections.def). */
#define XR_SECTION(name) extern const xr_section xr_section_##name;
#include "sections.def"
#undef XR_SECTION

#endif
