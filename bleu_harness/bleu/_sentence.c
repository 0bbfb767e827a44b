/* Sentence BLEU of many segments in C: bleu_harness.bleu.compute's arithmetic on one
 * segment's row (_sentence.h), for the settings bleu_harness.bleu.kernel hands it, bit for
 * bit.
 *
 * Every operation is the one compute.py performs, in its order, on IEEE doubles: Python's
 * float arithmetic is the C double arithmetic of the machine, ``math.log``/``math.exp`` are
 * the C library's ``log``/``exp``, ``int / int`` of integers below 2^53 is the correctly
 * rounded quotient a double division gives, ``math.fsum`` is the correctly rounded sum
 * (ported from CPython's ``math_fsum``), and the float32 rounding of ``struct.pack("f")`` is
 * a C cast. The extension is compiled with ``-ffp-contract=off`` (setup.py), so no
 * ``a * b + c`` becomes one fused operation. Python's built-in ``sum`` adds floats left to
 * right up to 3.11 and with a compensation from 3.12: the plan says which (the interpreter's
 * own ``sum`` is then called on the terms).
 *
 * A row this arithmetic does not take -- no reference, an empty hypothesis or reference, a
 * reference left out, fewer words than the plan's least, more references than one where the
 * followed tool takes one, a negative precision (a negative smoothing value), an infinite or
 * NaN term or sum, an ``exp`` that overflows -- is handed back to Python (the convention's
 * own ``finish`` scores it, or raises).
 */
#include "_sentence.h"

#include <float.h>
#include <math.h>

enum { ZERO_ZERO, ZERO_TINY, ZERO_DROPPED, ZERO_TRUNCATE, ZERO_RAISES, ZERO_BEFORE_SMOOTHING };
enum { SMOOTH_NONE, SMOOTH_FLOOR, SMOOTH_ADD_K, SMOOTH_ADD_K_FROM_BIGRAM, SMOOTH_NIST };
enum { EMPTY_ZERO, EMPTY_NEUTRAL, EMPTY_EFFECTIVE };
enum { BP_R_OVER_C, BP_ONE_OVER_RATIO, BP_EXPONENT };
enum { LOG_MEAN, LOG_SUM, LOG_FSUM };
enum { SCORED, THE_ZERO, TO_PYTHON };

#define MAX_ORDER 64
#define LOG_ZERO (-9999999999.0) /* SacreBLEU's my_log(0), multi-bleu.perl's -9999999999 */

typedef struct {
    int ref_rule, single_reference, min_hyp_len, fewer_words_zero, no_match_zero, zero;
    int smoothing, empty_order, bp_off, strict_bp, bp_form, log_sum, percent, my_log;
    int stops_at_empty_order, float32_score, scale_first, times_scale, scale_in_float32;
    int floor1; /* each order's n-gram count floored at 1 (NLTK) */
    double smoothing_value, scale;
    int order; /* the weights' */
    double weights[MAX_ORDER];
    PyObject *python_sum; /* the interpreter's sum where it is not left to right, or NULL */
} Plan;

/* A term of a sum: its value, and whether Python holds it as an int (my_log's
 * -9999999999, a neutral order's 0). */
typedef struct {
    double value;
    int is_int;
} Term;

/* Python's ``sum`` of the terms from the int 0: left to right in doubles (the int terms
 * here are exact in a double, so their int prefix is too), or the interpreter's own. */
static int python_sum(const Plan *p, const Term *terms, int n, double *out) {
    if (!p->python_sum) {
        double total = 0.0;
        for (int i = 0; i < n; i++) total += terms[i].value;
        *out = total;
        return 0;
    }
    PyObject *items = PyTuple_New(n);
    if (!items) return -1;
    for (int i = 0; i < n; i++) {
        PyObject *item = terms[i].is_int ? PyLong_FromDouble(terms[i].value)
                                         : PyFloat_FromDouble(terms[i].value);
        if (!item) { Py_DECREF(items); return -1; }
        PyTuple_SET_ITEM(items, i, item);
    }
    PyObject *total = PyObject_CallOneArg(p->python_sum, items);
    Py_DECREF(items);
    if (!total) return -1;
    *out = PyFloat_AsDouble(total);
    Py_DECREF(total);
    return *out == -1.0 && PyErr_Occurred() ? -1 : 0;
}

/* ``math.fsum`` of finite doubles: Shewchuk's exact partials and CPython's half-even
 * correction across partials (CPython Modules/mathmodule.c ``math_fsum``). */
