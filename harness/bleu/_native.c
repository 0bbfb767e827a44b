/* The statistics pass of harness.bleu.counting in C (optional; harness/bleu/native.py).
 *
 * count(hypotheses, references, mode, prepare, lowercase, order, drops) walks the two
 * iterables in step, one segment at a time, and returns one tuple of corpus sums per entry of
 * ``drops`` (whether references that are the empty string are left out first: SacreBLEU
 * 1.5-2.1). Tokens (see tokens_of): ``str.split()`` (Py_UNICODE_ISSPACE, the rule str.split
 * uses), SacreBLEU's 13a or char, or the sequence of str a Python tokenizer gives. Tokens are compared by their code points, never by a
 * hash alone, so the integers equal the pure-Python pass (tests/test_native.py).
 *
 * Per segment: the hypothesis tokens get ids (an open-addressing table keyed by content), the
 * reference tokens map to those ids or to -1 (a token the hypothesis lacks cannot be in a
 * matching n-gram); for each order, a table of the hypothesis's distinct n-grams keeps its
 * count and the largest count in any one reference; clipped matches are the sum of the
 * minima. Linear in the segment's length; no table outlives its segment.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

typedef struct {
    const void *data;
    Py_ssize_t len;
    int kind;
    uint64_t hash;
} Span;

typedef struct {
    Span *items;
    Py_ssize_t size, cap;
} Spans;

typedef struct {
    /* token table: slot -> id + 1 (0 empty) */
    int32_t *token_slots;
    Py_ssize_t token_cap;
    /* n-gram table */
    int32_t *gram_slots;
    Py_ssize_t gram_cap;
    Py_ssize_t *gram_start; /* start of a distinct hypothesis n-gram in hyp_ids */
    uint64_t *gram_hash;
    int64_t *gram_count, *gram_best, *gram_cur;
    Py_ssize_t *touched;
    Py_ssize_t gram_items_cap;
    int32_t *hyp_ids, *ref_ids;
    Py_ssize_t hyp_ids_cap, ref_ids_cap;
    uint64_t *window_hash;
    Py_ssize_t window_cap;
} Work;

static int grow(void **buffer, Py_ssize_t *cap, Py_ssize_t need, size_t item) {
    if (need <= *cap) return 0;
    Py_ssize_t size = *cap ? *cap : 64;
    while (size < need) size *= 2;
    void *grown = PyMem_Realloc(*buffer, (size_t)size * item);
    if (!grown) { PyErr_NoMemory(); return -1; }
    *buffer = grown;
    *cap = size;
    return 0;
}

static void work_free(Work *w) {
    PyMem_Free(w->token_slots); PyMem_Free(w->gram_slots); PyMem_Free(w->gram_start);
    PyMem_Free(w->gram_hash); PyMem_Free(w->gram_count); PyMem_Free(w->gram_best);
    PyMem_Free(w->gram_cur); PyMem_Free(w->touched); PyMem_Free(w->hyp_ids);
    PyMem_Free(w->ref_ids); PyMem_Free(w->window_hash);
}

static inline uint64_t mix(uint64_t h) {
    h ^= h >> 33; h *= 0xff51afd7ed558ccdULL; h ^= h >> 33; h *= 0xc4ceb9fe1a85ec53ULL;
    h ^= h >> 33;
    return h;
}

static inline uint64_t hash_span(const void *data, int kind, Py_ssize_t start, Py_ssize_t len) {
    uint64_t h = 0x9e3779b97f4a7c15ULL ^ (uint64_t)len;
    for (Py_ssize_t i = 0; i < len; i++)
        h = (h ^ PyUnicode_READ(kind, data, start + i)) * 0x100000001b3ULL;
    return mix(h);
}

static inline int span_equal(const Span *a, const Span *b) {
    if (a->len != b->len || a->hash != b->hash) return 0;
    if (a->kind == b->kind)
        return memcmp(a->data, b->data, (size_t)(a->len * a->kind)) == 0;
    for (Py_ssize_t i = 0; i < a->len; i++)
        if (PyUnicode_READ(a->kind, a->data, i) != PyUnicode_READ(b->kind, b->data, i))
            return 0;
    return 1;
}

