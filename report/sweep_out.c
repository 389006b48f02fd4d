/* SPDX-License-Identifier: MIT */
/* The output of a sweep or a merge, written like a report section into a
 * temporary directory next to DIR and renamed into place at the end:
 *
 *   data/sweep.tsv    varied keys, status, metrics (%.17g), one row a point
 *   data/sweep.args   the tokens that define the points (merge checks them)
 *   plots/sweep.gp    generated; `cd DIR && gnuplot plots/sweep.gp` renders
 *                     fig/sweep.png and fig/sweep.pdf again
 *   fig/sweep.png, fig/sweep.pdf
 *   sweep.md          the command, provenance, the table */
#define _XOPEN_SOURCE 700
#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "report.h"
#include "sweep_internal.h"

int sw_point_index(const sw_spec *s, size_t i, int j)
{
    for (int k = 0; k < j; ++k)
        i /= (size_t)s->vary[k].count;
    return (int)(i % (size_t)s->vary[j].count);
}

char *sw_header(const sw_spec *s)
{
    size_t len = 16;
    for (int j = 0; j < s->nvary; ++j)
        len += strlen(sw_keys[s->vary[j].key].name) + 1;
    for (int m = 0; m < s->nmetric; ++m)
        len += strlen(sw_metrics[s->metric[m]].name) + 1;
    char *h = malloc(len);
    if (!h)
        return NULL;
    h[0] = 0;
    for (int j = 0; j < s->nvary; ++j) {
        strcat(h, sw_keys[s->vary[j].key].name);
        strcat(h, "\t");
    }
    strcat(h, "status");
    for (int m = 0; m < s->nmetric; ++m) {
        strcat(h, "\t");
        strcat(h, sw_metrics[s->metric[m]].name);
    }
    return h;
}

char *sw_row_line(const sw_spec *s, size_t point, const char *status, const double *m)
{
    const size_t len = (size_t)s->nvary * 33 + 33 + (size_t)s->nmetric * 33 + 1;
    char *line = malloc(len);
    if (!line)
        return NULL;
    size_t n = 0;
    for (int j = 0; j < s->nvary; ++j)
        n += (size_t)snprintf(line + n, len - n, "%s\t",
                              s->vary[j].v[sw_point_index(s, point, j)].text);
    n += (size_t)snprintf(line + n, len - n, "%s", status);
    for (int k = 0; k < s->nmetric; ++k) {
        const double v = m[s->metric[k]];
        if (isnan(v))
            n += (size_t)snprintf(line + n, len - n, "\tnan");
        else
            n += (size_t)snprintf(line + n, len - n, "\t%.17g", v);
    }
    return line;
}

/* ---------------------------------------------------------- directories --- */

static int sw_mkdir(const char *path)
{
    return mkdir(path, 0777) == 0 || errno == EEXIST ? 0 : -1;
}

static char *sw_cat(const char *a, const char *b)
{
    char *s = malloc(strlen(a) + strlen(b) + 1);
    if (s) {
        strcpy(s, a);
        strcat(s, b);
    }
    return s;
}

static int sw_is_file(const char *dir, const char *name)
{
    char *p = sw_cat(dir, name);
    struct stat st;
    const int ok = p && stat(p, &st) == 0 && S_ISREG(st.st_mode);
    free(p);
    return ok;
}

/* This host's name as it goes into a temporary directory's name: letters,
 * digits, '.', '-' and '_' (anything else as '_'), "host" when unknown. */
static void sw_host(char *buf, size_t size)
{
    char h[256] = "";
    if (gethostname(h, sizeof h - 1) != 0 || !h[0])
        snprintf(h, sizeof h, "host");
    h[sizeof h - 1] = 0;
    size_t n = 0;
    for (const char *c = h; *c && n + 1 < size; ++c)
        buf[n++] = strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-_", *c)
                       ? *c
                       : '_';
    buf[n] = 0;
}

/* "OUT.KIND-PID@HOST-XXXXXX" (a mkdtemp template), malloc'd */
static char *sw_owned_name(const char *out, const char *kind)
{
    char host[64], tail[128];
    sw_host(host, sizeof host);
    snprintf(tail, sizeof tail, ".%s-%ld@%s-XXXXXX", kind, (long)getpid(), host);
    return sw_cat(out, tail);
}

