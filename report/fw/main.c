/* SPDX-License-Identifier: MIT */
/* xpbd-report: the command line (see report.h for the section API and
 * fw.h for the framework's files).
 *
 * Flow: parse options -> run the selected sections (run.c: each
 * writes DIR/data/NAME.tsv, records checks, reference values, markdown and
 * figures), drawing each section's figures with gnuplot as soon as it is
 * done (gnuplot.c), and typeset DIR/report.pdf with groff once the
 * sections and the PDF figures are (pdf.c) -> write
 * DIR/data/checks.tsv, figures.tsv, references.tsv and DIR/report.md
 * (md.c). --self-test runs the sections without figures, then
 * perturbs every check past its tolerance (record.c). */
#define _POSIX_C_SOURCE 200809L

#include "fw.h"
#include "sweep.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* where the gnuplot scripts are, from the tool's own directory: the same
 * in the build tree (the build copies the .gp scripts there) and in any copy of
 * an install tree; --plots DIR overrides it */
#define XR_PLOTS_BESIDE_EXE "../share/xpbd/plots"

/* The tables the framework itself writes (the sections list theirs). */
static const xr_table_desc xr_framework_tables[] = {
    {"checks", "every check of the run: section, check, ours, reference, tolerance kind, tol, "
               "lo, hi, tolerance as text, tolerance from, result"},
    {"figures", "every figure of the run: name, section, rendered png/pdf, caption"},
    {"references", "the summary against the original measurements: section, item, original, "
                   "ours, deviation %, verdict (PASS/FAIL/not checked), the check giving it, "
                   "explained by (heading, or -)"},
};
#define XR_NFRAMEWORK_TABLES (sizeof xr_framework_tables / sizeof xr_framework_tables[0])

/* ------------------------------------------------------------- the CLI --- */

