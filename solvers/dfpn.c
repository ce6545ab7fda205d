/*
 * dfpn.c -- depth-first proof-number search with a bounded transposition table (dfpn.h).
 *
 * MID (Nagai's multiple iterative deepening) searches a node until its proof number
 * reaches thpn or its disproof number thdn, always descending into the most-proving
 * child with thresholds from the second-best child, widened by the 1 + epsilon trick
 * (Pawlewicz and Lew) so that the search does not thrash between two close siblings.
 *
 * Pitfalls: the game graph is acyclic (every move adds a mark) and a position's value
 * does not depend on the path to it, so graph history interaction cannot arise and no
 * cycle handling is needed. Proof numbers are over-estimated where transpositions make
 * a DAG: equivalent children of one node are merged (canonical keys, so a node never
 * counts the same child twice), and the 1 + epsilon thresholds bound the re-search this
 * over-estimation causes deeper down. It shows most in disproof numbers (sums over ~60
 * moves at every attacker turn): they reach 2^30 on the empty board, so sums saturate
 * one below INF, which alone means settled. The root favours the heuristic's first move
 * (ROOT_BIAS) rather than alternating between first moves whose subtrees share little.
 *
 * At the attacker's turns a move's proof number counts a penalty for each step its
 * heuristic score is below the best move's (df-pn+, Nagai's heuristic proof numbers; the
 * node's own proof number is the least of these sums, so thresholds stay consistent): an
 * unproven weaker move is tried only once the stronger ones have cost more. A proof is
 * still only a proof (penalties apply to unsettled children). It cut the nodes 4-15
 * times: 81,459 -> 17,950 on x2x16o4o, 22.1 M -> 1.86 M on moves:0,21.
 *
 * Leaves are cheap first: threat scans settle what they can; a defender reply off the
 * pass witness is proven by replaying the witness; after a pass that has no forced win
 * no reply needs a search; a reply is also proven by replaying a sequence found after an
 * earlier reply (a fifth of the leaf searches); positions without a 2-0 line skip the
 * search; a leaf search stops at the first win it finds (any length); all leaf searches
 * share one table of failed positions. (Evaluating the attacker's forced win
 * only when a node is selected was tried and dropped: unsettled children count 1 each,
 * so a defender turn's proof number was 6-30 instead of about 1, and the search went
 * astray: 40,000 expansions instead of 12 on x2x1o6x14o20o.)
 *
 * Children's canonical forms come from the parent's 192 images plus one mark's image,
 * scanning only the transforms that can give the least image. Both tables ask for
 * transparent huge pages: their probes are mostly cache and TLB misses.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dfpn.h"
#include "verify.h"
#ifdef QD_TRACE
#include <stdio.h>
#endif

#define INF QD_INFINITY
#define BUCKET 4
#define HARD_REPLY_PN 20 /* a defender turn where a pass would not lose to a threat sequence */
#define NO_MOVE 0xff
/* Child thresholds: second-best * (1 + QUARTERS/4). */
#define QUARTERS 1
/* At the root the heuristic's favourite first move counts its proof number divided by
 * ROOT_BIAS: the first moves' subtrees share little, and with plain 1 + 1/4 the empty
 * board's search alternated between the corner and the edge at equal proof numbers. */
/* One proof-number step per 2^PENALTY_SHIFT points of move score below the best move's
 * (a forcing move is 8 points, a major cell 32, a line through the cell 1). */
#ifndef PENALTY_SHIFT
#define PENALTY_SHIFT 3
#endif
#ifndef ROOT_BIAS
#define ROOT_BIAS 4
#endif

enum { F_USED = 1, F_PASS = 2 /* a defender's turn whose pass was searched (pass_zone) */ };
/* K_ZONE: an attacker's turn proven by the zone of the proof after the defender's pass at
 * its parent (pass_zone); its own proof tree is searched only when a strategy is extracted. */
/* K_KNOWN: an attacker's turn among qd_options.known; its known move is played when a
 * strategy is extracted. */
enum { K_NONE = 0, K_WIN, K_FORCED, K_BLOCK, K_MOVE, K_DOUBLE, K_LOST, K_ZONE, K_KNOWN };

typedef struct {
    qc_mask a, d;
    uint32_t pn, dn;
    uint32_t work; /* positions evaluated below this one (saturating): the replacement key */
    uint8_t flags, kind, best, unused;
} entry_t;

typedef struct {
    uint32_t pn, dn, work;
    uint8_t flags, kind, best;
} node_t;

typedef struct {
    qc_mask a, d; /* canonical */
    uint8_t move; /* in the parent's frame */
    uint8_t t;    /* the transform from the parent's frame to the canonical one */
    int16_t score;
} kid_t;

/* At a defender's turn: the attacker's forced wins known in the parent's frame (the one
 * after a pass, then those found after earlier replies), replayed before any leaf search
 * of a new reply: most replies leave some sibling's sequence legal. */
#define WITNESSES 8
typedef struct {
    int none; /* no forced win even after a pass, so none after any reply */
    int count, next;
    qc_mask cells[WITNESSES]; /* each sequence's cells: a reply on one breaks it */
    uint8_t len[WITNESSES];
    uint8_t seq[WITNESSES][QC_MAX_SEQUENCE];
    int zoned;     /* the attacker wins after a pass by a proof tree whose zone is... */
    qc_mask zone;  /* ...these cells: a reply off them is proven (pass_zone) */
} witnesses_t;

/* The zones of the proofs after a pass, by defender's turn (direct-mapped). */
#define ZONE_CACHE_LOG2 14
typedef struct {
    qc_mask a, d, zone;
} zone_slot;

struct qd_search {
    qc_mask root_a, root_d;
    qc_mask ra, rd;
    int rt;
    int parity; /* marks on the board at the attacker's turns, mod 2 */
    entry_t *tt;
    size_t bucket_mask, max_buckets, used;
    qc_tt *leaf_tt;
    int leaf_log2, max_leaf_log2;
    qd_options opt;
    uint64_t leaf_limit;
    uint64_t nodes, expansions, leaf_calls, leaf_nodes, replaced;
    double leaf_seconds, start, deadline, next_progress;
    int stopped;
    int extracting;
    int first;                /* opt.first_move: the root's move in the canonical frame, else -1 */
    int first_wins;           /* and it completes a line */
    qc_mask first_a, first_d; /* and the canonical position after it */
    zone_slot *zones;         /* opt.pass_node_limit: the zones found (a == d == 0: empty slot) */
    uint64_t pass_searches, pass_proofs, zone_proofs;
    qv_map known;             /* opt.known: canonical position -> its known move */
    uint64_t known_proofs;
};

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

