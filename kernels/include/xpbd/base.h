/* SPDX-License-Identifier: MIT */
/* xpbd/base.h: status codes, versions and instruction-set selection.
 *
 * Every public function of xpbd returns an xpbd_status or a plain value; the
 * library never prints and never aborts. It allocates only in the functions
 * whose comment says so, with what it allocates and what frees it: the set
 * builders (xpbd_distance_set_build_*, xpbd_tet_set_build_*,
 * xpbd_bend_set_build_*: the set, freed by xpbd_distance_set_free_* or
 * xpbd_quad_set_free_*), engine create (the engine, freed by
 * xpbd_engine_destroy_*), the engine step when a body fell asleep or woke
 * or constraints tore (new sets, owned by the engine), xpbd_tear_remove_*
 * (the new set), xpbd_mesh_scene_build_* (the scene's arrays, freed by
 * xpbd_mesh_scene_free_*), and xpbd_tear_split, xpbd_mesh_locality_order_*,
 * xpbd_mesh_edges, xpbd_mesh_bends and xpbd_order_check_* (workspaces freed
 * before they return); a failed
 * allocation is XPBD_ERR_NOMEM. Everything else, the kernels, validators,
 * broad phase and step drivers (xpbd_step_*, xpbd_world_step_*) included,
 * works in caller memory and never allocates (the default executor,
 * xpbd_executor_default(), starts its threads once, at the first task that
 * can use them). */
#ifndef XPBD_BASE_H
#define XPBD_BASE_H

#include <stddef.h>
#include <stdint.h>

#include "xpbd/version.h"

#if defined(_WIN32) && defined(XPBD_SHARED)
#  ifdef XPBD_BUILDING
#    define XPBD_API __declspec(dllexport)
#  else
#    define XPBD_API __declspec(dllimport)
#  endif
#elif defined(__GNUC__)
#  define XPBD_API __attribute__((visibility("default")))
#else
#  define XPBD_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* XPBD_VERSION_MAJOR, _MINOR, _PATCH, XPBD_VERSION: generated from CMake's
 * project(VERSION) into xpbd/version.h */
/* Version of the step protocol: the meaning of xpbd_step_config's fields and
 * defaults. Scene/replay files carry it; a mismatch is refused. */
/* 2: distance sets are built with xpbd_colouring_options.layout =
 * XPBD_LAYOUT_AUTO by default (the runs layout on regular meshes: another
 * Gauss-Seidel order than protocol 1's input order). */
#define XPBD_PROTOCOL_VERSION 2u

/* Run-time library version, MAJOR*10000 + MINOR*100 + PATCH. */
XPBD_API unsigned xpbd_version(void);

/* Status codes. The values are pinned and will not change. */
typedef enum xpbd_status {
    XPBD_OK = 0,
    XPBD_SKIPPED = 1,                   /* nothing to do (e.g. both endpoints static) */
    XPBD_OVERFLOW = 2,                  /* done, degraded: a capacity was exceeded, the
                                           excess dropped and counted */
    XPBD_ERR_ARGUMENT = -1,             /* NULL pointer or inconsistent sizes */
    XPBD_ERR_POSITION = -2,             /* a position is NaN or infinite */
    XPBD_ERR_VELOCITY = -3,             /* a velocity is NaN or infinite */
    XPBD_ERR_INVERSE_MASS = -4,         /* an inverse mass is negative or not finite */
    XPBD_ERR_REST = -5,                 /* a rest length is <= 0 or not finite */
    XPBD_ERR_COMPLIANCE = -6,           /* a compliance is negative or not finite */
    XPBD_ERR_TIMESTEP = -7,             /* a time step is <= 0 or not finite */
    XPBD_ERR_ORDER = -8,                /* 1-D lab: b <= a */
    XPBD_ERR_SCALE = -9,                /* alpha~ or the denominator is not finite and > 0 */
    XPBD_ERR_RESULT = -10,              /* the candidate result is not finite or reverses order */
    XPBD_ERR_INDEX = -11,               /* a particle index is out of range or repeated */
    XPBD_ERR_ISA = -12,                 /* unknown, not compiled in, or unsupported ISA */
    XPBD_ERR_CAPACITY = -13,            /* a caller buffer is too small */
    XPBD_ERR_VERSION = -14,             /* protocol version mismatch */
    XPBD_ERR_CONFIG = -15,              /* a step configuration field is out of range */
    XPBD_ERR_DIVERGED = -16,            /* the step produced a non-finite state (restored) */
    XPBD_ERR_NOMEM = -17,               /* an allocation failed (see above) */
    XPBD_ERR_LAMBDA = -18,              /* an accumulated lambda is not finite */
    XPBD_ERR_RADIUS = -19,              /* a particle radius is negative or not finite */
    XPBD_ERR_RESTITUTION = -20,         /* restitution outside [0, 1] or not finite */
    XPBD_ERR_BETA = -21,                /* position correction beta outside (0, 1] */
    XPBD_ERR_SLOP = -22,                /* contact slop negative or not finite */
    XPBD_ERR_FRICTION = -23,            /* friction negative, not finite, or mu_k > mu_s */
    XPBD_ERR_PLANE = -24,               /* a plane normal is not unit length or d not finite */
    XPBD_ERR_DEGENERATE = -25,          /* zero rest volume or area at build time */
    XPBD_ERR_FILE = -26,                /* a file cannot be read or is malformed (xpbd/io.h) */
    XPBD_ERR_TOPOLOGY = -27             /* a mesh edge shared by more than two triangles, or
                                           by a triangle given twice (xpbd/mesh.h) */
} xpbd_status;

