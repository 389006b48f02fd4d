/* SPDX-License-Identifier: MIT */
/* fw.h: the inside of the xpbd-report framework (sections see only
 * report.h). The files behind it, one concept each (report/fw/):
 *
 *   main.c     command line: options, --list, --help, exit status
 *   run.c      running the report: timed sections first, alone; then the
 *              others in child processes, each section's figures as soon
 *              as it is done, and report.pdf, two processes at a time;
 *              results merged in section order
 *   record.c   what sections record: tables, checks (their verdicts
 *              computed from a tolerance kind) and where their tolerances
 *              come from, reference values, markdown, figures, progress;
 *              the record stream a child sends back; the self-test that
 *              perturbs every check
 *   sweep.c    the sweep table: a section's points run in order into one
 *              data table
 *   tiers.c    the S3 iteration-tier rule, checked by the sections that
 *              show iteration tiers
 *   util.c     growing buffers, paths, files, child processes
 *   gnuplot.c  gnuplot string quoting and the figure runner (gnuplot
 *              processes that draw each figure as its data appears)
 *   prov.c     provenance: commit, date, command, compiler, CPU, OS, tools,
 *              load
 *   matter.c   the hand-out's parts (one per scenario, with its description),
 *              "How to read this", conclusions, references, appendix text
 *   md.c       report.md and the data/checks, figures, references tables
 *   pdf.c      the typeset report.pdf (groff -ms, gropdf)
 *   common.gp  the styling every figure's script loads
 *
 * The sections are report/sections/NAME.c, listed in sections.def. */
#ifndef XPBD_REPORT_FW_H
#define XPBD_REPORT_FW_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

#include "report.h"

/* Exit codes (documented in --help). */
enum {
    XR_EXIT_OK = 0,
    XR_EXIT_CHECKS = 1,
    XR_EXIT_USAGE = 2,
    XR_EXIT_FIGURES = 3,
    XR_EXIT_PDF = 4
};

/* The sections in report order (sections.def), defined in run.c. */
enum {
    XR_NSECTIONS = 0
#define XR_SECTION(name) +1
#include "sections.def"
#undef XR_SECTION
};
extern const xr_section *const xr_sections[XR_NSECTIONS];

/* ------------------------------------------------------------- util.c --- */

typedef struct xr_buf {
    char *s;
    size_t len, cap;
} xr_buf;

/* Prints "out of memory" and exits with XR_EXIT_CHECKS. */
void xr_die_nomem(void);
/* Tables of this process that xr_table_open or xr_table_close found not
 * written whole (record.c); the runner fails the section they belong to. */
