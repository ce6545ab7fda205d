/*
 * verify.c -- strategy-dictionary traversal (see verify.h).
 */
#define _POSIX_C_SOURCE 200809L

#include "verify.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ------------------------------------------------------------ key sets and maps */

static inline size_t slot_of(qc_mask a, qc_mask d, size_t cap)
{
    return (size_t)(qc_hash(a, d) & (cap - 1));
}

/* Empty slots hold a == d == 0. */
int qv_map_init(qv_map *m, size_t expected)
{
    size_t cap = 1024;
    while (cap < 2 * expected)
        cap <<= 1;
    m->a = calloc(cap, sizeof *m->a);
    m->d = calloc(cap, sizeof *m->d);
    m->value = malloc(cap * sizeof *m->value);
    m->cap = cap;
    m->count = 0;
    if (!m->a || !m->d || !m->value) {
        qv_map_free(m);
        return -1;
    }
    return 0;
}

void qv_map_free(qv_map *m)
{
    free(m->a);
    free(m->d);
    free(m->value);
    m->a = m->d = NULL;
    m->value = NULL;
    m->cap = m->count = 0;
}

/* The empty board would look like an empty slot: it is stored as (0, ~0) instead. */
static inline qc_mask stored_d(qc_mask a, qc_mask d) { return (a | d) ? d : ~(qc_mask)0; }

int qv_map_get(const qv_map *m, qc_mask a, qc_mask d)
{
    d = stored_d(a, d);
    for (size_t i = slot_of(a, d, m->cap);; i = (i + 1) & (m->cap - 1)) {
        if (m->a[i] == a && m->d[i] == d)
            return m->value[i];
        if (!m->a[i] && !m->d[i])
            return -1;
    }
}

static int grow(qv_map *m)
{
    qv_map bigger;
    if (qv_map_init(&bigger, m->cap) != 0)
        return -1;
    for (size_t i = 0; i < m->cap; i++) {
        if (!m->a[i] && !m->d[i])
            continue;
        size_t j = slot_of(m->a[i], m->d[i], bigger.cap);
        while (bigger.a[j] || bigger.d[j])
            j = (j + 1) & (bigger.cap - 1);
        bigger.a[j] = m->a[i];
        bigger.d[j] = m->d[i];
        bigger.value[j] = m->value[i];
    }
    bigger.count = m->count;
    qv_map_free(m);
    *m = bigger;
    return 0;
}

int qv_map_put(qv_map *m, qc_mask a, qc_mask d, int value)
{
    if (2 * (m->count + 1) > m->cap && grow(m) != 0)
        return -1;
    d = stored_d(a, d);
    size_t i = slot_of(a, d, m->cap);
    for (; m->a[i] || m->d[i]; i = (i + 1) & (m->cap - 1))
        if (m->a[i] == a && m->d[i] == d)
            return 0;
    m->a[i] = a;
    m->d[i] = d;
    m->value[i] = (int32_t)value;
    m->count++;
    return 1;
}

/* ------------------------------------------------------------------ dictionary */

int qv_dict_init(qv_dict *dict, size_t size)
{
    dict->size = size;
    dict->used = calloc(size ? size : 1, 1);
    if (!dict->used)
        return -1;
    if (qv_map_init(&dict->map, size) != 0) {
        free(dict->used);
        dict->used = NULL;
        return -1;
    }
    return 0;
}

void qv_dict_free(qv_dict *dict)
{
    qv_map_free(&dict->map);
    free(dict->used);
    dict->used = NULL;
}

/* The map value of an entry: its index times 64 plus its move in the canonical frame. */
int qv_dict_add(qv_dict *dict, qc_mask a, qc_mask d, int move, int index)
{
    qc_mask ca, cd;
    const int t = qc_canonical(a, d, &ca, &cd);
    return qv_map_put(&dict->map, ca, cd, index * 64 + qc_transform(t)[move]);
}

int qv_dict_move(qv_dict *dict, qc_mask ca, qc_mask cd, int t)
{
    const int value = qv_map_get(&dict->map, ca, cd);
    if (value < 0)
        return -1;
    dict->used[value / 64] = 1;
    return qc_transform(qc_inverse(t))[value % 64];
}

/* ------------------------------------------------------------------ traversal */

typedef struct {
    qv_dict *dict;
    qv_map seen;            /* canonical positions already visited, both sides' turns */
    qv_traversal *out;
    uint8_t path[QC_CELLS]; /* moves from the root */
    struct timespec deadline;
    int has_deadline;
    const volatile int *stop;
    uint64_t ticks;
    int halted;             /* out of time, stopped, or out of memory */
} walk_t;

static int time_is_up(walk_t *w)
{
    if ((++w->ticks & 1023) != 0)
        return 0;
    if (w->stop && *w->stop)
        return 1;
    if (!w->has_deadline)
        return 0;
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec > w->deadline.tv_sec ||
           (ts.tv_sec == w->deadline.tv_sec && ts.tv_nsec > w->deadline.tv_nsec);
}

