/**
 * Key sets that several screens' namespaces all provide, so a shared screen shell is worded by one
 * call (`useWords('<namespace>', '<set>')`) instead of a block of `t()` calls copied into each screen.
 * The key check (literal-strings.test.ts) expands every such call into its keys, so a namespace
 * missing one fails there as a literal `t()` would.
 */
export interface KeyTree {
  readonly [name: string]: string | KeyTree;
}

export const wordSets = {
  /** A paged list screen on `ListPage`: title row, search box, refresh button, empty states. */
  list: {
    title: 'title',
    subtitle: 'subtitle',
    create: 'create',
    refresh: 'refresh',
    search: { placeholder: 'searchPlaceholder', label: 'searchLabel' },
    empty: {
      title: 'empty.title',
      description: 'empty.description',
      noMatchTitle: 'empty.noMatchTitle',
      noMatchDescription: 'empty.noMatch',
    },
  },
  /** The screen of one kind of asynchronous task on `TaskListPage`. */
  taskList: {
    title: 'title',
    /** What the list shows: the caller's own tasks, or everyone's to an administrator. */
    subtitle: { own: 'subtitle', admin: 'subtitleAdmin' },
    refresh: 'refresh',
    filters: { apply: 'filters.apply', reset: 'filters.reset', show: 'filters.show', hide: 'filters.hide' },
    empty: {
      title: 'empty.title',
      description: 'empty.description',
      noMatchTitle: 'empty.noMatchTitle',
      noMatch: 'empty.noMatch',
    },
  },
  /** The buttons of a create/edit form dialog (`dialogButtons`). */
  formDialog: { cancel: 'form.cancel', create: 'form.create', save: 'form.save' },
  /** A usage trend card (`components/charts/UsageTrendCard`): its title, the period's totals, the metric switch. */
  usageTrend: {
    title: 'trend.title',
    subtitle: 'trend.subtitle',
    quota: 'trend.quota',
    requests: 'trend.requests',
    tokens: 'trend.tokens',
    metric: {
      label: 'metric.label',
      quota: 'metric.quota',
      requests: 'metric.requests',
      tokens: 'metric.tokens',
      promptTokens: 'metric.promptTokens',
      completionTokens: 'metric.completionTokens',
    },
  },
} as const satisfies Record<string, KeyTree>;

export type WordSetName = keyof typeof wordSets;

/** A key tree with each key replaced by its text. */
export type Words<Tree extends KeyTree> = {
  -readonly [Name in keyof Tree]: Tree[Name] extends KeyTree ? Words<Tree[Name]> : string;
};

/** The keys of a tree, in order (what the key check looks up). */
export function keysOf(tree: KeyTree): string[] {
  return Object.values(tree).flatMap((value) => (typeof value === 'string' ? [value] : keysOf(value)));
}

/** The tree with each key translated by `translate`. */
export function wordsOf<Tree extends KeyTree>(tree: Tree, translate: (key: string) => string): Words<Tree> {
  const words: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(tree))
    words[name] = typeof value === 'string' ? translate(value) : wordsOf(value, translate);
  return words as Words<Tree>;
}
