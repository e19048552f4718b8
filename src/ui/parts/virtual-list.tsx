/** @jsxImportSource preact */
import type { ComponentChildren } from 'preact';
import { useLayoutEffect, useRef, useState } from 'preact/hooks';

/**
 * A list that renders only the rows in view (and a few around them), so 10,000 rows scroll as
 * smoothly as 10: every row is `rowHeight` pixels high, spacers stand for the rest.
 *
 * The list is one stop of the Tab key, whatever its length (its rows' links take the focus with
 * the arrow keys, Home and End), so Tab goes past it to what follows: a row renders its link
 * with `tabIndex={-1}`.
 *
 * A row that has the focus keeps it as rows come and go around it (live updates add the newest
 * at the top): the list scrolls with it, where it would otherwise stop rendering it and drop the
 * focus to the body. Rows are told apart by `keyOf`, as their `key`.
 */
export function VirtualList<T>(props: {
  items: readonly T[];
  rowHeight: number;
  height: number;
  label: string;
  keyOf: (item: T) => string | number;
  row: (item: T, index: number) => ComponentChildren;
}) {
  const { items, rowHeight, height, keyOf } = props;
  const [top, setTop] = useState(0);
  const box = useRef<HTMLDivElement>(null);
  // The focused row: its key, and its place at the last render.
  const held = useRef<{ key: string | number; index: number } | undefined>(undefined);
  let view = top;
  const focused = held.current;
  if (focused !== undefined && box.current?.contains(document.activeElement) === true) {
    const index = items.findIndex((item) => keyOf(item) === focused.key);
    if (index !== -1) {
      view = Math.max(0, top + (index - focused.index) * rowHeight);
      focused.index = index;
    }
  }
  const first = Math.max(0, Math.floor(view / rowHeight) - 10);
  const count = Math.ceil(height / rowHeight) + 20;
  const last = Math.min(items.length, first + count);
  const rows = [];
  for (let index = first; index < last; index++) rows.push(props.row(items[index] as T, index));
  useLayoutEffect(() => {
    if (view === top) return;
    if (box.current !== null) box.current.scrollTop = view;
    setTop(view);
  }, [view, top]);
  return (
    <div
      ref={box}
      class="virtual"
      role="region"
      aria-label={props.label}
      tabIndex={0}
      onScroll={(event) => setTop(event.currentTarget.scrollTop)}
      onKeyDown={(event) => moveFocus(event, rowHeight, items.length)}
      onFocusCapture={(event) => {
        const at = [...event.currentTarget.querySelectorAll('ol.rows > li')].findIndex((row) =>
          row.contains(event.target as Node),
        );
        const item = items[first + at];
        held.current =
          at === -1 || item === undefined ? undefined : { key: keyOf(item), index: first + at };
      }}
    >
      <div class="spacer" data-height={first * rowHeight} ref={sizeTo(first * rowHeight)} />
      <ol class="rows" start={first + 1}>
        {rows}
      </ol>
      <div class="spacer" ref={sizeTo((items.length - last) * rowHeight)} />
    </div>
  );
}

/** The keys that move the focus among the rows, and where each takes it. */
const MOVES: Readonly<Record<string, (at: number, count: number) => number>> = {
  ArrowDown: (at, count) => Math.min(count - 1, at + 1),
  ArrowUp: (at) => Math.max(0, at - 1),
  Home: () => 0,
  End: (_at, count) => count - 1,
};

/**
 * Moves the focus to another row's link: the next or previous one, the first or the last (the
 * list scrolls so that it is rendered first). From the list itself, an arrow takes the first
 * row in view.
 */
function moveFocus(event: KeyboardEvent, rowHeight: number, count: number) {
  const move = MOVES[event.key];
  const list = event.currentTarget as HTMLElement;
  if (move === undefined || count === 0) return;
  event.preventDefault();
  const links = [...list.querySelectorAll<HTMLElement>('ol.rows > li a')];
  const start = Number((list.querySelector('ol.rows') as HTMLOListElement | null)?.start ?? 1) - 1;
  const focused = links.findIndex((link) => link === document.activeElement);
  const inView = Math.min(count - 1, Math.ceil(list.scrollTop / rowHeight));
  // From the list itself, an arrow takes the first row in view; Home and End go where they go.
  const at =
    focused !== -1
      ? move(start + focused, count)
      : event.key.startsWith('Arrow')
        ? inView
        : move(inView, count);
  const rendered = links[at - start];
  if (rendered !== undefined) {
    rendered.focus();
    return;
  }
  // Not rendered yet: scroll to it, and focus it once the list has rendered the rows there.
  list.scrollTop = at * rowHeight;
  const focusWhenRendered = (frames: number) =>
    requestAnimationFrame(() => {
      const first = Number(list.querySelector<HTMLOListElement>('ol.rows')?.start ?? 1) - 1;
      const link = list.querySelectorAll<HTMLElement>('ol.rows > li a')[at - first];
      if (link !== undefined) link.focus();
      else if (frames > 0) focusWhenRendered(frames - 1);
    });
  focusWhenRendered(10);
}

/** Sets an element's height through the CSSOM (the page's CSP allows no style attribute). */
function sizeTo(pixels: number) {
  return (element: HTMLElement | null) => {
    if (element !== null) element.style.height = `${pixels}px`;
  };
}