size_t qd_entry_bytes(void) { return sizeof(entry_t); }

/* ------------------------------------------------------------------ table */

/* (The earlier multiply-xor hash left marks on cells 49-63 out of the bucket index, so
 * canonical forms, which differ mostly there, piled into few buckets.) */
static inline size_t hash_of(qc_mask a, qc_mask d) { return (size_t)qc_hash(a, d); }

static inline entry_t *bucket_of(const qd_search *s, qc_mask a, qc_mask d)
{
    return s->tt + (hash_of(a, d) & s->bucket_mask) * BUCKET;
}

/*
 * The table starts small (cheap for small solves) and doubles in place when three
 * quarters full, up to max_buckets: realloc, then each bucket's entries whose hash has
 * the new bit set move to the new half. The leaves' table grows with it (as many
 * entries, up to its share), starting afresh: it only caches failures.
 */
static void grow(qd_search *s)
{
    const size_t old = s->bucket_mask + 1, buckets = 2 * old;
    entry_t *t = realloc(s->tt, buckets * BUCKET * sizeof *t);
    if (!t) {
        s->max_buckets = old;
        return;
    }
    qc_advise_huge_pages(t, buckets * BUCKET * sizeof *t);
    memset(t + old * BUCKET, 0, old * BUCKET * sizeof *t);
    for (size_t i = 0; i < old; i++) {
        entry_t *b = t + i * BUCKET, *hi = t + (i + old) * BUCKET;
        int h = 0;
        for (int j = 0; j < BUCKET; j++)
            if ((b[j].flags & F_USED) && (hash_of(b[j].a, b[j].d) & (buckets - 1)) != i) {
                hi[h++] = b[j];
                b[j].flags = 0;
            }
    }
    s->tt = t;
    s->bucket_mask = buckets - 1;
    int want = 0;
    while (((size_t)1 << (want + 1)) <= buckets * BUCKET)
        want++;
    if (want > s->max_leaf_log2)
        want = s->max_leaf_log2;
    if (want > s->leaf_log2) {
        qc_tt *leaf = qc_tt_new(want);
        if (leaf) {
            qc_tt_free(s->leaf_tt);
            s->leaf_tt = leaf;
            s->leaf_log2 = want;
        }
    }
}

static int probe(const qd_search *s, qc_mask a, qc_mask d, node_t *n)
{
    const entry_t *b = bucket_of(s, a, d);
    for (int i = 0; i < BUCKET; i++)
        if ((b[i].flags & F_USED) && b[i].a == a && b[i].d == d) {
            n->pn = b[i].pn;
            n->dn = b[i].dn;
            n->work = b[i].work;
            n->flags = b[i].flags;
            n->kind = b[i].kind;
            n->best = b[i].best;
            return 1;
        }
    return 0;
}

static void put(qd_search *s, qc_mask a, qc_mask d, const node_t *n)
{
    entry_t *b = bucket_of(s, a, d), *slot = NULL;
    for (int i = 0; i < BUCKET && !slot; i++)
        if ((b[i].flags & F_USED) && b[i].a == a && b[i].d == d)
            slot = b + i;
    for (int i = 0; i < BUCKET && !slot; i++)
        if (!(b[i].flags & F_USED)) {
            slot = b + i;
            s->used++;
        }
    if (!slot && s->bucket_mask + 1 < s->max_buckets && 4 * s->used > BUCKET * (s->bucket_mask + 1)) {
        /* a full bucket in a table over a quarter full: grow before replacing */
        grow(s); /* (on failure max_buckets drops to the current size, so this recursion ends) */
        return put(s, a, d, n);
    }
    if (!slot) { /* replace the entry with the least work below it; settled ones count double */
        uint64_t least = UINT64_MAX;
        for (int i = 0; i < BUCKET; i++) {
            const uint64_t w = (uint64_t)b[i].work << (b[i].pn == 0 || b[i].dn == 0);
            if (w < least) {
                least = w;
                slot = b + i;
            }
        }
        s->replaced++;
    }
    slot->a = a;
    slot->d = d;
    slot->pn = n->pn;
    slot->dn = n->dn;
    slot->work = n->work;
    slot->flags = (uint8_t)(n->flags | F_USED);
    slot->kind = n->kind;
    slot->best = n->best;
    if (4 * s->used > 3 * BUCKET * (s->bucket_mask + 1) && s->bucket_mask + 1 < s->max_buckets)
        grow(s);
}

/* ------------------------------------------------------------------ limits */

static void check_limits(qd_search *s)
{
    if (s->opt.stop && *s->opt.stop)
        s->stopped = QD_STOPPED;
    if (s->extracting)
        return;
    if (s->opt.node_limit && s->nodes >= s->opt.node_limit)
        s->stopped = QD_NODE_LIMIT;
    if ((s->nodes & 1023) == 0) {
        const double t = now();
        if (s->deadline > 0 && t > s->deadline)
            s->stopped = QD_TIME_LIMIT;
        if (s->opt.progress && t >= s->next_progress) {
            node_t root;
            qd_progress p = {s->nodes, 1, 1};
            const int fixed = s->first >= 0; /* the position after the fixed first move stands for the root */
            if (probe(s, fixed ? s->first_a : s->ra, fixed ? s->first_d : s->rd, &root)) {
                p.pn = root.pn;
                p.dn = root.dn;
            }
            if (s->opt.progress(s->opt.progress_ctx, &p))
                s->stopped = QD_STOPPED;
            s->next_progress = now() + s->opt.progress_seconds;
        }
    }
}

/* ------------------------------------------------------------------ leaves */

/* Whether the attacker, to move at (a, d) with no three of its own, has a forced win
 * (the first one found, in *r); `theirs`: the defender's threat cells. */
static int leaf(qd_search *s, qc_mask a, qc_mask d, qc_mask theirs, qc_forced_win_result *r)
{
    qc_search_options o = QC_SEARCH_DEFAULTS;
    o.node_limit = s->leaf_limit;
    o.any_win = 1; /* a node needs a win, not the shortest: no deepening (half the leaf time) */
    o.tt = s->leaf_tt;
    o.stop = s->opt.stop;
    const double t0 = now();
    qc_forced_win_scanned(a, d, theirs, &o, r);
    s->leaf_seconds += now() - t0;
    s->leaf_calls++;
    s->leaf_nodes += r->nodes;
    return r->length > 0;
}

/* The known winning move at canonical (a, d) (qd_options.known), or -1. */
static int known_move(const qd_search *s, qc_mask a, qc_mask d)
{
    return s->known.count ? qv_map_get(&s->known, a, d) : -1;
}