/* 1 if name (an entry of out's directory) is base + ".KIND-PID@HOST-XXXXXX"
 * of this host with a process id that no longer exists, else 0. */
static int sw_stale(const char *name, const char *base, const char *kind, const char *host)
{
    const size_t nb = strlen(base), nk = strlen(kind);
    if (strncmp(name, base, nb) != 0 || name[nb] != '.' || strncmp(name + nb + 1, kind, nk) != 0 ||
        name[nb + 1 + nk] != '-')
        return 0;
    const char *p = name + nb + nk + 2;
    char *end;
    errno = 0;
    const long pid = strtol(p, &end, 10);
    if (end == p || *end != '@' || errno || pid <= 0 || (long)(pid_t)pid != pid)
        return 0;
    const char *h = end + 1, *dash = strrchr(h, '-');
    if (!dash || strlen(dash + 1) != 6 || (size_t)(dash - h) != strlen(host) ||
        strncmp(h, host, strlen(host)) != 0)
        return 0; /* another host's (its process cannot be asked) or not ours */
    /* this process has made none yet: one of its own pid is a dead one's */
    return (pid_t)pid == getpid() || (kill((pid_t)pid, 0) != 0 && errno == ESRCH);
}

/* Removes (or, for a moved-aside earlier output whose out is missing,
 * restores) the stale temporary directories of out; see sweep_internal.h. */
static void sw_stale_clean(const char *out)
{
    const char *slash = strrchr(out, '/');
    const char *base = slash ? slash + 1 : out;
    const size_t dirlen = !slash ? 1 : slash == out ? 1 : (size_t)(slash - out);
    char *dir = malloc(dirlen + 1);
    if (!dir)
        return;
    memcpy(dir, slash ? out : ".", dirlen);
    dir[dirlen] = 0;
    char host[64];
    sw_host(host, sizeof host);
    DIR *d = *base ? opendir(dir) : NULL;
    if (!d) {
        free(dir);
        return;
    }
    for (struct dirent *e; (e = readdir(d));) {
        const int tmp = sw_stale(e->d_name, base, "tmp", host),
                  old = !tmp && sw_stale(e->d_name, base, "old", host);
        if (!tmp && !old)
            continue;
        /* out's own directory part (up to its last '/') and the entry */
        const int pre = slash ? (int)(slash - out + 1) : 0;
        const size_t len = (size_t)pre + strlen(e->d_name) + 1;
        char *path = malloc(len);
        if (!path)
            break;
        snprintf(path, len, "%.*s%s", pre, out, e->d_name);
        struct stat st;
        if (lstat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
            if (old && lstat(out, &st) != 0 && errno == ENOENT && rename(path, out) == 0) {
                fprintf(stderr, "xpbd-report: restored %s from %s, left by a process that is "
                                "gone\n", out, path);
            } else {
                sw_tree_remove(path);
                fprintf(stderr, "xpbd-report: removed %s, left by a process that is gone\n", path);
            }
        }
        free(path);
    }
    closedir(d);
    free(dir);
}

char *sw_tmpdir_make(const char *out)
{
    sw_stale_clean(out);
    char *t = sw_owned_name(out, "tmp");
    if (!t || !mkdtemp(t)) {
        fprintf(stderr, "xpbd-report: cannot create a temporary directory next to %s: %s\n", out,
                strerror(errno));
        free(t);
        return NULL;
    }
    return t;
}

int sw_is_tmp_name(const char *path)
{
    size_t n = strlen(path);
    while (n > 1 && path[n - 1] == '/')
        --n;
    size_t b = n;
    while (b > 0 && path[b - 1] != '/')
        --b;
    for (size_t i = b; i + 5 <= n; ++i)
        if (strncmp(path + i, ".tmp-", 5) == 0 || strncmp(path + i, ".old-", 5) == 0)
            return 1;
    return 0;
}

static int sw_unlink_cb(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb;
    (void)flag;
    (void)ftw;
    remove(path); /* best effort: what cannot be removed is left */
    return 0;
}

void sw_tree_remove(const char *path)
{
    nftw(path, sw_unlink_cb, 16, FTW_DEPTH | FTW_PHYS);
}

