"""One module per report section: each runs its analysis with the report's defaults and lays the
result out as :mod:`humanly.report._page` tables and figures (reading results only)."""
