/* SPDX-License-Identifier: MIT */
/* xpbd/io.h: mesh loaders and result writers ("results out" below), the
 * library xpbd::io (libxpbd_io) beside the kernels; the kernel library
 * itself opens no file.
 *
 * Each loader reads one mesh format into an xpbd_mesh_data (xpbd/mesh.h):
 * positions in double, triangles and tetrahedra as 0-based vertex indices
 * in the file's order (no reorientation), their labels and the named
 * groups. Formats:
 *
 *   OBJ      xpbd_io_load_obj, xpbd_io_load_obj_mem
 *            `v x y z [w]` (up to four more numbers after x y z, such as a
 *            weight or a vertex colour, are read and dropped) and
 *            `f` with `v`, `v/vt`, `v//vn` or `v/vt/vn` corners; a face of
 *            n >= 3 corners is fanned into n - 2 triangles (a0 ai ai+1);
 *            negative indices count back from the last element defined so
 *            far, positive ones may refer to a vertex defined later in the
 *            file; vt and vn references are range-checked as well. `#`
 *            comments, CRLF or LF line ends, a backslash joining a line
 *            with the next; `l` and `p` elements are skipped and counted,
 *            every other statement (vt, vn, o, g, s, usemtl, mtllib, ...)
 *            is skipped. No labels.
 *   TetGen   xpbd_io_load_tetgen, xpbd_io_load_tetgen_mem
 *            `.node` (required), `.ele` and `.face` (when present): the
 *            numbering starts at 0 or 1, as the first point of `.node`
 *            says, and every file numbers its records consecutively from
 *            there; header fields left out take TetGen's defaults.
 *            Point attributes and markers are skipped; a 10-node `.ele`
 *            keeps the four corners; the first attribute of `.ele` (the
 *            region, an integer) labels the tets, the boundary markers of
 *            `.face` label the triangles; further `.ele` attributes and
 *            `.face`'s two adjacent-tet columns (`-nn`) are skipped. `#`
 *            comments. No label names.
 *   Gmsh     xpbd_io_load_gmsh, xpbd_io_load_gmsh_mem
 *            MSH 4.1 ASCII and binary (either byte order, detected from the
 *            file's one-int check; size_t fields of the data-size, 4 or 8
 *            bytes) and MSH 2.2 ASCII (2.0 and 2.1 are read alike).
 *            Triangles (element type 2) and tetrahedra (type 4) are kept;
 *            every other element type is skipped and counted. Node tags
 *            become dense indices in the order of $Nodes. Labels are the
 *            physical groups: 4.1, the first physical tag of the element's
 *            entity in $Entities (0: none; no $Entities, no labels); 2.2,
 *            the first tag of the element (0 when it has none). Label
 *            names: $PhysicalNames' groups of dimension 2 and 3, in the
 *            file's order (a number used in both dimensions is listed
 *            twice). Other sections ($NodeData, $Periodic, ...) are
 *            skipped. $MeshFormat, $Nodes and $Elements are required,
 *            $Nodes before $Elements and $Entities before both.
 *
 * A label array is NULL when the file gives its elements no label (Gmsh:
 * every label would be 0; TetGen: no region attribute, no face markers).
 *
 * Every loader checks the whole file: indices out of range (XPBD_ERR_INDEX),
 * coordinates that are NaN or infinite after parsing (and OBJ's scaling:
 * XPBD_ERR_POSITION), and counts that disagree with the records, files
 * cut short, records with values missing or extra, numbers that do not
 * parse, sections missing, counts too large for the bytes left in the file
 * (checked before anything is allocated for them) or for 32-bit indices
 * (XPBD_ERR_FILE). Numbers are read with '.' as the decimal point whatever
 * the C locale.
 *
 * Allocation, every loader: on success *out holds arrays allocated by the
 * loader, which the caller frees with xpbd_mesh_data_free (once); on any
 * failure nothing the loader allocated is left behind and *out is zeroed
 * (when out is not NULL). A path loader reads the whole file into a buffer
 * of its size first (freed before it returns); the _mem variants read the
 * caller's bytes in place (need no NUL at the end). The loaders read only:
 * they write no file, keep no state and may run on several threads at once
 * (on other outputs). A failed allocation is XPBD_ERR_NOMEM. */
#ifndef XPBD_IO_H
#define XPBD_IO_H

#include "xpbd/mesh.h"