static void settle(node_t *n, int won, int kind)
{
    n->pn = won ? 0 : INF;
    n->dn = won ? INF : 0;
    n->kind = (uint8_t)kind;
    n->flags = 0;
}

/* A new position's numbers from threat scans (and, at the defender's turn, whether a
 * pass would lose to a threat sequence). `forced` > 0: a witness already proved the
 * attacker's forced win; < 0: it is known that there is none. */
static void evaluate(qd_search *s, qc_mask a, qc_mask d, int attacker, int forced, node_t *n,
                     qc_forced_win_result *found)
{
    s->nodes++;
    check_limits(s);
    n->work = 1;
    n->best = NO_MOVE;
    n->flags = 0;
    n->pn = n->dn = 1;
    const qc_mask empty = ~(a | d);
    if (attacker) {
        const qc_mask theirs = qc_threat_cells(d, a);
        if (qc_threat_cells(a, d))
            return settle(n, 1, K_WIN);
        if ((theirs & (theirs - 1)) || !empty)
            return settle(n, 0, K_LOST);
        if (known_move(s, a, d) >= 0) {
            s->known_proofs++;
            return settle(n, 1, K_KNOWN);
        }
        qc_forced_win_result r;
        if (forced > 0)
            return settle(n, 1, K_FORCED);
        if (forced == 0 && leaf(s, a, d, theirs, &r)) {
            if (found)
                *found = r;
            return settle(n, 1, K_FORCED);
        }
        n->kind = theirs ? K_BLOCK : K_MOVE;
    } else {
        const qc_mask mine = qc_threat_cells(a, d);
        if (qc_threat_cells(d, a) || !empty)
            return settle(n, 0, K_LOST);
        if (mine & (mine - 1))
            return settle(n, 1, K_DOUBLE);
        n->kind = mine ? K_BLOCK : K_MOVE;
        qc_forced_win_result r;
        if (!mine && !leaf(s, a, d, 0, &r))
            n->pn = HARD_REPLY_PN;
    }
}

static int is_attacker(const qd_search *s, qc_mask a, qc_mask d)
{
    return (qc_count(a | d) & 1) == s->parity;
}

/* The numbers of canonical (a, d): from the table, else evaluated and stored. */
static void get(qd_search *s, qc_mask a, qc_mask d, int forced, node_t *n)
{
    if (probe(s, a, d, n))
        return;
    evaluate(s, a, d, is_attacker(s, a, d), forced, n, NULL);
    put(s, a, d, n);
}

/* ------------------------------------------------------------------ children */

/* The children of canonical (a, d), each equivalent child once; the attacker's best first. */
static int children(qc_mask a, qc_mask d, int attacker, kid_t *kids)
{
    qc_mask moves;
    if (attacker) {
        const qc_mask theirs = qc_threat_cells(d, a);
        moves = theirs ? theirs & -theirs : ~(a | d);
    } else {
        const qc_mask mine = qc_threat_cells(a, d);
        moves = mine ? mine & -mine : ~(a | d);
    }
    /* The 192 images of (a, d) once; a child's images add one mark's image each. A child's
     * image under t is at least a's image under t, so the transforms are visited in order
     * of the highest cell of a's image (a counting sort) and the scan stops once that cell
     * lies above the highest cell of the best image found. */
    qc_mask ia[QC_TRANSFORMS], id[QC_TRANSFORMS];
    const uint8_t *cells[QC_TRANSFORMS];
    uint8_t order[QC_TRANSFORMS], top[QC_TRANSFORMS];
    int next[QC_CELLS + 1] = {0}; /* where the next transform of each highest cell goes */
    for (int t = 0; t < QC_TRANSFORMS; t++) {
        ia[t] = qc_map_mask(t, a);
        id[t] = qc_map_mask(t, d);
        cells[t] = qc_transform(t);
        top[t] = (uint8_t)(ia[t] ? 63 - __builtin_clzll(ia[t]) : 0);
        next[top[t] + 1]++;
    }
    for (int c = 0; c < QC_CELLS; c++)
        next[c + 1] += next[c];
    for (int t = 0; t < QC_TRANSFORMS; t++)
        order[next[top[t]]++] = (uint8_t)t;
    int n = 0;
    for (; moves; moves &= moves - 1) {
        const int m = qc_low(moves);
        const qc_mask bit = 1ULL << m;
        qc_mask ca = ~0ULL, cd = ~0ULL;
        int ct = 0, catop = 63;
        for (int j = 0; j < QC_TRANSFORMS; j++) {
            const int t = order[j];
            if (top[t] > catop)
                break; /* every image from here on is above ca */
            if (ia[t] > ca)
                continue;
            const qc_mask mb = 1ULL << cells[t][m];
            const qc_mask x = attacker ? ia[t] | mb : ia[t], o = attacker ? id[t] : id[t] | mb;
            if (x < ca || (x == ca && (o < cd || (o == cd && t < ct)))) {
                ca = x;
                cd = o;
                ct = t;
                catop = 63 - __builtin_clzll(ca);
            }
        }
        int dup = 0;
        for (int i = 0; i < n && !dup; i++)
            dup = kids[i].a == ca && kids[i].d == cd;
        if (dup)
            continue;
        kid_t *k = &kids[n++];
        k->a = ca;
        k->d = cd;
        k->move = (uint8_t)m;
        k->t = (uint8_t)ct;
        k->score = 0;
        if (attacker) {
            qc_mask forcing;
            const qc_mask major = qc_major_and_forcing(a | bit, d, &forcing);
            k->score = (int16_t)(8 * (4 * qc_count(major) + qc_count(forcing)) +
                                 qc_lines_through_count[m]);
            for (int j = n - 1; j > 0 && kids[j - 1].score < kids[j].score; j--) {
                const kid_t t = kids[j];
                kids[j] = kids[j - 1];
                kids[j - 1] = t;
            }
        }
    }
    return n;
}

/*
 * The numbers of child `k` of (a, d). At the defender's turn a new reply is proven when a
 * known forced win `w` still holds after it (replayed, no search); when `w->none`, the
 * attacker has no forced win even after a pass, so none after any reply (a defender mark
 * never helps the attacker's threat sequences) and the reply needs no leaf search. A
 * forced win a leaf search finds is added to `w` in the parent's frame.
 */
