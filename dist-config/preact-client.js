// What `react-dom/client` is in the public elements' build (see build.mjs): Preact's rendering
// behind React's createRoot, with React's timing where the elements (and r2wc) count on it.
//
// 1. root.render() renders on the next microtask, not at once: r2wc renders on every attribute
//    set before the element is attached (a script sets several, then appends it); React renders
//    once with all of them, so a component's initial state sees every attribute. Preact would
//    render with the first attribute alone.
// 2. The updates made while an event is handled (until the next microtask) render at once, and
//    their effects run on that microtask: React renders a click's or a keystroke's updates before
//    the next event is handled, and runs their effects (a focus move) before the browser paints.
//    Several events dispatched in one task (a script filling a form, then clicking Send) would
//    otherwise each see the state from before the first one. Any other update (a response
//    arriving) is batched on a microtask and its effects run after the next frame, as in Preact.
import { options } from 'preact';
import { render, unmountComponentAtNode } from 'preact/compat';

export function createRoot(container) {
  let next;
  let scheduled = false;
  let unmounted = false;
  return {
    render(children) {
      next = children;
      unmounted = false;
      if (scheduled) return;
      scheduled = true;
      queueMicrotask(() => {
        scheduled = false;
        if (!unmounted) render(next, container);
      });
    },
    unmount() {
      unmounted = true;
      unmountComponentAtNode(container);
    },
  };
}

let handlingEvent = false;
const previousEventHook = options.event;

options.event = (event) => {
  if (!handlingEvent) {
    handlingEvent = true;
    queueMicrotask(() => {
      handlingEvent = false;
    });
  }
  return previousEventHook ? previousEventHook(event) : event;
};

options.debounceRendering = (flush) => (handlingEvent ? flush() : queueMicrotask(flush));

/** Preact's own schedule for effects: after the next frame (or 35 ms, when frames pause). */
function afterNextFrame(flush) {
  let frame = 0;
  const done = () => {
    clearTimeout(timeout);
    cancelAnimationFrame(frame);
    setTimeout(flush);
  };
  const timeout = setTimeout(done, 35);
  frame = requestAnimationFrame(done);
}

options.requestAnimationFrame = (flush) => (handlingEvent ? queueMicrotask(flush) : afterNextFrame(flush));