/* 1 empty directory, 2 an earlier sweep output, 0 missing, -1 other */
static int sw_out_kind(const char *out)
{
    struct stat st;
    if (stat(out, &st) != 0)
        return errno == ENOENT ? 0 : -1;
    if (!S_ISDIR(st.st_mode))
        return -1;
    if (sw_is_file(out, "/sweep.md") && sw_is_file(out, "/data/sweep.args"))
        return 2;
    DIR *d = opendir(out);
    if (!d)
        return -1;
    int entries = 0;
    for (struct dirent *e; (e = readdir(d));)
        entries += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    closedir(d);
    return entries == 0 ? 1 : -1;
}

int sw_out_check(const char *out, char *err, size_t errlen)
{
    if (sw_out_kind(out) < 0) {
        snprintf(err, errlen,
                 "--out %s exists and is not an earlier sweep output (valid: a new or empty "
                 "directory, or one a sweep wrote)",
                 out);
        return -1;
    }
    return 0;
}

int sw_commit(const char *tmp, const char *out)
{
    const char *hold = getenv("XPBD_SWEEP_TEST_HOLD");
    if (hold && *hold) {
        fprintf(stderr, "xpbd-report: test hook XPBD_SWEEP_TEST_HOLD: %s written, holding %s s "
                        "before the rename\n", tmp, hold);
        sleep((unsigned)strtoul(hold, NULL, 10));
    }
    const int kind = sw_out_kind(out);
    char *old = NULL;
    if (kind < 0) {
        fprintf(stderr, "xpbd-report: --out %s is no longer replaceable\n", out);
        sw_tree_remove(tmp);
        return -1;
    }
    if (kind == 1)
        rmdir(out);
    if (kind == 2) {
        old = sw_owned_name(out, "old");
        if (!old || !mkdtemp(old) || rmdir(old) != 0 || rename(out, old) != 0) {
            fprintf(stderr, "xpbd-report: cannot move the earlier %s aside: %s\n", out,
                    strerror(errno));
            free(old);
            sw_tree_remove(tmp);
            return -1;
        }
    }
    if (rename(tmp, out) != 0) {
        fprintf(stderr, "xpbd-report: cannot rename %s to %s: %s\n", tmp, out, strerror(errno));
        if (old)
            rename(old, out);
        free(old);
        sw_tree_remove(tmp);
        return -1;
    }
    if (old)
        sw_tree_remove(old);
    free(old);
    return 0;
}

/* ------------------------------------------------------------- script --- */

/* Text for a gnuplot single-quoted string shown in enhanced mode: quotes
 * doubled, the enhanced-text markers (_ ^ { } @ & ~) escaped. */
static void sw_gp_text(FILE *f, const char *s)
{
    for (; *s; ++s) {
        if (*s == '\'')
            fputc('\'', f);
        else if (strchr("_^{}@&~", *s))
            fputc('\\', f);
        fputc(*s, f);
    }
}

static void sw_gp_str(FILE *f, const char *s)
{
    fputc('\'', f);
    sw_gp_text(f, s);
    fputc('\'', f);
}

/* 'NAME (UNIT)' or 'NAME' */
static void sw_gp_label(FILE *f, const char *name, const char *unit, int categorical)
{
    /* the report's figures' convention (fw/common.gp): the unit in
     * brackets, [1] for a dimensionless number, "(categories)" for names */
    fputc('\'', f);
    sw_gp_text(f, name);
    if (categorical)
        fputs(" (categories)", f);
    else
        fprintf(f, " [%s]", unit[0] ? unit : "1");
    fputc('\'', f);
}

/* Whether key j's axis is logarithmic: given as a log range, or numeric,
 * positive and spanning two decades or more. */
static int sw_log_axis(const sw_vary *v)
{
    if (sw_keys[v->key].kind >= SW_ENUM)
        return 0;
    if (v->log)
        return 1;
    double lo = HUGE_VAL, hi = -HUGE_VAL;
    for (int i = 0; i < v->count; ++i) {
        lo = fmin(lo, v->v[i].num);
        hi = fmax(hi, v->v[i].num);
    }
    return lo > 0 && hi / lo >= 10;
}

/* The x value of a row: the key's number, or its choice's position. */
static void sw_gp_x(FILE *f, const sw_vary *v)
{
    const char *name = sw_keys[v->key].name;
    if (sw_keys[v->key].kind < SW_ENUM) {
        fprintf(f, "column('%s')", name);
        return;
    }
    fputc('(', f);
    for (int i = 0; i < v->count; ++i)
        fprintf(f, "strcol('%s') eq '%s' ? %d : ", name, v->v[i].text, i);
    fprintf(f, "NaN)");
}

