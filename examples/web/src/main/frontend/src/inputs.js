// What each input tells the browser about its value, so that phones show the right keyboard and
// browsers and password managers fill in the right things: `type`, `inputmode` and
// `autocomplete`. Read from the schema (its type and format) and the field's name; the one place
// to adjust for other forms.

// Fields by name whose value autofill knows. Anything else is "off": a director's name is not the
// name of the person typing it.
const AUTOFILL = {
  email: 'email',
  website: 'url',
  street: 'address-line1',
  city: 'address-level2',
  state: 'address-level1',
  zip: 'postal-code',
  postal_code: 'postal-code',
};

/** The attributes for the input of a value of this schema at this path ("directors.0.email"). */
export function inputAttributes(schema, path, section) {
  const name = path.split('.').at(-1);
  const token = AUTOFILL[name];
  // Each form, and each entry of a list, is its own section: two emails are not the same field.
  const autocomplete = token ? `section-${section.replace(/[^A-Za-z0-9-]/g, '-')} ${token}` : 'off';
  if (schema.type === 'integer') {
    return { type: 'text', inputMode: 'numeric', autoComplete: autocomplete };
  }
  if (schema.type === 'number') {
    return { type: 'text', inputMode: 'decimal', autoComplete: autocomplete };
  }
  switch (schema.format) {
    case 'email':
      return { type: 'email', inputMode: 'email', autoComplete: autocomplete, spellCheck: false };
    case 'uri':
      return { type: 'url', inputMode: 'url', autoComplete: autocomplete, spellCheck: false };
    case 'date':
      return { type: 'date', autoComplete: autocomplete };
    default:
      if (token === 'postal-code' || /^\^?\[0-9\]/.test(schema.pattern ?? '')) {
        return { type: 'text', inputMode: 'numeric', autoComplete: autocomplete };
      }
      return { type: 'text', inputMode: 'text', autoComplete: autocomplete };
  }
}
