"""Figures (matplotlib), one function per figure, no analysis inside: each takes a result object.

Sub-modules per paper: ``humanly.plots.certify``, ``humanly.plots.equivalence``, ``humanly.plots.budget``.
"""

from .style import figure, model_colors, save_figure

__all__ = ["figure", "model_colors", "save_figure"]
