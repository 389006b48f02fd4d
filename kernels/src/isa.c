/* SPDX-License-Identifier: MIT */
/* ISA names, CPU detection and the kernel tables per path.
 *
 * A path is usable when it was compiled in (CMake defines XPBD_HAVE_<ISA>)
 * and the CPU and OS can run it: __builtin_cpu_supports checks both CPUID
 * and, for AVX state, that the OS saves the wide registers (XGETBV). In an
 * emulated build (XPBD_EMULATED: SIMDe compiled with SIMDE_NO_NATIVE) the
 * paths contain no native instruction and run on any CPU. The paths are
 * listed once, in dispatch.h. */
#include "internal.h"
#include "dispatch.h"

#include <stdlib.h>
#include <string.h>

static const char *const isa_names[XPBD_ISA_COUNT] = {
#define XPBD_ISA_NAME(ENUM, name, f32_lanes, f64_lanes) [XPBD_ISA_##ENUM] = #name,
    XPBD_ISA_LIST(XPBD_ISA_NAME)
#undef XPBD_ISA_NAME
};

/* The row of each compiled path, NULL for the others. */
static const xpbd__path *const paths[XPBD_ISA_COUNT] = {
    [XPBD_ISA_SCALAR] = &xpbd__scalar_path,
#define XPBD_PATH_ROW(ENUM, name) [XPBD_ISA_##ENUM] = &xpbd__##name##_path,
    XPBD_COMPILED_SIMD_PATHS(XPBD_PATH_ROW)
#undef XPBD_PATH_ROW
};

const char *xpbd_isa_name(xpbd_isa isa)
{
    if (isa == XPBD_ISA_AUTO)
        return "auto";
    if ((int)isa < 0 || isa >= XPBD_ISA_COUNT)
        return NULL;
    return isa_names[isa];
}

xpbd_status xpbd_isa_from_name(const char *name, xpbd_isa *out)
{
    if (!name || !out)
        return XPBD_ERR_ARGUMENT;
    if (strcmp(name, "auto") == 0) {
        *out = XPBD_ISA_AUTO;
        return XPBD_OK;
    }
    for (int i = 0; i < XPBD_ISA_COUNT; ++i)
        if (strcmp(name, isa_names[i]) == 0) {
            *out = (xpbd_isa)i;
            return XPBD_OK;
        }
    return XPBD_ERR_ISA;
}

int xpbd_isa_compiled(xpbd_isa isa)
{
    return (int)isa >= 0 && isa < XPBD_ISA_COUNT && paths[isa] != NULL;
}

int xpbd_isa_emulated(void)
{
#ifdef XPBD_EMULATED
    return 1;
#else
    return 0;
#endif
}

static int cpu_runs(xpbd_isa isa)
{
#if defined(XPBD_EMULATED)
    (void)isa;
    return 1;
#elif defined(__x86_64__) || defined(__i386__)
    switch (isa) {
    case XPBD_ISA_SSE4: return __builtin_cpu_supports("sse4.2");
    case XPBD_ISA_AVX2: return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    case XPBD_ISA_AVX512:
        return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") &&
               __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512bw");
    default: return 0;
    }
#else
    /* The NEON path is SIMDe's mapping for the build target itself. */
    return isa == XPBD_ISA_NEON;
#endif
}

int xpbd_isa_supported(xpbd_isa isa)
{
    if (isa == XPBD_ISA_SCALAR)
        return 1;
    return xpbd_isa_compiled(isa) && cpu_runs(isa);
}

xpbd_isa xpbd_isa_best(void)
{
    static const xpbd_isa order[] = {XPBD_ISA_AVX512, XPBD_ISA_AVX2, XPBD_ISA_SSE4,
                                     XPBD_ISA_NEON};
    for (size_t i = 0; i < sizeof order / sizeof order[0]; ++i)
        if (xpbd_isa_supported(order[i]))
            return order[i];
    return XPBD_ISA_SCALAR;
}

xpbd_status xpbd_isa_resolve(xpbd_isa requested, xpbd_isa *out)
{
    if (!out)
        return XPBD_ERR_ARGUMENT;
    xpbd_isa isa = requested;
    if (isa == XPBD_ISA_AUTO) {
        /* set but empty is a name too, and no path has it */
        const char *env = getenv("XPBD_ISA");
        if (env) {
            if (xpbd_isa_from_name(env, &isa) != XPBD_OK)
                return XPBD_ERR_ISA;
            if (isa == XPBD_ISA_AUTO)
                isa = xpbd_isa_best();
        } else {
            isa = xpbd_isa_best();
        }
    }
    if ((int)isa < 0 || isa >= XPBD_ISA_COUNT || !xpbd_isa_supported(isa))
        return XPBD_ERR_ISA;
    *out = isa;
    return XPBD_OK;
}

unsigned xpbd_isa_lanes(xpbd_isa isa, int f64)
{
    switch (isa) {
#define XPBD_ISA_LANES(ENUM, name, f32_lanes, f64_lanes)                                     \
    case XPBD_ISA_##ENUM: return f64 ? f64_lanes : f32_lanes;
        XPBD_ISA_LIST(XPBD_ISA_LANES)
#undef XPBD_ISA_LANES
    default: return 0;
    }
}

/* The row of a path after resolving it (xpbd_isa_resolve), or NULL. */
static const xpbd__path *path_of(xpbd_isa isa)
{
    if (xpbd_isa_resolve(isa, &isa) != XPBD_OK)
        return NULL;
    return paths[isa];
}

const xpbd_kernels_f32 *xpbd_kernels_get_f32(xpbd_isa isa)
{
    const xpbd__path *p = path_of(isa);
    return p ? p->kernels_f32 : NULL;
}

const xpbd_kernels_f64 *xpbd_kernels_get_f64(xpbd_isa isa)
{
    const xpbd__path *p = path_of(isa);
    return p ? p->kernels_f64 : NULL;
}

const xpbd_contact_kernels_f32 *xpbd_contact_kernels_get_f32(xpbd_isa isa)
{
    const xpbd__path *p = path_of(isa);
    return p ? p->contact_f32 : NULL;
}

const xpbd_contact_kernels_f64 *xpbd_contact_kernels_get_f64(xpbd_isa isa)
{
    const xpbd__path *p = path_of(isa);
    return p ? p->contact_f64 : NULL;
}

const xpbd_softbody_kernels_f32 *xpbd_softbody_kernels_get_f32(xpbd_isa isa)
{
    const xpbd__path *p = path_of(isa);
    return p ? p->softbody_f32 : NULL;
}

const xpbd_softbody_kernels_f64 *xpbd_softbody_kernels_get_f64(xpbd_isa isa)
{
    const xpbd__path *p = path_of(isa);
    return p ? p->softbody_f64 : NULL;
}

const xpbd__step_kernels_f32 *xpbd__step_kernels_get_f32(xpbd_isa isa)
{
    const xpbd__path *p = path_of(isa);
    return p ? p->step_f32 : NULL;
}

const xpbd__step_kernels_f64 *xpbd__step_kernels_get_f64(xpbd_isa isa)
{
    const xpbd__path *p = path_of(isa);
    return p ? p->step_f64 : NULL;
}
