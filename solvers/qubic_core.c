/*
 * qubic_core.c -- the native bitboard core of qubic-logic (see qubic_core.h for the API).
 *
 * Threat scans are bit-parallel: the 76 lines fall into 13 families of parallel lines
 * (3 axes, 6 planar-diagonal directions, 4 space diagonals); a family is a stride s and
 * a mask B of the lines' first cells, so shifting a mask right by s, 2s, 3s lines up the
 * four cells of every line of the family on B, and a handful of word operations test all
 * its lines at once. Each cell lies on at most one line of a family, which is how major
 * cells (two 2-0 lines meeting) are counted.
 *
 * The forced-win search (docs/design.md section 3) is described in qubic_core.h and README.md.
 */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE /* madvise(MADV_HUGEPAGE) */

#include "qubic_core.h"

#include <pthread.h>
#include <stdint.h>
#include <sys/mman.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ------------------------------------------------------------------ geometry */
/* Generated from qubic_logic.geometry; tests/test_native.py checks them against it. */

const qc_mask qc_line_masks[QC_LINES] = {
    0x000000000000000fULL, 0x0000000000001111ULL, 0x0000000000008421ULL,
    0x0001000100010001ULL, 0x0008000400020001ULL, 0x1000010000100001ULL,
    0x8000040000200001ULL, 0x0000000000002222ULL, 0x0002000200020002ULL,
    0x2000020000200002ULL, 0x0000000000004444ULL, 0x0004000400040004ULL,
    0x4000040000400004ULL, 0x0000000000001248ULL, 0x0000000000008888ULL,
    0x0001000200040008ULL, 0x0008000800080008ULL, 0x1000020000400008ULL,
    0x8000080000800008ULL, 0x00000000000000f0ULL, 0x0010001000100010ULL,
    0x0080004000200010ULL, 0x0020002000200020ULL, 0x0040004000400040ULL,
    0x0010002000400080ULL, 0x0080008000800080ULL, 0x0000000000000f00ULL,
    0x0100010001000100ULL, 0x0800040002000100ULL, 0x0200020002000200ULL,
    0x0400040004000400ULL, 0x0100020004000800ULL, 0x0800080008000800ULL,
    0x000000000000f000ULL, 0x0001001001001000ULL, 0x0008004002001000ULL,
    0x1000100010001000ULL, 0x8000400020001000ULL, 0x0002002002002000ULL,
    0x2000200020002000ULL, 0x0004004004004000ULL, 0x4000400040004000ULL,
    0x0001002004008000ULL, 0x0008008008008000ULL, 0x1000200040008000ULL,
    0x8000800080008000ULL, 0x00000000000f0000ULL, 0x0000000011110000ULL,
    0x0000000084210000ULL, 0x0000000022220000ULL, 0x0000000044440000ULL,
    0x0000000012480000ULL, 0x0000000088880000ULL, 0x0000000000f00000ULL,
    0x000000000f000000ULL, 0x00000000f0000000ULL, 0x0000000f00000000ULL,
    0x0000111100000000ULL, 0x0000842100000000ULL, 0x0000222200000000ULL,
    0x0000444400000000ULL, 0x0000124800000000ULL, 0x0000888800000000ULL,
    0x000000f000000000ULL, 0x00000f0000000000ULL, 0x0000f00000000000ULL,
    0x000f000000000000ULL, 0x1111000000000000ULL, 0x8421000000000000ULL,
    0x2222000000000000ULL, 0x4444000000000000ULL, 0x1248000000000000ULL,
    0x8888000000000000ULL, 0x00f0000000000000ULL, 0x0f00000000000000ULL,
    0xf000000000000000ULL,
};

const uint8_t qc_lines_through_count[QC_CELLS] = {
    7, 4, 4, 7, 4, 4, 4, 4, 4, 4, 4, 4, 7, 4, 4, 7,
    4, 4, 4, 4, 4, 7, 7, 4, 4, 7, 7, 4, 4, 4, 4, 4,
    4, 4, 4, 4, 4, 7, 7, 4, 4, 7, 7, 4, 4, 4, 4, 4,
    7, 4, 4, 7, 4, 4, 4, 4, 4, 4, 4, 4, 7, 4, 4, 7,
};

