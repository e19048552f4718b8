/** @jsxImportSource preact */
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';

/**
 * A list that renders only the rows in view (and a few around them), so 10,000 rows scroll as
 * smoothly as 10: every row is `rowHeight` pixels high, spacers stand for the rest.
 */
export function VirtualList<T>(props: {
  items: readonly T[];
  rowHeight: number;
  height: number;
  label: string;
  row: (item: T, index: number) => ComponentChildren;
}) {
  const { items, rowHeight, height } = props;
  const [top, setTop] = useState(0);
  const first = Math.max(0, Math.floor(top / rowHeight) - 10);
  const count = Math.ceil(height / rowHeight) + 20;
  const last = Math.min(items.length, first + count);
  const rows = [];
  for (let index = first; index < last; index++) rows.push(props.row(items[index] as T, index));
  return (
    <div
      class="virtual"
      role="region"
      aria-label={props.label}
      tabIndex={0}
      onScroll={(event) => setTop(event.currentTarget.scrollTop)}
    >
      <div class="spacer" data-height={first * rowHeight} ref={sizeTo(first * rowHeight)} />
      <ol class="rows" start={first + 1}>
        {rows}
      </ol>
      <div class="spacer" ref={sizeTo((items.length - last) * rowHeight)} />
    </div>
  );
}

/** Sets an element's height through the CSSOM (the page's CSP allows no style attribute). */
function sizeTo(pixels: number) {
  return (element: HTMLElement | null) => {
    if (element !== null) element.style.height = `${pixels}px`;
  };
}
