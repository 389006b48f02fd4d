/* SPDX-License-Identifier: MIT */
/* Status, part and field names, and the run-time version. */
#include "internal.h"

unsigned xpbd_version(void)
{
    return XPBD_VERSION_MAJOR * 10000u + XPBD_VERSION_MINOR * 100u + XPBD_VERSION_PATCH;
}

const char *xpbd_status_str(xpbd_status status)
{
    switch (status) {
    case XPBD_OK: return "ok";
    case XPBD_SKIPPED: return "skipped: nothing to do (e.g. both endpoints static)";
    case XPBD_ERR_ARGUMENT: return "invalid argument: NULL pointer or inconsistent sizes";
    case XPBD_ERR_POSITION: return "position is NaN or infinite";
    case XPBD_ERR_VELOCITY: return "velocity is NaN or infinite";
    case XPBD_ERR_INVERSE_MASS: return "inverse mass is negative or not finite";
    case XPBD_ERR_REST: return "rest length is <= 0 or not finite";
    case XPBD_ERR_COMPLIANCE: return "compliance is negative or not finite";
    case XPBD_ERR_TIMESTEP: return "time step is <= 0 or not finite";
    case XPBD_ERR_ORDER: return "endpoints out of order: b <= a";
    case XPBD_ERR_SCALE: return "alpha~ or the denominator is not finite and positive";
    case XPBD_ERR_RESULT: return "candidate result is not finite or reverses the order";
    case XPBD_ERR_INDEX: return "particle index out of range or repeated";
    case XPBD_ERR_ISA: return "instruction set unknown, not compiled in, or unsupported by this CPU";
    case XPBD_ERR_CAPACITY: return "caller buffer too small";
    case XPBD_ERR_VERSION: return "protocol version mismatch";
    case XPBD_ERR_CONFIG: return "step configuration field out of range";
    case XPBD_ERR_DIVERGED: return "step produced a non-finite state; state restored";
    case XPBD_ERR_NOMEM: return "out of memory";
    case XPBD_ERR_LAMBDA: return "accumulated lambda is NaN or infinite";
    case XPBD_OVERFLOW: return "capacity exceeded: excess dropped and counted (degraded result)";
    case XPBD_ERR_RADIUS: return "particle radius is negative or not finite";
    case XPBD_ERR_RESTITUTION: return "restitution is outside [0, 1] or not finite";
    case XPBD_ERR_BETA: return "position correction beta is outside (0, 1]";
    case XPBD_ERR_SLOP: return "contact slop is negative or not finite";
    case XPBD_ERR_FRICTION: return "friction coefficient is negative, not finite, or mu_k > mu_s";
    case XPBD_ERR_DEGENERATE: return "degenerate element: zero rest volume or area";
    case XPBD_ERR_PLANE: return "plane normal is not unit length or offset is not finite";
    case XPBD_ERR_FILE: return "file cannot be read or is malformed";
    case XPBD_ERR_TOPOLOGY: return "mesh edge shared by more than two triangles (non-manifold)";
    }
    return "unknown status";
}

const char *xpbd_part_name(xpbd_part part)
{
    switch (part) {
    case XPBD_PART_NONE: return "none";
    case XPBD_PART_CONFIG: return "config";
    case XPBD_PART_PARTICLES: return "particles";
    case XPBD_PART_DISTANCE: return "distance";
    case XPBD_PART_TET: return "tet";
    case XPBD_PART_BEND: return "bend";
    case XPBD_PART_TETHER: return "tether";
    case XPBD_PART_CONTACT_FIXED: return "fixed contact";
    case XPBD_PART_CONTACT_FOUND: return "found contact";
    case XPBD_PART_PLANE: return "plane";
    case XPBD_PART_BODY: return "body";
    case XPBD_PART_RIGID: return "rigid";
    case XPBD_PART_SCENE: return "scene";
    case XPBD_PART_OPTIONS: return "options";
    case XPBD_PART_RADIUS: return "radius";
    case XPBD_PART_SCRATCH: return "scratch";
    case XPBD_PART_COUNT: break;
    }
    return "unknown part";
}

const char *xpbd_field_name(xpbd_field field)
{
    switch (field) {
    case XPBD_FIELD_NONE: return "none";
    case XPBD_FIELD_VERSION: return "version";
    case XPBD_FIELD_SUBSTEPS: return "substeps";
    case XPBD_FIELD_ITERATIONS: return "iterations";
    case XPBD_FIELD_GRAVITY: return "gravity";
    case XPBD_FIELD_DAMPING: return "damping";
    case XPBD_FIELD_PBD_STIFFNESS: return "pbd_stiffness";
    case XPBD_FIELD_SPRING_DAMPING: return "spring_damping";
    case XPBD_FIELD_SOLVER: return "solver";
    case XPBD_FIELD_LAMBDA_RESET: return "lambda_reset";
    case XPBD_FIELD_ISA: return "isa";
    case XPBD_FIELD_MEASURE_RESIDUAL: return "measure_residual";
    case XPBD_FIELD_CONTACT_BETA: return "contact_beta";
    case XPBD_FIELD_RESTITUTION: return "restitution";
    case XPBD_FIELD_CONTACT_SLOP: return "contact_slop";
    case XPBD_FIELD_FRICTION_STATIC: return "friction_static";
    case XPBD_FIELD_FRICTION_DYNAMIC: return "friction_dynamic";
    case XPBD_FIELD_CONTACT_SKIN: return "contact_skin";
    case XPBD_FIELD_CONTACT_ORDER: return "contact_order";
    case XPBD_FIELD_RELATIVE_DAMPING: return "relative_damping";
    case XPBD_FIELD_EXECUTOR_ENQUEUE: return "executor->enqueue";
    case XPBD_FIELD_EXECUTOR_FINISH: return "executor->finish";
    case XPBD_FIELD_EXECUTOR_WORKER_COUNT: return "executor->worker_count";
    case XPBD_FIELD_TEAR_STRETCH: return "tear_stretch";
    case XPBD_FIELD_SLEEP_ENERGY: return "sleep_energy";
    case XPBD_FIELD_KEEP_HINGES: return "keep_hinges";
    case XPBD_FIELD_MAX_PARTICLES: return "max_particles";
    case XPBD_FIELD_BODY_BEGIN: return "body_begin";
    case XPBD_FIELD_MAX_CONTACTS: return "max_contacts";
    case XPBD_FIELD_EDGE_ALPHA: return "edge_alpha";
    case XPBD_FIELD_TET_ALPHA: return "tet_alpha";
    case XPBD_FIELD_BEND_ALPHA: return "bend_alpha";
    case XPBD_FIELD_MAX_COLOURS: return "colouring.max_colours";
    case XPBD_FIELD_SHAPE: return "shape";
    case XPBD_FIELD_CENTRE: return "centre";
    case XPBD_FIELD_ROT: return "rot";
    case XPBD_FIELD_HALF: return "half";
    case XPBD_FIELD_INV_MASS: return "inv_mass";
    case XPBD_FIELD_INV_INERTIA: return "inv_inertia";
    case XPBD_FIELD_COUNT: break;
    }
    return "unknown field";
}