#if defined(_WIN32) && defined(XPBD_SHARED)
#  ifdef XPBD_IO_BUILDING
#    define XPBD_IO_API __declspec(dllexport)
#  else
#    define XPBD_IO_API __declspec(dllimport)
#  endif
#elif defined(__GNUC__)
#  define XPBD_IO_API __attribute__((visibility("default")))
#else
#  define XPBD_IO_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* What a load reports (err, may be NULL). After a failure: where the fault
 * is and what it is; after a success line and byte_offset are 0, what is
 * empty and skipped counts what the mesh left out. */
typedef struct xpbd_io_error {
    size_t line;        /* 1-based line of the fault in a text file (TetGen: in the file
                           what starts with); 0 in a binary .msh from its one-int check
                           on, or when no line applies (the file cannot be opened) */
    size_t byte_offset; /* offset of the fault from the file's first byte: the token or
                           binary field at fault, the end of the file when it is cut short */
    char what[128];     /* what was wrong, NUL-terminated, e.g. "f: v index 9 out of range
                           (8 in the file)"; TetGen's start with the file: ".ele: ..." */
    size_t skipped;     /* success: elements not in the mesh (Gmsh: of element types other
                           than 2 and 4; OBJ: `l` and `p` statements; TetGen: 0) */
} xpbd_io_error;

/* The file's up axis: XPBD_IO_UP_Y keeps the coordinates; XPBD_IO_UP_Z
 * turns a z-up file into y-up, (x, y, z) -> (x, z, -y) (a rotation by -90
 * degrees about x: orientation and handedness kept). */
typedef enum xpbd_io_up {
    XPBD_IO_UP_Y = 0,
    XPBD_IO_UP_Z = 1
} xpbd_io_up;

/* OBJ options; NULL, or a zeroed struct: scale 1, y up. */
typedef struct xpbd_obj_options {
    double scale;  /* every coordinate is multiplied by it; 0 means 1; else finite and > 0 */
    xpbd_io_up up; /* the file's up axis, applied after the scale */
} xpbd_obj_options;

/* Loads the OBJ file at path (or the size bytes at data) into *out.
 * Returns
 *   XPBD_OK
 *   XPBD_ERR_ARGUMENT  path (data with size > 0) or out NULL, opt->scale
 *                      not 0 nor finite and > 0, opt->up not a xpbd_io_up
 *   XPBD_ERR_FILE      cannot be opened or read; malformed (see above); no
 *                      vertex; more than UINT32_MAX vertices
 *   XPBD_ERR_INDEX     a face corner's v, vt or vn index is 0 or out of range
 *   XPBD_ERR_POSITION  a coordinate is NaN or infinite (after the scale)
 *   XPBD_ERR_NOMEM
 * Allocates *out's arrays on success (free: xpbd_mesh_data_free, once); on
 * failure nothing is left allocated and *out is zeroed (when out is not
 * NULL). xpbd_io_load_obj also allocates a buffer of the file's size while
 * it reads (freed before it returns); xpbd_io_load_obj_mem reads data in
 * place and neither keeps nor frees it. */
XPBD_IO_API xpbd_status xpbd_io_load_obj(const char *path, const xpbd_obj_options *opt,
                                         xpbd_mesh_data *out, xpbd_io_error *err);
XPBD_IO_API xpbd_status xpbd_io_load_obj_mem(const void *data, size_t size,
                                             const xpbd_obj_options *opt, xpbd_mesh_data *out,
                                             xpbd_io_error *err);

/* Loads a TetGen mesh into *out. path names the .node file ("box.1.node")
 * or the files' common name ("box.1"); NAME.ele and NAME.face are read
 * when they exist. The _mem variant takes each file's bytes; ele or face
 * NULL (with size 0) means the file is absent. Returns
 *   XPBD_OK
 *   XPBD_ERR_ARGUMENT  path (node) or out NULL, or a NULL part with a size
 *   XPBD_ERR_FILE      .node missing, a file that cannot be read (other than
 *                      absent), malformed (see above), no point, more than
 *                      UINT32_MAX points
 *   XPBD_ERR_INDEX     a tet or face corner names no point of .node
 *   XPBD_ERR_POSITION  a coordinate is NaN or infinite
 *   XPBD_ERR_NOMEM
 * Allocates *out's arrays on success (free: xpbd_mesh_data_free, once); on
 * failure nothing is left allocated and *out is zeroed (when out is not
 * NULL). xpbd_io_load_tetgen also allocates the three files' names and a
 * buffer of each file's size it reads (all freed before it returns);
 * xpbd_io_load_tetgen_mem reads node, ele and face in place and neither
 * keeps nor frees them. */
