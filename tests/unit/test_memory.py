"""peak_memory: counts NumPy's buffers, repeats, and refuses to mix with an outer trace."""

import tracemalloc

import numpy as np
import pytest

import paperlens as pl


def test_peak_counts_numpy_buffers_and_repeats_to_within_bookkeeping():
    first = pl.peak_memory(lambda: np.ones((1000, 1000)))
    assert 8_000_000 <= first < 8_100_000
    assert abs(pl.peak_memory(lambda: np.ones((1000, 1000))) - first) < 4096


def test_a_peak_inside_another_trace_is_refused():
    tracemalloc.start()
    try:
        with pytest.raises(RuntimeError, match="already tracing"):
            pl.peak_memory(lambda: None)
    finally:
        tracemalloc.stop()
