/*
 * dfpn_module.c -- the CPython module qubic_logic._dfpn over dfpn.h.
 *
 *   solve(a, d, time_limit=0, node_limit=0, memory_mb=0, progress=None, extract=True,
 *         leaf_node_limit=0, first_move=-1, table=None, keep=0, pass_nodes=-1, pass_work=-1,
 *         weak_pns=0, pn_threshold=0, dn_threshold=0, known=None) -> dict
 *       df-pn search of (a, d), `a` to move (dfpn.h). Releases the GIL while searching;
 *       progress(nodes, proof_number, disproof_number) is called about four times a
 *       second (with the GIL), and Ctrl-C (SIGINT in the main thread) or an exception in
 *       progress stops the search with the partial result (stopped_by "interrupted").
 *       "entries" lists the strategic moves (a, d, move) of the proof, canonical frames,
 *       when the root is won and extract is true. `table`: a saved table (bytes) of an
 *       earlier search of the same root to go on from ("loaded": its entries); `keep_share`
 *       n > 0: when the root is not settled, "table" holds the most-worked 1/n of the entries
 *       in use (at least KEEP_AT_LEAST of them, or all), else None. `known`: attacker's wins proven
 *       elsewhere (bytes, 17 per entry: canonical a and d as little-endian uint64, the move), as
 *       "entries" gives them; "known_proofs" counts the positions they proved.
 *   entry_bytes() -> bytes per transposition-table entry.
 *
 * Searches share nothing, so threads may solve at once.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdlib.h>
#include <string.h>

#include "dfpn.h"

#define KEEP_AT_LEAST 16384
#define KNOWN_BYTES 17 /* a known win: a, d (little-endian uint64), move */

typedef struct {
    PyThreadState *thread;
    PyObject *callback;
    int interrupted;
} progress_ctx;

static int on_progress(void *ctx, const qd_progress *p)
{
    progress_ctx *c = ctx;
    PyEval_RestoreThread(c->thread);
    int stop = 0;
    if (PyErr_CheckSignals() < 0) {
        PyErr_Clear(); /* reported as stopped_by "interrupted" */
        c->interrupted = stop = 1;
    } else if (c->callback && c->callback != Py_None) {
        PyObject *r = PyObject_CallFunction(c->callback, "KII", (unsigned long long)p->nodes, p->pn, p->dn);
        if (!r) {
            PyErr_Clear();
            c->interrupted = stop = 1;
        }
        Py_XDECREF(r);
    }
    c->thread = PyEval_SaveThread();
    return stop;
}

static const char *stopped_by(int stopped, int interrupted)
{
    if (interrupted)
        return "interrupted";
    switch (stopped) {
    case QD_TIME_LIMIT:
        return "time limit";
    case QD_NODE_LIMIT:
        return "node limit";
    case QD_STOPPED:
        return "interrupted";
    case QD_OUT_OF_MEMORY:
        return "memory limit";
    case QD_THRESHOLD:
        return "threshold";
    default:
        return "";
    }
}

