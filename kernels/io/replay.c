/* SPDX-License-Identifier: MIT */
/* Replay files (xpbd/replay.h): the recorder, the writer, the reader and
 * the replay of a file's frames. What touches an engine is written once
 * for float and double in replay_tmpl.h; the file's own text, held in
 * double, is precision-free and lives here. */
#include "io_internal.h"
#include "xpbd/replay.h"

#include <errno.h>
#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "fnv.h"

/* ------------------------------------------------------------- errors --- */

static void rp_ok(xpbd_replay_error *err)
{
    if (err) {
        memset(err, 0, sizeof *err);
        err->input = SIZE_MAX;
        err->where.part = XPBD_PART_NONE;
        err->where.index = SIZE_MAX;
        err->where.field = XPBD_FIELD_NONE;
    }
}

static xpbd_status rp_fail(xpbd_replay_error *err, xpbd_status st, const char *fmt, ...)
    XPBD__IO_PRINTF(3, 4);
static xpbd_status rp_fail(xpbd_replay_error *err, xpbd_status st, const char *fmt, ...)
{
    if (err) {
        rp_ok(err);
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->what, sizeof err->what, fmt, ap);
        va_end(ap);
    }
    return st;
}

/* The engine refused the file's scene: its status and place. */
static xpbd_status rp_refused(xpbd_replay_error *err, xpbd_status st, const xpbd_where *w)
{
    char at[96] = "";
    if (w->part != XPBD_PART_NONE || w->field != XPBD_FIELD_NONE) {
        size_t used = (size_t)snprintf(at, sizeof at, " (%s", xpbd_part_name(w->part));
        if (used < sizeof at && w->index != SIZE_MAX)
            used += (size_t)snprintf(at + used, sizeof at - used, " %zu", w->index);
        if (used < sizeof at && w->field != XPBD_FIELD_NONE)
            used += (size_t)snprintf(at + used, sizeof at - used, ", %s",
                                     xpbd_field_name(w->field));
        if (used < sizeof at)
            snprintf(at + used, sizeof at - used, ")");
    }
    rp_fail(err, st, "the scene was refused: %s%s", xpbd_status_str(st), at);
    if (err)
        err->where = *w;
    return st;
}

/* ------------------------------------------------------------ the file --- */

/* n elements of size bytes plus one (so that an empty array is not a NULL
 * one); NULL when that overflows or the allocation fails. */
static void *rp_alloc(size_t n, size_t size)
{
    if (n >= SIZE_MAX / size)
        return NULL;
    return malloc((n + 1) * size);
}

void xpbd_replay_free(xpbd_replay_file *f)
{
    if (!f)
        return;
    void *const p[] = {f->particle,        f->radius,         f->tether_length, f->tether_anchor,
                       f->origin,          f->edge,           f->tet,           f->bend,
                       f->edge_rest,       f->edge_compliance, f->tet_compliance,
                       f->bend_compliance, f->body_begin,     f->asleep,        f->calm,
                       f->signature,       f->input_frame,    f->input};
    for (size_t k = 0; k < sizeof p / sizeof p[0]; ++k)
        free(p[k]);
    memset(f, 0, sizeof *f);
}

/* Every array of a file of f's counts (the particles' optional ones as its
 * flags say), as the loader and the recorder fill them. 0: no memory. */
static int rp_alloc_arrays(xpbd_replay_file *f)
{
    const size_t n = f->n;
    f->particle = n < SIZE_MAX / 13 ? rp_alloc(13 * n, sizeof *f->particle) : NULL;
    f->origin = rp_alloc(n, sizeof *f->origin);
    if (f->has_radius)
        f->radius = rp_alloc(n, sizeof *f->radius);
    if (f->has_tethers) {
        f->tether_anchor = rp_alloc(n, sizeof *f->tether_anchor);
        f->tether_length = rp_alloc(n, sizeof *f->tether_length);
    }
    f->edge = rp_alloc(2 * f->edges, sizeof *f->edge);
    f->edge_rest = rp_alloc(f->edges, sizeof *f->edge_rest);
    f->edge_compliance = rp_alloc(f->edges, sizeof *f->edge_compliance);
    f->tet = rp_alloc(4 * f->tets, sizeof *f->tet);
    f->tet_compliance = rp_alloc(f->tets, sizeof *f->tet_compliance);
    f->bend = rp_alloc(4 * f->bends, sizeof *f->bend);
    f->bend_compliance = rp_alloc(f->bends, sizeof *f->bend_compliance);
    f->body_begin = rp_alloc(f->bodies, sizeof *f->body_begin);
    f->asleep = rp_alloc(f->bodies, sizeof *f->asleep);
    f->calm = rp_alloc(f->bodies, sizeof *f->calm);
    f->signature = rp_alloc(f->bodies, sizeof *f->signature);
    return f->particle && f->origin && (!f->has_radius || f->radius) &&
           (!f->has_tethers || (f->tether_anchor && f->tether_length)) && f->edge &&
           f->edge_rest && f->edge_compliance && f->tet && f->tet_compliance && f->bend &&
           f->bend_compliance && f->body_begin && f->asleep && f->calm && f->signature;
}

static xpbd_status rp_nomem(xpbd_replay_file *f)
{
    xpbd_replay_free(f);
    return XPBD_ERR_NOMEM;
}

/* Room for one more input. 0: no memory (the log as it was). */
static int rp_grow_inputs(xpbd_replay_file *r)
{
    if (r->inputs < r->input_capacity)
        return 1;
    const size_t cap = r->inputs < 32 ? 64 : 2 * r->inputs;
    if (cap > SIZE_MAX / sizeof *r->input)
        return 0;
    uint64_t *fr = realloc(r->input_frame, cap * sizeof *fr);
    if (fr)
        r->input_frame = fr;
    xpbd_input *in = realloc(r->input, cap * sizeof *in);
    if (in)
        r->input = in;
    if (!fr || !in)
        return 0;
    r->input_capacity = cap;
    return 1;
}

/* Every v[0..count) finite; v may be NULL when count is 0. */
static int rp_finite(const double *v, size_t count)
{
    for (size_t k = 0; k < count; ++k)
        if (!isfinite(v[k]))
            return 0;
    return 1;
}

/* What the loader would refuse, or the replay could not read: the file's
 * arrays for its counts and flags, and the bounds of the format. */
