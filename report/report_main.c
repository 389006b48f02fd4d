/* xpbd-report: command line and framework (see report.h).
 *
 * Flow: parse options -> run the selected sections in sections.def order
 * (each writes DIR/data/NAME.tsv, records checks, markdown and figures) ->
 * render every declared figure with gnuplot (plots/NAME.gp, two processes at
 * a time on this class of machine) -> write DIR/data/checks.tsv and
 * DIR/report.md -> make one caption page per figure with gnuplot and join
 * title, captions and figures into DIR/report.pdf with pdfunite.
 *
 * External programs run through fork/execvp, never a shell, so no path needs
 * shell quoting; only gnuplot's own string syntax is escaped. */
#define _POSIX_C_SOURCE 200809L

#include "report.h"
#include "sweep.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef XPBD_PLOTS_DIR
#define XPBD_PLOTS_DIR "plots"
#endif

/* Exit codes (documented in --help). */
enum {
    XR_EXIT_OK = 0,
    XR_EXIT_CHECKS = 1,
    XR_EXIT_USAGE = 2,
    XR_EXIT_FIGURES = 3,
    XR_EXIT_PDF = 4
};

/* The sections in report order; each is defined next to its code. */
static const xr_section *const xr_sections[] = {
#define XR_SECTION(name) &xr_section_##name,
#include "sections.def"
#undef XR_SECTION
};
#define XR_NSECTIONS (sizeof xr_sections / sizeof xr_sections[0])

/* The tables the framework itself writes (the sections list theirs). */
static const xr_table_desc xr_framework_tables[] = {
    {"checks", "every check of the run: section, check, ours, expected, tolerance, tolerance "
               "from, seed, result"},
    {"figures", "every figure of the run: name, section, rendered png/pdf, caption"},
    {"seeds", "the summary against the seeds: section, item, seed, ours, deviation %, "
              "explained by (heading, or - when within tolerance)"},
};
#define XR_NFRAMEWORK_TABLES (sizeof xr_framework_tables / sizeof xr_framework_tables[0])

/* ------------------------------------------------------------ buffers --- */

typedef struct xr_buf {
    char *s;
    size_t len, cap;
} xr_buf;

static void xr_die_nomem(void)
{
    fputs("xpbd-report: out of memory\n", stderr);
    exit(XR_EXIT_CHECKS);
}

static void buf_vprintf(xr_buf *b, const char *fmt, va_list ap)
{
    va_list ap2;
    va_copy(ap2, ap);
    const int n = vsnprintf(NULL, 0, fmt, ap2);
    va_end(ap2);
    if (n < 0)
        return;
    if (b->len + (size_t)n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap < b->len + (size_t)n + 1)
            cap *= 2;
        char *s = realloc(b->s, cap);
        if (!s)
            xr_die_nomem();
        b->s = s;
        b->cap = cap;
    }
    vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
    b->len += (size_t)n;
}

static void buf_printf(xr_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void buf_printf(xr_buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    buf_vprintf(b, fmt, ap);
    va_end(ap);
}

static char *xr_strdup(const char *s)
{
    if (!s)
        return NULL;
    const size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (!d)
        xr_die_nomem();
    memcpy(d, s, n);
    return d;
}

static char *xr_path(const char *a, const char *b, const char *c)
{
    xr_buf p = {0};
    buf_printf(&p, "%s%s%s", a, b ? b : "", c ? c : "");
    return p.s;
}

/* Grows *arr (of *cap elements of size sz) to hold n + 1 elements. */
static void *xr_grow(void *arr, size_t *cap, size_t n, size_t sz)
{
    if (n < *cap)
        return arr;
    const size_t c = *cap ? 2 * *cap : 16;
    void *a = realloc(arr, c * sz);
    if (!a)
        xr_die_nomem();
    *cap = c;
    return a;
}

/* Opens path for writing; on failure says why on stderr and returns NULL. */
static FILE *xr_create(const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f)
        fprintf(stderr, "xpbd-report: cannot write %s: %s\n", path, strerror(errno));
    return f;
}

/* ---------------------------------------------------------- the context --- */

typedef struct xr_checkrec {
    size_t section;
    char *what, *tol, *tol_from, *seed;
    double ours, expected;
    int exact; /* printed with 17 digits */
    int pass;
} xr_checkrec;

typedef struct xr_figrec {
    size_t section;
    char *name, *caption;
    int png, pdf;      /* rendered */
    char *caption_pdf; /* caption page, once made */
} xr_figrec;

/* One row of the summary against the seeds; missing: seed item not
 * reproduced (why in `explained`, values unused). */
typedef struct xr_seedrec {
    size_t section;
    char *item, *explained;
    double seed, ours;
    int missing;
} xr_seedrec;

typedef struct xr_secrec {
    int ran;    /* selected and run */
    int status; /* what run() returned */
    double seconds;
    xr_buf md; /* the section's prose and tables */
} xr_secrec;

struct xr_ctx {
    const char *out;
    const char *plots;
    int quick;
    xpbd_isa isa;
    int want_png, want_pdf;
    int tty;
    size_t cur; /* running section */
    xr_secrec sec[XR_NSECTIONS];
    xr_checkrec *checks;
    size_t nchecks, capchecks;
    xr_figrec *figs;
    size_t nfigs, capfigs;
    char *tol_from; /* xr_tolerance_source of the running section */
    xr_seedrec *seeds;
    size_t nseeds, capseeds;
    char **tables; /* data tables written, in order */
    size_t ntables, captables;
    int progress_len;  /* chars of the progress line on screen */
    double progress_t; /* last progress print, s */
};

static double xr_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

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
    ctx->tables = xr_grow(ctx->tables, &ctx->captables, ctx->ntables, sizeof *ctx->tables);
    ctx->tables[ctx->ntables++] = xr_strdup(name);
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
        printf("  FAIL %s: %s: ours %.17g, expected %.17g (%s)\n", xr_sections[ctx->cur]->name, what,
               ours, expected, c->tol);
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

/* (ours - seed) / |seed| in %; NaN when the seed is 0 or either is not finite. */
static double xr_deviation_pct(double seed, double ours)
{
    if (!isfinite(seed) || !isfinite(ours) || seed == 0)
        return NAN;
    return 100.0 * (ours - seed) / fabs(seed);
}

/* ------------------------------------------------------- md, figures --- */

void xr_md(xr_ctx *ctx, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    buf_vprintf(&ctx->sec[ctx->cur].md, fmt, ap);
    va_end(ap);
}

/* 1 if the section declares figure name in its .figures. */
static int xr_declared(size_t s, const char *name)
{
    for (const char *const *g = xr_sections[s]->figures; g && *g; ++g)
        if (strcmp(*g, name) == 0)
            return 1;
    return 0;
}