static int push(Spans *spans, const void *data, int kind, Py_ssize_t start, Py_ssize_t len) {
    if (grow((void **)&spans->items, &spans->cap, spans->size + 1, sizeof(Span)) < 0) return -1;
    Span *s = &spans->items[spans->size++];
    s->kind = kind;
    s->data = (const char *)data + start * kind;
    s->len = len;
    s->hash = hash_span(data, kind, start, len);
    return 0;
}

enum { SPLIT = 0, V13A = 1, CHARS = 2, PREPARED = 3, PERL_SPLIT = 4, V13A_ASCII_LC = 5 };

/* mteval-v13a's punctuation class plus period and comma (harness.bleu.tokenizers:
 * _V13A_PUNCTUATION + ".,"): where no digit touches a period, comma or dash, each of these
 * becomes a token of its own and nothing else changes. */
static int v13a_punctuation(Py_UCS4 c) {
    return c < 128 && c != 0 && strchr("{|}~[\\]^_`!\"#$%&()*+:;<=>?@/.,", (int)c) != NULL;
}

static int is_digit(Py_UCS4 c) { return c >= '0' && c <= '9'; }

/* harness.bleu.tokenizers.perl._PERL_WHITESPACE: space, \t, \n, \v, \f, \r. */
static int perl_space(Py_UCS4 c) { return c == ' ' || (c >= '\t' && c <= '\r'); }

/* What the C pass leaves to the Python tokenizer: ``<skipped>`` tags and line breaks
 * anywhere in the text (``-\n`` joins; a trailing one decides between SacreBLEU's rstrip and
 * Hugging Face's none, and mteval's reader makes it a space), and U+001C-U+001F, which
 * str.split() separates at and Perl's \s does not (mteval). */
static int v13a_needs_python(const void *data, int kind, Py_ssize_t length, int *has_entity) {
    *has_entity = 0;
    for (Py_ssize_t i = 0; i < length; i++) {
        Py_UCS4 c = PyUnicode_READ(kind, data, i);
        if (c == '<' || c == '\n' || (c >= 0x1c && c <= 0x1f)) return 1;
        if (c == '&') *has_entity = 1;
    }
    return 0;
}

/* Whether a digit touches a period, comma or dash (tokenizers._V13A_DIGIT_RULES_APPLY): then
 * the four regex passes decide, and the Python tokenizer runs them. */
static int v13a_digit_rules_apply(const void *data, int kind, Py_ssize_t end) {
    Py_UCS4 previous = 0;
    for (Py_ssize_t i = 0; i < end; i++) {
        Py_UCS4 c = PyUnicode_READ(kind, data, i);
        if (i && ((is_digit(previous) && (c == '-' || c == '.' || c == ',')) ||
                  ((previous == '.' || previous == ',') && is_digit(c))))
            return 1;
        previous = c;
    }
    return 0;
}

/* SacreBLEU's four entity replacements, in its order, each over the previous one's output. */
static PyObject *v13a_unescape(PyObject *text) {
    static const char *const entities[4][2] = {
        {"&quot;", "\""}, {"&amp;", "&"}, {"&lt;", "<"}, {"&gt;", ">"}};
    Py_INCREF(text);
    for (int e = 0; e < 4; e++) {
        PyObject *replaced = PyObject_CallMethod(text, "replace", "ss", entities[e][0],
                                                 entities[e][1]);
        Py_DECREF(text);
        if (!replaced) return NULL;
        text = replaced;
    }
    return text;
}

static int push_sequence(PyObject *result, Spans *spans, PyObject **keep) {
    PyObject *seq = PySequence_Fast(result, "a tokenizer must return a sequence");
    Py_DECREF(result);
    if (!seq) return -1;
    Py_XDECREF(*keep);
    *keep = seq;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    PyObject **items = PySequence_Fast_ITEMS(seq);
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *token = items[i];
        if (!PyUnicode_Check(token)) {
            PyErr_SetString(PyExc_TypeError, "a tokenizer must return strings");
            return -1;
        }
        if (push(spans, PyUnicode_DATA(token), PyUnicode_KIND(token), 0,
                 PyUnicode_GET_LENGTH(token)) < 0)
            return -1;
    }
    return 0;
}

static int unicode_space(Py_UCS4 c) { return Py_UNICODE_ISSPACE(c); }

