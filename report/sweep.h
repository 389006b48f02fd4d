/* SPDX-License-Identifier: MIT */
/* sweep.h: user-defined parameter sweeps of xpbd-report.
 *
 *     xpbd-report sweep --scene NAME [--set KEY=VALUE]... --vary KEY=SPEC ...
 *                       [--metric M1,M2,...] [--reference KEY=VALUE...]
 *                       [--jobs N] [--shard K/N] --out DIR
 *     xpbd-report sweep --list
 *     xpbd-report merge DIR1 DIR2 ... --out DIR
 *
 * A sweep runs one scene (a built-in one or a replay recording) at every
 * point of the cartesian product of the varied keys and writes, like a report
 * section, DIR/data/sweep.tsv, DIR/fig/sweep.png and .pdf, DIR/plots/sweep.gp
 * and DIR/sweep.md. The output is assembled in a temporary directory next to
 * DIR and renamed into place at the end. Exit status: 0 done; 2 the command
 * was refused (one line on stderr names the offender and the valid choices;
 * DIR is untouched); 3 the data was written but the figure could not be
 * rendered; 1 another failure (out of memory, I/O). */
#ifndef XPBD_SWEEP_H
#define XPBD_SWEEP_H

/* argv[0] is "sweep" / "merge". */
int xr_sweep_main(int argc, char **argv);
int xr_merge_main(int argc, char **argv);

#endif
