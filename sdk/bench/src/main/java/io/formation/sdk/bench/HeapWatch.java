package io.formation.sdk.bench;

import com.sun.management.GarbageCollectionNotificationInfo;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryUsage;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import javax.management.ListenerNotFoundException;
import javax.management.Notification;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
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
