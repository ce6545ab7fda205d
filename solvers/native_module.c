/*
 * native_module.c -- the CPython module qubic_logic._native over the C core (qubic_core.h).
 *
 * It has exactly the functions of qubic_logic/bitboard.py (the pure-Python fallback), with
 * the same arguments, results and errors; tests/test_native.py holds the two equal.
 * Masks are Python ints 0 <= m < 2**64; bad arguments raise ValueError (TypeError for
 * non-integers). Searches release the GIL.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "qubic_core.h"

/* An int in 0 .. 2**64-1; `what` names it in the error. */
static int get_mask(PyObject *obj, const char *what, qc_mask *out)
{
    if (!PyLong_Check(obj)) {
        PyErr_Format(PyExc_TypeError, "%s must be an int cell mask, not %.100s", what,
                     Py_TYPE(obj)->tp_name);
        return -1;
    }
    unsigned long long v = PyLong_AsUnsignedLongLong(obj);
    if (v == (unsigned long long)-1 && PyErr_Occurred()) {
        PyErr_Clear();
        PyErr_Format(PyExc_ValueError, "%s mask %R is not a 64-bit cell mask; expected 0 <= mask < 2**64",
                     what, obj);
        return -1;
    }
    *out = (qc_mask)v;
    return 0;
}

static int get_pair(PyObject *a_obj, PyObject *d_obj, const char *an, const char *dn, qc_mask *a,
                    qc_mask *d)
{
    if (get_mask(a_obj, an, a) < 0 || get_mask(d_obj, dn, d) < 0)
        return -1;
    if (*a & *d) {
        PyObject *cells = PyList_New(0);
        if (!cells)
            return -1;
        for (qc_mask m = *a & *d; m; m &= m - 1) {
            PyObject *c = PyLong_FromLong(qc_low(m));
            if (!c || PyList_Append(cells, c) < 0) {
                Py_XDECREF(c);
                Py_DECREF(cells);
                return -1;
            }
            Py_DECREF(c);
        }
        PyErr_Format(PyExc_ValueError, "the masks overlap at cells %R; each cell holds one mark",
                     cells);
        Py_DECREF(cells);
        return -1;
    }
    return 0;
}

static PyObject *from_mask(qc_mask m) { return PyLong_FromUnsignedLongLong(m); }

typedef qc_mask (*scan_fn)(qc_mask, qc_mask);

static PyObject *scan(PyObject *const *args, Py_ssize_t nargs, const char *name, scan_fn fn)
{
    if (nargs != 2) {
        PyErr_Format(PyExc_TypeError, "%s() takes 2 arguments (a, d), %zd given", name, nargs);
        return NULL;
    }
    qc_mask a, d;
    if (get_pair(args[0], args[1], "a", "d", &a, &d) < 0)
        return NULL;
    return from_mask(fn(a, d));
}

PyDoc_STRVAR(threat_cells_doc, "threat_cells(a, d)\n--\n\n"
                               "Mask of empty cells that complete a line of ``a`` (3 of ``a``, none of ``d``).");
static PyObject *py_threat_cells(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    return scan(args, nargs, "threat_cells", qc_threat_cells);
}

PyDoc_STRVAR(forcing_moves_doc, "forcing_moves(a, d)\n--\n\n"
                                "Mask of empty cells that make a new threat for ``a`` (empty cells of 2-0 lines).");
static PyObject *py_forcing_moves(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    return scan(args, nargs, "forcing_moves", qc_forcing_moves);
}

PyDoc_STRVAR(major_cells_doc, "major_cells(a, d)\n--\n\n"
                              "Mask of empty cells where two or more 2-0 lines of ``a`` meet (related pairs).");
static PyObject *py_major_cells(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    return scan(args, nargs, "major_cells", qc_major_cells);
}

