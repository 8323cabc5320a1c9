import type { Resource } from 'i18next';
import { isLanguage } from './languages.js';

type Catalogue = Record<string, unknown>;

// Every locales/<language>/<namespace>.json is bundled; a new namespace file needs no registration.
const files = import.meta.glob<Catalogue>('./locales/*/*.json', { eager: true, import: 'default' });

function buildResources(): { resources: Resource; namespaces: string[] } {
  const resources: Resource = {};
  const namespaces = new Set<string>();
  for (const [path, catalogue] of Object.entries(files)) {
    const match = /\.\/locales\/([^/]+)\/([^/]+)\.json$/.exec(path);
    if (!match?.[1] || !match[2] || !isLanguage(match[1])) continue;
    const [, language, namespace] = match;
    resources[language] = { ...resources[language], [namespace]: catalogue };
    namespaces.add(namespace);
  }
  return { resources, namespaces: [...namespaces].sort() };
}

export const { resources, namespaces } = buildResources();
