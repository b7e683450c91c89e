import { useMemo, useRef } from 'react';
import { Actions } from '@jsonforms/core';
import { JsonForms } from '@jsonforms/react';
import { vanillaCells, vanillaRenderers } from '@jsonforms/vanilla-renderers';
import { ajv } from './ajv.js';
import { controls, fieldId } from './controls.jsx';
import { pathOf, toAdditionalErrors } from './pointers.js';

const renderers = [...controls, ...vanillaRenderers];
// Messages reach the inputs already in plain words (messages.js); JSON Forms shows them as they are.
// The lists' words, after GOV.UK's "add another" pattern: "Remove" read once (its label was
// "Delete button", heard as "Delete button, button"), and an empty list that says so.
const LIST_WORDS = { noDataMessage: 'None added yet.', removeAriaLabel: 'Remove', removeTooltip: 'Remove' };
const i18n = {
  translateError: (error) => error.message,
  translate: (key, fallback) => LIST_WORDS[key.split('.').at(-1)] ?? fallback,
};

/**
 * One form of the document set, rendered by JSON Forms from the service's JSON Schema and UI
 * schema, inside an HTML form: Enter in a field submits it. Errors are shown on submit, after
 * GOV.UK's pattern: a summary at the top of the form listing every one (those about a group or
 * the whole form included), each linking to its field, and each again at its field. They change
 * on a submit and as a person leaves a field, never as they type, so nothing they aim at moves.
 */
export function FormCard({ form, editable, onChange, onSubmit, onEdit, onKeep, onLeave }) {
  const additionalErrors = useMemo(() => toAdditionalErrors(form.errors), [form.errors]);
  // The latest onLeave behind a config that stays one object, so no control renders again for it.
  const leave = useRef(onLeave);
  leave.current = onLeave;
  const config = useMemo(() => ({ formId: form.id, onLeave: (path) => leave.current?.(form.id, path) }), [form.id]);
  // The values JSON Forms was last given. It loads them again whenever any of its props changes,
  // messages included; unless they are new, what was typed since stays.
  const given = useRef(undefined);
  const open = form.status === 'open' || form.status === 'sending';
  const title = form.schema?.title ?? form.id;
  const summaryId = `errors-${form.id}`;
  const submit = (event) => {
    event.preventDefault();
    if (editable && form.status === 'open') {
      onSubmit(form.id);
    }
  };
  return (
    <section className={`card form ${form.status}`} data-form={form.id} aria-labelledby={`title-${form.id}`}>
      <header>
        <h2 id={`title-${form.id}`}>{title}</h2>
        {form.status === 'done' && <span className="badge done">Done</span>}
        {open && form.askedAgain && <span className="badge attention">Asked again</span>}
        {open && form.accepted && !form.askedAgain && <span className="badge attention">Changing</span>}
      </header>
      {form.schema?.description && <p className="hint">{form.schema.description}</p>}
      {form.notice && (
        <p className="form-notice" role="status">
          {form.notice}
        </p>
      )}
      {form.errors.length > 0 && (
        <div className="error-summary" id={summaryId} tabIndex={-1} role="alert" aria-labelledby={`${summaryId}-title`}>
          <h3 id={`${summaryId}-title`}>There is a problem</h3>
          <ul>
            {form.errors.map((error, index) => (
              <li key={index} data-pointer={error.pointer}>
                {error.pointer ? (
                  <a href={`#${fieldId(form.id, pathOf(error.pointer))}`} onClick={focusField}>
                    {error.message}
                  </a>
                ) : (
                  error.message
                )}
              </li>
            ))}
          </ul>
        </div>
      )}
      <form
        noValidate
        onSubmit={submit}
        aria-labelledby={`title-${form.id}`}
        className={!open || !editable ? 'finished' : undefined}
      >
        <JsonForms
          key={form.version}
          schema={form.schema}
          uischema={form.uischema ?? undefined}
          data={form.initial}
          renderers={renderers}
          cells={vanillaCells}
          ajv={ajv}
          config={config}
          i18n={i18n}
          readonly={!open || !editable || form.status === 'sending'}
          validationMode="ValidateAndHide"
          additionalErrors={additionalErrors}
          middleware={(state, action, reducer) => {
            let next;
            if (action.type === Actions.UPDATE_CORE && action.data === given.current) {
              next = reducer(state, { ...action, data: state.data });
            } else {
              if (action.type === Actions.INIT || action.type === Actions.UPDATE_CORE) given.current = action.data;
              next = reducer(state, action);
            }
            // Every change, at once: the form's values as they stand after each key, for the
            // submit that may follow the very next moment.
            onChange(form.id, next.data);
            return next;
          }}
        />
        {open && (
          <footer>
            <button type="submit" className="primary" disabled={!editable || form.status === 'sending'} aria-disabled={form.status === 'sending'}>
              {form.status === 'sending' ? 'Sending…' : `Submit ${title.toLowerCase()}`}
            </button>
            {form.accepted && !form.askedAgain && (
              <button type="button" className="secondary" onClick={() => onKeep(form.id)} disabled={form.status === 'sending'}>
                Keep as it was
              </button>
            )}
          </footer>
        )}
        {!open && editable && form.status === 'done' && (
          <footer>
            <button type="button" className="secondary" onClick={() => onEdit(form.id)}>
              Change<span className="visually-hidden"> {title.toLowerCase()}</span>
            </button>
          </footer>
        )}
      </form>
    </section>
  );
}

// A link to a field focuses it, as GOV.UK's error summary does; one to a group (which has no
// input of its own) scrolls to where the group's first input is.
function focusField(event) {
  const id = event.currentTarget.getAttribute('href').slice(1);
  const target = document.getElementById(id);
  if (target) {
    event.preventDefault();
    target.focus();
  }
}