const uint8_t qc_lines_through[QC_CELLS][QC_MAX_LINES_THROUGH] = {
    {0, 1, 2, 3, 4, 5, 6},
    {0, 7, 8, 9, 255, 255, 255},
    {0, 10, 11, 12, 255, 255, 255},
    {0, 13, 14, 15, 16, 17, 18},
    {1, 19, 20, 21, 255, 255, 255},
    {2, 7, 19, 22, 255, 255, 255},
    {10, 13, 19, 23, 255, 255, 255},
    {14, 19, 24, 25, 255, 255, 255},
    {1, 26, 27, 28, 255, 255, 255},
    {7, 13, 26, 29, 255, 255, 255},
    {2, 10, 26, 30, 255, 255, 255},
    {14, 26, 31, 32, 255, 255, 255},
    {1, 13, 33, 34, 35, 36, 37},
    {7, 33, 38, 39, 255, 255, 255},
    {10, 33, 40, 41, 255, 255, 255},
    {2, 14, 33, 42, 43, 44, 45},
    {3, 46, 47, 48, 255, 255, 255},
    {4, 8, 46, 49, 255, 255, 255},
    {11, 15, 46, 50, 255, 255, 255},
    {16, 46, 51, 52, 255, 255, 255},
    {5, 20, 47, 53, 255, 255, 255},
    {6, 9, 21, 22, 48, 49, 53},
    {12, 17, 23, 24, 50, 51, 53},
    {18, 25, 52, 53, 255, 255, 255},
    {27, 34, 47, 54, 255, 255, 255},
    {28, 29, 35, 38, 49, 51, 54},
    {30, 31, 40, 42, 48, 50, 54},
    {32, 43, 52, 54, 255, 255, 255},
    {36, 47, 51, 55, 255, 255, 255},
    {37, 39, 49, 55, 255, 255, 255},
    {41, 44, 50, 55, 255, 255, 255},
    {45, 48, 52, 55, 255, 255, 255},
    {3, 56, 57, 58, 255, 255, 255},
    {8, 15, 56, 59, 255, 255, 255},
    {4, 11, 56, 60, 255, 255, 255},
    {16, 56, 61, 62, 255, 255, 255},
    {20, 34, 57, 63, 255, 255, 255},
    {22, 24, 38, 42, 58, 59, 63},
    {21, 23, 35, 40, 60, 61, 63},
    {25, 43, 62, 63, 255, 255, 255},
    {5, 27, 57, 64, 255, 255, 255},
    {9, 17, 29, 31, 59, 61, 64},
    {6, 12, 28, 30, 58, 60, 64},
    {18, 32, 62, 64, 255, 255, 255},
    {36, 57, 61, 65, 255, 255, 255},
    {39, 44, 59, 65, 255, 255, 255},
    {37, 41, 60, 65, 255, 255, 255},
    {45, 58, 62, 65, 255, 255, 255},
    {3, 15, 34, 42, 66, 67, 68},
    {8, 38, 66, 69, 255, 255, 255},
    {11, 40, 66, 70, 255, 255, 255},
    {4, 16, 35, 43, 66, 71, 72},
    {20, 24, 67, 73, 255, 255, 255},
    {22, 68, 69, 73, 255, 255, 255},
    {23, 70, 71, 73, 255, 255, 255},
    {21, 25, 72, 73, 255, 255, 255},
    {27, 31, 67, 74, 255, 255, 255},
    {29, 69, 71, 74, 255, 255, 255},
    {30, 68, 70, 74, 255, 255, 255},
    {28, 32, 72, 74, 255, 255, 255},
    {5, 17, 36, 44, 67, 71, 75},
    {9, 39, 69, 75, 255, 255, 255},
    {12, 41, 70, 75, 255, 255, 255},
    {6, 18, 37, 45, 68, 72, 75},
};

/* ------------------------------------------------------------ threat scans */

/* The 13 families of parallel lines: line k of a family is b, b+s, b+2s, b+3s for b in B. */
#define FAMILIES(F)                                                     \
    F(1, 0x1111111111111111ULL)   /* x axis */                          \
    F(4, 0x000f000f000f000fULL)   /* y axis */                          \
    F(16, 0x000000000000ffffULL)  /* z axis */                          \
    F(5, 0x0001000100010001ULL)   /* level diagonals x = y */           \
    F(3, 0x0008000800080008ULL)   /* level diagonals x + y = 3 */       \
    F(17, 0x0000000000001111ULL)  /* diagonals x = z */                 \
    F(15, 0x0000000000008888ULL)  /* diagonals x + z = 3 */             \
    F(20, 0x000000000000000fULL)  /* diagonals y = z */                 \
    F(12, 0x000000000000f000ULL)  /* diagonals y + z = 3 */             \
    F(21, 0x0000000000000001ULL)  /* space diagonal from cell 0 */      \
    F(19, 0x0000000000000008ULL)  /* space diagonal from cell 3 */      \
    F(13, 0x0000000000001000ULL)  /* space diagonal from cell 12 */     \
    F(11, 0x0000000000008000ULL)  /* space diagonal from cell 15 */

