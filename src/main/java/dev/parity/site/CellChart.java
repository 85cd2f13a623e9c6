package dev.parity.site;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.geom.AffineTransform;
import java.awt.geom.Line2D;
import java.awt.geom.Path2D;
import java.awt.geom.Rectangle2D;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import javax.imageio.ImageIO;

import org.jspecify.annotations.Nullable;

/**
 * One bar per cell of one metric, as a picture to paste where a page cannot be framed and
 * as a link's preview: the ratio per cell of a comparison (from 1, on a log scale centred
 * on 1, the ±band shaded), or a run's value per cell (from 0). A greyed bar is drawn
 * grey, never in the colour of a comparable one, and the notices of the item (a
 * supersession, a retraction, loosened settings) are drawn above the bars, so a copy
 * carries them.
 *
 * @param title the item's title
 * @param subtitle the headline sentence of the metric (or what the run is)
 * @param notices what must be read before the numbers, one line each
 * @param bars the cells, in table order
 * @param ratios whether the bars are ratios (log scale centred on 1) or values (linear
 * from 0)
 * @param band the ±band shaded around 1, for ratios
 * @param link where the whole item lives
 */
record CellChart(String title, String subtitle, List<String> notices, List<Bar> bars, boolean ratios, double band,
		String link) {

	/** The width of a drawing, in its own units (an SVG's view box, a PNG's pixels). */
	static final int WIDTH = 1200;

	/** The height of a link preview, the usual 1.91:1 card. */
	static final int PREVIEW_HEIGHT = 630;

	private static final String INK = "#1a202c";

	private static final String MUTED = "#4a5568";

	private static final String COMPARABLE = "#2b6cb0";

	private static final String GREY_FILL = "#d9d9d9";

	private static final String GREY_STROKE = "#7a7a7a";

	private static final String BAND = "#e6f0e6";

	private static final String NOTICE_FILL = "#fff4e5";

	private static final String NOTICE_INK = "#7b341e";

	/** One cell: its label, its ratio or value, and whether it is greyed. */
	record Bar(String label, double value, boolean greyed) {
	}

	CellChart {
		notices = List.copyOf(notices);
		bars = List.copyOf(bars);
	}

	/**
	 * The ratio chart of one metric of a comparison: the metric asked for, else the first
	 * whose headline counts a comparable cell, else the first with bars.
	 */
	static CellChart ratios(ComparisonPage page, @Nullable String metric, String title, List<String> notices,
			String link) {
		String chosen = chosenMetric(page, metric, title);
		List<Bar> bars = new ArrayList<>();
		ComparisonCharts data = page.chartData();
		double band = data.band();
		for (ComparisonCharts.Chart chart : data.charts()) {
			if (chart.metric().equals(chosen)) {
				chart.bars().forEach(bar -> bars.add(new Bar(bar.label(), bar.ratio(), bar.greyed())));
			}
		}
		String sentence = page.headlines()
			.stream()
			.filter(h -> h.metric().equals(chosen))
			.map(ComparisonPage.HeadlineView::sentence)
			.findFirst()
			.orElse(chosen == null ? "no metric to chart" : chosen);
		return new CellChart(title, sentence, notices, bars, true, band, link);
	}

	/**
	 * The metric a comparison's chart and description are about: the one asked for; else
	 * the first its title names ({@code decode_tps} or just {@code decode}: "+101 %
	 * faster at decode"); else the first whose headline counts a comparable cell; else
	 * the first.
	 */
	static @Nullable String chosenMetric(ComparisonPage page, @Nullable String metric, String title) {
		if (metric != null && page.metrics().stream().anyMatch(m -> m.metric().equals(metric))) {
			return metric;
		}
		String words = " " + title.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9_]+", " ") + " ";
		for (ComparisonPage.MetricHead head : page.metrics()) {
			String name = head.metric().toLowerCase(Locale.ROOT);
			String stem = name.contains("_") ? name.substring(0, name.indexOf('_')) : name;
			if (words.contains(" " + name + " ") || words.contains(" " + stem + " ")) {
				return head.metric();
			}
		}
		return page.headlines()
			.stream()
			.filter(h -> h.comparable() > 0)
			.map(ComparisonPage.HeadlineView::metric)
			.findFirst()
			.or(() -> page.headlines().stream().map(ComparisonPage.HeadlineView::metric).findFirst())
			.orElse(page.metrics().isEmpty() ? null : page.metrics().get(0).metric());
	}

	/** A run's value per cell of its first metric with values, greyed values grey. */
	static CellChart values(RunPage page, String subtitle, List<String> notices, String link) {
		List<Bar> bars = new ArrayList<>();
		String metric = null;
		for (int m = 0; m < page.metrics().size() && bars.isEmpty(); m++) {
			metric = page.metrics().get(m).name();
			for (RunPage.Row row : page.rows()) {
				RunPage.Value value = row.values().get(m);
				var measured = row.cell()
					.metric(value.metric())
					.flatMap(v -> v.median().isPresent() ? Optional.of(v.median().getAsDouble()) : Optional.empty());
				if (measured.isPresent()) {
					bars.add(new Bar(String.join(" × ", row.paramValues()), measured.get(), value.greyed()));
				}
			}
		}
		String charted = metric == null || bars.isEmpty() ? "" : metric + " per cell (median) · ";
		return new CellChart(page.run().title(), charted + subtitle, notices, bars, false, 0, link);
	}

	long greyedCount() {
		return bars.stream().filter(Bar::greyed).count();
	}

	/**
	 * The chart as an SVG document, {@code height} units high in a view box
	 * {@link #WIDTH} wide.
	 */
	String svg(int height) {
		SvgCanvas canvas = new SvgCanvas(height, title + " — " + subtitle);
		draw(canvas, height);
		return canvas.finish();
	}

	/** The chart as a PNG, {@code WIDTH × height} pixels. */
	byte[] png(int height) {
		BufferedImage image = new BufferedImage(WIDTH, height, BufferedImage.TYPE_INT_RGB);
		Graphics2D graphics = image.createGraphics();
		try {
			graphics.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
			graphics.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
			graphics.setColor(Color.WHITE);
			graphics.fillRect(0, 0, WIDTH, height);
			draw(new ImageCanvas(graphics), height);
		}
		finally {
			graphics.dispose();
		}
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		try {
			ImageIO.write(image, "png", out);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		return out.toByteArray();
	}

	/**
	 * The height an SVG needs: room for the notices, the titles (the subtitle on two
	 * lines if it must) and the bars.
	 */
	int naturalHeight() {
		return 470 + 34 * notices.size() + 22 * (subtitleLines().size() - 1) + (turnedLabels() ? LABEL_ROOM : 0);
	}

	/** The room under the plot for cell labels turned 45 degrees. */
	private static final int LABEL_ROOM = 96;

	/**
	 * Whether the cell labels are turned to fit under their bars (more than twelve bars,
	 * or long labels).
	 */
	private boolean turnedLabels() {
		if (bars.size() > 12) {
			return true;
		}
		double slot = (WIDTH - 2 * 32 - 64) / (double) Math.max(1, bars.size());
		return bars.stream().anyMatch(bar -> bar.label().length() * 13 * 0.56 > slot - 4);
	}

	/** The subtitle on at most two lines, cut only beyond them. */
	private List<String> subtitleLines() {
		double width = WIDTH - 2 * 32;
		int max = (int) (width / (19 * 0.56));
		if (subtitle.length() <= max) {
			return List.of(subtitle);
		}
		int cut = subtitle.lastIndexOf(' ', max);
		cut = cut <= max / 2 ? max : cut;
		return List.of(subtitle.substring(0, cut).strip(), fit(subtitle.substring(cut).strip(), 19, width));
	}

	private void draw(Canvas canvas, int height) {
		double margin = 32;
		double y = margin;
		for (String notice : notices) {
			canvas.rect(margin, y, WIDTH - 2 * margin, 30, NOTICE_FILL, NOTICE_INK);
			canvas.text(fit(notice, 17 * 1.12, WIDTH - 2 * margin - 20), margin + 10, y + 21, 17, true, NOTICE_INK,
					"start");
			y += 34;
		}
		y += 30;
		canvas.text(fit(title, 30 * 1.12, WIDTH - 2 * margin), margin, y, 30, true, INK, "start");
		y += 34;
		for (String line : subtitleLines()) {
			canvas.text(line, margin, y, 19, false, MUTED, "start");
			y += 22;
		}
		y += 2;
		double footer = 56;
		double plotTop = y + 12;
		boolean turned = turnedLabels();
		double plotBottom = height - footer - (turned ? LABEL_ROOM : 22);
		double plotLeft = margin + 64;
		double plotRight = WIDTH - margin;
		if (plotBottom - plotTop < 60 || bars.isEmpty()) {
			canvas.text(bars.isEmpty() ? "No cell to chart." : "Too many notices to chart here: see the link.", margin,
					Math.min(height - footer, plotTop + 40), 19, false, INK, "start");
			footer(canvas, height, margin);
			return;
		}
		Scale scale = ratios ? logScale(plotTop, plotBottom) : linearScale(plotTop, plotBottom);
		if (ratios && band > 0 && band < 1) {
			double top = scale.y(1 + band);
			double bottom = scale.y(1 - band);
			canvas.rect(plotLeft, top, plotRight - plotLeft, bottom - top, BAND, null);
		}
		for (double tick : scale.ticks()) {
			double ty = scale.y(tick);
			canvas.line(plotLeft, ty, plotRight, ty, ratios && tick == 1 ? INK : "#e2e8f0",
					ratios && tick == 1 ? 2 : 1);
			canvas.text(ratios ? "×" + Numbers.format(tick) : Numbers.format(tick), plotLeft - 8, ty + 6, 15, false,
					MUTED, "end");
		}
		double slot = (plotRight - plotLeft) / bars.size();
		double width = Math.max(1, slot * 0.7);
		for (int i = 0; i < bars.size(); i++) {
			Bar bar = bars.get(i);
			double x = plotLeft + i * slot + (slot - width) / 2;
			double from = scale.y(ratios ? 1 : 0);
			double to = scale.y(bar.value());
			double top = Math.min(from, to);
			double h = Math.max(1, Math.abs(to - from));
			if (bar.greyed()) {
				canvas.rect(x, top, width, h, GREY_FILL, GREY_STROKE);
			}
			else {
				canvas.rect(x, top, width, h, COMPARABLE, null);
			}
			// A greyed value beyond the axis (set by the comparable values) ends at its
			// edge, in an arrow with its value.
			int beyond = scale.beyond(bar.value());
			if (beyond != 0) {
				double edge = beyond > 0 ? plotTop : plotBottom;
				double tipY = beyond > 0 ? edge - 8 : edge + 8;
				canvas.polygon(new double[] { x + width / 2 - 7, x + width / 2 + 7, x + width / 2 },
						new double[] { edge, edge, tipY }, GREY_STROKE);
				String value = ratios ? "×" + Numbers.format(Math.round(bar.value() * 100) / 100.0)
						: Numbers.format(bar.value());
				canvas.text(value, x + width / 2, beyond > 0 ? tipY - 3 : tipY + 13, 12, false, INK, "middle");
			}
			double centre = x + width / 2;
			if (turned) {
				canvas.turnedText(fit(bar.label(), 13, LABEL_ROOM * 1.35), centre + 4, plotBottom + 14, 13, MUTED);
			}
			else {
				canvas.text(fit(bar.label(), 13, slot - 4), centre, plotBottom + 18, 13, false, MUTED, "middle");
			}
		}
		footer(canvas, height, margin);
	}

	private void footer(Canvas canvas, int height, double margin) {
		double y = height - 30;
		long greyed = greyedCount();
		double x = margin;
		x = legend(canvas, x, y, COMPARABLE, null, (bars.size() - greyed) + (ratios ? " comparable" : " not greyed"));
		x = legend(canvas, x, y, GREY_FILL, GREY_STROKE, greyed + (ratios ? " greyed: not comparable" : " greyed"));
		if (ratios) {
			x = legend(canvas, x, y, BAND, GREY_STROKE, "±" + Numbers.format(band * 100) + " % band");
		}
		canvas.text(fit(link, 15, WIDTH - margin - x), WIDTH - margin, y, 15, false, MUTED, "end");
	}

	/** One legend entry (a box and its words); where the next one starts. */
	private static double legend(Canvas canvas, double x, double y, String fill, @Nullable String stroke,
			String words) {
		canvas.rect(x, y - 13, 16, 16, fill, stroke);
		canvas.text(words, x + 22, y, 16, false, INK, "start");
		return x + 22 + words.length() * 16 * 0.56 + 24;
	}

	/** Where values go on the plot, and which values get a tick. */
	private interface Scale {

		double y(double value);

		List<Double> ticks();

		/**
		 * 1 above the axis's range, -1 below it, 0 within (a value beyond it is drawn at
		 * the edge).
		 */
		int beyond(double value);

	}

	/** The bars that set the axis: the comparable ones; all of them when none is. */
	private List<Bar> scaling() {
		List<Bar> comparable = bars.stream().filter(bar -> !bar.greyed()).toList();
		return comparable.isEmpty() ? bars : comparable;
	}

	private Scale logScale(double top, double bottom) {
		double reach = Math.log(1 + Math.max(band, 0.05) * 1.5);
		for (Bar bar : scaling()) {
			reach = Math.max(reach, Math.abs(Math.log(Math.max(bar.value(), 1e-9))));
		}
		double span = Math.min(reach * 1.1, Math.log(20));
		double middle = (top + bottom) / 2;
		double half = (bottom - top) / 2;
		List<Double> ticks = new ArrayList<>();
		for (double tick : new double[] { 0.05, 0.1, 0.2, 0.5, 0.8, 0.9, 1, 1.1, 1.25, 2, 5, 10, 20 }) {
			if (Math.abs(Math.log(tick)) <= span) {
				ticks.add(tick);
			}
		}
		return new Scale() {
			@Override
			public double y(double value) {
				double log = Math.max(-span, Math.min(span, Math.log(Math.max(value, 1e-9))));
				return middle - half * log / span;
			}

			@Override
			public List<Double> ticks() {
				return ticks;
			}

			@Override
			public int beyond(double value) {
				double log = Math.log(Math.max(value, 1e-9));
				return log > span ? 1 : log < -span ? -1 : 0;
			}
		};
	}

	private Scale linearScale(double top, double bottom) {
		double max = scaling().stream().mapToDouble(Bar::value).max().orElse(1);
		double step = niceStep(max <= 0 ? 1 : max / 4);
		double end = Math.ceil(Math.max(max, step) / step) * step;
		List<Double> ticks = new ArrayList<>();
		for (double tick = 0; tick <= end + step / 2; tick += step) {
			ticks.add(tick);
		}
		return new Scale() {
			@Override
			public double y(double value) {
				return bottom - (bottom - top) * Math.max(0, Math.min(value, end)) / end;
			}

			@Override
			public List<Double> ticks() {
				return ticks;
			}

			@Override
			public int beyond(double value) {
				return value > end ? 1 : value < 0 ? -1 : 0;
			}
		};
	}

	private static double niceStep(double rough) {
		double power = Math.pow(10, Math.floor(Math.log10(rough)));
		for (double factor : new double[] { 1, 2, 2.5, 5, 10 }) {
			if (factor * power >= rough) {
				return factor * power;
			}
		}
		return 10 * power;
	}

	/**
	 * Text cut to fit a width, at an average glyph width of 0.56 em (the same for both
	 * drawings).
	 */
	private static String fit(String text, double size, double width) {
		int max = (int) Math.max(1, width / (size * 0.56));
		return text.length() <= max ? text : text.substring(0, Math.max(0, max - 1)) + "…";
	}

	/** What both drawings can do. */
	private interface Canvas {

		void rect(double x, double y, double width, double height, String fill, @Nullable String stroke);

		void line(double x1, double y1, double x2, double y2, String colour, double width);

		void text(String text, double x, double y, double size, boolean bold, String colour, String anchor);

		/**
		 * Text ending at {@code (x, y)}, turned 45 degrees up to the left (a cell label
		 * under its bar).
		 */
		void turnedText(String text, double x, double y, double size, String colour);

		void polygon(double[] xs, double[] ys, String fill);

	}

	private static final class SvgCanvas implements Canvas {

		private final StringBuilder svg = new StringBuilder();

		SvgCanvas(int height, String label) {
			svg.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
				.append("<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 ")
				.append(WIDTH)
				.append(' ')
				.append(height)
				.append("\" width=\"")
				.append(WIDTH)
				.append("\" height=\"")
				.append(height)
				.append("\" role=\"img\" aria-labelledby=\"chart-title\" font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\">\n")
				.append("<title id=\"chart-title\">")
				.append(escape(label))
				.append("</title>\n")
				.append("<rect x=\"0\" y=\"0\" width=\"")
				.append(WIDTH)
				.append("\" height=\"")
				.append(height)
				.append("\" fill=\"#ffffff\"/>\n");
		}

		@Override
		public void rect(double x, double y, double width, double height, String fill, @Nullable String stroke) {
			svg.append("<rect x=\"")
				.append(n(x))
				.append("\" y=\"")
				.append(n(y))
				.append("\" width=\"")
				.append(n(width))
				.append("\" height=\"")
				.append(n(height))
				.append("\" fill=\"")
				.append(fill)
				.append('"');
			if (stroke != null) {
				svg.append(" stroke=\"").append(stroke).append("\" stroke-width=\"1.5\"");
			}
			svg.append("/>\n");
		}

		@Override
		public void line(double x1, double y1, double x2, double y2, String colour, double width) {
			svg.append("<line x1=\"")
				.append(n(x1))
				.append("\" y1=\"")
				.append(n(y1))
				.append("\" x2=\"")
				.append(n(x2))
				.append("\" y2=\"")
				.append(n(y2))
				.append("\" stroke=\"")
				.append(colour)
				.append("\" stroke-width=\"")
				.append(n(width))
				.append("\"/>\n");
		}

		@Override
		public void text(String text, double x, double y, double size, boolean bold, String colour, String anchor) {
			svg.append("<text x=\"")
				.append(n(x))
				.append("\" y=\"")
				.append(n(y))
				.append("\" font-size=\"")
				.append(n(size))
				.append("\" fill=\"")
				.append(colour)
				.append("\" text-anchor=\"")
				.append(anchor)
				.append('"')
				.append(bold ? " font-weight=\"bold\"" : "")
				.append('>')
				.append(escape(text))
				.append("</text>\n");
		}

		@Override
		public void turnedText(String text, double x, double y, double size, String colour) {
			svg.append("<text x=\"")
				.append(n(x))
				.append("\" y=\"")
				.append(n(y))
				.append("\" font-size=\"")
				.append(n(size))
				.append("\" fill=\"")
				.append(colour)
				.append("\" text-anchor=\"end\" transform=\"rotate(-45 ")
				.append(n(x))
				.append(' ')
				.append(n(y))
				.append(")\">")
				.append(escape(text))
				.append("</text>\n");
		}

		@Override
		public void polygon(double[] xs, double[] ys, String fill) {
			svg.append("<polygon points=\"");
			for (int i = 0; i < xs.length; i++) {
				svg.append(i == 0 ? "" : " ").append(n(xs[i])).append(',').append(n(ys[i]));
			}
			svg.append("\" fill=\"").append(fill).append("\"/>\n");
		}

		String finish() {
			return svg.append("</svg>\n").toString();
		}

		private static String n(double value) {
			return String.format(Locale.ROOT, "%.1f", value);
		}

		private static String escape(String text) {
			StringBuilder out = new StringBuilder(text.length());
			text.codePoints().forEach(c -> {
				switch (c) {
					case '&' -> out.append("&amp;");
					case '<' -> out.append("&lt;");
					case '>' -> out.append("&gt;");
					case '"' -> out.append("&quot;");
					default -> {
						// Characters XML 1.0 cannot hold are left out rather than
						// breaking the image.
						if (c == 0x9 || c == 0xA || c == 0xD || (c >= 0x20 && c <= 0xD7FF)
								|| (c >= 0xE000 && c <= 0xFFFD) || c >= 0x10000) {
							out.appendCodePoint(c);
						}
					}
				}
			});
			return out.toString();
		}

	}

	private static final class ImageCanvas implements Canvas {

		private final Graphics2D graphics;

		ImageCanvas(Graphics2D graphics) {
			this.graphics = graphics;
		}

		@Override
		public void rect(double x, double y, double width, double height, String fill, @Nullable String stroke) {
			Rectangle2D shape = new Rectangle2D.Double(x, y, width, height);
			graphics.setColor(Color.decode(fill));
			graphics.fill(shape);
			if (stroke != null) {
				graphics.setColor(Color.decode(stroke));
				graphics.setStroke(new BasicStroke(1.5f));
				graphics.draw(shape);
			}
		}

		@Override
		public void line(double x1, double y1, double x2, double y2, String colour, double width) {
			graphics.setColor(Color.decode(colour));
			graphics.setStroke(new BasicStroke((float) width));
			graphics.draw(new Line2D.Double(x1, y1, x2, y2));
		}

		@Override
		public void text(String text, double x, double y, double size, boolean bold, String colour, String anchor) {
			graphics.setFont(new Font(Font.SANS_SERIF, bold ? Font.BOLD : Font.PLAIN, (int) Math.round(size)));
			graphics.setColor(Color.decode(colour));
			double width = graphics.getFontMetrics().stringWidth(text);
			double left = switch (anchor) {
				case "end" -> x - width;
				case "middle" -> x - width / 2;
				default -> x;
			};
			graphics.drawString(text, (float) left, (float) y);
		}

		@Override
		public void turnedText(String text, double x, double y, double size, String colour) {
			graphics.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, (int) Math.round(size)));
			graphics.setColor(Color.decode(colour));
			double width = graphics.getFontMetrics().stringWidth(text);
			AffineTransform before = graphics.getTransform();
			graphics.rotate(-Math.PI / 4, x, y);
			graphics.drawString(text, (float) (x - width), (float) y);
			graphics.setTransform(before);
		}

		@Override
		public void polygon(double[] xs, double[] ys, String fill) {
			Path2D shape = new Path2D.Double();
			shape.moveTo(xs[0], ys[0]);
			for (int i = 1; i < xs.length; i++) {
				shape.lineTo(xs[i], ys[i]);
			}
			shape.closePath();
			graphics.setColor(Color.decode(fill));
			graphics.fill(shape);
		}

	}

}
