/**
 * A strict reader of the small XML documents the Azure Speech mock receives (SSML): elements,
 * quoted attributes, text and the predefined and numeric entities. Anything not well formed (a
 * bare `<` or `&` in text, a tag closed out of order, content after the root) throws, as Azure
 * refuses such SSML, so a gateway that forgot to escape the text fails the tests.
 */
export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: Array<XmlElement | string>;
}

const NAME = /^[A-Za-z_][\w.:-]*/;
const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decode(text: string): string {
  return text.replace(/&([^;&\s]*);?/g, (whole, entity: string) => {
    if (!whole.endsWith(';')) throw new Error(`a bare & in ${JSON.stringify(text)}`);
    const named = ENTITIES[entity];
    if (named !== undefined) return named;
    const numeric = /^#(x[0-9a-f]+|\d+)$/i.exec(entity)?.[1];
    if (!numeric) throw new Error(`unknown entity &${entity};`);
    return String.fromCodePoint(numeric.startsWith('x') ? Number.parseInt(numeric.slice(1), 16) : Number(numeric));
  });
}

export function parseXml(source: string): XmlElement {
  let at = 0;
  const fail = (why: string): never => {
    throw new Error(`not well-formed XML at ${at}: ${why}`);
  };
  const skipSpace = () => {
    while (at < source.length && /\s/.test(source[at] as string)) at++;
  };
  const name = (): string => {
    const match = NAME.exec(source.slice(at));
    if (!match) return fail('a name was expected');
    at += match[0].length;
    return match[0];
  };
  const element = (): XmlElement => {
    if (source[at] !== '<') fail('an element was expected');
    at++;
    const tag = name();
    const attributes: Record<string, string> = {};
    for (;;) {
      skipSpace();
      if (source.startsWith('/>', at)) {
        at += 2;
        return { name: tag, attributes, children: [] };
      }
      if (source[at] === '>') {
        at++;
        break;
      }
      const attribute = name();
      skipSpace();
      if (source[at] !== '=') fail(`${attribute} has no value`);
      at++;
      skipSpace();
      const quote = source[at];
      if (quote !== '"' && quote !== "'") return fail(`${attribute}'s value is not quoted`);
      const end = source.indexOf(quote, at + 1);
      if (end < 0) fail('an unterminated attribute');
      const raw = source.slice(at + 1, end);
      if (raw.includes('<')) fail(`a < in the value of ${attribute}`);
      if (attribute in attributes) fail(`${attribute} given twice`);
      attributes[attribute] = decode(raw);
      at = end + 1;
    }
    const children: XmlElement['children'] = [];
    for (;;) {
      if (at >= source.length) fail(`<${tag}> is never closed`);
      if (source.startsWith('</', at)) {
        at += 2;
        const closing = name();
        if (closing !== tag) fail(`</${closing}> closes <${tag}>`);
        skipSpace();
        if (source[at] !== '>') fail('a closing tag was expected to end');
        at++;
        return { name: tag, attributes, children };
      }
      if (source[at] === '<') {
        children.push(element());
        continue;
      }
      const next = source.indexOf('<', at);
      const end = next < 0 ? source.length : next;
      children.push(decode(source.slice(at, end)));
      at = end;
    }
  };
  skipSpace();
  if (source.startsWith('<?xml', at)) {
    const end = source.indexOf('?>', at);
    if (end < 0) fail('an unterminated declaration');
    at = end + 2;
    skipSpace();
  }
  const root = element();
  skipSpace();
  if (at !== source.length) fail('content after the root element');
  return root;
}

/** The text of an element and all its descendants. */
export function textOf(element: XmlElement): string {
  return element.children.map((child) => (typeof child === 'string' ? child : textOf(child))).join('');
}

/** The first descendant named `name` (the element itself included), depth first. */
export function findElement(element: XmlElement, name: string): XmlElement | undefined {
  if (element.name === name) return element;
  for (const child of element.children) {
    if (typeof child === 'string') continue;
    const found = findElement(child, name);
    if (found) return found;
  }
  return undefined;
}
