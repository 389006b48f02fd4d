/* SPDX-License-Identifier: MIT */
/* util.c: growing buffers, paths, files and child processes for the
 * xpbd-report framework (fw.h).
 *
 * External programs run through fork/execvp, never a shell, so no path needs
 * shell quoting. */
#define _XOPEN_SOURCE 700 /* POSIX.1-2008 with realpath */

#include "fw.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

void xr_die_nomem(void)
{
    fputs("xpbd-report: out of memory\n", stderr);
    exit(XR_EXIT_CHECKS);
}

static void xr_buf_reserve(xr_buf *b, size_t more)
{
    if (b->len + more + 1 <= b->cap)
        return;
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->len + more + 1)
        cap *= 2;
    char *s = realloc(b->s, cap);
    if (!s)
        xr_die_nomem();
    b->s = s;
    b->cap = cap;
}

void xr_buf_vprintf(xr_buf *b, const char *fmt, va_list ap)
{
    va_list ap2;
    va_copy(ap2, ap);
    const int n = vsnprintf(NULL, 0, fmt, ap2);
    va_end(ap2);
    if (n < 0)
        return;
    xr_buf_reserve(b, (size_t)n);
    vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
    b->len += (size_t)n;
}

void xr_buf_printf(xr_buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    xr_buf_vprintf(b, fmt, ap);
    va_end(ap);
}

void xr_buf_put(xr_buf *b, const char *s, size_t n)
{
    xr_buf_reserve(b, n);
    memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = 0;
}

char *xr_strdup(const char *s)
{
    if (!s)
        return NULL;
    const size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (!d)
        xr_die_nomem();
    memcpy(d, s, n);
    return d;
}

char *xr_path(const char *a, const char *b, const char *c)
{
    xr_buf p = {0};
    xr_buf_printf(&p, "%s%s%s", a, b ? b : "", c ? c : "");
    return p.s;
}

void *xr_grow(void *arr, size_t *cap, size_t n, size_t sz)
{
    if (n < *cap)
        return arr;
    const size_t c = *cap ? 2 * *cap : 16;
    void *a = realloc(arr, c * sz);
    if (!a)
        xr_die_nomem();
    *cap = c;
    return a;
}

FILE *xr_create(const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f)
        fprintf(stderr, "xpbd-report: cannot write %s: %s\n", path, strerror(errno));
    return f;
}

static int xr_mkdir(const char *path)
{
    if (mkdir(path, 0777) == 0 || errno == EEXIST)
        return 0;
    return -1;
}

int xr_mkdir_p(const char *path)
{
    char *p = xr_strdup(path);
    for (char *s = p + 1; *s; ++s)
        if (*s == '/') {
            *s = 0;
            xr_mkdir(p);
            *s = '/';
        }
    const int r = xr_mkdir(p);
    free(p);
    return r;
}

int xr_is_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0;
}

int xr_is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

char *xr_dir_beside_exe(const char *argv0, const char *rel)
{
    char exe[4096];
    const ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = 0;
    } else if (argv0 && strchr(argv0, '/') && strlen(argv0) < sizeof exe) {
        memcpy(exe, argv0, strlen(argv0) + 1);
    } else {
        return NULL;
    }
    char *slash = strrchr(exe, '/');
    if (!slash)
        return NULL;
    slash[1] = 0;
    char *joined = xr_path(exe, rel, NULL);
    char *resolved = realpath(joined, NULL);
    free(joined);
    if (resolved && !xr_is_dir(resolved)) {
        free(resolved);
        resolved = NULL;
    }
    return resolved;
}

char *xr_path_relative(const char *from_dir, const char *to)
{
    char *from = realpath(from_dir, NULL), *dest = realpath(to, NULL);
    char *rel = NULL;
    if (from && dest) {
        /* the longest common prefix that ends at a component boundary */
        size_t common = 0;
        for (size_t i = 0;; ++i) {
            const int end_f = from[i] == '\0' || from[i] == '/';
            const int end_d = dest[i] == '\0' || dest[i] == '/';
            if (end_f && end_d)
                common = i;
            if (from[i] != dest[i] || from[i] == '\0')
                break;
        }
        xr_buf b = {0};
        for (const char *c = from + common; *c; ++c)
            if (*c == '/' && c[1] != '\0' && c[1] != '/')
                xr_buf_printf(&b, "%s..", b.len ? "/" : "");
        const char *rest = dest + common + (dest[common] == '/');
        if (*rest)
            xr_buf_printf(&b, "%s%s", b.len ? "/" : "", rest);
        rel = b.len ? b.s : xr_strdup(".");
        if (!b.len)
            free(b.s);
    }
    free(from);
    free(dest);
    return rel;
}

char *xr_slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    xr_buf b = {0};
    char chunk[8192];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
        xr_buf_put(&b, chunk, n);
    fclose(f);
    if (!b.s)
        xr_buf_put(&b, "", 0);
    if (len)
        *len = b.len;
    return b.s;
}

double xr_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Starts argv with stdin from /dev/null, stdout to out_path and stderr to
 * err_path (NULL: /dev/null; the same path: one file). */
