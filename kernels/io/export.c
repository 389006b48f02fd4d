/* SPDX-License-Identifier: MIT */
/* export.c: results out (xpbd/io.h): a frame as VTK XML .vtu and legacy
 * .vtk, a .pvd sequence index, the rest mesh as OBJ and a PC2 point cache.
 *
 * Every writer writes PATH.part beside the target and renames it onto PATH
 * once the whole file is written and closed; on any failure the .part file
 * is removed and PATH is left as it was. Reals are printed with %.17g (a
 * double reads back exactly) and '.' as the decimal point whatever the C
 * locale. */
#include "io_internal.h"

#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ shared --- */

/* v printed with %.17g and '.' as the decimal point */
static void ex_real(FILE *f, double v)
{
    char b[40];
    snprintf(b, sizeof b, "%.17g", v);
    const char point = localeconv()->decimal_point[0];
    if (point != '.' && point)
        for (char *c = b; *c; ++c)
            if (*c == point)
                *c = '.';
    fputs(b, f);
}

/* a name for a file's array: letters, digits, '_', '-', '.' */
static int ex_name_ok(const char *s)
{
    if (!s || !*s)
        return 0;
    for (; *s; ++s) {
        const char c = *s;
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '_' || c == '-' || c == '.'))
            return 0;
    }
    return 1;
}

static xpbd_status ex_check_frame(const xpbd_io_frame *fr)
{
    if (!fr || (fr->points && !fr->xyz) || (fr->tets && !fr->tet) ||
        (fr->triangles && !fr->triangle) || (fr->arrays && !fr->array))
        return XPBD_ERR_ARGUMENT;
    if (fr->points > UINT32_MAX)
        return XPBD_ERR_ARGUMENT;
    for (size_t a = 0; a < fr->arrays; ++a) {
        if (!ex_name_ok(fr->array[a].name) || (fr->points && !fr->array[a].values) ||
            strcmp(fr->array[a].name, "velocity") == 0)
            return XPBD_ERR_ARGUMENT;
        for (size_t b = 0; b < a; ++b)
            if (strcmp(fr->array[a].name, fr->array[b].name) == 0)
                return XPBD_ERR_ARGUMENT;
    }
    for (size_t i = 0; i < 3 * fr->points; ++i)
        if (!isfinite(fr->xyz[i]))
            return XPBD_ERR_POSITION;
    for (size_t k = 0; k < 4 * fr->tets; ++k)
        if (fr->tet[k] >= fr->points)
            return XPBD_ERR_INDEX;
    for (size_t k = 0; k < 3 * fr->triangles; ++k)
        if (fr->triangle[k] >= fr->points)
            return XPBD_ERR_INDEX;
    return XPBD_OK;
}

/* n triples of xyz (stride 3), one a line */
static void ex_triples(FILE *f, const double *v, size_t n, const char *indent)
{
    for (size_t i = 0; i < n; ++i) {
        fputs(indent, f);
        for (int k = 0; k < 3; ++k) {
            if (k)
                fputc(' ', f);
            ex_real(f, v[3 * i + (size_t)k]);
        }
        fputc('\n', f);
    }
}

static void ex_column(FILE *f, const double *v, size_t n, const char *indent)
{
    for (size_t i = 0; i < n; ++i) {
        fputs(indent, f);
        ex_real(f, v[i]);
        fputc('\n', f);
    }
}

/* ------------------------------------------------------------ frames --- */

/* A frame's file: path and frame checked, PATH.part opened for writing. */
static xpbd_status ex_open_frame(const char *path, const xpbd_io_frame *frame, FILE **f,
                                 char **part)
{
    if (!path)
        return XPBD_ERR_ARGUMENT;
    const xpbd_status st = ex_check_frame(frame);
    return st != XPBD_OK ? st : xpbd__io_part_open(path, "w", f, part);
}

