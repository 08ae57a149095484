/**
 * A plain data table in a scroll region that a keyboard can reach (Polaris' DataTable scrolls
 * at 360 px in a container that takes no focus: axe "scrollable-region-focusable", serious).
 * Numeric columns are right-aligned.
 */
import type { ReactNode } from 'react';

export function FigureTable({ label, headings, numeric, rows }: { label: string; headings: string[]; numeric: boolean[]; rows: ReactNode[][] }) {
  const cell = (index: number) => ({
    padding: '0.5rem 0.75rem',
    textAlign: numeric[index] ? ('right' as const) : ('left' as const),
    borderBottom: '1px solid var(--p-color-border-secondary)',
    whiteSpace: 'nowrap' as const,
  });
  return (
    <div role="region" aria-label={label} tabIndex={0} style={{ overflowX: 'auto' }}>
      <table style={{ borderCollapse: 'collapse', width: '100%', fontSize: 'var(--p-font-size-325)' }}>
        <thead>
          <tr>
            {headings.map((heading, index) => (
              <th key={heading} scope="col" style={{ ...cell(index), fontWeight: 'var(--p-font-weight-semibold)' }}>
                {heading}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row, rowIndex) => (
            <tr key={rowIndex}>
              {row.map((value, index) =>
                index === 0 ? (
                  <th key={index} scope="row" style={{ ...cell(index), fontWeight: 'var(--p-font-weight-regular)' }}>
                    {value}
                  </th>
                ) : (
                  <td key={index} style={cell(index)}>
                    {value}
                  </td>
                ),
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
