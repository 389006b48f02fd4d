/* SPDX-License-Identifier: MIT */
/* Bad input through the builder, the validators and the step driver, in
 * both precisions (see bad_tmpl.h), and the status, part and field names. */
#include "fixture.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define XPBD_REAL_F32
#include "precision.h"
#include "bad_tmpl.h"
#define XPBD_PRECISION_END
#include "precision.h"

#define XPBD_REAL_F64
#include "precision.h"
#include "bad_tmpl.h"
#define XPBD_PRECISION_END
#include "precision.h"

/* Every status has a non-empty name of its own; unknown values share one.
 * The scan covers the whole plausible range so that statuses added later
 * are held to the same rule. */
static void bad_status_str(void)
{
    const char *unknown = xpbd_status_str((xpbd_status)1000);
    REQUIRE(unknown != NULL);
    ENSURE(strcmp(unknown, "unknown status") == 0);
    ENSURE(strcmp(xpbd_status_str((xpbd_status)-1000), unknown) == 0);
    const char *names[257];
    int codes[257];
    size_t n = 0;
    for (int s = -128; s <= 128; ++s) {
        const char *name = xpbd_status_str((xpbd_status)s);
        REQUIRE(name != NULL);
        if (strcmp(name, unknown) == 0)
            continue;
        ENSURE(name[0] != '\0');
        for (size_t j = 0; j < n; ++j)
            if (strcmp(names[j], name) == 0) {
                fprintf(stderr, "      statuses %d and %d share the name '%s'\n", codes[j], s,
                        name);
                ENSURE(!"distinct status names");
            }
        codes[n] = s;
        names[n++] = name;
    }
    /* every status this suite knows is named (not "unknown status") */
    const xpbd_status known[] = {
        XPBD_OK,           XPBD_SKIPPED,          XPBD_ERR_ARGUMENT,  XPBD_ERR_POSITION,
        XPBD_ERR_VELOCITY, XPBD_ERR_INVERSE_MASS, XPBD_ERR_REST,      XPBD_ERR_COMPLIANCE,
        XPBD_ERR_TIMESTEP, XPBD_ERR_ORDER,        XPBD_ERR_SCALE,     XPBD_ERR_RESULT,
        XPBD_ERR_INDEX,    XPBD_ERR_ISA,          XPBD_ERR_CAPACITY,  XPBD_ERR_VERSION,
        XPBD_ERR_CONFIG,   XPBD_ERR_DIVERGED,     XPBD_ERR_NOMEM,     XPBD_ERR_LAMBDA,
    };
    for (size_t k = 0; k < sizeof known / sizeof known[0]; ++k) {
        if (strcmp(xpbd_status_str(known[k]), unknown) == 0)
            fprintf(stderr, "      status %d has no name\n", (int)known[k]);
        ENSURE(strcmp(xpbd_status_str(known[k]), unknown) != 0);
    }
    ENSURE(n >= sizeof known / sizeof known[0]);
    /* the pinned values of the header */
    ENSURE_INT(XPBD_OK, 0);
    ENSURE_INT(XPBD_SKIPPED, 1);
    ENSURE_INT(XPBD_ERR_ARGUMENT, -1);
    ENSURE_INT(XPBD_ERR_ISA, -12);
    ENSURE_INT(XPBD_ERR_DIVERGED, -16);
    ENSURE_INT(XPBD_ERR_LAMBDA, -18);
    ENSURE_INT(xpbd_version(), XPBD_VERSION_MAJOR * 10000 + XPBD_VERSION_MINOR * 100 +
                                   XPBD_VERSION_PATCH);
    ENSURE_INT(xpbd_version(), XPBD_VERSION);
    /* the header and the library say what CMake's project(VERSION) says
     * (passed to this test on its own, not through the generated header) */
    char v[32];
    snprintf(v, sizeof v, "%u.%u.%u", xpbd_version() / 10000, xpbd_version() / 100 % 100,
             xpbd_version() % 100);
    ENSURE(strcmp(v, XPBD_TEST_PROJECT_VERSION) == 0);
    ENSURE(strcmp(XPBD_VERSION_STRING, XPBD_TEST_PROJECT_VERSION) == 0);
}

