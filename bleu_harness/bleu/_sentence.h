/* What the two parts of the C kernel share about sentence BLEU (bleu_harness.bleu.kernel):
 * _native.c's segment_rows writes one row of integers per segment, _sentence.c's
 * sentence_scores reads them. */
#ifndef BLEU_HARNESS_SENTENCE_H
#define BLEU_HARNESS_SENTENCE_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

/* A segment's row: its hypothesis length; its references (those left out not counted); the
 * reference length under each rule of bleu_harness.bleu.corpus.RULES (closest, the shorter
 * on a tie; closest, the first-listed on a tie; shortest; first) and the longest, 0 without a
 * reference; the references left out; then the clipped matches of orders 1..order. */
enum {
    ROW_HYP_LEN,
    ROW_REFERENCES,
    ROW_CLOSEST_SHORTER,
    ROW_CLOSEST_FIRST,
    ROW_SHORTEST,
    ROW_FIRST,
    ROW_LONGEST,
    ROW_DROPPED,
    ROW_MATCHES
};

PyObject *native_sentence_scores(PyObject *self, PyObject *args);

/* The scores of ``count`` rows under a plan (bleu_harness.bleu.kernel.plan) into
 * ``scores[offset:offset + count]``, the rows left to Python None and their indices appended
 * to ``left`` (_sentence.c). */
int score_rows_into(PyObject *plan, const long long *rows, Py_ssize_t count, int order,
                    PyObject *scores, Py_ssize_t offset, PyObject *left);

#endif
