/* SPDX-License-Identifier: MIT */
/* bench_contacts.h: xpbd-bench's measurements of the contact kernels and
 * the broad phase (SPEC S2), in the conventions of bench_core.h: the same
 * xb_options and xb_row, ns per item, best of several timed loops, and the
 * ratio to the scalar table measured in the same run.
 *
 * Scene: n balls of radius 5 cm in a cube sized for about 3 broad-phase
 * pairs per ball (skin 2 cm; about 60% of the pairs overlap), stored in
 * grid-cell order as a host keeps particles for locality (random order
 * would make every pair kernel a cache-miss benchmark beyond L2), 1 in 64
 * static, previous positions a few millimetres away (so friction has
 * tangential motion), velocities random. The broad phase runs once per size
 * and the contact set it builds is what the pair kernels sweep: every colour
 * with the table's kernel, then the serial overflow range, as the step
 * driver does.
 *
 * A contact pass moves the state it reads (resolved overlaps are skipped on
 * the next pass, and the scalar path skips them sooner than the SIMD paths
 * do), so every timed pass first restores the state it changes from a copy
 * (memcpy of the packed positions q, or of the velocities): the
 * measurement is a pass over the same overlaps every time, and includes
 * that copy (a few percent of a pass).
 *
 * Kernels (xb_contacts_kernel_name lists them):
 *   contact_position           one sweep of the position kernel over the set
 *                              (weighted, beta = 1, no friction); item: contact
 *   contact_position_friction  the same with mu_s = 0.5, mu_k = 0.3
 *   contact_velocity           one sweep of the velocity kernel (e = 0.3,
 *                              slop 5 mm); item: contact
 *   plane_position             a horizontal plane through the middle of the
 *                              cloud against every ball (about half of them
 *                              penetrate), with friction; item: particle
 *   plane_velocity             the same at velocity level with the impulse
 *                              array; item: particle
 *   broadphase                 xpbd_contacts_find (hash, counting sort, 27
 *                              cells, colouring) over the n balls: scalar code
 *                              shared by every ISA, one row per precision with
 *                              isa = scalar and ratio 1; n is the ball count
 *                              and the item is a pair found, so pairs/s =
 *                              1e9 / ns_per_item. */
#ifndef XPBD_BENCH_CONTACTS_H
#define XPBD_BENCH_CONTACTS_H

#include "bench_core.h"

/* Runs every contact kernel x supported ISA x precision x size, and the
 * broad phase per precision x size. Sizes (balls): 2^10, 2^12, ... up to
 * 2^max_log2_n (default 18, quick 16; at most 22), the largest always
 * included; quick: 2^10, 2^12 and the largest. opt->kernels may mix these
 * names with xb_run's: names this function does not know are left to
 * xb_run. *rows receives a malloc'd array (free() it); returns the row
 * count, 0 when nothing was selected or on failure (unknown ISA or
 * precision name, allocation failure). */
size_t xb_run_contacts(const xb_options *opt, xb_row **rows);

/* The kernel names xb_run_contacts knows, in run order; NULL past the end. */
const char *xb_contacts_kernel_name(size_t i);

#endif
