/*
 * doake.c -- SEARCH over line sums (doake.h): the first-found order of search.py.
 *
 * A scan groups the lines by sum (ascending) with the blank squares on lines of each sum;
 * a pattern's line 1 is tried in line order, then its blank squares (M1) in square order,
 * then line 2 through M1 in line order; lines 3..5 only need to exist (a yes/no test).
 */
#include "doake.h"

#define MAX_SUM 20

int dk_line[DK_LINES + 1][4];
static int through[DK_SQUARES + 1][7];
static int n_through[DK_SQUARES + 1];
static uint64_t line_bits[DK_LINES + 1];

typedef struct {
    const int *sums;
    uint64_t blank;
    int n[MAX_SUM + 1];                 /* lines with each sum */
    uint8_t by_sum[MAX_SUM + 1][DK_LINES];
    uint64_t blank_on[MAX_SUM + 1];     /* blank squares on lines of each sum */
} scan_t;

static int sq(int x, int y, int z) { return 1 + x + 4 * y + 16 * z; }

static void add_line(int *count, int a, int b, int c, int d)
{
    int s[4] = {a, b, c, d};
    for (int i = 1; i < 4; i++) /* ascending (ROW order) */
        for (int k = i; k > 0 && s[k - 1] > s[k]; k--) {
            int t = s[k];
            s[k] = s[k - 1];
            s[k - 1] = t;
        }
    ++*count;
    for (int i = 0; i < 4; i++)
        dk_line[*count][i] = s[i];
}

void dk_init(void)
{
    if (dk_line[1][0])
        return;
    int n = 0;
    for (int z = 0; z < 4; z++) { /* ten per horizontal plane (board.py's _lines) */
        for (int y = 0; y < 4; y++)
            add_line(&n, sq(0, y, z), sq(1, y, z), sq(2, y, z), sq(3, y, z));
        for (int x = 0; x < 4; x++)
            add_line(&n, sq(x, 0, z), sq(x, 1, z), sq(x, 2, z), sq(x, 3, z));
        add_line(&n, sq(0, 0, z), sq(1, 1, z), sq(2, 2, z), sq(3, 3, z));
        add_line(&n, sq(3, 0, z), sq(2, 1, z), sq(1, 2, z), sq(0, 3, z));
    }
    for (int y = 0; y < 4; y++) /* 16 vertical */
        for (int x = 0; x < 4; x++)
            add_line(&n, sq(x, y, 0), sq(x, y, 1), sq(x, y, 2), sq(x, y, 3));
    for (int y = 0; y < 4; y++) { /* semi-diagonals of the x-z planes */
        add_line(&n, sq(0, y, 0), sq(1, y, 1), sq(2, y, 2), sq(3, y, 3));
        add_line(&n, sq(3, y, 0), sq(2, y, 1), sq(1, y, 2), sq(0, y, 3));
    }
    for (int x = 0; x < 4; x++) { /* ... and of the y-z planes */
        add_line(&n, sq(x, 0, 0), sq(x, 1, 1), sq(x, 2, 2), sq(x, 3, 3));
        add_line(&n, sq(x, 3, 0), sq(x, 2, 1), sq(x, 1, 2), sq(x, 0, 3));
    }
    add_line(&n, sq(0, 0, 0), sq(1, 1, 1), sq(2, 2, 2), sq(3, 3, 3));
    add_line(&n, sq(0, 3, 0), sq(1, 2, 1), sq(2, 1, 2), sq(3, 0, 3));
    add_line(&n, sq(3, 3, 0), sq(2, 2, 1), sq(1, 1, 2), sq(0, 0, 3));
    add_line(&n, sq(3, 0, 0), sq(2, 1, 1), sq(1, 2, 2), sq(0, 3, 3));
    for (int j = 1; j <= DK_LINES; j++) {
        line_bits[j] = 0;
        for (int i = 0; i < 4; i++) {
            int s = dk_line[j][i];
            line_bits[j] |= (uint64_t)1 << (s - 1);
            through[s][n_through[s]++] = j; /* j ascending */
        }
    }
}

static void make_scan(scan_t *sc, const int *sums, uint64_t occupied)
{
    sc->sums = sums;
    sc->blank = ~occupied;
    for (int t = 0; t <= MAX_SUM; t++) {
        sc->n[t] = 0;
        sc->blank_on[t] = 0;
    }
    for (int j = 1; j <= DK_LINES; j++) {
        int t = sums[j];
        sc->by_sum[t][sc->n[t]++] = (uint8_t)j;
        sc->blank_on[t] |= line_bits[j] & sc->blank;
    }
}

static int count_of(const scan_t *sc, int t) { return t >= 0 && t <= MAX_SUM ? sc->n[t] : 0; }
static uint64_t blank_on(const scan_t *sc, int t) { return t >= 0 && t <= MAX_SUM ? sc->blank_on[t] : 0; }
static int on(uint64_t mask, int square) { return (int)(mask >> (square - 1) & 1); }

