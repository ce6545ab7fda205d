/*
 * verify_module.c -- the CPython module qubic_logic._verify over verify.h and pns.h.
 *
 *   traverse(entries, a, d, time_limit=0, stop=None) -> dict
 *       entries: list of (a, d, move) dictionary entries (attacker/defender masks);
 *       walks the strategy from (a, d), the attacker to move (see verify.h); "used" lists
 *       the indices of the entries the walk played. Releases the GIL. `stop`: this
 *       traversal's own flag, a writable buffer of one C int (array('i', [0])); another
 *       thread setting it non-zero ends the walk early (complete=False).
 *   forced_wins(pairs, time_limit=0) -> list of (length, witness bytes)
 *       shortest forced win (docs/design.md section 3) of each (a, d), the attacker to move;
 *       length 0: none, -1: the time limit (for the whole batch) came first. Releases the GIL.
 *   witness_holds(a, d, seq) -> bool
 *       whether the bytes `seq` are a legal forced win for (a, d), the attacker to move.
 *
 * Work units are plain data (ints and bytes), so they can be handed to other processes.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <string.h>
#include <time.h>

#include "verify.h"

static int get_u64(PyObject *obj, qc_mask *out)
{
    unsigned long long v = PyLong_AsUnsignedLongLong(obj);
    if (v == (unsigned long long)-1 && PyErr_Occurred())
        return -1;
    *out = (qc_mask)v;
    return 0;
}

static PyObject *node_tuple(const qv_traversal *t, const qv_node *n, int with_reason)
{
    PyObject *path = PyBytes_FromStringAndSize((const char *)t->paths + n->path_at, n->path_len);
    if (!path)
        return NULL;
    if (with_reason)
        return Py_BuildValue("(KKNi)", (unsigned long long)n->a, (unsigned long long)n->d, path,
                             (int)n->reason);
    return Py_BuildValue("(KKN)", (unsigned long long)n->a, (unsigned long long)n->d, path);
}

static PyObject *node_list(const qv_traversal *t, const qv_nodes *nodes, int with_reason)
{
    PyObject *list = PyList_New((Py_ssize_t)nodes->count);
    if (!list)
        return NULL;
    for (size_t i = 0; i < nodes->count; i++) {
        PyObject *item = node_tuple(t, &nodes->items[i], with_reason);
        if (!item) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, (Py_ssize_t)i, item);
    }
    return list;
}

static int load_dict(PyObject *entries, qv_dict *dict)
{
    PyObject *seq = PySequence_Fast(entries, "entries must be a list of (a, d, move)");
    if (!seq)
        return -1;
    const Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (qv_dict_init(dict, (size_t)n) != 0) {
        Py_DECREF(seq);
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        qc_mask a, d;
        PyObject *item = PySequence_Fast_GET_ITEM(seq, i);
        if (!PyTuple_Check(item) || PyTuple_GET_SIZE(item) != 3) {
            PyErr_Format(PyExc_ValueError, "entry %zd is not a tuple (a, d, move)", i);
            goto fail;
        }
        if (get_u64(PyTuple_GET_ITEM(item, 0), &a) < 0 || get_u64(PyTuple_GET_ITEM(item, 1), &d) < 0)
            goto fail;
        long move = PyLong_AsLong(PyTuple_GET_ITEM(item, 2));
        if (move == -1 && PyErr_Occurred())
            goto fail;
        if ((a & d) || move < 0 || move > 63 || ((a | d) >> move & 1)) {
            PyErr_Format(PyExc_ValueError, "entry %zd is not a position with an empty move cell", i);
            goto fail;
        }
        if (qv_dict_add(dict, a, d, move, (int)i) < 0) {
            PyErr_NoMemory();
            goto fail;
        }
    }
    Py_DECREF(seq);
    return 0;
fail:
    Py_DECREF(seq);
    qv_dict_free(dict);
    return -1;
}

static PyObject *py_traverse(PyObject *self, PyObject *args, PyObject *kwargs)
{
    static char *kwlist[] = {"entries", "a", "d", "time_limit", "stop", NULL};
    PyObject *entries, *a_obj, *d_obj, *stop_obj = Py_None;
    qc_mask a, d;
    double time_limit = 0.0;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OOO|dO", kwlist, &entries, &a_obj, &d_obj, &time_limit,
                                     &stop_obj))
        return NULL;
    if (get_u64(a_obj, &a) < 0 || get_u64(d_obj, &d) < 0)
        return NULL;
    if (a & d) {
        PyErr_SetString(PyExc_ValueError, "the masks overlap; each cell holds one mark");
        return NULL;
    }
    Py_buffer stop = {0};
    if (stop_obj != Py_None) {
        if (PyObject_GetBuffer(stop_obj, &stop, PyBUF_WRITABLE | PyBUF_FORMAT) < 0)
            return NULL;
        if (stop.itemsize != sizeof(int) || stop.len < (Py_ssize_t)sizeof(int) || !stop.format ||
            strcmp(stop.format, "i") != 0) {
            PyBuffer_Release(&stop);
            PyErr_SetString(PyExc_TypeError, "stop must be a writable buffer of C ints, e.g. array('i', [0])");
            return NULL;
        }
    }
    qv_dict dict;
    if (load_dict(entries, &dict) < 0) {
        if (stop.buf)
            PyBuffer_Release(&stop);
        return NULL;
    }
    qv_traversal t;
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = qv_traverse(&dict, a, d, time_limit, (const volatile int *)stop.buf, &t);
    Py_END_ALLOW_THREADS
    if (stop.buf)
        PyBuffer_Release(&stop);
    PyObject *used = PyList_New(0);
    for (size_t i = 0; used && i < dict.size; i++) {
        if (!dict.used[i])
            continue;
        PyObject *index = PyLong_FromSize_t(i);
        if (!index || PyList_Append(used, index) < 0)
            Py_CLEAR(used);
        Py_XDECREF(index);
    }
    qv_dict_free(&dict);
    if (rc != 0 || !used) {
        Py_XDECREF(used);
        qv_traversal_free(&t);
        return rc != 0 ? PyErr_NoMemory() : NULL;
    }
    PyObject *leaves = node_list(&t, &t.leaves, 0);
    PyObject *failures = leaves ? node_list(&t, &t.failures, 1) : NULL;
    PyObject *out = NULL;
    if (failures)
        out = Py_BuildValue(
            "{s:K,s:(KKKK),s:K,s:N,s:N,s:O,s:N}", "positions", (unsigned long long)t.positions,
            "by_rule", (unsigned long long)t.by_rule[QV_WIN], (unsigned long long)t.by_rule[QV_BLOCK],
            (unsigned long long)t.by_rule[QV_DICTIONARY], (unsigned long long)t.by_rule[QV_FORCED],
            "defender_positions", (unsigned long long)t.defender_positions, "leaves", leaves,
            "failures", failures, "complete", t.complete ? Py_True : Py_False, "used", used);
    else {
        Py_XDECREF(leaves);
        Py_DECREF(used);
    }
    qv_traversal_free(&t);
    return out;
}

static PyObject *py_forced_wins(PyObject *self, PyObject *args)
{
    PyObject *pairs;
    double time_limit = 0.0;
    if (!PyArg_ParseTuple(args, "O|d", &pairs, &time_limit))
        return NULL;
    PyObject *seq = PySequence_Fast(pairs, "pairs must be a list of (a, d)");
    if (!seq)
        return NULL;
    const Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    qc_mask *masks = PyMem_Malloc(2 * (size_t)(n ? n : 1) * sizeof *masks);
    qc_forced_win_result *res = PyMem_Malloc((size_t)(n ? n : 1) * sizeof *res);
    PyObject *out = NULL;
    if (!masks || !res) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *item = PySequence_Fast_GET_ITEM(seq, i);
        if (!PyTuple_Check(item) || PyTuple_GET_SIZE(item) != 2 ||
            get_u64(PyTuple_GET_ITEM(item, 0), &masks[2 * i]) < 0 ||
            get_u64(PyTuple_GET_ITEM(item, 1), &masks[2 * i + 1]) < 0) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_TypeError, "pairs must be (a, d) tuples of masks");
            goto done;
        }
    }
    Py_BEGIN_ALLOW_THREADS
    qc_search_options opt = QC_SEARCH_DEFAULTS;
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    const double end = ts.tv_sec + ts.tv_nsec * 1e-9 + time_limit;
    for (Py_ssize_t i = 0; i < n; i++) {
        if (time_limit > 0) {
            clock_gettime(CLOCK_MONOTONIC, &ts);
            opt.time_limit = end - (ts.tv_sec + ts.tv_nsec * 1e-9);
            if (opt.time_limit <= 0)
                opt.time_limit = 1e-9;
        }
        qc_forced_win(masks[2 * i], masks[2 * i + 1], &opt, &res[i]);
    }
    Py_END_ALLOW_THREADS
    out = PyList_New(n);
    if (!out)
        goto done;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *item = Py_BuildValue("(iy#)", res[i].length, (const char *)res[i].seq,
                                       (Py_ssize_t)res[i].seq_len);
        if (!item) {
            Py_CLEAR(out);
            goto done;
        }
        PyList_SET_ITEM(out, i, item);
    }
done:
    PyMem_Free(masks);
    PyMem_Free(res);
    Py_DECREF(seq);
    return out;
}

static PyObject *py_witness_holds(PyObject *self, PyObject *args)
{
    PyObject *a_obj, *d_obj;
    qc_mask a, d;
    const char *seq;
    Py_ssize_t n;
    if (!PyArg_ParseTuple(args, "OOy#", &a_obj, &d_obj, &seq, &n))
        return NULL;
    if (get_u64(a_obj, &a) < 0 || get_u64(d_obj, &d) < 0)
        return NULL;
    if (a & d) {
        PyErr_SetString(PyExc_ValueError, "the masks overlap; each cell holds one mark");
        return NULL;
    }
    return PyBool_FromLong(qv_witness_holds(a, d, (const uint8_t *)seq, (int)n));
}

static PyMethodDef methods[] = {
    {"traverse", (PyCFunction)(void (*)(void))py_traverse, METH_VARARGS | METH_KEYWORDS,
     "traverse(entries, a, d, time_limit=0, stop=None) -> dict"},
    {"forced_wins", py_forced_wins, METH_VARARGS,
     "forced_wins(pairs, time_limit=0) -> list of (length, witness bytes)"},
    {"witness_holds", py_witness_holds, METH_VARARGS,
     "witness_holds(a, d, seq) -> whether seq (bytes) is a legal forced win"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_verify",
    "Native strategy verification and proof-number search (solvers/verify.c, solvers/pns.c).", -1,
    methods,
};

PyMODINIT_FUNC PyInit__verify(void)
{
    qc_init();
    return PyModule_Create(&module);
}
