package dev.parity.ingest.harness;

import java.io.ByteArrayInputStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;

import org.jspecify.annotations.Nullable;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Reads the software environment from files uploaded beside a harness's own: the text of
 * {@code vllm collect-env} (or PyTorch's {@code collect_env}, old and sectioned layouts),
 * the XML of {@code nvidia-smi -q -x}, and the text of {@code pip freeze}. What they give
 * becomes the run's {@code environment}: gpu, gpu count, driver and CUDA from nvidia-smi
 * before collect-env; packages from pip freeze before collect-env's short list; os and
 * kernel from collect-env. The harness importers skip these files, as they skip any file
 * that is not theirs.
 */
final class EnvironmentFiles {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	/** The characters of a field's name after its first letter ({@code Key: value}). */
	private static final String KEY_CHARACTERS = " _./()-";

	private static final Pattern GPU_LINE = Pattern.compile("^\\s*+GPU (\\d++): (.+)$");

	/**
	 * {@code Linux-5.15.0-107-generic-x86_64-with-glibc2.31} →
	 * {@code 5.15.0-107-generic}.
	 */
	private static final Pattern KERNEL = Pattern
		.compile("^Linux-(.+?)-(x86_64|aarch64|arm64|ppc64le|s390x)(-with-.*+)?$");

	private static final Pattern PIP_LINE = Pattern
		.compile("^([A-Za-z0-9][A-Za-z0-9._-]*+)(\\[[^\\]]*+\\])?+\\s*+(===?|@)\\s*+(\\S.*)$");

	private static final Set<String> UNKNOWN = Set.of("could not collect", "n/a", "no cuda", "none", "");

	private EnvironmentFiles() {
	}

	/**
	 * What the environment files among these give, with a note per file read; empty when
	 * there are none.
	 */
	record Found(@Nullable ObjectNode environment, List<String> notes) {
	}

	static Found read(List<ParsedFile> files) {
		Map<String, Object> fromCollectEnv = new LinkedHashMap<>();
		Map<String, Object> fromNvidiaSmi = new LinkedHashMap<>();
		Map<String, String> collectEnvPackages = new LinkedHashMap<>();
		Map<String, String> frozen = new LinkedHashMap<>();
		List<String> notes = new ArrayList<>();
		for (ParsedFile file : files) {
			if (file.looksLikeJson()) {
				continue;
			}
			String text = file.text();
			if (isCollectEnv(text)) {
				collectEnv(text, fromCollectEnv, collectEnvPackages);
				notes.add("environment read from " + file.name() + " (collect-env)");
			}
			else if (text.contains("<nvidia_smi_log")) {
				nvidiaSmi(file, fromNvidiaSmi);
				notes.add("environment read from " + file.name() + " (nvidia-smi -q -x)");
			}
			else if (isPipFreeze(text)) {
				pipFreeze(text, frozen);
				notes.add("Python packages read from " + file.name() + " (pip freeze)");
			}
		}
		if (notes.isEmpty()) {
			return new Found(null, List.of());
		}
		Map<String, Object> merged = new LinkedHashMap<>(fromCollectEnv);
		merged.putAll(fromNvidiaSmi);
		ObjectNode environment = JSON.createObjectNode();
		for (String field : List.of("gpu", "gpu_count", "driver", "cuda", "os", "kernel")) {
			Object value = merged.get(field);
			if (value instanceof Integer number) {
				environment.put(field, number);
			}
			else if (value != null) {
				environment.put(field, value.toString());
			}
		}
		Map<String, String> packages = new LinkedHashMap<>(collectEnvPackages);
		packages.putAll(frozen);
		if (!packages.isEmpty()) {
			ObjectNode python = environment.putObject("python_packages");
			packages.forEach(python::put);
		}
		return new Found(environment, notes);
	}

	static boolean isCollectEnv(String text) {
		return text.contains("Collecting environment information")
				|| (text.contains("PyTorch version") && text.contains("Nvidia driver version"));
	}

	private static void collectEnv(String text, Map<String, Object> environment, Map<String, String> packages) {
		String[] lines = text.split("\\R");
		for (int i = 0; i < lines.length; i++) {
			String line = lines[i];
			if (line.startsWith("[pip3] ") || line.startsWith("[pip] ")) {
				Matcher pip = PIP_LINE.matcher(line.substring(line.indexOf(']') + 2).strip());
				if (pip.matches() && !pip.group(3).equals("@")) {
					packages.put(packageName(pip.group(1)), pip.group(4).strip());
				}
				continue;
			}
			String[] field = field(line);
			if (field == null) {
				continue;
			}
			String key = field[0];
			String value = field[1];
			switch (key) {
				case "Nvidia driver version" -> known(value).ifPresent(v -> environment.put("driver", v));
				case "CUDA runtime version" -> known(value).ifPresent(v -> environment.put("cuda", v));
				case "OS" -> known(value).ifPresent(v -> environment.put("os", withoutLastParentheses(v)));
				case "Python platform" -> {
					Matcher kernel = KERNEL.matcher(value);
					if (kernel.matches()) {
						environment.put("kernel", kernel.group(1));
					}
				}
				case "GPU models and configuration" -> {
					List<String> gpus = new ArrayList<>();
					Matcher first = GPU_LINE.matcher(value);
					if (first.matches()) {
						gpus.add(first.group(2).strip());
					}
					for (int j = i + 1; j < lines.length; j++) {
						Matcher next = GPU_LINE.matcher(lines[j]);
						if (!next.matches()) {
							break;
						}
						gpus.add(next.group(2).strip());
					}
					if (!gpus.isEmpty()) {
						environment.put("gpu", String.join(" + ", new LinkedHashSet<>(gpus)));
						environment.put("gpu_count", gpus.size());
					}
				}
				default -> {
				}
			}
		}
	}

	/**
	 * The name and value of a {@code Key: value} line (old layout) or
	 * {@code Key      : value} (sectioned layout), both stripped; {@code null} for any
	 * other line. The name is what comes before the first colon: a letter, then letters,
	 * digits and {@code  _./()-}, then white space. One pass over the line (a regular
	 * expression with a lazy name followed by white space took time in the square of a
	 * long line's length).
	 */
	static String @Nullable [] field(String line) {
		int colon = line.indexOf(':');
		if (colon < 1 || !isAsciiLetter(line.charAt(0))) {
			return null;
		}
		int end = colon;
		while (end > 1 && isWhitespace(line.charAt(end - 1))) {
			end--;
		}
		for (int i = 1; i < end; i++) {
			char c = line.charAt(i);
			if (!isAsciiLetter(c) && !(c >= '0' && c <= '9') && KEY_CHARACTERS.indexOf(c) < 0) {
				return null;
			}
		}
		return new String[] { line.substring(0, end).strip(), line.substring(colon + 1).strip() };
	}

	/**
	 * The text without the parenthesised part it ends with and the white space before it
	 * ({@code Ubuntu 22.04.4 LTS
	 * (x86_64)} → {@code Ubuntu 22.04.4 LTS}), as
	 * {@code replaceFirst("\\s*\\([^)]*\\)$", "")} gives it, in one pass.
	 */
	static String withoutLastParentheses(String text) {
		int last = text.length() - 1;
		if (last < 0 || text.charAt(last) != ')') {
			return text;
		}
		// The leftmost '(' after the ')' before the last one: nothing between it and the
		// end is a ')'.
		int open = text.indexOf('(', text.lastIndexOf(')', last - 1) + 1);
		if (open < 0 || open >= last) {
			return text;
		}
		int start = open;
		while (start > 0 && isWhitespace(text.charAt(start - 1))) {
			start--;
		}
		return text.substring(0, start);
	}

	private static boolean isAsciiLetter(char c) {
		return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
	}

	/** White space as {@code \\s} means it in a regular expression. */
	private static boolean isWhitespace(char c) {
		return c == ' ' || c == '\t' || c == '\n' || c == '\u000B' || c == '\f' || c == '\r';
	}

	private static void nvidiaSmi(ParsedFile file, Map<String, Object> environment) {
		Document xml = parseXml(file);
		Element log = xml.getDocumentElement();
		known(childText(log, "driver_version")).ifPresent(v -> environment.put("driver", v));
		known(childText(log, "cuda_version")).ifPresent(v -> environment.put("cuda", v));
		List<String> gpus = new ArrayList<>();
		NodeList gpuNodes = log.getElementsByTagName("gpu");
		for (int i = 0; i < gpuNodes.getLength(); i++) {
			String product = childText((Element) gpuNodes.item(i), "product_name");
			if (product != null && !product.isBlank()) {
				gpus.add(product.strip());
			}
		}
		if (!gpus.isEmpty()) {
			environment.put("gpu", String.join(" + ", new LinkedHashSet<>(gpus)));
			environment.put("gpu_count", gpus.size());
		}
	}

	/**
	 * XML without DTDs or external entities: an uploaded file must not make the server
	 * read anything else.
	 */
	private static Document parseXml(ParsedFile file) {
		try {
			DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
			factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
			factory.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
			factory.setFeature("http://xml.org/sax/features/external-general-entities", false);
			factory.setFeature("http://xml.org/sax/features/external-parameter-entities", false);
			factory.setAttribute(XMLConstants.ACCESS_EXTERNAL_DTD, "");
			factory.setAttribute(XMLConstants.ACCESS_EXTERNAL_SCHEMA, "");
			factory.setExpandEntityReferences(false);
			DocumentBuilder builder = factory.newDocumentBuilder();
			builder.setErrorHandler(null);
			return builder.parse(new ByteArrayInputStream(file.bytes()));
		}
		catch (Exception ex) {
			throw new ImportRejected(file.name() + ": not readable as nvidia-smi -q -x XML: " + ex.getMessage());
		}
	}

	private static @Nullable String childText(Element parent, String name) {
		for (Node child = parent.getFirstChild(); child != null; child = child.getNextSibling()) {
			if (child instanceof Element element && element.getTagName().equals(name)) {
				return element.getTextContent().strip();
			}
		}
		return null;
	}

	/**
	 * Every line that says something is {@code name==version} (or {@code name @ url}),
	 * and at least one pins.
	 */
	static boolean isPipFreeze(String text) {
		boolean pinned = false;
		for (String line : text.split("\\R")) {
			String stripped = line.strip();
			if (stripped.isEmpty() || stripped.startsWith("#") || stripped.startsWith("-e ")) {
				continue;
			}
			Matcher pip = PIP_LINE.matcher(stripped);
			if (!pip.matches()) {
				return false;
			}
			pinned |= pip.group(3).startsWith("==");
		}
		return pinned;
	}

	private static void pipFreeze(String text, Map<String, String> packages) {
		for (String line : text.split("\\R")) {
			Matcher pip = PIP_LINE.matcher(line.strip());
			if (pip.matches()) {
				packages.put(packageName(pip.group(1)), pip.group(4).strip());
			}
		}
	}

	/**
	 * Package names as pip compares them (PEP 503): lower case, runs of {@code -_.} as
	 * one {@code -}.
	 */
	static String packageName(String name) {
		return name.toLowerCase(Locale.ROOT).replaceAll("[-_.]+", "-");
	}

	private static Optional<String> known(@Nullable String value) {
		return value == null || UNKNOWN.contains(value.strip().toLowerCase(Locale.ROOT)) ? Optional.empty()
				: Optional.of(value.strip());
	}

}
