"""A convention's options, declared: each :class:`Option` has its name in the tool's own
vocabulary, its default, its aliases and a check; :func:`resolve_options` turns what a user
gives into the complete, checked option mapping, with one error line per bad value.

A check is ``check(convention, option, value) -> value``: it returns the value to use (a
weight list as a tuple, NLTK's ``smoothing=3`` as ``"method3"``) or raises ``ValueError``
naming the convention, the option and the value.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

Check = Callable[[str, str, Any], Any]

#: The largest n-gram order the engine accepts: every library's default is 4 (mteval prints
#: 9); an order in the millions is a typo that would only exhaust the memory.
MAX_ORDER = 100


@dataclass(frozen=True)
class Option:
    """One option of a convention: ``default`` where the user gives none, ``aliases`` the
    other spellings the tool's users write (MATLAB's ``NgramWeights``, mteval's ``-c``)."""

    name: str
    default: Any
    check: Check
    aliases: tuple[str, ...] = ()


class FrozenOptions(dict):
    """Resolved options that no longer change, hashable by their items: what is derived
    from them (a convention's knob settings, :func:`bleu_harness.bleu.knobs.remembered`) is
    worked out once for a whole batch of scores, not once per score. A ``dict`` (reading
    it costs what reading a dict costs) that refuses to be changed."""

    __slots__ = ("_hash",)

    def __init__(self, options: Mapping[str, Any]) -> None:
        super().__init__(options)
        self._hash = hash(repr(sorted(self.items())))

    def __hash__(self) -> int:  # type: ignore[override]
        return self._hash

    def _refuse(self, *args: Any, **kwargs: Any) -> None:
        raise TypeError("FrozenOptions cannot be changed (copy it with dict(options))")

    __setitem__ = __delitem__ = update = pop = popitem = clear = setdefault = _refuse  # type: ignore[assignment]
    __ior__ = _refuse  # type: ignore[assignment]


def option_names(options: Sequence[Option]) -> tuple[str, ...]:
    """Every name a user may give: the options, then their aliases."""
    return tuple(o.name for o in options) + tuple(a for o in options for a in o.aliases)


