/* Consumer of an installed xpbd: one S0 solve, checked against the SPEC's
 * first number (0.3333333333333335, bit for bit). Prints the library version
 * and exits 0 on success. */
#include <xpbd/xpbd.h>
#include <xpbd/reference.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void)
{
    double a = 0, b = 2, lambda = 0;
    const xpbd_status st = xpbd_distance1d_solve(&a, &b, 1, 1, 1, 0.01, 0.1, &lambda);
    const double stretch = b - a - 1;
    const double want = strtod("0.3333333333333335", NULL);
    if (st != XPBD_OK || memcmp(&stretch, &want, sizeof want) != 0) {
        fprintf(stderr, "xpbd-consumer: status %s, stretch %.17g (%a), want %.17g\n",
                xpbd_status_str(st), stretch, stretch, want);
        return 1;
    }
    if (xpbd_version() != XPBD_VERSION_MAJOR * 10000u + XPBD_VERSION_MINOR * 100u +
                              XPBD_VERSION_PATCH) {
        fprintf(stderr, "xpbd-consumer: header and library versions differ\n");
        return 1;
    }
    printf("xpbd-consumer: xpbd %u, S0 stretch %.17g ok\n", xpbd_version(), stretch);
    return 0;
}
