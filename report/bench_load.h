/* SPDX-License-Identifier: MIT */
/* bench_load.h: busy threads xpbd-bench runs next to a cloth row (--load):
 * each spins on a flag, pinned to one CPU the process may run on, from
 * before the row's first timed run until after its last. The bench's own
 * threads (the main thread and the step's team) keep the process's
 * affinity; only the busy threads are pinned. */
#ifndef XPBD_BENCH_LOAD_H
#define XPBD_BENCH_LOAD_H

#include <stddef.h>

/* What runs next to a row: nothing, one busy thread on the last CPU of the
 * process's affinity mask, or one busy thread on each of its CPUs. */
typedef enum xb_load { XB_LOAD_QUIET = 0, XB_LOAD_ONE = 1, XB_LOAD_ALL = 2 } xb_load;

/* "0", "1" or "all" (the names --load takes and the load column prints). */
const char *xb_load_name(xb_load load);

typedef struct xb_load_state xb_load_state;

/* Starts the busy threads of `load` and returns once all of them run, NULL
 * for XB_LOAD_QUIET or on failure (*failed set to 1 then; 0 otherwise). */
xb_load_state *xb_load_start(xb_load load, int *failed);
/* Stops and joins the busy threads (NULL: nothing). */
void xb_load_stop(xb_load_state *s);

#endif