PyDoc_STRVAR(any_forced_win_doc,
             "any_forced_win(a, d, node_limit)\n--\n\n"
             "A forced win by threat sequence for ``a`` to move against ``d``, not always the shortest: the\n"
             "first one a depth-first pass finds (about half the work of forced_win). Returns the sequence as\n"
             "bytes, or None when there is none or ``node_limit`` nodes (0: no limit) end the search first.");
static PyObject *py_any_forced_win(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 3)
        return PyErr_Format(PyExc_TypeError, "any_forced_win() takes 3 arguments (a, d, node_limit), %zd given",
                            nargs);
    qc_mask a, d;
    if (get_pair(args[0], args[1], "a", "d", &a, &d) < 0)
        return NULL;
    const long long node_limit = PyLong_AsLongLong(args[2]);
    if (node_limit == -1 && PyErr_Occurred())
        return NULL;
    if (node_limit < 0)
        return PyErr_Format(PyExc_ValueError, "node_limit %lld is negative; expected 0 (none) or more", node_limit);
    qc_search_options opt = QC_SEARCH_DEFAULTS;
    opt.node_limit = (uint64_t)node_limit;
    opt.any_win = 1;
    qc_forced_win_result res;
    Py_BEGIN_ALLOW_THREADS
    qc_forced_win(a, d, &opt, &res);
    Py_END_ALLOW_THREADS
    if (res.length <= 0)
        Py_RETURN_NONE;
    return PyBytes_FromStringAndSize((const char *)res.seq, res.seq_len);
}

PyDoc_STRVAR(forced_win_doc,
             "forced_win(a, d, max_length=0, time_limit=0.0, node_limit=0)\n--\n\n"
             "Shortest forced win by threat sequence for ``a`` to move against ``d`` (docs/design.md 3).\n\n"
             "Returns ``(length, sequence, nodes, reached)`` exactly as qubic_logic.bitboard.forced_win.");
static PyObject *py_forced_win(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const names[] = {"a", "d", "max_length", "time_limit", "node_limit"};
    PyObject *vals[5] = {NULL, NULL, NULL, NULL, NULL};
    if (nargs > 5)
        return PyErr_Format(PyExc_TypeError, "forced_win() takes at most 5 arguments (%zd given)", nargs);
    for (Py_ssize_t i = 0; i < nargs; i++)
        vals[i] = args[i];
    const Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    for (Py_ssize_t k = 0; k < nkw; k++) {
        PyObject *key = PyTuple_GET_ITEM(kwnames, k);
        int i = 0;
        while (i < 5 && PyUnicode_CompareWithASCIIString(key, names[i]) != 0)
            i++;
        if (i == 5)
            return PyErr_Format(PyExc_TypeError, "forced_win() got an unexpected keyword argument %R", key);
        if (vals[i])
            return PyErr_Format(PyExc_TypeError, "forced_win() got multiple values for argument '%s'", names[i]);
        vals[i] = args[nargs + k];
    }
    if (!vals[0] || !vals[1])
        return PyErr_Format(PyExc_TypeError, "forced_win() missing required argument '%s'", vals[0] ? "d" : "a");
    qc_mask a, d;
    if (get_pair(vals[0], vals[1], "a", "d", &a, &d) < 0)
        return NULL;
    long max_length = 0;
    double time_limit = 0.0;
    long long node_limit = 0;
    if (vals[2]) {
        max_length = PyLong_AsLong(vals[2]);
        if (max_length == -1 && PyErr_Occurred())
            return NULL;
        if (max_length < 0)
            return PyErr_Format(PyExc_ValueError, "max_length %ld is negative; expected 0 (no bound) or more",
                                max_length);
        if (max_length > 64)
            max_length = 64; /* no sequence is longer: the same answers */
    }
    if (vals[3]) {
        time_limit = PyFloat_AsDouble(vals[3]);
        if (time_limit == -1.0 && PyErr_Occurred())
            return NULL;
        if (!(time_limit >= 0.0))
            return PyErr_Format(PyExc_ValueError, "time_limit %R is negative; expected 0 (none) or more seconds",
                                vals[3]);
    }
    if (vals[4]) {
        node_limit = PyLong_AsLongLong(vals[4]);
        if (node_limit == -1 && PyErr_Occurred())
            return NULL;
        if (node_limit < 0)
            return PyErr_Format(PyExc_ValueError, "node_limit %lld is negative; expected 0 (none) or more",
                                node_limit);
    }
    qc_search_options opt = QC_SEARCH_DEFAULTS;
    opt.max_length = (int)max_length;
    opt.time_limit = time_limit;
    opt.node_limit = (uint64_t)node_limit;
    qc_forced_win_result res;
    if (qc_threat_cells(a, d)) { /* an immediate win: no need to release the GIL */
        qc_forced_win(a, d, &opt, &res);
    } else {
        Py_BEGIN_ALLOW_THREADS
        qc_forced_win(a, d, &opt, &res);
        Py_END_ALLOW_THREADS
    }
    PyObject *seq = PyTuple_New(res.seq_len);
    if (!seq)
        return NULL;
    for (int i = 0; i < res.seq_len; i++)
        PyTuple_SET_ITEM(seq, i, PyLong_FromLong(res.seq[i]));
    PyObject *out = PyTuple_New(4);
    if (!out) {
        Py_DECREF(seq);
        return NULL;
    }
    PyTuple_SET_ITEM(out, 0, PyLong_FromLong(res.length));
    PyTuple_SET_ITEM(out, 1, seq);
    PyTuple_SET_ITEM(out, 2, PyLong_FromUnsignedLongLong(res.nodes));
    PyTuple_SET_ITEM(out, 3, PyLong_FromLong(res.reached));
    return out;
}

