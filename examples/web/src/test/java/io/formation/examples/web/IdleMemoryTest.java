package io.formation.examples.web;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.tools.attach.VirtualMachine;
import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import javax.management.MBeanServerConnection;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The backend at rest holds no more memory than its budget. It is started as {@code java -jar}
 * starts it: a JVM of its own, the main class path, the default configuration (an HSQLDB file,
 * Flyway, tracking, the embedded sandbox). Once it says where to open the page, the figure is its
 * heap after a full GC plus what its classes and compiled code hold (metaspace and code cache):
 * what the application itself keeps, whatever heap the JVM chose to reserve on this machine.
 */
class IdleMemoryTest {
  /** About 90 MiB (docs/benchmarks.md): a third more, below the 40 MiB a database once added. */
  static final long BUDGET_MIB = 120;

  private static final long MIB = 1024 * 1024;

  @RegisterExtension static final HangGuard GUARD = HangGuard.of(Duration.ofMinutes(1));

  @Test
  void theBackendStartsWithoutASchedulerWarningAndAtRestStaysWithinItsMemoryBudget(
      @TempDir Path workingDirectory) throws Exception {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Process backend =
        new ProcessBuilder(
                java, "-cp", mainClassPath(), WebExample.class.getName(), "--server.port=0")
            .directory(workingDirectory.toFile())
            .redirectErrorStream(true)
            .start();
    try {
      // Read on, to its end, by a thread of its own: a reader closed under a reading thread waits.
      BufferedReader log =
          new BufferedReader(
              new InputStreamReader(backend.getInputStream(), StandardCharsets.UTF_8));
      List<String> started = new ArrayList<>();
      String line;
      do {
        line = log.readLine();
        assertThat(line).as("the backend's log, before it said where to open the page").isNotNull();
        started.add(line);
      } while (!line.contains("Open http://localhost:"));
      // db-scheduler warns at start about a database it does not know, unless told which it is.
      assertThat(started)
          .noneMatch(logged -> logged.contains(" WARN ") && logged.contains("c.g.k.s"))
          .noneMatch(logged -> logged.contains("jdbc-overrides"));
      Thread drain = new Thread(() -> log.lines().forEach(rest -> {}), "idle-memory-log");
      drain.setDaemon(true);
      drain.start();

      long held = heldAfterFullGc(backend.pid());
      System.out.printf(
          "IdleMemoryTest: the backend at rest holds %.1f MiB (budget %d MiB)%n",
          held / (double) MIB, BUDGET_MIB);
      assertThat(held).isLessThan(BUDGET_MIB * MIB);
    } finally {
      backend.destroy();
      backend.waitFor();
    }
  }

  /** Heap used after a full GC, plus metaspace and the code cache, read over the JVM's JMX. */
  private static long heldAfterFullGc(long pid) throws Exception {
    VirtualMachine vm = VirtualMachine.attach(Long.toString(pid));
    try (JMXConnector jmx =
        JMXConnectorFactory.connect(new JMXServiceURL(vm.startLocalManagementAgent()))) {
      MBeanServerConnection server = jmx.getMBeanServerConnection();
      MemoryMXBean memory =
          ManagementFactory.newPlatformMXBeanProxy(
              server, ManagementFactory.MEMORY_MXBEAN_NAME, MemoryMXBean.class);
      memory.gc();
      long heap = memory.getHeapMemoryUsage().getUsed();
      // The compressed class space is a part of the metaspace, so it is not counted again.
      long nonHeap =
          ManagementFactory.getPlatformMXBeans(server, MemoryPoolMXBean.class).stream()
              .filter(pool -> pool.getType() == MemoryType.NON_HEAP)
              .filter(pool -> !pool.getName().equals("Compressed Class Space"))
              .mapToLong(pool -> pool.getUsage().getUsed())
              .sum();
      return heap + nonHeap;
    } finally {
      vm.detach();
    }
  }

  /** The class path surefire runs the tests with, without the tests' own classes and resources. */
  private static String mainClassPath() {
    String testClassPath =
        System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    return Arrays.stream(testClassPath.split(File.pathSeparator))
        .filter(entry -> !entry.endsWith("test-classes"))
        .collect(Collectors.joining(File.pathSeparator));
  }
}
