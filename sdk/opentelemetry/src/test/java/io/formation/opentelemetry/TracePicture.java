package io.formation.opentelemetry;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.sdk.trace.data.LinkData;
import io.opentelemetry.sdk.trace.data.SpanData;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A trace as an SVG timeline: a row per span, indented under its parent, a bar from its start to
 * its end, and each link drawn as a dashed curve to the span it names.
 */
final class TracePicture {
  static final AttributeKey<String> INSTANCE = AttributeKey.stringKey("service.instance.id");

  private static final int WIDTH = 1120;
  private static final int LABEL_WIDTH = 470;
  private static final int BAR_LEFT = LABEL_WIDTH + 20;
  private static final int BAR_WIDTH = WIDTH - BAR_LEFT - 40;
  private static final int TOP = 64;
  private static final int ROW = 22;
  private static final int MIN_BAR = 4;

  private TracePicture() {}

  static String svg(List<SpanData> spans) {
    List<Row> rows = new ArrayList<>();
    Map<String, SpanData> byId = new HashMap<>();
    spans.forEach(span -> byId.put(span.getSpanId(), span));
    spans.stream()
        .filter(span -> !byId.containsKey(span.getParentSpanId()))
        .sorted(ORDER)
        .forEach(root -> addWithChildren(root, 0, spans, rows));
    long start = spans.stream().mapToLong(SpanData::getStartEpochNanos).min().orElse(0);
    long end = spans.stream().mapToLong(SpanData::getEndEpochNanos).max().orElse(start + 1);
    double seconds = Math.max(1, Math.ceil((end - start) / 1e9));
    double perSecond = BAR_WIDTH / seconds;
    int height = TOP + rows.size() * ROW + 96;

    StringBuilder svg = new StringBuilder();
    line(
        svg,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\""
            + " font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\" font-size=\"12\">",
        WIDTH,
        height,
        WIDTH,
        height);
    line(svg, "<rect width=\"100%%\" height=\"100%%\" fill=\"#ffffff\"/>");
    line(
        svg,
        "<text x=\"16\" y=\"24\" font-size=\"15\" font-weight=\"bold\">One formation, one trace:"
            + " created on instance-a, waited for on instance-b</text>");
    line(
        svg,
        "<text x=\"16\" y=\"44\" fill=\"#555\">%d spans, one trace id. Seconds from the first span,"
            + " on the sandbox's simulated clock.</text>",
        spans.size());
    for (int second = 0; second <= seconds; second++) {
      double x = BAR_LEFT + second * perSecond;
      line(
          svg,
          "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#e4e4e4\"/>",
          x,
          TOP - 6,
          x,
          TOP + rows.size() * ROW);
      line(
          svg,
          "<text x=\"%.1f\" y=\"%d\" fill=\"#777\" text-anchor=\"middle\">%d s</text>",
          x,
          TOP - 10,
          second);
    }

    Map<String, double[]> drawn = new HashMap<>();
    for (int i = 0; i < rows.size(); i++) {
      Row row = rows.get(i);
      SpanData span = row.span();
      int y = TOP + i * ROW;
      if (i % 2 == 1) {
        line(
            svg,
            "<rect x=\"0\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"#f7f7f9\"/>",
            y,
            WIDTH,
            ROW);
      }
      double x = BAR_LEFT + (span.getStartEpochNanos() - start) / 1e9 * perSecond;
      double width =
          Math.max(
              MIN_BAR, (span.getEndEpochNanos() - span.getStartEpochNanos()) / 1e9 * perSecond);
      drawn.put(span.getSpanId(), new double[] {x, y + ROW / 2.0});
      line(
          svg,
          "<text x=\"%d\" y=\"%d\"%s>%s</text>",
          16 + row.depth() * 16,
          y + 15,
          span.getKind() == SpanKind.CLIENT ? " fill=\"#444\"" : "",
          escape(label(span)));
      line(
          svg,
          "<text x=\"%d\" y=\"%d\" fill=\"#888\" text-anchor=\"end\">%s</text>",
          LABEL_WIDTH,
          y + 15,
          escape(span.getResource().getAttribute(INSTANCE)));
      line(
          svg,
          "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" rx=\"2\" fill=\"%s\"/>",
          x,
          y + 5,
          width,
          ROW - 10,
          colour(span.getKind()));
    }
    for (Row row : rows) {
      for (LinkData link : row.span().getLinks()) {
        double[] from = drawn.get(row.span().getSpanId());
        double[] to = drawn.get(link.getSpanContext().getSpanId());
        if (from != null && to != null) {
          line(
              svg,
              "<path d=\"M %.1f %.1f C %.1f %.1f, %.1f %.1f, %.1f %.1f\" fill=\"none\""
                  + " stroke=\"#c05621\" stroke-width=\"1.2\" stroke-dasharray=\"4 3\"/>",
              from[0],
              from[1],
              from[0] - 40,
              from[1],
              to[0] - 40,
              to[1],
              to[0],
              to[1]);
        }
      }
    }

    int legend = TOP + rows.size() * ROW + 30;
    legend(svg, 16, legend, colour(SpanKind.SERVER), "the application's span");
    legend(svg, 200, legend, colour(SpanKind.INTERNAL), "a call of the SDK (INTERNAL)");
    legend(svg, 420, legend, colour(SpanKind.CLIENT), "an HTTP attempt (CLIENT)");
    line(
        svg,
        "<path d=\"M 630 %d L 660 %d\" stroke=\"#c05621\" stroke-width=\"1.2\""
            + " stroke-dasharray=\"4 3\"/>",
        legend - 4,
        legend - 4);
    line(svg, "<text x=\"668\" y=\"%d\">a span link, to the creation</text>", legend);
    line(
        svg,
        "<text x=\"16\" y=\"%d\" fill=\"#555\">A call takes milliseconds and a formation days:"
            + " bars are drawn at least %d px wide. Drawn by TracePictureTest"
            + " (sdk/opentelemetry).</text>",
        legend + 26,
        MIN_BAR);
    line(svg, "</svg>");
    return svg.toString();
  }