static PyObject *py_solve(PyObject *self, PyObject *args, PyObject *kwargs)
{
    static char *kwlist[] = {"a", "d", "time_limit", "node_limit", "memory_mb", "progress", "extract",
                             "leaf_node_limit", "first_move", "table", "keep_share", "pass_nodes", "pass_work", "weak_pns",
                             "pn_threshold", "dn_threshold", "known", NULL};
    unsigned long long a, d, node_limit = 0, leaf_node_limit = 0;
    double time_limit = 0.0, memory_mb = 0.0;
    PyObject *progress = Py_None;
    int extract = 1, first_move = -1;
    Py_buffer saved = {0};
    unsigned long long keep_share = 0;
    long long pass_nodes = -1, pass_work = -1;
    int weak_pns = 0;
    unsigned long long pn_threshold = 0, dn_threshold = 0;
    Py_buffer known = {0};
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "KK|dKdOpKiz*KLLiKKz*", kwlist, &a, &d, &time_limit, &node_limit,
                                     &memory_mb, &progress, &extract, &leaf_node_limit, &first_move, &saved,
                                     &keep_share, &pass_nodes, &pass_work, &weak_pns, &pn_threshold, &dn_threshold,
                                     &known))
        return NULL;
    PyObject *result = NULL;
    qd_entry *wins = NULL;
    size_t win_count = 0;
    if (known.buf) {
        if (known.len % KNOWN_BYTES) {
            PyErr_SetString(PyExc_ValueError, "known: expected packed entries of 17 bytes each (a, d, move: '<QQB')");
            goto done;
        }
        win_count = (size_t)known.len / KNOWN_BYTES;
        if (win_count && !(wins = malloc(win_count * sizeof *wins))) {
            PyErr_NoMemory();
            goto done;
        }
        const unsigned char *p = known.buf;
        for (size_t i = 0; i < win_count; i++, p += KNOWN_BYTES) {
            memcpy(&wins[i].a, p, 8);
            memcpy(&wins[i].d, p + 8, 8);
            wins[i].move = p[16];
        }
    }
    if (a & d) {
        PyErr_SetString(PyExc_ValueError, "the masks overlap; each cell holds one mark");
        goto done;
    }
    if (memory_mb < 0 || time_limit < 0) {
        PyErr_SetString(PyExc_ValueError, "limits must not be negative");
        goto done;
    }
    progress_ctx ctx = {NULL, progress, 0};
    qd_options opt = {0};
    opt.time_limit = time_limit;
    opt.node_limit = node_limit;
    opt.memory_bytes = (size_t)(memory_mb * 1e6);
    opt.leaf_node_limit = leaf_node_limit;
    opt.first_move = first_move + 1;
    opt.progress = on_progress;
    opt.progress_ctx = &ctx;
    opt.pass_node_limit = pass_nodes < 0 ? QD_PASS_NODES : (uint64_t)pass_nodes;
    opt.pass_work = pass_work < 0 ? QD_PASS_WORK : (uint32_t)pass_work;
    opt.weak_pns = weak_pns;
    opt.root_pn = pn_threshold >= QD_INFINITY ? 0 : (uint32_t)pn_threshold;
    opt.root_dn = dn_threshold >= QD_INFINITY ? 0 : (uint32_t)dn_threshold;
    opt.known = wins;
    opt.known_count = win_count;
    qd_search *s = qd_new(a, d, &opt);
    if (!s) {
        PyErr_NoMemory();
        goto done;
    }
    long loaded = 0;
    if (saved.buf) {
        Py_BEGIN_ALLOW_THREADS
        loaded = qd_load(s, saved.buf, (size_t)saved.len);
        Py_END_ALLOW_THREADS
        if (loaded < 0) {
            qd_free(s);
            PyErr_SetString(PyExc_ValueError,
                            loaded == QD_LOAD_OTHER_ROOT
                                ? "it was saved by a search of another position or first move"
                                : "it is not a table saved by this solver (foreign, truncated, damaged or of another version)");
            goto done;
        }
    }
    qd_result r;
    qd_entry *entries = NULL;
    long n = 0;
    void *blob = NULL;
    size_t blob_size = 0;
    ctx.thread = PyEval_SaveThread();
    qd_run(s, &r);
    if (r.status == QD_WON && extract && !ctx.interrupted)
        n = qd_extract(s, &entries);
    const uint64_t extraction_nodes = qd_nodes(s) - r.nodes;
    if (r.status == QD_UNKNOWN && keep_share) {
        const uint64_t share = r.table_used / keep_share;
        blob_size = qd_save(s, share > KEEP_AT_LEAST ? share : KEEP_AT_LEAST, &blob);
    }
    PyEval_RestoreThread(ctx.thread);
    qd_free(s);
    PyObject *table = blob ? PyBytes_FromStringAndSize(blob, (Py_ssize_t)blob_size) : Py_NewRef(Py_None);
    free(blob);
    if (!table) {
        free(entries);
        goto done;
    }
    PyObject *list = PyList_New(0);
    for (long i = 0; list && i < n; i++) {
        PyObject *item = Py_BuildValue("(KKi)", (unsigned long long)entries[i].a, (unsigned long long)entries[i].d,
                                       (int)entries[i].move);
        if (!item || PyList_Append(list, item) < 0)
            Py_CLEAR(list);
        Py_XDECREF(item);
    }
    free(entries);
    if (!list) {
        Py_DECREF(table);
        goto done;
    }
    const char *status = r.status == QD_WON ? "won" : r.status == QD_NOT_WON ? "not won" : "unknown";
    result = Py_BuildValue(
        "{s:s,s:s,s:i,s:K,s:K,s:K,s:K,s:K,s:K,s:d,s:d,s:K,s:K,s:K,s:n,s:N,s:O,s:N,s:l,s:K,s:K,s:K,s:K,s:K}", "status", status, "stopped_by",
        stopped_by(r.stopped, ctx.interrupted), "move", r.move, "proof_number", (unsigned long long)r.pn,
        "disproof_number", (unsigned long long)r.dn, "nodes", (unsigned long long)r.nodes, "expansions",
        (unsigned long long)r.expansions, "leaf_calls", (unsigned long long)r.leaf_calls, "leaf_nodes",
        (unsigned long long)r.leaf_nodes, "leaf_seconds", r.leaf_seconds, "seconds", r.seconds, "table_entries",
        (unsigned long long)r.table_entries, "table_used", (unsigned long long)r.table_used, "replaced",
        (unsigned long long)r.replaced, "entry_bytes", (Py_ssize_t)qd_entry_bytes(), "entries", list,
        "extracted", (r.status == QD_WON && extract && n >= 0) ? Py_True : Py_False, "table", table, "loaded",
        loaded, "pass_searches", (unsigned long long)r.pass_searches, "pass_proofs",
        (unsigned long long)r.pass_proofs, "zone_proofs", (unsigned long long)r.zone_proofs, "extraction_nodes",
        (unsigned long long)extraction_nodes, "known_proofs", (unsigned long long)r.known_proofs);
