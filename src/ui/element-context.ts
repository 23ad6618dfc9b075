import { createContext, useContext } from 'react';

/** What an island knows about the custom element it lives in. */
export interface ElementInfo {
  /** The element itself: events are dispatched from here. */
  host: HTMLElement | null;
  /** Its shadow root: React portals (dialogs, menus) render in here, never into document.body. */
  root: ShadowRoot | null;
}

export const ElementContext = createContext<ElementInfo>({ host: null, root: null });

export function useElement(): ElementInfo {
  return useContext(ElementContext);
}
