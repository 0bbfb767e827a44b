/* The statistics pass of bleu_harness.bleu.counting in C (optional; bleu_harness/bleu/native.py).
 *
 * count(hypotheses, references, groups) walks the two iterables in step, one segment at a
 * time, once for every group ``(mode, prepare, lowercase, order, drops)`` -- one tokenization
 * each -- and returns per group one tuple of corpus sums per entry of ``drops`` (whether
 * references that are the empty string are left out first: SacreBLEU 1.5-2.1). Tokens (see
 * tokens_of): ``str.split()`` (Py_UNICODE_ISSPACE, the rule str.split uses), SacreBLEU's 13a,
 * mteval's ASCII-folded 13a, char, multi-bleu.perl's split, Tensor2Tensor's Unicode-class
 * tokenizer, or the sequence of str a Python tokenizer gives. Tokens are compared by their
 * code points, never by a hash alone, so the integers equal the pure-Python pass
 * (tests/test_native.py).
 *
 * All conventions at once cost little more than one, because within a segment:
 * - a tokenization that would give str.split()'s tokens takes them (split_classified notes
 *   what would make 13a, T2T, Perl's split or lower-casing differ), or an earlier group's
 *   where the rules agree (shares_tokens); T2T, and 13a where no rule reaches beyond a
 *   word, build theirs from str.split()'s word by word (tokens_by_token), cutting only the
 *   words with punctuation in them (13a's entities are replaced within their word:
 *   v13a_entity_token); a word without A-Z is the same folded, hash included;
 * - tokens become ids (assign_ids), or a group whose tokens are another's read folded takes
 *   that group's ids and merges the ones folding makes equal (fold_ids); groups with the same
 *   ids have the same clipped matches, so they are counted once, highest order first
 *   (mteval's nine serve the others' four);
 * - an order numbers its n-grams as pairs (the (n-1)-gram's number, the last token's id),
 *   never hashing or comparing an n-gram token by token, and looks only at the positions
 *   where the previous order's n-grams matched (count_matches).
 * Linear in the segment's length; no table outlives its segment.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#include "_sentence.h"

typedef struct {
    const void *data;
    Py_ssize_t len;
    unsigned char kind;
    unsigned char fold;  /* read with A-Z as a-z (mteval's tr/[A-Z]/[a-z]/ of another group's) */
    unsigned char marks; /* MARK_*: what split_classified saw in it (0: not looked at) */
    uint64_t hash;
} Span;

/* A str.split() token's marks: looked at; longer than one character with a character of
 * T2T's classes P or S inside, or of 13a's punctuation; with A-Z; with '&' (an entity,
 * perhaps: v13a_entity_token). */
enum { MARK_KNOWN = 1, MARK_PS = 2, MARK_PUNCT = 4, MARK_UPPER = 8, MARK_AMPERSAND = 16 };

typedef struct {
    Span *items;
    Py_ssize_t size, cap;
} Spans;

typedef struct {
    /* token table: slot -> id + 1 (0 empty) */
    int32_t *token_slots;
    Py_ssize_t token_cap;
    /* count_matches: per distinct hypothesis n-gram of the order, its count, its largest
     * count in one reference, and its count in the reference being read */
    int64_t *gram_count, *gram_best, *gram_cur;
    int32_t *touched;
    Py_ssize_t gram_cap;
    int32_t *hyp_ids; /* ids of a segment counted outside a group (kept references) */
    Py_ssize_t hyp_ids_cap;
    int32_t *fold_map; /* fold_ids: another group's id -> this group's */
    Py_ssize_t fold_map_cap;
    /* per hypothesis position (capacity gram_cap): the id of the n-gram there; the positions
     * still alive */
    int32_t *hyp_gram, *hyp_live;
    /* the references' token ids one after another, -1 between two; per position, the id of
     * the hypothesis n-gram there; the positions still alive */
    int32_t *ref_tokens, *ref_gram, *ref_live;
    Py_ssize_t ref_cap;
    /* n-gram table: (id of the (n-1)-gram, id of the last token) -> id of the n-gram */
    uint64_t *pair_keys;
    int32_t *pair_ids;
    Py_ssize_t pair_cap;
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
    PyMem_Free(w->token_slots); PyMem_Free(w->gram_count); PyMem_Free(w->gram_best);
    PyMem_Free(w->gram_cur); PyMem_Free(w->touched); PyMem_Free(w->hyp_ids);
    PyMem_Free(w->hyp_gram); PyMem_Free(w->hyp_live); PyMem_Free(w->ref_tokens);
    PyMem_Free(w->ref_gram); PyMem_Free(w->ref_live); PyMem_Free(w->pair_keys);
    PyMem_Free(w->pair_ids); PyMem_Free(w->fold_map);
}

static inline uint64_t mix(uint64_t h) {
    h ^= h >> 33; h *= 0xff51afd7ed558ccdULL; h ^= h >> 33; h *= 0xc4ceb9fe1a85ec53ULL;
    h ^= h >> 33;
    return h;
}

static inline Py_UCS4 ascii_folded(Py_UCS4 c) { return c >= 'A' && c <= 'Z' ? c + 32 : c; }

/* A token's hash, from its code points alone (equal tokens hash equally whatever the kind
 * of their strings): eight code points below 256 to a word, one mix per word; a token with a
 * code point beyond 255 (which no token of a 1-byte string equals) hashes code point by code
 * point. Where A-Z reads as a-z (``fold``), the folded code points. */
static uint64_t hash_wide(const void *data, int kind, Py_ssize_t start, Py_ssize_t len,
                          int fold) {
    uint64_t h = 0x2545f4914f6cdd1dULL ^ (uint64_t)len;
    for (Py_ssize_t i = 0; i < len; i++) {
        Py_UCS4 c = PyUnicode_READ(kind, data, start + i);
        h = (h ^ (fold ? ascii_folded(c) : c)) * 0x100000001b3ULL;
    }
    return mix(h);
}

#define HIGH_BITS 0x8080808080808080ULL

/* Eight ASCII bytes with A-Z made a-z at once: a byte gets 0x20 where it is >= 'A' and not
 * > 'Z' (no byte carries into the next: all are below 0x80). */
static inline uint64_t ascii_folded_word(uint64_t word) {
    uint64_t at_least_a = word + 0x3f3f3f3f3f3f3f3fULL, beyond_z = word + 0x2525252525252525ULL;
    return word + (((at_least_a & ~beyond_z) & HIGH_BITS) >> 2);
}

static inline uint64_t hash_span(const void *data, int kind, Py_ssize_t start, Py_ssize_t len,
                                 int fold) {
    uint64_t h = 0x9e3779b97f4a7c15ULL ^ (uint64_t)len, word = 0;
    Py_ssize_t i = 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    if (kind == PyUnicode_1BYTE_KIND) {
        const Py_UCS1 *c = (const Py_UCS1 *)data + start;
        for (; i + 8 <= len; i += 8) {
            memcpy(&word, c + i, 8);
            if (fold && (word & HIGH_BITS)) { word = 0; goto by_character; }
            h = mix(h ^ (fold ? ascii_folded_word(word) : word));
        }
        if (i == len) return h;
        word = 0;
        for (Py_ssize_t k = len - 1; k >= i; k--) word = (word << 8) | c[k];
        if (fold && (word & HIGH_BITS)) { word = 0; goto by_character; }
        return mix(h ^ (fold ? ascii_folded_word(word) : word));
    }
by_character:;
#endif
    int filled = 0;
    for (; i < len; i++) {
        Py_UCS4 c = PyUnicode_READ(kind, data, start + i);
        if (c > 0xff) return hash_wide(data, kind, start, len, fold);
        if (fold) c = ascii_folded(c);
        word |= (uint64_t)c << (8 * filled);
        if (++filled == 8) {
            h = mix(h ^ word);
            word = 0;
            filled = 0;
        }
    }
    return filled ? mix(h ^ word) : h;
}

static inline int span_equal(const Span *a, const Span *b) {
    if (a->len != b->len || a->hash != b->hash) return 0;
    if (a->data == b->data && a->kind == b->kind && a->fold == b->fold) return 1;
    if (a->kind == b->kind && !a->fold && !b->fold)
        return memcmp(a->data, b->data, (size_t)(a->len * a->kind)) == 0;
    if (a->kind == PyUnicode_1BYTE_KIND && b->kind == PyUnicode_1BYTE_KIND) {
        const Py_UCS1 *x = a->data, *y = b->data;
        for (Py_ssize_t i = 0; i < a->len; i++)
            if ((a->fold ? ascii_folded(x[i]) : x[i]) != (b->fold ? ascii_folded(y[i]) : y[i]))
                return 0;
        return 1;
    }
    for (Py_ssize_t i = 0; i < a->len; i++) {
        Py_UCS4 x = PyUnicode_READ(a->kind, a->data, i), y = PyUnicode_READ(b->kind, b->data, i);
        if (a->fold) x = ascii_folded(x);
        if (b->fold) y = ascii_folded(y);
        if (x != y) return 0;
    }
    return 1;
}

static int has_ascii_upper(const Span *t) {
    for (Py_ssize_t i = 0; i < t->len; i++) {
        Py_UCS4 c = PyUnicode_READ(t->kind, t->data, i);
        if (c >= 'A' && c <= 'Z') return 1;
    }
    return 0;
}

/* The tokens read with A-Z as a-z. A token without A-Z reads the same either way and keeps
 * its hash (hash_span hashes the folded code points, so the same value). */
static void fold_spans(Spans *spans) {
    for (Py_ssize_t i = 0; i < spans->size; i++) {
        Span *t = &spans->items[i];
        if (t->fold || !((t->marks & MARK_KNOWN) ? t->marks & MARK_UPPER : has_ascii_upper(t)))
            continue;
        t->fold = 1;
        t->hash = hash_span(t->data, t->kind, 0, t->len, 1);
    }
}

static int push(Spans *spans, const void *data, int kind, Py_ssize_t start, Py_ssize_t len) {
    if (grow((void **)&spans->items, &spans->cap, spans->size + 1, sizeof(Span)) < 0) return -1;
    Span *s = &spans->items[spans->size++];
    s->kind = kind;
    s->data = (const char *)data + start * kind;
    s->len = len;
    s->fold = 0;
    s->marks = 0;
    s->hash = hash_span(data, kind, start, len, 0);
    return 0;
}

/* A token as it is (hash included). */
static int push_span(Spans *spans, const Span *token) {
    if (grow((void **)&spans->items, &spans->cap, spans->size + 1, sizeof(Span)) < 0) return -1;
    spans->items[spans->size++] = *token;
    return 0;
}

enum { SPLIT = 0, V13A = 1, CHARS = 2, PREPARED = 3, PERL_SPLIT = 4, V13A_ASCII_LC = 5,
       T2T = 6 };

/* How one text was tokenized (tokens_of): by the Python tokenizer (the C rules did not
 * cover it), or with a separator str.split() knows and Perl's \s does not. */
enum { USED_PYTHON = 1, UNICODE_SPACE = 2 };

/* What split_classified notes of a text, so that other tokenizations can take its tokens:
 * 13a would change them token by token (V13A_INSIDE: a 13a punctuation character inside a
 * longer token: an entity is one, v13a_entity_token) or as a whole text (V13A_UNSAFE: a
 * digit next to a period, comma or dash, a tag, a line break, U+001C-U+001F); T2T would
 * (a punctuation or symbol character inside a longer token); A-Z; any character beyond
 * ASCII. */
enum { V13A_UNSAFE = 4, PS_INSIDE = 8, HAS_UPPER = 16, NON_ASCII = 32, V13A_INSIDE = 64 };

/* Unicode major classes for T2T (set_unicode_classes): one byte per code point, from
 * Python's unicodedata as Tensor2Tensor enumerates them (bleu_harness.bleu.tokenizers.t2t). */
