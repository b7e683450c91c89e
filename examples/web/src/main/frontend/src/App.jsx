import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError, followProgress, listForms, myFormations, startFormation, submitForm } from './api.js';
import { satisfies, withDefaults } from './ajv.js';
import { check, explain, inFormOrder } from './messages.js';
import { FormCard } from './FormCard.jsx';
import { fieldId } from './controls.jsx';
import { pathOf } from './pointers.js';
import { Formations } from './Formations.jsx';
import { Progress } from './Progress.jsx';

// How long to wait before following again when the set is still input_needed although every form
// was accepted and none is asked for: the service has not processed the last one yet.
const FOLLOW_AGAIN_AFTER_MS = 1000;
// Fetching the forms again after a failure: soon, then less often.
const RETRY_FIRST_MS = 1000;
const RETRY_MAX_MS = 15000;
// The start a person asked for and has not heard the answer of, kept across a reload so that
// asking again cannot create a second set.
const PENDING_START = 'formation.pendingStart';

let versions = 0;

// What was typed into a form and not yet accepted, kept in this tab until it is (sessionStorage: it
// survives a reload, and leaves with the tab, so a shared computer keeps nobody's details).
const draftKey = (setId, formId) => `formation.draft.${setId}.${formId}`;

function readDraft(setId, formId) {
  try {
    return JSON.parse(sessionStorage.getItem(draftKey(setId, formId)) ?? 'null');
  } catch {
    return null;
  }
}

function keepDraft(setId, formId, data) {
  try {
    sessionStorage.setItem(draftKey(setId, formId), JSON.stringify(data ?? {}));
  } catch {
    // Storage full or refused: the draft is only lost on a reload.
  }
}

const dropDraft = (setId, formId) => sessionStorage.removeItem(draftKey(setId, formId));

/** A form as the service sent it, as the page holds it. */
function received(form, accepted) {
  return {
    ...form,
    // What JSON Forms starts from; replaced only with values the service sent back or was sent.
    initial: accepted ? form.data : withDefaults(form.schema, form.data),
    version: ++versions,
    status: accepted ? 'done' : 'open',
    accepted,
    errors: [],
    askedAgain: false,
    notice: null,
  };
}

// A form whose values the service holds and which satisfy its schema was accepted: the service
// keeps only what it accepts. That is how a reload, a second tab or a restart knows what is done.
const wasAccepted = (form) => Object.keys(form.data ?? {}).length > 0 && satisfies(form.schema, form.data);

const needsInput = (state) => state === 'input_needed';

/** The value at a JSON Forms path ("directors.0.email") in a form's values. */
const valueAt = (data, path) => (path === '' ? data : path.split('.').reduce((value, key) => value?.[key], data));

/** Scrolls the element to the top of the window, at once for people who asked for less motion. */
function bringIntoView(element) {
  const reduced = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
  element.scrollIntoView({ behavior: reduced ? 'auto' : 'smooth', block: 'start' });
}

const typingInAField = () => document.activeElement?.matches('input, textarea, select') ?? false;

