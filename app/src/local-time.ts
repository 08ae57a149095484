/** The admin's date fields: `datetime-local` values in the browser's time zone, ISO instants on the wire. */


/** An ISO instant as a `datetime-local` value in the browser's time zone ('' for none). */
export function toLocalInput(iso: string | null): string {
  if (iso === null) return '';
  const date = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** A `datetime-local` value (browser time zone) as an ISO instant; null when empty. */
export const fromLocalInput = (value: string): string | null => (value === '' ? null : new Date(value).toISOString());