static void xr_usage(FILE *f)
{
    fprintf(f,
            "usage: xpbd-report [--out DIR] [--quick] [--only NAME,...] [--list] [--jobs N]\n"
            "                   [--format png,pdf] [--isa NAME] [--plots DIR] [--self-test]\n"
            "                   [--help]\n"
            "\n"
            "Reproduces the reference scenarios of S0 (one XPBD distance constraint) to S3 with the xpbd kernels,\n"
            "checks every closed form and original measurement, cross-checks every SIMD path\n"
            "against the scalar reference, renders the figures with gnuplot and typesets\n"
            "report.pdf with groff.\n"
            "\n"
            "Options:\n"
            "  --out DIR        output directory (default: report-out)\n"
            "  --quick          smaller sweeps for CI (seconds); every closed-form check is\n"
            "                   still made\n"
            "  --only NAME,...  run only these sections; a figure or table name selects its\n"
            "                   section (names: --list); a list that names none is refused\n"
            "  --list           print every section, figure and table name with a one-line\n"
            "                   description, then exit\n"
            "  --jobs N         processes at a time (default 2): sections that time nothing,\n"
            "                   each in its own, gnuplot and groff; timed sections run first,\n"
            "                   alone. --jobs 1 runs every section in order in one process;\n"
            "                   report.md is the same either way apart from timings\n"
            "  --format LIST    figure formats: png, pdf or png,pdf (default png,pdf);\n"
            "                   report.pdf is made only when pdf is among them; none: no\n"
            "                   figure and no report.pdf (data, checks and report.md only)\n"
            "  --isa NAME       instruction-set path the scenes run on: auto, scalar, sse4,\n"
            "                   avx2, avx512, neon (default auto: the XPBD_ISA environment\n"
            "                   variable if set, else the best this CPU supports). The SIMD\n"
            "                   sections always run every supported path.\n"
            "  --plots DIR      directory of the gnuplot scripts (default: %s\n"
            "                   beside the xpbd-report executable)\n"
            "  --self-test      run the sections (no figures, no report.pdf), then move each\n"
            "                   check's measured value just past its tolerance on every\n"
            "                   bounded side (and to NaN) and require the verdict FAIL;\n"
            "                   prints \"N checks mutated, N caught\" and every survivor\n"
            "                   (data/self_test.tsv); exits 1 on a survivor or a failed check\n"
            "  --help           this text\n"
            "\n",
            XR_PLOTS_BESIDE_EXE);
    fprintf(f,
            "Output (DIR):\n"
            "  data/NAME.tsv      one table per figure, header row of column names,\n"
            "                     numbers as %%.17g, tab-separated\n"
            "  data/checks.tsv    every check: section, check, ours, reference, tolerance\n"
            "                     (kind exact/ulps/relative/absolute/bracket, tol, lo, hi),\n"
            "                     where the tolerance comes from, result (PASS/FAIL)\n"
            "  data/references.tsv the original measurements beside ours, deviation in %%,\n"
            "                     verdict (the linked check's, or not checked), the heading\n"
            "                     that explains a difference; items not reproduced\n"
            "  data/figures.tsv   every figure: name, section, png and pdf rendered (1/0),\n"
            "                     caption\n"
            "  fig/NAME.png, .pdf the figures, rendered by gnuplot from PLOTS/NAME.gp\n"
            "  report.md          provenance, the summary against the original measurements,\n"
            "                     then per section: tables, checks, figures\n"
            "  report.pdf         the same typeset on A4 by groff (-ms, gropdf): title page\n"
            "                     with provenance, contents with page numbers, bookmarks\n"
            "                     for every section, summary, sections with their tables,\n"
            "                     figures and checks (groff's source: DIR/pdf/report.ms)\n"
            "Stdout ends with \"N passed, M failed\"; progress goes to stderr when it is a\n"
            "terminal.\n"
            "\n"
            "Re-render one figure by hand (from DIR):\n"
            "  gnuplot -e \"data='data/NAME.tsv'; out='fig/NAME.png'; fmt='png'\" PLOTS/NAME.gp\n"
            "\n"
            "Without gnuplot, data, scripts and report.md are still written: install it with\n"
            "`apt-get install gnuplot-nox` and run again, or render by hand as above.\n"
            "Without groff, report.md and the figures are still written: install it with\n"
            "`apt-get install groff` for report.pdf.\n"
            "\n"
            "Environment: GNUPLOT, GROFF name the programs (default gnuplot, groff);\n"
            "XPBD_ISA is read by --isa auto.\n"
            "\n"
            "Exit status:\n"
            "  0  every check passed; every requested figure and report.pdf written\n"
            "  1  a check failed or a section could not run (takes precedence over 3, 4)\n"
            "  2  usage error: unknown option, section, format or ISA, an --only that\n"
            "     names no section; DIR not writable\n"
            "  3  every check passed but figures are missing (gnuplot not installed, or a\n"
            "     script failed: its log is kept in DIR/fig/)\n"
            "  4  every check passed and the figures exist, but report.pdf is missing\n"
            "     (groff not installed, or it failed: its log is kept in DIR/pdf/)\n"
            "  With --self-test: 0 when every check passed and every mutant was caught,\n"
            "  1 otherwise.\n");
    fputs("\nSubcommands (details: xpbd-report sweep --help):\n"
          "  xpbd-report sweep ...   a parameter sweep of one scene: table and figure\n"
          "  xpbd-report merge ...   joins the shards of a sweep (--shard K/N)\n",
          f);
}

