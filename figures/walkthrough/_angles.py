"""Step 2's geometry, shared by its figures: the query of step 1 and a key turned round it."""

import numpy as np
from _text import num

q = np.array([0.7, -0.3])  # (d_k,) the query of step 1


def rotate(v, degrees):
    """v turned anticlockwise by the given angle."""
    t = np.deg2rad(degrees)
    R = np.array([[np.cos(t), -np.sin(t)], [np.sin(t), np.cos(t)]])  # (2, 2)
    return R @ v  # (2, 2) x (2,) -> (2,)


def dot_label(value):
    """A dot product as the figures write it: signed, two decimals, and 0.00 for zero."""
    return "0.00" if np.isclose(value, 0.0) else num(value, "+.2f")