  private record Row(SpanData span, int depth) {}

  // Start time, then the order ids were given in: the same order every run.
  private static final Comparator<SpanData> ORDER =
      Comparator.comparingLong(SpanData::getStartEpochNanos).thenComparing(SpanData::getSpanId);

  private static void addWithChildren(
      SpanData span, int depth, List<SpanData> all, List<Row> rows) {
    rows.add(new Row(span, depth));
    all.stream()
        .filter(child -> child.getParentSpanId().equals(span.getSpanId()))
        .sorted(ORDER)
        .forEach(child -> addWithChildren(child, depth + 1, all, rows));
  }

  private static String label(SpanData span) {
    StringBuilder label = new StringBuilder(span.getName());
    String form = span.getAttributes().get(FormationOpenTelemetry.FORM_ID);
    if (form != null) {
      label.append("  form ").append(form);
    }
    Long status = span.getAttributes().get(FormationOpenTelemetry.STATUS);
    if (status != null) {
      label.append("  ").append(status);
    }
    if (!span.getLinks().isEmpty()) {
      label.append("  (linked)");
    }
    String state = span.getAttributes().get(FormationOpenTelemetry.STATE);
    if (state != null) {
      label.append("  ").append(state);
    }
    return label.toString();
  }

  private static String colour(SpanKind kind) {
    return switch (kind) {
      case SERVER -> "#805ad5";
      case CLIENT -> "#38a169";
      default -> "#3182ce";
    };
  }

  private static void legend(StringBuilder svg, int x, int y, String colour, String text) {
    line(
        svg,
        "<rect x=\"%d\" y=\"%d\" width=\"22\" height=\"12\" rx=\"2\" fill=\"%s\"/>",
        x,
        y - 10,
        colour);
    line(svg, "<text x=\"%d\" y=\"%d\">%s</text>", x + 30, y, escape(text));
  }

  private static void line(StringBuilder svg, String format, Object... args) {
    svg.append(String.format(Locale.ROOT, format, args)).append('\n');
  }

  private static String escape(String text) {
    return text == null ? "" : text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
  }
}
