/**
 * The simulator's trace tree: every node says "Passed" or "Failed" in words with a mark (colour
 * only repeats it), the condition's name and why, as sentences (app/src/words.ts); combinators
 * have a "Collapse/Expand" button.
 */
import { isLeafType, leafForm } from '@gcrs/engine';
import { useId, useState } from 'react';
import type { TraceNode } from '../api/client.ts';
import { reasonSentence } from '../words.ts';

const GROUP_NAME: Record<string, string> = { AND: 'All of', OR: 'Any of', NOT: 'Not' };

/** A node type as the merchant reads it: the editor's label of the leaf, or the group's. */
export const nodeName = (type: string): string => GROUP_NAME[type] ?? (isLeafType(type) ? leafForm(type).label : type);

/** The trace of one node and, when it is a combinator, its children (expanded by default). */
export function TraceTree({ node, label }: { node: TraceNode; label?: string }) {
  const [open, setOpen] = useState(true);
  const childrenId = useId();
  const children = node.children ?? [];
  const verdict = node.matched ? 'Passed' : 'Failed';
  return (
    <li className="gcrs-trace-node">
      <div className="gcrs-trace-row" data-matched={node.matched}>
        {children.length > 0 ? (
          <button type="button" className="gcrs-trace-toggle" aria-expanded={open} aria-controls={childrenId} onClick={() => setOpen((value) => !value)}>
            {open ? 'Collapse' : 'Expand'} {label ?? nodeName(node.type)}
          </button>
        ) : null}
        <span className="gcrs-trace-verdict" data-matched={node.matched}>
          <span aria-hidden="true">{node.matched ? '✓' : '✗'}</span> {verdict}
        </span>
        <span className="gcrs-trace-name">{nodeName(node.type)}</span>
        {node.reasons.length > 0 && <span className="gcrs-trace-reasons">{node.reasons.map(reasonSentence).join(' ')}</span>}
        {node.truncated && <span className="gcrs-trace-reasons">(the rest of the trace was left out: it is too large)</span>}
      </div>
      {children.length > 0 && (
        <ul id={childrenId} hidden={!open} className="gcrs-trace-children">
          {children.map((child, index) => (
            // Trace nodes carry no id; their position is their identity.
            <TraceTree key={index} node={child} label={`${nodeName(child.type)} (${index + 1} of ${children.length} under ${nodeName(node.type)})`} />
          ))}
        </ul>
      )}
    </li>
  );
}

export const TRACE_CSS = `.gcrs-trace,.gcrs-trace-children{list-style:none;margin:0;padding-left:0}
.gcrs-trace-children{padding-left:1.25rem;border-left:2px solid var(--p-color-border);margin-left:.5rem}
.gcrs-trace-row{display:flex;flex-wrap:wrap;gap:.5rem;align-items:center;padding:.25rem 0}
.gcrs-trace-verdict{font-weight:650;padding:0 .4rem;border-radius:.4rem}
.gcrs-trace-verdict[data-matched=true]{background:var(--p-color-bg-fill-success-secondary);color:var(--p-color-text-success)}
.gcrs-trace-verdict[data-matched=false]{background:var(--p-color-bg-fill-critical-secondary);color:var(--p-color-text-critical)}
.gcrs-trace-reasons{color:var(--p-color-text-secondary);overflow-wrap:anywhere}
.gcrs-trace-toggle{font:inherit;font-size:.8rem;border:1px solid var(--p-color-border);background:var(--p-color-bg-surface);border-radius:.4rem;padding:.1rem .4rem;cursor:pointer}
.gcrs-trace-toggle:focus-visible{outline:2px solid var(--p-color-border-focus);outline-offset:1px}
.gcrs-trace-name{font-weight:550}
.gcrs-trace code{overflow-wrap:anywhere}`;

