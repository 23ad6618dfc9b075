import r2wc from '@r2wc/react-to-web-component';
import { type ComponentType, createElement } from 'react';
import { setApiBase } from '../src/api/client.ts';
import { ElementContext } from '../src/ui/element-context.ts';

/** How an attribute's text becomes a prop (r2wc's transforms). */
export type AttributeType = 'string' | 'number' | 'boolean' | 'json';

export interface ElementOptions<P> {
  /** camelCase prop → type; the attribute is the kebab-case name (apiBase ↔ api-base). */
  props?: { [K in keyof P]?: AttributeType };
  /** The island's own CSS (Vite `?inline`), adopted after the tokens and the primitives' CSS. */
  styles?: string[];
}

/** Attributes every element understands. */
export interface CommonProps {
  /** Where the API lives when it is not the page's own origin. */
  apiBase?: string;
}

/**
 * Publish a React island as a custom element: r2wc with an open shadow root, one constructed
 * stylesheet (tokens + primitives + the island's CSS) adopted into it, an inner root that drops
 * inherited host styles, and the shadow root handed to the island for portals and events.
 * Defining a tag twice returns the first definition (two bundles on one page must not throw).
 */
export function defineElementWithSheets<P extends object>(
  tag: `twofold-${string}`,
  Component: ComponentType<P>,
  options: ElementOptions<P>,
  baseSheets: readonly string[],
): CustomElementConstructor {
  const existing = customElements.get(tag);
  if (existing) return existing;

  function Island(props: P & CommonProps & { container?: HTMLElement }) {
    const { container, apiBase, ...rest } = props;
    if (apiBase) setApiBase(apiBase);
    // r2wc passes the shadow root as `container` (typed HTMLElement upstream).
    const root = container instanceof ShadowRoot ? container : null;
    const host = root?.host instanceof HTMLElement ? root.host : null;
    return createElement(
      ElementContext.Provider,
      { value: { root, host } },
      createElement('div', { className: 'twofold-root', part: 'base' }, createElement(Component, rest as P)),
    );
  }
  Island.displayName = `Twofold(${Component.displayName ?? Component.name ?? tag})`;

  const Base = r2wc(Island, {
    shadow: 'open',
    props: { apiBase: 'string', ...options.props } as Record<string, AttributeType>,
  });

  let sheet: CSSStyleSheet | null = null;
  const cssText = [...baseSheets, ...(options.styles ?? [])].join('\n');

  class TwofoldElement extends Base {
    constructor() {
      super();
      // r2wc attached the shadow root in its constructor: adopt before the first render.
      if (!sheet) {
        sheet = new CSSStyleSheet();
        sheet.replaceSync(cssText);
      }
      if (this.shadowRoot) this.shadowRoot.adoptedStyleSheets = [sheet];
    }
  }

  customElements.define(tag, TwofoldElement);
  return TwofoldElement;
}
