/* ISA names, CPU detection and the kernel tables per path.
 *
 * A path is usable when it was compiled in (CMake defines XPBD_HAVE_<ISA>)
 * and the CPU and OS can run it: __builtin_cpu_supports checks both CPUID
 * and, for AVX state, that the OS saves the wide registers (XGETBV). In an
 * emulated build (XPBD_EMULATED: SIMDe compiled with SIMDE_NO_NATIVE) the
 * paths contain no native instruction and run on any CPU. */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

static const char *const isa_names[XPBD_ISA_COUNT] = {"scalar", "sse4", "avx2", "avx512",
                                                      "neon"};

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
    switch (isa) {
    case XPBD_ISA_SCALAR: return 1;
#ifdef XPBD_HAVE_SSE4
    case XPBD_ISA_SSE4: return 1;
#endif
#ifdef XPBD_HAVE_AVX2
    case XPBD_ISA_AVX2: return 1;
#endif
#ifdef XPBD_HAVE_AVX512
    case XPBD_ISA_AVX512: return 1;
#endif
#ifdef XPBD_HAVE_NEON
    case XPBD_ISA_NEON: return 1;
#endif
    default: return 0;
    }
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
        const char *env = getenv("XPBD_ISA");
        if (env && *env) {
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
    case XPBD_ISA_SCALAR: return 1;
    case XPBD_ISA_SSE4:
    case XPBD_ISA_NEON: return f64 ? 2 : 4;
    case XPBD_ISA_AVX2: return f64 ? 4 : 8;
    case XPBD_ISA_AVX512: return f64 ? 8 : 16;
    default: return 0;
    }
}

const xpbd_kernels_f32 *xpbd_kernels_get_f32(xpbd_isa isa)
{
    if (xpbd_isa_resolve(isa, &isa) != XPBD_OK)
        return NULL;
    switch (isa) {
#ifdef XPBD_HAVE_SSE4
    case XPBD_ISA_SSE4: return &xpbd__sse4_table_f32;
#endif
#ifdef XPBD_HAVE_AVX2
    case XPBD_ISA_AVX2: return &xpbd__avx2_table_f32;
#endif
#ifdef XPBD_HAVE_AVX512
    case XPBD_ISA_AVX512: return &xpbd__avx512_table_f32;
#endif
#ifdef XPBD_HAVE_NEON
    case XPBD_ISA_NEON: return &xpbd__neon_table_f32;
#endif
    case XPBD_ISA_SCALAR: return &xpbd__scalar_f32;
    default: return NULL;
    }
}

const xpbd_kernels_f64 *xpbd_kernels_get_f64(xpbd_isa isa)
{
    if (xpbd_isa_resolve(isa, &isa) != XPBD_OK)
        return NULL;
    switch (isa) {
#ifdef XPBD_HAVE_SSE4
    case XPBD_ISA_SSE4: return &xpbd__sse4_table_f64;
#endif
#ifdef XPBD_HAVE_AVX2
    case XPBD_ISA_AVX2: return &xpbd__avx2_table_f64;
#endif
#ifdef XPBD_HAVE_AVX512
    case XPBD_ISA_AVX512: return &xpbd__avx512_table_f64;
#endif
#ifdef XPBD_HAVE_NEON
    case XPBD_ISA_NEON: return &xpbd__neon_table_f64;
#endif
    case XPBD_ISA_SCALAR: return &xpbd__scalar_f64;
    default: return NULL;
    }
}

/* The contact tables follow the same rule. */
#define XPBD_CONTACT_GET(T)                                                   \
    const xpbd_contact_kernels_##T *xpbd_contact_kernels_get_##T(xpbd_isa isa) \
    {                                                                         \
        if (xpbd_isa_resolve(isa, &isa) != XPBD_OK)                           \
            return NULL;                                                      \
        switch (isa) {                                                        \
        XPBD_CONTACT_CASE_SSE4(T)                                             \
        XPBD_CONTACT_CASE_AVX2(T)                                             \
        XPBD_CONTACT_CASE_AVX512(T)                                           \
        XPBD_CONTACT_CASE_NEON(T)                                             \
        case XPBD_ISA_SCALAR: return &xpbd__scalar_contact_##T;               \
        default: return NULL;                                                 \
        }                                                                     \
    }
#ifdef XPBD_HAVE_SSE4
#  define XPBD_CONTACT_CASE_SSE4(T) case XPBD_ISA_SSE4: return &xpbd__sse4_contact_table_##T;
#else
#  define XPBD_CONTACT_CASE_SSE4(T)
#endif
#ifdef XPBD_HAVE_AVX2
#  define XPBD_CONTACT_CASE_AVX2(T) case XPBD_ISA_AVX2: return &xpbd__avx2_contact_table_##T;
#else
#  define XPBD_CONTACT_CASE_AVX2(T)
#endif
#ifdef XPBD_HAVE_AVX512
#  define XPBD_CONTACT_CASE_AVX512(T) case XPBD_ISA_AVX512: return &xpbd__avx512_contact_table_##T;
#else
#  define XPBD_CONTACT_CASE_AVX512(T)
#endif
#ifdef XPBD_HAVE_NEON
#  define XPBD_CONTACT_CASE_NEON(T) case XPBD_ISA_NEON: return &xpbd__neon_contact_table_##T;
#else
#  define XPBD_CONTACT_CASE_NEON(T)
#endif
XPBD_CONTACT_GET(f32)
XPBD_CONTACT_GET(f64)

#define XPBD_FAMILY_CASE(ISA, NAME, FAM, T) case ISA: return &xpbd__##NAME##_##FAM##_table_##T;
#ifdef XPBD_HAVE_SSE4
#  define XPBD_SOFT_SSE4(T) XPBD_FAMILY_CASE(XPBD_ISA_SSE4, sse4, softbody, T)
#else
#  define XPBD_SOFT_SSE4(T)
#endif
#ifdef XPBD_HAVE_AVX2
#  define XPBD_SOFT_AVX2(T) XPBD_FAMILY_CASE(XPBD_ISA_AVX2, avx2, softbody, T)
#else
#  define XPBD_SOFT_AVX2(T)
#endif
#ifdef XPBD_HAVE_AVX512
#  define XPBD_SOFT_AVX512(T) XPBD_FAMILY_CASE(XPBD_ISA_AVX512, avx512, softbody, T)
#else
#  define XPBD_SOFT_AVX512(T)
#endif
#ifdef XPBD_HAVE_NEON
#  define XPBD_SOFT_NEON(T) XPBD_FAMILY_CASE(XPBD_ISA_NEON, neon, softbody, T)
#else
#  define XPBD_SOFT_NEON(T)
#endif
#define XPBD_SOFTBODY_GET(T)                                                      \
    const xpbd_softbody_kernels_##T *xpbd_softbody_kernels_get_##T(xpbd_isa isa) \
    {                                                                             \
        if (xpbd_isa_resolve(isa, &isa) != XPBD_OK)                               \
            return NULL;                                                          \
        switch (isa) {                                                            \
        XPBD_SOFT_SSE4(T)                                                         \
        XPBD_SOFT_AVX2(T)                                                         \
        XPBD_SOFT_AVX512(T)                                                       \
        XPBD_SOFT_NEON(T)                                                         \
        case XPBD_ISA_SCALAR: return &xpbd__scalar_softbody_##T;                  \
        default: return NULL;                                                     \
        }                                                                         \
    }
XPBD_SOFTBODY_GET(f32)
XPBD_SOFTBODY_GET(f64)