void xr_figure(xr_ctx *ctx, const char *name, const char *caption)
{
    if (!xr_declared(ctx->cur, name))
        xr_check(ctx, "figure declared in the section's .figures", 0, 1, "declared", NULL, 0);
    for (size_t i = 0; i < ctx->nfigs; ++i)
        if (strcmp(ctx->figs[i].name, name) == 0) {
            free(ctx->figs[i].caption);
            ctx->figs[i].caption = xr_strdup(caption);
            return;
        }
    ctx->figs = xr_grow(ctx->figs, &ctx->capfigs, ctx->nfigs, sizeof *ctx->figs);
    xr_figrec *f = &ctx->figs[ctx->nfigs++];
    memset(f, 0, sizeof *f);
    f->section = ctx->cur;
    f->name = xr_strdup(name);
    f->caption = xr_strdup(caption ? caption : "");
}

/* After a section ran: every figure it declares was made (a failed check
 * per missing one). */
static void xr_check_figures(xr_ctx *ctx, size_t s)
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

static void xr_progress_clear(xr_ctx *ctx)
{
    if (ctx->tty && ctx->progress_len > 0) {
        fprintf(stderr, "\r%*s\r", ctx->progress_len, "");
        fflush(stderr);
        ctx->progress_len = 0;
    }
}

static void xr_progress_line(xr_ctx *ctx, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void xr_progress_line(xr_ctx *ctx, const char *fmt, ...)
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
    xr_progress_line(ctx, "[%zu/%zu] %s: %s %d/%d", ctx->cur + 1, XR_NSECTIONS,
                     xr_sections[ctx->cur]->name, what, done, total);
}

/* ------------------------------------------------- external programs --- */

static int xr_mkdir(const char *path)
{
    if (mkdir(path, 0777) == 0 || errno == EEXIST)
        return 0;
    return -1;
}

static int xr_mkdir_p(const char *path)
{
    char *p = xr_strdup(path);
    for (char *s = p + 1; *s; ++s)
        if (*s == '/') {
            *s = 0;
            xr_mkdir(p);
            *s = '/';
        }
    const int r = xr_mkdir(p);
    free(p);
    return r;
}

static int xr_is_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0;
}

static int xr_is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Starts argv[0] with stdin from /dev/null and stdout+stderr to log (or
 * /dev/null). Returns the pid, or -1. */
static pid_t xr_spawn(char *const argv[], const char *log)
{
    fflush(stdout);
    fflush(stderr);
    const pid_t pid = fork();
    if (pid != 0)
        return pid;
    const int in = open("/dev/null", O_RDONLY);
    const int out = open(log ? log : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0666);
    if (in >= 0)
        dup2(in, 0);
    if (out >= 0) {
        dup2(out, 1);
        dup2(out, 2);
    }
    execvp(argv[0], argv);
    _exit(127);
}

/* Exit status of a finished child (127: could not be started). */
static int xr_wait(pid_t pid)
{
    int st;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR)
            return -1;
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

static int xr_run(char *const argv[], const char *log)
{
    const pid_t pid = xr_spawn(argv, log);
    return pid < 0 ? -1 : xr_wait(pid);
}

static const char *xr_program(const char *env, const char *dflt)
{
    const char *p = getenv(env);
    return p && *p ? p : dflt;
}

/* The file's text, or NULL. */
static char *xr_slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    xr_buf b = {0};
    char chunk[4096];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
        buf_printf(&b, "%.*s", (int)n, chunk);
    fclose(f);
    return b.s;
}

/* A string as a gnuplot single-quoted literal ('' stands for '). */
static void xr_gp_single(xr_buf *b, const char *s)
{
    buf_printf(b, "'");
    for (; *s; ++s)
        buf_printf(b, *s == '\'' ? "''" : "%c", *s);
    buf_printf(b, "'");
}

/* The first len chars of s as a gnuplot double-quoted literal (backslash
 * escapes). */
static void xr_gp_quote(xr_buf *b, const char *s, size_t len)
{
    buf_printf(b, "\"");
    for (size_t i = 0; i < len; ++i) {
        if (s[i] == '"' || s[i] == '\\')
            buf_printf(b, "\\%c", s[i]);
        else if (s[i] == '\n' || s[i] == '\t')
            buf_printf(b, " ");
        else
            buf_printf(b, "%c", s[i]);
    }
    buf_printf(b, "\"");
}

/* A whole string, likewise. */
static void xr_gp_double(xr_buf *b, const char *s)
{
    xr_gp_quote(b, s, strlen(s));
}

/* ------------------------------------------------------------ render --- */

typedef struct xr_job {
    char *argv[6];
    char *log;
    char *target;
    int *done; /* set to 1 when target exists after a clean exit */
    pid_t pid;
} xr_job;

static void xr_job_free(xr_job *j)
{
    for (int i = 0; i < 6; ++i)
        free(j->argv[i]);
    free(j->log);
    free(j->target);
}

/* Runs the jobs, two at a time (this class of machine has two cores).
 * A failed job leaves its log; a clean one removes it. */
static void xr_run_jobs(xr_ctx *ctx, xr_job *jobs, size_t n)
{
    size_t next = 0, running = 0, finished = 0;
    const size_t width = 2;
    while (finished < n) {
        while (running < width && next < n) {
            jobs[next].pid = xr_spawn(jobs[next].argv, jobs[next].log);
            if (jobs[next].pid < 0) {
                fprintf(stderr, "xpbd-report: cannot start %s: %s\n", jobs[next].argv[0],
                        strerror(errno));
                ++finished;
            } else {
                ++running;
            }
            ++next;
        }
        int st;
        const pid_t pid = waitpid(-1, &st, 0);
        if (pid < 0) {
            if (errno == EINTR)
                continue;
            break;
        }
        for (size_t i = 0; i < next; ++i) {
            if (jobs[i].pid != pid)
                continue;
            jobs[i].pid = 0;
            --running;
            ++finished;
            const int code = WIFEXITED(st) ? WEXITSTATUS(st) : 128;
            if (code == 0 && xr_is_file(jobs[i].target)) {
                *jobs[i].done = 1;
                remove(jobs[i].log);
            } else {
                char *log = xr_slurp(jobs[i].log);
                fprintf(stderr, "xpbd-report: %s failed (exit %d) for %s%s%s\n", jobs[i].argv[0],
                        code, jobs[i].target, log && *log ? ":\n" : "", log ? log : "");
                fprintf(stderr, "  (log kept in %s)\n", jobs[i].log);
                free(log);
            }
            xr_progress_line(ctx, "rendering figures %zu/%zu", finished, n);
        }
    }
}

