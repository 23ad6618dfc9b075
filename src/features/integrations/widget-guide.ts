/**
 * The Widget guide's rules: which elements a nonprofit can embed (read from custom-elements.json,
 * the manifest the build generates from the elements' JSDoc) and the snippet that embeds one.
 */

/** The part of a custom-elements.json declaration the guide reads. */
export type ManifestElement = {
  tagName: string;
  summary?: string;
  public?: boolean;
  attributes?: Array<{ name: string; description?: string }>;
  cssProperties?: Array<{ name: string; description?: string }>;
};
type Manifest = {
  modules?: Array<{ declarations?: Array<Partial<ManifestElement> & { customElement?: boolean }> }>;
};

/** The embeddable elements, in the order nonprofits most often want them. */
export const guideOrder = [
  'twofold-match-request',
  'twofold-faq',
  'twofold-donor-match-update',
  'twofold-registration',
];

/** The elements meant for other sites (public, and one the guide offers), in guideOrder. */
export function embeddableElements(manifest: unknown): ManifestElement[] {
  const declarations = ((manifest as Manifest)?.modules ?? []).flatMap((m) => m.declarations ?? []);
  const found = declarations.filter(
    (d): d is ManifestElement & { customElement: true } =>
      d.customElement === true &&
      d.public === true &&
      typeof d.tagName === 'string' &&
      guideOrder.includes(d.tagName),
  );
  return found.sort((a, b) => guideOrder.indexOf(a.tagName) - guideOrder.indexOf(b.tagName));
}

/** Theme knobs the guide offers as colour pickers: the element's documented --twofold-color-* properties. */
export function colourProperties(element: ManifestElement): string[] {
  return (element.cssProperties ?? [])
    .map((p) => p.name)
    .filter((name) => name.startsWith('--twofold-color-'));
}

/** Attributes the guide asks for (api-base is filled in: it is this server). */
export function editableAttributes(element: ManifestElement) {
  return (element.attributes ?? []).filter((a) => a.name !== 'api-base');
}

const escapeAttribute = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The HTML a nonprofit pastes into its own page: the element's bundle and the element, configured. */
export function widgetSnippet(
  tagName: string,
  attributes: Record<string, string>,
  theme: Record<string, string>,
  origin: string,
): string {
  const attrs = [`api-base="${escapeAttribute(origin)}"`];
  for (const [name, value] of Object.entries(attributes))
    if (value.trim() !== '') attrs.push(`${name}="${escapeAttribute(value.trim())}"`);
  const style = Object.entries(theme)
    .filter(([, value]) => /^#[0-9a-fA-F]{6}$/.test(value))
    .map(([name, value]) => `${name}: ${value}`)
    .join('; ');
  if (style) attrs.push(`style="${style}"`);
  return `<script type="module" src="${origin}/elements/${tagName}.js"></script>\n<${tagName} ${attrs.join(' ')}></${tagName}>`;
}
