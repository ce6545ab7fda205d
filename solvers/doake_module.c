/*
 * doake_module.c -- the CPython module qubic_logic._doake over doake.h.
 *
 *   search(sums, occupied, test, listing, literal) -> (m1, m2, m3, line, m11)
 *   first_match(sums, occupied, patterns, literal) -> (key square, column) or (0, 0)
 *   match(sums, occupied, pattern, literal) -> key square or 0
 *   lines() -> the 76 lines as tuples of squares (line 1 first)
 *
 * `sums` is a Board's list of 77 line sums (0..20, index 0 unused), `occupied` the mask of
 * occupied squares with bit s-1 for square s (Board.occupied >> 1), a pattern a sequence of
 * up to five ints (missing ones are -1). Bad arguments raise TypeError or ValueError.
 * qubic_logic/players/doake/search.py calls it and keeps the Python reference.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "doake.h"

#define MAX_PATTERNS 64

static int get_sums(PyObject *obj, int sums[DK_LINES + 1])
{
    if (!PyList_Check(obj) || PyList_GET_SIZE(obj) != DK_LINES + 1) {
        PyErr_SetString(PyExc_TypeError, "sums must be a list of 77 line sums (index 0 unused)");
        return -1;
    }
    for (int j = 1; j <= DK_LINES; j++) {
        long v = PyLong_AsLong(PyList_GET_ITEM(obj, j));
        if (v == -1 && PyErr_Occurred())
            return -1;
        if (v < 0 || v > 20) {
            PyErr_Format(PyExc_ValueError, "line %d sums to %ld; expected 0..20", j, v);
            return -1;
        }
        sums[j] = (int)v;
    }
    sums[0] = 0;
    return 0;
}

static int get_occupied(PyObject *obj, uint64_t *out)
{
    unsigned long long v = PyLong_AsUnsignedLongLong(obj);
    if (v == (unsigned long long)-1 && PyErr_Occurred())
        return -1;
    *out = (uint64_t)v;
    return 0;
}

static int get_pattern(PyObject *obj, int out[5])
{
    PyObject *seq = PySequence_Fast(obj, "a pattern must be a sequence of line sums");
    if (!seq)
        return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (n > 5) {
        Py_DECREF(seq);
        PyErr_Format(PyExc_ValueError, "a pattern has at most five line sums, not %zd", n);
        return -1;
    }
    for (Py_ssize_t i = 0; i < 5; i++) {
        long v = i < n ? PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, i)) : -1;
        if (v == -1 && PyErr_Occurred()) {
            Py_DECREF(seq);
            return -1;
        }
        out[i] = v < 0 ? -1 : v > 20 ? 21 : (int)v; /* -1: absent; 21: a sum no line has */
    }
    Py_DECREF(seq);
    return 0;
}

static Py_ssize_t get_patterns(PyObject *obj, int out[MAX_PATTERNS][5])
{
    PyObject *seq = PySequence_Fast(obj, "patterns must be a sequence of patterns");
    if (!seq)
        return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (n > MAX_PATTERNS) {
        Py_DECREF(seq);
        PyErr_Format(PyExc_ValueError, "at most %d patterns, not %zd", MAX_PATTERNS, n);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++)
        if (get_pattern(PySequence_Fast_GET_ITEM(seq, i), out[i]) < 0) {
            Py_DECREF(seq);
            return -1;
        }
    Py_DECREF(seq);
    return n;
}

static int check_nargs(Py_ssize_t nargs, Py_ssize_t want, const char *name)
{
    if (nargs == want)
        return 0;
    PyErr_Format(PyExc_TypeError, "%s() takes %zd arguments, %zd given", name, want, nargs);
    return -1;
}

/* The arguments every call starts with: (sums, occupied, ...), `want` of them in all. */
static int get_board(PyObject *const *args, Py_ssize_t nargs, Py_ssize_t want, const char *name, int *sums,
                     uint64_t *occupied)
{
    if (check_nargs(nargs, want, name) < 0 || get_sums(args[0], sums) < 0 || get_occupied(args[1], occupied) < 0)
        return -1;
    return 0;
}