def resolve_options(convention: str, options: Sequence[Option], given: Mapping[str, Any],
                    defaults: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """``given`` (aliases turned into names) over the defaults (``defaults`` where they depend
    on the level or the release, else each option's own), every value checked."""
    aliases = {alias: o.name for o in options for alias in o.aliases}
    given = {aliases.get(key, key): value for key, value in given.items()}
    merged = merge_options(convention, given,
                           defaults if defaults is not None else {o.name: o.default
                                                                  for o in options})
    for option in options:
        merged[option.name] = option.check(convention, option.name, merged[option.name])
    return merged


def merge_options(
    convention: str, given: Mapping[str, Any], defaults: Mapping[str, Any]
) -> dict[str, Any]:
    """``defaults`` updated with ``given``; an unknown key is a ``ValueError`` naming it."""
    unknown = sorted(set(given) - set(defaults))
    if unknown:
        known = ", ".join(sorted(defaults))
        raise ValueError(
            f"unknown option {unknown[0]!r} for convention {convention!r} (known: {known})"
        )
    merged = dict(defaults)
    merged.update(given)
    return merged


# --- checks ----------------------------------------------------------------------------------

def number(convention: str, key: str, value: Any) -> Any:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(f"{convention}: option {key!r} must be a number, got {value!r}")
    return value


def boolean(convention: str, key: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise ValueError(f"{convention}: option {key!r} must be true or false, got {value!r}")
    return value


def integer(convention: str, key: str, value: Any, minimum: int = 1) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise ValueError(
            f"{convention}: option {key!r} must be an integer >= {minimum}, got {value!r}")
    return value


def order(minimum: int = 1) -> Check:
    """An n-gram order: an integer from ``minimum`` to :data:`MAX_ORDER`."""
    def check(convention: str, key: str, value: Any) -> int:
        integer(convention, key, value, minimum)
        if value > MAX_ORDER:
            raise ValueError(f"{convention}: option {key!r} must be at most {MAX_ORDER}, "
                             f"got {value!r}")
        return value
    return check


def choice(choices: Iterable[Any], any_tokenizer: bool = False) -> Check:
    """One of ``choices``; with ``any_tokenizer`` also the user's own callable
    ``str -> list[str]``."""
    allowed = tuple(choices)

    def check(convention: str, key: str, value: Any) -> Any:
        if any_tokenizer and callable(value):
            return value
        require_choice(convention, key, value, allowed)
        return value
    return check


def require_choice(convention: str, key: str, value: Any, choices: Iterable[Any]) -> None:
    choices = tuple(choices)
    if value not in choices:
        raise ValueError(
            f"{convention}: option {key!r} must be one of {', '.join(map(str, choices))}; "
            f"got {value!r}"
        )


def optional(inner: Check) -> Check:
    """``None``, or a value ``inner`` accepts."""
    def check(convention: str, key: str, value: Any) -> Any:
        return None if value is None else inner(convention, key, value)
    return check


def weights(convention: str, key: str, value: Any) -> tuple[float, ...]:
    """A weight vector as a tuple of numbers, or a ``ValueError`` naming the problem."""
    if isinstance(value, (str, bytes)) or not hasattr(value, "__iter__"):
        raise ValueError(f"{convention}: option {key!r} must be a list of numbers, got {value!r}")
    vector = tuple(value)
    if len(vector) > MAX_ORDER:
        raise ValueError(f"{convention}: option {key!r} has {len(vector)} weights; at most "
                         f"{MAX_ORDER} n-gram orders")
    for w in vector:
        number(convention, key, w)
    return vector


def normalisable_weights(convention: str, key: str, value: Any) -> tuple[float, ...]:
    """Weights that can be normalised to sum 1: at least one, finite, non-negative, not all
    zero (MATLAB's ``bleuEvaluationScore`` argument validation)."""
    vector = weights(convention, key, value)
    if not vector:
        raise ValueError(f"{convention}: {key!r} must have at least one element")
    if not all(math.isfinite(w) for w in vector):
        raise ValueError(f"{convention}: {key!r} must be finite, got {vector!r}")
    if any(w < 0 for w in vector):
        raise ValueError(f"{convention}: {key!r} must be nonnegative, got {vector!r}")
    if sum(vector) <= 0:
        raise ValueError(f"{convention}: {key!r} must not all be zero (cannot normalise)")
    return vector


def checked_by_resolve(convention: str, key: str, value: Any) -> Any:
    """No check of its own: the convention's ``resolve`` checks the value against others
    (SacreBLEU's ``tokenize`` against the release's tokenizers)."""
    return value


def path(convention: str, key: str, value: Any) -> str:
    if not isinstance(value, str):
        raise ValueError(f"{convention}: option {key!r} must be a path, got {value!r}")
    return value


def release(history: Any) -> Check:
    """A release of the library ``history`` models (its ``rules`` raise ``ValueError`` for
    one it does not), as a string."""
    def check(convention: str, key: str, value: Any) -> str:
        value = str(value)
        history.rules(value)
        return value
    return check


def closest(name: object, known: Iterable[str], cutoff: float = 0.6) -> str | None:
    """The known name a mistyped one probably meant (``difflib``'s closest match, case
    aside: ``NLTK`` meant ``nltk``), or ``None``: what every "did you mean" of the engine and
    the command line says."""
    if not isinstance(name, str):
        return None
    import difflib  # here: only a mistake needs it

    folded = {k.casefold(): k for k in reversed(list(known))}  # ``NLTK``: ``nltk``
    matches = difflib.get_close_matches(name.casefold(), list(folded), n=1, cutoff=cutoff)
    return folded[matches[0]] if matches else None