/* Runs of characters that are not ``is_space`` into ``spans``. */
static int split_on(int (*is_space)(Py_UCS4), const void *data, int kind, Py_ssize_t length,
                    Spans *spans) {
    Py_ssize_t i = 0;
    while (i < length) {
        while (i < length && is_space(PyUnicode_READ(kind, data, i))) i++;
        if (i >= length) break;
        Py_ssize_t start = i;
        while (i < length && !is_space(PyUnicode_READ(kind, data, i))) i++;
        if (push(spans, data, kind, start, i - start) < 0) return -1;
    }
    return 0;
}

/* The tokens of one text into ``spans``; ``*keep`` receives what must stay alive.
 * SPLIT: str.split(); V13A: SacreBLEU's 13a where the text is simple, ``prepare`` (the
 * Python tokenizer) otherwise; CHARS: every non-whitespace character (SacreBLEU ``char``);
 * PREPARED: ``prepare(text)``, which lower-cases itself. The others lower-case first when
 * ``lowercase`` (str.lower, as SacreBLEU and the Python pass do). */
static int tokens_of(PyObject *text, int mode, PyObject *prepare, int lowercase, Spans *spans,
                     PyObject **keep) {
    spans->size = 0;
    *keep = NULL;
    if (!PyUnicode_Check(text)) {
        PyErr_Format(PyExc_TypeError, "expected a string, got %.80s", Py_TYPE(text)->tp_name);
        return -1;
    }
    if (mode == PREPARED) {
        PyObject *result = PyObject_CallOneArg(prepare, text);
        return result ? push_sequence(result, spans, keep) : -1;
    }
    if (lowercase) {
        text = PyObject_CallMethod(text, "lower", NULL);
        if (!text) return -1;
        *keep = text;
    }
    const void *data = PyUnicode_DATA(text);
    int kind = PyUnicode_KIND(text);
    Py_ssize_t length = PyUnicode_GET_LENGTH(text), i = 0;
    if (mode == V13A || mode == V13A_ASCII_LC) {
        Py_ssize_t end = length;
        while (end > 0 && Py_UNICODE_ISSPACE(PyUnicode_READ(kind, data, end - 1))) end--;
        int has_entity;
        if (v13a_needs_python(data, kind, length, &has_entity) ||
            (has_entity && mode == V13A_ASCII_LC)) {
            PyObject *result = PyObject_CallOneArg(prepare, text);
            return result ? push_sequence(result, spans, keep) : -1;
        }
        PyObject *unescaped = NULL;
        if (has_entity) {
            PyObject *stripped = PyUnicode_Substring(text, 0, end);
            if (!stripped) return -1;
            unescaped = v13a_unescape(stripped);
            Py_DECREF(stripped);
            if (!unescaped) return -1;
            data = PyUnicode_DATA(unescaped);
            kind = PyUnicode_KIND(unescaped);
            end = PyUnicode_GET_LENGTH(unescaped);
        }
        if (v13a_digit_rules_apply(data, kind, end)) {
            Py_XDECREF(unescaped);
            PyObject *result = PyObject_CallOneArg(prepare, text);
            return result ? push_sequence(result, spans, keep) : -1;
        }
        if (unescaped) { /* the tokens point into it from here on */
            Py_XDECREF(*keep);
            *keep = unescaped;
        }
        if (mode == V13A_ASCII_LC) { /* mteval's tr/[A-Z]/[a-z]/ on a copy */
            Py_ssize_t upper = 0;
            while (upper < end) {
                Py_UCS4 c = PyUnicode_READ(kind, data, upper);
                if (c >= 'A' && c <= 'Z') break;
                upper++;
            }
            if (upper < end) {
                PyObject *folded = PyUnicode_New(end, PyUnicode_MAX_CHAR_VALUE(text));
                if (!folded) return -1;
                void *target = PyUnicode_DATA(folded);
                for (Py_ssize_t k = 0; k < end; k++) {
                    Py_UCS4 c = PyUnicode_READ(kind, data, k);
                    PyUnicode_WRITE(kind, target, k, c >= 'A' && c <= 'Z' ? c + 32 : c);
                }
                Py_XDECREF(*keep);
                *keep = folded;
                data = target;
            }
        }
        while (i < end) {
            Py_UCS4 c = PyUnicode_READ(kind, data, i);
            if (Py_UNICODE_ISSPACE(c)) { i++; continue; }
            if (v13a_punctuation(c)) {
                if (push(spans, data, kind, i, 1) < 0) return -1;
                i++;
                continue;
            }
            Py_ssize_t start = i;
            while (i < end) {
                c = PyUnicode_READ(kind, data, i);
                if (Py_UNICODE_ISSPACE(c) || v13a_punctuation(c)) break;
                i++;
            }
            if (push(spans, data, kind, start, i - start) < 0) return -1;
        }
        return 0;
    }
    if (mode == CHARS) {
        for (; i < length; i++)
            if (!Py_UNICODE_ISSPACE(PyUnicode_READ(kind, data, i)))
                if (push(spans, data, kind, i, 1) < 0) return -1;
        return 0;
    }
    /* SPLIT: str.split(); PERL_SPLIT: multi-bleu.perl, which reads bytes, so only ASCII
     * whitespace separates */
    return split_on(mode == PERL_SPLIT ? perl_space : unicode_space, data, kind, length,
                    spans);
}

