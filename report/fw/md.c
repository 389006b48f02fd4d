/* SPDX-License-Identifier: MIT */
/* md.c: DIR/report.md and the framework's own data tables
 * (DIR/data/checks.tsv, figures.tsv, references.tsv). */
#define _POSIX_C_SOURCE 200809L

#include "fw.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

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

int xr_write_checks_tsv(const xr_ctx *ctx)
{
    char *path = xr_path(ctx->out, "/data/checks.tsv", NULL);
    FILE *f = xr_create(path);
    free(path);
    if (!f)
        return -1;
    fputs("section\tcheck\tours\treference\tkind\ttol\tlo\thi\ttolerance\ttolerance_from\tresult\n",
          f);
    for (size_t i = 0; i < ctx->nchecks; ++i) {
        const xr_checkrec *c = &ctx->checks[i];
        char t[96];
        xr_tol_text(t, sizeof t, c->tol);
        fprintf(f, "%s\t", xr_sections[c->section]->name);
        xr_tsv_cell(f, c->what);
        fprintf(f, "\t%.17g\t%.17g\t%s\t%.17g\t%.17g\t%.17g\t", c->ours, c->expected,
                xr_tol_kind_name(c->tol.kind), c->tol.tol, c->tol.lo, c->tol.hi);
        xr_tsv_cell(f, t);
        fputc('\t', f);
        xr_tsv_cell(f, c->tol_from ? c->tol_from : "-");
        fprintf(f, "\t%s\n", c->pass ? "PASS" : "FAIL");
    }
    return fclose(f) == 0 ? 0 : -1;
}

void xr_write_figures_tsv(const xr_ctx *ctx)
{
    char *path = xr_path(ctx->out, "/data/figures.tsv", NULL);
    FILE *f = xr_create(path);
    free(path);
    if (!f)
        return;
    fputs("figure\tsection\tpng\tpdf\tcaption\n", f);
    for (size_t i = 0; i < ctx->nfigs; ++i) {
        const xr_figrec *g = &ctx->figs[i];
        fprintf(f, "%s\t%s\t%d\t%d\t", g->name, xr_sections[g->section]->name, g->png, g->pdf);
        xr_tsv_cell(f, g->caption);
        fputc('\n', f);
    }
    fclose(f);
}

void xr_write_references_tsv(const xr_ctx *ctx)
{
    char *path = xr_path(ctx->out, "/data/references.tsv", NULL);
    FILE *f = xr_create(path);
    free(path);
    if (!f)
        return;
    fputs("section\titem\toriginal\tours\tdeviation_pct\tverdict\tcheck\texplained\n", f);
    for (size_t i = 0; i < ctx->nrefs; ++i) {
        const xr_refrec *r = &ctx->refs[i];
        char v[32];
        xr_reference_verdict_text(v, sizeof v, r);
        fprintf(f, "%s\t", xr_sections[r->section]->name);
        xr_tsv_cell(f, r->item);
        fprintf(f, "\t%.17g\t%.17g\t%.17g\t%s\t", r->original, r->ours,
                xr_deviation_pct(r->original, r->ours), r->missing ? "not reproduced" : v);
        xr_tsv_cell(f, r->check ? r->check : "-");
        fputc('\t', f);
        xr_tsv_cell(f, r->explained ? r->explained : "-");
        fputc('\n', f);
    }
    fclose(f);
}

/* The anchor a markdown renderer (GitHub's rule) gives heading text:
 * lower case, spaces to '-', punctuation other than '-' and '_' dropped. */
