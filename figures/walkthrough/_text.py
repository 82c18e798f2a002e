"""Helpers for the Walkthrough figures: numbers written the way labels and alt text read them."""


def num(x, spec="g"):
    """``x`` formatted with ``spec`` and a true minus sign: ``num(-0.3)`` is ``'−0.3'``."""
    return format(x + 0.0, spec).replace("-", "−")  # + 0.0 turns −0 into 0


def nums(values, spec="g"):
    """Numbers as a list in prose: ``nums([1, 0, -2])`` is ``'1, 0 and −2'``."""
    return listing([num(v, spec) for v in values])


def vec(values, spec="g"):
    """A vector as prose writes it: ``vec([0.7, -0.3])`` is ``'(0.7, −0.3)'``."""
    return "(" + ", ".join(num(v, spec) for v in values) + ")"


def listing(words):
    """``'a, b and c'``."""
    words = list(words)
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]