/* Keep forced win `r` in `w` (replacing the oldest when full), its cells mapped by `map`. */
static void remember(witnesses_t *w, const qc_forced_win_result *r, const uint8_t *map)
{
    uint8_t *seq = w->seq[w->next];
    w->cells[w->next] = 0;
    for (int i = 0; i < r->seq_len; i++)
        w->cells[w->next] |= 1ULL << (seq[i] = map[r->seq[i]]);
    w->len[w->next] = (uint8_t)r->seq_len;
    w->next = (w->next + 1) % WITNESSES;
    w->count += w->count < WITNESSES;
}

/* ------------------------------------------------------------------ pass proofs */

/* The cells of the lines on which a defender mark would change the rules' verdicts: the
 * attacker's threes (the mark would block one) and the lines where the defender has two or
 * more marks and the attacker none (the mark would make a three, or four). `sequence`: at
 * the end of a threat sequence, whose positions are not walked one by one, whatever the
 * other side holds (a line free of the other side at some point of the sequence). */
static qc_mask line_zone(qc_mask a, qc_mask d, int sequence)
{
    qc_mask z = 0;
    for (int i = 0; i < QC_LINES; i++) {
        const qc_mask l = qc_line_masks[i];
        const int na = qc_count(a & l), nd = qc_count(d & l);
        if ((na >= 3 && (sequence || !nd)) || (nd >= 2 && (sequence || !na)))
            z |= l;
    }
    return z;
}

#define ZONE_WALK_LIMIT 20000 /* positions of the proof tree walked, in the pass's own frame */

typedef struct {
    qd_search *z; /* the search after the pass, proven */
    qv_map seen;
    uint64_t visits;
    qc_mask zone;
} zone_walk_t;

/*
 * The zone of the proof tree in z's table below (a, d), in the pass's frame (the cells are
 * not canonicalised: the zone is a set of cells of the board at the pass). The proof is
 * the attacker's strategy T. A defender mark on a cell c outside the zone changes nothing T
 * relies on: T never plays c (nor does any threat sequence at its leaves); at every
 * position of T where c is empty, c blocks none of the attacker's threes and makes no three
 * for the defender (no line through c holds two defender marks and no attacker mark), so
 * the rules' verdicts (win now, block, a double three, the defender's win) and the threat
 * sequences are as they were; the defender's replies are T's less c. So T wins the position
 * after the reply c too, every one of its lines avoiding c.
 * Returns 0, or -1 when part of the proof is missing from z's table or the walk is too long.
 */
static int zone_walk(zone_walk_t *w, qc_mask a, qc_mask d, int attacker)
{
    const int added = qv_map_put(&w->seen, a, d, 0);
    if (added <= 0)
        return added;
    if (++w->visits > ZONE_WALK_LIMIT)
        return -1;
    w->zone |= line_zone(a, d, 0);
    qc_mask ca, cd;
    const int t = qc_canonical(a, d, &ca, &cd);
    node_t n;
    if (!probe(w->z, ca, cd, &n) || n.pn != 0)
        return -1;
    if (attacker) {
        if (n.kind == K_WIN)
            return 0;
        if (n.kind == K_FORCED) { /* the sequence's cells, and the lines it fills */
            qc_forced_win_result r;
            qc_search_options o = QC_SEARCH_DEFAULTS;
            o.any_win = 1;
            o.node_limit = w->z->leaf_limit;
            if (qc_forced_win(a, d, &o, &r) <= 0)
                return -1;
            qc_mask xa = a, xd = d;
            for (int i = 0; i < r.seq_len; i++) {
                const qc_mask b = 1ULL << r.seq[i];
                w->zone |= b;
                *(i & 1 ? &xd : &xa) |= b;
            }
            w->zone |= line_zone(xa, xd, 1);
            return 0;
        }
        int m = -1;
        if (n.kind == K_BLOCK) {
            m = qc_low(qc_threat_cells(d, a));
        } else { /* a proven move: the one with the least work below it */
            kid_t kids[QC_CELLS];
            const int k = children(ca, cd, 1, kids);
            uint32_t least = UINT32_MAX;
            for (int i = 0; i < k; i++) {
                node_t kn;
                if (probe(w->z, kids[i].a, kids[i].d, &kn) && kn.pn == 0 && kn.work < least) {
                    least = kn.work;
                    m = qc_transform(qc_inverse(t))[kids[i].move];
                }
            }
            if (m < 0)
                return -1;
        }
        w->zone |= 1ULL << m;
        return zone_walk(w, a | 1ULL << m, d, 0);
    }
    if (n.kind == K_DOUBLE)
        return 0;
    const qc_mask mine = qc_threat_cells(a, d);
    for (qc_mask e = mine ? mine & -mine : ~(a | d); e; e &= e - 1) /* every reply, in this frame */
        if (zone_walk(w, a, d | (e & -e), 1) < 0)
            return -1;
    return 0;
}

/*
 * At the defender's turn (a, d) (canonical, no threes), K_MOVE: the zone of a proof that
 * the attacker wins after a pass, found by a search of at most opt.pass_node_limit nodes
 * (its nodes count as this search's). Searched once per position (F_PASS in *n's flags);
 * the zones found are kept in a cache. Returns 1 with *zone, else 0.
 */
static int pass_zone(qd_search *s, qc_mask a, qc_mask d, node_t *n, qc_mask *zone)
{
    zone_slot *slot = s->zones + (hash_of(a, d) & (((size_t)1 << ZONE_CACHE_LOG2) - 1));
    if (slot->a == a && slot->d == d && (a | d)) {
        *zone = slot->zone;
        return 1;
    }
    if (n->flags & F_PASS)
        return 0;
    n->flags |= F_PASS;
    qd_options o = {0};
    o.node_limit = s->opt.pass_node_limit;
    o.memory_bytes = (size_t)16 << 20;
    o.leaf_node_limit = s->leaf_limit;
    o.stop = s->opt.stop;
    qd_search *z = qd_new(a, d, &o); /* the attacker to move on the same board: the pass */
    if (!z)
        return 0;
    qd_result r;
    qd_run(z, &r);
    s->nodes += r.nodes;
    s->leaf_calls += r.leaf_calls;
    s->leaf_nodes += r.leaf_nodes;
    s->leaf_seconds += r.leaf_seconds;
    s->pass_searches++;
    int found = 0;
    zone_walk_t w = {z, {0}, 0, 0};
    if (r.status == QD_WON && qv_map_init(&w.seen, 1024) == 0) {
        found = zone_walk(&w, a, d, 1) == 0 && ~(a | d) & ~w.zone;
        qv_map_free(&w.seen);
    }
    qd_free(z);
    if (found) {
        s->pass_proofs++;
        *slot = (zone_slot){a, d, w.zone};
        *zone = w.zone;
    }
    return found;
}

