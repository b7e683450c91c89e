// The forms' schemas are JSON Schema draft 2020-12. JSON Forms' own createAjv builds a draft-07
// validator, so the page makes its own from AJV's 2020 build, with the options JSON Forms expects
// (every error, with the data it is about) and the formats the schemas use (email, uri, date...).
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

function createAjv2020(options = {}) {
  const ajv = new Ajv2020({
    allErrors: true,
    verbose: true,
    strict: false,
    // Each form's schema is compiled on its own; none is registered by an id.
    addUsedSchema: false,
    ...options,
  });
  addFormats(ajv);
  return ajv;
}

// The validator JSON Forms runs on every change. It never fills in defaults: one that did would
// put a default back the moment a person clears its field, and append what they type to it.
export const ajv = createAjv2020();

// Fills in a schema's defaults, once, when a form arrives with no values of its own.
const filling = createAjv2020({ useDefaults: true });

/** The values with the schema's defaults filled in where there are none; a copy. */
export function withDefaults(schema, data) {
  const copy = structuredClone(data ?? {});
  filling.validate(schema, copy);
  return copy;
}

/** Whether values satisfy a schema, without touching the values. */
export function satisfies(schema, data) {
  return ajv.validate(schema, data ?? {});
}

/**
 * What the schema finds wrong with the values, one entry per value, each with the JSON Pointer of
 * that value (a missing property's own pointer, not its parent's), its keyword and the parameters.
 */
export function problems(schema, data) {
  if (ajv.validate(schema, data ?? {})) {
    return [];
  }
  return ajv.errors.map((error) => ({
    pointer:
      error.keyword === 'required'
        ? `${error.instancePath}/${escape(error.params.missingProperty)}`
        : error.instancePath,
    keyword: error.keyword,
    params: error.params,
  }));
}

function escape(segment) {
  return String(segment).replaceAll('~', '~0').replaceAll('/', '~1');
}
