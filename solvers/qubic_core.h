/*
 * qubic_core.h -- the native bitboard core of qubic-logic: plain C11, no Python.
 *
 * Other C code (the strategy verifier and proof-number solver in solvers/verify*.c,
 * the CPython module in solvers/native_module.c) links against qubic_core.c and uses
 * only what this header declares. The API is stable: names, types and meanings below
 * do not change; new functions may be added.
 *
 * Board: 64 cells, cell = x + 4*y + 16*z (Patashnik's 0..63, docs/design.md section 1);
 * bit c of a qc_mask is cell c. Everywhere, `a` is the attacker's mask (the side
 * whose threats are asked for, or the side to move) and `d` the defender's. Functions
 * do not validate their arguments: callers pass disjoint masks and cells 0..63
 * (native_module.c validates what comes from Python).
 *
 * Thread safety: every function is reentrant. The only global state is read-only
 * tables (line masks: static const; symmetry tables: built once, under pthread_once,
 * on first use or by qc_init()). A search mutates only the qc_tt and the result it is
 * given, so threads may search at once, each with its own qc_tt (or none).
 */
#ifndef QUBIC_CORE_H
#define QUBIC_CORE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef uint64_t qc_mask;

#define QC_CELLS 64
#define QC_LINES 76
#define QC_MAX_LINES_THROUGH 7  /* corner and centre cells lie on 7 lines, the others on 4 */
#define QC_TRANSFORMS 192       /* automorphisms of the 76-line hypergraph */
#define QC_MAX_SEQUENCE 64      /* a witness never has more entries than this */
#define QC_NONE_AT_ANY_LENGTH 64 /* `reached` when no win exists at any length */

/* ---------------------------------------------------------------- geometry */

/* The 76 lines as masks, in the order of qubic_logic.geometry.LINES (sorted cell tuples). */
extern const qc_mask qc_line_masks[QC_LINES];
/* Lines through each cell: qc_lines_through[c][0 .. qc_lines_through_count[c]-1] are line
 * indices (ascending, as geometry.LINES_THROUGH). */
extern const uint8_t qc_lines_through_count[QC_CELLS];
extern const uint8_t qc_lines_through[QC_CELLS][QC_MAX_LINES_THROUGH];

/* Lowest set cell of a non-zero mask. */
static inline int qc_low(qc_mask m) { return __builtin_ctzll(m); }
static inline int qc_count(qc_mask m) { return __builtin_popcountll(m); }
/* A position's hash for the tables: every mark changes every bit (two fmix64 rounds). */
static inline uint64_t qc_mix(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    return x ^ (x >> 33);
}
static inline uint64_t qc_hash(qc_mask a, qc_mask d) { return qc_mix(a ^ qc_mix(d ^ 0x9e3779b97f4a7c15ULL)); }

/* ------------------------------------------------------------ threat scans */

/* Threat cells of `a`: empty cells completing a line with three `a` marks and no `d` mark. */
qc_mask qc_threat_cells(qc_mask a, qc_mask d);
/* Forcing moves of `a`: empty cells of 2-0 lines (two `a` marks, no `d` mark). */
qc_mask qc_forcing_moves(qc_mask a, qc_mask d);
/* Major cells of `a`: empty cells where two or more 2-0 lines of `a` meet (related pairs). */
qc_mask qc_major_cells(qc_mask a, qc_mask d);
/* Both in one scan: the major cells, and the forcing moves in *forcing. */
qc_mask qc_major_and_forcing(qc_mask a, qc_mask d, qc_mask *forcing);
/* Threat cells of `a` on the lines through `cell` only (any marks may be at `cell`). */
qc_mask qc_threats_through(qc_mask a, qc_mask d, int cell);
/* Number of pairs (a[i], d[i]), i < n, for which `a` has a threat cell (benchmarks). */
size_t qc_threat_scan_batch(const qc_mask *a, const qc_mask *d, size_t n);

/* ------------------------------------------ shortest forced win (docs/design.md section 3) */

/*
 * A transposition table of failed positions: "attacker to move at (a, d) has no forced
 * win of length <= k" or "... at any length". Entries are facts about the position only,
 * so one table may serve many queries (a verifier keeps one per thread and never clears
 * it). A table is used by one search at a time.
 */
typedef struct qc_tt qc_tt;
/* A table of 2^log2_entries entries (24 bytes each; clamped to 10..30). NULL if out of memory. */
qc_tt *qc_tt_new(int log2_entries);
void qc_tt_clear(qc_tt *tt);
void qc_tt_free(qc_tt *tt);

