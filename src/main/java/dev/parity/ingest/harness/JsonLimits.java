package dev.parity.ingest.harness;

/**
 * How much JSON (or YAML) one upload may be read into: values in all its trees together,
 * values in one array, and nesting depth. A tree costs 30 to 100 bytes of memory per
 * value whatever the bytes it was written in (an empty object is three bytes of text), so
 * these bound the memory of reading, where the size of the upload does not.
 *
 * @param maxNodes values (objects, arrays, strings, numbers, …) read from one upload, all
 * its files together
 * @param maxArrayLength values in any one array
 * @param maxDepth nesting depth
 */
public record JsonLimits(long maxNodes, int maxArrayLength, int maxDepth) {

	/**
	 * The limits under the default {@code parity.limits.*}: 16,000,000 values, arrays of
	 * 2,000,000, 64 deep.
	 */
	public static final JsonLimits DEFAULT = new JsonLimits(16_000_000, 2_000_000, 64);

	public JsonLimits {
		if (maxNodes <= 0 || maxArrayLength <= 0 || maxDepth <= 0) {
			throw new IllegalArgumentException("JSON limits must be positive");
		}
	}

}
