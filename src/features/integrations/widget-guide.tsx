import { useEffect, useId, useRef, useState } from 'react';
import { getApiBase } from '../../api/client.ts';
import { toast } from '../../state/toasts.ts';
import { Button } from '../../ui/button.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { copyText } from './debounced.ts';
import {
  colourProperties,
  editableAttributes,
  embeddableElements,
  type ManifestElement,
  widgetSnippet,
} from './widget-guide.ts';

/** The guide's starting colours: the design tokens' defaults (tokens.css). */
const defaultColours: Record<string, string> = {
  '--twofold-color-primary': '#0f6e6e',
  '--twofold-color-text': '#1c2430',
  '--twofold-color-background': '#ffffff',
  '--twofold-color-surface': '#f5f7f9',
};

/**
 * The Widget guide: pick an embeddable element, set its attributes and theme colours, see it live,
 * copy the snippet. What it offers comes from /elements/custom-elements.json.
 */
export function WidgetGuide({ organizationId }: { organizationId: number }) {
  const origin = getApiBase();
  const [elements, setElements] = useState<ManifestElement[] | null>(null);
  const [failed, setFailed] = useState(false);
  const [tag, setTag] = useState('');
  const [attributes, setAttributes] = useState<Record<string, string>>({});
  const [theme, setTheme] = useState<Record<string, string>>({});
  const selectId = useId();

  useEffect(() => {
    let live = true;
    fetch(`${origin}/elements/custom-elements.json`)
      .then((response) =>
        response.ok ? response.json() : Promise.reject(new Error(String(response.status))),
      )
      .then((manifest: unknown) => {
        if (!live) return;
        const found = embeddableElements(manifest);
        setElements(found);
        if (found[0]) setTag(found[0].tagName);
      })
      .catch(() => {
        if (live) setFailed(true);
      });
    return () => {
      live = false;
    };
  }, [origin]);

  const element = elements?.find((e) => e.tagName === tag);
  useEffect(() => {
    if (!element) return;
    // The match request form needs the organization: start from this one.
    setAttributes(
      element.tagName === 'twofold-match-request' ? { organization: String(organizationId) } : {},
    );
    setTheme(
      Object.fromEntries(colourProperties(element).map((name) => [name, defaultColours[name] ?? '#0f6e6e'])),
    );
  }, [element, organizationId]);

  if (failed)
    return <p role="alert">The element descriptions could not be loaded. Please reload the page.</p>;
  if (!elements) return <Spinner label="Loading the elements..." />;
  if (!element) return <p className="muted">No embeddable elements are described on this server.</p>;
  const snippet = widgetSnippet(element.tagName, attributes, theme, origin);
  return (
    <div className="guide">
      <div className="guide__settings">
        <div className="field">
          <label className="field__label" htmlFor={selectId}>
            Element
          </label>
          <select
            id={selectId}
            className="field__input"
            value={tag}
            onChange={(event) => setTag(event.target.value)}
          >
            {elements.map((e) => (
              <option key={e.tagName} value={e.tagName}>
                {e.tagName}
              </option>
            ))}
          </select>
        </div>
        {element.summary ? <p className="guide__summary">{element.summary}</p> : null}
        <fieldset className="guide__group">
          <legend>Attributes</legend>
          {editableAttributes(element).map((attribute) => (
            <GuideField
              key={`${element.tagName}-${attribute.name}`}
              label={attribute.name}
              hint={attribute.description ?? ''}
              value={attributes[attribute.name] ?? ''}
              onChange={(value) => setAttributes({ ...attributes, [attribute.name]: value })}
            />
          ))}
        </fieldset>
        {Object.keys(theme).length > 0 ? (
          <fieldset className="guide__group">
            <legend>Theme colours</legend>
            {Object.entries(theme).map(([name, value]) => (
              <GuideField
                key={`${element.tagName}-${name}`}
                label={name}
                type="color"
                hint={element.cssProperties?.find((p) => p.name === name)?.description ?? ''}
                value={value}
                onChange={(next) => setTheme({ ...theme, [name]: next })}
              />
            ))}
          </fieldset>
        ) : null}
      </div>
      <div className="guide__output">
        <h2 className="guide__heading">Snippet</h2>
        <pre className="integrations__code" data-testid="widget-snippet">
          <code>{snippet}</code>
        </pre>
        <div className="integrations__actions">
          <Button
            onClick={async () => {
              // spec: 'Copied!' (the API key's copy says 'Copied to clipboard').
              if (await copyText(snippet)) toast({ description: 'Copied!' });
            }}
          >
            Copy snippet
          </Button>
        </div>
        <h2 className="guide__heading">Preview</h2>
        <Preview tagName={element.tagName} attributes={attributes} theme={theme} origin={origin} />
      </div>
    </div>
  );
}

function GuideField({
  label,
  hint,
  value,
  type = 'text',
  onChange,
}: {
  label: string;
  hint: string;
  value: string;
  type?: 'text' | 'color';
  onChange: (value: string) => void;
}) {
  const id = useId();
  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      <input
        id={id}
        className={type === 'color' ? 'guide__colour' : 'field__input'}
        type={type}
        value={value}
        aria-describedby={hint ? `${id}-hint` : undefined}
        onChange={(event) => onChange(event.target.value)}
      />
      {hint ? (
        <p id={`${id}-hint`} className="field__hint">
          {hint}
        </p>
      ) : null}
    </div>
  );
}

/** The element itself, configured as the snippet says (its bundle loaded when this page lacks it). */
function Preview({
  tagName,
  attributes,
  theme,
  origin,
}: {
  tagName: string;
  attributes: Record<string, string>;
  theme: Record<string, string>;
  origin: string;
}) {
  const host = useRef<HTMLElement>(null);
  const key = JSON.stringify([tagName, attributes]);
  useEffect(() => {
    const container = host.current;
    if (!container) return;
    let live = true;
    const show = () => {
      if (!live) return;
      const [tag, attrs] = JSON.parse(key) as [string, Record<string, string>];
      const el = document.createElement(tag);
      el.setAttribute('api-base', origin);
      for (const [name, value] of Object.entries(attrs))
        if (value.trim()) el.setAttribute(name, value.trim());
      container.replaceChildren(el);
    };
    if (customElements.get(tagName)) show();
    else
      import(/* @vite-ignore */ `${origin}/elements/${tagName}.js`).then(show, () => {
        if (live) container.textContent = 'The preview could not be loaded.';
      });
    return () => {
      live = false;
    };
  }, [key, tagName, origin]);
  useEffect(() => {
    const el = host.current?.firstElementChild as HTMLElement | null | undefined;
    if (!el) return;
    for (const [name, value] of Object.entries(theme)) el.style.setProperty(name, value);
  });
  return <section ref={host} className="guide__preview" aria-label={`Preview of ${tagName}`} />;
}