done:
    free(wins);
    if (saved.buf)
        PyBuffer_Release(&saved);
    if (known.buf)
        PyBuffer_Release(&known);
    return result;
}

static PyObject *py_entry_bytes(PyObject *self, PyObject *unused)
{
    return PyLong_FromSize_t(qd_entry_bytes());
}

static PyMethodDef methods[] = {
    {"solve", (PyCFunction)(void (*)(void))py_solve, METH_VARARGS | METH_KEYWORDS,
     "solve(a, d, time_limit=0, node_limit=0, memory_mb=0, progress=None, extract=True, leaf_node_limit=0,"
     " first_move=-1, table=None, keep_share=0, pass_nodes=-1, pass_work=-1) -> dict (pass_nodes: the node"
     " budget of the search after a defender's pass whose proof's zone proves the replies outside it, 0 = off;"
     " pass_work: tried once a defender's turn has cost pass_work times that, 0 = at once; -1 = defaults;"
     " weak_pns: 1 = weak sums at the defender's turns, 2 = at both, 0 = plain sums; pn_threshold, dn_threshold:"
     " stop unsettled (stopped_by 'threshold') once the root's numbers reach them, 0 = none; known: wins proven"
     " elsewhere, 17 bytes each '<QQB' (canonical a, d, move), proven at once where met)"},
    {"entry_bytes", py_entry_bytes, METH_NOARGS, "bytes per transposition-table entry"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_dfpn", "Native depth-first proof-number search (solvers/dfpn.c).", -1, methods,
};

PyMODINIT_FUNC PyInit__dfpn(void)
{
    qc_init();
    return PyModule_Create(&module);
}
