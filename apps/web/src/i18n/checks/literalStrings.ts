import ts from 'typescript';

/**
 * Props whose value a user reads or hears. A string literal with letters in one of them (or in
 * JSX text) must come from a translation instead. Object properties with these names count too,
 * so `{ label: 'Save' }` in a column list is caught like `<Button label="Save" />`.
 */
export const userVisibleProps = new Set([
  'alt',
  'aria-description',
  'aria-label',
  'aria-placeholder',
  'aria-roledescription',
  'aria-valuetext',
  'caption',
  'children',
  'description',
  'emptyText',
  'headerName',
  'helperText',
  'label',
  'labelRowsPerPage',
  'loadingText',
  'message',
  'noOptionsText',
  'placeholder',
  'primary',
  'secondary',
  'subheader',
  'subtitle',
  'title',
  'tooltip',
]);

/**
 * Exact texts allowed anyway. Keep this tiny and explain each entry: brand names belong in site
 * info or a constant, and everything a user reads belongs in locales/.
 */
export const allowedTexts = new Set<string>([]);

export interface Finding {
  line: number;
  text: string;
  where: string;
}

const LETTER = /\p{L}/u;

function hasLetters(text: string): boolean {
  return LETTER.test(text) && !allowedTexts.has(text.trim());
}

/**
 * The literal parts of an expression that can end up on screen: the literal itself, both branches
 * of `?:`, the operands of `&&`, `||`, `??` and `+`, template text and array items. Calls (such as
 * `t('key')`), comparisons and other nodes are not rendered text.
 */
function renderedLiterals(expression: ts.Expression | undefined): ts.Node[] {
  if (!expression) return [];
  if (ts.isStringLiteral(expression) || ts.isNoSubstitutionTemplateLiteral(expression)) return [expression];
  if (ts.isTemplateExpression(expression)) {
    const parts: ts.Node[] = [expression.head];
    for (const span of expression.templateSpans) parts.push(...renderedLiterals(span.expression), span.literal);
    return parts;
  }
  if (
    ts.isParenthesizedExpression(expression) ||
    ts.isAsExpression(expression) ||
    ts.isNonNullExpression(expression) ||
    ts.isSatisfiesExpression(expression)
  ) {
    return renderedLiterals(expression.expression);
  }
  if (ts.isConditionalExpression(expression)) {
    return [...renderedLiterals(expression.whenTrue), ...renderedLiterals(expression.whenFalse)];
  }
  if (ts.isBinaryExpression(expression)) {
    const operator = expression.operatorToken.kind;
    const joins = [
      ts.SyntaxKind.AmpersandAmpersandToken,
      ts.SyntaxKind.BarBarToken,
      ts.SyntaxKind.QuestionQuestionToken,
      ts.SyntaxKind.PlusToken,
    ];
    return joins.includes(operator)
      ? [...renderedLiterals(expression.left), ...renderedLiterals(expression.right)]
      : [];
  }
  if (ts.isArrayLiteralExpression(expression)) {
    return expression.elements.flatMap((element) => (ts.isExpression(element) ? renderedLiterals(element) : []));
  }
  return [];
}

function literalText(node: ts.Node): string {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (ts.isTemplateHead(node) || ts.isTemplateMiddle(node) || ts.isTemplateTail(node)) return node.text;
  return '';
}

function propertyName(name: ts.PropertyName | ts.JsxAttributeName): string | null {
  if (ts.isIdentifier(name) || ts.isStringLiteral(name)) return name.text;
  if (ts.isJsxNamespacedName(name)) return `${name.namespace.text}:${name.name.text}`;
  return null;
}

/** Finds user-visible literal text in one .tsx source. */
export function findLiteralStrings(source: string, fileName = 'file.tsx'): Finding[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const findings: Finding[] = [];
  const report = (node: ts.Node, text: string, where: string) => {
    if (!hasLetters(text)) return;
    const { line } = file.getLineAndCharacterOfPosition(node.getStart(file));
    findings.push({ line: line + 1, text: text.trim(), where });
  };
  const reportAll = (nodes: ts.Node[], where: string) => {
    for (const node of nodes) report(node, literalText(node), where);
  };

  const visit = (node: ts.Node) => {
    if (ts.isJsxText(node) && !node.containsOnlyTriviaWhiteSpaces) {
      report(node, node.text, 'JSX text');
    } else if (ts.isJsxAttribute(node)) {
      const name = propertyName(node.name);
      if (name && userVisibleProps.has(name)) {
        const value = node.initializer;
        if (value && ts.isStringLiteral(value)) report(value, value.text, `${name}="…"`);
        else if (value && ts.isJsxExpression(value)) reportAll(renderedLiterals(value.expression), `${name}={…}`);
      }
    } else if (ts.isJsxExpression(node) && (ts.isJsxElement(node.parent) || ts.isJsxFragment(node.parent))) {
      reportAll(renderedLiterals(node.expression), 'JSX child {…}');
    } else if (ts.isPropertyAssignment(node)) {
      const name = propertyName(node.name);
      if (name && userVisibleProps.has(name)) reportAll(renderedLiterals(node.initializer), `${name}: …`);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return findings;
}
