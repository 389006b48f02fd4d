/* SPDX-License-Identifier: MIT */
/* io_internal.h: what the loaders and writers of xpbd::io share (not
 * installed).
 *
 * A loader reads its file into memory (xpbd__io_read_file) and parses the
 * bytes with a text cursor: records are lines, tokens are runs of
 * characters other than blanks (space, tab, CR, VT, FF), a record's values
 * must all be on its line. Errors are written to the caller's
 * xpbd_io_error with the line and byte offset of the token at fault. */
#ifndef XPBD_IO_INTERNAL_H
#define XPBD_IO_INTERNAL_H

#include "xpbd/io.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#if defined(__GNUC__)
#  define XPBD__IO_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#  define XPBD__IO_PRINTF(f, a)
#endif

/* A text cursor over size bytes at begin. */
typedef struct xpbd__io_text {
    const char *begin, *p, *end;
    size_t line;         /* line of p, from 1 */
    int lines;           /* 1: errors name the line (0 once binary data was read) */
    int comments;        /* '#' starts a comment that runs to the end of the line */
    int joins;           /* a backslash before a line end joins the next line (OBJ) */
    const char *file;    /* put before every message: "" or ".ele: " */
    char point[8];       /* the C locale's decimal point, for strtod */
    xpbd_io_error *err;  /* may be NULL */
} xpbd__io_text;

typedef struct xpbd__io_tok {
    const char *s;
    size_t n;
} xpbd__io_tok;

/* 1 if token k is exactly word. */
int xpbd__io_is(xpbd__io_tok k, const char *word);

void xpbd__io_text_init(xpbd__io_text *t, const void *data, size_t size, const char *file,
                        xpbd_io_error *err);
/* Skips blank and comment-only lines: 1 when t->p is at a record, 0 at the
 * end of the text. */
int xpbd__io_record(xpbd__io_text *t);
/* The next token of the current line: 1, or 0 at the line's end (the
 * cursor stays before the line end). */
int xpbd__io_token(xpbd__io_text *t, xpbd__io_tok *k);
/* 1 if only blanks or a comment are left on the current line. */
int xpbd__io_at_eol(xpbd__io_text *t);
/* Moves past the end of the current line. */
void xpbd__io_next_line(xpbd__io_text *t);

/* The error at byte `at` of the text (on the current line), or at its end
 * (a file cut short: the last line). Both return st. */
xpbd_status xpbd__io_fail_at(xpbd__io_text *t, const char *at, xpbd_status st, const char *fmt,
                             ...) XPBD__IO_PRINTF(4, 5);
xpbd_status xpbd__io_fail_eof(xpbd__io_text *t, xpbd_status st, const char *fmt, ...)
    XPBD__IO_PRINTF(3, 4);
/* The error with the place given (line 0: none). */
xpbd_status xpbd__io_fail(xpbd_io_error *err, xpbd_status st, size_t line, size_t offset,
                          const char *file, const char *fmt, ...) XPBD__IO_PRINTF(6, 7);
/* A success: place and message cleared, skipped set. */
void xpbd__io_ok(xpbd_io_error *err, size_t skipped);

/* Whole tokens only: 1 and *v when k is a number, else 0. A real may be
 * NaN or infinite (the caller decides); an integer must fit int64_t. */
int xpbd__io_parse_real(const xpbd__io_text *t, xpbd__io_tok k, double *v);
int xpbd__io_parse_int(xpbd__io_tok k, int64_t *v);

/* The next token of the line as a real / an integer in [lo, hi]; what
 * names the value in the message ("x", "node count"). XPBD_ERR_FILE when
 * the line has no more tokens, the token is no number or is out of range. */
xpbd_status xpbd__io_real(xpbd__io_text *t, const char *what, double *v);
xpbd_status xpbd__io_int(xpbd__io_text *t, const char *what, int64_t lo, int64_t hi,
                         int64_t *v);
/* XPBD_ERR_FILE if a token is left on the line (after what). */
xpbd_status xpbd__io_eol(xpbd__io_text *t, const char *what);
/* A token for a message: at most 24 characters of it. */
#define XPBD__IO_TOK(k) (int)((k).n < 24 ? (k).n : 24), (k).s

/* 1 if count records of at least min_bytes each (the last one may lack
 * its line end) fit in the bytes left. */
static inline int xpbd__io_fits(size_t count, size_t min_bytes, size_t left)
{
    return count <= left / min_bytes || (left < SIZE_MAX && count <= (left + 1) / min_bytes);
}

/* An array of n elements of size bytes, calloc'd when zero is set; NULL
 * when n is 0, when n * size overflows or the allocation fails. */
void *xpbd__io_alloc(size_t n, size_t size, int zero);
/* Sets ptr and is 1 when it holds n elements (or n is 0), 0 for no memory. */
#define XPBD__IO_ALLOC(ptr, n, size, zero)                                                    \
    (((ptr) = xpbd__io_alloc((n), (size), (zero))) != NULL || (n) == 0)

/* Reads the file at path into *data (malloc'd, *size bytes; freed by the
 * caller). A file that does not exist is *absent = 1 and XPBD_ERR_FILE when
 * absent is NULL, XPBD_OK with *data NULL when it is not. */
xpbd_status xpbd__io_read_file(const char *path, const char *file, char **data, size_t *size,
                               int *absent, xpbd_io_error *err);

/* A file written whole or not at all (the writers, xpbd_replay_save):
 * xpbd__io_part_open opens PATH.part for writing (*f and *part, the
 * malloc'd name, set; XPBD_ERR_NOMEM or XPBD_ERR_FILE with both NULL);
 * xpbd__io_part_close closes f (may be NULL) and, when ok and the stream
 * had no error, renames PATH.part onto path, else removes it; it frees
 * part. XPBD_OK or XPBD_ERR_FILE. */
xpbd_status xpbd__io_part_open(const char *path, const char *mode, FILE **f, char **part);
xpbd_status xpbd__io_part_close(FILE *f, char *part, const char *path, int ok);

/* Frees what the loader allocated in *m and zeroes it. It does what
 * xpbd_mesh_data_free does, on purpose: a loader's blocks are allocated and
 * freed within this library, so the test build whose io allocations go
 * through counting hooks (tests/alloc_fail.h, io.alloc) frees them through
 * the same hooks; the kernel library's free is not hooked. */
void xpbd__io_release(xpbd_mesh_data *m);

#endif