/* Per family: a0..a3 = the lines' cells of `a` lined up on B; s1/c1, s2/c2 = sum and carry
 * of (a0, a1) and (a2, a3); nod = lines without a `d` mark. */
#define SLICE(s, B)                                                             \
    const qc_mask a0 = a & (B), a1 = (a >> (s)) & (B), a2 = (a >> (2 * (s))) & (B), \
                  a3 = (a >> (3 * (s))) & (B);                                  \
    const qc_mask nod = (B) & ~(d | (d >> (s)) | (d >> (2 * (s))) | (d >> (3 * (s)))); \
    const qc_mask s1 = a0 ^ a1, c1 = a0 & a1, s2 = a2 ^ a3, c2 = a2 & a3;       \
    (void)s1; (void)s2; (void)c1; (void)c2;
#define SPREAD(L, s) ((L) | ((L) << (s)) | ((L) << (2 * (s))) | ((L) << (3 * (s))))

qc_mask qc_threat_cells(qc_mask a, qc_mask d)
{
    const qc_mask e = ~(a | d);
    qc_mask out = 0;
#define THREAT(s, B)                                                     \
    {                                                                    \
        SLICE(s, B)                                                      \
        const qc_mask three = ((c1 & s2) | (s1 & c2)) & nod;             \
        out |= SPREAD(three, s);                                         \
    }
    FAMILIES(THREAT)
#undef THREAT
    return out & e;
}

/* Major cells, and the forcing moves in *forcing, in one pass. */
static inline qc_mask major_and_forcing(qc_mask a, qc_mask d, qc_mask *forcing)
{
    const qc_mask e = ~(a | d);
    qc_mask once = 0, twice = 0;
#define BOTH(s, B)                                                            \
    {                                                                         \
        SLICE(s, B)                                                           \
        const qc_mask two = ((c1 & ~(s2 | c2)) | (c2 & ~(s1 | c1)) | (s1 & s2)) & nod; \
        const qc_mask cells = SPREAD(two, s);                                 \
        twice |= once & cells;                                                \
        once |= cells;                                                        \
    }
    FAMILIES(BOTH)
#undef BOTH
    *forcing = once & e;
    return twice & e;
}

qc_mask qc_forcing_moves(qc_mask a, qc_mask d)
{
    qc_mask forcing;
    major_and_forcing(a, d, &forcing);
    return forcing;
}

qc_mask qc_major_and_forcing(qc_mask a, qc_mask d, qc_mask *forcing) { return major_and_forcing(a, d, forcing); }

qc_mask qc_major_cells(qc_mask a, qc_mask d)
{
    qc_mask forcing;
    return major_and_forcing(a, d, &forcing);
}

qc_mask qc_threats_through(qc_mask a, qc_mask d, int cell)
{
    qc_mask out = 0;
    const uint8_t *lines = qc_lines_through[cell];
    for (int i = 0; i < qc_lines_through_count[cell]; i++) {
        const qc_mask lm = qc_line_masks[lines[i]];
        if (!(lm & d) && qc_count(lm & a) == 3)
            out |= lm & ~a;
    }
    return out;
}

size_t qc_threat_scan_batch(const qc_mask *a, const qc_mask *d, size_t n)
{
    size_t hits = 0;
    for (size_t i = 0; i < n; i++)
        hits += qc_threat_cells(a[i], d[i]) != 0;
    return hits;
}

/* --------------------------------------------------------- transposition table */

#define TT_EXACT 255 /* no win at any length */

typedef struct {
    qc_mask a, d;
    uint8_t bound; /* no win of length <= bound; TT_EXACT: none at all; 0: empty slot */
} tt_entry;

struct qc_tt {
    tt_entry *slots;
    size_t mask; /* number of slots - 1 */
};