static xpbd_status rp_check(const xpbd_replay_file *f, xpbd_replay_error *err)
{
    const char *miss = NULL;
    if (f->n && (!f->particle))
        miss = "particle";
    else if (f->n && f->has_radius && !f->radius)
        miss = "radius";
    else if (f->n && f->has_tethers && (!f->tether_anchor || !f->tether_length))
        miss = "tether_anchor or tether_length";
    else if (f->edges && (!f->edge || !f->edge_rest || !f->edge_compliance))
        miss = "edge, edge_rest or edge_compliance";
    else if (f->tets && (!f->tet || !f->tet_compliance))
        miss = "tet or tet_compliance";
    else if (f->bends && (!f->bend || !f->bend_compliance))
        miss = "bend or bend_compliance";
    else if (f->bodies && (!f->body_begin || !f->asleep || !f->calm || !f->signature))
        miss = "body_begin, asleep, calm or signature";
    else if (f->inputs && (!f->input_frame || !f->input))
        miss = "input_frame or input";
    if (miss)
        return rp_fail(err, XPBD_ERR_ARGUMENT, "the counts call for %s, which is NULL", miss);
    if (f->n > (size_t)INT32_MAX || f->edges > (size_t)INT32_MAX ||
        f->tets > (size_t)INT32_MAX / 8 || f->bends > (size_t)INT32_MAX / 8 ||
        f->bodies == UINT32_MAX)
        return rp_fail(err, XPBD_ERR_ARGUMENT, "more particles or elements than a replay holds");
    if (f->planes > 8)
        return rp_fail(err, XPBD_ERR_ARGUMENT, "%u planes, at most 8", f->planes);
    if (f->max_contacts > (size_t)INT32_MAX / 2)
        return rp_fail(err, XPBD_ERR_ARGUMENT, "contacts beyond the contact set's range");
    if (f->frames > XPBD_REPLAY_MAX_FRAMES)
        return rp_fail(err, XPBD_ERR_ARGUMENT, "more frames than a replay may hold");
    if (f->options.max_particles > (uint32_t)INT32_MAX ||
        (f->options.max_particles && f->options.max_particles < f->n))
        return rp_fail(err, XPBD_ERR_ARGUMENT, "max_particles below the particle count");
    for (uint32_t b = 0; b < f->bodies; ++b)
        if (f->asleep[b] > 1)
            return rp_fail(err, XPBD_ERR_ARGUMENT, "body %u: asleep is neither 0 nor 1", b);
    for (size_t k = 0; k < f->inputs; ++k)
        if (f->input_frame[k] < f->start_frame || (k && f->input_frame[k] < f->input_frame[k - 1]))
            return rp_fail(err, XPBD_ERR_ARGUMENT,
                           "input %zu: before the start or before the input ahead of it", k);
        else if (f->input_frame[k] - f->start_frame >= f->frames)
            return rp_fail(err, XPBD_ERR_ARGUMENT,
                           "input %zu: on frame %llu, after the last frame recorded (an input "
                           "applied after the last step is never replayed)",
                           k, (unsigned long long)f->input_frame[k]);
    /* indices within the particles, as the loader checks them */
    const size_t n = f->n;
    for (size_t i = 0; i < n; ++i)
        if ((f->origin && f->origin[i] >= n) || (f->has_tethers && f->tether_anchor[i] >= n))
            return rp_fail(err, XPBD_ERR_ARGUMENT, "particle %zu: origin or tether anchor out "
                                                   "of range", i);
    for (size_t k = 0; k < 2 * f->edges; ++k)
        if (f->edge[k] >= n)
            return rp_fail(err, XPBD_ERR_ARGUMENT, "edge %zu: particle out of range", k / 2);
    for (size_t k = 0; k < 4 * f->tets; ++k)
        if (f->tet[k] >= n)
            return rp_fail(err, XPBD_ERR_ARGUMENT, "tet %zu: particle out of range", k / 4);
    for (size_t k = 0; k < 4 * f->bends; ++k)
        if (f->bend[k] >= n)
            return rp_fail(err, XPBD_ERR_ARGUMENT, "bend %zu: particle out of range", k / 4);
    for (uint32_t b = 0; b < f->bodies; ++b)
        if (f->body_begin[b] > f->body_begin[b + 1] || f->body_begin[b + 1] > n)
            return rp_fail(err, XPBD_ERR_ARGUMENT, "body %u: not a range of the particles", b);
    /* every real finite, as the loader reads them */
    const xpbd_step_config *c = &f->config;
    const double one[] = {f->h, c->gravity[0], c->gravity[1], c->gravity[2], c->damping,
                          c->pbd_stiffness, c->spring_damping, c->contact_beta, c->restitution,
                          c->contact_slop, c->friction_static, c->friction_dynamic,
                          c->contact_skin, c->relative_damping, f->options.tear_stretch,
                          f->options.sleep_energy};
    int finite = rp_finite(one, sizeof one / sizeof one[0]) &&
                 rp_finite(f->particle, 13 * n) && (!f->has_radius || rp_finite(f->radius, n)) &&
                 (!f->has_tethers || rp_finite(f->tether_length, n)) &&
                 rp_finite(f->edge_rest, f->edges) && rp_finite(f->edge_compliance, f->edges) &&
                 rp_finite(f->tet_compliance, f->tets) && rp_finite(f->bend_compliance, f->bends);
    for (uint32_t k = 0; finite && k < f->planes; ++k)
        finite = rp_finite(f->plane[k].n, 3) && rp_finite(&f->plane[k].d, 1);
    for (size_t k = 0; finite && k < f->inputs; ++k)
        finite = rp_finite(f->input[k].value, 3);
    if (!finite)
        return rp_fail(err, XPBD_ERR_ARGUMENT, "a real is NaN or infinite (the file holds "
                                               "finite reals only)");
    return XPBD_OK;
}

/* ------------------------------------------------------------- writing --- */

/* ' ' and each real with %a, its decimal point '.' whatever the locale */
static void rp_reals(FILE *f, char point, const double *v, int count)
{
    for (int k = 0; k < count; ++k) {
        char b[48];
        snprintf(b, sizeof b, " %a", v[k]);
        if (point != '.')
            for (char *c = b; *c; ++c)
                if (*c == point)
                    *c = '.';
        fputs(b, f);
    }
}

static void rp_key_real(FILE *f, char point, const char *key, double v)
{
    fprintf(f, " %s", key);
    rp_reals(f, point, &v, 1);
}