static void get_kid(qd_search *s, qc_mask a, qc_mask d, const kid_t *k, witnesses_t *w, node_t *n)
{
    const int zoned = w && w->zoned && !(w->zone >> k->move & 1);
    if (probe(s, k->a, k->d, n) && (!zoned || n->pn == 0 || n->dn == 0))
        return;
    if (zoned) { /* the proof after the pass holds (also for a reply searched before the pass was) */
        s->nodes++;
        s->zone_proofs++;
        settle(n, 1, K_ZONE);
        n->work = 1;
        n->best = NO_MOVE;
        put(s, k->a, k->d, n);
        return;
    }
    int forced = w && w->none ? -1 : 0;
    if (w && !forced) {
        const qc_mask dk = d | 1ULL << k->move;
        for (int i = 0; i < w->count && !forced; i++)
            forced = !(w->cells[i] >> k->move & 1) && qv_witness_holds(a, dk, w->seq[i], w->len[i]);
    }
    qc_forced_win_result r;
    r.length = 0;
    evaluate(s, k->a, k->d, !is_attacker(s, a, d) ? 1 : 0, forced, n, w ? &r : NULL);
    put(s, k->a, k->d, n);
    if (w && r.length > 0)
        remember(w, &r, qc_transform(qc_inverse(k->t))); /* back from the child's canonical frame */
}

/* ------------------------------------------------------------------ MID */

static uint32_t add_sat(uint64_t x, uint64_t y) { return x + y >= INF ? INF : (uint32_t)(x + y); }

/* second * (1 + quarters / 4), at least second + 1, at most threshold */
static uint32_t widened(uint32_t second, uint32_t threshold, int quarters)
{
    if (second >= INF)
        return threshold;
    const uint64_t e = (uint64_t)second * (uint64_t)quarters / 4;
    const uint64_t w = (uint64_t)second + (e > 1 ? e : 1);
    return w < threshold ? (uint32_t)w : threshold;
}

static void mid(qd_search *s, qc_mask a, qc_mask d, uint32_t thpn, uint32_t thdn, int root)
{
    node_t n;
    get(s, a, d, 0, &n);
    if (n.pn >= thpn || n.dn >= thdn || s->stopped)
        return;
    const int attacker = is_attacker(s, a, d);
    const uint64_t nodes0 = s->nodes, work0 = n.work;
    qc_forced_win_result r;
    witnesses_t wit, *w = NULL;
    if (!attacker && n.kind == K_MOVE) {
        w = &wit;
        w->none = w->count = w->next = w->zoned = 0;
        if (leaf(s, a, d, 0, &r)) { /* K_MOVE: no threes on the board */
            remember(w, &r, qc_transform(0)); /* the identity: already in this frame */
        } else {
            w->none = r.length == 0 && r.reached == QC_NONE_AT_ANY_LENGTH;
            if (s->zones && n.work >= (uint64_t)s->opt.pass_work * s->opt.pass_node_limit) /* no threat
                * sequence after a pass, and the replies have cost pass_work times the pass search's
                * budget: perhaps a proof tree */
                w->zoned = pass_zone(s, a, d, &n, &w->zone);
        }
    }
    kid_t kids[QC_CELLS];
    node_t kn[QC_CELLS];
    const int k = children(a, d, attacker, kids);
    uint64_t stepped = 0; /* at the root: the first moves searched one step */
    s->expansions++;
    for (int i = 0; i < k; i++) /* the probes below mostly miss the cache: overlap the misses */
        __builtin_prefetch(bucket_of(s, kids[i].a, kids[i].d));
    for (int i = 0; i < k; i++)
        get_kid(s, a, d, &kids[i], w, &kn[i]);
    uint32_t penalty[QC_CELLS]; /* the attacker's moves: kids[0] scores best */
    for (int i = 0; i < k; i++)
        penalty[i] = attacker ? (uint32_t)(kids[0].score - kids[i].score) >> PENALTY_SHIFT : 0;
    for (;;) {
        int best = 0;
        uint32_t first = INF + 1, second = INF, least = INF;
        uint64_t sum = 0;
        uint32_t most = 0, open_kids = 0; /* weak sums (opt.weak_pns) */
        for (int i = 0; i < k; i++) {
            const uint32_t other = attacker ? kn[i].dn : kn[i].pn;
            if (other > 0 && other < INF) {
                most = other > most ? other : most;
                open_kids++;
            }
            uint32_t v = attacker ? kn[i].pn : kn[i].dn;
            if (v > 0 && v < INF) /* (saturating below INF: INF means disproven) */
                v = v + penalty[i] < INF ? v + penalty[i] : INF - 1;
            least = v < least ? v : least;
            if (root && attacker && i == 0 && v < INF)
                v = (v + ROOT_BIAS - 1) / ROOT_BIAS; /* the favourite first move (kids[0]) */
            sum += attacker ? kn[i].dn : kn[i].pn;
            if (v < first) {
                second = first;
                first = v;
                best = i;
            } else if (v < second) {
                second = v;
            }
        }
        if (second > INF)
            second = INF;
        /* A sum saturates one below INF: INF means settled. (Saturating at INF made an
         * unsettled node with a huge disproof number look disproven to its parent, and the
         * empty board's search stopped with the root's proof number at 2.) */
        uint32_t total = sum >= INF - 1 ? INF - 1 : (uint32_t)sum;
        if (s->opt.weak_pns > attacker && total < INF - 1 && open_kids) /* 1: the defender's turns, 2: both */
            total = most + open_kids - 1;
        if (attacker) {
            n.pn = least;
            n.dn = n.pn == 0 ? INF : total;
            if (n.pn == 0)
                n.best = kids[best].move;
        } else {
            n.dn = first;
            n.pn = n.dn == 0 ? INF : total;
        }
        const uint64_t work = work0 + (s->nodes - nodes0);
        n.work = work >= UINT32_MAX ? UINT32_MAX : (uint32_t)work;
        put(s, a, d, &n);
#ifdef QD_TRACE
        fprintf(stderr, "%*s%s marks %d pn %u dn %u th %u %u k %d best %d(%u,%u) second %u\n", qc_count(a|d)-6, "", attacker ? "OR" : "AND", qc_count(a|d), n.pn, n.dn, thpn, thdn, k, kids[best].move, kn[best].pn, kn[best].dn, second);
#endif
        if (n.pn >= thpn || n.dn >= thdn || s->stopped)
            return;
        if (root && attacker) { /* each first move one step before the favourite's bias applies */
            int fresh = -1;
            for (int i = 0; i < k && fresh < 0; i++) /* (work > 1: expanded before a saved table) */
                if (!(stepped >> i & 1) && kn[i].pn != 0 && kn[i].dn != 0 && kn[i].work <= 1)
                    fresh = i;
            if (fresh >= 0) {
                stepped |= 1ULL << fresh;
                mid(s, kids[fresh].a, kids[fresh].d, add_sat(kn[fresh].pn, 1), add_sat(kn[fresh].dn, 1), 0);
                get_kid(s, a, d, &kids[fresh], w, &kn[fresh]);
                continue;
            }
        }
        uint32_t cpn, cdn;
        if (attacker) { /* (the best's pn plus its penalty is below both second and thpn) */
            cpn = widened(second, thpn, QUARTERS);
            cpn = cpn >= INF ? INF : cpn - penalty[best];
            if (root && best == 0)
                cpn = cpn >= INF / ROOT_BIAS ? thpn : cpn * ROOT_BIAS < thpn ? cpn * ROOT_BIAS : thpn;
            cdn = thdn >= INF ? INF : add_sat(thdn - n.dn, kn[best].dn);
        } else {
            cdn = widened(second, thdn, QUARTERS);
            cpn = thpn >= INF ? INF : add_sat(thpn - n.pn, kn[best].pn);
        }
        mid(s, kids[best].a, kids[best].d, cpn, cdn, 0);
        /* Only the searched child is read again: a sibling changed only through a
         * transposition, which the sibling's own next visit reads. */
        get_kid(s, a, d, &kids[best], w, &kn[best]);
    }
}

