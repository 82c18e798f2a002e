"""The experiments of the "Reproduce the claims" pages: each returns the numbers a page plots.

- :mod:`paperlens.experiments.attention_scaling`: *Attention Is All You Need*, §3.2.1.
- :mod:`paperlens.experiments.residual_depth`: *Deep Residual Learning*, §1.
- :mod:`paperlens.experiments.log`: every design tried, on which seeds, and what it found.
"""
