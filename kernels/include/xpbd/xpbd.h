/* SPDX-License-Identifier: MIT */
/* xpbd.h: umbrella header of xpbd, fixed-function kernels for position-based
 * physics (PBD, XPBD with accumulated lambda, explicit springs) whose SIMD
 * paths all match the scalar path bit for bit: what an engine embeds.
 *
 *   xpbd/base.h     status codes, versions, ISA selection
 *   xpbd/soa.h      particle sets, coloured distance-constraint sets
 *   xpbd/kernels.h  per-ISA kernel tables: particles, distance, springs
 *   xpbd/executor.h range tasks on the host's threads, the default thread pool
 *   xpbd/step.h     the step driver
 *   xpbd/contacts.h particle contacts, planes, broad phase
 *   xpbd/softbody.h tetrahedral volume, bending, tethers, damping, rigid coupling
 *   xpbd/mesh.h     cloth grid and tet box generators, mesh topology, mesh to scene
 *   xpbd/engine.h   tearing, sleeping, counters, engine, order check
 *
 * Not included here: xpbd/reference.h, the serial reference kernels and the
 * one-dimensional solve, for studying and checking the method. */
#ifndef XPBD_XPBD_H
#define XPBD_XPBD_H

#include "xpbd/base.h"
#include "xpbd/soa.h"
#include "xpbd/kernels.h"
#include "xpbd/executor.h"
#include "xpbd/step.h"
#include "xpbd/contacts.h"
#include "xpbd/softbody.h"
#include "xpbd/mesh.h"
#include "xpbd/engine.h"

#endif /* XPBD_XPBD_H */