PyDoc_STRVAR(threat_scan_batch_doc,
             "threat_scan_batch(pairs, repeat=1)\n--\n\n"
             "Threat scans over ``(a, d)`` pairs, ``repeat`` times; returns how many had a threat\n"
             "(summed over the repeats). For benchmarks: the loop runs inside the core.");
static PyObject *py_threat_scan_batch(PyObject *self, PyObject *args, PyObject *kwargs)
{
    static char *kwlist[] = {"pairs", "repeat", NULL};
    PyObject *pairs;
    Py_ssize_t repeat = 1;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|n:threat_scan_batch", kwlist, &pairs, &repeat))
        return NULL;
    if (repeat < 0)
        return PyErr_Format(PyExc_ValueError, "repeat %zd is negative; expected 0 or more", repeat);
    PyObject *seq = PySequence_Fast(pairs, "pairs must be a sequence of (a, d) pairs");
    if (!seq)
        return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    qc_mask *a = PyMem_Malloc(sizeof(qc_mask) * (size_t)(n ? n : 1));
    qc_mask *d = PyMem_Malloc(sizeof(qc_mask) * (size_t)(n ? n : 1));
    if (!a || !d) {
        PyMem_Free(a);
        PyMem_Free(d);
        Py_DECREF(seq);
        return PyErr_NoMemory();
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *pair = PySequence_Fast_GET_ITEM(seq, i);
        if (!PyTuple_Check(pair) || PyTuple_GET_SIZE(pair) != 2) {
            PyErr_Format(PyExc_ValueError, "pairs[%zd] is not an (a, d) tuple", i);
            goto fail;
        }
        if (get_pair(PyTuple_GET_ITEM(pair, 0), PyTuple_GET_ITEM(pair, 1), "a", "d", &a[i], &d[i]) < 0)
            goto fail;
    }
    Py_DECREF(seq);
    size_t hits = 0;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t r = 0; r < repeat; r++)
        hits += qc_threat_scan_batch(a, d, (size_t)n);
    Py_END_ALLOW_THREADS
    PyMem_Free(a);
    PyMem_Free(d);
    return PyLong_FromSize_t(hits);
