"""The Certify paper's Table 4 from its published numbers (two models' lower bounds, the upper bound,
N = 1,821 items, K = 3 labels per item), as ``humanly certify summary`` takes them."""

SUMMARY_ARGS = (
    "certify", "summary", "--lower", "0.949", "0.971", "--upper", "0.939", "--n-items", "1821",
    "--labels-per-item", "3",
)  # fmt: skip
