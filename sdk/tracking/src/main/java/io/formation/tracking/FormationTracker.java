package io.formation.tracking;

import com.github.kagkarlsson.scheduler.ScheduledExecution;
import com.github.kagkarlsson.scheduler.ScheduledExecutionsFilter;
import com.github.kagkarlsson.scheduler.Scheduler;
import com.github.kagkarlsson.scheduler.SchedulerBuilder;
import com.github.kagkarlsson.scheduler.SchedulerName;
import com.github.kagkarlsson.scheduler.exceptions.TaskInstanceCurrentlyExecutingException;
import com.github.kagkarlsson.scheduler.exceptions.TaskInstanceNotFoundException;
import com.github.kagkarlsson.scheduler.task.TaskInstance;
import com.github.kagkarlsson.scheduler.task.TaskInstanceId;
import com.github.kagkarlsson.scheduler.task.helper.CustomTask;
import com.github.kagkarlsson.scheduler.task.helper.Tasks;
import io.formation.sdk.FormationClient;
import io.formation.sdk.PollOptions;
import io.formation.sdk.WaitState;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Consumer;
import javax.sql.DataSource;

/**
 * Tracks document sets until they are complete, across restarts and over several instances, on the
 * partner's own database. Each tracked set is one row of one table, a db-scheduler task instance
 * whose data is the set's saved {@link WaitState}; whichever instance finds it due polls the set
 * once through the partner's {@link FormationClient} (so its request budget and shared pause
 * apply), tells the {@link TrackingHandler} what changed, and saves the wait with its next poll
 * time. An instance that dies mid-poll leaves its sets to the others after a few missed heartbeats.
 *
 * <pre>{@code
 * FormationTracker tracker =
 *     FormationTracker.builder(client, dataSource, handler)   // the table: see docs/tracking.md
 *         .build();
 * tracker.start();
 * tracker.track(set.id());             // survives restarts; idempotent
 * ...
 * tracker.close();                     // on shutdown; the sets stay tracked in the table
 * }</pre>
 *
 * <p>Thread-safe. The table comes from the SQL file shipped for the database ({@value
 * #POSTGRESQL_SQL}, {@value #HSQLDB_SQL}), and is named {@value #DEFAULT_TABLE} unless {@link
 * Builder#tableName} says otherwise.
 */
public final class FormationTracker implements AutoCloseable {

  /** The table's name unless told otherwise. */
  public static final String DEFAULT_TABLE = "formation_tracking";

  /** The name of the db-scheduler task every tracked set is an instance of. */
  public static final String TASK_NAME = "formation-track-document-set";

  /** The class path resource that creates the table on PostgreSQL, a Flyway migration too. */
  public static final String POSTGRESQL_SQL =
      "io/formation/tracking/db/postgresql/V1__formation_tracking.sql";

  /** The class path resource that creates the table on HSQLDB, a Flyway migration too. */
  public static final String HSQLDB_SQL =
      "io/formation/tracking/db/hsqldb/V1__formation_tracking.sql";

  private final FormationClient client;
  private final PollOptions pollOptions;
  private final Clock clock;
  private final Scheduler scheduler;

  private FormationTracker(Builder builder) {
    this.client = builder.client;
    this.pollOptions = builder.pollOptions;
    this.clock = builder.clock;
    PollTask pollTask =
        new PollTask(
            client,
            pollOptions,
            builder.handler,
            clock,
            builder.pauseOnRefusal,
            builder.retryAfterFailure);
    CustomTask<String> task =
        Tasks.custom(TASK_NAME, String.class)
            .onFailure(pollTask::onFailure)
            // Revived as it was: the dead instance never saved what it saw, so it is seen again.
            .onDeadExecutionRevive()
            .execute(pollTask::execute);
    SchedulerBuilder schedulerBuilder =
        Scheduler.create(builder.dataSource, task)
            .tableName(builder.tableName)
            .serializer(new WaitSerializer())
            .threads(builder.threads)
            .pollingInterval(builder.pollingInterval)
            .heartbeatInterval(builder.heartbeatInterval)
            .missedHeartbeatsLimit(builder.missedHeartbeats)
            .clock(clock::instant)
            // A poll that asks for its next one soon is picked up without waiting a full
            // pollingInterval, by this instance if it has a free thread.
            .enableImmediateExecution();
    builder.schedulerName.ifPresent(
        name -> schedulerBuilder.schedulerName(new SchedulerName.Fixed(name)));
    builder.customizer.accept(schedulerBuilder);
    this.scheduler = schedulerBuilder.build();
  }