/* Lines 3..5 given line 1 = i1 and line 2 = i3 (search.py's _rest). */
static int rest(const scan_t *sc, const int *p, int i1, int i3)
{
    int t3 = p[2], t4 = p[3], t5 = p[4];
    if (t3 < 0)
        return 1;
    uint64_t blank2 = line_bits[i3] & sc->blank;
    if (t4 >= 0 && !(blank2 & blank_on(sc, t4)))
        return 0;
    uint64_t third = blank2 & blank_on(sc, t3);
    if (!third)
        return 0;
    for (int a = 0; a < 4; a++) {
        int m2 = dk_line[i3][a];
        if (!on(third, m2))
            continue;
        for (int b = 0; b < n_through[m2]; b++) {
            int i6 = through[m2][b];
            if (sc->sums[i6] != t3 || i6 == i1 || i6 == i3)
                continue;
            if (t4 < 0)
                return 1;
            for (int c = 0; c < sc->n[t4]; c++) {
                int k3 = sc->by_sum[t4][c];
                if (k3 == i1 || k3 == i3 || k3 == i6 || !(line_bits[k3] & blank2))
                    continue;
                if (t5 < 0)
                    return 1;
                for (int d = 0; d < count_of(sc, t5); d++) {
                    int k4 = sc->by_sum[t5][d];
                    if (k4 != i1 && k4 != i3 && k4 != i6 && k4 != k3)
                        return 1;
                }
            }
        }
    }
    return 0;
}

/* Whether the scan has enough distinct lines of each sum the pattern names (_needed). */
static int enough_lines(const scan_t *sc, const int *p, int second)
{
    int sums[5], k = 0;
    sums[k++] = p[0];
    sums[k++] = second;
    for (int i = 2; i < 5; i++)
        if (p[i] >= 0)
            sums[k++] = p[i];
    for (int i = 0; i < k; i++) {
        int need = 0;
        for (int m = 0; m < k; m++)
            need += sums[m] == sums[i];
        if (count_of(sc, sums[i]) < need)
            return 0;
    }
    return 1;
}

static int match_scan(const scan_t *sc, const int *p, int literal)
{
    int second = literal ? p[2] : p[1];
    uint64_t keys = blank_on(sc, p[0]) & blank_on(sc, second);
    if (!keys || !enough_lines(sc, p, second))
        return 0;
    for (int a = 0; a < sc->n[p[0]]; a++) {
        int i1 = sc->by_sum[p[0]][a];
        if (!(line_bits[i1] & keys))
            continue;
        for (int b = 0; b < 4; b++) {
            int m1 = dk_line[i1][b];
            if (!on(keys, m1))
                continue;
            for (int c = 0; c < n_through[m1]; c++) {
                int i3 = through[m1][c];
                if (i3 != i1 && sc->sums[i3] == second && rest(sc, p, i1, i3))
                    return m1;
            }
        }
    }
    return 0;
}

int dk_match(const int sums[DK_LINES + 1], uint64_t occupied, const int pattern[5], int literal)
{
    scan_t sc;
    make_scan(&sc, sums, occupied);
    return match_scan(&sc, pattern, literal);
}

void dk_search(const int sums[DK_LINES + 1], uint64_t occupied, const int (*test)[5], int n,
               int listing, int literal, dk_found *out)
{
    scan_t sc;
    make_scan(&sc, sums, occupied);
    *out = (dk_found){0};
    for (int column = 0; column < 4 && column < n; column++) { /* fours, then threes */
        int target = test[column][0];
        if (!count_of(&sc, target))
            continue;
        out->line = sc.by_sum[target][0];
        if (column < 2) {
            out->m3 = DK_FOUR;
            out->m2 = target == 20 ? DK_FOUR : 0;
            return;
        }
        int key = 0;
        for (int i = 0; i < 4 && !key; i++)
            if (on(sc.blank, dk_line[out->line][i]))
                key = dk_line[out->line][i];
        if (!listing) {
            out->m1 = key;
            out->m2 = target == 15 ? DK_THREE : 0;
            out->m3 = DK_THREE;
            return;
        }
        out->m11[out->listed][0] = key;
        out->m11[out->listed++][1] = DK_THREE;
        break;
    }
    for (int column = 4; column < n && out->listed < DK_LISTED; column++) {
        int key = match_scan(&sc, test[column], literal);
        if (!key)
            continue;
        if (!listing) {
            out->m1 = key;
            out->m3 = column + 1;
            return;
        }
        out->m11[out->listed][0] = key;
        out->m11[out->listed++][1] = column + 1;
    }
}

int dk_first_match(const int sums[DK_LINES + 1], uint64_t occupied, const int (*patterns)[5], int n,
                   int literal, int *column)
{
    scan_t sc;
    make_scan(&sc, sums, occupied);
    for (int i = 0; i < n; i++) {
        int key = match_scan(&sc, patterns[i], literal);
        if (key) {
            *column = i + 1;
            return key;
        }
    }
    *column = 0;
    return 0;
}
