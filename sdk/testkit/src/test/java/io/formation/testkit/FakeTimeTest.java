package io.formation.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

class FakeTimeTest {
  @Test
  void aSleepPassesItsTimeAtOnceOnBothClocksAndIsRecorded() throws Exception {
    FakeTime time = new FakeTime();
    time.sleep(Duration.ofSeconds(2));
    assertThat(time.delay(Duration.ofMillis(500))).isCompleted();

    assertThat(time.nanoTime()).isEqualTo(Duration.ofMillis(2500).toNanos());
    assertThat(time.instant()).isEqualTo(FakeTime.START.plusMillis(2500));
    assertThat(time.sleeps()).containsExactly(Duration.ofSeconds(2), Duration.ofMillis(500));
  }

  @Test
  void advancingIsTimePassingThatNobodyAskedToSleep() {
    FakeTime time = new FakeTime(Instant.parse("2025-03-04T05:06:07Z"));
    time.advance(Duration.ofMinutes(1));
    assertThat(time.instant()).isEqualTo(Instant.parse("2025-03-04T05:07:07Z"));
    assertThat(time.nanoTime()).isEqualTo(Duration.ofMinutes(1).toNanos());
    assertThat(time.sleeps()).isEmpty();
  }

  @Test
  void aStepOfTheWallClockLeavesTheMonotonicReadingAlone() {
    FakeTime time = new FakeTime();
    time.stepWallClock(Duration.ofHours(-1));
    assertThat(time.instant()).isEqualTo(FakeTime.START.minusSeconds(3600));
    assertThat(time.nanoTime()).isZero();
  }

  @Test
  void anInterruptedThreadCannotSleep() {
    FakeTime time = new FakeTime();
    Thread.currentThread().interrupt();
    try {
      assertThatThrownBy(() -> time.sleep(Duration.ofSeconds(1)))
          .isInstanceOf(InterruptedException.class);
    } finally {
      Thread.interrupted();
    }
    assertThat(time.sleeps()).isEmpty();
  }

  @Test
  void timeNeverMovesBack() {
    FakeTime time = new FakeTime();
    assertThatThrownBy(() -> time.advance(Duration.ofSeconds(-1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("PT-1S");
  }

  @Test
  void manualDelaysEndInOrderEachAtItsOwnTimeWhenTheTestAdvancesPastThem() {
    FakeTime time = FakeTime.manual();
    List<String> ended = new ArrayList<>();
    CompletableFuture<Void> late = time.delay(Duration.ofSeconds(3));
    late.thenRun(() -> ended.add("late at " + time.nanoTime()));
    CompletableFuture<Void> early = time.delay(Duration.ofSeconds(1));
    early.thenRun(() -> ended.add("early at " + time.nanoTime()));

    time.advance(Duration.ofMillis(999));
    assertThat(early).isNotDone();
    time.advance(Duration.ofSeconds(5));

    assertThat(ended)
        .containsExactly(
            "early at " + Duration.ofSeconds(1).toNanos(),
            "late at " + Duration.ofSeconds(3).toNanos());
    assertThat(time.nanoTime()).isEqualTo(Duration.ofMillis(5999).toNanos());
  }

  @Test
  void aManualDelayAskedForWhileAnotherEndsIsPassedInTheSameAdvance() {
    FakeTime time = FakeTime.manual();
    CompletableFuture<Void> second = new CompletableFuture<>();
    time.delay(Duration.ofSeconds(1))
        .thenRun(() -> time.delay(Duration.ofSeconds(1)).thenRun(() -> second.complete(null)));
    time.advance(Duration.ofSeconds(2));
    assertThat(second).isCompleted();
  }

  @Test
  void aManualTimeRefusesToBlockAndClosingItFailsTheDelaysStillWaiting() {
    FakeTime time = FakeTime.manual();
    assertThatThrownBy(() -> time.sleep(Duration.ofSeconds(1)))
        .isInstanceOf(UnsupportedOperationException.class);
    CompletableFuture<Void> waiting = time.delay(Duration.ofSeconds(1));
    assertThat(time.delay(Duration.ZERO)).isCompleted();
    time.close();
    assertThat(waiting).isCompletedExceptionally();
  }
}