int xr_tables_failed_count(void);
void xr_buf_vprintf(xr_buf *b, const char *fmt, va_list ap);
void xr_buf_printf(xr_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Appends n bytes of s. */
void xr_buf_put(xr_buf *b, const char *s, size_t n);
char *xr_strdup(const char *s);
/* a + b + c (b, c may be NULL), malloc'd. */
char *xr_path(const char *a, const char *b, const char *c);
/* `to` as a path relative to the directory from_dir ("../share/xpbd/plots"),
 * both resolved first; NULL when either does not exist. Free it. */
char *xr_path_relative(const char *from_dir, const char *to);
/* The report's notation, in one place. Sections write symbols in ASCII
 * ("alpha~ lambda", "h^2", "3^-k"); report.md prints them in Unicode
 * ("α̃ λ", "h²", "3⁻ᵏ") and report.pdf in groff's Greek (\(*a ...) with
 * raised exponents. The words are whole words only (s0_lambda and
 * `lambda` in code stay as written): alpha~, alpha, lambda, beta, mu,
 * omega, rho, Delta; an exponent is ^ after a letter, digit, ')' or '~'
 * followed by digits, one letter or a parenthesised group. The Unicode
 * forms are recognised too, so a section may also write them.
 * xr_notation_at: the notation starting at s[i] (s[0..n), i at a word
 * boundary) appended to out as UTF-8 (roff = 0) or troff (roff = 1);
 * returns the input bytes consumed, 0 when there is none (nothing
 * appended). */
size_t xr_notation_at(xr_buf *out, const char *s, size_t i, size_t n, int roff);
/* text[0..n) with its notation in Unicode, outside `code` spans, link
 * targets "](...)" and indented code lines: appended to out. */
void xr_notation_md(xr_buf *out, const char *text, size_t n);
/* Grows arr (of *cap elements of size sz) to hold n + 1 elements. */
void *xr_grow(void *arr, size_t *cap, size_t n, size_t sz);
/* Opens path for writing; on failure says why on stderr and returns NULL. */
FILE *xr_create(const char *path);
int xr_mkdir_p(const char *path);
int xr_is_file(const char *path); /* a regular file of size > 0 */
int xr_is_dir(const char *path);
/* The directory rel (e.g. "../share/xpbd/plots") beside this process's own
 * executable (/proc/self/exe, else argv0 when it holds a '/'), resolved
 * and malloc'd, or NULL when it is not a directory: how the installed
 * tools find their data wherever the install tree was copied, with no
 * path compiled in. */
char *xr_dir_beside_exe(const char *argv0, const char *rel);
/* The file's bytes (NUL-terminated; *len set when len is not NULL), or NULL. */
char *xr_slurp(const char *path, size_t *len);
double xr_now(void); /* monotonic seconds */
/* Starts argv[0] with stdin from /dev/null and stdout+stderr to log (or
 * /dev/null). Returns the pid, or -1. Never goes through a shell. */
pid_t xr_spawn(char *const argv[], const char *log);
/* Exit status of a finished child (127: could not be started). */
int xr_wait(pid_t pid);
int xr_run(char *const argv[], const char *log);
/* Runs argv to completion, stdout to out_path, stderr to err_path (NULL:
 * /dev/null); returns its exit status (127: could not be started). */
int xr_run_to(char *const argv[], const char *out_path, const char *err_path);
/* getenv(env) if set and not empty, else dflt. */
const char *xr_program(const char *env, const char *dflt);

/* A program run by xr_run_jobs: argv (NULL-terminated, malloc'd strings),
 * log (kept on failure, removed on success), target (must exist after a
 * clean exit, then *done = 1). */
#define XR_JOB_ARGS 12
typedef struct xr_job {
    char *argv[XR_JOB_ARGS];
    char *log;
    char *target, *target2; /* the files it makes (target2 may be NULL) */
    int *done, *done2;      /* set to 1 when the job exits 0 and its file exists */
    pid_t pid;
} xr_job;
void xr_job_free(xr_job *j);
/* Runs the jobs, `width` at a time; reports progress through ctx (may be
 * NULL) and every failure, with its log, on stderr. */
void xr_run_jobs(xr_ctx *ctx, xr_job *jobs, size_t n, size_t width);

/* ----------------------------------------------------------- record.c --- */

typedef struct xr_checkrec {
    size_t section;
    char *what, *tol_from;
    double ours, expected;
    xr_tol tol;
    int pass; /* xr_verdict(ours, expected, tol), unless the check itself is malformed */
} xr_checkrec;

typedef struct xr_figrec {
    size_t section;
    char *name, *caption;
    int png, pdf; /* rendered */
} xr_figrec;

/* One row of the summary against the reference values; missing: an item
 * not reproduced (why in `explained`, the numbers unused). check: the name
 * of the check whose verdict the row takes, or NULL (not checked). */
enum { XR_REF_NOT_CHECKED = -1 };
typedef struct xr_refrec {
    size_t section;
    char *item, *explained, *check;
    double original, ours;
    int missing;
    int verdict; /* 1 PASS, 0 FAIL, XR_REF_NOT_CHECKED; set once the section ran */
} xr_refrec;

typedef struct xr_secrec {
    int ran;    /* selected and run */
    int status; /* what run() returned */
    double seconds;
    xr_buf md; /* the section's prose and tables */
} xr_secrec;

/* Where and on what the report ran (prov.c): enough to rebuild the
 * run on another machine, and no path of the machine that made it. */
typedef struct xr_prov {
    char commit[96];    /* git commit (+ " (modified)"), or "unknown" */
    char date[64];      /* UTC, ISO 8601 */
    char command[512];  /* the command line, program by its name alone */
    char compiler[96];  /* compiler and version the report was built with */
    char flags[256];    /* build type and C flags */
    char cpu[128];      /* model name from /proc/cpuinfo, or "unknown" */
    char cpu_id[96];    /* vendor, family, model, stepping */
    char cpu_flags[160]; /* the CPU's flags that decide the ISA paths */
    char os[192];       /* distribution (os-release), kernel and machine */
    char isa[96];       /* path the scenes ran on, and the best one */
    char tools[192];    /* gnuplot's and groff's versions */
    char load[96];      /* 1-minute load average at the start and the end */
    char version[32];   /* xpbd version */
    double load_start, load_end;
} xr_prov;

struct xr_ctx {
    const char *out;
    const char *plots;
    int quick;
    xpbd_isa isa;
    int want_png, want_pdf;
    int tty;
    int jobs;   /* sections run side by side (untimed ones) */
    int child;  /* 1 in a child process running one section */
    size_t cur; /* running section */
    int figures_skipped; /* the running section made none of its figures, on purpose */
    xr_secrec sec[XR_NSECTIONS];
    xr_checkrec *checks;
    size_t nchecks, capchecks;
    xr_figrec *figs;
    size_t nfigs, capfigs;
    xr_refrec *refs;
    size_t nrefs, caprefs;
    char *tol_from;     /* xr_tolerance_source of the running section */
    int progress_len;   /* chars of the progress line on screen */
    double progress_t;  /* last progress print, s */
    xr_prov prov;
};

/* %.6g, or (exact, ulps) the shortest form that reads back as the same
 * double. */
void xr_fmt_num(char *out, size_t n, double v, int exact);
/* The tolerance as text: "exact (bitwise)", "<= 4 ulps", "rel <= 1e-12",
 * "+-2%", "|d| <= 1e-15", "in [0.85, 1]", "<= 0.1", ">= 3". */
void xr_tol_text(char *out, size_t n, xr_tol tol);
/* The name of a kind: exact, ulps, relative, absolute, bracket. */
const char *xr_tol_kind_name(xr_tol_kind k);
/* A section's check table, as report.md and report.pdf both print it: the
 * column names, and per check its cells as text (markdown inline text;
 * the numbers through xr_fmt_num). */
enum { XR_CHECK_COLS = 6 };
extern const char *const xr_check_columns[XR_CHECK_COLS];
typedef struct xr_check_row {
    const char *cell[XR_CHECK_COLS]; /* into the check and into the buffers below */
    char ours[40], expected[40], tol[96];
} xr_check_row;
/* The row of check c; r must outlive its use of the cells. */
void xr_check_row_of(const xr_checkrec *c, xr_check_row *r);
/* After section s ran: each of its reference rows takes the verdict of the
 * check it names (a name no check of s has: a failed check). */
void xr_link_references(xr_ctx *ctx, size_t s);
/* Reference rows: values compared, of them tested, passed; not
 * reproduced. */
void xr_count_references(const xr_ctx *ctx, size_t *values, size_t *tested, size_t *passed,
                         size_t *missing);
/* The summary's verdict cell of a row: "PASS (check)", "FAIL (check)",
 * "not checked". */
void xr_reference_verdict_text(char *out, size_t n, const xr_refrec *r);
/* --self-test: perturbs every recorded check's measured value just past
 * its tolerance on each bounded side (and to NaN) and re-evaluates it;
 * prints "N checks mutated, N caught" and every survivor; writes
 * DIR/data/self_test.tsv. Returns the number of survivors. */
size_t xr_self_test(const xr_ctx *ctx);
/* (ours - reference) / |reference| in %; NaN when the reference is 0 or
 * either is not finite. */
double xr_deviation_pct(double reference, double ours);
/* After a section ran: a failed check per declared figure it did not make. */
void xr_check_figures(xr_ctx *ctx, size_t s);
void xr_progress_line(xr_ctx *ctx, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void xr_progress_clear(xr_ctx *ctx);
/* Passed and failed checks of section s (every section when s == SIZE_MAX). */
void xr_count_checks(const xr_ctx *ctx, size_t s, size_t *passed, size_t *failed);

/* The record stream: what a child process running one section sends back.
 * xr_records_write writes every record made from the counts in `from` on,
 * plus the section's markdown, status and time; xr_records_read appends a
 * stream to ctx. Return 0, or -1 (I/O error, or a malformed stream). */
typedef struct xr_marks {
    size_t checks, figs, refs;
} xr_marks;
xr_marks xr_records_mark(const xr_ctx *ctx);
int xr_records_write(const xr_ctx *ctx, size_t s, xr_marks from, FILE *f);
int xr_records_read(xr_ctx *ctx, FILE *f);
/* Sorts checks, figures and reference rows by section, keeping each section's order. */
void xr_records_sort(xr_ctx *ctx);

/* -------------------------------------------------------------- run.c --- */

/* What xr_run_report did and when (seconds since it started). */
typedef struct xr_run_result {
    int gnuplot;      /* gnuplot was found */
    int pdf;          /* xr_write_pdf's result; 0 when not asked for */
    double sections;  /* the last section done */
    double figures;   /* the last figure drawn */
    double pdf_start, pdf_end;
    double gnuplot_s; /* summed drawing time of the figures */
    double total;
} xr_run_result;

/* Runs the selected sections (sel[s] != 0), printing one line per section;
 * draws their figures with gnuplot as each section finishes and, once
 * every section and PDF figure is done, typesets report.pdf (if pdf is
 * wanted) while the PNGs are still drawn: ctx->jobs processes at a time
 * in all. Sections that time something run first, alone. */
xr_run_result xr_run_report(xr_ctx *ctx, const int *sel);

/* ---------------------------------------------------------- gnuplot.c --- */

/* The plotter: gnuplot processes that stay up and draw one figure after
 * another as their data appears (see gnuplot.c). The PDFs go
 * first, as report.pdf waits for them; the PNGs after. A figure drawn
 * sets its xr_figrec's png or pdf flag. */
typedef struct xr_plotter xr_plotter;
struct pollfd;
/* Up to `workers` gnuplot processes. When gnuplot is missing it says how
 * to install it, and every figure added is left undrawn. */
xr_plotter *xr_plotter_new(xr_ctx *ctx, size_t workers);
int xr_plotter_has_gnuplot(const xr_plotter *p);
/* Queues figure `fig` (plots/fig.gp) in the requested formats. */
void xr_plotter_add(xr_plotter *p, const char *fig);
/* Figures being drawn now; figures queued or being drawn (PDFs only if
 * pdf_only). */
size_t xr_plotter_running(const xr_plotter *p);
size_t xr_plotter_pending(const xr_plotter *p, int pdf_only);
/* Gives the next queued figure (a PDF if any, else a PNG unless pdf_only)
 * to an idle process; 1 if one was started. */
int xr_plotter_start(xr_plotter *p, int pdf_only);
/* The descriptors to wait on (at most one per process), and what to do
 * when poll() says they are ready. */
size_t xr_plotter_pollfds(const xr_plotter *p, struct pollfd *fds);
void xr_plotter_ready(xr_plotter *p, const struct pollfd *fds, size_t n);
/* Stops the processes; returns the summed drawing time of every figure. */
double xr_plotter_end(xr_plotter *p);

/* ------------------------------------------------------------- prov.c --- */

void xr_prov_start(xr_prov *p, xpbd_isa isa, int argc, char **argv);
void xr_prov_end(xr_prov *p);
/* Row i of the provenance table both outputs print, in their order: its
 * value, with its label in *label; NULL past the last row. */
const char *xr_prov_row(const xr_prov *p, size_t i, const char **label);

/* ----------------------------------------------------------- matter.c --- */

/* The hand-out's structure both outputs follow: the sections grouped in
 * parts, one per reference scenario (a section belongs to the first part
 * whose prefix its name starts with; the last part, prefix "", takes the
 * rest), each part introduced by its scenario's description. */
#define XR_NPARTS 5
typedef struct xr_part {
    const char *prefix; /* of the section names it holds */
    const char *title;  /* its heading */
    const char *intro;  /* markdown: the scenario, so no other document is needed */
} xr_part;
extern const xr_part xr_parts[XR_NPARTS];
size_t xr_part_of(const xr_section *x);
/* The sections run, in the order printed (by part, sections.def order
 * within one) into order[]; returns how many. */
size_t xr_section_order(const xr_ctx *ctx, size_t *order);
/* Section s's number as printed (1, 2, ... in that order), 0 if not run. */
size_t xr_section_number(const xr_ctx *ctx, size_t s);
/* Markdown: "How to read this" (notation, what a check is, what the
 * tolerances mean, the iteration-tier rule), its paragraphs NULL-terminated;
 * the references; the appendix's introduction. */
extern const char *const xr_how_to_read[];
extern const char *const xr_references;
extern const char *const xr_appendix_intro;
/* Markdown: the conclusions and limitations, with this run's counts. */
void xr_conclusions(xr_buf *b, const xr_ctx *ctx);

/* --------------------------------------------------------------- md.c --- */

int xr_write_checks_tsv(const xr_ctx *ctx);
void xr_write_figures_tsv(const xr_ctx *ctx);
void xr_write_references_tsv(const xr_ctx *ctx);
void xr_write_md(const xr_ctx *ctx, int gnuplot_ok, int pdf_ok);

/* -------------------------------------------------------------- pdf.c --- */

/* Typesets DIR/report.pdf with groff. Returns 1 when written, 0 when groff
 * failed, -1 when groff (or gropdf) is not installed (a message on stderr
 * says how to install it). */
int xr_write_pdf(const xr_ctx *ctx);

#endif