/* Renders every figure in every requested format. Returns 1 if gnuplot ran. */
static int xr_render(xr_ctx *ctx, const char *gnuplot)
{
    char *vers[] = {(char *)gnuplot, (char *)"--version", NULL};
    if (xr_run(vers, NULL) != 0)
        return 0;
    xr_job *jobs = calloc(2 * ctx->nfigs + 1, sizeof *jobs);
    if (!jobs)
        xr_die_nomem();
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
        for (int k = 0; k < 2; ++k) {
            const char *fmt = k ? "pdf" : "png";
            if (k ? !ctx->want_pdf : !ctx->want_png)
                continue;
            xr_job *j = &jobs[n++];
            char *base = xr_path(ctx->out, "/fig/", f->name);
            j->target = xr_path(base, ".", fmt);
            j->log = xr_path(base, ".", k ? "pdf.log" : "png.log");
            free(base);
            char *data = xr_path(ctx->out, "/data/", f->name);
            char *tsv = xr_path(data, ".tsv", NULL);
            free(data);
            xr_buf e = {0};
            buf_printf(&e, "data=");
            xr_gp_single(&e, tsv);
            buf_printf(&e, "; out=");
            xr_gp_single(&e, j->target);
            buf_printf(&e, "; fmt='%s'", fmt);
            free(tsv);
            j->argv[0] = xr_strdup(gnuplot);
            j->argv[1] = xr_strdup("-e");
            j->argv[2] = e.s;
            j->argv[3] = xr_strdup(gp);
            j->done = k ? &f->pdf : &f->png;
            remove(j->target); /* never leave an old figure looking current */
        }
        free(gp);
    }
    xr_run_jobs(ctx, jobs, n);
    for (size_t i = 0; i < n; ++i)
        xr_job_free(&jobs[i]);
    free(jobs);
    return 1;
}

int xr_gnuplot_render(const char *script_path, const char *data_dir, const char *out_stem)
{
    const char *gnuplot = xr_program("GNUPLOT", "gnuplot");
    char *vers[] = {(char *)gnuplot, (char *)"--version", NULL};
    if (xr_run(vers, NULL) != 0) {
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
        const char *fmt = k ? "pdf" : "png";
        xr_job *j = &jobs[k];
        j->target = xr_path(out_stem, ".", fmt);
        j->log = xr_path(out_stem, ".", k ? "pdf.log" : "png.log");
        char *dir = xr_path(data_dir, "/", NULL);
        char *tsv = xr_path(dir, stem, ".tsv");
        xr_buf e = {0};
        buf_printf(&e, "data=");
        xr_gp_single(&e, tsv);
        buf_printf(&e, "; datadir=");
        xr_gp_single(&e, dir);
        buf_printf(&e, "; out=");
        xr_gp_single(&e, j->target);
        buf_printf(&e, "; fmt='%s'", fmt);
        free(tsv);
        free(dir);
        j->argv[0] = xr_strdup(gnuplot);
        j->argv[1] = xr_strdup("-e");
        j->argv[2] = e.s;
        j->argv[3] = xr_strdup(script_path);
        j->done = &done[k];
        remove(j->target);
    }
    xr_run_jobs(NULL, jobs, 2);
    for (int k = 0; k < 2; ++k)
        xr_job_free(&jobs[k]);
    return done[0] && done[1] ? 0 : -1;
}

/* Splits text into lines of at most width characters at spaces, as gnuplot
 * label commands at y (screen units), stepping down by dy. Returns the y
 * below the last line. UTF-8 continuation bytes are not counted. */
static double xr_gp_wrap(xr_buf *b, const char *text, double x, double y, double dy, int width,
                         const char *font)
{
    const char *s = text;
    while (*s) {
        while (*s == ' ')
            ++s;
        if (!*s)
            break;
        const char *cut = NULL, *p = s;
        int cols = 0;
        while (*p && *p != '\n') {
            if ((*p & 0xC0) != 0x80)
                ++cols;
            if (*p == ' ')
                cut = p;
            if (cols > width && cut)
                break;
            ++p;
        }
        const char *end = (*p && *p != '\n' && cut) ? cut : p;
        buf_printf(b, "set label ");
        xr_gp_quote(b, s, (size_t)(end - s));
        buf_printf(b, " at screen %.4f, %.4f left noenhanced font \"%s\"\n", x, y, font);
        y -= dy;
        s = *end == '\n' ? end + 1 : end;
    }
    return y;
}

/* %.6g, or for exact checks the shortest form that reads back as the same
 * double (how SPEC prints the seed's numbers). */
static void xr_fmt_num(char *out, size_t n, double v, int exact)
{
    if (exact)
        xr_num(out, n, v);
    else
        snprintf(out, n, "%.6g", v);
}

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

/* One check as a line of text for a caption page. */
static char *xr_check_line(const xr_checkrec *c)
{
    char ours[40], exp[40];
    xr_fmt_num(ours, sizeof ours, c->ours, c->exact);
    xr_fmt_num(exp, sizeof exp, c->expected, c->exact);
    xr_buf line = {0};
    buf_printf(&line, "%s  %s: ours %s, expected %s (%s)%s%s", c->pass ? "PASS" : "FAIL", c->what,
               ours, exp, c->tol, c->seed ? ", seed " : "", c->seed ? c->seed : "");
    return line.s;
}

/* Wraps text at spaces to at most width characters per line and, if b is
 * not NULL, emits one monospace label per line: the first at x, the others
 * at x_cont, starting at *y and stepping down by dy (*y is updated only when
 * emitting). Returns the number of lines. */
static int xr_gp_lines(xr_buf *b, const char *text, double x, double x_cont, double *y, double dy,
                       int width, int font, const char *colour)
{
    int lines = 0;
    const char *s = text;
    while (*s) {
        const int w = lines ? width - 4 : width;
        const char *end = s, *cut = NULL;
        int cols = 0;
        while (*end && cols < w) {
            if ((*end & 0xC0) != 0x80)
                ++cols;
            ++end;
        }
        if (*end) {
            for (const char *p = end; p > s; --p)
                if (*p == ' ') {
                    cut = p;
                    break;
                }
            if (cut)
                end = cut;
        }
        if (b) {
            buf_printf(b, "set label ");
            xr_gp_quote(b, s, (size_t)(end - s));
            buf_printf(b, " at screen %.4f, %.4f left noenhanced font \"Mono,%d\" tc rgb '%s'\n",
                       lines ? x_cont : x, *y, font, colour ? colour : "#000000");
            *y -= dy;
        }
        ++lines;
        s = end;
        while (*s == ' ')
            ++s;
    }
    return lines;
}

/* Writes and runs the caption-page script: DIR/fig/pages/title.pdf and
 * one NAME.caption.pdf per rendered figure. Returns 1 on success. */
