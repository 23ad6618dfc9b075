/**
 * A placeholder shaped like what is loading. `label` is what a screen reader hears (the spec's
 * own loading text where it quotes one, e.g. 'Loading statistics...'); the bars are decoration.
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
      <span className="visually-hidden">{label}</span>
      {Array.from({ length: lines }, (_, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: identical placeholder bars
        <span key={i} className="skeleton__bar" aria-hidden="true" />
      ))}
    </div>
  );
}

/**
 * Placeholder rows while a table loads, as tall as real rows so nothing jumps when they arrive.
 * The first cell carries `label` for screen readers.
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
      {Array.from({ length: rows }, (_, r) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: identical placeholder rows
        <tr key={r} className="skeleton-row">
          {Array.from({ length: columns }, (_, c) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: identical placeholder cells
            <td key={c}>
              {r === 0 && c === 0 ? (
                <span role="status" className="visually-hidden">
                  {label}
                </span>
              ) : null}
              <span className="skeleton__bar" aria-hidden="true" />
            </td>
          ))}
        </tr>
      ))}
    </>
  );
}
