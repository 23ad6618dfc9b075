/**
 * A placeholder shaped like what is loading, with `label` (the spec's own loading text where it
 * quotes one, e.g. 'Loading statistics...') shown above the bars: everyone reads it, not only
 * screen readers. The bars are decoration.
 */
export function Skeleton({
  label,
  lines = 3,
  minHeight,
}: {
  label: string;
  lines?: number;
  minHeight?: number;
}) {
  return (
    <div className="skeleton" role="status" style={minHeight ? { minHeight } : undefined}>
      <p className="skeleton__label">{label}</p>
      {Array.from({ length: lines }, (_, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: identical placeholder bars
        <span key={i} className="skeleton__bar" aria-hidden="true" />
      ))}
    </div>
  );
}

/**
 * Placeholder rows while a table loads, as tall as real rows so nothing jumps when they arrive.
 * A first row across every column says `label` (e.g. the spec's 'Loading donations...'), visibly
 * and to screen readers; one cell of a narrow column would cut it.
 */
export function SkeletonRows({
  label,
  columns,
  rows = 5,
}: {
  label: string;
  columns: number;
  rows?: number;
}) {
  return (
    <>
      <tr className="skeleton-row skeleton-row--label">
        <td colSpan={columns}>
          <span role="status" className="skeleton__label">
            {label}
          </span>
        </td>
      </tr>
      {Array.from({ length: rows - 1 }, (_, r) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: identical placeholder rows
        <tr key={r} className="skeleton-row">
          {Array.from({ length: columns }, (_, c) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: identical placeholder cells
            <td key={c}>
              <span className="skeleton__bar" aria-hidden="true" />
            </td>
          ))}
        </tr>
      ))}
    </>
  );
}