static void sw_write_gp(FILE *f, const sw_spec *s, const sw_row *rows, const char *title)
{
    const int nm = s->nmetric, cols = nm < 3 ? nm : 3, lines_rows = (nm + cols - 1) / cols;
    const sw_vary *x = &s->vary[0];
    size_t series = 1;
    for (int j = 1; j < s->nvary; ++j)
        series *= (size_t)s->vary[j].count;
    fprintf(f,
            "# sweep.gp: the figure of this sweep (generated by xpbd-report). Re-render it with\n"
            "#   cd DIR && gnuplot plots/sweep.gp\n"
            "# which writes fig/sweep.png and fig/sweep.pdf; or render one file with\n"
            "#   gnuplot -e \"data='data/sweep.tsv'; out='x.png'; fmt='png'\" plots/sweep.gp\n"
            "# One panel per metric; x = %s; one line per value of the other varied keys.\n",
            sw_keys[x->key].name);
    fprintf(f, "if (!exists('data')) data = 'data/sweep.tsv'\n"
               "formats = exists('fmt') ? fmt : 'png pdf'\n"
               "set datafile separator tab\n"
               "set datafile columnheaders\n"
               "set encoding utf8\n"
               "C = '#0072b2 #e69f00 #009e73 #d55e00 #cc79a7 #8c564b #555555 #56b4e9'\n");
    fprintf(f, "do for [fm in formats] {\n"
               "  if (fm eq 'pdf') {\n"
               "    set terminal pdfcairo enhanced color font 'Sans,9' size %.1fin,%.1fin\n"
               "  } else {\n"
               "    set terminal pngcairo enhanced color font 'Sans,10' size %d,%d\n"
               "  }\n"
               "  set output (exists('out') && exists('fmt')) ? out : 'fig/sweep.' . fm\n",
            4.2 * cols, 3.4 * lines_rows + 0.4, 520 * cols, 420 * lines_rows + 40);
    fprintf(f, "  set multiplot layout %d, %d title ", lines_rows, cols);
    sw_gp_str(f, title);
    fprintf(f, "\n  set grid lc rgb '#e4e4e4'\n  set autoscale xfix\n  set offsets graph 0.03, graph 0.03, 0, 0\n  set key outside below center horizontal nobox samplen 2 font ',9'\n"
               "  set xlabel ");
    sw_gp_label(f, sw_keys[x->key].name, sw_keys[x->key].unit, sw_keys[x->key].kind >= SW_ENUM);
    fprintf(f, "\n");
    if (sw_log_axis(x))
        fprintf(f, "  set logscale x\n  set format x '10^{%%L}'\n");
    else
        fprintf(f, "  unset logscale x\n");
    if (sw_keys[x->key].kind >= SW_ENUM) {
        fprintf(f, "  set xtics (");
        for (int i = 0; i < x->count; ++i)
        {
            /* a tic label is a format: a pin's % doubled */
            char tic[64];
            size_t o = 0;
            for (const char *c = x->v[i].text; *c && o + 2 < sizeof tic; ++c) {
                if (*c == '%')
                    tic[o++] = '%';
                tic[o++] = *c;
            }
            tic[o] = 0;
            fprintf(f, "%s", i ? ", " : "");
            sw_gp_str(f, tic);
            fprintf(f, " %d", i);
        }
        fprintf(f, ")\n  set xrange [-0.5:%d.5]\n", x->count - 1);
    }
    for (int k = 0; k < nm; ++k) {
        const int m = s->metric[k];
        /* log y when the positive values span two decades or more (values
         * <= 0 are then left out, and the title says so) */
        double lo = HUGE_VAL, hi = -HUGE_VAL;
        size_t finite = 0, positive = 0;
        for (size_t i = 0; i < s->points; ++i)
            if (rows[i].present && isfinite(rows[i].m[m])) {
                ++finite;
                if (rows[i].m[m] > 0) {
                    ++positive;
                    lo = fmin(lo, rows[i].m[m]);
                    hi = fmax(hi, rows[i].m[m]);
                }
            }
        const int logy = positive >= 2 && 4 * positive >= 3 * finite && hi / lo >= 100;
        fprintf(f, "  set title '");
        sw_gp_text(f, sw_metrics[m].name);
        fprintf(f, "%s'\n  set ylabel ", logy && positive < finite ? " (values <= 0 not shown)" : "");
        sw_gp_label(f, sw_metrics[m].name, sw_metrics[m].unit, 0);
        fprintf(f, "\n");
        if (finite == 0) {
            fprintf(f, "  unset logscale y\n  set yrange [0:1]\n"
                       "  set label 1 'no finite values' at graph 0.5, 0.5 center\n"
                       "  plot -1 notitle\n  unset label 1\n  set autoscale y\n");
            continue;
        }
        if (logy)
            fprintf(f, "  set logscale y\n  set format y '10^{%%L}'\n");
        else
            fprintf(f, "  unset logscale y\n  set format y '%%g'\n");
        fprintf(f, "  plot ");
        for (size_t sidx = 0; sidx < series; ++sidx) {
            fprintf(f, "%sdata using (", sidx ? ", \\\n       " : "");
            size_t rest = sidx;
            for (int j = 1; j < s->nvary; ++j) {
                const sw_vary *v = &s->vary[j];
                fprintf(f, "strcol('%s') eq '%s' && ", sw_keys[v->key].name,
                        v->v[rest % (size_t)v->count].text);
                rest /= (size_t)v->count;
            }
            fprintf(f, "1 ? ");
            sw_gp_x(f, x);
            fprintf(f, " : NaN):(column('%s')) with linespoints pt 7 ps 0.6 lw 1.5 lc rgb word(C, "
                       "%zu) ",
                    sw_metrics[m].name, sidx % 8 + 1);
            if (s->nvary == 1) {
                fprintf(f, "notitle");
                continue;
            }
            fprintf(f, "title '");
            rest = sidx;
            for (int j = 1; j < s->nvary; ++j) {
                const sw_vary *v = &s->vary[j];
                fprintf(f, "%s", j > 1 ? ", " : "");
                sw_gp_text(f, sw_keys[v->key].name);
                fprintf(f, " = ");
                sw_gp_text(f, v->v[rest % (size_t)v->count].text);
                rest /= (size_t)v->count;
            }
            fprintf(f, "'");
        }
        fprintf(f, "\n");
    }
    fprintf(f, "  unset multiplot\n  set output\n}\n");
}

