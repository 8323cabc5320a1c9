import ts from 'typescript';

export interface KeyUse {
  line: number;
  namespace: string;
  /** The key, or for a template literal the fixed prefix before the first `${…}` (ending in "."). */
  key: string;
  dynamic: boolean;
}

const DEFAULT_NAMESPACE = 'common';

function isTranslateCall(node: ts.CallExpression): boolean {
  const callee = node.expression;
  if (ts.isIdentifier(callee)) return callee.text === 't';
  return ts.isPropertyAccessExpression(callee) && callee.name.text === 't';
}

function isUseTranslation(node: ts.Node): node is ts.CallExpression {
  return ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'useTranslation';
}

/** The namespace given to `useTranslation(...)` in the nearest enclosing function that calls it. */
function namespaceFor(node: ts.Node): string {
  for (let scope: ts.Node | undefined = node.parent; scope; scope = scope.parent) {
    if (!ts.isFunctionLike(scope) && !ts.isSourceFile(scope)) continue;
    let found: string | undefined;
    const search = (child: ts.Node) => {
      if (found !== undefined || (child !== scope && ts.isFunctionLike(child))) return;
      if (isUseTranslation(child)) {
        const argument = child.arguments[0];
        found = argument && ts.isStringLiteral(argument) ? argument.text : DEFAULT_NAMESPACE;
        return;
      }
      ts.forEachChild(child, search);
    };
    ts.forEachChild(scope, search);
    if (found !== undefined) return found;
  }
  return DEFAULT_NAMESPACE;
}

/** Every `t('…')` / `i18n.t('…')` with a literal (or template-prefixed) key in one source file. */
export function findTranslationKeys(source: string, fileName = 'file.tsx'): KeyUse[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const uses: KeyUse[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node) && isTranslateCall(node)) {
      const argument = node.arguments[0];
      let raw: string | null = null;
      let dynamic = false;
      if (argument && (ts.isStringLiteral(argument) || ts.isNoSubstitutionTemplateLiteral(argument)))
        raw = argument.text;
      else if (argument && ts.isTemplateExpression(argument)) {
        raw = argument.head.text;
        dynamic = true;
      }
      if (raw !== null && (!dynamic || raw.length > 0)) {
        const separator = raw.indexOf(':');
        const namespace = separator > 0 ? raw.slice(0, separator) : namespaceFor(node);
        const key = separator > 0 ? raw.slice(separator + 1) : raw;
        const { line } = file.getLineAndCharacterOfPosition(node.getStart(file));
        uses.push({ line: line + 1, namespace, key, dynamic });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return uses;
}
