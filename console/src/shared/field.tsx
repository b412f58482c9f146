import { useId, type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes } from 'react';

type InputProps = InputHTMLAttributes<HTMLInputElement> & { readonly label: string; readonly hint?: string; readonly error?: string | undefined };

/**
 * A labelled input; a hint, when given, is read with it (aria-describedby), and so is what is wrong
 * with the value, shown beside the field and marking it invalid.
 */
export function Field({ label, hint, error, ...input }: InputProps) {
  const id = useId();
  const described = [error ? `${id}-error` : null, hint ? `${id}-hint` : null].filter(Boolean).join(' ');
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input id={id} aria-describedby={described || undefined} aria-invalid={error ? true : undefined} {...input} />
      {error && <small id={`${id}-error`} className="field-error">{error}</small>}
      {hint && <small id={`${id}-hint`}>{hint}</small>}
    </div>
  );
}

type SelectProps = SelectHTMLAttributes<HTMLSelectElement> & { readonly label: string; readonly children: ReactNode };

export function SelectField({ label, children, ...select }: SelectProps) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} {...select}>{children}</select>
    </div>
  );
}

/** Runs `onSubmit` in the page; the browser's own validation stays off so the API's words are shown. */
export function Form({ onSubmit, children, label, className }: { onSubmit: () => void; children: ReactNode; label: string; className?: string }) {
  return (
    <form
      aria-label={label}
      className={className}
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit();
      }}
    >
      {children}
    </form>
  );
}