static double fsum(const double *values, int n) {
    double partials[MAX_ORDER + 2];
    int count = 0;
    for (int k = 0; k < n; k++) {
        double x = values[k];
        int i = 0;
        for (int j = 0; j < count; j++) {
            double y = partials[j];
            if (fabs(x) < fabs(y)) { double t = x; x = y; y = t; }
            double hi = x + y;
            double lo = y - (hi - x);
            if (lo != 0.0) partials[i++] = lo;
            x = hi;
        }
        count = i;
        if (x != 0.0) partials[count++] = x;
    }
    double hi = 0.0, lo = 0.0;
    if (count > 0) {
        hi = partials[--count];
        while (count > 0) {
            double x = hi, y = partials[--count];
            hi = x + y;
            lo = y - (hi - x);
            if (lo != 0.0) break;
        }
        if (count > 0 && ((lo < 0.0 && partials[count - 1] < 0.0) ||
                          (lo > 0.0 && partials[count - 1] > 0.0))) {
            double y = lo * 2.0;
            double x = hi + y;
            if (y == x - hi) hi = x;
        }
    }
    return hi;
}

static double float32(double x) { return (double)(float)x; }

/* compute.brevity_penalty, for a segment with words and a reference. */
static double brevity_penalty(const Plan *p, long long c, long long r) {
    if (p->bp_off || c > r || (c == r && !p->strict_bp)) return 1.0;
    if (p->bp_form == BP_ONE_OVER_RATIO) return exp(1.0 - 1.0 / ((double)c / (double)r));
    return exp(1.0 - (double)r / (double)c);
}

/* compute._precisions of one segment (the settings' orders, N of them). */
static void precisions(const Plan *p, const long long *matches, const long long *totals,
                       const long long *raw, double *precision, int *present) {
    double halvings = 1.0; /* 2^k, exact (at most 64 orders); its product with t too */
    double v = p->smoothing_value;
    for (int n = 0; n < p->order; n++) {
        long long m = matches[n], t = totals[n], r = raw[n];
        if (p->stops_at_empty_order && n > 0 && !present[n - 1]) {
            precision[n] = 0.0;
            present[n] = 0;
        } else if (p->smoothing == SMOOTH_ADD_K || (p->smoothing == SMOOTH_ADD_K_FROM_BIGRAM && n > 0)) {
            double mm = (double)m + v, tt = (double)t + v;
            precision[n] = tt != 0.0 ? (p->percent ? 100.0 * mm / tt : mm / tt) : 0.0;
            present[n] = (double)r + v != 0.0;
        } else if (m > 0) {
            precision[n] = p->percent ? 100.0 * (double)m / (double)t : (double)m / (double)t;
            present[n] = 1;
        } else {
            present[n] = r > 0;
            if (t == 0 || p->smoothing == SMOOTH_NONE) {
                precision[n] = 0.0;
            } else if (p->smoothing == SMOOTH_FLOOR) {
                precision[n] = p->percent ? 100.0 * v / (double)t : v / (double)t;
            } else if (p->smoothing == SMOOTH_NIST) {
                halvings *= 2.0;
                precision[n] = p->percent ? 100.0 / (halvings * (double)t)
                                          : 1.0 / (halvings * (double)t);
            } else {
                precision[n] = 0.0;
            }
        }
    }
}

/* compute._combine for one weight vector: exp of the weighted log sum into ``geometric``,
 * ``*folded`` when the BP is in it already. SCORED, or TO_PYTHON, or -1 (an exception). */
