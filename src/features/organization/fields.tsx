import { type ReactNode, useId } from 'react';

interface CommonProps {
  label: string;
  /** Marked required (spec: "Organization Name and Organization Type are marked required"). */
  required?: boolean;
  error?: string | undefined;
  hint?: string;
  disabled?: boolean;
  name: string;
}

function Label({ id, label, required }: { id: string; label: string; required?: boolean | undefined }) {
  return (
    <label className="field__label" htmlFor={id}>
      {label}
      {required ? (
        <span className="details__required" aria-hidden="true">
          {' '}
          *
        </span>
      ) : null}
    </label>
  );
}

function Describe({
  id,
  error,
  hint,
}: {
  id: string;
  error?: string | undefined;
  hint?: string | undefined;
}) {
  return (
    <>
      {hint ? (
        <p id={`${id}-hint`} className="details__hint">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className="field__error">
          {error}
        </p>
      ) : null}
    </>
  );
}

function describedBy(id: string, error?: string, hint?: string): string | undefined {
  const ids = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean);
  return ids.length ? ids.join(' ') : undefined;
}

export interface TextFieldProps extends CommonProps {
  value: string;
  onChange: (value: string) => void;
  type?: 'text' | 'email' | 'tel' | 'url' | 'password' | 'number';
  maxLength?: number;
  autoComplete?: string;
  min?: number;
  step?: number;
}

/** A labelled input whose error and hint are announced with it. */
export function TextField({
  label,
  required,
  error,
  hint,
  disabled,
  name,
  value,
  onChange,
  type = 'text',
  maxLength,
  autoComplete,
  min,
  step,
}: TextFieldProps) {
  const id = useId();
  return (
    <div className="field" data-field={name}>
      <Label id={id} label={label} required={required} />
      <input
        id={id}
        className="field__input"
        name={name}
        type={type}
        value={value}
        required={required}
        disabled={disabled}
        maxLength={maxLength}
        autoComplete={autoComplete ?? 'off'}
        min={min}
        step={step}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, error, hint)}
        onChange={(e) => onChange(e.target.value)}
      />
      <Describe id={id} error={error} hint={hint} />
    </div>
  );
}

export interface SelectFieldProps extends CommonProps {
  value: string;
  onChange: (value: string) => void;
  options: ReadonlyArray<{ value: string; label: string }>;
  /** A first, empty choice (e.g. 'Select a type'). */
  placeholder?: string;
}

export function SelectField({
  label,
  required,
  error,
  hint,
  disabled,
  name,
  value,
  onChange,
  options,
  placeholder,
}: SelectFieldProps) {
  const id = useId();
  return (
    <div className="field" data-field={name}>
      <Label id={id} label={label} required={required} />
      <select
        id={id}
        className="field__input"
        name={name}
        value={value}
        required={required}
        disabled={disabled}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, error, hint)}
        onChange={(e) => onChange(e.target.value)}
      >
        {placeholder !== undefined ? <option value="">{placeholder}</option> : null}
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      <Describe id={id} error={error} hint={hint} />
    </div>
  );
}

export interface TextAreaFieldProps extends CommonProps {
  value: string;
  onChange: (value: string) => void;
  maxLength?: number;
}

export function TextAreaField({
  label,
  required,
  error,
  hint,
  disabled,
  name,
  value,
  onChange,
  maxLength,
}: TextAreaFieldProps) {
  const id = useId();
  return (
    <div className="field" data-field={name}>
      <Label id={id} label={label} required={required} />
      <textarea
        id={id}
        className="field__input details__textarea"
        name={name}
        value={value}
        rows={4}
        required={required}
        disabled={disabled}
        maxLength={maxLength}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, error, hint)}
        onChange={(e) => onChange(e.target.value)}
      />
      <Describe id={id} error={error} hint={hint} />
    </div>
  );
}

/** A titled part of a tab. */
export function Section({
  title,
  description,
  children,
}: {
  title: string;
  description?: string;
  children: ReactNode;
}) {
  const id = useId();
  return (
    <section className="details__section" aria-labelledby={id}>
      <div className="details__section-header">
        <h2 id={id} className="details__section-title">
          {title}
        </h2>
        {description ? <p className="muted">{description}</p> : null}
      </div>
      {children}
    </section>
  );
}