static int xr_caption_pages(xr_ctx *ctx, const char *gnuplot, size_t passed, size_t failed)
{
    char *pages = xr_path(ctx->out, "/fig/pages", NULL);
    xr_mkdir_p(pages);
    xr_buf g = {0};
    buf_printf(&g,
               "# Caption pages of report.pdf, written by xpbd-report; run from the\n"
               "# directory xpbd-report ran in:  gnuplot %s/captions.gp\n",
               pages);
    /* the size of the figure pages, so report.pdf has one page format */
    buf_printf(&g, "set terminal pdfcairo enhanced color font 'Sans,10' size 9.5in,4.4in\n"
                   "unset border; unset tics; unset key\n"
                   "set xrange [0:1]; set yrange [0:1]\n");
    /* title page */
    char *title = xr_path(pages, "/title.pdf", NULL);
    buf_printf(&g, "set output ");
    xr_gp_single(&g, title);
    buf_printf(&g, "\nunset label\n");
    buf_printf(&g, "set label \"xpbd-report\" at screen 0.06, 0.88 left noenhanced "
                   "font \"Sans Bold,22\"\n");
    xr_buf line = {0};
    buf_printf(&line,
               "Reference scenarios of SPEC S0 and S1 reproduced with the xpbd kernels, and the "
               "SIMD paths checked against the scalar reference. %s run, scenes on the %s path, "
               "xpbd %u.%u.%u.",
               ctx->quick ? "Quick (--quick)" : "Full",
               xpbd_isa_name(ctx->isa) ? xpbd_isa_name(ctx->isa) : "auto", xpbd_version() / 10000,
               xpbd_version() / 100 % 100, xpbd_version() % 100);
    double y = xr_gp_wrap(&g, line.s, 0.06, 0.78, 0.051, 113, "Sans,11");
    free(line.s);
    line = (xr_buf){0};
    buf_printf(&line, "Checks: %zu passed, %zu failed.", passed, failed);
    buf_printf(&g, "set label ");
    xr_gp_double(&g, line.s);
    buf_printf(&g, " at screen 0.06, %.4f left noenhanced font \"Sans Bold,13\" tc rgb '%s'\n",
               y - 0.03, failed ? "#b00000" : "#006000");
    free(line.s);
    y -= 0.12;
    buf_printf(&g, "set label \"Figures\" at screen 0.06, %.4f left font \"Sans Bold,11\"\n", y);
    y -= 0.05;
    const double dy = ctx->nfigs > 11 ? 0.56 / (double)ctx->nfigs : 0.051;
    for (size_t i = 0; i < ctx->nfigs; ++i) {
        line = (xr_buf){0};
        buf_printf(&line, "%zu.  %s  (%s)%s", i + 1, ctx->figs[i].name,
                   xr_sections[ctx->figs[i].section]->title,
                   ctx->figs[i].pdf ? "" : "  [not rendered]");
        if (line.len > 120)
            memcpy(line.s + 114, " ...", 5);
        buf_printf(&g, "set label ");
        xr_gp_double(&g, line.s);
        buf_printf(&g, " at screen 0.07, %.4f left noenhanced font \"Sans,9\"\n", y);
        free(line.s);
        y -= dy;
    }
    buf_printf(&g, "plot NaN\n");
    free(title);

    for (size_t i = 0; i < ctx->nfigs; ++i) {
        xr_figrec *f = &ctx->figs[i];
        if (!f->pdf)
            continue;
        char *base = xr_path(pages, "/", f->name);
        f->caption_pdf = xr_path(base, ".caption.pdf", NULL);
        free(base);
        buf_printf(&g, "\nset output ");
        xr_gp_single(&g, f->caption_pdf);
        buf_printf(&g, "\nunset label\n");
        line = (xr_buf){0};
        buf_printf(&line, "Figure %zu: %s", i + 1, f->name);
        buf_printf(&g, "set label ");
        xr_gp_double(&g, line.s);
        buf_printf(&g, " at screen 0.06, 0.92 left noenhanced font \"Sans Bold,16\"\n");
        free(line.s);
        line = (xr_buf){0};
        buf_printf(&line, "Section %s: %s", xr_sections[f->section]->name,
                   xr_sections[f->section]->title);
        y = xr_gp_wrap(&g, line.s, 0.06, 0.85, 0.046, 120, "Sans Italic,10");
        free(line.s);
        y = xr_gp_wrap(&g, f->caption, 0.06, y - 0.02, 0.048, 148, "Sans,11");
        /* the section's checks, on the first figure of the section */
        int first = 1;
        for (size_t k = 0; k < i; ++k)
            if (ctx->figs[k].section == f->section)
                first = 0;
        size_t nsec = 0;
        for (size_t k = 0; k < ctx->nchecks; ++k)
            nsec += ctx->checks[k].section == f->section;
        if (!first || nsec == 0)
            goto next;
        y -= 0.03;
        buf_printf(&g, "set label \"Checks\" at screen 0.06, %.4f left font \"Sans Bold,11\"\n", y);
        y -= 0.05;
        /* the largest monospace size at which every check line, wrapped to
         * the page width, fits above the bottom margin (else 6 pt and cut) */
        /* pdfcairo draws text at about 0.6 of the nominal size: a DejaVu
         * Sans Mono character of "9 pt" is ~0.36-0.39 * 9 pt wide on the page */
        const double avail = y - 0.03;
        int font = 6, width = 0, fits = 0;
        for (int fs = 10; fs >= 6 && !fits; --fs) {
            width = (int)(0.88 * 684.0 / (0.39 * fs));
            const double dy = 1.45 * 0.6 * fs / 316.8;
            int lines = 0;
            for (size_t k = 0; k < ctx->nchecks; ++k)
                if (ctx->checks[k].section == f->section) {
                    char *t = xr_check_line(&ctx->checks[k]);
                    lines += xr_gp_lines(NULL, t, 0, 0, &y, dy, width, fs, NULL);
                    free(t);
                }
            font = fs;
            fits = lines * dy <= avail;
        }
        const double dy = 1.45 * 0.6 * font / 316.8;
        for (size_t k = 0; k < ctx->nchecks; ++k) {
            const xr_checkrec *c = &ctx->checks[k];
            if (c->section != f->section)
                continue;
            char *t = xr_check_line(c);
            xr_gp_lines(&g, t, 0.07, 0.10, &y, dy, width, font, c->pass ? "#000000" : "#b00000");
            free(t);
            if (y < 0.03) {
                buf_printf(&g,
                           "set label \"... (more in report.md)\" at screen 0.07, %.4f left "
                           "font \"Mono,%d\"\n",
                           y, font);
                break;
            }
        }
    next:
        buf_printf(&g, "plot NaN\n");
    }
    buf_printf(&g, "set output\n");
    char *script = xr_path(pages, "/captions.gp", NULL);
    FILE *f = fopen(script, "w");
    int ok = 0;
    if (f) {
        fputs(g.s, f);
        ok = fclose(f) == 0;
    }
    free(g.s);
    if (ok) {
        char *log = xr_path(pages, "/captions.log", NULL);
        char *argv[] = {(char *)gnuplot, script, NULL};
        ok = xr_run(argv, log) == 0;
        if (ok)
            remove(log);
        else
            fprintf(stderr, "xpbd-report: caption pages failed, see %s\n", log);
        free(log);
    }
    free(script);
    free(pages);
    return ok;
}

/* Joins the title page, and per figure its caption page and its PDF, into
 * DIR/report.pdf. Returns 1 on success. */
