import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError, followProgress, listForms, startFormation, submitForm } from './api.js';
import { satisfies } from './ajv.js';
import { stillStanding } from './pointers.js';
import { FormCard } from './FormCard.jsx';
import { Progress } from './Progress.jsx';

// How long to wait before following again when the set is still input_needed although every form
// was accepted and none is asked for: the service has not processed the last one yet.
const FOLLOW_AGAIN_AFTER_MS = 1000;

const fresh = (form) => ({ ...form, status: 'open', errors: [], askedAgain: false });

export function App() {
  // welcome → starting → input → following → complete, with input again if the service asks.
  const [phase, setPhase] = useState('welcome');
  const [formation, setFormation] = useState(null);
  const [forms, setForms] = useState([]);
  const [states, setStates] = useState([]);
  const [notice, setNotice] = useState(null);
  const [problem, setProblem] = useState(null);
  const formsRef = useRef(forms);
  formsRef.current = forms;

  const seen = useCallback((entry) => {
    setStates((list) => (list.at(-1)?.state === entry.state ? list : [...list, { state: entry.state, known: entry.known }]));
  }, []);

  const update = (formId, change) =>
    setForms((list) => list.map((form) => (form.id === formId ? { ...form, ...change(form) } : form)));

  async function start() {
    setPhase('starting');
    setProblem(null);
    try {
      const created = await startFormation();
      setFormation(created);
      seen(created);
      setForms((await listForms(created.id)).map(fresh));
      setPhase('input');
    } catch (error) {
      setProblem(error.message);
      setPhase('welcome');
    }
  }

  async function submit(formId) {
    const form = formsRef.current.find((candidate) => candidate.id === formId);
    update(formId, () => ({ status: 'sending' }));
    try {
      const saved = await submitForm(formation.id, formId, form.data ?? {});
      update(formId, () => ({ status: 'done', data: saved.data ?? form.data, errors: [], askedAgain: false }));
    } catch (error) {
      const errors =
        error instanceof ApiError && error.errors.length > 0 ? error.errors : [{ pointer: '', message: error.message }];
      update(formId, () => ({ status: 'open', errors }));
    }
  }

  // Every form accepted: follow the set's state until it is complete or asks for input again.
  useEffect(() => {
    if (phase === 'input' && forms.length > 0 && forms.every((form) => form.status === 'done')) {
      setNotice(null);
      setPhase('following');
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
      onState: seen,
      onComplete: (done) => {
        seen(done);
        setFormation((current) => ({ ...current, ...done }));
        setPhase('complete');
      },
      onInputNeeded: (event) => askedForInput(event.returned),
      onFailed: (failure) => {
        setProblem(failure.message);
        setPhase('failed');
      },
    });
  }, [phase]);

  // The set wants input: fetch the forms again. A form whose values no longer satisfy its schema
  // is the one asked for; if the set came back to input_needed and none fails, all are shown for
  // review. If it never moved on, the service is still processing: follow again in a moment.
  async function askedForInput(returned) {
    try {
      const fetched = await listForms(formation.id);
      const previous = new Map(formsRef.current.map((form) => [form.id, form]));
      const asked = fetched.filter((form) => !previous.has(form.id) || !satisfies(form.schema, form.data));
      const reopen = asked.length > 0 ? asked : returned ? fetched : [];
      if (reopen.length === 0) {
        setPhase('waiting');
        return;
      }
      const reopened = new Set(reopen.map((form) => form.id));
      setForms(
        fetched.map((form) =>
          reopened.has(form.id)
            ? { ...fresh(form), askedAgain: true }
            : { ...previous.get(form.id), ...form, status: 'done', errors: [] },
        ),
      );
      setNotice(
        `The service asks for input again: ${reopen.map((form) => form.schema?.title ?? form.id).join(', ')}.`,
      );
      setPhase('input');
    } catch (error) {
      setProblem(error.message);
      setPhase('failed');
    }
  }

  const editable = phase === 'input';
  const following = phase === 'following' || phase === 'waiting';
  const accepted = forms.filter((form) => form.status === 'done').length;
  const summary = editable
    ? `${accepted} of ${forms.length} forms accepted.`
    : following
      ? 'Every form is accepted; the service is at work.'
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

      {problem && (
        <p className="problem" role="alert">
          {problem}
        </p>
      )}

      {(phase === 'welcome' || phase === 'starting') && (
        <section className="card welcome">
          <p>
            Fill in the company's details form by form. Each form is checked by the Formation service; once every
            form is accepted, the service takes over and this page shows its progress until the company is formed.
          </p>
          <button type="button" onClick={start} disabled={phase === 'starting'}>
            {phase === 'starting' ? 'Starting…' : 'Start'}
          </button>
        </section>
      )}

      {phase === 'complete' && (
        <section className="card complete" role="status">
          <h2>Complete</h2>
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

      {states.length > 0 && <Progress states={states} following={following} summary={summary} />}

      {forms.map((form) => (
        <FormCard
          key={form.id}
          form={form}
          editable={editable}
          onData={(formId, data) => update(formId, (current) => ({ data, errors: stillStanding(current.errors, current.data, data) }))}
          onSubmit={submit}
          onEdit={(formId) => update(formId, () => ({ status: 'open' }))}
        />
      ))}
    </main>
  );
}
