import { type PointerEvent, useEffect, useImperativeHandle, useRef, useState } from 'react';
import { Button } from '../../ui/button.tsx';

/** What a pad gives its form: the drawing as a PNG data URL, or null when nothing is drawn. */
export type SignaturePadHandle = { dataUrl: () => string | null; clear: () => void };

type Stroke = { width: number; height: number; points: { x: number; y: number }[] };

/**
 * Draws a kept stroke on a pad of another size: scaled down (never up, and the same in both
 * directions, so the signature keeps its shape) to fit where the pad became smaller.
 */
function redraw(ctx: CanvasRenderingContext2D, stroke: Stroke, width: number, height: number) {
  const scale = Math.min(1, width / stroke.width, height / stroke.height);
  const [first, ...rest] = stroke.points;
  if (!first) return;
  ctx.beginPath();
  ctx.moveTo(first.x * scale, first.y * scale);
  ctx.lineTo(first.x * scale + 0.1, first.y * scale + 0.1);
  for (const p of rest) ctx.lineTo(p.x * scale, p.y * scale);
  ctx.stroke();
}

/**
 * A signature drawn with a mouse, finger or pen on a canvas. Drawing is a pointer gesture with no
 * keyboard equivalent, so the form always offers typing the name instead (the accessible way).
 */
export function SignaturePad({
  label,
  ref,
  onChange,
}: {
  label: string;
  ref?: React.Ref<SignaturePadHandle>;
  onChange?: (drawn: boolean) => void;
}) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const drawing = useRef(false);
  /** Every stroke in CSS pixels, with the pad's size when it was drawn, to draw again on a resize. */
  const strokes = useRef<Stroke[]>([]);
  const [drawn, setDrawn] = useState(false);

  // The canvas's pixels follow its laid-out size (sharp on phones and high-density screens), and
  // follow it again whenever it changes (a phone turned, a window resized): a canvas sized once
  // would stretch its old pixels over the new box, and strokes would land away from the finger.
  useEffect(() => {
    const el = canvas.current;
    if (!el) return;
    const sizeToBox = () => {
      const ratio = globalThis.devicePixelRatio || 1;
      const rect = el.getBoundingClientRect();
      const width = Math.max(1, Math.round(rect.width * ratio));
      const height = Math.max(1, Math.round(rect.height * ratio));
      if (el.width === width && el.height === height) return;
      // Setting the size clears the canvas and its context state.
      el.width = width;
      el.height = height;
      const ctx = el.getContext('2d');
      if (!ctx) return;
      ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
      ctx.lineWidth = 2.2;
      ctx.lineCap = 'round';
      ctx.lineJoin = 'round';
      ctx.strokeStyle = '#0c1a5a';
      for (const stroke of strokes.current) redraw(ctx, stroke, rect.width, rect.height);
    };
    sizeToBox();
    const observer = new ResizeObserver(sizeToBox);
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  const point = (event: PointerEvent<HTMLCanvasElement>) => {
    const rect = event.currentTarget.getBoundingClientRect();
    return { x: event.clientX - rect.left, y: event.clientY - rect.top };
  };
  const start = (event: PointerEvent<HTMLCanvasElement>) => {
    const ctx = event.currentTarget.getContext('2d');
    if (!ctx) return;
    event.currentTarget.setPointerCapture(event.pointerId);
    drawing.current = true;
    const rect = event.currentTarget.getBoundingClientRect();
    const { x, y } = point(event);
    strokes.current.push({ width: rect.width, height: rect.height, points: [{ x, y }] });
    ctx.beginPath();
    ctx.moveTo(x, y);
    ctx.lineTo(x + 0.1, y + 0.1);
    ctx.stroke();
  };
  const move = (event: PointerEvent<HTMLCanvasElement>) => {
    if (!drawing.current) return;
    const ctx = event.currentTarget.getContext('2d');
    if (!ctx) return;
    const { x, y } = point(event);
    strokes.current.at(-1)?.points.push({ x, y });
    ctx.lineTo(x, y);
    ctx.stroke();
    if (!drawn) {
      setDrawn(true);
      onChange?.(true);
    }
  };
  const end = () => {
    drawing.current = false;
  };
  const clear = () => {
    const el = canvas.current;
    const ctx = el?.getContext('2d');
    if (!el || !ctx) return;
    strokes.current = [];
    ctx.save();
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, el.width, el.height);
    ctx.restore();
    setDrawn(false);
    onChange?.(false);
  };

  useImperativeHandle(ref, () => ({
    dataUrl: () => (drawn && canvas.current ? canvas.current.toDataURL('image/png') : null),
    clear,
  }));

  return (
    <div className="signature-pad">
      <canvas
        ref={canvas}
        className="signature-pad__canvas"
        part="signature-pad"
        role="img"
        aria-label={label}
        onPointerDown={start}
        onPointerMove={move}
        onPointerUp={end}
        onPointerCancel={end}
        onPointerLeave={end}
      />
      <Button type="button" variant="secondary" onClick={clear} disabled={!drawn}>
        Clear
      </Button>
    </div>
  );
}