enum { CLASS_P = 1, CLASS_S = 2 };
static PyObject *unicode_classes_owner = NULL;
static const unsigned char *unicode_classes = NULL;
static Py_ssize_t unicode_classes_len = 0;

static inline int unicode_class(Py_UCS4 c) {
    return (Py_ssize_t)c < unicode_classes_len ? unicode_classes[c] : 0;
}

/* mteval-v13a's punctuation class plus period and comma (bleu_harness.bleu.tokenizers:
 * _V13A_PUNCTUATION + ".,"): where no digit touches a period, comma or dash, each of these
 * becomes a token of its own and nothing else changes. */
static const char V13A_PUNCTUATION[] = "{|}~[\\]^_`!\"#$%&()*+:;<=>?@/.,";
static char v13a_punctuation_table[128];

/* What split_classified needs to know of a character below 256 (traits_of): whitespace
 * (T_UNICODE_SPACE: not Perl's), A-Z, 13a's punctuation, T2T's classes P and S, a digit,
 * a period or comma, a dash, '&', a line break or U+001C-U+001F, '<'. */
enum { T_SPACE = 1, T_UPPER = 2, T_PUNCT = 4, T_PS = 8, T_DIGIT = 16, T_DOT_COMMA = 32,
       T_DASH = 64, T_AMPERSAND = 128, T_LINE = 256, T_TAG = 512, T_UNICODE_SPACE = 1024 };
static unsigned short char_traits[256];

/* bleu_harness.bleu.tokenizers.perl._PERL_WHITESPACE: space, \t, \n, \v, \f, \r. */
static int perl_space(Py_UCS4 c) { return c == ' ' || (c >= '\t' && c <= '\r'); }

static void init_v13a_punctuation(void) {
    for (const char *c = V13A_PUNCTUATION; *c; c++) v13a_punctuation_table[(int)*c] = 1;
    for (int c = 0; c < 256; c++) {
        unsigned short t = 0;
        if (Py_UNICODE_ISSPACE(c)) t |= perl_space(c) ? T_SPACE : T_SPACE | T_UNICODE_SPACE;
        if (c >= 128) {
            char_traits[c] = t; /* T_PS once set_unicode_classes gives T2T's classes */
            continue;
        }
        if (c == '\n' || (c >= 0x1c && c <= 0x1f)) t |= T_LINE;
        if (c >= 'A' && c <= 'Z') t |= T_UPPER;
        if (v13a_punctuation_table[c]) t |= T_PUNCT;
        if (c >= '0' && c <= '9') t |= T_DIGIT;
        if (c == '.' || c == ',') t |= T_DOT_COMMA;
        if (c == '-') t |= T_DASH;
        if (c == '&') t |= T_AMPERSAND;
        if (c == '<') t |= T_TAG;
        char_traits[c] = t;
    }
}

static inline int v13a_punctuation(Py_UCS4 c) { return c < 128 && v13a_punctuation_table[c]; }

static int is_digit(Py_UCS4 c) { return c >= '0' && c <= '9'; }

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

/* SacreBLEU's (and mteval's) four entity replacements, in their order: what each replaces,
 * and the one character it gives (v13a_unescape, v13a_entity_token). */
static const char *const V13A_ENTITIES[4][2] = {
    {"&quot;", "\""}, {"&amp;", "&"}, {"&lt;", "<"}, {"&gt;", ">"}};

