/* SPDX-License-Identifier: MIT */
/* diagnostics.h: the sums the report and the step's counters read.
 *
 *   kinetic_energy   0.5 * sum over w > 0 of ((vx*vx + vy*vy) + vz*vz) / w
 *   momentum         sum over w > 0 of v / w
 *
 * Sums use one canonical order so every path agrees bit for bit: element
 * begin + i goes to accumulator i % 16 (16 accumulators starting at +0),
 * then acc[j] += acc[j + 8] for j < 8, acc[j] += acc[j + 4] for j < 4,
 * then +2, +1; the result is acc[0]. A wide path keeps the 16 accumulators
 * in 16/L vectors over whole blocks of 16 and adds the rest one lane at a
 * time. (The distance residual, a maximum, lives in distance.h.) Template
 * over the precision and the backend (lanes.h). */

#define XPBD_SUM_WAYS 16

LANE_FN R K(tree16)(R acc[XPBD_SUM_WAYS])
{
    for (int j = 0; j < 8; ++j) acc[j] = acc[j] + acc[j + 8];
    for (int j = 0; j < 4; ++j) acc[j] = acc[j] + acc[j + 4];
    for (int j = 0; j < 2; ++j) acc[j] = acc[j] + acc[j + 2];
    return acc[0] + acc[1];
}

/* ((vx*vx + vy*vy) + vz*vz) / w where w > 0, else 0 */
LANE_FN V K(kinetic_at)(const P *p, size_t i)
{
    const V zero = O(zero)(), w = O(load)(p->w + i);
    const V e = O(div)(K(norm2)(O(load)(p->vx + i), O(load)(p->vy + i), O(load)(p->vz + i)), w);
    return O(select)(O(gt)(w, zero), e, zero);
}

/* v / w where w > 0, else 0, per axis */
LANE_FN void K(momentum_at)(const P *p, size_t i, V *mx, V *my, V *mz)
{
    const V zero = O(zero)(), w = O(load)(p->w + i);
    const M dyn = O(gt)(w, zero);
    *mx = O(select)(dyn, O(div)(O(load)(p->vx + i), w), zero);
    *my = O(select)(dyn, O(div)(O(load)(p->vy + i), w), zero);
    *mz = O(select)(dyn, O(div)(O(load)(p->vz + i), w), zero);
}

static inline R K(kinetic_energy)(const P *p, size_t begin, size_t end)
{
    V acc[XPBD_SUM_WAYS / L];
    for (int k = 0; k < XPBD_SUM_WAYS / L; ++k) acc[k] = O(zero)();
    size_t i = begin;
    for (; i + XPBD_SUM_WAYS <= end; i += XPBD_SUM_WAYS)
        for (int k = 0; k < XPBD_SUM_WAYS / L; ++k)
            acc[k] = O(add)(acc[k], K(kinetic_at)(p, i + (size_t)k * L));
    R a[XPBD_SUM_WAYS];
    for (int k = 0; k < XPBD_SUM_WAYS / L; ++k) O(store)(a + k * L, acc[k]);
    for (; i < end; ++i) {
        const size_t j = (i - begin) % XPBD_SUM_WAYS;
        a[j] = a[j] + TAIL(kinetic_at)(p, i);
    }
    return K(tree16)(a) * (R)0.5;
}

static inline void K(momentum)(const P *p, size_t begin, size_t end, R out[3])
{
    V ax[XPBD_SUM_WAYS / L], ay[XPBD_SUM_WAYS / L], az[XPBD_SUM_WAYS / L];
    for (int k = 0; k < XPBD_SUM_WAYS / L; ++k) ax[k] = ay[k] = az[k] = O(zero)();
    size_t i = begin;
    for (; i + XPBD_SUM_WAYS <= end; i += XPBD_SUM_WAYS)
        for (int k = 0; k < XPBD_SUM_WAYS / L; ++k) {
            V mx, my, mz;
            K(momentum_at)(p, i + (size_t)k * L, &mx, &my, &mz);
            ax[k] = O(add)(ax[k], mx);
            ay[k] = O(add)(ay[k], my);
            az[k] = O(add)(az[k], mz);
        }
    R sx[XPBD_SUM_WAYS], sy[XPBD_SUM_WAYS], sz[XPBD_SUM_WAYS];
    for (int k = 0; k < XPBD_SUM_WAYS / L; ++k) {
        O(store)(sx + k * L, ax[k]);
        O(store)(sy + k * L, ay[k]);
        O(store)(sz + k * L, az[k]);
    }
    for (; i < end; ++i) {
        const size_t j = (i - begin) % XPBD_SUM_WAYS;
        R mx, my, mz;
        TAIL(momentum_at)(p, i, &mx, &my, &mz);
        sx[j] = sx[j] + mx;
        sy[j] = sy[j] + my;
        sz[j] = sz[j] + mz;
    }
    out[0] = K(tree16)(sx);
    out[1] = K(tree16)(sy);
    out[2] = K(tree16)(sz);
}

#undef XPBD_SUM_WAYS