/* ------------------------------------------------------------------ API */

qd_search *qd_new(qc_mask a, qc_mask d, const qd_options *opt)
{
    qd_search *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    if (opt)
        s->opt = *opt;
    size_t bytes = s->opt.memory_bytes ? s->opt.memory_bytes : (size_t)256 << 20;
    if (s->opt.progress_seconds <= 0)
        s->opt.progress_seconds = 0.25;
    s->leaf_limit = s->opt.leaf_node_limit ? s->opt.leaf_node_limit : 1000000;
    /* up to one eighth for the leaves' table of failed positions (24-byte entries) */
    s->max_leaf_log2 = 10;
    while (s->max_leaf_log2 < 27 && ((size_t)24 << (s->max_leaf_log2 + 1)) <= bytes / 8)
        s->max_leaf_log2++;
    s->max_buckets = 1;
    while (s->max_buckets * 2 * BUCKET * sizeof(entry_t) <= bytes - ((size_t)24 << s->max_leaf_log2))
        s->max_buckets *= 2;
    const size_t buckets = s->max_buckets < 512 ? s->max_buckets : 512;
    s->leaf_log2 = s->max_leaf_log2 < 13 ? s->max_leaf_log2 : 13;
    s->tt = calloc(buckets * BUCKET, sizeof(entry_t));
    s->leaf_tt = qc_tt_new(s->leaf_log2);
    if (!s->tt || !s->leaf_tt) {
        qd_free(s);
        return NULL;
    }
    s->bucket_mask = buckets - 1;
    if (s->opt.known_count) {
        if (qv_map_init(&s->known, s->opt.known_count) != 0) {
            qd_free(s);
            return NULL;
        }
        for (size_t i = 0; i < s->opt.known_count; i++) {
            const qd_entry *k = &s->opt.known[i];
            if (k->move < QC_CELLS && !((k->a | k->d) >> k->move & 1) && qv_map_put(&s->known, k->a, k->d, k->move) < 0) {
                qd_free(s);
                return NULL;
            }
        }
    }
    s->opt.known = NULL; /* the caller's array need not outlive qd_new */
    s->opt.known_count = 0;
    if (s->opt.pass_node_limit && !(s->zones = calloc((size_t)1 << ZONE_CACHE_LOG2, sizeof *s->zones))) {
        qd_free(s);
        return NULL;
    }
    s->root_a = a;
    s->root_d = d;
    s->rt = qc_canonical(a, d, &s->ra, &s->rd);
    s->parity = qc_count(a | d) & 1;
    const int m = s->opt.first_move - 1;
    s->first = -1;
    if (m >= 0 && m < QC_CELLS && !((a | d) >> m & 1)) {
        s->first = qc_transform(s->rt)[m];
        s->first_wins = (int)(qc_threat_cells(a, d) >> m & 1);
        qc_canonical(a | 1ULL << m, d, &s->first_a, &s->first_d);
    }
    return s;
}

void qd_free(qd_search *s)
{
    if (!s)
        return;
    free(s->tt);
    free(s->zones);
    qv_map_free(&s->known);
    qc_tt_free(s->leaf_tt);
    free(s);
}

uint64_t qd_nodes(const qd_search *s) { return s->nodes; }

/* The root's move in its own orientation: the winning move when proven, else the child
 * with the least proof number (then the greatest disproof number). */
static int root_move(qd_search *s, const node_t *root)
{
    const int back = qc_inverse(s->rt);
    if (root->pn == 0 && root->kind == K_WIN)
        return qc_low(qc_threat_cells(s->root_a, s->root_d));
    if (root->pn == 0 && root->kind == K_FORCED) {
        qc_forced_win_result r;
        qc_search_options o = QC_SEARCH_DEFAULTS;
        qc_forced_win(s->root_a, s->root_d, &o, &r);
        return r.length > 0 ? r.seq[0] : -1;
    }
    if (root->pn == 0 && root->kind == K_KNOWN && known_move(s, s->ra, s->rd) >= 0)
        return qc_transform(back)[known_move(s, s->ra, s->rd)];
    if (root->pn == 0 && root->best != NO_MOVE)
        return qc_transform(back)[root->best];
    if (root->dn == 0 && root->kind == K_LOST)
        return -1;
    kid_t kids[QC_CELLS];
    const int k = children(s->ra, s->rd, 1, kids);
    int best = -1;
    node_t bn = {INF + 1, 0, 0, 0, 0, 0};
    for (int i = 0; i < k; i++) {
        node_t kn;
        if (!probe(s, kids[i].a, kids[i].d, &kn))
            kn.pn = kn.dn = 1;
        if (kn.pn < bn.pn || (kn.pn == bn.pn && kn.dn > bn.dn)) {
            bn = kn;
            best = i;
        }
    }
    return best < 0 ? -1 : qc_transform(back)[kids[best].move];
}

