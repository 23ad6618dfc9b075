import { type ReactNode, useEffect, useId, useRef, useState } from 'react';
import uPlot from 'uplot';
import { navigate } from '../../state/navigation.ts';

/** One series of a chart: its name in the legend, its colour, and a value per category (null: none). */
export interface ChartSeries {
  label: string;
  color: string;
  values: Array<number | null>;
}

export type ChartKind =
  /** Lines with points, one per series. */
  | 'lines'
  /** Bars side by side (two series at most: left and right of the category). */
  | 'bars'
  /** Bars stacked in series order (the first at the bottom). */
  | 'stacked'
  /** Bars drawn over each other at one place (the second a part of the first, e.g. submitted of requested). */
  | 'overlaid'
  /**
   * As 'overlaid', but across, one row per category, in HTML rather than on the canvas: long
   * names (companies) each keep a line of their own, cut with an ellipsis and whole in their
   * title, so they never overlap or run off the chart at any width (issue #30).
   */
  | 'rows';

/** Palette with at least 3:1 contrast on white (WCAG non-text contrast). */
export const chartColors = {
  blue: '#1d4ed8',
  green: '#047857',
  amber: '#b45309',
  grey: '#4b5563',
  violet: '#6d28d9',
} as const;

const compactDollars = (n: number) =>
  `$${new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 }).format(n)}`;

const chartHeight = 220;

/** The uPlot options and data for a chart of `width` pixels. */
export function chartSetup(
  kind: ChartKind,
  categories: readonly string[],
  series: readonly ChartSeries[],
  width: number,
): { options: uPlot.Options; data: uPlot.AlignedData } {
  const xs = categories.map((_, i) => i);
  // Stacked bars: each series is drawn as the running total, the tallest first so the others show on top.
  const running = categories.map(() => 0);
  const drawn = series.map((s) => ({
    ...s,
    values:
      kind === 'stacked'
        ? s.values.map((v, i) => {
            running[i] = (running[i] ?? 0) + (v ?? 0);
            return running[i] ?? 0;
          })
        : s.values,
  }));
  const order = kind === 'stacked' ? [...drawn].reverse() : drawn;
  const narrow = width < 480;
  const bars = (index: number) => {
    if (kind === 'lines') return undefined;
    if (kind === 'bars' && series.length > 1)
      return uPlot.paths.bars?.({ size: [0.4, 48], align: index === 0 ? -1 : 1 });
    if (kind === 'overlaid') return uPlot.paths.bars?.({ size: [index === 0 ? 0.7 : 0.4, 64] });
    return uPlot.paths.bars?.({ size: [0.7, 64] });
  };
  const options: uPlot.Options = {
    width,
    height: chartHeight,
    legend: { show: true, live: false },
    cursor: { y: false, points: { show: kind === 'lines' }, drag: { x: false, y: false } },
    select: { show: false, left: 0, top: 0, width: 0, height: 0 },
    scales: {
      x: { time: false, range: [-0.5, Math.max(0.5, categories.length - 0.5)] },
      y: { range: (_u, _min, max) => [0, max > 0 ? max * 1.1 : 1] },
    },
    axes: [
      {
        splits: () => xs,
        values: (_u, splits) =>
          splits.map((i) => {
            const label = categories[i] ?? '';
            return narrow && label.length > 10 ? `${label.slice(0, 9)}…` : label;
          }),
        rotate: narrow && categories.length > 4 ? -45 : 0,
        size: narrow && categories.length > 4 ? 70 : 40,
        gap: 4,
        font: '11px system-ui, sans-serif',
      },
      {
        values: (_u, values) => values.map(compactDollars),
        size: 56,
        font: '11px system-ui, sans-serif',
      },
    ],
    series: [
      {},
      ...order.map((s) => {
        const index = drawn.indexOf(s);
        const path = bars(index);
        return {
          label: s.label,
          stroke: s.color,
          width: kind === 'lines' ? 2 : 0,
          ...(path
            ? { paths: path, fill: s.color, points: { show: false } }
            : { points: { show: true, size: 6 } }),
        } satisfies uPlot.Series;
      }),
    ],
  };
  return { options, data: [xs, ...order.map((s) => s.values)] as uPlot.AlignedData };
}

/**
 * A small chart drawn with uPlot (canvas) for sighted users, with its table beside it for
 * everyone: screen readers read the table (the canvas is hidden from them), and 'Show as table'
 * shows it on screen; a keyboard user who tabs into its links sees it too. Clicking a category
 * opens the donations list behind it (`links[i]`), as the table's links do.
 */
