/* SPDX-License-Identifier: MIT */
/* `xpbd-report sweep` and `xpbd-report merge`: the command lines, the
 * points (in parallel with --jobs, a slice with --shard) and the merge of
 * shard directories. See sweep.h for the commands. */
#define _XOPEN_SOURCE 700
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "sweep.h"
#include "sweep_internal.h"

enum { SW_EXIT_OK = 0, SW_EXIT_FAIL = 1, SW_EXIT_USAGE = 2, SW_EXIT_FIGURE = 3 };

static void sw_usage(FILE *f)
{
    fprintf(f,
            "usage: xpbd-report sweep --scene NAME [--set KEY=VALUE]... --vary KEY=SPEC...\n"
            "                         [--metric M1,M2,...] [--reference KEY=VALUE...]\n"
            "                         [--jobs N] [--shard K/N] --out DIR\n"
            "       xpbd-report sweep --list\n"
            "       xpbd-report merge DIR1 DIR2 ... --out DIR\n"
            "SPEC is V1,V2,... or LO:HI:logN or LO:HI:linN; up to %d varied keys, the points\n"
            "are their cartesian product (the first key varies fastest). --shard K/N (K in\n"
            "1..N) computes the points i with i mod N = K - 1; merge joins the shards.\n"
            "Exit status: 0 written; 2 refused, DIR untouched (a bad command, or every point\n"
            "refused by the library for a value; a diverged or refused point among others is\n"
            "a row with its status); 3 written but the figure (gnuplot) missing; 1 an error.\n",
            SW_MAX_VARY);
}

static int sw_refuse(const char *cmd, const char *msg)
{
    fprintf(stderr, "xpbd-report %s: %s\n", cmd, msg);
    return SW_EXIT_USAGE;
}

/* -------------------------------------------------------------- parsing --- */

/* Appends a token line to s->args. */
static int sw_args_add(sw_spec *s, const char *tok)
{
    const size_t old = s->args ? strlen(s->args) : 0, n = strlen(tok);
    char *a = realloc(s->args, old + n + 2);
    if (!a)
        return -1;
    memcpy(a + old, tok, n);
    a[old + n] = '\n';
    a[old + n + 1] = 0;
    s->args = a;
    return 0;
}

/* --out without trailing slashes ("runs/a/" names the directory runs/a,
 * whose temporary sibling is runs/a.tmp-XXXXXX, not inside it). */
static int sw_out_trim(sw_spec *s)
{
    free(s->out_owned);
    s->out_owned = strdup(s->out);
    if (!s->out_owned)
        return -1;
    for (size_t n = strlen(s->out_owned); n > 1 && s->out_owned[n - 1] == '/'; --n)
        s->out_owned[n - 1] = 0;
    s->out = s->out_owned;
    return 0;
}

static void sw_spec_free(sw_spec *s)
{
    for (int j = 0; j < s->nvary; ++j)
        free(s->vary[j].v);
    free(s->args);
    free(s->out_owned);
    memset(s, 0, sizeof *s);
}

/* KEY=VALUE into *a. */
static int sw_assign_parse(const char *arg, const char *opt, sw_assign *a, char *err,
                           size_t errlen)
{
    const char *eq = strchr(arg, '=');
    char name[64];
    const size_t len = eq ? (size_t)(eq - arg) : strlen(arg);
    snprintf(name, sizeof name, "%.*s", (int)(len < 63 ? len : 63), arg);
    a->key = sw_key_find(name);
    if (a->key < 0) {
        char names[512];
        sw_key_names(names, sizeof names);
        snprintf(err, errlen, "unknown key '%s' in %s %s (valid: %s)", name, opt, arg, names);
        return -1;
    }
    if (!eq) {
        snprintf(err, errlen, "%s %s: expected KEY=VALUE", opt, arg);
        return -1;
    }
    return sw_value_parse(a->key, eq + 1, &a->v, err, errlen);
}

static const char *sw_opt(int argc, char **argv, int *i, const char *opt, char *err,
                          size_t errlen, int *bad)
{
    const size_t n = strlen(opt);
    if (strncmp(argv[*i], opt, n) == 0 && argv[*i][n] == '=')
        return argv[*i] + n + 1;
    if (strcmp(argv[*i], opt) != 0)
        return NULL;
    if (*i + 1 >= argc) {
        snprintf(err, errlen, "%s needs a value", opt);
        *bad = 1;
        return NULL;
    }
    return argv[++*i];
}

/* Whether key k shapes a mesh:FILE scene as built (density, scale, pin). */
static int sw_mesh_key(int k)
{
    return k >= SW_K_DENSITY && k <= SW_K_PIN;
}

static int sw_check_n(const sw_spec *s, const sw_value *v, int count, char *err, size_t errlen)
{
    const sw_scene_info *sc = &sw_scenes[s->scene];
    if (s->scene == SW_REPLAY || s->scene == SW_MESH) {
        snprintf(err, errlen, "key n does not apply to scene %s%s (it sizes the built-in scenes)",
                 s->scene == SW_REPLAY ? "replay:" : "mesh:",
                 s->scene == SW_REPLAY ? s->replay : s->mesh);
        return -1;
    }
    for (int c = 0; c < count; ++c)
        if (v[c].num < sc->n_lo || v[c].num > sc->n_hi) {
            snprintf(err, errlen, "value %s of key n out of range for scene %s (valid: [%d, %d] %s)",
                     v[c].text, sc->name, sc->n_lo, sc->n_hi, sc->n_doc);
            return -1;
        }
    return 0;
}

/* What the options must say together: a scene and a varied key, the keys
 * each scene takes, no key both set and varied, the metrics (--metric, or
 * every one that applies), the number of points, --out unless args_only.
 * Returns 0, or -1 with a message in err. */
