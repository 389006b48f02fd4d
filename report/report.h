/* report.h: the framework every xpbd-report section is written against.
 *
 * A section is a function int run(xr_ctx *) registered in sections.def. It
 * computes its sweep with the public xpbd API (and scenes.h), writes its data
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

/* The sections (sections.def). */
#define XR_SECTION(name, desc) int xr_section_##name(xr_ctx *ctx);
#include "sections.def"
#undef XR_SECTION

#endif
