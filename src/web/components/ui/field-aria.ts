/** The aria attributes that tie a control to its Field's help and error text. */
export function fieldAria(id: string, { error, help }: { error?: string; help?: unknown }) {
  const describedBy = error ? `${id}-error` : help ? `${id}-help` : undefined;
  return { 'aria-invalid': error ? true : undefined, 'aria-describedby': describedBy } as const;
}