static int xr_report_pdf(xr_ctx *ctx, const char *pdfunite)
{
    char *report = xr_path(ctx->out, "/report.pdf", NULL);
    char *title = xr_path(ctx->out, "/fig/pages/title.pdf", NULL);
    char **argv = calloc(2 * ctx->nfigs + 4, sizeof *argv);
    char **own = calloc(ctx->nfigs + 1, sizeof *own);
    if (!argv || !own)
        xr_die_nomem();
    size_t n = 0;
    argv[n++] = (char *)pdfunite;
    argv[n++] = title;
    for (size_t i = 0; i < ctx->nfigs; ++i) {
        const xr_figrec *f = &ctx->figs[i];
        if (!f->pdf || !f->caption_pdf || !xr_is_file(f->caption_pdf))
            continue;
        char *base = xr_path(ctx->out, "/fig/", f->name);
        own[i] = xr_path(base, ".pdf", NULL);
        free(base);
        argv[n++] = f->caption_pdf;
        argv[n++] = own[i];
    }
    argv[n++] = report;
    argv[n] = NULL;
    char *log = xr_path(ctx->out, "/fig/pages/pdfunite.log", NULL);
    const int code = xr_run(argv, log);
    int ok = code == 0 && xr_is_file(report);
    if (ok) {
        remove(log);
    } else if (code == 127) {
        remove(log);
    } else {
        char *text = xr_slurp(log);
        fprintf(stderr, "xpbd-report: %s failed (exit %d)%s%s\n", pdfunite, code,
                text && *text ? ":\n" : "", text ? text : "");
        free(text);
    }
    free(log);
    for (size_t i = 0; i < ctx->nfigs; ++i)
        free(own[i]);
    free(own);
    free(argv);
    free(title);
    free(report);
    return ok ? 1 : code == 127 ? -1 : 0;
}

/* ------------------------------------------------------------ outputs --- */

static void xr_md_cell(FILE *f, const char *s)
{
    for (; s && *s; ++s) {
        if (*s == '|')
            fputs("\\|", f);
        else if (*s == '\n')
            fputc(' ', f);
        else
            fputc(*s, f);
    }
}

static void xr_tsv_cell(FILE *f, const char *s)
{
    for (; s && *s; ++s)
        fputc(*s == '\t' || *s == '\n' ? ' ' : *s, f);
}

static int xr_write_checks_tsv(const xr_ctx *ctx)
{
    char *path = xr_path(ctx->out, "/data/checks.tsv", NULL);
    FILE *f = xr_create(path);
    if (!f) {
        free(path);
        return -1;
    }
    fputs("section\tcheck\tours\texpected\ttolerance\ttolerance_from\tseed\tresult\n", f);
    for (size_t i = 0; i < ctx->nchecks; ++i) {
        const xr_checkrec *c = &ctx->checks[i];
        fprintf(f, "%s\t", xr_sections[c->section]->name);
        xr_tsv_cell(f, c->what);
        fprintf(f, "\t%.17g\t%.17g\t", c->ours, c->expected);
        xr_tsv_cell(f, c->tol);
        fputc('\t', f);
        xr_tsv_cell(f, c->tol_from ? c->tol_from : "-");
        fputc('\t', f);
        xr_tsv_cell(f, c->seed ? c->seed : "-");
        fprintf(f, "\t%s\n", c->pass ? "PASS" : "FAIL");
    }
    const int r = fclose(f);
    free(path);
    return r == 0 ? 0 : -1;
}

/* DIR/data/seeds.tsv: the summary against the seeds. */
static void xr_write_seeds_tsv(const xr_ctx *ctx)
{
    char *path = xr_path(ctx->out, "/data/seeds.tsv", NULL);
    FILE *f = xr_create(path);
    free(path);
    if (!f)
        return;
    fputs("section\titem\tseed\tours\tdeviation_pct\texplained\n", f);
    for (size_t i = 0; i < ctx->nseeds; ++i) {
        const xr_seedrec *r = &ctx->seeds[i];
        fprintf(f, "%s\t", xr_sections[r->section]->name);
        xr_tsv_cell(f, r->item);
        fprintf(f, "\t%.17g\t%.17g\t%.17g\t", r->seed, r->ours,
                xr_deviation_pct(r->seed, r->ours));
        xr_tsv_cell(f, r->missing ? "not reproduced" : r->explained ? r->explained : "-");
        fputc('\n', f);
    }
    fclose(f);
}

/* The anchor a markdown renderer (GitHub's rule) gives heading text:
 * lower case, spaces to '-', punctuation other than '-' and '_' dropped. */