fail:
    PyMem_Free(a);
    PyMem_Free(d);
    Py_DECREF(seq);
    return NULL;
}

PyDoc_STRVAR(canonical_doc, "canonical(x, o)\n--\n\n"
                            "Canonical form ``(cx, co, transform)``, exactly symmetry.canonical_masks.");
static PyObject *py_canonical(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_Format(PyExc_TypeError, "canonical() takes 2 arguments (x, o), %zd given", nargs);
        return NULL;
    }
    qc_mask x, o, cx, co;
    if (get_pair(args[0], args[1], "x", "o", &x, &o) < 0)
        return NULL;
    int t = qc_canonical(x, o, &cx, &co);
    return Py_BuildValue("(KKi)", (unsigned long long)cx, (unsigned long long)co, t);
}

PyDoc_STRVAR(transform_doc, "transform(index)\n--\n\n"
                            "The 64 cell images of transform ``index`` (0..191), as symmetry.TRANSFORMS.");
static PyObject *py_transform(PyObject *self, PyObject *arg)
{
    long t = PyLong_AsLong(arg);
    if (t == -1 && PyErr_Occurred())
        return NULL;
    if (t < 0 || t >= QC_TRANSFORMS)
        return PyErr_Format(PyExc_ValueError, "transform %ld is out of range; expected 0..191", t);
    const uint8_t *p = qc_transform((int)t);
    PyObject *out = PyTuple_New(QC_CELLS);
    if (!out)
        return NULL;
    for (int c = 0; c < QC_CELLS; c++)
        PyTuple_SET_ITEM(out, c, PyLong_FromLong(p[c]));
    return out;
}

PyDoc_STRVAR(map_mask_doc, "map_mask(index, mask)\n--\n\n"
                           "Image of a cell mask under transform ``index``, as symmetry.map_mask.");
static PyObject *py_map_mask(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_Format(PyExc_TypeError, "map_mask() takes 2 arguments (index, mask), %zd given", nargs);
        return NULL;
    }
    long t = PyLong_AsLong(args[0]);
    if (t == -1 && PyErr_Occurred())
        return NULL;
    if (t < 0 || t >= QC_TRANSFORMS)
        return PyErr_Format(PyExc_ValueError, "transform %ld is out of range; expected 0..191", t);
    qc_mask m;
    if (get_mask(args[1], "mask", &m) < 0)
        return NULL;
    return from_mask(qc_map_mask((int)t, m));
}

static PyMethodDef methods[] = {
    {"threat_cells", (PyCFunction)(void (*)(void))py_threat_cells, METH_FASTCALL, threat_cells_doc},
    {"forcing_moves", (PyCFunction)(void (*)(void))py_forcing_moves, METH_FASTCALL, forcing_moves_doc},
    {"major_cells", (PyCFunction)(void (*)(void))py_major_cells, METH_FASTCALL, major_cells_doc},
    {"forced_win", (PyCFunction)(void (*)(void))py_forced_win, METH_FASTCALL | METH_KEYWORDS, forced_win_doc},
    {"any_forced_win", (PyCFunction)(void (*)(void))py_any_forced_win, METH_FASTCALL, any_forced_win_doc},
    {"threat_scan_batch", (PyCFunction)(void (*)(void))py_threat_scan_batch, METH_VARARGS | METH_KEYWORDS,
     threat_scan_batch_doc},
    {"canonical", (PyCFunction)(void (*)(void))py_canonical, METH_FASTCALL, canonical_doc},
    {"transform", py_transform, METH_O, transform_doc},
    {"map_mask", (PyCFunction)(void (*)(void))py_map_mask, METH_FASTCALL, map_mask_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "qubic_logic._native",
    "The native bitboard core (solvers/qubic_core.c): the functions of qubic_logic.bitboard, in C.",
    -1, methods,
};

PyMODINIT_FUNC PyInit__native(void)
{
    qc_init();
    return PyModule_Create(&module);
}
