import { type PointerEvent, useEffect, useImperativeHandle, useRef, useState } from 'react';
import { Button } from '../../ui/button.tsx';

/** What a pad gives its form: the drawing as a PNG data URL, or null when nothing is drawn. */
export type SignaturePadHandle = { dataUrl: () => string | null; clear: () => void };

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
  const [drawn, setDrawn] = useState(false);

  // The canvas's pixels follow its laid-out size (sharp on phones and high-density screens).
  useEffect(() => {
    const el = canvas.current;
    if (!el) return;
    const ratio = globalThis.devicePixelRatio || 1;
    const rect = el.getBoundingClientRect();
    el.width = Math.max(1, Math.round(rect.width * ratio));
    el.height = Math.max(1, Math.round(rect.height * ratio));
    const ctx = el.getContext('2d');
    if (!ctx) return;
    ctx.scale(ratio, ratio);
    ctx.lineWidth = 2.2;
    ctx.lineCap = 'round';
    ctx.lineJoin = 'round';
    ctx.strokeStyle = '#0c1a5a';
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
    const { x, y } = point(event);
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