void qc_advise_huge_pages(void *table, size_t bytes)
{
#ifdef MADV_HUGEPAGE
    const uintptr_t huge = (uintptr_t)2 << 20, start = ((uintptr_t)table + huge - 1) & ~(huge - 1),
                    end = ((uintptr_t)table + bytes) & ~(huge - 1);
    if (end > start)
        madvise((void *)start, end - start, MADV_HUGEPAGE);
#else
    (void)table;
    (void)bytes;
#endif
}

qc_tt *qc_tt_new(int log2_entries)
{
    if (log2_entries < 10)
        log2_entries = 10;
    if (log2_entries > 30)
        log2_entries = 30;
    qc_tt *tt = malloc(sizeof *tt);
    if (!tt)
        return NULL;
    size_t n = (size_t)1 << log2_entries;
    tt->slots = calloc(n, sizeof(tt_entry));
    if (!tt->slots) {
        free(tt);
        return NULL;
    }
    qc_advise_huge_pages(tt->slots, n * sizeof(tt_entry));
    tt->mask = n - 1;
    return tt;
}

void qc_tt_clear(qc_tt *tt)
{
    if (tt)
        memset(tt->slots, 0, (tt->mask + 1) * sizeof(tt_entry));
}

void qc_tt_free(qc_tt *tt)
{
    if (tt) {
        free(tt->slots);
        free(tt);
    }
}

static inline size_t tt_index(const qc_tt *tt, qc_mask a, qc_mask d)
{
    return (size_t)qc_hash(a, d) & tt->mask & ~(size_t)1; /* buckets of two slots */
}

static inline int tt_probe(const qc_tt *tt, qc_mask a, qc_mask d)
{
    const tt_entry *b = tt->slots + tt_index(tt, a, d);
    if (b[0].a == a && b[0].d == d && b[0].bound)
        return b[0].bound;
    if (b[1].a == a && b[1].d == d && b[1].bound)
        return b[1].bound;
    return 0;
}

static inline void tt_store(qc_tt *tt, qc_mask a, qc_mask d, int bound)
{
    tt_entry *b = tt->slots + tt_index(tt, a, d);
    tt_entry *slot;
    if (b[0].a == a && b[0].d == d)
        slot = b;
    else if (b[1].a == a && b[1].d == d)
        slot = b + 1;
    else /* replace the emptier or shallower slot; keep exact facts longest */
        slot = b[0].bound <= b[1].bound ? b : b + 1;
    if (slot->a == a && slot->d == d && slot->bound >= bound)
        return;
    slot->a = a;
    slot->d = d;
    slot->bound = (uint8_t)bound;
}

/* Move the entries of `from` into `to` (a private table growing). */
static void tt_rehash(qc_tt *to, const qc_tt *from)
{
    for (size_t i = 0; i <= from->mask; i++)
        if (from->slots[i].bound)
            tt_store(to, from->slots[i].a, from->slots[i].d, from->slots[i].bound);
}

/* ------------------------------------------------------------------ search */

enum { FAIL_BOUNDED = 0, FAIL_EXACT = -1, ABORTED = -2 };

typedef struct {
    qc_tt *tt;          /* the caller's table, or the private one */
    int private_tt;     /* tt is ours: grow it, free it */
    uint64_t nodes;
    uint64_t node_limit;
    uint64_t next_grow; /* node count at which the private table is made or grown */
    int private_log2;
    struct timespec deadline;
    int has_deadline;
    const volatile int *stop;
    int aborted;
    uint8_t *seq;
} search_t;

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int out_of_time(const search_t *s)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec > s->deadline.tv_sec ||
           (ts.tv_sec == s->deadline.tv_sec && ts.tv_nsec > s->deadline.tv_nsec);
}

/* A private table appears once a search is not trivial and grows with it. */
static void maybe_grow(search_t *s)
{
    s->next_grow = s->next_grow * 8;
    int log2 = s->tt ? s->private_log2 + 3 : 12;
    if (log2 > 20)
        return;
    qc_tt *bigger = qc_tt_new(log2);
    if (!bigger)
        return;
    if (s->tt) {
        tt_rehash(bigger, s->tt);
        qc_tt_free(s->tt);
    }
    s->tt = bigger;
    s->private_log2 = log2;
}