static pid_t xr_spawn_to(char *const argv[], const char *out_path, const char *err_path)
{
    fflush(stdout);
    fflush(stderr);
    const pid_t pid = fork();
    if (pid != 0)
        return pid;
    const int in = open("/dev/null", O_RDONLY);
    const int out = open(out_path ? out_path : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0666);
    const int same = out_path && err_path && strcmp(out_path, err_path) == 0;
    const int err =
        same ? out : open(err_path ? err_path : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0666);
    if (in >= 0)
        dup2(in, 0);
    if (out >= 0)
        dup2(out, 1);
    if (err >= 0)
        dup2(err, 2);
    execvp(argv[0], argv);
    _exit(127);
}

pid_t xr_spawn(char *const argv[], const char *log)
{
    return xr_spawn_to(argv, log, log);
}

int xr_run_to(char *const argv[], const char *out_path, const char *err_path)
{
    const pid_t pid = xr_spawn_to(argv, out_path, err_path);
    return pid < 0 ? -1 : xr_wait(pid);
}

int xr_wait(pid_t pid)
{
    int st;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR)
            return -1;
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

int xr_run(char *const argv[], const char *log)
{
    const pid_t pid = xr_spawn(argv, log);
    return pid < 0 ? -1 : xr_wait(pid);
}

const char *xr_program(const char *env, const char *dflt)
{
    const char *p = getenv(env);
    return p && *p ? p : dflt;
}

void xr_job_free(xr_job *j)
{
    for (int i = 0; i < XR_JOB_ARGS; ++i)
        free(j->argv[i]);
    free(j->log);
    free(j->target);
    free(j->target2);
}

void xr_run_jobs(xr_ctx *ctx, xr_job *jobs, size_t n, size_t width)
{
    size_t next = 0, running = 0, finished = 0;
    while (finished < n) {
        while (running < width && next < n) {
            jobs[next].pid = xr_spawn(jobs[next].argv, jobs[next].log);
            if (jobs[next].pid < 0) {
                fprintf(stderr, "xpbd-report: cannot start %s: %s\n", jobs[next].argv[0],
                        strerror(errno));
                ++finished;
            } else {
                ++running;
            }
            ++next;
        }
        int st;
        const pid_t pid = waitpid(-1, &st, 0);
        if (pid < 0) {
            if (errno == EINTR)
                continue;
            break;
        }
        for (size_t i = 0; i < next; ++i) {
            if (jobs[i].pid != pid)
                continue;
            jobs[i].pid = 0;
            --running;
            ++finished;
            const int code = WIFEXITED(st) ? WEXITSTATUS(st) : 128;
            const int ok1 = code == 0 && xr_is_file(jobs[i].target);
            const int ok2 = !jobs[i].target2 || (code == 0 && xr_is_file(jobs[i].target2));
            if (ok1)
                *jobs[i].done = 1;
            if (ok2 && jobs[i].target2)
                *jobs[i].done2 = 1;
            if (ok1 && ok2) {
                remove(jobs[i].log);
            } else {
                char *log = xr_slurp(jobs[i].log, NULL);
                fprintf(stderr, "xpbd-report: %s failed (exit %d) for %s%s%s\n", jobs[i].argv[0],
                        code, jobs[i].target, log && *log ? ":\n" : "", log ? log : "");
                fprintf(stderr, "  (log kept in %s)\n", jobs[i].log);
                free(log);
            }
            xr_progress_line(ctx, "rendering figures %zu/%zu", finished, n);
        }
    }
}

/* ------------------------------------------------------------ notation --- */

typedef struct xr_symbol {
    const char *ascii, *utf8, *roff;
} xr_symbol;

/* alpha~ before alpha: the longer name first */
static const xr_symbol xr_symbols[] = {
    {"alpha~", "\xce\xb1\xcc\x83", "\\o'\\(*a\\[a~]'"}, /* α̃ = α/h_s², the scaled compliance */
    {"alpha", "\xce\xb1", "\\(*a"},                     /* α */
    {"lambda", "\xce\xbb", "\\(*l"},                    /* λ */
    {"beta", "\xce\xb2", "\\(*b"},                      /* β */
    {"mu", "\xce\xbc", "\\(*m"},                        /* μ */
    {"omega", "\xcf\x89", "\\(*w"},                     /* ω */
    {"rho", "\xcf\x81", "\\(*r"},                       /* ρ */
    {"Delta", "\xce\x94", "\\(*D"},                     /* Δ */
    {"pi", "\xcf\x80", "\\(*p"},                        /* π */
};

static int xr_word_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '_';
}