static int combine(const Plan *p, const double *precision, const int *present, long long c,
                   long long r, double *geometric, int *folded) {
    Term logs[MAX_ORDER];
    double weights[MAX_ORDER];
    int terms = 0, any_present = 0;
    *folded = 0;
    for (int n = 0; n < p->order; n++) {
        double w = p->weights[n], pr = precision[n];
        any_present |= present[n];
        if (!present[n] && p->empty_order == EMPTY_EFFECTIVE) break;
        if (!present[n] && p->empty_order == EMPTY_NEUTRAL) {
            weights[terms] = w;
            logs[terms++] = (Term){0.0, 1};
            continue;
        }
        if (pr == 0.0 && p->zero == ZERO_TRUNCATE) break;
        if (pr <= 0.0 && p->zero == ZERO_RAISES) return TO_PYTHON; /* math domain error */
        if (pr < 0.0) { /* a negative smoothing value: left out, or log() raises */
            if (p->zero == ZERO_DROPPED) continue;
            return TO_PYTHON;
        }
        if (pr == 0.0 && p->my_log && p->zero == ZERO_ZERO && w != 0.0) {
            weights[terms] = w;
            logs[terms++] = (Term){LOG_ZERO, 1};
            continue;
        }
        if (pr == 0.0) {
            if (w == 0.0 || p->zero == ZERO_DROPPED) continue;
            if (p->zero != ZERO_TINY) { *geometric = 0.0; return SCORED; }
            pr = DBL_MIN; /* sys.float_info.min */
        }
        weights[terms] = w;
        logs[terms++] = (Term){log(pr), 0};
    }
    if ((p->empty_order == EMPTY_NEUTRAL && !any_present) || !terms) {
        *geometric = 0.0;
        return SCORED;
    }
    double exponent;
    if (p->log_sum == LOG_MEAN) {
        double total;
        if (python_sum(p, logs, terms, &total) < 0) return -1;
        double mean = total / (double)(p->empty_order == EMPTY_EFFECTIVE ? terms : p->order);
        exponent = mean;
        if (p->bp_form == BP_EXPONENT && !p->bp_off) {
            double x = 1.0 - (double)r / (double)c; /* min(0, 1 - r/c) */
            exponent = mean + (x < 0.0 ? x : 0.0);
            *folded = 1;
        }
    } else {
        Term products[MAX_ORDER];
        if (p->empty_order == EMPTY_EFFECTIVE && terms < p->order) {
            Term kept[MAX_ORDER];
            double total;
            for (int i = 0; i < terms; i++) kept[i] = (Term){weights[i], 0};
            if (python_sum(p, kept, terms, &total) < 0) return -1;
            for (int i = 0; i < terms; i++) weights[i] = total != 0.0 ? weights[i] / total : 0.0;
        }
        for (int i = 0; i < terms; i++) {
            products[i] = (Term){weights[i] * logs[i].value, 0};
            if (!isfinite(products[i].value)) return TO_PYTHON;
        }
        if (p->log_sum == LOG_SUM) {
            if (python_sum(p, products, terms, &exponent) < 0) return -1;
        } else {
            double values[MAX_ORDER];
            for (int i = 0; i < terms; i++) values[i] = products[i].value;
            exponent = fsum(values, terms);
        }
    }
    /* An infinite or NaN term or sum: math.fsum's special cases and errors, Python's. */
    if (!isfinite(exponent)) return TO_PYTHON;
    *geometric = exp(exponent);
    if (isinf(*geometric)) return TO_PYTHON; /* OverflowError */
    return SCORED;
}

/* compute._compute's score of one row under the plan: SCORED (``*score``), THE_ZERO (the
 * convention's early zero, an object of Python's), TO_PYTHON, or -1 (an exception). */
static int row_score(const Plan *p, const long long *row, double *score) {
    long long c = row[ROW_HYP_LEN];
    long long r = row[ROW_CLOSEST_SHORTER + p->ref_rule];
    if (c < p->min_hyp_len || c == 0 || row[ROW_REFERENCES] == 0 || row[ROW_DROPPED] ||
        row[ROW_SHORTEST] == 0 || (p->single_reference && row[ROW_REFERENCES] != 1))
        return TO_PYTHON;
    const long long *matches = row + ROW_MATCHES;
    long long raw[MAX_ORDER], totals[MAX_ORDER];
    int N = p->order, any_match = 0, every_order_matches = 1;
    for (int n = 0; n < N; n++) {
        raw[n] = c > n ? c - n : 0;
        totals[n] = p->floor1 && raw[n] == 0 ? 1 : raw[n];
        any_match |= matches[n] != 0;
        every_order_matches &= matches[n] != 0;
    }
    double bp = brevity_penalty(p, c, r);
    if (p->fewer_words_zero && raw[N - 1] == 0) { *score = 0.0; return SCORED; }
    if (p->no_match_zero && !any_match) return THE_ZERO;
    if (p->zero == ZERO_BEFORE_SMOOTHING && !every_order_matches) { *score = 0.0; return SCORED; }
    double precision[MAX_ORDER], geometric;
    int present[MAX_ORDER], folded;
    precisions(p, matches, totals, raw, precision, present);
    int status = combine(p, precision, present, c, r, &geometric, &folded);
    if (status != SCORED) return status;
    if (p->scale_first) { *score = p->scale * bp * geometric; return SCORED; }
    double value = folded ? geometric : bp * geometric;
    if (p->float32_score) value = float32(value);
    if (p->times_scale && p->scale != 1.0) {
        value = p->scale * value;
        if (p->scale_in_float32) value = float32(value);
    }
    *score = value;
    return SCORED;
}

