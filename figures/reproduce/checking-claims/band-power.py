"""The power of a 4-standard-error band: how often it catches an error of a given size."""

import numpy as np

import paperlens as pl
from paperlens.experiments import claims
from sitekit.figstyle import new_figure, sci

SEED = 0  # no randomness here; kept so every figure script reads the same way
K = 4.0  # the band's half-width, in standard errors, as on the pages


def make_figure(style, layout):
    delta = np.linspace(0, 10, 201)  # (201,): the error, in standard errors
    power = claims.band_power(delta, k=K)  # (201,)
    # The error caught 99 times in 100, read between grid points (the first point past it, 6.35,
    # was printed 6.4): the power rises with the error beyond K.
    rising = delta >= K
    reliable = float(np.interp(0.99, power[rising], delta[rising]))
    fig, ax = new_figure(height=3.0, layout=layout)
    ax.plot(delta, power, color=style.blue, lw=2)
    ax.axvline(K, color=style.muted, lw=0.8, ls=":")
    ax.axhline(0.5, color=style.muted, lw=0.8, ls=":")
    ax.plot([K, reliable], [float(claims.band_power(K, k=K)), 0.99], "o", color=style.blue)
    at_band = f"{float(claims.band_power(K, k=K)):.0%}"
    short = layout.stacked  # a phone's width: the labels say the same in fewer words
    high = f"from {reliable:.1f} SE"
    ax.annotate(
        f"at the band: {at_band}" if short else f"error = band: caught {at_band} of the time",
        (K, 0.5), xytext=(10, -18), textcoords="offset points", color=style.muted,
    )  # fmt: skip
    ax.annotate(
        f"99% {high}" if short else f"caught 99% of the time {high}",
        (reliable, 0.99), xytext=(10, -22), textcoords="offset points", color=style.muted,
    )  # fmt: skip
    ax.set_xlabel("error, in standard errors" if short else "size of the error, in standard errors")
    ax.set_ylabel("chance the check\ncatches it")
    ax.set_ylim(0, 1.05)
    alt = (
        f"An S-shaped curve: the chance that a check of {K:g} standard errors catches an error, "
        f"against the error's size from {delta[0]:g} to {delta[-1]:g} standard errors. It is "
        f"{sci(float(power[0]))} for no error, {float(claims.band_power(K, k=K)):.2f} for an error "
        f"of exactly {K:g} standard errors, and reaches 0.99 at {reliable:.1f}."
    )
    return pl.show(fig, alt)