static void xr_md_anchor(FILE *f, const char *heading)
{
    for (const unsigned char *s = (const unsigned char *)heading; *s; ++s) {
        if (*s >= 'A' && *s <= 'Z')
            fputc(*s - 'A' + 'a', f);
        else if (*s == ' ')
            fputc('-', f);
        else if ((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || *s == '-' || *s == '_' ||
                 *s >= 0x80)
            fputc(*s, f);
    }
}

/* The "Summary" of report.md: every seed number beside ours, then the seed
 * items not reproduced. */
static void xr_write_md_summary(FILE *f, const xr_ctx *ctx)
{
    fprintf(f, "## Summary\n\n");
    size_t nv = 0, nm = 0;
    for (size_t i = 0; i < ctx->nseeds; ++i)
        ctx->seeds[i].missing ? ++nm : ++nv;
    if (nv) {
        fprintf(f, "Every number of the seed beside ours; the deviation is (ours − seed) / "
                   "|seed|. A difference beyond the stated tolerance links to the paragraph "
                   "that explains it.\n\n"
                   "| section | item | seed | ours | deviation | explained |\n"
                   "|---|---|---|---|---|---|\n");
        for (size_t i = 0; i < ctx->nseeds; ++i) {
            const xr_seedrec *r = &ctx->seeds[i];
            if (r->missing)
                continue;
            char sv[40], ov[40];
            xr_num(sv, sizeof sv, r->seed);
            snprintf(ov, sizeof ov, "%.6g", r->ours);
            const double d = xr_deviation_pct(r->seed, r->ours);
            fprintf(f, "| [%s](#", xr_sections[r->section]->name);
            xr_md_anchor(f, xr_sections[r->section]->name);
            fputs(") | ", f);
            xr_md_cell(f, r->item);
            if (isfinite(d))
                fprintf(f, " | %s | %s | %+.3g%% | ", sv, ov, d);
            else
                fprintf(f, " | %s | %s | - | ", sv, ov);
            if (r->explained) {
                fputc('[', f);
                xr_md_cell(f, r->explained);
                fputs("](#", f);
                xr_md_anchor(f, r->explained);
                fputs(") |\n", f);
            } else {
                fputs("within tolerance |\n", f);
            }
        }
        fputc('\n', f);
    } else {
        fprintf(f, "No section of this run compared a number with the seed.\n\n");
    }
    if (nm) {
        fprintf(f, "**Seed items not reproduced**\n\n");
        for (size_t i = 0; i < ctx->nseeds; ++i) {
            const xr_seedrec *r = &ctx->seeds[i];
            if (!r->missing)
                continue;
            fprintf(f, "* ");
            xr_md_cell(f, r->item);
            fprintf(f, " (%s): ", xr_sections[r->section]->name);
            xr_md_cell(f, r->explained ? r->explained : "");
            fputc('\n', f);
        }
        fputc('\n', f);
    } else {
        fprintf(f, "Every seed item of the sections run is reproduced.\n\n");
    }
}

/* DIR/data/figures.tsv: every figure the run declared, whether it was
 * rendered, and its caption (an index for scripts and tests). */
static void xr_write_figures_tsv(const xr_ctx *ctx)
{
    char *path = xr_path(ctx->out, "/data/figures.tsv", NULL);
    FILE *f = xr_create(path);
    if (!f) {
        free(path);
        return;
    }
    fputs("figure\tsection\tpng\tpdf\tcaption\n", f);
    for (size_t i = 0; i < ctx->nfigs; ++i) {
        const xr_figrec *g = &ctx->figs[i];
        fprintf(f, "%s\t%s\t%d\t%d\t", g->name, xr_sections[g->section]->name, g->png, g->pdf);
        xr_tsv_cell(f, g->caption);
        fputc('\n', f);
    }
    fclose(f);
    free(path);
}

static void xr_write_md(const xr_ctx *ctx, size_t passed, size_t failed, int gnuplot_ok,
                        const char *argv0)
{
    char *path = xr_path(ctx->out, "/report.md", NULL);
    FILE *f = xr_create(path);
    if (!f) {
        free(path);
        return;
    }
    const unsigned v = xpbd_version();
    fprintf(f, "# xpbd-report\n\n");
    fprintf(f, "The reference scenarios of SPEC S0 and S1 reproduced with the xpbd kernels, and "
               "every SIMD path checked against the scalar reference.\n\n");
    fprintf(f, "* run: `%s%s`, %s\n", argv0, ctx->quick ? " --quick" : "",
            ctx->quick ? "quick sweeps (every closed-form check still made)" : "full sweeps");
    fprintf(f, "* xpbd %u.%u.%u, scenes on the `%s` path (best on this machine: `%s`)%s\n",
            v / 10000, v / 100 % 100, v % 100,
            xpbd_isa_name(ctx->isa) ? xpbd_isa_name(ctx->isa) : "auto",
            xpbd_isa_name(xpbd_isa_best()), xpbd_isa_emulated() ? ", SIMD paths emulated" : "");
    fprintf(f, "* checks: **%zu passed, %zu failed** (all of them in `data/checks.tsv`)\n", passed,
            failed);
    fprintf(f, "* data: `data/NAME.tsv` (header row, `%%.17g` numbers); figures: `fig/NAME.png` "
               "and `fig/NAME.pdf`; all figures with captions: `report.pdf`\n\n");
    fprintf(f,
            "Re-render a figure by hand, from this directory:\n\n"
            "    gnuplot -e \"data='data/NAME.tsv'; out='fig/NAME.png'; fmt='png'\" "
            "%s/NAME.gp\n\n",
            ctx->plots);
    if (!gnuplot_ok)
        fprintf(f, "> **Figures missing:** gnuplot was not found when this report was made. "
                   "Install it (`apt-get install gnuplot-nox`) and run xpbd-report again, or "
                   "render each figure with the command above.\n\n");

    xr_write_md_summary(f, ctx);

    for (size_t s = 0; s < XR_NSECTIONS; ++s) {
        const xr_secrec *r = &ctx->sec[s];
        if (!r->ran)
            continue;
        fprintf(f, "## %s\n\n*%s*\n\n", xr_sections[s]->name, xr_sections[s]->title);
        if (r->md.s)
            fprintf(f, "%s\n", r->md.s);
        size_t nc = 0;
        for (size_t i = 0; i < ctx->nchecks; ++i)
            nc += ctx->checks[i].section == s;
        if (nc) {
            fprintf(f, "**Checks**\n\n| check | ours | expected | seed | tolerance | "
                       "tolerance from | result |\n|---|---|---|---|---|---|---|\n");
            for (size_t i = 0; i < ctx->nchecks; ++i) {
                const xr_checkrec *c = &ctx->checks[i];
                if (c->section != s)
                    continue;
                char ours[40], exp[40];
                xr_fmt_num(ours, sizeof ours, c->ours, c->exact);
                xr_fmt_num(exp, sizeof exp, c->expected, c->exact);
                fputs("| ", f);
                xr_md_cell(f, c->what);
                fprintf(f, " | %s | %s | ", ours, exp);
                xr_md_cell(f, c->seed ? c->seed : "-");
                fputs(" | ", f);
                xr_md_cell(f, c->tol);
                fputs(" | ", f);
                xr_md_cell(f, c->tol_from ? c->tol_from : "-");
                fprintf(f, " | %s |\n", c->pass ? "PASS" : "**FAIL**");
            }
            fputc('\n', f);
        }
        for (size_t i = 0; i < ctx->nfigs; ++i) {
            const xr_figrec *g = &ctx->figs[i];
            if (g->section != s)
                continue;
            if (g->png)
                fprintf(f, "![%s](fig/%s.png)\n\n", g->name, g->name);
            else
                fprintf(f, "*(figure `fig/%s.png` not rendered%s)*\n\n", g->name,
                        gnuplot_ok ? ": the gnuplot script failed, see the log in fig/"
                                   : ": gnuplot not installed");
            fprintf(f, "**Figure %zu (`%s`).** ", i + 1, g->name);
            xr_md_cell(f, g->caption);
            fprintf(f, " Data: `data/%s.tsv`; script: `%s/%s.gp`", g->name, ctx->plots, g->name);
            if (g->pdf)
                fprintf(f, "; PDF: `fig/%s.pdf`", g->name);
            fprintf(f, ".\n\n");
        }
        fprintf(f, "Section time: %.2f s.\n\n", r->seconds);
    }
    if (fclose(f) != 0)
        fprintf(stderr, "xpbd-report: error writing %s\n", path);
    free(path);
}

/* ------------------------------------------------------------- the CLI --- */

static void xr_usage(FILE *f)
{
    fprintf(f,
            "usage: xpbd-report [--out DIR] [--quick] [--only NAME,...] [--list]\n"
            "                   [--format png,pdf] [--isa NAME] [--plots DIR] [--help]\n"
            "\n"
            "Reproduces the reference scenarios of SPEC S0 and S1 with the xpbd kernels,\n"
            "checks every closed form and the seed's numbers, cross-checks every SIMD path\n"
            "against the scalar reference, and renders the figures with gnuplot.\n"
            "\n"
            "Options:\n"
            "  --out DIR        output directory (default: report-out)\n"
            "  --quick          smaller sweeps for CI (seconds); every closed-form check is\n"
            "                   still made\n"
            "  --only NAME,...  run only these sections; a figure or table name selects its\n"
            "                   section (names: --list)\n"
            "  --list           print every section, figure and table name with a one-line\n"
            "                   description, then exit\n"
            "  --format LIST    figure formats: png, pdf or png,pdf (default png,pdf);\n"
            "                   report.pdf is made only when pdf is among them\n"
            "  --isa NAME       instruction-set path the scenes run on: auto, scalar, sse4,\n"
            "                   avx2, avx512, neon (default auto: the XPBD_ISA environment\n"
            "                   variable if set, else the best this CPU supports). The SIMD\n"
            "                   sections always run every supported path.\n"
            "  --plots DIR      directory of the gnuplot scripts (default:\n"
            "                   %s)\n"
            "  --help           this text\n"
            "\n"
            "Output (DIR):\n"
            "  data/NAME.tsv      one table per figure, header row of column names,\n"
            "                     numbers as %%.17g, tab-separated\n"
            "  data/checks.tsv    every check: section, check, ours, expected, tolerance,\n"
            "                     seed, result (PASS/FAIL)\n"
            "  data/figures.tsv   every figure: name, section, png and pdf rendered (1/0),\n"
            "                     caption\n"
            "  fig/NAME.png, .pdf the figures, rendered by gnuplot from PLOTS/NAME.gp\n"
            "  report.md          per section: tables (ours, closed form, seed), checks,\n"
            "                     figures\n"
            "  report.pdf         title page, then per figure a caption page (caption, key\n"
            "                     numbers, checks) and the figure (gnuplot pdfcairo pages\n"
            "                     joined by pdfunite from poppler-utils)\n"
            "Stdout ends with \"N passed, M failed\"; progress goes to stderr when it is a\n"
            "terminal.\n"
            "\n"
            "Re-render one figure by hand (from DIR):\n"
            "  gnuplot -e \"data='data/NAME.tsv'; out='fig/NAME.png'; fmt='png'\" PLOTS/NAME.gp\n"
            "\n"
            "Without gnuplot, data, scripts and report.md are still written: install it with\n"
            "`apt-get install gnuplot-nox` (and `apt-get install poppler-utils` for\n"
            "pdfunite) and run again, or render by hand as above.\n"
            "\n"
            "Environment: GNUPLOT, PDFUNITE name the programs (default gnuplot, pdfunite);\n"
            "XPBD_ISA is read by --isa auto.\n"
            "\n"
            "Exit status:\n"
            "  0  every check passed; every requested figure and report.pdf written\n"
            "  1  a check failed or a section could not run (takes precedence over 3, 4)\n"
            "  2  usage error: unknown option, section, format or ISA; DIR not writable\n"
            "  3  every check passed but figures are missing (gnuplot not installed, or a\n"
            "     script failed: its log is kept in DIR/fig/)\n"
            "  4  every check passed and the figures exist, but report.pdf is missing\n"
            "     (pdfunite not installed, or it failed)\n",
            XPBD_PLOTS_DIR);
}

static void xr_list(FILE *f)
{
    fprintf(f, "%-8s %-26s %s\n", "kind", "name", "description");
    for (size_t s = 0; s < XR_NSECTIONS; ++s) {
        const xr_section *x = xr_sections[s];
        fprintf(f, "%-8s %-26s %s%s%s\n", "section", x->name, x->spec && *x->spec ? x->spec : "",
                x->spec && *x->spec ? ": " : "", x->title);
        for (const char *const *g = x->figures; g && *g; ++g)
            fprintf(f, "%-8s %-26s figure of %s\n", "figure", *g, x->name);
        for (const xr_table_desc *d = x->tables; d && d->name; ++d)
            fprintf(f, "%-8s %-26s %s\n", "table", d->name, d->desc);
    }
    for (size_t i = 0; i < XR_NFRAMEWORK_TABLES; ++i)
        fprintf(f, "%-8s %-26s %s\n", "table", xr_framework_tables[i].name,
                xr_framework_tables[i].desc);
}

/* 1 if tok names section s, one of its figures or one of its tables. */
static int xr_names_section(const char *tok, size_t s)
{
    const xr_section *x = xr_sections[s];
    if (strcmp(tok, x->name) == 0)
        return 1;
    for (const char *const *g = x->figures; g && *g; ++g)
        if (strcmp(tok, *g) == 0)
            return 1;
    for (const xr_table_desc *d = x->tables; d && d->name; ++d)
        if (strcmp(tok, d->name) == 0)
            return 1;
    return 0;
}

static void xr_valid_names(FILE *f)
{
    fprintf(f, "valid names (sections; a figure or table name selects its section):");
    for (size_t s = 0; s < XR_NSECTIONS; ++s)
        fprintf(f, " %s", xr_sections[s]->name);
    fputc('\n', f);
}

/* Marks the sections named in a comma-separated list. -1 on an unknown name. */
static int xr_select(const char *list, int *sel)
{
    char *copy = xr_strdup(list);
    int bad = 0;
    for (char *tok = copy, *next; tok; tok = next) {
        next = strchr(tok, ',');
        if (next)
            *next++ = 0;
        if (!*tok)
            continue;
        int found = 0;
        for (size_t s = 0; s < XR_NSECTIONS; ++s)
            if (xr_names_section(tok, s))
                sel[s] = found = 1;
        if (!found) {
            fprintf(stderr, "xpbd-report: unknown section or figure '%s'\n", tok);
            bad = 1;
        }
    }
    free(copy);
    return bad ? -1 : 0;
}

static const char *xr_arg(int argc, char **argv, int *i, const char *opt)
{
    /* --opt VALUE or --opt=VALUE */
    const size_t n = strlen(opt);
    if (strncmp(argv[*i], opt, n) == 0 && argv[*i][n] == '=')
        return argv[*i] + n + 1;
    if (strcmp(argv[*i], opt) != 0)
        return NULL;
    if (*i + 1 >= argc) {
        fprintf(stderr, "xpbd-report: %s needs a value (see --help)\n", opt);
        exit(XR_EXIT_USAGE);
    }
    return argv[++*i];
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "sweep") == 0)
        return xr_sweep_main(argc - 1, argv + 1);
    if (argc > 1 && strcmp(argv[1], "merge") == 0)
        return xr_merge_main(argc - 1, argv + 1);
    static xr_ctx ctx;
    ctx.out = "report-out";
    ctx.plots = XPBD_PLOTS_DIR;