/* Human-readable name of a status, e.g. "rest length <= 0 or not finite".
 * Never NULL; unknown values give "unknown status". */
XPBD_API const char *xpbd_status_str(xpbd_status status);

/* ------------------------------------------------------ error places --- */

/* Where an error is: the set or array the offending element belongs to
 * (xpbd_step_counters.bad_part, xpbd_where.part). The values are pinned
 * and will not change. */
typedef enum xpbd_part {
    XPBD_PART_NONE = 0,          /* no place: the status says it all (or success) */
    XPBD_PART_CONFIG = 1,        /* the step configuration; the field names its field */
    XPBD_PART_PARTICLES = 2,     /* the particles (x, p, v, w); index = particle */
    XPBD_PART_DISTANCE = 3,      /* the distance constraints; index = slot (create: edge) */
    XPBD_PART_TET = 4,           /* the tetrahedra; index = slot (create: tet) */
    XPBD_PART_BEND = 5,          /* the bending stencils; index = slot (create: stencil) */
    XPBD_PART_TETHER = 6,        /* the tethers (anchor, length); index = particle */
    XPBD_PART_CONTACT_FIXED = 7, /* a contact set used as given (contacts_fixed); index = slot */
    XPBD_PART_CONTACT_FOUND = 8, /* the contact set the broad phase fills: arrays, capacity */
    XPBD_PART_PLANE = 9,         /* the planes; index = plane */
    XPBD_PART_BODY = 10,         /* the body ranges (body_begin); index = body */
    XPBD_PART_RIGID = 11,        /* the host rigid bodies; index = body, field = its field */
    XPBD_PART_SCENE = 12,        /* the engine's scene itself: origin, rest_xyz; index = particle */
    XPBD_PART_OPTIONS = 13,      /* the engine options; the field names its field */
    XPBD_PART_RADIUS = 14,       /* the contact radii; index = particle */
    XPBD_PART_SCRATCH = 15,      /* the caller's scratch buffer: NULL, too small, misaligned */
    XPBD_PART_COUNT = 16
} xpbd_part;

/* The field at fault: of xpbd_step_config, xpbd_engine_options, a scene or
 * world, or a host rigid body (xpbd_step_counters.bad_field,
 * xpbd_where.field). The values are pinned and will not change. */
typedef enum xpbd_field {
    XPBD_FIELD_NONE = 0,              /* no field: the status and part say it all */
    XPBD_FIELD_VERSION = 1,           /* xpbd_step_config.version */
    XPBD_FIELD_SUBSTEPS = 2,          /* .substeps */
    XPBD_FIELD_ITERATIONS = 3,        /* .iterations */
    XPBD_FIELD_GRAVITY = 4,           /* .gravity */
    XPBD_FIELD_DAMPING = 5,           /* .damping */
    XPBD_FIELD_PBD_STIFFNESS = 6,     /* .pbd_stiffness */
    XPBD_FIELD_SPRING_DAMPING = 7,    /* .spring_damping */
    XPBD_FIELD_SOLVER = 8,            /* .solver */
    XPBD_FIELD_LAMBDA_RESET = 9,      /* .lambda_reset */
    XPBD_FIELD_ISA = 10,              /* .isa, or the XPBD_ISA variable it resolves through */
    XPBD_FIELD_MEASURE_RESIDUAL = 11, /* .measure_residual */
    XPBD_FIELD_CONTACT_BETA = 12,     /* .contact_beta */
    XPBD_FIELD_RESTITUTION = 13,      /* .restitution */
    XPBD_FIELD_CONTACT_SLOP = 14,     /* .contact_slop */
    XPBD_FIELD_FRICTION_STATIC = 15,  /* .friction_static */
    XPBD_FIELD_FRICTION_DYNAMIC = 16, /* .friction_dynamic (also: above friction_static) */
    XPBD_FIELD_CONTACT_SKIN = 17,     /* .contact_skin */
    XPBD_FIELD_CONTACT_ORDER = 18,    /* .contact_order (also: the lesson order with constraints) */
    XPBD_FIELD_RELATIVE_DAMPING = 19, /* .relative_damping */
    XPBD_FIELD_EXECUTOR_ENQUEUE = 20, /* .executor->enqueue is NULL */
    XPBD_FIELD_EXECUTOR_FINISH = 21,  /* .executor->finish is NULL */
    XPBD_FIELD_EXECUTOR_WORKER_COUNT = 22, /* .executor->worker_count is 0 */
    XPBD_FIELD_TEAR_STRETCH = 23,     /* xpbd_engine_options.tear_stretch */
    XPBD_FIELD_SLEEP_ENERGY = 24,     /* .sleep_energy */
    XPBD_FIELD_KEEP_HINGES = 25,      /* .keep_hinges */
    XPBD_FIELD_MAX_PARTICLES = 26,    /* .max_particles */
    XPBD_FIELD_BODY_BEGIN = 27,       /* the world's or scene's body_begin */
    XPBD_FIELD_MAX_CONTACTS = 28,     /* xpbd_scene.max_contacts */
    XPBD_FIELD_EDGE_ALPHA = 29,       /* xpbd_scene.edge_alpha */
    XPBD_FIELD_TET_ALPHA = 30,        /* xpbd_scene.tet_alpha */
    XPBD_FIELD_BEND_ALPHA = 31,       /* xpbd_scene.bend_alpha */
    XPBD_FIELD_MAX_COLOURS = 32,      /* xpbd_scene.colouring.max_colours */
    XPBD_FIELD_SHAPE = 33,            /* xpbd_rigid_f64.shape */
    XPBD_FIELD_CENTRE = 34,           /* .centre */
    XPBD_FIELD_ROT = 35,              /* .rot */
    XPBD_FIELD_HALF = 36,             /* .half */
    XPBD_FIELD_INV_MASS = 37,         /* .inv_mass */
    XPBD_FIELD_INV_INERTIA = 38,      /* .inv_inertia */
    XPBD_FIELD_COUNT = 39
} xpbd_field;