/* A candidate single-threat move, its forced reply, and what the child position holds. */
typedef struct {
    int score;
    uint8_t move, reply;
    qc_mask theirs;          /* defender's threat cells after the reply */
    qc_mask major, forcing;  /* attacker's major cells and forcing moves there (theirs == 0) */
} cand_t;

/*
 * Attacker (a) to move with no threat cell of its own; the defender's threat cells are
 * `theirs`; k >= 2 attacker moves allowed. When `theirs` is 0, `pre` may hold the
 * attacker's major cells and forcing moves already computed (else NULL). Returns the win
 * length (<= k) with the witness written at s->seq[ply..], or FAIL_BOUNDED (no win within
 * k, a branch was cut by k), FAIL_EXACT (no win at any length) or ABORTED.
 */
static int node(search_t *s, qc_mask a, qc_mask d, int k, qc_mask theirs, const cand_t *pre, int ply)
{
    s->nodes++;
    if (s->node_limit && s->nodes > s->node_limit) {
        s->aborted = 1;
        return ABORTED;
    }
    if ((s->nodes & 1023) == 0) {
        if ((s->has_deadline && out_of_time(s)) || (s->stop && *s->stop)) {
            s->aborted = 1;
            return ABORTED;
        }
        if (s->private_tt && s->nodes >= s->next_grow)
            maybe_grow(s);
    }
    if (theirs & (theirs - 1))
        return FAIL_EXACT; /* two counter-threats: the defender wins first */

    qc_mask singles;
    if (theirs) {
        /* counter-threat rule: the attacker must block the defender's threat */
        const int m = qc_low(theirs);
        const qc_mask t = qc_threats_through(a | theirs, d, m);
        if (t & (t - 1)) {
            s->seq[ply] = (uint8_t)m;
            s->seq[ply + 1] = (uint8_t)qc_low(t);
            s->seq[ply + 2] = (uint8_t)qc_low(t & (t - 1));
            return 2;
        }
        singles = t ? theirs : 0;
    } else {
        qc_mask major;
        if (pre) {
            major = pre->major;
            singles = pre->forcing;
        } else {
            major = major_and_forcing(a, d, &singles);
        }
        if (major) { /* a related pair: the major cell makes a double threat */
            const int m = qc_low(major);
            const qc_mask t = qc_threats_through(a | (1ULL << m), d, m);
            s->seq[ply] = (uint8_t)m;
            s->seq[ply + 1] = (uint8_t)qc_low(t);
            s->seq[ply + 2] = (uint8_t)qc_low(t & (t - 1));
            return 2;
        }
    }
    if (!singles)
        return FAIL_EXACT;
    if (k < 3)
        return FAIL_BOUNDED; /* a single threat needs at least two more attacker moves */
    if (s->tt) {
        int bound = tt_probe(s->tt, a, d);
        if (bound == TT_EXACT)
            return FAIL_EXACT;
        if (bound >= k)
            return FAIL_BOUNDED;
    }

    /* Every move in `singles` makes exactly one threat; the reply is forced. */
    cand_t cands[QC_CELLS];
    int n = 0;
    for (qc_mask m = singles; m; m &= m - 1) {
        const int move = qc_low(m);
        const qc_mask a2 = a | (1ULL << move);
        const qc_mask t = qc_threats_through(a2, d, move);
        const int reply = qc_low(t);
        const qc_mask d2 = d | t;
        const qc_mask th = qc_threats_through(d2, a2, reply);
        if (th & (th - 1))
            continue; /* the block makes a double counter-threat: dead end at any length */
        cand_t *c = &cands[n++];
        if (s->tt && k > 3) /* the child probes the table: start loading its bucket now */
            __builtin_prefetch(s->tt->slots + tt_index(s->tt, a2, d2));
        c->move = (uint8_t)move;
        c->reply = (uint8_t)reply;
        c->theirs = th;
        /* After the reply: a double threat wins at once (major cells, or the counter-threat
         * block making two threats); otherwise prefer more forcing moves. */
        if (th) {
            const qc_mask tt = qc_threats_through(a2 | th, d2, qc_low(th));
            c->score = (tt & (tt - 1)) ? 1000 : tt ? 64 : -1000;
        } else {
            if (theirs) {
                c->major = major_and_forcing(a2, d2, &c->forcing);
            } else {
                /* Incremental: the parent has no major cell, so each of its forcing moves lies
                 * on exactly one 2-0 line. The child loses the 2-0 lines through the reply
                 * (among them the threat line, holding the move) and gains the 1-0 lines
                 * through the move that the reply does not touch; two of those meet only at
                 * the move, so the child's major cells are where a gained line crosses a kept
                 * one. */
                qc_mask lost = 0, gained = 0;
                const uint8_t *lr = qc_lines_through[reply];
                for (int i = 0; i < qc_lines_through_count[reply]; i++) {
                    const qc_mask lm = qc_line_masks[lr[i]];
                    if (!(lm & d) && qc_count(lm & a) == 2)
                        lost |= lm;
                }
                const uint8_t *lmv = qc_lines_through[move];
                for (int i = 0; i < qc_lines_through_count[move]; i++) {
                    const qc_mask lm = qc_line_masks[lmv[i]];
                    if (!(lm & d2) && qc_count(lm & a) == 1)
                        gained |= lm & ~a2;
                }
                const qc_mask kept = singles & ~lost;
                c->major = kept & gained;
                c->forcing = kept | gained;
#ifdef QC_DEBUG_INCREMENTAL
                qc_mask f;
                if (major_and_forcing(a2, d2, &f) != c->major || f != c->forcing)
                    abort();
#endif
            }
            c->score = c->major ? 1000 : c->forcing ? qc_count(c->forcing) : -1000;
        }
    }
    /* insertion sort, best first */
    for (int i = 1; i < n; i++) {
        cand_t c = cands[i];
        int j = i - 1;
        while (j >= 0 && cands[j].score < c.score) {
            cands[j + 1] = cands[j];
            j--;
        }
        cands[j + 1] = c;
    }

    int bounded = 0;
    for (int i = 0; i < n; i++) {
        const cand_t *c = &cands[i];
        if (c->score == -1000)
            break; /* these children have no move at all: dead ends */
        const qc_mask a2 = a | (1ULL << c->move), d2 = d | (1ULL << c->reply);
        const int r = node(s, a2, d2, k - 1, c->theirs, c->theirs ? NULL : c, ply + 2);
        if (r > 0) {
            s->seq[ply] = c->move;
            s->seq[ply + 1] = c->reply;
            return r + 1;
        }
        if (r == ABORTED)
            return ABORTED;
        if (r == FAIL_BOUNDED)
            bounded = 1;
    }
    if (s->tt)
        tt_store(s->tt, a, d, bounded ? k : TT_EXACT);
    return bounded ? FAIL_BOUNDED : FAIL_EXACT;
}