/* SacreBLEU's four entity replacements, in its order, each over the previous one's output. */
static PyObject *v13a_unescape(PyObject *text) {
    Py_INCREF(text);
    for (int e = 0; e < 4; e++) {
        PyObject *replaced = PyObject_CallMethod(text, "replace", "ss", V13A_ENTITIES[e][0],
                                                 V13A_ENTITIES[e][1]);
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

static int t2t_token(Spans *spans, const void *data, int kind, Py_ssize_t start,
                     Py_ssize_t len, int space_before, int space_after, const Span *whole);

/* Runs of characters that are not ``is_space`` into ``spans`` -- each through T2T's passes
 * (t2t_token) when ``t2t``; UNICODE_SPACE into ``*flags`` where a separator is not Perl
 * whitespace. */
static int split_on(int (*is_space)(Py_UCS4), const void *data, int kind, Py_ssize_t length,
                    Spans *spans, int *flags, int t2t) {
    Py_ssize_t i = 0;
    while (i < length) {
        while (i < length) {
            Py_UCS4 c = PyUnicode_READ(kind, data, i);
            if (!is_space(c)) break;
            if (!perl_space(c)) *flags |= UNICODE_SPACE;
            i++;
        }
        if (i >= length) break;
        Py_ssize_t start = i;
        while (i < length && !is_space(PyUnicode_READ(kind, data, i))) i++;
        if ((t2t ? t2t_token(spans, data, kind, start, i - start, start > 0, i < length, NULL)
                 : push(spans, data, kind, start, i - start)) < 0)
            return -1;
    }
    return 0;
}

/* SacreBLEU's 13a where a digit touches a period, comma or dash: its four re.sub passes over
 * " line " (tokenizer_13a.py; bleu_harness.bleu.tokenizers.sacrebleu._V13A_RULES), each over the
 * previous one's output, each a fixed pattern matched leftmost first and resumed after it:
 *   ([{-~[-` -&(-+:-@/]) -> " \1 ",  ([^0-9])([.,]) -> "\1 \2 ",
 *   ([.,])([^0-9]) -> " \1 \2",     ([0-9])(-) -> "\1 \2 "
 * Whitespace then separates the tokens. */
static inline int v13a_spaced_class(Py_UCS4 c) {
    return c == ' ' || (v13a_punctuation(c) && c != '.' && c != ',');
}

static Py_ssize_t v13a_pass(int pass, const Py_UCS4 *in, Py_ssize_t n, Py_UCS4 *out) {
    Py_ssize_t o = 0, i = 0;
    while (i < n) {
        Py_UCS4 a = in[i];
        if (pass == 1) {
            if (v13a_spaced_class(a)) { out[o++] = ' '; out[o++] = a; out[o++] = ' '; }
            else out[o++] = a;
            i++;
            continue;
        }
        if (i + 1 < n) {
            Py_UCS4 b = in[i + 1];
            int period_or_comma_a = a == '.' || a == ',', period_or_comma_b = b == '.' || b == ',';
            if (pass == 2 && !is_digit(a) && period_or_comma_b) {
                out[o++] = a; out[o++] = ' '; out[o++] = b; out[o++] = ' ';
                i += 2;
                continue;
            }
            if (pass == 3 && period_or_comma_a && !is_digit(b)) {
                out[o++] = ' '; out[o++] = a; out[o++] = ' '; out[o++] = b;
                i += 2;
                continue;
            }
            if (pass == 4 && is_digit(a) && b == '-') {
                out[o++] = a; out[o++] = ' '; out[o++] = b; out[o++] = ' ';
                i += 2;
                continue;
            }
        }
        out[o++] = a;
        i++;
    }
    return o;
}

/* The text " text " after 13a's four passes (v13a_pass), each over the previous one's output
 * (each at most triples the length); a new str. */
static PyObject *v13a_spaced(const void *data, int kind, Py_ssize_t length) {
    Py_ssize_t n = length + 2;
    Py_UCS4 *in = PyMem_Malloc((size_t)n * sizeof(Py_UCS4));
    if (!in) return PyErr_NoMemory();
    in[0] = in[n - 1] = ' ';
    for (Py_ssize_t i = 0; i < length; i++) in[i + 1] = PyUnicode_READ(kind, data, i);
    for (int pass = 1; pass <= 4; pass++) {
        Py_UCS4 *out = PyMem_Malloc((size_t)n * 3 * sizeof(Py_UCS4));
        if (!out) { PyMem_Free(in); return PyErr_NoMemory(); }
        n = v13a_pass(pass, in, n, out);
        PyMem_Free(in);
        in = out;
    }
    PyObject *text = PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, in, n);
    PyMem_Free(in);
    return text;
}

/* What split_classified needs to know of a character, one table lookup below 256. */
static inline __attribute__((always_inline)) unsigned traits_of(Py_UCS4 c) {
    if (c < 256) return char_traits[c];
    return (Py_UNICODE_ISSPACE(c) ? T_SPACE | T_UNICODE_SPACE : 0) | (unicode_class(c) ? T_PS : 0);
}

/* Whether 13a's digit rules apply within [start, end) (v13a_digit_rules_apply): a digit
 * then a period, comma or dash, or a period or comma then a digit. */
static int digit_touches(const void *data, int kind, Py_ssize_t start, Py_ssize_t end) {
    unsigned previous = 0;
    for (Py_ssize_t i = start; i < end; i++) {
        unsigned t = traits_of(PyUnicode_READ(kind, data, i));
        if (((previous & T_DIGIT) && (t & (T_DOT_COMMA | T_DASH))) ||
            ((previous & T_DOT_COMMA) && (t & T_DIGIT)))
            return 1;
        previous = t;
    }
    return 0;
}

/* split_classified for one kind of string: inlined with a constant ``kind``, so that
 * PyUnicode_READ needs no switch per character. The loops only gather the characters'
 * traits; what they mean for the text is read once per token (the digit rules only in a
 * token with both a digit and a period, comma or dash) and once per text. */
static inline __attribute__((always_inline)) int split_classified_kind(
        const void *data, int kind, Py_ssize_t n, Spans *spans, int *flags) {
    Py_ssize_t i = 0;
    int f = *flags;
    unsigned spaces = 0, words = 0, t;
    while (i < n) {
        while (i < n && ((t = traits_of(PyUnicode_READ(kind, data, i))) & T_SPACE)) {
            spaces |= t;
            i++;
        }
        if (i >= n) break;
        Py_ssize_t start = i;
        unsigned seen = 0;
        while (i < n && !((t = traits_of(PyUnicode_READ(kind, data, i))) & T_SPACE)) {
            seen |= t;
            i++;
        }
        words |= seen;
        if ((seen & T_DIGIT) && (seen & (T_DOT_COMMA | T_DASH)) &&
            digit_touches(data, kind, start, i))
            f |= V13A_UNSAFE;
        unsigned char marks = MARK_KNOWN | (seen & T_UPPER ? MARK_UPPER : 0) |
                              (seen & T_AMPERSAND ? MARK_AMPERSAND : 0);
        if (i - start > 1) {
            if (seen & T_PUNCT) { f |= V13A_INSIDE; marks |= MARK_PUNCT; }
            if (seen & T_PS) { f |= PS_INSIDE; marks |= MARK_PS; }
        }
        if (push(spans, data, kind, start, i - start) < 0) return -1;
        spans->items[spans->size - 1].marks = marks;
    }
    if (spaces & T_UNICODE_SPACE) f |= UNICODE_SPACE;
    if (spaces & T_LINE) f |= V13A_UNSAFE;
    if (words & T_UPPER) f |= HAS_UPPER;
    if (words & T_TAG) f |= V13A_UNSAFE;
    *flags = f;
    return 0;
}

/* str.split() of ``text`` into ``spans``, noting in ``*flags`` what decides whether another
 * tokenization gives the same tokens (derived_tokens). */
static int split_classified(PyObject *text, Spans *spans, int *flags) {
    spans->size = 0;
    if (!PyUnicode_Check(text)) {
        PyErr_Format(PyExc_TypeError, "expected a string, got %.80s", Py_TYPE(text)->tp_name);
        return -1;
    }
    const void *data = PyUnicode_DATA(text);
    Py_ssize_t n = PyUnicode_GET_LENGTH(text);
    *flags = PyUnicode_IS_ASCII(text) ? 0 : NON_ASCII;
    switch (PyUnicode_KIND(text)) {
    case PyUnicode_1BYTE_KIND:
        return split_classified_kind(data, PyUnicode_1BYTE_KIND, n, spans, flags);
    case PyUnicode_2BYTE_KIND:
        return split_classified_kind(data, PyUnicode_2BYTE_KIND, n, spans, flags);
    default:
        return split_classified_kind(data, PyUnicode_4BYTE_KIND, n, spans, flags);
    }
}

/* Tensor2Tensor's bleu_tokenize before its split (bleu_harness.bleu.tokenizers.t2t): three
 * re.sub passes, each over the previous one's output, each a fixed two- or one-character
 * pattern matched leftmost first and resumed after the match, as re.sub does:
 *   ([^\d])([P]) -> "\1 \2 ",   ([P])([^\d]) -> " \1 \2",   ([S]) -> " \1 "
 * where \d is re's Unicode decimal digit (Py_UNICODE_ISDECIMAL, as sre). */
static inline int decimal(Py_UCS4 c) { return c < 128 ? is_digit(c) : Py_UNICODE_ISDECIMAL(c); }

static Py_ssize_t t2t_pass(int pass, const Py_UCS4 *in, Py_ssize_t n, Py_UCS4 *out) {
    Py_ssize_t o = 0, i = 0;
    while (i < n) {
        Py_UCS4 a = in[i];
        if (pass == 3) {
            if (unicode_class(a) & CLASS_S) {
                out[o++] = ' '; out[o++] = a; out[o++] = ' ';
            } else {
                out[o++] = a;
            }
            i++;
            continue;
        }
        if (i + 1 < n) {
            Py_UCS4 b = in[i + 1];
            if (pass == 1 && !decimal(a) && (unicode_class(b) & CLASS_P)) {
                out[o++] = a; out[o++] = ' '; out[o++] = b; out[o++] = ' ';
                i += 2;
                continue;
            }
            if (pass == 2 && (unicode_class(a) & CLASS_P) && !decimal(b)) {
                out[o++] = ' '; out[o++] = a; out[o++] = ' '; out[o++] = b;
                i += 2;
                continue;
            }
        }
        out[o++] = a;
        i++;
    }
    return o;
}

/* One str.split() token (no whitespace inside) under T2T's passes into ``spans``. The passes
 * only insert spaces, and a match that involves whitespace is a punctuation character next
 * to it (whitespace is neither \d, P nor S), so the passes over the whole text split each
 * token as they split it alone with a space on each side where the text has whitespace
 * (none before the text's start or after its end); and each piece is a substring of the
 * token. So the token runs through t2t_pass so padded, and the spaces in the output are the
 * cuts. */
static int t2t_token(Spans *spans, const void *data, int kind, Py_ssize_t start,
                     Py_ssize_t len, int space_before, int space_after, const Span *whole) {
    int classes = 0;
    for (Py_ssize_t k = 0; k < len && len > 1; k++)
        classes |= unicode_class(PyUnicode_READ(kind, data, start + k));
    if (!classes) return whole ? push_span(spans, whole) : push(spans, data, kind, start, len);
    /* each pass at most doubles (1, 2) or triples (3) its input */
    enum { SHORT = 32, SHORT_CAP = (SHORT + 2) * 12 };
    Py_UCS4 small[2][SHORT_CAP], *buffers[2] = {small[0], small[1]}, *heap = NULL;
    Py_ssize_t cap = (len + 2) * 12;
    if (cap > SHORT_CAP) {
        heap = PyMem_Malloc((size_t)cap * 2 * sizeof(Py_UCS4));
        if (!heap) { PyErr_NoMemory(); return -1; }
        buffers[0] = heap;
        buffers[1] = heap + cap;
    }
    Py_UCS4 *in = buffers[0];
    Py_ssize_t n = 0;
    if (space_before) in[n++] = ' ';
    for (Py_ssize_t k = 0; k < len; k++) in[n++] = PyUnicode_READ(kind, data, start + k);
    if (space_after) in[n++] = ' ';
    for (int pass = 1; pass <= 3; pass++) {
        Py_UCS4 *out = buffers[pass & 1];
        n = t2t_pass(pass, in, n, out);
        in = out;
    }
    Py_ssize_t at = start, piece = -1;
    int failed = 0;
    for (Py_ssize_t k = 0; k < n && !failed; k++) {
        if (in[k] == ' ') {
            if (piece >= 0) failed = push(spans, data, kind, piece, at - piece) < 0;
            piece = -1;
        } else {
            if (piece < 0) piece = at;
            at++;
        }
    }
    if (!failed && piece >= 0) failed = push(spans, data, kind, piece, at - piece) < 0;
    PyMem_Free(heap);
    return failed ? -1 : 0;
}

/* 13a where its digit rules do not apply (v13a_digit_rules_apply) and entities are replaced:
 * every punctuation character is a token, and whitespace separates the rest; over
 * [start, end) of the text. */
static int v13a_scan(Spans *spans, const void *data, int kind, Py_ssize_t start,
                     Py_ssize_t end) {
    Py_ssize_t i = start;
    while (i < end) {
        Py_UCS4 c = PyUnicode_READ(kind, data, i);
        if (Py_UNICODE_ISSPACE(c)) { i++; continue; }
        if (v13a_punctuation(c)) {
            if (push(spans, data, kind, i, 1) < 0) return -1;
            i++;
            continue;
        }
        Py_ssize_t first = i;
        while (i < end) {
            c = PyUnicode_READ(kind, data, i);
            if (Py_UNICODE_ISSPACE(c) || v13a_punctuation(c)) break;
            i++;
        }
        if (push(spans, data, kind, first, i - first) < 0) return -1;
    }
    return 0;
}

/* 13a of one str.split() token (no whitespace in it) with '&' in it: SacreBLEU's four entity
 * replacements first (v13a_unescape: each over the previous one's output, leftmost and
 * non-overlapping, as str.replace), matched with A-Z read as a-z where the text is
 * lower-cased before them (``fold``), then 13a's punctuation rule (v13a_scan). A
 * replacement never reaches across whitespace, and what it gives (", &, <, >) is 13a
 * punctuation, a token of its own; and it takes the place of the characters it replaced, so
 * every other token is a run of the token's own characters, side by side in the text. So the
 * tokens point into the text, or into V13A_ENTITIES for a replacement's. The digit rules
 * read the same before and after (no replacement gives or removes a digit, period, comma or
 * dash next to one). */
static int v13a_entity_token(Spans *spans, const void *data, int kind, Py_ssize_t start,
                             Py_ssize_t len, int fold) {
    enum { SHORT = 64 };
    Py_UCS4 short_points[SHORT];
    Py_ssize_t short_origins[SHORT];
    /* each pass in place: a replacement is shorter than what it replaces, so a pass writes
     * no further than it has read */
    Py_UCS4 *point = short_points;
    Py_ssize_t *origin = short_origins; /* index in the text, or -1 - e for replacement e */
    void *heap = NULL;
    if (len > SHORT) {
        heap = PyMem_Malloc((size_t)len * (sizeof(Py_ssize_t) + sizeof(Py_UCS4)));
        if (!heap) { PyErr_NoMemory(); return -1; }
        origin = heap;
        point = (Py_UCS4 *)(origin + len);
    }
    Py_ssize_t n = len;
    for (Py_ssize_t k = 0; k < len; k++) {
        point[k] = PyUnicode_READ(kind, data, start + k);
        origin[k] = start + k;
    }
    for (int e = 0; e < 4; e++) {
        const char *pattern = V13A_ENTITIES[e][0];
        Py_ssize_t pattern_len = (Py_ssize_t)strlen(pattern), o = 0;
        for (Py_ssize_t i = 0; i < n;) {
            Py_ssize_t k = 0;
            if (point[i] == '&')
                while (k < pattern_len && i + k < n &&
                       (fold ? ascii_folded(point[i + k]) : point[i + k]) == (Py_UCS4)pattern[k])
                    k++;
            if (k == pattern_len) {
                point[o] = (Py_UCS1)V13A_ENTITIES[e][1][0];
                origin[o++] = -1 - e;
                i += pattern_len;
            } else {
                point[o] = point[i];
                origin[o++] = origin[i++];
            }
        }
        n = o;
    }
    int failed = 0;
    for (Py_ssize_t i = 0; i < n && !failed;) {
        if (v13a_punctuation(point[i])) {
            failed = (origin[i] >= 0
                      ? push(spans, data, kind, origin[i], 1)
                      : push(spans, V13A_ENTITIES[-1 - origin[i]][1], PyUnicode_1BYTE_KIND, 0, 1))
                     < 0;
            i++;
            continue;
        }
        Py_ssize_t first = i;
        while (i < n && !v13a_punctuation(point[i])) i++;
        failed = push(spans, data, kind, origin[first], i - first) < 0;
    }
    PyMem_Free(heap);
    return failed ? -1 : 0;
}

/* Whether str.lower() would return ``text`` unchanged because it is ASCII without A-Z. */
static int ascii_without_upper(PyObject *text) {
    if (!PyUnicode_IS_ASCII(text)) return 0;
    const Py_UCS1 *c = PyUnicode_1BYTE_DATA(text);
    for (Py_ssize_t i = 0, n = PyUnicode_GET_LENGTH(text); i < n; i++)
        if (c[i] >= 'A' && c[i] <= 'Z') return 0;
    return 1;
}

/* The tokens of one text into ``spans``; ``*keep`` receives what must stay alive.
 * SPLIT: str.split(); V13A: SacreBLEU's 13a where the text is simple, ``prepare`` (the
 * Python tokenizer) otherwise; CHARS: every non-whitespace character (SacreBLEU ``char``);
 * PREPARED: ``prepare(text)``, which lower-cases itself; T2T: Tensor2Tensor's. The others
 * lower-case first when ``lowercase`` (str.lower, as SacreBLEU and the Python pass do).
 * ``*flags``: USED_PYTHON, UNICODE_SPACE. */
static int tokens_of(PyObject *text, int mode, PyObject *prepare, int lowercase, Spans *spans,
                     PyObject **keep, int *flags) {
    spans->size = 0;
    *keep = NULL;
    *flags = 0;
    if (!PyUnicode_Check(text)) {
        PyErr_Format(PyExc_TypeError, "expected a string, got %.80s", Py_TYPE(text)->tp_name);
        return -1;
    }
    if (mode == PREPARED) {
        *flags |= USED_PYTHON;
            PyObject *result = PyObject_CallOneArg(prepare, text);
        return result ? push_sequence(result, spans, keep) : -1;
    }
    /* str.lower() of ASCII text is A-Z to a-z, which moves no token boundary of str.split(),
     * Perl's split, char or T2T (no letter is a digit, punctuation or symbol): the tokens of
     * the text as it is, read folded. 13a's entities are case-sensitive. */
    int fold_after = 0;
    if (lowercase && !ascii_without_upper(text)) {
        if (PyUnicode_IS_ASCII(text) && mode != V13A && mode != V13A_ASCII_LC) {
            fold_after = 1;
        } else {
            text = PyObject_CallMethod(text, "lower", NULL);
            if (!text) return -1;
            *keep = text;
        }
    }
    const void *data = PyUnicode_DATA(text);
    int kind = PyUnicode_KIND(text);
    Py_ssize_t length = PyUnicode_GET_LENGTH(text), i = 0;
    if (mode == V13A || mode == V13A_ASCII_LC) {
        Py_ssize_t end = length;
        while (end > 0 && Py_UNICODE_ISSPACE(PyUnicode_READ(kind, data, end - 1))) end--;
        int has_entity;
        if (v13a_needs_python(data, kind, length, &has_entity)) {
            *flags |= USED_PYTHON;
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
        int presplit = 0;
        if (v13a_digit_rules_apply(data, kind, end)) {
            PyObject *spaced = v13a_spaced(data, kind, end);
            Py_XDECREF(unescaped);
            if (!spaced) return -1;
            unescaped = spaced;
            data = PyUnicode_DATA(spaced);
            kind = PyUnicode_KIND(spaced);
            end = PyUnicode_GET_LENGTH(spaced);
            presplit = 1;
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
                PyObject *folded = PyUnicode_New(end, kind == 1 ? 0xff : kind == 2 ? 0xffff : 0x10ffff);
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
        if (presplit) return split_on(unicode_space, data, kind, end, spans, flags, 0);
        return v13a_scan(spans, data, kind, 0, end);
    }
    int status = 0;
    if (mode == T2T) {
        if (!unicode_classes) {
            PyErr_SetString(PyExc_RuntimeError, "set_unicode_classes() was not called");
            return -1;
        }
        status = split_on(unicode_space, data, kind, length, spans, flags, 1);
    } else if (mode == CHARS) {
        for (; i < length && status == 0; i++)
            if (!Py_UNICODE_ISSPACE(PyUnicode_READ(kind, data, i)))
                status = push(spans, data, kind, i, 1);
    } else {
        /* SPLIT: str.split(); PERL_SPLIT: multi-bleu.perl, which reads bytes, so only ASCII
         * whitespace separates */
        status = split_on(mode == PERL_SPLIT ? perl_space : unicode_space, data, kind, length,
                          spans, flags, 0);
    }
    if (status == 0 && fold_after) fold_spans(spans);
    return status;
}

typedef struct {
    int order;
    long long count, hyp_len, without, without_hyp, never, longest;
    long long fewest, most, first_without; /* -1: none yet */
    long long ref_sums[4];
    long long *matches, *totals, *short_;
    /* the last segment */
    long long last_hyp_len, last_dropped, *last_matches;
    long long *last_ref_lens; /* the kept references' lengths, last_ref_count of them */
    Py_ssize_t last_ref_count, last_ref_cap;
} Sums;

/* The lengths a segment's references give under each rule of
 * bleu_harness.bleu.corpus.RULES -- closest (the shorter on a tie), closest (the first-listed
 * on a tie), shortest, first -- and the longest, into ``rules[5]``, of the ``refs`` whose
 * ``kept`` is set (NULL: all): how many they are. */
static Py_ssize_t reference_rules(Py_ssize_t hyp_len, const Py_ssize_t *ref_lens,
                                  const char *kept, Py_ssize_t refs, Py_ssize_t rules[5]) {
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
    rules[0] = closest; rules[1] = closest_first; rules[2] = shortest; rules[3] = first;
    rules[4] = longest;
    return count;
}

/* One segment into one set of sums: ``ref_lens`` of its references, of which ``kept``
 * (NULL: all) are counted. */
static int add_segment(Sums *s, Py_ssize_t hyp_len, const Py_ssize_t *ref_lens,
                       const char *kept, Py_ssize_t refs, const long long *matches) {
    Py_ssize_t rules[5];
    Py_ssize_t count = reference_rules(hyp_len, ref_lens, kept, refs, rules);
    s->count++;
    s->hyp_len += hyp_len;
    for (int n = 0; n < s->order; n++) {
        s->matches[n] += matches[n];
        if (hyp_len > n) s->totals[n] += hyp_len - n;
        else s->short_[n] += 1;
    }
    Py_ssize_t dropped = refs - count;
    if (count) {
        for (int rule = 0; rule < 4; rule++) s->ref_sums[rule] += rules[rule];
        if (rules[4] > s->longest) s->longest = rules[4];
    } else {
        s->without++;
        if (hyp_len) s->without_hyp++;
        if (!dropped) s->never++;
        if (s->first_without < 0) s->first_without = hyp_len;
    }
    if (s->fewest < 0 || count < s->fewest) s->fewest = count;
    if (s->most < 0 || count > s->most) s->most = count;
    if (grow((void **)&s->last_ref_lens, &s->last_ref_cap, count + 1, sizeof(long long)) < 0)
        return -1;
    for (Py_ssize_t r = 0, i = 0; r < refs; r++)
        if (!kept || kept[r]) s->last_ref_lens[i++] = ref_lens[r];
    s->last_ref_count = count;
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

/* The table of a hypothesis's distinct tokens (slot -> position + 1 of the token's first use),
 * emptied, at least twice as large as its ``H`` tokens: its mask, or -1 (no memory). */
static Py_ssize_t token_table(Work *w, Py_ssize_t H) {
    Py_ssize_t cap = 16;
    while (cap < 2 * H) cap *= 2;
    if (grow((void **)&w->token_slots, &w->token_cap, cap, sizeof(int32_t)) < 0) return -1;
    memset(w->token_slots, 0, (size_t)cap * sizeof(int32_t));
    return cap - 1;
}

/* The id of hypothesis token ``i``, entered in the table: that of an equal token before it
 * (``ids`` of its first use), or the next new one (``*distinct``, counted). */
static inline int32_t hypothesis_token_id(Work *w, const Spans *hyp, const int32_t *ids,
                                          Py_ssize_t mask, Py_ssize_t i, int32_t *distinct) {
    const Span *t = &hyp->items[i];
    Py_ssize_t slot = (Py_ssize_t)(t->hash & (uint64_t)mask);
    for (;;) {
        int32_t entry = w->token_slots[slot];
        if (entry == 0) {
            w->token_slots[slot] = (int32_t)(i + 1);
            return (*distinct)++;
        }
        if (span_equal(&hyp->items[entry - 1], t)) return ids[entry - 1];
        slot = (slot + 1) & mask;
    }
}

/* The id of the hypothesis token equal to ``t`` (a reference token), or -1: a lookup in the
 * table of the hypothesis's distinct tokens (token_table, hypothesis_token_id). */
static inline int32_t hypothesis_id(const Work *w, const Spans *hyp, const int32_t *ids,
                                    Py_ssize_t mask, const Span *t) {
    Py_ssize_t slot = (Py_ssize_t)(t->hash & (uint64_t)mask);
    for (;;) {
        int32_t entry = w->token_slots[slot];
        if (entry == 0) return -1;
        if (span_equal(&hyp->items[entry - 1], t)) return ids[entry - 1];
        slot = (slot + 1) & mask;
    }
}

/* The token ids of one segment into ``ids``: the hypothesis's (0, 1, ... by first use),
 * then each reference's (the id of the equal hypothesis token, or -1: a token the hypothesis
 * lacks cannot be in a matching n-gram). The clipped matches depend on nothing else, so two
 * tokenizations with equal ids have equal matches. ``ids`` holds H + all reference tokens. */
static int assign_ids(Work *w, const Spans *hyp, const Spans *refs, Py_ssize_t ref_count,
                      int32_t *ids) {
    Py_ssize_t H = hyp->size;
    Py_ssize_t mask = token_table(w, H);
    if (mask < 0) return -1;
    int32_t distinct = 0;
    for (Py_ssize_t i = 0; i < H; i++)
        ids[i] = hypothesis_token_id(w, hyp, ids, mask, i, &distinct);
    Py_ssize_t at = H;
    for (Py_ssize_t r = 0; r < ref_count; r++) {
        for (Py_ssize_t j = 0; j < refs[r].size; j++) {
            ids[at++] = H ? hypothesis_id(w, hyp, ids, mask, &refs[r].items[j]) : -1;
        }
    }
    return 0;
}

/* Group ``to``'s token ids from group ``from``'s, where ``to``'s tokens are ``from``'s, some
 * read with A-Z as a-z (the same tokens of every text; span_equal and the hash read the
 * fold): each of ``from``'s distinct hypothesis tokens is looked up once, and a reference
 * token takes the id of the hypothesis token it equalled; only one that equalled none may
 * equal one folded (when it or some hypothesis token was folded), and is looked up. The ids
 * are the ones assign_ids would give (by first use), with fewer lookups and comparisons. */
static int fold_ids(Work *w, const int32_t *from_ids, const Spans *hyp, const Spans *refs,
                    Py_ssize_t ref_count, int32_t *ids) {
    Py_ssize_t H = hyp->size;
    if (grow((void **)&w->fold_map, &w->fold_map_cap, H + 1, sizeof(int32_t)) < 0) return -1;
    Py_ssize_t mask = token_table(w, H);
    if (mask < 0) return -1;
    int32_t seen = 0, distinct = 0;
    int folded = 0;
    for (Py_ssize_t i = 0; i < H; i++) {
        int32_t d = from_ids[i];
        if (d == seen) { /* the first use of ``from``'s token d */
            seen++;
            folded |= hyp->items[i].fold;
            w->fold_map[d] = hypothesis_token_id(w, hyp, ids, mask, i, &distinct);
        }
        ids[i] = w->fold_map[d];
    }
    Py_ssize_t at = H;
    for (Py_ssize_t r = 0; r < ref_count; r++) {
        for (Py_ssize_t j = 0; j < refs[r].size; j++, at++) {
            const Span *t = &refs[r].items[j];
            int32_t d = from_ids[at];
            ids[at] = d >= 0 ? w->fold_map[d]
                      : H && (folded || t->fold) ? hypothesis_id(w, hyp, ids, mask, t) : -1;
        }
    }
    return 0;
}

/* Several buffers of one capacity, grown together. */
static int grow_all(Py_ssize_t *cap, Py_ssize_t need, void **buffers[], const size_t sizes[],
                    int count) {
    if (need <= *cap) return 0;
    for (int b = 0; b < count; b++) {
        Py_ssize_t c = *cap;
        if (grow(buffers[b], &c, need, sizes[b]) < 0) return -1;
    }
    Py_ssize_t size = *cap ? *cap : 64;
    while (size < need) size *= 2;
    *cap = size;
    return 0;
}

/* The clipped count of the order: the sum over its distinct hypothesis n-grams of the
 * smaller of the hypothesis count and the largest count in one reference. */
static long long clipped(const Work *w, Py_ssize_t grams) {
    long long matched = 0;
    for (Py_ssize_t g = 0; g < grams; g++)
        matched += w->gram_count[g] < w->gram_best[g] ? w->gram_count[g] : w->gram_best[g];
    return matched;
}

/* The reference counts of the order (gram_cur, of the distinct n-grams in ``touched``) into
 * the largest counts; gram_cur back to zero for the next reference. */
static void end_reference(Work *w, Py_ssize_t *touched) {
    for (Py_ssize_t t = 0; t < *touched; t++) {
        int32_t g = w->touched[t];
        if (w->gram_cur[g] > w->gram_best[g]) w->gram_best[g] = w->gram_cur[g];
        w->gram_cur[g] = 0;
    }
    *touched = 0;
}

/* The slot of ``key`` (an (n-1)-gram id and a token id) in the n-gram table of 2^bits slots:
 * where it is, or the empty slot where it would go (pair_ids < 0). */
static inline Py_ssize_t pair_slot(const Work *w, uint64_t key, int bits) {
    Py_ssize_t mask = ((Py_ssize_t)1 << bits) - 1;
    Py_ssize_t slot = (Py_ssize_t)((key * 0x9e3779b97f4a7c15ULL) >> (64 - bits));
    while (w->pair_ids[slot] >= 0 && w->pair_keys[slot] != key) slot = (slot + 1) & mask;
    return slot;
}

/* Clipped matches, orders 1..order, into ``matches``, from the ids of assign_ids (the
 * hypothesis's tokens numbered 0, 1, ... by first use; a reference token that is not in the
 * hypothesis is -1).
 *
 * An n-gram is its (n-1)-gram followed by a token, so with every hypothesis n-gram numbered,
 * order n+1 numbers the pairs (n-gram id, token id) in a small table: no n-gram is hashed or
 * compared token by token. An n-gram can match only where both of its (n-1)-grams do: in
 * the hypothesis, both matched some reference; in a reference, both are hypothesis n-grams.
 * So each order looks only at the positions the previous one left alive (kept as lists), and
 * the high orders cost what their matches cost (mteval's nine orders, long lines). */
static int count_matches(Work *w, const int32_t *hyp_ids, Py_ssize_t H, const int32_t *ref_ids,
                         const Spans *refs, Py_ssize_t ref_count, int order,
                         long long *matches) {
    for (int n = 0; n < order; n++) matches[n] = 0;
    if (H == 0 || ref_count == 0) return 0;
    Py_ssize_t max_ref = 0, total_ref = 0;
    for (Py_ssize_t r = 0; r < ref_count; r++) {
        if (refs[r].size > max_ref) max_ref = refs[r].size;
        total_ref += refs[r].size;
    }
    Py_ssize_t top = order;
    if (top > H) top = H;
    if (top > max_ref) top = max_ref;
    if (top == 0) return 0;
    {
        void **buffers[] = {(void **)&w->gram_count, (void **)&w->gram_best,
                            (void **)&w->gram_cur, (void **)&w->touched,
                            (void **)&w->hyp_gram, (void **)&w->hyp_live};
        const size_t sizes[] = {sizeof(int64_t), sizeof(int64_t), sizeof(int64_t),
                                sizeof(int32_t), sizeof(int32_t), sizeof(int32_t)};
        if (grow_all(&w->gram_cap, H, buffers, sizes, 6) < 0) return -1;
    }
    {
        void **buffers[] = {(void **)&w->ref_tokens, (void **)&w->ref_gram,
                            (void **)&w->ref_live};
        const size_t sizes[] = {sizeof(int32_t), sizeof(int32_t), sizeof(int32_t)};
        if (grow_all(&w->ref_cap, total_ref + ref_count, buffers, sizes, 3) < 0) return -1;
    }
    int32_t *hyp_gram = w->hyp_gram, *hyp_live = w->hyp_live;
    int32_t *ref_tokens = w->ref_tokens, *ref_gram = w->ref_gram, *ref_live = w->ref_live;

    /* Order 1: the ids are the unigrams' numbers. */
    Py_ssize_t grams = 0;
    for (Py_ssize_t i = 0; i < H; i++)
        if (hyp_ids[i] >= grams) grams = hyp_ids[i] + 1;
    memset(w->gram_count, 0, (size_t)grams * sizeof(int64_t));
    memset(w->gram_best, 0, (size_t)grams * sizeof(int64_t));
    memset(w->gram_cur, 0, (size_t)grams * sizeof(int64_t));
    for (Py_ssize_t i = 0; i < H; i++) {
        w->gram_count[hyp_ids[i]]++;
        hyp_gram[i] = hyp_ids[i];
    }
    Py_ssize_t live_refs = 0, at = 0, read = 0, touched = 0;
    for (Py_ssize_t r = 0; r < ref_count; r++) {
        for (Py_ssize_t j = 0; j < refs[r].size; j++, at++) {
            int32_t g = ref_ids[read++];
            ref_tokens[at] = ref_gram[at] = g;
            if (g < 0) continue; /* not a hypothesis token */
            ref_live[live_refs++] = (int32_t)at;
            if (w->gram_cur[g]++ == 0) w->touched[touched++] = g;
        }
        ref_tokens[at] = ref_gram[at] = -1; /* between two references */
        at++;
        end_reference(w, &touched);
    }
    long long matched = clipped(w, grams);
    if (!matched) return 0;
    matches[0] = matched;
    Py_ssize_t live_hyp = 0;
    for (Py_ssize_t i = 0; i < H; i++)
        if (w->gram_best[hyp_gram[i]] > 0) hyp_live[live_hyp++] = (int32_t)i;

    for (Py_ssize_t n = 2; n <= top; n++) {
        /* the table: a power of two at least twice the n-grams it may hold */
        int bits = 4;
        while (((Py_ssize_t)1 << bits) < 2 * live_hyp) bits++;
        Py_ssize_t slots = (Py_ssize_t)1 << bits;
        void **buffers[] = {(void **)&w->pair_keys, (void **)&w->pair_ids};
        const size_t sizes[] = {sizeof(uint64_t), sizeof(int32_t)};
        if (grow_all(&w->pair_cap, slots, buffers, sizes, 2) < 0) return -1;
        memset(w->pair_ids, 0xff, (size_t)slots * sizeof(int32_t));
        /* hypothesis n-grams at the positions where both (n-1)-grams matched */
        grams = 0;
        Py_ssize_t kept = 0;
        for (Py_ssize_t k = 0; k + 1 < live_hyp; k++) {
            int32_t i = hyp_live[k];
            if (hyp_live[k + 1] != i + 1) continue;
            uint64_t key = (uint64_t)(uint32_t)hyp_gram[i] << 32 | (uint32_t)hyp_ids[i + n - 1];
            Py_ssize_t slot = pair_slot(w, key, bits);
            if (w->pair_ids[slot] < 0) {
                w->pair_keys[slot] = key;
                w->pair_ids[slot] = (int32_t)grams;
                w->gram_count[grams] = 0;
                w->gram_best[grams] = 0;
                w->gram_cur[grams] = 0;
                grams++;
            }
            int32_t g = w->pair_ids[slot];
            w->gram_count[g]++;
            hyp_gram[i] = g;
            hyp_live[kept++] = i;
        }
        live_hyp = kept;
        if (!grams) break; /* nothing left that could match */
        /* reference n-grams at the positions where both (n-1)-grams are hypothesis ones;
         * -1 between references keeps an n-gram from reaching into the next */
        Py_ssize_t ref_end = refs[0].size, r = 0;
        kept = 0;
        for (Py_ssize_t k = 0; k + 1 < live_refs; k++) {
            int32_t j = ref_live[k];
            while (j > ref_end) { end_reference(w, &touched); ref_end += refs[++r].size + 1; }
            if (ref_live[k + 1] != j + 1) continue;
            uint64_t key = (uint64_t)(uint32_t)ref_gram[j] << 32 | (uint32_t)ref_tokens[j + n - 1];
            Py_ssize_t slot = pair_slot(w, key, bits);
            int32_t g = w->pair_ids[slot];
            if (g < 0) continue;
            ref_gram[j] = g;
            ref_live[kept++] = j;
            if (w->gram_cur[g]++ == 0) w->touched[touched++] = g;
        }
        end_reference(w, &touched);
        live_refs = kept;
        matched = clipped(w, grams);
        if (!matched) break; /* no longer n-gram can match */
        matches[n - 1] = matched;
        kept = 0;
        for (Py_ssize_t k = 0; k < live_hyp; k++)
            if (w->gram_best[hyp_gram[hyp_live[k]]] > 0) hyp_live[kept++] = hyp_live[k];
        live_hyp = kept;
    }
    return 0;
}

static Py_ssize_t token_count(const Spans *hyp, const Spans *refs, Py_ssize_t ref_count) {
    Py_ssize_t total = hyp->size;
    for (Py_ssize_t r = 0; r < ref_count; r++) total += refs[r].size;
    return total;
}

/* Clipped matches of one segment, orders 1..order, into ``matches``. */
static int segment_matches(Work *w, const Spans *hyp, const Spans *refs, Py_ssize_t ref_count,
                           int order, long long *matches) {
    if (grow((void **)&w->hyp_ids, &w->hyp_ids_cap, token_count(hyp, refs, ref_count) + 1,
             sizeof(int32_t)) < 0)
        return -1;
    if (assign_ids(w, hyp, refs, ref_count, w->hyp_ids) < 0) return -1;
    return count_matches(w, w->hyp_ids, hyp->size, w->hyp_ids + hyp->size, refs, ref_count,
                         order, matches);
}

/* One preprocessing of the pass: its tokenizer, its sums (one per drop variant) and the
 * segment's tokens under it. */
typedef struct {
    int mode, lowercase, order;
    PyObject *prepare;
    Py_ssize_t variants;
    int *drop, any_drop, any_keep;
    Sums *sums;
    Spans hyp, *refs, *kept_refs;
    Py_ssize_t refs_cap, kept_refs_cap;
    Py_ssize_t *ref_lens, ref_lens_cap;
    char *kept;
    Py_ssize_t kept_cap;
    int *flags; /* per text of the segment: the hypothesis, then the references */
    Py_ssize_t flags_cap;
    long long *matches, *kept_matches;
    int32_t *ids; /* the segment's token ids (assign_ids) */
    Py_ssize_t ids_cap;
    int has_ids; /* `ids` hold this segment's tokens', over all references */
    int counted; /* `matches` hold this segment's, over all references */
    int recount; /* a reference left out is not '' under this tokenizer: counted again */
    int share;   /* an earlier group whose tokens give this one's where C made them, or -1 */
    int fold;    /* ... after mteval's tr/[A-Z]/[a-z]/ */
    int source;  /* this segment: the group whose tokens this one's equal in every text, or -1 */
    int fold_source; /* ... equal or equal folded (copied, copy_spans), or -1 */
    Py_ssize_t segment_refs; /* this segment's references, left out ones included */
} Group;

/* Whether group ``b`` may take group ``a``'s tokens of a text that ``a`` tokenized in C: 1
 * where the rules are the same (13a, Hugging Face's 13a and mteval's case-preserving 13a
 * differ only where the Python tokenizer runs), or str.split() and Perl's split (equal where
 * no separator is Unicode-only whitespace); 2 where ``b`` is mteval's ASCII-folded 13a and
 * ``a`` 13a (folding moves no token boundary: no letter is in 13a's punctuation). */
static int shares_tokens(const Group *a, const Group *b) {
    if (a->lowercase != b->lowercase || a->mode == PREPARED || b->mode == PREPARED) return 0;
    if (a->mode == V13A && b->mode == V13A_ASCII_LC) return 2;
    return a->mode == b->mode || (a->mode == SPLIT && b->mode == PERL_SPLIT);
}

static int may_copy(const Group *from, const Group *to, int flags) {
    if (flags & USED_PYTHON) return 0;
    if (from->mode == SPLIT && to->mode == PERL_SPLIT && (flags & UNICODE_SPACE)) return 0;
    return 1;
}

static int copy_spans(Spans *to, const Spans *from, int fold) {
    if (grow((void **)&to->items, &to->cap, from->size, sizeof(Span)) < 0) return -1;
    if (from->size) memcpy(to->items, from->items, (size_t)from->size * sizeof(Span));
    to->size = from->size;
    if (fold) fold_spans(to);
    return 0;
}

static void group_free(Group *g) {
    if (g->sums) {
        for (Py_ssize_t v = 0; v < g->variants; v++) {
            PyMem_Free(g->sums[v].matches); PyMem_Free(g->sums[v].totals);
            PyMem_Free(g->sums[v].short_); PyMem_Free(g->sums[v].last_matches);
            PyMem_Free(g->sums[v].last_ref_lens);
        }
    }
    PyMem_Free(g->sums); PyMem_Free(g->drop); PyMem_Free(g->matches);
    PyMem_Free(g->kept_matches); PyMem_Free(g->hyp.items);
    for (Py_ssize_t r = 0; r < g->refs_cap; r++) PyMem_Free(g->refs[r].items);
    PyMem_Free(g->refs); PyMem_Free(g->kept_refs); PyMem_Free(g->ref_lens);
    PyMem_Free(g->kept); PyMem_Free(g->flags); PyMem_Free(g->ids);
}

static int group_init(Group *g, PyObject *spec) {
    PyObject *drops;
    if (!PyTuple_Check(spec) ||
        !PyArg_ParseTuple(spec, "iOpiO!", &g->mode, &g->prepare, &g->lowercase, &g->order,
                          &PyTuple_Type, &drops)) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_TypeError, "a group is (mode, prepare, lowercase, order, drops)");
        return -1;
    }
    if (g->mode < SPLIT || g->mode > T2T) {
        PyErr_SetString(PyExc_ValueError, "unknown tokenization mode");
        return -1;
    }
    if ((g->mode == V13A || g->mode == PREPARED || g->mode == V13A_ASCII_LC) &&
        !PyCallable_Check(g->prepare)) {
        PyErr_SetString(PyExc_TypeError, "this mode needs a callable tokenizer");
        return -1;
    }
    if (g->order < 0) {
        PyErr_SetString(PyExc_ValueError, "order must not be negative");
        return -1;
    }
    size_t slots = (size_t)(g->order ? g->order : 1); /* order 0: no n-grams (empty weights) */
    g->variants = PyTuple_GET_SIZE(drops);
    g->matches = PyMem_Calloc(slots, sizeof(long long));
    g->kept_matches = PyMem_Calloc(slots, sizeof(long long));
    g->sums = PyMem_Calloc((size_t)(g->variants ? g->variants : 1), sizeof(Sums));
    g->drop = PyMem_Calloc((size_t)(g->variants ? g->variants : 1), sizeof(int));
    if (!g->matches || !g->kept_matches || !g->sums || !g->drop) { PyErr_NoMemory(); return -1; }
    for (Py_ssize_t v = 0; v < g->variants; v++) {
        g->drop[v] = PyObject_IsTrue(PyTuple_GET_ITEM(drops, v));
        if (g->drop[v] < 0) return -1;
        if (g->drop[v]) g->any_drop = 1;
        else g->any_keep = 1;
        Sums *s = &g->sums[v];
        s->order = g->order;
        s->fewest = s->most = s->first_without = -1;
        s->matches = PyMem_Calloc(slots, sizeof(long long));
        s->totals = PyMem_Calloc(slots, sizeof(long long));
        s->short_ = PyMem_Calloc(slots, sizeof(long long));
        s->last_matches = PyMem_Calloc(slots, sizeof(long long));
        if (!s->matches || !s->totals || !s->short_ || !s->last_matches) {
            PyErr_NoMemory();
            return -1;
        }
    }
    return 0;
}

static int group_reserve(Group *g, Py_ssize_t R) {
    if (grow((void **)&g->ref_lens, &g->ref_lens_cap, R + 1, sizeof(Py_ssize_t)) < 0) return -1;
    Py_ssize_t cap = g->kept_cap;
    if (grow((void **)&g->kept, &cap, R + 1, 1) < 0) return -1;
    g->kept_cap = cap;
    if (grow((void **)&g->flags, &g->flags_cap, R + 1, sizeof(int)) < 0) return -1;
    if (R > g->refs_cap) {
        Spans *grown = PyMem_Realloc(g->refs, (size_t)R * sizeof(Spans));
        if (!grown) { PyErr_NoMemory(); return -1; }
        memset(grown + g->refs_cap, 0, (size_t)(R - g->refs_cap) * sizeof(Spans));
        g->refs = grown;
        g->refs_cap = R;
    }
    return 0;
}

/* The sums of one group as the tuple bleu_harness.bleu.native reads. */
static PyObject *group_result(const Group *g) {
    PyObject *result = PyList_New(g->variants);
    if (!result) return NULL;
    for (Py_ssize_t v = 0; v < g->variants; v++) {
        const Sums *s = &g->sums[v];
        PyObject *last = Py_None;
        Py_INCREF(Py_None);
        if (s->count) {
            Py_DECREF(Py_None);
            last = Py_BuildValue("(LNNL)", s->last_hyp_len,
                                 tuple_of(s->last_ref_lens, (int)s->last_ref_count),
                                 tuple_of(s->last_matches, g->order), s->last_dropped);
            if (!last) { Py_DECREF(result); return NULL; }
        }
        PyObject *item = Py_BuildValue(
            "(LLNNNNLLLNNNLN)", s->count, s->hyp_len, tuple_of(s->matches, g->order),
            tuple_of(s->totals, g->order), tuple_of(s->short_, g->order),
            tuple_of(s->ref_sums, 4), s->without, s->without_hyp, s->never,
            optional(s->first_without), optional(s->fewest), optional(s->most), s->longest,
            last);
        if (!item) { Py_DECREF(result); return NULL; }
        PyList_SET_ITEM(result, v, item);
    }
    return result;
}

/* Whether group ``g`` may take the base group's str.split() tokens of a text with these
 * flags (split_classified): 0 no, 1 as they are, 2 with A-Z read as a-z (str.lower on ASCII
 * text, mteval's tr/[A-Z]/[a-z]/). */
static int derived_tokens(const Group *g, int flags) {
    int fold = g->lowercase || g->mode == V13A_ASCII_LC;
    if (g->lowercase && (flags & NON_ASCII)) return 0;
    switch (g->mode) {
    case SPLIT: break;
    case PERL_SPLIT: if (flags & UNICODE_SPACE) return 0; break;
    case V13A: case V13A_ASCII_LC: if (flags & (V13A_UNSAFE | V13A_INSIDE)) return 0; break;
    case T2T: if (flags & PS_INSIDE) return 0; break;
    default: return 0;
    }
    return fold && (flags & HAS_UPPER) ? 2 : 1;
}

static int root_source(const Group *groups, int gi) {
    while (groups[gi].source >= 0) gi = groups[gi].source;
    return gi;
}

/* Whether group ``g`` may build its tokens of a text from the base group's str.split() tokens
 * of it, token by token (tokens_by_token): T2T always, 13a where none of its rules reaches
 * beyond one token (no V13A_UNSAFE); lower-casing only of ASCII text (folding). */
static int by_token(const Group *g, int flags) {
    if (g->lowercase && (flags & NON_ASCII)) return 0;
    if (g->mode == T2T) return 1;
    return (g->mode == V13A || g->mode == V13A_ASCII_LC) && !(flags & V13A_UNSAFE);
}

/* Group ``g``'s tokens of ``text`` from its str.split() tokens ``words`` (by_token): each word
 * through T2T's passes (t2t_token) or 13a's punctuation rule (v13a_scan; v13a_entity_token
 * where it has '&'), taken as it is where they leave it whole; then folded where the group
 * lower-cases or is mteval's. */
static int tokens_by_token(const Group *g, const Spans *words, PyObject *text, Spans *spans) {
    const void *data = PyUnicode_DATA(text);
    int kind = PyUnicode_KIND(text);
    Py_ssize_t length = PyUnicode_GET_LENGTH(text);
    spans->size = 0;
    for (Py_ssize_t w = 0; w < words->size; w++) {
        const Span *word = &words->items[w];
        Py_ssize_t start = ((const char *)word->data - (const char *)data) / kind;
        int status;
        if (word->marks & MARK_KNOWN &&
            !(word->marks & (g->mode == T2T ? MARK_PS : MARK_PUNCT))) {
            status = push_span(spans, word); /* nothing in it to cut */
        } else if (g->mode == T2T) {
            status = t2t_token(spans, data, kind, start, word->len, start > 0,
                               start + word->len < length, word);
        } else if (word->marks & MARK_AMPERSAND) {
            status = v13a_entity_token(spans, data, kind, start, word->len, g->lowercase);
        } else {
            int punctuation = 0;
            for (Py_ssize_t k = 0; k < word->len && word->len > 1 && !punctuation; k++)
                punctuation = v13a_punctuation(PyUnicode_READ(kind, data, start + k));
            status = punctuation ? v13a_scan(spans, data, kind, start, start + word->len)
                                 : push_span(spans, word);
        }
        if (status < 0) return -1;
    }
    if (g->lowercase || g->mode == V13A_ASCII_LC) fold_spans(spans);
    return 0;
}

/* Phase one of a segment under group ``gi``: its tokens -- the base group's str.split()
 * tokens where this tokenization gives the same (derived_tokens), an earlier group's where
 * the rules agree (shares_tokens), built from the base's token by token (by_token), its own
 * tokenization otherwise. */
static int group_tokens(Group *groups, int gi, int base, PyObject *hyp_text,
                        PyObject **ref_items, Py_ssize_t R, PyObject **keeps,
                        Py_ssize_t *kept_objects) {
    Group *g = &groups[gi];
    g->counted = g->has_ids = 0;
    if (group_reserve(g, R) < 0) return -1;
    Group *from = g->share >= 0 ? &groups[g->share] : NULL;
    Group *b = base >= 0 && base != gi ? &groups[base] : NULL;
    int source = -2, fold_source = -2; /* -2: none yet; -1: not one group for every text */
    for (Py_ssize_t t = 0; t <= R; t++) {
        PyObject *text = t ? ref_items[t - 1] : hyp_text;
        Spans *spans = t ? &g->refs[t - 1] : &g->hyp;
        int derived = b ? derived_tokens(g, b->flags[t]) : 0;
        int copied_from = -1, copied_folded_from = -1;
        if (gi == base) {
            if (split_classified(text, spans, &g->flags[t]) < 0) return -1;
        } else if (derived) {
            if (copy_spans(spans, t ? &b->refs[t - 1] : &b->hyp, derived == 2) < 0) return -1;
            g->flags[t] = b->flags[t] & ~USED_PYTHON;
            if (derived == 1) copied_from = base;
            copied_folded_from = base;
        } else if (from && may_copy(from, g, from->flags[t])) {
            if (copy_spans(spans, t ? &from->refs[t - 1] : &from->hyp, g->fold) < 0) return -1;
            g->flags[t] = from->flags[t];
            if (!g->fold) copied_from = g->share;
            copied_folded_from = g->share;
        } else if (b && by_token(g, b->flags[t])) {
            if (tokens_by_token(g, t ? &b->refs[t - 1] : &b->hyp, text, spans) < 0) return -1;
            g->flags[t] = b->flags[t] & ~USED_PYTHON;
        } else {
            PyObject *keep;
            if (tokens_of(text, g->mode, g->prepare, g->lowercase, spans, &keep,
                          &g->flags[t]) < 0) {
                if (keep) keeps[(*kept_objects)++] = keep;
                return -1;
            }
            if (keep) keeps[(*kept_objects)++] = keep;
        }
        if (copied_from >= 0) copied_from = root_source(groups, copied_from);
        source = source == -2 || source == copied_from ? copied_from : -1;
        fold_source = fold_source == -2 || fold_source == copied_folded_from
                      ? copied_folded_from : -1;
        if (t) {
            g->ref_lens[t - 1] = spans->size;
            g->kept[t - 1] = PyUnicode_GET_LENGTH(text) != 0;
        }
    }
    g->source = source >= 0 ? source : -1;
    g->fold_source = fold_source >= 0 ? fold_source : -1;
    return 0;
}

/* Phase two of a segment under group ``gi`` (groups in the order they are tokenized): its
 * token ids -- a copy of the group's whose tokens this one's equal, derived from the ids of
 * the group whose tokens this one's equal folded (fold_ids), or assigned (assign_ids). */
static int group_ids(Work *w, Group *groups, int gi, Py_ssize_t R) {
    Group *g = &groups[gi];
    /* A reference that is '' has no tokens under most tokenizers, so leaving it out changes
     * only the reference lengths; under one that makes a token of it the kept references
     * are counted again on their own (group_counts). */
    g->recount = 0;
    for (Py_ssize_t r = 0; g->any_drop && r < R; r++)
        if (!g->kept[r] && g->refs[r].size) g->recount = 1;
    if (!g->any_keep && g->recount) return 0;
    Py_ssize_t tokens = token_count(&g->hyp, g->refs, R);
    if (grow((void **)&g->ids, &g->ids_cap, tokens + 1, sizeof(int32_t)) < 0) return -1;
    const Group *same = g->source >= 0 && groups[g->source].has_ids ? &groups[g->source] : NULL;
    const Group *folded = g->fold_source >= 0 && groups[g->fold_source].has_ids
                          ? &groups[g->fold_source] : NULL;
    if (same) {
        memcpy(g->ids, same->ids, (size_t)tokens * sizeof(int32_t));
    } else if (folded) {
        if (fold_ids(w, folded->ids, &g->hyp, g->refs, R, g->ids) < 0) return -1;
    } else if (assign_ids(w, &g->hyp, g->refs, R, g->ids) < 0) {
        return -1;
    }
    g->has_ids = 1;
    return 0;
}

/* Phase three of a segment under group ``gi`` (groups in order of falling order): its clipped
 * matches -- taken from an earlier group whose token ids are the same and counted to at
 * least this order -- into its sums. */
static int group_counts(Work *w, Group *groups, int gi, Py_ssize_t R) {
    Group *g = &groups[gi];
    g->segment_refs = R;
    if (g->has_ids) {
        Py_ssize_t tokens = token_count(&g->hyp, g->refs, R);
        int found = 0;
        for (int e = 0; e < gi && !found; e++) {
            Group *earlier = &groups[e];
            if (!earlier->counted || earlier->order < g->order ||
                earlier->hyp.size != g->hyp.size ||
                memcmp(earlier->ref_lens, g->ref_lens, (size_t)R * sizeof(Py_ssize_t)) != 0 ||
                memcmp(earlier->ids, g->ids, (size_t)tokens * sizeof(int32_t)) != 0)
                continue;
            memcpy(g->matches, earlier->matches, (size_t)g->order * sizeof(long long));
            found = 1;
        }
        if (!found && count_matches(w, g->ids, g->hyp.size, g->ids + g->hyp.size, g->refs, R,
                                    g->order, g->matches) < 0)
            return -1;
        g->counted = 1;
    }
    if (g->recount) {
        if (grow((void **)&g->kept_refs, &g->kept_refs_cap, R, sizeof(Spans)) < 0) return -1;
        Py_ssize_t k = 0;
        for (Py_ssize_t r = 0; r < R; r++)
            if (g->kept[r]) g->kept_refs[k++] = g->refs[r];
        if (segment_matches(w, &g->hyp, g->kept_refs, k, g->order, g->kept_matches) < 0)
            return -1;
    }
    for (Py_ssize_t v = 0; v < g->variants; v++)
        if (add_segment(&g->sums[v], g->hyp.size, g->ref_lens, g->drop[v] ? g->kept : NULL, R,
                        g->drop[v] && g->recount ? g->kept_matches : g->matches) < 0)
            return -1;
    return 0;
}

/* The groups of one pass, in the orders they are tokenized and counted, and what the pass
 * keeps between segments. */
typedef struct {
    Group *groups;
    Py_ssize_t group_count;
    int *tokenize_order;
    int base; /* the group of str.split() tokens the others may take theirs from, or -1 */
    Work work;
    PyObject **keeps;
    Py_ssize_t keeps_cap;
} Pass;

static void pass_free(Pass *p) {
    for (Py_ssize_t gi = 0; p->groups && gi < p->group_count; gi++) group_free(&p->groups[gi]);
    PyMem_Free(p->groups);
    PyMem_Free(p->keeps);
    PyMem_Free(p->tokenize_order);
    work_free(&p->work);
}

/* The groups of ``specs`` (a tuple of ``(mode, prepare, lowercase, order, drops)``): 0, or -1
 * with an exception set (pass_free frees what was made). */
static int pass_init(Pass *p, PyObject *specs) {
    memset(p, 0, sizeof(*p));
    p->base = -1;
    Py_ssize_t group_count = PyTuple_GET_SIZE(specs);
    p->groups = PyMem_Calloc((size_t)(group_count ? group_count : 1), sizeof(Group));
    p->tokenize_order = PyMem_Calloc((size_t)(group_count ? group_count : 1), sizeof(int));
    if (!p->groups || !p->tokenize_order) { PyErr_NoMemory(); return -1; }
    Group *groups = p->groups;
    /* The base: str.split() of the text as it is, when some group of several asks for it; the
     * others are tokenized after it (it first), and each may share an earlier one's tokens. */
    for (Py_ssize_t gi = 0; gi < group_count; gi++) {
        groups[gi].share = -1;
        p->group_count = gi + 1;
        if (group_init(&groups[gi], PyTuple_GET_ITEM(specs, gi)) < 0) return -1;
        if (p->base < 0 && group_count > 1 && groups[gi].mode == SPLIT && !groups[gi].lowercase)
            p->base = (int)gi;
    }
    /* Then the groups that may lend their tokens (shares_tokens) before those that take them:
     * str.split() before Perl's split, 13a before mteval's folded 13a. */
    Py_ssize_t placed = 0;
    if (p->base >= 0) p->tokenize_order[placed++] = p->base;
    for (int lender = 1; lender >= 0; lender--)
        for (Py_ssize_t gi = 0; gi < group_count; gi++) {
            int mode = groups[gi].mode;
            if (gi != p->base && (mode != PERL_SPLIT && mode != V13A_ASCII_LC) == lender)
                p->tokenize_order[placed++] = (int)gi;
        }
    for (Py_ssize_t k = 0; k < group_count; k++) {
        Group *g = &groups[p->tokenize_order[k]];
        for (Py_ssize_t e = 0; e < k && g->share < 0; e++) {
            int kind = shares_tokens(&groups[p->tokenize_order[e]], g);
            if (kind) {
                g->share = p->tokenize_order[e];
                g->fold = kind == 2;
            }
        }
    }
    return 0;
}

/* One segment through every group of the pass, into their sums: 0, or -1 with an exception
 * set. */
static int pass_segment(Pass *p, PyObject *hyp_text, PyObject *ref_texts) {
    PyObject *ref_seq = PySequence_Fast(ref_texts, "references must be sequences");
    if (!ref_seq) return -1;
    Py_ssize_t R = PySequence_Fast_GET_SIZE(ref_seq);
    PyObject **ref_items = PySequence_Fast_ITEMS(ref_seq);
    Py_ssize_t group_count = p->group_count, kept_objects = 0;
    int failed = grow((void **)&p->keeps, &p->keeps_cap,
                      (R + 1) * (group_count ? group_count : 1), sizeof(PyObject *)) < 0;
    for (Py_ssize_t k = 0; !failed && k < group_count; k++)
        if (group_tokens(p->groups, p->tokenize_order[k], p->base, hyp_text, ref_items, R,
                         p->keeps, &kept_objects) < 0)
            failed = 1;
    for (Py_ssize_t k = 0; !failed && k < group_count; k++)
        if (group_ids(&p->work, p->groups, p->tokenize_order[k], R) < 0) failed = 1;
    for (int gi = 0; !failed && gi < group_count; gi++)
        if (group_counts(&p->work, p->groups, gi, R) < 0) failed = 1;
    for (Py_ssize_t k = 0; k < kept_objects; k++) Py_DECREF(p->keeps[k]);
    Py_DECREF(ref_seq);
    return failed ? -1 : 0;
}

/* Every segment of the two iterables, in step, through the pass; ``after(p, context)`` after
 * each one (NULL: nothing). 0, or -1 with an exception set. */
static int pass_run(Pass *p, PyObject *hypotheses, PyObject *references,
                    int (*after)(Pass *, void *), void *context) {
    int status = -1;
    PyObject *hyp_iter = PyObject_GetIter(hypotheses), *ref_iter = NULL;
    if (!hyp_iter) return -1;
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
        int failed = pass_segment(p, hyp_text, ref_texts) < 0;
        Py_DECREF(ref_texts);
        Py_DECREF(hyp_text);
        if (failed || (after && after(p, context) < 0)) goto done;
    }
    status = 0;
done:
    Py_XDECREF(hyp_iter);
    Py_XDECREF(ref_iter);
    return status;
}

/* count(hypotheses, references, groups): one pass over the segments for every group
 * ``(mode, prepare, lowercase, order, drops)``; per group, a list of sums per drop. */
static PyObject *native_count(PyObject *self, PyObject *args) {
    PyObject *hypotheses, *references, *specs, *result = NULL;
    if (!PyArg_ParseTuple(args, "OOO!", &hypotheses, &references, &PyTuple_Type, &specs))
        return NULL;
    Pass pass;
    if (pass_init(&pass, specs) < 0 || pass_run(&pass, hypotheses, references, NULL, NULL) < 0)
        goto done;
    result = PyList_New(pass.group_count);
    if (!result) goto done;
    for (Py_ssize_t gi = 0; gi < pass.group_count; gi++) {
        PyObject *sums = group_result(&pass.groups[gi]);
        if (!sums) { Py_CLEAR(result); goto done; }
        PyList_SET_ITEM(result, gi, sums);
    }
done:
    pass_free(&pass);
    return result;
}

/* The rows segment_rows writes: one segment's statistics as ROW_MATCHES + order integers. */
typedef struct {
    long long *items;
    Py_ssize_t size, cap;
} Rows;

/* After a segment of segment_rows: its row under the one group's first variant. */
static int append_row(Pass *p, void *context) {
    Rows *rows = context;
    const Group *g = &p->groups[0];
    int order = g->order;
    if (grow((void **)&rows->items, &rows->cap, rows->size + ROW_MATCHES + order,
             sizeof(long long)) < 0)
        return -1;
    long long *row = rows->items + rows->size;
    int drop = g->drop[0];
    Py_ssize_t R = g->segment_refs, rules[5];
    Py_ssize_t count = reference_rules(g->hyp.size, g->ref_lens, drop ? g->kept : NULL, R,
                                       rules);
    row[ROW_HYP_LEN] = g->hyp.size;
    row[ROW_REFERENCES] = count;
    for (int rule = 0; rule < 5; rule++) row[ROW_CLOSEST_SHORTER + rule] = count ? rules[rule] : 0;
    row[ROW_DROPPED] = R - count;
    memcpy(row + ROW_MATCHES, drop && g->recount ? g->kept_matches : g->matches,
           (size_t)order * sizeof(long long));
    rows->size += ROW_MATCHES + order;
    return 0;
}

/* segment_rows(hypotheses, references, groups): each segment's statistics under the first
 * group ``(mode, prepare, lowercase, order, (drop,))`` (the others: a base it may take its
 * tokens from), as bytes of native int64: per segment ROW_MATCHES + order of them
 * (_sentence.h), in order. */
static PyObject *native_segment_rows(PyObject *self, PyObject *args) {
    PyObject *hypotheses, *references, *specs, *result = NULL;
    if (!PyArg_ParseTuple(args, "OOO!", &hypotheses, &references, &PyTuple_Type, &specs))
        return NULL;
    Pass pass;
    Rows rows = {0};
    if (PyTuple_GET_SIZE(specs) < 1) {
        PyErr_SetString(PyExc_ValueError, "segment rows need a group");
        return NULL;
    }
    if (pass_init(&pass, specs) < 0) goto done;
    if (pass.groups[0].variants != 1) {
        PyErr_SetString(PyExc_ValueError, "segment rows are of one drop variant");
        goto done;
    }
    if (pass_run(&pass, hypotheses, references, append_row, &rows) < 0) goto done;
    result = PyBytes_FromStringAndSize((const char *)rows.items,
                                       rows.size * (Py_ssize_t)sizeof(long long));
done:
    pass_free(&pass);
    PyMem_Free(rows.items);
    return result;
}

/* Every token of ``T`` texts numbered by first use across them all (equal tokens, equal
 * numbers) into ``ids`` (the texts' tokens one after another); the number of distinct tokens
 * into ``*distinct``. */
static int numbered_across(Work *w, const Spans *texts, Py_ssize_t T, int32_t *ids,
                           int32_t *distinct) {
    Py_ssize_t total = token_count(&texts[0], texts + 1, T - 1);
    const Span **first = PyMem_Malloc((size_t)(total + 1) * sizeof(Span *));
    if (!first) { PyErr_NoMemory(); return -1; }
    Py_ssize_t mask = token_table(w, total);
    if (mask < 0) { PyMem_Free(first); return -1; }
    *distinct = 0;
    Py_ssize_t at = 0;
    for (Py_ssize_t k = 0; k < T; k++) {
        for (Py_ssize_t i = 0; i < texts[k].size; i++, at++) {
            const Span *t = &texts[k].items[i];
            Py_ssize_t slot = (Py_ssize_t)(t->hash & (uint64_t)mask);
            for (;;) {
                int32_t entry = w->token_slots[slot];
                if (entry == 0) {
                    w->token_slots[slot] = *distinct + 1;
                    first[*distinct] = t;
                    ids[at] = (*distinct)++;
                    break;
                }
                if (span_equal(first[entry - 1], t)) { ids[at] = entry - 1; break; }
                slot = (slot + 1) & mask;
            }
        }
    }
    PyMem_Free(first);
    return 0;
}

/* pairwise_rows(texts, candidates, evidence, groups, plan=None): the row (segment_rows') of
 * every candidate -- the first ``candidates`` texts -- against every evidence text -- the
 * texts from index ``evidence`` on (0: the candidates themselves) -- as its one reference;
 * with a plan, their scores instead (sentence_scores' answer), each candidate's rows scored
 * as soon as they are counted, so no more than one candidate's rows are held.
 * Each text is tokenized once, under the first group (the others: a base it may take its
 * tokens from), and numbered once across all of them; a pair renumbers the reference's
 * tokens by the candidate's and counts. Where the group leaves out empty references, an
 * evidence text that is '' is one left out. Rows in order: candidate by candidate. */
static PyObject *native_pairwise_rows(PyObject *self, PyObject *args) {
    PyObject *texts, *specs, *plan = Py_None, *result = NULL, *seq = NULL;
    PyObject *scores = NULL, *left = NULL;
    Py_ssize_t candidates, first_evidence;
    if (!PyArg_ParseTuple(args, "OnnO!|O", &texts, &candidates, &first_evidence, &PyTuple_Type,
                          &specs, &plan))
        return NULL;
    if (plan != Py_None && !PyTuple_Check(plan)) {
        PyErr_SetString(PyExc_TypeError, "a plan is a tuple (bleu_harness.bleu.kernel.plan)");
        return NULL;
    }
    if (PyTuple_GET_SIZE(specs) < 1) {
        PyErr_SetString(PyExc_ValueError, "pairwise rows need a group");
        return NULL;
    }
    Pass pass;
    Rows rows = {0};
    int32_t *ids = NULL, *local = NULL, *hyp_ids = NULL, *ref_ids = NULL;
    Py_ssize_t kept_objects = 0, *offsets = NULL;
    if (pass_init(&pass, specs) < 0) goto done;
    seq = PySequence_Fast(texts, "texts must be a sequence");
    if (!seq) goto done;
    Py_ssize_t T = PySequence_Fast_GET_SIZE(seq);
    PyObject **items = PySequence_Fast_ITEMS(seq);
    for (Py_ssize_t k = 0; k < T; k++)
        if (!PyUnicode_Check(items[k])) {
            PyErr_SetString(PyExc_TypeError, "every text must be a str");
            goto done;
        }
    if (candidates < 0 || candidates > T || first_evidence < 0 || first_evidence > T) {
        PyErr_SetString(PyExc_ValueError, "candidates or evidence beyond the texts");
        goto done;
    }
    Py_ssize_t evidence = T - first_evidence;
    if (plan != Py_None) {
        scores = PyList_New(candidates * evidence);
        left = PyList_New(0);
        if (!scores || !left) goto done;
    }
    if (T == 0) {
        result = plan == Py_None ? PyBytes_FromStringAndSize("", 0)
                                 : PyTuple_Pack(2, scores, left);
        goto done;
    }
    Group *g = &pass.groups[0];
    int order = g->order, drop = g->drop[0];
    if (grow((void **)&pass.keeps, &pass.keeps_cap, (T + 1) * pass.group_count,
             sizeof(PyObject *)) < 0)
        goto done;
    for (Py_ssize_t k = 0; k < pass.group_count; k++)
        if (group_tokens(pass.groups, pass.tokenize_order[k], pass.base, items[0], items, T,
                         pass.keeps, &kept_objects) < 0)
            goto done;
    Py_ssize_t total = token_count(&g->refs[0], g->refs + 1, T - 1);
    int32_t distinct;
    ids = PyMem_Malloc((size_t)(total + 1) * sizeof(int32_t));
    offsets = PyMem_Malloc((size_t)(T + 1) * sizeof(Py_ssize_t));
    if (!ids || !offsets) { PyErr_NoMemory(); goto done; }
    offsets[0] = 0;
    for (Py_ssize_t k = 0; k < T; k++) offsets[k + 1] = offsets[k] + g->refs[k].size;
    if (numbered_across(&pass.work, g->refs, T, ids, &distinct) < 0) goto done;
    local = PyMem_Malloc((size_t)(distinct + 1) * sizeof(int32_t));
    hyp_ids = PyMem_Malloc((size_t)(total + 1) * sizeof(int32_t));
    ref_ids = PyMem_Malloc((size_t)(total + 1) * sizeof(int32_t));
    if (!local || !hyp_ids || !ref_ids) { PyErr_NoMemory(); goto done; }
    for (int32_t d = 0; d < distinct; d++) local[d] = -1;
    Py_ssize_t width = ROW_MATCHES + order;
    if (grow((void **)&rows.items, &rows.cap,
             (plan == Py_None ? candidates : 1) * evidence * width + 1, sizeof(long long)) < 0)
        goto done;
    for (Py_ssize_t i = 0; i < candidates; i++) {
        if (PyErr_CheckSignals() < 0) goto done;
        const int32_t *text = ids + offsets[i];
        Py_ssize_t H = g->refs[i].size;
        int32_t next = 0;
        for (Py_ssize_t p = 0; p < H; p++) {
            if (local[text[p]] < 0) local[text[p]] = next++;
            hyp_ids[p] = local[text[p]];
        }
        for (Py_ssize_t j = first_evidence; j < T; j++) {
            long long *row = rows.items + rows.size;
            const Spans *ref = &g->refs[j];
            int left_out = drop && PyUnicode_GET_LENGTH(items[j]) == 0;
            row[ROW_HYP_LEN] = H;
            row[ROW_REFERENCES] = !left_out;
            for (int rule = 0; rule < 5; rule++)
                row[ROW_CLOSEST_SHORTER + rule] = left_out ? 0 : ref->size;
            row[ROW_DROPPED] = left_out;
            if (left_out) {
                memset(row + ROW_MATCHES, 0, (size_t)order * sizeof(long long));
            } else {
                const int32_t *other = ids + offsets[j];
                for (Py_ssize_t q = 0; q < ref->size; q++) ref_ids[q] = local[other[q]];
                if (count_matches(&pass.work, hyp_ids, H, ref_ids, ref, 1, order,
                                  row + ROW_MATCHES) < 0)
                    goto done;
            }
            rows.size += width;
        }
        for (Py_ssize_t p = 0; p < H; p++) local[text[p]] = -1;
        if (plan != Py_None) { /* this candidate's rows, scored and let go */
            if (score_rows_into(plan, rows.items, evidence, order, scores, i * evidence,
                                left) < 0)
                goto done;
            rows.size = 0;
        }
    }
    result = plan == Py_None ? PyBytes_FromStringAndSize((const char *)rows.items,
                                                         rows.size * (Py_ssize_t)sizeof(long long))
                             : PyTuple_Pack(2, scores, left);
done:
    for (Py_ssize_t k = 0; k < kept_objects; k++) Py_DECREF(pass.keeps[k]);
    Py_XDECREF(scores);
    Py_XDECREF(left);
    Py_XDECREF(seq);
    pass_free(&pass);
    PyMem_Free(rows.items);
    PyMem_Free(ids);
    PyMem_Free(offsets);
    PyMem_Free(local);
    PyMem_Free(hyp_ids);
    PyMem_Free(ref_ids);
    return result;
}

/* line_starts(block, newlines_before, every): how many b'\n' ``block`` holds, and the offsets
 * in it of the lines whose number (counted from 0 over the whole file, ``newlines_before``
 * lines ended before the block) is a multiple of ``every``: the byte after such a newline
 * (bleu_harness.line_ranges finds where its ranges begin with it, at memchr's speed). */
static PyObject *native_line_starts(PyObject *self, PyObject *args) {
    Py_buffer block;
    long long before, every;
    if (!PyArg_ParseTuple(args, "y*LL", &block, &before, &every)) return NULL;
    PyObject *starts = NULL, *result = NULL;
    if (every < 1 || before < 0) {
        PyErr_SetString(PyExc_ValueError, "every must be at least 1, newlines_before at least 0");
        goto done;
    }
    starts = PyList_New(0);
    if (!starts) goto done;
    const char *data = block.buf, *at = data, *end = data + block.len;
    long long lines = before;
    while (at < end && (at = memchr(at, '\n', (size_t)(end - at))) != NULL) {
        lines++;
        at++;
        if (lines % every == 0) {
            PyObject *offset = PyLong_FromSsize_t(at - data);
            if (!offset || PyList_Append(starts, offset) < 0) { Py_XDECREF(offset); goto done; }
            Py_DECREF(offset);
        }
    }
    result = Py_BuildValue("(LO)", lines - before, starts);
done:
    Py_XDECREF(starts);
    PyBuffer_Release(&block);
    return result;
}

/* set_unicode_classes(table): one byte per code point (1: P*, 2: S*) for T2T. */
static PyObject *native_set_unicode_classes(PyObject *self, PyObject *table) {
    if (!PyBytes_Check(table)) {
        PyErr_SetString(PyExc_TypeError, "the class table must be bytes");
        return NULL;
    }
    Py_INCREF(table);
    Py_XSETREF(unicode_classes_owner, table);
    unicode_classes = (const unsigned char *)PyBytes_AS_STRING(table);
    unicode_classes_len = PyBytes_GET_SIZE(table);
    for (int c = 0; c < 256; c++)
        char_traits[c] = (unsigned short)((char_traits[c] & ~T_PS) | (unicode_class(c) ? T_PS : 0));
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"count", native_count, METH_VARARGS,
     "count(hypotheses, references, groups) -> per group, a list of sums per drop"},
    {"segment_rows", native_segment_rows, METH_VARARGS,
     "segment_rows(hypotheses, references, group) -> each segment's row, as int64 bytes"},
    {"line_starts", native_line_starts, METH_VARARGS,
     "line_starts(block, newlines_before, every) -> (newlines, offsets of every every-th line)"},
    {"pairwise_rows", native_pairwise_rows, METH_VARARGS,
     "pairwise_rows(texts, candidates, evidence, groups, plan=None) -> each candidate's row "
     "against each evidence text, or with a plan their scores"},
    {"sentence_scores", native_sentence_scores, METH_VARARGS,
     "sentence_scores(rows, order, plan) -> (scores, the rows left to Python)"},
    {"set_unicode_classes", native_set_unicode_classes, METH_O,
     "set_unicode_classes(table): T2T's character classes, one byte per code point"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_native", "The statistics pass in C (bleu_harness.bleu.native).", -1,
    methods,
};

PyMODINIT_FUNC PyInit__native(void) {
    init_v13a_punctuation();
    return PyModule_Create(&module);
}