xpbd_status xpbd_io_write_vtu(const char *path, const xpbd_io_frame *frame)
{
    FILE *f;
    char *part;
    const xpbd_status st = ex_open_frame(path, frame, &f, &part);
    if (st != XPBD_OK)
        return st;
    const xpbd_io_frame *fr = frame;
    const char *in = "          ";
    fprintf(f, "<?xml version=\"1.0\"?>\n"
               "<VTKFile type=\"UnstructuredGrid\" version=\"0.1\" byte_order=\"LittleEndian\">\n"
               "  <UnstructuredGrid>\n"
               "    <Piece NumberOfPoints=\"%zu\" NumberOfCells=\"%zu\">\n",
            fr->points, fr->tets + fr->triangles);
    fprintf(f, "      <PointData%s>\n", fr->vel ? " Vectors=\"velocity\"" : "");
    if (fr->vel) {
        fprintf(f, "        <DataArray type=\"Float64\" Name=\"velocity\" "
                   "NumberOfComponents=\"3\" format=\"ascii\">\n");
        ex_triples(f, fr->vel, fr->points, in);
        fprintf(f, "        </DataArray>\n");
    }
    for (size_t a = 0; a < fr->arrays; ++a) {
        fprintf(f, "        <DataArray type=\"Float64\" Name=\"%s\" format=\"ascii\">\n",
                fr->array[a].name);
        ex_column(f, fr->array[a].values, fr->points, in);
        fprintf(f, "        </DataArray>\n");
    }
    fprintf(f, "      </PointData>\n"
               "      <Points>\n"
               "        <DataArray type=\"Float64\" NumberOfComponents=\"3\" format=\"ascii\">\n");
    ex_triples(f, fr->xyz, fr->points, in);
    fprintf(f, "        </DataArray>\n"
               "      </Points>\n"
               "      <Cells>\n"
               "        <DataArray type=\"Int64\" Name=\"connectivity\" format=\"ascii\">\n");
    for (size_t k = 0; k < fr->tets; ++k)
        fprintf(f, "%s%u %u %u %u\n", in, fr->tet[4 * k], fr->tet[4 * k + 1], fr->tet[4 * k + 2],
                fr->tet[4 * k + 3]);
    for (size_t k = 0; k < fr->triangles; ++k)
        fprintf(f, "%s%u %u %u\n", in, fr->triangle[3 * k], fr->triangle[3 * k + 1],
                fr->triangle[3 * k + 2]);
    fprintf(f, "        </DataArray>\n"
               "        <DataArray type=\"Int64\" Name=\"offsets\" format=\"ascii\">\n");
    for (size_t k = 0; k < fr->tets; ++k)
        fprintf(f, "%s%zu\n", in, 4 * (k + 1));
    for (size_t k = 0; k < fr->triangles; ++k)
        fprintf(f, "%s%zu\n", in, 4 * fr->tets + 3 * (k + 1));
    fprintf(f, "        </DataArray>\n"
               "        <DataArray type=\"UInt8\" Name=\"types\" format=\"ascii\">\n");
    for (size_t k = 0; k < fr->tets; ++k)
        fprintf(f, "%s10\n", in);
    for (size_t k = 0; k < fr->triangles; ++k)
        fprintf(f, "%s5\n", in);
    fprintf(f, "        </DataArray>\n"
               "      </Cells>\n"
               "    </Piece>\n"
               "  </UnstructuredGrid>\n"
               "</VTKFile>\n");
    return xpbd__io_part_close(f, part, path, 1);
}

xpbd_status xpbd_io_write_vtk(const char *path, const xpbd_io_frame *frame)
{
    FILE *f;
    char *part;
    const xpbd_status st = ex_open_frame(path, frame, &f, &part);
    if (st != XPBD_OK)
        return st;
    const xpbd_io_frame *fr = frame;
    const size_t cells = fr->tets + fr->triangles;
    fprintf(f, "# vtk DataFile Version 3.0\nxpbd frame\nASCII\nDATASET UNSTRUCTURED_GRID\n"
               "POINTS %zu double\n", fr->points);
    ex_triples(f, fr->xyz, fr->points, "");
    fprintf(f, "CELLS %zu %zu\n", cells, 5 * fr->tets + 4 * fr->triangles);
    for (size_t k = 0; k < fr->tets; ++k)
        fprintf(f, "4 %u %u %u %u\n", fr->tet[4 * k], fr->tet[4 * k + 1], fr->tet[4 * k + 2],
                fr->tet[4 * k + 3]);
    for (size_t k = 0; k < fr->triangles; ++k)
        fprintf(f, "3 %u %u %u\n", fr->triangle[3 * k], fr->triangle[3 * k + 1],
                fr->triangle[3 * k + 2]);
    fprintf(f, "CELL_TYPES %zu\n", cells);
    for (size_t k = 0; k < fr->tets; ++k)
        fputs("10\n", f);
    for (size_t k = 0; k < fr->triangles; ++k)
        fputs("5\n", f);
    if (fr->vel || fr->arrays)
        fprintf(f, "POINT_DATA %zu\n", fr->points);
    if (fr->vel) {
        fprintf(f, "VECTORS velocity double\n");
        ex_triples(f, fr->vel, fr->points, "");
    }
    for (size_t a = 0; a < fr->arrays; ++a) {
        fprintf(f, "SCALARS %s double 1\nLOOKUP_TABLE default\n", fr->array[a].name);
        ex_column(f, fr->array[a].values, fr->points, "");
    }
    return xpbd__io_part_close(f, part, path, 1);
}