/* Ask for transparent huge pages for a large table (its 2 MB-aligned part): probes into a
 * table of hundreds of megabytes miss the TLB on 4 KB pages. Advisory; harmless if refused. */
void qc_advise_huge_pages(void *table, size_t bytes);

typedef struct {
    int max_length;              /* longest win looked for, in attacker moves; 0 = no bound */
    double time_limit;           /* seconds; 0 = none */
    uint64_t node_limit;         /* nodes; 0 = none */
    qc_tt *tt;                   /* NULL: the search makes a private table when it needs one */
    const volatile int *stop;    /* NULL, or a flag another thread sets non-zero to stop the search */
    int any_win;                 /* 1: the first win found in one depth-first pass, not the shortest */
} qc_search_options;

/* Default options: no bound, no limits, private table. */
#define QC_SEARCH_DEFAULTS {0, 0.0, 0, NULL, NULL, 0}

typedef struct {
    int length;     /* > 0: minimal win length; 0: none within max_length (or at any length);
                       -1: the time or node limit or the stop flag ended the search first */
    int seq_len;    /* entries in seq: 2*length - 1 when length > 0, else 0 */
    uint8_t seq[QC_MAX_SEQUENCE]; /* witness: attacker, defender, ..., attacker's completing move */
    uint64_t nodes; /* search nodes visited */
    int reached;    /* length > 0: length; 0: max_length, or QC_NONE_AT_ANY_LENGTH when it is
                       proven that no win exists at any length; -1: largest length searched
                       completely without a win */
} qc_forced_win_result;

/*
 * Shortest forced win by threat sequence for `a` to move against `d` (docs/design.md section 3):
 * iterative deepening on the number of attacker moves, so the first win found is minimal.
 * Unbounded (max_length 0) it always terminates: an iteration in which no branch was cut
 * by the bound proves that there is no win at any length.
 * With opt->any_win, one depth-first pass (bounded by max_length, else by the longest
 * witness) returns the first win it finds: not always the shortest, about half the work
 * when only the existence of a win matters (the proof-number search's leaves).
 *
 * Witness convention: each attacker move is followed by the defender's forced reply (its
 * only threat cell); after a double threat the defender blocks the LOWEST threat cell and
 * the attacker completes the LOWEST remaining one. With a threat cell on the board the
 * attacker completes the lowest one (length 1).
 *
 * Limits: the node limit is checked at every node; the time limit and the stop flag before
 * each deepening iteration and every 1024 nodes.
 *
 * Returns out->length. Never fails (out of memory only makes it slower).
 */
int qc_forced_win(qc_mask a, qc_mask d, const qc_search_options *opt, qc_forced_win_result *out);

/* qc_forced_win when the caller has scanned the threes already: `a` has none (else it wins
 * at once) and `theirs` is qc_threat_cells(d, a). Saves the two scans (the df-pn leaves). */
int qc_forced_win_scanned(qc_mask a, qc_mask d, qc_mask theirs, const qc_search_options *opt,
                          qc_forced_win_result *out);

/* ------------------------------------------------------------------ symmetry */

/* Build the symmetry tables now (idempotent, thread-safe; otherwise done on first use). */
void qc_init(void);

/*
 * Transform t (0 <= t < 192) maps cell c to qc_transform(t)[c]. The transforms and their
 * order are those of qubic_logic.symmetry.TRANSFORMS, generated the same way (coordinate
 * map in {identity, evisceration 0123->1032, scramble 0123->0213, scramble.evisceration},
 * then itertools order of axis permutations and flips); transform 0 is the identity.
 */
const uint8_t *qc_transform(int t);
int qc_inverse(int t);                     /* index of the inverse transform */
qc_mask qc_map_mask(int t, qc_mask m);     /* image of a cell mask under transform t */

/*
 * Canonical form, exactly qubic_logic.symmetry.canonical_masks: among the 192 images
 * (x', o') of the position, the least pair comparing x' first, then o', as unsigned
 * 64-bit integers; ties go to the lowest transform index. Stores the images in *cx, *co
 * and returns the transform index.
 */
int qc_canonical(qc_mask x, qc_mask o, qc_mask *cx, qc_mask *co);

#ifdef __cplusplus
}
#endif

#endif /* QUBIC_CORE_H */
