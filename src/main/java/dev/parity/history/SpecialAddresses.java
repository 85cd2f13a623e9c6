package dev.parity.history;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * The addresses a webhook may not reach: every range of IANA's IPv4 and IPv6
 * Special-Purpose Address Registries (loopback, private, shared 100.64/10 — where cloud
 * metadata services such as 100.100.100.200 live —, link-local, the IETF protocol
 * assignments 192.0.0/24, benchmarking 198.18/15, documentation, 6to4, Teredo, NAT64
 * 64:ff9b::/96, IPv4-mapped ::ffff:0:0/96, discard-only, unique-local, AS112, AMT, …),
 * and multicast, reserved and broadcast addresses. In IPv6 only global unicast (2000::/3)
 * is reachable at all, less the special ranges inside it.
 */
final class SpecialAddresses {

	/** One range, with the name a refusal gives it. */
	private record Range(byte[] prefix, int bits, String name) {

		static Range of(String cidr, String name) {
			int slash = cidr.indexOf('/');
			try {
				return new Range(InetAddress.getByName(cidr.substring(0, slash)).getAddress(),
						Integer.parseInt(cidr.substring(slash + 1)), name);
			}
			catch (UnknownHostException ex) {
				throw new IllegalArgumentException(cidr, ex);
			}
		}

		boolean contains(byte[] address) {
			if (address.length != prefix.length) {
				return false;
			}
			int full = bits / 8;
			for (int i = 0; i < full; i++) {
				if (address[i] != prefix[i]) {
					return false;
				}
			}
			int rest = bits % 8;
			if (rest == 0) {
				return true;
			}
			int mask = (0xff << (8 - rest)) & 0xff;
			return (address[full] & mask) == (prefix[full] & mask);
		}
	}

	private static final List<Range> IPV4 = List.of(Range.of("0.0.0.0/8", "'this network' (0.0.0.0/8)"),
			Range.of("10.0.0.0/8", "private (10.0.0.0/8)"),
			Range.of("100.64.0.0/10", "shared address space (100.64.0.0/10, also cloud metadata services)"),
			Range.of("127.0.0.0/8", "loopback (127.0.0.0/8)"),
			Range.of("169.254.0.0/16", "link-local (169.254.0.0/16, also cloud metadata services)"),
			Range.of("172.16.0.0/12", "private (172.16.0.0/12)"),
			Range.of("192.0.0.0/24", "IETF protocol assignments (192.0.0.0/24)"),
			Range.of("192.0.2.0/24", "documentation (192.0.2.0/24)"),
			Range.of("192.31.196.0/24", "AS112 (192.31.196.0/24)"),
			Range.of("192.52.193.0/24", "AMT (192.52.193.0/24)"),
			Range.of("192.88.99.0/24", "6to4 relay anycast (192.88.99.0/24)"),
			Range.of("192.168.0.0/16", "private (192.168.0.0/16)"),
			Range.of("192.175.48.0/24", "AS112 direct delegation (192.175.48.0/24)"),
			Range.of("198.18.0.0/15", "benchmarking (198.18.0.0/15)"),
			Range.of("198.51.100.0/24", "documentation (198.51.100.0/24)"),
			Range.of("203.0.113.0/24", "documentation (203.0.113.0/24)"),
			Range.of("224.0.0.0/4", "multicast (224.0.0.0/4)"),
			Range.of("240.0.0.0/4", "reserved (240.0.0.0/4) or broadcast"));

	/** Global unicast: the only IPv6 space a webhook may reach, less the ranges below. */
	private static final Range GLOBAL_UNICAST = Range.of("2000::/3", "global unicast");

	private static final List<Range> IPV6 = List.of(Range.of("::/128", "unspecified (::)"),
			Range.of("::1/128", "loopback (::1)"), Range.of("::ffff:0:0/96", "IPv4-mapped (::ffff:0:0/96)"),
			Range.of("::/96", "IPv4-compatible (::/96)"),
			Range.of("64:ff9b::/96", "IPv4/IPv6 translation, NAT64 (64:ff9b::/96)"),
			Range.of("64:ff9b:1::/48", "local-use IPv4/IPv6 translation (64:ff9b:1::/48)"),
			Range.of("100::/64", "discard-only (100::/64)"),
			Range.of("2001::/23", "IETF protocol assignments (2001::/23)"),
			Range.of("2001:db8::/32", "documentation (2001:db8::/32)"), Range.of("2002::/16", "6to4 (2002::/16)"),
			Range.of("2620:4f:8000::/48", "AS112 direct delegation (2620:4f:8000::/48)"),
			Range.of("3fff::/20", "documentation (3fff::/20)"), Range.of("5f00::/16", "segment routing (5f00::/16)"),
			Range.of("fc00::/7", "unique-local (fc00::/7)"), Range.of("fe80::/10", "link-local (fe80::/10)"),
			Range.of("fec0::/10", "site-local (fec0::/10)"), Range.of("ff00::/8", "multicast (ff00::/8)"));

	private SpecialAddresses() {
	}

	/**
	 * The special-purpose range this address is in, or {@code null} for an address a
	 * webhook may reach.
	 */
	static @Nullable String rangeOf(InetAddress address) {
		byte[] bytes = address.getAddress();
		if (address instanceof Inet4Address) {
			return IPV4.stream().filter(r -> r.contains(bytes)).map(Range::name).findFirst().orElse(null);
		}
		for (Range range : IPV6) {
			if (range.contains(bytes)) {
				return range.name();
			}
		}
		return GLOBAL_UNICAST.contains(bytes) ? null : "not global unicast (outside 2000::/3)";
	}

}
