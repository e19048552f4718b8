/** @jsxImportSource preact */
import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';

/** Requests/s and 429/s over the last two minutes, drawn by uPlot; a table says the same. */
export function RateChart({ columns }: { columns: [number[], number[], number[]] }) {
  const box = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | undefined>(undefined);
  useEffect(() => {
    const element = box.current;
    if (element === null) return;
    const dark = matchMedia('(prefers-color-scheme: dark)').matches;
    const axis = { stroke: dark ? '#ccc' : '#333', grid: { stroke: dark ? '#333' : '#e4e4e4' } };
    plot.current = new uPlot(
      {
        width: Math.max(320, element.clientWidth),
        height: 220,
        series: [
          {},
          { label: 'requests/s', stroke: dark ? '#6cb6ff' : '#0a58ca', width: 2 },
          { label: '429/s', stroke: dark ? '#ff938a' : '#b02a37', width: 2, dash: [6, 4] },
        ],
        axes: [axis, axis],
        scales: { x: { time: true } },
      },
      columns,
      element,
    );
    // The chart follows its box's width (a window made narrower, a phone turned): uPlot draws at
    // a fixed size, which would otherwise scroll the page sideways.
    const resize = new ResizeObserver(() => {
      const width = Math.max(320, element.clientWidth);
      if (plot.current !== undefined && plot.current.width !== width)
        plot.current.setSize({ width, height: 220 });
    });
    resize.observe(element);
    return () => {
      resize.disconnect();
      plot.current?.destroy();
    };
  }, []);
  useEffect(() => plot.current?.setData(columns), [columns]);
  return (
    <div
      ref={box}
      class="chart"
      role="img"
      aria-label="Requests per second and 429s per second over the last two minutes"
    />
  );
}
