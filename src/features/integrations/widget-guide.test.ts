import { describe, expect, it } from 'vitest';
import { colourProperties, editableAttributes, embeddableElements, widgetSnippet } from './widget-guide.ts';

const manifest = {
  modules: [
    {
      declarations: [
        { kind: 'class', customElement: true, tagName: 'twofold-donations', public: false },
        {
          kind: 'class',
          customElement: true,
          tagName: 'twofold-faq',
          public: true,
          attributes: [{ name: 'api-base' }, { name: 'company' }],
          cssProperties: [{ name: '--twofold-color-primary' }, { name: '--twofold-radius' }],
        },
        { kind: 'class', customElement: true, tagName: 'twofold-match-request', public: true },
        { kind: 'class', customElement: true, tagName: 'twofold-contact', public: true },
      ],
    },
  ],
};

describe('the Widget guide', () => {
  it('offers the public embeddable elements from custom-elements.json, the match request first', () => {
    expect(embeddableElements(manifest).map((e) => e.tagName)).toEqual([
      'twofold-match-request',
      'twofold-faq',
    ]);
    expect(embeddableElements({})).toEqual([]);
  });

  it('asks for every attribute but api-base, and offers the colour properties as theme knobs', () => {
    const [, faq] = embeddableElements(manifest);
    if (!faq) throw new Error('no faq');
    expect(editableAttributes(faq).map((a) => a.name)).toEqual(['company']);
    expect(colourProperties(faq)).toEqual(['--twofold-color-primary']);
  });

  it('writes a snippet with the bundle, the set attributes escaped, and the theme as custom properties', () => {
    expect(
      widgetSnippet(
        'twofold-faq',
        { company: 'Acme "Widgets" <Inc>', partner: '' },
        { '--twofold-color-primary': '#7c3aed', '--twofold-color-text': 'red;}' },
        'https://portal.example.org',
      ),
    ).toBe(
      '<script type="module" src="https://portal.example.org/elements/twofold-faq.js"></script>\n' +
        '<twofold-faq api-base="https://portal.example.org" company="Acme &quot;Widgets&quot; &lt;Inc&gt;" style="--twofold-color-primary: #7c3aed"></twofold-faq>',
    );
  });
});
