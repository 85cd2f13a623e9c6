package dev.parity.run;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * A cell's bootstrap medians as stored ({@code cell_bootstrap.packed}): the distinct
 * values once, in ascending order, then each median as its index among them — one byte
 * each up to 256 distinct values, two up to 65,536. The medians of resamples take few
 * values (each is a sample value or the mean of two neighbouring ones), so 1,000 of them
 * fit in some 1.5 KB instead of 8 KB. When indexing would not be smaller, the values are
 * written as they are. Exact: every value comes back with the same bits.
 * <p>
 * Layout (big-endian): a format byte — {@code 0} plain, {@code 1} one-byte indexes,
 * {@code 2} two-byte indexes — then, plain: the count and the values; indexed: the count
 * of distinct values, the values, the count of medians and their indexes.
 */
public final class PackedMedians {

	private static final byte PLAIN = 0;

	private static final byte BYTE_INDEXES = 1;

	private static final byte SHORT_INDEXES = 2;

	private PackedMedians() {
	}

	public static byte[] pack(double[] medians) {
		long[] bits = new long[medians.length];
		for (int i = 0; i < medians.length; i++) {
			bits[i] = Double.doubleToRawLongBits(medians[i]);
		}
		// Distinct by their bits (so that 0.0 and -0.0, or two NaNs, each come back as
		// they were), in ascending order.
		long[] distinct = Arrays.stream(bits).sorted().distinct().toArray();
		int indexBytes = distinct.length <= 256 ? 1 : distinct.length <= 65_536 ? 2 : 0;
		int indexed = 1 + 4 + 8 * distinct.length + 4 + indexBytes * medians.length;
		int plain = 1 + 4 + 8 * medians.length;
		if (indexBytes == 0 || indexed >= plain) {
			ByteBuffer buffer = ByteBuffer.allocate(plain).put(PLAIN).putInt(medians.length);
			for (long value : bits) {
				buffer.putLong(value);
			}
			return buffer.array();
		}
		ByteBuffer buffer = ByteBuffer.allocate(indexed)
			.put(indexBytes == 1 ? BYTE_INDEXES : SHORT_INDEXES)
			.putInt(distinct.length);
		for (long value : distinct) {
			buffer.putLong(value);
		}
		buffer.putInt(medians.length);
		for (long value : bits) {
			int index = Arrays.binarySearch(distinct, value);
			if (indexBytes == 1) {
				buffer.put((byte) index);
			}
			else {
				buffer.putShort((short) index);
			}
		}
		return buffer.array();
	}

	static double[] unpack(byte[] packed) {
		ByteBuffer buffer = ByteBuffer.wrap(packed);
		byte format = buffer.get();
		if (format == PLAIN) {
			double[] medians = new double[buffer.getInt()];
			for (int i = 0; i < medians.length; i++) {
				medians[i] = Double.longBitsToDouble(buffer.getLong());
			}
			return medians;
		}
		if (format != BYTE_INDEXES && format != SHORT_INDEXES) {
			throw new IllegalStateException("bootstrap medians packed in an unknown format " + format);
		}
		double[] values = new double[buffer.getInt()];
		for (int i = 0; i < values.length; i++) {
			values[i] = Double.longBitsToDouble(buffer.getLong());
		}
		double[] medians = new double[buffer.getInt()];
		for (int i = 0; i < medians.length; i++) {
			medians[i] = values[format == BYTE_INDEXES ? Byte.toUnsignedInt(buffer.get())
					: Short.toUnsignedInt(buffer.getShort())];
		}
		return medians;
	}

}