int qc_forced_win(qc_mask a, qc_mask d, const qc_search_options *opt, qc_forced_win_result *out)
{
    const qc_mask mine = qc_threat_cells(a, d);
    if (mine) {
        memset(out, 0, sizeof *out);
        out->length = out->reached = 1;
        out->seq_len = 1;
        out->seq[0] = (uint8_t)qc_low(mine);
        out->nodes = 1;
        return 1;
    }
    return qc_forced_win_scanned(a, d, qc_threat_cells(d, a), opt, out);
}

int qc_forced_win_scanned(qc_mask a, qc_mask d, qc_mask theirs, const qc_search_options *opt,
                          qc_forced_win_result *out)
{
    static const qc_search_options defaults = QC_SEARCH_DEFAULTS;
    if (!opt)
        opt = &defaults;
    out->length = out->seq_len = 0;
    const int max_length = opt->max_length > 0 ? opt->max_length : 0;

    search_t s;
    memset(&s, 0, sizeof s);
    s.tt = opt->tt;
    s.private_tt = opt->tt == NULL;
    s.node_limit = opt->node_limit;
    s.next_grow = 256;
    s.stop = opt->stop;
    s.seq = out->seq;
    if (opt->time_limit > 0 && opt->time_limit < 1e9) {  /* longer (or inf): no deadline; time_t would overflow */
        double end = now_seconds() + opt->time_limit;
        s.deadline.tv_sec = (time_t)end;
        s.deadline.tv_nsec = (long)((end - (double)s.deadline.tv_sec) * 1e9);
        s.has_deadline = 1;
    }

    s.nodes = 1;
    int result = FAIL_BOUNDED, length = 2;
    if (theirs & (theirs - 1))
        result = FAIL_EXACT;
    if (opt->any_win)
        length = max_length && max_length < QC_MAX_SEQUENCE / 2 ? max_length : QC_MAX_SEQUENCE / 2;
    /* length 1 (a three of a's own) is settled before: each further length is one deepening iteration */
    for (; result == FAIL_BOUNDED && (!max_length || length <= max_length) && length <= QC_MAX_SEQUENCE / 2; length++) {
        if ((s.has_deadline && out_of_time(&s)) || (s.stop && *s.stop)) {
            result = ABORTED; /* limits are checked before each iteration and every 1024 nodes */
            break;
        }
        result = node(&s, a, d, length, theirs, NULL, 0);
        if (result > 0 || result == ABORTED)
            break;
    }

    out->nodes = s.nodes;
    if (result > 0) {
        out->length = out->reached = result;
        out->seq_len = 2 * result - 1;
    } else if (result == ABORTED) {
        out->length = -1;
        out->reached = length - 1;
    } else if (result == FAIL_EXACT) {
        out->reached = QC_NONE_AT_ANY_LENGTH;
    } else {
        out->reached = max_length;
    }
    if (s.private_tt)
        qc_tt_free(s.tt);
    return out->length;
}

