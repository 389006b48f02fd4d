/* SPDX-License-Identifier: MIT */
/* all.h: what a path holds, for the open precision and backend (lanes.h):
 * every kernel concept, in dependency order, then (with XPBD_ALL_TABLES
 * defined) the tables that hand them out, by field name; XPBD_TABLE_ISA
 * names the path. A new kernel is one include here and one line in its
 * table. */
#include "kernels/common.h"
#include "kernels/integrate.h"
#include "kernels/distance.h"
#include "kernels/spring.h"
#include "kernels/diagnostics.h"
#include "kernels/contact.h"
#include "kernels/plane.h"
#include "kernels/volume.h"
#include "kernels/bend.h"
#include "kernels/tether.h"

#if defined(XPBD_ALL_TABLES)

static const SFX(xpbd_kernels) K(kernels) = {
    .isa = XPBD_TABLE_ISA,
    .lanes = L,
    .predict = K(predict),
    .update_velocity = K(update_velocity),
    .spring_integrate = K(spring_integrate),
    .distance_pbd = K(distance_pbd),
    .distance_xpbd = K(distance_xpbd),
    .spring_forces = K(spring_forces),
    .residual = K(residual),
    .kinetic_energy = K(kinetic_energy),
    .momentum = K(momentum),
    .pack = K(pack),
    .unpack = K(unpack),
    .distance_pbd_packed = K(distance_pbd_packed),
    .distance_xpbd_packed = K(distance_xpbd_packed),
    .predict_pack = K(predict_pack),
    .unpack_velocity = K(unpack_velocity),
};

/* The step's private row (step_kernels.h). */
static const SFX(xpbd__step_kernels) K(step_kernels) = {
    .isa = XPBD_TABLE_ISA,
    .lanes = L,
    .distance_xpbd_packed_first = K(distance_xpbd_packed_first),
    .distance_xpbd_packed_once = K(distance_xpbd_packed_once),
    .relaunch_packed = K(relaunch_packed),
};

static const SFX(xpbd_contact_kernels) K(contact_kernels) = {
    .isa = XPBD_TABLE_ISA,
    .lanes = L,
    .position = K(contact_position),
    .velocity = K(contact_velocity),
    .plane_position = K(plane_position),
    .plane_velocity = K(plane_velocity),
    .gravity = K(gravity),
    .integrate = K(integrate),
    .restitution = K(contact_restitution),
    .plane_restitution = K(plane_restitution),
};

static const SFX(xpbd_softbody_kernels) K(softbody_kernels) = {
    .isa = XPBD_TABLE_ISA,
    .lanes = L,
    .tet_volume = K(tet_volume),
    .bending = K(bending),
    .tethers = K(tethers),
};
#endif /* XPBD_ALL_TABLES */
