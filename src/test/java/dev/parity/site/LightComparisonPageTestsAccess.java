package dev.parity.site;

/** The light page's test grid, for the browser tests in another package. */
public final class LightComparisonPageTestsAccess {

	private LightComparisonPageTestsAccess() {
	}

	/** A run of prompts × concurrencies cells with a few samples each. */
	public static byte[] grid(int prompts, int concurrencies, String variant, String name) {
		return LightComparisonPageTests.grid(prompts, concurrencies, variant, name);
	}

}
