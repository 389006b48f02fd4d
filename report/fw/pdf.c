/* SPDX-License-Identifier: MIT */
/* pdf.c: the typeset DIR/report.pdf.
 *
 * Typeset with groff (-ms macros, tbl for the tables, gropdf for PDF)
 * rather than LaTeX: groff is a few MB and already on most Debian systems
 * (groff-base ships with man; gropdf is in the `groff` package), where a
 * LaTeX install able to do the same (tables, PDF figures, bookmarks) is
 * hundreds of MB; and the report needs no mathematics typesetting beyond
 * what the figures already carry.
 *
 * The document (DIR/pdf/report.ms, kept for inspection) is one A4 page size
 * throughout: a title page with the provenance, a contents page with page
 * numbers, the summary against the reference values, then per section its heading
 * (a PDF bookmark), prose and tables (section markdown converted to -ms and
 * tbl), its figures (gnuplot's pdfcairo output, 7.5 in wide, into the margins,
 * at the size drawn, with gropdf's pdfpic) with their captions, and its check table (ours /
 * reference / tolerance / tolerance from / verdict).
 *
 * Page numbers for the contents and the summary's references come from a
 * first groff run that reports the page of every heading on stderr
 * (.tm XRPAGE tag page); the second run prints them. Both runs lay out
 * the same text (the first with placeholder numbers of the same width),
 * so the pages do not move between them.
 *
 * gropdf 1.22 cannot read cairo's page dictionary comment ("/Type /Page
 * % 1"): the figures are copied into DIR/pdf/ with that comment blanked
 * (same length, so the file's cross-reference offsets stay valid). */
#define _POSIX_C_SOURCE 200809L

#include "fw.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Page geometry: A4, text 6.5 in wide, centred. */
#define XR_PAGE_W_IN 8.27
#define XR_PAGE_H_IN 11.69
#define XR_LINE_IN 6.5
/* Figures reach into the margins, up to 7.5 in wide. fw/common.gp
 * draws them at that width (and at most 45% of the page high), so they
 * are placed at the size they are drawn: scale 1, their text at the 9 pt
 * and up it was set in (report.figures checks the scale). */
#define XR_FIG_IN 7.5
#define XR_RES 72000.0 /* gropdf basic units per inch */

typedef struct xr_page_ref {
    char *tag;
    int page;
} xr_page_ref;

/* A section's table longer than this many rows (header included) is
 * printed in appendix C, the section keeping a line that points to it: the
 * text and figures of a part stay together, the long listings at the end. */
#define XR_INLINE_ROWS 5

struct xr_table;
typedef struct xr_doc {
    xr_buf b;
    const xr_ctx *ctx;
    const xr_page_ref *refs; /* from the first run; NULL in the first run */
    size_t nrefs;
    const char *figdir; /* DIR/pdf */
    size_t section;     /* the section being written, SIZE_MAX outside one */
    struct xr_table *deferred; /* the long tables for appendix C, in order */
    size_t *deferred_sec;      /* the section each came from */
    size_t ndeferred, cap_deferred, cap_deferred_sec;
} xr_doc;

/* ------------------------------------------------------------ text --- */

/* Appends n bytes of plain text, escaped for troff (no request can start:
 * the caller starts every line with \&). */
static void xr_roff_plain(xr_buf *b, const char *s, size_t n)
{
    for (size_t i = 0; i < n; ++i) {
        if (s[i] == '\\')
            xr_buf_put(b, "\\e", 2);
        else if (s[i] == '\n' || s[i] == '\t')
            xr_buf_put(b, " ", 1);
        else
            xr_buf_put(b, s + i, 1);
    }
}

/* The font for a markup state over base font `base` ('R' or 'B'): code
 * in Courier (bold when the base or the markup is bold), else Times. */
static void xr_roff_font(xr_buf *b, char base, int bold, int ital, int code)
{
    const int B = bold || base == 'B';
    const char *f = code ? (B ? "CB" : "CR") : B ? (ital ? "BI" : "B") : ital ? "I" : "R";
    xr_buf_printf(b, "\\f[%s]", f);
}

/* Appends markdown inline text as troff: `code`, **bold**, *italic*,
 * [text](link) as text, \| and \* as the characters; ends in `base`. */
static void xr_roff_inline_base(xr_buf *b, const char *s, size_t n, char base)
{
    int bold = 0, ital = 0;
    for (size_t i = 0; i < n; ++i) {
        const char c = s[i];
        if (c == '\\' && i + 1 < n && strchr("|*_`[]#", s[i + 1])) {
            xr_buf_put(b, s + i + 1, 1);
            ++i;
        } else if (c == '`') {
            const char *end = memchr(s + i + 1, '`', n - i - 1);
            if (!end) {
                xr_buf_put(b, "`", 1);
                continue;
            }
            xr_roff_font(b, base, bold, ital, 1);
            xr_roff_plain(b, s + i + 1, (size_t)(end - (s + i + 1)));
            xr_roff_font(b, base, bold, ital, 0);
            i = (size_t)(end - s);
        } else if (c == '*' && i + 1 < n && s[i + 1] == '*') {
            bold = !bold;
            xr_roff_font(b, base, bold, ital, 0);
            ++i;
        } else if (c == '*' && (ital || (i + 1 < n && s[i + 1] != ' ' &&
                                         memchr(s + i + 1, '*', n - i - 1)))) {
            ital = !ital;
            xr_roff_font(b, base, bold, ital, 0);
        } else if (c == '[') {
            /* [text](target): the text */
            const char *close = memchr(s + i, ']', n - i);
            const char *par = close ? memchr(close, ')', n - (size_t)(close - s)) : NULL;
            if (close && (size_t)(close - s) + 1 < n && close[1] == '(' && par) {
                xr_roff_plain(b, s + i + 1, (size_t)(close - (s + i + 1)));
                i = (size_t)(par - s);
            } else {
                xr_buf_put(b, "[", 1);
            }
        } else {
            /* the notation (alpha~, lambda, h^2 ...) in groff's Greek */
            const size_t used = xr_notation_at(b, s, i, n, 1);
            if (used)
                i += used - 1;
            else
                xr_roff_plain(b, s + i, 1);
        }
    }
    if (bold || ital)
        xr_roff_font(b, base, 0, 0, 0);
}

static void xr_roff_inline(xr_buf *b, const char *s, size_t n)
{
    xr_roff_inline_base(b, s, n, 'R');
}

static void xr_roff_inline_str(xr_buf *b, const char *s)
{
    xr_roff_inline(b, s, strlen(s));
}

/* Text for a bookmark or .tm argument: printable ASCII without quotes or
 * backslashes, at most 90 characters. */