XPBD_IO_API xpbd_status xpbd_io_load_tetgen(const char *path, xpbd_mesh_data *out,
                                            xpbd_io_error *err);
XPBD_IO_API xpbd_status xpbd_io_load_tetgen_mem(const void *node, size_t node_size,
                                                const void *ele, size_t ele_size,
                                                const void *face, size_t face_size,
                                                xpbd_mesh_data *out, xpbd_io_error *err);

/* Loads the Gmsh .msh file at path (or the size bytes at data) into *out.
 * Returns
 *   XPBD_OK
 *   XPBD_ERR_ARGUMENT  path (data with size > 0) or out NULL
 *   XPBD_ERR_FILE      cannot be opened or read; not MSH 4.1 or 2.2 ASCII
 *                      or 4.1 binary; malformed (see above), a binary file's
 *                      one-int check neither byte order's 1, an element type
 *                      of unknown size in a binary file; no node; more than
 *                      UINT32_MAX nodes; a node tag repeated
 *   XPBD_ERR_INDEX     an element names a node tag $Nodes does not hold
 *   XPBD_ERR_POSITION  a coordinate is NaN or infinite
 *   XPBD_ERR_NOMEM
 * Allocates *out's arrays on success (free: xpbd_mesh_data_free, once); on
 * failure nothing is left allocated and *out is zeroed (when out is not
 * NULL). xpbd_io_load_gmsh also allocates a buffer of the file's size while
 * it reads (freed before it returns); xpbd_io_load_gmsh_mem reads data in
 * place and neither keeps nor frees it. */
XPBD_IO_API xpbd_status xpbd_io_load_gmsh(const char *path, xpbd_mesh_data *out,
                                          xpbd_io_error *err);
XPBD_IO_API xpbd_status xpbd_io_load_gmsh_mem(const void *data, size_t size,
                                              xpbd_mesh_data *out, xpbd_io_error *err);

/* ----------------------------------------------------------- results out ---
 *
 * Writers for results: a frame as a VTK XML unstructured grid (.vtu, ASCII)
 * or a legacy VTK file (.vtk, ASCII UNSTRUCTURED_GRID), a ParaView sequence
 * index (.pvd), the rest mesh as OBJ and a PC2 point cache (Blender's Mesh
 * Cache modifier). Positions and point data come in double, interleaved
 * (x, y, z) per point (xpbd_io_interleave_* makes that of an engine's
 * separate float or double x, y, z arrays); indices 0-based. Reals are
 * printed with %.17g, so a double reads back exactly, with '.' as the
 * decimal point whatever the C locale.
 *
 * Every writer writes PATH.part beside PATH and renames it onto PATH once
 * the whole file is written and closed: on any failure the .part file is
 * removed and PATH is left as it was (no half-written output). Statuses,
 * every writer: XPBD_ERR_ARGUMENT for a NULL or inconsistent argument (a
 * count with a NULL array, a bad array or file name), XPBD_ERR_POSITION for
 * a NaN or infinite position, XPBD_ERR_INDEX for a corner out of range,
 * XPBD_ERR_FILE when PATH.part cannot be created or written or cannot be
 * renamed onto PATH (a directory that does not exist or is not writable),
 * XPBD_ERR_NOMEM. Two writers must not write the same PATH at once. */

/* A named per-point scalar array (VTK point data), e.g. "max_strain". */
typedef struct xpbd_io_point_array {
    const char *name;     /* letters, digits, '_', '-', '.'; not "velocity"; unique */
    const double *values; /* [points] */
} xpbd_io_point_array;

/* One frame: points, cells (tets as VTK_TETRA = 10, then triangles as
 * VTK_TRIANGLE = 5) and point data. */
typedef struct xpbd_io_frame {
    size_t points;                    /* at most UINT32_MAX */
    const double *xyz;                /* [3 * points] positions */
    const double *vel;                /* [3 * points] velocities ("velocity"); NULL = none */
    size_t tets;
    const uint32_t *tet;              /* [4 * tets] */
    size_t triangles;
    const uint32_t *triangle;         /* [3 * triangles] */
    size_t arrays;
    const xpbd_io_point_array *array; /* [arrays] extra scalar point data */
} xpbd_io_frame;

/* Writes *frame to path as .vtu (VTK XML UnstructuredGrid, ASCII, Float64
 * points and point data, Int64 connectivity and offsets) or as .vtk
 * (legacy ASCII UNSTRUCTURED_GRID: POINTS double, CELLS, CELL_TYPES,
 * POINT_DATA with VECTORS velocity and SCALARS NAME double 1). Returns
 * XPBD_OK or a status above. Allocates only the .part file's name (freed
 * before it returns). */
