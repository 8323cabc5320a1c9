import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MINIMUM_NODE, nodeVersionProblem } from './node-version.mjs';

describe('the Node version check of npm start and dist/main.js', () => {
  it("is the minimum of package.json's engines field", () => {
    const { engines } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
      engines: { node: string };
    };
    expect(`>=${MINIMUM_NODE.replace(/\.0$/, '')}`).toBe(engines.node);
  });

  it('accepts the minimum and anything newer, in either spelling', () => {
    for (const version of ['20.19.0', 'v20.19.0', '20.19.5', 'v20.20.2', '21.0.0', 'v22.12.0', '24.1.0', '100.0.0'])
      expect(nodeVersionProblem(version), version).toBeUndefined();
    expect(nodeVersionProblem(process.version)).toBeUndefined();
  });

  it('refuses anything older with one line naming both versions and what to do', () => {
    for (const version of ['v20.18.3', '20.18.99', '20.0.0', 'v18.20.4', '16.20.2', '8.0.0']) {
      const problem = nodeVersionProblem(version);
      expect(problem, version).toContain(`Node ${version} is too old`);
      expect(problem).toContain('needs Node 20.19.0 or newer');
      expect(problem).toContain('deploy/one-hub.service');
      expect(problem).not.toContain('\n');
    }
  });

  it('compares each part as a number, not as text', () => {
    expect(nodeVersionProblem('20.9.0', '20.19.0')).toBeDefined();
    expect(nodeVersionProblem('20.100.0', '20.19.0')).toBeUndefined();
    expect(nodeVersionProblem('9.99.99', '10.0.0')).toBeDefined();
    expect(nodeVersionProblem('20.19.1', '20.19.2')).toBeDefined();
  });

  it('refuses a version it cannot read rather than guessing', () => {
    for (const version of ['', 'node', 'v20', '20.x']) expect(nodeVersionProblem(version), version).toBeDefined();
  });
});
