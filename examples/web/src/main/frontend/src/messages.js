// Every message the page shows about a value, in plain words that name the field by its label,
// after GOV.UK's error message patterns: say what to do, not what the validator found. This file is
// the one place to translate or reword them. The service's own words go to the backend's log.
import { problems } from './ajv.js';

// One entry per JSON Schema keyword the forms use; `format` has one entry per format.
const WORDS = {
  required: ({ label, schema }) =>
    isChoice(schema) ? `Select ${lower(label)}` : schema?.type === 'array' ? `Add ${lower(label)}` : `Enter ${lower(label)}`,
  type: ({ label, params }) =>
    params.type === 'integer'
      ? `${label} must be a whole number, like 5000000`
      : params.type === 'number'
        ? `${label} must be a number, like 0.0001`
        : `Enter ${lower(label)}`,
  format: {
    email: ({ label }) => `Enter ${lower(label)} in the correct format, like name@example.com`,
    uri: ({ label }) => `Enter ${lower(label)} as a full web address, like https://www.example.com`,
    date: ({ label }) => `Enter ${lower(label)} as a real date`,
    other: ({ label }) => `Enter ${lower(label)} in the correct format`,
  },
  pattern: ({ label, schema }) =>
    `Enter ${lower(label)} in the correct format${schema?.description ? `: ${schema.description}` : ''}`,
  minimum: ({ label, params }) => `${label} must be ${params.limit} or more`,
  exclusiveMinimum: ({ label, params }) => `${label} must be more than ${params.limit}`,
  maximum: ({ label, params }) => `${label} must be ${params.limit} or less`,
  exclusiveMaximum: ({ label, params }) => `${label} must be less than ${params.limit}`,
  minLength: ({ label, params }) =>
    params.limit <= 1 ? `Enter ${lower(label)}` : `${label} must be ${params.limit} characters or more`,
  maxLength: ({ label, params }) => `${label} must be ${params.limit} characters or fewer`,
  enum: ({ label }) => `Select ${lower(label)} from the list`,
  const: ({ label, params }) => `${label} must be ${params.allowedValue}`,
  minItems: ({ label, params }) =>
    `${label}: add at least ${params.limit} ${params.limit === 1 ? 'entry' : 'entries'}`,
  maxItems: ({ label, params }) => `${label}: remove entries to leave ${params.limit} at most`,
  additionalProperties: ({ label }) => `${label} has a value this form does not take`,
};

/** Plain words for one problem found by the schema, or null for a keyword not listed above. */
export function plainWords(problem, rootSchema) {
  const { label, schema } = describe(rootSchema, problem.pointer);
  const words = problem.keyword === 'format' ? WORDS.format[problem.params.format] ?? WORDS.format.other : WORDS[problem.keyword];
  return words ? words({ label, schema, params: problem.params }) : null;
}

/**
 * The service's errors about values it was sent, each in plain words: the page finds, with the
 * form's own schema, what is wrong at the error's pointer and says it with the field's label. An
 * error the schema does not explain keeps the service's words, after the field's label.
 */
export function explain(serviceErrors, rootSchema, sent) {
  const found = problems(rootSchema, sent);
  return inFormOrder(serviceErrors, rootSchema).map((error) => {
    const problem = found.find((candidate) => candidate.pointer === error.pointer);
    const plain = problem && plainWords(problem, rootSchema);
    return {
      pointer: error.pointer,
      message: plain ?? (error.pointer ? `${describe(rootSchema, error.pointer).label}: ${error.message}` : error.message),
    };
  });
}

/** What the schema finds wrong with the values, in plain words: for a form the service asks for again. */
export function check(rootSchema, data) {
  return inFormOrder(problems(rootSchema, data), rootSchema).map((problem) => ({
    pointer: problem.pointer,
    message: plainWords(problem, rootSchema) ?? `${describe(rootSchema, problem.pointer).label} is not valid`,
  }));
}

/**
 * The label of the value at a JSON Pointer, as the form shows it (its schema's title), with the
 * entry it belongs to when it is inside a list: "Email (Directors 1)".
 */
export function describe(rootSchema, pointer) {
  let schema = rootSchema;
  let label = rootSchema?.title ?? 'This form';
  let entry = null;
  for (const segment of pointer.split('/').slice(1).map(unescape)) {
    if (schema?.type === 'array') {
      entry = `${schema.title ?? 'entry'} ${Number(segment) + 1}`;
      schema = schema.items;
      continue;
    }
    schema = schema?.properties?.[segment];
    label = schema?.title ?? humanize(segment);
  }
  return { label: entry ? `${label} (${entry})` : label, schema };
}

// Errors in the order of their fields in the form, as GOV.UK's error summary lists them: by the
// order of the schema's properties, and of the entries in a list.
export function inFormOrder(errors, rootSchema) {
  const position = (pointer) => {
    let schema = rootSchema;
    return pointer
      .split('/')
      .slice(1)
      .map(unescape)
      .map((segment) => {
        if (schema?.type === 'array') {
          schema = schema.items;
          return Number(segment);
        }
        const index = Object.keys(schema?.properties ?? {}).indexOf(segment);
        schema = schema?.properties?.[segment];
        return index;
      });
  };
  const compare = (a, b) => {
    for (let i = 0; i < Math.min(a.length, b.length); i++) {
      if (a[i] !== b[i]) return a[i] - b[i];
    }
    return a.length - b.length;
  };
  return [...errors].sort((x, y) => compare(position(x.pointer), position(y.pointer)));
}

function isChoice(schema) {
  return schema && ('enum' in schema || 'const' in schema);
}

// "Company name" → "company name", but "ZIP code" stays as it is.
function lower(label) {
  return /^[A-Z][a-z]/.test(label) ? label[0].toLowerCase() + label.slice(1) : label;
}

function humanize(name) {
  const words = String(name).replaceAll('_', ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function unescape(segment) {
  return segment.replaceAll('~1', '/').replaceAll('~0', '~');
}
