/* xpbd.h: umbrella header of xpbd, fixed-function kernels for position-based
 * physics (PBD, XPBD with accumulated lambda, explicit springs) with scalar
 * references that every SIMD path matches bit for bit.
 *
 *   xpbd/base.h     status codes, versions, ISA selection, the S0 lab kernel
 *   xpbd/soa.h      particle sets, coloured distance-constraint sets
 *   xpbd/kernels.h  per-ISA kernel tables, serial references
 *   xpbd/executor.h range tasks on the host's threads, the default OpenMP executor
 *   xpbd/step.h     the step driver
 *   xpbd/contacts.h particle contacts, planes, broad phase (SPEC S2)
 *   xpbd/softbody.h tetrahedral volume, bending, tethers, damping, rigid coupling (S3)
 *   xpbd/mesh.h     cloth grid and tetrahedral box generators (S3)
 *   xpbd/engine.h   tearing, sleeping, counters, engine, order check (S3 memos) */
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
