"""Crowd statistics: what the ratings say on their own, before any model — agreement, per-rater
quality, Dawid–Skene and the summary of ``humanly inspect``."""
