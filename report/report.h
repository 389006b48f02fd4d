/* SPDX-License-Identifier: MIT */
/* report.h: the framework every xpbd-report section is written against.
 *
 * A section is a `const xr_section xr_section_NAME` defined in its own .c
 * file (name, title, figures, tables, run function); sections.def lists the
 * names in report order, so a listed section that is not defined is a link
 * error. Its run function computes its sweep with the public xpbd API (and scenes.h), writes its data
 * with xr_table_*, records its checks with xr_check, appends its prose and
 * tables to report.md with xr_md, and names its figures with xr_figure (the
 * framework renders plots/NAME.gp with gnuplot into DIR/fig/NAME.png/.pdf
 * and collects them into DIR/report.pdf). Returns 0, or -1 if it could not
 * run at all (counted as a failed check). */
#ifndef XPBD_REPORT_H
#define XPBD_REPORT_H

#include <stdio.h>
#include <xpbd/xpbd.h>

#include "scenes.h"

typedef struct xr_ctx xr_ctx;

/* 1 under --quick: smaller sweeps, every closed-form check still made. */
int xr_quick(const xr_ctx *ctx);
/* --isa NAME (XPBD_ISA_AUTO when not given): the path the scenes run on. */
xpbd_isa xr_isa(const xr_ctx *ctx);

/* Opens DIR/data/NAME.tsv and writes the header line: the column names
 * given as one tab-separated string. Returns NULL on I/O error (reported).
 * Write rows with xr_row (doubles as %.17g, tab-separated) or fprintf. */
FILE *xr_table_open(xr_ctx *ctx, const char *name, const char *columns);
/* Writes n doubles as one row, %.17g, tab-separated, newline. */
void xr_row(FILE *f, int n, const double *v);
void xr_table_close(FILE *f);

/* Records a check: pass decides PASS/FAIL. what names the quantity,
 * ours/expected are printed with %.6g, tol describes the tolerance ("exact",
 * "1%", "+-5%"), seed is the seed's number as text or NULL. Appends a row to
 * the section's check table in report.md and to DIR/data/checks.tsv.
 * Returns pass. */
int xr_check(xr_ctx *ctx, const char *what, double ours, double expected, const char *tol,
             const char *seed, int pass);
/* Checks |ours - expected| <= rel*|expected| (relative) */
int xr_check_rel(xr_ctx *ctx, const char *what, double ours, double expected, double rel,
                 const char *seed);
/* Checks ours == expected bitwise (doubles compared with memcmp) */
int xr_check_exact(xr_ctx *ctx, const char *what, double ours, double expected, const char *seed);

/* Formats v as the shortest decimal that reads back as the same double
 * (the round-trip form SPEC prints the seed's numbers in) into buf, which
 * should hold 32 chars; returns buf. */
const char *xr_num(char *buf, size_t size, double v);

/* Appends printf-formatted markdown to report.md (inside the section). */
void xr_md(xr_ctx *ctx, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Declares figure NAME (plots/NAME.gp, data DIR/data/NAME.tsv unless the
 * script reads more files), with a caption citing the SPEC section and key
 * numbers. The framework renders it and links it in report.md. */
void xr_figure(xr_ctx *ctx, const char *name, const char *caption);

/* Progress for long sweeps: shown on stderr only when it is a terminal. */
void xr_progress(xr_ctx *ctx, const char *what, int done, int total);

/* Where the tolerance of the checks comes from ("closed form; f64 rounding
 * 1e-12", "seed: SPEC S2 Table 2 prints 3 digits"): shown in the check
 * table's "tolerance from" column. Applies to every check the section
 * records after it, until called again; NULL or "" clears it. */
void xr_tolerance_source(xr_ctx *ctx, const char *why);

/* One row of the summary against the seeds (the first thing in report.md
 * and report.pdf): the seed's number, ours, and the deviation in % computed
 * by the framework ((ours - seed) / |seed|). `explained` is NULL when ours
 * agrees within the stated tolerance, else the heading text of the
 * paragraph (in this section's markdown, written with xr_md as "### TEXT")
 * that explains the difference; the summary links to it. */
void xr_seed_value(xr_ctx *ctx, const char *item, double seed, double ours,
                   const char *explained);
/* A seed item this report does not reproduce, and why. */
void xr_seed_missing(xr_ctx *ctx, const char *item, const char *why);

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

/* A section, defined next to its code:
 *   const xr_section xr_section_s0_lambda = {
 *       .name = "s0_lambda", .title = "...", .spec = "S0",
 *       .figures = XR_FIGURES("s0_lambda"),
 *       .tables = XR_TABLES({"s0_lambda", "stretch per iteration"}),
 *       .run = s0_lambda_run};
 * and listed in sections.def. */
typedef struct xr_section {
    const char *name;                  /* data/fig stem and --only name */
    const char *title;                 /* one line, physics words */
    const char *spec;                  /* the SPEC part it reproduces ("S1 4.1"), or "" */
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
