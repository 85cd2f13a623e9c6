package dev.parity.history;

/**
 * How large a change point is against its track's run-to-run noise. The spread is
 * estimated over all the points of the segment E-Divisive saw, from the differences
 * between consecutive points (σ² = Σ (xᵢ₊₁ − xᵢ)² / 2(n − 1), von Neumann's estimator): a
 * level shift adds one difference only, so the shifts being tested barely widen it, and
 * it does not shrink when change points cut the segment into short, quiet pieces. The
 * change is the difference of the means of the points between the change points on either
 * side of it; its test is Student's, with 2(n − 1)/3 degrees of freedom (the
 * estimator's), and its p-value is multiplied by the number of places E-Divisive could
 * have split those points — its choice of the best split is what makes a plain p-value
 * too small. This is Parity's decision on top of Otava's change points, which it does not
 * change.
 *
 * @param spread the spread relative to the mean before (0 when that mean is 0)
 * @param scanPvalue the p-value times (points between the neighbouring change points −
 * 1), at most 1
 */
record AgainstNoise(double spread, double scanPvalue) {

	/**
	 * @param values the points of the segment
	 * @param from the first point of the level before
	 * @param change the first point of the level after
	 * @param to the end (exclusive) of the level after
	 */
	static AgainstNoise of(double[] values, int from, int change, int to) {
		int n1 = change - from;
		int n2 = to - change;
		int n = values.length;
		if (n1 < 1 || n2 < 1 || n < 3) {
			return new AgainstNoise(0, 1);
		}
		double mean1 = mean(values, from, change);
		double mean2 = mean(values, change, to);
		double successive = 0;
		for (int i = 1; i < n; i++) {
			double d = values[i] - values[i - 1];
			successive += d * d;
		}
		double sd = Math.sqrt(successive / (2.0 * (n - 1)));
		double spread = mean1 == 0 ? 0 : sd / Math.abs(mean1);
		double p;
		if (sd == 0) {
			p = mean1 == mean2 ? 1 : 0;
		}
		else {
			double t = Math.abs(mean2 - mean1) / (sd * Math.sqrt(1.0 / n1 + 1.0 / n2));
			p = 2 * EDivisive.studentT(Math.max(1, Math.round(2.0 * (n - 1) / 3))).survivalProbability(t);
		}
		return new AgainstNoise(spread, Math.min(1, p * (n1 + n2 - 1)));
	}

	private static double mean(double[] values, int from, int to) {
		double sum = 0;
		for (int i = from; i < to; i++) {
			sum += values[i];
		}
		return sum / (to - from);
	}

}