static int sw_validate(sw_spec *s, const char *metrics, int args_only, char *err, size_t errlen)
{
    if (s->scene < 0) {
        snprintf(err, errlen, "no --scene (see xpbd-report sweep --list)");
        return -1;
    }
    if (s->nvary == 0) {
        snprintf(err, errlen, "no --vary KEY=V1,V2,... (see xpbd-report sweep --list)");
        return -1;
    }
    /* size key n: the built-in scenes only, in the scene's range */
    for (int k = 0; k < s->nset; ++k)
        if (s->set[k].key == SW_K_N && sw_check_n(s, &s->set[k].v, 1, err, errlen) != 0)
            return -1;
    for (int k = 0; k < s->nvary; ++k)
        if (s->vary[k].key == SW_K_N &&
            sw_check_n(s, s->vary[k].v, s->vary[k].count, err, errlen) != 0)
            return -1;
    for (int k = 0; k < s->nref; ++k)
        if (s->ref[k].key == SW_K_N && sw_check_n(s, &s->ref[k].v, 1, err, errlen) != 0)
            return -1;
    /* density, scale, pin: the mesh scenes only, and not in --reference
     * (a reference is the same scene run more finely) */
    if (s->scene != SW_MESH) {
        for (int k = 0; k < s->nset + s->nvary; ++k) {
            const int key = k < s->nset ? s->set[k].key : s->vary[k - s->nset].key;
            if (sw_mesh_key(key)) {
                snprintf(err, errlen, "key %s applies to mesh:FILE scenes only",
                         sw_keys[key].name);
                return -1;
            }
        }
    }
    for (int k = 0; k < s->nref; ++k)
        if (sw_mesh_key(s->ref[k].key)) {
            snprintf(err, errlen, "key %s cannot be a --reference key (it changes the scene)",
                     sw_keys[s->ref[k].key].name);
            return -1;
        }
    for (int k = 0; k < s->nset; ++k)
        for (int j = 0; j < s->nvary; ++j)
            if (s->set[k].key == s->vary[j].key) {
                snprintf(err, errlen, "key %s is both set and varied",
                         sw_keys[s->set[k].key].name);
                return -1;
            }
    s->nmetric = 0;
    if (metrics) {
        char buf[512];
        snprintf(buf, sizeof buf, "%s", metrics);
        for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
            const int m = sw_metric_find(t);
            if (m < 0) {
                char names[512];
                sw_metric_names(names, sizeof names);
                snprintf(err, errlen, "unknown metric '%s' (valid: %s)", t, names);
                return -1;
            }
            for (int k = 0; k < s->nmetric; ++k)
                if (s->metric[k] == m) {
                    snprintf(err, errlen, "metric %s listed twice", t);
                    return -1;
                }
            s->metric[s->nmetric++] = m;
        }
        if (s->nmetric == 0) {
            snprintf(err, errlen, "--metric '%s' names no metric", metrics);
            return -1;
        }
    } else {
        for (int m = 0; m < SW_NMETRICS; ++m)
            if (m != SW_M_ERROR_VS_REFERENCE || s->has_ref)
                s->metric[s->nmetric++] = m;
    }
    for (int k = 0; k < s->nmetric; ++k)
        if (s->metric[k] == SW_M_ERROR_VS_REFERENCE && !s->has_ref) {
            snprintf(err, errlen, "metric error_vs_reference needs --reference KEY=VALUE... "
                                  "(e.g. --reference substeps=64 iterations=50)");
            return -1;
        }
    s->points = 1;
    for (int j = 0; j < s->nvary; ++j) {
        s->points *= (size_t)s->vary[j].count;
        if (s->points > SW_MAX_POINTS) {
            snprintf(err, errlen, "too many points (more than %d)", SW_MAX_POINTS);
            return -1;
        }
    }
    if (!args_only && !s->out) {
        snprintf(err, errlen, "no --out DIR");
        return -1;
    }
    return 0;
}

/* Parses the point-defining options (and, unless args_only, --jobs,
 * --shard, --out). Returns 0, or -1 with a message in err. */
