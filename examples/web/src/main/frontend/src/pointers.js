// The service reports each rejected value with a JSON Pointer ("/directors/0/email"). AJV's
// instancePath is a JSON Pointer too, which is how JSON Forms places an error at its control, so
// the service's errors become AJV-shaped errors handed to JSON Forms as `additionalErrors`.

export function toAdditionalErrors(serviceErrors) {
  return serviceErrors
    .filter((error) => error.pointer !== '')
    .map((error) => ({
      instancePath: error.pointer,
      message: error.message,
      schemaPath: '',
      keyword: '',
      params: {},
    }));
}

/** Errors no control can show: about the whole form, or about a field the form does not have. */
export function formLevelErrors(serviceErrors, schema) {
  const fields = Object.keys(schema?.properties ?? {});
  return serviceErrors.filter((error) => !fields.includes(firstSegment(error.pointer)));
}

/** Drops the errors about values the user has changed since the service saw them. */
export function stillStanding(serviceErrors, before, after) {
  return serviceErrors.filter(
    (error) => JSON.stringify(valueAt(before, error.pointer)) === JSON.stringify(valueAt(after, error.pointer)),
  );
}

function firstSegment(pointer) {
  return pointer === '' ? null : unescape(pointer.split('/')[1]);
}

function valueAt(data, pointer) {
  if (pointer === '') {
    return data;
  }
  let node = data;
  for (const segment of pointer.split('/').slice(1).map(unescape)) {
    if (node === null || typeof node !== 'object') {
      return undefined;
    }
    node = node[segment];
  }
  return node;
}

function unescape(segment) {
  return segment.replaceAll('~1', '/').replaceAll('~0', '~');
}