static void xr_md_anchor(FILE *f, const char *heading)
{
    /* of the heading as printed, its notation in Unicode */
    xr_buf h = {0};
    xr_notation_md(&h, heading, strlen(heading));
    xr_buf_put(&h, "", 1);
    for (const unsigned char *s = (const unsigned char *)h.s; *s; ++s) {
        if (*s >= 'A' && *s <= 'Z')
            fputc(*s - 'A' + 'a', f);
        else if (*s == ' ')
            fputc('-', f);
        else if ((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || *s == '-' || *s == '_' ||
                 *s >= 0x80)
            fputc(*s, f);
    }
    free(h.s);
}

/* The "Summary": every reference number beside ours with its verdict,
 * then the reference items not reproduced. */
static void xr_write_md_summary(FILE *f, const xr_ctx *ctx)
{
    fprintf(f, "# Summary\n\n");
    size_t nv, nt, np, nm, nexp = 0;
    xr_count_references(ctx, &nv, &nt, &np, &nm);
    for (size_t i = 0; i < ctx->nrefs; ++i)
        nexp += !ctx->refs[i].missing && ctx->refs[i].explained;
    if (nv) {
        fprintf(f,
                "%zu numbers of the original measurements beside ours: %zu tested (%zu passed, "
                "%zu failed), %zu not checked; %zu with a paragraph explaining the difference. "
                "The deviation is (ours - original) / |original|. A row's verdict is that of "
                "the check named beside it (its tolerance and where that comes from are in the "
                "section's check table); a row no check covers says \"not checked\".\n\n"
                "| section | item | original | ours | deviation | verdict | explained |\n"
                "|---|---|---|---|---|---|---|\n",
                nv, nt, np, nt - np, nv - nt, nexp);
        for (size_t i = 0; i < ctx->nrefs; ++i) {
            const xr_refrec *r = &ctx->refs[i];
            if (r->missing)
                continue;
            char sv[40], ov[40], vv[32];
            snprintf(sv, sizeof sv, "%.6g", r->original);
            snprintf(ov, sizeof ov, "%.6g", r->ours);
            xr_reference_verdict_text(vv, sizeof vv, r);
            const double d = xr_deviation_pct(r->original, r->ours);
            fputs("| [", f);
            xr_md_cell(f, xr_sections[r->section]->title);
            fputs("](#", f);
            xr_md_anchor(f, xr_sections[r->section]->title);
            fputs(") | ", f);
            xr_md_cell(f, r->item);
            if (d == 0) /* also -0: no sign */
                fprintf(f, " | %s | %s | 0%% | ", sv, ov);
            else if (isfinite(d))
                fprintf(f, " | %s | %s | %+.3g%% | ", sv, ov, d);
            else
                fprintf(f, " | %s | %s | \u2014 | ", sv, ov);
            if (r->verdict == XR_REF_NOT_CHECKED) {
                fputs(vv, f);
            } else {
                fprintf(f, "%s%s%s (", r->verdict ? "" : "**", vv, r->verdict ? "" : "**");
                xr_md_cell(f, r->check);
                fputc(')', f);
            }
            fputs(" | ", f);
            if (r->explained) {
                fputc('[', f);
                xr_md_cell(f, r->explained);
                fputs("](#", f);
                xr_md_anchor(f, r->explained);
                fputs(") |\n", f);
            } else {
                fputs("\u2014 |\n", f);
            }
        }
        fputc('\n', f);
    } else {
        fprintf(f, "No section of this run compared a number with an original measurement.\n\n");
    }
    if (nm) {
        fprintf(f, "**Reference items not reproduced**\n\n");
        for (size_t i = 0; i < ctx->nrefs; ++i) {
            const xr_refrec *r = &ctx->refs[i];
            if (!r->missing)
                continue;
            fprintf(f, "* ");
            xr_md_cell(f, r->item);
            fprintf(f, " (%s): ", xr_sections[r->section]->title);
            xr_md_cell(f, r->explained ? r->explained : "");
            fputc('\n', f);
        }
        fputc('\n', f);
    } else {
        fprintf(f, "Every reference item of the sections run is reproduced.\n\n");
    }
}

static void xr_write_md_checks(FILE *f, const xr_ctx *ctx, size_t s)
{
    size_t nc = 0;
    for (size_t i = 0; i < ctx->nchecks; ++i)
        nc += ctx->checks[i].section == s;
    if (!nc)
        return;
    fputs("|", f);
    for (int k = 0; k < XR_CHECK_COLS; ++k)
        fprintf(f, " %s |", xr_check_columns[k]);
    fputs("\n|", f);
    for (int k = 0; k < XR_CHECK_COLS; ++k)
        fputs("---|", f);
    fputc('\n', f);
    for (size_t i = 0; i < ctx->nchecks; ++i) {
        if (ctx->checks[i].section != s)
            continue;
        xr_check_row r;
        xr_check_row_of(&ctx->checks[i], &r);
        fputc('|', f);
        for (int k = 0; k < XR_CHECK_COLS; ++k) {
            fputc(' ', f);
            xr_md_cell(f, r.cell[k]);
            fputs(" |", f);
        }
        fputc('\n', f);
    }
    fputc('\n', f);
}

void xr_write_md(const xr_ctx *ctx, int gnuplot_ok, int pdf_ok)
{
    char *path = xr_path(ctx->out, "/report.md", NULL);
    FILE *out = xr_create(path);
    if (!out) {
        free(path);
        return;
    }
    /* written in the sections' ASCII notation, then printed with the
     * notation in Unicode (xr_notation_md) */
    char *text = NULL;
    size_t text_len = 0;
    FILE *f = open_memstream(&text, &text_len);
    if (!f)
        xr_die_nomem();
    size_t passed, failed;
    xr_count_checks(ctx, SIZE_MAX, &passed, &failed);
    const xr_prov *p = &ctx->prov;
    fprintf(f, "# xpbd-report\n\n");
    fprintf(f, "Four reference scenarios reproduced with the xpbd kernels, and every SIMD path checked "
               "against the scalar reference: S0, one XPBD distance constraint between two points; S1, "
               "a hanging chain and a cloth, from explicit springs through PBD to XPBD; S2, contacts "
               "in a stack of balls, and who backs out of an overlap; S3, soft bodies and the rules "
               "an engine keeps. Each has a closed form checked to its stated precision and, where "
               "none exists, measurements made with an independent solver when the scenarios were "
               "first written down (the original measurements), shown beside ours as a trend to "
               "compare with, never tuned to.\n\n");
    fprintf(f, "* run: `xpbd-report%s`, %s\n", ctx->quick ? " --quick" : "",
            ctx->quick ? "quick sweeps (every closed-form check still made)" : "full sweeps");
    fprintf(f, "* checks: **%zu passed, %zu failed** (all of them in `data/checks.tsv`)\n", passed,
            failed);
    size_t nv, nt, np, nm;
    xr_count_references(ctx, &nv, &nt, &np, &nm);
    fprintf(f, "* original measurements: %zu beside ours, %zu tested by a check, %zu not checked, "
               "%zu not reproduced (`data/references.tsv`)\n",
            nv, nt, nv - nt, nm);
    const char *label, *value;
    for (size_t i = 0; (value = xr_prov_row(p, i, &label)) != NULL; ++i)
        fprintf(f, "* %s: %s\n", label, value);
    fprintf(f, "* data: `data/NAME.tsv` (header row, `%%.17g` numbers); figures: `fig/NAME.png` "
               "and `fig/NAME.pdf`; typeset report: `report.pdf`%s\n\n",
            pdf_ok ? "" : " (not made in this run)");
    /* the scripts' place relative to this directory: the report names no
     * directory of the machine that made it */
    char *plots = xr_path_relative(ctx->out, ctx->plots);
    fprintf(f,
            "Re-render a figure by hand, from this directory (the scripts are installed in "
            "`share/xpbd/plots` beside the tools):\n\n"
            "    gnuplot -e \"data='data/NAME.tsv'; out='fig/NAME.png'; fmt='png'\" "
            "%s/NAME.gp\n\n",
            plots ? plots : "PLOTS");
    free(plots);
    if (!gnuplot_ok)
        fprintf(f, "> **Figures missing:** gnuplot was not found when this report was made. "
                   "Install it (`apt-get install gnuplot-nox`) and run xpbd-report again, or "
                   "render each figure with the command above.\n\n");

    fprintf(f, "# How to read this\n\n");
    for (size_t i = 0; xr_how_to_read[i]; ++i)
        fputs(xr_how_to_read[i], f);
    xr_write_md_summary(f, ctx);

    size_t order[XR_NSECTIONS + 1];
    const size_t n = xr_section_order(ctx, order);
    size_t part = XR_NPARTS;
    for (size_t k = 0; k < n; ++k) {
        const size_t s = order[k];
        const xr_secrec *r = &ctx->sec[s];
        const xr_section *x = xr_sections[s];
        if (xr_part_of(x) != part) {
            part = xr_part_of(x);
            fprintf(f, "# %s\n\n%s", xr_parts[part].title, xr_parts[part].intro);
        }
        /* the heading is the title; the identifier, which a reader types
         * only to run the section alone, in small print under it */
        fprintf(f, "## %s\n\n*%s%sxpbd-report --only %s*\n\n", x->title,
                x->scenario && *x->scenario ? x->scenario : "", x->scenario && *x->scenario ? "; " : "", x->name);
        if (r->md.s)
            fprintf(f, "%s\n", r->md.s);
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
        size_t passed, failed;
        xr_count_checks(ctx, s, &passed, &failed);
        if (passed + failed)
            fprintf(f, "*Checks: %zu passed, %zu failed; the table: appendix A.%zu.*\n\n",
                    passed, failed, k + 1);
        fprintf(f, "Section time: %.2f s.\n\n", r->seconds);
    }
    xr_buf concl = {0};
    xr_conclusions(&concl, ctx);
    fprintf(f, "# Conclusions and limitations\n\n%s# References\n\n%s", concl.s ? concl.s : "",
            xr_references);
    free(concl.s);
    fprintf(f, "# Appendix A: the checks\n\n%s", xr_appendix_intro);
    for (size_t k = 0; k < n; ++k) {
        size_t passed, failed;
        xr_count_checks(ctx, order[k], &passed, &failed);
        if (passed + failed == 0)
            continue;
        fprintf(f, "## A.%zu %s\n\n", k + 1, xr_sections[order[k]]->title);
        xr_write_md_checks(f, ctx, order[k]);
    }
    if (fclose(f) != 0)
        xr_die_nomem();
    xr_buf md = {0};
    xr_notation_md(&md, text, text_len);
    free(text);
    int write_failed = md.len && fwrite(md.s, 1, md.len, out) != md.len;
    int close_failed = fclose(out) != 0; /* closed whether or not the write failed */
    if (write_failed || close_failed)
        fprintf(stderr, "xpbd-report: error writing %s\n", path);
    free(md.s);
    free(path);
}