/* ------------------------------------------------------------------ symmetry */

/*
 * Every transform is affine on the six bits of a cell index (x: bits 0-1, y: 2-3, z: 4-5):
 * image(c) = P(c) XOR k, with P a permutation of the index bits (axis order, and the
 * scramble swapping the two bits of every coordinate) and k a constant (flips v -> 3-v,
 * evisceration). A mask is mapped with delta swaps: up to five for P, one per bit of k.
 * The 192 transforms share 12 distinct P, so qc_canonical maps each mask 12 times by P
 * and 192 times by a XOR.
 */

static uint8_t g_perm[QC_TRANSFORMS][QC_CELLS];
static uint8_t g_inverse[QC_TRANSFORMS];
static uint8_t g_xor[QC_TRANSFORMS];       /* k */
static uint8_t g_pgroup[QC_TRANSFORMS];    /* which distinct P */
static int g_npgroups;
static uint8_t g_pswaps[QC_TRANSFORMS][6][2]; /* per P group: index-bit transpositions */
static uint8_t g_npswaps[QC_TRANSFORMS];
static uint8_t g_pgroup_bits[QC_TRANSFORMS][6]; /* per P group: bit j goes to bit P[j] */
static pthread_once_t g_once = PTHREAD_ONCE_INIT;

static int cell_at(int x, int y, int z) { return x + 4 * y + 16 * z; }

static const qc_mask XOR_LOW[6] = {
    0x5555555555555555ULL, 0x3333333333333333ULL, 0x0f0f0f0f0f0f0f0fULL,
    0x00ff00ff00ff00ffULL, 0x0000ffff0000ffffULL, 0x00000000ffffffffULL,
};

static inline qc_mask xor_index(qc_mask m, int k)
{
    for (int j = 0; j < 6; j++)
        if (k >> j & 1) {
            const int w = 1 << j;
            m = ((m >> w) & XOR_LOW[j]) | ((m & XOR_LOW[j]) << w);
        }
    return m;
}

/* Precomputed masks for the P swaps, so mapping does no loops over cells. */
static qc_mask g_swap_lower[6][6];

static inline qc_mask apply_p(int g, qc_mask m)
{
    for (int i = 0; i < g_npswaps[g]; i++) {
        const int lo = g_pswaps[g][i][0], hi = g_pswaps[g][i][1];
        const int shift = (1 << hi) - (1 << lo);
        const qc_mask t = ((m >> shift) ^ m) & g_swap_lower[lo][hi];
        m ^= t ^ (t << shift);
    }
    return m;
}