/* The Unicode superscript of c, or NULL. */
static const char *xr_sup_utf8(char c)
{
    static const char *const digits[10] = {"\xe2\x81\xb0", "\xc2\xb9", "\xc2\xb2", "\xc2\xb3",
                                           "\xe2\x81\xb4", "\xe2\x81\xb5", "\xe2\x81\xb6",
                                           "\xe2\x81\xb7", "\xe2\x81\xb8", "\xe2\x81\xb9"};
    if (c >= '0' && c <= '9')
        return digits[c - '0'];
    switch (c) {
    case '-': return "\xe2\x81\xbb";
    case '+': return "\xe2\x81\xba";
    case '(': return "\xe2\x81\xbd";
    case ')': return "\xe2\x81\xbe";
    case 'n': return "\xe2\x81\xbf";
    case 'i': return "\xe2\x81\xb1";
    case 'k': return "\xe1\xb5\x8f";
    case 'j': return "\xca\xb2";
    default: return NULL;
    }
}

/* The exponent after the '^' at s[i]: its length (group with parentheses),
 * 0 when what follows is not one. */
static size_t xr_exponent_len(const char *s, size_t i, size_t n)
{
    size_t j = i + 1;
    if (j < n && s[j] == '(') {
        for (j = i + 2; j < n && j < i + 16 && s[j] != ')'; ++j)
            if (s[j] == '(' || s[j] == '\n' || s[j] == '`')
                return 0;
        return j < n && s[j] == ')' ? j - i : 0;
    }
    if (j < n && s[j] == '-')
        ++j;
    if (j < n && s[j] >= '0' && s[j] <= '9') {
        while (j < n && s[j] >= '0' && s[j] <= '9')
            ++j;
        return j - i - 1;
    }
    if (j < n && ((s[j] >= 'a' && s[j] <= 'z') || (s[j] >= 'A' && s[j] <= 'Z')) &&
        (j + 1 >= n || !xr_word_char(s[j + 1])))
        return j + 1 - i - 1;
    return 0;
}

size_t xr_notation_at(xr_buf *out, const char *s, size_t i, size_t n, int roff)
{
    const int boundary = i == 0 || !xr_word_char(s[i - 1]);
    if (boundary) {
        for (size_t k = 0; k < sizeof xr_symbols / sizeof xr_symbols[0]; ++k) {
            const xr_symbol *y = &xr_symbols[k];
            const size_t la = strlen(y->ascii), lu = strlen(y->utf8);
            size_t len = 0;
            if (i + la <= n && memcmp(s + i, y->ascii, la) == 0 &&
                (i + la == n || !xr_word_char(s[i + la]) || s[i + la] == '_'))
                len = la;
            else if (i + lu <= n && memcmp(s + i, y->utf8, lu) == 0)
                len = lu;
            if (len) {
                const char *t = roff ? y->roff : y->utf8;
                xr_buf_put(out, t, strlen(t));
                return len;
            }
        }
    }
    if (s[i] == '^' && i > 0 && (xr_word_char(s[i - 1]) || s[i - 1] == ')' || s[i - 1] == '~' ||
                                 (unsigned char)s[i - 1] >= 0x80)) {
        const size_t e = xr_exponent_len(s, i, n);
        if (e == 0)
            return 0;
        const char *x = s + i + 1;
        size_t xn = e;
        if (roff) {
            if (x[0] == '(') { /* a raised group needs no parentheses */
                ++x;
                xn -= 2;
            }
            xr_buf_put(out, "\\v'-0.4m'\\s-2", 13);
            for (size_t k = 0; k < xn; ++k) {
                const size_t used = xr_notation_at(out, x, k, xn, 1);
                if (used) {
                    k += used - 1;
                } else if (x[k] == '-') {
                    xr_buf_put(out, "\\-", 2);
                } else if (x[k] == '\\') {
                    xr_buf_put(out, "\\e", 2);
                } else {
                    xr_buf_put(out, x + k, 1);
                }
            }
            xr_buf_put(out, "\\s+2\\v'0.4m'", 12);
            return e + 1;
        }
        for (size_t k = 0; k < xn; ++k)
            if (!xr_sup_utf8(x[k]))
                return 0; /* no Unicode form: stays h^(1/3) */
        for (size_t k = 0; k < xn; ++k) {
            const char *t = xr_sup_utf8(x[k]);
            xr_buf_put(out, t, strlen(t));
        }
        return e + 1;
    }
    return 0;
}

void xr_notation_md(xr_buf *out, const char *text, size_t n)
{
    int code = 0, bol = 1, block = 0;
    for (size_t i = 0; i < n;) {
        const char c = text[i];
        if (bol) {
            block = i + 4 <= n && memcmp(text + i, "    ", 4) == 0;
            bol = 0;
        }
        if (c == '\n') {
            bol = 1;
            code = 0;
        } else if (!block && c == '`' && (i == 0 || text[i - 1] != '\\')) {
            code = !code;
        } else if (!block && !code && c == ']' && i + 1 < n && text[i + 1] == '(') {
            const char *close = memchr(text + i, ')', n - i);
            if (close) { /* a link target stays as written */
                const size_t len = (size_t)(close - (text + i)) + 1;
                xr_buf_put(out, text + i, len);
                i += len;
                continue;
            }
        } else if (!block && !code) {
            const size_t used = xr_notation_at(out, text, i, n, 0);
            if (used) {
                i += used;
                continue;
            }
        }
        xr_buf_put(out, text + i, 1);
        ++i;
    }
}
