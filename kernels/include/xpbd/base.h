/* xpbd/base.h: status codes, versions and instruction-set selection.
 *
 * Every public function of xpbd returns an xpbd_status or a plain value; the
 * library never prints, never aborts and never allocates outside the
 * builders (xpbd/soa.h). */
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
#define XPBD_PROTOCOL_VERSION 1u

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
    XPBD_ERR_NOMEM = -17,               /* a builder could not allocate */
    XPBD_ERR_LAMBDA = -18,              /* an accumulated lambda is not finite */
    XPBD_ERR_RADIUS = -19,              /* a particle radius is negative or not finite */
    XPBD_ERR_RESTITUTION = -20,         /* restitution outside [0, 1] or not finite */
    XPBD_ERR_BETA = -21,                /* position correction beta outside (0, 1] */
    XPBD_ERR_SLOP = -22,                /* contact slop negative or not finite */
    XPBD_ERR_FRICTION = -23,            /* friction negative, not finite, or mu_k > mu_s */
    XPBD_ERR_PLANE = -24,               /* a plane normal is not unit length or d not finite */
    XPBD_ERR_DEGENERATE = -25           /* zero rest volume or area at build time */
} xpbd_status;

/* Human-readable name of a status, e.g. "rest length <= 0 or not finite".
 * Never NULL; unknown values give "unknown status". */
XPBD_API const char *xpbd_status_str(xpbd_status status);

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
