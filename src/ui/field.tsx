import {
  type InputHTMLAttributes,
  type ReactNode,
  type Ref,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
  useId,
} from 'react';

/** What every labelled control shares: its label, the required marker, a hint and an error. */
interface FrameProps {
  label: string;
  /** Shows the required marker (the control's own `required` stays as given). */
  required?: boolean | undefined;
  /** Guidance under the control, announced with it. */
  hint?: string | undefined;
  /** Shown under the control, announced with it (aria-describedby) and marking it invalid. */
  error?: string | undefined;
  /** Announce the error as it appears (role=alert): for errors that come after an action, not on submit. */
  announce?: boolean | undefined;
  className?: string | undefined;
}

type ControlAria = {
  id: string;
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
};

/**
 * Label, control, hint and error text, wired together for assistive technology. The control is
 * rendered by `children` with the ids it needs.
 */
function FieldFrame({
  label,
  required,
  hint,
  error,
  announce,
  className,
  children,
}: FrameProps & { children: (aria: ControlAria) => ReactNode }) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : '';
  const errorId = error ? `${id}-error` : '';
  const describedBy = [hintId, errorId].filter(Boolean).join(' ') || undefined;
  return (
    <div className={['field', className ?? ''].filter(Boolean).join(' ')}>
      <label className="field__label" htmlFor={id}>
        {label}
        {required ? (
          <span className="field__required" aria-hidden="true">
            {' '}
            *
          </span>
        ) : null}
      </label>
      {children({ id, 'aria-invalid': error ? true : undefined, 'aria-describedby': describedBy })}
      {hint ? (
        <p id={hintId} className="field__hint">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={errorId} className="field__error" role={announce ? 'alert' : undefined}>
          {error}
        </p>
      ) : null}
    </div>
  );
}

export interface FieldProps
  extends FrameProps,
    Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'className'> {
  /** The input itself (React 19 passes refs as props), e.g. to clear a file input. */
  ref?: Ref<HTMLInputElement>;
}

/** A labelled input. */
export function Field({ label, required, hint, error, announce, className, ...input }: FieldProps) {
  return (
    <FieldFrame
      label={label}
      required={required}
      hint={hint}
      error={error}
      announce={announce}
      className={className}
    >
      {(aria) => <input className="field__input" required={required} {...aria} {...input} />}
    </FieldFrame>
  );
}

export interface SelectFieldProps
  extends FrameProps,
    Omit<SelectHTMLAttributes<HTMLSelectElement>, 'id' | 'className'> {
  /** The choices; an empty `placeholder` option comes first when given. */
  options: ReadonlyArray<{ value: string; label: string }>;
  placeholder?: string | undefined;
}

/** A labelled <select>. */
export function SelectField({
  label,
  required,
  hint,
  error,
  className,
  options,
  placeholder,
  ...select
}: SelectFieldProps) {
  return (
    <FieldFrame label={label} required={required} hint={hint} error={error} className={className}>
      {(aria) => (
        <select className="field__input" required={required} {...aria} {...select}>
          {placeholder !== undefined ? <option value="">{placeholder}</option> : null}
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      )}
    </FieldFrame>
  );
}

export interface TextAreaFieldProps
  extends FrameProps,
    Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'id' | 'className'> {}

/** A labelled <textarea>. */
export function TextAreaField({ label, required, hint, error, className, ...textarea }: TextAreaFieldProps) {
  return (
    <FieldFrame label={label} required={required} hint={hint} error={error} className={className}>
      {(aria) => (
        <textarea
          className="field__input field__input--textarea"
          required={required}
          {...aria}
          {...textarea}
        />
      )}
    </FieldFrame>
  );
}
