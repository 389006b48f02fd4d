/* SPDX-License-Identifier: MIT */
/* What the loaders share: reading a file, the text cursor, numbers,
 * errors. */
#include "io_internal.h"

#include <errno.h>
#include <locale.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------- errors --- */

static void io_message(xpbd_io_error *err, const char *file, const char *fmt, va_list ap)
{
    const size_t room = sizeof err->what;
    size_t used = 0;
    if (file && file[0]) {
        const int n = snprintf(err->what, room, "%s", file);
        used = n < 0 ? 0 : (size_t)n < room ? (size_t)n : room - 1;
    }
    vsnprintf(err->what + used, room - used, fmt, ap);
}

xpbd_status xpbd__io_fail(xpbd_io_error *err, xpbd_status st, size_t line, size_t offset,
                          const char *file, const char *fmt, ...)
{
    if (err) {
        memset(err, 0, sizeof *err);
        err->line = line;
        err->byte_offset = offset;
        va_list ap;
        va_start(ap, fmt);
        io_message(err, file, fmt, ap);
        va_end(ap);
    }
    return st;
}

xpbd_status xpbd__io_fail_at(xpbd__io_text *t, const char *at, xpbd_status st, const char *fmt,
                             ...)
{
    if (t->err) {
        memset(t->err, 0, sizeof *t->err);
        /* the line of at, which may be before the cursor's */
        size_t line = t->line;
        for (const char *q = at; q < t->p; ++q)
            line -= *q == '\n';
        for (const char *q = t->p; q < at; ++q)
            line += *q == '\n';
        t->err->line = t->lines ? line : 0;
        t->err->byte_offset = (size_t)(at - t->begin);
        va_list ap;
        va_start(ap, fmt);
        io_message(t->err, t->file, fmt, ap);
        va_end(ap);
    }
    return st;
}

xpbd_status xpbd__io_fail_eof(xpbd__io_text *t, xpbd_status st, const char *fmt, ...)
{
    if (t->err) {
        memset(t->err, 0, sizeof *t->err);
        /* the last line: the one a final line end closes */
        size_t line = t->line;
        if (line > 1 && t->end > t->begin && t->end[-1] == '\n')
            --line;
        t->err->line = t->lines ? line : 0;
        t->err->byte_offset = (size_t)(t->end - t->begin);
        va_list ap;
        va_start(ap, fmt);
        io_message(t->err, t->file, fmt, ap);
        va_end(ap);
    }
    return st;
}

void xpbd__io_ok(xpbd_io_error *err, size_t skipped)
{
    if (err) {
        memset(err, 0, sizeof *err);
        err->skipped = skipped;
    }
}

/* --------------------------------------------------------- the cursor --- */

void xpbd__io_text_init(xpbd__io_text *t, const void *data, size_t size, const char *file,
                        xpbd_io_error *err)
{
    memset(t, 0, sizeof *t);
    t->begin = t->p = data ? (const char *)data : "";
    t->end = t->begin + (data ? size : 0);
    t->line = 1;
    t->lines = 1;
    t->file = file ? file : "";
    t->err = err;
    /* strtod reads the C locale's decimal point: a '.' of the file is
     * handed over as that (a host may have called setlocale) */
    const char *dp = localeconv()->decimal_point;
    const size_t dpn = dp ? strlen(dp) : 0;
    if (dpn == 0 || dpn >= sizeof t->point)
        dp = ".";
    memcpy(t->point, dp, strlen(dp) + 1);
}

static int io_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/* Skips blanks (and joined line ends) on the current line, then a comment
 * up to the line end. */
static void io_skip_blanks(xpbd__io_text *t)
{
    for (;;) {
        while (t->p < t->end && io_blank(*t->p))
            ++t->p;
        if (t->joins && t->p < t->end && *t->p == '\\') {
            const char *q = t->p + 1;
            while (q < t->end && *q == '\r')
                ++q;
            if (q < t->end && *q == '\n') {
                t->p = q + 1;
                ++t->line;
                continue;
            }
            if (q == t->end) {
                t->p = q;
                continue;
            }
        }
        break;
    }
    if (t->comments && t->p < t->end && *t->p == '#')
        while (t->p < t->end && *t->p != '\n')
            ++t->p;
}

int xpbd__io_at_eol(xpbd__io_text *t)
{
    io_skip_blanks(t);
    return t->p == t->end || *t->p == '\n';
}