static void rp_write(FILE *f, const xpbd_replay_file *r)
{
    const char *dp = localeconv()->decimal_point;
    const char pt = dp && dp[0] ? dp[0] : '.';
    const xpbd_step_config *c = &r->config;
    const xpbd_engine_options *o = &r->options;
    fprintf(f, "xpbd-replay %u\nprotocol %u\nreal %s\nh", XPBD_REPLAY_FORMAT,
            (unsigned)XPBD_PROTOCOL_VERSION, r->f64 ? "f64" : "f32");
    rp_reals(f, pt, &r->h, 1);
    fprintf(f, "\nframe %llu\n", (unsigned long long)r->start_frame);
    fprintf(f, "config version %u substeps %u iterations %u gravity", c->version, c->substeps,
            c->iterations);
    rp_reals(f, pt, c->gravity, 3);
    rp_key_real(f, pt, "damping", c->damping);
    rp_key_real(f, pt, "pbd_stiffness", c->pbd_stiffness);
    rp_key_real(f, pt, "spring_damping", c->spring_damping);
    fprintf(f, " solver %d lambda_reset %d isa %d measure_residual %d", (int)c->solver,
            (int)c->lambda_reset, (int)c->isa, c->measure_residual);
    rp_key_real(f, pt, "contact_beta", c->contact_beta);
    rp_key_real(f, pt, "restitution", c->restitution);
    rp_key_real(f, pt, "contact_slop", c->contact_slop);
    rp_key_real(f, pt, "friction_static", c->friction_static);
    rp_key_real(f, pt, "friction_dynamic", c->friction_dynamic);
    rp_key_real(f, pt, "contact_skin", c->contact_skin);
    fprintf(f, " contact_weighted %d contact_velocity_pass %d contact_order %d",
            c->contact_weighted, c->contact_velocity_pass, (int)c->contact_order);
    rp_key_real(f, pt, "relative_damping", c->relative_damping);
    fprintf(f, " threads %u\noptions", c->threads);
    rp_key_real(f, pt, "tear_stretch", o->tear_stretch);
    rp_key_real(f, pt, "sleep_energy", o->sleep_energy);
    fprintf(f, " sleep_steps %u keep_hinges %u max_particles %u threads %u\n", o->sleep_steps,
            o->keep_hinges, o->max_particles, o->threads);
    fprintf(f, "colouring %u %d %d %d %u\n", r->colouring.max_colours, r->colouring.serial,
            r->colouring.runs, r->colouring.layout, r->colouring.regions);
    const int hr = r->has_radius != 0, ht = r->has_tethers != 0;
    fprintf(f, "particles %zu %d %d\n", r->n, hr, ht);
    for (size_t i = 0; i < r->n; ++i) {
        fputc('p', f);
        rp_reals(f, pt, r->particle + 13 * i, 13);
        fprintf(f, " %u", r->origin ? r->origin[i] : (unsigned)i);
        if (hr)
            rp_reals(f, pt, &r->radius[i], 1);
        if (ht) {
            fprintf(f, " %u", r->tether_anchor[i]);
            rp_reals(f, pt, &r->tether_length[i], 1);
        }
        fputc('\n', f);
    }
    fprintf(f, "edges %zu\n", r->edges);
    for (size_t k = 0; k < r->edges; ++k) {
        const double v[2] = {r->edge_rest[k], r->edge_compliance[k]};
        fprintf(f, "e %u %u", r->edge[2 * k], r->edge[2 * k + 1]);
        rp_reals(f, pt, v, 2);
        fputc('\n', f);
    }
    const char *const qname[2] = {"tets", "bends"}, *const qtag[2] = {"t", "b"};
    for (int kind = 0; kind < 2; ++kind) {
        const size_t count = kind ? r->bends : r->tets;
        const uint32_t *q = kind ? r->bend : r->tet;
        const double *comp = kind ? r->bend_compliance : r->tet_compliance;
        fprintf(f, "%s %zu\n", qname[kind], count);
        for (size_t k = 0; k < count; ++k) {
            fprintf(f, "%s %u %u %u %u", qtag[kind], q[4 * k], q[4 * k + 1], q[4 * k + 2],
                    q[4 * k + 3]);
            rp_reals(f, pt, &comp[k], 1);
            fputc('\n', f);
        }
    }
    fprintf(f, "bodies %u\n", r->bodies);
    for (uint32_t b = 0; b < r->bodies; ++b)
        fprintf(f, "body %zu %zu %u %u %016llx\n", r->body_begin[b], r->body_begin[b + 1],
                (unsigned)r->asleep[b], r->calm[b], (unsigned long long)r->signature[b]);
    fprintf(f, "planes %u\n", r->planes);
    for (uint32_t k = 0; k < r->planes; ++k) {
        const double v[4] = {r->plane[k].n[0], r->plane[k].n[1], r->plane[k].n[2],
                             r->plane[k].d};
        fputs("plane", f);
        rp_reals(f, pt, v, 4);
        fputc('\n', f);
    }
    fprintf(f, "contacts %zu\n", r->max_contacts);
    for (size_t k = 0; k < r->inputs; ++k) {
        const xpbd_input *in = &r->input[k];
        fprintf(f, "input %llu %u %u %u", (unsigned long long)r->input_frame[k], in->kind,
                in->begin, in->end);
        rp_reals(f, pt, in->value, 3);
        fputc('\n', f);
    }
    fprintf(f, "end %llu %016llx\n", (unsigned long long)r->frames, (unsigned long long)r->hash);
}

xpbd_status xpbd_replay_save(const char *path, const xpbd_replay_file *f, xpbd_replay_error *err)
{
    rp_ok(err);
    if (!path || !f)
        return rp_fail(err, XPBD_ERR_ARGUMENT, "no path or no replay");
    if (f->protocol != XPBD_PROTOCOL_VERSION || f->config.version != XPBD_PROTOCOL_VERSION)
        return rp_fail(err, XPBD_ERR_VERSION,
                       "protocol %u, configuration version %u: this build writes and reads "
                       "protocol %u only",
                       f->protocol, f->config.version, (unsigned)XPBD_PROTOCOL_VERSION);
    const xpbd_status chk = rp_check(f, err);
    if (chk != XPBD_OK)
        return chk;
    FILE *out;
    char *part;
    const xpbd_status st = xpbd__io_part_open(path, "w", &out, &part);
    if (st != XPBD_OK)
        return rp_fail(err, st, st == XPBD_ERR_NOMEM ? "out of memory"
                                                     : "cannot create the file beside it (.part)");
    rp_write(out, f);
    if (xpbd__io_part_close(out, part, path, 1) != XPBD_OK)
        return rp_fail(err, XPBD_ERR_FILE, "cannot be written (does the directory exist, is "
                                           "it writable, is the disk full?)");
    return XPBD_OK;
}

/* ------------------------------------------------------------- reading --- */

#define RP_MAX_TOKENS 64

typedef struct rp_reader {
    char *at;                   /* the rest of the text (NUL-terminated) */
    size_t line;
    char *tok[RP_MAX_TOKENS];
    int ntok;                   /* -1: more than RP_MAX_TOKENS */
    char point[8];              /* the C locale's decimal point, for strtod */
    const char *nonfinite;      /* the last real refused as NaN or infinite, or NULL */
    xpbd_replay_error *err;
} rp_reader;

