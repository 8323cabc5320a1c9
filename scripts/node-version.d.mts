// Types of node-version.mjs for the server's launcher (src/launch.ts), which bundles it.
export const MINIMUM_NODE: string;
export function nodeVersionProblem(version: string, minimum?: string): string | undefined;