#ifdef XPBD_PLOTS_INSTALL_DIR
    /* an installed binary on a machine without the source tree */
    if (!xr_is_dir(ctx.plots) && xr_is_dir(XPBD_PLOTS_INSTALL_DIR))
        ctx.plots = XPBD_PLOTS_INSTALL_DIR;
#endif
    ctx.isa = XPBD_ISA_AUTO;
    ctx.want_png = ctx.want_pdf = 1;
    int sel[XR_NSECTIONS] = {0}, only = 0;
    const char *isa_name = NULL;

    for (int i = 1; i < argc; ++i) {
        const char *v;
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            xr_usage(stdout);
            return XR_EXIT_OK;
        } else if (strcmp(argv[i], "--list") == 0) {
            xr_list(stdout);
            return XR_EXIT_OK;
        } else if (strcmp(argv[i], "--quick") == 0) {
            ctx.quick = 1;
        } else if ((v = xr_arg(argc, argv, &i, "--out"))) {
            ctx.out = v;
        } else if ((v = xr_arg(argc, argv, &i, "--plots"))) {
            ctx.plots = v;
        } else if ((v = xr_arg(argc, argv, &i, "--isa"))) {
            isa_name = v;
        } else if ((v = xr_arg(argc, argv, &i, "--only"))) {
            only = 1;
            if (xr_select(v, sel) != 0) {
                xr_valid_names(stderr);
                return XR_EXIT_USAGE;
            }
        } else if ((v = xr_arg(argc, argv, &i, "--format"))) {
            ctx.want_png = strstr(v, "png") != NULL;
            ctx.want_pdf = strstr(v, "pdf") != NULL;
            char *copy = xr_strdup(v);
            int bad = !*copy;
            for (char *tok = strtok(copy, ","); tok; tok = strtok(NULL, ","))
                bad |= strcmp(tok, "png") != 0 && strcmp(tok, "pdf") != 0;
            free(copy);
            if (bad) {
                fprintf(stderr, "xpbd-report: unknown format in '%s' (valid: png, pdf, png,pdf)\n",
                        v);
                return XR_EXIT_USAGE;
            }
        } else {
            fprintf(stderr, "xpbd-report: unknown option '%s' (see --help)\n", argv[i]);
            return XR_EXIT_USAGE;
        }
    }
    if (isa_name) {
        xpbd_isa isa;
        if (xpbd_isa_from_name(isa_name, &isa) != XPBD_OK) {
            fprintf(stderr,
                    "xpbd-report: unknown ISA '%s' (valid: auto, scalar, sse4, avx2, "
                    "avx512, neon)\n",
                    isa_name);
            return XR_EXIT_USAGE;
        }
        ctx.isa = isa;
    }
    {
        xpbd_isa resolved;
        if (xpbd_isa_resolve(ctx.isa, &resolved) != XPBD_OK) {
            fprintf(stderr,
                    "xpbd-report: ISA '%s' is not available on this machine/build "
                    "(check --isa and the XPBD_ISA environment variable)\n",
                    isa_name             ? isa_name
                    : getenv("XPBD_ISA") ? getenv("XPBD_ISA")
                                         : "auto");
            return XR_EXIT_USAGE;
        }
        ctx.isa = resolved;
    }
    if (!only)
        for (size_t s = 0; s < XR_NSECTIONS; ++s)
            sel[s] = 1;

    char *data = xr_path(ctx.out, "/data", NULL), *fig = xr_path(ctx.out, "/fig", NULL);
    if (xr_mkdir_p(ctx.out) != 0 || xr_mkdir_p(data) != 0 || xr_mkdir_p(fig) != 0 ||
        !xr_is_dir(data) || !xr_is_dir(fig)) {
        fprintf(stderr, "xpbd-report: cannot create %s: %s\n", data, strerror(errno));
        return XR_EXIT_USAGE;
    }
    free(data);
    free(fig);
    ctx.tty = isatty(2);

    const double t0 = xr_now();
    for (size_t s = 0; s < XR_NSECTIONS; ++s) {
        if (!sel[s])
            continue;
        ctx.cur = s;
        ctx.sec[s].ran = 1;
        xr_progress_line(&ctx, "[%zu/%zu] %s", s + 1, XR_NSECTIONS, xr_sections[s]->name);
        const size_t c0 = ctx.nchecks;
        const double ts = xr_now();
        ctx.tol_from = NULL;
        const int st = xr_sections[s]->run(&ctx);
        if (st != 0)
            xr_check(&ctx, "section ran to completion", st, 0, "returns 0", NULL, 0);
        xr_check_figures(&ctx, s);
        ctx.sec[s].status = st;
        ctx.sec[s].seconds = xr_now() - ts;
        size_t p = 0, fl = 0;
        for (size_t i = c0; i < ctx.nchecks; ++i)
            ctx.checks[i].pass ? ++p : ++fl;
        xr_progress_clear(&ctx);
        printf("%-22s %3zu passed, %zu failed  (%.2f s)\n", xr_sections[s]->name, p, fl,
               ctx.sec[s].seconds);
        fflush(stdout);
    }
    const double t_sections = xr_now() - t0;

    size_t passed = 0, failed = 0;
    for (size_t i = 0; i < ctx.nchecks; ++i)
        ctx.checks[i].pass ? ++passed : ++failed;

    /* figures */
    const char *gnuplot = xr_program("GNUPLOT", "gnuplot");
    const char *pdfunite = xr_program("PDFUNITE", "pdfunite");
    int gnuplot_ok = 1, figs_missing = 0, pdf_missing = 0;
    const double t1 = xr_now();
    if (ctx.nfigs && (ctx.want_png || ctx.want_pdf)) {
        if (!xr_is_dir(ctx.plots))
            fprintf(stderr, "xpbd-report: plot scripts directory %s not found (use --plots DIR)\n",
                    ctx.plots);
        gnuplot_ok = xr_render(&ctx, gnuplot);
        xr_progress_clear(&ctx);
        for (size_t i = 0; i < ctx.nfigs; ++i)
            if ((ctx.want_png && !ctx.figs[i].png) || (ctx.want_pdf && !ctx.figs[i].pdf))
                ++figs_missing;
        if (!gnuplot_ok) {
            fprintf(stderr,
                    "xpbd-report: gnuplot not found ('%s'): the data (%s/data), the scripts (%s) "
                    "and %s/report.md are written, but no figure and no report.pdf.\n"
                    "  Install it:   apt-get install gnuplot-nox\n"
                    "  Re-render:    run xpbd-report again, or per figure (from %s):\n"
                    "    gnuplot -e \"data='data/NAME.tsv'; out='fig/NAME.png'; fmt='png'\" "
                    "%s/NAME.gp\n",
                    gnuplot, ctx.out, ctx.plots, ctx.out, ctx.out, ctx.plots);
        } else if (figs_missing) {
            fprintf(stderr, "xpbd-report: %d figure(s) not rendered (see the messages above)\n",
                    figs_missing);
        }
    }
    xr_write_checks_tsv(&ctx);
    xr_write_figures_tsv(&ctx);
    xr_write_seeds_tsv(&ctx);
    xr_write_md(&ctx, passed, failed, gnuplot_ok, "xpbd-report");

    if (ctx.nfigs && ctx.want_pdf && gnuplot_ok) {
        char *report = xr_path(ctx.out, "/report.pdf", NULL);
        remove(report);
        int made = xr_caption_pages(&ctx, gnuplot, passed, failed);
        if (made) {
            const int r = xr_report_pdf(&ctx, pdfunite);
            if (r < 0)
                fprintf(stderr,
                        "xpbd-report: pdfunite not found ('%s'): the figures are in %s/fig, but "
                        "%s/report.pdf was not made.\n"
                        "  Install it:   apt-get install poppler-utils\n"
                        "  Then run xpbd-report again.\n",
                        pdfunite, ctx.out, ctx.out);
            made = r > 0;
        }
        pdf_missing = !made;
        free(report);
    } else if (ctx.nfigs && ctx.want_pdf) {
        pdf_missing = 1;
    }
    const double t_render = xr_now() - t1;
    xr_progress_clear(&ctx);

    printf("sections %.2f s, figures %.2f s; output in %s/ (report.md%s)\n", t_sections, t_render,
           ctx.out, pdf_missing ? "" : ", report.pdf");
    printf("%zu passed, %zu failed\n", passed, failed);
    fflush(stdout);
    if (failed)
        return XR_EXIT_CHECKS;
    if (figs_missing || !gnuplot_ok)
        return XR_EXIT_FIGURES;
    if (pdf_missing)
        return XR_EXIT_PDF;
    return XR_EXIT_OK;
}