xpbd_status xpbd_io_write_pvd(const char *path, size_t count, const char *const *file,
                              const double *time)
{
    if (!path || (count && (!file || !time)))
        return XPBD_ERR_ARGUMENT;
    for (size_t k = 0; k < count; ++k) {
        if (!file[k] || !file[k][0] || !isfinite(time[k]))
            return XPBD_ERR_ARGUMENT;
        for (const char *c = file[k]; *c; ++c)
            if (*c == '<' || *c == '>' || *c == '&' || *c == '"' || *c == '\n' || *c == '\r')
                return XPBD_ERR_ARGUMENT;
    }
    FILE *f;
    char *part;
    const xpbd_status st = xpbd__io_part_open(path, "w", &f, &part);
    if (st != XPBD_OK)
        return st;
    fprintf(f, "<?xml version=\"1.0\"?>\n"
               "<VTKFile type=\"Collection\" version=\"0.1\" byte_order=\"LittleEndian\">\n"
               "  <Collection>\n");
    for (size_t k = 0; k < count; ++k) {
        fputs("    <DataSet timestep=\"", f);
        ex_real(f, time[k]);
        fprintf(f, "\" group=\"\" part=\"0\" file=\"%s\"/>\n", file[k]);
    }
    fprintf(f, "  </Collection>\n</VTKFile>\n");
    return xpbd__io_part_close(f, part, path, 1);
}

xpbd_status xpbd_io_write_obj(const char *path, size_t points, const double *xyz,
                              size_t triangles, const uint32_t *triangle)
{
    if (!path || !points || !xyz || (triangles && !triangle) || points > UINT32_MAX)
        return XPBD_ERR_ARGUMENT;
    for (size_t i = 0; i < 3 * points; ++i)
        if (!isfinite(xyz[i]))
            return XPBD_ERR_POSITION;
    for (size_t k = 0; k < 3 * triangles; ++k)
        if (triangle[k] >= points)
            return XPBD_ERR_INDEX;
    FILE *f;
    char *part;
    const xpbd_status st = xpbd__io_part_open(path, "w", &f, &part);
    if (st != XPBD_OK)
        return st;
    fprintf(f, "# xpbd rest mesh: %zu vertices, %zu triangles\n", points, triangles);
    for (size_t i = 0; i < points; ++i) {
        fputs("v ", f);
        ex_triples(f, xyz + 3 * i, 1, "");
    }
    for (size_t k = 0; k < triangles; ++k)
        fprintf(f, "f %lu %lu %lu\n", (unsigned long)triangle[3 * k] + 1ul,
                (unsigned long)triangle[3 * k + 1] + 1ul, (unsigned long)triangle[3 * k + 2] + 1ul);
    return xpbd__io_part_close(f, part, path, 1);
}

void xpbd_io_interleave_f32(size_t n, const float *x, const float *y, const float *z,
                            double *xyz)
{
    for (size_t i = 0; i < n; ++i) {
        xyz[3 * i] = (double)x[i];
        xyz[3 * i + 1] = (double)y[i];
        xyz[3 * i + 2] = (double)z[i];
    }
}

void xpbd_io_interleave_f64(size_t n, const double *x, const double *y, const double *z,
                            double *xyz)
{
    for (size_t i = 0; i < n; ++i) {
        xyz[3 * i] = x[i];
        xyz[3 * i + 1] = y[i];
        xyz[3 * i + 2] = z[i];
    }
}

/* --------------------------------------------------------------- PC2 --- */

#define EX_PC2_HEADER 32
#define EX_PC2_SAMPLES_AT 28

struct xpbd_io_pc2_writer {
    FILE *f;
    char *part, *path;
    uint32_t points, samples;
    int failed;
};

static void ex_le32(unsigned char *b, uint32_t v)
{
    b[0] = (unsigned char)(v & 0xffu);
    b[1] = (unsigned char)((v >> 8) & 0xffu);
    b[2] = (unsigned char)((v >> 16) & 0xffu);
    b[3] = (unsigned char)((v >> 24) & 0xffu);
}

