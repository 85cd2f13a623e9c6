package dev.parity.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordingFile;

/**
 * Where a JVM's memory went: the allocation samples of a flight recording in a time
 * window, weighed in bytes and grouped by the code that allocated (the first frame
 * outside the JDK, with the type allocated).
 */
final class Allocations {

	private Allocations() {
	}

	static List<String> top(Path recording, Instant from, Instant to, int count) throws IOException {
		Map<String, Long> bytes = new HashMap<>();
		for (RecordedEvent event : RecordingFile.readAllEvents(recording)) {
			if (!event.getEventType().getName().equals("jdk.ObjectAllocationSample")
					|| event.getStartTime().isBefore(from) || event.getStartTime().isAfter(to)) {
				continue;
			}
			String site = "?";
			if (event.getStackTrace() != null) {
				for (RecordedFrame frame : event.getStackTrace().getFrames()) {
					String type = frame.getMethod().getType().getName();
					if (!type.startsWith("java.") && !type.startsWith("jdk.") && !type.startsWith("sun.")) {
						site = type.substring(type.lastIndexOf('.') + 1) + "." + frame.getMethod().getName();
						break;
					}
				}
			}
			String what = event.getClass("objectClass").getName();
			bytes.merge(site + " (" + what.substring(what.lastIndexOf('.') + 1) + ")", event.getLong("weight"),
					Long::sum);
		}
		return bytes.entrySet()
			.stream()
			.sorted(Map.Entry.<String, Long>comparingByValue().reversed())
			.limit(count)
			.map(e -> String.format(Locale.ROOT, "%s %.0f MB", e.getKey(), e.getValue() / 1e6))
			.toList();
	}

}