/* Every part and every field below its COUNT has a non-empty name of its
 * own; values outside [0, COUNT) give one fixed text each. The field names
 * are the C names of the fields, so a few are spelled out here. */
static void bad_place_names(void)
{
    const char *names[(int)XPBD_FIELD_COUNT > (int)XPBD_PART_COUNT ? (int)XPBD_FIELD_COUNT
                                                                  : (int)XPBD_PART_COUNT];
    for (int k = 0; k < XPBD_PART_COUNT; ++k) {
        const char *name = xpbd_part_name((xpbd_part)k);
        REQUIRE(name != NULL);
        ENSURE(name[0] != '\0');
        ENSURE(strcmp(name, "unknown part") != 0);
        for (int j = 0; j < k; ++j)
            if (strcmp(names[j], name) == 0) {
                fprintf(stderr, "      parts %d and %d share the name '%s'\n", j, k, name);
                ENSURE(!"distinct part names");
            }
        names[k] = name;
    }
    for (int k = 0; k < XPBD_FIELD_COUNT; ++k) {
        const char *name = xpbd_field_name((xpbd_field)k);
        REQUIRE(name != NULL);
        ENSURE(name[0] != '\0');
        ENSURE(strcmp(name, "unknown field") != 0);
        for (int j = 0; j < k; ++j)
            if (strcmp(names[j], name) == 0) {
                fprintf(stderr, "      fields %d and %d share the name '%s'\n", j, k, name);
                ENSURE(!"distinct field names");
            }
        names[k] = name;
    }
    const int outside[] = {-1, -1000, 1000};
    for (size_t k = 0; k < sizeof outside / sizeof outside[0]; ++k) {
        ENSURE(strcmp(xpbd_part_name((xpbd_part)outside[k]), "unknown part") == 0);
        ENSURE(strcmp(xpbd_field_name((xpbd_field)outside[k]), "unknown field") == 0);
    }
    ENSURE(strcmp(xpbd_part_name(XPBD_PART_COUNT), "unknown part") == 0);
    ENSURE(strcmp(xpbd_field_name(XPBD_FIELD_COUNT), "unknown field") == 0);
    ENSURE(strcmp(xpbd_part_name(XPBD_PART_DISTANCE), "distance") == 0);
    ENSURE(strcmp(xpbd_part_name(XPBD_PART_CONTACT_FIXED), "fixed contact") == 0);
    ENSURE(strcmp(xpbd_field_name(XPBD_FIELD_SUBSTEPS), "substeps") == 0);
    ENSURE(strcmp(xpbd_field_name(XPBD_FIELD_RELATIVE_DAMPING), "relative_damping") == 0);
    ENSURE(strcmp(xpbd_field_name(XPBD_FIELD_EXECUTOR_WORKER_COUNT),
                  "executor->worker_count") == 0);
    /* the pinned values of the header */
    ENSURE_INT(XPBD_PART_NONE, 0);
    ENSURE_INT(XPBD_PART_CONFIG, 1);
    ENSURE_INT(XPBD_PART_DISTANCE, 3);
    ENSURE_INT(XPBD_PART_OPTIONS, 13);
    ENSURE_INT(XPBD_PART_COUNT, 16);
    ENSURE_INT(XPBD_FIELD_NONE, 0);
    ENSURE_INT(XPBD_FIELD_VERSION, 1);
    ENSURE_INT(XPBD_FIELD_RELATIVE_DAMPING, 19);
    ENSURE_INT(XPBD_FIELD_INV_INERTIA, 38);
    ENSURE_INT(XPBD_FIELD_COUNT, 39);
}

const xt_test xt_tests_bad[] = {
    {"bad.builder_f32", bad_builder_f32},
    {"bad.builder_f64", bad_builder_f64},
    {"bad.validate_f32", bad_validate_f32},
    {"bad.validate_f64", bad_validate_f64},
    {"bad.step_f32", bad_step_f32},
    {"bad.step_f64", bad_step_f64},
    {"bad.degenerate_f32", bad_degenerate_f32},
    {"bad.degenerate_f64", bad_degenerate_f64},
    {"bad.diverge_f32", bad_diverge_f32},
    {"bad.diverge_f64", bad_diverge_f64},
    {"bad.status_str", bad_status_str},
    {"bad.place_names", bad_place_names},
    {NULL, NULL},
};