  /**
   * Starts building a tracker.
   *
   * @param client the client every poll goes through, shared with the rest of the application
   * @param dataSource where the table is; a pooled one in production
   * @param handler told of state changes, completion and the rest
   * @return a builder
   */
  public static Builder builder(
      FormationClient client, DataSource dataSource, TrackingHandler handler) {
    return new Builder(client, dataSource, handler);
  }

  /** Starts polling the sets that fall due. Sets can be tracked before and after. */
  public void start() {
    scheduler.start();
  }

  /**
   * Tracks a set from now on, with a new wait. Does nothing if it is tracked already, by this
   * instance or another: the wait saved for it is kept.
   *
   * @param setId the set's id
   * @return whether the set was not tracked before
   * @throws IllegalArgumentException if the id is not a document set id
   */
  public boolean track(String setId) {
    WaitState wait = client.documentSets().startWait(setId, pollOptions);
    return schedule(wait, firstPoll(wait, pollOptions.firstPollWithin()));
  }

  /**
   * Tracks a set from a wait saved before, say by an {@code awaitCompletion} interrupted by a
   * restart: its grace, backoff and deadline go on as if it had never stopped. The first poll comes
   * within the wait's current interval, so that many sets resumed at once do not poll at once. Does
   * nothing if the set is tracked already.
   *
   * @param setId the set's id
   * @param wait the wait saved for it
   * @return whether the set was not tracked before
   * @throws IllegalArgumentException if the wait is for another set
   */
  public boolean track(String setId, WaitState wait) {
    Objects.requireNonNull(setId, "setId");
    Objects.requireNonNull(wait, "wait");
    if (!wait.setId().equals(setId)) {
      throw new IllegalArgumentException(
          "the wait is for document set " + wait.setId() + ", not " + setId);
    }
    return schedule(wait, firstPoll(wait, wait.interval()));
  }

  private boolean schedule(WaitState wait, Instant firstPoll) {
    return scheduler.scheduleIfNotExists(
        new TaskInstance<>(TASK_NAME, wait.setId(), new TaskData(wait, false).encode()), firstPoll);
  }

  /**
   * The wait's own next poll when it is still ahead; when it has passed (a wait resumed late, or
   * many started at once), a time picked evenly in the window from now, no later than the deadline,
   * so that sets tracked together do not all poll at once.
   */
  private Instant firstPoll(WaitState wait, Duration window) {
    Instant now = clock.instant();
    if (wait.nextPoll().isAfter(now)) {
      return wait.nextPoll();
    }
    if (window.isZero() || window.isNegative()) {
      return now;
    }
    Instant at = now.plusNanos(ThreadLocalRandom.current().nextLong(window.toNanos() + 1));
    return at.isAfter(wait.deadline()) ? max(now, wait.deadline()) : at;
  }

  private static Instant max(Instant a, Instant b) {
    return a.isAfter(b) ? a : b;
  }

  /**
   * Stops tracking a set; its handler hears nothing more of it.
   *
   * @param setId the set's id
   * @return whether it was tracked
   * @throws IllegalStateException if an instance is polling the set at this moment (it would save
   *     its wait again): call again shortly
   */
  public boolean untrack(String setId) {
    Objects.requireNonNull(setId, "setId");
    try {
      scheduler.cancel(TaskInstanceId.of(TASK_NAME, setId));
      return true;
    } catch (TaskInstanceNotFoundException e) {
      return false;
    } catch (TaskInstanceCurrentlyExecutingException e) {
      throw pollingNow(setId, "untrack it", e);
    }
  }

