/*
 * dfpn_module.c -- the CPython module qubic_logic._dfpn over dfpn.h.
 *
 *   solve(a, d, time_limit=0, node_limit=0, memory_mb=0, progress=None, extract=True,
 *         leaf_node_limit=0) -> dict
 *       df-pn search of (a, d), `a` to move (dfpn.h). Releases the GIL while searching;
 *       progress(nodes, proof_number, disproof_number) is called about four times a
 *       second (with the GIL), and Ctrl-C (SIGINT in the main thread) or an exception in
 *       progress stops the search with the partial result (stopped_by "interrupted").
 *       "entries" lists the strategic moves (a, d, move) of the proof, canonical frames,
 *       when the root is won and extract is true.
 *   entry_bytes() -> bytes per transposition-table entry.
 *
 * Searches share nothing, so threads may solve at once.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdlib.h>

#include "dfpn.h"

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
    default:
        return "";
    }
}

static PyObject *py_solve(PyObject *self, PyObject *args, PyObject *kwargs)
{
    static char *kwlist[] = {"a", "d", "time_limit", "node_limit", "memory_mb", "progress", "extract",
                             "leaf_node_limit", "first_move", NULL};
    unsigned long long a, d, node_limit = 0, leaf_node_limit = 0;
    double time_limit = 0.0, memory_mb = 0.0;
    PyObject *progress = Py_None;
    int extract = 1, first_move = -1;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "KK|dKdOpKi", kwlist, &a, &d, &time_limit, &node_limit,
                                     &memory_mb, &progress, &extract, &leaf_node_limit, &first_move))
        return NULL;
    if (a & d) {
        PyErr_SetString(PyExc_ValueError, "the masks overlap; each cell holds one mark");
        return NULL;
    }
    if (memory_mb < 0 || time_limit < 0) {
        PyErr_SetString(PyExc_ValueError, "limits must not be negative");
        return NULL;
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
    qd_search *s = qd_new(a, d, &opt);
    if (!s)
        return PyErr_NoMemory();
    qd_result r;
    qd_entry *entries = NULL;
    long n = 0;
    ctx.thread = PyEval_SaveThread();
    qd_run(s, &r);
    if (r.status == QD_WON && extract && !ctx.interrupted)
        n = qd_extract(s, &entries);
    PyEval_RestoreThread(ctx.thread);
    qd_free(s);
    PyObject *list = PyList_New(0);
    for (long i = 0; list && i < n; i++) {
        PyObject *item = Py_BuildValue("(KKi)", (unsigned long long)entries[i].a, (unsigned long long)entries[i].d,
                                       (int)entries[i].move);
        if (!item || PyList_Append(list, item) < 0)
            Py_CLEAR(list);
        Py_XDECREF(item);
    }
    free(entries);
    if (!list)
        return NULL;
    const char *status = r.status == QD_WON ? "won" : r.status == QD_NOT_WON ? "not won" : "unknown";
    return Py_BuildValue(
        "{s:s,s:s,s:i,s:K,s:K,s:K,s:K,s:K,s:K,s:d,s:d,s:K,s:K,s:K,s:n,s:N,s:O}", "status", status, "stopped_by",
        stopped_by(r.stopped, ctx.interrupted), "move", r.move, "proof_number", (unsigned long long)r.pn,
        "disproof_number", (unsigned long long)r.dn, "nodes", (unsigned long long)r.nodes, "expansions",
        (unsigned long long)r.expansions, "leaf_calls", (unsigned long long)r.leaf_calls, "leaf_nodes",
        (unsigned long long)r.leaf_nodes, "leaf_seconds", r.leaf_seconds, "seconds", r.seconds, "table_entries",
        (unsigned long long)r.table_entries, "table_used", (unsigned long long)r.table_used, "replaced",
        (unsigned long long)r.replaced, "entry_bytes", (Py_ssize_t)qd_entry_bytes(), "entries", list,
        "extracted", (r.status == QD_WON && extract && n >= 0) ? Py_True : Py_False);
}

static PyObject *py_entry_bytes(PyObject *self, PyObject *unused)
{
    return PyLong_FromSize_t(qd_entry_bytes());
}

static PyMethodDef methods[] = {
    {"solve", (PyCFunction)(void (*)(void))py_solve, METH_VARARGS | METH_KEYWORDS,
     "solve(a, d, time_limit=0, node_limit=0, memory_mb=0, progress=None, extract=True, leaf_node_limit=0)"
     " -> dict"},
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
