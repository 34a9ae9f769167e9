import { type ChangeEvent, useCallback, useState } from 'react';
import { focusFirstError } from './focus';

export type FieldErrors<F extends string> = Partial<Record<F, string>>;

/**
 * A form's values and per-field errors. `change(name)` stores what was typed and clears that field's error
 * (SPEC §5: an error clears as its field is edited); the other errors stay until the next submit.
 * `showErrors(found, form)` shows a failed validation and focuses its first field.
 */
export function useFormFields<F extends string, V extends Record<F, string>>(initial: V | (() => V)) {
  const [values, setValues] = useState<V>(initial);
  const [errors, setErrors] = useState<FieldErrors<F>>({});
  const change = useCallback(
    (name: F) => (event: ChangeEvent<HTMLInputElement>) => {
      const { value } = event.target;
      setValues((current) => ({ ...current, [name]: value }));
      setErrors((current) => {
        if (!(name in current)) return current;
        const { [name]: _cleared, ...rest } = current;
        return rest as FieldErrors<F>;
      });
    },
    [],
  );
  // SPEC §5: the errors show at once and the visitor lands on the first field, in reading order, that has one.
  const showErrors = useCallback((found: FieldErrors<F>, form: HTMLFormElement | null) => {
    setErrors(found);
    focusFirstError(form, Object.keys(found));
  }, []);
  /** What a field of this form needs: `<InputField label="Email" {...bind('email')} />`. */
  const bind = (name: F) => ({ name, value: values[name], onChange: change(name), error: errors[name] });
  return { values, setValues, errors, setErrors, change, showErrors, bind };
}
