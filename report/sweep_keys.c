/* SPDX-License-Identifier: MIT */
/* The names a sweep accepts: scenes, keys (with units and ranges) and
 * metrics; values, value lists and ranges. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sweep_internal.h"

static const char *const sw_solver_names[] = {"xpbd", "pbd", "springs", NULL};
static const char *const sw_lambda_names[] = {"per_substep", "per_iteration", NULL};
static const char *const sw_precision_names[] = {"f32", "f64", NULL};
static const char *const sw_isa_names[] = {"auto", "scalar", "sse4", "avx2", "avx512", "neon", NULL};

/* Indexed by sw_key_id. */
const sw_key sw_keys[SW_NKEYS] = {
    {"n", "", SW_INT, 1, 100000, 0, 0, NULL,
     "scene size: chain particles, cloth side, tet box cells per side, balls per side"},
    {"frames", "", SW_INT, 1, 1000000, 0, 0, NULL, "frames run (default: the scene's)"},
    {"dt", "s", SW_REAL, 0, 1, 1, 0, NULL, "frame length (default 1/60, a replay's own)"},
    {"substeps", "", SW_INT, 1, 4096, 0, 0, NULL, "substeps per frame"},
    {"iterations", "", SW_INT, 1, 10000, 0, 0, NULL, "constraint iterations per substep"},
    {"solver", "", SW_ENUM, 0, 0, 0, 0, sw_solver_names, "distance solver"},
    {"lambda_reset", "", SW_ENUM, 0, 0, 0, 0, sw_lambda_names,
     "when XPBD's lambda is reset (per_iteration is the classic bug)"},
    {"compliance", "m/N", SW_REAL, 0, 1e6, 0, 0, NULL,
     "replaces every distance constraint's compliance"},
    {"compliance_scale", "", SW_REAL, 0, 1e12, 0, 0, NULL,
     "multiplies every compliance (distance, volume, bending)"},
    {"damping", "", SW_REAL, 0, 1, 0, 1, NULL, "velocity fraction removed per substep"},
    {"relative_damping", "", SW_REAL, 0, 1, 0, 0, NULL,
     "fraction of the velocity relative to each body's rigid motion removed per substep"},
    {"pbd_stiffness", "", SW_REAL, 0, 1, 1, 0, NULL, "PBD k_s"},
    {"spring_damping", "N*s/m", SW_REAL, 0, 1e9, 0, 0, NULL, "damping along each spring (springs)"},
    {"gravity", "m/s^2", SW_REAL, 0, 1000, 0, 0, NULL, "g, pointing along -y"},
    {"restitution", "", SW_REAL, 0, 1, 0, 0, NULL, "contact restitution e"},
    {"friction", "", SW_REAL, 0, 100, 0, 0, NULL, "static and dynamic friction mu_s = mu_k"},
    {"friction_static", "", SW_REAL, 0, 100, 0, 0, NULL, "static friction mu_s"},
    {"friction_dynamic", "", SW_REAL, 0, 100, 0, 0, NULL, "dynamic friction mu_k (<= mu_s)"},
    {"contact_beta", "", SW_REAL, 0, 1, 1, 0, NULL, "contact position correction fraction"},
    {"contact_slop", "m", SW_REAL, 0, 1, 0, 0, NULL, "contact slop"},
    {"contact_skin", "m", SW_REAL, 0, 10, 0, 0, NULL, "broad-phase margin"},
    {"precision", "", SW_ENUM, 0, 0, 0, 0, sw_precision_names, "engine precision"},
    {"isa", "", SW_ENUM, 0, 0, 0, 0, sw_isa_names,
     "instruction-set path (results are the same bit for bit on every one)"},
    {"threads", "", SW_INT, 0, 1024, 0, 0, NULL,
     "workers of the step: 1 serial, 0 all the default executor offers, N at most N (results "
     "are the same bit for bit for every value)"},
    {"tet_compliance", "m^5/N", SW_REAL, 0, 1e6, 0, 0, NULL,
     "replaces every volume constraint's compliance (C = 6V - 6V0; mesh:FILE default 1e-9)"},
    {"bend_compliance", "1/(Nm)", SW_REAL, 0, 1e6, 0, 0, NULL,
     "replaces every bending constraint's compliance (mesh:FILE default 1e-3)"},
    {"density", "kg/m^3", SW_REAL, 0, 1e9, 1, 0, NULL,
     "mesh:FILE: kg/m^3 of the tets, kg/m^2 of a surface without tets (default 1000, 1)"},
    {"scale", "", SW_REAL, 0, 1e6, 1, 0, NULL,
     "mesh:FILE: multiplies every coordinate as loaded (pins compare scaled ones; default 1)"},
    {"pin", "", SW_TEXT, 0, 0, 0, 0, NULL,
     "mesh:FILE: none (default), a label (the file's number or Gmsh group name: the corners "
     "of its elements), or AXIS OP VALUE, AXIS x|y|z, OP < <= > >=, VALUE in m or with % of "
     "the extent (y>0.9, y>=100%: the top layer)"},
};