void xpbd__io_next_line(xpbd__io_text *t)
{
    const char *nl = t->p < t->end ? memchr(t->p, '\n', (size_t)(t->end - t->p)) : NULL;
    if (!nl) {
        t->p = t->end;
        return;
    }
    t->p = nl + 1;
    ++t->line;
}

int xpbd__io_record(xpbd__io_text *t)
{
    for (;;) {
        if (t->p == t->end)
            return 0;
        if (!xpbd__io_at_eol(t))
            return 1;
        xpbd__io_next_line(t);
    }
}

int xpbd__io_token(xpbd__io_text *t, xpbd__io_tok *k)
{
    if (xpbd__io_at_eol(t))
        return 0;
    const char *s = t->p;
    while (t->p < t->end && !io_blank(*t->p) && *t->p != '\n' &&
           !(t->comments && *t->p == '#'))
        ++t->p;
    k->s = s;
    k->n = (size_t)(t->p - s);
    return 1;
}

/* ------------------------------------------------------------ numbers --- */

/* Longest number token read (a double needs 17 significant digits; room
 * for long spellings of them). */
#define IO_NUMBER_MAX 160

int xpbd__io_parse_real(const xpbd__io_text *t, xpbd__io_tok k, double *v)
{
    const size_t dpn = strlen(t->point);
    char buf[IO_NUMBER_MAX * sizeof t->point + 1];
    if (k.n == 0 || k.n > IO_NUMBER_MAX)
        return 0;
    size_t m = 0;
    for (size_t i = 0; i < k.n; ++i) {
        const char c = k.s[i];
        if (c == '\0')
            return 0;
        if (c == '.') {
            memcpy(buf + m, t->point, dpn);
            m += dpn;
        } else if (c == t->point[0]) {
            return 0; /* a "1,5" read as 1.5 in a locale with a decimal comma */
        } else {
            buf[m++] = c;
        }
    }
    buf[m] = '\0';
    /* strtod skips leading blanks and takes hexadecimal; the file's numbers
     * start with a sign, a digit, a point or the letters of inf and nan */
    const char c0 = buf[0] == '+' || buf[0] == '-' ? buf[1] : buf[0];
    if (!((c0 >= '0' && c0 <= '9') || c0 == t->point[0] || c0 == 'i' || c0 == 'I' ||
          c0 == 'n' || c0 == 'N'))
        return 0;
    for (size_t i = 0; i + 1 < m; ++i)
        if (buf[i] == '0' && (buf[i + 1] == 'x' || buf[i + 1] == 'X'))
            return 0;
    char *e;
    const double d = strtod(buf, &e);
    if (e != buf + m)
        return 0;
    *v = d;
    return 1;
}

int xpbd__io_parse_int(xpbd__io_tok k, int64_t *v)
{
    size_t i = 0;
    int neg = 0;
    if (k.n > 0 && (k.s[0] == '+' || k.s[0] == '-')) {
        neg = k.s[0] == '-';
        i = 1;
    }
    if (i == k.n)
        return 0;
    uint64_t u = 0;
    const uint64_t limit = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
    for (; i < k.n; ++i) {
        const char c = k.s[i];
        if (c < '0' || c > '9')
            return 0;
        const unsigned d = (unsigned)(c - '0');
        if (u > (limit - d) / 10)
            return 0;
        u = u * 10 + d;
    }
    *v = neg ? (u == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)u) : (int64_t)u;
    return 1;
}

xpbd_status xpbd__io_real(xpbd__io_text *t, const char *what, double *v)
{
    xpbd__io_tok k;
    if (!xpbd__io_token(t, &k))
        return xpbd__io_fail_at(t, t->p, XPBD_ERR_FILE, "%s missing", what);
    if (!xpbd__io_parse_real(t, k, v))
        return xpbd__io_fail_at(t, k.s, XPBD_ERR_FILE, "%s: '%.*s' is not a number", what,
                                XPBD__IO_TOK(k));
    return XPBD_OK;
}

xpbd_status xpbd__io_int(xpbd__io_text *t, const char *what, int64_t lo, int64_t hi, int64_t *v)
{
    xpbd__io_tok k;
    if (!xpbd__io_token(t, &k))
        return xpbd__io_fail_at(t, t->p, XPBD_ERR_FILE, "%s missing", what);
    if (!xpbd__io_parse_int(k, v))
        return xpbd__io_fail_at(t, k.s, XPBD_ERR_FILE, "%s: '%.*s' is not an integer", what,
                                XPBD__IO_TOK(k));
    if (*v < lo || *v > hi)
        return xpbd__io_fail_at(t, k.s, XPBD_ERR_FILE, "%s %lld out of range [%lld, %lld]",
                                what, (long long)*v, (long long)lo, (long long)hi);
    return XPBD_OK;
}

