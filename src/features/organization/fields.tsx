import { type ReactNode, useId } from 'react';
import {
  Field,
  type FieldProps,
  SelectField as UiSelectField,
  type SelectFieldProps as UiSelectFieldProps,
  TextAreaField as UiTextAreaField,
  type TextAreaFieldProps as UiTextAreaFieldProps,
} from '../../ui/field.tsx';

/**
 * The Organization Details tabs edit plain strings: these are the UI field primitives with a
 * value-in, value-out `onChange` (and no browser autofill, which would fill in the staff member's
 * own details over the organization's).
 */
type ValueChange<P> = Omit<P, 'onChange' | 'value'> & { value: string; onChange: (value: string) => void };

export function TextField({ onChange, autoComplete = 'off', ...props }: ValueChange<FieldProps>) {
  return <Field {...props} autoComplete={autoComplete} onChange={(e) => onChange(e.target.value)} />;
}

export function SelectField({ onChange, ...props }: ValueChange<UiSelectFieldProps>) {
  return <UiSelectField {...props} onChange={(e) => onChange(e.target.value)} />;
}

export function TextAreaField({ onChange, rows = 4, ...props }: ValueChange<UiTextAreaFieldProps>) {
  return <UiTextAreaField {...props} rows={rows} onChange={(e) => onChange(e.target.value)} />;
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