const sw_scene_info sw_scenes[SW_NSCENES] = {
    {"chain", "n particles 0.1 m apart hanging from particle 0, 1 kg each, links of 1e-4 m/N",
     10, 2, 100000, "particles"},
    {"cloth", "n x n cloth, 1 m wide, 0.5 kg, hanging from its top corners, stretch and shear "
              "1e-6 m/N, bending 1e-3",
     16, 2, 256, "particles per side"},
    {"tet_box", "n^3 cubes of 0.1 m (6 tets each, 0.1 kg per particle) dropped 0.1 m onto the "
                "ground, edges 1e-4 m/N, volume 0",
     3, 1, 40, "cubes per side"},
    {"ball_pile", "n^3 balls of radius 0.05 m, 0.1 kg, dropped into a 0.6 m wide box", 4, 1, 40,
     "balls per side"},
    {"cloth_sphere", "n x n cloth, 1 m wide, 0.5 kg, dropped flat onto a static sphere of radius "
                     "0.3 m, stretch and shear 1e-6 m/N, bending 1e-3",
     16, 2, 128, "particles per side"},
    {"replay:FILE", "a recording of an engine (xpbd_replay_record_* in xpbd/replay.h): its "
                    "particles, sets, bodies, planes and inputs",
     0, 0, 0, NULL},
    {"mesh:FILE", "a mesh file: OBJ surface (.obj), Gmsh (.msh) or TetGen (.node or basename), "
                  "edges of 1e-6 m/N (compliance), volume or bending, free unless pinned (pin)",
     0, 0, 0, NULL},
};

const sw_metric_info sw_metrics[SW_NMETRICS] = {
    {"max_strain", "", "largest | |x1 - x0| / rest - 1 | over the distance constraints at the end"},
    {"mean_strain", "", "mean of the same"},
    {"residual", "m", "max |C + alpha~ lambda| of the distance constraints at the last step's end"},
    {"energy_drift", "J/kg",
     "(E_end - E_start) / mass, E = kinetic + gravity + distance springs' C^2/(2 alpha)"},
    {"penetration", "m",
     "deepest overlap at the end: particle pairs (r0 + r1 - distance) and planes (r - signed "
     "distance); 0 without radii"},
    {"momentum_error", "m/s",
     "|P_end - P_start - M g T| / M: momentum not explained by gravity (0 for a free body; "
     "supports, contacts and damping show here)"},
    {"volume_error", "",
     "|V_end / V_start - 1| of the total tet volume; NaN without tets (a surface)"},
    {"ms_per_frame", "ms", "wall time of the steps per frame (timing: not reproducible)"},
    {"error_vs_reference", "m",
     "largest particle distance from the --reference run's final state"},
};

int sw_key_find(const char *name)
{
    for (int k = 0; k < SW_NKEYS; ++k)
        if (strcmp(sw_keys[k].name, name) == 0)
            return k;
    return -1;
}

int sw_metric_find(const char *name)
{
    for (int m = 0; m < SW_NMETRICS; ++m)
        if (strcmp(sw_metrics[m].name, name) == 0)
            return m;
    return -1;
}

static void sw_join(char *buf, size_t size, const char *name, int first)
{
    const size_t len = strlen(buf);
    if (len < size)
        snprintf(buf + len, size - len, "%s%s", first ? "" : ", ", name);
}

