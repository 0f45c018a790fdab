import type { ReactNode } from 'react';

/** A labelled form control with optional help and error text, wired for screen readers. */
export function Field(props: { id: string; label: string; help?: ReactNode; error?: string; children: ReactNode }) {
  return (
    <div className="space-y-1.5">
      <label htmlFor={props.id} className="block text-sm font-medium text-stone-700">
        {props.label}
      </label>
      {props.children}
      {props.help && !props.error && (
        <p id={`${props.id}-help`} className="text-xs text-stone-500">
          {props.help}
        </p>
      )}
      {props.error && (
        <p id={`${props.id}-error`} role="alert" className="text-sm text-red-600">
          {props.error}
        </p>
      )}
    </div>
  );
}