static void xr_ascii(char *out, size_t size, const char *s, size_t n)
{
    size_t k = 0;
    for (size_t i = 0; i < n && k + 1 < size && k < 90; ++i) {
        const unsigned char c = (unsigned char)s[i];
        if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\' && c != '`' && c != '*')
            out[k++] = (char)c;
        else if (c == '\t' || c == '\n')
            out[k++] = ' ';
    }
    out[k] = 0;
}

/* A destination name for heading text: "h-" and the heading's letters,
 * digits, '-' and '_' (spaces as '-'), lower case. */
static void xr_tag(char *out, size_t size, const char *prefix, const char *text, size_t n)
{
    size_t k = (size_t)snprintf(out, size, "%s", prefix);
    for (size_t i = 0; i < n && k + 1 < size; ++i) {
        char c = text[i];
        if (c >= 'A' && c <= 'Z')
            c = (char)(c - 'A' + 'a');
        if (c == ' ')
            c = '-';
        if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_')
            out[k++] = c;
    }
    out[k] = 0;
}

/* The page of a tag from the first run, 0 when unknown (first run). */
static int xr_page_of(const xr_doc *d, const char *tag)
{
    for (size_t i = 0; i < d->nrefs; ++i)
        if (strcmp(d->refs[i].tag, tag) == 0)
            return d->refs[i].page;
    return 0;
}

/* A page number as printed: three placeholder digits in the first run. */
static void xr_page_text(const xr_doc *d, const char *tag, char *out, size_t size)
{
    if (!d->refs)
        snprintf(out, size, "000");
    else
        snprintf(out, size, "%d", xr_page_of(d, tag));
}

/* A heading: keeps room for a few lines after it, plants the bookmark
 * (and destination `tag`), reports its page, then sets the text. level 1:
 * a part (or the front and back matter), 2: a section, 3: a heading
 * inside one. */
static void xr_heading(xr_doc *d, int level, const char *tag, const char *text, size_t n)
{
    char ascii[128];
    xr_ascii(ascii, sizeof ascii, text, n);
    xr_buf_printf(&d->b, ".ne %dv\n.pdfbookmark -T %s %d \"%s\"\n.tm XRPAGE %s \\n%%\n.SH %d\n\\&",
                  level < 3 ? 10 : 6, tag, level, ascii, tag, level);
    xr_roff_inline(&d->b, text, n);
    xr_buf_put(&d->b, "\n.LP\n", 5);
}

/* ----------------------------------------------------------- tables --- */

typedef struct xr_table {
    size_t ncols, nrows; /* rows[0] is the header */
    char **cells;        /* nrows x ncols, markdown inline text (malloc'd) */
    size_t cap;
} xr_table;

static void xr_table_add_row(xr_table *t, char **row)
{
    const size_t need = (t->nrows + 1) * t->ncols;
    if (need > t->cap) {
        const size_t cap = need > 2 * t->cap ? need : 2 * t->cap;
        char **c = realloc(t->cells, cap * sizeof *c);
        if (!c)
            xr_die_nomem();
        t->cells = c;
        t->cap = cap;
    }
    for (size_t c = 0; c < t->ncols; ++c)
        t->cells[t->nrows * t->ncols + c] = row[c] ? row[c] : xr_strdup("");
    ++t->nrows;
}

static void xr_table_free(xr_table *t)
{
    for (size_t i = 0; i < t->nrows * t->ncols; ++i)
        free(t->cells[i]);
    free(t->cells);
}

/* Characters as printed (markup and UTF-8 continuation bytes not counted). */
static size_t xr_visible_len(const char *s)
{
    size_t n = 0;
    for (; *s; ++s)
        if ((*s & 0xC0) != 0x80 && *s != '`' && *s != '*')
            ++n;
    return n;
}

static int xr_is_number(const char *s)
{
    char *end;
    if (!*s)
        return 0;
    strtod(s, &end);
    while (*end == ' ' || *end == '%' || *end == 'x')
        ++end;
    return *end == 0;
}

/* The longest run of characters without a space, as printed: the narrowest
 * a cell can wrap to. */
static size_t xr_longest_word(const char *s)
{
    size_t best = 0, cur = 0;
    for (; *s; ++s) {
        if (*s == ' ') {
            cur = 0;
        } else if ((*s & 0xC0) != 0x80 && *s != '`' && *s != '*') {
            if (++cur > best)
                best = cur;
        }
    }
    return best;
}

/* Estimated widths, in ems of the table's point size: an average character
 * of Times (digits, lower case, some capitals and bold header text) is
 * taken as 0.55 em, the gap between columns as tbl's 3 n (1.5 em) */
#define XR_CHAR_EM 0.55
#define XR_GAP_EM 1.5

/* Emits t with tbl at the largest point size from 9 down to 7 at which it
 * fits the line: first with every cell on one line; else with the widest
 * columns wrapping (a width of their own, their header and text cells as
 * text blocks), each column no narrower than its longest word and the
 * room left shared out in proportion to how much each would need to stay
 * on one line. A table too wide even then is split: the columns that fit,
 * then the first column again with the others. The header repeats on
 * every page. */
static void xr_emit_table(xr_doc *d, const xr_table *t)
{
    if (t->nrows < 1 || t->ncols < 1)
        return;
    const size_t nc = t->ncols;
    double *nat = calloc(nc, sizeof *nat);  /* one line, ems */
    double *mn = calloc(nc, sizeof *mn);    /* wrapped as far as it goes, ems */
    double *width = calloc(nc, sizeof *width); /* points; 0: no width of its own */
    int *numeric = calloc(nc, sizeof *numeric);
    if (!nat || !mn || !width || !numeric)
        xr_die_nomem();
    for (size_t c = 0; c < nc; ++c) {
        numeric[c] = t->nrows > 1;
        size_t natlen = 0, minlen = 0;
        for (size_t r = 0; r < t->nrows; ++r) {
            const char *cell = t->cells[r * nc + c];
            const size_t len = xr_visible_len(cell), word = xr_longest_word(cell);
            natlen = len > natlen ? len : natlen;
            minlen = word > minlen ? word : minlen;
            if (r > 0 && *cell && strcmp(cell, "-") != 0 && !xr_is_number(cell))
                numeric[c] = 0;
        }
        nat[c] = (double)natlen * XR_CHAR_EM;
        mn[c] = (double)minlen * XR_CHAR_EM;
    }
    const double line = 0.97 * XR_LINE_IN * 72.0;
    double sum_nat = 0, sum_min = 0;
    for (size_t c = 0; c < nc; ++c) {
        sum_nat += nat[c] + XR_GAP_EM;
        sum_min += mn[c] + XR_GAP_EM;
    }
    if (sum_min * 7.0 > line && nc > 2) {
        /* too wide even wrapped: the columns that fit, then the first
         * column again with the rest (no landscape pages) */
        size_t k = 1;
        double used = mn[0] + XR_GAP_EM;
        while (k < nc - 1 && (used + mn[k] + XR_GAP_EM) * 7.0 <= line)
            used += mn[k++] + XR_GAP_EM;
        xr_table part[2] = {{.ncols = k}, {.ncols = nc - k + 1}};
        for (size_t r = 0; r < t->nrows; ++r) {
            char **row = calloc(nc + 1, sizeof *row);
            if (!row)
                xr_die_nomem();
            for (size_t c = 0; c < k; ++c)
                row[c] = xr_strdup(t->cells[r * nc + c]);
            xr_table_add_row(&part[0], row);
            row[0] = xr_strdup(t->cells[r * nc]);
            for (size_t c = k; c < nc; ++c)
                row[c - k + 1] = xr_strdup(t->cells[r * nc + c]);
            xr_table_add_row(&part[1], row);
            free(row);
        }
        xr_emit_table(d, &part[0]);
        xr_buf_printf(&d->b, ".LP\n.ps -1\n\\&\\fI(continued: the table's other columns)\\f[R]\n.ps\n");
        xr_emit_table(d, &part[1]);
        xr_table_free(&part[0]);
        xr_table_free(&part[1]);
        free(nat);
        free(mn);
        free(width);
        free(numeric);
        return;
    }
    double ps = 9.0;
    int wrap = 0;
    while (ps > 7.0 && sum_nat * ps > line)
        ps -= 0.5;
    if (sum_nat * ps > line) {
        /* wrap: the largest size at which the narrowest layout fits */
        wrap = 1;
        for (ps = 9.0; ps > 7.0 && sum_min * ps > line; ps -= 0.5)
            ;
        const double room = line / ps - sum_min; /* ems beyond the minimum */
        const double want = sum_nat - sum_min;
        for (size_t c = 0; c < nc; ++c) {
            const double extra = room > 0 && want > 0 ? room * (nat[c] - mn[c]) / want : 0;
            const double w = mn[c] + (extra < nat[c] - mn[c] ? extra : nat[c] - mn[c]);
            if (w < nat[c] - 1e-9) /* this column wraps */
                width[c] = (w > 2.0 ? w : 2.0) * ps;
        }
    }

    xr_buf *b = &d->b;
    xr_buf_printf(b, ".LP\n.ps %.1f\n.vs %.1fp\n.TS H\ncenter box;\n", ps, ps * 1.2);
    for (size_t c = 0; c < nc; ++c)
        xr_buf_printf(b, "%slb", c ? " " : "");
    xr_buf_put(b, "\n", 1);
    for (size_t c = 0; c < nc; ++c) {
        xr_buf_printf(b, "%s%s", c ? " " : "", numeric[c] ? "r" : "l");
        if (width[c] > 0)
            xr_buf_printf(b, "w(%.0fp)", width[c]);
    }
    xr_buf_put(b, ".\n", 2);
    for (size_t r = 0; r < t->nrows; ++r) {
        for (size_t c = 0; c < nc; ++c) {
            const char *cell = t->cells[r * nc + c];
            if (c)
                xr_buf_put(b, "\t", 1);
            if (wrap && width[c] > 0 && strchr(cell, ' ')) {
                xr_buf_put(b, "T{\n.na\n\\&", 9);
                xr_roff_inline_base(b, cell, strlen(cell), r == 0 ? 'B' : 'R');
                xr_buf_put(b, "\nT}", 3);
            } else {
                xr_buf_put(b, "\\&", 2);
                xr_roff_inline_str(b, cell);
            }
        }
        xr_buf_put(b, "\n", 1);
        if (r == 0)
            xr_buf_put(b, "_\n.TH\n", 6);
    }
    xr_buf_put(b, ".TE\n.LP\n", 8);
    free(nat);
    free(mn);
    free(width);
    free(numeric);
}

/* Splits a markdown table row "| a | b |" into cells (malloc'd, trimmed;
 * "\|" stays inside a cell). Returns the count. */
static size_t xr_md_row(const char *s, size_t n, char ***out)
{
    size_t cap = 0, k = 0;
    char **cells = NULL;
    size_t i = 0;
    while (i < n && s[i] == ' ')
        ++i;
    if (i < n && s[i] == '|')
        ++i;
    while (i < n) {
        size_t j = i;
        while (j < n && !(s[j] == '|' && (j == 0 || s[j - 1] != '\\')))
            ++j;
        if (j >= n) {
            /* text after the last '|': a cell only if not blank */
            size_t a = i;
            while (a < n && s[a] == ' ')
                ++a;
            if (a >= n)
                break;
        }
        size_t a = i, e = j;
        while (a < e && s[a] == ' ')
            ++a;
        while (e > a && s[e - 1] == ' ')
            --e;
        cells = xr_grow(cells, &cap, k, sizeof *cells);
        cells[k] = malloc(e - a + 1);
        if (!cells[k])
            xr_die_nomem();
        memcpy(cells[k], s + a, e - a);
        cells[k][e - a] = 0;
        ++k;
        i = j + 1;
    }
    *out = cells;
    return k;
}

/* ----------------------------------------------------------- markdown --- */

/* The markdown a section wrote (xr_md), as -ms: paragraphs, ### headings
 * (bookmarks, destinations for the summary), pipe tables (tbl), bullet
 * and numbered lists, indented code, block quotes; images are left out
 * (the framework places the figures). */
static void xr_md_to_roff(xr_doc *d, const char *md)
{
    xr_buf *b = &d->b;
    const char *p = md;
    int in_par = 0, in_code = 0;
    while (*p) {
        const char *eol = strchr(p, '\n');
        const size_t n = eol ? (size_t)(eol - p) : strlen(p);
        const char *next = eol ? eol + 1 : p + n;
        size_t ind = 0;
        while (ind < n && p[ind] == ' ')
            ++ind;
        const int blank = ind == n;
        if (in_code && (ind < 4 || blank)) {
            xr_buf_printf(b, ".ft\n.ps\n.fi\n");
            in_code = 0;
        }
        if (blank) {
            in_par = 0;
        } else if (ind >= 4) {
            if (!in_code) {
                xr_buf_printf(b, ".LP\n.nf\n.ps -1\n.ft CR\n");
                in_code = 1;
            }
            xr_buf_put(b, "\\&", 2);
            xr_roff_plain(b, p + 4, n - 4);
            xr_buf_put(b, "\n", 1);
        } else if (p[ind] == '#') {
            size_t h = ind;
            while (h < n && p[h] == '#')
                ++h;
            while (h < n && p[h] == ' ')
                ++h;
            char tag[160];
            xr_tag(tag, sizeof tag, "h-", p + h, n - h);
            xr_heading(d, 3, tag, p + h, n - h);
            in_par = 0;
        } else if (p[ind] == '|') {
            xr_table t = {0};
            const char *q = p;
            while (*q) {
                const char *e = strchr(q, '\n');
                const size_t m = e ? (size_t)(e - q) : strlen(q);
                size_t qi = 0;
                while (qi < m && q[qi] == ' ')
                    ++qi;
                if (qi >= m || q[qi] != '|')
                    break;
                char **cells;
                const size_t k = xr_md_row(q, m, &cells);
                int rule = k > 0;
                for (size_t c = 0; c < k && rule; ++c)
                    rule = strspn(cells[c], "-: ") == strlen(cells[c]) && *cells[c];
                if (t.ncols == 0)
                    t.ncols = k;
                if (!rule && k > 0) {
                    char **row = calloc(t.ncols, sizeof *row);
                    if (!row)
                        xr_die_nomem();
                    for (size_t c = 0; c < t.ncols && c < k; ++c)
                        row[c] = cells[c];
                    for (size_t c = t.ncols; c < k; ++c)
                        free(cells[c]);
                    xr_table_add_row(&t, row);
                    free(row);
                } else {
                    for (size_t c = 0; c < k; ++c)
                        free(cells[c]);
                }
                free(cells);
                q = e ? e + 1 : q + m;
            }
            if (d->section != SIZE_MAX && t.nrows > XR_INLINE_ROWS) {
                /* to appendix C; here, where it is */
                char tag[32], pg[16];
                snprintf(tag, sizeof tag, "tab-%zu", d->ndeferred + 1);
                xr_page_text(d, tag, pg, sizeof pg);
                xr_buf_printf(b, ".LP\n\\&\\s-1\\fI(A table of %zu rows: appendix C.%zu, p. %s.)"
                                 "\\f[R]\\s+1\n",
                              t.nrows - 1, d->ndeferred + 1, pg);
                d->deferred = xr_grow(d->deferred, &d->cap_deferred, d->ndeferred,
                                      sizeof *d->deferred);
                d->deferred_sec = xr_grow(d->deferred_sec, &d->cap_deferred_sec, d->ndeferred,
                                          sizeof *d->deferred_sec);
                d->deferred[d->ndeferred] = t;
                d->deferred_sec[d->ndeferred++] = d->section;
            } else {
                xr_emit_table(d, &t);
                xr_table_free(&t);
            }
            next = q;
            in_par = 0;
        } else if (n - ind >= 2 && p[ind] == '!' && p[ind + 1] == '[') {
            /* an image: the framework places the figures itself */
        } else if (n - ind >= 2 && (p[ind] == '*' || p[ind] == '-') && p[ind + 1] == ' ') {
            xr_buf_printf(b, ".IP \\(bu 2\n\\&");
            xr_roff_inline(b, p + ind + 2, n - ind - 2);
            xr_buf_put(b, "\n", 1);
            in_par = 1;
        } else if (p[ind] >= '0' && p[ind] <= '9' && strspn(p + ind, "0123456789") < n - ind &&
                   p[ind + strspn(p + ind, "0123456789")] == '.' &&
                   p[ind + strspn(p + ind, "0123456789") + 1] == ' ') {
            const size_t dl = strspn(p + ind, "0123456789");
            xr_buf_printf(b, ".IP %.*s. 4\n\\&", (int)dl, p + ind);
            xr_roff_inline(b, p + ind + dl + 2, n - ind - dl - 2);
            xr_buf_put(b, "\n", 1);
            in_par = 1;
        } else if (p[ind] == '>') {
            const size_t a = ind + 1 + (ind + 1 < n && p[ind + 1] == ' ');
            if (!in_par)
                xr_buf_printf(b, ".QP\n");
            xr_buf_put(b, "\\&", 2);
            xr_roff_inline(b, p + a, n - a);
            xr_buf_put(b, "\n", 1);
            in_par = 1;
        } else {
            if (!in_par)
                xr_buf_printf(b, ".LP\n");
            xr_buf_put(b, "\\&", 2);
            xr_roff_inline(b, p + ind, n - ind);
            xr_buf_put(b, "\n", 1);
            in_par = 1;
        }
        p = next;
    }
    if (in_code)
        xr_buf_printf(b, ".ft\n.ps\n.fi\n");
}

/* ------------------------------------------------------------ figures --- */

/* Copies a cairo PDF into dst with its "/Type /Page % N" comment blanked;
 * reads the page size from its MediaBox. Returns 0, or -1. */
static int xr_pdf_copy(const char *src, const char *dst, double *w, double *h)
{
    size_t n;
    char *pdf = xr_slurp(src, &n);
    if (!pdf)
        return -1;
    *w = *h = 0;
    static const char page[] = "/Type /Page %";
    for (size_t i = 0; i + sizeof page - 1 < n; ++i)
        if (memcmp(pdf + i, page, sizeof page - 1) == 0)
            for (size_t k = i + sizeof page - 2; k < n && pdf[k] != '\n' && pdf[k] != '\r'; ++k)
                pdf[k] = ' ';
    static const char box[] = "/MediaBox [";
    for (size_t i = 0; i + sizeof box - 1 < n; ++i)
        if (memcmp(pdf + i, box, sizeof box - 1) == 0) {
            double x0, y0, x1, y1;
            if (sscanf(pdf + i + sizeof box - 1, "%lf %lf %lf %lf", &x0, &y0, &x1, &y1) == 4) {
                *w = x1 - x0;
                *h = y1 - y0;
            }
            break;
        }
    FILE *f = fopen(dst, "wb");
    int ok = f && fwrite(pdf, 1, n, f) == n;
    if (f)
        ok = fclose(f) == 0 && ok;
    free(pdf);
    return ok && *w > 0 && *h > 0 ? 0 : -1;
}

static void xr_emit_figure(xr_doc *d, size_t i)
{
    const xr_figrec *g = &d->ctx->figs[i];
    xr_buf *b = &d->b;
    char *src = xr_path(d->ctx->out, "/fig/", g->name);
    char *srcpdf = xr_path(src, ".pdf", NULL);
    char *dst = xr_path(d->figdir, "/", g->name);
    char *dstpdf = xr_path(dst, ".pdf", NULL);
    double w = 0, h = 0;
    const int ok = g->pdf && !strpbrk(dstpdf, " \t'\"\\") &&
                   xr_pdf_copy(srcpdf, dstpdf, &w, &h) == 0;
    if (ok) {
        /* as drawn, but no wider than 7.5 in and no higher than 45% of the
         * page (scaled down to fit otherwise); centred on the text */
        double dw = XR_FIG_IN < w / 72.0 ? XR_FIG_IN : w / 72.0, dh = dw * h / w;
        if (dh > 0.45 * XR_PAGE_H_IN) {
            dh = 0.45 * XR_PAGE_H_IN;
            dw = dh * w / h;
        }
        const double off = (XR_LINE_IN - dw) / 2;
        xr_buf_printf(b,
                      ".LP\n.KF\n.ne %.3fi+4v\n.br\n\\h'%.0fu'\\X'pdf: pdfpic %s -L %.0fz %.0fz'\n"
                      ".br\n.sp %.3fi\n",
                      dh, off * XR_RES, dstpdf, dw * XR_RES, dh * XR_RES, dh);
    } else {
        xr_buf_printf(b, ".LP\n.KF\n\\&\\fI(figure %s not rendered)\\f[R]\n", g->name);
    }
    xr_buf_printf(b, ".LP\n.ps -1\n.vs -1p\n\\&\\f[B]Figure %zu (\\f[CB]", i + 1);
    xr_roff_plain(b, g->name, strlen(g->name));
    xr_buf_printf(b, "\\f[B]).\\f[R] ");
    xr_roff_inline_str(b, g->caption);
    xr_buf_printf(b, "\n.ps\n.vs\n.KE\n.LP\n");
    free(src);
    free(srcpdf);
    free(dst);
    free(dstpdf);
}

/* ------------------------------------------------------------ checks --- */

static void xr_emit_checks(xr_doc *d, size_t s)
{
    const xr_ctx *ctx = d->ctx;
    xr_table t = {.ncols = XR_CHECK_COLS};
    char *row[XR_CHECK_COLS];
    for (int k = 0; k < XR_CHECK_COLS; ++k)
        row[k] = xr_strdup(xr_check_columns[k]);
    xr_table_add_row(&t, row);
    for (size_t i = 0; i < ctx->nchecks; ++i) {
        if (ctx->checks[i].section != s)
            continue;
        xr_check_row r;
        xr_check_row_of(&ctx->checks[i], &r);
        for (int k = 0; k < XR_CHECK_COLS; ++k)
            row[k] = xr_strdup(r.cell[k]);
        xr_table_add_row(&t, row);
    }
    if (t.nrows > 1)
        xr_emit_table(d, &t);
    xr_table_free(&t);
}

/* Appends, for the small print under a section's heading, how many checks
 * it made and where their table is (appendix A.k, k its number). */
static void xr_checks_pointer(xr_doc *d, size_t s)
{
    size_t passed, failed;
    xr_count_checks(d->ctx, s, &passed, &failed);
    if (passed + failed == 0)
        return;
    char tag[96], pg[16];
    snprintf(tag, sizeof tag, "chk-%s", xr_sections[s]->name);
    xr_page_text(d, tag, pg, sizeof pg);
    xr_buf_printf(&d->b, "; checks: %zu passed, %s%zu failed%s (appendix A.%zu, p. %s)", passed,
                  failed ? "\\f[BI]" : "", failed, failed ? "\\f[I]" : "",
                  xr_section_number(d->ctx, s), pg);
}

/* The appendix: every section's check table under a heading of its own. */
static void xr_emit_appendix(xr_doc *d, const size_t *order, size_t n)
{
    xr_buf_printf(&d->b, ".bp\n");
    xr_heading(d, 1, "appendix", "Appendix A: the checks", strlen("Appendix A: the checks"));
    xr_md_to_roff(d, xr_appendix_intro);
    for (size_t k = 0; k < n; ++k) {
        const size_t s = order[k];
        size_t passed, failed;
        xr_count_checks(d->ctx, s, &passed, &failed);
        if (passed + failed == 0)
            continue;
        char tag[96];
        snprintf(tag, sizeof tag, "chk-%s", xr_sections[s]->name);
        xr_buf head = {0};
        xr_buf_printf(&head, "A.%zu  %s", k + 1, xr_sections[s]->title);
        xr_heading(d, 2, tag, head.s, head.len);
        free(head.s);
        xr_emit_checks(d, s);
    }
}

/* ------------------------------------------------------ front matter --- */

static void xr_emit_title(xr_doc *d)
{
    const xr_ctx *ctx = d->ctx;
    const xr_prov *p = &ctx->prov;
    size_t passed, failed;
    xr_count_checks(ctx, SIZE_MAX, &passed, &failed);
    xr_buf *b = &d->b;
    xr_buf_printf(b, ".pdfinfo /Title xpbd-report\n.LP\n\\&\n"
                     ".pdfbookmark -T title 1 \"Title and provenance\"\n"
                     ".sp 1.5i\n.ps 24\n.vs 28p\n.ce\n\\fBxpbd-report\\f[R]\n.sp 0.3i\n"
                     ".ps 13\n.vs 16p\n.ce 2\n");
    xr_buf_printf(b, "\\&Position-based dynamics kernels: the reference scenarios S0 to S3\n"
                     "\\&reproduced, checked against closed forms and the original measurements\n");
    xr_buf_printf(b, ".sp 0.3i\n.ce\n\\&%s run: \\fB%zu checks passed, %zu failed\\f[R]\n.sp 0.5i\n",
                  ctx->quick ? "Quick (--quick)" : "Full", passed, failed);
    xr_table t = {.ncols = 2};
    char *head[2] = {xr_strdup("provenance"), xr_strdup("")};
    xr_table_add_row(&t, head);
    const char *label, *value;
    for (size_t i = 0; (value = xr_prov_row(p, i, &label)) != NULL; ++i) {
        char *row[2] = {xr_strdup(label), xr_strdup(value)};
        xr_table_add_row(&t, row);
    }
    xr_emit_table(d, &t);
    xr_table_free(&t);
    xr_buf_printf(b, ".LP\n.sp 0.4i\n\\&Data tables (\\f(CRdata/NAME.tsv\\f[R]), figures "
                     "(\\f(CRfig/NAME.png\\f[R], \\f(CR.pdf\\f[R]) and the same text as markdown "
                     "(\\f(CRreport.md\\f[R]) sit beside this file.\n");
}

/* Starts a contents line that is one link to destination `tag`: the whole
 * line, leader and page number included, up to the \X'pdf: markend' that
 * the caller puts after the page number (pdfhref L would link only a
 * word and take the tab out of the line). */
static void xr_contents_link(xr_buf *b, const char *tag)
{
    xr_buf_printf(b,
                  "\\&\\X'pdf: markstart \\n[XRST] \\n[XRSB] 0 "
                  "/Subtype /Link /Dest /%s /Border [0 0 0] /Color [0 0 0]'",
                  tag);
}

/* One contents line, linked to `tag`: a chapter, or a part (bold). */
static void xr_contents_chapter(xr_doc *d, const char *tag, const char *text, int bold)
{
    char pg[16];
    xr_page_text(d, tag, pg, sizeof pg);
    xr_contents_link(&d->b, tag);
    xr_buf_printf(&d->b, "%s", bold ? "\\f[B]" : "");
    xr_roff_inline_base(&d->b, text, strlen(text), bold ? 'B' : 'R');
    xr_buf_printf(&d->b, "\\f[R]\001%s\\X'pdf: markend'\n", pg);
}

static void xr_emit_contents(xr_doc *d, const size_t *order, size_t n)
{
    xr_buf *b = &d->b;
    /* XRST, XRSB: the height and depth of a contents line, for its link's
     * box (gropdf's markstart takes them in basic units, as pdfhref does) */
    xr_buf_printf(b, ".bp\n.pdfbookmark -T contents 1 Contents\n.SH 1\nContents\n.LP\n"
                     ".nf\n.ps 9\n.vs 11.5p\n.ta %.2fiR\n.lc .\n"
                     ".nr XRW \\w'\\f[B]Xg\\f[R]'\n.nr XRST \\n[rst]\n.nr XRSB \\n[rsb]\n",
                  XR_LINE_IN);
    char pg[16];
    xr_contents_chapter(d, "howto", "How to read this", 0);
    xr_page_text(d, "summary", pg, sizeof pg);
    xr_contents_link(b, "summary");
    xr_buf_printf(b, "Summary against the reference values\001%s\\X'pdf: markend'\n", pg);
    size_t part = XR_NPARTS;
    for (size_t k = 0; k < n; ++k) {
        const xr_section *x = xr_sections[order[k]];
        if (xr_part_of(x) != part) {
            part = xr_part_of(x);
            char ptag[32];
            snprintf(ptag, sizeof ptag, "part-%zu", part);
            xr_buf_printf(b, ".sp 0.3v\n");
            xr_contents_chapter(d, ptag, xr_parts[part].title, 1);
        }
        char tag[96];
        snprintf(tag, sizeof tag, "sec-%s", x->name);
        xr_page_text(d, tag, pg, sizeof pg);
        /* one line: the title cut at a word near 80 characters, the
         * identifier (what --only takes) in small print after it */
        size_t len = strlen(x->title), cols = 0, cut = len;
        for (size_t i = 0; i < len; ++i) {
            cols += (x->title[i] & 0xC0) != 0x80;
            if (cols > 80 - strlen(x->name) / 2) {
                cut = i;
                while (cut > 0 && x->title[cut] != ' ')
                    --cut;
                break;
            }
        }
        xr_contents_link(b, tag);
        xr_buf_printf(b, "\\h'0.2i'%zu\\h'0.3i'", k + 1);
        xr_roff_inline_base(b, x->title, cut, 'R');
        xr_buf_printf(b, "%s\\h'0.1i'\\s-2\\f(CR", cut < len ? " ..." : "");
        xr_roff_plain(b, x->name, strlen(x->name));
        xr_buf_printf(b, "\\f[R]\\s+2\001%s\\X'pdf: markend'\n", pg);
    }
    xr_buf_printf(b, ".sp 0.3v\n");
    xr_contents_chapter(d, "conclusions", "Conclusions and limitations", 0);
    xr_contents_chapter(d, "references", "References", 0);
    xr_contents_chapter(d, "appendix", "Appendix A: the checks", 0);
    xr_contents_chapter(d, "appendix-refs", "Appendix B: the original measurements beside ours", 0);
    xr_contents_chapter(d, "appendix-tables", "Appendix C: the long tables", 0);
    xr_buf_printf(b, ".lc\n.fi\n.ps\n.vs\n");
}

/* Appendix B: every number of the original measurements beside ours,
 * with its deviation, verdict and explanation. */
static void xr_emit_reference_rows(xr_doc *d)
{
    const xr_ctx *ctx = d->ctx;
    xr_buf *b = &d->b;
    const char *title = "Appendix B: the original measurements beside ours";
    xr_buf_printf(b, ".bp\n");
    xr_heading(d, 1, "appendix-refs", title, strlen(title));
    size_t nv, nt, np, nm, nexp = 0;
    xr_count_references(ctx, &nv, &nt, &np, &nm);
    for (size_t i = 0; i < ctx->nrefs; ++i)
        nexp += !ctx->refs[i].missing && ctx->refs[i].explained;
    if (nv) {
        xr_buf_printf(b,
                      ".LP\n\\&%zu numbers of the original measurements beside ours: %zu tested "
                      "(%zu passed, %zu failed), %zu not checked; %zu with a paragraph "
                      "explaining the difference. The deviation is (ours \\- original) / "
                      "|original|. A row's verdict is that of the check named beside it (its "
                      "tolerance and the tolerance's source are in the check tables); a row no "
                      "check covers says \\(lqnot checked\\(rq. An explanation names its "
                      "heading and page.\n",
                      nv, nt, np, nt - np, nv - nt, nexp);
        xr_table t = {.ncols = 7};
        char *head[7] = {xr_strdup("section"),   xr_strdup("item"),    xr_strdup("original"),
                         xr_strdup("ours"),      xr_strdup("deviation"), xr_strdup("verdict"),
                         xr_strdup("explained")};
        xr_table_add_row(&t, head);
        for (size_t i = 0; i < ctx->nrefs; ++i) {
            const xr_refrec *r = &ctx->refs[i];
            if (r->missing)
                continue;
            char sv[40], ov[40], dv[40], vv[32];
            snprintf(sv, sizeof sv, "%.6g", r->original);
            snprintf(ov, sizeof ov, "%.6g", r->ours);
            xr_reference_verdict_text(vv, sizeof vv, r);
            const double dev = xr_deviation_pct(r->original, r->ours);
            if (dev == 0) /* also -0: no sign */
                snprintf(dv, sizeof dv, "0%%");
            else if (isfinite(dev))
                snprintf(dv, sizeof dv, "%+.3g%%", dev);
            else
                snprintf(dv, sizeof dv, "\u2014");
            xr_buf ver = {0};
            if (r->verdict == XR_REF_NOT_CHECKED)
                xr_buf_printf(&ver, "%s", vv);
            else
                xr_buf_printf(&ver, "%s (%s)", vv, r->check);
            xr_buf ex = {0};
            if (r->explained) {
                char tag[160], pg[16];
                xr_tag(tag, sizeof tag, "h-", r->explained, strlen(r->explained));
                xr_page_text(d, tag, pg, sizeof pg);
                xr_buf_printf(&ex, "%s, p. %s", r->explained, pg);
            } else {
                xr_buf_printf(&ex, "\u2014");
            }
            /* the section by its number in the contents (its title is a
             * line long) */
            char secno[16];
            snprintf(secno, sizeof secno, "%zu", xr_section_number(ctx, r->section));
            char *row[7] = {xr_strdup(secno), xr_strdup(r->item),
                            xr_strdup(sv), xr_strdup(ov), xr_strdup(dv), ver.s, ex.s};
            xr_table_add_row(&t, row);
        }
        xr_emit_table(d, &t);
        xr_table_free(&t);
    } else {
        xr_buf_printf(b, ".LP\n\\&No section of this run compared a number with an original "
                         "measurement.\n");
    }
}

/* The summary: per part, what was checked and how it came out; the rows
 * beside the original measurements are in appendix B, the items not
 * reproduced listed here. */
static void xr_emit_summary(xr_doc *d)
{
    const xr_ctx *ctx = d->ctx;
    xr_buf *b = &d->b;
    /* after How to read this, on a new page only when less than a fifth
     * of this one is left (as a part) */
    xr_buf_printf(b, ".sp 1v\n.ne %.2fi\n", XR_PAGE_H_IN / 5);
    xr_heading(d, 1, "summary", "Summary", 7);
    size_t nv, nt, np, nm, passed, failed;
    xr_count_references(ctx, &nv, &nt, &np, &nm);
    xr_count_checks(ctx, SIZE_MAX, &passed, &failed);
    char pg[16], pgb[16];
    xr_page_text(d, "appendix", pg, sizeof pg);
    xr_page_text(d, "appendix-refs", pgb, sizeof pgb);
    xr_buf_printf(b,
                  ".LP\n\\&%zu checks: \\fB%zu passed, %zu failed\\f[R] (appendix A, p. %s). "
                  "%zu numbers of the original measurements stand beside ours: %zu tested by a "
                  "check (%zu passed, %zu failed), %zu not checked (appendix B, p. %s, row by "
                  "row); %zu reference items are not reproduced (listed below). Per part:\n",
                  passed + failed, passed, failed, pg, nv, nt, np, nt - np, nv - nt, pgb, nm);
    xr_table t = {.ncols = 6};
    char *head[6] = {xr_strdup("part"),          xr_strdup("sections"),
                     xr_strdup("checks passed"), xr_strdup("failed"),
                     xr_strdup("original values tested (passed)"), xr_strdup("not checked")};
    xr_table_add_row(&t, head);
    for (size_t p = 0; p < XR_NPARTS; ++p) {
        size_t ns = 0, cp = 0, cf = 0, rt = 0, rp = 0, rn = 0;
        for (size_t s = 0; s < XR_NSECTIONS; ++s) {
            if (!ctx->sec[s].ran || xr_part_of(xr_sections[s]) != p)
                continue;
            size_t sp, sf;
            xr_count_checks(ctx, s, &sp, &sf);
            ++ns;
            cp += sp;
            cf += sf;
        }
        for (size_t i = 0; i < ctx->nrefs; ++i) {
            const xr_refrec *r = &ctx->refs[i];
            if (r->missing || xr_part_of(xr_sections[r->section]) != p)
                continue;
            rt += r->verdict != XR_REF_NOT_CHECKED;
            rp += r->verdict == 1;
            rn += r->verdict == XR_REF_NOT_CHECKED;
        }
        if (!ns)
            continue;
        xr_buf c[5] = {{0}};
        xr_buf_printf(&c[0], "%zu", ns);
        xr_buf_printf(&c[1], "%zu", cp);
        xr_buf_printf(&c[2], "%zu", cf);
        xr_buf_printf(&c[3], "%zu (%zu)", rt, rp);
        xr_buf_printf(&c[4], "%zu", rn);
        char *row[6] = {xr_strdup(xr_parts[p].title), c[0].s, c[1].s, c[2].s, c[3].s, c[4].s};
        xr_table_add_row(&t, row);
    }
    xr_emit_table(d, &t);
    xr_table_free(&t);
    if (nm) {
        xr_buf_printf(b, ".LP\n\\&\\fBReference items not reproduced\\f[R]\n");
        for (size_t i = 0; i < ctx->nrefs; ++i) {
            const xr_refrec *r = &ctx->refs[i];
            if (!r->missing)
                continue;
            xr_buf_printf(b, ".IP \\(bu 2\n\\&");
            xr_roff_inline_str(b, r->item);
            xr_buf_printf(b, " (section %zu, ", xr_section_number(ctx, r->section));
            xr_roff_inline_str(b, xr_sections[r->section]->title);
            xr_buf_put(b, "): ", 3);
            xr_roff_inline_str(b, r->explained ? r->explained : "");
            xr_buf_put(b, "\n", 1);
        }
    } else {
        xr_buf_printf(b, ".LP\n\\&Every reference item of the sections run is reproduced.\n");
    }
}

/* ---------------------------------------------------------- document --- */

/* Appendix C: the sections' long tables, each under a heading naming its
 * section, in the order the sections point to them. */
static void xr_emit_deferred(xr_doc *d)
{
    const char *title = "Appendix C: the long tables";
    xr_buf_printf(&d->b, ".bp\n");
    xr_heading(d, 1, "appendix-tables", title, strlen(title));
    if (!d->ndeferred)
        xr_buf_printf(&d->b, ".LP\n\\&No section wrote a table of more than %d rows.\n",
                      XR_INLINE_ROWS - 1);
    for (size_t k = 0; k < d->ndeferred; ++k) {
        const size_t s = d->deferred_sec[k];
        char tag[32];
        snprintf(tag, sizeof tag, "tab-%zu", k + 1);
        xr_buf head = {0};
        xr_buf_printf(&head, "C.%zu  from section %zu, %s", k + 1,
                      xr_section_number(d->ctx, s), xr_sections[s]->title);
        xr_heading(d, 2, tag, head.s, head.len);
        free(head.s);
        xr_emit_table(d, &d->deferred[k]);
        xr_table_free(&d->deferred[k]);
    }
    free(d->deferred);
    free(d->deferred_sec);
    d->deferred = NULL;
    d->deferred_sec = NULL;
    d->ndeferred = 0;
}

static void xr_emit_document(xr_doc *d)
{
    const xr_ctx *ctx = d->ctx;
    xr_buf *b = &d->b;
    xr_buf_printf(b,
                  ".\\\" report.ms: written by xpbd-report; typeset with\n"
                  ".\\\"   groff -k -t -ms -Tpdf -dpaper=a4 -P-pa4 report.ms > report.pdf\n"
                  ".nr PS 10\n.nr VS 12.5\n.nr LL %.2fi\n.nr PO %.3fi\n.nr HM 0.7i\n"
                  ".nr FM 0.8i\n.nr PD 0.4v\n.pl %.2fi\n.ll %.2fi\n.po %.3fi\n"
                  ".ds CH\n.ds LH xpbd-report\n.ds RH \\- %% \\-\n.ds CF\n"
                  ".nr PDFOUTLINE.FOLDLEVEL 1\n.pdfview /PageMode /UseOutlines\n",
                  XR_LINE_IN, (XR_PAGE_W_IN - XR_LINE_IN) / 2, XR_PAGE_H_IN, XR_LINE_IN,
                  (XR_PAGE_W_IN - XR_LINE_IN) / 2);
    size_t order[XR_NSECTIONS + 1];
    const size_t n = xr_section_order(ctx, order);
    d->section = SIZE_MAX;
    xr_emit_title(d);
    xr_emit_contents(d, order, n);
    xr_buf_printf(b, ".bp\n");
    xr_heading(d, 1, "howto", "How to read this", strlen("How to read this"));
    for (size_t i = 0; xr_how_to_read[i]; ++i)
        xr_md_to_roff(d, xr_how_to_read[i]);
    xr_emit_summary(d);
    size_t part = XR_NPARTS;
    for (size_t k = 0; k < n; ++k) {
        const size_t s = order[k];
        const xr_secrec *r = &ctx->sec[s];
        const xr_section *x = xr_sections[s];
        if (xr_part_of(x) != part) {
            /* a part, with its scenario's description: on a new page
             * when less than a fifth of this one is left */
            part = xr_part_of(x);
            char ptag[32];
            snprintf(ptag, sizeof ptag, "part-%zu", part);
            xr_buf_printf(b, ".sp 1v\n.ne %.2fi\n", XR_PAGE_H_IN / 5);
            xr_heading(d, 1, ptag, xr_parts[part].title, strlen(xr_parts[part].title));
            xr_md_to_roff(d, xr_parts[part].intro);
        }
        char tag[96];
        snprintf(tag, sizeof tag, "sec-%s", x->name);
        xr_buf head = {0};
        xr_buf_printf(&head, "%zu  %s", k + 1, x->title);
        xr_buf_printf(b, ".sp 0.4v\n");
        xr_heading(d, 2, tag, head.s, head.len);
        free(head.s);
        /* under the title, in small print: the scenario, and the
         * identifier a reader types to run the section alone */
        xr_buf_printf(b, ".LP\n\\&\\s-1\\fI");
        if (x->scenario && *x->scenario) {
            xr_roff_inline_str(b, x->scenario);
            xr_buf_put(b, "; ", 2);
        }
        xr_buf_printf(b, "\\f[R]\\f(CRxpbd-report --only ");
        xr_roff_plain(b, x->name, strlen(x->name));
        xr_buf_printf(b, "\\f[I]");
        xr_checks_pointer(d, s);
        xr_buf_printf(b, "\\f[R]\\s+1\n");
        d->section = s;
        if (r->md.s)
            xr_md_to_roff(d, r->md.s);
        d->section = SIZE_MAX;
        for (size_t i = 0; i < ctx->nfigs; ++i)
            if (ctx->figs[i].section == s)
                xr_emit_figure(d, i);
    }
    xr_buf concl = {0};
    xr_conclusions(&concl, ctx);
    xr_buf_printf(b, ".sp 1v\n.ne %.2fi\n", XR_PAGE_H_IN / 5);
    xr_heading(d, 1, "conclusions", "Conclusions and limitations",
               strlen("Conclusions and limitations"));
    xr_md_to_roff(d, concl.s);
    free(concl.s);
    xr_buf_printf(b, ".sp 1v\n");
    xr_heading(d, 1, "references", "References", strlen("References"));
    xr_md_to_roff(d, xr_references);
    xr_emit_appendix(d, order, n);
    xr_emit_reference_rows(d);
    xr_emit_deferred(d);
}

/* Reads the XRPAGE lines of the first run's stderr. */
static size_t xr_read_pages(const char *log, xr_page_ref **refs)
{
    char *text = xr_slurp(log, NULL);
    size_t n = 0, cap = 0;
    *refs = NULL;
    for (char *line = text; line && *line;) {
        char *eol = strchr(line, '\n');
        if (eol)
            *eol = 0;
        char tag[200];
        int page;
        if (sscanf(line, "XRPAGE %199s %d", tag, &page) == 2) {
            *refs = xr_grow(*refs, &cap, n, sizeof **refs);
            (*refs)[n].tag = xr_strdup(tag);
            (*refs)[n].page = page;
            ++n;
        }
        line = eol ? eol + 1 : line + strlen(line);
    }
    free(text);
    return n;
}

/* Writes the source and runs groff on it; out: where stdout goes. */
static int xr_groff(const char *groff, const char *ms, const char *out, const char *log,
                    const char *buf, int pages_only)
{
    FILE *f = xr_create(ms);
    if (!f)
        return -1;
    fputs(buf, f);
    if (fclose(f) != 0)
        return -1;
    /* -Z (troff only, no gropdf) when only the page numbers it logs are wanted */
    char *argv[] = {(char *)groff, (char *)"-k",    (char *)"-t",     (char *)"-ms",
                    (char *)"-Tpdf", (char *)"-dpaper=a4", (char *)"-P-pa4",
                    (char *)(pages_only ? "-Z" : ms), (char *)ms,  NULL};
    if (!pages_only)
        argv[8] = NULL;
    return xr_run_to(argv, out, log);
}

/* Passes on what groff, tbl or gropdf said beyond the page numbers (a
 * table wider than the line, a line it cannot break, ...): the PDF is
 * written, but such a warning is a fault of the document. */
static void xr_groff_warnings(const char *text, const char *log)
{
    int said = 0;
    for (const char *line = text; line && *line;) {
        const char *eol = strchr(line, '\n');
        const size_t n = eol ? (size_t)(eol - line) : strlen(line);
        if (n > 0 && strncmp(line, "XRPAGE ", 7) != 0) {
            if (!said)
                fprintf(stderr, "xpbd-report: groff warned while typesetting report.pdf (%s):\n",
                        log);
            said = 1;
            fprintf(stderr, "  %.*s\n", (int)n, line);
        }
        line = eol ? eol + 1 : line + n;
    }
}

int xr_write_pdf(const xr_ctx *ctx)
{
    const char *groff = xr_program("GROFF", "groff");
    char *dir = xr_path(ctx->out, "/pdf", NULL);
    xr_mkdir_p(dir);
    char *ms = xr_path(dir, "/report.ms", NULL);
    char *log = xr_path(dir, "/groff.log", NULL);
    char *report = xr_path(ctx->out, "/report.pdf", NULL);
    char *tmp = xr_path(ctx->out, "/report.pdf.part", NULL);

    /* first run, formatting only: the pages of the headings */
    xr_doc d = {.ctx = ctx, .figdir = dir};
    xr_emit_document(&d);
    int code = xr_groff(groff, ms, tmp, log, d.b.s, 1);
    free(d.b.s);
    int result = 0;
    xr_page_ref *refs = NULL;
    size_t nrefs = 0;
    if (code == 0) {
        nrefs = xr_read_pages(log, &refs);
        /* second run: the PDF, with the contents' page numbers */
        xr_doc d2 = {.ctx = ctx, .figdir = dir, .refs = refs, .nrefs = nrefs};
        xr_emit_document(&d2);
        code = xr_groff(groff, ms, tmp, log, d2.b.s, 0);
        free(d2.b.s);
    }
    char *text = xr_slurp(log, NULL);
    if (code == 0 && xr_is_file(tmp) && rename(tmp, report) == 0) {
        result = 1;
        xr_groff_warnings(text, log);
    } else if (code == 127 || (text && strstr(text, "gropdf") && strstr(text, "exec"))) {
        fprintf(stderr,
                "xpbd-report: groff with PDF output (gropdf) not found ('%s'): report.md and "
                "the figures are written, but not %s.\n"
                "  Install it:   apt-get install groff\n"
                "  Then run xpbd-report again.\n",
                groff, report);
        result = -1;
    } else {
        fprintf(stderr, "xpbd-report: groff failed (exit %d) on %s%s%s\n  (log kept in %s)\n",
                code, ms, text && *text ? ":\n" : "", text ? text : "", log);
    }
    remove(tmp);
    free(text);
    for (size_t i = 0; i < nrefs; ++i)
        free(refs[i].tag);
    free(refs);
    free(tmp);
    free(report);
    free(log);
    free(ms);
    free(dir);
    return result;
}