PyDoc_STRVAR(search_doc, "search(sums, occupied, test, listing, literal)\n--\n\n"
                         "SEARCH: (m1, m2, m3, line, m11) as search.py's Found.");
static PyObject *py_search(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    int sums[DK_LINES + 1], test[MAX_PATTERNS][5];
    uint64_t occupied;
    if (get_board(args, nargs, 5, "search", sums, &occupied) < 0)
        return NULL;
    Py_ssize_t n = get_patterns(args[2], test);
    int listing = PyObject_IsTrue(args[3]), literal = PyObject_IsTrue(args[4]);
    if (n < 0 || listing < 0 || literal < 0)
        return NULL;
    dk_found f;
    dk_search(sums, occupied, (const int(*)[5])test, (int)n, listing, literal, &f);
    PyObject *m11 = PyList_New(f.listed);
    if (!m11)
        return NULL;
    for (int i = 0; i < f.listed; i++) {
        PyObject *pair = Py_BuildValue("(ii)", f.m11[i][0], f.m11[i][1]);
        if (!pair) {
            Py_DECREF(m11);
            return NULL;
        }
        PyList_SET_ITEM(m11, i, pair);
    }
    return Py_BuildValue("(iiiiN)", f.m1, f.m2, f.m3, f.line, m11);
}

PyDoc_STRVAR(first_match_doc, "first_match(sums, occupied, patterns, literal)\n--\n\n"
                              "(key square, column) of the first pattern that matches, or (0, 0).");
static PyObject *py_first_match(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    int sums[DK_LINES + 1], patterns[MAX_PATTERNS][5];
    uint64_t occupied;
    if (get_board(args, nargs, 4, "first_match", sums, &occupied) < 0)
        return NULL;
    Py_ssize_t n = get_patterns(args[2], patterns);
    int literal = PyObject_IsTrue(args[3]);
    if (n < 0 || literal < 0)
        return NULL;
    int column;
    int key = dk_first_match(sums, occupied, (const int(*)[5])patterns, (int)n, literal, &column);
    return Py_BuildValue("(ii)", key, column);
}

PyDoc_STRVAR(match_doc, "match(sums, occupied, pattern, literal)\n--\n\n"
                        "The key square of the first realisation of the pattern, or 0.");
static PyObject *py_match(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    int sums[DK_LINES + 1], pattern[5];
    uint64_t occupied;
    if (get_board(args, nargs, 4, "match", sums, &occupied) < 0 || get_pattern(args[2], pattern) < 0)
        return NULL;
    int literal = PyObject_IsTrue(args[3]);
    if (literal < 0)
        return NULL;
    return PyLong_FromLong(dk_match(sums, occupied, pattern, literal));
}

PyDoc_STRVAR(lines_doc, "lines()\n--\n\nThe 76 lines, each a tuple of its squares in ascending order.");
static PyObject *py_lines(PyObject *self, PyObject *unused)
{
    PyObject *out = PyTuple_New(DK_LINES);
    if (!out)
        return NULL;
    for (int j = 1; j <= DK_LINES; j++) {
        PyObject *line = Py_BuildValue("(iiii)", dk_line[j][0], dk_line[j][1], dk_line[j][2], dk_line[j][3]);
        if (!line) {
            Py_DECREF(out);
            return NULL;
        }
        PyTuple_SET_ITEM(out, j - 1, line);
    }
    return out;
}

static PyMethodDef methods[] = {
    {"search", (PyCFunction)(void (*)(void))py_search, METH_FASTCALL, search_doc},
    {"first_match", (PyCFunction)(void (*)(void))py_first_match, METH_FASTCALL, first_match_doc},
    {"match", (PyCFunction)(void (*)(void))py_match, METH_FASTCALL, match_doc},
    {"lines", py_lines, METH_NOARGS, lines_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "qubic_logic._doake",
    "Doake's SEARCH and SUGOAL over line sums (solvers/doake.c); search.py is the reference.",
    -1, methods,
};

PyMODINIT_FUNC PyInit__doake(void)
{
    dk_init();
    return PyModule_Create(&module);
}