/* Where an error is: part = which set or array, index = the element, slot,
 * particle, plane or body (SIZE_MAX when none), field = the configuration
 * or element field at fault (XPBD_FIELD_NONE when the status says it all).
 * After a success: XPBD_PART_NONE, SIZE_MAX, XPBD_FIELD_NONE. */
typedef struct xpbd_where {
    xpbd_part part;
    size_t index;
    xpbd_field field;
} xpbd_where;

/* Names of a part ("distance", "tet", "fixed contact", ...) and of a field
 * (its C name: "substeps", "relative_damping", "executor->enqueue", ...).
 * Never NULL; values outside [0, COUNT) give "unknown part" and
 * "unknown field". */
XPBD_API const char *xpbd_part_name(xpbd_part part);
XPBD_API const char *xpbd_field_name(xpbd_field field);

/* ---------------------------------------------------------------- ISAs --- */

/* Instruction-set paths. SCALAR is the reference every other path must match
 * bit for bit in the default (strict) build. */
typedef enum xpbd_isa {
    XPBD_ISA_AUTO = -1,     /* XPBD_ISA environment variable, else the best */
    XPBD_ISA_SCALAR = 0,
    XPBD_ISA_SSE4 = 1,      /* x86 SSE4.2, 128-bit: 4 floats / 2 doubles */
    XPBD_ISA_AVX2 = 2,      /* x86 AVX2 + FMA (FMA unused in strict mode), 256-bit */
    XPBD_ISA_AVX512 = 3,    /* x86 AVX-512 F/DQ/VL/BW, 512-bit */
    XPBD_ISA_NEON = 4,      /* 128-bit path on non-x86 targets, through SIMDe */
    XPBD_ISA_COUNT = 5
} xpbd_isa;

/* "scalar", "sse4", "avx2", "avx512", "neon", "auto"; NULL for other values. */
XPBD_API const char *xpbd_isa_name(xpbd_isa isa);
/* Parses a name as printed by xpbd_isa_name (case-sensitive, "auto" allowed).
 * XPBD_ERR_ISA for an unknown name (the empty string included);
 * XPBD_ERR_ARGUMENT if name or out is NULL. *out is untouched on error. */
XPBD_API xpbd_status xpbd_isa_from_name(const char *name, xpbd_isa *out);
/* 1 if the path was compiled into this build. */
XPBD_API int xpbd_isa_compiled(xpbd_isa isa);
/* 1 if the path was compiled in and this CPU and OS can run it. In an
 * emulated build (SIMDE_NO_NATIVE) every compiled path runs everywhere. */
XPBD_API int xpbd_isa_supported(xpbd_isa isa);
/* The widest supported path. */
XPBD_API xpbd_isa xpbd_isa_best(void);
/* Resolves XPBD_ISA_AUTO: the XPBD_ISA environment variable if set (an
 * unknown or unsupported name, or a set but empty one, is XPBD_ERR_ISA,
 * never a silent fallback), otherwise xpbd_isa_best(). A concrete isa is
 * checked for support. */
XPBD_API xpbd_status xpbd_isa_resolve(xpbd_isa requested, xpbd_isa *out);
/* SIMD lanes of a path for float (f64 = 0) or double (f64 = 1). */
XPBD_API unsigned xpbd_isa_lanes(xpbd_isa isa, int f64);
/* 1 if this build's SIMD paths run on SIMDe's portable emulation. */
XPBD_API int xpbd_isa_emulated(void);

#ifdef __cplusplus
}
#endif

#endif /* XPBD_BASE_H */