/* Next non-empty line, split at blanks. Returns 0 at the end of the text. */
static int rp_next(rp_reader *r)
{
    while (*r->at) {
        char *s = r->at;
        char *e = strchr(s, '\n');
        if (e) {
            *e = 0;
            r->at = e + 1;
        } else {
            r->at = s + strlen(s);
        }
        r->line++;
        r->ntok = 0;
        for (char *c = s; *c;) {
            while (*c == ' ' || *c == '\t' || *c == '\r')
                *c++ = 0;
            if (!*c)
                break;
            if (r->ntok == RP_MAX_TOKENS) {
                r->ntok = -1;
                return 1;
            }
            r->tok[r->ntok++] = c;
            while (*c && *c != ' ' && *c != '\t' && *c != '\r')
                ++c;
        }
        if (r->ntok != 0)
            return 1;
    }
    r->ntok = 0;
    return 0;
}

static xpbd_status rp_bad(rp_reader *r, const char *what)
{
    if (r->nonfinite)
        rp_fail(r->err, XPBD_ERR_FILE, "%s: '%.32s' is not a finite real", what, r->nonfinite);
    else
        rp_fail(r->err, XPBD_ERR_FILE, "%s", what);
    if (r->err)
        r->err->line = r->line;
    return XPBD_ERR_FILE;
}

/* rp_bad with a formatted message */
static xpbd_status rp_badf(rp_reader *r, const char *fmt, ...) XPBD__IO_PRINTF(2, 3);
static xpbd_status rp_badf(rp_reader *r, const char *fmt, ...)
{
    char what[sizeof r->err->what];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    return rp_bad(r, what);
}

/* A real as %a (or %g) wrote it, '.' its decimal point; finite: no engine
 * holds a NaN or an infinity in what a file records (the writer refuses
 * them, rp_check). */
static int rp_real(rp_reader *r, const char *s, double *out)
{
    const char *const tok = s;
    char buf[64];
    const size_t dpn = strlen(r->point);
    size_t m = 0;
    for (; *s; ++s) {
        if (m + dpn + 1 >= sizeof buf)
            return 0;
        if (*s == '.') {
            memcpy(buf + m, r->point, dpn);
            m += dpn;
        } else if (*s == r->point[0]) {
            return 0; /* "1,5" is not 1.5 in a locale with a decimal comma */
        } else {
            buf[m++] = *s;
        }
    }
    buf[m] = 0;
    char *end;
    *out = strtod(buf, &end);
    if (m > 0 && *end == 0 && !isfinite(*out)) {
        r->nonfinite = tok;
        return 0;
    }
    return m > 0 && *end == 0;
}

static int rp_u64(const char *s, uint64_t *out, int base)
{
    char *end;
    if (*s == '-' || *s == '+')
        return 0;
    errno = 0;
    const unsigned long long v = strtoull(s, &end, base);
    *out = v;
    return end != s && *end == 0 && errno == 0;
}

static int rp_u32(const char *s, uint32_t *out)
{
    uint64_t v;
    if (!rp_u64(s, &v, 10) || v > UINT32_MAX)
        return 0;
    *out = (uint32_t)v;
    return 1;
}

static int rp_int(const char *s, int *out)
{
    char *end;
    errno = 0;
    const long v = strtol(s, &end, 10);
    if (end == s || *end || errno || v < -1000000 || v > 1000000)
        return 0;
    *out = (int)v;
    return 1;
}

/* Line "key <count>" with count <= max */
static int rp_count(rp_reader *r, const char *key, uint64_t *out, uint64_t max)
{
    return rp_next(r) && r->ntok == 2 && strcmp(r->tok[0], key) == 0 &&
           rp_u64(r->tok[1], out, 10) && *out <= max;
}

/* The 'config' line. Format 3 had no threads: 0 then, as its reader left
 * it (the results do not depend on it). */
static xpbd_status rp_read_config(rp_reader *r, xpbd_step_config *c, unsigned format)
{
    if (!rp_next(r) || r->ntok < 1 || strcmp(r->tok[0], "config") != 0)
        return rp_bad(r, "expected the 'config' line");
    memset(c, 0, sizeof *c);
    enum { NKEYS = 23, THREADS = 21 };
    static const char *const keys[NKEYS] = {
        "version",          "substeps",         "iterations",       "gravity",
        "damping",          "pbd_stiffness",    "spring_damping",   "solver",
        "lambda_reset",     "isa",              "measure_residual", "contact_beta",
        "restitution",      "contact_slop",     "friction_static",  "friction_dynamic",
        "contact_skin",     "contact_weighted", "contact_velocity_pass", "contact_order",
        "relative_damping", "threads",          NULL};
    int seen[NKEYS] = {0};
    int t = 1;
    while (t < r->ntok) {
        const char *k = r->tok[t++];
        int key = -1;
        for (int j = 0; keys[j]; ++j)
            if (strcmp(k, keys[j]) == 0)
                key = j;
        const int need = key == 3 ? 3 : 1;
        if (key < 0 || t + need > r->ntok)
            return rp_bad(r, "unknown or incomplete field in the 'config' line");
        int ok = 1, iv = 0;
        double d[3] = {0, 0, 0};
        switch (key) {
        case 0: ok = rp_u32(r->tok[t], &c->version); break;
        case 1: ok = rp_u32(r->tok[t], &c->substeps); break;
        case 2: ok = rp_u32(r->tok[t], &c->iterations); break;
        case 3:
            for (int a = 0; a < 3; ++a)
                ok &= rp_real(r, r->tok[t + a], &d[a]);
            memcpy(c->gravity, d, sizeof d);
            break;
        case 4: ok = rp_real(r, r->tok[t], &c->damping); break;
        case 5: ok = rp_real(r, r->tok[t], &c->pbd_stiffness); break;
        case 6: ok = rp_real(r, r->tok[t], &c->spring_damping); break;
        case 7: ok = rp_int(r->tok[t], &iv); c->solver = (xpbd_solver)iv; break;
        case 8: ok = rp_int(r->tok[t], &iv); c->lambda_reset = (xpbd_lambda_reset)iv; break;
        case 9: ok = rp_int(r->tok[t], &iv); c->isa = (xpbd_isa)iv; break;
        case 10: ok = rp_int(r->tok[t], &c->measure_residual); break;
        case 11: ok = rp_real(r, r->tok[t], &c->contact_beta); break;
        case 12: ok = rp_real(r, r->tok[t], &c->restitution); break;
        case 13: ok = rp_real(r, r->tok[t], &c->contact_slop); break;
        case 14: ok = rp_real(r, r->tok[t], &c->friction_static); break;
        case 15: ok = rp_real(r, r->tok[t], &c->friction_dynamic); break;
        case 16: ok = rp_real(r, r->tok[t], &c->contact_skin); break;
        case 17: ok = rp_int(r->tok[t], &c->contact_weighted); break;
        case 18: ok = rp_int(r->tok[t], &c->contact_velocity_pass); break;
        case 19: ok = rp_int(r->tok[t], &iv); c->contact_order = (xpbd_contact_order)iv; break;
        case 20: ok = rp_real(r, r->tok[t], &c->relative_damping); break;
        case THREADS: ok = rp_u32(r->tok[t], &c->threads); break;
        default: ok = 0;
        }
        if (!ok)
            return rp_bad(r, "malformed value in the 'config' line");
        seen[key] = 1;
        t += need;
    }
    for (int j = 0; keys[j]; ++j)
        if (!seen[j] && !(j == THREADS && format == 3))
            return rp_bad(r, "the 'config' line misses a field");
    return XPBD_OK;
}

