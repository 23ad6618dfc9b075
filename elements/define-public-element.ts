import type { ComponentType } from 'react';
import tokensCss from '../src/ui/tokens.css?inline';
import uiCss from '../src/ui/ui.css?inline';
import { defineElementWithSheets, type ElementOptions } from './define-element-core.ts';

export type { AttributeType, CommonProps, ElementOptions } from './define-element-core.ts';

/**
 * Publish a public element (embedded on other sites: FAQ, donor edit, matching page,
 * registration, contact). The same runtime as defineElement, without the dialogs', tabs' and
 * toasts' CSS, which these elements never use. An element file that imports this one is built
 * as public (dist-config/build.mjs): against preact/compat, sharing twofold-public-runtime.js with
 * the other public elements, within its size budget (bench/bundle-size.mjs).
 */
export function definePublicElement<P extends object>(
  tag: `twofold-${string}`,
  Component: ComponentType<P>,
  options: ElementOptions<P> = {},
): CustomElementConstructor {
  return defineElementWithSheets(tag, Component, options, [tokensCss, uiCss]);
}