static void xr_list(FILE *f)
{
    fprintf(f, "%-8s %-26s %s\n", "kind", "name", "description");
    for (size_t s = 0; s < XR_NSECTIONS; ++s) {
        const xr_section *x = xr_sections[s];
        fprintf(f, "%-8s %-26s %s%s%s\n", "section", x->name, x->scenario && *x->scenario ? x->scenario : "",
                x->scenario && *x->scenario ? ": " : "", x->title);
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

/* Marks the sections named in a comma-separated list. -1 on an unknown name
 * or on a list that names nothing ('', ','). */
static int xr_select(const char *list, int *sel)
{
    char *copy = xr_strdup(list);
    int bad = 0, named = 0;
    for (char *tok = copy, *next; tok; tok = next) {
        next = strchr(tok, ',');
        if (next)
            *next++ = 0;
        if (!*tok)
            continue;
        int found = 0;
        ++named;
        for (size_t s = 0; s < XR_NSECTIONS; ++s)
            if (xr_names_section(tok, s))
                sel[s] = found = 1;
        if (!found) {
            fprintf(stderr, "xpbd-report: unknown section or figure '%s'\n", tok);
            bad = 1;
        }
    }
    free(copy);
    if (!named) {
        fprintf(stderr, "xpbd-report: --only '%s' names no section\n", list);
        bad = 1;
    }
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

/* The command line's options into ctx, the sections selected into sel
 * (every one without --only), --self-test into *self_test. Returns -1 to go
 * on, or the exit status (--help and --list: done; a refused option). */
static int xr_options(int argc, char **argv, xr_ctx *ctx, int *sel, int *self_test)
{
    int only = 0;
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
            ctx->quick = 1;
        } else if (strcmp(argv[i], "--self-test") == 0) {
            *self_test = 1;
        } else if ((v = xr_arg(argc, argv, &i, "--out"))) {
            ctx->out = v;
        } else if ((v = xr_arg(argc, argv, &i, "--plots"))) {
            ctx->plots = v;
        } else if ((v = xr_arg(argc, argv, &i, "--isa"))) {
            isa_name = v;
        } else if ((v = xr_arg(argc, argv, &i, "--jobs"))) {
            char *end;
            const long n = strtol(v, &end, 10);
            if (*end || n < 1 || n > 64) {
                fprintf(stderr, "xpbd-report: --jobs wants a count from 1 to 64, not '%s'\n", v);
                return XR_EXIT_USAGE;
            }
            ctx->jobs = (int)n;
        } else if ((v = xr_arg(argc, argv, &i, "--only"))) {
            only = 1;
            if (xr_select(v, sel) != 0) {
                xr_valid_names(stderr);
                return XR_EXIT_USAGE;
            }
        } else if ((v = xr_arg(argc, argv, &i, "--format"))) {
            ctx->want_png = strstr(v, "png") != NULL;
            ctx->want_pdf = strstr(v, "pdf") != NULL;
            char *copy = xr_strdup(v);
            int bad = !*copy;
            if (strcmp(v, "none") != 0)
                for (char *tok = strtok(copy, ","); tok; tok = strtok(NULL, ","))
                    bad |= strcmp(tok, "png") != 0 && strcmp(tok, "pdf") != 0;
            free(copy);
            if (bad) {
                fprintf(stderr,
                        "xpbd-report: unknown format in '%s' (valid: png, pdf, png,pdf, none)\n",
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
        ctx->isa = isa;
    }
    {
        xpbd_isa resolved;
        if (xpbd_isa_resolve(ctx->isa, &resolved) != XPBD_OK) {
            fprintf(stderr,
                    "xpbd-report: ISA '%s' is not available on this machine/build "
                    "(check --isa and the XPBD_ISA environment variable)\n",
                    isa_name             ? isa_name
                    : getenv("XPBD_ISA") ? getenv("XPBD_ISA")
                                         : "auto");
            return XR_EXIT_USAGE;
        }
        ctx->isa = resolved;
    }
    if (!only)
        for (size_t s = 0; s < XR_NSECTIONS; ++s)
            sel[s] = 1;
    return -1;

}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "sweep") == 0)
        return xr_sweep_main(argc - 1, argv + 1);
    if (argc > 1 && strcmp(argv[1], "merge") == 0)
        return xr_merge_main(argc - 1, argv + 1);
    static xr_ctx ctx;
    ctx.out = "report-out";
    /* freed at exit: ctx.plots lives as long as the process */
    char *plots_beside_exe = xr_dir_beside_exe(argv[0], XR_PLOTS_BESIDE_EXE);
    ctx.plots = plots_beside_exe ? plots_beside_exe : XR_PLOTS_BESIDE_EXE " beside xpbd-report";
    ctx.isa = XPBD_ISA_AUTO;
    ctx.want_png = ctx.want_pdf = 1;
    ctx.jobs = 2;
    int sel[XR_NSECTIONS] = {0}, self_test = 0;
    const int st = xr_options(argc, argv, &ctx, sel, &self_test);
    if (st >= 0)
        return st;

    char *data = xr_path(ctx.out, "/data", NULL), *fig = xr_path(ctx.out, "/fig", NULL);
    if (xr_mkdir_p(ctx.out) != 0 || xr_mkdir_p(data) != 0 || xr_mkdir_p(fig) != 0 ||
        !xr_is_dir(data) || !xr_is_dir(fig)) {
        fprintf(stderr, "xpbd-report: cannot create %s: %s\n", data, strerror(errno));
        return XR_EXIT_USAGE;
    }
    free(data);
    free(fig);
    if (self_test)
        ctx.want_png = ctx.want_pdf = 0; /* the checks alone: no figure, no report.pdf */
    ctx.tty = isatty(2);
    xr_prov_start(&ctx.prov, ctx.isa, argc, argv);

    char *report = xr_path(ctx.out, "/report.pdf", NULL);
    remove(report); /* never leave an old report looking current */
    free(report);
    const xr_run_result run = xr_run_report(&ctx, sel);
    size_t passed, failed;
    xr_count_checks(&ctx, SIZE_MAX, &passed, &failed);
    int figs_missing = 0;
    if (ctx.nfigs && (ctx.want_png || ctx.want_pdf)) {
        for (size_t i = 0; i < ctx.nfigs; ++i)
            if ((ctx.want_png && !ctx.figs[i].png) || (ctx.want_pdf && !ctx.figs[i].pdf))
                ++figs_missing;
        if (run.gnuplot && figs_missing)
            fprintf(stderr, "xpbd-report: %d figure(s) not rendered (see the messages above)\n",
                    figs_missing);
    }
    const int gnuplot_ok = run.gnuplot || !ctx.nfigs || !(ctx.want_png || ctx.want_pdf);
    const int pdf_ok = run.pdf > 0;
    xr_write_checks_tsv(&ctx);
    xr_write_figures_tsv(&ctx);
    xr_write_references_tsv(&ctx);
    xr_write_md(&ctx, gnuplot_ok, pdf_ok);
    xr_progress_clear(&ctx);

    /* the phases overlap: when each ended, from the start */
    printf("sections done at %.2f s, figures at %.2f s (gnuplot %.2f s in all), report.pdf "
           "%.2f s from %.2f s; %.2f s in all; output in %s/ (report.md%s)\n",
           run.sections, run.figures, run.gnuplot_s, run.pdf_end - run.pdf_start, run.pdf_start,
           run.total, ctx.out, pdf_ok ? ", report.pdf" : "");
    printf("%zu passed, %zu failed\n", passed, failed);
    fflush(stdout);
    if (self_test) {
        /* every check must be able to fail: its measured value just past
         * its tolerance gets FAIL from the same verdict as the run's */
        const size_t survivors = xr_self_test(&ctx);
        return survivors || failed ? XR_EXIT_CHECKS : XR_EXIT_OK;
    }
    if (failed)
        return XR_EXIT_CHECKS;
    if (figs_missing || !gnuplot_ok)
        return XR_EXIT_FIGURES;
    if (ctx.want_pdf && !pdf_ok)
        return XR_EXIT_PDF;
    return XR_EXIT_OK;
}
