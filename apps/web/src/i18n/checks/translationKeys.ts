import ts from 'typescript';
import { type KeyTree, keysOf, wordSets } from '../wordSets.js';
import { type Catalogues, lookup } from './catalogues.js';

export interface KeyUse {
  line: number;
  namespace: string;
  /** The key, or for a template literal the fixed prefix before the first `${…}` (ending in "."). */
  key: string;
  dynamic: boolean;
  /** Set on a `useWords` call whose namespace or set is not a literal (or not a known set): it cannot be checked. */
  unreadable?: string;
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

function isUseWords(node: ts.CallExpression): boolean {
  return ts.isIdentifier(node.expression) && node.expression.text === 'useWords';
}

/** One use per key of the set a `useWords('<namespace>', '<set>')` call names. */
function wordSetUses(node: ts.CallExpression, line: number, sets: Record<string, KeyTree>): KeyUse[] {
  const [namespace, set] = node.arguments;
  const tree =
    set && ts.isStringLiteral(set) && Object.hasOwn(sets, set.text) ? (sets[set.text] as KeyTree) : undefined;
  if (!namespace || !ts.isStringLiteral(namespace) || !tree)
    return [{ line, namespace: '', key: '', dynamic: false, unreadable: node.getText() }];
  return keysOf(tree).map((key) => ({ line, namespace: namespace.text, key, dynamic: false }));
}

/**
 * Every `t('…')` / `i18n.t('…')` with a literal (or template-prefixed) key in one source file, and
 * every key of the shared sets its `useWords` calls name.
 */
export function findTranslationKeys(
  source: string,
  fileName = 'file.tsx',
  sets: Record<string, KeyTree> = wordSets,
): KeyUse[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const uses: KeyUse[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node) && isUseWords(node)) {
      const { line } = file.getLineAndCharacterOfPosition(node.getStart(file));
      uses.push(...wordSetUses(node, line + 1, sets));
    } else if (ts.isCallExpression(node) && isTranslateCall(node)) {
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

/** What is wrong with the keys one source file uses, against one language's catalogues ("line: problem"). */
export function keyProblems(source: string, catalogues: Catalogues, fileName = 'file.tsx'): string[] {
  const problems: string[] = [];
  for (const use of findTranslationKeys(source, fileName)) {
    if (use.unreadable) {
      problems.push(`${use.line} cannot check ${use.unreadable}: give a literal namespace and a known set`);
      continue;
    }
    const catalogue = catalogues[use.namespace];
    if (!catalogue) {
      problems.push(`${use.line} uses unknown namespace "${use.namespace}"`);
      continue;
    }
    // A counted key lives as its plural forms (`key_one`, `key_other`); `_other` is there in every language.
    const value = use.dynamic
      ? lookup(catalogue, use.key.replace(/\.$/, ''))
      : (lookup(catalogue, use.key) ?? lookup(catalogue, `${use.key}_other`));
    const expected = use.dynamic ? 'object' : 'string';
    if (typeof value !== expected) problems.push(`${use.line} uses missing key "${use.namespace}:${use.key}"`);
  }
  return problems;
}
