import { getInputProps, getSelectProps, type FieldMetadata } from '@conform-to/react';

// Accessible fields for Conform forms: every input has a label, its errors are linked with
// aria-describedby, and the value survives a failed submit (Conform's defaultValue).

type InputType = 'text' | 'email' | 'password' | 'search' | 'number' | 'date' | 'hidden';

export function TextField({
  meta,
  label,
  type = 'text',
  hint,
  autoComplete,
  autoFocus,
  inputMode,
}: {
  meta: FieldMetadata<string | undefined>;
  label: string;
  type?: InputType;
  hint?: string;
  autoComplete?: string;
  autoFocus?: boolean;
  inputMode?: 'numeric' | 'decimal' | 'text' | 'email';
}) {
  const hintId = hint ? `${meta.id}-hint` : undefined;
  const props = getInputProps(meta, { type: type === 'hidden' ? 'hidden' : type, ariaDescribedBy: hintId });
  return (
    <div className="field">
      <label htmlFor={meta.id}>{label}</label>
      {hint ? (
        <p id={hintId} className="field__hint">
          {hint}
        </p>
      ) : null}
      <input {...props} key={props.key} autoComplete={autoComplete} autoFocus={autoFocus} inputMode={inputMode} />
      {meta.errors?.length ? (
        <p id={meta.errorId} className="field__error">
          {meta.errors.join(' ')}
        </p>
      ) : null}
    </div>
  );
}

export function SelectField({
  meta,
  label,
  options,
  hint,
}: {
  meta: FieldMetadata<string | undefined>;
  label: string;
  options: readonly { value: string; label: string }[];
  hint?: string;
}) {
  const hintId = hint ? `${meta.id}-hint` : undefined;
  const props = getSelectProps(meta, { ariaDescribedBy: hintId });
  return (
    <div className="field">
      <label htmlFor={meta.id}>{label}</label>
      {hint ? (
        <p id={hintId} className="field__hint">
          {hint}
        </p>
      ) : null}
      <select {...props} key={props.key}>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      {meta.errors?.length ? (
        <p id={meta.errorId} className="field__error">
          {meta.errors.join(' ')}
        </p>
      ) : null}
    </div>
  );
}

export function FormErrors({ errors, id }: { errors?: string[]; id: string }) {
  if (!errors?.length) return null;
  return (
    <p id={id} className="form-errors" role="alert">
      {errors.join(' ')}
    </p>
  );
}

/** A file input with the same label, hint and error wiring as TextField (files never refill). */
export function FileField({ meta, label, hint, accept }: { meta: FieldMetadata<File | undefined>; label: string; hint?: string; accept?: string }) {
  const hintId = hint ? `${meta.id}-hint` : undefined;
  const props = getInputProps(meta, { type: 'file', ariaDescribedBy: hintId });
  return (
    <div className="field">
      <label htmlFor={meta.id}>{label}</label>
      {hint ? (
        <p id={hintId} className="field__hint">
          {hint}
        </p>
      ) : null}
      <input {...props} key={props.key} accept={accept} />
      {meta.errors?.length ? (
        <p id={meta.errorId} className="field__error">
          {meta.errors.join(' ')}
        </p>
      ) : null}
    </div>
  );
}
