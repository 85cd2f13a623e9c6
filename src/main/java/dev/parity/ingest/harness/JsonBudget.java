package dev.parity.ingest.harness;

import java.util.Arrays;
import java.util.Locale;

import org.jspecify.annotations.Nullable;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.TokenStreamLocation;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * What is left of the {@link JsonLimits} of one upload, counted token by token as its
 * JSON (or YAML) is read: a value beyond a limit stops the reading at once with an
 * {@link ImportTooLarge} naming the limit, before the tree that would not fit is built.
 * Only values read successfully stay counted (a reading that fails as not JSON gives its
 * count back), so a file read both as JSON and as JSON Lines counts once.
 *
 * <p>
 * {@link #check} only counts (nothing is allocated: a refused file costs no memory), for
 * readers that then build their own structure from the same bytes; {@link #read} builds
 * the tree while counting, for streamed documents.
 */
public final class JsonBudget {

	/** Stands for every value when only counting. */
	private static final JsonNode MARK = JsonNodeFactory.instance.nullNode();

	private final JsonLimits limits;

	private long used;

	public JsonBudget(JsonLimits limits) {
		this.limits = limits;
	}

	/** A budget of its own for one file or document. */
	public static JsonBudget of(JsonLimits limits) {
		return new JsonBudget(limits);
	}

	public JsonLimits limits() {
		return limits;
	}

	/** Values counted so far. */
	public long used() {
		return used;
	}

	/**
	 * Gives back what was counted since {@link #used()} was {@code mark}: a reading that
	 * failed holds nothing.
	 */
	public void reset(long mark) {
		used = mark;
	}

	/**
	 * Counts the next value of the parser (its tokens consumed) against the limits;
	 * {@code false} at the end of the input.
	 * @param name the file, for the message
	 * @throws ImportTooLarge when the value goes beyond a limit
	 */
	public boolean check(JsonParser parser, String name) {
		return walk(parser, name, false) != null;
	}

	/**
	 * The next value of the parser as a tree, built as Jackson builds it
	 * ({@code readValueAsTree}) while counting; {@code null} at the end of the input.
	 * @param name the file, for the message
	 * @throws ImportTooLarge when the value goes beyond a limit
	 */
	public @Nullable JsonNode read(JsonParser parser, String name) {
		return walk(parser, name, true);
	}

	/**
	 * Reads the value the parser is positioned at (its first token already read) as a
	 * tree, counting.
	 */
	public JsonNode readCurrent(JsonParser parser, String name) {
		return walkFrom(parser, parser.currentToken(), name, true);
	}

	private @Nullable JsonNode walk(JsonParser parser, String name, boolean build) {
		JsonToken token = parser.nextToken();
		if (token == null) {
			return null;
		}
		return walkFrom(parser, token, name, build);
	}

	private JsonNode walkFrom(JsonParser parser, JsonToken first, String name, boolean build) {
		JsonNodeFactory nodes = JsonNodeFactory.instance;
		long count = used;
		JsonNode[] stack = new JsonNode[16];
		int[] lengths = new int[16];
		String[] names = new String[16];
		int depth = 0;
		JsonToken token = first;
		while (true) {
			JsonNode value;
			switch (token) {
				case START_OBJECT -> value = build ? nodes.objectNode() : MARK;
				case START_ARRAY -> value = build ? nodes.arrayNode() : MARK;
				case END_OBJECT, END_ARRAY -> {
					depth--;
					if (depth == 0) {
						used = count;
						return build ? stack[0] : MARK;
					}
					token = parser.nextToken();
					continue;
				}
				case PROPERTY_NAME -> {
					names[depth - 1] = parser.currentName();
					token = parser.nextToken();
					continue;
				}
				default -> value = build ? scalar(parser, token, nodes) : MARK;
			}
			if (++count > limits.maxNodes()) {
				throw new ImportTooLarge(name + ": more than " + number(limits.maxNodes())
						+ " JSON values in the upload, all files together (parity.limits.max-json-nodes); upload fewer or"
						+ " smaller files");
			}
			if (depth > 0) {
				if (lengths[depth - 1]++ >= limits.maxArrayLength() && isArray(stack[depth - 1], names[depth - 1])) {
					throw new ImportTooLarge(name + ": an array of more than " + number(limits.maxArrayLength())
							+ " values" + where(parser) + " (parity.limits.max-json-array-length)");
				}
				if (build) {
					if (stack[depth - 1] instanceof ObjectNode object) {
						object.set(names[depth - 1], value);
					}
					else {
						((ArrayNode) stack[depth - 1]).add(value);
					}
				}
			}
			if (token == JsonToken.START_OBJECT || token == JsonToken.START_ARRAY) {
				if (depth >= limits.maxDepth()) {
					throw new ImportTooLarge(name + ": nested more than " + limits.maxDepth() + " levels deep"
							+ where(parser) + " (parity.limits.max-json-depth)");
				}
				if (depth == stack.length) {
					stack = Arrays.copyOf(stack, depth * 2);
					lengths = Arrays.copyOf(lengths, depth * 2);
					names = Arrays.copyOf(names, depth * 2);
				}
				stack[depth] = value;
				lengths[depth] = 0;
				// Counting only: whether the container is an array is kept as a null
				// name.
				names[depth] = token == JsonToken.START_ARRAY ? null : "";
				depth++;
			}
			else if (depth == 0) {
				used = count;
				return value;
			}
			token = parser.nextToken();
		}
	}

	/**
	 * Whether the container at the top is an array: with a tree, its node says; counting
	 * only, an array's name slot is {@code null} (an object's holds its current property
	 * name).
	 */
	private static boolean isArray(JsonNode container, @Nullable String name) {
		return container == MARK ? name == null : container instanceof ArrayNode;
	}

	private static JsonNode scalar(JsonParser parser, JsonToken token, JsonNodeFactory nodes) {
		return switch (token) {
			case VALUE_STRING -> nodes.stringNode(parser.getString());
			case VALUE_NUMBER_INT -> switch (parser.getNumberType()) {
				case INT -> nodes.numberNode(parser.getIntValue());
				case LONG -> nodes.numberNode(parser.getLongValue());
				default -> nodes.numberNode(parser.getBigIntegerValue());
			};
			case VALUE_NUMBER_FLOAT -> switch (parser.getNumberTypeFP()) {
				case BIG_DECIMAL -> nodes.numberNode(parser.getDecimalValue());
				case FLOAT32 -> nodes.numberNode(parser.getFloatValue());
				default -> nodes.numberNode(parser.getDoubleValue());
			};
			case VALUE_TRUE -> nodes.booleanNode(true);
			case VALUE_FALSE -> nodes.booleanNode(false);
			case VALUE_NULL -> nodes.nullNode();
			case VALUE_EMBEDDED_OBJECT -> {
				Object embedded = parser.getEmbeddedObject();
				yield embedded == null ? nodes.nullNode()
						: embedded instanceof byte[] bytes ? nodes.binaryNode(bytes) : nodes.pojoNode(embedded);
			}
			default -> throw new IllegalStateException("unexpected token " + token);
		};
	}

	private static String where(JsonParser parser) {
		TokenStreamLocation location = parser.currentTokenLocation();
		return location == null || location.getLineNr() <= 0 ? ""
				: " at line " + location.getLineNr() + ", column " + location.getColumnNr();
	}

	static String number(long value) {
		return String.format(Locale.ROOT, "%,d", value);
	}

}
