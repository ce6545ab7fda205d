/*
 * verify.h -- strategy-dictionary verification on the native core (plain C11, no Python).
 *
 * The attacker (the side to move at the root; X for Patashnik's dictionary) plays by the
 * rule order of Patashnik's dictionary: (1) win now, (2) block the defender's three,
 * (3) the dictionary move, (4) a forced win by threat sequence (docs/design.md section 3).
 * The traversal explores every defender reply at every defender turn, visiting each
 * position once up to the 192 automorphisms (one table of canonical forms for both
 * sides' turns). It does not search forced wins itself: rule-(4) positions are returned
 * as leaves, so the caller can settle them in parallel (qv_forced_wins), as plain data.
 */
#ifndef QUBIC_VERIFY_H
#define QUBIC_VERIFY_H

#include "qubic_core.h"

/* ------------------------------------------------------------ key sets and maps */

/* An open-addressing map from a canonical position (a, d) to a value >= 0. */
typedef struct {
    qc_mask *a, *d;
    int32_t *value;
    size_t cap, count; /* cap is a power of two */
} qv_map;

int qv_map_init(qv_map *m, size_t expected);   /* 0 on success, -1 out of memory */
void qv_map_free(qv_map *m);
/* Value stored for (a, d), or -1. */
int qv_map_get(const qv_map *m, qc_mask a, qc_mask d);
/* Store value for (a, d) unless present; returns 1 when added, 0 when present, -1 out of memory. */
int qv_map_put(qv_map *m, qc_mask a, qc_mask d, int value);

/* ------------------------------------------------------------------ dictionary */

/* Strategic moves keyed by canonical (attacker, defender) masks; entries are numbered
 * 0 .. size-1 and used[i] records whether a lookup returned entry i. */
typedef struct {
    qv_map map;
    uint8_t *used;
    size_t size;
} qv_dict;

int qv_dict_init(qv_dict *dict, size_t size);
void qv_dict_free(qv_dict *dict);
/* Entry `index` (< size): the attacker's move `move` at (a, d), in any orientation.
 * 1 added, 0 an equivalent position is already there, -1 out of memory. */
int qv_dict_add(qv_dict *dict, qc_mask a, qc_mask d, int move, int index);
/* The move for (a, d) mapped onto it, or -1 when no equivalent position is in the dictionary
 * (marks the entry used). `ca`, `cd`, `t`: the canonical form and transform of (a, d). */
int qv_dict_move(qv_dict *dict, qc_mask ca, qc_mask cd, int t);

/* ------------------------------------------------------------------ traversal */

enum { QV_WIN = 0, QV_BLOCK = 1, QV_DICTIONARY = 2, QV_FORCED = 3, QV_RULES = 4 };

/* Why a position fails without a forced-win search. */
enum { QV_TWO_THREATS = 1, QV_BOARD_FULL = 2 };

/* A position at the attacker's turn with the moves from the root that reach it. */
typedef struct {
    qc_mask a, d;
    uint32_t path_at; /* offset into qv_traversal.paths */
    uint8_t path_len;
    uint8_t reason;   /* leaves: 0; failures: QV_TWO_THREATS or QV_BOARD_FULL */
} qv_node;

typedef struct {
    qv_node *items;
    size_t count, cap;
} qv_nodes;

typedef struct {
    uint64_t positions;         /* distinct positions (up to symmetry) at the attacker's turn */
    uint64_t by_rule[QV_RULES]; /* how each was resolved; QV_FORCED counts the leaves */
    uint64_t defender_positions;/* distinct positions at the defender's turn expanded */
    qv_nodes leaves;            /* rule-(4) positions: need a forced win */
    qv_nodes failures;          /* positions lost for the attacker by rules (1)-(3) alone */
    uint8_t *paths;             /* path bytes of leaves and failures */
    size_t paths_len, paths_cap;
    int complete;               /* 0 when the time limit or the stop flag cut the traversal */
    int out_of_memory;
} qv_traversal;

/*
 * Traverse the attacker's strategy from (a, d), the attacker to move. Returns 0, or -1
 * when memory ran out (out->out_of_memory is set). Free the result with qv_traversal_free.
 */
int qv_traverse(qv_dict *dict, qc_mask a, qc_mask d, double time_limit,
                const volatile int *stop, qv_traversal *out);
void qv_traversal_free(qv_traversal *t);

/* ------------------------------------------------------------------ witnesses */

/* 1 when seq[0..n-1] is a legal forced win by threat sequence (docs/design.md section 3) for
 * `a` to move against `d`, else 0: the rules of qubic_logic.referee, without messages. */
int qv_witness_holds(qc_mask a, qc_mask d, const uint8_t *seq, int n);

#endif /* QUBIC_VERIFY_H */