int qd_run(qd_search *s, qd_result *out)
{
    memset(out, 0, sizeof *out);
    s->start = now();
    s->deadline = s->opt.time_limit > 0 ? s->start + s->opt.time_limit : 0;
    s->next_progress = s->start + s->opt.progress_seconds;
    s->stopped = QD_SETTLED;
    node_t root = {0};
    const uint32_t thpn = s->opt.root_pn && s->opt.root_pn < INF ? s->opt.root_pn : INF;
    const uint32_t thdn = s->opt.root_dn && s->opt.root_dn < INF ? s->opt.root_dn : INF;
    if (s->first >= 0 && s->first_wins) {
        settle(&root, 1, K_WIN);
    } else if (s->first >= 0) { /* the position after the fixed move stands for the root */
        mid(s, s->first_a, s->first_d, thpn, thdn, 0);
        get(s, s->first_a, s->first_d, 0, &root);
    } else { /* (the root's own heuristics -- a favourite first move, each first move one step first --
              * only for a search of its own: with thresholds the root is a node of a larger search) */
        mid(s, s->ra, s->rd, thpn, thdn, thpn == INF && thdn == INF);
        get(s, s->ra, s->rd, 0, &root);
    }
    out->status = root.pn == 0 ? QD_WON : root.dn == 0 ? QD_NOT_WON : QD_UNKNOWN;
    out->stopped = out->status != QD_UNKNOWN ? QD_SETTLED : s->stopped != QD_SETTLED ? s->stopped : QD_THRESHOLD;
    out->move = s->first >= 0 ? s->opt.first_move - 1 : root_move(s, &root);
    out->pn = root.pn;
    out->dn = root.dn;
    out->nodes = s->nodes;
    out->expansions = s->expansions;
    out->leaf_calls = s->leaf_calls;
    out->leaf_nodes = s->leaf_nodes;
    out->leaf_seconds = s->leaf_seconds;
    out->seconds = now() - s->start;
    out->table_entries = (s->bucket_mask + 1) * BUCKET;
    out->table_used = s->used;
    out->replaced = s->replaced;
    out->pass_searches = s->pass_searches;
    out->pass_proofs = s->pass_proofs;
    out->zone_proofs = s->zone_proofs;
    out->known_proofs = s->known_proofs;
    return out->status;
}

/* ------------------------------------------------------------------ saved tables */

/* Bump when a stored number's meaning changes (evaluation, proof numbers, kinds): a saved
 * table of other semantics is refused rather than trusted. */
#define SEMANTICS 3 /* 2: the attacker's proof numbers count move penalties; 3: K_ZONE */

typedef struct {
    char magic[8];
    uint32_t semantics, entry_bytes, byte_order;
    int32_t first;
    qc_mask ra, rd;
    uint64_t count, checksum; /* a damaged blob must not pass for proofs */
} saved_header;

static uint64_t checksum_of(const entry_t *e, uint64_t count)
{
    uint64_t h = count;
    for (uint64_t i = 0; i < count; i++) {
        h = qc_mix(h ^ e[i].a);
        h = qc_mix(h ^ e[i].d);
        h = qc_mix(h ^ ((uint64_t)e[i].pn << 32 | e[i].dn));
        h = qc_mix(h ^ ((uint64_t)e[i].work << 32 | (uint32_t)e[i].flags << 16 | (uint32_t)e[i].kind << 8 | e[i].best));
    }
    return h;
}

static const char MAGIC[8] = "qdfpn-t";

static int root_of_header(const qd_search *s, const saved_header *h)
{
    return h->ra == s->ra && h->rd == s->rd && h->first == s->first;
}

size_t qd_save(const qd_search *s, uint64_t max_entries, void **blob)
{
    /* the threshold: the least work whose entries, with all above it, fit max_entries */
    const size_t total = (s->bucket_mask + 1) * BUCKET;
    uint64_t at_bits[34] = {0};
    for (size_t i = 0; i < total; i++)
        if (s->tt[i].flags & F_USED)
            at_bits[64 - __builtin_clzll((uint64_t)s->tt[i].work | 1)]++;
    int floor_bits = 33;
    uint64_t count = 0;
    while (floor_bits > 1 && count + at_bits[floor_bits - 1] <= max_entries)
        count += at_bits[--floor_bits];
    uint64_t partial = floor_bits > 1 ? max_entries - count : 0; /* from the bucket just below */
    count += partial;
    const size_t size = sizeof(saved_header) + count * sizeof(entry_t);
    saved_header *h = malloc(size);
    if (!h)
        return 0;
    memset(h, 0, sizeof *h);
    memcpy(h->magic, MAGIC, sizeof MAGIC);
    h->semantics = SEMANTICS;
    h->entry_bytes = sizeof(entry_t);
    h->byte_order = 0x01020304;
    h->ra = s->ra;
    h->rd = s->rd;
    h->first = s->first;
    entry_t *out = (entry_t *)(h + 1);
    uint64_t n = 0;
    for (size_t i = 0; i < total && n < count; i++) {
        const entry_t *e = s->tt + i;
        if (!(e->flags & F_USED))
            continue;
        const int bits = 64 - __builtin_clzll((uint64_t)e->work | 1);
        if (bits >= floor_bits || (bits == floor_bits - 1 && partial && partial--))
            out[n++] = *e;
    }
    h->count = n;
    h->checksum = checksum_of(out, n);
    *blob = h;
    return sizeof(saved_header) + n * sizeof(entry_t);
}

long qd_load(qd_search *s, const void *blob, size_t size)
{
    saved_header h;
    if (size < sizeof h)
        return QD_LOAD_CORRUPT;
    memcpy(&h, blob, sizeof h);
    if (memcmp(h.magic, MAGIC, sizeof MAGIC) != 0 || h.semantics != SEMANTICS || h.entry_bytes != sizeof(entry_t) ||
        h.byte_order != 0x01020304 || h.count != (size - sizeof h) / sizeof(entry_t) ||
        (size - sizeof h) % sizeof(entry_t) != 0)
        return QD_LOAD_CORRUPT;
    if (!root_of_header(s, &h))
        return QD_LOAD_OTHER_ROOT;
    const entry_t *e = (const entry_t *)((const saved_header *)blob + 1); /* (malloc'd or bytes: aligned) */
    if (checksum_of(e, h.count) != h.checksum)
        return QD_LOAD_CORRUPT;
    for (uint64_t i = 0; i < h.count; i++) {
        const node_t n = {e[i].pn, e[i].dn, e[i].work, (uint8_t)(e[i].flags & ~F_USED), e[i].kind, e[i].best};
        put(s, e[i].a, e[i].d, &n);
    }
    return (long)h.count;
}

/* ------------------------------------------------------------------ extraction */

