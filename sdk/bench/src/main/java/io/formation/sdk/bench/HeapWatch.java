package io.formation.sdk.bench;

import com.sun.management.GarbageCollectionNotificationInfo;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryUsage;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import javax.management.JMException;
import javax.management.ListenerNotFoundException;
import javax.management.Notification;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.ObjectName;
import javax.management.openmbean.CompositeData;

/**
 * The peak of the used heap, without a sampling thread: the heap is fullest just before a
 * collection, and each collection reports its before and after figures. {@link #peakUsedBytes()} is
 * the largest "before" seen (or the current use if larger), {@link #peakLiveBytes()} the largest
 * "after": an upper bound on what was really reachable at any time.
 */
final class HeapWatch implements NotificationListener, AutoCloseable {
  private final AtomicLong peakUsed = new AtomicLong();
  private final AtomicLong peakLive = new AtomicLong();
  private final AtomicLong collections = new AtomicLong();

  HeapWatch() {
    for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      ((NotificationEmitter) gc).addNotificationListener(this, null, null);
    }
    reset();
  }

  /** Starts a new measurement from the current use. */
  void reset() {
    long used = usedNow();
    peakUsed.set(used);
    peakLive.set(0);
    collections.set(0);
  }

  long peakUsedBytes() {
    return Math.max(peakUsed.get(), usedNow());
  }

  /** The largest heap left after a collection; 0 if none ran. */
  long peakLiveBytes() {
    return peakLive.get();
  }

  long collections() {
    return collections.get();
  }

  static long usedNow() {
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }

  static long maxHeap() {
    return Runtime.getRuntime().maxMemory();
  }

  /** The used heap after a full collection: what is reachable now. */
  static long liveNow() {
    System.gc();
    return usedNow();
  }

  /**
   * With {@code -Dbench.histogram=true} (run the benchmark's main class with it), a class histogram
   * of what is reachable now, read before the baseline's {@link #liveNow()} so that the map itself
   * is in both figures; otherwise null. For finding what a waiting set holds; see {@link
   * #printGrowth}.
   */
  static Map<String, long[]> histogram() {
    if (!Boolean.getBoolean("bench.histogram")) {
      return null;
    }
    try {
      String text =
          (String)
              ManagementFactory.getPlatformMBeanServer()
                  .invoke(
                      new ObjectName("com.sun.management:type=DiagnosticCommand"),
                      "gcClassHistogram",
                      new Object[] {new String[0]},
                      new String[] {String[].class.getName()});
      Map<String, long[]> classes = new HashMap<>();
      for (String line : text.split("\n")) {
        // "   1:      10000     800000  io.formation.sdk.WaitState"
        String[] fields = line.trim().split("\\s+");
        if (fields.length >= 4 && fields[0].endsWith(":")) {
          classes.put(fields[3], new long[] {Long.parseLong(fields[1]), Long.parseLong(fields[2])});
        }
      }
      return classes;
    } catch (JMException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * Prints the classes that grew (or shrank) by a tenth of an instance or two bytes per set since
   * {@code before}, if the histograms are on.
   */
  static void printGrowth(String label, Map<String, long[]> before, int sets) {
    Map<String, long[]> after = histogram();
    if (before == null || after == null) {
      return;
    }
    System.out.printf("%s: what each of %,d waiting sets holds (instances, bytes)%n", label, sets);
    after.entrySet().stream()
        .map(
            e -> {
              long[] was = before.getOrDefault(e.getKey(), new long[2]);
              return Map.entry(
                  e.getKey(),
                  new double[] {
                    (double) (e.getValue()[0] - was[0]) / sets,
                    (double) (e.getValue()[1] - was[1]) / sets
                  });
            })
        .filter(e -> Math.abs(e.getValue()[0]) >= 0.1 || Math.abs(e.getValue()[1]) >= 2)
        .sorted((a, b) -> Double.compare(b.getValue()[1], a.getValue()[1]))
        .forEach(
            e ->
                System.out.printf(
                    "  %6.2f %7.1f B  %s%n", e.getValue()[0], e.getValue()[1], e.getKey()));
  }

  @Override
  public void handleNotification(Notification notification, Object handback) {
    if (!notification
        .getType()
        .equals(GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION)) {
      return;
    }
    GarbageCollectionNotificationInfo info =
        GarbageCollectionNotificationInfo.from((CompositeData) notification.getUserData());
    peakUsed.accumulateAndGet(total(info.getGcInfo().getMemoryUsageBeforeGc()), Math::max);
    peakLive.accumulateAndGet(total(info.getGcInfo().getMemoryUsageAfterGc()), Math::max);
    collections.incrementAndGet();
  }

  /** Heap pools only: the GC notifications also list non-heap pools such as the code cache. */
  private static long total(Map<String, MemoryUsage> pools) {
    long sum = 0;
    for (var pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == java.lang.management.MemoryType.HEAP) {
        MemoryUsage usage = pools.get(pool.getName());
        if (usage != null) {
          sum += usage.getUsed();
        }
      }
    }
    return sum;
  }

  @Override
  public void close() {
    for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      try {
        ((NotificationEmitter) gc).removeNotificationListener(this);
      } catch (ListenerNotFoundException e) {
        // Never added: nothing to remove.
      }
    }
  }

  static String mib(long bytes) {
    return String.format("%.1f MiB", bytes / (1024.0 * 1024.0));
  }
}
