// The backend's API. JSON in and out; the browser holds no token and never sees an action url.

export class ApiError extends Error {
  constructor(status, problem) {
    super(problem?.detail ?? `The request failed (${status}).`);
    this.status = status;
    this.errors = problem?.errors ?? [];
  }
}

async function call(method, url, body) {
  const headers = { Accept: 'application/json' };
  if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
  }
  const response = await fetch(url, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  const json = text ? JSON.parse(text) : null;
  if (!response.ok) {
    throw new ApiError(response.status, json);
  }
  return json;
}

export const startFormation = () => call('POST', '/api/formations', {});

export const listForms = (id) => call('GET', `/api/formations/${encodeURIComponent(id)}/forms`);

export const submitForm = (id, formId, values) =>
  call('POST', `/api/formations/${encodeURIComponent(id)}/forms/${encodeURIComponent(formId)}`, values);

/**
 * Follows the document set's state through the backend's server-sent events. Returns a function
 * that stops following. The stream ends with exactly one of complete, input_needed or failed.
 */
export function followProgress(id, { onState, onComplete, onInputNeeded, onFailed }) {
  const source = new EventSource(`/api/formations/${encodeURIComponent(id)}/events`);
  const finish = (handler) => (event) => {
    // Closed before the server ends the stream, so the browser does not reconnect on its own.
    source.close();
    handler(JSON.parse(event.data));
  };
  source.addEventListener('state', (event) => onState(JSON.parse(event.data)));
  source.addEventListener('complete', finish(onComplete));
  source.addEventListener('input_needed', finish(onInputNeeded));
  source.addEventListener('failed', finish(onFailed));
  // On a dropped connection EventSource reconnects by itself and the backend follows afresh.
  return () => source.close();
}