  /**
   * Tells the tracker that the set's values were submitted (accepted) at this time, by this process
   * or another, so that the {@code input_needed} grace starts again from it, as the service's
   * processing lag does: a set read {@code input_needed} within the grace after {@code at} is not
   * reported. A set still {@code input_needed} once that grace is over is reported again, even if
   * the handler was told before. A time earlier than a submission the wait already knows leaves the
   * grace as it was. The set's next poll stays when it was.
   *
   * @param setId the set's id
   * @param at when the service accepted the last submission
   * @return whether the set is tracked and was updated; false if it is not tracked (any more)
   * @throws IllegalStateException if an instance is polling the set at this moment: call again
   */
  public boolean submitted(String setId, Instant at) {
    Objects.requireNonNull(setId, "setId");
    Objects.requireNonNull(at, "at");
    TaskInstanceId id = TaskInstanceId.of(TASK_NAME, setId);
    Optional<ScheduledExecution<Object>> row = scheduler.getScheduledExecution(id);
    if (row.isEmpty()) {
      return false;
    }
    if (row.get().isPicked()) {
      throw pollingNow(setId, "tell the tracker", null);
    }
    TaskData data = TaskData.decode((String) row.get().getData());
    // Told anew: a set still input_needed after this grace is reported again.
    String withSubmission = new TaskData(data.waitState().withSubmission(at), false).encode();
    try {
      if (scheduler.reschedule(id, row.get().getExecutionTime(), withSubmission)) {
        return true;
      }
    } catch (TaskInstanceNotFoundException e) {
      return false; // ended (complete, say) since it was read
    } catch (TaskInstanceCurrentlyExecutingException e) {
      throw pollingNow(setId, "tell the tracker", e);
    }
    // The row changed under the update: polled, or ended, since it was read.
    if (tracked(setId).isEmpty()) {
      return false;
    }
    throw pollingNow(setId, "tell the tracker", null);
  }

  private static IllegalStateException pollingNow(
      String setId, String callAgain, RuntimeException cause) {
    return new IllegalStateException(
        "document set " + setId + " is being polled right now; " + callAgain + " again shortly",
        cause);
  }

  /**
   * Returns the tracked sets, from the table, ordered by their next poll.
   *
   * @return every set tracked by any instance sharing the table
   */
  public List<TrackedSet> tracked() {
    List<TrackedSet> sets = new ArrayList<>();
    scheduler.fetchScheduledExecutionsForTask(
        TASK_NAME,
        String.class,
        ScheduledExecutionsFilter.all(),
        execution -> sets.add(view(execution)));
    sets.sort(Comparator.comparing(TrackedSet::nextPollAt));
    return sets;
  }

  /**
   * Returns one tracked set, from the table.
   *
   * @param setId the set's id
   * @return the set, or empty if it is not tracked
   */
  public Optional<TrackedSet> tracked(String setId) {
    Objects.requireNonNull(setId, "setId");
    return scheduler
        .getScheduledExecution(TaskInstanceId.of(TASK_NAME, setId))
        .map(execution -> view(execution, (String) execution.getData()));
  }

  private static TrackedSet view(ScheduledExecution<String> execution) {
    return view(execution, execution.getData());
  }

  private static TrackedSet view(ScheduledExecution<?> execution, String data) {
    WaitState wait = TaskData.decode(data).waitState();
    return new TrackedSet(
        execution.getTaskInstance().getId(),
        wait.lastState(),
        execution.getExecutionTime(),
        execution.isPicked(),
        execution.getConsecutiveFailures(),
        wait);
  }

  /**
   * Stops polling: waits a while for polls in flight, then stops this instance's threads. The sets
   * stay tracked in the table; other instances, or this one started again, go on with them.
   */
  @Override
  public void close() {
    scheduler.stop();
  }

  /** Configures a {@link FormationTracker}; {@link #build()} checks nothing more. */
  public static final class Builder {
    private final FormationClient client;
    private final DataSource dataSource;
    private final TrackingHandler handler;
    private PollOptions pollOptions = defaultPollOptions();
    private String tableName = DEFAULT_TABLE;
    private int threads = 10;
    private Duration pollingInterval = Duration.ofSeconds(5);
    private Duration heartbeatInterval = Duration.ofSeconds(30);
    private int missedHeartbeats = 4;
    private Duration pauseOnRefusal = Duration.ofMinutes(15);
    private Duration retryAfterFailure = Duration.ofSeconds(10);
    private Clock clock = Clock.systemUTC();
    private Optional<String> schedulerName = Optional.empty();
    private Consumer<SchedulerBuilder> customizer = scheduler -> {};

    private Builder(FormationClient client, DataSource dataSource, TrackingHandler handler) {
      this.client = Objects.requireNonNull(client, "client");
      this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
      this.handler = Objects.requireNonNull(handler, "handler");
    }

    /**
     * The tracker's default wait: first poll after 5 s, growing ×1.5 to at most 5 minutes, for up
     * to 30 days, with the SDK's default {@code input_needed} grace. A formation takes hours to
     * days: signatures and payment wait on people. Public so that configuration that changes one of
     * them (the Spring Boot starter's {@code formation.tracking.poll.*}) keeps the others.
     *
     * @return the default poll options of a tracker
     */
    public static PollOptions defaultPollOptions() {
      return PollOptions.builder()
          .initialInterval(Duration.ofSeconds(5))
          .maxInterval(Duration.ofMinutes(5))
          .timeout(Duration.ofDays(30))
          .build();
    }