static int plan_of(PyObject *tuple, Plan *p, PyObject **zero) {
    PyObject *weights, *python_sum;
    memset(p, 0, sizeof(*p));
    if (!PyArg_ParseTuple(tuple, "ipipppiidippiO!iippppppdOO", &p->ref_rule,
                          &p->single_reference, &p->min_hyp_len, &p->fewer_words_zero,
                          &p->no_match_zero, &p->floor1, &p->zero, &p->smoothing,
                          &p->smoothing_value, &p->empty_order, &p->bp_off, &p->strict_bp,
                          &p->bp_form, &PyTuple_Type, &weights, &p->log_sum, &p->percent,
                          &p->my_log, &p->stops_at_empty_order, &p->float32_score,
                          &p->scale_first, &p->times_scale, &p->scale_in_float32, &p->scale,
                          zero, &python_sum))
        return -1;
    p->order = (int)PyTuple_GET_SIZE(weights);
    if (p->order < 1 || p->order > MAX_ORDER || p->ref_rule < 0 || p->ref_rule > 3) {
        PyErr_SetString(PyExc_ValueError, "a plan has 1 to 64 weights and a rule 0 to 3");
        return -1;
    }
    for (int n = 0; n < p->order; n++) {
        p->weights[n] = PyFloat_AsDouble(PyTuple_GET_ITEM(weights, n));
        if (p->weights[n] == -1.0 && PyErr_Occurred()) return -1;
    }
    p->python_sum = python_sum == Py_None ? NULL : python_sum;
    return 0;
}

/* The scores of ``count`` rows (ROW_MATCHES + ``order`` integers each) under the plan tuple
 * into ``scores[offset:offset + count]``: a float, the plan's zero, or None for a row left to
 * Python, whose index (``offset`` + its place) is appended to ``left``. 0, or -1 with an
 * exception set. */
int score_rows_into(PyObject *plan_tuple, const long long *rows, Py_ssize_t count, int order,
                    PyObject *scores, Py_ssize_t offset, PyObject *left) {
    Plan plan;
    PyObject *zero;
    if (plan_of(plan_tuple, &plan, &zero) < 0) return -1;
    if (order < plan.order) {
        PyErr_SetString(PyExc_ValueError, "rows of another order than the plan's");
        return -1;
    }
    const long long *row = rows;
    for (Py_ssize_t i = 0; i < count; i++, row += ROW_MATCHES + order) {
        double value;
        int status = row_score(&plan, row, &value);
        PyObject *item;
        if (status < 0) return -1;
        if (status == SCORED) {
            item = PyFloat_FromDouble(value);
        } else if (status == THE_ZERO) {
            item = Py_NewRef(zero);
        } else {
            PyObject *index = PyLong_FromSsize_t(offset + i);
            if (!index || PyList_Append(left, index) < 0) { Py_XDECREF(index); return -1; }
            Py_DECREF(index);
            item = Py_NewRef(Py_None);
        }
        if (!item) return -1;
        PyList_SetItem(scores, offset + i, item);
    }
    return 0;
}

/* sentence_scores(rows, order, plan): the score of every row of ``rows`` (segment_rows'
 * bytes, ``order`` matches a row) under ``plan`` (bleu_harness.bleu.kernel.plan): a list of
 * scores -- a float, the plan's zero, or None for a row left to Python -- and the list of
 * the indices of those rows. */
PyObject *native_sentence_scores(PyObject *self, PyObject *args) {
    Py_buffer rows;
    int order;
    PyObject *plan_tuple;
    if (!PyArg_ParseTuple(args, "y*iO!", &rows, &order, &PyTuple_Type, &plan_tuple)) return NULL;
    PyObject *scores = NULL, *left = NULL, *result = NULL;
    Py_ssize_t width = (ROW_MATCHES + (Py_ssize_t)order) * (Py_ssize_t)sizeof(long long);
    if (order < 0 || rows.len % width) {
        PyErr_SetString(PyExc_ValueError, "rows of another order than the plan's");
        goto done;
    }
    Py_ssize_t count = rows.len / width;
    scores = PyList_New(count);
    left = PyList_New(0);
    if (!scores || !left) goto done;
    if (score_rows_into(plan_tuple, rows.buf, count, order, scores, 0, left) < 0) goto done;
    result = PyTuple_Pack(2, scores, left);
done:
    Py_XDECREF(scores);
    Py_XDECREF(left);
    PyBuffer_Release(&rows);
    return result;
}