/* A refusal of the file's version: its line and what to do. */
static xpbd_status rp_version(rp_reader *r, size_t line, const char *fmt, ...)
    XPBD__IO_PRINTF(3, 4);
static xpbd_status rp_version(rp_reader *r, size_t line, const char *fmt, ...)
{
    if (r->err) {
        rp_ok(r->err);
        r->err->line = line;
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(r->err->what, sizeof r->err->what, fmt, ap);
        va_end(ap);
    }
    return XPBD_ERR_VERSION;
}

/* The input lines until 'end', and the 'end' line. Every input must come
 * before a frame the file steps: at most start_frame + frames - 1 (one
 * applied after the last frame would never be replayed); the first one
 * beyond is named by its line (lines[k]: input k's). */
static xpbd_status rp_read_inputs(rp_reader *r, xpbd_replay_file *f)
{
    size_t *lines = NULL, room = 0;
    xpbd_status st = XPBD_OK;
    for (;;) {
        if (!rp_next(r)) {
            st = rp_bad(r, "unexpected end of file: no 'end' line (was the recording "
                           "finished?)");
            break;
        }
        if (r->ntok == 3 && strcmp(r->tok[0], "end") == 0) {
            if (!rp_u64(r->tok[1], &f->frames, 10) || !rp_u64(r->tok[2], &f->hash, 16))
                st = rp_bad(r, "expected 'end <frames> <hash>'");
            else if (f->frames > XPBD_REPLAY_MAX_FRAMES)
                st = rp_bad(r, "more frames than a replay may hold (XPBD_REPLAY_MAX_FRAMES)");
            for (size_t k = 0; st == XPBD_OK && k < f->inputs; ++k)
                if (f->input_frame[k] - f->start_frame >= f->frames) {
                    r->line = lines[k];
                    st = rp_badf(r, "input %zu on frame %llu, but the file steps frames %llu "
                                    "to %llu only ('end %llu'): it would never be replayed",
                                 k, (unsigned long long)f->input_frame[k],
                                 (unsigned long long)f->start_frame,
                                 (unsigned long long)(f->start_frame + f->frames - 1),
                                 (unsigned long long)f->frames);
                }
            break;
        }
        if (r->ntok != 8 || strcmp(r->tok[0], "input") != 0) {
            st = rp_bad(r, "expected 'input frame kind begin end v0 v1 v2' or 'end'");
            break;
        }
        if (!rp_grow_inputs(f)) {
            st = XPBD_ERR_NOMEM;
            break;
        }
        if (room < f->input_capacity) {
            size_t *grown = realloc(lines, f->input_capacity * sizeof *lines);
            if (!grown) {
                st = XPBD_ERR_NOMEM;
                break;
            }
            lines = grown;
            room = f->input_capacity;
        }
        xpbd_input *in = &f->input[f->inputs];
        memset(in, 0, sizeof *in);
        uint64_t fr;
        int ok = rp_u64(r->tok[1], &fr, 10) && rp_u32(r->tok[2], &in->kind) &&
                 rp_u32(r->tok[3], &in->begin) && rp_u32(r->tok[4], &in->end);
        for (int a = 0; ok && a < 3; ++a)
            ok = rp_real(r, r->tok[5 + a], &in->value[a]);
        if (!ok || fr < f->start_frame || (f->inputs && fr < f->input_frame[f->inputs - 1])) {
            st = rp_bad(r, "malformed input line (frames must not go backwards)");
            break;
        }
        lines[f->inputs] = r->line;
        f->input_frame[f->inputs++] = fr;
    }
    free(lines);
    return st;
}

/* The version header, then the lines up to the step configuration: a file
 * of another format or protocol is refused before anything else is read. */
static xpbd_status rp_read_head(rp_reader *r, xpbd_replay_file *f)
{
    uint64_t v;
    if (!rp_next(r) || r->ntok != 2 || strcmp(r->tok[0], "xpbd-replay") != 0 ||
        !rp_u64(r->tok[1], &v, 10) || v > UINT32_MAX)
        return rp_bad(r, "not an xpbd replay file (the first line must be 'xpbd-replay "
                         "<format>')");
    f->format = (unsigned)v;
    if (f->format < XPBD_REPLAY_FORMAT_OLDEST || f->format > XPBD_REPLAY_FORMAT)
        return rp_version(r, r->line,
                          "replay file format %u, but this build of xpbd reads formats %u to "
                          "%u: refused",
                          f->format, XPBD_REPLAY_FORMAT_OLDEST, XPBD_REPLAY_FORMAT);
    if (!rp_next(r) || r->ntok != 2 || strcmp(r->tok[0], "protocol") != 0 ||
        !rp_u64(r->tok[1], &v, 10) || v > UINT32_MAX)
        return rp_bad(r, "expected 'protocol <version>'");
    f->protocol = (unsigned)v;
    if (f->protocol != XPBD_PROTOCOL_VERSION)
        return rp_version(r, r->line,
                          "recorded with step protocol %u, but this build of xpbd speaks "
                          "protocol %u (its defaults and meaning differ, so the replay would "
                          "silently diverge): refused",
                          f->protocol, (unsigned)XPBD_PROTOCOL_VERSION);
    if (!rp_next(r) || r->ntok != 2 || strcmp(r->tok[0], "real") != 0 ||
        (strcmp(r->tok[1], "f32") != 0 && strcmp(r->tok[1], "f64") != 0))
        return rp_bad(r, "expected 'real f32' or 'real f64'");
    f->f64 = strcmp(r->tok[1], "f64") == 0;
    if (!rp_next(r) || r->ntok != 2 || strcmp(r->tok[0], "h") != 0 ||
        !rp_real(r, r->tok[1], &f->h))
        return rp_bad(r, "expected 'h <frame length>'");
    if (!rp_next(r) || r->ntok != 2 || strcmp(r->tok[0], "frame") != 0 ||
        !rp_u64(r->tok[1], &f->start_frame, 10))
        return rp_bad(r, "expected 'frame <start frame>'");
    const xpbd_status st = rp_read_config(r, &f->config, f->format);
    if (st != XPBD_OK)
        return st;
    if (f->config.version != XPBD_PROTOCOL_VERSION)
        return rp_version(r, r->line,
                          "step configuration of protocol %u, this build speaks %u: refused",
                          f->config.version, (unsigned)XPBD_PROTOCOL_VERSION);
    return XPBD_OK;
}