export function App() {
  // loading → welcome | input ⇄ following → complete, with input again if the service asks; lost
  // when the backend no longer knows the set for this person.
  const [phase, setPhase] = useState('loading');
  const [formation, setFormation] = useState(null);
  const [mine, setMine] = useState([]);
  const [forms, setForms] = useState([]);
  const [states, setStates] = useState([]);
  const [notice, setNotice] = useState(null);
  const [problem, setProblem] = useState(null);
  const [retry, setRetry] = useState(null);
  const [reachable, setReachable] = useState(true);
  const [focus, setFocus] = useState(null);
  // The set the page lost: its id, why ('session' or 'service'), and what was typed into its forms.
  const [lost, setLost] = useState(null);
  // What was typed into a lost set's forms, filled into the next set's forms once they come.
  const carried = useRef(null);
  const formsRef = useRef(forms);
  formsRef.current = forms;
  // Each form's values as they stand after the last key, written synchronously by JSON Forms.
  const values = useRef(new Map());

  const seen = useCallback((entry) => {
    setStates((list) => (list.at(-1)?.state === entry.state ? list : [...list, { state: entry.state, known: entry.known }]));
  }, []);

  const update = (formId, change) =>
    setForms((list) => list.map((form) => (form.id === formId ? { ...form, ...change(form) } : form)));

  // On load, on back/forward and in a second tab: the person's formations, the newest current.
  useEffect(() => {
    const controller = { cancelled: false };
    const load = async (delay) => {
      try {
        const list = await myFormations();
        if (controller.cancelled) return;
        show(list);
      } catch (error) {
        if (controller.cancelled) return;
        setProblem(error.message);
        setReachable(!(error instanceof ApiError && error.unreachable));
        setTimeout(() => load(Math.min(delay * 2, RETRY_MAX_MS)), delay);
      }
    };
    load(RETRY_FIRST_MS);
    return () => {
      controller.cancelled = true;
    };
    // Once per page load.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  /** Shows the person's formations: the newest opened, or the Start page when there is none. */
  function show(list) {
    setMine(list);
    setReachable(true);
    setProblem(null);
    if (list.length === 0) {
      setPhase('welcome');
    } else {
      open(list[0]);
    }
  }

  /** Shows one of the person's formations: its forms while it needs input, its progress after. */
  function open(chosen) {
    setFormation(chosen);
    setStates(chosen.state ? [{ state: chosen.state, known: chosen.known }] : []);
    setForms([]);
    setNotice(null);
    setProblem(null);
    values.current = new Map();
    if (chosen.state === 'complete') {
      setPhase('complete');
    } else if (needsInput(chosen.state)) {
      loadForms(chosen, RETRY_FIRST_MS);
    } else {
      setPhase('following');
    }
  }

  // The forms of a set that exists: fetched until they come, never by starting again.
  async function loadForms(chosen, delay) {
    setPhase('input');
    setRetry(null);
    try {
      const fetched = (await listForms(chosen.id)).map((form) => {
        const accepted = wasAccepted(form);
        if (accepted) dropDraft(chosen.id, form.id);
        const typed = carried.current?.get(form.id) ?? (accepted ? null : readDraft(chosen.id, form.id));
        return typed ? { ...received(form, false), initial: typed } : received(form, accepted);
      });
      carried.current = null;
      setProblem(null);
      setReachable(true);
      setForms(fetched);
      const first = fetched.find((form) => form.status === 'open');
      setFocus(first ? { formId: first.id, target: 'first' } : null);
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) {
        lose(chosen.id, error.lost);
        return;
      }
      setReachable(!(error instanceof ApiError && error.unreachable));
      setProblem(`The forms could not be loaded: ${error.message} Trying again…`);
      const timer = setTimeout(() => loadForms(chosen, Math.min(delay * 2, RETRY_MAX_MS)), delay);
      setRetry(() => () => {
        clearTimeout(timer);
        loadForms(chosen, RETRY_FIRST_MS);
      });
    }
  }

  // A new start from a lost set, what was typed into its forms filled in again.
  function startAgain(keepTyped) {
    carried.current = keepTyped ? lost.typed : null;
    start();
  }

  async function start() {
    // One deliberate start, one key: sent again as it is when the answer was not heard.
    const startKey = sessionStorage.getItem(PENDING_START) ?? crypto.randomUUID();
    sessionStorage.setItem(PENDING_START, startKey);
    setPhase('starting');
    setProblem(null);
    let created;
    try {
      created = await startFormation(startKey);
    } catch (error) {
      if (carried.current) {
        // Still lost, what was typed still kept: the lost card stays, with its ways on.
        setProblem(`The formation could not be started: ${error.message}`);
        setReachable(!(error instanceof ApiError && error.unreachable));
        setPhase('lost');
        return;
      }
      setProblem(`The formation could not be started: ${error.message}`);
      setReachable(!(error instanceof ApiError && error.unreachable));
      setPhase('welcome');
      return;
    }
    sessionStorage.removeItem(PENDING_START);
    setMine((list) => [created, ...list.filter((entry) => entry.id !== created.id)]);
    setFormation(created);
    setStates([{ state: created.state, known: created.known }]);
    values.current = new Map();
    loadForms(created, RETRY_FIRST_MS);
  }

  async function submit(formId) {
    const form = formsRef.current.find((candidate) => candidate.id === formId);
    const data = values.current.get(formId) ?? form.initial ?? {};
    update(formId, () => ({ status: 'sending', initial: data, notice: null }));
    try {
      const saved = await submitForm(formation.id, formId, data);
      const kept = saved?.data ?? data;
      update(formId, () => ({ status: 'done', accepted: true, initial: kept, errors: [], askedAgain: false }));
      values.current.set(formId, kept);
      dropDraft(formation.id, formId);
      // The next open form below this one; focus never jumps back up to one above.
      const list = formsRef.current;
      const next = list.slice(list.findIndex((candidate) => candidate.id === formId) + 1).find((candidate) => candidate.status === 'open');
      const anyOpen = list.some((candidate) => candidate.id !== formId && candidate.status === 'open');
      setFocus(next ? { formId: next.id, target: 'first' } : anyOpen ? null : { target: 'progress' });
    } catch (error) {
      if (error instanceof ApiError && error.status === 409) {
        // The set takes no values for this form now. A form never accepted here was taken from a
        // submission whose answer was lost (a set moves on only once the service holds every form),
        // so it is accepted now: the set may be back in input_needed before the page follows it.
        update(formId, (current) => ({
          status: 'done',
          accepted: true,
          errors: [],
          ...(current.accepted && { initial: current.lastAccepted ?? current.initial, version: ++versions }),
          notice: current.accepted
            ? 'The service has moved on and takes no changes to this form now; it keeps the values it accepted.'
            : 'The service took these values; its answer was lost on the way.',
        }));
        // Taken, as after an ordinary acceptance: what was typed is no longer a draft.
        dropDraft(formation.id, formId);
        setPhase('following');
        return;
      }
      if (error instanceof ApiError && error.status === 404) {
        lose(formation.id, error.lost);
        return;
      }
      const errors =
        error instanceof ApiError && error.errors.length > 0
          ? explain(error.errors, form.schema, data)
          : [{ pointer: '', message: error.message }];
      update(formId, () => ({ status: 'open', errors, sent: data }));
      setFocus({ formId, target: 'invalid' });
    }
  }

  // The backend does not know this set for this person (the cookie that names them was cleared or
  // expired, or the set was started in another browser), or the service no longer knows it: nothing
  // more can be done with it here. The page says which, and offers the ways on, keeping what was
  // typed for a new start; it starts nothing by itself.
  function lose(id, reason) {
    // The backend answered (404): it is reachable, whatever a dropped stream said before.
    setReachable(true);
    const typed = new Map();
    for (const form of formsRef.current) {
      const data = values.current.get(form.id) ?? form.initial;
      if (data && Object.keys(data).length > 0) typed.set(form.id, data);
    }
    setLost({ id, reason: reason === 'service' ? 'service' : 'session', typed });
    setFormation(null);
    setMine([]);
    setForms([]);
    setStates([]);
    setNotice(null);
    setProblem(null);
    setRetry(null);
    values.current = new Map();
    setPhase('lost');
    setFocus({ target: 'lost' });
  }

  // A field the person leaves, once its form has been checked, is checked again: its message goes
  // when the value is right now, and says what is wrong when it is not. An error the schema cannot
  // explain (the service's own rule) goes only once the value differs from the one refused.
  function recheck(formId, path) {
    const form = formsRef.current.find((candidate) => candidate.id === formId);
    if (!form || form.status !== 'open' || !form.sent) return;
    const data = values.current.get(formId) ?? form.initial ?? {};
    const at = (error) => error.pointer && pathOf(error.pointer) === path;
    // A group's message ("Enter address") is answered once a value inside it is typed.
    const above = (error) => error.pointer && path.startsWith(`${pathOf(error.pointer)}.`);
    const found = check(form.schema, data);
    const now = found.filter(at);
    const changed = JSON.stringify(valueAt(data, path)) !== JSON.stringify(valueAt(form.sent, path));
    const stands = (error) =>
      (at(error) && !changed && now.length === 0) ||
      (above(error) && found.some((problem) => problem.pointer === error.pointer));
    const errors = inFormOrder([...form.errors.filter((error) => (!at(error) && !above(error)) || stands(error)), ...now], form.schema);
    if (JSON.stringify(errors) === JSON.stringify(form.errors)) return;
    update(formId, () => ({ errors }));
  }

  // The person's formations as the backend knows them now.
  async function showMine() {
    try {
      show(await myFormations());
    } catch (error) {
      setReachable(!(error instanceof ApiError && error.unreachable));
      setProblem(error.message);
    }
  }

  // Every form accepted (some may be open for a change): follow the set's state.
  useEffect(() => {
    if (phase === 'input' && forms.length > 0 && forms.every((form) => form.accepted)) {
      setNotice(null);
      setPhase('following');
      // The end in sight: the progress, as the last form is in.
      setFocus((current) => current ?? { target: 'progress' });
    }
  }, [phase, forms]);

  useEffect(() => {
    if (phase === 'waiting') {
      const timer = setTimeout(() => setPhase('following'), FOLLOW_AGAIN_AFTER_MS);
      return () => clearTimeout(timer);
    }
    if (phase !== 'following') {
      return undefined;
    }
    return followProgress(formation.id, {
      onState: (entry) => {
        seen(entry);
        setMine((list) => list.map((item) => (item.id === formation.id ? { ...item, state: entry.state, known: entry.known } : item)));
        if (!needsInput(entry.state)) {
          closeChanges();
        }
      },
      onComplete: (done) => {
        seen(done);
        closeChanges();
        setFormation((current) => ({ ...current, ...done }));
        setMine((list) => list.map((entry) => (entry.id === done.id || entry.id === formation.id ? { ...entry, ...done, id: entry.id } : entry)));
        setPhase('complete');
        setFocus({ target: 'complete' });
      },
      onInputNeeded: (event) => askedForInput(event.returned),
      onFailed: (failure) => {
        if (failure.lost) {
          lose(formation.id, 'service');
          return;
        }
        setProblem(failure.message);
        setPhase('failed');
      },
      onConnection: setReachable,
      onLost: () => lose(formation.id, 'session'),
    });
    // Follows anew on each entry into the phase.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [phase]);

  // The set left input_needed while a form was open: the service keeps what it had. A form open
  // for a change keeps what was accepted before; one never accepted here was taken by the service
  // from the last values sent, whose answer was lost (a set moves on only once it holds every form).
  function closeChanges() {
    setForms((list) =>
      list.map((form) =>
        form.status !== 'done'
          ? {
              ...form,
              status: 'done',
              accepted: true,
              errors: [],
              version: ++versions,
              initial: form.lastAccepted ?? form.initial,
              notice: form.accepted
                ? 'The service moved on before this change was sent; it keeps the values it accepted.'
                : 'The service took these values; its answer was lost on the way.',
            }
          : form,
      ),
    );
  }

  // The set wants input: fetch the forms again. A form whose values no longer satisfy its schema
  // is the one asked for; if the set came back to input_needed and none fails, all are shown for
  // review. If it never moved on, the service is still processing: follow again in a moment.
  async function askedForInput(returned) {
    try {
      const fetched = await listForms(formation.id);
      const previous = new Map(formsRef.current.map((form) => [form.id, form]));
      // A form not accepted here is asked for too: its values may never have reached the service.
      const asked = fetched.filter(
        (form) => !previous.get(form.id)?.accepted || !satisfies(form.schema, form.data),
      );
      const reopen = asked.length > 0 ? asked : returned ? fetched : [];
      if (reopen.length === 0) {
        setPhase('waiting');
        return;
      }
      const reopened = new Set(reopen.map((form) => form.id));
      setForms(
        fetched.map((form) =>
          reopened.has(form.id)
            ? {
                ...received(form, false),
                initial: form.data,
                askedAgain: true,
                errors: check(form.schema, form.data),
                sent: form.data,
              }
            : { ...received(form, true), notice: null },
        ),
      );
      setNotice(`The service asks for input again: ${reopen.map((form) => form.schema?.title ?? form.id).join(', ')}.`);
      setFocus({ formId: reopen[0].id, target: 'invalid' });
      setPhase('input');
    } catch (error) {
      setProblem(`${error.message} Following again…`);
      setPhase('waiting');
    }
  }

  // Focus goes where a person looks next: the first open form after Start, the first invalid
  // field after a rejection, the next open form after an acceptance.
  useEffect(() => {
    if (!focus) return;
    const section = focus.formId && document.querySelector(`section[data-form="${focus.formId}"]`);
    let target = null;
    if (focus.target === 'progress' || focus.target === 'complete') {
      // Once the page follows: the notices above the progress are gone by then, so it stays put.
      if (focus.target === 'progress' && phase !== 'following' && phase !== 'waiting') return;
      // Brought into view; focus moves to its heading only if the person is not typing in a field.
      const card = document.querySelector(focus.target === 'progress' ? '.progress' : '.complete');
      if (card) {
        bringIntoView(card);
        if (!typingInAField()) card.querySelector('h2')?.focus({ preventScroll: true });
        setFocus(null);
      }
      return;
    } else if (focus.target === 'lost') {
      target = document.querySelector('.lost h2');
    } else if (section && focus.target === 'invalid') {
      // The first error's field, found by its id: JSON Forms marks the fields a render later.
      const first = formsRef.current.find((form) => form.id === focus.formId)?.errors.find((error) => error.pointer);
      target =
        (first && document.getElementById(fieldId(focus.formId, pathOf(first.pointer)))) ??
        section.querySelector('.error-summary');
    } else if (section) {
      // Its first field, or, in a form of lists with no entry yet, its first button (Add).
      target =
        section.querySelector('input:not([disabled]), select:not([disabled]), textarea:not([disabled])') ??
        section.querySelector('form button:not([disabled])');
    }
    if (target) {
      target.focus();
      setFocus(null);
    }
  }, [focus, forms, phase]);

  const editable = phase === 'input' || phase === 'following' || phase === 'waiting';
  const following = phase === 'following' || phase === 'waiting';
  const accepted = forms.filter((form) => form.accepted).length;
  // While the set still shows input_needed the service has not taken the forms up yet: saying it
  // is at work beside "input needed" would say two things at once.
  const summary =
    phase === 'input' && forms.length > 0
      ? `${accepted} of ${forms.length} forms accepted.`
      : following
        ? needsInput(states.at(-1)?.state)
          ? 'Every form is sent; waiting for the service to take them up.'
          : 'Every form is accepted; the service is at work.'
        : null;

  return (
    <main>
      <header className="page-header">
        <h1>Form a Delaware corporation</h1>
        {formation && (
          <p className="formation" data-formation={formation.id}>
            Document set <code>{formation.id}</code>
          </p>
        )}
      </header>

      {!reachable && (
        <p className="offline" role="status">
          The server cannot be reached. This page carries on by itself when it is back.
        </p>
      )}

      {problem && (
        <div className="problem" role="alert">
          <p>{problem}</p>
          {retry && (
            <button type="button" className="secondary" onClick={retry}>
              Try again now
            </button>
          )}
          {phase === 'failed' && (
            <button type="button" className="secondary" onClick={() => setPhase('following')}>
              Follow again
            </button>
          )}
        </div>
      )}

      {phase === 'loading' && <p className="hint">Loading your formations…</p>}

      {(phase === 'welcome' || phase === 'starting') && (
        <section className="card welcome" aria-labelledby="welcome-title">
          <h2 id="welcome-title">{mine.length > 0 ? 'Start another formation' : 'Start'}</h2>
          <p>
            Fill in the company's details form by form. Each form is checked by the Formation service; once every
            form is accepted, the service takes over and this page shows its progress until the company is formed.
          </p>
          <button type="button" className="primary" onClick={start} disabled={phase === 'starting'}>
            {phase === 'starting' ? 'Starting…' : 'Start'}
          </button>
          {formation && (
            <button type="button" className="secondary" onClick={() => open(formation)}>
              Back to the current formation
            </button>
          )}
        </section>
      )}

      {phase === 'lost' && lost && (
        <section className="card lost" role="alert" aria-labelledby="lost-title">
          <h2 id="lost-title" tabIndex={-1}>
            {lost.reason === 'service'
              ? 'The Formation service no longer knows this formation'
              : 'This browser no longer holds this formation'}
          </h2>
          {lost.reason === 'service' ? (
            <p>
              The Formation service no longer has document set <code>{lost.id}</code>: it may have expired or been
              withdrawn. Nothing more can be sent to it.
            </p>
          ) : (
            <p>
              This browser no longer holds document set <code>{lost.id}</code>: its cookie was cleared or has expired,
              or the formation was started in another browser. The formation itself may go on at the service, but it
              cannot be changed from here.
            </p>
          )}
          <p>
            {lost.typed.size > 0
              ? 'You can start a new formation with what you typed here filled in, check it, and submit each form again.'
              : 'You can start a new formation.'}{' '}
            Nothing is started until you choose to.
          </p>
          <div className="ways-on">
            {lost.typed.size > 0 ? (
              <>
                <button type="button" className="primary" onClick={() => startAgain(true)}>
                  Start again with what you typed
                </button>
                <button type="button" className="secondary" onClick={() => startAgain(false)}>
                  Start again with empty forms
                </button>
              </>
            ) : (
              <button type="button" className="primary" onClick={() => startAgain(false)}>
                Start a new formation
              </button>
            )}
            <button type="button" className="secondary" onClick={showMine}>
              Show your formations
            </button>
          </div>
        </section>
      )}

      {phase === 'complete' && (
        <section className="card complete" role="status" aria-labelledby="complete-title">
          <h2 id="complete-title" tabIndex={-1}>
            Complete
          </h2>
          <p>The company is formed.</p>
          {formation.appLink && (
            <p>
              <a className="app-link" href={formation.appLink} target="_blank" rel="noreferrer">
                Open it in the Formation app
              </a>
            </p>
          )}
        </section>
      )}

      {notice && (
        <p className="notice" role="status">
          {notice}
        </p>
      )}

      {states.length > 0 && phase !== 'welcome' && phase !== 'starting' && (
        <Progress states={states} following={following} summary={summary} />
      )}

      {phase !== 'welcome' &&
        phase !== 'starting' &&
        forms.map((form) => (
          <FormCard
            key={form.id}
            form={form}
            editable={editable && (phase === 'input' || form.accepted) && (!following || needsInput(states.at(-1)?.state))}
            onChange={(formId, data) => {
              values.current.set(formId, data);
              if (form.status !== 'done') keepDraft(formation.id, formId, data);
            }}
            onLeave={recheck}
            onSubmit={submit}
            onEdit={(formId) =>
              update(formId, (current) => ({ status: 'open', lastAccepted: current.initial, notice: null }))
            }
            onKeep={(formId) =>
              update(formId, (current) => ({
                status: 'done',
                errors: [],
                initial: current.lastAccepted ?? current.initial,
                version: ++versions,
              }))
            }
          />
        ))}

      {phase !== 'loading' && (mine.length > 1 || (mine.length === 1 && phase !== 'welcome' && phase !== 'starting')) && (
        <Formations
          formations={mine}
          current={formation?.id}
          onOpen={(chosen) => open(chosen)}
          onStartAnother={() => setPhase('welcome')}
        />
      )}
    </main>
  );
}