XPBD_IO_API xpbd_status xpbd_io_write_vtu(const char *path, const xpbd_io_frame *frame);
XPBD_IO_API xpbd_status xpbd_io_write_vtk(const char *path, const xpbd_io_frame *frame);

/* Writes the .pvd Collection at path: count DataSet entries, file[k] (as
 * written: a path relative to the .pvd's directory, no '<', '>', '&', '"'
 * or line end) at timestep time[k] (finite). Call it again after every
 * frame with one more entry: the index is rewritten whole (renamed into
 * place), so a viewer never sees half of it. Allocates only the .part
 * file's name (freed before it returns). */
XPBD_IO_API xpbd_status xpbd_io_write_pvd(const char *path, size_t count,
                                          const char *const *file, const double *time);

/* Writes an OBJ file: `v x y z` a point, `f a b c` a triangle (1-based),
 * which xpbd_io_load_obj reads back exactly. points > 0. Allocates only
 * the .part file's name (freed before it returns). */
XPBD_IO_API xpbd_status xpbd_io_write_obj(const char *path, size_t points, const double *xyz,
                                          size_t triangles, const uint32_t *triangle);

/* xyz[3i..3i+2] = (x[i], y[i], z[i]) for i < n: an engine's particle arrays
 * (xpbd_particles_*) as the writers take them. Never allocates. */
XPBD_IO_API void xpbd_io_interleave_f32(size_t n, const float *x, const float *y,
                                        const float *z, double *xyz);
XPBD_IO_API void xpbd_io_interleave_f64(size_t n, const double *x, const double *y,
                                        const double *z, double *xyz);

/* A PC2 point cache being written. The format (little endian): char[12]
 * "POINTCACHE2\0", int32 version 1, int32 points, float32 start frame,
 * float32 sample rate, int32 samples; then samples x points x 3 float32. */
typedef struct xpbd_io_pc2_writer xpbd_io_pc2_writer;

/* Opens a PC2 writer for path (writing path.part): points > 0 (at most
 * INT32_MAX / 12), start_frame and sample_rate finite (Blender: the frame
 * of the first sample and the frames between samples, e.g. 1). Allocates
 * the writer (freed by close or discard); on failure *out is NULL and
 * nothing is left allocated or on disk. */
XPBD_IO_API xpbd_status xpbd_io_pc2_open(xpbd_io_pc2_writer **out, const char *path,
                                         size_t points, float start_frame, float sample_rate);
/* Appends one sample: xyz [3 * points] rounded to float. XPBD_ERR_FILE on
 * a write error (then close fails too and leaves no file). Never
 * allocates. */
XPBD_IO_API xpbd_status xpbd_io_pc2_append(xpbd_io_pc2_writer *w, const double *xyz);
/* Writes the sample count into the header, closes and renames the file
 * into place, and frees w (also on failure: XPBD_ERR_FILE, no file left;
 * path as it was). */
XPBD_IO_API xpbd_status xpbd_io_pc2_close(xpbd_io_pc2_writer *w);
/* Frees w and removes what it wrote (path as it was); NULL is a no-op. */
XPBD_IO_API void xpbd_io_pc2_discard(xpbd_io_pc2_writer *w);

/* A PC2 file read back (xpbd_io_read_pc2). */
typedef struct xpbd_io_pc2 {
    uint32_t points, samples;
    float start_frame, sample_rate;
    float *xyz; /* [samples * points * 3], NULL when there is no sample */
} xpbd_io_pc2;

/* Reads the PC2 file at path into *out. XPBD_ERR_FILE: cannot be read, not
 * "POINTCACHE2\0" version 1, or its size is not the header's points x
 * samples; XPBD_ERR_ARGUMENT for NULL; XPBD_ERR_NOMEM. Allocates out->xyz
 * (free: xpbd_io_pc2_free) and the file's bytes while reading; on failure
 * nothing is left allocated and *out is zeroed. */
XPBD_IO_API xpbd_status xpbd_io_read_pc2(const char *path, xpbd_io_pc2 *out);
/* Frees pc->xyz (what xpbd_io_read_pc2 allocated) and zeroes *pc; NULL, or
 * a zeroed struct, is fine. Never allocates. */
XPBD_IO_API void xpbd_io_pc2_free(xpbd_io_pc2 *pc);

#ifdef __cplusplus
}
#endif

#endif /* XPBD_IO_H */
