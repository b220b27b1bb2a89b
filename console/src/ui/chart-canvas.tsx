// The drawing of a chart (uPlot on a canvas), loaded only by the pages that chart: stacked bars of
// counts per bucket and, on a second axis, a latency line. The numbers are also in the table
// beside the chart (stats-chart.tsx), which is what assistive technology reads.
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

export interface ChartData {
  /** Bucket starts, in seconds. */
  x: number[];
  /** Counts per bucket, stacked bottom to top. */
  stacks: { label: string; color: string; values: number[] }[];
  /** A line on the right axis (milliseconds), with gaps where null. */
  line?: { label: string; color: string; values: (number | null)[] };
}

const COUNT_STEPS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10_000, 20_000, 50_000, 100_000, 1_000_000];

function optionsOf(data: ChartData, width: number): uPlot.Options {
  const fg = getComputedStyle(document.body).color;
  const grid = { stroke: 'rgba(128,128,128,0.2)', width: 1 };
  const bars = uPlot.paths.bars!({ size: [0.8, 40], align: 0 });
  // The tallest (cumulative) stack first, so each lower one is drawn over it.
  const stacked = [...data.stacks].reverse().map((s) => ({
    label: s.label,
    fill: s.color,
    stroke: s.color,
    width: 0,
    paths: bars,
    points: { show: false },
  }));
  return {
    width,
    height: 200,
    legend: { show: false },
    cursor: { drag: { x: false, y: false } },
    scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, Math.max(1, max)] }, ms: { auto: true } },
    axes: [
      { stroke: fg, grid },
      // Counts are whole numbers: no tick between 0 and 1.
      { stroke: fg, grid, size: 50, incrs: COUNT_STEPS, values: (_: uPlot, v: number[]) => v.map((n) => String(n)) },
      ...(data.line
        ? [
            {
              scale: 'ms',
              side: 1,
              stroke: fg,
              grid: { show: false },
              size: 50,
              values: (_: uPlot, v: number[]) => v.map((n) => `${n} ms`),
            },
          ]
        : []),
    ],
    series: [
      {},
      ...stacked,
      ...(data.line
        ? [
            {
              label: data.line.label,
              scale: 'ms',
              stroke: data.line.color,
              width: 2,
              spanGaps: false,
              points: { show: true, size: 4 },
            },
          ]
        : []),
    ],
  };
}

function alignedOf(data: ChartData): uPlot.AlignedData {
  const sums: number[][] = [];
  let acc = data.x.map(() => 0);
  for (const s of data.stacks) {
    acc = acc.map((a, i) => a + (s.values[i] ?? 0));
    sums.push(acc);
  }
  return [data.x, ...sums.reverse(), ...(data.line ? [data.line.values] : [])] as uPlot.AlignedData;
}

export default function ChartCanvas({ data }: { data: ChartData }) {
  const box = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const shape = `${data.stacks.length}:${Boolean(data.line)}`;

  // biome-ignore lint/correctness/useExhaustiveDependencies: made again only when the series change (shape); new numbers go through setData below
  useEffect(() => {
    const el = box.current!;
    const u = new uPlot(optionsOf(data, Math.max(200, el.clientWidth)), alignedOf(data), el);
    plot.current = u;
    const resize = new ResizeObserver(() => u.setSize({ width: Math.max(200, el.clientWidth), height: 200 }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      u.destroy();
      plot.current = null;
    };
  }, [shape]);

  useEffect(() => {
    plot.current?.setData(alignedOf(data));
  }, [data]);

  return <div ref={box} className="chart-canvas" aria-hidden="true" />;
}
