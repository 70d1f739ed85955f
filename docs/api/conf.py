"""Sphinx configuration of the API reference (built in CI with warnings as errors:
``sphinx-build -W -b html docs/api <out>``, see ``tests/test_api_reference.py``).

The pages are generated from the numpydoc docstrings of the public names (``__all__`` of each public
module); numpydoc's validation turns a missing Parameters, Returns or Examples section, or a parameter
documented under the wrong name, into a warning — hence an error."""

from __future__ import annotations

project = "humanly"
author = "humanly developers"
copyright = "humanly developers"  # noqa: A001 (Sphinx's name)

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "numpydoc",
]

autosummary_generate = True
autosummary_ignore_module_all = False  # document exactly what each module exports
autosummary_imported_members = True
autodoc_typehints = "none"  # the signatures carry the types; numpydoc sections describe them
autodoc_default_options = {"inherited-members": False}
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
numpydoc_xref_param_type = False
# every public function and class: a summary line, its parameters under their own names, what it
# returns, and a runnable example (RT01 only where something is returned)
numpydoc_validation_checks = {"GL08", "SS01", "PR01", "PR02", "RT01", "EX01"}
numpydoc_validation_exclude = {
    r"\.__\w+__$",  # dunder methods
    r"\._\w+$",  # private names
    r"\.to_dict$",  # the shared Result methods, documented once on humanly._core.result.Result
    r"\.from_dict$",
    r"\.to_json$",
    r"\.to_frame$",
    # a Report's members: one worked example on the class runs each of them on one analysis (ten
    # copies of the same analysis made the doctest run six times longer)
    r"^humanly\.report\.Report\.(title|models|reproducibility|verdicts|cards|headline|"
    r"section_sentences|html|write|export)$",
}
templates_path = ["_templates"]
exclude_patterns = ["_build"]
html_theme = "alabaster"
html_static_path: list[str] = []
nitpicky = False
suppress_warnings = ["autosummary.import_cycle"]
