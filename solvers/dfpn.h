/*
 * dfpn.h -- depth-first proof-number search (df-pn, Nagai 2002) on the native core:
 * does the side to move force a win? Plain C11, no Python.
 *
 * Node semantics (those of qubic_logic/strategy/solve.py, the readable reference):
 * the side to move at the root is the attacker. At its turns (OR nodes) it wins at once
 * with a threat cell, wins by a forced threat sequence (docs/design.md section 3, settled by
 * qc_forced_win), must block the defender's single three, or may play any empty cell;
 * two defender threats or a full board lose. At the defender's turns (AND nodes) every
 * reply is considered (only the block when the attacker has one three; a double three is
 * won; a defender three or a full board is lost).
 *
 * Positions are keyed by canonical form (qc_canonical, the 192 automorphisms) in a
 * transposition table of 32-byte entries in buckets of four, doubling (when a bucket is
 * full) up to memory_bytes (table and leaf table together); past that the entry with the
 * least work below it is replaced, so memory stays within memory_bytes. Threat-sequence
 * leaves share one qc_tt of failed positions.
 *
 * Thread safety: a qd_search is used by one thread at a time; searches share nothing.
 */
#ifndef QUBIC_DFPN_H
#define QUBIC_DFPN_H

#include "qubic_core.h"

#define QD_INFINITY 0x3fffffffu /* proof and disproof numbers saturate here */

enum { QD_UNKNOWN = -1, QD_NOT_WON = 0, QD_WON = 1 };
enum { QD_SETTLED = 0, QD_TIME_LIMIT, QD_NODE_LIMIT, QD_STOPPED, QD_OUT_OF_MEMORY, QD_THRESHOLD };

typedef struct {
    uint64_t nodes;     /* positions evaluated so far */
    uint32_t pn, dn;    /* the root's proof and disproof numbers */
} qd_progress;

/* A strategic move of the extracted proof: canonical (attacker, defender) masks and the
 * attacker's move in that frame. */
typedef struct qd_entry {
    qc_mask a, d;
    uint8_t move;
} qd_entry;

typedef struct {
    double time_limit;          /* seconds; 0 = none */
    uint64_t node_limit;        /* positions evaluated; 0 = none */
    size_t memory_bytes;        /* transposition tables, both; 0 = 256 MB */
    uint64_t leaf_node_limit;   /* per threat-sequence search; 0 = 1,000,000 */
    int first_move;             /* 1 + a fixed first move (the root's orientation): does it win? 0 = any */
    const volatile int *stop;   /* NULL, or a flag another thread sets non-zero */
    /* Called about every progress_seconds (0 = 0.25 s) from the searching thread; a
     * non-zero return stops the search (stopped = QD_STOPPED). NULL: none. */
    int (*progress)(void *ctx, const qd_progress *p);
    void *progress_ctx;
    double progress_seconds;
    /* Proofs reused across the defender's replies: at a defender's turn where a pass would
     * not lose to a threat sequence, a search of at most this many nodes looks for a proof
     * tree of the attacker's win after the pass; each reply outside that proof's zone (the
     * cells the attacker plays in it, and the cells of every line on which one side has two
     * or more marks and the other none, at any of its positions) is then proven without a
     * search of its own. 0 = off. */
    uint64_t pass_node_limit;
    /* A defender's turn is searched after a pass once the work below it reaches pass_work
     * times pass_node_limit (0: at its first expansion): at its first expansion most such
     * searches fail and cost more than the zones save. */
    uint32_t pass_work;
    /* Weak proof-number search (Ueda et al.): a sum of the children's numbers is replaced by
     * the largest plus the number of other unsettled children, so that a position reached by
     * many move orders is not counted once per order. 0 = plain sums, 1 = at the defender's
     * turns (the proof numbers), 2 = at both. */
    int weak_pns;
    /* Thresholds at the root, as a df-pn parent gives its child (a two-level search's leaves): the
     * search stops unsettled (QD_THRESHOLD) once the root's proof number reaches root_pn or its
     * disproof number root_dn. 0 = none. */
    uint32_t root_pn, root_dn;
    /* Attacker's wins proven elsewhere (earlier proofs' strategic moves, canonical frames,
     * as qd_extract gives them): such a position met at the attacker's turn is proven at
     * once, and an extracted strategy plays its known move there and carries its proof
     * below (proved again where a position of it is missing). Copied by qd_new. */
    const struct qd_entry *known;
    size_t known_count;
} qd_options;

