package io.formation.tracking;

import com.github.kagkarlsson.scheduler.ScheduledExecution;
import com.github.kagkarlsson.scheduler.ScheduledExecutionsFilter;
import com.github.kagkarlsson.scheduler.Scheduler;
import com.github.kagkarlsson.scheduler.SchedulerBuilder;
import com.github.kagkarlsson.scheduler.SchedulerName;
import com.github.kagkarlsson.scheduler.exceptions.DbSchedulerException;
import com.github.kagkarlsson.scheduler.jdbc.DefaultJdbcCustomization;
import com.github.kagkarlsson.scheduler.jdbc.JdbcCustomization;
import com.github.kagkarlsson.scheduler.task.TaskInstance;
import com.github.kagkarlsson.scheduler.task.TaskInstanceId;
import com.github.kagkarlsson.scheduler.task.helper.CustomTask;
import com.github.kagkarlsson.scheduler.task.helper.Tasks;
import com.github.kagkarlsson.shaded.jdbc.SQLRuntimeException;
import io.formation.sdk.FormationClient;
import io.formation.sdk.PollOptions;
import io.formation.sdk.WaitState;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
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
import java.util.regex.Pattern;
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
 * Builder#tableName} says otherwise. Every time tracking reads is the database's (see {@link
 * Builder#clock}). Each call takes one connection from the DataSource, so it fails after at most
 * the pool's connection timeout when the database is down, with a {@link TrackingException}.
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
  private final Optional<DatabaseClock> databaseClock;
  private final CallConnections connections;
  private final String tableName;
  private final WaitSerializer serializer = new WaitSerializer();
  private boolean closed;
  private boolean schedulerStarted;
  private final Scheduler scheduler;

  private FormationTracker(Builder builder) {
    this.client = builder.client;
    this.connections = new CallConnections(builder.dataSource);
    this.tableName = builder.tableName;
    if (builder.clock.isPresent()) {
      this.databaseClock = Optional.empty();
      this.clock = builder.clock.get();
    } else {
      DatabaseClock database =
          new DatabaseClock(builder.dataSource, builder.baseClock, System::nanoTime);
      this.databaseClock = Optional.of(database);
      this.clock = database;
    }
    // Every wait reads the tracker's time (saved on one instance, compared on another), and a
    // failure that does not pass by itself pauses the set rather than ending its tracking.
    this.pollOptions =
        builder
            .pollOptions
            .newBuilder()
            .clock(clock)
            .retryFailuresAfter(builder.pauseOnRefusal)
            .build();
    PollTask pollTask =
        new PollTask(
            client,
            pollOptions,
            builder.handler,
            builder.pauseOnRefusal,
            builder.retryAfterFailure);
    CustomTask<String> task =
        Tasks.custom(TASK_NAME, String.class)
            .onFailure(pollTask::onFailure)
            // Revived as it was: the dead instance never saved what it saw, so it is seen again.
            .onDeadExecutionRevive()
            .execute(pollTask::execute);
    SchedulerBuilder schedulerBuilder =
        Scheduler.create(connections, task)
            .tableName(builder.tableName)
            .serializer(serializer)
            .threads(builder.threads)
            .pollingInterval(builder.pollingInterval)
            .heartbeatInterval(builder.heartbeatInterval)
            .missedHeartbeatsLimit(builder.missedHeartbeats)
            .clock(clock::instant)
            // db-scheduler waits twice this (before and after interrupting the polls in flight).
            .shutdownMaxWait(builder.shutdownTimeout.dividedBy(2))
            // A poll that asks for its next one soon is picked up without waiting a full
            // pollingInterval, by this instance if it has a free thread.
            .enableImmediateExecution();
    builder.schedulerName.ifPresent(
        name -> schedulerBuilder.schedulerName(new SchedulerName.Fixed(name)));
    forShippedTable(connections).ifPresent(schedulerBuilder::jdbcCustomization);
    builder.customizer.accept(schedulerBuilder);
    this.scheduler = schedulerBuilder.build();
  }

  /**
   * db-scheduler's own choice for HSQLDB, a database it does not know but the tracker ships a table
   * for, without the warning it logs at every start: the table's times are zoned, so none is
   * persisted as UTC. Empty for any other database, or one not reachable now: db-scheduler detects
   * it as ever.
   */
  static Optional<JdbcCustomization> forShippedTable(DataSource connections) {
    try (Connection connection = connections.getConnection()) {
      return connection.getMetaData().getDatabaseProductName().startsWith("HSQL")
          ? Optional.of(new DefaultJdbcCustomization(false))
          : Optional.empty();
    } catch (SQLException | RuntimeException unreachable) {
      return Optional.empty();
    }
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

  /**
   * Starts polling the sets that fall due. Sets can be tracked before and after. Reads the
   * database's time first (see {@link Builder#clock}), waiting at most the DataSource's connection
   * timeout; if the database cannot be reached, it returns all the same and polling starts once the
   * database's time has been read (asked again every second): an instance never compares heartbeats
   * or due times on its machine's own clock.
   */
  public void start() {
    // Heartbeats and due times are compared on the database's time: polling waits for it.
    databaseClock.ifPresentOrElse(
        clock -> clock.whenMeasured(this::startScheduler), this::startScheduler);
  }

  private synchronized void startScheduler() {
    if (!closed) {
      scheduler.start();
      schedulerStarted = true;
    }
  }

  /**
   * Tracks a set from now on, with a new wait. Does nothing if it is tracked already, by this
   * instance or another: the wait saved for it is kept.
   *
   * <p>Takes one connection from the DataSource, so it fails after at most the DataSource's
   * connection timeout when the database is down, plus the time of two statements.
   *
   * @param setId the set's id
   * @return whether the set was not tracked before
   * @throws IllegalArgumentException if the id is not a document set id
   * @throws TrackingException if the table cannot be read or written
   */
  public boolean track(String setId) {
    Objects.requireNonNull(setId, "setId");
    return call(
        "track",
        setId,
        connection -> {
          WaitState wait = client.documentSets().startWait(setId, pollOptions);
          return schedule(wait, firstPoll(wait, pollOptions.firstPollWithin()));
        });
  }

  /**
   * Tracks a set from a wait saved before, say by an {@code awaitCompletion} interrupted by a
   * restart: its grace, backoff and deadline go on as if it had never stopped. The first poll comes
   * within the wait's current interval, so that many sets resumed at once do not poll at once. Does
   * nothing if the set is tracked already. Takes as long as {@link #track(String)}.
   *
   * @param setId the set's id
   * @param wait the wait saved for it
   * @return whether the set was not tracked before
   * @throws IllegalArgumentException if the wait is for another set
   * @throws TrackingException if the table cannot be read or written
   */
  public boolean track(String setId, WaitState wait) {
    Objects.requireNonNull(setId, "setId");
    Objects.requireNonNull(wait, "wait");
    if (!wait.setId().equals(setId)) {
      throw new IllegalArgumentException(
          "the wait is for document set " + wait.setId() + ", not " + setId);
    }
    return call("track", setId, connection -> schedule(wait, firstPoll(wait, wait.interval())));
  }

  private boolean schedule(WaitState wait, Instant firstPoll) {
    return scheduler.scheduleIfNotExists(
        new TaskInstance<>(TASK_NAME, wait.setId(), wait.encode()), firstPoll);
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
   * Stops tracking a set; its handler hears nothing more of it. A row this version cannot read is
   * removed too. Takes one connection, as {@link #track(String)} does, and two statements at most.
   *
   * @param setId the set's id
   * @return whether it was tracked; false if it is not (any more)
   * @throws IllegalStateException if an instance is polling the set at this moment (it would save
   *     its wait again): call again shortly
   * @throws TrackingException if the table cannot be read or written
   */
  public boolean untrack(String setId) {
    Objects.requireNonNull(setId, "setId");
    Outcome outcome =
        call(
            "untrack",
            setId,
            connection -> {
              // Only a row no instance is polling: the condition and the delete are one statement.
              int removed =
                  write(
                      connection,
                      "DELETE FROM "
                          + tableName
                          + " WHERE task_name = ? AND task_instance = ?"
                          + " AND picked = ?",
                      statement -> {
                        statement.setString(1, TASK_NAME);
                        statement.setString(2, setId);
                        statement.setBoolean(3, false);
                      });
              return removed == 1
                  ? Outcome.DONE
                  : row(connection, setId).map(row -> Outcome.POLLING).orElse(Outcome.ABSENT);
            });
    return switch (outcome) {
      case DONE -> true;
      case ABSENT -> false;
      case POLLING, CHANGED, UNREADABLE -> throw pollingNow(setId, "untrack it");
    };
  }

  /**
   * Tells the tracker that the set's values were submitted (accepted) at this time, by this process
   * or another, so that the {@code input_needed} grace starts again from it, as the service's
   * processing lag does: a set read {@code input_needed} within the grace after {@code at} is not
   * reported. A set still {@code input_needed} once that grace is over is reported again, even if
   * the handler was told before. A time earlier than a submission the wait already knows leaves the
   * grace as it was. The set's next poll stays when it was.
   *
   * <p>It reads the set's row and writes it back only if no poll changed it in between (the row's
   * version); takes one connection, as {@link #track(String)} does, and three statements at most.
   *
   * @param setId the set's id
   * @param at when the service accepted the last submission
   * @return whether the set is tracked and was updated; false if it is not tracked (any more)
   * @throws IllegalStateException if an instance is polling the set at this moment, or a poll saved
   *     the set between this call's read and write: call again; or if the set's row was written by
   *     a later version of formation-tracking: call it on an instance of that version
   * @throws TrackingException if the table cannot be read or written
   */
  public boolean submitted(String setId, Instant at) {
    Objects.requireNonNull(setId, "setId");
    Objects.requireNonNull(at, "at");
    Outcome outcome =
        call(
            "tell the tracker of a submission of",
            setId,
            connection -> {
              Optional<Row> read = row(connection, setId);
              if (read.isEmpty()) {
                return Outcome.ABSENT;
              }
              Row row = read.get();
              if (row.picked()) {
                return Outcome.POLLING;
              }
              WaitState saved;
              try {
                saved = TaskData.decode(row.data());
              } catch (IllegalArgumentException unreadable) {
                return Outcome.UNREADABLE;
              }
              // Told anew: a set still input_needed after this grace is reported again.
              byte[] withSubmission = serializer.serialize(saved.withSubmission(at).encode());
              int updated =
                  write(
                      connection,
                      "UPDATE "
                          + tableName
                          + " SET task_data = ?, version = version + 1"
                          + " WHERE task_name = ? AND task_instance = ? AND version = ?",
                      statement -> {
                        statement.setBytes(1, withSubmission);
                        statement.setString(2, TASK_NAME);
                        statement.setString(3, setId);
                        statement.setLong(4, row.version());
                      });
              if (updated == 1) {
                return Outcome.DONE;
              }
              return row(connection, setId).isEmpty() ? Outcome.ABSENT : Outcome.CHANGED;
            });
    return switch (outcome) {
      case DONE -> true;
      case ABSENT -> false;
      case POLLING -> throw pollingNow(setId, "tell the tracker");
      case CHANGED ->
          throw new IllegalStateException(
              "document set "
                  + setId
                  + " was polled while the submission was being told; tell the tracker again");
      case UNREADABLE ->
          throw new IllegalStateException(
              "document set "
                  + setId
                  + " is tracked by a later version of formation-tracking (this one cannot read"
                  + " its row): tell its submission through an instance of that version");
    };
  }

  private static IllegalStateException pollingNow(String setId, String callAgain) {
    return new IllegalStateException(
        "document set " + setId + " is being polled right now; " + callAgain + " again shortly");
  }

  /** What a write to one set's row found. */
  private enum Outcome {
    DONE,
    ABSENT,
    POLLING,
    CHANGED,
    UNREADABLE
  }

  /** The columns of a set's row a write depends on. */
  private record Row(boolean picked, long version, String data) {}

  private Optional<Row> row(Connection connection, String setId) throws SQLException {
    try (PreparedStatement query =
        connection.prepareStatement(
            "SELECT picked, version, task_data FROM "
                + tableName
                + " WHERE task_name = ? AND task_instance = ?")) {
      query.setString(1, TASK_NAME);
      query.setString(2, setId);
      try (ResultSet result = query.executeQuery()) {
        if (!result.next()) {
          return Optional.empty();
        }
        return Optional.of(
            new Row(
                result.getBoolean(1),
                result.getLong(2),
                serializer.deserialize(String.class, result.getBytes(3))));
      }
    }
  }

  private interface Parameters {
    void set(PreparedStatement statement) throws SQLException;
  }

  private static int write(Connection connection, String sql, Parameters parameters)
      throws SQLException {
    int rows;
    try (PreparedStatement statement = connection.prepareStatement(sql)) {
      parameters.set(statement);
      rows = statement.executeUpdate();
    }
    // The connection goes back to the pool after this call: a transaction left open is lost.
    if (!connection.getAutoCommit()) {
      connection.commit();
    }
    return rows;
  }

  /**
   * Returns the tracked sets, from the table, ordered by their next poll. A row this version cannot
   * read is listed with the reason ({@link TrackedSet#unreadable()}). Takes one connection, as
   * {@link #track(String)} does, and one query.
   *
   * @return every set tracked by any instance sharing the table
   * @throws TrackingException if the table cannot be read
   */
  public List<TrackedSet> tracked() {
    List<TrackedSet> sets =
        call(
            "list the tracked sets",
            null,
            connection -> {
              List<TrackedSet> all = new ArrayList<>();
              scheduler.fetchScheduledExecutionsForTask(
                  TASK_NAME,
                  String.class,
                  ScheduledExecutionsFilter.all(),
                  execution -> all.add(view(execution, execution.getData())));
              return all;
            });
    sets.sort(Comparator.comparing(TrackedSet::nextPollAt));
    return sets;
  }

  /**
   * Returns one tracked set, from the table. Takes one connection and one query.
   *
   * @param setId the set's id
   * @return the set, or empty if it is not tracked
   * @throws TrackingException if the table cannot be read
   */
  public Optional<TrackedSet> tracked(String setId) {
    Objects.requireNonNull(setId, "setId");
    return call(
        "read",
        setId,
        connection ->
            scheduler
                .getScheduledExecution(TaskInstanceId.of(TASK_NAME, setId))
                .map(execution -> view(execution, (String) execution.getData())));
  }

  private static TrackedSet view(ScheduledExecution<?> execution, String data) {
    String setId = execution.getTaskInstance().getId();
    WaitState wait;
    try {
      wait = TaskData.decode(data);
    } catch (IllegalArgumentException unreadable) {
      return new TrackedSet(
          setId,
          Optional.empty(),
          execution.getExecutionTime(),
          execution.isPicked(),
          execution.getConsecutiveFailures(),
          Optional.empty(),
          Optional.of(unreadable.getMessage()));
    }
    return new TrackedSet(
        setId,
        wait.lastState(),
        execution.getExecutionTime(),
        execution.isPicked(),
        execution.getConsecutiveFailures(),
        Optional.of(wait),
        Optional.empty());
  }

  /**
   * Runs a public call's work on one connection (db-scheduler's statements included), having the
   * database's time read first on the tracker's first call; the database's errors become a {@link
   * TrackingException}, and the call's own ones pass.
   */
  private <T> T call(String action, String setId, CallConnections.Work<T> work) {
    try {
      return connections.with(
          connection -> {
            databaseClock.ifPresent(database -> database.measureIfNeverMeasured(connection));
            return work.run(connection);
          });
    } catch (SQLException | SQLRuntimeException | DbSchedulerException e) {
      throw new TrackingException(
          "cannot "
              + action
              + (setId == null ? "" : " document set " + setId)
              + ": the table "
              + tableName
              + " cannot be read or written ("
              + e
              + ")",
          e);
    }
  }

  /**
   * Stops polling: waits for polls in flight up to the {@linkplain Builder#shutdownTimeout shutdown
   * timeout} (half of it before interrupting them, half after), then stops this instance's threads.
   * A poll still running then is left to its thread, and its set revived by another instance after
   * its missed heartbeats. The sets stay tracked in the table; other instances, or this one started
   * again, go on with them.
   */
  @Override
  public void close() {
    databaseClock.ifPresent(DatabaseClock::close);
    synchronized (this) {
      closed = true;
      if (!schedulerStarted) {
        return;
      }
    }
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
    private Optional<Clock> clock = Optional.empty();
    private Clock baseClock = Clock.systemUTC();
    private Duration shutdownTimeout = Duration.ofSeconds(30);
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
     * The table's name, for a table created from the shipped SQL with another name: an SQL
     * identifier (letters, digits and {@code _}, not starting with a digit), optionally with its
     * schema ({@code tracking.formation_tracking}). It is written into every statement, so nothing
     * else is accepted; a quoted identifier is not either.
     *
     * @param tableName the name; default {@value FormationTracker#DEFAULT_TABLE}
     * @return this builder
     * @throws IllegalArgumentException if it is not such a name, saying what is wrong
     */
    public Builder tableName(String tableName) {
      this.tableName = checkedTableName(tableName);
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
     * How long a set's tracking pauses when a poll fails in a way that does not pass by itself: the
     * service refuses the token (401, 403), rejects the request (400) or answers with something
     * that is not a document set. The handler hears {@link TrackingHandler#trackingPaused}; the
     * pause never outlasts the wait's deadline, where tracking ends with the failure as the
     * timeout's cause. It is the wait's {@link PollOptions#retryFailuresAfter()}.
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
     * A clock that tracking reads instead of the database's, for tests. By default every time
     * tracking reads (which sets are due, heartbeats and the dead instances they reveal, a wait's
     * start, grace, deadline and next poll, a pause) is the database's: this machine's clock
     * corrected by its offset from the database's, measured at {@link FormationTracker#start()}, on
     * the first call, and again every minute. With this clock set, it is used as it is, with no
     * correction: every instance sharing the table must then be given clocks that agree.
     *
     * @param clock the clock; default the database's
     * @return this builder
     */
    public Builder clock(Clock clock) {
      this.clock = Optional.of(Objects.requireNonNull(clock, "clock"));
      return this;
    }

    /**
     * The clock the database's offset is measured from: a machine's clock that is off, in tests.
     */
    Builder baseClock(Clock clock) {
      this.baseClock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /**
     * How long {@link FormationTracker#close()} waits for polls in flight: half of it for them to
     * finish, then it interrupts them and waits the other half. A poll still running after that (a
     * handler that ignores interrupts) is left behind, and its set taken over by another instance
     * once its heartbeats stop. db-scheduler's own threads add a few milliseconds, and at most 12 s
     * when the database hangs.
     *
     * @param timeout positive; default 30 s (db-scheduler's own default is 30 minutes)
     * @return this builder
     */
    public Builder shutdownTimeout(Duration timeout) {
      this.shutdownTimeout = positive("shutdownTimeout", timeout);
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
     * table name, serializer, clock (the database's), shutdown wait and the settings above are set
     * before it runs; replacing the clock would have instances compare their own clocks again.
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

    private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    /** The longest identifier PostgreSQL keeps (63 bytes); other databases allow at least that. */
    private static final int LONGEST_IDENTIFIER = 63;

    static String checkedTableName(String name) {
      Objects.requireNonNull(name, "tableName");
      if (name.isBlank()) {
        throw new IllegalArgumentException("tableName must not be blank");
      }
      String[] parts = name.split("\\.", -1);
      if (parts.length > 2) {
        throw badTableName(name, "it has more than one '.' (at most schema.table)");
      }
      for (String part : parts) {
        if (part.isEmpty()) {
          throw badTableName(name, "a name before or after the '.' is empty");
        }
        if (!IDENTIFIER.matcher(part).matches()) {
          int at = 0;
          while (at < part.length() && IDENTIFIER.matcher(part.substring(0, at + 1)).matches()) {
            at++;
          }
          throw badTableName(
              name,
              at == 0 && Character.isDigit(part.charAt(0))
                  ? "\"" + part + "\" starts with a digit"
                  : "\"" + part + "\" holds '" + part.charAt(at) + "'");
        }
        if (part.length() > LONGEST_IDENTIFIER) {
          throw badTableName(
              name, "\"" + part + "\" is longer than " + LONGEST_IDENTIFIER + " characters");
        }
      }
      return name;
    }

    private static IllegalArgumentException badTableName(String name, String why) {
      return new IllegalArgumentException(
          "tableName must be an SQL identifier (letters, digits and _, not starting with a digit),"
              + " optionally schema-qualified, such as formation_tracking or"
              + " tracking.formation_tracking; got \""
              + name
              + "\": "
              + why);
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