/* ------------------------------------------------------------- writing --- */

static FILE *sw_open(const char *dir, const char *name)
{
    char *p = sw_cat(dir, name);
    FILE *f = p ? fopen(p, "w") : NULL;
    if (!f)
        fprintf(stderr, "xpbd-report: cannot write %s%s: %s\n", dir, name, strerror(errno));
    free(p);
    return f;
}

static int sw_close(FILE *f, int ok)
{
    if (fclose(f) != 0)
        ok = 0;
    return ok;
}

static void sw_md_num(FILE *f, double v)
{
    if (isnan(v))
        fprintf(f, " n/a |");
    else
        fprintf(f, " %.6g |", v);
}

static void sw_write_md(FILE *f, const sw_spec *s, const sw_row *rows, const char *title,
                        const char *command, const char *provenance)
{
    fprintf(f, "# %s\n\n", title);
    fprintf(f, "```\n%s\n```\n\n", command);
    fprintf(f, "%s\n", provenance);
    fprintf(f, "![sweep](fig/sweep.png)\n\n");
    fprintf(f, "Figure: one panel per metric against %s", sw_keys[s->vary[0].key].name);
    if (s->nvary > 1)
        fprintf(f, ", one line per value of the other varied keys");
    fprintf(f, " ([PDF](fig/sweep.pdf), script [plots/sweep.gp](plots/sweep.gp), data "
               "[data/sweep.tsv](data/sweep.tsv) at full precision).\n\n");
    fprintf(f, "Metrics:\n\n");
    for (int k = 0; k < s->nmetric; ++k) {
        const sw_metric_info *m = &sw_metrics[s->metric[k]];
        fprintf(f, "* `%s`%s%s%s: %s\n", m->name, m->unit[0] ? " (" : "", m->unit,
                m->unit[0] ? ")" : "", m->doc);
    }
    fprintf(f, "\n|");
    for (int j = 0; j < s->nvary; ++j)
        fprintf(f, " %s |", sw_keys[s->vary[j].key].name);
    fprintf(f, " status |");
    for (int k = 0; k < s->nmetric; ++k)
        fprintf(f, " %s |", sw_metrics[s->metric[k]].name);
    fprintf(f, "\n|");
    for (int j = 0; j < s->nvary + 1 + s->nmetric; ++j)
        fprintf(f, "---|");
    fprintf(f, "\n");
    const size_t cap = 2000;
    size_t shown = 0, present = 0;
    for (size_t i = 0; i < s->points; ++i) {
        if (!rows[i].present)
            continue;
        ++present;
        if (shown == cap)
            continue;
        ++shown;
        fprintf(f, "|");
        for (int j = 0; j < s->nvary; ++j)
            fprintf(f, " %s |", s->vary[j].v[sw_point_index(s, i, j)].text);
        fprintf(f, " %s |", rows[i].status);
        for (int k = 0; k < s->nmetric; ++k)
            sw_md_num(f, rows[i].m[s->metric[k]]);
        fprintf(f, "\n");
    }
    if (shown < present)
        fprintf(f, "\n(%zu of %zu rows shown; every row is in data/sweep.tsv.)\n", shown, present);
}