/* The 'options' line (format 3: no threads). */
static xpbd_status rp_read_options(rp_reader *r, xpbd_replay_file *f)
{
    const int old = f->format == 3; /* no threads, no colouring runs (xpbd/replay.h) */
    xpbd_engine_options *o = &f->options;
    if (!rp_next(r) || r->ntok != (old ? 11 : 13) || strcmp(r->tok[0], "options") != 0 ||
        strcmp(r->tok[1], "tear_stretch") != 0 || !rp_real(r, r->tok[2], &o->tear_stretch) ||
        strcmp(r->tok[3], "sleep_energy") != 0 || !rp_real(r, r->tok[4], &o->sleep_energy) ||
        strcmp(r->tok[5], "sleep_steps") != 0 || !rp_u32(r->tok[6], &o->sleep_steps) ||
        strcmp(r->tok[7], "keep_hinges") != 0 || !rp_u32(r->tok[8], &o->keep_hinges) ||
        strcmp(r->tok[9], "max_particles") != 0 || !rp_u32(r->tok[10], &o->max_particles) ||
        (!old && (strcmp(r->tok[11], "threads") != 0 || !rp_u32(r->tok[12], &o->threads))))
        return rp_bad(r, old ? "expected 'options tear_stretch <x> sleep_energy <x> "
                               "sleep_steps <n> keep_hinges <0|1> max_particles <n>'"
                             : "expected 'options tear_stretch <x> sleep_energy <x> "
                               "sleep_steps <n> keep_hinges <0|1> max_particles <n> "
                               "threads <n>'");
    if (o->max_particles > (uint32_t)INT32_MAX)
        return rp_bad(r, "max_particles beyond the index range");
    return XPBD_OK;
}

/* The 'colouring' line; *has_runs: it gives the runs (format 3 wrote no
 * runs; a third number there is the recording's value given by hand,
 * xpbd/replay.h), *line: its line. Formats 3 and 4 have no layout and no
 * regions: their recorders laid a set out in runs with runs = 1, else in
 * input order, never in regions. */
static xpbd_status rp_read_colouring(rp_reader *r, xpbd_replay_file *f, int *has_runs,
                                     size_t *line)
{
    const int old = f->format == 3, layout = f->format >= 5;
    uint32_t u, regions = 0;
    int serial, runs = 0, lay = 0;
    const int got = rp_next(r);
    *has_runs = got && r->ntok >= 4;
    if (!got || r->ntok != (old && !*has_runs ? 3 : 4 + 2 * layout) ||
        strcmp(r->tok[0], "colouring") != 0 || !rp_u32(r->tok[1], &u) ||
        !rp_int(r->tok[2], &serial) || (*has_runs && !rp_int(r->tok[3], &runs)) ||
        (layout && (!rp_int(r->tok[4], &lay) || !rp_u32(r->tok[5], &regions))))
        return rp_bad(r, layout ? "expected 'colouring <max colours> <serial> <runs> <layout> "
                                  "<regions>'"
                                : "expected 'colouring <max colours> <serial> <runs>'");
    *line = r->line;
    f->colouring.max_colours = u;
    f->colouring.serial = serial;
    f->colouring.runs = runs;
    f->colouring.layout = layout ? lay : runs ? XPBD_LAYOUT_RUNS : XPBD_LAYOUT_INPUT;
    f->colouring.regions = regions;
    return XPBD_OK;
}

/* The 'particles' line and one 'p' line a particle. */
static xpbd_status rp_read_particles(rp_reader *r, xpbd_replay_file *f)
{
    uint64_t v;
    int hr, ht;
    if (!rp_next(r) || r->ntok != 4 || strcmp(r->tok[0], "particles") != 0 ||
        !rp_u64(r->tok[1], &v, 10) || v > (uint64_t)INT32_MAX || !rp_int(r->tok[2], &hr) ||
        !rp_int(r->tok[3], &ht))
        return rp_bad(r, "expected 'particles <n> <radius 0|1> <tethers 0|1>'");
    const size_t n = (size_t)v;
    if (f->options.max_particles && f->options.max_particles < n)
        return rp_bad(r, "more particles than the options' max_particles");
    /* each particle line takes at least 30 characters: a count beyond the
     * text is refused before anything is allocated for it */
    if (n > strlen(r->at) / 30 + 1)
        return rp_bad(r, "more particles than the file's lines");
    f->n = n;
    f->has_radius = hr != 0;
    f->has_tethers = ht != 0;
    f->particle = rp_alloc(13 * n, sizeof *f->particle);
    f->origin = rp_alloc(n, sizeof *f->origin);
    f->radius = f->has_radius ? rp_alloc(n, sizeof *f->radius) : NULL;
    f->tether_anchor = f->has_tethers ? rp_alloc(n, sizeof *f->tether_anchor) : NULL;
    f->tether_length = f->has_tethers ? rp_alloc(n, sizeof *f->tether_length) : NULL;
    if (!f->particle || !f->origin || (f->has_radius && !f->radius) ||
        (f->has_tethers && (!f->tether_anchor || !f->tether_length)))
        return XPBD_ERR_NOMEM;
    const int width = 15 + f->has_radius + 2 * f->has_tethers;
    for (size_t i = 0; i < n; ++i) {
        if (!rp_next(r) || r->ntok != width || strcmp(r->tok[0], "p") != 0)
            return rp_bad(r, "expected a particle line 'p x y z px py pz vx vy vz w rx ry rz "
                             "origin ...'");
        int ok = 1;
        for (int k = 0; k < 13; ++k)
            ok &= rp_real(r, r->tok[1 + k], &f->particle[13 * i + (size_t)k]);
        ok &= rp_u32(r->tok[14], &f->origin[i]);
        int t = 15;
        if (f->has_radius)
            ok &= rp_real(r, r->tok[t++], &f->radius[i]);
        if (f->has_tethers) {
            ok &= rp_u32(r->tok[t], &f->tether_anchor[i]);
            ok &= rp_real(r, r->tok[t + 1], &f->tether_length[i]);
        }
        if (!ok)
            return rp_bad(r, "malformed particle line");
        if (f->origin[i] >= n)
            return rp_badf(r, "particle %zu: origin %u out of range (%zu particles)", i,
                           f->origin[i], n);
        if (f->has_tethers && f->tether_anchor[i] >= n)
            return rp_badf(r, "particle %zu: tether anchor %u out of range (%zu particles)", i,
                           f->tether_anchor[i], n);
    }
    return XPBD_OK;
}

/* The 'edges' line and one 'e' line an edge. has_runs and colouring_line:
 * the colouring line's (rp_read_colouring). */
