/* Status names and the run-time version. */
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
    }
    return "unknown status";
}