#define QD_PASS_NODES 1000 /* the pass_node_limit and pass_work the Python module uses unless told */
#define QD_PASS_WORK 4

typedef struct {
    int status;              /* QD_WON, QD_NOT_WON or QD_UNKNOWN */
    int stopped;             /* QD_SETTLED, or the limit that ended the search */
    int move;                /* the winning (or most promising) first move, root orientation; -1 none */
    uint32_t pn, dn;         /* the root's numbers */
    uint64_t nodes;          /* positions evaluated (re-evaluations after replacement included) */
    uint64_t expansions;     /* nodes whose children were generated */
    uint64_t leaf_calls;     /* qc_forced_win calls */
    uint64_t leaf_nodes;     /* their search nodes */
    double leaf_seconds;     /* time spent in them */
    double seconds;          /* whole search */
    uint64_t table_entries;  /* capacity of the table at the end (it doubles up to memory_bytes) */
    uint64_t table_used;     /* occupied entries at the end */
    uint64_t replaced;       /* entries overwritten by others */
    uint64_t pass_searches;  /* searches after a defender's pass (pass_node_limit) */
    uint64_t pass_proofs;    /* of which won, with a zone */
    uint64_t zone_proofs;    /* defender replies proven by a pass proof's zone */
    uint64_t known_proofs;   /* attacker's turns proven by a known win (qd_options.known) */
} qd_result;


typedef struct qd_search qd_search;

/* Bytes per transposition-table entry. */
size_t qd_entry_bytes(void);
/* A search of (a, d), `a` to move (any orientation). NULL if out of memory. */
qd_search *qd_new(qc_mask a, qc_mask d, const qd_options *opt);
/* Run until the root is settled or a limit; fills *out. Returns out->status. */
int qd_run(qd_search *s, qd_result *out);
/*
 * After QD_WON: the strategy, one entry per strategic position (the attacker's turns that
 * are not a win, a forced sequence or a block), choosing moves into positions already in
 * the strategy first, then the move with the smallest proof tree in the table (then the
 * least work below it). Entries missing from the table are proved again. Returns the number of entries (*entries malloc'd, the
 * caller frees), or -1 (out of memory, or the search stopped).
 */
long qd_extract(qd_search *s, qd_entry **entries);
/*
 * Saved tables: a search stopped before settling its root keeps its work. qd_save writes
 * the (at most max_entries) entries with the most work below them -- the expanded part of
 * the tree, which steers the search -- with a header naming the root, the fixed first
 * move and the table's semantics; qd_load puts them into a new search of the same root,
 * which then goes on where the saved one stopped (leaves are evaluated again on demand).
 * qd_save returns the blob's size (*blob malloc'd, the caller frees), or 0 when out of
 * memory. qd_load returns the entries loaded, QD_LOAD_CORRUPT (a foreign, truncated or
 * differently built blob) or QD_LOAD_OTHER_ROOT (another position or first move).
 */
enum { QD_LOAD_CORRUPT = -1, QD_LOAD_OTHER_ROOT = -2 };
size_t qd_save(const qd_search *s, uint64_t max_entries, void **blob);
long qd_load(qd_search *s, const void *blob, size_t size);
/* Positions evaluated so far, extraction included (qd_result.nodes counts the search's). */
uint64_t qd_nodes(const qd_search *s);
void qd_free(qd_search *s);

#endif /* QUBIC_DFPN_H */
