package dev.parity.snapshots;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.parity.compare.BootstrapMedians;
import dev.parity.compare.SampleMedians;
import dev.parity.run.CellBootstraps;
import dev.parity.run.MedianWindowsRead;
import dev.parity.run.RunId;
import dev.parity.run.RunStored;
import dev.parity.stats.MedianLaw;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;
import org.springframework.transaction.event.TransactionPhase;
import org.springframework.transaction.event.TransactionalEventListener;

/**
 * The exact bootstrap laws of runs' sample medians ({@link MedianLaw}), kept by run, cell
 * and metric: a run never changes, so neither does a law, and every comparison of a run
 * asks for the same ones.
 * <p>
 * A run just uploaded is about to be compared (CI asks for its verdict at once): its laws
 * are computed here, on a thread of their own, from the windows of its cells as the
 * upload reads them ({@link MedianWindowsRead}), so that they are ready when the upload
 * commits and the uploader's next request arrives (a run stored otherwise has them
 * computed after its commit, from the windows stored). A comparison that asks for a law
 * being computed waits for it rather than computing it again, and one not computed yet is
 * computed by the comparison itself: nothing is ever waited for that the comparison could
 * not do itself, and the laws are the same either way. Kept by their size in memory
 * ({@code parity.compare.law-cache-mb}, by default an eighth of the heap and at most 256
 * MB; a 400-cell run's laws take about 40 MB).
 */
@Component
public class MedianLaws implements DisposableBean {

	private static final Logger log = LoggerFactory.getLogger(MedianLaws.class);

	private final CellBootstraps bootstraps;

	private final Cache<CellBootstraps.Key, MedianLaw> laws;

	/**
	 * One thread; windows waiting beyond a few uploads' worth are left to their
	 * comparisons (the oldest first: the newest is the one about to be asked for).
	 */
	private final ThreadPoolExecutor ahead = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS,
			new ArrayBlockingQueue<>(64), runnable -> {
				Thread thread = new Thread(runnable, "median-laws");
				thread.setDaemon(true);
				return thread;
			}, new ThreadPoolExecutor.DiscardOldestPolicy());

	MedianLaws(CellBootstraps bootstraps, @Value("${parity.compare.law-cache-mb:0}") long megabytes) {
		this.bootstraps = bootstraps;
		long bytes = megabytes > 0 ? megabytes << 20 : Math.min(256L << 20, Runtime.getRuntime().maxMemory() / 8);
		this.laws = Caffeine.newBuilder()
			.maximumWeight(bytes).<CellBootstraps
					.Key, MedianLaw>weigher((key, law) -> law.bytes())
			// Upkeep on the thread that wrote: never on the common fork-join pool, which
			// the comparisons asking for laws draw on.
			.executor(Runnable::run)
			.build();
	}

	/**
	 * Where a comparison finds its laws: kept ones, else from the stored windows, else
	 * from the cells' samples ({@link BootstrapMedians#stored}), then kept.
	 */
	BootstrapMedians medians(Map<CellBootstraps.Key, CellBootstraps.Window> stored) {
		BootstrapMedians computed = BootstrapMedians.stored(stored);
		return (run, cell, metric) -> laws.get(new CellBootstraps.Key(run.id().value(), cell.anchor(), metric),
				key -> computed.of(run, cell, metric));
	}

	/** Runs whose windows were met as they were read: their laws are under way. */
	private final Cache<RunId, Boolean> readAhead = Caffeine.newBuilder()
		.maximumSize(10_000)
		.executor(Runnable::run)
		.build();

	/** As an upload reads its cells: their laws, computed while it reads on. */
	@EventListener
	void windowsRead(MedianWindowsRead read) {
		readAhead.put(read.run(), true);
		ahead.execute(() -> {
			try {
				for (CellBootstraps.Row row : read.windows()) {
					laws.get(new CellBootstraps.Key(read.run().value(), row.anchor(), row.metric()),
							key -> SampleMedians.law(row.window()));
				}
			}
			catch (RuntimeException ex) {
				// Only time is lost: each comparison computes what it does not find.
				log.warn("comparisons: cannot compute the median laws of run {} ahead", read.run().value(), ex);
			}
		});
	}

	/**
	 * After an upload's commit: its laws, computed ahead of the comparisons asking, from
	 * the windows stored, unless they were met as the upload read them.
	 */
	@TransactionalEventListener(phase = TransactionPhase.AFTER_COMMIT)
	void runCommitted(RunStored stored) {
		if (readAhead.getIfPresent(stored.id()) == null) {
			ahead.execute(() -> computeAhead(stored));
		}
	}

	private void computeAhead(RunStored stored) {
		try {
			for (Map.Entry<CellBootstraps.Key, CellBootstraps.Window> window : bootstraps.find(List.of(stored.id()))
				.entrySet()) {
				laws.get(window.getKey(), key -> SampleMedians.law(window.getValue()));
			}
		}
		catch (RuntimeException ex) {
			// Only time is lost: each comparison computes what it does not find.
			log.warn("comparisons: cannot compute the median laws of run {} ahead", stored.id().value(), ex);
		}
	}

	/** The law kept for this run, cell and metric, if any (for tests). */
	@Nullable MedianLaw kept(CellBootstraps.Key key) {
		return laws.getIfPresent(key);
	}

	@Override
	public void destroy() throws InterruptedException {
		ahead.shutdownNow();
		ahead.awaitTermination(5, TimeUnit.SECONDS);
	}

}