typedef struct {
    int order;
    long long count, hyp_len, without, without_hyp, never, longest;
    long long fewest, most, first_without; /* -1: none yet */
    long long ref_sums[4];
    long long *matches, *totals, *short_;
    /* the last segment */
    long long last_hyp_len, last_dropped, *last_matches;
    PyObject *last_ref_lens;
} Sums;

/* One segment into one set of sums: ``ref_lens`` of its references, of which ``kept``
 * (NULL: all) are counted. */
static int add_segment(Sums *s, Py_ssize_t hyp_len, const Py_ssize_t *ref_lens,
                       const char *kept, Py_ssize_t refs, const long long *matches) {
    Py_ssize_t count = 0, closest = -1, closest_first = -1, shortest = -1, first = -1,
               longest = -1;
    for (Py_ssize_t r = 0; r < refs; r++) {
        if (kept && !kept[r]) continue;
        Py_ssize_t len = ref_lens[r];
        Py_ssize_t d = len > hyp_len ? len - hyp_len : hyp_len - len;
        if (count == 0) {
            closest = closest_first = shortest = first = longest = len;
        } else {
            Py_ssize_t dc = closest > hyp_len ? closest - hyp_len : hyp_len - closest;
            if (d < dc || (d == dc && len < closest)) closest = len;
            Py_ssize_t df = closest_first > hyp_len ? closest_first - hyp_len
                                                    : hyp_len - closest_first;
            if (d < df) closest_first = len;
            if (len < shortest) shortest = len;
            if (len > longest) longest = len;
        }
        count++;
    }
    s->count++;
    s->hyp_len += hyp_len;
    for (int n = 0; n < s->order; n++) {
        s->matches[n] += matches[n];
        if (hyp_len > n) s->totals[n] += hyp_len - n;
        else s->short_[n] += 1;
    }
    Py_ssize_t dropped = refs - count;
    if (count) {
        s->ref_sums[0] += closest;
        s->ref_sums[1] += closest_first;
        s->ref_sums[2] += shortest;
        s->ref_sums[3] += first;
        if (longest > s->longest) s->longest = longest;
    } else {
        s->without++;
        if (hyp_len) s->without_hyp++;
        if (!dropped) s->never++;
        if (s->first_without < 0) s->first_without = hyp_len;
    }
    if (s->fewest < 0 || count < s->fewest) s->fewest = count;
    if (s->most < 0 || count > s->most) s->most = count;
    PyObject *lens = PyTuple_New(count);
    if (!lens) return -1;
    for (Py_ssize_t r = 0, i = 0; r < refs; r++) {
        if (kept && !kept[r]) continue;
        PyObject *v = PyLong_FromSsize_t(ref_lens[r]);
        if (!v) { Py_DECREF(lens); return -1; }
        PyTuple_SET_ITEM(lens, i++, v);
    }
    Py_XSETREF(s->last_ref_lens, lens);
    s->last_hyp_len = hyp_len;
    memcpy(s->last_matches, matches, (size_t)s->order * sizeof(long long));
    s->last_dropped = dropped;
    return 0;
}

static PyObject *tuple_of(const long long *values, int n) {
    PyObject *t = PyTuple_New(n);
    if (!t) return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *v = PyLong_FromLongLong(values[i]);
        if (!v) { Py_DECREF(t); return NULL; }
        PyTuple_SET_ITEM(t, i, v);
    }
    return t;
}

