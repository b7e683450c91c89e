import { useMemo } from 'react';
import { JsonForms } from '@jsonforms/react';
import { vanillaCells, vanillaRenderers } from '@jsonforms/vanilla-renderers';
import { ajv } from './ajv.js';
import { formLevelErrors, toAdditionalErrors } from './pointers.js';

/**
 * One form of the document set, rendered by JSON Forms from the service's JSON Schema and UI
 * schema. The service's errors are shown at their fields; the page's own checks stay hidden until
 * the service asks for a form again, as the service is the one that decides what it accepts.
 */
export function FormCard({ form, editable, onData, onSubmit, onEdit }) {
  const additionalErrors = useMemo(() => toAdditionalErrors(form.errors), [form.errors]);
  const general = formLevelErrors(form.errors, form.schema);
  const open = form.status !== 'done';
  const title = form.schema?.title ?? form.id;
  return (
    <section className={`card form ${form.status}`} data-form={form.id} aria-label={title}>
      <header>
        <h2>{title}</h2>
        {form.status === 'done' && <span className="badge done">Done</span>}
        {open && form.askedAgain && <span className="badge attention">Asked again</span>}
      </header>
      {form.schema?.description && <p className="hint">{form.schema.description}</p>}
      {general.length > 0 && (
        <ul className="form-errors" role="alert">
          {general.map((error, index) => (
            <li key={index}>
              {error.pointer && <code>{error.pointer}</code>} {error.message}
            </li>
          ))}
        </ul>
      )}
      <JsonForms
        schema={form.schema}
        uischema={form.uischema ?? undefined}
        data={form.data}
        renderers={vanillaRenderers}
        cells={vanillaCells}
        ajv={ajv}
        readonly={form.status !== 'open' || !editable}
        validationMode={form.askedAgain ? 'ValidateAndShow' : 'ValidateAndHide'}
        additionalErrors={additionalErrors}
        onChange={({ data }) => onData(form.id, data)}
      />
      {open && (
        <footer>
          <button type="button" onClick={() => onSubmit(form.id)} disabled={!editable || form.status === 'sending'}>
            {form.status === 'sending' ? 'Sending…' : `Submit ${title.toLowerCase()}`}
          </button>
        </footer>
      )}
      {!open && editable && (
        <footer>
          <button type="button" className="secondary" onClick={() => onEdit(form.id)}>
            Change
          </button>
        </footer>
      )}
    </section>
  );
}
