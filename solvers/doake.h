/*
 * doake.h -- SEARCH and SUGOAL of Doake's "Score 4" (1972) over line sums, in C.
 *
 * The C twin of qubic_logic/players/doake/search.py, which stays the readable reference
 * (tests/test_doake_native.py holds the two equal on random boards and seeded training
 * runs). Squares are 1..64 and lines 1..76 in board.py's numbering; a board is its 77 line
 * sums (index 0 unused, each 0..20) and the mask of occupied squares (bit s-1 = square s).
 * A pattern is five line sums, -1 where absent. Nothing is shared between calls except the
 * constant line tables that dk_init() fills once, so calls may run in parallel.
 */
#ifndef DOAKE_H
#define DOAKE_H

#include <stdint.h>

#define DK_LINES 76
#define DK_SQUARES 64
#define DK_LISTED 16 /* M11(2,16) */
#define DK_FOUR 100
#define DK_THREE 98

/* dk_line[j] = the four squares of line j (1..76), ascending; dk_line[0] unused. */
extern int dk_line[DK_LINES + 1][4];

typedef struct {
    int m1, m2, m3, line;     /* key square, computer flag, TEST column or 98/100, SN */
    int listed;               /* entries in m11 (list mode) */
    int m11[DK_LISTED][2];    /* (key square, column) */
} dk_found;

/* Fill the line tables (idempotent). */
void dk_init(void);

/* The key square M1 of the first realisation of `pattern`, or 0 (search.py's match). */
int dk_match(const int sums[DK_LINES + 1], uint64_t occupied, const int pattern[5], int literal);

/* SEARCH over TEST columns test[0..n-1] (search.py's search). */
void dk_search(const int sums[DK_LINES + 1], uint64_t occupied, const int (*test)[5], int n,
               int listing, int literal, dk_found *out);

/* The first of patterns[0..n-1] that matches: its key square, and *column = its index + 1
 * (0, 0 when none does): SUGOAL over SUTEST (search.py's sugoal). */
int dk_first_match(const int sums[DK_LINES + 1], uint64_t occupied, const int (*patterns)[5], int n,
                   int literal, int *column);

#endif
