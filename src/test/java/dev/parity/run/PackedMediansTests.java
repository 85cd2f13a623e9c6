package dev.parity.run;

import java.util.SplittableRandom;

import dev.parity.stats.Noise;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Packed bootstrap medians come back with the same bits, and small when they take few
 * values.
 */
class PackedMediansTests {

	@Test
	void mediansOfResamplesTakeFewValuesAndPackToAFractionOfTheirSize() {
		SplittableRandom random = new SplittableRandom(7);
		double[] samples = random.doubles(250, 0.02, 0.09).toArray();
		double[] medians = Noise.bootstrapMedians(samples, 42);
		byte[] packed = PackedMedians.pack(medians);
		assertThat(packed.length).isLessThan(8 * Noise.RESAMPLES / 3);
		assertThat(bits(PackedMedians.unpack(packed))).containsExactly(bits(medians));
	}

	@Test
	void manyDistinctValuesUseTwoByteIndexesAndAllDistinctOnesArePlain() {
		SplittableRandom random = new SplittableRandom(11);
		double[] some = new double[1000];
		for (int i = 0; i < some.length; i++) {
			some[i] = 1 + random.nextInt(400) / 1000.0;
		}
		byte[] packed = PackedMedians.pack(some);
		assertThat(packed[0]).isEqualTo((byte) 2);
		assertThat(bits(PackedMedians.unpack(packed))).containsExactly(bits(some));

		double[] all = random.doubles(1000).toArray();
		byte[] plain = PackedMedians.pack(all);
		assertThat(plain[0]).isEqualTo((byte) 0);
		assertThat(plain).hasSize(1 + 4 + 8 * 1000);
		assertThat(bits(PackedMedians.unpack(plain))).containsExactly(bits(all));
	}

	@Test
	void everyValueKeepsItsBits() {
		double[] odd = { 0.0, -0.0, Double.NaN, Double.MIN_VALUE, Double.MAX_VALUE, 1e-310, 0.1 + 0.2, 0.3, 0.0, -0.0 };
		assertThat(bits(PackedMedians.unpack(PackedMedians.pack(odd)))).containsExactly(bits(odd));
		assertThat(PackedMedians.unpack(PackedMedians.pack(new double[0]))).isEmpty();
	}

	@Test
	void anUnknownFormatIsRefusedRatherThanMisread() {
		assertThatThrownBy(() -> PackedMedians.unpack(new byte[] { 9, 0, 0, 0, 0 }))
			.hasMessageContaining("unknown format 9");
	}

	private static long[] bits(double[] values) {
		long[] bits = new long[values.length];
		for (int i = 0; i < values.length; i++) {
			bits[i] = Double.doubleToRawLongBits(values[i]);
		}
		return bits;
	}

}