static int sw_parse(int argc, char **argv, sw_spec *s, int args_only, char *err, size_t errlen)
{
    memset(s, 0, sizeof *s);
    s->scene = -1;
    s->jobs = 1;
    const char *metrics = NULL;
    int bad = 0;
    for (int i = 1; i < argc; ++i) {
        const char *v;
        const char *a = argv[i];
        if ((v = sw_opt(argc, argv, &i, "--scene", err, errlen, &bad))) {
            if (s->scene >= 0) {
                snprintf(err, errlen, "--scene given twice");
                return -1;
            }
            if (strncmp(v, "replay:", 7) == 0 && v[7]) {
                s->scene = SW_REPLAY;
                s->replay = v + 7;
            } else if (strncmp(v, "mesh:", 5) == 0 && v[5]) {
                s->scene = SW_MESH;
                s->mesh = v + 5;
            } else {
                for (int k = 0; k < SW_REPLAY; ++k)
                    if (strcmp(v, sw_scenes[k].name) == 0)
                        s->scene = k;
            }
            if (s->scene < 0) {
                char names[256];
                sw_scene_names(names, sizeof names);
                snprintf(err, errlen, "unknown scene '%s' (valid: %s)", v, names);
                return -1;
            }
            if (sw_args_add(s, "--scene") || sw_args_add(s, v))
                goto nomem;
        } else if ((v = sw_opt(argc, argv, &i, "--set", err, errlen, &bad))) {
            if (s->nset == SW_MAX_ASSIGN) {
                snprintf(err, errlen, "too many --set (at most %d)", SW_MAX_ASSIGN);
                return -1;
            }
            if (sw_assign_parse(v, "--set", &s->set[s->nset], err, errlen) != 0)
                return -1;
            for (int k = 0; k < s->nset; ++k)
                if (s->set[k].key == s->set[s->nset].key) {
                    snprintf(err, errlen, "key %s set twice", sw_keys[s->set[k].key].name);
                    return -1;
                }
            ++s->nset;
            if (sw_args_add(s, "--set") || sw_args_add(s, v))
                goto nomem;
        } else if ((v = sw_opt(argc, argv, &i, "--vary", err, errlen, &bad))) {
            if (s->nvary == SW_MAX_VARY) {
                snprintf(err, errlen, "too many --vary at '%s' (at most %d varied keys)", v,
                         SW_MAX_VARY);
                return -1;
            }
            sw_vary *vy = &s->vary[s->nvary];
            const int r = sw_vary_parse(v, vy, err, errlen);
            ++s->nvary; /* freed with the spec even when refused */
            if (r != 0)
                return -1;
            for (int k = 0; k + 1 < s->nvary; ++k)
                if (s->vary[k].key == vy->key) {
                    snprintf(err, errlen, "key %s varied twice", sw_keys[vy->key].name);
                    return -1;
                }
            if (sw_args_add(s, "--vary") || sw_args_add(s, v))
                goto nomem;
        } else if ((v = sw_opt(argc, argv, &i, "--metric", err, errlen, &bad))) {
            metrics = v;
            if (sw_args_add(s, "--metric") || sw_args_add(s, v))
                goto nomem;
        } else if (strcmp(a, "--reference") == 0) {
            s->has_ref = 1;
            if (sw_args_add(s, "--reference"))
                goto nomem;
            while (i + 1 < argc && strncmp(argv[i + 1], "--", 2) != 0) {
                ++i;
                if (s->nref == SW_MAX_ASSIGN) {
                    snprintf(err, errlen, "too many --reference keys");
                    return -1;
                }
                if (sw_assign_parse(argv[i], "--reference", &s->ref[s->nref], err, errlen) != 0)
                    return -1;
                ++s->nref;
                if (sw_args_add(s, argv[i]))
                    goto nomem;
            }
            if (s->nref == 0) {
                snprintf(err, errlen, "--reference needs KEY=VALUE... (e.g. substeps=64 "
                                      "iterations=50)");
                return -1;
            }
        } else if (!args_only && (v = sw_opt(argc, argv, &i, "--jobs", err, errlen, &bad))) {
            char *end;
            const long j = strtol(v, &end, 10);
            if (end == v || *end || j < 1 || j > 1024) {
                snprintf(err, errlen, "bad --jobs '%s' (valid: 1..1024)", v);
                return -1;
            }
            s->jobs = (int)j;
        } else if (!args_only && (v = sw_opt(argc, argv, &i, "--shard", err, errlen, &bad))) {
            char *end, *end2;
            const long k = strtol(v, &end, 10);
            const long n = *end == '/' ? strtol(end + 1, &end2, 10) : 0;
            if (end == v || *end != '/' || end2 == end + 1 || *end2 || n < 1 || n > 100000 ||
                k < 1 || k > n) {
                snprintf(err, errlen, "bad --shard '%s' (valid: K/N with 1 <= K <= N)", v);
                return -1;
            }
            s->shard_k = (int)k;
            s->shard_n = (int)n;
        } else if (!args_only && (v = sw_opt(argc, argv, &i, "--out", err, errlen, &bad))) {
            s->out = v;
            if (sw_out_trim(s) != 0)
                goto nomem;
        } else if (bad) {
            return -1;
        } else {
            snprintf(err, errlen,
                     "unknown option '%s' (valid: --scene, --set, --vary, --metric, --reference, "
                     "--jobs, --shard, --out, --list)",
                     a);
            return -1;
        }
        if (bad)
            return -1;
    }
    if (sw_validate(s, metrics, args_only, err, errlen) != 0)
        return -1;
    return 0;
nomem:
    snprintf(err, errlen, "out of memory");
    return -1;
}

/* Key k = v in *pt (a text key by its text). */
static void sw_point_put(sw_point *pt, int k, const sw_value *v)
{
    if (sw_keys[k].kind == SW_TEXT) {
        pt->val[k] = 0;
        snprintf(pt->pin, sizeof pt->pin, "%s", v->text);
    } else {
        pt->val[k] = v->num;
    }
    pt->has[k] = 1;
}

/* The keys of point i: the --set ones, then the varied ones. */
static void sw_point_of(const sw_spec *s, size_t i, sw_point *pt)
{
    memset(pt, 0, sizeof *pt);
    for (int k = 0; k < s->nset; ++k)
        sw_point_put(pt, s->set[k].key, &s->set[k].v);
    for (int j = 0; j < s->nvary; ++j)
        sw_point_put(pt, s->vary[j].key, &s->vary[j].v[sw_point_index(s, i, j)]);
}


/* ------------------------------------------------------------- running --- */

typedef struct sw_job {
    const sw_spec *s;
    const sw_base *base;
    size_t *todo;           /* point indices of this run */
    size_t ntodo;
    sw_point *refpt;        /* distinct reference points */
    sw_result *ref;         /* their results */
    size_t nref;
    size_t *ref_of;         /* [ntodo] which reference each point compares with */
    sw_result *out;         /* [ntodo] */
} sw_job;