    /**
     * How each set is polled: its intervals, backoff, timeout and {@code input_needed} grace. Every
     * poll of every set uses the same options (they are not saved with the wait); their {@code
     * onStateChange} listener, if any, hears each change too, before the handler.
     *
     * @param options the options; default 5 s growing to 5 min, for 30 days
     * @return this builder
     */
    public Builder pollOptions(PollOptions options) {
      this.pollOptions = Objects.requireNonNull(options, "options");
      return this;
    }

    /**
     * The table's name, for a table created from the shipped SQL with another name.
     *
     * @param tableName the name; default {@value FormationTracker#DEFAULT_TABLE}
     * @return this builder
     */
    public Builder tableName(String tableName) {
      if (Objects.requireNonNull(tableName, "tableName").isBlank()) {
        throw new IllegalArgumentException("tableName must not be blank");
      }
      this.tableName = tableName;
      return this;
    }

    /**
     * How many sets this instance polls at once.
     *
     * @param threads at least 1; default 10
     * @return this builder
     */
    public Builder threads(int threads) {
      if (threads < 1) {
        throw new IllegalArgumentException("threads must be at least 1, got " + threads);
      }
      this.threads = threads;
      return this;
    }

    /**
     * How often this instance looks in the table for sets that fell due. A set whose poll this
     * instance just made comes due sooner without waiting for it.
     *
     * @param interval positive; default 5 s
     * @return this builder
     */
    public Builder pollingInterval(Duration interval) {
      this.pollingInterval = positive("pollingInterval", interval);
      return this;
    }

    /**
     * How often this instance says, in the table, that it is still polling the sets it picked;
     * after {@code missed} heartbeats missed, another instance takes them over.
     *
     * @param interval positive; default 30 s
     * @param missed at least 4; default 4, so a dead instance's sets move on within about 2 min
     * @return this builder
     */
    public Builder heartbeat(Duration interval, int missed) {
      this.heartbeatInterval = positive("heartbeat interval", interval);
      // db-scheduler's own floor: fewer would take a slow heartbeat for a dead instance.
      if (missed < 4) {
        throw new IllegalArgumentException("missed heartbeats must be at least 4, got " + missed);
      }
      this.missedHeartbeats = missed;
      return this;
    }

    /**
     * How long a set's tracking pauses when the service refuses the token (401, 403).
     *
     * @param pause positive; default 15 min
     * @return this builder
     */
    public Builder pauseOnRefusal(Duration pause) {
      this.pauseOnRefusal = positive("pauseOnRefusal", pause);
      return this;
    }

    /**
     * The first wait after a poll failed in a way that needs a retry: the database unreachable, the
     * handler threw, an unexpected error. It doubles with each failure in a row, up to the pause on
     * refusal.
     *
     * @param wait positive; default 10 s
     * @return this builder
     */
    public Builder retryAfterFailure(Duration wait) {
      this.retryAfterFailure = positive("retryAfterFailure", wait);
      return this;
    }

    /**
     * The clock that says which sets are due, for tests.
     *
     * @param clock the clock; default the system UTC clock
     * @return this builder
     */
    public Builder clock(Clock clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /**
     * This instance's name in the table's {@code picked_by} column.
     *
     * @param name the name; default the host name
     * @return this builder
     */
    public Builder instanceName(String name) {
      if (Objects.requireNonNull(name, "name").isBlank()) {
        throw new IllegalArgumentException("instance name must not be blank");
      }
      this.schedulerName = Optional.of(name);
      return this;
    }

    /**
     * Changes anything else of the db-scheduler {@link Scheduler} before it is built, say its
     * polling strategy on PostgreSQL ({@code pollUsingLockAndFetch}) or its metrics registry. The
     * table name, serializer and the settings above are set before it runs.
     *
     * @param customizer called once, by {@link #build()}
     * @return this builder
     */
    public Builder configureScheduler(Consumer<SchedulerBuilder> customizer) {
      this.customizer = Objects.requireNonNull(customizer, "customizer");
      return this;
    }

    /**
     * Builds the tracker; {@link FormationTracker#start()} starts it.
     *
     * @return the tracker
     */
    public FormationTracker build() {
      return new FormationTracker(this);
    }

    private static Duration positive(String name, Duration duration) {
      Objects.requireNonNull(duration, name);
      if (duration.isZero() || duration.isNegative()) {
        throw new IllegalArgumentException(name + " must be positive, got " + duration);
      }
      return duration;
    }
  }
}
