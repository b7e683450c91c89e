// The backend's API. JSON in and out; the browser holds no token and never sees an action url.

export class ApiError extends Error {
  constructor(status, problem, message) {
    super(message ?? problem?.detail ?? SOMETHING_WENT_WRONG);
    this.status = status;
    this.errors = problem?.errors ?? [];
    // Why the backend no longer has the set: 'session' (this browser's person does not hold it) or
    // 'service' (the service no longer knows it).
    this.lost = problem?.lost ?? null;
  }

  /** Whether the backend could not be reached at all: nothing was answered. */
  get unreachable() {
    return this.status === 0;
  }
}

// A failure the backend did not describe (a proxy's error page, say): what to do, not its status.
const SOMETHING_WENT_WRONG = 'Something went wrong on our side. Try again in a minute; what you typed is kept.';
const UNREACHABLE = 'The server could not be reached. Check your connection; nothing you typed is lost.';

async function call(method, url, body) {
  const headers = { Accept: 'application/json' };
  if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
  }
  let response;
  try {
    response = await fetch(url, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, null, UNREACHABLE);
  }
  const text = await response.text();
  let json = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    // A proxy's HTML error page, say: the status tells enough.
  }
  if (!response.ok) {
    throw new ApiError(response.status, json);
  }
  return json;
}

const path = (id) => `/api/formations/${encodeURIComponent(id)}`;

/** Starts a formation; the same key again returns the set that start created. */
export const startFormation = (startKey) => call('POST', '/api/formations', { startKey });

/** The person's formations, the newest first, each with its state. */
export const myFormations = () => call('GET', '/api/formations');

export const listForms = (id) => call('GET', `${path(id)}/forms`);

export const submitForm = (id, formId, values) => call('POST', `${path(id)}/forms/${encodeURIComponent(formId)}`, values);

// How long to wait before opening a stream again that the browser gave up on, doubling to a limit.
const REOPEN_FIRST_MS = 1000;
const REOPEN_MAX_MS = 10000;

/**
 * Follows the document set's state through the backend's server-sent events. Returns a function
 * that stops following. The stream ends with exactly one of complete, input_needed or failed, or
 * is refused at once (too many streams of this person).
 *
 * A dropped stream is reopened: by the browser itself while the backend's address answers, and by
 * this function when the browser gives up (the backend restarting answers with an error page).
 * Each new stream starts with the state as it is now; the caller drops a state it already shows.
 * `onConnection(false)` says the backend cannot be reached, `onConnection(true)` that it is back.
 * `onLost()` says the backend answers but no longer lists the set among the person's formations
 * (the stream was refused with a 404, which an EventSource cannot read): following stops.
 */
export function followProgress(id, { onState, onComplete, onInputNeeded, onFailed, onConnection, onLost }) {
  let source = null;
  let timer = null;
  let stopped = false;
  let delay = REOPEN_FIRST_MS;

  const open = () => {
    source = new EventSource(`${path(id)}/events`);
    const finish = (handler) => (event) => {
      // Closed before the server ends the stream, so the browser does not reconnect on its own.
      stop();
      handler(JSON.parse(event.data));
    };
    source.onopen = () => {
      delay = REOPEN_FIRST_MS;
      onConnection(true);
    };
    source.onerror = () => {
      if (stopped) {
        return;
      }
      onConnection(false);
      if (source.readyState === EventSource.CLOSED) {
        timer = setTimeout(reopenUnlessLost, delay);
        delay = Math.min(delay * 2, REOPEN_MAX_MS);
      }
    };
    source.addEventListener('state', (event) => onState(JSON.parse(event.data)));
    source.addEventListener('complete', finish(onComplete));
    source.addEventListener('input_needed', finish(onInputNeeded));
    source.addEventListener('failed', finish(onFailed));
    // The backend allows one person so many streams at once; its message says what to do.
    source.addEventListener('refused', finish(onFailed));
  };

  // The browser gave up on the stream: the backend is away, or it refused the stream. Which one,
  // the person's list says.
  async function reopenUnlessLost() {
    try {
      const mine = await myFormations();
      if (stopped) return;
      if (!mine.some((entry) => entry.id === id)) {
        stop();
        onLost();
        return;
      }
    } catch {
      // Not answered: the backend is still away; the stream is tried again.
    }
    if (!stopped) open();
  }

  function stop() {
    stopped = true;
    clearTimeout(timer);
    source?.close();
  }

  open();
  return stop;
}