static void build_tables(void)
{
    static const int cmaps[4][4] = {{0, 1, 2, 3}, {1, 0, 3, 2}, {0, 2, 1, 3}, {2, 0, 3, 1}};
    static const int orders[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
    int n = 0;
    for (int cm = 0; cm < 4; cm++)
        for (int o = 0; o < 6; o++)
            for (int f = 0; f < 8; f++) {
                /* itertools.product((False, True), repeat=3): flips[0] varies slowest */
                const int flips[3] = {f >> 2 & 1, f >> 1 & 1, f & 1};
                uint8_t perm[QC_CELLS];
                for (int c = 0; c < QC_CELLS; c++) {
                    const int v[3] = {cmaps[cm][c & 3], cmaps[cm][c >> 2 & 3], cmaps[cm][c >> 4]};
                    int w[3];
                    for (int i = 0; i < 3; i++)
                        w[i] = flips[i] ? 3 - v[orders[o][i]] : v[orders[o][i]];
                    perm[c] = (uint8_t)cell_at(w[0], w[1], w[2]);
                }
                int seen = 0;
                for (int t = 0; t < n && !seen; t++)
                    seen = memcmp(g_perm[t], perm, QC_CELLS) == 0;
                if (!seen && n < QC_TRANSFORMS)
                    memcpy(g_perm[n++], perm, QC_CELLS);
            }
    for (int t = 0; t < QC_TRANSFORMS; t++)
        for (int u = 0; u < QC_TRANSFORMS; u++)
            if (g_perm[u][g_perm[t][0]] == 0 && g_perm[u][g_perm[t][63]] == 63) {
                int ok = 1;
                for (int c = 0; c < QC_CELLS && ok; c++)
                    ok = g_perm[u][g_perm[t][c]] == c;
                if (ok) {
                    g_inverse[t] = (uint8_t)u;
                    break;
                }
            }
    for (int i = 0; i < 6; i++)
        for (int j = i + 1; j < 6; j++) {
            qc_mask lower = 0;
            for (int c = 0; c < 64; c++)
                if ((c >> i & 1) && !(c >> j & 1))
                    lower |= 1ULL << c;
            g_swap_lower[i][j] = lower;
        }
    /* affine decomposition: image(c) = P(c) ^ k */
    g_npgroups = 0;
    for (int t = 0; t < QC_TRANSFORMS; t++) {
        const int k = g_perm[t][0];
        uint8_t bits[6];
        for (int j = 0; j < 6; j++)
            bits[j] = (uint8_t)__builtin_ctz(g_perm[t][1 << j] ^ k);
        g_xor[t] = (uint8_t)k;
        int g = 0;
        while (g < g_npgroups && memcmp(g_pgroup_bits[g], bits, 6))
            g++;
        if (g == g_npgroups) {
            memcpy(g_pgroup_bits[g], bits, 6);
            /* transpositions taking every bit j to bits[j] */
            int pos[6], at[6]; /* pos[j]: where original bit j is; at[p]: which bit is at p */
            for (int j = 0; j < 6; j++)
                pos[j] = at[j] = j;
            int ns = 0;
            for (int p = 0; p < 6; p++) {
                int j = 0;
                while (bits[j] != p)
                    j++;
                if (pos[j] != p) {
                    const int q = pos[j], other = at[p];
                    g_pswaps[g][ns][0] = (uint8_t)(p < q ? p : q);
                    g_pswaps[g][ns][1] = (uint8_t)(p < q ? q : p);
                    ns++;
                    at[q] = other;
                    pos[other] = q;
                    at[p] = j;
                    pos[j] = p;
                }
            }
            g_npswaps[g] = (uint8_t)ns;
            g_npgroups++;
        }
        g_pgroup[t] = (uint8_t)g;
    }
}

void qc_init(void) { pthread_once(&g_once, build_tables); }

const uint8_t *qc_transform(int t)
{
    qc_init();
    return g_perm[t];
}

int qc_inverse(int t)
{
    qc_init();
    return g_inverse[t];
}

qc_mask qc_map_mask(int t, qc_mask m)
{
    qc_init();
    return xor_index(apply_p(g_pgroup[t], m), g_xor[t]);
}

int qc_canonical(qc_mask x, qc_mask o, qc_mask *cx, qc_mask *co)
{
    qc_init();
    qc_mask px[QC_TRANSFORMS], po[QC_TRANSFORMS];
    int have_po[QC_TRANSFORMS];
    for (int g = 0; g < g_npgroups; g++) {
        px[g] = apply_p(g, x);
        have_po[g] = 0;
    }
    qc_mask bx = x, bo = o;
    int best = 0;
    for (int t = 1; t < QC_TRANSFORMS; t++) {
        const int g = g_pgroup[t];
        const qc_mask ix = xor_index(px[g], g_xor[t]);
        if (ix > bx)
            continue;
        if (!have_po[g]) {
            po[g] = apply_p(g, o);
            have_po[g] = 1;
        }
        const qc_mask io = xor_index(po[g], g_xor[t]);
        if (ix < bx || io < bo) {
            bx = ix;
            bo = io;
            best = t;
        }
    }
    *cx = bx;
    *co = bo;
    return best;
}
