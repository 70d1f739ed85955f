"""What progress expects of each analysis of :func:`humanly.analyze`: modelled seconds per stage."""

from __future__ import annotations

from .data import Study

__all__ = ["stage_seconds"]


def stage_seconds(study: Study, bootstrap: int) -> dict[str, float]:
    """Each analysis's modelled seconds (and the equivalence's two runs', keyed
    ``combiner+scorer``), from the sizes that drive its work: the labels, Σ nᵢ² (the pairs of
    labels within an item: certify's slots, the ABC's sub-counts), Σ nᵢ³ (the plurality's exact
    curve), the classes and the replicates. The coefficients are fitted to runs of
    ``humanly.analyze`` on a quiet 2-core Intel Xeon (ChaosNLI-like 1,514 × 100 × 3 and 729 × 100,
    1,514 × 30, 5,000 × 10, 20,000 × 5, the bundled wiki sample; within 1.6× of each run); progress
    scales the stages to come by the speed measured on the stages done
    (:attr:`humanly._core.progress.Task.speed`), so a busy or slower machine is followed."""
    r = study.ratings
    n = r.labels_per_item.astype(float)
    labels, s2, s3 = float(n.sum()), float((n**2).sum()), float((n**3).sum())
    reps = bootstrap / 1000
    several = bool((n >= 2).any())
    abc = 0.05 + s2 * (3.2e-7 + 3.0e-7 * reps) if several else 0.0
    second = 0.03 + 2.6e-9 * s3 if several else 0.0
    plan = 0.45 if r.n_classes == 2 else (1.7 + 1e-5 * labels) * (0.45 + 0.55 * reps)
    return {
        "inspect": 0.02 + 2e-6 * labels + 1e-5 * r.n_items,
        "certify": 0.02 + 1.4e-7 * s2,
        "equivalence": abc + second,
        "abc+cross_entropy": abc,
        f"{'majority' if r.n_classes == 2 else 'plurality'}+agreement": second,
        "plan": plan if several else 0.0,
        "judge": 0.5 if study.judge is not None else 0.0,
    }