static PyObject *optional(long long value) {
    if (value < 0) Py_RETURN_NONE;
    return PyLong_FromLongLong(value);
}

/* Clipped matches of one segment, orders 1..order, into ``matches``. */
static int segment_matches(Work *w, const Spans *hyp, Spans *refs, Py_ssize_t ref_count,
                           int order, long long *matches) {
    for (int n = 0; n < order; n++) matches[n] = 0;
    Py_ssize_t H = hyp->size;
    if (H == 0 || ref_count == 0) return 0;
    /* token ids */
    Py_ssize_t cap = 16;
    while (cap < 2 * H) cap *= 2;
    if (grow((void **)&w->token_slots, &w->token_cap, cap, sizeof(int32_t)) < 0) return -1;
    memset(w->token_slots, 0, (size_t)cap * sizeof(int32_t));
    if (grow((void **)&w->hyp_ids, &w->hyp_ids_cap, H, sizeof(int32_t)) < 0) return -1;
    Py_ssize_t mask = cap - 1;
    int32_t distinct = 0;
    for (Py_ssize_t i = 0; i < H; i++) {
        const Span *t = &hyp->items[i];
        Py_ssize_t slot = (Py_ssize_t)(t->hash & (uint64_t)mask);
        for (;;) {
            int32_t entry = w->token_slots[slot];
            if (entry == 0) {
                w->token_slots[slot] = (int32_t)(i + 1); /* position + 1 of its first use */
                w->hyp_ids[i] = distinct++;
                break;
            }
            if (span_equal(&hyp->items[entry - 1], t)) {
                w->hyp_ids[i] = w->hyp_ids[entry - 1];
                break;
            }
            slot = (slot + 1) & mask;
        }
    }
    /* reference ids (-1: not in the hypothesis) */
    Py_ssize_t max_ref = 0;
    for (Py_ssize_t r = 0; r < ref_count; r++)
        if (refs[r].size > max_ref) max_ref = refs[r].size;
    Py_ssize_t top = order;
    if (top > H) top = H;
    if (top > max_ref) top = max_ref;
    if (top == 0) return 0;
    Py_ssize_t total_ref = 0;
    for (Py_ssize_t r = 0; r < ref_count; r++) total_ref += refs[r].size;
    if (grow((void **)&w->ref_ids, &w->ref_ids_cap, total_ref + 1, sizeof(int32_t)) < 0)
        return -1;
    Py_ssize_t at = 0;
    for (Py_ssize_t r = 0; r < ref_count; r++) {
        for (Py_ssize_t j = 0; j < refs[r].size; j++) {
            const Span *t = &refs[r].items[j];
            Py_ssize_t slot = (Py_ssize_t)(t->hash & (uint64_t)mask);
            int32_t id = -1;
            for (;;) {
                int32_t entry = w->token_slots[slot];
                if (entry == 0) break;
                if (span_equal(&hyp->items[entry - 1], t)) { id = w->hyp_ids[entry - 1]; break; }
                slot = (slot + 1) & mask;
            }
            w->ref_ids[at++] = id;
        }
    }
    /* n-gram tables, one order at a time */
    Py_ssize_t gcap = 16;
    while (gcap < 2 * H) gcap *= 2;
    if (grow((void **)&w->gram_slots, &w->gram_cap, gcap, sizeof(int32_t)) < 0) return -1;
    Py_ssize_t items_cap = w->gram_items_cap;
    if (grow((void **)&w->gram_start, &items_cap, H, sizeof(Py_ssize_t)) < 0) return -1;
    if (items_cap != w->gram_items_cap) {
        Py_ssize_t c;
        c = w->gram_items_cap; if (grow((void **)&w->gram_hash, &c, items_cap, sizeof(uint64_t)) < 0) return -1;
        c = w->gram_items_cap; if (grow((void **)&w->gram_count, &c, items_cap, sizeof(int64_t)) < 0) return -1;
        c = w->gram_items_cap; if (grow((void **)&w->gram_best, &c, items_cap, sizeof(int64_t)) < 0) return -1;
        c = w->gram_items_cap; if (grow((void **)&w->gram_cur, &c, items_cap, sizeof(int64_t)) < 0) return -1;
        c = w->gram_items_cap; if (grow((void **)&w->touched, &c, items_cap, sizeof(Py_ssize_t)) < 0) return -1;
        w->gram_items_cap = items_cap;
    }
    Py_ssize_t longest_side = H > max_ref ? H : max_ref;
    if (grow((void **)&w->window_hash, &w->window_cap, longest_side, sizeof(uint64_t)) < 0)
        return -1;
    Py_ssize_t gmask = gcap - 1;
    for (Py_ssize_t n = 1; n <= top; n++) {
        memset(w->gram_slots, 0, (size_t)gcap * sizeof(int32_t));
        Py_ssize_t grams = 0;
        for (Py_ssize_t i = 0; i + n <= H; i++) {
            uint64_t h = (uint64_t)n;
            for (Py_ssize_t k = 0; k < n; k++) h = mix(h ^ (uint64_t)(uint32_t)w->hyp_ids[i + k]);
            Py_ssize_t slot = (Py_ssize_t)(h & (uint64_t)gmask);
            for (;;) {
                int32_t entry = w->gram_slots[slot];
                if (entry == 0) {
                    w->gram_slots[slot] = (int32_t)(grams + 1);
                    w->gram_start[grams] = i;
                    w->gram_hash[grams] = h;
                    w->gram_count[grams] = 1;
                    w->gram_best[grams] = 0;
                    w->gram_cur[grams] = 0;
                    grams++;
                    break;
                }
                Py_ssize_t g = entry - 1;
                if (w->gram_hash[g] == h &&
                    memcmp(&w->hyp_ids[w->gram_start[g]], &w->hyp_ids[i],
                           (size_t)n * sizeof(int32_t)) == 0) {
                    w->gram_count[g]++;
                    break;
                }
                slot = (slot + 1) & gmask;
            }
        }
        Py_ssize_t base = 0;
        for (Py_ssize_t r = 0; r < ref_count; r++) {
            const int32_t *ids = &w->ref_ids[base];
            Py_ssize_t L = refs[r].size, touched = 0, run = 0;
            base += L;
            for (Py_ssize_t j = 0; j < L; j++) {
                run = ids[j] < 0 ? 0 : run + 1;
                if (run < n) continue;
                const int32_t *gram = &ids[j - n + 1];
                uint64_t h = (uint64_t)n;
                for (Py_ssize_t k = 0; k < n; k++) h = mix(h ^ (uint64_t)(uint32_t)gram[k]);
                Py_ssize_t slot = (Py_ssize_t)(h & (uint64_t)gmask);
                for (;;) {
                    int32_t entry = w->gram_slots[slot];
                    if (entry == 0) break;
                    Py_ssize_t g = entry - 1;
                    if (w->gram_hash[g] == h &&
                        memcmp(&w->hyp_ids[w->gram_start[g]], gram,
                               (size_t)n * sizeof(int32_t)) == 0) {
                        if (w->gram_cur[g]++ == 0) w->touched[touched++] = g;
                        break;
                    }
                    slot = (slot + 1) & gmask;
                }
            }
            for (Py_ssize_t t = 0; t < touched; t++) {
                Py_ssize_t g = w->touched[t];
                if (w->gram_cur[g] > w->gram_best[g]) w->gram_best[g] = w->gram_cur[g];
                w->gram_cur[g] = 0;
            }
        }
        long long matched = 0;
        for (Py_ssize_t g = 0; g < grams; g++)
            matched += w->gram_count[g] < w->gram_best[g] ? w->gram_count[g] : w->gram_best[g];
        if (!matched) break; /* no longer n-gram can match */
        matches[n - 1] = matched;
    }
    return 0;
}