int sw_write_output(const sw_spec *s, const sw_row *rows, const char *tmpdir, const char *command,
                    const char *provenance)
{
    char *d[3] = {sw_cat(tmpdir, "/data"), sw_cat(tmpdir, "/fig"), sw_cat(tmpdir, "/plots")};
    int ok = d[0] && d[1] && d[2];
    for (int i = 0; ok && i < 3; ++i)
        ok = sw_mkdir(d[i]) == 0;
    for (int i = 0; i < 3; ++i)
        free(d[i]);
    if (!ok) {
        fprintf(stderr, "xpbd-report: cannot create directories in %s: %s\n", tmpdir,
                strerror(errno));
        return 1;
    }
    char title[256];
    snprintf(title, sizeof title, "Sweep of %s%s",
             s->scene == SW_REPLAY ? "replay " : s->scene == SW_MESH ? "mesh " : "",
             s->scene == SW_REPLAY ? s->replay
             : s->scene == SW_MESH ? s->mesh
                                   : sw_scenes[s->scene].name);
    for (int k = 0; k < s->nset; ++k) {
        const size_t len = strlen(title);
        snprintf(title + len, sizeof title - len, "%s%s = %s", k ? ", " : " (",
                 sw_keys[s->set[k].key].name, s->set[k].v.text);
        if (k + 1 == s->nset && strlen(title) + 2 < sizeof title)
            strcat(title, ")");
    }
    if (s->shard_n) {
        const size_t len = strlen(title);
        snprintf(title + len, sizeof title - len, " (shard %d of %d)", s->shard_k, s->shard_n);
    }

    FILE *f = sw_open(tmpdir, "/data/sweep.tsv");
    if (!f)
        return 1;
    char *h = sw_header(s);
    ok = h != NULL;
    if (ok)
        fprintf(f, "%s\n", h);
    free(h);
    for (size_t i = 0; ok && i < s->points; ++i)
        if (rows[i].present)
            fprintf(f, "%s\n", rows[i].line);
    if (!sw_close(f, ok))
        return 1;

    if (!(f = sw_open(tmpdir, "/data/sweep.args")))
        return 1;
    fputs(s->args, f);
    if (!sw_close(f, 1))
        return 1;

    if (!(f = sw_open(tmpdir, "/plots/sweep.gp")))
        return 1;
    sw_write_gp(f, s, rows, title);
    if (!sw_close(f, 1))
        return 1;

    if (!(f = sw_open(tmpdir, "/sweep.md")))
        return 1;
    sw_write_md(f, s, rows, title, command, provenance);
    if (!sw_close(f, 1))
        return 1;

    char *gp = sw_cat(tmpdir, "/plots/sweep.gp"), *data = sw_cat(tmpdir, "/data"),
         *stem = sw_cat(tmpdir, "/fig/sweep");
    const int rendered = gp && data && stem && xr_gnuplot_render(gp, data, stem) == 0;
    free(gp);
    free(data);
    free(stem);
    return rendered ? 0 : 3;
}
