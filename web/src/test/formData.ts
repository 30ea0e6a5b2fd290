//! Records the fields of every FormData a page builds, for the tests of multipart requests
//! (the test fetch does not read multipart bodies). It watches `FormData.prototype.set`:
//! the first field, and each `event_key`, start a new form. Call it in `beforeEach`; the
//! test file's `vi.restoreAllMocks()` stops it.

import { vi } from 'vitest';

/** The forms built from now on, oldest first, each as its fields by name (filled as the
 * page builds them). */
export function recordForms(): Record<string, unknown>[] {
  const forms: Record<string, unknown>[] = [];
  // eslint-disable-next-line @typescript-eslint/unbound-method -- applied to the form below
  const set = FormData.prototype.set;
  vi.spyOn(FormData.prototype, 'set').mockImplementation(function (this: FormData, ...args: [string, string | Blob, string?]) {
    const [name, value] = args;
    if (forms.length === 0 || name === 'event_key') forms.push({});
    forms[forms.length - 1]![name] = value;
    Reflect.apply(set, this, args);
  });
  return forms;
}