static PyObject *native_count(PyObject *self, PyObject *args) {
    PyObject *hypotheses, *references, *prepare, *drops;
    int mode, lowercase, order;
    if (!PyArg_ParseTuple(args, "OOiOpiO!", &hypotheses, &references, &mode, &prepare,
                          &lowercase, &order, &PyTuple_Type, &drops))
        return NULL;
    if (mode < SPLIT || mode > V13A_ASCII_LC) {
        PyErr_SetString(PyExc_ValueError, "unknown tokenization mode");
        return NULL;
    }
    if ((mode == V13A || mode == PREPARED || mode == V13A_ASCII_LC) &&
        !PyCallable_Check(prepare)) {
        PyErr_SetString(PyExc_TypeError, "this mode needs a callable tokenizer");
        return NULL;
    }
    if (order < 0) { PyErr_SetString(PyExc_ValueError, "order must not be negative"); return NULL; }
    size_t slots = (size_t)(order ? order : 1); /* order 0: no n-grams (empty weights) */
    Py_ssize_t variants = PyTuple_GET_SIZE(drops);
    PyObject *result = NULL, *hyp_iter = NULL, *ref_iter = NULL;
    Work work = {0};
    Spans hyp = {0};
    Spans *refs = NULL;
    Py_ssize_t refs_cap = 0;
    Py_ssize_t *ref_lens = NULL, ref_lens_cap = 0;
    char *kept = NULL;
    Py_ssize_t kept_cap = 0;
    PyObject **keeps = NULL;
    Py_ssize_t keeps_cap = 0;
    long long *matches = PyMem_Calloc(slots, sizeof(long long));
    long long *kept_matches = PyMem_Calloc(slots, sizeof(long long));
    Spans *kept_refs = NULL;
    Py_ssize_t kept_refs_cap = 0;
    int any_drop = 0, any_keep = 0;
    Sums *sums = PyMem_Calloc((size_t)(variants ? variants : 1), sizeof(Sums));
    int *drop = PyMem_Calloc((size_t)(variants ? variants : 1), sizeof(int));
    if (!matches || !kept_matches || !sums || !drop) { PyErr_NoMemory(); goto done; }
    for (Py_ssize_t v = 0; v < variants; v++) {
        drop[v] = PyObject_IsTrue(PyTuple_GET_ITEM(drops, v));
        if (drop[v] < 0) goto done;
        if (drop[v]) any_drop = 1;
        else any_keep = 1;
        Sums *s = &sums[v];
        s->order = order;
        s->fewest = s->most = s->first_without = -1;
        s->matches = PyMem_Calloc(slots, sizeof(long long));
        s->totals = PyMem_Calloc(slots, sizeof(long long));
        s->short_ = PyMem_Calloc(slots, sizeof(long long));
        s->last_matches = PyMem_Calloc(slots, sizeof(long long));
        if (!s->matches || !s->totals || !s->short_ || !s->last_matches) { PyErr_NoMemory(); goto done; }
    }
    hyp_iter = PyObject_GetIter(hypotheses);
    if (!hyp_iter) goto done;
    ref_iter = PyObject_GetIter(references);
    if (!ref_iter) goto done;
    for (long long segment = 0;; segment++) {
        if ((segment & 1023) == 1023 && PyErr_CheckSignals() < 0) goto done;
        PyObject *hyp_text = PyIter_Next(hyp_iter);
        if (!hyp_text && PyErr_Occurred()) goto done;
        PyObject *ref_texts = PyIter_Next(ref_iter);
        if (!ref_texts && PyErr_Occurred()) { Py_XDECREF(hyp_text); goto done; }
        if (!hyp_text || !ref_texts) {
            Py_XDECREF(hyp_text);
            Py_XDECREF(ref_texts);
            if (hyp_text || ref_texts) {
                PyErr_SetString(PyExc_ValueError,
                                "hypotheses and references differ in length");
                goto done;
            }
            break;
        }
        PyObject *ref_seq = PySequence_Fast(ref_texts, "references must be sequences");
        Py_DECREF(ref_texts);
        if (!ref_seq) { Py_DECREF(hyp_text); goto done; }
        Py_ssize_t R = PySequence_Fast_GET_SIZE(ref_seq);
        PyObject **ref_items = PySequence_Fast_ITEMS(ref_seq);
        int failed = 0;
        Py_ssize_t kept_objects = 0;
        if (grow((void **)&keeps, &keeps_cap, R + 1, sizeof(PyObject *)) < 0 ||
            grow((void **)&ref_lens, &ref_lens_cap, R + 1, sizeof(Py_ssize_t)) < 0 ||
            grow((void **)&kept, &kept_cap, R + 1, 1) < 0) {
            failed = 1;
        }
        if (!failed && R > refs_cap) {
            Spans *grown = PyMem_Realloc(refs, (size_t)R * sizeof(Spans));
            if (!grown) { PyErr_NoMemory(); failed = 1; }
            else {
                memset(grown + refs_cap, 0, (size_t)(R - refs_cap) * sizeof(Spans));
                refs = grown;
                refs_cap = R;
            }
        }
        if (!failed) {
            PyObject *keep;
            if (tokens_of(hyp_text, mode, prepare, lowercase, &hyp, &keep) < 0) failed = 1;
            if (keep) keeps[kept_objects++] = keep;
        }
        for (Py_ssize_t r = 0; !failed && r < R; r++) {
            PyObject *keep;
            if (tokens_of(ref_items[r], mode, prepare, lowercase, &refs[r], &keep) < 0) failed = 1;
            if (keep) keeps[kept_objects++] = keep;
            if (!failed) {
                ref_lens[r] = refs[r].size;
                kept[r] = PyUnicode_GET_LENGTH(ref_items[r]) != 0;
            }
        }
        /* A reference that is '' has no tokens under most tokenizers, so leaving it out
         * changes only the reference lengths; under one that makes a token of it ('space':
         * [''] ) the kept references are counted again on their own. */
        int recount = 0;
        for (Py_ssize_t r = 0; any_drop && r < R; r++)
            if (!kept[r] && refs[r].size) recount = 1;
        if (!failed && (any_keep || !recount) &&
            segment_matches(&work, &hyp, refs, R, order, matches) < 0)
            failed = 1;
        if (!failed && recount) {
            if (grow((void **)&kept_refs, &kept_refs_cap, R, sizeof(Spans)) < 0) failed = 1;
            Py_ssize_t k = 0;
            for (Py_ssize_t r = 0; !failed && r < R; r++)
                if (kept[r]) kept_refs[k++] = refs[r];
            if (!failed &&
                segment_matches(&work, &hyp, kept_refs, k, order, kept_matches) < 0)
                failed = 1;
        }
        for (Py_ssize_t v = 0; !failed && v < variants; v++)
            if (add_segment(&sums[v], hyp.size, ref_lens, drop[v] ? kept : NULL, R,
                            drop[v] && recount ? kept_matches : matches) < 0)
                failed = 1;
        for (Py_ssize_t k = 0; k < kept_objects; k++) Py_DECREF(keeps[k]);
        Py_DECREF(ref_seq);
        Py_DECREF(hyp_text);
        if (failed) goto done;
    }
    result = PyList_New(variants);
    if (!result) goto done;
    for (Py_ssize_t v = 0; v < variants; v++) {
        Sums *s = &sums[v];
        PyObject *last = Py_None;
        Py_INCREF(Py_None);
        if (s->count) {
            Py_DECREF(Py_None);
            last = Py_BuildValue("(LONL)", s->last_hyp_len, s->last_ref_lens,
                                 tuple_of(s->last_matches, order), s->last_dropped);
            if (!last) { Py_CLEAR(result); goto done; }
        }
        PyObject *item = Py_BuildValue(
            "(LLNNNNLLLNNNLN)", s->count, s->hyp_len, tuple_of(s->matches, order),
            tuple_of(s->totals, order), tuple_of(s->short_, order), tuple_of(s->ref_sums, 4),
            s->without, s->without_hyp, s->never, optional(s->first_without),
            optional(s->fewest), optional(s->most), s->longest, last);
        if (!item) { Py_CLEAR(result); goto done; }
        PyList_SET_ITEM(result, v, item);
    }
done:
    Py_XDECREF(hyp_iter);
    Py_XDECREF(ref_iter);
    if (sums) {
        for (Py_ssize_t v = 0; v < variants; v++) {
            PyMem_Free(sums[v].matches); PyMem_Free(sums[v].totals);
            PyMem_Free(sums[v].short_); PyMem_Free(sums[v].last_matches);
            Py_XDECREF(sums[v].last_ref_lens);
        }
    }
    PyMem_Free(sums); PyMem_Free(drop); PyMem_Free(matches); PyMem_Free(kept_matches);
    PyMem_Free(kept_refs);
    PyMem_Free(hyp.items);
    for (Py_ssize_t r = 0; r < refs_cap; r++) PyMem_Free(refs[r].items);
    PyMem_Free(refs); PyMem_Free(ref_lens); PyMem_Free(kept); PyMem_Free(keeps);
    work_free(&work);
    return result;
}

static PyMethodDef methods[] = {
    {"count", native_count, METH_VARARGS,
     "count(hypotheses, references, mode, prepare, lowercase, order, drops) -> list of sums"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_native", "The statistics pass in C (harness.bleu.native).", -1,
    methods,
};

PyMODINIT_FUNC PyInit__native(void) { return PyModule_Create(&module); }
