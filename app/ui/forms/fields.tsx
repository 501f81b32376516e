import type { ReactNode } from 'react';
import { getInputProps, getSelectProps, type FieldMetadata } from '@conform-to/react';

// Accessible fields for Conform forms: every input has a label, its hint and errors are linked
// with aria-describedby, and the value survives a failed submit (Conform's defaultValue).

type InputType = 'text' | 'email' | 'password' | 'search' | 'number' | 'date' | 'hidden';

const hintIdOf = (meta: { id: string }, hint?: string) => (hint ? `${meta.id}-hint` : undefined);

/** Label, hint, the control, and its errors: the one layout every field shares. */
function FieldShell({
  meta,
  label,
  hint,
  children,
}: {
  meta: { id: string; errorId: string; errors?: string[] };
  label: string;
  hint?: string;
  children: ReactNode;
}) {
  return (
    <div className="field">
      <label htmlFor={meta.id}>{label}</label>
      {hint ? (
        <p id={hintIdOf(meta, hint)} className="field__hint">
          {hint}
        </p>
      ) : null}
      {children}
      {meta.errors?.length ? (
        <p id={meta.errorId} className="field__error">
          {meta.errors.join(' ')}
        </p>
      ) : null}
    </div>
  );
}

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
  const props = getInputProps(meta, { type: type === 'hidden' ? 'hidden' : type, ariaDescribedBy: hintIdOf(meta, hint) });
  return (
    <FieldShell meta={meta} label={label} hint={hint}>
      <input {...props} key={props.key} autoComplete={autoComplete} autoFocus={autoFocus} inputMode={inputMode} />
    </FieldShell>
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
  const props = getSelectProps(meta, { ariaDescribedBy: hintIdOf(meta, hint) });
  return (
    <FieldShell meta={meta} label={label} hint={hint}>
      <select {...props} key={props.key}>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </FieldShell>
  );
}

/** A file input with the same label, hint and error wiring (files never refill). */
export function FileField({
  meta,
  label,
  hint,
  accept,
}: {
  meta: FieldMetadata<File | undefined>;
  label: string;
  hint?: string;
  accept?: string;
}) {
  const props = getInputProps(meta, { type: 'file', ariaDescribedBy: hintIdOf(meta, hint) });
  return (
    <FieldShell meta={meta} label={label} hint={hint}>
      <input {...props} key={props.key} accept={accept} />
    </FieldShell>
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