void sw_key_names(char *buf, size_t size)
{
    buf[0] = 0;
    for (int k = 0; k < SW_NKEYS; ++k)
        sw_join(buf, size, sw_keys[k].name, k == 0);
}

void sw_metric_names(char *buf, size_t size)
{
    buf[0] = 0;
    for (int m = 0; m < SW_NMETRICS; ++m)
        sw_join(buf, size, sw_metrics[m].name, m == 0);
}

void sw_scene_names(char *buf, size_t size)
{
    buf[0] = 0;
    for (int s = 0; s < SW_NSCENES; ++s)
        sw_join(buf, size, sw_scenes[s].name, s == 0);
}

void sw_num(char *buf, size_t size, double v)
{
    for (int prec = 1; prec <= 17; ++prec) {
        snprintf(buf, size, "%.*g", prec, v);
        if (strtod(buf, NULL) == v)
            return;
    }
}

static void sw_choices(char *buf, size_t size, const char *const *c)
{
    buf[0] = 0;
    for (int i = 0; c[i]; ++i)
        sw_join(buf, size, c[i], i == 0);
}

static int key_is_text(const sw_key *k)
{
    return k->kind == SW_TEXT;
}

int sw_pin_parse(const char *text, xpbd_mesh_select *sel, int *is_label)
{
    *is_label = 0;
    memset(sel, 0, sizeof *sel);
    if (strcmp(text, "none") == 0)
        return 0;
    if (strchr("xyz", text[0]) && text[0] && strchr("<>", text[1]) && text[1]) {
        const char *p = text + 2;
        const int eq = *p == '=';
        p += eq;
        sel->axis = (uint32_t)(text[0] - 'x');
        sel->compare = text[1] == '<' ? (eq ? XPBD_MESH_LESS_EQUAL : XPBD_MESH_LESS)
                                      : (eq ? XPBD_MESH_GREATER_EQUAL : XPBD_MESH_GREATER);
        char *end;
        errno = 0;
        const double x = strtod(p, &end);
        if (end == p || errno == ERANGE || !isfinite(x))
            return -1;
        if (*end == '%' && !end[1]) {
            sel->relative = 1;
            sel->value = x / 100;
            return sel->value >= 0 && sel->value <= 1 ? 1 : -1;
        }
        if (*end)
            return -1;
        sel->value = x;
        return 1;
    }
    for (const char *p = text; *p; ++p)
        if (!((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
              *p == '_' || *p == '-' || *p == '.'))
            return -1;
    *is_label = 1;
    return text[0] ? 2 : -1;
}

static void sw_range_text(char *buf, size_t size, const sw_key *k)
{
    char lo[32], hi[32];
    if (key_is_text(k)) {
        snprintf(buf, size, "none|LABEL|AXIS OP VALUE[%%]");
        return;
    }
    if (k->kind == SW_ENUM) {
        sw_choices(buf, size, k->choices);
        return;
    }
    sw_num(lo, sizeof lo, k->lo);
    sw_num(hi, sizeof hi, k->hi);
    snprintf(buf, size, "%s%s, %s%s", k->lo_open ? "(" : "[", lo, hi, k->hi_open ? ")" : "]");
}

int sw_value_parse(int k, const char *text, sw_value *v, char *err, size_t errlen)
{
    const sw_key *key = &sw_keys[k];
    char range[160];
    sw_range_text(range, sizeof range, key);
    memset(v, 0, sizeof *v);
    if (key->kind == SW_TEXT) {
        xpbd_mesh_select sel;
        int is_label;
        if (strlen(text) >= sizeof v->text || sw_pin_parse(text, &sel, &is_label) < 0) {
            snprintf(err, errlen,
                     "bad value '%s' for key %s (valid: none, a label such as 2 or top, or "
                     "AXIS OP VALUE such as y>0.9 or y>=100%%)",
                     text, key->name);
            return -1;
        }
        snprintf(v->text, sizeof v->text, "%s", text);
        return 0;
    }
    if (key->kind == SW_ENUM) {
        for (int i = 0; key->choices[i]; ++i) {
            if (strcmp(text, key->choices[i]) == 0) {
                if (k == SW_K_ISA) {
                    xpbd_isa isa, resolved;
                    if (xpbd_isa_from_name(text, &isa) != XPBD_OK ||
                        xpbd_isa_resolve(isa, &resolved) != XPBD_OK) {
                        char ok[96] = "";
                        for (int j = 0; j < XPBD_ISA_COUNT; ++j)
                            if (xpbd_isa_supported((xpbd_isa)j))
                                sw_join(ok, sizeof ok, xpbd_isa_name((xpbd_isa)j), ok[0] == 0);
                        snprintf(err, errlen,
                                 "isa=%s is not available on this machine or build (available: "
                                 "auto, %s)",
                                 text, ok);
                        return -1;
                    }
                }
                snprintf(v->text, sizeof v->text, "%s", key->choices[i]);
                v->num = i;
                return 0;
            }
        }
        snprintf(err, errlen, "unknown value '%s' for key %s (valid: %s)", text, key->name, range);
        return -1;
    }
    char *end;
    errno = 0;
    const double x = strtod(text, &end);
    if (end == text || *end || errno == ERANGE || !isfinite(x)) {
        snprintf(err, errlen, "bad value '%s' for key %s: not a finite number (valid: %s %s)",
                 text, key->name, range, key->unit);
        return -1;
    }
    if (key->kind == SW_INT && x != floor(x)) {
        snprintf(err, errlen, "bad value '%s' for key %s: not an integer (valid: %s)", text,
                 key->name, range);
        return -1;
    }
    if (x < key->lo || x > key->hi || (key->lo_open && x == key->lo) ||
        (key->hi_open && x == key->hi)) {
        snprintf(err, errlen, "value %s of key %s out of range (valid: %s %s)", text, key->name,
                 range, key->unit);
        return -1;
    }
    v->num = x;
    if (key->kind == SW_INT)
        snprintf(v->text, sizeof v->text, "%.0f", x);
    else
        sw_num(v->text, sizeof v->text, x);
    return 0;
}

/* LO:HI:logN or LO:HI:linN */
static int sw_range_parse(int k, const char *spec, sw_vary *out, char *err, size_t errlen)
{
    const sw_key *key = &sw_keys[k];
    char buf[128];
    snprintf(buf, sizeof buf, "%s", spec);
    char *c1 = strchr(buf, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
    if (key->kind == SW_ENUM || key->kind == SW_TEXT) {
        snprintf(err, errlen, "bad range '%s=%s': key %s takes a list of names", key->name, spec,
                 key->name);
        return -1;
    }
    if (!c1 || !c2 || strchr(c2 + 1, ':')) {
        snprintf(err, errlen, "bad range '%s=%s' (valid: V1,V2,... or LO:HI:logN or LO:HI:linN)",
                 key->name, spec);
        return -1;
    }
    *c1 = *c2 = 0;
    const char *how = c2 + 1;
    const int log = strncmp(how, "log", 3) == 0;
    char *end;
    const long n = strtol(how + 3, &end, 10);
    if ((!log && strncmp(how, "lin", 3) != 0) || end == how + 3 || *end || n < 2 || n > 10000) {
        snprintf(err, errlen,
                 "bad range '%s=%s': the count must be logN or linN with N in [2, 10000]",
                 key->name, spec);
        return -1;
    }
    sw_value lo, hi;
    if (sw_value_parse(k, buf, &lo, err, errlen) != 0 ||
        sw_value_parse(k, c1 + 1, &hi, err, errlen) != 0)
        return -1;
    if (!(lo.num < hi.num) || (log && lo.num <= 0)) {
        snprintf(err, errlen, "bad range '%s=%s': needs LO < HI%s", key->name, spec,
                 log ? " and LO > 0 for log spacing" : "");
        return -1;
    }
    out->v = calloc((size_t)n, sizeof *out->v);
    if (!out->v) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    out->log = log;
    out->count = 0;
    for (long i = 0; i < n; ++i) {
        const double t = (double)i / (double)(n - 1);
        double x = i == 0       ? lo.num
                   : i == n - 1 ? hi.num
                   : log        ? pow(10, log10(lo.num) + t * (log10(hi.num) - log10(lo.num)))
                                : lo.num + (hi.num - lo.num) * t;
        if (key->kind == SW_INT)
            x = floor(x + 0.5);
        char text[32];
        sw_num(text, sizeof text, x);
        /* integer keys: rounding may repeat a value; keep the first */
        if (out->count > 0 && out->v[out->count - 1].num == x)
            continue;
        if (sw_value_parse(k, text, &out->v[out->count], err, errlen) != 0)
            return -1;
        ++out->count;
    }
    return 0;
}

int sw_vary_parse(const char *arg, sw_vary *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    const char *eq = strchr(arg, '=');
    char name[64];
    const size_t len = eq ? (size_t)(eq - arg) : strlen(arg);
    snprintf(name, sizeof name, "%.*s", (int)(len < 63 ? len : 63), arg);
    const int k = sw_key_find(name);
    if (k < 0) {
        char names[512];
        sw_key_names(names, sizeof names);
        snprintf(err, errlen, "unknown key '%s' in --vary %s (valid: %s)", name, arg, names);
        return -1;
    }
    if (!eq || !eq[1]) {
        snprintf(err, errlen, "--vary %s: no values (valid: %s=V1,V2,... or %s=LO:HI:logN|linN)",
                 arg, name, name);
        return -1;
    }
    out->key = k;
    if (strchr(eq + 1, ':'))
        return sw_range_parse(k, eq + 1, out, err, errlen);
    size_t count = 1;
    for (const char *p = eq + 1; *p; ++p)
        count += *p == ',';
    out->v = calloc(count, sizeof *out->v);
    if (!out->v) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    const char *p = eq + 1;
    for (size_t i = 0; i < count; ++i) {
        const char *q = strchr(p, ',');
        const size_t n = q ? (size_t)(q - p) : strlen(p);
        char tok[64];
        if (n == 0 || n >= sizeof tok) {
            snprintf(err, errlen, "bad list in --vary %s: an empty or overlong value", arg);
            return -1;
        }
        memcpy(tok, p, n);
        tok[n] = 0;
        if (sw_value_parse(k, tok, &out->v[i], err, errlen) != 0)
            return -1;
        if (sw_keys[k].kind == SW_TEXT)
            out->v[i].num = (double)i; /* its position: the plot's x */
        for (size_t j = 0; j < i; ++j)
            if (sw_keys[k].kind == SW_TEXT ? strcmp(out->v[j].text, out->v[i].text) == 0
                                           : out->v[j].num == out->v[i].num) {
                snprintf(err, errlen, "bad list in --vary %s: value %s repeated", arg, tok);
                return -1;
            }
        p = q ? q + 1 : p + n;
    }
    out->count = (int)count;
    return 0;
}

void sw_list(FILE *f)
{
    fprintf(f, "scenes (--scene NAME; size key n):\n");
    for (int s = 0; s < SW_NSCENES; ++s) {
        fprintf(f, "  %-14s %s", sw_scenes[s].name, sw_scenes[s].doc);
        if (sw_scenes[s].n_doc)
            fprintf(f, "; n = %s in [%d, %d], default %d", sw_scenes[s].n_doc, sw_scenes[s].n_lo,
                    sw_scenes[s].n_hi, sw_scenes[s].n_default);
        fprintf(f, "\n");
    }
    fprintf(f, "keys (--set KEY=VALUE, --vary KEY=V1,V2,...|LO:HI:logN|LO:HI:linN, "
               "--reference KEY=VALUE...):\n");
    for (int k = 0; k < SW_NKEYS; ++k) {
        char range[160];
        sw_range_text(range, sizeof range, &sw_keys[k]);
        fprintf(f, "  %-17s %-6s %-28s %s\n", sw_keys[k].name,
                sw_keys[k].unit[0] ? sw_keys[k].unit : "-", range, sw_keys[k].doc);
    }
    fprintf(f, "metrics (--metric M1,M2,...; default: all, error_vs_reference with "
               "--reference):\n");
    for (int m = 0; m < SW_NMETRICS; ++m)
        fprintf(f, "  %-19s %-5s %s\n", sw_metrics[m].name,
                sw_metrics[m].unit[0] ? sw_metrics[m].unit : "-", sw_metrics[m].doc);
}
