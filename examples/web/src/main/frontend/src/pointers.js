// The service reports each rejected value with a JSON Pointer ("/directors/0/email"). AJV's
// instancePath is a JSON Pointer too, which is how JSON Forms places an error at its control, so
// the page's errors (already in plain words) become AJV-shaped errors handed to JSON Forms as
// `additionalErrors`. One about no control (a group, the whole form) is in the form's summary.
export function toAdditionalErrors(errors) {
  return errors
    .filter((error) => error.pointer !== '')
    .map((error) => ({
      instancePath: error.pointer,
      message: error.message,
      schemaPath: '',
      keyword: '',
      params: {},
    }));
}

/** The JSON Forms path of the value at a JSON Pointer: "/directors/0/email" → "directors.0.email". */
export function pathOf(pointer) {
  return pointer
    .split('/')
    .slice(1)
    .map((segment) => segment.replaceAll('~1', '/').replaceAll('~0', '~'))
    .join('.');
}