static xpbd_status rp_read_edges(rp_reader *r, xpbd_replay_file *f, int has_runs,
                                 size_t colouring_line)
{
    const size_t n = f->n;
    uint64_t v;
    if (!rp_count(r, "edges", &v, (uint64_t)INT32_MAX))
        return rp_bad(r, "expected 'edges <count>'");
    f->edges = (size_t)v;
    if (f->format == 3 && !has_runs && f->edges > 0 && !f->colouring.serial)
        return rp_version(r, colouring_line,
                          "format 3 does not record colouring.runs, which orders these %zu "
                          "edges: refused; record it again, or write the recording's runs "
                          "(0 or 1) as the third number of this line",
                          f->edges);
    if (f->edges > strlen(r->at) / 10 + 1)
        return rp_bad(r, "more edges than the file's lines");
    f->edge = rp_alloc(2 * f->edges, sizeof *f->edge);
    f->edge_rest = rp_alloc(f->edges, sizeof *f->edge_rest);
    f->edge_compliance = rp_alloc(f->edges, sizeof *f->edge_compliance);
    if (!f->edge || !f->edge_rest || !f->edge_compliance)
        return XPBD_ERR_NOMEM;
    for (size_t k = 0; k < f->edges; ++k)
        if (!rp_next(r) || r->ntok != 5 || strcmp(r->tok[0], "e") != 0 ||
            !rp_u32(r->tok[1], &f->edge[2 * k]) || !rp_u32(r->tok[2], &f->edge[2 * k + 1]) ||
            !rp_real(r, r->tok[3], &f->edge_rest[k]) ||
            !rp_real(r, r->tok[4], &f->edge_compliance[k]))
            return rp_bad(r, "expected an edge line 'e i0 i1 rest compliance'");
        else if (f->edge[2 * k] >= n || f->edge[2 * k + 1] >= n)
            return rp_badf(r, "edge %zu: particle %u out of range (%zu particles)", k,
                           f->edge[2 * k] >= n ? f->edge[2 * k] : f->edge[2 * k + 1], n);
    return XPBD_OK;
}

/* The 'tets' (kind 0) or 'bends' (kind 1) line and one 't' or 'b' line
 * each. */
static xpbd_status rp_read_quads(rp_reader *r, xpbd_replay_file *f, int kind)
{
    static const char *const qname[2] = {"tets", "bends"};
    static const char *const qtag[2] = {"t", "b"};
    const size_t n = f->n;
    uint64_t v;
    if (!rp_count(r, qname[kind], &v, (uint64_t)INT32_MAX / 8))
        return rp_bad(r, kind ? "expected 'bends <count>'" : "expected 'tets <count>'");
    if (v > strlen(r->at) / 12 + 1)
        return rp_bad(r, kind ? "more bends than the file's lines"
                              : "more tets than the file's lines");
    uint32_t *idx = rp_alloc(4 * (size_t)v, sizeof *idx);
    double *comp = rp_alloc((size_t)v, sizeof *comp);
    if (kind) {
        f->bends = (size_t)v;
        f->bend = idx;
        f->bend_compliance = comp;
    } else {
        f->tets = (size_t)v;
        f->tet = idx;
        f->tet_compliance = comp;
    }
    if (!idx || !comp)
        return XPBD_ERR_NOMEM;
    for (size_t k = 0; k < (size_t)v; ++k) {
        int ok = rp_next(r) && r->ntok == 6 && strcmp(r->tok[0], qtag[kind]) == 0;
        for (int a = 0; ok && a < 4; ++a)
            ok = rp_u32(r->tok[1 + a], &idx[4 * k + (size_t)a]);
        if (!ok || !rp_real(r, r->tok[5], &comp[k]))
            return rp_bad(r, "expected a line 't|b a b c d compliance'");
        for (int a = 0; a < 4; ++a)
            if (idx[4 * k + (size_t)a] >= n)
                return rp_badf(r, "%s %zu: particle %u out of range (%zu particles)",
                               kind ? "bend" : "tet", k, idx[4 * k + (size_t)a], n);
    }
    return XPBD_OK;
}

/* The 'bodies' line and one 'body' line each. */
static xpbd_status rp_read_bodies(rp_reader *r, xpbd_replay_file *f)
{
    const size_t n = f->n;
    uint64_t v;
    if (!rp_count(r, "bodies", &v, UINT32_MAX - 1))
        return rp_bad(r, "expected 'bodies <count>'");
    if (v > strlen(r->at) / 14 + 1)
        return rp_bad(r, "more bodies than the file's lines");
    f->bodies = (uint32_t)v;
    f->body_begin = rp_alloc(f->bodies, sizeof *f->body_begin);
    f->asleep = rp_alloc(f->bodies, sizeof *f->asleep);
    f->calm = rp_alloc(f->bodies, sizeof *f->calm);
    f->signature = rp_alloc(f->bodies, sizeof *f->signature);
    if (!f->body_begin || !f->asleep || !f->calm || !f->signature)
        return XPBD_ERR_NOMEM;
    f->body_begin[0] = 0;
    for (uint32_t b = 0; b < f->bodies; ++b) {
        uint64_t b0, b1, sl, sig;
        if (!rp_next(r) || r->ntok != 6 || strcmp(r->tok[0], "body") != 0 ||
            !rp_u64(r->tok[1], &b0, 10) || !rp_u64(r->tok[2], &b1, 10) ||
            !rp_u64(r->tok[3], &sl, 10) || sl > 1 || !rp_u32(r->tok[4], &f->calm[b]) ||
            !rp_u64(r->tok[5], &sig, 16) || (b > 0 && b0 != f->body_begin[b]))
            return rp_bad(r, "expected a body line 'body begin end asleep calm signature'");
        if (b0 > b1 || b1 > n)
            return rp_badf(r, "body %u: particles [%llu, %llu) not a range of the %zu "
                              "particles", b, (unsigned long long)b0, (unsigned long long)b1, n);
        f->body_begin[b] = (size_t)b0;
        f->body_begin[b + 1] = (size_t)b1;
        f->asleep[b] = (uint8_t)sl;
        f->signature[b] = sig;
    }
    return XPBD_OK;
}

/* The 'planes' line, one 'plane' line each, and the 'contacts' line. */
static xpbd_status rp_read_planes(rp_reader *r, xpbd_replay_file *f)
{
    uint64_t v;
    if (!rp_count(r, "planes", &v, 8))
        return rp_bad(r, "expected 'planes <count, at most 8>'");
    f->planes = (uint32_t)v;
    for (uint32_t k = 0; k < f->planes; ++k)
        if (!rp_next(r) || r->ntok != 5 || strcmp(r->tok[0], "plane") != 0 ||
            !rp_real(r, r->tok[1], &f->plane[k].n[0]) ||
            !rp_real(r, r->tok[2], &f->plane[k].n[1]) ||
            !rp_real(r, r->tok[3], &f->plane[k].n[2]) || !rp_real(r, r->tok[4], &f->plane[k].d))
            return rp_bad(r, "expected a plane line 'plane nx ny nz d'");
    if (!rp_count(r, "contacts", &v, (uint64_t)INT32_MAX))
        return rp_bad(r, "expected 'contacts <max contacts>'");
    if (v > (uint64_t)INT32_MAX / 2)
        return rp_bad(r, "contacts beyond the contact set's range (INT32_MAX / 2)");
    f->max_contacts = (size_t)v;
    return XPBD_OK;
}