static void sw_do_point(const sw_job *j, size_t t)
{
    sw_point pt;
    sw_point_of(j->s, j->todo[t], &pt);
    sw_result *r = &j->out[t];
    sw_run_point(j->base, &pt, j->nref > 0, r);
    if (j->nref > 0) {
        if (r->status >= 0)
            r->m[SW_M_ERROR_VS_REFERENCE] = sw_state_distance(r, &j->ref[j->ref_of[t]]);
        free(r->final);
        r->final = NULL;
    }
}

/* Progress on stderr when it is a terminal. */
static void sw_progress(size_t done, size_t n, int refs)
{
    if (isatty(2))
        fprintf(stderr, "\r%s %zu/%zu%s", refs ? "references" : "points", done, n,
                done == n ? "\n" : "");
}

/* Runs task(0..n-1) on `jobs` workers; each task writes its own slot only,
 * so the results do not depend on the worker count. */
static int sw_parallel(int jobs, size_t n, const sw_job *j, int refs)
{
#ifdef _OPENMP
    size_t done = 0;
#pragma omp parallel for schedule(dynamic, 1) num_threads(jobs)
    for (size_t t = 0; t < n; ++t) {
        if (refs) {
            sw_run_point(j->base, &j->refpt[t], 1, &j->ref[t]);
        } else {
            sw_do_point(j, t);
        }
        size_t now;
#pragma omp atomic capture
        now = ++done;
#pragma omp critical(sw_progress)
        sw_progress(now, n, refs);
    }
    return 0;
#else
    /* fork: worker w takes tasks w, w + jobs, ...; results come back through
     * a shared anonymous mapping (finals of references stay in the parent,
     * so references run here, in the parent) */
    if (refs || jobs <= 1 || n <= 1) {
        for (size_t t = 0; t < n; ++t) {
            if (refs)
                sw_run_point(j->base, &j->refpt[t], 1, &j->ref[t]);
            else
                sw_do_point(j, t);
            sw_progress(t + 1, n, refs);
        }
        return 0;
    }
    sw_result *shared = mmap(NULL, n * sizeof *shared, PROT_READ | PROT_WRITE,
                             MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (shared == MAP_FAILED)
        return -1;
    sw_job local = *j;
    local.out = shared;
    pid_t pid[1024];
    int started = 0, failed = 0;
    for (int w = 0; w < jobs; ++w) {
        pid[w] = fork();
        if (pid[w] == 0) {
            for (size_t t = (size_t)w; t < n; t += (size_t)jobs)
                sw_do_point(&local, t);
            _exit(0);
        }
        if (pid[w] < 0) {
            failed = 1;
            break;
        }
        ++started;
    }
    for (int w = 0; w < started; ++w) {
        int st;
        if (waitpid(pid[w], &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0)
            failed = 1;
    }
    if (!failed)
        memcpy(j->out, shared, n * sizeof *shared);
    munmap(shared, n * sizeof *shared);
    return failed ? -1 : 0;
#endif
}

static double sw_wall(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* The command line as one shell-quoted string (malloc'd). */
static char *sw_command(int argc, char **argv, const char *prog)
{
    size_t len = strlen(prog) + 2;
    for (int i = 0; i < argc; ++i)
        len += 4 * strlen(argv[i]) + 3;
    char *c = malloc(len);
    if (!c)
        return NULL;
    strcpy(c, prog);
    for (int i = 0; i < argc; ++i) {
        strcat(c, " ");
        const int plain = strspn(argv[i], "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                          "0123456789-_=,.:/+") == strlen(argv[i]);
        if (plain) {
            strcat(c, argv[i]);
            continue;
        }
        strcat(c, "'");
        for (const char *p = argv[i]; *p; ++p)
            strcat(c, *p == '\'' ? "'\\''" : (char[2]){*p, 0});
        strcat(c, "'");
    }
    return c;
}

static void sw_provenance(char *buf, size_t size, const sw_spec *s, double seconds, size_t ran)
{
    char host[128] = "?", date[64] = "?";
    gethostname(host, sizeof host - 1);
    const time_t now = time(NULL);
    struct tm tm;
    if (gmtime_r(&now, &tm))
        strftime(date, sizeof date, "%Y-%m-%d %H:%M:%S UTC", &tm);
    xpbd_isa isa = XPBD_ISA_SCALAR;
    xpbd_isa_resolve(XPBD_ISA_AUTO, &isa);
    snprintf(buf, size,
             "* xpbd %d.%d.%d, protocol %u; ISA auto = %s on this machine\n"
             "* host %s, %s; %zu of %zu points run in %.2f s with --jobs %d (%s)%s\n"
             "* scene %s%s; points: the cartesian product of the varied keys, the first varying "
             "fastest\n",
             XPBD_VERSION_MAJOR, XPBD_VERSION_MINOR, XPBD_VERSION_PATCH, XPBD_PROTOCOL_VERSION,
             xpbd_isa_name(isa), host, date, ran, s->points, seconds, s->jobs,
#ifdef _OPENMP
             "OpenMP",
#else
             "fork",
#endif
             s->shard_n ? "; a shard: merge the shards with xpbd-report merge" : "",
             s->scene == SW_REPLAY ? "replay:" : s->scene == SW_MESH ? "mesh:" : sw_scenes[s->scene].name,
             s->scene == SW_REPLAY ? s->replay : s->scene == SW_MESH ? s->mesh : "");
}

static void sw_results_free(sw_result *r, size_t n)
{
    for (size_t i = 0; r && i < n; ++i)
        free(r[i].final);
}

static int sw_write_shard_file(const char *tmp, const sw_spec *s)
{
    const size_t len = strlen(tmp) + 32;
    char *p = malloc(len);
    if (!p)
        return -1;
    snprintf(p, len, "%s/data/sweep.shard", tmp);
    FILE *f = fopen(p, "w");
    free(p);
    if (!f)
        return -1;
    fprintf(f, "%d %d\n", s->shard_k, s->shard_n);
    return fclose(f) == 0 ? 0 : -1;
}

/* Whether key k concerns the fault a refused point's run reported: by the
 * configuration field it names (friction covers both friction fields), or
 * by its status when pass is 1. */
static int sw_key_concerns(int k, const sw_result *r, int pass)
{
    if (pass == 0) {
        const xpbd_field fd = r->where.field;
        if (fd == XPBD_FIELD_NONE)
            return 0;
        if (strcmp(sw_keys[k].name, xpbd_field_name(fd)) == 0)
            return 1;
        return k == SW_K_FRICTION &&
               (fd == XPBD_FIELD_FRICTION_STATIC || fd == XPBD_FIELD_FRICTION_DYNAMIC);
    }
    switch (r->status) {
    case XPBD_ERR_TIMESTEP: return k == SW_K_DT;
    case XPBD_ERR_ISA: return k == SW_K_ISA;
    case XPBD_ERR_FRICTION:
        return k == SW_K_FRICTION || k == SW_K_FRICTION_STATIC || k == SW_K_FRICTION_DYNAMIC;
    case XPBD_ERR_COMPLIANCE:
        return k == SW_K_COMPLIANCE || k == SW_K_COMPLIANCE_SCALE || k == SW_K_TET_COMPLIANCE ||
               k == SW_K_BEND_COMPLIANCE;
    case XPBD_ERR_RESTITUTION: return k == SW_K_RESTITUTION;
    case XPBD_ERR_BETA: return k == SW_K_CONTACT_BETA;
    case XPBD_ERR_SLOP: return k == SW_K_CONTACT_SLOP;
    default: return 0;
    }
}

/* The message of a sweep whose every point was refused: the first point's
 * keys at fault (KEY=VALUE; all its varied keys when none can be told),
 * its status and the library's words for it. */
static void sw_refused_message(const sw_spec *s, size_t point, const sw_result *r, char *buf,
                               size_t size)
{
    char keys[512] = "";
    size_t len = 0;
    for (int pass = 0; pass < 3 && !len; ++pass)
        for (int k = 0; k < s->nset + s->nvary; ++k) {
            const int vary = k >= s->nset, j = k - s->nset;
            const int key = vary ? s->vary[j].key : s->set[k].key;
            if (pass < 2 ? !sw_key_concerns(key, r, pass) : !vary)
                continue;
            const char *text = vary ? s->vary[j].v[sw_point_index(s, point, j)].text
                                    : s->set[k].v.text;
            const int w = snprintf(keys + len, sizeof keys - len, "%s%s=%s", len ? " " : "",
                                   sw_keys[key].name, text);
            len = w < 0 || (size_t)w >= sizeof keys - len ? sizeof keys - 1 : len + (size_t)w;
        }
    char field[96] = "";
    if (r->where.field != XPBD_FIELD_NONE)
        snprintf(field, sizeof field, "; field %s", xpbd_field_name(r->where.field));
    snprintf(buf, size,
             "every point was refused, none ran: the first, point %zu at %s, is %s (%s%s)", point,
             keys, sw_status_name(r->status), xpbd_status_str((xpbd_status)r->status), field);
}

/* Runs the points and writes the output; the spec is valid. */
static int sw_execute(const sw_spec *s, const sw_base *base, const char *command)
{
    const double t0 = sw_wall();
    sw_job j;
    memset(&j, 0, sizeof j);
    j.s = s;
    j.base = base;
    j.todo = malloc((s->points + 1) * sizeof *j.todo);
    sw_row *rows = calloc(s->points + 1, sizeof *rows);
    int code = SW_EXIT_FAIL;
    if (!j.todo || !rows)
        goto done;
    for (size_t i = 0; i < s->points; ++i)
        if (!s->shard_n || i % (size_t)s->shard_n == (size_t)(s->shard_k - 1))
            j.todo[j.ntodo++] = i;
    j.out = calloc(j.ntodo + 1, sizeof *j.out);
    j.ref_of = calloc(j.ntodo + 1, sizeof *j.ref_of);
    if (!j.out || !j.ref_of)
        goto done;
    int want_ref = 0;
    for (int k = 0; k < s->nmetric; ++k)
        want_ref |= s->metric[k] == SW_M_ERROR_VS_REFERENCE;
    if (want_ref) {
        /* each point's reference: its keys with the --reference ones on top;
         * equal references are run once */
        j.refpt = calloc(j.ntodo + 1, sizeof *j.refpt);
        j.ref = calloc(j.ntodo + 1, sizeof *j.ref);
        if (!j.refpt || !j.ref)
            goto done;
        for (size_t t = 0; t < j.ntodo; ++t) {
            sw_point rp;
            sw_point_of(s, j.todo[t], &rp);
            for (int k = 0; k < s->nref; ++k)
                sw_point_put(&rp, s->ref[k].key, &s->ref[k].v);
            size_t r = 0;
            while (r < j.nref && memcmp(&j.refpt[r], &rp, sizeof rp) != 0)
                ++r;
            if (r == j.nref)
                j.refpt[j.nref++] = rp;
            j.ref_of[t] = r;
        }
        if (sw_parallel(s->jobs, j.nref, &j, 1) != 0)
            goto done;
    }
    if (sw_parallel(s->jobs, j.ntodo, &j, 0) != 0) {
        fprintf(stderr, "xpbd-report sweep: a worker failed\n");
        goto done;
    }
    for (size_t t = 0; t < j.ntodo; ++t) {
        sw_row *row = &rows[j.todo[t]];
        row->present = 1;
        snprintf(row->status, sizeof row->status, "%s", sw_status_name(j.out[t].status));
        memcpy(row->m, j.out[t].m, sizeof row->m);
        if (!(row->line = sw_row_line(s, j.todo[t], row->status, row->m)))
            goto done;
    }
    /* every point refused for its values (not diverged: that is data) is
     * a refused command; a shard's slice is only a part of the sweep, so a
     * shard is written and the merge decides */
    size_t refused = 0;
    for (size_t t = 0; t < j.ntodo; ++t)
        refused += sw_status_refused(j.out[t].status) != 0;
    if (j.ntodo > 0 && refused == j.ntodo) {
        char msg[1024];
        sw_refused_message(s, j.todo[0], &j.out[0], msg, sizeof msg);
        if (s->shard_n <= 1) {
            code = sw_refuse("sweep", msg);
            goto done;
        }
        fprintf(stderr, "xpbd-report sweep: shard %d/%d: %s (written: the merge refuses the "
                        "sweep if the other shards' are refused too)\n",
                s->shard_k, s->shard_n, msg);
    }
    char prov[1024];
    sw_provenance(prov, sizeof prov, s, sw_wall() - t0, j.ntodo);
    char *tmp = sw_tmpdir_make(s->out);
    if (!tmp)
        goto done;
    code = sw_write_output(s, rows, tmp, command, prov);
    if (code != SW_EXIT_FAIL && sw_write_shard_file(tmp, s) != 0)
        code = SW_EXIT_FAIL;
    if (code == SW_EXIT_FAIL) {
        sw_tree_remove(tmp);
    } else if (sw_commit(tmp, s->out) != 0) {
        code = SW_EXIT_FAIL;
    } else {
        fprintf(stderr, "xpbd-report sweep: %zu points into %s%s\n", j.ntodo, s->out,
                code == SW_EXIT_FIGURE ? " (the figure could not be rendered)" : "");
    }
    free(tmp);
done:
    for (size_t i = 0; rows && i < s->points; ++i)
        free(rows[i].line);
    free(rows);
    sw_results_free(j.out, j.ntodo);
    sw_results_free(j.ref, j.nref);
    free(j.out);
    free(j.ref);
    free(j.refpt);
    free(j.ref_of);
    free(j.todo);
    return code;
}

/* Builds the mesh scene at every combination of the mesh keys' values
 * the points use (the points whose other varied keys are at their first
 * value), so that a bad pin, density or mesh is refused before any point
 * runs. Returns 0, or -1 with the first failure in err. */
static int sw_mesh_check(const sw_spec *s, const sw_base *b, char *err, size_t errlen)
{
    for (size_t i = 0; i < s->points; ++i) {
        int first = 1;
        for (int j = 0; j < s->nvary && first; ++j)
            if (!sw_mesh_key(s->vary[j].key) && sw_point_index(s, i, j) != 0)
                first = 0;
        if (!first)
            continue;
        sw_point pt;
        sw_point_of(s, i, &pt);
        xpbd_replay_file f;
        const int st = sw_mesh_file(b, &pt, &f, err, errlen);
        xpbd_replay_free(&f);
        if (st != XPBD_OK)
            return -1;
    }
    return 0;
}

int xr_sweep_main(int argc, char **argv)
{
    for (int i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--list") == 0) {
            sw_list(stdout);
            return SW_EXIT_OK;
        }
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            sw_usage(stdout);
            return SW_EXIT_OK;
        }
    }
    sw_spec s;
    char err[1024];
    if (sw_parse(argc, argv, &s, 0, err, sizeof err) != 0 ||
        sw_out_check(s.out, err, sizeof err) != 0) {
        sw_spec_free(&s);
        return sw_refuse("sweep", err);
    }
    sw_base base;
    int n = 0;
    for (int k = 0; k < s.nset; ++k)
        if (s.set[k].key == SW_K_N)
            n = (int)s.set[k].v.num;
    const int st = s.scene == SW_REPLAY ? sw_base_load(&base, s.replay, err, sizeof err)
                   : s.scene == SW_MESH ? sw_base_load_mesh(&base, s.mesh, err, sizeof err)
                                        : sw_base_build(&base, s.scene, n, err, sizeof err);
    if (st == 0 && s.scene == SW_MESH && sw_mesh_check(&s, &base, err, sizeof err) != 0) {
        sw_base_free(&base);
        sw_spec_free(&s);
        return sw_refuse("sweep", err);
    }
    if (st != 0) {
        const int replay = s.scene == SW_REPLAY || s.scene == SW_MESH;
        sw_spec_free(&s);
        if (replay)
            return sw_refuse("sweep", err);
        fprintf(stderr, "xpbd-report sweep: %s\n", err);
        return SW_EXIT_FAIL;
    }
    char *command = sw_command(argc - 1, argv + 1, "xpbd-report sweep");
    const int code = command ? sw_execute(&s, &base, command) : SW_EXIT_FAIL;
    free(command);
    sw_base_free(&base);
    sw_spec_free(&s);
    return code;
}

/* --------------------------------------------------------------- merge --- */

static char *sw_slurp(const char *dir, const char *name)
{
    const size_t len = strlen(dir) + strlen(name) + 2;
    char *p = malloc(len);
    if (!p)
        return NULL;
    snprintf(p, len, "%s/%s", dir, name);
    FILE *f = fopen(p, "rb");
    free(p);
    if (!f)
        return NULL;
    char *buf = NULL;
    size_t n = 0, cap = 0;
    for (int c; (c = fgetc(f)) != EOF;) {
        if (n + 2 > cap) {
            char *b = realloc(buf, cap = 2 * cap + 4096);
            if (!b) {
                free(buf);
                fclose(f);
                return NULL;
            }
            buf = b;
        }
        buf[n++] = (char)c;
    }
    fclose(f);
    if (!buf && !(buf = calloc(1, 1)))
        return NULL;
    buf[n] = 0;
    return buf;
}

/* The spec of a sweep from its args file (one token a line). */
static int sw_spec_from_args(const char *args, sw_spec *s, char *err, size_t errlen)
{
    char *copy = strdup(args);
    size_t n = 2;
    for (const char *p = args; *p; ++p)
        n += *p == '\n';
    char **argv = calloc(n, sizeof *argv);
    if (!copy || !argv) {
        free(copy);
        free(argv);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    int argc = 0;
    argv[argc++] = (char *)"sweep";
    for (char *save = NULL, *t = strtok_r(copy, "\n", &save); t; t = strtok_r(NULL, "\n", &save))
        argv[argc++] = t;
    const int r = sw_parse(argc, argv, s, 1, err, errlen);
    free(argv);
    free(copy);
    return r;
}

/* Reads one shard's rows into rows[] (which owns the lines). */
static int sw_merge_rows(const sw_spec *s, const char *dir, const char *tsv, sw_row *rows,
                         char *err, size_t errlen)
{
    char *header = sw_header(s);
    const char *line = tsv;
    const char *nl = strchr(line, '\n');
    if (!header || !nl || strncmp(line, header, (size_t)(nl - line)) != 0 ||
        strlen(header) != (size_t)(nl - line)) {
        snprintf(err, errlen, "%s/data/sweep.tsv: the header is not this sweep's", dir);
        free(header);
        return -1;
    }
    free(header);
    for (line = nl + 1; *line; line = nl + 1) {
        nl = strchr(line, '\n');
        if (!nl)
            nl = line + strlen(line);
        const size_t len = (size_t)(nl - line);
        char *row = malloc(len + 1);
        if (!row) {
            snprintf(err, errlen, "out of memory");
            return -1;
        }
        memcpy(row, line, len);
        row[len] = 0;
        /* the point from its key values */
        size_t point = 0, stride = 1;
        char *save = NULL, *f = strtok_r(row, "\t", &save);
        int ok = 1;
        for (int j = 0; j < s->nvary && ok; ++j) {
            int idx = -1;
            for (int i = 0; f && i < s->vary[j].count; ++i)
                if (strcmp(f, s->vary[j].v[i].text) == 0)
                    idx = i;
            ok = idx >= 0;
            point += (size_t)(idx < 0 ? 0 : idx) * stride;
            stride *= (size_t)s->vary[j].count;
            f = strtok_r(NULL, "\t", &save);
        }
        if (!ok || !f) {
            snprintf(err, errlen, "%s/data/sweep.tsv: a row that is not a point of this sweep",
                     dir);
            free(row);
            return -1;
        }
        if (rows[point].present) {
            snprintf(err, errlen, "%s/data/sweep.tsv: point %zu is in two of the directories",
                     dir, point);
            free(row);
            return -1;
        }
        sw_row *r = &rows[point];
        snprintf(r->status, sizeof r->status, "%s", f);
        for (int m = 0; m < SW_NMETRICS; ++m)
            r->m[m] = NAN;
        for (int k = 0; k < s->nmetric; ++k) {
            f = strtok_r(NULL, "\t", &save);
            r->m[s->metric[k]] = f ? strtod(f, NULL) : NAN;
        }
        memcpy(row, line, len); /* strtok cut it */
        r->line = row;
        r->present = 1;
        if (!*nl)
            break;
    }
    return 0;
}

/* Every point refused for its values: refused, as the sweep itself would
 * be (its shards are written, each a part of it). Returns 1 with the
 * message in err, else 0. */
static int sw_all_refused(const sw_spec *s, const sw_row *rows, char *err, size_t errlen)
{
    size_t refused = 0;
    for (size_t i = 0; i < s->points; ++i)
        refused += sw_status_name_refused(rows[i].status) != 0;
    if (s->points > 0 && refused == s->points) {
        char keys[512] = "";
        size_t len = 0;
        for (int j = 0; j < s->nvary; ++j) {
            const int w = snprintf(keys + len, sizeof keys - len, "%s%s=%s", j ? " " : "",
                                   sw_keys[s->vary[j].key].name,
                                   s->vary[j].v[sw_point_index(s, 0, j)].text);
            len = w < 0 || (size_t)w >= sizeof keys - len ? sizeof keys - 1 : len + (size_t)w;
        }
        snprintf(err, errlen,
                 "every point of the sweep was refused, none ran: the first, point 0 at %s, "
                 "is %s",
                 keys, rows[0].status);
        return 1;
    }
    return 0;
}

/* Writes the merged sweep into out: the rows, with the provenance of the
 * directories merged and the sweep they came from. Returns the exit
 * status. */
static int sw_merge_write(sw_spec *s, sw_row *rows, const char *out, int argc, char **argv,
                          const char *const *dirs, int ndirs, const char *args)
{
    char *command = sw_command(argc - 1, argv + 1, "xpbd-report merge");
    /* provenance: the directories and the sweep they came from */
    char prov[4096];
    size_t len = 0;
#define SW_PROV(...)                                                                           \
    do {                                                                                       \
        if (len < sizeof prov) {                                                               \
            const int w = snprintf(prov + len, sizeof prov - len, __VA_ARGS__);                \
            len = w < 0 ? len : len + (size_t)w < sizeof prov ? len + (size_t)w : sizeof prov; \
        }                                                                                      \
    } while (0)
    SW_PROV("* merged from %d director%s:", ndirs, ndirs == 1 ? "y" : "ies");
    for (int d = 0; d < ndirs; ++d)
        SW_PROV(" %s", dirs[d]);
    SW_PROV("\n* the sweep: `xpbd-report sweep ");
    for (const char *p = args; *p; ++p)
        SW_PROV("%c", *p == '\n' ? ' ' : *p);
    SW_PROV("--out DIR`\n* each shard's command and machine are in its own sweep.md\n");
#undef SW_PROV
    char *tmp = command ? sw_tmpdir_make(out) : NULL;
    s->out = out;
    int code = tmp ? sw_write_output(s, rows, tmp, command, prov) : SW_EXIT_FAIL;
    sw_spec shardless = *s;
    shardless.shard_k = shardless.shard_n = 0;
    if (code != SW_EXIT_FAIL && sw_write_shard_file(tmp, &shardless) != 0)
        code = SW_EXIT_FAIL;
    if (tmp && code == SW_EXIT_FAIL)
        sw_tree_remove(tmp);
    else if (tmp && sw_commit(tmp, out) != 0)
        code = SW_EXIT_FAIL;
    free(tmp);
    free(command);
    return code;
}

int xr_merge_main(int argc, char **argv)
{
    const char *out = NULL;
    const char *dirs[4096];
    int ndirs = 0;
    char err[1024];
    for (int i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            sw_usage(stdout);
            return SW_EXIT_OK;
        }
        if (strcmp(argv[i], "--out") == 0 && i + 1 < argc)
            out = argv[++i];
        else if (strncmp(argv[i], "--out=", 6) == 0)
            out = argv[i] + 6;
        else if (strncmp(argv[i], "--", 2) == 0)
            return sw_refuse("merge", "unknown option (valid: DIR1 DIR2 ... --out DIR)");
        else if (sw_is_tmp_name(argv[i]))
            /* a glob such as part-* also matches part-3.tmp-...: a run's
             * temporary directory (running, or left by a killed one) */
            fprintf(stderr, "xpbd-report merge: skipping %s (a sweep's or merge's temporary "
                            "directory, not an output)\n", argv[i]);
        else if (ndirs < 4096)
            dirs[ndirs++] = argv[i];
    }
    if (!out || ndirs == 0)
        return sw_refuse("merge", "needs DIR1 DIR2 ... --out DIR");
    char out_trim[4096];
    snprintf(out_trim, sizeof out_trim, "%s", out);
    for (size_t n = strlen(out_trim); n > 1 && out_trim[n - 1] == '/'; --n)
        out_trim[n - 1] = 0;
    out = out_trim;
    if (sw_out_check(out, err, sizeof err) != 0)
        return sw_refuse("merge", err);
    char *args = NULL;
    sw_spec s;
    memset(&s, 0, sizeof s);
    int code = SW_EXIT_USAGE, shard_n = -1;
    unsigned char *seen = NULL;
    sw_row *rows = NULL;
    for (int d = 0; d < ndirs; ++d) {
        char *a = sw_slurp(dirs[d], "data/sweep.args");
        char *sh = sw_slurp(dirs[d], "data/sweep.shard");
        int k = 0, n = 0;
        if (!a || !sh || sscanf(sh, "%d %d", &k, &n) != 2) {
            snprintf(err, sizeof err, "%s is not a sweep output (no data/sweep.args or "
                                      "data/sweep.shard)", dirs[d]);
            free(a);
            free(sh);
            goto refuse;
        }
        free(sh);
        if (!args) {
            args = a;
            if (sw_spec_from_args(args, &s, err, sizeof err) != 0)
                goto refuse;
            rows = calloc(s.points + 1, sizeof *rows);
            shard_n = n;
            seen = calloc((size_t)(n > 0 ? n : 1) + 1, 1);
            if (!rows || !seen) {
                code = SW_EXIT_FAIL;
                goto end;
            }
        } else {
            const int same = strcmp(a, args) == 0;
            free(a);
            if (!same) {
                snprintf(err, sizeof err, "%s is another sweep than %s (data/sweep.args differ)",
                         dirs[d], dirs[0]);
                goto refuse;
            }
            if (n != shard_n) {
                snprintf(err, sizeof err, "%s is a shard of %d, %s of %d", dirs[d], n, dirs[0],
                         shard_n);
                goto refuse;
            }
        }
        if (n > 0) {
            if (seen[k]) {
                snprintf(err, sizeof err, "shard %d/%d given twice (%s)", k, n, dirs[d]);
                goto refuse;
            }
            seen[k] = 1;
        }
        char *tsv = sw_slurp(dirs[d], "data/sweep.tsv");
        if (!tsv) {
            snprintf(err, sizeof err, "%s/data/sweep.tsv cannot be read", dirs[d]);
            goto refuse;
        }
        const int r = sw_merge_rows(&s, dirs[d], tsv, rows, err, sizeof err);
        free(tsv);
        if (r != 0)
            goto refuse;
    }
    for (int k = 1; k <= shard_n; ++k)
        if (!seen[k]) {
            snprintf(err, sizeof err, "shard %d/%d is missing (give every shard's directory)", k,
                     shard_n);
            goto refuse;
        }
    for (size_t i = 0; i < s.points; ++i)
        if (!rows[i].present) {
            snprintf(err, sizeof err, "point %zu is missing from every directory", i);
            goto refuse;
        }
    if (sw_all_refused(&s, rows, err, sizeof err))
        goto refuse;
    code = sw_merge_write(&s, rows, out, argc, argv, dirs, ndirs, args);
    goto end;
refuse:
    code = sw_refuse("merge", err);
end:
    for (size_t i = 0; rows && i < s.points; ++i)
        free(rows[i].line);
    free(rows);
    free(seen);
    free(args);
    sw_spec_free(&s);
    return code;
}