static int record(walk_t *w, qv_nodes *list, qc_mask a, qc_mask d, int depth, int reason)
{
    qv_traversal *out = w->out;
    if (list->count == list->cap) {
        size_t cap = list->cap ? 2 * list->cap : 4096;
        qv_node *items = realloc(list->items, cap * sizeof *items);
        if (!items)
            return -1;
        list->items = items;
        list->cap = cap;
    }
    if (out->paths_len + (size_t)depth > out->paths_cap) {
        size_t cap = out->paths_cap ? 2 * out->paths_cap : 65536;
        uint8_t *paths = realloc(out->paths, cap);
        if (!paths)
            return -1;
        out->paths = paths;
        out->paths_cap = cap;
    }
    qv_node *n = &list->items[list->count++];
    n->a = a;
    n->d = d;
    n->path_at = (uint32_t)out->paths_len;
    n->path_len = (uint8_t)depth;
    n->reason = (uint8_t)reason;
    memcpy(out->paths + out->paths_len, w->path, (size_t)depth);
    out->paths_len += (size_t)depth;
    return 0;
}

static void halt_oom(walk_t *w)
{
    w->halted = 1;
    w->out->out_of_memory = 1;
}

/* The attacker (a) to move after `depth` moves from the root. */
static void attacker_turn(walk_t *w, qc_mask a, qc_mask d, int depth)
{
    if (w->halted || time_is_up(w)) {
        w->halted = 1;
        return;
    }
    qc_mask ca, cd;
    const int t = qc_canonical(a, d, &ca, &cd);
    const int added = qv_map_put(&w->seen, ca, cd, 0);
    if (added <= 0) {
        if (added < 0)
            halt_oom(w);
        return;
    }
    qv_traversal *out = w->out;
    out->positions++;
    if (qc_threat_cells(a, d)) {
        out->by_rule[QV_WIN]++;
        return;
    }
    const qc_mask theirs = qc_threat_cells(d, a);
    int move;
    if (theirs & (theirs - 1)) {
        if (record(w, &out->failures, a, d, depth, QV_TWO_THREATS) != 0)
            halt_oom(w);
        return;
    } else if (theirs) {
        move = qc_low(theirs);
        out->by_rule[QV_BLOCK]++;
    } else if ((move = qv_dict_move(w->dict, ca, cd, t)) >= 0) {
        out->by_rule[QV_DICTIONARY]++;
    } else {
        out->by_rule[QV_FORCED]++;
        if (record(w, &out->leaves, a, d, depth, 0) != 0)
            halt_oom(w);
        return;
    }

    const qc_mask a2 = a | (1ULL << move);
    const qc_mask empty = ~(a2 | d);
    if (!empty) {
        w->path[depth] = (uint8_t)move;
        if (record(w, &out->failures, a2, d, depth + 1, QV_BOARD_FULL) != 0)
            halt_oom(w);
        return;
    }
    /* the defender's turn: expand each equivalent position once */
    qc_canonical(a2, d, &ca, &cd);
    const int fresh = qv_map_put(&w->seen, ca, cd, 0);
    if (fresh <= 0) {
        if (fresh < 0)
            halt_oom(w);
        return;
    }
    out->defender_positions++;
    w->path[depth] = (uint8_t)move;
    for (qc_mask m = empty; m && !w->halted; m &= m - 1) {
        const int reply = qc_low(m);
        w->path[depth + 1] = (uint8_t)reply;
        attacker_turn(w, a2, d | (1ULL << reply), depth + 2);
    }
}

int qv_traverse(qv_dict *dict, qc_mask a, qc_mask d, double time_limit,
                const volatile int *stop, qv_traversal *out)
{
    memset(out, 0, sizeof *out);
    walk_t w;
    memset(&w, 0, sizeof w);
    w.dict = dict;
    w.out = out;
    w.stop = stop;
    if (time_limit > 0 && time_limit < 1e9) {  /* longer (or inf): no deadline; time_t would overflow */
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        double end = (double)ts.tv_sec + ts.tv_nsec * 1e-9 + time_limit;
        w.deadline.tv_sec = (time_t)end;
        w.deadline.tv_nsec = (long)((end - (double)w.deadline.tv_sec) * 1e9);
        w.has_deadline = 1;
    }
    if (qv_map_init(&w.seen, 4096) != 0) { /* it grows: most walks are small, and a large
                                              * calloc per walk costs more than they do */
        out->out_of_memory = 1;
        return -1;
    }
    attacker_turn(&w, a, d, 0);
    qv_map_free(&w.seen);
    out->complete = !w.halted;
    return out->out_of_memory ? -1 : 0;
}

void qv_traversal_free(qv_traversal *t)
{
    free(t->leaves.items);
    free(t->failures.items);
    free(t->paths);
    memset(t, 0, sizeof *t);
}

/* ------------------------------------------------------------------ witnesses */

int qv_witness_holds(qc_mask a, qc_mask d, const uint8_t *seq, int n)
{
    /* Two full scans, then each mark changes the threes only on the lines through it: the
     * attacker moves with no three of its own (else it must complete one, ending the
     * sequence), and the defender's reply removes only the three cell it fills. */
    qc_mask mine = qc_threat_cells(a, d), theirs = qc_threat_cells(d, a);
    for (int i = 0; i < n; i += 2) {
        const qc_mask m = 1ULL << (seq[i] & 63);
        if (seq[i] > 63 || ((a | d) & m))
            return 0;
        if (mine)
            return (mine & m) && i == n - 1;
        if (i == n - 1)
            return 0;
        if ((theirs & (theirs - 1)) || (theirs && !(theirs & m)))
            return 0;
        a |= m; /* it blocks the defender's one three, if any: the defender has none now */
        const qc_mask made = qc_threats_through(a, d, seq[i]);
        const qc_mask r = 1ULL << (seq[i + 1] & 63);
        if (!made || seq[i + 1] > 63 || !(made & r))
            return 0;
        d |= r;
        mine = made & ~r;
        theirs = qc_threats_through(d, a, seq[i + 1]);
    }
    return 0;
}
