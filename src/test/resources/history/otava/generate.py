#!/usr/bin/env python3
"""Computes expected.json: inputs and the change points Apache Otava itself finds in them.

Usage: generate.py OTAVA_CHECKOUT OTAVA_COMMIT > expected.json

OTAVA_CHECKOUT is a checkout of https://github.com/apache/otava (its code is imported from there, never copied
here); it needs numpy and scipy (Debian: python3-numpy python3-scipy). The inputs are built below from fixed
seeds, with Otava's own test inputs (tests/analysis_test.py, tests/change_point_divisive_test.py,
tests/series_test.py, tests/tigerbeetle_test.py), and written with their outputs.
"""
import json
import sys

import numpy as np

sys.path.insert(0, sys.argv[1])
from otava.analysis import compute_change_points, split  # noqa: E402

OTAVA_COMMIT = sys.argv[2]


def own_cases():
    rng = np.random.default_rng(20261201)
    cases = []

    def add(name, series, window=50, max_pvalue=0.001, min_magnitude=0.0):
        cases.append({"name": name, "window": window, "max_pvalue": max_pvalue, "min_magnitude": min_magnitude,
                      "series": [float(round(x, 6)) for x in series]})

    noise = lambda n, sd: rng.normal(0.0, sd, n)
    add("shift-down-10pct-at-30-of-40", np.concatenate([100 + noise(30, 1.5), 90 + noise(10, 1.5)]))
    add("shift-up-5pct-at-20-of-40", np.concatenate([50 + noise(20, 0.5), 52.5 + noise(20, 0.5)]))
    add("no-change-noise-100", 20 + noise(100, 0.4))
    add("lone-outlier", np.concatenate([10 + noise(20, 0.1), [25.0], 10 + noise(19, 0.1)]))
    add("two-outliers-apart", np.concatenate([10 + noise(15, 0.1), [3.0], 10 + noise(15, 0.1), [30.0], 10 + noise(8, 0.1)]))
    add("three-shifts-200", np.concatenate([100 + noise(60, 2), 120 + noise(50, 2), 95 + noise(50, 2), 110 + noise(40, 2)]))
    add("three-shifts-200-window-20", np.concatenate([100 + noise(60, 2), 120 + noise(50, 2), 95 + noise(50, 2),
                                                       110 + noise(40, 2)]), window=20)
    add("slow-drift-80", 100 + np.linspace(0, 10, 80) + noise(80, 0.5))
    add("heavy-tails-60", np.concatenate([30 + rng.standard_t(2, 30), 33 + rng.standard_t(2, 30)]))
    add("constant-12", [7.0] * 12)
    add("constant-then-step", [7.0] * 10 + [8.0] * 10)
    add("two-points", [1.0, 2.0])
    add("three-points", [1.0, 1.0, 5.0])
    add("short-step-after-3", [5.0, 5.1, 4.9, 9.0, 9.1, 8.9])
    add("zeros-then-values", [0.0, 0.0, 0.0, 0.0, 1.0, 1.1, 0.9, 1.0])
    add("regression-last-3-of-43", np.concatenate([100 + noise(40, 1), 80 + noise(3, 1)]))
    add("loose-pvalue-0.05", np.concatenate([100 + noise(25, 3), 104 + noise(25, 3)]), max_pvalue=0.05)
    add("min-magnitude-0.1", np.concatenate([100 + noise(25, 1), 104 + noise(25, 1), 130 + noise(25, 1)]),
        min_magnitude=0.1)
    add("ttft-like-120", np.concatenate([0.25 + noise(70, 0.004), 0.29 + noise(50, 0.004)]), window=30)
    return cases


def otava_test_cases():
    analysis = [1.02, 0.95, 0.99, 1.00, 1.12, 1.00, 1.01, 0.98, 1.01, 0.96,
                0.50, 0.51, 0.48, 0.48, 0.55, 0.50, 0.49, 0.51, 0.50, 0.49]
    divisive = [0.3, 2.4, 1.5, -0.9, -0.5, 99.7, 98.3, 99.1, 149.0, 149.7, 149.5, 149.1, 148.8, 150.0]
    series_1 = [1.02, 0.95, 0.99, 1.00, 1.12, 0.90, 0.50, 0.51, 0.48, 0.48, 0.55]
    series_2 = [2.02, 2.03, 2.01, 2.04, 1.82, 1.85, 1.79, 1.81, 1.80, 1.76, 1.78]
    div_by_zero = [0.0, 0.0, 0.0, 1.00, 1.12, 0.90, 0.50, 0.51, 0.48, 0.48, 0.55]
    sys.path.insert(0, sys.argv[1] + "/tests")
    from tigerbeetle_test import _get_series  # noqa: E402
    tigerbeetle = [float(x) for x in _get_series()]
    cases = [
        {"name": "otava analysis_test single_series", "window": 10, "max_pvalue": 0.0001, "series": analysis},
        {"name": "otava change_point_divisive_test SEQUENCE", "window": 50, "max_pvalue": 0.01, "series": divisive},
        {"name": "otava series_test series_1", "window": 50, "max_pvalue": 0.001, "series": series_1},
        {"name": "otava series_test series_2", "window": 50, "max_pvalue": 0.001, "series": series_2},
        {"name": "otava series_test series_1 min_magnitude 0.2", "window": 50, "max_pvalue": 0.001,
         "min_magnitude": 0.2, "series": series_1},
        {"name": "otava series_test div_by_zero", "window": 50, "max_pvalue": 0.001, "series": div_by_zero},
    ]
    for p, magnitude in [(0.01, 0.05), (0.05, 0.05), (0.1, 0.05), (0.2, 0.05), (0.2, 0.0), (0.1, 0.0), (0.001, 0.0)]:
        cases.append({"name": f"otava tigerbeetle_test p={p} min_magnitude={magnitude}", "window": 30,
                      "max_pvalue": p, "min_magnitude": magnitude, "series": tigerbeetle})
    for case in cases:
        case.setdefault("min_magnitude", 0.0)
    return cases


def change_point(cp):
    s = cp.stats
    return {"index": int(cp.index), "mean_before": float(s.mean_1), "mean_after": float(s.mean_2),
            "std_before": float(s.std_1), "std_after": float(s.std_2), "pvalue": float(s.pvalue),
            "magnitude": float(s.change_magnitude())}


def main():
    cases = otava_test_cases() + own_cases()
    for case in cases:
        cps, _ = compute_change_points(list(case["series"]), window_len=case["window"],
                                       max_pvalue=case["max_pvalue"], min_magnitude=case["min_magnitude"])
        case["change_points"] = [change_point(cp) for cp in cps]
        # compute_change_points returns its weak change points after merge() removed points from that same list:
        # the split step alone, with the first-pass threshold compute_change_points uses, gives them all.
        p = case["max_pvalue"]
        first_pass = p * 10 if p < 0.05 else (p * 2 if p < 0.5 else p)
        case["weak_change_points"] = [int(cp.index) for cp in split(list(case["series"]), case["window"], first_pass)]
    json.dump({"otava_commit": OTAVA_COMMIT,
               "generated_by": "src/test/resources/history/otava/generate.py",
               "numpy": np.__version__, "scipy": __import__("scipy").__version__,
               "cases": cases}, sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
