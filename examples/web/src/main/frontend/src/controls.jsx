// The inputs of every form: one renderer for text, numbers, dates and choices, ranked above JSON
// Forms' vanilla ones (which still lay out groups, lists and the rest). What the person types is
// what the form holds, character for character: a number field keeps the text typed and holds the
// number it reads as, or the text itself when it is not a number, so the service says why.
import { useEffect, useState } from 'react';
import {
  and,
  convertToValidClassName,
  isControl,
  isEnumControl,
  isIntegerControl,
  isMultiLineControl,
  isNumberControl,
  isStringControl,
  or,
  rankWith,
} from '@jsonforms/core';
import { withJsonFormsControlProps, withJsonFormsEnumProps } from '@jsonforms/react';
import { inputAttributes } from './inputs.js';

// A JSON number as people type it: 5000000, -5, 2.5, 0.00001, 1e-7.
const NUMBER = /^-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;

function toValue(text, schema) {
  if (text === '') {
    return undefined;
  }
  if (schema.type === 'integer' || schema.type === 'number') {
    const trimmed = text.trim();
    return NUMBER.test(trimmed) && Number.isFinite(Number(trimmed)) ? Number(trimmed) : text;
  }
  return text;
}

function toText(value) {
  return value === undefined || value === null ? '' : String(value);
}

/** The DOM id of a field: the form's id and the value's path, which the error summary links to. */
export function fieldId(formId, path) {
  return `field-${formId}-${path}`.replace(/[^A-Za-z0-9_-]/g, '-');
}

function Field({ props, children, inputId }) {
  const { label, description, errors, required, visible, uischema } = props;
  const messages = [...new Set((errors ?? '').split('\n').filter(Boolean))];
  const invalid = messages.length > 0;
  return (
    <div className={`control ${convertToValidClassName(uischema.scope)}${invalid ? ' invalid' : ''}`} hidden={!visible}>
      <label htmlFor={inputId}>
        {label}
        {!required && <span className="optional"> (optional)</span>}
      </label>
      {description && (
        <p className="field-hint" id={`${inputId}-hint`}>
          {description}
        </p>
      )}
      {invalid && (
        <p className="validation_error" id={`${inputId}-error`}>
          <span className="visually-hidden">Error: </span>
          {messages.join('. ')}
        </p>
      )}
      {children(invalid)}
    </div>
  );
}

// Leaving a field checks it again (App's recheck), unless the person is pressing a button: a message
// going would move that button between press and release, and the click would be lost. Submit
// checks every field anyway.
function leave(config, path, event) {
  if (!event.relatedTarget?.matches('button')) {
    config.onLeave?.(path);
  }
}

function describedBy(inputId, description, invalid) {
  return [description && `${inputId}-hint`, invalid && `${inputId}-error`].filter(Boolean).join(' ') || undefined;
}

function InputControl(props) {
  const { data, schema, path, enabled, handleChange, config, required, description, uischema } = props;
  const [text, setText] = useState(() => toText(data));
  // The form's values replaced from outside (the service's answer): show them.
  useEffect(() => {
    if (toValue(text, schema) !== data) {
      setText(toText(data));
    }
    // Only a change of the value from outside matters here; typing changes both together.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [data]);
  const inputId = fieldId(config.formId, path);
  const multi = isMultiLineControl(uischema, schema);
  const attributes = inputAttributes(schema, path, `${config.formId}-${path.split('.').slice(0, -1).join('-')}`);
  const change = (event) => {
    setText(event.target.value);
    handleChange(path, toValue(event.target.value, schema));
  };
  return (
    <Field props={props} inputId={inputId}>
      {(invalid) => {
        const common = {
          id: inputId,
          name: path,
          value: text,
          onChange: change,
          onBlur: (event) => leave(config, path, event),
          disabled: !enabled,
          'aria-invalid': invalid,
          'aria-required': required,
          'aria-describedby': describedBy(inputId, description, invalid),
        };
        return multi ? (
          <textarea {...common} rows={3} autoComplete={attributes.autoComplete} />
        ) : (
          <input {...common} {...attributes} />
        );
      }}
    </Field>
  );
}

function SelectControl(props) {
  const { data, path, enabled, handleChange, config, options, required, description } = props;
  const inputId = fieldId(config.formId, path);
  const attributes = inputAttributes(props.schema, path, `${config.formId}-${path.split('.').slice(0, -1).join('-')}`);
  return (
    <Field props={props} inputId={inputId}>
      {(invalid) => (
        <select
          id={inputId}
          name={path}
          value={data ?? ''}
          onChange={(event) => handleChange(path, event.target.value === '' ? undefined : event.target.value)}
          onBlur={(event) => leave(config, path, event)}
          disabled={!enabled}
          autoComplete={attributes.autoComplete}
          aria-invalid={invalid}
          aria-required={required}
          aria-describedby={describedBy(inputId, description, invalid)}
        >
          <option value="">Select…</option>
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

export const controls = [
  { tester: rankWith(10, isEnumControl), renderer: withJsonFormsEnumProps(SelectControl) },
  {
    tester: rankWith(5, and(isControl, or(isStringControl, isNumberControl, isIntegerControl))),
    renderer: withJsonFormsControlProps(InputControl),
  },
];
