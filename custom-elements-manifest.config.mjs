/**
 * custom-elements.json (https://github.com/webcomponents/custom-elements-manifest), generated at
 * build time by @custom-elements-manifest/analyzer from the elements' JSDoc. Our elements are made
 * by a call, not a class (`export const TwofoldFaq = definePublicElement('twofold-faq', …)`), so a
 * small plugin reads those calls and the JSDoc above them (@summary @attr @event @csspart
 * @cssproperty). Editors, component catalogues and the portal's Widget guide read the result.
 */
const definers = new Set(['defineElement', 'definePublicElement']);
const tagged = ['attr', 'event', 'csspart', 'cssproperty'];

/** The JSDoc block right above a statement, as {summary, attr: [{name, description}], …}. */
function readJsDoc(node) {
  const full = node.getFullText();
  const leading = full.slice(0, node.getLeadingTriviaWidth());
  const match = /\/\*\*([\s\S]*?)\*\//.exec(leading);
  const doc = { summary: '', attr: [], event: [], csspart: [], cssproperty: [] };
  if (!match) return doc;
  const text = match[1]
    .split('\n')
    .map((line) => line.replace(/^\s*\* ?/, ''))
    .join('\n');
  for (const block of text.split(/\n(?=@)/)) {
    const tag = /^@(\w+)\s+([\s\S]*)$/.exec(block.trim());
    if (!tag) continue;
    const [, name, rest] = tag;
    const body = rest.replace(/\s*\n\s*/g, ' ').trim();
    if (name === 'summary') doc.summary = body;
    else if (tagged.includes(name)) {
      const [, itemName, description = ''] = /^(\S+)(?:\s+-\s+([\s\S]*))?$/.exec(body) ?? [];
      if (itemName) doc[name].push({ name: itemName, description });
    }
  }
  return doc;
}

function defineCallPlugin() {
  return {
    name: 'twofold-define-element',
    analyzePhase({ ts, node, moduleDoc }) {
      if (!ts.isVariableStatement(node)) return;
      for (const declaration of node.declarationList.declarations) {
        const call = declaration.initializer;
        if (!call || !ts.isCallExpression(call) || !ts.isIdentifier(call.expression)) continue;
        if (!definers.has(call.expression.text)) continue;
        const [tagArg] = call.arguments;
        if (!tagArg || !ts.isStringLiteral(tagArg)) continue;
        const name = declaration.name.getText();
        const tagName = tagArg.text;
        const doc = readJsDoc(node);
        moduleDoc.declarations = (moduleDoc.declarations ?? []).filter((d) => d.name !== name);
        moduleDoc.declarations.push({
          kind: 'class',
          name,
          tagName,
          customElement: true,
          summary: doc.summary,
          attributes: doc.attr,
          events: doc.event,
          cssParts: doc.csspart,
          cssProperties: doc.cssproperty,
          // Elements made with definePublicElement are the ones meant for other sites.
          public: call.expression.text === 'definePublicElement',
        });
        moduleDoc.exports = (moduleDoc.exports ?? []).filter((e) => e.name !== name && e.name !== tagName);
        moduleDoc.exports.push(
          { kind: 'js', name, declaration: { name, module: moduleDoc.path } },
          { kind: 'custom-element-definition', name: tagName, declaration: { name, module: moduleDoc.path } },
        );
      }
    },
  };
}

export default {
  globs: ['elements/twofold-*.ts'],
  exclude: ['elements/**/*.test.ts'],
  outdir: 'dist/elements',
  plugins: [defineCallPlugin()],
};
