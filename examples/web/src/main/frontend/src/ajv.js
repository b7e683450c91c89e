// The forms' schemas are JSON Schema draft 2020-12. JSON Forms' own createAjv builds a draft-07
// validator, so the page makes its own from AJV's 2020 build, with the options JSON Forms expects
// (every error, with the data it is about) and the formats the schemas use (email, uri, date...).
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

export function createAjv2020() {
  const ajv = new Ajv2020({
    allErrors: true,
    verbose: true,
    strict: false,
    // Fills in the schemas' defaults, so a form starts with what the service suggests.
    useDefaults: true,
    // Each form's schema is compiled on its own; none is registered by an id.
    addUsedSchema: false,
  });
  addFormats(ajv);
  return ajv;
}

export const ajv = createAjv2020();

/** Whether values satisfy a schema, without touching the values. */
export function satisfies(schema, data) {
  return ajv.validate(schema, structuredClone(data ?? {}));
}
