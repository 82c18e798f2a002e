"""Peak memory of a call, as NumPy allocates it: the measure behind the long-sequence page.

NumPy reports every buffer it allocates to Python's ``tracemalloc``, so the peak traced during
a call counts every array it makes, and the same call on the same shapes gives the same number
to within a few hundred bytes of interpreter bookkeeping, unlike a time, which varies with the
machine's load. (Memory that other libraries allocate outside Python's view is not counted.)
"""

from __future__ import annotations

import tracemalloc
from collections.abc import Callable


def peak_memory(fn: Callable[[], object]) -> int:
    """Bytes at the peak of memory traced while ``fn()`` runs.

    Args:
        fn: a function of no arguments; its result is discarded.

    Returns:
        The peak of traced memory during the call, in bytes.

    Raises:
        RuntimeError: if ``tracemalloc`` is already tracing (its peak would mix in other work).

    Examples:
        >>> import numpy as np
        >>> from paperlens import peak_memory
        >>> peak_memory(lambda: np.ones(1_000_000)) >= 8_000_000  # one million float64
        True
    """
    if tracemalloc.is_tracing():
        raise RuntimeError("tracemalloc is already tracing: stop it before measuring a peak")
    tracemalloc.start()
    try:
        fn()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