export function Chart({
  title,
  kind,
  categories,
  series,
  links,
  table,
}: {
  title: string;
  kind: ChartKind;
  categories: readonly string[];
  series: readonly ChartSeries[];
  links?: ReadonlyArray<string | undefined>;
  table: ReactNode;
}) {
  const host = useRef<HTMLDivElement>(null);
  const [showTable, setShowTable] = useState(false);
  const id = useId();
  const linksRef = useRef(links);
  linksRef.current = links;

  useEffect(() => {
    const element = host.current;
    if (!element || categories.length === 0 || kind === 'rows') return;
    const width = () => Math.max(240, Math.floor(element.clientWidth || 320));
    const { options, data } = chartSetup(kind, categories, series, width());
    const plot = new uPlot(options, data, element);
    const onClick = () => {
      const index = plot.cursor.idx;
      const link = index == null ? undefined : linksRef.current?.[index];
      if (link) navigate(link);
    };
    plot.over.addEventListener('click', onClick);
    // Resized in the next frame, not inside the observer's callback: resizing the plot there would
    // change what is observed within the same frame (the browser's 'ResizeObserver loop' error).
    let frame = 0;
    const observer = new ResizeObserver(() => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => {
        const next = width();
        if (next !== plot.width) plot.setSize({ width: next, height: chartHeight });
      });
    });
    observer.observe(element);
    return () => {
      cancelAnimationFrame(frame);
      observer.disconnect();
      plot.over.removeEventListener('click', onClick);
      plot.destroy();
    };
  }, [kind, categories, series]);

  return (
    <figure className="chart" aria-labelledby={`${id}-title`}>
      <figcaption id={`${id}-title`} className="chart__title">
        {title}
      </figcaption>
      {categories.length === 0 ? null : kind === 'rows' ? (
        <BarRows categories={categories} series={series} links={links} />
      ) : (
        <div ref={host} className="chart__plot" aria-hidden="true" data-testid="chart-plot" />
      )}
      <button
        type="button"
        className="chart__toggle"
        aria-expanded={showTable}
        aria-controls={`${id}-table`}
        onClick={() => setShowTable((shown) => !shown)}
      >
        {showTable ? 'Hide table' : 'Show as table'}
      </button>
      <div
        id={`${id}-table`}
        className={
          showTable || categories.length === 0 ? 'insights__scroll' : 'insights__scroll chart__table--hidden'
        }
      >
        {table}
      </div>
    </figure>
  );
}

/**
 * The 'rows' chart: a legend, then per category its name and its bars (the later series drawn
 * inside the first, as parts of it) with the first series' figure. Hidden from screen readers
 * like the canvas charts (the table carries the figures and links); a click on a row opens its
 * link, as a click on a canvas category does.
 */
function BarRows({
  categories,
  series,
  links,
}: {
  categories: readonly string[];
  series: readonly ChartSeries[];
  links?: ReadonlyArray<string | undefined> | undefined;
}) {
  const max = Math.max(0, ...series.flatMap((s) => s.values.map((v) => v ?? 0)));
  const share = (value: number | null | undefined) => `${max > 0 ? ((value ?? 0) / max) * 100 : 0}%`;
  return (
    <div className="chart__plot chart__rows" aria-hidden="true" data-testid="chart-plot">
      <ul className="chart__legend">
        {series.map((s) => (
          <li key={s.label}>
            <span className="chart__swatch" style={{ background: s.color }} />
            {s.label}
          </li>
        ))}
      </ul>
      <ol className="chart__bars">
        {categories.map((name, i) => {
          const link = links?.[i];
          return (
            // biome-ignore lint/a11y/useKeyWithClickEvents: the pointer's shortcut; keyboard and screen reader users have the same links in the table
            <li
              // biome-ignore lint/suspicious/noArrayIndexKey: two categories may share a name; their order is fixed
              key={i}
              className="chart__bar-row"
              onClick={link ? () => navigate(link) : undefined}
            >
              <span className="chart__bar-label" title={name}>
                {name}
              </span>
              <span className="chart__bar-track">
                {series.map((s, k) => (
                  <span
                    key={s.label}
                    className={k === 0 ? 'chart__bar' : 'chart__bar chart__bar--part'}
                    style={{ width: share(s.values[i]), background: s.color }}
                  />
                ))}
              </span>
              <span className="chart__bar-value">{compactDollars(series[0]?.values[i] ?? 0)}</span>
            </li>
          );
        })}
      </ol>
    </div>
  );
}