static xpbd_status rp_parse(rp_reader *r, xpbd_replay_file *f)
{
    int has_runs = 0;
    size_t colouring_line = 0;
    xpbd_status st = rp_read_head(r, f);
    if (st == XPBD_OK)
        st = rp_read_options(r, f);
    if (st == XPBD_OK)
        st = rp_read_colouring(r, f, &has_runs, &colouring_line);
    if (st == XPBD_OK)
        st = rp_read_particles(r, f);
    if (st == XPBD_OK)
        st = rp_read_edges(r, f, has_runs, colouring_line);
    for (int kind = 0; st == XPBD_OK && kind < 2; ++kind)
        st = rp_read_quads(r, f, kind);
    if (st == XPBD_OK)
        st = rp_read_bodies(r, f);
    if (st == XPBD_OK)
        st = rp_read_planes(r, f);
    if (st == XPBD_OK)
        st = rp_read_inputs(r, f);
    if (st == XPBD_OK && rp_next(r))
        st = rp_bad(r, "text after the 'end' line");
    return st;
}

/* Parses text (NUL-terminated, split in place) into *out. */
static xpbd_status rp_load_text(char *text, xpbd_replay_file *out, xpbd_replay_error *err)
{
    rp_reader r;
    memset(&r, 0, sizeof r);
    r.at = text;
    r.err = err;
    const char *dp = localeconv()->decimal_point;
    if (!dp || !dp[0] || strlen(dp) >= sizeof r.point)
        dp = ".";
    memcpy(r.point, dp, strlen(dp) + 1);
    const xpbd_status st = rp_parse(&r, out);
    if (st == XPBD_ERR_NOMEM) {
        rp_fail(err, st, "out of memory");
        if (err)
            err->line = r.line;
    }
    if (st != XPBD_OK)
        xpbd_replay_free(out);
    else
        rp_ok(err);
    return st;
}

xpbd_status xpbd_replay_load_mem(const void *data, size_t size, xpbd_replay_file *out,
                                 xpbd_replay_error *err)
{
    rp_ok(err);
    if (out)
        memset(out, 0, sizeof *out);
    if (!out || (!data && size))
        return rp_fail(err, XPBD_ERR_ARGUMENT, "no data or no replay to fill");
    char *text = size < SIZE_MAX ? malloc(size + 1) : NULL;
    if (!text)
        return rp_fail(err, XPBD_ERR_NOMEM, "out of memory");
    if (size)
        memcpy(text, data, size);
    text[size] = 0;
    if (memchr(text, 0, size)) {
        free(text);
        return rp_fail(err, XPBD_ERR_FILE, "not an xpbd replay file (a NUL byte in the text)");
    }
    const xpbd_status st = rp_load_text(text, out, err);
    free(text);
    return st;
}

xpbd_status xpbd_replay_load(const char *path, xpbd_replay_file *out, xpbd_replay_error *err)
{
    rp_ok(err);
    if (out)
        memset(out, 0, sizeof *out);
    if (!path || !out)
        return rp_fail(err, XPBD_ERR_ARGUMENT, "no path or no replay to fill");
    char *data;
    size_t size;
    xpbd_io_error io;
    const xpbd_status st = xpbd__io_read_file(path, "", &data, &size, NULL, &io);
    if (st != XPBD_OK)
        return rp_fail(err, st, "%s", io.what);
    const xpbd_status ld = xpbd_replay_load_mem(data, size, out, err);
    free(data);
    return ld;
}

/* ------------------------------------------------------ per precision --- */

#define XPBD_REAL_F32
#include "replay_tmpl.h"
#define XPBD_REAL_F64
#include "replay_tmpl.h"

/* The exported names, written out: each calls its template instance above. */

xpbd_status xpbd_replay_record_begin_f32(xpbd_replay_file *out, const xpbd_engine_f32 *e,
                                         double h)
{
    return rp_record_begin_f32(out, e, h);
}

xpbd_status xpbd_replay_record_begin_f64(xpbd_replay_file *out, const xpbd_engine_f64 *e,
                                         double h)
{
    return rp_record_begin_f64(out, e, h);
}

xpbd_status xpbd_replay_record_apply_f32(xpbd_replay_file *r, xpbd_engine_f32 *e,
                                         const xpbd_input *in)
{
    return rp_record_apply_f32(r, e, in);
}

xpbd_status xpbd_replay_record_apply_f64(xpbd_replay_file *r, xpbd_engine_f64 *e,
                                         const xpbd_input *in)
{
    return rp_record_apply_f64(r, e, in);
}

xpbd_status xpbd_replay_record_end_f32(xpbd_replay_file *r, const xpbd_engine_f32 *e)
{
    return rp_record_end_f32(r, e);
}

xpbd_status xpbd_replay_record_end_f64(xpbd_replay_file *r, const xpbd_engine_f64 *e)
{
    return rp_record_end_f64(r, e);
}

uint64_t xpbd_replay_state_hash_f32(const xpbd_engine_f32 *e)
{
    return rp_state_hash_f32(e);
}

uint64_t xpbd_replay_state_hash_f64(const xpbd_engine_f64 *e)
{
    return rp_state_hash_f64(e);
}

xpbd_status xpbd_replay_create_f32(const xpbd_replay_file *f, xpbd_engine_f32 **e,
                                   xpbd_replay_error *err)
{
    return rp_create_f32(f, e, err);
}

xpbd_status xpbd_replay_create_f64(const xpbd_replay_file *f, xpbd_engine_f64 **e,
                                   xpbd_replay_error *err)
{
    return rp_create_f64(f, e, err);
}

xpbd_status xpbd_replay_frame_f32(const xpbd_replay_file *f, xpbd_engine_f32 *e,
                                  xpbd_replay_error *err)
{
    return rp_frame_f32(f, e, err);
}

xpbd_status xpbd_replay_frame_f64(const xpbd_replay_file *f, xpbd_engine_f64 *e,
                                  xpbd_replay_error *err)
{
    return rp_frame_f64(f, e, err);
}

xpbd_status xpbd_replay_run_f32(const xpbd_replay_file *f, xpbd_engine_f32 **e,
                                xpbd_replay_error *err)
{
    return rp_run_f32(f, e, err);
}

xpbd_status xpbd_replay_run_f64(const xpbd_replay_file *f, xpbd_engine_f64 **e,
                                xpbd_replay_error *err)
{
    return rp_run_f64(f, e, err);
}
