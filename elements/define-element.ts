import type { ComponentType } from 'react';
import tokensCss from '../src/ui/tokens.css?inline';
import uiCss from '../src/ui/ui.css?inline';
import uiPanelsCss from '../src/ui/ui-panels.css?inline';
import { defineElementWithSheets, type ElementOptions } from './define-element-core.ts';

export type { AttributeType, CommonProps, ElementOptions } from './define-element-core.ts';

/**
 * Publish a staff screen's island as a custom element (see define-element-core.ts), with every
 * primitive's CSS: tokens, the form primitives, and dialogs, tabs and toasts.
 */
export function defineElement<P extends object>(
  tag: `twofold-${string}`,
  Component: ComponentType<P>,
  options: ElementOptions<P> = {},
): CustomElementConstructor {
  return defineElementWithSheets(tag, Component, options, [tokensCss, uiCss, uiPanelsCss]);
}