typedef struct {
    qv_map seen;
    qv_map size; /* memo of tree_size: 1 + the size, attacker's turns and defender's turns alike */
    qd_entry *items;
    size_t count, cap;
} extraction_t;

#define BIG 0x3fffffff /* a subtree not proven in the table */

/* The numbers of a proven position, proving it again when it left the table. */
static int proven(qd_search *s, qc_mask a, qc_mask d, node_t *n)
{
    get(s, a, d, 0, n);
    if (n->pn == 0 && n->kind == K_KNOWN && known_move(s, a, d) < 0) {
        evaluate(s, a, d, 1, 0, n, NULL); /* known to a search whose table was saved, not to this one */
        put(s, a, d, n);
    }
    if (n->pn == 0 && n->kind == K_ZONE) { /* proven by a pass proof's zone: search its own tree */
        evaluate(s, a, d, 1, 0, n, NULL);
        put(s, a, d, n);
    }
    if (n->pn != 0) {
        mid(s, a, d, INF, INF, 0);
        get(s, a, d, 0, n);
    }
    return n->pn == 0 && !s->stopped;
}

/*
 * The strategic positions of the smallest proof tree the table holds below canonical
 * (a, d), counting a position once per path (no sharing): the choice of move at the
 * attacker's turns is the one that minimises it. BIG when part of the proof left the table.
 */
static uint32_t tree_size(qd_search *s, extraction_t *e, qc_mask a, qc_mask d)
{
    const int memo = qv_map_get(&e->size, a, d);
    if (memo > 0)
        return (uint32_t)memo - 1;
    node_t n;
    if (!probe(s, a, d, &n) || n.pn != 0)
        return BIG;
    const int attacker = is_attacker(s, a, d);
    uint64_t size = 0;
    if (n.kind == K_KNOWN) {
        size = 1; /* its proof is shared with the proof it came from */
    } else if (!(n.kind == K_WIN || n.kind == K_FORCED || n.kind == K_DOUBLE)) {
        kid_t kids[QC_CELLS];
        const int k = children(a, d, attacker, kids);
        if (attacker) {
            uint64_t least = BIG;
            for (int i = 0; i < k; i++) {
                node_t kn;
                if (probe(s, kids[i].a, kids[i].d, &kn) && kn.pn == 0) {
                    const uint64_t t = tree_size(s, e, kids[i].a, kids[i].d);
                    least = t < least ? t : least;
                }
            }
            size = least + (n.kind == K_MOVE);
        } else {
            for (int i = 0; i < k && size < BIG; i++)
                size += tree_size(s, e, kids[i].a, kids[i].d);
        }
    }
    if (size > BIG)
        size = BIG;
    if (qv_map_put(&e->size, a, d, (int)size + 1) < 0)
        return BIG;
    return (uint32_t)size;
}

static int extract_defender(qd_search *s, extraction_t *e, qc_mask a, qc_mask d);

static int add_entry(extraction_t *e, qc_mask a, qc_mask d, int move)
{
    if (e->count == e->cap) {
        e->cap = e->cap ? 2 * e->cap : 1024;
        qd_entry *grown = realloc(e->items, e->cap * sizeof *grown);
        if (!grown)
            return -1;
        e->items = grown;
    }
    e->items[e->count++] = (qd_entry){a, d, (uint8_t)move};
    return 0;
}

static int extract_attacker(qd_search *s, extraction_t *e, qc_mask a, qc_mask d)
{
    const int added = qv_map_put(&e->seen, a, d, 1);
    if (added <= 0)
        return added;
    node_t n;
    if (!proven(s, a, d, &n))
        return -1;
    if (n.kind == K_WIN || n.kind == K_FORCED)
        return 0;
    if (n.kind == K_KNOWN) { /* the known move, and its proof below, proved again where the table lacks it */
        const int move = known_move(s, a, d);
        qc_mask ka, kd;
        qc_canonical(a | 1ULL << move, d, &ka, &kd);
        if (add_entry(e, a, d, move) < 0)
            return -1;
        return extract_defender(s, e, ka, kd);
    }
    kid_t kids[QC_CELLS];
    const int k = children(a, d, 1, kids);
    int choice = -1;
    if (n.kind == K_MOVE) {
        /* into a position the strategy already holds, else the smallest proof tree, else
         * the least work below */
        uint64_t least = UINT64_MAX;
        for (int i = 0; i < k; i++) {
            node_t kn;
            if (!probe(s, kids[i].a, kids[i].d, &kn) || kn.pn != 0)
                continue;
            const uint64_t w = qv_map_get(&e->seen, kids[i].a, kids[i].d) >= 0
                                   ? 0
                                   : ((uint64_t)tree_size(s, e, kids[i].a, kids[i].d) + 1) << 32 | kn.work;
            if (w < least) {
                least = w;
                choice = i;
            }
        }
        for (int i = 0; i < k && choice < 0; i++)
            if (kids[i].move == n.best)
                choice = i;
        if (choice < 0 || add_entry(e, a, d, kids[choice].move) < 0)
            return -1;
    } else {
        choice = 0; /* the block */
    }
    return extract_defender(s, e, kids[choice].a, kids[choice].d);
}

static int extract_defender(qd_search *s, extraction_t *e, qc_mask a, qc_mask d)
{
    const int added = qv_map_put(&e->seen, a, d, 0);
    if (added <= 0)
        return added;
    node_t n;
    if (!proven(s, a, d, &n))
        return -1;
    if (n.kind == K_DOUBLE)
        return 0;
    kid_t kids[QC_CELLS];
    const int k = children(a, d, 0, kids);
    for (int i = 0; i < k; i++)
        if (extract_attacker(s, e, kids[i].a, kids[i].d) < 0)
            return -1;
    return 0;
}

long qd_extract(qd_search *s, qd_entry **entries)
{
    extraction_t e = {0};
    *entries = NULL;
    if (qv_map_init(&e.seen, 1024) != 0 || qv_map_init(&e.size, 1024) != 0) { /* both grow */
        qv_map_free(&e.seen);
        return -1;
    }
    s->extracting = 1;
    s->stopped = QD_SETTLED;
    int rc;
    if (s->first < 0)
        rc = extract_attacker(s, &e, s->ra, s->rd);
    else if (s->first_wins)
        rc = 0; /* nothing strategic */
    else if ((rc = add_entry(&e, s->ra, s->rd, s->first)) == 0)
        rc = extract_defender(s, &e, s->first_a, s->first_d);
    s->extracting = 0;
    qv_map_free(&e.seen);
    qv_map_free(&e.size);
    if (rc < 0) {
        free(e.items);
        return -1;
    }
    *entries = e.items;
    return (long)e.count;
}