xpbd_status xpbd__io_eol(xpbd__io_text *t, const char *what)
{
    xpbd__io_tok k;
    if (xpbd__io_token(t, &k))
        return xpbd__io_fail_at(t, k.s, XPBD_ERR_FILE, "%s: unexpected '%.*s' at the line's end",
                                what, XPBD__IO_TOK(k));
    return XPBD_OK;
}

/* ------------------------------------------------------------- memory --- */

void *xpbd__io_alloc(size_t n, size_t size, int zero)
{
    if (n == 0 || n > SIZE_MAX / size)
        return NULL;
    return zero ? calloc(n, size) : malloc(n * size);
}

void xpbd__io_release(xpbd_mesh_data *m)
{
    for (size_t k = 0; m->label_name && k < m->labels; ++k)
        free(m->label_name[k]);
    free(m->label_name);
    free(m->label_id);
    free(m->tet_label);
    free(m->tet);
    free(m->triangle_label);
    free(m->triangle);
    free(m->xyz);
    memset(m, 0, sizeof *m);
}

xpbd_status xpbd__io_read_file(const char *path, const char *file, char **data, size_t *size,
                               int *absent, xpbd_io_error *err)
{
    *data = NULL;
    *size = 0;
    if (absent)
        *absent = 0;
    errno = 0;
    FILE *f = fopen(path, "rb");
    if (!f) {
        const int e = errno;
        if (absent && e == ENOENT) {
            *absent = 1;
            return XPBD_OK;
        }
        return xpbd__io_fail(err, XPBD_ERR_FILE, 0, 0, file, "cannot open: %s",
                             e ? strerror(e) : "unknown error");
    }
    /* grown by doubling: regular files, pipes and devices alike */
    size_t cap = 0, used = 0;
    char *buf = NULL;
    xpbd_status st = XPBD_OK;
    for (;;) {
        if (used == cap) {
            const size_t want = cap ? cap * 2 : 65536;
            if (want < cap) {
                st = xpbd__io_fail(err, XPBD_ERR_NOMEM, 0, used, file, "file too large");
                break;
            }
            char *grown = realloc(buf, want);
            if (!grown) {
                st = xpbd__io_fail(err, XPBD_ERR_NOMEM, 0, used, file,
                                   "no memory for the file (%zu bytes read)", used);
                break;
            }
            buf = grown;
            cap = want;
        }
        const size_t got = fread(buf + used, 1, cap - used, f);
        used += got;
        if (got == 0 || used < cap) {
            if (ferror(f))
                st = xpbd__io_fail(err, XPBD_ERR_FILE, 0, used, file, "read error after %zu bytes",
                                   used);
            else if (!feof(f))
                continue;
            break;
        }
    }
    fclose(f);
    if (st != XPBD_OK) {
        free(buf);
        return st;
    }
    *data = buf;
    *size = used;
    return XPBD_OK;
}

int xpbd__io_is(xpbd__io_tok k, const char *word)
{
    const size_t n = strlen(word);
    return k.n == n && memcmp(k.s, word, n) == 0;
}

/* ------------------------------------------------- files written whole --- */

xpbd_status xpbd__io_part_open(const char *path, const char *mode, FILE **f, char **part)
{
    *f = NULL;
    const size_t n = strlen(path);
    *part = malloc(n + 6);
    if (!*part)
        return XPBD_ERR_NOMEM;
    memcpy(*part, path, n);
    memcpy(*part + n, ".part", 6);
    *f = fopen(*part, mode);
    if (!*f) {
        free(*part);
        *part = NULL;
        return XPBD_ERR_FILE;
    }
    return XPBD_OK;
}

xpbd_status xpbd__io_part_close(FILE *f, char *part, const char *path, int ok)
{
    if (f) {
        if (ferror(f))
            ok = 0;
        if (fclose(f) != 0)
            ok = 0;
    }
    if (ok) {
#ifdef _WIN32
        remove(path); /* rename does not replace a file there */
#endif
        if (rename(part, path) != 0)
            ok = 0;
    }
    if (!ok && part)
        remove(part);
    free(part);
    return ok ? XPBD_OK : XPBD_ERR_FILE;
}