static uint32_t ex_rd32(const unsigned char *b)
{
    return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

static uint32_t ex_fbits(float v)
{
    uint32_t u;
    memcpy(&u, &v, sizeof u);
    return u;
}

static float ex_bitsf(uint32_t u)
{
    float v;
    memcpy(&v, &u, sizeof v);
    return v;
}

xpbd_status xpbd_io_pc2_open(xpbd_io_pc2_writer **out, const char *path, size_t points,
                             float start_frame, float sample_rate)
{
    if (out)
        *out = NULL;
    if (!out || !path || points == 0 || points > (size_t)INT32_MAX / 12 ||
        !isfinite(start_frame) || !isfinite(sample_rate))
        return XPBD_ERR_ARGUMENT;
    xpbd_io_pc2_writer *w = calloc(1, sizeof *w);
    if (!w)
        return XPBD_ERR_NOMEM;
    const size_t n = strlen(path);
    w->path = malloc(n + 1);
    if (!w->path) {
        free(w);
        return XPBD_ERR_NOMEM;
    }
    memcpy(w->path, path, n + 1);
    const xpbd_status st = xpbd__io_part_open(path, "wb", &w->f, &w->part);
    if (st != XPBD_OK) {
        free(w->path);
        free(w);
        return st;
    }
    w->points = (uint32_t)points;
    unsigned char h[EX_PC2_HEADER];
    memcpy(h, "POINTCACHE2", 12); /* with its NUL */
    ex_le32(h + 12, 1u);
    ex_le32(h + 16, w->points);
    ex_le32(h + 20, ex_fbits(start_frame));
    ex_le32(h + 24, ex_fbits(sample_rate));
    ex_le32(h + 28, 0u);
    if (fwrite(h, 1, sizeof h, w->f) != sizeof h)
        w->failed = 1;
    *out = w;
    return XPBD_OK;
}

xpbd_status xpbd_io_pc2_append(xpbd_io_pc2_writer *w, const double *xyz)
{
    if (!w || !xyz)
        return XPBD_ERR_ARGUMENT;
    if (w->failed)
        return XPBD_ERR_FILE;
    if (w->samples >= (uint32_t)INT32_MAX)
        return XPBD_ERR_ARGUMENT;
    unsigned char b[4 * 384];
    const size_t total = 3 * (size_t)w->points;
    for (size_t i = 0; i < total;) {
        size_t m = 0;
        for (; m < 384 && i < total; ++m, ++i)
            ex_le32(b + 4 * m, ex_fbits((float)xyz[i]));
        if (fwrite(b, 4, m, w->f) != m) {
            w->failed = 1;
            return XPBD_ERR_FILE;
        }
    }
    ++w->samples;
    return XPBD_OK;
}

xpbd_status xpbd_io_pc2_close(xpbd_io_pc2_writer *w)
{
    if (!w)
        return XPBD_ERR_ARGUMENT;
    int ok = !w->failed;
    if (ok) {
        unsigned char b[4];
        ex_le32(b, w->samples);
        ok = fseek(w->f, EX_PC2_SAMPLES_AT, SEEK_SET) == 0 && fwrite(b, 1, 4, w->f) == 4;
    }
    const xpbd_status st = xpbd__io_part_close(w->f, w->part, w->path, ok);
    free(w->path);
    free(w);
    return st;
}

void xpbd_io_pc2_discard(xpbd_io_pc2_writer *w)
{
    if (!w)
        return;
    xpbd__io_part_close(w->f, w->part, w->path, 0);
    free(w->path);
    free(w);
}

xpbd_status xpbd_io_read_pc2(const char *path, xpbd_io_pc2 *out)
{
    if (out)
        memset(out, 0, sizeof *out);
    if (!path || !out)
        return XPBD_ERR_ARGUMENT;
    char *data;
    size_t size;
    xpbd_status st = xpbd__io_read_file(path, "", &data, &size, NULL, NULL);
    if (st != XPBD_OK)
        return st;
    const unsigned char *b = (const unsigned char *)data;
    st = XPBD_ERR_FILE;
    if (size >= EX_PC2_HEADER && memcmp(b, "POINTCACHE2", 12) == 0 && ex_rd32(b + 12) == 1u) {
        const uint32_t points = ex_rd32(b + 16), samples = ex_rd32(b + 28);
        if (points <= (uint32_t)INT32_MAX && samples <= (uint32_t)INT32_MAX &&
            (size - EX_PC2_HEADER) / 12 / (points ? points : 1) >= samples &&
            size - EX_PC2_HEADER == (size_t)points * samples * 12) {
            const size_t floats = (size_t)points * samples * 3;
            float *v = floats ? malloc(floats * sizeof *v) : NULL;
            if (floats && !v) {
                st = XPBD_ERR_NOMEM;
            } else {
                for (size_t k = 0; k < floats; ++k)
                    v[k] = ex_bitsf(ex_rd32(b + EX_PC2_HEADER + 4 * k));
                out->points = points;
                out->samples = samples;
                out->start_frame = ex_bitsf(ex_rd32(b + 20));
                out->sample_rate = ex_bitsf(ex_rd32(b + 24));
                out->xyz = v;
                st = XPBD_OK;
            }
        }
    }
    free(data);
    return st;
}

void xpbd_io_pc2_free(xpbd_io_pc2 *pc)
{
    if (!pc)
        return;
    free(pc->xyz);
    memset(pc, 0, sizeof *pc);
}
